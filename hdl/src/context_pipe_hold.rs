//! The context shell with three hold stages (`docs/blocks/context_pipe.md`, "With hold
//! stages"): the same RAM, sweep, bad-id and reset rules as [`ContextPipe`], with three stages
//! H1..H3 between S2 and the loop, so that a user whose next-state function has wide work (the
//! receive side's search of the window) can do that work over stages on an early snapshot of
//! the record and leave only a select in the loop.
//!
//! ```text
//!  S0        S1            S2                H1              H2             H3             S3 (the loop)
//!  read ─► RAM data,  ─► base = newest ─► + fwd0 if 4 ─► + fwd0 if 3 ─► + fwd0 if 2 ─► + fwd0 if 1
//!          id compares   of raw, fwd0     ahead had the   ahead         ahead          ahead ─► s_next
//!          with the 7    (5 ahead), fwd1  same id;                                          ─► fwd0 ─► fwd1 ─► fwd2
//!          events ahead  (6), fwd2 (7)    h_record out                                      └─► wr_* ─► RAM write
//! ```
//!
//! **Hazards.** An event's own record is written at the end of its S3 + 1, seven cycles after
//! its read, so the events 1 to 7 ahead on the same id are forwarded: 5 to 7 in S2 from `fwd0`
//! to `fwd2` (newest first), and 4, 3, 2, 1 as the record passes H1, H2, H3 and S3, each stage
//! taking `fwd0` (the record made by the event then one stage past the loop) when that event
//! had the same id. The compares are made in S1 against the events then in S2, H1, H2, H3, S3,
//! `fwd0` and `fwd1`, and registered; every stage selects under registered controls. The only
//! one-cycle loop is still `fwd0 ─► m_record ─► next-state function ─► fwd0`.
//!
//! **What H1 shows the user.** `h_record` is the record as the events 4 or more ahead left it
//! (a snapshot), `h_event` the event, and `h_eq1..h_eq3` say which of the events 1 to 3 ahead
//! (then in H2, H3 and S3) have the same id: the user corrects its snapshot work for those.
//!
//! A reset drops the events in S1, S2 and H1..H3 (the one in S3 completes). This is a separate
//! module from [`ContextPipe`], not an option of it: the shell without hold stages is timed at
//! its own netlist, which an unused option changed (`docs/blocks/nic_rx.md`, "Timing").

use rust_hdl::prelude::*;

use crate::context_ram::ContextRam;
use crate::init_dff::InitDff;

#[cfg(doc)]
use crate::context_pipe::ContextPipe;

/// An event taken on cycle `t` is in S3 (`m_*`) on cycle `t + COMPUTE_STAGE`.
pub const COMPUTE_STAGE: u32 = 6;

/// Forwarding distances: the events 1 to 7 cycles ahead write after this one's read.
pub const FORWARD_DISTANCES: u32 = 7;

/// See the module documentation. `D`: record bits; `E`: event bits carried to S3.
#[derive(LogicBlock)]
pub struct ContextPipeHold<const D: usize, const E: usize> {
    pub clock: Signal<In, Clock>,

    /// Drop the events in flight before S3 and sweep every record to the initial one.
    pub s_reset: Signal<In, Bit>,
    /// An event is offered; taken when `status_ready` and not `s_reset`.
    pub s_valid: Signal<In, Bit>,
    /// Its id (`>= N`: bad).
    pub s_id: Signal<In, Bits<16>>,
    /// What the user needs of it, carried to H1 and S3.
    pub s_event: Signal<In, Bits<E>>,

