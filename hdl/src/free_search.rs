//! The receive side's search of the window over two stages (`docs/blocks/nic_rx.md`,
//! "Pipeline"): given a vector `v` of the `W` slots (set where the slot's PSN is not held) and
//! `gt` (set on the slots after the packet's), find the first set slot after the packet's,
//! cyclically: the first among the slots above it, else the first from slot 0.
//!
//! ```text
//!  H2: per 16-slot group, once above the packet's slot and once below: any, first index ─► regs
//!  H3: a balanced tree of "left if it has one" merges over the W / 8 half-groups ─► slot
//! ```
//!
//! No carry chain and no priority chain longer than 16: the 256-slot search in one cycle was
//! the receive side's critical path (23.54 MHz).

use rust_hdl::prelude::*;

/// The search of one vector (the receive side runs four, one per speculative variant). The
/// vector is taken in H2; `m_slot` is the slot found, registered, two edges later. A slot is
/// always found where the caller sets at least one bit of `v` outside `gt` (the packet's own
/// slot, which stands for `psn + W`).
#[derive(LogicBlock)]
pub struct FreeSearch<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// The slots whose PSN is not held (H2).
    pub s_vec: Signal<In, Bits<W>>,
    /// The slots after the packet's (H2).
    pub s_gt: Signal<In, Bits<W>>,
    /// The first slot of `s_vec` after the packet's, cyclically (S3).
    pub m_slot: Signal<Out, Bits<16>>,
    /// No slot above the packet's: `m_slot` is at or below it (the run wrapped past W - 1).
    pub m_wrap: Signal<Out, Bit>,

    /// `W / 16`: where the half-groups below the packet's slot start.
    cfg_groups: Constant<Bits<16>>,
    /// `W / 8`: where the tree's inner nodes start (node `W / 8 + m` merges `2m` and `2m + 1`).
    cfg_leaves: Constant<Bits<16>>,
    /// Ones on the half-groups above the packet's slot (`0..W/16`).
    cfg_hi_groups: Constant<Bits<W>>,
    /// The root: `W / 4 - 2`.
    cfg_root: Constant<Bits<16>>,
    /// Bit `h` of `cfg_gbK`: bit `K` of half-group `h`'s group number (`h mod W / 16`).
    cfg_gb0: Constant<Bits<W>>,
    cfg_gb1: Constant<Bits<W>>,
    cfg_gb2: Constant<Bits<W>>,
    cfg_gb3: Constant<Bits<W>>,
    cfg_gb4: Constant<Bits<W>>,
    cfg_gb5: Constant<Bits<W>>,
    cfg_gb6: Constant<Bits<W>>,
    cfg_gb7: Constant<Bits<W>>,

    // H2
    hi: Signal<Local, Bits<W>>,
    lo: Signal<Local, Bits<W>>,
    seg: Signal<Local, Bits<16>>,
    fi: Signal<Local, Bits<4>>,
    any: Signal<Local, Bits<W>>,
    i0: Signal<Local, Bits<W>>,
    i1: Signal<Local, Bits<W>>,
    i2: Signal<Local, Bits<W>>,
    i3: Signal<Local, Bits<W>>,
    /// Per half-group (hi groups first): any slot, and the bits of its first slot's index.
    r_any: DFF<Bits<W>>,
    r_i0: DFF<Bits<W>>,
    r_i1: DFF<Bits<W>>,
    r_i2: DFF<Bits<W>>,
    r_i3: DFF<Bits<W>>,
    // H3: the tree, heap-indexed in each vector (leaves `0..W/8`, inner nodes after them).
    t_any: Signal<Local, Bits<W>>,
    t0: Signal<Local, Bits<W>>,
    t1: Signal<Local, Bits<W>>,
    t2: Signal<Local, Bits<W>>,
    t3: Signal<Local, Bits<W>>,
    t4: Signal<Local, Bits<W>>,
    t5: Signal<Local, Bits<W>>,
    t6: Signal<Local, Bits<W>>,
    t7: Signal<Local, Bits<W>>,
    t8: Signal<Local, Bits<W>>,
    t9: Signal<Local, Bits<W>>,
    t10: Signal<Local, Bits<W>>,
    t11: Signal<Local, Bits<W>>,
    left: Signal<Local, Bit>,
    slot: Signal<Local, Bits<16>>,
    r_slot: DFF<Bits<16>>,
    r_wrap: DFF<Bit>,
}

