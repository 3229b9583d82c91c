//! Congestion-window unit (docs/spec/strack.md, section 2: Algorithms 1 lines 5-8, 2 and 4,
//! Table 1), in the fixed point the RTL computes. [`reference`] beside it is the paper in `f64`.
//!
//! Formats (all unsigned; `cf = fixed_point.cwnd_frac_bits`, `df = fixed_point.delay_frac_bits`,
//! `R = fixed_point.recip_index_bits`; see `docs/golden-model.md`):
//!
//! | value | format |
//! |---|---|
//! | `cwnd_q` | 32-bit, `cf` fraction bits, bytes |
//! | `avg_delay_q` | 32-bit, `df` fraction bits, ns |
//! | `base_rtt`, `delay`, `rtt` | 24-bit integer ns |
//! | `ratio` = `acked/w` | 32-bit Q16.16, never saturates (below `2^32`: `acked < 2^24`, `w >= MTU >= 256`) |
//! | `beta*MTU`, `eta*MTU` | 32-bit, `cf` fraction bits, bytes |
//! | `alpha*MTU` | 32-bit Q16.16 bytes/ns |
//! | `gamma`, `1-gamma`, decrease factor | Q0.16 (factor 17 bits, in [0.5, 1]) |
//! | `rx_count`, `achieved_bdp` | 32-bit integer bytes, saturating |
//!
//! Per ACK, in this order:
//! 1. `base_rtt = min(base_rtt, rtt)`, `delay = rtt - base_rtt` (Algorithm 1 lines 5-8).
//! 2. achievedBDP (Algorithm 2), once per ACK (DECISION: Algorithm 4 line 2 calls it a second
//!    time; the spec counts it once), using the updated `base_rtt`.
//! 3. `can_decrease`, `can_fairness` from the timestamps (Algorithm 4 lines 3-4).
//! 4. `avg_q += (delay_q >> s) - (avg_q >> s)`, written as `avg_q - (avg_q >> s) + (delay_q >> s)`
//!    so it never goes negative (`ewma = 2^-s`).
//! 5. The increase / decrease chain (Algorithm 4 lines 6-18) as [`Branch`].
//! 6. Fairness: `cwnd += eta*MTU` at most once per base RTT (lines 19-22).
//!
//! Divisions use [`crate::fixed::div_approx`]: `ratio = acked/w` and `gamma*tq/avg_delay`.
//! The multiplicative decrease is rewritten without subtraction:
//! `1 - gamma*(avg - tq)/avg = (1 - gamma) + (gamma*tq)/avg`, clamped to `[0.5, 1]`
//! (`gamma*tq` is one constant, so one product follows the reciprocal).
//!
//! **The window in flight** (DECISION, so the unit takes one ACK per clock at 125 MHz): the
//! RTL is a [`CWND_LATENCY`]-stage pipeline (15) whose only one-cycle loop is the final add to the window. The
//! amounts of the increases (a), (b) and of the multiplicative decrease are computed from `w`,
//! the window as the pipeline holds it when this ACK reads it (stage 2): the current window
//! less the effect of the ACKs still ahead of it in the pipeline ([`In`] does not carry their
//! number; the caller gives it to [`CwndUnit::step_pipelined`] as `ahead`, 0 to
//! [`CWND_MAX_AHEAD`], i.e. the ACKs accepted in the 13 cycles before this one). Then
//! (a), (b) `cwnd += K * acked / w` and the decrease `cwnd -= w * (1 - factor)`, floored at
//! `MTU`. With `ahead = 0` (ACKs at least 14 cycles apart, which is every ACK of a window
//! below about 14 packets) `w` is the current window and this is the paper exactly; only at
//! back-to-back ACKs, where one ACK moves a large window little, is `w` up to 13 ACKs old.
//! A decrease follows the previous one by more than a base RTT, so `w` predates no cut unless
//! the base RTT is shorter than the pipeline (14 cycles, 112 ns at 125 MHz); the co-sim's
//! compressed time does reach that case (a decrease then takes the share of the window before
//! the cut, floored at `MTU`), and the model and the RTL agree on it.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use strack_config::{Config, CwndConstants, ACKED_BITS, COEF_FRAC_BITS, RTT_BITS};
pub use strack_config::{CWND_LATENCY, CWND_MAX_AHEAD};

use crate::fixed::div_approx;
use crate::seq::elapsed;

/// Largest RTT (and initial `base_rtt`): 2^24 - 1 ns.
pub const RTT_MAX: u32 = (1 << RTT_BITS) - 1;
/// Largest `acked_bytes` of one ACK.
pub const ACKED_MAX: u32 = (1 << ACKED_BITS) - 1;
const ONE_Q16: u64 = 1 << COEF_FRAC_BITS;

/// Which of the last [`CWND_MAX_AHEAD`] cycles the unit's pipeline advanced an ACK into it:
/// the ACKs still ahead of the next one (`ahead` of [`CwndUnit::step_pipelined`]). The callers
/// that run the unit at the clock (the co-sim, the NIC model) keep one and tick it every cycle
/// the pipeline advances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InFlight(VecDeque<bool>);

impl Default for InFlight {
    fn default() -> Self {
        InFlight(VecDeque::from(vec![false; CWND_MAX_AHEAD]))
    }
}

