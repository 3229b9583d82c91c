//! The send side's senders (`docs/blocks/nic_sender.md`): per connection, the SACK sender with
//! the connection's send backlog and short packet, a record in the context shell's RAM, one
//! event (an open, a SACK, a transmit opportunity, a doorbell or a timer check) per clock for
//! any sequence of connection ids.
//!
//! ```text
//!  S0: event ─► hold shell (S0 read, S1 RAM data, S2 newest record, H1 snapshot, H2, H3) ─► S3
//!      (the SACK's format checked)            │                                           │
//!        settled head: H1 SenderSack ─► H2 SenderLoss ─► H3 SenderPick ─► register ─► settled?
//!                                        S3, in the loop: the three (unsettled) on the record;
//!                                        then SenderTail (the backlog)
//!  output registers (m_*) ◄───────────────────────────────────────────────────────────────┘
//! ```
//!
//! The step is split into a head (all but the backlog: the settling run, the SACK, the
//! timeout, the lost PSNs, a probe or a retransmission; three stages) and a tail (a doorbell,
//! new data, the has-work bit). A settled event's head runs over H1..H3 on the snapshot (the
//! record as the events 4 or more ahead left it: the same as S3's but for the backlog and the
//! lost view, which the head does not read, when none of the 4 ahead repositioned), a stage a
//! cycle; an unsettled event's head, which makes no search and no count, runs at S3 in the
//! loop, its three stages in one cycle. The tail runs at S3 on the backlog as every event ahead
//! left it.
//!
//! **The record** (`docs/blocks/nic_sender.md`, "Context record") is the compact one the
//! model's facts allow (`docs/blocks/nic_tx.md`, "The sender's record"): `snd_nxt` and the
//! outstanding count instead of `snd_una`; the acknowledged bits, meaningful inside the window
//! only (never cleared when `snd_una` passes them: a new packet clears its slot); no lost bits
//! but a pointer `rtx` (the lost PSNs are the unacknowledged ones of `[rtx, recovery_hi]`); no
//! claimed bytes but the running `flight` (`bytes_sent - bytes_recvd` less the retransmitted
//! bytes), the lost bytes counted from the bits when needed; `highest_acked`, `recovery_hi`,
//! `rtx` and the short packet as offsets back from `snd_nxt`.
//!
//! The settled head's stages still hold the first design's arithmetic in series (the SACK's
//! tests on the settling searches, which S2 makes from the shell's `g_record`; the run's
//! search and the lost range, with the holes' 4-bit counts; the count's sum and the lowest
//! lost PSN), each search a balanced tree (`crate::first_set`); making them parallel is the
//! next design (`docs/blocks/nic_sender.md`, "The next design").

use rust_hdl::prelude::*;

use crate::context_pipe_hold::{ContextPipeHold, COMPUTE_STAGE};
use crate::first_set::FirstSet;
use crate::widgets::{
    BackRange, PrefixOr, RunBelow, SegmentFlag, TopLookup, TopTable, WindowCountTest, WindowOpen,
    WindowThresholds, WINDOW_THR_BITS,
};

/// The events ahead whose repositions unsettle an event: the model's settling distance less
/// one (the hold shell shows at S3 which of the 4 events ahead had the same id).
pub const SETTLE_AHEAD: u32 = 4;
const _: () = assert!(strack_config::NIC_SENDER_SETTLE == SETTLE_AHEAD as u64 + 1);

/// Latency: S0..S2, the hold stages H1..H3, S3, and the output register.
pub const LATENCY: u32 = COMPUTE_STAGE + 1;

/// Record bits before the acknowledged bits: `snd_nxt` 24, bytes sent, bytes received, flight,
/// probe time, timeout time, backlog (32 each), then ack-since-probe, `highest_acked` valid,
/// recovery valid, short valid (1 each).
const FIXED_BITS: usize = 220;

/// Record bits at window `w`: the fixed part, the acknowledged bits, the outstanding count and
/// `rtx`'s offset (`log2 w + 1` each), `highest_acked`'s, `recovery_hi`'s and the short
/// packet's offsets (`log2 w` each), the short packet's length (16), the lost view (32: the
/// lost bytes as the last settled event left them).
pub const fn record_bits(w: usize) -> usize {
    let l = w.trailing_zeros() as usize;
    FIXED_BITS + w + 2 * (l + 1) + 3 * l + 16 + 32
}

/// Event bits at segment `sb`: kind 3, now 32, open wide 1, open
/// PSN 24, SACK format bad 1, EPSN 24, base 24, bytes received 32, out-of-order count 32,
/// time stamp 32, probe 1, doorbell bytes 32, then the segment's `sb` bits.
pub const fn event_bits(sb: usize) -> usize {
    238 + sb
}

/// Bits of the loop's table of the segment's tops at segment `sb` (`widgets::TopTable`): for
/// each bound `p` in `0..=sb`, the highest set bit of the bitmap below `p` (its index, 8
/// bits, and whether there is one).
pub const fn top_table_bits(sb: usize) -> usize {
    9 * (sb + 1)
}

/// `s_kind`: a timer check (also 5..=7).
pub const KIND_TIMER: u64 = 0;
/// `s_kind`: an open (or restart) at `s_open_psn`.
pub const KIND_OPEN: u64 = 1;
/// `s_kind`: a SACK arrived.
pub const KIND_SACK: u64 = 2;
/// `s_kind`: a transmit opportunity.
pub const KIND_TRANSMIT: u64 = 3;
/// `s_kind`: a doorbell of `s_doorbell_bytes`.
pub const KIND_DOORBELL: u64 = 4;

/// `m_tx_kind`.
pub const TX_NEW: u64 = 0;
pub const TX_RETRANSMIT: u64 = 1;
pub const TX_PROBE: u64 = 2;
/// `m_loss_kind`.
pub const LOSS_OOO: u64 = 0;
pub const LOSS_PROBE: u64 = 1;
pub const LOSS_TIMEOUT: u64 = 2;

/// The timing constants of the sender, from the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SenderConsts {
    pub mtu: u32,
    pub mtu_log2: u32,
    pub net_base_rtt_ns: u32,
    pub probe_interval_ns: u32,
    pub rto_ns: u32,
    pub ooo_min_threshold: u32,
}

/// The record of a connection opened at `psn`: everything zero but `snd_nxt` and the byte
/// counters (`bytes`, sent and received alike: nothing in flight).
pub fn initial_record<const D: usize>(psn: u32, bytes: u32) -> Bits<D> {
    let b = bit_cast::<D, 32>(bits::<32>(u64::from(bytes)));
    bit_cast::<D, 32>(bits::<32>(u64::from(psn & 0xFF_FFFF))) | (b << 24) | (b << 56)
}

/// Level k of a popcount on `v`'s fields: the low half of every field of 2^(k+1) bits.
fn field_mask<const W: usize>(k: usize) -> Constant<Bits<W>> {
    let mut b = Bits::<W>::default();
    for i in (0..W).filter(|i| (i >> k) & 1 == 0) {
        b = b.replace_bit(i, true);
    }
    Constant::new(b)
}

/// The set bits of every 4-bit field of `v`, in place (combinational): the first two levels
/// of a popcount, fields of 2 and 4 bits summed. Each bit of a field's count is a function of
/// its 4 bits: one LUT level, so that the head makes it a stage before the rest of the count
/// ([`NibbleCountSum`]) at little cost to that stage.
#[derive(LogicBlock)]
pub struct NibbleCounts<const W: usize> {
    pub v: Signal<In, Bits<W>>,
    pub counts: Signal<Out, Bits<W>>,
    c_m0: Constant<Bits<W>>,
    c_m1: Constant<Bits<W>>,
    s: Signal<Local, Bits<W>>,
}

impl<const W: usize> Default for NibbleCounts<W> {
    fn default() -> Self {
        NibbleCounts {
            v: Default::default(),
            counts: Default::default(),
            c_m0: field_mask(0),
            c_m1: field_mask(1),
            s: Default::default(),
        }
    }
}

impl<const W: usize> Logic for NibbleCounts<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.s.next = self.v.val();
        self.s.next = (self.s.val() & self.c_m0.val()) + ((self.s.val() >> 1) & self.c_m0.val());
        self.s.next = (self.s.val() & self.c_m1.val()) + ((self.s.val() >> 2) & self.c_m1.val());
        self.counts.next = self.s.val();
    }
}

/// The sum of the 4-bit fields of `v` (combinational), each a count from [`NibbleCounts`]: the
/// rest of a popcount, fields of 8, 16, ... bits summed in place.
#[derive(LogicBlock)]
pub struct NibbleCountSum<const W: usize> {
    pub v: Signal<In, Bits<W>>,
    pub count: Signal<Out, Bits<16>>,
    c_m2: Constant<Bits<W>>,
    c_m3: Constant<Bits<W>>,
    c_m4: Constant<Bits<W>>,
    c_m5: Constant<Bits<W>>,
    c_m6: Constant<Bits<W>>,
    c_m7: Constant<Bits<W>>,
    c_m8: Constant<Bits<W>>,
    c_m9: Constant<Bits<W>>,
    c_m10: Constant<Bits<W>>,
    c_m11: Constant<Bits<W>>,
    s: Signal<Local, Bits<W>>,
}

impl<const W: usize> Default for NibbleCountSum<W> {
    fn default() -> Self {
        NibbleCountSum {
            v: Default::default(),
            count: Default::default(),
            c_m2: field_mask(2),
            c_m3: field_mask(3),
            c_m4: field_mask(4),
            c_m5: field_mask(5),
            c_m6: field_mask(6),
            c_m7: field_mask(7),
            c_m8: field_mask(8),
            c_m9: field_mask(9),
            c_m10: field_mask(10),
            c_m11: field_mask(11),
            s: Default::default(),
        }
    }
}

impl<const W: usize> Logic for NibbleCountSum<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.s.next = self.v.val();
        self.s.next = (self.s.val() & self.c_m2.val()) + ((self.s.val() >> 4) & self.c_m2.val());
        self.s.next = (self.s.val() & self.c_m3.val()) + ((self.s.val() >> 8) & self.c_m3.val());
        self.s.next = (self.s.val() & self.c_m4.val()) + ((self.s.val() >> 16) & self.c_m4.val());
        self.s.next = (self.s.val() & self.c_m5.val()) + ((self.s.val() >> 32) & self.c_m5.val());
        self.s.next = (self.s.val() & self.c_m6.val()) + ((self.s.val() >> 64) & self.c_m6.val());
        self.s.next = (self.s.val() & self.c_m7.val()) + ((self.s.val() >> 128) & self.c_m7.val());
        self.s.next = (self.s.val() & self.c_m8.val()) + ((self.s.val() >> 256) & self.c_m8.val());
        self.s.next = (self.s.val() & self.c_m9.val()) + ((self.s.val() >> 512) & self.c_m9.val());
        self.s.next =
            (self.s.val() & self.c_m10.val()) + ((self.s.val() >> 1024) & self.c_m10.val());
        self.s.next =
            (self.s.val() & self.c_m11.val()) + ((self.s.val() >> 2048) & self.c_m11.val());
        self.count.next = self.s.val().get_bits::<16>(0);
    }
}

/// The result word of the head ([`SenderLoss`] and [`SenderPick`], `m_flags`): bit 0 opened,
/// 1 open refused, 2 SACK accepted, 3 SACK malformed, 4 a probe or a retransmission sent, 5..7
/// its kind, 7 loss declared, 8..10 its kind, 10 repositioned (new data aside), 11 a transmit
/// may send new data, 12..44 the acknowledged bytes, 44..76 the packet's PSN, 76..108 its
/// length.
pub const HEAD_FLAGS: usize = 108;

/// The head's first stage (combinational): the record and the event unpacked, the settling
/// run, the SACK's validation, its segment's marks and `highest_acked`. A settled event's at
/// H1 on the snapshot, an unsettled event's at S3 (no settling run). `W`, `SB`, `D`, `E` as
/// [`NicSenderRtl`]'s.
#[derive(LogicBlock)]
pub struct SenderSack<const W: usize, const SB: usize, const D: usize, const E: usize> {
    /// The record as the events before it left it (settled: the snapshot).
    pub s_record: Signal<In, Bits<D>>,
    /// The event, packed (`event_bits`).
    pub s_event: Signal<In, Bits<E>>,
    /// `snd_nxt - base` (mod 2^24) of this record and event, made by the caller from registers
    /// (in the loop, one of two made a cycle early for the two records S3 can take), so that no
    /// subtraction follows the record's select.
    pub s_b: Signal<In, Bits<32>>,
    /// `snd_nxt - EPSN` (mod 2^24), made the same way.
    pub s_e: Signal<In, Bits<32>>,
    /// The segment's top below `b`: the highest set bit of the bitmap below `min(b, SB)` (any
    /// such bit, and its index), made by the caller (looked up in a table made a cycle early
    /// from the event alone; unused when `b >= 2W`).
    pub s_top_any: Signal<In, Bit>,
    pub s_top_idx: Signal<In, Bits<16>>,
    /// `sbytes - bytes_sent` and `sbytes - bytes_received` (mod 2^32) of this record and
    /// event, made by the caller as `s_b`.
    pub s_bytes_d: Signal<In, Bits<32>>,
    pub s_bd: Signal<In, Bits<32>>,
    /// Unsettled only: `e`'s low bits against the record's `out` (bit 0: `e < out`; bit 1:
    /// `e` is 0 or `e <= out`), made by the caller as `s_b`: `e - out` is `snd_una - EPSN`,
    /// which new data does not move, so the event right ahead makes them for this one beside
    /// its loop and no compare follows the record's select.
    pub s_e_out: Signal<In, Bits<2>>,
    /// Unsettled only: `b`'s low bits against `out` (bit 16: `b <= out`; the low bits:
    /// `b - out`, that is `snd_una - base`), made the same way: the segment's top is inside
    /// `out` when `b <= out` or `top >= b - out`.
    pub s_b_out: Signal<In, Bits<17>>,
    /// Settled only: `snd_una` of the record (`snd_nxt - out`), made by the caller as `s_b`
    /// (at S2), so that the runs' bounds from its slot wait on no subtraction.
    pub s_una: Signal<In, Bits<32>>,
    /// Settled only: the record's outstanding count, made the same way.
    pub s_out: Signal<In, Bits<16>>,
    /// Settled only: the settling searches over the record's acknowledged bits, made the same
    /// way (from `s_una`'s slot, at S2), so that no search follows the snapshot's select: bits
    /// 0..16 the first clear slot at or above `snd_una`'s, 16..32 the first clear slot, 32 and
    /// 33 whether there is one.
    pub s_found: Signal<In, Bits<34>>,
    /// Settled only: `snd_una`'s own slot acknowledged, made the same way.
    pub s_acked0: Signal<In, Bit>,
    /// The event is unsettled (DECISION "settled searches"): no settling run.
    pub s_unsettled: Signal<In, Bit>,
    /// The record after the settling run (`snd_una`, `rto_ts`, `highest_acked`,
    /// recovery, `rtx`, the short packet).
    pub m_record: Signal<Out, Bits<D>>,
    /// A SACK accepted.
    pub m_acc: Signal<Out, Bit>,
    /// A SACK malformed.
    pub m_sack_malformed: Signal<Out, Bit>,
    /// Its EPSN moves `snd_una`.
    pub m_ahead: Signal<Out, Bit>,
    /// `snd_una` after the EPSN (the run not made).
    pub m_una1: Signal<Out, Bits<32>>,
    /// The outstanding count after the EPSN.
    pub m_out1: Signal<Out, Bits<16>>,
    /// The acknowledged bits with the segment's marks.
    pub m_acked1: Signal<Out, Bits<W>>,
    /// `highest_acked` with the segment's top: valid, offset back.
    pub m_h1v: Signal<Out, Bit>,
    pub m_h1b: Signal<Out, Bits<16>>,
    /// For an unsettled event (no run): `highest_acked` still inside `out1` (`h1b < out1`),
    /// made without `h1b`.
    pub m_h2v_u: Signal<Out, Bit>,
    /// The byte count's advance (0 unless it moves forward).
    pub m_acked_bytes: Signal<Out, Bits<32>>,
    /// The settling run moved `snd_una`.
    pub m_moved0: Signal<Out, Bit>,

    cfg_psn_mask: Constant<Bits<32>>,
    cfg_w: Constant<Bits<16>>,
    /// `W - 1`: a PSN's slot, and the width of the offsets back from `snd_nxt`.
    cfg_slot_mask: Constant<Bits<16>>,
    /// `2W - 1`: the outstanding count and `rtx`'s offset (0..=W).
    cfg_mask_lo: Constant<Bits<16>>,
    cfg_off_out: Constant<Bits<16>>,
    cfg_off_rtx: Constant<Bits<16>>,
    cfg_off_h: Constant<Bits<16>>,
    cfg_off_hi: Constant<Bits<16>>,
    cfg_off_short: Constant<Bits<16>>,
    /// The record's bits the settling run never writes.
    cfg_keep: Constant<Bits<D>>,
    /// The bits of an offset back from `snd_nxt` above `2W - 1`, without or with bit 23.
    cfg_mid_mask: Constant<Bits<32>>,
    /// A PSN's bits above its slot.
    cfg_above_slot: Constant<Bits<32>>,
    cfg_far_mask: Constant<Bits<32>>,
    cfg_ones_sb: Constant<Bits<SB>>,

    run_hb: RunBelow<W>,
    run_hib: RunBelow<W>,
    run_shb: RunBelow<W>,
    run_rtx: RunBelow<W>,
    run_e: RunBelow<W>,
    run_e1: RunBelow<W>,
    run_top: RunBelow<W>,
    run_cap: RunBelow<W>,

    hi_idx: Signal<Local, Bits<16>>,
    all_idx: Signal<Local, Bits<16>>,
    rec: Signal<Local, Bits<D>>,
    ev: Signal<Local, Bits<E>>,
    unsettled: Signal<Local, Bit>,
    nxt: Signal<Local, Bits<32>>,
    r_rts: Signal<Local, Bits<32>>,
    r_hv: Signal<Local, Bit>,
    r_hiv: Signal<Local, Bit>,
    r_sv: Signal<Local, Bit>,
    acked: Signal<Local, Bits<W>>,
    r_out: Signal<Local, Bits<16>>,
    r_rtxb: Signal<Local, Bits<16>>,
    hb: Signal<Local, Bits<16>>,
    hib: Signal<Local, Bits<16>>,
    shb: Signal<Local, Bits<16>>,
    kind: Signal<Local, Bits<3>>,
    is_open: Signal<Local, Bit>,
    is_sack: Signal<Local, Bit>,
    now: Signal<Local, Bits<32>>,
    fmt_bad: Signal<Local, Bit>,
    epsn: Signal<Local, Bits<32>>,
    base: Signal<Local, Bits<32>>,
    bitmap: Signal<Local, Bits<SB>>,
    settling: Signal<Local, Bit>,
    r_una: Signal<Local, Bits<32>>,
    r_slot: Signal<Local, Bits<16>>,
    moved0: Signal<Local, Bit>,
    capped: Signal<Local, Bit>,
    una_top: Signal<Local, Bits<32>>,
    una_wrap: Signal<Local, Bits<32>>,
    o_hi: Signal<Local, Bits<16>>,
    out: Signal<Local, Bits<16>>,
    rts: Signal<Local, Bits<32>>,
    hv: Signal<Local, Bit>,
    hiv: Signal<Local, Bit>,
    sv: Signal<Local, Bit>,
    rtxb: Signal<Local, Bits<16>>,
    una: Signal<Local, Bits<32>>,
    e: Signal<Local, Bits<32>>,
    e23: Signal<Local, Bit>,
    e_lo: Signal<Local, Bits<16>>,
    e_near: Signal<Local, Bit>,
    e_le: Signal<Local, Bit>,
    lt_e: Signal<Local, Bit>,
    le_e: Signal<Local, Bit>,
    rtx_gt: Signal<Local, Bit>,
    b: Signal<Local, Bits<32>>,
    b_lo: Signal<Local, Bits<16>>,
    below_b: Signal<Local, Bits<SB>>,
    near_b: Signal<Local, Bit>,
    top_any: Signal<Local, Bit>,
    top_idx: Signal<Local, Bits<16>>,
    below_hi: Signal<Local, Bits<SB>>,
    top_cut: Signal<Local, Bit>,
    top_near: Signal<Local, Bit>,
    t_hb: Signal<Local, Bits<16>>,
    t_hib: Signal<Local, Bits<16>>,
    t_shb: Signal<Local, Bits<16>>,
    t_rtx: Signal<Local, Bits<16>>,
    t_e: Signal<Local, Bits<16>>,
    c_top: Signal<Local, Bits<16>>,
    t_top: Signal<Local, Bits<16>>,
    lt_top: Signal<Local, Bit>,
    base_slot: Signal<Local, Bits<16>>,
    placed: Signal<Local, Bits<W>>,
    top_in: Signal<Local, Bit>,
    bytes_d: Signal<Local, Bits<32>>,
    malformed: Signal<Local, Bit>,
    acc: Signal<Local, Bit>,
    ahead: Signal<Local, Bit>,
    una1: Signal<Local, Bits<32>>,
    out1: Signal<Local, Bits<16>>,
    acked1: Signal<Local, Bits<W>>,
    hs_back: Signal<Local, Bits<16>>,
    h1v: Signal<Local, Bit>,
    h1b: Signal<Local, Bits<16>>,
    h2v_u: Signal<Local, Bit>,
    bd: Signal<Local, Bits<32>>,
    bytes_gt: Signal<Local, Bit>,
    acked_bytes: Signal<Local, Bits<32>>,
    settled: Signal<Local, Bits<D>>,
}