    /// The event in S2 (taken two cycles ago; meaningless when none is there, or a bad id).
    pub g_event: Signal<Out, Bits<E>>,
    /// Its id's record as the events 5 or more ahead left it (what H1 holds next cycle), for
    /// a user that prepares H1's sums a stage early.
    pub g_record: Signal<Out, Bits<D>>,
    /// The event in H1 (taken three cycles ago; meaningless when none is there, or a bad id).
    pub h_event: Signal<Out, Bits<E>>,
    /// Its id's record as the events 4 or more ahead of it left it.
    pub h_record: Signal<Out, Bits<D>>,
    /// The event `k` ahead (in H2, H3, S3 for k = 1, 2, 3) is valid and has its id.
    pub h_eq1: Signal<Out, Bit>,
    pub h_eq2: Signal<Out, Bit>,
    pub h_eq3: Signal<Out, Bit>,
    /// The two records `h_record` is picked from: the one S2 passed on (the events 5 or more
    /// ahead) and the one the event 4 ahead made; `h_from_base` is 1 when `h_record` is the
    /// first. The flag is a register of its own, kept inverted so that synthesis does not merge
    /// it with the shell's: a user's narrow select on it does not load the net of the
    /// record's wide select (the receive side's "W or more past" test, `docs/blocks/nic_rx.md`).
    pub h_base: Signal<Out, Bits<D>>,
    pub h_fwd: Signal<Out, Bits<D>>,
    pub h_from_base: Signal<Out, Bit>,

    /// The record the event in H3 takes into S3 (as the events 2 or more ahead left it), for
    /// a user that prepares its sums a stage early.
    pub t_record: Signal<Out, Bits<D>>,

    /// S3 holds an event taken six cycles ago.
    pub m_valid: Signal<Out, Bit>,
    /// Its id was out of range (`m_record` is then meaningless and `s_next` is not written).
    pub m_bad: Signal<Out, Bit>,
    /// `m_valid & !m_bad`, from a register of its own: `s_next` is written.
    pub m_write: Signal<Out, Bit>,
    pub m_id: Signal<Out, Bits<16>>,
    pub m_event: Signal<Out, Bits<E>>,
    /// Its id's record as every event before it left it.
    pub m_record: Signal<Out, Bits<D>>,
    /// `m_record` is the record the event right ahead made (`s_next` of the cycle before),
    /// not `t_record` of the cycle before: a user's sums prepared from either follow it.
    pub m_hit1: Signal<Out, Bit>,
    /// `!m_hit1` from a register of its own (kept inverted so that synthesis does not merge it
    /// with `m_hit1`'s): a user's loop selects on it do not load the net of `m_record`'s select.
    pub m_hit1_n: Signal<Out, Bit>,
    /// The record after it (the user's next-state function, combinational, same cycle).
    pub s_next: Signal<In, Bits<D>>,
    /// Bit `d - 1`: the event `d` cycles ahead (d = 1..=4) is valid and has the same id (the
    /// S1 compares carried along), for a user whose rule looks at what those events did.
    pub m_eq: Signal<Out, Bits<4>>,

    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,

    /// `N - 1`.
    cfg_last: Constant<Bits<16>>,
    cfg_init: Constant<Bits<D>>,
    /// Bit `d - 1`: forwarding at distance `d` is on (all on in products).
    cfg_fwd: Constant<Bits<8>>,
    /// Bit 0: `h_from_base` stored with the wrong sense; bit 1: `m_hit1_n` (0 in products).
    cfg_flip: Constant<Bits<2>>,

    ram: ContextRam<D>,
    sweeping: InitDff<Bit>,
    sweep_tail: InitDff<Bit>,
    sweep_id: DFF<Bits<16>>,
    sweep_last: InitDff<Bit>,

