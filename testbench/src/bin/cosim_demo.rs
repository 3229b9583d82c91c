//! `make demo`'s co-simulation step: the default-config RTL of every co-simulated block
//! against the golden model. Usage: cosim_demo [CYCLES]

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use testbench::configs::SACK_INITIAL_PSN;
use testbench::designs::{CwndUnitDefault, EntropyBitmapDefault, SackReceiverDefault};
use testbench::{
    cwnd_unit, entropy_bitmap, fixed_stimulus, run, sack_receiver, CosimBlock, Report,
};

fn show<B: CosimBlock>(name: &str, r: Result<Report, Box<testbench::Mismatch>>) -> bool {
    match r {
        Ok(r) => {
            let hit = B::COVERAGE_POINTS.len() - r.coverage.missing(B::COVERAGE_POINTS).len();
            println!(
                "  {name}: {} cycles compared on every output port, {} events, 0 mismatches, coverage {hit}/{} points",
                r.cycles,
                r.events,
                B::COVERAGE_POINTS.len()
            );
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
    let ok = show::<entropy_bitmap::Block>(
        &format!("entropy_bitmap (max_paths {})", p.max_paths),
        run(
            EntropyBitmapDefault::new,
            || entropy_bitmap::Block::new(&p),
            0,
            &stim,
            "demo",
        ),
    );
    let stim = fixed_stimulus(
        cwnd_unit::stimulus(cwnd_unit::Scale::of(&cfg), 5_000..15_000),
        cycles,
        1,
    );
    let ok = show::<cwnd_unit::Block>(
        &format!(
            "cwnd_unit (reciprocal table 2^{})",
            cfg.fixed_point.recip_index_bits
        ),
        run(
            CwndUnitDefault::new,
            || cwnd_unit::Block::new(&cfg),
            0,
            &stim,
            "demo",
        ),
    ) && ok;
    let stim = fixed_stimulus(
        sack_receiver::stimulus(cfg.clone(), SACK_INITIAL_PSN, 4_000..12_000),
        cycles,
        1,
    );
    let ok = show::<sack_receiver::Block>(
        &format!(
            "sack_receiver (rx_window {}, sack_bits {})",
            cfg.sack.rx_window, cfg.sack.sack_bits
        ),
        run(
            SackReceiverDefault::new,
            || sack_receiver::Block::new(&cfg, SACK_INITIAL_PSN),
            0,
            &stim,
            "demo",
        ),
    ) && ok;
    if ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
