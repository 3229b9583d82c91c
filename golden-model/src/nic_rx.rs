//! The multi-connection NIC's receive side (`docs/blocks/nic_rx.md`): `nic.connections`
//! independent SACK receivers ([`SackReceiver`], unchanged in what they compute), one event per
//! clock for any sequence of connection ids.
//!
//! Each cycle takes at most one event: an **open** (the configuration port: a connection's
//! receiver starts afresh with a given EPSN) or a **data packet or probe**. DECISION: when both
//! are offered, the open is taken and the packet waits (opens are rare; a packet that waits a
//! cycle is not lost). The connections' records live in a [`ContextStore`]: the sweep after
//! power-on and after a reset (no event taken for `connections + 1` cycles), and connection ids
//! out of range (taken, reported, nothing read or written), are its rules.
//!
//! The model knows nothing of RAM or forwarding; the harness adds the pipeline's latency.

use serde::Serialize;

use crate::context_pipe::{ContextStore, Taken};
use crate::sack_receiver::{DataPkt, Out as RxOut, Params, SackReceiver};
use crate::seq::PSN_MASK;
use strack_config::Config;

/// What one cycle offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset: every connection back to the initial receiver, after a sweep.
    pub reset: bool,
    /// A packet for connection `.0`.
    pub pkt: Option<(u32, DataPkt)>,
    /// Open connection `.0` with EPSN `.1` (wider than 24 bits: refused).
    pub open: Option<(u32, u32)>,
}

/// What an event did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A packet, and what its connection's receiver made of it.
    Packet(RxOut),
    /// The connection was opened.
    Opened,
    /// The open asked for an EPSN wider than 24 bits: nothing changed.
    OpenRefused,
}

/// One taken event's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Done {
    pub conn: u32,
    /// The id was out of range: nothing was read or written (`kind` is then meaningless and
    /// reported as nothing).
    pub bad: bool,
    pub kind: Option<Kind>,
}

/// One cycle's handshakes and result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Out {
    pub open_ready: bool,
    pub pkt_ready: bool,
    pub done: Option<Done>,
}

/// The verdict code on `m_verdict`: a packet's as `sack_receiver`'s (0..=5), 6 opened, 7 open
/// refused.
pub fn verdict_code(k: &Kind) -> u8 {
    match k {
        Kind::Packet(o) => o.verdict.code(),
        Kind::Opened => 6,
        Kind::OpenRefused => 7,
    }
}

/// What an event does to its connection's receiver.
type NextState = dyn Fn(&SackReceiver) -> SackReceiver;

/// The receive side.
pub struct NicRx {
    store: ContextStore<SackReceiver>,
    params: Params,
}

impl NicRx {
    /// Every connection starts (and restarts after a reset) with EPSN `initial_psn`.
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        let params = Params::from_config(cfg);
        let mut init = SackReceiver::new(params.clone());
        init.epsn = initial_psn & PSN_MASK;
        NicRx {
            store: ContextStore::new(cfg.nic.connections, init),
            params,
        }
    }

    pub fn connections(&self) -> u32 {
        self.store.ids()
    }

    /// Events are taken (the sweep is over): `status_ready`.
    pub fn ready(&self) -> bool {
        self.store.ready()
    }

    /// Connection `conn`'s receiver as the next event on it will find it.
    pub fn conn(&self, conn: u32) -> Option<&SackReceiver> {
        self.store.record(conn)
    }

    /// Which offer this cycle takes, if any (the handshakes, before the clock edge).
    pub fn handshakes(&self, i: &In) -> (bool, bool) {
        let open_ready = self.ready() && !i.reset;
        (open_ready, open_ready && i.open.is_none())
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &In) -> Out {
        let (open_ready, pkt_ready) = self.handshakes(i);
        let params = self.params.clone();
        let (conn, f): (u32, Box<NextState>) = match (i.open, i.pkt) {
            (Some((conn, psn)), _) if open_ready => (
                conn,
                Box::new(move |r: &SackReceiver| {
                    if psn > PSN_MASK {
                        return r.clone();
                    }
                    let mut n = SackReceiver::new(params.clone());
                    n.epsn = psn;
                    n
                }),
            ),
            (None, Some((conn, p))) if pkt_ready => (
                conn,
                Box::new(move |r: &SackReceiver| {
                    let mut n = r.clone();
                    n.step(&p);
                    n
                }),
            ),
            _ => {
                self.store.step(i.reset, None);
                return Out {
                    open_ready,
                    pkt_ready,
                    done: None,
                };
            }
        };
        let taken = self.store.step(i.reset, Some((conn, &*f)));
        let done = match taken {
            Taken::No => None,
            Taken::Bad => Some(Done {
                conn,
                bad: true,
                kind: None,
            }),
            Taken::Applied { before, .. } => Some(Done {
                conn,
                bad: false,
                kind: Some(match (i.open, i.pkt) {
                    (Some((_, psn)), _) if psn > PSN_MASK => Kind::OpenRefused,
                    (Some(_), _) => Kind::Opened,
                    (None, Some((_, p))) => Kind::Packet(before.clone().step(&p)),
                    (None, None) => unreachable!("an event was taken"),
                }),
            }),
        };
        Out {
            open_ready,
            pkt_ready,
            done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::small_nic_config as cfg;

    fn pkt(psn: u32) -> DataPkt {
        DataPkt {
            psn,
            len: 1000,
            ..DataPkt::default()
        }
    }

    fn ready(n: &mut NicRx) {
        while !n.ready() {
            n.step(&In::default());
        }
    }

    #[test]
    fn connections_are_independent_and_opens_win() {
        let mut n = NicRx::new(&cfg(), 10);
        ready(&mut n);
        let o = n.step(&In {
            pkt: Some((1, pkt(10))),
            ..In::default()
        });
        assert!(o.pkt_ready);
        assert_eq!((n.conn(1).unwrap().epsn, n.conn(2).unwrap().epsn), (11, 10));
        // Both offered: the open is taken, the packet waits.
        let o = n.step(&In {
            pkt: Some((2, pkt(10))),
            open: Some((1, 500)),
            ..In::default()
        });
        assert!(o.open_ready && !o.pkt_ready);
        assert_eq!(o.done.unwrap().kind, Some(Kind::Opened));
        assert_eq!(
            (n.conn(1).unwrap().epsn, n.conn(2).unwrap().epsn),
            (500, 10)
        );
        // A too-wide EPSN is refused and changes nothing; a bad id touches nothing.
        let o = n.step(&In {
            open: Some((1, 1 << 24)),
            ..In::default()
        });
        assert_eq!(o.done.unwrap().kind, Some(Kind::OpenRefused));
        assert_eq!(n.conn(1).unwrap().epsn, 500);
        let o = n.step(&In {
            pkt: Some((4, pkt(10))),
            ..In::default()
        });
        assert!(o.done.unwrap().bad);
    }

    #[test]
    fn a_reset_sweeps_every_connection_back() {
        let mut n = NicRx::new(&cfg(), 7);
        ready(&mut n);
        n.step(&In {
            pkt: Some((3, pkt(7))),
            ..In::default()
        });
        n.step(&In {
            reset: true,
            ..In::default()
        });
        assert!(!n.ready());
        ready(&mut n);
        assert_eq!(n.conn(3).unwrap().epsn, 7);
    }
}
