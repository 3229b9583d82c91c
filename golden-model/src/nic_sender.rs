//! The send side's senders (`docs/blocks/nic_sender.md`): per connection, today's SACK sender
//! (unchanged in what it computes) with the connection's send backlog and its short packet,
//! one event per clock for any sequence of connection ids.
//!
//! This is the part of [`crate::nic_tx`]'s per-connection step that is neither the cwnd unit
//! nor the entropy bitmap: an event (an open, a SACK, a transmit opportunity, a doorbell or a
//! timer check) with the window the cwnd unit shows it ([`View`]) gives the sender's new state
//! and the event's result (the SACK's verdict and acknowledged bytes, the packet sent, a loss
//! detected, the has-work bit). [`crate::nic_tx::TxConn`] steps exactly this, so the send side's
//! model and this block's are one code.
//!
//! DECISION (packets from the backlog; lengths follow from PSNs). A doorbell adds its bytes to
//! the backlog (refused when the sum would pass 2^32 - 1). A transmit takes `mtu` bytes from
//! it, or all of it when less is left and no earlier short packet of the connection is still
//! unacknowledged (`snd_una` has not passed it: Nagle's rule); the packet that empties the
//! backlog asks for an immediate ACK. So every packet but the one short packet is `mtu` bytes
//! long, and the record keeps that packet's PSN instead of a length per PSN.
//!
//! DECISION (the has-work bit). After every event, the connection can send when a probe is due,
//! or the window is open (`inflight` below the window the event read) and there is a lost PSN
//! or new data inside `rx_window`.
//!
//! DECISION (settled searches). Some of a sender's work is a search or a count over its
//! window: running `snd_una` over the acknowledged PSNs after a SACK, the lowest lost PSN a
//! retransmission takes, the lost bytes `inflight` subtracts. The RTL makes them over
//! pipeline stages from its connection's record as the events taken at least
//! `NIC_SENDER_SETTLE` cycles earlier left it, so an event right behind one that moved things
//! cannot wait for them. An event *repositions* its connection when it is an accepted open
//! or SACK, declares a loss, moves `snd_una`, or sends a packet (new, retransmitted or a
//! probe): so a settled event finds its connection as it was `NIC_SENDER_SETTLE` cycles before
//! but for the backlog (doorbells). An event taken less than `NIC_SENDER_SETTLE`
//! cycles after the last reposition of its connection is *unsettled*: it does everything
//! else exactly, but it does not run `snd_una` past the EPSN over acknowledged PSNs, reads
//! `inflight` with the lost bytes as the last settled event left them (`lost_view`),
//! does not retransmit, and sends no new packet while that view has lost bytes; its has-work
//! bit reads the same view. Every other event is *settled*: it first runs `snd_una` over the
//! acknowledged PSNs at its head (what unsettled SACKs left), then steps exactly, and leaves
//! its lost bytes as the view. Nothing is lost: an unsettled SACK's marks and EPSN are
//! applied at once, and the next settled event (a transmit, a SACK, or the timer scan's
//! check) does the rest. With `NIC_SENDER_SETTLE` 1 every event is settled: the rules above, exactly.
//!
//! The records live in a [`ContextStore`] (the sweep after power-on and after a reset, ids out
//! of range reported and touching nothing). The model knows nothing of RAM or forwarding; the
//! harness adds the pipeline's latency.

use strack_config::{Config, NIC_SENDER_SETTLE};

use crate::context_pipe::{ContextStore, Taken};
use crate::sack_receiver::Sack;
use crate::sack_sender::{self, LossKind, NewPkt, SackSender, SackVerdict, TxPkt};
use crate::seq::{elapsed, psn_in, PSN_MASK};

/// One connection's sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sender {
    /// Bytes the host has handed over and no packet carries yet.
    pub backlog: u32,
    /// The PSN of the short packet still unacknowledged, if any.
    pub short: Option<u32>,
    pub sack: SackSender,
    /// The lost bytes as the last settled event left them (what an unsettled one reads).
    pub lost_view: u32,
    /// The cycle of the last event that repositioned the connection, if any since it opened.
    pub repositioned: Option<u64>,
}

