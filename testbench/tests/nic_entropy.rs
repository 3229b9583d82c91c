//! Co-simulation of `nic_entropy` (the send side's entropy bitmaps): the Verilated RTL against
//! one entropy-bitmap model per connection, every output port on every cycle, at the default
//! config (1024 connections, 256 paths) and at 4 connections with 16 paths and a 5 us bitmap
//! reset (ids collide constantly, bitmaps fill and reset often). `STRACK_COSIM_CYCLES` sets the
//! cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::nic_entropy_small_config;
use testbench::designs::{
    NicEntropyDefault, NicEntropyNoForward1, NicEntropyNoForward2, NicEntropyNoForward3,
    NicEntropyNoForward4, NicEntropyNoForward5, NicEntropyNoForward6, NicEntropyNoForward7,
    NicEntropyNoWrapClear, NicEntropySmall,
};
use testbench::nic_entropy::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/nic_entropy.txt"
);

/// Cases of `case` to `3 * case` cycles: long enough at 1024 connections that the power-on
/// sweep (1025 cycles) is a small part of each.
fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config, case: usize) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg),
        stimulus(cfg.clone(), case..case * 3),
        (case * 2) as u64,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn nic_entropy() {
    sweep(
        "nic_entropy_default",
        NicEntropyDefault::new,
        Config::default(),
        20_000,
    );
}

#[test]
fn nic_entropy_small() {
    sweep(
        "nic_entropy_small",
        NicEntropySmall::new,
        nic_entropy_small_config(),
        5_000,
    );
}

/// With the context shell's forwarding off at any one distance (1 to 7 cycles between two
/// events on a connection), the co-sim fails: each distance is needed, and each is exercised;
/// so does the loop without the event ahead's clear of bit 0.
#[test]
fn nic_entropy_broken_variants_are_caught() {
    let cfg = nic_entropy_small_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(cfg.clone(), 3_000..5_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    macro_rules! caught {
        ($($d:literal => $design:ident),*) => {$(
            let text = assert_fault_is_caught(
                $design::new,
                NicEntropySmall::new,
                || Block::new(&cfg),
                &stim,
            );
            println!("no forwarding at distance {}:\n{text}", $d);
        )*};
    }
    caught!(1 => NicEntropyNoForward1, 2 => NicEntropyNoForward2, 3 => NicEntropyNoForward3,
        4 => NicEntropyNoForward4, 5 => NicEntropyNoForward5, 6 => NicEntropyNoForward6,
        7 => NicEntropyNoForward7);
    // The loop's bit-0 candidate without the event ahead's clear of it (its start, wrapped).
    let text = assert_fault_is_caught(
        NicEntropyNoWrapClear::new,
        NicEntropySmall::new,
        || Block::new(&cfg),
        &stim,
    );
    println!("bit 0 not cleared by the event ahead's wrapped start:\n{text}");
}
