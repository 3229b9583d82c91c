//! Co-simulation of `nic_rx`, the multi-connection NIC's receive side: the Verilated RTL
//! against `golden_model::nic_rx::NicRx` (one `SackReceiver` per connection), every output port
//! on every cycle.
//!
//! Stimulus: each connection gets its own packet stream, as a sender over a lossy, reordering
//! path makes it (`sack_receiver::stream`: drops and retransmissions, duplicates, out-of-window
//! and malformed packets, probes, PSNs half the space away), and the streams are interleaved by
//! patterns: one hot connection every `d` cycles (`d` in 1..=9, every forwarding distance and
//! past it), random connections, every connection in turn, a window filled from its far
//! end and then its head (EPSN jumps by the whole window), opens (a connection whose stream
//! ran out is opened afresh at a random PSN; sometimes offered with a packet, which then
//! waits), ids out of range, idle cycles, and resets (in traffic and during a sweep).
//!
//! The design is free-running (no output handshake): the harness counts every cycle as an
//! event and keeps the results in flight itself, since a reset drops some of them.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};

use golden_model::nic_rx::{verdict_code, Done, In, Kind, NicRx};
use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::{DataPkt, SackReceiver, Verdict};
use golden_model::seq::{psn_add, psn_lt, PSN_HALF, PSN_MASK};
use proptest::prelude::*;
use strack_config::Config;

use crate::designs::ports::nic_rx as ports;
use crate::sack_receiver::{stream, Half, Mix};
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// Cycles from an event's offer to its result on `m_*`.
pub const LATENCY: usize = crate::designs::NicRxSmall::LATENCY as usize;

/// Events a reset drops: those before S3 (in S1, S2 and the hold stages H1..H3), `LATENCY - 4`
/// of them (after S3 the design has O1, O2 and the output register).
const DROPPED: usize = LATENCY - 4;

/// Where a packet's PSN comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Psn {
    /// As the stream made it.
    Abs,
    /// Half the space from the connection's state (`sack_receiver::Half`).
    Half(Half),
    /// The connection's EPSN plus this, when the packet is offered.
    Rel(u32),
}

/// One clock cycle's inputs.
#[derive(Debug, Clone)]
pub struct Cycle {
    pub reset: bool,
    /// `(connection, first EPSN)`.
    pub open: Option<(u16, u32)>,
    pub pkt: Option<(u16, DataPkt, Psn)>,
    /// What the idle inputs carry.
    pub noise: u64,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "packet_distance_1",
    "packet_distance_2",
    "packet_distance_3",
    "packet_distance_4",
    "packet_distance_5",
    "packet_distance_6",
    "packet_distance_7",
    "packet_distance_8_or_more",
    "packet_after_open_distance_1",
    "packet_after_open_distance_2",
    "packet_after_open_distance_3",
    "packet_after_open_distance_4",
    "open_distance_1",
    "open_distance_2",
    "open_distance_3",
    "open_distance_4",
    "first_after_sweep",
    "in_order",
    "in_order_advances_over_run",
    "head_advances_a_whole_window",
    "head_run_through_fill_distance_1",
    "head_run_through_fill_distance_2",
    "head_run_through_fill_distance_3",
    "head_past_snapshot_window",
    "head_on_empty_snapshot",
    "beyond_epsn_2w_past_snapshot",
    "out_of_order",
    "duplicate_below_epsn",
    "duplicate_held",
    "out_of_window",
    "probe",
    "malformed_psn",
    "malformed_len",
    "opened",
    "open_refused",
    "open_and_packet_together",
    "trigger_coalesce",
    "trigger_head_fill",
    "trigger_ack_req",
    "trigger_ecn",
    "segment_from_lowest",
    "segment_epsn_fallback",
    "psn_wrap",
    "psn_epsn_half",
    "bad_conn",
    "no_event",
    "offered_while_sweeping",
    "reset_drops_events",
    "reset_during_sweep",
];

