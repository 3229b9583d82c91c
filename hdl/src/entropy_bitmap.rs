//! Entropy bitmap RTL (docs/spec/strack.md, section 1; Algorithm 3): one event per clock,
//! latency 3.
//!
//! ```text
//!   stage 1: decode            stage 2: the loop (state)                   stage 3: encode
//!  s_* ──► paths -> mask pm ─► q1_* ─► reset, ACK: bm1 ───────────┐        q2_* ─► index of
//!          ACK -> one-hot,            cand = !bm1 & pm             │              the one-hot
//!          "bits > e"                 hi = cand & gt, lo = cand & !gt              choice and
//!          reset? (looked             first(hi) | first(lo) | start ──► q2_*       start ─► m_*
//!          ahead past q1)             gt' = bits > choice ──► le_reg (gt = !le)
//!                                     bm' = bm1 with start cleared ──► bm_reg
//! ```
//!
//! Handshake: `s_ready = !m_valid | m_ready` (and not `s_reset`), and the three stages advance
//! together on it (a stall holds the whole pipeline). An event is accepted when
//! `s_valid & s_ready`; its result appears on `m_*` three advances later with `m_valid` high and
//! stays until `m_ready`. A stage that advances without an event carries a bubble: `m_valid` and
//! every `m_*` field go to 0, so every port has a defined value on every cycle. The state changes only on events, exactly as
//! the model steps only on events; `status_bad_entropy_count` counts the malformed ACKs of the
//! events up to the one on `m_*`.
//!
//! **Why three stages.** At 256 paths the step is a scan of 256 bits from a start that the
//! previous step chose; in one cycle with its input decoding and the index encoding it was about
//! 40 ns on an ECP5. Here stage 1 turns every input into the form the loop wants (the scan range
//! as a mask, the ACK's entropy as a one-hot and as the mask of the entropies above it, the
//! periodic reset decided), stage 3 turns the one-hot choice into an index, and the loop in
//! stage 2 keeps only what the next event needs:
//!
//! - the round-robin pointer as the mask `gt` of the entropies above it (held inverted in
//!   `le_reg` so that the all-zero power-up state means `rr = 0`), so the start `rr + 1` is
//!   `gt`'s lowest bit and the two candidate sets are `cand & gt` (after `rr`) and
//!   `cand & !gt` (up to `rr`): a scan from `rr + 1` that wraps at `paths` without an adder
//!   or a compare (when `rr + 1 >= paths`, `gt & pm` is empty and the scan starts at 0);
//! - each set's first bit as `x & !prefix(x)`, where `prefix` (the OR of the bits below, carry
//!   chains: [`PrefixOr`]) is also the next step's `gt`: the mask of the entropies above the
//!   choice comes out of the find-first for free.
//!
//! Same result as the model's loop: if bit `start` is clear it is the answer and nothing is
//! cleared; otherwise it is cleared and the answer is the first clear bit after it (circularly
//! within `paths`), or `start` itself when every bit is set.
//!
//! **The synchronous reset** (`s_reset`, active high, sampled at the rising edge; one cycle is
//! enough): that cycle takes no event (`s_ready` low), and at its edge the state (bitmap,
//! round-robin mask, `next_path`, the time of the last periodic reset, the malformed-ACK
//! count), every stage's valid and flag registers and the output registers return to their
//! power-on values, so the events in flight are dropped and `m_valid` is low on the next cycle;
//! the block takes events again on that cycle. The wide data registers behind the stage flags
//! (`q1_now`, `q1_ack_*`, `q1_paths`, `q1_pm*`, `q1_kill`, `q2_np_e`, `q2_res_oh`, `q2_s_oh`)
//! keep their values: nothing reads them without their stage's flags, which only an event sets
//! again, and a reset on seven more `N`-bit registers would change nothing observable (the
//! co-sim compares every port on every cycle after resets).
//!
//! **The periodic reset, looked ahead.** Whether the periodic reset fires depends on the time
//! of the last periodic reset, which the event one stage ahead may still change; stage 1
//! computes both `now - last_reset` and `now - (time of the event ahead)` and picks by whether
//! that event resets.

use rust_hdl::prelude::*;

use crate::widgets::{OneHotIndex, PrefixOr, SegmentFlag};

/// Pipeline depth: an event accepted at an advance comes out on `m_*` three advances later.
pub const LATENCY: u32 = 3;

