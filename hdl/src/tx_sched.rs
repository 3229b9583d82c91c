//! The send side's transmit scheduler (`docs/blocks/tx_sched.md`): round-robin by group of 32
//! connections over a has-work bit per connection, lowest id first inside a group.
//!
//! ```text
//!  s_set ─► has-work bits (FF) ─► per-group any (reg)
//!                                      │  launched every cycle, from the served group and from nxt's
//!                                      ▼
//!            stage 1: groups with work after the start (hi) and the others (lo)   (regs)
//!            stage 2: the first of hi, else of lo, one-hot (x & -x)               (regs)
//!            stage 3: that group's 32 bits (AND-OR), its number, the groups after it;
//!                     the search from the group served now is kept               ─► nxt
//!                                      │ load when cur is empty
//!                                      ▼
//!  cur (32-bit snapshot, group, any/one flags) ─► lowest bit ─► m_cand_*; s_take clears it
//! ```
//!
//! The only one-cycle loop is `cur`: its lowest set bit cleared on a take, or `nxt` loaded;
//! whether it empties is one gate from registers (`cur_any`, `cur_one`, kept beside it by a
//! carry-free bit counter). The search over the groups is split over three stages and launched
//! from both possible starts, so no take reaches it in the cycle it starts; its result is
//! dropped when a group is loaded while it is under way, since it searched from a group no
//! longer served.
//!
//! `G` is the group count (`max(connections / 32, 16)`: groups past the connections are never
//! set), `H = 32 * G` the has-work bits.

use rust_hdl::prelude::*;

use crate::widgets::{OneHotIndex, PrefixOr, SegmentFlag};

/// Connections per group.
pub const GROUP: usize = 32;

/// The group count the search is built for at `connections`.
pub const fn search_groups(connections: u32) -> usize {
    let g = connections as usize / GROUP;
    if g < 16 {
        16
    } else {
        g
    }
}

#[derive(LogicBlock)]
pub struct TxSchedRtl<const G: usize, const H: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (one cycle is enough): every has-work bit, the served group and the
    /// search in flight are cleared.
    pub s_reset: Signal<In, Bit>,
    /// Write connection `s_set_id`'s has-work bit to `s_set_work` (ids at or past
    /// `connections` are ignored).
    pub s_set_valid: Signal<In, Bit>,
    pub s_set_id: Signal<In, Bits<16>>,
    pub s_set_work: Signal<In, Bit>,
    /// A transmit opportunity is taken this cycle: the candidate, if any, is served.
    pub s_take: Signal<In, Bit>,
    /// There is a candidate: the lowest set bit of the served group's snapshot.
    pub m_cand_valid: Signal<Out, Bit>,
    /// The candidate connection (0 when there is none).
    pub m_cand_id: Signal<Out, Bits<16>>,

    /// `connections`.
    cfg_conns: Constant<Bits<17>>,
    /// The fault variant: a search result is not dropped when a group is loaded.
    cfg_keep_stale: Constant<Bit>,

    /// The has-work bits (bit `id`).
    work: DFF<Bits<H>>,
    /// Per group, any has-work bit set (as `work` was on the cycle before).
    any: DFF<Bits<G>>,
    /// The groups after the served one (`after_cur`) and after `nxt`'s (`after_nxt`): the
    /// search is launched from both, and the one for the group served next is kept two cycles
    /// later, so that no take reaches the search in the cycle it is launched. All clear after a
    /// reset: the first search starts at group 0.
    after_cur: DFF<Bits<G>>,
    after_nxt: DFF<Bits<G>>,
    /// The searches, stage 1: the groups with work after the start, and the others.
    hi_cur: DFF<Bits<G>>,
    lo_cur: DFF<Bits<G>>,
    hi_nxt: DFF<Bits<G>>,
    lo_nxt: DFF<Bits<G>>,
    /// Stage 2: the group found, one-hot (the first of `hi`, else the first of `lo`).
    sel_cur: DFF<Bits<G>>,
    sel_nxt: DFF<Bits<G>>,
    /// This cycle's load, one and two cycles ago (which search's result is kept).
    load1: DFF<Bit>,
    load2: DFF<Bit>,
    /// The search launched one and two cycles ago found a group (and no load made it stale).
    s1_valid: DFF<Bit>,
    s2_valid: DFF<Bit>,
    /// The next group to load: valid, number, and its has-work bits.
    nxt_valid: DFF<Bit>,
    nxt_group: DFF<Bits<16>>,
    nxt_mask: DFF<Bits<32>>,
    /// The served group and what is left of its snapshot.
    cur_group: DFF<Bits<16>>,
    cur: DFF<Bits<32>>,
    /// `cur` has a bit set, exactly one: kept beside it so that the load is one gate from
    /// registers.
    cur_any: DFF<Bit>,
    cur_one: DFF<Bit>,

    rest: Signal<Local, Bits<32>>,
    /// The candidate's position in the group: the lowest bit of `cur`, one-hot to index.
    pos: OneHotIndex<GROUP, 5>,
    /// Bits set in `cur` and in `nxt_mask`, saturated at 3 (no carry chain).
    count_cur: Count3,
    count_nxt: Count3,
    take: Signal<Local, Bit>,
    load: Signal<Local, Bit>,
    found: Signal<Local, Bits<16>>,
    /// Stage 3: each search's group (`sel`, one-hot or zero) as its number, and the groups
    /// after it (the exclusive prefix OR of `sel`, one carry chain).
    found_cur: OneHotIndex<G, 16>,
    found_nxt: OneHotIndex<G, 16>,
    after_c: PrefixOr<G, 1>,
    after_n: PrefixOr<G, 1>,
    first_hi: Signal<Local, Bits<G>>,
    first_lo: Signal<Local, Bits<G>>,
    /// The mask and the groups after, for each search's group (chosen last: the choice
    /// does not stand in front of the wide mux).
    mask_cur: Signal<Local, Bits<32>>,
    mask_nxt: Signal<Local, Bits<32>>,
    after: Signal<Local, Bits<G>>,
    mask: Signal<Local, Bits<32>>,
    word: Signal<Local, Bits<32>>,
    any_next: Signal<Local, Bits<G>>,
    work_next: Signal<Local, Bits<H>>,
}