impl<const W: usize, const SB: usize, const D: usize, const E: usize> Default
    for SenderSack<W, SB, D, E>
{
    /// The block (no timing constant of the config's in it).
    fn default() -> Self {
        let l = W.trailing_zeros() as usize;
        let off_out = FIXED_BITS + W;
        let c16 = |v: u64| Constant::new(bits::<16>(v));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let mut keep = !Bits::<D>::default();
        let out_bits = (off_out..off_out + l + 1).chain(off_out + l + 1..off_out + 2 * (l + 1));
        for i in (152..184).chain(217..220).chain(out_bits) {
            keep = keep.replace_bit(i, false);
        }
        SenderSack {
            s_record: Default::default(),
            s_event: Default::default(),
            s_b: Default::default(),
            s_e: Default::default(),
            s_top_any: Default::default(),
            s_top_idx: Default::default(),
            s_bytes_d: Default::default(),
            s_bd: Default::default(),
            s_e_out: Default::default(),
            s_b_out: Default::default(),
            s_una: Default::default(),
            s_out: Default::default(),
            s_found: Default::default(),
            s_acked0: Default::default(),
            s_unsettled: Default::default(),
            m_record: Default::default(),
            m_acc: Default::default(),
            m_sack_malformed: Default::default(),
            m_ahead: Default::default(),
            m_una1: Default::default(),
            m_out1: Default::default(),
            m_acked1: Default::default(),
            m_h1v: Default::default(),
            m_h2v_u: Default::default(),
            m_h1b: Default::default(),
            m_acked_bytes: Default::default(),
            m_moved0: Default::default(),
            cfg_psn_mask: c32(0xFF_FFFF),
            cfg_w: c16(W as u64),
            cfg_slot_mask: c16(W as u64 - 1),
            cfg_mask_lo: c16(2 * W as u64 - 1),
            cfg_off_out: c16(off_out as u64),
            cfg_off_rtx: c16((off_out + l + 1) as u64),
            cfg_off_h: c16((off_out + 2 * (l + 1)) as u64),
            cfg_off_hi: c16((off_out + 2 * (l + 1) + l) as u64),
            cfg_off_short: c16((off_out + 2 * (l + 1) + 2 * l) as u64),
            cfg_keep: Constant::new(keep),
            cfg_mid_mask: c32(0x7F_FFFF & !(2 * W as u64 - 1)),
            cfg_above_slot: c32(0xFF_FFFF & !(W as u64 - 1)),
            cfg_far_mask: c32(0xFF_FFFF & !(2 * W as u64 - 1)),
            cfg_ones_sb: Constant::new(!Bits::<SB>::default()),
            run_hb: Default::default(),
            run_hib: Default::default(),
            run_shb: Default::default(),
            run_rtx: Default::default(),
            run_e: Default::default(),
            run_e1: Default::default(),
            run_top: Default::default(),
            run_cap: Default::default(),
            hi_idx: Default::default(),
            all_idx: Default::default(),
            rec: Default::default(),
            ev: Default::default(),
            unsettled: Default::default(),
            nxt: Default::default(),
            r_rts: Default::default(),
            r_hv: Default::default(),
            r_hiv: Default::default(),
            r_sv: Default::default(),
            acked: Default::default(),
            r_out: Default::default(),
            r_rtxb: Default::default(),
            hb: Default::default(),
            hib: Default::default(),
            shb: Default::default(),
            kind: Default::default(),
            is_open: Default::default(),
            is_sack: Default::default(),
            now: Default::default(),
            fmt_bad: Default::default(),
            epsn: Default::default(),
            base: Default::default(),
            bitmap: Default::default(),
            settling: Default::default(),
            r_una: Default::default(),
            r_slot: Default::default(),
            moved0: Default::default(),
            capped: Default::default(),
            una_top: Default::default(),
            una_wrap: Default::default(),
            o_hi: Default::default(),
            out: Default::default(),
            rts: Default::default(),
            hv: Default::default(),
            hiv: Default::default(),
            sv: Default::default(),
            rtxb: Default::default(),
            una: Default::default(),
            e: Default::default(),
            e23: Default::default(),
            e_lo: Default::default(),
            e_near: Default::default(),
            e_le: Default::default(),
            lt_e: Default::default(),
            le_e: Default::default(),
            rtx_gt: Default::default(),
            b: Default::default(),
            b_lo: Default::default(),
            below_b: Default::default(),
            near_b: Default::default(),
            top_any: Default::default(),
            top_idx: Default::default(),
            below_hi: Default::default(),
            top_cut: Default::default(),
            top_near: Default::default(),
            t_hb: Default::default(),
            t_hib: Default::default(),
            t_shb: Default::default(),
            t_rtx: Default::default(),
            t_e: Default::default(),
            c_top: Default::default(),
            t_top: Default::default(),
            lt_top: Default::default(),
            base_slot: Default::default(),
            placed: Default::default(),
            top_in: Default::default(),
            bytes_d: Default::default(),
            malformed: Default::default(),
            acc: Default::default(),
            ahead: Default::default(),
            una1: Default::default(),
            out1: Default::default(),
            acked1: Default::default(),
            hs_back: Default::default(),
            h1v: Default::default(),
            h1b: Default::default(),
            h2v_u: Default::default(),
            bd: Default::default(),
            bytes_gt: Default::default(),
            acked_bytes: Default::default(),
            settled: Default::default(),
        }
    }
}

impl<const W: usize, const SB: usize, const D: usize, const E: usize> Logic
    for SenderSack<W, SB, D, E>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The record and the event unpacked.
        self.rec.next = self.s_record.val();
        self.ev.next = self.s_event.val();
        self.unsettled.next = self.s_unsettled.val();
        self.nxt.next = bit_cast::<32, 24>(self.rec.val().get_bits::<24>(0));
        self.r_rts.next = self.rec.val().get_bits::<32>(152);
        self.r_hv.next = self.rec.val().get_bit(217);
        self.r_hiv.next = self.rec.val().get_bit(218);
        self.r_sv.next = self.rec.val().get_bit(219);
        self.acked.next = self.rec.val().get_bits::<W>(220);
        self.r_out.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_out.val()) & self.cfg_mask_lo.val();
        if !self.unsettled.val() {
            self.r_out.next = self.s_out.val();
        }
        self.r_rtxb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_rtx.val()) & self.cfg_mask_lo.val();
        self.hb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_h.val()) & self.cfg_slot_mask.val();
        self.hib.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_hi.val()) & self.cfg_slot_mask.val();
        self.shb.next = bit_cast::<16, D>(self.rec.val() >> self.cfg_off_short.val())
            & self.cfg_slot_mask.val();
        self.kind.next = self.ev.val().get_bits::<3>(0);
        self.is_open.next = self.kind.val() == 1_usize.to_bits::<3>();
        self.is_sack.next = self.kind.val() == 2_usize.to_bits::<3>();
        self.now.next = self.ev.val().get_bits::<32>(3);
        self.fmt_bad.next = self.ev.val().get_bit(60);
        self.epsn.next = bit_cast::<32, 24>(self.ev.val().get_bits::<24>(61));
        self.base.next = bit_cast::<32, 24>(self.ev.val().get_bits::<24>(85));
        self.bitmap.next = self.ev.val().get_bits::<SB>(238);
        // ---- The settling run (DECISION "settled searches"): a settled event other than an
        // open first runs snd_una over the acknowledged PSNs at its head (what unsettled SACKs
        // left), drops highest_acked and ends recovery if snd_una passed them, and forgets the
        // short packet once passed.
        self.settling.next = !self.unsettled.val() & !self.is_open.val();
        self.r_una.next =
            (self.nxt.val() - bit_cast::<32, 16>(self.r_out.val())) & self.cfg_psn_mask.val();
        if !self.unsettled.val() {
            self.r_una.next = self.s_una.val();
        }
        self.r_slot.next = bit_cast::<16, 32>(self.r_una.val()) & self.cfg_slot_mask.val();
        // The searches (the first clear slot from r_slot up, and from slot 0), made at S2 by
        // the caller (`s_found`, packed for `RunBelow`).
        self.hi_idx.next = self.s_found.val().get_bits::<16>(0);
        self.all_idx.next = self.s_found.val().get_bits::<16>(16);
        // The run (capped at r_out) ends at the first clear slot from r_slot, `idx`; after
        // the search only selects and one subtraction remain. snd_una's new PSN is r_una's
        // bits above the slot with idx as the slot (`una_top | idx`), or for a wrapped run
        // `una_top + W` with it; the count left is r_slot + r_out - idx (less W wrapped); the
        // cap (the run not below r_out + 1; with r_out = W and no clear slot `RunBelow` says
        // "not below" to a run of W, capped at W all the same) leaves snd_nxt and 0. The run
        // moves snd_una when r_una's own slot is acknowledged (and something is out): no
        // search needed.
        self.una_top.next = self.r_una.val() & self.cfg_above_slot.val();
        self.una_wrap.next =
            (self.una_top.val() + bit_cast::<32, 16>(self.cfg_w.val())) & self.cfg_psn_mask.val();
        self.o_hi.next = self.r_slot.val() + self.r_out.val();
        self.run_cap.s_found.next = self.s_found.val();
        self.run_cap.s_bound.next = self.o_hi.val() + 1_usize.to_bits::<16>();
        self.capped.next = !self.run_cap.m_below.val();
        self.moved0.next = self.settling.val() & self.r_out.val().any() & self.s_acked0.val();
        self.out.next = self.r_out.val();
        self.una.next = self.r_una.val();
        if self.settling.val() {
            if self.capped.val() {
                self.out.next = 0.into();
                self.una.next = self.nxt.val();
            } else if self.s_found.val().get_bit(32) {
                self.out.next = self.o_hi.val() - self.hi_idx.val();
                self.una.next = self.una_top.val() | bit_cast::<32, 16>(self.hi_idx.val());
            } else {
                self.out.next = self.o_hi.val() - self.cfg_w.val() - self.all_idx.val();
                self.una.next = self.una_wrap.val() | bit_cast::<32, 16>(self.all_idx.val());
            }
        }
        self.rts.next = self.r_rts.val();
        if self.moved0.val() {
            self.rts.next = self.now.val();
        }
        self.hv.next = self.r_hv.val();
        self.hiv.next = self.r_hiv.val();
        self.sv.next = self.r_sv.val();
        self.rtxb.next = self.r_rtxb.val();
        // x < out (highest_acked's, recovery_hi's or the short packet's offset back, x < r_out)
        // is the run below r_out - x: the search's index against r_slot + r_out - x
        // (`RunBelow`), made before the search, with no subtraction after it. And
        // out < rtx's offset (0 < rtxb <= r_out) is the run not below r_out - rtxb + 1.
        self.t_hb.next = self.r_slot.val() + self.r_out.val() - self.hb.val();
        self.t_hib.next = self.r_slot.val() + self.r_out.val() - self.hib.val();
        self.t_shb.next = self.r_slot.val() + self.r_out.val() - self.shb.val();
        self.t_rtx.next =
            self.r_slot.val() + self.r_out.val() - self.r_rtxb.val() + 1_usize.to_bits::<16>();
        self.run_hb.s_found.next = self.s_found.val();
        self.run_hb.s_bound.next = self.t_hb.val();
        self.run_hib.s_found.next = self.s_found.val();
        self.run_hib.s_bound.next = self.t_hib.val();
        self.run_shb.s_found.next = self.s_found.val();
        self.run_shb.s_bound.next = self.t_shb.val();
        self.run_rtx.s_found.next = self.s_found.val();
        self.run_rtx.s_bound.next = self.t_rtx.val();
        self.rtx_gt.next = (self.r_rtxb.val() > self.r_out.val())
            | (self.r_rtxb.val().any() & !self.run_rtx.m_below.val());
        if self.settling.val() {
            self.hv.next =
                self.r_hv.val() & (self.hb.val() < self.r_out.val()) & self.run_hb.m_below.val();
            self.hiv.next =
                self.r_hiv.val() & (self.hib.val() < self.r_out.val()) & self.run_hib.m_below.val();
            self.sv.next =
                self.r_sv.val() & (self.shb.val() < self.r_out.val()) & self.run_shb.m_below.val();
            if self.rtx_gt.val() {
                self.rtxb.next = self.out.val();
            }
        }

        // ---- The SACK: validated against the window and the bytes sent. Its EPSN and base
        // are taken as offsets back from snd_nxt (`e`, `b`), made by the caller from registers
        // (`s_e`, `s_b`), so that after the settling search only short compares on `out`
        // remain and, in the loop, no subtraction follows the record's select.
        self.e.next = self.s_e.val();
        self.e23.next = self.e.val().get_bit(23);
        self.e_lo.next = bit_cast::<16, 32>(self.e.val()) & self.cfg_mask_lo.val();
        self.e_near.next = !(self.e.val() & self.cfg_mid_mask.val()).any();
        self.bytes_d.next = self.s_bytes_d.val();
        // `e`'s low bits within `out`: with e below 2^23 the EPSN is in [snd_una, snd_nxt]
        // (ahead of snd_una when e < out), else below snd_una; with e at or above 2^23 (the
        // EPSN ahead of snd_nxt) it is below snd_una when e - 2^23 <= out (the PSN order's
        // half-way rule), else malformed. `out` is at most W, far below 2^23. Both compares
        // are the run's index against bounds as above: e < out is the run below r_out - e,
        // e <= out (0 < e <= r_out) the run below r_out - e + 1.
        self.t_e.next = self.r_slot.val() + self.r_out.val() - self.e_lo.val();
        self.run_e.s_found.next = self.s_found.val();
        self.run_e.s_bound.next = self.t_e.val();
        self.run_e1.s_found.next = self.s_found.val();
        self.run_e1.s_bound.next = self.t_e.val() + 1_usize.to_bits::<16>();
        self.lt_e.next = (self.e_lo.val() < self.r_out.val())
            & (!self.settling.val() | self.run_e.m_below.val());
        self.le_e.next = !self.e_lo.val().any()
            | ((self.e_lo.val() <= self.r_out.val())
                & (!self.settling.val() | self.run_e1.m_below.val()));
        if self.unsettled.val() {
            self.lt_e.next = self.s_e_out.val().get_bit(0);
            self.le_e.next = self.s_e_out.val().get_bit(1);
        }
        self.e_le.next = self.e_near.val() & self.le_e.val();
        self.malformed.next = self.fmt_bad.val()
            | (self.e23.val() & !self.e_le.val())
            | (self.bytes_d.val().any() & !self.bytes_d.val().get_bit(31));
        self.acc.next = self.is_sack.val() & !self.malformed.val();
        // An EPSN ahead of snd_una moves it (used only when the SACK is accepted).
        self.ahead.next = !self.e23.val() & self.e_near.val() & self.lt_e.val();
        self.una1.next = self.una.val();
        self.out1.next = self.out.val();
        if self.ahead.val() {
            self.una1.next = self.epsn.val();
            self.out1.next = self.e_lo.val();
        }
        // The segment's bit i (PSN base + i) lies b - i back from snd_nxt, so inside
        // [una1, snd_nxt) exactly when b - out1 <= i < b. The marks are cut to the bits at
        // most W back only, from the event alone: a bit further back would land on a slot of
        // the window, and the kept bits outside [una1, snd_nxt) lie on slots no step reads
        // (an acknowledged bit outside the window is never read, and a new packet clears its
        // slot: "Context record"), so neither `out` nor the EPSN's compare is on the marks'
        // path. Placed on their slots (base is a multiple of SB, SB divides W: no wrap).
        self.b.next = self.s_b.val();
        self.b_lo.next = bit_cast::<16, 32>(self.b.val()) & self.cfg_mask_lo.val();
        self.near_b.next = !(self.b.val() & self.cfg_far_mask.val()).any();
        self.below_b.next = 0.into();
        if self.near_b.val() {
            self.below_b.next = self.bitmap.val() & !(self.cfg_ones_sb.val() << self.b_lo.val());
        }
        self.below_hi.next = self.below_b.val();
        if self.b_lo.val() > self.cfg_w.val() {
            self.below_hi.next = self.below_hi.val()
                & (self.cfg_ones_sb.val() << (self.b_lo.val() - self.cfg_w.val()));
        }
        self.base_slot.next = bit_cast::<16, 32>(self.base.val()) & self.cfg_slot_mask.val();
        self.placed.next = bit_cast::<W, SB>(self.below_hi.val()) << self.base_slot.val();
        self.acked1.next = self.acked.val() | self.placed.val();
        // highest_acked: the later (the nearer to snd_nxt) of itself and the segment's top,
        // the highest bit of the cut segment, b - 1 - top back from snd_nxt. The caller gives
        // the top of the segment cut below b only (`s_top_*`: both heads look it up in a table
        // made a stage earlier from the event alone), so that neither `e` nor the cut is
        // on its path: cut to the window (`cut`, r_out, or e when the EPSN is nearer) the
        // segment keeps the bits at and above b - cut, so the cut segment's highest is that
        // top when top >= b - cut (`top_cut`), else it has none.
        // The top is nearer than highest_acked when b - 1 - top < hb, top >= b - hb
        // (`top_near`). Both bounds are made beside the search. A kept top is less than `cut`
        // back (hs_back < cut <= r_out), so it lies in [una1, snd_nxt) when hs_back < out: the
        // run below r_out - hs_back, tested as hv's, its bound r_slot + r_out - b + 1 + top
        // made with one addition after the top's search.
        self.top_any.next = self.near_b.val() & self.s_top_any.val();
        self.top_idx.next = self.s_top_idx.val();
        self.hs_back.next = self.b_lo.val() - 1_usize.to_bits::<16>() - self.top_idx.val();
        // Kept, the top is less than `cut` back: less than r_out back, and less than e back
        // when the EPSN is in reach (e at or past r_out, the first test is the stronger). So
        // the compare with r_out is beside the EPSN's, not behind it.
        self.top_cut.next = (self.hs_back.val() < self.r_out.val())
            & (self.e23.val() | !self.e_near.val() | (self.hs_back.val() < self.e_lo.val()));
        if self.unsettled.val() {
            self.top_cut.next = (self.s_b_out.val().get_bit(16)
                | (self.top_idx.val() >= self.s_b_out.val().get_bits::<16>(0)))
                & (self.e23.val() | !self.e_near.val() | (self.hs_back.val() < self.e_lo.val()));
        }
        self.top_near.next = (self.b_lo.val() <= self.hb.val())
            | (self.top_idx.val() >= self.b_lo.val() - self.hb.val());
        self.c_top.next =
            self.r_slot.val() + self.r_out.val() + 1_usize.to_bits::<16>() - self.b_lo.val();
        self.t_top.next = self.c_top.val() + self.top_idx.val();
        self.run_top.s_found.next = self.s_found.val();
        self.run_top.s_bound.next = self.t_top.val();
        self.lt_top.next = !self.settling.val() | self.run_top.m_below.val();
        self.top_in.next = self.top_any.val() & self.top_cut.val() & self.lt_top.val();
        self.h1v.next = self.hv.val() | self.top_in.val();
        self.h1b.next = self.hb.val();
        if self.top_in.val() & (!self.hv.val() | self.top_near.val()) {
            self.h1b.next = self.hs_back.val();
        }
        // Unsettled, `out` is r_out and `cut` is out1 (`ahead` is the cut's own test): a kept
        // top lies inside out1, and so does the nearer of it and highest_acked. So
        // `h1b < out1` is the top kept, or highest_acked's own test: no wait for `h1b`.
        // Both compares made beside `ahead`, which picks.
        self.h2v_u.next = self.top_in.val()
            | (self.hv.val()
                & ((self.ahead.val() & (self.hb.val() < self.e_lo.val()))
                    | (!self.ahead.val() & (self.hb.val() < self.out.val()))));
        // The byte count moves forward only.
        self.bd.next = self.s_bd.val();
        self.bytes_gt.next = self.bd.val().any() & !self.bd.val().get_bit(31);
        self.acked_bytes.next = 0.into();
        if self.bytes_gt.val() {
            self.acked_bytes.next = self.bd.val();
        }

        // ---- The record after the settling run, and the SACK's results.
        self.settled.next = (self.rec.val() & self.cfg_keep.val())
            | (bit_cast::<D, 32>(self.rts.val()) << 152)
            | (bit_cast::<D, 16>(self.out.val() & self.cfg_mask_lo.val())
                << self.cfg_off_out.val())
            | (bit_cast::<D, 16>(self.rtxb.val() & self.cfg_mask_lo.val())
                << self.cfg_off_rtx.val());
        self.settled.next = self.settled.val().replace_bit(217, self.hv.val());
        self.settled.next = self.settled.val().replace_bit(218, self.hiv.val());
        self.settled.next = self.settled.val().replace_bit(219, self.sv.val());
        self.m_record.next = self.settled.val();
        self.m_acc.next = self.acc.val();
        self.m_sack_malformed.next = self.is_sack.val() & self.malformed.val();
        self.m_ahead.next = self.ahead.val();
        self.m_una1.next = self.una1.val();
        self.m_out1.next = self.out1.val();
        self.m_acked1.next = self.acked1.val();
        self.m_h1v.next = self.h1v.val();
        self.m_h1b.next = self.h1b.val();
        self.m_h2v_u.next = self.h2v_u.val();
        self.m_acked_bytes.next = self.acked_bytes.val();
        self.m_moved0.next = self.moved0.val();
    }
}

