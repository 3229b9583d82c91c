//! Co-simulation of `nic_sender`, the send side's senders: the Verilated RTL against
//! `golden_model::nic_sender::NicSender` (one `Sender` per connection: the backlog, the short
//! packet and the SACK sender), every output port on every cycle.
//!
//! Stimulus: events of every kind (doorbells below, at and above the MTU and huge ones the
//! backlog refuses; transmit opportunities; SACKs; timer checks; opens, some too wide) with
//! windows from 0 to 2^32 - 1 and achievedBDP zero or not, spread over the connections by
//! patterns: one hot connection every `d` cycles (`d` in 1..=8, every forwarding distance and
//! past it), a few or all connections at random, every connection in turn, a window filled to
//! `rx_window` PSNs and then a hole reported (OOO loss, retransmissions), a probe and its quick
//! answer (probe loss), the timeout, an event at a timer's edge (a transmit 1 ns before and at
//! the probe interval, an event at and 1 ns past the timeout), a storm of huge doorbells (some
//! bringing the backlog to one below, at and one past 2^32 - 1), a step at every distance after
//! an open; ids out of range among them, idle cycles, and resets (in traffic and during a
//! sweep), with events offered while the sweep runs. The time advances by a few ns a cycle,
//! now and then past the probe interval or the timeout, and across the 32-bit wrap.
//!
//! The SACKs are forged from the connection's state when they are offered
//! ([`CosimBlock::resolve`]): plausible ones (EPSN in `[snd_una, snd_nxt]`, a segment near
//! `snd_una`, bytes up to those sent, an out-of-order count around the OOO threshold), a hole at
//! `snd_una`, a probe's quick answer, stale EPSNs (`2^23` away included), a segment half the
//! space away, and malformed ones (EPSN past `snd_nxt`, a base off the grid, a field wider than
//! 24 bits, more bytes than were sent).
//!
//! The design is free-running (no output handshake): the harness counts every cycle as an
//! event and keeps the results in flight itself, since a reset drops some of them.

use std::cell::Cell;
use std::collections::VecDeque;

use golden_model::nic_sender::{Done, Event, In, Kind, NicSender, Sender, View};
use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::Sack;
use golden_model::sack_sender::{LossKind, SackVerdict, TxKind};
use golden_model::seq::{psn_add, psn_lt, psn_sub, PSN_HALF, PSN_MASK};
use proptest::prelude::*;
use strack_config::{Config, NIC_SENDER_SETTLE};

use crate::designs::ports::nic_sender as ports;
use crate::traffic::Traffic;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// Cycles from an event's offer to its result on `m_*`.
pub const LATENCY: usize = crate::designs::NicSenderSmall::LATENCY as usize;

/// Events a reset drops: those in S1, S2 and the hold stages H1 to H3, taken on the 5 cycles
/// before it; the one in S3 completes (the output register follows it).
const DROPPED: usize = 5;

/// `s_kind` of each event (a timer check is 0, or any of 5..=7).
pub const KIND_TIMER: u64 = 0;
pub const KIND_OPEN: u64 = 1;
pub const KIND_SACK: u64 = 2;
pub const KIND_TRANSMIT: u64 = 3;
pub const KIND_DOORBELL: u64 = 4;

/// `m_tx_kind` of a packet's kind.
pub fn tx_kind_code(k: TxKind) -> u64 {
    match k {
        TxKind::New => 0,
        TxKind::Retransmit => 1,
        TxKind::Probe => 2,
    }
}

/// `m_loss_kind` of a loss detector.
pub fn loss_kind_code(k: LossKind) -> u64 {
    match k {
        LossKind::Ooo => 0,
        LossKind::Probe => 1,
        LossKind::Timeout => 2,
    }
}

/// How a SACK is forged from its connection's state when it is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SackKind {
    /// EPSN in `[snd_una, snd_nxt]`, a segment from a little below `snd_una` to past
    /// `snd_nxt`, random bits, bytes up to those sent, an out-of-order count around the OOO
    /// threshold.
    Plausible,
    /// EPSN at `snd_una` (it moves nothing), the segment's bits above it: a hole at `snd_una`.
    Hole,
    /// A hole with an out-of-order count above the OOO threshold: the OOO detector fires.
    HoleOoo,
    /// A probe's answer, quickly back (RTT below `2 x net_base_rtt`, now and then exactly
    /// that), EPSN at `snd_una`, bits above it, a count below the OOO threshold.
    ProbeAnswer,
    /// EPSN below `snd_una`: 1 to 500 PSNs, or `2^23` / `2^23 + 1` away.
    Stale,
    /// A segment half the space from `snd_una`: it acknowledges nothing.
    FarBase,
    /// Malformed: EPSN past `snd_nxt` (`2^23 - 1` ahead included), a base off the grid, an
    /// EPSN or base wider than 24 bits, more bytes than were ever sent.
    Malformed,
    /// Everything sent received: EPSN at `snd_nxt`, every byte sent, no segment bits, no
    /// mark, a round trip of the network's base RTT (the load benchmark's, not the co-sims').
    AckAll,
}

/// A SACK's recipe: the kind and the randomness it is forged with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forge {
    pub kind: SackKind,
    pub roll: u64,
}

/// What one cycle offers on a connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ev {
    /// Open (restart) at this PSN; wider than 24 bits: refused.
    Open(u32),
    Transmit,
    /// A SACK: its recipe, and the SACK itself once [`CosimBlock::resolve`] has forged it.
    Sack(Forge, Option<Sack>),
    Doorbell(u32),
    /// A doorbell whose bytes bring the backlog to `2^32 - 1 + .0` (`.0` in -1..=1: one below,
    /// at and one past the most it holds), worked out from the connection's backlog when it is
    /// offered (the bytes, once [`CosimBlock::resolve`] has).
    DoorbellEdge(i8, Option<u32>),
    /// A timer check, with the `s_kind` it is driven as (0, or one of 5..=7).
    Timer(u8),
}

impl Ev {
    fn to_model(&self) -> Event {
        match self {
            Ev::Open(psn) => Event::Open(*psn),
            Ev::Transmit => Event::Transmit,
            Ev::Sack(_, s) => {
                Event::Sack(s.clone().expect("a SACK is forged before it is offered"))
            }
            Ev::Doorbell(b) => Event::Doorbell(*b),
            Ev::DoorbellEdge(_, b) => {
                Event::Doorbell(b.expect("a doorbell's edge is resolved before it is offered"))
            }
            Ev::Timer(_) => Event::Timer,
        }
    }

    fn kind_code(&self) -> u64 {
        match self {
            Ev::Open(_) => KIND_OPEN,
            Ev::Transmit => KIND_TRANSMIT,
            Ev::Sack(..) => KIND_SACK,
            Ev::Doorbell(_) | Ev::DoorbellEdge(..) => KIND_DOORBELL,
            Ev::Timer(k) => u64::from(*k),
        }
    }
}

/// One clock cycle's inputs. The harness's own clock is not used: each cycle carries its time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub reset: bool,
    /// The time `s_now` shows when an event is offered.
    pub now: u32,
    /// `(connection, event, the window it reads)`.
    pub event: Option<(u16, Ev, View)>,
    /// What the inputs the cycle does not use carry.
    pub noise: u64,
    /// The window on `s_cwnd` and `s_bdp_zero` this cycle: the previous cycle's event's (the
    /// RTL samples it the cycle after its event); set by `resolve`.
    pub window: Option<View>,
}

