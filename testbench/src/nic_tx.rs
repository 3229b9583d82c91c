//! Co-simulation of `nic_tx`, the send side composed (the arbiter, the timer scan, the window
//! view, the transmit scheduler, the senders, the cwnd units and the entropy bitmaps): the
//! Verilated RTL against `golden_model::nic_tx::NicTx`, every output port on every cycle, the
//! four handshakes included.
//!
//! Stimulus: episodes of offers on the four inputs (opens, some too wide; SACKs forged from
//! the connection's state when first offered, of every kind the `nic_sender` co-sim forges;
//! doorbells below, at and above the MTU and at the backlog's limit; transmit opportunities at
//! densities from rare to every cycle), over one hot connection, a few, or all at random, with
//! ids out of range among them; idle stretches, jumps of the clock past the probe interval and
//! the timeout, and resets (in traffic and during a sweep). An offer not taken is held, as a
//! valid/ready source does, until it is.

use std::cell::RefCell;
use std::collections::VecDeque;

use golden_model::nic_sender::View;
use golden_model::nic_tx::{Done, In, Kind, NicTx, Source};
use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::Sack;
use golden_model::sack_sender::{LossKind, SackVerdict, TxKind};
use proptest::prelude::*;
use strack_config::{Config, NIC_TX_VIEW_LAG, NIC_TX_WORK_WRITE};

use crate::designs::ports::nic_tx as ports;
use crate::nic_sender::{
    forge, loss_kind_code, tx_kind_code, Forge, SackKind, KIND_DOORBELL, KIND_OPEN, KIND_SACK,
    KIND_TIMER, KIND_TRANSMIT,
};
use crate::{CosimBlock, Coverage, Dut, Out, OutputStage, PortValues};

/// Cycles from an event taken to its result on `m_*`.
pub const LATENCY: usize = crate::designs::NicTxSmall::LATENCY as usize;

/// A doorbell's bytes: a count, or what brings the backlog to `2^32 - 1 + .0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bytes {
    N(u32),
    Edge(i8),
}

/// One cycle of stimulus: what each source would offer were it free (an offer not yet taken is
/// offered again instead).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub reset: bool,
    /// The time `s_now` shows, ns.
    pub now: u32,
    pub open: Option<(u16, u32)>,
    pub txop: bool,
    pub sack: Option<(u16, Forge)>,
    pub doorbell: Option<(u16, Bytes)>,
    pub noise: u64,
    /// What is driven (set by `resolve`).
    pub offers: Offers,
}

/// The offers driven on one cycle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Offers {
    pub open: Option<(u16, u32)>,
    pub txop: bool,
    pub sack: Option<(u16, Sack)>,
    pub doorbell: Option<(u16, u32)>,
}

impl Offers {
    fn to_model(&self, reset: bool, now: u32) -> In {
        In {
            reset,
            now,
            open: self.open.map(|(k, p)| (u32::from(k), p)),
            txop: self.txop,
            sack: self.sack.clone().map(|(k, s)| (u32::from(k), s)),
            doorbell: self.doorbell.map(|(k, b)| (u32::from(k), b)),
        }
    }
}

/// An event's result as it reaches `m_*`, with the cycle it was taken on.
#[derive(Debug, Clone, Default)]
pub struct Regs {
    taken: u64,
    done: Option<Done>,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "source_open",
    "source_sack",
    "source_transmit",
    "source_doorbell",
    "source_timer",
    "opened",
    "open_refused",
    "sack_accepted",
    "sack_malformed",
    "doorbell_ok",
    "doorbell_refused",
    "tx_new",
    "tx_retransmit",
    "tx_probe",
    "tx_short",
    "tx_ack_req",
    "tx_entropy_chosen",
    "transmit_empty",
    "loss_ooo",
    "loss_probe",
    "loss_timeout",
    "bad_id",
    "reset",
    "reset_during_sweep",
    "offered_while_sweeping",
    "result_dropped_by_reset",
    "doorbell_won_a_turn",
    "transmit_won_a_turn",
    "offer_held_by_the_scan",
    "sack_held_by_an_open",
    "same_conn_distance_1",
    "same_conn_distance_2",
    "same_conn_distance_3",
    "same_conn_distance_4",
    "same_conn_distance_5",
    "same_conn_distance_6",
    "same_conn_distance_7",
    "same_conn_distance_8",
    "same_conn_distance_9",
    "same_conn_distance_10",
    "same_conn_distance_11",
    "same_conn_distance_12",
    "same_conn_distance_13",
    "same_conn_distance_14",
    "same_conn_distance_15",
    "same_conn_distance_16_or_more",
    "sack_after_sack_distance_1",
    "transmit_after_sack_distance_1",
    "event_view_lag_after_accepted_sack",
    "event_view_lag_less_1_after_accepted_sack",
    "event_view_lag_after_open",
    "transmit_work_write_and_1_after_doorbell",
    "psn_wrap",
    "bytes_wrap",
];

