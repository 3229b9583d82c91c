//! `make demo`'s co-simulation step: the default-config RTL of every block, and of the
//! composed NIC and the switch load table, against the golden model. Usage: cosim_demo [CYCLES]

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use testbench::configs::{NIC_SENDER_INITIAL_BYTES, SACK_INITIAL_PSN};
use testbench::designs::{CwndUnitDefault, EntropyBitmapDefault, LoadTableDefault, NicDefault};
use testbench::{cwnd_unit, entropy_bitmap, fixed_stimulus, load_table, nic, run, CosimBlock, Dut};

/// Run `stim` through the RTL and the model; print what was compared and the coverage of the
/// points this design can reach.
fn show<B: CosimBlock, D: Dut>(
    name: &str,
    make: fn(bool) -> D,
    model: impl Fn() -> B,
    stim: &[B::Stim],
) -> bool {
    let points = model().coverage_points();
    match run(make, &model, 0, stim, "demo") {
        Ok(r) => {
            let missing = r.coverage.missing(&points);
            let hit = points.len() - missing.len();
            println!(
                "  {name}: {} cycles compared on every output port, {} events, 0 mismatches, coverage {hit}/{} points",
                r.cycles,
                r.events,
                points.len()
            );
            if !missing.is_empty() {
                println!("    not reached in this short run: {}", missing.join(", "));
            }
            true
        }
        Err(m) => {
            eprintln!("{m}");
            false
        }
    }
}

fn main() -> std::process::ExitCode {
    let cycles: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let cfg = Config::default();
    let p = Params::from_config(&cfg);
    let stim = fixed_stimulus(
        entropy_bitmap::stimulus(p.max_paths, 5_000..15_000),
        cycles,
        1,
    );
    let ok = show(
        &format!("entropy_bitmap (max_paths {})", p.max_paths),
        EntropyBitmapDefault::new,
        || entropy_bitmap::Block::new(&p),
        &stim,
    );
    let stim = fixed_stimulus(
        cwnd_unit::stimulus(cwnd_unit::Scale::of(&cfg), 5_000..15_000),
        cycles,
        1,
    );
    let ok = show(
        &format!(
            "cwnd_unit (reciprocal table 2^{})",
            cfg.fixed_point.recip_index_bits
        ),
        CwndUnitDefault::new,
        || cwnd_unit::Block::new(&cfg),
        &stim,
    ) && ok;
    let mut stim = nic::generate(&cfg, SACK_INITIAL_PSN, 1, cycles);
    stim.truncate(cycles);
    let ok = show(
        &format!(
            "nic (the multi-connection NIC: {} connections; send side: senders, cwnd units \
             and entropy bitmaps in block RAM, the transmit scheduler, the timer scan, four \
             offer inputs; receive side: the receivers in block RAM; one event per clock on \
             each side for any connection ids, one open port)",
            cfg.nic.connections
        ),
        NicDefault::new,
        || nic::Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES),
        &stim,
    ) && ok;
    let stim = fixed_stimulus(load_table::stimulus(&cfg, 5_000..15_000), cycles, 1);
    let t = &cfg.load_table;
    let ok = show(
        &format!(
            "load_table ({} links x {} slots x {}-bit loads)",
            t.links, t.slots, t.load_bits
        ),
        LoadTableDefault::new,
        || load_table::Block::new(&cfg),
        &stim,
    ) && ok;
    if ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
