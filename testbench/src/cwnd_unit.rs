//! Co-simulation of `cwnd_unit`: stimulus, coverage and the model's side of the loop.

use golden_model::cwnd_unit::{
    self as model, Branch, CwndUnit, InFlight, ACKED_MAX, CWND_MAX_AHEAD, RTT_MAX,
};
use proptest::prelude::*;
use strack_config::Config;

use crate::designs::ports::cwnd_unit as ports;
use crate::{CosimBlock, Coverage, Dut, OutputStage, PortValues};

/// One clock cycle of stimulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    pub dt: u32,
    pub s_valid: bool,
    pub rtt: u32,
    pub ecn: bool,
    pub acked: u32,
    pub probe: bool,
    pub m_ready: bool,
    /// The synchronous reset (`s_reset`): nothing is taken this cycle, the ACKs in flight are
    /// dropped, the unit starts again from its power-on state.
    pub reset: bool,
    pub noise: u64,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "branch_additive_increase",
    "branch_proportional_increase",
    "branch_achieved_bdp_cut",
    "achieved_bdp_cut_floored_at_mtu",
    "branch_multiplicative_decrease",
    "multiplicative_factor_floor_half",
    "hold_ecn",
    "hold_clean_between_targets",
    "malformed_rtt",
    "malformed_acked",
    "fairness",
    "achieved_bdp_measured",
    "probe_ack",
    "cwnd_at_max",
    "acked_at_least_4_windows",
    "acked_4_windows_increase_below_max",
    "increase_past_2_33",
    "increase_past_2_36",
    "achieved_bdp_largest_that_cuts",
    "achieved_bdp_smallest_that_does_not",
    "achieved_bdp_cut_where_floor_differs",
    "idle_cycle",
    "back_pressure",
    "time_wrap",
    "pipeline_full",
    "reset_in_flight",
    "reset_under_back_pressure",
    "offered_on_reset",
    "reset_with_state",
];

#[derive(Debug, Clone, Default)]
pub struct Regs {
    cwnd_q: u64,
    cwnd_bytes: u64,
    branch: u64,
    fairness: u64,
    achieved: u64,
    base: u64,
    avg: u64,
}

pub fn branch_code(b: Branch) -> u64 {
    match b {
        Branch::AdditiveIncrease => 0,
        Branch::ProportionalIncrease => 1,
        Branch::AchievedBdpCut => 2,
        Branch::MultiplicativeDecrease => 3,
        Branch::Hold => 4,
        Branch::Malformed => 5,
    }
}

/// The golden model on the co-sim's side, and the ACKs still in flight ahead of the next one.
pub struct Block(pub CwndUnit, pub InFlight);

impl Block {
    pub fn new(cfg: &Config) -> Self {
        Block(CwndUnit::from_config(cfg), InFlight::default())
    }
}

/// The coverage point only a `max_cwnd` that is not a multiple of 8 can reach: a cut at
/// `achievedBDP = floor(max_cwnd / 8)`, which the exact test makes and the rounded one does not.
const FLOOR_DIFFERS: &str = "achieved_bdp_cut_where_floor_differs";

/// The coverage points of an increase of `2^33` LSBs or more (the RTL's flag that clamps at
/// `max_cwnd` fires) and of `2^36` or more (the 40-bit bounds would wrap: the flag decides),
/// which only a config whose `beta*MTU` times the largest `acked/MTU` reaches can hit. Judged
/// in f64 with a 1% margin, so rounding never decides them.
const PAST: [(&str, u32); 2] = [("increase_past_2_33", 33), ("increase_past_2_36", 36)];

