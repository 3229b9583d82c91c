//! Congestion-window unit RTL (docs/spec/strack.md, section 2; formats in
//! `docs/golden-model.md`): one ACK per clock, latency 15 (`strack_config::CWND_LATENCY`),
//! bit-exact with `golden_model::cwnd_unit`.
//!
//! ```text
//!  S1           S2             S3            S4             S5      S6..S8          S9,S10          S11     S12,S13       S14              S15 (the loop)
//! s_rtt ─► base_rtt, ─► achievedBDP, ─► arm's    ─► Algorithm 4's ─► ROM;   ─► acked x T(w),      ─► shift,    ─► factor ─► K x ratio, ─► d and the      ─► cwnd_reg + d,
//! s_*      delay,       timers, EWMA;   compares;   arm; w, avg     shift      g*tq x T(avg)        saturate      clamp     w x factor;   bounds: one add    clamped to
//!          diffs;       w = cwnd_reg    msb one-    normalised     amounts                                                bounds' parts per arm, or the   [MTU + e, max]
//!          the clear's                  hots                                                                                          cut's result        │
//!          compares     alpha x (tq - delay), from S3 ──────► gain ───────────────────────────────────────►                                           │
//!                        ▲                                                                                                                                │
//!                        └────────────────────────────────────────── cwnd_reg ◄───────────────────────────────────────────────────────────────────────────┘
//! ```
//!
//! Why this shape: the paper's window update divides by the window and multiplies the result,
//! so as one cycle it was a 100 ns path (10 MHz on ECP5). Only the final add needs the current
//! window; the amounts are computed from `w`, the window register as stage 2 reads it, which
//! does not yet include the ACKs ahead in stages 3 to 15 (the model's
//! `step_pipelined(.., ahead)`, `ahead` being those ACKs). Stage 1 keeps the base-RTT loop,
//! stage 2 the other per-ACK state (achievedBDP, the two timestamps, the EWMA), and stage 4
//! Algorithm 4's arm (achievedBDP's clear is compared in stage 1 against both timestamps it
//! may run from, so stage 2 only selects a flag; a decrease moves the decrease timestamp; the next three ACKs'
//! intervals are measured in stages 1 and 2 from every timestamp they may run from, and stage
//! 3 picks one), so every state but the window is exact per ACK. Every product is two stages
//! (partial products, then their sum: [`MulPipe32`], [`MulPipe48x16`]); `gamma*tq` is one
//! constant, so the decrease factor is one product after the reciprocal; the products' scaling
//! shifts are computed ahead and applied over two stages. Stage 14 turns the arm into one
//! signed addend `d` and the clamp bounds measured against it, each one add of a product and a
//! stage-13 register, so the loop in stage 15 is an add, two compares and a select.
//!
//! Divisions are the model's reciprocal-table approximation: a normalisation (the highest set
//! bit as a one-hot in stage 3, [`MsbOneHot32`]; the word shifted up to it and the leading-zero
//! count in stage 4, [`Normalize32`]), a `2^R x 16` ROM (the shared
//! `strack_config::recip_table_entry` constants), a multiply and a barrel shift.
//!
//! Handshake as every block: `s_ready = !m_valid | m_ready` (and not `s_reset`); the whole
//! pipeline advances together on it; the result of an ACK accepted in cycle t is on `m_*` from
//! t+15; all `m_*` read 0 when the output stage advances without one. `status_malformed_count`
//! counts when the ACK is taken.
//!
//! The synchronous reset (`s_reset`, active high, sampled at the rising edge; one cycle is
//! enough): that cycle takes no ACK (`s_ready` low), and at its edge the state (the window,
//! `base_rtt` and `base_rtt + target_Qdelay`, the EWMA, the three timestamps, the byte count and
//! achievedBDP, the malformed count), the timers' "the ACK ahead reset it" flags, every stage's
//! valid bit and the output registers return to their power-on values: the ACKs in flight are
//! dropped, `m_valid` is low on the next cycle, and the unit takes ACKs again on that cycle. The
//! stages' data registers (and [`CwndAmounts`], shared with the NIC) keep their values: nothing
//! reads them without their valid bit, which an ACK refills with them.

use crate::init_dff::InitDff;
use crate::widgets::OneHotIndex;
use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::ROM;
use std::collections::BTreeMap;
use strack_config::{recip_table_entry, CwndConstants};

/// Clock edges from an ACK on `s_*` to its result on `m_*`.
pub const LATENCY: u32 = strack_config::CWND_LATENCY;

/// `a * b` (32 x 32 bits) in two stages: the four 16x16 partial products are registered, then
/// summed into `p` (rust-hdl multiplies 16x16 only). `p` follows `a`, `b` by two edges with
/// `en` high; `en` low holds both stages.
#[derive(LogicBlock, Default)]
pub struct MulPipe32 {
    pub clock: Signal<In, Clock>,
    pub en: Signal<In, Bit>,
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub p: Signal<Out, Bits<64>>,
    ll: DFF<Bits<32>>,
    lh: DFF<Bits<32>>,
    hl: DFF<Bits<32>>,
    hh: DFF<Bits<32>>,
    p_reg: DFF<Bits<64>>,
}

impl Logic for MulPipe32 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ll, lh, hl, hh, p_reg);
        self.p.next = self.p_reg.q.val();
        if self.en.val() {
            self.ll.d.next = self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(0);
            self.lh.d.next = self.a.val().get_bits::<16>(0) * self.b.val().get_bits::<16>(16);
            self.hl.d.next = self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(0);
            self.hh.d.next = self.a.val().get_bits::<16>(16) * self.b.val().get_bits::<16>(16);
            self.p_reg.d.next = bit_cast::<64, 32>(self.ll.q.val())
                + (bit_cast::<64, 32>(self.lh.q.val()) << 16)
                + (bit_cast::<64, 32>(self.hl.q.val()) << 16)
                + (bit_cast::<64, 32>(self.hh.q.val()) << 32);
        }
    }
}

/// `a * b` (48 x 16 bits, the low 64 bits) in two stages, as [`MulPipe32`].
#[derive(LogicBlock, Default)]
pub struct MulPipe48x16 {
    pub clock: Signal<In, Clock>,
    pub en: Signal<In, Bit>,
    pub a: Signal<In, Bits<48>>,
    pub b: Signal<In, Bits<16>>,
    pub p: Signal<Out, Bits<64>>,
    p0: DFF<Bits<32>>,
    p1: DFF<Bits<32>>,
    p2: DFF<Bits<32>>,
    p_reg: DFF<Bits<64>>,
}

impl Logic for MulPipe48x16 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, p0, p1, p2, p_reg);
        self.p.next = self.p_reg.q.val();
        if self.en.val() {
            self.p0.d.next = self.a.val().get_bits::<16>(0) * self.b.val();
            self.p1.d.next = self.a.val().get_bits::<16>(16) * self.b.val();
            self.p2.d.next = self.a.val().get_bits::<16>(32) * self.b.val();
            self.p_reg.d.next = bit_cast::<64, 32>(self.p0.q.val())
                + (bit_cast::<64, 32>(self.p1.q.val()) << 16)
                + (bit_cast::<64, 32>(self.p2.q.val()) << 32);
        }
    }
}

/// The highest set bit of a word as a one-hot (0 for zero), in log depth: the ones smeared
/// downwards by five shift-OR steps (a thermometer up to the highest set bit), then the
/// thermometer's top edge. The first half of the reciprocal table's normalisation, which as a
/// 32-step leading-zero chain and then a barrel shift was the unit's critical path.
#[derive(LogicBlock)]
pub struct MsbOneHot32 {
    pub x: Signal<In, Bits<32>>,
    pub top: Signal<Out, Bits<32>>,
    c_one: Constant<Bits<32>>,
    smear: Signal<Local, Bits<32>>,
}

impl Default for MsbOneHot32 {
    fn default() -> Self {
        MsbOneHot32 {
            x: Default::default(),
            top: Default::default(),
            c_one: Constant::new(bits::<32>(1)),
            smear: Default::default(),
        }
    }
}

impl Logic for MsbOneHot32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.smear.next = self.x.val();
        for k in 0..5usize {
            self.smear.next =
                self.smear.val() | (self.smear.val() >> (self.c_one.val() << k.to_bits::<32>()));
        }
        self.top.next = self.smear.val() & !(self.smear.val() >> self.c_one.val());
    }
}

/// The second half, from [`MsbOneHot32`]'s one-hot `top` of `x`: `n = x << lz` (the highest
/// set bit moved to bit 31; bit `b` of it is one AND-OR over the one-hot, no barrel shift) and
/// `lz`, the leading zeros (32 for zero; `31 - index` is the index inverted), from the
/// one-hot's index ([`OneHotIndex`]: one OR tree per index bit).
#[derive(LogicBlock)]
pub struct Normalize32 {
    pub x: Signal<In, Bits<32>>,
    pub top: Signal<In, Bits<32>>,
    pub n: Signal<Out, Bits<32>>,
    pub lz: Signal<Out, Bits<8>>,
    c_31: Constant<Bits<8>>,
    c_32: Constant<Bits<8>>,
    /// The one-hot's index.
    enc: OneHotIndex<32, 5>,
}

impl Default for Normalize32 {
    fn default() -> Self {
        Normalize32 {
            x: Default::default(),
            top: Default::default(),
            n: Default::default(),
            lz: Default::default(),
            c_31: Constant::new(bits::<8>(31)),
            c_32: Constant::new(bits::<8>(32)),
            enc: OneHotIndex::new(),
        }
    }
}

impl Logic for Normalize32 {
    #[hdl_gen]
    fn update(&mut self) {
        // Bit b of x << (31 - i) is x[i - 31 + b]: set where the one-hot's bit i is.
        self.n.next = 0.into();
        for b in 0..32usize {
            self.n.next = self.n.val().replace_bit(
                b,
                (self.top.val() & (self.x.val() << (31 - b).to_bits::<8>())).any(),
            );
        }
        self.enc.x.next = self.top.val();
        self.lz.next = self.c_32.val();
        if self.top.val().any() {
            self.lz.next = bit_cast::<8, 5>(self.enc.idx.val()) ^ self.c_31.val();
        }
    }
}

/// Branch codes on `m_branch` (the model's `Branch`).
pub const BRANCH_ADDITIVE: u64 = 0;
pub const BRANCH_PROPORTIONAL: u64 = 1;
pub const BRANCH_ACHIEVED_BDP_CUT: u64 = 2;
pub const BRANCH_MULTIPLICATIVE: u64 = 3;
pub const BRANCH_HOLD: u64 = 4;
pub const BRANCH_MALFORMED: u64 = 5;

