//! `strackgen cosim`: co-simulate any config's RTL against the golden model.
//!
//! Each requested block is Verilated for the config on demand ([`crate::dynamic`], cached) and
//! run against its golden model with the same drivers, stimulus and comparison as the tests:
//! random stimulus from the block's strategy (seeded), or a trace in the replay format
//! (`docs/trace-format.md`), one trace line per event. Every output port is compared on every
//! cycle. On a mismatch: the first mismatch's report, the waves of the window around it (FST),
//! a GTKWave save file naming the block's handshake and the ports that differ, and the command
//! that opens them.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use golden_model::Config;
use serde::Serialize;

use crate::configs::{NIC_SENDER_INITIAL_BYTES, SACK_INITIAL_PSN};
use crate::dynamic::{self, Design, Toolchain};
use crate::{
    cwnd_unit, entropy_bitmap, fixed_stimulus, load_table, nic, run_observed, CosimBlock, Mismatch,
    Observe, VCD_WINDOW, WAVES_AFTER,
};

/// The blocks `strackgen cosim` co-simulates: the package's cores.
pub const BLOCKS: &[&str] = &["entropy_bitmap", "cwnd_unit", "nic", "load_table"];

/// The blocks a trace can drive (the NIC's trace lines offer events that the co-sim's NIC
/// driver, which holds an offer until it is taken, cannot replay as written).
pub const TRACE_BLOCKS: &[&str] = &["entropy_bitmap", "cwnd_unit", "load_table"];

/// Most cycles one run compares: the stimulus is held in memory (about 200 bytes a cycle for
/// the NIC).
pub const MAX_CYCLES: u64 = 20_000_000;

/// What to co-simulate.
#[derive(Debug, Clone)]
pub struct Request {
    pub cfg: Config,
    pub blocks: Vec<String>,
    pub cycles: u64,
    pub seed: u64,
    /// A trace (replay format) instead of random stimulus: its path, as given, and its text.
    pub trace: Option<(String, String)>,
    /// Waves of the whole run to this file (one block only).
    pub waves: Option<PathBuf>,
    /// Where a mismatch's waves and save file go.
    pub out: PathBuf,
    pub toolchain: Toolchain,
    /// A fault injected into the generated RTL (the self-test of the verb: a broken design
    /// must fail); `None` for a user's run.
    pub fault: Option<hdl::Fault>,
}

/// Why a request was refused or could not run (a mismatch is not an error: see [`Outcome`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Build(#[from] dynamic::BuildError),
    /// The caller's output failed.
    #[error("{0}")]
    Output(String),
    #[error("{path}: {err}")]
    Io { path: String, err: std::io::Error },
    #[error("{trace}, line {line}: {message}")]
    Trace {
        trace: String,
        line: usize,
        message: String,
    },
}

/// A mismatch, and the files written to look at it.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    pub cycle: u64,
    /// The report: the cycle, its inputs, every port expected and actual.
    pub report: String,
    /// The ports that differ.
    pub ports: Vec<String>,
    pub waves: Option<String>,
    pub save_file: Option<String>,
    /// The command that opens the waves with the save file.
    pub open: Option<String>,
}

/// One block's run.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub block: String,
    /// The design's cache entry (`<block>-<key>`).
    pub design: String,
    /// Built by this run (false: found in the cache).
    pub built: bool,
    pub build_seconds: f64,
    pub stimulus: String,
    pub cycles: u64,
    pub events: u64,
    pub run_seconds: f64,
    /// Coverage points reached, of those this design can reach.
    pub coverage_hit: usize,
    pub coverage_points: usize,
    pub coverage: std::collections::BTreeMap<String, u64>,
    pub not_reached: Vec<String>,
    pub failure: Option<Failure>,
}

/// Gives a block's progress callback, from its name and its cycles; the callback hears the
/// cycles done.
pub type Progress<'a> = &'a dyn Fn(&str, u64) -> Box<dyn Fn(u64)>;

/// A block's reading of a trace: the model's inputs and a port-width lookup to its stimulus,
/// or the index of the line it refused and why.
pub type FromTrace<I, S> = fn(&[I], &dyn Fn(&str) -> u32) -> Result<Vec<S>, (usize, String)>;

