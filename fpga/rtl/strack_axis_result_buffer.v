// strack_axis_result_buffer: turns a free-running core (one step in per clock at most, its
// result LATENCY cycles later, no stall input) into an AXI-Stream source with back-pressure.
//
//   step accepted ──► core (fixed latency) ──► result ──► FIFO ──► m_axis_*
//        ▲                                                 │
//        └── credit: FIFO entries + steps in flight < DEPTH ┘
//
// A step is offered to the core only while the FIFO has room for every result still in
// flight, so a result never meets a full FIFO. With DEPTH > LATENCY + 1 a consumer that is
// always ready sees one result per clock.
//
// RESET_FLUSH says what rst does to the core. 0: nothing (the core has no reset and drains by
// itself; results that come out during rst are dropped and still counted). F > 0: rst resets
// the core too, and no event taken before rst may come out after it: the count of steps in
// flight restarts at 0 and the core's results on the F cycles after rst are discarded. F must
// be the core's latency: no step is taken while rst is high, so a step taken after it comes out
// after the window.
`default_nettype none
module strack_axis_result_buffer #(
    parameter integer WIDTH  = 8,
    parameter integer ADDR_W = 4,
    parameter integer RESET_FLUSH = 0
) (
    input  wire              clk,
    input  wire              rst,

    /// 1: the wrapper may issue a step this cycle.
    output wire              step_ready,
    /// A step is issued to the core this cycle.
    input  wire              step_issue,

    /// The core's result (its m_valid and packed outputs).
    input  wire              core_valid,
    input  wire [WIDTH-1:0]  core_data,

    output wire [WIDTH-1:0]  m_axis_tdata,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready
);
    // Steps inside the core.
    reg  [ADDR_W:0] inflight_reg = 0;
    // Cycles left in which the core's results belong to steps taken before a reset.
    reg  [7:0] flush_reg = 0;
    wire flushing = RESET_FLUSH != 0 && (rst || flush_reg != 0);
    wire result = core_valid && !flushing;
    wire [ADDR_W:0] fifo_count;
    wire [ADDR_W+1:0] committed = {1'b0, fifo_count} + {1'b0, inflight_reg};

    assign step_ready = !rst && (committed < (1 << ADDR_W));

    always @(posedge clk) begin
        if (RESET_FLUSH != 0 && rst) begin
            inflight_reg <= 0;
            flush_reg <= RESET_FLUSH[7:0];
        end else begin
            inflight_reg <= inflight_reg + {{ADDR_W{1'b0}}, step_issue}
                          - {{ADDR_W{1'b0}}, result};
            if (flush_reg != 0) flush_reg <= flush_reg - 1'b1;
        end
    end

    /* verilator lint_off PINCONNECTEMPTY */
    strack_axis_fifo #(.WIDTH(WIDTH), .ADDR_W(ADDR_W)) fifo (
        .clk(clk),
        .rst(rst),
        .s_axis_tdata(core_data),
        .s_axis_tvalid(result && !rst),
        .s_axis_tready(),
        .m_axis_tdata(m_axis_tdata),
        .m_axis_tvalid(m_axis_tvalid),
        .m_axis_tready(m_axis_tready),
        .status_count(fifo_count)
    );
    /* verilator lint_on PINCONNECTEMPTY */
endmodule
`default_nettype wire