/// One event's result on the output ports.
#[derive(Debug, Clone, Default)]
pub struct Regs {
    valid: bool,
    bad: bool,
    conn: u64,
    verdict: u64,
    trig: [bool; 5],
    sack: Option<golden_model::sack_receiver::Sack>,
    /// Duplicate, out of window, malformed or refused (what the counters count).
    count: [bool; 3],
}

/// The model's side.
pub struct Block {
    pub model: NicRx,
    /// Results of the events taken on the last `LATENCY - 1` cycles, oldest first.
    flight: VecDeque<Option<Regs>>,
    /// Duplicates, out of window, malformed, bad connection.
    counters: [u64; 4],
    /// The cycle and kind (open?) of the last event taken on each connection since a reset,
    /// and whether it changed the connection's record (a distance only tests the forwarding
    /// when the record the later event needs is not the one in the RAM).
    last: HashMap<u32, (u64, bool, bool)>,
    /// Each connection's events of the last 3 cycles (those the RTL's search corrects its
    /// snapshot for): cycle, open, the PSN an out-of-order packet made held, EPSN before.
    recent: HashMap<u32, VecDeque<Recent>>,
    cycle: u64,
    /// This cycle's resolved inputs, for the handshakes `expected` shows.
    now: RefCell<Option<In>>,
}

impl Block {
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        Block {
            model: NicRx::new(cfg, initial_psn),
            flight: (1..LATENCY).map(|_| None).collect(),
            counters: [0; 4],
            last: HashMap::new(),
            recent: HashMap::new(),
            cycle: 0,
            now: RefCell::new(None),
        }
    }

    fn input(c: &Cycle) -> In {
        In {
            reset: c.reset,
            open: c.open.map(|(k, psn)| (u32::from(k), psn)),
            pkt: c.pkt.map(|(k, p, _)| (u32::from(k), p)),
        }
    }
}

