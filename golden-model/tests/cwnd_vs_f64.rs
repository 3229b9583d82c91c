//! The fixed-point cwnd unit against the f64 transcription of the paper.
//!
//! Bounds (stated in docs/golden-model.md; default formats: cwnd Q24.8, avg_delay Q24.8, a
//! 256-entry reciprocal table):
//! - per step, from the same state: |cwnd_fixed - cwnd_f64| <= PER_STEP_REL * cwnd_f64 + 2 bytes;
//! - over 10^5 ACKs run independently, same stream: the mean relative error stays below
//!   LONG_MEAN_REL, the largest below LONG_MAX_REL, and the two take the same Algorithm 4 branch on at least LONG_BRANCH_AGREE of
//!   the ACKs.

use golden_model::cwnd_unit::reference::{CwndUnitF64, Params};
use golden_model::cwnd_unit::{Branch, CwndUnit, In};
use golden_model::rng::SplitMix64;
use golden_model::Config;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Failures are kept in `golden-model/proptest-regressions/` (committed) and replayed first.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/cwnd_vs_f64.txt"
        )))),
        ..ProptestConfig::default()
    }
}

const PER_STEP_REL: f64 = 1.0 / 256.0;
const LONG_MEAN_REL: f64 = 0.005;
const LONG_MAX_REL: f64 = 0.02;
const LONG_BRANCH_AGREE: f64 = 0.999;

fn ack_strategy() -> impl Strategy<Value = (u32, u32, bool, u32, bool)> {
    (
        prop_oneof![Just(0u32), 0u32..2_000, 8_000u32..20_000],
        prop_oneof![
            0u32..8_000,
            8_000u32..24_000,
            24_000u32..200_000,
            Just(8_000u32),
            Just(24_000u32)
        ],
        any::<bool>(),
        prop_oneof![Just(0u32), 1u32..=8192, Just(16_384u32)],
        prop::bool::weighted(0.05),
    )
}