/// The model side.
pub struct Block {
    model: NicTx,
    cycle: u64,
    /// The last cycle with `s_reset` high (results of events taken before it are dropped).
    last_reset: Option<u64>,
    /// Offers not yet taken, driven again.
    held: Offers,
    /// This cycle's model input (for the handshakes, which `expected` shows before `fire`).
    now_in: RefCell<In>,
    /// Per connection: the cycle of its last event, of its last accepted SACK, of its last
    /// open, of its last accepted doorbell.
    last: Vec<Option<u64>>,
    last_sack: Vec<Option<u64>>,
    last_open: Vec<Option<u64>>,
    last_door: Vec<Option<u64>>,
    last_source: Vec<Option<Source>>,
    /// The cycle of the last event taken (a reset drops the results in flight).
    last_taken: Option<u64>,
    mtu: u32,
    /// The results of the last `LATENCY - 1` cycles' events, and the counters of those shown
    /// (`STATUS_COUNTERS`' order).
    flight: VecDeque<(u64, Option<Done>)>,
    counts: [u64; 10],
}

/// The send side's counters, in `Block::counts`' order.
pub const STATUS_COUNTERS: [Out; 10] = [
    ports::STATUS_TX_NEW,
    ports::STATUS_TX_RETRANSMIT,
    ports::STATUS_TX_PROBE,
    ports::STATUS_SACK_MALFORMED,
    ports::STATUS_LOSS_OOO,
    ports::STATUS_LOSS_PROBE,
    ports::STATUS_LOSS_TIMEOUT,
    ports::STATUS_OPEN_REFUSED,
    ports::STATUS_DOORBELL_REFUSED,
    ports::STATUS_BAD_CONN,
];

/// Which counters a result adds to (`STATUS_COUNTERS`' order).
fn counted(d: &Done) -> [bool; 10] {
    let kind = d.effect.as_ref().map(|e| &e.kind);
    let tx = |k: TxKind| matches!(kind, Some(Kind::Transmit(Some((_, x)))) if *x == k);
    let loss = |k: LossKind| d.effect.as_ref().and_then(|e| e.loss) == Some(k);
    [
        tx(TxKind::New),
        tx(TxKind::Retransmit),
        tx(TxKind::Probe),
        kind == Some(&Kind::Sack(SackVerdict::Malformed)),
        loss(LossKind::Ooo),
        loss(LossKind::Probe),
        loss(LossKind::Timeout),
        kind == Some(&Kind::OpenRefused),
        kind == Some(&Kind::Doorbell(false)),
        d.bad,
    ]
}

impl Block {
    pub fn new(cfg: &Config, initial_psn: u32, initial_bytes: u32) -> Self {
        assert!(
            cfg.sack.sack_bits <= 64,
            "nic_tx co-sim: s_sack_bitmap is driven as one 64-bit word"
        );
        let n = cfg.nic.connections as usize;
        Block {
            model: NicTx::with_initial_bytes(cfg, initial_psn, initial_bytes),
            cycle: 0,
            last_reset: None,
            held: Offers::default(),
            now_in: RefCell::new(In::default()),
            last: vec![None; n],
            last_sack: vec![None; n],
            last_open: vec![None; n],
            last_door: vec![None; n],
            last_source: vec![None; n],
            last_taken: None,
            mtu: cfg.network.mtu_bytes,
            flight: VecDeque::new(),
            counts: [0; 10],
        }
    }

    /// The model as the next cycle finds it.
    pub fn model(&self) -> &NicTx {
        &self.model
    }

    /// Forget an open not taken (the composed NIC's co-sim offers the open to this side only
    /// when the other side can take it too, and holds it itself).
    pub fn forget_held_open(&mut self) {
        self.held.open = None;
    }

