//! The context pipeline: the read-compute-write shell every per-connection block of the NIC
//! sits in (`docs/blocks/context_pipe.md`). One event per clock for any sequence of ids, the
//! same id on consecutive cycles included; never a stall; no update lost.
//!
//! ```text
//!   S0                 S1                  S2                          S3 (the loop)
//!  s_id ─► RAM read ─► RAM data ─► raw ─► base = newest of          ─► m_record = fwd0 if the event
//!  s_valid            registered as      raw, fwd0 (2 ahead),            right ahead had this id,
//!  s_event             it comes out;      fwd1 (3 ahead),                 else base
//!                      id compares with   fwd2 (4 ahead)                  s_next (the user's next-state
//!                      the 4 events ahead                                 function) ─► fwd0 ─► fwd1 ─► fwd2
//!                                                                     └─► wr_* (or the sweep's) ─► RAM write
//! ```
//!
//! **Hazards.** An event's RAM read happens at the end of S0; the event `d` cycles ahead of it
//! on the same id writes its record at the end of its S3 + 1, which is the same edge or later
//! for `d <= 4`. Those four are forwarded: the records of the events two to four ahead have
//! been computed by the time the event reaches S2 (they sit in `fwd0..fwd2`) and replace the
//! RAM's, newest first; the event right ahead computes its record in the cycle before this
//! one's S3, so S3 takes `fwd0` over the base. The only single-cycle loop is therefore
//! `fwd0 ─► m_record ─► next-state function ─► fwd0`. The id compares are made in S1, a stage
//! before they are used. (The same scheme as `load_table`'s rows.)
//!
//! **The sweep.** At power-on and after `s_reset`, the shell writes the initial record (a
//! constant of the build) into every record, one id per cycle; `status_ready` is low for `N + 1`
//! cycles (one per id, and one while the last id's write is still in the write registers), and
//! no event is taken then, nor on the reset cycle itself. A reset drops the events in S1 and S2
//! (the one in S3 completes); the sweep overwrites what they would have written.
//!
//! **Bad ids.** An id `>= N` passes through with `m_bad` high and writes nothing; its read (at
//! the id's low bits) is never used. The id compares need no bad-id gating: an id equal to a
//! bad one is bad too, and a bad event's record is discarded.

use rust_hdl::prelude::*;

use crate::context_ram::ContextRam;
use crate::init_dff::InitDff;

/// An event taken on cycle `t` is in S3 (`m_*`) on cycle `t + COMPUTE_STAGE`.
pub const COMPUTE_STAGE: u32 = 3;

/// Forwarding distances: the events 1 to 4 cycles ahead write after this one's read.
pub const FORWARD_DISTANCES: u32 = 4;

/// See the module documentation. `D`: record bits; `E`: event bits carried to S3.
#[derive(LogicBlock)]
pub struct ContextPipe<const D: usize, const E: usize> {
    pub clock: Signal<In, Clock>,

    /// Drop the events in flight and sweep every record to the initial one (synchronous).
    pub s_reset: Signal<In, Bit>,
    /// An event is offered; taken when `status_ready` and not `s_reset`.
    pub s_valid: Signal<In, Bit>,
    /// Its id (`>= N`: bad).
    pub s_id: Signal<In, Bits<16>>,
    /// What the next-state function needs of it, carried to S3.
    pub s_event: Signal<In, Bits<E>>,

    /// S3 holds an event taken three cycles ago.
    pub m_valid: Signal<Out, Bit>,
    /// Its id was out of range (`m_record` is then meaningless and `s_next` is not written).
    pub m_bad: Signal<Out, Bit>,
    /// `m_valid & !m_bad` from a register of its own: `s_next` is written. (What gates wide
    /// outputs: a select made of two registers by a LUT, fanned out to thousands of pins, cost
    /// the check design 7 MHz on one seed.)
    pub m_write: Signal<Out, Bit>,
    pub m_id: Signal<Out, Bits<16>>,
    pub m_event: Signal<Out, Bits<E>>,
    /// Its id's record as the events before it left it.
    pub m_record: Signal<Out, Bits<D>>,
    /// The record after it, from the user's next-state function of `m_record` and `m_event`
    /// (combinational, in the same cycle).
    pub s_next: Signal<In, Bits<D>>,

    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,

    /// `N - 1`.
    cfg_last: Constant<Bits<16>>,
    /// The record every id holds after a sweep.
    cfg_init: Constant<Bits<D>>,
    /// Bit `d - 1`: forwarding at distance `d` is on (all on in products; the co-sim's broken
    /// variants clear one).
    cfg_fwd: Constant<Bits<4>>,

