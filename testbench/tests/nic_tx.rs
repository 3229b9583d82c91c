//! Co-simulation of `nic_tx` (the send side composed: the arbiter, the timer scan, the window
//! view, the transmit scheduler, the senders, the cwnd units and the entropy bitmaps): the
//! Verilated RTL against `golden_model::nic_tx::NicTx`, every output port (the four handshakes
//! included) on every cycle, at 4 connections with a 32-PSN window, 8-bit segments, a 2 us
//! probe interval and a 5 us timeout (ids collide constantly). At the default config (1024
//! connections) the same RTL, model, stimulus and coverage run inside the composed NIC's
//! co-sim (`tests/nic.rs`). Every connection starts 300 PSNs below the 2^24 wrap and 16 KiB below the
//! 2^32 byte wrap. `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{nic_sender_small_config, NIC_SENDER_INITIAL_BYTES, SACK_INITIAL_PSN};
use testbench::designs::{NicTxSenderNoForward1, NicTxSmall};
use testbench::nic_tx::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/nic_tx.txt"
);

fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config, case: usize) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES),
        stimulus(cfg.clone(), case..case * 3),
        (case * 2) as u64,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn nic_tx_small() {
    sweep(
        "nic_tx_small",
        NicTxSmall::new,
        nic_sender_small_config(),
        5_000,
    );
}

/// With the senders' forwarding off at distance 1 the composed send side fails the co-sim
/// (each block's own co-sim has a broken design per forwarding distance).
#[test]
fn nic_tx_broken_variants_are_caught() {
    let cfg = nic_sender_small_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(cfg.clone(), 5_000..8_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let model = || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES);
    let a = assert_fault_is_caught(NicTxSenderNoForward1::new, NicTxSmall::new, model, &stim);
    println!("senders without forwarding at distance 1:\n{a}");
}
