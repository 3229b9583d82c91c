//! Co-simulation of `context_pipe`, the NIC's context shell, through its check design: the
//! same id at every distance from 1 to past the forwarding depth, random ids (in range and
//! out), idle cycles, resets in traffic and during a sweep, events offered while not ready.
//!
//! The design is free-running (no handshake), so every cycle is an event for the harness: the
//! model steps on each, and keeps the results of the last `latency - 1` cycles itself because a
//! reset drops them (the harness's delay line would not).

use std::collections::{HashMap, VecDeque};

use golden_model::context_pipe::{check_next, ContextStore, Taken};
use proptest::prelude::*;
use strack_config::Config;

use crate::designs::ports::context_pipe as ports;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// Cycles between an event's offer and its result on `m_*` (every context_pipe design has the
/// same).
pub const LATENCY: usize = crate::designs::ContextPipeSmall::LATENCY as usize;

/// The check design's initial record (`hdl::context_pipe::CHECK_INIT`; the co-sim proves the
/// two agree).
pub const INIT: u32 = 0x5EED_0001;

/// One clock cycle's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub reset: bool,
    /// `(id, data)` offered.
    pub event: Option<(u16, u16)>,
    /// What the data inputs carry when nothing is offered.
    pub noise: u32,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "distance_1",
    "distance_2",
    "distance_3",
    "distance_4",
    "distance_5",
    "distance_6_or_more",
    "first_after_sweep",
    "bad_id",
    "no_event",
    "offered_while_sweeping",
    "offered_on_reset",
    "reset_drops_events",
    "reset_lets_the_last_stage_finish",
    "reset_during_sweep",
    "last_id_on_the_first_ready_cycle",
];

/// The result of one cycle on the output ports.
#[derive(Debug, Clone, Default)]
pub struct Regs {
    valid: bool,
    bad: bool,
    id: u16,
    data: u16,
    before: u32,
    after: u32,
}

/// The model's side.
pub struct Block {
    pub model: ContextStore<u32>,
    /// Results of the events taken on the last `LATENCY - 1` cycles, oldest first.
    flight: VecDeque<Option<Regs>>,
    /// Cycle of the last taken event on each id since the last reset.
    last: HashMap<u16, u64>,
    cycle: u64,
    /// The store was ready on the cycle before.
    was_ready: bool,
}

impl Block {
    pub fn new(cfg: &Config) -> Self {
        Block {
            model: ContextStore::new(cfg.nic.connections, INIT),
            flight: (1..LATENCY).map(|_| None).collect(),
            last: HashMap::new(),
            cycle: 0,
            was_ready: false,
        }
    }
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

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        dut.set(ports::S_RESET, c.reset as u64);
        let (valid, (id, data)) = match c.event {
            Some(e) => (1, e),
            None => (0, (c.noise as u16, (c.noise >> 16) as u16)),
        };
        dut.set(ports::S_VALID, valid);
        dut.set(ports::S_ID, id as u64);
        dut.set(ports::S_DATA, data as u64);
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let o = &lat.out;
        vec![
            (ports::M_VALID, o.valid as u64),
            (ports::M_BAD, o.bad as u64),
            (ports::M_ID, o.id as u64),
            (ports::M_DATA, o.data as u64),
            (ports::M_BEFORE, o.before as u64),
            (ports::M_AFTER, o.after as u64),
            (ports::STATUS_READY, self.model.ready() as u64),
        ]
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let now = self.cycle;
        self.cycle += 1;
        let ready = self.model.ready();
        match (c.event, c.reset, ready) {
            (None, _, _) => cov.hit("no_event"),
            (Some(_), true, _) => cov.hit("offered_on_reset"),
            (Some(_), false, false) => cov.hit("offered_while_sweeping"),
            (Some((id, _)), false, true) if u32::from(id) >= self.model.ids() => cov.hit("bad_id"),
            (Some((id, _)), false, true) => match self.last.insert(id, now) {
                None => cov.hit("first_after_sweep"),
                Some(at) => cov.hit(match now - at {
                    1 => "distance_1",
                    2 => "distance_2",
                    3 => "distance_3",
                    4 => "distance_4",
                    5 => "distance_5",
                    _ => "distance_6_or_more",
                }),
            },
        }
        if c.reset && !ready {
            cov.hit("reset_during_sweep");
        }
        // The sweep's last write lands on the cycle before the first event can be read: an
        // event on that id then is the one a shell ready a cycle early would get wrong.
        if let (Some((id, _)), false, true, false) = (c.event, c.reset, ready, self.was_ready) {
            if u32::from(id) + 1 == self.model.ids() {
                cov.hit("last_id_on_the_first_ready_cycle");
            }
        }
        self.was_ready = ready;
        let f = |id: u16, data: u16| move |r: &u32| check_next(u32::from(id), data, *r);
        let taken = match c.event {
            Some((id, data)) => self
                .model
                .step(c.reset, Some((u32::from(id), &f(id, data)))),
            None => self.model.step(c.reset, None),
        };
        let result = match (taken, c.event) {
            (Taken::No, _) | (_, None) => None,
            (Taken::Bad, Some((id, data))) => Some(Regs {
                valid: true,
                bad: true,
                id,
                data,
                ..Regs::default()
            }),
            (Taken::Applied { before, after }, Some((id, data))) => Some(Regs {
                valid: true,
                bad: false,
                id,
                data,
                before,
                after,
            }),
        };
        // The oldest in flight reaches the output register on this edge; a reset drops the rest.
        let out = self.flight.pop_front().flatten();
        self.flight.push_back(result);
        if c.reset {
            if self.flight.iter().any(Option::is_some) {
                cov.hit("reset_drops_events");
            }
            if out.is_some() {
                cov.hit("reset_lets_the_last_stage_finish");
            }
            self.flight.iter_mut().for_each(|r| *r = None);
            self.last.clear();
        }
        out.unwrap_or_default()
    }
}

