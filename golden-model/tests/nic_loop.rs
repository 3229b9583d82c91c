//! The multi-connection NIC's two model sides in a closed loop: host A's send side (`NicTx`)
//! sends to host B's receive side (`NicRx`) over a model link that delays, reorders and drops
//! data packets, and B's SACKs come back to A over one that delays and drops them. Every
//! connection is given messages by doorbells; the run checks that every byte arrives, once,
//! for every connection: the rules of `docs/blocks/nic_tx.md` (the scheduler, the timer scan,
//! Nagle's rule for short packets) move all data through losses without a stall.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use golden_model::nic_rx::{self, NicRx};
use golden_model::nic_tx::{self, Kind, NicTx, Source};
use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::{DataPkt, Sack, Verdict};
use golden_model::Config;

/// A link: items due at a cycle, in order of arrival (ties by send order).
struct Wire<T> {
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    items: std::collections::HashMap<u64, T>,
    seq: u64,
}

impl<T> Wire<T> {
    fn new() -> Self {
        Wire {
            heap: BinaryHeap::new(),
            items: Default::default(),
            seq: 0,
        }
    }
    fn push(&mut self, at: u64, item: T) {
        self.items.insert(self.seq, item);
        self.heap.push(Reverse((at, self.seq)));
        self.seq += 1;
    }
    fn pop_due(&mut self, t: u64) -> Option<T> {
        match self.heap.peek() {
            Some(Reverse((at, _))) if *at <= t => {
                let Reverse((_, s)) = self.heap.pop()?;
                self.items.remove(&s)
            }
            _ => None,
        }
    }
}

struct Run {
    cycles: u64,
    delivered: Vec<u64>,
    offered: Vec<u64>,
    sent: u64,
    retransmits: u64,
    probes: u64,
    timers: u64,
    duplicates: u64,
}