fn regs(d: &Done) -> Regs {
    let mut r = Regs {
        valid: true,
        bad: d.bad,
        conn: u64::from(d.conn),
        ..Regs::default()
    };
    let Some(k) = &d.kind else {
        return r;
    };
    r.verdict = u64::from(verdict_code(k));
    r.count = [
        r.verdict == 2,
        r.verdict == 3,
        r.verdict == 5 || r.verdict == 7,
    ];
    if let Kind::Packet(o) = k {
        let t = o.triggers;
        r.trig = [t.coalesce, t.head_fill, t.probe, t.ack_req, t.ecn];
        r.sack = o.sack.clone();
    }
    r
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;

    fn dt(_: &Cycle) -> u32 {
        1
    }
    fn s_valid(_: &Cycle) -> bool {
        true
    }
    fn m_ready(_: &Cycle) -> bool {
        true
    }

    fn resolve(&self, _now: u32, c: &Cycle) -> Cycle {
        let mut c = c.clone();
        if let Some((k, p, how)) = &mut c.pkt {
            if let Some(r) = self.model.conn(u32::from(*k)) {
                match *how {
                    Psn::Abs => {}
                    Psn::Rel(d) => p.psn = psn_add(r.epsn, d),
                    Psn::Half(Half::Epsn(k)) => {
                        p.psn = psn_add(r.epsn, (PSN_HALF as i64 + k as i64) as u32)
                    }
                    Psn::Half(Half::Lowest) => {
                        p.psn = psn_add(r.lowest_since_sack.unwrap_or(r.epsn), PSN_HALF)
                    }
                }
            }
        }
        *self.now.borrow_mut() = Some(Block::input(&c));
        c
    }

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        dut.set(ports::S_RESET, c.reset as u64);
        let n = c.noise;
        let (ov, (oc, op)) = match c.open {
            Some(o) => (1, o),
            None => (0, (n as u16, (n >> 16) as u32)),
        };
        dut.set(ports::S_OPEN_VALID, ov);
        dut.set(ports::S_OPEN_CONN, oc as u64);
        dut.set(ports::S_OPEN_PSN, op as u64);
        let junk = DataPkt {
            psn: (n >> 8) as u32,
            len: (n >> 20) as u32,
            entropy: (n >> 3) as u32,
            ecn: n & 1 == 1,
            ts: (n >> 30) as u32,
            probe: n & 2 == 2,
            ack_req: n & 4 == 4,
        };
        let (pv, (pc, p)) = match c.pkt {
            Some((k, p, _)) => (1, (k, p)),
            None => (0, ((n >> 40) as u16, junk)),
        };
        dut.set(ports::S_PKT_VALID, pv);
        dut.set(ports::S_PKT_CONN, pc as u64);
        dut.set(ports::S_PKT_PSN, p.psn as u64);
        dut.set(ports::S_PKT_LEN, p.len as u64);
        dut.set(ports::S_PKT_ENTROPY, p.entropy as u64);
        dut.set(ports::S_PKT_ECN, p.ecn as u64);
        dut.set(ports::S_PKT_TS, p.ts as u64);
        dut.set(ports::S_PKT_PROBE, p.probe as u64);
        dut.set(ports::S_PKT_ACK_REQ, p.ack_req as u64);
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let i = self.now.borrow().unwrap_or_default();
        let (open_ready, pkt_ready) = self.model.handshakes(&i);
        let o = &lat.out;
        let s = o.sack.clone().unwrap_or_default();
        let has = o.sack.is_some();
        vec![
            (ports::S_OPEN_READY, open_ready as u64),
            (ports::S_PKT_READY, pkt_ready as u64),
            (ports::M_VALID, o.valid as u64),
            (ports::M_BAD, o.bad as u64),
            (ports::M_CONN, o.conn),
            (ports::M_VERDICT, o.verdict),
            (ports::M_TRIG_COALESCE, o.trig[0] as u64),
            (ports::M_TRIG_HEAD_FILL, o.trig[1] as u64),
            (ports::M_TRIG_PROBE, o.trig[2] as u64),
            (ports::M_TRIG_ACK_REQ, o.trig[3] as u64),
            (ports::M_TRIG_ECN, o.trig[4] as u64),
            (ports::M_SACK_VALID, has as u64),
            (ports::M_SACK_EPSN, s.epsn as u64),
            (ports::M_SACK_BASE, s.sack_base as u64),
            (ports::M_SACK_BITMAP, s.bitmap.first().copied().unwrap_or(0)),
            (ports::M_SACK_BYTES_RECVD, s.bytes_recvd as u64),
            (ports::M_SACK_OOO_COUNT, s.ooo_count as u64),
            (ports::M_SACK_ENTROPY, s.entropy as u64),
            (ports::M_SACK_ECN, s.ecn as u64),
            (ports::M_SACK_TS, s.ts as u64),
            (ports::M_SACK_PROBE, s.probe as u64),
            (ports::STATUS_READY, self.model.ready() as u64),
            (ports::STATUS_DUPLICATES, self.counters[0] & 0xFFFF_FFFF),
            (ports::STATUS_OUT_OF_WINDOW, self.counters[1] & 0xFFFF_FFFF),
            (ports::STATUS_MALFORMED, self.counters[2] & 0xFFFF_FFFF),
            (ports::STATUS_BAD_CONN, self.counters[3] & 0xFFFF_FFFF),
        ]
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let now = self.cycle;
        self.cycle += 1;
        let i = Block::input(c);
        let ready = self.model.ready();
        if i.open.is_none() && i.pkt.is_none() {
            cov.hit("no_event");
        }
        if !ready && !c.reset && (i.open.is_some() || i.pkt.is_some()) {
            cov.hit("offered_while_sweeping");
        }
        if c.reset && !ready {
            cov.hit("reset_during_sweep");
        }
        if ready && !c.reset && i.open.is_some() && i.pkt.is_some() {
            cov.hit("open_and_packet_together");
        }
        let before = i
            .pkt
            .and_then(|(k, _)| self.model.conn(k).cloned())
            .filter(|_| i.open.is_none());
        let o = self.model.step(&i);
        if let Some(d) = &o.done {
            self.cover(now, d, &i, before.as_ref(), cov);
        }
        let result = o.done.as_ref().map(regs);
        let out = self.flight.pop_front().flatten();
        self.flight.push_back(result);
        if let Some(r) = &out {
            for (k, hit) in r.count.iter().enumerate() {
                self.counters[k] += *hit as u64;
            }
            self.counters[3] += r.bad as u64;
        }
        if c.reset {
            // The events in S1..H3 (taken on the `DROPPED` cycles before) are dropped, and this
            // cycle's offer is not taken; the one in S3 and those after it come out.
            let n = self.flight.len();
            let dropped = n - (DROPPED + 1);
            if self.flight.iter().skip(dropped).any(Option::is_some) {
                cov.hit("reset_drops_events");
            }
            self.flight.iter_mut().skip(dropped).for_each(|r| *r = None);
            self.counters = [0; 4];
            self.last.clear();
            self.recent.clear();
        }
        out.unwrap_or_default()
    }
}

