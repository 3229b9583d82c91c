//! Co-simulation of `load_table`: stimulus with hot-link bursts, ticks at random times (alone
//! and with packets), saturating deltas, out-of-range links and resets; coverage; the model's
//! side.
//!
//! The block is a free-running pipeline (latency 6, no handshake), so every cycle is an event
//! for the harness: the cycle's tick and packet (if any) step the model, and the result
//! reaches the output stage six cycles later, `m_valid` low when there was no packet. A reset
//! cycle takes neither its tick nor its packet; the model restarts from its power-on state, the
//! packets of the five cycles before are dropped.

use golden_model::load_table::{self as model, LoadTable, Packet};
use proptest::prelude::*;
use strack_config::wire::LoadShim;
use strack_config::Config;

use crate::designs::ports::load_table as ports;
use crate::{CosimBlock, Coverage, Dut, In, OutputStage, PortValues};

/// One clock cycle: the model's input plus noise for the data inputs when no packet is offered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub input: model::In,
    /// The synchronous reset (`s_reset`): this cycle's tick and packet are not taken, the
    /// packets in flight are dropped, the table reads as empty from the next cycle on.
    pub reset: bool,
    pub noise: u64,
}

pub const COVERAGE_POINTS: &[&str] = &[
    "update",
    "feedback",
    "update_and_feedback",
    "neither",
    "bad_link",
    "sat_high",
    "sat_low",
    "path_saturated",
    "tick_alone",
    "tick_with_packet",
    "back_to_back_same_link",
    "back_to_back_across_tick",
    "same_link_two_apart",
    "same_link_three_apart",
    "same_link_four_apart",
    "same_link_five_apart",
    "row_aged_partly",
    "row_aged_out",
    "no_packet",
    "reset_drops_packets",
    "packet_on_reset",
    "tick_on_reset",
    "row_from_before_reset",
];

/// Widths of the design's fields (from the config, or from the ports of a Verilated design).
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub slots: usize,
    pub load_bits: u32,
}

impl Shape {
    pub fn of(cfg: &Config) -> Self {
        Shape {
            slots: cfg.load_table.slots as usize,
            load_bits: cfg.load_table.load_bits,
        }
    }
    fn path_bits(&self) -> u32 {
        self.load_bits + strack_config::PATH_LOAD_EXTRA_BITS
    }
}

/// The RTL descriptor's packing of a vector field, from the shim's one definition.
pub use strack_config::wire::pack_elements as pack;

fn set_field(dut: &mut dyn Dut, port: In, chunks: &[u64]) {
    if chunks.len() == 1 {
        dut.set(port, chunks[0]);
    } else {
        let words: Vec<u32> = chunks
            .iter()
            .flat_map(|c| [*c as u32, (*c >> 32) as u32])
            .collect();
        let need = dut
            .ports()
            .iter()
            .find(|p| p.name == port.0)
            .map_or(0, |p| p.width.div_ceil(32) as usize);
        dut.set_words(port, &words[..need]);
    }
}

/// The result of one cycle as output-port values.
#[derive(Debug, Clone, Default)]
pub struct Regs {
    valid: bool,
    bad: bool,
    path: Vec<u64>,
    row: Vec<u64>,
    sat_mask: u64,
    sat_count: u64,
    bad_count: u64,
}

/// The golden model on the co-sim's side, plus what coverage needs to know about the rows.
pub struct Block {
    pub model: LoadTable,
    shape: Shape,
    /// Tick count when each row was last written since the last reset (for the aging
    /// coverage).
    written_at: Vec<Option<u64>>,
    /// The links of the last five cycles' update packets (newest first): the writes a packet's
    /// RAM read misses, which the RTL forwards.
    recent: [Option<u32>; 5],
    /// Rows written before a reset and not since: the RTL's RAM still holds them, and they
    /// must read as empty.
    before_reset: Vec<bool>,
}

impl Block {
    pub fn new(cfg: &Config) -> Self {
        let shape = Shape::of(cfg);
        Block {
            model: LoadTable::from_config(cfg),
            shape,
            written_at: vec![None; cfg.load_table.links as usize],
            recent: [None; 5],
            before_reset: vec![false; cfg.load_table.links as usize],
        }
    }
}