    fn view_of(&self, k: u16) -> View {
        self.model
            .conn(u32::from(k))
            .map_or(View::default(), |c| View {
                cwnd_bytes: c.cwnd.cwnd_bytes(),
                achieved_bdp: c.cwnd.achieved_bdp,
            })
    }
}

fn b(x: bool) -> u64 {
    x as u64
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    const LATENCY: usize = LATENCY;

    fn dt(_: &Cycle) -> u32 {
        0
    }

    fn s_valid(_: &Cycle) -> bool {
        // Every cycle steps the model (the scan takes a cycle no input does).
        true
    }

    fn m_ready(_: &Cycle) -> bool {
        true
    }

    fn coverage_points(&self) -> Vec<&'static str> {
        let conns = self.model.connections();
        COVERAGE_POINTS
            .iter()
            .copied()
            .filter(|p| conns < 65_536 || *p != "bad_id")
            .collect()
    }

    fn resolve(&self, _now: u32, c: &Cycle) -> Cycle {
        let mut c = c.clone();
        let held = &self.held;
        let mut o = Offers {
            open: held.open.or(c.open),
            txop: held.txop || c.txop,
            sack: held.sack.clone(),
            doorbell: held.doorbell,
        };
        if o.sack.is_none() {
            if let Some((k, f)) = c.sack {
                let fresh;
                let s = match self.model.conn(u32::from(k)) {
                    Some(conn) => &conn.sender,
                    None => {
                        fresh = self.model.conn(0).expect("a connection").sender.clone();
                        &fresh
                    }
                };
                o.sack = Some((k, forge(s, f, &self.view_of(k), c.now)));
            }
        }
        if o.doorbell.is_none() {
            if let Some((k, bytes)) = c.doorbell {
                let n = match bytes {
                    Bytes::N(n) => n,
                    Bytes::Edge(d) => {
                        let backlog = self
                            .model
                            .conn(u32::from(k))
                            .map_or(0, |conn| conn.sender.backlog);
                        let room = i64::from(u32::MAX - backlog);
                        (room + i64::from(d)).clamp(0, i64::from(u32::MAX)) as u32
                    }
                };
                o.doorbell = Some((k, n));
            }
        }
        *self.now_in.borrow_mut() = o.to_model(c.reset, c.now);
        c.offers = o;
        c
    }

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        crate::garbage(dut, c.noise);
        let o = &c.offers;
        dut.set(ports::S_RESET, b(c.reset));
        dut.set(ports::S_NOW, u64::from(c.now));
        dut.set(ports::S_OPEN_VALID, b(o.open.is_some()));
        if let Some((k, psn)) = o.open {
            dut.set(ports::S_OPEN_CONN, u64::from(k));
            dut.set(ports::S_OPEN_PSN, u64::from(psn));
        }
        dut.set(ports::S_TXOP_VALID, b(o.txop));
        dut.set(ports::S_SACK_VALID, b(o.sack.is_some()));
        if let Some((k, s)) = &o.sack {
            dut.set(ports::S_SACK_CONN, u64::from(*k));
            dut.set(ports::S_SACK_EPSN, u64::from(s.epsn));
            dut.set(ports::S_SACK_BASE, u64::from(s.sack_base));
            dut.set(ports::S_SACK_BITMAP, s.bitmap.first().copied().unwrap_or(0));
            dut.set(ports::S_SACK_BYTES, u64::from(s.bytes_recvd));
            dut.set(ports::S_SACK_OOO, u64::from(s.ooo_count));
            dut.set(ports::S_SACK_TS, u64::from(s.ts));
            dut.set(ports::S_SACK_PROBE, b(s.probe));
            dut.set(ports::S_SACK_ECN, b(s.ecn));
            dut.set(ports::S_SACK_ENTROPY, u64::from(s.entropy));
        }
        dut.set(ports::S_DOORBELL_VALID, b(o.doorbell.is_some()));
        if let Some((k, n)) = o.doorbell {
            dut.set(ports::S_DOORBELL_CONN, u64::from(k));
            dut.set(ports::S_DOORBELL_BYTES, u64::from(n));
        }
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let i = self.now_in.borrow();
        let (hs, _) = self.model.handshakes(&i);
        let r = &lat.out;
        let dropped = self.last_reset.is_some_and(|x| x > r.taken);
        let d = r.done.as_ref().filter(|_| !dropped);
        let e = d.and_then(|d| d.effect.as_ref());
        let kind = e.map(|e| &e.kind);
        let pkt = match kind {
            Some(Kind::Transmit(Some((p, k)))) => Some((p, *k)),
            _ => None,
        };
        let source = d.map_or(0, |d| match d.source {
            Source::Timer => KIND_TIMER,
            Source::Open => KIND_OPEN,
            Source::Sack => KIND_SACK,
            Source::Transmit => KIND_TRANSMIT,
            Source::Doorbell => KIND_DOORBELL,
        });
        let mut v = vec![
            (ports::S_OPEN_READY, b(hs.open_ready)),
            (ports::S_TXOP_READY, b(hs.txop_ready)),
            (ports::S_SACK_READY, b(hs.sack_ready)),
            (ports::S_DOORBELL_READY, b(hs.doorbell_ready)),
            (ports::STATUS_READY, b(self.model.ready())),
            (ports::M_VALID, b(d.is_some())),
            (ports::M_BAD, b(d.is_some_and(|d| d.bad))),
            (ports::M_CONN, d.map_or(0, |d| u64::from(d.conn))),
            (ports::M_SOURCE, source),
            (ports::M_OPENED, b(kind == Some(&Kind::Opened))),
            (ports::M_OPEN_REFUSED, b(kind == Some(&Kind::OpenRefused))),
            (
                ports::M_SACK_ACCEPTED,
                b(kind == Some(&Kind::Sack(SackVerdict::Accepted))),
            ),
            (
                ports::M_SACK_MALFORMED,
                b(kind == Some(&Kind::Sack(SackVerdict::Malformed))),
            ),
            (ports::M_DOORBELL_OK, b(kind == Some(&Kind::Doorbell(true)))),
            (
                ports::M_DOORBELL_REFUSED,
                b(kind == Some(&Kind::Doorbell(false))),
            ),
            (ports::M_TX_VALID, b(pkt.is_some())),
            (ports::M_TX_PSN, pkt.map_or(0, |(p, _)| u64::from(p.psn))),
            (ports::M_TX_LEN, pkt.map_or(0, |(p, _)| u64::from(p.len))),
            (ports::M_TX_KIND, pkt.map_or(0, |(_, k)| tx_kind_code(k))),
            (ports::M_TX_ACK_REQ, b(pkt.is_some_and(|(p, _)| p.ack_req))),
            (
                ports::M_TX_ENTROPY,
                pkt.map_or(0, |(p, _)| u64::from(p.entropy)),
            ),
            (ports::M_TX_TS, pkt.map_or(0, |(p, _)| u64::from(p.ts))),
            (ports::M_LOSS_VALID, b(e.is_some_and(|e| e.loss.is_some()))),
            (
                ports::M_LOSS_KIND,
                e.and_then(|e| e.loss).map_or(0, loss_kind_code),
            ),
            (ports::M_WORK, b(e.is_some_and(|e| e.work))),
        ];
        v.extend(
            STATUS_COUNTERS
                .iter()
                .zip(self.counts)
                .map(|(p, n)| (*p, n & 0xFFFF_FFFF)),
        );
        v
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let t = self.cycle;
        self.cycle += 1;
        let ready = self.model.ready();
        let i = self.now_in.borrow().clone();
        let (hs, taken) = self.model.handshakes(&i);
        let o = &c.offers;
        let any_offer = o.open.is_some() || o.txop || o.sack.is_some() || o.doorbell.is_some();
        if any_offer && !ready && !c.reset {
            cov.hit("offered_while_sweeping");
        }
        if c.reset {
            cov.hit(if ready { "reset" } else { "reset_during_sweep" });
            let in_flight = self
                .last_taken
                .is_some_and(|x| x + LATENCY as u64 > t && self.last_reset.is_none_or(|r| r < x));
            if in_flight {
                cov.hit("result_dropped_by_reset");
            }
        }
        if ready && !c.reset && any_offer && !hs.open_ready {
            cov.hit("offer_held_by_the_scan");
        }
        if hs.open_ready && o.open.is_some() && o.sack.is_some() {
            cov.hit("sack_held_by_an_open");
        }
        let contended = i.txop
            && self.model.scheduler().candidate().is_some()
            && i.doorbell.is_some()
            && hs.sack_ready
            && i.sack.is_none();
        let before = taken.and_then(|(k, _)| self.model.conn(k).cloned());
        let out = self.model.step(&i);
        if contended {
            cov.hit(if out.doorbell_ready {
                "doorbell_won_a_turn"
            } else {
                "transmit_won_a_turn"
            });
        }
        // The held offers: those not taken (a reset drops them all: the source starts over).
        let keep = |ready: bool| !c.reset && !ready;
        self.held = Offers {
            open: o.open.filter(|_| keep(out.open_ready)),
            txop: o.txop && keep(out.txop_ready),
            sack: o.sack.clone().filter(|_| keep(out.sack_ready)),
            doorbell: o.doorbell.filter(|_| keep(out.doorbell_ready)),
        };
        if c.reset {
            self.last_reset = Some(t);
            self.last.iter_mut().for_each(|x| *x = None);
            self.last_sack.iter_mut().for_each(|x| *x = None);
            self.last_open.iter_mut().for_each(|x| *x = None);
            self.last_door.iter_mut().for_each(|x| *x = None);
        }
        if let Some(d) = &out.done {
            cov.hit(match d.source {
                Source::Open => "source_open",
                Source::Sack => "source_sack",
                Source::Transmit => "source_transmit",
                Source::Doorbell => "source_doorbell",
                Source::Timer => "source_timer",
            });
            if d.bad {
                cov.hit("bad_id");
            }
            if let Some(e) = &d.effect {
                let k = d.conn as usize;
                if let Some(p) = self.last[k] {
                    let dist = t - p;
                    let name = format!("same_conn_distance_{dist}");
                    cov.hit(
                        COVERAGE_POINTS
                            .iter()
                            .copied()
                            .find(|p| *p == name)
                            .unwrap_or("same_conn_distance_16_or_more"),
                    );
                    if dist == 1 && self.last_source[k] == Some(Source::Sack) {
                        match d.source {
                            Source::Sack => cov.hit("sack_after_sack_distance_1"),
                            Source::Transmit => cov.hit("transmit_after_sack_distance_1"),
                            _ => {}
                        }
                    }
                }
                // The first event that reads the window an accepted SACK (or an open) made,
                // and the last that does not; a transmit on the first cycle the scheduler
                // shows the has-work bit a doorbell wrote.
                match self.last_sack[k].map(|s| t - s) {
                    Some(d) if d == NIC_TX_VIEW_LAG => {
                        cov.hit("event_view_lag_after_accepted_sack")
                    }
                    Some(d) if d + 1 == NIC_TX_VIEW_LAG => {
                        cov.hit("event_view_lag_less_1_after_accepted_sack")
                    }
                    _ => {}
                }
                if self.last_open[k].is_some_and(|s| t - s == NIC_TX_VIEW_LAG) {
                    cov.hit("event_view_lag_after_open");
                }
                if d.source == Source::Transmit
                    && self.last_door[k].is_some_and(|s| t - s == NIC_TX_WORK_WRITE + 1)
                {
                    cov.hit("transmit_work_write_and_1_after_doorbell");
                }
                self.last[k] = Some(t);
                self.last_source[k] = Some(d.source);
                match &e.kind {
                    Kind::Opened => {
                        cov.hit("opened");
                        self.last_open[k] = Some(t);
                    }
                    Kind::OpenRefused => cov.hit("open_refused"),
                    Kind::Sack(SackVerdict::Accepted) => {
                        cov.hit("sack_accepted");
                        self.last_sack[k] = Some(t);
                    }
                    Kind::Sack(SackVerdict::Malformed) => cov.hit("sack_malformed"),
                    Kind::Doorbell(true) => {
                        cov.hit("doorbell_ok");
                        self.last_door[k] = Some(t);
                    }
                    Kind::Doorbell(false) => cov.hit("doorbell_refused"),
                    Kind::Transmit(None) => cov.hit("transmit_empty"),
                    Kind::Transmit(Some((p, kind))) => {
                        cov.hit(match kind {
                            TxKind::New => "tx_new",
                            TxKind::Retransmit => "tx_retransmit",
                            TxKind::Probe => "tx_probe",
                        });
                        if *kind == TxKind::New && p.len < self.mtu {
                            cov.hit("tx_short");
                        }
                        if p.ack_req {
                            cov.hit("tx_ack_req");
                        }
                        if p.entropy != 0 {
                            cov.hit("tx_entropy_chosen");
                        }
                    }
                    Kind::Timer => {}
                }
                if let Some(l) = e.loss {
                    cov.hit(match l {
                        LossKind::Ooo => "loss_ooo",
                        LossKind::Probe => "loss_probe",
                        LossKind::Timeout => "loss_timeout",
                    });
                }
                if let (Some(b0), Some(a)) = (&before, self.model.conn(d.conn)) {
                    if a.sender.sack.snd_nxt < b0.sender.sack.snd_nxt {
                        cov.hit("psn_wrap");
                    }
                    if a.sender.sack.bytes_sent < b0.sender.sack.bytes_sent {
                        cov.hit("bytes_wrap");
                    }
                }
            }
        }
        if out.done.is_some() {
            self.last_taken = Some(t);
        }
        // The result that shows on `m_*` next cycle is counted now (the RTL counts it as it
        // enters its last stage); a reset drops it and clears the counters.
        self.flight.push_back((t, out.done.clone()));
        if self.flight.len() >= LATENCY {
            if let Some((taken, Some(d))) = self.flight.pop_front() {
                if self.last_reset.is_none_or(|r| r < taken) {
                    for (n, hit) in self.counts.iter_mut().zip(counted(&d)) {
                        *n += u64::from(hit);
                    }
                }
            }
        }
        if c.reset {
            self.counts = [0; 10];
        }
        Regs {
            taken: t,
            done: out.done,
        }
    }
}