/// An event on a connection, as the search's coverage needs it.
#[derive(Debug, Clone, Copy)]
struct Recent {
    cycle: u64,
    open: bool,
    held: Option<u32>,
    epsn_before: u32,
}

impl Block {
    /// The corrections the RTL's search makes for a head at `now` (`docs/blocks/nic_rx.md`,
    /// "The search out of the loop"): a fill by one of the 3 events before it on the
    /// connection that its run passes, an open among them, or EPSN more than a window past
    /// where it stood before them.
    ///
    /// `beyond`: the PSN of a new or held packet beyond EPSN, whose own "held" the RTL reads
    /// from the snapshot too: 2W or more past the snapshot's EPSN, only the "W or more past"
    /// rule keeps a slot of the snapshot from answering for it.
    fn cover_search(
        &mut self,
        now: u64,
        conn: u32,
        ev: Recent,
        (adv, beyond): (u32, Option<u32>),
        cov: &mut Coverage,
    ) {
        let w = self.model.conn(conn).expect("in range").params().rx_window;
        let q = self.recent.entry(conn).or_default();
        q.retain(|r| now - r.cycle <= 3);
        if let Some(psn) = beyond.filter(|_| !q.iter().any(|r| r.open)) {
            let e_s = q.front().map_or(ev.epsn_before, |r| r.epsn_before);
            if psn.wrapping_sub(e_s) & PSN_MASK >= 2 * w {
                cov.hit("beyond_epsn_2w_past_snapshot");
            }
        }
        if let Some(psn) = (adv > 0).then_some(ev.epsn_before) {
            if q.iter().any(|r| r.open) {
                cov.hit("head_on_empty_snapshot");
            } else {
                let e_s = q.front().map_or(psn, |r| r.epsn_before);
                if psn.wrapping_sub(e_s) & PSN_MASK >= w + 2 {
                    cov.hit("head_past_snapshot_window");
                }
                for r in q.iter() {
                    let Some(h) = r.held else { continue };
                    let off = h.wrapping_sub(psn) & PSN_MASK;
                    if off > 0 && off < adv {
                        cov.hit(match now - r.cycle {
                            1 => "head_run_through_fill_distance_1",
                            2 => "head_run_through_fill_distance_2",
                            _ => "head_run_through_fill_distance_3",
                        });
                    }
                }
            }
        }
        q.push_back(ev);
    }

