//! `strackgen`: the command. Verbs: `config` (check, show), `model` (replay, loopback), `formal`,
//! `schedule`, `verilog` (the package), `cosim` (RTL against the golden model), `p4`, `stf`
//! (write, run), `report` (the FPGA flows), `completions`, `man`. Usage errors exit 2 (clap's), runtime errors 1.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use golden_model::loopback::{self, LinkParams, Message, Scenario};
use golden_model::{cwnd_unit, entropy_bitmap, load_table, nic, sack_receiver, sack_sender};
use strack_config::Config;

use strackgen::{synth, xilinx};

/// What a write to standard output came to: a closed standard output ends the program quietly
/// (exit 0, as Unix tools do when the reader has gone), any other failure (a full disk) is the
/// verb's error. Every verb's printing goes through it (`outln!`, `out!`, [`write_stdout`]).
fn written(r: std::io::Result<()>) -> Result<(), String> {
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

/// `println!` without its panic ([`written`]), in functions returning `Result<_, String>`.
macro_rules! outln {
    ($($arg:tt)*) => {
        written(writeln!(std::io::stdout().lock(), $($arg)*))?
    };
}

/// `print!` the same way.
macro_rules! out {
    ($($arg:tt)*) => {
        written(write!(std::io::stdout().lock(), $($arg)*))?
    };
}

#[derive(Parser)]
#[command(
    name = "strackgen",
    version,
    about = "STrack NIC / MLCC load-table generator and golden model"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Check or show a configuration.
    #[command(subcommand)]
    Config(ConfigCmd),
    /// Run the golden model.
    #[command(subcommand)]
    Model(ModelCmd),
    /// Run the MLCC host scheduler (Algorithms 1 and 2) on a set of links and flows and print
    /// each flow's K-slot plan and the deltas its packets carry (schema: docs/scheduler.md).
    Schedule {
        /// JSON description of the links and flows (`-`: standard input).
        #[arg(long)]
        flows: PathBuf,
        #[arg(long)]
        config: Option<PathBuf>,
        /// Print the plans as JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Run the open FPGA flow (Yosys synth_ecp5, nextpnr-ecp5) on every block out of context
    /// and on the ECP5 board top, and print the timing and resource table (docs/timing.md).
    /// Takes minutes per block; progress goes to stderr.
    Report {
        #[arg(long)]
        config: Option<PathBuf>,
        /// Output directory: netlists, logs, timing.json and timing.md.
        #[arg(long, default_value = "target/report")]
        out: PathBuf,
        /// Only these blocks, comma-separated (default: every block, the NIC's pipelines
        /// (`nic_rx`, ...), and `context_pipe_wide`, the context shell at a record wider than any
        /// of the NIC's; `context_pipe` may be named too).
        #[arg(long, value_delimiter = ',')]
        blocks: Vec<String>,
        /// Leave out the ECP5 board top (fpga/ecp5_evn).
        #[arg(long, conflicts_with = "top_only")]
        no_top: bool,
        /// Run only the ECP5 board top, no block out of context.
        #[arg(long, conflicts_with = "blocks")]
        top_only: bool,
        /// Build the board top from this configuration instead of --config (`make synth`
        /// uses configs/small.toml: the default-config NIC does not fit the ECP5-85).
        #[arg(long)]
        top_config: Option<PathBuf>,
        /// The repository root, where fpga/ and constraints/ are.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Seconds between progress lines while a tool runs.
        #[arg(long, default_value_t = 20)]
        progress_secs: u64,
        /// Tool runs at a time (default: the number of cores; nextpnr uses one each).
        #[arg(long)]
        jobs: Option<usize>,
        /// Minutes each nextpnr run may take; one still running then is stopped and its row
        /// says how far it got (the cells after packing, nextpnr's estimate after placement).
        /// 0: no limit.
        #[arg(long, default_value_t = 0)]
        pnr_budget_mins: u64,
        /// The blocks' speed grade (6, 7 or 8; the LFE5U-85F's). The board top is timed at
        /// its part's, the 5G part's grade 8.
        #[arg(long, default_value_t = synth::DEFAULT_SPEED_GRADE)]
        speed: u8,
        /// Instead of the ECP5 flow: Yosys synth_xilinx for an UltraScale+ part, resource
        /// counts only (LUT, LUTRAM, FF, BRAM, DSP; no place and route), into xilinx.json and
        /// xilinx.md (default blocks: the NIC, its pipelines and `context_pipe_wide`).
        #[arg(long, conflicts_with_all = [
            "top_only", "top_config", "no_top", "root", "progress_secs", "jobs", "pnr_budget_mins",
            "speed"
        ])]
        xilinx: bool,
        /// Print the rows as JSON (as timing.json / xilinx.json hold them) instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Generate the P4_16 program of the switch load table for Tofino (TNA) or BMv2 (v1model)
    /// into DIR/load_table_<target>.p4 (p4/README.md).
    P4 {
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long, value_enum)]
        target: P4Target,
        /// Output directory (created), or `-`: the program on standard output.
        #[arg(long)]
        out: PathBuf,
        /// MAU stages the TNA program may use (Tofino 1: 12, Tofino 2: 20; default 12); a
        /// config whose estimate needs more is refused. Only with `--target tna`.
        #[arg(long)]
        tna_stages: Option<u32>,
        /// Print what was written as JSON.
        #[arg(long)]
        json: bool,
    },
    /// STF packet tests of the P4 load table: write them from the golden model, or play STF
    /// files against it.
    #[command(subcommand)]
    Stf(StfCmd),
    /// Formal checks of the RAM-pipelined blocks (docs/formal.md): each block's output
    /// conventions proven for all depths (k-induction), a shadow model of its rules checked
    /// from power-on to a depth with every input free (bounded model checking), and its broken
    /// designs (forwarding off) required to fail, each leaving a VCD counterexample. Uses
    /// Yosys, yosys-smtbmc and the Yices solver (`make deps`); a missing tool is reported as
    /// skipped (exit 0). Exit 1 when a property fails or a broken design passes.
    Formal {
        /// Blocks, comma-separated: load_table, context_pipe, context_pipe_hold (default: all).
        #[arg(long, value_delimiter = ',')]
        blocks: Vec<String>,
        /// Only the proofs of the output conventions and the broken designs (seconds; what
        /// `make test` runs), not the shadow model's bounded check.
        #[arg(long)]
        quick: bool,
        /// Depth (cycles from power-on) of the shadow model's bounded check, instead of each
        /// block's default (load_table 16, context_pipe 20, context_pipe_hold 24).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
        depth: Option<u32>,
        /// Where the models, logs and counterexamples (VCD) go.
        #[arg(long, default_value = "target/formal")]
        out: PathBuf,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Co-simulate a config's RTL against the golden model, every output port on every cycle
    /// (docs/cosim.md). Each block is Verilated for the config on first use and cached; random
    /// stimulus (seeded) or a trace in the replay format. Exit 1 on a mismatch, with its
    /// report, the waves around it and a GTKWave save file.
    Cosim {
        #[arg(long)]
        config: Option<PathBuf>,
        /// Blocks, comma-separated: entropy_bitmap, cwnd_unit, nic, load_table (default: all).
        #[arg(long, value_delimiter = ',')]
        block: Vec<String>,
        /// Cycles of random stimulus per block.
        #[arg(long, default_value_t = 100_000)]
        cycles: u64,
        /// The random stimulus's seed: the same seed, the same run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A trace in the replay format (docs/trace-format.md) instead of random stimulus, one
        /// event per line, for one --block (`-`: standard input).
        #[arg(long, conflicts_with_all = ["cycles", "seed"])]
        trace: Option<PathBuf>,
        /// Write the whole run's waves to this FST file (one --block).
        #[arg(long)]
        waves: Option<PathBuf>,
        /// Where a mismatch's waves and GTKWave save file go.
        #[arg(long, default_value = "strackgen-cosim")]
        out: PathBuf,
        /// The build cache (default: $STRACKGEN_CACHE, else $XDG_CACHE_HOME/strackgen, else
        /// ~/.cache/strackgen).
        #[arg(long)]
        cache: Option<PathBuf>,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print a shell completion script: `strackgen completions bash > /etc/bash_completion.d/strackgen`.
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Print the man page (roff) to standard output, or with --out write one page per command
    /// (strackgen.1, strackgen-verilog.1, ...) into a directory.
    Man {
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write the Verilog package: every core, the AXI-Stream wrappers and their benches, the
    /// parameter header, filelists (Verilator, Icarus, Yosys), lint waivers, a FuseSoC core,
    /// the resolved config and a manifest (docs/package.md).
    Verilog {
        #[arg(long)]
        config: Option<PathBuf>,
        /// The package's directory: new, empty, or an earlier package (replaced as a whole).
        #[arg(long)]
        out: PathBuf,
        /// Print the package's manifest as JSON instead of the files written.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum ConfigCmd {
    /// Validate a TOML configuration; errors name the field, the value and what is allowed.
    Check {
        /// The configuration (`-`: standard input); or give it with --config.
        #[arg(conflicts_with = "config", required_unless_present = "config")]
        file: Option<PathBuf>,
        /// The configuration (`-`: standard input).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Print the effective configuration (defaults and derived values filled in) as TOML.
    Show {
        /// Configuration to resolve (default: the built-in defaults; `-`: standard input).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Print the resolved config as JSON (the keys only, no derived comments).
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum StfCmd {
    /// Write DIR/<scenario>.stf for every scenario (updates, feedback, slot expiry,
    /// saturation, malformed headers, random traffic), expectations from the golden model.
    Write {
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
        /// Print the files written as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play STF files against the golden model; every expectation and counter is checked.
    Run {
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print each file's result as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Clone, Copy, ValueEnum)]
enum P4Target {
    Tna,
    V1model,
}

#[derive(Subcommand)]
enum ModelCmd {
    /// Run one input event per JSON line through a block; write one output line per event.
    Replay {
        #[arg(long, value_enum)]
        block: Block,
        /// JSON-lines trace (`-` for standard input); schema in docs/trace-format.md.
        #[arg(long)]
        trace: PathBuf,
        #[arg(long)]
        config: Option<PathBuf>,
    },
    /// Send a trace of messages from one NIC to another over a lossy, reordering model link.
    Loopback(LoopbackArgs),
}

#[derive(Args)]
struct LoopbackArgs {
    /// JSON lines of messages: {"at_ns": N, "bytes": N} (`-`: standard input).
    #[arg(long)]
    trace: PathBuf,
    #[arg(long)]
    config: Option<PathBuf>,
    /// Probability a data packet is dropped.
    #[arg(long, default_value_t = LinkParams::default().drop_data)]
    drop_data: f64,
    /// Probability a SACK is dropped.
    #[arg(long, default_value_t = LinkParams::default().drop_sack)]
    drop_sack: f64,
    /// Probability a packet on an ordinary entropy is ECN-marked.
    #[arg(long, default_value_t = LinkParams::default().ecn_prob)]
    ecn: f64,
    /// One-way delay, ns.
    #[arg(long, default_value_t = LinkParams::default().one_way_ns)]
    one_way_ns: u32,
    /// Uniform extra delay, ns (reorders packets).
    #[arg(long, default_value_t = LinkParams::default().jitter_ns)]
    jitter_ns: u32,
    /// Every N-th entropy is a congested path (0 = none).
    #[arg(long, default_value_t = LinkParams::default().hot_every)]
    hot_every: u32,
    #[arg(long, default_value_t = LinkParams::default().seed)]
    seed: u64,
    /// Simulation step, ns.
    #[arg(long, default_value_t = 10)]
    step_ns: u32,
    /// Give up after this much simulated time, ns.
    #[arg(long, default_value_t = 100_000_000)]
    time_limit_ns: u64,
    /// A bottleneck on the data path, Gb/s (0: none): data packets queue in front of it.
    #[arg(long, default_value_t = LinkParams::default().bottleneck_gbps)]
    bottleneck_gbps: f64,
    /// The bottleneck's buffer, bytes: a packet that would overflow it is dropped.
    #[arg(long, default_value_t = LinkParams::default().buffer_bytes)]
    buffer_bytes: u64,
    /// ECN-mark a packet that finds this many bytes or more queued ahead of it.
    #[arg(long, default_value_t = LinkParams::default().ecn_threshold_bytes)]
    ecn_threshold_bytes: u64,
    /// Write timeline.csv and timeline.svg (cwnd, inflight and queue depth over time) into DIR.
    #[arg(long)]
    timeline: Option<PathBuf>,
    /// The timeline's sample period, ns.
    #[arg(long, default_value_t = 1_000, requires = "timeline")]
    timeline_ns: u64,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Clone, Copy, ValueEnum)]
#[value(rename_all = "snake_case")]
enum Block {
    EntropyBitmap,
    CwndUnit,
    SackReceiver,
    SackSender,
    Nic,
    LoadTable,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Write `bytes` to standard output ([`written`]).
fn write_stdout(bytes: &[u8]) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    written(out.write_all(bytes).and_then(|_| out.flush()))?;
    Ok(ExitCode::SUCCESS)
}

/// The whole of standard input (`what` names it in the error).
fn read_stdin(what: &str) -> Result<String, String> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
        .map_err(|e| format!("cannot read the {what} from standard input: {e}"))?;
    Ok(text)
}

/// The config at `path` (`-`: standard input), or the built-in defaults.
fn load_config(path: Option<&PathBuf>) -> Result<Config, String> {
    match path {
        Some(p) if p.as_os_str() == "-" => {
            Config::from_toml_str(&read_stdin("config")?, "<stdin>").map_err(|e| e.to_string())
        }
        Some(p) => Config::from_file(&p.to_string_lossy()).map_err(|e| e.to_string()),
        None => Ok(Config::default()),
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.cmd {
        Cmd::Config(ConfigCmd::Check { file, config, json }) => {
            let file = file.or(config).expect("clap requires one of the two");
            let cfg = load_config(Some(&file))?;
            if json {
                let v = serde_json::json!({
                    "config": file.display().to_string(),
                    "ok": true,
                    "sha256": cfg.sha256(),
                    "max_paths": cfg.entropy_bitmap.max_paths,
                    "mtu_bytes": cfg.network.mtu_bytes,
                    "max_cwnd_bytes": cfg.max_cwnd_bytes(),
                    "bdp_bytes": cfg.bdp_bytes(),
                    "rx_window": cfg.sack.rx_window,
                    "nic_connections": cfg.nic.connections,
                    "load_table": {
                        "links": cfg.load_table.links,
                        "slots": cfg.load_table.slots,
                        "load_bits": cfg.load_table.load_bits,
                    },
                });
                outln!("{v}");
                return Ok(ExitCode::SUCCESS);
            }
            outln!(
                "{}: ok (max_paths {}, MTU {} B, max_cwnd {} B, BDP {:.0} B, rx_window {}, \
                 load table {} links x {} slots x {} bits)",
                file.display(),
                cfg.entropy_bitmap.max_paths,
                cfg.network.mtu_bytes,
                cfg.max_cwnd_bytes(),
                cfg.bdp_bytes(),
                cfg.sack.rx_window,
                cfg.load_table.links,
                cfg.load_table.slots,
                cfg.load_table.load_bits
            );
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Config(ConfigCmd::Show { config, json }) => {
            let cfg = load_config(config.as_ref())?;
            if json {
                let v = serde_json::json!({
                    "sha256": cfg.sha256(),
                    "config": cfg.resolved(),
                });
                return write_stdout(format!("{v}\n").as_bytes());
            }
            write_stdout(format!("{}{}", cfg.to_toml(), derived_comments(&cfg)).as_bytes())
        }
        Cmd::Model(ModelCmd::Replay {
            block,
            trace,
            config,
        }) => {
            let cfg = load_config(config.as_ref())?;
            let reader = open_trace(&trace)?;
            let bad = match block {
                Block::EntropyBitmap => {
                    let mut m = entropy_bitmap::EntropyBitmap::from_config(&cfg);
                    strackgen::replay::run(reader, |i: &entropy_bitmap::In| m.step(i))
                }
                Block::CwndUnit => {
                    let mut m = cwnd_unit::CwndUnit::from_config(&cfg);
                    strackgen::replay::run(reader, |i: &cwnd_unit::In| m.step(i))
                }
                Block::SackReceiver => {
                    let mut m = sack_receiver::SackReceiver::from_config(&cfg);
                    strackgen::replay::run(reader, |i: &sack_receiver::DataPkt| m.step(i))
                }
                Block::SackSender => {
                    let mut m = sack_sender::SackSender::from_config(&cfg);
                    strackgen::replay::run(reader, |i: &sack_sender::In| m.step(i))
                }
                Block::Nic => {
                    // Every connection at PSN 0 until opened; the trace starts once the
                    // power-on sweep is over (the model stepped idle until status_ready).
                    let mut m = nic::Nic::after_sweep(&cfg, 0);
                    strackgen::replay::run(reader, |i: &nic::In| m.step(i))
                }
                Block::LoadTable => {
                    let mut m = load_table::LoadTable::from_config(&cfg);
                    strackgen::replay::run(reader, |i: &load_table::In| m.step(i))
                }
            }?;
            if bad > 0 {
                eprintln!("error: {bad} bad line(s) in {}", trace.display());
                return Ok(ExitCode::FAILURE);
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Model(ModelCmd::Loopback(a)) => loopback_cmd(a),
        Cmd::Verilog { config, out, json } => verilog_cmd(config.as_ref(), &out, json),
        Cmd::Cosim {
            config,
            block,
            cycles,
            seed,
            trace,
            waves,
            out,
            cache,
            json,
        } => {
            let cfg = load_config(config.as_ref())?;
            let trace = match trace {
                Some(t) if t.as_os_str() == "-" => Some(("<stdin>".into(), read_stdin("trace")?)),
                Some(t) => Some((
                    t.display().to_string(),
                    std::fs::read_to_string(&t)
                        .map_err(|e| format!("cannot read {}: {e}", t.display()))?,
                )),
                None => None,
            };
            let req = strackgen::cosim::Request {
                cfg,
                blocks: if block.is_empty() {
                    testbench::cosim::BLOCKS
                        .iter()
                        .map(|b| b.to_string())
                        .collect()
                } else {
                    block
                },
                cycles,
                seed,
                trace,
                waves,
                out,
                toolchain: testbench::dynamic::Toolchain::from_env(
                    cache.unwrap_or_else(strackgen::cosim::default_cache),
                ),
                fault: None,
            };
            let ok = strackgen::cosim::run_with(&req, json, &mut |text| {
                written(std::io::stdout().lock().write_all(text.as_bytes()))
            })?;
            Ok(if ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        Cmd::Completions { shell } => {
            use clap::CommandFactory;
            let shell = match shell {
                Shell::Bash => clap_complete::Shell::Bash,
                Shell::Zsh => clap_complete::Shell::Zsh,
                Shell::Fish => clap_complete::Shell::Fish,
            };
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "strackgen", &mut text);
            write_stdout(&text)
        }
        Cmd::Man { out } => {
            use clap::CommandFactory;
            match out {
                Some(dir) => {
                    std::fs::create_dir_all(&dir)
                        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                    clap_mangen::generate_to(Cli::command(), &dir).map_err(|e| {
                        format!("cannot write the man pages into {}: {e}", dir.display())
                    })?;
                    Ok(ExitCode::SUCCESS)
                }
                None => {
                    let mut text = Vec::new();
                    clap_mangen::Man::new(Cli::command())
                        .render(&mut text)
                        .map_err(|e| e.to_string())?;
                    write_stdout(&text)
                }
            }
        }
        Cmd::P4 {
            config,
            target,
            out,
            tna_stages,
            json,
        } => p4_cmd(config.as_ref(), target, &out, tna_stages, json),
        Cmd::Stf(cmd) => stf_cmd(cmd),
        Cmd::Formal {
            blocks,
            quick,
            depth,
            out,
            json,
        } => formal_cmd(blocks, quick, depth, out, json),
        Cmd::Report {
            config,
            out,
            blocks,
            xilinx: true,
            json,
            ..
        } => xilinx_cmd(config.as_ref(), out, blocks, json),
        Cmd::Report {
            config,
            out,
            blocks,
            no_top,
            top_only,
            top_config,
            root,
            progress_secs,
            jobs,
            pnr_budget_mins,
            speed,
            xilinx: false,
            json,
        } => report_cmd(
            config.as_ref(),
            out,
            if top_only { None } else { Some(blocks) },
            (!no_top, top_config),
            root,
            (progress_secs, jobs, pnr_budget_mins, json),
            speed,
        ),
        Cmd::Schedule {
            flows,
            config,
            json,
        } => schedule_cmd(&flows, config.as_ref(), json),
    }
}

/// What `config show` adds after the keys, as TOML comments (they are not settable): the cwnd
/// unit's one-step error bound against the paper's f64 equations (docs/golden-model.md).
fn derived_comments(cfg: &Config) -> String {
    let b = cwnd_unit::bound::step_error_bound(cfg);
    let max = cfg.max_cwnd_bytes() as f64;
    format!(
        "\n# Derived (not keys):\n\
         # cwnd unit, fixed point against the paper's f64 equations, one ACK from the same state:\n\
         #   |window error| <= {:.1} bytes ({:.3} % of max_cwnd): additive increase {:.1},\n\
         #   proportional increase {:.1}, multiplicative decrease {:.1}, fairness {:.4}\n\
         #   (reciprocal table's relative error {:.3e})\n",
        b.bytes,
        100.0 * b.bytes / max,
        b.additive,
        b.proportional,
        b.decrease,
        b.fairness,
        b.table_rel
    ) + &context_comments(cfg)
}

/// The multi-connection NIC's context arithmetic (`docs/blocks/nic.md`), as TOML comments.
fn context_comments(cfg: &Config) -> String {
    use strack_config::context::{ecp5_ebr_blocks, Side, EBR_BUDGET_PERCENT, ECP5_85_EBR};
    let l = cfg.nic_context();
    let pct = |ebr: u32| 100.0 * ebr as f64 / ECP5_85_EBR as f64;
    let rams: Vec<String> = l
        .rams()
        .iter()
        .map(|r| {
            format!(
                "#     {}.{}: {} bits, {} EBR\n",
                r.block,
                r.ram,
                r.bits,
                ecp5_ebr_blocks(l.connections, r.bits)
            )
        })
        .collect();
    format!(
        "# NIC context, {} connections: send side {} bits ({} EBR), receive side {} bits\n\
         #   ({} EBR); {} EBR in all, {:.1} % of the ECP5-85's {} ({}: budget {} %)\n\
         #   RAMs, one row per connection:\n{}\
         #   (a stored length per PSN would add {} bits a connection: {} EBR, {:.1} %)\n",
        l.connections,
        l.bits(Side::Send),
        l.ebr(Side::Send),
        l.bits(Side::Receive),
        l.ebr(Side::Receive),
        l.total_ebr(),
        pct(l.total_ebr()),
        ECP5_85_EBR,
        if l.fits_ecp5_85() {
            "fits"
        } else {
            "does not fit"
        },
        EBR_BUDGET_PERCENT,
        rams.concat(),
        l.per_psn_length_bits,
        l.ebr_with_per_psn_lengths(),
        pct(l.ebr_with_per_psn_lengths()),
    )
}

fn verilog_cmd(
    config: Option<&PathBuf>,
    out: &std::path::Path,
    json: bool,
) -> Result<ExitCode, String> {
    let cfg = load_config(config)?;
    let pkg = strackgen::package::write_verilog(&cfg, out)?;
    if json {
        let v = serde_json::json!({"out": out.display().to_string(), "manifest": pkg.manifest});
        return write_stdout(format!("{v}\n").as_bytes());
    }
    let list: String = pkg
        .files
        .iter()
        .map(|(file, _)| format!("{}\n", out.join(file).display()))
        .collect();
    write_stdout(list.as_bytes())
}

/// `strackgen p4`: the load table's P4 program for one target, into `out` (created).
fn p4_cmd(
    config: Option<&PathBuf>,
    target: P4Target,
    out: &std::path::Path,
    tna_stages: Option<u32>,
    json: bool,
) -> Result<ExitCode, String> {
    let cfg = load_config(config)?;
    if matches!(target, P4Target::V1model) && tna_stages.is_some() {
        return Err(
            "--tna-stages applies to --target tna only (v1model has no stage budget)".into(),
        );
    }
    let tna_stages = tna_stages.unwrap_or(strack_p4::TOFINO1_STAGES);
    let target = match target {
        P4Target::Tna => strack_p4::Target::Tna,
        P4Target::V1model => strack_p4::Target::V1model,
    };
    let opts = strack_p4::Options {
        tna_stages,
        config_name: config.map_or("built-in defaults".into(), |p| p.display().to_string()),
    };
    if out.as_os_str() == "-" && json {
        return Err(
            "--json describes a file written; with --out - the program itself is the output".into(),
        );
    }
    let text = strack_p4::generate(&cfg, target, &opts).map_err(|e| e.to_string())?;
    if out.as_os_str() == "-" {
        return write_stdout(text.as_bytes());
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let p = out.join(target.file_name());
    strackgen::write_atomic(&p, text.as_bytes())?;
    if json {
        let v = serde_json::json!({
            "file": p.display().to_string(),
            "target": target.file_name().trim_start_matches("load_table_").trim_end_matches(".p4"),
            "bytes": text.len(),
            "config_sha256": cfg.sha256(),
        });
        return write_stdout(format!("{v}\n").as_bytes());
    }
    write_stdout(format!("{}\n", p.display()).as_bytes())
}

/// `strackgen stf write`: every scenario's STF file; `strackgen stf run`: play files against
/// the golden model, each reported, failing when any fails.
fn stf_cmd(cmd: StfCmd) -> Result<ExitCode, String> {
    match cmd {
        StfCmd::Write { config, out, json } => {
            let cfg = load_config(config.as_ref())?;
            std::fs::create_dir_all(&out)
                .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            let mut files = Vec::new();
            for (name, text) in strack_p4::stf::scenarios(&cfg) {
                let p = out.join(format!("{name}.stf"));
                strackgen::write_atomic(&p, text.as_bytes())?;
                files.push(p.display().to_string());
            }
            if json {
                let v = serde_json::json!({"files": files, "config_sha256": cfg.sha256()});
                return write_stdout(format!("{v}\n").as_bytes());
            }
            write_stdout(
                files
                    .iter()
                    .map(|f| format!("{f}\n"))
                    .collect::<String>()
                    .as_bytes(),
            )
        }
        StfCmd::Run {
            config,
            files,
            json,
        } => {
            let cfg = load_config(config.as_ref())?;
            let mut failed = 0;
            let mut results = Vec::new();
            let mut text_out = String::new();
            // Every file is checked and reported, an unreadable one included.
            for f in &files {
                let r = std::fs::read_to_string(f)
                    .map_err(|e| format!("cannot read it: {e}"))
                    .and_then(|text| strack_p4::stf::parse(&text))
                    .and_then(|stf| strack_p4::stf::play(&cfg, &stf));
                match r {
                    Ok(p) => {
                        text_out += &format!(
                            "{}: ok ({} packets, {} expectations, {} counters)\n",
                            f.display(),
                            p.packets,
                            p.expects,
                            p.counters
                        );
                        results.push(serde_json::json!({
                            "file": f.display().to_string(), "ok": true,
                            "packets": p.packets, "expectations": p.expects, "counters": p.counters,
                        }));
                    }
                    Err(e) => {
                        failed += 1;
                        text_out += &format!("{}: FAILED: {e}\n", f.display());
                        results.push(serde_json::json!({
                            "file": f.display().to_string(), "ok": false, "error": e,
                        }));
                    }
                }
            }
            if json {
                let v = serde_json::json!({"files": results, "failed": failed});
                write_stdout(format!("{v}\n").as_bytes())?;
            } else {
                write_stdout(text_out.as_bytes())?;
            }
            Ok(if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
    }
}

/// `report --xilinx`: UltraScale+ resource counts (src/xilinx.rs).
/// `strackgen formal`: the checks of [`strackgen::formal`], one line each on stderr as they
/// end, then the table (or JSON) on stdout and `formal.md` / `formal.json` in `out`.
fn formal_cmd(
    blocks: Vec<String>,
    quick: bool,
    depth: Option<u32>,
    out: PathBuf,
    json: bool,
) -> Result<ExitCode, String> {
    use strackgen::formal;
    let blocks = if blocks.is_empty() {
        formal::block_names()
            .iter()
            .map(|b| b.to_string())
            .collect()
    } else {
        blocks
    };
    let tools = match formal::Tools::find() {
        Ok(t) => t,
        Err(e) => {
            outln!("skipped: {e}");
            return Ok(ExitCode::SUCCESS);
        }
    };
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let opts = formal::Options {
        blocks,
        quick,
        depth,
        out: out.clone(),
    };
    let rows = formal::run(&tools, &opts, !json)?;
    let md = formal::markdown(&rows);
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write("formal.md", &md)?;
    let js = serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?;
    write("formal.json", &js)?;
    if json {
        outln!("{js}");
    } else {
        out!("{md}");
    }
    let bad: Vec<&formal::Row> = rows.iter().filter(|r| !r.verdict.ok()).collect();
    if bad.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        for r in bad {
            eprintln!("formal: not as required: {}", formal::line(r));
        }
        Ok(ExitCode::FAILURE)
    }
}

fn xilinx_cmd(
    config: Option<&PathBuf>,
    out: PathBuf,
    blocks: Vec<String>,
    json: bool,
) -> Result<ExitCode, String> {
    let cfg = load_config(config)?;
    let config_name = name_of_config(config);
    let blocks = if blocks.is_empty() {
        hdl::NIC_PIPELINES
            .iter()
            .chain(&["nic", "context_pipe_wide"])
            .map(|b| b.to_string())
            .collect()
    } else {
        check_block_names(blocks)?
    };
    let yosys = synth::Tools::find()?.yosys;
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let rows = xilinx::run(&cfg, &config_name, &blocks, &out, &yosys)?;
    let md = xilinx::markdown(&rows);
    if !json {
        out!("{md}");
    }
    let write = |name: &str, text: &str| {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
    };
    write("xilinx.md", &md)?;
    write(
        "xilinx.json",
        &serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?,
    )?;
    if json {
        outln!(
            "{}",
            serde_json::to_string(&rows).map_err(|e| e.to_string())?
        );
    } else {
        outln!(
            "\n{} and {} written",
            out.join("xilinx.json").display(),
            out.join("xilinx.md").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The name a report gives a config: its file's stem.
fn name_of_config(p: Option<&PathBuf>) -> String {
    p.and_then(|p| p.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "built-in default".into())
}

/// `--blocks` as given, or an error naming the first unknown one and the choices.
fn check_block_names(blocks: Vec<String>) -> Result<Vec<String>, String> {
    match blocks
        .iter()
        .find(|b| !hdl::design_names().any(|n| n == b.as_str()))
    {
        Some(b) => Err(format!(
            "--blocks: unknown block `{b}` (known: {})",
            hdl::design_names().collect::<Vec<_>>().join(", ")
        )),
        None => Ok(blocks),
    }
}

fn report_cmd(
    config: Option<&PathBuf>,
    out: PathBuf,
    blocks: Option<Vec<String>>,
    (top, top_config): (bool, Option<PathBuf>),
    root: PathBuf,
    (progress_secs, jobs, pnr_budget_mins, json): (u64, Option<usize>, u64, bool),
    speed_grade: u8,
) -> Result<ExitCode, String> {
    if !synth::SPEED_GRADES.contains(&speed_grade) {
        return Err(format!(
            "--speed {speed_grade}: not a speed grade of the LFE5U-85F (6, 7 or 8)"
        ));
    }
    let cfg = load_config(config)?;
    let config_name = name_of_config(config);
    let top_config = match top_config {
        Some(p) => Some((load_config(Some(&p))?, name_of_config(Some(&p)))),
        None => None,
    };
    let blocks = match blocks {
        None => Vec::new(),
        // Every core, the NIC's pipelines being built, and the context shell at the NIC's
        // send-record width.
        Some(b) if b.is_empty() => hdl::BLOCKS
            .iter()
            .chain(hdl::NIC_PIPELINES)
            .chain(&["context_pipe_wide"])
            .map(|b| b.to_string())
            .collect(),
        Some(blocks) => check_block_names(blocks)?,
    };
    if top && !root.join("fpga/ecp5_evn/top.v").is_file() {
        return Err(format!(
            "--root {}: no fpga/ecp5_evn/top.v there (run from the repository root, pass \
             --root, or --no-top)",
            root.display()
        ));
    }
    if progress_secs == 0 {
        return Err("--progress-secs: 0 is not allowed (1 or more seconds)".into());
    }
    let jobs = match jobs {
        Some(0) => return Err("--jobs: 0 is not allowed (1 or more)".into()),
        Some(j) => j,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let tools = synth::Tools::find()?;
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    // The tools run in the output directory: every path they get is absolute.
    let abs = |p: &PathBuf| {
        std::fs::canonicalize(p).map_err(|e| format!("cannot resolve {}: {e}", p.display()))
    };
    let (out, root) = (abs(&out)?, abs(&root)?);
    let opts = synth::Options {
        out: out.clone(),
        blocks,
        top,
        root,
        progress_every: std::time::Duration::from_secs(progress_secs),
        jobs,
        top_config,
        pnr_budget: (pnr_budget_mins > 0)
            .then(|| std::time::Duration::from_secs(pnr_budget_mins * 60)),
        speed_grade,
    };
    let rows = synth::run(&cfg, &config_name, &opts, &tools)?;
    if json {
        outln!(
            "{}",
            serde_json::to_string(&rows).map_err(|e| e.to_string())?
        );
    } else {
        out!("{}", synth::markdown(&rows));
        outln!(
            "\n{} and {} written",
            out.join("timing.json").display(),
            out.join("timing.md").display()
        );
    }
    // A design too big for the device, or one nextpnr did not finish within --pnr-budget-mins,
    // is a finding of the report, not a failure of the flow.
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| {
            r.error
                .as_deref()
                .is_some_and(|e| !e.starts_with(synth::DOES_NOT_FIT))
        })
        .map(|r| r.block.as_str())
        .collect();
    if failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(format!(
            "the flow failed for {} (their errors are in timing.json, logs in {})",
            failed.join(", "),
            out.display()
        ))
    }
}

fn open_trace(path: &PathBuf) -> Result<Box<dyn BufRead>, String> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let f =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(Box::new(std::io::BufReader::new(f)))
}

fn loopback_cmd(a: LoopbackArgs) -> Result<ExitCode, String> {
    let cfg = load_config(a.config.as_ref())?;
    for (name, p) in [
        ("--drop-data", a.drop_data),
        ("--drop-sack", a.drop_sack),
        ("--ecn", a.ecn),
    ] {
        if !(0.0..=1.0).contains(&p) {
            return Err(format!("{name} = {p}: must be a probability in 0..=1"));
        }
    }
    if a.step_ns == 0 {
        return Err("--step-ns = 0: must be at least 1".into());
    }
    let reader = open_trace(&a.trace)?;
    let mut messages = Vec::new();
    let mut bad = 0;
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: cannot read: {e}", n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Message>(&line) {
            Ok(m) => messages.push(m),
            Err(e) => {
                eprintln!(
                    "line {}, column {}: {}",
                    n + 1,
                    e.column(),
                    strackgen::replay::json_message(&e)
                );
                bad += 1;
            }
        }
    }
    if bad > 0 {
        return Err(format!("{bad} bad line(s) in {}", a.trace.display()));
    }
    let link = LinkParams {
        one_way_ns: a.one_way_ns,
        jitter_ns: a.jitter_ns,
        drop_data: a.drop_data,
        drop_sack: a.drop_sack,
        ecn_prob: a.ecn,
        hot_every: a.hot_every,
        seed: a.seed,
        bottleneck_gbps: a.bottleneck_gbps,
        buffer_bytes: a.buffer_bytes,
        ecn_threshold_bytes: a.ecn_threshold_bytes,
        ..LinkParams::default()
    };
    if a.timeline.is_some() && a.timeline_ns == 0 {
        return Err("--timeline-ns = 0: must be at least 1".into());
    }
    let sc = Scenario {
        messages,
        link,
        step_ns: a.step_ns,
        time_limit_ns: a.time_limit_ns,
        timeline_ns: if a.timeline.is_some() {
            a.timeline_ns
        } else {
            0
        },
    };
    // The model names its scenario's fields; here they are options.
    loopback::check(&cfg, &sc).map_err(|e| {
        [
            "step_ns",
            "bottleneck_gbps",
            "buffer_bytes",
            "ecn_threshold_bytes",
        ]
        .iter()
        .fold(e, |e, f| {
            e.replace(f, &format!("--{}", f.replace('_', "-")))
        })
    })?;
    let r = loopback::run(&cfg, &sc);
    if let Some(dir) = &a.timeline {
        strackgen::timeline::write(dir, &r.timeline)?;
    }
    if a.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&r).map_err(|e| e.to_string())?
        );
    } else {
        print_report(&r, a.bottleneck_gbps > 0.0)?;
    }
    Ok(if r.delivered_exactly_once {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn print_report(r: &loopback::Report, bottleneck: bool) -> Result<(), String> {
    let verdict = if r.delivered_exactly_once {
        "yes"
    } else {
        "NO"
    };
    outln!(
        "loopback: {} messages on {} connections, {} bytes in {} packets",
        r.messages,
        r.connections,
        r.bytes_offered,
        r.packets
    );
    outln!("  every byte delivered exactly once : {verdict}");
    if r.finished {
        outln!(
            "  completion                        : {:.1} us ({:.1} Gb/s goodput)",
            r.completion_ns as f64 / 1e3,
            r.goodput_gbps
        );
    } else {
        outln!(
            "  completion                        : not finished, {} of {} messages not wholly delivered",
            r.unfinished_messages, r.messages
        );
    }
    outln!(
        "  sent new / retransmitted / probes : {} / {} / {}",
        r.new_sent,
        r.retransmits,
        r.probes
    );
    outln!(
        "  dropped data / dropped SACKs      : {} / {}",
        r.data_dropped,
        r.sacks_dropped
    );
    outln!(
        "  SACKs received / ECN marks        : {} / {}",
        r.sacks,
        r.ecn_marked
    );
    if bottleneck {
        outln!(
            "  bottleneck drops / marks / max    : {} / {} / {} bytes",
            r.queue_drops,
            r.queue_ecn_marked,
            r.queue_max_bytes
        );
    } else {
        outln!("  bottleneck                        : none (--bottleneck-gbps)");
    }
    outln!(
        "  losses detected ooo/probe/timeout : {} / {} / {}",
        r.loss_ooo,
        r.loss_probe,
        r.loss_timeout
    );
    outln!(
        "  duplicates at receiver            : {}",
        r.duplicates_at_receiver
    );
    outln!(
        "  share of packets on hot entropies : {:.1}%",
        r.hot_path_share * 100.0
    );
    outln!(
        "  cwnd min / final                  : {} / {} bytes",
        r.cwnd_min_bytes,
        r.cwnd_final_bytes
    );
    for p in &r.problems {
        outln!("  problem: {p}");
    }
    Ok(())
}

/// `strackgen schedule`'s input (docs/scheduler.md).
fn schedule_cmd(path: &PathBuf, config: Option<&PathBuf>, json: bool) -> Result<ExitCode, String> {
    let cfg = load_config(config)?;
    let text = if path.as_os_str() == "-" {
        read_stdin("flows")?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
    };
    let file = path.display().to_string();
    let s = strackgen::schedule::scheduler(&text, &cfg, &file)?;
    let unit = cfg.load_table.rate_unit_mbps as u64;
    let k = cfg.load_table.slots as usize;
    let plans = s.plan_slot();
    strackgen::schedule::check_plans(&plans, &cfg, &file)?;
    if json {
        let out = serde_json::json!({
            "slots": k,
            "rate_unit_mbps": unit,
            "beta_weight": cfg.load_table.beta_weight,
            "slot_ns": cfg.slot_ns(),
            "flows": plans,
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} flows, {} links, K = {k} slots of {} ns; rates in units of {unit} Mb/s; \
         Algorithm 1's score: cost + b x {} x V x C",
        s.flows.len(),
        s.links.len(),
        cfg.slot_ns(),
        cfg.load_table.beta_weight
    );
    for p in &plans {
        let done = p
            .initial
            .completion
            .map_or("does not fit in K slots".to_string(), |b| {
                format!("done in {b} slot(s)")
            });
        outln!("{:<12} plan {:?}  deltas {:?}", p.name, p.plan, p.deltas);
        outln!(
            "{:<12} initial {:?} ({done}, cost {}, score {}), dependency +{}, bottleneck {}, \
             trimmed {}, F {}",
            "",
            p.initial.rates,
            p.initial.cost,
            p.initial.score,
            p.delta,
            p.bottleneck,
            p.trimmed,
            p.accumulated
        );
    }
    Ok(ExitCode::SUCCESS)
}
