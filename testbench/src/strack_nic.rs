//! Co-simulation of `strack_nic`, closed loop against a peer NIC (the golden model) over two
//! model links each way (data and SACKs) that delay, jitter, drop, and ECN-mark data (hot
//! entropies far more often). Forged SACKs and forged data packets are mixed in. Each cycle
//! the items due at the heads of the links (or forged ones) are resolved into concrete inputs
//! that drive both the RTL and the model.

use golden_model::cwnd_unit::Branch;
use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::{DataPkt, Sack, Verdict};
use golden_model::sack_sender::{LossKind, NewPkt, SackVerdict, TxKind};
use golden_model::seq::{psn_add, psn_sub};
use golden_model::strack_nic::{self, StrackNic};
use proptest::prelude::*;
use strack_config::Config;

use crate::cwnd_unit::branch_code;
use crate::env::{AbsClock, Link};
use crate::sack_receiver::verdict_code;
use crate::sack_sender::{forge_sack, set_new, set_sack};
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// Per-case knobs of the environment (carried by every cycle).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knobs {
    pub drop: f64,
    pub delay_ns: u32,
    pub jitter_ns: u32,
    /// ECN-mark chance of a data packet on a hot entropy (`entropy % 4 == 0`) and on others.
    pub mark_hot: f64,
    pub mark_cold: f64,
    /// The peer offers a packet of its own at each of its steps with this chance.
    pub peer_offer: f64,
}

/// One clock cycle of stimulus.
#[derive(Debug, Clone, PartialEq)]
pub struct Cycle {
    pub dt: u32,
    pub s_valid: bool,
    pub tx_ready: bool,
    pub new_pkt: Option<NewPkt>,
    /// Forge this cycle's SACK (0..8) or data packet (8..12) instead of the link's.
    pub forge: Option<u8>,
    pub roll: u64,
    pub knobs: Knobs,
    /// Filled by `resolve`.
    pub sack: Option<Sack>,
    pub data: Option<DataPkt>,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "tx_new",
    "tx_retransmit",
    "tx_probe",
    "tx_blocked",
    "sack_accepted",
    "sack_malformed",
    "ecn_echo",
    "cwnd_additive",
    "cwnd_proportional",
    "cwnd_bdp_cut",
    "cwnd_multiplicative",
    "cwnd_hold",
    "loss_ooo",
    "loss_timeout",
    "rx_in_order",
    "rx_out_of_order",
    "rx_duplicate",
    "rx_malformed",
    "tx_sack",
    "psn_wrap",
    "idle_cycle",
];

