//! Two NICs joined by a model link: A sends messages to B, B's SACKs come back to A.
//!
//! The link delays each packet by `one_way_ns` plus uniform jitter (so packets reorder), adds
//! `hot_extra_ns` and a higher ECN probability on "hot" entropies (every `hot_every`-th one, a
//! congested path the spray should learn to avoid), marks ECN, and drops. A serializes data at
//! line rate. Each step (`step_ns`) each NIC takes at most one arriving packet of each kind.
//!
//! The run checks that every byte arrives exactly once: every PSN is delivered to B as new data
//! once, and B's `bytes_recvd` equals the bytes offered.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};
use strack_config::Config;

use crate::rng::SplitMix64;
use crate::sack_receiver::{DataPkt, Sack, Verdict};
use crate::sack_sender::{NewPkt, TxKind};
use crate::strack_nic::{self, StrackNic};

/// Bytes of headers a packet occupies on the wire besides its payload.
pub const WIRE_OVERHEAD: u64 = 64;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LinkParams {
    pub one_way_ns: u32,
    pub jitter_ns: u32,
    pub drop_data: f64,
    pub drop_sack: f64,
    pub ecn_prob: f64,
    /// Every entropy `e` with `e % hot_every == 0` is hot (0 = none).
    pub hot_every: u32,
    pub hot_ecn_prob: f64,
    pub hot_extra_ns: u32,
    pub seed: u64,
}

impl Default for LinkParams {
    fn default() -> Self {
        LinkParams {
            one_way_ns: 4_000,
            jitter_ns: 1_000,
            drop_data: 0.01,
            drop_sack: 0.01,
            ecn_prob: 0.02,
            hot_every: 8,
            hot_ecn_prob: 0.8,
            hot_extra_ns: 6_000,
            seed: 1,
        }
    }
}

/// One message the sender's host posts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// When the host posts it, ns from the start.
    pub at_ns: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub messages: Vec<Message>,
    pub link: LinkParams,
    pub step_ns: u32,
    pub time_limit_ns: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub messages: usize,
    pub bytes_offered: u64,
    pub bytes_delivered: u64,
    pub packets: u64,
    pub delivered_exactly_once: bool,
    pub finished: bool,
    pub completion_ns: u64,
    pub goodput_gbps: f64,
    pub new_sent: u64,
    pub retransmits: u64,
    pub probes: u64,
    pub sacks: u64,
    pub data_dropped: u64,
    pub sacks_dropped: u64,
    pub ecn_marked: u64,
    pub duplicates_at_receiver: u64,
    pub loss_ooo: u64,
    pub loss_probe: u64,
    pub loss_timeout: u64,
    pub hot_path_share: f64,
    pub cwnd_min_bytes: u32,
    pub cwnd_final_bytes: u32,
    pub steps: u64,
    /// Problems found (a PSN delivered twice or never, a byte count off); empty when all is well.
    pub problems: Vec<String>,
}

struct Wire<T> {
    heap: BinaryHeap<Reverse<(u64, u64, usize)>>,
    items: Vec<Option<T>>,
    seq: u64,
}

impl<T> Wire<T> {
    fn new() -> Self {
        Wire {
            heap: BinaryHeap::new(),
            items: Vec::new(),
            seq: 0,
        }
    }
    fn push(&mut self, at: u64, item: T) {
        self.items.push(Some(item));
        self.heap
            .push(Reverse((at, self.seq, self.items.len() - 1)));
        self.seq += 1;
    }
    fn pop_due(&mut self, t: u64) -> Option<T> {
        match self.heap.peek() {
            Some(Reverse((at, _, _))) if *at <= t => {
                let Reverse((_, _, i)) = self.heap.pop()?;
                self.items[i].take()
            }
            _ => None,
        }
    }
}