/// Put the f64 model in the fixed model's state.
fn sync(f: &mut CwndUnitF64, u: &CwndUnit) {
    let k = u.constants();
    f.cwnd = u.cwnd_q as f64 / (1u64 << k.cwnd_frac) as f64;
    f.avg_delay = u.avg_delay_q as f64 / (1u64 << k.delay_frac) as f64;
    f.base_rtt = u.base_rtt as f64;
    f.last_decrease_ts = u.last_decrease_ts;
    f.last_fairness_ts = u.last_fairness_ts;
    f.rx_count = u.rx_count as f64;
    f.rxcount_clear_ts = u.rxcount_clear_ts;
    f.achieved_bdp = u.achieved_bdp as f64;
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn per_step_error_is_bounded(acks in prop::collection::vec(ack_strategy(), 1..400)) {
        let cfg = Config::default();
        let mut u = CwndUnit::from_config(&cfg);
        let mut f = CwndUnitF64::new(Params::from_config(&cfg));
        let mut now = 0u32;
        for (i, &(dt, delay, ecn, acked, probe)) in acks.iter().enumerate() {
            now = now.wrapping_add(dt);
            let a = In { now, rtt: 8_000 + delay, ecn, acked_bytes: acked, is_probe_ack: probe };
            sync(&mut f, &u);
            let bf = f.step(&a);
            let o = u.step(&a);
            prop_assert_eq!(o.branch, bf, "branch differs at ACK {}", i);
            let got = o.cwnd_q as f64 / 256.0;
            let err = (got - f.cwnd).abs();
            prop_assert!(err <= PER_STEP_REL * f.cwnd + 2.0,
                "ACK {}: fixed {} f64 {} err {} ({:?})", i, got, f.cwnd, err, a);
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// With ACKs in flight (`step_pipelined`), against the f64 model computing its amounts from
    /// the same window `w`: the table's error applies to the amount (an increase can now exceed
    /// the window, a decrease is a share of `w`), so the bound is relative to the larger of the
    /// windows plus the change.
    #[test]
    fn per_step_error_with_acks_in_flight_is_bounded(
        acks in prop::collection::vec((ack_strategy(), 0usize..=golden_model::cwnd_unit::CWND_MAX_AHEAD), 1..400),
    ) {
        let cfg = Config::default();
        let mut u = CwndUnit::from_config(&cfg);
        let mut f = CwndUnitF64::new(Params::from_config(&cfg));
        let mut now = 0u32;
        for (i, &((dt, delay, ecn, acked, probe), ahead)) in acks.iter().enumerate() {
            now = now.wrapping_add(dt);
            let a = In { now, rtt: 8_000 + delay, ecn, acked_bytes: acked, is_probe_ack: probe };
            sync(&mut f, &u);
            let before = f.cwnd;
            let w = u.window_in_flight(ahead) as f64 / 256.0;
            let bf = f.step_from(&a, w);
            let o = u.step_pipelined(&a, ahead);
            prop_assert_eq!(o.branch, bf, "branch differs at ACK {}", i);
            let got = o.cwnd_q as f64 / 256.0;
            let err = (got - f.cwnd).abs();
            let bound = PER_STEP_REL * (f.cwnd.max(w) + (f.cwnd - before).abs()) + 2.0;
            prop_assert!(err <= bound,
                "ACK {}: fixed {} f64 {} err {} bound {} w {} ({:?})", i, got, f.cwnd, err, bound, w, a);
        }
    }
}

fn long_run(seed: u64, n: usize) -> (f64, f64, f64) {
    let cfg = Config::default();
    let mut u = CwndUnit::from_config(&cfg);
    let mut f = CwndUnitF64::new(Params::from_config(&cfg));
    let mut rng = SplitMix64::new(seed);
    let mut now = 0u32;
    let (mut sum_rel, mut max_rel, mut agree) = (0.0, 0.0f64, 0usize);
    // A closed-ish loop: the delay rises with the window, so every branch is visited.
    for _ in 0..n {
        now = now.wrapping_add(rng.below(400) as u32);
        let load = f.cwnd / 600_000.0;
        // A few uncongested samples keep base_rtt at 8 us.
        let delay = if rng.chance(0.02) {
            0
        } else {
            (load * 40_000.0) as u32 + rng.below(6_000) as u32
        };
        let ecn = rng.chance(load * 0.5);
        let a = In {
            now,
            rtt: 8_000 + delay,
            ecn,
            acked_bytes: 4096,
            is_probe_ack: false,
        };
        let b = u.step(&a).branch;
        let bf = f.step(&a);
        agree += (b == bf) as usize;
        let rel = ((u.cwnd_q as f64 / 256.0) - f.cwnd).abs() / f.cwnd;
        sum_rel += rel;
        max_rel = max_rel.max(rel);
    }
    (sum_rel / n as f64, max_rel, agree as f64 / n as f64)
}

#[test]
fn long_run_error_over_1e5_acks_is_bounded() {
    for seed in 1..=3 {
        let (mean, max, agree) = long_run(seed, 100_000);
        println!(
            "seed {seed}: mean rel err {mean:.2e}, max {max:.2e}, branch agreement {agree:.5}"
        );
        assert!(
            mean < LONG_MEAN_REL,
            "seed {seed}: mean relative error {mean}"
        );
        assert!(
            max < LONG_MAX_REL,
            "seed {seed}: largest relative error {max}"
        );
        assert!(
            agree >= LONG_BRANCH_AGREE,
            "seed {seed}: branch agreement {agree}"
        );
    }
}

#[test]
fn every_branch_is_reached_by_the_long_run_stream() {
    let cfg = Config::default();
    let mut u = CwndUnit::from_config(&cfg);
    let mut rng = SplitMix64::new(7);
    let mut now = 0u32;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..100_000 {
        now = now.wrapping_add(rng.below(400) as u32);
        let load = u.cwnd_q as f64 / 256.0 / 600_000.0;
        // A few uncongested samples keep base_rtt at 8 us.
        let delay = if rng.chance(0.02) {
            0
        } else {
            (load * 40_000.0) as u32 + rng.below(6_000) as u32
        };
        let ecn = rng.chance(load * 0.5);
        let acked = if rng.chance(0.01) { 0 } else { 4096 };
        seen.insert(
            u.step(&In {
                now,
                rtt: 8_000 + delay,
                ecn,
                acked_bytes: acked,
                is_probe_ack: false,
            })
            .branch,
        );
    }
    for b in [
        Branch::AdditiveIncrease,
        Branch::ProportionalIncrease,
        Branch::MultiplicativeDecrease,
        Branch::AchievedBdpCut,
        Branch::Hold,
    ] {
        assert!(seen.contains(&b), "{b:?} never taken: {seen:?}");
    }
}