/// A SACK, then a transmit, `d` cycles after its connection's last event, when that event
/// changed the record (1..=7: the hold shell's forwarding distances), and past them.
const SACK_DISTANCE: [&str; 8] = [
    "sack_distance_1",
    "sack_distance_2",
    "sack_distance_3",
    "sack_distance_4",
    "sack_distance_5",
    "sack_distance_6",
    "sack_distance_7",
    "sack_distance_8_or_more",
];
const TRANSMIT_DISTANCE: [&str; 8] = [
    "transmit_distance_1",
    "transmit_distance_2",
    "transmit_distance_3",
    "transmit_distance_4",
    "transmit_distance_5",
    "transmit_distance_6",
    "transmit_distance_7",
    "transmit_distance_8_or_more",
];
/// Any event `d` cycles after an open of its connection (1..=7), nothing between on it.
const AFTER_OPEN: [&str; 7] = [
    "after_open_1",
    "after_open_2",
    "after_open_3",
    "after_open_4",
    "after_open_5",
    "after_open_6",
    "after_open_7",
];

pub const COVERAGE_POINTS: &[&str] = &[
    SACK_DISTANCE[0],
    SACK_DISTANCE[1],
    SACK_DISTANCE[2],
    SACK_DISTANCE[3],
    SACK_DISTANCE[4],
    SACK_DISTANCE[5],
    SACK_DISTANCE[6],
    SACK_DISTANCE[7],
    TRANSMIT_DISTANCE[0],
    TRANSMIT_DISTANCE[1],
    TRANSMIT_DISTANCE[2],
    TRANSMIT_DISTANCE[3],
    TRANSMIT_DISTANCE[4],
    TRANSMIT_DISTANCE[5],
    TRANSMIT_DISTANCE[6],
    TRANSMIT_DISTANCE[7],
    AFTER_OPEN[0],
    AFTER_OPEN[1],
    AFTER_OPEN[2],
    AFTER_OPEN[3],
    AFTER_OPEN[4],
    AFTER_OPEN[5],
    AFTER_OPEN[6],
    "sack_accepted",
    "sack_malformed",
    "sack_acked_bytes",
    "sack_stale",
    "sack_epsn_half",
    "sack_epsn_at_nxt",
    "sack_epsn_past_nxt_by_1",
    "sack_bytes_past_sent_by_1",
    "una_by_segment",
    "ooo_at_threshold",
    "ooo_past_threshold_by_1",
    "probe_rtt_at_limit",
    "recovery_exit",
    "tx_new",
    "tx_retransmit",
    "tx_probe",
    "tx_none",
    "tx_ack_req",
    "tx_mtu_empties_backlog",
    "short_sent",
    "short_retransmit",
    "short_waits",
    "short_lost",
    "loss_ooo",
    "loss_probe",
    "loss_timeout",
    "timeout_whole_window",
    "timeout_at_rto",
    "timeout_past_rto_by_1",
    "probe_before_interval_by_1",
    "probe_at_interval",
    "doorbell_ok",
    "doorbell_refused",
    "doorbell_to_max",
    "doorbell_past_max_by_1",
    "sack_settled",
    "sack_unsettled",
    "transmit_settled",
    "transmit_unsettled",
    "other_unsettled",
    "unsettled_sack_leaves_the_run",
    "settling_run_moves_una",
    "settled_new_after_doorbell",
    "unsettled_view_holds_data",
    "unsettled_view_stale",
    "opened",
    "open_refused",
    "timer",
    "timer_kind_5_to_7",
    "work_0",
    "work_1",
    "rx_window_full",
    "cwnd_stops_data",
    "inflight_negative",
    "zero_cwnd",
    "psn_wrap",
    "bytes_wrap",
    "now_wrap",
    "bad_id",
    "bad_id_first_past_the_end",
    "no_event",
    "offered_while_sweeping",
    "reset",
    "reset_drops_events",
    "reset_lets_the_last_stage_finish",
    "reset_during_sweep",
    "last_id_first_after_sweep",
];

/// One event's result on the output ports (all 0 when `valid` is not set; all but `valid`,
/// `bad` and `conn` 0 for an id out of range).
#[derive(Debug, Clone, Default)]
pub struct Regs {
    valid: bool,
    bad: bool,
    conn: u64,
    opened: bool,
    open_refused: bool,
    sack_accepted: bool,
    sack_malformed: bool,
    acked_bytes: u64,
    doorbell_ok: bool,
    doorbell_refused: bool,
    tx_valid: bool,
    tx_psn: u64,
    tx_len: u64,
    tx_kind: u64,
    tx_ack_req: bool,
    loss_valid: bool,
    loss_kind: u64,
    work: bool,
}

fn regs(d: &Done) -> Regs {
    let mut r = Regs {
        valid: true,
        bad: d.bad,
        conn: u64::from(d.conn),
        ..Regs::default()
    };
    let Some(e) = &d.effect else {
        return r;
    };
    match &e.kind {
        Kind::Opened => r.opened = true,
        Kind::OpenRefused => r.open_refused = true,
        Kind::Transmit(tx) => {
            if let Some(p) = tx {
                r.tx_valid = true;
                r.tx_psn = u64::from(p.psn);
                r.tx_len = u64::from(p.len);
                r.tx_kind = tx_kind_code(p.kind);
                r.tx_ack_req = p.ack_req;
            }
        }
        Kind::Sack(SackVerdict::Accepted, acked) => {
            r.sack_accepted = true;
            r.acked_bytes = u64::from(*acked);
        }
        Kind::Sack(SackVerdict::Malformed, _) => r.sack_malformed = true,
        Kind::Doorbell(true) => r.doorbell_ok = true,
        Kind::Doorbell(false) => r.doorbell_refused = true,
        Kind::Timer => {}
    }
    if let Some(l) = e.loss {
        r.loss_valid = true;
        r.loss_kind = loss_kind_code(l);
    }
    r.work = e.work;
    r
}

/// The last event taken on a connection since the last reset.
#[derive(Debug, Clone, Copy)]
struct Last {
    cycle: u64,
    open: bool,
    /// It changed the record: only then does the distance to the next event test the
    /// forwarding (a stale read would find the same record).
    changed: bool,
}

/// The model's side.
pub struct Block {
    pub model: NicSender,
    /// What a SACK on an id out of range is forged from.
    fresh: Sender,
    /// Results of the events taken on the last `LATENCY - 1` cycles, oldest first.
    flight: VecDeque<Option<Regs>>,
    last: Vec<Option<Last>>,
    /// The cycle each connection last took a doorbell's bytes.
    last_doorbell: Vec<Option<u64>>,
    cycle: u64,
    /// The store was ready on the cycle before (the first ready cycle is the sweep's edge).
    was_ready: bool,
    mtu: u32,
    rx_window: u32,
    /// This cycle's `s_reset`, for `s_ready` (`expected` runs before `fire`).
    reset_now: Cell<bool>,
    /// The window of the previous cycle's event, driven this cycle.
    last_window: Cell<Option<View>>,
}