/// Stages 4 to 14 of the window update: everything between Algorithm 4's arm and the loop,
/// none of it state. From the window in flight `w`, the average delay (each with its highest
/// set bit as a one-hot, from stage 3), the acknowledged bytes, `tq - delay` (a stage earlier,
/// for the gain's product), the arm, the fairness flag and achievedBDP, it makes what the loop
/// needs ten stages later: the signed addend `d`, the bounds' low 32 bits and their flags, the
/// low clamp's value or the cut's result; the arm, the flag and achievedBDP ride along. Shared
/// by the stand-alone unit and the NIC's per-connection one, so the arithmetic is written once.
/// Every register moves on `en`.
#[derive(LogicBlock)]
pub struct CwndAmounts<const R: usize> {
    pub clock: Signal<In, Clock>,
    /// The pipeline advances.
    pub en: Signal<In, Bit>,
    /// Stage 3's registers (stage 4's inputs): `w`, the average delay, each with its highest
    /// set bit one-hot; the acknowledged bytes; achievedBDP (63:32) and the fairness flag (3),
    /// every other bit 0.
    pub s_w: Signal<In, Bits<32>>,
    pub s_top_w: Signal<In, Bits<32>>,
    pub s_avg: Signal<In, Bits<32>>,
    pub s_top_avg: Signal<In, Bits<32>>,
    pub s_acked: Signal<In, Bits<32>>,
    pub s_q: Signal<In, Bits<64>>,
    /// Stage 4's arm (combinational there).
    pub s_arm: Signal<In, Bits<3>>,
    /// `tq - delay`, a stage earlier (stage 2's register): the gain's product takes two.
    pub s_tqmd_early: Signal<In, Bits<32>>,
    /// Stage 14's registers: the addend, the bounds' low 32 bits, the low clamp's value (or
    /// the cut's result), the bounds' flags; the arm, the fairness flag, achievedBDP.
    pub m_d: Signal<Out, Bits<40>>,
    pub m_hi_thr: Signal<Out, Bits<32>>,
    pub m_lo_thr: Signal<Out, Bits<32>>,
    pub m_locut: Signal<Out, Bits<32>>,
    pub m_o_all: Signal<Out, Bit>,
    pub m_o_cmp: Signal<Out, Bit>,
    pub m_u_all: Signal<Out, Bit>,
    pub m_u_cmp: Signal<Out, Bit>,
    pub m_arm: Signal<Out, Bits<3>>,
    pub m_fair: Signal<Out, Bit>,
    pub m_ach: Signal<Out, Bits<32>>,

    c_31_minus_r: Constant<Bits<8>>,
    c_31_minus_cf: Constant<Bits<8>>,
    c_47_minus_df: Constant<Bits<8>>,
    c_16_minus_cf: Constant<Bits<8>>,
    c_cf: Constant<Bits<8>>,
    c_beta_mtu: Constant<Bits<32>>,
    c_alpha_mtu: Constant<Bits<32>>,
    c_gamma_tq: Constant<Bits<48>>,
    c_eta_mtu: Constant<Bits<40>>,
    c_one_minus_gamma: Constant<Bits<32>>,
    c_max_cwnd: Constant<Bits<40>>,
    c_mtu: Constant<Bits<40>>,
    c_mtu64: Constant<Bits<64>>,
    /// The old cap on `acked/w` (just below 4), kept for the fault variant only.
    c_ratio_max: Constant<Bits<64>>,
    /// Fault injection for the co-sim self-test: 1 caps `acked/w` at `c_ratio_max`.
    c_fault_ratio_cap: Constant<Bit>,
    c_half: Constant<Bits<32>>,
    c_one: Constant<Bits<32>>,
    c_two: Constant<Bits<64>>,
    /// The bits from 2^17 up: the decrease term saturates when one is set.
    c_from_two: Constant<Bits<64>>,
    c_coarse: Constant<Bits<8>>,
    c_fine: Constant<Bits<8>>,
    c_g_hi: Constant<Bits<18>>,
    c_g_lo: Constant<Bits<18>>,
    /// 2^36: the loop's bounds are compared with this offset so that they stay unsigned.
    c_bias: Constant<Bits<40>>,
    /// Bits 39..36 and 39..32 of a bound.
    c_m39_36: Constant<Bits<40>>,
    c_m39_32: Constant<Bits<40>>,
    /// `max_cwnd + 2^36` and `MTU + 2^36`.
    c_max_bias: Constant<Bits<40>>,
    c_mtu_bias: Constant<Bits<40>>,
    c_arm_additive: Constant<Bits<3>>,
    c_arm_proportional: Constant<Bits<3>>,
    c_arm_achieved_bdp_cut: Constant<Bits<3>>,
    c_arm_multiplicative: Constant<Bits<3>>,

    p4_lagw: DFF<Bits<32>>,
    p5_lagw: DFF<Bits<32>>,
    p6_lagw: DFF<Bits<32>>,
    p7_lagw: DFF<Bits<32>>,
    p8_lagw: DFF<Bits<32>>,
    p9_lagw: DFF<Bits<32>>,
    p10_lagw: DFF<Bits<32>>,
    p11_lagw: DFF<Bits<32>>,
    p12_lagw: DFF<Bits<32>>,
    p4_acked: DFF<Bits<32>>,
    p5_acked: DFF<Bits<32>>,
    p6_acked: DFF<Bits<32>>,
    /// The arm, the fairness flag (bit 3) and achievedBDP (63:32), carried.
    p4_q: DFF<Bits<64>>,
    p5_q: DFF<Bits<64>>,
    p6_q: DFF<Bits<64>>,
    p7_q: DFF<Bits<64>>,
    p8_q: DFF<Bits<64>>,
    p9_q: DFF<Bits<64>>,
    p10_q: DFF<Bits<64>>,
    p11_q: DFF<Bits<64>>,
    p12_q: DFF<Bits<64>>,
    p13_q: DFF<Bits<64>>,
    p14_q: DFF<Bits<64>>,
    p4_idx_c: DFF<Bits<32>>,
    p4_idx_a: DFF<Bits<32>>,
    p4_lz_c: DFF<Bits<8>>,
    p4_lz_a: DFF<Bits<8>>,
    p5_sh_c: DFF<Bits<8>>,
    p5_sh_a: DFF<Bits<8>>,
    p6_sh_c: DFF<Bits<8>>,
    p6_sh_a: DFF<Bits<8>>,
    p7_sh_c: DFF<Bits<8>>,
    p7_sh_a: DFF<Bits<8>>,
    p8_sh_c: DFF<Bits<8>>,
    p8_sh_a: DFF<Bits<8>>,
    p5_t_c: DFF<Bits<16>>,
    p5_t_a: DFF<Bits<16>>,
    p6_t_c: DFF<Bits<16>>,
    p6_t_a: DFF<Bits<16>>,
    p5_gain: DFF<Bits<32>>,
    p6_gain: DFF<Bits<32>>,
    p7_gain: DFF<Bits<32>>,
    p8_gain: DFF<Bits<32>>,
    p9_gain: DFF<Bits<32>>,
    p10_gain: DFF<Bits<32>>,
    /// The multiplier K of the increase, chosen in stage 11 so that the product's input is a
    /// register (the gain for the proportional arm, beta*MTU for the additive one).
    p11_k: DFF<Bits<32>>,
    p9_xc: DFF<Bits<64>>,
    p9_xa: DFF<Bits<64>>,
    p9_fine_c: DFF<Bits<8>>,
    p9_fine_a: DFF<Bits<8>>,
    p10_ratio: DFF<Bits<32>>,
    p10_g: DFF<Bits<18>>,
    p11_ratio: DFF<Bits<32>>,
    p11_factor: DFF<Bits<32>>,
    /// Stage 13 measures the bounds' constant parts against the fairness increase `e` and the
    /// window `w`, so that stage 14 is one add per arm from the products.
    p13_e: DFF<Bits<40>>,
    p13_hi_e: DFF<Bits<40>>,
    p13_e_m_w: DFF<Bits<40>>,
    p13_hi_w: DFF<Bits<40>>,
    p13_lo_w: DFF<Bits<40>>,
    p13_lo: DFF<Bits<32>>,
    p13_cutval: DFF<Bits<32>>,
    p14_d: DFF<Bits<40>>,
    /// The bounds' low 32 bits (their top bytes are the `p14_o_*` / `p14_u_*` flags).
    p14_hi_thr: DFF<Bits<32>>,
    p14_lo_thr: DFF<Bits<32>>,
    /// The low clamp's value (`MTU + e`), or the achievedBDP cut's result, whole (it does not
    /// read the window).
    p14_locut: DFF<Bits<32>>,
    /// The window is over the high bound whatever its value / when its 32 bits compare
    /// over; the same for under the low bound (always, for the cut).
    p14_o_all: DFF<Bit>,
    p14_o_cmp: DFF<Bit>,
    p14_u_all: DFF<Bit>,
    p14_u_cmp: DFF<Bit>,

    rom_cwnd: ROM<Bits<16>, R>,
    rom_avg: ROM<Bits<16>, R>,
    mul_alpha: MulPipe32,
    mul_c: MulPipe32,
    mul_a: MulPipe48x16,
    mul_k: MulPipe32,
    mul_w: MulPipe32,
    norm_c: Normalize32,
    norm_a: Normalize32,

    ratio_full: Signal<Local, Bits<64>>,
    /// Stage 10: the ratio / the decrease term is past its bound after the fine shift.
    ratio_sat: Signal<Local, Bit>,
    g_sat: Signal<Local, Bit>,
    g_full: Signal<Local, Bits<64>>,
    g_gt: Signal<Local, Bit>,
    g_lt: Signal<Local, Bit>,
    factor: Signal<Local, Bits<32>>,
    arm14: Signal<Local, Bits<3>>,
    e12: Signal<Local, Bits<40>>,
    w12: Signal<Local, Bits<40>>,
    cutval: Signal<Local, Bits<64>>,
    inc: Signal<Local, Bits<40>>,
    /// Stage 14: the arm is an increase, and its amount is at least 2^33 (then the window
    /// clamps at `max_cwnd` whatever it is).
    inc_arm: Signal<Local, Bit>,
    inc_huge: Signal<Local, Bit>,
    wf: Signal<Local, Bits<40>>,
    cut40: Signal<Local, Bits<40>>,
    cut_biased: Signal<Local, Bits<40>>,
    /// Stage 14: the bounds, the cut, and the cut's clamped result.
    hi14: Signal<Local, Bits<40>>,
    lo14: Signal<Local, Bits<40>>,
    cut14: Signal<Local, Bit>,
    cutres14: Signal<Local, Bits<32>>,
}