impl InFlight {
    /// ACKs taken in the last `CWND_MAX_AHEAD` advancing cycles.
    pub fn ahead(&self) -> usize {
        self.0.iter().filter(|&&b| b).count()
    }
    /// One advancing cycle: `took` an ACK or not.
    pub fn tick(&mut self, took: bool) {
        self.0.push_front(took);
        self.0.truncate(CWND_MAX_AHEAD);
    }
}

/// One ACK as the cwnd unit sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct In {
    /// Time, ns (wrapping 32-bit).
    pub now: u32,
    /// RTT sample, ns (`now - echoed timestamp`); `> RTT_MAX` is malformed.
    pub rtt: u32,
    /// The ACK echoes an ECN mark.
    pub ecn: bool,
    /// Bytes this ACK newly acknowledges; `> ACKED_MAX` is malformed.
    pub acked_bytes: u32,
    /// The ACK answers a probe (its bytes do not count towards achievedBDP).
    #[serde(default)]
    pub is_probe_ack: bool,
}

/// Which arm of Algorithm 4 ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Branch {
    /// (a) no ECN, `delay > target_Qhigh`: `cwnd += beta*MTU*acked/cwnd` (line 7).
    AdditiveIncrease,
    /// (b) no ECN, `delay < target_Qdelay`: `cwnd += alpha*(tq-delay)*MTU*acked/cwnd` (line 9).
    ProportionalIncrease,
    /// (c) `delay > target_Qhigh` and `achievedBDP < max_cwnd/8`: `cwnd = achievedBDP` (line 12).
    AchievedBdpCut,
    /// (c) `delay > target_Qdelay`: multiplicative decrease (line 15).
    MultiplicativeDecrease,
    /// No arm changed the window (ECN with low delay, or a decrease not allowed yet).
    Hold,
    /// `rtt` or `acked_bytes` out of range: the ACK was ignored and counted.
    Malformed,
}

/// The unit's outputs after one ACK.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Out {
    /// The window, cwnd format (`cwnd_frac_bits` fraction bits).
    pub cwnd_q: u32,
    /// `cwnd_q >> cwnd_frac_bits`, bytes.
    pub cwnd_bytes: u32,
    pub branch: Branch,
    /// The fairness increase was applied.
    pub fairness: bool,
    pub achieved_bdp: u32,
    pub base_rtt: u32,
    pub avg_delay_q: u32,
}

/// State of the unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CwndUnit {
    k: CwndConstants,
    pub cwnd_q: u32,
    pub base_rtt: u32,
    pub avg_delay_q: u32,
    pub last_decrease_ts: u32,
    pub last_fairness_ts: u32,
    pub rx_count: u32,
    pub rxcount_clear_ts: u32,
    pub achieved_bdp: u32,
    pub malformed_count: u64,
    /// The windows after the last `CWND_MAX_AHEAD + 1` ACKs, newest first (the current window
    /// first): `history[ahead]` is the window an ACK with `ahead` ACKs in flight reads.
    pub history: VecDeque<u32>,
}

impl CwndUnit {
    pub fn new(k: CwndConstants) -> Self {
        CwndUnit {
            cwnd_q: k.max_cwnd_q,
            base_rtt: RTT_MAX,
            avg_delay_q: 0,
            last_decrease_ts: 0,
            last_fairness_ts: 0,
            rx_count: 0,
            rxcount_clear_ts: 0,
            achieved_bdp: 0,
            malformed_count: 0,
            history: VecDeque::from(vec![k.max_cwnd_q; CWND_MAX_AHEAD + 1]),
            k,
        }
    }

    /// Set the window, and the windows after the last ACKs, to `q` (a window that has been
    /// steady); for tests and scenarios that start mid-connection.
    pub fn set_cwnd_q(&mut self, q: u32) {
        self.cwnd_q = q;
        self.history.iter_mut().for_each(|h| *h = q);
    }

    /// The window an ACK with `ahead` ACKs in flight before it computes its amounts from.
    pub fn window_in_flight(&self, ahead: usize) -> u32 {
        self.history[ahead]
    }

    pub fn from_config(cfg: &Config) -> Self {
        Self::new(cfg.cwnd_constants())
    }

    /// The synchronous reset (`s_reset`): the power-on state of [`CwndUnit::new`] (the window at
    /// `max_cwnd`, `base_rtt` at [`RTT_MAX`], the timestamps, the EWMA, the byte count,
    /// achievedBDP and the malformed count at 0, the windows of the ACKs in flight forgotten).
    /// The caller's [`InFlight`] starts again too: the reset drops the ACKs in the pipeline.
    pub fn reset(&mut self) {
        *self = Self::new(self.k.clone());
    }

    pub fn constants(&self) -> &CwndConstants {
        &self.k
    }

    /// The window in bytes (integer part).
    pub fn cwnd_bytes(&self) -> u32 {
        self.cwnd_q >> self.k.cwnd_frac
    }

    /// `floor(cwnd / MTU)`.
    pub fn cwnd_packets(&self) -> u32 {
        self.cwnd_q >> (self.k.cwnd_frac + self.k.mtu_log2)
    }

    /// The unit's state as an `Out` with the arm `Hold` (no ACK ran).
    pub fn state(&self) -> Out {
        self.out(Branch::Hold, false)
    }

