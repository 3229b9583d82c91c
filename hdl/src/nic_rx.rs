//! The multi-connection NIC's receive side (`docs/blocks/nic_rx.md`): one SACK receiver per
//! connection, each a record in the context shell's RAM, one event (a data packet, a probe or
//! an open) per clock for any sequence of connection ids.
//!
//! ```text
//!  S0: open or packet ─► hold shell (S0 read, S1 RAM data, S2 newest record)
//!      (the open wins)     S2: the fills' PSN compares
//!  H1: the search's vector from the snapshot (`h_record`) ─► H2, H3: `FreeSearch` x 4
//!  H3: the loop's sums from `t_record` ─► S3: next-state function (the loop): selects only
//!                                                                               │ o1_*
//!  O1: the SACK's segment (lowest or EPSN), its bits from the bitmap ◄──────────┘
//!  O2: each bit judged (below EPSN / in the window) ─► output registers, counters ─► m_*
//! ```
//!
//! The head's search and every carry chain are out of the loop (`docs/blocks/nic_rx.md`,
//! "The next-state function (S3) and the search out of the loop").
//!
//! **The record** (`docs/blocks/nic_rx.md`, "Context record"): EPSN, the bitmap, bytes
//! received, the out-of-order base, the lowest PSN since the last SACK and the coalescing
//! count. The bitmap is kept by **lap parity**: slot `psn mod W` holds bit `log2 W` of the
//! last PSN written to it, and a PSN in `(EPSN, EPSN + W)` is held when its slot holds its
//! own lap bit. A packet writes one bit and nothing is ever cleared: when EPSN passes a PSN,
//! that PSN's slot becomes the slot of the PSN `W` later, whose lap bit differs, so it reads
//! "not held" without a write. EPSN's own slot never reads held.

use rust_hdl::prelude::*;

use crate::context_pipe_hold::{ContextPipeHold, COMPUTE_STAGE};
use crate::free_search::FreeSearch;
use crate::seq::PsnBelow;
use crate::Fault;

/// Event bits carried through the shell: open, malformed, probe, ack_req, ecn (bits 0..5),
/// PSN (5..29), len (29..61), entropy (61..93), ts (93..125).
pub const EVENT_BITS: usize = 125;

/// Latency: S0..S2, H1..H3, S3, O1, O2, and the output register.
pub const LATENCY: u32 = COMPUTE_STAGE + 3;

/// Record bits at window `w`: EPSN 24, bitmap `w`, bytes 32, out-of-order base `log2 w`, lowest
/// valid 1 and lowest 24, coalescing 32 (the layout `strack_config::context` documents).
pub const fn record_bits(w: usize) -> usize {
    24 + w + 32 + w.trailing_zeros() as usize + 1 + 24 + 32
}

/// The record a connection has with EPSN `epsn`, nothing held (the lap parity of every slot
/// set against the PSN it stands for in `[epsn, epsn + W)`, the out-of-order base equal to
/// EPSN mod W).
pub fn initial_record<const W: usize, const D: usize>(epsn: u32) -> Bits<D> {
    let l = W.trailing_zeros();
    let mut r = Bits::<D>::default();
    for k in 0..24 {
        r = r.replace_bit(k, (epsn >> k) & 1 == 1);
    }
    let low = (epsn as usize) & (W - 1);
    let lap = (epsn >> l) & 1 == 1;
    for s in 0..W {
        // The PSN of slot s in [epsn, epsn + W) has lap bit `lap` at or above EPSN's slot and
        // the next lap's below it; the slot holds the other value (not held).
        let psn_lap = if s >= low { lap } else { !lap };
        r = r.replace_bit(24 + s, !psn_lap);
    }
    // The out-of-order base: EPSN's slot bits (no PSN held beyond it).
    for k in 0..l as usize {
        r = r.replace_bit(24 + W + 32 + k, (epsn >> k) & 1 == 1);
    }
    r
}

