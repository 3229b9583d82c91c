//! Co-simulation of `entropy_bitmap`: stimulus, coverage and the model's side of the loop.

use golden_model::entropy_bitmap::{
    self as model, ChooseRequest, EcnFeedback, EntropyBitmap, Source,
};
use proptest::prelude::*;

use crate::designs::ports::entropy_bitmap as ports;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// One clock cycle of stimulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    /// Time advance before this cycle, ns.
    pub dt: u32,
    pub s_valid: bool,
    /// (entropy as on the wire, ecn)
    pub ack: Option<(u16, bool)>,
    pub choose: Option<u32>,
    /// Back-pressure: the consumer takes a result this cycle.
    pub m_ready: bool,
    /// The synchronous reset (`s_reset`): nothing is taken this cycle, everything in flight is
    /// dropped, the block starts again from its power-on state.
    pub reset: bool,
    /// Garbage driven on the data inputs when `s_valid` is low (the RTL must ignore it).
    pub noise: u64,
}

/// The coverage points; every co-sim run of enough cycles must hit each.
pub const COVERAGE_POINTS: &[&str] = &[
    "ack_ecn",
    "ack_clean",
    "ack_malformed",
    "ack_and_choose_same_event",
    "choose_next_path",
    "choose_scan_start_clear",
    "choose_scan_skip_and_clear",
    "choose_all_set",
    "scan_wrap",
    "paths_min_8",
    "paths_max",
    "paths_between",
    "periodic_reset",
    "idle_cycle",
    "back_pressure",
    "time_wrap",
    "reset_in_flight",
    "reset_under_back_pressure",
    "offered_on_reset",
    "reset_with_state",
];

/// Registered outputs of one event, as ports.
#[derive(Debug, Clone, Default)]
pub struct Regs {
    choice_valid: u64,
    entropy: u64,
    source: u64,
    cleared_valid: u64,
    cleared: u64,
    paths: u64,
    reset: u64,
    ack_ignored: u64,
    /// The model's malformed-ACK count after this event (the status port once it is shown).
    bad_after: u64,
}

fn regs_of(o: &model::Out, bad_after: u64) -> Regs {
    let mut r = Regs {
        reset: o.reset as u64,
        ack_ignored: o.ack_ignored as u64,
        bad_after,
        ..Regs::default()
    };
    if let Some(c) = o.choice {
        r.choice_valid = 1;
        r.entropy = c.entropy as u64;
        r.source = match c.source {
            Source::NextPath => 0,
            Source::Scan => 1,
            Source::AllSet => 2,
        };
        if let Some(b) = c.cleared {
            r.cleared_valid = 1;
            r.cleared = b as u64;
        }
        r.paths = c.paths.unwrap_or(0) as u64;
    }
    r
}

/// The golden model on the co-sim's side.
pub struct Block(pub EntropyBitmap);

impl Block {
    pub fn new(params: &model::Params) -> Self {
        Block(EntropyBitmap::new(params.clone()))
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    const LATENCY: usize = crate::designs::EntropyBitmapDefault::LATENCY as usize;

    fn dt(s: &Cycle) -> u32 {
        s.dt
    }
    fn s_valid(s: &Cycle) -> bool {
        s.s_valid
    }
    fn m_ready(s: &Cycle) -> bool {
        s.m_ready
    }

    fn resets(s: &Cycle) -> bool {
        s.reset
    }

    fn reset(&mut self, _s: &Cycle, _dropped: &[&Regs], cov: &mut Coverage) {
        // The reset matters: the state it clears is not the power-on state already.
        if self.0 != EntropyBitmap::new(self.0.params().clone()) {
            cov.hit("reset_with_state");
        }
        self.0.reset();
    }

    fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
        dut.set(ports::S_RESET, c.reset as u64);
        dut.set(ports::S_VALID, c.s_valid as u64);
        dut.set(ports::M_READY, c.m_ready as u64);
        if c.s_valid {
            dut.set(ports::S_NOW, now as u64);
            dut.set(ports::S_ACK_VALID, c.ack.is_some() as u64);
            dut.set(ports::S_ACK_ENTROPY, c.ack.map_or(0, |a| a.0) as u64);
            dut.set(ports::S_ACK_ECN, c.ack.is_some_and(|a| a.1) as u64);
            dut.set(ports::S_CHOOSE_VALID, c.choose.is_some() as u64);
            dut.set(ports::S_CWND_PACKETS, c.choose.unwrap_or(0) as u64);
        } else {
            let n = c.noise;
            dut.set(ports::S_NOW, n & 0xFFFF_FFFF);
            dut.set(ports::S_ACK_VALID, n >> 32 & 1);
            dut.set(ports::S_ACK_ENTROPY, n >> 33 & 0xFFFF);
            dut.set(ports::S_ACK_ECN, n >> 49 & 1);
            dut.set(ports::S_CHOOSE_VALID, n >> 50 & 1);
            dut.set(ports::S_CWND_PACKETS, n >> 51);
        }
    }

