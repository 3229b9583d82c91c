//! SACK receiver (docs/spec/strack.md, section 3.1; paper Section 3.3.1).
//!
//! State: `epsn`, a circular receive bitmap of `rx_window` bits indexed by `psn mod rx_window`
//! holding the PSNs received in `(epsn, epsn + rx_window)`, `bytes_recvd` (no duplicates),
//! `ooo_count` (packets held beyond EPSN, i.e. the bitmap's population), the lowest PSN received
//! since the last SACK, and a coalescing byte counter.
//!
//! Per packet:
//! - malformed (PSN wider than 24 bits, a data packet with `len` 0 or above the MTU): counted,
//!   no state change, no SACK;
//! - a probe (no payload): SACK now for the segment holding EPSN, with the probe flag;
//! - PSN below EPSN ([`crate::seq::psn_lt`]: `(epsn - psn) mod 2^24` in `1..=2^23`, so a PSN
//!   exactly `2^23` from EPSN is below it), or already held: a duplicate; counted, not added
//!   to `bytes_recvd`
//!   (DECISION: its bytes do count towards coalescing and it is a candidate for the lowest PSN,
//!   so a stream of duplicates is acknowledged);
//! - otherwise, PSN at or beyond `epsn + rx_window`: dropped, counted, no state change, no SACK;
//! - PSN == EPSN: EPSN advances past it and every contiguous held PSN after it;
//! - otherwise the PSN is held (`ooo_count += 1`).
//!
//! SACK triggers: (1) `ack_coalesce_bytes` since the last SACK; (2) the packet at EPSN arrives
//! while packets beyond it are held; (3) a probe; (4) the packet asks for an ACK; (5) the packet
//! is ECN-marked. The SACK carries the `sack_bits`-aligned segment holding the lowest PSN
//! received since the last SACK, or the one holding EPSN if that PSN is below EPSN. DECISION
//! (the lowest): a PSN replaces the lowest so far when it is below it; at the one distance
//! where each is below the other (`2^23`), the later PSN replaces the earlier.

use bitvec::prelude::*;
use serde::{Deserialize, Serialize};
use strack_config::Config;

use crate::seq::{psn_add, psn_in, psn_lt, PSN_MASK};

/// A data packet (or probe) on the wire, as the receiver sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataPkt {
    /// 24-bit PSN (a wider value is malformed).
    pub psn: u32,
    /// Payload bytes, `1..=MTU` for data; a probe carries none.
    pub len: u32,
    /// The entropy the sender chose; echoed.
    pub entropy: u32,
    /// The network marked it.
    #[serde(default)]
    pub ecn: bool,
    /// The sender's timestamp; echoed.
    pub ts: u32,
    #[serde(default)]
    pub probe: bool,
    #[serde(default)]
    pub ack_req: bool,
}

/// A SACK on the wire (paper Section 3.3.1 fields a-e plus the echoes).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sack {
    pub epsn: u32,
    /// First PSN of the segment (a multiple of `sack_bits`).
    pub sack_base: u32,
    /// Bit `i` (word `i / 64`, bit `i % 64`) is set when PSN `sack_base + i` was received.
    pub bitmap: Vec<u64>,
    pub bytes_recvd: u32,
    pub ooo_count: u32,
    pub entropy: u32,
    pub ecn: bool,
    pub ts: u32,
    /// This SACK answers a probe.
    pub probe: bool,
}

/// What the receiver made of a packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// New data at EPSN (EPSN advanced).
    InOrder,
    /// New data beyond EPSN (held).
    OutOfOrder,
    Duplicate,
    OutOfWindow,
    Probe,
    Malformed,
}

impl Verdict {
    /// The code the RTL reports it with (`m_verdict`): 0 in order, 1 out of order, 2
    /// duplicate, 3 out of window, 4 probe, 5 malformed.
    pub fn code(self) -> u8 {
        match self {
            Verdict::InOrder => 0,
            Verdict::OutOfOrder => 1,
            Verdict::Duplicate => 2,
            Verdict::OutOfWindow => 3,
            Verdict::Probe => 4,
            Verdict::Malformed => 5,
        }
    }
}