    fn out(&self, branch: Branch, fairness: bool) -> Out {
        Out {
            cwnd_q: self.cwnd_q,
            cwnd_bytes: self.cwnd_bytes(),
            branch,
            fairness,
            achieved_bdp: self.achieved_bdp,
            base_rtt: self.base_rtt,
            avg_delay_q: self.avg_delay_q,
        }
    }

    /// `acked / w` in Q16.16, whatever the ACK carries: no cap (spec: the formulas hold for
    /// every `acked_bytes`, `acked >= 4*cwnd` included). Shift `31 - cf - lz >= 8` since
    /// `w >= MTU >= 256`, so the ratio is below `2^24 * 2^16 / 2^8 = 2^32` (the table's entries
    /// are below `2^16`).
    fn ratio_q16(&self, acked: u32, w: u32) -> u64 {
        let k = &self.k;
        div_approx(acked as u64, w, k.recip_index_bits, 16 + k.cwnd_frac)
    }

    /// One ACK with no other ACK in flight (ACKs at least 14 cycles apart): the paper's
    /// arithmetic on the current window.
    pub fn step(&mut self, input: &In) -> Out {
        self.step_pipelined(input, 0)
    }

    /// One ACK with `ahead` ACKs (`<= CWND_MAX_AHEAD`, else clamped: the pipeline cannot hold
    /// more) still in flight before it; see the module documentation.
    pub fn step_pipelined(&mut self, input: &In, ahead: usize) -> Out {
        let w = self.history[ahead.min(CWND_MAX_AHEAD)];
        let out = self.step_from(input, w);
        self.history.push_front(self.cwnd_q);
        self.history.pop_back();
        out
    }

    fn step_from(&mut self, input: &In, w: u32) -> Out {
        if input.rtt > RTT_MAX || input.acked_bytes > ACKED_MAX {
            self.malformed_count += 1;
            return self.out(Branch::Malformed, false);
        }
        let k = self.k.clone();
        let now = input.now;

        // 1. base RTT and queuing delay
        self.base_rtt = self.base_rtt.min(input.rtt);
        let delay = input.rtt - self.base_rtt;

        // 2. achievedBDP (Algorithm 2)
        let can_clear = elapsed(now, self.rxcount_clear_ts) > self.base_rtt + k.tq_ns;
        let add = if input.is_probe_ack {
            0
        } else {
            input.acked_bytes
        };
        self.rx_count = self.rx_count.saturating_add(add);
        if can_clear {
            self.achieved_bdp = self.rx_count;
            self.rx_count = 0;
            self.rxcount_clear_ts = now;
        }

        // 3. timers
        let can_decrease = elapsed(now, self.last_decrease_ts) > self.base_rtt;
        let can_fairness = elapsed(now, self.last_fairness_ts) > self.base_rtt;

        // 4. EWMA of the delay
        let s = k.ewma_shift;
        let delay_q = delay << k.delay_frac;
        self.avg_delay_q = self.avg_delay_q - (self.avg_delay_q >> s) + (delay_q >> s);

        // 5. Algorithm 4 lines 6-18; the amounts from the window in flight `w`
        let cwnd = self.cwnd_q as u64;
        let max = k.max_cwnd_q as u64;
        let mtu = k.mtu_q as u64;
        let branch = if !input.ecn && delay > k.tq_high_ns {
            let inc = (k.beta_mtu_q as u64 * self.ratio_q16(input.acked_bytes, w)) >> 16;
            self.cwnd_q = (cwnd + inc).min(max) as u32;
            Branch::AdditiveIncrease
        } else if !input.ecn && delay < k.tq_ns {
            // bytes in cwnd format: alpha*MTU (Q.16) * (tq - delay) >> (16 - cf)
            let gain = (k.alpha_mtu_q as u64 * (k.tq_ns - delay) as u64) >> (16 - k.cwnd_frac);
            let inc = (gain * self.ratio_q16(input.acked_bytes, w)) >> 16;
            self.cwnd_q = (cwnd + inc).min(max) as u32;
            Branch::ProportionalIncrease
        } else if can_decrease && self.avg_delay_q as u64 > (k.tq_ns as u64) << k.delay_frac {
            // exact: 8 * achievedBDP < max_cwnd (not against a rounded max_cwnd / 8)
            if delay > k.tq_high_ns && 8 * (self.achieved_bdp as u64) < k.max_cwnd_bytes as u64 {
                self.cwnd_q = ((self.achieved_bdp as u64) << k.cwnd_frac).max(mtu) as u32;
                self.last_decrease_ts = now;
                Branch::AchievedBdpCut
            } else if delay > k.tq_ns {
                // gamma*tq/avg in Q0.16: shift 47 - lz - df >= 22 because avg_q > tq_q >= 100 << df
                let g_tq_over_avg = div_approx(
                    k.gamma_q16 as u64 * k.tq_ns as u64,
                    self.avg_delay_q,
                    k.recip_index_bits,
                    k.delay_frac,
                );
                let factor =
                    (k.one_minus_gamma_q16 as u64 + g_tq_over_avg).clamp(ONE_Q16 / 2, ONE_Q16);
                let dec = w as u64 - ((w as u64 * factor) >> 16);
                self.cwnd_q = cwnd.saturating_sub(dec).max(mtu) as u32;
                self.last_decrease_ts = now;
                Branch::MultiplicativeDecrease
            } else {
                Branch::Hold
            }
        } else {
            Branch::Hold
        };

        // 6. fairness
        if can_fairness {
            self.cwnd_q = (self.cwnd_q as u64 + k.eta_mtu_q as u64).min(max) as u32;
            self.last_fairness_ts = now;
        }
        self.out(branch, can_fairness)
    }
}

