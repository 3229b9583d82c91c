//! The send side composed (`docs/blocks/nic_tx.md`): the event arbiter, the timer scan, the
//! window view and the wires between the four per-connection blocks, as one glue block
//! ([`NicTxGlue`]); `nic_tx_block` in `lib.rs` instantiates it with the transmit scheduler
//! ([`crate::tx_sched`]), the senders ([`crate::nic_sender`]), the cwnd units
//! ([`crate::nic_cwnd`]) and the entropy bitmaps ([`crate::nic_entropy`]) through
//! [`crate::netlist`].
//!
//! ```text
//!  T0   arbiter: open > SACK > transmit / doorbell (turns) > timer scan; every 4th cycle the
//!       scan's ─► sender (s_valid, s_conn, s_kind), scheduler (s_take), view RAM read
//!  T1   view (RAM data, or the write of T0 forwarded) ─► sender's s_cwnd, s_bdp_zero
//!  T7   sender's result ─► cwnd unit (an open, an accepted SACK), entropy bitmap (every
//!       event but a bad id or a refused open), has-work line, result line
//!  T10   has-work write ─► scheduler (s_set)
//!  T15  entropy bitmap's choice + the result line ─► m_* (the event taken on T0)
//!  T26  cwnd unit's window ─► view write register ─► T27: view RAM (read from T27 on)
//! ```
//!
//! Every line is cleared by `s_reset`: the events taken before a reset report nothing, write
//! no has-work bit and no view. The reset (and power-on) sweep writes every connection's view
//! to a fresh unit's and opens every cwnd unit (whose results are not written: the view is
//! already fresh); the senders and the entropy bitmaps sweep themselves in the same cycles.

use rust_hdl::prelude::*;

use crate::context_ram::ContextRam;
use crate::{nic_cwnd, nic_entropy, nic_sender};

/// Cycles from an event taken (T0) to its result on `m_*`.
pub const LATENCY: u32 = SENDER_AT + nic_entropy::LATENCY;
/// The stage of the sender's result.
const SENDER_AT: u32 = nic_sender::LATENCY;
/// The has-work write's stage.
pub const WORK_WRITE: u32 = SENDER_AT + 3;
/// From an event to the first event that reads the window it made: the sender's result, the
/// cwnd unit, the write register.
pub const VIEW_LAG: u32 = SENDER_AT + nic_cwnd::LATENCY + 1;

// The lines below are laid out for these latencies.
const _: () = assert!(SENDER_AT == 7 && nic_entropy::LATENCY == 8 && nic_cwnd::LATENCY == 19);

/// See the module documentation.
#[derive(LogicBlock)]
pub struct NicTxGlue {
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the lines cleared, the sweep restarted.
    pub s_reset: Signal<In, Bit>,
    /// The time, ns.
    pub s_now: Signal<In, Bits<32>>,
    /// An open is offered (the connection, `s_open_conn`).
    pub s_open_valid: Signal<In, Bit>,
    pub s_open_conn: Signal<In, Bits<16>>,
    /// The link takes a packet.
    pub s_txop_valid: Signal<In, Bit>,
    /// A SACK is offered: its connection and the fields the glue reads (the rest go to the
    /// sender directly).
    pub s_sack_valid: Signal<In, Bit>,
    pub s_sack_conn: Signal<In, Bits<16>>,
    pub s_sack_ts: Signal<In, Bits<32>>,
    pub s_sack_probe: Signal<In, Bit>,
    pub s_sack_ecn: Signal<In, Bit>,
    pub s_sack_entropy: Signal<In, Bits<32>>,
    /// A doorbell is offered.
    pub s_doorbell_valid: Signal<In, Bit>,
    pub s_doorbell_conn: Signal<In, Bits<16>>,
    /// The handshakes: the offer is taken this cycle.
    pub s_open_ready: Signal<Out, Bit>,
    pub s_txop_ready: Signal<Out, Bit>,
    pub s_sack_ready: Signal<Out, Bit>,
    pub s_doorbell_ready: Signal<Out, Bit>,

    /// The transmit scheduler's candidate, and what the glue tells it.
    pub sched_m_cand_valid: Signal<In, Bit>,
    pub sched_m_cand_id: Signal<In, Bits<16>>,
    pub sched_take: Signal<Out, Bit>,
    pub sched_set_valid: Signal<Out, Bit>,
    pub sched_set_id: Signal<Out, Bits<16>>,
    pub sched_set_work: Signal<Out, Bit>,

