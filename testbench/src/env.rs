//! The SACK sender's closed loop's environment (`sack_sender::ClosedLoop`): an absolute clock
//! over the wrapping 32-bit ns time, and a model link (a queue of items with arrival times).

use std::collections::BTreeMap;

/// Absolute time (u64 ns) from the wrapping 32-bit `now` the blocks see. Steps are far apart
/// by less than 2^31 ns, so each advance is `now - last` on the wrapping clock.
#[derive(Debug, Clone, Default)]
pub struct AbsClock {
    last: Option<u32>,
    abs: u64,
}

impl AbsClock {
    /// The absolute time of `now`, without moving the clock.
    pub fn at(&self, now: u32) -> u64 {
        match self.last {
            Some(l) => self.abs + now.wrapping_sub(l) as u64,
            None => 0,
        }
    }
    /// Move the clock to `now`; returns the absolute time.
    pub fn advance(&mut self, now: u32) -> u64 {
        self.abs = self.at(now);
        self.last = Some(now);
        self.abs
    }
}

/// A one-way link: items leave in arrival-time order (ties in the order they were sent).
#[derive(Debug, Clone)]
pub struct Link<T> {
    q: BTreeMap<(u64, u64), T>,
    seq: u64,
}

impl<T> Default for Link<T> {
    fn default() -> Self {
        Link {
            q: BTreeMap::new(),
            seq: 0,
        }
    }
}

impl<T> Link<T> {
    pub fn send(&mut self, arrive: u64, item: T) {
        self.q.insert((arrive, self.seq), item);
        self.seq += 1;
    }
    /// The first item due by `t`, left in place.
    pub fn peek_due(&self, t: u64) -> Option<&T> {
        self.q
            .first_key_value()
            .filter(|((a, _), _)| *a <= t)
            .map(|(_, v)| v)
    }
    /// The first item due by `t`, taken.
    pub fn pop_due(&mut self, t: u64) -> Option<T> {
        if self.peek_due(t).is_some() {
            self.q.pop_first().map(|(_, v)| v)
        } else {
            None
        }
    }
    pub fn len(&self) -> usize {
        self.q.len()
    }
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_runs_across_the_32_bit_wrap() {
        let mut c = AbsClock::default();
        assert_eq!(c.advance(u32::MAX - 5), 0);
        assert_eq!(c.at(4), 10);
        assert_eq!(c.advance(4), 10);
        assert_eq!(c.advance(104), 110);
    }

    #[test]
    fn link_delivers_in_arrival_order_and_only_when_due() {
        let mut l = Link::default();
        l.send(30, 'a');
        l.send(10, 'b');
        l.send(10, 'c');
        assert_eq!(l.peek_due(9), None);
        assert_eq!(l.pop_due(10), Some('b'));
        assert_eq!(l.pop_due(10), Some('c'));
        assert_eq!(l.pop_due(29), None);
        assert_eq!(l.pop_due(31), Some('a'));
        assert!(l.is_empty());
    }
}
