//! The NIC's congestion-window units (`docs/blocks/nic_cwnd.md`): one [`CwndUnit`] per
//! connection, unchanged in what it computes, one event per clock (an ACK or an open) for any
//! sequence of connection ids.
//!
//! An ACK on cycle t computes its amounts from its connection's window as the ACKs of that
//! connection taken on cycles up to t - 14 left it (`ahead` of [`CwndUnit::step_pipelined`]:
//! the connection's ACKs of the 13 cycles before; ACKs of other connections do not count). An
//! open replaces the connection's unit with a fresh one (its ACKs before the open no longer
//! count as ahead). A connection at or past `connections` is reported bad and changes nothing.
//! The model knows nothing of RAM or forwarding; the harness adds the latency.

use std::collections::VecDeque;

use strack_config::{Config, CWND_MAX_AHEAD};

use crate::cwnd_unit::{self, Branch, CwndUnit};

/// What an event asks of its connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The unit starts afresh.
    Open,
    Ack(cwnd_unit::In),
}

/// One cycle's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct In {
    /// `(connection, event)`.
    pub event: Option<(u32, Event)>,
}

/// One event's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    pub conn: u32,
    /// The connection was out of range: nothing changed (`out` is `None`).
    pub bad: bool,
    pub opened: bool,
    /// The unit's outputs after the event (after an open: the fresh unit's state, arm `Hold`).
    pub out: Option<cwnd_unit::Out>,
}

pub struct NicCwnd {
    units: Vec<CwndUnit>,
    fresh: CwndUnit,
    /// Per connection, the cycles of its ACKs since its last open, within the last
    /// `CWND_MAX_AHEAD` cycles.
    recent: Vec<VecDeque<u64>>,
    cycle: u64,
    /// Malformed ACKs so far, all connections.
    pub malformed: u64,
}

impl NicCwnd {
    pub fn new(cfg: &Config) -> Self {
        let fresh = CwndUnit::from_config(cfg);
        let n = cfg.nic.connections as usize;
        NicCwnd {
            units: vec![fresh.clone(); n],
            fresh,
            recent: vec![VecDeque::new(); n],
            cycle: 0,
            malformed: 0,
        }
    }

    pub fn connections(&self) -> u32 {
        self.units.len() as u32
    }

    /// Connection `conn`'s unit as the next event will find it.
    pub fn unit(&self, conn: u32) -> Option<&CwndUnit> {
        self.units.get(conn as usize)
    }

    /// The ACKs of `conn` still ahead of an ACK taken this cycle.
    pub fn ahead(&self, conn: u32) -> usize {
        self.recent.get(conn as usize).map_or(0, |r| {
            r.iter()
                .filter(|&&c| c + CWND_MAX_AHEAD as u64 >= self.cycle)
                .count()
        })
    }

    /// One clock cycle.
    pub fn step(&mut self, input: &In) -> Option<Done> {
        let t = self.cycle;
        self.cycle += 1;
        let (conn, ev) = input.event?;
        let c = conn as usize;
        if c >= self.units.len() {
            return Some(Done {
                conn,
                bad: true,
                opened: false,
                out: None,
            });
        }
        let recent = &mut self.recent[c];
        while recent
            .front()
            .is_some_and(|&x| x + (CWND_MAX_AHEAD as u64) < t)
        {
            recent.pop_front();
        }
        match ev {
            Event::Open => {
                self.units[c] = self.fresh.clone();
                recent.clear();
                Some(Done {
                    conn,
                    bad: false,
                    opened: true,
                    out: Some(self.units[c].state()),
                })
            }
            Event::Ack(a) => {
                let ahead = recent.len();
                let o = self.units[c].step_pipelined(&a, ahead);
                recent.push_back(t);
                if o.branch == Branch::Malformed {
                    self.malformed += 1;
                }
                Some(Done {
                    conn,
                    bad: false,
                    opened: false,
                    out: Some(o),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(now: u32, rtt: u32, acked: u32) -> Event {
        Event::Ack(cwnd_unit::In {
            now,
            rtt,
            ecn: false,
            acked_bytes: acked,
            is_probe_ack: false,
        })
    }

    fn cfg(n: u32) -> Config {
        let mut c = Config::default();
        c.nic.connections = n;
        c
    }

    /// Connections are independent: interleaving two streams gives each the results it gets
    /// alone, as long as each stream's own spacing is kept.
    #[test]
    fn connections_are_independent() {
        let cfg = cfg(4);
        let mut both = NicCwnd::new(&cfg);
        let mut alone = NicCwnd::new(&cfg);
        let mut got = Vec::new();
        let mut want = Vec::new();
        for i in 0..200u32 {
            let e = ack(i * 10, 9_000 + (i % 7) * 3_000, 4096);
            // Connection 1 every cycle, connection 2 on odd cycles.
            got.push(both.step(&In {
                event: Some((1, e)),
            }));
            want.push(alone.step(&In {
                event: Some((1, e)),
            }));
            let o = both.step(&In {
                event: Some((2, ack(i * 10 + 5, 30_000, 100))),
            });
            assert!(o.is_some());
            alone.step(&In::default());
        }
        assert_eq!(got, want);
    }

    /// `ahead` counts the connection's own ACKs of the 13 cycles before, and an open resets it.
    #[test]
    fn ahead_counts_the_connection_only_and_an_open_resets_it() {
        let mut m = NicCwnd::new(&cfg(4));
        for _ in 0..5 {
            m.step(&In {
                event: Some((0, ack(0, 9_000, 1))),
            });
            m.step(&In {
                event: Some((1, ack(0, 9_000, 1))),
            });
        }
        assert_eq!(m.ahead(0), 5);
        m.step(&In {
            event: Some((0, Event::Open)),
        });
        assert_eq!(m.ahead(0), 0);
        for _ in 0..14 {
            m.step(&In::default());
        }
        assert_eq!(m.ahead(1), 0);
    }

    #[test]
    fn bad_ids_touch_nothing() {
        let mut m = NicCwnd::new(&cfg(4));
        let d = m
            .step(&In {
                event: Some((4, Event::Open)),
            })
            .unwrap();
        assert!(d.bad && d.out.is_none());
    }
}
