//! One connection's NIC: the send side (entropy bitmap + cwnd unit + SACK sender) and the
//! receive side (SACK receiver), composed as Algorithm 1 reads.
//!
//! ```text
//!  rx_sack ──┬─► sack_sender ──acked_bytes──► cwnd_unit ──cwnd──┐
//!            │      │  ▲                                          │ (next step)
//!            │      │  └──────────── cwnd, achievedBDP ◄──────────┘
//!            └─► entropy_bitmap (ECN feedback)
//!  new_pkt ─────► sack_sender ──tx──► entropy_bitmap.choose ──► tx_data
//!  rx_data ─────► sack_receiver ──────────────────────────────► tx_sack
//! ```
//!
//! DECISION (the window view, as a one-step-per-clock pipeline has it): a SACK reaches the
//! sender at step `t` (cycle `C_t`) and the cwnd unit one cycle later, whose result comes
//! [`CWND_LATENCY`] cycles after that. The window the sender gates on, the achievedBDP its
//! probe test reads, and the `cwnd_packets` the entropy scan uses at step `t` are the cwnd
//! unit's state as it showed one cycle after the previous step: after the SACKs of the steps at
//! cycles up to `C_(t-1) - CWND_LATENCY` ([`StrackNic::view`]). With back-to-back steps that is
//! the steps up to `t - 16`; idle cycles between steps let more results through, so the model
//! counts cycles: [`StrackNic::idle`] is a cycle without a step. Each SACK the cwnd unit takes
//! is computed from the window with the SACKs of the `CWND_MAX_AHEAD` (13) cycles before it still in flight
//! ([`cwnd_unit::CwndUnit::step_pipelined`]). The RTT fed to the cwnd unit is
//! `now - echoed ts`, saturated at `RTT_MAX`. A SACK the sender finds malformed reaches neither
//! the cwnd unit nor the bitmap.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use strack_config::{Config, CWND_LATENCY};

use crate::cwnd_unit::{self, Branch, CwndUnit, InFlight, RTT_MAX};
use crate::entropy_bitmap::{self, ChooseRequest, EcnFeedback, EntropyBitmap};
use crate::sack_receiver::{DataPkt, Sack, SackReceiver, Verdict};
use crate::sack_sender::{self, LossKind, NewPkt, SackSender, SackVerdict, TxKind};
use crate::seq::elapsed;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct In {
    pub now: u32,
    /// A SACK arriving for our send side.
    #[serde(default)]
    pub rx_sack: Option<Sack>,
    /// A data packet (or probe) arriving for our receive side.
    #[serde(default)]
    pub rx_data: Option<DataPkt>,
    /// The host offers a packet to send.
    #[serde(default)]
    pub new_pkt: Option<NewPkt>,
    /// The link can take a data packet this step.
    #[serde(default)]
    pub tx_ready: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Out {
    /// The data packet (new, retransmitted or probe) sent this step.
    pub tx_data: Option<DataPkt>,
    pub tx_kind: Option<TxKind>,
    pub new_accepted: bool,
    /// The SACK sent this step by the receive side.
    pub tx_sack: Option<Sack>,
    pub rx_verdict: Option<Verdict>,
    pub sack_verdict: Option<SackVerdict>,
    pub cwnd_branch: Option<Branch>,
    pub loss: Option<LossKind>,
    pub cwnd_q: u32,
    pub inflight: u32,
    pub recovery: bool,
}

/// What the send side reads of the cwnd unit in one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowView {
    pub cwnd_bytes: u32,
    pub cwnd_packets: u32,
    pub achieved_bdp: u32,
}