impl Block {
    /// Every connection starts (and restarts after a reset) at `initial_psn` with
    /// `initial_bytes` sent and received, as the design was built.
    pub fn new(cfg: &Config, initial_psn: u32, initial_bytes: u32) -> Self {
        assert!(
            cfg.sack.sack_bits <= 64,
            "nic_sender co-sim: s_sack_bitmap is driven as one 64-bit word"
        );
        Block {
            model: NicSender::with_initial_bytes(cfg, initial_psn, initial_bytes),
            fresh: Sender::new(cfg, initial_psn).with_bytes(initial_bytes),
            flight: (1..LATENCY).map(|_| None).collect(),
            last: vec![None; cfg.nic.connections as usize],
            last_doorbell: vec![None; cfg.nic.connections as usize],
            cycle: 0,
            was_ready: false,
            mtu: cfg.network.mtu_bytes,
            rx_window: cfg.sack.rx_window,
            reset_now: Cell::new(false),
            last_window: Cell::new(None),
        }
    }
}

/// Two senders hold the same record (the SACK sender's counters are the model's, not the
/// record's).
fn same_record(a: &Sender, b: &Sender) -> bool {
    let mut a = a.clone();
    a.sack.counters = b.sack.counters.clone();
    a == *b
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;

    fn dt(_: &Cycle) -> u32 {
        0
    }
    fn s_valid(_: &Cycle) -> bool {
        true
    }
    fn m_ready(_: &Cycle) -> bool {
        true
    }

    /// Every point at 4 connections, every one but the clock's wrap at 1024: the model alone on
    /// the stimulus reached each in 10^6 cycles, on every seed tried (the rarest at 1024, a
    /// probe's answer at the RTT's bound and a reset during a sweep, 13 times or more).
    fn coverage_points(&self) -> Vec<&'static str> {
        let conns = self.model.connections();
        COVERAGE_POINTS
            .iter()
            .copied()
            // At 65536 connections every 16-bit id is in range.
            .filter(|p| conns < 65_536 || !p.starts_with("bad_id"))
            // The clock's wrap with data outstanding is required at a few connections (270 to
            // 480 hits in ten runs at 4); at 1024 it hung on one long silence (10 to 3,065 hits
            // in eight runs), and the logic it checks does not depend on the count.
            .filter(|p| conns <= 64 || *p != "now_wrap")
            .collect()
    }

    fn resolve(&self, _now: u32, c: &Cycle) -> Cycle {
        self.reset_now.set(c.reset);
        let mut c = c.clone();
        c.window = self
            .last_window
            .replace(c.event.as_ref().map(|(_, _, v)| *v));
        let now = c.now;
        if let Some((k, ev, v)) = &mut c.event {
            let sender = self.model.conn(u32::from(*k)).unwrap_or(&self.fresh);
            match ev {
                Ev::Sack(f, s) => *s = Some(forge(sender, *f, v, now)),
                Ev::DoorbellEdge(delta, b) => {
                    let room = i64::from(u32::MAX - sender.backlog);
                    *b = Some((room + i64::from(*delta)).clamp(0, i64::from(u32::MAX)) as u32);
                }
                _ => {}
            }
        }
        c
    }

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        // Whatever the cycle does not use carries noise, which the RTL must not look at: every
        // input of an idle cycle, the fields an event's kind does not use.
        crate::garbage(dut, c.noise);
        dut.set(ports::S_RESET, c.reset as u64);
        if let Some(v) = &c.window {
            dut.set(ports::S_CWND, u64::from(v.cwnd_bytes));
            dut.set(ports::S_BDP_ZERO, (v.achieved_bdp == 0) as u64);
        }
        let Some((id, ev, _)) = &c.event else {
            dut.set(ports::S_VALID, 0);
            return;
        };
        dut.set(ports::S_VALID, 1);
        dut.set(ports::S_CONN, u64::from(*id));
        dut.set(ports::S_KIND, ev.kind_code());
        dut.set(ports::S_NOW, u64::from(c.now));
        match ev {
            Ev::Open(psn) => dut.set(ports::S_OPEN_PSN, u64::from(*psn)),
            Ev::Doorbell(b) | Ev::DoorbellEdge(_, Some(b)) => {
                dut.set(ports::S_DOORBELL_BYTES, u64::from(*b))
            }
            Ev::DoorbellEdge(_, None) => unreachable!("a doorbell's edge is resolved first"),
            Ev::Sack(_, s) => {
                let s = s.as_ref().expect("a SACK is forged before it is driven");
                dut.set(ports::S_SACK_EPSN, u64::from(s.epsn));
                dut.set(ports::S_SACK_BASE, u64::from(s.sack_base));
                dut.set(ports::S_SACK_BITMAP, s.bitmap.first().copied().unwrap_or(0));
                dut.set(ports::S_SACK_BYTES, u64::from(s.bytes_recvd));
                dut.set(ports::S_SACK_OOO, u64::from(s.ooo_count));
                dut.set(ports::S_SACK_TS, u64::from(s.ts));
                dut.set(ports::S_SACK_PROBE, s.probe as u64);
            }
            Ev::Transmit | Ev::Timer(_) => {}
        }
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let ready = self.model.ready();
        let o = &lat.out;
        vec![
            (ports::S_READY, (ready && !self.reset_now.get()) as u64),
            (ports::STATUS_READY, ready as u64),
            (ports::M_VALID, o.valid as u64),
            (ports::M_BAD, o.bad as u64),
            (ports::M_CONN, o.conn),
            (ports::M_OPENED, o.opened as u64),
            (ports::M_OPEN_REFUSED, o.open_refused as u64),
            (ports::M_SACK_ACCEPTED, o.sack_accepted as u64),
            (ports::M_SACK_MALFORMED, o.sack_malformed as u64),
            (ports::M_ACKED_BYTES, o.acked_bytes),
            (ports::M_DOORBELL_OK, o.doorbell_ok as u64),
            (ports::M_DOORBELL_REFUSED, o.doorbell_refused as u64),
            (ports::M_TX_VALID, o.tx_valid as u64),
            (ports::M_TX_PSN, o.tx_psn),
            (ports::M_TX_LEN, o.tx_len),
            (ports::M_TX_KIND, o.tx_kind),
            (ports::M_TX_ACK_REQ, o.tx_ack_req as u64),
            (ports::M_LOSS_VALID, o.loss_valid as u64),
            (ports::M_LOSS_KIND, o.loss_kind),
            (ports::M_WORK, o.work as u64),
        ]
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let cycle = self.cycle;
        self.cycle += 1;
        let ready = self.model.ready();
        match c.event {
            None => cov.hit("no_event"),
            Some(_) if !ready && !c.reset => cov.hit("offered_while_sweeping"),
            Some(_) => {}
        }
        if c.reset {
            cov.hit(if ready { "reset" } else { "reset_during_sweep" });
        }
        let last_id = self.model.connections() - 1;
        if ready
            && !self.was_ready
            && !c.reset
            && c.event
                .as_ref()
                .is_some_and(|(id, ..)| u32::from(*id) == last_id)
        {
            // The sweep writes the last id's record on its last cycle: the first event taken
            // after it must read that write, not the RAM before it.
            cov.hit("last_id_first_after_sweep");
        }
        self.was_ready = ready && !c.reset;
        let before = c
            .event
            .as_ref()
            .and_then(|(id, ..)| self.model.conn(u32::from(*id)).cloned());
        let done = self.model.step(&In {
            reset: c.reset,
            now: c.now,
            event: c
                .event
                .as_ref()
                .map(|(id, ev, v)| (u32::from(*id), ev.to_model(), *v)),
        });
        if let (Some(d), Some((_, ev, v))) = (&done, &c.event) {
            self.cover(cycle, c.now, d, (ev, v), before.as_ref(), cov);
        }
        let out = self.flight.pop_front().flatten();
        self.flight.push_back(done.as_ref().map(regs));
        if c.reset {
            // The events before S3 (taken on the `DROPPED` cycles before) are dropped, and this
            // cycle's offer is not taken; the one in S3 comes out.
            let n = self.flight.len();
            let dropped = n - (DROPPED + 1);
            if self.flight.iter().skip(dropped).any(Option::is_some) {
                cov.hit("reset_drops_events");
            }
            if out.is_some() {
                cov.hit("reset_lets_the_last_stage_finish");
            }
            self.flight.iter_mut().skip(dropped).for_each(|r| *r = None);
            self.last.iter_mut().for_each(|l| *l = None);
        }
        out.unwrap_or_default()
    }
}

