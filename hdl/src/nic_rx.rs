//! The multi-connection NIC's receive side (`docs/blocks/nic_rx.md`): one SACK receiver per
//! connection, each a record in the context shell's RAM, one event (a data packet, a probe or
//! an open) per clock for any sequence of connection ids.
//!
//! ```text
//!  S0: open or packet ─► shell (S0 read, S1 RAM data, S2 newest record) ─► S3: next-state
//!      (the open wins)                                                      function (the loop)
//!                                                                               │ o1_*
//!  O1: the SACK's segment (lowest or EPSN), its bits from the bitmap ◄──────────┘
//!  O2: each bit judged (below EPSN / in the window) ─► output registers, counters ─► m_*
//! ```
//!
//! **The record** (`docs/blocks/nic_rx.md`, "Context record"): EPSN, the bitmap, bytes
//! received, the out-of-order count, the lowest PSN since the last SACK and the coalescing
//! count. The bitmap is kept by **lap parity**: slot `psn mod W` holds bit `log2 W` of the
//! last PSN written to it, and a PSN in `(EPSN, EPSN + W)` is held when its slot holds its
//! own lap bit. A packet writes one bit and nothing is ever cleared: when EPSN passes a PSN,
//! that PSN's slot becomes the slot of the PSN `W` later, whose lap bit differs, so it reads
//! "not held" without a write. EPSN's own slot never reads held.

use rust_hdl::prelude::*;

use crate::context_pipe::{ContextPipe, COMPUTE_STAGE};
use crate::seq::PsnBelow;

/// Event bits carried through the shell: open, malformed, probe, ack_req, ecn (bits 0..5),
/// PSN (5..29), len (29..61), entropy (61..93), ts (93..125).
pub const EVENT_BITS: usize = 125;

/// Latency: S0..S3, O1, O2, and the output register.
pub const LATENCY: u32 = COMPUTE_STAGE + 3;

/// Record bits at window `w`: EPSN 24, bitmap `w`, bytes 32, out-of-order count `log2 w`, lowest
/// valid 1 and lowest 24, coalescing 32 (the layout `strack_config::context` documents).
pub const fn record_bits(w: usize) -> usize {
    24 + w + 32 + w.trailing_zeros() as usize + 1 + 24 + 32
}

/// The record a connection has with EPSN `epsn`, nothing held (the lap parity of every slot
/// set against the PSN it stands for in `[epsn, epsn + W)`).
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
    r
}

