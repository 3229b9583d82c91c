//! The NIC's congestion-window units, one per connection (`docs/blocks/nic_cwnd.md`): the
//! stand-alone [`cwnd_unit`](crate::cwnd_unit)'s arithmetic for `connections` connections, one
//! event (an ACK or an open) per clock for any sequence of connection ids, the same one on
//! consecutive cycles included, with no stall. Free-running: no back-pressure.
//!
//! ```text
//!  I            R             F              S1             S2              S3          S4        S5..S14         S15 (loop)    S16           out
//!  s_* ─► RAM   RAM data ─►   G1, G2a, G4 ─► base RTT   ─►  achievedBDP, ─► arm's   ─► arm;   ─► CwndAmounts ─► cwnd + d, ─► the window ─► m_*
//!  addresses    registered    merged with    (G1 loop),     timers, EWMA    compares;   G4       (the stand-    clamped       from the
//!  (G1, G2a,    in the EBRs;  the writes     the timers'    (G2 loop);      decrease    write    alone unit's      │       loop's
//!  G4); hits    G2b, window   2-4 / 3-5 /    differences;   w: window B     interval    reg      stages 4..14)     ▼       register
//!  against the  B addressed   5-7 ahead;     G2a, G4 with   with the write  (hits 1..3)         window A read write regs
//!  17 events                  the S1 compare the writes     14 ahead                            at S12, merged ─► RAMs a
//!  ahead                      on the base    2 / 4 ahead;                                       at S14 with the  cycle later
//!                             RTT's loop     G2b, window B                                      writes 2-4 ahead
//!                                            merged 2-4 /
//!                                            15-17 ahead
//! ```
//!
//! Per-connection state lives in six RAMs (`ContextRam`), each read three cycles before the
//! stage that reads it (address, data registered in the EBR's output register, merge) and
//! written from the updating stage's write register a cycle after that stage (so no RAM port
//! is in a loop): G1 (base RTT and base + target_Qdelay, S1), G2a (achievedBDP's clear time and
//! the fairness time, S2, read for S1), G2b (the average delay, the byte count and achievedBDP,
//! S2), G4 (the last decrease's time, S4, read for S1, written only when the window decreases)
//! and the window twice (S15: copy A for the loop, copy B for S2's window in flight). A read
//! misses the writes of the four cycles before the stage that uses it: the events at distances
//! `k + 1` to `k + 4` ahead on the same connection made them (`k` stages from the reading stage
//! to the writing one). They are forwarded from the write register and its copies one and two
//! cycles older: at the merge (two cycles after the address) those hold the writes of the
//! events `k + 2` to `k + 4` ahead, and at the reading stage the write register holds the one
//! `k + 1` ahead. Where the stand-alone unit already reads the ACKs ahead (the timers from the
//! `now` of the ACKs one to three ahead), each is masked by "same connection". Which events
//! ahead are on the same connection is compared once, at I, against the 17 events ahead, and
//! carried.
//!
//! An open writes a fresh unit's values at each stage it passes; to the events behind it acts
//! as an event whose `now` is 0 that cleared, took the fairness turn and decreased (the fresh
//! timestamps are 0), and S2 reads the fresh window when an open of the connection is 1 to 13
//! ahead (the stand-alone unit's window in flight excludes the 13 ACKs ahead; after an open
//! those are the fresh unit's). The RAMs keep each field XOR its fresh value, so at power-on
//! every connection is a fresh unit.

use crate::context_ram::ContextRam;
use crate::cwnd_unit::{
    CwndAmounts, MsbOneHot32, BRANCH_ACHIEVED_BDP_CUT, BRANCH_ADDITIVE, BRANCH_HOLD,
    BRANCH_MALFORMED, BRANCH_MULTIPLICATIVE, BRANCH_PROPORTIONAL,
};
use rust_hdl::prelude::*;
use strack_config::CwndConstants;

/// Clock edges from an event on `s_*` to its result on `m_*`: three for the RAMs' read (address,
/// registered data, merge) ahead of the stand-alone unit's 15 stages, and one after them (the
/// window is output from the loop's register).
pub const LATENCY: u32 = strack_config::CWND_LATENCY + 4;

/// `m_branch` of an open: the connection starts afresh.
pub const BRANCH_OPENED: u64 = 6;

/// The largest RTT (and a fresh base RTT).
const RTT_MAX: u64 = (1 << 24) - 1;

#[derive(LogicBlock)]
pub struct NicCwndRtl<const R: usize> {
    pub clock: Signal<In, Clock>,

    /// An event is taken (every cycle it is offered: no back-pressure).
    pub s_valid: Signal<In, Bit>,
    /// Its connection; at or past `connections` it is reported bad and touches nothing.
    pub s_conn: Signal<In, Bits<16>>,
    /// The event is an open: the connection's unit starts afresh (the ACK fields are ignored).
    pub s_open: Signal<In, Bit>,
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

    /// The event taken `LATENCY` cycles ago (every `m_*` 0 when none).
    pub m_valid: Signal<Out, Bit>,
    /// Its connection was out of range (every other `m_*` but `m_conn` 0).
    pub m_bad: Signal<Out, Bit>,
    pub m_conn: Signal<Out, Bits<16>>,
    /// The connection's window after the event, cwnd format.
    pub m_cwnd_q: Signal<Out, Bits<32>>,
    /// The window in bytes.
    pub m_cwnd_bytes: Signal<Out, Bits<32>>,
    /// 0 additive, 1 proportional, 2 achievedBDP cut, 3 multiplicative, 4 hold, 5 malformed,
    /// 6 opened.
    pub m_branch: Signal<Out, Bits<3>>,
    /// The fairness increase was applied.
    pub m_fairness: Signal<Out, Bit>,
    pub m_achieved_bdp: Signal<Out, Bits<32>>,
    pub m_base_rtt: Signal<Out, Bits<32>>,
    /// `avg_delay`, `delay_frac_bits` fraction bits.
    pub m_avg_delay_q: Signal<Out, Bits<32>>,
    /// Malformed ACKs so far (all connections).
    pub status_malformed_count: Signal<Out, Bits<32>>,

    cfg_conns: Constant<Bits<17>>,
    /// Distance `d` (1 to 17) is bit `d - 1`: all ones but the fault variant's distance.
    cfg_hit_mask: Constant<Bits<17>>,
    /// Distances 1 to 13: an open there makes S2's window in flight the fresh one.
    cfg_near_mask: Constant<Bits<17>>,
    /// The fresh values G1 and the window are kept XOR with (so a zero RAM is fresh).
    cfg_fresh_g1: Constant<Bits<64>>,
    cfg_fresh_cwnd: Constant<Bits<32>>,
    c_rtt_max: Constant<Bits<32>>,
    c_tq: Constant<Bits<32>>,
    c_tq_high: Constant<Bits<32>>,
    c_tq_q: Constant<Bits<32>>,
    c_ewma_shift: Constant<Bits<8>>,
    c_cf: Constant<Bits<8>>,
    c_df: Constant<Bits<8>>,
    c_max_cwnd: Constant<Bits<32>>,
    c_max_cwnd40: Constant<Bits<40>>,
    c_bdp_limit: Constant<Bits<32>>,
    c_sat32: Constant<Bits<64>>,
    c_one32: Constant<Bits<32>>,
    c_fair_bit: Constant<Bits<64>>,
    c_arm_additive: Constant<Bits<3>>,
    c_arm_proportional: Constant<Bits<3>>,
    c_arm_achieved_bdp_cut: Constant<Bits<3>>,
    c_arm_multiplicative: Constant<Bits<3>>,
    c_arm_hold: Constant<Bits<3>>,
    c_arm_malformed: Constant<Bits<3>>,
    c_arm_opened: Constant<Bits<3>>,

    ram_g1: ContextRam<64>,
    ram_g2a: ContextRam<64>,
    ram_g2b: ContextRam<96>,
    ram_g4: ContextRam<32>,
    ram_cwa: ContextRam<32>,
    ram_cwb: ContextRam<32>,

    malformed_reg: DFF<Bits<32>>,

    // I -> R (the RAMs read for F; their data is registered in the EBRs).
    r_ok: DFF<Bit>,
    r_bad: DFF<Bit>,
    r_conn: DFF<Bits<16>>,
    r_open: DFF<Bit>,
    r_malf: DFF<Bit>,
    r_now: DFF<Bits<32>>,
    r_rtt: DFF<Bits<32>>,
    r_ecn: DFF<Bit>,
    r_acked: DFF<Bits<32>>,
    r_probe: DFF<Bit>,
    r_hit: DFF<Bits<17>>,
    r_near: DFF<Bit>,

    // R -> F: the same, and the records G1, G2a, G4 as the RAMs hold them.
    f_ok: DFF<Bit>,
    f_bad: DFF<Bit>,
    f_conn: DFF<Bits<16>>,
    f_open: DFF<Bit>,
    f_malf: DFF<Bit>,
    f_now: DFF<Bits<32>>,
    f_rtt: DFF<Bits<32>>,
    f_ecn: DFF<Bit>,
    f_acked: DFF<Bits<32>>,
    f_probe: DFF<Bit>,
    /// Bit `d - 1`: the event `d` ahead (1 to 17) is on this connection (both in range).
    f_hit: DFF<Bits<17>>,
    /// An open of this connection is 1 to 13 ahead.
    f_near: DFF<Bit>,
    f_g1_raw: DFF<Bits<64>>,
    f_g2a_raw: DFF<Bits<64>>,
    f_g4_raw: DFF<Bits<32>>,

    // F -> S1: the inputs again, G1, G2a and G4 as the RAMs and the writes 2-4, 3-5 and 5-7
    // ahead left them.
    x1_ok: DFF<Bit>,
    x1_bad: DFF<Bit>,
    x1_conn: DFF<Bits<16>>,
    x1_open: DFF<Bit>,
    x1_malf: DFF<Bit>,
    x1_now: DFF<Bits<32>>,
    x1_rtt: DFF<Bits<32>>,
    x1_ecn: DFF<Bit>,
    x1_acked: DFF<Bits<32>>,
    x1_probe: DFF<Bit>,
    x1_hit: DFF<Bits<17>>,
    x1_near: DFF<Bit>,
    /// {base + tq (63:32), base (31:0)}.
    x1_g1: DFF<Bits<64>>,
    /// {last fairness (63:32), clear time (31:0)}.
    x1_g2a: DFF<Bits<64>>,
    x1_g4: DFF<Bits<32>>,
    /// G2b and the window's copy B as the RAMs hold them (read at R).
    x1_g2b_raw: DFF<Bits<96>>,
    x1_cwb_raw: DFF<Bits<32>>,
    /// S1's `rtt < base` against the record the write 1 ahead can hold, compared at F where
    /// each is a register: below that event's base as it found it (`cur`), below its RTT, below
    /// a fresh base. S1 only picks one (the base RTT's min is S1's loop).
    x1_lt_cur: DFF<Bit>,
    x1_lt_rtt: DFF<Bit>,
    x1_lt_fresh: DFF<Bit>,
    /// The RTT + target_Qdelay (a base RTT + tq, should the RTT become the base).
    x1_bt_rtt: DFF<Bits<32>>,
    /// The RTT below the merged record's base RTT.
    x1_below_x: DFF<Bits<1>>,
    /// S1's one-hot selects of the timers' compares: {the write 1 ahead's base, the merged
    /// one} x {the merged record's age, the write 2 ahead's from its `now`, from the record it
    /// found} (bits 0-5: w/x, x/x, w/n, x/n, w/c, x/c), and of the RTT's compares (bits 0-2:
    /// x, n, c); for the clear timer (`sc`, `rc`) and the fairness timer (`sf`, `rf`).
    x1_sc: DFF<Bits<6>>,
    x1_sf: DFF<Bits<6>>,
    x1_rc: DFF<Bits<3>>,
    x1_rf: DFF<Bits<3>>,
    /// The timers' ages (`now` less the clear time, less the fairness time) from the merged
    /// record; from the `now` of the event 2 ahead; from the record that event found; `now`
    /// less the `now` of the event 1 ahead.
    x1_age_clr_x: DFF<Bits<32>>,
    x1_age_fair_x: DFF<Bits<32>>,
    x1_age_now2: DFF<Bits<32>>,
    x1_age_clr_c: DFF<Bits<32>>,
    x1_age_fair_c: DFF<Bits<32>>,
    x1_d_prev: DFF<Bits<32>>,