// ------------------------------------------------------------------ stimulus

/// What an episode of stimulus looks like.
#[derive(Debug, Clone, Copy)]
struct Mix {
    /// Per cycle: the chance of a new open, transmit opportunity, SACK, doorbell.
    p: [f64; 4],
    /// The connections the offers go to: one hot, a few, or all.
    spread: Spread,
    /// Weights of the SACK kinds.
    sacks: [u32; 7],
    /// The chance of an id out of range.
    bad: f64,
}

#[derive(Debug, Clone, Copy)]
enum Spread {
    Hot(u16),
    Few(u16, u16, u16),
    All,
}

const SACK_KINDS: [SackKind; 7] = [
    SackKind::Plausible,
    SackKind::Hole,
    SackKind::HoleOoo,
    SackKind::ProbeAnswer,
    SackKind::Stale,
    SackKind::FarBase,
    SackKind::Malformed,
];

struct Gen {
    rng: SplitMix64,
    conns: u32,
    mtu: u32,
    probe_ns: u32,
    rto_ns: u32,
    clock: u32,
    out: Vec<Cycle>,
}

fn weighted(r: &mut SplitMix64, w: &[u32]) -> usize {
    let total: u64 = w.iter().map(|&x| u64::from(x)).sum();
    let mut x = r.below(total.max(1));
    for (i, &wi) in w.iter().enumerate() {
        if x < u64::from(wi) {
            return i;
        }
        x -= u64::from(wi);
    }
    w.len() - 1
}

