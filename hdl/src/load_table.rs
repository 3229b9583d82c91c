//! Switch load table RTL (MLCC; docs/spec/load-table.md, section 1): one packet per clock,
//! latency 6, free-running (a switch pipeline does not stall: no ready signals).
//!
//! ```text
//!  S0          S1            S2               S3                  S4 (the loop)         S5
//!  s_link ─► RAM read ─► row reg ─► age = T - epoch ─► select newest:  ─► row_in ──► + deltas ──► + path load ─► m_*
//!  s_tick ─► T (tick count           (clamped to K)    RAM row / rows     (prev packet's  (saturating,  (saturating)
//!            the packet sees)        hit flags for      written 2-5        row when it    per slot)     sat popcount
//!                                    stages 3 and 4     packets ahead;     wrote the same  │            ─► counters
//!                                                       shift out the      link, moved on  │
//!                                                       ended slots        by 0/1 slot)    └─► fwd0 ─► fwd1 ─► fwd2
//!                                                                                           └─► RAM write {row, epoch T}
//! ```
//!
//! **Storage.** One RAM row per link holds the K loads in *logical* order (slot 0 = the slot
//! that was current when the row was written) and the 48-bit tick count at that write (its
//! epoch). A tick therefore touches no RAM: when a row is read, the `age = T - epoch` slots
//! that ended since it was written are shifted out and zeros shifted in, which is exactly the
//! model's "clear slot 0 and rotate" applied `age` times. The table scales with the RAM
//! (`links` rows of `K * load_bits + 48` bits; 64 x 16 x 16 is 64 rows of 304 bits). A row left
//! untouched for 2^48 ticks would alias (9.1 years at the shortest slot, 2^10 ns).
//!
//! **Hazards, forwarded, never stalled.** The RAM writes a row the cycle after S4 made it (from
//! `fwd0`, so the loop's adder does not drive the RAM's pins), and a packet's RAM read (end of
//! S0) misses the writes of the five packets ahead of it (theirs land at or after that edge).
//! The packets two to five ahead have finished S4 by the time it reaches S3, so their rows
//! replace the RAM row, newest first: the packets three to five ahead's in S2 (from `fwd0..2`),
//! the packet two ahead's in S3 (from `fwd0`). The packet right ahead finishes S4 one
//! cycle before it, so the only single-cycle loop is S4: `row = sat(previous row + deltas)`,
//! with the previous row moved on by one slot when a tick came between them. Everything else is
//! pipelined.
//!
//! **Order within a cycle.** A tick on the same cycle as a packet counts before it (the model's
//! DECISION): the packet's tick count `T` includes its own cycle's tick.
//!
//! **Counters.** `status_sat_count` and `status_bad_count` are taken from the output stage, so
//! they count the packets before the one on `m_*` (one cycle behind it). `status_tick_count`
//! is a counter of its own (`ticks_reg`), not the epoch clock `tick_reg` (see the reset).
//!
//! **The synchronous reset** (`s_reset`, active high, sampled at the rising edge; one cycle is
//! enough; DECISION, `docs/blocks/load_table.md`): that cycle takes neither its packet nor its
//! tick, and at its edge every valid bit and bad flag, the output registers and the counters
//! return to their power-on values (the packets in flight are dropped, `m_valid` is low on the
//! next cycle and the block takes packets again on that cycle). The RAM is not swept: the
//! epoch clock `tick_reg` moves on by K instead, so every row in the RAM (its epoch at most the
//! clock's old value) is K or more slots old for every later packet and reads as all zero,
//! exactly as after power-on; that holds for the one row still written at the reset's edge
//! (from `fwd0`, made the cycle before) too, so the RAM's write enable is not gated. The stages'
//! data registers and their other flags keep their values: nothing reads them without their
//! valid bit.

use rust_hdl::prelude::*;

use crate::context_ram::ContextRam;

/// Width of a row's epoch (the tick count when it was written).
pub const EPOCH_BITS: usize = 48;

/// Pipeline depth: a packet offered on cycle `t` comes out on `m_*` at `t + LATENCY`.
pub const LATENCY: u32 = 6;

