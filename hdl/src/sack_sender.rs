//! SACK sender RTL (spec section 3, sender): one step per clock, latency 1, bit-exact with
//! `golden_model::sack_sender`.
//!
//! ```text
//!   state: una_reg, nxt_reg, acked_reg[W], lost_reg[W], len_reg[W x 16], bytes_*_reg,
//!          hi_*_reg (highest PSN acknowledged), rec_*_reg (recovery), probe_ts_reg, rto_ts_reg
//!
//!  s_sack_* ─► validate ─► EPSN advance ─► segment marks (SB bits, in [una, nxt)) ─► run of
//!              acked PSNs after una (cyclic find-first) ─► clear passed slots (cyclic range)
//!                 │
//!                 ▼
//!  recovery entry (probe SACK / OOO count) or timeout ─► lost |= cyclic range & ~acked
//!                 │
//!                 ▼
//!  Σ len over lost ─► inflight ─► window gate ─► TX: due probe > lowest lost (cyclic
//!                                                find-first) > new packet (s_new_*) ─► m_*
//! ```
//!
//! Structural difference from the model: the model moves `bytes_claimed` one PSN at a time.
//! Every change it makes pairs with a lost bit (set: `+len`, cleared by an ACK or by `snd_una`
//! passing: `-len`) except a retransmission, which clears the bit and keeps the claim. So
//! `bytes_claimed = Σ retransmitted len + Σ_{lost} len` at all times, and
//! `inflight = bytes_sent - bytes_recvd - bytes_claimed = new_bytes - bytes_recvd - Σ_{lost} len`
//! (wrapping 32-bit). The RTL keeps `new_bytes_reg` and sums the lengths under the step's final
//! lost bits; no per-PSN claim bookkeeping, same numbers.
//!
//! **No rotations, no W-bit arithmetic.** A window of PSNs starting at `snd_una` is a cyclic
//! range of slots `[a, b)`, read off two thermometers (`ge_x` bit `i` = `i >= x`, a shift of
//! ones): `ge_a & !ge_b`, or `ge_a | !ge_b` when it wraps, or every slot when it spans W PSNs.
//! A search from `snd_una` (the run of acknowledged PSNs, the lowest lost PSN) is two
//! find-firsts, one over the slots at or after `slot(una)` and one over all (taken when the
//! first finds nothing), each isolating the lowest set bit as `x & !prefix_or_below(x)` (log W
//! shift-OR stages). The chosen one-hot selects its index and its length through OR trees and
//! clears its lost bit directly. The length array is written through a one-hot write mask
//! (the slot's decode spread to its 16-bit field by constant shift-and-mask steps), so its
//! registers load with an enable. An earlier version rotated the bitmaps by `slot(una)`, made
//! masks as `(1 << n) - 1` (a W-bit subtraction) and wrote the length array with a 16W-bit
//! variable shift; at W 256 that filled 99% of an ECP5-85 (`docs/timing.md`).
//!
//! `W` = `rx_window`, `SB` = `sack_bits`, `LW` = `16 * W` (the packed length array: one 16-bit
//! length per slot; lengths are at most the MTU, 16384).

use crate::init_dff::InitDff;
use crate::seq::PsnBelow;
use rust_hdl::prelude::*;

/// `m_tx_kind` codes.
pub const TX_NEW: u64 = 0;
pub const TX_RETRANSMIT: u64 = 1;
pub const TX_PROBE: u64 = 2;
/// `m_sack_verdict` codes.
pub const SACK_NONE: u64 = 0;
pub const SACK_ACCEPTED: u64 = 1;
pub const SACK_MALFORMED: u64 = 2;
/// `m_loss` codes.
pub const LOSS_NONE: u64 = 0;
pub const LOSS_OOO: u64 = 1;
pub const LOSS_PROBE: u64 = 2;
pub const LOSS_TIMEOUT: u64 = 3;

/// Constants the sender is built with (from the config).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SenderConsts {
    pub mtu: u32,
    pub mtu_log2: u32,
    pub net_base_rtt_ns: u32,
    pub probe_interval_ns: u32,
    pub rto_ns: u32,
    pub ooo_min_threshold: u32,
    pub initial_psn: u32,
    /// Fault injection for the co-sim self-test: the OOO loss detector never fires.
    pub fault_no_ooo: bool,
    /// Fault injection: the PSN order's old rule (`crate::seq`).
    pub fault_old_psn_rule: bool,
    /// Fault injection: new data limited by the bytes in flight alone (no PSN-span test).
    pub fault_byte_window_only: bool,
}

/// See the module documentation.
#[derive(LogicBlock)]
pub struct SackSenderRtl<const W: usize, const SB: usize, const LW: usize> {
    pub clock: Signal<In, Clock>,

    /// A step is offered (time advances to `s_now`; the fields below are its inputs).
    pub s_valid: Signal<In, Bit>,
    /// The step is taken this cycle (`!m_valid | m_ready`).
    pub s_ready: Signal<Out, Bit>,
    /// Time of the step, ns (wrapping 32-bit).
    pub s_now: Signal<In, Bits<32>>,
    /// The window, bytes (the cwnd unit's, before this step's ACK).
    pub s_cwnd: Signal<In, Bits<32>>,
    /// The cwnd unit's achievedBDP before this step's ACK.
    pub s_achieved_bdp: Signal<In, Bits<32>>,
    /// A SACK arrives this step.
    pub s_sack_valid: Signal<In, Bit>,
    /// Expected PSN; wider than 24 bits is malformed.
    pub s_sack_epsn: Signal<In, Bits<32>>,
    /// First PSN of the segment; must be 24 bits and a multiple of `sack_bits`.
    pub s_sack_base: Signal<In, Bits<32>>,
    /// Bit `i`: PSN `base + i` received.
    pub s_sack_bitmap: Signal<In, Bits<SB>>,
    /// The receiver's byte count; above the bytes ever sent is malformed.
    pub s_sack_bytes_recvd: Signal<In, Bits<32>>,
    /// Packets the receiver holds beyond EPSN (the OOO detector's input).
    pub s_sack_ooo_count: Signal<In, Bits<32>>,
    /// The echoed send timestamp (a probe SACK's RTT).
    pub s_sack_ts: Signal<In, Bits<32>>,
    /// The SACK answers a probe.
    pub s_sack_probe: Signal<In, Bit>,
    /// The host offers a packet.
    pub s_new_valid: Signal<In, Bit>,
    /// Its payload bytes, `1..=MTU` (else refused: `m_new_rejected`).
    pub s_new_len: Signal<In, Bits<32>>,
    /// Ask the receiver for an immediate ACK.
    pub s_new_ack_req: Signal<In, Bit>,
    /// The link can take a packet this step.
    pub s_tx_ready: Signal<In, Bit>,

