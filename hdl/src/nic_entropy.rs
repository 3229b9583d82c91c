//! The send side's entropy bitmaps (`docs/blocks/nic_entropy.md`): one entropy bitmap per
//! connection (spec section 1, paper Algorithm 3), each a record in the context shell's RAM,
//! one event (a step or an open) per clock for any sequence of connection ids.
//!
//! ```text
//!  S0: paths from cwnd_packets, ─► context shell (S0 read, S1 RAM data, S2 newest record of
//!      the ACK checked                 the RAM's and those 2 to 4 events ahead wrote)
//!  S3: the step on the record (the loop; the record the event right ahead made is forwarded
//!      into it): reset, ACK, the scan from rr + 1 ─► s_next ─► output registers ─► m_*
//! ```
//!
//! **The record** (`docs/blocks/nic_entropy.md`, "Context record"): the bitmap (`N` bits),
//! `rr`, `next_path` (valid + index) and the time of the last periodic reset, `N + 2 log2 N + 33`
//! bits. A fresh bitmap is all zeros, so the sweep writes zeros and an open writes zeros.
//!
//! **The step** is the stand-alone block's (`entropy_bitmap`), on the record: the periodic
//! reset, then the ACK's ECN feedback, then the choice. The choice uses the fact that the first
//! bit the model's scan skips can only be the start `rr + 1` itself: if that bit is clear it is
//! the answer; otherwise it is cleared and the answer is the first clear bit after it,
//! circularly within `paths`, or the start when every bit is set. This first design does the
//! whole step in S3, the loop, on the shell without hold stages (`context_pipe`); moving the
//! scan out of the loop is the next step (`nic_entropy.md`, "Timing").

use rust_hdl::prelude::*;

use crate::context_pipe::{ContextPipe, COMPUTE_STAGE};

/// Event bits carried through the shell: open, ACK in range, ACK out of range, ECN, choose
/// (bits 0..5), the ACK's entropy (5..21), `paths` (21..37), `now` (37..69).
pub const EVENT_BITS: usize = 69;

/// Latency: S0..S2, S3, and the output register.
pub const LATENCY: u32 = COMPUTE_STAGE + 1;

/// Record bits at `n` paths: the bitmap, `rr`, `next_path`'s valid bit and index, the last
/// reset's time (the layout `strack_config::context` documents).
pub const fn record_bits(n: usize) -> usize {
    n + 2 * n.trailing_zeros() as usize + 1 + 32
}

/// See the module documentation. `N` = `max_paths`, `L` = `log2 N`, `D` = [`record_bits`]`(N)`.
#[derive(LogicBlock)]
pub struct NicEntropyRtl<const N: usize, const L: usize, const D: usize> {
    pub clock: Signal<In, Clock>,

    /// Drop the events in S1 and S2, sweep every connection to a fresh bitmap.
    pub s_reset: Signal<In, Bit>,
    /// An event is offered; taken when `s_ready`.
    pub s_valid: Signal<In, Bit>,
    /// The event is taken if offered (`status_ready` and not `s_reset`).
    pub s_ready: Signal<Out, Bit>,
    /// Its connection (at or past `connections`: reported bad, nothing written).
    pub s_conn: Signal<In, Bits<16>>,
    /// The event is an open: the connection starts afresh (the step's fields are ignored).
    pub s_open: Signal<In, Bit>,
    /// Time of the event, ns (wrapping).
    pub s_now: Signal<In, Bits<32>>,
    /// The event carries an ACK's ECN feedback.
    pub s_ack_valid: Signal<In, Bit>,
    /// The ACK's echoed entropy (values `>= max_paths` are malformed: ignored, counted).
    pub s_ack_entropy: Signal<In, Bits<16>>,
    /// The ACK echoes an ECN mark.
    pub s_ack_ecn: Signal<In, Bit>,
    /// The event asks for the entropy of a packet being sent.
    pub s_choose_valid: Signal<In, Bit>,
    /// `floor(cwnd / MTU)` for the scan range.
    pub s_cwnd_packets: Signal<In, Bits<32>>,

