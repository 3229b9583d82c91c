//! Co-simulation of `entropy_bitmap`: stimulus, coverage and the comparison loop.

use std::collections::BTreeMap;

use golden_model::entropy_bitmap::{
    self as model, ChooseRequest, EcnFeedback, EntropyBitmap, Source,
};
use proptest::prelude::*;

use crate::{compare, vcd_always, vcd_dir, Dut, Latency1, Mismatch, PortValues};

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
];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage(pub BTreeMap<&'static str, u64>);

impl Coverage {
    fn hit(&mut self, p: &'static str) {
        debug_assert!(COVERAGE_POINTS.contains(&p), "{p}");
        *self.0.entry(p).or_default() += 1;
    }
    pub fn merge(&mut self, o: &Coverage) {
        for (k, v) in &o.0 {
            *self.0.entry(k).or_default() += v;
        }
    }
    /// The points never hit.
    pub fn missing(&self) -> Vec<&'static str> {
        COVERAGE_POINTS
            .iter()
            .copied()
            .filter(|p| self.0.get(p).copied().unwrap_or(0) == 0)
            .collect()
    }
}

#[derive(Debug, Clone, Default)]
pub struct Report {
    pub cycles: u64,
    pub events: u64,
    pub coverage: Coverage,
}

/// Registered outputs of one event, as ports.
#[derive(Debug, Clone, Default)]
struct Regs {
    choice_valid: u64,
    entropy: u64,
    source: u64,
    cleared_valid: u64,
    cleared: u64,
    paths: u64,
    reset: u64,
    ack_ignored: u64,
}

fn regs_of(o: &model::Out) -> Regs {
    let mut r = Regs {
        reset: o.reset as u64,
        ack_ignored: o.ack_ignored as u64,
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

fn expected(lat: &Latency1<Regs>, m_ready: bool, bad_count: u64) -> PortValues {
    let o = &lat.out;
    vec![
        ("s_ready", lat.s_ready(m_ready) as u64),
        ("m_valid", lat.m_valid as u64),
        ("m_choice_valid", o.choice_valid),
        ("m_entropy", o.entropy),
        ("m_source", o.source),
        ("m_cleared_valid", o.cleared_valid),
        ("m_cleared", o.cleared),
        ("m_paths", o.paths),
        ("m_reset", o.reset),
        ("m_ack_ignored", o.ack_ignored),
        ("status_bad_entropy_count", bad_count),
    ]
}

fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
    dut.set("s_valid", c.s_valid as u64);
    dut.set("m_ready", c.m_ready as u64);
    if c.s_valid {
        dut.set("s_now", now as u64);
        dut.set("s_ack_valid", c.ack.is_some() as u64);
        dut.set("s_ack_entropy", c.ack.map_or(0, |a| a.0) as u64);
        dut.set("s_ack_ecn", c.ack.is_some_and(|a| a.1) as u64);
        dut.set("s_choose_valid", c.choose.is_some() as u64);
        dut.set("s_cwnd_packets", c.choose.unwrap_or(0) as u64);
    } else {
        let n = c.noise;
        dut.set("s_now", n & 0xFFFF_FFFF);
        dut.set("s_ack_valid", n >> 32 & 1);
        dut.set("s_ack_entropy", n >> 33 & 0xFFFF);
        dut.set("s_ack_ecn", n >> 49 & 1);
        dut.set("s_choose_valid", n >> 50 & 1);
        dut.set("s_cwnd_packets", n >> 51);
    }
}

/// Run `stim` through a fresh `dut` and a fresh model; compare every output port every cycle.
/// On a mismatch the run is repeated with a VCD, whose path the mismatch carries.
pub fn run<D: Dut>(
    make: impl Fn(bool) -> D,
    params: &model::Params,
    start_now: u32,
    stim: &[Cycle],
    tag: &str,
) -> Result<Report, Box<Mismatch>> {
    let trace = vcd_always();
    match run_once(&mut make(trace), params, start_now, stim, tag, trace) {
        Ok(r) => Ok(r),
        Err(m) if trace => Err(m),
        Err(_) => Err(
            run_once(&mut make(true), params, start_now, stim, tag, true)
                .expect_err("a mismatch repeats"),
        ),
    }
}

fn run_once(
    dut: &mut dyn Dut,
    params: &model::Params,
    start_now: u32,
    stim: &[Cycle],
    tag: &str,
    trace: bool,
) -> Result<Report, Box<Mismatch>> {
    let vcd = trace.then(|| vcd_dir().join(format!("{}-{tag}.vcd", dut.name())));
    if let Some(p) = &vcd {
        dut.trace_open(p);
    }
    let mut m = EntropyBitmap::new(params.clone());
    let mut lat: Latency1<Regs> = Latency1::default();
    let mut rep = Report::default();
    let mut now = start_now;
    for (cycle, c) in stim.iter().enumerate() {
        let before = now;
        now = now.wrapping_add(c.dt);
        if now < before {
            rep.coverage.hit("time_wrap");
        }
        drive(dut, now, c);
        dut.settle();
        if let Err(ports) = compare(dut, &expected(&lat, c.m_ready, m.bad_entropy_count)) {
            dut.trace_close();
            return Err(Box::new(Mismatch {
                design: dut.name(),
                cycle: cycle as u64,
                inputs: format!("now={now} {c:?}"),
                ports,
                vcd: vcd.clone(),
            }));
        }
        let ready = lat.s_ready(c.m_ready);
        if !c.s_valid {
            rep.coverage.hit("idle_cycle");
        }
        if lat.m_valid && !c.m_ready {
            rep.coverage.hit("back_pressure");
        }
        let fired = if c.s_valid && ready {
            let input = model::In {
                now,
                ack: c.ack.map(|(e, ecn)| EcnFeedback {
                    entropy: e as u32,
                    ecn,
                }),
                choose: c.choose.map(|cwnd_packets| ChooseRequest { cwnd_packets }),
            };
            let wrap = m.next_path.is_none()
                && c.choose.is_some_and(|cp| m.rr + 1 >= m.paths(cp))
                && !c
                    .ack
                    .is_some_and(|(e, ecn)| !ecn && (e as u32) < params.max_paths);
            let o = m.step(&input);
            rep.events += 1;
            cover(&mut rep.coverage, &input, &o, params.max_paths, wrap);
            Some(regs_of(&o))
        } else {
            None
        };
        lat.clock(c.m_ready, fired);
        dut.posedge();
        rep.cycles += 1;
    }
    dut.trace_close();
    Ok(rep)
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
            noise,
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
            noise: 0,
        })
        .collect();
    v.extend((0..4).map(|_| Cycle {
        dt: 0,
        s_valid: true,
        ack: None,
        choose: Some(cwnd),
        m_ready: true,
        noise: 0,
    }));
    v
}

