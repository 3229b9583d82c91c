//! `make bench`: co-simulation speed per block, and the bare Verilated model and the golden
//! model alone on the same stimulus. Writes `target/bench/cosim.json` and prints a table.
//! A benchmark, not a test: the figures depend on the machine.

use std::time::Instant;

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use strack_config::{LINE_RATE_PPS, LINE_RATE_SACKS};
use testbench::configs::{
    context_pipe_small_config, load_table_4x4_config, load_table_64x16_config,
    load_table_8x10_config, nic_rx_small_config, nic_sender_small_config, small_config,
    small_cwnd_config, NIC_SENDER_INITIAL_BYTES, SACK_INITIAL_PSN,
};
use testbench::designs::{
    ContextPipeDefault, ContextPipeSmall, CwndUnitDefault, CwndUnitSmall, EntropyBitmapDefault,
    EntropyBitmapSmall, NicDefault, NicRxSmall, NicSmall, NicTxSmall,
};
use testbench::designs::{LoadTable4x4, LoadTable64x16, LoadTable8x10, LoadTableDefault};
use testbench::load::{self, Ids};
use testbench::{
    context_pipe, cwnd_unit, entropy_bitmap, fixed_stimulus, load_table, nic_rx, nic_tx,
    resolved_stimulus, run, run_bare, run_model, CosimBlock, Dut,
};

struct Row {
    design: &'static str,
    cycles: usize,
    cosim: f64,
    bare: f64,
    model: f64,
}

fn measure<B: CosimBlock, D: Dut>(
    design: &'static str,
    make: fn(bool) -> D,
    model: impl Fn() -> B,
    stim: &[B::Stim],
) -> Row {
    let cycles = stim.len();
    let t = Instant::now();
    run(make, &model, 0, stim, "bench").unwrap_or_else(|m| panic!("{m}"));
    let cosim = cycles as f64 / t.elapsed().as_secs_f64();
    // The RTL alone gets the inputs the co-sim gave it (blocks that resolve them from the
    // model's state, such as forged SACKs, do so here; the others take the stimulus as it is).
    let resolved = resolved_stimulus(&mut model(), 0, stim);
    let mut dut = make(false);
    let t = Instant::now();
    std::hint::black_box(run_bare::<B>(&mut dut, 0, &resolved));
    let bare = cycles as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    std::hint::black_box(run_model(&mut model(), 0, stim));
    let model = cycles as f64 / t.elapsed().as_secs_f64();
    Row {
        design,
        cycles,
        cosim,
        bare,
        model,
    }
}

fn eb<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let p = Params::from_config(cfg);
    let stim = fixed_stimulus(
        entropy_bitmap::stimulus(p.max_paths, 5_000..15_000),
        cycles,
        7,
    );
    measure(design, make, || entropy_bitmap::Block::new(&p), &stim)
}

fn cw<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let stim = fixed_stimulus(
        cwnd_unit::stimulus(cwnd_unit::Scale::of(cfg), 5_000..15_000),
        cycles,
        7,
    );
    measure(design, make, || cwnd_unit::Block::new(cfg), &stim)
}

fn lt<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let stim = fixed_stimulus(load_table::stimulus(cfg, 5_000..15_000), cycles, 7);
    measure(design, make, || load_table::Block::new(cfg), &stim)
}

fn cp<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let stim = fixed_stimulus(context_pipe::stimulus(cfg, 5_000..15_000), cycles, 7);
    measure(design, make, || context_pipe::Block::new(cfg), &stim)
}

fn nrx<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let mut stim = nic_rx::generate(cfg, SACK_INITIAL_PSN, 7, cycles);
    stim.truncate(cycles);
    measure(
        design,
        make,
        || nic_rx::Block::new(cfg, SACK_INITIAL_PSN),
        &stim,
    )
}

fn ntx<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let stim = nic_tx::generate(cfg, 7, cycles);
    measure(
        design,
        make,
        || nic_tx::Block::new(cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES),
        &stim,
    )
}

/// The NIC composed (`nic`): both sides' stimuli side by side.
fn nics<D: Dut>(design: &'static str, make: fn(bool) -> D, cfg: &Config, cycles: usize) -> Row {
    let mut stim = testbench::nic::generate(cfg, SACK_INITIAL_PSN, 7, cycles);
    stim.truncate(cycles);
    measure(
        design,
        make,
        || testbench::nic::Block::new(cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES),
        &stim,
    )
}

/// Cycles each load row measures.
const LOAD_CYCLES: usize = 20_000;

