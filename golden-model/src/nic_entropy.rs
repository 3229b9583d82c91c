//! The send side's entropy bitmaps (`docs/blocks/nic_entropy.md`): one [`EntropyBitmap`] per
//! connection, unchanged in what it computes, one event (a step or an open) per clock for any
//! sequence of connection ids.
//!
//! A step is the entropy bitmap's own step (the periodic reset, then an ACK's ECN feedback,
//! then the choice of a packet's entropy); an open gives the connection a fresh bitmap. The
//! records live in a [`ContextStore`] (the sweep after power-on and after a reset; ids out of
//! range reported and touching nothing). The model knows nothing of RAM or forwarding; the
//! harness adds the pipeline's latency and drops what a reset drops.

use strack_config::Config;

use crate::context_pipe::{ContextStore, Taken};
use crate::entropy_bitmap::{self, EntropyBitmap};

/// What an event asks of its connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The connection starts afresh (an empty bitmap, `rr` 0, no `next_path`, last reset 0).
    Open,
    Step(entropy_bitmap::In),
}

/// One cycle's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct In {
    /// Synchronous reset: every connection back to a fresh bitmap, after a sweep.
    pub reset: bool,
    /// `(connection, event)` offered.
    pub event: Option<(u32, Event)>,
}

/// One taken event's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Done {
    pub conn: u32,
    /// The connection was out of range: nothing changed (`out` is `None`).
    pub bad: bool,
    pub opened: bool,
    /// The step's outputs (an open: none).
    pub out: Option<entropy_bitmap::Out>,
}

/// The send side's entropy bitmaps.
pub struct NicEntropy {
    store: ContextStore<EntropyBitmap>,
    fresh: EntropyBitmap,
}

impl NicEntropy {
    pub fn new(cfg: &Config) -> Self {
        let fresh = EntropyBitmap::from_config(cfg);
        NicEntropy {
            store: ContextStore::new(cfg.nic.connections, fresh.clone()),
            fresh,
        }
    }

    pub fn connections(&self) -> u32 {
        self.store.ids()
    }

    /// Events are taken (the sweep is over): `status_ready`.
    pub fn ready(&self) -> bool {
        self.store.ready()
    }

    /// Connection `conn`'s bitmap as the next event on it will find it.
    pub fn conn(&self, conn: u32) -> Option<&EntropyBitmap> {
        self.store.record(conn)
    }

    /// One clock cycle: the event taken this cycle and its result, if any.
    pub fn step(&mut self, input: &In) -> Option<Done> {
        let Some((conn, ev)) = input.event else {
            self.store.step(input.reset, None);
            return None;
        };
        let fresh = self.fresh.clone();
        let next = move |r: &EntropyBitmap| match ev {
            Event::Open => fresh.clone(),
            Event::Step(i) => {
                let mut n = r.clone();
                n.step(&i);
                n
            }
        };
        match self.store.step(input.reset, Some((conn, &next))) {
            Taken::No => None,
            Taken::Bad => Some(Done {
                conn,
                bad: true,
                opened: false,
                out: None,
            }),
            Taken::Applied { before, .. } => Some(match ev {
                Event::Open => Done {
                    conn,
                    bad: false,
                    opened: true,
                    out: None,
                },
                Event::Step(i) => Done {
                    conn,
                    bad: false,
                    opened: false,
                    // The same step again on a copy, for its outputs.
                    out: Some(before.clone().step(&i)),
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context_pipe::sweep_cycles;
    use crate::entropy_bitmap::{ChooseRequest, EcnFeedback};

    fn cfg(n: u32) -> Config {
        let mut c = Config::default();
        c.nic.connections = n;
        c.entropy_bitmap.max_paths = 16;
        c
    }

    fn ready(n: u32) -> NicEntropy {
        let mut m = NicEntropy::new(&cfg(n));
        for _ in 0..sweep_cycles(n) {
            assert!(!m.ready());
            m.step(&In::default());
        }
        assert!(m.ready());
        m
    }

    fn choose(now: u32) -> Event {
        Event::Step(entropy_bitmap::In {
            now,
            ack: None,
            choose: Some(ChooseRequest { cwnd_packets: 8 }),
        })
    }

    /// Interleaved connections each get what they get alone.
    #[test]
    fn connections_are_independent() {
        let mut both = ready(4);
        let mut alone = ready(4);
        for i in 0..300u32 {
            let e = if i % 5 == 0 {
                Event::Step(entropy_bitmap::In {
                    now: i,
                    ack: Some(EcnFeedback {
                        entropy: i % 16,
                        ecn: i % 3 == 0,
                    }),
                    choose: None,
                })
            } else {
                choose(i)
            };
            let a = both.step(&In {
                reset: false,
                event: Some((1, e)),
            });
            let b = alone.step(&In {
                reset: false,
                event: Some((1, e)),
            });
            assert_eq!(a, b);
            both.step(&In {
                reset: false,
                event: Some((2, choose(i))),
            });
            alone.step(&In::default());
        }
    }

    /// An open starts afresh; a bad id changes nothing and is reported.
    #[test]
    fn open_and_bad_ids() {
        let mut m = ready(4);
        for i in 0..5 {
            m.step(&In {
                reset: false,
                event: Some((0, choose(i))),
            });
        }
        assert_eq!(m.conn(0).unwrap().rr, 5);
        let d = m
            .step(&In {
                reset: false,
                event: Some((0, Event::Open)),
            })
            .unwrap();
        assert!(d.opened && d.out.is_none());
        assert_eq!(m.conn(0).unwrap(), &EntropyBitmap::from_config(&cfg(4)));
        let d = m
            .step(&In {
                reset: false,
                event: Some((4, choose(9))),
            })
            .unwrap();
        assert!(d.bad && d.out.is_none());
    }
}