impl<const R: usize> CwndAmounts<R> {
    /// `fault_ratio_cap`: the broken variant that caps `acked/w` below 4 (`hdl::Fault`).
    pub fn new(k: &CwndConstants, fault_ratio_cap: bool) -> Self {
        let c8 = |v: u32| Constant::new(bits::<8>(v as u64));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let c40 = |v: u64| Constant::new(bits::<40>(v));
        let c64 = |v: u64| Constant::new(bits::<64>(v));
        CwndAmounts {
            clock: Default::default(),
            en: Default::default(),
            s_w: Default::default(),
            s_top_w: Default::default(),
            s_avg: Default::default(),
            s_top_avg: Default::default(),
            s_acked: Default::default(),
            s_q: Default::default(),
            s_arm: Default::default(),
            s_tqmd_early: Default::default(),
            m_d: Default::default(),
            m_hi_thr: Default::default(),
            m_lo_thr: Default::default(),
            m_locut: Default::default(),
            m_o_all: Default::default(),
            m_o_cmp: Default::default(),
            m_u_all: Default::default(),
            m_u_cmp: Default::default(),
            m_arm: Default::default(),
            m_fair: Default::default(),
            m_ach: Default::default(),
            c_31_minus_r: c8(31 - R as u32),
            c_31_minus_cf: c8(31 - k.cwnd_frac),
            c_47_minus_df: c8(47 - k.delay_frac),
            c_16_minus_cf: c8(16 - k.cwnd_frac),
            c_cf: c8(k.cwnd_frac),
            c_beta_mtu: c32(k.beta_mtu_q as u64),
            c_alpha_mtu: c32(k.alpha_mtu_q as u64),
            c_gamma_tq: Constant::new(bits::<48>(k.gamma_q16 as u64 * k.tq_ns as u64)),
            c_eta_mtu: c40(k.eta_mtu_q as u64),
            c_one_minus_gamma: c32(k.one_minus_gamma_q16 as u64),
            c_max_cwnd: c40(k.max_cwnd_q as u64),
            c_mtu: c40(k.mtu_q as u64),
            c_mtu64: c64(k.mtu_q as u64),
            c_ratio_max: c64((1 << 18) - 1),
            c_fault_ratio_cap: Constant::new(fault_ratio_cap),
            c_half: c32(1 << 15),
            c_one: c32(1 << 16),
            c_two: c64(1 << 17),
            c_from_two: c64(!((1u64 << 17) - 1)),
            c_coarse: c8(0xF8),
            c_fine: c8(0x07),
            c_g_hi: Constant::new(bits::<18>(k.gamma_q16 as u64)),
            c_g_lo: Constant::new(bits::<18>(
                (1u64 << 15).saturating_sub(k.one_minus_gamma_q16 as u64),
            )),
            c_bias: c40(1 << 36),
            c_m39_36: c40(0xF << 36),
            c_m39_32: c40(0xFF << 32),
            c_max_bias: c40(k.max_cwnd_q as u64 + (1 << 36)),
            c_mtu_bias: c40(k.mtu_q as u64 + (1 << 36)),
            c_arm_additive: Constant::new(bits::<3>(BRANCH_ADDITIVE)),
            c_arm_proportional: Constant::new(bits::<3>(BRANCH_PROPORTIONAL)),
            c_arm_achieved_bdp_cut: Constant::new(bits::<3>(BRANCH_ACHIEVED_BDP_CUT)),
            c_arm_multiplicative: Constant::new(bits::<3>(BRANCH_MULTIPLICATIVE)),
            p4_lagw: Default::default(),
            p5_lagw: Default::default(),
            p6_lagw: Default::default(),
            p7_lagw: Default::default(),
            p8_lagw: Default::default(),
            p9_lagw: Default::default(),
            p10_lagw: Default::default(),
            p11_lagw: Default::default(),
            p12_lagw: Default::default(),
            p4_acked: Default::default(),
            p5_acked: Default::default(),
            p6_acked: Default::default(),
            p4_q: Default::default(),
            p5_q: Default::default(),
            p6_q: Default::default(),
            p7_q: Default::default(),
            p8_q: Default::default(),
            p9_q: Default::default(),
            p10_q: Default::default(),
            p11_q: Default::default(),
            p12_q: Default::default(),
            p13_q: Default::default(),
            p14_q: Default::default(),
            p4_idx_c: Default::default(),
            p4_idx_a: Default::default(),
            p4_lz_c: Default::default(),
            p4_lz_a: Default::default(),
            p5_sh_c: Default::default(),
            p5_sh_a: Default::default(),
            p6_sh_c: Default::default(),
            p6_sh_a: Default::default(),
            p7_sh_c: Default::default(),
            p7_sh_a: Default::default(),
            p8_sh_c: Default::default(),
            p8_sh_a: Default::default(),
            p5_t_c: Default::default(),
            p5_t_a: Default::default(),
            p6_t_c: Default::default(),
            p6_t_a: Default::default(),
            p5_gain: Default::default(),
            p6_gain: Default::default(),
            p7_gain: Default::default(),
            p8_gain: Default::default(),
            p9_gain: Default::default(),
            p10_gain: Default::default(),
            p11_k: Default::default(),
            p9_xc: Default::default(),
            p9_xa: Default::default(),
            p9_fine_c: Default::default(),
            p9_fine_a: Default::default(),
            p10_ratio: Default::default(),
            p10_g: Default::default(),
            p11_ratio: Default::default(),
            p11_factor: Default::default(),
            p13_e: Default::default(),
            p13_hi_e: Default::default(),
            p13_e_m_w: Default::default(),
            p13_hi_w: Default::default(),
            p13_lo_w: Default::default(),
            p13_lo: Default::default(),
            p13_cutval: Default::default(),
            p14_d: Default::default(),
            p14_hi_thr: Default::default(),
            p14_lo_thr: Default::default(),
            p14_locut: Default::default(),
            p14_o_all: Default::default(),
            p14_o_cmp: Default::default(),
            p14_u_all: Default::default(),
            p14_u_cmp: Default::default(),
            rom_cwnd: recip_rom::<R>(),
            rom_avg: recip_rom::<R>(),
            mul_alpha: Default::default(),
            mul_c: Default::default(),
            mul_a: Default::default(),
            mul_k: Default::default(),
            mul_w: Default::default(),
            norm_c: Default::default(),
            norm_a: Default::default(),
            ratio_full: Default::default(),
            ratio_sat: Default::default(),
            g_sat: Default::default(),
            g_full: Default::default(),
            g_gt: Default::default(),
            g_lt: Default::default(),
            factor: Default::default(),
            arm14: Default::default(),
            e12: Default::default(),
            w12: Default::default(),
            cutval: Default::default(),
            inc: Default::default(),
            inc_arm: Default::default(),
            inc_huge: Default::default(),
            wf: Default::default(),
            cut40: Default::default(),
            cut_biased: Default::default(),
            hi14: Default::default(),
            lo14: Default::default(),
            cut14: Default::default(),
            cutres14: Default::default(),
        }
    }
}

