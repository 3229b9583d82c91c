# Clocks of fpga/au250/top.v. Vivado derives the MMCM's 250 MHz output from this input.
create_clock -period 3.333 -name clk_300mhz [get_ports clk_300mhz_p]

# The LEDs are for the eye: no output timing.
set_false_path -to [get_ports {led[*]}]