    ram: ContextRam<D>,
    /// A register, not the next-state logic around it, selects the write registers' inputs:
    /// at 1403 bits its fan-out is most of a cycle's routing.
    sweeping: InitDff<Bit>,
    /// The cycle after the sweep's last id: its write is still in the write registers.
    sweep_tail: InitDff<Bit>,
    sweep_id: DFF<Bits<16>>,
    /// `sweep_id == N - 1`, registered.
    sweep_last: InitDff<Bit>,

    // `pN_*`: an event entering stage N.
    p1_valid: DFF<Bit>,
    p1_bad: DFF<Bit>,
    p1_id: DFF<Bits<16>>,
    p1_event: DFF<Bits<E>>,
    p2_valid: DFF<Bit>,
    p2_bad: DFF<Bit>,
    p2_id: DFF<Bits<16>>,
    p2_event: DFF<Bits<E>>,
    p2_raw: DFF<Bits<D>>,
    /// Same id as the in-range event 1, 2, 3, 4 cycles ahead (compared in S1).
    p2_eq1: DFF<Bit>,
    p2_eq2: DFF<Bit>,
    p2_eq3: DFF<Bit>,
    p2_eq4: DFF<Bit>,
    p3_valid: DFF<Bit>,
    p3_bad: DFF<Bit>,
    p3_write: DFF<Bit>,
    p3_id: DFF<Bits<16>>,
    p3_event: DFF<Bits<E>>,
    p3_base: DFF<Bits<D>>,
    p3_hit1: DFF<Bit>,
    /// The records S3 made on the last three cycles (`fwd0` newest), valid when in range.
    fwd0_valid: DFF<Bit>,
    fwd0_id: DFF<Bits<16>>,
    fwd0_rec: DFF<Bits<D>>,
    fwd1_valid: DFF<Bit>,
    fwd1_id: DFF<Bits<16>>,
    fwd1_rec: DFF<Bits<D>>,
    fwd2_rec: DFF<Bits<D>>,
    /// The RAM's write port, straight from registers: the write enable reaches every block
    /// RAM of a wide record (78 EBR at 1403 bits) and its routing alone takes half a cycle.
    /// They hold `fwd0`'s write, or the sweep's, from power-on (id 0 first).
    wr_en: InitDff<Bit>,
    wr_id: DFF<Bits<16>>,
    wr_rec: InitDff<Bits<D>>,

    take: Signal<Local, Bit>,
    base: Signal<Local, Bits<D>>,
}

impl<const D: usize, const E: usize> ContextPipe<D, E> {
    /// `ids` records (1..=65536); `no_forward`: the distance (1..=4) whose forwarding is off,
    /// for the co-simulation's self-test only.
    pub fn new(ids: u32, init: Bits<D>, no_forward: Option<u32>) -> Self {
        assert!((1..=65_536).contains(&ids));
        assert!(no_forward.is_none_or(|d| (1..=FORWARD_DISTANCES).contains(&d)));
        let fwd = 0xF & !no_forward.map_or(0, |d| 1u64 << (d - 1));
        ContextPipe {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_id: Default::default(),
            s_event: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_write: Default::default(),
            m_id: Default::default(),
            m_event: Default::default(),
            m_record: Default::default(),
            s_next: Default::default(),
            status_ready: Default::default(),
            cfg_last: Constant::new(bits(u64::from(ids - 1))),
            cfg_init: Constant::new(init),
            cfg_fwd: Constant::new(bits(fwd)),
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
            p2_eq1: Default::default(),
            p2_eq2: Default::default(),
            p2_eq3: Default::default(),
            p2_eq4: Default::default(),
            p3_valid: Default::default(),
            p3_bad: Default::default(),
            p3_write: Default::default(),
            p3_id: Default::default(),
            p3_event: Default::default(),
            p3_base: Default::default(),
            p3_hit1: Default::default(),
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
            base: Default::default(),
        }
    }
}

