//! `strack_nic`: one connection's NIC, the four blocks composed; one step per clock
//! (II = 1), latency 16 (`crate::nic_latency`), free-running (the link's readiness,
//! `s_tx_ready`, is the back-pressure).
//!
//! ```text
//! cycle c (stage 0)          c+1 (stage 1)                       stage 2              stages 3..16
//! s_sack_*, s_new_*, ──► sack_sender ──m_*──► glue: accepted? ──► cwnd_unit (15 stages) ──m_cwnd_q, m_branch─┐ (stage 16)
//! s_tx_ready          ▲                        │ rtt, ecn, acked                                              │
//!                     │ window view: the cwnd unit as it showed one cycle after the previous step ◄─ hold ◄───┤
//!                     │                        │                                                              ▼
//!                                              ├─ glue m_* (send side) ─────────► delay regs ────────────────┐
//!                                              └─ ECN echo, choose ► entropy_bitmap (3) ─► delay regs ───────┤
//! s_rx_* ──► sack_receiver (3 stages) ──m_*──► glue regs (receive side) ─► delay regs ──────────────────────┴► m_*
//! ```
//!
//! The blocks are the same generated modules as on their own (renamed `strack_nic__<block>`),
//! always ready (`m_ready` tied high). The glue (a rust-hdl block) holds the pipeline registers,
//! saturates the RTT and the acknowledged bytes for the cwnd unit, and keeps the window view:
//! the value the cwnd unit showed during the previous step's stage 1 (the model's
//! `StrackNic::view`: after the SACKs of the steps at cycles up to that cycle less the cwnd
//! unit's latency plus one; the model counts idle cycles for it). Each result is ready at its own
//! stage: the glue's send-side results at stage 2, the receiver's and the bitmap's choice at 1 +
//! their latency, the cwnd unit's (`m_cwnd_q`, `m_cwnd_branch*`, made here from the step at that
//! stage, `steps_reg`) at 1 + its latency; the top delays each to the last.
//!
//! The top is structural Verilog written here from the blocks' port lists, not a rust-hdl block:
//! a rust-hdl top would need every block's widths as its own const generics (max_paths x
//! reciprocal bits x window pairs: thousands of instantiations).

use crate::init_dff::InitDff;
use rust_hdl::prelude::*;
use strack_config::{ACKED_BITS, RTT_BITS};

/// Constants of the glue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GlueConsts {
    pub cwnd_frac: u32,
    pub mtu_log2: u32,
    /// The cwnd unit's initial window (cwnd format).
    pub initial_cwnd_q: u32,
}

/// The NIC's pipeline registers and the wiring logic between the blocks.
#[derive(LogicBlock)]
pub struct StrackNicGlue<const SB: usize> {
    pub clock: Signal<In, Clock>,

    /// A step (one per clock at most; always taken).
    pub s_valid: Signal<In, Bit>,
    pub s_now: Signal<In, Bits<32>>,
    pub s_sack_ts: Signal<In, Bits<32>>,
    pub s_sack_entropy: Signal<In, Bits<32>>,
    pub s_sack_ecn: Signal<In, Bit>,
    pub s_sack_probe: Signal<In, Bit>,
    /// A data packet arrives for the receive side this step.
    pub s_rx_valid: Signal<In, Bit>,

    // From the sender's output stage (stage 1).
    pub snd_valid: Signal<In, Bit>,
    pub snd_sack_verdict: Signal<In, Bits<2>>,
    pub snd_acked_bytes: Signal<In, Bits<32>>,
    pub snd_tx_valid: Signal<In, Bit>,
    pub snd_tx_psn: Signal<In, Bits<32>>,
    pub snd_tx_len: Signal<In, Bits<32>>,
    pub snd_tx_kind: Signal<In, Bits<2>>,
    pub snd_tx_ack_req: Signal<In, Bit>,
    pub snd_new_accepted: Signal<In, Bit>,
    pub snd_loss: Signal<In, Bits<2>>,
    pub snd_inflight: Signal<In, Bits<32>>,
    pub snd_recovery: Signal<In, Bit>,
    /// To the sender (stage 0): the window view.
    pub snd_cwnd: Signal<Out, Bits<32>>,
    pub snd_achieved_bdp: Signal<Out, Bits<32>>,

