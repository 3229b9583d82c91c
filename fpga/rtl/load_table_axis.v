// load_table_axis: AXI-Stream wrapper of the generated `load_table` core (MLCC switch load
// table, docs/blocks/load_table.md). One beat in = one packet; one beat out per packet, in order.
//
//   s_axis_* ──► unpack ──► load_table (LATENCY 6, free-running) ──► pack ──► FIFO ──► m_axis_*
//                  ▲                                                             │
//                  └──────────── s_axis_tready: room for every packet in flight ◄┘
//
// K, W, LATENCY and the link field width must match the config the core was generated from:
// their defaults are strackgen_params.vh's, written with the core. IN_W and OUT_W are derived:
// do not override them.
//
// rst is the core's synchronous reset (s_reset) too: the core drops the packets in flight and
// its table reads as empty from the next cycle (docs/blocks/load_table.md, "Reset"); the result
// FIFO is emptied and its credit restarts at 0 (RESET_FLUSH = LATENCY: no packet taken before
// rst comes out after it). No beat is taken while rst is high.
//
// Descriptors (docs/blocks/load_table.md, "Descriptors"; strack_descriptors.h in the package):
// every field of 8 bits or more on a byte, each slot's value in its own lane of whole bytes,
// unused bits 0 on output and ignored on input. DS, PS, RS: W + 1, W + 4, W rounded up to 8.
//
// s_axis_tdata (IN_W = 24 + K*DS + K*PS):   m_axis_tdata (OUT_W = 24 + K*PS + K*RS):
//   [0 +: 16]            link                 [0]                  bad
//   [16]                 update               [8 +: 16]            saturation mask (bit k: slot k)
//   [17]                 feedback             [24 + k*PS +: W+4]   path load k (after this hop)
//   [24 + k*DS +: W+1]   delta k (signed)     [24 + K*PS + k*RS +: W]  row k (this link, after)
//   [24 + K*DS + k*PS +: W+4]  path load k (in)
//
// The slot boundary, `s_tick`, is a side-band pulse from the switch's slot timer, not a beat:
// it may come on any cycle, with or without a packet.
`default_nettype none
`include "strackgen_params.vh"
module load_table_axis #(
    parameter integer K        = `STRACKGEN_LT_SLOTS,
    parameter integer W        = `STRACKGEN_LT_LOAD_BITS,
    parameter integer LATENCY  = `STRACKGEN_LT_LATENCY,
    parameter integer FIFO_ADDR_W = 4,
    parameter integer DS       = (W + 1 + 7) / 8 * 8,
    parameter integer PS       = (W + 4 + 7) / 8 * 8,
    parameter integer RS       = (W + 7) / 8 * 8,
    parameter integer IN_W     = 24 + K * DS + K * PS,
    parameter integer OUT_W    = 24 + K * PS + K * RS
) (
    input  wire             clk,
    input  wire             rst,
    /// Slot boundary (one clock pulse).
    input  wire             s_tick,

    input  wire [IN_W-1:0]  s_axis_tdata,
    input  wire             s_axis_tvalid,
    output wire             s_axis_tready,

    output wire [OUT_W-1:0] m_axis_tdata,
    output wire             m_axis_tvalid,
    input  wire             m_axis_tready,

    output wire [31:0]      status_sat_count,
    output wire [31:0]      status_bad_count,
    output wire [31:0]      status_tick_count
);
    // The parameters must be the core's (strackgen_params.vh): a mismatch stops elaboration in
    // every tool, naming the parameter (an instance of a module that does not exist).
    generate
        if (K != `STRACKGEN_LT_SLOTS) begin : g_bad_k
            load_table_axis_parameter_K_is_not_STRACKGEN_LT_SLOTS_of_the_generated_core bad_k();
        end
        if (W != `STRACKGEN_LT_LOAD_BITS) begin : g_bad_w
            load_table_axis_parameter_W_is_not_STRACKGEN_LT_LOAD_BITS_of_the_generated_core bad_w();
        end
        if (LATENCY != `STRACKGEN_LT_LATENCY) begin : g_bad_latency
            load_table_axis_parameter_LATENCY_is_not_STRACKGEN_LT_LATENCY_of_the_core bad_latency();
        end
    endgenerate

    wire step_ready;
    wire step = s_axis_tvalid && step_ready;
    assign s_axis_tready = step_ready;

    wire [15:0]          s_link = s_axis_tdata[0 +: 16];
    wire                 s_update = s_axis_tdata[16];
    wire                 s_feedback = s_axis_tdata[17];
    wire [K*(W+1)-1:0]   s_deltas;
    wire [K*(W+4)-1:0]   s_path_load;

    wire                 core_valid;
    wire                 m_bad;
    wire [K*(W+4)-1:0]   m_path_load;
    wire [K*W-1:0]       m_row;
    wire [15:0]          m_sat_mask;
    wire [OUT_W-1:0]     m_packed;

    // Each slot's values from and into their byte lanes; the lanes' spare bits are 0 out.
    genvar k;
    generate
        for (k = 0; k < K; k = k + 1) begin : g_slot
            assign s_deltas[k*(W+1) +: W+1] = s_axis_tdata[24 + k*DS +: W+1];
            assign s_path_load[k*(W+4) +: W+4] = s_axis_tdata[24 + K*DS + k*PS +: W+4];
            assign m_packed[24 + k*PS +: W+4] = m_path_load[k*(W+4) +: W+4];
            assign m_packed[24 + K*PS + k*RS +: W] = m_row[k*W +: W];
            if (PS > W + 4) begin : g_pl_pad
                assign m_packed[24 + k*PS + W+4 +: PS-(W+4)] = {(PS-(W+4)){1'b0}};
            end
            if (RS > W) begin : g_row_pad
                assign m_packed[24 + K*PS + k*RS + W +: RS-W] = {(RS-W){1'b0}};
            end
        end
    endgenerate
    assign m_packed[0] = m_bad;
    assign m_packed[7:1] = 7'd0;
    assign m_packed[8 +: 16] = m_sat_mask;

    load_table core (
        .clock(clk),
        .s_reset(rst),
        .s_valid(step),
        .s_link(s_link),
        .s_update(s_update),
        .s_deltas(s_deltas),
        .s_feedback(s_feedback),
        .s_path_load(s_path_load),
        .s_tick(s_tick),
        .m_valid(core_valid),
        .m_bad(m_bad),
        .m_path_load(m_path_load),
        .m_row(m_row),
        .m_sat_mask(m_sat_mask),
        .status_sat_count(status_sat_count),
        .status_bad_count(status_bad_count),
        .status_tick_count(status_tick_count)
    );

    strack_axis_result_buffer #(.WIDTH(OUT_W), .ADDR_W(FIFO_ADDR_W), .RESET_FLUSH(LATENCY))
        results (
        .clk(clk),
        .rst(rst),
        .step_ready(step_ready),
        .step_issue(step),
        .core_valid(core_valid),
        .core_data(m_packed),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );
endmodule
`default_nettype wire