impl<const D: usize, const E: usize> Logic for ContextPipe<D, E> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, sweeping, sweep_tail, sweep_id, sweep_last, p1_valid, p1_bad, p1_id,
            p1_event, p2_valid, p2_bad, p2_id, p2_event, p2_raw, p2_eq1, p2_eq2, p2_eq3, p2_eq4,
            p3_valid, p3_bad, p3_write, p3_id, p3_event, p3_base, p3_hit1, fwd0_valid, fwd0_id,
            fwd0_rec, fwd1_valid, fwd1_id, fwd1_rec, fwd2_rec, wr_en, wr_id, wr_rec
        );
        self.ram.clock.next = self.clock.val();
        self.status_ready.next = !self.sweeping.q.val() & !self.sweep_tail.q.val();

        // ---- The sweep: one record per cycle; a reset (re)starts it.
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

        // ---- S1: the RAM's data registered as it comes out; the id compares for S2 and S3.
        self.p2_valid.d.next = self.p1_valid.q.val() & !self.s_reset.val();
        self.p2_bad.d.next = self.p1_bad.q.val();
        self.p2_id.d.next = self.p1_id.q.val();
        self.p2_event.d.next = self.p1_event.q.val();
        self.p2_raw.d.next = self.ram.read_data.val();
        self.p2_eq1.d.next = (self.p1_id.q.val() == self.p2_id.q.val())
            & self.p2_valid.q.val()
            & self.cfg_fwd.val().get_bit(0);
        self.p2_eq2.d.next = (self.p1_id.q.val() == self.p3_id.q.val())
            & self.p3_valid.q.val()
            & self.cfg_fwd.val().get_bit(1);
        self.p2_eq3.d.next = (self.p1_id.q.val() == self.fwd0_id.q.val())
            & self.fwd0_valid.q.val()
            & self.cfg_fwd.val().get_bit(2);
        self.p2_eq4.d.next = (self.p1_id.q.val() == self.fwd1_id.q.val())
            & self.fwd1_valid.q.val()
            & self.cfg_fwd.val().get_bit(3);

        // ---- S2: the newest record among the RAM's and those written 2 to 4 events ahead.
        self.base.next = self.p2_raw.q.val();
        if self.p2_eq4.q.val() {
            self.base.next = self.fwd2_rec.q.val();
        }
        if self.p2_eq3.q.val() {
            self.base.next = self.fwd1_rec.q.val();
        }
        if self.p2_eq2.q.val() {
            self.base.next = self.fwd0_rec.q.val();
        }
        self.p3_valid.d.next = self.p2_valid.q.val() & !self.s_reset.val();
        self.p3_bad.d.next = self.p2_bad.q.val();
        self.p3_write.d.next = self.p2_valid.q.val() & !self.p2_bad.q.val() & !self.s_reset.val();
        self.p3_id.d.next = self.p2_id.q.val();
        self.p3_event.d.next = self.p2_event.q.val();
        self.p3_base.d.next = self.base.val();
        self.p3_hit1.d.next = self.p2_eq1.q.val();

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
        // (No reset gating here or below: the fwd registers have emptied before the first event
        // after a sweep is compared with them.)
        self.fwd0_valid.d.next = self.p3_valid.q.val();
        self.fwd0_id.d.next = self.p3_id.q.val();
        self.fwd0_rec.d.next = self.s_next.val();
        self.fwd1_valid.d.next = self.fwd0_valid.q.val();
        self.fwd1_id.d.next = self.fwd0_id.q.val();
        self.fwd1_rec.d.next = self.fwd0_rec.q.val();
        self.fwd2_rec.d.next = self.fwd1_rec.q.val();

        // ---- The write, a cycle after S3 (what fwd0 gets, or the sweep's record), from
        // registers: no logic between them and the RAM's pins. A bad id must not write: its
        // low bits are another id's record. The sweep writes id k a cycle after `sweep_id`
        // holds k; on the reset cycle the event in S3 still writes (the sweep overwrites it).
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

/// The shell's own check designs: the shell with a `D`-bit record per id, the check function
/// as its next-state function (rotate the record left by 3, add `{id, data}` into its low 32
/// bits; at `D = 32`, `golden_model::context_pipe::check_next`), and an output register.
/// Latency 4. Block `context_pipe` (`D = 32`) is co-simulated; `context_pipe_wide` (`D` the
/// [`WIDE_RECORD_BITS`], wider than any of the NIC's records) is the shell at the NIC's widths,
/// for `make synth`.
#[derive(LogicBlock)]
pub struct ContextPipeCheck<const D: usize> {
    pub clock: Signal<In, Clock>,

    /// Synchronous reset: events in flight dropped, every record swept to the initial one.
    pub s_reset: Signal<In, Bit>,
    /// An event is offered (taken when `status_ready` and not `s_reset`).
    pub s_valid: Signal<In, Bit>,
    /// Its id (`>= N`: bad, touches nothing).
    pub s_id: Signal<In, Bits<16>>,
    /// Its data, mixed into the record.
    pub s_data: Signal<In, Bits<16>>,

    /// The event taken four cycles ago comes out.
    pub m_valid: Signal<Out, Bit>,
    /// Its id was out of range (`m_before`, `m_after` zero).
    pub m_bad: Signal<Out, Bit>,
    pub m_id: Signal<Out, Bits<16>>,
    pub m_data: Signal<Out, Bits<16>>,
    /// Its id's record before and after it.
    pub m_before: Signal<Out, Bits<D>>,
    pub m_after: Signal<Out, Bits<D>>,
    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,