#[derive(LogicBlock)]
pub struct NicRxRtl<const W: usize, const SB: usize, const L: usize, const D: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the events in S1, S2 and H1..H3 dropped, the counters cleared, every
    /// connection swept back to the initial record (`status_ready` low meanwhile).
    pub s_reset: Signal<In, Bit>,

    /// Open (or reopen) a connection: its receiver starts afresh with EPSN `s_open_psn`.
    pub s_open_valid: Signal<In, Bit>,
    /// Taken when the sweep is over and not on a reset cycle.
    pub s_open_ready: Signal<Out, Bit>,
    pub s_open_conn: Signal<In, Bits<16>>,
    /// The connection's first EPSN (wider than 24 bits: refused, verdict 7).
    pub s_open_psn: Signal<In, Bits<32>>,

    /// A data packet or probe arrives.
    pub s_pkt_valid: Signal<In, Bit>,
    /// Taken when the sweep is over, not on a reset cycle and no open is offered.
    pub s_pkt_ready: Signal<Out, Bit>,
    pub s_pkt_conn: Signal<In, Bits<16>>,
    /// PSN; wider than 24 bits is malformed.
    pub s_pkt_psn: Signal<In, Bits<32>>,
    /// Payload bytes; 0 or above the MTU is malformed for data.
    pub s_pkt_len: Signal<In, Bits<32>>,
    /// Echoed in the SACK.
    pub s_pkt_entropy: Signal<In, Bits<32>>,
    pub s_pkt_ecn: Signal<In, Bit>,
    /// Echoed in the SACK.
    pub s_pkt_ts: Signal<In, Bits<32>>,
    pub s_pkt_probe: Signal<In, Bit>,
    pub s_pkt_ack_req: Signal<In, Bit>,

    /// The event taken `LATENCY` cycles ago (all `m_*` 0 when none).
    pub m_valid: Signal<Out, Bit>,
    /// Its connection was out of range: nothing read or written; `m_valid` and `m_conn` set,
    /// every other `m_*` 0.
    pub m_bad: Signal<Out, Bit>,
    pub m_conn: Signal<Out, Bits<16>>,
    /// 0 in order, 1 out of order, 2 duplicate, 3 out of window, 4 probe, 5 malformed,
    /// 6 opened, 7 open refused.
    pub m_verdict: Signal<Out, Bits<3>>,
    /// Which SACK triggers fired.
    pub m_trig_coalesce: Signal<Out, Bit>,
    pub m_trig_head_fill: Signal<Out, Bit>,
    pub m_trig_probe: Signal<Out, Bit>,
    pub m_trig_ack_req: Signal<Out, Bit>,
    pub m_trig_ecn: Signal<Out, Bit>,
    /// A SACK is sent for the connection (every `m_sack_*` 0 otherwise).
    pub m_sack_valid: Signal<Out, Bit>,
    /// EPSN after the packet; the segment's first PSN.
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

    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,
    /// Counters of the events that came out on `m_*` since the last reset (wrapping).
    pub status_duplicates: Signal<Out, Bits<32>>,
    pub status_out_of_window: Signal<Out, Bits<32>>,
    /// Malformed packets and refused opens.
    pub status_malformed: Signal<Out, Bits<32>>,
    pub status_bad_conn: Signal<Out, Bits<32>>,

    cfg_mtu: Constant<Bits<32>>,
    cfg_coalesce: Constant<Bits<32>>,
    cfg_psn_mask: Constant<Bits<32>>,
    cfg_window: Constant<Bits<32>>,
    cfg_slot_mask: Constant<Bits<32>>,
    cfg_seg_mask: Constant<Bits<32>>,
    cfg_ones: Constant<Bits<W>>,
    cfg_one_w: Constant<Bits<W>>,
    /// Field offsets in the record.
    cfg_off_bytes: Constant<Bits<16>>,
    cfg_off_ooo: Constant<Bits<16>>,
    cfg_off_lv: Constant<Bits<16>>,
    cfg_off_low: Constant<Bits<16>>,
    cfg_off_coal: Constant<Bits<16>>,

    pipe: ContextPipeHold<D, EVENT_BITS>,

    // ---- H1: the search's vector from the snapshot (the record as the events 4 or more
    // ahead left it), and the fills of the events 3, 2, 1 ahead.
    h_psn: Signal<Local, Bits<32>>,
    h_slot: Signal<Local, Bits<16>>,
    h_epsn: Signal<Local, Bits<32>>,
    /// The snapshot's EPSN again, picked by the shell's own copy of the pick flag: the far
    /// test's select does not wait on the 377-bit select's net.
    h_fepsn: Signal<Local, Bits<32>>,
    h_eslot: Signal<Local, Bits<16>>,
    /// The two slots on `log2 W` bits, for their compare (Yosys keeps a wide compare's
    /// constant-zero bits in its carry chain).
    h_slot_l: Signal<Local, Bits<L>>,
    h_eslot_l: Signal<Local, Bits<L>>,
    /// The packet is `W` or more past the snapshot's EPSN: no slot of it is readable.
    h_far: Signal<Local, Bit>,
    h_hi: Signal<Local, Bits<32>>,
    /// The packet's bits above the slot bits, less W (made in S2 from the same event, so no
    /// carry chain stands in front of H1's compares).
    h_hi_m1: DFF<Bits<32>>,
    h_ehi: Signal<Local, Bits<32>>,
    h_slot_ge: Signal<Local, Bit>,
    /// An open of the connection among the events 1 to 3 ahead (taken, not refused): the
    /// snapshot is replaced by an empty record.
    h_empty: Signal<Local, Bit>,
    /// Slots below the packet's / below the snapshot EPSN's slot.
    h_ltp: Signal<Local, Bits<W>>,
    h_lte: Signal<Local, Bits<W>>,
    /// The lap bit of the PSN each slot stands for in the snapshot's window.
    h_lapr: Signal<Local, Bits<W>>,
    /// Slots that stand for the same PSN in the snapshot's window and in (psn, psn + W).
    h_same: Signal<Local, Bits<W>>,
    h_held: Signal<Local, Bits<W>>,
    /// The events 1, 2, 3 ahead: an open (taken), and the fill each would make (its PSN lies
    /// in (psn, psn + W) and no open of the connection came after it).
    a1_open: Signal<Local, Bit>,
    a2_open: Signal<Local, Bit>,
    a3_open: Signal<Local, Bit>,
    a1_ok: Signal<Local, Bit>,
    /// S2: the event's PSN; whether the PSNs of the events 1, 2, 3 ahead lie in
    /// `(psn, psn + W)` (made a stage early, so H1's fill decoders wait on no carry chain).
    g_psn: Signal<Local, Bits<32>>,
    g_off1: Signal<Local, Bits<32>>,
    g_off2: Signal<Local, Bits<32>>,
    g_off3: Signal<Local, Bits<32>>,
    r1_in1: DFF<Bit>,
    r1_in2: DFF<Bit>,
    r1_in3: DFF<Bit>,
    /// Nothing of the snapshot is readable: the packet `W` or more past its EPSN (`r2_far`),
    /// or an open among the events 1 to 3 ahead (`r2_empty`); registered apart and combined
    /// in H2 (`h2_z`), where it costs no level, so that H1 ends at the compares.
    r2_far: DFF<Bit>,
    r2_empty: DFF<Bit>,
    h2_z: Signal<Local, Bit>,
    /// The packet's own PSN held (what tells a duplicate from a new PSN), the same way: the
    /// snapshot's slot (readable when the packet is less than W past its EPSN), or a fill by
    /// one of the events 1 to 3 ahead at the very same PSN (`r1_eqK`: made in S2), each
    /// folded in once that event's hold flag is in a register.
    r1_eq1: DFF<Bit>,
    r1_eq2: DFF<Bit>,
    r1_eq3: DFF<Bit>,
    h_bm: Signal<Local, Bits<W>>,
    /// The bitmaps of the two records the snapshot is picked from, and the packet's own slot
    /// bit in each, picked after the two selects by the shell's own copy of the flag
    /// (`h_from_base`): no 256-to-1 select behind the snapshot's.
    h_bmb: Signal<Local, Bits<W>>,
    h_bmf: Signal<Local, Bits<W>>,
    h_own: Signal<Local, Bit>,
    /// The snapshot's slot holds the packet's lap bit (H1; whether it counts is H2's).
    r2_own: DFF<Bit>,
    r2_s1: DFF<Bit>,
    r2_s2: DFF<Bit>,
    r2_s3: DFF<Bit>,
    r3_sh: DFF<Bit>,
    r3_s1: DFF<Bit>,
    r3_s2: DFF<Bit>,
    r4_sh: DFF<Bit>,
    r4_s1: DFF<Bit>,
    a2_ok: Signal<Local, Bit>,
    a3_ok: Signal<Local, Bit>,
    /// The event in H1 as H2 and H3 see it (for the events behind it): open, PSN.
    q2_open: DFF<Bit>,
    q2_psn: DFF<Bits<32>>,
    q3_open: DFF<Bit>,
    q3_psn: DFF<Bits<32>>,
    q2_len: DFF<Bits<32>>,
    q3_len: DFF<Bits<32>>,
    /// `thr - len` (the coalescing threshold less the packet's length) and `len >= thr`: a
    /// sum `c + len` reaches the threshold when `c >= thr - len`, one compare.
    q3_k: DFF<Bits<32>>,
    q3_lge: DFF<Bit>,
    /// The event in H3 against the one ahead of it (in S3 then): `psn - psn_ahead`, and
    /// `psn` less the two values the one ahead's head may take above its slot bits.
    q3_d: DFF<Bits<32>>,
    q3_dh0: DFF<Bits<32>>,
    q3_dh1: DFF<Bits<32>>,
    r2_nr: DFF<Bits<W>>,
    r2_gt: DFF<Bits<W>>,
    /// One-hot slots of the fills of the events 3, 2, 1 ahead (zero where none can count).
    r2_f3: DFF<Bits<W>>,
    r2_f2: DFF<Bits<W>>,
    r2_f1: DFF<Bits<W>>,
    // ---- H2: the fill of the event 3 ahead applied (its flag is in `g_hold` now); four
    // variants for those of the events 2 and 1 ahead. H2 and H3 are `FreeSearch`.
    v0: Signal<Local, Bits<W>>,
    sr0: FreeSearch<W>,
    sr1: FreeSearch<W>,
    sr2: FreeSearch<W>,
    sr3: FreeSearch<W>,
    /// The hold flag ("a PSN newly held") of the event that left S3 one and two cycles ago.
    g_hold: DFF<Bit>,
    g_hold_d: DFF<Bit>,
    /// A head's new EPSN, out-of-order count and offset for the event behind, per variant.
    hv0: HeadVariant<L>,
    hv1: HeadVariant<L>,
    hv2: HeadVariant<L>,
    hv3: HeadVariant<L>,

    // ---- H3: the sums and compares the loop needs, prepared from the record the event
    // takes into S3 (`t_record`); the S3 of the event ahead prepares the same from its own new
    // record (`f_*`), and S3 takes those when `m_hit1`. `*_low_off`: PSN less the lowest;
    // `*_below`, `*_inwin`, `*_zero`: PSN against EPSN, as flags; `*_bytes`, `*_coal`: bytes and coalescing with the packet's length added (`*_coal`
    // saturating), `*_ge`: that reaches the threshold.
    t_epsn: Signal<Local, Bits<32>>,
    t_coal: Signal<Local, Bits<32>>,
    t_low: Signal<Local, Bits<32>>,
    t_sum: Signal<Local, Bits<33>>,
    /// The packet's PSN against EPSN, as flags (the loop tests no offset): below EPSN, inside
    /// the window (`PSN - EPSN < W`), at EPSN.
    b_below: DFF<Bit>,
    b_inwin: DFF<Bit>,
    b_zero: DFF<Bit>,
    h_off: Signal<Local, Bits<32>>,
    b_bytes: DFF<Bits<32>>,
    b_coal: DFF<Bits<32>>,
    b_ge: DFF<Bit>,
    b_low_off: DFF<Bits<32>>,
    /// The S3 event's PSN with its slot bits cleared, and that plus `W`: a head's new EPSN is
    /// one of them with the slot found in the slot bits.
    x_hi0: DFF<Bits<32>>,
    x_hi1: DFF<Bits<32>>,
    /// The same flags for the event behind, when this one moves EPSN (a head or an open);
    /// otherwise (`f_use_b`) its own H3 flags hold.
    f_use_b: DFF<Bit>,
    f_below: DFF<Bit>,
    f_inwin: DFF<Bit>,
    f_zero: DFF<Bit>,
    below_open: PsnBelow<1>,
    open_off: Signal<Local, Bits<32>>,
    f_bytes: DFF<Bits<32>>,
    f_coal: DFF<Bits<32>>,
    f_ge: DFF<Bit>,
    f_low_off: DFF<Bits<32>>,
    // S3: the prepared values in use; the head's new EPSN and out-of-order count.
    p_below: Signal<Local, Bit>,
    p_inwin: Signal<Local, Bit>,
    p_zero: Signal<Local, Bit>,
    p_bytes: Signal<Local, Bits<32>>,
    p_coal: Signal<Local, Bits<32>>,
    p_ge: Signal<Local, Bit>,
    p_low_off: Signal<Local, Bits<32>>,
    epsn_head: Signal<Local, Bits<32>>,
    /// The selected variant's flags for the event behind (`HeadVariant`).
    h_zero: Signal<Local, Bit>,
    h_inwin: Signal<Local, Bit>,
    h_below: Signal<Local, Bit>,
    // S3, for the event behind (in H3): its PSN, the sums from this event's record.
    y_psn: Signal<Local, Bits<32>>,
    y_sum_p: Signal<Local, Bits<33>>,
    y_sum_r: Signal<Local, Bits<33>>,

    // ---- S0
    take_open: Signal<Local, Bit>,
    ev: Signal<Local, Bits<EVENT_BITS>>,
    ev_malformed: Signal<Local, Bit>,

    // ---- S3: the event and the record, unpacked.
    e_open: Signal<Local, Bit>,
    e_malformed: Signal<Local, Bit>,
    e_probe: Signal<Local, Bit>,
    e_ack_req: Signal<Local, Bit>,
    e_ecn: Signal<Local, Bit>,
    e_psn: Signal<Local, Bits<32>>,
    r_epsn: Signal<Local, Bits<32>>,
    r_bm: Signal<Local, Bits<W>>,
    r_bytes: Signal<Local, Bits<32>>,
    r_ooo: Signal<Local, Bits<32>>,
    r_lv: Signal<Local, Bit>,
    r_low: Signal<Local, Bits<32>>,
    r_coal: Signal<Local, Bits<32>>,
    // Classification.
    below_epsn: PsnBelow<1>,
    below: Signal<Local, Bit>,
    slot: Signal<Local, Bits<16>>,
    lap: Signal<Local, Bit>,
    held_bit: Signal<Local, Bit>,
    data: Signal<Local, Bit>,
    oow: Signal<Local, Bit>,
    in_win: Signal<Local, Bit>,
    dup: Signal<Local, Bit>,
    head: Signal<Local, Bit>,
    hold: Signal<Local, Bit>,
    verdict: Signal<Local, Bits<3>>,
    /// The bitmap with the packet's slot written.
    bm1: Signal<Local, Bits<W>>,
    // The new fields.
    n_epsn: Signal<Local, Bits<32>>,
    n_bytes: Signal<Local, Bits<32>>,
    n_ooo: Signal<Local, Bits<L>>,
    n_lv: Signal<Local, Bit>,
    n_low: Signal<Local, Bits<32>>,
    n_coal: Signal<Local, Bits<32>>,
    below_lowest: PsnBelow<1>,
    t_coalesce: Signal<Local, Bit>,
    t_head_fill: Signal<Local, Bit>,
    ok: Signal<Local, Bit>,
    /// A data packet in the window or below EPSN (`ok` and not a probe): counts for
    /// coalescing and the lowest.
    in_play: Signal<Local, Bit>,
    /// The bitmap after the event (only a new PSN writes its slot).
    n_bm: Signal<Local, Bits<W>>,
    any: Signal<Local, Bit>,
    // An open's record.
    open_ge: Signal<Local, Bits<W>>,
    open_bm: Signal<Local, Bits<W>>,
    open_rec: Signal<Local, Bits<D>>,
    next: Signal<Local, Bits<D>>,

    // ---- S3 -> O1
    o1_valid: DFF<Bit>,
    o1_bad: DFF<Bit>,
    o1_conn: DFF<Bits<16>>,
    o1_verdict: DFF<Bits<3>>,
    o1_trig: DFF<Bits<5>>,
    /// What the counters count: duplicate, out of window, malformed (or a refused open).
    o1_count: DFF<Bits<3>>,
    o1_sack: DFF<Bit>,
    o1_epsn: DFF<Bits<32>>,
    o1_bm: DFF<Bits<W>>,
    o1_bytes: DFF<Bits<32>>,
    o1_ooo: DFF<Bits<32>>,
    o1_lv: DFF<Bit>,
    o1_low: DFF<Bits<32>>,
    o1_probe: DFF<Bit>,
    o1_ecn: DFF<Bit>,
    o1_entropy: DFF<Bits<32>>,
    o1_ts: DFF<Bits<32>>,
    // ---- O1: the segment.
    low_below_epsn: PsnBelow<1>,
    use_low: Signal<Local, Bit>,
    seg_base: Signal<Local, Bits<32>>,
    /// The segment's base less EPSN for either base (the lowest's, EPSN's), made beside the
    /// compare that picks the base.
    rel_low: Signal<Local, Bits<32>>,
    rel_epsn: Signal<Local, Bits<32>>,
    seg_raw: Signal<Local, Bits<SB>>,
    o2_valid: DFF<Bit>,
    o2_bad: DFF<Bit>,
    o2_conn: DFF<Bits<16>>,
    o2_verdict: DFF<Bits<3>>,
    o2_trig: DFF<Bits<5>>,
    o2_count: DFF<Bits<3>>,
    o2_sack: DFF<Bit>,
    o2_epsn: DFF<Bits<32>>,
    o2_base: DFF<Bits<32>>,
    o2_rel: DFF<Bits<32>>,
    /// The segment's slots, true where the slot holds the segment's lap bit.
    o2_recv: DFF<Bits<SB>>,
    o2_bytes: DFF<Bits<32>>,
    o2_ooo: DFF<Bits<32>>,
    o2_probe: DFF<Bit>,
    o2_ecn: DFF<Bit>,
    o2_entropy: DFF<Bits<32>>,
    o2_ts: DFF<Bits<32>>,
    // ---- O2: each bit of the segment judged.
    seg_below: PsnBelow<SB>,
    seg_bits: Signal<Local, Bits<SB>>,
    rel_i: Signal<Local, Bits<32>>,
    out_valid: DFF<Bit>,
    out_bad: DFF<Bit>,
    out_conn: DFF<Bits<16>>,
    out_verdict: DFF<Bits<3>>,
    out_trig: DFF<Bits<5>>,
    out_sack: DFF<Bit>,
    out_epsn: DFF<Bits<32>>,
    out_base: DFF<Bits<32>>,
    out_bitmap: DFF<Bits<SB>>,
    out_bytes: DFF<Bits<32>>,
    out_ooo: DFF<Bits<32>>,
    out_entropy: DFF<Bits<32>>,
    out_ecn: DFF<Bit>,
    out_ts: DFF<Bits<32>>,
    out_probe: DFF<Bit>,
    cnt_dup: DFF<Bits<32>>,
    cnt_oow: DFF<Bits<32>>,
    cnt_malformed: DFF<Bits<32>>,
    cnt_bad: DFF<Bits<32>>,
}

