//! Co-simulation of `tx_sched` (the send side's transmit scheduler): the Verilated RTL against
//! the model, every output port on every cycle, at 128 connections (four groups: the search
//! switches and wraps constantly), at 4 (one group) and at the default 1024.
//! `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{tx_sched_small_config, tx_sched_tiny_config};
use testbench::designs::{TxSchedDefault, TxSchedKeepStale, TxSchedSmall, TxSchedTiny};
use testbench::tx_sched::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/tx_sched.txt"
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
fn tx_sched() {
    sweep("tx_sched_default", TxSchedDefault::new, Config::default());
}

#[test]
fn tx_sched_small() {
    sweep("tx_sched_small", TxSchedSmall::new, tx_sched_small_config());
}

/// 4 connections: one group, the search padded to 16 groups.
#[test]
fn tx_sched_tiny() {
    sweep("tx_sched_tiny", TxSchedTiny::new, tx_sched_tiny_config());
}

/// Keeping a search result across a load (it searched from a group no longer served) fails
/// the co-sim.
#[test]
fn tx_sched_broken_variant_is_caught() {
    let cfg = tx_sched_small_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(&cfg, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let text = assert_fault_is_caught(
        TxSchedKeepStale::new,
        TxSchedSmall::new,
        || Block::new(&cfg),
        &stim,
    );
    println!("search kept across a load:\n{text}");
}
