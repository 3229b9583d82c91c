//! Co-simulation of `nic_entropy`, the send side's entropy bitmaps: the Verilated RTL against
//! `golden_model::nic_entropy::NicEntropy` (one `EntropyBitmap` per connection), every output
//! port on every cycle.
//!
//! Stimulus: the stand-alone bitmap's step mixes (ACKs clean, ECN-marked and malformed, choices
//! over scan ranges from 8 to `max_paths`, ECN-heavy bursts, time steps past the reset
//! interval, the 32-bit clock's wrap) spread over the connections by patterns: one hot
//! connection every `d` cycles (`d` in 1..=10, every forwarding distance and past it), two,
//! three, eight or all connections at random, every connection in turn, a bitmap filled with
//! ECN marks and then chosen from (the "all set" scan), a step at every distance after an open;
//! opens and ids out of range among them, idle cycles, and resets (in traffic and during a
//! sweep), with events offered while the sweep runs.
//!
//! The design is free-running (no output handshake): the harness counts every cycle as an
//! event and keeps the results in flight itself, since a reset drops some of them.

use std::cell::Cell;
use std::collections::VecDeque;

use golden_model::entropy_bitmap::{self as eb, ChooseRequest, EcnFeedback, EntropyBitmap, Source};
use golden_model::nic_entropy::{Done, Event, In, NicEntropy};
use golden_model::rng::SplitMix64;
use proptest::prelude::*;
use strack_config::Config;

use crate::designs::ports::nic_entropy as ports;
use crate::traffic::Traffic;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// Cycles from an event's offer to its result on `m_*`.
pub const LATENCY: usize = crate::designs::NicEntropySmall::LATENCY as usize;

/// Events a reset drops: those in S1, S2 and the hold stages H1..H3, taken on the 5 cycles
/// before it; the one in S3 completes (O1 and the output register follow it), as in `nic_rx`.
const DROPPED: usize = 5;

/// `m_source` of each way a choice is made.
pub fn source_code(s: Source) -> u64 {
    match s {
        Source::NextPath => 0,
        Source::Scan => 1,
        Source::AllSet => 2,
    }
}

/// What one cycle offers on connection `.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    /// A fresh bitmap. `now` is the clock's real time, driven on `s_now` all the same: a fresh
    /// record's last reset is 0, not the open's time.
    Open { now: u32 },
    /// One step of the connection's bitmap: `ack` is `(entropy as on the wire, ECN)`, `choose`
    /// the window in packets.
    Step {
        now: u32,
        ack: Option<(u16, bool)>,
        choose: Option<u32>,
    },
}

impl Ev {
    /// The time the event carries (an open's too: it is driven on `s_now`).
    pub fn now(self) -> u32 {
        match self {
            Ev::Open { now } | Ev::Step { now, .. } => now,
        }
    }

    fn to_model(self) -> Event {
        match self {
            Ev::Open { .. } => Event::Open,
            Ev::Step { now, ack, choose } => Event::Step(eb::In {
                now,
                ack: ack.map(|(e, ecn)| EcnFeedback {
                    entropy: u32::from(e),
                    ecn,
                }),
                choose: choose.map(|cwnd_packets| ChooseRequest { cwnd_packets }),
            }),
        }
    }
}

/// One clock cycle's inputs. The harness's own clock is not used (it stays at its start):
/// each event carries its time, as the model takes it from the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    pub reset: bool,
    pub event: Option<(u16, Ev)>,
    /// What the inputs the cycle does not use carry.
    pub noise: u64,
}

/// A step `d` cycles after its connection's last event, when that event changed the record
/// (1..=7, then 8 or more): the hold shell's forwarding distances (1 to 7; at 7 the write
/// shares the read's edge) and, past them, the RAM's own answer.
const DISTANCE: [&str; 8] = [
    "distance_1",
    "distance_2",
    "distance_3",
    "distance_4",
    "distance_5",
    "distance_6",
    "distance_7",
    "distance_8_or_more",
];

