//! Per-connection context, as the NIC's pipelines keep it (`docs/blocks/context_pipe.md`):
//! one record per id, events applied one after another in the order they were accepted.
//!
//! The model knows nothing of RAM, stages or forwarding: an event reads its id's record,
//! a next-state function makes the new one, and the next event of that id sees it, whatever
//! the distance between them. What the model does keep is what a user can see of the
//! context's life:
//! - **the sweep**: at power-on and after `reset` every record is set to the initial one, one
//!   id per cycle and one cycle more for the last write to land, so the store is not ready
//!   for `ids + 1` cycles ([`sweep_cycles`]; power-on: cycles `0..=ids`; a reset on cycle `t`:
//!   cycles `t + 1..=t + ids + 1`). No event is taken while it is not ready, nor on a reset
//!   cycle; a reset restarts a sweep under way;
//! - **ids out of range** (`>= ids`): taken, reported bad, nothing read or written.
//!
//! The pipelines apply the next-state function a fixed number of cycles after an event is
//! taken and drop what is still in flight at a reset; that latency is the harness's business
//! (`testbench::context_pipe`), not the model's.

/// Cycles the store is not ready after power-on or after a reset cycle: one per id, and one
/// for the last id's write.
pub fn sweep_cycles(ids: u32) -> u32 {
    ids + 1
}

/// The records and the sweep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextStore<R: Clone> {
    records: Vec<R>,
    init: R,
    /// Cycles before the store takes events again (0: ready).
    sweep_left: u32,
}

/// An event: its id and the next-state function it applies to the id's record.
pub type Event<'a, R> = (u32, &'a dyn Fn(&R) -> R);

/// What one cycle did with its event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken<R> {
    /// No event, or not taken (not ready, or a reset cycle).
    No,
    /// Its id was out of range: nothing read or written.
    Bad,
    /// Applied: the record before and after.
    Applied { before: R, after: R },
}

impl<R: Clone> ContextStore<R> {
    /// `ids` records, all `init` once the power-on sweep ([`sweep_cycles`]) is over.
    pub fn new(ids: u32, init: R) -> Self {
        ContextStore {
            records: vec![init.clone(); ids as usize],
            init,
            sweep_left: sweep_cycles(ids),
        }
    }

    pub fn ids(&self) -> u32 {
        self.records.len() as u32
    }

    /// The store takes events this cycle (the RTL's `status_ready`).
    pub fn ready(&self) -> bool {
        self.sweep_left == 0
    }

    /// The record of `id` as the next event on it will see it.
    pub fn record(&self, id: u32) -> Option<&R> {
        self.records.get(id as usize)
    }

    /// One clock cycle: a reset and/or an event `(id, next-state function)`.
    pub fn step(&mut self, reset: bool, event: Option<Event<R>>) -> Taken<R> {
        let taken = match event {
            Some((id, f)) if self.ready() && !reset => match self.records.get_mut(id as usize) {
                Some(r) => {
                    let before = r.clone();
                    *r = f(&before);
                    Taken::Applied {
                        before,
                        after: r.clone(),
                    }
                }
                None => Taken::Bad,
            },
            _ => Taken::No,
        };
        if reset {
            // Whatever the sweep writes, it writes before any event can be taken again.
            self.records.iter_mut().for_each(|r| *r = self.init.clone());
            self.sweep_left = sweep_cycles(self.ids());
        } else {
            self.sweep_left = self.sweep_left.saturating_sub(1);
        }
        taken
    }
}

/// The check design's next-state function (`context_pipe`'s self-test, built on the shell the
/// NIC's pipelines use): a 32-bit record rotated left by 3, plus the id and the event's data.
/// A lost update, two events swapped or a stale read change the records that follow (all but
/// never the same value by chance).
pub fn check_next(id: u32, data: u16, record: u32) -> u32 {
    record
        .rotate_left(3)
        .wrapping_add((id << 16) | u32::from(data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_sweeps_at_power_on_and_after_a_reset() {
        let mut s = ContextStore::new(4, 7u32);
        let f = |r: &u32| r + 1;
        for _ in 0..5 {
            assert!(!s.ready());
            assert_eq!(s.step(false, Some((0, &f))), Taken::No);
        }
        assert!(s.ready());
        assert_eq!(
            s.step(false, Some((2, &f))),
            Taken::Applied {
                before: 7,
                after: 8
            }
        );
        // A reset cycle takes nothing; the store is ready again ids + 2 cycles after it.
        assert_eq!(s.step(true, Some((2, &f))), Taken::No);
        for _ in 0..5 {
            assert_eq!(s.step(false, Some((2, &f))), Taken::No);
        }
        assert_eq!(s.record(2), Some(&7));
        assert!(s.ready());
    }

    #[test]
    fn out_of_range_ids_touch_nothing() {
        let mut s = ContextStore::new(2, 0u32);
        for _ in 0..3 {
            s.step(false, None);
        }
        let f = |r: &u32| r + 1;
        assert_eq!(s.step(false, Some((2, &f))), Taken::Bad);
        assert_eq!(s.step(false, Some((65_535, &f))), Taken::Bad);
        assert_eq!((s.record(0), s.record(1)), (Some(&0), Some(&0)));
    }

    /// Two events on one id in either order give different records (so a swap is visible),
    /// and an event changes the record (so a lost one is) in the corners too.
    #[test]
    fn the_check_function_sees_order_and_loss() {
        let (a, b) = (check_next(1, 5, 0x1234_5678), check_next(1, 9, 0x1234_5678));
        assert_ne!(check_next(1, 9, a), check_next(1, 5, b));
        for r in [0, 1, u32::MAX, 0x8000_0000] {
            for d in [1, 0x8000, u16::MAX] {
                assert_ne!(check_next(0, d, r), r);
            }
        }
    }
}