    /// The sender's event (T0) and window (T1), its readiness and its result (T7).
    pub snd_valid: Signal<Out, Bit>,
    pub snd_conn: Signal<Out, Bits<16>>,
    pub snd_kind: Signal<Out, Bits<3>>,
    pub snd_cwnd: Signal<Out, Bits<32>>,
    pub snd_bdp_zero: Signal<Out, Bit>,
    pub snd_status_ready: Signal<In, Bit>,
    pub snd_m_bad: Signal<In, Bit>,
    pub snd_m_conn: Signal<In, Bits<16>>,
    pub snd_m_opened: Signal<In, Bit>,
    pub snd_m_open_refused: Signal<In, Bit>,
    pub snd_m_sack_accepted: Signal<In, Bit>,
    pub snd_m_sack_malformed: Signal<In, Bit>,
    pub snd_m_acked_bytes: Signal<In, Bits<32>>,
    pub snd_m_doorbell_ok: Signal<In, Bit>,
    pub snd_m_doorbell_refused: Signal<In, Bit>,
    pub snd_m_tx_valid: Signal<In, Bit>,
    pub snd_m_tx_psn: Signal<In, Bits<32>>,
    pub snd_m_tx_len: Signal<In, Bits<32>>,
    pub snd_m_tx_kind: Signal<In, Bits<2>>,
    pub snd_m_tx_ack_req: Signal<In, Bit>,
    pub snd_m_loss_valid: Signal<In, Bit>,
    pub snd_m_loss_kind: Signal<In, Bits<2>>,
    pub snd_m_work: Signal<In, Bit>,

    /// The cwnd units' event (T7, or the sweep's opens) and result (T26).
    pub cw_valid: Signal<Out, Bit>,
    pub cw_conn: Signal<Out, Bits<16>>,
    pub cw_open: Signal<Out, Bit>,
    pub cw_now: Signal<Out, Bits<32>>,
    pub cw_rtt: Signal<Out, Bits<32>>,
    pub cw_ecn: Signal<Out, Bit>,
    pub cw_acked_bytes: Signal<Out, Bits<32>>,
    pub cw_is_probe_ack: Signal<Out, Bit>,
    pub cw_m_valid: Signal<In, Bit>,
    pub cw_m_conn: Signal<In, Bits<16>>,
    pub cw_m_cwnd_bytes: Signal<In, Bits<32>>,
    pub cw_m_achieved_bdp: Signal<In, Bits<32>>,

    /// The entropy bitmaps' event (T7) and choice (T15).
    pub eb_valid: Signal<Out, Bit>,
    pub eb_conn: Signal<Out, Bits<16>>,
    pub eb_open: Signal<Out, Bit>,
    pub eb_now: Signal<Out, Bits<32>>,
    pub eb_ack_valid: Signal<Out, Bit>,
    pub eb_ack_entropy: Signal<Out, Bits<16>>,
    pub eb_ack_ecn: Signal<Out, Bit>,
    pub eb_choose_valid: Signal<Out, Bit>,
    pub eb_cwnd_packets: Signal<Out, Bits<32>>,
    pub eb_m_choice_valid: Signal<In, Bit>,
    pub eb_m_entropy: Signal<In, Bits<16>>,
    pub eb_status_ready: Signal<In, Bit>,

    /// The event taken 12 cycles ago: every field 0 when `m_valid` is 0.
    pub m_valid: Signal<Out, Bit>,
    /// Its connection was out of range (every other field but `m_conn` and `m_source` 0).
    pub m_bad: Signal<Out, Bit>,
    pub m_conn: Signal<Out, Bits<16>>,
    /// Which input it came from: the sender's event kind (`nic_sender::KIND_*`: 0 timer, 1 open,
    /// 2 SACK, 3 transmit, 4 doorbell).
    pub m_source: Signal<Out, Bits<3>>,
    pub m_opened: Signal<Out, Bit>,
    pub m_open_refused: Signal<Out, Bit>,
    pub m_sack_accepted: Signal<Out, Bit>,
    pub m_sack_malformed: Signal<Out, Bit>,
    pub m_doorbell_ok: Signal<Out, Bit>,
    pub m_doorbell_refused: Signal<Out, Bit>,
    /// The packet sent: PSN, payload bytes, 0 new / 1 retransmission / 2 probe, ACK request,
    /// entropy, time stamp (the event's time).
    pub m_tx_valid: Signal<Out, Bit>,
    pub m_tx_psn: Signal<Out, Bits<32>>,
    pub m_tx_len: Signal<Out, Bits<32>>,
    pub m_tx_kind: Signal<Out, Bits<2>>,
    pub m_tx_ack_req: Signal<Out, Bit>,
    pub m_tx_entropy: Signal<Out, Bits<16>>,
    pub m_tx_ts: Signal<Out, Bits<32>>,
    /// A loss detector fired: 0 out-of-order count, 1 probe, 2 timeout.
    pub m_loss_valid: Signal<Out, Bit>,
    pub m_loss_kind: Signal<Out, Bits<2>>,
    /// The has-work bit the event wrote.
    pub m_work: Signal<Out, Bit>,
    /// The sweep is over: events are taken.
    pub status_ready: Signal<Out, Bit>,
    /// Counters (wrapping, cleared by `s_reset`) of the results on `m_*`, each counted on the
    /// cycle it shows there: packets sent by kind, malformed SACKs, losses by detector, refused
    /// opens and doorbells, ids out of range.
    pub status_tx_new: Signal<Out, Bits<32>>,
    pub status_tx_retransmit: Signal<Out, Bits<32>>,
    pub status_tx_probe: Signal<Out, Bits<32>>,
    pub status_sack_malformed: Signal<Out, Bits<32>>,
    pub status_loss_ooo: Signal<Out, Bits<32>>,
    pub status_loss_probe: Signal<Out, Bits<32>>,
    pub status_loss_timeout: Signal<Out, Bits<32>>,
    pub status_open_refused: Signal<Out, Bits<32>>,
    pub status_doorbell_refused: Signal<Out, Bits<32>>,
    pub status_bad_conn: Signal<Out, Bits<32>>,

