//! SACK receiver RTL (spec section 3, receiver): one packet per clock, latency 3, bit-exact
//! with `golden_model::sack_receiver`.
//!
//! ```text
//!  stage 1: the loop (state the next packet needs)   stage 2 (own loops)              stage 3
//!  ┌► epsn_reg, bitmap_reg[W] (slot = psn mod W),    ┌► bytes, ooo, coalesce,
//!  │  gt_reg[W] (the slots above EPSN's)             │  lowest since last SACK
//!  │        │                                        │        │
//! s_* ─► classify: malformed / probe / out of   p1_* ─► ooo -/+ run, bytes +,   p2_* ─► SACK bitmap:
//!  │     window / duplicate / head / held       regs   coalescing, triggers,   regs   bit i = below
//!  │  head: first clear slot above EPSN's              segment base (lowest or        EPSN, or held
//!  │        (~bitmap & gt), else the first clear       EPSN, candidates measured      and in window
//!  │        one (wrap); its exclusive prefix OR        in parallel), the base's           │
//!  │        = next gt_reg; the run below cleared;      SB bits of bitmap_reg              ▼
//!  │        epsn = {upper (+W on wrap), index}         (as stage 1 left it)           m_*_reg ─► m_*
//!  │  held: set bit slot(psn)
//!  └────────┘
//! ```
//!
//! `W` = `rx_window`, `SB` = `sack_bits` (both powers of two, `SB <= W`).
//!
//! Why three stages: at one packet per clock, the only state the next packet's classification
//! needs is EPSN and the bitmap, so stage 1 keeps just that loop (and the drop counters, so
//! they count when the packet is taken). The bitmap is indexed by `psn mod W`, never rotated,
//! and EPSN's slot is also held as the mask `gt_reg` of the slots above it, so the head's
//! find-first-clear is a prefix OR whose result is the next mask. Stage 2 runs the rest of the
//! step (bytes, the out-of-order count, coalescing, the lowest PSN since the last SACK, the
//! triggers, the segment) a cycle later, reading stage 1's EPSN and bitmap as they stand after
//! the packet it is finishing; stage 3 masks the segment's bits by their serial position. The
//! whole pipeline advances together on `!m_valid | m_ready`.

use crate::init_dff::InitDff;
use crate::seq::PsnBelow;
use rust_hdl::prelude::*;

/// Clock edges from a packet on `s_*` to its result on `m_*`.
pub const LATENCY: u32 = 3;

/// Verdict codes on `m_verdict` (the model's `Verdict`).
pub const VERDICT_IN_ORDER: u64 = 0;
pub const VERDICT_OUT_OF_ORDER: u64 = 1;
pub const VERDICT_DUPLICATE: u64 = 2;
pub const VERDICT_OUT_OF_WINDOW: u64 = 3;
pub const VERDICT_PROBE: u64 = 4;
pub const VERDICT_MALFORMED: u64 = 5;

