//! Small combinational widgets for the RTL idioms that several blocks share, each written
//! once: the index of a one-hot vector ([`OneHotIndex`]), the exclusive prefix OR as carry
//! chains ([`PrefixOr`]) and a cyclic range of slots back from a pointer ([`BackRange`]). Each is a rust-hdl sub-block (its own Verilog module, inside
//! the block that uses it): the caller drives `x` and reads the outputs in the same cycle.
//!
//! **Drive `x` from registers.** rust-hdl writes a block's logic as one `always @(*)`, and
//! Verilator keeps in one piece the statements linked through the signals that block assigns.
//! When `x` is made from such a signal that also meets a widget's output, the piece both
//! drives the widget and reads it, a false combinational loop to Verilator (`UNOPTFLAT`, and a
//! slower simulation). So a caller writes `x` as an expression of registers, ports, constants
//! and other sub-blocks' outputs (repeating a local's expression if need be: synthesis merges
//! the copies); the blocks' gates lint for it.

use rust_hdl::prelude::*;

/// The mask of the positions in `0..N` whose index has bit `k` set: ANDed with a one-hot
/// vector and OR-reduced, it gives bit `k` of the hot position's index.
fn index_bit_mask<const N: usize>(k: usize) -> Bits<N> {
    let mut m = Bits::<N>::default();
    for i in (0..N).filter(|i| (i >> k) & 1 == 1) {
        m = m.replace_bit(i, true);
    }
    m
}

/// The index of the set bit of a one-hot vector (combinational): bit `k` of `idx` is an OR
/// tree over the bits of `x` whose position has bit `k` set (`x` ANDed with a constant mask,
/// reduced), `B` trees side by side, no priority and no carry chain.
///
/// - `x` zero: `idx` is 0 (the same as for bit 0 set; callers that need to tell them apart
///   keep a valid bit of their own).
/// - more than one bit set: `idx` is the bitwise OR of the set bits' positions (not any one
///   of them); callers give it one-hot vectors only.
///
/// `N <= 2^B`; bits of `idx` at or above `log2 N` are 0 (their masks are empty).
#[derive(LogicBlock)]
pub struct OneHotIndex<const N: usize, const B: usize> {
    /// The one-hot vector.
    pub x: Signal<In, Bits<N>>,
    /// The position of its set bit.
    pub idx: Signal<Out, Bits<B>>,
    /// `sel[k]`: the positions whose index has bit `k` set.
    sel: [Constant<Bits<N>>; B],
}

impl<const N: usize, const B: usize> OneHotIndex<N, B> {
    pub fn new() -> Self {
        assert!(N >= 1 && B >= 1 && B <= 32 && N <= 1 << B);
        OneHotIndex {
            x: Default::default(),
            idx: Default::default(),
            sel: std::array::from_fn(|k| Constant::new(index_bit_mask::<N>(k))),
        }
    }
}

impl<const N: usize, const B: usize> Default for OneHotIndex<N, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize, const B: usize> Logic for OneHotIndex<N, B> {
    #[hdl_gen]
    fn update(&mut self) {
        self.idx.next = 0.into();
        for k in 0..B {
            self.idx.next = self
                .idx
                .val()
                .replace_bit(k, (self.x.val() & self.sel[k].val()).any());
        }
    }
}

/// How [`PrefixOr`] tells that a segment of `x` has a set bit (the segments above it are
/// then all ones in the prefix), or that it does not join them. `Reduce` and `Borrow` give
/// the same values; the blocks were timed with the one they use, so each keeps it (`Borrow`
/// was `nic_entropy`'s quarters', before its groups).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegmentFlag {
    /// An OR reduction of the segment beside its chain (`entropy_bitmap`).
    Reduce,
    /// The segment's chain borrows out, into the bit above the segment: the flag comes off
    /// the chain. Needs at least two segments (a whole-width chain has no bit above it).
    Borrow,
    /// The segments are not joined: each segment's `pre` is its own exclusive prefix OR (the
    /// groups of `nic_entropy`, each searched on its own); `any` as with `Reduce`.
    Apart,
}

