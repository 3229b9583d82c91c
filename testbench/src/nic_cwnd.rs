//! Co-simulation of `nic_cwnd`, the NIC's congestion-window units: the cwnd unit's ACK
//! stimulus (every arm, congestion episodes, malformed fields, clock jumps) spread over the
//! connections: one hot connection with its events `d` cycles apart (1 to 18, other
//! connections' events or idle cycles between), a few connections at random, every connection
//! in turn; opens among them, ids out of range, idle cycles.

use golden_model::cwnd_unit::{Branch, CWND_MAX_AHEAD};
use golden_model::nic_cwnd::{Event, In, NicCwnd};
use golden_model::rng::SplitMix64;
use proptest::prelude::*;
use strack_config::Config;

use crate::cwnd_unit::{branch_code, stimulus as ack_stimulus, Cycle as AckCycle, Scale};
use crate::designs::ports::nic_cwnd as ports;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// `m_branch` of an open.
pub const BRANCH_OPENED: u64 = 6;

/// What one cycle offers on connection `.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ev {
    Open,
    Ack {
        rtt: u32,
        ecn: bool,
        acked: u32,
        probe: bool,
    },
}

/// One clock cycle's inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    pub dt: u32,
    pub event: Option<(u16, Ev)>,
    /// What the data inputs carry where the event does not use them.
    pub noise: u64,
}

/// An ACK `d` cycles after the last event on its connection (1..=17, then 18 or more).
const AFTER_EVENT: [&str; 18] = [
    "after_event_1",
    "after_event_2",
    "after_event_3",
    "after_event_4",
    "after_event_5",
    "after_event_6",
    "after_event_7",
    "after_event_8",
    "after_event_9",
    "after_event_10",
    "after_event_11",
    "after_event_12",
    "after_event_13",
    "after_event_14",
    "after_event_15",
    "after_event_16",
    "after_event_17",
    "after_event_18_or_more",
];

/// An ACK `d` cycles after an open of its connection, nothing between on it (1..=17).
const AFTER_OPEN: [&str; 17] = [
    "after_open_1",
    "after_open_2",
    "after_open_3",
    "after_open_4",
    "after_open_5",
    "after_open_6",
    "after_open_7",
    "after_open_8",
    "after_open_9",
    "after_open_10",
    "after_open_11",
    "after_open_12",
    "after_open_13",
    "after_open_14",
    "after_open_15",
    "after_open_16",
    "after_open_17",
];

/// An ACK `d` cycles after an ACK of its connection that decreased the window (1..=7: the
/// decrease's time is read at I and written at S4, six stages later, and its RAM a cycle after
/// that).
const AFTER_DECREASE: [&str; 7] = [
    "after_decrease_1",
    "after_decrease_2",
    "after_decrease_3",
    "after_decrease_4",
    "after_decrease_5",
    "after_decrease_6",
    "after_decrease_7",
];

const OTHER_POINTS: [&str; 14] = [
    "branch_additive_increase",
    "branch_proportional_increase",
    "branch_achieved_bdp_cut",
    "branch_multiplicative_decrease",
    "branch_hold",
    "malformed",
    "fairness",
    "opened",
    "bad_conn",
    "bad_conn_first_past_the_end",
    "open_out_of_range",
    "pipeline_full",
    "idle_cycle",
    "time_wrap",
];

pub const COVERAGE_POINTS: &[&str] = &[
    AFTER_EVENT[0],
    AFTER_EVENT[1],
    AFTER_EVENT[2],
    AFTER_EVENT[3],
    AFTER_EVENT[4],
    AFTER_EVENT[5],
    AFTER_EVENT[6],
    AFTER_EVENT[7],
    AFTER_EVENT[8],
    AFTER_EVENT[9],
    AFTER_EVENT[10],
    AFTER_EVENT[11],
    AFTER_EVENT[12],
    AFTER_EVENT[13],
    AFTER_EVENT[14],
    AFTER_EVENT[15],
    AFTER_EVENT[16],
    AFTER_EVENT[17],
    AFTER_OPEN[0],
    AFTER_OPEN[1],
    AFTER_OPEN[2],
    AFTER_OPEN[3],
    AFTER_OPEN[4],
    AFTER_OPEN[5],
    AFTER_OPEN[6],
    AFTER_OPEN[7],
    AFTER_OPEN[8],
    AFTER_OPEN[9],
    AFTER_OPEN[10],
    AFTER_OPEN[11],
    AFTER_OPEN[12],
    AFTER_OPEN[13],
    AFTER_OPEN[14],
    AFTER_OPEN[15],
    AFTER_OPEN[16],
    AFTER_DECREASE[0],
    AFTER_DECREASE[1],
    AFTER_DECREASE[2],
    AFTER_DECREASE[3],
    AFTER_DECREASE[4],
    AFTER_DECREASE[5],
    AFTER_DECREASE[6],
    OTHER_POINTS[0],
    OTHER_POINTS[1],
    OTHER_POINTS[2],
    OTHER_POINTS[3],
    OTHER_POINTS[4],
    OTHER_POINTS[5],
    OTHER_POINTS[6],
    OTHER_POINTS[7],
    OTHER_POINTS[8],
    OTHER_POINTS[9],
    OTHER_POINTS[10],
    OTHER_POINTS[11],
    OTHER_POINTS[12],
    OTHER_POINTS[13],
];

