//! Entropy bitmap: adaptive packet spray (docs/spec/strack.md, section 1; Algorithm 3).
//!
//! One step may carry an ACK's ECN feedback and a request to choose the entropy of the packet
//! being sent. Order inside a step (DECISION, so the RTL has one answer): the periodic reset,
//! then the ACK update, then the choice.
//!
//! - A set bit means "this entropy came back ECN-marked: avoid it" (spec DECISION, bit sense).
//! - `next_path` is an entropy plus a valid bit (spec DECISION).
//! - The scan starts at `s = rr + 1`, wrapping to 0 when `s >= paths` (spec DECISION), clears the
//!   first set bit it skips, and returns `s` when every bit is set.
//! - An ACK whose entropy is `>= max_paths` is malformed: counted, and it changes nothing.
//!
//! [`EntropyBitmap::reset`] is the block's synchronous reset (`s_reset`, not the periodic reset
//! above): the state returns to what [`EntropyBitmap::new`] gives, the malformed count too.

use bitvec::prelude::*;
use serde::{Deserialize, Serialize};
use strack_config::Config;

use crate::seq::elapsed;

/// Parameters of the block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    pub max_paths: u32,
    /// 0 = never.
    pub reset_interval_ns: u32,
}

impl Params {
    pub fn from_config(cfg: &Config) -> Self {
        Params {
            max_paths: cfg.entropy_bitmap.max_paths,
            reset_interval_ns: cfg.bitmap_reset_interval_ns(),
        }
    }
}

/// ECN feedback echoed by an ACK (Algorithm 3 `update_ecn_bitmap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EcnFeedback {
    pub entropy: u32,
    pub ecn: bool,
}

/// A request to choose an entropy for the packet being sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChooseRequest {
    /// `floor(cwnd / MTU)`; the scan covers `max(8, min(max_paths, 2 * cwnd_packets))` entropies.
    pub cwnd_packets: u32,
}

/// One step's input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct In {
    /// Time, ns (wrapping 32-bit).
    pub now: u32,
    #[serde(default)]
    pub ack: Option<EcnFeedback>,
    #[serde(default)]
    pub choose: Option<ChooseRequest>,
}

/// How the entropy was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The last clean ACK's entropy (`next_path` was valid).
    NextPath,
    /// The round-robin scan found a clear bit.
    Scan,
    /// Every scanned bit was set; the scan returned to `s`.
    AllSet,
}

/// The chosen entropy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub entropy: u32,
    pub source: Source,
    /// The bit the scan cleared ("one packet only clears one bit"), if any.
    pub cleared: Option<u32>,
    /// `paths` used by the scan (`None` when `next_path` was used).
    pub paths: Option<u32>,
}

/// One step's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Out {
    pub choice: Option<Choice>,
    /// The periodic reset cleared the bitmap this step.
    pub reset: bool,
    /// The ACK was malformed (entropy out of range) and ignored.
    pub ack_ignored: bool,
}

/// The block's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntropyBitmap {
    params: Params,
    /// Bit `e` set: entropy `e` came back ECN-marked.
    pub bitmap: BitVec<u64, Lsb0>,
    /// The last entropy chosen.
    pub rr: u32,
    /// An entropy that came back clean, to be reused next.
    pub next_path: Option<u32>,
    /// Time of the last periodic reset.
    pub last_reset_ts: u32,
    /// Malformed ACKs seen.
    pub bad_entropy_count: u64,
}

impl EntropyBitmap {
    pub fn new(params: Params) -> Self {
        EntropyBitmap {
            bitmap: bitvec![u64, Lsb0; 0; params.max_paths as usize],
            params,
            rr: 0,
            next_path: None,
            last_reset_ts: 0,
            bad_entropy_count: 0,
        }
    }

    pub fn from_config(cfg: &Config) -> Self {
        Self::new(Params::from_config(cfg))
    }