    fn expected(&self, lat: &OutputStage<Regs>, m_ready: bool) -> PortValues {
        let o = &lat.out;
        vec![
            (ports::S_READY, lat.s_ready(m_ready) as u64),
            (ports::M_VALID, lat.m_valid as u64),
            (ports::M_CHOICE_VALID, o.choice_valid),
            (ports::M_ENTROPY, o.entropy),
            (ports::M_SOURCE, o.source),
            (ports::M_CLEARED_VALID, o.cleared_valid),
            (ports::M_CLEARED, o.cleared),
            (ports::M_PATHS, o.paths),
            (ports::M_RESET, o.reset),
            (ports::M_ACK_IGNORED, o.ack_ignored),
            (ports::STATUS_BAD_ENTROPY_COUNT, lat.last.bad_after),
        ]
    }

    fn fire(&mut self, now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let m = &mut self.0;
        let input = model::In {
            now,
            ack: c.ack.map(|(e, ecn)| EcnFeedback {
                entropy: e as u32,
                ecn,
            }),
            choose: c.choose.map(|cwnd_packets| ChooseRequest { cwnd_packets }),
        };
        let wrap = c.choose.is_some_and(|cp| m.rr + 1 >= m.paths(cp));
        let max_paths = m.params().max_paths;
        let o = m.step(&input);
        cover(cov, &input, &o, max_paths, wrap);
        regs_of(&o, m.bad_entropy_count)
    }
}

fn cover(cov: &mut Coverage, i: &model::In, o: &model::Out, max_paths: u32, wrap: bool) {
    if let Some(a) = i.ack {
        cov.hit(if o.ack_ignored {
            "ack_malformed"
        } else if a.ecn {
            "ack_ecn"
        } else {
            "ack_clean"
        });
        if i.choose.is_some() {
            cov.hit("ack_and_choose_same_event");
        }
    }
    if o.reset {
        cov.hit("periodic_reset");
    }
    if let Some(c) = o.choice {
        match (c.source, c.cleared) {
            (Source::NextPath, _) => cov.hit("choose_next_path"),
            (Source::AllSet, _) => cov.hit("choose_all_set"),
            (Source::Scan, None) => cov.hit("choose_scan_start_clear"),
            (Source::Scan, Some(_)) => cov.hit("choose_scan_skip_and_clear"),
        }
        if let Some(p) = c.paths {
            cov.hit(if p == 8 {
                "paths_min_8"
            } else if p == max_paths {
                "paths_max"
            } else {
                "paths_between"
            });
            if wrap {
                cov.hit("scan_wrap");
            }
        }
    }
}

// ------------------------------------------------------------------ stimulus

fn cwnd_corner(max_paths: u32) -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        1u32..=4,
        5u32..(max_paths / 2).max(6),
        (max_paths / 2)..=max_paths,
        Just(u32::MAX),
    ]
}

fn entropy_corner(max_paths: u32) -> impl Strategy<Value = u16> {
    let mp = max_paths as u16;
    prop_oneof![
        12 => 0..mp,
        1 => Just(mp - 1),
        1 => Just(mp),
        1 => mp..=u16::MAX,
    ]
}

fn random_cycle(max_paths: u32) -> impl Strategy<Value = Cycle> {
    (
        prop_oneof![4 => 0u32..200, 1 => 200u32..3_000],
        prop::bool::weighted(0.8),
        prop::option::weighted(0.6, (entropy_corner(max_paths), prop::bool::weighted(0.4))),
        prop::option::weighted(0.6, cwnd_corner(max_paths)),
        prop::bool::weighted(0.8),
        any::<u64>(),
    )
        .prop_map(|(dt, s_valid, ack, choose, m_ready, noise)| Cycle {
            dt,
            s_valid,
            ack,
            choose,
            m_ready,
            reset: false,
            noise,
        })
}