impl<const W: usize> FreeSearch<W> {
    pub fn new() -> Self {
        assert!(W.is_power_of_two() && (16..=4096).contains(&W));
        let groups = W / 16;
        let gb = |k: usize| {
            let mut m = Bits::<W>::default();
            for h in (0..2 * groups).filter(|h| ((h % groups) >> k) & 1 == 1) {
                m = m.replace_bit(h, true);
            }
            Constant::new(m)
        };
        FreeSearch {
            clock: Default::default(),
            s_vec: Default::default(),
            s_gt: Default::default(),
            m_slot: Default::default(),
            m_wrap: Default::default(),
            cfg_hi_groups: Constant::new({
                let mut m = Bits::<W>::default();
                for h in 0..groups {
                    m = m.replace_bit(h, true);
                }
                m
            }),
            cfg_groups: Constant::new(bits(groups as u64)),
            cfg_leaves: Constant::new(bits(2 * groups as u64)),
            cfg_root: Constant::new(bits(4 * groups as u64 - 2)),
            cfg_gb0: gb(0),
            cfg_gb1: gb(1),
            cfg_gb2: gb(2),
            cfg_gb3: gb(3),
            cfg_gb4: gb(4),
            cfg_gb5: gb(5),
            cfg_gb6: gb(6),
            cfg_gb7: gb(7),
            hi: Default::default(),
            lo: Default::default(),
            seg: Default::default(),
            fi: Default::default(),
            any: Default::default(),
            i0: Default::default(),
            i1: Default::default(),
            i2: Default::default(),
            i3: Default::default(),
            r_any: Default::default(),
            r_i0: Default::default(),
            r_i1: Default::default(),
            r_i2: Default::default(),
            r_i3: Default::default(),
            t_any: Default::default(),
            t0: Default::default(),
            t1: Default::default(),
            t2: Default::default(),
            t3: Default::default(),
            t4: Default::default(),
            t5: Default::default(),
            t6: Default::default(),
            t7: Default::default(),
            t8: Default::default(),
            t9: Default::default(),
            t10: Default::default(),
            t11: Default::default(),
            left: Default::default(),
            slot: Default::default(),
            r_slot: Default::default(),
            r_wrap: Default::default(),
        }
    }
}

