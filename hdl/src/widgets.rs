//! Small combinational widgets for the RTL idioms that several blocks share, each written
//! once: the index of a one-hot vector ([`OneHotIndex`]), the exclusive prefix OR as carry
//! chains ([`PrefixOr`]), a cyclic range of slots back from a pointer ([`BackRange`]), a run's
//! length against a bound from its search's results ([`RunBelow`]), a sender's window test
//! ([`WindowOpen`]) and a SACK segment's tops below every bound, made early and looked up
//! ([`TopTable`], [`TopLookup`]). Each is a rust-hdl sub-block (its own Verilog module, inside
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

/// Whether the run a pair of lowest-set searches found from slot `s` (`hi` over the slots from
/// `s` up, `all` over every slot, for the wrap) is shorter than `k`, given `s_bound = s + k`
/// (made beside the searches, so that only a compare follows them). Neither search finding a
/// slot is a run of `W`, never below a bound `k <= W`. Callers compare "`x` below the count
/// the run leaves" (`x < n - run`) as the run below `n - x`: exact when `x < n <= W`, because
/// that bound is at most `n`, where the run is capped.
#[derive(LogicBlock)]
pub struct RunBelow<const W: usize> {
    /// The searches' results: bits 0..16 the index the search from `s` up
    /// found, 16..32 the one the search over every slot found, 32 and 33 whether each found one.
    pub s_found: Signal<In, Bits<34>>,
    /// `s + k`.
    pub s_bound: Signal<In, Bits<16>>,
    /// The run is below `k`.
    pub m_below: Signal<Out, Bit>,
    cfg_w: Constant<Bits<16>>,
    hi_any: Signal<Local, Bit>,
    hi_idx: Signal<Local, Bits<16>>,
    all_any: Signal<Local, Bit>,
    all_idx: Signal<Local, Bits<16>>,
}

impl<const W: usize> Default for RunBelow<W> {
    fn default() -> Self {
        RunBelow {
            s_found: Default::default(),
            s_bound: Default::default(),
            m_below: Default::default(),
            cfg_w: Constant::new(bits::<16>(W as u64)),
            hi_any: Default::default(),
            hi_idx: Default::default(),
            all_any: Default::default(),
            all_idx: Default::default(),
        }
    }
}

impl<const W: usize> Logic for RunBelow<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.hi_idx.next = self.s_found.val().get_bits::<16>(0);
        self.all_idx.next = self.s_found.val().get_bits::<16>(16);
        self.hi_any.next = self.s_found.val().get_bit(32);
        self.all_any.next = self.s_found.val().get_bit(33);
        // A wrapped run is idx + W - s long: below k when idx < s + k - W.
        self.m_below.next = (self.hi_any.val() & (self.hi_idx.val() < self.s_bound.val()))
            | (!self.hi_any.val()
                & self.all_any.val()
                & (self.s_bound.val() >= self.cfg_w.val())
                & (self.all_idx.val() < self.s_bound.val() - self.cfg_w.val()));
    }
}

/// The window test of a sender, written once for its three uses: `m_open` when the bytes the
/// window counts, `s_raw` (the flight less the lost bytes, two's complement), are below
/// `s_cwnd`. A negative `s_raw` reads as 0 (the receiver's byte count can run ahead of the
/// sender's view of the acknowledged PSNs): open exactly when `s_cwnd` is not 0, so a zero
/// window stays shut.
#[derive(LogicBlock, Default)]
pub struct WindowOpen {
    /// `flight - lost`, two's complement.
    pub s_raw: Signal<In, Bits<32>>,
    /// The window, bytes.
    pub s_cwnd: Signal<In, Bits<32>>,
    /// A packet may go.
    pub m_open: Signal<Out, Bit>,
}

impl Logic for WindowOpen {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_open.next = self.s_raw.val() < self.s_cwnd.val();
        if self.s_raw.val().get_bit(31) {
            self.m_open.next = self.s_cwnd.val().any();
        }
    }
}

