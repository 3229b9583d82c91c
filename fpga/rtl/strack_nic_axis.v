// strack_nic_axis: AXI-Stream wrapper of the generated `strack_nic` core (one connection's
// STrack NIC, docs/blocks/strack_nic.md). One beat in = one step of the NIC (a received SACK,
// a received data packet and a new packet to send, each with its own valid bit, and the time);
// one beat out per step, in order, with what the step sent and decided.
//
//   s_axis_* ──► unpack ──► strack_nic (LATENCY, free-running) ──► pack ──► FIFO ──► m_axis_*
//                  ▲                                                             │
//                  └──────────── s_axis_tready: room for every step in flight ◄──┘
//
// Timers (probe, retransmission timeout, bitmap reset) advance only with steps: a shell sends
// an idle step (every valid bit 0, the current time) when it has nothing else, as often as it
// wants those timers resolved. The shell splits m_axis into its packet and SACK transmit
// paths (m_tx_valid, m_tx_sack_valid).
//
// SACK_BITS and LATENCY must match the core as generated (`sack_bits` and the NIC's latency,
// 16 today: strackgen writes both to strackgen_params.vh). The result FIFO holds every step in
// flight plus one, so that s_axis stays ready at full rate: 2^FIFO_ADDR_W >= LATENCY + 2.
// IN_W and OUT_W are derived: do not override them.
//
// s_axis_tdata, LSB first (widths in brackets; B = SACK_BITS):
//   now[32] sack_valid[1] sack_epsn[32] sack_base[32] sack_bitmap[B] sack_bytes_recvd[32]
//   sack_ooo_count[32] sack_ts[32] sack_probe[1] new_valid[1] new_len[32] new_ack_req[1]
//   tx_ready[1] sack_entropy[32] sack_ecn[1] rx_valid[1] rx_psn[32] rx_len[32] rx_entropy[32]
//   rx_ecn[1] rx_ts[32] rx_probe[1] rx_ack_req[1]
// m_axis_tdata, LSB first:
//   tx_valid[1] tx_psn[32] tx_len[32] tx_entropy[32] tx_ts[32] tx_probe[1] tx_ack_req[1]
//   tx_kind[2] new_accepted[1] sack_verdict[2] cwnd_branch_valid[1] cwnd_branch[3] loss[2]
//   cwnd_q[32] inflight[32] recovery[1] rx_valid[1] rx_verdict[3] tx_sack_valid[1]
//   tx_sack_epsn[32] tx_sack_base[32] tx_sack_bitmap[B] tx_sack_bytes_recvd[32]
//   tx_sack_ooo_count[32] tx_sack_entropy[32] tx_sack_ecn[1] tx_sack_ts[32] tx_sack_probe[1]
`default_nettype none
module strack_nic_axis #(
    parameter integer SACK_BITS   = 64,
    parameter integer LATENCY     = 16,
    parameter integer FIFO_ADDR_W = $clog2(LATENCY + 2),
    parameter integer IN_W  = 12 * 32 + 10 + SACK_BITS,
    parameter integer OUT_W = 12 * 32 + 22 + SACK_BITS
) (
    input  wire             clk,
    input  wire             rst,

    input  wire [IN_W-1:0]  s_axis_tdata,
    input  wire             s_axis_tvalid,
    output wire             s_axis_tready,

    output wire [OUT_W-1:0] m_axis_tdata,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready
);
    wire step_ready;
    wire step = s_axis_tvalid && step_ready;
    assign s_axis_tready = step_ready;

    wire [31:0] s_now, s_sack_epsn, s_sack_base, s_sack_bytes_recvd, s_sack_ooo_count, s_sack_ts;
    wire [31:0] s_new_len, s_sack_entropy, s_rx_psn, s_rx_len, s_rx_entropy, s_rx_ts;
    wire [SACK_BITS-1:0] s_sack_bitmap;
    wire s_sack_valid, s_sack_probe, s_new_valid, s_new_ack_req, s_tx_ready, s_sack_ecn;
    wire s_rx_valid, s_rx_ecn, s_rx_probe, s_rx_ack_req;
    assign {s_rx_ack_req, s_rx_probe, s_rx_ts, s_rx_ecn, s_rx_entropy, s_rx_len, s_rx_psn,
            s_rx_valid, s_sack_ecn, s_sack_entropy, s_tx_ready, s_new_ack_req, s_new_len,
            s_new_valid, s_sack_probe, s_sack_ts, s_sack_ooo_count, s_sack_bytes_recvd,
            s_sack_bitmap, s_sack_base, s_sack_epsn, s_sack_valid, s_now} = s_axis_tdata;

    wire core_valid;
    wire [31:0] m_tx_psn, m_tx_len, m_tx_entropy, m_tx_ts, m_cwnd_q, m_inflight;
    wire [31:0] m_tx_sack_epsn, m_tx_sack_base, m_tx_sack_bytes_recvd, m_tx_sack_ooo_count;
    wire [31:0] m_tx_sack_entropy, m_tx_sack_ts;
    wire [SACK_BITS-1:0] m_tx_sack_bitmap;
    wire [2:0] m_cwnd_branch, m_rx_verdict;
    wire [1:0] m_tx_kind, m_sack_verdict, m_loss;
    wire m_tx_valid, m_tx_probe, m_tx_ack_req, m_new_accepted, m_cwnd_branch_valid;
    wire m_recovery, m_rx_valid, m_tx_sack_valid, m_tx_sack_ecn, m_tx_sack_probe;

    strack_nic core (
        .clock(clk),
        .s_valid(step),
        .s_now(s_now),
        .s_sack_valid(s_sack_valid),
        .s_sack_epsn(s_sack_epsn),
        .s_sack_base(s_sack_base),
        .s_sack_bitmap(s_sack_bitmap),
        .s_sack_bytes_recvd(s_sack_bytes_recvd),
        .s_sack_ooo_count(s_sack_ooo_count),
        .s_sack_ts(s_sack_ts),
        .s_sack_probe(s_sack_probe),
        .s_new_valid(s_new_valid),
        .s_new_len(s_new_len),
        .s_new_ack_req(s_new_ack_req),
        .s_tx_ready(s_tx_ready),
        .s_sack_entropy(s_sack_entropy),
        .s_sack_ecn(s_sack_ecn),
        .s_rx_valid(s_rx_valid),
        .s_rx_psn(s_rx_psn),
        .s_rx_len(s_rx_len),
        .s_rx_entropy(s_rx_entropy),
        .s_rx_ecn(s_rx_ecn),
        .s_rx_ts(s_rx_ts),
        .s_rx_probe(s_rx_probe),
        .s_rx_ack_req(s_rx_ack_req),
        .m_valid(core_valid),
        .m_tx_valid(m_tx_valid),
        .m_tx_psn(m_tx_psn),
        .m_tx_len(m_tx_len),
        .m_tx_entropy(m_tx_entropy),
        .m_tx_ts(m_tx_ts),
        .m_tx_probe(m_tx_probe),
        .m_tx_ack_req(m_tx_ack_req),
        .m_tx_kind(m_tx_kind),
        .m_new_accepted(m_new_accepted),
        .m_sack_verdict(m_sack_verdict),
        .m_cwnd_branch_valid(m_cwnd_branch_valid),
        .m_cwnd_branch(m_cwnd_branch),
        .m_loss(m_loss),
        .m_cwnd_q(m_cwnd_q),
        .m_inflight(m_inflight),
        .m_recovery(m_recovery),
        .m_rx_valid(m_rx_valid),
        .m_rx_verdict(m_rx_verdict),
        .m_tx_sack_valid(m_tx_sack_valid),
        .m_tx_sack_epsn(m_tx_sack_epsn),
        .m_tx_sack_base(m_tx_sack_base),
        .m_tx_sack_bitmap(m_tx_sack_bitmap),
        .m_tx_sack_bytes_recvd(m_tx_sack_bytes_recvd),
        .m_tx_sack_ooo_count(m_tx_sack_ooo_count),
        .m_tx_sack_entropy(m_tx_sack_entropy),
        .m_tx_sack_ecn(m_tx_sack_ecn),
        .m_tx_sack_ts(m_tx_sack_ts),
        .m_tx_sack_probe(m_tx_sack_probe)
    );

    strack_axis_result_buffer #(.WIDTH(OUT_W), .ADDR_W(FIFO_ADDR_W)) results (
        .clk(clk),
        .rst(rst),
        .step_ready(step_ready),
        .step_issue(step),
        .core_valid(core_valid),
        .core_data({m_tx_sack_probe, m_tx_sack_ts, m_tx_sack_ecn, m_tx_sack_entropy,
                    m_tx_sack_ooo_count, m_tx_sack_bytes_recvd, m_tx_sack_bitmap,
                    m_tx_sack_base, m_tx_sack_epsn, m_tx_sack_valid, m_rx_verdict, m_rx_valid,
                    m_recovery, m_inflight, m_cwnd_q, m_loss, m_cwnd_branch,
                    m_cwnd_branch_valid, m_sack_verdict, m_new_accepted, m_tx_kind,
                    m_tx_ack_req, m_tx_probe, m_tx_ts, m_tx_entropy, m_tx_len, m_tx_psn,
                    m_tx_valid}),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );
endmodule
`default_nettype wire
