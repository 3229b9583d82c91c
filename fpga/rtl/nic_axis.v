// nic_axis: AXI-Stream wrapper of the generated `nic` core (the multi-connection STrack NIC,
// docs/blocks/nic.md). One beat in = one event of the NIC; each event the shell offered comes
// back as one beat on its side's result stream, in order.
//
//   s_axis_open ─────┐
//   s_axis_sack ─────┤                 ┌─ send side (LATENCY_SEND) ─► pack ─► FIFO ─► m_axis_send
//   s_axis_doorbell ─┼─► gate ─► nic ──┤
//   s_txop_* ────────┤                 └─ receive side (LATENCY_RECV) ► pack ► FIFO ► m_axis_recv
//   s_axis_pkt ──────┘   ▲
//                        └── an offer reaches the core only while its side's FIFO has room for
//                            every event in flight (an open needs room on both sides)
//
// The core is free-running (no stall input): it takes at most one event per clock on each side
// and answers each LATENCY cycles later. The wrapper offers an input to the core only while its
// side's result FIFO has room for every result still in flight, so a result never meets a full
// FIFO; with a consumer that keeps up, each side runs at the core's full rate.
//
// What the result streams carry (DECISION): the answer to every event the shell offered and the
// core took (an open on both streams; a SACK, a transmit opportunity, a doorbell on m_axis_send;
// a data packet or probe on m_axis_recv). The send side's timer scan (one cycle in four, its
// source 0) is not the shell's event and is not put on m_axis_send: it could not be held back
// when the consumer stalls. What it finds shows in the counters (status_send_loss_timeout,
// status_send_loss_probe) and in the retransmissions and probes it causes, which leave on
// m_axis_send as transmit results.
//
// The time, s_now (ns), is a side-band input, sampled by the core on every cycle (its timers
// run on it). rst is the core's synchronous reset: no event taken before it comes out after it
// (the core drops its most recent events; the wrapper discards the results of the others, on
// each side's LATENCY cycles after rst), the FIFOs are emptied, and the core sweeps its context
// RAM (`connections` + 1 cycles with status_ready low, every s_*_tready low).
//
// SACK_BITS, LATENCY_SEND and LATENCY_RECV must match the core as generated: their defaults
// are strackgen_params.vh's, written with the core. The widths below are derived: do not override them. Every
// tdata is a multiple of 32 bits; fields LSB first, offsets in bits, unused bits 0:
//
// s_axis_open_tdata (96):     [0 +: 32] psn (ours)  [32 +: 32] peer_psn  [64 +: 16] conn
// s_axis_doorbell_tdata (64): [0 +: 32] bytes  [32 +: 16] conn
// s_axis_sack_tdata (224 + SBP, SBP = SACK_BITS rounded up to 32):
//   [0 +: 32] epsn  [32 +: 32] base  [64 +: 32] bytes  [96 +: 32] ooo  [128 +: 32] ts
//   [160 +: 32] entropy  [192 +: 16] conn  [208] probe  [209] ecn  [224 +: SACK_BITS] bitmap
// s_axis_pkt_tdata (160):
//   [0 +: 32] psn  [32 +: 32] len  [64 +: 32] entropy  [96 +: 32] ts  [128 +: 16] conn
//   [144] ecn  [145] probe  [146] ack_req
// m_axis_send_tdata (160):
//   [0 +: 32] tx_psn  [32 +: 32] tx_len  [64 +: 32] tx_ts  [96 +: 16] tx_entropy
//   [112 +: 16] conn  [128 +: 3] source (1 open, 2 SACK, 3 transmit, 4 doorbell)  [131] bad
//   [132] opened  [133] open_refused  [134] sack_accepted  [135] sack_malformed
//   [136] doorbell_ok  [137] doorbell_refused  [138] tx_valid  [139 +: 2] tx_kind
//   [141] tx_ack_req  [142] loss_valid  [143 +: 2] loss_kind  [145] work
// m_axis_recv_tdata (224 + SBP):
//   [0 +: 32] sack_epsn  [32 +: 32] sack_base  [64 +: 32] sack_bytes_recvd
//   [96 +: 32] sack_ooo_count  [128 +: 32] sack_entropy  [160 +: 32] sack_ts  [192 +: 16] conn
//   [208 +: 3] verdict  [211] bad  [212] trig_coalesce  [213] trig_head_fill  [214] trig_probe
//   [215] trig_ack_req  [216] trig_ecn  [217] sack_valid  [218] sack_ecn  [219] sack_probe
//   [224 +: SACK_BITS] sack_bitmap
// Each field means what the core's port of the same name means (docs/blocks/nic.md and the
// sides' docs, nic_tx.md and nic_rx.md).
`default_nettype none
`include "strackgen_params.vh"
module nic_axis #(
    parameter integer SACK_BITS    = `STRACKGEN_SACK_BITS,
    parameter integer LATENCY_SEND = `STRACKGEN_NIC_SEND_LATENCY,
    parameter integer LATENCY_RECV = `STRACKGEN_NIC_RECV_LATENCY,
    parameter integer SEND_ADDR_W  = $clog2(LATENCY_SEND + 2),
    parameter integer RECV_ADDR_W  = $clog2(LATENCY_RECV + 2),
    parameter integer SBP          = (SACK_BITS + 31) / 32 * 32,
    parameter integer SACK_W       = 224 + SBP,
    parameter integer RECV_W       = 224 + SBP
) (
    input  wire              clk,
    input  wire              rst,
    /// The time, ns (side band, every cycle).
    input  wire [31:0]       s_now,

    input  wire [95:0]       s_axis_open_tdata,
    input  wire              s_axis_open_tvalid,
    output wire              s_axis_open_tready,

    input  wire [SACK_W-1:0] s_axis_sack_tdata,
    input  wire              s_axis_sack_tvalid,
    output wire              s_axis_sack_tready,

    input  wire [63:0]       s_axis_doorbell_tdata,
    input  wire              s_axis_doorbell_tvalid,
    output wire              s_axis_doorbell_tready,

    /// The link takes one packet now (no data: the result on m_axis_send is the packet).
    input  wire              s_txop_valid,
    output wire              s_txop_ready,

    input  wire [159:0]      s_axis_pkt_tdata,
    input  wire              s_axis_pkt_tvalid,
    output wire              s_axis_pkt_tready,

    output wire [159:0]      m_axis_send_tdata,
    output wire              m_axis_send_tvalid,
    input  wire              m_axis_send_tready,

    output wire [RECV_W-1:0] m_axis_recv_tdata,
    output wire              m_axis_recv_tvalid,
    input  wire              m_axis_recv_tready,

    /// The context sweep after a reset is over (the core's status_ready).
    output wire              status_ready,
    output wire [31:0]       status_send_tx_new,
    output wire [31:0]       status_send_tx_retransmit,
    output wire [31:0]       status_send_tx_probe,
    output wire [31:0]       status_send_sack_malformed,
    output wire [31:0]       status_send_loss_ooo,
    output wire [31:0]       status_send_loss_probe,
    output wire [31:0]       status_send_loss_timeout,
    output wire [31:0]       status_send_open_refused,
    output wire [31:0]       status_send_doorbell_refused,
    output wire [31:0]       status_send_bad_conn,
    output wire [31:0]       status_recv_duplicates,
    output wire [31:0]       status_recv_out_of_window,
    output wire [31:0]       status_recv_malformed,
    output wire [31:0]       status_recv_bad_conn
);
    // The parameters must be the core's (strackgen_params.vh): a mismatch stops elaboration in
    // every tool, naming the parameter (an instance of a module that does not exist).
    generate
        if (SACK_BITS != `STRACKGEN_SACK_BITS) begin : g_bad_sack_bits
            nic_axis_parameter_SACK_BITS_is_not_STRACKGEN_SACK_BITS_of_the_generated_core bad();
        end
        if (LATENCY_SEND != `STRACKGEN_NIC_SEND_LATENCY) begin : g_bad_latency_send
            nic_axis_parameter_LATENCY_SEND_is_not_STRACKGEN_NIC_SEND_LATENCY_of_the_core bad();
        end
        if (LATENCY_RECV != `STRACKGEN_NIC_RECV_LATENCY) begin : g_bad_latency_recv
            nic_axis_parameter_LATENCY_RECV_is_not_STRACKGEN_NIC_RECV_LATENCY_of_the_core bad();
        end
    endgenerate

    // Room on each side: the result FIFO holds every event in flight plus this one.
    wire send_room, recv_room;

    // What the core is offered (the test bench reads these names).
    wire core_open_valid     = s_axis_open_tvalid && send_room && recv_room;
    wire core_sack_valid     = s_axis_sack_tvalid && send_room;
    wire core_doorbell_valid = s_axis_doorbell_tvalid && send_room;
    wire core_txop_valid     = s_txop_valid && send_room;
    wire core_pkt_valid      = s_axis_pkt_tvalid && recv_room;
    wire core_open_ready, core_sack_ready, core_doorbell_ready, core_txop_ready, core_pkt_ready;

    assign s_axis_open_tready     = core_open_ready && send_room && recv_room;
    assign s_axis_sack_tready     = core_sack_ready && send_room;
    assign s_axis_doorbell_tready = core_doorbell_ready && send_room;
    assign s_txop_ready           = core_txop_ready && send_room;
    assign s_axis_pkt_tready      = core_pkt_ready && recv_room;

    wire open_taken = core_open_valid && core_open_ready;
    // The send side takes one event per clock, the receive side one: these are 0 or 1.
    wire send_issue = open_taken || (core_sack_valid && core_sack_ready)
                   || (core_doorbell_valid && core_doorbell_ready)
                   || (core_txop_valid && core_txop_ready);
    wire recv_issue = open_taken || (core_pkt_valid && core_pkt_ready);

    wire        send_valid, send_bad, send_opened, send_open_refused, send_sack_accepted;
    wire        send_sack_malformed, send_doorbell_ok, send_doorbell_refused, send_tx_valid;
    wire        send_tx_ack_req, send_loss_valid, send_work;
    wire [15:0] send_conn, send_tx_entropy;
    wire [2:0]  send_source;
    wire [1:0]  send_tx_kind, send_loss_kind;
    wire [31:0] send_tx_psn, send_tx_len, send_tx_ts;

    wire        recv_valid, recv_bad, recv_trig_coalesce, recv_trig_head_fill, recv_trig_probe;
    wire        recv_trig_ack_req, recv_trig_ecn, recv_sack_valid, recv_sack_ecn;
    wire        recv_sack_probe;
    wire [15:0] recv_conn;
    wire [2:0]  recv_verdict;
    wire [31:0] recv_sack_epsn, recv_sack_base, recv_sack_bytes_recvd, recv_sack_ooo_count;
    wire [31:0] recv_sack_entropy, recv_sack_ts;
    wire [SACK_BITS-1:0] recv_sack_bitmap;

    nic core (
        .clock(clk),
        .s_reset(rst),
        .s_now(s_now),
        .s_open_valid(core_open_valid),
        .s_open_ready(core_open_ready),
        .s_open_psn(s_axis_open_tdata[0 +: 32]),
        .s_open_peer_psn(s_axis_open_tdata[32 +: 32]),
        .s_open_conn(s_axis_open_tdata[64 +: 16]),
        .s_sack_valid(core_sack_valid),
        .s_sack_ready(core_sack_ready),
        .s_sack_epsn(s_axis_sack_tdata[0 +: 32]),
        .s_sack_base(s_axis_sack_tdata[32 +: 32]),
        .s_sack_bytes(s_axis_sack_tdata[64 +: 32]),
        .s_sack_ooo(s_axis_sack_tdata[96 +: 32]),
        .s_sack_ts(s_axis_sack_tdata[128 +: 32]),
        .s_sack_entropy(s_axis_sack_tdata[160 +: 32]),
        .s_sack_conn(s_axis_sack_tdata[192 +: 16]),
        .s_sack_probe(s_axis_sack_tdata[208]),
        .s_sack_ecn(s_axis_sack_tdata[209]),
        .s_sack_bitmap(s_axis_sack_tdata[224 +: SACK_BITS]),
        .s_doorbell_valid(core_doorbell_valid),
        .s_doorbell_ready(core_doorbell_ready),
        .s_doorbell_bytes(s_axis_doorbell_tdata[0 +: 32]),
        .s_doorbell_conn(s_axis_doorbell_tdata[32 +: 16]),
        .s_txop_valid(core_txop_valid),
        .s_txop_ready(core_txop_ready),
        .s_pkt_valid(core_pkt_valid),
        .s_pkt_ready(core_pkt_ready),
        .s_pkt_psn(s_axis_pkt_tdata[0 +: 32]),
        .s_pkt_len(s_axis_pkt_tdata[32 +: 32]),
        .s_pkt_entropy(s_axis_pkt_tdata[64 +: 32]),
        .s_pkt_ts(s_axis_pkt_tdata[96 +: 32]),
        .s_pkt_conn(s_axis_pkt_tdata[128 +: 16]),
        .s_pkt_ecn(s_axis_pkt_tdata[144]),
        .s_pkt_probe(s_axis_pkt_tdata[145]),
        .s_pkt_ack_req(s_axis_pkt_tdata[146]),
        .m_send_valid(send_valid),
        .m_send_bad(send_bad),
        .m_send_conn(send_conn),
        .m_send_source(send_source),
        .m_send_opened(send_opened),
        .m_send_open_refused(send_open_refused),
        .m_send_sack_accepted(send_sack_accepted),
        .m_send_sack_malformed(send_sack_malformed),
        .m_send_doorbell_ok(send_doorbell_ok),
        .m_send_doorbell_refused(send_doorbell_refused),
        .m_send_tx_valid(send_tx_valid),
        .m_send_tx_psn(send_tx_psn),
        .m_send_tx_len(send_tx_len),
        .m_send_tx_kind(send_tx_kind),
        .m_send_tx_ack_req(send_tx_ack_req),
        .m_send_tx_entropy(send_tx_entropy),
        .m_send_tx_ts(send_tx_ts),
        .m_send_loss_valid(send_loss_valid),
        .m_send_loss_kind(send_loss_kind),
        .m_send_work(send_work),
        .m_recv_valid(recv_valid),
        .m_recv_bad(recv_bad),
        .m_recv_conn(recv_conn),
        .m_recv_verdict(recv_verdict),
        .m_recv_trig_coalesce(recv_trig_coalesce),
        .m_recv_trig_head_fill(recv_trig_head_fill),
        .m_recv_trig_probe(recv_trig_probe),
        .m_recv_trig_ack_req(recv_trig_ack_req),
        .m_recv_trig_ecn(recv_trig_ecn),
        .m_recv_sack_valid(recv_sack_valid),
        .m_recv_sack_epsn(recv_sack_epsn),
        .m_recv_sack_base(recv_sack_base),
        .m_recv_sack_bitmap(recv_sack_bitmap),
        .m_recv_sack_bytes_recvd(recv_sack_bytes_recvd),
        .m_recv_sack_ooo_count(recv_sack_ooo_count),
        .m_recv_sack_entropy(recv_sack_entropy),
        .m_recv_sack_ecn(recv_sack_ecn),
        .m_recv_sack_ts(recv_sack_ts),
        .m_recv_sack_probe(recv_sack_probe),
        .status_ready(status_ready),
        .status_send_tx_new(status_send_tx_new),
        .status_send_tx_retransmit(status_send_tx_retransmit),
        .status_send_tx_probe(status_send_tx_probe),
        .status_send_sack_malformed(status_send_sack_malformed),
        .status_send_loss_ooo(status_send_loss_ooo),
        .status_send_loss_probe(status_send_loss_probe),
        .status_send_loss_timeout(status_send_loss_timeout),
        .status_send_open_refused(status_send_open_refused),
        .status_send_doorbell_refused(status_send_doorbell_refused),
        .status_send_bad_conn(status_send_bad_conn),
        .status_recv_duplicates(status_recv_duplicates),
        .status_recv_out_of_window(status_recv_out_of_window),
        .status_recv_malformed(status_recv_malformed),
        .status_recv_bad_conn(status_recv_bad_conn)
    );

    // The timer scan's results (source 0) are not the shell's events.
    wire send_result = send_valid && send_source != 3'd0;

    strack_axis_result_buffer #(.WIDTH(160), .ADDR_W(SEND_ADDR_W),
                                .RESET_FLUSH(LATENCY_SEND)) send_results (
        .clk(clk),
        .rst(rst),
        .step_ready(send_room),
        .step_issue(send_issue),
        .core_valid(send_result),
        .core_data({14'd0, send_work, send_loss_kind, send_loss_valid, send_tx_ack_req,
                    send_tx_kind, send_tx_valid, send_doorbell_refused, send_doorbell_ok,
                    send_sack_malformed, send_sack_accepted, send_open_refused, send_opened,
                    send_bad, send_source, send_conn, send_tx_entropy, send_tx_ts, send_tx_len,
                    send_tx_psn}),
        .m_axis_tdata(m_axis_send_tdata),
        .m_axis_tvalid(m_axis_send_tvalid),
        .m_axis_tready(m_axis_send_tready)
    );

    wire [SBP-1:0] recv_bitmap_padded = {{(SBP - SACK_BITS){1'b0}}, recv_sack_bitmap};
    strack_axis_result_buffer #(.WIDTH(RECV_W), .ADDR_W(RECV_ADDR_W), .RESET_FLUSH(LATENCY_RECV))
    recv_results (
        .clk(clk),
        .rst(rst),
        .step_ready(recv_room),
        .step_issue(recv_issue),
        .core_valid(recv_valid),
        .core_data({recv_bitmap_padded, 4'd0, recv_sack_probe, recv_sack_ecn, recv_sack_valid,
                    recv_trig_ecn, recv_trig_ack_req, recv_trig_probe, recv_trig_head_fill,
                    recv_trig_coalesce, recv_bad, recv_verdict, recv_conn, recv_sack_ts,
                    recv_sack_entropy, recv_sack_ooo_count, recv_sack_bytes_recvd,
                    recv_sack_base, recv_sack_epsn}),
        .m_axis_tdata(m_axis_recv_tdata),
        .m_axis_tvalid(m_axis_recv_tvalid),
        .m_axis_tready(m_axis_recv_tready)
    );
endmodule
`default_nettype wire