/// The head's second stage (combinational): the run of acknowledged PSNs after a SACK, the
/// end of recovery, the loss detectors, the SACK's state, the timeout, and the lost range's
/// holes. `W`, `D`, `E` as [`NicSenderRtl`]'s.
#[derive(LogicBlock)]
pub struct SenderLoss<const W: usize, const D: usize, const E: usize> {
    /// The record after the settling run (`SenderSack::m_record`).
    pub s_record: Signal<In, Bits<D>>,
    /// The event, packed (`event_bits`).
    pub s_event: Signal<In, Bits<E>>,
    /// The window the event reads, bytes.
    pub s_cwnd: Signal<In, Bits<32>>,
    /// The cwnd unit's achievedBDP is zero.
    pub s_bdp_zero: Signal<In, Bit>,
    /// The event is unsettled: no run past the EPSN.
    pub s_unsettled: Signal<In, Bit>,
    /// `SenderSack`'s results.
    pub s_acc: Signal<In, Bit>,
    pub s_sack_malformed: Signal<In, Bit>,
    pub s_ahead: Signal<In, Bit>,
    pub s_una1: Signal<In, Bits<32>>,
    pub s_out1: Signal<In, Bits<16>>,
    pub s_acked1: Signal<In, Bits<W>>,
    pub s_h1v: Signal<In, Bit>,
    pub s_h1b: Signal<In, Bits<16>>,
    /// Unsettled: `h1b < out1` (`SenderSack`'s `m_h2v_u`).
    pub s_h2v_u: Signal<In, Bit>,
    pub s_acked_bytes: Signal<In, Bits<32>>,
    pub s_moved0: Signal<In, Bit>,
    /// The record after the SACK and the timeout (state B).
    pub m_record: Signal<Out, Bits<D>>,
    /// The lost PSNs' slots: the unacknowledged ones of `[rtx, recovery_hi]`.
    pub m_holes: Signal<Out, Bits<W>>,
    /// `rtx`'s slot.
    pub m_slot_rtx: Signal<Out, Bits<16>>,
    /// The results so far ([`HEAD_FLAGS`]: the SACK's verdicts and bytes, a loss).
    pub m_flags: Signal<Out, Bits<HEAD_FLAGS>>,

    cfg_w: Constant<Bits<16>>,
    /// `W - 1`: a PSN's slot, and the width of the offsets back from `snd_nxt`.
    cfg_slot_mask: Constant<Bits<16>>,
    /// `2W - 1`: the outstanding count and `rtx`'s offset (0..=W).
    cfg_mask_lo: Constant<Bits<16>>,
    cfg_off_out: Constant<Bits<16>>,
    cfg_off_rtx: Constant<Bits<16>>,
    cfg_off_h: Constant<Bits<16>>,
    cfg_off_hi: Constant<Bits<16>>,
    /// The record's bits the SACK and the timeout never write.
    cfg_keep: Constant<Bits<D>>,
    cfg_mtu_log2: Constant<Bits<16>>,
    cfg_two_rtt: Constant<Bits<32>>,
    cfg_rto: Constant<Bits<32>>,
    cfg_ooo_min: Constant<Bits<32>>,
    cfg_ones_w: Constant<Bits<W>>,
    cfg_one_w: Constant<Bits<W>>,

    run_hi: FirstSet<W>,
    run_all: FirstSet<W>,
    run_h1: RunBelow<W>,
    run_hib: RunBelow<W>,
    run_cap2: RunBelow<W>,
    run_rtx2: RunBelow<W>,
    o_hi2: Signal<Local, Bits<16>>,
    capped2: Signal<Local, Bit>,
    rtx_gt2: Signal<Local, Bit>,
    slot_out2: Signal<Local, Bits<16>>,
    slot_out: Signal<Local, Bits<16>>,
    slot_rtxb: Signal<Local, Bits<16>>,
    found: Signal<Local, Bits<34>>,
    /// The slots at and after the first clear one, from una1's slot up and from slot 0.
    after_hi: PrefixOr<W, 4>,
    after_lo: PrefixOr<W, 4>,

    rec: Signal<Local, Bits<D>>,
    ev: Signal<Local, Bits<E>>,
    unsettled: Signal<Local, Bit>,
    nxt: Signal<Local, Bits<32>>,
    brecv: Signal<Local, Bits<32>>,
    flight: Signal<Local, Bits<32>>,
    pts: Signal<Local, Bits<32>>,
    rts: Signal<Local, Bits<32>>,
    asp: Signal<Local, Bit>,
    hv: Signal<Local, Bit>,
    hiv: Signal<Local, Bit>,
    acked: Signal<Local, Bits<W>>,
    out: Signal<Local, Bits<16>>,
    rtxb: Signal<Local, Bits<16>>,
    hb: Signal<Local, Bits<16>>,
    hib: Signal<Local, Bits<16>>,
    kind: Signal<Local, Bits<3>>,
    is_open: Signal<Local, Bit>,
    now: Signal<Local, Bits<32>>,
    ooo: Signal<Local, Bits<32>>,
    ts: Signal<Local, Bits<32>>,
    probe: Signal<Local, Bit>,
    cwnd: Signal<Local, Bits<32>>,
    bdp_zero: Signal<Local, Bit>,
    acc: Signal<Local, Bit>,
    ahead: Signal<Local, Bit>,
    una1: Signal<Local, Bits<32>>,
    out1: Signal<Local, Bits<16>>,
    acked1: Signal<Local, Bits<W>>,
    h1v: Signal<Local, Bit>,
    h1b: Signal<Local, Bits<16>>,
    acked_bytes: Signal<Local, Bits<32>>,
    slot_una1: Signal<Local, Bits<16>>,
    zeros: Signal<Local, Bits<W>>,
    run_moved: Signal<Local, Bit>,
    out2: Signal<Local, Bits<16>>,
    moved: Signal<Local, Bit>,
    h2v: Signal<Local, Bit>,
    hiv2: Signal<Local, Bit>,
    k_h1: Signal<Local, Bits<16>>,
    k_hi: Signal<Local, Bits<16>>,
    rtxb2: Signal<Local, Bits<16>>,
    rtt: Signal<Local, Bits<32>>,
    enter_p: Signal<Local, Bit>,
    thr: Signal<Local, Bits<32>>,
    enter_o: Signal<Local, Bit>,
    a_out: Signal<Local, Bits<16>>,
    a_acked: Signal<Local, Bits<W>>,
    a_brecv: Signal<Local, Bits<32>>,
    a_flight: Signal<Local, Bits<32>>,
    a_pts: Signal<Local, Bits<32>>,
    a_rts: Signal<Local, Bits<32>>,
    a_asp: Signal<Local, Bit>,
    a_hv: Signal<Local, Bit>,
    a_hb: Signal<Local, Bits<16>>,
    a_hiv: Signal<Local, Bit>,
    a_hib: Signal<Local, Bits<16>>,
    a_rtxb: Signal<Local, Bits<16>>,
    loss_v: Signal<Local, Bit>,
    loss_k: Signal<Local, Bits<2>>,
    age: Signal<Local, Bits<32>>,
    t1: Signal<Local, Bit>,
    slot_rtx: Signal<Local, Bits<16>>,
    n_slot: Signal<Local, Bits<16>>,
    l_rtxb: BackRange<W>,
    l_hib: BackRange<W>,
    l_out: BackRange<W>,
    l_h1b: BackRange<W>,
    th_out1: Signal<Local, Bits<W>>,
    l_out1: BackRange<W>,
    z_hi: Signal<Local, Bits<W>>,
    z_lo: Signal<Local, Bits<W>>,
    after: Signal<Local, Bits<W>>,
    l_out2: Signal<Local, Bits<W>>,
    det: Signal<Local, Bit>,
    lost_mask: Signal<Local, Bits<W>>,
    holes: Signal<Local, Bits<W>>,
    state_b: Signal<Local, Bits<D>>,
    flags: Signal<Local, Bits<HEAD_FLAGS>>,
}

impl<const W: usize, const D: usize, const E: usize> SenderLoss<W, D, E> {
    /// The block with the config's constants.
    pub fn new(k: &SenderConsts) -> Self {
        let l = W.trailing_zeros() as usize;
        let off_out = FIXED_BITS + W;
        let c16 = |v: u64| Constant::new(bits::<16>(v));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let mut keep = !Bits::<D>::default();
        for i in (56..184)
            .chain(216..219)
            .chain(220..off_out + 2 * (l + 1) + 2 * l)
        {
            keep = keep.replace_bit(i, false);
        }
        SenderLoss {
            s_record: Default::default(),
            s_event: Default::default(),
            s_cwnd: Default::default(),
            s_bdp_zero: Default::default(),
            s_unsettled: Default::default(),
            s_acc: Default::default(),
            s_sack_malformed: Default::default(),
            s_ahead: Default::default(),
            s_una1: Default::default(),
            s_out1: Default::default(),
            s_acked1: Default::default(),
            s_h1v: Default::default(),
            s_h2v_u: Default::default(),
            s_h1b: Default::default(),
            s_acked_bytes: Default::default(),
            s_moved0: Default::default(),
            m_record: Default::default(),
            m_holes: Default::default(),
            m_slot_rtx: Default::default(),
            m_flags: Default::default(),
            cfg_w: c16(W as u64),
            cfg_slot_mask: c16(W as u64 - 1),
            cfg_mask_lo: c16(2 * W as u64 - 1),
            cfg_off_out: c16(off_out as u64),
            cfg_off_rtx: c16((off_out + l + 1) as u64),
            cfg_off_h: c16((off_out + 2 * (l + 1)) as u64),
            cfg_off_hi: c16((off_out + 2 * (l + 1) + l) as u64),
            cfg_keep: Constant::new(keep),
            cfg_mtu_log2: c16(u64::from(k.mtu_log2)),
            cfg_two_rtt: c32(u64::from(k.net_base_rtt_ns.wrapping_mul(2))),
            cfg_rto: c32(u64::from(k.rto_ns)),
            cfg_ooo_min: c32(u64::from(k.ooo_min_threshold)),
            cfg_ones_w: Constant::new(!Bits::<W>::default()),
            cfg_one_w: Constant::new(bits::<W>(1)),
            run_hi: FirstSet::lowest(),
            run_all: FirstSet::lowest(),
            run_h1: Default::default(),
            run_hib: Default::default(),
            run_cap2: Default::default(),
            run_rtx2: Default::default(),
            o_hi2: Default::default(),
            capped2: Default::default(),
            rtx_gt2: Default::default(),
            slot_out2: Default::default(),
            slot_out: Default::default(),
            slot_rtxb: Default::default(),
            found: Default::default(),
            after_hi: PrefixOr::new(SegmentFlag::Reduce),
            after_lo: PrefixOr::new(SegmentFlag::Reduce),
            rec: Default::default(),
            ev: Default::default(),
            unsettled: Default::default(),
            nxt: Default::default(),
            brecv: Default::default(),
            flight: Default::default(),
            pts: Default::default(),
            rts: Default::default(),
            asp: Default::default(),
            hv: Default::default(),
            hiv: Default::default(),
            acked: Default::default(),
            out: Default::default(),
            rtxb: Default::default(),
            hb: Default::default(),
            hib: Default::default(),
            kind: Default::default(),
            is_open: Default::default(),
            now: Default::default(),
            ooo: Default::default(),
            ts: Default::default(),
            probe: Default::default(),
            cwnd: Default::default(),
            bdp_zero: Default::default(),
            acc: Default::default(),
            ahead: Default::default(),
            una1: Default::default(),
            out1: Default::default(),
            acked1: Default::default(),
            h1v: Default::default(),
            h1b: Default::default(),
            acked_bytes: Default::default(),
            slot_una1: Default::default(),
            zeros: Default::default(),
            run_moved: Default::default(),
            out2: Default::default(),
            moved: Default::default(),
            h2v: Default::default(),
            hiv2: Default::default(),
            k_h1: Default::default(),
            k_hi: Default::default(),
            rtxb2: Default::default(),
            rtt: Default::default(),
            enter_p: Default::default(),
            thr: Default::default(),
            enter_o: Default::default(),
            a_out: Default::default(),
            a_acked: Default::default(),
            a_brecv: Default::default(),
            a_flight: Default::default(),
            a_pts: Default::default(),
            a_rts: Default::default(),
            a_asp: Default::default(),
            a_hv: Default::default(),
            a_hb: Default::default(),
            a_hiv: Default::default(),
            a_hib: Default::default(),
            a_rtxb: Default::default(),
            loss_v: Default::default(),
            loss_k: Default::default(),
            age: Default::default(),
            t1: Default::default(),
            slot_rtx: Default::default(),
            n_slot: Default::default(),
            l_rtxb: Default::default(),
            l_hib: Default::default(),
            l_out: Default::default(),
            l_h1b: Default::default(),
            th_out1: Default::default(),
            l_out1: Default::default(),
            z_hi: Default::default(),
            z_lo: Default::default(),
            after: Default::default(),
            l_out2: Default::default(),
            det: Default::default(),
            lost_mask: Default::default(),
            holes: Default::default(),
            state_b: Default::default(),
            flags: Default::default(),
        }
    }
}