    fn cover(
        &mut self,
        now: u64,
        d: &Done,
        i: &In,
        before: Option<&SackReceiver>,
        cov: &mut Coverage,
    ) {
        if d.bad {
            cov.hit("bad_conn");
            return;
        }
        let open = i.open.is_some();
        let after = self.model.conn(d.conn).expect("in range");
        let (mut held, mut adv, epsn_before) = (None, 0, before.map_or(0, |b| b.epsn));
        let mut beyond = None;
        if let (Some(Kind::Packet(o)), Some((_, p))) = (&d.kind, i.pkt) {
            match o.verdict {
                Verdict::OutOfOrder => {
                    held = Some(p.psn);
                    beyond = held;
                }
                Verdict::Duplicate if !psn_lt(p.psn, epsn_before) => beyond = Some(p.psn),
                Verdict::InOrder => adv = after.epsn.wrapping_sub(epsn_before) & PSN_MASK,
                _ => {}
            }
        }
        let ev = Recent {
            cycle: now,
            open: matches!(d.kind, Some(Kind::Opened)),
            held,
            epsn_before,
        };
        self.cover_search(now, d.conn, ev, (adv, beyond), cov);
        let after = self.model.conn(d.conn).expect("in range");
        let changed = match (&d.kind, before) {
            (Some(Kind::Opened), _) => true,
            (Some(Kind::Packet(_)), Some(b)) => !same_state(b, after),
            _ => false,
        };
        match self.last.insert(d.conn, (now, open, changed)) {
            None => cov.hit("first_after_sweep"),
            Some((at, was_open, was_changed)) => {
                let dist = now - at;
                let name = match (open, was_open, dist) {
                    _ if !was_changed => "",
                    (true, _, 1) => "open_distance_1",
                    (true, _, 2) => "open_distance_2",
                    (true, _, 3) => "open_distance_3",
                    (true, _, 4) => "open_distance_4",
                    (false, true, 1) => "packet_after_open_distance_1",
                    (false, true, 2) => "packet_after_open_distance_2",
                    (false, true, 3) => "packet_after_open_distance_3",
                    (false, true, 4) => "packet_after_open_distance_4",
                    (false, _, 1) => "packet_distance_1",
                    (false, _, 2) => "packet_distance_2",
                    (false, _, 3) => "packet_distance_3",
                    (false, _, 4) => "packet_distance_4",
                    (false, _, 5) => "packet_distance_5",
                    (false, _, 6) => "packet_distance_6",
                    (false, _, 7) => "packet_distance_7",
                    (false, _, _) => "packet_distance_8_or_more",
                    (true, _, _) => "",
                };
                if !name.is_empty() {
                    cov.hit(name);
                }
            }
        }
        match &d.kind {
            Some(Kind::Opened) => cov.hit("opened"),
            Some(Kind::OpenRefused) => cov.hit("open_refused"),
            Some(Kind::Packet(o)) => {
                let (Some(b), Some((_, p))) = (before, i.pkt) else {
                    return;
                };
                if psn_lt(p.psn, b.epsn) && b.epsn.wrapping_sub(p.psn) & PSN_MASK == PSN_HALF {
                    cov.hit("psn_epsn_half");
                }
                match o.verdict {
                    Verdict::InOrder => {
                        cov.hit("in_order");
                        let adv = after.epsn.wrapping_sub(b.epsn) & PSN_MASK;
                        if adv > 1 {
                            cov.hit("in_order_advances_over_run");
                        }
                        if adv == b.params().rx_window {
                            cov.hit("head_advances_a_whole_window");
                        }
                        if after.epsn < b.epsn {
                            cov.hit("psn_wrap");
                        }
                    }
                    Verdict::OutOfOrder => cov.hit("out_of_order"),
                    Verdict::Duplicate if psn_lt(p.psn, b.epsn) => cov.hit("duplicate_below_epsn"),
                    Verdict::Duplicate => cov.hit("duplicate_held"),
                    Verdict::OutOfWindow => cov.hit("out_of_window"),
                    Verdict::Probe => cov.hit("probe"),
                    Verdict::Malformed if p.psn > PSN_MASK => cov.hit("malformed_psn"),
                    Verdict::Malformed => cov.hit("malformed_len"),
                }
                let t = o.triggers;
                for (on, name) in [
                    (t.coalesce, "trigger_coalesce"),
                    (t.head_fill, "trigger_head_fill"),
                    (t.ack_req, "trigger_ack_req"),
                    (t.ecn, "trigger_ecn"),
                ] {
                    if on {
                        cov.hit(name);
                    }
                }
                if let Some(s) = &o.sack {
                    let bits = b.params().sack_bits;
                    cov.hit(if s.sack_base == after.epsn & !(bits - 1) {
                        "segment_epsn_fallback"
                    } else {
                        "segment_from_lowest"
                    });
                }
            }
            None => {}
        }
    }
}

