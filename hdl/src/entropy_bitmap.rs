//! Entropy bitmap RTL (spec section 1, Algorithm 3): one event per clock, latency 1.
//!
//! ```text
//!            ┌──────────── state (bitmap_reg, rr_reg, next_*_reg, last_reset_reg) ◄─────┐
//!            ▼                                                                          │
//! s_* ──► reset? ──► ACK update (bm0 → bm1, nv1/np1) ──► choose ──────────────────────────┤
//!                                                        │  paths = max(8,min(N,2c))    │
//!                                                        │  start = rr+1 (wrap at paths)│
//!                                                        │  start set? clear it, take   │
//!                                                        │  first clear in (start,paths)│
//!                                                        │  else in [0,start), else start
//!                                                        ▼                              │
//!                                              m_*_reg (output registers) ──► m_*       │
//! ```
//!
//! Handshake: `s_ready = !m_valid | m_ready`. An event is accepted when `s_valid & s_ready`;
//! its result appears on `m_*` the next cycle with `m_valid` high and stays until `m_ready`.
//! When the output stage advances without an event, `m_valid` and every `m_*` field go to 0,
//! so every port has a defined value on every cycle. The state changes only on accepted events,
//! exactly as the model steps only on events.
//!
//! The scan is done in one cycle with two find-first encoders over the `N` bits (first clear
//! bit above `start` below `paths`, and first clear bit below `start`), each a range mask (a
//! shift of all-ones), a lowest-set-bit isolate (`x & !prefix_or_below(x)`, the prefix in
//! log N shift-OR stages) and an OR tree per index bit: the depth grows with log N, not N,
//! and there is no carry chain. Same result as the model's
//! loop: if bit `start` is clear it is the answer and nothing is cleared; otherwise it is the
//! first set bit skipped, it is cleared, and the scan continues from `start+1`, coming back to
//! `start` when every bit is set.

use rust_hdl::prelude::*;

/// See the module documentation. `N` = `max_paths`.
#[derive(LogicBlock)]
pub struct EntropyBitmapRtl<const N: usize> {
    pub clock: Signal<In, Clock>,

    /// An event is offered.
    pub s_valid: Signal<In, Bit>,
    /// The block takes the event this cycle (`!m_valid | m_ready`).
    pub s_ready: Signal<Out, Bit>,
    /// Time of the event, ns (wrapping).
    pub s_now: Signal<In, Bits<32>>,
    /// The event carries an ACK's ECN feedback.
    pub s_ack_valid: Signal<In, Bit>,
    /// The ACK's echoed entropy (values `>= max_paths` are malformed and ignored).
    pub s_ack_entropy: Signal<In, Bits<16>>,
    /// The ACK echoes an ECN mark.
    pub s_ack_ecn: Signal<In, Bit>,
    /// The event asks for the entropy of a packet being sent.
    pub s_choose_valid: Signal<In, Bit>,
    /// `floor(cwnd / MTU)` for the scan range.
    pub s_cwnd_packets: Signal<In, Bits<32>>,

    /// A result is presented.
    pub m_valid: Signal<Out, Bit>,
    /// The consumer takes the result this cycle.
    pub m_ready: Signal<In, Bit>,
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
    /// The periodic reset cleared the bitmap for this event.
    pub m_reset: Signal<Out, Bit>,
    /// The ACK was malformed and ignored.
    pub m_ack_ignored: Signal<Out, Bit>,
    /// Malformed ACKs so far.
    pub status_bad_entropy_count: Signal<Out, Bits<32>>,

    cfg_reset_interval: Constant<Bits<32>>,
    cfg_max_paths: Constant<Bits<16>>,
    cfg_half_paths: Constant<Bits<32>>,
    cfg_four: Constant<Bits<32>>,
    cfg_eight: Constant<Bits<16>>,
    cfg_one: Constant<Bits<16>>,
    cfg_one32: Constant<Bits<32>>,
    /// Fault injection for the co-sim self-test: 1 flips the ECN bit sense. Always 0 in
    /// generated products.
    cfg_fault_flip: Constant<Bit>,

    bitmap_reg: DFF<Bits<N>>,
    rr_reg: DFF<Bits<16>>,
    next_valid_reg: DFF<Bit>,
    next_path_reg: DFF<Bits<16>>,
    last_reset_reg: DFF<Bits<32>>,
    bad_count_reg: DFF<Bits<32>>,

