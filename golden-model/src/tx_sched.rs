//! The send side's transmit scheduler (`docs/blocks/tx_sched.md`): which connection a
//! transmit opportunity serves.
//!
//! DECISION (the scheduler's rule). Each connection has a "has work" bit, written by the send
//! side after every event on it (a retransmission, a probe or new data inside its window).
//! The connections are taken in groups of 32 (`id / 32`); the scheduler serves one group at a
//! time:
//! - **the candidate** is the lowest set bit of the served group's mask `cur`, a snapshot of
//!   the group's bits taken when the group was loaded. A transmit opportunity taken this cycle
//!   serves the candidate and clears its bit in `cur` (the connection's own bit is rewritten by
//!   the event it then causes). A connection whose work went away after the snapshot is still
//!   served: its transmit event then sends nothing.
//! - **the next group** is searched for every cycle: the first group with a set bit after the
//!   group that is served once this cycle's load is done, cyclically (the served group itself
//!   last). The search reads the groups' "any bit" flags as registered one cycle earlier and
//!   takes two cycles; the group's mask is then read from the bits of that cycle, a third.
//!   A result is kept (`nxt`) unless a group was loaded while it was under way (its start is
//!   then out of date).
//! - **a load**: when `cur` is empty after this cycle's take and `nxt` holds a group, that
//!   group's mask and number become `cur`. So a group switch costs at least two cycles with no
//!   candidate, and every group with work is visited in turn: round-robin by group, lowest id
//!   first inside a group.
//!
//! The model keeps the same registers as the RTL: the rule is a rule about cycles. A reset
//! clears every bit and register.

/// Connections per group.
pub const GROUP: u32 = 32;

/// One cycle's inputs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct In {
    pub reset: bool,
    /// Write connection `.0`'s has-work bit to `.1` (ids out of range: ignored).
    pub set: Option<(u32, bool)>,
    /// A transmit opportunity is taken this cycle (serves the candidate, if there is one).
    pub take: bool,
}

/// What one cycle did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Done {
    /// The connection served (an opportunity was taken with a candidate).
    pub served: Option<u32>,
    /// A group was loaded: its number and mask.
    pub loaded: Option<(u32, u32)>,
    /// The load dropped a search under way.
    pub dropped: bool,
    /// The search launched this cycle found a group at or before its start (it wrapped).
    pub wrapped: bool,
}

/// A search result on its way: the group found, or none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Found {
    valid: bool,
    group: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxSched {
    connections: u32,
    groups: u32,
    /// The has-work bits, one word per group (bit `id % 32` of word `id / 32`).
    work: Vec<u32>,
    /// Per group, any bit set, as the bits were on the cycle before.
    any: Vec<bool>,
    /// The searches launched one and two cycles ago.
    s1: Found,
    s2: Found,
    /// The next group to load and its mask.
    nxt: Found,
    nxt_mask: u32,
    /// The served group and what is left of its snapshot.
    cur_group: u32,
    cur: u32,
}

impl TxSched {
    pub fn new(connections: u32) -> Self {
        let groups = connections.div_ceil(GROUP).max(1);
        TxSched {
            connections,
            groups,
            work: vec![0; groups as usize],
            any: vec![false; groups as usize],
            s1: Found::default(),
            s2: Found::default(),
            nxt: Found::default(),
            nxt_mask: 0,
            // The last group is "served" (empty) at the start: the first search starts at 0.
            cur_group: groups - 1,
            cur: 0,
        }
    }

    /// The connection a transmit opportunity taken this cycle would serve.
    pub fn candidate(&self) -> Option<u32> {
        (self.cur != 0).then(|| self.cur_group * GROUP + self.cur.trailing_zeros())
    }

    /// Connection `id`'s has-work bit.
    pub fn work(&self, id: u32) -> bool {
        id < self.connections && self.mask(id / GROUP) >> (id % GROUP) & 1 == 1
    }

    fn mask(&self, group: u32) -> u32 {
        self.work[group as usize]
    }