/// `K x acked / w` in the window's LSBs (K = beta*MTU or the proportional gain, in LSBs).
fn increase_lsb(k_lsb: f64, acked: u32, w_q: u32, cwnd_frac: u32) -> f64 {
    k_lsb * acked as f64 * (1u64 << cwnd_frac) as f64 / w_q as f64
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    const LATENCY: usize = crate::designs::CwndUnitDefault::LATENCY as usize;

    fn dt(s: &Cycle) -> u32 {
        s.dt
    }
    fn s_valid(s: &Cycle) -> bool {
        s.s_valid
    }
    fn m_ready(s: &Cycle) -> bool {
        s.m_ready
    }

    fn resets(s: &Cycle) -> bool {
        s.reset
    }

    fn reset(&mut self, _s: &Cycle, _dropped: &[&Regs], cov: &mut Coverage) {
        // The reset matters: the state it clears is not the power-on state already.
        if self.0 != CwndUnit::new(self.0.constants().clone()) {
            cov.hit("reset_with_state");
        }
        self.0.reset();
        self.1 = InFlight::default();
    }

    fn drive(dut: &mut dyn Dut, now: u32, c: &Cycle) {
        dut.set(ports::S_RESET, c.reset as u64);
        dut.set(ports::S_VALID, c.s_valid as u64);
        dut.set(ports::M_READY, c.m_ready as u64);
        let (now, rtt, ecn, acked, probe) = if c.s_valid {
            (
                now as u64,
                c.rtt as u64,
                c.ecn as u64,
                c.acked as u64,
                c.probe as u64,
            )
        } else {
            let n = c.noise;
            (
                n & 0xFFFF_FFFF,
                n >> 32,
                n >> 7 & 1,
                n.rotate_left(17) & 0xFFFF_FFFF,
                n >> 9 & 1,
            )
        };
        dut.set(ports::S_NOW, now);
        dut.set(ports::S_RTT, rtt);
        dut.set(ports::S_ECN, ecn);
        dut.set(ports::S_ACKED_BYTES, acked);
        dut.set(ports::S_IS_PROBE_ACK, probe);
    }

    fn expected(&self, lat: &OutputStage<Regs>, m_ready: bool) -> PortValues {
        let o = &lat.out;
        vec![
            (ports::S_READY, lat.s_ready(m_ready) as u64),
            (ports::M_VALID, lat.m_valid as u64),
            (ports::M_CWND_Q, o.cwnd_q),
            (ports::M_CWND_BYTES, o.cwnd_bytes),
            (ports::M_BRANCH, o.branch),
            (ports::M_FAIRNESS, o.fairness),
            (ports::M_ACHIEVED_BDP, o.achieved),
            (ports::M_BASE_RTT, o.base),
            (ports::M_AVG_DELAY_Q, o.avg),
            (ports::STATUS_MALFORMED_COUNT, self.0.malformed_count),
        ]
    }

    fn advance(&mut self, fired: bool) {
        self.1.tick(fired);
    }

    fn coverage_points(&self) -> Vec<&'static str> {
        let k = self.0.constants();
        let floor_differs = !k.max_cwnd_bytes.is_multiple_of(8);
        let largest = increase_lsb(k.beta_mtu_q as f64, ACKED_MAX, k.mtu_q, k.cwnd_frac);
        COVERAGE_POINTS
            .iter()
            .copied()
            .filter(|p| floor_differs || *p != FLOOR_DIFFERS)
            .filter(|p| {
                PAST.iter()
                    .all(|(name, e)| p != name || largest >= 1.01 * (1u64 << e) as f64)
            })
            .collect()
    }

    fn fire(&mut self, now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let u = &mut self.0;
        let k = u.constants().clone();
        let before = u.clone();
        let input = model::In {
            now,
            rtt: c.rtt,
            ecn: c.ecn,
            acked_bytes: c.acked,
            is_probe_ack: c.probe,
        };
        let ahead = self.1.ahead();
        if ahead == CWND_MAX_AHEAD {
            cov.hit("pipeline_full");
        }
        let w_q = u.window_in_flight(ahead);
        let w_bytes = w_q >> k.cwnd_frac;
        let o = u.step_pipelined(&input, ahead);
        if o.branch == Branch::AdditiveIncrease {
            let inc = increase_lsb(k.beta_mtu_q as f64, c.acked, w_q, k.cwnd_frac);
            for (name, e) in PAST {
                if inc >= 1.01 * (1u64 << e) as f64 {
                    cov.hit(name);
                }
            }
        }
        match o.branch {
            Branch::AdditiveIncrease => cov.hit("branch_additive_increase"),
            Branch::ProportionalIncrease => cov.hit("branch_proportional_increase"),
            Branch::AchievedBdpCut => {
                cov.hit("branch_achieved_bdp_cut");
                if (o.achieved_bdp as u64) << k.cwnd_frac < k.mtu_q as u64 {
                    cov.hit("achieved_bdp_cut_floored_at_mtu");
                }
                let ab = o.achieved_bdp as u64;
                if 8 * (ab + 1) >= k.max_cwnd_bytes as u64 {
                    cov.hit("achieved_bdp_largest_that_cuts");
                }
                if ab == k.max_cwnd_bytes as u64 / 8 {
                    cov.hit(FLOOR_DIFFERS);
                }
            }
            Branch::MultiplicativeDecrease => {
                cov.hit("branch_multiplicative_decrease");
                let ab = o.achieved_bdp as u64;
                let max = k.max_cwnd_bytes as u64;
                let delay = c.rtt - o.base_rtt;
                if delay > k.tq_high_ns && 8 * ab >= max && 8 * (ab - 1) < max {
                    cov.hit("achieved_bdp_smallest_that_does_not");
                }
                // factor = (1-g) + g*tq/avg < 1/2  <=>  avg > tq * g / (g - 1/2)
                let g = k.gamma_q16 as f64 / 65536.0;
                if g > 0.5
                    && o.avg_delay_q as f64
                        > ((k.tq_ns as u64) << k.delay_frac) as f64 * g / (g - 0.5) * 1.01
                {
                    cov.hit("multiplicative_factor_floor_half");
                }
            }
            Branch::Hold if c.ecn => cov.hit("hold_ecn"),
            Branch::Hold => cov.hit("hold_clean_between_targets"),
            Branch::Malformed if c.rtt > RTT_MAX => cov.hit("malformed_rtt"),
            Branch::Malformed => cov.hit("malformed_acked"),
        }
        if o.fairness {
            cov.hit("fairness");
        }
        if o.branch != Branch::Malformed {
            if u.rxcount_clear_ts != before.rxcount_clear_ts
                || (u.rx_count == 0 && before.rx_count != 0)
            {
                cov.hit("achieved_bdp_measured");
            }
            if c.probe {
                cov.hit("probe_ack");
            }
            if c.acked as u64 >= 4 * w_bytes as u64 {
                cov.hit("acked_at_least_4_windows");
                let increase = matches!(
                    o.branch,
                    Branch::AdditiveIncrease | Branch::ProportionalIncrease
                );
                if increase && o.cwnd_q < k.max_cwnd_q {
                    cov.hit("acked_4_windows_increase_below_max");
                }
            }
        }
        if o.cwnd_q == k.max_cwnd_q {
            cov.hit("cwnd_at_max");
        }
        Regs {
            cwnd_q: o.cwnd_q as u64,
            cwnd_bytes: o.cwnd_bytes as u64,
            branch: branch_code(o.branch),
            fairness: o.fairness as u64,
            achieved: o.achieved_bdp as u64,
            base: o.base_rtt as u64,
            avg: o.avg_delay_q as u64,
        }
    }
}

