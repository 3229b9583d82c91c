//! Co-simulation of `cwnd_unit`: the Verilated RTL against the fixed-point golden model, every
//! output port on every cycle, with idle cycles, back-pressure and resets, for the default
//! design, a small one (256-byte MTU, 16-entry reciprocal table, narrow fractions, a `max_cwnd`
//! not a multiple of 8) and a wide one (Q20.12 window, 4096-entry table, increases past 2^36
//! LSB). `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::{small_cwnd_config, wide_cwnd_config};
use testbench::cwnd_unit::{bdp_threshold_phase, stimulus, Block, Cycle, Scale};
use testbench::designs::{
    CwndUnitBroken, CwndUnitDefault, CwndUnitRatioCap, CwndUnitResetKeepsWindow,
    CwndUnitRoundedBdpTest, CwndUnitSmall, CwndUnitWide,
};
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

#[test]
fn cwnd_unit_wide() {
    let cfg = wide_cwnd_config();
    cosim_proptest(
        "cwnd_unit_wide",
        CwndUnitWide::new,
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

/// A cut at the threshold, then uncongested ACKs for several windows at once: the exact test
/// cuts at achievedBDP = floor(8197 / 8) = 1024 (8 x 1024 < 8197) and the window, 1024 B, then
/// takes ACKs of 4096 B (four windows and more) in the proportional arm, below max_cwnd.
fn threshold_then_big_acks(cfg: &golden_model::Config) -> Vec<Cycle> {
    let s = Scale::of(cfg);
    let mut stim = bdp_threshold_phase(s, (s.max_cwnd - 1) / 8, 6);
    stim.extend((0..20).map(|i| Cycle {
        dt: 20,
        s_valid: true,
        rtt: s.base_rtt + i,
        ecn: false,
        acked: 16 * s.mtu,
        probe: false,
        m_ready: true,
        reset: false,
        noise: 0,
    }));
    let mut runner = TestRunner::deterministic();
    stim.extend(
        stimulus(s, 2_000..4_000)
            .new_tree(&mut runner)
            .unwrap()
            .current(),
    );
    stim
}

/// An old rule's variant must fail on the small design (whose `max_cwnd`, 8197, is not a
/// multiple of 8) where the design without the fault passes.
fn old_rule_is_caught<D: testbench::Dut>(name: &str, broken: fn(bool) -> D) {
    println!("built: {name}");
    let cfg = small_cwnd_config();
    assert!(!cfg.max_cwnd_bytes().is_multiple_of(8));
    let text = assert_fault_is_caught(
        broken,
        CwndUnitSmall::new,
        || Block::new(&cfg),
        &threshold_then_big_acks(&cfg),
    );
    println!("{text}");
}

/// The old cap on `acked/w` (just below 4) must be caught.
#[test]
fn cwnd_unit_ratio_cap_is_caught() {
    old_rule_is_caught(
        "cwnd_unit_ratio_cap = cwnd_unit with hdl::Fault::CwndUnitRatioCap",
        CwndUnitRatioCap::new,
    );
}

/// The old achievedBDP test against `floor(max_cwnd / 8)` must be caught.
#[test]
fn cwnd_unit_rounded_bdp_test_is_caught() {
    old_rule_is_caught(
        "cwnd_unit_rounded_bdp_test = cwnd_unit with hdl::Fault::CwndUnitRoundedBdpTest",
        CwndUnitRoundedBdpTest::new,
    );
}

/// A reset that leaves the window must be caught: random stimulus (its congestion episodes cut
/// the window) with one more reset forced half-way, after which the window grows from the kept
/// one instead of `max_cwnd`.
#[test]
fn cwnd_unit_reset_that_keeps_the_window_is_caught() {
    let cfg = small_cwnd_config();
    let mut runner = TestRunner::deterministic();
    let mut stim: Vec<Cycle> = stimulus(Scale::of(&cfg), 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let half = stim.len() / 2;
    stim[half].reset = true;
    let text = assert_fault_is_caught(
        CwndUnitResetKeepsWindow::new,
        CwndUnitSmall::new,
        || Block::new(&cfg),
        &stim,
    );
    println!("{text}");
}