/// A step `d` cycles after an open of its connection, nothing between on it (1..=7).
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
    DISTANCE[0],
    DISTANCE[1],
    DISTANCE[2],
    DISTANCE[3],
    DISTANCE[4],
    DISTANCE[5],
    DISTANCE[6],
    DISTANCE[7],
    AFTER_OPEN[0],
    AFTER_OPEN[1],
    AFTER_OPEN[2],
    AFTER_OPEN[3],
    AFTER_OPEN[4],
    AFTER_OPEN[5],
    AFTER_OPEN[6],
    "choose_next_path",
    "choose_scan",
    "choose_all_set",
    "scan_cleared",
    "paths_min_8",
    "paths_between",
    "paths_max",
    "periodic_reset",
    "ack_ecn",
    "ack_clean",
    "ack_malformed",
    "ack_and_choose",
    "opened",
    "bad_id",
    "bad_id_first_past_the_end",
    "no_event",
    "offered_while_sweeping",
    "reset_drops_events",
    "reset_lets_the_last_stage_finish",
    "reset_during_sweep",
    "last_id_first_after_sweep",
    "now_wrap",
    "after_wrap_clear_1",
    "reset_after_reset_1_to_3",
];

/// One event's result on the output ports (all 0 when `valid` is not set).
#[derive(Debug, Clone, Default)]
pub struct Regs {
    valid: bool,
    bad: bool,
    conn: u64,
    opened: bool,
    choice_valid: bool,
    entropy: u64,
    source: u64,
    cleared_valid: bool,
    cleared: u64,
    paths: u64,
    reset: bool,
    ack_ignored: bool,
}

fn regs(d: &Done) -> Regs {
    let mut r = Regs {
        valid: true,
        bad: d.bad,
        conn: u64::from(d.conn),
        opened: d.opened,
        ..Regs::default()
    };
    let Some(o) = d.out else {
        return r;
    };
    r.reset = o.reset;
    r.ack_ignored = o.ack_ignored;
    if let Some(c) = o.choice {
        r.choice_valid = true;
        r.entropy = u64::from(c.entropy);
        r.source = source_code(c.source);
        if let Some(b) = c.cleared {
            r.cleared_valid = true;
            r.cleared = u64::from(b);
        }
        r.paths = u64::from(c.paths.unwrap_or(0));
    }
    r
}

/// The last event taken on a connection since the last reset.
#[derive(Debug, Clone, Copy)]
struct Last {
    cycle: u64,
    open: bool,
    /// Its scan cleared bit 0 (its start, wrapped): the loop's bit-0 variant serves the
    /// event right behind it.
    cleared0: bool,
    /// Its periodic reset fired: the next event's reset compares against its time.
    reset: bool,
    /// It changed the record: only then does the distance to the next event test the
    /// forwarding (a stale read would find the same record).
    changed: bool,
}

/// The model's side.
pub struct Block {
    pub model: NicEntropy,
    /// Results of the events taken on the last `LATENCY - 1` cycles, oldest first.
    flight: VecDeque<Option<Regs>>,
    /// Malformed ACKs among the events that have reached `m_*` since the last reset (a reset
    /// clears it at its edge, the event reaching `m_*` at that edge included).
    bad_entropy: u64,
    last: Vec<Option<Last>>,
    cycle: u64,
    /// The store was ready on the cycle before (the first ready cycle is the sweep's edge).
    was_ready: bool,
    max_paths: u32,
    interval: u32,
    /// This cycle's `s_reset`, for `s_ready` (`expected` runs before `fire`).
    reset_now: Cell<bool>,
}

impl Block {
    pub fn new(cfg: &Config) -> Self {
        let p = eb::Params::from_config(cfg);
        Block {
            model: NicEntropy::new(cfg),
            flight: (1..LATENCY).map(|_| None).collect(),
            bad_entropy: 0,
            last: vec![None; cfg.nic.connections as usize],
            cycle: 0,
            was_ready: false,
            max_paths: p.max_paths,
            interval: p.reset_interval_ns,
            reset_now: Cell::new(false),
        }
    }
}