/// See the module documentation.
#[derive(LogicBlock)]
pub struct SackReceiverRtl<const W: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,

    /// A packet is offered.
    pub s_valid: Signal<In, Bit>,
    /// The packet is taken this cycle (`!m_valid | m_ready`).
    pub s_ready: Signal<Out, Bit>,
    /// PSN as on the wire; wider than 24 bits is malformed.
    pub s_psn: Signal<In, Bits<32>>,
    /// Payload bytes (`1..=MTU` for data).
    pub s_len: Signal<In, Bits<32>>,
    /// Entropy, echoed.
    pub s_entropy: Signal<In, Bits<32>>,
    /// ECN mark.
    pub s_ecn: Signal<In, Bit>,
    /// Sender timestamp, echoed.
    pub s_ts: Signal<In, Bits<32>>,
    /// A probe (no payload).
    pub s_probe: Signal<In, Bit>,
    /// The packet asks for an ACK.
    pub s_ack_req: Signal<In, Bit>,

    pub m_valid: Signal<Out, Bit>,
    pub m_ready: Signal<In, Bit>,
    /// 0 in order, 1 out of order, 2 duplicate, 3 out of window, 4 probe, 5 malformed.
    pub m_verdict: Signal<Out, Bits<3>>,
    pub m_trig_coalesce: Signal<Out, Bit>,
    pub m_trig_head_fill: Signal<Out, Bit>,
    pub m_trig_probe: Signal<Out, Bit>,
    pub m_trig_ack_req: Signal<Out, Bit>,
    pub m_trig_ecn: Signal<Out, Bit>,
    /// A SACK is sent; the `m_sack_*` fields are 0 otherwise.
    pub m_sack_valid: Signal<Out, Bit>,
    pub m_sack_epsn: Signal<Out, Bits<32>>,
    pub m_sack_base: Signal<Out, Bits<32>>,
    /// Bit `i`: PSN `base + i` received.
    pub m_sack_bitmap: Signal<Out, Bits<SB>>,
    pub m_sack_bytes_recvd: Signal<Out, Bits<32>>,
    pub m_sack_ooo_count: Signal<Out, Bits<32>>,
    pub m_sack_entropy: Signal<Out, Bits<32>>,
    pub m_sack_ecn: Signal<Out, Bit>,
    pub m_sack_ts: Signal<Out, Bits<32>>,
    pub m_sack_probe: Signal<Out, Bit>,
    /// Counted when the packet is taken (stage 1).
    pub status_duplicates: Signal<Out, Bits<32>>,
    pub status_out_of_window: Signal<Out, Bits<32>>,
    pub status_malformed: Signal<Out, Bits<32>>,

    c_psn_mask: Constant<Bits<32>>,
    c_window: Constant<Bits<32>>,
    c_slot_mask: Constant<Bits<32>>,
    /// The PSN bits above the slot index.
    c_upper_mask: Constant<Bits<32>>,
    c_seg_mask: Constant<Bits<32>>,
    c_mtu: Constant<Bits<32>>,
    c_coalesce: Constant<Bits<32>>,
    c_sat32: Constant<Bits<64>>,
    c_one: Constant<Bits<32>>,
    c_one_w: Constant<Bits<W>>,
    /// The lower and upper halves of the slots, and half the width as a shift.
    c_lo_half: Constant<Bits<W>>,
    c_hi_half: Constant<Bits<W>>,
    c_half_w: Constant<Bits<16>>,
    /// Fault injection for the co-sim self-test: 1 disables the head-fill trigger.
    c_fault_no_head_fill: Constant<Bit>,
    /// `c_sel<k>`: the slots whose index has bit `k` set (the find-first encoder's masks).
    c_sel0: Constant<Bits<W>>,
    c_sel1: Constant<Bits<W>>,
    c_sel2: Constant<Bits<W>>,
    c_sel3: Constant<Bits<W>>,
    c_sel4: Constant<Bits<W>>,
    c_sel5: Constant<Bits<W>>,
    c_sel6: Constant<Bits<W>>,
    c_sel7: Constant<Bits<W>>,
    c_sel8: Constant<Bits<W>>,
    c_sel9: Constant<Bits<W>>,
    c_sel10: Constant<Bits<W>>,
    c_sel11: Constant<Bits<W>>,

    /// The PSN order (one rule, `crate::seq`): the packet below EPSN (stage 1); the packet
    /// below the lowest so far, the lowest and the packet below EPSN (stage 2); each PSN of
    /// the segment below EPSN (stage 3).
    below_epsn: PsnBelow<1>,
    below_lowest: PsnBelow<1>,
    lowest_below_epsn: PsnBelow<1>,
    psn_below_epsn: PsnBelow<1>,
    seg_below_epsn: PsnBelow<SB>,

    // Stage 1 state. Starts at the connection's initial PSN.
    epsn_reg: InitDff<Bits<32>>,
    /// Bit `psn mod W`: `psn` in `(epsn, epsn + W)` was received.
    bitmap_reg: DFF<Bits<W>>,
    /// The slots above `slot(epsn)`: where the run after EPSN is looked for first.
    gt_reg: InitDff<Bits<W>>,
    dup_count_reg: DFF<Bits<32>>,
    oow_count_reg: DFF<Bits<32>>,
    bad_count_reg: DFF<Bits<32>>,

    // Stage 1 -> 2: the packet and what stage 1 made of it.
    p1_valid_reg: DFF<Bit>,
    p1_verdict_reg: DFF<Bits<3>>,
    /// Neither malformed nor out of window: the triggers may fire.
    p1_ok_reg: DFF<Bit>,
    /// A data packet in the window (new or duplicate): counts for coalescing and the lowest.
    p1_data_reg: DFF<Bit>,
    p1_head_reg: DFF<Bit>,
    p1_hold_reg: DFF<Bit>,
    /// EPSN before the packet (the run cleared is `epsn_reg - this - 1`).
    p1_epsn_prev_reg: DFF<Bits<32>>,
    p1_psn_reg: DFF<Bits<32>>,
    p1_len_reg: DFF<Bits<32>>,
    p1_entropy_reg: DFF<Bits<32>>,
    p1_ecn_reg: DFF<Bit>,
    p1_ts_reg: DFF<Bits<32>>,
    p1_probe_reg: DFF<Bit>,
    p1_ack_req_reg: DFF<Bit>,

    // Stage 2 state.
    bytes_reg: DFF<Bits<32>>,
    ooo_reg: DFF<Bits<32>>,
    lowest_valid_reg: DFF<Bit>,
    lowest_reg: DFF<Bits<32>>,
    coalesce_reg: DFF<Bits<32>>,

    // Stage 2 -> 3: the result but for the SACK's bitmap, and that bitmap's raw bits.
    p2_valid_reg: DFF<Bit>,
    p2_verdict_reg: DFF<Bits<3>>,
    p2_trig_coalesce_reg: DFF<Bit>,
    p2_trig_head_fill_reg: DFF<Bit>,
    p2_trig_probe_reg: DFF<Bit>,
    p2_trig_ack_req_reg: DFF<Bit>,
    p2_trig_ecn_reg: DFF<Bit>,
    p2_sack_reg: DFF<Bit>,
    p2_epsn_reg: DFF<Bits<32>>,
    p2_base_reg: DFF<Bits<32>>,
    p2_rel_reg: DFF<Bits<32>>,
    p2_raw_reg: DFF<Bits<SB>>,
    p2_bytes_reg: DFF<Bits<32>>,
    p2_ooo_reg: DFF<Bits<32>>,
    p2_entropy_reg: DFF<Bits<32>>,
    p2_ecn_reg: DFF<Bit>,
    p2_ts_reg: DFF<Bits<32>>,
    p2_probe_reg: DFF<Bit>,

    m_valid_reg: DFF<Bit>,
    m_verdict_reg: DFF<Bits<3>>,
    m_trig_coalesce_reg: DFF<Bit>,
    m_trig_head_fill_reg: DFF<Bit>,
    m_trig_probe_reg: DFF<Bit>,
    m_trig_ack_req_reg: DFF<Bit>,
    m_trig_ecn_reg: DFF<Bit>,
    m_sack_valid_reg: DFF<Bit>,
    m_sack_epsn_reg: DFF<Bits<32>>,
    m_sack_base_reg: DFF<Bits<32>>,
    m_sack_bitmap_reg: DFF<Bits<SB>>,
    m_sack_bytes_reg: DFF<Bits<32>>,
    m_sack_ooo_reg: DFF<Bits<32>>,
    m_sack_entropy_reg: DFF<Bits<32>>,
    m_sack_ecn_reg: DFF<Bit>,
    m_sack_ts_reg: DFF<Bits<32>>,
    m_sack_probe_reg: DFF<Bit>,

    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    // stage 1
    malformed: Signal<Local, Bit>,
    psn_dist: Signal<Local, Bits<32>>,
    below: Signal<Local, Bit>,
    oow: Signal<Local, Bit>,
    slot: Signal<Local, Bits<32>>,
    held: Signal<Local, Bit>,
    dup: Signal<Local, Bit>,
    head: Signal<Local, Bit>,
    hold_new: Signal<Local, Bit>,
    data: Signal<Local, Bit>,
    free_hi: Signal<Local, Bits<W>>,
    free_all: Signal<Local, Bits<W>>,
    pre_hi_xl: Signal<Local, Bits<W>>,
    pre_hi_xh: Signal<Local, Bits<W>>,
    pre_hi_u: Signal<Local, Bits<W>>,
    pre_all_xl: Signal<Local, Bits<W>>,
    pre_all_xh: Signal<Local, Bits<W>>,
    pre_all_u: Signal<Local, Bits<W>>,
    pre_hi: Signal<Local, Bits<W>>,
    pre_all: Signal<Local, Bits<W>>,
    any_hi: Signal<Local, Bit>,
    first: Signal<Local, Bits<W>>,
    first_idx: Signal<Local, Bits<32>>,
    epsn_upper: Signal<Local, Bits<32>>,
    verdict: Signal<Local, Bits<3>>,
    // stage 2
    run: Signal<Local, Bits<32>>,
    ooo_new: Signal<Local, Bits<32>>,
    bytes_new: Signal<Local, Bits<32>>,
    coalesce_sum: Signal<Local, Bits<64>>,
    coalesce_new: Signal<Local, Bits<32>>,
    lowest_new: Signal<Local, Bits<32>>,
    lowest_valid_new: Signal<Local, Bit>,
    lt_dist: Signal<Local, Bits<32>>,
    t_coalesce: Signal<Local, Bit>,
    t_head_fill: Signal<Local, Bit>,
    any: Signal<Local, Bit>,
    take_psn: Signal<Local, Bit>,
    rel_low: Signal<Local, Bits<32>>,
    rel_psn: Signal<Local, Bits<32>>,
    use_lowest: Signal<Local, Bit>,
    seg_rel_low: Signal<Local, Bits<32>>,
    seg_rel_psn: Signal<Local, Bits<32>>,
    seg_rel_epsn: Signal<Local, Bits<32>>,
    seg_base: Signal<Local, Bits<32>>,
    seg_raw: Signal<Local, Bits<SB>>,
    seg_rel: Signal<Local, Bits<32>>,
    rel_i: Signal<Local, Bits<32>>,
    seg_bits: Signal<Local, Bits<SB>>,
}

