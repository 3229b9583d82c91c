//! The receive side's search of the window over two stages (`docs/blocks/nic_rx.md`,
//! "Pipeline"): given a vector `v` of the `W` slots (set where the slot's PSN is not held) and
//! `gt` (set on the slots after the packet's), find the first set slot after the packet's,
//! cyclically: the first among the slots above it, else the first from slot 0.
//!
//! ```text
//!  H2: the slots above the packet's and the others, each a lowest-set-bit tree's levels 0..4
//!      (groups of 16: any, first index) ─► regs
//!  H3: the trees' levels 4.. (groups of 32, 64, .. W) ─► the upper's slot if it has one
//! ```
//!
//! No carry chain: the 256-slot search in one cycle was the receive side's critical path
//! (23.54 MHz). The trees are [`FirstLevels`], whole vectors with constant shifts (no
//! per-bit insertion, which cost the co-simulation half its time).

use crate::first_set::FirstLevels;
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

    // H2: the two trees' first four levels, registered.
    hi2: FirstLevels<W>,
    lo2: FirstLevels<W>,
    r_hi_a: DFF<Bits<W>>,
    r_hi_i0: DFF<Bits<W>>,
    r_hi_i1: DFF<Bits<W>>,
    r_hi_i2: DFF<Bits<W>>,
    r_hi_i3: DFF<Bits<W>>,
    r_lo_a: DFF<Bits<W>>,
    r_lo_i0: DFF<Bits<W>>,
    r_lo_i1: DFF<Bits<W>>,
    r_lo_i2: DFF<Bits<W>>,
    r_lo_i3: DFF<Bits<W>>,
    // H3: the rest of each tree, and the choice.
    hi3: FirstLevels<W>,
    lo3: FirstLevels<W>,
    slot: Signal<Local, Bits<16>>,
    r_slot: DFF<Bits<16>>,
    r_wrap: DFF<Bit>,
}