/// Two bitmaps hold the same record (the malformed-ACK count is the model's, not the record's:
/// the RTL counts them for all connections at once).
fn same_record(a: &EntropyBitmap, b: &EntropyBitmap) -> bool {
    a.bitmap == b.bitmap
        && a.rr == b.rr
        && a.next_path == b.next_path
        && a.last_reset_ts == b.last_reset_ts
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

    fn coverage_points(&self) -> Vec<&'static str> {
        let conns = self.model.connections();
        COVERAGE_POINTS
            .iter()
            .copied()
            // At 65536 connections every 16-bit id is in range.
            .filter(|p| conns < 65_536 || !p.starts_with("bad_id"))
            .filter(|p| self.interval != 0 || *p != "periodic_reset")
            // With 8 paths the scan range is always 8: none between.
            .filter(|p| self.max_paths > 8 || *p != "paths_between")
            // The clock's wrap is required at a few connections, where every connection has
            // reset before the wrap; at 1024 the stimulus reaches it in most runs, not all
            // (it missed once in CI), and the logic it checks does not depend on the count.
            .filter(|p| conns <= 64 || *p != "now_wrap")
            .collect()
    }

    fn resolve(&self, _now: u32, c: &Cycle) -> Cycle {
        self.reset_now.set(c.reset);
        *c
    }

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        let n = c.noise;
        dut.set(ports::S_RESET, c.reset as u64);
        // Whatever the cycle does not use carries noise, which the RTL must not look at: every
        // input of an idle cycle, an open's step fields, a step's absent ACK or choice.
        let mut now = n.rotate_left(41) & 0xFFFF_FFFF;
        let mut ack = (n >> 17 & 1, n >> 18 & 0xFFFF, n >> 34 & 1);
        let mut choose = (n >> 35 & 1, n.rotate_left(23) & 0xFFFF_FFFF);
        let (valid, conn, open) = match c.event {
            None => (0, n & 0xFFFF, n >> 16 & 1),
            Some((id, ev)) => {
                now = u64::from(ev.now());
                (1, u64::from(id), matches!(ev, Ev::Open { .. }) as u64)
            }
        };
        if let Some((
            _,
            Ev::Step {
                ack: a, choose: ch, ..
            },
        )) = c.event
        {
            ack.0 = 0;
            if let Some((e, ecn)) = a {
                ack = (1, u64::from(e), ecn as u64);
            }
            choose.0 = 0;
            if let Some(cw) = ch {
                choose = (1, u64::from(cw));
            }
        }
        dut.set(ports::S_VALID, valid);
        dut.set(ports::S_CONN, conn);
        dut.set(ports::S_OPEN, open);
        dut.set(ports::S_NOW, now);
        dut.set(ports::S_ACK_VALID, ack.0);
        dut.set(ports::S_ACK_ENTROPY, ack.1);
        dut.set(ports::S_ACK_ECN, ack.2);
        dut.set(ports::S_CHOOSE_VALID, choose.0);
        dut.set(ports::S_CWND_PACKETS, choose.1);
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let ready = self.model.ready();
        let o = &lat.out;
        vec![
            (ports::S_READY, (ready && !self.reset_now.get()) as u64),
            (ports::M_VALID, o.valid as u64),
            (ports::M_BAD, o.bad as u64),
            (ports::M_CONN, o.conn),
            (ports::M_OPENED, o.opened as u64),
            (ports::M_CHOICE_VALID, o.choice_valid as u64),
            (ports::M_ENTROPY, o.entropy),
            (ports::M_SOURCE, o.source),
            (ports::M_CLEARED_VALID, o.cleared_valid as u64),
            (ports::M_CLEARED, o.cleared),
            (ports::M_PATHS, o.paths),
            (ports::M_RESET, o.reset as u64),
            (ports::M_ACK_IGNORED, o.ack_ignored as u64),
            (
                ports::STATUS_BAD_ENTROPY_COUNT,
                self.bad_entropy & 0xFFFF_FFFF,
            ),
            (ports::STATUS_READY, ready as u64),
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
        if c.reset && !ready {
            cov.hit("reset_during_sweep");
        }
        let last_id = self.model.connections() - 1;
        if ready
            && !self.was_ready
            && !c.reset
            && c.event.is_some_and(|(id, _)| u32::from(id) == last_id)
        {
            // The sweep writes the last id's record on its last cycle: the first event taken
            // after it must read that write, not the RAM before it.
            cov.hit("last_id_first_after_sweep");
        }
        self.was_ready = ready && !c.reset;
        let before = c
            .event
            .and_then(|(id, _)| self.model.conn(u32::from(id)).cloned());
        let done = self.model.step(&In {
            reset: c.reset,
            event: c.event.map(|(id, ev)| (u32::from(id), ev.to_model())),
        });
        if let (Some(d), Some((_, ev))) = (&done, c.event) {
            self.cover(cycle, d, ev, before.as_ref(), cov);
        }
        let out = self.flight.pop_front().flatten();
        self.flight.push_back(done.as_ref().map(regs));
        if let Some(r) = &out {
            self.bad_entropy += r.ack_ignored as u64;
        }
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
            self.bad_entropy = 0;
            self.last.iter_mut().for_each(|l| *l = None);
        }
        out.unwrap_or_default()
    }
}

