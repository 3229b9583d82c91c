//! Co-simulation of `nic`, the NIC composed (the send side `nic_tx`, the receive side
//! `nic_rx`, one open port): the Verilated RTL against `golden_model::nic::Nic`'s rules, every
//! output port on every cycle.
//!
//! The two sides' co-sims ([`crate::nic_tx`], [`crate::nic_rx`]) are reused as they are: each
//! keeps its model, its stimulus, its expected values and its coverage, and this block joins
//! them: one clock, one reset (either side's stimulus asks for it), the open port shared (an
//! open is offered to each side only when the other can take it, by
//! [`golden_model::nic::open_offers`], the model's own rule, and held here until both take
//! it), the ports renamed by side (`m_send_*`, `status_send_*`, `m_recv_*`,
//! `status_recv_*`), and `s_open_ready` and `status_ready` the AND of the sides'.
//!
//! An open comes from either side's stimulus. The other PSN is what keeps that side's stream
//! going: an open from the send side's stimulus reopens the receive side at its connection's
//! EPSN, one from the receive side's reopens the send side at its `snd_nxt`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

use golden_model::nic::{open_offers, Open};
use golden_model::nic_rx::In as RxIn;
use golden_model::nic_tx::In as TxIn;
use proptest::prelude::*;
use strack_config::Config;

use crate::designs::ports::nic as ports;
use crate::designs::ports::nic_rx as nic_rx_ports;
use crate::{
    nic_rx, nic_tx, CosimBlock, Coverage, DelayLine, Dut, OutputStage, PortInfo, PortValues,
};
use crate::{In, Out};

/// Where a stimulus open came from, with the PSN that side gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenFrom {
    /// The send side's stimulus: our PSN.
    Send(u16, u32),
    /// The receive side's stimulus: the peer's PSN.
    Recv(u16, u32),
}

/// One cycle of stimulus: each side's, with the opens taken out of both.
#[derive(Debug, Clone)]
pub struct Cycle {
    pub tx: nic_tx::Cycle,
    pub rx: nic_rx::Cycle,
    pub open: Option<OpenFrom>,
    /// The open offered (set by `resolve`): connection, our PSN, the peer's PSN.
    pub offered: Option<(u16, u32, u32)>,
}

/// The composed block's own points; the sides' are theirs prefixed `send.` and `recv.`.
pub const COVERAGE_POINTS: &[&str] = &[
    "open_taken_by_both",
    "open_waited_for_the_send_side",
    "packet_taken_beside_a_waiting_open",
    "open_refused_for_our_psn",
    "open_refused_for_the_peer_psn",
    "both_sides_one_connection_one_cycle",
];

/// `prefix` + `name`, made once and kept (port and coverage names are `&'static str`).
fn label(prefix: &str, name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let key = format!("{prefix}{name}");
    let mut m = NAMES.get_or_init(Default::default).lock().expect("names");
    m.entry(key.clone())
        .or_insert_with(|| Box::leak(key.into_boxed_str()))
}

/// A side's port name on the composed NIC (`None`: the composed block shows it itself).
fn port_name(side: &str, port: Out) -> Option<Out> {
    let name = port.0;
    match port {
        ports::S_OPEN_READY | ports::STATUS_READY => None,
        _ => Some(if let Some(rest) = name.strip_prefix("m_") {
            Out(label(&format!("m_{side}_"), rest))
        } else if let Some(rest) = name.strip_prefix("status_") {
            Out(label(&format!("status_{side}_"), rest))
        } else {
            port
        }),
    }
}

/// The receive side's view of the composed NIC's inputs: its open PSN is `s_open_peer_psn`.
struct RecvPorts<'a>(&'a mut dyn Dut);

