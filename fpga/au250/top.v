// Board top: AMD/Xilinx Alveo U250 (xcu250-figd2104-2L-e). For users with Vivado; not built
// here (fpga/au250/README.md). Thin: the 300 MHz DDR-0 reference clock -> MMCM -> 250 MHz core
// clock; three LEDs. Everything else is the portable strack_fpga_core. Pins:
// constraints/au250/pins.xdc; clocks: constraints/au250/timing.xdc.
//
//   clk_300mhz_p/n ─► IBUFDS ─► MMCME4_BASE (x10/3, /4) ─► BUFG ─► clk ─► strack_fpga_core
//                                         locked ─► 2-FF synchroniser ─► rst ┘    ─► led[2:0]
`default_nettype none
module top (
    input  wire       clk_300mhz_p,
    input  wire       clk_300mhz_n,
    output wire [2:0] led
);
    wire clk_300mhz, clk_mmcm, clk_fb, clk;
    wire mmcm_locked;

    IBUFDS clk_300mhz_ibufds (.I(clk_300mhz_p), .IB(clk_300mhz_n), .O(clk_300mhz));

    // 300 MHz / 3 x 10 = 1000 MHz VCO; / 4 = 250 MHz.
    MMCME4_BASE #(
        .CLKIN1_PERIOD(3.333),
        .DIVCLK_DIVIDE(3),
        .CLKFBOUT_MULT_F(10.0),
        .CLKOUT0_DIVIDE_F(4.0),
        .BANDWIDTH("OPTIMIZED")
    ) mmcm (
        .CLKIN1(clk_300mhz),
        .CLKFBIN(clk_fb),
        .CLKFBOUT(clk_fb),
        .CLKOUT0(clk_mmcm),
        .RST(1'b0),
        .PWRDWN(1'b0),
        .LOCKED(mmcm_locked),
        .CLKFBOUTB(), .CLKOUT0B(), .CLKOUT1(), .CLKOUT1B(), .CLKOUT2(), .CLKOUT2B(),
        .CLKOUT3(), .CLKOUT3B(), .CLKOUT4(), .CLKOUT5(), .CLKOUT6()
    );
    BUFG clk_bufg (.I(clk_mmcm), .O(clk));

    reg [1:0] rst_sync_reg = 2'b11;
    always @(posedge clk or negedge mmcm_locked)
        if (!mmcm_locked) rst_sync_reg <= 2'b11;
        else rst_sync_reg <= {rst_sync_reg[0], 1'b0};

    wire [7:0] status_leds;
    strack_fpga_core core (
        .clk(clk),
        .rst(rst_sync_reg[1]),
        .status_leds(status_leds)
    );
    assign led = status_leds[2:0] ^ status_leds[5:3] ^ {1'b0, status_leds[7:6]};
endmodule
`default_nettype wire
