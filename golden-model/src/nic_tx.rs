//! The multi-connection NIC's send side (`docs/blocks/nic_tx.md`): `nic.connections`
//! independent senders, each today's SACK sender, cwnd unit and entropy bitmap (unchanged in
//! what they compute), one event per clock for any sequence of connection ids, a transmit
//! scheduler ([`TxSched`]) and a timer scan.
//!
//! **Events.** Each cycle takes at most one: an **open** (the configuration port: the
//! connection's sender starts afresh at a given PSN), a **transmit opportunity** (served for
//! the scheduler's candidate), a **SACK**, a **doorbell** (bytes appended to the connection's
//! backlog), or a **timer check** (the scan's next connection).
//!
//! DECISION (which input is served). Counting cycles from power-on or the last reset, every
//! fourth cycle (count mod 4 = 3) belongs to the timer scan, which checks the next connection
//! in id order. On the other cycles the order is: open, SACK, then a transmit opportunity
//! (when the scheduler has a candidate) and a doorbell, taking turns when both are offered,
//! and the scan again when none is offered (SACKs come at the network's pace and open
//! windows; a link always ready must starve neither them nor the doorbells). So
//! the scan visits every connection within `4 x connections` cycles (32.8 us at 1024
//! connections and 125 MHz), and the inputs share three cycles in four.
//!
//! DECISION (timers). Every event checks its own connection's timeout, as the SACK sender
//! does on each of its steps (so a timer check is a step with nothing else in it); the probe
//! timer is checked when the connection transmits. The scan's part is to find the
//! connections no other event reaches.
//!
//! DECISION (packets from the backlog; lengths follow from PSNs). A doorbell adds its bytes to
//! the backlog (refused when the sum would pass 2^32 - 1). A transmit takes `mtu` bytes from it,
//! or all of it when less is left and no earlier short packet of the connection is still
//! unacknowledged (`snd_una` has not passed it: Nagle's rule); the packet that empties the
//! backlog asks for an immediate ACK. So every packet but the one short packet is `mtu`
//! bytes long, and the record keeps that packet's PSN instead of a length per PSN.
//!
//! DECISION (the has-work bit). After every event, its connection's bit at the scheduler is
//! set when the connection can send: a probe is due, or the window is open (`inflight` below
//! the window it read) and there is a lost PSN or new data inside `rx_window`. It is written
//! [`NIC_TX_WORK_WRITE`] cycles after the event was taken.
//!
//! DECISION (the window view). An event taken on cycle t reads its connection's cwnd unit as
//! the SACKs and the open taken up to cycle t - [`NIC_TX_VIEW_LAG`] left it; a SACK's own
//! amounts are computed from the window with its connection's SACKs of the
//! `CWND_MAX_AHEAD` cycles before it still in flight, as the cwnd unit does.
//!
//! The records live in a [`ContextStore`] (the sweep after power-on and after a reset, bad ids
//! reported and touching nothing). The model knows nothing of RAM or forwarding; the harness
//! adds the pipeline's latency.

use std::collections::VecDeque;

use serde::Serialize;

use strack_config::{
    Config, CWND_MAX_AHEAD, NIC_SENDER_SETTLE, NIC_TX_VIEW_LAG, NIC_TX_WORK_WRITE,
};

use crate::context_pipe::{ContextStore, Taken};
use crate::cwnd_unit::{self, CwndUnit, RTT_MAX};
use crate::entropy_bitmap::{self, ChooseRequest, EcnFeedback, EntropyBitmap};
use crate::nic_sender::{Kind as SenderKind, Sender, View};
use crate::sack_receiver::{DataPkt, Sack};
use crate::sack_sender::{LossKind, SackVerdict, TxKind};
use crate::seq::{elapsed, PSN_MASK};
use crate::tx_sched::{self, TxSched};

/// What the send side's events read of a connection's cwnd unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowView {
    pub cwnd_bytes: u32,
    pub cwnd_packets: u32,
    pub achieved_bdp: u32,
}

