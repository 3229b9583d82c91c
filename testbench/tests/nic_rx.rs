//! Co-simulation of `nic_rx` (the multi-connection NIC's receive side): the Verilated RTL
//! against one SACK receiver model per connection, every output port on every cycle, at 4
//! connections (packets on one connection at every distance, constantly); at the default 1024
//! the same RTL, model, stimulus and coverage run inside the composed NIC's co-sim
//! (`tests/nic.rs`). `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{nic_rx_small_config, SACK_INITIAL_PSN};
use testbench::designs::{
    NicRxFromBaseFlipped, NicRxHeadWrapSwapped, NicRxHit1CopyFlipped, NicRxNoForward1,
    NicRxNoForward2, NicRxNoForward3, NicRxNoForward4, NicRxNoForward5, NicRxNoForward6,
    NicRxNoForward7, NicRxSmall,
};
use testbench::nic_rx::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/nic_rx.txt"
);

fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config, case: usize) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), SACK_INITIAL_PSN, case..case * 3),
        (case * 2) as u64,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn nic_rx_small() {
    sweep(
        "nic_rx_small",
        NicRxSmall::new,
        nic_rx_small_config(),
        5_000,
    );
}

/// With the context shell's forwarding off at any one distance (1 to 7 cycles between two
/// events on a connection), the co-sim fails: each distance is needed, and each is exercised.
#[test]
fn nic_rx_broken_variants_are_caught() {
    let cfg = nic_rx_small_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(cfg.clone(), SACK_INITIAL_PSN, 3_000..5_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let model = || Block::new(&cfg, SACK_INITIAL_PSN);
    let reports = [
        assert_fault_is_caught(NicRxNoForward1::new, NicRxSmall::new, model, &stim),
        assert_fault_is_caught(NicRxNoForward2::new, NicRxSmall::new, model, &stim),
        assert_fault_is_caught(NicRxNoForward3::new, NicRxSmall::new, model, &stim),
        assert_fault_is_caught(NicRxNoForward4::new, NicRxSmall::new, model, &stim),
        assert_fault_is_caught(NicRxNoForward5::new, NicRxSmall::new, model, &stim),
        assert_fault_is_caught(NicRxNoForward6::new, NicRxSmall::new, model, &stim),
        assert_fault_is_caught(NicRxNoForward7::new, NicRxSmall::new, model, &stim),
    ];
    for (d, text) in reports.iter().enumerate() {
        println!("no forwarding at distance {}:\n{text}", d + 1);
    }
    // The flags for the event behind a head (`HeadVariant`) picked by the wrong wrap case.
    let text = assert_fault_is_caught(NicRxHeadWrapSwapped::new, NicRxSmall::new, model, &stim);
    println!("head flags picked by the wrong wrap case:\n{text}");
    // The shell's private flag copies (`h_from_base`, `m_hit1_n`) stored with the wrong
    // sense: the selects the receive side makes on them alone are checked too.
    let text = assert_fault_is_caught(NicRxFromBaseFlipped::new, NicRxSmall::new, model, &stim);
    println!("H1's pick flag copy flipped:\n{text}");
    let text = assert_fault_is_caught(NicRxHit1CopyFlipped::new, NicRxSmall::new, model, &stim);
    println!("the loop's hit flag copy flipped:\n{text}");
}