    pub m_valid: Signal<Out, Bit>,
    pub m_ready: Signal<In, Bit>,
    /// A packet goes out; the `m_tx_*` fields are 0 otherwise.
    pub m_tx_valid: Signal<Out, Bit>,
    pub m_tx_psn: Signal<Out, Bits<32>>,
    pub m_tx_len: Signal<Out, Bits<32>>,
    /// 0 new, 1 retransmission, 2 probe.
    pub m_tx_kind: Signal<Out, Bits<2>>,
    pub m_tx_ack_req: Signal<Out, Bit>,
    /// The offered packet was taken (it is `m_tx_*`).
    pub m_new_accepted: Signal<Out, Bit>,
    /// The offered packet had an illegal length and was refused.
    pub m_new_rejected: Signal<Out, Bit>,
    /// 0 no SACK, 1 accepted, 2 malformed (counted, changed nothing).
    pub m_sack_verdict: Signal<Out, Bits<2>>,
    /// Bytes the SACK newly acknowledged (`bytes_recvd` advance).
    pub m_acked_bytes: Signal<Out, Bits<32>>,
    /// 0 none, 1 OOO count, 2 probe, 3 timeout: the loss detector that fired.
    pub m_loss: Signal<Out, Bits<2>>,
    /// Recovery ended this step.
    pub m_recovery_exit: Signal<Out, Bit>,
    /// In recovery after the step.
    pub m_recovery: Signal<Out, Bit>,
    /// Bytes in flight after the step (0 while the signed count is negative).
    pub m_inflight: Signal<Out, Bits<32>>,
    pub m_snd_una: Signal<Out, Bits<32>>,
    pub m_snd_nxt: Signal<Out, Bits<32>>,
    /// Counters (wrapping 32-bit).
    pub status_sacks: Signal<Out, Bits<32>>,
    pub status_malformed_sacks: Signal<Out, Bits<32>>,
    pub status_rejected_new: Signal<Out, Bits<32>>,
    pub status_retransmits: Signal<Out, Bits<32>>,
    pub status_probes: Signal<Out, Bits<32>>,
    pub status_loss_ooo: Signal<Out, Bits<32>>,
    pub status_loss_probe: Signal<Out, Bits<32>>,
    pub status_loss_timeout: Signal<Out, Bits<32>>,

    c_psn_mask: Constant<Bits<32>>,
    c_window: Constant<Bits<32>>,
    c_slot_mask: Constant<Bits<32>>,
    c_align_mask: Constant<Bits<32>>,
    c_mtu: Constant<Bits<32>>,
    c_mtu_log2: Constant<Bits<32>>,
    c_two_rtt: Constant<Bits<32>>,
    c_probe_interval: Constant<Bits<32>>,
    c_rto: Constant<Bits<32>>,
    c_ooo_min: Constant<Bits<32>>,
    c_one: Constant<Bits<32>>,
    c_w16: Constant<Bits<16>>,
    c_one_w: Constant<Bits<W>>,
    c_len_mask: Constant<Bits<32>>,
    c_fault_no_ooo: Constant<Bit>,
    c_fault_byte_window_only: Constant<Bit>,
    /// The PSN order (one rule, `crate::seq`): the SACK's EPSN below `snd_una` (stale); the
    /// highest PSN known received below the segment's top; the recovery's end below the new
    /// `snd_una`.
    epsn_below_una: PsnBelow<1>,
    hi_below_cand: PsnBelow<1>,
    rec_below_una: PsnBelow<1>,
    run_pre: Signal<Local, Bits<W>>,
    lost_pre: Signal<Local, Bits<W>>,

    una_reg: InitDff<Bits<32>>,
    nxt_reg: InitDff<Bits<32>>,
    acked_reg: DFF<Bits<W>>,
    lost_reg: DFF<Bits<W>>,
    len_reg: DFF<Bits<LW>>,
    bytes_sent_reg: DFF<Bits<32>>,
    new_bytes_reg: DFF<Bits<32>>,
    recvd_reg: DFF<Bits<32>>,
    hi_valid_reg: DFF<Bit>,
    hi_reg: DFF<Bits<32>>,
    rec_valid_reg: DFF<Bit>,
    rec_hi_reg: DFF<Bits<32>>,
    probe_ts_reg: DFF<Bits<32>>,
    rto_ts_reg: DFF<Bits<32>>,
    ack_since_probe_reg: DFF<Bit>,
    cnt_sacks_reg: DFF<Bits<32>>,
    cnt_malformed_reg: DFF<Bits<32>>,
    cnt_rejected_reg: DFF<Bits<32>>,
    cnt_retx_reg: DFF<Bits<32>>,
    cnt_probes_reg: DFF<Bits<32>>,
    cnt_ooo_reg: DFF<Bits<32>>,
    cnt_probe_loss_reg: DFF<Bits<32>>,
    cnt_timeout_reg: DFF<Bits<32>>,

