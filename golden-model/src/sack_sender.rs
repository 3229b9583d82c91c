//! SACK sender (docs/spec/strack.md, sections 3.2 and 3.3; paper Section 3.3.2).
//!
//! Tracks the PSNs in `[snd_una, snd_nxt)` (at most `rx_window` of them) with an acknowledged
//! bit, a lost bit and the packet's length, in circular arrays indexed by `psn mod rx_window`.
//!
//! `inflight = bytes_sent - bytes_recvd - bytes_claimed_retransmit` (paper eq. 1-2), all wrapping
//! 32-bit. `bytes_claimed_retransmit` grows by a packet's length when it is declared lost, and
//! shrinks by it when a packet still marked lost is acknowledged (it was not lost after all).
//! DECISION: the receiver's byte count can run ahead of the sender's view of acknowledged PSNs
//! (a SACK whose segment the sender never saw), so the difference can dip below zero for a
//! while; `inflight` then reads 0 (`inflight_raw` keeps the signed value).
//!
//! One step, in this order:
//! 1. a SACK, if any: validated (malformed ones are counted and change nothing); an EPSN ahead
//!    of `snd_una` advances it (and re-arms the timeout), one below it (the PSN order of
//!    [`crate::seq`]: `2^23` below included) is stale and moves nothing; the segment's bits mark PSNs acknowledged;
//!    `bytes_recvd` moves forward only; a probe's SACK may enter recovery (Algorithm 1 line 10:
//!    `rtt < 2*net_base_rtt`, no other SACK since the probe, achievedBDP == 0); recovery ends when
//!    `snd_una` passes its highest PSN; the OOO detector enters recovery when
//!    `ooo_count > max(cwnd_packets, ooo_min_threshold)`.
//! 2. the timeout: `now - rto_ts > rto` with data outstanding declares every unacknowledged
//!    packet lost.
//! 3. at most one packet out, when `tx_ready`: a due probe first, then the lowest lost PSN, then
//!    a new packet; data (not probes) only while `inflight < cwnd`, new data only while fewer than
//!    `rx_window` PSNs are outstanding (DECISION: the receiver tracks `rx_window` PSNs and drops
//!    any beyond, and SACK holes can stretch the PSN span past the byte window, so the byte
//!    test alone does not keep the sender inside it).
//!
//! Entering recovery records the highest PSN known received; every unacknowledged PSN from
//! `snd_una` up to it is declared lost.

use bitvec::prelude::*;
use serde::{Deserialize, Serialize};
use strack_config::Config;

use crate::sack_receiver::Sack;
use crate::seq::{elapsed, psn_add, psn_ahead, psn_in, psn_lt, psn_sub, u32_gt, PSN_MASK};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    pub rx_window: u32,
    pub sack_bits: u32,
    pub mtu: u32,
    pub mtu_log2: u32,
    pub net_base_rtt_ns: u32,
    pub probe_interval_ns: u32,
    pub rto_ns: u32,
    pub ooo_min_threshold: u32,
}

impl Params {
    pub fn from_config(cfg: &Config) -> Self {
        Params {
            rx_window: cfg.sack.rx_window,
            sack_bits: cfg.sack.sack_bits,
            mtu: cfg.network.mtu_bytes,
            mtu_log2: cfg.mtu_log2(),
            net_base_rtt_ns: cfg.network.net_base_rtt_ns,
            probe_interval_ns: cfg.probe_interval_ns(),
            rto_ns: cfg.sack.rto_ns,
            ooo_min_threshold: cfg.sack.ooo_min_threshold,
        }
    }
}