    /// `connections - 1`: the last id (the sweep's end) and the scan's wrap mask.
    cfg_last: Constant<Bits<16>>,
    cfg_fresh_cwnd: Constant<Bits<32>>,
    cfg_mtu_log2: Constant<Bits<32>>,
    /// `2^24 - 1`: the cwnd unit's largest RTT and acknowledged bytes.
    cfg_max24: Constant<Bits<32>>,

    view: ContextRam<33>,

    // T0.
    ready: Signal<Local, Bit>,
    free: Signal<Local, Bit>,
    contended: Signal<Local, Bit>,
    take_open: Signal<Local, Bit>,
    take_sack: Signal<Local, Bit>,
    take_tx: Signal<Local, Bit>,
    take_door: Signal<Local, Bit>,
    conn: Signal<Local, Bits<16>>,
    kind: Signal<Local, Bits<3>>,
    rtt: Signal<Local, Bits<32>>,
    ent: Signal<Local, Bits<16>>,
    a_word: Signal<Local, Bits<78>>,
    /// Cycles mod 4 since power-on or the last reset; 3 is the scan's.
    phase: DFF<Bits<2>>,
    scan: DFF<Bits<16>>,
    /// A contended doorbell goes next.
    door_turn: DFF<Bit>,
    /// The sweep: done, and the next connection.
    swept: DFF<Bit>,
    sweep_id: DFF<Bits<16>>,
    sweeping: Signal<Local, Bit>,
    sweep_at: Signal<Local, Bits<16>>,

    // T1: the view.
    fwd_hit: DFF<Bit>,
    fwd_data: DFF<Bits<33>>,
    view_now: Signal<Local, Bits<33>>,

    /// T0 -> T7: live, source 3, now 32, RTT 24, probe, ECN, entropy 16 (78 bits a stage).
    a_line: DFF<Bits<546>>,
    /// T1 -> T7: `floor(cwnd / MTU)` (32 bits a stage).
    pk_line: DFF<Bits<192>>,
    // T7.
    a4: Signal<Local, Bits<78>>,
    live4: Signal<Local, Bit>,
    good4: Signal<Local, Bit>,
    r_word: Signal<Local, Bits<131>>,
    h_word: Signal<Local, Bits<18>>,
    /// T7 -> T15: the result (131 bits a stage, layout in `update`).
    r_line: DFF<Bits<1048>>,
    /// T7 -> T10: the has-work write: valid, connection 16, bit.
    h_line: DFF<Bits<54>>,
    /// T7 -> T26: the cwnd unit's events whose window is written.
    cw_line: DFF<Bits<19>>,
    cw_live: Signal<Local, Bit>,
    // T15.
    r12: Signal<Local, Bits<131>>,
    /// Of the result a cycle before T15 (what `m_*` shows next, unless a reset drops it): the
    /// packet's and the loss's kinds.
    k_tx: Signal<Local, Bits<2>>,
    k_loss: Signal<Local, Bits<2>>,
    cnt_tx_new: DFF<Bits<32>>,
    cnt_tx_retransmit: DFF<Bits<32>>,
    cnt_tx_probe: DFF<Bits<32>>,
    cnt_sack_malformed: DFF<Bits<32>>,
    cnt_loss_ooo: DFF<Bits<32>>,
    cnt_loss_probe: DFF<Bits<32>>,
    cnt_loss_timeout: DFF<Bits<32>>,
    cnt_open_refused: DFF<Bits<32>>,
    cnt_doorbell_refused: DFF<Bits<32>>,
    cnt_bad_conn: DFF<Bits<32>>,
    // T26 -> T27: the view write.
    w_next: Signal<Local, Bits<33>>,
    w_valid: DFF<Bit>,
    w_addr: DFF<Bits<16>>,
    w_data: DFF<Bits<33>>,
}

