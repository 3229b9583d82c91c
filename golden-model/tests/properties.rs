//! Invariants of every block under random stimulus that also reaches the corners (full bitmaps,
//! zero and maximum windows, PSN wrap, out-of-window and malformed fields, time wrap).

use std::collections::{BTreeSet, HashMap};

use golden_model::cwnd_unit::{self, CwndUnit, ACKED_MAX, RTT_MAX};
use golden_model::entropy_bitmap::{self, ChooseRequest, EcnFeedback, EntropyBitmap, Source};
use golden_model::sack_receiver::{self, DataPkt, SackReceiver, Verdict};
use golden_model::sack_sender::{self, NewPkt, SackSender, TxKind};
use golden_model::seq::{psn_add, psn_lt, psn_sub, PSN_MASK};
use golden_model::Config;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

/// Failures are kept in `golden-model/proptest-regressions/` (committed) and replayed first.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/properties.txt"
        )))),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------- entropy bitmap

fn eb_input(max_paths: u32) -> impl Strategy<Value = entropy_bitmap::In> {
    (
        0u32..3_000,
        prop::option::of((
            prop_oneof![
                0..max_paths,
                Just(max_paths - 1),
                Just(max_paths),
                any::<u32>()
            ],
            prop::bool::weighted(0.7),
        )),
        prop::option::of(prop_oneof![
            Just(0u32),
            0u32..8,
            0..max_paths,
            Just(u32::MAX)
        ]),
    )
        .prop_map(|(dt, ack, choose)| entropy_bitmap::In {
            now: dt, // turned into a running time below
            ack: ack.map(|(entropy, ecn)| EcnFeedback { entropy, ecn }),
            choose: choose.map(|cwnd_packets| ChooseRequest { cwnd_packets }),
        })
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn entropy_bitmap_invariants(
        max_paths in prop_oneof![Just(8u32), Just(16u32), Just(256u32)],
        reset in prop_oneof![Just(0u32), Just(5_000u32)],
        start in prop_oneof![Just(0u32), Just(u32::MAX - 20_000)],
        steps in prop::collection::vec(eb_input(256), 1..600),
    ) {
        let mut m = EntropyBitmap::new(entropy_bitmap::Params { max_paths, reset_interval_ns: reset });
        let mut now = start;
        for mut inp in steps {
            now = now.wrapping_add(inp.now);
            inp.now = now;
            if let Some(a) = inp.ack.as_mut() {
                if a.entropy < 256 { a.entropy %= max_paths; }
            }
            let before = m.clone();
            let out = m.step(&inp);
            let ones_before = if out.reset { 0 } else { before.bitmap.count_ones() };
            let ack_ok = inp.ack.is_some_and(|a| a.entropy < max_paths);
            prop_assert_eq!(out.ack_ignored, inp.ack.is_some() && !ack_ok);
            if let Some(c) = out.choice {
                match c.source {
                    Source::NextPath => prop_assert!(c.entropy < max_paths),
                    Source::Scan | Source::AllSet => {
                        let paths = c.paths.unwrap();
                        prop_assert!((8..=max_paths.max(8)).contains(&paths));
                        prop_assert!(c.entropy < paths);
                        prop_assert!(!m.bitmap[c.entropy as usize], "chosen entropy must be clear");
                    }
                }
                prop_assert_eq!(m.rr, c.entropy);
            }
            // one ACK sets at most one bit, one choice clears at most one
            let ones = m.bitmap.count_ones();
            prop_assert!(ones <= ones_before + 1);
            prop_assert!(ones + 1 >= ones_before || (ones + 2 >= ones_before && inp.ack.is_some()));
        }
    }
}

// ---------------------------------------------------------------- cwnd unit