impl Block {
    fn cover(
        &mut self,
        cycle: u64,
        d: &Done,
        ev: Ev,
        before: Option<&EntropyBitmap>,
        cov: &mut Coverage,
    ) {
        if d.bad {
            cov.hit("bad_id");
            if d.conn == self.model.connections() {
                cov.hit("bad_id_first_past_the_end");
            }
            return;
        }
        let after = self.model.conn(d.conn).expect("in range");
        let changed = before.is_none_or(|b| !same_record(b, after));
        let slot = &mut self.last[d.conn as usize];
        if d.opened {
            cov.hit("opened");
        } else if let Some(l) = *slot {
            let dist = (cycle - l.cycle) as usize;
            if l.changed {
                cov.hit(DISTANCE[dist.min(8) - 1]);
                if l.open && dist <= 7 {
                    cov.hit(AFTER_OPEN[dist - 1]);
                }
            }
            if l.cleared0 && dist == 1 {
                cov.hit("after_wrap_clear_1");
            }
            if l.reset && dist <= 3 && d.out.is_some_and(|o| o.reset) {
                cov.hit("reset_after_reset_1_to_3");
            }
        }
        *slot = Some(Last {
            cycle,
            open: d.opened,
            cleared0: d
                .out
                .and_then(|o| o.choice)
                .is_some_and(|c| c.cleared == Some(0)),
            reset: d.out.is_some_and(|o| o.reset),
            changed,
        });
        let (Ev::Step { now, ack, choose }, Some(o)) = (ev, d.out) else {
            return;
        };
        if before.is_some_and(|b| now < b.last_reset_ts) {
            // The time since the last periodic reset is counted across the clock's wrap.
            cov.hit("now_wrap");
        }
        if o.reset {
            cov.hit("periodic_reset");
        }
        if let Some((_, ecn)) = ack {
            cov.hit(if o.ack_ignored {
                "ack_malformed"
            } else if ecn {
                "ack_ecn"
            } else {
                "ack_clean"
            });
            if choose.is_some() && !o.ack_ignored {
                cov.hit("ack_and_choose");
            }
        }
        if let Some(ch) = o.choice {
            cov.hit(match ch.source {
                Source::NextPath => "choose_next_path",
                Source::Scan => "choose_scan",
                Source::AllSet => "choose_all_set",
            });
            if ch.source == Source::Scan && ch.cleared.is_some() {
                cov.hit("scan_cleared");
            }
            if let Some(p) = ch.paths {
                cov.hit(if p == 8 {
                    "paths_min_8"
                } else if p == self.max_paths {
                    "paths_max"
                } else {
                    "paths_between"
                });
            }
        }
    }
}

// ------------------------------------------------------------------ stimulus

/// What the steps of a stretch of stimulus look like: the stand-alone bitmap's mixes.
#[derive(Debug, Clone, Copy)]
struct Mix {
    ack: f64,
    ecn: f64,
    choose: f64,
    malformed: f64,
    /// The windows of the chooses, in packets (inclusive).
    cwnd: (u32, u32),
    /// ACKs' entropies mostly below this: the scan range of those windows, where a mark
    /// changes what the scan picks.
    span: u32,
}

/// The stimulus generator.
struct Gen {
    rng: SplitMix64,
    conns: u32,
    max_paths: u32,
    interval: u32,
    /// The time `s_now` shows, ns (wrapping).
    clock: u32,
    /// No pauses of the clock (a fill must land inside one reset interval).
    quiet: bool,
    mix: Mix,
    out: Vec<Cycle>,
}

/// What a cycle offers, its time filled in when it is emitted.
#[derive(Debug, Clone, Copy)]
enum Offer {
    Idle,
    /// A random event on the connection (the mix's step; an open or an id out of range now
    /// and then).
    Any(u16),
    Open(u16),
    Step(u16, Option<(u16, bool)>, Option<u32>),
}

impl Gen {
    /// `max(8, min(max_paths, 2 * cwnd_packets))`, as the model computes it.
    fn paths(&self, cwnd: u32) -> u32 {
        (u64::from(cwnd) * 2).min(u64::from(self.max_paths)).max(8) as u32
    }