    /// The writes of the last cycle, and whether they were made (the forwarding's source):
    /// S1's G1, S2's G2a and G2b, S4's G4 (only a decrease or an open writes it), S15's window.
    w1: DFF<Bits<64>>,
    w1_en: DFF<Bit>,
    w2a: DFF<Bits<64>>,
    w2b: DFF<Bits<96>>,
    w2_en: DFF<Bit>,
    w4: DFF<Bits<32>>,
    w4_en: DFF<Bit>,
    w15: DFF<Bits<32>>,
    w15_en: DFF<Bit>,
    /// The writes' connections: the RAMs are written from these registers a cycle after the
    /// stage (so no RAM write port is in a loop), and what they wrote the cycle before is kept
    /// (`*_d`) for the merges, which then reach one event further.
    w1_conn: DFF<Bits<16>>,
    w2_conn: DFF<Bits<16>>,
    w4_conn: DFF<Bits<16>>,
    w15_conn: DFF<Bits<16>>,
    w1_d: DFF<Bits<64>>,
    w2a_d: DFF<Bits<64>>,
    w2b_d: DFF<Bits<96>>,
    w4_d: DFF<Bits<32>>,
    w4_en_d: DFF<Bit>,
    w15_d: DFF<Bits<32>>,
    /// Two cycles older (the RAMs' registered read misses one write more).
    w1_dd: DFF<Bits<64>>,
    w2a_dd: DFF<Bits<64>>,
    w2b_dd: DFF<Bits<96>>,
    w4_dd: DFF<Bits<32>>,
    w4_en_dd: DFF<Bit>,
    w15_dd: DFF<Bits<32>>,
    /// The window's copy A as the RAM holds it (read at S12).
    p13_cw_raw: DFF<Bits<32>>,

    // S1 -> S2 (as the stand-alone unit, plus the connection's tags and merged state).
    p1_ok: DFF<Bit>,
    p1_bad: DFF<Bit>,
    p1_conn: DFF<Bits<16>>,
    p1_open: DFF<Bit>,
    p1_hit: DFF<Bits<17>>,
    p1_near: DFF<Bit>,
    p1_malf: DFF<Bit>,
    /// The event took its RTT as the base RTT (below it, well-formed, not an open).
    p1_took: DFF<Bit>,
    p1_now: DFF<Bits<32>>,
    p1_acked: DFF<Bits<32>>,
    p1_ecn: DFF<Bit>,
    p1_add: DFF<Bits<32>>,
    p1_base: DFF<Bits<32>>,
    p1_dq_s: DFF<Bits<32>>,
    p1_clr_reg: DFF<Bit>,
    p1_clr_prev: DFF<Bit>,
    /// The fairness timer's compares (from the record's time, and from the `now` of the event
    /// 1 ahead), as the stand-alone unit's stage 1.
    p1_fair_reg: DFF<Bit>,
    p1_fair_prev: DFF<Bit>,
    p1_d_prev: DFF<Bits<32>>,
    p1_d_dec: DFF<Bits<32>>,
    p1_d_prev2: DFF<Bits<32>>,
    p1_d_prev3: DFF<Bits<32>>,
    p1_tqmd: DFF<Bits<32>>,
    p1_delay: DFF<Bits<32>>,
    /// G2a as of the events 2 or more ahead; G2b as of those 2 or more ahead; the window
    /// as of those 15 or more ahead (copy B).
    p1_g2a: DFF<Bits<64>>,
    p1_g2b: DFF<Bits<96>>,
    p1_w: DFF<Bits<32>>,
    /// The event that left S2 last cycle cleared achievedBDP / took the fairness turn (an
    /// open counts as both).
    s2_cleared_reg: DFF<Bit>,
    s2_faired_reg: DFF<Bit>,
    /// The events that left S4 one and two cycles ago decreased (or opened).
    s4_dec1_reg: DFF<Bit>,
    s4_dec2_reg: DFF<Bit>,

    // S2 -> S3.
    p2_tag: DFF<Bits<23>>,
    p2_now: DFF<Bits<32>>,
    p2_malf: DFF<Bit>,
    p2_ecn: DFF<Bit>,
    p2_gt_tqh: DFF<Bit>,
    p2_lt_tq: DFF<Bit>,
    p2_gt_tq: DFF<Bit>,
    p2_cd0: DFF<Bit>,
    p2_cd1: DFF<Bit>,
    p2_cd2: DFF<Bit>,
    p2_cd3: DFF<Bit>,
    p2_fair: DFF<Bit>,
    p2_o: DFF<Bits<64>>,
    p2_ach_new: DFF<Bits<32>>,
    p2_ach_old: DFF<Bits<32>>,
    p2_ach_sel: DFF<Bit>,
    p2_lagw: DFF<Bits<32>>,
    p2_tqmd: DFF<Bits<32>>,
    p2_acked: DFF<Bits<32>>,

    // S3 -> S4.
    p3_tag: DFF<Bits<23>>,
    p3_o: DFF<Bits<64>>,
    p3_now: DFF<Bits<32>>,
    p3_malf: DFF<Bit>,
    p3_ecn: DFF<Bit>,
    p3_gt_tqh: DFF<Bit>,
    p3_lt_tq: DFF<Bit>,
    p3_gt_tq: DFF<Bit>,
    p3_can_dec: DFF<Bit>,
    p3_avg_gt: DFF<Bit>,
    p3_ach_lt: DFF<Bit>,
    p3_q: DFF<Bits<64>>,
    p3_lagw: DFF<Bits<32>>,
    p3_acked: DFF<Bits<32>>,
    p3_top_c: DFF<Bits<32>>,
    p3_top_a: DFF<Bits<32>>,

    /// S4 to S14: the tags {hit 4 (22), hit 2 (21), hit 1 (20), open (19), bad (18), hit 3
    /// (17), ok (16), conn (15:0)} and {base, avg} ride along beside the amounts.
    p4_tag: DFF<Bits<23>>,
    p5_tag: DFF<Bits<23>>,
    p6_tag: DFF<Bits<23>>,
    p7_tag: DFF<Bits<23>>,
    p8_tag: DFF<Bits<23>>,
    p9_tag: DFF<Bits<23>>,
    p10_tag: DFF<Bits<23>>,
    p11_tag: DFF<Bits<23>>,
    p12_tag: DFF<Bits<23>>,
    p13_tag: DFF<Bits<23>>,
    p14_tag: DFF<Bits<23>>,
    p4_o: DFF<Bits<64>>,
    p5_o: DFF<Bits<64>>,
    p6_o: DFF<Bits<64>>,
    p7_o: DFF<Bits<64>>,
    p8_o: DFF<Bits<64>>,
    p9_o: DFF<Bits<64>>,
    p10_o: DFF<Bits<64>>,
    p11_o: DFF<Bits<64>>,
    p12_o: DFF<Bits<64>>,
    p13_o: DFF<Bits<64>>,
    p14_o: DFF<Bits<64>>,
    /// The window as the RAM (copy A) and the write 2 ahead left it.
    p14_cw: DFF<Bits<32>>,

    /// S15 -> S16: the results but the window (which S16 takes from `w15`).
    o16_valid: DFF<Bit>,
    o16_bad: DFF<Bit>,
    o16_conn: DFF<Bits<16>>,
    o16_branch: DFF<Bits<3>>,
    o16_fairness: DFF<Bit>,
    o16_achieved: DFF<Bits<32>>,
    o16_base_rtt: DFF<Bits<32>>,
    o16_avg: DFF<Bits<32>>,
    m_valid_reg: DFF<Bit>,
    m_bad_reg: DFF<Bit>,
    m_conn_reg: DFF<Bits<16>>,
    m_cwnd_q_reg: DFF<Bits<32>>,
    m_cwnd_bytes_reg: DFF<Bits<32>>,
    m_branch_reg: DFF<Bits<3>>,
    m_fairness_reg: DFF<Bit>,
    m_achieved_reg: DFF<Bits<32>>,
    m_base_rtt_reg: DFF<Bits<32>>,
    m_avg_reg: DFF<Bits<32>>,

    msb_c: MsbOneHot32,
    msb_a: MsbOneHot32,
    amounts: CwndAmounts<R>,

