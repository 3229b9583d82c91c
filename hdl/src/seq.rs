//! The RTL's one PSN order (`docs/golden-model.md`, "Serial compare"; the model's
//! `golden_model::seq::psn_lt`): PSN `a` is below PSN `b` when `(b - a) mod 2^24` is in
//! `1..=2^23`. Every serial comparison in the SACK logic (`nic_rx`, `nic_sender`) is an
//! instance of [`PsnBelow`], so the rule is written once. The old rule stays selectable
//! (`PsnBelow::new(true)`) for this file's test, which simulates both.
//!
//! In hardware the rule is one bit: `(b - a) mod 2^24` in `1..=2^23` is `(a - b) mod 2^24` in
//! `2^23..2^24`, bit 23 of the difference. The old rule (`1..2^23`, the distance `2^23`
//! neither below nor above) also needs the difference's low 23 bits not all zero.

use rust_hdl::prelude::*;

/// Bit `i` of `below`: PSN `a + i` is below PSN `b`. The caller gives the difference
/// `d = a - b` (any width; bits above 23 are ignored): it computes it anyway, for a window
/// offset or a second compare, so the subtraction is shared. `N = 1` compares two PSNs; the
/// SACK receiver judges a whole segment with one instance.
#[derive(LogicBlock)]
pub struct PsnBelow<const N: usize> {
    /// `a - b` (wrapping).
    pub d: Signal<In, Bits<32>>,
    /// Bit `i`: `a + i` is below `b`.
    pub below: Signal<Out, Bits<N>>,
    /// 1: the old rule (only this file's test sets it).
    c_old_rule: Constant<Bit>,
    c_low23: Constant<Bits<32>>,
    d_i: Signal<Local, Bits<32>>,
}

impl<const N: usize> PsnBelow<N> {
    pub fn new(old_rule: bool) -> Self {
        PsnBelow {
            d: Default::default(),
            below: Default::default(),
            c_old_rule: Constant::new(old_rule),
            c_low23: Constant::new(bits::<32>((1 << 23) - 1)),
            d_i: Default::default(),
        }
    }
}

impl<const N: usize> Logic for PsnBelow<N> {
    #[hdl_gen]
    fn update(&mut self) {
        self.below.next = 0.into();
        for i in 0..N {
            self.d_i.next = self.d.val() + i.to_bits::<32>();
            if self.d_i.val().get_bit(23)
                & (!self.c_old_rule.val() | (self.d_i.val() & self.c_low23.val()).any())
            {
                self.below.next = self.below.val().replace_bit(i, true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generated comparator, simulated in Icarus, against the spec's rule at every
    /// distance around the half space and at the ends, with the new rule and the old one.
    #[test]
    fn the_generated_comparator_is_the_rule() {
        let half = 1u32 << 23;
        let mask = (1u32 << 24) - 1;
        let ds: Vec<u32> = (0..8)
            .chain(half - 8..half + 8)
            .chain(mask - 8..=mask)
            .chain([0xFF00_0000 | half, 0x1234_5678])
            .collect();
        for old in [false, true] {
            let v = crate::finish("psn_below", &crate::emit(PsnBelow::<4>::new(old)), 0).verilog;
            let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../target/gate/psn_below_{old}"));
            let mut tb = String::from(
                "module tb;\n  reg [31:0] d;\n  wire [3:0] below;\n  \
                 psn_below uut(.d(d), .below(below));\n  initial begin\n",
            );
            for d in &ds {
                tb.push_str(&format!(
                    "    d = 32'd{d}; #1 $display(\"%0d %b\", d, below);\n"
                ));
            }
            tb.push_str("  end\nendmodule\n");
            let text = crate::gate::icarus_run(&dir, &tb, &v);
            let rows: Vec<&str> = text.lines().collect();
            assert_eq!(rows.len(), ds.len(), "{text}");
            for (d, row) in ds.iter().zip(rows) {
                let bits = row.split_whitespace().nth(1).unwrap();
                for i in 0..4u32 {
                    // a = b + d, so `a + i` below `b` is about (b - a - i) = -(d + i) mod 2^24
                    let dist = 0u32.wrapping_sub(d.wrapping_add(i)) & mask;
                    let want = dist != 0 && if old { dist < half } else { dist <= half };
                    let got = bits.as_bytes()[3 - i as usize] == b'1';
                    assert_eq!(got, want, "old rule {old}, d {d:#x}, i {i}: {row}");
                }
            }
        }
    }
}