impl<const G: usize, const H: usize> TxSchedRtl<G, H> {
    pub fn new(connections: u32, keep_stale: bool) -> Self {
        assert_eq!(H, GROUP * G);
        assert!(connections as usize <= H && G >= 16 && G.is_power_of_two());
        TxSchedRtl {
            clock: Default::default(),
            s_reset: Default::default(),
            s_set_valid: Default::default(),
            s_set_id: Default::default(),
            s_set_work: Default::default(),
            s_take: Default::default(),
            m_cand_valid: Default::default(),
            m_cand_id: Default::default(),
            cfg_conns: Constant::new(bits(connections as u64)),
            cfg_keep_stale: Constant::new(keep_stale),
            work: Default::default(),
            any: Default::default(),
            after_cur: Default::default(),
            after_nxt: Default::default(),
            hi_cur: Default::default(),
            lo_cur: Default::default(),
            hi_nxt: Default::default(),
            lo_nxt: Default::default(),
            sel_cur: Default::default(),
            sel_nxt: Default::default(),
            load1: Default::default(),
            load2: Default::default(),
            s1_valid: Default::default(),
            s2_valid: Default::default(),
            nxt_valid: Default::default(),
            nxt_group: Default::default(),
            nxt_mask: Default::default(),
            cur_group: Default::default(),
            cur: Default::default(),
            cur_any: Default::default(),
            cur_one: Default::default(),
            rest: Default::default(),
            pos: OneHotIndex::new(),
            count_cur: Default::default(),
            count_nxt: Default::default(),
            take: Default::default(),
            load: Default::default(),
            found: Default::default(),
            found_cur: OneHotIndex::new(),
            found_nxt: OneHotIndex::new(),
            after_c: PrefixOr::new(SegmentFlag::Reduce),
            after_n: PrefixOr::new(SegmentFlag::Reduce),
            first_hi: Default::default(),
            first_lo: Default::default(),
            mask_cur: Default::default(),
            mask_nxt: Default::default(),
            after: Default::default(),
            mask: Default::default(),
            word: Default::default(),
            any_next: Default::default(),
            work_next: Default::default(),
        }
    }
}