    m_valid_reg: DFF<Bit>,
    m_choice_valid_reg: DFF<Bit>,
    m_entropy_reg: DFF<Bits<16>>,
    m_source_reg: DFF<Bits<2>>,
    m_cleared_valid_reg: DFF<Bit>,
    m_cleared_reg: DFF<Bits<16>>,
    m_paths_reg: DFF<Bits<16>>,
    m_reset_reg: DFF<Bit>,
    m_ack_ignored_reg: DFF<Bit>,

    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    elapsed: Signal<Local, Bits<32>>,
    do_reset: Signal<Local, Bit>,
    ack_ok: Signal<Local, Bit>,
    ecn_bit: Signal<Local, Bit>,
    bm0: Signal<Local, Bits<N>>,
    bm1: Signal<Local, Bits<N>>,
    bm2: Signal<Local, Bits<N>>,
    nv1: Signal<Local, Bit>,
    np1: Signal<Local, Bits<16>>,
    paths: Signal<Local, Bits<16>>,
    rr_inc: Signal<Local, Bits<16>>,
    start: Signal<Local, Bits<16>>,
    start_set: Signal<Local, Bit>,
    hit_hi: Signal<Local, Bit>,
    hi_idx: Signal<Local, Bits<16>>,
    hit_lo: Signal<Local, Bit>,
    lo_idx: Signal<Local, Bits<16>>,
    cand_hi: Signal<Local, Bits<N>>,
    cand_lo: Signal<Local, Bits<N>>,
    one_hi: Signal<Local, Bits<N>>,
    one_lo: Signal<Local, Bits<N>>,
    /// `cfg_pow<k>` = 2^k: the shifts of the prefix-OR stages.
    cfg_pow0: Constant<Bits<16>>,
    cfg_pow1: Constant<Bits<16>>,
    cfg_pow2: Constant<Bits<16>>,
    cfg_pow3: Constant<Bits<16>>,
    cfg_pow4: Constant<Bits<16>>,
    cfg_pow5: Constant<Bits<16>>,
    cfg_pow6: Constant<Bits<16>>,
    cfg_pow7: Constant<Bits<16>>,
    cfg_pow8: Constant<Bits<16>>,
    cfg_pow9: Constant<Bits<16>>,
    cfg_pow10: Constant<Bits<16>>,
    cfg_pow11: Constant<Bits<16>>,
    cfg_ones: Constant<Bits<N>>,
    rng_hi: Signal<Local, Bits<N>>,
    rng_lo: Signal<Local, Bits<N>>,
    pre_hi: Signal<Local, Bits<N>>,
    pre_lo: Signal<Local, Bits<N>>,
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
    choice: Signal<Local, Bits<16>>,
    source: Signal<Local, Bits<2>>,
    cleared_valid: Signal<Local, Bit>,
}

