#!/usr/bin/env bash
# The main job on the default config: check the config, write and lint the Verilog package,
# co-simulate the RTL against the golden model, replay every block's sample trace through its
# golden model, send the sample message trace through the loopback model, and run the MLCC
# host scheduler on a sample set of flows, generate the P4 load table and play its STF packet
# tests against the golden model.
set -euo pipefail
bin=${1:-target/release/strackgen}
cfg=${2:-configs/default.toml}
out=target/verilog

echo "== config"
"$bin" config check "$cfg"
"$bin" config show --config "$cfg" | sed -n '/^# cwnd unit/,$p'

echo "== verilog package ($out, docs/package.md)"
files=$("$bin" verilog --config "$cfg" --out "$out")
echo "  wrote $(echo "$files" | wc -l) files: $(echo "$files" | xargs -n1 basename | tr '\n' ' ')"
tops=0
for v in "$out"/*.v; do
  top=$(basename "$v" .v)
  case $top in tb_*) continue ;; esac
  verilator --lint-only -Wall "$out/lint.vlt" -F "$out/strackgen.f" --top-module "$top"
  tops=$((tops + 1))
done
echo "  verilator --lint-only -Wall $out/lint.vlt -F $out/strackgen.f, each of $tops cores and wrappers: clean"

echo "== co-simulation: Verilated RTL vs golden model, every output port every cycle"
sha() { "$bin" config check --config "$1" --json | sed 's/.*"sha256":"\([0-9a-f]*\)".*/\1/'; }
if [ "$(sha "$cfg")" = "$(sha configs/default.toml)" ]; then
  # The default config's designs are built with the project (testbench/build.rs).
  target/release/cosim_demo 200000
else
  # Any other config is Verilated on demand by `strackgen cosim` (docs/cosim.md), cached
  # under target/cosim-cache: the first run builds each block (about two minutes for a
  # 1024-connection NIC), later runs start at once.
  echo "  $cfg: Verilated on demand by strackgen cosim (cached in target/cosim-cache)"
  "$bin" cosim --config "$cfg" --cycles 200000 --cache target/cosim-cache --out target/cosim | sed 's/^/  /'
fi

echo "== golden-model replay (traces/<block>-sample.jsonl)"
for b in entropy_bitmap cwnd_unit sack_receiver sack_sender nic load_table; do
  t=traces/$b-sample.jsonl
  events=$(grep -c . "$t")
  outs=$("$bin" model replay --config "$cfg" --block "$b" --trace "$t" | wc -l)
  printf '  %-15s %3d events -> %3d outputs\n' "$b" "$events" "$outs"
  [ "$events" -eq "$outs" ] || { echo "demo: $b: output count differs" >&2; exit 1; }
done

echo "== loopback: two NICs over a lossy, reordering, ECN-marking link (golden model)"
"$bin" model loopback --config "$cfg" --trace traces/loopback-sample.jsonl

echo "== MLCC host scheduler (Algorithms 1 and 2) on traces/flows-sample.json"
"$bin" schedule --config "$cfg" --flows traces/flows-sample.json

echo "== P4 load table (target/p4): TNA and v1model programs, STF packet tests vs golden model"
"$bin" p4 --config "$cfg" --target v1model --out target/p4 | sed 's/^/  wrote /'
"$bin" p4 --config "$cfg" --target tna --out target/p4 | sed 's/^/  wrote /'
if [ "$(realpath "$cfg")" = "$(realpath configs/default.toml)" ]; then
  "$bin" stf run --config "$cfg" p4/tests/*.stf | sed 's/^/  /'
else
  "$bin" stf write --config "$cfg" --out target/p4/stf > /dev/null
  "$bin" stf run --config "$cfg" target/p4/stf/*.stf | sed 's/^/  /'
fi
echo "  compiling them (p4c, BMv2, TNA p4test) is make p4-check: p4/README.md"

echo "== FPGA wrappers: AXI-Stream nic_axis and load_table_axis (fpga/, in the package above)"
echo "  linted with the cores above; their test benches (in the package), the package's Yosys,"
echo "  Icarus and FuseSoC checks and the constraint checks run in make test (tests/fpga.rs)"
if [ -f target/report/timing.md ]; then
  echo "== last timing report (target/report/timing.md, from make synth; not re-run here)"
  cat target/report/timing.md
else
  echo "== timing: make synth runs Yosys + nextpnr-ecp5 on every block and the ECP5 top (about an"
  echo "   hour); docs/timing.md holds the latest table"
fi
