//! Host scheduler of MLCC (docs/spec/load-table.md, section 2; paper Section IV-B/IV-C,
//! Algorithms 1 and 2, Fig. 6). Software only; its outputs are the K-slot rate plans whose
//! changes the flows' packets carry to the load tables ([`crate::load_table`]).
//!
//! Units: rates are integers in the load table's unit (`rate_unit_mbps`); a volume is in
//! *unit-slots* (what one rate unit carries in one slot). Slot 0 is the current slot.
//!
//! For a flow `f` over links `L_f`, with `other_l(t) = load_l(t) - announced_f(t)` (the table's
//! estimate minus what `f` itself announced, never below 0):
//! - available bandwidth `avail_f(t) = min over l in L_f of (u_l - other_l(t))+`, where `u_l`
//!   is the largest rate recorded on `l` over the last 4 slots (capped at the capacity; the
//!   capacity when nothing was recorded) -- paper Section IV-B;
//! - path load `pl_f(t) = sum over l in L_f of other_l(t)` (DECISION: the others' load, so a
//!   flow is not pushed away from its own earlier plan);
//! - bottleneck estimate `B_f = avail_f(0)` (spec: the maximum recorded over 4 slots minus
//!   what the others plan in the slot).

use serde::{Deserialize, Serialize};

/// Slots of link history that `u_l` looks at (the paper's "4 time slots").
pub const HISTORY_SLOTS: usize = 4;

/// The result of Algorithm 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    /// Rate per slot (the first `rates.len()` slots from slot 0).
    pub rates: Vec<u64>,
    /// `b`: the schedule completes within slots `0..b`; `None` when the volume does not fit.
    pub completion: Option<usize>,
    /// `sum of rate(t) * pl(t)`.
    pub cost: u128,
    /// `cost + b * w` (the [`Weight`]), what the completion was chosen by; the cost alone when
    /// nothing fits.
    pub score: f64,
    /// Volume placed (all of it when `completion` is `Some`).
    pub placed: u64,
}

/// Algorithm 1's weight on finishing early (spec DECISION, the paper's objective (11)): the
/// completion `b` is chosen by `score(b) = cost + b * w`, `w = beta_weight * V * C`, with `V`
/// the volume to place (unit-slots) and `C` the path's capacity (units, the least over its
/// links). Finishing one slot earlier is then worth, at `beta_weight = 1`, placing the whole
/// volume on slots one link capacity more loaded; `beta_weight = 0` is the cost-only rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weight {
    /// `load_table.beta_weight`: finite, >= 0.
    pub beta_weight: f64,
    /// `C`, units.
    pub capacity: u64,
}

impl Weight {
    /// The cost-only rule (`beta_weight = 0`).
    pub const COST_ONLY: Weight = Weight {
        beta_weight: 0.0,
        capacity: 0,
    };

    /// `w` for a volume `v`.
    pub fn per_slot(&self, v: u64) -> f64 {
        self.beta_weight * v as f64 * self.capacity as f64
    }
}

/// Greedy fill of `volume` into `slots` in order of path load (ties: earlier slot).
fn greedy(volume: u64, slots: &[usize], pl: &[u64], avail: &[u64], n: usize) -> (Vec<u64>, u64) {
    let mut order = slots.to_vec();
    order.sort_by_key(|&t| (pl[t], t));
    let mut rates = vec![0; n];
    let mut left = volume;
    for t in order {
        if left == 0 {
            break;
        }
        let r = avail[t].min(left);
        rates[t] = r;
        left -= r;
    }
    (rates, volume - left)
}

fn cost(rates: &[u64], pl: &[u64]) -> u128 {
    rates
        .iter()
        .zip(pl)
        .map(|(r, p)| *r as u128 * *p as u128)
        .sum()
}

