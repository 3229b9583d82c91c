// Formal wrapper of the generated `context_pipe_hold` check design (the context shell with
// three hold stages, which the NIC's receive side, senders and entropy bitmaps run on, around a
// 32-bit check function; formal/context_pipe_hold/config.toml), read by `strackgen formal`.
// Every input of the core is an input of this module, so the solver chooses each of them freely
// on every cycle, the same id on consecutive cycles included: no assumption is made (the shell
// takes any id, `>= N` being a bad one, and any event on any cycle, taking it only when ready).
// The starting state is the power-on state (the RAM and every register 0), as the block
// documents.
//
// Two sets of assertions, chosen by a define:
// - CHECK_CONVENTIONS: with no event coming out every `m_*` is 0; a bad id comes out with
//   every record output 0. Proven for all depths by induction.
// - CHECK_SHADOW: a shadow model written from the shell's rules (docs/blocks/context_pipe.md:
//   "The sweep and the reset", "Bad ids", "With hold stages"), not from the RTL: one record
//   per id, every record the initial one after the sweep, `status_ready` low for N + 1 cycles
//   after power-on and after each reset, an event taken when offered, ready and not reset, each
//   taken event applied to its id's record in the order taken, a reset dropping the events of
//   the five cycles before it (those in S1, S2 and H1 to H3). Besides the record before and
//   after each event it predicts the three earlier views the NIC's pipelines build on: the
//   record as the events 5 or more (`g_record`), 4 or more (`h_record`) and 2 or more
//   (`t_record`) cycles ahead left it. It knows nothing of the RAM or the forwarding. It
//   predicts every output LATENCY cycles after the event is taken, and `status_ready`, on
//   every cycle.
`include "strackgen_params.vh"

module context_pipe_hold_formal (
    input wire clock,
    input wire s_reset,
    input wire s_valid,
    input wire [15:0] s_id,
    input wire [15:0] s_data
);
    // The configuration this wrapper is written for (formal/context_pipe_hold/config.toml).
    localparam N = 4;
    localparam LATENCY = 7;
    localparam [31:0] INIT = 32'h5eed0001;

    // A core generated from another configuration must not be checked against this shadow:
    // the instance below names a module that does not exist, so elaboration stops with the
    // generate block's name in the message.
    generate
        if (N != `STRACKGEN_NIC_CONNECTIONS || LATENCY != `STRACKGEN_CONTEXT_PIPE_HOLD_LATENCY
            || INIT != `STRACKGEN_CONTEXT_PIPE_INIT) begin : config_differs_from_strackgen_params_vh
            formal_wrapper_config_mismatch mismatch ();
        end
    endgenerate

    wire m_valid;
    wire m_bad;
    wire [15:0] m_id;
    wire [15:0] m_data;
    wire [31:0] m_before;
    wire [31:0] m_after;
    wire [31:0] m_g_record;
    wire [31:0] m_h_record;
    wire [31:0] m_t_record;
    wire status_ready;

    context_pipe_hold dut (
        .clock(clock),
        .s_reset(s_reset),
        .s_valid(s_valid),
        .s_id(s_id),
        .s_data(s_data),
        .m_valid(m_valid),
        .m_bad(m_bad),
        .m_id(m_id),
        .m_data(m_data),
        .m_before(m_before),
        .m_after(m_after),
        .m_g_record(m_g_record),
        .m_h_record(m_h_record),
        .m_t_record(m_t_record),
        .status_ready(status_ready)
    );

`ifdef CHECK_CONVENTIONS
    always @* begin
        if (!m_valid) begin
            assert (!m_bad);
            assert (m_id == 0);
            assert (m_data == 0);
        end
        if (!m_valid || m_bad) begin
            assert (m_before == 0);
            assert (m_after == 0);
            assert (m_g_record == 0);
            assert (m_h_record == 0);
            assert (m_t_record == 0);
        end
    end
`endif

`ifdef CHECK_SHADOW
    // The records, id i at bits 32*i; `hist[k]` is `rec` as it was k + 1 cycles ago, so at the
    // cycle an event is taken, `rec` holds the records as every event before it left them and
    // `hist[k]` as the events k + 2 or more cycles ahead of it left them.
    reg [32*N-1:0] rec;
    reg [32*N-1:0] hist [0:3];
    // Cycles of the sweep left: `status_ready` is high when 0.
    reg [7:0] sweep_left = N + 1;
    // The results on their way out, one entry per stage: entry 0 the event taken on the cycle
    // before, entry LATENCY-1 the one the outputs show now. Each entry is
    // {valid, bad, id, data, before, after, g, h, t}.
    localparam QW = 2 + 16 + 16 + 5 * 32;
    reg [LATENCY*QW-1:0] q = 0;
    integer i;
    initial begin
        for (i = 0; i < N; i = i + 1) rec[32*i+:32] = INIT;
        hist[0] = rec;
        hist[1] = rec;
        hist[2] = rec;
        hist[3] = rec;
    end

    wire ready = sweep_left == 0;
    wire take = s_valid && ready && !s_reset;
    wire bad = s_id >= N;
    reg [31:0] before;
    reg [31:0] after;
    reg [31:0] g_view;
    reg [31:0] h_view;
    reg [31:0] t_view;
    reg [32*N-1:0] rec_next;
    always @* begin
        before = 0;
        g_view = 0;
        h_view = 0;
        t_view = 0;
        for (i = 0; i < N; i = i + 1) begin
            if (s_id == i) begin
                before = rec[32*i+:32];
                t_view = hist[0][32*i+:32];  // 2 or more ahead
                h_view = hist[2][32*i+:32];  // 4 or more ahead
                g_view = hist[3][32*i+:32];  // 5 or more ahead
            end
        end
        // The check function: the record rotated left by 3, plus {id, data}.
        after = {before[28:0], before[31:29]} + {s_id, s_data};
        rec_next = rec;
        for (i = 0; i < N; i = i + 1) if (take && s_id == i) rec_next[32*i+:32] = after;
        if (bad) begin
            before = 0;
            after = 0;
        end
        if (s_reset)
            for (i = 0; i < N; i = i + 1) rec_next[32*i+:32] = INIT;
    end

    wire [QW-1:0] entry = take ? {1'b1, bad, s_id, s_data, before, after, g_view, h_view, t_view}
                               : {QW{1'b0}};
    wire [QW-1:0] shown = q[(LATENCY-1)*QW+:QW];

    always @(posedge clock) begin
        rec <= rec_next;
        hist[0] <= rec;
        hist[1] <= hist[0];
        hist[2] <= hist[1];
        hist[3] <= hist[2];
        sweep_left <= s_reset ? N + 1 : (sweep_left != 0 ? sweep_left - 1 : 0);
        // A reset drops the events of the five cycles before it (entries 0 to 4); the one six
        // cycles before it (entry 5, in S3) comes out.
        q <= {q[(LATENCY-1)*QW-1:0], entry};
        if (s_reset) q <= {q[5*QW+:QW], {(6 * QW) {1'b0}}};
    end

    always @* begin
        assert (status_ready == ready);
        assert (m_valid == shown[QW-1]);
        assert (m_bad == shown[QW-2]);
        assert (m_id == shown[QW-3-:16]);
        assert (m_data == shown[QW-19-:16]);
        assert (m_before == shown[159:128]);
        assert (m_after == shown[127:96]);
        assert (m_g_record == (shown[QW-2] ? 32'd0 : shown[95:64]));
        assert (m_h_record == (shown[QW-2] ? 32'd0 : shown[63:32]));
        assert (m_t_record == (shown[QW-2] ? 32'd0 : shown[31:0]));
    end
`endif
endmodule