impl<const W: usize, const SB: usize, const L: usize, const D: usize> NicRxRtl<W, SB, L, D> {
    /// `conns` connections, all with EPSN `initial_psn` after a sweep; `fault`: a broken
    /// variant for the co-sim's self-test (the shell's forwarding off at one distance, the head
    /// variants' flags picked by the wrong wrap case, or one of the shell's flag copies stored
    /// with the wrong sense); the faults of other blocks are ignored.
    pub fn new(
        conns: u32,
        mtu: u32,
        coalesce: u32,
        initial_psn: u32,
        fault: Option<Fault>,
    ) -> Self {
        let no_forward = match fault {
            Some(Fault::ContextPipeNoForward(d)) => Some(d),
            _ => None,
        };
        let swap_wrap = fault == Some(Fault::NicRxHeadWrapSwapped);
        let pipe = ContextPipeHold::new(conns, initial_record::<W, D>(initial_psn), no_forward)
            .with_flag_copies_flipped(
                fault == Some(Fault::NicRxFromBaseFlipped),
                fault == Some(Fault::NicRxHit1CopyFlipped),
            );
        assert_eq!(1 << L, W);
        assert_eq!(D, record_bits(W));
        let mut ones = Bits::<W>::default();
        for i in 0..W {
            ones = ones.replace_bit(i, true);
        }
        let off_bytes = 24 + W;
        let off_ooo = off_bytes + 32;
        let off_lv = off_ooo + L;
        let c16 = |v: usize| Constant::new(bits::<16>(v as u64));
        let c32 = |v: u64| Constant::new(bits::<32>(v));
        NicRxRtl {
            clock: Default::default(),
            s_reset: Default::default(),
            s_open_valid: Default::default(),
            s_open_ready: Default::default(),
            s_open_conn: Default::default(),
            s_open_psn: Default::default(),
            s_pkt_valid: Default::default(),
            s_pkt_ready: Default::default(),
            s_pkt_conn: Default::default(),
            s_pkt_psn: Default::default(),
            s_pkt_len: Default::default(),
            s_pkt_entropy: Default::default(),
            s_pkt_ecn: Default::default(),
            s_pkt_ts: Default::default(),
            s_pkt_probe: Default::default(),
            s_pkt_ack_req: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_conn: Default::default(),
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
            status_ready: Default::default(),
            status_duplicates: Default::default(),
            status_out_of_window: Default::default(),
            status_malformed: Default::default(),
            status_bad_conn: Default::default(),
            cfg_mtu: c32(u64::from(mtu)),
            cfg_coalesce: c32(u64::from(coalesce)),
            cfg_psn_mask: c32((1 << 24) - 1),
            cfg_window: c32(W as u64),
            cfg_slot_mask: c32(W as u64 - 1),
            cfg_seg_mask: c32(((1 << 24) - 1) & !(SB as u64 - 1)),
            cfg_ones: Constant::new(ones),
            cfg_one_w: Constant::new(bits::<W>(1)),
            cfg_off_bytes: c16(off_bytes),
            cfg_off_ooo: c16(off_ooo),
            cfg_off_lv: c16(off_lv),
            cfg_off_low: c16(off_lv + 1),
            cfg_off_coal: c16(off_lv + 25),
            pipe,
            h_psn: Default::default(),
            h_slot: Default::default(),
            h_epsn: Default::default(),
            h_fepsn: Default::default(),
            h_eslot: Default::default(),
            h_slot_l: Default::default(),
            h_eslot_l: Default::default(),
            h_far: Default::default(),
            h_hi: Default::default(),
            h_hi_m1: Default::default(),
            h_ehi: Default::default(),
            h_slot_ge: Default::default(),
            h_empty: Default::default(),
            h_ltp: Default::default(),
            h_lte: Default::default(),
            h_lapr: Default::default(),
            h_same: Default::default(),
            h_held: Default::default(),
            a1_open: Default::default(),
            a2_open: Default::default(),
            a3_open: Default::default(),
            a1_ok: Default::default(),
            g_psn: Default::default(),
            g_off1: Default::default(),
            g_off2: Default::default(),
            g_off3: Default::default(),
            r1_in1: Default::default(),
            r1_in2: Default::default(),
            r1_in3: Default::default(),
            r2_far: Default::default(),
            r2_empty: Default::default(),
            h2_z: Default::default(),
            r1_eq1: Default::default(),
            r1_eq2: Default::default(),
            r1_eq3: Default::default(),
            h_bm: Default::default(),
            h_bmb: Default::default(),
            h_bmf: Default::default(),
            h_own: Default::default(),
            r2_own: Default::default(),
            r2_s1: Default::default(),
            r2_s2: Default::default(),
            r2_s3: Default::default(),
            r3_sh: Default::default(),
            r3_s1: Default::default(),
            r3_s2: Default::default(),
            r4_sh: Default::default(),
            r4_s1: Default::default(),
            a2_ok: Default::default(),
            a3_ok: Default::default(),
            q2_open: Default::default(),
            q2_psn: Default::default(),
            q3_open: Default::default(),
            q3_psn: Default::default(),
            q2_len: Default::default(),
            q3_len: Default::default(),
            q3_k: Default::default(),
            q3_lge: Default::default(),
            q3_d: Default::default(),
            q3_dh0: Default::default(),
            q3_dh1: Default::default(),
            r2_nr: Default::default(),
            r2_gt: Default::default(),
            r2_f3: Default::default(),
            r2_f2: Default::default(),
            r2_f1: Default::default(),
            v0: Default::default(),
            sr0: FreeSearch::new(),
            sr1: FreeSearch::new(),
            sr2: FreeSearch::new(),
            sr3: FreeSearch::new(),
            g_hold: Default::default(),
            g_hold_d: Default::default(),
            hv0: HeadVariant::new(swap_wrap),
            hv1: HeadVariant::new(swap_wrap),
            hv2: HeadVariant::new(swap_wrap),
            hv3: HeadVariant::new(swap_wrap),
            t_epsn: Default::default(),
            t_coal: Default::default(),
            t_low: Default::default(),
            t_sum: Default::default(),
            b_below: Default::default(),
            b_inwin: Default::default(),
            b_zero: Default::default(),
            h_off: Default::default(),
            b_bytes: Default::default(),
            b_coal: Default::default(),
            b_ge: Default::default(),
            b_low_off: Default::default(),
            x_hi0: Default::default(),
            x_hi1: Default::default(),
            f_use_b: Default::default(),
            f_below: Default::default(),
            f_inwin: Default::default(),
            f_zero: Default::default(),
            below_open: PsnBelow::new(false),
            open_off: Default::default(),
            f_bytes: Default::default(),
            f_coal: Default::default(),
            f_ge: Default::default(),
            f_low_off: Default::default(),
            p_below: Default::default(),
            p_inwin: Default::default(),
            p_zero: Default::default(),
            p_bytes: Default::default(),
            p_coal: Default::default(),
            p_ge: Default::default(),
            p_low_off: Default::default(),
            epsn_head: Default::default(),
            h_zero: Default::default(),
            h_inwin: Default::default(),
            h_below: Default::default(),
            y_psn: Default::default(),
            y_sum_p: Default::default(),
            y_sum_r: Default::default(),
            take_open: Default::default(),
            ev: Default::default(),
            ev_malformed: Default::default(),
            e_open: Default::default(),
            e_malformed: Default::default(),
            e_probe: Default::default(),
            e_ack_req: Default::default(),
            e_ecn: Default::default(),
            e_psn: Default::default(),
            r_epsn: Default::default(),
            r_bm: Default::default(),
            r_bytes: Default::default(),
            r_ooo: Default::default(),
            r_lv: Default::default(),
            r_low: Default::default(),
            r_coal: Default::default(),
            below_epsn: PsnBelow::new(false),
            below: Default::default(),
            slot: Default::default(),
            lap: Default::default(),
            held_bit: Default::default(),
            data: Default::default(),
            oow: Default::default(),
            in_win: Default::default(),
            dup: Default::default(),
            head: Default::default(),
            hold: Default::default(),
            verdict: Default::default(),
            bm1: Default::default(),
            n_epsn: Default::default(),
            n_bytes: Default::default(),
            n_ooo: Default::default(),
            n_lv: Default::default(),
            n_low: Default::default(),
            n_coal: Default::default(),
            below_lowest: PsnBelow::new(false),
            t_coalesce: Default::default(),
            t_head_fill: Default::default(),
            ok: Default::default(),
            in_play: Default::default(),
            n_bm: Default::default(),
            any: Default::default(),
            open_ge: Default::default(),
            open_bm: Default::default(),
            open_rec: Default::default(),
            next: Default::default(),
            o1_valid: Default::default(),
            o1_bad: Default::default(),
            o1_conn: Default::default(),
            o1_verdict: Default::default(),
            o1_trig: Default::default(),
            o1_count: Default::default(),
            o1_sack: Default::default(),
            o1_epsn: Default::default(),
            o1_bm: Default::default(),
            o1_bytes: Default::default(),
            o1_ooo: Default::default(),
            o1_lv: Default::default(),
            o1_low: Default::default(),
            o1_probe: Default::default(),
            o1_ecn: Default::default(),
            o1_entropy: Default::default(),
            o1_ts: Default::default(),
            low_below_epsn: PsnBelow::new(false),
            use_low: Default::default(),
            seg_base: Default::default(),
            rel_low: Default::default(),
            rel_epsn: Default::default(),
            seg_raw: Default::default(),
            o2_valid: Default::default(),
            o2_bad: Default::default(),
            o2_conn: Default::default(),
            o2_verdict: Default::default(),
            o2_trig: Default::default(),
            o2_count: Default::default(),
            o2_sack: Default::default(),
            o2_epsn: Default::default(),
            o2_base: Default::default(),
            o2_rel: Default::default(),
            o2_recv: Default::default(),
            o2_bytes: Default::default(),
            o2_ooo: Default::default(),
            o2_probe: Default::default(),
            o2_ecn: Default::default(),
            o2_entropy: Default::default(),
            o2_ts: Default::default(),
            seg_below: PsnBelow::new(false),
            seg_bits: Default::default(),
            rel_i: Default::default(),
            out_valid: Default::default(),
            out_bad: Default::default(),
            out_conn: Default::default(),
            out_verdict: Default::default(),
            out_trig: Default::default(),
            out_sack: Default::default(),
            out_epsn: Default::default(),
            out_base: Default::default(),
            out_bitmap: Default::default(),
            out_bytes: Default::default(),
            out_ooo: Default::default(),
            out_entropy: Default::default(),
            out_ecn: Default::default(),
            out_ts: Default::default(),
            out_probe: Default::default(),
            cnt_dup: Default::default(),
            cnt_oow: Default::default(),
            cnt_malformed: Default::default(),
            cnt_bad: Default::default(),
        }
    }
}