/// The exclusive prefix OR of `x` (combinational): bit `i` of `pre` is set when some bit of
/// `x` below `i` is set (bit 0 is always 0; `x` zero gives 0); the inclusive one is
/// `pre | x`. `any` is set when some bit of `x` is.
///
/// Made as carry chains, not log-depth shift-OR stages (which the LUT mapper serialised):
/// `!(y ^ (y - 1))` is the prefix of `y` (`y - 1` flips the lowest set bit and the zeros
/// below it). `x` is cut into `S` segments of `N / S` bits, each with a chain of its own side
/// by side (shorter chains; the masks leave each subtraction's upper bits unused, so synthesis
/// trims it to the segment's width), and a segment's prefix is joined with the segments below
/// it by one gate per bit: every bit of a segment is set when a segment below it has a bit
/// ([`SegmentFlag`] says how that is found; [`SegmentFlag::Apart`] leaves the segments
/// unjoined). `S = 1` is a single chain over the whole vector.
#[derive(LogicBlock)]
pub struct PrefixOr<const N: usize, const S: usize> {
    /// The vector.
    pub x: Signal<In, Bits<N>>,
    /// Bit `i`: some bit of `x` below `i` is set.
    pub pre: Signal<Out, Bits<N>>,
    /// Some bit of `x` is set.
    pub any: Signal<Out, Bit>,
    /// 1: [`SegmentFlag::Borrow`], 0: [`SegmentFlag::Reduce`] or [`SegmentFlag::Apart`].
    cfg_borrow: Constant<Bit>,
    /// 0: [`SegmentFlag::Apart`] (a segment's prefix is not joined with the segments below).
    cfg_join: Constant<Bit>,
    /// The lowest segment's bits, the bit just above them, and 1.
    cfg_seg: Constant<Bits<N>>,
    cfg_seg_top: Constant<Bits<N>>,
    cfg_one: Constant<Bits<N>>,
    /// Per segment: its lowest bit's position, and the bits of the segments above it.
    cfg_off: [Constant<Bits<16>>; S],
    cfg_above: [Constant<Bits<N>>; S],
    /// The segment being made (moved down to bit 0), minus 1, and whether it has a bit.
    y: Signal<Local, Bits<N>>,
    dy: Signal<Local, Bits<N>>,
    has: Signal<Local, Bit>,
}

impl<const N: usize, const S: usize> PrefixOr<N, S> {
    pub fn new(flag: SegmentFlag) -> Self {
        assert!(S >= 1 && N >= S && N.is_multiple_of(S) && N < 1 << 16);
        assert!(
            flag != SegmentFlag::Borrow || S >= 2,
            "a borrow flag needs a bit above the segment"
        );
        let w = N / S;
        let ones_from = |lo: usize| {
            let mut m = Bits::<N>::default();
            for i in lo..N {
                m = m.replace_bit(i, true);
            }
            m
        };
        let mut seg = Bits::<N>::default();
        for i in 0..w {
            seg = seg.replace_bit(i, true);
        }
        let seg_top = if w < N {
            Bits::<N>::default().replace_bit(w, true)
        } else {
            Bits::<N>::default()
        };
        PrefixOr {
            x: Default::default(),
            pre: Default::default(),
            any: Default::default(),
            cfg_borrow: Constant::new(flag == SegmentFlag::Borrow),
            cfg_join: Constant::new(flag != SegmentFlag::Apart),
            cfg_seg: Constant::new(seg),
            cfg_seg_top: Constant::new(seg_top),
            cfg_one: Constant::new(Bits::<N>::default().replace_bit(0, true)),
            cfg_off: std::array::from_fn(|s| Constant::new(bits::<16>((s * w) as u64))),
            cfg_above: std::array::from_fn(|s| Constant::new(ones_from((s + 1) * w))),
            y: Default::default(),
            dy: Default::default(),
            has: Default::default(),
        }
    }
}