impl<const W: usize, const D: usize, const E: usize> Logic for SenderLoss<W, D, E> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The record (after the settling run), the event and the SACK's part unpacked.
        self.rec.next = self.s_record.val();
        self.ev.next = self.s_event.val();
        self.unsettled.next = self.s_unsettled.val();
        self.nxt.next = bit_cast::<32, 24>(self.rec.val().get_bits::<24>(0));
        self.brecv.next = self.rec.val().get_bits::<32>(56);
        self.flight.next = self.rec.val().get_bits::<32>(88);
        self.pts.next = self.rec.val().get_bits::<32>(120);
        self.rts.next = self.rec.val().get_bits::<32>(152);
        self.asp.next = self.rec.val().get_bit(216);
        self.hv.next = self.rec.val().get_bit(217);
        self.hiv.next = self.rec.val().get_bit(218);
        self.acked.next = self.rec.val().get_bits::<W>(220);
        self.out.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_out.val()) & self.cfg_mask_lo.val();
        self.rtxb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_rtx.val()) & self.cfg_mask_lo.val();
        self.hb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_h.val()) & self.cfg_slot_mask.val();
        self.hib.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_hi.val()) & self.cfg_slot_mask.val();
        self.kind.next = self.ev.val().get_bits::<3>(0);
        self.is_open.next = self.kind.val() == 1_usize.to_bits::<3>();
        self.now.next = self.ev.val().get_bits::<32>(3);
        self.ooo.next = self.ev.val().get_bits::<32>(141);
        self.ts.next = self.ev.val().get_bits::<32>(173);
        self.probe.next = self.ev.val().get_bit(205);
        self.cwnd.next = self.s_cwnd.val();
        self.bdp_zero.next = self.s_bdp_zero.val();
        self.acc.next = self.s_acc.val();
        self.ahead.next = self.s_ahead.val();
        self.una1.next = self.s_una1.val();
        self.out1.next = self.s_out1.val();
        self.acked1.next = self.s_acked1.val();
        self.h1v.next = self.s_h1v.val();
        self.h1b.next = self.s_h1b.val();
        self.acked_bytes.next = self.s_acked_bytes.val();

        // The run of acknowledged PSNs from una1: the first clear slot at or after its slot,
        // cyclically, capped at out1.
        self.slot_una1.next = bit_cast::<16, 32>(self.una1.val()) & self.cfg_slot_mask.val();
        self.zeros.next = !self.acked1.val();
        self.run_hi.v.next = self.zeros.val() & (self.cfg_ones_w.val() << self.slot_una1.val());
        self.run_all.v.next = self.zeros.val();
        // The searches' results, packed for `RunBelow`.
        self.found.next = bit_cast::<34, 16>(self.run_hi.idx.val())
            | (bit_cast::<34, 16>(self.run_all.idx.val()) << 16);
        self.found.next = self.found.val().replace_bit(32, self.run_hi.any.val());
        self.found.next = self.found.val().replace_bit(33, self.run_all.any.val());
        // The run capped at out1 leaves out2 = out1 - run: made without arithmetic after the
        // search but one subtraction, as H1's `out`: the cap is the run not below out1 + 1
        // (`RunBelow`), else out2 is una1's slot + out1 less the found slot (plus W wrapped).
        // snd_nxt - out2 is the PSN the run stopped at: its slot is the found slot, or
        // snd_nxt's when capped (una1's when unsettled: no run).
        self.o_hi2.next = self.slot_una1.val() + self.out1.val();
        self.run_cap2.s_found.next = self.found.val();
        self.run_cap2.s_bound.next = self.o_hi2.val() + 1_usize.to_bits::<16>();
        self.capped2.next = !self.run_cap2.m_below.val();
        self.out2.next = self.o_hi2.val() - self.cfg_w.val() - self.run_all.idx.val();
        if self.run_hi.any.val() {
            self.out2.next = self.o_hi2.val() - self.run_hi.idx.val();
        }
        self.slot_out2.next = self.run_all.idx.val();
        if self.run_hi.any.val() {
            self.slot_out2.next = self.run_hi.idx.val();
        }
        if self.capped2.val() {
            self.out2.next = 0.into();
            self.slot_out2.next = bit_cast::<16, 32>(self.nxt.val()) & self.cfg_slot_mask.val();
        }
        if self.unsettled.val() {
            self.out2.next = self.out1.val();
            self.slot_out2.next = self.slot_una1.val();
        }
        // The run moved snd_una when una1's own slot is acknowledged (and something is out).
        self.run_moved.next = !self.unsettled.val()
            & self.out1.val().any()
            & (self.acked1.val() & (self.cfg_one_w.val() << self.slot_una1.val())).any();
        self.moved.next = self.ahead.val() | self.run_moved.val();
        // x < out2 (x highest_acked's or recovery_hi's offset back, x < out1) is the run
        // below out1 - x: the search's index against una1's slot + out1 - x (`RunBelow`),
        // made beside the search (no subtraction after it).
        self.k_h1.next = self.slot_una1.val() + self.out1.val() - self.h1b.val();
        self.k_hi.next = self.slot_una1.val() + self.out1.val() - self.hib.val();
        self.run_h1.s_found.next = self.found.val();
        self.run_h1.s_bound.next = self.k_h1.val();
        self.run_hib.s_found.next = self.found.val();
        self.run_hib.s_bound.next = self.k_hi.val();
        self.h2v.next =
            self.h1v.val() & (self.h1b.val() < self.out1.val()) & self.run_h1.m_below.val();
        if self.unsettled.val() {
            self.h2v.next = self.s_h2v_u.val();
        }
        // Recovery ends once snd_una passes recovery_hi; rtx is never below snd_una.
        self.hiv2.next = self.hiv.val()
            & (self.hib.val() < self.out1.val())
            & (self.unsettled.val() | self.run_hib.m_below.val());
        // out2 < rtx's offset (0 < rtxb <= out1) is the run not below out1 - rtxb + 1.
        self.run_rtx2.s_found.next = self.found.val();
        self.run_rtx2.s_bound.next = self.o_hi2.val() - self.rtxb.val() + 1_usize.to_bits::<16>();
        self.rtx_gt2.next = (self.rtxb.val() > self.out1.val())
            | (!self.unsettled.val() & self.rtxb.val().any() & !self.run_rtx2.m_below.val());
        self.rtxb2.next = self.rtxb.val();
        if self.rtx_gt2.val() {
            self.rtxb2.next = self.out2.val();
        }
        // The loss detectors: a probe's quick answer with nothing else since, or the
        // out-of-order count above max(cwnd in packets, the floor); both need highest_acked.
        self.rtt.next = self.now.val() - self.ts.val();
        self.enter_p.next = self.probe.val()
            & (self.rtt.val() < self.cfg_two_rtt.val())
            & !self.asp.val()
            & self.bdp_zero.val()
            & !self.hiv2.val()
            & self.h2v.val();
        self.thr.next = self.cwnd.val() >> self.cfg_mtu_log2.val();
        if self.thr.val() < self.cfg_ooo_min.val() {
            self.thr.next = self.cfg_ooo_min.val();
        }
        self.enter_o.next = !self.hiv2.val()
            & !self.enter_p.val()
            & (self.ooo.val() > self.thr.val())
            & self.h2v.val();

        // ---- State A: the event's own part (an accepted SACK).
        self.a_out.next = self.out.val();
        self.a_acked.next = self.acked.val();
        self.a_brecv.next = self.brecv.val();
        self.a_flight.next = self.flight.val();
        self.a_pts.next = self.pts.val();
        self.a_rts.next = self.rts.val();
        self.a_asp.next = self.asp.val();
        self.a_hv.next = self.hv.val();
        self.a_hb.next = self.hb.val();
        self.a_hiv.next = self.hiv.val();
        self.a_hib.next = self.hib.val();
        self.a_rtxb.next = self.rtxb.val();
        self.loss_v.next = false;
        self.loss_k.next = 0.into();
        if self.acc.val() {
            self.a_out.next = self.out2.val();
            self.a_acked.next = self.acked1.val();
            self.a_brecv.next = self.brecv.val() + self.acked_bytes.val();
            self.a_flight.next = self.flight.val() - self.acked_bytes.val();
            self.a_pts.next = self.now.val();
            if self.moved.val() {
                self.a_rts.next = self.now.val();
            }
            self.a_asp.next = self.asp.val() | !self.probe.val();
            self.a_hv.next = self.h2v.val();
            self.a_hb.next = self.h1b.val();
            self.a_hiv.next = self.hiv2.val();
            self.a_rtxb.next = self.rtxb2.val();
            if self.enter_p.val() | self.enter_o.val() {
                // Every unacknowledged PSN from snd_una up to highest_acked is lost.
                self.a_hiv.next = true;
                self.a_hib.next = self.h1b.val();
                self.a_rtxb.next = self.out2.val();
                self.loss_v.next = true;
                if self.enter_p.val() {
                    self.loss_k.next = 1_usize.to_bits::<2>();
                }
            }
        }
        // ---- State B: the timeout (every event but an open) declares every unacknowledged
        // PSN lost.
        // An accepted SACK that moved snd_una restarted the clock (age 0, never above rto), so
        // the age is the record's, made before the run's search. One that did not move it
        // left `out` as it was (no EPSN ahead, and una1's slot clear: the run is empty), so
        // "data outstanding" is the record's `out` too: the decision waits on no search.
        self.age.next = self.now.val() - self.rts.val();
        self.t1.next = !self.is_open.val()
            & self.out.val().any()
            & !(self.acc.val() & self.moved.val())
            & (self.age.val() > self.cfg_rto.val());
        if self.t1.val() {
            self.a_hiv.next = true;
            self.a_hib.next = 0.into();
            self.a_rtxb.next = self.a_out.val();
            self.a_rts.next = self.now.val();
            self.loss_v.next = true;
            self.loss_k.next = 2_usize.to_bits::<2>();
        }

        // ---- The lost PSNs of B (the range's bounds as offsets from snd_una are made by
        // H3 from the record, off this stage's path).
        // rtx's slot: snd_una's plus rtx_off is snd_nxt's less rtx's offset back.
        // Selected as a_rtxb is, from slots made beside the search (out2's from its result).
        self.slot_rtxb.next =
            (bit_cast::<16, 32>(self.nxt.val()) - self.rtxb.val()) & self.cfg_slot_mask.val();
        self.slot_out.next =
            (bit_cast::<16, 32>(self.nxt.val()) - self.out.val()) & self.cfg_slot_mask.val();
        self.slot_rtx.next = self.slot_rtxb.val();
        if self.acc.val() & (self.rtx_gt2.val() | self.enter_p.val() | self.enter_o.val()) {
            self.slot_rtx.next = self.slot_out2.val();
        }
        if self.t1.val() {
            self.slot_rtx.next = self.slot_out.val();
            if self.acc.val() {
                self.slot_rtx.next = self.slot_out2.val();
            }
        }
        // The holes, as masks over the slots rather than from the range's bounds: `L(x)`
        // holds the slots of the PSNs at most x back from snd_nxt, the cyclic range
        // [snd_nxt - x, snd_nxt), and the lost range is
        // `L(rtx's offset) & !L(recovery_hi's)`. Each case's mask is made beside the run's
        // search from registers; only `L(out2)` waits on the acknowledged bits (the slots at
        // and after the first clear one from una1's, inside `L(out1)`), and the case picks.
        self.n_slot.next = bit_cast::<16, 32>(self.nxt.val()) & self.cfg_slot_mask.val();
        self.l_rtxb.n_slot.next = self.n_slot.val();
        self.l_rtxb.x.next = self.rtxb.val();
        self.l_hib.n_slot.next = self.n_slot.val();
        self.l_hib.x.next = self.hib.val();
        self.l_out.n_slot.next = self.n_slot.val();
        self.l_out.x.next = self.out.val();
        self.l_h1b.n_slot.next = self.n_slot.val();
        self.l_h1b.x.next = self.h1b.val();
        self.l_out1.n_slot.next = self.n_slot.val();
        self.l_out1.x.next = self.out1.val();
        // The slots from una1's up, where the search for the first clear slot starts.
        self.th_out1.next = self.cfg_ones_w.val() << self.slot_una1.val();
        // The first clear slot from una1's, cyclically: in [una1's slot, W) if any, else in
        // [0, una1's slot); the slots from it to snd_nxt are L(out2) (none past out1: then
        // out2 is 0). An unsettled SACK makes no run.
        self.z_hi.next = self.zeros.val() & self.th_out1.val();
        self.z_lo.next = self.zeros.val() & !self.th_out1.val();
        self.after_hi.x.next = self.z_hi.val();
        self.after_lo.x.next = self.z_lo.val();
        self.after.next = 0.into();
        if self.after_hi.any.val() {
            self.after.next = self.after_hi.pre.val() | self.z_hi.val() | !self.th_out1.val();
        } else if self.after_lo.any.val() {
            self.after.next = (self.after_lo.pre.val() | self.z_lo.val()) & !self.th_out1.val();
        }
        self.l_out2.next = self.l_out1.mask.val() & self.after.val();
        if self.unsettled.val() {
            self.l_out2.next = self.l_out1.mask.val();
        }
        // The cases as B's state above takes them (recovery that ended makes an empty range:
        // recovery_hi's offset is then at least out2).
        self.det.next = self.acc.val() & (self.enter_p.val() | self.enter_o.val());
        self.lost_mask.next = 0.into();
        if self.t1.val() {
            self.lost_mask.next = self.l_out.mask.val();
            if self.acc.val() {
                self.lost_mask.next = self.l_out2.val();
            }
        } else if self.det.val() {
            self.lost_mask.next = self.l_out2.val() & !self.l_h1b.mask.val();
        } else if self.hiv.val() {
            self.lost_mask.next = self.l_rtxb.mask.val() & !self.l_hib.mask.val();
            if self.acc.val() {
                self.lost_mask.next = self.lost_mask.val() & self.l_out2.val();
            }
        }
        self.holes.next = !self.a_acked.val() & self.lost_mask.val();

        // ---- State B packed; the results so far (HEAD_FLAGS).
        self.state_b.next = (self.rec.val() & self.cfg_keep.val())
            | (bit_cast::<D, 32>(self.a_brecv.val()) << 56)
            | (bit_cast::<D, 32>(self.a_flight.val()) << 88)
            | (bit_cast::<D, 32>(self.a_pts.val()) << 120)
            | (bit_cast::<D, 32>(self.a_rts.val()) << 152)
            | (bit_cast::<D, W>(self.a_acked.val()) << 220)
            | (bit_cast::<D, 16>(self.a_out.val() & self.cfg_mask_lo.val())
                << self.cfg_off_out.val())
            | (bit_cast::<D, 16>(self.a_rtxb.val() & self.cfg_mask_lo.val())
                << self.cfg_off_rtx.val())
            | (bit_cast::<D, 16>(self.a_hb.val() & self.cfg_slot_mask.val())
                << self.cfg_off_h.val())
            | (bit_cast::<D, 16>(self.a_hib.val() & self.cfg_slot_mask.val())
                << self.cfg_off_hi.val());
        self.state_b.next = self.state_b.val().replace_bit(216, self.a_asp.val());
        self.state_b.next = self.state_b.val().replace_bit(217, self.a_hv.val());
        self.state_b.next = self.state_b.val().replace_bit(218, self.a_hiv.val());
        self.m_record.next = self.state_b.val();
        self.m_holes.next = self.holes.val();
        self.m_slot_rtx.next = self.slot_rtx.val();
        self.flags.next = bit_cast::<HEAD_FLAGS, 2>(self.loss_k.val()) << 8;
        if self.acc.val() {
            self.flags.next =
                self.flags.val() | (bit_cast::<HEAD_FLAGS, 32>(self.acked_bytes.val()) << 12);
        }
        self.flags.next = self.flags.val().replace_bit(2, self.acc.val());
        self.flags.next = self.flags.val().replace_bit(3, self.s_sack_malformed.val());
        self.flags.next = self.flags.val().replace_bit(7, self.loss_v.val());
        self.flags.next = self
            .flags
            .val()
            .replace_bit(10, self.acc.val() | self.loss_v.val() | self.s_moved0.val());
        self.m_flags.next = self.flags.val();
    }
}

/// The head's third stage (combinational): the lost PSNs counted and their bytes, the window
/// test, the transmit's choice (a due probe, else the lowest lost PSN, else new data for the
/// tail), the record and the results packed. A settled retransmission's window test (the lost
/// count against the thresholds) is left to the caller, a stage later: both outcomes go out.
/// `W`, `D`, `E` as [`NicSenderRtl`]'s.
#[derive(LogicBlock)]
pub struct SenderPick<const W: usize, const D: usize, const E: usize> {
    /// The record after the SACK and the timeout (`SenderLoss::m_record`).
    pub s_record: Signal<In, Bits<D>>,
    /// A record whose flight, outstanding count and probe clock are `s_record`'s for a
    /// transmit opportunity (which accepts no SACK, and which the timeout leaves those):
    /// `s_record` itself, or the record before the head, so that the transmit's tests do not
    /// wait for the SACK's.
    pub s_tx_record: Signal<In, Bits<D>>,
    /// The event, packed (`event_bits`).
    pub s_event: Signal<In, Bits<E>>,
    /// The window the event reads, bytes.
    pub s_cwnd: Signal<In, Bits<32>>,
    /// The event is unsettled: the view's lost bytes, no retransmission.
    pub s_unsettled: Signal<In, Bit>,
    /// `SenderLoss`'s lost range.
    pub s_holes: Signal<In, Bits<W>>,
    /// Settled only: the holes' 4-bit fields counted in place (`NibbleCounts`), made by the
    /// caller a stage before, so that the lost count here is the rest of the sum only.
    pub s_hole_counts: Signal<In, Bits<W>>,
    pub s_slot_rtx: Signal<In, Bits<16>>,
    pub s_flags: Signal<In, Bits<HEAD_FLAGS>>,
    /// The record after the event but for a new packet and the backlog (an open: the fresh
    /// record at its PSN); its lost view is the lost bytes the has-work bit reads.
    pub m_next: Signal<Out, Bits<D>>,
    /// The results, packed as [`HEAD_FLAGS`] says.
    pub m_flags: Signal<Out, Bits<HEAD_FLAGS>>,
    /// Settled only: `m_next` and `m_flags` as they are when the window lets a retransmission
    /// go (the same as those when none is due). The window test by the lost count is the
    /// caller's, a stage later, on `m_n` and `m_thr`: `m_next` and `m_flags` are the outcome
    /// with the window shut to it.
    pub m_next_r: Signal<Out, Bits<D>>,
    pub m_flags_r: Signal<Out, Bits<HEAD_FLAGS>>,
    /// Settled only: the lost PSNs counted.
    pub m_n: Signal<Out, Bits<16>>,
    /// Settled only: the window's thresholds on that count ([`WindowThresholds`]), for the
    /// flight as the short packet's loss makes it.
    pub m_thr: Signal<Out, Bits<WINDOW_THR_BITS>>,

    cfg_psn_mask: Constant<Bits<32>>,
    cfg_w: Constant<Bits<16>>,
    /// `W - 1`: a PSN's slot, and the width of the offsets back from `snd_nxt`.
    cfg_slot_mask: Constant<Bits<16>>,
    /// `2W - 1`: the outstanding count and `rtx`'s offset (0..=W).
    cfg_mask_lo: Constant<Bits<16>>,
    cfg_off_out: Constant<Bits<16>>,
    cfg_off_rtx: Constant<Bits<16>>,
    cfg_off_hi: Constant<Bits<16>>,
    cfg_off_short: Constant<Bits<16>>,
    cfg_off_slen: Constant<Bits<16>>,
    cfg_off_view: Constant<Bits<16>>,
    /// The record's bits this stage never writes.
    cfg_keep: Constant<Bits<D>>,
    cfg_mtu: Constant<Bits<32>>,
    cfg_mtu_log2: Constant<Bits<16>>,
    cfg_probe_interval: Constant<Bits<32>>,
    cfg_ones_w: Constant<Bits<W>>,
    cfg_one_w: Constant<Bits<W>>,

    lost_hi: FirstSet<W>,
    lost_all: FirstSet<W>,
    lost_count: NibbleCountSum<W>,

    rec: Signal<Local, Bits<D>>,
    ev: Signal<Local, Bits<E>>,
    unsettled: Signal<Local, Bit>,
    nxt: Signal<Local, Bits<32>>,
    bsent: Signal<Local, Bits<32>>,
    a_pts: Signal<Local, Bits<32>>,
    t_flight: Signal<Local, Bits<32>>,
    t_pts: Signal<Local, Bits<32>>,
    t_out: Signal<Local, Bits<16>>,
    a_asp: Signal<Local, Bit>,
    sv: Signal<Local, Bit>,
    a_acked: Signal<Local, Bits<W>>,
    a_out: Signal<Local, Bits<16>>,
    a_rtxb: Signal<Local, Bits<16>>,
    a_hiv: Signal<Local, Bit>,
    a_hib: Signal<Local, Bits<16>>,
    shb: Signal<Local, Bits<16>>,
    slen: Signal<Local, Bits<16>>,
    lview: Signal<Local, Bits<32>>,
    kind: Signal<Local, Bits<3>>,
    is_open: Signal<Local, Bit>,
    is_tx: Signal<Local, Bit>,
    now: Signal<Local, Bits<32>>,
    open_wide: Signal<Local, Bit>,
    open_psn: Signal<Local, Bits<32>>,
    cwnd: Signal<Local, Bits<32>>,
    holes: Signal<Local, Bits<W>>,
    slot_rtx: Signal<Local, Bits<16>>,
    rtx_off: Signal<Local, Bits<16>>,
    hi_off: Signal<Local, Bits<16>>,
    n_range: Signal<Local, Bits<16>>,
    una_b: Signal<Local, Bits<32>>,
    n_lost: Signal<Local, Bits<16>>,
    short_off: Signal<Local, Bits<16>>,
    short_in: Signal<Local, Bit>,
    short_slot: Signal<Local, Bits<16>>,
    short_lost: Signal<Local, Bit>,
    lost_bytes: Signal<Local, Bits<32>>,
    n32: Signal<Local, Bits<32>>,
    /// `n M`, `(n - 1) M` and `(n - 2) M`: the lost bytes are these, or one of them ORed with
    /// the short packet's length, with no sum after the count.
    nm0: Signal<Local, Bits<32>>,
    nm1: Signal<Local, Bits<32>>,
    nm2: Signal<Local, Bits<32>>,
    slen32: Signal<Local, Bits<32>>,
    raw: Signal<Local, Bits<32>>,
    /// The window test by count (settled): `flight - lost < cwnd` as thresholds on the
    /// lost count made beside its popcount, tested by the caller a stage later.
    thr_x0: WindowThresholds,
    thr_x1: WindowThresholds,
    thr: Signal<Local, Bits<WINDOW_THR_BITS>>,
    /// The same test with nothing lost (new data is sent only then).
    win_z: WindowCountTest,
    lost_any: Signal<Local, Bit>,
    win: WindowOpen,
    win_open: Signal<Local, Bit>,
    probe_due: Signal<Local, Bit>,
    p_slot: Signal<Local, Bits<16>>,
    rtxb_k: Signal<Local, Bits<16>>,
    psn_hi: Signal<Local, Bits<32>>,
    short_cand: Signal<Local, Bit>,
    p_short: Signal<Local, Bit>,
    lb_mtu: Signal<Local, Bits<32>>,
    lb_slen: Signal<Local, Bits<32>>,
    bs_mtu: Signal<Local, Bits<32>>,
    bs_slen: Signal<Local, Bits<32>>,
    do_probe: Signal<Local, Bit>,
    retx_cand: Signal<Local, Bit>,
    can_new: Signal<Local, Bit>,
    c_bsent: Signal<Local, Bits<32>>,
    c_pts: Signal<Local, Bits<32>>,
    c_asp: Signal<Local, Bit>,
    c_rtxb: Signal<Local, Bits<16>>,
    c_sv: Signal<Local, Bit>,
    c_lost_bytes: Signal<Local, Bits<32>>,
    tx_psn: Signal<Local, Bits<32>>,
    tx_kind: Signal<Local, Bits<2>>,
    c_view: Signal<Local, Bits<32>>,
    r_bsent: Signal<Local, Bits<32>>,
    r_rtxb: Signal<Local, Bits<16>>,
    r_lost_bytes: Signal<Local, Bits<32>>,
    r_len: Signal<Local, Bits<32>>,
    r_psn: Signal<Local, Bits<32>>,
    opened: Signal<Local, Bit>,
    kept: Signal<Local, Bits<D>>,
    next: Signal<Local, Bits<D>>,
    next_r: Signal<Local, Bits<D>>,
    flags: Signal<Local, Bits<HEAD_FLAGS>>,
    flags_r: Signal<Local, Bits<HEAD_FLAGS>>,
}

impl<const W: usize, const D: usize, const E: usize> SenderPick<W, D, E> {
    /// The block with the config's constants.
    pub fn new(k: &SenderConsts) -> Self {
        let l = W.trailing_zeros() as usize;
        let off_out = FIXED_BITS + W;
        let c16 = |v: u64| Constant::new(bits::<16>(v));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let off_rtx = off_out + l + 1;
        let off_view = off_out + 2 * (l + 1) + 3 * l + 16;
        let mut keep = !Bits::<D>::default();
        let written = (24..56).chain(120..152).chain([216, 219]);
        for i in written
            .chain(off_rtx..off_rtx + l + 1)
            .chain(off_view..off_view + 32)
        {
            keep = keep.replace_bit(i, false);
        }
        SenderPick {
            s_record: Default::default(),
            s_tx_record: Default::default(),
            s_event: Default::default(),
            s_cwnd: Default::default(),
            s_unsettled: Default::default(),
            s_holes: Default::default(),
            s_hole_counts: Default::default(),
            s_slot_rtx: Default::default(),
            s_flags: Default::default(),
            m_next: Default::default(),
            m_flags: Default::default(),
            m_next_r: Default::default(),
            m_flags_r: Default::default(),
            m_n: Default::default(),
            m_thr: Default::default(),
            cfg_psn_mask: c32(0xFF_FFFF),
            cfg_w: c16(W as u64),
            cfg_slot_mask: c16(W as u64 - 1),
            cfg_mask_lo: c16(2 * W as u64 - 1),
            cfg_off_out: c16(off_out as u64),
            cfg_off_rtx: c16((off_out + l + 1) as u64),
            cfg_off_hi: c16((off_out + 2 * (l + 1) + l) as u64),
            cfg_off_short: c16((off_out + 2 * (l + 1) + 2 * l) as u64),
            cfg_off_slen: c16((off_out + 2 * (l + 1) + 3 * l) as u64),
            cfg_off_view: c16((off_out + 2 * (l + 1) + 3 * l + 16) as u64),
            cfg_keep: Constant::new(keep),
            cfg_mtu: c32(u64::from(k.mtu)),
            cfg_mtu_log2: c16(u64::from(k.mtu_log2)),
            cfg_probe_interval: c32(u64::from(k.probe_interval_ns)),
            cfg_ones_w: Constant::new(!Bits::<W>::default()),
            cfg_one_w: Constant::new(bits::<W>(1)),
            lost_hi: FirstSet::lowest(),
            lost_all: FirstSet::lowest(),
            lost_count: Default::default(),
            rec: Default::default(),
            ev: Default::default(),
            unsettled: Default::default(),
            nxt: Default::default(),
            bsent: Default::default(),
            a_pts: Default::default(),
            t_flight: Default::default(),
            t_pts: Default::default(),
            t_out: Default::default(),
            a_asp: Default::default(),
            sv: Default::default(),
            a_acked: Default::default(),
            a_out: Default::default(),
            a_rtxb: Default::default(),
            a_hiv: Default::default(),
            a_hib: Default::default(),
            shb: Default::default(),
            slen: Default::default(),
            lview: Default::default(),
            kind: Default::default(),
            is_open: Default::default(),
            is_tx: Default::default(),
            now: Default::default(),
            open_wide: Default::default(),
            open_psn: Default::default(),
            cwnd: Default::default(),
            holes: Default::default(),
            slot_rtx: Default::default(),
            rtx_off: Default::default(),
            hi_off: Default::default(),
            n_range: Default::default(),
            una_b: Default::default(),
            n_lost: Default::default(),
            short_off: Default::default(),
            short_in: Default::default(),
            short_slot: Default::default(),
            short_lost: Default::default(),
            lost_bytes: Default::default(),
            n32: Default::default(),
            nm0: Default::default(),
            nm1: Default::default(),
            nm2: Default::default(),
            slen32: Default::default(),
            raw: Default::default(),
            thr_x0: WindowThresholds::new(k.mtu_log2),
            thr_x1: WindowThresholds::new(k.mtu_log2),
            thr: Default::default(),
            win_z: Default::default(),
            lost_any: Default::default(),
            win: Default::default(),
            win_open: Default::default(),
            probe_due: Default::default(),
            p_slot: Default::default(),
            rtxb_k: Default::default(),
            psn_hi: Default::default(),
            short_cand: Default::default(),
            p_short: Default::default(),
            lb_mtu: Default::default(),
            lb_slen: Default::default(),
            bs_mtu: Default::default(),
            bs_slen: Default::default(),
            do_probe: Default::default(),
            retx_cand: Default::default(),
            can_new: Default::default(),
            c_bsent: Default::default(),
            c_pts: Default::default(),
            c_asp: Default::default(),
            c_rtxb: Default::default(),
            c_sv: Default::default(),
            c_lost_bytes: Default::default(),
            tx_psn: Default::default(),
            tx_kind: Default::default(),
            c_view: Default::default(),
            r_bsent: Default::default(),
            r_rtxb: Default::default(),
            r_lost_bytes: Default::default(),
            r_len: Default::default(),
            r_psn: Default::default(),
            opened: Default::default(),
            kept: Default::default(),
            next: Default::default(),
            next_r: Default::default(),
            flags: Default::default(),
            flags_r: Default::default(),
        }
    }
}