    m_valid_reg: DFF<Bit>,
    m_tx_valid_reg: DFF<Bit>,
    m_tx_psn_reg: DFF<Bits<32>>,
    m_tx_len_reg: DFF<Bits<32>>,
    m_tx_kind_reg: DFF<Bits<2>>,
    m_tx_ack_req_reg: DFF<Bit>,
    m_new_accepted_reg: DFF<Bit>,
    m_new_rejected_reg: DFF<Bit>,
    m_sack_verdict_reg: DFF<Bits<2>>,
    m_acked_bytes_reg: DFF<Bits<32>>,
    m_loss_reg: DFF<Bits<2>>,
    m_recovery_exit_reg: DFF<Bit>,
    m_recovery_reg: DFF<Bit>,
    m_inflight_reg: DFF<Bits<32>>,
    m_snd_una_reg: DFF<Bits<32>>,
    m_snd_nxt_reg: DFF<Bits<32>>,

    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    // SACK validation
    outs0: Signal<Local, Bits<32>>,
    d_epsn: Signal<Local, Bits<32>>,
    epsn_stale: Signal<Local, Bit>,
    epsn_ahead: Signal<Local, Bit>,
    d_bytes_sent: Signal<Local, Bits<32>>,
    malformed: Signal<Local, Bit>,
    sack_ok: Signal<Local, Bit>,
    // EPSN advance and segment
    una1: Signal<Local, Bits<32>>,
    outs1: Signal<Local, Bits<32>>,
    rel_i: Signal<Local, Bits<32>>,
    seg_ok: Signal<Local, Bits<SB>>,
    seg_top: Signal<Local, Bits<32>>,
    seg_w: Signal<Local, Bits<W>>,
    acked1: Signal<Local, Bits<W>>,
    // run of acked PSNs after una1
    r1: Signal<Local, Bits<16>>,
    run: Signal<Local, Bits<32>>,
    run_one: Signal<Local, Bits<W>>,
    lost_one: Signal<Local, Bits<W>>,
    una2: Signal<Local, Bits<32>>,
    outs2: Signal<Local, Bits<32>>,
    r0: Signal<Local, Bits<16>>,
    r2: Signal<Local, Bits<16>>,
    adv: Signal<Local, Bits<16>>,
    pass_mask: Signal<Local, Bits<W>>,
    acked2: Signal<Local, Bits<W>>,
    lost2: Signal<Local, Bits<W>>,
    // highest PSN acknowledged, bytes, recovery exit
    cand: Signal<Local, Bits<32>>,
    d_hi: Signal<Local, Bits<32>>,
    hi_valid1: Signal<Local, Bit>,
    hi1: Signal<Local, Bits<32>>,
    d_bytes: Signal<Local, Bits<32>>,
    recvd1: Signal<Local, Bits<32>>,
    acked_bytes: Signal<Local, Bits<32>>,
    rec_valid1: Signal<Local, Bit>,
    rec_hi1: Signal<Local, Bits<32>>,
    d_rec: Signal<Local, Bits<32>>,
    recovery_exit: Signal<Local, Bit>,
    probe_ts1: Signal<Local, Bits<32>>,
    rto_ts1: Signal<Local, Bits<32>>,
    ack_since_probe1: Signal<Local, Bit>,
    // loss detection
    cwnd_packets: Signal<Local, Bits<32>>,
    probe_cond: Signal<Local, Bit>,
    ooo_cond: Signal<Local, Bit>,
    enter: Signal<Local, Bit>,
    decl_n: Signal<Local, Bits<16>>,
    decl_mask: Signal<Local, Bits<W>>,
    lost3: Signal<Local, Bits<W>>,
    loss: Signal<Local, Bits<2>>,
    timeout: Signal<Local, Bit>,
    range_mask: Signal<Local, Bits<W>>,
    // inflight and TX
    retx_len_16: Signal<Local, Bits<16>>,
    len_i: Signal<Local, Bits<16>>,
    lost_sum: Signal<Local, Bits<32>>,
    inflight_raw: Signal<Local, Bits<32>>,
    inflight: Signal<Local, Bits<32>>,
    window_open: Signal<Local, Bit>,
    new_len_ok: Signal<Local, Bit>,
    new_rejected: Signal<Local, Bit>,
    new_ok: Signal<Local, Bit>,
    probe_due: Signal<Local, Bit>,
    lost_found: Signal<Local, Bit>,
    retx_psn: Signal<Local, Bits<32>>,
    retx_slot: Signal<Local, Bits<16>>,
    retx_len: Signal<Local, Bits<32>>,
    new_slot: Signal<Local, Bits<16>>,
    do_probe: Signal<Local, Bit>,
    do_retx: Signal<Local, Bit>,
    do_new: Signal<Local, Bit>,
    tx_psn: Signal<Local, Bits<32>>,
    tx_len: Signal<Local, Bits<32>>,
    tx_kind: Signal<Local, Bits<2>>,
    inflight_out_raw: Signal<Local, Bits<32>>,
    inflight_out: Signal<Local, Bits<32>>,
    c_ones_w: Constant<Bits<W>>,
    /// 1: `c_one16 << k` is the shift of a shift-OR stage (2^k).
    c_one16: Constant<Bits<16>>,
    /// `c_spread<k>` / `c_spread_sh<k>`: step k of spreading slot bits to field bits.
    c_spread0: Constant<Bits<LW>>,
    c_spread_sh0: Constant<Bits<32>>,
    c_spread1: Constant<Bits<LW>>,
    c_spread_sh1: Constant<Bits<32>>,
    c_spread2: Constant<Bits<LW>>,
    c_spread_sh2: Constant<Bits<32>>,
    c_spread3: Constant<Bits<LW>>,
    c_spread_sh3: Constant<Bits<32>>,
    c_spread4: Constant<Bits<LW>>,
    c_spread_sh4: Constant<Bits<32>>,
    c_spread5: Constant<Bits<LW>>,
    c_spread_sh5: Constant<Bits<32>>,
    c_spread6: Constant<Bits<LW>>,
    c_spread_sh6: Constant<Bits<32>>,
    c_spread7: Constant<Bits<LW>>,
    c_spread_sh7: Constant<Bits<32>>,
    c_spread8: Constant<Bits<LW>>,
    c_spread_sh8: Constant<Bits<32>>,
    c_spread9: Constant<Bits<LW>>,
    c_spread_sh9: Constant<Bits<32>>,
    c_spread10: Constant<Bits<LW>>,
    c_spread_sh10: Constant<Bits<32>>,
    c_spread11: Constant<Bits<LW>>,
    c_spread_sh11: Constant<Bits<32>>,
    c_blk_mask: Constant<Bits<32>>,
    c_slot_mask16: Constant<Bits<16>>,
    ge0: Signal<Local, Bits<W>>,
    ge_epsn: Signal<Local, Bits<W>>,
    ge_nxt: Signal<Local, Bits<W>>,
    ge1: Signal<Local, Bits<W>>,
    ge2: Signal<Local, Bits<W>>,
    ge_hi: Signal<Local, Bits<W>>,
    new_onehot: Signal<Local, Bits<W>>,
    z_all: Signal<Local, Bits<W>>,
    z_lo: Signal<Local, Bits<W>>,
    run_pre_lo: Signal<Local, Bits<W>>,
    l_lo: Signal<Local, Bits<W>>,
    lost_pre_lo: Signal<Local, Bits<W>>,
    epsn_slot: Signal<Local, Bits<16>>,
    hi_end_slot: Signal<Local, Bits<16>>,
    run_slot: Signal<Local, Bits<16>>,
    len_wmask: Signal<Local, Bits<LW>>,
    len_rep: Signal<Local, Bits<LW>>,
}