impl WindowView {
    /// What the cwnd unit `c` shows the send side.
    pub fn of(c: &CwndUnit) -> Self {
        WindowView {
            cwnd_bytes: c.cwnd_bytes(),
            cwnd_packets: c.cwnd_packets(),
            achieved_bdp: c.achieved_bdp,
        }
    }
}

/// One connection's send side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxConn {
    /// The SACK sender with the backlog and the short packet ([`crate::nic_sender`]).
    pub sender: Sender,
    pub cwnd: CwndUnit,
    pub entropy: EntropyBitmap,
    /// What the events read of the cwnd unit, once `pending` is folded in.
    view: WindowView,
    /// (cycle, the cwnd unit after that SACK or open) not yet old enough to show, oldest first.
    pending: VecDeque<(u64, WindowView)>,
    /// Cycles of the accepted SACKs of the last `CWND_MAX_AHEAD` cycles.
    sacks: VecDeque<u64>,
}

/// What an event asks of its connection.
pub use crate::nic_sender::Event;

/// What an event did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Opened,
    /// The open asked for a PSN wider than 24 bits: nothing changed.
    OpenRefused,
    /// A transmit opportunity: the packet sent, if the connection had one.
    Transmit(Option<(DataPkt, TxKind)>),
    Sack(SackVerdict),
    /// A doorbell: accepted, or refused (the backlog would pass 2^32 - 1).
    Doorbell(bool),
    Timer,
}

/// An event's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub kind: Kind,
    /// A loss detector fired (a SACK's, or the timeout on any event).
    pub loss: Option<LossKind>,
    /// The has-work bit written for the connection.
    pub work: bool,
}

impl TxConn {
    /// A connection whose first packet gets PSN `psn`.
    pub fn new(cfg: &Config, psn: u32) -> Self {
        let cwnd = CwndUnit::from_config(cfg);
        TxConn {
            sender: Sender::new(cfg, psn),
            view: WindowView::of(&cwnd),
            cwnd,
            entropy: EntropyBitmap::from_config(cfg),
            pending: VecDeque::new(),
            sacks: VecDeque::new(),
        }
    }

    /// The view an event taken on cycle `t` reads.
    fn view_at(&mut self, t: u64) -> WindowView {
        while let Some(&(c, v)) = self.pending.front() {
            if c + NIC_TX_VIEW_LAG > t {
                break;
            }
            self.view = v;
            self.pending.pop_front();
        }
        self.view
    }

    /// The connection's SACKs still in the cwnd unit's pipeline ahead of one taken on `t`.
    fn sacks_ahead(&mut self, t: u64) -> usize {
        while self
            .sacks
            .front()
            .is_some_and(|&c| c + (CWND_MAX_AHEAD as u64) < t)
        {
            self.sacks.pop_front();
        }
        self.sacks.len()
    }