/// Stimulus for a `max_paths` design: random phases, full-bitmap phases, stalls and idle runs.
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
        1 => (1u32..2_000).prop_map(|k| vec![Cycle { dt: u32::MAX - k, s_valid: false, ack: None, choose: None, m_ready: true, noise: 0 }]),
    ];
    let phases = (len.start / 100).max(1)..(len.end / 100).max(2);
    prop::collection::vec(phase, phases).prop_map(|v| v.into_iter().flatten().collect())
}

/// Drive the stimulus into the RTL alone (no model, no comparison): the bare Verilated speed.
pub fn run_bare(dut: &mut dyn Dut, start_now: u32, stim: &[Cycle]) -> u64 {
    let mut now = start_now;
    let mut acc = 0u64;
    for c in stim {
        now = now.wrapping_add(c.dt);
        drive(dut, now, c);
        dut.settle();
        acc = acc.wrapping_add(dut.get("m_entropy"));
        dut.posedge();
    }
    acc
}

/// Run the model alone on the stimulus, with the same handshake (no RTL).
pub fn run_model(params: &model::Params, start_now: u32, stim: &[Cycle]) -> u64 {
    let mut m = EntropyBitmap::new(params.clone());
    let mut lat: Latency1<Regs> = Latency1::default();
    let mut now = start_now;
    let mut acc = 0u64;
    for c in stim {
        now = now.wrapping_add(c.dt);
        let fired = (c.s_valid && lat.s_ready(c.m_ready)).then(|| {
            regs_of(&m.step(&model::In {
                now,
                ack: c.ack.map(|(e, ecn)| EcnFeedback {
                    entropy: e as u32,
                    ecn,
                }),
                choose: c.choose.map(|cwnd_packets| ChooseRequest { cwnd_packets }),
            }))
        });
        lat.clock(c.m_ready, fired);
        acc = acc.wrapping_add(lat.out.entropy);
    }
    acc
}

/// Deterministic stimulus of about `cycles` cycles from the proptest strategy (for the demo and
/// the benchmark, which are not tests).
pub fn fixed_stimulus(max_paths: u32, cycles: usize, seed: u8) -> Vec<Cycle> {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let mut v = Vec::with_capacity(cycles);
    while v.len() < cycles {
        v.extend(
            stimulus(max_paths, 5_000..15_000)
                .new_tree(&mut runner)
                .unwrap()
                .current(),
        );
    }
    v.truncate(cycles);
    v
}