impl<const R: usize> Logic for CwndAmounts<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, p4_lagw, p5_lagw, p6_lagw, p7_lagw, p8_lagw, p9_lagw, p10_lagw, p11_lagw,
            p12_lagw, p4_acked, p5_acked, p6_acked, p4_q, p5_q, p6_q, p7_q, p8_q, p9_q, p10_q,
            p11_q, p12_q, p13_q, p14_q, p4_idx_c, p4_idx_a, p4_lz_c, p4_lz_a, p5_sh_c, p5_sh_a,
            p6_sh_c, p6_sh_a, p7_sh_c, p7_sh_a, p8_sh_c, p8_sh_a, p5_t_c, p5_t_a, p6_t_c, p6_t_a,
            p5_gain, p6_gain, p7_gain, p8_gain, p9_gain, p10_gain, p11_k, p9_xc, p9_xa, p9_fine_c,
            p9_fine_a, p10_ratio, p10_g, p11_ratio, p11_factor, p13_e, p13_hi_e, p13_e_m_w,
            p13_hi_w, p13_lo_w, p13_lo, p13_cutval, p14_d, p14_hi_thr, p14_lo_thr, p14_locut,
            p14_o_all, p14_o_cmp, p14_u_all, p14_u_cmp
        );
        clock!(self, clock, mul_alpha, mul_c, mul_a, mul_k, mul_w);
        self.mul_alpha.en.next = self.en.val();
        self.mul_c.en.next = self.en.val();
        self.mul_a.en.next = self.en.val();
        self.mul_k.en.next = self.en.val();
        self.mul_w.en.next = self.en.val();
        self.m_d.next = self.p14_d.q.val();
        self.m_hi_thr.next = self.p14_hi_thr.q.val();
        self.m_lo_thr.next = self.p14_lo_thr.q.val();
        self.m_locut.next = self.p14_locut.q.val();
        self.m_o_all.next = self.p14_o_all.q.val();
        self.m_o_cmp.next = self.p14_o_cmp.q.val();
        self.m_u_all.next = self.p14_u_all.q.val();
        self.m_u_cmp.next = self.p14_u_cmp.q.val();
        self.m_arm.next = self.p14_q.q.val().get_bits::<3>(0);
        self.m_fair.next = self.p14_q.q.val().get_bit(3);
        self.m_ach.next = self.p14_q.q.val().get_bits::<32>(32);
        // gain = (alpha*MTU * (tq - delay)) >> (16 - cf): the operand is stage 2's register
        // (its only load is the multiplier, so it can sit by the DSP; the gain is not needed
        // before stage 11).
        self.mul_alpha.a.next = self.c_alpha_mtu.val();
        self.mul_alpha.b.next = self.s_tqmd_early.val();

        // ---- S4: the table indices (w and avg_delay normalised from stage 3's one-hots), and
        // their leading zeros, from which stage 5 makes the shifts that will scale the products;
        // the gain's product is ready.
        self.norm_c.x.next = self.s_w.val();
        self.norm_c.top.next = self.s_top_w.val();
        self.norm_a.x.next = self.s_avg.val();
        self.norm_a.top.next = self.s_top_avg.val();
        if self.en.val() {
            self.p4_idx_c.d.next = self.norm_c.n.val() >> self.c_31_minus_r.val();
            self.p4_idx_a.d.next = self.norm_a.n.val() >> self.c_31_minus_r.val();
            self.p4_lz_c.d.next = self.norm_c.lz.val();
            self.p4_lz_a.d.next = self.norm_a.lz.val();
        }

        // ---- S5: the reciprocal table.
        self.rom_cwnd.address.next = bit_cast::<R, 32>(self.p4_idx_c.q.val());
        self.rom_avg.address.next = bit_cast::<R, 32>(self.p4_idx_a.q.val());
        if self.en.val() {
            self.p5_t_c.d.next = self.rom_cwnd.data.val();
            self.p5_gain.d.next =
                bit_cast::<32, 64>(self.mul_alpha.p.val() >> self.c_16_minus_cf.val());
            self.p5_t_a.d.next = self.rom_avg.data.val();
        }

        // ---- S6 registers the table's output again (Yosys maps the ROM to block RAM, whose
        // output is slow), S7, S8: acked x T(w) and gamma*tq x T(avg).
        self.mul_c.a.next = self.p6_acked.q.val();
        self.mul_c.b.next = bit_cast::<32, 16>(self.p6_t_c.q.val());
        self.mul_a.a.next = self.c_gamma_tq.val();
        self.mul_a.b.next = self.p6_t_a.q.val();

        // ---- S9, S10: the products shifted right (by the shift's upper bits, then by its lower
        // three), then the ratio (never capped: below 2^32 as `acked < 2^24` and `w >= MTU >=
        // 2^8`) and the decrease term saturated at 2^17 (the factor clamps at 1 anyway).
        if self.en.val() {
            self.p9_xc.d.next = self.mul_c.p.val() >> (self.p8_sh_c.q.val() & self.c_coarse.val());
            self.p9_xa.d.next = self.mul_a.p.val() >> (self.p8_sh_a.q.val() & self.c_coarse.val());
            self.p9_fine_c.d.next = self.p8_sh_c.q.val() & self.c_fine.val();
            self.p9_fine_a.d.next = self.p8_sh_a.q.val() & self.c_fine.val();
        }
        self.ratio_full.next = self.p9_xc.q.val() >> self.p9_fine_c.q.val();
        self.g_full.next = self.p9_xa.q.val() >> self.p9_fine_a.q.val();
        // Saturations read off the high bits (OR trees), not 64-bit compares, and off the
        // unshifted word (bits at or above the bound plus the fine shift), so the OR trees
        // run beside the shift instead of after it.
        self.ratio_sat.next = false;
        self.g_sat.next = false;
        for k in 0..8usize {
            if self.p9_fine_c.q.val() == k.to_bits::<8>() {
                self.ratio_sat.next =
                    ((self.p9_xc.q.val() >> k.to_bits::<8>()) & !self.c_ratio_max.val()).any();
            }
            if self.p9_fine_a.q.val() == k.to_bits::<8>() {
                self.g_sat.next =
                    ((self.p9_xa.q.val() >> k.to_bits::<8>()) & self.c_from_two.val()).any();
            }
        }
        if self.en.val() {
            self.p10_ratio.d.next = bit_cast::<32, 64>(self.ratio_full.val());
            if self.ratio_sat.val() & self.c_fault_ratio_cap.val() {
                self.p10_ratio.d.next = bit_cast::<32, 64>(self.c_ratio_max.val());
            }
            self.p10_g.d.next = bit_cast::<18, 64>(self.g_full.val());
            // (at exactly 2^17 the select gives the same value)
            if self.g_sat.val() {
                self.p10_g.d.next = bit_cast::<18, 64>(self.c_two.val());
            }
        }

        // ---- S11: factor = clamp((1 - gamma) + term, 0.5, 1), where (1 - gamma) + g > 1 <=>
        // g > gamma and (1 - gamma) + g < 1/2 <=> g < 1/2 - (1 - gamma). The compares read the
        // saturated term: the same answers as the full one, as both bounds are below 2^17.
        // (At the term's 18 bits and the factor's 32: the bounds are below 2^17 and the sum
        // below 2^18, so no 64-bit chain.)
        self.g_gt.next = self.p10_g.q.val() > self.c_g_hi.val();
        self.g_lt.next = self.p10_g.q.val() < self.c_g_lo.val();
        self.factor.next = self.c_one_minus_gamma.val() + bit_cast::<32, 18>(self.p10_g.q.val());
        if self.g_gt.val() {
            self.factor.next = self.c_one.val();
        } else if self.g_lt.val() {
            self.factor.next = self.c_half.val();
        }
        if self.en.val() {
            self.p11_factor.d.next = self.factor.val();
            self.p11_ratio.d.next = self.p10_ratio.q.val();
        }

        // ---- S12, S13: K x ratio (K = beta*MTU for the additive arm, the gain for the
        // proportional one) and w x factor.
        self.mul_k.a.next = self.p11_k.q.val();
        self.mul_k.b.next = self.p11_ratio.q.val();
        self.mul_w.a.next = self.p11_lagw.q.val();
        self.mul_w.b.next = self.p11_factor.q.val();

        // S13 also measures the bounds' constant parts against e (the fairness increase, 0 or
        // eta*MTU) and w, and the achievedBDP cut's base, none of which needs a product.
        self.e12.next = 0.into();
        if self.p12_q.q.val().get_bit(3) {
            self.e12.next = self.c_eta_mtu.val();
        }
        self.w12.next = bit_cast::<40, 32>(self.p12_lagw.q.val());
        self.cutval.next =
            bit_cast::<64, 32>(self.p12_q.q.val().get_bits::<32>(32)) << self.c_cf.val();
        if self.cutval.val() < self.c_mtu64.val() {
            self.cutval.next = self.c_mtu64.val();
        }
        if self.en.val() {
            self.p13_e.d.next = self.e12.val();
            self.p13_hi_e.d.next = self.c_max_bias.val() - self.e12.val();
            self.p13_e_m_w.d.next = self.e12.val() - self.w12.val();
            self.p13_hi_w.d.next = self.c_max_bias.val() - self.e12.val() + self.w12.val();
            self.p13_lo_w.d.next = self.c_mtu_bias.val() + self.w12.val();
            self.p13_lo.d.next = bit_cast::<32, 40>(self.c_mtu.val() + self.e12.val());
            self.p13_cutval.d.next = bit_cast::<32, 64>(self.cutval.val());
        }

        // ---- S14: the arm as one signed addend d (40-bit two's complement) and the bounds
        // the loop compares against, offset by 2^36: hi = max + 2^36 - d, lo = MTU + e + 2^36
        // - d. Per arm, each is one add of a stage-13 register and a product:
        //   additive, proportional: d = e + inc,      hi = (max + 2^36 - e) - inc, lo = (MTU + 2^36) - inc
        //   multiplicative:         d = (e - w) + wf, hi = (max + 2^36 - e + w) - wf, lo = (MTU + 2^36 + w) - wf
        //   otherwise:              d = e,            hi = max + 2^36 - e,         lo = MTU + 2^36
        // (wf = w x factor, so the arm's decrease is w - wf.) The achievedBDP cut does not
        // read the window: its clamped result is made here whole.
        self.arm14.next = self.p13_q.q.val().get_bits::<3>(0);
        // The increase, exact below 2^33. From 2^33 up (an ACK for many windows; the ratio is
        // never capped) the window clamps at max_cwnd (below 2^32) whatever it is: the flag,
        // an OR of the product's top bits beside the bounds' subtractions, forces the high
        // clamp, and the 40-bit d and bounds, which then wrap, are not used.
        self.inc.next = bit_cast::<40, 64>(self.mul_k.p.val() >> 16);
        self.inc_huge.next = (self.mul_k.p.val() >> 49).any();
        self.wf.next = bit_cast::<40, 64>(self.mul_w.p.val() >> 16);
        self.cut40.next = bit_cast::<40, 32>(self.p13_cutval.q.val());
        self.cut_biased.next = self.cut40.val() | self.c_bias.val();
        self.hi14.next = self.p13_hi_e.q.val();
        self.lo14.next = self.c_mtu_bias.val();
        self.inc_arm.next = (self.arm14.val() == self.c_arm_additive.val())
            | (self.arm14.val() == self.c_arm_proportional.val());
        if self.inc_arm.val() {
            self.hi14.next = self.p13_hi_e.q.val() - self.inc.val();
            self.lo14.next = self.c_mtu_bias.val() - self.inc.val();
        }
        if self.arm14.val() == self.c_arm_multiplicative.val() {
            self.hi14.next = self.p13_hi_w.q.val() - self.wf.val();
            self.lo14.next = self.p13_lo_w.q.val() - self.wf.val();
        }
        self.cut14.next = self.arm14.val() == self.c_arm_achieved_bdp_cut.val();
        self.cutres14.next = bit_cast::<32, 40>(self.cut40.val() + self.p13_e.q.val());
        if self.cut_biased.val() > self.p13_hi_e.q.val() {
            self.cutres14.next = bit_cast::<32, 40>(self.c_max_cwnd.val());
        } else if self.cut_biased.val() < self.c_mtu_bias.val() {
            self.cutres14.next = self.p13_lo.q.val();
        }
        if self.en.val() {
            self.p14_d.d.next = self.p13_e.q.val();
            if self.inc_arm.val() {
                self.p14_d.d.next = self.p13_e.q.val() + self.inc.val();
            }
            if self.arm14.val() == self.c_arm_multiplicative.val() {
                self.p14_d.d.next = self.p13_e_m_w.q.val() + self.wf.val();
            }
            self.p14_hi_thr.d.next = self.hi14.val().get_bits::<32>(0);
            self.p14_lo_thr.d.next = self.lo14.val().get_bits::<32>(0);
            // `cwnd + 2^36 > hi` and `< lo` with each bound's top byte tested here (2^36 +
            // cwnd has top byte 16), so the loop compares only the window's 32 bits; the cut
            // (which does not read the window) forces the low clamp with its own result.
            // (As bit tests: top < 16 is bits 39..36 clear, top == 16 is bits 39..32 equal
            // to 2^36's; written as compares they were mapped to another carry chain.)
            self.p14_o_all.d.next = !self.cut14.val()
                & (!(self.hi14.val() & self.c_m39_36.val()).any()
                    | (self.inc_arm.val() & self.inc_huge.val()));
            self.p14_o_cmp.d.next =
                !self.cut14.val() & ((self.hi14.val() & self.c_m39_32.val()) == self.c_bias.val());
            self.p14_u_all.d.next = self.cut14.val()
                | ((self.lo14.val() & self.c_m39_36.val()).any()
                    & ((self.lo14.val() & self.c_m39_32.val()) != self.c_bias.val()));
            self.p14_u_cmp.d.next =
                !self.cut14.val() & ((self.lo14.val() & self.c_m39_32.val()) == self.c_bias.val());
            self.p14_locut.d.next = self.p13_lo.q.val();
            if self.cut14.val() {
                self.p14_locut.d.next = self.cutres14.val();
            }
        }

        // The carried values: {achieved(63:32), fairness(3), arm(2:0)}.
        if self.en.val() {
            self.p4_q.d.next = self.s_q.val() | bit_cast::<64, 3>(self.s_arm.val());
            self.p5_q.d.next = self.p4_q.q.val();
            self.p6_q.d.next = self.p5_q.q.val();
            self.p7_q.d.next = self.p6_q.q.val();
            self.p8_q.d.next = self.p7_q.q.val();
            self.p9_q.d.next = self.p8_q.q.val();
            self.p10_q.d.next = self.p9_q.q.val();
            self.p11_q.d.next = self.p10_q.q.val();
            self.p12_q.d.next = self.p11_q.q.val();
            self.p13_q.d.next = self.p12_q.q.val();
            self.p14_q.d.next = self.p13_q.q.val();
            self.p4_lagw.d.next = self.s_w.val();
            self.p5_lagw.d.next = self.p4_lagw.q.val();
            self.p6_lagw.d.next = self.p5_lagw.q.val();
            self.p7_lagw.d.next = self.p6_lagw.q.val();
            self.p8_lagw.d.next = self.p7_lagw.q.val();
            self.p9_lagw.d.next = self.p8_lagw.q.val();
            self.p10_lagw.d.next = self.p9_lagw.q.val();
            self.p11_lagw.d.next = self.p10_lagw.q.val();
            self.p12_lagw.d.next = self.p11_lagw.q.val();
            self.p4_acked.d.next = self.s_acked.val();
            self.p5_acked.d.next = self.p4_acked.q.val();
            self.p6_acked.d.next = self.p5_acked.q.val();
            self.p6_t_c.d.next = self.p5_t_c.q.val();
            self.p6_t_a.d.next = self.p5_t_a.q.val();
            self.p5_sh_c.d.next = self.c_31_minus_cf.val() - self.p4_lz_c.q.val();
            self.p5_sh_a.d.next = self.c_47_minus_df.val() - self.p4_lz_a.q.val();
            self.p6_sh_c.d.next = self.p5_sh_c.q.val();
            self.p6_sh_a.d.next = self.p5_sh_a.q.val();
            self.p7_sh_c.d.next = self.p6_sh_c.q.val();
            self.p7_sh_a.d.next = self.p6_sh_a.q.val();
            self.p8_sh_c.d.next = self.p7_sh_c.q.val();
            self.p8_sh_a.d.next = self.p7_sh_a.q.val();
            self.p6_gain.d.next = self.p5_gain.q.val();
            self.p7_gain.d.next = self.p6_gain.q.val();
            self.p8_gain.d.next = self.p7_gain.q.val();
            self.p9_gain.d.next = self.p8_gain.q.val();
            self.p10_gain.d.next = self.p9_gain.q.val();
            self.p11_k.d.next = self.p10_gain.q.val();
            if self.p10_q.q.val().get_bits::<3>(0) == self.c_arm_additive.val() {
                self.p11_k.d.next = self.c_beta_mtu.val();
            }
        }
    }
}

