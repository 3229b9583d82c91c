//! `make demo`'s co-simulation step: the default-config RTL against the golden model.
//! Usage: cosim_demo [CYCLES]

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use testbench::designs::EntropyBitmapDefault;
use testbench::entropy_bitmap::{fixed_stimulus, run, COVERAGE_POINTS};

fn main() -> std::process::ExitCode {
    let cycles: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let params = Params::from_config(&Config::default());
    let stim = fixed_stimulus(params.max_paths, cycles, 1);
    match run(EntropyBitmapDefault::new, &params, 0, &stim, "demo") {
        Ok(r) => {
            let hit = COVERAGE_POINTS.len() - r.coverage.missing().len();
            println!(
                "  entropy_bitmap (max_paths {}): {} cycles compared on every output port, {} events, 0 mismatches, coverage {hit}/{} points",
                params.max_paths,
                r.cycles,
                r.events,
                COVERAGE_POINTS.len()
            );
            std::process::ExitCode::SUCCESS
        }
        Err(m) => {
            eprintln!("{m}");
            std::process::ExitCode::FAILURE
        }
    }
}