impl CosimBlock for Block {
    type Stim = Cycle;
    type Regs = Regs;
    const COVERAGE_POINTS: &'static [&'static str] = COVERAGE_POINTS;
    // The generated design states its latency (every load_table design has the same).
    const LATENCY: usize = crate::designs::LoadTableDefault::LATENCY as usize;

    fn dt(_: &Cycle) -> u32 {
        1
    }
    fn s_valid(_: &Cycle) -> bool {
        true
    }
    fn m_ready(_: &Cycle) -> bool {
        true
    }

    fn resets(s: &Cycle) -> bool {
        s.reset
    }

    fn reset(&mut self, c: &Cycle, dropped: &[&Regs], cov: &mut Coverage) {
        if dropped.iter().any(|r| r.valid) {
            cov.hit("reset_drops_packets");
        }
        if c.input.pkt.is_some() {
            cov.hit("packet_on_reset");
        }
        if c.input.tick {
            cov.hit("tick_on_reset");
        }
        for (b, w) in self.before_reset.iter_mut().zip(&mut self.written_at) {
            *b |= w.take().is_some();
        }
        self.recent = [None; 5];
        self.model.reset();
    }

    fn drive(dut: &mut dyn Dut, _now: u32, c: &Cycle) {
        // The port widths give K and the load width W: m_row is K * W bits, s_deltas K * (W + 1).
        let width = |n: &str| {
            dut.ports()
                .iter()
                .find(|p| p.name == n)
                .map_or(0, |p| p.width)
        };
        let (row_w, d_w) = (width(ports::M_ROW.0), width(ports::S_DELTAS.0));
        let k = (d_w - row_w) as usize;
        // The descriptor words as the shim's one definition packs them (link count and port do
        // not matter here).
        let shim = LoadShim::with(k as u32, row_w / k as u32, 1, 0);
        dut.set(ports::S_RESET, c.reset as u64);
        dut.set(ports::S_TICK, c.input.tick as u64);
        match &c.input.pkt {
            Some(p) => {
                dut.set(ports::S_VALID, 1);
                dut.set(ports::S_LINK, p.link as u64);
                dut.set(ports::S_UPDATE, p.update as u64);
                dut.set(ports::S_FEEDBACK, p.feedback as u64);
                set_field(dut, ports::S_DELTAS, &shim.rtl_deltas(&p.deltas));
                set_field(dut, ports::S_PATH_LOAD, &shim.rtl_path_load(&p.path_load));
            }
            None => {
                // Garbage everywhere but s_valid: none of it may be taken.
                dut.set(ports::S_VALID, 0);
                let mut r = golden_model::rng::SplitMix64::new(c.noise);
                dut.set(ports::S_LINK, r.next_u64() & 0xFFFF);
                dut.set(ports::S_UPDATE, r.next_u64() & 1);
                dut.set(ports::S_FEEDBACK, r.next_u64() & 1);
                let d: Vec<u64> = (0..k).map(|_| r.next_u64()).collect();
                set_field(dut, ports::S_DELTAS, &pack(d, shim.delta_bits(), k));
                let pl: Vec<u64> = (0..k).map(|_| r.next_u64()).collect();
                set_field(dut, ports::S_PATH_LOAD, &pack(pl, shim.path_load_bits(), k));
            }
        }
    }

    fn expected(&self, lat: &OutputStage<Regs>, _m_ready: bool) -> PortValues {
        let o = &lat.out;
        let k = self.shape.slots;
        let path = if o.path.is_empty() {
            pack([], self.shape.path_bits(), k)
        } else {
            o.path.clone()
        };
        let row = if o.row.is_empty() {
            pack([], self.shape.load_bits, k)
        } else {
            o.row.clone()
        };
        let mut v: PortValues = vec![
            (ports::M_VALID, o.valid as u64),
            (ports::M_BAD, o.bad as u64),
        ];
        v.extend(path.into_iter().map(|c| (ports::M_PATH_LOAD, c)));
        v.extend(row.into_iter().map(|c| (ports::M_ROW, c)));
        v.extend([
            (ports::M_SAT_MASK, o.sat_mask),
            (ports::STATUS_SAT_COUNT, o.sat_count & 0xFFFF_FFFF),
            (ports::STATUS_BAD_COUNT, o.bad_count & 0xFFFF_FFFF),
            // The tick counter is one stage ahead of the packet results.
            (
                ports::STATUS_TICK_COUNT,
                self.model.counters.ticks & 0xFFFF_FFFF,
            ),
        ]);
        v
    }

    fn fire(&mut self, _now: u32, c: &Cycle, cov: &mut Coverage) -> Regs {
        let sh = self.shape;
        let i = &c.input;
        if i.tick {
            cov.hit(if i.pkt.is_some() {
                "tick_with_packet"
            } else {
                "tick_alone"
            });
        }
        // Ticks counted when this cycle's packet is processed (its own tick included).
        let ticks_now = self.model.counters.ticks + i.tick as u64;
        // The RTL's counters show the packets before the one on `m_*`.
        let (sat_before, bad_before) = (self.model.sat_count, self.model.bad_count);
        let o = self.model.step(i);
        let mut upd_link = None;
        match &i.pkt {
            None => cov.hit("no_packet"),
            Some(p) => {
                if o.bad {
                    cov.hit("bad_link");
                } else {
                    cov.hit(match (p.update, p.feedback) {
                        (true, true) => "update_and_feedback",
                        (true, false) => "update",
                        (false, true) => "feedback",
                        (false, false) => "neither",
                    });
                    if self.before_reset[p.link as usize] {
                        // The RTL's RAM row is from before the reset (until an update writes
                        // it again); the model's row is empty.
                        cov.hit("row_from_before_reset");
                    }
                    if let Some(at) = self.written_at[p.link as usize] {
                        let age = ticks_now - at;
                        if age >= sh.slots as u64 {
                            cov.hit("row_aged_out");
                        } else if age > 0 {
                            cov.hit("row_aged_partly");
                        }
                    }
                    let names = [
                        "back_to_back_same_link",
                        "same_link_two_apart",
                        "same_link_three_apart",
                        "same_link_four_apart",
                        "same_link_five_apart",
                    ];
                    if let Some(d) = self.recent.iter().position(|l| *l == Some(p.link)) {
                        cov.hit(names[d]);
                        if d == 0 && i.tick {
                            cov.hit("back_to_back_across_tick");
                        }
                    }
                    if p.update {
                        upd_link = Some(p.link);
                        self.written_at[p.link as usize] = Some(ticks_now);
                        self.before_reset[p.link as usize] = false;
                        let max = (1u64 << sh.load_bits) - 1;
                        for (k, v) in o.row.iter().enumerate() {
                            if o.sat_mask >> k & 1 == 1 {
                                assert!(
                                    *v == 0 || *v == max,
                                    "a saturated entry is 0 or the maximum"
                                );
                                cov.hit(if *v == 0 { "sat_low" } else { "sat_high" });
                            }
                        }
                    }
                    if p.feedback && o.path_load.iter().any(|v| *v == (1 << sh.path_bits()) - 1) {
                        cov.hit("path_saturated");
                    }
                }
            }
        }
        self.recent = [
            upd_link,
            self.recent[0],
            self.recent[1],
            self.recent[2],
            self.recent[3],
        ];
        Regs {
            valid: o.valid,
            bad: o.bad,
            path: if o.valid {
                pack(o.path_load.iter().copied(), sh.path_bits(), sh.slots)
            } else {
                Vec::new()
            },
            row: if o.row.is_empty() {
                Vec::new()
            } else {
                pack(o.row.iter().copied(), sh.load_bits, sh.slots)
            },
            sat_mask: o.sat_mask as u64,
            sat_count: sat_before,
            bad_count: bad_before,
        }
    }
}