/// See the module documentation. `R` = `fixed_point.recip_index_bits`.
#[derive(LogicBlock)]
pub struct CwndUnitRtl<const R: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the unit returns to its power-on state at this edge,
    /// dropping the ACKs in flight, and takes no ACK this cycle.
    pub s_reset: Signal<In, Bit>,

    /// An ACK is offered.
    pub s_valid: Signal<In, Bit>,
    /// The ACK is taken this cycle (`!m_valid | m_ready`, and not `s_reset`).
    pub s_ready: Signal<Out, Bit>,
    /// Time, ns (wrapping).
    pub s_now: Signal<In, Bits<32>>,
    /// RTT sample, ns; above 2^24-1 the ACK is malformed.
    pub s_rtt: Signal<In, Bits<32>>,
    /// The ACK echoes an ECN mark.
    pub s_ecn: Signal<In, Bit>,
    /// Bytes newly acknowledged; above 2^24-1 the ACK is malformed.
    pub s_acked_bytes: Signal<In, Bits<32>>,
    /// The ACK answers a probe.
    pub s_is_probe_ack: Signal<In, Bit>,

    /// A result is presented.
    pub m_valid: Signal<Out, Bit>,
    /// The consumer takes it.
    pub m_ready: Signal<In, Bit>,
    /// The window after this ACK, cwnd format (`cwnd_frac_bits` fraction bits).
    pub m_cwnd_q: Signal<Out, Bits<32>>,
    /// The window in bytes.
    pub m_cwnd_bytes: Signal<Out, Bits<32>>,
    /// Which arm ran: 0 additive, 1 proportional, 2 achievedBDP cut, 3 multiplicative,
    /// 4 hold, 5 malformed.
    pub m_branch: Signal<Out, Bits<3>>,
    /// The fairness increase was applied.
    pub m_fairness: Signal<Out, Bit>,
    pub m_achieved_bdp: Signal<Out, Bits<32>>,
    pub m_base_rtt: Signal<Out, Bits<32>>,
    /// `avg_delay`, `delay_frac_bits` fraction bits.
    pub m_avg_delay_q: Signal<Out, Bits<32>>,
    /// Malformed ACKs so far.
    pub status_malformed_count: Signal<Out, Bits<32>>,

    c_rtt_max: Constant<Bits<32>>,
    c_tq: Constant<Bits<32>>,
    c_tq_high: Constant<Bits<32>>,
    c_tq_q: Constant<Bits<32>>,
    c_ewma_shift: Constant<Bits<8>>,
    c_cf: Constant<Bits<8>>,
    c_df: Constant<Bits<8>>,
    c_max_cwnd: Constant<Bits<40>>,
    /// `ceil(max_cwnd / 8)`: `achievedBDP < this` is `8 * achievedBDP < max_cwnd`, exactly
    /// (`CwndConstants::bdp_cut_limit`; the fault variant: `floor(max_cwnd / 8)`).
    c_bdp_limit: Constant<Bits<32>>,
    c_sat32: Constant<Bits<64>>,
    c_one32: Constant<Bits<32>>,
    c_fair_bit: Constant<Bits<64>>,
    /// The arm codes (`BRANCH_*`).
    c_arm_additive: Constant<Bits<3>>,
    c_arm_proportional: Constant<Bits<3>>,
    c_arm_achieved_bdp_cut: Constant<Bits<3>>,
    c_arm_multiplicative: Constant<Bits<3>>,
    c_arm_hold: Constant<Bits<3>>,
    c_arm_malformed: Constant<Bits<3>>,
    /// The power-on values of the three registers that do not start at 0 (`InitDff`), which
    /// `s_reset` loads: `max_cwnd`, `RTT_MAX` and `RTT_MAX + target_Qdelay`.
    c_cwnd_init: Constant<Bits<32>>,
    c_base_init: Constant<Bits<32>>,
    c_base_tq_init: Constant<Bits<32>>,
    /// Fault injection for the co-sim self-test: 1 leaves the window alone on `s_reset`.
    c_fault_reset_keeps_window: Constant<Bit>,

    // State.
    cwnd_reg: InitDff<Bits<32>>,
    base_rtt_reg: InitDff<Bits<32>>,
    /// `base_rtt_reg + target_Qdelay`, kept beside it (Algorithm 2's interval, a register
    /// so that stage 1's clear compares start from one).
    base_tq_reg: InitDff<Bits<32>>,
    avg_reg: DFF<Bits<32>>,
    last_dec_reg: DFF<Bits<32>>,
    last_fair_reg: DFF<Bits<32>>,
    rx_count_reg: DFF<Bits<32>>,
    clear_ts_reg: DFF<Bits<32>>,
    achieved_reg: DFF<Bits<32>>,
    malformed_reg: DFF<Bits<32>>,
    p1_valid: DFF<Bit>,
    p1_malf: DFF<Bit>,
    p1_now: DFF<Bits<32>>,
    p1_acked: DFF<Bits<32>>,
    p1_ecn: DFF<Bit>,
    /// The bytes this ACK adds to achievedBDP's count (0 for a probe's ACK).
    p1_add: DFF<Bits<32>>,
    p1_base: DFF<Bits<32>>,
    p1_dq_s: DFF<Bits<32>>,
    /// Algorithm 2's clear, decided in stage 1: `now - clear_ts > base_rtt + target_Qdelay`
    /// from the register, and with the `now` of the ACK in stage 2 as `clear_ts` (taken when
    /// that ACK clears), so stage 2 only selects a flag.
    p1_clr_reg: DFF<Bit>,
    p1_clr_prev: DFF<Bit>,
    /// Stage 1's `now - last_fair` from the register, and `now -` the ACK in stage 2's `now`
    /// (taken when that ACK passes the fairness timer).
    /// Algorithm 4's fairness timer, decided in stage 1 as achievedBDP's clear is: `now -
    /// last_fair > base` from the register, and with the `now` of the ACK in stage 2 as
    /// `last_fair` (taken when that ACK took the fairness turn), each against both base
    /// candidates (a 32-bit compare in stage 2 was its critical path once the products were
    /// registered in the DSPs).
    p1_fair_reg: DFF<Bit>,
    p1_fair_prev: DFF<Bit>,
    p1_d_prev: DFF<Bits<32>>,
    /// The ACK that left stage 2 on the last advance cleared achievedBDP / took the fairness
    /// turn (so the next ACK's timer runs from its `now`).
    s2_cleared_reg: DFF<Bit>,
    s2_faired_reg: DFF<Bit>,
    /// Stage 1's `now - last_dec` from the register, and `now -` the `now` of the ACKs in
    /// stages 3 and 4 (two and three ahead; the decision in stage 4 writes the register after
    /// this stage has read it).
    p1_d_dec: DFF<Bits<32>>,
    p1_d_prev2: DFF<Bits<32>>,
    p1_d_prev3: DFF<Bits<32>>,
    /// The ACKs that left stage 4 on the last advance and on the one before decreased the
    /// window.
    s4_dec1_reg: DFF<Bit>,
    s4_dec2_reg: DFF<Bit>,
    p1_tqmd: DFF<Bits<32>>,
    p1_delay: DFF<Bits<32>>,
    p2_now: DFF<Bits<32>>,
    p2_malf: DFF<Bit>,
    p2_ecn: DFF<Bit>,
    p2_gt_tqh: DFF<Bit>,
    p2_lt_tq: DFF<Bit>,
    p2_gt_tq: DFF<Bit>,
    /// `now - last_dec > base` from each of the four timestamps it may run from (the
    /// register, or the ACK one, two or three ahead), chosen in stage 3.
    p2_cd0: DFF<Bit>,
    p2_cd1: DFF<Bit>,
    p2_cd2: DFF<Bit>,
    p2_cd3: DFF<Bit>,
    p2_fair: DFF<Bit>,
    p2_valid: DFF<Bit>,
    p2_o: DFF<Bits<64>>,
    /// achievedBDP after this ACK, as its two candidates and the choice (made in stage 3, so
    /// that the clear's compare drives one flip-flop, not a 32-bit select).
    p2_ach_new: DFF<Bits<32>>,
    p2_ach_old: DFF<Bits<32>>,
    p2_ach_sel: DFF<Bit>,
    p2_lagw: DFF<Bits<32>>,
    p3_valid: DFF<Bit>,
    p3_o: DFF<Bits<64>>,
    p3_now: DFF<Bits<32>>,
    p3_malf: DFF<Bit>,
    p3_ecn: DFF<Bit>,
    p3_gt_tqh: DFF<Bit>,
    p3_lt_tq: DFF<Bit>,
    p3_gt_tq: DFF<Bit>,
    p3_can_dec: DFF<Bit>,
    /// `avg_delay > tq` and `achievedBDP < max/8`, compared in stage 3 for stage 4's arm.
    p3_avg_gt: DFF<Bit>,
    p3_ach_lt: DFF<Bit>,
    p3_q: DFF<Bits<64>>,
    p3_lagw: DFF<Bits<32>>,
    p4_valid: DFF<Bit>,
    p4_o: DFF<Bits<64>>,
    p5_valid: DFF<Bit>,
    p5_o: DFF<Bits<64>>,
    p6_valid: DFF<Bit>,
    p6_o: DFF<Bits<64>>,
    p7_valid: DFF<Bit>,
    p7_o: DFF<Bits<64>>,
    p8_valid: DFF<Bit>,
    p8_o: DFF<Bits<64>>,
    p9_valid: DFF<Bit>,
    p9_o: DFF<Bits<64>>,
    p10_valid: DFF<Bit>,
    p10_o: DFF<Bits<64>>,
    p11_valid: DFF<Bit>,
    p11_o: DFF<Bits<64>>,
    p12_valid: DFF<Bit>,
    p12_o: DFF<Bits<64>>,
    p13_valid: DFF<Bit>,
    p13_o: DFF<Bits<64>>,
    p14_valid: DFF<Bit>,
    p14_o: DFF<Bits<64>>,
    p2_acked: DFF<Bits<32>>,
    p3_acked: DFF<Bits<32>>,
    /// The highest set bits of w and avg_delay (one-hot), for stage 4's normalisation.
    p3_top_c: DFF<Bits<32>>,
    p3_top_a: DFF<Bits<32>>,
    /// `tq - delay` again, the gain multiplier's operand.
    p2_tqmd: DFF<Bits<32>>,
    m_valid_reg: DFF<Bit>,
    m_cwnd_q_reg: DFF<Bits<32>>,
    m_cwnd_bytes_reg: DFF<Bits<32>>,
    m_branch_reg: DFF<Bits<3>>,
    m_fairness_reg: DFF<Bit>,
    m_achieved_reg: DFF<Bits<32>>,
    m_base_rtt_reg: DFF<Bits<32>>,
    m_avg_reg: DFF<Bits<32>>,

    msb_c: MsbOneHot32,
    msb_a: MsbOneHot32,
    /// Stages 4 to 14.
    amounts: CwndAmounts<R>,

    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    malformed: Signal<Local, Bit>,
    base_new: Signal<Local, Bits<32>>,
    delay: Signal<Local, Bits<32>>,
    rtt_below: Signal<Local, Bit>,
    s2_go: Signal<Local, Bit>,
    can_clear: Signal<Local, Bit>,
    /// Stage 1: `rtt + tq` (the base if this RTT is below it), `now - clear_ts`, `now -` the
    /// `now` of the ACK in stage 2.
    bt_rtt: Signal<Local, Bits<32>>,
    d_clear: Signal<Local, Bits<32>>,
    d_prev: Signal<Local, Bits<32>>,
    clr_base: Signal<Local, Bits<1>>,
    clr_prev_base: Signal<Local, Bits<1>>,
    clr_rtt: Signal<Local, Bits<1>>,
    clr_prev_rtt: Signal<Local, Bits<1>>,
    d_fair: Signal<Local, Bits<32>>,
    fair_base: Signal<Local, Bits<1>>,
    fair_prev_base: Signal<Local, Bits<1>>,
    fair_rtt: Signal<Local, Bits<1>>,
    fair_prev_rtt: Signal<Local, Bits<1>>,
    rx_sum: Signal<Local, Bits<64>>,
    rx_sat: Signal<Local, Bits<32>>,
    ach3: Signal<Local, Bits<32>>,
    can_fair: Signal<Local, Bit>,
    avg_new: Signal<Local, Bits<32>>,
    branch: Signal<Local, Bits<3>>,
    decreased: Signal<Local, Bit>,
    s4_decreased: Signal<Local, Bit>,
    can_dec3: Signal<Local, Bit>,
    lagw: Signal<Local, Bits<32>>,
    out_avg: Signal<Local, Bits<32>>,
    out_fair: Signal<Local, Bit>,
    q_pack: Signal<Local, Bits<64>>,
    avg3: Signal<Local, Bits<32>>,
    cw40: Signal<Local, Bits<40>>,
    loop_sum: Signal<Local, Bits<40>>,
    gt_hi32: Signal<Local, Bits<1>>,
    lt_lo32: Signal<Local, Bits<1>>,
    over_hi: Signal<Local, Bit>,
    under_lo: Signal<Local, Bit>,
    cwnd_new: Signal<Local, Bits<32>>,
}

