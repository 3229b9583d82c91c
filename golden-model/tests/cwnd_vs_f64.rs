//! The fixed-point cwnd unit against the f64 transcription of the paper.
//!
//! - One step, from the same state, on random valid configs, random states and random ACKs
//!   (any `acked_bytes` the field carries, probe ACKs, achievedBDP cuts, any window in
//!   flight): the windows differ by at most the config's bound
//!   (`cwnd_unit::bound::step_error_bound`, what `strackgen config show` prints), or the two
//!   take different arms in the one documented case (the averages on two sides of the target).
//! - Free-running over 10^5 ACKs on the default config, same stream: the drift stays small and
//!   the two take the same Algorithm 4 arm on at least LONG_BRANCH_AGREE of the ACKs.

use golden_model::cwnd_unit::bound::step_error_bound;
use golden_model::cwnd_unit::reference::{CwndUnitF64, Params};
use golden_model::cwnd_unit::{Branch, CwndUnit, In, ACKED_MAX, CWND_MAX_AHEAD, RTT_MAX};
use golden_model::rng::SplitMix64;
use golden_model::Config;
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError, TestRunner};
use std::collections::BTreeMap;
use std::sync::Mutex;

const LONG_MEAN_REL: f64 = 0.005;
const LONG_MAX_REL: f64 = 0.02;
const LONG_BRANCH_AGREE: f64 = 0.999;

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

/// A valid config drawn over the whole range of every cwnd-unit field: rates, base RTTs and
/// MTUs over their ranges (log-spread), any EWMA, gamma, target, window cap and formats; the
/// receive window the smallest that holds the window cap.
fn valid_config() -> impl Strategy<Value = Config> {
    (
        prop_oneof![1u32..=10, 10u32..=100, 100u32..=800, 800u32..=3200],
        prop_oneof![
            100u32..=1_000,
            1_000u32..=20_000,
            20_000u32..=200_000,
            200_000u32..=1_000_000
        ],
        8u32..=14,
        1u32..=8,
        0.01f64..0.99,
        prop_oneof![Just(None), (0.0f64..1.0).prop_map(Some)],
        prop_oneof![Just(None), (100u32..=100_000).prop_map(Some)],
        (0u32..=12, 0u32..=8, 4u32..=12),
    )
        .prop_filter_map(
            "a valid config",
            |(gbps, rtt, mtu_log2, ewma_shift, gamma, max_frac, tq, (cf, df, r))| {
                let mut c = Config::default();
                c.network.link_speed_gbps = gbps;
                c.network.net_base_rtt_ns = rtt;
                c.network.mtu_bytes = 1 << mtu_log2;
                c.cwnd_unit.ewma = 1.0 / (1u32 << ewma_shift) as f64;
                c.cwnd_unit.gamma = gamma;
                c.cwnd_unit.target_qdelay_ns = tq;
                c.fixed_point.cwnd_frac_bits = cf;
                c.fixed_point.delay_frac_bits = df;
                c.fixed_point.recip_index_bits = r;
                c.sack.probe_interval_ns = None;
                c.sack.rto_ns = 3 * rtt + 1;
                if let Some(x) = max_frac {
                    // from one MTU to the most the field and a 4096-PSN window hold
                    let mtu = 1u64 << mtu_log2;
                    let top = (4094 * mtu).min((1u64 << (32 - cf)) - 1);
                    c.cwnd_unit.max_cwnd_bytes =
                        Some((mtu + ((top - mtu) as f64 * x) as u64) as u32);
                }
                let need = c.max_cwnd_bytes().div_ceil(c.network.mtu_bytes) + 2;
                c.sack.rx_window = need.next_power_of_two().max(16);
                c.validate().ok().map(|_| c)
            },
        )
}