impl<const W: usize, const SB: usize, const L: usize, const D: usize> Logic
    for NicRxRtl<W, SB, L, D>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, q2_open, q2_psn, q3_open, q3_psn, q2_len, q3_len, q3_k, q3_lge, q3_d,
            q3_dh0, q3_dh1, r2_nr, r2_gt, r2_f3, r2_f2, r2_f1, g_hold, g_hold_d, h_hi_m1, b_below,
            b_inwin, b_zero, b_bytes, b_coal, b_ge, b_low_off, x_hi0, x_hi1, f_use_b, f_below,
            f_inwin, f_zero, f_bytes, f_coal, f_ge, f_low_off, r1_in1, r1_in2, r1_in3, r1_eq1,
            r1_eq2, r1_eq3, r2_far, r2_empty, r2_own, r2_s1, r2_s2, r2_s3, r3_sh, r3_s1, r3_s2,
            r4_sh, r4_s1
        );
        dff_setup!(
            self,
            clock,
            o1_valid,
            o1_bad,
            o1_conn,
            o1_verdict,
            o1_trig,
            o1_count,
            o1_sack,
            o1_epsn,
            o1_bm,
            o1_bytes,
            o1_ooo,
            o1_lv,
            o1_low,
            o1_probe,
            o1_ecn,
            o1_entropy,
            o1_ts,
            o2_valid,
            o2_bad,
            o2_conn,
            o2_verdict,
            o2_trig,
            o2_count,
            o2_sack,
            o2_epsn,
            o2_base,
            o2_rel,
            o2_recv,
            o2_bytes,
            o2_ooo,
            o2_probe,
            o2_ecn,
            o2_entropy,
            o2_ts,
            out_valid,
            out_bad,
            out_conn,
            out_verdict,
            out_trig,
            out_sack,
            out_epsn,
            out_base,
            out_bitmap,
            out_bytes,
            out_ooo,
            out_entropy,
            out_ecn,
            out_ts,
            out_probe,
            cnt_dup,
            cnt_oow,
            cnt_malformed,
            cnt_bad
        );
        self.pipe.clock.next = self.clock.val();
        self.pipe.s_reset.next = self.s_reset.val();
        self.status_ready.next = self.pipe.status_ready.val();

        // ---- S0: an open wins over a packet (DECISION, the model's `NicRx::handshakes`).
        self.s_open_ready.next = self.pipe.status_ready.val() & !self.s_reset.val();
        self.s_pkt_ready.next =
            self.pipe.status_ready.val() & !self.s_reset.val() & !self.s_open_valid.val();
        self.take_open.next = self.s_open_valid.val();
        self.pipe.s_valid.next = self.s_open_valid.val() | self.s_pkt_valid.val();
        self.pipe.s_id.next = self.s_pkt_conn.val();
        self.ev_malformed.next = (self.s_pkt_psn.val() > self.cfg_psn_mask.val())
            | (!self.s_pkt_probe.val()
                & (!self.s_pkt_len.val().any() | (self.s_pkt_len.val() > self.cfg_mtu.val())));
        self.ev.next = (bit_cast::<EVENT_BITS, 32>(self.s_pkt_psn.val() & self.cfg_psn_mask.val())
            << 5)
            | (bit_cast::<EVENT_BITS, 32>(self.s_pkt_len.val()) << 29)
            | (bit_cast::<EVENT_BITS, 32>(self.s_pkt_entropy.val()) << 61)
            | (bit_cast::<EVENT_BITS, 32>(self.s_pkt_ts.val()) << 93);
        self.ev.next = self.ev.val().replace_bit(1, self.ev_malformed.val());
        self.ev.next = self.ev.val().replace_bit(2, self.s_pkt_probe.val());
        self.ev.next = self.ev.val().replace_bit(3, self.s_pkt_ack_req.val());
        self.ev.next = self.ev.val().replace_bit(4, self.s_pkt_ecn.val());
        if self.take_open.val() {
            self.pipe.s_id.next = self.s_open_conn.val();
            self.ev.next =
                bit_cast::<EVENT_BITS, 32>(self.s_open_psn.val() & self.cfg_psn_mask.val()) << 5;
            self.ev.next = self.ev.val().replace_bit(0, true);
            self.ev.next = self
                .ev
                .val()
                .replace_bit(1, self.s_open_psn.val() > self.cfg_psn_mask.val());
        }
        self.pipe.s_event.next = self.ev.val();

        // ---- S2: the PSNs of the events 1, 2, 3 ahead (in H1, H2, H3) in (psn, psn + W)?
        self.g_psn.next = bit_cast::<32, 24>(self.pipe.g_event.val().get_bits::<24>(5));
        self.g_off1.next = (bit_cast::<32, 24>(self.pipe.h_event.val().get_bits::<24>(5))
            - self.g_psn.val())
            & self.cfg_psn_mask.val();
        self.g_off2.next = (self.q2_psn.q.val() - self.g_psn.val()) & self.cfg_psn_mask.val();
        self.g_off3.next = (self.q3_psn.q.val() - self.g_psn.val()) & self.cfg_psn_mask.val();
        self.r1_in1.d.next = self.g_off1.val().any() & (self.g_off1.val() < self.cfg_window.val());
        self.r1_in2.d.next = self.g_off2.val().any() & (self.g_off2.val() < self.cfg_window.val());
        self.r1_in3.d.next = self.g_off3.val().any() & (self.g_off3.val() < self.cfg_window.val());
        self.h_hi_m1.d.next = ((self.g_psn.val() & !self.cfg_slot_mask.val())
            - self.cfg_window.val())
            & self.cfg_psn_mask.val();
        self.r1_eq1.d.next = !self.g_off1.val().any();
        self.r1_eq2.d.next = !self.g_off2.val().any();
        self.r1_eq3.d.next = !self.g_off3.val().any();

        // ---- H1: the slots not held in (psn, psn + W] as the snapshot and the fills since
        // say (docs/blocks/nic_rx.md, "The search out of the loop"). A slot stands for PSN
        // q in [psn, psn + W) and, in the snapshot's window, for r in [e_s, e_s + W); it reads
        // held when q == r (same lap bits, the packet less than W past e_s) and the slot holds
        // that lap bit. The packet's own slot stands for psn + W: never held.
        self.h_psn.next = bit_cast::<32, 24>(self.pipe.h_event.val().get_bits::<24>(5));
        self.h_slot.next = bit_cast::<16, 32>(self.h_psn.val() & self.cfg_slot_mask.val());
        self.h_epsn.next = bit_cast::<32, 24>(self.pipe.h_record.val().get_bits::<24>(0));
        self.h_eslot.next = bit_cast::<16, 32>(self.h_epsn.val() & self.cfg_slot_mask.val());
        // (Without a carry chain after the snapshot's select: the PSNs' bits above the slot
        // bits equal, or the packet's one lap on, and the slots ordered accordingly. The
        // packet is never below the snapshot's EPSN where the answer is used.)
        self.h_hi.next = self.h_psn.val() & !self.cfg_slot_mask.val();
        self.h_fepsn.next = bit_cast::<32, 24>(self.pipe.h_fwd.val().get_bits::<24>(0));
        if self.pipe.h_from_base.val() {
            self.h_fepsn.next = bit_cast::<32, 24>(self.pipe.h_base.val().get_bits::<24>(0));
        }
        self.h_ehi.next = self.h_fepsn.val() & !self.cfg_slot_mask.val();
        self.h_slot_l.next = self.h_psn.val().get_bits::<L>(0);
        self.h_eslot_l.next = self.h_fepsn.val().get_bits::<L>(0);
        self.h_slot_ge.next = self.h_slot_l.val() >= self.h_eslot_l.val();
        self.h_far.next = !(((self.h_hi.val() == self.h_ehi.val()) & self.h_slot_ge.val())
            | ((self.h_hi_m1.q.val() == self.h_ehi.val()) & !self.h_slot_ge.val()));
        self.h_ltp.next = !(self.cfg_ones.val() << self.h_slot.val());
        self.h_lte.next = !(self.cfg_ones.val() << self.h_eslot.val());
        self.h_lapr.next = self.h_lte.val();
        if (self.h_epsn.val() & self.cfg_window.val()).any() {
            self.h_lapr.next = !self.h_lte.val();
        }
        self.h_same.next = !(self.h_ltp.val() ^ self.h_lte.val());
        if ((self.h_psn.val() ^ self.h_epsn.val()) & self.cfg_window.val()).any() {
            self.h_same.next = self.h_ltp.val() ^ self.h_lte.val();
        }
        // The events ahead: 1 in H2, 2 in H3, 3 in S3.
        self.a1_open.next = self.pipe.h_eq1.val() & self.q2_open.q.val();
        self.a2_open.next = self.pipe.h_eq2.val() & self.q3_open.q.val();
        self.a3_open.next = self.pipe.h_eq3.val()
            & self.pipe.m_event.val().get_bit(0)
            & !self.pipe.m_event.val().get_bit(1);
        self.h_empty.next = self.a1_open.val() | self.a2_open.val() | self.a3_open.val();
        self.h_bm.next = self.pipe.h_record.val().get_bits::<W>(24);
        self.h_held.next = !(self.h_bm.val() ^ self.h_lapr.val()) & self.h_same.val();
        self.r2_far.d.next = self.h_far.val();
        self.r2_empty.d.next = self.h_empty.val();
        self.h_bmb.next = self.pipe.h_base.val().get_bits::<W>(24);
        self.h_bmf.next = self.pipe.h_fwd.val().get_bits::<W>(24);
        self.h_own.next = self.h_bmf.val().get_bit(self.h_slot.val().index());
        if self.pipe.h_from_base.val() {
            self.h_own.next = self.h_bmb.val().get_bit(self.h_slot.val().index());
        }
        self.r2_own.d.next = self.h_own.val() == (self.h_psn.val() & self.cfg_window.val()).any();
        self.r2_s1.d.next = self.pipe.h_eq1.val() & self.r1_eq1.q.val();
        self.r2_s2.d.next = self.pipe.h_eq2.val() & !self.a1_open.val() & self.r1_eq2.q.val();
        self.r2_s3.d.next =
            self.pipe.h_eq3.val() & !self.a1_open.val() & !self.a2_open.val() & self.r1_eq3.q.val();
        // H2, H3: the hold flags of the events 3 and 2 ahead arrive (`g_hold`).
        self.h2_z.next = self.r2_far.q.val() | self.r2_empty.q.val();
        self.r3_sh.d.next =
            (self.r2_own.q.val() & !self.h2_z.val()) | (self.r2_s3.q.val() & self.g_hold.q.val());
        self.r3_s1.d.next = self.r2_s1.q.val();
        self.r3_s2.d.next = self.r2_s2.q.val();
        self.r4_sh.d.next = self.r3_sh.q.val() | (self.r3_s2.q.val() & self.g_hold.q.val());
        self.r4_s1.d.next = self.r3_s1.q.val();
        self.r2_nr.d.next = !self.h_held.val() | (self.cfg_one_w.val() << self.h_slot.val());
        self.r2_gt.d.next = (self.cfg_ones.val() << self.h_slot.val()) << 1;
        self.a1_ok.next = self.pipe.h_eq1.val() & self.r1_in1.q.val();
        self.a2_ok.next = self.pipe.h_eq2.val() & !self.a1_open.val() & self.r1_in2.q.val();
        self.a3_ok.next =
            self.pipe.h_eq3.val() & !self.a1_open.val() & !self.a2_open.val() & self.r1_in3.q.val();
        self.r2_f1.d.next = 0.into();
        self.r2_f2.d.next = 0.into();
        self.r2_f3.d.next = 0.into();
        if self.a1_ok.val() {
            self.r2_f1.d.next = self.cfg_one_w.val()
                << bit_cast::<16, 32>(self.q2_psn.q.val() & self.cfg_slot_mask.val());
        }
        if self.a2_ok.val() {
            self.r2_f2.d.next = self.cfg_one_w.val()
                << bit_cast::<16, 32>(self.q3_psn.q.val() & self.cfg_slot_mask.val());
        }
        if self.a3_ok.val() {
            self.r2_f3.d.next = self.cfg_one_w.val()
                << bit_cast::<16, 32>(
                    bit_cast::<32, 24>(self.pipe.m_event.val().get_bits::<24>(5))
                        & self.cfg_slot_mask.val(),
                );
        }
        self.q2_open.d.next =
            self.pipe.h_event.val().get_bit(0) & !self.pipe.h_event.val().get_bit(1);
        self.q2_psn.d.next = self.h_psn.val();
        self.q3_open.d.next = self.q2_open.q.val();
        self.q3_psn.d.next = self.q2_psn.q.val();
        self.q2_len.d.next = self.pipe.h_event.val().get_bits::<32>(29);
        self.q3_len.d.next = self.q2_len.q.val();
        self.q3_k.d.next = self.cfg_coalesce.val() - self.q2_len.q.val();
        self.q3_lge.d.next = self.q2_len.q.val() >= self.cfg_coalesce.val();
        // (The event in H2 against the one in H3, ahead of it.)
        self.q3_d.d.next = self.q2_psn.q.val() - self.q3_psn.q.val();
        self.q3_dh0.d.next =
            self.q2_psn.q.val() - (self.q3_psn.q.val() & !self.cfg_slot_mask.val());
        self.q3_dh1.d.next = self.q2_psn.q.val()
            - (self.q3_psn.q.val() & !self.cfg_slot_mask.val())
            - self.cfg_window.val();

        // ---- H3: the loop's sums and compares, from the record S3 takes if the event right
        // ahead is on another connection.
        self.y_psn.next = self.q3_psn.q.val();
        self.t_epsn.next = bit_cast::<32, 24>(self.pipe.t_record.val().get_bits::<24>(0));
        self.t_coal.next = self
            .pipe
            .t_record
            .val()
            .get_bits::<32>(self.cfg_off_coal.val().index());
        self.t_low.next = bit_cast::<32, 24>(
            self.pipe
                .t_record
                .val()
                .get_bits::<24>(self.cfg_off_low.val().index()),
        );
        self.h_off.next = (self.y_psn.val() - self.t_epsn.val()) & self.cfg_psn_mask.val();
        self.below_epsn.d.next = self.h_off.val();
        self.b_below.d.next = self.below_epsn.below.val().any();
        // Below W: no bit set above the slot bits.
        self.b_inwin.d.next =
            !(self.h_off.val() & self.cfg_psn_mask.val() & !self.cfg_slot_mask.val()).any();
        self.b_zero.d.next = !self.h_off.val().any();
        self.b_bytes.d.next = self
            .pipe
            .t_record
            .val()
            .get_bits::<32>(self.cfg_off_bytes.val().index())
            + self.q3_len.q.val();
        self.t_sum.next =
            bit_cast::<33, 32>(self.t_coal.val()) + bit_cast::<33, 32>(self.q3_len.q.val());
        self.b_coal.d.next = bit_cast::<32, 33>(self.t_sum.val());
        if self.t_sum.val().get_bit(32) {
            self.b_coal.d.next = 0xFFFF_FFFF_u64.into();
        }
        self.b_ge.d.next = self.q3_lge.q.val() | (self.t_coal.val() >= self.q3_k.q.val());
        self.b_low_off.d.next = self.y_psn.val() - self.t_low.val();
        self.x_hi0.d.next = self.y_psn.val() & !self.cfg_slot_mask.val();
        self.x_hi1.d.next = ((self.y_psn.val() & !self.cfg_slot_mask.val())
            + self.cfg_window.val())
            & self.cfg_psn_mask.val();

        // ---- H2: the fill of the event 3 ahead (its flag left S3 a cycle ago); variant k
        // with the fill of the event 2 ahead if bit 0 of k, of the event 1 ahead if bit 1.
        self.v0.next = self.r2_nr.q.val();
        if self.h2_z.val() {
            self.v0.next = self.cfg_ones.val();
        }
        if self.g_hold.q.val() {
            self.v0.next = self.v0.val() & !self.r2_f3.q.val();
        }
        self.sr0.clock.next = self.clock.val();
        self.sr1.clock.next = self.clock.val();
        self.sr2.clock.next = self.clock.val();
        self.sr3.clock.next = self.clock.val();
        self.sr0.s_vec.next = self.v0.val();
        self.sr1.s_vec.next = self.v0.val() & !self.r2_f2.q.val();
        self.sr2.s_vec.next = self.v0.val() & !self.r2_f1.q.val();
        self.sr3.s_vec.next = self.v0.val() & !self.r2_f2.q.val() & !self.r2_f1.q.val();
        self.sr0.s_gt.next = self.r2_gt.q.val();
        self.sr1.s_gt.next = self.r2_gt.q.val();
        self.sr2.s_gt.next = self.r2_gt.q.val();
        self.sr3.s_gt.next = self.r2_gt.q.val();

        // ---- S3: unpack.
        self.e_open.next = self.pipe.m_event.val().get_bit(0);
        self.e_malformed.next = self.pipe.m_event.val().get_bit(1);
        self.e_probe.next = self.pipe.m_event.val().get_bit(2);
        self.e_ack_req.next = self.pipe.m_event.val().get_bit(3);
        self.e_ecn.next = self.pipe.m_event.val().get_bit(4);
        self.e_psn.next = bit_cast::<32, 24>(self.pipe.m_event.val().get_bits::<24>(5));
        self.r_epsn.next = bit_cast::<32, 24>(self.pipe.m_record.val().get_bits::<24>(0));
        self.r_bm.next = self.pipe.m_record.val().get_bits::<W>(24);
        self.r_bytes.next = self
            .pipe
            .m_record
            .val()
            .get_bits::<32>(self.cfg_off_bytes.val().index());
        self.r_ooo.next = bit_cast::<32, L>(
            self.pipe
                .m_record
                .val()
                .get_bits::<L>(self.cfg_off_ooo.val().index()),
        );
        self.r_lv.next = self
            .pipe
            .m_record
            .val()
            .get_bit(self.cfg_off_lv.val().index());
        self.r_low.next = bit_cast::<32, 24>(
            self.pipe
                .m_record
                .val()
                .get_bits::<24>(self.cfg_off_low.val().index()),
        );
        self.r_coal.next = self
            .pipe
            .m_record
            .val()
            .get_bits::<32>(self.cfg_off_coal.val().index());

        // The prepared values: from the record S3 took at H3, or the event right ahead's new
        // one. Classify against EPSN and the bitmap (as the model's `SackReceiver`).
        self.p_below.next = self.b_below.q.val();
        self.p_inwin.next = self.b_inwin.q.val();
        self.p_zero.next = self.b_zero.q.val();
        self.p_bytes.next = self.b_bytes.q.val();
        self.p_coal.next = self.b_coal.q.val();
        self.p_ge.next = self.b_ge.q.val();
        self.p_low_off.next = self.b_low_off.q.val();
        // (The event right ahead's hold flag is in `g_hold` now.)
        self.held_bit.next = self.r4_sh.q.val() | (self.r4_s1.q.val() & self.g_hold.q.val());
        // (On the shell's own copy of the flag, not `m_hit1`: that net also picks the record.)
        if !self.pipe.m_hit1_n.val() & !self.f_use_b.q.val() {
            self.p_below.next = self.f_below.q.val();
            self.p_inwin.next = self.f_inwin.q.val();
            self.p_zero.next = self.f_zero.q.val();
        }
        if !self.pipe.m_hit1_n.val() {
            self.p_bytes.next = self.f_bytes.q.val();
            self.p_coal.next = self.f_coal.q.val();
            self.p_ge.next = self.f_ge.q.val();
            self.p_low_off.next = self.f_low_off.q.val();
        }
        self.below.next = self.p_below.val();
        self.slot.next = bit_cast::<16, 32>(self.e_psn.val() & self.cfg_slot_mask.val());
        // The lap bit is bit log2 W, the window's only bit.
        self.lap.next = (self.e_psn.val() & self.cfg_window.val()).any();
        self.data.next = !self.e_open.val() & !self.e_malformed.val() & !self.e_probe.val();
        self.in_win.next = self.p_inwin.val();
        self.oow.next = self.data.val() & !self.below.val() & !self.in_win.val();
        self.dup.next = self.data.val()
            & (self.below.val() | (self.in_win.val() & !self.p_zero.val() & self.held_bit.val()));
        self.head.next = self.data.val() & self.p_zero.val();
        self.hold.next = self.data.val()
            & !self.below.val()
            & self.in_win.val()
            & !self.p_zero.val()
            & !self.held_bit.val();
        self.verdict.next = 1.into();
        if self.e_open.val() {
            self.verdict.next = 6.into();
            if self.e_malformed.val() {
                self.verdict.next = 7.into();
            }
        } else if self.e_malformed.val() {
            self.verdict.next = 5.into();
        } else if self.e_probe.val() {
            self.verdict.next = 4.into();
        } else if self.oow.val() {
            self.verdict.next = 3.into();
        } else if self.dup.val() {
            self.verdict.next = 2.into();
        } else if self.head.val() {
            self.verdict.next = 0.into();
        }

        // The head's run: the variant the events 2 and 1 ahead chose (their hold flags, now in
        // registers). EPSN moves to the slot found, counted from the one after the packet's:
        // the packet's PSN with the slot bits replaced, plus W if the run wrapped. All of it
        // off the loop; only `head` selects it.
        self.hv0.s_found.next = self.sr0.m_slot.val();
        self.hv1.s_found.next = self.sr1.m_slot.val();
        self.hv2.s_found.next = self.sr2.m_slot.val();
        self.hv3.s_found.next = self.sr3.m_slot.val();
        self.hv0.s_wrap.next = self.sr0.m_wrap.val();
        self.hv1.s_wrap.next = self.sr1.m_wrap.val();
        self.hv2.s_wrap.next = self.sr2.m_wrap.val();
        self.hv3.s_wrap.next = self.sr3.m_wrap.val();
        self.hv0.s_hi0.next = self.x_hi0.q.val();
        self.hv1.s_hi0.next = self.x_hi0.q.val();
        self.hv2.s_hi0.next = self.x_hi0.q.val();
        self.hv3.s_hi0.next = self.x_hi0.q.val();
        self.hv0.s_hi1.next = self.x_hi1.q.val();
        self.hv1.s_hi1.next = self.x_hi1.q.val();
        self.hv2.s_hi1.next = self.x_hi1.q.val();
        self.hv3.s_hi1.next = self.x_hi1.q.val();
        self.hv0.s_dh0.next = self.q3_dh0.q.val();
        self.hv1.s_dh0.next = self.q3_dh0.q.val();
        self.hv2.s_dh0.next = self.q3_dh0.q.val();
        self.hv3.s_dh0.next = self.q3_dh0.q.val();
        self.hv0.s_dh1.next = self.q3_dh1.q.val();
        self.hv1.s_dh1.next = self.q3_dh1.q.val();
        self.hv2.s_dh1.next = self.q3_dh1.q.val();
        self.hv3.s_dh1.next = self.q3_dh1.q.val();
        self.epsn_head.next = self.hv0.m_epsn.val();
        self.h_zero.next = self.hv0.m_zero.val();
        self.h_inwin.next = self.hv0.m_inwin.val();
        self.h_below.next = self.hv0.m_below.val();
        if self.g_hold_d.q.val() & !self.g_hold.q.val() {
            self.epsn_head.next = self.hv1.m_epsn.val();
            self.h_zero.next = self.hv1.m_zero.val();
            self.h_inwin.next = self.hv1.m_inwin.val();
            self.h_below.next = self.hv1.m_below.val();
        }
        if !self.g_hold_d.q.val() & self.g_hold.q.val() {
            self.epsn_head.next = self.hv2.m_epsn.val();
            self.h_zero.next = self.hv2.m_zero.val();
            self.h_inwin.next = self.hv2.m_inwin.val();
            self.h_below.next = self.hv2.m_below.val();
        }
        if self.g_hold_d.q.val() & self.g_hold.q.val() {
            self.epsn_head.next = self.hv3.m_epsn.val();
            self.h_zero.next = self.hv3.m_zero.val();
            self.h_inwin.next = self.hv3.m_inwin.val();
            self.h_below.next = self.hv3.m_below.val();
        }
        self.g_hold.d.next = self.hold.val();
        self.g_hold_d.d.next = self.g_hold.q.val();
        // The bitmap with the packet's own slot written.
        self.bm1.next = self
            .r_bm
            .val()
            .replace_bit(self.slot.val().index(), self.lap.val());

        // The new fields.
        self.n_epsn.next = self.r_epsn.val();
        self.n_bytes.next = self.r_bytes.val();
        // The out-of-order base counts every new PSN, head or held: the count is the base less
        // EPSN (mod W), made after the loop.
        self.n_ooo.next = self.r_ooo.val().get_bits::<L>(0);
        if self.head.val() | self.hold.val() {
            self.n_ooo.next = self.r_ooo.val().get_bits::<L>(0) + 1;
            self.n_bytes.next = self.p_bytes.val();
        }
        if self.head.val() {
            self.n_epsn.next = self.epsn_head.val();
        }
        // Coalescing and the lowest PSN since the last SACK: every data packet in the window
        // or below EPSN (duplicates included).
        self.ok.next = !self.e_open.val() & !self.e_malformed.val() & !self.oow.val();
        self.in_play.next = self.ok.val() & !self.e_probe.val();
        self.below_lowest.d.next = self.p_low_off.val();
        self.n_coal.next = self.r_coal.val();
        self.n_lv.next = self.r_lv.val();
        self.n_low.next = self.r_low.val();
        if self.in_play.val() {
            self.n_coal.next = self.p_coal.val();
            self.n_lv.next = true;
            if !self.r_lv.val() | self.below_lowest.below.val().any() {
                self.n_low.next = self.e_psn.val();
            }
        }
        self.t_coalesce.next = self.in_play.val() & self.p_ge.val();
        // (Some PSN held beyond EPSN: the out-of-order base is not EPSN's slot bits.)
        self.t_head_fill.next = self.head.val()
            & ((self.r_ooo.val() ^ self.r_epsn.val()) & self.cfg_slot_mask.val()).any();
        self.any.next = self.ok.val()
            & (self.t_coalesce.val()
                | self.t_head_fill.val()
                | self.e_probe.val()
                | self.e_ack_req.val()
                | self.e_ecn.val());

        // ---- The event behind (in H3), if it is on this connection: the same prepared values
        // from this event's new record, each chosen among sums made from early values.
        // Its PSN against EPSN: its own H3 flags unless this event moves EPSN.
        self.open_off.next = self.q3_d.q.val() & self.cfg_psn_mask.val();
        self.below_open.d.next = self.open_off.val();
        self.f_use_b.d.next = !self.head.val() & !(self.e_open.val() & !self.e_malformed.val());
        self.f_below.d.next = self.h_below.val();
        self.f_inwin.d.next = self.h_inwin.val();
        self.f_zero.d.next = self.h_zero.val();
        if self.e_open.val() {
            self.f_below.d.next = self.below_open.below.val().any();
            self.f_inwin.d.next =
                !(self.open_off.val() & self.cfg_psn_mask.val() & !self.cfg_slot_mask.val()).any();
            self.f_zero.d.next = !self.open_off.val().any();
        }
        self.f_bytes.d.next = self.r_bytes.val() + self.q3_len.q.val();
        if self.head.val() | self.hold.val() {
            self.f_bytes.d.next = self.p_bytes.val() + self.q3_len.q.val();
        }
        self.y_sum_r.next =
            bit_cast::<33, 32>(self.r_coal.val()) + bit_cast::<33, 32>(self.q3_len.q.val());
        self.y_sum_p.next =
            bit_cast::<33, 32>(self.p_coal.val()) + bit_cast::<33, 32>(self.q3_len.q.val());
        self.f_coal.d.next = bit_cast::<32, 33>(self.y_sum_r.val());
        if self.y_sum_r.val().get_bit(32) {
            self.f_coal.d.next = 0xFFFF_FFFF_u64.into();
        }
        self.f_ge.d.next = self.q3_lge.q.val() | (self.r_coal.val() >= self.q3_k.q.val());
        if self.in_play.val() {
            self.f_coal.d.next = bit_cast::<32, 33>(self.y_sum_p.val());
            if self.y_sum_p.val().get_bit(32) {
                self.f_coal.d.next = 0xFFFF_FFFF_u64.into();
            }
            self.f_ge.d.next = self.q3_lge.q.val() | (self.p_coal.val() >= self.q3_k.q.val());
        }
        if self.any.val() {
            self.f_coal.d.next = self.q3_len.q.val();
            self.f_ge.d.next = self.q3_lge.q.val();
        }
        self.f_low_off.d.next = self.y_psn.val() - self.r_low.val();
        if self.in_play.val() & (!self.r_lv.val() | self.below_lowest.below.val().any()) {
            self.f_low_off.d.next = self.q3_d.q.val();
        }
        // An open leaves EPSN = its PSN, nothing held, the rest zero.
        if self.e_open.val() & !self.e_malformed.val() {
            self.f_bytes.d.next = self.q3_len.q.val();
            self.f_coal.d.next = self.q3_len.q.val();
            self.f_ge.d.next = self.q3_lge.q.val();
            self.f_low_off.d.next = self.y_psn.val();
        }

        // An open's record: EPSN, nothing held (`initial_record`), the rest zero.
        self.open_ge.next = self.cfg_ones.val() << self.slot.val();
        self.open_bm.next = self.open_ge.val();
        if self.lap.val() {
            self.open_bm.next = !self.open_ge.val();
        }
        self.open_rec.next = bit_cast::<D, 32>(self.e_psn.val())
            | (bit_cast::<D, W>(self.open_bm.val()) << 24)
            | (bit_cast::<D, 32>(self.e_psn.val() & self.cfg_slot_mask.val())
                << self.cfg_off_ooo.val());

        // The record after the event; when a SACK goes out, coalescing and the lowest start
        // again.
        // Every data packet in the window writes its slot's lap bit: the head and a held PSN
        // mark it, and a duplicate's slot already holds it (the write changes nothing). So
        // the write does not wait for the held bit, which the event right ahead can change.
        self.n_bm.next = self.r_bm.val();
        if self.data.val() & !self.below.val() & self.in_win.val() {
            self.n_bm.next = self.bm1.val();
        }
        self.next.next = bit_cast::<D, 32>(self.n_epsn.val())
            | (bit_cast::<D, W>(self.n_bm.val()) << 24)
            | (bit_cast::<D, 32>(self.n_bytes.val()) << self.cfg_off_bytes.val())
            | (bit_cast::<D, L>(self.n_ooo.val()) << self.cfg_off_ooo.val())
            | (bit_cast::<D, 32>(self.n_low.val() & self.cfg_psn_mask.val())
                << self.cfg_off_low.val());
        if !self.any.val() {
            self.next.next = self
                .next
                .val()
                .replace_bit(self.cfg_off_lv.val().index(), self.n_lv.val())
                | (bit_cast::<D, 32>(self.n_coal.val()) << self.cfg_off_coal.val());
        }
        if self.e_open.val() {
            self.next.next = self.open_rec.val();
            if self.e_malformed.val() {
                self.next.next = self.pipe.m_record.val();
            }
        }
        self.pipe.s_next.next = self.next.val();

        // ---- S3 -> O1 (the lowest and coalescing as they were before a SACK reset them).
        self.o1_valid.d.next = self.pipe.m_valid.val();
        self.o1_bad.d.next = self.pipe.m_bad.val();
        self.o1_conn.d.next = self.pipe.m_id.val();
        self.o1_verdict.d.next = self.verdict.val();
        self.o1_trig.d.next = 0.into();
        if self.ok.val() {
            self.o1_trig.d.next = self.o1_trig.d.val().replace_bit(0, self.t_coalesce.val());
            self.o1_trig.d.next = self.o1_trig.d.val().replace_bit(1, self.t_head_fill.val());
            self.o1_trig.d.next = self.o1_trig.d.val().replace_bit(2, self.e_probe.val());
            self.o1_trig.d.next = self.o1_trig.d.val().replace_bit(3, self.e_ack_req.val());
            self.o1_trig.d.next = self.o1_trig.d.val().replace_bit(4, self.e_ecn.val());
        }
        self.o1_count.d.next = 0.into();
        self.o1_count.d.next = self.o1_count.d.val().replace_bit(0, self.dup.val());
        self.o1_count.d.next = self.o1_count.d.val().replace_bit(1, self.oow.val());
        self.o1_count.d.next = self.o1_count.d.val().replace_bit(2, self.e_malformed.val());
        self.o1_sack.d.next = self.any.val();
        self.o1_epsn.d.next = self.n_epsn.val();
        self.o1_bm.d.next = self.n_bm.val();
        self.o1_bytes.d.next = self.n_bytes.val();
        self.o1_ooo.d.next = bit_cast::<32, L>(self.n_ooo.val());
        self.o1_lv.d.next = self.n_lv.val();
        self.o1_low.d.next = self.n_low.val();
        self.o1_probe.d.next = self.e_probe.val();
        self.o1_ecn.d.next = self.e_ecn.val();
        self.o1_entropy.d.next = self.pipe.m_event.val().get_bits::<32>(61);
        self.o1_ts.d.next = self.pipe.m_event.val().get_bits::<32>(93);
        if !self.pipe.m_write.val() {
            self.o1_verdict.d.next = 0.into();
            self.o1_trig.d.next = 0.into();
            self.o1_count.d.next = 0.into();
            self.o1_sack.d.next = false;
        }

        // ---- O1: the segment holding the lowest PSN since the last SACK, or EPSN's when that
        // PSN is below EPSN (or for a probe); its slots as the bitmap holds them.
        self.low_below_epsn.d.next = self.o1_low.q.val() - self.o1_epsn.q.val();
        self.use_low.next =
            self.o1_lv.q.val() & !self.o1_probe.q.val() & !self.low_below_epsn.below.val().any();
        self.seg_base.next = self.o1_epsn.q.val() & self.cfg_seg_mask.val();
        if self.use_low.val() {
            self.seg_base.next = self.o1_low.q.val() & self.cfg_seg_mask.val();
        }
        self.seg_raw.next = self
            .o1_bm
            .q
            .val()
            .get_bits::<SB>((self.seg_base.val() & self.cfg_slot_mask.val()).index());
        self.o2_valid.d.next = self.o1_valid.q.val();
        self.o2_bad.d.next = self.o1_bad.q.val();
        self.o2_conn.d.next = self.o1_conn.q.val();
        self.o2_verdict.d.next = self.o1_verdict.q.val();
        self.o2_trig.d.next = self.o1_trig.q.val();
        self.o2_count.d.next = self.o1_count.q.val();
        self.o2_sack.d.next = self.o1_sack.q.val();
        self.o2_epsn.d.next = self.o1_epsn.q.val();
        self.o2_base.d.next = self.seg_base.val();
        self.rel_low.next = ((self.o1_low.q.val() & self.cfg_seg_mask.val())
            - self.o1_epsn.q.val())
            & self.cfg_psn_mask.val();
        self.rel_epsn.next = ((self.o1_epsn.q.val() & self.cfg_seg_mask.val())
            - self.o1_epsn.q.val())
            & self.cfg_psn_mask.val();
        self.o2_rel.d.next = self.rel_epsn.val();
        if self.use_low.val() {
            self.o2_rel.d.next = self.rel_low.val();
        }
        // The segment lies in one lap (SB divides W): a slot holds a PSN of it when it holds
        // the segment's lap bit.
        self.o2_recv.d.next = !self.seg_raw.val();
        if (self.seg_base.val() & self.cfg_window.val()).any() {
            self.o2_recv.d.next = self.seg_raw.val();
        }
        self.o2_bytes.d.next = self.o1_bytes.q.val();
        self.o2_ooo.d.next =
            (self.o1_ooo.q.val() - self.o1_epsn.q.val()) & self.cfg_slot_mask.val();
        self.o2_probe.d.next = self.o1_probe.q.val();
        self.o2_ecn.d.next = self.o1_ecn.q.val();
        self.o2_entropy.d.next = self.o1_entropy.q.val();
        self.o2_ts.d.next = self.o1_ts.q.val();

        // ---- O2: bit i is PSN base + i: received when below EPSN, or in (EPSN, EPSN + W) and
        // held.
        self.seg_below.d.next = self.o2_rel.q.val();
        self.seg_bits.next = self.seg_below.below.val();
        for i in 0..SB {
            self.rel_i.next = (self.o2_rel.q.val() + i.to_bits::<32>()) & self.cfg_psn_mask.val();
            if self.rel_i.val().any()
                & (self.rel_i.val() < self.cfg_window.val())
                & self.o2_recv.q.val().get_bit(i)
            {
                self.seg_bits.next = self.seg_bits.val().replace_bit(i, true);
            }
        }
        self.out_valid.d.next = self.o2_valid.q.val();
        self.out_bad.d.next = self.o2_valid.q.val() & self.o2_bad.q.val();
        self.out_conn.d.next = 0.into();
        if self.o2_valid.q.val() {
            self.out_conn.d.next = self.o2_conn.q.val();
        }
        self.out_verdict.d.next = self.o2_verdict.q.val();
        self.out_trig.d.next = self.o2_trig.q.val();
        self.out_sack.d.next = self.o2_sack.q.val();
        self.out_epsn.d.next = 0.into();
        self.out_base.d.next = 0.into();
        self.out_bitmap.d.next = 0.into();
        self.out_bytes.d.next = 0.into();
        self.out_ooo.d.next = 0.into();
        self.out_entropy.d.next = 0.into();
        self.out_ecn.d.next = false;
        self.out_ts.d.next = 0.into();
        self.out_probe.d.next = false;
        if self.o2_sack.q.val() {
            self.out_epsn.d.next = self.o2_epsn.q.val();
            self.out_base.d.next = self.o2_base.q.val();
            self.out_bitmap.d.next = self.seg_bits.val();
            self.out_bytes.d.next = self.o2_bytes.q.val();
            self.out_ooo.d.next = self.o2_ooo.q.val();
            self.out_entropy.d.next = self.o2_entropy.q.val();
            self.out_ecn.d.next = self.o2_ecn.q.val();
            self.out_ts.d.next = self.o2_ts.q.val();
            self.out_probe.d.next = self.o2_probe.q.val();
        }
        // Counters, of what comes out; a reset clears them (the event coming out then
        // uncounted).
        self.cnt_dup.d.next = self.cnt_dup.q.val();
        self.cnt_oow.d.next = self.cnt_oow.q.val();
        self.cnt_malformed.d.next = self.cnt_malformed.q.val();
        self.cnt_bad.d.next = self.cnt_bad.q.val();
        if self.o2_valid.q.val() & self.o2_bad.q.val() {
            self.cnt_bad.d.next = self.cnt_bad.q.val() + 1;
        }
        if self.o2_valid.q.val() & !self.o2_bad.q.val() {
            if self.o2_count.q.val().get_bit(0) {
                self.cnt_dup.d.next = self.cnt_dup.q.val() + 1;
            }
            if self.o2_count.q.val().get_bit(1) {
                self.cnt_oow.d.next = self.cnt_oow.q.val() + 1;
            }
            if self.o2_count.q.val().get_bit(2) {
                self.cnt_malformed.d.next = self.cnt_malformed.q.val() + 1;
            }
        }
        if self.s_reset.val() {
            self.cnt_dup.d.next = 0.into();
            self.cnt_oow.d.next = 0.into();
            self.cnt_malformed.d.next = 0.into();
            self.cnt_bad.d.next = 0.into();
        }

        self.m_valid.next = self.out_valid.q.val();
        self.m_bad.next = self.out_bad.q.val();
        self.m_conn.next = self.out_conn.q.val();
        self.m_verdict.next = self.out_verdict.q.val();
        self.m_trig_coalesce.next = self.out_trig.q.val().get_bit(0);
        self.m_trig_head_fill.next = self.out_trig.q.val().get_bit(1);
        self.m_trig_probe.next = self.out_trig.q.val().get_bit(2);
        self.m_trig_ack_req.next = self.out_trig.q.val().get_bit(3);
        self.m_trig_ecn.next = self.out_trig.q.val().get_bit(4);
        self.m_sack_valid.next = self.out_sack.q.val();
        self.m_sack_epsn.next = self.out_epsn.q.val();
        self.m_sack_base.next = self.out_base.q.val();
        self.m_sack_bitmap.next = self.out_bitmap.q.val();
        self.m_sack_bytes_recvd.next = self.out_bytes.q.val();
        self.m_sack_ooo_count.next = self.out_ooo.q.val();
        self.m_sack_entropy.next = self.out_entropy.q.val();
        self.m_sack_ecn.next = self.out_ecn.q.val();
        self.m_sack_ts.next = self.out_ts.q.val();
        self.m_sack_probe.next = self.out_probe.q.val();
        self.status_duplicates.next = self.cnt_dup.q.val();
        self.status_out_of_window.next = self.cnt_oow.q.val();
        self.status_malformed.next = self.cnt_malformed.q.val();
        self.status_bad_conn.next = self.cnt_bad.q.val();
    }
}