    /// `D - 3`: the right shift of the rotation.
    cfg_rot: Constant<Bits<16>>,
    /// Ones above bit 31 (the bits the addition leaves alone).
    cfg_high: Constant<Bits<D>>,
    pipe: ContextPipe<D, 16>,
    rot: Signal<Local, Bits<D>>,
    sum: Signal<Local, Bits<32>>,
    next: Signal<Local, Bits<D>>,
    out_valid: DFF<Bit>,
    out_bad: DFF<Bit>,
    out_id: DFF<Bits<16>>,
    out_data: DFF<Bits<16>>,
    out_before: DFF<Bits<D>>,
    out_after: DFF<Bits<D>>,
}

/// The check design's initial record (not zero, so a record the sweep missed shows).
pub const CHECK_INIT: u32 = 0x5EED_0001;

/// Latency of the check design: S0..S3, then its output register.
pub const CHECK_LATENCY: u32 = COMPUTE_STAGE + 1;

/// The record width of `context_pipe_wide`: the single record the default config's send side
/// would have kept before its blocks split it (the model's fields, a length-free SACK sender with
/// lost bits and claimed bytes), wider than any record the blocks keep (a unit test checks).
pub const WIDE_RECORD_BITS: usize = 1403;

impl<const D: usize> ContextPipeCheck<D> {
    pub fn new(ids: u32, no_forward: Option<u32>) -> Self {
        assert!(D >= 32);
        let mut high = Bits::<D>::default();
        for i in 32..D {
            high = high.replace_bit(i, true);
        }
        ContextPipeCheck {
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
            status_ready: Default::default(),
            cfg_rot: Constant::new(bits((D - 3) as u64)),
            cfg_high: Constant::new(high),
            pipe: ContextPipe::new(ids, bits(u64::from(CHECK_INIT)), no_forward),
            rot: Default::default(),
            sum: Default::default(),
            next: Default::default(),
            out_valid: Default::default(),
            out_bad: Default::default(),
            out_id: Default::default(),
            out_data: Default::default(),
            out_before: Default::default(),
            out_after: Default::default(),
        }
    }
}

impl<const D: usize> Logic for ContextPipeCheck<D> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out_valid, out_bad, out_id, out_data, out_before, out_after);
        self.pipe.clock.next = self.clock.val();
        self.pipe.s_reset.next = self.s_reset.val();
        self.pipe.s_valid.next = self.s_valid.val();
        self.pipe.s_id.next = self.s_id.val();
        self.pipe.s_event.next = self.s_data.val();
        self.status_ready.next = self.pipe.status_ready.val();

        // The next-state function: rotate left by 3, add {id, data} into the low 32 bits.
        self.rot.next =
            (self.pipe.m_record.val() << 3) | (self.pipe.m_record.val() >> self.cfg_rot.val());
        self.sum.next = self.rot.val().get_bits::<32>(0)
            + ((bit_cast::<32, 16>(self.pipe.m_id.val()) << 16)
                | bit_cast::<32, 16>(self.pipe.m_event.val()));
        self.next.next = (self.rot.val() & self.cfg_high.val()) | bit_cast::<D, 32>(self.sum.val());
        self.pipe.s_next.next = self.next.val();

        self.out_valid.d.next = self.pipe.m_valid.val();
        self.out_bad.d.next = self.pipe.m_valid.val() & self.pipe.m_bad.val();
        self.out_id.d.next = 0.into();
        self.out_data.d.next = 0.into();
        self.out_before.d.next = 0.into();
        self.out_after.d.next = 0.into();
        if self.pipe.m_valid.val() {
            self.out_id.d.next = self.pipe.m_id.val();
            self.out_data.d.next = self.pipe.m_event.val();
        }
        if self.pipe.m_write.val() {
            self.out_before.d.next = self.pipe.m_record.val();
            self.out_after.d.next = self.next.val();
        }
        self.m_valid.next = self.out_valid.q.val();
        self.m_bad.next = self.out_bad.q.val();
        self.m_id.next = self.out_id.q.val();
        self.m_data.next = self.out_data.q.val();
        self.m_before.next = self.out_before.q.val();
        self.m_after.next = self.out_after.q.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check design passes the lint, Icarus and Yosys gate, at the small co-sim size and at
    /// the default connection count.
    #[test]
    fn the_check_design_passes_the_gate() {
        for ids in [4, 1024] {
            let raw = crate::emit(ContextPipeCheck::<32>::new(ids, None));
            let b = crate::finish("context_pipe", &raw, CHECK_LATENCY);
            crate::gate::check(&b, &format!("context_pipe_{ids}"), false);
        }
    }

    /// The wide check design is wider than any record of the default config's NIC.
    #[test]
    fn the_wide_design_is_wider_than_every_record() {
        let layout = strack_config::Config::default().nic_context();
        for r in layout.rams() {
            assert!((r.bits as usize) < WIDE_RECORD_BITS, "{r:?}");
        }
    }
}