/// A state of the unit from anywhere in its range: window and windows in flight between MTU
/// and max_cwnd (their ends often), an average delay anywhere (near the target often), a base
/// RTT, achievedBDP around max_cwnd / 8, timers before or after their intervals.
fn state(u: &mut CwndUnit, r: &mut SplitMix64, now: u32) {
    let k = u.constants().clone();
    let win = |r: &mut SplitMix64| match r.below(4) {
        0 => k.mtu_q,
        1 => k.max_cwnd_q,
        _ => k.mtu_q + r.below((k.max_cwnd_q - k.mtu_q) as u64 + 1) as u32,
    };
    u.set_cwnd_q(win(r));
    for h in u.history.iter_mut().skip(1) {
        if r.chance(0.3) {
            *h = win(r);
        }
    }
    let tq_q = (k.tq_ns as u64) << k.delay_frac;
    let avg_max = ((RTT_MAX as u64) << k.delay_frac) as u32;
    u.avg_delay_q = match r.below(4) {
        0 => (tq_q as i64 + r.below(9) as i64 - 4).max(0) as u32,
        1 => r.below(2 * tq_q + 1) as u32,
        2 => r.below(20 * tq_q + 1).min(avg_max as u64) as u32,
        _ => r.below(avg_max as u64 + 1) as u32,
    };
    u.base_rtt = match r.below(3) {
        0 => RTT_MAX,
        _ => 1 + r.below(RTT_MAX as u64 / 4) as u32,
    };
    let eighth = k.max_cwnd_bytes / 8;
    u.achieved_bdp = match r.below(4) {
        0 => eighth.saturating_sub(2) + r.below(5) as u32,
        1 => r.below(eighth as u64 + 1) as u32,
        2 => 0,
        _ => r.next_u64() as u32,
    };
    u.rx_count = if r.chance(0.1) {
        u32::MAX - r.below(1 << 24) as u32
    } else {
        r.below(1 << 24) as u32
    };
    let ago = |r: &mut SplitMix64| now.wrapping_sub(r.below(4 * u.base_rtt as u64 + 2) as u32);
    u.last_decrease_ts = ago(r);
    u.last_fairness_ts = ago(r);
    u.rxcount_clear_ts = ago(r);
}

/// An ACK over every region: delays below, at and between the targets and far above, RTTs
/// that set a new base, any `acked_bytes` up to the field's largest, probe ACKs.
fn ack(u: &CwndUnit, r: &mut SplitMix64, now: u32) -> In {
    let k = u.constants();
    let tq = k.tq_ns as u64;
    let base = u.base_rtt.min(RTT_MAX / 2) as u64;
    let delay = match r.below(7) {
        0 => 0,
        1 => r.below(tq),
        2 => tq,
        3 => tq + r.below(2 * tq + 1),
        4 => 3 * tq,
        5 => 3 * tq + 1 + r.below(9 * tq),
        _ => r.below(RTT_MAX as u64),
    };
    let rtt = if r.chance(0.05) {
        r.below(base + 1)
    } else {
        (base + delay).min(RTT_MAX as u64)
    };
    let mtu = 1u64 << k.mtu_log2;
    let acked = match r.below(6) {
        0 => 0,
        1 => 1 + r.below(mtu),
        2 => mtu * (1 + r.below(16)),
        3 => r.below(ACKED_MAX as u64 + 1),
        4 => ACKED_MAX as u64,
        _ => ((u.cwnd_q >> k.cwnd_frac) as u64 * (4 + r.below(60))).min(ACKED_MAX as u64),
    };
    In {
        now,
        rtt: rtt as u32,
        ecn: r.chance(0.3),
        acked_bytes: acked as u32,
        is_probe_ack: r.chance(0.05),
    }
}

/// What a run of the one-step check saw.
#[derive(Debug, Default)]
struct Seen {
    steps: u64,
    configs: u64,
    arms: BTreeMap<String, u64>,
    /// Steps with `acked_bytes >= 4 * w`.
    big_acks: u64,
    /// Steps whose arms differed (the documented straddle of the target).
    straddles: u64,
    /// The largest error as a share of the bound.
    worst_share: f64,
}

