//! SACK receiver RTL (spec section 3, receiver): one packet per clock, latency 1, bit-exact
//! with `golden_model::sack_receiver`.
//!
//! ```text
//!            ┌────── state: epsn_reg, bitmap_reg[W], bytes_reg, ooo_reg, lowest_*_reg, coalesce_reg
//!            ▼                                                                                 ▲
//! s_psn ─► classify (malformed / probe / out of window / duplicate / head / held) ──────────────┤
//!            │ head: rotate bitmap by slot(epsn+1) ─► find-first zero = run k ─► epsn += 1+k,   │
//!            │       clear the run (rotated mask), ooo -= k                                    │
//!            │ held: set bit slot(psn), ooo += 1                                                │
//!            ▼                                                                                 │
//!          triggers (coalesce, head fill, probe, ACK request, ECN) ─► SACK: segment base =     │
//!          lowest PSN since last SACK (or EPSN), bitmap[slot(base) +: SB] masked by position ──┘
//!            ▼
//!          m_*_reg (one output stage) ─► m_*
//! ```
//!
//! `W` = `rx_window`, `SB` = `sack_bits` (both powers of two, `SB <= W`).

use rust_hdl::prelude::*;

/// Verdict codes on `m_verdict` (the model's `Verdict`).
pub const VERDICT_IN_ORDER: u64 = 0;
pub const VERDICT_OUT_OF_ORDER: u64 = 1;
pub const VERDICT_DUPLICATE: u64 = 2;
pub const VERDICT_OUT_OF_WINDOW: u64 = 3;
pub const VERDICT_PROBE: u64 = 4;
pub const VERDICT_MALFORMED: u64 = 5;