/// The settled window test by the lost count (combinational): [`WindowOpen`] on
/// `raw = X - n M` (mod 2^32, `M = 2^mtu_log2`) without the product and the sum after `n`.
/// With `n M < 2^31` (`rx_window <= 4096`, `mtu <= 16384`), `WindowOpen` (cwnd != 0 and raw's
/// sign bit or `raw < cwnd`) is, as integers, `Y = X - n M` below cwnd (`X < cwnd`, or
/// `n > (X - cwnd) / M`) or `Y` at least 2^31 (`X`'s top bit and `n <= (X - 2^31) / M`): two
/// thresholds made from `X` and the window ([`WindowThresholds`]), each compared with `n` once
/// it is counted ([`WindowCountTest`]). The two halves are apart so that a pipeline can
/// register the thresholds with the count and test them a stage later.
#[derive(LogicBlock)]
pub struct WindowByCount {
    /// `X`: the flight plus what the lost packets' lengths fall short of `n M`.
    pub s_x: Signal<In, Bits<32>>,
    /// The window, bytes.
    pub s_cwnd: Signal<In, Bits<32>>,
    /// `n`: the lost PSNs counted.
    pub s_n: Signal<In, Bits<16>>,
    /// A packet may go.
    pub m_open: Signal<Out, Bit>,
    thresholds: WindowThresholds,
    count_test: WindowCountTest,
}

impl WindowByCount {
    /// The test for packets of `2^mtu_log2` bytes.
    pub fn new(mtu_log2: u32) -> Self {
        WindowByCount {
            s_x: Default::default(),
            s_cwnd: Default::default(),
            s_n: Default::default(),
            m_open: Default::default(),
            thresholds: WindowThresholds::new(mtu_log2),
            count_test: Default::default(),
        }
    }
}

impl Logic for WindowByCount {
    #[hdl_gen]
    fn update(&mut self) {
        self.thresholds.s_x.next = self.s_x.val();
        self.thresholds.s_cwnd.next = self.s_cwnd.val();
        self.count_test.s_thr.next = self.thresholds.m_thr.val();
        self.count_test.s_n.next = self.s_n.val();
        self.m_open.next = self.count_test.m_open.val();
    }
}

/// Bits of [`WindowThresholds`]' word: 0..16 the first threshold's low bits, 16 it is 2^16
/// or more, 17 `X < cwnd`, 18..34 the second threshold's low bits, 34 it is 2^16 or more, 35
/// `X`'s top bit, 36 the window is not 0.
pub const WINDOW_THR_BITS: usize = 37;

/// [`WindowByCount`]'s first half (combinational): the two thresholds on the lost count, made
/// from `X` and the window alone, packed ([`WINDOW_THR_BITS`]).
#[derive(LogicBlock)]
pub struct WindowThresholds {
    /// `X`: the flight plus what the lost packets' lengths fall short of `n M`.
    pub s_x: Signal<In, Bits<32>>,
    /// The window, bytes.
    pub s_cwnd: Signal<In, Bits<32>>,
    /// The thresholds, packed.
    pub m_thr: Signal<Out, Bits<WINDOW_THR_BITS>>,
    cfg_mtu_log2: Constant<Bits<16>>,
    cfg_low31: Constant<Bits<32>>,
    d_xc: Signal<Local, Bits<33>>,
    t_xc: Signal<Local, Bits<32>>,
    t_x2: Signal<Local, Bits<32>>,
    word: Signal<Local, Bits<WINDOW_THR_BITS>>,
}

impl WindowThresholds {
    /// The thresholds for packets of `2^mtu_log2` bytes.
    pub fn new(mtu_log2: u32) -> Self {
        WindowThresholds {
            s_x: Default::default(),
            s_cwnd: Default::default(),
            m_thr: Default::default(),
            cfg_mtu_log2: Constant::new(Bits::<16>::from(u64::from(mtu_log2))),
            cfg_low31: Constant::new(Bits::<32>::from(0x7FFF_FFFF_u64)),
            d_xc: Default::default(),
            t_xc: Default::default(),
            t_x2: Default::default(),
            word: Default::default(),
        }
    }
}