/// Random stimulus of about `len` cycles for `ids` ids.
pub fn stimulus(cfg: &Config, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    let ids = cfg.nic.connections;
    let n = (len.start / 40).max(1)..(len.end / 40).max(2);
    prop::collection::vec(segment(ids), n).prop_map(|v| v.into_iter().flatten().collect())
}

/// An id: mostly in range, sometimes just past it or at the top of the port.
fn any_id(ids: u32) -> impl Strategy<Value = u16> {
    let top = (ids - 1).min(0xFFFF) as u16;
    prop_oneof![
        30 => 0..=top,
        1 => Just(top.saturating_add(1)),
        1 => Just(u16::MAX),
    ]
}

fn event(id: impl Strategy<Value = u16>) -> impl Strategy<Value = Option<(u16, u16)>> {
    (id, any::<u16>()).prop_map(Some)
}

/// One stretch of traffic: a hot id at a fixed distance, mixed ids with idle cycles, the whole
/// id range in turn, or a reset (rare at large id counts, where a sweep takes `ids + 1` cycles).
fn segment(ids: u32) -> impl Strategy<Value = Vec<Cycle>> {
    let plain = |e: BoxedStrategy<Option<(u16, u16)>>| {
        (e, any::<u32>())
            .prop_map(|(event, noise)| Cycle {
                reset: false,
                event,
                noise,
            })
            .boxed()
    };
    // The hot id every `d` cycles, the cycles between carrying other ids or nothing.
    let top = (ids - 1).min(0xFFFF) as u16;
    let hot = (0..=top, 1usize..=7, 2usize..12).prop_flat_map(move |(hot, d, reps)| {
        let other = prop_oneof![3 => event(any_id(ids)), 1 => Just(None)].boxed();
        prop::collection::vec(plain(other), d * reps).prop_map(move |mut v| {
            for c in v.iter_mut().step_by(d) {
                c.event = Some((hot, c.noise as u16));
            }
            v
        })
    });
    let mixed = prop::collection::vec(
        plain(prop_oneof![4 => event(any_id(ids)), 1 => Just(None)].boxed()),
        10..80,
    );
    // Every id in turn (the records the sweep wrote, read at least once).
    let all = (any::<u16>(), 0..4u16).prop_map(move |(data, step)| {
        (0..ids.min(4096))
            .map(|i| Cycle {
                reset: false,
                event: Some((i as u16, data.wrapping_add(i as u16 * step))),
                noise: 0,
            })
            .collect::<Vec<_>>()
    });
    // A reset, and half the time a second one before the sweep it started is over; then the
    // last id offered on the first cycle the sweep lets it in.
    let reset = (
        any::<u32>(),
        prop::bool::ANY,
        prop::option::of(0..ids as usize),
    )
        .prop_map(move |(noise, offer, again)| {
            let reset = Cycle {
                reset: true,
                event: offer.then_some((noise as u16, (noise >> 16) as u16)),
                noise,
            };
            let mut v = vec![reset.clone()];
            if let Some(gap) = again {
                v.extend((0..gap).map(|_| Cycle {
                    reset: false,
                    event: offer.then_some((noise as u16, 0)),
                    noise,
                }));
                v.push(reset);
            }
            v.extend((0..=ids).map(|_| Cycle {
                reset: false,
                event: offer.then_some((noise as u16, 0)),
                noise,
            }));
            v.push(Cycle {
                reset: false,
                event: Some(((ids - 1) as u16, (noise >> 16) as u16)),
                noise,
            });
            v
        });
    // A sweep of 1024 ids costs 1025 cycles: at large id counts resets and whole-range passes
    // come about once per 10^4 cycles.
    let (all_weight, reset_weight) = if ids <= 64 { (16, 16) } else { (3, 1) };
    prop_oneof![
        80 => hot,
        60 => mixed,
        all_weight => all,
        reset_weight => reset,
    ]
}