/// See the module documentation.
#[derive(LogicBlock)]
pub struct SackReceiverRtl<const W: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,

    /// A packet is offered.
    pub s_valid: Signal<In, Bit>,
    /// The packet is taken this cycle (`!m_valid | m_ready`).
    pub s_ready: Signal<Out, Bit>,
    /// PSN as on the wire; wider than 24 bits is malformed.
    pub s_psn: Signal<In, Bits<32>>,
    /// Payload bytes (`1..=MTU` for data).
    pub s_len: Signal<In, Bits<32>>,
    /// Entropy, echoed.
    pub s_entropy: Signal<In, Bits<32>>,
    /// ECN mark.
    pub s_ecn: Signal<In, Bit>,
    /// Sender timestamp, echoed.
    pub s_ts: Signal<In, Bits<32>>,
    /// A probe (no payload).
    pub s_probe: Signal<In, Bit>,
    /// The packet asks for an ACK.
    pub s_ack_req: Signal<In, Bit>,

    pub m_valid: Signal<Out, Bit>,
    pub m_ready: Signal<In, Bit>,
    /// 0 in order, 1 out of order, 2 duplicate, 3 out of window, 4 probe, 5 malformed.
    pub m_verdict: Signal<Out, Bits<3>>,
    pub m_trig_coalesce: Signal<Out, Bit>,
    pub m_trig_head_fill: Signal<Out, Bit>,
    pub m_trig_probe: Signal<Out, Bit>,
    pub m_trig_ack_req: Signal<Out, Bit>,
    pub m_trig_ecn: Signal<Out, Bit>,
    /// A SACK is sent; the `m_sack_*` fields are 0 otherwise.
    pub m_sack_valid: Signal<Out, Bit>,
    pub m_sack_epsn: Signal<Out, Bits<32>>,
    pub m_sack_base: Signal<Out, Bits<32>>,
    /// Bit `i`: PSN `base + i` received.
    pub m_sack_bitmap: Signal<Out, Bits<SB>>,
    pub m_sack_bytes_recvd: Signal<Out, Bits<32>>,
    pub m_sack_ooo_count: Signal<Out, Bits<32>>,
    pub m_sack_entropy: Signal<Out, Bits<32>>,
    pub m_sack_ecn: Signal<Out, Bit>,
    pub m_sack_ts: Signal<Out, Bits<32>>,
    pub m_sack_probe: Signal<Out, Bit>,
    pub status_duplicates: Signal<Out, Bits<32>>,
    pub status_out_of_window: Signal<Out, Bits<32>>,
    pub status_malformed: Signal<Out, Bits<32>>,

    c_psn_mask: Constant<Bits<32>>,
    c_half: Constant<Bits<32>>,
    c_window: Constant<Bits<32>>,
    c_slot_mask: Constant<Bits<32>>,
    c_seg_mask: Constant<Bits<32>>,
    c_mtu: Constant<Bits<32>>,
    c_coalesce: Constant<Bits<32>>,
    c_sat32: Constant<Bits<64>>,
    c_w16: Constant<Bits<16>>,
    c_one: Constant<Bits<32>>,
    c_one_w: Constant<Bits<W>>,
    /// Fault injection for the co-sim self-test: 1 disables the head-fill trigger.
    c_fault_no_head_fill: Constant<Bit>,
    /// `c_pow<k>` = 2^k: the shifts of the prefix-OR stages.
    c_pow0: Constant<Bits<16>>,
    c_pow1: Constant<Bits<16>>,
    c_pow2: Constant<Bits<16>>,
    c_pow3: Constant<Bits<16>>,
    c_pow4: Constant<Bits<16>>,
    c_pow5: Constant<Bits<16>>,
    c_pow6: Constant<Bits<16>>,
    c_pow7: Constant<Bits<16>>,
    c_pow8: Constant<Bits<16>>,
    c_pow9: Constant<Bits<16>>,
    c_pow10: Constant<Bits<16>>,
    c_pow11: Constant<Bits<16>>,
    run_pre: Signal<Local, Bits<W>>,
    /// `c_sel<k>`: the slots whose index has bit `k` set (the find-first encoder's masks).
    c_sel0: Constant<Bits<W>>,
    c_sel1: Constant<Bits<W>>,
    c_sel2: Constant<Bits<W>>,
    c_sel3: Constant<Bits<W>>,
    c_sel4: Constant<Bits<W>>,
    c_sel5: Constant<Bits<W>>,
    c_sel6: Constant<Bits<W>>,
    c_sel7: Constant<Bits<W>>,
    c_sel8: Constant<Bits<W>>,
    c_sel9: Constant<Bits<W>>,
    c_sel10: Constant<Bits<W>>,
    c_sel11: Constant<Bits<W>>,

    /// Starts at the connection's initial PSN.
    epsn_reg: DFFWithInit<Bits<32>>,
    bitmap_reg: DFF<Bits<W>>,
    bytes_reg: DFF<Bits<32>>,
    ooo_reg: DFF<Bits<32>>,
    lowest_valid_reg: DFF<Bit>,
    lowest_reg: DFF<Bits<32>>,
    coalesce_reg: DFF<Bits<32>>,
    dup_count_reg: DFF<Bits<32>>,
    oow_count_reg: DFF<Bits<32>>,
    bad_count_reg: DFF<Bits<32>>,

    m_valid_reg: DFF<Bit>,
    m_verdict_reg: DFF<Bits<3>>,
    m_trig_coalesce_reg: DFF<Bit>,
    m_trig_head_fill_reg: DFF<Bit>,
    m_trig_probe_reg: DFF<Bit>,
    m_trig_ack_req_reg: DFF<Bit>,
    m_trig_ecn_reg: DFF<Bit>,
    m_sack_valid_reg: DFF<Bit>,
    m_sack_epsn_reg: DFF<Bits<32>>,
    m_sack_base_reg: DFF<Bits<32>>,
    m_sack_bitmap_reg: DFF<Bits<SB>>,
    m_sack_bytes_reg: DFF<Bits<32>>,
    m_sack_ooo_reg: DFF<Bits<32>>,
    m_sack_entropy_reg: DFF<Bits<32>>,
    m_sack_ecn_reg: DFF<Bit>,
    m_sack_ts_reg: DFF<Bits<32>>,
    m_sack_probe_reg: DFF<Bit>,

    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    malformed: Signal<Local, Bit>,
    psn_dist: Signal<Local, Bits<32>>,
    ahead: Signal<Local, Bit>,
    oow: Signal<Local, Bit>,
    slot: Signal<Local, Bits<32>>,
    held: Signal<Local, Bit>,
    dup: Signal<Local, Bit>,
    head: Signal<Local, Bit>,
    hold_new: Signal<Local, Bit>,
    data: Signal<Local, Bit>,
    rot_by: Signal<Local, Bits<16>>,
    rotated: Signal<Local, Bits<W>>,
    run: Signal<Local, Bits<16>>,
    run_one: Signal<Local, Bits<W>>,
    run_mask: Signal<Local, Bits<W>>,
    bitmap_new: Signal<Local, Bits<W>>,
    epsn_new: Signal<Local, Bits<32>>,
    ooo_new: Signal<Local, Bits<32>>,
    bytes_new: Signal<Local, Bits<32>>,
    coalesce_sum: Signal<Local, Bits<64>>,
    coalesce_new: Signal<Local, Bits<32>>,
    lowest_new: Signal<Local, Bits<32>>,
    lowest_valid_new: Signal<Local, Bit>,
    lt_dist: Signal<Local, Bits<32>>,
    t_coalesce: Signal<Local, Bit>,
    t_head_fill: Signal<Local, Bit>,
    any: Signal<Local, Bit>,
    seg_psn: Signal<Local, Bits<32>>,
    seg_base: Signal<Local, Bits<32>>,
    seg_raw: Signal<Local, Bits<SB>>,
    seg_rel: Signal<Local, Bits<32>>,
    rel_i: Signal<Local, Bits<32>>,
    seg_bits: Signal<Local, Bits<SB>>,
    verdict: Signal<Local, Bits<3>>,
}