/// One event's output-port values.
#[derive(Debug, Clone, Default)]
pub struct Regs {
    bad: u64,
    conn: u64,
    cwnd_q: u64,
    cwnd_bytes: u64,
    branch: u64,
    fairness: u64,
    achieved: u64,
    base: u64,
    avg: u64,
}

/// What the last event on a connection was.
#[derive(Debug, Clone, Copy)]
struct Last {
    cycle: u64,
    open: bool,
    decreased: bool,
}

/// The model's side.
pub struct Block {
    pub model: NicCwnd,
    last: Vec<Option<Last>>,
    cycle: u64,
}

impl Block {
    pub fn new(cfg: &Config) -> Self {
        Block {
            model: NicCwnd::new(cfg),
            last: vec![None; cfg.nic.connections as usize],
            cycle: 0,
        }
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    const LATENCY: usize = crate::designs::NicCwndDefault::LATENCY as usize;

    fn dt(s: &Cycle) -> u32 {
        s.dt
    }
    fn s_valid(s: &Cycle) -> bool {
        s.event.is_some()
    }
    fn m_ready(_: &Cycle) -> bool {
        true
    }

    fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
        let n = c.noise;
        let noise = (
            n & 0xFFFF_FFFF,
            n >> 32,
            n >> 7 & 1,
            n.rotate_left(17) & 0xFFFF_FFFF,
            n >> 9 & 1,
        );
        let (valid, conn, open, (now, rtt, ecn, acked, probe)) = match c.event {
            None => (0, n >> 40 & 0xFFFF, n >> 3 & 1, noise),
            // An open's ACK fields are noise but its time is real: the RTL must not take an
            // open's time for the fresh unit's timestamps (they are 0).
            Some((id, Ev::Open)) => (
                1,
                id as u64,
                1,
                (now as u64, noise.1, noise.2, noise.3, noise.4),
            ),
            Some((
                id,
                Ev::Ack {
                    rtt,
                    ecn,
                    acked,
                    probe,
                },
            )) => (
                1,
                id as u64,
                0,
                (
                    now as u64,
                    rtt as u64,
                    ecn as u64,
                    acked as u64,
                    probe as u64,
                ),
            ),
        };
        dut.set(ports::S_VALID, valid);
        dut.set(ports::S_CONN, conn);
        dut.set(ports::S_OPEN, open);
        dut.set(ports::S_NOW, now);
        dut.set(ports::S_RTT, rtt);
        dut.set(ports::S_ECN, ecn);
        dut.set(ports::S_ACKED_BYTES, acked);
        dut.set(ports::S_IS_PROBE_ACK, probe);
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let o = &lat.out;
        vec![
            (ports::M_VALID, lat.m_valid as u64),
            (ports::M_BAD, o.bad),
            (ports::M_CONN, o.conn),
            (ports::M_CWND_Q, o.cwnd_q),
            (ports::M_CWND_BYTES, o.cwnd_bytes),
            (ports::M_BRANCH, o.branch),
            (ports::M_FAIRNESS, o.fairness),
            (ports::M_ACHIEVED_BDP, o.achieved),
            (ports::M_BASE_RTT, o.base),
            (ports::M_AVG_DELAY_Q, o.avg),
            (ports::STATUS_MALFORMED_COUNT, self.model.malformed),
        ]
    }

    fn advance(&mut self, fired: bool) {
        if !fired {
            self.model.step(&In::default());
        }
        self.cycle += 1;
    }