impl<const W: usize, const SB: usize> SackReceiverRtl<W, SB> {
    pub fn new(
        mtu: u32,
        ack_coalesce_bytes: u32,
        fault_no_head_fill: bool,
        old_psn_rule: bool,
        initial_psn: u32,
    ) -> Self {
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let slot0 = initial_psn as usize & (W - 1);
        // The slots above the initial EPSN's.
        let mut gt0 = Bits::<W>::default();
        for i in slot0 + 1..W {
            gt0 = gt0.replace_bit(i, true);
        }
        let psn_mask = (1u64 << 24) - 1;
        let mut lo_half = Bits::<W>::default();
        for i in 0..W / 2 {
            lo_half = lo_half.replace_bit(i, true);
        }
        SackReceiverRtl {
            clock: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_psn: Default::default(),
            s_len: Default::default(),
            s_entropy: Default::default(),
            s_ecn: Default::default(),
            s_ts: Default::default(),
            s_probe: Default::default(),
            s_ack_req: Default::default(),
            m_valid: Default::default(),
            m_ready: Default::default(),
            m_verdict: Default::default(),
            m_trig_coalesce: Default::default(),
            m_trig_head_fill: Default::default(),
            m_trig_probe: Default::default(),
            m_trig_ack_req: Default::default(),
            m_trig_ecn: Default::default(),
            m_sack_valid: Default::default(),
            m_sack_epsn: Default::default(),
            m_sack_base: Default::default(),
            m_sack_bitmap: Default::default(),
            m_sack_bytes_recvd: Default::default(),
            m_sack_ooo_count: Default::default(),
            m_sack_entropy: Default::default(),
            m_sack_ecn: Default::default(),
            m_sack_ts: Default::default(),
            m_sack_probe: Default::default(),
            status_duplicates: Default::default(),
            status_out_of_window: Default::default(),
            status_malformed: Default::default(),
            c_psn_mask: c32(psn_mask),
            c_window: c32(W as u64),
            c_slot_mask: c32(W as u64 - 1),
            c_upper_mask: c32(psn_mask & !(W as u64 - 1)),
            c_seg_mask: c32(psn_mask & !(SB as u64 - 1)),
            c_mtu: c32(mtu as u64),
            c_coalesce: c32(ack_coalesce_bytes as u64),
            c_sat32: Constant::new(bits::<64>(0xFFFF_FFFF)),
            c_one: c32(1),
            c_one_w: Constant::new(bits::<W>(1)),
            c_lo_half: Constant::new(lo_half),
            c_hi_half: Constant::new(!lo_half),
            c_half_w: Constant::new(bits::<16>(W as u64 / 2)),
            c_fault_no_head_fill: Constant::new(fault_no_head_fill),
            c_sel0: Constant::new(crate::index_bit_mask::<W>(0)),
            c_sel1: Constant::new(crate::index_bit_mask::<W>(1)),
            c_sel2: Constant::new(crate::index_bit_mask::<W>(2)),
            c_sel3: Constant::new(crate::index_bit_mask::<W>(3)),
            c_sel4: Constant::new(crate::index_bit_mask::<W>(4)),
            c_sel5: Constant::new(crate::index_bit_mask::<W>(5)),
            c_sel6: Constant::new(crate::index_bit_mask::<W>(6)),
            c_sel7: Constant::new(crate::index_bit_mask::<W>(7)),
            c_sel8: Constant::new(crate::index_bit_mask::<W>(8)),
            c_sel9: Constant::new(crate::index_bit_mask::<W>(9)),
            c_sel10: Constant::new(crate::index_bit_mask::<W>(10)),
            c_sel11: Constant::new(crate::index_bit_mask::<W>(11)),
            below_epsn: PsnBelow::new(old_psn_rule),
            below_lowest: PsnBelow::new(old_psn_rule),
            lowest_below_epsn: PsnBelow::new(old_psn_rule),
            psn_below_epsn: PsnBelow::new(old_psn_rule),
            seg_below_epsn: PsnBelow::new(old_psn_rule),
            epsn_reg: InitDff::new(bits::<32>(initial_psn as u64)),
            bitmap_reg: Default::default(),
            gt_reg: InitDff::new(gt0),
            dup_count_reg: Default::default(),
            oow_count_reg: Default::default(),
            bad_count_reg: Default::default(),
            p1_valid_reg: Default::default(),
            p1_verdict_reg: Default::default(),
            p1_ok_reg: Default::default(),
            p1_data_reg: Default::default(),
            p1_head_reg: Default::default(),
            p1_hold_reg: Default::default(),
            p1_epsn_prev_reg: Default::default(),
            p1_psn_reg: Default::default(),
            p1_len_reg: Default::default(),
            p1_entropy_reg: Default::default(),
            p1_ecn_reg: Default::default(),
            p1_ts_reg: Default::default(),
            p1_probe_reg: Default::default(),
            p1_ack_req_reg: Default::default(),
            bytes_reg: Default::default(),
            ooo_reg: Default::default(),
            lowest_valid_reg: Default::default(),
            lowest_reg: Default::default(),
            coalesce_reg: Default::default(),
            p2_valid_reg: Default::default(),
            p2_verdict_reg: Default::default(),
            p2_trig_coalesce_reg: Default::default(),
            p2_trig_head_fill_reg: Default::default(),
            p2_trig_probe_reg: Default::default(),
            p2_trig_ack_req_reg: Default::default(),
            p2_trig_ecn_reg: Default::default(),
            p2_sack_reg: Default::default(),
            p2_epsn_reg: Default::default(),
            p2_base_reg: Default::default(),
            p2_rel_reg: Default::default(),
            p2_raw_reg: Default::default(),
            p2_bytes_reg: Default::default(),
            p2_ooo_reg: Default::default(),
            p2_entropy_reg: Default::default(),
            p2_ecn_reg: Default::default(),
            p2_ts_reg: Default::default(),
            p2_probe_reg: Default::default(),
            m_valid_reg: Default::default(),
            m_verdict_reg: Default::default(),
            m_trig_coalesce_reg: Default::default(),
            m_trig_head_fill_reg: Default::default(),
            m_trig_probe_reg: Default::default(),
            m_trig_ack_req_reg: Default::default(),
            m_trig_ecn_reg: Default::default(),
            m_sack_valid_reg: Default::default(),
            m_sack_epsn_reg: Default::default(),
            m_sack_base_reg: Default::default(),
            m_sack_bitmap_reg: Default::default(),
            m_sack_bytes_reg: Default::default(),
            m_sack_ooo_reg: Default::default(),
            m_sack_entropy_reg: Default::default(),
            m_sack_ecn_reg: Default::default(),
            m_sack_ts_reg: Default::default(),
            m_sack_probe_reg: Default::default(),
            advance: Default::default(),
            fire: Default::default(),
            malformed: Default::default(),
            psn_dist: Default::default(),
            below: Default::default(),
            oow: Default::default(),
            slot: Default::default(),
            held: Default::default(),
            dup: Default::default(),
            head: Default::default(),
            hold_new: Default::default(),
            data: Default::default(),
            free_hi: Default::default(),
            free_all: Default::default(),
            pre_hi_xl: Default::default(),
            pre_hi_xh: Default::default(),
            pre_hi_u: Default::default(),
            pre_all_xl: Default::default(),
            pre_all_xh: Default::default(),
            pre_all_u: Default::default(),
            pre_hi: Default::default(),
            pre_all: Default::default(),
            any_hi: Default::default(),
            first: Default::default(),
            first_idx: Default::default(),
            epsn_upper: Default::default(),
            verdict: Default::default(),
            run: Default::default(),
            ooo_new: Default::default(),
            bytes_new: Default::default(),
            coalesce_sum: Default::default(),
            coalesce_new: Default::default(),
            lowest_new: Default::default(),
            lowest_valid_new: Default::default(),
            lt_dist: Default::default(),
            t_coalesce: Default::default(),
            t_head_fill: Default::default(),
            any: Default::default(),
            take_psn: Default::default(),
            rel_low: Default::default(),
            rel_psn: Default::default(),
            use_lowest: Default::default(),
            seg_rel_low: Default::default(),
            seg_rel_psn: Default::default(),
            seg_rel_epsn: Default::default(),
            seg_base: Default::default(),
            seg_raw: Default::default(),
            seg_rel: Default::default(),
            rel_i: Default::default(),
            seg_bits: Default::default(),
        }
    }
}

