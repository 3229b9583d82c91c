//! Two multi-connection NICs ([`crate::nic`]) joined by a model link: A sends messages to B on
//! the connections they name, B's SACKs come back to A.
//!
//! Each step (`step_ns`) is one clock cycle of both NICs. First every connection a message
//! names is opened on both, at PSNs drawn from the link's seed (A's first PSN is B's peer PSN
//! and the other way round); a message is then a doorbell on A once its time has come. The
//! link delays each packet by `one_way_ns` plus uniform jitter (so packets reorder), adds
//! `hot_extra_ns` and a higher ECN probability on "hot" entropies (every `hot_every`-th one, a
//! congested path the spray should learn to avoid), marks ECN, and drops. A is offered a
//! transmit opportunity when its link is free: each one taken reserves the link for a whole
//! packet (`mtu_bytes` and the headers) at line rate. Every offer a NIC does not take this
//! cycle waits for the next.
//!
//! The run checks that every byte arrives exactly once: every PSN A sends as new data is
//! delivered to B once (and no other), and each connection's `bytes_recvd` at B equals the
//! bytes offered on it.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};

use serde::{Deserialize, Serialize};
use strack_config::Config;

use crate::nic::{self, Nic, Open};
use crate::nic_rx::Kind as RxKind;
use crate::nic_tx::Kind as TxEvent;
use crate::rng::SplitMix64;
use crate::sack_receiver::{DataPkt, Sack, Verdict};
use crate::sack_sender::{LossKind, SackVerdict, TxKind};
use crate::seq::PSN_MASK;

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
    /// The bottleneck on the data path, Gb/s (0: none). Data packets queue in front of it
    /// (first in, first out), are dropped when `buffer_bytes` would overflow, and are
    /// ECN-marked when `ecn_threshold_bytes` or more wait ahead of them.
    pub bottleneck_gbps: f64,
    pub buffer_bytes: u64,
    pub ecn_threshold_bytes: u64,
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
            bottleneck_gbps: 0.0,
            buffer_bytes: 1 << 20,
            ecn_threshold_bytes: 1 << 17,
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
    /// The connection it is sent on (below `[nic] connections`).
    #[serde(default)]
    pub conn: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub messages: Vec<Message>,
    pub link: LinkParams,
    pub step_ns: u32,
    pub time_limit_ns: u64,
    /// Sample the timeline every this many ns (0: no timeline).
    #[serde(default)]
    pub timeline_ns: u64,
}

/// One sample of the timeline: the sending NIC's connections (summed) and the bottleneck.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    pub t_ns: u64,
    pub cwnd_bytes: u64,
    pub inflight_bytes: u64,
    pub queue_bytes: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub messages: usize,
    /// Connections the messages use.
    pub connections: usize,
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
    /// The smallest window any connection showed after a SACK, and the smallest at the end.
    pub cwnd_min_bytes: u32,
    pub cwnd_final_bytes: u32,
    /// The bottleneck's queue: data packets it dropped and marked, its deepest, bytes.
    pub queue_drops: u64,
    pub queue_ecn_marked: u64,
    pub queue_max_bytes: u64,
    /// Messages not wholly delivered when the run ended.
    pub unfinished_messages: usize,
    pub steps: u64,
    /// Every `timeline_ns` (not in the JSON report: `--timeline` writes it as CSV and SVG).
    #[serde(skip)]
    pub timeline: Vec<Sample>,
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

/// The largest doorbell the run rings: a message's bytes go in pieces of at most this.
const DOORBELL_MAX: u64 = 1 << 30;

/// What one connection has seen.
#[derive(Default)]
struct Conn {
    offered: u64,
    /// PSNs A sent as new data, and how often B took each as new data.
    delivered: HashMap<u32, u32>,
}