    /// A window regime: the scan range at 8, between 8 and `max_paths`, at `max_paths`, or any
    /// 32-bit window (mostly the last).
    fn cwnd_regime(&mut self) -> (u32, u32) {
        let mp = self.max_paths;
        match self.rng.below(5) {
            0 => (0, 4),
            1 => (5, (mp / 2).max(6) - 1),
            2 => (mp / 2, mp * 2),
            3 => (0, mp),
            _ => (0, u32::MAX),
        }
    }

    fn new_mix(&mut self) {
        let pick = |g: &mut Gen, v: &[f64]| v[g.rng.below(v.len() as u64) as usize];
        let cwnd = self.cwnd_regime();
        let span = self.paths(cwnd.1);
        self.mix = Mix {
            ack: pick(self, &[0.2, 0.5, 0.8, 0.95]),
            // ECN-heavy mixes fill the scan range faster than the scans clear it.
            ecn: pick(self, &[0.05, 0.3, 0.6, 0.9, 1.0]),
            choose: pick(self, &[0.2, 0.5, 0.8, 1.0]),
            malformed: pick(self, &[0.0, 0.02, 0.1]),
            cwnd,
            span,
        };
    }

    fn cwnd(&mut self) -> u32 {
        let (lo, hi) = self.mix.cwnd;
        match self.rng.below(50) {
            0 => 0,
            1 => u32::MAX,
            _ => lo + (self.rng.below(u64::from(hi - lo) + 1) as u32),
        }
    }

    /// An ACK's entropy as on the wire: mostly in the mix's scan range, sometimes anywhere in
    /// range or at its edges, and malformed at the mix's rate (the first past the end, the
    /// largest, or any).
    fn entropy(&mut self) -> u16 {
        let mp = self.max_paths;
        if self.rng.chance(self.mix.malformed) {
            return match self.rng.below(3) {
                0 => mp as u16,
                1 => u16::MAX,
                _ => (u64::from(mp) + self.rng.below(65_536 - u64::from(mp))) as u16,
            };
        }
        (match self.rng.below(20) {
            0 => mp - 1,
            1 => 0,
            2 | 3 => self.rng.below(u64::from(mp)) as u32,
            _ => self.rng.below(u64::from(self.mix.span)) as u32,
        }) as u16
    }

