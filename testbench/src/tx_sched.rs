//! Co-simulation of `tx_sched`, the send side's transmit scheduler: has-work bits written at
//! random ids (in range and out), takes at every rate, one hot connection, connections spread
//! over the groups, bits cleared right after a group's snapshot, resets in traffic.
//!
//! The design has no latency of its own: the candidate ports show the registers, so every
//! cycle the model's candidate (before the clock edge) is compared with the RTL's.

use golden_model::tx_sched::{In, TxSched, GROUP};
use proptest::prelude::*;
use strack_config::Config;

use crate::designs::ports::tx_sched as ports;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// One clock cycle's inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub reset: bool,
    /// Write `(id, has work)`.
    pub set: Option<(u16, bool)>,
    pub take: bool,
    /// What the write's data inputs carry when nothing is written.
    pub noise: u32,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "served",
    "take_without_candidate",
    "served_with_work_cleared",
    "set_on_the_served_id",
    "load_of_another_group",
    "load_of_the_same_group",
    "load_of_an_empty_mask",
    "search_dropped_by_a_load",
    "search_wrapped",
    "set_out_of_range",
    "reset",
    "full_group_served",
];

/// The model's side.
pub struct Block {
    pub model: TxSched,
    connections: u32,
    /// The group served last.
    last_group: Option<u32>,
    /// Connections served since the group was loaded.
    served_in_group: u32,
}

impl Block {
    pub fn new(cfg: &Config) -> Self {
        Block {
            model: TxSched::new(cfg.nic.connections),
            connections: cfg.nic.connections,
            last_group: None,
            served_in_group: 0,
        }
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = ();
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;

    /// One group (32 connections or fewer): no other group to load, no group of 32 to serve.
    fn coverage_points(&self) -> Vec<&'static str> {
        COVERAGE_POINTS
            .iter()
            .copied()
            .filter(|p| {
                self.connections > GROUP
                    || !["load_of_another_group", "full_group_served"].contains(p)
            })
            .collect()
    }

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
        let (valid, (id, work)) = match c.set {
            Some(s) => (1, s),
            None => (0, (c.noise as u16, c.noise >> 16 & 1 == 1)),
        };
        dut.set(ports::S_SET_VALID, valid);
        dut.set(ports::S_SET_ID, id as u64);
        dut.set(ports::S_SET_WORK, work as u64);
        dut.set(ports::S_TAKE, c.take as u64);
    }

    fn expected(&self, _lat: &OutputStage<()>, _m_ready: bool) -> PortValues {
        let cand = self.model.candidate();
        vec![
            (ports::M_CAND_VALID, cand.is_some() as u64),
            (ports::M_CAND_ID, cand.unwrap_or(0) as u64),
        ]
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) {
        let cand = self.model.candidate();
        if c.take && cand.is_none() && !c.reset {
            cov.hit("take_without_candidate");
        }
        if let Some((id, _)) = c.set {
            if u32::from(id) >= self.connections {
                cov.hit("set_out_of_range");
            }
            if cand == Some(u32::from(id)) && c.take {
                cov.hit("set_on_the_served_id");
            }
        }
        if c.reset {
            cov.hit("reset");
            self.last_group = None;
        }
        let d = self.model.step(&In {
            reset: c.reset,
            set: c.set.map(|(id, w)| (u32::from(id), w)),
            take: c.take,
        });
        if let Some(id) = d.served {
            cov.hit("served");
            self.served_in_group += 1;
            if self.served_in_group == GROUP {
                cov.hit("full_group_served");
            }
            // Its bit as the model now holds it (after this cycle's write).
            if !self.model.work(id) {
                cov.hit("served_with_work_cleared");
            }
        }
        if let Some((g, mask)) = d.loaded {
            cov.hit(if mask == 0 {
                "load_of_an_empty_mask"
            } else if self.last_group == Some(g) {
                "load_of_the_same_group"
            } else {
                "load_of_another_group"
            });
            self.last_group = Some(g);
            self.served_in_group = 0;
        }
        if d.dropped {
            cov.hit("search_dropped_by_a_load");
        }
        if d.wrapped {
            cov.hit("search_wrapped");
        }
    }
}

/// Random stimulus of about `len` cycles.
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

fn cycle(set: Option<(u16, bool)>, take: bool, noise: u32) -> Cycle {
    Cycle {
        reset: false,
        set,
        take,
        noise,
    }
}

/// One stretch of traffic.
fn segment(ids: u32) -> impl Strategy<Value = Vec<Cycle>> {
    let top = (ids - 1).min(0xFFFF) as u16;
    // Random writes and takes, each at its own rate.
    let mixed = (0u32..=100, 0u32..=100, 0u32..=100).prop_flat_map(move |(pset, pon, ptake)| {
        prop::collection::vec(
            (any_id(ids), 0u32..100, 0u32..100, 0u32..100, any::<u32>()),
            10..80,
        )
        .prop_map(move |v| {
            v.into_iter()
                .map(|(id, a, b, t, noise)| {
                    cycle((a < pset).then_some((id, b < pon)), t < ptake, noise)
                })
                .collect::<Vec<_>>()
        })
    });
    // One hot connection with work, taken every cycle; other groups now and then.
    let hot = (0..=top, prop::collection::vec(0..=top, 0..3), 20usize..60).prop_map(
        move |(hot, others, len)| {
            let mut v = vec![cycle(Some((hot, true)), false, 0)];
            v.extend(others.iter().map(|&o| cycle(Some((o, true)), true, 0)));
            v.extend((0..len).map(|_| cycle(None, true, 0)));
            v.extend(others.iter().map(|&o| cycle(Some((o, false)), true, 0)));
            v.push(cycle(Some((hot, false)), true, 0));
            v
        },
    );
    // A connection per group (or a whole group), served in turn, then cleared.
    let spread = (0..GROUP as u16, prop::bool::ANY, 10usize..40).prop_map(move |(b, full, len)| {
        let set: Vec<u16> = if full {
            (0..(GROUP as u16).min(ids as u16)).collect()
        } else {
            (0..ids.div_ceil(GROUP))
                .map(|g| (g * GROUP) as u16 + b)
                .filter(|&id| u32::from(id) < ids)
                .collect()
        };
        let mut v: Vec<Cycle> = set
            .iter()
            .map(|&id| cycle(Some((id, true)), false, 0))
            .collect();
        v.extend((0..len + set.len()).map(|_| cycle(None, true, 0)));
        v.extend(set.iter().map(|&id| cycle(Some((id, false)), true, 0)));
        v
    });
    // The candidate's work cleared while it waits; then taken.
    let churn = (0..=top, 1usize..6).prop_map(move |(id, wait)| {
        let mut v = vec![cycle(Some((id, true)), false, 0)];
        v.extend((0..wait).map(|_| cycle(None, false, 0)));
        v.push(cycle(Some((id, false)), false, 0));
        v.extend((0..4).map(|_| cycle(None, true, 0)));
        v
    });
    let reset = (any::<u32>(), prop::bool::ANY).prop_map(|(noise, take)| {
        vec![Cycle {
            reset: true,
            set: Some((noise as u16, true)),
            take,
            noise,
        }]
    });
    prop_oneof![
        60 => mixed,
        20 => hot,
        20 => spread,
        20 => churn,
        2 => reset,
    ]
}
