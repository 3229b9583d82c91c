//! Co-simulation of `sack_sender`, closed loop: the model sender's packets cross a model link
//! (delay, jitter, loss) to a model receiver, whose SACKs come back over a second link (loss,
//! blackouts). Forged SACKs are mixed in: malformed fields, stale EPSNs, random segments, and
//! probe answers. Each cycle the SACK due at the head of the return link (or a forged one) is
//! resolved into concrete inputs that drive both the RTL and the model.

use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::{DataPkt, Sack, SackReceiver};
use golden_model::sack_sender::{LossKind, NewPkt, SackSender, SackVerdict, TxKind};
use golden_model::seq::{psn_add, psn_ahead, psn_sub, PSN_HALF, PSN_MASK};
use proptest::prelude::*;
use strack_config::Config;

use crate::env::{AbsClock, Link};
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// Per-case knobs of the environment (carried by every cycle so the model side needs no
/// other input).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knobs {
    pub drop_data: f64,
    pub drop_sack: f64,
    pub delay_ns: u32,
    pub jitter_ns: u32,
    /// Chance per step that the return link goes dark for 30..150 us.
    pub blackout: f64,
}

/// One clock cycle of stimulus.
#[derive(Debug, Clone, PartialEq)]
pub struct Cycle {
    pub dt: u32,
    pub s_valid: bool,
    pub m_ready: bool,
    pub tx_ready: bool,
    pub cwnd: u32,
    pub achieved_bdp: u32,
    pub new_pkt: Option<NewPkt>,
    /// `Some(kind)`: present a forged SACK of that kind instead of the link's.
    pub forge: Option<u8>,
    /// Randomness for forging and for the links this step.
    pub roll: u64,
    pub knobs: Knobs,
    /// Filled by `resolve`: the SACK presented this cycle.
    pub sack: Option<Sack>,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "new",
    "retransmit",
    "probe_sent",
    "sack_accepted",
    "sack_malformed",
    "una_by_epsn",
    "una_by_segment",
    "loss_ooo",
    "loss_probe",
    "loss_timeout",
    "recovery_exit",
    "window_closed",
    "zero_window",
    "rx_window_full",
    "span_stop_with_sack_holes",
    "sack_epsn_half_minus_1",
    "sack_epsn_half",
    "sack_epsn_half_plus_1",
    "sack_base_half_minus_1",
    "sack_base_half",
    "sack_base_half_plus_1",
    "new_rejected",
    "psn_wrap",
    "inflight_negative",
    "idle_cycle",
    "back_pressure",
];

#[derive(Debug, Clone, Default)]
pub struct Regs {
    tx_valid: u64,
    tx_psn: u64,
    tx_len: u64,
    tx_kind: u64,
    tx_ack_req: u64,
    new_accepted: u64,
    new_rejected: u64,
    sack_verdict: u64,
    acked_bytes: u64,
    loss: u64,
    recovery_exit: u64,
    recovery: u64,
    inflight: u64,
    snd_una: u64,
    snd_nxt: u64,
}

/// The model sender and its environment (links and the peer receiver).
pub struct Block {
    pub sender: SackSender,
    pub peer: SackReceiver,
    data_link: Link<DataPkt>,
    sack_link: Link<Sack>,
    clock: AbsClock,
    dark_until: u64,
    /// The config's `max_cwnd` (the stimulus also offers larger windows).
    max_cwnd: u32,
    /// The model sender's output of the last step fired (read by model-only tests).
    pub last: Option<golden_model::sack_sender::Out>,
}

impl Block {
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        let mut sender = SackSender::from_config(cfg);
        sender.snd_una = initial_psn;
        sender.snd_nxt = initial_psn;
        let mut peer = SackReceiver::from_config(cfg);
        peer.epsn = initial_psn;
        Block {
            sender,
            peer,
            data_link: Link::default(),
            sack_link: Link::default(),
            clock: AbsClock::default(),
            dark_until: 0,
            max_cwnd: cfg.max_cwnd_bytes(),
            last: None,
        }
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;

    fn dt(c: &Cycle) -> u32 {
        c.dt
    }
    fn s_valid(c: &Cycle) -> bool {
        c.s_valid
    }
    fn m_ready(c: &Cycle) -> bool {
        c.m_ready
    }

