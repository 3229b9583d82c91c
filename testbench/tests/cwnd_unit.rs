//! Co-simulation of `cwnd_unit`: the Verilated RTL against the fixed-point golden model, every
//! output port on every cycle, with idle cycles and back-pressure, for the default design and a
//! small one (256-byte MTU, 16-entry reciprocal table, narrow fractions). `STRACK_COSIM_CYCLES`
//! sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::small_cwnd_config;
use testbench::cwnd_unit::{stimulus, Block, Cycle, Scale};
use testbench::designs::{CwndUnitBroken, CwndUnitDefault, CwndUnitSmall};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/cwnd_unit.txt"
);

#[test]
fn cwnd_unit() {
    let cfg = Config::default();
    cosim_proptest(
        "cwnd_unit_default",
        CwndUnitDefault::new,
        || Block::new(&cfg),
        stimulus(Scale::of(&cfg), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn cwnd_unit_small() {
    let cfg = small_cwnd_config();
    cosim_proptest(
        "cwnd_unit_small",
        CwndUnitSmall::new,
        || Block::new(&cfg),
        stimulus(Scale::of(&cfg), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

/// A broken RTL (the fairness increase never applied) must be caught.
#[test]
fn cwnd_unit_broken_variant_is_caught() {
    let cfg = small_cwnd_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(Scale::of(&cfg), 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let text = assert_fault_is_caught(
        CwndUnitBroken::new,
        CwndUnitSmall::new,
        || Block::new(&cfg),
        &stim,
    );
    println!("{text}");
}
