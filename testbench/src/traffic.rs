//! The patterns over connection ids that the per-connection pipelines' stimuli share
//! (`nic_entropy`, `nic_sender`): one hot connection at a fixed distance, a few connections at
//! random, every connection in turn, the sweep after power-on or a reset with events offered
//! it must not take, and a reset in traffic. Each harness says what an event and an idle cycle
//! are, how two events of one connection are spaced, and what comes on the first ready cycle.

use golden_model::rng::SplitMix64;

/// A stimulus generator over `conns()` connections. The provided methods draw from `rng()` in
/// a fixed order, so a seed gives the same stimulus.
pub trait Traffic {
    /// What one cycle offers.
    type Offer;
    fn rng(&mut self) -> &mut SplitMix64;
    fn conns(&self) -> u32;
    /// Offer `offer` on the next cycle (`reset`: with `s_reset` high).
    fn emit(&mut self, reset: bool, offer: Self::Offer);
    /// A random event of the harness's mix on connection `k`.
    fn any(k: u16) -> Self::Offer;
    /// A cycle with nothing offered.
    fn idle() -> Self::Offer;
    /// `d - 1` cycles between two events of connection `k`.
    fn gap(&mut self, k: u16, d: usize);
    /// The first ready cycle after a sweep: most often an event on the last id (the record
    /// the sweep writes last).
    fn after_sweep(&mut self);
    /// Set the time the next cycle shows, ns.
    fn set_clock(&mut self, ns: u32);
    /// Drop the cycles emitted from the `at`-th on.
    fn truncate(&mut self, at: usize);
    /// Cycles emitted so far.
    fn emitted(&self) -> usize;
    /// A stretch of traffic of the harness's choosing.
    fn segment(&mut self);

    /// The whole stimulus of `len` cycles: the clock starting at 0, anywhere, or where it wraps
    /// a few thousand cycles after the power-on sweep; the sweep (now and then a reset before
    /// it is over, and another sweep); then segments.
    fn run(&mut self, len: usize) {
        let sweep_ns = (u64::from(self.conns()) + 1) * 16;
        let start = match self.rng().below(3) {
            0 => 0,
            1 => self.rng().next_u64() as u32,
            _ => (u64::from(u32::MAX) - sweep_ns - self.rng().below(len as u64 * 4 + 1)) as u32,
        };
        self.set_clock(start);
        self.sweep();
        if self.rng().chance(0.2) {
            let n = u64::from(self.conns()) + 1;
            let at = self.rng().below(n) as usize;
            self.truncate(at);
            let k = self.conn();
            self.emit(true, Self::any(k));
            self.sweep();
        }
        while self.emitted() < len {
            self.segment();
        }
    }

    /// A random connection.
    fn conn(&mut self) -> u16 {
        let n = u64::from(self.conns());
        self.rng().below(n) as u16
    }

    /// A connection other than `k` (there are at least two).
    fn other(&mut self, k: u16) -> u16 {
        let n = u64::from(self.conns());
        ((u64::from(k) + 1 + self.rng().below(n - 1)) % n) as u16
    }

    /// The sweep after power-on or a reset (`conns + 1` cycles), with events offered it must
    /// not take, most densely at its last cycles; then [`Traffic::after_sweep`].
    fn sweep(&mut self) {
        let n = u64::from(self.conns()) + 1;
        for i in 0..n {
            let p = if i + 3 >= n { 0.8 } else { 0.2 };
            if self.rng().chance(p) {
                let k = self.conn();
                self.emit(false, Self::any(k));
            } else {
                self.emit(false, Self::idle());
            }
        }
        self.after_sweep();
    }

    /// A reset in traffic (`before` events on the cycles before it, so it has some to drop and
    /// one to let finish; an offer on the reset cycle it must not take), half the time another
    /// before its sweep is over.
    fn reset_in_traffic(&mut self, before: usize) {
        for _ in 0..before {
            let k = self.conn();
            self.emit(false, Self::any(k));
        }
        let k = self.conn();
        self.emit(true, Self::any(k));
        if self.rng().chance(0.5) {
            let n = u64::from(self.conns()) + 1;
            for _ in 0..self.rng().below(n) {
                if self.rng().chance(0.3) {
                    let k = self.conn();
                    self.emit(false, Self::any(k));
                } else {
                    self.emit(false, Self::idle());
                }
            }
            let k = self.conn();
            self.emit(true, Self::any(k));
        }
        self.sweep();
    }

    /// One hot connection with its events `d` cycles apart, `d` in `1..=max_d`.
    fn hot(&mut self, max_d: u64) {
        let k = self.conn();
        let d = 1 + self.rng().below(max_d) as usize;
        for _ in 0..2 + self.rng().below(40) {
            self.emit(false, Self::any(k));
            self.gap(k, d);
        }
    }

    /// Two, three, eight or all connections at random, idle cycles among them.
    fn few(&mut self) {
        let conns = self.conns();
        let k = [2, 3, 8, conns][self.rng().below(4) as usize].min(conns);
        let set: Vec<u16> = if k == conns {
            (0..k).map(|i| i as u16).collect()
        } else {
            (0..k).map(|_| self.conn()).collect()
        };
        for _ in 0..10 + self.rng().below(190) {
            if self.rng().chance(0.8) {
                let c = set[self.rng().below(set.len() as u64) as usize];
                self.emit(false, Self::any(c));
            } else {
                self.emit(false, Self::idle());
            }
        }
    }

    /// Every connection in turn (up to 4096 of them), from a random one.
    fn turn(&mut self) {
        let conns = self.conns();
        let n = conns.min(4096);
        let from = u32::from(self.conn());
        for i in 0..n {
            self.emit(false, Self::any(((from + i) % conns) as u16));
        }
    }
}