impl<const W: usize, const SB: usize, const LW: usize> SackSenderRtl<W, SB, LW> {
    pub fn new(k: &SenderConsts) -> Self {
        assert_eq!(LW, 16 * W, "SackSenderRtl: LW must be 16 * W");
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let psn0 = bits::<32>(k.initial_psn as u64);
        SackSenderRtl {
            clock: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_now: Default::default(),
            s_cwnd: Default::default(),
            s_achieved_bdp: Default::default(),
            s_sack_valid: Default::default(),
            s_sack_epsn: Default::default(),
            s_sack_base: Default::default(),
            s_sack_bitmap: Default::default(),
            s_sack_bytes_recvd: Default::default(),
            s_sack_ooo_count: Default::default(),
            s_sack_ts: Default::default(),
            s_sack_probe: Default::default(),
            s_new_valid: Default::default(),
            s_new_len: Default::default(),
            s_new_ack_req: Default::default(),
            s_tx_ready: Default::default(),
            m_valid: Default::default(),
            m_ready: Default::default(),
            m_tx_valid: Default::default(),
            m_tx_psn: Default::default(),
            m_tx_len: Default::default(),
            m_tx_kind: Default::default(),
            m_tx_ack_req: Default::default(),
            m_new_accepted: Default::default(),
            m_new_rejected: Default::default(),
            m_sack_verdict: Default::default(),
            m_acked_bytes: Default::default(),
            m_loss: Default::default(),
            m_recovery_exit: Default::default(),
            m_recovery: Default::default(),
            m_inflight: Default::default(),
            m_snd_una: Default::default(),
            m_snd_nxt: Default::default(),
            status_sacks: Default::default(),
            status_malformed_sacks: Default::default(),
            status_rejected_new: Default::default(),
            status_retransmits: Default::default(),
            status_probes: Default::default(),
            status_loss_ooo: Default::default(),
            status_loss_probe: Default::default(),
            status_loss_timeout: Default::default(),
            c_psn_mask: c32((1 << 24) - 1),
            c_window: c32(W as u64),
            c_slot_mask: c32(W as u64 - 1),
            c_align_mask: c32(SB as u64 - 1),
            c_mtu: c32(k.mtu as u64),
            c_mtu_log2: c32(k.mtu_log2 as u64),
            c_two_rtt: c32(2 * k.net_base_rtt_ns as u64),
            c_probe_interval: c32(k.probe_interval_ns as u64),
            c_rto: c32(k.rto_ns as u64),
            c_ooo_min: c32(k.ooo_min_threshold as u64),
            c_one: c32(1),
            c_w16: Constant::new(bits::<16>(W as u64)),
            c_one_w: Constant::new(bits::<W>(1)),
            c_len_mask: c32(0xFFFF),
            c_fault_no_ooo: Constant::new(k.fault_no_ooo),
            c_fault_byte_window_only: Constant::new(k.fault_byte_window_only),
            epsn_below_una: PsnBelow::new(k.fault_old_psn_rule),
            hi_below_cand: PsnBelow::new(k.fault_old_psn_rule),
            rec_below_una: PsnBelow::new(k.fault_old_psn_rule),
            run_pre: Default::default(),
            lost_pre: Default::default(),
            una_reg: InitDff::new(psn0),
            nxt_reg: InitDff::new(psn0),
            acked_reg: Default::default(),
            lost_reg: Default::default(),
            len_reg: Default::default(),
            bytes_sent_reg: Default::default(),
            new_bytes_reg: Default::default(),
            recvd_reg: Default::default(),
            hi_valid_reg: Default::default(),
            hi_reg: Default::default(),
            rec_valid_reg: Default::default(),
            rec_hi_reg: Default::default(),
            probe_ts_reg: Default::default(),
            rto_ts_reg: Default::default(),
            ack_since_probe_reg: Default::default(),
            cnt_sacks_reg: Default::default(),
            cnt_malformed_reg: Default::default(),
            cnt_rejected_reg: Default::default(),
            cnt_retx_reg: Default::default(),
            cnt_probes_reg: Default::default(),
            cnt_ooo_reg: Default::default(),
            cnt_probe_loss_reg: Default::default(),
            cnt_timeout_reg: Default::default(),
            m_valid_reg: Default::default(),
            m_tx_valid_reg: Default::default(),
            m_tx_psn_reg: Default::default(),
            m_tx_len_reg: Default::default(),
            m_tx_kind_reg: Default::default(),
            m_tx_ack_req_reg: Default::default(),
            m_new_accepted_reg: Default::default(),
            m_new_rejected_reg: Default::default(),
            m_sack_verdict_reg: Default::default(),
            m_acked_bytes_reg: Default::default(),
            m_loss_reg: Default::default(),
            m_recovery_exit_reg: Default::default(),
            m_recovery_reg: Default::default(),
            m_inflight_reg: Default::default(),
            m_snd_una_reg: Default::default(),
            m_snd_nxt_reg: Default::default(),
            advance: Default::default(),
            fire: Default::default(),
            outs0: Default::default(),
            d_epsn: Default::default(),
            epsn_stale: Default::default(),
            epsn_ahead: Default::default(),
            d_bytes_sent: Default::default(),
            malformed: Default::default(),
            sack_ok: Default::default(),
            una1: Default::default(),
            outs1: Default::default(),
            rel_i: Default::default(),
            seg_ok: Default::default(),
            seg_top: Default::default(),
            seg_w: Default::default(),
            acked1: Default::default(),
            r1: Default::default(),
            run: Default::default(),
            run_one: Default::default(),
            lost_one: Default::default(),
            una2: Default::default(),
            outs2: Default::default(),
            r0: Default::default(),
            r2: Default::default(),
            adv: Default::default(),
            pass_mask: Default::default(),
            acked2: Default::default(),
            lost2: Default::default(),
            cand: Default::default(),
            d_hi: Default::default(),
            hi_valid1: Default::default(),
            hi1: Default::default(),
            d_bytes: Default::default(),
            recvd1: Default::default(),
            acked_bytes: Default::default(),
            rec_valid1: Default::default(),
            rec_hi1: Default::default(),
            d_rec: Default::default(),
            recovery_exit: Default::default(),
            probe_ts1: Default::default(),
            rto_ts1: Default::default(),
            ack_since_probe1: Default::default(),
            cwnd_packets: Default::default(),
            probe_cond: Default::default(),
            ooo_cond: Default::default(),
            enter: Default::default(),
            decl_n: Default::default(),
            decl_mask: Default::default(),
            lost3: Default::default(),
            loss: Default::default(),
            timeout: Default::default(),
            range_mask: Default::default(),
            retx_len_16: Default::default(),
            len_i: Default::default(),
            lost_sum: Default::default(),
            inflight_raw: Default::default(),
            inflight: Default::default(),
            window_open: Default::default(),
            new_len_ok: Default::default(),
            new_rejected: Default::default(),
            new_ok: Default::default(),
            probe_due: Default::default(),
            lost_found: Default::default(),
            retx_psn: Default::default(),
            retx_slot: Default::default(),
            retx_len: Default::default(),
            new_slot: Default::default(),
            do_probe: Default::default(),
            do_retx: Default::default(),
            do_new: Default::default(),
            tx_psn: Default::default(),
            tx_len: Default::default(),
            tx_kind: Default::default(),
            inflight_out_raw: Default::default(),
            inflight_out: Default::default(),
            c_ones_w: Constant::new(!bits::<W>(0)),
            c_one16: Constant::new(bits::<16>(1)),
            c_spread0: Constant::new(spread_mask::<LW>(W, 0)),
            c_spread_sh0: c32(15),
            c_spread1: Constant::new(spread_mask::<LW>(W, 1)),
            c_spread_sh1: c32(15 << 1),
            c_spread2: Constant::new(spread_mask::<LW>(W, 2)),
            c_spread_sh2: c32(15 << 2),
            c_spread3: Constant::new(spread_mask::<LW>(W, 3)),
            c_spread_sh3: c32(15 << 3),
            c_spread4: Constant::new(spread_mask::<LW>(W, 4)),
            c_spread_sh4: c32(15 << 4),
            c_spread5: Constant::new(spread_mask::<LW>(W, 5)),
            c_spread_sh5: c32(15 << 5),
            c_spread6: Constant::new(spread_mask::<LW>(W, 6)),
            c_spread_sh6: c32(15 << 6),
            c_spread7: Constant::new(spread_mask::<LW>(W, 7)),
            c_spread_sh7: c32(15 << 7),
            c_spread8: Constant::new(spread_mask::<LW>(W, 8)),
            c_spread_sh8: c32(15 << 8),
            c_spread9: Constant::new(spread_mask::<LW>(W, 9)),
            c_spread_sh9: c32(15 << 9),
            c_spread10: Constant::new(spread_mask::<LW>(W, 10)),
            c_spread_sh10: c32(15 << 10),
            c_spread11: Constant::new(spread_mask::<LW>(W, 11)),
            c_spread_sh11: c32(15 << 11),
            c_blk_mask: c32((W as u64 - 1) & !(SB as u64 - 1)),
            c_slot_mask16: Constant::new(bits::<16>(W as u64 - 1)),
            ge0: Default::default(),
            ge_epsn: Default::default(),
            ge_nxt: Default::default(),
            ge1: Default::default(),
            ge2: Default::default(),
            ge_hi: Default::default(),
            new_onehot: Default::default(),
            z_all: Default::default(),
            z_lo: Default::default(),
            run_pre_lo: Default::default(),
            l_lo: Default::default(),
            lost_pre_lo: Default::default(),
            epsn_slot: Default::default(),
            hi_end_slot: Default::default(),
            run_slot: Default::default(),
            len_wmask: Default::default(),
            len_rep: Default::default(),
        }
    }
}