impl<const N: usize, const S: usize> Logic for PrefixOr<N, S> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pre.next = 0.into();
        self.any.next = false;
        for s in 0..S {
            self.y.next = (self.x.val() >> self.cfg_off[s].val()) & self.cfg_seg.val();
            self.dy.next = self.y.val() - self.cfg_one.val();
            if self.cfg_borrow.val() {
                self.has.next = !(self.dy.val() & self.cfg_seg_top.val()).any();
            } else {
                self.has.next = self.y.val().any();
            }
            self.pre.next = self.pre.val()
                | ((!(self.y.val() ^ self.dy.val()) & self.cfg_seg.val()) << self.cfg_off[s].val());
            if self.has.val() & self.cfg_join.val() {
                self.pre.next = self.pre.val() | self.cfg_above[s].val();
            }
            self.any.next = self.any.val() | self.has.val();
        }
    }
}

/// The slots of the PSNs at most `x` back from `snd_nxt` in a window of `W` slots
/// (combinational): the cyclic range `[n_slot - x, n_slot)` as a mask, `L(x)` in the sender's
/// doc. `x` is 0..=W or more (`x >= W` gives every slot); `n_slot < W` is `snd_nxt`'s slot.
///
/// One thermometer (the slots at and above the range's start) ANDed with the one below
/// `n_slot` when the range does not wrap (`x <= n_slot`), ORed with it when it does: no
/// compare of `x` with a search's result, so a caller makes it from registers beside a search.
/// `W` is a power of two.
#[derive(LogicBlock)]
pub struct BackRange<const W: usize> {
    /// `snd_nxt`'s slot.
    pub n_slot: Signal<In, Bits<16>>,
    /// How far back the range reaches.
    pub x: Signal<In, Bits<16>>,
    /// Bit `s`: slot `s` holds one of the `x` PSNs below `snd_nxt`.
    pub mask: Signal<Out, Bits<W>>,
    cfg_w: Constant<Bits<16>>,
    cfg_slot_mask: Constant<Bits<16>>,
    cfg_ones: Constant<Bits<W>>,
    /// The range's first slot, the slots at and above it, the slots below `n_slot`.
    start: Signal<Local, Bits<16>>,
    from: Signal<Local, Bits<W>>,
    below: Signal<Local, Bits<W>>,
}

impl<const W: usize> Default for BackRange<W> {
    fn default() -> Self {
        assert!(W.is_power_of_two() && (2..1 << 15).contains(&W));
        BackRange {
            n_slot: Default::default(),
            x: Default::default(),
            mask: Default::default(),
            cfg_w: Constant::new(bits::<16>(W as u64)),
            cfg_slot_mask: Constant::new(bits::<16>(W as u64 - 1)),
            cfg_ones: Constant::new(!Bits::<W>::default()),
            start: Default::default(),
            from: Default::default(),
            below: Default::default(),
        }
    }
}