impl Block {
    fn cover(
        &mut self,
        cycle: u64,
        now: u32,
        d: &Done,
        (ev, v): (&Ev, &View),
        before: Option<&Sender>,
        cov: &mut Coverage,
    ) {
        if d.bad {
            cov.hit("bad_id");
            if d.conn == self.model.connections() {
                cov.hit("bad_id_first_past_the_end");
            }
            return;
        }
        let b = before.expect("an id in range has a record");
        let after = self.model.conn(d.conn).expect("in range");
        let e = d.effect.as_ref().expect("an id in range has an effect");
        let changed = !same_record(b, after);
        let opened = e.kind == Kind::Opened;
        let slot = &mut self.last[d.conn as usize];
        if let Some(l) = *slot {
            let dist = (cycle - l.cycle) as usize;
            if l.changed {
                match ev {
                    Ev::Sack(..) => cov.hit(SACK_DISTANCE[dist.min(8) - 1]),
                    Ev::Transmit => cov.hit(TRANSMIT_DISTANCE[dist.min(8) - 1]),
                    _ => {}
                }
                if l.open && dist <= 7 {
                    cov.hit(AFTER_OPEN[dist - 1]);
                }
            }
        }
        *slot = Some(Last {
            cycle,
            open: opened,
            changed,
        });
        let doorbell_at = self.last_doorbell[d.conn as usize];
        if e.kind == Kind::Doorbell(true) {
            self.last_doorbell[d.conn as usize] = Some(cycle);
        }
        self.cover_settling(cycle, (ev, e), b, after, cov);
        if matches!(e.kind, Kind::Transmit(Some(ref t)) if t.kind == TxKind::New)
            && b.settled_at(cycle, NIC_SENDER_SETTLE)
            && doorbell_at.is_some_and(|c| cycle - c < NIC_SENDER_SETTLE - 1)
        {
            // The settled head ran on a snapshot without the doorbell's bytes: the tail's
            // backlog is the one that sends.
            cov.hit("settled_new_after_doorbell");
        }

        let (mtu, w) = (self.mtu, self.rx_window);
        match &e.kind {
            Kind::Opened => cov.hit("opened"),
            Kind::OpenRefused => cov.hit("open_refused"),
            Kind::Transmit(None) => {
                cov.hit("tx_none");
                if b.sack.outstanding() != 0 && b.short.is_some() && (1..mtu).contains(&b.backlog) {
                    // Nagle's rule: the rest of the backlog waits for the short packet.
                    cov.hit("short_waits");
                }
            }
            Kind::Transmit(Some(p)) => {
                cov.hit(match p.kind {
                    TxKind::New => "tx_new",
                    TxKind::Retransmit => "tx_retransmit",
                    TxKind::Probe => "tx_probe",
                });
                if p.ack_req {
                    cov.hit("tx_ack_req");
                }
                if p.len < mtu && p.kind == TxKind::New {
                    cov.hit("short_sent");
                }
                if p.len < mtu && p.kind == TxKind::Retransmit {
                    cov.hit("short_retransmit");
                }
                if p.kind == TxKind::New && p.len == mtu && p.ack_req {
                    cov.hit("tx_mtu_empties_backlog");
                }
            }
            Kind::Sack(SackVerdict::Accepted, acked) => {
                cov.hit("sack_accepted");
                if *acked != 0 {
                    cov.hit("sack_acked_bytes");
                }
                if let Ev::Sack(_, Some(s)) = ev {
                    self.cover_sack(s, v, b, after, e.loss, now, cov);
                }
            }
            Kind::Sack(SackVerdict::Malformed, _) => {
                cov.hit("sack_malformed");
                if let Ev::Sack(_, Some(s)) = ev {
                    if s.epsn == psn_add(b.sack.snd_nxt, 1) {
                        cov.hit("sack_epsn_past_nxt_by_1");
                    }
                    if s.bytes_recvd == b.sack.bytes_sent.wrapping_add(1) {
                        cov.hit("sack_bytes_past_sent_by_1");
                    }
                }
            }
            Kind::Doorbell(ok) => {
                cov.hit(if *ok {
                    "doorbell_ok"
                } else {
                    "doorbell_refused"
                });
                let bytes = match ev {
                    Ev::Doorbell(x) | Ev::DoorbellEdge(_, Some(x)) => u64::from(*x),
                    _ => 0,
                };
                match u64::from(b.backlog) + bytes {
                    0xFFFF_FFFF => cov.hit("doorbell_to_max"),
                    0x1_0000_0000 => cov.hit("doorbell_past_max_by_1"),
                    _ => {}
                }
            }
            Kind::Timer => {
                cov.hit("timer");
                if matches!(ev, Ev::Timer(k) if *k >= 5) {
                    cov.hit("timer_kind_5_to_7");
                }
            }
        }
        match e.loss {
            Some(LossKind::Ooo) => cov.hit("loss_ooo"),
            Some(LossKind::Probe) => cov.hit("loss_probe"),
            Some(LossKind::Timeout) => {
                cov.hit("loss_timeout");
                if b.sack.outstanding() == w {
                    cov.hit("timeout_whole_window");
                }
            }
            None => {}
        }
        let p = b.sack.params();
        if b.sack.outstanding() != 0 {
            // The timers' edges: the timeout fires once more than `rto` has passed, a probe is
            // due once `probe_interval` has.
            let since = |t: u32| u64::from(now.wrapping_sub(t));
            match since(b.sack.rto_ts).checked_sub(u64::from(p.rto_ns)) {
                Some(0) => cov.hit("timeout_at_rto"),
                Some(1) => cov.hit("timeout_past_rto_by_1"),
                _ => {}
            }
            if *ev == Ev::Transmit {
                match (since(b.sack.probe_ts) + 1).checked_sub(u64::from(p.probe_interval_ns)) {
                    Some(0) => cov.hit("probe_before_interval_by_1"),
                    Some(1) => cov.hit("probe_at_interval"),
                    _ => {}
                }
            }
        }
        if let Some(s) = after.short {
            if after.sack.lost[(s & (w - 1)) as usize] {
                cov.hit("short_lost");
            }
        }
        if after.sack.inflight_raw() < 0 {
            cov.hit("inflight_negative");
        }
        if *ev == Ev::Transmit
            && matches!(e.kind, Kind::Transmit(None))
            && (b.cut().is_some() || b.sack.lowest_lost().is_some())
            && b.sack.outstanding() < w
            && b.sack.inflight() >= v.cwnd_bytes
        {
            cov.hit("cwnd_stops_data");
        }
        cov.hit(if e.work { "work_1" } else { "work_0" });
        if *ev == Ev::Transmit && b.sack.outstanding() == w {
            cov.hit("rx_window_full");
        }
        if v.cwnd_bytes == 0 && matches!(ev, Ev::Transmit | Ev::Sack(..)) {
            cov.hit("zero_cwnd");
        }
        if !opened && (after.sack.snd_nxt < b.sack.snd_nxt || after.sack.snd_una < b.sack.snd_una) {
            cov.hit("psn_wrap");
        }
        if !opened
            && (after.sack.bytes_sent < b.sack.bytes_sent
                || after.sack.bytes_recvd < b.sack.bytes_recvd)
        {
            // The byte counters (and the running flight with them) across 2^32.
            cov.hit("bytes_wrap");
        }
        if b.sack.outstanding() != 0 && (now < b.sack.rto_ts || now < b.sack.probe_ts) {
            // The time since the timeout's or the probe's start is counted across the clock's
            // wrap.
            cov.hit("now_wrap");
        }
    }
}