impl<const G: usize, const H: usize> Logic for TxSchedRtl<G, H> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, work, any, after_cur, after_nxt, hi_cur, lo_cur, hi_nxt, lo_nxt, sel_cur,
            sel_nxt, load1, load2, s1_valid, s2_valid, nxt_valid, nxt_group, nxt_mask, cur_group,
            cur, cur_any, cur_one
        );

        // ---- The candidate: the lowest set bit of `cur` (`rest`: `cur` without it), and its
        // position (`OneHotIndex`). The lowest bit is made for the widget from the register
        // (not from `rest`): made from this block's own signals, a widget's input would close a
        // loop through its one always block in Verilator's eyes (UNOPTFLAT, see
        // `crate::widgets`).
        self.rest.next = self.cur.q.val() & (self.cur.q.val() - 1);
        self.pos.x.next = self.cur.q.val() & !(self.cur.q.val() & (self.cur.q.val() - 1));
        self.count_cur.s_x.next = self.cur.q.val();
        self.count_nxt.s_x.next = self.nxt_mask.q.val();
        self.m_cand_valid.next = self.cur_any.q.val();
        self.m_cand_id.next = 0.into();
        if self.cur_any.q.val() {
            self.m_cand_id.next =
                (self.cur_group.q.val() << 5) | bit_cast::<16, 5>(self.pos.idx.val());
        }

        // ---- The take and the load: `cur` is empty after this cycle, and `nxt` holds a group.
        self.take.next = self.s_take.val() & self.cur_any.q.val();
        self.load.next = self.nxt_valid.q.val()
            & (!self.cur_any.q.val() | (self.take.val() & self.cur_one.q.val()));

        // ---- The searches launched this cycle: from the served group and from `nxt`'s.
        // Stage 1 splits the groups with work at the start; stage 2 takes the first group
        // after it, else the first from group 0 (`x & -x`, a carry chain, isolates it).
        self.hi_cur.d.next = self.any.q.val() & self.after_cur.q.val();
        self.lo_cur.d.next = self.any.q.val() & !self.after_cur.q.val();
        self.hi_nxt.d.next = self.any.q.val() & self.after_nxt.q.val();
        self.lo_nxt.d.next = self.any.q.val() & !self.after_nxt.q.val();
        self.first_hi.next = self.hi_cur.q.val() & (!self.hi_cur.q.val() + 1);
        self.first_lo.next = self.lo_cur.q.val() & (!self.lo_cur.q.val() + 1);
        self.sel_cur.d.next = self.first_lo.val();
        if self.hi_cur.q.val().any() {
            self.sel_cur.d.next = self.first_hi.val();
        }
        self.first_hi.next = self.hi_nxt.q.val() & (!self.hi_nxt.q.val() + 1);
        self.first_lo.next = self.lo_nxt.q.val() & (!self.lo_nxt.q.val() + 1);
        self.sel_nxt.d.next = self.first_lo.val();
        if self.hi_nxt.q.val().any() {
            self.sel_nxt.d.next = self.first_hi.val();
        }

        // ---- Stage 3, for the search launched two cycles ago: the group found (`OneHotIndex`),
        // its mask now, and the groups after it (all bits above the one-hot `sel`: its
        // exclusive prefix OR, `PrefixOr`), for each search; the one for the group served now
        // is kept.
        self.found_cur.x.next = self.sel_cur.q.val();
        self.found_nxt.x.next = self.sel_nxt.q.val();
        self.after_c.x.next = self.sel_cur.q.val();
        self.after_n.x.next = self.sel_nxt.q.val();
        self.mask_cur.next = 0.into();
        self.mask_nxt.next = 0.into();
        for g in 0..G {
            self.word.next = self.work.q.val().get_bits::<32>(32 * g);
            if self.sel_cur.q.val().get_bit(g) {
                self.mask_cur.next = self.mask_cur.val() | self.word.val();
            }
            if self.sel_nxt.q.val().get_bit(g) {
                self.mask_nxt.next = self.mask_nxt.val() | self.word.val();
            }
        }
        self.found.next = self.found_cur.idx.val();
        self.mask.next = self.mask_cur.val();
        self.after.next = self.after_c.pre.val();
        if self.load2.q.val() {
            self.found.next = self.found_nxt.idx.val();
            self.mask.next = self.mask_nxt.val();
            self.after.next = self.after_n.pre.val();
        }

        // ---- Per group, any bit.
        self.any_next.next = 0.into();
        for g in 0..G {
            self.any_next.next = self
                .any_next
                .val()
                .replace_bit(g, self.work.q.val().get_bits::<32>(32 * g).any());
        }
        self.work_next.next = self.work.q.val();
        if self.s_set_valid.val() & (bit_cast::<17, 16>(self.s_set_id.val()) < self.cfg_conns.val())
        {
            self.work_next.next = self
                .work
                .q
                .val()
                .replace_bit(self.s_set_id.val().index(), self.s_set_work.val());
        }

        // ---- Registers: a search's validity follows it; a load makes it stale.
        self.work.d.next = self.work_next.val();
        self.any.d.next = self.any_next.val();
        self.load1.d.next = self.load.val();
        self.load2.d.next = self.load1.q.val();
        self.s1_valid.d.next = self.any.q.val().any();
        self.s2_valid.d.next =
            self.s1_valid.q.val() & (!self.load.val() | self.cfg_keep_stale.val());
        self.nxt_valid.d.next =
            self.s2_valid.q.val() & (!self.load.val() | self.cfg_keep_stale.val());
        self.nxt_group.d.next = self.found.val();
        self.nxt_mask.d.next = self.mask.val();
        self.after_nxt.d.next = self.after.val();
        self.cur.d.next = self.cur.q.val();
        self.cur_group.d.next = self.cur_group.q.val();
        self.after_cur.d.next = self.after_cur.q.val();
        self.cur_any.d.next = self.cur_any.q.val();
        self.cur_one.d.next = self.cur_one.q.val();
        if self.take.val() {
            self.cur.d.next = self.rest.val();
            self.cur_any.d.next = !self.cur_one.q.val();
            self.cur_one.d.next = self.count_cur.m_two.val();
        }
        if self.load.val() {
            self.cur.d.next = self.nxt_mask.q.val();
            self.cur_any.d.next = self.count_nxt.m_any.val();
            self.cur_one.d.next = self.count_nxt.m_one.val();
            self.cur_group.d.next = self.nxt_group.q.val();
            self.after_cur.d.next = self.after_nxt.q.val();
        }
        if self.s_reset.val() {
            self.work.d.next = 0.into();
            self.any.d.next = 0.into();
            self.load1.d.next = false;
            self.load2.d.next = false;
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.nxt_valid.d.next = false;
            self.cur.d.next = 0.into();
            self.cur_any.d.next = false;
            self.cur_one.d.next = false;
            self.cur_group.d.next = 0.into();
            self.after_cur.d.next = 0.into();
        }
    }
}