/// What a head makes of one variant's slot found (all of it from registers, so the loop only
/// selects among the four): EPSN is the packet's PSN with the slot bits replaced by the slot
/// found, plus W if the run wrapped past slot W - 1; and PSN less that EPSN for the event
/// behind, from its `psn - hi0` and `psn - hi1`.
#[derive(LogicBlock)]
pub struct HeadVariant<const L: usize> {
    pub s_found: Signal<In, Bits<16>>,
    /// The slot found is at or below the packet's (from the search, not a compare here).
    pub s_wrap: Signal<In, Bit>,
    /// The packet's PSN with the slot bits cleared, and that plus W.
    pub s_hi0: Signal<In, Bits<32>>,
    pub s_hi1: Signal<In, Bits<32>>,
    /// The event behind: its PSN less `s_hi0`, less `s_hi1`.
    pub s_dh0: Signal<In, Bits<32>>,
    pub s_dh1: Signal<In, Bits<32>>,
    pub m_epsn: Signal<Out, Bits<32>>,
    /// The event behind's PSN against the new EPSN (`off`, its PSN less EPSN mod 2^24): at
    /// EPSN (`off` 0), inside the window (`off` below W), below EPSN (`off` bit 23).
    pub m_zero: Signal<Out, Bit>,
    pub m_inwin: Signal<Out, Bit>,
    pub m_below: Signal<Out, Bit>,
    /// PSN bits 23..log2 W, bits 22..log2 W, and W.
    cfg_hi_mask: Constant<Bits<32>>,
    cfg_mid_mask: Constant<Bits<32>>,
    cfg_window: Constant<Bits<32>>,
    c_b23: Constant<Bits<32>>,
    /// Picks the flags by the wrong wrap case (a broken variant; false in every real design).
    cfg_swap: Constant<Bit>,
    found: Signal<Local, Bits<L>>,
    /// The flags for either value of `s_wrap` (`dh` = `s_dh0` or `s_dh1`), made side by side
    /// and picked by it last: the compares on the slot found wait for no select.
    f0: HeadFlags<L>,
    f1: HeadFlags<L>,
}