pub fn run(cfg: &Config, sc: &Scenario) -> Report {
    let mut a = StrackNic::from_config(cfg);
    let mut b = StrackNic::from_config(cfg);
    let mut rng = SplitMix64::new(sc.link.seed);
    let mtu = cfg.network.mtu_bytes as u64;
    let bytes_per_ns = cfg.link_bytes_per_ns();
    let l = &sc.link;

    let mut msgs = sc.messages.clone();
    msgs.sort_by_key(|m| m.at_ns);
    let total: u64 = msgs.iter().map(|m| m.bytes).sum();
    let total_pkts: u64 = msgs.iter().map(|m| m.bytes.div_ceil(mtu)).sum();
    let mut r = Report {
        messages: msgs.len(),
        bytes_offered: total,
        packets: total_pkts,
        cwnd_min_bytes: a.cwnd.cwnd_bytes(),
        ..Report::default()
    };

    let mut data_wire: Wire<DataPkt> = Wire::new();
    let mut sack_wire: Wire<Sack> = Wire::new();
    let mut next_msg = 0usize;
    let mut pending: u64 = 0; // bytes of the current message not yet accepted
    let mut queue: std::collections::VecDeque<u64> = Default::default();
    let mut busy_until = 0u64;
    let mut delivered: Vec<u8> = vec![0; total_pkts as usize];
    let mut hot_sent = 0u64;
    let mut data_sent = 0u64;

    let mut t = 0u64;
    while t <= sc.time_limit_ns {
        while next_msg < msgs.len() && msgs[next_msg].at_ns <= t {
            if msgs[next_msg].bytes > 0 {
                queue.push_back(msgs[next_msg].bytes);
            }
            next_msg += 1;
        }
        if pending == 0 {
            pending = queue.pop_front().unwrap_or(0);
        }
        let now = t as u32;
        let new_pkt = (pending > 0).then(|| {
            let len = pending.min(mtu);
            NewPkt {
                len: len as u32,
                ack_req: len == pending,
            }
        });
        let oa = a.step(&strack_nic::In {
            now,
            rx_sack: sack_wire.pop_due(t),
            rx_data: None,
            new_pkt,
            tx_ready: t >= busy_until,
        });
        if oa.new_accepted {
            pending -= new_pkt.map_or(0, |n| n.len as u64);
        }
        r.cwnd_min_bytes = r.cwnd_min_bytes.min(a.cwnd.cwnd_bytes());
        if let Some(mut p) = oa.tx_data {
            let wire = p.len as u64 + WIRE_OVERHEAD;
            busy_until = t + (wire as f64 / bytes_per_ns).ceil() as u64;
            let hot = l.hot_every != 0 && p.entropy % l.hot_every == 0;
            if oa.tx_kind != Some(TxKind::Probe) {
                data_sent += 1;
                hot_sent += hot as u64;
            }
            if rng.chance(l.drop_data) {
                r.data_dropped += 1;
            } else {
                if rng.chance(if hot { l.hot_ecn_prob } else { l.ecn_prob }) {
                    p.ecn = true;
                    r.ecn_marked += 1;
                }
                let delay = l.one_way_ns as u64
                    + rng.below(l.jitter_ns as u64 + 1)
                    + if hot { l.hot_extra_ns as u64 } else { 0 };
                data_wire.push(t + delay, p);
            }
        }

        let rx = data_wire.pop_due(t);
        let ob = b.step(&strack_nic::In {
            now,
            rx_sack: None,
            rx_data: rx,
            new_pkt: None,
            tx_ready: false,
        });
        if let (Some(p), Some(v)) = (rx, ob.rx_verdict) {
            if matches!(v, Verdict::InOrder | Verdict::OutOfOrder) {
                match delivered.get_mut(p.psn as usize) {
                    Some(c) => *c = c.saturating_add(1),
                    None => r
                        .problems
                        .push(format!("PSN {} delivered but never offered", p.psn)),
                }
            }
        }
        if let Some(s) = ob.tx_sack {
            if rng.chance(l.drop_sack) {
                r.sacks_dropped += 1;
            } else {
                let delay = l.one_way_ns as u64 + rng.below(l.jitter_ns as u64 + 1);
                sack_wire.push(t + delay, s);
            }
        }

        r.steps += 1;
        let all_posted = next_msg == msgs.len() && queue.is_empty() && pending == 0;
        if all_posted && a.sender.outstanding() == 0 {
            r.finished = true;
            r.completion_ns = t;
            break;
        }
        t += sc.step_ns as u64;
    }

    let c = &a.sender.counters;
    r.new_sent = c.new_sent;
    r.retransmits = c.retransmits;
    r.probes = c.probes;
    r.sacks = c.sacks;
    r.loss_ooo = c.loss_ooo;
    r.loss_probe = c.loss_probe;
    r.loss_timeout = c.loss_timeout;
    r.duplicates_at_receiver = b.receiver.counters.duplicates;
    r.bytes_delivered = b.receiver.bytes_recvd as u64;
    r.cwnd_final_bytes = a.cwnd.cwnd_bytes();
    r.hot_path_share = if data_sent == 0 {
        0.0
    } else {
        hot_sent as f64 / data_sent as f64
    };
    r.goodput_gbps = if r.completion_ns == 0 {
        0.0
    } else {
        total as f64 * 8.0 / r.completion_ns as f64
    };
    for (psn, &n) in delivered.iter().enumerate() {
        if n != 1 && r.problems.len() < 10 {
            r.problems.push(format!("PSN {psn} delivered {n} times"));
        }
    }
    if r.bytes_delivered != total % (1u64 << 32) {
        r.problems.push(format!(
            "receiver counted {} bytes, {} offered",
            r.bytes_delivered, total
        ));
    }
    if !r.finished {
        r.problems
            .push(format!("not finished within {} ns", sc.time_limit_ns));
    }
    r.delivered_exactly_once = r.problems.is_empty();
    r
}