impl Logic for WindowThresholds {
    #[hdl_gen]
    fn update(&mut self) {
        self.d_xc.next = bit_cast::<33, 32>(self.s_x.val()) - bit_cast::<33, 32>(self.s_cwnd.val());
        self.t_xc.next = bit_cast::<32, 33>(self.d_xc.val()) >> self.cfg_mtu_log2.val();
        self.t_x2.next = (self.s_x.val() & self.cfg_low31.val()) >> self.cfg_mtu_log2.val();
        self.word.next = bit_cast::<WINDOW_THR_BITS, 16>(bit_cast::<16, 32>(self.t_xc.val()))
            | (bit_cast::<WINDOW_THR_BITS, 16>(bit_cast::<16, 32>(self.t_x2.val())) << 18);
        self.word.next = self
            .word
            .val()
            .replace_bit(16, (self.t_xc.val() >> 16).any());
        self.word.next = self.word.val().replace_bit(17, self.d_xc.val().get_bit(32));
        self.word.next = self
            .word
            .val()
            .replace_bit(34, (self.t_x2.val() >> 16).any());
        self.word.next = self.word.val().replace_bit(35, self.s_x.val().get_bit(31));
        self.word.next = self.word.val().replace_bit(36, self.s_cwnd.val().any());
        self.m_thr.next = self.word.val();
    }
}

/// [`WindowByCount`]'s second half (combinational): the lost count against the thresholds
/// ([`WindowThresholds`]): two 16-bit compares and the flags.
#[derive(LogicBlock, Default)]
pub struct WindowCountTest {
    /// The thresholds, packed ([`WINDOW_THR_BITS`]).
    pub s_thr: Signal<In, Bits<WINDOW_THR_BITS>>,
    /// `n`: the lost PSNs counted.
    pub s_n: Signal<In, Bits<16>>,
    /// A packet may go.
    pub m_open: Signal<Out, Bit>,
    open_lt: Signal<Local, Bit>,
    open_neg: Signal<Local, Bit>,
}

impl Logic for WindowCountTest {
    #[hdl_gen]
    fn update(&mut self) {
        self.open_lt.next = self.s_thr.val().get_bit(17)
            | (!self.s_thr.val().get_bit(16)
                & (self.s_n.val() > self.s_thr.val().get_bits::<16>(0)));
        self.open_neg.next = self.s_thr.val().get_bit(35)
            & (self.s_thr.val().get_bit(34)
                | (self.s_n.val() <= self.s_thr.val().get_bits::<16>(18)));
        self.m_open.next =
            self.s_thr.val().get_bit(36) & (self.open_lt.val() | self.open_neg.val());
    }
}

/// The tops of a SACK segment (`SB` bits) below every bound, made from the bitmap alone:
/// for each `p` in `0..=SB`, the highest set bit below `p` (its index, 8 bits, and whether
/// there is one). Read by [`TopLookup`] from a register, so that a loop picks the top below a
/// bound it learns late with a select instead of a search. Kept bit-sliced (`TT = 9 (SB + 1)`
/// bits): slice `j < 8` (`SB` bits) holds bit `j` of every entry's index, slice 8 the "there
/// is one" bits, entry `p < SB` at position `p` of each; then entry `SB` (the whole
/// segment's top), 9 bits. Made by a scan of `log2 SB` levels: entry `p` starts as bit
/// `p - 1` (its index, when set); each level takes, into an entry without a top, the entry
/// `d` below (`d = 1, 2, 4, ...`); after the last, entry `p` covers every bit below `p`. A
/// level is a few operations on the slices side by side (the entries that take, repeated into
/// every slice; a slice's low `d` positions never take across into it).
#[derive(LogicBlock)]
pub struct TopTable<const SB: usize, const TT: usize> {
    /// The segment's bits.
    pub s_bitmap: Signal<In, Bits<SB>>,
    /// The table.
    pub m_table: Signal<Out, Bits<TT>>,
    /// The first level: slice `j < 8` holds bit `j` of `p - 1` at each position `p > 0`,
    /// slice 8 ones there.
    cfg_sel: Constant<Bits<TT>>,
    /// Slice `j`'s offset (`SB j`; the 10th: entry `SB`'s).
    cfg_slice: [Constant<Bits<16>>; 10],
    /// Entry `SB - 1`'s position in slice `j`.
    cfg_last: [Constant<Bits<16>>; 9],
    /// Entry `SB` when bit `SB - 1` is set.
    cfg_top_entry: Constant<Bits<16>>,
    cfg_ones: Constant<Bits<SB>>,
    cfg_one: Constant<Bits<TT>>,
    cfg_shift1: Constant<Bits<16>>,
    tt: Signal<Local, Bits<TT>>,
    /// The entries without a top that may take (the low `d` positions cannot).
    na: Signal<Local, Bits<SB>>,
    take: Signal<Local, Bits<TT>>,
    whole: Signal<Local, Bits<16>>,
}