impl<const L: usize> HeadVariant<L> {
    /// For a window of `2^L` slots (at most 2^23); `swap_wrap`: the flags picked by the wrong
    /// wrap case (a broken variant for the co-sim's self-test).
    pub fn new(swap_wrap: bool) -> Self {
        let w = 1u64 << L;
        let psn = (1u64 << 24) - 1;
        HeadVariant {
            s_found: Default::default(),
            s_wrap: Default::default(),
            s_hi0: Default::default(),
            s_hi1: Default::default(),
            s_dh0: Default::default(),
            s_dh1: Default::default(),
            m_epsn: Default::default(),
            m_zero: Default::default(),
            m_inwin: Default::default(),
            m_below: Default::default(),
            cfg_hi_mask: Constant::new(bits(psn & !(w - 1))),
            cfg_mid_mask: Constant::new(bits((psn >> 1) & !(w - 1))),
            cfg_window: Constant::new(bits(w)),
            c_b23: Constant::new(bits(1 << 23)),
            cfg_swap: Constant::new(swap_wrap),
            found: Default::default(),
            f0: Default::default(),
            f1: Default::default(),
        }
    }
}

impl<const L: usize> Default for HeadVariant<L> {
    fn default() -> Self {
        Self::new(false)
    }
}

impl<const L: usize> Logic for HeadVariant<L> {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_epsn.next = self.s_hi0.val() | bit_cast::<32, 16>(self.s_found.val());
        if self.s_wrap.val() {
            self.m_epsn.next = self.s_hi1.val() | bit_cast::<32, 16>(self.s_found.val());
        }
        self.found.next = self.s_found.val().get_bits::<L>(0);
        self.f0.s_found.next = self.found.val();
        self.f1.s_found.next = self.found.val();
        self.f0.s_lo.next = self.s_dh0.val().get_bits::<L>(0);
        self.f1.s_lo.next = self.s_dh1.val().get_bits::<L>(0);
        self.f0.s_hi.next = self.s_dh0.val() & self.cfg_hi_mask.val();
        self.f1.s_hi.next = self.s_dh1.val() & self.cfg_hi_mask.val();
        self.f0.s_hi_win.next = self.f0.s_hi.val() == self.cfg_window.val();
        self.f1.s_hi_win.next = self.f1.s_hi.val() == self.cfg_window.val();
        self.f0.s_b23.next = (self.s_dh0.val() & self.c_b23.val()).any();
        self.f1.s_b23.next = (self.s_dh1.val() & self.c_b23.val()).any();
        self.f0.s_mid.next = (self.s_dh0.val() & self.cfg_mid_mask.val()).any();
        self.f1.s_mid.next = (self.s_dh1.val() & self.cfg_mid_mask.val()).any();
        self.m_zero.next = self.f0.m_zero.val();
        self.m_inwin.next = self.f0.m_inwin.val();
        self.m_below.next = self.f0.m_below.val();
        if self.s_wrap.val() ^ self.cfg_swap.val() {
            self.m_zero.next = self.f1.m_zero.val();
            self.m_inwin.next = self.f1.m_inwin.val();
            self.m_below.next = self.f1.m_below.val();
        }
    }
}