impl NicTxGlue {
    /// `conns` connections (a power of two); a fresh cwnd unit shows `fresh_cwnd` bytes and a
    /// zero achievedBDP; `mtu_log2`: `cwnd_packets = cwnd_bytes >> mtu_log2`.
    pub fn new(conns: u32, fresh_cwnd: u32, mtu_log2: u32) -> Self {
        assert!(conns.is_power_of_two() && (2..=65_536).contains(&conns));
        NicTxGlue {
            clock: Default::default(),
            s_reset: Default::default(),
            s_now: Default::default(),
            s_open_valid: Default::default(),
            s_open_conn: Default::default(),
            s_txop_valid: Default::default(),
            s_sack_valid: Default::default(),
            s_sack_conn: Default::default(),
            s_sack_ts: Default::default(),
            s_sack_probe: Default::default(),
            s_sack_ecn: Default::default(),
            s_sack_entropy: Default::default(),
            s_doorbell_valid: Default::default(),
            s_doorbell_conn: Default::default(),
            s_open_ready: Default::default(),
            s_txop_ready: Default::default(),
            s_sack_ready: Default::default(),
            s_doorbell_ready: Default::default(),
            sched_m_cand_valid: Default::default(),
            sched_m_cand_id: Default::default(),
            sched_take: Default::default(),
            sched_set_valid: Default::default(),
            sched_set_id: Default::default(),
            sched_set_work: Default::default(),
            snd_valid: Default::default(),
            snd_conn: Default::default(),
            snd_kind: Default::default(),
            snd_cwnd: Default::default(),
            snd_bdp_zero: Default::default(),
            snd_status_ready: Default::default(),
            snd_m_bad: Default::default(),
            snd_m_conn: Default::default(),
            snd_m_opened: Default::default(),
            snd_m_open_refused: Default::default(),
            snd_m_sack_accepted: Default::default(),
            snd_m_sack_malformed: Default::default(),
            snd_m_acked_bytes: Default::default(),
            snd_m_doorbell_ok: Default::default(),
            snd_m_doorbell_refused: Default::default(),
            snd_m_tx_valid: Default::default(),
            snd_m_tx_psn: Default::default(),
            snd_m_tx_len: Default::default(),
            snd_m_tx_kind: Default::default(),
            snd_m_tx_ack_req: Default::default(),
            snd_m_loss_valid: Default::default(),
            snd_m_loss_kind: Default::default(),
            snd_m_work: Default::default(),
            cw_valid: Default::default(),
            cw_conn: Default::default(),
            cw_open: Default::default(),
            cw_now: Default::default(),
            cw_rtt: Default::default(),
            cw_ecn: Default::default(),
            cw_acked_bytes: Default::default(),
            cw_is_probe_ack: Default::default(),
            cw_m_valid: Default::default(),
            cw_m_conn: Default::default(),
            cw_m_cwnd_bytes: Default::default(),
            cw_m_achieved_bdp: Default::default(),
            eb_valid: Default::default(),
            eb_conn: Default::default(),
            eb_open: Default::default(),
            eb_now: Default::default(),
            eb_ack_valid: Default::default(),
            eb_ack_entropy: Default::default(),
            eb_ack_ecn: Default::default(),
            eb_choose_valid: Default::default(),
            eb_cwnd_packets: Default::default(),
            eb_m_choice_valid: Default::default(),
            eb_m_entropy: Default::default(),
            eb_status_ready: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_conn: Default::default(),
            m_source: Default::default(),
            m_opened: Default::default(),
            m_open_refused: Default::default(),
            m_sack_accepted: Default::default(),
            m_sack_malformed: Default::default(),
            m_doorbell_ok: Default::default(),
            m_doorbell_refused: Default::default(),
            m_tx_valid: Default::default(),
            m_tx_psn: Default::default(),
            m_tx_len: Default::default(),
            m_tx_kind: Default::default(),
            m_tx_ack_req: Default::default(),
            m_tx_entropy: Default::default(),
            m_tx_ts: Default::default(),
            m_loss_valid: Default::default(),
            m_loss_kind: Default::default(),
            m_work: Default::default(),
            status_ready: Default::default(),
            status_tx_new: Default::default(),
            status_tx_retransmit: Default::default(),
            status_tx_probe: Default::default(),
            status_sack_malformed: Default::default(),
            status_loss_ooo: Default::default(),
            status_loss_probe: Default::default(),
            status_loss_timeout: Default::default(),
            status_open_refused: Default::default(),
            status_doorbell_refused: Default::default(),
            status_bad_conn: Default::default(),
            cfg_last: Constant::new(bits::<16>(u64::from(conns - 1) & 0xFFFF)),
            cfg_fresh_cwnd: Constant::new(bits::<32>(u64::from(fresh_cwnd))),
            cfg_mtu_log2: Constant::new(bits::<32>(u64::from(mtu_log2))),
            cfg_max24: Constant::new(bits::<32>((1 << 24) - 1)),
            view: ContextRam::new(conns as usize),
            ready: Default::default(),
            free: Default::default(),
            contended: Default::default(),
            take_open: Default::default(),
            take_sack: Default::default(),
            take_tx: Default::default(),
            take_door: Default::default(),
            conn: Default::default(),
            kind: Default::default(),
            rtt: Default::default(),
            ent: Default::default(),
            a_word: Default::default(),
            phase: Default::default(),
            scan: Default::default(),
            door_turn: Default::default(),
            swept: Default::default(),
            sweep_id: Default::default(),
            sweeping: Default::default(),
            sweep_at: Default::default(),
            fwd_hit: Default::default(),
            fwd_data: Default::default(),
            view_now: Default::default(),
            a_line: Default::default(),
            pk_line: Default::default(),
            a4: Default::default(),
            live4: Default::default(),
            good4: Default::default(),
            r_word: Default::default(),
            h_word: Default::default(),
            r_line: Default::default(),
            h_line: Default::default(),
            cw_line: Default::default(),
            cw_live: Default::default(),
            r12: Default::default(),
            k_tx: Default::default(),
            k_loss: Default::default(),
            cnt_tx_new: Default::default(),
            cnt_tx_retransmit: Default::default(),
            cnt_tx_probe: Default::default(),
            cnt_sack_malformed: Default::default(),
            cnt_loss_ooo: Default::default(),
            cnt_loss_probe: Default::default(),
            cnt_loss_timeout: Default::default(),
            cnt_open_refused: Default::default(),
            cnt_doorbell_refused: Default::default(),
            cnt_bad_conn: Default::default(),
            w_next: Default::default(),
            w_valid: Default::default(),
            w_addr: Default::default(),
            w_data: Default::default(),
        }
    }
}

