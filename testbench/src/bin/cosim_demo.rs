//! `make demo`'s co-simulation step: the default-config RTL of every block, and of the
//! composed NIC and the switch load table, against the golden model. Usage: cosim_demo [CYCLES]

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use testbench::configs::SACK_INITIAL_PSN;
use testbench::designs::{
    CwndUnitDefault, EntropyBitmapDefault, LoadTableDefault, SackReceiverDefault,
    SackSenderDefault, StrackNicDefault,
};
use testbench::{
    cwnd_unit, entropy_bitmap, fixed_stimulus, load_table, run, sack_receiver, sack_sender,
    strack_nic, CosimBlock, Report,
};

fn show<B: CosimBlock>(name: &str, r: Result<Report, Box<testbench::Mismatch>>) -> bool {
    match r {
        Ok(r) => {
            let missing = r.coverage.missing(B::COVERAGE_POINTS);
            let hit = B::COVERAGE_POINTS.len() - missing.len();
            println!(
                "  {name}: {} cycles compared on every output port, {} events, 0 mismatches, coverage {hit}/{} points",
                r.cycles,
                r.events,
                B::COVERAGE_POINTS.len()
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
    let stim = sack_sender::stream(&cfg, sack_sender::demo_mix(1, cycles));
    let ok = show::<sack_sender::Block>(
        &format!(
            "sack_sender (rx_window {}, sack_bits {}; closed loop with a model receiver)",
            cfg.sack.rx_window, cfg.sack.sack_bits
        ),
        run(
            SackSenderDefault::new,
            || sack_sender::Block::new(&cfg, SACK_INITIAL_PSN),
            0,
            &stim,
            "demo",
        ),
    ) && ok;
    let stim = strack_nic::stream(&cfg, strack_nic::demo_mix(1, cycles));
    let ok = show::<strack_nic::Block>(
        "strack_nic (the four blocks composed; closed loop with a peer model NIC)",
        run(
            StrackNicDefault::new,
            || strack_nic::Block::new(&cfg, SACK_INITIAL_PSN),
            0,
            &stim,
            "demo",
        ),
    ) && ok;
    let stim = fixed_stimulus(load_table::stimulus(&cfg, 5_000..15_000), cycles, 1);
    let t = &cfg.load_table;
    let ok = show::<load_table::Block>(
        &format!(
            "load_table ({} links x {} slots x {}-bit loads)",
            t.links, t.slots, t.load_bits
        ),
        run(
            LoadTableDefault::new,
            || load_table::Block::new(&cfg),
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