impl<const N: usize> EntropyBitmapRtl<N> {
    /// `reset_interval_ns` 0 = never; `fault_flip` only for the co-sim self-test.
    pub fn new(reset_interval_ns: u32, fault_flip: bool) -> Self {
        EntropyBitmapRtl {
            clock: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_now: Default::default(),
            s_ack_valid: Default::default(),
            s_ack_entropy: Default::default(),
            s_ack_ecn: Default::default(),
            s_choose_valid: Default::default(),
            s_cwnd_packets: Default::default(),
            m_valid: Default::default(),
            m_ready: Default::default(),
            m_choice_valid: Default::default(),
            m_entropy: Default::default(),
            m_source: Default::default(),
            m_cleared_valid: Default::default(),
            m_cleared: Default::default(),
            m_paths: Default::default(),
            m_reset: Default::default(),
            m_ack_ignored: Default::default(),
            status_bad_entropy_count: Default::default(),
            cfg_reset_interval: Constant::new(bits(reset_interval_ns as u64)),
            cfg_max_paths: Constant::new(bits(N as u64)),
            cfg_half_paths: Constant::new(bits((N / 2) as u64)),
            cfg_four: Constant::new(bits(4)),
            cfg_eight: Constant::new(bits(8)),
            cfg_one: Constant::new(bits(1)),
            cfg_one32: Constant::new(bits(1)),
            cfg_fault_flip: Constant::new(fault_flip),
            bitmap_reg: Default::default(),
            rr_reg: Default::default(),
            next_valid_reg: Default::default(),
            next_path_reg: Default::default(),
            last_reset_reg: Default::default(),
            bad_count_reg: Default::default(),
            m_valid_reg: Default::default(),
            m_choice_valid_reg: Default::default(),
            m_entropy_reg: Default::default(),
            m_source_reg: Default::default(),
            m_cleared_valid_reg: Default::default(),
            m_cleared_reg: Default::default(),
            m_paths_reg: Default::default(),
            m_reset_reg: Default::default(),
            m_ack_ignored_reg: Default::default(),
            advance: Default::default(),
            fire: Default::default(),
            elapsed: Default::default(),
            do_reset: Default::default(),
            ack_ok: Default::default(),
            ecn_bit: Default::default(),
            bm0: Default::default(),
            bm1: Default::default(),
            bm2: Default::default(),
            nv1: Default::default(),
            np1: Default::default(),
            paths: Default::default(),
            rr_inc: Default::default(),
            start: Default::default(),
            start_set: Default::default(),
            hit_hi: Default::default(),
            hi_idx: Default::default(),
            hit_lo: Default::default(),
            lo_idx: Default::default(),
            cand_hi: Default::default(),
            cand_lo: Default::default(),
            one_hi: Default::default(),
            one_lo: Default::default(),
            cfg_pow0: Constant::new(bits::<16>(1)),
            cfg_pow1: Constant::new(bits::<16>(2)),
            cfg_pow2: Constant::new(bits::<16>(4)),
            cfg_pow3: Constant::new(bits::<16>(8)),
            cfg_pow4: Constant::new(bits::<16>(16)),
            cfg_pow5: Constant::new(bits::<16>(32)),
            cfg_pow6: Constant::new(bits::<16>(64)),
            cfg_pow7: Constant::new(bits::<16>(128)),
            cfg_pow8: Constant::new(bits::<16>(256)),
            cfg_pow9: Constant::new(bits::<16>(512)),
            cfg_pow10: Constant::new(bits::<16>(1024)),
            cfg_pow11: Constant::new(bits::<16>(2048)),
            cfg_ones: Constant::new(Bits::<N>::mask()),
            rng_hi: Default::default(),
            rng_lo: Default::default(),
            pre_hi: Default::default(),
            pre_lo: Default::default(),
            cfg_sel0: Constant::new(crate::index_bit_mask::<N>(0)),
            cfg_sel1: Constant::new(crate::index_bit_mask::<N>(1)),
            cfg_sel2: Constant::new(crate::index_bit_mask::<N>(2)),
            cfg_sel3: Constant::new(crate::index_bit_mask::<N>(3)),
            cfg_sel4: Constant::new(crate::index_bit_mask::<N>(4)),
            cfg_sel5: Constant::new(crate::index_bit_mask::<N>(5)),
            cfg_sel6: Constant::new(crate::index_bit_mask::<N>(6)),
            cfg_sel7: Constant::new(crate::index_bit_mask::<N>(7)),
            cfg_sel8: Constant::new(crate::index_bit_mask::<N>(8)),
            cfg_sel9: Constant::new(crate::index_bit_mask::<N>(9)),
            cfg_sel10: Constant::new(crate::index_bit_mask::<N>(10)),
            cfg_sel11: Constant::new(crate::index_bit_mask::<N>(11)),
            choice: Default::default(),
            source: Default::default(),
            cleared_valid: Default::default(),
        }
    }
}