/// A step's result as port values; the default is every port at 0 (no step completed).
#[derive(Debug, Clone)]
pub struct Regs(Vec<(&'static str, u64)>);

impl Default for Regs {
    fn default() -> Self {
        Regs(ports_of(&strack_nic::Out::default()))
    }
}

/// Our model NIC, the peer, and the links between them.
pub struct Block {
    pub nic: StrackNic,
    pub peer: StrackNic,
    /// Us -> peer.
    a2b_data: Link<DataPkt>,
    a2b_sack: Link<Sack>,
    /// Peer -> us.
    b2a_data: Link<DataPkt>,
    b2a_sack: Link<Sack>,
    clock: AbsClock,
}

impl Block {
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        Block {
            nic: StrackNic::with_initial_psn(cfg, initial_psn),
            peer: StrackNic::with_initial_psn(cfg, initial_psn),
            a2b_data: Link::default(),
            a2b_sack: Link::default(),
            b2a_data: Link::default(),
            b2a_sack: Link::default(),
            clock: AbsClock::default(),
        }
    }

    /// The sender co-sim's forged SACK, plus the entropy and ECN echo the NIC also reads
    /// (now and then an entropy beyond 16 bits).
    fn forge_sack(&self, kind: u8, roll: u64, now: u32) -> Sack {
        let mut k = forge_sack(&self.nic.sender, kind, roll, now);
        let mut r = SplitMix64::new(roll ^ 0xEC40);
        k.entropy = if r.chance(0.1) {
            r.next_u64() as u32
        } else {
            r.below(64) as u32
        };
        k.ecn = r.chance(0.3);
        k
    }

    fn forge_data(&self, kind: u8, roll: u64, now: u32) -> DataPkt {
        let rx = &self.nic.receiver;
        let w = rx.params().rx_window;
        let mtu = rx.params().mtu;
        let mut r = SplitMix64::new(roll);
        let mut p = DataPkt {
            psn: psn_add(rx.epsn, r.below(w as u64) as u32),
            len: 1 + r.below(mtu as u64) as u32,
            entropy: r.next_u64() as u32,
            ecn: r.chance(0.2),
            ts: now.wrapping_sub(r.below(50_000) as u32),
            probe: false,
            ack_req: r.chance(0.2),
        };
        match kind {
            8 => p.psn |= 1 << (24 + r.below(8)),
            9 => p.len = if r.chance(0.5) { 0 } else { mtu + 1 },
            10 => p.psn = psn_sub(rx.epsn, 1 + r.below(2 * w as u64) as u32),
            _ => p.psn = psn_add(rx.epsn, w + r.below(w as u64) as u32),
        }
        p
    }
}

/// The output ports of the NIC, in order, with the values of `o` (a step's result).
fn ports_of(o: &strack_nic::Out) -> Vec<(&'static str, u64)> {
    let tx = o.tx_data.unwrap_or_default();
    let sk = o.tx_sack.clone().unwrap_or_default();
    vec![
        ("m_tx_valid", o.tx_data.is_some() as u64),
        ("m_tx_psn", tx.psn as u64),
        ("m_tx_len", tx.len as u64),
        ("m_tx_entropy", tx.entropy as u64),
        ("m_tx_ts", tx.ts as u64),
        ("m_tx_probe", tx.probe as u64),
        ("m_tx_ack_req", tx.ack_req as u64),
        (
            "m_tx_kind",
            match o.tx_kind {
                None | Some(TxKind::New) => 0,
                Some(TxKind::Retransmit) => 1,
                Some(TxKind::Probe) => 2,
            },
        ),
        ("m_new_accepted", o.new_accepted as u64),
        (
            "m_sack_verdict",
            match o.sack_verdict {
                None => 0,
                Some(SackVerdict::Accepted) => 1,
                Some(SackVerdict::Malformed) => 2,
            },
        ),
        ("m_cwnd_branch_valid", o.cwnd_branch.is_some() as u64),
        ("m_cwnd_branch", o.cwnd_branch.map_or(0, branch_code)),
        (
            "m_loss",
            match o.loss {
                None => 0,
                Some(LossKind::Ooo) => 1,
                Some(LossKind::Probe) => 2,
                Some(LossKind::Timeout) => 3,
            },
        ),
        ("m_cwnd_q", o.cwnd_q as u64),
        ("m_inflight", o.inflight as u64),
        ("m_recovery", o.recovery as u64),
        ("m_rx_valid", o.rx_verdict.is_some() as u64),
        ("m_rx_verdict", o.rx_verdict.map_or(0, verdict_code)),
        ("m_tx_sack_valid", o.tx_sack.is_some() as u64),
        ("m_tx_sack_epsn", sk.epsn as u64),
        ("m_tx_sack_base", sk.sack_base as u64),
        ("m_tx_sack_bitmap", sk.bitmap.first().copied().unwrap_or(0)),
        ("m_tx_sack_bytes_recvd", sk.bytes_recvd as u64),
        ("m_tx_sack_ooo_count", sk.ooo_count as u64),
        ("m_tx_sack_entropy", sk.entropy as u64),
        ("m_tx_sack_ecn", sk.ecn as u64),
        ("m_tx_sack_ts", sk.ts as u64),
        ("m_tx_sack_probe", sk.probe as u64),
    ]
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    const LATENCY: usize = crate::designs::StrackNicDefault::LATENCY as usize;

    fn dt(c: &Cycle) -> u32 {
        c.dt
    }
    fn s_valid(c: &Cycle) -> bool {
        c.s_valid
    }
    fn m_ready(_: &Cycle) -> bool {
        true
    }

    fn resolve(&self, now: u32, c: &Cycle) -> Cycle {
        let mut c = c.clone();
        let t = self.clock.at(now);
        c.sack = match c.forge {
            Some(k) if k < 8 => Some(self.forge_sack(k, c.roll, now)),
            _ => self.b2a_sack.peek_due(t).cloned(),
        };
        c.data = match c.forge {
            Some(k) if k >= 8 => Some(self.forge_data(k, c.roll, now)),
            _ => self.b2a_data.peek_due(t).cloned(),
        };
        c
    }

    fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
        dut.set("s_valid", c.s_valid as u64);
        if !c.s_valid {
            crate::garbage(dut, c.roll);
            return;
        }
        dut.set("s_now", now as u64);
        set_sack(dut, c.sack.as_ref());
        let k = c.sack.clone().unwrap_or_default();
        dut.set("s_sack_entropy", k.entropy as u64);
        dut.set("s_sack_ecn", k.ecn as u64);
        set_new(dut, c.new_pkt, c.tx_ready);
        let d = c.data.unwrap_or_default();
        dut.set("s_rx_valid", c.data.is_some() as u64);
        dut.set("s_rx_psn", d.psn as u64);
        dut.set("s_rx_len", d.len as u64);
        dut.set("s_rx_entropy", d.entropy as u64);
        dut.set("s_rx_ecn", d.ecn as u64);
        dut.set("s_rx_ts", d.ts as u64);
        dut.set("s_rx_probe", d.probe as u64);
        dut.set("s_rx_ack_req", d.ack_req as u64);
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let mut v = vec![("m_valid", lat.m_valid as u64)];
        v.extend(lat.out.0.iter().copied());
        v
    }

    /// The NIC is free-running: every cycle advances; one without a step is an idle cycle
    /// for the model (it lets the cwnd unit's results through to the window view).
    fn advance(&mut self, fired: bool) {
        if !fired {
            self.nic.idle();
        }
    }

    fn fire(&mut self, now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let t = self.clock.advance(now);
        let forged_sack = matches!(c.forge, Some(k) if k < 8);
        let forged_data = matches!(c.forge, Some(k) if k >= 8);
        if !forged_sack && c.sack.is_some() {
            self.b2a_sack.pop_due(t);
        }
        if !forged_data && c.data.is_some() {
            self.b2a_data.pop_due(t);
        }
        let before = (self.nic.sender.snd_nxt, self.nic.receiver.epsn);
        let o = self.nic.step(&strack_nic::In {
            now,
            rx_sack: c.sack.clone(),
            rx_data: c.data,
            new_pkt: c.new_pkt,
            tx_ready: c.tx_ready,
        });

        if let Some(k) = o.tx_kind {
            cov.hit(match k {
                TxKind::New => "tx_new",
                TxKind::Retransmit => "tx_retransmit",
                TxKind::Probe => "tx_probe",
            });
        }
        if !c.tx_ready && c.new_pkt.is_some() {
            cov.hit("tx_blocked");
        }
        match o.sack_verdict {
            Some(SackVerdict::Accepted) => {
                cov.hit("sack_accepted");
                if c.sack.as_ref().is_some_and(|s| s.ecn) {
                    cov.hit("ecn_echo");
                }
            }
            Some(SackVerdict::Malformed) => cov.hit("sack_malformed"),
            None => {}
        }
        match o.cwnd_branch {
            Some(Branch::AdditiveIncrease) => cov.hit("cwnd_additive"),
            Some(Branch::ProportionalIncrease) => cov.hit("cwnd_proportional"),
            Some(Branch::AchievedBdpCut) => cov.hit("cwnd_bdp_cut"),
            Some(Branch::MultiplicativeDecrease) => cov.hit("cwnd_multiplicative"),
            Some(Branch::Hold) => cov.hit("cwnd_hold"),
            _ => {}
        }
        match o.loss {
            Some(LossKind::Ooo) => cov.hit("loss_ooo"),
            Some(LossKind::Timeout) => cov.hit("loss_timeout"),
            _ => {}
        }
        match o.rx_verdict {
            Some(Verdict::InOrder) => cov.hit("rx_in_order"),
            Some(Verdict::OutOfOrder) => cov.hit("rx_out_of_order"),
            Some(Verdict::Duplicate) => cov.hit("rx_duplicate"),
            Some(Verdict::Malformed) => cov.hit("rx_malformed"),
            _ => {}
        }
        if o.tx_sack.is_some() {
            cov.hit("tx_sack");
        }
        if self.nic.sender.snd_nxt < before.0 || self.nic.receiver.epsn < before.1 {
            cov.hit("psn_wrap");
        }

        // The links: our packets and SACKs to the peer; the peer steps on what is due (at least
        // once, so its own timers and offers run) and answers over the return links.
        let k = c.knobs;
        let mut r = SplitMix64::new(c.roll ^ 0x5EED_5EED);
        let delay = |r: &mut SplitMix64| t + k.delay_ns as u64 + r.below(k.jitter_ns as u64 + 1);
        if let Some(mut p) = o.tx_data {
            if !r.chance(k.drop) {
                let hot = p.entropy % 4 == 0;
                p.ecn = r.chance(if hot { k.mark_hot } else { k.mark_cold });
                let at = delay(&mut r);
                self.a2b_data.send(at, p);
            }
        }
        if let Some(s) = o.tx_sack.clone() {
            if !r.chance(k.drop) {
                let at = delay(&mut r);
                self.a2b_sack.send(at, s);
            }
        }
        loop {
            let sack = self.a2b_sack.pop_due(t);
            let data = self.a2b_data.pop_due(t);
            let idle = sack.is_none() && data.is_none();
            let po = self.peer.step(&strack_nic::In {
                now,
                rx_sack: sack,
                rx_data: data,
                new_pkt: r.chance(k.peer_offer).then_some(NewPkt {
                    len: self.peer.sender.params().mtu,
                    ack_req: r.chance(0.05),
                }),
                tx_ready: true,
            });
            if let Some(mut p) = po.tx_data {
                if !r.chance(k.drop) {
                    p.ecn = r.chance(k.mark_cold);
                    let at = delay(&mut r);
                    self.b2a_data.send(at, p);
                }
            }
            if let Some(s) = po.tx_sack {
                if !r.chance(k.drop) {
                    let at = delay(&mut r);
                    self.b2a_sack.send(at, s);
                }
            }
            if idle {
                break;
            }
        }
        Regs(ports_of(&o))
    }
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

/// `cycles` cycles: host offers (a few of illegal length), link readiness, forged SACKs and
/// data, and idle cycles.
pub fn stream(cfg: &Config, m: Mix) -> Vec<Cycle> {
    let mtu = cfg.network.mtu_bytes;
    let mut r = SplitMix64::new(m.seed);
    (0..m.cycles)
        .map(|_| Cycle {
            dt: 1 + r.below(200) as u32,
            s_valid: !r.chance(0.1),
            tx_ready: r.chance(m.tx_ready),
            new_pkt: r.chance(m.offer).then(|| NewPkt {
                len: match r.below(100) {
                    0 => 0,
                    1 => mtu + 1,
                    2..=20 => 1 + r.below(mtu as u64) as u32,
                    _ => mtu,
                },
                ack_req: r.chance(0.03),
            }),
            forge: r.chance(m.forge).then(|| r.below(12) as u8),
            roll: r.next_u64(),
            knobs: m.knobs,
            sack: None,
            data: None,
        })
        .collect()
}

pub fn stimulus(cfg: Config, cycles: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    (
        any::<u64>(),
        cycles,
        0.2f64..1.0,
        0.5f64..1.0,
        0.0f64..0.03,
        (
            0.0f64..0.05,
            500u32..8_000,
            prop_oneof![0u32..2_000, 0u32..60_000],
        ),
        (0.0f64..0.8, 0.0f64..0.05, 0.0f64..0.3),
    )
        .prop_map(
            move |(seed, cycles, offer, tx_ready, forge, (drop, delay, jitter), (mh, mc, po))| {
                stream(
                    &cfg,
                    Mix {
                        seed,
                        cycles,
                        offer,
                        tx_ready,
                        forge,
                        knobs: Knobs {
                            drop,
                            delay_ns: delay,
                            jitter_ns: jitter,
                            mark_hot: mh,
                            mark_cold: mc,
                            peer_offer: po,
                        },
                    },
                )
            },
        )
}

/// The fixed mix of the demo, the benchmark and the broken-variant test.
pub fn demo_mix(seed: u64, cycles: usize) -> Mix {
    Mix {
        seed,
        cycles,
        offer: 0.7,
        tx_ready: 0.9,
        forge: 0.01,
        knobs: Knobs {
            drop: 0.02,
            delay_ns: 3_000,
            jitter_ns: 20_000,
            mark_hot: 0.5,
            mark_cold: 0.02,
            peer_offer: 0.1,
        },
    }
}
