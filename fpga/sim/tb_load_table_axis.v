// Test bench of load_table_axis (run by tests/fpga.rs under Icarus Verilog; the NIC's wrapper
// has its own, tb_nic_axis.v).
//
// The wrapper runs beside a bare core that is stepped on exactly the cycles the wrapper
// accepts a beat, with the fields cut from the beat by the generated descriptor layout
// (strackgen_layout.vh: what strack_descriptors.h gives drivers), not the wrapper's own
// offsets; the input beats' unused bits are random. Every beat the wrapper emits must equal
// the bare core's next result laid out by the same layout, unused bits 0, in order, none lost or repeated, under random gaps, random
// back-pressure, a long stall that fills the FIFO, and a stretch of full rate where s_axis must
// stay ready. A reset with packets in flight (both cores get it) drops them: the beats owed
// before it are not expected after it, and the streams go on. Prints PASS or the first
// mismatch.
`timescale 1ns/1ps
`default_nettype none
`include "strackgen_params.vh"
`include "strackgen_layout.vh"
module tb;
    localparam integer K  = `STRACKGEN_LT_SLOTS;
    localparam integer W  = `STRACKGEN_LT_LOAD_BITS;
    localparam integer LT_IN_W   = `STRACKGEN_LT_IN_TDATA_WIDTH;
    localparam integer LT_OUT_W  = `STRACKGEN_LT_OUT_TDATA_WIDTH;
    localparam integer CYCLES = 6000;
    localparam integer QUEUE  = 8192;
    localparam integer RESET_AT = 1000;

    reg clk = 0;
    always #1 clk = !clk;
    reg rst = 1;
    integer power_on = 0;
    reg started = 0;        // the power-on reset is over
    integer cycle = 0;      // cycles since then
    integer errors = 0;

    // Phases: [0, 2000) random, with a reset on cycles RESET_AT and RESET_AT + 1; [2000, 3000)
    // full rate; [3000, 3400) consumer stalled; [3400, 5000) random; [5000, CYCLES) no input,
    // consumer ready (drain).
    function automatic in_valid(input integer c, input integer r);
        in_valid = (c < 2000) ? r[0] : (c < 3400) ? 1'b1 : (c < 5000) ? (r[1] | r[2]) : 1'b0;
    endfunction
    function automatic out_ready(input integer c, input integer r);
        out_ready = (c < 2000) ? (r[3] | r[4]) : (c < 3000) ? 1'b1 : (c < 3400) ? 1'b0
                  : (c < 5000) ? r[5] : 1'b1;
    endfunction

    // ------------------------------------------------------------------ load table
    reg  [LT_IN_W-1:0]  lt_in;
    reg                 lt_in_valid, lt_out_ready, lt_tick;
    wire                lt_in_ready, lt_out_valid;
    wire [LT_OUT_W-1:0] lt_out;
    wire [31:0]         lt_sat, lt_bad, lt_ticks;
    load_table_axis #(.K(K), .W(W)) lt_dut (
        .clk(clk), .rst(rst), .s_tick(lt_tick),
        .s_axis_tdata(lt_in), .s_axis_tvalid(lt_in_valid), .s_axis_tready(lt_in_ready),
        .m_axis_tdata(lt_out), .m_axis_tvalid(lt_out_valid), .m_axis_tready(lt_out_ready),
        .status_sat_count(lt_sat), .status_bad_count(lt_bad), .status_tick_count(lt_ticks)
    );
    // The bare core's inputs cut from the beat by the layout.
    wire [K*(W+1)-1:0]  lt_cut_deltas;
    wire [K*(W+4)-1:0]  lt_cut_pl;
    genvar g;
    generate
        for (g = 0; g < K; g = g + 1) begin : g_cut
            assign lt_cut_deltas[g*(W+1) +: W+1] = lt_in[`STRACKGEN_LT_IN_DELTA_BIT
                + g * `STRACKGEN_LT_IN_DELTA_STRIDE +: `STRACKGEN_LT_IN_DELTA_WIDTH];
            assign lt_cut_pl[g*(W+4) +: W+4] = lt_in[`STRACKGEN_LT_IN_PATH_LOAD_BIT
                + g * `STRACKGEN_LT_IN_PATH_LOAD_STRIDE +: `STRACKGEN_LT_IN_PATH_LOAD_WIDTH];
        end
    endgenerate
    wire                lt_ref_valid, lt_ref_bad;
    wire [K*(W+4)-1:0]  lt_ref_pl;
    wire [K*W-1:0]      lt_ref_row;
    wire [15:0]         lt_ref_sat;
    wire [31:0]         lt_ref_c0, lt_ref_c1, lt_ref_c2;
    load_table lt_ref (
        .clock(clk), .s_reset(rst), .s_valid(lt_in_valid && lt_in_ready),
        .s_link(lt_in[`STRACKGEN_LT_IN_LINK_BIT +: `STRACKGEN_LT_IN_LINK_WIDTH]),
        .s_update(lt_in[`STRACKGEN_LT_IN_UPDATE_BIT]),
        .s_deltas(lt_cut_deltas), .s_feedback(lt_in[`STRACKGEN_LT_IN_FEEDBACK_BIT]),
        .s_path_load(lt_cut_pl), .s_tick(lt_tick),
        .m_valid(lt_ref_valid), .m_bad(lt_ref_bad), .m_path_load(lt_ref_pl), .m_row(lt_ref_row),
        .m_sat_mask(lt_ref_sat), .status_sat_count(lt_ref_c0), .status_bad_count(lt_ref_c1),
        .status_tick_count(lt_ref_c2)
    );
    // The beat the wrapper must emit: the bare core's result laid out, unused bits 0.
    reg [LT_OUT_W-1:0] lt_ref_beat;
    integer j;
    always @* begin
        lt_ref_beat = {LT_OUT_W{1'b0}};
        lt_ref_beat[`STRACKGEN_LT_OUT_BAD_BIT] = lt_ref_bad;
        lt_ref_beat[`STRACKGEN_LT_OUT_SAT_MASK_BIT +: `STRACKGEN_LT_OUT_SAT_MASK_WIDTH] = lt_ref_sat;
        for (j = 0; j < K; j = j + 1) begin
            lt_ref_beat[`STRACKGEN_LT_OUT_PATH_LOAD_BIT + j * `STRACKGEN_LT_OUT_PATH_LOAD_STRIDE
                +: `STRACKGEN_LT_OUT_PATH_LOAD_WIDTH] = lt_ref_pl[j*(W+4) +: W+4];
            lt_ref_beat[`STRACKGEN_LT_OUT_ROW_BIT + j * `STRACKGEN_LT_OUT_ROW_STRIDE
                +: `STRACKGEN_LT_OUT_ROW_WIDTH] = lt_ref_row[j*W +: W];
        end
    end
    reg [LT_OUT_W-1:0] lt_q [0:QUEUE-1];
    integer lt_wr = 0, lt_rd = 0;

    // ------------------------------------------------------------------ stimulus
    integer r, i;
    integer lt_full_rate_stalls = 0;
    integer lt_max_fill = 0;
    task automatic randomize_inputs;
        begin
            for (i = 0; i < LT_IN_W; i = i + 32) lt_in[i +: 32] = $random;
            // Mostly links that exist, mostly small deltas: keep the table busy, not saturated.
            lt_in[`STRACKGEN_LT_IN_LINK_BIT +: `STRACKGEN_LT_IN_LINK_WIDTH] = $random % 8;
        end
    endtask

    initial begin
        lt_in = 0;
        lt_in_valid = 0; lt_out_ready = 0; lt_tick = 0;
    end

    always @(negedge clk) begin
        power_on = power_on + 1;
        rst = power_on < 4 || (started && cycle >= RESET_AT && cycle < RESET_AT + 2);
        if (started) begin
            // New inputs only once the offered beat was taken (AXI: hold while valid and not
            // ready; the wrapper takes none during a reset).
            r = $random;
            if (!(lt_in_valid && !lt_in_ready))
                randomize_inputs;
            if (!(lt_in_valid && !lt_in_ready)) lt_in_valid = in_valid(cycle, r);
            lt_out_ready = out_ready(cycle, r >> 12);
            lt_tick = (r[30:27] == 0);
        end
    end

    always @(posedge clk) begin
        if (!rst) started <= 1;
        if (started) cycle <= cycle + 1;
        if (rst) begin
            // The wrapper's FIFO is emptied and both cores drop what is in flight: nothing
            // owed before the reset comes out after it.
            lt_rd <= lt_wr;
        end else begin
            if (lt_ref_valid) begin
                lt_q[lt_wr % QUEUE] <= lt_ref_beat;
                lt_wr <= lt_wr + 1;
            end
            if (lt_out_valid && lt_out_ready) begin
                if (lt_rd >= lt_wr || lt_out !== lt_q[lt_rd % QUEUE]) begin
                    if (errors == 0)
                        $display("FAIL load_table_axis: beat %0d at cycle %0d: got %h expected %h",
                                 lt_rd, cycle, lt_out, lt_q[lt_rd % QUEUE]);
                    errors = errors + 1;
                end
                lt_rd <= lt_rd + 1;
            end
        end
        if (started && cycle == RESET_AT && lt_dut.results.inflight_reg == 0) begin
            if (errors == 0) $display("FAIL load_table_axis: nothing in flight at the reset");
            errors = errors + 1;
        end
        // A result must never meet a full FIFO.
        if (lt_dut.results.fifo.s_axis_tvalid && !lt_dut.results.fifo.s_axis_tready) begin
            if (errors == 0) $display("FAIL load_table_axis: result FIFO overflow, cycle %0d", cycle);
            errors = errors + 1;
        end
        if (cycle >= 2100 && cycle < 3000) begin
            if (!lt_in_ready) lt_full_rate_stalls = lt_full_rate_stalls + 1;
        end
        if (lt_dut.results.fifo_count > lt_max_fill) lt_max_fill = lt_dut.results.fifo_count;
        if (cycle == CYCLES) begin
            if (lt_rd != lt_wr) begin
                $display("FAIL beats lost: load_table %0d of %0d", lt_rd, lt_wr);
                errors = errors + 1;
            end
            if (lt_full_rate_stalls != 0) begin
                $display("FAIL not one beat per clock at full rate: %0d cycles not ready",
                         lt_full_rate_stalls);
                errors = errors + 1;
            end
            if (lt_max_fill != (1 << 4)) begin
                $display("FAIL the stall did not fill the FIFO (%0d)", lt_max_fill);
                errors = errors + 1;
            end
            if (lt_wr < 2000) begin
                $display("FAIL too few beats (%0d)", lt_wr);
                errors = errors + 1;
            end
            if (errors == 0)
                $display("PASS load_table_axis %0d beats", lt_rd);
            $finish;
        end
    end
endmodule
`default_nettype wire
