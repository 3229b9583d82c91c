// Test bench of nic_axis (run by tests/fpga.rs, built by Verilator as a stand-alone simulation).
//
// The wrapper runs beside a bare `nic` core offered what the documented credit rule allows (this
// bench's own count per side of the shell's events taken and not yet consumed, against each
// FIFO's depth; an open needs room on both sides), with the fields cut from the beats, and the
// expected result beats laid out, by the generated descriptor layout (strackgen_layout.vh: what
// strack_descriptors.h gives drivers), not the wrapper's own offsets. Checks:
// - every beat on m_axis_send / m_axis_recv equals the bare core's next result of an event the
//   shell offered (timer-scan results left out), in order, none lost or repeated;
// - a beat is accepted on an input exactly when the bare core takes that event;
// - a result never meets a full FIFO; with the consumers always ready the FIFOs never hold an
//   input back; a long consumer stall fills both FIFOs;
// - a reset with events in flight drops them and the streams go on after the sweep at full
//   rate (the FIFOs' credit restarts from 0);
// - the stimulus did its job: packets sent, SACKs sent, opens taken on both sides.
// Random gaps on every input, random back-pressure on both outputs. Prints PASS or the first
// failure.
`timescale 1ns/1ps
`default_nettype none
`include "strackgen_params.vh"
`include "strackgen_layout.vh"
module tb;
    localparam integer SB     = `STRACKGEN_SACK_BITS;
    localparam integer SBP    = (SB + 31) / 32 * 32;
    localparam integer CONNS  = `STRACKGEN_NIC_CONNECTIONS;
    localparam integer LS     = `STRACKGEN_NIC_SEND_LATENCY;
    localparam integer LR     = `STRACKGEN_NIC_RECV_LATENCY;
    localparam integer SACK_W = 224 + SBP;
    localparam integer RECV_W = 224 + SBP;
    localparam integer SWEEP  = CONNS + 1;
    // Phases, in cycles after the first sweep: [0, 1500) random; a reset at 1500 with events in
    // flight on both sides, its sweep, random again to 3000 + SWEEP; then 1000 cycles of random
    // inputs with the consumers always ready; 400 with the consumers stalled; random to
    // END - 600; [END - 600, END) no input (drain).
    localparam integer RESET_AT = 1500;
    localparam integer FULL_AT  = 3000 + SWEEP;
    localparam integer STALL_AT = FULL_AT + 1000;
    localparam integer END      = STALL_AT + 2400;
    localparam integer QUEUE    = 16384;

    reg clk = 0;
    always #1 clk = !clk;
    reg rst = 1;
    integer cycle = 0;      // cycles since the first sweep ended
    integer errors = 0;
    reg [31:0] now = 0;
    always @(posedge clk) now <= now + 8;

    // ------------------------------------------------------------------ stimulus registers
    reg [95:0]       open_d = 0;   reg open_v = 0;
    reg [SACK_W-1:0] sack_d = 0;   reg sack_v = 0;
    reg [63:0]       db_d = 0;     reg db_v = 0;
    reg              txop_v = 0;
    reg [159:0]      pkt_d = 0;    reg pkt_v = 0;
    reg              send_rdy = 0, recv_rdy = 0;

    wire open_r, sack_r, db_r, txop_r, pkt_r;
    wire [159:0]      send_d;
    wire [RECV_W-1:0] recv_d;
    wire send_v, recv_v;
    wire dut_ready;
    /* verilator lint_off PINCONNECTEMPTY */
    nic_axis #(.SACK_BITS(SB), .LATENCY_SEND(LS), .LATENCY_RECV(LR)) dut (
        .clk(clk), .rst(rst), .s_now(now),
        .s_axis_open_tdata(open_d), .s_axis_open_tvalid(open_v), .s_axis_open_tready(open_r),
        .s_axis_sack_tdata(sack_d), .s_axis_sack_tvalid(sack_v), .s_axis_sack_tready(sack_r),
        .s_axis_doorbell_tdata(db_d), .s_axis_doorbell_tvalid(db_v),
        .s_axis_doorbell_tready(db_r),
        .s_txop_valid(txop_v), .s_txop_ready(txop_r),
        .s_axis_pkt_tdata(pkt_d), .s_axis_pkt_tvalid(pkt_v), .s_axis_pkt_tready(pkt_r),
        .m_axis_send_tdata(send_d), .m_axis_send_tvalid(send_v), .m_axis_send_tready(send_rdy),
        .m_axis_recv_tdata(recv_d), .m_axis_recv_tvalid(recv_v), .m_axis_recv_tready(recv_rdy),
        .status_ready(dut_ready),
        .status_send_tx_new(), .status_send_tx_retransmit(), .status_send_tx_probe(),
        .status_send_sack_malformed(), .status_send_loss_ooo(), .status_send_loss_probe(),
        .status_send_loss_timeout(), .status_send_open_refused(),
        .status_send_doorbell_refused(), .status_send_bad_conn(), .status_recv_duplicates(),
        .status_recv_out_of_window(), .status_recv_malformed(), .status_recv_bad_conn()
    );

    // ------------------------------------------------------------------ the bare core
    wire ref_open_r, ref_sack_r, ref_db_r, ref_txop_r, ref_pkt_r, ref_ready;
    // The credit rule, kept here: results owed per side (events taken since the last reset,
    // less beats consumed) below the FIFO's depth.
    localparam integer DEPTH_SEND = 1 << $clog2(LS + 2), DEPTH_RECV = 1 << $clog2(LR + 2);
    integer send_owed = 0, recv_owed = 0;
    wire send_room = !rst && send_owed < DEPTH_SEND;
    wire recv_room = !rst && recv_owed < DEPTH_RECV;
    wire off_open = open_v && send_room && recv_room;
    wire off_sack = sack_v && send_room;
    wire off_db   = db_v && send_room;
    wire off_txop = txop_v && send_room;
    wire off_pkt  = pkt_v && recv_room;
    wire        rs_valid, rr_valid;
    wire [2:0]  rs_source;
    wire [159:0]      ref_send;   // packed by the generated layout (strackgen_layout.vh)
    wire [RECV_W-1:0] ref_recv;
    assign ref_send[159:146] = 0;
    assign ref_recv[223:220] = 0;
    if (SBP > SB) begin : pad
        assign ref_recv[224 + SB +: SBP - SB] = 0;
    end
    assign ref_send[`STRACKGEN_NIC_SEND_SOURCE_BIT +: `STRACKGEN_NIC_SEND_SOURCE_WIDTH] = rs_source;
    nic bare (
        .clock(clk),
        .s_reset(rst),
        .s_now(now),
        .s_open_valid(off_open),
        .s_open_ready(ref_open_r),
        .s_open_psn(open_d[`STRACKGEN_NIC_OPEN_PSN_BIT +: `STRACKGEN_NIC_OPEN_PSN_WIDTH]),
        .s_open_peer_psn(open_d[`STRACKGEN_NIC_OPEN_PEER_PSN_BIT +: `STRACKGEN_NIC_OPEN_PEER_PSN_WIDTH]),
        .s_open_conn(open_d[`STRACKGEN_NIC_OPEN_CONN_BIT +: `STRACKGEN_NIC_OPEN_CONN_WIDTH]),
        .s_sack_valid(off_sack),
        .s_sack_ready(ref_sack_r),
        .s_sack_epsn(sack_d[`STRACKGEN_NIC_SACK_EPSN_BIT +: `STRACKGEN_NIC_SACK_EPSN_WIDTH]),
        .s_sack_base(sack_d[`STRACKGEN_NIC_SACK_BASE_BIT +: `STRACKGEN_NIC_SACK_BASE_WIDTH]),
        .s_sack_bytes(sack_d[`STRACKGEN_NIC_SACK_BYTES_BIT +: `STRACKGEN_NIC_SACK_BYTES_WIDTH]),
        .s_sack_ooo(sack_d[`STRACKGEN_NIC_SACK_OOO_BIT +: `STRACKGEN_NIC_SACK_OOO_WIDTH]),
        .s_sack_ts(sack_d[`STRACKGEN_NIC_SACK_TS_BIT +: `STRACKGEN_NIC_SACK_TS_WIDTH]),
        .s_sack_entropy(sack_d[`STRACKGEN_NIC_SACK_ENTROPY_BIT +: `STRACKGEN_NIC_SACK_ENTROPY_WIDTH]),
        .s_sack_conn(sack_d[`STRACKGEN_NIC_SACK_CONN_BIT +: `STRACKGEN_NIC_SACK_CONN_WIDTH]),
        .s_sack_probe(sack_d[`STRACKGEN_NIC_SACK_PROBE_BIT]),
        .s_sack_ecn(sack_d[`STRACKGEN_NIC_SACK_ECN_BIT]),
        .s_sack_bitmap(sack_d[`STRACKGEN_NIC_SACK_BITMAP_BIT +: `STRACKGEN_NIC_SACK_BITMAP_WIDTH]),
        .s_doorbell_valid(off_db),
        .s_doorbell_ready(ref_db_r),
        .s_doorbell_bytes(db_d[`STRACKGEN_NIC_DOORBELL_BYTES_BIT +: `STRACKGEN_NIC_DOORBELL_BYTES_WIDTH]),
        .s_doorbell_conn(db_d[`STRACKGEN_NIC_DOORBELL_CONN_BIT +: `STRACKGEN_NIC_DOORBELL_CONN_WIDTH]),
        .s_txop_valid(off_txop),
        .s_txop_ready(ref_txop_r),
        .s_pkt_valid(off_pkt),
        .s_pkt_ready(ref_pkt_r),
        .s_pkt_psn(pkt_d[`STRACKGEN_NIC_PKT_PSN_BIT +: `STRACKGEN_NIC_PKT_PSN_WIDTH]),
        .s_pkt_len(pkt_d[`STRACKGEN_NIC_PKT_LEN_BIT +: `STRACKGEN_NIC_PKT_LEN_WIDTH]),
        .s_pkt_entropy(pkt_d[`STRACKGEN_NIC_PKT_ENTROPY_BIT +: `STRACKGEN_NIC_PKT_ENTROPY_WIDTH]),
        .s_pkt_ts(pkt_d[`STRACKGEN_NIC_PKT_TS_BIT +: `STRACKGEN_NIC_PKT_TS_WIDTH]),
        .s_pkt_conn(pkt_d[`STRACKGEN_NIC_PKT_CONN_BIT +: `STRACKGEN_NIC_PKT_CONN_WIDTH]),
        .s_pkt_ecn(pkt_d[`STRACKGEN_NIC_PKT_ECN_BIT]),
        .s_pkt_probe(pkt_d[`STRACKGEN_NIC_PKT_PROBE_BIT]),
        .s_pkt_ack_req(pkt_d[`STRACKGEN_NIC_PKT_ACK_REQ_BIT]),
        .m_send_valid(rs_valid),
        .m_send_tx_psn(ref_send[`STRACKGEN_NIC_SEND_TX_PSN_BIT +: `STRACKGEN_NIC_SEND_TX_PSN_WIDTH]),
        .m_send_tx_len(ref_send[`STRACKGEN_NIC_SEND_TX_LEN_BIT +: `STRACKGEN_NIC_SEND_TX_LEN_WIDTH]),
        .m_send_tx_ts(ref_send[`STRACKGEN_NIC_SEND_TX_TS_BIT +: `STRACKGEN_NIC_SEND_TX_TS_WIDTH]),
        .m_send_tx_entropy(ref_send[`STRACKGEN_NIC_SEND_TX_ENTROPY_BIT +: `STRACKGEN_NIC_SEND_TX_ENTROPY_WIDTH]),
        .m_send_conn(ref_send[`STRACKGEN_NIC_SEND_CONN_BIT +: `STRACKGEN_NIC_SEND_CONN_WIDTH]),
        .m_send_source(rs_source),
        .m_send_bad(ref_send[`STRACKGEN_NIC_SEND_BAD_BIT]),
        .m_send_opened(ref_send[`STRACKGEN_NIC_SEND_OPENED_BIT]),
        .m_send_open_refused(ref_send[`STRACKGEN_NIC_SEND_OPEN_REFUSED_BIT]),
        .m_send_sack_accepted(ref_send[`STRACKGEN_NIC_SEND_SACK_ACCEPTED_BIT]),
        .m_send_sack_malformed(ref_send[`STRACKGEN_NIC_SEND_SACK_MALFORMED_BIT]),
        .m_send_doorbell_ok(ref_send[`STRACKGEN_NIC_SEND_DOORBELL_OK_BIT]),
        .m_send_doorbell_refused(ref_send[`STRACKGEN_NIC_SEND_DOORBELL_REFUSED_BIT]),
        .m_send_tx_valid(ref_send[`STRACKGEN_NIC_SEND_TX_VALID_BIT]),
        .m_send_tx_kind(ref_send[`STRACKGEN_NIC_SEND_TX_KIND_BIT +: `STRACKGEN_NIC_SEND_TX_KIND_WIDTH]),
        .m_send_tx_ack_req(ref_send[`STRACKGEN_NIC_SEND_TX_ACK_REQ_BIT]),
        .m_send_loss_valid(ref_send[`STRACKGEN_NIC_SEND_LOSS_VALID_BIT]),
        .m_send_loss_kind(ref_send[`STRACKGEN_NIC_SEND_LOSS_KIND_BIT +: `STRACKGEN_NIC_SEND_LOSS_KIND_WIDTH]),
        .m_send_work(ref_send[`STRACKGEN_NIC_SEND_WORK_BIT]),
        .m_recv_valid(rr_valid),
        .m_recv_sack_epsn(ref_recv[`STRACKGEN_NIC_RECV_SACK_EPSN_BIT +: `STRACKGEN_NIC_RECV_SACK_EPSN_WIDTH]),
        .m_recv_sack_base(ref_recv[`STRACKGEN_NIC_RECV_SACK_BASE_BIT +: `STRACKGEN_NIC_RECV_SACK_BASE_WIDTH]),
        .m_recv_sack_bytes_recvd(ref_recv[`STRACKGEN_NIC_RECV_SACK_BYTES_RECVD_BIT +: `STRACKGEN_NIC_RECV_SACK_BYTES_RECVD_WIDTH]),
        .m_recv_sack_ooo_count(ref_recv[`STRACKGEN_NIC_RECV_SACK_OOO_COUNT_BIT +: `STRACKGEN_NIC_RECV_SACK_OOO_COUNT_WIDTH]),
        .m_recv_sack_entropy(ref_recv[`STRACKGEN_NIC_RECV_SACK_ENTROPY_BIT +: `STRACKGEN_NIC_RECV_SACK_ENTROPY_WIDTH]),
        .m_recv_sack_ts(ref_recv[`STRACKGEN_NIC_RECV_SACK_TS_BIT +: `STRACKGEN_NIC_RECV_SACK_TS_WIDTH]),
        .m_recv_conn(ref_recv[`STRACKGEN_NIC_RECV_CONN_BIT +: `STRACKGEN_NIC_RECV_CONN_WIDTH]),
        .m_recv_verdict(ref_recv[`STRACKGEN_NIC_RECV_VERDICT_BIT +: `STRACKGEN_NIC_RECV_VERDICT_WIDTH]),
        .m_recv_bad(ref_recv[`STRACKGEN_NIC_RECV_BAD_BIT]),
        .m_recv_trig_coalesce(ref_recv[`STRACKGEN_NIC_RECV_TRIG_COALESCE_BIT]),
        .m_recv_trig_head_fill(ref_recv[`STRACKGEN_NIC_RECV_TRIG_HEAD_FILL_BIT]),
        .m_recv_trig_probe(ref_recv[`STRACKGEN_NIC_RECV_TRIG_PROBE_BIT]),
        .m_recv_trig_ack_req(ref_recv[`STRACKGEN_NIC_RECV_TRIG_ACK_REQ_BIT]),
        .m_recv_trig_ecn(ref_recv[`STRACKGEN_NIC_RECV_TRIG_ECN_BIT]),
        .m_recv_sack_valid(ref_recv[`STRACKGEN_NIC_RECV_SACK_VALID_BIT]),
        .m_recv_sack_ecn(ref_recv[`STRACKGEN_NIC_RECV_SACK_ECN_BIT]),
        .m_recv_sack_probe(ref_recv[`STRACKGEN_NIC_RECV_SACK_PROBE_BIT]),
        .m_recv_sack_bitmap(ref_recv[`STRACKGEN_NIC_RECV_SACK_BITMAP_BIT +: `STRACKGEN_NIC_RECV_SACK_BITMAP_WIDTH]),
        .status_ready(ref_ready),
        .status_send_tx_new(), .status_send_tx_retransmit(), .status_send_tx_probe(),
        .status_send_sack_malformed(), .status_send_loss_ooo(), .status_send_loss_probe(),
        .status_send_loss_timeout(), .status_send_open_refused(),
        .status_send_doorbell_refused(), .status_send_bad_conn(), .status_recv_duplicates(),
        .status_recv_out_of_window(), .status_recv_malformed(), .status_recv_bad_conn()
    );
    /* verilator lint_on PINCONNECTEMPTY */

    reg [159:0]      send_q [0:QUEUE-1];
    reg [RECV_W-1:0] recv_q [0:QUEUE-1];
    integer send_wr = 0, send_rd = 0, recv_wr = 0, recv_rd = 0;

    // ------------------------------------------------------------------ stimulus
    integer r, i;
    reg started = 0;        // the first sweep is over
    integer power_on = 0;
    function automatic [15:0] pick_conn(input integer x);
        // Mostly a few connections (so that they have work), now and then one out of range.
        pick_conn = (x[7:4] == 0 && CONNS < 65536) ? CONNS[15:0] : x[3:0] % 6;
    endfunction
    function automatic active(input integer c);
        active = c < RESET_AT || (c >= RESET_AT + 3 && c < END - 600);
    endfunction

    always @(negedge clk) begin
        r = $random;
        // New beats only once the offered one was taken (AXI: hold while valid and not ready).
        if (!(open_v && !open_r)) begin
            open_d = 0;
            open_d[0 +: 32] = (r[3:0] == 0) ? $random : ($random & 32'hfff);
            open_d[32 +: 32] = (r[7:4] == 0) ? $random : ($random & 32'hfff);
            open_d[64 +: 16] = pick_conn($random);
            open_v = started && active(cycle) && ($random % 24 == 0);
        end
        if (!(sack_v && !sack_r)) begin
            for (i = 0; i < SACK_W; i = i + 32) sack_d[i +: 32] = $random;
            sack_d[0 +: 32] = $random & 63;
            sack_d[32 +: 32] = sack_d[0 +: 32] - ($random & 15);
            sack_d[96 +: 32] = $random & 7;
            sack_d[128 +: 32] = now - ($random & 1023);
            sack_d[160 +: 32] = $random & 15;
            sack_d[192 +: 16] = pick_conn($random);
            sack_d[223:210] = 0;
            if (SACK_W > 224 + SB) sack_d[SACK_W-1:224 + SB] = 0;
            sack_v = started && active(cycle) && r[8];
        end
        if (!(db_v && !db_r)) begin
            db_d = 0;
            db_d[0 +: 32] = $unsigned($random) % 20000;
            db_d[32 +: 16] = pick_conn($random);
            db_v = started && active(cycle) && r[9] && r[10];
        end
        if (!(txop_v && !txop_r)) txop_v = started && active(cycle) && r[11];
        if (!(pkt_v && !pkt_r)) begin
            pkt_d = 0;
            pkt_d[0 +: 32] = $random & 63;
            pkt_d[32 +: 32] = 4096;
            pkt_d[64 +: 32] = $random & 15;
            pkt_d[96 +: 32] = now - ($random & 1023);
            pkt_d[128 +: 16] = pick_conn($random);
            pkt_d[144 +: 3] = $random;
            pkt_v = started && active(cycle) && r[12];
        end
        send_rdy = (cycle >= FULL_AT && cycle < STALL_AT) || cycle >= END - 600 ? 1'b1
                 : (cycle >= STALL_AT && cycle < STALL_AT + 400) ? 1'b0 : (r[13] | r[14]);
        recv_rdy = (cycle >= FULL_AT && cycle < STALL_AT) || cycle >= END - 600 ? 1'b1
                 : (cycle >= STALL_AT && cycle < STALL_AT + 400) ? 1'b0 : (r[15] | r[16]);
        power_on = power_on + 1;
        rst = power_on < 4 || (started && cycle >= RESET_AT && cycle < RESET_AT + 3);
    end

    // ------------------------------------------------------------------ checks
    integer held_back = 0, send_max = 0, recv_max = 0;
    integer opens = 0, packets = 0, sacks_sent = 0, send_bad = 0;
    task automatic fail(input [8*48-1:0] what);
        begin
            if (errors == 0) $display("FAIL nic_axis: %0s, cycle %0d", what, cycle);
            errors = errors + 1;
        end
    endtask

    integer since_rst = 0;
    always @(posedge clk) begin
        since_rst <= rst ? 1 : since_rst + 1;
        if (dut_ready) started <= 1;
        if (started) cycle <= cycle + 1;
        if (dut_ready !== ref_ready) fail("status_ready differs from the bare core's");
        if (rst) begin
            // Both FIFOs are cleared and the core drops what is in flight.
            send_rd <= send_wr;
            recv_rd <= recv_wr;
        end else begin
            // Results within a side's latency of a reset are of events taken before it.
            if (rs_valid && rs_source != 0 && since_rst > LS) begin
                send_q[send_wr % QUEUE] <= ref_send;
                send_wr <= send_wr + 1;
                if (ref_send[`STRACKGEN_NIC_SEND_TX_VALID_BIT]) packets = packets + 1;
                if (ref_send[`STRACKGEN_NIC_SEND_OPENED_BIT]) opens = opens + 1;
                if (ref_send[`STRACKGEN_NIC_SEND_BAD_BIT]) send_bad = send_bad + 1;
            end
            if (rr_valid && since_rst > LR) begin
                recv_q[recv_wr % QUEUE] <= ref_recv;
                recv_wr <= recv_wr + 1;
                if (ref_recv[`STRACKGEN_NIC_RECV_SACK_VALID_BIT]) sacks_sent = sacks_sent + 1;
            end
            if (send_v && send_rdy) begin
                if (send_rd >= send_wr || send_d !== send_q[send_rd % QUEUE]) begin
                    if (errors == 0)
                        $display("FAIL nic_axis m_axis_send: beat %0d at cycle %0d: got %h expected %h",
                                 send_rd, cycle, send_d, send_q[send_rd % QUEUE]);
                    errors = errors + 1;
                end
                send_rd <= send_rd + 1;
            end
            if (recv_v && recv_rdy) begin
                if (recv_rd >= recv_wr || recv_d !== recv_q[recv_rd % QUEUE]) begin
                    if (errors == 0)
                        $display("FAIL nic_axis m_axis_recv: beat %0d at cycle %0d: got %h expected %h",
                                 recv_rd, cycle, recv_d, recv_q[recv_rd % QUEUE]);
                    errors = errors + 1;
                end
                recv_rd <= recv_rd + 1;
            end
        end
        // Accepted on the stream exactly when the bare core takes the event.
        if ((open_v && open_r) !== (off_open && ref_open_r)) fail("open handshake");
        if ((sack_v && sack_r) !== (off_sack && ref_sack_r)) fail("SACK handshake");
        if ((db_v && db_r) !== (off_db && ref_db_r)) fail("doorbell handshake");
        if ((txop_v && txop_r) !== (off_txop && ref_txop_r)) fail("txop handshake");
        if ((pkt_v && pkt_r) !== (off_pkt && ref_pkt_r)) fail("packet handshake");
        if (rst) begin
            send_owed <= 0;
            recv_owed <= 0;
        end else begin
            send_owed <= send_owed - (send_v && send_rdy ? 1 : 0)
                + ((off_open && ref_open_r) || (off_sack && ref_sack_r) || (off_db && ref_db_r)
                   || (off_txop && ref_txop_r) ? 1 : 0);
            recv_owed <= recv_owed - (recv_v && recv_rdy ? 1 : 0)
                + ((off_open && ref_open_r) || (off_pkt && ref_pkt_r) ? 1 : 0);
        end
        if (dut.send_results.fifo.s_axis_tvalid && !dut.send_results.fifo.s_axis_tready)
            fail("send result FIFO overflow");
        if (dut.recv_results.fifo.s_axis_tvalid && !dut.recv_results.fifo.s_axis_tready)
            fail("receive result FIFO overflow");
        if (started && cycle == RESET_AT
            && !(dut.send_results.inflight_reg != 0 && dut.recv_results.inflight_reg != 0))
            fail("nothing in flight at the reset");
        if (started && cycle >= FULL_AT + 100 && cycle < STALL_AT && !(send_room && recv_room))
            held_back = held_back + 1;
        if (started && cycle >= STALL_AT && cycle < STALL_AT + 400) begin
            if (dut.send_results.fifo_count > send_max) send_max = dut.send_results.fifo_count;
            if (dut.recv_results.fifo_count > recv_max) recv_max = dut.recv_results.fifo_count;
        end
        if (started && cycle == END) begin
            if (send_rd != send_wr || recv_rd != recv_wr) begin
                $display("FAIL nic_axis beats lost: send %0d of %0d, receive %0d of %0d",
                         send_rd, send_wr, recv_rd, recv_wr);
                errors = errors + 1;
            end
            if (held_back != 0) begin
                $display("FAIL nic_axis: inputs held back on %0d cycles with the consumers ready",
                         held_back);
                errors = errors + 1;
            end
            if (send_max != (1 << $clog2(LS + 2)) || recv_max != (1 << $clog2(LR + 2))) begin
                $display("FAIL nic_axis: the stall did not fill the FIFOs (%0d, %0d)", send_max,
                         recv_max);
                errors = errors + 1;
            end
            if (send_wr < 2000 || recv_wr < 2000 || packets < 100 || sacks_sent < 100
                || opens < 20 || send_bad < 20) begin
                $display("FAIL nic_axis: stimulus too weak: %0d send, %0d receive beats, %0d packets, %0d SACKs, %0d opens, %0d bad ids",
                         send_wr, recv_wr, packets, sacks_sent, opens, send_bad);
                errors = errors + 1;
            end
            if (errors == 0)
                $display("PASS nic_axis %0d send beats (%0d packets, %0d opens, %0d bad ids), %0d receive beats (%0d SACKs)",
                         send_rd, packets, opens, send_bad, recv_rd, sacks_sent);
            $finish;
        end
    end
endmodule
`default_nettype wire