/// [`HeadVariant`]'s flags for one `dh`: `off = dh - found` (found below W) without the
/// subtraction. Its bits from log2 W up are dh's, less one when dh's slot bits are below
/// found's (a borrow); so the flags are an `L`-bit compare of slot bits and tests of dh's
/// bits, all from registers but the slot found.
#[derive(LogicBlock, Default)]
pub struct HeadFlags<const L: usize> {
    pub s_found: Signal<In, Bits<L>>,
    /// `dh`'s slot bits.
    pub s_lo: Signal<In, Bits<L>>,
    /// `dh`'s bits 23..log2 W, whether they equal W, whether bit 23 is set, whether any of
    /// bits 22..log2 W is.
    pub s_hi: Signal<In, Bits<32>>,
    pub s_hi_win: Signal<In, Bit>,
    pub s_b23: Signal<In, Bit>,
    pub s_mid: Signal<In, Bit>,
    pub m_zero: Signal<Out, Bit>,
    pub m_inwin: Signal<Out, Bit>,
    pub m_below: Signal<Out, Bit>,
    ge: Signal<Local, Bit>,
}

impl<const L: usize> Logic for HeadFlags<L> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ge.next = self.s_lo.val() >= self.s_found.val();
        self.m_zero.next = (self.s_lo.val() == self.s_found.val()) & !self.s_hi.val().any();
        self.m_inwin.next = self.s_hi_win.val();
        self.m_below.next = self.s_b23.val() ^ !self.s_mid.val();
        if self.ge.val() {
            self.m_inwin.next = !self.s_hi.val().any();
            self.m_below.next = self.s_b23.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    /// The default design and a small one pass the lint, Icarus and Yosys gate.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("nic_rx", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "nic_rx_default", false);
    }

    #[test]
    fn the_record_is_the_documented_layout() {
        let cfg = Config::default();
        let layout = cfg.nic_context();
        let rx = layout.bits(strack_config::context::Side::Receive);
        assert_eq!(rx as usize, super::record_bits(cfg.sack.rx_window as usize));
    }

    #[test]
    fn illegal_initial_psn_is_refused_naming_the_block() {
        let e = generate(
            "nic_rx",
            &Config::default(),
            &Options {
                initial_psn: 1 << 24,
                ..Options::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("nic_rx: initial PSN"), "{e}");
    }
}