    // `pN_*` / `hN_*`: an event entering that stage.
    p1_valid: DFF<Bit>,
    p1_bad: DFF<Bit>,
    p1_id: DFF<Bits<16>>,
    p1_event: DFF<Bits<E>>,
    p2_valid: DFF<Bit>,
    p2_bad: DFF<Bit>,
    p2_id: DFF<Bits<16>>,
    p2_event: DFF<Bits<E>>,
    p2_raw: DFF<Bits<D>>,
    /// Bit `d - 1`: same id as the event `d` ahead (compared in S1).
    p2_eq: DFF<Bits<8>>,
    h1_valid: DFF<Bit>,
    h1_bad: DFF<Bit>,
    h1_id: DFF<Bits<16>>,
    h1_event: DFF<Bits<E>>,
    h1_rec: DFF<Bits<D>>,
    h1_eq: DFF<Bits<4>>,
    h1_from_base: DFF<Bit>,
    h2_valid: DFF<Bit>,
    h2_bad: DFF<Bit>,
    h2_id: DFF<Bits<16>>,
    h2_event: DFF<Bits<E>>,
    h2_rec: DFF<Bits<D>>,
    h2_eq: DFF<Bits<4>>,
    h3_valid: DFF<Bit>,
    h3_bad: DFF<Bit>,
    h3_id: DFF<Bits<16>>,
    h3_event: DFF<Bits<E>>,
    h3_rec: DFF<Bits<D>>,
    h3_eq: DFF<Bits<4>>,
    p3_valid: DFF<Bit>,
    p3_bad: DFF<Bit>,
    p3_write: DFF<Bit>,
    p3_id: DFF<Bits<16>>,
    p3_event: DFF<Bits<E>>,
    p3_base: DFF<Bits<D>>,
    p3_hit1: DFF<Bit>,
    p3_hit1_n: DFF<Bit>,
    p3_eq: DFF<Bits<4>>,
    fwd0_valid: DFF<Bit>,
    fwd0_id: DFF<Bits<16>>,
    fwd0_rec: DFF<Bits<D>>,
    fwd1_valid: DFF<Bit>,
    fwd1_id: DFF<Bits<16>>,
    fwd1_rec: DFF<Bits<D>>,
    fwd2_rec: DFF<Bits<D>>,
    wr_en: InitDff<Bit>,
    wr_id: DFF<Bits<16>>,
    wr_rec: InitDff<Bits<D>>,

    take: Signal<Local, Bit>,
    eq: Signal<Local, Bits<8>>,
    base: Signal<Local, Bits<D>>,
    snap: Signal<Local, Bits<D>>,
}

impl<const D: usize, const E: usize> ContextPipeHold<D, E> {
    /// `ids` records (1..=65536); `no_forward`: the distance (1..=7) whose forwarding is off,
    /// for the co-simulation's self-test only.
    pub fn new(ids: u32, init: Bits<D>, no_forward: Option<u32>) -> Self {
        assert!((1..=65_536).contains(&ids));
        assert!(no_forward.is_none_or(|d| (1..=FORWARD_DISTANCES).contains(&d)));
        let fwd = 0x7F & !no_forward.map_or(0, |d| 1u64 << (d - 1));
        ContextPipeHold {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_id: Default::default(),
            s_event: Default::default(),
            g_event: Default::default(),
            g_record: Default::default(),
            h_event: Default::default(),
            h_record: Default::default(),
            h_eq1: Default::default(),
            h_eq2: Default::default(),
            h_eq3: Default::default(),
            h_base: Default::default(),
            h_fwd: Default::default(),
            h_from_base: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_write: Default::default(),
            m_id: Default::default(),
            m_event: Default::default(),
            m_record: Default::default(),
            m_hit1: Default::default(),
            m_hit1_n: Default::default(),
            t_record: Default::default(),
            s_next: Default::default(),
            m_eq: Default::default(),
            status_ready: Default::default(),
            cfg_last: Constant::new(bits(u64::from(ids - 1))),
            cfg_init: Constant::new(init),
            cfg_fwd: Constant::new(bits(fwd)),
            cfg_flip: Constant::new(bits(0)),
            ram: ContextRam::new(ids as usize).with_output_register_in_ebr(),
            sweeping: InitDff::new(true),
            sweep_tail: InitDff::new(true),
            sweep_id: Default::default(),
            sweep_last: InitDff::new(ids == 1),
            p1_valid: Default::default(),
            p1_bad: Default::default(),
            p1_id: Default::default(),
            p1_event: Default::default(),
            p2_valid: Default::default(),
            p2_bad: Default::default(),
            p2_id: Default::default(),
            p2_event: Default::default(),
            p2_raw: Default::default(),
            p2_eq: Default::default(),
            h1_valid: Default::default(),
            h1_bad: Default::default(),
            h1_id: Default::default(),
            h1_event: Default::default(),
            h1_rec: Default::default(),
            h1_eq: Default::default(),
            h1_from_base: Default::default(),
            h2_valid: Default::default(),
            h2_bad: Default::default(),
            h2_id: Default::default(),
            h2_event: Default::default(),
            h2_rec: Default::default(),
            h2_eq: Default::default(),
            h3_valid: Default::default(),
            h3_bad: Default::default(),
            h3_id: Default::default(),
            h3_event: Default::default(),
            h3_rec: Default::default(),
            h3_eq: Default::default(),
            p3_valid: Default::default(),
            p3_bad: Default::default(),
            p3_write: Default::default(),
            p3_id: Default::default(),
            p3_event: Default::default(),
            p3_base: Default::default(),
            p3_hit1: Default::default(),
            p3_hit1_n: Default::default(),
            p3_eq: Default::default(),
            fwd0_valid: Default::default(),
            fwd0_id: Default::default(),
            fwd0_rec: Default::default(),
            fwd1_valid: Default::default(),
            fwd1_id: Default::default(),
            fwd1_rec: Default::default(),
            fwd2_rec: Default::default(),
            wr_en: InitDff::new(true),
            wr_id: Default::default(),
            wr_rec: InitDff::new(init),
            take: Default::default(),
            eq: Default::default(),
            base: Default::default(),
            snap: Default::default(),
        }
    }