impl Logic for NicTxGlue {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            phase,
            scan,
            door_turn,
            swept,
            sweep_id,
            fwd_hit,
            fwd_data,
            a_line,
            pk_line,
            r_line,
            h_line,
            cw_line,
            w_valid,
            w_addr,
            w_data,
            cnt_tx_new,
            cnt_tx_retransmit,
            cnt_tx_probe,
            cnt_sack_malformed,
            cnt_loss_ooo,
            cnt_loss_probe,
            cnt_loss_timeout,
            cnt_open_refused,
            cnt_doorbell_refused,
            cnt_bad_conn
        );
        self.view.clock.next = self.clock.val();

        // ---- T0: which input is served (the model's `NicTx::handshakes`).
        self.status_ready.next = self.snd_status_ready.val() & self.eb_status_ready.val();
        self.ready.next = self.status_ready.val() & !self.s_reset.val();
        self.free.next = self.ready.val() & (self.phase.q.val() != 3_usize.to_bits::<2>());
        self.contended.next =
            self.s_txop_valid.val() & self.sched_m_cand_valid.val() & self.s_doorbell_valid.val();
        self.s_open_ready.next = self.free.val();
        self.s_sack_ready.next = self.free.val() & !self.s_open_valid.val();
        self.s_txop_ready.next = self.free.val()
            & !self.s_open_valid.val()
            & !self.s_sack_valid.val()
            & self.sched_m_cand_valid.val()
            & !(self.contended.val() & self.door_turn.q.val());
        self.s_doorbell_ready.next = self.free.val()
            & !self.s_open_valid.val()
            & !self.s_sack_valid.val()
            & (!(self.s_txop_valid.val() & self.sched_m_cand_valid.val()) | self.door_turn.q.val());
        self.take_open.next = self.s_open_ready.val() & self.s_open_valid.val();
        self.take_sack.next = self.s_sack_ready.val() & self.s_sack_valid.val();
        self.take_tx.next = self.s_txop_ready.val() & self.s_txop_valid.val();
        self.take_door.next = self.s_doorbell_ready.val() & self.s_doorbell_valid.val();
        // Defaults: the timer scan (taken whenever nothing else is).
        self.conn.next = self.scan.q.val();
        self.kind.next = 0_usize.to_bits::<3>();
        if self.take_open.val() {
            self.conn.next = self.s_open_conn.val();
            self.kind.next = 1_usize.to_bits::<3>();
        } else if self.take_sack.val() {
            self.conn.next = self.s_sack_conn.val();
            self.kind.next = 2_usize.to_bits::<3>();
        } else if self.take_tx.val() {
            self.conn.next = self.sched_m_cand_id.val();
            self.kind.next = 3_usize.to_bits::<3>();
        } else if self.take_door.val() {
            self.conn.next = self.s_doorbell_conn.val();
            self.kind.next = 4_usize.to_bits::<3>();
        }
        self.snd_valid.next = self.ready.val();
        self.snd_conn.next = self.conn.val();
        self.snd_kind.next = self.kind.val();
        self.sched_take.next = self.take_tx.val();
        self.view.read_address.next = self.conn.val();

        // The scan, the phase and the turn.
        self.phase.d.next = self.phase.q.val() + 1_usize.to_bits::<2>();
        if self.ready.val()
            & !(self.take_open.val() | self.take_sack.val())
            & !(self.take_tx.val() | self.take_door.val())
        {
            self.scan.d.next = (self.scan.q.val() + 1_usize.to_bits::<16>()) & self.cfg_last.val();
        }
        if (self.take_tx.val() | self.take_door.val()) & self.contended.val() {
            self.door_turn.d.next = !self.door_turn.q.val();
        }

        // The cwnd unit's amounts: the RTT saturated (never malformed, as the model clamps),
        // the ACK's entropy saturated to 16 bits (any value past the paths is ignored alike).
        self.rtt.next = self.s_now.val() - self.s_sack_ts.val();
        if self.rtt.val() > self.cfg_max24.val() {
            self.rtt.next = self.cfg_max24.val();
        }
        self.ent.next = self.s_sack_entropy.val().get_bits::<16>(0);
        if self.s_sack_entropy.val().get_bits::<16>(16).any() {
            self.ent.next = 65535_usize.to_bits::<16>();
        }
        self.a_word.next = (bit_cast::<78, 3>(self.kind.val()) << 1)
            | (bit_cast::<78, 32>(self.s_now.val()) << 4)
            | (bit_cast::<78, 24>(self.rtt.val().get_bits::<24>(0)) << 36)
            | (bit_cast::<78, 16>(self.ent.val()) << 62);
        self.a_word.next = self.a_word.val().replace_bit(0, self.ready.val());
        self.a_word.next = self.a_word.val().replace_bit(60, self.s_sack_probe.val());
        self.a_word.next = self.a_word.val().replace_bit(61, self.s_sack_ecn.val());
        self.a_line.d.next = (self.a_line.q.val() << 78) | bit_cast::<546, 78>(self.a_word.val());

        // ---- T1: the view, the write of T0 forwarded over the RAM's data.
        self.view_now.next = self.view.read_data.val();
        if self.fwd_hit.q.val() {
            self.view_now.next = self.fwd_data.q.val();
        }
        self.snd_cwnd.next = self.view_now.val().get_bits::<32>(0);
        self.snd_bdp_zero.next = self.view_now.val().get_bit(32);
        self.pk_line.d.next = (self.pk_line.q.val() << 32)
            | bit_cast::<192, 32>(self.view_now.val().get_bits::<32>(0) >> self.cfg_mtu_log2.val());

        // ---- T7: the sender's result.
        self.a4.next = self.a_line.q.val().get_bits::<78>(468);
        self.live4.next = self.a4.val().get_bit(0);
        self.good4.next = self.live4.val() & !self.snd_m_bad.val();
        // The cwnd unit: an open, an accepted SACK.
        self.cw_live.next =
            self.good4.val() & (self.snd_m_opened.val() | self.snd_m_sack_accepted.val());
        self.cw_valid.next = self.cw_live.val();
        self.cw_conn.next = self.snd_m_conn.val();
        self.cw_open.next = self.snd_m_opened.val();
        self.cw_now.next = self.a4.val().get_bits::<32>(4);
        self.cw_rtt.next = bit_cast::<32, 24>(self.a4.val().get_bits::<24>(36));
        self.cw_ecn.next = self.a4.val().get_bit(61);
        self.cw_acked_bytes.next = self.snd_m_acked_bytes.val();
        if self.snd_m_acked_bytes.val() > self.cfg_max24.val() {
            self.cw_acked_bytes.next = self.cfg_max24.val();
        }
        self.cw_is_probe_ack.next = self.a4.val().get_bit(60);
        // The entropy bitmap: every event of a connection but a refused open.
        self.eb_valid.next = self.good4.val() & !self.snd_m_open_refused.val();
        self.eb_conn.next = self.snd_m_conn.val();
        self.eb_open.next = self.snd_m_opened.val();
        self.eb_now.next = self.a4.val().get_bits::<32>(4);
        self.eb_ack_valid.next = self.snd_m_sack_accepted.val();
        self.eb_ack_entropy.next = self.a4.val().get_bits::<16>(62);
        self.eb_ack_ecn.next = self.a4.val().get_bit(61);
        self.eb_choose_valid.next = self.snd_m_tx_valid.val();
        self.eb_cwnd_packets.next = self.pk_line.q.val().get_bits::<32>(160);
        // The result, for T15: live, source 3, bad, connection 16, the verdicts (6), the
        // packet (valid, PSN 32, length 32, kind 2, ACK request), loss (valid, kind 2), work,
        // time 32.
        self.r_word.next = (bit_cast::<131, 3>(self.a4.val().get_bits::<3>(1)) << 1)
            | (bit_cast::<131, 16>(self.snd_m_conn.val()) << 5)
            | (bit_cast::<131, 32>(self.snd_m_tx_psn.val()) << 28)
            | (bit_cast::<131, 32>(self.snd_m_tx_len.val()) << 60)
            | (bit_cast::<131, 2>(self.snd_m_tx_kind.val()) << 92)
            | (bit_cast::<131, 2>(self.snd_m_loss_kind.val()) << 96)
            | (bit_cast::<131, 32>(self.a4.val().get_bits::<32>(4)) << 99);
        self.r_word.next = self.r_word.val().replace_bit(0, true);
        self.r_word.next = self.r_word.val().replace_bit(4, self.snd_m_bad.val());
        self.r_word.next = self.r_word.val().replace_bit(21, self.snd_m_opened.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(22, self.snd_m_open_refused.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(23, self.snd_m_sack_accepted.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(24, self.snd_m_sack_malformed.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(25, self.snd_m_doorbell_ok.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(26, self.snd_m_doorbell_refused.val());
        self.r_word.next = self.r_word.val().replace_bit(27, self.snd_m_tx_valid.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(94, self.snd_m_tx_ack_req.val());
        self.r_word.next = self
            .r_word
            .val()
            .replace_bit(95, self.snd_m_loss_valid.val());
        self.r_word.next = self.r_word.val().replace_bit(98, self.snd_m_work.val());
        if !self.live4.val() {
            self.r_word.next = 0_usize.to_bits::<131>();
        }
        self.r_line.d.next =
            (self.r_line.q.val() << 131) | bit_cast::<1048, 131>(self.r_word.val());
        self.h_word.next = bit_cast::<18, 16>(self.snd_m_conn.val()) << 1;
        self.h_word.next = self.h_word.val().replace_bit(0, self.good4.val());
        self.h_word.next = self.h_word.val().replace_bit(17, self.snd_m_work.val());
        self.h_line.d.next = (self.h_line.q.val() << 18) | bit_cast::<54, 18>(self.h_word.val());
        self.cw_line.d.next = (self.cw_line.q.val() << 1).replace_bit(0, self.cw_live.val());

        // ---- T10: the has-work write.
        self.sched_set_valid.next = self.h_line.q.val().get_bit(36);
        self.sched_set_id.next = self.h_line.q.val().get_bits::<16>(37);
        self.sched_set_work.next = self.h_line.q.val().get_bit(53);

        // ---- T15: the result with the entropy bitmap's choice.
        self.r12.next = self.r_line.q.val().get_bits::<131>(917);
        self.m_valid.next = self.r12.val().get_bit(0);
        self.m_source.next = self.r12.val().get_bits::<3>(1);
        self.m_bad.next = self.r12.val().get_bit(4);
        self.m_conn.next = self.r12.val().get_bits::<16>(5);
        self.m_opened.next = self.r12.val().get_bit(21);
        self.m_open_refused.next = self.r12.val().get_bit(22);
        self.m_sack_accepted.next = self.r12.val().get_bit(23);
        self.m_sack_malformed.next = self.r12.val().get_bit(24);
        self.m_doorbell_ok.next = self.r12.val().get_bit(25);
        self.m_doorbell_refused.next = self.r12.val().get_bit(26);
        self.m_tx_valid.next = self.r12.val().get_bit(27);
        self.m_tx_psn.next = self.r12.val().get_bits::<32>(28);
        self.m_tx_len.next = self.r12.val().get_bits::<32>(60);
        self.m_tx_kind.next = self.r12.val().get_bits::<2>(92);
        self.m_tx_ack_req.next = self.r12.val().get_bit(94);
        self.m_loss_valid.next = self.r12.val().get_bit(95);
        self.m_loss_kind.next = self.r12.val().get_bits::<2>(96);
        self.m_work.next = self.r12.val().get_bit(98);
        self.m_tx_ts.next = 0_usize.to_bits::<32>();
        self.m_tx_entropy.next = 0_usize.to_bits::<16>();
        if self.r12.val().get_bit(27) {
            self.m_tx_ts.next = self.r12.val().get_bits::<32>(99);
            if self.eb_m_choice_valid.val() {
                self.m_tx_entropy.next = self.eb_m_entropy.val();
            }
        }

        // ---- The counters: the result that shows on `m_*` next cycle is counted now, so that a
        // count and its result show on the same cycle (a reset drops both).
        // (The result at T14 sits at bit 786 of the line: its field at bit `b` is at `786 + b`;
        // a counter holds unless counted, as `dff_setup!` sets every `d` to its `q`.)
        // (Kinds: `m_tx_kind` 0 new, 1 retransmission, 2 probe; `m_loss_kind` 0 out-of-order
        // count, 1 probe, 2 timeout.)
        self.k_tx.next = self.r_line.q.val().get_bits::<2>(878);
        self.k_loss.next = self.r_line.q.val().get_bits::<2>(882);
        if self.r_line.q.val().get_bit(813) & (self.k_tx.val() == 0_usize.to_bits::<2>()) {
            self.cnt_tx_new.d.next = self.cnt_tx_new.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(813) & (self.k_tx.val() == 1_usize.to_bits::<2>()) {
            self.cnt_tx_retransmit.d.next =
                self.cnt_tx_retransmit.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(813) & (self.k_tx.val() == 2_usize.to_bits::<2>()) {
            self.cnt_tx_probe.d.next = self.cnt_tx_probe.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(881) & (self.k_loss.val() == 0_usize.to_bits::<2>()) {
            self.cnt_loss_ooo.d.next = self.cnt_loss_ooo.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(881) & (self.k_loss.val() == 1_usize.to_bits::<2>()) {
            self.cnt_loss_probe.d.next = self.cnt_loss_probe.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(881) & (self.k_loss.val() == 2_usize.to_bits::<2>()) {
            self.cnt_loss_timeout.d.next = self.cnt_loss_timeout.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(810) {
            self.cnt_sack_malformed.d.next =
                self.cnt_sack_malformed.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(808) {
            self.cnt_open_refused.d.next = self.cnt_open_refused.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(812) {
            self.cnt_doorbell_refused.d.next =
                self.cnt_doorbell_refused.q.val() + 1_usize.to_bits::<32>();
        }
        if self.r_line.q.val().get_bit(790) {
            self.cnt_bad_conn.d.next = self.cnt_bad_conn.q.val() + 1_usize.to_bits::<32>();
        }
        self.status_tx_new.next = self.cnt_tx_new.q.val();
        self.status_tx_retransmit.next = self.cnt_tx_retransmit.q.val();
        self.status_tx_probe.next = self.cnt_tx_probe.q.val();
        self.status_sack_malformed.next = self.cnt_sack_malformed.q.val();
        self.status_loss_ooo.next = self.cnt_loss_ooo.q.val();
        self.status_loss_probe.next = self.cnt_loss_probe.q.val();
        self.status_loss_timeout.next = self.cnt_loss_timeout.q.val();
        self.status_open_refused.next = self.cnt_open_refused.q.val();
        self.status_doorbell_refused.next = self.cnt_doorbell_refused.q.val();
        self.status_bad_conn.next = self.cnt_bad_conn.q.val();

        // ---- The sweep: every view fresh, every cwnd unit opened (its result not written: no
        // event is live while the sweep runs, so `cw_live` is low).
        self.sweeping.next = self.s_reset.val() | !self.swept.q.val();
        self.sweep_at.next = self.sweep_id.q.val();
        if self.s_reset.val() {
            self.sweep_at.next = 0_usize.to_bits::<16>();
        }
        if self.sweeping.val() {
            self.sweep_id.d.next = self.sweep_at.val() + 1_usize.to_bits::<16>();
            self.swept.d.next = self.sweep_at.val() == self.cfg_last.val();
            self.cw_valid.next = true;
            self.cw_open.next = true;
            self.cw_conn.next = self.sweep_at.val();
        }

        // ---- T26: the cwnd unit's window into the write register; T27: the view RAM.
        self.w_next.next = bit_cast::<33, 32>(self.cw_m_cwnd_bytes.val());
        self.w_next.next = self
            .w_next
            .val()
            .replace_bit(32, !self.cw_m_achieved_bdp.val().any());
        self.w_valid.d.next = self.cw_line.q.val().get_bit(18) & self.cw_m_valid.val();
        self.w_addr.d.next = self.cw_m_conn.val();
        if self.sweeping.val() {
            self.w_next.next = bit_cast::<33, 32>(self.cfg_fresh_cwnd.val());
            self.w_next.next = self.w_next.val().replace_bit(32, true);
            self.w_valid.d.next = true;
            self.w_addr.d.next = self.sweep_at.val();
        }
        self.w_data.d.next = self.w_next.val();
        self.view.write_enable.next = self.w_valid.q.val();
        self.view.write_address.next = self.w_addr.q.val();
        self.view.write_data.next = self.w_data.q.val();
        self.fwd_hit.d.next = self.w_valid.q.val() & (self.w_addr.q.val() == self.conn.val());
        self.fwd_data.d.next = self.w_data.q.val();

        // ---- A reset clears every line and restarts the counters.
        if self.s_reset.val() {
            self.phase.d.next = 0_usize.to_bits::<2>();
            self.scan.d.next = 0_usize.to_bits::<16>();
            self.door_turn.d.next = false;
            // (`swept` and `sweep_id` restart above: a reset is a sweep's first cycle.)
            self.a_line.d.next = 0_usize.to_bits::<546>();
            self.r_line.d.next = 0_usize.to_bits::<1048>();
            self.h_line.d.next = 0_usize.to_bits::<54>();
            self.cw_line.d.next = 0_usize.to_bits::<19>();
            self.cnt_tx_new.d.next = 0_usize.to_bits::<32>();
            self.cnt_tx_retransmit.d.next = 0_usize.to_bits::<32>();
            self.cnt_tx_probe.d.next = 0_usize.to_bits::<32>();
            self.cnt_sack_malformed.d.next = 0_usize.to_bits::<32>();
            self.cnt_loss_ooo.d.next = 0_usize.to_bits::<32>();
            self.cnt_loss_probe.d.next = 0_usize.to_bits::<32>();
            self.cnt_loss_timeout.d.next = 0_usize.to_bits::<32>();
            self.cnt_open_refused.d.next = 0_usize.to_bits::<32>();
            self.cnt_doorbell_refused.d.next = 0_usize.to_bits::<32>();
            self.cnt_bad_conn.d.next = 0_usize.to_bits::<32>();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{generate, Options};
    use strack_config::{Config, NIC_TX_VIEW_LAG, NIC_TX_WORK_WRITE};

    /// The model's two lags are the stages the RTL is laid out for.
    #[test]
    fn the_lags_are_the_models() {
        assert_eq!(u64::from(VIEW_LAG), NIC_TX_VIEW_LAG);
        assert_eq!(u64::from(WORK_WRITE), NIC_TX_WORK_WRITE);
    }

    /// The records of the send side's blocks are the widths `strack_config::context` plans
    /// (`strackgen config show`, `docs/blocks/nic.md`).
    #[test]
    fn the_records_are_the_context_layouts() {
        for cfg in [Config::default(), {
            let mut c = Config::default();
            c.sack.rx_window = 32;
            c.entropy_bitmap.max_paths = 16;
            c
        }] {
            let l = cfg.nic_context();
            let (w, n) = (
                cfg.sack.rx_window as usize,
                cfg.entropy_bitmap.max_paths as usize,
            );
            assert_eq!(
                l.ram_bits("nic_sender", "record") as usize,
                nic_sender::record_bits(w)
            );
            assert_eq!(
                l.ram_bits("nic_entropy", "record") as usize,
                nic_entropy::record_bits(n)
            );
            assert_eq!(l.ram_bits("nic_tx", "view"), 33);
        }
    }

    /// At the default config, the lint (the blocks inside pass the whole gate on their own).
    #[test]
    fn gate_lint_at_the_default_config() {
        let b = generate("nic_tx", &Config::default(), &Options::default()).unwrap();
        crate::gate::lint(&b, "nic_tx_default");
    }

    #[test]
    fn gate_at_a_small_config() {
        let mut cfg = Config::default();
        cfg.nic.connections = 4;
        cfg.sack.rx_window = 32;
        cfg.sack.sack_bits = 8;
        cfg.cwnd_unit.max_cwnd_bytes = Some(8 * cfg.network.mtu_bytes);
        let b = generate("nic_tx", &cfg, &Options::default()).unwrap();
        crate::gate::check(&b, "nic_tx_small", false);
    }
}
