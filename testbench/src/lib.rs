//! Cycle-by-cycle co-simulation of the generated RTL (Verilated, through our own binding in
//! `build.rs`) against the golden model.
//!
//! A co-sim run drives the same stimulus into the RTL and into a cycle-level wrapper of the
//! model (an [`OutputStage`] behind a [`DelayLine`] of the block's latency), and compares **every output port on every
//! cycle**. The first mismatch is reported with the cycle number, the inputs of that cycle,
//! the expected and actual value of every output port, and a VCD of the failing run
//! (`STRACK_VCD=1` traces every run).

pub mod configs;
pub mod context_pipe;
pub mod cosim;
pub mod cwnd_unit;
pub mod designs;
pub mod dynamic;
pub mod entropy_bitmap;
pub mod env;
pub mod load;
pub mod load_table;
pub mod nic;
pub mod nic_cwnd;
pub mod nic_entropy;
pub mod nic_rx;
pub mod nic_sender;
pub mod nic_tx;
pub mod sack_receiver;
pub mod sack_sender;
pub mod traffic;
pub mod tx_sched;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A port of a Verilated design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortInfo {
    pub name: &'static str,
    pub output: bool,
    pub width: u32,
}

/// What the harness needs of a Verilated design; implemented by the generated bindings.
pub trait Dut {
    fn name(&self) -> &'static str;
    fn ports(&self) -> &'static [PortInfo];
    fn eval(&mut self);
    fn time(&mut self) -> &mut u64;
    fn trace_open(&mut self, path: &Path) -> bool;
    fn trace_dump(&mut self, t: u64);
    fn trace_close(&mut self);
    /// Set a narrow (<= 64-bit) input.
    fn set(&mut self, port: &str, v: u64);
    /// Read a narrow (<= 64-bit) output.
    fn get(&self, port: &str) -> u64;
    /// Set a wide (> 64-bit) input, 32-bit words, least significant first.
    fn set_words(&mut self, port: &str, w: &[u32]);
    /// Read a wide (> 64-bit) output, 32-bit words, least significant first.
    fn get_words(&self, port: &str) -> Vec<u32>;

    /// Settle the combinational logic with the clock low (inputs already set).
    fn settle(&mut self) {
        self.set("clock", 0);
        self.eval();
        let t = *self.time();
        self.trace_dump(t);
    }

    /// One rising edge, then the clock back low.
    fn posedge(&mut self) {
        self.set("clock", 1);
        self.eval();
        *self.time() += 5;
        let t = *self.time();
        self.trace_dump(t);
        self.set("clock", 0);
        self.eval();
        *self.time() += 5;
    }
}

/// The output stage of a block with a valid/ready handshake: `s_ready = !m_valid | m_ready`;
/// a result that reaches it is presented until taken; when the stage advances without one,
/// every output field reads 0. (With latency 1 an accepted event's result reaches it at the
/// next edge; deeper blocks put a [`DelayLine`] in front.)
#[derive(Debug, Clone, Default)]
pub struct OutputStage<E: Clone + Default> {
    pub m_valid: bool,
    pub out: E,
    /// The last result that reached the output stage (kept through bubbles): what a status
    /// port counted up to the event on `m_*` still shows once `m_valid` drops.
    pub last: E,
}

impl<E: Clone + Default> OutputStage<E> {
    pub fn s_ready(&self, m_ready: bool) -> bool {
        !self.m_valid || m_ready
    }

    /// The clock edge: `fired` is the result of the event accepted this cycle, if any.
    pub fn clock(&mut self, m_ready: bool, fired: Option<E>) {
        if self.s_ready(m_ready) {
            match fired {
                Some(e) => {
                    self.m_valid = true;
                    self.last = e.clone();
                    self.out = e;
                }
                None => {
                    self.m_valid = false;
                    self.out = E::default();
                }
            }
        }
    }
}

/// The stages of a pipeline before its output stage (`LATENCY - 1` of them); they shift when
/// the output stage advances.
#[derive(Debug, Clone)]
pub struct DelayLine<E>(std::collections::VecDeque<Option<E>>);