    /// The first group with a bit set after `start`, cyclically (`start` itself last).
    fn search(&self, start: u32) -> Found {
        (1..=self.groups)
            .map(|k| (start + k) % self.groups)
            .find(|&g| self.any[g as usize])
            .map_or(Found::default(), |group| Found { valid: true, group })
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &In) -> Done {
        if i.reset {
            *self = TxSched::new(self.connections);
            return Done::default();
        }
        let served = self.candidate().filter(|_| i.take);
        let left = match served {
            Some(id) => self.cur & !(1 << (id % GROUP)),
            None => self.cur,
        };
        let load = left == 0 && self.nxt.valid;
        let start = if load { self.nxt.group } else { self.cur_group };
        let launched = self.search(start);
        let done = Done {
            served,
            loaded: load.then_some((self.nxt.group, self.nxt_mask)),
            dropped: load && (self.s1.valid || self.s2.valid),
            wrapped: launched.valid && launched.group <= start,
        };
        // The registers, all from this cycle's values.
        let nxt = Found {
            valid: self.s2.valid && !load,
            group: self.s2.group,
        };
        let nxt_mask = self.mask(self.s2.group);
        let s2 = Found {
            valid: self.s1.valid && !load,
            group: self.s1.group,
        };
        (self.cur, self.cur_group) = if load {
            (self.nxt_mask, self.nxt.group)
        } else {
            (left, self.cur_group)
        };
        self.nxt = nxt;
        self.nxt_mask = nxt_mask;
        self.s2 = s2;
        self.s1 = launched;
        self.any = (0..self.groups).map(|g| self.mask(g) != 0).collect();
        if let Some((id, w)) = i.set.filter(|&(id, _)| id < self.connections) {
            let (word, bit) = (&mut self.work[(id / GROUP) as usize], 1 << (id % GROUP));
            *word = if w { *word | bit } else { *word & !bit };
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &mut TxSched, cycles: usize, take: bool) -> Vec<Option<u32>> {
        (0..cycles)
            .map(|_| {
                s.step(&In {
                    take,
                    ..In::default()
                })
                .served
            })
            .collect()
    }

    #[test]
    fn groups_are_served_in_turn_lowest_id_first() {
        let mut s = TxSched::new(128);
        for id in [3, 5, 70, 100] {
            s.step(&In {
                set: Some((id, true)),
                ..In::default()
            });
        }
        let served: Vec<u32> = run(&mut s, 40, true)
            .into_iter()
            .flatten()
            .take(8)
            .collect();
        assert_eq!(served, [3, 5, 70, 100, 3, 5, 70, 100]);
    }

    #[test]
    fn a_cleared_bit_stops_being_served_and_one_connection_is_served_every_third_cycle() {
        let mut s = TxSched::new(64);
        s.step(&In {
            set: Some((40, true)),
            ..In::default()
        });
        let v = run(&mut s, 30, true);
        let at: Vec<usize> = (0..v.len()).filter(|&c| v[c] == Some(40)).collect();
        assert!(at.len() >= 8, "{v:?}");
        assert!(at.windows(2).all(|w| w[1] - w[0] == 3), "{at:?}");
        s.step(&In {
            set: Some((40, false)),
            ..In::default()
        });
        // What was loaded before the clear is still served, then nothing.
        let v = run(&mut s, 10, true);
        assert!(v[5..].iter().all(Option::is_none), "{v:?}");
    }

    #[test]
    fn nothing_is_served_without_a_take_and_a_reset_clears_all() {
        let mut s = TxSched::new(4);
        s.step(&In {
            set: Some((2, true)),
            ..In::default()
        });
        // Ids out of range are ignored.
        s.step(&In {
            set: Some((9, true)),
            ..In::default()
        });
        assert!(run(&mut s, 10, false).iter().all(Option::is_none));
        assert_eq!(s.candidate(), Some(2));
        s.step(&In {
            reset: true,
            ..In::default()
        });
        assert_eq!(s.candidate(), None);
        assert!(run(&mut s, 10, true).iter().all(Option::is_none));
    }
}