impl Block {
    /// DECISION "settled searches": which events were settled, and the rule's own cases.
    fn cover_settling(
        &self,
        cycle: u64,
        (ev, e): (&Ev, &golden_model::nic_sender::Effect),
        b: &Sender,
        after: &Sender,
        cov: &mut Coverage,
    ) {
        if matches!(ev, Ev::Open(..)) {
            return;
        }
        let settled = b.settled_at(cycle, NIC_SENDER_SETTLE);
        cov.hit(match (ev, settled) {
            (Ev::Sack(..), true) => "sack_settled",
            (Ev::Sack(..), false) => "sack_unsettled",
            (Ev::Transmit, true) => "transmit_settled",
            (Ev::Transmit, false) => "transmit_unsettled",
            (_, true) => return,
            (_, false) => "other_unsettled",
        });
        let w = self.rx_window;
        let head_acked = |s: &Sender| {
            s.sack.outstanding() != 0 && s.sack.acked[(s.sack.snd_una & (w - 1)) as usize]
        };
        if settled {
            if head_acked(b) {
                // What an unsettled SACK left: the settled event runs it first.
                cov.hit("settling_run_moves_una");
            }
            return;
        }
        if matches!(e.kind, Kind::Sack(SackVerdict::Accepted, _)) && head_acked(after) {
            cov.hit("unsettled_sack_leaves_the_run");
        }
        if b.lost_view != b.sack.lost_bytes() {
            cov.hit("unsettled_view_stale");
        }
        if *ev == Ev::Transmit
            && matches!(e.kind, Kind::Transmit(None))
            && b.lost_view != 0
            && b.cut().is_some()
        {
            cov.hit("unsettled_view_holds_data");
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn cover_sack(
        &self,
        s: &Sack,
        v: &View,
        b: &Sender,
        after: &Sender,
        loss: Option<LossKind>,
        now: u32,
        cov: &mut Coverage,
    ) {
        let p = b.sack.params();
        if psn_lt(s.epsn, b.sack.snd_una) {
            cov.hit("sack_stale");
        }
        if psn_sub(s.epsn, b.sack.snd_una) == PSN_HALF {
            cov.hit("sack_epsn_half");
        }
        if s.epsn == b.sack.snd_nxt && b.sack.outstanding() != 0 {
            cov.hit("sack_epsn_at_nxt");
        }
        let by_epsn = if psn_lt(s.epsn, b.sack.snd_una) {
            b.sack.snd_una
        } else {
            s.epsn
        };
        if after.sack.snd_una != by_epsn {
            // The segment's bits (or earlier ones) acknowledged the PSNs past the EPSN.
            cov.hit("una_by_segment");
        }
        if b.sack.recovery_hi.is_some() && after.sack.recovery_hi.is_none() {
            cov.hit("recovery_exit");
        }
        let thresh = (v.cwnd_bytes >> p.mtu_log2).max(p.ooo_min_threshold);
        let recovering = b.sack.recovery_hi.is_some();
        if !recovering
            && loss.is_none()
            && s.ooo_count == thresh
            && after.sack.highest_acked.is_some()
        {
            cov.hit("ooo_at_threshold");
        }
        if loss == Some(LossKind::Ooo) && s.ooo_count == thresh.wrapping_add(1) {
            cov.hit("ooo_past_threshold_by_1");
        }
        if s.probe
            && now.wrapping_sub(s.ts) == 2 * p.net_base_rtt_ns
            && !b.sack.ack_since_probe
            && v.achieved_bdp == 0
            && !recovering
            && after.sack.highest_acked.is_some()
        {
            // Everything but the RTT would enter recovery: the RTT's bound is strict.
            cov.hit("probe_rtt_at_limit");
        }
    }
}

// ------------------------------------------------------------------ SACKs

/// A SACK of recipe `f` against connection `s` as it stands, for an event with the window `v`
/// at `now`.
pub fn forge(s: &Sender, f: Forge, v: &View, now: u32) -> Sack {
    let q = &s.sack;
    let p = q.params();
    let sb = p.sack_bits;
    let una = q.snd_una;
    let outs = q.outstanding();
    let mut r = SplitMix64::new(f.roll);
    let seg_mask = if sb >= 64 { u64::MAX } else { (1 << sb) - 1 };
    let align = |psn: u32| psn & !(sb - 1) & PSN_MASK;
    // The OOO detector fires above max(cwnd_packets, ooo_min_threshold).
    let thresh = u64::from((v.cwnd_bytes >> p.mtu_log2).max(p.ooo_min_threshold));
    let w = u64::from(p.rx_window);
    let ooo_near = |r: &mut SplitMix64| -> u32 {
        (match r.below(8) {
            0 => thresh,
            1 => thresh + 1,
            2 => thresh.saturating_sub(1),
            3 => thresh + 1 + r.below(w),
            4 => r.next_u64() & 0xFFFF_FFFF,
            _ => r.below(thresh.min(w) + 1),
        })
        .min(u64::from(u32::MAX)) as u32
    };
    let bits = |r: &mut SplitMix64| -> u64 {
        (match r.below(6) {
            0 => r.next_u64() & r.next_u64(),
            1 => r.next_u64() | r.next_u64(),
            2 => u64::MAX,
            3 => 1 << r.below(u64::from(sb)),
            _ => r.next_u64(),
        }) & seg_mask
    };
    // The bytes received: unchanged, up to those sent (all of them now and then), or behind.
    let span = u64::from(q.bytes_sent.wrapping_sub(q.bytes_recvd));
    let bytes = |r: &mut SplitMix64| -> u32 {
        match r.below(10) {
            0 => q.bytes_recvd,
            1 => q.bytes_sent,
            2 => q.bytes_recvd.wrapping_sub(r.below(5_000) as u32),
            _ => q.bytes_recvd.wrapping_add(r.below(span + 1) as u32),
        }
    };
    let mut k = Sack {
        epsn: psn_add(una, r.below(u64::from(outs) + 1) as u32),
        sack_base: align(psn_sub(
            psn_add(una, r.below(u64::from(outs) + 2 * u64::from(sb)) as u32),
            sb,
        )),
        bitmap: vec![bits(&mut r)],
        bytes_recvd: bytes(&mut r),
        ooo_count: ooo_near(&mut r),
        entropy: r.next_u64() as u32,
        ecn: r.chance(0.5),
        ts: now.wrapping_sub(r.below(1 << 20) as u32),
        probe: r.chance(0.1),
    };
    let above_una = |r: &mut SplitMix64| align(psn_add(una, r.below(u64::from(outs) + 1) as u32));
    match f.kind {
        SackKind::Plausible => {}
        SackKind::Hole | SackKind::HoleOoo => {
            k.epsn = una;
            k.sack_base = above_una(&mut r);
            if f.kind == SackKind::HoleOoo {
                k.ooo_count = (thresh + 1 + r.below(w)).min(u64::from(u32::MAX)) as u32;
                k.probe = false;
            }
        }
        SackKind::ProbeAnswer => {
            let rtt = u64::from(p.net_base_rtt_ns) * 2;
            k.probe = true;
            k.ts = now.wrapping_sub(if r.chance(0.1) {
                rtt as u32
            } else {
                r.below(rtt) as u32
            });
            k.epsn = una;
            k.sack_base = above_una(&mut r);
            k.ooo_count = r.below(thresh + 1) as u32;
        }
        SackKind::Stale => {
            k.epsn = match r.below(4) {
                0 => psn_add(una, PSN_HALF),
                1 => psn_add(una, PSN_HALF + 1),
                _ => psn_sub(una, 1 + r.below(500) as u32),
            };
            if r.chance(0.5) {
                k.sack_base = align(psn_sub(una, r.below(2 * u64::from(sb)) as u32));
            }
        }
        SackKind::FarBase => {
            k.sack_base = align(psn_add(
                una,
                PSN_HALF - sb + r.below(3 * u64::from(sb)) as u32,
            ));
        }
        SackKind::AckAll => {
            k.epsn = q.snd_nxt;
            k.bytes_recvd = q.bytes_sent;
            k.bitmap = vec![0];
            k.ooo_count = 0;
            k.ecn = false;
            k.probe = false;
            k.ts = now.wrapping_sub(p.net_base_rtt_ns);
        }
        SackKind::Malformed => match r.below(6) {
            0 if r.chance(0.5) => k.epsn = psn_add(q.snd_nxt, 1),
            0 => k.epsn = psn_add(q.snd_nxt, 1 + r.below(1000) as u32),
            1 => k.epsn = psn_add(una, PSN_HALF - 1),
            2 => k.sack_base = align(k.sack_base) + 1 + r.below(u64::from(sb) - 1) as u32,
            3 => k.epsn |= 1 << (24 + r.below(8)),
            4 => k.sack_base |= 1 << (24 + r.below(8)),
            _ if r.chance(0.5) => k.bytes_recvd = q.bytes_sent.wrapping_add(1),
            _ => k.bytes_recvd = q.bytes_sent.wrapping_add(1 + r.below(5_000) as u32),
        },
    }
    k
}

// ------------------------------------------------------------------ stimulus

/// What the events of a stretch of stimulus look like.
#[derive(Debug, Clone, Copy)]
struct Mix {
    /// Weights of transmit, SACK, doorbell, timer check and open.
    weights: [u32; 5],
    /// Weights of the SACK kinds (in `SACK_KINDS` order).
    sacks: [u32; 7],
    /// The windows, bytes (inclusive).
    cwnd: (u32, u32),
    bdp_zero: f64,
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

/// The stimulus generator.
struct Gen {
    rng: SplitMix64,
    conns: u32,
    mtu: u32,
    rx_window: u32,
    max_cwnd: u32,
    probe_ns: u32,
    rto_ns: u32,
    /// The time `s_now` shows, ns (wrapping).
    clock: u32,
    /// No pauses of the clock (an episode must not be cut short by a timeout or a probe).
    quiet: bool,
    mix: Mix,
    out: Vec<Cycle>,
}

/// What a cycle offers, its time filled in when it is emitted.
#[derive(Debug, Clone)]
enum Offer {
    Idle,
    /// A random event of the mix on the connection (an id out of range now and then).
    Any(u16),
    /// This event, with the mix's window or this one.
    Ev(u16, Ev, Option<View>),
}

fn pick<T: Copy>(r: &mut SplitMix64, v: &[T]) -> T {
    v[r.below(v.len() as u64) as usize]
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
    fn new_mix(&mut self) {
        let r = &mut self.rng;
        let (mtu, w) = (self.mtu, self.rx_window);
        let cwnd = match r.below(7) {
            0 => (0, mtu - 1),
            1 => (mtu, 4 * mtu),
            2 => (4 * mtu, self.max_cwnd),
            3 => (self.max_cwnd, self.max_cwnd),
            4 => (w * mtu, u32::MAX),
            5 => (0, u32::MAX),
            _ => (mtu, self.max_cwnd),
        };
        self.mix = Mix {
            weights: [
                pick(r, &[30, 50, 70]),
                pick(r, &[10, 25, 40]),
                pick(r, &[5, 15, 30]),
                pick(r, &[2, 10]),
                pick(r, &[0, 1, 3]),
            ],
            sacks: [
                pick(r, &[40, 60]),
                pick(r, &[5, 15, 30]),
                pick(r, &[2, 8]),
                pick(r, &[2, 8]),
                pick(r, &[3, 8]),
                pick(r, &[1, 3]),
                pick(r, &[2, 5, 15]),
            ],
            cwnd,
            bdp_zero: pick(r, &[0.2, 0.5, 0.9]),
        };
    }

    /// The window an event reads: the mix's, 0 or 2^32 - 1 now and then.
    fn view(&mut self) -> View {
        let (lo, hi) = self.mix.cwnd;
        let cwnd = match self.rng.below(100) {
            0..=2 => 0,
            3..=4 => u32::MAX,
            _ => lo + self.rng.below(u64::from(hi - lo) + 1) as u32,
        };
        let achieved_bdp = if self.rng.chance(self.mix.bdp_zero) {
            0
        } else {
            1 + self.rng.below(u64::from(u32::MAX)) as u32
        };
        View {
            cwnd_bytes: cwnd,
            achieved_bdp,
        }
    }

    /// A window every packet fits in (new data is stopped by `rx_window` alone).
    fn wide_view(&mut self) -> View {
        View {
            cwnd_bytes: if self.rng.chance(0.5) {
                u32::MAX
            } else {
                self.rx_window * self.mtu * 2
            },
            achieved_bdp: if self.rng.chance(0.5) {
                0
            } else {
                1 + self.rng.below(1 << 20) as u32
            },
        }
    }

    /// A doorbell's bytes: below, at and above the MTU, many MTUs, huge (the backlog's sum
    /// passes 2^32 - 1 and is refused), or nothing.
    fn doorbell(&mut self) -> u32 {
        let (r, mtu) = (&mut self.rng, self.mtu);
        match r.below(100) {
            0..=29 => 1 + r.below(u64::from(mtu) - 1) as u32,
            30..=39 => mtu,
            40..=74 => mtu + 1 + r.below(8 * u64::from(mtu)) as u32,
            75..=93 => mtu * (1 + r.below(u64::from(self.rx_window)) as u32),
            94..=96 => (1 << 31) + r.below(1 << 31) as u32,
            97..=98 => u32::MAX - r.below(u64::from(mtu)) as u32,
            _ => 0,
        }
    }

    /// An open's PSN: near the wrap, anywhere, or wider than 24 bits (refused).
    fn open_psn(&mut self) -> u32 {
        let r = &mut self.rng;
        match r.below(8) {
            0 => (1 << 24) | r.next_u64() as u32,
            1 => u32::MAX - r.below(4) as u32,
            2..=4 => (1 << 24) - 1 - r.below(64) as u32,
            _ => r.next_u64() as u32 & PSN_MASK,
        }
    }

    fn sack(&mut self, kind: SackKind) -> Ev {
        Ev::Sack(
            Forge {
                kind,
                roll: self.rng.next_u64(),
            },
            None,
        )
    }

    fn timer(&mut self) -> Ev {
        Ev::Timer(if self.rng.chance(0.3) {
            5 + self.rng.below(3) as u8
        } else {
            0
        })
    }

    /// A random event of the mix.
    fn any_event(&mut self) -> Ev {
        match weighted(&mut self.rng, &self.mix.weights) {
            0 => Ev::Transmit,
            1 => {
                let k = SACK_KINDS[weighted(&mut self.rng, &self.mix.sacks)];
                self.sack(k)
            }
            2 => Ev::Doorbell(self.doorbell()),
            3 => self.timer(),
            _ => Ev::Open(self.open_psn()),
        }
    }

    /// An id out of range: the first past the end, the largest, or any.
    fn bad_id(&mut self) -> u16 {
        let n = u64::from(self.conns);
        match self.rng.below(3) {
            0 => self.conns as u16,
            1 => u16::MAX,
            _ => (n + self.rng.below(65_536 - n)) as u16,
        }
    }

    /// The clock's advance before a cycle: a few ns (about 8 on average), now and then a pause,
    /// a silence past the probe interval or the timeout, or a long one of up to 2^31 ns (the
    /// 32-bit clock wraps).
    fn tick(&mut self) {
        let r = self.rng.below(100_000);
        let dt = if self.quiet || r < 98_000 {
            self.rng.below(17)
        } else if r < 99_700 {
            17 + self.rng.below(u64::from(self.probe_ns) / 4)
        } else if r < 99_995 {
            self.rng.below(2 * u64::from(self.rto_ns))
        } else {
            self.rng.below(1 << 31)
        };
        self.clock = self.clock.wrapping_add(dt as u32);
    }

    /// An offer at time `t` (ahead of the clock).
    fn emit_at(&mut self, t: u32, offer: Offer) {
        self.clock = t;
        self.push(false, offer);
    }

    fn push(&mut self, reset: bool, offer: Offer) {
        let event = match offer {
            Offer::Idle => None,
            Offer::Any(k) => {
                let id = if self.conns < 65_536 && self.rng.chance(0.01) {
                    self.bad_id()
                } else {
                    k
                };
                let ev = self.any_event();
                let v = self.view();
                Some((id, ev, v))
            }
            Offer::Ev(k, ev, v) => {
                let v = v.unwrap_or_else(|| self.view());
                Some((k, ev, v))
            }
        };
        let noise = self.rng.next_u64();
        self.out.push(Cycle {
            reset,
            now: self.clock,
            event,
            noise,
            window: None,
        });
    }

    /// A connection's window filled: a doorbell of more than `rx_window` packets, transmits
    /// under a window that never stops them (holes reported among them, nothing advancing
    /// `snd_una`) until `rx_window` PSNs are out and past it; then a hole with an out-of-order
    /// count above the threshold (OOO loss) or a silence past the timeout (the whole window
    /// lost), and the retransmissions.
    fn fill(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(7) as usize;
        let (w, mtu) = (self.rx_window, self.mtu);
        self.quiet = true;
        if self.rng.chance(0.5) {
            // From an empty window.
            let psn = self.open_psn() & PSN_MASK;
            self.emit(false, Offer::Ev(k, Ev::Open(psn), None));
            self.gap(k, d);
        }
        let bytes =
            (w + 4 + self.rng.below(8) as u32) * mtu + self.rng.below(u64::from(mtu)) as u32;
        self.emit(false, Offer::Ev(k, Ev::Doorbell(bytes), None));
        self.gap(k, d);
        let mut sent = 0;
        while sent < w + 4 + self.rng.below(8) as u32 {
            let ev = if self.rng.chance(0.1) {
                self.sack(SackKind::Hole)
            } else {
                sent += 1;
                Ev::Transmit
            };
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, ev, Some(v)));
            self.gap(k, d);
        }
        self.quiet = false;
        let ev = if self.rng.chance(0.6) {
            self.sack(SackKind::HoleOoo)
        } else {
            let rto = self.rto_ns;
            self.clock = self
                .clock
                .wrapping_add(rto + 1 + self.rng.below(u64::from(rto)) as u32);
            self.timer()
        };
        let v = self.view();
        self.emit(false, Offer::Ev(k, ev, Some(v)));
        for _ in 0..2 + self.rng.below(10) {
            self.gap(k, d);
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        }
    }

    /// Packets out on a connection, a silence past the probe interval (not the timeout), a
    /// transmit (the probe), its quick answer with achievedBDP 0 (probe loss, if the answer
    /// acknowledges a PSN past `snd_una`), and the retransmissions.
    fn probe(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(7) as usize;
        let mtu = self.mtu;
        self.quiet = true;
        let bytes = mtu * (2 + self.rng.below(6) as u32) + self.rng.below(u64::from(mtu)) as u32;
        self.emit(false, Offer::Ev(k, Ev::Doorbell(bytes), None));
        for _ in 0..2 + self.rng.below(6) {
            self.gap(k, d);
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        }
        let (p, rto) = (self.probe_ns, self.rto_ns);
        self.clock = self
            .clock
            .wrapping_add(p + self.rng.below((u64::from(rto - p) / 2).max(1)) as u32);
        self.gap(k, d);
        let v = self.wide_view();
        self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        self.gap(k, d);
        let ev = self.sack(SackKind::ProbeAnswer);
        let mut v = self.wide_view();
        if self.rng.chance(0.8) {
            v.achieved_bdp = 0;
        }
        self.emit(false, Offer::Ev(k, ev, Some(v)));
        for _ in 0..1 + self.rng.below(6) {
            self.gap(k, d);
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        }
        self.quiet = false;
    }

    /// Packets out on a connection, a silence past the timeout, then its events (the first
    /// declares every outstanding packet lost).
    fn timeout(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(7) as usize;
        let bytes = self.doorbell();
        self.emit(false, Offer::Ev(k, Ev::Doorbell(bytes), None));
        for _ in 0..1 + self.rng.below(6) {
            self.gap(k, d);
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        }
        let rto = self.rto_ns;
        self.clock = self
            .clock
            .wrapping_add(rto + 1 + self.rng.below(u64::from(rto)) as u32);
        for _ in 0..2 + self.rng.below(6) {
            self.gap(k, d);
            let ev = match self.rng.below(4) {
                0 => self.timer(),
                1 => Ev::Doorbell(self.rng.below(u64::from(self.mtu)) as u32),
                _ => Ev::Transmit,
            };
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, ev, Some(v)));
        }
    }

    /// A connection opened afresh, a doorbell and packets out (the first starts the timeout's
    /// and the probe's clocks at its time `t0`, nothing on the connection moves them after),
    /// then an event exactly at a timer's edge: a transmit at `t0 + probe_interval - 1` (no
    /// probe yet) or `t0 + probe_interval` (the probe), or any event at `t0 + rto` (no
    /// timeout yet) or `t0 + rto + 1` (the timeout); then a few more events.
    fn timer_edge(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(7) as usize;
        let psn = self.rng.next_u64() as u32 & PSN_MASK;
        self.quiet = true;
        self.emit(false, Offer::Ev(k, Ev::Open(psn), None));
        self.gap(k, d);
        let bytes =
            self.mtu * (1 + self.rng.below(8) as u32) + self.rng.below(u64::from(self.mtu)) as u32;
        self.emit(false, Offer::Ev(k, Ev::Doorbell(bytes), None));
        self.gap(k, d);
        let v = self.wide_view();
        self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        let t0 = self.clock;
        for _ in 0..self.rng.below(4) {
            self.gap(k, d);
            let v = self.wide_view();
            self.emit(false, Offer::Ev(k, Ev::Transmit, Some(v)));
        }
        self.gap(k, d);
        let (t, ev) = if self.rng.chance(0.5) {
            let t = t0.wrapping_add(self.probe_ns) - self.rng.below(2) as u32;
            (t, Ev::Transmit)
        } else {
            let t = t0.wrapping_add(self.rto_ns) + self.rng.below(2) as u32;
            (t, self.any_event())
        };
        let v = self.wide_view();
        if t.wrapping_sub(self.clock) < 1 << 31 {
            self.emit_at(t, Offer::Ev(k, ev, Some(v)));
        }
        self.quiet = false;
        for _ in 0..self.rng.below(4) {
            self.gap(k, d);
            self.emit(false, Offer::Any(k));
        }
    }

    /// Huge doorbells on a connection (the backlog's sum passes 2^32 - 1: refused), transmits
    /// and more doorbells, sometimes an open that empties the backlog again.
    fn storm(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(7) as usize;
        for _ in 0..2 + self.rng.below(8) {
            let ev = match self.rng.below(4) {
                0 => Ev::Doorbell(u32::MAX - self.rng.below(1 << 20) as u32),
                1 => Ev::Doorbell((1 << 31) + self.rng.below(1 << 31) as u32),
                2 => Ev::DoorbellEdge(self.rng.below(3) as i8 - 1, None),
                _ => Ev::Transmit,
            };
            self.emit(false, Offer::Ev(k, ev, None));
            self.gap(k, d);
        }
        if self.rng.chance(0.7) {
            let psn = self.rng.next_u64() as u32 & PSN_MASK;
            self.emit(false, Offer::Ev(k, Ev::Open(psn), None));
        }
    }

    /// An event on a connection, an open `d` cycles later, then events on it `d` cycles apart:
    /// the first reads what the open wrote at distance `d`.
    fn open_hot(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(8) as usize;
        self.emit(false, Offer::Any(k));
        self.gap(k, d);
        let psn = self.open_psn();
        self.emit(false, Offer::Ev(k, Ev::Open(psn), None));
        for _ in 0..1 + self.rng.below(8) {
            self.gap(k, d);
            let ev = if self.rng.chance(0.3) {
                Ev::Doorbell(self.doorbell())
            } else {
                self.any_event()
            };
            self.emit(false, Offer::Ev(k, ev, None));
        }
    }
}