impl<const W: usize> Default for FreeSearch<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize> Logic for FreeSearch<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_any, r_i0, r_i1, r_i2, r_i3, r_slot, r_wrap);

        // ---- H2: each 16-slot group, above the packet's slot (half-group g) and below it
        // (half-group W/16 + g): any, and the first slot's index (lowest wins).
        self.hi.next = self.s_vec.val() & self.s_gt.val();
        self.lo.next = self.s_vec.val() & !self.s_gt.val();
        self.any.next = 0.into();
        self.i0.next = 0.into();
        self.i1.next = 0.into();
        self.i2.next = 0.into();
        self.i3.next = 0.into();
        for g in 0..(W / 16_usize) {
            self.seg.next = self.hi.val().get_bits::<16>(16 * g);
            self.fi.next = 0.into();
            for b in 0..16 {
                if self.seg.val().get_bit(15 - b) {
                    self.fi.next = (15 - b).to_bits::<4>();
                }
            }
            self.any.next = self.any.val().replace_bit(g, self.seg.val().any());
            self.i0.next = self.i0.val().replace_bit(g, self.fi.val().get_bit(0));
            self.i1.next = self.i1.val().replace_bit(g, self.fi.val().get_bit(1));
            self.i2.next = self.i2.val().replace_bit(g, self.fi.val().get_bit(2));
            self.i3.next = self.i3.val().replace_bit(g, self.fi.val().get_bit(3));
            self.seg.next = self.lo.val().get_bits::<16>(16 * g);
            self.fi.next = 0.into();
            for b in 0..16 {
                if self.seg.val().get_bit(15 - b) {
                    self.fi.next = (15 - b).to_bits::<4>();
                }
            }
            self.any.next = self
                .any
                .val()
                .replace_bit(g + self.cfg_groups.val().index(), self.seg.val().any());
            self.i0.next = self
                .i0
                .val()
                .replace_bit(g + self.cfg_groups.val().index(), self.fi.val().get_bit(0));
            self.i1.next = self
                .i1
                .val()
                .replace_bit(g + self.cfg_groups.val().index(), self.fi.val().get_bit(1));
            self.i2.next = self
                .i2
                .val()
                .replace_bit(g + self.cfg_groups.val().index(), self.fi.val().get_bit(2));
            self.i3.next = self
                .i3
                .val()
                .replace_bit(g + self.cfg_groups.val().index(), self.fi.val().get_bit(3));
        }
        self.r_any.d.next = self.any.val();
        self.r_i0.d.next = self.i0.val();
        self.r_i1.d.next = self.i1.val();
        self.r_i2.d.next = self.i2.val();
        self.r_i3.d.next = self.i3.val();

        // ---- H3: leaves are the half-groups (their slot: group number, index); node
        // `W/8 + m` takes its left child `2m` if that has a slot, else its right `2m + 1`.
        self.t_any.next = self.r_any.q.val();
        self.t0.next = self.r_i0.q.val();
        self.t1.next = self.r_i1.q.val();
        self.t2.next = self.r_i2.q.val();
        self.t3.next = self.r_i3.q.val();
        self.t4.next = self.cfg_gb0.val();
        self.t5.next = self.cfg_gb1.val();
        self.t6.next = self.cfg_gb2.val();
        self.t7.next = self.cfg_gb3.val();
        self.t8.next = self.cfg_gb4.val();
        self.t9.next = self.cfg_gb5.val();
        self.t10.next = self.cfg_gb6.val();
        self.t11.next = self.cfg_gb7.val();
        for m in 0..(W / 8_usize - 1_usize) {
            self.left.next = self.t_any.val().get_bit(2 * m);
            self.t_any.next = self.t_any.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                self.left.val() | self.t_any.val().get_bit(2 * m + 1),
            );
            self.t0.next = self.t0.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t0.val().get_bit(2 * m))
                    | (!self.left.val() & self.t0.val().get_bit(2 * m + 1)),
            );
            self.t1.next = self.t1.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t1.val().get_bit(2 * m))
                    | (!self.left.val() & self.t1.val().get_bit(2 * m + 1)),
            );
            self.t2.next = self.t2.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t2.val().get_bit(2 * m))
                    | (!self.left.val() & self.t2.val().get_bit(2 * m + 1)),
            );
            self.t3.next = self.t3.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t3.val().get_bit(2 * m))
                    | (!self.left.val() & self.t3.val().get_bit(2 * m + 1)),
            );
            self.t4.next = self.t4.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t4.val().get_bit(2 * m))
                    | (!self.left.val() & self.t4.val().get_bit(2 * m + 1)),
            );
            self.t5.next = self.t5.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t5.val().get_bit(2 * m))
                    | (!self.left.val() & self.t5.val().get_bit(2 * m + 1)),
            );
            self.t6.next = self.t6.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t6.val().get_bit(2 * m))
                    | (!self.left.val() & self.t6.val().get_bit(2 * m + 1)),
            );
            self.t7.next = self.t7.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t7.val().get_bit(2 * m))
                    | (!self.left.val() & self.t7.val().get_bit(2 * m + 1)),
            );
            self.t8.next = self.t8.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t8.val().get_bit(2 * m))
                    | (!self.left.val() & self.t8.val().get_bit(2 * m + 1)),
            );
            self.t9.next = self.t9.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t9.val().get_bit(2 * m))
                    | (!self.left.val() & self.t9.val().get_bit(2 * m + 1)),
            );
            self.t10.next = self.t10.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t10.val().get_bit(2 * m))
                    | (!self.left.val() & self.t10.val().get_bit(2 * m + 1)),
            );
            self.t11.next = self.t11.val().replace_bit(
                m + self.cfg_leaves.val().index(),
                (self.left.val() & self.t11.val().get_bit(2 * m))
                    | (!self.left.val() & self.t11.val().get_bit(2 * m + 1)),
            );
        }
        // The slot: the root's index (bits 0..4) and group number (bits 4..12).
        self.slot.next = 0.into();
        self.slot.next = self
            .slot
            .val()
            .replace_bit(0, self.t0.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(1, self.t1.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(2, self.t2.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(3, self.t3.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(4, self.t4.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(5, self.t5.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(6, self.t6.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(7, self.t7.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(8, self.t8.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(9, self.t9.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(10, self.t10.val().get_bit(self.cfg_root.val().index()));
        self.slot.next = self
            .slot
            .val()
            .replace_bit(11, self.t11.val().get_bit(self.cfg_root.val().index()));
        self.r_slot.d.next = self.slot.val();
        self.r_wrap.d.next = !(self.r_any.q.val() & self.cfg_hi_groups.val()).any();
        self.m_slot.next = self.r_slot.q.val();
        self.m_wrap.next = self.r_wrap.q.val();
    }
}
