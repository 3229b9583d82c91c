//! Congestion-window unit RTL (spec section 2; formats in `docs/golden-model.md`): one ACK per
//! clock, latency 1, bit-exact with `golden_model::cwnd_unit`.
//!
//! ```text
//! s_rtt ─► base_rtt = min ─► delay ─┬─────────────► avg_delay EWMA (shift-add) ─► lzc ─► ROM ─► ×tq ─► ×gamma ─► factor ─► ×cwnd ─┐
//!                                   │                                                                                         │
//! s_acked ─► achievedBDP (Alg. 2)   ├─► tq-delay ─► ×alpha*MTU ─► gain ─┐                                                       │
//!                                   │                                   ▼                                                       ▼
//! cwnd_reg ─► lzc ─► ROM ─► ×acked ─► ratio ─► ×beta*MTU ─► inc_a    ×ratio ─► inc_b        branch select (a)(b)(c) ─► fairness ─► cwnd_reg
//! ```
//!
//! Divisions are the model's reciprocal-table approximation: a leading-zero count, a
//! `2^R x 16` ROM (the shared `strack_config::recip_table_entry` constants), a multiply and a
//! barrel shift. Products wider than rust-hdl's 16x16 multiply go through [`Mul32`], four
//! 16x16 partial products. Everything for one ACK happens in one cycle (the window feeds back
//! into the next ACK's division); pipelining it for Fmax is issue 5's work.
//!
//! Handshake as every block: `s_ready = !m_valid | m_ready`; the result of an ACK accepted in
//! cycle t is on `m_*` from t+1; all `m_*` read 0 when the output stage advances without one.

use rust_hdl::prelude::*;
use rust_hdl::widgets::prelude::ROM;
use std::collections::BTreeMap;
use strack_config::{recip_table_entry, CwndConstants};

/// `a * b` for 32-bit operands from four 16x16 products (rust-hdl multiplies 16x16 only).
#[derive(LogicBlock, Default)]
pub struct Mul32 {
    pub a: Signal<In, Bits<32>>,
    pub b: Signal<In, Bits<32>>,
    pub p: Signal<Out, Bits<64>>,
    a_lo: Signal<Local, Bits<16>>,
    a_hi: Signal<Local, Bits<16>>,
    b_lo: Signal<Local, Bits<16>>,
    b_hi: Signal<Local, Bits<16>>,
    ll: Signal<Local, Bits<32>>,
    lh: Signal<Local, Bits<32>>,
    hl: Signal<Local, Bits<32>>,
    hh: Signal<Local, Bits<32>>,
}

impl Logic for Mul32 {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_lo.next = self.a.val().get_bits::<16>(0);
        self.a_hi.next = self.a.val().get_bits::<16>(16);
        self.b_lo.next = self.b.val().get_bits::<16>(0);
        self.b_hi.next = self.b.val().get_bits::<16>(16);
        self.ll.next = self.a_lo.val() * self.b_lo.val();
        self.lh.next = self.a_lo.val() * self.b_hi.val();
        self.hl.next = self.a_hi.val() * self.b_lo.val();
        self.hh.next = self.a_hi.val() * self.b_hi.val();
        self.p.next = bit_cast::<64, 32>(self.ll.val())
            + (bit_cast::<64, 32>(self.lh.val()) << 16)
            + (bit_cast::<64, 32>(self.hl.val()) << 16)
            + (bit_cast::<64, 32>(self.hh.val()) << 32);
    }
}

/// Branch codes on `m_branch` (the model's `Branch`).
pub const BRANCH_ADDITIVE: u64 = 0;
pub const BRANCH_PROPORTIONAL: u64 = 1;
pub const BRANCH_ACHIEVED_BDP_CUT: u64 = 2;
pub const BRANCH_MULTIPLICATIVE: u64 = 3;
pub const BRANCH_HOLD: u64 = 4;
pub const BRANCH_MALFORMED: u64 = 5;

/// See the module documentation. `R` = `fixed_point.recip_index_bits`.
#[derive(LogicBlock)]
pub struct CwndUnitRtl<const R: usize> {
    pub clock: Signal<In, Clock>,