    /// The synchronous reset: the power-on state (every bit clear, `rr = 0`, no `next_path`,
    /// the last periodic reset at time 0, no malformed ACK counted).
    pub fn reset(&mut self) {
        *self = Self::new(self.params.clone());
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// `max(8, min(max_paths, 2 * cwnd_packets))` (Algorithm 3 lines 17-18).
    pub fn paths(&self, cwnd_packets: u32) -> u32 {
        let twice = (cwnd_packets as u64) * 2;
        twice.min(self.params.max_paths as u64).max(8) as u32
    }

    pub fn step(&mut self, input: &In) -> Out {
        let mut out = Out::default();

        if self.params.reset_interval_ns != 0
            && elapsed(input.now, self.last_reset_ts) >= self.params.reset_interval_ns
        {
            self.bitmap.fill(false);
            self.last_reset_ts = input.now;
            out.reset = true;
        }

        if let Some(ack) = input.ack {
            if ack.entropy >= self.params.max_paths {
                self.bad_entropy_count += 1;
                out.ack_ignored = true;
            } else if ack.ecn {
                self.bitmap.set(ack.entropy as usize, true);
                self.next_path = None;
            } else {
                self.bitmap.set(ack.entropy as usize, false);
                self.next_path = Some(ack.entropy);
            }
        }

        if let Some(req) = input.choose {
            out.choice = Some(self.choose(req.cwnd_packets));
        }
        out
    }

    fn choose(&mut self, cwnd_packets: u32) -> Choice {
        if let Some(p) = self.next_path.take() {
            self.rr = p;
            return Choice {
                entropy: p,
                source: Source::NextPath,
                cleared: None,
                paths: None,
            };
        }
        let paths = self.paths(cwnd_packets);
        let next = |i: u32| if i + 1 >= paths { 0 } else { i + 1 };
        let s = next(self.rr);
        let mut i = s;
        let mut cleared = None;
        while self.bitmap[i as usize] {
            if cleared.is_none() {
                self.bitmap.set(i as usize, false);
                cleared = Some(i);
            }
            i = next(i);
        }
        self.rr = i;
        let source = if cleared == Some(i) {
            Source::AllSet
        } else {
            Source::Scan
        };
        Choice {
            entropy: i,
            source,
            cleared,
            paths: Some(paths),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eb(max_paths: u32) -> EntropyBitmap {
        EntropyBitmap::new(Params {
            max_paths,
            reset_interval_ns: 0,
        })
    }
    fn ack(e: u32, ecn: bool) -> In {
        In {
            now: 0,
            ack: Some(EcnFeedback { entropy: e, ecn }),
            choose: None,
        }
    }
    fn choose(cwnd_packets: u32) -> In {
        In {
            now: 0,
            ack: None,
            choose: Some(ChooseRequest { cwnd_packets }),
        }
    }
    fn pick(m: &mut EntropyBitmap, cwnd_packets: u32) -> Choice {
        m.step(&choose(cwnd_packets)).choice.unwrap()
    }

    #[test]
    fn ecn_ack_sets_bit_and_invalidates_next_path() {
        let mut m = eb(16);
        m.step(&ack(3, false));
        assert_eq!(m.next_path, Some(3));
        m.step(&ack(5, true));
        assert!(m.bitmap[5]);
        assert_eq!(m.next_path, None);
    }

    #[test]
    fn clean_ack_clears_bit_and_sets_next_path() {
        let mut m = eb(16);
        m.step(&ack(5, true));
        m.step(&ack(5, false));
        assert!(!m.bitmap[5]);
        assert_eq!(m.next_path, Some(5));
    }

    #[test]
    fn next_path_is_used_once_and_becomes_rr() {
        let mut m = eb(16);
        m.step(&ack(0, false)); // entropy 0 works: the paper's -(path_id) could not mark it
        let c = pick(&mut m, 100);
        assert_eq!((c.entropy, c.source), (0, Source::NextPath));
        assert_eq!(m.rr, 0);
        let c = pick(&mut m, 100);
        assert_eq!((c.entropy, c.source), (1, Source::Scan));
    }

    #[test]
    fn scan_round_robin_without_marks() {
        let mut m = eb(256);
        let got: Vec<u32> = (0..10).map(|_| pick(&mut m, 4).entropy).collect();
        // paths = max(8, 2*4) = 8: 1..7 then wrap to 0
        assert_eq!(got, vec![1, 2, 3, 4, 5, 6, 7, 0, 1, 2]);
    }

    #[test]
    fn scan_skips_marked_and_clears_only_first_skipped() {
        let mut m = eb(16);
        for e in [1, 2, 3] {
            m.step(&ack(e, true));
        }
        let c = pick(&mut m, 8);
        assert_eq!(c.entropy, 4);
        assert_eq!(c.cleared, Some(1));
        assert!(!m.bitmap[1] && m.bitmap[2] && m.bitmap[3]);
    }

    #[test]
    fn scan_all_set_returns_start() {
        let mut m = eb(8);
        for e in 0..8 {
            m.step(&ack(e, true));
        }
        let c = pick(&mut m, 1);
        assert_eq!(
            (c.entropy, c.source, c.cleared),
            (1, Source::AllSet, Some(1))
        );
        assert_eq!(m.bitmap.count_ones(), 7);
    }

    #[test]
    fn scan_wraps_when_paths_shrinks_below_rr() {
        let mut m = eb(256);
        for _ in 0..100 {
            pick(&mut m, 128);
        }
        assert_eq!(m.rr, 100);
        let c = pick(&mut m, 4); // paths = 8 <= rr+1: wrap to 0
        assert_eq!(c.entropy, 0);
        assert_eq!(c.paths, Some(8));
    }

    #[test]
    fn paths_is_clamped_between_8_and_max_paths() {
        let m = eb(64);
        assert_eq!(m.paths(0), 8);
        assert_eq!(m.paths(3), 8);
        assert_eq!(m.paths(10), 20);
        assert_eq!(m.paths(u32::MAX), 64);
    }

    #[test]
    fn out_of_range_entropy_is_ignored_and_counted() {
        let mut m = eb(16);
        m.step(&ack(2, false));
        let before = m.clone();
        let o = m.step(&ack(16, true));
        assert!(o.ack_ignored);
        assert_eq!(m.bad_entropy_count, 1);
        m.bad_entropy_count = 0;
        assert_eq!(m, before);
    }

    #[test]
    fn periodic_reset_clears_bitmap_before_ack() {
        let mut m = EntropyBitmap::new(Params {
            max_paths: 16,
            reset_interval_ns: 1000,
        });
        m.step(&In {
            now: 10,
            ack: Some(EcnFeedback {
                entropy: 4,
                ecn: true,
            }),
            choose: None,
        });
        assert!(m.bitmap[4]);
        let o = m.step(&In {
            now: 1000,
            ack: Some(EcnFeedback {
                entropy: 6,
                ecn: true,
            }),
            choose: None,
        });
        assert!(o.reset);
        assert!(
            !m.bitmap[4] && m.bitmap[6],
            "reset happens first, then the ACK"
        );
        assert_eq!(m.last_reset_ts, 1000);
    }

    #[test]
    fn reset_interval_zero_never_resets() {
        let mut m = eb(16);
        m.step(&ack(4, true));
        let o = m.step(&In {
            now: u32::MAX,
            ack: None,
            choose: None,
        });
        assert!(!o.reset && m.bitmap[4]);
    }

    /// After a reset the unit is a fresh one: the same state, and the same answers from then on
    /// (the periodic reset's timer restarts at time 0 too).
    #[test]
    fn reset_returns_to_the_power_on_state() {
        let p = Params {
            max_paths: 16,
            reset_interval_ns: 1000,
        };
        let mut m = EntropyBitmap::new(p.clone());
        m.step(&In {
            now: 700,
            ..ack(4, true)
        });
        m.step(&ack(3, false));
        m.step(&ack(99, false));
        pick(&mut m, 8);
        pick(&mut m, 8);
        assert_ne!(m, EntropyBitmap::new(p.clone()));
        m.reset();
        let mut fresh = EntropyBitmap::new(p);
        assert_eq!(m, fresh);
        for now in [500, 999, 1000, 1500] {
            let i = In { now, ..choose(3) };
            assert_eq!(m.step(&i), fresh.step(&i));
        }
    }

    #[test]
    fn ack_then_choose_in_same_step_uses_the_ack() {
        let mut m = eb(16);
        let o = m.step(&In {
            now: 0,
            ack: Some(EcnFeedback {
                entropy: 9,
                ecn: false,
            }),
            choose: Some(ChooseRequest { cwnd_packets: 1 }),
        });
        assert_eq!(o.choice.unwrap().entropy, 9);
    }
}