/// What an event asks of its connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Start afresh with the next packet at this PSN (wider than 24 bits: refused).
    Open(u32),
    /// A transmit opportunity: the link takes this connection's packet, if it has one.
    Transmit,
    Sack(Sack),
    /// Bytes for the backlog.
    Doorbell(u32),
    /// The timer scan's check.
    Timer,
}

/// The window the cwnd unit shows an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct View {
    pub cwnd_bytes: u32,
    pub achieved_bdp: u32,
}

/// What an event did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Opened,
    /// The open asked for a PSN wider than 24 bits: nothing changed.
    OpenRefused,
    /// A transmit opportunity: the packet sent, if the connection had one.
    Transmit(Option<TxPkt>),
    /// A SACK's verdict and the bytes it newly acknowledged (0 unless accepted).
    Sack(SackVerdict, u32),
    /// A doorbell: accepted, or refused (the backlog would pass 2^32 - 1).
    Doorbell(bool),
    Timer,
}

/// An event's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    pub kind: Kind,
    /// A loss detector fired (a SACK's, or the timeout on any event).
    pub loss: Option<LossKind>,
    /// The connection can send, after the event (its bit at the scheduler).
    pub work: bool,
}

impl Sender {
    /// A connection whose first packet gets PSN `psn`.
    pub fn new(cfg: &Config, psn: u32) -> Self {
        let mut sack = SackSender::from_config(cfg);
        sack.snd_una = psn & PSN_MASK;
        sack.snd_nxt = psn & PSN_MASK;
        Sender {
            backlog: 0,
            short: None,
            sack,
            lost_view: 0,
            repositioned: None,
        }
    }

    /// `self` with `bytes` sent and received (nothing in flight).
    pub fn with_bytes(mut self, bytes: u32) -> Self {
        self.sack.bytes_sent = bytes;
        self.sack.bytes_recvd = bytes;
        self
    }

    /// The next packet the backlog gives (length, empties the backlog), Nagle's rule applied.
    pub fn cut(&self) -> Option<NewPkt> {
        let mtu = self.sack.params().mtu;
        let len = if self.backlog >= mtu {
            mtu
        } else if self.backlog > 0 && self.short.is_none() {
            self.backlog
        } else {
            return None;
        };
        Some(NewPkt {
            len,
            ack_req: len == self.backlog,
        })
    }

    /// The connection can send (with the window `v`, at `now`), as a settled event sees it.
    pub fn has_work(&self, now: u32, v: &View) -> bool {
        self.has_work_viewed(now, v, false)
    }

    /// As [`Sender::has_work`]; an `unsettled` event reads the lost bytes of `lost_view`.
    fn has_work_viewed(&self, now: u32, v: &View, unsettled: bool) -> bool {
        let s = &self.sack;
        let p = s.params();
        let outstanding = s.outstanding();
        let probe_due = outstanding != 0 && elapsed(now, s.probe_ts) >= p.probe_interval_ns;
        let view = unsettled.then_some(self.lost_view);
        // Every lost PSN has a length of at least one byte: lost bytes mean a lost PSN.
        let lost = view.map_or_else(|| s.lowest_lost().is_some(), |l| l != 0);
        let open = s.inflight_viewed(view) < v.cwnd_bytes;
        let new = self.cut().is_some() && outstanding < p.rx_window;
        probe_due || open && (lost || new)
    }

    /// The short packet is acknowledged once `snd_una` has passed it.
    fn forget_short(&mut self) {
        if self
            .short
            .is_some_and(|p| !psn_in(p, self.sack.snd_una, self.sack.outstanding()))
        {
            self.short = None;
        }
    }

    /// An event taken on cycle `t` is settled in a build whose settling distance is `settle`
    /// cycles (DECISION "settled searches").
    pub fn settled_at(&self, t: u64, settle: u64) -> bool {
        self.repositioned
            .is_none_or(|r| t.saturating_sub(r) >= settle)
    }

