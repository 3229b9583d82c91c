//! Switch load table of the MLCC flow scheduler (docs/spec/load-table.md, section 1; paper
//! Section IV-A, "Link Load Estimation" and "Link Load Feedback", Fig. 5).
//!
//! State: for each egress link `l` a row of `K` loads, `row[l][k]` = the load planned for the
//! `k`-th slot from now (`k = 0` is the current slot), each in `0..=2^load_bits - 1` units of
//! `rate_unit_mbps`; a saturation counter and a bad-packet counter.
//!
//! One step is one clock of the switch pipeline: an optional slot tick and an optional packet.
//! - **Tick** (DECISION: applied before the step's packet): every row drops its slot 0 and
//!   gains a zero slot `K - 1` (the ring of K slots; the cleared slot becomes the furthest).
//! - **Packet**: if its link is `>= links`, or its delta / path-load vectors do not have `K`
//!   elements, or an element is out of its field's range, it is *bad*: forwarded unchanged,
//!   counted, the table is not touched. Otherwise:
//!   - with `update`, each `row[link][k] += delta[k]`, saturating at 0 and at the maximum; each
//!     saturated element is counted (`sat_count`);
//!   - with `feedback`, `path_load[k] += row[link][k]` (DECISION: the row *after* this packet's
//!     own update), saturating at the path-load field's maximum.
//!
//! Deltas are signed (spec DECISION: a flow announces the change against its previous plan),
//! so the switch keeps no per-flow state.
//!
//! [`LoadTable::reset`] is the block's synchronous reset (`s_reset`): every row empty, every
//! counter at 0, as at power-on. (The RTL reaches that state without a sweep: its DECISION is in
//! `docs/blocks/load_table.md`, "Reset".)

use serde::{Deserialize, Serialize};
use strack_config::Config;

pub mod frame;
pub mod lazy;

/// A packet descriptor as the switch pipeline sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Packet {
    /// Egress link (row) index.
    pub link: u32,
    /// The packet carries a schedule change: add `deltas` into the row.
    #[serde(default)]
    pub update: bool,
    /// `K` signed deltas, slot 0 first; each in `-2^load_bits ..= 2^load_bits - 1`.
    #[serde(default)]
    pub deltas: Vec<i64>,
    /// The packet asks for the link's estimate to be added into `path_load`.
    #[serde(default)]
    pub feedback: bool,
    /// `K` path-load elements, slot 0 first; each in `0 ..= 2^(load_bits + 4) - 1`.
    #[serde(default)]
    pub path_load: Vec<u64>,
}

/// One clock: an optional slot tick and an optional packet.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct In {
    #[serde(default)]
    pub tick: bool,
    #[serde(default)]
    pub pkt: Option<Packet>,
}

/// The result for the step's packet (all zero / empty when there was none).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Out {
    /// A packet was processed.
    pub valid: bool,
    /// The packet was bad (out-of-range link or field) and left the table untouched.
    pub bad: bool,
    /// The path-load field the packet leaves with (unchanged unless `feedback` on a good one).
    pub path_load: Vec<u64>,
    /// The link's row after the packet (empty for a bad packet).
    pub row: Vec<u64>,
    /// Bit `k`: the update of slot `k` saturated.
    pub sat_mask: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    pub links: u32,
    pub slots: u32,
    pub load_bits: u32,
}

impl Params {
    pub fn from_config(cfg: &Config) -> Self {
        Params {
            links: cfg.load_table.links,
            slots: cfg.load_table.slots,
            load_bits: cfg.load_table.load_bits,
        }
    }
    pub fn load_max(&self) -> u64 {
        (1u64 << self.load_bits) - 1
    }
    pub fn path_load_max(&self) -> u64 {
        (1u64 << (self.load_bits + strack_config::PATH_LOAD_EXTRA_BITS)) - 1
    }
    pub fn delta_min(&self) -> i64 {
        -(1i64 << self.load_bits)
    }
    pub fn delta_max(&self) -> i64 {
        (1i64 << self.load_bits) - 1
    }