fn recip_rom<const R: usize>() -> ROM<Bits<16>, R> {
    let mut m = BTreeMap::new();
    for i in 0..(1usize << R) {
        m.insert(
            i.to_bits::<R>(),
            bits::<16>(recip_table_entry(i as u32, R as u32) as u64),
        );
    }
    ROM::new(m)
}

impl<const R: usize> CwndUnitRtl<R> {
    /// `fault_*`: the co-sim self-test's broken variants (`hdl::Fault`): the rules the spec
    /// replaced (`acked/w` capped below 4, and the achievedBDP cut tested against
    /// `floor(max_cwnd / 8)`), and a reset that leaves the window.
    pub fn new(
        k: &CwndConstants,
        fault_ratio_cap: bool,
        fault_rounded_bdp_test: bool,
        fault_reset_keeps_window: bool,
    ) -> Self {
        let c8 = |v: u32| Constant::new(bits::<8>(v as u64));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let c40 = |v: u64| Constant::new(bits::<40>(v));
        let c64 = |v: u64| Constant::new(bits::<64>(v));
        CwndUnitRtl {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_now: Default::default(),
            s_rtt: Default::default(),
            s_ecn: Default::default(),
            s_acked_bytes: Default::default(),
            s_is_probe_ack: Default::default(),
            m_valid: Default::default(),
            m_ready: Default::default(),
            m_cwnd_q: Default::default(),
            m_cwnd_bytes: Default::default(),
            m_branch: Default::default(),
            m_fairness: Default::default(),
            m_achieved_bdp: Default::default(),
            m_base_rtt: Default::default(),
            m_avg_delay_q: Default::default(),
            status_malformed_count: Default::default(),
            c_rtt_max: c32((1 << 24) - 1),
            c_tq: c32(k.tq_ns as u64),
            c_tq_high: c32(k.tq_high_ns as u64),
            c_tq_q: c32((k.tq_ns as u64) << k.delay_frac),
            c_ewma_shift: c8(k.ewma_shift),
            c_cf: c8(k.cwnd_frac),
            c_df: c8(k.delay_frac),
            c_max_cwnd: c40(k.max_cwnd_q as u64),
            c_bdp_limit: c32(if fault_rounded_bdp_test {
                k.max_cwnd_bytes as u64 / 8
            } else {
                k.bdp_cut_limit() as u64
            }),
            c_sat32: c64(0xFFFF_FFFF),
            c_one32: c32(1),
            c_fair_bit: c64(1 << 3),
            c_arm_additive: Constant::new(bits::<3>(BRANCH_ADDITIVE)),
            c_arm_proportional: Constant::new(bits::<3>(BRANCH_PROPORTIONAL)),
            c_arm_achieved_bdp_cut: Constant::new(bits::<3>(BRANCH_ACHIEVED_BDP_CUT)),
            c_arm_multiplicative: Constant::new(bits::<3>(BRANCH_MULTIPLICATIVE)),
            c_arm_hold: Constant::new(bits::<3>(BRANCH_HOLD)),
            c_arm_malformed: Constant::new(bits::<3>(BRANCH_MALFORMED)),
            c_cwnd_init: c32(k.max_cwnd_q as u64),
            c_base_init: c32((1 << 24) - 1),
            c_base_tq_init: c32((1 << 24) - 1 + k.tq_ns as u64),
            c_fault_reset_keeps_window: Constant::new(fault_reset_keeps_window),
            cwnd_reg: InitDff::new(bits::<32>(k.max_cwnd_q as u64)),
            base_rtt_reg: InitDff::new(bits::<32>((1 << 24) - 1)),
            base_tq_reg: InitDff::new(bits::<32>((1 << 24) - 1 + k.tq_ns as u64)),
            avg_reg: Default::default(),
            last_dec_reg: Default::default(),
            last_fair_reg: Default::default(),
            rx_count_reg: Default::default(),
            clear_ts_reg: Default::default(),
            achieved_reg: Default::default(),
            malformed_reg: Default::default(),
            p1_valid: Default::default(),
            p1_malf: Default::default(),
            p1_now: Default::default(),
            p1_acked: Default::default(),
            p1_ecn: Default::default(),
            p1_add: Default::default(),
            p1_base: Default::default(),
            p1_dq_s: Default::default(),
            p1_clr_reg: Default::default(),
            p1_clr_prev: Default::default(),
            p1_fair_reg: Default::default(),
            p1_fair_prev: Default::default(),
            p1_d_prev: Default::default(),
            s2_cleared_reg: Default::default(),
            s2_faired_reg: Default::default(),
            p1_d_dec: Default::default(),
            p1_d_prev2: Default::default(),
            p1_d_prev3: Default::default(),
            s4_dec1_reg: Default::default(),
            s4_dec2_reg: Default::default(),
            p1_tqmd: Default::default(),
            p1_delay: Default::default(),
            p2_now: Default::default(),
            p2_malf: Default::default(),
            p2_ecn: Default::default(),
            p2_gt_tqh: Default::default(),
            p2_lt_tq: Default::default(),
            p2_gt_tq: Default::default(),
            p2_cd0: Default::default(),
            p2_cd1: Default::default(),
            p2_cd2: Default::default(),
            p2_cd3: Default::default(),
            p2_fair: Default::default(),
            p2_valid: Default::default(),
            p2_o: Default::default(),
            p2_ach_new: Default::default(),
            p2_ach_old: Default::default(),
            p2_ach_sel: Default::default(),
            p2_lagw: Default::default(),
            p3_valid: Default::default(),
            p3_o: Default::default(),
            p3_now: Default::default(),
            p3_malf: Default::default(),
            p3_ecn: Default::default(),
            p3_gt_tqh: Default::default(),
            p3_lt_tq: Default::default(),
            p3_gt_tq: Default::default(),
            p3_can_dec: Default::default(),
            p3_avg_gt: Default::default(),
            p3_ach_lt: Default::default(),
            p3_q: Default::default(),
            p3_lagw: Default::default(),
            p4_valid: Default::default(),
            p4_o: Default::default(),
            p5_valid: Default::default(),
            p5_o: Default::default(),
            p6_valid: Default::default(),
            p6_o: Default::default(),
            p7_valid: Default::default(),
            p7_o: Default::default(),
            p8_valid: Default::default(),
            p8_o: Default::default(),
            p9_valid: Default::default(),
            p9_o: Default::default(),
            p10_valid: Default::default(),
            p10_o: Default::default(),
            p11_valid: Default::default(),
            p11_o: Default::default(),
            p12_valid: Default::default(),
            p12_o: Default::default(),
            p13_valid: Default::default(),
            p13_o: Default::default(),
            p14_valid: Default::default(),
            p14_o: Default::default(),
            p2_acked: Default::default(),
            p3_acked: Default::default(),
            p3_top_c: Default::default(),
            p3_top_a: Default::default(),
            p2_tqmd: Default::default(),
            m_valid_reg: Default::default(),
            m_cwnd_q_reg: Default::default(),
            m_cwnd_bytes_reg: Default::default(),
            m_branch_reg: Default::default(),
            m_fairness_reg: Default::default(),
            m_achieved_reg: Default::default(),
            m_base_rtt_reg: Default::default(),
            m_avg_reg: Default::default(),
            msb_c: Default::default(),
            msb_a: Default::default(),
            amounts: CwndAmounts::new(k, fault_ratio_cap),
            advance: Default::default(),
            fire: Default::default(),
            malformed: Default::default(),
            base_new: Default::default(),
            delay: Default::default(),
            rtt_below: Default::default(),
            s2_go: Default::default(),
            can_clear: Default::default(),
            bt_rtt: Default::default(),
            d_clear: Default::default(),
            d_prev: Default::default(),
            clr_base: Default::default(),
            clr_prev_base: Default::default(),
            clr_rtt: Default::default(),
            clr_prev_rtt: Default::default(),
            d_fair: Default::default(),
            fair_base: Default::default(),
            fair_prev_base: Default::default(),
            fair_rtt: Default::default(),
            fair_prev_rtt: Default::default(),
            rx_sum: Default::default(),
            rx_sat: Default::default(),
            ach3: Default::default(),
            can_fair: Default::default(),
            avg_new: Default::default(),
            branch: Default::default(),
            decreased: Default::default(),
            s4_decreased: Default::default(),
            can_dec3: Default::default(),
            lagw: Default::default(),
            out_avg: Default::default(),
            out_fair: Default::default(),
            q_pack: Default::default(),
            avg3: Default::default(),
            cw40: Default::default(),
            loop_sum: Default::default(),
            gt_hi32: Default::default(),
            lt_lo32: Default::default(),
            over_hi: Default::default(),
            under_lo: Default::default(),
            cwnd_new: Default::default(),
        }
    }
}