    /// The same shell with its private copies of the pick flags stored with the wrong sense
    /// (`h_from_base` when `from_base`, `m_hit1_n` when `hit1`): for the co-sim's broken
    /// variants only, so that a user's selects on the copies are shown to be checked.
    pub fn with_flag_copies_flipped(mut self, from_base: bool, hit1: bool) -> Self {
        self.cfg_flip = Constant::new(bits(u64::from(from_base) | u64::from(hit1) << 1));
        self
    }
}

impl<const D: usize, const E: usize> Logic for ContextPipeHold<D, E> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            sweeping,
            sweep_tail,
            sweep_id,
            sweep_last,
            p1_valid,
            p1_bad,
            p1_id,
            p1_event,
            p2_valid,
            p2_bad,
            p2_id,
            p2_event,
            p2_raw,
            p2_eq,
            h1_valid,
            h1_bad,
            h1_id,
            h1_event,
            h1_rec,
            h1_eq,
            h1_from_base,
            h2_valid,
            h2_bad,
            h2_id,
            h2_event,
            h2_rec,
            h2_eq,
            h3_valid,
            h3_bad,
            h3_id,
            h3_event,
            h3_rec,
            h3_eq,
            p3_valid,
            p3_bad,
            p3_write,
            p3_id,
            p3_event,
            p3_base,
            p3_hit1,
            p3_hit1_n,
            p3_eq,
            fwd0_valid,
            fwd0_id,
            fwd0_rec,
            fwd1_valid,
            fwd1_id,
            fwd1_rec,
            fwd2_rec,
            wr_en,
            wr_id,
            wr_rec
        );
        self.ram.clock.next = self.clock.val();
        self.status_ready.next = !self.sweeping.q.val() & !self.sweep_tail.q.val();

        // ---- The sweep (as in `ContextPipe`).
        self.sweep_id.d.next = self.sweep_id.q.val();
        self.sweeping.d.next = self.sweeping.q.val();
        if self.sweeping.q.val() {
            self.sweep_id.d.next = self.sweep_id.q.val() + 1;
            if self.sweep_last.q.val() {
                self.sweeping.d.next = false;
            }
        }
        if self.s_reset.val() {
            self.sweeping.d.next = true;
            self.sweep_id.d.next = 0.into();
        }
        self.sweep_last.d.next = self.sweep_id.d.val() == self.cfg_last.val();
        self.sweep_tail.d.next = self.sweeping.q.val();

        // ---- S0: take the event, read its record.
        self.take.next = self.s_valid.val()
            & !self.sweeping.q.val()
            & !self.sweep_tail.q.val()
            & !self.s_reset.val();
        self.ram.read_address.next = self.s_id.val();
        self.p1_valid.d.next = self.take.val();
        self.p1_bad.d.next = self.s_id.val() > self.cfg_last.val();
        self.p1_id.d.next = self.s_id.val();
        self.p1_event.d.next = self.s_event.val();

        // ---- S1: the RAM's data registered; the id compares with the 7 events ahead (then in
        // S2, H1, H2, H3, S3, fwd0, fwd1).
        self.p2_valid.d.next = self.p1_valid.q.val() & !self.s_reset.val();
        self.p2_bad.d.next = self.p1_bad.q.val();
        self.p2_id.d.next = self.p1_id.q.val();
        self.p2_event.d.next = self.p1_event.q.val();
        self.p2_raw.d.next = self.ram.read_data.val();
        self.eq.next = 0.into();
        self.eq.next = self.eq.val().replace_bit(
            0,
            (self.p1_id.q.val() == self.p2_id.q.val()) & self.p2_valid.q.val(),
        );
        self.eq.next = self.eq.val().replace_bit(
            1,
            (self.p1_id.q.val() == self.h1_id.q.val()) & self.h1_valid.q.val(),
        );
        self.eq.next = self.eq.val().replace_bit(
            2,
            (self.p1_id.q.val() == self.h2_id.q.val()) & self.h2_valid.q.val(),
        );
        self.eq.next = self.eq.val().replace_bit(
            3,
            (self.p1_id.q.val() == self.h3_id.q.val()) & self.h3_valid.q.val(),
        );
        self.eq.next = self.eq.val().replace_bit(
            4,
            (self.p1_id.q.val() == self.p3_id.q.val()) & self.p3_valid.q.val(),
        );
        self.eq.next = self.eq.val().replace_bit(
            5,
            (self.p1_id.q.val() == self.fwd0_id.q.val()) & self.fwd0_valid.q.val(),
        );
        self.eq.next = self.eq.val().replace_bit(
            6,
            (self.p1_id.q.val() == self.fwd1_id.q.val()) & self.fwd1_valid.q.val(),
        );
        self.p2_eq.d.next = self.eq.val() & self.cfg_fwd.val();

        // ---- S2: the newest record among the RAM's and those written 5 to 7 events ahead.
        self.base.next = self.p2_raw.q.val();
        if self.p2_eq.q.val().get_bit(6) {
            self.base.next = self.fwd2_rec.q.val();
        }
        if self.p2_eq.q.val().get_bit(5) {
            self.base.next = self.fwd1_rec.q.val();
        }
        if self.p2_eq.q.val().get_bit(4) {
            self.base.next = self.fwd0_rec.q.val();
        }
        self.h1_valid.d.next = self.p2_valid.q.val() & !self.s_reset.val();
        self.h1_bad.d.next = self.p2_bad.q.val();
        self.h1_id.d.next = self.p2_id.q.val();
        self.h1_event.d.next = self.p2_event.q.val();
        self.g_event.next = self.p2_event.q.val();
        self.g_record.next = self.base.val();
        self.h1_rec.d.next = self.base.val();
        self.h1_eq.d.next = self.p2_eq.q.val().get_bits::<4>(0);
        self.h1_from_base.d.next = !self.p2_eq.q.val().get_bit(3);
        if self.cfg_flip.val().get_bit(0) {
            self.h1_from_base.d.next = self.p2_eq.q.val().get_bit(3);
        }

        // ---- H1..H3: each takes fwd0 when the event that made it (4, 3, 2 ahead) had this id.
        self.snap.next = self.h1_rec.q.val();
        if self.h1_eq.q.val().get_bit(3) {
            self.snap.next = self.fwd0_rec.q.val();
        }
        self.h_event.next = self.h1_event.q.val();
        self.h_record.next = self.snap.val();
        self.h_base.next = self.h1_rec.q.val();
        self.h_fwd.next = self.fwd0_rec.q.val();
        self.h_from_base.next = self.h1_from_base.q.val();
        self.h_eq1.next = self.h1_eq.q.val().get_bit(0);
        self.h_eq2.next = self.h1_eq.q.val().get_bit(1);
        self.h_eq3.next = self.h1_eq.q.val().get_bit(2);
        self.h2_valid.d.next = self.h1_valid.q.val() & !self.s_reset.val();
        self.h2_bad.d.next = self.h1_bad.q.val();
        self.h2_id.d.next = self.h1_id.q.val();
        self.h2_event.d.next = self.h1_event.q.val();
        self.h2_rec.d.next = self.snap.val();
        self.h2_eq.d.next = self.h1_eq.q.val();

        self.h3_valid.d.next = self.h2_valid.q.val() & !self.s_reset.val();
        self.h3_bad.d.next = self.h2_bad.q.val();
        self.h3_id.d.next = self.h2_id.q.val();
        self.h3_event.d.next = self.h2_event.q.val();
        self.h3_rec.d.next = self.h2_rec.q.val();
        if self.h2_eq.q.val().get_bit(2) {
            self.h3_rec.d.next = self.fwd0_rec.q.val();
        }
        self.h3_eq.d.next = self.h2_eq.q.val();

        self.p3_valid.d.next = self.h3_valid.q.val() & !self.s_reset.val();
        self.p3_bad.d.next = self.h3_bad.q.val();
        self.p3_write.d.next = self.h3_valid.q.val() & !self.h3_bad.q.val() & !self.s_reset.val();
        self.p3_id.d.next = self.h3_id.q.val();
        self.p3_event.d.next = self.h3_event.q.val();
        self.p3_base.d.next = self.h3_rec.q.val();
        if self.h3_eq.q.val().get_bit(1) {
            self.p3_base.d.next = self.fwd0_rec.q.val();
        }
        self.t_record.next = self.p3_base.d.val();
        self.p3_hit1.d.next = self.h3_eq.q.val().get_bit(0);
        self.p3_hit1_n.d.next = !self.h3_eq.q.val().get_bit(0);
        if self.cfg_flip.val().get_bit(1) {
            self.p3_hit1_n.d.next = self.h3_eq.q.val().get_bit(0);
        }
        self.p3_eq.d.next = self.h3_eq.q.val();

        // ---- S3 (the loop): the event right ahead's record if it had this id.
        self.m_valid.next = self.p3_valid.q.val();
        self.m_bad.next = self.p3_bad.q.val();
        self.m_write.next = self.p3_write.q.val();
        self.m_id.next = self.p3_id.q.val();
        self.m_event.next = self.p3_event.q.val();
        self.m_record.next = self.p3_base.q.val();
        if self.p3_hit1.q.val() {
            self.m_record.next = self.fwd0_rec.q.val();
        }
        self.m_hit1.next = self.p3_hit1.q.val();
        self.m_hit1_n.next = self.p3_hit1_n.q.val();
        self.m_eq.next = self.p3_eq.q.val();
        self.fwd0_valid.d.next = self.p3_valid.q.val();
        self.fwd0_id.d.next = self.p3_id.q.val();
        self.fwd0_rec.d.next = self.s_next.val();
        self.fwd1_valid.d.next = self.fwd0_valid.q.val();
        self.fwd1_id.d.next = self.fwd0_id.q.val();
        self.fwd1_rec.d.next = self.fwd0_rec.q.val();
        self.fwd2_rec.d.next = self.fwd1_rec.q.val();

        // ---- The write, a cycle after S3, from registers (as in `ContextPipe`).
        self.wr_en.d.next = self.p3_write.q.val();
        self.wr_id.d.next = self.p3_id.q.val();
        self.wr_rec.d.next = self.s_next.val();
        if self.sweeping.q.val() {
            self.wr_en.d.next = true;
            self.wr_id.d.next = self.sweep_id.q.val();
            self.wr_rec.d.next = self.cfg_init.val();
        }
        self.ram.write_address.next = self.wr_id.q.val();
        self.ram.write_data.next = self.wr_rec.q.val();
        self.ram.write_enable.next = self.wr_en.q.val();
    }
}