/// Two receivers hold the same record (their counters are the model's own, not in the record).
fn same_state(a: &SackReceiver, b: &SackReceiver) -> bool {
    a.epsn == b.epsn
        && a.bitmap == b.bitmap
        && a.bytes_recvd == b.bytes_recvd
        && a.ooo_count == b.ooo_count
        && a.lowest_since_sack == b.lowest_since_sack
        && a.coalesce_bytes == b.coalesce_bytes
}

// ------------------------------------------------------------------ stimulus

/// The stimulus generator: a stream per connection, interleaved by patterns.
struct Gen<'a> {
    cfg: &'a Config,
    rng: SplitMix64,
    conns: u32,
    initial_psn: u32,
    /// Connections' pending packets; a connection not here has not been used since the last
    /// reset (its stream starts at the initial PSN).
    queues: HashMap<u16, VecDeque<(DataPkt, Psn)>>,
    out: Vec<Cycle>,
}

impl Gen<'_> {
    fn fresh_stream(&mut self, start: u32) -> VecDeque<(DataPkt, Psn)> {
        let m = Mix {
            seed: self.rng.next_u64(),
            packets: 24 + self.rng.below(200) as usize,
            drop: self.rng.below(15) as f64 / 100.0,
            reorder: self.rng.below(40) as f64 / 100.0,
            dup: self.rng.below(8) as f64 / 100.0,
        };
        stream(self.cfg, start, m)
            .into_iter()
            .filter(|c| c.s_valid && c.m_ready)
            .map(|c| (c.pkt, c.half.map_or(Psn::Abs, Psn::Half)))
            .collect()
    }

    /// The next event of connection `k`: its stream's next packet, or, when its stream has run
    /// out, an open at a random PSN (the stream after it starts there).
    fn event(&mut self, k: u16) -> Cycle {
        let noise = self.rng.next_u64();
        if !self.queues.contains_key(&k) {
            let q = self.fresh_stream(self.initial_psn);
            self.queues.insert(k, q);
        }
        if let Some((p, how)) = self.queues.get_mut(&k).and_then(VecDeque::pop_front) {
            return Cycle {
                reset: false,
                open: None,
                pkt: Some((k, p, how)),
                noise,
            };
        }
        let psn = match self.rng.below(8) {
            0 => (1 << 24) - 1 - self.rng.below(64) as u32,
            1 => (1 << 24) | self.rng.next_u64() as u32,
            _ => self.rng.next_u64() as u32 & PSN_MASK,
        };
        let q = self.fresh_stream(psn & PSN_MASK);
        self.queues.insert(k, q);
        Cycle {
            reset: false,
            open: Some((k, psn)),
            pkt: None,
            noise,
        }
    }

    fn idle(&mut self) -> Cycle {
        Cycle {
            reset: false,
            open: None,
            pkt: None,
            noise: self.rng.next_u64(),
        }
    }

    fn any_conn(&mut self) -> u16 {
        let n = self.conns.min(65_536);
        match self.rng.below(40) {
            0 => n.min(65_535) as u16,
            1 => u16::MAX,
            _ => self.rng.below(u64::from(n)) as u16,
        }
    }

    fn push_event(&mut self, k: u16) {
        let c = if u32::from(k) >= self.conns {
            let mut c = self.idle();
            c.pkt = Some((k, DataPkt::default(), Psn::Abs));
            c
        } else {
            self.event(k)
        };
        // Now and then an open offered beside a packet: the open is taken and the packet
        // offered again on the next cycle.
        if c.pkt.is_some() && self.rng.chance(0.01) {
            let other = self.rng.below(u64::from(self.conns)) as u16;
            let mut with = self.event(other);
            if let Some(o) = with.open.take() {
                let mut both = c.clone();
                both.open = Some(o);
                self.out.push(both);
            } else if let Some((k2, p, how)) = with.pkt {
                // Not due for an open: give the packet back.
                self.queues
                    .get_mut(&k2)
                    .expect("just used")
                    .push_front((p, how));
            }
        }
        self.out.push(c);
    }

    fn segment(&mut self) {
        let top = self.conns.min(65_536);
        let w = self.cfg.sack.rx_window;
        let (all_w, reset_w) = if self.conns <= 64 { (4, 4) } else { (1, 1) };
        let roll = self.rng.below(110 + all_w + reset_w);
        if roll >= 100 + all_w + reset_w {
            self.open_hot();
        } else if roll < 45 {
            // A hot connection every d cycles.
            let hot = self.rng.below(u64::from(top)) as u16;
            let d = 1 + self.rng.below(9) as usize;
            for _ in 0..2 + self.rng.below(10) {
                self.push_event(hot);
                for _ in 1..d {
                    if self.rng.chance(0.7) {
                        let k = self.any_conn();
                        self.push_event(k);
                    } else {
                        let c = self.idle();
                        self.out.push(c);
                    }
                }
            }
        } else if roll < 90 {
            for _ in 0..10 + self.rng.below(70) {
                if self.rng.chance(0.8) {
                    let k = self.any_conn();
                    self.push_event(k);
                } else {
                    let c = self.idle();
                    self.out.push(c);
                }
            }
        } else if roll < 100 {
            // A window filled from its far end, then its head: EPSN jumps by the whole window.
            // (The connection's own stream is set aside: its PSNs are placed from EPSN.)
            let k = self.rng.below(u64::from(top)) as u16;
            let gap = self.rng.below(3) as usize;
            for j in (1..w).rev().chain([0]) {
                let (p, noise) = self.plain_pkt();
                self.out.push(Cycle {
                    reset: false,
                    open: None,
                    pkt: Some((k, p, Psn::Rel(j))),
                    noise,
                });
                for _ in 0..gap {
                    let c = self.idle();
                    self.out.push(c);
                }
            }
            // Then in-order packets back to back: each head's EPSN is more than a window past
            // the one its snapshot (four events back) saw.
            for _ in 0..self.rng.below(4) {
                let (p, noise) = self.plain_pkt();
                self.out.push(Cycle {
                    reset: false,
                    open: None,
                    pkt: Some((k, p, Psn::Rel(0))),
                    noise,
                });
            }
            // And sometimes a packet at the window's far end right after them: its own "held"
            // is read where the snapshot's window lies two windows back.
            if self.rng.chance(0.5) {
                let (p, noise) = self.plain_pkt();
                self.out.push(Cycle {
                    reset: false,
                    open: None,
                    pkt: Some((k, p, Psn::Rel(w - 1))),
                    noise,
                });
            }
            // The stream it had is now far behind: open the connection afresh.
            let psn = self.rng.next_u64() as u32 & PSN_MASK;
            let q = self.fresh_stream(psn);
            self.queues.insert(k, q);
            self.out.push(Cycle {
                reset: false,
                open: Some((k, psn)),
                pkt: None,
                noise: 0,
            });
        } else if roll < 100 + all_w {
            for k in 0..top.min(4096) {
                self.push_event(k as u16);
            }
        } else {
            // A reset in traffic, half the time another before its sweep is over, offers
            // while sweeping; every connection starts again at the initial PSN.
            let noise = self.rng.next_u64();
            let reset = Cycle {
                reset: true,
                open: None,
                pkt: Some((0, DataPkt::default(), Psn::Abs)),
                noise,
            };
            self.out.push(reset.clone());
            let mut left = self.conns as u64 + 1;
            if self.rng.chance(0.5) {
                for _ in 0..self.rng.below(left) {
                    let c = self.idle();
                    self.out.push(c);
                }
                self.out.push(reset);
                left = self.conns as u64 + 1;
            }
            for _ in 0..left {
                let mut c = self.idle();
                if self.rng.chance(0.3) {
                    c.pkt = Some((0, DataPkt::default(), Psn::Abs));
                }
                self.out.push(c);
            }
            self.queues.clear();
        }
    }
}

