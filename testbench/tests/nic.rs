//! Co-simulation of `nic` (the NIC composed: the send side, the receive side, one open port):
//! the Verilated RTL against the models of both sides joined by the open port's rule, every
//! output port on every cycle, at the default config (1024 connections) and at 4 connections
//! (ids collide constantly). `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{nic_sender_small_config, NIC_SENDER_INITIAL_BYTES, SACK_INITIAL_PSN};
use testbench::designs::{NicDefault, NicNoForward1, NicSmall};
use testbench::nic::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/nic.txt");

fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config, case: usize) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES),
        stimulus(cfg.clone(), SACK_INITIAL_PSN, case..case * 3),
        (case * 2) as u64,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn nic() {
    sweep("nic_default", NicDefault::new, Config::default(), 20_000);
}

#[test]
fn nic_small() {
    sweep("nic_small", NicSmall::new, nic_sender_small_config(), 5_000);
}

/// With the context shells' forwarding off at distance 1 (the senders' and the receivers')
/// the composed NIC fails the co-sim.
#[test]
fn nic_broken_variant_is_caught() {
    let cfg = nic_sender_small_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(cfg.clone(), SACK_INITIAL_PSN, 5_000..8_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let model = || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES);
    let a = assert_fault_is_caught(NicNoForward1::new, NicSmall::new, model, &stim);
    println!("forwarding off at distance 1:\n{a}");
}