impl Traffic for Gen {
    type Offer = Offer;

    fn rng(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }

    fn conns(&self) -> u32 {
        self.conns
    }

    fn emit(&mut self, reset: bool, offer: Offer) {
        self.tick();
        self.push(reset, offer);
    }

    fn any(k: u16) -> Offer {
        Offer::Any(k)
    }

    fn idle() -> Offer {
        Offer::Idle
    }

    /// `d - 1` cycles between two events of connection `k`: idle cycles and other connections'
    /// events.
    fn gap(&mut self, k: u16, d: usize) {
        for _ in 1..d {
            if self.conns == 1 || self.rng.chance(0.4) {
                self.emit(false, Offer::Idle);
            } else {
                let o = self.other(k);
                self.emit(false, Offer::Any(o));
            }
        }
    }

    fn set_clock(&mut self, ns: u32) {
        self.clock = ns;
    }

    fn truncate(&mut self, at: usize) {
        self.out.truncate(at);
    }

    fn emitted(&self) -> usize {
        self.out.len()
    }

    /// One stretch: a pattern, a reset now and then, or a fresh mix.
    fn segment(&mut self) {
        if self.rng.chance(0.3) {
            self.new_mix();
        }
        // Resets: once every few thousand cycles at a few connections; rarer where a sweep is
        // long (1025 cycles at the default config).
        let reset = if self.conns <= 64 { 0.01 } else { 0.004 };
        if self.rng.chance(reset) {
            return self.reset_in_traffic(6);
        }
        let turn = if self.conns <= 64 { 50 } else { 5 };
        let r = self.rng.below(1000);
        match r {
            _ if r < turn => self.turn(),
            _ if r < 450 => self.hot(8),
            _ if r < 650 => self.few(),
            _ if r < 730 => self.fill(),
            _ if r < 830 => self.probe(),
            _ if r < 890 => self.timeout(),
            _ if r < 930 => self.timer_edge(),
            _ if r < 970 => self.open_hot(),
            _ => self.storm(),
        }
    }

    fn after_sweep(&mut self) {
        if self.rng.chance(0.7) {
            self.emit(false, Offer::Any((self.conns - 1) as u16));
        }
    }
}

/// About `len` cycles of stimulus for `cfg`'s connections.
pub fn generate(cfg: &Config, seed: u64, len: usize) -> Vec<Cycle> {
    let mut g = Gen {
        rng: SplitMix64::new(seed),
        conns: cfg.nic.connections,
        mtu: cfg.network.mtu_bytes,
        rx_window: cfg.sack.rx_window,
        max_cwnd: cfg.max_cwnd_bytes(),
        probe_ns: cfg.probe_interval_ns(),
        rto_ns: cfg.sack.rto_ns,
        clock: 0,
        quiet: false,
        mix: Mix {
            weights: [50, 25, 15, 5, 1],
            sacks: [50, 15, 5, 5, 5, 2, 5],
            cwnd: (0, cfg.max_cwnd_bytes()),
            bdp_zero: 0.5,
        },
        out: Vec::with_capacity(len + 10_000),
    };
    g.new_mix();
    g.run(len);
    g.out
}

pub fn stimulus(cfg: Config, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    (any::<u64>(), len).prop_map(move |(seed, len)| generate(&cfg, seed, len))
}