    /// Apply an event taken on cycle `t` at time `now`, the senders' settling distance
    /// `settle`; `fresh` is a newly opened connection at PSN 0 (an open keeps only the view's
    /// history).
    pub fn apply(
        &self,
        ev: &Event,
        (t, settle): (u64, u64),
        now: u32,
        fresh: &TxConn,
    ) -> (TxConn, Effect) {
        let mut c = self.clone();
        let v = c.view_at(t);
        let sv = View {
            cwnd_bytes: v.cwnd_bytes,
            achieved_bdp: v.achieved_bdp,
        };
        let (sender, e) = c.sender.apply(ev, (t, settle), now, &sv, &fresh.sender);
        c.sender = sender;
        let tick = entropy_bitmap::In {
            now,
            ..Default::default()
        };
        let kind = match (ev, e.kind) {
            (_, SenderKind::OpenRefused) => Kind::OpenRefused,
            (_, SenderKind::Opened) => {
                let mut n = fresh.clone();
                n.sender = c.sender;
                n.view = c.view;
                n.pending = std::mem::take(&mut c.pending);
                n.pending.push_back((t, WindowView::of(&n.cwnd)));
                c = n;
                Kind::Opened
            }
            (_, SenderKind::Doorbell(ok)) => {
                c.entropy.step(&tick);
                Kind::Doorbell(ok)
            }
            (_, SenderKind::Timer) => {
                c.entropy.step(&tick);
                Kind::Timer
            }
            (Event::Sack(sack), SenderKind::Sack(verdict, acked_bytes)) => {
                let mut ack = None;
                if verdict == SackVerdict::Accepted {
                    ack = Some(EcnFeedback {
                        entropy: sack.entropy,
                        ecn: sack.ecn,
                    });
                    let ahead = c.sacks_ahead(t);
                    c.cwnd.step_pipelined(
                        &cwnd_unit::In {
                            now,
                            rtt: elapsed(now, sack.ts).min(RTT_MAX),
                            ecn: sack.ecn,
                            acked_bytes: acked_bytes.min(cwnd_unit::ACKED_MAX),
                            is_probe_ack: sack.probe,
                        },
                        ahead,
                    );
                    c.sacks.push_back(t);
                    c.pending.push_back((t, WindowView::of(&c.cwnd)));
                }
                c.entropy.step(&entropy_bitmap::In {
                    now,
                    ack,
                    choose: None,
                });
                Kind::Sack(verdict)
            }
            (_, SenderKind::Transmit(tx)) => {
                let ch = c.entropy.step(&entropy_bitmap::In {
                    now,
                    ack: None,
                    choose: tx.map(|_| ChooseRequest {
                        cwnd_packets: v.cwnd_packets,
                    }),
                });
                Kind::Transmit(tx.map(|tx| {
                    (
                        DataPkt {
                            psn: tx.psn,
                            len: tx.len,
                            entropy: ch.choice.map_or(0, |ch| ch.entropy),
                            ecn: false,
                            ts: now,
                            probe: tx.kind == TxKind::Probe,
                            ack_req: tx.ack_req,
                        },
                        tx.kind,
                    )
                }))
            }
            (_, SenderKind::Sack(..)) => unreachable!("only a SACK gets a verdict"),
        };
        (
            c,
            Effect {
                kind,
                loss: e.loss,
                work: e.work,
            },
        )
    }
}

/// What one cycle offers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset: every connection back to the initial sender, after a sweep.
    pub reset: bool,
    /// The time, ns.
    pub now: u32,
    /// Open connection `.0` at PSN `.1` (wider than 24 bits: refused).
    pub open: Option<(u32, u32)>,
    /// The link takes a packet.
    pub txop: bool,
    /// A SACK for connection `.0`.
    pub sack: Option<(u32, Sack)>,
    /// `.1` bytes for connection `.0`'s backlog.
    pub doorbell: Option<(u32, u32)>,
}

/// Which input an event came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Open,
    Transmit,
    Sack,
    Doorbell,
    Timer,
}

/// One taken event's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Done {
    pub conn: u32,
    pub source: Source,
    /// The id was out of range: nothing was read or written.
    pub bad: bool,
    pub effect: Option<Effect>,
}

/// One cycle's handshakes and result.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Out {
    pub open_ready: bool,
    pub txop_ready: bool,
    pub sack_ready: bool,
    pub doorbell_ready: bool,
    pub done: Option<Done>,
}

/// The send side.
pub struct NicTx {
    store: ContextStore<TxConn>,
    fresh: TxConn,
    sched: TxSched,
    /// Has-work writes on their way to the scheduler: (cycle presented, id, bit).
    writes: VecDeque<(u64, u32, bool)>,
    /// Cycles since power-on (never reset: the views count in it).
    cycle: u64,
    /// Cycles since power-on or the last reset, mod 4.
    phase: u32,
    /// The timer scan's next connection.
    scan: u32,
    /// When a transmit opportunity and a doorbell are both offered, the doorbell's turn.
    doorbell_turn: bool,
    /// The senders' settling distance, cycles.
    settle: u64,
}