impl<const W: usize> Logic for BackRange<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.start.next = (self.n_slot.val() - self.x.val()) & self.cfg_slot_mask.val();
        self.from.next = self.cfg_ones.val() << self.start.val();
        self.below.next = !(self.cfg_ones.val() << self.n_slot.val());
        self.mask.next = 0.into();
        if self.x.val() >= self.cfg_w.val() {
            self.mask.next = self.cfg_ones.val();
        } else if self.x.val().any() {
            if self.x.val() <= self.n_slot.val() {
                self.mask.next = self.from.val() & self.below.val();
            } else {
                self.mask.next = self.from.val() | self.below.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulates `verilog` (module `name`, input `x` of `n` bits, outputs `outs` with their
    /// widths) in Icarus for every input value below `2^n`, and returns the outputs per input.
    fn every_input(name: &str, verilog: &str, n: usize, outs: &[(&str, usize)]) -> Vec<Vec<u64>> {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/gate")
            .join(format!("widget_{name}"));
        let mut tb = format!("module tb;\n  reg [{}:0] x;\n  integer i;\n", n - 1);
        for (o, w) in outs {
            tb.push_str(&format!("  wire [{}:0] {o};\n", w - 1));
        }
        let conns: Vec<String> = std::iter::once("x".to_string())
            .chain(outs.iter().map(|(o, _)| o.to_string()))
            .map(|p| format!(".{p}({p})"))
            .collect();
        tb.push_str(&format!("  {name} uut({});\n", conns.join(", ")));
        let fmt: Vec<&str> = outs.iter().map(|_| "%0d").collect();
        let args: Vec<&str> = outs.iter().map(|(o, _)| *o).collect();
        tb.push_str(&format!(
            "  initial begin\n    for (i = 0; i < {}; i = i + 1) begin\n      x = i; #1 \
             $display(\"{}\", {});\n    end\n  end\nendmodule\n",
            1u64 << n,
            fmt.join(" "),
            args.join(", ")
        ));
        let out = crate::gate::icarus_run(&dir, &tb, verilog);
        let rows: Vec<Vec<u64>> = out
            .lines()
            .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), 1 << n);
        rows
    }

    /// Generates `uut` as module `name`, lints it as the blocks are linted, and returns its
    /// Verilog.
    fn generated<L: Logic + Block>(name: &str, uut: L) -> String {
        let mut b = crate::finish(name, &crate::emit(uut), 0);
        b.verilog = crate::dollar_free(&b.verilog).unwrap();
        crate::gate::lint(&b, &format!("widget_{name}"));
        b.verilog
    }

    /// The plain reference: the OR of the set bits' positions (0 for none).
    fn index_reference(x: u64) -> u64 {
        (0..64).filter(|i| x >> i & 1 == 1).fold(0, |a, i| a | i)
    }

    /// The plain reference: bit `i` set when some bit of `x` below `i` is.
    fn prefix_reference(x: u64, n: usize) -> u64 {
        (0..n)
            .filter(|&i| x & ((1u64 << i) - 1) != 0)
            .fold(0, |a, i| a | 1 << i)
    }

    /// The plain reference of the unjoined segments of `w` bits: bit `i` set when some bit of
    /// `x` below `i` in `i`'s segment is.
    fn prefix_apart_reference(x: u64, n: usize, w: usize) -> u64 {
        (0..n)
            .filter(|&i| x & ((1u64 << i) - 1) & !((1u64 << (i / w * w)) - 1) != 0)
            .fold(0, |a, i| a | 1 << i)
    }

    /// `OneHotIndex<N, B>` simulated for every `N`-bit input against [`index_reference`];
    /// returns `idx` per input.
    fn check_index<const N: usize, const B: usize>() -> Vec<u64> {
        let name = format!("ohi_{N}_{B}");
        let v = generated(&name, OneHotIndex::<N, B>::new());
        let rows = every_input(&name, &v, N, &[("idx", B)]);
        for (x, row) in rows.iter().enumerate() {
            assert_eq!(row[0], index_reference(x as u64), "{name}: x {x:#x}");
        }
        rows.into_iter().map(|r| r[0]).collect()
    }

    /// `PrefixOr<N, S>` simulated for every `N`-bit input against [`prefix_reference`].
    fn check_prefix<const N: usize, const S: usize>(flag: SegmentFlag) {
        let name = format!("po_{N}_{S}_{flag:?}");
        let v = generated(&name, PrefixOr::<N, S>::new(flag));
        let rows = every_input(&name, &v, N, &[("pre", N), ("any", 1)]);
        for (x, row) in rows.iter().enumerate() {
            let x = x as u64;
            let want = if flag == SegmentFlag::Apart {
                prefix_apart_reference(x, N, N / S)
            } else {
                prefix_reference(x, N)
            };
            assert_eq!(row[0], want, "{name}: pre of {x:#x}");
            assert_eq!(row[1], u64::from(x != 0), "{name}: any of {x:#x}");
        }
    }

    #[test]
    fn one_hot_index_every_input() {
        // Every vector (zero, one-hot and more than one bit set): the index exactly as wide as
        // needed, wider (16 bits, as the entropy bitmaps use it), and on a vector that is not a
        // power of two wide.
        check_index::<8, 3>();
        check_index::<8, 16>();
        let idx = check_index::<12, 4>();
        // The documented cases, spelled out.
        assert_eq!(idx[0], 0, "zero gives 0");
        assert_eq!(idx[1 << 11], 11);
        assert_eq!(
            idx[(1 << 5) | (1 << 10)],
            5 | 10,
            "two bits: the OR of positions"
        );
    }

    #[test]
    fn prefix_or_every_input() {
        // Every vector, for each segment count and each segment flag (the blocks use 1
        // segment with `Reduce`, 2 with `Reduce`, and `Apart` with 2 to 64 segments).
        check_prefix::<8, 1>(SegmentFlag::Reduce);
        check_prefix::<8, 2>(SegmentFlag::Reduce);
        check_prefix::<8, 2>(SegmentFlag::Borrow);
        check_prefix::<8, 4>(SegmentFlag::Reduce);
        check_prefix::<8, 4>(SegmentFlag::Borrow);
        check_prefix::<8, 8>(SegmentFlag::Borrow);
        check_prefix::<16, 1>(SegmentFlag::Reduce);
        check_prefix::<16, 2>(SegmentFlag::Reduce);
        check_prefix::<16, 4>(SegmentFlag::Borrow);
        check_prefix::<8, 1>(SegmentFlag::Apart);
        check_prefix::<8, 2>(SegmentFlag::Apart);
        check_prefix::<16, 4>(SegmentFlag::Apart);
    }

    /// The checks can fail: a prefix whose join mask for the lower segment misses a bit, and
    /// an index with one mask wrong, are caught.
    #[test]
    fn broken_widgets_are_caught() {
        let v = generated("po_broken", PrefixOr::<8, 2>::new(SegmentFlag::Reduce));
        let broken = v.replacen(
            "localparam  cfg_above__0 = 8'hf0;",
            "localparam  cfg_above__0 = 8'h70;",
            1,
        );
        assert_ne!(broken, v, "the lower segment's join mask");
        let rows = every_input("po_broken", &broken, 8, &[("pre", 8), ("any", 1)]);
        assert!(rows
            .iter()
            .enumerate()
            .any(|(x, row)| row[0] != prefix_reference(x as u64, 8)));
        let v = generated("ohi_broken", OneHotIndex::<8, 3>::new());
        let broken = v.replacen("8'hcc", "8'hc8", 1);
        assert_ne!(broken, v, "bit 1's mask");
        let rows = every_input("ohi_broken", &broken, 8, &[("idx", 3)]);
        assert!(rows
            .iter()
            .enumerate()
            .any(|(x, row)| row[0] != index_reference(x as u64)));
    }

    /// `BackRange<8>` simulated for every `n_slot` below 8 and every `x` up to 9 against the
    /// plain reference (slot `(n_slot - k) mod 8` for each `k` in `1..=min(x, 8)`).
    fn check_back_range(v: &str, name: &str) -> Vec<String> {
        let tb = "module tb;\n  reg [15:0] n_slot, x;\n  wire [7:0] mask;\n  integer n, k;\n  \
                  br_8 uut(.n_slot(n_slot), .x(x), .mask(mask));\n  initial begin\n    \
                  for (n = 0; n < 8; n = n + 1)\n      for (k = 0; k < 10; k = k + 1) begin\n        \
                  n_slot = n; x = k; #1 $display(\"%0d %0d %0d\", n, k, mask);\n      end\n  \
                  end\nendmodule\n";
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/gate")
            .join(format!("widget_{name}"));
        let out = crate::gate::icarus_run(&dir, tb, v);
        let mut bad = Vec::new();
        let mut rows = 0;
        for l in out.lines() {
            let r: Vec<u64> = l.split_whitespace().map(|v| v.parse().unwrap()).collect();
            let (n, x) = (r[0], r[1]);
            let want = (1..=x.min(8)).fold(0u64, |a, k| a | 1 << ((n + 8 - k) % 8));
            if r[2] != want {
                bad.push(format!(
                    "n_slot {n} x {x}: mask {:#x}, want {want:#x}",
                    r[2]
                ));
            }
            rows += 1;
        }
        assert_eq!(rows, 80, "{name}: every input simulated");
        bad
    }

    #[test]
    fn back_range_every_input() {
        let v = generated("br_8", BackRange::<8>::default());
        let bad = check_back_range(&v, "br_8");
        assert!(bad.is_empty(), "{bad:?}");
        // A range that does not wrap taken as one that does is caught.
        let broken = v.replacen("<=", ">", 1);
        assert_ne!(broken, v);
        assert!(!check_back_range(&broken, "br_8_broken").is_empty());
    }
}