/// Why a run cannot start: a message names a connection the NICs do not have.
pub fn check(cfg: &Config, sc: &Scenario) -> Result<(), String> {
    let n = cfg.nic.connections;
    match sc.messages.iter().position(|m| m.conn >= n) {
        Some(i) => Err(format!(
            "message {}: conn = {}: must be below [nic] connections = {n}",
            i + 1,
            sc.messages[i].conn
        )),
        None if sc.step_ns == 0 => Err("step_ns = 0: must be at least 1".into()),
        None if sc
            .messages
            .iter()
            .try_fold(0u64, |sum, m| sum.checked_add(m.bytes))
            .is_none() =>
        {
            Err("the messages' bytes add up to more than 2^64 - 1".into())
        }
        None if !(sc.link.bottleneck_gbps.is_finite() && sc.link.bottleneck_gbps >= 0.0) => {
            Err(format!(
                "bottleneck_gbps = {}: must be 0 (none) or a positive rate",
                sc.link.bottleneck_gbps
            ))
        }
        None if sc.link.bottleneck_gbps > 0.0
            && sc.link.buffer_bytes < u64::from(cfg.network.mtu_bytes) + WIRE_OVERHEAD =>
        {
            Err(format!(
                "buffer_bytes = {}: must hold one whole packet, {} bytes (MTU + {WIRE_OVERHEAD})",
                sc.link.buffer_bytes,
                u64::from(cfg.network.mtu_bytes) + WIRE_OVERHEAD
            ))
        }
        None if sc.link.bottleneck_gbps > 0.0
            && sc.link.ecn_threshold_bytes > sc.link.buffer_bytes =>
        {
            Err(format!(
                "ecn_threshold_bytes = {}: must not exceed buffer_bytes = {}",
                sc.link.ecn_threshold_bytes, sc.link.buffer_bytes
            ))
        }
        None => Ok(()),
    }
}

