//! The load benchmark (`make bench`): how many events each side of the multi-connection NIC
//! takes per clock when its inputs offer one every cycle, for three patterns of connection
//! ids, measured in a co-simulation (every output port compared with the model on every
//! cycle, so the counts are the RTL's). Events per second are that times Fmax, set against
//! what 800 Gb/s at a 4 KiB MTU needs (`docs/blocks/nic_tx.md`, "Load at 800 Gb/s").

use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::DataPkt;
use golden_model::Config;

use crate::nic_rx::{self, Psn};
use crate::nic_sender::{Forge, SackKind};
use crate::nic_tx::{self, Bytes, Offers};

/// Connection ids of the offered events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ids {
    /// Every connection in turn.
    RoundRobin,
    /// Connection 5 alone.
    Hot,
    /// Uniformly random ids (for the transmit load: work on 64 random connections).
    Uniform,
}

impl Ids {
    pub const ALL: [Ids; 3] = [Ids::RoundRobin, Ids::Hot, Ids::Uniform];

    pub fn name(self) -> &'static str {
        match self {
            Ids::RoundRobin => "distinct, round-robin",
            Ids::Hot => "one hot connection",
            Ids::Uniform => "uniform random",
        }
    }
}

/// The hot connection.
pub const HOT: u16 = 5;

/// Idle cycles before the first offer: the sweep after power-on (`connections + 1`) and one.
fn sweep(cfg: &Config) -> usize {
    cfg.nic.connections as usize + 2
}

struct Picker {
    ids: Ids,
    conns: u32,
    next: u32,
    rng: SplitMix64,
}

impl Picker {
    fn new(ids: Ids, conns: u32, seed: u64) -> Self {
        Picker {
            ids,
            conns,
            next: 0,
            rng: SplitMix64::new(seed),
        }
    }

    fn pick(&mut self) -> u16 {
        match self.ids {
            Ids::Hot => HOT.min(self.conns as u16 - 1),
            Ids::RoundRobin => {
                let k = self.next;
                self.next = (self.next + 1) % self.conns;
                k as u16
            }
            Ids::Uniform => self.rng.below(u64::from(self.conns)) as u16,
        }
    }
}

/// The receive side: the sweep, then an in-order data packet of `mtu_bytes` offered on every
/// one of `cycles` cycles. Returns the stimulus and the cycles measured (after the sweep).
pub fn rx_packets(cfg: &Config, ids: Ids, cycles: usize) -> (Vec<nic_rx::Cycle>, usize) {
    let conns = cfg.nic.connections;
    let mut p = Picker::new(ids, conns, 11);
    let mut out: Vec<nic_rx::Cycle> = (0..sweep(cfg))
        .map(|_| nic_rx::Cycle {
            reset: false,
            open: None,
            pkt: None,
            noise: 0,
        })
        .collect();
    for t in 0..cycles {
        let pkt = DataPkt {
            psn: 0,
            len: cfg.network.mtu_bytes,
            entropy: t as u32 & 0xFF,
            ecn: false,
            ts: 8 * t as u32,
            probe: false,
            ack_req: false,
        };
        out.push(nic_rx::Cycle {
            reset: false,
            open: None,
            pkt: Some((p.pick(), pkt, Psn::Rel(0))),
            noise: 0,
        });
    }
    (out, cycles)
}

fn tx_cycle(t: usize) -> nic_tx::Cycle {
    nic_tx::Cycle {
        reset: false,
        now: 8 * t as u32,
        open: None,
        txop: false,
        sack: None,
        doorbell: None,
        noise: 0,
        offers: Offers::default(),
    }
}

/// The send side's SACK load: the sweep, then a well-formed SACK offered on every one of
/// `cycles` cycles. Returns the stimulus and the cycles measured.
pub fn tx_sacks(cfg: &Config, ids: Ids, cycles: usize) -> (Vec<nic_tx::Cycle>, usize) {
    let mut p = Picker::new(ids, cfg.nic.connections, 12);
    let mut out: Vec<nic_tx::Cycle> = (0..sweep(cfg)).map(tx_cycle).collect();
    for t in out.len()..out.len() + cycles {
        let mut c = tx_cycle(t);
        c.sack = Some((
            p.pick(),
            Forge {
                kind: SackKind::Plausible,
                roll: t as u64,
            },
        ));
        out.push(c);
    }
    (out, cycles)
}

/// The send side's transmit load: the sweep, a doorbell of 1 GiB for each connection with
/// work (every one; the hot one; 64 random ones), then a transmit opportunity on every one of
/// `cycles` cycles and, every 8th cycle, a SACK acknowledging everything sent on the next
/// connection with work (so no window stays closed). Returns the stimulus and the cycles
/// measured (from the first transmit opportunity).
pub fn tx_transmits(cfg: &Config, ids: Ids, cycles: usize) -> (Vec<nic_tx::Cycle>, usize) {
    let conns = cfg.nic.connections;
    let busy: Vec<u16> = match ids {
        Ids::RoundRobin => (0..conns as u16).collect(),
        Ids::Hot => vec![HOT.min(conns as u16 - 1)],
        Ids::Uniform => {
            let mut r = SplitMix64::new(13);
            let mut v: Vec<u16> = (0..64).map(|_| r.below(u64::from(conns)) as u16).collect();
            v.sort();
            v.dedup();
            v
        }
    };
    let mut out: Vec<nic_tx::Cycle> = (0..sweep(cfg)).map(tx_cycle).collect();
    // One doorbell every other cycle: one the scan holds back (a cycle in four is its) is
    // taken on the next cycle, before the next doorbell is offered.
    for &k in &busy {
        let mut c = tx_cycle(out.len());
        c.doorbell = Some((k, Bytes::N(1 << 30)));
        out.push(c);
        out.push(tx_cycle(out.len()));
    }
    let mut next = 0;
    for i in 0..cycles {
        let mut c = tx_cycle(out.len());
        c.txop = true;
        if i % 8 == 7 {
            c.sack = Some((
                busy[next % busy.len()],
                Forge {
                    kind: SackKind::AckAll,
                    roll: i as u64,
                },
            ));
            next += 1;
        }
        out.push(c);
    }
    (out, cycles)
}