impl<const N: usize> Logic for EntropyBitmapRtl<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            bitmap_reg,
            rr_reg,
            next_valid_reg,
            next_path_reg,
            last_reset_reg,
            bad_count_reg,
            m_valid_reg,
            m_choice_valid_reg,
            m_entropy_reg,
            m_source_reg,
            m_cleared_valid_reg,
            m_cleared_reg,
            m_paths_reg,
            m_reset_reg,
            m_ack_ignored_reg
        );
        // Outputs are the output registers.
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_choice_valid.next = self.m_choice_valid_reg.q.val();
        self.m_entropy.next = self.m_entropy_reg.q.val();
        self.m_source.next = self.m_source_reg.q.val();
        self.m_cleared_valid.next = self.m_cleared_valid_reg.q.val();
        self.m_cleared.next = self.m_cleared_reg.q.val();
        self.m_paths.next = self.m_paths_reg.q.val();
        self.m_reset.next = self.m_reset_reg.q.val();
        self.m_ack_ignored.next = self.m_ack_ignored_reg.q.val();
        self.status_bad_entropy_count.next = self.bad_count_reg.q.val();

        // Handshake.
        self.advance.next = !self.m_valid_reg.q.val() | self.m_ready.val();
        self.s_ready.next = self.advance.val();
        self.fire.next = self.advance.val() & self.s_valid.val();

        // Periodic reset (first).
        self.elapsed.next = self.s_now.val() - self.last_reset_reg.q.val();
        self.do_reset.next = self.cfg_reset_interval.val().any()
            & (self.elapsed.val() >= self.cfg_reset_interval.val());
        self.bm0.next = self.bitmap_reg.q.val();
        if self.do_reset.val() {
            self.bm0.next = 0.into();
        }

        // ACK update (second).
        self.ack_ok.next =
            self.s_ack_valid.val() & (self.s_ack_entropy.val() < self.cfg_max_paths.val());
        self.ecn_bit.next = self.s_ack_ecn.val() ^ self.cfg_fault_flip.val();
        self.bm1.next = self.bm0.val();
        self.nv1.next = self.next_valid_reg.q.val();
        self.np1.next = self.next_path_reg.q.val();
        if self.ack_ok.val() {
            self.bm1.next = self
                .bm0
                .val()
                .replace_bit(self.s_ack_entropy.val().index(), self.ecn_bit.val());
            self.nv1.next = !self.ecn_bit.val();
            if !self.ecn_bit.val() {
                self.np1.next = self.s_ack_entropy.val();
            }
        }

        // Choice (third): paths = max(8, min(N, 2 * cwnd_packets)) without overflow.
        if self.s_cwnd_packets.val() >= self.cfg_half_paths.val() {
            self.paths.next = self.cfg_max_paths.val();
        } else if self.s_cwnd_packets.val() <= self.cfg_four.val() {
            self.paths.next = self.cfg_eight.val();
        } else {
            self.paths.next =
                bit_cast::<16, 32>(self.s_cwnd_packets.val() + self.s_cwnd_packets.val());
        }
        self.rr_inc.next = self.rr_reg.q.val() + self.cfg_one.val();
        self.start.next = self.rr_inc.val();
        if self.rr_inc.val() >= self.paths.val() {
            self.start.next = 0.into();
        }
        self.start_set.next = self.bm1.val().get_bit(self.start.val().index());
        // Candidates as masks (clear bits above `start` below `paths`; clear bits below
        // `start`). The lowest candidate is isolated as
        // `x & !(OR of the bits below)`, the OR of the bits below by a log-depth shift-OR
        // prefix, and its index encoded by an OR tree per index bit: no carry chain and no
        // N-deep priority chain.
        // Range masks as shifts of all-ones (barrel shifters: log depth, no carry chain):
        // bits above `start` and below `paths`; bits below `start`.
        self.rng_hi.next = (self.cfg_ones.val() << (self.start.val() + self.cfg_one.val()))
            & !(self.cfg_ones.val() << self.paths.val());
        self.rng_lo.next = !(self.cfg_ones.val() << self.start.val());
        self.cand_hi.next = !self.bm1.val() & self.rng_hi.val();
        self.cand_lo.next = !self.bm1.val() & self.rng_lo.val();
        self.pre_hi.next = self.cand_hi.val() << self.cfg_pow0.val();
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow0.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow1.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow2.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow3.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow4.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow5.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow6.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow7.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow8.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow9.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow10.val());
        self.pre_hi.next = self.pre_hi.val() | (self.pre_hi.val() << self.cfg_pow11.val());
        self.pre_lo.next = self.cand_lo.val() << self.cfg_pow0.val();
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow0.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow1.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow2.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow3.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow4.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow5.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow6.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow7.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow8.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow9.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow10.val());
        self.pre_lo.next = self.pre_lo.val() | (self.pre_lo.val() << self.cfg_pow11.val());
        self.one_hi.next = self.cand_hi.val() & !self.pre_hi.val();
        self.one_lo.next = self.cand_lo.val() & !self.pre_lo.val();
        self.hit_hi.next = self.cand_hi.val().any();
        self.hit_lo.next = self.cand_lo.val().any();
        self.hi_idx.next = 0.into();
        self.lo_idx.next = 0.into();
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(0, (self.one_hi.val() & self.cfg_sel0.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(1, (self.one_hi.val() & self.cfg_sel1.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(2, (self.one_hi.val() & self.cfg_sel2.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(3, (self.one_hi.val() & self.cfg_sel3.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(4, (self.one_hi.val() & self.cfg_sel4.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(5, (self.one_hi.val() & self.cfg_sel5.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(6, (self.one_hi.val() & self.cfg_sel6.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(7, (self.one_hi.val() & self.cfg_sel7.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(8, (self.one_hi.val() & self.cfg_sel8.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(9, (self.one_hi.val() & self.cfg_sel9.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(10, (self.one_hi.val() & self.cfg_sel10.val()).any());
        self.hi_idx.next = self
            .hi_idx
            .val()
            .replace_bit(11, (self.one_hi.val() & self.cfg_sel11.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(0, (self.one_lo.val() & self.cfg_sel0.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(1, (self.one_lo.val() & self.cfg_sel1.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(2, (self.one_lo.val() & self.cfg_sel2.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(3, (self.one_lo.val() & self.cfg_sel3.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(4, (self.one_lo.val() & self.cfg_sel4.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(5, (self.one_lo.val() & self.cfg_sel5.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(6, (self.one_lo.val() & self.cfg_sel6.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(7, (self.one_lo.val() & self.cfg_sel7.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(8, (self.one_lo.val() & self.cfg_sel8.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(9, (self.one_lo.val() & self.cfg_sel9.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(10, (self.one_lo.val() & self.cfg_sel10.val()).any());
        self.lo_idx.next = self
            .lo_idx
            .val()
            .replace_bit(11, (self.one_lo.val() & self.cfg_sel11.val()).any());
        self.bm2.next = self.bm1.val();
        self.choice.next = self.start.val();
        self.source.next = 1.into();
        self.cleared_valid.next = false;
        if self.nv1.val() {
            self.choice.next = self.np1.val();
            self.source.next = 0.into();
        } else if self.start_set.val() {
            self.bm2.next = self.bm1.val().replace_bit(self.start.val().index(), false);
            self.cleared_valid.next = true;
            if self.hit_hi.val() {
                self.choice.next = self.hi_idx.val();
            } else if self.hit_lo.val() {
                self.choice.next = self.lo_idx.val();
            } else {
                self.source.next = 2.into();
            }
        }

        // State and output registers.
        if self.fire.val() {
            self.bitmap_reg.d.next = self.bm1.val();
            self.next_valid_reg.d.next = self.nv1.val();
            self.next_path_reg.d.next = self.np1.val();
            if self.do_reset.val() {
                self.last_reset_reg.d.next = self.s_now.val();
            }
            if self.s_ack_valid.val() & !self.ack_ok.val() {
                self.bad_count_reg.d.next = self.bad_count_reg.q.val() + self.cfg_one32.val();
            }
            self.m_valid_reg.d.next = true;
            self.m_reset_reg.d.next = self.do_reset.val();
            self.m_ack_ignored_reg.d.next = self.s_ack_valid.val() & !self.ack_ok.val();
            self.m_choice_valid_reg.d.next = self.s_choose_valid.val();
            self.m_entropy_reg.d.next = 0.into();
            self.m_source_reg.d.next = 0.into();
            self.m_cleared_valid_reg.d.next = false;
            self.m_cleared_reg.d.next = 0.into();
            self.m_paths_reg.d.next = 0.into();
            if self.s_choose_valid.val() {
                self.bitmap_reg.d.next = self.bm2.val();
                self.rr_reg.d.next = self.choice.val();
                self.next_valid_reg.d.next = false;
                self.m_entropy_reg.d.next = self.choice.val();
                self.m_source_reg.d.next = self.source.val();
                self.m_cleared_valid_reg.d.next = self.cleared_valid.val();
                if self.cleared_valid.val() {
                    self.m_cleared_reg.d.next = self.start.val();
                }
                if !self.nv1.val() {
                    self.m_paths_reg.d.next = self.paths.val();
                }
            }
        } else if self.advance.val() {
            self.m_valid_reg.d.next = false;
            self.m_reset_reg.d.next = false;
            self.m_ack_ignored_reg.d.next = false;
            self.m_choice_valid_reg.d.next = false;
            self.m_entropy_reg.d.next = 0.into();
            self.m_source_reg.d.next = 0.into();
            self.m_cleared_valid_reg.d.next = false;
            self.m_cleared_reg.d.next = 0.into();
            self.m_paths_reg.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    #[test]
    fn default_config_verilog_snapshot() {
        let b = generate("entropy_bitmap", &Config::default(), &Options::default()).unwrap();
        insta::assert_snapshot!("entropy_bitmap_default", b.verilog);
    }

    /// Gate: the default design lints, compiles in Icarus and passes the Yosys structural
    /// check; a small design also goes through a full Yosys `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("entropy_bitmap", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "entropy_bitmap_default", false);
        let mut small = Config::default();
        small.entropy_bitmap.max_paths = 16;
        let b = generate("entropy_bitmap", &small, &Options::default()).unwrap();
        crate::gate::check(&b, "entropy_bitmap_16", true);
    }
}