    fn resolve(&self, now: u32, c: &Cycle) -> Cycle {
        let mut c = c.clone();
        c.sack = match c.forge {
            Some(kind) => Some(forge_sack(&self.sender, kind, c.roll, now)),
            None => self.sack_link.peek_due(self.clock.at(now)).cloned(),
        };
        c
    }

    fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
        dut.set("s_valid", c.s_valid as u64);
        dut.set("m_ready", c.m_ready as u64);
        if !c.s_valid {
            crate::garbage(dut, c.roll);
            return;
        }
        dut.set("s_now", now as u64);
        dut.set("s_cwnd", c.cwnd as u64);
        dut.set("s_achieved_bdp", c.achieved_bdp as u64);
        set_sack(dut, c.sack.as_ref());
        set_new(dut, c.new_pkt, c.tx_ready);
    }

    fn expected(&self, lat: &OutputStage<Regs>, m_ready: bool) -> PortValues {
        let o = &lat.out;
        let k = &self.sender.counters;
        let w = |v: u64| v & 0xFFFF_FFFF;
        vec![
            ("s_ready", lat.s_ready(m_ready) as u64),
            ("m_valid", lat.m_valid as u64),
            ("m_tx_valid", o.tx_valid),
            ("m_tx_psn", o.tx_psn),
            ("m_tx_len", o.tx_len),
            ("m_tx_kind", o.tx_kind),
            ("m_tx_ack_req", o.tx_ack_req),
            ("m_new_accepted", o.new_accepted),
            ("m_new_rejected", o.new_rejected),
            ("m_sack_verdict", o.sack_verdict),
            ("m_acked_bytes", o.acked_bytes),
            ("m_loss", o.loss),
            ("m_recovery_exit", o.recovery_exit),
            ("m_recovery", o.recovery),
            ("m_inflight", o.inflight),
            ("m_snd_una", o.snd_una),
            ("m_snd_nxt", o.snd_nxt),
            ("status_sacks", w(k.sacks)),
            ("status_malformed_sacks", w(k.malformed_sacks)),
            ("status_rejected_new", w(k.rejected_new)),
            ("status_retransmits", w(k.retransmits)),
            ("status_probes", w(k.probes)),
            ("status_loss_ooo", w(k.loss_ooo)),
            ("status_loss_probe", w(k.loss_probe)),
            ("status_loss_timeout", w(k.loss_timeout)),
        ]
    }

    fn fire(&mut self, now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let t = self.clock.advance(now);
        if c.forge.is_none() && c.sack.is_some() {
            self.sack_link.pop_due(t);
        }
        let before = self.sender.clone();
        let input = golden_model::sack_sender::In {
            now,
            cwnd: c.cwnd,
            achieved_bdp: c.achieved_bdp,
            sack: c.sack.clone(),
            new_pkt: c.new_pkt,
            tx_ready: c.tx_ready,
        };
        let o = self.sender.step(&input);
        self.last = Some(o.clone());
        let s = &self.sender;

        // Coverage.
        if let Some(tx) = o.tx {
            cov.hit(match tx.kind {
                TxKind::New => "new",
                TxKind::Retransmit => "retransmit",
                TxKind::Probe => "probe_sent",
            });
        }
        match o.sack {
            Some(SackVerdict::Accepted) => {
                cov.hit("sack_accepted");
                let k = c.sack.as_ref().unwrap();
                if psn_ahead(k.epsn, before.snd_una) {
                    cov.hit("una_by_epsn");
                }
                let by_epsn = if psn_ahead(k.epsn, before.snd_una) {
                    k.epsn
                } else {
                    before.snd_una
                };
                if s.snd_una != by_epsn {
                    cov.hit("una_by_segment");
                }
            }
            Some(SackVerdict::Malformed) => cov.hit("sack_malformed"),
            None => {}
        }
        if let Some(k) = &c.sack {
            // EPSN from snd_una and the segment's base from EPSN around half the PSN space
            // (-x is 2^24 - x: both sides).
            let around_half = |d: u32| d.wrapping_sub(PSN_HALF) as i32;
            match around_half(psn_sub(k.epsn, before.snd_una)) {
                -1 => cov.hit("sack_epsn_half_minus_1"),
                0 => cov.hit("sack_epsn_half"),
                1 => cov.hit("sack_epsn_half_plus_1"),
                _ => {}
            }
            match around_half(psn_sub(k.sack_base, k.epsn)) {
                -1 => cov.hit("sack_base_half_minus_1"),
                0 => cov.hit("sack_base_half"),
                1 => cov.hit("sack_base_half_plus_1"),
                _ => {}
            }
        }
        match o.loss {
            Some(LossKind::Ooo) => cov.hit("loss_ooo"),
            Some(LossKind::Probe) => cov.hit("loss_probe"),
            Some(LossKind::Timeout) => cov.hit("loss_timeout"),
            None => {}
        }
        if o.recovery_exit {
            cov.hit("recovery_exit");
        }
        if o.new_rejected {
            cov.hit("new_rejected");
        }
        if c.cwnd == 0 {
            cov.hit("zero_window");
        }
        if let Some(n) = c.new_pkt {
            let legal = n.len >= 1 && n.len <= s.params().mtu;
            if legal && c.tx_ready && o.tx.is_none() {
                if before.outstanding() >= s.params().rx_window {
                    cov.hit("rx_window_full");
                    // Stopped by the PSN span alone: the bytes in flight are under a window
                    // no larger than max_cwnd, because acknowledged PSNs lie past a hole.
                    if s.inflight() < c.cwnd && c.cwnd <= self.max_cwnd && s.acked.any() {
                        cov.hit("span_stop_with_sack_holes");
                    }
                } else {
                    cov.hit("window_closed");
                }
            }
        }
        if s.snd_nxt < before.snd_nxt || s.snd_una < before.snd_una {
            cov.hit("psn_wrap");
        }
        if s.inflight_raw() < 0 {
            cov.hit("inflight_negative");
        }

        // The environment: the packet sent crosses the data link to the peer receiver; the
        // peer's SACKs cross the return link.
        let k = c.knobs;
        let mut r = SplitMix64::new(c.roll ^ 0x5EED_5EED);
        if let Some(tx) = o.tx {
            if !r.chance(k.drop_data) {
                let at = t + k.delay_ns as u64 + r.below(k.jitter_ns as u64 + 1);
                self.data_link.send(
                    at,
                    DataPkt {
                        psn: tx.psn,
                        len: tx.len,
                        entropy: 0,
                        ecn: false,
                        ts: now,
                        probe: tx.kind == TxKind::Probe,
                        ack_req: tx.ack_req,
                    },
                );
            }
        }
        while let Some(p) = self.data_link.pop_due(t) {
            if let Some(sack) = self.peer.step(&p).sack {
                if t >= self.dark_until && !r.chance(k.drop_sack) {
                    let at = t + k.delay_ns as u64 + r.below(k.jitter_ns as u64 + 1);
                    self.sack_link.send(at, sack);
                }
            }
        }
        if r.chance(k.blackout) {
            self.dark_until = t + 30_000 + r.below(120_000);
        }

        let tx = o.tx;
        Regs {
            tx_valid: tx.is_some() as u64,
            tx_psn: tx.map_or(0, |t| t.psn as u64),
            tx_len: tx.map_or(0, |t| t.len as u64),
            tx_kind: tx.map_or(0, |t| match t.kind {
                TxKind::New => 0,
                TxKind::Retransmit => 1,
                TxKind::Probe => 2,
            }),
            tx_ack_req: tx.is_some_and(|t| t.ack_req) as u64,
            new_accepted: o.new_accepted as u64,
            new_rejected: o.new_rejected as u64,
            sack_verdict: match o.sack {
                None => 0,
                Some(SackVerdict::Accepted) => 1,
                Some(SackVerdict::Malformed) => 2,
            },
            acked_bytes: o.acked_bytes as u64,
            loss: match o.loss {
                None => 0,
                Some(LossKind::Ooo) => 1,
                Some(LossKind::Probe) => 2,
                Some(LossKind::Timeout) => 3,
            },
            recovery_exit: o.recovery_exit as u64,
            recovery: o.recovery as u64,
            inflight: o.inflight as u64,
            snd_una: o.snd_una as u64,
            snd_nxt: o.snd_nxt as u64,
        }
    }
}