impl NicTx {
    /// Every connection starts (and restarts after a reset) at PSN `initial_psn`.
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        Self::with_initial_bytes(cfg, initial_psn, 0)
    }

    /// As [`NicTx::new`], every sender's byte counters (sent and received) at `bytes` after
    /// the sweep (an open starts at 0): the co-simulation's way to the 2^32 wrap.
    pub fn with_initial_bytes(cfg: &Config, initial_psn: u32, bytes: u32) -> Self {
        Self::with_settle(cfg, initial_psn, bytes, NIC_SENDER_SETTLE)
    }

    /// As [`NicTx::with_initial_bytes`], the senders built with a settling distance of
    /// `settle` cycles (`crate::nic_sender`, DECISION "settled searches").
    pub fn with_settle(cfg: &Config, initial_psn: u32, bytes: u32, settle: u64) -> Self {
        assert!(settle >= 1, "a settling distance is at least one cycle");
        let fresh = TxConn::new(cfg, 0);
        let mut first = TxConn::new(cfg, initial_psn & PSN_MASK);
        first.sender = first.sender.with_bytes(bytes);
        NicTx {
            store: ContextStore::new(cfg.nic.connections, first),
            fresh,
            sched: TxSched::new(cfg.nic.connections),
            writes: VecDeque::new(),
            cycle: 0,
            phase: 0,
            scan: 0,
            doorbell_turn: false,
            settle,
        }
    }

    pub fn connections(&self) -> u32 {
        self.store.ids()
    }

    /// Events are taken (the sweep is over): `status_ready`.
    pub fn ready(&self) -> bool {
        self.store.ready()
    }

    /// Connection `conn` as the next event on it will find it.
    pub fn conn(&self, conn: u32) -> Option<&TxConn> {
        self.store.record(conn)
    }

    pub fn scheduler(&self) -> &TxSched {
        &self.sched
    }

    /// A transmit opportunity (with a candidate) and a doorbell are both offered: they take
    /// turns.
    fn contended(&self, i: &In) -> bool {
        i.txop && self.sched.candidate().is_some() && i.doorbell.is_some()
    }

    /// The handshakes of this cycle (before the clock edge) and the event taken, if any.
    pub fn handshakes(&self, i: &In) -> (Out, Option<(u32, Source)>) {
        let ready = self.ready() && !i.reset;
        let free = ready && self.phase != 3;
        let cand = self.sched.candidate();
        let open_ready = free;
        let sack_ready = free && i.open.is_none();
        let turn = self.contended(i) && self.doorbell_turn;
        let txop_ready = sack_ready && i.sack.is_none() && cand.is_some() && !turn;
        let doorbell_ready =
            sack_ready && i.sack.is_none() && (!(i.txop && cand.is_some()) || self.doorbell_turn);
        let taken = if !ready {
            None
        } else if let (true, Some((c, _))) = (open_ready, i.open) {
            Some((c, Source::Open))
        } else if let (true, Some((c, _))) = (sack_ready, &i.sack) {
            Some((*c, Source::Sack))
        } else if let (true, true, Some(c)) = (txop_ready, i.txop, cand) {
            Some((c, Source::Transmit))
        } else if let (true, Some((c, _))) = (doorbell_ready, i.doorbell) {
            Some((c, Source::Doorbell))
        } else {
            Some((self.scan, Source::Timer))
        };
        let out = Out {
            open_ready,
            txop_ready,
            sack_ready,
            doorbell_ready,
            done: None,
        };
        (out, taken)
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &In) -> Out {
        let (mut out, taken) = self.handshakes(i);
        let t = self.cycle;
        if taken.is_some_and(|(_, s)| s == Source::Transmit || s == Source::Doorbell)
            && self.contended(i)
        {
            self.doorbell_turn = !self.doorbell_turn;
        }
        let write = match self.writes.front() {
            Some(&(c, id, w)) if c == t => {
                self.writes.pop_front();
                Some((id, w))
            }
            _ => None,
        };
        self.sched.step(&tx_sched::In {
            reset: i.reset,
            set: write,
            take: taken.is_some_and(|(_, s)| s == Source::Transmit),
        });
        if let Some((conn, source)) = taken {
            let ev = match source {
                Source::Open => Event::Open(i.open.expect("offered").1),
                Source::Transmit => Event::Transmit,
                Source::Sack => Event::Sack(i.sack.clone().expect("offered").1),
                Source::Doorbell => Event::Doorbell(i.doorbell.expect("offered").1),
                Source::Timer => {
                    self.scan = (self.scan + 1) % self.connections();
                    Event::Timer
                }
            };
            let fresh = &self.fresh;
            let at = (t, self.settle);
            let f = |r: &TxConn| r.apply(&ev, at, i.now, fresh).0;
            let done = match self.store.step(i.reset, Some((conn, &f))) {
                Taken::No => unreachable!("a ready store takes the event"),
                Taken::Bad => Done {
                    conn,
                    source,
                    bad: true,
                    effect: None,
                },
                Taken::Applied { before, .. } => {
                    let (_, effect) = before.apply(&ev, at, i.now, fresh);
                    self.writes
                        .push_back((t + NIC_TX_WORK_WRITE, conn, effect.work));
                    Done {
                        conn,
                        source,
                        bad: false,
                        effect: Some(effect),
                    }
                }
            };
            out.done = Some(done);
        } else {
            self.store.step(i.reset, None);
        }
        self.cycle += 1;
        self.phase = (self.phase + 1) % 4;
        if i.reset {
            self.writes.clear();
            self.phase = 0;
            self.scan = 0;
            self.doorbell_turn = false;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::small_nic_config as cfg;

    fn ready(n: &mut NicTx) {
        while !n.ready() {
            n.step(&In::default());
        }
    }

    /// The results of `cycles` cycles offering `i`.
    fn run(n: &mut NicTx, i: &In, cycles: usize) -> Vec<Done> {
        (0..cycles).filter_map(|_| n.step(i).done).collect()
    }

    /// Offers `i` until its event (not the scan's) is taken; its result.
    fn once(n: &mut NicTx, i: &In) -> Done {
        (0..4)
            .filter_map(|_| n.step(i).done)
            .find(|d| d.source != Source::Timer)
            .expect("taken within four cycles")
    }

    #[test]
    fn a_doorbell_becomes_mtu_packets_and_one_short_one() {
        let c = cfg();
        let mtu = c.network.mtu_bytes;
        let mut n = NicTx::new(&c, 100);
        ready(&mut n);
        let door = In {
            doorbell: Some((2, 2 * mtu + 10)),
            ..In::default()
        };
        let d = once(&mut n, &door);
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::Doorbell(true));
        assert!(d.effect.as_ref().unwrap().work);
        let sent: Vec<DataPkt> = run(
            &mut n,
            &In {
                txop: true,
                ..In::default()
            },
            60,
        )
        .into_iter()
        .filter_map(|d| match d.effect?.kind {
            Kind::Transmit(Some((p, TxKind::New))) => Some(p),
            _ => None,
        })
        .collect();
        let got: Vec<(u32, u32, bool)> = sent.iter().map(|p| (p.psn, p.len, p.ack_req)).collect();
        assert_eq!(got, [(100, mtu, false), (101, mtu, false), (102, 10, true)]);
        assert_eq!(n.conn(2).unwrap().sender.backlog, 0);
        assert_eq!(n.conn(2).unwrap().sender.short, Some(102));
        // A second short packet waits for the first to be acknowledged.
        once(
            &mut n,
            &In {
                doorbell: Some((2, 5)),
                ..In::default()
            },
        );
        let more = run(
            &mut n,
            &In {
                txop: true,
                ..In::default()
            },
            30,
        );
        assert!(more.iter().all(|d| !matches!(
            d.effect.as_ref().map(|e| &e.kind),
            Some(Kind::Transmit(Some((_, TxKind::New))))
        )));
    }

    #[test]
    fn every_fourth_cycle_is_the_scans_and_it_visits_every_connection() {
        let mut n = NicTx::new(&cfg(), 0);
        ready(&mut n);
        let busy = In {
            doorbell: Some((1, 1)),
            ..In::default()
        };
        let d = run(&mut n, &busy, 32);
        let timers: Vec<u32> = d
            .iter()
            .filter(|d| d.source == Source::Timer)
            .map(|d| d.conn)
            .collect();
        assert_eq!(timers.len(), 8, "{d:?}");
        assert_eq!(timers[..4], [0, 1, 2, 3]);
    }

    #[test]
    fn an_overflowing_doorbell_is_refused_and_a_bad_id_touches_nothing() {
        let mut n = NicTx::new(&cfg(), 0);
        ready(&mut n);
        let d = once(
            &mut n,
            &In {
                doorbell: Some((0, u32::MAX)),
                ..In::default()
            },
        );
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::Doorbell(true));
        let d = once(
            &mut n,
            &In {
                doorbell: Some((0, 1)),
                ..In::default()
            },
        );
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::Doorbell(false));
        assert_eq!(n.conn(0).unwrap().sender.backlog, u32::MAX);
        let d = once(
            &mut n,
            &In {
                doorbell: Some((9, 1)),
                ..In::default()
            },
        );
        assert!(d.bad);
    }

    #[test]
    fn an_open_restarts_one_connection_and_a_wide_psn_is_refused() {
        let mut n = NicTx::new(&cfg(), 0);
        ready(&mut n);
        once(
            &mut n,
            &In {
                doorbell: Some((3, 7)),
                ..In::default()
            },
        );
        let d = once(
            &mut n,
            &In {
                open: Some((3, 1 << 24)),
                ..In::default()
            },
        );
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::OpenRefused);
        assert_eq!(n.conn(3).unwrap().sender.backlog, 7);
        let d = once(
            &mut n,
            &In {
                open: Some((3, 500)),
                ..In::default()
            },
        );
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::Opened);
        let c = n.conn(3).unwrap();
        assert_eq!(
            (
                c.sender.backlog,
                c.sender.sack.snd_una,
                c.sender.sack.snd_nxt
            ),
            (0, 500, 500)
        );
    }

    fn sent(d: &[Done]) -> Vec<(u32, u32)> {
        d.iter()
            .filter_map(|d| match &d.effect.as_ref()?.kind {
                Kind::Transmit(Some((p, TxKind::New))) => Some((p.psn, p.len)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_second_short_packet_waits_for_the_first_to_be_acknowledged() {
        let c = cfg();
        let mut n = NicTx::new(&c, 0);
        ready(&mut n);
        let door = |bytes| In {
            doorbell: Some((0, bytes)),
            ..In::default()
        };
        let txop = In {
            txop: true,
            ..In::default()
        };
        once(&mut n, &door(10));
        assert_eq!(sent(&run(&mut n, &txop, 30)), [(0, 10)]);
        once(&mut n, &door(5));
        assert_eq!(sent(&run(&mut n, &txop, 30)), []);
        let ack = Sack {
            epsn: 1,
            bitmap: vec![0],
            bytes_recvd: 10,
            ..Sack::default()
        };
        let d = once(
            &mut n,
            &In {
                sack: Some((0, ack)),
                ..In::default()
            },
        );
        assert_eq!(d.effect.unwrap().kind, Kind::Sack(SackVerdict::Accepted));
        assert_eq!(n.conn(0).unwrap().sender.short, None);
        assert_eq!(sent(&run(&mut n, &txop, 30)), [(1, 5)]);
    }

    #[test]
    fn transmit_opportunities_and_doorbells_take_turns() {
        let c = cfg();
        let mut n = NicTx::new(&c, 0);
        ready(&mut n);
        once(
            &mut n,
            &In {
                doorbell: Some((0, 100 * c.network.mtu_bytes)),
                ..In::default()
            },
        );
        let both = In {
            txop: true,
            doorbell: Some((1, 1)),
            ..In::default()
        };
        let d = run(&mut n, &both, 80);
        let count = |s| d.iter().filter(|d| d.source == s).count();
        let (tx, db) = (count(Source::Transmit), count(Source::Doorbell));
        assert!(tx >= 20 && db >= 20, "{tx} {db}");
        // A doorbell waits every cycle: a transmit never follows a transmit without one
        // between (doorbells may follow each other while the scheduler has no candidate).
        let served: Vec<Source> = d
            .iter()
            .map(|d| d.source)
            .filter(|s| matches!(s, Source::Transmit | Source::Doorbell))
            .collect();
        assert!(
            served
                .windows(2)
                .all(|w| w != [Source::Transmit, Source::Transmit]),
            "{served:?}"
        );
    }
}