/// The bit positions the slots of a `w`-slot array occupy after step `k` of the spread (index
/// bits `k` and above already moved to 16x their weight): slot `i` sits at
/// `16 * (i >> k << k) + (i & (2^k - 1))`.
fn spread_mask<const LW: usize>(w: usize, k: usize) -> Bits<LW> {
    let mut m = Bits::<LW>::default();
    for i in 0..w {
        m = m.replace_bit(16 * (i >> k << k) + (i & ((1 << k) - 1)), true);
    }
    m
}

impl<const W: usize, const SB: usize, const LW: usize> Logic for SackSenderRtl<W, SB, LW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            una_reg,
            nxt_reg,
            acked_reg,
            lost_reg,
            len_reg,
            bytes_sent_reg,
            new_bytes_reg,
            recvd_reg,
            hi_valid_reg,
            hi_reg,
            rec_valid_reg,
            rec_hi_reg,
            probe_ts_reg,
            rto_ts_reg,
            ack_since_probe_reg,
            cnt_sacks_reg,
            cnt_malformed_reg,
            cnt_rejected_reg,
            cnt_retx_reg,
            cnt_probes_reg,
            cnt_ooo_reg,
            cnt_probe_loss_reg,
            cnt_timeout_reg,
            m_valid_reg,
            m_tx_valid_reg,
            m_tx_psn_reg,
            m_tx_len_reg,
            m_tx_kind_reg,
            m_tx_ack_req_reg,
            m_new_accepted_reg,
            m_new_rejected_reg,
            m_sack_verdict_reg,
            m_acked_bytes_reg,
            m_loss_reg,
            m_recovery_exit_reg,
            m_recovery_reg,
            m_inflight_reg,
            m_snd_una_reg,
            m_snd_nxt_reg
        );
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_tx_valid.next = self.m_tx_valid_reg.q.val();
        self.m_tx_psn.next = self.m_tx_psn_reg.q.val();
        self.m_tx_len.next = self.m_tx_len_reg.q.val();
        self.m_tx_kind.next = self.m_tx_kind_reg.q.val();
        self.m_tx_ack_req.next = self.m_tx_ack_req_reg.q.val();
        self.m_new_accepted.next = self.m_new_accepted_reg.q.val();
        self.m_new_rejected.next = self.m_new_rejected_reg.q.val();
        self.m_sack_verdict.next = self.m_sack_verdict_reg.q.val();
        self.m_acked_bytes.next = self.m_acked_bytes_reg.q.val();
        self.m_loss.next = self.m_loss_reg.q.val();
        self.m_recovery_exit.next = self.m_recovery_exit_reg.q.val();
        self.m_recovery.next = self.m_recovery_reg.q.val();
        self.m_inflight.next = self.m_inflight_reg.q.val();
        self.m_snd_una.next = self.m_snd_una_reg.q.val();
        self.m_snd_nxt.next = self.m_snd_nxt_reg.q.val();
        self.status_sacks.next = self.cnt_sacks_reg.q.val();
        self.status_malformed_sacks.next = self.cnt_malformed_reg.q.val();
        self.status_rejected_new.next = self.cnt_rejected_reg.q.val();
        self.status_retransmits.next = self.cnt_retx_reg.q.val();
        self.status_probes.next = self.cnt_probes_reg.q.val();
        self.status_loss_ooo.next = self.cnt_ooo_reg.q.val();
        self.status_loss_probe.next = self.cnt_probe_loss_reg.q.val();
        self.status_loss_timeout.next = self.cnt_timeout_reg.q.val();

        self.advance.next = !self.m_valid_reg.q.val() | self.m_ready.val();
        self.s_ready.next = self.advance.val();
        self.fire.next = self.advance.val() & self.s_valid.val();

        // ---- SACK validation (against the state at the start of the step).
        self.outs0.next = (self.nxt_reg.q.val() - self.una_reg.q.val()) & self.c_psn_mask.val();
        self.d_epsn.next = (self.s_sack_epsn.val() - self.una_reg.q.val()) & self.c_psn_mask.val();
        // Stale: the EPSN is below snd_una; ahead: neither below nor equal.
        self.epsn_below_una.d.next = self.d_epsn.val();
        self.epsn_stale.next = self.epsn_below_una.below.val().any();
        self.epsn_ahead.next = self.d_epsn.val().any() & !self.epsn_stale.val();
        self.d_bytes_sent.next = self.s_sack_bytes_recvd.val() - self.bytes_sent_reg.q.val();
        self.malformed.next = (self.s_sack_epsn.val() > self.c_psn_mask.val())
            | (self.s_sack_base.val() > self.c_psn_mask.val())
            | (self.s_sack_base.val() & self.c_align_mask.val()).any()
            | ((self.d_epsn.val() > self.outs0.val()) & !self.epsn_stale.val())
            | (self.d_bytes_sent.val().any() & !self.d_bytes_sent.val().get_bit(31));
        self.sack_ok.next = self.s_sack_valid.val() & !self.malformed.val();

        // ---- Slot thermometers: `ge_x` bit `i` is `i >= x`. A window of PSNs is a cyclic
        // range of slots, `[a, b)`, read off two of them (no rotation, no W-bit subtraction).
        self.r0.next = bit_cast::<16, 32>(self.una_reg.q.val() & self.c_slot_mask.val());
        self.epsn_slot.next = bit_cast::<16, 32>(self.s_sack_epsn.val() & self.c_slot_mask.val());
        self.new_slot.next = bit_cast::<16, 32>(self.nxt_reg.q.val() & self.c_slot_mask.val());
        self.new_onehot.next = self.c_one_w.val() << self.new_slot.val();
        self.ge0.next = self.c_ones_w.val() << self.r0.val();
        self.ge_epsn.next = self.c_ones_w.val() << self.epsn_slot.val();
        self.ge_nxt.next = self.c_ones_w.val() << self.new_slot.val();

        // ---- EPSN advance, then the segment's bits inside [una1, nxt).
        self.una1.next = self.una_reg.q.val();
        self.r1.next = self.r0.val();
        self.ge1.next = self.ge0.val();
        if self.sack_ok.val() & self.epsn_ahead.val() {
            self.una1.next = self.s_sack_epsn.val();
            self.r1.next = self.epsn_slot.val();
            self.ge1.next = self.ge_epsn.val();
        }
        self.outs1.next = (self.nxt_reg.q.val() - self.una1.val()) & self.c_psn_mask.val();
        self.seg_ok.next = 0.into();
        self.seg_top.next = 0.into();
        for i in 0..SB {
            self.rel_i.next = (self.s_sack_base.val() + i.to_bits::<32>() - self.una1.val())
                & self.c_psn_mask.val();
            if self.s_sack_bitmap.val().get_bit(i) & (self.rel_i.val() < self.outs1.val()) {
                self.seg_ok.next = self.seg_ok.val().replace_bit(i, true);
                self.seg_top.next = i.to_bits::<32>();
            }
        }
        if !self.sack_ok.val() {
            self.seg_ok.next = 0.into();
        }
        // The segment is SB-aligned and SB divides W: its slots are contiguous, at one of
        // W / SB places (the shift's low bits are constant zeros, so it is a W/SB-way mux).
        self.seg_w.next = bit_cast::<W, SB>(self.seg_ok.val())
            << bit_cast::<16, 32>(self.s_sack_base.val() & self.c_blk_mask.val());
        self.acked1.next = self.acked_reg.q.val() | self.seg_w.val();

        // ---- The run of acknowledged PSNs starting at una1: the first unacknowledged slot at
        // or after slot(una1), else the first one below it (the window wraps). Each find-first
        // isolates the lowest set bit as `x & !prefix_or_below(x)` (log W shift-OR stages).
        self.z_all.next = !self.acked1.val();
        self.z_lo.next = self.z_all.val() & self.ge1.val();
        self.run_pre.next = self.z_all.val() << self.c_one16.val();
        for k in 0..12usize {
            self.run_pre.next = self.run_pre.val()
                | (self.run_pre.val() << (self.c_one16.val() << k.to_bits::<16>()));
        }
        self.run_pre_lo.next = self.z_lo.val() << self.c_one16.val();
        for k in 0..12usize {
            self.run_pre_lo.next = self.run_pre_lo.val()
                | (self.run_pre_lo.val() << (self.c_one16.val() << k.to_bits::<16>()));
        }
        self.run_one.next = self.z_all.val() & !self.run_pre.val();
        if self.z_lo.val().any() {
            self.run_one.next = self.z_lo.val() & !self.run_pre_lo.val();
        }
        // Index of the one-hot: an OR over the set bit's index (a tree after synthesis).
        self.run_slot.next = 0.into();
        for i in 0..W {
            if self.run_one.val().get_bit(i) {
                self.run_slot.next = self.run_slot.val() | i.to_bits::<16>();
            }
        }
        self.run.next = self.c_window.val();
        if self.z_all.val().any() {
            self.run.next = bit_cast::<32, 16>(
                (self.run_slot.val() - self.r1.val()) & self.c_slot_mask16.val(),
            );
        }
        if self.run.val() > self.outs1.val() {
            self.run.next = self.outs1.val();
        }
        self.una2.next = self.una_reg.q.val();
        if self.sack_ok.val() {
            self.una2.next = (self.una1.val() + self.run.val()) & self.c_psn_mask.val();
        }
        self.outs2.next = (self.nxt_reg.q.val() - self.una2.val()) & self.c_psn_mask.val();
        self.r2.next = bit_cast::<16, 32>(self.una2.val() & self.c_slot_mask.val());
        self.ge2.next = self.c_ones_w.val() << self.r2.val();

        // Forget every slot snd_una passed: the cyclic range [slot(una), slot(una2)), all W
        // slots when it passed W PSNs.
        self.adv.next =
            bit_cast::<16, 32>((self.una2.val() - self.una_reg.q.val()) & self.c_psn_mask.val());
        self.pass_mask.next = self.ge0.val() & !self.ge2.val();
        if self.r2.val() < self.r0.val() {
            self.pass_mask.next = self.ge0.val() | !self.ge2.val();
        }
        if self.adv.val() == self.c_w16.val() {
            self.pass_mask.next = self.c_ones_w.val();
        }
        self.acked2.next = self.acked_reg.q.val();
        self.lost2.next = self.lost_reg.q.val();
        if self.sack_ok.val() {
            self.acked2.next = self.acked1.val() & !self.pass_mask.val();
            self.lost2.next = self.lost_reg.q.val() & !self.pass_mask.val() & !self.seg_w.val();
        }

        // ---- Highest PSN known received, bytes, probe timer, recovery exit.
        self.cand.next = (self.s_sack_base.val() + self.seg_top.val()) & self.c_psn_mask.val();
        self.d_hi.next = self.hi_reg.q.val() - self.cand.val();
        self.hi_below_cand.d.next = self.d_hi.val();
        self.hi_valid1.next = self.hi_valid_reg.q.val();
        self.hi1.next = self.hi_reg.q.val();
        if self.seg_ok.val().any()
            & (!self.hi_valid_reg.q.val() | self.hi_below_cand.below.val().any())
        {
            self.hi_valid1.next = true;
            self.hi1.next = self.cand.val();
        }
        if self.sack_ok.val()
            & (((self.hi1.val() - self.una2.val()) & self.c_psn_mask.val()) >= self.outs2.val())
        {
            self.hi_valid1.next = false;
        }
        self.d_bytes.next = self.s_sack_bytes_recvd.val() - self.recvd_reg.q.val();
        self.recvd1.next = self.recvd_reg.q.val();
        self.acked_bytes.next = 0.into();
        if self.sack_ok.val() & self.d_bytes.val().any() & !self.d_bytes.val().get_bit(31) {
            self.recvd1.next = self.s_sack_bytes_recvd.val();
            self.acked_bytes.next = self.d_bytes.val();
        }
        self.probe_ts1.next = self.probe_ts_reg.q.val();
        self.rto_ts1.next = self.rto_ts_reg.q.val();
        self.ack_since_probe1.next = self.ack_since_probe_reg.q.val();
        self.rec_valid1.next = self.rec_valid_reg.q.val();
        self.rec_hi1.next = self.rec_hi_reg.q.val();
        self.recovery_exit.next = false;
        // The recovery's end below the new snd_una.
        self.d_rec.next = self.rec_hi_reg.q.val() - self.una2.val();
        self.rec_below_una.d.next = self.d_rec.val();
        if self.sack_ok.val() {
            self.probe_ts1.next = self.s_now.val();
            if self.adv.val().any() {
                self.rto_ts1.next = self.s_now.val();
            }
            if !self.s_sack_probe.val() {
                self.ack_since_probe1.next = true;
            }
            if self.rec_valid_reg.q.val() & self.rec_below_una.below.val().any() {
                self.rec_valid1.next = false;
                self.recovery_exit.next = true;
            }
        }

        // ---- Loss detection: a probe's SACK (Algorithm 1 line 10) or the OOO count enters
        // recovery up to the highest PSN received; the timeout declares everything lost.
        self.cwnd_packets.next = self.s_cwnd.val() >> self.c_mtu_log2.val();
        self.probe_cond.next = self.s_sack_probe.val()
            & ((self.s_now.val() - self.s_sack_ts.val()) < self.c_two_rtt.val())
            & !self.ack_since_probe_reg.q.val()
            & !self.s_achieved_bdp.val().any();
        self.ooo_cond.next = (self.s_sack_ooo_count.val() > self.cwnd_packets.val())
            & (self.s_sack_ooo_count.val() > self.c_ooo_min.val())
            & !self.c_fault_no_ooo.val();
        self.enter.next = self.sack_ok.val()
            & !self.rec_valid1.val()
            & self.hi_valid1.val()
            & (self.probe_cond.val() | self.ooo_cond.val());
        self.loss.next = 0.into();
        self.decl_n.next = bit_cast::<16, 32>(
            ((self.hi1.val() - self.una2.val()) & self.c_psn_mask.val()) + self.c_one.val(),
        );
        // The PSNs [una2, hi1]: the cyclic range [slot(una2), slot(hi1 + 1)), all W slots
        // when it holds W PSNs.
        self.hi_end_slot.next =
            bit_cast::<16, 32>((self.hi1.val() + self.c_one.val()) & self.c_slot_mask.val());
        self.ge_hi.next = self.c_ones_w.val() << self.hi_end_slot.val();
        self.decl_mask.next = self.ge2.val() & !self.ge_hi.val();
        if self.hi_end_slot.val() < self.r2.val() {
            self.decl_mask.next = self.ge2.val() | !self.ge_hi.val();
        }
        if self.decl_n.val() == self.c_w16.val() {
            self.decl_mask.next = self.c_ones_w.val();
        }
        self.lost3.next = self.lost2.val();
        if self.enter.val() {
            self.lost3.next = self.lost2.val() | (self.decl_mask.val() & !self.acked2.val());
            self.rec_valid1.next = true;
            self.rec_hi1.next = self.hi1.val();
            self.loss.next = 1.into();
            if self.probe_cond.val() {
                self.loss.next = 2.into();
            }
        }
        // Every outstanding PSN: [slot(una2), slot(nxt)), all W slots when W are outstanding.
        self.range_mask.next = self.ge2.val() & !self.ge_nxt.val();
        if self.new_slot.val() < self.r2.val() {
            self.range_mask.next = self.ge2.val() | !self.ge_nxt.val();
        }
        if self.outs2.val() == self.c_window.val() {
            self.range_mask.next = self.c_ones_w.val();
        }
        self.timeout.next =
            self.outs2.val().any() & ((self.s_now.val() - self.rto_ts1.val()) > self.c_rto.val());
        if self.timeout.val() {
            self.lost3.next = self.lost3.val() | (self.range_mask.val() & !self.acked2.val());
            self.rec_valid1.next = true;
            self.rec_hi1.next = (self.nxt_reg.q.val() - self.c_one.val()) & self.c_psn_mask.val();
            self.rto_ts1.next = self.s_now.val();
            self.loss.next = 3.into();
        }

        // ---- Bytes in flight: new bytes - bytes received - Σ len over the lost PSNs. Each
        // term is masked before the addition (not the addition made conditional), so the W
        // additions form one multi-operand sum that synthesis maps as a tree.
        self.lost_sum.next = 0.into();
        for i in 0..W {
            // (bit_cast evaluates its argument when generating, so slice into a local)
            self.len_i.next = self.len_reg.q.val().get_bits::<16>(i * 16);
            if !self.lost3.val().get_bit(i) {
                self.len_i.next = 0.into();
            }
            self.lost_sum.next = self.lost_sum.val() + bit_cast::<32, 16>(self.len_i.val());
        }
        self.inflight_raw.next =
            self.new_bytes_reg.q.val() - self.recvd1.val() - self.lost_sum.val();
        self.inflight.next = self.inflight_raw.val();
        if self.inflight_raw.val().get_bit(31) {
            self.inflight.next = 0.into();
        }
        self.window_open.next = self.inflight.val() < self.s_cwnd.val();

        // ---- TX: a due probe, else the lowest lost PSN, else a new packet.
        self.new_len_ok.next =
            self.s_new_len.val().any() & (self.s_new_len.val() <= self.c_mtu.val());
        self.new_rejected.next = self.s_new_valid.val() & !self.new_len_ok.val();
        self.new_ok.next = self.s_new_valid.val()
            & self.new_len_ok.val()
            & self.window_open.val()
            & ((self.outs2.val() < self.c_window.val()) | self.c_fault_byte_window_only.val());
        self.probe_due.next = self.outs2.val().any()
            & ((self.s_now.val() - self.probe_ts1.val()) >= self.c_probe_interval.val());
        // The lowest lost PSN: the first lost slot at or after slot(una2), else the first one
        // below it. Lost bits lie only in [una2, nxt), so that is the lowest PSN.
        self.l_lo.next = self.lost3.val() & self.ge2.val();
        self.lost_found.next = self.lost3.val().any();
        self.lost_pre.next = self.lost3.val() << self.c_one16.val();
        for k in 0..12usize {
            self.lost_pre.next = self.lost_pre.val()
                | (self.lost_pre.val() << (self.c_one16.val() << k.to_bits::<16>()));
        }
        self.lost_pre_lo.next = self.l_lo.val() << self.c_one16.val();
        for k in 0..12usize {
            self.lost_pre_lo.next = self.lost_pre_lo.val()
                | (self.lost_pre_lo.val() << (self.c_one16.val() << k.to_bits::<16>()));
        }
        self.lost_one.next = self.lost3.val() & !self.lost_pre.val();
        if self.l_lo.val().any() {
            self.lost_one.next = self.l_lo.val() & !self.lost_pre_lo.val();
        }
        // Its slot (an OR of the set bit's index) and its length (an OR of the one selected
        // field), both trees after synthesis.
        self.retx_slot.next = 0.into();
        self.retx_len_16.next = 0.into();
        for i in 0..W {
            if self.lost_one.val().get_bit(i) {
                self.retx_slot.next = self.retx_slot.val() | i.to_bits::<16>();
                self.retx_len_16.next =
                    self.retx_len_16.val() | self.len_reg.q.val().get_bits::<16>(i * 16);
            }
        }
        self.retx_psn.next = (self.una2.val()
            + bit_cast::<32, 16>(
                (self.retx_slot.val() - self.r2.val()) & self.c_slot_mask16.val(),
            ))
            & self.c_psn_mask.val();
        self.retx_len.next = bit_cast::<32, 16>(self.retx_len_16.val());
        self.do_probe.next = self.s_tx_ready.val() & self.probe_due.val();
        self.do_retx.next = self.s_tx_ready.val()
            & !self.probe_due.val()
            & self.lost_found.val()
            & self.window_open.val();
        self.do_new.next = self.s_tx_ready.val()
            & !self.probe_due.val()
            & !(self.lost_found.val() & self.window_open.val())
            & self.new_ok.val();
        self.tx_psn.next = 0.into();
        self.tx_len.next = 0.into();
        self.tx_kind.next = 0.into();
        if self.do_probe.val() {
            self.tx_psn.next = self.una2.val();
            self.tx_kind.next = 2.into();
        }
        if self.do_retx.val() {
            self.tx_psn.next = self.retx_psn.val();
            self.tx_len.next = self.retx_len.val();
            self.tx_kind.next = 1.into();
        }
        if self.do_new.val() {
            self.tx_psn.next = self.nxt_reg.q.val();
            self.tx_len.next = self.s_new_len.val();
        }
        self.inflight_out_raw.next = self.inflight_raw.val() + self.tx_len.val();
        self.inflight_out.next = self.inflight_out_raw.val();
        if self.inflight_out_raw.val().get_bit(31) {
            self.inflight_out.next = 0.into();
        }
        // The length array's write: the new packet's field, selected by the slot's one-hot
        // spread to bit 16 * slot (log W constant shift-and-mask steps: index bit k of a slot
        // moves it by 15 * 2^k) and smeared over the field. Only wiring and a W-way decode,
        // not a shift of the whole array.
        self.len_wmask.next = bit_cast::<LW, W>(self.new_onehot.val());
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh11.val()))
            & self.c_spread11.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh10.val()))
            & self.c_spread10.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh9.val()))
            & self.c_spread9.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh8.val()))
            & self.c_spread8.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh7.val()))
            & self.c_spread7.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh6.val()))
            & self.c_spread6.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh5.val()))
            & self.c_spread5.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh4.val()))
            & self.c_spread4.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh3.val()))
            & self.c_spread3.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh2.val()))
            & self.c_spread2.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh1.val()))
            & self.c_spread1.val();
        self.len_wmask.next = (self.len_wmask.val()
            | (self.len_wmask.val() << self.c_spread_sh0.val()))
            & self.c_spread0.val();
        for k in 0..4usize {
            self.len_wmask.next = self.len_wmask.val()
                | (self.len_wmask.val() << (self.c_one16.val() << k.to_bits::<16>()));
        }
        self.len_rep.next = bit_cast::<LW, 32>(self.s_new_len.val() & self.c_len_mask.val());
        for k in 4..12usize {
            self.len_rep.next = self.len_rep.val()
                | (self.len_rep.val() << (self.c_one16.val() << k.to_bits::<16>()));
        }

        // ---- State update.
        if self.fire.val() {
            self.una_reg.d.next = self.una2.val();
            self.acked_reg.d.next = self.acked2.val();
            self.lost_reg.d.next = self.lost3.val();
            self.recvd_reg.d.next = self.recvd1.val();
            self.hi_valid_reg.d.next = self.hi_valid1.val();
            self.hi_reg.d.next = self.hi1.val();
            self.rec_valid_reg.d.next = self.rec_valid1.val();
            self.rec_hi_reg.d.next = self.rec_hi1.val();
            self.probe_ts_reg.d.next = self.probe_ts1.val();
            self.rto_ts_reg.d.next = self.rto_ts1.val();
            self.ack_since_probe_reg.d.next = self.ack_since_probe1.val();
            if self.s_sack_valid.val() & self.malformed.val() {
                self.cnt_malformed_reg.d.next = self.cnt_malformed_reg.q.val() + self.c_one.val();
            }
            if self.sack_ok.val() {
                self.cnt_sacks_reg.d.next = self.cnt_sacks_reg.q.val() + self.c_one.val();
            }
            if self.new_rejected.val() {
                self.cnt_rejected_reg.d.next = self.cnt_rejected_reg.q.val() + self.c_one.val();
            }
            if self.enter.val() & !self.probe_cond.val() {
                self.cnt_ooo_reg.d.next = self.cnt_ooo_reg.q.val() + self.c_one.val();
            }
            if self.enter.val() & self.probe_cond.val() {
                self.cnt_probe_loss_reg.d.next = self.cnt_probe_loss_reg.q.val() + self.c_one.val();
            }
            if self.timeout.val() {
                self.cnt_timeout_reg.d.next = self.cnt_timeout_reg.q.val() + self.c_one.val();
            }
            if self.do_probe.val() {
                self.probe_ts_reg.d.next = self.s_now.val();
                self.ack_since_probe_reg.d.next = false;
                self.cnt_probes_reg.d.next = self.cnt_probes_reg.q.val() + self.c_one.val();
            }
            if self.do_retx.val() {
                self.lost_reg.d.next = self.lost3.val() & !self.lost_one.val();
                self.bytes_sent_reg.d.next = self.bytes_sent_reg.q.val() + self.retx_len.val();
                self.cnt_retx_reg.d.next = self.cnt_retx_reg.q.val() + self.c_one.val();
            }
            if self.do_new.val() {
                if !self.outs2.val().any() {
                    self.rto_ts_reg.d.next = self.s_now.val();
                    self.probe_ts_reg.d.next = self.s_now.val();
                }
                self.len_reg.d.next = (self.len_reg.q.val() & !self.len_wmask.val())
                    | (self.len_rep.val() & self.len_wmask.val());
                self.acked_reg.d.next = self.acked2.val() & !self.new_onehot.val();
                self.lost_reg.d.next = self.lost3.val() & !self.new_onehot.val();
                self.nxt_reg.d.next =
                    (self.nxt_reg.q.val() + self.c_one.val()) & self.c_psn_mask.val();
                self.bytes_sent_reg.d.next = self.bytes_sent_reg.q.val() + self.s_new_len.val();
                self.new_bytes_reg.d.next = self.new_bytes_reg.q.val() + self.s_new_len.val();
            }

            self.m_valid_reg.d.next = true;
            self.m_tx_valid_reg.d.next =
                self.do_probe.val() | self.do_retx.val() | self.do_new.val();
            self.m_tx_psn_reg.d.next = self.tx_psn.val();
            self.m_tx_len_reg.d.next = self.tx_len.val();
            self.m_tx_kind_reg.d.next = self.tx_kind.val();
            self.m_tx_ack_req_reg.d.next = self.do_new.val() & self.s_new_ack_req.val();
            self.m_new_accepted_reg.d.next = self.do_new.val();
            self.m_new_rejected_reg.d.next = self.new_rejected.val();
            self.m_sack_verdict_reg.d.next = 0.into();
            if self.s_sack_valid.val() {
                self.m_sack_verdict_reg.d.next = 1.into();
                if self.malformed.val() {
                    self.m_sack_verdict_reg.d.next = 2.into();
                }
            }
            self.m_acked_bytes_reg.d.next = self.acked_bytes.val();
            self.m_loss_reg.d.next = self.loss.val();
            self.m_recovery_exit_reg.d.next = self.recovery_exit.val();
            self.m_recovery_reg.d.next = self.rec_valid1.val();
            self.m_inflight_reg.d.next = self.inflight_out.val();
            self.m_snd_una_reg.d.next = self.una2.val();
            self.m_snd_nxt_reg.d.next = self.nxt_reg.q.val();
            if self.do_new.val() {
                self.m_snd_nxt_reg.d.next =
                    (self.nxt_reg.q.val() + self.c_one.val()) & self.c_psn_mask.val();
            }
        } else if self.advance.val() {
            self.m_valid_reg.d.next = false;
            self.m_tx_valid_reg.d.next = false;
            self.m_tx_psn_reg.d.next = 0.into();
            self.m_tx_len_reg.d.next = 0.into();
            self.m_tx_kind_reg.d.next = 0.into();
            self.m_tx_ack_req_reg.d.next = false;
            self.m_new_accepted_reg.d.next = false;
            self.m_new_rejected_reg.d.next = false;
            self.m_sack_verdict_reg.d.next = 0.into();
            self.m_acked_bytes_reg.d.next = 0.into();
            self.m_loss_reg.d.next = 0.into();
            self.m_recovery_exit_reg.d.next = false;
            self.m_recovery_reg.d.next = false;
            self.m_inflight_reg.d.next = 0.into();
            self.m_snd_una_reg.d.next = 0.into();
            self.m_snd_nxt_reg.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    #[test]
    fn default_config_verilog_snapshot() {
        let b = generate("sack_sender", &Config::default(), &Options::default()).unwrap();
        insta::assert_snapshot!("sack_sender_default", b.verilog);
    }

    /// Gate: the default design lints, compiles in Icarus and passes the Yosys structural
    /// check; a small design (32-PSN window, 8-bit segments) also goes through a full `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("sack_sender", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "sack_sender_default", false);
        let mut small = Config::default();
        small.sack.rx_window = 32;
        small.sack.sack_bits = 8;
        small.cwnd_unit.max_cwnd_bytes = Some(30 * 4096);
        let b = generate("sack_sender", &small, &Options::default()).unwrap();
        crate::gate::check(&b, "sack_sender_32_8", true);
    }

    #[test]
    fn illegal_initial_psn_is_refused_naming_the_block() {
        let o = Options {
            initial_psn: 1 << 24,
            ..Options::default()
        };
        let msg = generate("sack_sender", &Config::default(), &o)
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("sack_sender: initial PSN"), "{msg}");
    }
}
