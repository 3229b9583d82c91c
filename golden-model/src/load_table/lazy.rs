//! The load table as the switch (P4) variants keep it: cleared lazily, by epoch, instead of by
//! a slot tick (issue 6; `p4/README.md`).
//!
//! A switch pipeline has no clock of its own to clear K slots per link on every slot boundary,
//! so time comes from the packet's ingress timestamp (48-bit ns, wrapping):
//!
//! - the packet's **slot number** is `a = ts >> slot_log2_ns` (wrapping with the timestamp);
//! - there are `R` slot registers (`R` = the power of two at or above `K`), each a cell per link
//!   `{epoch, load}`; slot number `s` lives in register `s mod R` with epoch
//!   `(s / R) mod 2^E` (`E` = [`Config::lt_epoch_bits`]);
//! - the packet's element `k` is slot `a + k`: its cell's load counts only when the cell's epoch
//!   is that slot's; a stale cell reads as zero (the lazy clear) and is rewritten with the new
//!   epoch when the packet writes it.
//!
//! **Equivalence with the eager model** ([`super::LoadTable`], a tick per slot boundary): a read
//! of slot `y` finds a cell last written for slot `x` (same register, so `y - x` is a multiple of
//! `R`). The eager model has cleared it whenever `x != y`; the lazy one agrees unless
//! `y - x` is a non-zero multiple of `R * 2^E`, i.e. a cell left untouched for that many slots
//! (2^22 slots, 78 hours, at the default 67 ms slot; the timestamp wraps then anyway). The
//! proptest below checks equal outputs for any packets and slot gaps within that span, and a
//! unit test shows the aliasing right at it.

use super::{apply, Counters, Out, Packet, Params};
use strack_config::{Config, LT_TIMESTAMP_BITS};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LazyLoadTable {
    params: Params,
    slot_log2_ns: u32,
    epoch_bits: u32,
    /// `cells[r][l] = (epoch, load)`: register `r`, link `l`.
    pub cells: Vec<Vec<(u64, u64)>>,
    pub sat_count: u64,
    pub bad_count: u64,
    pub counters: Counters,
}

impl LazyLoadTable {
    /// `epoch_bits` in `1..=32`; the config's is [`Config::lt_epoch_bits`].
    pub fn new(params: Params, slot_log2_ns: u32, epoch_bits: u32) -> Self {
        let ring = params.slots.next_power_of_two() as usize;
        let cells = vec![vec![(0, 0); params.links as usize]; ring];
        LazyLoadTable {
            params,
            slot_log2_ns,
            epoch_bits,
            cells,
            sat_count: 0,
            bad_count: 0,
            counters: Counters::default(),
        }
    }

