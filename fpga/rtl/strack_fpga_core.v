// strack_fpga_core: the portable part of the board tops. Both wrapped cores, each driven by a
// stream exerciser; the board top adds only the clock, the reset and the LEDs.
//
//   exerciser ─s_axis─► strack_nic_axis ─m_axis─► exerciser ─► signature ─┐
//   exerciser ─s_axis─► load_table_axis ─m_axis─► exerciser ─► signature ─┴─► status_leds
//
// strackgen_params.vh (written by `strackgen verilog`) gives the widths of the generated
// cores: STRACKGEN_SACK_BITS, STRACKGEN_LT_SLOTS, STRACKGEN_LT_LOAD_BITS.
`default_nettype none
`include "strackgen_params.vh"
module strack_fpga_core (
    input  wire       clk,
    input  wire       rst,
    output wire [7:0] status_leds
);
    localparam integer SB = `STRACKGEN_SACK_BITS;
    localparam integer K  = `STRACKGEN_LT_SLOTS;
    localparam integer W  = `STRACKGEN_LT_LOAD_BITS;
    localparam integer NIC_IN_W  = 12 * 32 + 10 + SB;
    localparam integer NIC_OUT_W = 12 * 32 + 22 + SB;
    localparam integer LT_IN_W   = 16 + 1 + K * (W + 1) + 1 + K * (W + 4);
    localparam integer LT_OUT_W  = 1 + K * (W + 4) + K * W + 16;

    wire [NIC_IN_W-1:0]  nic_in_tdata;
    wire                 nic_in_tvalid, nic_in_tready;
    wire [NIC_OUT_W-1:0] nic_out_tdata;
    wire                 nic_out_tvalid, nic_out_tready;
    wire [31:0]          nic_signature;

    /* verilator lint_off PINCONNECTEMPTY */
    stream_exerciser #(.OUT_W(NIC_IN_W), .IN_W(NIC_OUT_W), .SEED(32'h5EED_0001)) nic_stim (
        .clk(clk), .rst(rst),
        .m_axis_tdata(nic_in_tdata), .m_axis_tvalid(nic_in_tvalid), .m_axis_tready(nic_in_tready),
        .s_axis_tdata(nic_out_tdata), .s_axis_tvalid(nic_out_tvalid),
        .s_axis_tready(nic_out_tready),
        .tick(), .signature(nic_signature)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    strack_nic_axis #(.SACK_BITS(SB), .LATENCY(`STRACKGEN_NIC_LATENCY)) nic (
        .clk(clk), .rst(rst),
        .s_axis_tdata(nic_in_tdata), .s_axis_tvalid(nic_in_tvalid), .s_axis_tready(nic_in_tready),
        .m_axis_tdata(nic_out_tdata), .m_axis_tvalid(nic_out_tvalid),
        .m_axis_tready(nic_out_tready)
    );

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
