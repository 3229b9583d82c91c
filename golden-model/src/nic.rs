//! The multi-connection NIC: the send side ([`crate::nic_tx`]) and the receive side
//! ([`crate::nic_rx`]) stepped side by side, one clock cycle per [`Nic::step`], with one
//! configuration port and one readiness (`docs/blocks/nic.md`).
//!
//! An open carries two PSNs: ours (the first PSN the send side sends) and the peer's (the
//! first PSN the receive side expects). It is taken by both sides on the same cycle or by
//! neither: it is offered to each side only when the other is ready. An open with either PSN
//! wider than 24 bits is refused by both sides (each is given [`REFUSED_PSN`]).

use serde::{Deserialize, Serialize};
use strack_config::Config;

use crate::nic_rx::{self, NicRx};
use crate::nic_tx::{self, NicTx};
use crate::sack_receiver::{DataPkt, Sack};
use crate::seq::PSN_MASK;

/// The PSN each side is given for an open it must refuse (wider than 24 bits).
pub const REFUSED_PSN: u32 = u32::MAX;

/// An open: connection, our first PSN, the peer's first PSN.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Open {
    pub conn: u32,
    pub psn: u32,
    pub peer_psn: u32,
}

/// What one cycle offers (a trace line of `strackgen model replay --block nic`; a field left
/// out is nothing offered).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct In {
    /// Synchronous reset of both sides.
    pub reset: bool,
    /// The time, ns.
    pub now: u32,
    pub open: Option<Open>,
    /// The link takes a packet.
    pub txop: bool,
    /// A SACK for connection `.0`.
    pub sack: Option<(u32, Sack)>,
    /// `.1` bytes for connection `.0`'s backlog.
    pub doorbell: Option<(u32, u32)>,
    /// A data packet or probe for connection `.0`.
    pub pkt: Option<(u32, DataPkt)>,
}

/// One cycle's handshakes and results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Out {
    /// The open is taken (by both sides).
    pub open_ready: bool,
    pub txop_ready: bool,
    pub sack_ready: bool,
    pub doorbell_ready: bool,
    pub pkt_ready: bool,
    /// The send side's event taken this cycle.
    pub send: Option<nic_tx::Done>,
    /// The receive side's event taken this cycle.
    pub recv: Option<nic_rx::Done>,
}

/// An open as one side is offered it: (connection, PSN).
pub type SideOpen = Option<(u32, u32)>;

/// What each side is offered of `open`, given each side's open readiness (which does not
/// depend on the offer): `(send side's, receive side's)`.
pub fn open_offers(open: Option<Open>, tx_ready: bool, rx_ready: bool) -> (SideOpen, SideOpen) {
    let Some(o) = open else {
        return (None, None);
    };
    let wide = o.psn > PSN_MASK || o.peer_psn > PSN_MASK;
    let (psn, peer) = if wide {
        (REFUSED_PSN, REFUSED_PSN)
    } else {
        (o.psn, o.peer_psn)
    };
    (
        rx_ready.then_some((o.conn, psn)),
        tx_ready.then_some((o.conn, peer)),
    )
}

/// The NIC.
pub struct Nic {
    pub tx: NicTx,
    pub rx: NicRx,
}