/// See the module documentation. `N` = `max_paths`.
#[derive(LogicBlock)]
pub struct EntropyBitmapRtl<const N: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the block returns to its power-on state at this edge,
    /// dropping the events in flight, and takes no event this cycle.
    pub s_reset: Signal<In, Bit>,

    /// An event is offered.
    pub s_valid: Signal<In, Bit>,
    /// The block takes the event this cycle (`!m_valid | m_ready`, and not `s_reset`).
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
    /// Malformed ACKs among the events up to the one on `m_*`.
    pub status_bad_entropy_count: Signal<Out, Bits<32>>,

    cfg_reset_interval: Constant<Bits<32>>,
    cfg_max_paths: Constant<Bits<16>>,
    cfg_half_paths: Constant<Bits<32>>,
    cfg_four: Constant<Bits<32>>,
    cfg_eight: Constant<Bits<16>>,
    cfg_one32: Constant<Bits<32>>,
    /// Fault injection for the co-sim self-test: 1 flips the ECN bit sense. Always 0 in
    /// generated products.
    cfg_fault_flip: Constant<Bit>,
    /// Fault injection for the co-sim self-test: 1 leaves the state (bitmap, round-robin mask,
    /// `next_path`, last periodic reset) alone on `s_reset`. Always 0 in generated products.
    cfg_fault_reset_keeps_state: Constant<Bit>,
    cfg_ones: Constant<Bits<N>>,
    /// Bit 0 alone, and every bit but 0.
    cfg_bit0: Constant<Bits<N>>,
    cfg_not0: Constant<Bits<N>>,
    /// 1 as a shift amount.
    cfg_pow0: Constant<Bits<16>>,

    // Stage 1 -> 2: the event, decoded.
    q1_valid: DFF<Bit>,
    q1_now: DFF<Bits<32>>,
    q1_reset: DFF<Bit>,
    q1_ack_ok: DFF<Bit>,
    q1_ack_bad: DFF<Bit>,
    q1_ecn: DFF<Bit>,
    q1_ack_e: DFF<Bits<16>>,
    /// The ACK's entropy as a one-hot, and the mask of the entropies above it.
    q1_ack_oh: DFF<Bits<N>>,
    q1_ack_gt: DFF<Bits<N>>,
    q1_choose: DFF<Bit>,
    q1_paths: DFF<Bits<16>>,
    /// Bits `0..paths`.
    q1_pm: DFF<Bits<N>>,
    /// `q1_pm` less the entropy this ACK marks; the entropies the reset or this ACK clears.
    q1_pm_ns: DFF<Bits<N>>,
    q1_kill: DFF<Bits<N>>,
    // The state (stage 2).
    bm_reg: DFF<Bits<N>>,
    /// `!gt`: bit `i` (`i > 0`) set when `i <= rr`; bit 0 is ignored.
    le_reg: DFF<Bits<N>>,
    nv_reg: DFF<Bit>,
    np_reg: DFF<Bits<16>>,
    /// The mask of the entropies above `next_path`.
    npt_reg: DFF<Bits<N>>,
    last_reset_reg: DFF<Bits<32>>,
    // Stage 2 -> 3: the choice as one-hots.
    q2_valid: DFF<Bit>,
    q2_reset: DFF<Bit>,
    q2_ack_bad: DFF<Bit>,
    q2_choose: DFF<Bit>,
    q2_np: DFF<Bit>,
    q2_np_e: DFF<Bits<16>>,
    q2_res_oh: DFF<Bits<N>>,
    q2_s_oh: DFF<Bits<N>>,
    q2_start_set: DFF<Bit>,
    q2_hit: DFF<Bit>,
    q2_paths: DFF<Bits<16>>,
    // Stage 3: the output registers.
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
    el_a: Signal<Local, Bits<32>>,
    el_b: Signal<Local, Bits<32>>,
    do_reset: Signal<Local, Bit>,
    ack_ok: Signal<Local, Bit>,
    ecn_bit: Signal<Local, Bit>,
    paths: Signal<Local, Bits<16>>,
    bm1: Signal<Local, Bits<N>>,
    nv1: Signal<Local, Bit>,
    np1: Signal<Local, Bits<16>>,
    npt1: Signal<Local, Bits<N>>,
    gt: Signal<Local, Bits<N>>,
    cand: Signal<Local, Bits<N>>,
    hi: Signal<Local, Bits<N>>,
    lo: Signal<Local, Bits<N>>,
    /// The exclusive prefix ORs of `hi` and `lo` (two half-width carry chains each).
    pre_hi: PrefixOr<N, 2>,
    pre_lo: PrefixOr<N, 2>,
    hit_hi: Signal<Local, Bit>,
    hit_lo: Signal<Local, Bit>,
    nowrap: Signal<Local, Bit>,
    s_oh: Signal<Local, Bits<N>>,
    gos: Signal<Local, Bits<N>>,
    res_oh: Signal<Local, Bits<N>>,
    gt_scan: Signal<Local, Bits<N>>,
    start_set: Signal<Local, Bit>,
    s_oh_nw: Signal<Local, Bits<N>>,
    /// Stage 1: the scan range and the ACK's entropy as masks.
    pm: Signal<Local, Bits<N>>,
    ack_oh: Signal<Local, Bits<N>>,
    /// Stage 3: the choice and the start, one-hot to index.
    res_enc: OneHotIndex<N, 16>,
    s_enc: OneHotIndex<N, 16>,
}