/// Random cycles ending in a reset: the last three offer events (some still in the pipeline at
/// the reset's edge); `stalled`, the consumer refuses results over those and the reset cycle
/// (a result held under back-pressure is dropped); `offered`, the reset cycle offers an event
/// too (not taken); `held`, the reset lasts two cycles.
fn reset_phase(max_paths: u32) -> impl Strategy<Value = Vec<Cycle>> {
    (
        prop::collection::vec(random_cycle(max_paths), 3..40),
        random_cycle(max_paths),
        any::<bool>(),
        any::<bool>(),
        prop::bool::weighted(0.25),
    )
        .prop_map(|(mut v, mut r, stalled, offered, held)| {
            let n = v.len();
            for c in v.iter_mut().skip(n - 3) {
                c.s_valid = true;
                c.m_ready &= !stalled;
            }
            r.reset = true;
            r.s_valid = offered;
            r.m_ready &= !stalled;
            v.push(r);
            if held {
                v.push(r);
            }
            v
        })
}

/// Every entropy ECN-marked in turn (no time passes, so no reset interferes), then choices:
/// reaches the full bitmap and the all-set scan.
fn fill_all(max_paths: u32, cwnd: u32) -> Vec<Cycle> {
    let mut v: Vec<Cycle> = (0..max_paths)
        .map(|e| Cycle {
            dt: 0,
            s_valid: true,
            ack: Some((e as u16, true)),
            choose: None,
            m_ready: true,
            reset: false,
            noise: 0,
        })
        .collect();
    v.extend((0..4).map(|_| Cycle {
        dt: 0,
        s_valid: true,
        ack: None,
        choose: Some(cwnd),
        m_ready: true,
        reset: false,
        noise: 0,
    }));
    v
}

/// Stimulus for a `max_paths` design: random phases, full-bitmap phases, stalls, idle runs and
/// resets.
pub fn stimulus(max_paths: u32, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    let phase = prop_oneof![
        6 => prop::collection::vec(random_cycle(max_paths), 20..300),
        1 => cwnd_corner(max_paths).prop_map(move |c| fill_all(max_paths, c)),
        1 => (prop::collection::vec(random_cycle(max_paths), 5..30), 1usize..20).prop_map(|(mut v, n)| {
            // a stall: the consumer refuses results for n cycles while events keep coming
            for c in v.iter_mut().take(n) {
                c.m_ready = false;
                c.s_valid = true;
            }
            v
        }),
        1 => (1u32..2_000).prop_map(|k| vec![Cycle { dt: u32::MAX - k, s_valid: false, ack: None, choose: None, m_ready: true, reset: false, noise: 0 }]),
        1 => reset_phase(max_paths),
    ];
    let phases = (len.start / 100).max(1)..(len.end / 100).max(2);
    prop::collection::vec(phase, phases).prop_map(|v| v.into_iter().flatten().collect())
}

/// A replay trace (`docs/trace-format.md`) as co-sim stimulus: one event per line, every
/// result taken at once. `width` gives an input port's width: a field the port cannot carry
/// is refused (`Err((index of the line, message))`), since the RTL would see another value.
pub fn from_trace(
    inputs: &[model::In],
    width: &dyn Fn(&str) -> u32,
) -> Result<Vec<Cycle>, (usize, String)> {
    crate::trace_steps(inputs, |e| e.now)
        .map(|(i, e, dt)| {
            let ack = match e.ack {
                Some(a) => {
                    crate::fits(
                        "ack.entropy",
                        a.entropy.into(),
                        width(ports::S_ACK_ENTROPY.0),
                    )
                    .map_err(|m| (i, m))?;
                    Some((a.entropy as u16, a.ecn))
                }
                None => None,
            };
            if let Some(c) = e.choose {
                crate::fits(
                    "choose.cwnd_packets",
                    c.cwnd_packets.into(),
                    width(ports::S_CWND_PACKETS.0),
                )
                .map_err(|m| (i, m))?;
            }
            Ok(Cycle {
                dt,
                s_valid: true,
                ack,
                choose: e.choose.map(|c| c.cwnd_packets),
                m_ready: true,
                reset: false,
                noise: 0,
            })
        })
        .collect()
}