impl Nic {
    /// Every connection starts (and restarts after a reset) at PSN `initial_psn` on both
    /// sides.
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        Self::with_initial_bytes(cfg, initial_psn, 0)
    }

    /// As [`Nic::new`], every sender's byte counters at `bytes` after the sweep
    /// ([`NicTx::with_initial_bytes`]).
    pub fn with_initial_bytes(cfg: &Config, initial_psn: u32, bytes: u32) -> Self {
        Nic {
            tx: NicTx::with_initial_bytes(cfg, initial_psn, bytes),
            rx: NicRx::new(cfg, initial_psn),
        }
    }

    /// As [`Nic::new`], stepped idle until the power-on sweep is over (`status_ready`): where
    /// a trace or a test starts.
    pub fn after_sweep(cfg: &Config, initial_psn: u32) -> Self {
        let mut n = Self::new(cfg, initial_psn);
        while !n.ready() {
            n.step(&In::default());
        }
        n
    }

    pub fn connections(&self) -> u32 {
        self.tx.connections()
    }

    /// Both sides take events (their sweeps are over): `status_ready`.
    pub fn ready(&self) -> bool {
        self.tx.ready() && self.rx.ready()
    }

    /// Each side's input this cycle.
    pub fn sides(&self, i: &In) -> (nic_tx::In, nic_rx::In) {
        let mut tx = nic_tx::In {
            reset: i.reset,
            now: i.now,
            open: None,
            txop: i.txop,
            sack: i.sack.clone(),
            doorbell: i.doorbell,
        };
        let mut rx = nic_rx::In {
            reset: i.reset,
            pkt: i.pkt,
            open: None,
        };
        let tx_ready = self.tx.handshakes(&tx).0.open_ready;
        let rx_ready = self.rx.handshakes(&rx).0;
        (tx.open, rx.open) = open_offers(i.open, tx_ready, rx_ready);
        (tx, rx)
    }

    /// The handshakes of this cycle (before the clock edge).
    pub fn handshakes(&self, i: &In) -> Out {
        let (tx, rx) = self.sides(i);
        self.handshakes_of(&tx, &rx)
    }

    /// The handshakes, given each side's input.
    fn handshakes_of(&self, tx: &nic_tx::In, rx: &nic_rx::In) -> Out {
        let (t, _) = self.tx.handshakes(tx);
        let (rx_open, pkt_ready) = self.rx.handshakes(rx);
        Out {
            open_ready: t.open_ready && rx_open,
            txop_ready: t.txop_ready,
            sack_ready: t.sack_ready,
            doorbell_ready: t.doorbell_ready,
            pkt_ready,
            send: None,
            recv: None,
        }
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &In) -> Out {
        let (tx, rx) = self.sides(i);
        let mut out = self.handshakes_of(&tx, &rx);
        out.send = self.tx.step(&tx).done;
        out.recv = self.rx.step(&rx).done;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nic_rx::Kind as RxKind;
    use crate::nic_tx::{Kind as TxKind, Source};

    use crate::small_nic_config as cfg;

    /// Step until the open is taken; the results of that cycle.
    fn open(n: &mut Nic, o: Open) -> Out {
        loop {
            let i = In {
                open: Some(o),
                ..In::default()
            };
            let out = n.step(&i);
            if out.open_ready {
                return out;
            }
            assert!(out.send.is_some() && out.recv.is_none(), "{out:?}");
        }
    }

    #[test]
    fn an_open_is_taken_by_both_sides_with_their_psns() {
        let mut n = Nic::after_sweep(&cfg(), 0);
        let o = Open {
            conn: 2,
            psn: 100,
            peer_psn: 5000,
        };
        let out = open(&mut n, o);
        let s = out.send.expect("the send side took it");
        assert_eq!((s.conn, s.source), (2, Source::Open));
        assert_eq!(s.effect.map(|e| e.kind), Some(TxKind::Opened));
        let r = out.recv.expect("the receive side took it");
        assert_eq!((r.conn, r.kind), (2, Some(RxKind::Opened)));
        assert_eq!(n.tx.conn(2).unwrap().sender.sack.snd_nxt, 100);
        assert_eq!(n.rx.conn(2).unwrap().epsn, 5000);
    }

    #[test]
    fn an_open_with_either_psn_too_wide_is_refused_by_both() {
        for (psn, peer_psn) in [(1 << 24, 7), (7, 1 << 24)] {
            let mut n = Nic::after_sweep(&cfg(), 3);
            let out = open(
                &mut n,
                Open {
                    conn: 1,
                    psn,
                    peer_psn,
                },
            );
            let s = out.send.unwrap().effect.unwrap().kind;
            assert_eq!(s, TxKind::OpenRefused);
            assert_eq!(out.recv.unwrap().kind, Some(RxKind::OpenRefused));
            assert_eq!(n.tx.conn(1).unwrap().sender.sack.snd_nxt, 3);
            assert_eq!(n.rx.conn(1).unwrap().epsn, 3);
        }
    }

    /// The send side's scan cycle (every fourth) takes no open: neither side takes it then,
    /// and the receive side, offered no open, takes the packet offered with it (which waits
    /// behind the open on the other cycles).
    #[test]
    fn an_open_waits_for_both_sides() {
        let mut n = Nic::after_sweep(&cfg(), 0);
        let mut refused = 0;
        for _ in 0..8 {
            let i = In {
                open: Some(Open::default()),
                pkt: Some((1, DataPkt::default())),
                ..In::default()
            };
            let out = n.step(&i);
            assert_eq!(out.pkt_ready, !out.open_ready);
            let recv = out.recv.expect("an event each cycle");
            if out.open_ready {
                assert_eq!(recv.kind, Some(RxKind::Opened));
            } else {
                refused += 1;
                assert!(matches!(recv.kind, Some(RxKind::Packet(_))));
                assert_eq!(out.send.map(|d| d.source), Some(Source::Timer));
            }
        }
        assert_eq!(refused, 2, "two scan cycles in eight");
    }
}