/// Check a request before anything is built.
pub fn check(req: &Request) -> Result<(), Error> {
    for b in &req.blocks {
        if !BLOCKS.contains(&b.as_str()) {
            return Err(Error::Usage(format!(
                "--block {b}: not a co-simulated block; the blocks are {}",
                BLOCKS.join(", ")
            )));
        }
        if req.trace.is_some() && !TRACE_BLOCKS.contains(&b.as_str()) {
            return Err(Error::Usage(format!(
                "--trace with --block {b}: a trace drives {} (the NIC is co-simulated with its \
                 random, closed-loop stimulus)",
                TRACE_BLOCKS.join(", ")
            )));
        }
    }
    if req.trace.is_some() && req.blocks.len() != 1 {
        return Err(Error::Usage(
            "--trace needs --block: a trace is one block's".into(),
        ));
    }
    if req.waves.is_some() && req.blocks.len() != 1 {
        return Err(Error::Usage(
            "--waves needs --block: one block's waves go to one file".into(),
        ));
    }
    if let Some(w) = &req.waves {
        if w.extension().is_none_or(|e| e != "fst") {
            return Err(Error::Usage(format!(
                "--waves {}: the waves are FST; name the file *.fst",
                w.display()
            )));
        }
    }
    if req.trace.is_none() && !(1..=MAX_CYCLES).contains(&req.cycles) {
        return Err(Error::Usage(format!(
            "--cycles {}: must be 1 to {MAX_CYCLES}",
            req.cycles
        )));
    }
    Ok(())
}

/// Run every requested block; `say` hears what is being built, `bar` gives a progress callback
/// per block (from its name and cycles; called with the cycles done), `done` hears each block's
/// outcome as it finishes (an error from it stops the run).
pub fn run(
    req: &Request,
    say: &mut dyn FnMut(&str),
    bar: Progress,
    done: &mut dyn FnMut(&Outcome) -> Result<(), String>,
) -> Result<Vec<Outcome>, Error> {
    check(req)?;
    std::fs::create_dir_all(&req.toolchain.cache).map_err(|err| Error::Io {
        path: req.toolchain.cache.display().to_string(),
        err,
    })?;
    let mut outcomes = Vec::new();
    for block in &req.blocks {
        let opts = hdl::Options {
            fault: req.fault,
            // The NIC's connections start near the PSN and byte-count wraps, as in the tests,
            // so that a run reaches them.
            initial_psn: if block == "nic" { SACK_INITIAL_PSN } else { 0 },
            initial_bytes: if block == "nic" {
                NIC_SENDER_INITIAL_BYTES
            } else {
                0
            },
        };
        let t0 = std::time::Instant::now();
        let design = dynamic::build(block, &req.cfg, &opts, &req.toolchain, say)?;
        let build_seconds = t0.elapsed().as_secs_f64();
        let o = one(req, block, design, build_seconds, bar)?;
        done(&o).map_err(Error::Output)?;
        outcomes.push(o);
    }
    Ok(outcomes)
}

fn one(
    req: &Request,
    block: &str,
    design: Arc<Design>,
    build_seconds: f64,
    bar: Progress,
) -> Result<Outcome, Error> {
    let cfg = &req.cfg;
    let n = req.cycles as usize;
    let seed = req.seed;
    let lines = match &req.trace {
        Some((name, text)) => Some(trace_lines(name, text)?),
        None => None,
    };
    let ctx = Ctx {
        req,
        design: &design,
        build_seconds,
        bar,
    };
    match block {
        "entropy_bitmap" => {
            let p = golden_model::entropy_bitmap::Params::from_config(cfg);
            let stim = match lines {
                Some(l) => traced(req, &l, &design, entropy_bitmap::from_trace)?,
                None => fixed_stimulus(
                    entropy_bitmap::stimulus(p.max_paths, 5_000..15_000),
                    n,
                    seed,
                ),
            };
            ctx.go(|| entropy_bitmap::Block::new(&p), 0, &stim)
        }
        "cwnd_unit" => {
            let stim = match lines {
                Some(l) => traced(req, &l, &design, cwnd_unit::from_trace)?,
                None => fixed_stimulus(
                    cwnd_unit::stimulus(cwnd_unit::Scale::of(cfg), 5_000..15_000),
                    n,
                    seed,
                ),
            };
            ctx.go(|| cwnd_unit::Block::new(cfg), 0, &stim)
        }
        "load_table" => {
            let stim = match lines {
                Some(l) => traced(req, &l, &design, load_table::from_trace)?,
                None => fixed_stimulus(load_table::stimulus(cfg, 5_000..15_000), n, seed),
            };
            ctx.go(|| load_table::Block::new(cfg), 0, &stim)
        }
        "nic" => {
            let mut stim = nic::generate(cfg, SACK_INITIAL_PSN, seed, n);
            stim.truncate(n);
            ctx.go(
                || nic::Block::new(cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES),
                0,
                &stim,
            )
        }
        _ => unreachable!("checked by `check`"),
    }
}

