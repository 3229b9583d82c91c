// Test bench of the AXI-Stream wrappers (run by tests/fpga.rs under Icarus Verilog).
//
// Each wrapper runs beside a bare core that is stepped on exactly the cycles the wrapper
// accepts a beat, with the fields cut from the beat by the documented layout (part-selects at
// running offsets, not the wrapper's concatenation). Every beat the wrapper emits must equal
// the bare core's next result, in order, none lost or repeated, under random gaps, random
// back-pressure, a long stall that fills the FIFO, and a stretch of full rate where s_axis must
// stay ready. Prints PASS or the first mismatch.
`timescale 1ns/1ps
`default_nettype none
`include "strackgen_params.vh"
module tb;
    localparam integer SB = `STRACKGEN_SACK_BITS;
    localparam integer K  = `STRACKGEN_LT_SLOTS;
    localparam integer W  = `STRACKGEN_LT_LOAD_BITS;
    localparam integer LT_IN_W   = 16 + 1 + K * (W + 1) + 1 + K * (W + 4);
    localparam integer LT_OUT_W  = 1 + K * (W + 4) + K * W + 16;
    localparam integer NIC_IN_W  = 12 * 32 + 10 + SB;
    localparam integer NIC_OUT_W = 12 * 32 + 22 + SB;
    localparam integer CYCLES = 6000;
    localparam integer QUEUE  = 8192;

    reg clk = 0;
    always #1 clk = !clk;
    reg rst = 1;
    integer cycle = 0;
    integer errors = 0;

    // Phases: [0, 2000) random; [2000, 3000) full rate; [3000, 3400) consumer stalled;
    // [3400, 5000) random; [5000, CYCLES) no input, consumer ready (drain).
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
    localparam integer LT_O_UPD = 16, LT_O_DEL = 17, LT_O_FB = 17 + K * (W + 1),
                       LT_O_PL = LT_O_FB + 1;
    wire                lt_ref_valid, lt_ref_bad;
    wire [K*(W+4)-1:0]  lt_ref_pl;
    wire [K*W-1:0]      lt_ref_row;
    wire [15:0]         lt_ref_sat;
    wire [31:0]         lt_ref_c0, lt_ref_c1, lt_ref_c2;
    load_table lt_ref (
        .clock(clk), .s_valid(lt_in_valid && lt_in_ready),
        .s_link(lt_in[15:0]), .s_update(lt_in[LT_O_UPD]),
        .s_deltas(lt_in[LT_O_DEL +: K*(W+1)]), .s_feedback(lt_in[LT_O_FB]),
        .s_path_load(lt_in[LT_O_PL +: K*(W+4)]), .s_tick(lt_tick),
        .m_valid(lt_ref_valid), .m_bad(lt_ref_bad), .m_path_load(lt_ref_pl), .m_row(lt_ref_row),
        .m_sat_mask(lt_ref_sat), .status_sat_count(lt_ref_c0), .status_bad_count(lt_ref_c1),
        .status_tick_count(lt_ref_c2)
    );
    reg [LT_OUT_W-1:0] lt_q [0:QUEUE-1];
    integer lt_wr = 0, lt_rd = 0;

    // ------------------------------------------------------------------ NIC
    reg  [NIC_IN_W-1:0]  nic_in;
    reg                  nic_in_valid, nic_out_ready;
    wire                 nic_in_ready, nic_out_valid;
    wire [NIC_OUT_W-1:0] nic_out;
    strack_nic_axis #(.SACK_BITS(SB), .LATENCY(`STRACKGEN_NIC_LATENCY)) nic_dut (
        .clk(clk), .rst(rst),
        .s_axis_tdata(nic_in), .s_axis_tvalid(nic_in_valid), .s_axis_tready(nic_in_ready),
        .m_axis_tdata(nic_out), .m_axis_tvalid(nic_out_valid), .m_axis_tready(nic_out_ready)
    );
    // Input offsets, in the documented order.
    localparam integer I_NOW = 0, I_SV = 32, I_SEPSN = 33, I_SBASE = 65, I_SBM = 97,
        I_SBYTES = 97 + SB, I_SOOO = I_SBYTES + 32, I_STS = I_SOOO + 32, I_SPROBE = I_STS + 32,
        I_NV = I_SPROBE + 1, I_NLEN = I_NV + 1, I_NACK = I_NLEN + 32, I_TXR = I_NACK + 1,
        I_SENT = I_TXR + 1, I_SECN = I_SENT + 32, I_RV = I_SECN + 1, I_RPSN = I_RV + 1,
        I_RLEN = I_RPSN + 32, I_RENT = I_RLEN + 32, I_RECN = I_RENT + 32, I_RTS = I_RECN + 1,
        I_RPROBE = I_RTS + 32, I_RACK = I_RPROBE + 1;
    wire [NIC_OUT_W-1:0] nic_ref_out;
    wire                 nic_ref_valid;
    strack_nic nic_ref (
        .clock(clk), .s_valid(nic_in_valid && nic_in_ready),
        .s_now(nic_in[I_NOW +: 32]), .s_sack_valid(nic_in[I_SV]),
        .s_sack_epsn(nic_in[I_SEPSN +: 32]), .s_sack_base(nic_in[I_SBASE +: 32]),
        .s_sack_bitmap(nic_in[I_SBM +: SB]), .s_sack_bytes_recvd(nic_in[I_SBYTES +: 32]),
        .s_sack_ooo_count(nic_in[I_SOOO +: 32]), .s_sack_ts(nic_in[I_STS +: 32]),
        .s_sack_probe(nic_in[I_SPROBE]), .s_new_valid(nic_in[I_NV]),
        .s_new_len(nic_in[I_NLEN +: 32]), .s_new_ack_req(nic_in[I_NACK]),
        .s_tx_ready(nic_in[I_TXR]), .s_sack_entropy(nic_in[I_SENT +: 32]),
        .s_sack_ecn(nic_in[I_SECN]), .s_rx_valid(nic_in[I_RV]), .s_rx_psn(nic_in[I_RPSN +: 32]),
        .s_rx_len(nic_in[I_RLEN +: 32]), .s_rx_entropy(nic_in[I_RENT +: 32]),
        .s_rx_ecn(nic_in[I_RECN]), .s_rx_ts(nic_in[I_RTS +: 32]),
        .s_rx_probe(nic_in[I_RPROBE]), .s_rx_ack_req(nic_in[I_RACK]),
        .m_valid(nic_ref_valid),
        // Output offsets, in the documented order.
        .m_tx_valid(nic_ref_out[0]), .m_tx_psn(nic_ref_out[1 +: 32]),
        .m_tx_len(nic_ref_out[33 +: 32]), .m_tx_entropy(nic_ref_out[65 +: 32]),
        .m_tx_ts(nic_ref_out[97 +: 32]), .m_tx_probe(nic_ref_out[129]),
        .m_tx_ack_req(nic_ref_out[130]), .m_tx_kind(nic_ref_out[131 +: 2]),
        .m_new_accepted(nic_ref_out[133]), .m_sack_verdict(nic_ref_out[134 +: 2]),
        .m_cwnd_branch_valid(nic_ref_out[136]), .m_cwnd_branch(nic_ref_out[137 +: 3]),
        .m_loss(nic_ref_out[140 +: 2]), .m_cwnd_q(nic_ref_out[142 +: 32]),
        .m_inflight(nic_ref_out[174 +: 32]), .m_recovery(nic_ref_out[206]),
        .m_rx_valid(nic_ref_out[207]), .m_rx_verdict(nic_ref_out[208 +: 3]),
        .m_tx_sack_valid(nic_ref_out[211]), .m_tx_sack_epsn(nic_ref_out[212 +: 32]),
        .m_tx_sack_base(nic_ref_out[244 +: 32]), .m_tx_sack_bitmap(nic_ref_out[276 +: SB]),
        .m_tx_sack_bytes_recvd(nic_ref_out[276 + SB +: 32]),
        .m_tx_sack_ooo_count(nic_ref_out[308 + SB +: 32]),
        .m_tx_sack_entropy(nic_ref_out[340 + SB +: 32]),
        .m_tx_sack_ecn(nic_ref_out[372 + SB]), .m_tx_sack_ts(nic_ref_out[373 + SB +: 32]),
        .m_tx_sack_probe(nic_ref_out[405 + SB])
    );
    reg [NIC_OUT_W-1:0] nic_q [0:QUEUE-1];
    integer nic_wr = 0, nic_rd = 0;

    // ------------------------------------------------------------------ stimulus
    integer r, i;
    integer lt_full_rate_stalls = 0, nic_full_rate_stalls = 0;
    integer lt_max_fill = 0, nic_max_fill = 0;
    task automatic randomize_inputs;
        begin
            for (i = 0; i < LT_IN_W; i = i + 32) lt_in[i +: 32] = $random;
            // Mostly links that exist, mostly small deltas: keep the table busy, not saturated.
            lt_in[15:0] = $random % 8;
            for (i = 0; i < NIC_IN_W; i = i + 32) nic_in[i +: 32] = $random;
            nic_in[I_NOW +: 32] = cycle * 10;
        end
    endtask

    initial begin
        lt_in = 0; nic_in = 0;
        lt_in_valid = 0; lt_out_ready = 0; lt_tick = 0;
        nic_in_valid = 0; nic_out_ready = 0;
        repeat (4) @(posedge clk);
        #0.1 rst = 0;
    end

    always @(negedge clk) if (!rst) begin
        // New inputs only once the offered beat was taken (AXI: hold while valid and not ready).
        r = $random;
        if (!(lt_in_valid && !lt_in_ready) && !(nic_in_valid && !nic_in_ready))
            randomize_inputs;
        if (!(lt_in_valid && !lt_in_ready)) lt_in_valid = in_valid(cycle, r);
        if (!(nic_in_valid && !nic_in_ready)) nic_in_valid = in_valid(cycle, r >> 8);
        lt_out_ready = out_ready(cycle, r >> 12);
        nic_out_ready = out_ready(cycle, r >> 20);
        lt_tick = (r[30:27] == 0);
    end

    always @(posedge clk) if (!rst) begin
        cycle <= cycle + 1;
        if (lt_ref_valid) begin
            lt_q[lt_wr % QUEUE] <= {lt_ref_sat, lt_ref_row, lt_ref_pl, lt_ref_bad};
            lt_wr <= lt_wr + 1;
        end
        if (nic_ref_valid) begin
            nic_q[nic_wr % QUEUE] <= nic_ref_out;
            nic_wr <= nic_wr + 1;
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
        if (nic_out_valid && nic_out_ready) begin
            if (nic_rd >= nic_wr || nic_out !== nic_q[nic_rd % QUEUE]) begin
                if (errors == 0)
                    $display("FAIL strack_nic_axis: beat %0d at cycle %0d: got %h expected %h",
                             nic_rd, cycle, nic_out, nic_q[nic_rd % QUEUE]);
                errors = errors + 1;
            end
            nic_rd <= nic_rd + 1;
        end
        // A result must never meet a full FIFO.
        if (lt_dut.results.fifo.s_axis_tvalid && !lt_dut.results.fifo.s_axis_tready) begin
            if (errors == 0) $display("FAIL load_table_axis: result FIFO overflow, cycle %0d", cycle);
            errors = errors + 1;
        end
        if (nic_dut.results.fifo.s_axis_tvalid && !nic_dut.results.fifo.s_axis_tready) begin
            if (errors == 0) $display("FAIL strack_nic_axis: result FIFO overflow, cycle %0d", cycle);
            errors = errors + 1;
        end
        if (cycle >= 2100 && cycle < 3000) begin
            if (!lt_in_ready) lt_full_rate_stalls = lt_full_rate_stalls + 1;
            if (!nic_in_ready) nic_full_rate_stalls = nic_full_rate_stalls + 1;
        end
        if (lt_dut.results.fifo_count > lt_max_fill) lt_max_fill = lt_dut.results.fifo_count;
        if (nic_dut.results.fifo_count > nic_max_fill) nic_max_fill = nic_dut.results.fifo_count;
        if (cycle == CYCLES) begin
            if (lt_rd != lt_wr || nic_rd != nic_wr) begin
                $display("FAIL beats lost: load_table %0d of %0d, strack_nic %0d of %0d",
                         lt_rd, lt_wr, nic_rd, nic_wr);
                errors = errors + 1;
            end
            if (lt_full_rate_stalls != 0 || nic_full_rate_stalls != 0) begin
                $display("FAIL not one beat per clock at full rate: %0d / %0d cycles not ready",
                         lt_full_rate_stalls, nic_full_rate_stalls);
                errors = errors + 1;
            end
            if (lt_max_fill != (1 << 4) || nic_max_fill != (1 << $clog2(`STRACKGEN_NIC_LATENCY + 2))) begin
                $display("FAIL the stall did not fill the FIFOs (%0d, %0d)", lt_max_fill,
                         nic_max_fill);
                errors = errors + 1;
            end
            if (lt_wr < 2000 || nic_wr < 2000) begin
                $display("FAIL too few beats (%0d, %0d)", lt_wr, nic_wr);
                errors = errors + 1;
            end
            if (errors == 0)
                $display("PASS load_table_axis %0d beats, strack_nic_axis %0d beats", lt_rd,
                         nic_rd);
            $finish;
        end
    end
endmodule
`default_nettype wire