impl WindowView {
    /// What the cwnd unit `c` shows the send side.
    pub fn of(c: &CwndUnit) -> Self {
        WindowView {
            cwnd_bytes: c.cwnd_bytes(),
            cwnd_packets: c.cwnd_packets(),
            achieved_bdp: c.achieved_bdp,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrackNic {
    pub entropy: EntropyBitmap,
    pub cwnd: CwndUnit,
    pub sender: SackSender,
    pub receiver: SackReceiver,
    /// What the next step reads of the cwnd unit (once the steps in `pending` old enough to
    /// show are folded in).
    pub view: WindowView,
    /// Cycles so far: one per step and per idle cycle.
    pub cycle: u64,
    /// The cycle of the previous step.
    last_step: Option<u64>,
    /// (cycle, the cwnd unit's state after that step) of the steps whose results may not have
    /// reached the view yet, oldest first.
    pending: VecDeque<(u64, WindowView)>,
    /// The SACKs still in the cwnd unit's pipeline when the next one reads the window.
    cw_in_flight: InFlight,
}

impl StrackNic {
    pub fn from_config(cfg: &Config) -> Self {
        let cwnd = CwndUnit::from_config(cfg);
        StrackNic {
            entropy: EntropyBitmap::from_config(cfg),
            view: WindowView::of(&cwnd),
            cycle: 0,
            last_step: None,
            pending: VecDeque::new(),
            cw_in_flight: InFlight::default(),
            cwnd,
            sender: SackSender::from_config(cfg),
            receiver: SackReceiver::from_config(cfg),
        }
    }

    /// A NIC whose sender and receiver start at PSN `psn` (connections start anywhere).
    pub fn with_initial_psn(cfg: &Config, psn: u32) -> Self {
        let mut n = Self::from_config(cfg);
        n.sender.snd_una = psn;
        n.sender.snd_nxt = psn;
        n.receiver.epsn = psn;
        n
    }

    /// A cycle without a step (the RTL's `s_valid` low): lets results through to the view.
    pub fn idle(&mut self) {
        self.tick(false);
    }

    fn tick(&mut self, cw_took: bool) {
        self.cycle += 1;
        self.cw_in_flight.tick(cw_took);
    }

    /// Replace what the cwnd unit shows the next steps with its present state, as if it had
    /// been steady for a while (for tests and scenarios that start mid-connection).
    pub fn settle_view(&mut self) {
        self.pending.clear();
        self.view = WindowView::of(&self.cwnd);
    }

    pub fn step(&mut self, input: &In) -> Out {
        let now = input.now;
        if let Some(prev) = self.last_step {
            while let Some(&(c, v)) = self.pending.front() {
                if c + CWND_LATENCY as u64 > prev {
                    break;
                }
                self.view = v;
                self.pending.pop_front();
            }
        }
        let view = self.view;
        let cwnd_packets = view.cwnd_packets;

        let s = self.sender.step(&sack_sender::In {
            now,
            cwnd: view.cwnd_bytes,
            achieved_bdp: view.achieved_bdp,
            sack: input.rx_sack.clone(),
            new_pkt: input.new_pkt,
            tx_ready: input.tx_ready,
        });

        let mut ecn_feedback = None;
        let mut cwnd_branch = None;
        if let (Some(sack), Some(SackVerdict::Accepted)) = (&input.rx_sack, s.sack) {
            ecn_feedback = Some(EcnFeedback {
                entropy: sack.entropy,
                ecn: sack.ecn,
            });
            let rtt = elapsed(now, sack.ts).min(RTT_MAX);
            let ahead = self.cw_in_flight.ahead();
            let c = self.cwnd.step_pipelined(
                &cwnd_unit::In {
                    now,
                    rtt,
                    ecn: sack.ecn,
                    acked_bytes: s.acked_bytes.min(cwnd_unit::ACKED_MAX),
                    is_probe_ack: sack.probe,
                },
                ahead,
            );
            cwnd_branch = Some(c.branch);
        }

        let e = self.entropy.step(&entropy_bitmap::In {
            now,
            ack: ecn_feedback,
            choose: s.tx.map(|_| ChooseRequest { cwnd_packets }),
        });
        let tx_data = s.tx.map(|t| DataPkt {
            psn: t.psn,
            len: t.len,
            entropy: e.choice.map_or(0, |c| c.entropy),
            ecn: false,
            ts: now,
            probe: t.kind == TxKind::Probe,
            ack_req: t.ack_req,
        });

        let r = input.rx_data.as_ref().map(|p| self.receiver.step(p));

        self.pending
            .push_back((self.cycle, WindowView::of(&self.cwnd)));
        self.last_step = Some(self.cycle);
        self.tick(cwnd_branch.is_some());

        Out {
            tx_data,
            tx_kind: s.tx.map(|t| t.kind),
            new_accepted: s.new_accepted,
            tx_sack: r.as_ref().and_then(|r| r.sack.clone()),
            rx_verdict: r.map(|r| r.verdict),
            sack_verdict: s.sack,
            cwnd_branch,
            loss: s.loss,
            cwnd_q: self.cwnd.cwnd_q,
            inflight: s.inflight,
            recovery: s.recovery,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nic() -> StrackNic {
        StrackNic::from_config(&Config::default())
    }
    fn offer(now: u32) -> In {
        In {
            now,
            new_pkt: Some(NewPkt {
                len: 4096,
                ack_req: false,
            }),
            tx_ready: true,
            ..In::default()
        }
    }
    fn sack_for(nic: &StrackNic, epsn: u32, bytes: u32, ts: u32, ecn: bool, entropy: u32) -> Sack {
        let words = nic.sender.params().sack_bits.div_ceil(64) as usize;
        Sack {
            epsn,
            sack_base: 0,
            bitmap: vec![0; words],
            bytes_recvd: bytes,
            ooo_count: 0,
            entropy,
            ecn,
            ts,
            probe: false,
        }
    }

    #[test]
    fn sent_packet_carries_chosen_entropy_and_timestamp() {
        let mut n = nic();
        let o = n.step(&offer(123));
        let p = o.tx_data.unwrap();
        assert_eq!(
            (p.psn, p.len, p.ts, p.entropy, p.probe),
            (0, 4096, 123, 1, false)
        );
        assert_eq!(o.tx_kind, Some(TxKind::New));
        assert_eq!(n.entropy.rr, 1);
    }

    #[test]
    fn accepted_sack_updates_bitmap_and_window() {
        let mut n = nic();
        n.step(&offer(0));
        let s = sack_for(&n, 1, 4096, 0, true, 5);
        let o = n.step(&In {
            now: 9_000,
            rx_sack: Some(s),
            ..In::default()
        });
        assert_eq!(o.sack_verdict, Some(SackVerdict::Accepted));
        assert!(n.entropy.bitmap[5], "ECN echo marks the entropy");
        assert_eq!(o.cwnd_branch, Some(Branch::Hold)); // ECN, delay 0: hold
        assert_eq!(n.cwnd.base_rtt, 9_000, "rtt = now - echoed ts");
    }

    #[test]
    fn malformed_sack_reaches_neither_bitmap_nor_window() {
        let mut n = nic();
        n.step(&offer(0));
        let before = (n.entropy.clone(), n.cwnd.clone());
        let s = sack_for(&n, 7, 4096, 0, true, 5); // EPSN beyond snd_nxt
        let o = n.step(&In {
            now: 9_000,
            rx_sack: Some(s),
            ..In::default()
        });
        assert_eq!(o.sack_verdict, Some(SackVerdict::Malformed));
        assert_eq!(o.cwnd_branch, None);
        assert_eq!((n.entropy.clone(), n.cwnd.clone()), before);
    }

    #[test]
    fn rtt_from_an_old_timestamp_saturates() {
        let mut n = nic();
        n.step(&offer(0));
        let s = sack_for(&n, 1, 4096, 0, false, 2);
        n.step(&In {
            now: 1 << 30,
            rx_sack: Some(s),
            ..In::default()
        });
        assert_eq!(n.cwnd.base_rtt, RTT_MAX);
    }

    #[test]
    fn probe_goes_out_with_an_entropy_and_the_probe_flag() {
        let mut n = nic();
        n.step(&offer(0));
        let o = n.step(&In {
            now: 24_000,
            tx_ready: true,
            ..In::default()
        });
        let p = o.tx_data.unwrap();
        assert!(p.probe && p.len == 0);
        assert_eq!(o.tx_kind, Some(TxKind::Probe));
    }

    #[test]
    fn received_data_is_acknowledged_by_the_receive_side() {
        let mut n = nic();
        let p = DataPkt {
            psn: 0,
            len: 100,
            entropy: 9,
            ecn: false,
            ts: 5,
            probe: false,
            ack_req: true,
        };
        let o = n.step(&In {
            now: 10,
            rx_data: Some(p),
            ..In::default()
        });
        assert_eq!(o.rx_verdict, Some(Verdict::InOrder));
        let s = o.tx_sack.unwrap();
        assert_eq!((s.epsn, s.bytes_recvd, s.entropy, s.ts), (1, 100, 9, 5));
    }

    #[test]
    fn window_gate_uses_the_window_before_this_steps_ack() {
        let mut n = nic();
        n.cwnd.set_cwnd_q(n.cwnd.constants().mtu_q); // one packet
        n.settle_view();
        n.step(&offer(0));
        // The SACK acknowledges the packet; the gate already sees inflight 0 after the SACK.
        let s = sack_for(&n, 1, 4096, 0, false, 2);
        let o = n.step(&In {
            rx_sack: Some(s),
            ..offer(100)
        });
        assert!(o.new_accepted);
    }

    #[test]
    fn a_sacks_window_change_reaches_the_view_after_the_cwnd_units_latency() {
        for idle in [0u64, 5] {
            let mut n = nic();
            n.step(&offer(0));
            // Step 1: an ECN-free SACK with a large delay: the additive increase changes cwnd.
            n.cwnd.set_cwnd_q(n.cwnd.constants().mtu_q * 4);
            n.settle_view();
            let before = WindowView::of(&n.cwnd);
            let s = sack_for(&n, 1, 4096, 0, false, 2);
            let c1 = n.cycle;
            n.step(&In {
                now: 90_000,
                rx_sack: Some(s),
                ..In::default()
            });
            let after = WindowView::of(&n.cwnd);
            assert_ne!(after, before, "the SACK moved the window");
            for _ in 0..idle {
                n.idle();
            }
            // A step reads the state one cycle after the previous step: the SACK's result
            // shows once that cycle is CWND_LATENCY past the cycle after step 1.
            let mut seen = None;
            for k in 0..20u32 {
                let prev = n.cycle - 1 - idle * (k == 0) as u64;
                n.step(&In {
                    now: 90_001 + k,
                    ..In::default()
                });
                if n.view == after && seen.is_none() {
                    seen = Some(prev);
                }
                assert!(n.view == before || n.view == after);
            }
            assert_eq!(seen, Some(c1 + CWND_LATENCY as u64), "idle {idle}");
        }
    }
}