impl Gen<'_> {
    /// A data packet of random length (its PSN placed by the caller) and the cycle's noise.
    fn plain_pkt(&mut self) -> (DataPkt, u64) {
        let noise = self.rng.next_u64();
        let p = DataPkt {
            psn: 0,
            len: 1 + (noise % u64::from(self.cfg.network.mtu_bytes)) as u32,
            entropy: noise as u32,
            ecn: false,
            ts: (noise >> 32) as u32,
            probe: false,
            ack_req: false,
        };
        (p, noise)
    }

    /// An open `d` cycles after an event on its connection (`d` in 1..=5), sometimes offered
    /// beside another connection's packet (which waits a cycle), then the connection's packets
    /// at distance `d` from it and from each other. Its PSN is random: near the wrap, or too
    /// wide (refused) now and then.
    fn open_hot(&mut self) {
        let top = self.conns.min(65_536);
        let k = self.rng.below(u64::from(top)) as u16;
        let d = 1 + self.rng.below(5) as usize;
        let gap = |g: &mut Self| {
            for _ in 1..d {
                if g.rng.chance(0.5) {
                    let c = g.any_conn();
                    g.push_event(c);
                } else {
                    let c = g.idle();
                    g.out.push(c);
                }
            }
        };
        self.push_event(k);
        gap(self);
        let psn = match self.rng.below(8) {
            0 => (1 << 24) | self.rng.next_u64() as u32,
            1..=3 => (1 << 24) - 1 - self.rng.below(64) as u32,
            _ => self.rng.next_u64() as u32 & PSN_MASK,
        };
        let q = self.fresh_stream(psn & PSN_MASK);
        let mut open = Cycle {
            reset: false,
            open: Some((k, psn)),
            pkt: None,
            noise: self.rng.next_u64(),
        };
        let other = self.rng.below(u64::from(top)) as u16;
        let beside = (other != k && self.rng.chance(0.3)).then(|| self.event(other));
        if let Some(b) = beside.as_ref().filter(|b| b.pkt.is_some()) {
            open.pkt = b.pkt;
        }
        self.out.push(open);
        if let Some(b) = beside {
            // Offered again (or, if it was an open itself, offered now).
            self.out.push(b);
        }
        if psn <= PSN_MASK {
            self.queues.insert(k, q);
        }
        for _ in 0..2 + self.rng.below(6) {
            gap(self);
            self.push_event(k);
        }
    }
}

/// About `len` cycles of stimulus for `cfg`'s connections, every connection starting at
/// `initial_psn`.
pub fn generate(cfg: &Config, initial_psn: u32, seed: u64, len: usize) -> Vec<Cycle> {
    let mut g = Gen {
        cfg,
        rng: SplitMix64::new(seed),
        conns: cfg.nic.connections,
        initial_psn,
        queues: HashMap::new(),
        out: Vec::with_capacity(len + 5000),
    };
    // The power-on sweep, with offers it must not take.
    for _ in 0..=cfg.nic.connections {
        let mut c = g.idle();
        if g.rng.chance(0.2) {
            c.pkt = Some((0, DataPkt::default(), Psn::Abs));
        }
        g.out.push(c);
    }
    while g.out.len() < len {
        g.segment();
    }
    g.out
}

pub fn stimulus(
    cfg: Config,
    initial_psn: u32,
    len: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Cycle>> {
    (any::<u64>(), len).prop_map(move |(seed, len)| generate(&cfg, initial_psn, seed, len))
}