/// The hold shell's check design (block `context_pipe_hold`): the shell with a 32-bit record
/// per id and the check function of [`crate::context_pipe::ContextPipeCheck`] as its
/// next-state function (rotate the record left by 3, add `{id, data}`), and an output
/// register. Besides the record before and after each event it shows the three earlier views
/// the NIC's pipelines build on, each carried with the event to the output: `g_record` (the
/// record as the events 5 or more ahead left it), `h_record` (4 or more) and `t_record` (2 or
/// more). Latency 7. Checked formally (`docs/formal.md`); the NIC's pipelines on this shell
/// are its co-simulated users.
#[derive(LogicBlock)]
pub struct ContextPipeHoldCheck {
    pub clock: Signal<In, Clock>,

    /// Synchronous reset: events in flight dropped, every record swept to the initial one.
    pub s_reset: Signal<In, Bit>,
    /// An event is offered (taken when `status_ready` and not `s_reset`).
    pub s_valid: Signal<In, Bit>,
    /// Its id (`>= N`: bad, touches nothing).
    pub s_id: Signal<In, Bits<16>>,
    /// Its data, mixed into the record.
    pub s_data: Signal<In, Bits<16>>,

    /// The event taken seven cycles ago comes out.
    pub m_valid: Signal<Out, Bit>,
    /// Its id was out of range (every record output zero).
    pub m_bad: Signal<Out, Bit>,
    pub m_id: Signal<Out, Bits<16>>,
    pub m_data: Signal<Out, Bits<16>>,
    /// Its id's record before and after it.
    pub m_before: Signal<Out, Bits<32>>,
    pub m_after: Signal<Out, Bits<32>>,
    /// Its id's record as the events 5, 4 and 2 or more cycles ahead of it left it (the
    /// shell's `g_record`, `h_record` and `t_record` when it was in S2, H1 and H3).
    pub m_g_record: Signal<Out, Bits<32>>,
    pub m_h_record: Signal<Out, Bits<32>>,
    pub m_t_record: Signal<Out, Bits<32>>,
    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,