impl Gen {
    fn conn(&mut self, m: &Mix) -> u16 {
        if self.conns < 65_536 && self.rng.chance(m.bad) {
            let n = u64::from(self.conns);
            return (n + self.rng.below(65_536 - n)) as u16;
        }
        match m.spread {
            Spread::Hot(k) => k,
            Spread::Few(a, b2, c) => [a, b2, c][self.rng.below(3) as usize],
            Spread::All => self.rng.below(u64::from(self.conns)) as u16,
        }
    }

    fn emit(&mut self, c: Cycle) {
        self.out.push(c);
        self.clock = self.clock.wrapping_add(1 + self.rng.below(8) as u32);
    }

    fn blank(&mut self, reset: bool) -> Cycle {
        Cycle {
            reset,
            now: self.clock,
            open: None,
            txop: false,
            sack: None,
            doorbell: None,
            noise: self.rng.next_u64(),
            offers: Offers::default(),
        }
    }

    fn new_mix(&mut self) -> Mix {
        let r = &mut self.rng;
        let n = u64::from(self.conns);
        let spread = match r.below(4) {
            0 => Spread::Hot(r.below(n) as u16),
            1 => Spread::Few(r.below(n) as u16, r.below(n) as u16, r.below(n) as u16),
            _ if n <= 8 => Spread::All,
            2 => Spread::Few(r.below(n) as u16, r.below(n) as u16, r.below(n) as u16),
            _ => Spread::All,
        };
        let pick = |r: &mut SplitMix64, v: &[f64]| v[r.below(v.len() as u64) as usize];
        Mix {
            p: [
                pick(r, &[0.0, 0.002, 0.01]),
                pick(r, &[0.05, 0.3, 0.7, 1.0]),
                pick(r, &[0.02, 0.1, 0.3, 0.6]),
                pick(r, &[0.01, 0.05, 0.2, 0.5]),
            ],
            spread,
            sacks: [
                pick(r, &[10.0, 40.0]) as u32,
                pick(r, &[5.0, 30.0]) as u32,
                pick(r, &[2.0, 10.0]) as u32,
                pick(r, &[2.0, 10.0]) as u32,
                5,
                3,
                pick(r, &[2.0, 8.0]) as u32,
            ],
            bad: pick(r, &[0.0, 0.0, 0.02]),
        }
    }

