//! Co-simulation of `sack_sender`, closed loop against a model receiver over lossy links with
//! forged SACKs mixed in: the Verilated RTL against the golden model, every output port on
//! every cycle, for the default design (256-PSN window, 64-bit segments) and a small one
//! (32-PSN window, 8-bit segments); both start just before the 2^24 PSN wrap.
//! `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use testbench::configs::{small_sack_config, SACK_INITIAL_PSN};
use testbench::designs::{SackSenderBroken, SackSenderDefault, SackSenderSmall};
use testbench::sack_sender::{demo_mix, stimulus, stream, Block};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/sack_sender.txt"
);

#[test]
fn sack_sender() {
    let cfg = Config::default();
    cosim_proptest(
        "sack_sender_default",
        SackSenderDefault::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn sack_sender_small() {
    let cfg = small_sack_config();
    cosim_proptest(
        "sack_sender_small",
        SackSenderSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

/// A broken RTL (the OOO-count loss detector never fires) must be caught.
#[test]
fn sack_sender_broken_variant_is_caught() {
    let cfg = small_sack_config();
    let stim = stream(&cfg, demo_mix(11, 20_000));
    let text = assert_fault_is_caught(
        SackSenderBroken::new,
        SackSenderSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        &stim,
    );
    println!("{text}");
}