    // I.
    i_ok: Signal<Local, Bit>,
    i_hit: Signal<Local, Bits<17>>,
    i_opens: Signal<Local, Bits<17>>,
    // F.
    g1_f: Signal<Local, Bits<64>>,
    g2a_f: Signal<Local, Bits<64>>,
    g4_f: Signal<Local, Bits<32>>,
    lt_w_f: Signal<Local, Bits<1>>,
    lt_x_f: Signal<Local, Bits<1>>,
    lt_rtt_f: Signal<Local, Bits<1>>,
    lt_fresh_f: Signal<Local, Bits<1>>,
    age_clr_w_f: Signal<Local, Bits<32>>,
    age_clr_p_f: Signal<Local, Bits<32>>,
    age_fair_w_f: Signal<Local, Bits<32>>,
    age_fair_p_f: Signal<Local, Bits<32>>,
    // S1.
    hit1_1: Signal<Local, Bit>,
    /// The base RTT and base + tq of the write 1 ahead (`_w`) and of the merged record (`_x`),
    /// and each compare and difference made from both.
    base_w: Signal<Local, Bits<32>>,
    base_x: Signal<Local, Bits<32>>,
    base_tq_w: Signal<Local, Bits<32>>,
    base_tq_x: Signal<Local, Bits<32>>,
    clr_w: Signal<Local, Bits<1>>,
    clr_w_n: Signal<Local, Bits<1>>,
    clr_x_n: Signal<Local, Bits<1>>,
    clr_w_c: Signal<Local, Bits<1>>,
    clr_x_c: Signal<Local, Bits<1>>,
    clr_rtt_n: Signal<Local, Bits<1>>,
    clr_rtt_c: Signal<Local, Bits<1>>,
    fair_w_n: Signal<Local, Bits<1>>,
    fair_x_n: Signal<Local, Bits<1>>,
    fair_w_c: Signal<Local, Bits<1>>,
    fair_x_c: Signal<Local, Bits<1>>,
    fair_rtt_n: Signal<Local, Bits<1>>,
    fair_rtt_c: Signal<Local, Bits<1>>,
    clr_x: Signal<Local, Bits<1>>,
    clr_prev_w: Signal<Local, Bits<1>>,
    clr_prev_x: Signal<Local, Bits<1>>,
    fair_w: Signal<Local, Bits<1>>,
    fair_x: Signal<Local, Bits<1>>,
    fair_prev_w: Signal<Local, Bits<1>>,
    fair_prev_x: Signal<Local, Bits<1>>,
    below_w: Signal<Local, Bit>,
    delay_w: Signal<Local, Bits<32>>,
    delay_x: Signal<Local, Bits<32>>,
    tqmd_w: Signal<Local, Bits<32>>,
    tqmd_x: Signal<Local, Bits<32>>,
    tqmd: Signal<Local, Bits<32>>,
    base_cur: Signal<Local, Bits<32>>,
    base_tq_cur: Signal<Local, Bits<32>>,
    g2a_1: Signal<Local, Bits<64>>,
    g4_1: Signal<Local, Bits<32>>,
    g2b_1: Signal<Local, Bits<96>>,
    w_1: Signal<Local, Bits<32>>,
    base_new: Signal<Local, Bits<32>>,
    g1_new: Signal<Local, Bits<64>>,
    base_tq_new: Signal<Local, Bits<32>>,
    delay: Signal<Local, Bits<32>>,
    rtt_below: Signal<Local, Bit>,
    clr_sel: Signal<Local, Bit>,
    clr_rtt_sel: Signal<Local, Bit>,
    clr_prev_base: Signal<Local, Bits<1>>,
    clr_rtt: Signal<Local, Bits<1>>,
    clr_prev_rtt: Signal<Local, Bits<1>>,
    fair_sel: Signal<Local, Bit>,
    fair_rtt_sel: Signal<Local, Bit>,
    fair_prev_base: Signal<Local, Bits<1>>,
    fair_rtt: Signal<Local, Bits<1>>,
    fair_prev_rtt: Signal<Local, Bits<1>>,
    // S2.
    hit1_2: Signal<Local, Bit>,
    g2a_cur: Signal<Local, Bits<64>>,
    g2b_cur: Signal<Local, Bits<96>>,
    avg_cur: Signal<Local, Bits<32>>,
    rx_cur: Signal<Local, Bits<32>>,
    ach_cur: Signal<Local, Bits<32>>,
    s2_go: Signal<Local, Bit>,
    can_clear: Signal<Local, Bit>,
    can_fair: Signal<Local, Bit>,
    rx_sum: Signal<Local, Bits<64>>,
    rx_sum_w: Signal<Local, Bits<64>>,
    rx_sum_p: Signal<Local, Bits<64>>,
    avg_w: Signal<Local, Bits<32>>,
    avg_p: Signal<Local, Bits<32>>,
    avg_new_w: Signal<Local, Bits<32>>,
    avg_new_p: Signal<Local, Bits<32>>,
    rx_sat: Signal<Local, Bits<32>>,
    avg_new: Signal<Local, Bits<32>>,
    out_avg: Signal<Local, Bits<32>>,
    out_fair: Signal<Local, Bit>,
    g2a_new: Signal<Local, Bits<64>>,
    g2b_new: Signal<Local, Bits<96>>,
    clear_new: Signal<Local, Bits<32>>,
    fair_new: Signal<Local, Bits<32>>,
    rx_new: Signal<Local, Bits<32>>,
    ach_new: Signal<Local, Bits<32>>,
    lagw: Signal<Local, Bits<32>>,
    s2_cleared: Signal<Local, Bit>,
    s2_faired: Signal<Local, Bit>,
    h1_f: Signal<Local, Bit>,
    h2_f: Signal<Local, Bit>,
    /// {the merged base (1), the write 1 ahead's (0)} as two one-hot bits.
    hsel_x: Signal<Local, Bits<2>>,
    tag2: Signal<Local, Bits<23>>,
    // S3.
    avg3: Signal<Local, Bits<32>>,
    can_dec3: Signal<Local, Bit>,
    ach3: Signal<Local, Bits<32>>,
    q_pack: Signal<Local, Bits<64>>,
    // S4.
    branch: Signal<Local, Bits<3>>,
    decreased: Signal<Local, Bit>,
    s4_decreased: Signal<Local, Bit>,
    // S15.
    loop_sum: Signal<Local, Bits<40>>,
    loop_sum_w: Signal<Local, Bits<40>>,
    loop_sum_p: Signal<Local, Bits<40>>,
    gt_hi_w: Signal<Local, Bits<1>>,
    gt_hi_p: Signal<Local, Bits<1>>,
    lt_lo_w: Signal<Local, Bits<1>>,
    lt_lo_p: Signal<Local, Bits<1>>,
    gt_hi32: Signal<Local, Bits<1>>,
    lt_lo32: Signal<Local, Bits<1>>,
    over_hi: Signal<Local, Bit>,
    under_lo: Signal<Local, Bit>,
    cwnd_new: Signal<Local, Bits<32>>,
    /// Tag bits of the events at S14 and S15.
    ok15: Signal<Local, Bit>,
    open15: Signal<Local, Bit>,
}

impl<const R: usize> NicCwndRtl<R> {
    /// `no_forward`: the fault variant with the forwarding at that distance (1..=17) off.
    pub fn new(k: &CwndConstants, connections: u32, no_forward: Option<u32>) -> Self {
        let c8 = |v: u32| Constant::new(bits::<8>(v as u64));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let hit_mask = match no_forward {
            Some(d) => 0x1_FFFF & !(1u64 << (d - 1)),
            None => 0x1_FFFF,
        };
        let depth = connections as usize;
        let fresh_base_tq = RTT_MAX + k.tq_ns as u64;
        NicCwndRtl {
            clock: Default::default(),
            s_valid: Default::default(),
            s_conn: Default::default(),
            s_open: Default::default(),
            s_now: Default::default(),
            s_rtt: Default::default(),
            s_ecn: Default::default(),
            s_acked_bytes: Default::default(),
            s_is_probe_ack: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_conn: Default::default(),
            m_cwnd_q: Default::default(),
            m_cwnd_bytes: Default::default(),
            m_branch: Default::default(),
            m_fairness: Default::default(),
            m_achieved_bdp: Default::default(),
            m_base_rtt: Default::default(),
            m_avg_delay_q: Default::default(),
            status_malformed_count: Default::default(),
            cfg_conns: Constant::new(bits::<17>(connections as u64)),
            cfg_hit_mask: Constant::new(bits::<17>(hit_mask)),
            cfg_near_mask: Constant::new(bits::<17>((1 << 13) - 1)),
            cfg_fresh_g1: Constant::new(bits::<64>(fresh_base_tq << 32 | RTT_MAX)),
            cfg_fresh_cwnd: c32(k.max_cwnd_q as u64),
            c_rtt_max: c32(RTT_MAX),
            c_tq: c32(k.tq_ns as u64),
            c_tq_high: c32(k.tq_high_ns as u64),
            c_tq_q: c32((k.tq_ns as u64) << k.delay_frac),
            c_ewma_shift: c8(k.ewma_shift),
            c_cf: c8(k.cwnd_frac),
            c_df: c8(k.delay_frac),
            c_max_cwnd: c32(k.max_cwnd_q as u64),
            c_max_cwnd40: Constant::new(bits::<40>(k.max_cwnd_q as u64)),
            c_bdp_limit: c32(k.bdp_cut_limit() as u64),
            c_sat32: Constant::new(bits::<64>(0xFFFF_FFFF)),
            c_one32: c32(1),
            c_fair_bit: Constant::new(bits::<64>(1 << 3)),
            c_arm_additive: Constant::new(bits::<3>(BRANCH_ADDITIVE)),
            c_arm_proportional: Constant::new(bits::<3>(BRANCH_PROPORTIONAL)),
            c_arm_achieved_bdp_cut: Constant::new(bits::<3>(BRANCH_ACHIEVED_BDP_CUT)),
            c_arm_multiplicative: Constant::new(bits::<3>(BRANCH_MULTIPLICATIVE)),
            c_arm_hold: Constant::new(bits::<3>(BRANCH_HOLD)),
            c_arm_malformed: Constant::new(bits::<3>(BRANCH_MALFORMED)),
            c_arm_opened: Constant::new(bits::<3>(BRANCH_OPENED)),
            ram_g1: ContextRam::new(depth).with_output_register_in_ebr(),
            ram_g2a: ContextRam::new(depth).with_output_register_in_ebr(),
            ram_g2b: ContextRam::new(depth).with_output_register_in_ebr(),
            ram_g4: ContextRam::new(depth).with_output_register_in_ebr(),
            ram_cwa: ContextRam::new(depth).with_output_register_in_ebr(),
            ram_cwb: ContextRam::new(depth).with_output_register_in_ebr(),
            malformed_reg: Default::default(),
            r_ok: Default::default(),
            r_bad: Default::default(),
            r_conn: Default::default(),
            r_open: Default::default(),
            r_malf: Default::default(),
            r_now: Default::default(),
            r_rtt: Default::default(),
            r_ecn: Default::default(),
            r_acked: Default::default(),
            r_probe: Default::default(),
            r_hit: Default::default(),
            r_near: Default::default(),
            f_g1_raw: Default::default(),
            f_g2a_raw: Default::default(),
            f_g4_raw: Default::default(),
            x1_g2b_raw: Default::default(),
            x1_cwb_raw: Default::default(),
            w1_dd: Default::default(),
            w2a_dd: Default::default(),
            w2b_dd: Default::default(),
            w4_dd: Default::default(),
            w4_en_dd: Default::default(),
            w15_dd: Default::default(),
            p13_cw_raw: Default::default(),
            f_ok: Default::default(),
            f_bad: Default::default(),
            f_conn: Default::default(),
            f_open: Default::default(),
            f_malf: Default::default(),
            f_now: Default::default(),
            f_rtt: Default::default(),
            f_ecn: Default::default(),
            f_acked: Default::default(),
            f_probe: Default::default(),
            f_hit: Default::default(),
            f_near: Default::default(),
            x1_ok: Default::default(),
            x1_bad: Default::default(),
            x1_conn: Default::default(),
            x1_open: Default::default(),
            x1_malf: Default::default(),
            x1_now: Default::default(),
            x1_rtt: Default::default(),
            x1_ecn: Default::default(),
            x1_acked: Default::default(),
            x1_probe: Default::default(),
            x1_hit: Default::default(),
            x1_near: Default::default(),
            x1_lt_cur: Default::default(),
            x1_lt_rtt: Default::default(),
            x1_lt_fresh: Default::default(),
            x1_bt_rtt: Default::default(),
            x1_below_x: Default::default(),
            x1_sc: Default::default(),
            x1_sf: Default::default(),
            x1_rc: Default::default(),
            x1_rf: Default::default(),
            x1_age_clr_x: Default::default(),
            x1_age_fair_x: Default::default(),
            x1_age_now2: Default::default(),
            x1_age_clr_c: Default::default(),
            x1_age_fair_c: Default::default(),
            x1_d_prev: Default::default(),
            x1_g1: Default::default(),
            x1_g2a: Default::default(),
            x1_g4: Default::default(),
            w1: Default::default(),
            w1_en: Default::default(),
            w2a: Default::default(),
            w2b: Default::default(),
            w2_en: Default::default(),
            w4: Default::default(),
            w4_en: Default::default(),
            w15: Default::default(),
            w15_en: Default::default(),
            w1_conn: Default::default(),
            w2_conn: Default::default(),
            w4_conn: Default::default(),
            w15_conn: Default::default(),
            w1_d: Default::default(),
            w2a_d: Default::default(),
            w2b_d: Default::default(),
            w4_d: Default::default(),
            w4_en_d: Default::default(),
            w15_d: Default::default(),
            p1_ok: Default::default(),
            p1_bad: Default::default(),
            p1_conn: Default::default(),
            p1_open: Default::default(),
            p1_hit: Default::default(),
            p1_near: Default::default(),
            p1_malf: Default::default(),
            p1_took: Default::default(),
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
            p1_d_dec: Default::default(),
            p1_d_prev2: Default::default(),
            p1_d_prev3: Default::default(),
            p1_tqmd: Default::default(),
            p1_delay: Default::default(),
            p1_g2a: Default::default(),
            p1_g2b: Default::default(),
            p1_w: Default::default(),
            s2_cleared_reg: Default::default(),
            s2_faired_reg: Default::default(),
            s4_dec1_reg: Default::default(),
            s4_dec2_reg: Default::default(),
            p2_tag: Default::default(),
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
            p2_o: Default::default(),
            p2_ach_new: Default::default(),
            p2_ach_old: Default::default(),
            p2_ach_sel: Default::default(),
            p2_lagw: Default::default(),
            p2_tqmd: Default::default(),
            p2_acked: Default::default(),
            p3_tag: Default::default(),
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
            p3_acked: Default::default(),
            p3_top_c: Default::default(),
            p3_top_a: Default::default(),
            p4_tag: Default::default(),
            p5_tag: Default::default(),
            p6_tag: Default::default(),
            p7_tag: Default::default(),
            p8_tag: Default::default(),
            p9_tag: Default::default(),
            p10_tag: Default::default(),
            p11_tag: Default::default(),
            p12_tag: Default::default(),
            p13_tag: Default::default(),
            p14_tag: Default::default(),
            p4_o: Default::default(),
            p5_o: Default::default(),
            p6_o: Default::default(),
            p7_o: Default::default(),
            p8_o: Default::default(),
            p9_o: Default::default(),
            p10_o: Default::default(),
            p11_o: Default::default(),
            p12_o: Default::default(),
            p13_o: Default::default(),
            p14_o: Default::default(),
            p14_cw: Default::default(),
            o16_valid: Default::default(),
            o16_bad: Default::default(),
            o16_conn: Default::default(),
            o16_branch: Default::default(),
            o16_fairness: Default::default(),
            o16_achieved: Default::default(),
            o16_base_rtt: Default::default(),
            o16_avg: Default::default(),
            m_valid_reg: Default::default(),
            m_bad_reg: Default::default(),
            m_conn_reg: Default::default(),
            m_cwnd_q_reg: Default::default(),
            m_cwnd_bytes_reg: Default::default(),
            m_branch_reg: Default::default(),
            m_fairness_reg: Default::default(),
            m_achieved_reg: Default::default(),
            m_base_rtt_reg: Default::default(),
            m_avg_reg: Default::default(),
            msb_c: Default::default(),
            msb_a: Default::default(),
            amounts: CwndAmounts::new(k, false),
            i_ok: Default::default(),
            i_hit: Default::default(),
            i_opens: Default::default(),
            g1_f: Default::default(),
            g2a_f: Default::default(),
            g4_f: Default::default(),
            hit1_1: Default::default(),
            base_w: Default::default(),
            base_x: Default::default(),
            base_tq_w: Default::default(),
            base_tq_x: Default::default(),
            clr_w: Default::default(),
            clr_w_n: Default::default(),
            clr_x_n: Default::default(),
            clr_w_c: Default::default(),
            clr_x_c: Default::default(),
            clr_rtt_n: Default::default(),
            clr_rtt_c: Default::default(),
            fair_w_n: Default::default(),
            fair_x_n: Default::default(),
            fair_w_c: Default::default(),
            fair_x_c: Default::default(),
            fair_rtt_n: Default::default(),
            fair_rtt_c: Default::default(),
            clr_x: Default::default(),
            clr_prev_w: Default::default(),
            clr_prev_x: Default::default(),
            fair_w: Default::default(),
            fair_x: Default::default(),
            fair_prev_w: Default::default(),
            fair_prev_x: Default::default(),
            below_w: Default::default(),
            lt_w_f: Default::default(),
            lt_x_f: Default::default(),
            lt_rtt_f: Default::default(),
            lt_fresh_f: Default::default(),
            age_clr_w_f: Default::default(),
            age_clr_p_f: Default::default(),
            age_fair_w_f: Default::default(),
            age_fair_p_f: Default::default(),
            delay_w: Default::default(),
            delay_x: Default::default(),
            tqmd_w: Default::default(),
            tqmd_x: Default::default(),
            tqmd: Default::default(),
            base_cur: Default::default(),
            base_tq_cur: Default::default(),
            g2a_1: Default::default(),
            g4_1: Default::default(),
            g2b_1: Default::default(),
            w_1: Default::default(),
            base_new: Default::default(),
            g1_new: Default::default(),
            base_tq_new: Default::default(),
            delay: Default::default(),
            rtt_below: Default::default(),
            clr_sel: Default::default(),
            clr_rtt_sel: Default::default(),
            clr_prev_base: Default::default(),
            clr_rtt: Default::default(),
            clr_prev_rtt: Default::default(),
            fair_sel: Default::default(),
            fair_rtt_sel: Default::default(),
            fair_prev_base: Default::default(),
            fair_rtt: Default::default(),
            fair_prev_rtt: Default::default(),
            hit1_2: Default::default(),
            g2a_cur: Default::default(),
            g2b_cur: Default::default(),
            avg_cur: Default::default(),
            rx_cur: Default::default(),
            ach_cur: Default::default(),
            s2_go: Default::default(),
            can_clear: Default::default(),
            can_fair: Default::default(),
            rx_sum: Default::default(),
            rx_sum_w: Default::default(),
            rx_sum_p: Default::default(),
            avg_w: Default::default(),
            avg_p: Default::default(),
            avg_new_w: Default::default(),
            avg_new_p: Default::default(),
            rx_sat: Default::default(),
            avg_new: Default::default(),
            out_avg: Default::default(),
            out_fair: Default::default(),
            g2a_new: Default::default(),
            g2b_new: Default::default(),
            clear_new: Default::default(),
            fair_new: Default::default(),
            rx_new: Default::default(),
            ach_new: Default::default(),
            lagw: Default::default(),
            s2_cleared: Default::default(),
            s2_faired: Default::default(),
            h1_f: Default::default(),
            h2_f: Default::default(),
            hsel_x: Default::default(),
            tag2: Default::default(),
            avg3: Default::default(),
            can_dec3: Default::default(),
            ach3: Default::default(),
            q_pack: Default::default(),
            branch: Default::default(),
            decreased: Default::default(),
            s4_decreased: Default::default(),
            loop_sum: Default::default(),
            loop_sum_w: Default::default(),
            loop_sum_p: Default::default(),
            gt_hi_w: Default::default(),
            gt_hi_p: Default::default(),
            lt_lo_w: Default::default(),
            lt_lo_p: Default::default(),
            gt_hi32: Default::default(),
            lt_lo32: Default::default(),
            over_hi: Default::default(),
            under_lo: Default::default(),
            cwnd_new: Default::default(),
            ok15: Default::default(),
            open15: Default::default(),
        }
    }
}