impl<const SB: usize, const TT: usize> Default for TopTable<SB, TT> {
    fn default() -> Self {
        assert!(SB.is_power_of_two() && (2..=256).contains(&SB) && TT == 9 * (SB + 1));
        let c16 = |v: usize| Constant::new(bits::<16>(v as u64));
        TopTable {
            s_bitmap: Default::default(),
            m_table: Default::default(),
            cfg_sel: Constant::new({
                let mut m = Bits::<TT>::default();
                for j in 0..9 {
                    for p in (1..SB).filter(|p| j == 8 || ((p - 1) >> j) & 1 == 1) {
                        m = m.replace_bit(SB * j + p, true);
                    }
                }
                m
            }),
            cfg_slice: std::array::from_fn(|j| c16(SB * j)),
            cfg_last: std::array::from_fn(|j| c16(SB * j + SB - 1)),
            cfg_top_entry: c16(0x100 | (SB - 1)),
            cfg_ones: Constant::new(!Bits::<SB>::default()),
            cfg_one: Constant::new(bits::<TT>(1)),
            cfg_shift1: c16(1),
            tt: Default::default(),
            na: Default::default(),
            take: Default::default(),
            whole: Default::default(),
        }
    }
}

impl<const SB: usize, const TT: usize> Logic for TopTable<SB, TT> {
    #[hdl_gen]
    fn update(&mut self) {
        self.tt.next = 0.into();
        for j in 0..9 {
            self.tt.next = self.tt.val()
                | (bit_cast::<TT, SB>(self.s_bitmap.val() << self.cfg_shift1.val())
                    << self.cfg_slice[j].val());
        }
        self.tt.next = self.tt.val() & self.cfg_sel.val();
        for k in 0..(SB.trailing_zeros() as usize) {
            self.na.next = !bit_cast::<SB, TT>(self.tt.val() >> self.cfg_slice[8].val())
                & (self.cfg_ones.val() << (1_usize << k).to_bits::<16>());
            self.take.next = 0.into();
            for j in 0..9 {
                self.take.next = self.take.val()
                    | (bit_cast::<TT, SB>(self.na.val()) << self.cfg_slice[j].val());
            }
            self.tt.next = self.tt.val()
                | ((self.tt.val() << (1_usize << k).to_bits::<16>()) & self.take.val());
        }
        // Entry SB: bit SB - 1 if set, else entry SB - 1.
        self.whole.next = 0.into();
        for j in 0..9 {
            self.whole.next = self.whole.val().replace_bit(
                j,
                ((self.tt.val() >> self.cfg_last[j].val()) & self.cfg_one.val()).any(),
            );
        }
        if (self.s_bitmap.val() >> self.cfg_last[0].val()).any() {
            self.whole.next = self.cfg_top_entry.val();
        }
        self.m_table.next =
            self.tt.val() | (bit_cast::<TT, 16>(self.whole.val()) << self.cfg_slice[9].val());
    }
}