#[test]
fn every_step_is_within_the_config_bound() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 384,
        max_global_rejects: 1_000_000,
        max_local_rejects: 10_000_000,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/cwnd_vs_f64.txt"
        )))),
        ..ProptestConfig::default()
    });
    let seen = Mutex::new(Seen::default());
    let result = runner.run(
        &(valid_config(), any::<u64>(), any::<u32>(), 20usize..200),
        |(cfg, seed, start, n)| {
            let b = step_error_bound(&cfg);
            let k = cfg.cwnd_constants();
            let q = 1.0 / (1u64 << k.cwnd_frac) as f64;
            let mut u = CwndUnit::from_config(&cfg);
            let mut f = CwndUnitF64::new(Params::from_config(&cfg));
            let mut r = SplitMix64::new(seed);
            let mut now = start;
            state(&mut u, &mut r, now);
            let mut s = seen.lock().unwrap();
            s.configs += 1;
            for i in 0..n {
                now = now.wrapping_add(match r.below(4) {
                    0 => 0,
                    1 => r.below(1_000) as u32,
                    2 => r.below(2 * u.base_rtt.min(RTT_MAX) as u64 + 2) as u32,
                    _ => r.below(1 << 30) as u32,
                });
                if r.chance(0.02) {
                    state(&mut u, &mut r, now);
                }
                let a = ack(&u, &mut r, now);
                let ahead = r.below(CWND_MAX_AHEAD as u64 + 1) as usize;
                sync(&mut f, &u);
                let w = u.window_in_flight(ahead) as f64 * q;
                let bf = f.step_from(&a, w);
                let o = u.step_pipelined(&a, ahead);
                s.steps += 1;
                *s.arms.entry(format!("{:?}", o.branch)).or_default() += 1;
                if a.acked_bytes as f64 >= 4.0 * w {
                    s.big_acks += 1;
                }
                if o.branch != bf {
                    // Only the averages on two sides of the target: the EWMA's shift drops
                    // delay bits and the f64 average is within one LSB of it.
                    let lsb = 1.0 / (1u64 << k.delay_frac) as f64;
                    prop_assert!(
                        k.delay_frac < k.ewma_shift && (f.avg_delay - k.tq_ns as f64).abs() < lsb,
                        "ACK {}: arms {:?} vs {:?}, avg f64 {} tq {} ({:?})",
                        i,
                        o.branch,
                        bf,
                        f.avg_delay,
                        k.tq_ns,
                        a
                    );
                    s.straddles += 1;
                    continue;
                }
                let got = o.cwnd_q as f64 * q;
                let err = (got - f.cwnd).abs();
                s.worst_share = s.worst_share.max(err / b.bytes);
                prop_assert!(
                    err <= b.bytes * (1.0 + 1e-9),
                    "ACK {} ({:?}, ahead {}): fixed {} f64 {} err {} > bound {:?}\nconfig {}",
                    i,
                    o.branch,
                    ahead,
                    got,
                    f.cwnd,
                    err,
                    b,
                    cfg.to_toml()
                );
            }
            Ok::<(), TestCaseError>(())
        },
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    let s = seen.into_inner().unwrap();
    println!("{s:?}");
    for arm in [
        "AdditiveIncrease",
        "ProportionalIncrease",
        "AchievedBdpCut",
        "MultiplicativeDecrease",
        "Hold",
    ] {
        assert!(
            s.arms.get(arm).copied().unwrap_or(0) > 0,
            "{arm} never taken: {s:?}"
        );
    }
    assert!(s.big_acks > s.steps / 20, "{s:?}");
}

/// A closed-ish loop on the default config (the delay rises with the window, so every arm is
/// visited), with coalesced ACKs now and then: 2% of them acknowledge up to 2^22 bytes (after
/// a cut, many windows). Returns the mean and largest relative drift of the fixed window from
/// the f64 one, the largest absolute drift (bytes), and the share of ACKs on which they took
/// the same arm.
fn long_run(seed: u64, n: usize) -> (f64, f64, f64, f64) {
    let cfg = Config::default();
    let mut u = CwndUnit::from_config(&cfg);
    let mut f = CwndUnitF64::new(Params::from_config(&cfg));
    let mut rng = SplitMix64::new(seed);
    let mut now = 0u32;
    let (mut sum_rel, mut max_rel, mut max_abs, mut agree) = (0.0, 0.0f64, 0.0f64, 0usize);
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
        let acked = if rng.chance(0.02) {
            rng.below(1 << 22) as u32
        } else {
            4096
        };
        let a = In {
            now,
            rtt: 8_000 + delay,
            ecn,
            acked_bytes: acked,
            is_probe_ack: false,
        };
        let b = u.step(&a).branch;
        let bf = f.step(&a);
        agree += (b == bf) as usize;
        let abs = ((u.cwnd_q as f64 / 256.0) - f.cwnd).abs();
        let rel = abs / f.cwnd;
        sum_rel += rel;
        max_rel = max_rel.max(rel);
        max_abs = max_abs.max(abs);
    }
    (
        sum_rel / n as f64,
        max_rel,
        max_abs,
        agree as f64 / n as f64,
    )
}

#[test]
fn free_running_drift_over_1e5_acks_is_small() {
    for seed in 1..=3 {
        let (mean, max, abs, agree) = long_run(seed, 100_000);
        println!(
            "seed {seed}: mean rel drift {mean:.2e}, max {max:.2e} ({abs:.0} B), \
             arm agreement {agree:.5}"
        );
        assert!(
            mean < LONG_MEAN_REL,
            "seed {seed}: mean relative drift {mean}"
        );
        assert!(
            max < LONG_MAX_REL,
            "seed {seed}: largest relative drift {max}"
        );
        assert!(
            agree >= LONG_BRANCH_AGREE,
            "seed {seed}: arm agreement {agree}"
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
