// load_table_axis: AXI-Stream wrapper of the generated `load_table` core (MLCC switch load
// table, docs/blocks/load_table.md). One beat in = one packet; one beat out per packet, in order.
//
//   s_axis_* ──► unpack ──► load_table (LATENCY 6, free-running) ──► pack ──► FIFO ──► m_axis_*
//                  ▲                                                             │
//                  └──────────── s_axis_tready: room for every packet in flight ◄┘
//
// K, W and the link field width must match the config the core was generated from: their
// defaults are strackgen_params.vh's, written with the core. IN_W and OUT_W are derived: do not
// override them.
//
// s_axis_tdata, LSB first:               m_axis_tdata, LSB first:
//   [15:0]          link                   [0]             bad (forwarded unchanged, counted)
//   [16]            update                 [1 +: K*(W+4)]  path load (after this hop)
//   [17 +: K*(W+1)] deltas (signed W+1)    next K*W        row (this link, after the update)
//   next 1          feedback               next 16         saturation mask (bit k: slot k)
//   next K*(W+4)    path load (in)
//
// The slot boundary, `s_tick`, is a side-band pulse from the switch's slot timer, not a beat:
// it may come on any cycle, with or without a packet.
`default_nettype none
`include "strackgen_params.vh"
module load_table_axis #(
    parameter integer K        = `STRACKGEN_LT_SLOTS,
    parameter integer W        = `STRACKGEN_LT_LOAD_BITS,
    parameter integer FIFO_ADDR_W = 4,
    parameter integer IN_W     = 16 + 1 + K * (W + 1) + 1 + K * (W + 4),
    parameter integer OUT_W    = 1 + K * (W + 4) + K * W + 16
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
    wire step_ready;
    wire step = s_axis_tvalid && step_ready;
    assign s_axis_tready = step_ready;

    wire [15:0]          s_link;
    wire                 s_update;
    wire [K*(W+1)-1:0]   s_deltas;
    wire                 s_feedback;
    wire [K*(W+4)-1:0]   s_path_load;
    assign {s_path_load, s_feedback, s_deltas, s_update, s_link} = s_axis_tdata;

    wire                 core_valid;
    wire                 m_bad;
    wire [K*(W+4)-1:0]   m_path_load;
    wire [K*W-1:0]       m_row;
    wire [15:0]          m_sat_mask;

    load_table core (
        .clock(clk),
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

    strack_axis_result_buffer #(.WIDTH(OUT_W), .ADDR_W(FIFO_ADDR_W)) results (
        .clk(clk),
        .rst(rst),
        .step_ready(step_ready),
        .step_issue(step),
        .core_valid(core_valid),
        .core_data({m_sat_mask, m_row, m_path_load, m_bad}),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready)
    );
endmodule
`default_nettype wire