impl Dut for RecvPorts<'_> {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn ports(&self) -> &'static [PortInfo] {
        self.0.ports()
    }
    fn eval(&mut self) {
        self.0.eval()
    }
    fn time(&mut self) -> &mut u64 {
        self.0.time()
    }
    fn trace_open(&mut self, path: &Path) -> bool {
        self.0.trace_open(path)
    }
    fn trace_dump(&mut self, t: u64) {
        self.0.trace_dump(t)
    }
    fn trace_close(&mut self) {
        self.0.trace_close()
    }
    fn set(&mut self, port: In, v: u64) {
        // The receive side's ports are its own block's; the composed NIC has the same names
        // but for this one.
        let port = if port == nic_rx_ports::S_OPEN_PSN {
            ports::S_OPEN_PEER_PSN
        } else {
            port
        };
        self.0.set(port, v)
    }
    fn get(&self, port: Out) -> u64 {
        self.0.get(port)
    }
    fn set_words(&mut self, port: In, w: &[u32]) {
        self.0.set_words(port, w)
    }
    fn get_words(&self, port: Out) -> Vec<u32> {
        self.0.get_words(port)
    }
}

/// A side's ports' names on the composed NIC, by position (`None`: shown by the NIC itself).
type Names = Vec<Option<Out>>;

/// The model side: the two sides' co-sim blocks, each with its own output stage.
pub struct Block {
    tx: nic_tx::Block,
    rx: nic_rx::Block,
    tx_pipe: DelayLine<nic_tx::Regs>,
    tx_lat: OutputStage<nic_tx::Regs>,
    rx_pipe: DelayLine<nic_rx::Regs>,
    rx_lat: OutputStage<nic_rx::Regs>,
    /// This cycle's results, clocked into the stages by `advance`.
    fired: Option<(nic_tx::Regs, nic_rx::Regs)>,
    /// An open offered and not yet taken.
    held: Option<(u16, u32, u32)>,
    /// Each side's ports' names on the composed NIC, in the order its `expected` lists them.
    names: RefCell<Option<(Names, Names)>>,
}

impl Block {
    pub fn new(cfg: &Config, initial_psn: u32, initial_bytes: u32) -> Self {
        Block {
            tx: nic_tx::Block::new(cfg, initial_psn, initial_bytes),
            rx: nic_rx::Block::new(cfg, initial_psn),
            tx_pipe: DelayLine::new(<nic_tx::Block as CosimBlock>::LATENCY),
            tx_lat: OutputStage::default(),
            rx_pipe: DelayLine::new(<nic_rx::Block as CosimBlock>::LATENCY),
            rx_lat: OutputStage::default(),
            fired: None,
            held: None,
            names: RefCell::new(None),
        }
    }

    /// Each side's open readiness this cycle (neither depends on the offer).
    fn open_ready(&self, reset: bool) -> (bool, bool) {
        let tx = self.tx.model().handshakes(&TxIn {
            reset,
            ..TxIn::default()
        });
        let rx = self.rx.model.handshakes(&RxIn {
            reset,
            ..RxIn::default()
        });
        (tx.0.open_ready, rx.0)
    }

    /// A stimulus open with both PSNs: the other side's keeps its stream going.
    fn complete(&self, o: OpenFrom) -> (u16, u32, u32) {
        match o {
            OpenFrom::Send(k, psn) => {
                let peer = self.rx.model.conn(u32::from(k)).map_or(0, |r| r.epsn);
                (k, psn, peer)
            }
            OpenFrom::Recv(k, peer) => {
                let psn = self
                    .tx
                    .model()
                    .conn(u32::from(k))
                    .map_or(0, |c| c.sender.sack.snd_nxt);
                (k, psn, peer)
            }
        }
    }
}