    fn doorbell_bytes(&mut self) -> Bytes {
        let mtu = u64::from(self.mtu);
        let r = &mut self.rng;
        match r.below(10) {
            0 => Bytes::N(self.mtu),
            1 => Bytes::N((mtu * (1 + r.below(4))) as u32),
            2 => Bytes::N((mtu * (1 + r.below(40)) + r.below(mtu)) as u32),
            3 => Bytes::Edge(r.below(3) as i8 - 1),
            4 => Bytes::N(r.next_u64() as u32),
            _ => Bytes::N(1 + r.below(mtu) as u32),
        }
    }

    fn episode(&mut self) {
        let m = self.new_mix();
        let len = 30 + self.rng.below(400) as usize;
        for _ in 0..len {
            let mut c = self.blank(false);
            if self.rng.chance(m.p[0]) {
                let k = self.conn(&m);
                let psn = if self.rng.chance(0.2) {
                    (1 << 24) | self.rng.next_u64() as u32
                } else {
                    self.rng.below(1 << 24) as u32
                };
                c.open = Some((k, psn));
            }
            c.txop = self.rng.chance(m.p[1]);
            if self.rng.chance(m.p[2]) {
                let k = self.conn(&m);
                let kind = SACK_KINDS[weighted(&mut self.rng, &m.sacks)];
                c.sack = Some((
                    k,
                    Forge {
                        kind,
                        roll: self.rng.next_u64(),
                    },
                ));
            }
            if self.rng.chance(m.p[3]) {
                let k = self.conn(&m);
                let bytes = self.doorbell_bytes();
                c.doorbell = Some((k, bytes));
            }
            self.emit(c);
        }
    }