    /// Apply an event taken on cycle `t` at time `now` with the window `v`, at the settling
    /// distance `settle`; `fresh` is a newly opened connection.
    pub fn apply(
        &self,
        ev: &Event,
        (t, settle): (u64, u64),
        now: u32,
        v: &View,
        fresh: &Sender,
    ) -> (Sender, Effect) {
        let mut c = self.clone();
        let settled = self.settled_at(t, settle);
        let una_before = c.sack.snd_una;
        if settled && !matches!(ev, Event::Open(_)) {
            c.sack.settle(now);
            c.forget_short();
        }
        let view = (!settled).then_some(c.lost_view);
        let sender_in = |sack: Option<Sack>, new_pkt, tx_ready| sack_sender::In {
            now,
            cwnd: v.cwnd_bytes,
            achieved_bdp: v.achieved_bdp,
            sack,
            new_pkt,
            tx_ready,
        };
        let (kind, loss) = match ev {
            Event::Open(psn) if *psn > PSN_MASK => (Kind::OpenRefused, None),
            Event::Open(psn) => {
                c = fresh.clone();
                c.sack.snd_una = *psn;
                c.sack.snd_nxt = *psn;
                c.repositioned = Some(t);
                (Kind::Opened, None)
            }
            Event::Doorbell(bytes) => {
                let ok = c.backlog.checked_add(*bytes);
                if let Some(b) = ok {
                    c.backlog = b;
                }
                let s = c.sack.step_viewed(&sender_in(None, None, false), view);
                (Kind::Doorbell(ok.is_some()), s.loss)
            }
            Event::Timer => {
                let s = c.sack.step_viewed(&sender_in(None, None, false), view);
                (Kind::Timer, s.loss)
            }
            Event::Sack(sack) => {
                let s = c
                    .sack
                    .step_viewed(&sender_in(Some(sack.clone()), None, false), view);
                let verdict = s.sack.expect("a SACK gets a verdict");
                (Kind::Sack(verdict, s.acked_bytes), s.loss)
            }
            Event::Transmit => {
                let offer = c.cut();
                let s = c.sack.step_viewed(&sender_in(None, offer, true), view);
                if let (true, Some(n), Some(tx)) = (s.new_accepted, offer, s.tx) {
                    c.backlog -= n.len;
                    if n.len < c.sack.params().mtu {
                        c.short = Some(tx.psn);
                    }
                }
                (Kind::Transmit(s.tx), s.loss)
            }
        };
        c.forget_short();
        let opened = kind == Kind::Opened;
        let accepted = matches!(kind, Kind::Sack(SackVerdict::Accepted, _));
        let sent = matches!(kind, Kind::Transmit(Some(_)));
        if !opened && (accepted || sent || loss.is_some() || c.sack.snd_una != una_before) {
            c.repositioned = Some(t);
        }
        if settled && !opened {
            c.lost_view = c.sack.lost_bytes();
        }
        let work = c.has_work_viewed(now, v, !settled && !opened);
        (c, Effect { kind, loss, work })
    }
}

/// One cycle's input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct In {
    /// Synchronous reset: every connection back to the initial sender, after a sweep.
    pub reset: bool,
    /// The time, ns.
    pub now: u32,
    /// `(connection, event, the window it reads)` offered.
    pub event: Option<(u32, Event, View)>,
}

/// One taken event's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Done {
    pub conn: u32,
    /// The id was out of range: nothing was read or written (`effect` is `None`).
    pub bad: bool,
    pub effect: Option<Effect>,
}

/// The send side's senders.
pub struct NicSender {
    store: ContextStore<Sender>,
    fresh: Sender,
    /// Cycles since power-on (the settling distance counts in it).
    cycle: u64,
    /// The settling distance, cycles (at least 1).
    settle: u64,
}

impl NicSender {
    /// Every connection starts (and restarts after a reset) at PSN `initial_psn`.
    pub fn new(cfg: &Config, initial_psn: u32) -> Self {
        Self::with_initial_bytes(cfg, initial_psn, 0)
    }

    /// As [`NicSender::new`], the byte counters starting (and restarting after a reset) at
    /// `bytes` (an open starts at 0), as the RTL built with that option: the co-simulation
    /// reaches their 2^32 wrap this way.
    pub fn with_initial_bytes(cfg: &Config, initial_psn: u32, bytes: u32) -> Self {
        Self::with_settle(cfg, initial_psn, bytes, NIC_SENDER_SETTLE)
    }