/// See the module documentation. `K` slots of `W`-bit loads; the other parameters are derived
/// (rust-hdl needs them as literals): `W1 = W + 1` (delta), `W2 = W + 2` (sum), `PW = W + 4`
/// (path load), `PW1 = PW + 1`, `KW = K * W`, `KD = K * W1`, `KP = K * PW`, `RW = KW + 48`.
#[derive(LogicBlock)]
pub struct LoadTableRtl<
    const K: usize,
    const W: usize,
    const W1: usize,
    const W2: usize,
    const PW: usize,
    const PW1: usize,
    const KW: usize,
    const KD: usize,
    const KP: usize,
    const RW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: the table reads as empty from the next cycle on, the
    /// packets in flight are dropped, the counters return to 0; this cycle's packet and tick
    /// are not taken.
    pub s_reset: Signal<In, Bit>,

    /// A packet descriptor is presented (one per clock at most; nothing stalls).
    pub s_valid: Signal<In, Bit>,
    /// Egress link: the row. `>= links` is out of range: forwarded unchanged and counted.
    pub s_link: Signal<In, Bits<16>>,
    /// The packet carries a schedule change: add `s_deltas` into the row.
    pub s_update: Signal<In, Bit>,
    /// K signed deltas of `load_bits + 1` bits, slot 0 in the low bits.
    pub s_deltas: Signal<In, Bits<KD>>,
    /// The packet asks for feedback: add the row (after the update) into `s_path_load`.
    pub s_feedback: Signal<In, Bit>,
    /// K path-load elements of `load_bits + 4` bits, slot 0 in the low bits.
    pub s_path_load: Signal<In, Bits<KP>>,
    /// The current slot ends (may come with or without a packet; counts before it).
    pub s_tick: Signal<In, Bit>,

    /// The packet of `LATENCY` cycles ago comes out.
    pub m_valid: Signal<Out, Bit>,
    /// It was out of range and left the table untouched.
    pub m_bad: Signal<Out, Bit>,
    /// Its path-load field (updated when it asked for feedback; unchanged otherwise).
    pub m_path_load: Signal<Out, Bits<KP>>,
    /// Its link's row after it (0 when bad), slot 0 in the low bits.
    pub m_row: Signal<Out, Bits<KW>>,
    /// Bit `k`: slot `k`'s update saturated.
    pub m_sat_mask: Signal<Out, Bits<16>>,
    /// Saturated elements of the packets before the one on `m_*`.
    pub status_sat_count: Signal<Out, Bits<32>>,
    /// Bad packets before the one on `m_*`.
    pub status_bad_count: Signal<Out, Bits<32>>,
    /// Ticks since power-on or the last reset (wrapping; a tick shows here the cycle after
    /// `s_tick`).
    pub status_tick_count: Signal<Out, Bits<32>>,

    cfg_links: Constant<Bits<16>>,
    cfg_k8: Constant<Bits<8>>,
    /// Bit `i` set when `i >= K`: "a 4-bit age is K or more" as one table look-up.
    cfg_ge_k: Constant<Bits<16>>,
    cfg_one48: Constant<Bits<EPOCH_BITS>>,
    cfg_one32: Constant<Bits<32>>,
    cfg_epoch_bits: Constant<Bits<16>>,
    /// Shift amounts: one, two, four and eight slots of the row.
    cfg_sh1: Constant<Bits<16>>,
    cfg_sh2: Constant<Bits<16>>,
    cfg_sh4: Constant<Bits<16>>,
    cfg_sh8: Constant<Bits<16>>,
    cfg_w: Constant<Bits<16>>,
    cfg_w1: Constant<Bits<16>>,
    cfg_pw: Constant<Bits<16>>,
    /// Where the last element of a row / path field starts.
    cfg_top_row: Constant<Bits<16>>,
    cfg_top_path: Constant<Bits<16>>,
    /// Bit indices: the delta's sign (W), the sum's sign (W + 1), the path sum's carry (PW).
    cfg_idx_w: Constant<Bits<16>>,
    cfg_idx_w1: Constant<Bits<16>>,
    cfg_idx_pw: Constant<Bits<16>>,
    /// Ones above a delta's W + 1 bits in the W + 2-bit sum (the sign extension).
    cfg_sext: Constant<Bits<W2>>,
    cfg_load_max: Constant<Bits<W>>,
    cfg_path_max: Constant<Bits<PW>>,
    /// Population count masks and shifts (16-bit SWAR).
    cfg_m55: Constant<Bits<16>>,
    cfg_m33: Constant<Bits<16>>,
    cfg_m0f: Constant<Bits<16>>,
    cfg_m1f: Constant<Bits<16>>,
    cfg_s1: Constant<Bits<16>>,
    cfg_s2: Constant<Bits<16>>,
    cfg_s4: Constant<Bits<16>>,
    cfg_s8: Constant<Bits<16>>,
    /// Fault injection for the co-sim self-test: 1 disables forwarding. 0 in products.
    cfg_fault_no_fwd: Constant<Bit>,
    /// K as an epoch step: what `s_reset` moves the epoch clock on by.
    cfg_k48: Constant<Bits<EPOCH_BITS>>,
    /// Fault injection for the co-sim self-test: 1 leaves the epoch clock alone on `s_reset`
    /// (the rows written before it stay). 0 in products.
    cfg_fault_reset_keeps_rows: Constant<Bit>,
    /// The sign bit of the epoch compare's EPOCH_BITS + 1-bit difference.
    cfg_idx_epoch: Constant<Bits<16>>,

    ram: ContextRam<RW>,
    /// The epoch clock: the tick count the rows' ages are measured in (ticks since power-on,
    /// plus K per reset).
    tick_reg: DFF<Bits<EPOCH_BITS>>,
    /// Ticks since power-on or the last reset (`status_tick_count`).
    ticks_reg: DFF<Bits<32>>,

    // Stage registers: `pN_*` is a packet's state entering stage N. `_t` is the tick count the
    // packet sees (its own cycle's tick included).
    p1_valid: DFF<Bit>,
    p1_bad: DFF<Bit>,
    p1_link: DFF<Bits<16>>,
    p1_upd: DFF<Bit>,
    p1_fb: DFF<Bit>,
    p1_deltas: DFF<Bits<KD>>,
    p1_path: DFF<Bits<KP>>,
    p1_t: DFF<Bits<EPOCH_BITS>>,
    p2_valid: DFF<Bit>,
    p2_bad: DFF<Bit>,
    p2_link: DFF<Bits<16>>,
    p2_upd: DFF<Bit>,
    p2_fb: DFF<Bit>,
    p2_deltas: DFF<Bits<KD>>,
    p2_path: DFF<Bits<KP>>,
    p2_t: DFF<Bits<EPOCH_BITS>>,
    p2_raw: DFF<Bits<RW>>,
    /// `T - K` and `T >= K`, for stage 2's "K or more slots old".
    p2_tk: DFF<Bits<EPOCH_BITS>>,
    p2_tge: DFF<Bit>,
    /// This packet's link equals that of the packet which will be, in stage 2, in stage 3
    /// (`eq1`), stage 4 (`eq2`), `fwd0` (`eq3`), `fwd1` (`eq4`), `fwd2` (`eq5`): the 16-bit
    /// compares made a stage early, so stage 2 only gates them with valid bits.
    p2_eq1: DFF<Bit>,
    p2_eq2: DFF<Bit>,
    p2_eq3: DFF<Bit>,
    p2_eq4: DFF<Bit>,
    p2_eq5: DFF<Bit>,
    p3_valid: DFF<Bit>,
    p3_bad: DFF<Bit>,
    p3_link: DFF<Bits<16>>,
    p3_upd: DFF<Bit>,
    p3_fb: DFF<Bit>,
    p3_deltas: DFF<Bits<KD>>,
    p3_path: DFF<Bits<KP>>,
    p3_t: DFF<Bits<EPOCH_BITS>>,
    p3_row: DFF<Bits<KW>>,
    p3_age: DFF<Bits<4>>,
    p3_hit1: DFF<Bit>,
    p3_d1: DFF<Bits<4>>,
    /// Stage 3 takes the row of the packet two ahead (else `p3_row`).
    p3_f0: DFF<Bit>,
    /// The forwarded row chosen is K or more slots old (0 when none is chosen).
    p3_old: DFF<Bit>,
    /// A forwarded row is chosen (then `p3_old` holds whether it is K or more slots old).
    p3_any_fwd: DFF<Bit>,
    /// The RAM row is K or more slots old: the 48-bit compare's carry chain straight into this
    /// register (with the hits' select after it in stage 2, that was the critical path).
    p3_ram_old: DFF<Bit>,
    p4_valid: DFF<Bit>,
    p4_bad: DFF<Bit>,
    p4_link: DFF<Bits<16>>,
    p4_upd: DFF<Bit>,
    p4_fb: DFF<Bit>,
    p4_deltas: DFF<Bits<KD>>,
    p4_path: DFF<Bits<KP>>,
    p4_t: DFF<Bits<EPOCH_BITS>>,
    p4_base: DFF<Bits<KW>>,
    p4_hit1: DFF<Bit>,
    p4_d1: DFF<Bit>,
    p5_valid: DFF<Bit>,
    p5_bad: DFF<Bit>,
    p5_fb: DFF<Bit>,
    p5_path: DFF<Bits<KP>>,
    p5_row: DFF<Bits<KW>>,
    p5_sat: DFF<Bits<16>>,
    /// The last three rows stage 4 produced (0 = the last cycle's), for forwarding; fwd0 is
    /// also what the RAM writes.
    fwd0_valid: DFF<Bit>,
    fwd0_link: DFF<Bits<16>>,
    fwd0_t: DFF<Bits<EPOCH_BITS>>,
    fwd0_row: DFF<Bits<KW>>,
    fwd1_valid: DFF<Bit>,
    fwd1_link: DFF<Bits<16>>,
    fwd1_t: DFF<Bits<EPOCH_BITS>>,
    fwd1_row: DFF<Bits<KW>>,
    fwd2_valid: DFF<Bit>,
    fwd2_t: DFF<Bits<EPOCH_BITS>>,
    fwd2_row: DFF<Bits<KW>>,
    /// The stage-4 loop's own copy of the last row written (loaded only on writes, so Yosys
    /// keeps it apart from `fwd0_row`): the loop's register drives only the loop's adders.
    loop_row: DFF<Bits<KW>>,

    m_valid_reg: DFF<Bit>,
    m_bad_reg: DFF<Bit>,
    m_path_reg: DFF<Bits<KP>>,
    m_row_reg: DFF<Bits<KW>>,
    m_sat_reg: DFF<Bits<16>>,
    sat_pc_reg: DFF<Bits<16>>,
    sat_count_reg: DFF<Bits<32>>,
    bad_count_reg: DFF<Bits<32>>,

    tick_next: Signal<Local, Bits<EPOCH_BITS>>,
    bad0: Signal<Local, Bit>,
    epoch: Signal<Local, Bits<EPOCH_BITS>>,
    /// `(T - K) - epoch` one bit wider: its top bit set when the epoch is after `T - K`.
    epoch_diff: Signal<Local, Bits<49>>,
    w3: Signal<Local, Bit>,
    w4: Signal<Local, Bit>,
    sel_row: Signal<Local, Bits<KW>>,
    sel_age: Signal<Local, Bits<4>>,
    sel_old: Signal<Local, Bit>,
    sel_age2: Signal<Local, Bits<4>>,
    sel_old2: Signal<Local, Bit>,
    h1: Signal<Local, Bit>,
    h2: Signal<Local, Bit>,
    h3: Signal<Local, Bit>,
    h4: Signal<Local, Bit>,
    h5: Signal<Local, Bit>,
    d2: Signal<Local, Bits<4>>,
    d3: Signal<Local, Bits<4>>,
    d4: Signal<Local, Bits<4>>,
    d5: Signal<Local, Bits<4>>,
    sh1: Signal<Local, Bits<KW>>,
    sh2: Signal<Local, Bits<KW>>,
    sh3: Signal<Local, Bits<KW>>,
    sh4: Signal<Local, Bits<KW>>,
    cur_w: Signal<Local, Bits<KW>>,
    dl_w: Signal<Local, Bits<KD>>,
    pl_w: Signal<Local, Bits<KP>>,
    rw_w: Signal<Local, Bits<KW>>,
    e_cur: Signal<Local, Bits<W>>,
    e_cur_f: Signal<Local, Bits<W>>,
    e_cur_s: Signal<Local, Bits<W>>,
    e_dx: Signal<Local, Bits<W2>>,
    e_sum_f: Signal<Local, Bits<W2>>,
    e_sum_s: Signal<Local, Bits<W2>>,
    e_neg_f: Signal<Local, Bit>,
    e_neg_s: Signal<Local, Bit>,
    e_over_f: Signal<Local, Bit>,
    e_over_s: Signal<Local, Bit>,
    e_new_f: Signal<Local, Bits<W>>,
    e_new_s: Signal<Local, Bits<W>>,
    e_sat: Signal<Local, Bit>,
    fw_w: Signal<Local, Bits<KW>>,
    e_dl: Signal<Local, Bits<W1>>,
    e_pl: Signal<Local, Bits<PW>>,
    e_sum: Signal<Local, Bits<W2>>,
    e_neg: Signal<Local, Bit>,
    e_over: Signal<Local, Bit>,
    e_new: Signal<Local, Bits<W>>,
    e_psum: Signal<Local, Bits<PW1>>,
    e_path: Signal<Local, Bits<PW>>,
    new_row: Signal<Local, Bits<KW>>,
    new_path: Signal<Local, Bits<KP>>,
    sat_mask: Signal<Local, Bits<16>>,
    write: Signal<Local, Bit>,
    pc1: Signal<Local, Bits<16>>,
    pc2: Signal<Local, Bits<16>>,
    pc3: Signal<Local, Bits<16>>,
}