/// A packet on `link` with random contents: deltas mostly small, sometimes at the extremes
/// (so both saturations happen), path loads sometimes near the top of their field.
fn packet(sh: Shape, link: impl Strategy<Value = u32>) -> impl Strategy<Value = Packet> {
    let lo = -(1i64 << sh.load_bits);
    let hi = (1i64 << sh.load_bits) - 1;
    let small = (1i64 << sh.load_bits) / 16;
    // Most packets carry small changes; one in eight also carries extremes, so rows reach
    // both saturations without sitting there.
    let small_delta = -small..=small * 2;
    let wild_delta = prop_oneof![4 => -small..=small, 1 => Just(hi), 1 => Just(lo), 1 => lo..=hi];
    let deltas = prop_oneof![
        7 => prop::collection::vec(small_delta, sh.slots),
        1 => prop::collection::vec(wild_delta, sh.slots),
    ];
    let pmax = (1u64 << sh.path_bits()) - 1;
    let path = prop_oneof![3 => 0..=pmax / 4, 1 => pmax - pmax / 64..=pmax];
    (
        link,
        prop::bool::weighted(0.7),
        deltas,
        prop::bool::weighted(0.5),
        prop::collection::vec(path, sh.slots),
    )
        .prop_map(|(link, update, deltas, feedback, path_load)| Packet {
            link,
            update,
            deltas,
            feedback,
            path_load,
        })
}

/// A link index: mostly in range, sometimes just past it or far out.
fn any_link(links: u32) -> impl Strategy<Value = u32> {
    prop_oneof![
        20 => 0..links,
        1 => links..links + 4,
        1 => Just(0xFFFF_u32),
    ]
}