/// A packet the host offers for sending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPkt {
    /// Payload bytes, `1..=MTU`.
    pub len: u32,
    /// Ask the receiver to acknowledge this packet at once (e.g. a message's last packet).
    #[serde(default)]
    pub ack_req: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct In {
    pub now: u32,
    /// The window, bytes (from the cwnd unit, as it stands before this step's ACK).
    pub cwnd: u32,
    /// The cwnd unit's achievedBDP before this step's ACK (Algorithm 1 line 10 reads it before
    /// line 13 updates it).
    #[serde(default)]
    pub achieved_bdp: u32,
    #[serde(default)]
    pub sack: Option<Sack>,
    #[serde(default)]
    pub new_pkt: Option<NewPkt>,
    /// The link can take a packet this step.
    #[serde(default)]
    pub tx_ready: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxKind {
    New,
    Retransmit,
    Probe,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TxPkt {
    pub psn: u32,
    pub len: u32,
    pub kind: TxKind,
    pub ack_req: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossKind {
    Ooo,
    Probe,
    Timeout,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SackVerdict {
    Accepted,
    Malformed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Out {
    pub tx: Option<TxPkt>,
    /// The offered `new_pkt` was taken (sent as `tx`).
    pub new_accepted: bool,
    /// The offered `new_pkt` had an illegal length and was refused.
    pub new_rejected: bool,
    pub sack: Option<SackVerdict>,
    /// Bytes the SACK newly acknowledged (`bytes_recvd` advance).
    pub acked_bytes: u32,
    /// A loss detector fired this step.
    pub loss: Option<LossKind>,
    /// Recovery ended this step.
    pub recovery_exit: bool,
    pub recovery: bool,
    pub inflight: u32,
    pub snd_una: u32,
    pub snd_nxt: u32,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub new_sent: u64,
    pub retransmits: u64,
    pub probes: u64,
    pub sacks: u64,
    pub malformed_sacks: u64,
    pub rejected_new: u64,
    pub loss_ooo: u64,
    pub loss_probe: u64,
    pub loss_timeout: u64,
    pub declared_lost: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SackSender {
    params: Params,
    pub snd_una: u32,
    pub snd_nxt: u32,
    pub acked: BitVec<u64, Lsb0>,
    pub lost: BitVec<u64, Lsb0>,
    pub len: Vec<u32>,
    pub bytes_sent: u32,
    pub bytes_recvd: u32,
    pub bytes_claimed: u32,
    /// Highest PSN known received (from EPSN or a segment), if any beyond `snd_una`.
    pub highest_acked: Option<u32>,
    /// In recovery until `snd_una` passes this PSN.
    pub recovery_hi: Option<u32>,
    /// Time of the last SACK or probe: a probe is due `probe_interval` after it.
    pub probe_ts: u32,
    /// Set when EPSN advances (and when data starts flowing); the timeout runs from it.
    pub rto_ts: u32,
    /// A SACK other than a probe's arrived since the last probe was sent.
    pub ack_since_probe: bool,
    pub counters: Counters,
}

impl SackSender {
    pub fn new(params: Params) -> Self {
        let w = params.rx_window as usize;
        SackSender {
            acked: bitvec![u64, Lsb0; 0; w],
            lost: bitvec![u64, Lsb0; 0; w],
            len: vec![0; w],
            params,
            snd_una: 0,
            snd_nxt: 0,
            bytes_sent: 0,
            bytes_recvd: 0,
            bytes_claimed: 0,
            highest_acked: None,
            recovery_hi: None,
            probe_ts: 0,
            rto_ts: 0,
            ack_since_probe: false,
            counters: Counters::default(),
        }
    }

    pub fn from_config(cfg: &Config) -> Self {
        Self::new(Params::from_config(cfg))
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    fn slot(&self, psn: u32) -> usize {
        (psn & (self.params.rx_window - 1)) as usize
    }

    /// PSNs outstanding (`snd_nxt - snd_una`).
    pub fn outstanding(&self) -> u32 {
        psn_sub(self.snd_nxt, self.snd_una)
    }

    /// `bytes_sent - bytes_recvd - bytes_claimed`, signed.
    pub fn inflight_raw(&self) -> i32 {
        self.raw_with(self.bytes_claimed)
    }

    /// `bytes_sent - bytes_recvd - claimed`, signed.
    fn raw_with(&self, claimed: u32) -> i32 {
        self.bytes_sent
            .wrapping_sub(self.bytes_recvd)
            .wrapping_sub(claimed) as i32
    }

    /// `inflight_raw`, reading 0 while it is negative.
    pub fn inflight(&self) -> u32 {
        self.inflight_raw().max(0) as u32
    }

    /// `psn` lies in `[snd_una, snd_nxt)`.
    fn in_flight_range(&self, psn: u32) -> bool {
        psn_in(psn, self.snd_una, self.outstanding())
    }

    fn mark_acked(&mut self, psn: u32) {
        let s = self.slot(psn);
        if self.lost[s] {
            self.lost.set(s, false);
            self.bytes_claimed = self.bytes_claimed.wrapping_sub(self.len[s]);
        }
        self.acked.set(s, true);
        if self.highest_acked.is_none_or(|h| psn_lt(h, psn)) {
            self.highest_acked = Some(psn);
        }
    }

    /// Move `snd_una` to `to`, forgetting the slots it passes.
    fn advance_una(&mut self, to: u32, now: u32) {
        while self.snd_una != to {
            let s = self.slot(self.snd_una);
            if self.lost[s] {
                self.lost.set(s, false);
                self.bytes_claimed = self.bytes_claimed.wrapping_sub(self.len[s]);
            }
            self.acked.set(s, false);
            self.snd_una = psn_add(self.snd_una, 1);
        }
        self.rto_ts = now;
    }

    fn sack_is_malformed(&self, s: &Sack) -> bool {
        let bits = self.params.sack_bits;
        let words = bits.div_ceil(64) as usize;
        let tail_ok =
            bits.is_multiple_of(64) || s.bitmap.last().is_none_or(|w| w >> (bits % 64) == 0);
        s.epsn > PSN_MASK
            || s.sack_base > PSN_MASK
            || s.sack_base & (bits - 1) != 0
            || s.bitmap.len() != words
            || !tail_ok
            || !psn_lt(s.epsn, self.snd_una)
                && !psn_in(s.epsn, self.snd_una, self.outstanding() + 1)
            || u32_gt(s.bytes_recvd, self.bytes_sent)
    }

    /// Declare lost every unacknowledged, not yet lost PSN in `[snd_una, hi]`.
    fn declare_lost_through(&mut self, hi: u32) {
        let n = psn_sub(hi, self.snd_una) + 1;
        for i in 0..n {
            let s = self.slot(psn_add(self.snd_una, i));
            if !self.acked[s] && !self.lost[s] {
                self.lost.set(s, true);
                self.bytes_claimed = self.bytes_claimed.wrapping_add(self.len[s]);
                self.counters.declared_lost += 1;
            }
        }
        self.recovery_hi = Some(hi);
    }

    /// Enter recovery up to the highest PSN known received, if one lies beyond `snd_una`.
    fn enter_recovery(&mut self) -> bool {
        match self.highest_acked {
            Some(h) if self.in_flight_range(h) => {
                self.declare_lost_through(h);
                true
            }
            _ => false,
        }
    }

    pub fn step(&mut self, input: &In) -> Out {
        self.step_viewed(input, None)
    }

    /// Run `snd_una` over the acknowledged PSNs at its head, then drop `highest_acked` if it
    /// left the window and end recovery if `snd_una` passed `recovery_hi` (returns whether it
    /// ended).
    fn run_una(&mut self, now: u32) -> bool {
        let mut una = self.snd_una;
        while una != self.snd_nxt && self.acked[self.slot(una)] {
            una = psn_add(una, 1);
        }
        if una != self.snd_una {
            self.advance_una(una, now);
        }
        self.after_una_moves()
    }

    /// `highest_acked` dropped if it left the window, recovery ended if `snd_una` passed
    /// `recovery_hi` (returns whether it ended).
    fn after_una_moves(&mut self) -> bool {
        if self.highest_acked.is_some_and(|h| !self.in_flight_range(h)) {
            self.highest_acked = None;
        }
        match self.recovery_hi {
            Some(hi) if psn_lt(hi, self.snd_una) => {
                self.recovery_hi = None;
                true
            }
            _ => false,
        }
    }

    /// Catch up on what earlier unsettled steps left undone (`step_viewed`): run `snd_una`
    /// over the acknowledged PSNs at its head (with what follows from it).
    pub fn settle(&mut self, now: u32) {
        self.run_una(now);
    }

    /// The lengths of the PSNs marked lost (the part of `bytes_claimed` not yet
    /// retransmitted).
    pub fn lost_bytes(&self) -> u32 {
        self.lost
            .iter_ones()
            .fold(0u32, |a, s| a.wrapping_add(self.len[s]))
    }

    /// `inflight`, or with `Some(lost)` as the lost bytes (the retransmitted ones as they
    /// are): what an unsettled step reads.
    pub fn inflight_viewed(&self, view: Option<u32>) -> u32 {
        let claimed = view.map_or(self.bytes_claimed, |lost| {
            self.bytes_claimed
                .wrapping_sub(self.lost_bytes())
                .wrapping_add(lost)
        });
        self.raw_with(claimed).max(0) as u32
    }

    /// A step. `view` is `None` for a settled step (every rule above, exactly), or, for an
    /// unsettled one (`golden_model::nic_sender`, DECISION "settled searches"), the lost bytes
    /// as the last settled step left them: such a step does not run `snd_una` past the EPSN
    /// over acknowledged PSNs, reads `inflight` with the lost bytes of the view, and does not
    /// retransmit; while the view has lost bytes it sends no new packet either.
    pub fn step_viewed(&mut self, input: &In, view: Option<u32>) -> Out {
        let now = input.now;
        let mut out = Out {
            tx: None,
            new_accepted: false,
            new_rejected: false,
            sack: None,
            acked_bytes: 0,
            loss: None,
            recovery_exit: false,
            recovery: false,
            inflight: 0,
            snd_una: 0,
            snd_nxt: 0,
        };
        let cwnd_packets = input.cwnd >> self.params.mtu_log2;

        if let Some(s) = &input.sack {
            if self.sack_is_malformed(s) {
                self.counters.malformed_sacks += 1;
                out.sack = Some(SackVerdict::Malformed);
            } else {
                self.counters.sacks += 1;
                out.sack = Some(SackVerdict::Accepted);
                // A stale EPSN (below snd_una, 2^23 away included) moves nothing.
                if psn_ahead(s.epsn, self.snd_una) {
                    self.advance_una(s.epsn, now);
                }
                for i in 0..self.params.sack_bits {
                    if s.bitmap[(i / 64) as usize] >> (i % 64) & 1 == 1 {
                        let psn = psn_add(s.sack_base, i);
                        if self.in_flight_range(psn) {
                            self.mark_acked(psn);
                        }
                    }
                }
                // A forged or reordered segment may acknowledge snd_una itself: run over it
                // (an unsettled step leaves that to the next settled one).
                out.recovery_exit = if view.is_none() {
                    self.run_una(now)
                } else {
                    self.after_una_moves()
                };
                if u32_gt(s.bytes_recvd, self.bytes_recvd) {
                    out.acked_bytes = s.bytes_recvd.wrapping_sub(self.bytes_recvd);
                    self.bytes_recvd = s.bytes_recvd;
                }
                self.probe_ts = now;
                if s.probe {
                    let rtt = elapsed(now, s.ts);
                    if rtt < 2 * self.params.net_base_rtt_ns
                        && !self.ack_since_probe
                        && input.achieved_bdp == 0
                        && self.recovery_hi.is_none()
                        && self.enter_recovery()
                    {
                        self.counters.loss_probe += 1;
                        out.loss = Some(LossKind::Probe);
                    }
                } else {
                    self.ack_since_probe = true;
                }
                if self.recovery_hi.is_none()
                    && s.ooo_count > cwnd_packets.max(self.params.ooo_min_threshold)
                    && self.enter_recovery()
                {
                    self.counters.loss_ooo += 1;
                    out.loss = Some(LossKind::Ooo);
                }
            }
        }

        let outstanding = self.outstanding() != 0;
        if outstanding && elapsed(now, self.rto_ts) > self.params.rto_ns {
            self.declare_lost_through(psn_sub(self.snd_nxt, 1));
            self.rto_ts = now;
            self.counters.loss_timeout += 1;
            out.loss = Some(LossKind::Timeout);
        }

        let window_open = self.inflight_viewed(view) < input.cwnd;
        // The lowest lost PSN, if a retransmission may go; an unsettled step has none to
        // offer, and holds new packets back while its view has lost bytes.
        let (lowest_lost, new_held) = match view {
            None => (self.lowest_lost(), false),
            Some(lost) => (None, lost != 0),
        };
        let new_ok = input
            .new_pkt
            .filter(|n| {
                let ok = n.len >= 1 && n.len <= self.params.mtu;
                if !ok {
                    out.new_rejected = true;
                }
                ok
            })
            .filter(|_| window_open && !new_held && self.outstanding() < self.params.rx_window);
        if out.new_rejected {
            self.counters.rejected_new += 1;
        }
        if input.tx_ready {
            if outstanding && elapsed(now, self.probe_ts) >= self.params.probe_interval_ns {
                self.probe_ts = now;
                self.ack_since_probe = false;
                self.counters.probes += 1;
                out.tx = Some(TxPkt {
                    psn: self.snd_una,
                    len: 0,
                    kind: TxKind::Probe,
                    ack_req: false,
                });
            } else if let Some(psn) = lowest_lost.filter(|_| window_open) {
                let s = self.slot(psn);
                self.lost.set(s, false);
                self.bytes_sent = self.bytes_sent.wrapping_add(self.len[s]);
                self.counters.retransmits += 1;
                out.tx = Some(TxPkt {
                    psn,
                    len: self.len[s],
                    kind: TxKind::Retransmit,
                    ack_req: false,
                });
            } else if let Some(n) = new_ok {
                if !outstanding {
                    self.rto_ts = now;
                    self.probe_ts = now;
                }
                let psn = self.snd_nxt;
                let s = self.slot(psn);
                self.len[s] = n.len;
                self.acked.set(s, false);
                self.lost.set(s, false);
                self.snd_nxt = psn_add(psn, 1);
                self.bytes_sent = self.bytes_sent.wrapping_add(n.len);
                self.counters.new_sent += 1;
                out.new_accepted = true;
                out.tx = Some(TxPkt {
                    psn,
                    len: n.len,
                    kind: TxKind::New,
                    ack_req: n.ack_req,
                });
            }
        }
        out.recovery = self.recovery_hi.is_some();
        out.inflight = self.inflight_viewed(view);
        out.snd_una = self.snd_una;
        out.snd_nxt = self.snd_nxt;
        out
    }

    /// The lowest PSN in `[snd_una, snd_nxt)` marked lost.
    pub fn lowest_lost(&self) -> Option<u32> {
        (0..self.outstanding())
            .map(|i| psn_add(self.snd_una, i))
            .find(|&p| self.lost[self.slot(p)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> Params {
        Params {
            rx_window: 64,
            sack_bits: 16,
            mtu: 1024,
            mtu_log2: 10,
            net_base_rtt_ns: 1000,
            probe_interval_ns: 3000,
            rto_ns: 10_000,
            ooo_min_threshold: 5,
        }
    }
    const CWND: u32 = 1 << 20;
    fn send(s: &mut SackSender, now: u32, n: u32) {
        for _ in 0..n {
            let o = s.step(&In {
                now,
                cwnd: CWND,
                new_pkt: Some(NewPkt {
                    len: 1000,
                    ack_req: false,
                }),
                tx_ready: true,
                ..In::default()
            });
            assert!(o.new_accepted, "{o:?}");
        }
    }
    fn sack(epsn: u32, base: u32, bits: u64, bytes: u32, ooo: u32) -> Sack {
        Sack {
            epsn,
            sack_base: base,
            bitmap: vec![bits],
            bytes_recvd: bytes,
            ooo_count: ooo,
            ts: 0,
            ..Sack::default()
        }
    }
    fn on_sack(s: &mut SackSender, now: u32, k: Sack) -> Out {
        s.step(&In {
            now,
            cwnd: CWND,
            sack: Some(k),
            tx_ready: true,
            ..In::default()
        })
    }

    #[test]
    fn new_packets_get_consecutive_psns_and_count_bytes() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 3);
        assert_eq!(
            (s.snd_una, s.snd_nxt, s.bytes_sent, s.inflight()),
            (0, 3, 3000, 3000)
        );
    }

    #[test]
    fn window_gating_blocks_new_data_at_cwnd() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 2);
        let o = s.step(&In {
            now: 0,
            cwnd: 2000,
            new_pkt: Some(NewPkt {
                len: 10,
                ack_req: false,
            }),
            tx_ready: true,
            ..In::default()
        });
        assert!(!o.new_accepted && o.tx.is_none());
    }

    #[test]
    fn rx_window_limits_outstanding_psns() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 64);
        let o = s.step(&In {
            now: 0,
            cwnd: CWND,
            new_pkt: Some(NewPkt {
                len: 10,
                ack_req: false,
            }),
            tx_ready: true,
            ..In::default()
        });
        assert!(!o.new_accepted);
    }

    #[test]
    fn illegal_length_is_rejected() {
        let mut s = SackSender::new(params());
        for len in [0, 1025] {
            let o = s.step(&In {
                now: 0,
                cwnd: CWND,
                new_pkt: Some(NewPkt {
                    len,
                    ack_req: false,
                }),
                tx_ready: true,
                ..In::default()
            });
            assert!(o.new_rejected && o.tx.is_none());
        }
        assert_eq!(s.snd_nxt, 0);
    }

    #[test]
    fn epsn_advances_una_and_segment_acks_and_inflight_drops() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 6);
        let o = on_sack(&mut s, 100, sack(2, 0, 0b11_0011, 3000, 2));
        assert_eq!(o.acked_bytes, 3000);
        assert_eq!(s.snd_una, 2);
        assert!(s.acked[4] && s.acked[5] && !s.acked[3]);
        assert_eq!(s.inflight(), 3000);
        assert_eq!(s.rto_ts, 100);
    }

    #[test]
    fn ooo_detection_enters_recovery_and_retransmits_lowest_first() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 10);
        // 0..=1 lost, 2..=9 received: ooo 8 > max(1024 packets? no: cwnd 1 MiB/1 KiB = 1024)
        let o = s.step(&In {
            now: 50,
            cwnd: 4096,
            sack: Some(sack(0, 0, 0b11_1111_1100, 8000, 8)),
            tx_ready: true,
            ..In::default()
        });
        assert_eq!(o.loss, Some(LossKind::Ooo));
        assert!(o.recovery);
        assert_eq!(s.recovery_hi, Some(9));
        assert_eq!(
            o.tx.unwrap(),
            TxPkt {
                psn: 0,
                len: 1000,
                kind: TxKind::Retransmit,
                ack_req: false
            }
        );
        let o = s.step(&In {
            now: 51,
            cwnd: 4096,
            tx_ready: true,
            ..In::default()
        });
        assert_eq!(o.tx.unwrap().psn, 1);
        assert_eq!(s.bytes_claimed, 2000);
        let o = on_sack(&mut s, 60, sack(10, 0, 0b11_1111_1111, 10_000, 0));
        assert!(o.recovery_exit && !o.recovery);
        // both copies of 0 and 1 were sent; the claims stay so inflight comes back to zero
        assert_eq!(
            (s.bytes_sent, s.bytes_claimed, s.inflight_raw()),
            (12_000, 2000, 0)
        );
    }

    #[test]
    fn ooo_below_threshold_does_not_enter_recovery() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 10);
        let o = s.step(&In {
            now: 50,
            cwnd: 4096,
            sack: Some(sack(0, 0, 0b11_1110, 5000, 5)),
            tx_ready: true,
            ..In::default()
        });
        assert_eq!(o.loss, None); // 5 > max(4, 5) is false
    }

    #[test]
    fn probe_sent_after_interval_without_sack() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 2);
        let o = s.step(&In {
            now: 2999,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        });
        assert!(o.tx.is_none());
        let o = s.step(&In {
            now: 3000,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        });
        assert_eq!(o.tx.unwrap().kind, TxKind::Probe);
        assert_eq!(o.tx.unwrap().psn, 0);
        let o = s.step(&In {
            now: 5999,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        });
        assert!(o.tx.is_none());
        let o = s.step(&In {
            now: 6000,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        });
        assert_eq!(
            o.tx.unwrap().kind,
            TxKind::Probe,
            "repeats each interval while unanswered"
        );
    }

    #[test]
    fn probe_sack_with_low_rtt_and_no_other_ack_enters_recovery() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 4);
        s.step(&In {
            now: 3000,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        }); // probe
        let mut k = sack(0, 0, 0b1110, 3000, 3);
        k.probe = true;
        k.ts = 3000;
        let o = s.step(&In {
            now: 4000,
            cwnd: CWND,
            achieved_bdp: 0,
            sack: Some(k),
            tx_ready: true,
            ..In::default()
        });
        assert_eq!(o.loss, Some(LossKind::Probe));
        assert_eq!(o.tx.unwrap().kind, TxKind::Retransmit);
    }

    #[test]
    fn probe_sack_does_not_recover_when_achieved_bdp_nonzero() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 4);
        s.step(&In {
            now: 3000,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        });
        let mut k = sack(0, 0, 0b1110, 3000, 3);
        k.probe = true;
        k.ts = 3000;
        let o = s.step(&In {
            now: 4000,
            cwnd: CWND,
            achieved_bdp: 1,
            sack: Some(k),
            ..In::default()
        });
        assert_eq!(o.loss, None);
    }

    #[test]
    fn probe_sack_does_not_recover_after_another_ack() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 4);
        s.step(&In {
            now: 3000,
            cwnd: CWND,
            tx_ready: true,
            ..In::default()
        });
        on_sack(&mut s, 3100, sack(0, 0, 0b10, 1000, 1));
        let mut k = sack(0, 0, 0b1110, 3000, 3);
        k.probe = true;
        k.ts = 3000;
        let o = s.step(&In {
            now: 4000,
            cwnd: CWND,
            sack: Some(k),
            ..In::default()
        });
        assert_eq!(o.loss, None);
    }

    #[test]
    fn timeout_declares_every_unacked_packet_lost() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 5);
        on_sack(&mut s, 100, sack(1, 0, 0b1001, 2000, 1));
        let o = s.step(&In {
            now: 10_101,
            cwnd: CWND,
            ..In::default()
        });
        assert_eq!(o.loss, Some(LossKind::Timeout));
        assert_eq!(s.lost.iter_ones().collect::<Vec<_>>(), vec![1, 2, 4]);
        assert_eq!(s.bytes_claimed, 3000);
        assert_eq!(s.inflight(), 0);
    }

    #[test]
    fn lost_then_acked_before_retransmit_is_unclaimed() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 3);
        s.step(&In {
            now: 10_001,
            cwnd: CWND,
            ..In::default()
        }); // timeout, tx not ready
        assert_eq!(s.bytes_claimed, 3000);
        on_sack(&mut s, 10_002, sack(3, 0, 0b111, 3000, 0));
        assert_eq!((s.bytes_claimed, s.inflight_raw()), (0, 0));
    }

    #[test]
    fn malformed_sack_changes_nothing() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 3);
        let before = s.clone();
        for k in [
            sack(5, 0, 0, 0, 0),       // EPSN beyond snd_nxt
            sack(1, 3, 0, 0, 0),       // unaligned base
            sack(1, 0, 1 << 16, 0, 0), // bit beyond sack_bits
            sack(1, 0, 0, 5000, 0),    // more bytes than ever sent
            Sack {
                bitmap: vec![],
                ..sack(1, 0, 0, 0, 0)
            },
        ] {
            let o = s.step(&In {
                now: 1,
                cwnd: CWND,
                sack: Some(k),
                ..In::default()
            });
            assert_eq!(o.sack, Some(SackVerdict::Malformed));
        }
        s.counters.malformed_sacks = 0;
        assert_eq!(s, before);
    }

    #[test]
    fn stale_sack_does_not_move_state_backwards() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 4);
        on_sack(&mut s, 10, sack(3, 0, 0b111, 3000, 0));
        let o = on_sack(&mut s, 11, sack(1, 0, 0b1, 1000, 0));
        assert_eq!(o.sack, Some(SackVerdict::Accepted));
        assert_eq!((s.snd_una, s.bytes_recvd, o.acked_bytes), (3, 3000, 0));
    }

    /// snd_una 100, 3 PSNs out. A SACK's EPSN at 100 + 2^23 (= 8_388_708) is below snd_una
    /// (100 - 8_388_708 = 2^23 mod 2^24): a stale SACK, accepted, moving nothing. At 2^23 + 1 it
    /// is below too. At 2^23 - 1 it is ahead of snd_una and past snd_nxt: malformed.
    /// A sender at snd_una 100 with PSNs 100..=102 out.
    fn at_100_with_3_out() -> SackSender {
        let mut s = SackSender::new(params());
        s.snd_una = 100;
        s.snd_nxt = 100;
        send(&mut s, 0, 3);
        s
    }

    #[test]
    fn sack_epsn_half_the_space_from_una() {
        let mut s = at_100_with_3_out();
        for (epsn, verdict) in [
            (8_388_708, SackVerdict::Accepted),
            (8_388_709, SackVerdict::Accepted),
            (8_388_707, SackVerdict::Malformed),
        ] {
            let o = on_sack(&mut s, 10, sack(epsn, 96, 0, 0, 0));
            assert_eq!(o.sack, Some(verdict), "EPSN {epsn}");
            assert_eq!((s.snd_una, s.snd_nxt, o.acked_bytes), (100, 103, 0));
        }
    }

    /// Segment bits 2^23 from snd_una are outside [snd_una, snd_nxt): ignored. snd_una 100,
    /// 3 out; the base 100 + 2^23 - 4 = 8_388_704 (a multiple of 16) covers PSNs 2^23 - 4 to
    /// 2^23 + 11 from snd_una, all far outside the window.
    #[test]
    fn segment_half_the_space_away_acknowledges_nothing() {
        let mut s = at_100_with_3_out();
        let o = on_sack(&mut s, 10, sack(100, 8_388_704, 0xFFFF, 0, 0));
        assert_eq!(o.sack, Some(SackVerdict::Accepted));
        assert!(s.acked.not_any());
        assert_eq!(s.highest_acked, None);
    }

    /// The receive window bounds the sender (spec: `snd_nxt - snd_una < rx_window`): 64 PSNs
    /// out of a 64-PSN window, all but the first acknowledged by a segment (a hole at snd_una).
    /// Bytes in flight are 1000 of a 1 MiB window, yet no new packet may go: PSN 64 would land
    /// on the hole's slot, beyond what the receiver tracks.
    #[test]
    fn the_psn_span_stops_new_data_the_window_allows() {
        let mut s = SackSender::new(params());
        send(&mut s, 0, 64);
        for base in (0..64).step_by(16) {
            let bits = if base == 0 { 0xFFFE } else { 0xFFFF };
            on_sack(&mut s, 1, sack(0, base, bits, 63_000, 63));
        }
        assert_eq!((s.snd_una, s.outstanding(), s.inflight()), (0, 64, 1000));
        let o = s.step(&In {
            now: 2,
            cwnd: CWND,
            new_pkt: Some(NewPkt {
                len: 1000,
                ack_req: false,
            }),
            tx_ready: true,
            ..In::default()
        });
        assert!(!o.new_accepted && o.tx.is_none());
        // The hole filled, the window slides and the packet goes.
        on_sack(&mut s, 3, sack(64, 48, 0xFFFF, 64_000, 0));
        send(&mut s, 4, 1);
        assert_eq!((s.snd_una, s.snd_nxt), (64, 65));
    }

    #[test]
    fn psn_wrap_at_2_pow_24() {
        let mut s = SackSender::new(params());
        s.snd_una = PSN_MASK - 1;
        s.snd_nxt = PSN_MASK - 1;
        send(&mut s, 0, 4);
        assert_eq!(s.snd_nxt, 2);
        on_sack(&mut s, 5, sack(1, 0, 0, 3000, 0));
        assert_eq!((s.snd_una, s.outstanding()), (1, 1));
    }
}