impl<
        const K: usize,
        const W: usize,
        const W1: usize,
        const W2: usize,
        const PW: usize,
        const PW1: usize,
        const KW: usize,
        const KD: usize,
        const KP: usize,
        const RW: usize,
    > LoadTableRtl<K, W, W1, W2, PW, PW1, KW, KD, KP, RW>
{
    /// `links` rows; `fault_no_fwd` and `fault_reset_keeps_rows` only for the co-sim self-test
    /// (`hdl::Fault`).
    pub fn new(links: u32, fault_no_fwd: bool, fault_reset_keeps_rows: bool) -> Self {
        assert!(W1 == W + 1 && W2 == W + 2 && PW == W + 4 && PW1 == PW + 1);
        assert!(KW == K * W && KD == K * W1 && KP == K * PW && RW == KW + EPOCH_BITS);
        assert!(K <= 16 && W <= 32);
        let c16 = |v: usize| Constant::new(bits::<16>(v as u64));
        let ones = |n: usize| (1u64 << n) - 1;
        LoadTableRtl {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_link: Default::default(),
            s_update: Default::default(),
            s_deltas: Default::default(),
            s_feedback: Default::default(),
            s_path_load: Default::default(),
            s_tick: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_path_load: Default::default(),
            m_row: Default::default(),
            m_sat_mask: Default::default(),
            status_sat_count: Default::default(),
            status_bad_count: Default::default(),
            status_tick_count: Default::default(),
            cfg_links: c16(links as usize),
            cfg_k8: Constant::new(bits(K as u64)),
            cfg_ge_k: Constant::new(bits((0..16).filter(|i| *i >= K).map(|i| 1u64 << i).sum())),
            cfg_one48: Constant::new(bits(1)),
            cfg_one32: Constant::new(bits(1)),
            cfg_epoch_bits: c16(EPOCH_BITS),
            cfg_sh1: c16(W),
            cfg_sh2: c16(2 * W),
            cfg_sh4: c16(4 * W),
            cfg_sh8: c16(8 * W),
            cfg_w: c16(W),
            cfg_w1: c16(W1),
            cfg_pw: c16(PW),
            cfg_top_row: c16(KW - W),
            cfg_top_path: c16(KP - PW),
            cfg_idx_w: c16(W),
            cfg_idx_w1: c16(W1),
            cfg_idx_pw: c16(PW),
            cfg_sext: Constant::new(bits(1u64 << W1)),
            cfg_load_max: Constant::new(bits(ones(W))),
            cfg_path_max: Constant::new(bits(ones(PW))),
            cfg_m55: c16(0x5555),
            cfg_m33: c16(0x3333),
            cfg_m0f: c16(0x0F0F),
            cfg_m1f: c16(0x001F),
            cfg_s1: c16(1),
            cfg_s2: c16(2),
            cfg_s4: c16(4),
            cfg_s8: c16(8),
            cfg_fault_no_fwd: Constant::new(fault_no_fwd),
            cfg_k48: Constant::new(bits(K as u64)),
            cfg_fault_reset_keeps_rows: Constant::new(fault_reset_keeps_rows),
            cfg_idx_epoch: c16(EPOCH_BITS),
            ram: ContextRam::new(links as usize),
            tick_reg: Default::default(),
            ticks_reg: Default::default(),
            p1_valid: Default::default(),
            p1_bad: Default::default(),
            p1_link: Default::default(),
            p1_upd: Default::default(),
            p1_fb: Default::default(),
            p1_deltas: Default::default(),
            p1_path: Default::default(),
            p1_t: Default::default(),
            p2_valid: Default::default(),
            p2_bad: Default::default(),
            p2_link: Default::default(),
            p2_upd: Default::default(),
            p2_fb: Default::default(),
            p2_deltas: Default::default(),
            p2_path: Default::default(),
            p2_t: Default::default(),
            p2_raw: Default::default(),
            p2_tk: Default::default(),
            p2_tge: Default::default(),
            p2_eq1: Default::default(),
            p2_eq2: Default::default(),
            p2_eq3: Default::default(),
            p2_eq4: Default::default(),
            p2_eq5: Default::default(),
            p3_valid: Default::default(),
            p3_bad: Default::default(),
            p3_link: Default::default(),
            p3_upd: Default::default(),
            p3_fb: Default::default(),
            p3_deltas: Default::default(),
            p3_path: Default::default(),
            p3_t: Default::default(),
            p3_row: Default::default(),
            p3_age: Default::default(),
            p3_hit1: Default::default(),
            p3_d1: Default::default(),
            p3_f0: Default::default(),
            p3_old: Default::default(),
            p3_any_fwd: Default::default(),
            p3_ram_old: Default::default(),
            p4_valid: Default::default(),
            p4_bad: Default::default(),
            p4_link: Default::default(),
            p4_upd: Default::default(),
            p4_fb: Default::default(),
            p4_deltas: Default::default(),
            p4_path: Default::default(),
            p4_t: Default::default(),
            p4_base: Default::default(),
            p4_hit1: Default::default(),
            p4_d1: Default::default(),
            p5_valid: Default::default(),
            p5_bad: Default::default(),
            p5_fb: Default::default(),
            p5_path: Default::default(),
            p5_row: Default::default(),
            p5_sat: Default::default(),
            fwd0_valid: Default::default(),
            fwd0_link: Default::default(),
            fwd0_t: Default::default(),
            fwd0_row: Default::default(),
            fwd1_valid: Default::default(),
            fwd1_link: Default::default(),
            fwd1_t: Default::default(),
            fwd1_row: Default::default(),
            fwd2_valid: Default::default(),
            fwd2_t: Default::default(),
            fwd2_row: Default::default(),
            loop_row: Default::default(),
            m_valid_reg: Default::default(),
            m_bad_reg: Default::default(),
            m_path_reg: Default::default(),
            m_row_reg: Default::default(),
            m_sat_reg: Default::default(),
            sat_pc_reg: Default::default(),
            sat_count_reg: Default::default(),
            bad_count_reg: Default::default(),
            tick_next: Default::default(),
            bad0: Default::default(),
            epoch: Default::default(),
            epoch_diff: Default::default(),
            w3: Default::default(),
            w4: Default::default(),
            sel_row: Default::default(),
            sel_age: Default::default(),
            sel_old: Default::default(),
            sel_age2: Default::default(),
            sel_old2: Default::default(),
            h1: Default::default(),
            h2: Default::default(),
            h3: Default::default(),
            h4: Default::default(),
            h5: Default::default(),
            d2: Default::default(),
            d3: Default::default(),
            d4: Default::default(),
            d5: Default::default(),
            sh1: Default::default(),
            sh2: Default::default(),
            sh3: Default::default(),
            sh4: Default::default(),
            cur_w: Default::default(),
            dl_w: Default::default(),
            pl_w: Default::default(),
            rw_w: Default::default(),
            e_cur: Default::default(),
            e_cur_f: Default::default(),
            e_cur_s: Default::default(),
            e_dx: Default::default(),
            e_sum_f: Default::default(),
            e_sum_s: Default::default(),
            e_neg_f: Default::default(),
            e_neg_s: Default::default(),
            e_over_f: Default::default(),
            e_over_s: Default::default(),
            e_new_f: Default::default(),
            e_new_s: Default::default(),
            e_sat: Default::default(),
            fw_w: Default::default(),
            e_dl: Default::default(),
            e_pl: Default::default(),
            e_sum: Default::default(),
            e_neg: Default::default(),
            e_over: Default::default(),
            e_new: Default::default(),
            e_psum: Default::default(),
            e_path: Default::default(),
            new_row: Default::default(),
            new_path: Default::default(),
            sat_mask: Default::default(),
            write: Default::default(),
            pc1: Default::default(),
            pc2: Default::default(),
            pc3: Default::default(),
        }
    }
}

