//! Co-simulation of `entropy_bitmap`: the Verilated RTL against the golden model, every output
//! port on every cycle, with random idle cycles and back-pressure, for the default design
//! (256 paths) and a small one (16 paths, frequent resets). `STRACK_COSIM_CYCLES` sets the
//! cycles per design (default 10^6; `make cosim-long` runs 10^8).

use std::sync::Mutex;

use golden_model::entropy_bitmap::Params;
use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{
    Config as PtConfig, FileFailurePersistence, TestCaseError, TestRunner,
};
use testbench::configs::small_config;
use testbench::designs::{EntropyBitmapBroken, EntropyBitmapDefault, EntropyBitmapSmall};
use testbench::entropy_bitmap::{run, stimulus, Coverage, Cycle};
use testbench::{cycles_budget, Dut};

const CASE_LEN: std::ops::Range<usize> = 5_000..15_000;

fn cosim<D: Dut>(make: fn(bool) -> D, cfg: &Config, budget: u64) -> (u64, Coverage) {
    let params = Params::from_config(cfg);
    let cases = (budget / ((CASE_LEN.start + CASE_LEN.end) as u64 / 2)).max(1) as u32;
    let mut runner = TestRunner::new(PtConfig {
        cases,
        max_shrink_iters: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/entropy_bitmap.txt"
        )))),
        ..PtConfig::default()
    });
    let total = Mutex::new((0u64, Coverage::default()));
    let strategy = (stimulus(params.max_paths, CASE_LEN), prop_start());
    let result = runner.run(&strategy, |(stim, start)| {
        let r = run(make, &params, start, &stim, "case")
            .map_err(|m| TestCaseError::fail(m.to_string()))?;
        let mut t = total.lock().unwrap();
        t.0 += r.cycles;
        t.1.merge(&r.coverage);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    total.into_inner().unwrap()
}

fn prop_start() -> impl Strategy<Value = u32> {
    proptest::prop_oneof![
        proptest::strategy::Just(0u32),
        proptest::prelude::any::<u32>(),
        proptest::strategy::Just(u32::MAX - 3_000)
    ]
}

fn check(name: &str, cycles: u64, cov: &Coverage, budget: u64) {
    println!("{name}: {cycles} cycles compared, coverage {:?}", cov.0);
    assert!(
        cycles >= budget * 9 / 10,
        "{name}: only {cycles} cycles compared (budget {budget})"
    );
    let missing = cov.missing();
    assert!(
        missing.is_empty(),
        "{name}: coverage points never hit: {missing:?}"
    );
}

#[test]
fn entropy_bitmap() {
    let budget = cycles_budget(1_000_000);
    let (cycles, cov) = cosim(EntropyBitmapDefault::new, &Config::default(), budget);
    check("entropy_bitmap_default", cycles, &cov, budget);
}

#[test]
fn entropy_bitmap_small() {
    let budget = cycles_budget(1_000_000);
    let (cycles, cov) = cosim(EntropyBitmapSmall::new, &small_config(), budget);
    check("entropy_bitmap_small", cycles, &cov, budget);
}

/// A deliberately broken RTL (ECN bit sense flipped) must be caught, with a report naming the
/// cycle, both values and a VCD.
#[test]
fn entropy_bitmap_broken_variant_is_caught() {
    let cfg = small_config();
    let params = Params::from_config(&cfg);
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(params.max_paths, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let m = run(
        EntropyBitmapBroken::new,
        &params,
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
        &params,
        0,
        &stim,
        "broken-selftest-good",
    )
    .unwrap();
}