    /// An ACK is offered.
    pub s_valid: Signal<In, Bit>,
    /// The ACK is taken this cycle.
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
    c_31_minus_r: Constant<Bits<8>>,
    c_31_minus_cf: Constant<Bits<8>>,
    c_31_minus_df: Constant<Bits<8>>,
    c_16_minus_cf: Constant<Bits<8>>,
    c_beta_mtu: Constant<Bits<32>>,
    c_alpha_mtu: Constant<Bits<32>>,
    c_eta_mtu: Constant<Bits<64>>,
    c_gamma: Constant<Bits<32>>,
    c_one_minus_gamma: Constant<Bits<64>>,
    c_max_cwnd: Constant<Bits<64>>,
    c_max_eighth: Constant<Bits<32>>,
    c_mtu: Constant<Bits<64>>,
    c_ratio_max: Constant<Bits<64>>,
    c_half: Constant<Bits<64>>,
    c_one: Constant<Bits<64>>,
    c_sat32: Constant<Bits<64>>,
    c_one32: Constant<Bits<32>>,

    /// Starts at `max_cwnd` (the initial window).
    cwnd_reg: DFFWithInit<Bits<32>>,
    /// Starts at 2^24 - 1, so the first sample sets it.
    base_rtt_reg: DFFWithInit<Bits<32>>,
    avg_reg: DFF<Bits<32>>,
    last_dec_reg: DFF<Bits<32>>,
    last_fair_reg: DFF<Bits<32>>,
    rx_count_reg: DFF<Bits<32>>,
    clear_ts_reg: DFF<Bits<32>>,
    achieved_reg: DFF<Bits<32>>,
    malformed_reg: DFF<Bits<32>>,

    m_valid_reg: DFF<Bit>,
    m_cwnd_q_reg: DFF<Bits<32>>,
    m_cwnd_bytes_reg: DFF<Bits<32>>,
    m_branch_reg: DFF<Bits<3>>,
    m_fairness_reg: DFF<Bit>,
    m_achieved_reg: DFF<Bits<32>>,
    m_base_rtt_reg: DFF<Bits<32>>,
    m_avg_reg: DFF<Bits<32>>,

    rom_cwnd: ROM<Bits<16>, R>,
    rom_avg: ROM<Bits<16>, R>,
    mul_ratio: Mul32,
    mul_beta: Mul32,
    mul_alpha: Mul32,
    mul_gain: Mul32,
    mul_tq: Mul32,
    mul_gamma: Mul32,
    mul_factor: Mul32,