fn cwnd_input() -> impl Strategy<Value = cwnd_unit::In> {
    (
        prop_oneof![Just(0u32), 0u32..2_000, 5_000u32..40_000],
        prop_oneof![
            Just(0u32),
            7_000u32..9_000,
            8_000u32..40_000,
            8_000u32..300_000,
            Just(RTT_MAX),
            Just(RTT_MAX + 1)
        ],
        any::<bool>(),
        prop_oneof![
            Just(0u32),
            1u32..=16_384,
            Just(ACKED_MAX),
            Just(ACKED_MAX + 1)
        ],
        prop::bool::weighted(0.05),
    )
        .prop_map(|(now, rtt, ecn, acked_bytes, is_probe_ack)| cwnd_unit::In {
            now,
            rtt,
            ecn,
            acked_bytes,
            is_probe_ack,
        })
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn cwnd_stays_between_mtu_and_max(
        mtu in prop_oneof![Just(256u32), Just(4096u32)],
        max_cwnd in prop_oneof![Just(None), Just(Some(8192u32)), Just(Some(1_000_000u32))],
        start in prop_oneof![Just(0u32), Just(u32::MAX - 50_000)],
        acks in prop::collection::vec(cwnd_input(), 1..500),
    ) {
        let mut cfg = Config::default();
        cfg.network.mtu_bytes = mtu;
        cfg.cwnd_unit.max_cwnd_bytes = max_cwnd;
        cfg.sack.rx_window = 4096; // holds the largest window of these in packets
        cfg.validate().unwrap();
        let k = cfg.cwnd_constants();
        let mut u = CwndUnit::from_config(&cfg);
        let mut now = start;
        for mut a in acks {
            now = now.wrapping_add(a.now);
            a.now = now;
            let before = u.clone();
            let o = u.step(&a);
            prop_assert!(o.cwnd_q >= k.mtu_q && o.cwnd_q <= k.max_cwnd_q, "{o:?}");
            prop_assert!(u.base_rtt <= before.base_rtt);
            if a.rtt > RTT_MAX || a.acked_bytes > ACKED_MAX {
                prop_assert_eq!(o.branch, cwnd_unit::Branch::Malformed);
                let mut after = u.clone();
                after.malformed_count -= 1;
                // A malformed ACK still takes a pipeline slot: the window history records the
                // (unchanged) window once more, and nothing else moves.
                prop_assert_eq!(after.history[0], before.cwnd_q);
                after.history = before.history.clone();
                prop_assert_eq!(after, before);
            } else {
                prop_assert_eq!(u.base_rtt, before.base_rtt.min(a.rtt));
            }
        }
    }
}