    /// The event taken `LATENCY` cycles ago (all `m_*` 0 when none).
    pub m_valid: Signal<Out, Bit>,
    /// Its connection was out of range (every field but `m_conn` 0).
    pub m_bad: Signal<Out, Bit>,
    pub m_conn: Signal<Out, Bits<16>>,
    /// It was an open.
    pub m_opened: Signal<Out, Bit>,
    /// An entropy was chosen.
    pub m_choice_valid: Signal<Out, Bit>,
    /// The chosen entropy.
    pub m_entropy: Signal<Out, Bits<16>>,
    /// 0 = `next_path`, 1 = scan, 2 = every bit set.
    pub m_source: Signal<Out, Bits<2>>,
    /// The scan cleared a bit.
    pub m_cleared_valid: Signal<Out, Bit>,
    /// The bit the scan cleared.
    pub m_cleared: Signal<Out, Bits<16>>,
    /// The scan range (0 when `next_path` was used).
    pub m_paths: Signal<Out, Bits<16>>,
    /// The periodic reset cleared the connection's bitmap for this event.
    pub m_reset: Signal<Out, Bit>,
    /// The ACK was malformed and ignored.
    pub m_ack_ignored: Signal<Out, Bit>,
    /// Malformed ACKs among the events up to the one on `m_*`, all connections (0 after a
    /// reset).
    pub status_bad_entropy_count: Signal<Out, Bits<32>>,
    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,

    cfg_reset_interval: Constant<Bits<32>>,
    cfg_max_paths: Constant<Bits<16>>,
    cfg_half_paths: Constant<Bits<32>>,
    cfg_four: Constant<Bits<32>>,
    cfg_eight: Constant<Bits<16>>,
    cfg_ones: Constant<Bits<N>>,
    cfg_bit0: Constant<Bits<N>>,
    cfg_one16: Constant<Bits<16>>,
    cfg_zero_rec: Constant<Bits<D>>,
    /// `cfg_sel<k>`: the entropies whose index has bit `k` set (the one-hot encoder's masks).
    cfg_sel0: Constant<Bits<N>>,
    cfg_sel1: Constant<Bits<N>>,
    cfg_sel2: Constant<Bits<N>>,
    cfg_sel3: Constant<Bits<N>>,
    cfg_sel4: Constant<Bits<N>>,
    cfg_sel5: Constant<Bits<N>>,
    cfg_sel6: Constant<Bits<N>>,
    cfg_sel7: Constant<Bits<N>>,
    cfg_sel8: Constant<Bits<N>>,
    cfg_sel9: Constant<Bits<N>>,
    cfg_sel10: Constant<Bits<N>>,
    cfg_sel11: Constant<Bits<N>>,
    /// Record offsets: `rr`, `next_path`'s valid bit and index, the last reset's time.
    cfg_off_rr: Constant<Bits<16>>,
    cfg_off_nv: Constant<Bits<16>>,
    cfg_off_np: Constant<Bits<16>>,
    cfg_off_lrt: Constant<Bits<16>>,

    pipe: ContextPipe<D, EVENT_BITS>,

    // The output registers.
    out_valid: DFF<Bit>,
    out_bad: DFF<Bit>,
    out_conn: DFF<Bits<16>>,
    out_opened: DFF<Bit>,
    out_choice_valid: DFF<Bit>,
    out_entropy: DFF<Bits<16>>,
    out_source: DFF<Bits<2>>,
    out_cleared_valid: DFF<Bit>,
    out_cleared: DFF<Bits<16>>,
    out_paths: DFF<Bits<16>>,
    out_reset: DFF<Bit>,
    out_ack_ignored: DFF<Bit>,
    cnt_bad: DFF<Bits<32>>,

    // S0.
    paths: Signal<Local, Bits<16>>,
    ack_ok: Signal<Local, Bit>,
    ev: Signal<Local, Bits<EVENT_BITS>>,
    // S3: the event and the record.
    e_open: Signal<Local, Bit>,
    e_ack_ok: Signal<Local, Bit>,
    e_ack_bad: Signal<Local, Bit>,
    e_ecn: Signal<Local, Bit>,
    e_choose: Signal<Local, Bit>,
    e_ack_e: Signal<Local, Bits<16>>,
    e_paths: Signal<Local, Bits<16>>,
    e_now: Signal<Local, Bits<32>>,
    r_bm: Signal<Local, Bits<N>>,
    r_rr: Signal<Local, Bits<16>>,
    r_nv: Signal<Local, Bit>,
    r_np: Signal<Local, Bits<16>>,
    r_lrt: Signal<Local, Bits<32>>,
    // S3: the step.
    do_reset: Signal<Local, Bit>,
    ack_oh: Signal<Local, Bits<N>>,
    bm1: Signal<Local, Bits<N>>,
    nv1: Signal<Local, Bit>,
    np1: Signal<Local, Bits<16>>,
    lrt1: Signal<Local, Bits<32>>,
    pm: Signal<Local, Bits<N>>,
    gt: Signal<Local, Bits<N>>,
    nowrap: Signal<Local, Bit>,
    s_oh: Signal<Local, Bits<N>>,
    cand: Signal<Local, Bits<N>>,
    hi: Signal<Local, Bits<N>>,
    lo: Signal<Local, Bits<N>>,
    hit_hi: Signal<Local, Bit>,
    hit_lo: Signal<Local, Bit>,
    res_oh: Signal<Local, Bits<N>>,
    start_set: Signal<Local, Bit>,
    res_idx: Signal<Local, Bits<16>>,
    s_idx: Signal<Local, Bits<16>>,
    use_np: Signal<Local, Bit>,
    scan: Signal<Local, Bit>,
    bm2: Signal<Local, Bits<N>>,
    rr2: Signal<Local, Bits<16>>,
    nv2: Signal<Local, Bit>,
    next: Signal<Local, Bits<D>>,
    step: Signal<Local, Bit>,
}