/// `messages[c]`: the byte counts posted to connection `c` (all at the start, as doorbells).
fn run(cfg: &Config, psn0: u32, messages: &[Vec<u32>], drop: f64, seed: u64, limit: u64) -> Run {
    let n = cfg.nic.connections;
    let mut a = NicTx::new(cfg, psn0);
    let mut b = NicRx::new(cfg, psn0);
    let mut rng = SplitMix64::new(seed);
    let mut chance = move |p: f64| ((rng.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64;
    let mut jitter = SplitMix64::new(seed ^ 0x5EED);
    // 8 ns cycles; 2 us each way, up to 0.5 us of jitter (packets reorder).
    const ONE_WAY: u64 = 250;
    let mut data: Wire<(u32, DataPkt)> = Wire::new();
    let mut sacks: Wire<(u32, Sack)> = Wire::new();
    let mut doorbells: VecDeque<(u32, u32)> = VecDeque::new();
    for (c, m) in messages.iter().enumerate() {
        for &bytes in m {
            doorbells.push_back((c as u32, bytes));
        }
    }
    let offered: Vec<u64> = messages
        .iter()
        .map(|m| m.iter().map(|&b| u64::from(b)).sum())
        .collect();
    let mut r = Run {
        cycles: 0,
        delivered: vec![0; n as usize],
        offered,
        sent: 0,
        retransmits: 0,
        probes: 0,
        timers: 0,
        duplicates: 0,
    };
    let mut sack_in: Option<(u32, Sack)> = None;
    let mut pkt_in: Option<(u32, DataPkt)> = None;
    // The link takes a packet every 5 cycles (4 KiB at 800 Gb/s is 41 ns).
    let mut link_free = 0u64;
    for t in 0..limit {
        let now = (t * 8) as u32;
        if sack_in.is_none() {
            sack_in = sacks.pop_due(t);
        }
        let oa = a.step(&nic_tx::In {
            reset: false,
            now,
            open: None,
            txop: t >= link_free,
            sack: sack_in.clone(),
            doorbell: doorbells.front().copied(),
        });
        if oa.sack_ready && sack_in.is_some() {
            sack_in = None;
        }
        if oa.doorbell_ready
            && !doorbells.is_empty()
            && oa
                .done
                .as_ref()
                .is_some_and(|d| d.source == Source::Doorbell)
        {
            doorbells.pop_front();
        }
        if let Some(d) = oa.done {
            let e = d.effect.expect("ids in range");
            match (d.source, e.kind) {
                (Source::Timer, _) => r.timers += 1,
                (Source::Transmit, Kind::Transmit(Some((p, kind)))) => {
                    link_free = t + 5;
                    r.sent += 1;
                    match kind {
                        golden_model::sack_sender::TxKind::Retransmit => r.retransmits += 1,
                        golden_model::sack_sender::TxKind::Probe => r.probes += 1,
                        golden_model::sack_sender::TxKind::New => {}
                    }
                    if !chance(drop) {
                        data.push(t + ONE_WAY + jitter.next_u64() % 64, (d.conn, p));
                    }
                }
                (Source::Transmit, _) => link_free = t + 1,
                _ => {}
            }
        }
        if pkt_in.is_none() {
            pkt_in = data.pop_due(t);
        }
        let ob = b.step(&nic_rx::In {
            reset: false,
            pkt: pkt_in,
            open: None,
        });
        if ob.pkt_ready {
            pkt_in = None;
        }
        if let Some(d) = ob.done {
            if let Some(nic_rx::Kind::Packet(o)) = d.kind {
                if o.verdict == Verdict::Duplicate {
                    r.duplicates += 1;
                }
                if let Some(s) = o.sack {
                    if !chance(drop) {
                        sacks.push(t + ONE_WAY + jitter.next_u64() % 64, (d.conn, s));
                    }
                }
            }
        }
        for c in 0..n {
            r.delivered[c as usize] = u64::from(b.conn(c).unwrap().bytes_recvd);
        }
        r.cycles = t;
        if t % 64 == 0 && r.delivered == r.offered && doorbells.is_empty() {
            break;
        }
    }
    r
}

fn small() -> Config {
    let mut c = Config::default();
    c.nic.connections = 8;
    c.sack.rx_window = 32;
    c.sack.sack_bits = 8;
    c
}

#[test]
fn every_byte_of_every_connection_arrives_without_loss() {
    let cfg = small();
    let mtu = cfg.network.mtu_bytes;
    let msgs: Vec<Vec<u32>> = (0..8)
        .map(|c| vec![mtu * (3 + c) + 17 * c, 100, mtu + 1])
        .collect();
    let r = run(&cfg, (1 << 24) - 20, &msgs, 0.0, 1, 400_000);
    println!(
        "no loss: {} cycles, {} packets, {} timer checks, {} duplicates",
        r.cycles, r.sent, r.timers, r.duplicates
    );
    assert_eq!(r.delivered, r.offered, "after {} cycles", r.cycles);
    assert_eq!(r.retransmits, 0);
    assert!(r.timers > 0);
}

#[test]
fn every_byte_arrives_through_losses() {
    let cfg = small();
    let mtu = cfg.network.mtu_bytes;
    for seed in 1..=4 {
        let msgs: Vec<Vec<u32>> = (0..8)
            .map(|c| vec![mtu * 40 + 333 * c, 5, mtu * 7 + 1])
            .collect();
        let r = run(&cfg, 1000, &msgs, 0.05, seed, 3_000_000);
        println!(
            "seed {seed}: {} cycles, {} packets, {} retransmitted, {} probes, {} duplicates",
            r.cycles, r.sent, r.retransmits, r.probes, r.duplicates
        );
        assert_eq!(
            r.delivered, r.offered,
            "seed {seed}: after {} cycles: {} sent, {} retransmitted, {} probes",
            r.cycles, r.sent, r.retransmits, r.probes
        );
        assert!(r.retransmits > 0, "seed {seed}: losses were repaired");
    }
}