impl<E> DelayLine<E> {
    pub fn new(latency: usize) -> Self {
        DelayLine((1..latency.max(1)).map(|_| None).collect())
    }
    /// Shift in this cycle's result; out comes the one that reaches the output stage.
    pub fn shift(&mut self, e: Option<E>) -> Option<E> {
        self.0.push_back(e);
        self.0.pop_front().flatten()
    }
}

/// Expected output port values of one cycle, by name.
pub type PortValues = Vec<(&'static str, u64)>;

/// A co-sim failure: everything needed to see what went wrong.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub design: &'static str,
    pub cycle: u64,
    pub inputs: String,
    /// (port, expected, actual) for every output port.
    pub ports: Vec<(&'static str, u64, u64)>,
    pub vcd: Option<PathBuf>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        let _ = writeln!(s, "{}: first mismatch at cycle {}", self.design, self.cycle);
        let _ = writeln!(s, "  inputs: {}", self.inputs);
        let _ = writeln!(
            s,
            "  {:<28} {:>20} {:>20}",
            "port", "expected (model)", "actual (RTL)"
        );
        for (p, e, a) in &self.ports {
            let mark = if e != a { "  <-- differs" } else { "" };
            let _ = writeln!(s, "  {p:<28} {e:>20} {a:>20}{mark}");
        }
        match &self.vcd {
            Some(p) => {
                let _ = writeln!(s, "  VCD: {}", p.display());
            }
            None => {
                let _ = writeln!(s, "  VCD: not written");
            }
        }
        f.write_str(&s)
    }
}

/// Compare every output port of `dut` against `expected`. `expected` must name every output
/// port of the design exactly once (checked), so no port escapes the comparison.
pub fn compare(dut: &dyn Dut, expected: &PortValues) -> Result<(), Vec<(&'static str, u64, u64)>> {
    let outputs: Vec<&PortInfo> = dut.ports().iter().filter(|p| p.output).collect();
    let chunks: usize = outputs.iter().map(|p| p.width.div_ceil(64) as usize).sum();
    assert_eq!(
        chunks,
        expected.len(),
        "{}: the model wrapper gives {} output values for {} output ports ({} 64-bit chunks)",
        dut.name(),
        expected.len(),
        outputs.len(),
        chunks
    );
    let mut rows = Vec::with_capacity(expected.len());
    let mut bad = false;
    for p in outputs {
        // A wide port is compared as 64-bit chunks, least significant first; `expected`
        // names it once per chunk.
        let want: Vec<u64> = expected
            .iter()
            .filter(|(n, _)| *n == p.name)
            .map(|(_, v)| *v)
            .collect();
        let got: Vec<u64> = if p.width > 64 {
            dut.get_words(p.name)
                .chunks(2)
                .map(|c| c[0] as u64 | (c.get(1).copied().unwrap_or(0) as u64) << 32)
                .collect()
        } else {
            vec![dut.get(p.name)]
        };
        assert_eq!(
            want.len(),
            got.len(),
            "{}: {} expected value(s) for output {} ({} bits)",
            dut.name(),
            want.len(),
            p.name,
            p.width
        );
        for (e, a) in want.into_iter().zip(got) {
            bad |= e != a;
            rows.push((p.name, e, a));
        }
    }
    if bad {
        Err(rows)
    } else {
        Ok(())
    }
}

/// How often each coverage point was hit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage(pub std::collections::BTreeMap<&'static str, u64>);