impl<const N: usize, const L: usize, const D: usize> NicEntropyRtl<N, L, D> {
    /// `conns` connections; `reset_interval_ns` 0 = never; `no_forward`: the shell's
    /// forwarding distance to switch off (the co-sim's broken variants only).
    pub fn new(conns: u32, reset_interval_ns: u32, no_forward: Option<u32>) -> Self {
        assert_eq!(1 << L, N);
        assert_eq!(D, record_bits(N));
        let c16 = |v: usize| Constant::new(bits::<16>(v as u64));
        let sel = |k: usize| Constant::new(crate::index_bit_mask::<N>(k));
        NicEntropyRtl {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_conn: Default::default(),
            s_open: Default::default(),
            s_now: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_entropy: Default::default(),
            s_ack_ecn: Default::default(),
            s_choose_valid: Default::default(),
            s_cwnd_packets: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_conn: Default::default(),
            m_opened: Default::default(),
            m_choice_valid: Default::default(),
            m_entropy: Default::default(),
            m_source: Default::default(),
            m_cleared_valid: Default::default(),
            m_cleared: Default::default(),
            m_paths: Default::default(),
            m_reset: Default::default(),
            m_ack_ignored: Default::default(),
            status_bad_entropy_count: Default::default(),
            status_ready: Default::default(),
            cfg_reset_interval: Constant::new(bits(u64::from(reset_interval_ns))),
            cfg_max_paths: c16(N),
            cfg_half_paths: Constant::new(bits((N / 2) as u64)),
            cfg_four: Constant::new(bits(4)),
            cfg_eight: c16(8),
            cfg_ones: Constant::new(Bits::<N>::mask()),
            cfg_bit0: Constant::new(Bits::<N>::default().replace_bit(0, true)),
            cfg_one16: c16(1),
            cfg_zero_rec: Constant::new(Bits::<D>::default()),
            cfg_sel0: sel(0),
            cfg_sel1: sel(1),
            cfg_sel2: sel(2),
            cfg_sel3: sel(3),
            cfg_sel4: sel(4),
            cfg_sel5: sel(5),
            cfg_sel6: sel(6),
            cfg_sel7: sel(7),
            cfg_sel8: sel(8),
            cfg_sel9: sel(9),
            cfg_sel10: sel(10),
            cfg_sel11: sel(11),
            cfg_off_rr: c16(N),
            cfg_off_nv: c16(N + L),
            cfg_off_np: c16(N + L + 1),
            cfg_off_lrt: c16(N + 2 * L + 1),
            pipe: ContextPipe::new(conns, Bits::<D>::default(), no_forward),
            out_valid: Default::default(),
            out_bad: Default::default(),
            out_conn: Default::default(),
            out_opened: Default::default(),
            out_choice_valid: Default::default(),
            out_entropy: Default::default(),
            out_source: Default::default(),
            out_cleared_valid: Default::default(),
            out_cleared: Default::default(),
            out_paths: Default::default(),
            out_reset: Default::default(),
            out_ack_ignored: Default::default(),
            cnt_bad: Default::default(),
            paths: Default::default(),
            ack_ok: Default::default(),
            ev: Default::default(),
            e_open: Default::default(),
            e_ack_ok: Default::default(),
            e_ack_bad: Default::default(),
            e_ecn: Default::default(),
            e_choose: Default::default(),
            e_ack_e: Default::default(),
            e_paths: Default::default(),
            e_now: Default::default(),
            r_bm: Default::default(),
            r_rr: Default::default(),
            r_nv: Default::default(),
            r_np: Default::default(),
            r_lrt: Default::default(),
            do_reset: Default::default(),
            ack_oh: Default::default(),
            bm1: Default::default(),
            nv1: Default::default(),
            np1: Default::default(),
            lrt1: Default::default(),
            pm: Default::default(),
            gt: Default::default(),
            nowrap: Default::default(),
            s_oh: Default::default(),
            cand: Default::default(),
            hi: Default::default(),
            lo: Default::default(),
            hit_hi: Default::default(),
            hit_lo: Default::default(),
            res_oh: Default::default(),
            start_set: Default::default(),
            res_idx: Default::default(),
            s_idx: Default::default(),
            use_np: Default::default(),
            scan: Default::default(),
            bm2: Default::default(),
            rr2: Default::default(),
            nv2: Default::default(),
            next: Default::default(),
            step: Default::default(),
        }
    }
}