/// One row of the load benchmark (`testbench::load`).
struct LoadRow {
    side: &'static str,
    load: &'static str,
    ids: Ids,
    events: u64,
    cycles: usize,
    /// The blocks whose slowest Fmax sets the side's clock.
    blocks: &'static [&'static str],
    need: f64,
}

fn counted(r: &testbench::Report, points: &[&str]) -> u64 {
    points
        .iter()
        .map(|p| r.coverage.0.get(p).copied().unwrap_or(0))
        .sum()
}

/// The load rows at the default config (1024 connections), each a co-simulation.
fn load_rows() -> Vec<LoadRow> {
    let cfg = Config::default();
    let mut rows = Vec::new();
    let fail = |m: Box<testbench::Mismatch>| -> testbench::Report { panic!("{m}") };
    // Each side loaded alone, in the composed NIC (the other side idle).
    let nic_model = || testbench::nic::Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES);
    for ids in Ids::ALL {
        let (stim, cycles) = load::rx_packets(&cfg, ids, LOAD_CYCLES);
        let stim = testbench::nic::recv_only(stim);
        let r = run(NicDefault::new, nic_model, 0, &stim, "load").unwrap_or_else(fail);
        rows.push(LoadRow {
            side: "receive (nic_rx)",
            load: "an in-order data packet offered every cycle",
            ids,
            // Each packet is offered at its connection's EPSN: every one taken is in order.
            events: counted(&r, &["recv.in_order"]),
            cycles,
            blocks: &["nic_rx"],
            need: LINE_RATE_PPS,
        });
    }
    const TX_BLOCKS: &[&str] = &["nic_sender", "nic_entropy", "nic_cwnd", "tx_sched"];
    type TxLoad = fn(&Config, Ids, usize) -> (Vec<nic_tx::Cycle>, usize);
    let tx_loads: [(TxLoad, &str, &[&str], f64); 2] = [
        (
            load::tx_sacks,
            "a SACK offered every cycle",
            &["send.source_sack"],
            LINE_RATE_SACKS,
        ),
        (
            load::tx_transmits,
            "a transmit opportunity every cycle (packets sent)",
            &["send.tx_new", "send.tx_retransmit", "send.tx_probe"],
            LINE_RATE_PPS,
        ),
    ];
    for (stimulus, what, points, need) in tx_loads {
        for ids in Ids::ALL {
            let (stim, cycles) = stimulus(&cfg, ids, LOAD_CYCLES);
            let stim = testbench::nic::send_only(stim);
            let r = run(NicDefault::new, nic_model, 0, &stim, "load").unwrap_or_else(fail);
            rows.push(LoadRow {
                side: "send (nic_tx)",
                load: what,
                ids,
                events: counted(&r, points),
                cycles,
                blocks: TX_BLOCKS,
                need,
            });
        }
    }
    rows
}

/// The slowest Fmax of `blocks` at the default config in the last `make synth` report, if it
/// has all of them.
fn fmax_of(report: &Option<serde_json::Value>, blocks: &[&str]) -> Option<f64> {
    let rows = report.as_ref()?.get("rows")?.as_array()?;
    blocks
        .iter()
        .map(|b| {
            rows.iter()
                .find(|r| r["block"] == *b && r["config"] == "default")
                .and_then(|r| r["fmax_mhz"].as_f64())
        })
        .try_fold(f64::INFINITY, |m, f| f.map(|f| m.min(f)))
}

fn load_report(dir: &std::path::Path) {
    let timing = dir.join("../report/timing.json");
    let report: Option<serde_json::Value> = std::fs::read_to_string(&timing)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    println!();
    println!(
        "Load at 1024 connections: events taken per clock (co-simulated, every port compared), \
         times the side's Fmax ({}):",
        if report.is_some() {
            "the slowest of its blocks in target/report/timing.json, from make synth"
        } else {
            "no target/report/timing.json: run make synth for the events/s"
        }
    );
    println!(
        "| side | load | ids | cycles | events | events/clock | Fmax (MHz) | events/s | needed at 800 Gb/s | margin |"
    );
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut json = Vec::new();
    for r in load_rows() {
        let per_clock = r.events as f64 / r.cycles as f64;
        let fmax = fmax_of(&report, r.blocks);
        let rate = fmax.map(|f| f * 1e6 * per_clock);
        let show = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or("–".to_string(), f);
        println!(
            "| {} | {} | {} | {} | {} | {:.3} | {} | {} | {:.1} M | {} |",
            r.side,
            r.load,
            r.ids.name(),
            r.cycles,
            r.events,
            per_clock,
            show(fmax, &|f| format!("{f:.2}")),
            show(rate, &|v| format!("{:.1} M", v / 1e6)),
            r.need / 1e6,
            show(rate, &|v| format!("{:.2}x", v / r.need)),
        );
        json.push(serde_json::json!({
            "side": r.side, "load": r.load, "ids": r.ids.name(), "cycles": r.cycles,
            "events": r.events, "events_per_clock": per_clock, "fmax_mhz": fmax,
            "events_per_s": rate, "needed_per_s": r.need,
        }));
    }
    let path = dir.join("load.json");
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    println!("written: {}", path.display());
}

