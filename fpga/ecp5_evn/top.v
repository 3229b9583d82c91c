// Board top: Lattice ECP5 Evaluation Board (LFE5UM5G-85F-8BG381, CABGA381).
// Thin: 12 MHz oscillator -> PLL -> 126 MHz core clock; reset button; eight LEDs. Everything
// else is the portable strack_fpga_core. Pins: constraints/ecp5_evn/pins.lpf; clocks:
// constraints/ecp5_evn/timing.lpf.
//
//   clk12 ─► EHXPLLL (x21/2) ─► clk ─► strack_fpga_core ─► led[7:0]
//   rst_n ─► 2-FF synchroniser ─► rst ┘
`default_nettype none
module top (
    input  wire       clk12,   // 12 MHz on-board oscillator
    input  wire       rst_n,   // push button, active low
    output wire [7:0] led
);
    wire clk;
    wire pll_locked;

    // 12 MHz / CLKI_DIV 2 = 6 MHz at the phase detector; x CLKFB_DIV 21 = 126 MHz on CLKOP
    // (VCO 630 MHz with CLKOP_DIV 5). 126 MHz: the project's 125 MHz target with margin.
    (* FREQUENCY_PIN_CLKI = "12" *)
    (* FREQUENCY_PIN_CLKOP = "126" *)
    (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
    (* MFG_GMCREF_SEL = "2" *)
    EHXPLLL #(
        .PLLRST_ENA("DISABLED"),
        .INTFB_WAKE("DISABLED"),
        .STDBY_ENABLE("DISABLED"),
        .DPHASE_SOURCE("DISABLED"),
        .OUTDIVIDER_MUXA("DIVA"),
        .OUTDIVIDER_MUXB("DIVB"),
        .OUTDIVIDER_MUXC("DIVC"),
        .OUTDIVIDER_MUXD("DIVD"),
        .CLKI_DIV(2),
        .CLKOP_ENABLE("ENABLED"),
        .CLKOP_DIV(5),
        .CLKOP_CPHASE(2),
        .CLKOP_FPHASE(0),
        .FEEDBK_PATH("CLKOP"),
        .CLKFB_DIV(21)
    ) pll (
        .RST(1'b0),
        .STDBY(1'b0),
        .CLKI(clk12),
        .CLKOP(clk),
        .CLKFB(clk),
        .CLKINTFB(),
        .PHASESEL0(1'b0),
        .PHASESEL1(1'b0),
        .PHASEDIR(1'b1),
        .PHASESTEP(1'b1),
        .PHASELOADREG(1'b1),
        .PLLWAKESYNC(1'b0),
        .ENCLKOP(1'b0),
        .LOCK(pll_locked)
    );

    // Reset while the PLL is unlocked or the button is down; released synchronously.
    reg [1:0] rst_sync_reg = 2'b11;
    always @(posedge clk or negedge pll_locked)
        if (!pll_locked) rst_sync_reg <= 2'b11;
        else rst_sync_reg <= {rst_sync_reg[0], !rst_n};

    strack_fpga_core core (
        .clk(clk),
        .rst(rst_sync_reg[1]),
        .status_leds(led)
    );
endmodule
`default_nettype wire