/// The paper's equations in `f64`, transcribed directly, with the spec's decisions on units
/// (bytes, coalesced ACKs) and order. Used only to bound the fixed-point error.
pub mod reference {
    use super::{Branch, In, RTT_MAX};
    use strack_config::Config;

    #[derive(Debug, Clone, PartialEq)]
    pub struct Params {
        pub mtu: f64,
        pub max_cwnd: f64,
        pub tq: f64,
        pub tq_high: f64,
        pub ewma: f64,
        pub gamma: f64,
        pub beta: f64,
        pub eta: f64,
        pub alpha: f64,
    }

    impl Params {
        pub fn from_config(cfg: &Config) -> Self {
            Params {
                mtu: cfg.network.mtu_bytes as f64,
                max_cwnd: cfg.max_cwnd_bytes() as f64,
                tq: cfg.target_qdelay_ns() as f64,
                tq_high: cfg.target_qhigh_ns() as f64,
                ewma: cfg.cwnd_unit.ewma,
                gamma: cfg.cwnd_unit.gamma,
                beta: cfg.beta(),
                eta: cfg.eta(),
                alpha: cfg.alpha_per_ns(),
            }
        }
    }

    #[derive(Debug, Clone, PartialEq)]
    pub struct CwndUnitF64 {
        pub p: Params,
        pub cwnd: f64,
        pub base_rtt: f64,
        pub avg_delay: f64,
        pub last_decrease_ts: u32,
        pub last_fairness_ts: u32,
        pub rx_count: f64,
        pub rxcount_clear_ts: u32,
        pub achieved_bdp: f64,
    }

    impl CwndUnitF64 {
        pub fn new(p: Params) -> Self {
            CwndUnitF64 {
                cwnd: p.max_cwnd,
                base_rtt: RTT_MAX as f64,
                avg_delay: 0.0,
                last_decrease_ts: 0,
                last_fairness_ts: 0,
                rx_count: 0.0,
                rxcount_clear_ts: 0,
                achieved_bdp: 0.0,
                p,
            }
        }

        /// One ACK, the paper's equations.
        pub fn step(&mut self, a: &In) -> Branch {
            self.step_from(a, self.cwnd)
        }

        /// One ACK with the amounts computed from the window `w` (the fixed-point unit's
        /// window in flight; `w = cwnd` is the paper): `cwnd += K*acked/w`, `cwnd -= w*(1-f)`.
        pub fn step_from(&mut self, a: &In, w: f64) -> Branch {
            let p = self.p.clone();
            let now = a.now;
            let since = |t: u32| now.wrapping_sub(t) as f64;
            let rtt = a.rtt as f64;
            if rtt < self.base_rtt {
                self.base_rtt = rtt;
            }
            let delay = rtt - self.base_rtt;
            let can_clear = since(self.rxcount_clear_ts) > self.base_rtt + p.tq;
            self.rx_count += if a.is_probe_ack {
                0.0
            } else {
                a.acked_bytes as f64
            };
            if can_clear {
                self.achieved_bdp = self.rx_count;
                self.rx_count = 0.0;
                self.rxcount_clear_ts = now;
            }
            let can_decrease = since(self.last_decrease_ts) > self.base_rtt;
            let can_fairness = since(self.last_fairness_ts) > self.base_rtt;
            self.avg_delay = self.avg_delay * (1.0 - p.ewma) + p.ewma * delay;
            let acked = a.acked_bytes as f64;
            let branch = if !a.ecn && delay > p.tq_high {
                self.cwnd += p.beta * p.mtu * acked / w;
                Branch::AdditiveIncrease
            } else if !a.ecn && delay < p.tq {
                self.cwnd += p.alpha * (p.tq - delay) * p.mtu * acked / w;
                Branch::ProportionalIncrease
            } else if can_decrease && self.avg_delay > p.tq {
                if delay > p.tq_high && 8.0 * self.achieved_bdp < p.max_cwnd {
                    self.cwnd = self.achieved_bdp;
                    self.last_decrease_ts = now;
                    Branch::AchievedBdpCut
                } else if delay > p.tq {
                    let f = (1.0 - p.gamma * (self.avg_delay - p.tq) / self.avg_delay).max(0.5);
                    self.cwnd -= w * (1.0 - f);
                    self.last_decrease_ts = now;
                    Branch::MultiplicativeDecrease
                } else {
                    Branch::Hold
                }
            } else {
                Branch::Hold
            };
            self.cwnd = self.cwnd.clamp(p.mtu, p.max_cwnd);
            if can_fairness {
                self.cwnd = (self.cwnd + p.eta * p.mtu).min(p.max_cwnd);
                self.last_fairness_ts = now;
            }
            branch
        }
    }
}