// ------------------------------------------------------------------ stimulus

/// The parts of the config the stimulus is scaled by.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    pub base_rtt: u32,
    pub tq: u32,
    pub mtu: u32,
    pub max_cwnd: u32,
}

impl Scale {
    pub fn of(cfg: &Config) -> Self {
        Scale {
            base_rtt: cfg.network.net_base_rtt_ns,
            tq: cfg.target_qdelay_ns(),
            mtu: cfg.network.mtu_bytes,
            max_cwnd: cfg.max_cwnd_bytes(),
        }
    }
}

fn ack(
    s: Scale,
    delay: impl Strategy<Value = u32>,
    ecn: impl Strategy<Value = bool>,
    dt: impl Strategy<Value = u32>,
) -> impl Strategy<Value = Cycle> {
    (
        dt,
        prop::bool::weighted(0.85),
        delay,
        ecn,
        prop_oneof![
            3 => 1..=s.mtu,
            2 => Just(s.mtu),
            1 => Just(0u32),
            1 => s.mtu..=4 * s.mtu,
            1 => Just(4 * s.mtu + s.mtu / 2),
            1 => 4 * s.mtu..=ACKED_MAX,
            1 => Just(ACKED_MAX),
        ],
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.85),
        any::<u64>(),
    )
        .prop_map(
            move |(dt, s_valid, delay, ecn, acked, probe, m_ready, noise)| Cycle {
                dt,
                s_valid,
                rtt: s.base_rtt.saturating_add(delay),
                ecn,
                acked,
                probe,
                m_ready,
                reset: false,
                noise,
            },
        )
}

/// ACKs that measure achievedBDP = `a` and then test it in the cut's arm: an uncongested ACK
/// (base RTT), `warm` congested ones with nothing acknowledged (the average delay rises above
/// target_Qdelay), one that closes the measurement interval, one acknowledging `a` bytes, and
/// one that closes the next interval (achievedBDP = `a`) more than a base RTT after any
/// decrease, with the delay above target_Qhigh: the cut if `8a < max_cwnd`, else the
/// multiplicative decrease.
pub fn bdp_threshold_phase(s: Scale, a: u32, warm: usize) -> Vec<Cycle> {
    let congested = |dt: u32, acked: u32| Cycle {
        dt,
        s_valid: true,
        rtt: s.base_rtt + 12 * s.tq,
        ecn: true,
        acked,
        probe: false,
        m_ready: true,
        reset: false,
        noise: 0,
    };
    let interval = 2 * (s.base_rtt + s.tq) + 1;
    let mut v = vec![Cycle {
        rtt: s.base_rtt,
        ..congested(1, 0)
    }];
    v.extend((0..warm).map(|_| congested(1, 0)));
    v.push(congested(interval, 0));
    v.push(congested(1, a));
    v.push(congested(interval, 0));
    v
}