/// `cosim_bench [CYCLES] [DESIGN...]`: every design and the load rows (the report `make bench`
/// writes), or the designs named (`load`: the load rows).
fn main() {
    let mut cycles = 2_000_000;
    let mut wanted: Vec<String> = Vec::new();
    for (i, a) in std::env::args().skip(1).enumerate() {
        match a.parse::<usize>() {
            Ok(n) if i == 0 && n > 0 => cycles = n,
            _ => wanted.push(a),
        }
    }
    type Bench = Box<dyn Fn(usize) -> Row>;
    macro_rules! row {
        ($f:ident, $name:literal, $make:path, $cfg:expr) => {
            ($name, Box::new(|c| $f($name, $make, $cfg, c)) as Bench)
        };
    }
    let all: Vec<(&str, Bench)> = vec![
        row!(
            cp,
            "context_pipe_default",
            ContextPipeDefault::new,
            &Config::default()
        ),
        row!(
            cp,
            "context_pipe_small",
            ContextPipeSmall::new,
            &context_pipe_small_config()
        ),
        row!(nics, "nic_default", NicDefault::new, &Config::default()),
        row!(nics, "nic_small", NicSmall::new, &nic_sender_small_config()),
        row!(nrx, "nic_rx_small", NicRxSmall::new, &nic_rx_small_config()),
        row!(
            ntx,
            "nic_tx_small",
            NicTxSmall::new,
            &nic_sender_small_config()
        ),
        row!(
            eb,
            "entropy_bitmap_default",
            EntropyBitmapDefault::new,
            &Config::default()
        ),
        row!(
            eb,
            "entropy_bitmap_small",
            EntropyBitmapSmall::new,
            &small_config()
        ),
        row!(
            cw,
            "cwnd_unit_default",
            CwndUnitDefault::new,
            &Config::default()
        ),
        row!(
            cw,
            "cwnd_unit_small",
            CwndUnitSmall::new,
            &small_cwnd_config()
        ),
        row!(
            lt,
            "load_table_default",
            LoadTableDefault::new,
            &Config::default()
        ),
        row!(
            lt,
            "load_table_4x4",
            LoadTable4x4::new,
            &load_table_4x4_config()
        ),
        row!(
            lt,
            "load_table_8x10",
            LoadTable8x10::new,
            &load_table_8x10_config()
        ),
        row!(
            lt,
            "load_table_64x16",
            LoadTable64x16::new,
            &load_table_64x16_config()
        ),
    ];
    if let Some(w) = wanted
        .iter()
        .find(|w| *w != "load" && !all.iter().any(|(n, _)| n == w))
    {
        let known: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "cosim_bench: unknown design `{w}` (the first argument, if a positive number, is \
             the cycles per design); the designs: {}, and `load` for the load rows",
            known.join(", ")
        );
        std::process::exit(2);
    }
    let rows: Vec<Row> = all
        .iter()
        .filter(|(n, _)| wanted.is_empty() || wanted.iter().any(|w| w == n))
        .map(|(_, f)| f(cycles))
        .collect();
    if !rows.is_empty() {
        println!(
            "| design | cycles | co-sim cycles/s | bare Verilated cycles/s | model alone cycles/s |"
        );
        println!("|---|---:|---:|---:|---:|");
    }
    let mut json = Vec::new();
    for r in &rows {
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.0} |",
            r.design, r.cycles, r.cosim, r.bare, r.model
        );
        json.push(serde_json::json!({
            "design": r.design, "cycles": r.cycles,
            "cosim_cycles_per_s": r.cosim, "bare_verilated_cycles_per_s": r.bare, "model_cycles_per_s": r.model,
        }));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench");
    std::fs::create_dir_all(&dir).unwrap();
    // A run of some designs does not overwrite the whole report.
    let path = dir.join(if wanted.is_empty() {
        "cosim.json"
    } else {
        "cosim-selected.json"
    });
    if !rows.is_empty() {
        std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
        println!("written: {}", path.display());
    }
    if wanted.is_empty() || wanted.iter().any(|w| w == "load") {
        load_report(&dir);
    }
}