impl<const W: usize, const D: usize, const E: usize> Logic for SenderPick<W, D, E> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- State B, the event and the lost range unpacked.
        self.rec.next = self.s_record.val();
        self.ev.next = self.s_event.val();
        self.unsettled.next = self.s_unsettled.val();
        self.nxt.next = bit_cast::<32, 24>(self.rec.val().get_bits::<24>(0));
        self.bsent.next = self.rec.val().get_bits::<32>(24);
        self.a_pts.next = self.rec.val().get_bits::<32>(120);
        self.a_asp.next = self.rec.val().get_bit(216);
        self.sv.next = self.rec.val().get_bit(219);
        self.a_acked.next = self.rec.val().get_bits::<W>(220);
        self.a_out.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_out.val()) & self.cfg_mask_lo.val();
        self.a_rtxb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_rtx.val()) & self.cfg_mask_lo.val();
        self.shb.next = bit_cast::<16, D>(self.rec.val() >> self.cfg_off_short.val())
            & self.cfg_slot_mask.val();
        self.a_hiv.next = self.rec.val().get_bit(218);
        self.a_hib.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_hi.val()) & self.cfg_slot_mask.val();
        self.slen.next = bit_cast::<16, D>(self.rec.val() >> self.cfg_off_slen.val());
        self.lview.next = bit_cast::<32, D>(self.rec.val() >> self.cfg_off_view.val());
        self.t_flight.next = self.s_tx_record.val().get_bits::<32>(88);
        self.t_pts.next = self.s_tx_record.val().get_bits::<32>(120);
        self.t_out.next = bit_cast::<16, D>(self.s_tx_record.val() >> self.cfg_off_out.val())
            & self.cfg_mask_lo.val();
        self.kind.next = self.ev.val().get_bits::<3>(0);
        self.is_open.next = self.kind.val() == 1_usize.to_bits::<3>();
        self.is_tx.next = self.kind.val() == 3_usize.to_bits::<3>();
        self.now.next = self.ev.val().get_bits::<32>(3);
        self.open_wide.next = self.ev.val().get_bit(35);
        self.open_psn.next = bit_cast::<32, 24>(self.ev.val().get_bits::<24>(36));
        self.cwnd.next = self.s_cwnd.val();
        self.holes.next = self.s_holes.val();
        self.slot_rtx.next = self.s_slot_rtx.val();
        // The lost range's bounds as offsets from snd_una (state B's), and its length.
        self.rtx_off.next = self.a_out.val() - self.a_rtxb.val();
        self.hi_off.next = self.a_out.val() - self.a_hib.val() - 1_usize.to_bits::<16>();
        self.n_range.next = 0.into();
        if self.a_hiv.val() & (self.rtx_off.val() <= self.hi_off.val()) {
            self.n_range.next = self.hi_off.val() + 1_usize.to_bits::<16>() - self.rtx_off.val();
        }
        self.una_b.next =
            (self.nxt.val() - bit_cast::<32, 16>(self.a_out.val())) & self.cfg_psn_mask.val();

        // ---- The lost PSNs and their bytes.
        self.lost_count.v.next = self.s_hole_counts.val();
        self.n_lost.next = self.lost_count.count.val();
        self.short_off.next = self.a_out.val() - self.shb.val() - 1_usize.to_bits::<16>();
        self.short_in.next = self.sv.val()
            & (self.shb.val() < self.a_out.val())
            & self.n_range.val().any()
            & (self.short_off.val() >= self.rtx_off.val())
            & (self.short_off.val() <= self.hi_off.val());
        // snd_una plus the short packet's offset is snd_nxt less its offset back, less 1.
        self.short_slot.next =
            (bit_cast::<16, 32>(self.nxt.val()) - self.shb.val() - 1_usize.to_bits::<16>())
                & self.cfg_slot_mask.val();
        self.short_lost.next = self.short_in.val()
            & !(self.a_acked.val() & (self.cfg_one_w.val() << self.short_slot.val())).any();
        // The lost bytes are `n M`, less `M - short_len` when the short packet is lost. A
        // short packet is shorter than M (and at least a byte), so that is `(n - 1) M` with
        // the length in its low bits: an OR, not a sum, after the count (mod 2^32 as before).
        self.n32.next = bit_cast::<32, 16>(self.n_lost.val());
        self.nm0.next = self.n32.val() << self.cfg_mtu_log2.val();
        self.nm1.next = (self.n32.val() - 1_usize.to_bits::<32>()) << self.cfg_mtu_log2.val();
        self.nm2.next = (self.n32.val() - 2_usize.to_bits::<32>()) << self.cfg_mtu_log2.val();
        self.slen32.next = bit_cast::<32, 16>(self.slen.val());
        self.lost_bytes.next = self.nm0.val();
        if self.short_lost.val() {
            self.lost_bytes.next = self.nm1.val() | self.slen32.val();
        }
        // An unsettled event reads the lost bytes of the view (the last settled event's). The
        // window is tested for a transmit only: its flight is the transmit record's.
        self.raw.next = self.t_flight.val() - self.lview.val();
        self.lost_any.next = self.lost_all.any.val();
        if self.unsettled.val() {
            self.lost_any.next = self.lview.val().any();
        }
        self.win.s_raw.next = self.raw.val();
        self.win.s_cwnd.next = self.cwnd.val();
        // Settled, by count (no sum after the popcount): raw = flight - lost bytes (mod 2^32)
        // is X - n M with X = flight, plus M - short_len when the short packet is lost
        // (`WindowThresholds`), made for both and picked by that flag. The caller tests the
        // count against them a stage later (`m_n`, `m_thr`), for a retransmission; new data
        // goes only when nothing is lost (n = 0), tested here.
        self.thr_x0.s_x.next = self.t_flight.val();
        self.thr_x1.s_x.next = self.t_flight.val() + self.cfg_mtu.val() - self.slen32.val();
        self.thr_x0.s_cwnd.next = self.cwnd.val();
        self.thr_x1.s_cwnd.next = self.cwnd.val();
        self.thr.next = self.thr_x0.m_thr.val();
        if self.short_lost.val() {
            self.thr.next = self.thr_x1.m_thr.val();
        }
        self.win_z.s_thr.next = self.thr.val();
        self.win_z.s_n.next = 0.into();
        self.win_open.next = self.win_z.m_open.val();
        if self.unsettled.val() {
            self.win_open.next = self.win.m_open.val();
        }

        // ---- The transmit: a due probe, else the lowest lost PSN, else a new packet.
        self.probe_due.next = self.t_out.val().any()
            & ((self.now.val() - self.t_pts.val()) >= self.cfg_probe_interval.val());
        self.lost_hi.v.next = self.holes.val() & (self.cfg_ones_w.val() << self.slot_rtx.val());
        self.lost_all.v.next = self.holes.val();
        self.p_slot.next = self.lost_all.idx.val();
        if self.lost_hi.any.val() {
            self.p_slot.next = self.lost_hi.idx.val();
        }
        // The lowest lost PSN p is rtx's PSN (snd_nxt - rtxb, its slot `slot_rtx`) plus its
        // slot less rtx's, W added when the search wrapped (nothing lost from rtx's slot up).
        // So its PSN is rtx's bits above the slot bits (plus W) and its slot, and rtxb after
        // it `rtxb - 1 + slot_rtx - p_slot` (less W): each one step after the search, with
        // everything else made beside it. p is the short packet when it is at the short
        // packet's slot (both lie less than W back from snd_nxt), and its length, the bytes
        // sent and the lost bytes left are picked by that one compare.
        self.rtxb_k.next = self.a_rtxb.val() - 1_usize.to_bits::<16>() + self.slot_rtx.val();
        self.psn_hi.next = (self.nxt.val() - bit_cast::<32, 16>(self.a_rtxb.val()))
            & self.cfg_psn_mask.val()
            & !bit_cast::<32, 16>(self.cfg_slot_mask.val());
        if !self.lost_hi.any.val() {
            self.rtxb_k.next = self.rtxb_k.val() - self.cfg_w.val();
            self.psn_hi.next = (self.psn_hi.val() + bit_cast::<32, 16>(self.cfg_w.val()))
                & self.cfg_psn_mask.val();
        }
        self.short_cand.next = self.sv.val()
            & (self.shb.val() < self.a_out.val())
            & (self.short_off.val() >= self.rtx_off.val());
        self.p_short.next = self.short_cand.val() & (self.p_slot.val() == self.short_slot.val());
        // The lost bytes less a packet's: `lost - M` and `lost - short_len`, as above.
        self.lb_mtu.next = self.nm1.val();
        self.lb_slen.next = self.nm0.val() - self.slen32.val();
        if self.short_lost.val() {
            self.lb_mtu.next = self.nm2.val() | self.slen32.val();
            self.lb_slen.next = self.nm1.val();
        }
        self.bs_mtu.next = self.bsent.val() + self.cfg_mtu.val();
        self.bs_slen.next = self.bsent.val() + self.slen32.val();
        self.do_probe.next = self.is_tx.val() & self.probe_due.val();
        // A retransmission, if the window lets it go (the caller's test).
        self.retx_cand.next = self.is_tx.val()
            & !self.probe_due.val()
            & !self.unsettled.val()
            & self.lost_all.any.val();
        // New data, but for the backlog (the tail's, at S3): a settled event has no lost PSN,
        // an unsettled one no lost bytes in its view.
        self.can_new.next = self.is_tx.val()
            & !self.probe_due.val()
            & !self.lost_any.val()
            & self.win_open.val()
            & (self.t_out.val() < self.cfg_w.val());

        // ---- State C (a probe; new data is the tail's) and, for the window open, a
        // retransmission's.
        self.c_bsent.next = self.bsent.val();
        self.c_pts.next = self.a_pts.val();
        self.c_asp.next = self.a_asp.val();
        self.c_rtxb.next = self.a_rtxb.val();
        self.c_sv.next = self.sv.val();
        self.c_lost_bytes.next = self.lost_bytes.val();
        self.tx_psn.next = 0.into();
        self.tx_kind.next = 0.into();
        if self.do_probe.val() {
            self.c_pts.next = self.now.val();
            self.c_asp.next = false;
            self.tx_psn.next = self.una_b.val();
            self.tx_kind.next = 2_usize.to_bits::<2>();
        }
        self.r_rtxb.next = self.rtxb_k.val() - self.p_slot.val();
        self.r_bsent.next = self.bs_mtu.val();
        self.r_lost_bytes.next = self.lb_mtu.val();
        self.r_len.next = self.cfg_mtu.val();
        if self.p_short.val() {
            self.r_bsent.next = self.bs_slen.val();
            self.r_lost_bytes.next = self.lb_slen.val();
            self.r_len.next = self.slen32.val();
        }
        self.r_psn.next = self.psn_hi.val() | bit_cast::<32, 16>(self.p_slot.val());
        // The short packet is forgotten once snd_una has passed it.
        if self.shb.val() >= self.a_out.val() {
            self.c_sv.next = false;
        }
        // The lost view: a settled event's lost bytes (0 exactly when no PSN is lost: a short
        // packet carries at least a byte), an unsettled event's view kept.
        self.c_view.next = self.c_lost_bytes.val();
        if self.unsettled.val() {
            self.c_view.next = self.lview.val();
        }

        // ---- The record written back (an open: the fresh record at its PSN).
        self.opened.next = self.is_open.val() & !self.open_wide.val();
        // The fields both outcomes share (a retransmission is a transmit: no probe, so its
        // probe clock and ACK request are these), then each one's own.
        self.kept.next =
            (self.rec.val() & self.cfg_keep.val()) | (bit_cast::<D, 32>(self.c_pts.val()) << 120);
        self.kept.next = self.kept.val().replace_bit(216, self.c_asp.val());
        self.kept.next = self.kept.val().replace_bit(219, self.c_sv.val());
        self.next.next = self.kept.val()
            | (bit_cast::<D, 32>(self.c_bsent.val()) << 24)
            | (bit_cast::<D, 16>(self.c_rtxb.val() & self.cfg_mask_lo.val())
                << self.cfg_off_rtx.val())
            | (bit_cast::<D, 32>(self.c_view.val()) << self.cfg_off_view.val());
        if self.opened.val() {
            self.next.next = bit_cast::<D, 32>(self.open_psn.val());
        }
        self.m_next.next = self.next.val();
        // A retransmission's (a transmit: not an open).
        self.next_r.next = self.next.val();
        if self.retx_cand.val() {
            self.next_r.next = self.kept.val()
                | (bit_cast::<D, 32>(self.r_bsent.val()) << 24)
                | (bit_cast::<D, 16>(self.r_rtxb.val() & self.cfg_mask_lo.val())
                    << self.cfg_off_rtx.val())
                | (bit_cast::<D, 32>(self.r_lost_bytes.val()) << self.cfg_off_view.val());
        }
        self.m_next_r.next = self.next_r.val();
        self.m_n.next = self.n_lost.val();
        self.m_thr.next = self.thr.val();

        // ---- The results, packed (HEAD_FLAGS): the earlier stages' and the transmit's.
        self.flags.next = self.s_flags.val()
            | (bit_cast::<HEAD_FLAGS, 2>(self.tx_kind.val()) << 5)
            | (bit_cast::<HEAD_FLAGS, 32>(self.tx_psn.val()) << 44);
        self.flags.next = self.flags.val().replace_bit(0, self.opened.val());
        self.flags.next = self
            .flags
            .val()
            .replace_bit(1, self.is_open.val() & self.open_wide.val());
        self.flags.next = self.flags.val().replace_bit(4, self.do_probe.val());
        self.flags.next = self.flags.val().replace_bit(
            10,
            self.s_flags.val().get_bit(10) | self.opened.val() | self.do_probe.val(),
        );
        self.flags.next = self.flags.val().replace_bit(11, self.can_new.val());
        self.m_flags.next = self.flags.val();
        self.flags_r.next = self.flags.val();
        if self.retx_cand.val() {
            self.flags_r.next = self.s_flags.val()
                | (1_usize.to_bits::<HEAD_FLAGS>() << 5)
                | (bit_cast::<HEAD_FLAGS, 32>(self.r_psn.val()) << 44)
                | (bit_cast::<HEAD_FLAGS, 32>(self.r_len.val()) << 76);
            self.flags_r.next = self.flags_r.val().replace_bit(0, false);
            self.flags_r.next = self.flags_r.val().replace_bit(1, false);
            self.flags_r.next = self.flags_r.val().replace_bit(4, true);
            self.flags_r.next = self.flags_r.val().replace_bit(10, true);
            self.flags_r.next = self.flags_r.val().replace_bit(11, false);
        }
        self.m_flags_r.next = self.flags_r.val();
    }
}