/// One stretch of traffic: a hot-link burst, mixed traffic with idle cycles, a run of ticks
/// (long enough to age whole rows out), or a burst ending in a reset.
fn segment(sh: Shape, links: u32) -> impl Strategy<Value = Vec<Cycle>> {
    let k = sh.slots;
    let cycle = move |pkt: BoxedStrategy<Option<Packet>>, tick_p: f64| {
        (prop::bool::weighted(tick_p), pkt, any::<u64>())
            .prop_map(|(tick, pkt, noise)| Cycle {
                input: model::In { tick, pkt },
                reset: false,
                noise,
            })
            .boxed()
    };
    let hot = (0..links).prop_flat_map(move |l| {
        prop::collection::vec(
            cycle(
                prop::option::weighted(0.95, packet(sh, Just(l))).boxed(),
                0.03,
            ),
            4..60,
        )
    });
    let mixed = prop::collection::vec(
        cycle(
            prop::option::weighted(0.7, packet(sh, any_link(links))).boxed(),
            0.02,
        ),
        10..80,
    );
    let ticks = prop::collection::vec(cycle(Just(None).boxed(), 1.0), 1..k + 3);
    // A reset after a burst on one link (packets in flight at its edge, rows the RAM keeps),
    // its own cycle with a packet and a tick half the time each (neither taken); `held`, the
    // reset lasts two cycles.
    let reset = (
        (0..links).prop_flat_map(move |l| {
            prop::collection::vec(
                cycle(packet(sh, Just(l)).prop_map(Some).boxed(), 0.03),
                2..20,
            )
        }),
        cycle(
            prop::option::weighted(0.5, packet(sh, any_link(links))).boxed(),
            0.5,
        ),
        prop::bool::weighted(0.25),
    )
        .prop_map(|(mut v, mut r, held)| {
            r.reset = true;
            v.push(r.clone());
            if held {
                v.push(r);
            }
            v
        });
    prop_oneof![4 => hot, 4 => mixed, 1 => ticks, 1 => reset]
}

/// Random stimulus of about `len` cycles.
pub fn stimulus(cfg: &Config, len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Cycle>> {
    let sh = Shape::of(cfg);
    let n = (len.start / 40).max(1)..(len.end / 40).max(2);
    prop::collection::vec(segment(sh, cfg.load_table.links), n)
        .prop_map(|v| v.into_iter().flatten().collect())
}

/// A replay trace (`docs/trace-format.md`) as co-sim stimulus: one line per clock cycle. What
/// the RTL's ports cannot carry is refused with the line's index: a link beyond `s_link`, a
/// vector of another length than the row's `K` slots (an empty one is allowed where the
/// packet does not use it), an element outside its wire field.
pub fn from_trace(
    inputs: &[model::In],
    width: &dyn Fn(&str) -> u32,
) -> Result<Vec<Cycle>, (usize, String)> {
    let (row_w, d_w) = (width(ports::M_ROW.0), width(ports::S_DELTAS.0));
    let k = (d_w - row_w) as usize;
    let w = row_w / k as u32;
    inputs
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if let Some(p) = &e.pkt {
                crate::fits("pkt.link", p.link.into(), width(ports::S_LINK.0))
                    .map_err(|m| (i, m))?;
                for (name, len, used) in [
                    ("pkt.deltas", p.deltas.len(), p.update),
                    ("pkt.path_load", p.path_load.len(), p.feedback),
                ] {
                    if len != k && (used || len != 0) {
                        return Err((
                            i,
                            format!(
                                "{name} has {len} elements; the RTL's port carries the row's \
                                 {k} slots"
                            ),
                        ));
                    }
                }
                let lo = -(1i64 << w);
                if let Some(d) = p.deltas.iter().find(|d| !(lo..-lo).contains(d)) {
                    return Err((
                        i,
                        format!(
                            "pkt.deltas: {d} does not fit the RTL's {}-bit signed field \
                             ({lo} to {})",
                            w + 1,
                            -lo - 1
                        ),
                    ));
                }
                let pb = w + strack_config::PATH_LOAD_EXTRA_BITS;
                if let Some(v) = p.path_load.iter().find(|v| **v >> pb != 0) {
                    return Err((
                        i,
                        format!(
                            "pkt.path_load: {v} does not fit the RTL's {pb}-bit field (0 to {})",
                            (1u64 << pb) - 1
                        ),
                    ));
                }
            }
            Ok(Cycle {
                input: e.clone(),
                reset: false,
                noise: i as u64,
            })
        })
        .collect()
}
