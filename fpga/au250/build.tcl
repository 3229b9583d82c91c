# Vivado non-project build of fpga/au250/top.v (Alveo U250). NOT RUN in this project's CI or
# by its developers (no Vivado here): it is written for users who have Vivado 2022.2 or later.
#
#   strackgen verilog --config configs/default.toml --out target/verilog
#   vivado -mode batch -source fpga/au250/build.tcl -tclargs target/verilog target/au250
#
# argv: the directory `strackgen verilog` wrote (the cores and strackgen_params.vh) and an
# output directory for the checkpoints, reports and bitstream.
set gen_dir [lindex $argv 0]
set out_dir [lindex $argv 1]
if {$gen_dir eq "" || $out_dir eq ""} {
    error "usage: vivado -mode batch -source fpga/au250/build.tcl -tclargs GEN_DIR OUT_DIR"
}
set root [file normalize [file join [file dirname [info script]] .. ..]]
file mkdir $out_dir

set_part xcu250-figd2104-2L-e

read_verilog [file join $gen_dir nic.v]
read_verilog [file join $gen_dir load_table.v]
read_verilog [glob [file join $root fpga rtl *.v]]
read_verilog [file join $root fpga au250 top.v]
read_xdc [file join $root constraints au250 pins.xdc]
read_xdc [file join $root constraints au250 timing.xdc]

synth_design -top top -include_dirs [list $gen_dir [file join $root fpga rtl]]
write_checkpoint -force [file join $out_dir post_synth.dcp]
report_utilization -file [file join $out_dir utilization_synth.rpt]

opt_design
place_design
phys_opt_design
route_design
write_checkpoint -force [file join $out_dir post_route.dcp]
report_timing_summary -file [file join $out_dir timing_summary.rpt]
report_utilization -file [file join $out_dir utilization.rpt]
write_bitstream -force [file join $out_dir top.bit]