/// See the module documentation. `W`: `rx_window`; `SB`: `sack_bits`; `D`: [`record_bits`];
/// `E`: [`event_bits`]; `TT`: [`top_table_bits`].
#[derive(LogicBlock)]
pub struct NicSenderRtl<
    const W: usize,
    const SB: usize,
    const D: usize,
    const E: usize,
    const TT: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the events in S1, S2 and H1..H3 are dropped and every record swept to the
    /// initial one (`status_ready` low meanwhile).
    pub s_reset: Signal<In, Bit>,

    /// An event is offered (taken when `s_ready`).
    pub s_valid: Signal<In, Bit>,
    /// `status_ready` and not `s_reset`: the offered event is taken.
    pub s_ready: Signal<Out, Bit>,
    /// Its connection (`>= connections`: reported bad, touches nothing).
    pub s_conn: Signal<In, Bits<16>>,
    /// What it is: [`KIND_TIMER`] (and 5..=7), [`KIND_OPEN`], [`KIND_SACK`],
    /// [`KIND_TRANSMIT`], [`KIND_DOORBELL`].
    pub s_kind: Signal<In, Bits<3>>,
    /// The time, ns.
    pub s_now: Signal<In, Bits<32>>,
    /// The window the event reads, bytes (the cwnd unit's view), presented the cycle after the
    /// event (the composed send side reads it from a RAM addressed by the event's connection).
    pub s_cwnd: Signal<In, Bits<32>>,
    /// The cwnd unit's achievedBDP is zero (a probe's SACK may then enter recovery); with
    /// `s_cwnd`, the cycle after the event.
    pub s_bdp_zero: Signal<In, Bit>,
    /// An open's first PSN (wider than 24 bits: refused, nothing changes).
    pub s_open_psn: Signal<In, Bits<32>>,
    /// A SACK's expected PSN.
    pub s_sack_epsn: Signal<In, Bits<32>>,
    /// Its segment's first PSN (a multiple of `sack_bits`).
    pub s_sack_base: Signal<In, Bits<32>>,
    /// Its segment: bit `i` is PSN `base + i` received.
    pub s_sack_bitmap: Signal<In, Bits<SB>>,
    /// The receiver's byte count.
    pub s_sack_bytes: Signal<In, Bits<32>>,
    /// The receiver's out-of-order count.
    pub s_sack_ooo: Signal<In, Bits<32>>,
    /// The time stamp it echoes.
    pub s_sack_ts: Signal<In, Bits<32>>,
    /// It answers a probe.
    pub s_sack_probe: Signal<In, Bit>,
    /// A doorbell's bytes for the backlog.
    pub s_doorbell_bytes: Signal<In, Bits<32>>,

    /// An event taken `LATENCY` cycles ago completes.
    pub m_valid: Signal<Out, Bit>,
    /// Its connection was out of range (every result below zero).
    pub m_bad: Signal<Out, Bit>,
    pub m_conn: Signal<Out, Bits<16>>,
    /// An open started the connection afresh.
    pub m_opened: Signal<Out, Bit>,
    /// An open asked for a PSN wider than 24 bits: nothing changed.
    pub m_open_refused: Signal<Out, Bit>,
    /// A SACK was accepted.
    pub m_sack_accepted: Signal<Out, Bit>,
    /// A SACK was malformed (it changed nothing; the timeout was still checked).
    pub m_sack_malformed: Signal<Out, Bit>,
    /// The bytes an accepted SACK newly acknowledged (the cwnd unit's input).
    pub m_acked_bytes: Signal<Out, Bits<32>>,
    /// A doorbell's bytes joined the backlog.
    pub m_doorbell_ok: Signal<Out, Bit>,
    /// A doorbell was refused: the backlog would pass 2^32 - 1.
    pub m_doorbell_refused: Signal<Out, Bit>,
    /// A transmit opportunity sent a packet.
    pub m_tx_valid: Signal<Out, Bit>,
    pub m_tx_psn: Signal<Out, Bits<32>>,
    /// Its payload bytes (0 for a probe).
    pub m_tx_len: Signal<Out, Bits<32>>,
    /// [`TX_NEW`], [`TX_RETRANSMIT`] or [`TX_PROBE`].
    pub m_tx_kind: Signal<Out, Bits<2>>,
    /// It empties the backlog: the receiver acknowledges it at once.
    pub m_tx_ack_req: Signal<Out, Bit>,
    /// A loss detector fired.
    pub m_loss_valid: Signal<Out, Bit>,
    /// [`LOSS_OOO`], [`LOSS_PROBE`] or [`LOSS_TIMEOUT`].
    pub m_loss_kind: Signal<Out, Bits<2>>,
    /// The connection can send after the event (its bit at the transmit scheduler).
    pub m_work: Signal<Out, Bit>,

    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,

    cfg_psn_mask: Constant<Bits<32>>,
    cfg_seg_low: Constant<Bits<32>>,
    /// Bit `d - 1`: the reposition of the event `d` ahead is seen (all on in products; the
    /// co-sim's broken variants clear one).
    cfg_settle_seen: Constant<Bits<4>>,
    /// S3's window test by the lost count inverted (off in products; a co-sim's broken
    /// variant sets it).
    cfg_retx_inverted: Constant<Bit>,

    pipe: ContextPipeHold<D, E>,
    /// A settled event's head, on the shell's snapshot (`h_record`): H1, H2, H3.
    sack: SenderSack<W, SB, D, E>,
    loss: SenderLoss<W, D, E>,
    pick: SenderPick<W, D, E>,
    /// An unsettled event's head, on the record every event ahead left: S3 (in the loop).
    sack_loop: SenderSack<W, SB, D, E>,
    loss_loop: SenderLoss<W, D, E>,
    pick_loop: SenderPick<W, D, E>,
    /// S3: the backlog's part, the has-work bit (in the loop).
    tail: SenderTail<W, D>,

    // S0: the event packed for the shell.
    ev_in: Signal<Local, Bits<E>>,

    /// The window, presented the cycle after its event (`s_cwnd`, `s_bdp_zero`), on its way to
    /// S3: the composed send side reads it from a RAM addressed by the event's connection.
    /// (5 cycles of it: from the cycle after the event to S3.)
    win_line: DFF<Bits<160>>,
    bdp_line: DFF<Bits<5>>,

    /// Bit `d - 1`: the event `d` cycles ahead of the one in S3 repositioned its connection
    /// (DECISION "settled searches" at a settling distance of `SETTLE_AHEAD + 1`).
    repos: DFF<Bits<4>>,
    repos_in: Signal<Local, Bits<4>>,

    /// The settled head's stages: what H1's `SenderSack` made, into H2.
    st2_rec: DFF<Bits<D>>,
    st2_ev: DFF<Bits<E>>,
    st2_acc: DFF<Bit>,
    st2_sack_malformed: DFF<Bit>,
    st2_ahead: DFF<Bit>,
    st2_una1: DFF<Bits<32>>,
    st2_out1: DFF<Bits<16>>,
    st2_acked1: DFF<Bits<W>>,
    st2_h1v: DFF<Bit>,
    st2_h1b: DFF<Bits<16>>,
    st2_acked_bytes: DFF<Bits<32>>,
    st2_moved0: DFF<Bit>,
    /// What H2's `SenderLoss` made, into H3.
    st3_rec: DFF<Bits<D>>,
    st3_ev: DFF<Bits<E>>,
    st3_holes: DFF<Bits<W>>,
    /// H3: the holes' 4-bit fields counted at H2 (`NibbleCounts`, one LUT level): the lost
    /// count's first levels a stage ahead of the window test.
    st3_hole_counts: DFF<Bits<W>>,
    hole_counts: NibbleCounts<W>,
    st3_slot_rtx: DFF<Bits<16>>,
    st3_flags: DFF<Bits<HEAD_FLAGS>>,
    /// What H3's `SenderPick` made, into S3.
    settled_rec_s3: DFF<Bits<D>>,
    settled_flags_s3: DFF<Bits<HEAD_FLAGS>>,
    /// The settled outcome with the window open to a retransmission, and the lost count and
    /// thresholds it is tested by at S3 (`WindowCountTest`).
    settled_rec_r_s3: DFF<Bits<D>>,
    settled_flags_r_s3: DFF<Bits<HEAD_FLAGS>>,
    settled_n_s3: DFF<Bits<16>>,
    settled_thr_s3: DFF<Bits<WINDOW_THR_BITS>>,
    win_s3: WindowCountTest,
    /// S3: the unsettled head's `snd_nxt - base` and `snd_nxt - EPSN` for each record S3 can
    /// take: the H3 record's (`*_p3`, made at H3) and the one the event right ahead makes
    /// (`*_f`, made beside its loop: its head's `snd_nxt`, plus 1 when it sends new data).
    b_p3: DFF<Bits<32>>,
    e_p3: DFF<Bits<32>>,
    b_f: DFF<Bits<32>>,
    e_f: DFF<Bits<32>>,
    /// S3: `e` against `out` (`SenderSack::s_e_out`) for the same two records, made the
    /// same way (for `*_f` from the head's `out` and `e`, or both plus 1 with new data).
    eo_p3: DFF<Bits<2>>,
    eo_f: DFF<Bits<2>>,
    /// S3: `b` against `out` (`SenderSack::s_b_out`) for the same two records.
    bo_p3: DFF<Bits<17>>,
    bo_f: DFF<Bits<17>>,
    /// S3: the SACK's byte differences (`sbytes - bytes_sent`, `sbytes - bytes_received`)
    /// for the same two records, made the same way (with new data, its length off `sbytes`).
    bd_p3: DFF<Bits<32>>,
    rd_p3: DFF<Bits<32>>,
    bd_f: DFF<Bits<32>>,
    rd_f: DFF<Bits<32>>,
    /// S3: the segment's tops (`top_table_bits`), made at H3 from the event alone, so that
    /// the loop looks its top up below whichever `b` it takes instead of searching.
    top_tbl: DFF<Bits<TT>>,
    /// H3: the table made; S3: the entries for the two `b`s (bit 15: a top; the low bits: its
    /// index), and the one taken.
    top_scan: TopTable<SB, TT>,
    top_look_p3: TopLookup<SB, TT>,
    top_look_f: TopLookup<SB, TT>,
    top_s3: Signal<Local, Bits<16>>,
    /// H1: the settled head's `snd_nxt - base`, `snd_nxt - EPSN` and byte differences, made
    /// at S2 from the shell's `g_record` (the record as the events 5 or more ahead left it) so
    /// that no subtraction follows the snapshot's select. The snapshot differs from it only
    /// when the event 4 ahead had this id; the head's results are used only when that event
    /// did not reposition the connection, and an event that does not reposition leaves
    /// `snd_nxt`, `bytes_sent` and `bytes_recvd` as it found them: the values are the same.
    b_h: DFF<Bits<32>>,
    e_h: DFF<Bits<32>>,
    /// H1: `snd_una` (`snd_nxt - out`) of the record H1 takes, made the same way.
    una_h: DFF<Bits<32>>,
    /// H1: the record's outstanding count, the settling searches over its acknowledged bits
    /// (`SenderSack::s_found`) and `snd_una`'s own slot acknowledged, made the same way: an
    /// event that does not reposition leaves the acknowledged bits and `out` as it found
    /// them too, so the searches wait on no select at H1.
    out_h: DFF<Bits<16>>,
    found_h: DFF<Bits<34>>,
    acked0_h: DFF<Bit>,
    /// S2: the record's `out`, `snd_una`'s slot and acknowledged bits, and the searches.
    out_g: Signal<Local, Bits<16>>,
    slot_g: Signal<Local, Bits<16>>,
    acked_g: Signal<Local, Bits<W>>,
    settle_hi_g: FirstSet<W>,
    settle_all_g: FirstSet<W>,
    found_g: Signal<Local, Bits<34>>,
    cfg_ones_w: Constant<Bits<W>>,
    cfg_one_w: Constant<Bits<W>>,
    cfg_slot_mask: Constant<Bits<16>>,
    bd_h: DFF<Bits<32>>,
    rd_h: DFF<Bits<32>>,
    /// S2: the event's base, EPSN and `sbytes`, the S2 record's `snd_nxt`; H1: `b` taken.
    base_g: Signal<Local, Bits<32>>,
    epsn_g: Signal<Local, Bits<32>>,
    sbytes_g: Signal<Local, Bits<32>>,
    nxt_g: Signal<Local, Bits<32>>,
    b_h1: Signal<Local, Bits<32>>,
    /// H1: the segment's tops below every bound (`TopTable`), made at S2 from the event
    /// alone, so that H1 looks the top below `b` up instead of searching after `b`'s
    /// register (the loop's way, a stage earlier).
    top_scan_h: TopTable<SB, TT>,
    top_tbl_h: DFF<Bits<TT>>,
    top_look_h: TopLookup<SB, TT>,
    cfg_mask_lo: Constant<Bits<16>>,
    cfg_off_out: Constant<Bits<16>>,
    cfg_ent_any: Constant<Bits<16>>,
    /// H3: the event's base and EPSN, the H3 record's `snd_nxt`; S3: the head's `snd_nxt`.
    base_t: Signal<Local, Bits<32>>,
    epsn_t: Signal<Local, Bits<32>>,
    nxt_t: Signal<Local, Bits<32>>,
    nxt_head: Signal<Local, Bits<32>>,
    /// H3: the H3 record's `out` and `e`'s low bits; S3: the head's `out`, and `e`'s low
    /// bits on the head's record without and with new data.
    out_t: Signal<Local, Bits<16>>,
    e_t: Signal<Local, Bits<16>>,
    out_head: Signal<Local, Bits<16>>,
    e_head0: Signal<Local, Bits<16>>,
    e_head1: Signal<Local, Bits<16>>,
    /// H3: `b`'s low bits on the H3 record; S3: on the head's record without and with new
    /// data, and the head's `out` plus 1.
    b_t: Signal<Local, Bits<16>>,
    b_head0: Signal<Local, Bits<16>>,
    b_head1: Signal<Local, Bits<16>>,
    out_head1: Signal<Local, Bits<16>>,
    /// H3: the event's `sbytes`.
    sbytes_t: Signal<Local, Bits<32>>,
    /// S3: the event is unsettled; the head's record and flags it takes.
    unsettled: Signal<Local, Bit>,
    sel_rec: Signal<Local, Bits<D>>,
    sel_flags: Signal<Local, Bits<HEAD_FLAGS>>,

    out_valid: DFF<Bit>,
    out_bad: DFF<Bit>,
    out_conn: DFF<Bits<16>>,
    out_opened: DFF<Bit>,
    out_open_refused: DFF<Bit>,
    out_sack_accepted: DFF<Bit>,
    out_sack_malformed: DFF<Bit>,
    out_acked_bytes: DFF<Bits<32>>,
    out_doorbell_ok: DFF<Bit>,
    out_doorbell_refused: DFF<Bit>,
    out_tx_valid: DFF<Bit>,
    out_tx_psn: DFF<Bits<32>>,
    out_tx_len: DFF<Bits<32>>,
    out_tx_kind: DFF<Bits<2>>,
    out_tx_ack_req: DFF<Bit>,
    out_loss_valid: DFF<Bit>,
    out_loss_kind: DFF<Bits<2>>,
    out_work: DFF<Bit>,
}

impl<const W: usize, const SB: usize, const D: usize, const E: usize, const TT: usize>
    NicSenderRtl<W, SB, D, E, TT>
{
    /// `conns` connections, each starting (and restarting after a reset) at `initial_psn` with
    /// `initial_bytes` sent and received (an open starts at 0); `no_forward`: the shell's
    /// forwarding distance to switch off (the co-sim's broken variants only).
    pub fn new(
        conns: u32,
        k: &SenderConsts,
        initial_psn: u32,
        initial_bytes: u32,
        no_forward: Option<u32>,
    ) -> Self {
        assert!(W.is_power_of_two() && SB.is_power_of_two() && SB <= W && SB <= 256);
        assert!((16..=4096).contains(&W));
        assert_eq!(D, record_bits(W));
        assert_eq!(E, event_bits(SB));
        assert_eq!(TT, top_table_bits(SB));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        NicSenderRtl {
            clock: Default::default(),
            s_reset: Default::default(),
            s_valid: Default::default(),
            s_ready: Default::default(),
            s_conn: Default::default(),
            s_kind: Default::default(),
            s_now: Default::default(),
            s_cwnd: Default::default(),
            s_bdp_zero: Default::default(),
            s_open_psn: Default::default(),
            s_sack_epsn: Default::default(),
            s_sack_base: Default::default(),
            s_sack_bitmap: Default::default(),
            s_sack_bytes: Default::default(),
            s_sack_ooo: Default::default(),
            s_sack_ts: Default::default(),
            s_sack_probe: Default::default(),
            s_doorbell_bytes: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_conn: Default::default(),
            m_opened: Default::default(),
            m_open_refused: Default::default(),
            m_sack_accepted: Default::default(),
            m_sack_malformed: Default::default(),
            m_acked_bytes: Default::default(),
            m_doorbell_ok: Default::default(),
            m_doorbell_refused: Default::default(),
            m_tx_valid: Default::default(),
            m_tx_psn: Default::default(),
            m_tx_len: Default::default(),
            m_tx_kind: Default::default(),
            m_tx_ack_req: Default::default(),
            m_loss_valid: Default::default(),
            m_loss_kind: Default::default(),
            m_work: Default::default(),
            status_ready: Default::default(),
            cfg_psn_mask: c32(0xFF_FFFF),
            cfg_seg_low: c32(SB as u64 - 1),
            cfg_settle_seen: Constant::new(bits(0xF)),
            cfg_retx_inverted: Constant::new(false),
            pipe: ContextPipeHold::new(
                conns,
                initial_record::<D>(initial_psn, initial_bytes),
                no_forward,
            ),
            sack: SenderSack::default(),
            loss: SenderLoss::new(k),
            pick: SenderPick::new(k),
            sack_loop: SenderSack::default(),
            loss_loop: SenderLoss::new(k),
            pick_loop: SenderPick::new(k),
            tail: SenderTail::new(k),
            ev_in: Default::default(),
            out_valid: Default::default(),
            out_bad: Default::default(),
            out_conn: Default::default(),
            out_opened: Default::default(),
            out_open_refused: Default::default(),
            out_sack_accepted: Default::default(),
            out_sack_malformed: Default::default(),
            out_acked_bytes: Default::default(),
            out_doorbell_ok: Default::default(),
            out_doorbell_refused: Default::default(),
            out_tx_valid: Default::default(),
            out_tx_psn: Default::default(),
            out_tx_len: Default::default(),
            out_tx_kind: Default::default(),
            out_tx_ack_req: Default::default(),
            out_loss_valid: Default::default(),
            out_loss_kind: Default::default(),
            out_work: Default::default(),
            win_line: Default::default(),
            bdp_line: Default::default(),
            repos: Default::default(),
            repos_in: Default::default(),
            st2_rec: Default::default(),
            st2_ev: Default::default(),
            st2_acc: Default::default(),
            st2_sack_malformed: Default::default(),
            st2_ahead: Default::default(),
            st2_una1: Default::default(),
            st2_out1: Default::default(),
            st2_acked1: Default::default(),
            st2_h1v: Default::default(),
            st2_h1b: Default::default(),
            st2_acked_bytes: Default::default(),
            st2_moved0: Default::default(),
            st3_rec: Default::default(),
            st3_ev: Default::default(),
            st3_holes: Default::default(),
            st3_hole_counts: Default::default(),
            hole_counts: Default::default(),
            st3_slot_rtx: Default::default(),
            st3_flags: Default::default(),
            settled_rec_s3: Default::default(),
            settled_flags_s3: Default::default(),
            settled_rec_r_s3: Default::default(),
            settled_flags_r_s3: Default::default(),
            settled_n_s3: Default::default(),
            settled_thr_s3: Default::default(),
            win_s3: Default::default(),
            b_p3: Default::default(),
            e_p3: Default::default(),
            b_f: Default::default(),
            e_f: Default::default(),
            eo_p3: Default::default(),
            eo_f: Default::default(),
            bo_p3: Default::default(),
            bo_f: Default::default(),
            bd_p3: Default::default(),
            rd_p3: Default::default(),
            bd_f: Default::default(),
            rd_f: Default::default(),
            top_tbl: Default::default(),
            top_scan: Default::default(),
            top_look_p3: Default::default(),
            top_look_f: Default::default(),
            top_s3: Default::default(),
            b_h: Default::default(),
            una_h: Default::default(),
            out_h: Default::default(),
            found_h: Default::default(),
            acked0_h: Default::default(),
            out_g: Default::default(),
            slot_g: Default::default(),
            acked_g: Default::default(),
            settle_hi_g: FirstSet::lowest(),
            settle_all_g: FirstSet::lowest(),
            found_g: Default::default(),
            cfg_ones_w: Constant::new(!Bits::<W>::default()),
            cfg_one_w: Constant::new(bits::<W>(1)),
            cfg_slot_mask: Constant::new(bits::<16>(W as u64 - 1)),
            e_h: Default::default(),
            bd_h: Default::default(),
            rd_h: Default::default(),
            base_g: Default::default(),
            epsn_g: Default::default(),
            sbytes_g: Default::default(),
            nxt_g: Default::default(),
            b_h1: Default::default(),
            top_scan_h: Default::default(),
            top_tbl_h: Default::default(),
            top_look_h: Default::default(),
            cfg_mask_lo: Constant::new(bits::<16>(2 * W as u64 - 1)),
            cfg_off_out: Constant::new(bits::<16>((FIXED_BITS + W) as u64)),
            cfg_ent_any: Constant::new(bits::<16>(0x8000)),
            base_t: Default::default(),
            epsn_t: Default::default(),
            nxt_t: Default::default(),
            nxt_head: Default::default(),
            out_t: Default::default(),
            e_t: Default::default(),
            out_head: Default::default(),
            e_head0: Default::default(),
            e_head1: Default::default(),
            b_t: Default::default(),
            b_head0: Default::default(),
            b_head1: Default::default(),
            out_head1: Default::default(),
            sbytes_t: Default::default(),
            unsettled: Default::default(),
            sel_rec: Default::default(),
            sel_flags: Default::default(),
        }
    }

    /// The design with the reposition of the event `d` ahead (1..=4) not seen: the co-sim's
    /// broken variants only.
    pub fn with_settle_blind(mut self, d: Option<u32>) -> Self {
        assert!(d.is_none_or(|d| (1..=SETTLE_AHEAD).contains(&d)));
        let seen = 0xF & !d.map_or(0, |d| 1u64 << (d - 1));
        self.cfg_settle_seen = Constant::new(bits(seen));
        self
    }

    /// The design whose S3 takes the window test by the lost count the wrong way round (a
    /// settled transmit retransmits with the window shut and sends nothing of its lost PSNs
    /// with it open): the co-sim's broken variant only.
    pub fn with_retx_inverted(mut self, on: bool) -> Self {
        self.cfg_retx_inverted = Constant::new(on);
        self
    }
}

/// The senders' step at S3 from the backlog on (combinational): a doorbell's bytes, new data
/// for a transmit the head let through, and the has-work bit, on the head's record with the
/// backlog as every event ahead left it. Short: no search, no count, in the shell's loop.
#[derive(LogicBlock)]
pub struct SenderTail<const W: usize, const D: usize> {
    /// The head's record (no new packet; its backlog is not read).
    pub s_record: Signal<In, Bits<D>>,
    /// The backlog as every event before this one left it (the S3 record's).
    pub s_backlog: Signal<In, Bits<32>>,
    /// The event's kind, time and doorbell bytes.
    pub s_kind: Signal<In, Bits<3>>,
    pub s_now: Signal<In, Bits<32>>,
    pub s_doorbell_bytes: Signal<In, Bits<32>>,
    /// The window the event reads, bytes.
    pub s_cwnd: Signal<In, Bits<32>>,
    /// The head let a transmit through to new data (the backlog decides).
    pub s_can_new: Signal<In, Bit>,
    /// The head opened the connection: its record passes, no work.
    pub s_opened: Signal<In, Bit>,
    /// The record after the event.
    pub m_next: Signal<Out, Bits<D>>,
    pub m_doorbell_ok: Signal<Out, Bit>,
    pub m_doorbell_refused: Signal<Out, Bit>,
    /// A new packet is sent: PSN, length, it empties the backlog.
    pub m_new: Signal<Out, Bit>,
    pub m_new_psn: Signal<Out, Bits<32>>,
    pub m_new_len: Signal<Out, Bits<32>>,
    pub m_new_ack_req: Signal<Out, Bit>,
    /// The connection can send after the event.
    pub m_work: Signal<Out, Bit>,

    cfg_psn_mask: Constant<Bits<32>>,
    cfg_w: Constant<Bits<16>>,
    cfg_slot_mask: Constant<Bits<16>>,
    cfg_mask_lo: Constant<Bits<16>>,
    cfg_off_out: Constant<Bits<16>>,
    cfg_off_rtx: Constant<Bits<16>>,
    cfg_off_h: Constant<Bits<16>>,
    cfg_off_hi: Constant<Bits<16>>,
    cfg_off_short: Constant<Bits<16>>,
    cfg_off_slen: Constant<Bits<16>>,
    cfg_off_view: Constant<Bits<16>>,
    /// The record's bits the tail never writes: bytes received, the three flags before the
    /// short packet's, the lost view.
    cfg_keep: Constant<Bits<D>>,
    cfg_mtu: Constant<Bits<32>>,
    cfg_probe_interval: Constant<Bits<32>>,
    cfg_one_w: Constant<Bits<W>>,