impl<const W: usize, const SB: usize> SackReceiverRtl<W, SB> {
    pub fn new(
        mtu: u32,
        ack_coalesce_bytes: u32,
        fault_no_head_fill: bool,
        initial_psn: u32,
    ) -> Self {
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        SackReceiverRtl {
            clock: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_psn: Default::default(),
            s_len: Default::default(),
            s_entropy: Default::default(),
            s_ecn: Default::default(),
            s_ts: Default::default(),
            s_probe: Default::default(),
            s_ack_req: Default::default(),
            m_valid: Default::default(),
            m_ready: Default::default(),
            m_verdict: Default::default(),
            m_trig_coalesce: Default::default(),
            m_trig_head_fill: Default::default(),
            m_trig_probe: Default::default(),
            m_trig_ack_req: Default::default(),
            m_trig_ecn: Default::default(),
            m_sack_valid: Default::default(),
            m_sack_epsn: Default::default(),
            m_sack_base: Default::default(),
            m_sack_bitmap: Default::default(),
            m_sack_bytes_recvd: Default::default(),
            m_sack_ooo_count: Default::default(),
            m_sack_entropy: Default::default(),
            m_sack_ecn: Default::default(),
            m_sack_ts: Default::default(),
            m_sack_probe: Default::default(),
            status_duplicates: Default::default(),
            status_out_of_window: Default::default(),
            status_malformed: Default::default(),
            c_psn_mask: c32((1 << 24) - 1),
            c_half: c32(1 << 23),
            c_window: c32(W as u64),
            c_slot_mask: c32(W as u64 - 1),
            c_seg_mask: c32(((1u64 << 24) - 1) & !(SB as u64 - 1)),
            c_mtu: c32(mtu as u64),
            c_coalesce: c32(ack_coalesce_bytes as u64),
            c_sat32: Constant::new(bits::<64>(0xFFFF_FFFF)),
            c_w16: Constant::new(bits::<16>(W as u64)),
            c_one: c32(1),
            c_one_w: Constant::new(bits::<W>(1)),
            c_fault_no_head_fill: Constant::new(fault_no_head_fill),
            c_pow0: Constant::new(bits::<16>(1)),
            c_pow1: Constant::new(bits::<16>(2)),
            c_pow2: Constant::new(bits::<16>(4)),
            c_pow3: Constant::new(bits::<16>(8)),
            c_pow4: Constant::new(bits::<16>(16)),
            c_pow5: Constant::new(bits::<16>(32)),
            c_pow6: Constant::new(bits::<16>(64)),
            c_pow7: Constant::new(bits::<16>(128)),
            c_pow8: Constant::new(bits::<16>(256)),
            c_pow9: Constant::new(bits::<16>(512)),
            c_pow10: Constant::new(bits::<16>(1024)),
            c_pow11: Constant::new(bits::<16>(2048)),
            run_pre: Default::default(),
            c_sel0: Constant::new(crate::index_bit_mask::<W>(0)),
            c_sel1: Constant::new(crate::index_bit_mask::<W>(1)),
            c_sel2: Constant::new(crate::index_bit_mask::<W>(2)),
            c_sel3: Constant::new(crate::index_bit_mask::<W>(3)),
            c_sel4: Constant::new(crate::index_bit_mask::<W>(4)),
            c_sel5: Constant::new(crate::index_bit_mask::<W>(5)),
            c_sel6: Constant::new(crate::index_bit_mask::<W>(6)),
            c_sel7: Constant::new(crate::index_bit_mask::<W>(7)),
            c_sel8: Constant::new(crate::index_bit_mask::<W>(8)),
            c_sel9: Constant::new(crate::index_bit_mask::<W>(9)),
            c_sel10: Constant::new(crate::index_bit_mask::<W>(10)),
            c_sel11: Constant::new(crate::index_bit_mask::<W>(11)),
            epsn_reg: DFFWithInit::new(bits::<32>(initial_psn as u64)),
            bitmap_reg: Default::default(),
            bytes_reg: Default::default(),
            ooo_reg: Default::default(),
            lowest_valid_reg: Default::default(),
            lowest_reg: Default::default(),
            coalesce_reg: Default::default(),
            dup_count_reg: Default::default(),
            oow_count_reg: Default::default(),
            bad_count_reg: Default::default(),
            m_valid_reg: Default::default(),
            m_verdict_reg: Default::default(),
            m_trig_coalesce_reg: Default::default(),
            m_trig_head_fill_reg: Default::default(),
            m_trig_probe_reg: Default::default(),
            m_trig_ack_req_reg: Default::default(),
            m_trig_ecn_reg: Default::default(),
            m_sack_valid_reg: Default::default(),
            m_sack_epsn_reg: Default::default(),
            m_sack_base_reg: Default::default(),
            m_sack_bitmap_reg: Default::default(),
            m_sack_bytes_reg: Default::default(),
            m_sack_ooo_reg: Default::default(),
            m_sack_entropy_reg: Default::default(),
            m_sack_ecn_reg: Default::default(),
            m_sack_ts_reg: Default::default(),
            m_sack_probe_reg: Default::default(),
            advance: Default::default(),
            fire: Default::default(),
            malformed: Default::default(),
            psn_dist: Default::default(),
            ahead: Default::default(),
            oow: Default::default(),
            slot: Default::default(),
            held: Default::default(),
            dup: Default::default(),
            head: Default::default(),
            hold_new: Default::default(),
            data: Default::default(),
            rot_by: Default::default(),
            rotated: Default::default(),
            run: Default::default(),
            run_one: Default::default(),
            run_mask: Default::default(),
            bitmap_new: Default::default(),
            epsn_new: Default::default(),
            ooo_new: Default::default(),
            bytes_new: Default::default(),
            coalesce_sum: Default::default(),
            coalesce_new: Default::default(),
            lowest_new: Default::default(),
            lowest_valid_new: Default::default(),
            lt_dist: Default::default(),
            t_coalesce: Default::default(),
            t_head_fill: Default::default(),
            any: Default::default(),
            seg_psn: Default::default(),
            seg_base: Default::default(),
            seg_raw: Default::default(),
            seg_rel: Default::default(),
            rel_i: Default::default(),
            seg_bits: Default::default(),
            verdict: Default::default(),
        }
    }
}

