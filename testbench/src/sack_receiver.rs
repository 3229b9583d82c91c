//! Co-simulation of `sack_receiver`: stimulus, coverage and the model's side of the loop.

use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::{DataPkt, SackReceiver, Verdict};
use golden_model::seq::{psn_add, psn_lt, psn_sub, PSN_HALF, PSN_MASK};
use proptest::prelude::*;
use strack_config::Config;

use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// One clock cycle of stimulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    pub s_valid: bool,
    pub pkt: DataPkt,
    pub m_ready: bool,
    pub noise: u64,
    /// A PSN the stream cannot know in advance, placed when the packet is offered
    /// ([`CosimBlock::resolve`]) half the PSN space from the receiver's state.
    pub half: Option<Half>,
}

/// Where a half-space packet goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// `EPSN + 2^23 + k`, `k` in -1..=1: the three distances around the half space.
    Epsn(i8),
    /// `lowest + 2^23`: half the space below the lowest PSN since the last SACK (EPSN when
    /// there is none).
    Lowest,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "in_order",
    "in_order_advances_over_run",
    "out_of_order",
    "duplicate_below_epsn",
    "duplicate_held",
    "out_of_window",
    "probe",
    "malformed_psn",
    "malformed_len",
    "trigger_coalesce",
    "trigger_head_fill",
    "trigger_ack_req",
    "trigger_ecn",
    "segment_from_lowest",
    "segment_epsn_fallback",
    "psn_epsn_half_minus_1",
    "psn_epsn_half",
    "psn_epsn_half_plus_1",
    "lowest_replaced_half_apart",
    "segment_fallback_after_half_duplicate",
    "psn_wrap",
    "idle_cycle",
    "back_pressure",
];

#[derive(Debug, Clone, Default)]
pub struct Regs {
    verdict: u64,
    trig: [u64; 5],
    sack_valid: u64,
    epsn: u64,
    base: u64,
    bitmap: u64,
    bytes: u64,
    ooo: u64,
    entropy: u64,
    ecn: u64,
    ts: u64,
    probe: u64,
}

pub fn verdict_code(v: Verdict) -> u64 {
    u64::from(v.code())
}

/// The golden model on the co-sim's side.
pub struct Block(pub SackReceiver);

impl Block {
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        let mut r = SackReceiver::from_config(cfg);
        r.epsn = initial_psn;
        Block(r)
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    const LATENCY: usize = crate::designs::SackReceiverDefault::LATENCY as usize;

    fn dt(_: &Cycle) -> u32 {
        1
    }
    fn s_valid(s: &Cycle) -> bool {
        s.s_valid
    }
    fn m_ready(s: &Cycle) -> bool {
        s.m_ready
    }