impl<const R: usize> Logic for CwndUnitRtl<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cwnd_reg,
            base_rtt_reg,
            base_tq_reg,
            avg_reg,
            last_dec_reg,
            last_fair_reg,
            rx_count_reg,
            clear_ts_reg,
            achieved_reg,
            malformed_reg,
            p1_valid,
            p1_malf,
            p1_now,
            p1_acked,
            p1_ecn,
            p1_add,
            p1_base,
            p1_dq_s,
            p1_clr_reg,
            p1_clr_prev,
            p1_fair_reg,
            p1_fair_prev,
            p1_d_prev,
            s2_cleared_reg,
            s2_faired_reg,
            p1_d_dec,
            p1_d_prev2,
            p1_d_prev3,
            s4_dec1_reg,
            s4_dec2_reg,
            p1_tqmd,
            p1_delay,
            p2_now,
            p2_malf,
            p2_ecn,
            p2_gt_tqh,
            p2_lt_tq,
            p2_gt_tq,
            p2_cd0,
            p2_cd1,
            p2_cd2,
            p2_cd3,
            p2_fair,
            p2_valid,
            p2_o,
            p2_ach_new,
            p2_ach_old,
            p2_ach_sel,
            p2_lagw,
            p3_valid,
            p3_o,
            p3_now,
            p3_malf,
            p3_ecn,
            p3_gt_tqh,
            p3_lt_tq,
            p3_gt_tq,
            p3_can_dec,
            p3_avg_gt,
            p3_ach_lt,
            p3_q,
            p3_lagw,
            p4_valid,
            p4_o,
            p5_valid,
            p5_o,
            p6_valid,
            p6_o,
            p7_valid,
            p7_o,
            p8_valid,
            p8_o,
            p9_valid,
            p9_o,
            p10_valid,
            p10_o,
            p11_valid,
            p11_o,
            p12_valid,
            p12_o,
            p13_valid,
            p13_o,
            p14_valid,
            p14_o,
            p2_acked,
            p3_acked,
            p3_top_c,
            p3_top_a,
            p2_tqmd,
            m_valid_reg,
            m_cwnd_q_reg,
            m_cwnd_bytes_reg,
            m_branch_reg,
            m_fairness_reg,
            m_achieved_reg,
            m_base_rtt_reg,
            m_avg_reg
        );
        self.amounts.clock.next = self.clock.val();
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_cwnd_q.next = self.m_cwnd_q_reg.q.val();
        self.m_cwnd_bytes.next = self.m_cwnd_bytes_reg.q.val();
        self.m_branch.next = self.m_branch_reg.q.val();
        self.m_fairness.next = self.m_fairness_reg.q.val();
        self.m_achieved_bdp.next = self.m_achieved_reg.q.val();
        self.m_base_rtt.next = self.m_base_rtt_reg.q.val();
        self.m_avg_delay_q.next = self.m_avg_reg.q.val();
        self.status_malformed_count.next = self.malformed_reg.q.val();

        self.advance.next = !self.m_valid_reg.q.val() | self.m_ready.val();
        self.s_ready.next = self.advance.val() & !self.s_reset.val();
        self.fire.next = self.advance.val() & self.s_valid.val() & !self.s_reset.val();
        self.amounts.en.next = self.advance.val();

        // ---- S1: base RTT (its own loop) and the delay's comparisons.
        self.malformed.next = (self.s_rtt.val() > self.c_rtt_max.val())
            | (self.s_acked_bytes.val() > self.c_rtt_max.val());
        self.bt_rtt.next = self.s_rtt.val() + self.c_tq.val();
        self.d_clear.next = self.s_now.val() - self.clear_ts_reg.q.val();
        self.d_prev.next = self.s_now.val() - self.p1_now.q.val();
        // Algorithm 2's `now - clear_ts > base + tq` for both base candidates and both
        // `clear_ts` candidates, each `d > b` as the borrow of `b - d` (33 bits): one carry
        // chain each (a `>` was mapped to a LUT tree after the add).
        self.clr_base.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_reg.q.val()) - bit_cast::<33, 32>(self.d_clear.val()))
                >> 32,
        );
        self.clr_prev_base.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_reg.q.val()) - bit_cast::<33, 32>(self.d_prev.val()))
                >> 32,
        );
        self.clr_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.bt_rtt.val()) - bit_cast::<33, 32>(self.d_clear.val())) >> 32,
        );
        self.clr_prev_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.bt_rtt.val()) - bit_cast::<33, 32>(self.d_prev.val())) >> 32,
        );
        // The fairness timer's `now - last_fair > base`, the same way (base the register or
        // this RTT; `last_fair` the register or the `now` of the ACK in stage 2).
        self.d_fair.next = self.s_now.val() - self.last_fair_reg.q.val();
        self.fair_base.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_rtt_reg.q.val()) - bit_cast::<33, 32>(self.d_fair.val()))
                >> 32,
        );
        self.fair_prev_base.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_rtt_reg.q.val()) - bit_cast::<33, 32>(self.d_prev.val()))
                >> 32,
        );
        self.fair_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.s_rtt.val()) - bit_cast::<33, 32>(self.d_fair.val())) >> 32,
        );
        self.fair_prev_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.s_rtt.val()) - bit_cast::<33, 32>(self.d_prev.val())) >> 32,
        );
        self.base_new.next = self.base_rtt_reg.q.val();
        self.delay.next = self.s_rtt.val() - self.base_rtt_reg.q.val();
        // `rtt < base` as the borrow of a 33-bit subtraction (a carry chain; a `<` was mapped to
        // a LUT tree in the base RTT's loop).
        self.rtt_below.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.s_rtt.val()) - bit_cast::<33, 32>(self.base_rtt_reg.q.val()))
                >> 32,
        )
        .any();
        if self.rtt_below.val() {
            self.base_new.next = self.s_rtt.val();
            self.delay.next = 0.into();
        }
        if self.fire.val() {
            if self.malformed.val() {
                self.malformed_reg.d.next = self.malformed_reg.q.val() + self.c_one32.val();
            } else {
                self.base_rtt_reg.d.next = self.base_new.val();
                if self.rtt_below.val() {
                    self.base_tq_reg.d.next = self.bt_rtt.val();
                }
            }
        }
        if self.advance.val() {
            self.p1_valid.d.next = self.s_valid.val();
            self.p1_malf.d.next = self.malformed.val();
            self.p1_now.d.next = self.s_now.val();
            self.p1_acked.d.next = self.s_acked_bytes.val();
            self.p1_ecn.d.next = self.s_ecn.val();
            self.p1_add.d.next = self.s_acked_bytes.val();
            if self.s_is_probe_ack.val() {
                self.p1_add.d.next = 0.into();
            }
            self.p1_base.d.next = self.base_new.val();
            if self.malformed.val() {
                self.p1_base.d.next = self.base_rtt_reg.q.val();
            }
            // tq - delay, and Algorithm 2's clear against base + tq, from both base candidates
            // in parallel, then a select (not a compare, a select and then an add).
            self.p1_tqmd.d.next = self.c_tq.val() + self.base_rtt_reg.q.val() - self.s_rtt.val();
            self.p1_clr_reg.d.next = self.clr_base.val().any();
            self.p1_clr_prev.d.next = self.clr_prev_base.val().any();
            self.p1_fair_reg.d.next = self.fair_base.val().any();
            self.p1_fair_prev.d.next = self.fair_prev_base.val().any();
            if self.rtt_below.val() {
                self.p1_tqmd.d.next = self.c_tq.val();
                self.p1_clr_reg.d.next = self.clr_rtt.val().any();
                self.p1_clr_prev.d.next = self.clr_prev_rtt.val().any();
                self.p1_fair_reg.d.next = self.fair_rtt.val().any();
                self.p1_fair_prev.d.next = self.fair_prev_rtt.val().any();
            }
            // The timers' differences, so stage 2's loops are a select of flags or a compare
            // of registers, not a subtraction from the state they update.
            self.p1_d_prev.d.next = self.d_prev.val();
            self.p1_d_dec.d.next = self.s_now.val() - self.last_dec_reg.q.val();
            self.p1_d_prev2.d.next = self.s_now.val() - self.p2_now.q.val();
            self.p1_d_prev3.d.next = self.s_now.val() - self.p3_now.q.val();
            self.p1_dq_s.d.next = (self.delay.val() << self.c_df.val()) >> self.c_ewma_shift.val();
            self.p1_delay.d.next = self.delay.val();
        }

        // ---- S2: the other per-ACK state, Algorithm 4's arm, the window in flight.
        self.s2_go.next = self.advance.val() & self.p1_valid.q.val() & !self.p1_malf.q.val();
        // achievedBDP's clear and the fairness timer: measured in stage 1 from the registers,
        // or from the `now` of the ACK just ahead when that one reset the timer (it left stage 2
        // after stage 1 read the register).
        self.can_clear.next = self.p1_clr_reg.q.val();
        if self.s2_cleared_reg.q.val() {
            self.can_clear.next = self.p1_clr_prev.q.val();
        }
        // The count saturates at 2^32 - 1: the sum's carry out (no compare after the add).
        self.rx_sum.next =
            bit_cast::<64, 32>(self.rx_count_reg.q.val()) + bit_cast::<64, 32>(self.p1_add.q.val());
        self.rx_sat.next = bit_cast::<32, 64>(self.rx_sum.val());
        if self.rx_sum.val().get_bit(32) {
            self.rx_sat.next = bit_cast::<32, 64>(self.c_sat32.val());
        }
        self.can_fair.next = self.p1_fair_reg.q.val();
        if self.s2_faired_reg.q.val() {
            self.can_fair.next = self.p1_fair_prev.q.val();
        }
        self.avg_new.next = self.avg_reg.q.val()
            - (self.avg_reg.q.val() >> self.c_ewma_shift.val())
            + self.p1_dq_s.q.val();
        self.out_avg.next = self.avg_new.val();
        self.out_fair.next = self.can_fair.val();
        if self.p1_malf.q.val() {
            self.out_avg.next = self.avg_reg.q.val();
            self.out_fair.next = false;
        }
        if self.advance.val() {
            self.s2_cleared_reg.d.next = self.s2_go.val() & self.can_clear.val();
            self.s2_faired_reg.d.next = self.s2_go.val() & self.can_fair.val();
        }
        if self.s2_go.val() {
            self.avg_reg.d.next = self.avg_new.val();
            self.rx_count_reg.d.next = self.rx_sat.val();
            if self.can_clear.val() {
                self.achieved_reg.d.next = self.rx_sat.val();
                self.rx_count_reg.d.next = 0.into();
                self.clear_ts_reg.d.next = self.p1_now.q.val();
            }
            if self.can_fair.val() {
                self.last_fair_reg.d.next = self.p1_now.q.val();
            }
        }
        // The window as the pipeline holds it: the ACKs ahead of this one (stages 3 to 15)
        // have not reached it yet (the model's `step_pipelined(.., ahead)`).
        self.lagw.next = self.cwnd_reg.q.val();
        // `tq - delay` is registered again (`p2_tqmd`): the gain's product (in the amounts'
        // stages) takes it from stage 3, its only load.
        self.amounts.s_tqmd_early.next = self.p2_tqmd.q.val();
        if self.advance.val() {
            self.p2_tqmd.d.next = self.p1_tqmd.q.val();
            self.p2_valid.d.next = self.p1_valid.q.val();
            self.p2_o.d.next = (bit_cast::<64, 32>(self.p1_base.q.val()) << 32)
                | bit_cast::<64, 32>(self.out_avg.val());
            self.p2_ach_new.d.next = self.rx_sat.val();
            self.p2_ach_old.d.next = self.achieved_reg.q.val();
            self.p2_ach_sel.d.next = self.can_clear.val() & !self.p1_malf.q.val();
            self.p2_now.d.next = self.p1_now.q.val();
            self.p2_malf.d.next = self.p1_malf.q.val();
            self.p2_ecn.d.next = self.p1_ecn.q.val();
            self.p2_gt_tqh.d.next = self.p1_delay.q.val() > self.c_tq_high.val();
            self.p2_lt_tq.d.next = self.p1_delay.q.val() < self.c_tq.val();
            self.p2_gt_tq.d.next = self.p1_delay.q.val() > self.c_tq.val();
            // A decrease is decided in stage 4, which writes the decrease timestamp; this
            // ACK's interval runs from the latest of the register and the ACKs one, two and
            // three ahead that decreased, which stage 3 knows (see there).
            self.p2_cd0.d.next = self.p1_d_dec.q.val() > self.p1_base.q.val();
            self.p2_cd1.d.next = self.p1_d_prev.q.val() > self.p1_base.q.val();
            self.p2_cd2.d.next = self.p1_d_prev2.q.val() > self.p1_base.q.val();
            self.p2_cd3.d.next = self.p1_d_prev3.q.val() > self.p1_base.q.val();
            self.p2_fair.d.next = self.out_fair.val();
            self.p2_lagw.d.next = self.lagw.val();
            self.p2_acked.d.next = self.p1_acked.q.val();
        }

        // ---- S3: the arm's compares on stage 2's results, which ACK's decrease this one's
        // interval runs from (the one ahead decides in stage 4 now; the two before it decided
        // on the last two advances); the highest set bits of w and avg_delay (one-hots).
        self.avg3.next = self.p2_o.q.val().get_bits::<32>(0);
        self.can_dec3.next = self.p2_cd0.q.val();
        if self.s4_dec2_reg.q.val() {
            self.can_dec3.next = self.p2_cd3.q.val();
        }
        if self.s4_dec1_reg.q.val() {
            self.can_dec3.next = self.p2_cd2.q.val();
        }
        if self.s4_decreased.val() {
            self.can_dec3.next = self.p2_cd1.q.val();
        }
        // The results that ride along: {achieved(63:32), fairness(3), arm(2:0) from stage 4}.
        self.ach3.next = self.p2_ach_old.q.val();
        if self.p2_ach_sel.q.val() {
            self.ach3.next = self.p2_ach_new.q.val();
        }
        self.q_pack.next = bit_cast::<64, 32>(self.ach3.val()) << 32;
        if self.p2_fair.q.val() {
            self.q_pack.next = self.q_pack.val() | self.c_fair_bit.val();
        }
        if self.advance.val() {
            self.p3_now.d.next = self.p2_now.q.val();
            self.p3_malf.d.next = self.p2_malf.q.val();
            self.p3_ecn.d.next = self.p2_ecn.q.val();
            self.p3_gt_tqh.d.next = self.p2_gt_tqh.q.val();
            self.p3_lt_tq.d.next = self.p2_lt_tq.q.val();
            self.p3_gt_tq.d.next = self.p2_gt_tq.q.val();
            self.p3_can_dec.d.next = self.can_dec3.val();
            self.p3_avg_gt.d.next = self.avg3.val() > self.c_tq_q.val();
            self.p3_ach_lt.d.next = self.ach3.val() < self.c_bdp_limit.val();
        }
        self.msb_c.x.next = self.p2_lagw.q.val();
        self.msb_a.x.next = self.avg3.val();
        if self.advance.val() {
            self.p3_top_c.d.next = self.msb_c.top.val();
            self.p3_top_a.d.next = self.msb_a.top.val();
        }

        // ---- S4: Algorithm 4's arm (a decrease moves the decrease timestamp here).
        self.branch.next = self.c_arm_hold.val();
        self.decreased.next = false;
        if !self.p3_ecn.q.val() & self.p3_gt_tqh.q.val() {
            self.branch.next = self.c_arm_additive.val();
        } else if !self.p3_ecn.q.val() & self.p3_lt_tq.q.val() {
            self.branch.next = self.c_arm_proportional.val();
        } else if self.p3_can_dec.q.val() & self.p3_avg_gt.q.val() {
            if self.p3_gt_tqh.q.val() & self.p3_ach_lt.q.val() {
                self.branch.next = self.c_arm_achieved_bdp_cut.val();
                self.decreased.next = true;
            } else if self.p3_gt_tq.q.val() {
                self.branch.next = self.c_arm_multiplicative.val();
                self.decreased.next = true;
            }
        }
        if self.p3_malf.q.val() {
            self.branch.next = self.c_arm_malformed.val();
        }
        self.s4_decreased.next =
            self.p3_valid.q.val() & !self.p3_malf.q.val() & self.decreased.val();
        if self.advance.val() {
            self.s4_dec1_reg.d.next = self.s4_decreased.val();
            self.s4_dec2_reg.d.next = self.s4_dec1_reg.q.val();
            if self.s4_decreased.val() {
                self.last_dec_reg.d.next = self.p3_now.q.val();
            }
        }

        // ---- S4 to S14: the amounts (`CwndAmounts`), from stage 3's registers and the arm.
        self.amounts.s_w.next = self.p3_lagw.q.val();
        self.amounts.s_top_w.next = self.p3_top_c.q.val();
        self.amounts.s_avg.next = self.p3_o.q.val().get_bits::<32>(0);
        self.amounts.s_top_avg.next = self.p3_top_a.q.val();
        self.amounts.s_acked.next = self.p3_acked.q.val();
        self.amounts.s_q.next = self.p3_q.q.val();
        self.amounts.s_arm.next = self.branch.val();

        // ---- S15, the loop: cwnd + d, clamped to [MTU + e, max] (or the cut's result).
        self.cw40.next = bit_cast::<40, 32>(self.cwnd_reg.q.val());
        self.loop_sum.next = self.cw40.val() + self.amounts.m_d.val();
        self.cwnd_new.next = bit_cast::<32, 40>(self.loop_sum.val());
        // The 32-bit compares as subtraction borrows, so they are carry chains (a `>` here
        // was mapped to a LUT tree), then one flag LUT and the select.
        self.gt_hi32.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.amounts.m_hi_thr.val())
                - bit_cast::<33, 32>(self.cwnd_reg.q.val()))
                >> 32,
        );
        self.lt_lo32.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.cwnd_reg.q.val())
                - bit_cast::<33, 32>(self.amounts.m_lo_thr.val()))
                >> 32,
        );
        self.over_hi.next =
            self.amounts.m_o_all.val() | (self.amounts.m_o_cmp.val() & self.gt_hi32.val().any());
        self.under_lo.next =
            self.amounts.m_u_all.val() | (self.amounts.m_u_cmp.val() & self.lt_lo32.val().any());
        if self.over_hi.val() {
            self.cwnd_new.next = bit_cast::<32, 40>(self.c_max_cwnd.val());
        } else if self.under_lo.val() {
            self.cwnd_new.next = self.amounts.m_locut.val();
        }

        // The carried values, and the stage registers (the pipeline moves on `advance`).
        if self.advance.val() {
            self.p3_valid.d.next = self.p2_valid.q.val();
            self.p3_o.d.next = self.p2_o.q.val();
            self.p3_q.d.next = self.q_pack.val();
            self.p4_valid.d.next = self.p3_valid.q.val();
            self.p4_o.d.next = self.p3_o.q.val();
            self.p5_valid.d.next = self.p4_valid.q.val();
            self.p5_o.d.next = self.p4_o.q.val();
            self.p6_valid.d.next = self.p5_valid.q.val();
            self.p6_o.d.next = self.p5_o.q.val();
            self.p7_valid.d.next = self.p6_valid.q.val();
            self.p7_o.d.next = self.p6_o.q.val();
            self.p8_valid.d.next = self.p7_valid.q.val();
            self.p8_o.d.next = self.p7_o.q.val();
            self.p9_valid.d.next = self.p8_valid.q.val();
            self.p9_o.d.next = self.p8_o.q.val();
            self.p10_valid.d.next = self.p9_valid.q.val();
            self.p10_o.d.next = self.p9_o.q.val();
            self.p11_valid.d.next = self.p10_valid.q.val();
            self.p11_o.d.next = self.p10_o.q.val();
            self.p12_valid.d.next = self.p11_valid.q.val();
            self.p12_o.d.next = self.p11_o.q.val();
            self.p13_valid.d.next = self.p12_valid.q.val();
            self.p13_o.d.next = self.p12_o.q.val();
            self.p14_valid.d.next = self.p13_valid.q.val();
            self.p14_o.d.next = self.p13_o.q.val();
            self.p3_lagw.d.next = self.p2_lagw.q.val();
            self.p3_acked.d.next = self.p2_acked.q.val();

            // Output stage.
            self.m_valid_reg.d.next = self.p14_valid.q.val();
            self.m_cwnd_q_reg.d.next = 0.into();
            self.m_cwnd_bytes_reg.d.next = 0.into();
            self.m_branch_reg.d.next = 0.into();
            self.m_fairness_reg.d.next = false;
            self.m_achieved_reg.d.next = 0.into();
            self.m_base_rtt_reg.d.next = 0.into();
            self.m_avg_reg.d.next = 0.into();
            if self.p14_valid.q.val() {
                self.cwnd_reg.d.next = self.cwnd_new.val();
                self.m_cwnd_q_reg.d.next = self.cwnd_new.val();
                self.m_cwnd_bytes_reg.d.next = self.cwnd_new.val() >> self.c_cf.val();
                self.m_branch_reg.d.next = self.amounts.m_arm.val();
                self.m_fairness_reg.d.next = self.amounts.m_fair.val();
                self.m_achieved_reg.d.next = self.amounts.m_ach.val();
                self.m_base_rtt_reg.d.next = self.p14_o.q.val().get_bits::<32>(32);
                self.m_avg_reg.d.next = self.p14_o.q.val().get_bits::<32>(0);
            }
        }

        // ---- The synchronous reset, last so that it overrides every assignment above (see
        // the module documentation for what it leaves).
        if self.s_reset.val() {
            if !self.c_fault_reset_keeps_window.val() {
                self.cwnd_reg.d.next = self.c_cwnd_init.val();
            }
            self.base_rtt_reg.d.next = self.c_base_init.val();
            self.base_tq_reg.d.next = self.c_base_tq_init.val();
            self.avg_reg.d.next = 0.into();
            self.last_dec_reg.d.next = 0.into();
            self.last_fair_reg.d.next = 0.into();
            self.rx_count_reg.d.next = 0.into();
            self.clear_ts_reg.d.next = 0.into();
            self.achieved_reg.d.next = 0.into();
            self.malformed_reg.d.next = 0.into();
            self.s2_cleared_reg.d.next = false;
            self.s2_faired_reg.d.next = false;
            self.s4_dec1_reg.d.next = false;
            self.s4_dec2_reg.d.next = false;
            self.p1_valid.d.next = false;
            self.p2_valid.d.next = false;
            self.p3_valid.d.next = false;
            self.p4_valid.d.next = false;
            self.p5_valid.d.next = false;
            self.p6_valid.d.next = false;
            self.p7_valid.d.next = false;
            self.p8_valid.d.next = false;
            self.p9_valid.d.next = false;
            self.p10_valid.d.next = false;
            self.p11_valid.d.next = false;
            self.p12_valid.d.next = false;
            self.p13_valid.d.next = false;
            self.p14_valid.d.next = false;
            self.m_valid_reg.d.next = false;
            self.m_cwnd_q_reg.d.next = 0.into();
            self.m_cwnd_bytes_reg.d.next = 0.into();
            self.m_branch_reg.d.next = 0.into();
            self.m_fairness_reg.d.next = false;
            self.m_achieved_reg.d.next = 0.into();
            self.m_base_rtt_reg.d.next = 0.into();
            self.m_avg_reg.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    #[test]
    fn default_config_verilog_snapshot() {
        let b = generate("cwnd_unit", &Config::default(), &Options::default()).unwrap();
        insta::assert_snapshot!("cwnd_unit_default", b.verilog);
    }

    /// Gate: the default design lints, compiles in Icarus and passes the Yosys structural
    /// check; a small design (16-entry table) also goes through a full Yosys `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("cwnd_unit", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "cwnd_unit_default", false);
        let mut small = Config::default();
        small.fixed_point.recip_index_bits = 4;
        let b = generate("cwnd_unit", &small, &Options::default()).unwrap();
        crate::gate::check(&b, "cwnd_unit_r4", true);
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut cfg = Config::default();
        cfg.fixed_point.recip_index_bits = 13;
        let msg = generate("cwnd_unit", &cfg, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            msg.starts_with("cwnd_unit: ") && msg.contains("recip_index_bits"),
            "{msg}"
        );
    }
}