impl<const N: usize> EntropyBitmapRtl<N> {
    /// `reset_interval_ns` 0 = never; `fault_flip` and `fault_reset_keeps_state` only for the
    /// co-sim self-test (`hdl::Fault`).
    pub fn new(reset_interval_ns: u32, fault_flip: bool, fault_reset_keeps_state: bool) -> Self {
        EntropyBitmapRtl {
            clock: Default::default(),
            s_reset: Default::default(),
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
            cfg_one32: Constant::new(bits(1)),
            cfg_fault_flip: Constant::new(fault_flip),
            cfg_fault_reset_keeps_state: Constant::new(fault_reset_keeps_state),
            cfg_ones: Constant::new(Bits::<N>::mask()),
            cfg_bit0: Constant::new(Bits::<N>::default().replace_bit(0, true)),
            cfg_not0: Constant::new(Bits::<N>::mask().replace_bit(0, false)),
            cfg_pow0: Constant::new(bits::<16>(1)),
            q1_valid: Default::default(),
            q1_now: Default::default(),
            q1_reset: Default::default(),
            q1_ack_ok: Default::default(),
            q1_ack_bad: Default::default(),
            q1_ecn: Default::default(),
            q1_ack_e: Default::default(),
            q1_ack_oh: Default::default(),
            q1_ack_gt: Default::default(),
            q1_choose: Default::default(),
            q1_paths: Default::default(),
            q1_pm: Default::default(),
            q1_pm_ns: Default::default(),
            q1_kill: Default::default(),
            bm_reg: Default::default(),
            le_reg: Default::default(),
            nv_reg: Default::default(),
            np_reg: Default::default(),
            npt_reg: Default::default(),
            last_reset_reg: Default::default(),
            q2_valid: Default::default(),
            q2_reset: Default::default(),
            q2_ack_bad: Default::default(),
            q2_choose: Default::default(),
            q2_np: Default::default(),
            q2_np_e: Default::default(),
            q2_res_oh: Default::default(),
            q2_s_oh: Default::default(),
            q2_start_set: Default::default(),
            q2_hit: Default::default(),
            q2_paths: Default::default(),
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
            el_a: Default::default(),
            el_b: Default::default(),
            do_reset: Default::default(),
            ack_ok: Default::default(),
            ecn_bit: Default::default(),
            paths: Default::default(),
            bm1: Default::default(),
            nv1: Default::default(),
            np1: Default::default(),
            npt1: Default::default(),
            gt: Default::default(),
            cand: Default::default(),
            hi: Default::default(),
            lo: Default::default(),
            pre_hi: PrefixOr::new(SegmentFlag::Reduce),
            pre_lo: PrefixOr::new(SegmentFlag::Reduce),
            hit_hi: Default::default(),
            hit_lo: Default::default(),
            nowrap: Default::default(),
            s_oh: Default::default(),
            gos: Default::default(),
            res_oh: Default::default(),
            gt_scan: Default::default(),
            start_set: Default::default(),
            s_oh_nw: Default::default(),
            pm: Default::default(),
            ack_oh: Default::default(),
            res_enc: OneHotIndex::new(),
            s_enc: OneHotIndex::new(),
        }
    }
}