    /// As [`NicSender::with_initial_bytes`], in a build whose settling distance is `settle`
    /// cycles (DECISION "settled searches").
    pub fn with_settle(cfg: &Config, initial_psn: u32, bytes: u32, settle: u64) -> Self {
        assert!(settle >= 1, "a settling distance is at least one cycle");
        NicSender {
            store: ContextStore::new(
                cfg.nic.connections,
                Sender::new(cfg, initial_psn).with_bytes(bytes),
            ),
            fresh: Sender::new(cfg, 0),
            cycle: 0,
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
    pub fn conn(&self, conn: u32) -> Option<&Sender> {
        self.store.record(conn)
    }

    /// One clock cycle: the event taken this cycle and its result, if any.
    pub fn step(&mut self, input: &In) -> Option<Done> {
        let t = self.cycle;
        self.cycle += 1;
        let Some((conn, ev, v)) = &input.event else {
            self.store.step(input.reset, None);
            return None;
        };
        let (conn, now, fresh, at) = (*conn, input.now, &self.fresh, (t, self.settle));
        let next = |r: &Sender| r.apply(ev, at, now, v, fresh).0;
        match self.store.step(input.reset, Some((conn, &next))) {
            Taken::No => None,
            Taken::Bad => Some(Done {
                conn,
                bad: true,
                effect: None,
            }),
            Taken::Applied { before, .. } => Some(Done {
                conn,
                bad: false,
                effect: Some(before.apply(ev, at, now, v, fresh).1),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context_pipe::sweep_cycles;
    use crate::sack_sender::{LossKind, TxKind};

    use crate::small_nic_config as cfg;

    fn ready(c: &Config) -> NicSender {
        let mut m = NicSender::new(c, 100);
        for _ in 0..sweep_cycles(c.nic.connections) {
            assert!(!m.ready());
            m.step(&In::default());
        }
        assert!(m.ready());
        m
    }

    fn ev(m: &mut NicSender, conn: u32, now: u32, e: Event) -> Done {
        let v = View {
            cwnd_bytes: 1 << 20,
            achieved_bdp: 0,
        };
        m.step(&In {
            reset: false,
            now,
            event: Some((conn, e, v)),
        })
        .expect("a ready store takes the event")
    }

    #[test]
    fn a_backlog_is_cut_into_mtu_packets_and_one_short_one() {
        let c = cfg();
        let mtu = c.network.mtu_bytes;
        let mut m = ready(&c);
        let d = ev(&mut m, 1, 0, Event::Doorbell(mtu + 7));
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::Doorbell(true));
        assert!(d.effect.unwrap().work);
        let sent: Vec<TxPkt> = (0..3)
            .filter_map(|_| match ev(&mut m, 1, 10, Event::Transmit).effect?.kind {
                Kind::Transmit(p) => p,
                _ => None,
            })
            .collect();
        let got: Vec<_> = sent
            .iter()
            .map(|p| (p.psn, p.len, p.kind, p.ack_req))
            .collect();
        assert_eq!(
            got,
            [(100, mtu, TxKind::New, false), (101, 7, TxKind::New, true)]
        );
        assert_eq!(m.conn(1).unwrap().short, Some(101));
        // Another connection is untouched.
        assert_eq!(m.conn(2).unwrap().sack.snd_nxt, 100);
    }

    /// A sender at `settle` cycles with connection 0's PSNs 100..105 sent (5 x mtu), settled.
    fn five_sent(c: &Config, settle: u64) -> NicSender {
        let mut m = NicSender::with_settle(c, 100, 0, settle);
        for _ in 0..sweep_cycles(c.nic.connections) {
            m.step(&In::default());
        }
        ev(&mut m, 0, 0, Event::Doorbell(10 * c.network.mtu_bytes));
        for _ in 0..5 {
            ev(&mut m, 0, 10, Event::Transmit);
        }
        // Each packet sent repositions the connection: let it settle.
        idle(&mut m, settle);
        m
    }

    /// A SACK of connection 0: EPSN 100, the segment at 96 with `psns` received.
    fn sack_of(psns: &[u32], ooo: u32) -> Event {
        let bits = psns.iter().fold(0u64, |a, p| a | 1 << (p - 96));
        Event::Sack(Sack {
            epsn: 100,
            sack_base: 96,
            bitmap: vec![bits],
            bytes_recvd: 0,
            ooo_count: ooo,
            entropy: 0,
            ecn: false,
            ts: 0,
            probe: false,
        })
    }

    fn idle(m: &mut NicSender, cycles: u64) {
        for _ in 0..cycles {
            m.step(&In::default());
        }
    }

    #[test]
    fn an_unsettled_sack_leaves_the_run_to_the_next_settled_event() {
        let c = cfg();
        for settle in [1, 4] {
            let mut m = five_sent(&c, settle);
            ev(&mut m, 0, 20, sack_of(&[101], 0));
            // Right behind: a reordered segment acknowledges snd_una itself.
            ev(&mut m, 0, 21, sack_of(&[100], 0));
            let una = m.conn(0).unwrap().sack.snd_una;
            assert_eq!(una, if settle == 1 { 102 } else { 100 }, "settle {settle}");
            idle(&mut m, settle);
            ev(&mut m, 0, 30, Event::Timer);
            let s = &m.conn(0).unwrap().sack;
            assert_eq!(s.snd_una, 102, "settle {settle}");
            // The run re-armed the timeout when it moved snd_una.
            assert_eq!(s.rto_ts, if settle == 1 { 21 } else { 30 });
        }
    }

    fn sent(d: Done) -> Option<(u32, TxKind)> {
        match d.effect.unwrap().kind {
            Kind::Transmit(p) => p.map(|p| (p.psn, p.kind)),
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn an_unsettled_transmit_does_not_retransmit_and_reads_the_settled_lost_bytes() {
        let c = cfg();
        for settle in [1, 4] {
            let mut m = five_sent(&c, settle);
            ev(&mut m, 0, 20, sack_of(&[101], 0));
            // Right behind it: a hole at 100 and an out-of-order count past every threshold.
            let d = ev(&mut m, 0, 21, sack_of(&[101, 102, 103], 1000));
            assert_eq!(d.effect.unwrap().loss, Some(LossKind::Ooo));
            let got = sent(ev(&mut m, 0, 22, Event::Transmit));
            if settle == 1 {
                assert_eq!(got, Some((100, TxKind::Retransmit)));
            } else {
                // The last settled event (the first SACK) saw nothing lost: a new packet goes.
                assert_eq!(m.conn(0).unwrap().lost_view, 0);
                assert_eq!(got, Some((105, TxKind::New)));
                idle(&mut m, settle);
                let got = sent(ev(&mut m, 0, 30, Event::Transmit));
                assert_eq!(got, Some((100, TxKind::Retransmit)));
            }
        }
    }

    #[test]
    fn an_unsettled_transmit_holds_new_packets_while_its_view_has_lost_bytes() {
        let c = cfg();
        let mut m = five_sent(&c, 4);
        // Settled, and it declares: the view takes the lost PSN's bytes at once.
        ev(&mut m, 0, 20, sack_of(&[101, 102, 103], 1000));
        assert_eq!(m.conn(0).unwrap().lost_view, c.network.mtu_bytes);
        // Unsettled behind it: the lost PSN waits for a settled event, and so do new ones.
        let d = ev(&mut m, 0, 21, Event::Transmit);
        assert_eq!(d.effect.as_ref().unwrap().kind, Kind::Transmit(None));
        assert!(d.effect.unwrap().work, "the connection still has work");
        idle(&mut m, 3);
        let got = sent(ev(&mut m, 0, 30, Event::Transmit));
        assert_eq!(got, Some((100, TxKind::Retransmit)));
    }

    #[test]
    fn a_wide_open_is_refused_and_a_bad_id_touches_nothing() {
        let c = cfg();
        let mut m = ready(&c);
        ev(&mut m, 0, 0, Event::Doorbell(5));
        let d = ev(&mut m, 0, 0, Event::Open(1 << 24));
        assert_eq!(d.effect.unwrap().kind, Kind::OpenRefused);
        assert_eq!(m.conn(0).unwrap().backlog, 5);
        let d = ev(&mut m, 0, 0, Event::Open(7));
        assert_eq!(d.effect.unwrap().kind, Kind::Opened);
        assert_eq!(m.conn(0).unwrap().backlog, 0);
        assert_eq!(m.conn(0).unwrap().sack.snd_nxt, 7);
        let d = ev(&mut m, 9, 0, Event::Doorbell(5));
        assert!(d.bad && d.effect.is_none());
    }
}