/// A [`TopTable`]'s entry for bound `s_b` (`s_b >= SB` reads entry `SB`, the whole
/// segment's top; `s_b = 0` has none): a bit of each slice at `s_b`'s low bits, or entry
/// `SB`'s bits, picked by `s_b`'s high bits; no carry.
#[derive(LogicBlock)]
pub struct TopLookup<const SB: usize, const TT: usize> {
    /// The table (from a register).
    pub s_table: Signal<In, Bits<TT>>,
    /// The bound.
    pub s_b: Signal<In, Bits<16>>,
    /// Bit 15: a set bit below the bound; the low bits: the highest one's index.
    pub m_top: Signal<Out, Bits<16>>,
    cfg_slice: [Constant<Bits<16>>; 10],
    cfg_low: Constant<Bits<16>>,
    cfg_one: Constant<Bits<SB>>,
    slice: Signal<Local, Bits<TT>>,
    top: Signal<Local, Bits<16>>,
}

impl<const SB: usize, const TT: usize> Default for TopLookup<SB, TT> {
    fn default() -> Self {
        assert!(SB.is_power_of_two() && (2..=256).contains(&SB) && TT == 9 * (SB + 1));
        TopLookup {
            s_table: Default::default(),
            s_b: Default::default(),
            m_top: Default::default(),
            cfg_slice: std::array::from_fn(|j| Constant::new(bits::<16>((SB * j) as u64))),
            cfg_low: Constant::new(bits::<16>(SB as u64 - 1)),
            cfg_one: Constant::new(bits::<SB>(1)),
            slice: Default::default(),
            top: Default::default(),
        }
    }
}