    fn step_fields(&mut self) -> (Option<(u16, bool)>, Option<u32>) {
        let ack = self.rng.chance(self.mix.ack).then(|| {
            let e = self.entropy();
            (e, self.rng.chance(self.mix.ecn))
        });
        let choose = self.rng.chance(self.mix.choose).then(|| self.cwnd());
        (ack, choose)
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

    /// The clock's advance before a cycle: about 8 ns (125 MHz), jittered so the time is no
    /// multiple of anything; now and then a pause, a quiet stretch of up to three reset
    /// intervals (every bitmap due for its periodic reset; one cycle in 200, so that a hot
    /// connection resets again one to three cycles after a reset), or a long silence of up to
    /// 2^31 ns (the 32-bit clock wraps).
    fn tick(&mut self) {
        let r = self.rng.below(100_000);
        let dt = if self.quiet || r < 98_000 {
            self.rng.below(17)
        } else if r < 99_500 {
            17 + self.rng.below(1_000)
        } else if r < 99_999 {
            self.rng.below(3 * u64::from(self.interval) + 1)
        } else {
            self.rng.below(1 << 31)
        };
        self.clock = self.clock.wrapping_add(dt as u32);
    }

    /// One connection's scan range ECN-marked entropy by entropy (in order or at random, other
    /// connections' events between), then choices over it: the first finds every bit set, the
    /// next the bit it cleared. A quiet stretch first, so the first mark's step makes the
    /// periodic reset and the rest land inside one interval.
    fn fill(&mut self) {
        let k = self.conn();
        let cwnd = match self.rng.below(3) {
            0 => self.rng.below(5) as u32,
            1 => self.rng.below(u64::from(self.max_paths)) as u32,
            _ => self.max_paths,
        };
        let p = self.paths(cwnd);
        let d = 1 + self.rng.below(3) as usize;
        if u64::from(p) * d as u64 * 16 >= u64::from(self.interval) && self.interval != 0 {
            // It would not land inside one reset interval: an ordinary stretch instead.
            return self.hot(10);
        }
        self.clock = self
            .clock
            .wrapping_add(self.interval)
            .wrapping_add(self.rng.below(u64::from(self.interval) + 1) as u32);
        self.quiet = true;
        let mut order: Vec<u32> = (0..p).collect();
        if self.rng.chance(0.5) {
            for i in (1..order.len()).rev() {
                let j = self.rng.below(i as u64 + 1) as usize;
                order.swap(i, j);
            }
        }
        for e in order {
            self.emit(false, Offer::Step(k, Some((e as u16, true)), None));
            self.gap(k, d);
        }
        for _ in 0..2 + self.rng.below(5) {
            // Now and then an ECN mark with the choice, which the choice must see.
            let ack = self
                .rng
                .chance(0.2)
                .then(|| (self.rng.below(u64::from(p)) as u16, true));
            self.emit(false, Offer::Step(k, ack, Some(cwnd)));
            self.gap(k, d);
        }
        self.quiet = false;
    }

    /// A step on a connection, an open `d` cycles later, then steps on it `d` cycles apart:
    /// the first reads what the open wrote at distance `d`.
    fn open_hot(&mut self) {
        let k = self.conn();
        let d = 1 + self.rng.below(7) as usize;
        let cw = self.cwnd();
        self.emit(false, Offer::Step(k, None, Some(cw)));
        self.gap(k, d);
        self.emit(false, Offer::Open(k));
        for _ in 0..1 + self.rng.below(6) {
            self.gap(k, d);
            self.emit(false, Offer::Any(k));
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
        let now = self.clock;
        let event = match offer {
            Offer::Idle => None,
            Offer::Any(k) => {
                let id = if self.conns < 65_536 && self.rng.chance(0.01) {
                    self.bad_id()
                } else {
                    k
                };
                if self.rng.chance(0.01) {
                    Some((id, Ev::Open { now }))
                } else {
                    let (ack, choose) = self.step_fields();
                    Some((id, Ev::Step { now, ack, choose }))
                }
            }
            Offer::Open(k) => Some((k, Ev::Open { now })),
            Offer::Step(k, ack, choose) => Some((k, Ev::Step { now, ack, choose })),
        };
        let noise = self.rng.next_u64();
        self.out.push(Cycle {
            reset,
            event,
            noise,
        });
    }

    fn any(k: u16) -> Offer {
        Offer::Any(k)
    }

    fn idle() -> Offer {
        Offer::Idle
    }

    /// `d - 1` cycles between two events of connection `k`: idle cycles, other connections'
    /// events, opens of other connections.
    fn gap(&mut self, k: u16, d: usize) {
        for _ in 1..d {
            if self.conns == 1 {
                // No other connection: only idle cycles keep `k`'s events apart.
                self.emit(false, Offer::Idle);
                continue;
            }
            match self.rng.below(80) {
                0..=35 => self.emit(false, Offer::Idle),
                36..=78 => {
                    let o = self.other(k);
                    self.emit(false, Offer::Any(o));
                }
                _ => {
                    let o = self.other(k);
                    self.emit(false, Offer::Open(o));
                }
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
        let reset = if self.conns <= 64 { 0.015 } else { 0.006 };
        if self.rng.chance(reset) {
            return self.reset_in_traffic(8);
        }
        let turn = if self.conns <= 64 { 60 } else { 6 };
        let r = self.rng.below(1000);
        match r {
            _ if r < turn => self.turn(),
            _ if r < 520 => self.hot(10),
            _ if r < 800 => self.few(),
            _ if r < 950 => self.fill(),
            _ => self.open_hot(),
        }
    }

    fn after_sweep(&mut self) {
        if self.rng.chance(0.7) {
            let (ack, choose) = self.step_fields();
            self.emit(false, Offer::Step((self.conns - 1) as u16, ack, choose));
        }
    }
}

/// About `len` cycles of stimulus for `cfg`'s connections.
pub fn generate(cfg: &Config, seed: u64, len: usize) -> Vec<Cycle> {
    let p = eb::Params::from_config(cfg);
    let mut g = Gen {
        rng: SplitMix64::new(seed),
        conns: cfg.nic.connections,
        max_paths: p.max_paths,
        interval: p.reset_interval_ns,
        clock: 0,
        quiet: false,
        mix: Mix {
            ack: 0.5,
            ecn: 0.5,
            choose: 0.5,
            malformed: 0.02,
            cwnd: (0, p.max_paths),
            span: p.max_paths,
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