/// Random ACKs over every delay region, congestion episodes (high delay, ECN, few bytes, so the
/// average rises, achievedBDP falls and the decreases run), recoveries, malformed fields, stalls,
/// clock jumps and resets.
pub fn stimulus(s: Scale, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    let tq = s.tq;
    let delay_any = prop_oneof![
        Just(0u32),
        0..tq,
        Just(tq),
        tq..3 * tq,
        Just(3 * tq),
        3 * tq..12 * tq,
    ];
    let random = prop::collection::vec(
        ack(
            s,
            delay_any,
            prop::bool::weighted(0.3),
            prop_oneof![0u32..200, 200u32..3 * tq],
        ),
        20..300,
    );
    let congestion = prop::collection::vec(
        ack(
            s,
            prop_oneof![tq..3 * tq, 3 * tq..12 * tq],
            prop::bool::weighted(0.8),
            0u32..tq / 2,
        )
        .prop_map(|mut c| {
            c.acked /= 8;
            c
        }),
        50..400,
    );
    let recovery = prop::collection::vec(ack(s, 0..tq, Just(false), 0u32..tq / 4), 20..200);
    let malformed = prop::collection::vec(
        (
            any::<bool>(),
            prop_oneof![Just(RTT_MAX + 1), RTT_MAX + 1..=u32::MAX],
            prop_oneof![Just(ACKED_MAX + 1), ACKED_MAX + 1..=u32::MAX],
        )
            .prop_map(|(which, rtt, acked)| Cycle {
                dt: 10,
                s_valid: true,
                rtt: if which { rtt } else { 9_000 },
                ecn: false,
                acked: if which { 0 } else { acked },
                probe: false,
                m_ready: true,
                reset: false,
                noise: 0,
            }),
        1..4,
    );
    let jump = (1u32..2_000).prop_map(|k| {
        vec![Cycle {
            dt: u32::MAX - k,
            s_valid: false,
            rtt: 0,
            ecn: false,
            acked: 0,
            probe: false,
            m_ready: true,
            reset: false,
            noise: 0,
        }]
    });
    // achievedBDP at the cut's threshold: the largest value that cuts (8a < max_cwnd) or the
    // smallest that does not, measured over one interval and tested by a congested ACK.
    let threshold = (any::<bool>(), 4usize..12).prop_map(move |(over, warm)| {
        let a = (s.max_cwnd - 1) / 8 + over as u32;
        bdp_threshold_phase(s, a, warm)
    });
    // A reset after congestion (so the state it clears is far from power-on): ACKs up to it,
    // the last three still in the pipeline at its edge; `stalled`, the consumer refuses results
    // over them and the reset cycle; `offered`, the reset cycle offers an ACK too (not taken);
    // `held`, the reset lasts two cycles.
    let reset = (
        prop::collection::vec(
            ack(s, 3 * tq..12 * tq, prop::bool::weighted(0.8), 0u32..tq / 2),
            5..60,
        ),
        ack(s, 0..tq, Just(false), 0u32..200),
        any::<bool>(),
        any::<bool>(),
        prop::bool::weighted(0.25),
    )
        .prop_map(|(mut v, mut r, stalled, offered, held)| {
            let n = v.len();
            for c in v.iter_mut().skip(n - 3) {
                c.s_valid = true;
                c.m_ready &= !stalled;
            }
            r.reset = true;
            r.s_valid = offered;
            r.m_ready &= !stalled;
            v.push(r);
            if held {
                v.push(r);
            }
            v
        });
    let phase = prop_oneof![
        4 => random,
        3 => congestion,
        2 => recovery,
        1 => malformed,
        1 => jump,
        1 => threshold,
        1 => reset
    ];
    let phases = (len.start / 150).max(1)..(len.end / 150).max(2);
    prop::collection::vec(phase, phases).prop_map(|v| v.into_iter().flatten().collect())
}

/// A replay trace (`docs/trace-format.md`) as co-sim stimulus: one ACK per line, every result
/// taken at once. A field the RTL's port cannot carry (`width`) is refused with the line's
/// index.
pub fn from_trace(
    inputs: &[model::In],
    width: &dyn Fn(&str) -> u32,
) -> Result<Vec<Cycle>, (usize, String)> {
    crate::trace_steps(inputs, |e| e.now)
        .map(|(i, e, dt)| {
            crate::fits("rtt", e.rtt.into(), width(ports::S_RTT.0)).map_err(|m| (i, m))?;
            crate::fits(
                "acked_bytes",
                e.acked_bytes.into(),
                width(ports::S_ACKED_BYTES.0),
            )
            .map_err(|m| (i, m))?;
            Ok(Cycle {
                dt,
                s_valid: true,
                rtt: e.rtt,
                ecn: e.ecn,
                acked: e.acked_bytes,
                probe: e.is_probe_ack,
                m_ready: true,
                reset: false,
                noise: 0,
            })
        })
        .collect()
}