// ---------------------------------------------------------------- SACK receiver

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn receiver_counts_each_psn_once(
        start in prop_oneof![Just(0u32), Just(PSN_MASK - 40)],
        window in prop_oneof![Just(16u32), Just(64u32)],
        sack_bits in prop_oneof![Just(8u32), Just(16u32)],
        pkts in prop::collection::vec(
            (prop_oneof![0u32..80, Just(PSN_MASK), Just(1u32 << 24), PSN_MASK - 5..=PSN_MASK],
             prop_oneof![Just(0u32), 1u32..=1024, Just(1025u32)],
             prop::bool::weighted(0.05), prop::bool::weighted(0.1), prop::bool::weighted(0.1)),
            1..400),
    ) {
        let mut r = SackReceiver::new(sack_receiver::Params { rx_window: window, sack_bits, ack_coalesce_bytes: 3000, mtu: 1024 });
        r.epsn = start;
        // the set of PSNs ever delivered as new, with their lengths
        let mut got: HashMap<u32, u32> = HashMap::new();
        let mut expect_bytes = 0u32;
        for (off, len, probe, ack_req, ecn) in pkts {
            let psn = if off >= 1 << 23 { off } else { psn_add(start, off) };
            let p = DataPkt { psn, len: if probe { 0 } else { len }, entropy: 3, ecn, ts: 1, probe, ack_req };
            let before = r.clone();
            let o = r.step(&p);
            match o.verdict {
                Verdict::InOrder | Verdict::OutOfOrder => {
                    prop_assert!(got.insert(psn, p.len).is_none(), "PSN {} counted twice", psn);
                    expect_bytes = expect_bytes.wrapping_add(p.len);
                }
                Verdict::Duplicate => prop_assert!(got.contains_key(&psn) || psn_lt(psn, start)),
                Verdict::OutOfWindow | Verdict::Malformed => {
                    prop_assert!(o.sack.is_none());
                    prop_assert_eq!((r.epsn, &r.bitmap, r.bytes_recvd), (before.epsn, &before.bitmap, before.bytes_recvd));
                }
                Verdict::Probe => prop_assert_eq!((r.epsn, r.bytes_recvd), (before.epsn, before.bytes_recvd)),
            }
            prop_assert_eq!(r.bytes_recvd, expect_bytes, "bytes_recvd never counts a duplicate");
            prop_assert_eq!(r.ooo_count as usize, r.bitmap.count_ones());
            prop_assert!(!psn_lt(r.epsn, before.epsn), "EPSN never goes back");
            // EPSN is the first PSN not received
            prop_assert!(!got.contains_key(&r.epsn));
            for d in 0..psn_sub(r.epsn, start) {
                prop_assert!(got.contains_key(&psn_add(start, d)));
            }
            if let Some(s) = o.sack {
                prop_assert_eq!(s.sack_base % sack_bits, 0);
                prop_assert_eq!(s.epsn, r.epsn);
                for i in 0..sack_bits {
                    let q = psn_add(s.sack_base, i);
                    let bit = s.bitmap[(i / 64) as usize] >> (i % 64) & 1 == 1;
                    let truth = got.contains_key(&q) || psn_lt(q, start);
                    prop_assert_eq!(bit, truth, "segment bit {} (PSN {})", i, q);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- SACK sender (with a real receiver)

#[derive(Debug, Clone)]
struct NetEvent {
    drop: bool,
    delay: u8,
    tx_ready: bool,
    offer: bool,
    len: u32,
    cwnd: u32,
    dt: u32,
}

fn net_event() -> impl Strategy<Value = NetEvent> {
    (
        prop::bool::weighted(0.1),
        0u8..6,
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.8),
        prop_oneof![1u32..=1024, Just(1024u32), Just(0u32)],
        prop_oneof![Just(0u32), Just(1024u32), 1024u32..40_000, Just(1u32 << 20)],
        prop_oneof![0u32..500, Just(4_000u32), Just(12_000u32)],
    )
        .prop_map(|(drop, delay, tx_ready, offer, len, cwnd, dt)| NetEvent {
            drop,
            delay,
            tx_ready,
            offer,
            len,
            cwnd,
            dt,
        })
}

proptest! {
    #![proptest_config(config(96))]

    /// The sender never believes a PSN received that the receiver does not have, never sends new
    /// data past the window, retransmits only PSNs it declared lost, and its inflight count never
    /// exceeds the bytes it has outstanding.
    #[test]
    fn sender_is_safe_against_a_real_receiver(
        start in prop_oneof![Just(0u32), Just(PSN_MASK - 30)],
        events in prop::collection::vec(net_event(), 1..600),
    ) {
        let sp = sack_sender::Params { rx_window: 32, sack_bits: 16, mtu: 1024, mtu_log2: 10, net_base_rtt_ns: 1000, probe_interval_ns: 3000, rto_ns: 10_000, ooo_min_threshold: 5 };
        let mut s = SackSender::new(sp);
        s.snd_una = start;
        s.snd_nxt = start;
        let mut r = SackReceiver::new(sack_receiver::Params { rx_window: 32, sack_bits: 16, ack_coalesce_bytes: 3000, mtu: 1024 });
        r.epsn = start;
        let mut to_rx: Vec<(u32, DataPkt)> = Vec::new();
        let mut to_tx: Vec<(u32, golden_model::sack_receiver::Sack)> = Vec::new();
        let mut now = 0u32;
        let mut lens: HashMap<u32, u32> = HashMap::new();
        for (i, e) in events.iter().enumerate() {
            now = now.wrapping_add(e.dt);
            let sack = to_tx.iter().position(|(at, _)| *at <= i as u32).map(|k| to_tx.remove(k).1);
            let lost_before: BTreeSet<u32> = (0..s.outstanding()).map(|d| psn_add(s.snd_una, d)).filter(|&p| s.lost[(p & 31) as usize]).collect();
            let o = s.step(&sack_sender::In {
                now,
                cwnd: e.cwnd,
                achieved_bdp: 0,
                sack,
                new_pkt: e.offer.then_some(NewPkt { len: e.len, ack_req: e.drop }),
                tx_ready: e.tx_ready,
            });
            prop_assert!(s.outstanding() <= 32);
            if let Some(t) = o.tx {
                match t.kind {
                    TxKind::New => { lens.insert(t.psn, t.len); prop_assert!(t.len >= 1 && t.len <= 1024); }
                    TxKind::Retransmit => {
                        prop_assert!(lost_before.contains(&t.psn) || o.loss.is_some(), "retransmitted {} never declared lost", t.psn);
                        prop_assert_eq!(Some(&t.len), lens.get(&t.psn));
                    }
                    TxKind::Probe => prop_assert_eq!(t.psn, s.snd_una),
                }
                if !e.drop {
                    to_rx.push((i as u32 + e.delay as u32, DataPkt { psn: t.psn, len: t.len, entropy: 0, ecn: false, ts: now, probe: t.kind == TxKind::Probe, ack_req: t.ack_req }));
                }
            }
            if let Some(k) = to_rx.iter().position(|(at, _)| *at <= i as u32) {
                let p = to_rx.remove(k).1;
                if let Some(sk) = r.step(&p).sack {
                    if !events[(i + 1) % events.len()].drop {
                        to_tx.push((i as u32 + e.delay as u32, sk));
                    }
                }
            }
            // Safety: everything the sender counts as acknowledged is at the receiver.
            prop_assert!(!psn_lt(r.epsn, s.snd_una), "snd_una {} ahead of receiver EPSN {}", s.snd_una, r.epsn);
            for d in 0..s.outstanding() {
                let p = psn_add(s.snd_una, d);
                if s.acked[(p & 31) as usize] {
                    prop_assert!(r.received(p), "sender thinks {} received", p);
                }
                prop_assert!(!(s.acked[(p & 31) as usize] && s.lost[(p & 31) as usize]));
            }
            // Each acknowledged or lost-pending PSN nets out of inflight (see sack_sender docs).
            let pending_bytes: u64 = (0..s.outstanding())
                .map(|d| (psn_add(s.snd_una, d) & 31) as usize)
                .filter(|&k| !s.acked[k] && !s.lost[k])
                .map(|k| s.len[k] as u64)
                .sum();
            prop_assert!(s.inflight() as u64 <= pending_bytes, "inflight {} > pending {}", s.inflight(), pending_bytes);
            prop_assert_eq!(o.recovery, s.recovery_hi.is_some());
        }
    }
}
