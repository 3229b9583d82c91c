//! Co-simulation of `entropy_bitmap`: the Verilated RTL against the golden model, every output
//! port on every cycle, with random idle cycles and back-pressure, for the default design
//! (256 paths) and a small one (16 paths, frequent resets). `STRACK_COSIM_CYCLES` sets the
//! cycles per design (default 10^6; `make cosim-long` runs 10^8).

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::small_config;
use testbench::designs::{EntropyBitmapBroken, EntropyBitmapDefault, EntropyBitmapSmall};
use testbench::entropy_bitmap::{stimulus, Block, Cycle};
use testbench::{cosim_proptest, cycles_budget, run};

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
    let m = run(
        EntropyBitmapBroken::new,
        || Block::new(&p),
        0,
        &stim,
        "broken-selftest",
    )
    .expect_err("the broken RTL passed co-simulation");
    let text = m.to_string();
    println!("{text}");
    assert!(text.contains("first mismatch at cycle"));
    assert!(text.contains("<-- differs"));
    let vcd = m.vcd.expect("a VCD of the failing run");
    assert!(
        std::fs::metadata(&vcd)
            .map(|md| md.len() > 0)
            .unwrap_or(false),
        "{}",
        vcd.display()
    );
    // The same stimulus passes on the correct RTL.
    run(
        EntropyBitmapSmall::new,
        || Block::new(&p),
        0,
        &stim,
        "broken-selftest-good",
    )
    .unwrap();
}