impl Coverage {
    pub fn hit(&mut self, p: &'static str) {
        *self.0.entry(p).or_default() += 1;
    }
    pub fn merge(&mut self, o: &Coverage) {
        for (k, v) in &o.0 {
            *self.0.entry(k).or_default() += v;
        }
    }
    /// The points of `all` never hit.
    pub fn missing(&self, all: &[&'static str]) -> Vec<&'static str> {
        all.iter()
            .copied()
            .filter(|p| self.0.get(p).copied().unwrap_or(0) == 0)
            .collect()
    }
}

/// What a co-sim run measured.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub cycles: u64,
    pub events: u64,
    pub coverage: Coverage,
}

/// A block's side of the co-simulation: how one cycle of stimulus drives the RTL, and the
/// golden model wrapped to produce the expected value of every output port.
pub trait CosimBlock {
    /// One cycle of stimulus.
    type Stim: std::fmt::Debug + Clone;
    /// The result of one event as output-port values (latched by the output stage).
    type Regs: Clone + Default;
    /// Every coverage point of the block.
    const COVERAGE_POINTS: &'static [&'static str];
    /// Advances from an accepted event to its result on `m_*`. The whole pipeline advances
    /// when the output stage can (`!m_valid | m_ready`), so a stall holds every stage; a
    /// free-running pipeline is the case where `m_ready` is always true.
    const LATENCY: usize = 1;

    /// Time advance before this cycle, ns.
    fn dt(s: &Self::Stim) -> u32;
    fn s_valid(s: &Self::Stim) -> bool;
    fn m_ready(s: &Self::Stim) -> bool;
    /// Set every input port except `clock` (garbage on data inputs when `s_valid` is low).
    fn drive(dut: &mut dyn Dut, now: u32, s: &Self::Stim);
    /// Expected value of every output port this cycle.
    fn expected(&self, lat: &OutputStage<Self::Regs>, m_ready: bool) -> PortValues;
    /// Step the model for an event accepted this cycle; count coverage.
    fn fire(&mut self, now: u32, s: &Self::Stim, cov: &mut Coverage) -> Self::Regs;

    /// The coverage points this design must reach (some depend on its config): by default
    /// all of [`Self::COVERAGE_POINTS`].
    fn coverage_points(&self) -> Vec<&'static str> {
        Self::COVERAGE_POINTS.to_vec()
    }

    /// Every cycle the pipeline advances, after `fire` (`fired`: an event was accepted). For
    /// models that need to know what is still in flight (the cwnd unit's window).
    fn advance(&mut self, _fired: bool) {}

    /// Closed-loop blocks: the concrete inputs of this cycle, from the stimulus and the state
    /// the model side keeps (say, a SACK forged from its connection's state when offered).
    /// It changes nothing: an offer that is not taken is offered again. Both the RTL and the
    /// model get the result. Open-loop blocks: the stimulus as it is.
    fn resolve(&self, _now: u32, s: &Self::Stim) -> Self::Stim {
        s.clone()
    }
}

/// Cycles of wave a failing run's VCD holds before the first mismatch: enough for every
/// pipeline's history, and a mismatch found late in a long run does not write gigabytes.
pub const VCD_WINDOW: u64 = 4096;

/// Cycles of wave a failing run's trace holds after the first mismatch (the RTL driven on
/// with the stimulus), so that what the mismatch led to is in view.
pub const WAVES_AFTER: u64 = 16;

/// What a run writes besides its verdict, and who hears its progress.
#[derive(Default)]
pub struct Observe<'a> {
    /// Waves of the whole run to this file.
    pub waves: Option<PathBuf>,
    /// On a mismatch, the window's waves (the [`VCD_WINDOW`] cycles before it, [`WAVES_AFTER`]
    /// after) go to this file; by default `target/vcd/<design>-<tag>.vcd`.
    pub window: Option<PathBuf>,
    /// Called with the cycles compared so far, every 4096 cycles.
    pub progress: Option<&'a dyn Fn(u64)>,
}

/// Run `stim` through a fresh RTL instance and a fresh model (`model()`); compare every output
/// port every cycle. On a mismatch the run is repeated with a VCD of the last [`VCD_WINDOW`]
/// cycles up to the mismatch, whose path the report carries (`STRACK_VCD=1`: the whole run).
pub fn run<B: CosimBlock, D: Dut>(
    make: impl Fn(bool) -> D,
    model: impl Fn() -> B,
    start_now: u32,
    stim: &[B::Stim],
    tag: &str,
) -> Result<Report, Box<Mismatch>> {
    let obs = Observe {
        waves: vcd_always().then(|| vcd_dir().join(format!("{}-{tag}.vcd", make(false).name()))),
        ..Observe::default()
    };
    run_observed(make, model, start_now, stim, tag, &obs)
}