impl<
        const K: usize,
        const W: usize,
        const W1: usize,
        const W2: usize,
        const PW: usize,
        const PW1: usize,
        const KW: usize,
        const KD: usize,
        const KP: usize,
        const RW: usize,
    > Logic for LoadTableRtl<K, W, W1, W2, PW, PW1, KW, KD, KP, RW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            tick_reg,
            ticks_reg,
            p1_valid,
            p1_bad,
            p1_link,
            p1_upd,
            p1_fb,
            p1_deltas,
            p1_path,
            p1_t,
            p2_valid,
            p2_bad,
            p2_link,
            p2_upd,
            p2_fb,
            p2_deltas,
            p2_path,
            p2_t,
            p2_raw,
            p2_tk,
            p2_tge,
            p2_eq1,
            p2_eq2,
            p2_eq3,
            p2_eq4,
            p2_eq5,
            p3_valid,
            p3_bad,
            p3_link,
            p3_upd,
            p3_fb,
            p3_deltas,
            p3_path,
            p3_t,
            p3_row,
            p3_age,
            p3_hit1,
            p3_d1,
            p3_f0,
            p3_old,
            p3_any_fwd,
            p3_ram_old,
            p4_valid,
            p4_bad,
            p4_link,
            p4_upd,
            p4_fb,
            p4_deltas,
            p4_path,
            p4_t,
            p4_base,
            p4_hit1,
            p4_d1,
            p5_valid,
            p5_bad,
            p5_fb,
            p5_path,
            p5_row,
            p5_sat,
            fwd0_valid,
            fwd0_link,
            fwd0_t,
            fwd0_row,
            fwd1_valid,
            fwd1_link,
            fwd1_t,
            fwd1_row,
            fwd2_valid,
            fwd2_t,
            fwd2_row,
            loop_row,
            m_valid_reg,
            m_bad_reg,
            m_path_reg,
            m_row_reg,
            m_sat_reg,
            sat_pc_reg,
            sat_count_reg,
            bad_count_reg
        );
        self.ram.clock.next = self.clock.val();
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_bad.next = self.m_bad_reg.q.val();
        self.m_path_load.next = self.m_path_reg.q.val();
        self.m_row.next = self.m_row_reg.q.val();
        self.m_sat_mask.next = self.m_sat_reg.q.val();
        self.status_sat_count.next = self.sat_count_reg.q.val();
        self.status_bad_count.next = self.bad_count_reg.q.val();
        self.status_tick_count.next = self.ticks_reg.q.val();

        // ---- Stage 0: range check, RAM read, the packet's tick count (this cycle's included).
        self.tick_next.next = self.tick_reg.q.val();
        if self.s_tick.val() {
            self.tick_next.next = self.tick_reg.q.val() + self.cfg_one48.val();
        }
        self.tick_reg.d.next = self.tick_next.val();
        if self.s_tick.val() {
            self.ticks_reg.d.next = self.ticks_reg.q.val() + self.cfg_one32.val();
        }
        self.bad0.next = self.s_link.val() >= self.cfg_links.val();
        self.ram.read_address.next = self.s_link.val();
        if self.bad0.val() {
            self.ram.read_address.next = 0.into();
        }
        self.p1_valid.d.next = self.s_valid.val();
        self.p1_bad.d.next = self.s_valid.val() & self.bad0.val();
        self.p1_link.d.next = self.s_link.val();
        self.p1_upd.d.next = self.s_update.val();
        self.p1_fb.d.next = self.s_feedback.val();
        self.p1_deltas.d.next = self.s_deltas.val();
        self.p1_path.d.next = self.s_path_load.val();
        self.p1_t.d.next = self.tick_next.val();

        // ---- Stage 1: the RAM's data is registered as it comes out.
        self.p2_valid.d.next = self.p1_valid.q.val();
        self.p2_bad.d.next = self.p1_bad.q.val();
        self.p2_link.d.next = self.p1_link.q.val();
        self.p2_upd.d.next = self.p1_upd.q.val();
        self.p2_fb.d.next = self.p1_fb.q.val();
        self.p2_deltas.d.next = self.p1_deltas.q.val();
        self.p2_path.d.next = self.p1_path.q.val();
        self.p2_t.d.next = self.p1_t.q.val();
        self.p2_raw.d.next = self.ram.read_data.val();
        self.p2_tk.d.next = self.p1_t.q.val() - bit_cast::<EPOCH_BITS, 8>(self.cfg_k8.val());
        self.p2_tge.d.next = self.p1_t.q.val() >= bit_cast::<EPOCH_BITS, 8>(self.cfg_k8.val());
        self.p2_eq1.d.next = self.p1_link.q.val() == self.p2_link.q.val();
        self.p2_eq2.d.next = self.p1_link.q.val() == self.p3_link.q.val();
        self.p2_eq3.d.next = self.p1_link.q.val() == self.p4_link.q.val();
        self.p2_eq4.d.next = self.p1_link.q.val() == self.fwd0_link.q.val();
        self.p2_eq5.d.next = self.p1_link.q.val() == self.fwd1_link.q.val();

        // ---- Stage 2: the RAM row's age, and which younger packets on the same link wrote
        // after the RAM was read: the packets now in stages 3 (hit1) and 4 (h2), and the last
        // three rows stage 4 produced (h3, h4, h5), with their tick distances (the link
        // compares were made in stage 1). Stage 3's choice (the newest hit, its age, whether it
        // is K or more slots old) is made here, so stage 3 only selects and shifts under
        // registered controls.
        // age >= K is `epoch <= T - K` (T - K registered in stage 1; never when T < K): one
        // comparison, not a 48-bit age and a comparison; the age's low bits are a 4-bit
        // difference. The comparison is the sign of a subtraction one bit wider, which Yosys
        // maps to a carry chain (it mapped `<=` to LUTs, and ABC put the hits' select after
        // them), registered on its own (`p3_ram_old`); stage 3 combines it with the hits'.
        self.epoch.next = bit_cast::<EPOCH_BITS, RW>(self.p2_raw.q.val());
        self.p3_row.d.next = bit_cast::<KW, RW>(self.p2_raw.q.val() >> self.cfg_epoch_bits.val());
        self.w3.next = self.p3_valid.q.val() & !self.p3_bad.q.val() & self.p3_upd.q.val();
        self.w4.next = self.p4_valid.q.val() & !self.p4_bad.q.val() & self.p4_upd.q.val();
        self.h1.next = self.w3.val() & self.p2_eq1.q.val();
        self.h2.next = self.w4.val() & self.p2_eq2.q.val();
        self.h3.next = self.fwd0_valid.q.val() & self.p2_eq3.q.val();
        self.h4.next = self.fwd1_valid.q.val() & self.p2_eq4.q.val();
        self.h5.next = self.fwd2_valid.q.val() & self.p2_eq5.q.val();
        if self.cfg_fault_no_fwd.val() {
            self.h1.next = false;
            self.h2.next = false;
            self.h3.next = false;
            self.h4.next = false;
            self.h5.next = false;
        }
        self.p3_hit1.d.next = self.h1.val();
        self.p3_d1.d.next = bit_cast::<4, EPOCH_BITS>(self.p2_t.q.val())
            - bit_cast::<4, EPOCH_BITS>(self.p3_t.q.val());
        self.d2.next = bit_cast::<4, EPOCH_BITS>(self.p2_t.q.val())
            - bit_cast::<4, EPOCH_BITS>(self.p4_t.q.val());
        self.d3.next = bit_cast::<4, EPOCH_BITS>(self.p2_t.q.val())
            - bit_cast::<4, EPOCH_BITS>(self.fwd0_t.q.val());
        self.d4.next = bit_cast::<4, EPOCH_BITS>(self.p2_t.q.val())
            - bit_cast::<4, EPOCH_BITS>(self.fwd1_t.q.val());
        self.d5.next = bit_cast::<4, EPOCH_BITS>(self.p2_t.q.val())
            - bit_cast::<4, EPOCH_BITS>(self.fwd2_t.q.val());
        self.sel_age2.next = bit_cast::<4, EPOCH_BITS>(self.p2_t.q.val())
            - bit_cast::<4, EPOCH_BITS>(self.epoch.val());
        self.epoch_diff.next = bit_cast::<49, EPOCH_BITS>(self.p2_tk.q.val())
            - bit_cast::<49, EPOCH_BITS>(self.epoch.val());
        self.p3_ram_old.d.next = self.p2_tge.q.val()
            & !self
                .epoch_diff
                .val()
                .get_bit(self.cfg_idx_epoch.val().index());
        self.sel_old2.next = false;
        // The newest hit wins. The rows of the packets three to five ahead are in fwd0..2 now
        // (fwd1..3 in stage 3), so they are selected here, with the RAM row, into `p3_row`;
        // stage 3 only chooses between that and the packet two ahead's (then in fwd0).
        self.p3_f0.d.next = false;
        if self.h5.val() {
            self.sel_age2.next = self.d5.val();
            self.sel_old2.next = self.cfg_ge_k.val().get_bit(self.d5.val().index());
            self.p3_row.d.next = self.fwd2_row.q.val();
        }
        if self.h4.val() {
            self.sel_age2.next = self.d4.val();
            self.sel_old2.next = self.cfg_ge_k.val().get_bit(self.d4.val().index());
            self.p3_row.d.next = self.fwd1_row.q.val();
        }
        if self.h3.val() {
            self.sel_age2.next = self.d3.val();
            self.sel_old2.next = self.cfg_ge_k.val().get_bit(self.d3.val().index());
            self.p3_row.d.next = self.fwd0_row.q.val();
        }
        if self.h2.val() {
            self.sel_age2.next = self.d2.val();
            self.sel_old2.next = self.cfg_ge_k.val().get_bit(self.d2.val().index());
            self.p3_f0.d.next = true;
        }
        self.p3_age.d.next = self.sel_age2.val();
        self.p3_old.d.next = self.sel_old2.val();
        self.p3_any_fwd.d.next = self.h2.val() | self.h3.val() | self.h4.val() | self.h5.val();
        self.p3_valid.d.next = self.p2_valid.q.val();
        self.p3_bad.d.next = self.p2_bad.q.val();
        self.p3_link.d.next = self.p2_link.q.val();
        self.p3_upd.d.next = self.p2_upd.q.val();
        self.p3_fb.d.next = self.p2_fb.q.val();
        self.p3_deltas.d.next = self.p2_deltas.q.val();
        self.p3_path.d.next = self.p2_path.q.val();
        self.p3_t.d.next = self.p2_t.q.val();

        // ---- Stage 3: the newest of the RAM row and the rows written since (the packet two,
        // three, four or five ahead), aged to this packet's slot. All but the packet two ahead's
        // (now in fwd0) were chosen in stage 2 (`p3_row`).
        self.sel_row.next = self.p3_row.q.val();
        if self.p3_f0.q.val() {
            self.sel_row.next = self.fwd0_row.q.val();
        }
        self.sel_age.next = self.p3_age.q.val();
        self.sel_old.next =
            self.p3_old.q.val() | (!self.p3_any_fwd.q.val() & self.p3_ram_old.q.val());
        self.sh1.next = self.sel_row.val();
        if self.sel_age.val().get_bit(0) {
            self.sh1.next = self.sel_row.val() >> self.cfg_sh1.val();
        }
        self.sh2.next = self.sh1.val();
        if self.sel_age.val().get_bit(1) {
            self.sh2.next = self.sh1.val() >> self.cfg_sh2.val();
        }
        self.sh3.next = self.sh2.val();
        if self.sel_age.val().get_bit(2) {
            self.sh3.next = self.sh2.val() >> self.cfg_sh4.val();
        }
        self.sh4.next = self.sh3.val();
        if self.sel_age.val().get_bit(3) {
            self.sh4.next = self.sh3.val() >> self.cfg_sh8.val();
        }
        self.p4_base.d.next = self.sh4.val();
        if self.sel_old.val() {
            self.p4_base.d.next = 0.into();
        }
        self.p4_hit1.d.next = self.p3_hit1.q.val();
        self.p4_d1.d.next = self.p3_d1.q.val().any();
        self.p4_valid.d.next = self.p3_valid.q.val();
        self.p4_bad.d.next = self.p3_bad.q.val();
        self.p4_link.d.next = self.p3_link.q.val();
        self.p4_upd.d.next = self.p3_upd.q.val();
        self.p4_fb.d.next = self.p3_fb.q.val();
        // Without an update the deltas are zeroed here, so that stage 4's sum is the row itself
        // (never saturated) and no `update` gate follows the sum: with the gate, the three LUT
        // levels after the adder were the critical path (the row into `fwd0_row`).
        self.p4_deltas.d.next = 0.into();
        if self.p3_upd.q.val() {
            self.p4_deltas.d.next = self.p3_deltas.q.val();
        }
        self.p4_path.d.next = self.p3_path.q.val();
        self.p4_t.d.next = self.p3_t.q.val();

        // ---- Stage 4, the one-cycle loop: the row (the previous packet's, when it wrote the
        // same link, moved on by the tick between them) plus the deltas, saturating. The three
        // candidate rows (this packet's base, the previous row, the previous row one slot on)
        // are summed in parallel and the result selected last, so the loop runs from `loop_row`
        // straight into an adder and the late-arriving selects fan out off the loop.
        self.cur_w.next = self.p4_base.q.val();
        self.fw_w.next = self.loop_row.q.val();
        self.dl_w.next = self.p4_deltas.q.val();
        self.new_row.next = 0.into();
        self.sat_mask.next = 0.into();
        for k in 0..K {
            self.e_cur.next = self.cur_w.val().get_bits::<W>(0);
            self.e_cur_f.next = self.fw_w.val().get_bits::<W>(0);
            self.e_cur_s.next = self.fw_w.val().get_bits::<W>(self.cfg_w.val().index());
            self.e_dl.next = self.dl_w.val().get_bits::<W1>(0);
            self.e_dx.next = bit_cast::<W2, W1>(self.e_dl.val());
            if self.e_dl.val().get_bit(self.cfg_idx_w.val().index()) {
                self.e_dx.next = bit_cast::<W2, W1>(self.e_dl.val()) | self.cfg_sext.val();
            }
            self.e_sum.next = bit_cast::<W2, W>(self.e_cur.val()) + self.e_dx.val();
            self.e_sum_f.next = bit_cast::<W2, W>(self.e_cur_f.val()) + self.e_dx.val();
            self.e_sum_s.next = bit_cast::<W2, W>(self.e_cur_s.val()) + self.e_dx.val();
            // Base candidate.
            self.e_neg.next = self.e_sum.val().get_bit(self.cfg_idx_w1.val().index());
            self.e_over.next =
                !self.e_neg.val() & self.e_sum.val().get_bit(self.cfg_idx_w.val().index());
            self.e_new.next = bit_cast::<W, W2>(self.e_sum.val());
            if self.e_neg.val() {
                self.e_new.next = 0.into();
            }
            if self.e_over.val() {
                self.e_new.next = self.cfg_load_max.val();
            }
            // The previous row.
            self.e_neg_f.next = self.e_sum_f.val().get_bit(self.cfg_idx_w1.val().index());
            self.e_over_f.next =
                !self.e_neg_f.val() & self.e_sum_f.val().get_bit(self.cfg_idx_w.val().index());
            self.e_new_f.next = bit_cast::<W, W2>(self.e_sum_f.val());
            if self.e_neg_f.val() {
                self.e_new_f.next = 0.into();
            }
            if self.e_over_f.val() {
                self.e_new_f.next = self.cfg_load_max.val();
            }
            // The previous row, one slot on.
            self.e_neg_s.next = self.e_sum_s.val().get_bit(self.cfg_idx_w1.val().index());
            self.e_over_s.next =
                !self.e_neg_s.val() & self.e_sum_s.val().get_bit(self.cfg_idx_w.val().index());
            self.e_new_s.next = bit_cast::<W, W2>(self.e_sum_s.val());
            if self.e_neg_s.val() {
                self.e_new_s.next = 0.into();
            }
            if self.e_over_s.val() {
                self.e_new_s.next = self.cfg_load_max.val();
            }
            // Select the candidate. No `update` gate after it: a packet without an update
            // has its deltas zeroed in stage 3, so its sum is its row, unsaturated.
            self.e_sat.next = self.e_neg.val() | self.e_over.val();
            if self.p4_hit1.q.val() {
                if self.p4_d1.q.val() {
                    self.e_new.next = self.e_new_s.val();
                    self.e_sat.next = self.e_neg_s.val() | self.e_over_s.val();
                } else {
                    self.e_new.next = self.e_new_f.val();
                    self.e_sat.next = self.e_neg_f.val() | self.e_over_f.val();
                }
            }
            if self.e_sat.val() {
                self.sat_mask.next = self.sat_mask.val().replace_bit(k, true);
            }
            self.new_row.next = (self.new_row.val() >> self.cfg_w.val())
                | (bit_cast::<KW, W>(self.e_new.val()) << self.cfg_top_row.val());
            self.cur_w.next = self.cur_w.val() >> self.cfg_w.val();
            self.fw_w.next = self.fw_w.val() >> self.cfg_w.val();
            self.dl_w.next = self.dl_w.val() >> self.cfg_w1.val();
        }
        self.write.next = self.p4_valid.q.val() & !self.p4_bad.q.val() & self.p4_upd.q.val();
        // The RAM writes the row a cycle after the loop made it, from fwd0: the loop's adder
        // does not drive the RAM's data pins across the die.
        self.ram.write_address.next = self.fwd0_link.q.val();
        self.ram.write_data.next = (bit_cast::<RW, KW>(self.fwd0_row.q.val())
            << self.cfg_epoch_bits.val())
            | bit_cast::<RW, EPOCH_BITS>(self.fwd0_t.q.val());
        self.ram.write_enable.next = self.fwd0_valid.q.val();
        self.fwd0_valid.d.next = self.write.val();
        self.fwd0_link.d.next = self.p4_link.q.val();
        self.fwd0_t.d.next = self.p4_t.q.val();
        self.fwd0_row.d.next = self.new_row.val();
        self.loop_row.d.next = self.loop_row.q.val();
        if self.write.val() {
            self.loop_row.d.next = self.new_row.val();
        }
        self.fwd1_valid.d.next = self.fwd0_valid.q.val();
        self.fwd1_link.d.next = self.fwd0_link.q.val();
        self.fwd1_t.d.next = self.fwd0_t.q.val();
        self.fwd1_row.d.next = self.fwd0_row.q.val();
        self.fwd2_valid.d.next = self.fwd1_valid.q.val();
        self.fwd2_t.d.next = self.fwd1_t.q.val();
        self.fwd2_row.d.next = self.fwd1_row.q.val();
        self.p5_valid.d.next = self.p4_valid.q.val();
        self.p5_bad.d.next = self.p4_bad.q.val();
        self.p5_fb.d.next = self.p4_fb.q.val();
        self.p5_path.d.next = self.p4_path.q.val();
        self.p5_row.d.next = self.new_row.val();
        self.p5_sat.d.next = self.sat_mask.val();

        // ---- Stage 5: feedback (saturating), then the output registers; every field is 0
        // without a packet.
        self.rw_w.next = self.p5_row.q.val();
        self.pl_w.next = self.p5_path.q.val();
        self.new_path.next = 0.into();
        for _k in 0..K {
            self.e_cur.next = self.rw_w.val().get_bits::<W>(0);
            self.e_pl.next = self.pl_w.val().get_bits::<PW>(0);
            self.e_psum.next =
                bit_cast::<PW1, PW>(self.e_pl.val()) + bit_cast::<PW1, W>(self.e_cur.val());
            self.e_path.next = self.e_pl.val();
            if self.p5_fb.q.val() {
                self.e_path.next = bit_cast::<PW, PW1>(self.e_psum.val());
                if self.e_psum.val().get_bit(self.cfg_idx_pw.val().index()) {
                    self.e_path.next = self.cfg_path_max.val();
                }
            }
            self.new_path.next = (self.new_path.val() >> self.cfg_pw.val())
                | (bit_cast::<KP, PW>(self.e_path.val()) << self.cfg_top_path.val());
            self.rw_w.next = self.rw_w.val() >> self.cfg_w.val();
            self.pl_w.next = self.pl_w.val() >> self.cfg_pw.val();
        }
        self.m_valid_reg.d.next = self.p5_valid.q.val();
        self.m_bad_reg.d.next = self.p5_bad.q.val();
        self.m_path_reg.d.next = 0.into();
        self.m_row_reg.d.next = 0.into();
        self.m_sat_reg.d.next = 0.into();
        if self.p5_valid.q.val() {
            if self.p5_bad.q.val() {
                self.m_path_reg.d.next = self.p5_path.q.val();
            } else {
                self.m_path_reg.d.next = self.new_path.val();
                self.m_row_reg.d.next = self.p5_row.q.val();
                self.m_sat_reg.d.next = self.p5_sat.q.val();
            }
        }
        // The saturation count, as a 16-bit population count (SWAR) in two halves: pairs,
        // nibbles and bytes here, their sum with the counter in the next cycle (with the bytes
        // there too, the counter's path was the critical one once stage 2's was shortened).
        self.pc1.next = (self.p5_sat.q.val() & self.cfg_m55.val())
            + ((self.p5_sat.q.val() >> self.cfg_s1.val()) & self.cfg_m55.val());
        self.pc2.next = (self.pc1.val() & self.cfg_m33.val())
            + ((self.pc1.val() >> self.cfg_s2.val()) & self.cfg_m33.val());
        self.sat_pc_reg.d.next =
            (self.pc2.val() + (self.pc2.val() >> self.cfg_s4.val())) & self.cfg_m0f.val();
        if !self.p5_valid.q.val() | self.p5_bad.q.val() {
            self.sat_pc_reg.d.next = 0.into();
        }

        // ---- Counters: from the output stage, so they count the packets before the one shown.
        self.pc3.next = (self.sat_pc_reg.q.val() + (self.sat_pc_reg.q.val() >> self.cfg_s8.val()))
            & self.cfg_m1f.val();
        self.sat_count_reg.d.next = self.sat_count_reg.q.val() + bit_cast::<32, 16>(self.pc3.val());
        if self.m_valid_reg.q.val() & self.m_bad_reg.q.val() {
            self.bad_count_reg.d.next = self.bad_count_reg.q.val() + self.cfg_one32.val();
        }

        // ---- The synchronous reset, last so that it overrides every assignment above: the
        // epoch clock moves on by K from its value before this cycle's tick (every row in the
        // RAM now reads as K or more slots old, all zero), and every valid bit, the bad flags
        // (`m_bad` takes stage 5's without its valid bit), the output registers and the
        // counters return to their power-on values. The other flags (update, feedback, the
        // forwarding hits and ages, "K or more old") are read only beside their valid bits, so
        // they need no reset (each reset register is one more on the reset's net, and one a
        // slice cannot share with a register without it).
        if self.s_reset.val() {
            self.tick_reg.d.next = self.tick_reg.q.val() + self.cfg_k48.val();
            if self.cfg_fault_reset_keeps_rows.val() {
                self.tick_reg.d.next = self.tick_reg.q.val();
            }
            self.ticks_reg.d.next = 0.into();
            self.p1_valid.d.next = false;
            self.p1_bad.d.next = false;
            self.p2_valid.d.next = false;
            self.p2_bad.d.next = false;
            self.p3_valid.d.next = false;
            self.p3_bad.d.next = false;
            self.p4_valid.d.next = false;
            self.p4_bad.d.next = false;
            self.p5_valid.d.next = false;
            self.p5_bad.d.next = false;
            self.fwd0_valid.d.next = false;
            self.fwd1_valid.d.next = false;
            self.fwd2_valid.d.next = false;
            self.m_valid_reg.d.next = false;
            self.m_bad_reg.d.next = false;
            self.m_path_reg.d.next = 0.into();
            self.m_row_reg.d.next = 0.into();
            self.m_sat_reg.d.next = 0.into();
            self.sat_pc_reg.d.next = 0.into();
            self.sat_count_reg.d.next = 0.into();
            self.bad_count_reg.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    fn small() -> Config {
        let mut c = Config::default();
        c.load_table.links = 4;
        c.load_table.slots = 4;
        c.load_table.load_bits = 8;
        c
    }

    #[test]
    fn small_config_verilog_snapshot() {
        let b = generate("load_table", &small(), &Options::default()).unwrap();
        insta::assert_snapshot!("load_table_4x4x8", b.verilog);
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut c = Config::default();
        c.load_table.slots = 1;
        let e = generate("load_table", &c, &Options::default()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("load_table: "), "{msg}");
        assert!(msg.contains("`load_table.slots` = 1"), "{msg}");
    }

    /// Gate: the default design (64 x 10 x 16) lints, compiles in Icarus and passes the Yosys
    /// structural check; the small one goes through a full Yosys `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("load_table", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "load_table_default", false);
        let b = generate("load_table", &small(), &Options::default()).unwrap();
        crate::gate::check(&b, "load_table_small", true);
    }
}