/// The trace's non-blank lines, numbered from 1.
fn trace_lines(name: &str, text: &str) -> Result<Vec<(usize, String)>, Error> {
    let mut v = Vec::new();
    for (i, l) in std::io::Cursor::new(text.as_bytes()).lines().enumerate() {
        let l = l.map_err(|e| Error::Trace {
            trace: name.into(),
            line: i + 1,
            message: e.to_string(),
        })?;
        if !l.trim().is_empty() {
            v.push((i + 1, l));
        }
    }
    if v.is_empty() {
        return Err(Error::Trace {
            trace: name.into(),
            line: 1,
            message: "the trace has no events".into(),
        });
    }
    Ok(v)
}

/// Parse every line as the block's model input; the first bad line is an error naming it.
fn trace_inputs<I: serde::de::DeserializeOwned>(
    req: &Request,
    lines: &[(usize, String)],
) -> Result<Vec<I>, Error> {
    let name = req.trace.as_ref().map(|t| t.0.as_str()).unwrap_or("-");
    lines
        .iter()
        .map(|(n, l)| {
            serde_json::from_str(l).map_err(|e| Error::Trace {
                trace: name.into(),
                line: *n,
                message: format!("column {}: {}", e.column(), e),
            })
        })
        .collect()
}

/// The trace's lines through the block's `from_trace`, an error naming the line it refused.
fn traced<I: serde::de::DeserializeOwned, S>(
    req: &Request,
    lines: &[(usize, String)],
    design: &Design,
    from_trace: FromTrace<I, S>,
) -> Result<Vec<S>, Error> {
    let inputs: Vec<I> = trace_inputs(req, lines)?;
    let width = |n: &str| {
        design
            .ports()
            .iter()
            .find(|p| p.name == n)
            .map_or(0, |p| p.width)
    };
    from_trace(&inputs, &width).map_err(|(i, message)| Error::Trace {
        trace: req.trace.as_ref().map_or("-".into(), |t| t.0.clone()),
        line: lines[i].0,
        message,
    })
}

struct Ctx<'a> {
    req: &'a Request,
    design: &'a Arc<Design>,
    build_seconds: f64,
    bar: Progress<'a>,
}