/// The bits set in a 32-bit word, saturated at 3, by a tree of two-bit saturating sums (four
/// LUT levels; `x & (x - 1)` twice took two carry chains and 11 ns).
#[derive(LogicBlock, Default)]
pub struct Count3 {
    pub s_x: Signal<In, Bits<32>>,
    /// At least one bit set.
    pub m_any: Signal<Out, Bit>,
    /// Exactly one.
    pub m_one: Signal<Out, Bit>,
    /// Exactly two.
    pub m_two: Signal<Out, Bit>,
    /// The tree, heap-indexed: leaves `0..32` (the bits), node `32 + m` the sum of `2m` and
    /// `2m + 1` (low and high bit); the root is node 62.
    lo: Signal<Local, Bits<64>>,
    hi: Signal<Local, Bits<64>>,
    alo: Signal<Local, Bit>,
    ahi: Signal<Local, Bit>,
    blo: Signal<Local, Bit>,
    bhi: Signal<Local, Bit>,
}

impl Logic for Count3 {
    #[hdl_gen]
    fn update(&mut self) {
        self.lo.next = bit_cast::<64, 32>(self.s_x.val());
        self.hi.next = 0.into();
        for m in 0..31 {
            self.alo.next = self.lo.val().get_bit(2 * m);
            self.ahi.next = self.hi.val().get_bit(2 * m);
            self.blo.next = self.lo.val().get_bit(2 * m + 1);
            self.bhi.next = self.hi.val().get_bit(2 * m + 1);
            self.lo.next = self.lo.val().replace_bit(
                32 + m,
                (self.alo.val() ^ self.blo.val())
                    | (self.ahi.val() & self.bhi.val())
                    | (self.ahi.val() & self.alo.val())
                    | (self.bhi.val() & self.blo.val()),
            );
            self.hi.next = self.hi.val().replace_bit(
                32 + m,
                self.ahi.val() | self.bhi.val() | (self.alo.val() & self.blo.val()),
            );
        }
        self.m_any.next = self.lo.val().get_bit(62) | self.hi.val().get_bit(62);
        self.m_one.next = self.lo.val().get_bit(62) & !self.hi.val().get_bit(62);
        self.m_two.next = !self.lo.val().get_bit(62) & self.hi.val().get_bit(62);
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    /// The default design (32 groups), a small one (padded to 16 groups) and a large one pass
    /// the lint, Icarus and Yosys gate.
    #[test]
    fn gate_lint_icarus_yosys() {
        for conns in [1024, 4, 4096] {
            let mut cfg = Config::default();
            cfg.nic.connections = conns;
            let b = generate("tx_sched", &cfg, &Options::default()).unwrap();
            crate::gate::check(&b, &format!("tx_sched_{conns}"), conns == 4);
        }
    }
}