/// Drive the `s_sack_*` inputs the sender and the NIC share (all 0 without a SACK).
pub fn set_sack(dut: &mut dyn Dut, sack: Option<&Sack>) {
    let k = sack.cloned().unwrap_or_default();
    dut.set("s_sack_valid", sack.is_some() as u64);
    dut.set("s_sack_epsn", k.epsn as u64);
    dut.set("s_sack_base", k.sack_base as u64);
    dut.set("s_sack_bitmap", k.bitmap.first().copied().unwrap_or(0));
    dut.set("s_sack_bytes_recvd", k.bytes_recvd as u64);
    dut.set("s_sack_ooo_count", k.ooo_count as u64);
    dut.set("s_sack_ts", k.ts as u64);
    dut.set("s_sack_probe", k.probe as u64);
}

/// Drive the host's offer and the link's readiness.
pub fn set_new(dut: &mut dyn Dut, new_pkt: Option<NewPkt>, tx_ready: bool) {
    let n = new_pkt.unwrap_or(NewPkt {
        len: 0,
        ack_req: false,
    });
    dut.set("s_new_valid", new_pkt.is_some() as u64);
    dut.set("s_new_len", n.len as u64);
    dut.set("s_new_ack_req", n.ack_req as u64);
    dut.set("s_tx_ready", tx_ready as u64);
}