/// How far one step of the fixed-point unit can land from the f64 equations, for a config
/// (`docs/golden-model.md`, "Fixed point against f64", has the derivation term by term).
///
/// Both start from the same state (the f64 model's values set to the fixed model's) and take
/// the same ACK, whatever it carries (`acked_bytes` up to [`ACKED_MAX`], any delay, probe ACKs)
/// and whatever window in flight `w` it reads. When both take the same arm, the windows after
/// the step differ by at most [`StepErrorBound::bytes`]. They take different arms only when
/// the fixed average delay and the f64 one fall on two sides of `target_Qdelay`, which needs
/// `delay_frac_bits < log2(1/ewma)` (the EWMA's shift then drops delay bits) and the f64
/// average within `2^-delay_frac_bits` ns of the target.
pub mod bound {
    use serde::Serialize;
    use strack_config::{recip_table_entry, Config};

    use super::ACKED_MAX;

    /// The terms of the bound, bytes unless named otherwise.
    #[derive(Debug, Clone, Copy, PartialEq, Serialize)]
    pub struct StepErrorBound {
        /// The reciprocal table's largest relative error: `|T[i] * m / 2^(16+R) - 1|` over
        /// every entry `i` and every normalised value `m` in its interval.
        pub table_rel: f64,
        /// Arm (a), additive increase.
        pub additive: f64,
        /// Arm (b), proportional increase.
        pub proportional: f64,
        /// Arm (c), multiplicative decrease (the achievedBDP cut is exact: 0).
        pub decrease: f64,
        /// The fairness increase (`eta*MTU` rounded to the cwnd format).
        pub fairness: f64,
        /// The bound: the largest arm's term plus the fairness term.
        pub bytes: f64,
    }

    /// The reciprocal table's largest relative error with `r` index bits. The error of entry
    /// `i` over its interval `m` in `[2^r + i, 2^r + i + 1)` is monotonic in `m`, so its ends
    /// bound it.
    pub fn table_rel_error(r: u32) -> f64 {
        let scale = (1u64 << (16 + r)) as f64;
        (0..1u32 << r)
            .flat_map(|i| {
                let t = recip_table_entry(i, r) as f64;
                let top = ((1u64 << r) + i as u64) as f64;
                [t * top / scale - 1.0, t * (top + 1.0) / scale - 1.0]
            })
            .fold(0.0, |m: f64, e| m.max(e.abs()))
    }