impl<const N: usize> Logic for EntropyBitmapRtl<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            q1_valid,
            q1_now,
            q1_reset,
            q1_ack_ok,
            q1_ack_bad,
            q1_ecn,
            q1_ack_e,
            q1_ack_oh,
            q1_ack_gt,
            q1_choose,
            q1_paths,
            q1_pm,
            q1_pm_ns,
            q1_kill,
            bm_reg,
            le_reg,
            nv_reg,
            np_reg,
            npt_reg,
            last_reset_reg,
            q2_valid,
            q2_reset,
            q2_ack_bad,
            q2_choose,
            q2_np,
            q2_np_e,
            q2_res_oh,
            q2_s_oh,
            q2_start_set,
            q2_hit,
            q2_paths,
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

        // Handshake: the whole pipeline advances when the output stage can.
        self.advance.next = !self.m_valid_reg.q.val() | self.m_ready.val();
        self.s_ready.next = self.advance.val() & !self.s_reset.val();
        self.fire.next = self.advance.val() & self.s_valid.val() & !self.s_reset.val();

        // ---- Stage 1: decode. The periodic reset is measured from the last reset as it will
        // be once the event ahead (in q1, leaving it at this same edge) has been applied.
        self.el_a.next = self.s_now.val() - self.last_reset_reg.q.val();
        self.el_b.next = self.s_now.val() - self.q1_now.q.val();
        self.do_reset.next = self.cfg_reset_interval.val().any()
            & (self.el_a.val() >= self.cfg_reset_interval.val());
        if self.q1_valid.q.val() & self.q1_reset.q.val() {
            self.do_reset.next = self.cfg_reset_interval.val().any()
                & (self.el_b.val() >= self.cfg_reset_interval.val());
        }
        self.ack_ok.next =
            self.s_ack_valid.val() & (self.s_ack_entropy.val() < self.cfg_max_paths.val());
        self.ecn_bit.next = self.s_ack_ecn.val() ^ self.cfg_fault_flip.val();
        // paths = max(8, min(N, 2 * cwnd_packets)) without overflow.
        if self.s_cwnd_packets.val() >= self.cfg_half_paths.val() {
            self.paths.next = self.cfg_max_paths.val();
        } else if self.s_cwnd_packets.val() <= self.cfg_four.val() {
            self.paths.next = self.cfg_eight.val();
        } else {
            self.paths.next =
                bit_cast::<16, 32>(self.s_cwnd_packets.val() + self.s_cwnd_packets.val());
        }
        self.pm.next = !(self.cfg_ones.val() << self.paths.val());
        self.ack_oh.next = self.cfg_bit0.val() << self.s_ack_entropy.val();
        if self.advance.val() {
            // (Every register holds by default: `dff_setup!`.) The flags only with an event;
            // the data fields are don't-care without one.
            self.q1_valid.d.next = self.fire.val();
            self.q1_now.d.next = self.s_now.val();
            self.q1_reset.d.next = self.fire.val() & self.do_reset.val();
            self.q1_ack_ok.d.next = self.fire.val() & self.ack_ok.val();
            self.q1_ack_bad.d.next = self.fire.val() & self.s_ack_valid.val() & !self.ack_ok.val();
            self.q1_ecn.d.next = self.ecn_bit.val();
            self.q1_ack_e.d.next = self.s_ack_entropy.val();
            self.q1_ack_oh.d.next = self.ack_oh.val();
            self.q1_ack_gt.d.next =
                (self.cfg_ones.val() << self.s_ack_entropy.val()) << self.cfg_pow0.val();
            self.q1_choose.d.next = self.fire.val() & self.s_choose_valid.val();
            self.q1_paths.d.next = self.paths.val();
            self.q1_pm.d.next = self.pm.val();
            // The loop's candidate set per entropy from three registered bits (no fan-out of
            // the reset and ACK flags across the bitmap in the loop): in range and not set by
            // this ACK; freed by the reset or by this ACK.
            self.q1_pm_ns.d.next = self.pm.val();
            self.q1_kill.d.next = 0.into();
            if self.fire.val() & self.ack_ok.val() {
                if self.ecn_bit.val() {
                    self.q1_pm_ns.d.next = self.pm.val() & !self.ack_oh.val();
                } else {
                    self.q1_kill.d.next = self.ack_oh.val();
                }
            }
            if self.fire.val() & self.do_reset.val() {
                self.q1_kill.d.next = self.cfg_ones.val();
            }
        }

        // ---- Stage 2: the loop. Reset first, then the ACK, then the choice (the model's
        // order within a step). `q1_kill` holds what the reset and an unmarked ACK clear.
        self.bm1.next = self.bm_reg.q.val() & !self.q1_kill.q.val();
        self.nv1.next = self.nv_reg.q.val();
        self.np1.next = self.np_reg.q.val();
        self.npt1.next = self.npt_reg.q.val();
        if self.q1_ack_ok.q.val() {
            if self.q1_ecn.q.val() {
                self.bm1.next = self.bm1.val() | self.q1_ack_oh.q.val();
                self.nv1.next = false;
            } else {
                self.nv1.next = true;
                self.np1.next = self.q1_ack_e.q.val();
                self.npt1.next = self.q1_ack_gt.q.val();
            }
        }
        self.gt.next = !self.le_reg.q.val() & self.cfg_not0.val();
        // = !bm1 & pm: !bm1 = (reset | !bm | cleared) & !set.
        self.cand.next = self.q1_pm_ns.q.val() & (self.q1_kill.q.val() | !self.bm_reg.q.val());
        self.hi.next = self.cand.val() & self.gt.val();
        self.lo.next = self.cand.val() & !self.gt.val();
        // Exclusive prefix ORs (bit i = any bit below i), as carry chains (the LUT mapper
        // serialised log-depth shift-OR stages), each two half-width chains side by side, the
        // upper half all ones when the lower has a bit (`PrefixOr`, an OR reduction per half).
        // Their inputs are `hi` and `lo` written again from the registers: made from this
        // block's own signals they would close a loop through its one always block in
        // Verilator's eyes (UNOPTFLAT, see `crate::widgets`); synthesis merges the copies.
        self.pre_hi.x.next = self.q1_pm_ns.q.val()
            & (self.q1_kill.q.val() | !self.bm_reg.q.val())
            & (!self.le_reg.q.val() & self.cfg_not0.val());
        self.pre_lo.x.next = self.q1_pm_ns.q.val()
            & (self.q1_kill.q.val() | !self.bm_reg.q.val())
            & !(!self.le_reg.q.val() & self.cfg_not0.val());
        self.hit_hi.next = self.pre_hi.any.val();
        self.hit_lo.next = self.pre_lo.any.val();
        // The start: rr + 1 (gt's lowest bit) when it is below paths, else 0; and the mask
        // of the entropies above it.
        self.nowrap.next = (self.gt.val() & self.q1_pm.q.val()).any();
        self.s_oh.next = self.cfg_bit0.val();
        self.gos.next = self.cfg_not0.val();
        if self.nowrap.val() {
            self.s_oh.next = self.gt.val() & !(self.gt.val() << self.cfg_pow0.val());
            self.gos.next = self.gt.val() << self.cfg_pow0.val();
        }
        self.res_oh.next = self.s_oh.val();
        self.gt_scan.next = self.gos.val();
        if self.hit_lo.val() {
            self.res_oh.next = self.lo.val() & !self.pre_lo.pre.val();
            self.gt_scan.next = self.pre_lo.pre.val();
        }
        if self.hit_hi.val() {
            self.res_oh.next = self.hi.val() & !self.pre_hi.pre.val();
            self.gt_scan.next = self.pre_hi.pre.val();
        }
        // Whether the start's bit is set (the scan clears it), with both starts' reductions in
        // parallel rather than behind the wrap's own 256-bit reduction.
        self.s_oh_nw.next = self.gt.val() & !(self.gt.val() << self.cfg_pow0.val());
        self.start_set.next = (self.bm1.val() & self.cfg_bit0.val()).any();
        if self.nowrap.val() {
            self.start_set.next = (self.bm1.val() & self.s_oh_nw.val()).any();
        }

        if self.advance.val() {
            self.q2_valid.d.next = self.q1_valid.q.val();
            self.q2_reset.d.next = false;
            self.q2_ack_bad.d.next = false;
            self.q2_choose.d.next = false;
            self.q2_np.d.next = false;
            self.q2_np_e.d.next = 0.into();
            self.q2_res_oh.d.next = 0.into();
            self.q2_s_oh.d.next = 0.into();
            self.q2_start_set.d.next = false;
            self.q2_hit.d.next = false;
            self.q2_paths.d.next = 0.into();
            if self.q1_valid.q.val() {
                self.bm_reg.d.next = self.bm1.val();
                self.nv_reg.d.next = self.nv1.val();
                self.np_reg.d.next = self.np1.val();
                self.npt_reg.d.next = self.npt1.val();
                if self.q1_reset.q.val() {
                    self.last_reset_reg.d.next = self.q1_now.q.val();
                }
                self.q2_reset.d.next = self.q1_reset.q.val();
                self.q2_ack_bad.d.next = self.q1_ack_bad.q.val();
                self.q2_choose.d.next = self.q1_choose.q.val();
                if self.q1_choose.q.val() {
                    self.nv_reg.d.next = false;
                    if self.nv1.val() {
                        self.le_reg.d.next = !self.npt1.val();
                        self.q2_np.d.next = true;
                        self.q2_np_e.d.next = self.np1.val();
                    } else {
                        self.bm_reg.d.next = self.bm1.val() & !self.s_oh.val();
                        self.le_reg.d.next = !self.gt_scan.val();
                        self.q2_res_oh.d.next = self.res_oh.val();
                        self.q2_s_oh.d.next = self.s_oh.val();
                        self.q2_start_set.d.next = self.start_set.val();
                        self.q2_hit.d.next = self.hit_hi.val() | self.hit_lo.val();
                        self.q2_paths.d.next = self.q1_paths.q.val();
                    }
                }
            }
        }

        // ---- Stage 3: the one-hots to indices (`OneHotIndex`, an OR tree per index bit), the
        // output registers and the malformed-ACK counter.
        self.res_enc.x.next = self.q2_res_oh.q.val();
        self.s_enc.x.next = self.q2_s_oh.q.val();
        if self.advance.val() {
            self.m_valid_reg.d.next = self.q2_valid.q.val();
            self.m_reset_reg.d.next = self.q2_reset.q.val();
            self.m_ack_ignored_reg.d.next = self.q2_ack_bad.q.val();
            self.m_choice_valid_reg.d.next = self.q2_choose.q.val();
            self.m_entropy_reg.d.next = 0.into();
            self.m_source_reg.d.next = 0.into();
            self.m_cleared_valid_reg.d.next = false;
            self.m_cleared_reg.d.next = 0.into();
            self.m_paths_reg.d.next = self.q2_paths.q.val();
            if self.q2_ack_bad.q.val() {
                self.bad_count_reg.d.next = self.bad_count_reg.q.val() + self.cfg_one32.val();
            }
            if self.q2_choose.q.val() {
                if self.q2_np.q.val() {
                    self.m_entropy_reg.d.next = self.q2_np_e.q.val();
                } else {
                    self.m_entropy_reg.d.next = self.res_enc.idx.val();
                    self.m_source_reg.d.next = 1.into();
                    if self.q2_start_set.q.val() & !self.q2_hit.q.val() {
                        self.m_source_reg.d.next = 2.into();
                    }
                    self.m_cleared_valid_reg.d.next = self.q2_start_set.q.val();
                    if self.q2_start_set.q.val() {
                        self.m_cleared_reg.d.next = self.s_enc.idx.val();
                    }
                }
            }
        }

        // ---- The synchronous reset, last so that it overrides every assignment above: the
        // power-on values of the state, of every flag the stages read without their valid bit,
        // and of the output registers (see the module documentation for the data registers it
        // leaves).
        if self.s_reset.val() {
            self.q1_valid.d.next = false;
            self.q1_reset.d.next = false;
            self.q1_ack_ok.d.next = false;
            self.q1_ack_bad.d.next = false;
            self.q1_ecn.d.next = false;
            self.q1_choose.d.next = false;
            if !self.cfg_fault_reset_keeps_state.val() {
                self.bm_reg.d.next = 0.into();
                self.le_reg.d.next = 0.into();
                self.nv_reg.d.next = false;
                self.np_reg.d.next = 0.into();
                self.npt_reg.d.next = 0.into();
                self.last_reset_reg.d.next = 0.into();
            }
            self.q2_valid.d.next = false;
            self.q2_reset.d.next = false;
            self.q2_ack_bad.d.next = false;
            self.q2_choose.d.next = false;
            self.q2_np.d.next = false;
            self.q2_start_set.d.next = false;
            self.q2_hit.d.next = false;
            self.q2_paths.d.next = 0.into();
            self.bad_count_reg.d.next = 0.into();
            self.m_valid_reg.d.next = false;
            self.m_choice_valid_reg.d.next = false;
            self.m_entropy_reg.d.next = 0.into();
            self.m_source_reg.d.next = 0.into();
            self.m_cleared_valid_reg.d.next = false;
            self.m_cleared_reg.d.next = 0.into();
            self.m_paths_reg.d.next = 0.into();
            self.m_reset_reg.d.next = false;
            self.m_ack_ignored_reg.d.next = false;
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