/// [`run`], with the waves and the progress as `obs` asks.
pub fn run_observed<B: CosimBlock, D: Dut>(
    make: impl Fn(bool) -> D,
    model: impl Fn() -> B,
    start_now: u32,
    stim: &[B::Stim],
    tag: &str,
    obs: &Observe,
) -> Result<Report, Box<Mismatch>> {
    let whole = obs.waves.as_deref().map(|p| (p, 0));
    let first = run_once(
        &mut make(whole.is_some()),
        &mut model(),
        start_now,
        stim,
        whole,
        obs.progress,
    );
    match first {
        Ok(r) => Ok(r),
        Err(m) if whole.is_some() => Err(m),
        Err(m) => {
            let from = m.cycle.saturating_sub(VCD_WINDOW);
            let path = obs
                .window
                .clone()
                .unwrap_or_else(|| vcd_dir().join(format!("{}-{tag}.vcd", m.design)));
            Err(run_once(
                &mut make(true),
                &mut model(),
                start_now,
                stim,
                Some((&path, from)),
                None,
            )
            .expect_err("a mismatch repeats"))
        }
    }
}

/// One run; with `trace`, waves go to its path from its cycle on.
fn run_once<B: CosimBlock>(
    dut: &mut dyn Dut,
    m: &mut B,
    start_now: u32,
    stim: &[B::Stim],
    trace: Option<(&Path, u64)>,
    progress: Option<&dyn Fn(u64)>,
) -> Result<Report, Box<Mismatch>> {
    let vcd = trace.map(|(p, _)| p.to_path_buf());
    let mut lat: OutputStage<B::Regs> = OutputStage::default();
    let mut pipe = DelayLine::new(B::LATENCY);
    let mut rep = Report::default();
    let mut now = start_now;
    for (cycle, c) in stim.iter().enumerate() {
        if let Some((p, from)) = trace {
            if cycle as u64 == from {
                dut.trace_open(p);
            }
        }
        if let Some(f) = progress {
            if cycle % 4096 == 0 {
                f(cycle as u64);
            }
        }
        let before = now;
        now = now.wrapping_add(B::dt(c));
        if now < before {
            rep.coverage.hit("time_wrap");
        }
        let c = &m.resolve(now, c);
        B::drive(dut, now, c);
        dut.settle();
        if let Err(ports) = compare(dut, &m.expected(&lat, B::m_ready(c))) {
            let inputs = format!("now={now} {c:?}");
            if vcd.is_some() {
                // The RTL driven on a little past the mismatch, for the waves.
                dut.posedge();
                for c in stim.iter().skip(cycle + 1).take(WAVES_AFTER as usize) {
                    now = now.wrapping_add(B::dt(c));
                    B::drive(dut, now, &m.resolve(now, c));
                    dut.settle();
                    dut.posedge();
                }
            }
            dut.trace_close();
            return Err(Box::new(Mismatch {
                design: dut.name(),
                cycle: cycle as u64,
                inputs,
                ports,
                vcd: vcd.clone(),
            }));
        }
        if !B::s_valid(c) {
            rep.coverage.hit("idle_cycle");
        }
        if lat.m_valid && !B::m_ready(c) {
            rep.coverage.hit("back_pressure");
        }
        let fired = (B::s_valid(c) && lat.s_ready(B::m_ready(c))).then(|| {
            rep.events += 1;
            m.fire(now, c, &mut rep.coverage)
        });
        if lat.s_ready(B::m_ready(c)) {
            m.advance(fired.is_some());
            lat.clock(B::m_ready(c), pipe.shift(fired));
        }
        dut.posedge();
        rep.cycles += 1;
    }
    dut.trace_close();
    Ok(rep)
}