    fn run(&mut self, len: usize) {
        self.clock = match self.rng.below(3) {
            0 => 0,
            1 => self.rng.next_u64() as u32,
            _ => u32::MAX - (self.rng.below(len as u64 * 4 + 1) as u32),
        };
        while self.out.len() < len {
            match self.rng.below(20) {
                0 => {
                    // A reset, now and then another during the sweep.
                    let c = self.blank(true);
                    self.emit(c);
                    if self.rng.chance(0.3) {
                        let wait = self.rng.below(u64::from(self.conns) + 1);
                        for _ in 0..wait {
                            let mut c = self.blank(false);
                            c.txop = self.rng.chance(0.5);
                            self.emit(c);
                        }
                        let c = self.blank(true);
                        self.emit(c);
                    }
                }
                1 => {
                    // Idle, or the clock past a timer.
                    let n = 1 + self.rng.below(40);
                    for _ in 0..n {
                        let c = self.blank(false);
                        self.emit(c);
                    }
                    let jump = match self.rng.below(3) {
                        0 => self.probe_ns,
                        1 => self.rto_ns,
                        _ => self.rng.below(1000) as u32,
                    };
                    self.clock = self.clock.wrapping_add(jump);
                }
                _ => self.episode(),
            }
        }
        self.out.truncate(len);
    }
}

/// `len` cycles of stimulus for `cfg` from `seed`.
pub fn generate(cfg: &Config, seed: u64, len: usize) -> Vec<Cycle> {
    let mut g = Gen {
        rng: SplitMix64::new(seed),
        conns: cfg.nic.connections,
        mtu: cfg.network.mtu_bytes,
        probe_ns: cfg.probe_interval_ns(),
        rto_ns: cfg.sack.rto_ns,
        clock: 0,
        out: Vec::with_capacity(len),
    };
    g.run(len);
    g.out
}

/// Stimulus of a length in `len`, as a proptest strategy (its seed shrinks, not its cycles).
pub fn stimulus(cfg: Config, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    (any::<u64>(), len).prop_map(move |(seed, len)| generate(&cfg, seed, len))
}