impl<const W: usize, const SB: usize> Logic for SackReceiverRtl<W, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            epsn_reg,
            bitmap_reg,
            bytes_reg,
            ooo_reg,
            lowest_valid_reg,
            lowest_reg,
            coalesce_reg,
            dup_count_reg,
            oow_count_reg,
            bad_count_reg,
            m_valid_reg,
            m_verdict_reg,
            m_trig_coalesce_reg,
            m_trig_head_fill_reg,
            m_trig_probe_reg,
            m_trig_ack_req_reg,
            m_trig_ecn_reg,
            m_sack_valid_reg,
            m_sack_epsn_reg,
            m_sack_base_reg,
            m_sack_bitmap_reg,
            m_sack_bytes_reg,
            m_sack_ooo_reg,
            m_sack_entropy_reg,
            m_sack_ecn_reg,
            m_sack_ts_reg,
            m_sack_probe_reg
        );
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_verdict.next = self.m_verdict_reg.q.val();
        self.m_trig_coalesce.next = self.m_trig_coalesce_reg.q.val();
        self.m_trig_head_fill.next = self.m_trig_head_fill_reg.q.val();
        self.m_trig_probe.next = self.m_trig_probe_reg.q.val();
        self.m_trig_ack_req.next = self.m_trig_ack_req_reg.q.val();
        self.m_trig_ecn.next = self.m_trig_ecn_reg.q.val();
        self.m_sack_valid.next = self.m_sack_valid_reg.q.val();
        self.m_sack_epsn.next = self.m_sack_epsn_reg.q.val();
        self.m_sack_base.next = self.m_sack_base_reg.q.val();
        self.m_sack_bitmap.next = self.m_sack_bitmap_reg.q.val();
        self.m_sack_bytes_recvd.next = self.m_sack_bytes_reg.q.val();
        self.m_sack_ooo_count.next = self.m_sack_ooo_reg.q.val();
        self.m_sack_entropy.next = self.m_sack_entropy_reg.q.val();
        self.m_sack_ecn.next = self.m_sack_ecn_reg.q.val();
        self.m_sack_ts.next = self.m_sack_ts_reg.q.val();
        self.m_sack_probe.next = self.m_sack_probe_reg.q.val();
        self.status_duplicates.next = self.dup_count_reg.q.val();
        self.status_out_of_window.next = self.oow_count_reg.q.val();
        self.status_malformed.next = self.bad_count_reg.q.val();

        self.advance.next = !self.m_valid_reg.q.val() | self.m_ready.val();
        self.s_ready.next = self.advance.val();
        self.fire.next = self.advance.val() & self.s_valid.val();

        // Classify.
        self.malformed.next = (self.s_psn.val() > self.c_psn_mask.val())
            | (!self.s_probe.val()
                & (!self.s_len.val().any() | (self.s_len.val() > self.c_mtu.val())));
        self.psn_dist.next = (self.s_psn.val() - self.epsn_reg.q.val()) & self.c_psn_mask.val();
        self.ahead.next = self.psn_dist.val() < self.c_half.val();
        self.oow.next = !self.malformed.val()
            & !self.s_probe.val()
            & self.ahead.val()
            & (self.psn_dist.val() >= self.c_window.val());
        self.slot.next = self.s_psn.val() & self.c_slot_mask.val();
        self.held.next = self.bitmap_reg.q.val().get_bit(self.slot.val().index());
        self.data.next = !self.malformed.val() & !self.s_probe.val() & !self.oow.val();
        self.dup.next =
            self.data.val() & (!self.ahead.val() | (self.psn_dist.val().any() & self.held.val()));
        self.head.next = self.data.val() & !self.dup.val() & !self.psn_dist.val().any();
        self.hold_new.next = self.data.val() & !self.dup.val() & self.psn_dist.val().any();

        // Head: the run of held PSNs after EPSN, found in the bitmap rotated to slot(epsn+1).
        self.rot_by.next =
            bit_cast::<16, 32>((self.epsn_reg.q.val() + self.c_one.val()) & self.c_slot_mask.val());
        self.rotated.next = (self.bitmap_reg.q.val() >> self.rot_by.val())
            | (self.bitmap_reg.q.val() << (self.c_w16.val() - self.rot_by.val()));
        // First zero: isolate the lowest set bit of the inverse (`x & !prefix_or_below(x)`, the
        // prefix in log W shift-OR stages) and encode it with an OR tree per index bit.
        // With no zero (never: the head bit itself is clear) it reads 0, as the chain did.
        self.run_pre.next = !self.rotated.val() << self.c_pow0.val();
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow0.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow1.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow2.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow3.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow4.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow5.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow6.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow7.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow8.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow9.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow10.val());
        self.run_pre.next = self.run_pre.val() | (self.run_pre.val() << self.c_pow11.val());
        self.run_one.next = !self.rotated.val() & !self.run_pre.val();
        self.run.next = 0.into();
        self.run.next = self
            .run
            .val()
            .replace_bit(0, (self.run_one.val() & self.c_sel0.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(1, (self.run_one.val() & self.c_sel1.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(2, (self.run_one.val() & self.c_sel2.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(3, (self.run_one.val() & self.c_sel3.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(4, (self.run_one.val() & self.c_sel4.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(5, (self.run_one.val() & self.c_sel5.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(6, (self.run_one.val() & self.c_sel6.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(7, (self.run_one.val() & self.c_sel7.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(8, (self.run_one.val() & self.c_sel8.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(9, (self.run_one.val() & self.c_sel9.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(10, (self.run_one.val() & self.c_sel10.val()).any());
        self.run.next = self
            .run
            .val()
            .replace_bit(11, (self.run_one.val() & self.c_sel11.val()).any());
        self.run_mask.next = (self.c_one_w.val() << self.run.val()) - self.c_one_w.val();
        self.run_mask.next = (self.run_mask.val() << self.rot_by.val())
            | (self.run_mask.val() >> (self.c_w16.val() - self.rot_by.val()));

        self.bitmap_new.next = self.bitmap_reg.q.val();
        self.epsn_new.next = self.epsn_reg.q.val();
        self.ooo_new.next = self.ooo_reg.q.val();
        self.bytes_new.next = self.bytes_reg.q.val();
        if self.head.val() {
            self.bitmap_new.next = self.bitmap_reg.q.val() & !self.run_mask.val();
            self.epsn_new.next =
                (self.epsn_reg.q.val() + self.c_one.val() + bit_cast::<32, 16>(self.run.val()))
                    & self.c_psn_mask.val();
            self.ooo_new.next = self.ooo_reg.q.val() - bit_cast::<32, 16>(self.run.val());
            self.bytes_new.next = self.bytes_reg.q.val() + self.s_len.val();
        }
        if self.hold_new.val() {
            self.bitmap_new.next = self
                .bitmap_reg
                .q
                .val()
                .replace_bit(self.slot.val().index(), true);
            self.ooo_new.next = self.ooo_reg.q.val() + self.c_one.val();
            self.bytes_new.next = self.bytes_reg.q.val() + self.s_len.val();
        }

        // Coalescing and the lowest PSN since the last SACK (data packets only).
        self.coalesce_sum.next =
            bit_cast::<64, 32>(self.coalesce_reg.q.val()) + bit_cast::<64, 32>(self.s_len.val());
        self.coalesce_new.next = self.coalesce_reg.q.val();
        self.lowest_new.next = self.lowest_reg.q.val();
        self.lowest_valid_new.next = self.lowest_valid_reg.q.val();
        // lowest < psn (serial) keeps the lowest
        self.lt_dist.next = (self.s_psn.val() - self.lowest_reg.q.val()) & self.c_psn_mask.val();
        if self.data.val() {
            self.coalesce_new.next = bit_cast::<32, 64>(self.coalesce_sum.val());
            if self.coalesce_sum.val() > self.c_sat32.val() {
                self.coalesce_new.next = bit_cast::<32, 64>(self.c_sat32.val());
            }
            self.lowest_valid_new.next = true;
            if !(self.lowest_valid_reg.q.val()
                & self.lt_dist.val().any()
                & (self.lt_dist.val() < self.c_half.val()))
            {
                self.lowest_new.next = self.s_psn.val();
            }
        }

        // Triggers.
        self.t_coalesce.next = self.data.val() & (self.coalesce_new.val() >= self.c_coalesce.val());
        self.t_head_fill.next =
            self.head.val() & self.ooo_reg.q.val().any() & !self.c_fault_no_head_fill.val();
        self.any.next = !self.malformed.val()
            & !self.oow.val()
            & (self.t_coalesce.val()
                | self.t_head_fill.val()
                | self.s_probe.val()
                | self.s_ack_req.val()
                | self.s_ecn.val());

        // Segment: the lowest PSN since the last SACK unless it is below EPSN (or a probe).
        self.seg_psn.next = self.epsn_new.val();
        self.seg_rel.next = (self.lowest_new.val() - self.epsn_new.val()) & self.c_psn_mask.val();
        // !psn_lt(lowest, epsn)  <=>  (lowest - epsn) mod 2^24 <= 2^23
        if !self.s_probe.val()
            & self.lowest_valid_new.val()
            & (self.seg_rel.val() <= self.c_half.val())
        {
            self.seg_psn.next = self.lowest_new.val();
        }
        self.seg_base.next = self.seg_psn.val() & self.c_seg_mask.val();
        self.seg_raw.next = self
            .bitmap_new
            .val()
            .get_bits::<SB>((self.seg_base.val() & self.c_slot_mask.val()).index());
        self.seg_rel.next = (self.seg_base.val() - self.epsn_new.val()) & self.c_psn_mask.val();
        self.seg_bits.next = 0.into();
        for i in 0..SB {
            self.rel_i.next = (self.seg_rel.val() + i.to_bits::<32>()) & self.c_psn_mask.val();
            // Received: below EPSN (psn_lt(base + i, epsn) <=> rel > 2^23), or held in the window.
            if (self.rel_i.val() > self.c_half.val())
                | ((self.rel_i.val() < self.c_window.val()) & self.seg_raw.val().get_bit(i))
            {
                self.seg_bits.next = self.seg_bits.val().replace_bit(i, true);
            }
        }

        // Verdict.
        self.verdict.next = 1.into();
        if self.malformed.val() {
            self.verdict.next = 5.into();
        } else if self.s_probe.val() {
            self.verdict.next = 4.into();
        } else if self.oow.val() {
            self.verdict.next = 3.into();
        } else if self.dup.val() {
            self.verdict.next = 2.into();
        } else if self.head.val() {
            self.verdict.next = 0.into();
        }

        if self.fire.val() {
            self.epsn_reg.d.next = self.epsn_new.val();
            self.bitmap_reg.d.next = self.bitmap_new.val();
            self.ooo_reg.d.next = self.ooo_new.val();
            self.bytes_reg.d.next = self.bytes_new.val();
            self.coalesce_reg.d.next = self.coalesce_new.val();
            self.lowest_reg.d.next = self.lowest_new.val();
            self.lowest_valid_reg.d.next = self.lowest_valid_new.val();
            if self.any.val() {
                self.coalesce_reg.d.next = 0.into();
                self.lowest_valid_reg.d.next = false;
            }
            if self.dup.val() {
                self.dup_count_reg.d.next = self.dup_count_reg.q.val() + self.c_one.val();
            }
            if self.oow.val() {
                self.oow_count_reg.d.next = self.oow_count_reg.q.val() + self.c_one.val();
            }
            if self.malformed.val() {
                self.bad_count_reg.d.next = self.bad_count_reg.q.val() + self.c_one.val();
            }
            self.m_valid_reg.d.next = true;
            self.m_verdict_reg.d.next = self.verdict.val();
            self.m_trig_coalesce_reg.d.next = false;
            self.m_trig_head_fill_reg.d.next = false;
            self.m_trig_probe_reg.d.next = false;
            self.m_trig_ack_req_reg.d.next = false;
            self.m_trig_ecn_reg.d.next = false;
            if !self.malformed.val() & !self.oow.val() {
                self.m_trig_coalesce_reg.d.next = self.t_coalesce.val();
                self.m_trig_head_fill_reg.d.next = self.t_head_fill.val();
                self.m_trig_probe_reg.d.next = self.s_probe.val();
                self.m_trig_ack_req_reg.d.next = self.s_ack_req.val();
                self.m_trig_ecn_reg.d.next = self.s_ecn.val();
            }
            self.m_sack_valid_reg.d.next = self.any.val();
            self.m_sack_epsn_reg.d.next = 0.into();
            self.m_sack_base_reg.d.next = 0.into();
            self.m_sack_bitmap_reg.d.next = 0.into();
            self.m_sack_bytes_reg.d.next = 0.into();
            self.m_sack_ooo_reg.d.next = 0.into();
            self.m_sack_entropy_reg.d.next = 0.into();
            self.m_sack_ecn_reg.d.next = false;
            self.m_sack_ts_reg.d.next = 0.into();
            self.m_sack_probe_reg.d.next = false;
            if self.any.val() {
                self.m_sack_epsn_reg.d.next = self.epsn_new.val();
                self.m_sack_base_reg.d.next = self.seg_base.val();
                self.m_sack_bitmap_reg.d.next = self.seg_bits.val();
                self.m_sack_bytes_reg.d.next = self.bytes_new.val();
                self.m_sack_ooo_reg.d.next = self.ooo_new.val();
                self.m_sack_entropy_reg.d.next = self.s_entropy.val();
                self.m_sack_ecn_reg.d.next = self.s_ecn.val();
                self.m_sack_ts_reg.d.next = self.s_ts.val();
                self.m_sack_probe_reg.d.next = self.s_probe.val();
            }
        } else if self.advance.val() {
            self.m_valid_reg.d.next = false;
            self.m_verdict_reg.d.next = 0.into();
            self.m_trig_coalesce_reg.d.next = false;
            self.m_trig_head_fill_reg.d.next = false;
            self.m_trig_probe_reg.d.next = false;
            self.m_trig_ack_req_reg.d.next = false;
            self.m_trig_ecn_reg.d.next = false;
            self.m_sack_valid_reg.d.next = false;
            self.m_sack_epsn_reg.d.next = 0.into();
            self.m_sack_base_reg.d.next = 0.into();
            self.m_sack_bitmap_reg.d.next = 0.into();
            self.m_sack_bytes_reg.d.next = 0.into();
            self.m_sack_ooo_reg.d.next = 0.into();
            self.m_sack_entropy_reg.d.next = 0.into();
            self.m_sack_ecn_reg.d.next = false;
            self.m_sack_ts_reg.d.next = 0.into();
            self.m_sack_probe_reg.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    #[test]
    fn default_config_verilog_snapshot() {
        let b = generate("sack_receiver", &Config::default(), &Options::default()).unwrap();
        insta::assert_snapshot!("sack_receiver_default", b.verilog);
    }

    /// Gate: the default design lints, compiles in Icarus and passes the Yosys structural
    /// check; a small design (32-PSN window, 8-bit segments) also goes through a full `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("sack_receiver", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "sack_receiver_default", false);
        let mut small = Config::default();
        small.sack.rx_window = 32;
        small.sack.sack_bits = 8;
        let b = generate("sack_receiver", &small, &Options::default()).unwrap();
        crate::gate::check(&b, "sack_receiver_32_8", true);
    }

    #[test]
    fn illegal_initial_psn_is_refused_naming_the_block() {
        let o = Options {
            initial_psn: 1 << 24,
            ..Options::default()
        };
        let msg = generate("sack_receiver", &Config::default(), &o)
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("sack_receiver: initial PSN"), "{msg}");
    }
}