/// Random values on every narrow data input of `dut` (all but `clock`, `s_valid` and
/// `m_ready`), each masked to its width: what an idle cycle presents, none of which may be
/// taken.
pub fn garbage(dut: &mut dyn Dut, seed: u64) {
    let mut r = golden_model::rng::SplitMix64::new(seed ^ 0xDEAD);
    let ports: Vec<PortInfo> = dut.ports().to_vec();
    for p in ports {
        if p.output || p.width > 64 || ["clock", "s_valid", "m_ready"].contains(&p.name) {
            continue;
        }
        let mask = if p.width >= 64 {
            u64::MAX
        } else {
            (1 << p.width) - 1
        };
        dut.set(p.name, r.next_u64() & mask);
    }
}

/// Drive the stimulus into the RTL alone (no model, no comparison): the bare Verilated speed.
pub fn run_bare<B: CosimBlock>(dut: &mut dyn Dut, start_now: u32, stim: &[B::Stim]) -> u64 {
    let mut now = start_now;
    let mut acc = 0u64;
    // One output read a cycle, so that the evaluation is not optimized away: `m_valid`, or a
    // design's first narrow output (the composed NIC has one `m_*_valid` per side).
    let out = dut
        .ports()
        .iter()
        .filter(|p| p.output && p.width <= 64)
        .map(|p| p.name)
        .find(|n| *n == "m_valid")
        .or_else(|| {
            dut.ports()
                .iter()
                .find(|p| p.output && p.width <= 64)
                .map(|p| p.name)
        })
        .expect("a narrow output port");
    for c in stim {
        now = now.wrapping_add(B::dt(c));
        B::drive(dut, now, c);
        dut.settle();
        acc = acc.wrapping_add(dut.get(out));
        dut.posedge();
    }
    acc
}

/// The model alone through the stimulus, in the cycle-level handshake (no RTL); `each`
/// sees every cycle's resolved inputs.
fn step_model<B: CosimBlock>(
    m: &mut B,
    start_now: u32,
    stim: &[B::Stim],
    mut each: impl FnMut(B::Stim),
) -> Coverage {
    let mut lat: OutputStage<B::Regs> = OutputStage::default();
    let mut pipe = DelayLine::new(B::LATENCY);
    let mut now = start_now;
    let mut cov = Coverage::default();
    for c in stim {
        now = now.wrapping_add(B::dt(c));
        let c = m.resolve(now, c);
        let advance = lat.s_ready(B::m_ready(&c));
        let fired = (B::s_valid(&c) && advance).then(|| m.fire(now, &c, &mut cov));
        if advance {
            m.advance(fired.is_some());
            lat.clock(B::m_ready(&c), pipe.shift(fired));
        }
        each(c);
    }
    cov
}

/// Run the model alone on the stimulus, with the same handshake (no RTL).
pub fn run_model<B: CosimBlock>(m: &mut B, start_now: u32, stim: &[B::Stim]) -> u64 {
    step_model(m, start_now, stim, |_| {}).0.len() as u64
}

/// The stimulus as the RTL sees it (each cycle through [`CosimBlock::resolve`], with the model
/// stepping alongside), for driving the RTL alone in the benchmark.
pub fn resolved_stimulus<B: CosimBlock>(
    m: &mut B,
    start_now: u32,
    stim: &[B::Stim],
) -> Vec<B::Stim> {
    let mut out = Vec::with_capacity(stim.len());
    step_model(m, start_now, stim, |c| out.push(c));
    out
}

/// Deterministic stimulus of `cycles` cycles from a proptest strategy (for the demo, the
/// benchmark and `strackgen cosim`, which are not tests): the same seed, the same stimulus.
pub fn fixed_stimulus<S, T>(strategy: S, cycles: usize, seed: u64) -> Vec<T>
where
    S: proptest::strategy::Strategy<Value = Vec<T>>,
{
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut bytes = [0u8; 32];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (seed >> (8 * (i % 8))) as u8 ^ (i / 8) as u8;
    }
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let mut v = Vec::with_capacity(cycles);
    while v.len() < cycles {
        v.extend(strategy.new_tree(&mut runner).unwrap().current());
    }
    v.truncate(cycles);
    v
}

