// stream_exerciser: stands in for a NIC or switch shell on a board with no network attached.
// It drives an AXI-Stream with pseudo-random beats (random gaps), takes the other stream with
// pseudo-random back-pressure, and folds every beat it takes into a 32-bit signature, so that
// synthesis keeps all of the core and the board shows it running. Replace it by the shell's
// streams in a real design.
`default_nettype none
module stream_exerciser #(
    parameter integer OUT_W = 64,   // at least 9
    parameter integer IN_W  = 64,
    parameter [31:0]  SEED  = 32'h1
) (
    input  wire             clk,
    input  wire             rst,

    output wire [OUT_W-1:0] m_axis_tdata,
    output reg              m_axis_tvalid = 1'b0,
    input  wire             m_axis_tready,

    input  wire [IN_W-1:0]  s_axis_tdata,
    input  wire             s_axis_tvalid,
    output wire             s_axis_tready,

    /// A tick every 1024 cycles (for the load table's slot boundary).
    output wire             tick,
    output reg  [31:0]      signature = 32'h0
);
    localparam integer CHUNKS = (IN_W + 31) / 32;

    reg [31:0] lfsr_reg = SEED;
    // Each beat is the previous one shifted by a byte of fresh LFSR output: every bit is its
    // own register, so synthesis cannot merge the core's inputs.
    reg [OUT_W-1:0] data_reg = 0;
    reg [9:0] tick_count_reg = 0;

    wire advance = !m_axis_tvalid || m_axis_tready;
    assign m_axis_tdata  = data_reg;
    assign s_axis_tready = lfsr_reg[12] | lfsr_reg[13] | lfsr_reg[14];
    assign tick = tick_count_reg == 0;

    // Fold the taken beat into 32 bits.
    reg [31:0] fold;
    reg [CHUNKS*32-1:0] padded;
    integer i;
    always @* begin
        padded = {{(CHUNKS*32-IN_W){1'b0}}, s_axis_tdata};
        fold = 32'h0;
        for (i = 0; i < CHUNKS; i = i + 1) fold = fold ^ padded[i*32 +: 32];
    end

    always @(posedge clk) begin
        tick_count_reg <= tick_count_reg + 1'b1;
        if (rst) begin
            lfsr_reg <= SEED;
            m_axis_tvalid <= 1'b0;
            signature <= 32'h0;
        end else begin
            // CRC-32 polynomial, Galois form.
            lfsr_reg <= {lfsr_reg[30:0], 1'b0} ^ (lfsr_reg[31] ? 32'h04C1_1DB7 : 32'h0);
            if (advance) begin
                data_reg <= {data_reg[OUT_W-9:0], lfsr_reg[7:0]};
                m_axis_tvalid <= lfsr_reg[8] | lfsr_reg[9];
            end
            if (s_axis_tvalid && s_axis_tready)
                signature <= {signature[30:0], signature[31] ^ signature[21] ^ signature[1]} ^ fold;
        end
    end
endmodule
`default_nettype wire