impl<const R: usize> Logic for NicCwndRtl<R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            malformed_reg,
            r_ok,
            r_bad,
            r_conn,
            r_open,
            r_malf,
            r_now,
            r_rtt,
            r_ecn,
            r_acked,
            r_probe,
            r_hit,
            r_near,
            f_g1_raw,
            f_g2a_raw,
            f_g4_raw,
            x1_g2b_raw,
            x1_cwb_raw,
            w1_dd,
            w2a_dd,
            w2b_dd,
            w4_dd,
            w4_en_dd,
            w15_dd,
            p13_cw_raw,
            f_ok,
            f_bad,
            f_conn,
            f_open,
            f_malf,
            f_now,
            f_rtt,
            f_ecn,
            f_acked,
            f_probe,
            f_hit,
            f_near,
            x1_ok,
            x1_bad,
            x1_conn,
            x1_open,
            x1_malf,
            x1_now,
            x1_rtt,
            x1_ecn,
            x1_acked,
            x1_probe,
            x1_hit,
            x1_near,
            x1_g1,
            x1_g2a,
            x1_g4,
            x1_lt_cur,
            x1_lt_rtt,
            x1_lt_fresh,
            x1_bt_rtt,
            x1_below_x,
            x1_sc,
            x1_sf,
            x1_rc,
            x1_rf,
            x1_age_clr_x,
            x1_age_fair_x,
            x1_age_now2,
            x1_age_clr_c,
            x1_age_fair_c,
            x1_d_prev,
            w1,
            w1_en,
            w2a,
            w2b,
            w2_en,
            w4,
            w4_en,
            w15,
            w15_en,
            w1_conn,
            w2_conn,
            w4_conn,
            w15_conn,
            w1_d,
            w2a_d,
            w2b_d,
            w4_d,
            w4_en_d,
            w15_d,
            p1_ok,
            p1_bad,
            p1_conn,
            p1_open,
            p1_hit,
            p1_near,
            p1_malf,
            p1_took,
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
            p1_d_dec,
            p1_d_prev2,
            p1_d_prev3,
            p1_tqmd,
            p1_delay,
            p1_g2a,
            p1_g2b,
            p1_w,
            s2_cleared_reg,
            s2_faired_reg,
            s4_dec1_reg,
            s4_dec2_reg,
            p2_tag,
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
            p2_o,
            p2_ach_new,
            p2_ach_old,
            p2_ach_sel,
            p2_lagw,
            p2_tqmd,
            p2_acked,
            p3_tag,
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
            p3_acked,
            p3_top_c,
            p3_top_a,
            p4_tag,
            p5_tag,
            p6_tag,
            p7_tag,
            p8_tag,
            p9_tag,
            p10_tag,
            p11_tag,
            p12_tag,
            p13_tag,
            p14_tag,
            p4_o,
            p5_o,
            p6_o,
            p7_o,
            p8_o,
            p9_o,
            p10_o,
            p11_o,
            p12_o,
            p13_o,
            p14_o,
            p14_cw,
            o16_valid,
            o16_bad,
            o16_conn,
            o16_branch,
            o16_fairness,
            o16_achieved,
            o16_base_rtt,
            o16_avg,
            m_valid_reg,
            m_bad_reg,
            m_conn_reg,
            m_cwnd_q_reg,
            m_cwnd_bytes_reg,
            m_branch_reg,
            m_fairness_reg,
            m_achieved_reg,
            m_base_rtt_reg,
            m_avg_reg
        );
        clock!(self, clock, ram_g1, ram_g2a, ram_g2b, ram_g4, ram_cwa, ram_cwb, amounts);
        self.amounts.en.next = true;
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_bad.next = self.m_bad_reg.q.val();
        self.m_conn.next = self.m_conn_reg.q.val();
        self.m_cwnd_q.next = self.m_cwnd_q_reg.q.val();
        self.m_cwnd_bytes.next = self.m_cwnd_bytes_reg.q.val();
        self.m_branch.next = self.m_branch_reg.q.val();
        self.m_fairness.next = self.m_fairness_reg.q.val();
        self.m_achieved_bdp.next = self.m_achieved_reg.q.val();
        self.m_base_rtt.next = self.m_base_rtt_reg.q.val();
        self.m_avg_delay_q.next = self.m_avg_reg.q.val();
        self.status_malformed_count.next = self.malformed_reg.q.val();

        // ---- I: the RAMs read for S1 (G1, G2a, G4); the events ahead on this connection.
        self.i_ok.next =
            self.s_valid.val() & (bit_cast::<17, 16>(self.s_conn.val()) < self.cfg_conns.val());
        self.ram_g1.read_address.next = self.s_conn.val();
        self.ram_g2a.read_address.next = self.s_conn.val();
        self.ram_g4.read_address.next = self.s_conn.val();
        // Bit d - 1: the event d ahead (at R, F, S1, S2, then the tags of S3 to S15).
        self.i_hit.next = 0.into();
        self.i_hit.next = self.i_hit.val().replace_bit(
            0,
            self.r_ok.q.val() & (self.r_conn.q.val() == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            1,
            self.f_ok.q.val() & (self.f_conn.q.val() == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            2,
            self.x1_ok.q.val() & (self.x1_conn.q.val() == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            3,
            self.p1_ok.q.val() & (self.p1_conn.q.val() == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            4,
            self.p2_tag.q.val().get_bit(16)
                & (self.p2_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            5,
            self.p3_tag.q.val().get_bit(16)
                & (self.p3_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            6,
            self.p4_tag.q.val().get_bit(16)
                & (self.p4_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            7,
            self.p5_tag.q.val().get_bit(16)
                & (self.p5_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            8,
            self.p6_tag.q.val().get_bit(16)
                & (self.p6_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            9,
            self.p7_tag.q.val().get_bit(16)
                & (self.p7_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            10,
            self.p8_tag.q.val().get_bit(16)
                & (self.p8_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            11,
            self.p9_tag.q.val().get_bit(16)
                & (self.p9_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            12,
            self.p10_tag.q.val().get_bit(16)
                & (self.p10_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            13,
            self.p11_tag.q.val().get_bit(16)
                & (self.p11_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            14,
            self.p12_tag.q.val().get_bit(16)
                & (self.p12_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            15,
            self.p13_tag.q.val().get_bit(16)
                & (self.p13_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_hit.next = self.i_hit.val().replace_bit(
            16,
            self.p14_tag.q.val().get_bit(16)
                & (self.p14_tag.q.val().get_bits::<16>(0) == self.s_conn.val()),
        );
        self.i_opens.next = 0.into();
        self.i_opens.next = self.i_opens.val().replace_bit(0, self.r_open.q.val());
        self.i_opens.next = self.i_opens.val().replace_bit(1, self.f_open.q.val());
        self.i_opens.next = self.i_opens.val().replace_bit(2, self.x1_open.q.val());
        self.i_opens.next = self.i_opens.val().replace_bit(3, self.p1_open.q.val());
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(4, self.p2_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(5, self.p3_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(6, self.p4_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(7, self.p5_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(8, self.p6_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(9, self.p7_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(10, self.p8_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(11, self.p9_tag.q.val().get_bit(19));
        self.i_opens.next = self
            .i_opens
            .val()
            .replace_bit(12, self.p10_tag.q.val().get_bit(19));
        self.r_ok.d.next = self.i_ok.val();
        self.r_bad.d.next = self.s_valid.val() & !self.i_ok.val();
        self.r_conn.d.next = self.s_conn.val();
        self.r_open.d.next = self.s_open.val() & self.i_ok.val();
        self.r_malf.d.next = !self.s_open.val()
            & ((self.s_rtt.val() > self.c_rtt_max.val())
                | (self.s_acked_bytes.val() > self.c_rtt_max.val()));
        self.r_now.d.next = self.s_now.val();
        self.r_rtt.d.next = self.s_rtt.val();
        self.r_ecn.d.next = self.s_ecn.val();
        self.r_acked.d.next = self.s_acked_bytes.val();
        self.r_probe.d.next = self.s_is_probe_ack.val();
        self.r_hit.d.next = self.i_hit.val() & self.cfg_hit_mask.val();
        self.r_near.d.next = (self.i_hit.val()
            & self.cfg_hit_mask.val()
            & self.i_opens.val()
            & self.cfg_near_mask.val())
        .any();
        if self.i_ok.val()
            & !self.s_open.val()
            & ((self.s_rtt.val() > self.c_rtt_max.val())
                | (self.s_acked_bytes.val() > self.c_rtt_max.val()))
        {
            self.malformed_reg.d.next = self.malformed_reg.q.val() + self.c_one32.val();
        }

        // ---- R: the RAMs' data comes out (registered in the EBRs); G2b and the window's
        // copy B are addressed (merged at S1, used at S2).
        self.f_ok.d.next = self.r_ok.q.val();
        self.f_bad.d.next = self.r_bad.q.val();
        self.f_conn.d.next = self.r_conn.q.val();
        self.f_open.d.next = self.r_open.q.val();
        self.f_malf.d.next = self.r_malf.q.val();
        self.f_now.d.next = self.r_now.q.val();
        self.f_rtt.d.next = self.r_rtt.q.val();
        self.f_ecn.d.next = self.r_ecn.q.val();
        self.f_acked.d.next = self.r_acked.q.val();
        self.f_probe.d.next = self.r_probe.q.val();
        self.f_hit.d.next = self.r_hit.q.val();
        self.f_near.d.next = self.r_near.q.val();
        self.f_g1_raw.d.next = self.ram_g1.read_data.val();
        self.f_g2a_raw.d.next = self.ram_g2a.read_data.val();
        self.f_g4_raw.d.next = self.ram_g4.read_data.val();
        self.ram_g2b.read_address.next = self.r_conn.q.val();
        self.ram_cwb.read_address.next = self.r_conn.q.val();

        // ---- F: G1, G2a and G4 as the RAMs and the writes 2-4, 3-5 and 5-7 ahead left them
        // (newest first); G2b's and the window's copy B's data registered (in the EBRs).
        self.g1_f.next = self.f_g1_raw.q.val() ^ self.cfg_fresh_g1.val();
        if self.f_hit.q.val().get_bit(3) {
            self.g1_f.next = self.w1_dd.q.val();
        }
        if self.f_hit.q.val().get_bit(2) {
            self.g1_f.next = self.w1_d.q.val();
        }
        if self.f_hit.q.val().get_bit(1) {
            self.g1_f.next = self.w1.q.val();
        }
        self.g2a_f.next = self.f_g2a_raw.q.val();
        if self.f_hit.q.val().get_bit(4) {
            self.g2a_f.next = self.w2a_dd.q.val();
        }
        if self.f_hit.q.val().get_bit(3) {
            self.g2a_f.next = self.w2a_d.q.val();
        }
        if self.f_hit.q.val().get_bit(2) {
            self.g2a_f.next = self.w2a.q.val();
        }
        self.g4_f.next = self.f_g4_raw.q.val();
        if self.f_hit.q.val().get_bit(6) & self.w4_en_dd.q.val() {
            self.g4_f.next = self.w4_dd.q.val();
        }
        if self.f_hit.q.val().get_bit(5) & self.w4_en_d.q.val() {
            self.g4_f.next = self.w4_d.q.val();
        }
        if self.f_hit.q.val().get_bit(4) & self.w4_en.q.val() {
            self.g4_f.next = self.w4.q.val();
        }
        self.x1_g2b_raw.d.next = self.ram_g2b.read_data.val();
        self.x1_cwb_raw.d.next = self.ram_cwb.read_data.val();
        // S1's base RTT after the event 1 ahead is the base that event found (the write 1
        // ahead of it, or its merged record), its RTT, or fresh (an open). Each is a register
        // here, so the compares are made now and S1 only picks one.
        self.lt_w_f.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.f_rtt.q.val())
                - bit_cast::<33, 32>(self.w1.q.val().get_bits::<32>(0)))
                >> 32,
        );
        self.lt_x_f.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.f_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_g1.q.val().get_bits::<32>(0)))
                >> 32,
        );
        self.lt_rtt_f.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.f_rtt.q.val()) - bit_cast::<33, 32>(self.x1_rtt.q.val()))
                >> 32,
        );
        self.lt_fresh_f.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.f_rtt.q.val()) - bit_cast::<33, 32>(self.c_rtt_max.val()))
                >> 32,
        );
        self.x1_lt_cur.d.next = self.lt_x_f.val().any();
        if self.x1_hit.q.val().get_bit(0) {
            self.x1_lt_cur.d.next = self.lt_w_f.val().any();
        }
        self.x1_lt_rtt.d.next = self.lt_rtt_f.val().any();
        self.x1_lt_fresh.d.next = self.lt_fresh_f.val().any();
        self.x1_bt_rtt.d.next = self.f_rtt.q.val() + self.c_tq.val();
        self.x1_below_x.d.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.f_rtt.q.val())
                - bit_cast::<33, 32>(self.g1_f.val().get_bits::<32>(0)))
                >> 32,
        );
        // S1's timer ages. The write 2 ahead is made by the event now at S2: its `now`
        // (`p1_now`, 0 for an open), or the record it found there (the write 1 ahead of it,
        // or its merged record), whichever its own S2 keeps.
        self.x1_age_clr_x.d.next = self.f_now.q.val() - self.g2a_f.val().get_bits::<32>(0);
        self.x1_age_fair_x.d.next = self.f_now.q.val() - self.g2a_f.val().get_bits::<32>(32);
        self.x1_age_now2.d.next = self.f_now.q.val() - self.p1_now.q.val();
        self.age_clr_w_f.next = self.f_now.q.val() - self.w2a.q.val().get_bits::<32>(0);
        self.age_clr_p_f.next = self.f_now.q.val() - self.p1_g2a.q.val().get_bits::<32>(0);
        self.age_fair_w_f.next = self.f_now.q.val() - self.w2a.q.val().get_bits::<32>(32);
        self.age_fair_p_f.next = self.f_now.q.val() - self.p1_g2a.q.val().get_bits::<32>(32);
        self.x1_age_clr_c.d.next = self.age_clr_p_f.val();
        self.x1_age_fair_c.d.next = self.age_fair_p_f.val();
        if self.p1_hit.q.val().get_bit(0) {
            self.x1_age_clr_c.d.next = self.age_clr_w_f.val();
            self.x1_age_fair_c.d.next = self.age_fair_w_f.val();
        }
        // Less the `now` of the event 1 ahead (0 for an open, as its S1 passes it on).
        self.x1_d_prev.d.next = self.f_now.q.val() - self.x1_now.q.val();
        if self.x1_open.q.val() {
            self.x1_d_prev.d.next = self.f_now.q.val();
        }
        self.x1_ok.d.next = self.f_ok.q.val();
        self.x1_bad.d.next = self.f_bad.q.val();
        self.x1_conn.d.next = self.f_conn.q.val();
        self.x1_open.d.next = self.f_open.q.val();
        self.x1_malf.d.next = self.f_malf.q.val();
        self.x1_now.d.next = self.f_now.q.val();
        self.x1_rtt.d.next = self.f_rtt.q.val();
        self.x1_ecn.d.next = self.f_ecn.q.val();
        self.x1_acked.d.next = self.f_acked.q.val();
        self.x1_probe.d.next = self.f_probe.q.val();
        self.x1_hit.d.next = self.f_hit.q.val();
        self.x1_near.d.next = self.f_near.q.val();
        self.x1_g1.d.next = self.g1_f.val();
        self.x1_g2a.d.next = self.g2a_f.val();
        self.x1_g4.d.next = self.g4_f.val();

        // ---- S1: base RTT (G1's loop: the write 1 ahead); G2a and G4 as the writes 2 and 4
        // ahead left them; the stand-alone unit's stage 1 on them.
        // Each compare and difference on the base RTT is made from both candidates (the write 1
        // ahead and the merged record) and the one on this connection is chosen after it, so
        // no select sits in front of a carry chain (the stand-alone unit has none there).
        self.hit1_1.next = self.x1_hit.q.val().get_bit(0);
        self.base_w.next = self.w1.q.val().get_bits::<32>(0);
        self.base_x.next = self.x1_g1.q.val().get_bits::<32>(0);
        self.base_tq_w.next = self.w1.q.val().get_bits::<32>(32);
        self.base_tq_x.next = self.x1_g1.q.val().get_bits::<32>(32);
        self.base_cur.next = self.base_x.val();
        self.base_tq_cur.next = self.base_tq_x.val();
        if self.hit1_1.val() {
            self.base_cur.next = self.base_w.val();
            self.base_tq_cur.next = self.base_tq_w.val();
        }
        self.g2a_1.next = self.x1_g2a.q.val();
        if self.x1_hit.q.val().get_bit(1) {
            self.g2a_1.next = self.w2a.q.val();
        }
        self.g4_1.next = self.x1_g4.q.val();
        if self.x1_hit.q.val().get_bit(3) & self.w4_en.q.val() {
            self.g4_1.next = self.w4.q.val();
        }
        self.g2b_1.next = self.x1_g2b_raw.q.val();
        if self.x1_hit.q.val().get_bit(3) {
            self.g2b_1.next = self.w2b_dd.q.val();
        }
        if self.x1_hit.q.val().get_bit(2) {
            self.g2b_1.next = self.w2b_d.q.val();
        }
        if self.x1_hit.q.val().get_bit(1) {
            self.g2b_1.next = self.w2b.q.val();
        }
        self.w_1.next = self.x1_cwb_raw.q.val() ^ self.cfg_fresh_cwnd.val();
        if self.x1_hit.q.val().get_bit(16) {
            self.w_1.next = self.w15_dd.q.val();
        }
        if self.x1_hit.q.val().get_bit(15) {
            self.w_1.next = self.w15_d.q.val();
        }
        if self.x1_hit.q.val().get_bit(14) {
            self.w_1.next = self.w15.q.val();
        }
        // The timers' ages were made at F, where each record they can be taken from is a
        // register: the merged record's (`_x`), and for the write 2 ahead (`_g`) the `now` of
        // that event (`_n`, had it cleared or taken the fairness turn) or the record it found
        // (`_c`). Each is compared here with each base candidate, and chosen after.
        // `d > b` as the borrow of `b - d` (33 bits).
        self.clr_w.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_w.val())
                - bit_cast::<33, 32>(self.x1_age_clr_x.q.val()))
                >> 32,
        );
        self.clr_x.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_x.val())
                - bit_cast::<33, 32>(self.x1_age_clr_x.q.val()))
                >> 32,
        );
        self.clr_w_n.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_w.val())
                - bit_cast::<33, 32>(self.x1_age_now2.q.val()))
                >> 32,
        );
        self.clr_x_n.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_x.val())
                - bit_cast::<33, 32>(self.x1_age_now2.q.val()))
                >> 32,
        );
        self.clr_w_c.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_w.val())
                - bit_cast::<33, 32>(self.x1_age_clr_c.q.val()))
                >> 32,
        );
        self.clr_x_c.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_x.val())
                - bit_cast::<33, 32>(self.x1_age_clr_c.q.val()))
                >> 32,
        );
        self.clr_prev_w.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_w.val()) - bit_cast::<33, 32>(self.x1_d_prev.q.val()))
                >> 32,
        );
        self.clr_prev_x.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_tq_x.val()) - bit_cast::<33, 32>(self.x1_d_prev.q.val()))
                >> 32,
        );
        self.clr_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_bt_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_age_clr_x.q.val()))
                >> 32,
        );
        self.clr_rtt_n.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_bt_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_age_now2.q.val()))
                >> 32,
        );
        self.clr_rtt_c.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_bt_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_age_clr_c.q.val()))
                >> 32,
        );
        self.clr_prev_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_bt_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_d_prev.q.val()))
                >> 32,
        );
        self.fair_w.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_w.val())
                - bit_cast::<33, 32>(self.x1_age_fair_x.q.val()))
                >> 32,
        );
        self.fair_x.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_x.val())
                - bit_cast::<33, 32>(self.x1_age_fair_x.q.val()))
                >> 32,
        );
        self.fair_w_n.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_w.val()) - bit_cast::<33, 32>(self.x1_age_now2.q.val()))
                >> 32,
        );
        self.fair_x_n.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_x.val()) - bit_cast::<33, 32>(self.x1_age_now2.q.val()))
                >> 32,
        );
        self.fair_w_c.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_w.val())
                - bit_cast::<33, 32>(self.x1_age_fair_c.q.val()))
                >> 32,
        );
        self.fair_x_c.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_x.val())
                - bit_cast::<33, 32>(self.x1_age_fair_c.q.val()))
                >> 32,
        );
        self.fair_prev_w.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_w.val()) - bit_cast::<33, 32>(self.x1_d_prev.q.val()))
                >> 32,
        );
        self.fair_prev_x.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.base_x.val()) - bit_cast::<33, 32>(self.x1_d_prev.q.val()))
                >> 32,
        );
        self.fair_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_age_fair_x.q.val()))
                >> 32,
        );
        self.fair_rtt_n.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_age_now2.q.val()))
                >> 32,
        );
        self.fair_rtt_c.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_rtt.q.val())
                - bit_cast::<33, 32>(self.x1_age_fair_c.q.val()))
                >> 32,
        );
        self.fair_prev_rtt.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.x1_rtt.q.val()) - bit_cast::<33, 32>(self.x1_d_prev.q.val()))
                >> 32,
        );
        // Below the write 1 ahead: which of its three values it holds is known (registers).
        self.below_w.next = self.x1_lt_cur.q.val();
        if self.p1_took.q.val() {
            self.below_w.next = self.x1_lt_rtt.q.val();
        }
        if self.p1_open.q.val() {
            self.below_w.next = self.x1_lt_fresh.q.val();
        }
        self.delay_w.next = self.x1_rtt.q.val() - self.base_w.val();
        self.delay_x.next = self.x1_rtt.q.val() - self.base_x.val();
        self.tqmd_w.next = self.c_tq.val() + self.base_w.val() - self.x1_rtt.q.val();
        self.tqmd_x.next = self.c_tq.val() + self.base_x.val() - self.x1_rtt.q.val();
        self.rtt_below.next = self.x1_below_x.q.val().any();
        self.delay.next = self.delay_x.val();
        self.clr_prev_base.next = self.clr_prev_x.val();
        self.fair_prev_base.next = self.fair_prev_x.val();
        self.tqmd.next = self.tqmd_x.val();
        if self.hit1_1.val() {
            self.rtt_below.next = self.below_w.val();
            self.delay.next = self.delay_w.val();
            self.clr_prev_base.next = self.clr_prev_w.val();
            self.fair_prev_base.next = self.fair_prev_w.val();
            self.tqmd.next = self.tqmd_w.val();
        }
        // The timers' compares chosen by one-hot selects made at F (registers): the base
        // candidate (the write 1 ahead, the merged record) and the age's (the merged record;
        // the write 2 ahead, from its `now` or from the record it found).
        self.clr_sel.next = (self.x1_sc.q.val().get_bit(0) & self.clr_w.val().any())
            | (self.x1_sc.q.val().get_bit(1) & self.clr_x.val().any())
            | (self.x1_sc.q.val().get_bit(2) & self.clr_w_n.val().any())
            | (self.x1_sc.q.val().get_bit(3) & self.clr_x_n.val().any())
            | (self.x1_sc.q.val().get_bit(4) & self.clr_w_c.val().any())
            | (self.x1_sc.q.val().get_bit(5) & self.clr_x_c.val().any());
        self.fair_sel.next = (self.x1_sf.q.val().get_bit(0) & self.fair_w.val().any())
            | (self.x1_sf.q.val().get_bit(1) & self.fair_x.val().any())
            | (self.x1_sf.q.val().get_bit(2) & self.fair_w_n.val().any())
            | (self.x1_sf.q.val().get_bit(3) & self.fair_x_n.val().any())
            | (self.x1_sf.q.val().get_bit(4) & self.fair_w_c.val().any())
            | (self.x1_sf.q.val().get_bit(5) & self.fair_x_c.val().any());
        self.clr_rtt_sel.next = (self.x1_rc.q.val().get_bit(0) & self.clr_rtt.val().any())
            | (self.x1_rc.q.val().get_bit(1) & self.clr_rtt_n.val().any())
            | (self.x1_rc.q.val().get_bit(2) & self.clr_rtt_c.val().any());
        self.fair_rtt_sel.next = (self.x1_rf.q.val().get_bit(0) & self.fair_rtt.val().any())
            | (self.x1_rf.q.val().get_bit(1) & self.fair_rtt_n.val().any())
            | (self.x1_rf.q.val().get_bit(2) & self.fair_rtt_c.val().any());
        self.base_new.next = self.base_cur.val();
        self.base_tq_new.next = self.base_tq_cur.val();
        if self.rtt_below.val() {
            self.delay.next = 0.into();
            if !self.x1_malf.q.val() {
                self.base_new.next = self.x1_rtt.q.val();
                self.base_tq_new.next = self.x1_bt_rtt.q.val();
            }
        }
        // G1 after the event (an open: fresh; a malformed ACK: unchanged).
        self.g1_new.next = (bit_cast::<64, 32>(self.base_tq_new.val()) << 32)
            | bit_cast::<64, 32>(self.base_new.val());
        if self.x1_open.q.val() {
            self.g1_new.next = self.cfg_fresh_g1.val();
        }
        self.w1.d.next = self.g1_new.val();
        self.w1_en.d.next = self.x1_ok.q.val();
        self.w1_conn.d.next = self.x1_conn.q.val();
        self.w1_d.d.next = self.w1.q.val();
        self.w1_dd.d.next = self.w1_d.q.val();
        self.ram_g1.write_address.next = self.w1_conn.q.val();
        self.ram_g1.write_data.next = self.w1.q.val() ^ self.cfg_fresh_g1.val();
        self.ram_g1.write_enable.next = self.w1_en.q.val();
        self.p1_ok.d.next = self.x1_ok.q.val();
        self.p1_bad.d.next = self.x1_bad.q.val();
        self.p1_conn.d.next = self.x1_conn.q.val();
        self.p1_open.d.next = self.x1_open.q.val();
        self.p1_hit.d.next = self.x1_hit.q.val();
        self.p1_near.d.next = self.x1_near.q.val();
        self.p1_malf.d.next = self.x1_malf.q.val();
        self.p1_took.d.next = self.rtt_below.val() & !self.x1_malf.q.val() & !self.x1_open.q.val();
        // An open's `now` is 0 to the events behind: the fresh unit's timestamps.
        self.p1_now.d.next = self.x1_now.q.val();
        if self.x1_open.q.val() {
            self.p1_now.d.next = 0.into();
        }
        self.p1_acked.d.next = self.x1_acked.q.val();
        self.p1_ecn.d.next = self.x1_ecn.q.val();
        self.p1_add.d.next = self.x1_acked.q.val();
        if self.x1_probe.q.val() {
            self.p1_add.d.next = 0.into();
        }
        self.p1_base.d.next = self.base_new.val();
        self.p1_tqmd.d.next = self.tqmd.val();
        self.p1_clr_reg.d.next = self.clr_sel.val();
        self.p1_clr_prev.d.next = self.clr_prev_base.val().any();
        self.p1_fair_reg.d.next = self.fair_sel.val();
        self.p1_fair_prev.d.next = self.fair_prev_base.val().any();
        if self.rtt_below.val() {
            self.p1_tqmd.d.next = self.c_tq.val();
            self.p1_clr_reg.d.next = self.clr_rtt_sel.val();
            self.p1_clr_prev.d.next = self.clr_prev_rtt.val().any();
            self.p1_fair_reg.d.next = self.fair_rtt_sel.val();
            self.p1_fair_prev.d.next = self.fair_prev_rtt.val().any();
        }
        self.p1_d_prev.d.next = self.x1_d_prev.q.val();
        self.p1_d_dec.d.next = self.x1_now.q.val() - self.g4_1.val();
        self.p1_d_prev2.d.next = self.x1_now.q.val() - self.p2_now.q.val();
        self.p1_d_prev3.d.next = self.x1_now.q.val() - self.p3_now.q.val();
        self.p1_dq_s.d.next = (self.delay.val() << self.c_df.val()) >> self.c_ewma_shift.val();
        self.p1_delay.d.next = self.delay.val();
        self.p1_g2a.d.next = self.g2a_1.val();
        self.p1_g2b.d.next = self.g2b_1.val();
        self.p1_w.d.next = self.w_1.val();

        // ---- S2: G2's loop (the write 1 ahead); the timers, taken from the event 1 ahead
        // when it is on this connection and reset them; the window in flight.
        self.hit1_2.next = self.p1_hit.q.val().get_bit(0);
        self.g2a_cur.next = self.p1_g2a.q.val();
        self.g2b_cur.next = self.p1_g2b.q.val();
        if self.hit1_2.val() {
            self.g2a_cur.next = self.w2a.q.val();
            self.g2b_cur.next = self.w2b.q.val();
        }
        self.avg_cur.next = self.g2b_cur.val().get_bits::<32>(0);
        self.rx_cur.next = self.g2b_cur.val().get_bits::<32>(32);
        self.ach_cur.next = self.g2b_cur.val().get_bits::<32>(64);
        self.s2_go.next = self.p1_ok.q.val() & !self.p1_malf.q.val() & !self.p1_open.q.val();
        self.can_clear.next = self.p1_clr_reg.q.val();
        if self.hit1_2.val() & self.s2_cleared_reg.q.val() {
            self.can_clear.next = self.p1_clr_prev.q.val();
        }
        // The count's and the average's sums from both candidates (the write 1 ahead, the
        // merged record), chosen after.
        self.rx_sum_w.next = bit_cast::<64, 32>(self.w2b.q.val().get_bits::<32>(32))
            + bit_cast::<64, 32>(self.p1_add.q.val());
        self.rx_sum_p.next = bit_cast::<64, 32>(self.p1_g2b.q.val().get_bits::<32>(32))
            + bit_cast::<64, 32>(self.p1_add.q.val());
        self.rx_sum.next = self.rx_sum_p.val();
        if self.hit1_2.val() {
            self.rx_sum.next = self.rx_sum_w.val();
        }
        self.rx_sat.next = bit_cast::<32, 64>(self.rx_sum.val());
        if self.rx_sum.val().get_bit(32) {
            self.rx_sat.next = bit_cast::<32, 64>(self.c_sat32.val());
        }
        self.can_fair.next = self.p1_fair_reg.q.val();
        if self.hit1_2.val() & self.s2_faired_reg.q.val() {
            self.can_fair.next = self.p1_fair_prev.q.val();
        }
        self.avg_w.next = self.w2b.q.val().get_bits::<32>(0);
        self.avg_p.next = self.p1_g2b.q.val().get_bits::<32>(0);
        self.avg_new_w.next =
            self.avg_w.val() - (self.avg_w.val() >> self.c_ewma_shift.val()) + self.p1_dq_s.q.val();
        self.avg_new_p.next =
            self.avg_p.val() - (self.avg_p.val() >> self.c_ewma_shift.val()) + self.p1_dq_s.q.val();
        self.avg_new.next = self.avg_new_p.val();
        if self.hit1_2.val() {
            self.avg_new.next = self.avg_new_w.val();
        }
        self.out_avg.next = self.avg_new.val();
        self.out_fair.next = self.can_fair.val();
        if self.p1_malf.q.val() {
            self.out_avg.next = self.avg_cur.val();
            self.out_fair.next = false;
        }
        // G2 after the event (an open: all zero; a malformed ACK: unchanged).
        self.clear_new.next = self.g2a_cur.val().get_bits::<32>(0);
        self.fair_new.next = self.g2a_cur.val().get_bits::<32>(32);
        self.rx_new.next = self.rx_cur.val();
        self.ach_new.next = self.ach_cur.val();
        self.g2b_new.next = self.g2b_cur.val();
        if self.s2_go.val() {
            self.rx_new.next = self.rx_sat.val();
            if self.can_clear.val() {
                self.ach_new.next = self.rx_sat.val();
                self.rx_new.next = 0.into();
                self.clear_new.next = self.p1_now.q.val();
            }
            if self.can_fair.val() {
                self.fair_new.next = self.p1_now.q.val();
            }
            self.g2b_new.next = (bit_cast::<96, 32>(self.ach_new.val()) << 64)
                | (bit_cast::<96, 32>(self.rx_new.val()) << 32)
                | bit_cast::<96, 32>(self.avg_new.val());
        }
        self.g2a_new.next = (bit_cast::<64, 32>(self.fair_new.val()) << 32)
            | bit_cast::<64, 32>(self.clear_new.val());
        if self.p1_open.q.val() {
            self.g2a_new.next = 0.into();
            self.g2b_new.next = 0.into();
        }
        self.w2a.d.next = self.g2a_new.val();
        self.w2b.d.next = self.g2b_new.val();
        self.w2_en.d.next = self.p1_ok.q.val();
        self.w2_conn.d.next = self.p1_conn.q.val();
        self.w2a_d.d.next = self.w2a.q.val();
        self.w2b_d.d.next = self.w2b.q.val();
        self.w2a_dd.d.next = self.w2a_d.q.val();
        self.w2b_dd.d.next = self.w2b_d.q.val();
        self.ram_g2a.write_address.next = self.w2_conn.q.val();
        self.ram_g2a.write_data.next = self.w2a.q.val();
        self.ram_g2a.write_enable.next = self.w2_en.q.val();
        self.ram_g2b.write_address.next = self.w2_conn.q.val();
        self.ram_g2b.write_data.next = self.w2b.q.val();
        self.ram_g2b.write_enable.next = self.w2_en.q.val();
        self.s2_cleared.next =
            (self.s2_go.val() & self.can_clear.val()) | (self.p1_ok.q.val() & self.p1_open.q.val());
        self.s2_faired.next =
            (self.s2_go.val() & self.can_fair.val()) | (self.p1_ok.q.val() & self.p1_open.q.val());
        self.s2_cleared_reg.d.next = self.s2_cleared.val();
        self.s2_faired_reg.d.next = self.s2_faired.val();
        // S1's selects for the event now at F, to which this event is 2 ahead.
        self.h1_f.next = self.f_hit.q.val().get_bit(0);
        self.h2_f.next = self.f_hit.q.val().get_bit(1);
        self.hsel_x.next = 2.into();
        if self.h1_f.val() {
            self.hsel_x.next = 1.into();
        }
        self.x1_sc.d.next = 0.into();
        self.x1_sf.d.next = 0.into();
        self.x1_rc.d.next = 0.into();
        self.x1_rf.d.next = 0.into();
        if !self.h2_f.val() {
            self.x1_sc.d.next = bit_cast::<6, 2>(self.hsel_x.val());
            self.x1_sf.d.next = bit_cast::<6, 2>(self.hsel_x.val());
            self.x1_rc.d.next = 1.into();
            self.x1_rf.d.next = 1.into();
        } else {
            if self.s2_cleared.val() {
                self.x1_sc.d.next = bit_cast::<6, 2>(self.hsel_x.val()) << 2;
                self.x1_rc.d.next = 2.into();
            } else {
                self.x1_sc.d.next = bit_cast::<6, 2>(self.hsel_x.val()) << 4;
                self.x1_rc.d.next = 4.into();
            }
            if self.s2_faired.val() {
                self.x1_sf.d.next = bit_cast::<6, 2>(self.hsel_x.val()) << 2;
                self.x1_rf.d.next = 2.into();
            } else {
                self.x1_sf.d.next = bit_cast::<6, 2>(self.hsel_x.val()) << 4;
                self.x1_rf.d.next = 4.into();
            }
        }
        // The window in flight: the connection's as the events 14 or more ahead left it (the
        // write 14 ahead now), or a fresh unit's if it was opened 1 to 13 ahead.
        self.lagw.next = self.p1_w.q.val();
        if self.p1_hit.q.val().get_bit(13) {
            self.lagw.next = self.w15.q.val();
        }
        if self.p1_near.q.val() {
            self.lagw.next = self.c_max_cwnd.val();
        }
        self.p2_tqmd.d.next = self.p1_tqmd.q.val();
        self.tag2.next = bit_cast::<23, 16>(self.p1_conn.q.val());
        self.tag2.next = self.tag2.val().replace_bit(16, self.p1_ok.q.val());
        self.tag2.next = self
            .tag2
            .val()
            .replace_bit(17, self.p1_hit.q.val().get_bit(2));
        self.tag2.next = self.tag2.val().replace_bit(18, self.p1_bad.q.val());
        self.tag2.next = self.tag2.val().replace_bit(19, self.p1_open.q.val());
        self.tag2.next = self
            .tag2
            .val()
            .replace_bit(20, self.p1_hit.q.val().get_bit(0));
        self.tag2.next = self
            .tag2
            .val()
            .replace_bit(21, self.p1_hit.q.val().get_bit(1));
        self.tag2.next = self
            .tag2
            .val()
            .replace_bit(22, self.p1_hit.q.val().get_bit(3));
        self.p2_tag.d.next = self.tag2.val();
        self.p2_o.d.next = (bit_cast::<64, 32>(self.p1_base.q.val()) << 32)
            | bit_cast::<64, 32>(self.out_avg.val());
        self.p2_ach_new.d.next = self.rx_sat.val();
        self.p2_ach_old.d.next = self.ach_cur.val();
        self.p2_ach_sel.d.next = self.can_clear.val() & !self.p1_malf.q.val();
        self.p2_now.d.next = self.p1_now.q.val();
        self.p2_malf.d.next = self.p1_malf.q.val();
        self.p2_ecn.d.next = self.p1_ecn.q.val();
        self.p2_gt_tqh.d.next = self.p1_delay.q.val() > self.c_tq_high.val();
        self.p2_lt_tq.d.next = self.p1_delay.q.val() < self.c_tq.val();
        self.p2_gt_tq.d.next = self.p1_delay.q.val() > self.c_tq.val();
        self.p2_cd0.d.next = self.p1_d_dec.q.val() > self.p1_base.q.val();
        self.p2_cd1.d.next = self.p1_d_prev.q.val() > self.p1_base.q.val();
        self.p2_cd2.d.next = self.p1_d_prev2.q.val() > self.p1_base.q.val();
        self.p2_cd3.d.next = self.p1_d_prev3.q.val() > self.p1_base.q.val();
        self.p2_fair.d.next = self.out_fair.val();
        self.p2_lagw.d.next = self.lagw.val();
        self.p2_acked.d.next = self.p1_acked.q.val();

        // ---- S4 (first: S3 reads whether it decreased): Algorithm 4's arm; a decrease (or an
        // open) writes G4.
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
        self.s4_decreased.next = self.p3_tag.q.val().get_bit(16)
            & ((!self.p3_malf.q.val() & self.decreased.val()) | self.p3_tag.q.val().get_bit(19));
        self.s4_dec1_reg.d.next = self.s4_decreased.val();
        self.s4_dec2_reg.d.next = self.s4_dec1_reg.q.val();
        self.w4.d.next = self.p3_now.q.val();
        self.w4_en.d.next = self.s4_decreased.val();
        self.w4_conn.d.next = self.p3_tag.q.val().get_bits::<16>(0);
        self.w4_d.d.next = self.w4.q.val();
        self.w4_en_d.d.next = self.w4_en.q.val();
        self.w4_dd.d.next = self.w4_d.q.val();
        self.w4_en_dd.d.next = self.w4_en_d.q.val();
        self.ram_g4.write_address.next = self.w4_conn.q.val();
        self.ram_g4.write_data.next = self.w4.q.val();
        self.ram_g4.write_enable.next = self.w4_en.q.val();

        // ---- S3: the arm's compares; the decrease interval runs from the latest of the
        // register and the events 1, 2, 3 ahead on this connection that decreased.
        self.avg3.next = self.p2_o.q.val().get_bits::<32>(0);
        self.can_dec3.next = self.p2_cd0.q.val();
        if self.p2_tag.q.val().get_bit(17) & self.s4_dec2_reg.q.val() {
            self.can_dec3.next = self.p2_cd3.q.val();
        }
        if self.p2_tag.q.val().get_bit(21) & self.s4_dec1_reg.q.val() {
            self.can_dec3.next = self.p2_cd2.q.val();
        }
        if self.p2_tag.q.val().get_bit(20) & self.s4_decreased.val() {
            self.can_dec3.next = self.p2_cd1.q.val();
        }
        self.ach3.next = self.p2_ach_old.q.val();
        if self.p2_ach_sel.q.val() {
            self.ach3.next = self.p2_ach_new.q.val();
        }
        self.q_pack.next = bit_cast::<64, 32>(self.ach3.val()) << 32;
        if self.p2_fair.q.val() {
            self.q_pack.next = self.q_pack.val() | self.c_fair_bit.val();
        }
        self.p3_tag.d.next = self.p2_tag.q.val();
        self.p3_o.d.next = self.p2_o.q.val();
        self.p3_q.d.next = self.q_pack.val();
        self.p3_now.d.next = self.p2_now.q.val();
        self.p3_malf.d.next = self.p2_malf.q.val();
        self.p3_ecn.d.next = self.p2_ecn.q.val();
        self.p3_gt_tqh.d.next = self.p2_gt_tqh.q.val();
        self.p3_lt_tq.d.next = self.p2_lt_tq.q.val();
        self.p3_gt_tq.d.next = self.p2_gt_tq.q.val();
        self.p3_can_dec.d.next = self.can_dec3.val();
        self.p3_avg_gt.d.next = self.avg3.val() > self.c_tq_q.val();
        self.p3_ach_lt.d.next = self.ach3.val() < self.c_bdp_limit.val();
        self.p3_lagw.d.next = self.p2_lagw.q.val();
        self.p3_acked.d.next = self.p2_acked.q.val();
        self.msb_c.x.next = self.p2_lagw.q.val();
        self.msb_a.x.next = self.avg3.val();
        self.p3_top_c.d.next = self.msb_c.top.val();
        self.p3_top_a.d.next = self.msb_a.top.val();

        // ---- S4 to S14: the amounts.
        self.amounts.s_tqmd_early.next = self.p2_tqmd.q.val();
        self.amounts.s_w.next = self.p3_lagw.q.val();
        self.amounts.s_top_w.next = self.p3_top_c.q.val();
        self.amounts.s_avg.next = self.p3_o.q.val().get_bits::<32>(0);
        self.amounts.s_top_avg.next = self.p3_top_a.q.val();
        self.amounts.s_acked.next = self.p3_acked.q.val();
        self.amounts.s_q.next = self.p3_q.q.val();
        self.amounts.s_arm.next = self.branch.val();
        self.p4_tag.d.next = self.p3_tag.q.val();
        self.p5_tag.d.next = self.p4_tag.q.val();
        self.p6_tag.d.next = self.p5_tag.q.val();
        self.p7_tag.d.next = self.p6_tag.q.val();
        self.p8_tag.d.next = self.p7_tag.q.val();
        self.p9_tag.d.next = self.p8_tag.q.val();
        self.p10_tag.d.next = self.p9_tag.q.val();
        self.p11_tag.d.next = self.p10_tag.q.val();
        self.p12_tag.d.next = self.p11_tag.q.val();
        self.p13_tag.d.next = self.p12_tag.q.val();
        self.p14_tag.d.next = self.p13_tag.q.val();
        self.p4_o.d.next = self.p3_o.q.val();
        self.p5_o.d.next = self.p4_o.q.val();
        self.p6_o.d.next = self.p5_o.q.val();
        self.p7_o.d.next = self.p6_o.q.val();
        self.p8_o.d.next = self.p7_o.q.val();
        self.p9_o.d.next = self.p8_o.q.val();
        self.p10_o.d.next = self.p9_o.q.val();
        self.p11_o.d.next = self.p10_o.q.val();
        self.p12_o.d.next = self.p11_o.q.val();
        self.p13_o.d.next = self.p12_o.q.val();
        self.p14_o.d.next = self.p13_o.q.val();
        // The window's copy A, read at S12 for the loop (its data registered in the EBR at
        // S13); merged at S14 with the writes 2, 3 and 4 ahead.
        self.ram_cwa.read_address.next = self.p11_tag.q.val().get_bits::<16>(0);
        self.p13_cw_raw.d.next = self.ram_cwa.read_data.val();
        self.p14_cw.d.next = self.p13_cw_raw.q.val() ^ self.cfg_fresh_cwnd.val();
        if self.p13_tag.q.val().get_bit(22) {
            self.p14_cw.d.next = self.w15_dd.q.val();
        }
        if self.p13_tag.q.val().get_bit(17) {
            self.p14_cw.d.next = self.w15_d.q.val();
        }
        if self.p13_tag.q.val().get_bit(21) {
            self.p14_cw.d.next = self.w15.q.val();
        }

        // ---- S15, the loop: the window (the write 1 ahead, or as merged) + d, clamped; an
        // open's is a fresh unit's.
        self.ok15.next = self.p14_tag.q.val().get_bit(16);
        self.open15.next = self.p14_tag.q.val().get_bit(19);
        // The sum and both compares from both candidates (the write 1 ahead, the merged
        // record), chosen after.
        self.loop_sum_w.next = bit_cast::<40, 32>(self.w15.q.val()) + self.amounts.m_d.val();
        self.loop_sum_p.next = bit_cast::<40, 32>(self.p14_cw.q.val()) + self.amounts.m_d.val();
        self.gt_hi_w.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.amounts.m_hi_thr.val())
                - bit_cast::<33, 32>(self.w15.q.val()))
                >> 32,
        );
        self.gt_hi_p.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.amounts.m_hi_thr.val())
                - bit_cast::<33, 32>(self.p14_cw.q.val()))
                >> 32,
        );
        self.lt_lo_w.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.w15.q.val())
                - bit_cast::<33, 32>(self.amounts.m_lo_thr.val()))
                >> 32,
        );
        self.lt_lo_p.next = bit_cast::<1, 33>(
            (bit_cast::<33, 32>(self.p14_cw.q.val())
                - bit_cast::<33, 32>(self.amounts.m_lo_thr.val()))
                >> 32,
        );
        self.loop_sum.next = self.loop_sum_p.val();
        self.gt_hi32.next = self.gt_hi_p.val();
        self.lt_lo32.next = self.lt_lo_p.val();
        if self.p14_tag.q.val().get_bit(20) {
            self.loop_sum.next = self.loop_sum_w.val();
            self.gt_hi32.next = self.gt_hi_w.val();
            self.lt_lo32.next = self.lt_lo_w.val();
        }
        self.cwnd_new.next = bit_cast::<32, 40>(self.loop_sum.val());
        self.over_hi.next =
            self.amounts.m_o_all.val() | (self.amounts.m_o_cmp.val() & self.gt_hi32.val().any());
        self.under_lo.next =
            self.amounts.m_u_all.val() | (self.amounts.m_u_cmp.val() & self.lt_lo32.val().any());
        if self.over_hi.val() | self.open15.val() {
            self.cwnd_new.next = bit_cast::<32, 40>(self.c_max_cwnd40.val());
        } else if self.under_lo.val() {
            self.cwnd_new.next = self.amounts.m_locut.val();
        }
        self.w15.d.next = self.cwnd_new.val();
        self.w15_en.d.next = self.ok15.val();
        self.w15_conn.d.next = self.p14_tag.q.val().get_bits::<16>(0);
        self.w15_d.d.next = self.w15.q.val();
        self.w15_dd.d.next = self.w15_d.q.val();
        self.ram_cwa.write_address.next = self.w15_conn.q.val();
        self.ram_cwa.write_data.next = self.w15.q.val() ^ self.cfg_fresh_cwnd.val();
        self.ram_cwa.write_enable.next = self.w15_en.q.val();
        self.ram_cwb.write_address.next = self.w15_conn.q.val();
        self.ram_cwb.write_data.next = self.w15.q.val() ^ self.cfg_fresh_cwnd.val();
        self.ram_cwb.write_enable.next = self.w15_en.q.val();

        // ---- S16 and out: the results a cycle later, the window from the loop's register
        // (so the loop's logic drives the loop alone).
        self.o16_valid.d.next = self.ok15.val() | self.p14_tag.q.val().get_bit(18);
        self.o16_bad.d.next = self.p14_tag.q.val().get_bit(18);
        self.o16_conn.d.next = 0.into();
        if self.ok15.val() | self.p14_tag.q.val().get_bit(18) {
            self.o16_conn.d.next = self.p14_tag.q.val().get_bits::<16>(0);
        }
        self.o16_branch.d.next = 0.into();
        self.o16_fairness.d.next = false;
        self.o16_achieved.d.next = 0.into();
        self.o16_base_rtt.d.next = 0.into();
        self.o16_avg.d.next = 0.into();
        if self.ok15.val() {
            if self.open15.val() {
                self.o16_branch.d.next = self.c_arm_opened.val();
                self.o16_base_rtt.d.next = self.c_rtt_max.val();
            } else {
                self.o16_branch.d.next = self.amounts.m_arm.val();
                self.o16_fairness.d.next = self.amounts.m_fair.val();
                self.o16_achieved.d.next = self.amounts.m_ach.val();
                self.o16_base_rtt.d.next = self.p14_o.q.val().get_bits::<32>(32);
                self.o16_avg.d.next = self.p14_o.q.val().get_bits::<32>(0);
            }
        }
        self.m_valid_reg.d.next = self.o16_valid.q.val();
        self.m_bad_reg.d.next = self.o16_bad.q.val();
        self.m_conn_reg.d.next = self.o16_conn.q.val();
        self.m_branch_reg.d.next = self.o16_branch.q.val();
        self.m_fairness_reg.d.next = self.o16_fairness.q.val();
        self.m_achieved_reg.d.next = self.o16_achieved.q.val();
        self.m_base_rtt_reg.d.next = self.o16_base_rtt.q.val();
        self.m_avg_reg.d.next = self.o16_avg.q.val();
        self.m_cwnd_q_reg.d.next = 0.into();
        self.m_cwnd_bytes_reg.d.next = 0.into();
        if self.o16_valid.q.val() & !self.o16_bad.q.val() {
            self.m_cwnd_q_reg.d.next = self.w15.q.val();
            self.m_cwnd_bytes_reg.d.next = self.w15.q.val() >> self.c_cf.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    /// The default design (1024 connections) passes the lint, Icarus and Yosys gate.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("nic_cwnd", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "nic_cwnd_default", false);
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut cfg = Config::default();
        cfg.fixed_point.recip_index_bits = 13;
        let msg = generate("nic_cwnd", &cfg, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(msg.starts_with("nic_cwnd: "), "{msg}");
    }
}