impl<const SB: usize, const TT: usize> Logic for TopLookup<SB, TT> {
    #[hdl_gen]
    fn update(&mut self) {
        self.top.next = 0.into();
        for j in 0..9 {
            self.slice.next = self.s_table.val() >> self.cfg_slice[j].val();
            self.top.next = self.top.val().replace_bit(
                j,
                ((bit_cast::<SB, TT>(self.slice.val()) >> (self.s_b.val() & self.cfg_low.val()))
                    & self.cfg_one.val())
                .any(),
            );
        }
        if (self.s_b.val() & !self.cfg_low.val()).any() {
            self.top.next = bit_cast::<16, TT>(self.s_table.val() >> self.cfg_slice[9].val());
        }
        // Bit 8 is "a top" (bit 15 of the entry).
        self.m_top.next = self.top.val() & 0xFF_usize.to_bits::<16>();
        if self.top.val().get_bit(8) {
            self.m_top.next =
                (self.top.val() & 0xFF_usize.to_bits::<16>()) | 0x8000_usize.to_bits::<16>();
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

    /// Runs the test bench `tb` on `v` in Icarus under `target/gate/widget_<name>` and returns
    /// the numbers of each line it prints.
    fn sim_rows(tb: &str, v: &str, name: &str) -> Vec<Vec<u64>> {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../target/gate")
            .join(format!("widget_{name}"));
        crate::gate::icarus_run(&dir, tb, v)
            .lines()
            .map(|l| l.split_whitespace().map(|v| v.parse().unwrap()).collect())
            .collect()
    }

    /// `BackRange<W>` (module `name`) simulated for every `n_slot` below `w` and every `x` up
    /// to `w + 1` against the plain reference (slot `(n_slot - k) mod w` for each `k` in
    /// `1..=min(x, w)`). Returns the inputs where they differ.
    fn check_back_range(v: &str, module: &str, name: &str, w: u64) -> Vec<String> {
        let tb = format!(
            "module tb;\n  reg [15:0] n_slot, x;\n  wire [{top}:0] mask;\n  integer n, k, i;\n  \
             {module} uut(.n_slot(n_slot), .x(x), .mask(mask));\n  initial begin\n    \
             for (n = 0; n < {w}; n = n + 1)\n      for (k = 0; k < {w} + 2; k = k + 1) begin\n        \
             n_slot = n; x = k; #1 $write(\"%0d %0d\", n, k);\n        \
             for (i = 0; i < {w}; i = i + 1) $write(\" %0d\", mask[i]);\n        \
             $display(\"\");\n      end\n  end\nendmodule\n",
            top = w - 1
        );
        let rows = sim_rows(&tb, v, name);
        let mut bad = Vec::new();
        for r in &rows {
            let (n, x) = (r[0], r[1]);
            for slot in 0..w {
                let want = (1..=x.min(w)).any(|k| (n + w - k) % w == slot);
                if (r[2 + slot as usize] == 1) != want {
                    bad.push(format!(
                        "n_slot {n} x {x}: slot {slot} {}, want {want}",
                        r[2 + slot as usize]
                    ));
                }
            }
        }
        assert_eq!(
            rows.len() as u64,
            w * (w + 2),
            "{name}: every input simulated"
        );
        bad
    }

    #[test]
    fn back_range_every_input() {
        let v = generated("br_8", BackRange::<8>::default());
        let bad = check_back_range(&v, "br_8", "br_8", 8);
        assert!(bad.is_empty(), "{bad:?}");
        // A range that does not wrap taken as one that does is caught.
        let broken = v.replacen("<=", ">", 1);
        assert_ne!(broken, v);
        assert!(!check_back_range(&broken, "br_8", "br_8_broken", 8).is_empty());
        // Wider windows.
        let v = generated("br_16", BackRange::<16>::default());
        let bad = check_back_range(&v, "br_16", "br_16", 16);
        assert!(bad.is_empty(), "{bad:?}");
        let v = generated("br_64", BackRange::<64>::default());
        let bad = check_back_range(&v, "br_64", "br_64", 64);
        assert!(bad.is_empty(), "{bad:?}");
    }

    /// `RunBelow<8>` for every 8-slot vector, start slot and bound `k` in `0..=8`, fed the
    /// two searches' results as the callers make them, against the run counted slot by slot
    /// (the distance from `s` to the first set slot cyclically, 8 when none is). Returns the
    /// inputs where they differ.
    fn check_run_below(v: &str, name: &str) -> Vec<String> {
        let tb = "module tb;\n  reg [33:0] found;\n  reg [15:0] bound;\n  wire below;\n  \
                  integer x, s, k, i, hi, all;\n  \
                  rb_8 uut(.s_found(found), .s_bound(bound), .m_below(below));\n  \
                  initial begin\n    for (x = 0; x < 256; x = x + 1)\n      \
                  for (s = 0; s < 8; s = s + 1)\n        for (k = 0; k < 9; k = k + 1) begin\n          \
                  hi = -1; all = -1;\n          \
                  for (i = 7; i >= 0; i = i - 1) if ((x >> i) & 1) begin\n            \
                  all = i; if (i >= s) hi = i;\n          end\n          \
                  found = 0;\n          if (hi >= 0) begin found[15:0] = hi; found[32] = 1; end\n          \
                  if (all >= 0) begin found[31:16] = all; found[33] = 1; end\n          \
                  bound = s + k; #1 $display(\"%0d %0d %0d %0d\", x, s, k, below);\n        \
                  end\n  end\nendmodule\n";
        let rows = sim_rows(tb, v, name);
        let mut bad = Vec::new();
        for r in &rows {
            let (x, s, k) = (r[0], r[1], r[2]);
            let run = (0..8).find(|d| x >> ((s + d) % 8) & 1 == 1).unwrap_or(8);
            if r[3] != u64::from(run < k) {
                bad.push(format!("x {x:#x} s {s} k {k}: below {}, run {run}", r[3]));
            }
        }
        assert_eq!(rows.len(), 256 * 8 * 9, "{name}: every input simulated");
        bad
    }

    #[test]
    fn run_below_every_input() {
        let v = generated("rb_8", RunBelow::<8>::default());
        let bad = check_run_below(&v, "rb_8");
        assert!(bad.is_empty(), "{bad:?}");
        // Each compare mutated is caught: a run equal to its bound taken as below, the wrapped
        // run's bound taken without `W`, and that bound's guard against wrapping below 0
        // dropped.
        for (from, to) in [
            ("(hi_idx < s_bound)", "(hi_idx <= s_bound)"),
            ("(all_idx < s_bound - cfg_w)", "(all_idx < s_bound)"),
            ("(s_bound >= cfg_w)", "1'b1"),
        ] {
            let broken = v.replacen(from, to, 1);
            assert_ne!(broken, v, "{from}");
            assert!(
                !check_run_below(&broken, "rb_8_broken").is_empty(),
                "{from}"
            );
        }
    }

    /// `WindowOpen` on the corners (zero window, a raw of 0, equal to the window, one below,
    /// negative, the most negative, the largest positive) and a sweep, against the rule
    /// (`max(raw, 0) < cwnd` with `raw` signed).
    #[test]
    fn window_open_corners() {
        let v = generated("wo", WindowOpen::default());
        let vals: Vec<u32> = [
            0u32,
            1,
            2,
            4095,
            4096,
            4097,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0xffff_f000,
        ]
        .into_iter()
        .chain((0..16).map(|i| i * 0x1111_1111))
        .collect();
        let run = |v: &str, name: &str| -> Vec<String> {
            let mut tb = String::from(
                "module tb;\n  reg [31:0] raw, cwnd;\n  wire open;\n  \
                 wo uut(.s_raw(raw), .s_cwnd(cwnd), .m_open(open));\n  initial begin\n",
            );
            for r in &vals {
                for c in &vals {
                    tb.push_str(&format!(
                        "    raw = {r}; cwnd = {c}; #1 $display(\"%0d %0d %0d\", raw, cwnd, open);\n"
                    ));
                }
            }
            tb.push_str("  end\nendmodule\n");
            let rows = sim_rows(&tb, v, name);
            let mut bad = Vec::new();
            for r in &rows {
                let want = i64::from((r[0] as u32 as i32).max(0)) < r[1] as i64;
                if r[2] != u64::from(want) {
                    bad.push(format!("raw {:#x} cwnd {:#x}: open {}", r[0], r[1], r[2]));
                }
            }
            assert_eq!(
                rows.len(),
                vals.len() * vals.len(),
                "{name}: every input simulated"
            );
            bad
        };
        let bad = run(&v, "wo");
        assert!(bad.is_empty(), "{bad:?}");
        // A negative raw compared as unsigned (the sign's branch dropped) is caught.
        let broken = v.replacen("if (s_raw[32'h1f])", "if (1'b0)", 1);
        assert_ne!(broken, v, "the sign's branch");
        assert!(!run(&broken, "wo_broken").is_empty());
    }
    /// `TopTable<8>` and `TopLookup<8>` together (the table straight into the lookup) for
    /// every 8-bit segment and every bound up to 17, against the highest set bit below
    /// `min(b, 8)` found bit by bit. Returns the inputs where they differ.
    fn check_top_table(table: &str, lookup: &str, name: &str) -> Vec<String> {
        let tb = "module tb;\n  reg [7:0] bm;\n  reg [15:0] b;\n  wire [80:0] tab;\n  \
                  wire [15:0] top;\n  integer x, k;\n  \
                  ttab_8 t(.s_bitmap(bm), .m_table(tab));\n  \
                  tlook_8 l(.s_table(tab), .s_b(b), .m_top(top));\n  initial begin\n    \
                  for (x = 0; x < 256; x = x + 1)\n      for (k = 0; k < 18; k = k + 1) begin\n        \
                  bm = x; b = k; #1 $display(\"%0d %0d %0d\", x, k, top);\n      end\n  \
                  end\nendmodule\n";
        let rows = sim_rows(tb, &format!("{table}\n{lookup}"), name);
        let mut bad = Vec::new();
        for r in &rows {
            let (x, b) = (r[0], r[1]);
            let want = (0..b.min(8))
                .rev()
                .find(|i| x >> i & 1 == 1)
                .map_or(0, |i| 0x8000 | i);
            if r[2] != want {
                bad.push(format!(
                    "bitmap {x:#04x} b {b}: top {:#x}, want {want:#x}",
                    r[2]
                ));
            }
        }
        assert_eq!(rows.len(), 256 * 18, "{name}: every input simulated");
        bad
    }

    #[test]
    fn top_table_every_input() {
        let t = generated("ttab_8", TopTable::<8, 81>::default());
        let l = generated("tlook_8", TopLookup::<8, 81>::default());
        let bad = check_top_table(&t, &l, "ttab_8");
        assert!(bad.is_empty(), "{bad:?}");
        // The scan's last level left out (entries then see 4 bits below them, not 8), and a
        // bound read as the entry above its own, are both caught.
        let last = t.rfind("tt = tt |").unwrap();
        let end = last + t[last..].find(';').unwrap() + 1;
        let short = format!("{}{}", &t[..last], &t[end..]);
        assert!(!check_top_table(&short, &l, "ttab_8_short").is_empty());
        let off = l.replacen("s_b & cfg_low", "s_b + 1 & cfg_low", 1);
        assert_ne!(off, l);
        assert!(!check_top_table(&t, &off, "ttab_8_off").is_empty());
    }

    /// `WindowByCount` at `mtu_log2` against `WindowOpen` on `raw = x - n 2^mtu_log2`
    /// (mod 2^32), over windows and flights at the corners (0, 1, 2^31 and 2^32 less and
    /// more one) and on each threshold's either side (`x = cwnd + j M + d`,
    /// `x = 2^31 + j M + d`), with lost counts around each `j`. Returns where they differ.
    fn check_window_by_count(v: &str, name: &str, mtu_log2: u32) -> Vec<String> {
        let m = 1u64 << mtu_log2;
        let cwnds = [
            0u64,
            1,
            m - 1,
            m,
            3 * m + 5,
            1 << 20,
            (1 << 31) - 1,
            1 << 31,
            u32::MAX as u64,
        ];
        let js = [0u64, 1, 2, 5, 255, 256, 4095, 4096];
        let mut cases = Vec::new();
        for &c in &cwnds {
            let mut xs = vec![
                0u64,
                1,
                m,
                (1 << 31) - 1,
                1 << 31,
                (1 << 31) + 1,
                u32::MAX as u64,
            ];
            for &j in &js {
                for d in [-1i64, 0, 1] {
                    for base in [c, 1 << 31] {
                        xs.push(((base + j * m) as i64 + d).rem_euclid(1 << 32) as u64);
                    }
                }
            }
            for &x in &xs {
                for &j in &js {
                    for n in [j.saturating_sub(1), j, j + 1] {
                        cases.push((x, c, n.min(4096)));
                    }
                }
            }
        }
        let mut tb = String::from(
            "module tb;\n  reg [31:0] x, c;\n  reg [15:0] n;\n  wire open;\n  \
             wbc uut(.s_x(x), .s_cwnd(c), .s_n(n), .m_open(open));\n  initial begin\n",
        );
        for (x, c, n) in &cases {
            tb.push_str(&format!(
                "    x = {x}; c = {c}; n = {n}; #1 $display(\"%0d %0d %0d %0d\", x, c, n, open);\n"
            ));
        }
        tb.push_str("  end\nendmodule\n");
        let rows = sim_rows(&tb, v, name);
        assert_eq!(rows.len(), cases.len(), "{name}: every case simulated");
        let mut bad = Vec::new();
        for r in &rows {
            let (x, c, n) = (r[0], r[1], r[2]);
            let raw = (x.wrapping_sub(n * m)) & 0xFFFF_FFFF;
            let want = if raw >> 31 == 1 { c != 0 } else { raw < c };
            if r[3] != u64::from(want) {
                bad.push(format!("x {x} cwnd {c} n {n}: open {}, want {want}", r[3]));
            }
        }
        bad
    }

    #[test]
    fn window_by_count_matches_window_open() {
        for mtu_log2 in [8, 12, 14] {
            let v = generated("wbc", WindowByCount::new(mtu_log2));
            let bad = check_window_by_count(&v, &format!("wbc_{mtu_log2}"), mtu_log2);
            assert!(
                bad.is_empty(),
                "mtu_log2 {mtu_log2}: {:?}",
                &bad[..bad.len().min(5)]
            );
        }
        // The threshold on the wrong side of its bound is caught.
        let v = generated("wbc", WindowByCount::new(12));
        let broken = v.replacen(" > ", " >= ", 1);
        assert_ne!(broken, v);
        assert!(!check_window_by_count(&broken, "wbc_broken", 12).is_empty());
    }
}