    pub fn step_error_bound(cfg: &Config) -> StepErrorBound {
        let k = cfg.cwnd_constants();
        let q = 1.0 / (1u64 << k.cwnd_frac) as f64; // one LSB of the window, bytes
        let mtu = cfg.network.mtu_bytes as f64;
        let max = cfg.max_cwnd_bytes() as f64;
        let tq = cfg.target_qdelay_ns() as f64;
        let gamma = cfg.cwnd_unit.gamma;
        let eps = table_rel_error(k.recip_index_bits);
        let rel = |quantised: f64, exact: f64| (quantised - exact).abs() / exact;

        // (a) cwnd += beta*MTU * acked / w: the constant's rounding and the table's error are
        // relative; the ratio's floor costs Kq/2^16 LSB and the product's floor one LSB. Past
        // max_cwnd both clamp, so the relative part is at most that of max - MTU.
        let k_exact = cfg.beta() * mtu / q;
        let rho_a = (1.0 + rel(k.beta_mtu_q as f64, k_exact)) * (1.0 + eps) - 1.0;
        let additive = rho_a * (max - mtu) + (k.beta_mtu_q as f64 / 65536.0 + 1.0) * q;

        // (b) cwnd += alpha*(tq - delay)*MTU * acked / w: as (a), and the gain's own floor (one
        // LSB) multiplied by the largest ratio an ACK can carry (acked / MTU).
        let alpha_exact = cfg.alpha_per_ns() * mtu * 65536.0;
        let rho_b = (1.0 + rel(k.alpha_mtu_q as f64, alpha_exact)) * (1.0 + eps) - 1.0;
        let gain_max = k.alpha_mtu_q as f64 * tq / 65536.0 / q; // LSB
        let ratio_max = ACKED_MAX as f64 / mtu * 65536.0 * (1.0 + eps);
        let proportional = rho_b * (max - mtu) + ((gain_max + ratio_max) / 65536.0 + 1.0) * q;

        // (c) cwnd -= w * (1 - factor), factor = (1 - gamma) + gamma*tq/avg: gamma in Q0.16
        // (2^-17), the two averages less than one LSB apart (2^-df ns, so tq/avg moves by at
        // most 2^-df / tq), the table, the quotient's floor (2^-16); then w <= max_cwnd and
        // the product's floor (one LSB).
        let gamma_err = 1.0 / 131_072.0;
        let avg_lsb = 1.0 / (1u64 << k.delay_frac) as f64;
        let d_factor = gamma_err + gamma * avg_lsb / tq + (gamma + gamma_err) * eps + 1.0 / 65536.0;
        let decrease = max * d_factor + q;

        let fairness = (k.eta_mtu_q as f64 * q - cfg.eta() * mtu).abs();
        StepErrorBound {
            table_rel: eps,
            additive,
            proportional,
            decrease,
            fairness,
            bytes: additive.max(proportional).max(decrease) + fairness,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> CwndUnit {
        CwndUnit::from_config(&Config::default())
    }
    const BASE: u32 = 8_000;
    fn ack(now: u32, rtt: u32, ecn: bool, acked: u32) -> In {
        In {
            now,
            rtt,
            ecn,
            acked_bytes: acked,
            is_probe_ack: false,
        }
    }

    #[test]
    fn initial_window_is_max_cwnd() {
        let u = unit();
        assert_eq!(u.cwnd_bytes(), 600_000);
        assert_eq!(u.cwnd_packets(), 146);
    }

    /// After congestion moved every part of the state, a reset gives the power-on unit, which
    /// answers the next ACKs as a fresh one does.
    #[test]
    fn reset_returns_to_the_power_on_state() {
        let mut u = unit();
        for i in 0..50 {
            let rtt = if i == 0 { BASE } else { BASE + 20_000 };
            u.step_pipelined(&ack(i * 4_000, rtt, true, 1000), (i % 5) as usize);
        }
        u.step(&ack(300_000, RTT_MAX + 1, false, 0));
        assert!(u.cwnd_q < u.constants().max_cwnd_q && u.malformed_count == 1);
        u.reset();
        let mut fresh = unit();
        assert_eq!(u, fresh);
        for i in 0..5 {
            let a = ack(400_000 + i * 10, BASE + 1_000 * i, i == 2, 4096);
            assert_eq!(u.step(&a), fresh.step(&a));
        }
    }

    #[test]
    fn base_rtt_tracks_minimum_and_delay_is_excess() {
        let mut u = unit();
        u.step(&ack(10, 9_000, true, 0));
        assert_eq!(u.base_rtt, 9_000);
        u.step(&ack(20, 8_500, true, 0));
        assert_eq!(u.base_rtt, 8_500);
        u.step(&ack(30, 9_500, true, 0));
        assert_eq!(u.base_rtt, 8_500);
    }

    #[test]
    fn branch_a_additive_increase_when_clean_and_delay_above_qhigh() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.set_cwnd_q(100_000 << 8);
        let o = u.step(&ack(2, BASE + 30_000, false, 4096));
        assert_eq!(o.branch, Branch::AdditiveIncrease);
        // beta*MTU*acked/cwnd = 13.33*4096*4096/100000 = 2236.9 bytes
        let inc = (o.cwnd_q - (100_000 << 8)) as f64 / 256.0;
        assert!((inc - 2236.96).abs() / 2236.96 < 0.004, "inc {inc}");
    }

    #[test]
    fn branch_b_proportional_increase_when_clean_and_delay_below_target() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.set_cwnd_q(100_000 << 8);
        let o = u.step(&ack(2, BASE + 2_000, false, 4096));
        assert_eq!(o.branch, Branch::ProportionalIncrease);
        // alpha*(tq-delay)*MTU*acked/cwnd with alpha = 4*bdp_sf/12000
        let exact =
            4.0 * (400_000.0 / 150_000.0) / 12_000.0 * 6_000.0 * 4096.0 * 4096.0 / 100_000.0;
        let inc = (o.cwnd_q - (100_000 << 8)) as f64 / 256.0;
        assert!(
            (inc - exact).abs() / exact < 0.004,
            "inc {inc} exact {exact}"
        );
    }