    fn fire(&mut self, now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let (id, ev) = c.event.expect("fired without an event");
        let conn = u32::from(id);
        let event = match ev {
            Ev::Open => Event::Open,
            Ev::Ack {
                rtt,
                ecn,
                acked,
                probe,
            } => Event::Ack(golden_model::cwnd_unit::In {
                now,
                rtt,
                ecn,
                acked_bytes: acked,
                is_probe_ack: probe,
            }),
        };
        if matches!(ev, Ev::Ack { .. }) && self.model.ahead(conn) == CWND_MAX_AHEAD {
            cov.hit("pipeline_full");
        }
        let d = self
            .model
            .step(&In {
                event: Some((conn, event)),
            })
            .expect("an event has a result");
        if d.bad {
            if conn == self.model.connections() {
                cov.hit("bad_conn_first_past_the_end");
            }
            cov.hit(if ev == Ev::Open {
                "open_out_of_range"
            } else {
                "bad_conn"
            });
            return Regs {
                bad: 1,
                conn: conn as u64,
                ..Regs::default()
            };
        }
        let o = d.out.expect("a connection in range has a result");
        let slot = &mut self.last[conn as usize];
        if !d.opened {
            if let Some(l) = *slot {
                let dist = (self.cycle - l.cycle) as usize;
                cov.hit(AFTER_EVENT[dist.min(18) - 1]);
                if l.open && dist <= 17 {
                    cov.hit(AFTER_OPEN[dist - 1]);
                }
                if l.decreased && dist <= 7 {
                    cov.hit(AFTER_DECREASE[dist - 1]);
                }
            }
        }
        let decreased = matches!(
            o.branch,
            Branch::AchievedBdpCut | Branch::MultiplicativeDecrease
        ) && !d.opened;
        *slot = Some(Last {
            cycle: self.cycle,
            open: d.opened,
            decreased,
        });
        if d.opened {
            cov.hit("opened");
        } else {
            cov.hit(match o.branch {
                Branch::AdditiveIncrease => "branch_additive_increase",
                Branch::ProportionalIncrease => "branch_proportional_increase",
                Branch::AchievedBdpCut => "branch_achieved_bdp_cut",
                Branch::MultiplicativeDecrease => "branch_multiplicative_decrease",
                Branch::Hold => "branch_hold",
                Branch::Malformed => "malformed",
            });
            if o.fairness {
                cov.hit("fairness");
            }
        }
        Regs {
            bad: 0,
            conn: conn as u64,
            cwnd_q: o.cwnd_q as u64,
            cwnd_bytes: o.cwnd_bytes as u64,
            branch: if d.opened {
                BRANCH_OPENED
            } else {
                branch_code(o.branch)
            },
            fairness: o.fairness as u64,
            achieved: o.achieved_bdp as u64,
            base: o.base_rtt as u64,
            avg: o.avg_delay_q as u64,
        }
    }
}

// ------------------------------------------------------------------ stimulus

/// The cwnd unit's ACK stimulus, spread over the connections by [`spread`].
pub fn stimulus(cfg: &Config, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    let s = Scale::of(cfg);
    let conns = cfg.nic.connections;
    (ack_stimulus(s, len), any::<u64>()).prop_map(move |(acks, seed)| spread(&acks, seed, conns))
}

fn ack_of(a: &AckCycle) -> Ev {
    Ev::Ack {
        rtt: a.rtt,
        ecn: a.ecn,
        acked: a.acked,
        probe: a.probe,
    }
}

/// Give each ACK a connection, in chunks of 20 to 220 ACKs, each chunk one pattern: one hot
/// connection with `d - 1` cycles (0 to 17) of other connections' events or idle cycles after
/// each of its ACKs; a few connections (2, 3, 8 or all) at random; every connection in turn.
/// Opens (on the hot connection too, so that ACKs follow them at every distance) and ids out
/// of range are sprinkled in.
pub fn spread(acks: &[AckCycle], seed: u64, conns: u32) -> Vec<Cycle> {
    let mut r = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(acks.len() * 3);
    let mut i = 0;
    let mut turn = 0u32;
    while i < acks.len() {
        let chunk = (20 + r.next_u64() % 200) as usize;
        let end = (i + chunk).min(acks.len());
        let mode = r.next_u64() % 4;
        let hot = (r.next_u64() % conns as u64) as u16;
        let d = 1 + r.next_u64() % 18;
        let k = [2u32, 3, 8, conns][(r.next_u64() % 4) as usize].min(conns);
        for a in &acks[i..end] {
            let noise = r.next_u64();
            let roll = r.next_u64() % 1000;
            let other = |r: &mut SplitMix64| -> u16 {
                if conns == 1 {
                    0
                } else {
                    let o = (hot as u64 + 1 + r.next_u64() % (conns as u64 - 1)) % conns as u64;
                    o as u16
                }
            };
            let conn = match mode {
                0 | 1 => hot,
                2 => (r.next_u64() % k as u64) as u16,
                _ => {
                    turn = (turn + 1) % conns;
                    turn as u16
                }
            };
            // nic_cwnd has no reset port: the cwnd unit's reset cycles are idle cycles here.
            if !a.s_valid || a.reset {
                out.push(Cycle {
                    dt: a.dt,
                    event: None,
                    noise,
                });
                continue;
            }
            let ev = if roll < 15 { Ev::Open } else { ack_of(a) };
            // Ids out of range: the first past the end, the next, the largest, or any.
            let id = if r.next_u64().is_multiple_of(100) && conns < 65_536 {
                match r.next_u64() % 4 {
                    0 => conns as u16,
                    1 => (conns + 1).min(65_535) as u16,
                    2 => 0xFFFF,
                    _ => (conns as u64 + r.next_u64() % (65_536 - conns as u64)) as u16,
                }
            } else {
                conn
            };
            out.push(Cycle {
                dt: a.dt,
                event: Some((id, ev)),
                noise,
            });
            if mode <= 1 {
                for _ in 1..d {
                    let f = r.next_u64() % 10;
                    let event = match f {
                        0..=4 => None,
                        5..=8 => Some((other(&mut r), ack_of(a))),
                        _ => Some((other(&mut r), Ev::Open)),
                    };
                    out.push(Cycle {
                        dt: (r.next_u64() % 50) as u32,
                        event,
                        noise: r.next_u64(),
                    });
                }
            }
        }
        i = end;
    }
    out
}
