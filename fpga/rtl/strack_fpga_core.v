// strack_fpga_core: the portable part of the board tops. Both wrapped cores, each stream driven
// or taken by a stream exerciser; the board top adds only the clock, the reset and the LEDs.
//
//   exerciser ─s_axis_open─────► nic_axis ─m_axis_send─► exerciser (SACKs) ─► signature ─┐
//   exerciser ─s_axis_sack─────►    │     ─m_axis_recv─► exerciser (packets) ► signature ─┤
//   exerciser ─s_axis_doorbell─►    │      s_txop: always (a link that is always ready)    │
//   exerciser ─s_axis_pkt──────►    │      s_now: a nanosecond count at 125 MHz            │
//   exerciser ─s_axis─► load_table_axis ─m_axis─► exerciser ─► signature ─────────────────┴─► LEDs
//
// strackgen_params.vh (written by `strackgen verilog`) gives the widths and latencies of the
// generated cores: STRACKGEN_SACK_BITS, STRACKGEN_NIC_*_LATENCY, STRACKGEN_LT_SLOTS,
// STRACKGEN_LT_LOAD_BITS; strackgen_layout.vh the descriptors' widths.
`default_nettype none
`include "strackgen_params.vh"
`include "strackgen_layout.vh"
module strack_fpga_core (
    input  wire       clk,
    input  wire       rst,
    output wire [7:0] status_leds
);
    localparam integer SB = `STRACKGEN_SACK_BITS;
    localparam integer K  = `STRACKGEN_LT_SLOTS;
    localparam integer W  = `STRACKGEN_LT_LOAD_BITS;
    localparam integer SBP = (SB + 31) / 32 * 32;
    localparam integer LT_IN_W   = `STRACKGEN_LT_IN_TDATA_WIDTH;
    localparam integer LT_OUT_W  = `STRACKGEN_LT_OUT_TDATA_WIDTH;

    // ------------------------------------------------------------------ NIC
    wire [95:0]        open_tdata;
    wire [224+SBP-1:0] sack_tdata;
    wire [63:0]        doorbell_tdata;
    wire [159:0]       pkt_tdata;
    wire [159:0]       send_tdata;
    wire [224+SBP-1:0] recv_tdata;
    wire open_tvalid, open_tready, sack_tvalid, sack_tready, doorbell_tvalid, doorbell_tready;
    wire pkt_tvalid, pkt_tready, send_tvalid, send_tready, recv_tvalid, recv_tready;
    wire [31:0] sig_open, sig_sack, sig_doorbell, sig_pkt;
    reg  [31:0] now_reg = 32'h0;
    always @(posedge clk) now_reg <= now_reg + 32'd8;

    /* verilator lint_off PINCONNECTEMPTY */
    // Opens and doorbells take no result stream (tied idle); SACKs take the send results and
    // data packets the receive results.
    stream_exerciser #(.OUT_W(96), .IN_W(1), .SEED(32'h5EED_0001)) open_stim (
        .clk(clk), .rst(rst),
        .m_axis_tdata(open_tdata), .m_axis_tvalid(open_tvalid), .m_axis_tready(open_tready),
        .s_axis_tdata(1'b0), .s_axis_tvalid(1'b0), .s_axis_tready(),
        .tick(), .signature(sig_open)
    );
    stream_exerciser #(.OUT_W(224 + SBP), .IN_W(160), .SEED(32'h5EED_0003)) sack_stim (
        .clk(clk), .rst(rst),
        .m_axis_tdata(sack_tdata), .m_axis_tvalid(sack_tvalid), .m_axis_tready(sack_tready),
        .s_axis_tdata(send_tdata), .s_axis_tvalid(send_tvalid), .s_axis_tready(send_tready),
        .tick(), .signature(sig_sack)
    );
    stream_exerciser #(.OUT_W(64), .IN_W(1), .SEED(32'h5EED_0004)) doorbell_stim (
        .clk(clk), .rst(rst),
        .m_axis_tdata(doorbell_tdata), .m_axis_tvalid(doorbell_tvalid),
        .m_axis_tready(doorbell_tready),
        .s_axis_tdata(1'b0), .s_axis_tvalid(1'b0), .s_axis_tready(),
        .tick(), .signature(sig_doorbell)
    );
    stream_exerciser #(.OUT_W(160), .IN_W(224 + SBP), .SEED(32'h5EED_0005)) pkt_stim (
        .clk(clk), .rst(rst),
        .m_axis_tdata(pkt_tdata), .m_axis_tvalid(pkt_tvalid), .m_axis_tready(pkt_tready),
        .s_axis_tdata(recv_tdata), .s_axis_tvalid(recv_tvalid), .s_axis_tready(recv_tready),
        .tick(), .signature(sig_pkt)
    );

    wire        nic_ready;
    wire [31:0] c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13;
    nic_axis #(.SACK_BITS(SB), .LATENCY_SEND(`STRACKGEN_NIC_SEND_LATENCY),
               .LATENCY_RECV(`STRACKGEN_NIC_RECV_LATENCY)) nic (
        .clk(clk), .rst(rst), .s_now(now_reg),
        .s_axis_open_tdata(open_tdata), .s_axis_open_tvalid(open_tvalid),
        .s_axis_open_tready(open_tready),
        .s_axis_sack_tdata(sack_tdata), .s_axis_sack_tvalid(sack_tvalid),
        .s_axis_sack_tready(sack_tready),
        .s_axis_doorbell_tdata(doorbell_tdata), .s_axis_doorbell_tvalid(doorbell_tvalid),
        .s_axis_doorbell_tready(doorbell_tready),
        .s_txop_valid(1'b1), .s_txop_ready(),
        .s_axis_pkt_tdata(pkt_tdata), .s_axis_pkt_tvalid(pkt_tvalid),
        .s_axis_pkt_tready(pkt_tready),
        .m_axis_send_tdata(send_tdata), .m_axis_send_tvalid(send_tvalid),
        .m_axis_send_tready(send_tready),
        .m_axis_recv_tdata(recv_tdata), .m_axis_recv_tvalid(recv_tvalid),
        .m_axis_recv_tready(recv_tready),
        .status_ready(nic_ready),
        .status_send_tx_new(c0), .status_send_tx_retransmit(c1), .status_send_tx_probe(c2),
        .status_send_sack_malformed(c3), .status_send_loss_ooo(c4),
        .status_send_loss_probe(c5), .status_send_loss_timeout(c6),
        .status_send_open_refused(c7), .status_send_doorbell_refused(c8),
        .status_send_bad_conn(c9), .status_recv_duplicates(c10),
        .status_recv_out_of_window(c11), .status_recv_malformed(c12),
        .status_recv_bad_conn(c13)
    );
    /* verilator lint_on PINCONNECTEMPTY */
    wire [31:0] nic_signature = sig_open ^ sig_sack ^ sig_doorbell ^ sig_pkt ^ c0 ^ c1 ^ c2 ^ c3
                              ^ c4 ^ c5 ^ c6 ^ c7 ^ c8 ^ c9 ^ c10 ^ c11 ^ c12 ^ c13
                              ^ {31'd0, nic_ready};

    // ------------------------------------------------------------------ load table
    wire [LT_IN_W-1:0]  lt_in_tdata;
    wire                lt_in_tvalid, lt_in_tready;
    wire [LT_OUT_W-1:0] lt_out_tdata;
    wire                lt_out_tvalid, lt_out_tready;
    wire                lt_tick;
    wire [31:0]         lt_signature;
    wire [31:0]         lt_sat_count, lt_bad_count, lt_tick_count;

    stream_exerciser #(.OUT_W(LT_IN_W), .IN_W(LT_OUT_W), .SEED(32'h5EED_0002)) lt_stim (
        .clk(clk), .rst(rst),
        .m_axis_tdata(lt_in_tdata), .m_axis_tvalid(lt_in_tvalid), .m_axis_tready(lt_in_tready),
        .s_axis_tdata(lt_out_tdata), .s_axis_tvalid(lt_out_tvalid),
        .s_axis_tready(lt_out_tready),
        .tick(lt_tick), .signature(lt_signature)
    );

    load_table_axis #(.K(K), .W(W)) lt (
        .clk(clk), .rst(rst), .s_tick(lt_tick),
        .s_axis_tdata(lt_in_tdata), .s_axis_tvalid(lt_in_tvalid), .s_axis_tready(lt_in_tready),
        .m_axis_tdata(lt_out_tdata), .m_axis_tvalid(lt_out_tvalid),
        .m_axis_tready(lt_out_tready),
        .status_sat_count(lt_sat_count), .status_bad_count(lt_bad_count),
        .status_tick_count(lt_tick_count)
    );

    // Registered, so the LED pins never sit on a path from the cores.
    wire [31:0] all = nic_signature ^ lt_signature ^ lt_sat_count ^ lt_bad_count ^ lt_tick_count;
    reg [7:0] leds_reg = 8'h0;
    always @(posedge clk) leds_reg <= all[7:0] ^ all[15:8] ^ all[23:16] ^ all[31:24];
    assign status_leds = leds_reg;
endmodule
`default_nettype wire