    // From the receiver's output stage (stage 1).
    pub rcv_valid: Signal<In, Bit>,
    pub rcv_verdict: Signal<In, Bits<3>>,
    pub rcv_sack_valid: Signal<In, Bit>,
    pub rcv_sack_epsn: Signal<In, Bits<32>>,
    pub rcv_sack_base: Signal<In, Bits<32>>,
    pub rcv_sack_bitmap: Signal<In, Bits<SB>>,
    pub rcv_sack_bytes_recvd: Signal<In, Bits<32>>,
    pub rcv_sack_ooo_count: Signal<In, Bits<32>>,
    pub rcv_sack_entropy: Signal<In, Bits<32>>,
    pub rcv_sack_ecn: Signal<In, Bit>,
    pub rcv_sack_ts: Signal<In, Bits<32>>,
    pub rcv_sack_probe: Signal<In, Bit>,
    /// To the receiver: it steps only when a packet arrives.
    pub rcv_s_valid: Signal<Out, Bit>,

    // To the cwnd unit (stage 1) and back from it (stage 2).
    pub cw_s_valid: Signal<Out, Bit>,
    pub cw_s_now: Signal<Out, Bits<32>>,
    pub cw_s_rtt: Signal<Out, Bits<32>>,
    pub cw_s_ecn: Signal<Out, Bit>,
    pub cw_s_acked_bytes: Signal<Out, Bits<32>>,
    pub cw_s_is_probe_ack: Signal<Out, Bit>,
    pub cw_valid: Signal<In, Bit>,
    pub cw_cwnd_q: Signal<In, Bits<32>>,
    pub cw_achieved_bdp: Signal<In, Bits<32>>,
    pub cw_branch: Signal<In, Bits<3>>,

    // To the entropy bitmap (stage 1); its result meets the step's in the top.
    pub eb_s_valid: Signal<Out, Bit>,
    pub eb_s_now: Signal<Out, Bits<32>>,
    pub eb_s_ack_valid: Signal<Out, Bit>,
    pub eb_s_ack_entropy: Signal<Out, Bits<16>>,
    pub eb_s_ack_ecn: Signal<Out, Bit>,
    pub eb_s_choose_valid: Signal<Out, Bit>,
    pub eb_s_cwnd_packets: Signal<Out, Bits<32>>,

    /// The result of the step taken two cycles ago (before the top's delay); every `m_*`
    /// reads 0 otherwise.
    pub m_valid: Signal<Out, Bit>,
    /// A data packet (new, retransmission or probe) goes out.
    pub m_tx_valid: Signal<Out, Bit>,
    pub m_tx_psn: Signal<Out, Bits<32>>,
    pub m_tx_len: Signal<Out, Bits<32>>,
    /// Its send timestamp (the step's `s_now`).
    pub m_tx_ts: Signal<Out, Bits<32>>,
    pub m_tx_probe: Signal<Out, Bit>,
    pub m_tx_ack_req: Signal<Out, Bit>,
    /// 0 new, 1 retransmission, 2 probe.
    pub m_tx_kind: Signal<Out, Bits<2>>,
    pub m_new_accepted: Signal<Out, Bit>,
    /// 0 no SACK, 1 accepted, 2 malformed.
    pub m_sack_verdict: Signal<Out, Bits<2>>,
    /// The cwnd unit ran (an accepted SACK); `m_cwnd_branch` is its Algorithm 4 arm.
    pub m_cwnd_branch_valid: Signal<Out, Bit>,
    pub m_cwnd_branch: Signal<Out, Bits<3>>,
    /// 0 none, 1 OOO, 2 probe, 3 timeout.
    pub m_loss: Signal<Out, Bits<2>>,
    /// The window after the step (cwnd format).
    pub m_cwnd_q: Signal<Out, Bits<32>>,
    pub m_inflight: Signal<Out, Bits<32>>,
    pub m_recovery: Signal<Out, Bit>,
    /// The receive side took a packet; `m_rx_verdict` is the receiver's verdict code.
    pub m_rx_valid: Signal<Out, Bit>,
    pub m_rx_verdict: Signal<Out, Bits<3>>,
    /// The receive side sends a SACK.
    pub m_tx_sack_valid: Signal<Out, Bit>,
    pub m_tx_sack_epsn: Signal<Out, Bits<32>>,
    pub m_tx_sack_base: Signal<Out, Bits<32>>,
    pub m_tx_sack_bitmap: Signal<Out, Bits<SB>>,
    pub m_tx_sack_bytes_recvd: Signal<Out, Bits<32>>,
    pub m_tx_sack_ooo_count: Signal<Out, Bits<32>>,
    pub m_tx_sack_entropy: Signal<Out, Bits<32>>,
    pub m_tx_sack_ecn: Signal<Out, Bit>,
    pub m_tx_sack_ts: Signal<Out, Bits<32>>,
    pub m_tx_sack_probe: Signal<Out, Bit>,

