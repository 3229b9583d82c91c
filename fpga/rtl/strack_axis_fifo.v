// strack_axis_fifo: synchronous AXI-Stream FIFO, show-ahead (m_axis_tdata is valid with
// m_axis_tvalid, no read latency). Portable: the array is inferred as distributed RAM
// (ECP5 DPR16X4, Xilinx LUTRAM); no vendor primitives.
`default_nettype none
module strack_axis_fifo #(
    parameter integer WIDTH  = 8,
    parameter integer ADDR_W = 4   // depth = 2**ADDR_W
) (
    input  wire              clk,
    input  wire              rst,     // synchronous, active high

    input  wire [WIDTH-1:0]  s_axis_tdata,
    input  wire              s_axis_tvalid,
    output wire              s_axis_tready,

    output wire [WIDTH-1:0]  m_axis_tdata,
    output wire              m_axis_tvalid,
    input  wire              m_axis_tready,

    /// Entries held (0 ..= 2**ADDR_W).
    output wire [ADDR_W:0]   status_count
);
    reg [WIDTH-1:0] mem [0:(1 << ADDR_W) - 1];
    // One extra pointer bit tells full from empty.
    reg [ADDR_W:0] wr_ptr_reg = 0;
    reg [ADDR_W:0] rd_ptr_reg = 0;

    wire full  = (wr_ptr_reg[ADDR_W] != rd_ptr_reg[ADDR_W]) &&
                 (wr_ptr_reg[ADDR_W-1:0] == rd_ptr_reg[ADDR_W-1:0]);
    wire empty = wr_ptr_reg == rd_ptr_reg;
    wire push  = s_axis_tvalid && !full;
    wire pop   = !empty && m_axis_tready;

    assign s_axis_tready = !full;
    assign m_axis_tvalid = !empty;
    assign m_axis_tdata  = mem[rd_ptr_reg[ADDR_W-1:0]];
    assign status_count  = wr_ptr_reg - rd_ptr_reg;

    always @(posedge clk) begin
        if (push) mem[wr_ptr_reg[ADDR_W-1:0]] <= s_axis_tdata;
        if (rst) begin
            wr_ptr_reg <= 0;
            rd_ptr_reg <= 0;
        end else begin
            if (push) wr_ptr_reg <= wr_ptr_reg + 1'b1;
            if (pop) rd_ptr_reg <= rd_ptr_reg + 1'b1;
        end
    end
endmodule
`default_nettype wire
