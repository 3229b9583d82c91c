//! One connection's packet stream as a SACK receiver sees it (`golden_model::sack_receiver`):
//! the stimulus of the NIC receive side's co-sim (`nic_rx`), which interleaves one such stream
//! per connection. (The stand-alone `sack_receiver` RTL block and its co-sim were removed: the
//! per-connection logic is `nic_rx`'s.)

use golden_model::rng::SplitMix64;
use golden_model::sack_receiver::DataPkt;
use golden_model::seq::{psn_add, psn_sub};
use strack_config::Config;

/// One clock cycle of stimulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    pub s_valid: bool,
    pub pkt: DataPkt,
    pub m_ready: bool,
    /// Random input values for a cycle without a packet.
    pub noise: u64,
    /// A PSN the stream cannot know in advance, placed by the consumer when the packet is
    /// offered, half the PSN space from the receiver's state.
    pub half: Option<Half>,
}

/// Where a half-space packet goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// `EPSN + 2^23 + k`, `k` in -1..=1: the three distances around the half space.
    Epsn(i8),
    /// `lowest + 2^23`: half the space below the lowest PSN since the last SACK (EPSN when
    /// there is none).
    Lowest,
}

/// Knobs of one stimulus case.
#[derive(Debug, Clone, Copy)]
pub struct Mix {
    pub seed: u64,
    pub packets: usize,
    pub drop: f64,
    pub reorder: f64,
    pub dup: f64,
}

/// A packet stream as a sender over a lossy, reordering path would produce it, starting at
/// `initial_psn`: new PSNs in order, some dropped and retransmitted later, some swapped, plus
/// duplicates, out-of-window PSNs, malformed fields and probes; with idle cycles and
/// back-pressure.
pub fn stream(cfg: &Config, initial_psn: u32, m: Mix) -> Vec<Cycle> {
    let w = cfg.sack.rx_window;
    let mtu = cfg.network.mtu_bytes;
    let mut rng = SplitMix64::new(m.seed);
    let mut next = initial_psn;
    let mut retx: Vec<(usize, u32)> = Vec::new();
    let mut pkts: Vec<(DataPkt, Option<Half>)> = Vec::with_capacity(m.packets);
    for k in 0..m.packets {
        let mut p = DataPkt {
            psn: next,
            len: if rng.chance(0.7) {
                mtu
            } else {
                1 + rng.below(mtu as u64) as u32
            },
            entropy: rng.next_u64() as u32,
            ecn: rng.chance(0.08),
            ts: rng.next_u64() as u32,
            probe: false,
            ack_req: rng.chance(0.04),
        };
        let roll = rng.below(1000);
        let mut half = None;
        if let Some(i) = retx.iter().position(|&(due, _)| due <= k) {
            p.psn = retx.swap_remove(i).1;
        } else if roll < 10 {
            // Half the PSN space from EPSN or from the lowest: the serial rule's corner.
            half = Some(match rng.below(4) {
                0 => Half::Lowest,
                k => Half::Epsn(k as i8 - 2),
            });
            p.ack_req = rng.chance(0.5);
        } else if roll < 15 {
            p.psn = (1 << 24) | rng.next_u64() as u32;
        } else if roll < 30 {
            p.len = if rng.chance(0.5) {
                0
            } else {
                mtu + 1 + rng.below(100) as u32
            };
        } else if roll < 45 {
            p.probe = true;
            p.len = 0;
        } else if roll < 60 {
            p.psn = psn_add(next, w + rng.below(2 * w as u64) as u32);
        } else if rng.chance(m.dup) {
            p.psn = psn_sub(next, 1 + rng.below(2 * w as u64) as u32);
        } else {
            next = psn_add(next, 1);
            if rng.chance(m.drop) {
                retx.push((k + 2 + rng.below(w as u64) as usize, p.psn));
                continue;
            }
        }
        pkts.push((p, half));
        let n = pkts.len();
        if n >= 2 && rng.chance(m.reorder) {
            let j = n - 2 - rng.below((n - 1).min(6) as u64) as usize;
            pkts.swap(j, n - 1);
        }
    }
    let mut out = Vec::with_capacity(pkts.len() * 5 / 4);
    for (p, half) in pkts {
        while rng.chance(0.15) {
            out.push(Cycle {
                s_valid: false,
                pkt: p,
                m_ready: rng.chance(0.7),
                noise: rng.next_u64(),
                half: None,
            });
        }
        // Back-pressure: the offer may be refused; like an AXI source, it is offered again.
        if rng.chance(0.1) {
            out.push(Cycle {
                s_valid: true,
                pkt: p,
                m_ready: false,
                noise: 0,
                half,
            });
        }
        out.push(Cycle {
            s_valid: true,
            pkt: p,
            m_ready: true,
            noise: 0,
            half,
        });
    }
    out
}
