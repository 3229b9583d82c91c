// Formal wrapper of the generated `load_table` core (formal/load_table/config.toml), read by
// `strackgen formal`. Every input of the core is an input of this module, so the solver
// chooses each of them freely on every cycle: no assumption is made (the core promises to take
// any value on any port: a link past the last row is a bad packet, every delta and path-load
// element is in range by its width). The starting state is the power-on state (the RAM and
// every register 0), as the block documents.
//
// Two sets of assertions, chosen by a define:
// - CHECK_CONVENTIONS: what the outputs promise whatever the table holds (with no packet every
//   `m_*` is 0; a bad packet leaves with no row and no saturation; only the K slots' bits of
//   `m_sat_mask` are used). Proven for all depths by induction.
// - CHECK_SHADOW: a shadow model written from the block's rules (docs/blocks/load_table.md,
//   "Behaviour" and "Reset"), not from the RTL: the rows as K loads each, a tick before the
//   cycle's packet, the update saturating, the feedback adding the row after the update, a bad
//   link forwarded, and the reset emptying everything and dropping the packets in flight. It
//   predicts every output port and status counter LATENCY cycles after the packet; every one is
//   compared on every cycle. Checked by bounded model checking.
`include "strackgen_params.vh"

module load_table_formal (
    input wire clock,
    input wire s_reset,
    input wire s_valid,
    input wire [15:0] s_link,
    input wire s_update,
    input wire [K*(W+1)-1:0] s_deltas,
    input wire s_feedback,
    input wire [K*PW-1:0] s_path_load,
    input wire s_tick
);
    // The configuration this wrapper is written for (formal/load_table/config.toml).
    localparam LINKS = 3;
    localparam K = 2;
    localparam W = 8;
    localparam LATENCY = 6;
    localparam PW = W + 4;

    // A core generated from another configuration must not be checked against this shadow:
    // the instance below names a module that does not exist, so elaboration stops with the
    // generate block's name in the message.
    generate
        if (LINKS != `STRACKGEN_LT_LINKS || K != `STRACKGEN_LT_SLOTS
            || W != `STRACKGEN_LT_LOAD_BITS || LATENCY != `STRACKGEN_LT_LATENCY) begin : config_differs_from_strackgen_params_vh
            formal_wrapper_config_mismatch mismatch ();
        end
    endgenerate

    wire m_valid;
    wire m_bad;
    wire [K*PW-1:0] m_path_load;
    wire [K*W-1:0] m_row;
    wire [15:0] m_sat_mask;
    wire [31:0] status_sat_count;
    wire [31:0] status_bad_count;
    wire [31:0] status_tick_count;

    load_table dut (
        .clock(clock),
        .s_reset(s_reset),
        .s_valid(s_valid),
        .s_link(s_link),
        .s_update(s_update),
        .s_deltas(s_deltas),
        .s_feedback(s_feedback),
        .s_path_load(s_path_load),
        .s_tick(s_tick),
        .m_valid(m_valid),
        .m_bad(m_bad),
        .m_path_load(m_path_load),
        .m_row(m_row),
        .m_sat_mask(m_sat_mask),
        .status_sat_count(status_sat_count),
        .status_bad_count(status_bad_count),
        .status_tick_count(status_tick_count)
    );

`ifdef CHECK_CONVENTIONS
    always @* begin
        if (!m_valid) begin
            assert (!m_bad);
            assert (m_path_load == 0);
            assert (m_row == 0);
            assert (m_sat_mask == 0);
        end
        if (m_bad) begin
            assert (m_row == 0);
            assert (m_sat_mask == 0);
        end
        assert ((m_sat_mask >> K) == 0);
    end