/// A forged SACK of kind `kind` (0..10) against sender `s`'s current state: 0 EPSN beyond
/// `snd_nxt`, 1 unaligned base, 2 bytes beyond those sent, 3 a field wider than 24 bits,
/// 4 a stale EPSN, 5 a probe's quick answer, 8 an EPSN `2^23 + k` from `snd_una`, 9 a
/// segment `2^23 + k` from the EPSN (`k` in -1..=1), else plausible. Shared with the NIC's
/// co-sim (kinds 0..8).
pub fn forge_sack(s: &SackSender, kind: u8, roll: u64, now: u32) -> Sack {
    let p = s.params();
    let sb = p.sack_bits;
    let una = s.snd_una;
    let outs = s.outstanding();
    let mut r = SplitMix64::new(roll);
    let seg_mask = if sb >= 64 { u64::MAX } else { (1 << sb) - 1 };
    let align = |psn: u32| psn & !(sb - 1) & PSN_MASK;
    let mut k = Sack {
        epsn: una,
        sack_base: align(una),
        bitmap: vec![r.next_u64() & seg_mask],
        bytes_recvd: s.bytes_recvd,
        ooo_count: r.below(2 * p.rx_window as u64) as u32,
        entropy: 0,
        ecn: false,
        ts: now.wrapping_sub(r.below(30_000) as u32),
        probe: r.chance(0.3),
    };
    let span = s.bytes_sent.wrapping_sub(s.bytes_recvd) as u64;
    match kind {
        // EPSN beyond snd_nxt.
        0 => k.epsn = psn_add(s.snd_nxt, 1 + r.below(1000) as u32),
        // A segment base off the sack_bits grid.
        1 => k.sack_base = align(una) + 1 + r.below(sb as u64 - 1) as u32,
        // More bytes than were ever sent.
        2 => k.bytes_recvd = s.bytes_sent.wrapping_add(1 + r.below(5_000) as u32),
        // A field wider than 24 bits.
        3 => {
            if r.chance(0.5) {
                k.epsn |= 1 << (24 + r.below(8));
            } else {
                k.sack_base |= 1 << (24 + r.below(8));
            }
        }
        // A stale EPSN (before snd_una).
        4 => {
            k.epsn = psn_sub(una, 1 + r.below(500) as u32);
            k.sack_base = align(psn_sub(una, r.below(2 * sb as u64) as u32));
        }
        // A probe's answer, quickly back, acknowledging PSNs beyond snd_una.
        5 => {
            k.probe = true;
            k.ts = now.wrapping_sub(r.below(2 * p.net_base_rtt_ns as u64) as u32);
            k.sack_base = align(psn_add(una, r.below(outs as u64 + 1) as u32));
        }
        // The serial rule's corner: EPSN 2^23 - 1 (ahead, past snd_nxt: malformed), 2^23 or
        // 2^23 + 1 (below: stale) from snd_una.
        8 => {
            k.epsn = psn_add(una, (PSN_HALF as i64 + r.below(3) as i64 - 1) as u32);
        }
        // A segment half the space from a (stale or current) EPSN: its bits lie outside
        // [snd_una, snd_nxt) and acknowledge nothing.
        9 => {
            k.sack_base = align(psn_add(una, PSN_HALF));
            k.epsn = psn_sub(
                k.sack_base,
                (PSN_HALF as i64 + r.below(3) as i64 - 1) as u32,
            );
        }
        // Plausible: EPSN and segment anywhere around [snd_una, snd_nxt], a byte count a
        // little ahead of the sender's view (it may push inflight below zero for a while).
        _ => {
            k.epsn = psn_add(una, r.below(outs as u64 + 1) as u32);
            k.sack_base = align(psn_sub(
                psn_add(una, r.below(outs as u64 + 2 * sb as u64) as u32),
                sb,
            ));
            k.bytes_recvd = s.bytes_recvd.wrapping_add(r.below(span / 8 + 1) as u32);
        }
    }
    k
}