fn rename(vals: PortValues, names: &Names, shared: &mut PortValues, out: &mut PortValues) {
    assert_eq!(vals.len(), names.len(), "a side's port list changed");
    for ((p, v), n) in vals.into_iter().zip(names) {
        match n {
            Some(n) => out.push((*n, v)),
            None => shared.push((p, v)),
        }
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = ();
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
        let mut v = COVERAGE_POINTS.to_vec();
        v.extend(self.tx.coverage_points().iter().map(|p| label("send.", p)));
        v.extend(self.rx.coverage_points().iter().map(|p| label("recv.", p)));
        v
    }

    fn resolve(&self, now: u32, c: &Cycle) -> Cycle {
        let mut c = c.clone();
        let reset = c.tx.reset || c.rx.reset;
        c.tx.reset = reset;
        c.rx.reset = reset;
        let offered = self.held.or_else(|| c.open.map(|o| self.complete(o)));
        let (tx_ready, rx_ready) = self.open_ready(reset);
        let open = offered.map(|(k, psn, peer_psn)| Open {
            conn: u32::from(k),
            psn,
            peer_psn,
        });
        let (to_tx, to_rx) = open_offers(open, tx_ready, rx_ready);
        c.tx.open = to_tx.map(|(k, p)| (k as u16, p));
        c.rx.open = to_rx.map(|(k, p)| (k as u16, p));
        c.offered = offered;
        c.tx = self.tx.resolve(now, &c.tx);
        c.rx = self.rx.resolve(now, &c.rx);
        c
    }

    fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
        nic_tx::Block::drive(dut, now, &c.tx);
        nic_rx::Block::drive(&mut RecvPorts(dut), now, &c.rx);
        // The open as offered to the NIC (each side's drive set what that side is offered).
        dut.set(ports::S_OPEN_VALID, c.offered.is_some() as u64);
        if let Some((k, psn, peer)) = c.offered {
            dut.set(ports::S_OPEN_CONN, u64::from(k));
            dut.set(ports::S_OPEN_PSN, u64::from(psn));
            dut.set(ports::S_OPEN_PEER_PSN, u64::from(peer));
        }
    }

    fn expected(&self, _lat: &OutputStage<()>, _m_ready: bool) -> PortValues {
        let tx = self.tx.expected(&self.tx_lat, true);
        let rx = self.rx.expected(&self.rx_lat, true);
        let mut names = self.names.borrow_mut();
        let (tn, rn) = names.get_or_insert_with(|| {
            (
                tx.iter().map(|(p, _)| port_name("send", *p)).collect(),
                rx.iter().map(|(p, _)| port_name("recv", *p)).collect(),
            )
        });
        let mut out = PortValues::new();
        let (mut ts, mut rs) = (Vec::new(), Vec::new());
        rename(tx, tn, &mut ts, &mut out);
        rename(rx, rn, &mut rs, &mut out);
        let both = |p: Out| {
            let v = |s: &[(Out, u64)]| s.iter().find(|(n, _)| *n == p).map_or(0, |x| x.1);
            v(&ts) & v(&rs)
        };
        out.push((ports::S_OPEN_READY, both(ports::S_OPEN_READY)));
        out.push((ports::STATUS_READY, both(ports::STATUS_READY)));
        out
    }

    fn fire(&mut self, now: u32, c: &Cycle, cov: &mut Coverage) {
        let reset = c.tx.reset;
        let (tx_ready, rx_ready) = self.open_ready(reset);
        let ready = self.tx.model().ready() && self.rx.model.ready();
        let (mut tc, mut rc) = (Coverage::default(), Coverage::default());
        let tx = self.tx.fire(now, &c.tx, &mut tc);
        self.tx.forget_held_open();
        let rx = self.rx.fire(now, &c.rx, &mut rc);
        for (k, n) in tc.0 {
            *cov.0.entry(label("send.", k)).or_default() += n;
        }
        for (k, n) in rc.0 {
            *cov.0.entry(label("recv.", k)).or_default() += n;
        }
        let taken = tx_ready && rx_ready;
        self.held = c.offered.filter(|_| !taken && !reset);
        if let Some((_, psn, peer)) = c.offered.filter(|_| taken) {
            cov.hit("open_taken_by_both");
            let wide = |p: u32| p >> 24 != 0;
            if wide(psn) && !wide(peer) {
                cov.hit("open_refused_for_our_psn");
            }
            if wide(peer) && !wide(psn) {
                cov.hit("open_refused_for_the_peer_psn");
            }
        }
        if c.offered.is_some() && ready && !reset && !taken {
            cov.hit("open_waited_for_the_send_side");
            if c.rx.pkt.is_some() {
                cov.hit("packet_taken_beside_a_waiting_open");
            }
        }
        let tx_conn = c.tx.offers.sack.as_ref().map(|(k, _)| *k);
        let rx_conn = c.rx.pkt.as_ref().map(|(k, _, _)| *k);
        if ready && !reset && tx_conn.is_some() && tx_conn == rx_conn {
            cov.hit("both_sides_one_connection_one_cycle");
        }
        self.fired = Some((tx, rx));
    }

    fn advance(&mut self, fired: bool) {
        let (tx, rx) = self.fired.take().unzip();
        debug_assert!(fired == tx.is_some());
        self.tx.advance(fired);
        self.rx.advance(fired);
        self.tx_lat.clock(true, self.tx_pipe.shift(tx));
        self.rx_lat.clock(true, self.rx_pipe.shift(rx));
    }
}