    c_frac: Constant<Bits<32>>,
    c_pkt_shift: Constant<Bits<32>>,
    c_rtt_max: Constant<Bits<32>>,
    c_acked_max: Constant<Bits<32>>,
    c_entropy_max: Constant<Bits<32>>,
    c_accepted: Constant<Bits<2>>,
    c_kind_probe: Constant<Bits<2>>,
    /// Bit `CWND_LATENCY` of `steps_reg`: a step at the stage where the cwnd unit's result
    /// for it shows (stage 1 + its latency).
    c_cw_stage: Constant<Bits<16>>,
    c_one16: Constant<Bits<16>>,

    // The cwnd unit's state as of this cycle, and the window view for the next step.
    q_hold_reg: InitDff<Bits<32>>,
    bdp_hold_reg: DFF<Bits<32>>,
    view_q_reg: InitDff<Bits<32>>,
    view_bdp_reg: DFF<Bits<32>>,
    q_now: Signal<Local, Bits<32>>,
    bdp_now: Signal<Local, Bits<32>>,
    view_q: Signal<Local, Bits<32>>,
    rtt: Signal<Local, Bits<32>>,
    accepted: Signal<Local, Bit>,

    // Stage 1.
    p1_valid_reg: DFF<Bit>,
    /// Bit k: a step is in stage k + 1.
    steps_reg: DFF<Bits<16>>,
    p1_now_reg: DFF<Bits<32>>,
    p1_rtt_reg: DFF<Bits<32>>,
    p1_entropy_reg: DFF<Bits<32>>,
    p1_ecn_reg: DFF<Bit>,
    p1_probe_reg: DFF<Bit>,
    p1_cwnd_packets_reg: DFF<Bits<32>>,

    // Stage 2.
    p2_valid_reg: DFF<Bit>,
    p2_now_reg: DFF<Bits<32>>,
    p2_tx_valid_reg: DFF<Bit>,
    p2_tx_psn_reg: DFF<Bits<32>>,
    p2_tx_len_reg: DFF<Bits<32>>,
    p2_tx_kind_reg: DFF<Bits<2>>,
    p2_tx_ack_req_reg: DFF<Bit>,
    p2_new_accepted_reg: DFF<Bit>,
    p2_sack_verdict_reg: DFF<Bits<2>>,
    p2_loss_reg: DFF<Bits<2>>,
    p2_inflight_reg: DFF<Bits<32>>,
    p2_recovery_reg: DFF<Bit>,
    p2_rx_valid_reg: DFF<Bit>,
    p2_rx_verdict_reg: DFF<Bits<3>>,
    p2_sack_valid_reg: DFF<Bit>,
    p2_sack_epsn_reg: DFF<Bits<32>>,
    p2_sack_base_reg: DFF<Bits<32>>,
    p2_sack_bitmap_reg: DFF<Bits<SB>>,
    p2_sack_bytes_reg: DFF<Bits<32>>,
    p2_sack_ooo_reg: DFF<Bits<32>>,
    p2_sack_entropy_reg: DFF<Bits<32>>,
    p2_sack_ecn_reg: DFF<Bit>,
    p2_sack_ts_reg: DFF<Bits<32>>,
    p2_sack_probe_reg: DFF<Bit>,
}