    /// Why a packet is bad for this table, if it is.
    pub fn check(&self, p: &Packet) -> Result<(), String> {
        let k = self.slots as usize;
        if p.link >= self.links {
            return Err(format!(
                "link {} out of range (links = {})",
                p.link, self.links
            ));
        }
        if p.update {
            if p.deltas.len() != k {
                return Err(format!("{} deltas, expected {k}", p.deltas.len()));
            }
            let (lo, hi) = (self.delta_min(), self.delta_max());
            if let Some(d) = p.deltas.iter().find(|d| !(lo..=hi).contains(*d)) {
                return Err(format!("delta {d} outside {lo}..={hi}"));
            }
        }
        if p.feedback {
            if p.path_load.len() != k {
                return Err(format!(
                    "{} path-load elements, expected {k}",
                    p.path_load.len()
                ));
            }
            let hi = self.path_load_max();
            if let Some(v) = p.path_load.iter().find(|v| **v > hi) {
                return Err(format!("path load {v} above {hi}"));
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counters {
    pub packets: u64,
    pub updates: u64,
    pub feedbacks: u64,
    pub ticks: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadTable {
    params: Params,
    /// `rows[l][k]`: load of link `l`, `k` slots from now.
    pub rows: Vec<Vec<u64>>,
    /// Saturated elements so far.
    pub sat_count: u64,
    /// Bad packets so far.
    pub bad_count: u64,
    pub counters: Counters,
}

impl LoadTable {
    pub fn new(params: Params) -> Self {
        let rows = vec![vec![0; params.slots as usize]; params.links as usize];
        LoadTable {
            params,
            rows,
            sat_count: 0,
            bad_count: 0,
            counters: Counters::default(),
        }
    }

    pub fn from_config(cfg: &Config) -> Self {
        LoadTable::new(Params::from_config(cfg))
    }

    /// The synchronous reset: the power-on state of [`LoadTable::new`] (every row empty, the
    /// saturation, bad-packet and traffic counters at 0).
    pub fn reset(&mut self) {
        *self = LoadTable::new(self.params.clone());
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Sum of every entry.
    pub fn total(&self) -> u64 {
        self.rows.iter().flatten().sum()
    }

    /// Why a packet is bad, if it is.
    pub fn check(&self, p: &Packet) -> Result<(), String> {
        self.params.check(p)
    }

    /// The slot tick: every row moves one slot closer; the new furthest slot is empty.
    pub fn tick(&mut self) {
        self.counters.ticks += 1;
        for row in &mut self.rows {
            row.remove(0);
            row.push(0);
        }
    }

    pub fn step(&mut self, input: &In) -> Out {
        if input.tick {
            self.tick();
        }
        let Some(p) = &input.pkt else {
            return Out::default();
        };
        self.counters.packets += 1;
        if self.params.check(p).is_err() {
            self.bad_count += 1;
            return Out::bad(p);
        }
        apply(
            &self.params,
            &mut self.rows[p.link as usize],
            p,
            &mut self.sat_count,
            &mut self.counters,
        )
    }
}

impl Out {
    /// A bad packet's result: it leaves as it came, the table untouched.
    pub(crate) fn bad(p: &Packet) -> Out {
        Out {
            valid: true,
            bad: true,
            path_load: p.path_load.clone(),
            row: Vec::new(),
            sat_mask: 0,
        }
    }
}

/// One good packet (`params.check` passed; `packets` already counted) against `row`, its
/// link's row as it stands: add its deltas, add the row into its path load. Shared by the eager
/// model and the lazy one ([`lazy`]), which differ only in how they keep rows across slots.
pub(crate) fn apply(
    params: &Params,
    row: &mut [u64],
    p: &Packet,
    sat_count: &mut u64,
    counters: &mut Counters,
) -> Out {
    let max = params.load_max();
    let mut sat_mask: u32 = 0;
    if p.update {
        counters.updates += 1;
        for (k, (v, d)) in row.iter_mut().zip(&p.deltas).enumerate() {
            let sum = *v as i64 + d;
            *v = if sum < 0 {
                sat_mask |= 1 << k;
                0
            } else if sum as u64 > max {
                sat_mask |= 1 << k;
                max
            } else {
                sum as u64
            };
        }
        *sat_count += sat_mask.count_ones() as u64;
    }
    let mut path_load = p.path_load.clone();
    if p.feedback {
        counters.feedbacks += 1;
        let pmax = params.path_load_max();
        for (f, v) in path_load.iter_mut().zip(row.iter()) {
            *f = (*f + v).min(pmax);
        }
    }
    Out {
        valid: true,
        bad: false,
        path_load,
        row: row.to_vec(),
        sat_mask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table(links: u32, slots: u32, load_bits: u32) -> LoadTable {
        LoadTable::new(Params {
            links,
            slots,
            load_bits,
        })
    }

    fn update(link: u32, deltas: &[i64]) -> In {
        In {
            tick: false,
            pkt: Some(Packet {
                link,
                update: true,
                deltas: deltas.to_vec(),
                ..Default::default()
            }),
        }
    }

    fn feedback(link: u32, path_load: &[u64]) -> In {
        In {
            tick: false,
            pkt: Some(Packet {
                link,
                feedback: true,
                path_load: path_load.to_vec(),
                ..Default::default()
            }),
        }
    }

    #[test]
    fn update_adds_deltas_into_the_egress_row_only() {
        let mut t = table(3, 4, 8);
        let o = t.step(&update(1, &[5, 20, 0, -0]));
        assert_eq!(o.row, vec![5, 20, 0, 0]);
        assert_eq!(t.rows[0], vec![0; 4]);
        assert_eq!(t.rows[2], vec![0; 4]);
        let o = t.step(&update(1, &[1, -20, 3, 0]));
        assert_eq!(o.row, vec![6, 0, 3, 0]);
        assert_eq!(o.sat_mask, 0);
        assert_eq!(t.sat_count, 0);
    }

    /// Paper Fig. 5: a flow's schedule (5, 20, ... Gb/s) is added onto the estimates of both
    /// links it traverses (l1 and l4), on top of what other flows planned.
    #[test]
    fn fig5_flow_schedule_adds_onto_both_links_rows() {
        // 1 unit = 1 Gb/s here; links 1 and 4 already carry other flows' plans.
        let mut t = table(5, 4, 8);
        t.step(&update(1, &[10, 10, 30, 0]));
        t.step(&update(4, &[0, 40, 5, 5]));
        let flow = [5, 20, 15, 10];
        assert_eq!(t.step(&update(1, &flow)).row, vec![15, 30, 45, 10]);
        assert_eq!(t.step(&update(4, &flow)).row, vec![5, 60, 20, 15]);
        assert_eq!(t.total(), 15 + 30 + 45 + 10 + 5 + 60 + 20 + 15);
    }

    #[test]
    fn sums_saturate_at_zero_and_max_and_each_element_is_counted() {
        let mut t = table(1, 4, 8);
        t.step(&update(0, &[200, 10, 0, 0]));
        let o = t.step(&update(0, &[100, -11, 255, -256]));
        assert_eq!(o.row, vec![255, 0, 255, 0]);
        assert_eq!(o.sat_mask, 0b1011);
        assert_eq!(t.sat_count, 3);
    }

    #[test]
    fn feedback_adds_the_row_after_the_packets_own_update() {
        let mut t = table(2, 3, 8);
        t.step(&update(1, &[1, 2, 3]));
        let mut both = update(1, &[10, 0, -3]);
        if let Some(p) = &mut both.pkt {
            p.feedback = true;
            p.path_load = vec![100, 200, 300];
        }
        let o = t.step(&both);
        assert_eq!(o.row, vec![11, 2, 0]);
        assert_eq!(o.path_load, vec![111, 202, 300]);
        // A feedback-only packet leaves the row alone.
        let o = t.step(&feedback(1, &[0, 0, 0]));
        assert_eq!(o.path_load, vec![11, 2, 0]);
        assert_eq!(t.rows[1], vec![11, 2, 0]);
    }

    #[test]
    fn feedback_saturates_at_the_path_load_maximum() {
        let mut t = table(1, 2, 8);
        t.step(&update(0, &[255, 1]));
        let pmax = t.params().path_load_max();
        assert_eq!(pmax, 4095);
        let o = t.step(&feedback(0, &[4000, 4000]));
        assert_eq!(o.path_load, vec![4095, 4001]);
        assert_eq!(
            t.sat_count, 0,
            "path-load saturation is not a table saturation"
        );
    }

    #[test]
    fn tick_clears_the_current_slot_and_rotates() {
        let mut t = table(2, 3, 8);
        t.step(&update(0, &[1, 2, 3]));
        t.step(&update(1, &[4, 5, 6]));
        t.step(&In {
            tick: true,
            pkt: None,
        });
        assert_eq!(t.rows, vec![vec![2, 3, 0], vec![5, 6, 0]]);
    }

    #[test]
    fn a_tick_in_the_same_step_comes_before_the_packet() {
        let mut t = table(1, 3, 8);
        t.step(&update(0, &[1, 2, 3]));
        let mut i = update(0, &[10, 10, 10]);
        i.tick = true;
        assert_eq!(t.step(&i).row, vec![12, 13, 10]);
    }

    #[test]
    fn bad_packets_are_forwarded_unchanged_counted_and_never_write() {
        let mut t = table(4, 3, 8);
        t.step(&update(2, &[1, 2, 3]));
        let before = t.rows.clone();
        let mut bads = vec![
            update(4, &[1, 1, 1]),
            update(2, &[1, 1]),
            update(2, &[1, 1, 256]),
        ];
        bads.push(update(2, &[-257, 0, 0]));
        let mut f = feedback(2, &[1, 2, 3]);
        if let Some(p) = &mut f.pkt {
            p.path_load[1] = 4096;
        }
        bads.push(f.clone());
        bads.push(feedback(9, &[7, 8, 9]));
        for (n, b) in bads.iter().enumerate() {
            let o = t.step(b);
            assert!(o.valid && o.bad, "{b:?}");
            assert_eq!(o.path_load, b.pkt.as_ref().unwrap().path_load);
            assert_eq!(t.rows, before);
            assert_eq!(t.bad_count, n as u64 + 1);
        }
        assert_eq!(t.sat_count, 0);
    }

    #[test]
    fn reset_returns_to_the_power_on_state() {
        let mut t = table(2, 3, 8);
        t.step(&update(0, &[200, 100, 255]));
        t.step(&update(0, &[100, 0, 0]));
        t.step(&update(5, &[1, 1, 1]));
        t.step(&In {
            tick: true,
            pkt: None,
        });
        assert!(t.total() > 0 && t.sat_count == 1 && t.bad_count == 1);
        t.reset();
        assert_eq!(t, table(2, 3, 8));
        assert_eq!(t.step(&feedback(0, &[1, 2, 3])).path_load, vec![1, 2, 3]);
    }

    #[test]
    fn a_step_without_a_packet_outputs_nothing() {
        let mut t = table(1, 2, 8);
        assert_eq!(t.step(&In::default()), Out::default());
    }

    fn arb_in(links: u32, slots: usize, bits: u32) -> impl Strategy<Value = In> {
        let lo = -(1i64 << bits);
        let hi = (1i64 << bits) - 1;
        // Deltas near the extremes as well as small ones, so both saturations happen.
        let delta = prop_oneof![lo..=hi, -4i64..=4, Just(lo), Just(hi)];
        (
            prop::bool::weighted(0.05),
            prop::option::weighted(
                0.9,
                (
                    0..links + 1,
                    any::<bool>(),
                    prop::collection::vec(delta, slots),
                    any::<bool>(),
                    prop::collection::vec(0u64..1 << (bits + 4), slots),
                ),
            ),
        )
            .prop_map(|(tick, p)| In {
                tick,
                pkt: p.map(|(link, update, deltas, feedback, path_load)| Packet {
                    link,
                    update,
                    deltas,
                    feedback,
                    path_load,
                }),
            })
    }

    proptest! {
        #[test]
        fn entries_stay_within_zero_and_max(ins in prop::collection::vec(arb_in(3, 4, 8), 1..200)) {
            let mut t = table(3, 4, 8);
            for i in &ins {
                t.step(i);
                prop_assert!(t.rows.iter().flatten().all(|v| *v <= 255));
            }
        }

        #[test]
        fn k_ticks_without_traffic_empty_the_table(ins in prop::collection::vec(arb_in(3, 5, 8), 0..100)) {
            let mut t = table(3, 5, 8);
            for i in &ins {
                t.step(i);
            }
            for _ in 0..5 {
                t.step(&In { tick: true, pkt: None });
            }
            prop_assert_eq!(t.total(), 0);
        }

        #[test]
        fn without_saturation_and_ticks_the_table_sum_is_the_sum_of_deltas(
            ins in prop::collection::vec(arb_in(4, 3, 16), 1..100)
        ) {
            let mut t = table(4, 3, 16);
            let mut applied: i64 = 0;
            for i in &ins {
                let i = In { tick: false, pkt: i.pkt.clone() };
                let before = t.clone();
                let o = t.step(&i);
                if o.sat_mask != 0 {
                    // Undo: the property is about the steps that did not saturate.
                    t = before;
                    continue;
                }
                if let Some(p) = &i.pkt {
                    if !o.bad && p.update {
                        applied += p.deltas.iter().sum::<i64>();
                    }
                }
                prop_assert_eq!(t.total() as i64, applied);
            }
        }
    }
}
