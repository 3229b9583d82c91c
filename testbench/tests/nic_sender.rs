//! Co-simulation of `nic_sender` (the send side's senders): the Verilated RTL against one
//! sender model per connection (the backlog, the short packet and the SACK sender), every
//! output port on every cycle, at the default config (1024 connections, a 256-PSN window,
//! 64-bit segments), at 4 connections with a 32-PSN window, 8-bit segments, a 2 us probe
//! interval and a 5 us timeout (ids collide constantly; windows fill, probes and timeouts come
//! often), and at the same with a 16-PSN window and 16-bit segments (a SACK covers the whole
//! window). Every connection starts at a PSN 300 below the 2^24 wrap, its byte counters 16 KiB
//! below the 2^32 wrap. `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{
    nic_sender_small_config, nic_sender_whole_segment_config, NIC_SENDER_INITIAL_BYTES,
    SACK_INITIAL_PSN,
};
use testbench::designs::{
    NicSenderDefault, NicSenderNoForward1, NicSenderNoForward2, NicSenderNoForward3,
    NicSenderNoForward4, NicSenderNoForward5, NicSenderNoForward6, NicSenderNoForward7,
    NicSenderRetxInverted, NicSenderSettleBlind1, NicSenderSettleBlind4, NicSenderSmall,
    NicSenderWholeSegment,
};
use testbench::nic_sender::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/nic_sender.txt"
);

/// Cases of `case` to `3 * case` cycles: long enough at 1024 connections that the power-on
/// sweep (1025 cycles) is a small part of each.
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
fn nic_sender() {
    sweep(
        "nic_sender_default",
        NicSenderDefault::new,
        Config::default(),
        20_000,
    );
}

#[test]
fn nic_sender_small() {
    sweep(
        "nic_sender_small",
        NicSenderSmall::new,
        nic_sender_small_config(),
        5_000,
    );
}

/// The smallest window with a segment as wide as it: one placement, a SACK covering the
/// whole window.
#[test]
fn nic_sender_whole_segment() {
    sweep(
        "nic_sender_whole_segment",
        NicSenderWholeSegment::new,
        nic_sender_whole_segment_config(),
        5_000,
    );
}

/// The broken designs' case: the small config and a fixed 3,000 to 5,000-cycle stimulus.
fn broken_case() -> (Config, Vec<Cycle>) {
    let cfg = nic_sender_small_config();
    let mut runner = TestRunner::deterministic();
    let stim = stimulus(cfg.clone(), 3_000..5_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    (cfg, stim)
}

/// With the hold shell's forwarding off at any one distance (1 to 7 cycles between two events
/// on a connection), the co-sim fails: each distance is needed, and each is exercised.
#[test]
fn nic_sender_broken_variants_are_caught() {
    let (cfg, stim) = broken_case();
    let model = || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES);
    let reports = [
        assert_fault_is_caught(NicSenderNoForward1::new, NicSenderSmall::new, model, &stim),
        assert_fault_is_caught(NicSenderNoForward2::new, NicSenderSmall::new, model, &stim),
        assert_fault_is_caught(NicSenderNoForward3::new, NicSenderSmall::new, model, &stim),
        assert_fault_is_caught(NicSenderNoForward4::new, NicSenderSmall::new, model, &stim),
        assert_fault_is_caught(NicSenderNoForward5::new, NicSenderSmall::new, model, &stim),
        assert_fault_is_caught(NicSenderNoForward6::new, NicSenderSmall::new, model, &stim),
        assert_fault_is_caught(NicSenderNoForward7::new, NicSenderSmall::new, model, &stim),
    ];
    for (d, text) in reports.iter().enumerate() {
        println!("no forwarding at distance {}:\n{text}", d + 1);
    }
}

/// DECISION "settled searches": with the reposition of the event 1 or 4 cycles ahead unseen
/// (an event it unsettles stepped as settled: the nearest and the farthest distance the rule
/// covers), the co-sim fails.
#[test]
fn nic_sender_settling_variants_are_caught() {
    let (cfg, stim) = broken_case();
    let model = || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES);
    let one = assert_fault_is_caught(
        NicSenderSettleBlind1::new,
        NicSenderSmall::new,
        model,
        &stim,
    );
    let four = assert_fault_is_caught(
        NicSenderSettleBlind4::new,
        NicSenderSmall::new,
        model,
        &stim,
    );
    println!("reposition 1 ahead unseen:\n{one}\nreposition 4 ahead unseen:\n{four}");
}

/// With S3's window test by the lost count inverted (a settled transmit retransmits its lowest
/// lost PSN with the window shut, and not with it open), the co-sim fails: the test H3 leaves
/// to S3 is needed.
#[test]
fn nic_sender_retx_window_variant_is_caught() {
    let (cfg, stim) = broken_case();
    let model = || Block::new(&cfg, SACK_INITIAL_PSN, NIC_SENDER_INITIAL_BYTES);
    let text = assert_fault_is_caught(
        NicSenderRetxInverted::new,
        NicSenderSmall::new,
        model,
        &stim,
    );
    println!("window test by count inverted:\n{text}");
}