    cfg_rot: Constant<Bits<32>>,
    pipe: ContextPipeHold<32, 16>,
    rot: Signal<Local, Bits<32>>,
    next: Signal<Local, Bits<32>>,
    // The views carried to S3: `g` taken in S2 (four registers to S3), `h` in H1 (three),
    // `t` in H3 (one).
    g1: DFF<Bits<32>>,
    g2: DFF<Bits<32>>,
    g3: DFF<Bits<32>>,
    g4: DFF<Bits<32>>,
    h2: DFF<Bits<32>>,
    h3: DFF<Bits<32>>,
    h4: DFF<Bits<32>>,
    t4: DFF<Bits<32>>,
    out_valid: DFF<Bit>,
    out_bad: DFF<Bit>,
    out_id: DFF<Bits<16>>,
    out_data: DFF<Bits<16>>,
    out_before: DFF<Bits<32>>,
    out_after: DFF<Bits<32>>,
    out_g: DFF<Bits<32>>,
    out_h: DFF<Bits<32>>,
    out_t: DFF<Bits<32>>,
}

/// Latency of the hold shell's check design: S0..S3, then its output register.
pub const HOLD_CHECK_LATENCY: u32 = COMPUTE_STAGE + 1;

impl ContextPipeHoldCheck {
    pub fn new(ids: u32, no_forward: Option<u32>) -> Self {
        ContextPipeHoldCheck {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_id: Default::default(),
            s_data: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_id: Default::default(),
            m_data: Default::default(),
            m_before: Default::default(),
            m_after: Default::default(),
            m_g_record: Default::default(),
            m_h_record: Default::default(),
            m_t_record: Default::default(),
            status_ready: Default::default(),
            cfg_rot: Constant::new(bits(29)),
            pipe: ContextPipeHold::new(
                ids,
                bits(u64::from(crate::context_pipe::CHECK_INIT)),
                no_forward,
            ),
            rot: Default::default(),
            next: Default::default(),
            g1: Default::default(),
            g2: Default::default(),
            g3: Default::default(),
            g4: Default::default(),
            h2: Default::default(),
            h3: Default::default(),
            h4: Default::default(),
            t4: Default::default(),
            out_valid: Default::default(),
            out_bad: Default::default(),
            out_id: Default::default(),
            out_data: Default::default(),
            out_before: Default::default(),
            out_after: Default::default(),
            out_g: Default::default(),
            out_h: Default::default(),
            out_t: Default::default(),
        }
    }
}