impl<const W: usize> FreeSearch<W> {
    pub fn new() -> Self {
        assert!(W.is_power_of_two() && (16..=4096).contains(&W));
        FreeSearch {
            clock: Default::default(),
            s_vec: Default::default(),
            s_gt: Default::default(),
            m_slot: Default::default(),
            m_wrap: Default::default(),
            hi2: FirstLevels::new(0, 4, false),
            lo2: FirstLevels::new(0, 4, false),
            r_hi_a: Default::default(),
            r_hi_i0: Default::default(),
            r_hi_i1: Default::default(),
            r_hi_i2: Default::default(),
            r_hi_i3: Default::default(),
            r_lo_a: Default::default(),
            r_lo_i0: Default::default(),
            r_lo_i1: Default::default(),
            r_lo_i2: Default::default(),
            r_lo_i3: Default::default(),
            hi3: FirstLevels::new(4, 12, false),
            lo3: FirstLevels::new(4, 12, false),
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
        dff_setup!(
            self, clock, r_hi_a, r_hi_i0, r_hi_i1, r_hi_i2, r_hi_i3, r_lo_a, r_lo_i0, r_lo_i1,
            r_lo_i2, r_lo_i3, r_slot, r_wrap
        );

        // ---- H2: the slots above the packet's and the others, groups of 16 in each.
        self.hi2.s_a.next = self.s_vec.val() & self.s_gt.val();
        self.lo2.s_a.next = self.s_vec.val() & !self.s_gt.val();
        self.hi2.s_i0.next = 0.into();
        self.hi2.s_i1.next = 0.into();
        self.hi2.s_i2.next = 0.into();
        self.hi2.s_i3.next = 0.into();
        self.hi2.s_i4.next = 0.into();
        self.hi2.s_i5.next = 0.into();
        self.hi2.s_i6.next = 0.into();
        self.hi2.s_i7.next = 0.into();
        self.hi2.s_i8.next = 0.into();
        self.hi2.s_i9.next = 0.into();
        self.hi2.s_i10.next = 0.into();
        self.hi2.s_i11.next = 0.into();
        self.lo2.s_i0.next = 0.into();
        self.lo2.s_i1.next = 0.into();
        self.lo2.s_i2.next = 0.into();
        self.lo2.s_i3.next = 0.into();
        self.lo2.s_i4.next = 0.into();
        self.lo2.s_i5.next = 0.into();
        self.lo2.s_i6.next = 0.into();
        self.lo2.s_i7.next = 0.into();
        self.lo2.s_i8.next = 0.into();
        self.lo2.s_i9.next = 0.into();
        self.lo2.s_i10.next = 0.into();
        self.lo2.s_i11.next = 0.into();
        self.r_hi_a.d.next = self.hi2.m_a.val();
        self.r_hi_i0.d.next = self.hi2.m_i0.val();
        self.r_hi_i1.d.next = self.hi2.m_i1.val();
        self.r_hi_i2.d.next = self.hi2.m_i2.val();
        self.r_hi_i3.d.next = self.hi2.m_i3.val();
        self.r_lo_a.d.next = self.lo2.m_a.val();
        self.r_lo_i0.d.next = self.lo2.m_i0.val();
        self.r_lo_i1.d.next = self.lo2.m_i1.val();
        self.r_lo_i2.d.next = self.lo2.m_i2.val();
        self.r_lo_i3.d.next = self.lo2.m_i3.val();

        // ---- H3: the trees' remaining levels; the upper slots' first if any, else the
        // others' first.
        self.hi3.s_a.next = self.r_hi_a.q.val();
        self.hi3.s_i0.next = self.r_hi_i0.q.val();
        self.hi3.s_i1.next = self.r_hi_i1.q.val();
        self.hi3.s_i2.next = self.r_hi_i2.q.val();
        self.hi3.s_i3.next = self.r_hi_i3.q.val();
        self.hi3.s_i4.next = 0.into();
        self.hi3.s_i5.next = 0.into();
        self.hi3.s_i6.next = 0.into();
        self.hi3.s_i7.next = 0.into();
        self.hi3.s_i8.next = 0.into();
        self.hi3.s_i9.next = 0.into();
        self.hi3.s_i10.next = 0.into();
        self.hi3.s_i11.next = 0.into();
        self.lo3.s_a.next = self.r_lo_a.q.val();
        self.lo3.s_i0.next = self.r_lo_i0.q.val();
        self.lo3.s_i1.next = self.r_lo_i1.q.val();
        self.lo3.s_i2.next = self.r_lo_i2.q.val();
        self.lo3.s_i3.next = self.r_lo_i3.q.val();
        self.lo3.s_i4.next = 0.into();
        self.lo3.s_i5.next = 0.into();
        self.lo3.s_i6.next = 0.into();
        self.lo3.s_i7.next = 0.into();
        self.lo3.s_i8.next = 0.into();
        self.lo3.s_i9.next = 0.into();
        self.lo3.s_i10.next = 0.into();
        self.lo3.s_i11.next = 0.into();
        self.slot.next = 0.into();
        if self.hi3.m_a.val().get_bit(0) {
            self.slot.next = self
                .slot
                .val()
                .replace_bit(0, self.hi3.m_i0.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(1, self.hi3.m_i1.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(2, self.hi3.m_i2.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(3, self.hi3.m_i3.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(4, self.hi3.m_i4.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(5, self.hi3.m_i5.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(6, self.hi3.m_i6.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(7, self.hi3.m_i7.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(8, self.hi3.m_i8.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(9, self.hi3.m_i9.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(10, self.hi3.m_i10.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(11, self.hi3.m_i11.val().get_bit(0));
        } else {
            self.slot.next = self
                .slot
                .val()
                .replace_bit(0, self.lo3.m_i0.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(1, self.lo3.m_i1.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(2, self.lo3.m_i2.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(3, self.lo3.m_i3.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(4, self.lo3.m_i4.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(5, self.lo3.m_i5.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(6, self.lo3.m_i6.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(7, self.lo3.m_i7.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(8, self.lo3.m_i8.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(9, self.lo3.m_i9.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(10, self.lo3.m_i10.val().get_bit(0));
            self.slot.next = self
                .slot
                .val()
                .replace_bit(11, self.lo3.m_i11.val().get_bit(0));
        }
        self.r_slot.d.next = self.slot.val();
        self.r_wrap.d.next = !self.hi3.m_a.val().get_bit(0);
        self.m_slot.next = self.r_slot.q.val();
        self.m_wrap.next = self.r_wrap.q.val();
    }
}