    pub fn from_config(cfg: &Config) -> Self {
        LazyLoadTable::new(
            Params::from_config(cfg),
            cfg.load_table.slot_log2_ns,
            cfg.lt_epoch_bits(),
        )
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// `R`, the slot registers.
    pub fn ring(&self) -> u64 {
        self.cells.len() as u64
    }

    /// The slot number of a packet timestamped `ts_ns` (its low 48 bits count).
    pub fn slot_of(&self, ts_ns: u64) -> u64 {
        (ts_ns & ((1u64 << LT_TIMESTAMP_BITS) - 1)) >> self.slot_log2_ns
    }

    /// Register and epoch of slot number `s` (slot numbers wrap with the timestamp).
    pub fn place(&self, s: u64) -> (usize, u64) {
        let s = s & ((1u64 << (LT_TIMESTAMP_BITS - self.slot_log2_ns)) - 1);
        let r = s % self.ring();
        let e = (s / self.ring()) & ((1u64 << self.epoch_bits) - 1);
        (r as usize, e)
    }

    /// A bad packet: forwarded untouched, counted (the frame parser's malformed shims too).
    pub fn count_bad(&mut self) {
        self.counters.packets += 1;
        self.bad_count += 1;
    }

    /// One packet at ingress time `ts_ns` (`None`: nothing happens).
    pub fn step(&mut self, ts_ns: u64, pkt: Option<&Packet>) -> Out {
        let Some(p) = pkt else {
            return Out::default();
        };
        if self.params.check(p).is_err() {
            self.count_bad();
            return Out::bad(p);
        }
        self.counters.packets += 1;
        let a = self.slot_of(ts_ns);
        let link = p.link as usize;
        // The row as the eager model would hold it: each slot's cell, zero when stale.
        let places: Vec<(usize, u64)> = (0..self.params.slots as u64)
            .map(|i| self.place(a + i))
            .collect();
        let mut row: Vec<u64> = places
            .iter()
            .map(|&(r, e)| match self.cells[r][link] {
                (epoch, load) if epoch == e => load,
                _ => 0,
            })
            .collect();
        let out = apply(
            &self.params,
            &mut row,
            p,
            &mut self.sat_count,
            &mut self.counters,
        );
        // Every slot register is read-modify-written once by a packet that updates or asks for
        // feedback (the P4 does the same; a stale cell is rewritten with its new epoch).
        if p.update || p.feedback {
            for (&(r, e), v) in places.iter().zip(&row) {
                self.cells[r][link] = (e, *v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{In, LoadTable};
    use super::*;
    use proptest::prelude::*;

    fn params(links: u32, slots: u32, load_bits: u32) -> Params {
        Params {
            links,
            slots,
            load_bits,
        }
    }

    fn update(link: u32, deltas: &[i64], feedback: bool) -> Packet {
        Packet {
            link,
            update: true,
            deltas: deltas.to_vec(),
            feedback,
            path_load: vec![0; deltas.len()],
        }
    }

    #[test]
    fn default_config_has_16_registers_and_18_bit_epochs() {
        let cfg = Config::default();
        assert_eq!(cfg.lt_ring_slots(), 16);
        // 48 - 26 = 22 slot-number bits, 4 of them the register.
        assert_eq!(cfg.lt_epoch_bits(), 18);
        let t = LazyLoadTable::from_config(&cfg);
        assert_eq!(t.place(16 * 5 + 3), (3, 5));
        // Slot numbers wrap with the 48-bit timestamp.
        assert_eq!(t.slot_of(1 << 48 | 5 << 26), 5);
        assert_eq!(t.place((1 << 22) + 17), (1, 1));
    }

    #[test]
    fn a_slot_ends_by_its_cells_going_stale() {
        let mut t = LazyLoadTable::new(params(2, 3, 8), 10, 8);
        let slot = 1u64 << 10;
        let o = t.step(0, Some(&update(1, &[1, 2, 3], true)));
        assert_eq!(o.path_load, vec![1, 2, 3]);
        // Same slot, another packet: the row is there.
        assert_eq!(
            t.step(slot - 1, Some(&update(1, &[0; 3], true))).row,
            [1, 2, 3]
        );
        // Next slot: slot 0 has ended, slot 3 is new.
        assert_eq!(t.step(slot, Some(&update(1, &[0; 3], true))).row, [2, 3, 0]);
        // Three slots later everything has ended; the other link never had anything.
        assert_eq!(
            t.step(4 * slot, Some(&update(1, &[0; 3], true))).row,
            [0; 3]
        );
        assert_eq!(
            t.step(4 * slot, Some(&update(0, &[0; 3], true))).row,
            [0; 3]
        );
    }

    #[test]
    fn a_cell_untouched_for_exactly_the_alias_span_reads_stale_data() {
        // R = 4, E = 2: the span is 16 slots. This is the documented limit of the lazy clear.
        let mut lazy = LazyLoadTable::new(params(1, 3, 8), 10, 2);
        let mut eager = LoadTable::new(params(1, 3, 8));
        let p = update(0, &[5, 0, 0], false);
        lazy.step(0, Some(&p));
        eager.step(&In {
            tick: false,
            pkt: Some(p),
        });
        let fb = Packet {
            link: 0,
            feedback: true,
            path_load: vec![0; 3],
            ..Default::default()
        };
        for _ in 0..16 {
            eager.tick();
        }
        let e = eager.step(&In {
            tick: false,
            pkt: Some(fb.clone()),
        });
        let l = lazy.step(16 << 10, Some(&fb));
        assert_eq!(e.path_load, vec![0, 0, 0]);
        assert_eq!(l.path_load, vec![5, 0, 0]);
    }

    /// A packet after `gap` slot boundaries, at `offset` ns into its slot.
    #[derive(Debug, Clone)]
    struct Event {
        gap: u64,
        offset: u64,
        pkt: Packet,
    }

    fn arb_events(
        links: u32,
        slots: usize,
        bits: u32,
        max_gap: u64,
        n: usize,
    ) -> impl Strategy<Value = Vec<Event>> {
        let lo = -(1i64 << bits);
        let hi = (1i64 << bits) - 1;
        let delta = prop_oneof![lo..=hi, -4i64..=4, Just(lo), Just(hi)];
        let gap = prop_oneof![4 => Just(0u64), 3 => Just(1u64), 2 => 0..=max_gap];
        let event = (
            gap,
            0u64..1 << 10,
            0..links + 1,
            any::<bool>(),
            prop::collection::vec(delta, slots),
            any::<bool>(),
            prop::collection::vec(0u64..1 << (bits + 4), slots),
        )
            .prop_map(
                |(gap, offset, link, update, deltas, feedback, path_load)| Event {
                    gap,
                    offset,
                    pkt: Packet {
                        link,
                        update,
                        deltas,
                        feedback,
                        path_load,
                    },
                },
            );
        prop::collection::vec(event, 1..n)
    }

    /// Plays `events` into both models from slot number `start`; the outputs must agree.
    fn equivalent(
        p: Params,
        epoch_bits: u32,
        start: u64,
        events: &[Event],
    ) -> Result<(), TestCaseError> {
        let s = 10; // 1.024 us slots
        let mut lazy = LazyLoadTable::new(p.clone(), s, epoch_bits);
        let mut eager = LoadTable::new(p);
        let mut slot = start;
        for (n, ev) in events.iter().enumerate() {
            // The eager model ticks at every slot boundary; the lazy one only sees the time.
            for _ in 0..ev.gap {
                eager.step(&In {
                    tick: true,
                    pkt: None,
                });
            }
            slot += ev.gap;
            let ts = (slot << s | ev.offset) & ((1 << LT_TIMESTAMP_BITS) - 1);
            let e = eager.step(&In {
                tick: false,
                pkt: Some(ev.pkt.clone()),
            });
            let l = lazy.step(ts, Some(&ev.pkt));
            prop_assert_eq!(&l, &e, "event {} at slot {}: {:?}", n, slot, ev);
        }
        prop_assert_eq!(lazy.sat_count, eager.sat_count);
        prop_assert_eq!(lazy.bad_count, eager.bad_count);
        Ok(())
    }

    proptest! {
        /// Wide epochs (the default config's 18 bits at this slot length would be 34, capped at
        /// 32), gaps up to several times K, starting anywhere, including just before the
        /// timestamp wraps.
        #[test]
        fn lazy_epochs_give_the_eager_models_outputs(
            events in arb_events(3, 10, 16, 40, 300),
            start in prop_oneof![0u64..1 << 20, ((1u64 << 38) - 200)..(1u64 << 38)],
        ) {
            equivalent(params(3, 10, 16), 32, start, &events)?;
        }

        /// Narrow epochs (R = 4, E = 3: the span is 32 slots), so the epoch counter wraps many
        /// times. One link, every packet writes (an update unless it asks for feedback), and
        /// gaps of at most 4 slots: every cell is rewritten well within the span.
        #[test]
        fn lazy_epochs_agree_across_epoch_wrap_when_cells_stay_fresh(
            events in arb_events(0, 3, 8, 4, 200),
            start in 0u64..64,
        ) {
            // The strategy's links are 0..1: link 0 only.
            let events: Vec<Event> = events
                .into_iter()
                .map(|mut e| {
                    e.pkt.update |= e.pkt.link == 0 && !e.pkt.feedback;
                    e
                })
                .collect();
            equivalent(params(1, 3, 8), 3, start, &events)?;
        }
    }
}