/// Algorithm 1 over slots `first..pl.len()`: for each completion `b` in `first+1..=T`, fill the
/// volume greedily into slots `first..b` by ascending path load, each slot at most
/// `avail[t]`; of the `b` that place the whole volume keep the least score
/// `cost + b * w` ([`Weight`]; DECISION: ties go to the earlier `b`). If no `b` fits, the best
/// effort over all slots is returned with `completion: None` (the rest waits for later
/// slots). O(T^2 log T).
pub fn initial_schedule(
    volume: u64,
    pl: &[u64],
    avail: &[u64],
    first: usize,
    weight: Weight,
) -> Schedule {
    let n = pl.len();
    assert_eq!(avail.len(), n, "avail and path load cover the same slots");
    let w = weight.per_slot(volume);
    let mut best: Option<Schedule> = None;
    for b in first + 1..=n {
        let slots: Vec<usize> = (first..b).collect();
        let (rates, placed) = greedy(volume, &slots, pl, avail, n);
        if placed < volume {
            continue;
        }
        let c = cost(&rates, pl);
        // cost_b + b*w < cost_best + b_best*w, the cost difference exact (it decides alone
        // when w is 0), and later b only by a strictly lower score.
        let better = best.as_ref().is_none_or(|s| {
            let b_best = s.completion.unwrap_or(b);
            ((c as i128 - s.cost as i128) as f64) < (b_best as f64 - b as f64) * w
        });
        if better {
            best = Some(Schedule {
                rates,
                completion: Some(b),
                cost: c,
                score: c as f64 + b as f64 * w,
                placed,
            });
        }
    }
    best.unwrap_or_else(|| {
        let slots: Vec<usize> = (first..n).collect();
        let (rates, placed) = greedy(volume, &slots, pl, avail, n);
        let cost = cost(&rates, pl);
        Schedule {
            score: cost as f64,
            cost,
            rates,
            completion: None,
            placed,
        }
    })
}

/// A link as a host scheduler sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub name: String,
    /// Line rate, units.
    pub capacity: u64,
    /// Rates recorded on the link in past slots, units, oldest first (the last 4 count).
    #[serde(default)]
    pub recorded: Vec<u64>,
    /// The load table's K-slot estimate for the link (slot 0 first), units.
    pub load: Vec<u64>,
}

impl Link {
    /// `u_l`: the largest rate recorded over the last 4 slots, at most the capacity; the
    /// capacity when nothing was recorded.
    pub fn usable(&self) -> u64 {
        let recent = &self.recorded[self.recorded.len().saturating_sub(HISTORY_SLOTS)..];
        recent
            .iter()
            .copied()
            .max()
            .map_or(self.capacity, |m| m.min(self.capacity))
    }
}

/// How a flow depends on others (paper Section IV-C, Fig. 6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// No dependency.
    #[default]
    Independent,
    /// A worker's aggregation flow to parameter server `ps`.
    PsAggregation(String),
    /// Parameter server `ps`'s broadcast flow to a worker.
    PsBroadcast(String),
    /// An all-reduce ring flow whose precedent flow is the named one.
    RingAfter(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    pub name: String,
    /// Indices into the scheduler's links.
    pub path: Vec<usize>,
    /// Volume left to send in this iteration, unit-slots.
    pub remaining: u64,
    /// Volume sent so far in this iteration, unit-slots.
    #[serde(default)]
    pub sent: u64,
    /// The K-slot plan the flow announced before (already in the tables' loads).
    #[serde(default)]
    pub announced: Vec<u64>,
    #[serde(default)]
    pub role: Role,
}

/// What the scheduler decided for one flow in the current slot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlowPlan {
    pub name: String,
    /// Algorithm 1's schedule.
    pub initial: Schedule,
    /// The dependency increase `Δ` (Algorithm 2's RateAdjustment).
    pub delta: u64,
    /// The bottleneck estimate `B`.
    pub bottleneck: u64,
    /// Excess trimmed on notification from the precedent flow's scheduler.
    pub trimmed: u64,
    /// The K-slot plan after Algorithm 2.
    pub plan: Vec<u64>,
    /// `plan - announced`, per slot: what the flow's packets carry to the load tables.
    pub deltas: Vec<i64>,
    /// `F`: sent so far plus this slot's planned volume.
    pub accumulated: u64,
}

/// Errors in a scheduler description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchedError {
    pub what: String,
}

impl std::fmt::Display for SchedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for SchedError {}