    fn resolve(&self, _now: u32, c: &Cycle) -> Cycle {
        let mut c = *c;
        let r = &self.0;
        match c.half {
            Some(Half::Epsn(k)) => {
                c.pkt.psn = psn_add(r.epsn, (PSN_HALF as i64 + k as i64) as u32);
            }
            Some(Half::Lowest) => {
                c.pkt.psn = psn_add(r.lowest_since_sack.unwrap_or(r.epsn), PSN_HALF);
            }
            None => {}
        }
        c
    }

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        dut.set("s_valid", c.s_valid as u64);
        dut.set("m_ready", c.m_ready as u64);
        let p = if c.s_valid {
            c.pkt
        } else {
            let n = c.noise;
            DataPkt {
                psn: n as u32,
                len: (n >> 32) as u32 & 0x7FF,
                entropy: (n >> 16) as u32,
                ecn: n & 1 == 1,
                ts: (n >> 24) as u32,
                probe: n & 2 == 2,
                ack_req: n & 4 == 4,
            }
        };
        dut.set("s_psn", p.psn as u64);
        dut.set("s_len", p.len as u64);
        dut.set("s_entropy", p.entropy as u64);
        dut.set("s_ecn", p.ecn as u64);
        dut.set("s_ts", p.ts as u64);
        dut.set("s_probe", p.probe as u64);
        dut.set("s_ack_req", p.ack_req as u64);
    }

    fn expected(&self, lat: &OutputStage<Regs>, m_ready: bool) -> PortValues {
        let o = &lat.out;
        let c = &self.0.counters;
        vec![
            ("s_ready", lat.s_ready(m_ready) as u64),
            ("m_valid", lat.m_valid as u64),
            ("m_verdict", o.verdict),
            ("m_trig_coalesce", o.trig[0]),
            ("m_trig_head_fill", o.trig[1]),
            ("m_trig_probe", o.trig[2]),
            ("m_trig_ack_req", o.trig[3]),
            ("m_trig_ecn", o.trig[4]),
            ("m_sack_valid", o.sack_valid),
            ("m_sack_epsn", o.epsn),
            ("m_sack_base", o.base),
            ("m_sack_bitmap", o.bitmap),
            ("m_sack_bytes_recvd", o.bytes),
            ("m_sack_ooo_count", o.ooo),
            ("m_sack_entropy", o.entropy),
            ("m_sack_ecn", o.ecn),
            ("m_sack_ts", o.ts),
            ("m_sack_probe", o.probe),
            ("status_duplicates", c.duplicates),
            ("status_out_of_window", c.out_of_window),
            ("status_malformed", c.malformed),
        ]
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let r = &mut self.0;
        let before = r.clone();
        let p = c.pkt;
        let o = r.step(&p);
        if !p.probe && o.verdict != Verdict::Malformed {
            // Distances from EPSN around half the space (-x is 2^24 - x: both sides).
            match psn_sub(p.psn, before.epsn).wrapping_sub(PSN_HALF) as i32 {
                -1 => cov.hit("psn_epsn_half_minus_1"),
                0 => cov.hit("psn_epsn_half"),
                1 => cov.hit("psn_epsn_half_plus_1"),
                _ => {}
            }
        }
        let half_below_lowest = before
            .lowest_since_sack
            .is_some_and(|l| psn_sub(l, p.psn) == PSN_HALF);
        if half_below_lowest && r.lowest_since_sack == Some(p.psn) {
            cov.hit("lowest_replaced_half_apart");
        }
        match o.verdict {
            Verdict::InOrder => {
                cov.hit("in_order");
                if psn_sub(r.epsn, before.epsn) > 1 {
                    cov.hit("in_order_advances_over_run");
                }
            }
            Verdict::OutOfOrder => cov.hit("out_of_order"),
            Verdict::Duplicate if psn_lt(p.psn, before.epsn) => cov.hit("duplicate_below_epsn"),
            Verdict::Duplicate => cov.hit("duplicate_held"),
            Verdict::OutOfWindow => cov.hit("out_of_window"),
            Verdict::Probe => cov.hit("probe"),
            Verdict::Malformed if p.psn > PSN_MASK => cov.hit("malformed_psn"),
            Verdict::Malformed => cov.hit("malformed_len"),
        }
        if r.epsn < before.epsn {
            cov.hit("psn_wrap");
        }
        let t = o.triggers;
        for (hit, name) in [
            (t.coalesce, "trigger_coalesce"),
            (t.head_fill, "trigger_head_fill"),
            (t.ack_req, "trigger_ack_req"),
            (t.ecn, "trigger_ecn"),
        ] {
            if hit {
                cov.hit(name);
            }
        }
        let mut regs = Regs {
            verdict: verdict_code(o.verdict),
            trig: [t.coalesce, t.head_fill, t.probe, t.ack_req, t.ecn].map(|b| b as u64),
            ..Regs::default()
        };
        if let Some(s) = o.sack {
            let epsn_seg = r.epsn & !(r.params().sack_bits - 1);
            if !p.probe {
                cov.hit(if s.sack_base == epsn_seg {
                    "segment_epsn_fallback"
                } else {
                    "segment_from_lowest"
                });
                // The lowest was a duplicate half the space from EPSN (or from the lowest
                // before it): the segment falls back to EPSN's.
                if s.sack_base == epsn_seg
                    && (half_below_lowest || psn_sub(before.epsn, p.psn) == PSN_HALF)
                {
                    cov.hit("segment_fallback_after_half_duplicate");
                }
            }
            regs.sack_valid = 1;
            regs.epsn = s.epsn as u64;
            regs.base = s.sack_base as u64;
            regs.bitmap = s.bitmap[0];
            regs.bytes = s.bytes_recvd as u64;
            regs.ooo = s.ooo_count as u64;
            regs.entropy = s.entropy as u64;
            regs.ecn = s.ecn as u64;
            regs.ts = s.ts as u64;
            regs.probe = s.probe as u64;
        }
        regs
    }
}