/// Which SACK triggers fired (any may fire together).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Triggers {
    pub coalesce: bool,
    pub head_fill: bool,
    pub probe: bool,
    pub ack_req: bool,
    pub ecn: bool,
}

impl Triggers {
    pub fn any(&self) -> bool {
        self.coalesce || self.head_fill || self.probe || self.ack_req || self.ecn
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Out {
    pub verdict: Verdict,
    pub triggers: Triggers,
    pub sack: Option<Sack>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    pub rx_window: u32,
    pub sack_bits: u32,
    pub ack_coalesce_bytes: u32,
    pub mtu: u32,
}

impl Params {
    pub fn from_config(cfg: &Config) -> Self {
        Params {
            rx_window: cfg.sack.rx_window,
            sack_bits: cfg.sack.sack_bits,
            ack_coalesce_bytes: cfg.sack.ack_coalesce_bytes,
            mtu: cfg.network.mtu_bytes,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub in_order: u64,
    pub out_of_order: u64,
    pub duplicates: u64,
    pub out_of_window: u64,
    pub probes: u64,
    pub malformed: u64,
    pub sacks: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SackReceiver {
    params: Params,
    pub epsn: u32,
    /// Bit `psn mod rx_window` set: `psn` in `(epsn, epsn + rx_window)` was received.
    pub bitmap: BitVec<u64, Lsb0>,
    pub bytes_recvd: u32,
    pub ooo_count: u32,
    pub lowest_since_sack: Option<u32>,
    pub coalesce_bytes: u32,
    pub counters: Counters,
}

impl SackReceiver {
    pub fn new(params: Params) -> Self {
        SackReceiver {
            bitmap: bitvec![u64, Lsb0; 0; params.rx_window as usize],
            params,
            epsn: 0,
            bytes_recvd: 0,
            ooo_count: 0,
            lowest_since_sack: None,
            coalesce_bytes: 0,
            counters: Counters::default(),
        }
    }

    pub fn from_config(cfg: &Config) -> Self {
        Self::new(Params::from_config(cfg))
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    fn slot(&self, psn: u32) -> usize {
        (psn & (self.params.rx_window - 1)) as usize
    }

    /// Whether `psn` is known received (below EPSN, or held).
    pub fn received(&self, psn: u32) -> bool {
        if psn_lt(psn, self.epsn) {
            return true;
        }
        psn != self.epsn
            && psn_in(psn, self.epsn, self.params.rx_window)
            && self.bitmap[self.slot(psn)]
    }

    fn no_sack(verdict: Verdict) -> Out {
        Out {
            verdict,
            triggers: Triggers::default(),
            sack: None,
        }
    }

    pub fn step(&mut self, p: &DataPkt) -> Out {
        if p.psn > PSN_MASK || (!p.probe && (p.len == 0 || p.len > self.params.mtu)) {
            self.counters.malformed += 1;
            return Self::no_sack(Verdict::Malformed);
        }
        let mut t = Triggers {
            ack_req: p.ack_req,
            ecn: p.ecn,
            ..Triggers::default()
        };
        let verdict;
        if p.probe {
            self.counters.probes += 1;
            t.probe = true;
            verdict = Verdict::Probe;
        } else {
            let below = psn_lt(p.psn, self.epsn);
            if !below && !psn_in(p.psn, self.epsn, self.params.rx_window) {
                self.counters.out_of_window += 1;
                return Self::no_sack(Verdict::OutOfWindow);
            }
            let head = p.psn == self.epsn;
            if below || (!head && self.bitmap[self.slot(p.psn)]) {
                self.counters.duplicates += 1;
                verdict = Verdict::Duplicate;
            } else if head {
                t.head_fill = self.ooo_count > 0;
                self.epsn = psn_add(self.epsn, 1);
                while self.bitmap[self.slot(self.epsn)] {
                    let s = self.slot(self.epsn);
                    self.bitmap.set(s, false);
                    self.ooo_count -= 1;
                    self.epsn = psn_add(self.epsn, 1);
                }
                self.bytes_recvd = self.bytes_recvd.wrapping_add(p.len);
                self.counters.in_order += 1;
                verdict = Verdict::InOrder;
            } else {
                let s = self.slot(p.psn);
                self.bitmap.set(s, true);
                self.ooo_count += 1;
                self.bytes_recvd = self.bytes_recvd.wrapping_add(p.len);
                self.counters.out_of_order += 1;
                verdict = Verdict::OutOfOrder;
            }
            self.coalesce_bytes = self.coalesce_bytes.saturating_add(p.len);
            self.lowest_since_sack = Some(match self.lowest_since_sack {
                Some(l) if !psn_lt(p.psn, l) => l,
                _ => p.psn,
            });
            t.coalesce = self.coalesce_bytes >= self.params.ack_coalesce_bytes;
        }
        if !t.any() {
            return Out {
                verdict,
                triggers: t,
                sack: None,
            };
        }
        let seg_psn = match self.lowest_since_sack {
            Some(l) if !p.probe && !psn_lt(l, self.epsn) => l,
            _ => self.epsn,
        };
        let sack = self.build_sack(seg_psn, p);
        self.coalesce_bytes = 0;
        self.lowest_since_sack = None;
        self.counters.sacks += 1;
        Out {
            verdict,
            triggers: t,
            sack: Some(sack),
        }
    }

    fn build_sack(&self, seg_psn: u32, p: &DataPkt) -> Sack {
        let bits = self.params.sack_bits;
        let base = seg_psn & !(bits - 1) & PSN_MASK;
        let mut bitmap = vec![0u64; bits.div_ceil(64) as usize];
        for i in 0..bits {
            if self.received(psn_add(base, i)) {
                bitmap[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        Sack {
            epsn: self.epsn,
            sack_base: base,
            bitmap,
            bytes_recvd: self.bytes_recvd,
            ooo_count: self.ooo_count,
            entropy: p.entropy,
            ecn: p.ecn,
            ts: p.ts,
            probe: p.probe,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rx() -> SackReceiver {
        SackReceiver::new(Params {
            rx_window: 64,
            sack_bits: 16,
            ack_coalesce_bytes: 4000,
            mtu: 1024,
        })
    }
    fn data(psn: u32) -> DataPkt {
        DataPkt {
            psn,
            len: 1000,
            entropy: 7,
            ecn: false,
            ts: 99,
            probe: false,
            ack_req: false,
        }
    }
    fn bit(s: &Sack, i: u32) -> bool {
        s.bitmap[(i / 64) as usize] >> (i % 64) & 1 == 1
    }

    #[test]
    fn in_order_advances_epsn_and_coalesces() {
        let mut r = rx();
        for psn in 0..3 {
            let o = r.step(&data(psn));
            assert_eq!(o.verdict, Verdict::InOrder);
            assert!(o.sack.is_none());
        }
        assert_eq!((r.epsn, r.bytes_recvd), (3, 3000));
    }

    #[test]
    fn trigger_1_coalesce_bytes() {
        let mut r = rx();
        for psn in 0..3 {
            r.step(&data(psn));
        }
        let o = r.step(&data(3));
        assert!(o.triggers.coalesce);
        let s = o.sack.unwrap();
        assert_eq!((s.epsn, s.bytes_recvd, s.sack_base), (4, 4000, 0));
        assert_eq!(r.coalesce_bytes, 0);
    }

    #[test]
    fn trigger_2_head_fill_advances_over_held_run() {
        let mut r = rx();
        r.step(&data(1));
        r.step(&data(2));
        assert_eq!(r.ooo_count, 2);
        let o = r.step(&data(0));
        assert!(o.triggers.head_fill);
        assert_eq!(r.epsn, 3);
        assert_eq!(r.ooo_count, 0);
        assert_eq!(o.sack.unwrap().epsn, 3);
    }

    #[test]
    fn in_order_without_held_packets_does_not_trigger_head_fill() {
        let mut r = rx();
        assert!(!r.step(&data(0)).triggers.head_fill);
    }

    #[test]
    fn trigger_3_probe_answers_with_epsn_segment() {
        let mut r = rx();
        r.step(&data(0));
        r.step(&data(20)); // lowest since last SACK = 20, but a probe asks for EPSN's segment
        let o = r.step(&DataPkt {
            probe: true,
            len: 0,
            psn: 0,
            ..data(0)
        });
        assert_eq!(o.verdict, Verdict::Probe);
        let s = o.sack.unwrap();
        assert!(s.probe);
        assert_eq!((s.epsn, s.sack_base), (1, 0));
        assert!(bit(&s, 0) && !bit(&s, 1));
    }

    #[test]
    fn trigger_4_ack_request() {
        let mut r = rx();
        let o = r.step(&DataPkt {
            ack_req: true,
            ..data(0)
        });
        assert!(o.triggers.ack_req && o.sack.is_some());
    }

    #[test]
    fn trigger_5_ecn_mark_echoes_entropy_and_timestamp() {
        let mut r = rx();
        let o = r.step(&DataPkt {
            ecn: true,
            entropy: 42,
            ts: 1234,
            ..data(0)
        });
        let s = o.sack.unwrap();
        assert!(s.ecn);
        assert_eq!((s.entropy, s.ts), (42, 1234));
    }

    #[test]
    fn segment_holds_lowest_psn_since_last_sack() {
        let mut r = rx();
        r.step(&data(40));
        r.step(&data(35));
        let s = r
            .step(&DataPkt {
                ack_req: true,
                ..data(50)
            })
            .sack
            .unwrap();
        assert_eq!(s.sack_base, 32);
        assert!(bit(&s, 3) && bit(&s, 8) && !bit(&s, 0));
        assert_eq!(s.ooo_count, 3);
    }

    #[test]
    fn segment_falls_back_to_epsn_when_lowest_is_a_duplicate() {
        let mut r = rx();
        for psn in 0..20 {
            r.step(&data(psn));
        }
        r.coalesce_bytes = 0;
        let s = r
            .step(&DataPkt {
                ack_req: true,
                ..data(3)
            })
            .sack
            .unwrap();
        assert_eq!(s.sack_base, 16);
        assert!(bit(&s, 3) && !bit(&s, 4)); // 19 received, 20 = EPSN not
    }

    #[test]
    fn duplicate_below_epsn_not_counted_in_bytes() {
        let mut r = rx();
        r.step(&data(0));
        let o = r.step(&data(0));
        assert_eq!(o.verdict, Verdict::Duplicate);
        assert_eq!(r.bytes_recvd, 1000);
        assert_eq!(r.counters.duplicates, 1);
    }

    #[test]
    fn duplicate_of_held_packet_not_counted() {
        let mut r = rx();
        r.step(&data(5));
        assert_eq!(r.step(&data(5)).verdict, Verdict::Duplicate);
        assert_eq!((r.bytes_recvd, r.ooo_count), (1000, 1));
    }

    #[test]
    fn out_of_window_dropped_without_state_change() {
        let mut r = rx();
        r.step(&data(3));
        let before = r.clone();
        let o = r.step(&DataPkt {
            ack_req: true,
            ecn: true,
            ..data(64)
        });
        assert_eq!(o.verdict, Verdict::OutOfWindow);
        assert!(o.sack.is_none());
        r.counters.out_of_window = 0;
        assert_eq!(r, before);
    }

    #[test]
    fn malformed_dropped_without_state_change() {
        let mut r = rx();
        r.step(&data(3));
        let before = r.clone();
        for bad in [
            DataPkt {
                psn: 1 << 24,
                ..data(0)
            },
            DataPkt { len: 0, ..data(0) },
            DataPkt {
                len: 1025,
                ..data(0)
            },
        ] {
            assert_eq!(r.step(&bad).verdict, Verdict::Malformed);
        }
        r.counters.malformed = 0;
        assert_eq!(r, before);
    }

    /// EPSN 100 (window 64, segments of 16): PSNs at distance 2^23 - 1, 2^23 and 2^23 + 1.
    /// 100 + 2^23 - 1 = 8_388_707 is ahead and past the window: dropped. 100 + 2^23 =
    /// 8_388_708 is below EPSN (100 - 8_388_708 = 2^23 mod 2^24): a duplicate, and the SACK it
    /// asks for carries EPSN's segment (base 96), not its own (8_388_704). 100 + 2^23 + 1 is
    /// below by 2^23 - 1: a duplicate too.
    #[test]
    fn psns_half_the_space_from_epsn() {
        let mut r = rx();
        r.epsn = 100;
        let before = r.clone();
        let o = r.step(&DataPkt {
            ack_req: true,
            ..data(8_388_707)
        });
        assert_eq!(o.verdict, Verdict::OutOfWindow);
        assert!(o.sack.is_none());
        let o = r.step(&DataPkt {
            ack_req: true,
            ..data(8_388_708)
        });
        assert_eq!(o.verdict, Verdict::Duplicate);
        let s = o.sack.unwrap();
        assert_eq!((s.epsn, s.sack_base), (100, 96));
        // PSNs 96..=99 are below EPSN (received), 100..=111 not yet.
        assert_eq!(s.bitmap[0], 0b1111);
        let o = r.step(&DataPkt {
            ack_req: true,
            ..data(8_388_709)
        });
        assert_eq!(o.verdict, Verdict::Duplicate);
        assert_eq!(o.sack.unwrap().sack_base, 96);
        assert_eq!((r.epsn, r.bytes_recvd, r.ooo_count), (100, 0, 0));
        assert_eq!(r.bitmap, before.bitmap);
        // Below EPSN means received: exactly 2^23 below included, 2^23 - 1 ahead not.
        assert!(r.received(8_388_708) && r.received(8_388_709));
        assert!(!r.received(8_388_707));
    }

    /// The lowest PSN since the last SACK: held 120 (segment 112), then the duplicate
    /// 120 + 2^23 = 8_388_728, below 120 by 2^23 (and below EPSN 100 by 2^23 - 20). It
    /// replaces 120 as the lowest, so the SACK falls back to EPSN's segment (base 96).
    #[test]
    fn a_psn_half_the_space_below_the_lowest_replaces_it() {
        let mut r = rx();
        r.epsn = 100;
        assert_eq!(r.step(&data(120)).verdict, Verdict::OutOfOrder);
        let o = r.step(&DataPkt {
            ack_req: true,
            ..data(8_388_728)
        });
        assert_eq!(o.verdict, Verdict::Duplicate);
        assert_eq!(o.sack.unwrap().sack_base, 96);
        // Without the duplicate the held packet's segment is sent.
        let mut r = rx();
        r.epsn = 100;
        r.step(&data(120));
        let s = r
            .step(&DataPkt {
                ack_req: true,
                ..data(121)
            })
            .sack
            .unwrap();
        assert_eq!((s.sack_base, s.bitmap[0]), (112, 0b11 << 8));
    }

    #[test]
    fn psn_wraps_at_2_pow_24() {
        let mut r = rx();
        r.epsn = PSN_MASK - 1;
        r.step(&data(1)); // beyond the wrap, held
        r.step(&data(0));
        r.step(&data(PSN_MASK - 1));
        let o = r.step(&data(PSN_MASK));
        assert_eq!(o.verdict, Verdict::InOrder);
        assert_eq!(r.epsn, 2);
        assert_eq!(r.ooo_count, 0);
        assert_eq!(r.step(&data(PSN_MASK)).verdict, Verdict::Duplicate);
    }
}