#[derive(LogicBlock)]
pub struct NicRxRtl<const W: usize, const SB: usize, const L: usize, const D: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the events in S1 and S2 dropped, the counters cleared, every
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
    /// Bit `k` of a one-hot slot's index: the OR of the slots with bit `k` set.
    cfg_sel0: Constant<Bits<W>>,
    cfg_sel1: Constant<Bits<W>>,
    cfg_sel2: Constant<Bits<W>>,
    cfg_sel3: Constant<Bits<W>>,
    cfg_sel4: Constant<Bits<W>>,
    cfg_sel5: Constant<Bits<W>>,
    cfg_sel6: Constant<Bits<W>>,
    cfg_sel7: Constant<Bits<W>>,
    cfg_sel8: Constant<Bits<W>>,
    cfg_sel9: Constant<Bits<W>>,
    cfg_sel10: Constant<Bits<W>>,
    cfg_sel11: Constant<Bits<W>>,
    /// Field offsets in the record.
    cfg_off_bytes: Constant<Bits<16>>,
    cfg_off_ooo: Constant<Bits<16>>,
    cfg_off_lv: Constant<Bits<16>>,
    cfg_off_low: Constant<Bits<16>>,
    cfg_off_coal: Constant<Bits<16>>,

    pipe: ContextPipe<D, EVENT_BITS>,

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
    e_len: Signal<Local, Bits<32>>,
    r_epsn: Signal<Local, Bits<32>>,
    r_bm: Signal<Local, Bits<W>>,
    r_bytes: Signal<Local, Bits<32>>,
    r_ooo: Signal<Local, Bits<32>>,
    r_lv: Signal<Local, Bit>,
    r_low: Signal<Local, Bits<32>>,
    r_coal: Signal<Local, Bits<32>>,
    // Classification.
    psn_off: Signal<Local, Bits<32>>,
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
    // The head's run: the first slot after the packet's (cyclically) whose PSN is not held.
    bm1: Signal<Local, Bits<W>>,
    gt: Signal<Local, Bits<W>>,
    nr: Signal<Local, Bits<W>>,
    nr_hi: Signal<Local, Bits<W>>,
    nr_x: Signal<Local, Bits<W>>,
    first: Signal<Local, Bits<W>>,
    first_idx: Signal<Local, Bits<16>>,
    adv: Signal<Local, Bits<32>>,
    // The new fields.
    n_epsn: Signal<Local, Bits<32>>,
    n_bytes: Signal<Local, Bits<32>>,
    n_ooo: Signal<Local, Bits<32>>,
    n_lv: Signal<Local, Bit>,
    n_low: Signal<Local, Bits<32>>,
    n_coal: Signal<Local, Bits<32>>,
    coal_sum: Signal<Local, Bits<33>>,
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
    /// `conns` connections, all with EPSN `initial_psn` after a sweep; `no_forward`: the
    /// shell's forwarding distance to switch off (the co-sim's broken variants only).
    pub fn new(
        conns: u32,
        mtu: u32,
        coalesce: u32,
        initial_psn: u32,
        no_forward: Option<u32>,
    ) -> Self {
        assert_eq!(1 << L, W);
        assert_eq!(D, record_bits(W));
        let sel = |k: usize| {
            let mut m = Bits::<W>::default();
            for i in (0..W).filter(|i| (i >> k) & 1 == 1) {
                m = m.replace_bit(i, true);
            }
            m
        };
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
            cfg_sel0: Constant::new(sel(0)),
            cfg_sel1: Constant::new(sel(1)),
            cfg_sel2: Constant::new(sel(2)),
            cfg_sel3: Constant::new(sel(3)),
            cfg_sel4: Constant::new(sel(4)),
            cfg_sel5: Constant::new(sel(5)),
            cfg_sel6: Constant::new(sel(6)),
            cfg_sel7: Constant::new(sel(7)),
            cfg_sel8: Constant::new(sel(8)),
            cfg_sel9: Constant::new(sel(9)),
            cfg_sel10: Constant::new(sel(10)),
            cfg_sel11: Constant::new(sel(11)),
            cfg_off_bytes: c16(off_bytes),
            cfg_off_ooo: c16(off_ooo),
            cfg_off_lv: c16(off_lv),
            cfg_off_low: c16(off_lv + 1),
            cfg_off_coal: c16(off_lv + 25),
            pipe: ContextPipe::new(conns, initial_record::<W, D>(initial_psn), no_forward),
            take_open: Default::default(),
            ev: Default::default(),
            ev_malformed: Default::default(),
            e_open: Default::default(),
            e_malformed: Default::default(),
            e_probe: Default::default(),
            e_ack_req: Default::default(),
            e_ecn: Default::default(),
            e_psn: Default::default(),
            e_len: Default::default(),
            r_epsn: Default::default(),
            r_bm: Default::default(),
            r_bytes: Default::default(),
            r_ooo: Default::default(),
            r_lv: Default::default(),
            r_low: Default::default(),
            r_coal: Default::default(),
            psn_off: Default::default(),
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
            gt: Default::default(),
            nr: Default::default(),
            nr_hi: Default::default(),
            nr_x: Default::default(),
            first: Default::default(),
            first_idx: Default::default(),
            adv: Default::default(),
            n_epsn: Default::default(),
            n_bytes: Default::default(),
            n_ooo: Default::default(),
            n_lv: Default::default(),
            n_low: Default::default(),
            n_coal: Default::default(),
            coal_sum: Default::default(),
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

        // ---- S3: unpack.
        self.e_open.next = self.pipe.m_event.val().get_bit(0);
        self.e_malformed.next = self.pipe.m_event.val().get_bit(1);
        self.e_probe.next = self.pipe.m_event.val().get_bit(2);
        self.e_ack_req.next = self.pipe.m_event.val().get_bit(3);
        self.e_ecn.next = self.pipe.m_event.val().get_bit(4);
        self.e_psn.next = bit_cast::<32, 24>(self.pipe.m_event.val().get_bits::<24>(5));
        self.e_len.next = self.pipe.m_event.val().get_bits::<32>(29);
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

        // Classify against EPSN and the bitmap (as `sack_receiver`).
        self.psn_off.next = (self.e_psn.val() - self.r_epsn.val()) & self.cfg_psn_mask.val();
        self.below_epsn.d.next = self.psn_off.val();
        self.below.next = self.below_epsn.below.val().any();
        self.slot.next = bit_cast::<16, 32>(self.e_psn.val() & self.cfg_slot_mask.val());
        // The lap bit is bit log2 W, the window's only bit.
        self.lap.next = (self.e_psn.val() & self.cfg_window.val()).any();
        self.held_bit.next = self.r_bm.val().get_bit(self.slot.val().index()) == self.lap.val();
        self.data.next = !self.e_open.val() & !self.e_malformed.val() & !self.e_probe.val();
        self.in_win.next = self.psn_off.val() < self.cfg_window.val();
        self.oow.next = self.data.val() & !self.below.val() & !self.in_win.val();
        self.dup.next = self.data.val()
            & (self.below.val()
                | (self.in_win.val() & self.psn_off.val().any() & self.held_bit.val()));
        self.head.next = self.data.val() & !self.psn_off.val().any();
        self.hold.next = self.data.val()
            & !self.below.val()
            & self.in_win.val()
            & self.psn_off.val().any()
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

        // The head's run: with the packet's own slot written, the slots whose PSN in
        // (psn, psn + W] is not held; the first after the packet's slot, cyclically (the slot
        // itself stands for psn + W, never held, so there is one).
        self.bm1.next = self
            .r_bm
            .val()
            .replace_bit(self.slot.val().index(), self.lap.val());
        self.gt.next = (self.cfg_ones.val() << self.slot.val()) << 1;
        self.nr.next = self.bm1.val() ^ !self.gt.val();
        if self.lap.val() {
            self.nr.next = self.bm1.val() ^ self.gt.val();
        }
        self.nr_hi.next = self.nr.val() & self.gt.val();
        self.nr_x.next = self.nr.val();
        if self.nr_hi.val().any() {
            self.nr_x.next = self.nr_hi.val();
        }
        self.first.next = self.nr_x.val() & (!self.nr_x.val() + self.cfg_one_w.val());
        self.first_idx.next = 0.into();
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(0, (self.first.val() & self.cfg_sel0.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(1, (self.first.val() & self.cfg_sel1.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(2, (self.first.val() & self.cfg_sel2.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(3, (self.first.val() & self.cfg_sel3.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(4, (self.first.val() & self.cfg_sel4.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(5, (self.first.val() & self.cfg_sel5.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(6, (self.first.val() & self.cfg_sel6.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(7, (self.first.val() & self.cfg_sel7.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(8, (self.first.val() & self.cfg_sel8.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(9, (self.first.val() & self.cfg_sel9.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(10, (self.first.val() & self.cfg_sel10.val()).any());
        self.first_idx.next = self
            .first_idx
            .val()
            .replace_bit(11, (self.first.val() & self.cfg_sel11.val()).any());
        // EPSN advances by 1..=W: to the slot found, counted from the one after the packet's.
        self.adv.next =
            ((bit_cast::<32, 16>(self.first_idx.val()) - bit_cast::<32, 16>(self.slot.val()) - 1)
                & self.cfg_slot_mask.val())
                + 1;

        // The new fields.
        self.n_epsn.next = self.r_epsn.val();
        self.n_bytes.next = self.r_bytes.val();
        self.n_ooo.next = self.r_ooo.val();
        if self.head.val() {
            self.n_epsn.next = (self.e_psn.val() + self.adv.val()) & self.cfg_psn_mask.val();
            self.n_ooo.next = self.r_ooo.val() + 1 - self.adv.val();
            self.n_bytes.next = self.r_bytes.val() + self.e_len.val();
        }
        if self.hold.val() {
            self.n_ooo.next = self.r_ooo.val() + 1;
            self.n_bytes.next = self.r_bytes.val() + self.e_len.val();
        }
        // Coalescing and the lowest PSN since the last SACK: every data packet in the window
        // or below EPSN (duplicates included).
        self.ok.next = !self.e_open.val() & !self.e_malformed.val() & !self.oow.val();
        self.in_play.next = self.ok.val() & !self.e_probe.val();
        self.coal_sum.next =
            bit_cast::<33, 32>(self.r_coal.val()) + bit_cast::<33, 32>(self.e_len.val());
        self.below_lowest.d.next = self.e_psn.val() - self.r_low.val();
        self.n_coal.next = self.r_coal.val();
        self.n_lv.next = self.r_lv.val();
        self.n_low.next = self.r_low.val();
        if self.in_play.val() {
            self.n_coal.next = bit_cast::<32, 33>(self.coal_sum.val());
            if self.coal_sum.val().get_bit(32) {
                self.n_coal.next = 0xFFFF_FFFF_u64.into();
            }
            self.n_lv.next = true;
            if !self.r_lv.val() | self.below_lowest.below.val().any() {
                self.n_low.next = self.e_psn.val();
            }
        }
        self.t_coalesce.next = self.in_play.val() & (self.n_coal.val() >= self.cfg_coalesce.val());
        self.t_head_fill.next = self.head.val() & self.r_ooo.val().any();
        self.any.next = self.ok.val()
            & (self.t_coalesce.val()
                | self.t_head_fill.val()
                | self.e_probe.val()
                | self.e_ack_req.val()
                | self.e_ecn.val());

        // An open's record: EPSN, nothing held (`initial_record`), the rest zero.
        self.open_ge.next = self.cfg_ones.val() << self.slot.val();
        self.open_bm.next = self.open_ge.val();
        if self.lap.val() {
            self.open_bm.next = !self.open_ge.val();
        }
        self.open_rec.next =
            bit_cast::<D, 32>(self.e_psn.val()) | (bit_cast::<D, W>(self.open_bm.val()) << 24);

        // The record after the event; when a SACK goes out, coalescing and the lowest start
        // again.
        self.n_bm.next = self.r_bm.val();
        if self.head.val() | self.hold.val() {
            self.n_bm.next = self.bm1.val();
        }
        self.next.next = bit_cast::<D, 32>(self.n_epsn.val())
            | (bit_cast::<D, W>(self.n_bm.val()) << 24)
            | (bit_cast::<D, 32>(self.n_bytes.val()) << self.cfg_off_bytes.val())
            | (bit_cast::<D, L>(self.n_ooo.val().get_bits::<L>(0)) << self.cfg_off_ooo.val())
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
        self.o1_ooo.d.next = self.n_ooo.val();
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
        self.o2_rel.d.next = (self.seg_base.val() - self.o1_epsn.q.val()) & self.cfg_psn_mask.val();
        // The segment lies in one lap (SB divides W): a slot holds a PSN of it when it holds
        // the segment's lap bit.
        self.o2_recv.d.next = !self.seg_raw.val();
        if (self.seg_base.val() & self.cfg_window.val()).any() {
            self.o2_recv.d.next = self.seg_raw.val();
        }
        self.o2_bytes.d.next = self.o1_bytes.q.val();
        self.o2_ooo.d.next = self.o1_ooo.q.val();
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