    #[test]
    fn ecn_with_low_delay_holds_the_window() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.set_cwnd_q(100_000 << 8);
        let o = u.step(&ack(2, BASE + 100, true, 4096));
        assert_eq!(o.branch, Branch::Hold);
        assert_eq!(o.cwnd_q, 100_000 << 8);
    }

    #[test]
    fn branch_c_achieved_bdp_cut_when_delay_above_qhigh_and_bdp_small() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.last_fairness_ts = 8_999; // keep the fairness increase out of the figures
        u.avg_delay_q = 50_000 << 8;
        u.achieved_bdp = 20_000;
        u.rxcount_clear_ts = 5; // keep achievedBDP from being re-measured
        let o = u.step(&ack(9_000, BASE + 30_000, true, 0));
        assert_eq!(o.branch, Branch::AchievedBdpCut);
        assert_eq!(o.cwnd_bytes, 20_000);
        assert_eq!(u.last_decrease_ts, 9_000);
    }

    #[test]
    fn achieved_bdp_cut_never_goes_below_mtu() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.last_fairness_ts = 8_999; // keep the fairness increase out of the figures
        u.avg_delay_q = 50_000 << 8;
        u.achieved_bdp = 0;
        u.rxcount_clear_ts = 5;
        let o = u.step(&ack(9_000, BASE + 30_000, true, 0));
        assert_eq!(o.branch, Branch::AchievedBdpCut);
        assert_eq!(o.cwnd_bytes, 4096);
    }

    #[test]
    fn branch_c_multiplicative_decrease_by_avg_delay() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.last_fairness_ts = 8_999; // keep the fairness increase out of the figures
        u.avg_delay_q = 16_000 << 8;
        let o = u.step(&ack(9_000, BASE + 16_000, true, 0));
        assert_eq!(o.branch, Branch::MultiplicativeDecrease);
        // avg stays 16000: factor = 1 - 0.8*(16000-8000)/16000 = 0.6
        let expect = 600_000.0 * 0.6;
        assert!(
            (o.cwnd_bytes as f64 - expect).abs() / expect < 0.003,
            "{}",
            o.cwnd_bytes
        );
    }

    #[test]
    fn multiplicative_decrease_factor_floors_at_half() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.last_fairness_ts = 8_999; // keep the fairness increase out of the figures
        u.avg_delay_q = 200_000 << 8; // factor 1 - 0.8*0.96 < 0.5
        u.achieved_bdp = u32::MAX; // not the achievedBDP arm
        u.rxcount_clear_ts = 5;
        let o = u.step(&ack(9_000, BASE + 200_000, true, 0));
        assert_eq!(o.branch, Branch::MultiplicativeDecrease);
        assert_eq!(o.cwnd_q, (600_000u32 << 8) / 2);
    }

    #[test]
    fn decrease_waits_one_base_rtt_after_the_last() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.last_fairness_ts = 8_999; // keep the fairness increase out of the figures
        u.avg_delay_q = 16_000 << 8;
        assert_eq!(
            u.step(&ack(9_000, BASE + 16_000, true, 0)).branch,
            Branch::MultiplicativeDecrease
        );
        assert_eq!(
            u.step(&ack(9_500, BASE + 16_000, true, 0)).branch,
            Branch::Hold
        );
        assert_eq!(
            u.step(&ack(9_000 + BASE + 1, BASE + 16_000, true, 0))
                .branch,
            Branch::MultiplicativeDecrease
        );
    }

    #[test]
    fn delay_between_targets_with_avg_high_holds() {
        // (c) allowed, avg high, but delay <= target_Qdelay: neither sub-arm
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.last_fairness_ts = 8_999; // keep the fairness increase out of the figures
        u.avg_delay_q = 20_000 << 8;
        let o = u.step(&ack(9_000, BASE + 8_000, true, 0));
        assert_eq!(o.branch, Branch::Hold);
    }

    #[test]
    fn fairness_adds_eta_mtu_once_per_base_rtt() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.set_cwnd_q(100_000 << 8);
        let o = u.step(&ack(20_000, BASE, true, 0));
        assert!(o.fairness);
        assert_eq!(o.cwnd_q, (100_000 << 8) + u.constants().eta_mtu_q);
        let o = u.step(&ack(20_001, BASE, true, 0));
        assert!(!o.fairness);
    }

    #[test]
    fn window_is_clamped_to_max_cwnd() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        let o = u.step(&ack(30_000, BASE, false, 4096));
        assert_eq!(o.cwnd_q, u.constants().max_cwnd_q);
    }

    #[test]
    fn achieved_bdp_measures_bytes_per_interval_and_skips_probe_acks() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 1000)); // first ACK: interval elapsed since ts 0? 1 > 8000+8000 no
        assert_eq!(u.rx_count, 1000);
        u.step(&In {
            now: 2,
            rtt: BASE,
            ecn: true,
            acked_bytes: 5000,
            is_probe_ack: true,
        });
        assert_eq!(u.rx_count, 1000);
        u.step(&ack(16_001, BASE, true, 500)); // 16001 > base_rtt + tq = 16000
        assert_eq!(u.achieved_bdp, 1500);
        assert_eq!(u.rx_count, 0);
        assert_eq!(u.rxcount_clear_ts, 16_001);
    }

    #[test]
    fn malformed_ack_changes_nothing() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 100));
        let before = u.clone();
        assert_eq!(
            u.step(&ack(2, RTT_MAX + 1, false, 10)).branch,
            Branch::Malformed
        );
        assert_eq!(
            u.step(&ack(3, BASE, false, ACKED_MAX + 1)).branch,
            Branch::Malformed
        );
        assert_eq!(u.malformed_count, 2);
        u.malformed_count = 0;
        u.history = before.history.clone(); // two pipeline slots, the same window recorded
        assert_eq!(u, before);
    }

    #[test]
    fn timers_work_across_time_wrap() {
        let mut u = unit();
        u.step(&ack(u32::MAX - 100, BASE, true, 0));
        assert_eq!(u.last_fairness_ts, u32::MAX - 100);
        let o = u.step(&ack(BASE, BASE, true, 0)); // BASE + 101 ns later
        assert!(o.fairness);
    }

    /// After a cut to one MTU (4096 B), an ACK for 20480 B (five windows) with the delay above
    /// target_Qhigh: beta = 5 * 400000/150000 = 13.333, so the increase is
    /// 13.333 * 4096 * 20480 / 4096 = 273066.7 B, and the window 277162.7 B. The old cap on
    /// acked/cwnd (just below 4) gave 4096 + 4 * 54613.3 = 222549 B.
    #[test]
    fn an_ack_for_several_windows_is_not_capped() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.set_cwnd_q(4096 << 8);
        let o = u.step(&ack(2, BASE + 30_000, false, 20_480));
        assert_eq!(o.branch, Branch::AdditiveIncrease);
        let got = o.cwnd_q as f64 / 256.0;
        let exact = 4096.0 + 40.0 / 3.0 * 20_480.0;
        // the reciprocal table's error (2^-9 at w = 2^12) on the increase, and the floors
        assert!(
            (got - exact).abs() <= 273_066.7 / 512.0 + 2.0,
            "{got} vs {exact}"
        );
        assert!(got > 222_549.0 + 50_000.0);
    }

    /// The largest ACK the field carries on the smallest window: acked / w = (2^24 - 1) / 4096,
    /// and the increase, about 54613 B per window acknowledged, runs past max_cwnd: clamped.
    #[test]
    fn the_largest_ack_clamps_at_max_cwnd() {
        let mut u = unit();
        u.step(&ack(1, BASE, true, 0));
        u.set_cwnd_q(4096 << 8);
        let o = u.step(&ack(2, BASE + 30_000, false, ACKED_MAX));
        assert_eq!(o.branch, Branch::AdditiveIncrease);
        assert_eq!(o.cwnd_bytes, 600_000);
    }

    /// The cut's test is `8 * achievedBDP < max_cwnd`. max_cwnd 600001 (not a multiple of 8):
    /// achievedBDP 75000 gives 600000 < 600001, so the window is cut to 75000 B (the old test
    /// against floor(600001 / 8) = 75000 took the multiplicative decrease); 75001 gives
    /// 600008, no cut. With max_cwnd 600000, 75000 is not below: no cut.
    #[test]
    fn the_achieved_bdp_test_is_exact() {
        let cut_or_not = |max: u32, achieved: u32| {
            let mut cfg = Config::default();
            cfg.cwnd_unit.max_cwnd_bytes = Some(max);
            let mut u = CwndUnit::from_config(&cfg);
            u.step(&ack(1, BASE, true, 0));
            u.last_fairness_ts = 8_999;
            u.avg_delay_q = 50_000 << 8;
            u.achieved_bdp = achieved;
            u.rxcount_clear_ts = 5;
            let o = u.step(&ack(9_000, BASE + 30_000, true, 0));
            (o.branch, o.cwnd_bytes)
        };
        assert_eq!(
            cut_or_not(600_001, 75_000),
            (Branch::AchievedBdpCut, 75_000)
        );
        assert_eq!(
            cut_or_not(600_001, 75_001).0,
            Branch::MultiplicativeDecrease
        );
        assert_eq!(
            cut_or_not(600_000, 75_000).0,
            Branch::MultiplicativeDecrease
        );
        assert_eq!(
            cut_or_not(600_000, 74_999),
            (Branch::AchievedBdpCut, 74_999)
        );
        // The f64 reference takes the same test.
        let mut cfg = Config::default();
        cfg.cwnd_unit.max_cwnd_bytes = Some(600_001);
        let mut f = reference::CwndUnitF64::new(reference::Params::from_config(&cfg));
        f.base_rtt = BASE as f64;
        f.avg_delay = 50_000.0;
        f.achieved_bdp = 75_000.0;
        f.rxcount_clear_ts = 5;
        f.last_fairness_ts = 8_999;
        assert_eq!(
            f.step(&ack(9_000, BASE + 30_000, true, 0)),
            Branch::AchievedBdpCut
        );
        assert_eq!(f.cwnd, 75_000.0);
    }

    /// The default config's bound, term by term from the constants (worked by hand):
    /// - the table: entry 0 is 65408 = 2^16 - 2^7, so at its interval's start (m = 256) the
    ///   quotient is 65408 * 256 / 2^24 = 1 - 2^-9, the largest error of the 256 entries;
    /// - (a): 2^-9 of max_cwnd - MTU = 595904 B is 1163.875 B, plus the floors,
    ///   (13981013 / 2^16 + 1) / 2^8 = 0.837 B (beta*MTU = 13981013.3 B is 13981013 in Q24.8,
    ///   2.4e-8 off: +0.014 B);
    /// - (b): the same 1163.875 B (alpha*MTU = 238609 in Q16.16 is 1.2e-6 off: +0.72 B), plus
    ///   the largest ratio, (2^24 - 1) / 4096 (1 + 2^-9) = 4104 LSB, the largest gain,
    ///   238609 * 8000 / 2^24 = 113.8 LSB, and one LSB: 4218.8 / 256 = 16.48 B; 1181.08 B;
    /// - (c): 600000 x (2^-17 + 0.8 x 2^-8 / 8000 + (0.8 + 2^-17) x 2^-9 + 2^-16) + 1/256 =
    ///   951.5 B;
    /// - fairness: eta*MTU = 1638.4 B is 419430 / 256 in Q24.8, 0.4 / 256 = 0.0016 B off.
    #[test]
    fn the_default_step_error_bound() {
        let b = bound::step_error_bound(&Config::default());
        assert_eq!(b.table_rel, 1.0 / 512.0);
        assert!(
            (b.additive - (1163.875 + 0.837 + 0.014)).abs() < 0.002,
            "{b:?}"
        );
        assert!((b.proportional - 1181.08).abs() < 0.02, "{b:?}");
        assert!((b.decrease - 951.5).abs() < 0.05, "{b:?}");
        assert!((b.fairness - 0.4 / 256.0).abs() < 1e-9, "{b:?}");
        assert_eq!(b.bytes, b.proportional + b.fairness);
    }

    #[test]
    fn reference_matches_paper_constants() {
        let p = reference::Params::from_config(&Config::default());
        assert!((p.beta - 5.0 * 400_000.0 / 150_000.0).abs() < 1e-9);
        assert!((p.eta - 0.15 * 400_000.0 / 150_000.0).abs() < 1e-9);
        assert_eq!(p.tq_high, 24_000.0);
    }
}