/// `len` cycles of stimulus for `cfg` from `seed`: the send side's and the receive side's
/// generators side by side, their opens moved to the shared port (one a cycle: when both
/// sides' stimuli open on one cycle, the receive side's waits for the next free cycle).
pub fn generate(cfg: &Config, initial_psn: u32, seed: u64, len: usize) -> Vec<Cycle> {
    let tx = nic_tx::generate(cfg, seed, len);
    let rx = nic_rx::generate(cfg, initial_psn, seed ^ 0x5EED, len);
    let mut waiting = std::collections::VecDeque::new();
    tx.into_iter()
        .zip(rx)
        .map(|(mut t, mut r)| {
            if let Some((k, p)) = r.open.take() {
                waiting.push_back(OpenFrom::Recv(k, p));
            }
            let open = match t.open.take() {
                Some((k, p)) => Some(OpenFrom::Send(k, p)),
                None => waiting.pop_front(),
            };
            Cycle {
                tx: t,
                rx: r,
                open,
                offered: None,
            }
        })
        .collect()
}

/// The composed NIC's stimulus with one side's cycles and nothing on the other (the load
/// benchmark's, which loads one side at a time).
fn one_side(tx: Option<nic_tx::Cycle>, rx: Option<nic_rx::Cycle>) -> Cycle {
    let mut tx = tx.unwrap_or(nic_tx::Cycle {
        reset: false,
        now: 0,
        open: None,
        txop: false,
        sack: None,
        doorbell: None,
        noise: 0,
        offers: Default::default(),
    });
    let mut rx = rx.unwrap_or(nic_rx::Cycle {
        reset: false,
        open: None,
        pkt: None,
        noise: 0,
    });
    let open = match (tx.open.take(), rx.open.take()) {
        (Some((k, p)), _) => Some(OpenFrom::Send(k, p)),
        (None, Some((k, p))) => Some(OpenFrom::Recv(k, p)),
        (None, None) => None,
    };
    Cycle {
        tx,
        rx,
        open,
        offered: None,
    }
}

/// The send side's stimulus alone.
pub fn send_only(tx: Vec<nic_tx::Cycle>) -> Vec<Cycle> {
    tx.into_iter().map(|t| one_side(Some(t), None)).collect()
}

/// The receive side's stimulus alone.
pub fn recv_only(rx: Vec<nic_rx::Cycle>) -> Vec<Cycle> {
    rx.into_iter().map(|r| one_side(None, Some(r))).collect()
}

/// Stimulus of a length in `len`, as a proptest strategy (its seed shrinks, not its cycles).
pub fn stimulus(
    cfg: Config,
    initial_psn: u32,
    len: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Cycle>> {
    (any::<u64>(), len).prop_map(move |(seed, len)| generate(&cfg, initial_psn, seed, len))
}