    advance: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    malformed: Signal<Local, Bit>,
    base_new: Signal<Local, Bits<32>>,
    delay: Signal<Local, Bits<32>>,
    can_clear: Signal<Local, Bit>,
    add: Signal<Local, Bits<32>>,
    rx_sum: Signal<Local, Bits<64>>,
    rx_sat: Signal<Local, Bits<32>>,
    achieved_new: Signal<Local, Bits<32>>,
    can_dec: Signal<Local, Bit>,
    can_fair: Signal<Local, Bit>,
    avg_new: Signal<Local, Bits<32>>,
    lz_cwnd: Signal<Local, Bits<8>>,
    lz_avg: Signal<Local, Bits<8>>,
    ratio_full: Signal<Local, Bits<64>>,
    ratio: Signal<Local, Bits<32>>,
    gain: Signal<Local, Bits<32>>,
    tq_over_avg: Signal<Local, Bits<32>>,
    factor: Signal<Local, Bits<64>>,
    cw64: Signal<Local, Bits<64>>,
    grow_a: Signal<Local, Bits<64>>,
    grow_b: Signal<Local, Bits<64>>,
    shrink_md: Signal<Local, Bits<64>>,
    cut_bdp: Signal<Local, Bits<64>>,
    cwnd1: Signal<Local, Bits<64>>,
    cwnd2: Signal<Local, Bits<64>>,
    branch: Signal<Local, Bits<3>>,
    decreased: Signal<Local, Bit>,
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
    pub fn new(k: &CwndConstants) -> Self {
        let c8 = |v: u32| Constant::new(bits::<8>(v as u64));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let c64 = |v: u64| Constant::new(bits::<64>(v));
        CwndUnitRtl {
            clock: Default::default(),
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
            c_31_minus_r: c8(31 - R as u32),
            c_31_minus_cf: c8(31 - k.cwnd_frac),
            c_31_minus_df: c8(31 - k.delay_frac),
            c_16_minus_cf: c8(16 - k.cwnd_frac),
            c_beta_mtu: c32(k.beta_mtu_q as u64),
            c_alpha_mtu: c32(k.alpha_mtu_q as u64),
            c_eta_mtu: c64(k.eta_mtu_q as u64),
            c_gamma: c32(k.gamma_q16 as u64),
            c_one_minus_gamma: c64(k.one_minus_gamma_q16 as u64),
            c_max_cwnd: c64(k.max_cwnd_q as u64),
            c_max_eighth: c32(k.max_cwnd_eighth as u64),
            c_mtu: c64(k.mtu_q as u64),
            c_ratio_max: c64((1 << 18) - 1),
            c_half: c64(1 << 15),
            c_one: c64(1 << 16),
            c_sat32: c64(0xFFFF_FFFF),
            c_one32: c32(1),
            cwnd_reg: DFFWithInit::new(bits::<32>(k.max_cwnd_q as u64)),
            base_rtt_reg: DFFWithInit::new(bits::<32>((1 << 24) - 1)),
            avg_reg: Default::default(),
            last_dec_reg: Default::default(),
            last_fair_reg: Default::default(),
            rx_count_reg: Default::default(),
            clear_ts_reg: Default::default(),
            achieved_reg: Default::default(),
            malformed_reg: Default::default(),
            m_valid_reg: Default::default(),
            m_cwnd_q_reg: Default::default(),
            m_cwnd_bytes_reg: Default::default(),
            m_branch_reg: Default::default(),
            m_fairness_reg: Default::default(),
            m_achieved_reg: Default::default(),
            m_base_rtt_reg: Default::default(),
            m_avg_reg: Default::default(),
            rom_cwnd: recip_rom::<R>(),
            rom_avg: recip_rom::<R>(),
            mul_ratio: Default::default(),
            mul_beta: Default::default(),
            mul_alpha: Default::default(),
            mul_gain: Default::default(),
            mul_tq: Default::default(),
            mul_gamma: Default::default(),
            mul_factor: Default::default(),
            advance: Default::default(),
            fire: Default::default(),
            malformed: Default::default(),
            base_new: Default::default(),
            delay: Default::default(),
            can_clear: Default::default(),
            add: Default::default(),
            rx_sum: Default::default(),
            rx_sat: Default::default(),
            achieved_new: Default::default(),
            can_dec: Default::default(),
            can_fair: Default::default(),
            avg_new: Default::default(),
            lz_cwnd: Default::default(),
            lz_avg: Default::default(),
            ratio_full: Default::default(),
            ratio: Default::default(),
            gain: Default::default(),
            tq_over_avg: Default::default(),
            factor: Default::default(),
            cw64: Default::default(),
            grow_a: Default::default(),
            grow_b: Default::default(),
            shrink_md: Default::default(),
            cut_bdp: Default::default(),
            cwnd1: Default::default(),
            cwnd2: Default::default(),
            branch: Default::default(),
            decreased: Default::default(),
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
            avg_reg,
            last_dec_reg,
            last_fair_reg,
            rx_count_reg,
            clear_ts_reg,
            achieved_reg,
            malformed_reg,
            m_valid_reg,
            m_cwnd_q_reg,
            m_cwnd_bytes_reg,
            m_branch_reg,
            m_fairness_reg,
            m_achieved_reg,
            m_base_rtt_reg,
            m_avg_reg
        );
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
        self.s_ready.next = self.advance.val();
        self.fire.next = self.advance.val() & self.s_valid.val();
        self.malformed.next = (self.s_rtt.val() > self.c_rtt_max.val())
            | (self.s_acked_bytes.val() > self.c_rtt_max.val());

        // 1. base RTT, delay
        self.base_new.next = self.base_rtt_reg.q.val();
        if self.s_rtt.val() < self.base_rtt_reg.q.val() {
            self.base_new.next = self.s_rtt.val();
        }
        self.delay.next = self.s_rtt.val() - self.base_new.val();

        // 2. achievedBDP (Algorithm 2)
        self.can_clear.next = (self.s_now.val() - self.clear_ts_reg.q.val())
            > (self.base_new.val() + self.c_tq.val());
        self.add.next = self.s_acked_bytes.val();
        if self.s_is_probe_ack.val() {
            self.add.next = 0.into();
        }
        self.rx_sum.next =
            bit_cast::<64, 32>(self.rx_count_reg.q.val()) + bit_cast::<64, 32>(self.add.val());
        self.rx_sat.next = bit_cast::<32, 64>(self.rx_sum.val());
        if self.rx_sum.val() > self.c_sat32.val() {
            self.rx_sat.next = bit_cast::<32, 64>(self.c_sat32.val());
        }
        self.achieved_new.next = self.achieved_reg.q.val();
        if self.can_clear.val() {
            self.achieved_new.next = self.rx_sat.val();
        }

        // 3. timers
        self.can_dec.next = (self.s_now.val() - self.last_dec_reg.q.val()) > self.base_new.val();
        self.can_fair.next = (self.s_now.val() - self.last_fair_reg.q.val()) > self.base_new.val();

        // 4. EWMA
        self.avg_new.next = self.avg_reg.q.val()
            - (self.avg_reg.q.val() >> self.c_ewma_shift.val())
            + ((self.delay.val() << self.c_df.val()) >> self.c_ewma_shift.val());

        // ratio = min((acked * T[cwnd]) >> (31 - cf - lz(cwnd)), 2^18 - 1)
        self.lz_cwnd.next = 32.into();
        for i in 0..32 {
            if self.cwnd_reg.q.val().get_bit(i) {
                self.lz_cwnd.next = (31 - i).to_bits::<8>();
            }
        }
        self.rom_cwnd.address.next = bit_cast::<R, 32>(
            (self.cwnd_reg.q.val() << self.lz_cwnd.val()) >> self.c_31_minus_r.val(),
        );
        self.mul_ratio.a.next = self.s_acked_bytes.val();
        self.mul_ratio.b.next = bit_cast::<32, 16>(self.rom_cwnd.data.val());
        self.ratio_full.next =
            self.mul_ratio.p.val() >> (self.c_31_minus_cf.val() - self.lz_cwnd.val());
        self.ratio.next = bit_cast::<32, 64>(self.ratio_full.val());
        if self.ratio_full.val() > self.c_ratio_max.val() {
            self.ratio.next = bit_cast::<32, 64>(self.c_ratio_max.val());
        }

        // (a) cwnd + (beta*MTU * ratio) >> 16
        self.cw64.next = bit_cast::<64, 32>(self.cwnd_reg.q.val());
        self.mul_beta.a.next = self.c_beta_mtu.val();
        self.mul_beta.b.next = self.ratio.val();
        self.grow_a.next = self.cw64.val() + (self.mul_beta.p.val() >> 16);
        if self.grow_a.val() > self.c_max_cwnd.val() {
            self.grow_a.next = self.c_max_cwnd.val();
        }

        // (b) gain = (alpha*MTU * (tq - delay)) >> (16 - cf); cwnd + (gain * ratio) >> 16
        self.mul_alpha.a.next = self.c_alpha_mtu.val();
        self.mul_alpha.b.next = self.c_tq.val() - self.delay.val();
        self.gain.next = bit_cast::<32, 64>(self.mul_alpha.p.val() >> self.c_16_minus_cf.val());
        self.mul_gain.a.next = self.gain.val();
        self.mul_gain.b.next = self.ratio.val();
        self.grow_b.next = self.cw64.val() + (self.mul_gain.p.val() >> 16);
        if self.grow_b.val() > self.c_max_cwnd.val() {
            self.grow_b.next = self.c_max_cwnd.val();
        }

        // (c) achievedBDP cut: max(achieved << cf, MTU)
        self.cut_bdp.next = bit_cast::<64, 32>(self.achieved_new.val()) << self.c_cf.val();
        if self.cut_bdp.val() < self.c_mtu.val() {
            self.cut_bdp.next = self.c_mtu.val();
        }

        // (c) multiplicative: factor = clamp((1-g) + (g * tq/avg) >> 16, 0.5, 1)
        self.lz_avg.next = 32.into();
        for i in 0..32 {
            if self.avg_new.val().get_bit(i) {
                self.lz_avg.next = (31 - i).to_bits::<8>();
            }
        }
        self.rom_avg.address.next =
            bit_cast::<R, 32>((self.avg_new.val() << self.lz_avg.val()) >> self.c_31_minus_r.val());
        self.mul_tq.a.next = self.c_tq.val();
        self.mul_tq.b.next = bit_cast::<32, 16>(self.rom_avg.data.val());
        self.tq_over_avg.next = bit_cast::<32, 64>(
            self.mul_tq.p.val() >> (self.c_31_minus_df.val() - self.lz_avg.val()),
        );
        self.mul_gamma.a.next = self.c_gamma.val();
        self.mul_gamma.b.next = self.tq_over_avg.val();
        self.factor.next = self.c_one_minus_gamma.val() + (self.mul_gamma.p.val() >> 16);
        if self.factor.val() < self.c_half.val() {
            self.factor.next = self.c_half.val();
        }
        if self.factor.val() > self.c_one.val() {
            self.factor.next = self.c_one.val();
        }
        self.mul_factor.a.next = self.cwnd_reg.q.val();
        self.mul_factor.b.next = bit_cast::<32, 64>(self.factor.val());
        self.shrink_md.next = self.mul_factor.p.val() >> 16;
        if self.shrink_md.val() < self.c_mtu.val() {
            self.shrink_md.next = self.c_mtu.val();
        }

        // 5. Algorithm 4's chain
        self.cwnd1.next = self.cw64.val();
        self.branch.next = 4.into();
        self.decreased.next = false;
        if !self.s_ecn.val() & (self.delay.val() > self.c_tq_high.val()) {
            self.cwnd1.next = self.grow_a.val();
            self.branch.next = 0.into();
        } else if !self.s_ecn.val() & (self.delay.val() < self.c_tq.val()) {
            self.cwnd1.next = self.grow_b.val();
            self.branch.next = 1.into();
        } else if self.can_dec.val() & (self.avg_new.val() > self.c_tq_q.val()) {
            if (self.delay.val() > self.c_tq_high.val())
                & (self.achieved_new.val() < self.c_max_eighth.val())
            {
                self.cwnd1.next = self.cut_bdp.val();
                self.branch.next = 2.into();
                self.decreased.next = true;
            } else if self.delay.val() > self.c_tq.val() {
                self.cwnd1.next = self.shrink_md.val();
                self.branch.next = 3.into();
                self.decreased.next = true;
            }
        }

        // 6. fairness
        self.cwnd2.next = self.cwnd1.val();
        if self.can_fair.val() {
            self.cwnd2.next = self.cwnd1.val() + self.c_eta_mtu.val();
            if self.cwnd2.val() > self.c_max_cwnd.val() {
                self.cwnd2.next = self.c_max_cwnd.val();
            }
        }

        // State and output registers.
        if self.fire.val() {
            self.m_valid_reg.d.next = true;
            if self.malformed.val() {
                self.malformed_reg.d.next = self.malformed_reg.q.val() + self.c_one32.val();
                self.m_cwnd_q_reg.d.next = self.cwnd_reg.q.val();
                self.m_cwnd_bytes_reg.d.next = self.cwnd_reg.q.val() >> self.c_cf.val();
                self.m_branch_reg.d.next = 5.into();
                self.m_fairness_reg.d.next = false;
                self.m_achieved_reg.d.next = self.achieved_reg.q.val();
                self.m_base_rtt_reg.d.next = self.base_rtt_reg.q.val();
                self.m_avg_reg.d.next = self.avg_reg.q.val();
            } else {
                self.cwnd_reg.d.next = bit_cast::<32, 64>(self.cwnd2.val());
                self.base_rtt_reg.d.next = self.base_new.val();
                self.avg_reg.d.next = self.avg_new.val();
                self.rx_count_reg.d.next = self.rx_sat.val();
                self.achieved_reg.d.next = self.achieved_new.val();
                if self.can_clear.val() {
                    self.rx_count_reg.d.next = 0.into();
                    self.clear_ts_reg.d.next = self.s_now.val();
                }
                if self.decreased.val() {
                    self.last_dec_reg.d.next = self.s_now.val();
                }
                if self.can_fair.val() {
                    self.last_fair_reg.d.next = self.s_now.val();
                }
                self.m_cwnd_q_reg.d.next = bit_cast::<32, 64>(self.cwnd2.val());
                self.m_cwnd_bytes_reg.d.next =
                    bit_cast::<32, 64>(self.cwnd2.val()) >> self.c_cf.val();
                self.m_branch_reg.d.next = self.branch.val();
                self.m_fairness_reg.d.next = self.can_fair.val();
                self.m_achieved_reg.d.next = self.achieved_new.val();
                self.m_base_rtt_reg.d.next = self.base_new.val();
                self.m_avg_reg.d.next = self.avg_new.val();
            }
        } else if self.advance.val() {
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