// ------------------------------------------------------------------ stimulus

/// Knobs of one stimulus case.
#[derive(Debug, Clone, Copy)]
pub struct Mix {
    pub seed: u64,
    pub cycles: usize,
    pub offer: f64,
    pub tx_ready: f64,
    pub forge: f64,
    pub knobs: Knobs,
}

/// `cycles` cycles of stimulus: host offers (some of illegal length), a window that changes
/// every few hundred cycles (zero, one MTU, a few MTUs, the default maximum, huge), achievedBDP
/// often zero, link readiness, forged SACKs, idle cycles and back-pressure.
pub fn stream(cfg: &Config, m: Mix) -> Vec<Cycle> {
    let mtu = cfg.network.mtu_bytes;
    let mut r = SplitMix64::new(m.seed);
    let mut out = Vec::with_capacity(m.cycles);
    let mut cwnd = 0;
    let mut bdp = 0;
    for i in 0..m.cycles {
        if i % 400 == 0 {
            cwnd = match r.below(6) {
                0 => 0,
                1 => mtu,
                2 => mtu * (2 + r.below(30) as u32),
                3 => cfg.max_cwnd_bytes(),
                4 => u32::MAX >> 1,
                _ => r.below(cfg.max_cwnd_bytes() as u64 * 2) as u32,
            };
            bdp = if r.chance(0.5) {
                0
            } else {
                r.next_u64() as u32 >> 8
            };
        }
        let new_pkt = r.chance(m.offer).then(|| NewPkt {
            len: match r.below(100) {
                0 => 0,
                1..=2 => mtu + 1 + r.below(3 * mtu as u64) as u32,
                3..=25 => 1 + r.below(mtu as u64) as u32,
                _ => mtu,
            },
            ack_req: r.chance(0.05),
        });
        out.push(Cycle {
            dt: 1 + r.below(200) as u32,
            s_valid: !r.chance(0.12),
            m_ready: !r.chance(0.1),
            tx_ready: r.chance(m.tx_ready),
            cwnd,
            achieved_bdp: bdp,
            new_pkt,
            forge: r.chance(m.forge).then(|| r.below(10) as u8),
            roll: r.next_u64(),
            knobs: m.knobs,
            sack: None,
        });
    }
    out
}

pub fn stimulus(cfg: Config, cycles: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    (
        any::<u64>(),
        cycles,
        0.3f64..1.0,
        0.6f64..1.0,
        0.0f64..0.04,
        (0.0f64..0.08, 0.0f64..0.08, 1_000u32..6_000, 0u32..4_000),
        prop_oneof![Just(0.0), 0.0f64..0.0005],
    )
        .prop_map(
            move |(seed, cycles, offer, tx_ready, forge, (dd, ds, delay, jitter), blackout)| {
                stream(
                    &cfg,
                    Mix {
                        seed,
                        cycles,
                        offer,
                        tx_ready,
                        forge,
                        knobs: Knobs {
                            drop_data: dd,
                            drop_sack: ds,
                            delay_ns: delay,
                            jitter_ns: jitter,
                            blackout,
                        },
                    },
                )
            },
        )
}

/// The fixed mix the demo, the benchmark and the broken-variant test use.
pub fn demo_mix(seed: u64, cycles: usize) -> Mix {
    Mix {
        seed,
        cycles,
        offer: 0.8,
        tx_ready: 0.9,
        forge: 0.01,
        knobs: Knobs {
            drop_data: 0.03,
            drop_sack: 0.03,
            delay_ns: 3_000,
            jitter_ns: 2_000,
            blackout: 0.0003,
        },
    }
}