fn err(what: String) -> SchedError {
    SchedError { what }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scheduler {
    pub slots: usize,
    pub links: Vec<Link>,
    pub flows: Vec<Flow>,
    /// Algorithm 1's weight on finishing early ([`Weight`], `load_table.beta_weight`).
    pub beta_weight: f64,
}

impl Scheduler {
    /// Check the description: every link has K loads, every path index exists, announced
    /// plans have K elements (or none), every dependency names a flow, and `beta_weight` is
    /// finite and not negative.
    pub fn new(
        slots: usize,
        links: Vec<Link>,
        mut flows: Vec<Flow>,
        beta_weight: f64,
    ) -> Result<Self, SchedError> {
        if !(beta_weight.is_finite() && beta_weight >= 0.0) {
            return Err(err(format!(
                "`beta_weight` = {beta_weight}: must be a finite number >= 0"
            )));
        }
        for l in &links {
            if l.load.len() != slots {
                return Err(err(format!(
                    "link `{}`: `load` has {} elements, expected {slots} (the table's slots)",
                    l.name,
                    l.load.len()
                )));
            }
        }
        for f in &mut flows {
            if f.path.is_empty() {
                return Err(err(format!("flow `{}`: `path` is empty", f.name)));
            }
            if let Some(i) = f.path.iter().find(|i| **i >= links.len()) {
                return Err(err(format!(
                    "flow `{}`: path link {i} does not exist ({} links)",
                    f.name,
                    links.len()
                )));
            }
            if f.announced.is_empty() {
                f.announced = vec![0; slots];
            }
            if f.announced.len() != slots {
                return Err(err(format!(
                    "flow `{}`: `announced` has {} elements, expected {slots}",
                    f.name,
                    f.announced.len()
                )));
            }
        }
        for f in &flows {
            if let Role::RingAfter(p) = &f.role {
                if !flows.iter().any(|g| &g.name == p) {
                    return Err(err(format!(
                        "flow `{}`: ring precedent `{p}` is not a flow",
                        f.name
                    )));
                }
            }
        }
        Ok(Scheduler {
            slots,
            links,
            flows,
            beta_weight,
        })
    }

    /// Algorithm 1's weight for flow `f`: `C` is the least capacity on its path.
    pub fn weight(&self, f: &Flow) -> Weight {
        Weight {
            beta_weight: self.beta_weight,
            capacity: f
                .path
                .iter()
                .map(|&l| self.links[l].capacity)
                .min()
                .unwrap_or(0),
        }
    }

    /// `other_l(t)` for flow `f` on link `l`.
    fn other(&self, f: &Flow, l: usize, t: usize) -> u64 {
        self.links[l].load[t].saturating_sub(f.announced[t])
    }

    /// `avail_f(t)` for every slot.
    pub fn avail(&self, f: &Flow) -> Vec<u64> {
        (0..self.slots)
            .map(|t| {
                f.path
                    .iter()
                    .map(|&l| self.links[l].usable().saturating_sub(self.other(f, l, t)))
                    .min()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// `pl_f(t)` for every slot.
    pub fn path_load(&self, f: &Flow) -> Vec<u64> {
        (0..self.slots)
            .map(|t| f.path.iter().map(|&l| self.other(f, l, t)).sum())
            .collect()
    }

    fn index(&self, name: &str) -> usize {
        self.flows
            .iter()
            .position(|f| f.name == name)
            .expect("checked in new")
    }

    /// Replace slot 0 of `plan` by `rate0` and place the rest of `f`'s volume over slots
    /// `1..K` with Algorithm 1.
    fn replan(&self, f: &Flow, rate0: u64) -> Vec<u64> {
        let rate0 = rate0.min(f.remaining);
        let rest = initial_schedule(
            f.remaining - rate0,
            &self.path_load(f),
            &self.avail(f),
            1,
            self.weight(f),
        );
        let mut plan = rest.rates;
        plan[0] = rate0;
        plan
    }

    /// Algorithm 2 for every flow in the current slot (DECISION, order: all initial schedules
    /// from the same table snapshot; every `Δ` from those; the adjustments; then one pass of
    /// trims in flow order, each using the precedent flows' current `F`).
    pub fn plan_slot(&self) -> Vec<FlowPlan> {
        let n = self.flows.len();
        let initial: Vec<Schedule> = self
            .flows
            .iter()
            .map(|f| {
                initial_schedule(
                    f.remaining,
                    &self.path_load(f),
                    &self.avail(f),
                    0,
                    self.weight(f),
                )
            })
            .collect();
        let bottleneck: Vec<u64> = self.flows.iter().map(|f| self.avail(f)[0]).collect();
        let acc = |f: &Flow, plan: &[u64]| f.sent + plan[0];
        let mut plan: Vec<Vec<u64>> = initial.iter().map(|s| s.rates.clone()).collect();
        let big_f: Vec<u64> = (0..n).map(|i| acc(&self.flows[i], &plan[i])).collect();

        // RateAdjustment (Algorithm 2, lines 17-25).
        // A flow with nothing left binds nothing (DECISION: its dependants may finish).
        let live = |j: usize| self.flows[j].remaining > 0;
        let agg_min = |ps: &str, fs: &[u64]| {
            (0..n)
                .filter(|&j| live(j) && self.flows[j].role == Role::PsAggregation(ps.into()))
                .map(|j| fs[j])
                .min()
        };
        let bc_max = |ps: &str, fs: &[u64]| {
            (0..n)
                .filter(|&j| live(j) && self.flows[j].role == Role::PsBroadcast(ps.into()))
                .map(|j| fs[j])
                .max()
        };
        let delta: Vec<u64> = (0..n)
            .map(|i| {
                let fi = big_f[i];
                let target = match &self.flows[i].role {
                    Role::Independent => None,
                    Role::PsAggregation(ps) => bc_max(ps, &big_f),
                    Role::PsBroadcast(ps) => agg_min(ps, &big_f),
                    Role::RingAfter(p) => {
                        Some(self.index(p)).filter(|&j| live(j)).map(|j| big_f[j])
                    }
                };
                target.map_or(0, |t| t.saturating_sub(fi))
            })
            .collect();

        // Lines 5-12: apply r, r + Δ, or B.
        for i in 0..n {
            if delta[i] == 0 {
                continue;
            }
            let r = plan[i][0];
            let rate0 = if r + delta[i] < bottleneck[i] {
                r + delta[i]
            } else {
                bottleneck[i]
            };
            plan[i] = self.replan(&self.flows[i], rate0);
        }

        // Lines 13-16: the receiver's scheduler trims the dependent flows by the excess.
        let mut fs: Vec<u64> = (0..n).map(|i| acc(&self.flows[i], &plan[i])).collect();
        let mut trimmed = vec![0; n];
        for i in 0..n {
            let limit = match &self.flows[i].role {
                Role::PsBroadcast(ps) => agg_min(ps, &fs),
                Role::RingAfter(p) => Some(self.index(p)).filter(|&j| live(j)).map(|j| fs[j]),
                _ => None,
            };
            let Some(limit) = limit else { continue };
            let excess = fs[i].saturating_sub(limit).min(plan[i][0]);
            if excess > 0 {
                trimmed[i] = excess;
                plan[i] = self.replan(&self.flows[i], plan[i][0] - excess);
                fs[i] = acc(&self.flows[i], &plan[i]);
            }
        }

        (0..n)
            .map(|i| {
                let f = &self.flows[i];
                FlowPlan {
                    name: f.name.clone(),
                    initial: initial[i].clone(),
                    delta: delta[i],
                    bottleneck: bottleneck[i],
                    trimmed: trimmed[i],
                    deltas: plan[i]
                        .iter()
                        .zip(&f.announced)
                        .map(|(p, a)| *p as i64 - *a as i64)
                        .collect(),
                    accumulated: fs[i],
                    plan: plan[i].clone(),
                }
            })
            .collect()
    }

    /// The slot ends: each flow sends its slot-0 rate and its announcement becomes the plan
    /// moved one slot on (as the tables' rows move at the tick). `loads` are the tables' new
    /// estimates (after the flows' deltas and the tick) and `measured` the largest rate each
    /// link delivered in the slot (the kernel's statistics), one per link.
    pub fn advance(&mut self, plans: &[FlowPlan], loads: Vec<Vec<u64>>, measured: &[u64]) {
        for (f, p) in self.flows.iter_mut().zip(plans) {
            let sent = p.plan[0].min(f.remaining);
            f.sent += sent;
            f.remaining -= sent;
            f.announced = p.plan[1..].iter().copied().chain([0]).collect();
        }
        for ((l, load), m) in self.links.iter_mut().zip(loads).zip(measured) {
            l.recorded.push(*m);
            l.load = load;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A link of capacity `u` whose table shows `others` (units) in slot 0 and nothing later.
    fn link(name: &str, u: u64, others0: u64, k: usize) -> Link {
        let mut load = vec![0; k];
        load[0] = others0;
        Link {
            name: name.into(),
            capacity: u,
            recorded: Vec::new(),
            load,
        }
    }

    fn flow(name: &str, path: usize, sent: u64, remaining: u64, role: Role) -> Flow {
        Flow {
            name: name.into(),
            path: vec![path],
            remaining,
            sent,
            announced: Vec::new(),
            role,
        }
    }

    #[test]
    fn algorithm1_hand_worked() {
        // pl = [5, 1, 3, 0], avail = [10, 4, 10, 3], volume 12:
        // b=1: 10 < 12; b=2: slot 1 then 0: 4 + 8, cost 4*1 + 8*5 = 44;
        // b=3: slots 1, 2: 4 + 8, cost 4 + 24 = 28; b=4: slots 3, 1, 2: 3 + 4 + 5, cost 19.
        let s = initial_schedule(12, &[5, 1, 3, 0], &[10, 4, 10, 3], 0, Weight::COST_ONLY);
        assert_eq!(s.rates, vec![0, 4, 5, 3]);
        assert_eq!(s.completion, Some(4));
        assert_eq!(s.cost, 19);
    }

    #[test]
    fn algorithm1_ties_go_to_the_earlier_completion_and_the_earlier_slot() {
        let s = initial_schedule(15, &[0, 0, 0], &[10, 10, 10], 0, Weight::COST_ONLY);
        assert_eq!(s.completion, Some(2));
        assert_eq!(s.rates, vec![10, 5, 0]);
    }

    /// pl = [4, 4, 0], avail = [5, 5, 5], volume 5 on a path of capacity 5. The completions:
    /// b = 1, all 5 in slot 0, cost 20; b = 2, slot 0 again (the tie goes to the earlier
    /// slot), cost 20; b = 3, all 5 in the empty slot 2, cost 0. Cost alone picks b = 3. With
    /// beta_weight 1, w = 1 * 5 * 5 = 25: scores 45, 70, 75, so b = 1. With beta_weight 0.1,
    /// w = 2.5: scores 22.5, 25, 7.5, so b = 3 again.
    #[test]
    fn algorithm1_score_prefers_the_earlier_completion() {
        let (pl, avail) = ([4, 4, 0], [5, 5, 5]);
        let cost_only = initial_schedule(5, &pl, &avail, 0, Weight::COST_ONLY);
        assert_eq!((cost_only.completion, cost_only.cost), (Some(3), 0));
        assert_eq!(cost_only.rates, vec![0, 0, 5]);
        let w = |beta_weight| Weight {
            beta_weight,
            capacity: 5,
        };
        let s = initial_schedule(5, &pl, &avail, 0, w(1.0));
        assert_eq!((s.completion, s.cost, s.score), (Some(1), 20, 45.0));
        assert_eq!(s.rates, vec![5, 0, 0]);
        let s = initial_schedule(5, &pl, &avail, 0, w(0.1));
        assert_eq!((s.completion, s.cost, s.score), (Some(3), 0, 7.5));
        // Exactly at the break-even weight (w = 10: 30 vs 30) the tie goes to the earlier b.
        let s = initial_schedule(5, &pl, &avail, 0, w(0.4));
        assert_eq!((s.completion, s.score), (Some(1), 30.0));
    }

    /// One link of capacity 10 carries others' plans of 6 in every slot but the furthest (K =
    /// 4: [6, 6, 6, 0], as the others announce it afresh each slot). A flow of volume 10
    /// re-plans every slot. Cost alone puts all 10 in the empty far slot, [0, 0, 0, 10], and
    /// a slot later the far slot is again the empty one: it sends nothing for 10 slots. With
    /// beta_weight 1 (w = 1 * V * 10): slot 0, b = 3 scores 60 + 300 against b = 4's 0 + 400,
    /// so [4, 4, 2, 0]; slot 1, V = 6, b = 2 scores 36 + 120; slot 2, V = 2, b = 1 scores
    /// 12 + 20. Done in 3 slots.
    #[test]
    fn re_planning_every_slot_drifts_without_the_weight_and_finishes_with_it() {
        let k = 4;
        let others = [6, 6, 6, 0];
        let run = |beta_weight: f64| {
            let mut l = link("l", 10, 0, k);
            l.load = others.to_vec();
            let f = flow("f", 0, 0, 10, Role::Independent);
            let mut s = Scheduler::new(k, vec![l], vec![f], beta_weight).unwrap();
            let mut far = 0;
            for slot in 1..=10 {
                let plans = s.plan_slot();
                if plans[0].plan[k - 1] == s.flows[0].remaining {
                    far += 1;
                }
                // the others' fresh plans plus the flow's announcement, one slot on
                let mine: Vec<u64> = plans[0].plan[1..].iter().copied().chain([0]).collect();
                let load = others.iter().zip(&mine).map(|(o, m)| o + m).collect();
                s.advance(&plans, vec![load], &[10]);
                if s.flows[0].remaining == 0 {
                    return (Some(slot), far);
                }
            }
            (None, far)
        };
        assert_eq!(
            run(0.0),
            (None, 10),
            "cost only: always all in the far slot"
        );
        assert_eq!(run(1.0), (Some(3), 0));
    }

    #[test]
    fn beta_weight_is_checked() {
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            let e = Scheduler::new(2, vec![], vec![], bad).unwrap_err();
            assert!(e.what.starts_with("`beta_weight` = "), "{e}");
        }
    }

    #[test]
    fn algorithm1_best_effort_when_nothing_fits() {
        let s = initial_schedule(100, &[2, 1], &[10, 20], 0, Weight::COST_ONLY);
        assert_eq!(s.completion, None);
        assert_eq!(s.rates, vec![10, 20]);
        assert_eq!(s.placed, 30);
    }

    #[test]
    fn usable_bandwidth_is_the_max_of_the_last_four_recorded_slots() {
        let mut l = link("l", 100, 0, 2);
        assert_eq!(l.usable(), 100);
        l.recorded = vec![99, 10, 40, 30, 20];
        assert_eq!(l.usable(), 40, "the 99 is five slots old");
        l.recorded.push(500);
        assert_eq!(l.usable(), 100, "capped at the capacity");
    }

    #[test]
    fn avail_and_path_load_exclude_the_flows_own_announcement() {
        let k = 3;
        let mut a = link("a", 10, 6, k);
        a.load = vec![6, 4, 0];
        let b = link("b", 8, 1, k);
        let mut f = flow("f", 0, 0, 5, Role::Independent);
        f.path = vec![0, 1];
        f.announced = vec![2, 0, 0];
        let s = Scheduler::new(k, vec![a, b], vec![f], 1.0).unwrap();
        let f = &s.flows[0];
        // others on a: [4, 4, 0], on b: [0, 0, 0] (its 1 minus the flow's own 2, floored).
        assert_eq!(s.path_load(f), vec![4, 4, 0]);
        assert_eq!(s.avail(f), vec![6, 6, 8]);
    }

    /// Paper Fig. 6(a): PS1 aggregates f1, f2 from two workers and broadcasts f3, f4. Every
    /// link: capacity 10, others 2 in slot 0, so B = 8 and the initial schedules put nothing
    /// in slot 0 ([0, 10, 10, 0] for 20 unit-slots, K = 4).
    #[test]
    fn fig6a_parameter_server() {
        let k = 4;
        let links = (0..4).map(|i| link(&format!("l{i}"), 10, 2, k)).collect();
        let agg = || Role::PsAggregation("ps1".into());
        let bc = || Role::PsBroadcast("ps1".into());
        let flows = vec![
            flow("f1", 0, 10, 20, agg()),
            flow("f2", 1, 6, 20, agg()),
            flow("f3", 2, 4, 20, bc()),
            flow("f4", 3, 9, 20, bc()),
        ];
        let s = Scheduler::new(k, links, flows, 1.0).unwrap();
        let p = s.plan_slot();
        for x in &p {
            assert_eq!(x.initial.rates, vec![0, 10, 10, 0], "{}", x.name);
            assert_eq!(x.bottleneck, 8);
        }
        // F = [10, 6, 4, 9]; F_b_max = 9, F_a_min = 6.
        // f1: (9 - 10)+ = 0.  f2: (9 - 6)+ = 3 -> 0 + 3 < 8: rate 3, the other 17 later.
        // f3: (6 - 4)+ = 2 -> rate 2.  f4: (6 - 9)+ = 0.
        assert_eq!(
            p.iter().map(|x| x.delta).collect::<Vec<_>>(),
            vec![0, 3, 2, 0]
        );
        assert_eq!(p[0].plan, vec![0, 10, 10, 0]);
        assert_eq!(p[1].plan, vec![3, 10, 7, 0]);
        assert_eq!(p[2].plan, vec![2, 10, 8, 0]);
        assert_eq!(p[3].plan, vec![0, 10, 10, 0]);
        // After: F = [10, 9, 6, 9], F_a_min = 9: no broadcast exceeds it, nothing trimmed.
        assert_eq!(
            p.iter().map(|x| x.accumulated).collect::<Vec<_>>(),
            vec![10, 9, 6, 9]
        );
        assert!(p.iter().all(|x| x.trimmed == 0));
        // First announcement: the deltas are the plan.
        assert_eq!(p[1].deltas, vec![3, 10, 7, 0]);
    }

    /// Paper Fig. 6(b): an all-reduce ring f5 -> f6 -> f7 -> f5. Free links (capacity 10,
    /// nothing planned), so every initial schedule sends 10 now and B = 10.
    #[test]
    fn fig6b_all_reduce_ring_with_bottleneck_and_trim() {
        let k = 3;
        let links = (0..3).map(|i| link(&format!("l{i}"), 10, 0, k)).collect();
        let after = |p: &str| Role::RingAfter(p.into());
        let flows = vec![
            flow("f5", 0, 10, 25, after("f7")),
            flow("f6", 1, 4, 25, after("f5")),
            flow("f7", 2, 20, 25, after("f6")),
        ];
        let s = Scheduler::new(k, links, flows, 1.0).unwrap();
        let p = s.plan_slot();
        // F = [20, 14, 30].
        // f5: (30 - 20)+ = 10 -> 10 + 10 >= B = 10: rate B = 10 (no change).
        // f6: (20 - 14)+ = 6 -> 16 >= 10: rate 10.   f7: (14 - 30)+ = 0.
        assert_eq!(
            p.iter().map(|x| x.delta).collect::<Vec<_>>(),
            vec![10, 6, 0]
        );
        assert!(p.iter().all(|x| x.bottleneck == 10));
        // Trims, in order: f5 (20 - 30)+ = 0; f6 (14 - 20)+ = 0; f7 (30 - 14) = 16, at most
        // its 10 of this slot: rate 0, the 25 go to slots 1 and 2.
        assert_eq!(
            p.iter().map(|x| x.trimmed).collect::<Vec<_>>(),
            vec![0, 0, 10]
        );
        assert_eq!(p[2].plan, vec![0, 10, 10]);
        assert_eq!(p[2].accumulated, 20);
        assert_eq!(p[0].plan, vec![10, 10, 5]);
    }

    #[test]
    fn a_second_announcement_carries_the_difference() {
        let k = 3;
        let mut l = link("l", 10, 0, k);
        l.load = vec![4, 4, 0];
        let mut f = flow("f", 0, 0, 12, Role::Independent);
        f.announced = vec![4, 4, 0];
        let s = Scheduler::new(k, vec![l], vec![f], 1.0).unwrap();
        let p = s.plan_slot();
        assert_eq!(p[0].plan, vec![10, 2, 0]);
        assert_eq!(p[0].deltas, vec![6, -2, 0]);
    }

    #[test]
    fn descriptions_are_checked() {
        let k = 2;
        let e = Scheduler::new(k, vec![link("l", 1, 0, 3)], vec![], 1.0).unwrap_err();
        assert!(
            e.what
                .contains("link `l`: `load` has 3 elements, expected 2"),
            "{e}"
        );
        let e = Scheduler::new(
            k,
            vec![link("l", 1, 0, k)],
            vec![flow("f", 1, 0, 1, Role::Independent)],
            1.0,
        )
        .unwrap_err();
        assert!(
            e.what.contains("flow `f`: path link 1 does not exist"),
            "{e}"
        );
        let e = Scheduler::new(
            k,
            vec![link("l", 1, 0, k)],
            vec![flow("f", 0, 0, 1, Role::RingAfter("g".into()))],
            1.0,
        )
        .unwrap_err();
        assert!(e.what.contains("ring precedent `g` is not a flow"), "{e}");
    }

    /// Naive reference for the property: the cost of filling slots `0..b` greedily, if it fits.
    fn cost_if_fits(volume: u64, pl: &[u64], avail: &[u64], b: usize) -> Option<u128> {
        let mut idx: Vec<usize> = (0..b).collect();
        idx.sort_by(|x, y| pl[*x].cmp(&pl[*y]).then(x.cmp(y)));
        let (mut left, mut c) = (volume, 0u128);
        for t in idx {
            let r = left.min(avail[t]);
            left -= r;
            c += r as u128 * pl[t] as u128;
        }
        (left == 0).then_some(c)
    }

    proptest! {
        #[test]
        fn algorithm1_properties(
            (pl, avail) in (1usize..12).prop_flat_map(|n| (
                prop::collection::vec(0u64..50, n),
                prop::collection::vec(0u64..20, n),
            )),
            volume in 0u64..150,
        ) {
            let s = initial_schedule(volume, &pl, &avail, 0, Weight::COST_ONLY);
            // Never above the available bandwidth.
            for (r, a) in s.rates.iter().zip(&avail) {
                prop_assert!(r <= a);
            }
            prop_assert_eq!(s.rates.iter().sum::<u64>(), s.placed);
            // The whole volume is placed when it fits.
            let fits = avail.iter().sum::<u64>() >= volume;
            prop_assert_eq!(s.completion.is_some(), fits);
            if let Some(b) = s.completion {
                prop_assert_eq!(s.placed, volume);
                prop_assert!(s.rates[b..].iter().all(|r| *r == 0));
                // Least cost among the completions that fit; the earliest among equals.
                let costs: Vec<Option<u128>> =
                    (1..=pl.len()).map(|b| cost_if_fits(volume, &pl, &avail, b)).collect();
                let min = costs.iter().flatten().min().copied();
                prop_assert_eq!(Some(s.cost), min);
                let first = costs.iter().position(|c| *c == min).unwrap() + 1;
                prop_assert_eq!(b, first);
            }
        }

        /// With any weight: of the completions that fit, the least `cost + b * w`, the earliest
        /// among equals (scores compared in exact rationals: w = beta_num/4 * V * C).
        #[test]
        fn algorithm1_keeps_the_least_score(
            (pl, avail) in (1usize..12).prop_flat_map(|n| (
                prop::collection::vec(0u64..50, n),
                prop::collection::vec(0u64..20, n),
            )),
            volume in 0u64..150,
            beta_num in 0u64..12,
            capacity in 1u64..30,
        ) {
            let weight = Weight { beta_weight: beta_num as f64 / 4.0, capacity };
            let s = initial_schedule(volume, &pl, &avail, 0, weight);
            if let Some(b) = s.completion {
                // 4 * score = 4 * cost + b * beta_num * V * C, in integers
                let score4 = |b: usize, c: u128| {
                    4 * c + b as u128 * (beta_num * volume * capacity) as u128
                };
                let scores: Vec<Option<u128>> = (1..=pl.len())
                    .map(|b| cost_if_fits(volume, &pl, &avail, b).map(|c| score4(b, c)))
                    .collect();
                let min = scores.iter().flatten().min().copied();
                let first = scores.iter().position(|c| *c == min).unwrap() + 1;
                prop_assert_eq!(b, first);
                prop_assert_eq!(Some(score4(b, s.cost)), min);
            }
        }

        /// Algorithm 2 never plans above a flow's available bandwidth, and never more than the
        /// flow has left.
        #[test]
        fn algorithm2_stays_within_bandwidth_and_volume(
            sent in prop::collection::vec(0u64..40, 4),
            remaining in prop::collection::vec(0u64..60, 4),
            others in prop::collection::vec(0u64..12, 4),
        ) {
            let k = 4;
            let links = (0..4).map(|i| link(&format!("l{i}"), 10, others[i], k)).collect();
            let flows = vec![
                flow("a", 0, sent[0], remaining[0], Role::RingAfter("d".into())),
                flow("b", 1, sent[1], remaining[1], Role::RingAfter("a".into())),
                flow("c", 2, sent[2], remaining[2], Role::PsAggregation("p".into())),
                flow("d", 3, sent[3], remaining[3], Role::PsBroadcast("p".into())),
            ];
            let s = Scheduler::new(k, links, flows, 1.0).unwrap();
            for (x, f) in s.plan_slot().iter().zip(&s.flows) {
                let avail = s.avail(f);
                for (r, a) in x.plan.iter().zip(&avail) {
                    prop_assert!(r <= a, "{}: {:?} over {:?}", x.name, x.plan, avail);
                }
                prop_assert!(x.plan.iter().sum::<u64>() <= f.remaining);
            }
        }
    }
}