impl<const SB: usize> StrackNicGlue<SB> {
    pub fn new(k: &GlueConsts) -> Self {
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let q0 = bits::<32>(k.initial_cwnd_q as u64);
        StrackNicGlue {
            clock: Default::default(),
            s_valid: Default::default(),
            s_now: Default::default(),
            s_sack_ts: Default::default(),
            s_sack_entropy: Default::default(),
            s_sack_ecn: Default::default(),
            s_sack_probe: Default::default(),
            s_rx_valid: Default::default(),
            snd_valid: Default::default(),
            snd_sack_verdict: Default::default(),
            snd_acked_bytes: Default::default(),
            snd_tx_valid: Default::default(),
            snd_tx_psn: Default::default(),
            snd_tx_len: Default::default(),
            snd_tx_kind: Default::default(),
            snd_tx_ack_req: Default::default(),
            snd_new_accepted: Default::default(),
            snd_loss: Default::default(),
            snd_inflight: Default::default(),
            snd_recovery: Default::default(),
            snd_cwnd: Default::default(),
            snd_achieved_bdp: Default::default(),
            rcv_valid: Default::default(),
            rcv_verdict: Default::default(),
            rcv_sack_valid: Default::default(),
            rcv_sack_epsn: Default::default(),
            rcv_sack_base: Default::default(),
            rcv_sack_bitmap: Default::default(),
            rcv_sack_bytes_recvd: Default::default(),
            rcv_sack_ooo_count: Default::default(),
            rcv_sack_entropy: Default::default(),
            rcv_sack_ecn: Default::default(),
            rcv_sack_ts: Default::default(),
            rcv_sack_probe: Default::default(),
            rcv_s_valid: Default::default(),
            cw_s_valid: Default::default(),
            cw_s_now: Default::default(),
            cw_s_rtt: Default::default(),
            cw_s_ecn: Default::default(),
            cw_s_acked_bytes: Default::default(),
            cw_s_is_probe_ack: Default::default(),
            cw_valid: Default::default(),
            cw_cwnd_q: Default::default(),
            cw_achieved_bdp: Default::default(),
            cw_branch: Default::default(),
            eb_s_valid: Default::default(),
            eb_s_now: Default::default(),
            eb_s_ack_valid: Default::default(),
            eb_s_ack_entropy: Default::default(),
            eb_s_ack_ecn: Default::default(),
            eb_s_choose_valid: Default::default(),
            eb_s_cwnd_packets: Default::default(),
            m_valid: Default::default(),
            m_tx_valid: Default::default(),
            m_tx_psn: Default::default(),
            m_tx_len: Default::default(),
            m_tx_ts: Default::default(),
            m_tx_probe: Default::default(),
            m_tx_ack_req: Default::default(),
            m_tx_kind: Default::default(),
            m_new_accepted: Default::default(),
            m_sack_verdict: Default::default(),
            m_cwnd_branch_valid: Default::default(),
            m_cwnd_branch: Default::default(),
            m_loss: Default::default(),
            m_cwnd_q: Default::default(),
            m_inflight: Default::default(),
            m_recovery: Default::default(),
            m_rx_valid: Default::default(),
            m_rx_verdict: Default::default(),
            m_tx_sack_valid: Default::default(),
            m_tx_sack_epsn: Default::default(),
            m_tx_sack_base: Default::default(),
            m_tx_sack_bitmap: Default::default(),
            m_tx_sack_bytes_recvd: Default::default(),
            m_tx_sack_ooo_count: Default::default(),
            m_tx_sack_entropy: Default::default(),
            m_tx_sack_ecn: Default::default(),
            m_tx_sack_ts: Default::default(),
            m_tx_sack_probe: Default::default(),
            c_frac: c32(k.cwnd_frac as u64),
            c_pkt_shift: c32((k.cwnd_frac + k.mtu_log2) as u64),
            c_rtt_max: c32((1 << RTT_BITS) - 1),
            c_acked_max: c32((1 << ACKED_BITS) - 1),
            c_entropy_max: c32(0xFFFF),
            c_accepted: Constant::new(bits::<2>(crate::sack_sender::SACK_ACCEPTED)),
            c_kind_probe: Constant::new(bits::<2>(crate::sack_sender::TX_PROBE)),
            c_cw_stage: Constant::new(bits::<16>(1 << crate::cwnd_unit::LATENCY)),
            c_one16: Constant::new(bits::<16>(1)),
            q_hold_reg: InitDff::new(q0),
            bdp_hold_reg: Default::default(),
            view_q_reg: InitDff::new(q0),
            view_bdp_reg: Default::default(),
            q_now: Default::default(),
            bdp_now: Default::default(),
            view_q: Default::default(),
            rtt: Default::default(),
            accepted: Default::default(),
            p1_valid_reg: Default::default(),
            steps_reg: Default::default(),
            p1_now_reg: Default::default(),
            p1_rtt_reg: Default::default(),
            p1_entropy_reg: Default::default(),
            p1_ecn_reg: Default::default(),
            p1_probe_reg: Default::default(),
            p1_cwnd_packets_reg: Default::default(),
            p2_valid_reg: Default::default(),
            p2_now_reg: Default::default(),
            p2_tx_valid_reg: Default::default(),
            p2_tx_psn_reg: Default::default(),
            p2_tx_len_reg: Default::default(),
            p2_tx_kind_reg: Default::default(),
            p2_tx_ack_req_reg: Default::default(),
            p2_new_accepted_reg: Default::default(),
            p2_sack_verdict_reg: Default::default(),
            p2_loss_reg: Default::default(),
            p2_inflight_reg: Default::default(),
            p2_recovery_reg: Default::default(),
            p2_rx_valid_reg: Default::default(),
            p2_rx_verdict_reg: Default::default(),
            p2_sack_valid_reg: Default::default(),
            p2_sack_epsn_reg: Default::default(),
            p2_sack_base_reg: Default::default(),
            p2_sack_bitmap_reg: Default::default(),
            p2_sack_bytes_reg: Default::default(),
            p2_sack_ooo_reg: Default::default(),
            p2_sack_entropy_reg: Default::default(),
            p2_sack_ecn_reg: Default::default(),
            p2_sack_ts_reg: Default::default(),
            p2_sack_probe_reg: Default::default(),
        }
    }
}

