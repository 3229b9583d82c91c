//! Co-simulation of `entropy_bitmap`: the Verilated RTL against the golden model, every output
//! port on every cycle, with random idle cycles, back-pressure and synchronous resets (`s_reset`),
//! for the default design (256 paths) and a small one (16 paths, frequent periodic resets).
//! `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6; `make cosim-long` runs 10^8).

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::small_config;
use testbench::designs::{
    EntropyBitmapBroken, EntropyBitmapDefault, EntropyBitmapResetKeepsState, EntropyBitmapSmall,
};
use testbench::entropy_bitmap::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/entropy_bitmap.txt"
);

#[test]
fn entropy_bitmap() {
    let p = Params::from_config(&Config::default());
    cosim_proptest(
        "entropy_bitmap_default",
        EntropyBitmapDefault::new,
        || Block::new(&p),
        stimulus(p.max_paths, 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn entropy_bitmap_small() {
    let p = Params::from_config(&small_config());
    cosim_proptest(
        "entropy_bitmap_small",
        EntropyBitmapSmall::new,
        || Block::new(&p),
        stimulus(p.max_paths, 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

/// A deliberately broken RTL (ECN bit sense flipped) must be caught, with a report naming the
/// cycle, both values and a VCD.
#[test]
fn entropy_bitmap_broken_variant_is_caught() {
    let p = Params::from_config(&small_config());
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(p.max_paths, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let text = assert_fault_is_caught(
        EntropyBitmapBroken::new,
        EntropyBitmapSmall::new,
        || Block::new(&p),
        &stim,
    );
    println!("{text}");
}

/// A reset that leaves the state (bitmap, round-robin pointer, `next_path`, the last periodic
/// reset) must be caught: random stimulus with one more reset forced half-way, after which the
/// choices run from the kept pointer instead of entropy 0.
#[test]
fn entropy_bitmap_reset_that_keeps_the_state_is_caught() {
    let p = Params::from_config(&small_config());
    let mut runner = TestRunner::deterministic();
    let mut stim: Vec<Cycle> = stimulus(p.max_paths, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let half = stim.len() / 2;
    stim[half].reset = true;
    let text = assert_fault_is_caught(
        EntropyBitmapResetKeepsState::new,
        EntropyBitmapSmall::new,
        || Block::new(&p),
        &stim,
    );
    println!("{text}");
}
