//! Co-simulation of `load_table`: the Verilated RTL against the golden model, every output
//! port on every cycle, resets included, over the (links, slots, load_bits) sweep (4,4,8),
//! (8,10,16), (64,16,16) and the default (64,10,16). `STRACK_COSIM_CYCLES` sets the cycles per
//! design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{load_table_4x4_config, load_table_64x16_config, load_table_8x10_config};
use testbench::designs::{
    LoadTable4x4, LoadTable64x16, LoadTable8x10, LoadTableBroken, LoadTableDefault,
    LoadTableResetKeepsRows,
};
use testbench::load_table::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/load_table.txt"
);

fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg),
        stimulus(&cfg, 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn load_table() {
    sweep(
        "load_table_default",
        LoadTableDefault::new,
        Config::default(),
    );
}

#[test]
fn load_table_4x4() {
    sweep("load_table_4x4", LoadTable4x4::new, load_table_4x4_config());
}

#[test]
fn load_table_8x10() {
    sweep(
        "load_table_8x10",
        LoadTable8x10::new,
        load_table_8x10_config(),
    );
}

#[test]
fn load_table_64x16() {
    sweep(
        "load_table_64x16",
        LoadTable64x16::new,
        load_table_64x16_config(),
    );
}

/// A broken RTL (no read-modify-write forwarding) must be caught: back-to-back packets on one
/// link read a stale row.
#[test]
fn load_table_broken_variant_is_caught() {
    let cfg = load_table_4x4_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(&cfg, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let text = assert_fault_is_caught(
        LoadTableBroken::new,
        LoadTable4x4::new,
        || Block::new(&cfg),
        &stim,
    );
    println!("{text}");
}

/// A reset that leaves the rows (the epoch clock not moved on) must be caught: random stimulus
/// with one more reset forced half-way, after which a packet on a link written just before it
/// reads the old row instead of an empty one.
#[test]
fn load_table_reset_that_keeps_the_rows_is_caught() {
    let cfg = load_table_4x4_config();
    let mut runner = TestRunner::deterministic();
    let mut stim: Vec<Cycle> = stimulus(&cfg, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let half = stim.len() / 2;
    stim[half].reset = true;
    let text = assert_fault_is_caught(
        LoadTableResetKeepsRows::new,
        LoadTable4x4::new,
        || Block::new(&cfg),
        &stim,
    );
    println!("{text}");
}