impl<const SB: usize> Logic for StrackNicGlue<SB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            q_hold_reg,
            bdp_hold_reg,
            view_q_reg,
            view_bdp_reg,
            p1_valid_reg,
            steps_reg,
            p1_now_reg,
            p1_rtt_reg,
            p1_entropy_reg,
            p1_ecn_reg,
            p1_probe_reg,
            p1_cwnd_packets_reg,
            p2_valid_reg,
            p2_now_reg,
            p2_tx_valid_reg,
            p2_tx_psn_reg,
            p2_tx_len_reg,
            p2_tx_kind_reg,
            p2_tx_ack_req_reg,
            p2_new_accepted_reg,
            p2_sack_verdict_reg,
            p2_loss_reg,
            p2_inflight_reg,
            p2_recovery_reg,
            p2_rx_valid_reg,
            p2_rx_verdict_reg,
            p2_sack_valid_reg,
            p2_sack_epsn_reg,
            p2_sack_base_reg,
            p2_sack_bitmap_reg,
            p2_sack_bytes_reg,
            p2_sack_ooo_reg,
            p2_sack_entropy_reg,
            p2_sack_ecn_reg,
            p2_sack_ts_reg,
            p2_sack_probe_reg
        );

        // The cwnd unit's state as of this cycle (its output stage shows a result for one
        // cycle after it ran; the hold registers keep it).
        self.q_now.next = self.q_hold_reg.q.val();
        self.bdp_now.next = self.bdp_hold_reg.q.val();
        if self.cw_valid.val() {
            self.q_now.next = self.cw_cwnd_q.val();
            self.bdp_now.next = self.cw_achieved_bdp.val();
        }
        self.q_hold_reg.d.next = self.q_now.val();
        self.bdp_hold_reg.d.next = self.bdp_now.val();

        // ---- Stage 0: the window view. During the previous step's stage 1 the cwnd unit
        // shows its state after the SACKs of steps <= t-2; otherwise the view register holds
        // what it showed then.
        self.view_q.next = self.view_q_reg.q.val();
        self.snd_achieved_bdp.next = self.view_bdp_reg.q.val();
        if self.p1_valid_reg.q.val() {
            self.view_q.next = self.q_now.val();
            self.snd_achieved_bdp.next = self.bdp_now.val();
            self.view_q_reg.d.next = self.q_now.val();
            self.view_bdp_reg.d.next = self.bdp_now.val();
        }
        self.snd_cwnd.next = self.view_q.val() >> self.c_frac.val();
        self.rcv_s_valid.next = self.s_valid.val() & self.s_rx_valid.val();
        self.rtt.next = self.s_now.val() - self.s_sack_ts.val();
        if self.rtt.val() > self.c_rtt_max.val() {
            self.rtt.next = self.c_rtt_max.val();
        }
        self.p1_valid_reg.d.next = self.s_valid.val();
        self.steps_reg.d.next = self.steps_reg.q.val() << 1;
        if self.s_valid.val() {
            self.steps_reg.d.next = (self.steps_reg.q.val() << 1) | self.c_one16.val();
        }
        self.p1_now_reg.d.next = self.s_now.val();
        self.p1_rtt_reg.d.next = self.rtt.val();
        self.p1_entropy_reg.d.next = self.s_sack_entropy.val();
        self.p1_ecn_reg.d.next = self.s_sack_ecn.val();
        self.p1_probe_reg.d.next = self.s_sack_probe.val();
        self.p1_cwnd_packets_reg.d.next = self.view_q.val() >> self.c_pkt_shift.val();

        // ---- Stage 1: an accepted SACK goes to the cwnd unit and the bitmap; the bitmap also
        // chooses the entropy of the packet the sender sent.
        self.accepted.next =
            self.snd_valid.val() & (self.snd_sack_verdict.val() == self.c_accepted.val());
        self.cw_s_valid.next = self.accepted.val();
        self.cw_s_now.next = self.p1_now_reg.q.val();
        self.cw_s_rtt.next = self.p1_rtt_reg.q.val();
        self.cw_s_ecn.next = self.p1_ecn_reg.q.val();
        self.cw_s_acked_bytes.next = self.snd_acked_bytes.val();
        if self.snd_acked_bytes.val() > self.c_acked_max.val() {
            self.cw_s_acked_bytes.next = self.c_acked_max.val();
        }
        self.cw_s_is_probe_ack.next = self.p1_probe_reg.q.val();
        self.eb_s_valid.next = self.p1_valid_reg.q.val();
        self.eb_s_now.next = self.p1_now_reg.q.val();
        self.eb_s_ack_valid.next = self.accepted.val();
        // An echoed entropy beyond 16 bits is out of range for every max_paths: keep it so.
        self.eb_s_ack_entropy.next = bit_cast::<16, 32>(self.p1_entropy_reg.q.val());
        if self.p1_entropy_reg.q.val() > self.c_entropy_max.val() {
            self.eb_s_ack_entropy.next = bit_cast::<16, 32>(self.c_entropy_max.val());
        }
        self.eb_s_ack_ecn.next = self.p1_ecn_reg.q.val();
        self.eb_s_choose_valid.next = self.snd_valid.val() & self.snd_tx_valid.val();
        self.eb_s_cwnd_packets.next = self.p1_cwnd_packets_reg.q.val();

        self.p2_valid_reg.d.next = self.p1_valid_reg.q.val();
        self.p2_now_reg.d.next = self.p1_now_reg.q.val();
        self.p2_tx_valid_reg.d.next = self.snd_tx_valid.val();
        self.p2_tx_psn_reg.d.next = self.snd_tx_psn.val();
        self.p2_tx_len_reg.d.next = self.snd_tx_len.val();
        self.p2_tx_kind_reg.d.next = self.snd_tx_kind.val();
        self.p2_tx_ack_req_reg.d.next = self.snd_tx_ack_req.val();
        self.p2_new_accepted_reg.d.next = self.snd_new_accepted.val();
        self.p2_sack_verdict_reg.d.next = self.snd_sack_verdict.val();
        self.p2_loss_reg.d.next = self.snd_loss.val();
        self.p2_inflight_reg.d.next = self.snd_inflight.val();
        self.p2_recovery_reg.d.next = self.snd_recovery.val();
        self.p2_rx_valid_reg.d.next = self.rcv_valid.val();
        self.p2_rx_verdict_reg.d.next = self.rcv_verdict.val();
        self.p2_sack_valid_reg.d.next = self.rcv_sack_valid.val();
        self.p2_sack_epsn_reg.d.next = self.rcv_sack_epsn.val();
        self.p2_sack_base_reg.d.next = self.rcv_sack_base.val();
        self.p2_sack_bitmap_reg.d.next = self.rcv_sack_bitmap.val();
        self.p2_sack_bytes_reg.d.next = self.rcv_sack_bytes_recvd.val();
        self.p2_sack_ooo_reg.d.next = self.rcv_sack_ooo_count.val();
        self.p2_sack_entropy_reg.d.next = self.rcv_sack_entropy.val();
        self.p2_sack_ecn_reg.d.next = self.rcv_sack_ecn.val();
        self.p2_sack_ts_reg.d.next = self.rcv_sack_ts.val();
        self.p2_sack_probe_reg.d.next = self.rcv_sack_probe.val();

        // ---- Stage 2: the step's result.
        self.m_valid.next = self.p2_valid_reg.q.val();
        self.m_tx_valid.next = self.p2_tx_valid_reg.q.val();
        self.m_tx_psn.next = self.p2_tx_psn_reg.q.val();
        self.m_tx_len.next = self.p2_tx_len_reg.q.val();
        self.m_tx_ts.next = 0.into();
        self.m_tx_probe.next = false;
        if self.p2_tx_valid_reg.q.val() {
            self.m_tx_ts.next = self.p2_now_reg.q.val();
            self.m_tx_probe.next = self.p2_tx_kind_reg.q.val() == self.c_kind_probe.val();
        }
        self.m_tx_ack_req.next = self.p2_tx_ack_req_reg.q.val();
        self.m_tx_kind.next = self.p2_tx_kind_reg.q.val();
        self.m_new_accepted.next = self.p2_new_accepted_reg.q.val();
        self.m_sack_verdict.next = self.p2_sack_verdict_reg.q.val();
        self.m_cwnd_branch_valid.next = self.cw_valid.val();
        self.m_cwnd_branch.next = 0.into();
        if self.cw_valid.val() {
            self.m_cwnd_branch.next = self.cw_branch.val();
        }
        self.m_loss.next = self.p2_loss_reg.q.val();
        // The cwnd unit's results are those of the step at its result stage.
        self.m_cwnd_q.next = 0.into();
        if (self.steps_reg.q.val() & self.c_cw_stage.val()).any() {
            self.m_cwnd_q.next = self.q_now.val();
        }
        self.m_inflight.next = self.p2_inflight_reg.q.val();
        self.m_recovery.next = self.p2_recovery_reg.q.val();
        self.m_rx_valid.next = self.p2_rx_valid_reg.q.val();
        self.m_rx_verdict.next = self.p2_rx_verdict_reg.q.val();
        self.m_tx_sack_valid.next = self.p2_sack_valid_reg.q.val();
        self.m_tx_sack_epsn.next = self.p2_sack_epsn_reg.q.val();
        self.m_tx_sack_base.next = self.p2_sack_base_reg.q.val();
        self.m_tx_sack_bitmap.next = self.p2_sack_bitmap_reg.q.val();
        self.m_tx_sack_bytes_recvd.next = self.p2_sack_bytes_reg.q.val();
        self.m_tx_sack_ooo_count.next = self.p2_sack_ooo_reg.q.val();
        self.m_tx_sack_entropy.next = self.p2_sack_entropy_reg.q.val();
        self.m_tx_sack_ecn.next = self.p2_sack_ecn_reg.q.val();
        self.m_tx_sack_ts.next = self.p2_sack_ts_reg.q.val();
        self.m_tx_sack_probe.next = self.p2_sack_probe_reg.q.val();
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    /// The snapshot pins the top and the glue; the four blocks inside are their own generated
    /// modules, renamed (their snapshots pin them).
    #[test]
    fn default_config_verilog_snapshot() {
        let cfg = Config::default();
        let b = generate("strack_nic", &cfg, &Options::default()).unwrap();
        let cut = b
            .verilog
            .find("\nmodule strack_nic__sack_sender(")
            .expect("the sender follows the glue");
        insta::assert_snapshot!("strack_nic_default", &b.verilog[..cut]);
        for name in [
            "sack_sender",
            "sack_receiver",
            "cwnd_unit",
            "entropy_bitmap",
        ] {
            let alone = generate(name, &cfg, &Options::default()).unwrap();
            assert!(
                b.verilog.contains(&crate::prefixed(&alone, "strack_nic")),
                "{name} inside strack_nic differs from {name} alone"
            );
        }
    }

    #[test]
    fn illegal_config_is_refused_naming_the_nic() {
        let mut cfg = Config::default();
        cfg.sack.sack_bits = 512;
        let msg = generate("strack_nic", &cfg, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("strack_nic: "), "{msg}");
        assert!(msg.contains("sack.sack_bits"), "{msg}");
    }

    /// Gate: the default design lints, compiles in Icarus and passes the Yosys structural
    /// check.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("strack_nic", &Config::default(), &Options::default()).unwrap();
        // The cwnd unit's result is the last to come out: stage 1 + its latency.
        assert_eq!(b.latency, 1 + crate::cwnd_unit::LATENCY);
        assert_eq!(b.latency, crate::nic_latency());
        crate::gate::check(&b, "strack_nic_default", false);
    }
}