// ------------------------------------------------------------------ stimulus

/// Knobs of one stimulus case.
#[derive(Debug, Clone, Copy)]
pub struct Mix {
    pub seed: u64,
    pub packets: usize,
    pub drop: f64,
    pub reorder: f64,
    pub dup: f64,
}

/// A packet stream as a sender over a lossy, reordering path would produce it, starting at
/// `initial_psn`: new PSNs in order, some dropped and retransmitted later, some swapped, plus
/// duplicates, out-of-window PSNs, malformed fields and probes; with idle cycles and
/// back-pressure.
pub fn stream(cfg: &Config, initial_psn: u32, m: Mix) -> Vec<Cycle> {
    let w = cfg.sack.rx_window;
    let mtu = cfg.network.mtu_bytes;
    let mut rng = SplitMix64::new(m.seed);
    let mut next = initial_psn;
    let mut retx: Vec<(usize, u32)> = Vec::new();
    let mut pkts: Vec<(DataPkt, Option<Half>)> = Vec::with_capacity(m.packets);
    for k in 0..m.packets {
        let mut p = DataPkt {
            psn: next,
            len: if rng.chance(0.7) {
                mtu
            } else {
                1 + rng.below(mtu as u64) as u32
            },
            entropy: rng.next_u64() as u32,
            ecn: rng.chance(0.08),
            ts: rng.next_u64() as u32,
            probe: false,
            ack_req: rng.chance(0.04),
        };
        let roll = rng.below(1000);
        let mut half = None;
        if let Some(i) = retx.iter().position(|&(due, _)| due <= k) {
            p.psn = retx.swap_remove(i).1;
        } else if roll < 10 {
            // Half the PSN space from EPSN or from the lowest: the serial rule's corner.
            half = Some(match rng.below(4) {
                0 => Half::Lowest,
                k => Half::Epsn(k as i8 - 2),
            });
            p.ack_req = rng.chance(0.5);
        } else if roll < 15 {
            p.psn = (1 << 24) | rng.next_u64() as u32;
        } else if roll < 30 {
            p.len = if rng.chance(0.5) {
                0
            } else {
                mtu + 1 + rng.below(100) as u32
            };
        } else if roll < 45 {
            p.probe = true;
            p.len = 0;
        } else if roll < 60 {
            p.psn = psn_add(next, w + rng.below(2 * w as u64) as u32);
        } else if rng.chance(m.dup) {
            p.psn = psn_sub(next, 1 + rng.below(2 * w as u64) as u32);
        } else {
            next = psn_add(next, 1);
            if rng.chance(m.drop) {
                retx.push((k + 2 + rng.below(w as u64) as usize, p.psn));
                continue;
            }
        }
        pkts.push((p, half));
        let n = pkts.len();
        if n >= 2 && rng.chance(m.reorder) {
            let j = n - 2 - rng.below((n - 1).min(6) as u64) as usize;
            pkts.swap(j, n - 1);
        }
    }
    let mut out = Vec::with_capacity(pkts.len() * 5 / 4);
    for (p, half) in pkts {
        while rng.chance(0.15) {
            out.push(Cycle {
                s_valid: false,
                pkt: p,
                m_ready: rng.chance(0.7),
                noise: rng.next_u64(),
                half: None,
            });
        }
        // Back-pressure: the offer may be refused; like an AXI source, it is offered again.
        if rng.chance(0.1) {
            out.push(Cycle {
                s_valid: true,
                pkt: p,
                m_ready: false,
                noise: 0,
                half,
            });
        }
        out.push(Cycle {
            s_valid: true,
            pkt: p,
            m_ready: true,
            noise: 0,
            half,
        });
    }
    out
}

pub fn stimulus(
    cfg: Config,
    initial_psn: u32,
    packets: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Cycle>> {
    (any::<u64>(), packets, 0.0f64..0.2, 0.0f64..0.5, 0.0f64..0.1).prop_map(
        move |(seed, packets, drop, reorder, dup)| {
            stream(
                &cfg,
                initial_psn,
                Mix {
                    seed,
                    packets,
                    drop,
                    reorder,
                    dup,
                },
            )
        },
    )
}