`endif

`ifdef CHECK_SHADOW
    localparam [W-1:0] MAX = {W{1'b1}};
    localparam [PW-1:0] PMAX = {PW{1'b1}};

    // The table: row l's slot k (k = 0 the current slot) at bits (l*K + k)*W.
    reg [LINKS*K*W-1:0] tbl = 0;
    // The results on their way out: entry 0 is the packet of the cycle before, entry
    // LATENCY-1 the one the outputs show now.
    reg q_valid [0:LATENCY-1];
    reg q_bad [0:LATENCY-1];
    reg [K*PW-1:0] q_path [0:LATENCY-1];
    reg [K*W-1:0] q_row [0:LATENCY-1];
    reg [15:0] q_sat [0:LATENCY-1];
    reg [31:0] e_sat_count = 0;
    reg [31:0] e_bad_count = 0;
    reg [31:0] e_tick_count = 0;
    integer i;
    initial begin
        for (i = 0; i < LATENCY; i = i + 1) begin
            q_valid[i] = 0;
            q_bad[i] = 0;
            q_path[i] = 0;
            q_row[i] = 0;
            q_sat[i] = 0;
        end
    end

    // This cycle's step: the tick, then the packet.
    reg [LINKS*K*W-1:0] tbl_ticked;
    reg [LINKS*K*W-1:0] tbl_next;
    reg good;
    reg [K*PW-1:0] r_path;
    reg [K*W-1:0] r_row;
    reg [15:0] r_sat;
    reg [W-1:0] cur;
    reg [W:0] delta;
    reg signed [W+1:0] sum;
    reg [W-1:0] upd;
    reg [PW:0] psum;
    integer l, k;
    always @* begin
        tbl_ticked = tbl;
        if (s_tick) begin
            for (l = 0; l < LINKS; l = l + 1) begin
                for (k = 0; k < K; k = k + 1) begin
                    tbl_ticked[(l*K+k)*W+:W] = (k + 1 < K) ? tbl[(l*K+k+1)*W+:W] : {W{1'b0}};
                end
            end
        end
        tbl_next = tbl_ticked;
        good = s_link < LINKS;
        r_path = s_path_load;
        r_row = 0;
        r_sat = 0;
        for (l = 0; l < LINKS; l = l + 1) begin
            if (s_valid && good && s_link == l) begin
                for (k = 0; k < K; k = k + 1) begin
                    cur = tbl_ticked[(l*K+k)*W+:W];
                    delta = s_deltas[k*(W+1)+:W+1];
                    sum = $signed({2'b00, cur}) + $signed({delta[W], delta});
                    upd = cur;
                    if (s_update) begin
                        if (sum < 0) begin
                            upd = 0;
                            r_sat[k] = 1'b1;
                        end else if (sum > $signed({2'b00, MAX})) begin
                            upd = MAX;
                            r_sat[k] = 1'b1;
                        end else begin
                            upd = sum[W-1:0];
                        end
                    end
                    tbl_next[(l*K+k)*W+:W] = upd;
                    r_row[k*W+:W] = upd;
                    if (s_feedback) begin
                        psum = {1'b0, s_path_load[k*PW+:PW]} + {{(PW - W + 1) {1'b0}}, upd};
                        r_path[k*PW+:PW] = psum[PW] ? PMAX : psum[PW-1:0];
                    end
                end
            end
        end
        if (s_reset) tbl_next = 0;
    end

    function [4:0] popcount16(input [15:0] v);
        integer b;
        begin
            popcount16 = 0;
            for (b = 0; b < 16; b = b + 1) popcount16 = popcount16 + v[b];
        end
    endfunction

    always @(posedge clock) begin
        tbl <= tbl_next;
        for (i = LATENCY - 1; i > 0; i = i - 1) begin
            q_valid[i] <= s_reset ? 1'b0 : q_valid[i-1];
            q_bad[i] <= s_reset ? 1'b0 : q_bad[i-1];
            q_path[i] <= s_reset ? 0 : q_path[i-1];
            q_row[i] <= s_reset ? 0 : q_row[i-1];
            q_sat[i] <= s_reset ? 0 : q_sat[i-1];
        end
        q_valid[0] <= !s_reset && s_valid;
        q_bad[0] <= !s_reset && s_valid && !good;
        q_path[0] <= (!s_reset && s_valid) ? r_path : 0;
        q_row[0] <= (!s_reset && s_valid) ? r_row : 0;
        q_sat[0] <= (!s_reset && s_valid) ? r_sat : 0;
        if (s_reset) begin
            e_sat_count <= 0;
            e_bad_count <= 0;
            e_tick_count <= 0;
        end else begin
            if (q_valid[LATENCY-1]) e_sat_count <= e_sat_count + popcount16(q_sat[LATENCY-1]);
            if (q_valid[LATENCY-1] && q_bad[LATENCY-1]) e_bad_count <= e_bad_count + 1;
            if (s_tick) e_tick_count <= e_tick_count + 1;
        end
    end

    always @* begin
        assert (m_valid == q_valid[LATENCY-1]);
        assert (m_bad == q_bad[LATENCY-1]);
        assert (m_path_load == q_path[LATENCY-1]);
        assert (m_row == q_row[LATENCY-1]);
        assert (m_sat_mask == q_sat[LATENCY-1]);
        assert (status_sat_count == e_sat_count);
        assert (status_bad_count == e_bad_count);
        assert (status_tick_count == e_tick_count);
    end
`endif
endmodule