impl<const N: usize, const L: usize, const D: usize> Logic for NicEntropyRtl<N, L, D> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            out_valid,
            out_bad,
            out_conn,
            out_opened,
            out_choice_valid,
            out_entropy,
            out_source,
            out_cleared_valid,
            out_cleared,
            out_paths,
            out_reset,
            out_ack_ignored,
            cnt_bad
        );
        self.pipe.clock.next = self.clock.val();
        self.pipe.s_reset.next = self.s_reset.val();
        self.status_ready.next = self.pipe.status_ready.val();
        self.s_ready.next = self.pipe.status_ready.val() & !self.s_reset.val();
        self.m_valid.next = self.out_valid.q.val();
        self.m_bad.next = self.out_bad.q.val();
        self.m_conn.next = self.out_conn.q.val();
        self.m_opened.next = self.out_opened.q.val();
        self.m_choice_valid.next = self.out_choice_valid.q.val();
        self.m_entropy.next = self.out_entropy.q.val();
        self.m_source.next = self.out_source.q.val();
        self.m_cleared_valid.next = self.out_cleared_valid.q.val();
        self.m_cleared.next = self.out_cleared.q.val();
        self.m_paths.next = self.out_paths.q.val();
        self.m_reset.next = self.out_reset.q.val();
        self.m_ack_ignored.next = self.out_ack_ignored.q.val();
        self.status_bad_entropy_count.next = self.cnt_bad.q.val();

        // ---- S0: the event in the loop's form. paths = max(8, min(N, 2 * cwnd_packets))
        // without overflow.
        if self.s_cwnd_packets.val() >= self.cfg_half_paths.val() {
            self.paths.next = self.cfg_max_paths.val();
        } else if self.s_cwnd_packets.val() <= self.cfg_four.val() {
            self.paths.next = self.cfg_eight.val();
        } else {
            self.paths.next =
                bit_cast::<16, 32>(self.s_cwnd_packets.val() + self.s_cwnd_packets.val());
        }
        self.ack_ok.next =
            self.s_ack_valid.val() & (self.s_ack_entropy.val() < self.cfg_max_paths.val());
        self.ev.next = (bit_cast::<EVENT_BITS, 16>(self.s_ack_entropy.val()) << 5)
            | (bit_cast::<EVENT_BITS, 16>(self.paths.val()) << 21)
            | (bit_cast::<EVENT_BITS, 32>(self.s_now.val()) << 37);
        self.ev.next = self.ev.val().replace_bit(0, self.s_open.val());
        self.ev.next = self
            .ev
            .val()
            .replace_bit(1, !self.s_open.val() & self.ack_ok.val());
        self.ev.next = self.ev.val().replace_bit(
            2,
            !self.s_open.val() & self.s_ack_valid.val() & !self.ack_ok.val(),
        );
        self.ev.next = self.ev.val().replace_bit(3, self.s_ack_ecn.val());
        self.ev.next = self
            .ev
            .val()
            .replace_bit(4, !self.s_open.val() & self.s_choose_valid.val());
        self.pipe.s_valid.next = self.s_valid.val();
        self.pipe.s_id.next = self.s_conn.val();
        self.pipe.s_event.next = self.ev.val();

        // ---- S3: the step on the record as every event before it left it.
        self.e_open.next = self.pipe.m_event.val().get_bit(0);
        self.e_ack_ok.next = self.pipe.m_event.val().get_bit(1);
        self.e_ack_bad.next = self.pipe.m_event.val().get_bit(2);
        self.e_ecn.next = self.pipe.m_event.val().get_bit(3);
        self.e_choose.next = self.pipe.m_event.val().get_bit(4);
        self.e_ack_e.next = self.pipe.m_event.val().get_bits::<16>(5);
        self.e_paths.next = self.pipe.m_event.val().get_bits::<16>(21);
        self.e_now.next = self.pipe.m_event.val().get_bits::<32>(37);
        self.r_bm.next = self.pipe.m_record.val().get_bits::<N>(0);
        self.r_rr.next = bit_cast::<16, L>(
            self.pipe
                .m_record
                .val()
                .get_bits::<L>(self.cfg_off_rr.val().index()),
        );
        self.r_nv.next = self
            .pipe
            .m_record
            .val()
            .get_bit(self.cfg_off_nv.val().index());
        self.r_np.next = bit_cast::<16, L>(
            self.pipe
                .m_record
                .val()
                .get_bits::<L>(self.cfg_off_np.val().index()),
        );
        self.r_lrt.next = self
            .pipe
            .m_record
            .val()
            .get_bits::<32>(self.cfg_off_lrt.val().index());

        // The periodic reset, then the ACK (the model's order within a step).
        self.do_reset.next = self.cfg_reset_interval.val().any()
            & ((self.e_now.val() - self.r_lrt.val()) >= self.cfg_reset_interval.val());
        self.bm1.next = self.r_bm.val();
        self.lrt1.next = self.r_lrt.val();
        if self.do_reset.val() {
            self.bm1.next = 0.into();
            self.lrt1.next = self.e_now.val();
        }
        self.ack_oh.next = self.cfg_bit0.val() << self.e_ack_e.val();
        self.nv1.next = self.r_nv.val();
        self.np1.next = self.r_np.val();
        if self.e_ack_ok.val() {
            if self.e_ecn.val() {
                self.bm1.next = self.bm1.val() | self.ack_oh.val();
                self.nv1.next = false;
            } else {
                self.bm1.next = self.bm1.val() & !self.ack_oh.val();
                self.nv1.next = true;
                self.np1.next = self.e_ack_e.val();
            }
        }

        // The scan: the start is rr + 1 (the lowest bit of `gt`, the entropies above rr) when
        // it is below paths, else 0; the candidates are the clear bits in range, after rr
        // (`hi`) and up to it (`lo`); the answer is the first of `hi`, else of `lo`, else the
        // start (every bit set: the start, cleared, is the only clear bit).
        self.pm.next = !(self.cfg_ones.val() << self.e_paths.val());
        self.gt.next = (self.cfg_ones.val() << self.r_rr.val()) << self.cfg_one16.val();
        self.nowrap.next = (self.gt.val() & self.pm.val()).any();
        self.s_oh.next = self.cfg_bit0.val();
        if self.nowrap.val() {
            self.s_oh.next = self.gt.val() & !(self.gt.val() << self.cfg_one16.val());
        }
        self.cand.next = !self.bm1.val() & self.pm.val();
        self.hi.next = self.cand.val() & self.gt.val();
        self.lo.next = self.cand.val() & !self.gt.val();
        self.hit_hi.next = self.hi.val().any();
        self.hit_lo.next = self.lo.val().any();
        // `x & !(x - 1)`: the lowest set bit of `x` (0 when `x` is 0).
        self.res_oh.next = self.s_oh.val();
        if self.hit_lo.val() {
            self.res_oh.next = self.lo.val() & !(self.lo.val() - self.cfg_bit0.val());
        }
        if self.hit_hi.val() {
            self.res_oh.next = self.hi.val() & !(self.hi.val() - self.cfg_bit0.val());
        }
        self.start_set.next = (self.bm1.val() & self.s_oh.val()).any();
        self.res_idx.next = 0.into();
        self.s_idx.next = 0.into();
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(0, (self.res_oh.val() & self.cfg_sel0.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(1, (self.res_oh.val() & self.cfg_sel1.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(2, (self.res_oh.val() & self.cfg_sel2.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(3, (self.res_oh.val() & self.cfg_sel3.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(4, (self.res_oh.val() & self.cfg_sel4.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(5, (self.res_oh.val() & self.cfg_sel5.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(6, (self.res_oh.val() & self.cfg_sel6.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(7, (self.res_oh.val() & self.cfg_sel7.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(8, (self.res_oh.val() & self.cfg_sel8.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(9, (self.res_oh.val() & self.cfg_sel9.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(10, (self.res_oh.val() & self.cfg_sel10.val()).any());
        self.res_idx.next = self
            .res_idx
            .val()
            .replace_bit(11, (self.res_oh.val() & self.cfg_sel11.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(0, (self.s_oh.val() & self.cfg_sel0.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(1, (self.s_oh.val() & self.cfg_sel1.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(2, (self.s_oh.val() & self.cfg_sel2.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(3, (self.s_oh.val() & self.cfg_sel3.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(4, (self.s_oh.val() & self.cfg_sel4.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(5, (self.s_oh.val() & self.cfg_sel5.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(6, (self.s_oh.val() & self.cfg_sel6.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(7, (self.s_oh.val() & self.cfg_sel7.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(8, (self.s_oh.val() & self.cfg_sel8.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(9, (self.s_oh.val() & self.cfg_sel9.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(10, (self.s_oh.val() & self.cfg_sel10.val()).any());
        self.s_idx.next = self
            .s_idx
            .val()
            .replace_bit(11, (self.s_oh.val() & self.cfg_sel11.val()).any());

        // The record after the step: `next_path` is used (and spent) when valid; otherwise the
        // scan's answer becomes rr and its start's bit is cleared.
        self.use_np.next = self.e_choose.val() & self.nv1.val();
        self.scan.next = self.e_choose.val() & !self.nv1.val();
        self.bm2.next = self.bm1.val();
        self.rr2.next = self.r_rr.val();
        self.nv2.next = self.nv1.val();
        if self.use_np.val() {
            self.rr2.next = self.np1.val();
            self.nv2.next = false;
        }
        if self.scan.val() {
            self.rr2.next = self.res_idx.val();
            self.bm2.next = self.bm1.val() & !self.s_oh.val();
        }
        self.next.next = bit_cast::<D, N>(self.bm2.val())
            | (bit_cast::<D, L>(bit_cast::<L, 16>(self.rr2.val())) << self.cfg_off_rr.val())
            | (bit_cast::<D, L>(bit_cast::<L, 16>(self.np1.val())) << self.cfg_off_np.val())
            | (bit_cast::<D, 32>(self.lrt1.val()) << self.cfg_off_lrt.val());
        self.next.next = self
            .next
            .val()
            .replace_bit(self.cfg_off_nv.val().index(), self.nv2.val());
        if self.e_open.val() {
            self.next.next = self.cfg_zero_rec.val();
        }
        self.pipe.s_next.next = self.next.val();

        // ---- The output registers: every field 0 unless its event set it.
        self.step.next = self.pipe.m_write.val() & !self.e_open.val();
        self.out_valid.d.next = self.pipe.m_valid.val();
        self.out_bad.d.next = self.pipe.m_valid.val() & self.pipe.m_bad.val();
        self.out_conn.d.next = 0.into();
        if self.pipe.m_valid.val() {
            self.out_conn.d.next = self.pipe.m_id.val();
        }
        self.out_opened.d.next = self.pipe.m_write.val() & self.e_open.val();
        self.out_choice_valid.d.next = self.step.val() & self.e_choose.val();
        self.out_entropy.d.next = 0.into();
        self.out_source.d.next = 0.into();
        self.out_cleared_valid.d.next = false;
        self.out_cleared.d.next = 0.into();
        self.out_paths.d.next = 0.into();
        if self.step.val() & self.use_np.val() {
            self.out_entropy.d.next = self.np1.val();
        }
        if self.step.val() & self.scan.val() {
            self.out_entropy.d.next = self.res_idx.val();
            self.out_source.d.next = 1.into();
            if self.start_set.val() & !self.hit_hi.val() & !self.hit_lo.val() {
                self.out_source.d.next = 2.into();
            }
            self.out_cleared_valid.d.next = self.start_set.val();
            if self.start_set.val() {
                self.out_cleared.d.next = self.s_idx.val();
            }
            self.out_paths.d.next = self.e_paths.val();
        }
        self.out_reset.d.next = self.step.val() & self.do_reset.val();
        self.out_ack_ignored.d.next = self.step.val() & self.e_ack_bad.val();
        if self.step.val() & self.e_ack_bad.val() {
            self.cnt_bad.d.next = self.cnt_bad.q.val() + 1;
        }
        if self.s_reset.val() {
            self.cnt_bad.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    /// The default design (1024 connections, 256 paths) passes the lint, Icarus and Yosys gate.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("nic_entropy", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "nic_entropy_default", false);
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut cfg = Config::default();
        cfg.entropy_bitmap.max_paths = 24;
        let msg = generate("nic_entropy", &cfg, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("nic_entropy: "), "{msg}");
    }
}