    rec: Signal<Local, Bits<D>>,
    now: Signal<Local, Bits<32>>,
    is_door: Signal<Local, Bit>,
    nxt: Signal<Local, Bits<32>>,
    bsent: Signal<Local, Bits<32>>,
    flight: Signal<Local, Bits<32>>,
    pts: Signal<Local, Bits<32>>,
    rts: Signal<Local, Bits<32>>,
    sv: Signal<Local, Bit>,
    acked: Signal<Local, Bits<W>>,
    out: Signal<Local, Bits<16>>,
    rtxb: Signal<Local, Bits<16>>,
    hb: Signal<Local, Bits<16>>,
    hib: Signal<Local, Bits<16>>,
    shb: Signal<Local, Bits<16>>,
    slen: Signal<Local, Bits<16>>,
    view: Signal<Local, Bits<32>>,
    door_sum: Signal<Local, Bits<33>>,
    door_ok: Signal<Local, Bit>,
    backlog: Signal<Local, Bits<32>>,
    big: Signal<Local, Bit>,
    offer: Signal<Local, Bit>,
    olen: Signal<Local, Bits<32>>,
    do_new: Signal<Local, Bit>,
    c_nxt: Signal<Local, Bits<32>>,
    c_out: Signal<Local, Bits<16>>,
    c_acked: Signal<Local, Bits<W>>,
    c_bsent: Signal<Local, Bits<32>>,
    c_flight: Signal<Local, Bits<32>>,
    c_pts: Signal<Local, Bits<32>>,
    c_rts: Signal<Local, Bits<32>>,
    c_backlog: Signal<Local, Bits<32>>,
    c_rtxb: Signal<Local, Bits<16>>,
    c_hb: Signal<Local, Bits<16>>,
    c_hib: Signal<Local, Bits<16>>,
    c_sv: Signal<Local, Bit>,
    c_shb: Signal<Local, Bits<16>>,
    c_slen: Signal<Local, Bits<16>>,
    d_ge: Signal<Local, Bit>,
    pd0: Signal<Local, Bit>,
    pd1: Signal<Local, Bit>,
    win0: WindowOpen,
    win1: WindowOpen,
    open0: Signal<Local, Bit>,
    open1: Signal<Local, Bit>,
    backlog1: Signal<Local, Bits<32>>,
    cut0: Signal<Local, Bit>,
    cut1: Signal<Local, Bit>,
    work0: Signal<Local, Bit>,
    work1: Signal<Local, Bit>,
    work: Signal<Local, Bit>,
    next: Signal<Local, Bits<D>>,
}

impl<const W: usize, const D: usize> SenderTail<W, D> {
    /// The tail with the config's MTU and probe interval.
    pub fn new(k: &SenderConsts) -> Self {
        let l = W.trailing_zeros() as usize;
        let off_out = FIXED_BITS + W;
        let off_view = off_out + 2 * (l + 1) + 3 * l + 16;
        let c16 = |v: u64| Constant::new(bits::<16>(v));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        let mut keep = Bits::<D>::default();
        for i in (56..88).chain(216..219).chain(off_view..off_view + 32) {
            keep = keep.replace_bit(i, true);
        }
        SenderTail {
            s_record: Default::default(),
            s_backlog: Default::default(),
            s_kind: Default::default(),
            s_now: Default::default(),
            s_doorbell_bytes: Default::default(),
            s_cwnd: Default::default(),
            s_can_new: Default::default(),
            s_opened: Default::default(),
            m_next: Default::default(),
            m_doorbell_ok: Default::default(),
            m_doorbell_refused: Default::default(),
            m_new: Default::default(),
            m_new_psn: Default::default(),
            m_new_len: Default::default(),
            m_new_ack_req: Default::default(),
            m_work: Default::default(),
            cfg_psn_mask: c32(0xFF_FFFF),
            cfg_w: c16(W as u64),
            cfg_slot_mask: c16(W as u64 - 1),
            cfg_mask_lo: c16(2 * W as u64 - 1),
            cfg_off_out: c16(off_out as u64),
            cfg_off_rtx: c16((off_out + l + 1) as u64),
            cfg_off_h: c16((off_out + 2 * (l + 1)) as u64),
            cfg_off_hi: c16((off_out + 2 * (l + 1) + l) as u64),
            cfg_off_short: c16((off_out + 2 * (l + 1) + 2 * l) as u64),
            cfg_off_slen: c16((off_out + 2 * (l + 1) + 3 * l) as u64),
            cfg_off_view: c16(off_view as u64),
            cfg_keep: Constant::new(keep),
            cfg_mtu: c32(u64::from(k.mtu)),
            cfg_probe_interval: c32(u64::from(k.probe_interval_ns)),
            cfg_one_w: Constant::new(bits::<W>(1)),
            rec: Default::default(),
            now: Default::default(),
            is_door: Default::default(),
            nxt: Default::default(),
            bsent: Default::default(),
            flight: Default::default(),
            pts: Default::default(),
            rts: Default::default(),
            sv: Default::default(),
            acked: Default::default(),
            out: Default::default(),
            rtxb: Default::default(),
            hb: Default::default(),
            hib: Default::default(),
            shb: Default::default(),
            slen: Default::default(),
            view: Default::default(),
            door_sum: Default::default(),
            door_ok: Default::default(),
            backlog: Default::default(),
            big: Default::default(),
            offer: Default::default(),
            olen: Default::default(),
            do_new: Default::default(),
            c_nxt: Default::default(),
            c_out: Default::default(),
            c_acked: Default::default(),
            c_bsent: Default::default(),
            c_flight: Default::default(),
            c_pts: Default::default(),
            c_rts: Default::default(),
            c_backlog: Default::default(),
            c_rtxb: Default::default(),
            c_hb: Default::default(),
            c_hib: Default::default(),
            c_sv: Default::default(),
            c_shb: Default::default(),
            c_slen: Default::default(),
            d_ge: Default::default(),
            pd0: Default::default(),
            pd1: Default::default(),
            win0: Default::default(),
            win1: Default::default(),
            open0: Default::default(),
            open1: Default::default(),
            backlog1: Default::default(),
            cut0: Default::default(),
            cut1: Default::default(),
            work0: Default::default(),
            work1: Default::default(),
            work: Default::default(),
            next: Default::default(),
        }
    }
}

impl<const W: usize, const D: usize> Logic for SenderTail<W, D> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rec.next = self.s_record.val();
        self.now.next = self.s_now.val();
        self.is_door.next = self.s_kind.val() == 4_usize.to_bits::<3>();
        self.nxt.next = bit_cast::<32, 24>(self.rec.val().get_bits::<24>(0));
        self.bsent.next = self.rec.val().get_bits::<32>(24);
        self.flight.next = self.rec.val().get_bits::<32>(88);
        self.pts.next = self.rec.val().get_bits::<32>(120);
        self.rts.next = self.rec.val().get_bits::<32>(152);
        self.sv.next = self.rec.val().get_bit(219);
        self.acked.next = self.rec.val().get_bits::<W>(220);
        self.out.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_out.val()) & self.cfg_mask_lo.val();
        self.rtxb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_rtx.val()) & self.cfg_mask_lo.val();
        self.hb.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_h.val()) & self.cfg_slot_mask.val();
        self.hib.next =
            bit_cast::<16, D>(self.rec.val() >> self.cfg_off_hi.val()) & self.cfg_slot_mask.val();
        self.shb.next = bit_cast::<16, D>(self.rec.val() >> self.cfg_off_short.val())
            & self.cfg_slot_mask.val();
        self.slen.next = bit_cast::<16, D>(self.rec.val() >> self.cfg_off_slen.val());
        self.view.next = bit_cast::<32, D>(self.rec.val() >> self.cfg_off_view.val());

        // ---- A doorbell adds its bytes (a 33-bit sum: its carry refuses them).
        self.door_sum.next = bit_cast::<33, 32>(self.s_backlog.val())
            + bit_cast::<33, 32>(self.s_doorbell_bytes.val());
        self.door_ok.next = !self.door_sum.val().get_bit(32);
        self.backlog.next = self.s_backlog.val();
        if self.is_door.val() & self.door_ok.val() {
            self.backlog.next = self.door_sum.val().get_bits::<32>(0);
        }

        // ---- New data: the backlog's next packet, when the head let a transmit through. Only
        // a transmit sends, and it adds no bytes: the packet is cut from the record's backlog,
        // so that the doorbell's sum is not on the new packet's path.
        self.big.next = self.s_backlog.val() >= self.cfg_mtu.val();
        self.offer.next = self.big.val() | (self.s_backlog.val().any() & !self.sv.val());
        self.olen.next = self.s_backlog.val();
        if self.big.val() {
            self.olen.next = self.cfg_mtu.val();
        }
        self.backlog1.next = self.s_backlog.val() - self.olen.val();
        self.do_new.next = self.s_can_new.val() & self.offer.val();
        self.c_nxt.next = self.nxt.val();
        self.c_out.next = self.out.val();
        self.c_acked.next = self.acked.val();
        self.c_bsent.next = self.bsent.val();
        self.c_flight.next = self.flight.val();
        self.c_pts.next = self.pts.val();
        self.c_rts.next = self.rts.val();
        self.c_backlog.next = self.backlog.val();
        self.c_rtxb.next = self.rtxb.val();
        self.c_hb.next = self.hb.val();
        self.c_hib.next = self.hib.val();
        self.c_sv.next = self.sv.val();
        self.c_shb.next = self.shb.val();
        self.c_slen.next = self.slen.val();
        if self.do_new.val() {
            if !self.out.val().any() {
                self.c_rts.next = self.now.val();
                self.c_pts.next = self.now.val();
            }
            self.c_acked.next = self.acked.val()
                & !(self.cfg_one_w.val()
                    << (bit_cast::<16, 32>(self.nxt.val()) & self.cfg_slot_mask.val()));
            self.c_nxt.next = (self.nxt.val() + 1_usize.to_bits::<32>()) & self.cfg_psn_mask.val();
            self.c_out.next = self.out.val() + 1_usize.to_bits::<16>();
            self.c_hb.next = self.hb.val() + 1_usize.to_bits::<16>();
            self.c_hib.next = self.hib.val() + 1_usize.to_bits::<16>();
            self.c_rtxb.next = self.rtxb.val() + 1_usize.to_bits::<16>();
            self.c_shb.next = self.shb.val() + 1_usize.to_bits::<16>();
            self.c_bsent.next = self.bsent.val() + self.olen.val();
            self.c_flight.next = self.flight.val() + self.olen.val();
            self.c_backlog.next = self.backlog1.val();
            if !self.big.val() {
                self.c_sv.next = true;
                self.c_shb.next = 0.into();
                self.c_slen.next = bit_cast::<16, 32>(self.olen.val());
            }
        }

        // ---- The has-work bit (the lost bytes: the view the head left), made for both
        // outcomes from the record and the backlog, and picked by the new packet: its sums
        // and compares are not behind the head's transmit decision. With a new packet `out`
        // is not 0 after it, and the probe clock restarts at `now` when nothing was out
        // (`now - now >= interval` only for an interval of 0).
        self.d_ge.next = (self.now.val() - self.pts.val()) >= self.cfg_probe_interval.val();
        self.pd0.next = self.out.val().any() & self.d_ge.val();
        self.pd1.next = (self.out.val().any() & self.d_ge.val())
            | (!self.out.val().any() & !self.cfg_probe_interval.val().any());
        self.win0.s_raw.next = self.flight.val() - self.view.val();
        self.win0.s_cwnd.next = self.s_cwnd.val();
        self.open0.next = self.win0.m_open.val();
        self.win1.s_raw.next = self.flight.val() + self.olen.val() - self.view.val();
        self.win1.s_cwnd.next = self.s_cwnd.val();
        self.open1.next = self.win1.m_open.val();
        self.cut0.next = (self.backlog.val() >= self.cfg_mtu.val())
            | (self.backlog.val().any() & !self.sv.val());
        // A short packet sent leaves the short flag set.
        self.cut1.next = (self.backlog1.val() >= self.cfg_mtu.val())
            | (self.backlog1.val().any() & !self.sv.val() & self.big.val());
        self.work0.next = self.pd0.val()
            | (self.open0.val()
                & (self.view.val().any()
                    | (self.cut0.val() & (self.out.val() < self.cfg_w.val()))));
        self.work1.next = self.pd1.val()
            | (self.open1.val()
                & (self.view.val().any()
                    | (self.cut1.val()
                        & ((self.out.val() + 1_usize.to_bits::<16>()) < self.cfg_w.val()))));
        self.work.next = self.work0.val();
        if self.do_new.val() {
            self.work.next = self.work1.val();
        }

        // ---- The record written back (an open's passes as the head made it).
        self.next.next = (self.rec.val() & self.cfg_keep.val())
            | bit_cast::<D, 32>(self.c_nxt.val())
            | (bit_cast::<D, 32>(self.c_bsent.val()) << 24)
            | (bit_cast::<D, 32>(self.c_flight.val()) << 88)
            | (bit_cast::<D, 32>(self.c_pts.val()) << 120)
            | (bit_cast::<D, 32>(self.c_rts.val()) << 152)
            | (bit_cast::<D, 32>(self.c_backlog.val()) << 184)
            | (bit_cast::<D, W>(self.c_acked.val()) << 220)
            | (bit_cast::<D, 16>(self.c_out.val() & self.cfg_mask_lo.val())
                << self.cfg_off_out.val())
            | (bit_cast::<D, 16>(self.c_rtxb.val() & self.cfg_mask_lo.val())
                << self.cfg_off_rtx.val())
            | (bit_cast::<D, 16>(self.c_hb.val() & self.cfg_slot_mask.val())
                << self.cfg_off_h.val())
            | (bit_cast::<D, 16>(self.c_hib.val() & self.cfg_slot_mask.val())
                << self.cfg_off_hi.val())
            | (bit_cast::<D, 16>(self.c_shb.val() & self.cfg_slot_mask.val())
                << self.cfg_off_short.val())
            | (bit_cast::<D, 16>(self.c_slen.val()) << self.cfg_off_slen.val());
        self.next.next = self.next.val().replace_bit(219, self.c_sv.val());
        if self.s_opened.val() {
            self.next.next = self.rec.val();
            self.work.next = false;
        }
        self.m_next.next = self.next.val();
        self.m_doorbell_ok.next = self.is_door.val() & self.door_ok.val();
        self.m_doorbell_refused.next = self.is_door.val() & !self.door_ok.val();
        self.m_new.next = self.do_new.val();
        self.m_new_psn.next = self.nxt.val();
        self.m_new_len.next = self.olen.val();
        self.m_new_ack_req.next = self.olen.val() == self.backlog.val();
        self.m_work.next = self.work.val();
    }
}