/// `v` fits a port of `bits` bits; else a message naming the trace field and the port's range.
pub fn fits(field: &str, v: u64, bits: u32) -> Result<(), String> {
    if bits >= 64 || v >> bits == 0 {
        Ok(())
    } else {
        Err(format!(
            "{field}: {v} does not fit the RTL's {bits}-bit port (0 to {})",
            (1u64 << bits) - 1
        ))
    }
}

/// Where VCDs go: `target/vcd/` of the workspace.
pub fn vcd_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let d = target.join("vcd");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// `STRACK_VCD=1` asks for a VCD of every run.
pub fn vcd_always() -> bool {
    std::env::var("STRACK_VCD").is_ok_and(|v| v == "1")
}

/// Cycles per co-sim test: `STRACK_COSIM_CYCLES` if set, else `default`.
pub fn cycles_budget(default: u64) -> u64 {
    std::env::var("STRACK_COSIM_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Drive random stimulus from `strategy` (cases of about `case_len` cycles) through
/// [`run`] until about `budget` cycles were compared; the start time is random too (so the
/// clock wraps). Failing cases shrink and are kept in `proptest-regressions/<file>.txt`.
/// Panics with the mismatch report on failure, or when a coverage point stayed at zero.
/// Returns the cycles compared and the coverage.
pub fn cosim_proptest<B, D, S>(
    name: &str,
    make: fn(bool) -> D,
    model: impl Fn() -> B,
    strategy: S,
    case_len: u64,
    budget: u64,
    regressions: &'static str,
) -> (u64, Coverage)
where
    B: CosimBlock,
    D: Dut,
    S: proptest::strategy::Strategy<Value = Vec<B::Stim>>,
{
    use proptest::prelude::*;
    use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestRunner};
    let mut runner = TestRunner::new(Config {
        // Cases vary in length: allow plenty and stop running them once the budget is met.
        cases: (4 * budget / case_len + 4) as u32,
        max_shrink_iters: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        ..Config::default()
    });
    let total = std::sync::Mutex::new((0u64, Coverage::default()));
    let start = prop_oneof![Just(0u32), any::<u32>(), Just(u32::MAX - 3_000)];
    let result = runner.run(&(strategy, start), |(stim, start)| {
        if total.lock().unwrap().0 >= budget {
            return Ok(());
        }
        let r = run(make, &model, start, &stim, "case")
            .map_err(|m| TestCaseError::fail(m.to_string()))?;
        let mut t = total.lock().unwrap();
        t.0 += r.cycles;
        t.1.merge(&r.coverage);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    let (cycles, cov) = total.into_inner().unwrap();
    println!(
        "{name}: {cycles} cycles compared, 0 mismatches, coverage {:?}",
        cov.0
    );
    assert!(
        cycles >= budget * 9 / 10,
        "{name}: only {cycles} cycles compared (budget {budget})"
    );
    let missing = cov.missing(&model().coverage_points());
    assert!(
        missing.is_empty(),
        "{name}: coverage points never hit: {missing:?}"
    );
    (cycles, cov)
}

/// The co-simulation's self-test: `broken` (an RTL built with an injected `hdl::Fault`) must
/// fail on `stim` with a full report (a differing port and a VCD), and `good` (the same design
/// without the fault) must pass on the same stimulus. Returns the report text.
pub fn assert_fault_is_caught<B: CosimBlock, D1: Dut, D2: Dut>(
    broken: fn(bool) -> D1,
    good: fn(bool) -> D2,
    model: impl Fn() -> B,
    stim: &[B::Stim],
) -> String {
    let m = run(broken, &model, 0, stim, "broken-selftest")
        .expect_err("the broken RTL passed co-simulation");
    let text = m.to_string();
    assert!(text.contains("first mismatch at cycle"), "{text}");
    assert!(text.contains("<-- differs"), "{text}");
    let vcd = m.vcd.as_ref().expect("a VCD of the failing run");
    assert!(
        std::fs::metadata(vcd)
            .map(|md| md.len() > 0)
            .unwrap_or(false),
        "{}",
        vcd.display()
    );
    run(good, &model, 0, stim, "broken-selftest-good").unwrap_or_else(|m| panic!("{m}"));
    text
}
