//! Two multi-connection NICs over a model link that delays, reorders, marks ECN and drops:
//! every byte arrives exactly once, on every connection.

use golden_model::loopback::{run, LinkParams, Message, Scenario};
use golden_model::Config;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Failures are kept in `golden-model/proptest-regressions/` (committed) and replayed first.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/loopback.txt"
        )))),
        ..ProptestConfig::default()
    }
}

fn scenario(link: LinkParams, messages: Vec<Message>) -> Scenario {
    Scenario {
        messages,
        link,
        step_ns: 10,
        time_limit_ns: 50_000_000,
        timeline_ns: 0,
    }
}

/// `n` messages of `bytes`, 2 us apart, on connections 0, 1, 2 in turn.
fn msgs(n: u64, bytes: u64) -> Vec<Message> {
    (0..n)
        .map(|i| Message {
            at_ns: i * 2_000,
            bytes,
            conn: (i % 3) as u32,
        })
        .collect()
}

#[test]
fn clean_link_delivers_everything_without_retransmission() {
    let link = LinkParams {
        drop_data: 0.0,
        drop_sack: 0.0,
        ecn_prob: 0.0,
        hot_every: 0,
        jitter_ns: 0,
        ..LinkParams::default()
    };
    let r = run(&Config::default(), &scenario(link, msgs(4, 256 * 1024)));
    assert!(r.delivered_exactly_once, "{:?}", r.problems);
    assert_eq!(r.retransmits, 0);
    assert_eq!(r.duplicates_at_receiver, 0);
    assert_eq!(r.loss_ooo + r.loss_probe + r.loss_timeout, 0);
}

#[test]
fn lossy_reordering_link_delivers_every_byte_exactly_once() {
    let r = run(
        &Config::default(),
        &scenario(LinkParams::default(), msgs(8, 256 * 1024 + 100)),
    );
    assert!(r.delivered_exactly_once, "{:?}", r.problems);
    assert!(r.data_dropped > 0 && r.retransmits > 0, "{r:?}");
    assert!(r.ecn_marked > 0);
}

#[test]
fn heavy_loss_recovers_through_every_detector() {
    let link = LinkParams {
        drop_data: 0.08,
        drop_sack: 0.2,
        jitter_ns: 3_000,
        seed: 5,
        ..LinkParams::default()
    };
    let r = run(&Config::default(), &scenario(link, msgs(6, 512 * 1024)));
    assert!(r.delivered_exactly_once, "{:?}", r.problems);
    assert!(r.loss_ooo > 0, "{r:?}");
    assert!(r.probes > 0, "{r:?}");
}

#[test]
fn spray_avoids_hot_entropies() {
    // 1 in 8 entropies is hot (slower and, when enabled, ECN-marking). With marking off the
    // share is above 1/8: late packets on hot paths fill head holes, trigger a SACK, and their
    // clean echoed entropy is reused through next_path. With marks, the bitmap steers packets
    // away; the scan clears one bit per packet and the bitmap resets every 2 RTTs, so the
    // avoidance is partial by design.
    let run_with = |hot_ecn_prob| {
        let link = LinkParams {
            drop_data: 0.0,
            drop_sack: 0.0,
            ecn_prob: 0.0,
            hot_ecn_prob,
            ..LinkParams::default()
        };
        let r = run(&Config::default(), &scenario(link, msgs(8, 512 * 1024)));
        assert!(r.delivered_exactly_once, "{:?}", r.problems);
        r.hot_path_share
    };
    let unmarked = run_with(0.0);
    let adaptive = run_with(0.8);
    println!("hot-path share: unmarked {unmarked:.4}, adaptive {adaptive:.4}");
    assert!(adaptive < 0.125, "adaptive share {adaptive} not below 1/8");
    assert!(
        adaptive < 0.85 * unmarked,
        "adaptive share {adaptive} vs {unmarked}"
    );
}

#[test]
fn many_connections_at_once_each_deliver_exactly_once() {
    let messages = (0..200)
        .map(|i| Message {
            at_ns: 0,
            bytes: 3 * 4096 + i,
            conn: (i * 5) as u32,
        })
        .collect();
    let r = run(
        &Config::default(),
        &scenario(LinkParams::default(), messages),
    );
    assert!(r.delivered_exactly_once, "{:?}", r.problems);
    assert_eq!(r.connections, 200);
    assert_eq!(r.bytes_delivered, r.bytes_offered);
}