/// Run the scenario. Refused (a problem in the report) when [`check`] refuses it.
pub fn run(cfg: &Config, sc: &Scenario) -> Report {
    let mut r = Report {
        messages: sc.messages.len(),
        ..Report::default()
    };
    if let Err(e) = check(cfg, sc) {
        r.problems.push(e);
        return r;
    }
    let mut a = Nic::new(cfg, 0);
    let mut b = Nic::new(cfg, 0);
    let mut rng = SplitMix64::new(sc.link.seed);
    let mtu = u64::from(cfg.network.mtu_bytes);
    let bytes_per_ns = cfg.link_bytes_per_ns();
    let slot_ns = ((mtu + WIRE_OVERHEAD) as f64 / bytes_per_ns).ceil() as u64;
    let l = &sc.link;

    let mut msgs = sc.messages.clone();
    msgs.sort_by_key(|m| m.at_ns);
    let mut conns: BTreeMap<u32, Conn> = BTreeMap::new();
    for m in &msgs {
        conns.entry(m.conn).or_default().offered += m.bytes;
    }
    r.connections = conns.len();
    r.bytes_offered = msgs.iter().map(|m| m.bytes).sum();
    r.cwnd_min_bytes = u32::MAX;

    // Both NICs open every connection used, A at `pa`, B at `pb`.
    let mut opens_a: VecDeque<Open> = VecDeque::new();
    let mut opens_b: VecDeque<Open> = VecDeque::new();
    for &conn in conns.keys() {
        let pa = rng.next_u64() as u32 & PSN_MASK;
        let pb = rng.next_u64() as u32 & PSN_MASK;
        opens_a.push_back(Open {
            conn,
            psn: pa,
            peer_psn: pb,
        });
        opens_b.push_back(Open {
            conn,
            psn: pb,
            peer_psn: pa,
        });
    }
    // Messages posted and not yet wholly rung: (connection, bytes left), rung in pieces of at
    // most DOORBELL_MAX (kept as one entry, so a message's size costs no memory).
    let mut doorbells: VecDeque<(u32, u64)> = VecDeque::new();
    let mut sack_in: VecDeque<(u32, Sack)> = VecDeque::new();
    let mut data_in: VecDeque<(u32, DataPkt)> = VecDeque::new();
    let mut data_wire: Wire<(u32, DataPkt)> = Wire::new();
    let mut sack_wire: Wire<(u32, Sack)> = Wire::new();
    let mut next_msg = 0usize;
    let mut busy_until = 0u64;
    let mut first_post = None;
    let (mut hot_sent, mut data_sent) = (0u64, 0u64);
    // The bottleneck's queue: (departure time, bytes) of the packets in it, oldest first.
    let mut queue: VecDeque<(u64, u64)> = VecDeque::new();
    let mut queued = 0u64;
    let mut next_sample = 0u64;

    let mut t = 0u64;
    while t <= sc.time_limit_ns {
        let opened = opens_a.is_empty() && opens_b.is_empty();
        while opened && next_msg < msgs.len() && msgs[next_msg].at_ns <= t {
            let m = msgs[next_msg];
            first_post.get_or_insert(t);
            if m.bytes > 0 {
                doorbells.push_back((m.conn, m.bytes));
            }
            next_msg += 1;
        }
        while let Some(x) = sack_wire.pop_due(t) {
            sack_in.push_back(x);
        }
        while let Some(x) = data_wire.pop_due(t) {
            data_in.push_back(x);
        }
        let now = t as u32;
        while queue.front().is_some_and(|(d, _)| *d <= t) {
            queued -= queue.pop_front().map_or(0, |(_, b)| b);
        }
        if sc.timeline_ns > 0 && t >= next_sample {
            let (mut cwnd, mut inflight) = (0u64, 0u64);
            for k in conns.keys() {
                if let Some(c) = a.tx.conn(*k) {
                    cwnd += u64::from(c.cwnd.cwnd_bytes());
                    inflight += u64::from(c.sender.sack.inflight());
                }
            }
            r.timeline.push(Sample {
                t_ns: t,
                cwnd_bytes: cwnd,
                inflight_bytes: inflight,
                queue_bytes: queued,
            });
            next_sample = t + sc.timeline_ns;
        }

        let ia = nic::In {
            now,
            open: opens_a.front().copied(),
            txop: t >= busy_until,
            sack: sack_in.front().cloned(),
            doorbell: doorbells
                .front()
                .map(|&(c, left)| (c, left.min(DOORBELL_MAX) as u32)),
            ..nic::In::default()
        };
        let oa = a.step(&ia);
        if ia.open.is_some() && oa.open_ready {
            opens_a.pop_front();
        }
        if ia.sack.is_some() && oa.sack_ready {
            sack_in.pop_front();
        }
        if ia.doorbell.is_some() && oa.doorbell_ready {
            if let Some(front) = doorbells.front_mut() {
                front.1 -= front.1.min(DOORBELL_MAX);
                if front.1 == 0 {
                    doorbells.pop_front();
                }
            }
        }
        if ia.txop && oa.txop_ready {
            busy_until = busy_until.max(t) + slot_ns;
        }
        if let Some(d) = oa.send.filter(|d| !d.bad) {
            let e = d.effect.expect("an event on a connection in range");
            match e.loss {
                Some(LossKind::Ooo) => r.loss_ooo += 1,
                Some(LossKind::Probe) => r.loss_probe += 1,
                Some(LossKind::Timeout) => r.loss_timeout += 1,
                None => {}
            }
            match e.kind {
                TxEvent::Sack(SackVerdict::Accepted) => {
                    r.sacks += 1;
                    if let Some(c) = a.tx.conn(d.conn) {
                        r.cwnd_min_bytes = r.cwnd_min_bytes.min(c.cwnd.cwnd_bytes());
                    }
                }
                TxEvent::Sack(SackVerdict::Malformed) => r.problems.push(format!(
                    "connection {}: a SACK refused as malformed",
                    d.conn
                )),
                TxEvent::Doorbell(false) => r
                    .problems
                    .push(format!("connection {}: a doorbell refused", d.conn)),
                TxEvent::Transmit(Some((mut p, kind))) => {
                    let hot = l.hot_every != 0 && p.entropy % l.hot_every == 0;
                    match kind {
                        TxKind::New => {
                            r.new_sent += 1;
                            if let Some(c) = conns.get_mut(&d.conn) {
                                c.delivered.insert(p.psn, 0);
                            }
                        }
                        TxKind::Retransmit => r.retransmits += 1,
                        TxKind::Probe => r.probes += 1,
                    }
                    if kind != TxKind::Probe {
                        data_sent += 1;
                        hot_sent += hot as u64;
                    }
                    if rng.chance(l.drop_data) {
                        r.data_dropped += 1;
                    } else {
                        // Through the bottleneck first, when there is one.
                        let mut depart = Some(t);
                        if l.bottleneck_gbps > 0.0 {
                            let size = u64::from(p.len) + WIRE_OVERHEAD;
                            if queued + size > l.buffer_bytes {
                                r.queue_drops += 1;
                                depart = None;
                            } else {
                                if queued >= l.ecn_threshold_bytes {
                                    p.ecn = true;
                                    r.queue_ecn_marked += 1;
                                }
                                let start = queue.back().map_or(t, |(d, _)| (*d).max(t));
                                let d =
                                    start + (size as f64 * 8.0 / l.bottleneck_gbps).ceil() as u64;
                                queue.push_back((d, size));
                                queued += size;
                                r.queue_max_bytes = r.queue_max_bytes.max(queued);
                                depart = Some(d);
                            }
                        }
                        if let Some(depart) = depart {
                            if rng.chance(if hot { l.hot_ecn_prob } else { l.ecn_prob }) {
                                p.ecn = true;
                                r.ecn_marked += 1;
                            }
                            let delay = l.one_way_ns as u64
                                + rng.below(l.jitter_ns as u64 + 1)
                                + if hot { l.hot_extra_ns as u64 } else { 0 };
                            data_wire.push(depart + delay, (d.conn, p));
                        }
                    }
                }
                _ => {}
            }
        }

        let ib = nic::In {
            now,
            open: opens_b.front().copied(),
            pkt: data_in.front().copied(),
            ..nic::In::default()
        };
        let ob = b.step(&ib);
        if ib.open.is_some() && ob.open_ready {
            opens_b.pop_front();
        }
        if ib.pkt.is_some() && ob.pkt_ready {
            data_in.pop_front();
        }
        if let Some(d) = ob.recv.filter(|d| !d.bad) {
            if let Some(RxKind::Packet(o)) = d.kind {
                let psn = ib.pkt.map(|(_, p)| p.psn).expect("a packet was taken");
                match o.verdict {
                    Verdict::InOrder | Verdict::OutOfOrder => {
                        match conns
                            .get_mut(&d.conn)
                            .and_then(|c| c.delivered.get_mut(&psn))
                        {
                            Some(n) => *n += 1,
                            None => r.problems.push(format!(
                                "connection {}: PSN {psn} delivered but never sent as new data",
                                d.conn
                            )),
                        }
                    }
                    Verdict::Duplicate => r.duplicates_at_receiver += 1,
                    _ => {}
                }
                if let Some(s) = o.sack {
                    if rng.chance(l.drop_sack) {
                        r.sacks_dropped += 1;
                    } else {
                        let delay = l.one_way_ns as u64 + rng.below(l.jitter_ns as u64 + 1);
                        sack_wire.push(t + delay, (d.conn, s));
                    }
                }
            }
        }

        r.steps += 1;
        let all_posted = next_msg == msgs.len() && doorbells.is_empty();
        let drained = |k: &u32| {
            a.tx.conn(*k)
                .is_some_and(|c| c.sender.backlog == 0 && c.sender.sack.outstanding() == 0)
        };
        if all_posted && opened && conns.keys().all(drained) {
            r.finished = true;
            r.completion_ns = t;
            break;
        }
        t += u64::from(sc.step_ns);
    }

    r.packets = r.new_sent;
    r.cwnd_final_bytes = conns
        .keys()
        .filter_map(|k| a.tx.conn(*k).map(|c| c.cwnd.cwnd_bytes()))
        .min()
        .unwrap_or(0);
    r.cwnd_min_bytes = r.cwnd_min_bytes.min(r.cwnd_final_bytes);
    r.hot_path_share = if data_sent == 0 {
        0.0
    } else {
        hot_sent as f64 / data_sent as f64
    };
    let span = r.completion_ns.saturating_sub(first_post.unwrap_or(0));
    r.goodput_gbps = if r.finished && span > 0 {
        r.bytes_offered as f64 * 8.0 / span as f64
    } else {
        0.0
    };
    for (k, c) in &conns {
        let got = b.rx.conn(*k).map_or(0, |x| x.bytes_recvd);
        r.bytes_delivered += u64::from(got);
        if u64::from(got) != c.offered % (1u64 << 32) {
            r.problems.push(format!(
                "connection {k}: the receiver counted {got} bytes, {} offered",
                c.offered
            ));
        }
        let mut twice: Vec<(u32, u32)> = c
            .delivered
            .iter()
            .filter(|(_, n)| **n != 1)
            .map(|(p, n)| (*p, *n))
            .collect();
        twice.sort_unstable();
        for (psn, n) in twice.into_iter().take(10) {
            r.problems
                .push(format!("connection {k}: PSN {psn} delivered {n} times"));
        }
    }
    if !r.finished {
        // A message is delivered when the receiver's byte count has passed its last byte.
        let mut sent_before: BTreeMap<u32, u64> = BTreeMap::new();
        for m in &msgs {
            let before = sent_before.entry(m.conn).or_default();
            *before += m.bytes;
            let got = b.rx.conn(m.conn).map_or(0, |x| u64::from(x.bytes_recvd));
            if got < *before {
                r.unfinished_messages += 1;
            }
        }
        r.problems.push(format!(
            "not finished within {} ns: {} of {} messages not wholly delivered",
            sc.time_limit_ns,
            r.unfinished_messages,
            msgs.len()
        ));
    }
    r.delivered_exactly_once = r.problems.is_empty();
    r
}