impl<const W: usize, const SB: usize, const D: usize, const E: usize, const TT: usize> Logic
    for NicSenderRtl<W, SB, D, E, TT>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            out_valid,
            out_bad,
            out_conn,
            out_opened,
            out_open_refused,
            out_sack_accepted,
            out_sack_malformed,
            out_acked_bytes,
            out_doorbell_ok,
            out_doorbell_refused,
            out_tx_valid,
            out_tx_psn,
            out_tx_len,
            out_tx_kind,
            out_tx_ack_req,
            out_loss_valid,
            out_loss_kind,
            out_work,
            win_line,
            bdp_line,
            repos,
            st2_rec,
            st2_ev,
            st2_acc,
            st2_sack_malformed,
            st2_ahead,
            st2_una1,
            st2_out1,
            st2_acked1,
            st2_h1v,
            st2_h1b,
            st2_acked_bytes,
            st2_moved0,
            st3_rec,
            st3_ev,
            st3_holes,
            st3_hole_counts,
            st3_slot_rtx,
            st3_flags,
            settled_rec_s3,
            settled_flags_s3,
            settled_rec_r_s3,
            settled_flags_r_s3,
            settled_n_s3,
            settled_thr_s3,
            b_p3,
            e_p3,
            b_f,
            e_f,
            eo_p3,
            eo_f,
            bo_p3,
            bo_f,
            bd_p3,
            rd_p3,
            bd_f,
            rd_f,
            top_tbl,
            top_tbl_h,
            b_h,
            una_h,
            out_h,
            found_h,
            acked0_h,
            e_h,
            bd_h,
            rd_h
        );

        // ---- S0: the event into the shell; the SACK's format (no state needed) checked here.
        self.pipe.clock.next = self.clock.val();
        self.pipe.s_reset.next = self.s_reset.val();
        self.pipe.s_valid.next = self.s_valid.val();
        self.pipe.s_id.next = self.s_conn.val();
        self.s_ready.next = self.pipe.status_ready.val() & !self.s_reset.val();
        self.status_ready.next = self.pipe.status_ready.val();
        self.ev_in.next = bit_cast::<E, 3>(self.s_kind.val())
            | (bit_cast::<E, 32>(self.s_now.val()) << 3)
            | (bit_cast::<E, 32>(self.s_open_psn.val() & self.cfg_psn_mask.val()) << 36)
            | (bit_cast::<E, 32>(self.s_sack_epsn.val() & self.cfg_psn_mask.val()) << 61)
            | (bit_cast::<E, 32>(self.s_sack_base.val() & self.cfg_psn_mask.val()) << 85)
            | (bit_cast::<E, 32>(self.s_sack_bytes.val()) << 109)
            | (bit_cast::<E, 32>(self.s_sack_ooo.val()) << 141)
            | (bit_cast::<E, 32>(self.s_sack_ts.val()) << 173)
            | (bit_cast::<E, 32>(self.s_doorbell_bytes.val()) << 206)
            | (bit_cast::<E, SB>(self.s_sack_bitmap.val()) << 238);
        // The window comes a cycle after its event: S1 to H3 carry it beside the shell.
        self.win_line.d.next =
            (self.win_line.q.val() << 32) | bit_cast::<160, 32>(self.s_cwnd.val());
        self.bdp_line.d.next = (self.bdp_line.q.val() << 1).replace_bit(0, self.s_bdp_zero.val());
        self.ev_in.next = self
            .ev_in
            .val()
            .replace_bit(35, (self.s_open_psn.val() & !self.cfg_psn_mask.val()).any());
        self.ev_in.next = self.ev_in.val().replace_bit(
            60,
            (self.s_sack_epsn.val() & !self.cfg_psn_mask.val()).any()
                | (self.s_sack_base.val() & !self.cfg_psn_mask.val()).any()
                | (self.s_sack_base.val() & self.cfg_seg_low.val()).any(),
        );
        self.ev_in.next = self.ev_in.val().replace_bit(205, self.s_sack_probe.val());
        self.pipe.s_event.next = self.ev_in.val();

        // ---- H1..H3: a settled event's head on the snapshot (the record as the events 4 or
        // more ahead left it: the same as S3's but for the backlog and the lost view, which the
        // head does not read, when none of the 4 ahead repositioned), one stage a cycle, its
        // results into S3. The window is at H1, H2, H3 in the window's line.
        // S2: the offsets and byte differences for the record H1 takes (see `b_h`: the event 4
        // ahead, if it had this id, changed none of them when the head's results are used).
        self.base_g.next = bit_cast::<32, 24>(self.pipe.g_event.val().get_bits::<24>(85));
        self.epsn_g.next = bit_cast::<32, 24>(self.pipe.g_event.val().get_bits::<24>(61));
        self.sbytes_g.next = self.pipe.g_event.val().get_bits::<32>(109);
        self.nxt_g.next = bit_cast::<32, 24>(self.pipe.g_record.val().get_bits::<24>(0));
        self.b_h.d.next = (self.nxt_g.val() - self.base_g.val()) & self.cfg_psn_mask.val();
        self.e_h.d.next = (self.nxt_g.val() - self.epsn_g.val()) & self.cfg_psn_mask.val();
        self.out_g.next = bit_cast::<16, D>(self.pipe.g_record.val() >> self.cfg_off_out.val())
            & self.cfg_mask_lo.val();
        self.una_h.d.next =
            (self.nxt_g.val() - bit_cast::<32, 16>(self.out_g.val())) & self.cfg_psn_mask.val();
        self.out_h.d.next = self.out_g.val();
        // The settling searches from snd_una's slot (the low bits of the sum above, which its
        // carry chain makes first).
        self.slot_g.next = bit_cast::<16, 32>(self.una_h.d.val()) & self.cfg_slot_mask.val();
        self.acked_g.next = self.pipe.g_record.val().get_bits::<W>(220);
        self.settle_hi_g.v.next =
            !self.acked_g.val() & (self.cfg_ones_w.val() << self.slot_g.val());
        self.settle_all_g.v.next = !self.acked_g.val();
        self.found_g.next = bit_cast::<34, 16>(self.settle_hi_g.idx.val())
            | (bit_cast::<34, 16>(self.settle_all_g.idx.val()) << 16);
        self.found_g.next = self
            .found_g
            .val()
            .replace_bit(32, self.settle_hi_g.any.val());
        self.found_g.next = self
            .found_g
            .val()
            .replace_bit(33, self.settle_all_g.any.val());
        self.found_h.d.next = self.found_g.val();
        self.acked0_h.d.next =
            (self.acked_g.val() & (self.cfg_one_w.val() << self.slot_g.val())).any();
        self.bd_h.d.next = self.sbytes_g.val() - self.pipe.g_record.val().get_bits::<32>(24);
        self.rd_h.d.next = self.sbytes_g.val() - self.pipe.g_record.val().get_bits::<32>(56);
        self.sack.s_record.next = self.pipe.h_record.val();
        self.sack.s_event.next = self.pipe.h_event.val();
        self.b_h1.next = self.b_h.q.val();
        self.sack.s_e.next = self.e_h.q.val();
        self.sack.s_una.next = self.una_h.q.val();
        self.sack.s_out.next = self.out_h.q.val();
        self.sack.s_found.next = self.found_h.q.val();
        self.sack.s_acked0.next = self.acked0_h.q.val();
        self.sack.s_bytes_d.next = self.bd_h.q.val();
        self.sack.s_bd.next = self.rd_h.q.val();
        self.sack.s_e_out.next = 0.into();
        self.sack.s_b_out.next = 0.into();
        self.sack.s_b.next = self.b_h1.val();
        // The segment's top below b (its low bits; a far b is SenderSack's to refuse),
        // looked up in the table S2 made.
        self.top_scan_h.s_bitmap.next = self.pipe.g_event.val().get_bits::<SB>(238);
        self.top_tbl_h.d.next = self.top_scan_h.m_table.val();
        self.top_look_h.s_table.next = self.top_tbl_h.q.val();
        self.top_look_h.s_b.next = bit_cast::<16, 32>(self.b_h1.val()) & self.cfg_mask_lo.val();
        self.sack.s_top_any.next = self.top_look_h.m_top.val().get_bit(15);
        self.sack.s_top_idx.next = self.top_look_h.m_top.val() & !self.cfg_ent_any.val();
        self.sack.s_unsettled.next = false;
        self.st2_rec.d.next = self.sack.m_record.val();
        self.st2_ev.d.next = self.pipe.h_event.val();
        self.st2_acc.d.next = self.sack.m_acc.val();
        self.st2_sack_malformed.d.next = self.sack.m_sack_malformed.val();
        self.st2_ahead.d.next = self.sack.m_ahead.val();
        self.st2_una1.d.next = self.sack.m_una1.val();
        self.st2_out1.d.next = self.sack.m_out1.val();
        self.st2_acked1.d.next = self.sack.m_acked1.val();
        self.st2_h1v.d.next = self.sack.m_h1v.val();
        self.st2_h1b.d.next = self.sack.m_h1b.val();
        self.st2_acked_bytes.d.next = self.sack.m_acked_bytes.val();
        self.st2_moved0.d.next = self.sack.m_moved0.val();
        self.loss.s_record.next = self.st2_rec.q.val();
        self.loss.s_event.next = self.st2_ev.q.val();
        self.loss.s_cwnd.next = self.win_line.q.val().get_bits::<32>(64);
        self.loss.s_bdp_zero.next = self.bdp_line.q.val().get_bit(2);
        self.loss.s_unsettled.next = false;
        self.loss.s_acc.next = self.st2_acc.q.val();
        self.loss.s_sack_malformed.next = self.st2_sack_malformed.q.val();
        self.loss.s_ahead.next = self.st2_ahead.q.val();
        self.loss.s_una1.next = self.st2_una1.q.val();
        self.loss.s_out1.next = self.st2_out1.q.val();
        self.loss.s_acked1.next = self.st2_acked1.q.val();
        self.loss.s_h1v.next = self.st2_h1v.q.val();
        self.loss.s_h2v_u.next = false;
        self.loss.s_h1b.next = self.st2_h1b.q.val();
        self.loss.s_acked_bytes.next = self.st2_acked_bytes.q.val();
        self.loss.s_moved0.next = self.st2_moved0.q.val();
        self.st3_rec.d.next = self.loss.m_record.val();
        self.st3_ev.d.next = self.st2_ev.q.val();
        self.st3_holes.d.next = self.loss.m_holes.val();
        self.hole_counts.v.next = self.loss.m_holes.val();
        self.st3_hole_counts.d.next = self.hole_counts.counts.val();
        self.st3_slot_rtx.d.next = self.loss.m_slot_rtx.val();
        self.st3_flags.d.next = self.loss.m_flags.val();
        // H3: the unsettled head's offsets for the H3 record (S3 takes it unless the event
        // right ahead had the same id).
        self.base_t.next = bit_cast::<32, 24>(self.st3_ev.q.val().get_bits::<24>(85));
        self.epsn_t.next = bit_cast::<32, 24>(self.st3_ev.q.val().get_bits::<24>(61));
        self.nxt_t.next = bit_cast::<32, 24>(self.pipe.t_record.val().get_bits::<24>(0));
        self.b_p3.d.next = (self.nxt_t.val() - self.base_t.val()) & self.cfg_psn_mask.val();
        self.e_p3.d.next = (self.nxt_t.val() - self.epsn_t.val()) & self.cfg_psn_mask.val();
        self.out_t.next = bit_cast::<16, D>(self.pipe.t_record.val() >> self.cfg_off_out.val())
            & self.cfg_mask_lo.val();
        self.e_t.next = (bit_cast::<16, 32>(self.nxt_t.val())
            - bit_cast::<16, 32>(self.epsn_t.val()))
            & self.cfg_mask_lo.val();
        self.eo_p3.d.next = 0.into();
        self.eo_p3.d.next = self
            .eo_p3
            .d
            .val()
            .replace_bit(0, self.e_t.val() < self.out_t.val());
        self.eo_p3.d.next = self.eo_p3.d.val().replace_bit(
            1,
            !self.e_t.val().any() | (self.e_t.val() <= self.out_t.val()),
        );
        self.b_t.next = (bit_cast::<16, 32>(self.nxt_t.val())
            - bit_cast::<16, 32>(self.base_t.val()))
            & self.cfg_mask_lo.val();
        self.bo_p3.d.next = bit_cast::<17, 16>(self.b_t.val() - self.out_t.val());
        self.bo_p3.d.next = self
            .bo_p3
            .d
            .val()
            .replace_bit(16, self.b_t.val() <= self.out_t.val());
        self.sbytes_t.next = self.st3_ev.q.val().get_bits::<32>(109);
        self.bd_p3.d.next = self.sbytes_t.val() - self.pipe.t_record.val().get_bits::<32>(24);
        self.rd_p3.d.next = self.sbytes_t.val() - self.pipe.t_record.val().get_bits::<32>(56);
        // The segment's tops below every bound, for S3 to look up (`TopTable`).
        self.top_scan.s_bitmap.next = self.st3_ev.q.val().get_bits::<SB>(238);
        self.top_tbl.d.next = self.top_scan.m_table.val();
        self.pick.s_record.next = self.st3_rec.q.val();
        self.pick.s_tx_record.next = self.st3_rec.q.val();
        self.pick.s_event.next = self.st3_ev.q.val();
        self.pick.s_cwnd.next = self.win_line.q.val().get_bits::<32>(96);
        self.pick.s_unsettled.next = false;
        self.pick.s_holes.next = self.st3_holes.q.val();
        self.pick.s_hole_counts.next = self.st3_hole_counts.q.val();
        self.pick.s_slot_rtx.next = self.st3_slot_rtx.q.val();
        self.pick.s_flags.next = self.st3_flags.q.val();
        self.settled_rec_s3.d.next = self.pick.m_next.val();
        self.settled_flags_s3.d.next = self.pick.m_flags.val();
        self.settled_rec_r_s3.d.next = self.pick.m_next_r.val();
        self.settled_flags_r_s3.d.next = self.pick.m_flags_r.val();
        self.settled_n_s3.d.next = self.pick.m_n.val();
        self.settled_thr_s3.d.next = self.pick.m_thr.val();

        // ---- S3: unsettled, one of the 4 events ahead (each forwarded to this one) had its id
        // and repositioned it (the eq bits and the reposition bits are registers: one AND-OR);
        // its head runs here, the three stages in one cycle, on the record every event ahead
        // left (no search and no count: they are the settled head's). Then the tail.
        self.unsettled.next =
            (self.pipe.m_eq.val() & self.repos.q.val() & self.cfg_settle_seen.val()).any();
        self.sack_loop.s_record.next = self.pipe.m_record.val();
        self.sack_loop.s_event.next = self.pipe.m_event.val();
        self.sack_loop.s_b.next = self.b_p3.q.val();
        self.sack_loop.s_e.next = self.e_p3.q.val();
        self.sack_loop.s_bytes_d.next = self.bd_p3.q.val();
        self.sack_loop.s_bd.next = self.rd_p3.q.val();
        self.sack_loop.s_e_out.next = self.eo_p3.q.val();
        self.sack_loop.s_b_out.next = self.bo_p3.q.val();
        if self.pipe.m_hit1.val() {
            self.sack_loop.s_e_out.next = self.eo_f.q.val();
            self.sack_loop.s_b_out.next = self.bo_f.q.val();
            self.sack_loop.s_b.next = self.b_f.q.val();
            self.sack_loop.s_e.next = self.e_f.q.val();
            self.sack_loop.s_bytes_d.next = self.bd_f.q.val();
            self.sack_loop.s_bd.next = self.rd_f.q.val();
        }
        // The segment's top below each b (its low bits), looked up (`TopLookup`).
        self.top_look_p3.s_table.next = self.top_tbl.q.val();
        self.top_look_p3.s_b.next = bit_cast::<16, 32>(self.b_p3.q.val()) & self.cfg_mask_lo.val();
        self.top_look_f.s_table.next = self.top_tbl.q.val();
        self.top_look_f.s_b.next = bit_cast::<16, 32>(self.b_f.q.val()) & self.cfg_mask_lo.val();
        self.top_s3.next = self.top_look_p3.m_top.val();
        if self.pipe.m_hit1.val() {
            self.top_s3.next = self.top_look_f.m_top.val();
        }
        self.sack_loop.s_top_any.next = self.top_s3.val().get_bit(15);
        self.sack_loop.s_top_idx.next = self.top_s3.val() & !self.cfg_ent_any.val();
        self.sack_loop.s_unsettled.next = true;
        self.sack_loop.s_una.next = 0.into();
        self.sack_loop.s_out.next = 0.into();
        self.sack_loop.s_found.next = 0.into();
        self.sack_loop.s_acked0.next = false;
        self.loss_loop.s_record.next = self.sack_loop.m_record.val();
        self.loss_loop.s_event.next = self.pipe.m_event.val();
        self.loss_loop.s_cwnd.next = self.win_line.q.val().get_bits::<32>(128);
        self.loss_loop.s_bdp_zero.next = self.bdp_line.q.val().get_bit(4);
        self.loss_loop.s_unsettled.next = true;
        self.loss_loop.s_acc.next = self.sack_loop.m_acc.val();
        self.loss_loop.s_sack_malformed.next = self.sack_loop.m_sack_malformed.val();
        self.loss_loop.s_ahead.next = self.sack_loop.m_ahead.val();
        self.loss_loop.s_una1.next = self.sack_loop.m_una1.val();
        self.loss_loop.s_out1.next = self.sack_loop.m_out1.val();
        self.loss_loop.s_acked1.next = self.sack_loop.m_acked1.val();
        self.loss_loop.s_h1v.next = self.sack_loop.m_h1v.val();
        self.loss_loop.s_h2v_u.next = self.sack_loop.m_h2v_u.val();
        self.loss_loop.s_h1b.next = self.sack_loop.m_h1b.val();
        self.loss_loop.s_acked_bytes.next = self.sack_loop.m_acked_bytes.val();
        self.loss_loop.s_moved0.next = self.sack_loop.m_moved0.val();
        self.pick_loop.s_record.next = self.loss_loop.m_record.val();
        self.pick_loop.s_tx_record.next = self.pipe.m_record.val();
        self.pick_loop.s_event.next = self.pipe.m_event.val();
        self.pick_loop.s_cwnd.next = self.win_line.q.val().get_bits::<32>(128);
        self.pick_loop.s_unsettled.next = true;
        self.pick_loop.s_holes.next = self.loss_loop.m_holes.val();
        self.pick_loop.s_hole_counts.next = 0.into();
        self.pick_loop.s_slot_rtx.next = self.loss_loop.m_slot_rtx.val();
        self.pick_loop.s_flags.next = self.loss_loop.m_flags.val();
        // Settled: the window test by the lost count, from registers (H3 made the count, the
        // thresholds and both outcomes), picks the retransmission's outcome.
        self.win_s3.s_thr.next = self.settled_thr_s3.q.val();
        self.win_s3.s_n.next = self.settled_n_s3.q.val();
        self.sel_rec.next = self.settled_rec_s3.q.val();
        self.sel_flags.next = self.settled_flags_s3.q.val();
        if self.win_s3.m_open.val() ^ self.cfg_retx_inverted.val() {
            self.sel_rec.next = self.settled_rec_r_s3.q.val();
            self.sel_flags.next = self.settled_flags_r_s3.q.val();
        }
        if self.unsettled.val() {
            self.sel_rec.next = self.pick_loop.m_next.val();
            self.sel_flags.next = self.pick_loop.m_flags.val();
        }
        self.tail.s_record.next = self.sel_rec.val();
        self.tail.s_backlog.next = self.pipe.m_record.val().get_bits::<32>(184);
        self.tail.s_kind.next = self.pipe.m_event.val().get_bits::<3>(0);
        self.tail.s_now.next = self.pipe.m_event.val().get_bits::<32>(3);
        self.tail.s_doorbell_bytes.next = self.pipe.m_event.val().get_bits::<32>(206);
        self.tail.s_cwnd.next = self.win_line.q.val().get_bits::<32>(128);
        self.tail.s_can_new.next = self.sel_flags.val().get_bit(11);
        self.tail.s_opened.next = self.sel_flags.val().get_bit(0);
        self.pipe.s_next.next = self.tail.m_next.val();
        // The offsets for the next event (now at H3) if it has this one's id: on the record
        // this event makes, whose snd_nxt is its head's, plus 1 with new data (both made, the
        // new packet picks).
        self.nxt_head.next = bit_cast::<32, 24>(self.sel_rec.val().get_bits::<24>(0));
        // `e` against `out` likewise: new data adds 1 to both.
        self.out_head.next = bit_cast::<16, D>(self.sel_rec.val() >> self.cfg_off_out.val())
            & self.cfg_mask_lo.val();
        self.e_head0.next = (bit_cast::<16, 32>(self.nxt_head.val())
            - bit_cast::<16, 32>(self.epsn_t.val()))
            & self.cfg_mask_lo.val();
        self.e_head1.next = (self.e_head0.val() + 1_usize.to_bits::<16>()) & self.cfg_mask_lo.val();
        self.eo_f.d.next = 0.into();
        self.eo_f.d.next = self
            .eo_f
            .d
            .val()
            .replace_bit(0, self.e_head0.val() < self.out_head.val());
        self.eo_f.d.next = self.eo_f.d.val().replace_bit(
            1,
            !self.e_head0.val().any() | (self.e_head0.val() <= self.out_head.val()),
        );
        self.b_head0.next = (bit_cast::<16, 32>(self.nxt_head.val())
            - bit_cast::<16, 32>(self.base_t.val()))
            & self.cfg_mask_lo.val();
        self.b_head1.next = (self.b_head0.val() + 1_usize.to_bits::<16>()) & self.cfg_mask_lo.val();
        self.out_head1.next = self.out_head.val() + 1_usize.to_bits::<16>();
        self.bo_f.d.next = bit_cast::<17, 16>(self.b_head0.val() - self.out_head.val());
        self.bo_f.d.next = self
            .bo_f
            .d
            .val()
            .replace_bit(16, self.b_head0.val() <= self.out_head.val());
        if self.tail.m_new.val() {
            self.bo_f.d.next = bit_cast::<17, 16>(self.b_head1.val() - self.out_head1.val());
            self.bo_f.d.next = self
                .bo_f
                .d
                .val()
                .replace_bit(16, self.b_head1.val() <= self.out_head1.val());
            self.eo_f.d.next = self
                .eo_f
                .d
                .val()
                .replace_bit(0, self.e_head1.val() < self.out_head1.val());
            self.eo_f.d.next = self.eo_f.d.val().replace_bit(
                1,
                !self.e_head1.val().any() | (self.e_head1.val() <= self.out_head1.val()),
            );
        }
        self.b_f.d.next = (self.nxt_head.val() - self.base_t.val()) & self.cfg_psn_mask.val();
        self.e_f.d.next = (self.nxt_head.val() - self.epsn_t.val()) & self.cfg_psn_mask.val();
        self.bd_f.d.next = self.sbytes_t.val() - self.sel_rec.val().get_bits::<32>(24);
        self.rd_f.d.next = self.sbytes_t.val() - self.sel_rec.val().get_bits::<32>(56);
        if self.tail.m_new.val() {
            self.b_f.d.next = (self.nxt_head.val() + 1_usize.to_bits::<32>() - self.base_t.val())
                & self.cfg_psn_mask.val();
            self.e_f.d.next = (self.nxt_head.val() + 1_usize.to_bits::<32>() - self.epsn_t.val())
                & self.cfg_psn_mask.val();
            self.bd_f.d.next = (self.sbytes_t.val() - self.tail.m_new_len.val())
                - self.sel_rec.val().get_bits::<32>(24);
        }
        self.repos_in.next = self.repos.q.val() << 1;
        self.repos_in.next = self.repos_in.val().replace_bit(
            0,
            self.pipe.m_write.val() & (self.sel_flags.val().get_bit(10) | self.tail.m_new.val()),
        );
        self.repos.d.next = self.repos_in.val();

        // ---- Output registers: every result zero unless an event with a good id completes.
        self.out_valid.d.next = self.pipe.m_valid.val();
        self.out_bad.d.next = self.pipe.m_valid.val() & self.pipe.m_bad.val();
        self.out_conn.d.next = 0.into();
        if self.pipe.m_valid.val() {
            self.out_conn.d.next = self.pipe.m_id.val();
        }
        self.out_opened.d.next = false;
        self.out_open_refused.d.next = false;
        self.out_sack_accepted.d.next = false;
        self.out_sack_malformed.d.next = false;
        self.out_acked_bytes.d.next = 0.into();
        self.out_doorbell_ok.d.next = false;
        self.out_doorbell_refused.d.next = false;
        self.out_tx_valid.d.next = false;
        self.out_tx_psn.d.next = 0.into();
        self.out_tx_len.d.next = 0.into();
        self.out_tx_kind.d.next = 0.into();
        self.out_tx_ack_req.d.next = false;
        self.out_loss_valid.d.next = false;
        self.out_loss_kind.d.next = 0.into();
        self.out_work.d.next = false;
        if self.pipe.m_write.val() {
            self.out_opened.d.next = self.sel_flags.val().get_bit(0);
            self.out_open_refused.d.next = self.sel_flags.val().get_bit(1);
            self.out_sack_accepted.d.next = self.sel_flags.val().get_bit(2);
            self.out_sack_malformed.d.next = self.sel_flags.val().get_bit(3);
            self.out_acked_bytes.d.next = self.sel_flags.val().get_bits::<32>(12);
            self.out_doorbell_ok.d.next = self.tail.m_doorbell_ok.val();
            self.out_doorbell_refused.d.next = self.tail.m_doorbell_refused.val();
            self.out_tx_valid.d.next = self.sel_flags.val().get_bit(4) | self.tail.m_new.val();
            self.out_tx_psn.d.next = self.sel_flags.val().get_bits::<32>(44);
            self.out_tx_len.d.next = self.sel_flags.val().get_bits::<32>(76);
            self.out_tx_kind.d.next = self.sel_flags.val().get_bits::<2>(5);
            if self.tail.m_new.val() {
                self.out_tx_psn.d.next = self.tail.m_new_psn.val();
                self.out_tx_len.d.next = self.tail.m_new_len.val();
                self.out_tx_kind.d.next = 0.into();
                self.out_tx_ack_req.d.next = self.tail.m_new_ack_req.val();
            }
            self.out_loss_valid.d.next = self.sel_flags.val().get_bit(7);
            self.out_loss_kind.d.next = self.sel_flags.val().get_bits::<2>(8);
            self.out_work.d.next = self.tail.m_work.val();
        }
        self.m_valid.next = self.out_valid.q.val();
        self.m_bad.next = self.out_bad.q.val();
        self.m_conn.next = self.out_conn.q.val();
        self.m_opened.next = self.out_opened.q.val();
        self.m_open_refused.next = self.out_open_refused.q.val();
        self.m_sack_accepted.next = self.out_sack_accepted.q.val();
        self.m_sack_malformed.next = self.out_sack_malformed.q.val();
        self.m_acked_bytes.next = self.out_acked_bytes.q.val();
        self.m_doorbell_ok.next = self.out_doorbell_ok.q.val();
        self.m_doorbell_refused.next = self.out_doorbell_refused.q.val();
        self.m_tx_valid.next = self.out_tx_valid.q.val();
        self.m_tx_psn.next = self.out_tx_psn.q.val();
        self.m_tx_len.next = self.out_tx_len.q.val();
        self.m_tx_kind.next = self.out_tx_kind.q.val();
        self.m_tx_ack_req.next = self.out_tx_ack_req.q.val();
        self.m_loss_valid.next = self.out_loss_valid.q.val();
        self.m_loss_kind.next = self.out_loss_kind.q.val();
        self.m_work.next = self.out_work.q.val();
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    /// The default design (1024 connections, window 256, 64-bit segments) passes the lint,
    /// Icarus and Yosys gate.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("nic_sender", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "nic_sender_default", false);
    }

    /// The smallest window and segment (16 and 8) and the co-sim's small size pass the same
    /// gate.
    #[test]
    fn gate_at_small_windows() {
        for (w, sb, name) in [(16, 8, "nic_sender_16"), (32, 8, "nic_sender_32")] {
            let mut cfg = Config::default();
            cfg.nic.connections = 4;
            cfg.sack.rx_window = w;
            cfg.sack.sack_bits = sb;
            cfg.cwnd_unit.max_cwnd_bytes = Some(8 * cfg.network.mtu_bytes);
            let b = generate("nic_sender", &cfg, &Options::default()).unwrap();
            crate::gate::check(&b, name, false);
        }
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut cfg = Config::default();
        cfg.sack.sack_bits = 512;
        let msg = generate("nic_sender", &cfg, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(msg.contains("nic_sender"), "{msg}");
    }
}