impl<const W: usize, const SB: usize> Logic for SackReceiverRtl<W, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            epsn_reg,
            bitmap_reg,
            gt_reg,
            dup_count_reg,
            oow_count_reg,
            bad_count_reg,
            p1_valid_reg,
            p1_verdict_reg,
            p1_ok_reg,
            p1_data_reg,
            p1_head_reg,
            p1_hold_reg,
            p1_epsn_prev_reg,
            p1_psn_reg,
            p1_len_reg,
            p1_entropy_reg,
            p1_ecn_reg,
            p1_ts_reg,
            p1_probe_reg,
            p1_ack_req_reg,
            bytes_reg,
            ooo_reg,
            lowest_valid_reg,
            lowest_reg,
            coalesce_reg,
            p2_valid_reg,
            p2_verdict_reg,
            p2_trig_coalesce_reg,
            p2_trig_head_fill_reg,
            p2_trig_probe_reg,
            p2_trig_ack_req_reg,
            p2_trig_ecn_reg,
            p2_sack_reg,
            p2_epsn_reg,
            p2_base_reg,
            p2_rel_reg,
            p2_raw_reg,
            p2_bytes_reg,
            p2_ooo_reg,
            p2_entropy_reg,
            p2_ecn_reg,
            p2_ts_reg,
            p2_probe_reg,
            m_valid_reg,
            m_verdict_reg,
            m_trig_coalesce_reg,
            m_trig_head_fill_reg,
            m_trig_probe_reg,
            m_trig_ack_req_reg,
            m_trig_ecn_reg,
            m_sack_valid_reg,
            m_sack_epsn_reg,
            m_sack_base_reg,
            m_sack_bitmap_reg,
            m_sack_bytes_reg,
            m_sack_ooo_reg,
            m_sack_entropy_reg,
            m_sack_ecn_reg,
            m_sack_ts_reg,
            m_sack_probe_reg
        );
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_verdict.next = self.m_verdict_reg.q.val();
        self.m_trig_coalesce.next = self.m_trig_coalesce_reg.q.val();
        self.m_trig_head_fill.next = self.m_trig_head_fill_reg.q.val();
        self.m_trig_probe.next = self.m_trig_probe_reg.q.val();
        self.m_trig_ack_req.next = self.m_trig_ack_req_reg.q.val();
        self.m_trig_ecn.next = self.m_trig_ecn_reg.q.val();
        self.m_sack_valid.next = self.m_sack_valid_reg.q.val();
        self.m_sack_epsn.next = self.m_sack_epsn_reg.q.val();
        self.m_sack_base.next = self.m_sack_base_reg.q.val();
        self.m_sack_bitmap.next = self.m_sack_bitmap_reg.q.val();
        self.m_sack_bytes_recvd.next = self.m_sack_bytes_reg.q.val();
        self.m_sack_ooo_count.next = self.m_sack_ooo_reg.q.val();
        self.m_sack_entropy.next = self.m_sack_entropy_reg.q.val();
        self.m_sack_ecn.next = self.m_sack_ecn_reg.q.val();
        self.m_sack_ts.next = self.m_sack_ts_reg.q.val();
        self.m_sack_probe.next = self.m_sack_probe_reg.q.val();
        self.status_duplicates.next = self.dup_count_reg.q.val();
        self.status_out_of_window.next = self.oow_count_reg.q.val();
        self.status_malformed.next = self.bad_count_reg.q.val();

        // The whole pipeline advances together when the output stage can.
        self.advance.next = !self.m_valid_reg.q.val() | self.m_ready.val();
        self.s_ready.next = self.advance.val();
        self.fire.next = self.advance.val() & self.s_valid.val();

        // ---- Stage 1: classify against EPSN and the bitmap.
        self.malformed.next = (self.s_psn.val() > self.c_psn_mask.val())
            | (!self.s_probe.val()
                & (!self.s_len.val().any() | (self.s_len.val() > self.c_mtu.val())));
        self.psn_dist.next = (self.s_psn.val() - self.epsn_reg.q.val()) & self.c_psn_mask.val();
        self.below_epsn.d.next = self.psn_dist.val();
        self.below.next = self.below_epsn.below.val().any();
        self.oow.next = !self.malformed.val()
            & !self.s_probe.val()
            & !self.below.val()
            & (self.psn_dist.val() >= self.c_window.val());
        self.slot.next = self.s_psn.val() & self.c_slot_mask.val();
        self.held.next = self.bitmap_reg.q.val().get_bit(self.slot.val().index());
        self.data.next = !self.malformed.val() & !self.s_probe.val() & !self.oow.val();
        self.dup.next =
            self.data.val() & (self.below.val() | (self.psn_dist.val().any() & self.held.val()));
        self.head.next = self.data.val() & !self.dup.val() & !self.psn_dist.val().any();
        self.hold_new.next = self.data.val() & !self.dup.val() & self.psn_dist.val().any();

        // Head: EPSN moves to the first clear slot after its own, wrapping. `free_hi` are the
        // clear slots above EPSN's; when there are none, the first clear slot from 0 (EPSN's own
        // slot is always clear, so one exists). `pre_*` is the exclusive prefix OR (slots above
        // the first clear one): the next `gt_reg`, and what bounds the run to clear.
        self.free_all.next = !self.bitmap_reg.q.val();
        self.free_hi.next = self.free_all.val() & self.gt_reg.q.val();
        // Exclusive prefix ORs (bit i = any bit below i). `!(x ^ (x - 1))` is the prefix of `x`
        // (`x - 1` flips the lowest set bit and the zeros below it): a carry chain, which the LUT
        // mapper cannot serialise as it did log-depth shift-OR stages. Each prefix is taken as two
        // half-width chains side by side (the upper half's is all ones when the lower half has a
        // bit): the masks leave each subtraction's upper result bits unused, so synthesis trims
        // it to half the width, and the chain is half as long.
        self.pre_hi_xl.next = self.free_hi.val() & self.c_lo_half.val();
        self.pre_hi_xh.next = self.free_hi.val() >> self.c_half_w.val();
        self.pre_hi.next = !(self.pre_hi_xl.val() ^ (self.pre_hi_xl.val() - self.c_one_w.val()))
            & self.c_lo_half.val();
        self.pre_hi_u.next = (!(self.pre_hi_xh.val()
            ^ (self.pre_hi_xh.val() - self.c_one_w.val()))
            & self.c_lo_half.val())
            << self.c_half_w.val();
        if self.pre_hi_xl.val().any() {
            self.pre_hi.next = self.pre_hi.val() | self.c_hi_half.val();
        } else {
            self.pre_hi.next = self.pre_hi.val() | self.pre_hi_u.val();
        }
        self.pre_all_xl.next = self.free_all.val() & self.c_lo_half.val();
        self.pre_all_xh.next = self.free_all.val() >> self.c_half_w.val();
        self.pre_all.next = !(self.pre_all_xl.val() ^ (self.pre_all_xl.val() - self.c_one_w.val()))
            & self.c_lo_half.val();
        self.pre_all_u.next = (!(self.pre_all_xh.val()
            ^ (self.pre_all_xh.val() - self.c_one_w.val()))
            & self.c_lo_half.val())
            << self.c_half_w.val();
        if self.pre_all_xl.val().any() {
            self.pre_all.next = self.pre_all.val() | self.c_hi_half.val();
        } else {
            self.pre_all.next = self.pre_all.val() | self.pre_all_u.val();
        }
        self.any_hi.next = self.free_hi.val().any();
        self.first.next = self.free_all.val() & !self.pre_all.val();
        if self.any_hi.val() {
            self.first.next = self.free_hi.val() & !self.pre_hi.val();
        }
        self.first_idx.next = 0.into();
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(0, (self.first.val() & self.c_sel0.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(1, (self.first.val() & self.c_sel1.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(2, (self.first.val() & self.c_sel2.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(3, (self.first.val() & self.c_sel3.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(4, (self.first.val() & self.c_sel4.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(5, (self.first.val() & self.c_sel5.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(6, (self.first.val() & self.c_sel6.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(7, (self.first.val() & self.c_sel7.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(8, (self.first.val() & self.c_sel8.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(9, (self.first.val() & self.c_sel9.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(10, (self.first.val() & self.c_sel10.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(11, (self.first.val() & self.c_sel11.val()).any());
        self.epsn_upper.next = self.epsn_reg.q.val() & self.c_upper_mask.val();
        if !self.any_hi.val() {
            self.epsn_upper.next = self.epsn_upper.val() + self.c_window.val();
        }

        // Verdict.
        self.verdict.next = 1.into();
        if self.malformed.val() {
            self.verdict.next = 5.into();
        } else if self.s_probe.val() {
            self.verdict.next = 4.into();
        } else if self.oow.val() {
            self.verdict.next = 3.into();
        } else if self.dup.val() {
            self.verdict.next = 2.into();
        } else if self.head.val() {
            self.verdict.next = 0.into();
        }

        if self.fire.val() {
            if self.head.val() {
                self.epsn_reg.d.next =
                    (self.epsn_upper.val() | self.first_idx.val()) & self.c_psn_mask.val();
                if self.any_hi.val() {
                    self.bitmap_reg.d.next =
                        self.bitmap_reg.q.val() & (!self.gt_reg.q.val() | self.pre_hi.val());
                    self.gt_reg.d.next = self.pre_hi.val();
                } else {
                    self.bitmap_reg.d.next =
                        self.bitmap_reg.q.val() & !self.gt_reg.q.val() & self.pre_all.val();
                    self.gt_reg.d.next = self.pre_all.val();
                }
            }
            if self.hold_new.val() {
                self.bitmap_reg.d.next = self
                    .bitmap_reg
                    .q
                    .val()
                    .replace_bit(self.slot.val().index(), true);
            }
            if self.dup.val() {
                self.dup_count_reg.d.next = self.dup_count_reg.q.val() + self.c_one.val();
            }
            if self.oow.val() {
                self.oow_count_reg.d.next = self.oow_count_reg.q.val() + self.c_one.val();
            }
            if self.malformed.val() {
                self.bad_count_reg.d.next = self.bad_count_reg.q.val() + self.c_one.val();
            }
            self.p1_valid_reg.d.next = true;
            self.p1_verdict_reg.d.next = self.verdict.val();
            self.p1_ok_reg.d.next = !self.malformed.val() & !self.oow.val();
            self.p1_data_reg.d.next = self.data.val();
            self.p1_head_reg.d.next = self.head.val();
            self.p1_hold_reg.d.next = self.hold_new.val();
            self.p1_epsn_prev_reg.d.next = self.epsn_reg.q.val();
            self.p1_psn_reg.d.next = self.s_psn.val();
            self.p1_len_reg.d.next = self.s_len.val();
            self.p1_entropy_reg.d.next = self.s_entropy.val();
            self.p1_ecn_reg.d.next = self.s_ecn.val();
            self.p1_ts_reg.d.next = self.s_ts.val();
            self.p1_probe_reg.d.next = self.s_probe.val();
            self.p1_ack_req_reg.d.next = self.s_ack_req.val();
        } else if self.advance.val() {
            self.p1_valid_reg.d.next = false;
        }

        // ---- Stage 2: the packet in p1_*, with EPSN and the bitmap as it left them.
        self.run.next = (self.epsn_reg.q.val() - self.p1_epsn_prev_reg.q.val() - self.c_one.val())
            & self.c_psn_mask.val();
        self.ooo_new.next = self.ooo_reg.q.val();
        self.bytes_new.next = self.bytes_reg.q.val();
        if self.p1_head_reg.q.val() {
            self.ooo_new.next = self.ooo_reg.q.val() - self.run.val();
            self.bytes_new.next = self.bytes_reg.q.val() + self.p1_len_reg.q.val();
        }
        if self.p1_hold_reg.q.val() {
            self.ooo_new.next = self.ooo_reg.q.val() + self.c_one.val();
            self.bytes_new.next = self.bytes_reg.q.val() + self.p1_len_reg.q.val();
        }

        // Coalescing and the lowest PSN since the last SACK (data packets only).
        self.coalesce_sum.next = bit_cast::<64, 32>(self.coalesce_reg.q.val())
            + bit_cast::<64, 32>(self.p1_len_reg.q.val());
        self.coalesce_new.next = self.coalesce_reg.q.val();
        // The packet replaces the lowest when it is below it.
        self.lt_dist.next = self.p1_psn_reg.q.val() - self.lowest_reg.q.val();
        self.below_lowest.d.next = self.lt_dist.val();
        self.take_psn.next = self.p1_data_reg.q.val()
            & (!self.lowest_valid_reg.q.val() | self.below_lowest.below.val().any());
        self.lowest_new.next = self.lowest_reg.q.val();
        if self.take_psn.val() {
            self.lowest_new.next = self.p1_psn_reg.q.val();
        }
        self.lowest_valid_new.next = self.lowest_valid_reg.q.val() | self.p1_data_reg.q.val();
        if self.p1_data_reg.q.val() {
            self.coalesce_new.next = bit_cast::<32, 64>(self.coalesce_sum.val());
            if self.coalesce_sum.val() > self.c_sat32.val() {
                self.coalesce_new.next = bit_cast::<32, 64>(self.c_sat32.val());
            }
        }

        // Triggers.
        self.t_coalesce.next =
            self.p1_data_reg.q.val() & (self.coalesce_new.val() >= self.c_coalesce.val());
        self.t_head_fill.next = self.p1_head_reg.q.val()
            & self.ooo_reg.q.val().any()
            & !self.c_fault_no_head_fill.val();
        self.any.next = self.p1_ok_reg.q.val()
            & (self.t_coalesce.val()
                | self.t_head_fill.val()
                | self.p1_probe_reg.q.val()
                | self.p1_ack_req_reg.q.val()
                | self.p1_ecn_reg.q.val());

        // Segment: the lowest PSN since the last SACK unless it is below EPSN (or a probe).
        // Both candidates for the lowest (the register, this packet's PSN) are compared with
        // EPSN in parallel, and so are the three candidate segments' bases (`seg_rel_*` =
        // base - EPSN), so that one select follows the lowest's compare.
        self.rel_low.next = self.lowest_reg.q.val() - self.epsn_reg.q.val();
        self.rel_psn.next = self.p1_psn_reg.q.val() - self.epsn_reg.q.val();
        self.lowest_below_epsn.d.next = self.rel_low.val();
        self.psn_below_epsn.d.next = self.rel_psn.val();
        self.use_lowest.next = !self.p1_probe_reg.q.val()
            & self.lowest_valid_new.val()
            & !self.lowest_below_epsn.below.val().any();
        if self.take_psn.val() {
            self.use_lowest.next =
                !self.p1_probe_reg.q.val() & !self.psn_below_epsn.below.val().any();
        }
        self.seg_rel_low.next = ((self.lowest_reg.q.val() & self.c_seg_mask.val())
            - self.epsn_reg.q.val())
            & self.c_psn_mask.val();
        self.seg_rel_psn.next = ((self.p1_psn_reg.q.val() & self.c_seg_mask.val())
            - self.epsn_reg.q.val())
            & self.c_psn_mask.val();
        self.seg_rel_epsn.next = ((self.epsn_reg.q.val() & self.c_seg_mask.val())
            - self.epsn_reg.q.val())
            & self.c_psn_mask.val();
        self.seg_base.next = self.epsn_reg.q.val() & self.c_seg_mask.val();
        self.seg_rel.next = self.seg_rel_epsn.val();
        if self.use_lowest.val() {
            self.seg_base.next = self.lowest_new.val() & self.c_seg_mask.val();
            if self.take_psn.val() {
                self.seg_rel.next = self.seg_rel_psn.val();
            } else {
                self.seg_rel.next = self.seg_rel_low.val();
            }
        }
        // The segment's bits as the bitmap holds them now (stage 3 sees the next packet's).
        self.seg_raw.next = self
            .bitmap_reg
            .q
            .val()
            .get_bits::<SB>((self.seg_base.val() & self.c_slot_mask.val()).index());

        if self.advance.val() & self.p1_valid_reg.q.val() {
            self.ooo_reg.d.next = self.ooo_new.val();
            self.bytes_reg.d.next = self.bytes_new.val();
            self.coalesce_reg.d.next = self.coalesce_new.val();
            self.lowest_reg.d.next = self.lowest_new.val();
            self.lowest_valid_reg.d.next = self.lowest_valid_new.val();
            if self.any.val() {
                self.coalesce_reg.d.next = 0.into();
                self.lowest_valid_reg.d.next = false;
            }
            self.p2_valid_reg.d.next = true;
            self.p2_verdict_reg.d.next = self.p1_verdict_reg.q.val();
            self.p2_trig_coalesce_reg.d.next = false;
            self.p2_trig_head_fill_reg.d.next = false;
            self.p2_trig_probe_reg.d.next = false;
            self.p2_trig_ack_req_reg.d.next = false;
            self.p2_trig_ecn_reg.d.next = false;
            if self.p1_ok_reg.q.val() {
                self.p2_trig_coalesce_reg.d.next = self.t_coalesce.val();
                self.p2_trig_head_fill_reg.d.next = self.t_head_fill.val();
                self.p2_trig_probe_reg.d.next = self.p1_probe_reg.q.val();
                self.p2_trig_ack_req_reg.d.next = self.p1_ack_req_reg.q.val();
                self.p2_trig_ecn_reg.d.next = self.p1_ecn_reg.q.val();
            }
            self.p2_sack_reg.d.next = self.any.val();
            self.p2_epsn_reg.d.next = self.epsn_reg.q.val();
            self.p2_base_reg.d.next = self.seg_base.val();
            self.p2_rel_reg.d.next = self.seg_rel.val();
            self.p2_raw_reg.d.next = self.seg_raw.val();
            self.p2_bytes_reg.d.next = self.bytes_new.val();
            self.p2_ooo_reg.d.next = self.ooo_new.val();
            self.p2_entropy_reg.d.next = self.p1_entropy_reg.q.val();
            self.p2_ecn_reg.d.next = self.p1_ecn_reg.q.val();
            self.p2_ts_reg.d.next = self.p1_ts_reg.q.val();
            self.p2_probe_reg.d.next = self.p1_probe_reg.q.val();
        } else if self.advance.val() {
            self.p2_valid_reg.d.next = false;
        }

        // ---- Stage 3: the SACK's bitmap (received: below EPSN, or held in the window) and
        // the output registers.
        self.seg_below_epsn.d.next = self.p2_rel_reg.q.val();
        self.seg_bits.next = self.seg_below_epsn.below.val();
        for i in 0..SB {
            self.rel_i.next = (self.p2_rel_reg.q.val() + i.to_bits::<32>()) & self.c_psn_mask.val();
            if (self.rel_i.val() < self.c_window.val()) & self.p2_raw_reg.q.val().get_bit(i) {
                self.seg_bits.next = self.seg_bits.val().replace_bit(i, true);
            }
        }

        if self.advance.val() & self.p2_valid_reg.q.val() {
            self.m_valid_reg.d.next = true;
            self.m_verdict_reg.d.next = self.p2_verdict_reg.q.val();
            self.m_trig_coalesce_reg.d.next = self.p2_trig_coalesce_reg.q.val();
            self.m_trig_head_fill_reg.d.next = self.p2_trig_head_fill_reg.q.val();
            self.m_trig_probe_reg.d.next = self.p2_trig_probe_reg.q.val();
            self.m_trig_ack_req_reg.d.next = self.p2_trig_ack_req_reg.q.val();
            self.m_trig_ecn_reg.d.next = self.p2_trig_ecn_reg.q.val();
            self.m_sack_valid_reg.d.next = self.p2_sack_reg.q.val();
            self.m_sack_epsn_reg.d.next = 0.into();
            self.m_sack_base_reg.d.next = 0.into();
            self.m_sack_bitmap_reg.d.next = 0.into();
            self.m_sack_bytes_reg.d.next = 0.into();
            self.m_sack_ooo_reg.d.next = 0.into();
            self.m_sack_entropy_reg.d.next = 0.into();
            self.m_sack_ecn_reg.d.next = false;
            self.m_sack_ts_reg.d.next = 0.into();
            self.m_sack_probe_reg.d.next = false;
            if self.p2_sack_reg.q.val() {
                self.m_sack_epsn_reg.d.next = self.p2_epsn_reg.q.val();
                self.m_sack_base_reg.d.next = self.p2_base_reg.q.val();
                self.m_sack_bitmap_reg.d.next = self.seg_bits.val();
                self.m_sack_bytes_reg.d.next = self.p2_bytes_reg.q.val();
                self.m_sack_ooo_reg.d.next = self.p2_ooo_reg.q.val();
                self.m_sack_entropy_reg.d.next = self.p2_entropy_reg.q.val();
                self.m_sack_ecn_reg.d.next = self.p2_ecn_reg.q.val();
                self.m_sack_ts_reg.d.next = self.p2_ts_reg.q.val();
                self.m_sack_probe_reg.d.next = self.p2_probe_reg.q.val();
            }
        } else if self.advance.val() {
            self.m_valid_reg.d.next = false;
            self.m_verdict_reg.d.next = 0.into();
            self.m_trig_coalesce_reg.d.next = false;
            self.m_trig_head_fill_reg.d.next = false;
            self.m_trig_probe_reg.d.next = false;
            self.m_trig_ack_req_reg.d.next = false;
            self.m_trig_ecn_reg.d.next = false;
            self.m_sack_valid_reg.d.next = false;
            self.m_sack_epsn_reg.d.next = 0.into();
            self.m_sack_base_reg.d.next = 0.into();
            self.m_sack_bitmap_reg.d.next = 0.into();
            self.m_sack_bytes_reg.d.next = 0.into();
            self.m_sack_ooo_reg.d.next = 0.into();
            self.m_sack_entropy_reg.d.next = 0.into();
            self.m_sack_ecn_reg.d.next = false;
            self.m_sack_ts_reg.d.next = 0.into();
            self.m_sack_probe_reg.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    #[test]
    fn default_config_verilog_snapshot() {
        let b = generate("sack_receiver", &Config::default(), &Options::default()).unwrap();
        insta::assert_snapshot!("sack_receiver_default", b.verilog);
    }

    /// Gate: the default design lints, compiles in Icarus and passes the Yosys structural
    /// check; a small design (32-PSN window, 8-bit segments) also goes through a full `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("sack_receiver", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "sack_receiver_default", false);
        let mut small = Config::default();
        small.sack.rx_window = 32;
        small.sack.sack_bits = 8;
        small.cwnd_unit.max_cwnd_bytes = Some(30 * 4096);
        let b = generate("sack_receiver", &small, &Options::default()).unwrap();
        crate::gate::check(&b, "sack_receiver_32_8", true);
    }

    #[test]
    fn illegal_initial_psn_is_refused_naming_the_block() {
        let o = Options {
            initial_psn: 1 << 24,
            ..Options::default()
        };
        let msg = generate("sack_receiver", &Config::default(), &o)
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("sack_receiver: initial PSN"), "{msg}");
    }
}