impl Ctx<'_> {
    fn go<B: CosimBlock>(
        &self,
        model: impl Fn() -> B,
        start_now: u32,
        stim: &[B::Stim],
    ) -> Result<Outcome, Error> {
        let d = self.design;
        let block = d.block.as_str();
        let window = self.req.out.join(format!("{block}-mismatch.fst"));
        if self.req.waves.is_none() {
            // Only a mismatch writes here; an old one must not be taken for this run's.
            let _ = std::fs::remove_file(&window);
            let _ = std::fs::remove_file(window.with_extension("gtkw"));
        } else if let Some(parent) = self.req.waves.as_ref().and_then(|w| w.parent()) {
            if !parent.as_os_str().is_empty() {
                std::fs::create_dir_all(parent).map_err(|err| Error::Io {
                    path: parent.display().to_string(),
                    err,
                })?;
            }
        }
        let progress = (self.bar)(block, stim.len() as u64);
        let obs = Observe {
            waves: self.req.waves.clone(),
            window: Some(window),
            progress: Some(&*progress),
        };
        let make = |trace: bool| {
            if trace {
                let _ = std::fs::create_dir_all(&self.req.out);
            }
            d.instance(trace)
        };
        let t0 = std::time::Instant::now();
        let r = run_observed(make, &model, start_now, stim, "cosim", &obs);
        progress(stim.len() as u64);
        let run_seconds = t0.elapsed().as_secs_f64();
        let points = model().coverage_points();
        let stimulus = match &self.req.trace {
            Some((name, _)) => format!("trace {name}"),
            None => format!("random, seed {}", self.req.seed),
        };
        let mut out = Outcome {
            block: block.into(),
            design: d
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            built: d.built,
            build_seconds: self.build_seconds,
            stimulus,
            cycles: 0,
            events: 0,
            run_seconds,
            coverage_hit: 0,
            coverage_points: points.len(),
            coverage: Default::default(),
            not_reached: Vec::new(),
            failure: None,
        };
        match r {
            Ok(rep) => {
                let missing = rep.coverage.missing(&points);
                out.cycles = rep.cycles;
                out.events = rep.events;
                out.coverage_hit = points.len() - missing.len();
                out.coverage = rep
                    .coverage
                    .0
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect();
                out.not_reached = missing.iter().map(|s| s.to_string()).collect();
            }
            Err(m) => {
                out.cycles = m.cycle;
                out.failure = Some(failure(&m, d)?);
            }
        }
        Ok(out)
    }
}

/// The files a mismatch leaves, and the command to open them.
fn failure(m: &Mismatch, d: &Design) -> Result<Failure, Error> {
    let differ: Vec<String> = m
        .ports
        .iter()
        .filter(|(_, e, a)| e != a)
        .map(|(p, _, _)| p.to_string())
        .collect();
    let waves = m.vcd.as_ref().filter(|p| p.is_file());
    let (save_file, open) = match waves {
        Some(w) => {
            let save = w.with_extension("gtkw");
            std::fs::write(&save, gtkw(w, d, &differ, m.cycle)).map_err(|err| Error::Io {
                path: save.display().to_string(),
                err,
            })?;
            let open = format!("gtkwave {} {}", w.display(), save.display());
            (Some(save.display().to_string()), Some(open))
        }
        None => (None, None),
    };
    Ok(Failure {
        cycle: m.cycle,
        report: m.to_string(),
        ports: differ,
        waves: waves.map(|w| w.display().to_string()),
        save_file,
        open,
    })
}

/// A GTKWave save file: the waves, the time of the mismatch marked, and the signals to look
/// at first: clock and handshake, the inputs, then the ports that differ.
fn gtkw(waves: &Path, d: &Design, differ: &[String], cycle: u64) -> String {
    use std::fmt::Write as _;
    // The harness's clock: 10 time units a cycle, inputs settle at 10 * cycle.
    let t = 10 * cycle;
    let mut s = String::new();
    let _ = writeln!(s, "[dumpfile] \"{}\"", waves.display());
    let _ = writeln!(s, "[timestart] {}", t.saturating_sub(200));
    let _ = writeln!(
        s,
        "*-3.000000 {t} -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1"
    );
    let _ = writeln!(s, "[treeopen] top.");
    let sig = |s: &mut String, p: &crate::PortInfo| {
        if p.width == 1 {
            let _ = writeln!(s, "@28\ntop.{}", p.name);
        } else {
            let _ = writeln!(s, "@22\ntop.{}[{}:0]", p.name, p.width - 1);
        }
    };
    let ports = d.ports();
    let handshake = |n: &str| {
        n == "clock" || n.ends_with("valid") || n.ends_with("ready") || n.ends_with("reset")
    };
    let _ = writeln!(s, "@200\n-clock and handshake");
    for p in ports.iter().filter(|p| handshake(p.name)) {
        sig(&mut s, p);
    }
    let _ = writeln!(s, "@200\n-ports that differ at the mismatch");
    for p in ports.iter().filter(|p| differ.iter().any(|d| d == p.name)) {
        sig(&mut s, p);
    }
    let _ = writeln!(s, "@200\n-inputs");
    for p in ports.iter().filter(|p| !p.output && !handshake(p.name)) {
        sig(&mut s, p);
    }
    let _ = writeln!(
        s,
        "@200\n-(the waves: {VCD_WINDOW} cycles before the mismatch, {WAVES_AFTER} after)"
    );
    s
}
