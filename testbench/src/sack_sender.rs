//! The SACK sender's closed loop, model only (`golden_model::sack_sender`): the sender's
//! packets cross a model link (delay, jitter, loss) to a model receiver, whose SACKs come back
//! over a second link (loss, blackouts). Forged SACKs are mixed in: malformed fields, stale
//! EPSNs, random segments, and probe answers. Each cycle the SACK due at the head of the return
//! link (or a forged one) is resolved into the sender's concrete inputs. The send record's
//! representation test (`tests/sender_representation.rs`) runs on it. (The stand-alone
//! `sack_sender` RTL block and its co-sim were removed: the per-connection logic is
//! `nic_sender`'s, co-simulated in `nic_sender.rs`.)

use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::{DataPkt, Sack, SackReceiver};
use golden_model::sack_sender::{NewPkt, Out, SackSender, TxKind};
use golden_model::seq::{psn_add, psn_sub, PSN_HALF, PSN_MASK};
use strack_config::Config;

use crate::env::{AbsClock, Link};

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
    /// Nanoseconds since the last cycle.
    pub dt: u32,
    /// Low: the sender does not step this cycle (time passes).
    pub s_valid: bool,
    /// Whether a consumer of the sender's results would take one this cycle (the closed loop
    /// steps on every valid cycle and does not read it).
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
    /// Filled by [`ClosedLoop::resolve`]: the SACK presented this cycle.
    pub sack: Option<Sack>,
}

/// The model sender and its environment (links and the peer receiver).
pub struct ClosedLoop {
    pub sender: SackSender,
    pub peer: SackReceiver,
    data_link: Link<DataPkt>,
    sack_link: Link<Sack>,
    clock: AbsClock,
    dark_until: u64,
}

impl ClosedLoop {
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        let mut sender = SackSender::from_config(cfg);
        sender.snd_una = initial_psn;
        sender.snd_nxt = initial_psn;
        let mut peer = SackReceiver::from_config(cfg);
        peer.epsn = initial_psn;
        ClosedLoop {
            sender,
            peer,
            data_link: Link::default(),
            sack_link: Link::default(),
            clock: AbsClock::default(),
            dark_until: 0,
        }
    }

    /// Cycle `c` at time `now` with the SACK it presents filled in: a forged one, or the one
    /// due at the head of the return link.
    pub fn resolve(&self, now: u32, c: &Cycle) -> Cycle {
        let mut c = c.clone();
        c.sack = match c.forge {
            Some(kind) => Some(forge_sack(&self.sender, kind, c.roll, now)),
            None => self.sack_link.peek_due(self.clock.at(now)).cloned(),
        };
        c
    }

    /// One step of the sender on the resolved cycle `c`, then the links and the peer receiver
    /// up to `now`; the sender's output.
    pub fn step(&mut self, now: u32, c: &Cycle) -> Out {
        let t = self.clock.advance(now);
        if c.forge.is_none() && c.sack.is_some() {
            self.sack_link.pop_due(t);
        }
        let input = golden_model::sack_sender::In {
            now,
            cwnd: c.cwnd,
            achieved_bdp: c.achieved_bdp,
            sack: c.sack.clone(),
            new_pkt: c.new_pkt,
            tx_ready: c.tx_ready,
        };
        let o = self.sender.step(&input);

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

        o
    }
}

/// A forged SACK of kind `kind` (0..10) against sender `s`'s current state: 0 EPSN beyond
/// `snd_nxt`, 1 unaligned base, 2 bytes beyond those sent, 3 a field wider than 24 bits,
/// 4 a stale EPSN, 5 a probe's quick answer, 8 an EPSN `2^23 + k` from `snd_una`, 9 a
/// segment `2^23 + k` from the EPSN (`k` in -1..=1), else plausible.
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

/// The fixed mix the representation test starts from.
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