impl Logic for ContextPipeHoldCheck {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, g1, g2, g3, g4, h2, h3, h4, t4, out_valid, out_bad, out_id, out_data,
            out_before, out_after, out_g, out_h, out_t
        );
        self.pipe.clock.next = self.clock.val();
        self.pipe.s_reset.next = self.s_reset.val();
        self.pipe.s_valid.next = self.s_valid.val();
        self.pipe.s_id.next = self.s_id.val();
        self.pipe.s_event.next = self.s_data.val();
        self.status_ready.next = self.pipe.status_ready.val();

        // The next-state function: rotate left by 3, add {id, data}.
        self.rot.next =
            (self.pipe.m_record.val() << 3) | (self.pipe.m_record.val() >> self.cfg_rot.val());
        self.next.next = self.rot.val()
            + ((bit_cast::<32, 16>(self.pipe.m_id.val()) << 16)
                | bit_cast::<32, 16>(self.pipe.m_event.val()));
        self.pipe.s_next.next = self.next.val();

        // The earlier views, each moved one stage a cycle with its event.
        self.g1.d.next = self.pipe.g_record.val();
        self.g2.d.next = self.g1.q.val();
        self.g3.d.next = self.g2.q.val();
        self.g4.d.next = self.g3.q.val();
        self.h2.d.next = self.pipe.h_record.val();
        self.h3.d.next = self.h2.q.val();
        self.h4.d.next = self.h3.q.val();
        self.t4.d.next = self.pipe.t_record.val();

        self.out_valid.d.next = self.pipe.m_valid.val();
        self.out_bad.d.next = self.pipe.m_valid.val() & self.pipe.m_bad.val();
        self.out_id.d.next = 0.into();
        self.out_data.d.next = 0.into();
        self.out_before.d.next = 0.into();
        self.out_after.d.next = 0.into();
        self.out_g.d.next = 0.into();
        self.out_h.d.next = 0.into();
        self.out_t.d.next = 0.into();
        if self.pipe.m_valid.val() {
            self.out_id.d.next = self.pipe.m_id.val();
            self.out_data.d.next = self.pipe.m_event.val();
        }
        if self.pipe.m_write.val() {
            self.out_before.d.next = self.pipe.m_record.val();
            self.out_after.d.next = self.next.val();
            self.out_g.d.next = self.g4.q.val();
            self.out_h.d.next = self.h4.q.val();
            self.out_t.d.next = self.t4.q.val();
        }
        self.m_valid.next = self.out_valid.q.val();
        self.m_bad.next = self.out_bad.q.val();
        self.m_id.next = self.out_id.q.val();
        self.m_data.next = self.out_data.q.val();
        self.m_before.next = self.out_before.q.val();
        self.m_after.next = self.out_after.q.val();
        self.m_g_record.next = self.out_g.q.val();
        self.m_h_record.next = self.out_h.q.val();
        self.m_t_record.next = self.out_t.q.val();
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;

    /// The hold shell's check design passes the lint, Icarus and Yosys gate.
    #[test]
    fn the_hold_check_design_passes_the_gate() {
        let raw = crate::emit(ContextPipeHoldCheck::new(4, None));
        let b = crate::finish("context_pipe_hold", &raw, HOLD_CHECK_LATENCY);
        crate::gate::check(&b, "context_pipe_hold_4", false);
    }
}