#[test]
fn a_connection_out_of_range_is_refused() {
    let mut cfg = Config::default();
    cfg.nic.connections = 4;
    let m = vec![Message {
        at_ns: 0,
        bytes: 10,
        conn: 4,
    }];
    let r = run(&cfg, &scenario(LinkParams::default(), m));
    assert!(!r.delivered_exactly_once);
    assert_eq!(
        r.problems,
        ["message 1: conn = 4: must be below [nic] connections = 4"]
    );
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn any_link_delivers_exactly_once(
        seed in any::<u64>(),
        drop_data in prop_oneof![Just(0.0f64), 0.0f64..0.1],
        drop_sack in prop_oneof![Just(0.0f64), 0.0f64..0.3],
        jitter in 0u32..8_000,
        ecn in 0.0f64..0.5,
        sizes in prop::collection::vec(prop_oneof![1u64..5_000, 4096u64..300_000], 1..6),
        small in any::<bool>(),
    ) {
        let mut cfg = Config::default();
        if small {
            cfg.sack.rx_window = 32;
            cfg.sack.sack_bits = 8;
            cfg.entropy_bitmap.max_paths = 16;
            cfg.network.mtu_bytes = 1024;
            cfg.cwnd_unit.max_cwnd_bytes = Some(30 * 1024);
        }
        cfg.validate().unwrap();
        let link = LinkParams { drop_data, drop_sack, jitter_ns: jitter, ecn_prob: ecn, seed, ..LinkParams::default() };
        let messages = sizes.iter().enumerate().map(|(i, &b)| Message { at_ns: i as u64 * 7_000, bytes: b, conn: (i % 2) as u32 }).collect();
        let r = run(&cfg, &scenario(link, messages));
        prop_assert!(r.delivered_exactly_once, "{:?}", r.problems);
    }
}

/// A bottleneck slower than the line with a small buffer: the queue fills, drops and marks,
/// the window comes down from where it started, and still every byte arrives exactly once.
/// Its timeline samples the queue it reports.
#[test]
fn a_bottleneck_queue_moves_the_window_and_loses_nothing_for_good() {
    let link = LinkParams {
        drop_data: 0.0,
        drop_sack: 0.0,
        ecn_prob: 0.0,
        hot_every: 0,
        bottleneck_gbps: 100.0,
        buffer_bytes: 200_000,
        ecn_threshold_bytes: 50_000,
        ..LinkParams::default()
    };
    let cfg = Config::default();
    let mut sc = scenario(link, msgs(6, 512 * 1024));
    sc.timeline_ns = 1_000;
    let r = run(&cfg, &sc);
    assert!(r.delivered_exactly_once, "{:?}", r.problems);
    assert!(r.queue_drops > 0 && r.queue_ecn_marked > 0, "{r:?}");
    assert!(r.queue_max_bytes <= 200_000, "{}", r.queue_max_bytes);
    assert!(r.cwnd_min_bytes < cfg.max_cwnd_bytes(), "{r:?}");
    let deepest = r.timeline.iter().map(|s| s.queue_bytes).max().unwrap();
    assert!(
        deepest > 50_000 && deepest <= r.queue_max_bytes,
        "{deepest}"
    );
    assert!(r
        .timeline
        .windows(2)
        .all(|w| w[1].t_ns == w[0].t_ns + 1_000));
    // Without the bottleneck the same run has no queue.
    let mut free = sc.clone();
    free.link.bottleneck_gbps = 0.0;
    let f = run(&cfg, &free);
    assert_eq!((f.queue_drops, f.queue_max_bytes), (0, 0));
    assert!(f.timeline.iter().all(|s| s.queue_bytes == 0));
}

/// A run that cannot finish says how many messages were not wholly delivered.
#[test]
fn an_unfinished_run_counts_its_undelivered_messages() {
    let link = LinkParams {
        drop_data: 0.95,
        ..LinkParams::default()
    };
    let mut sc = scenario(link, msgs(6, 256 * 1024));
    sc.time_limit_ns = 200_000;
    let r = run(&Config::default(), &sc);
    assert!(!r.finished);
    assert!(
        r.unfinished_messages > 0 && r.unfinished_messages <= 6,
        "{r:?}"
    );
    assert!(r
        .problems
        .iter()
        .any(|p| p.contains("messages not wholly delivered")));
}
