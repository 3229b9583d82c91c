# Two commands for a fresh machine (see README):
#   make demo   the main job on the default config
#   make test   everything CI runs (fmt, clippy -D warnings, all tests incl. co-simulation)
# Longer runs, not in CI: make cosim-long, make bench, make synth, make formal.

CARGO ?= cargo
STRACKGEN := target/release/strackgen
CONFIG ?= configs/default.toml

.PHONY: demo test deps fmt clippy unit build verilog p4 p4-check cosim-long bench synth formal

deps:
	@scripts/deps.sh

build: deps
	$(CARGO) build --release --locked --workspace --bins

demo: build
	@scripts/demo.sh $(STRACKGEN) $(CONFIG)

# Write the Verilog package for $(CONFIG) into target/verilog (docs/package.md) and lint every
# core and wrapper in it with the package's own waivers and filelist.
verilog: build
	$(STRACKGEN) verilog --config $(CONFIG) --out target/verilog
	for v in target/verilog/*.v; do \
	  t=$$(basename $$v .v); case $$t in tb_*) continue ;; esac; \
	  verilator --lint-only -Wall target/verilog/lint.vlt -F target/verilog/strackgen.f --top-module $$t || exit 1; \
	done

# Generate the P4 load table (TNA and v1model) for $(CONFIG) into target/p4.
p4: build
	$(STRACKGEN) p4 --config $(CONFIG) --target v1model --out target/p4
	$(STRACKGEN) p4 --config $(CONFIG) --target tna --out target/p4

# Compile both P4 variants and run the STF files on BMv2 where p4c, BMv2 and the TNA headers
# are installed (P4C_SRC, TNA_INCLUDE: p4/README.md); a missing tool is reported as skipped.
p4-check: build
	@scripts/p4-check.sh $(STRACKGEN) $(CONFIG)

# Formal checks (docs/formal.md; about 20 minutes): the output conventions proven, the shadow
# models checked to their depth, the broken designs caught. `make test` runs the quick part.
formal: build
	$(STRACKGEN) formal --out target/formal

fmt: deps
	$(CARGO) fmt --all --check

clippy: deps
	CARGO_TARGET_DIR=target/clippy $(CARGO) clippy --workspace --all-targets --locked -- -D warnings

unit: deps
	$(CARGO) test --workspace --locked

# clippy and the tests build in separate target directories, so that they run side by side:
# clippy's longest step (hdl compiled for testbench's build script) leaves a core idle, and
# make's job slots keep the two cargos to 2 jobs in all. Both target directories are made
# first: two cargos creating `target` and `target/clippy` at once on a fresh clone race (each
# makes its directory by renaming a temporary one into place) and one of them fails.
test: fmt
	mkdir -p target/clippy
	$(MAKE) --no-print-directory -j2 clippy unit

# 10^8 compared cycles per co-simulated design (hours on the 256-path design).
cosim-long: deps
	STRACK_COSIM_CYCLES=100000000 $(CARGO) test --release --locked -p testbench -- --nocapture

# BENCH_ARGS: [CYCLES] [DESIGN...], say `make bench BENCH_ARGS="1000000 nic_tx_small"` (then the
# report is target/bench/cosim-selected.json); `load` names the NIC's load rows (load.json).
BENCH_ARGS ?=
bench: deps
	$(CARGO) run --release --locked -p testbench --bin cosim_bench -- $(BENCH_ARGS)

# Open FPGA flow: every block of $(CONFIG) out of context and the ECP5 board top (Yosys
# synth_ecp5, nextpnr-ecp5), the top built from configs/small.toml. Writes
# target/report/timing.{json,md}. Each nextpnr run gets PNR_BUDGET_MINS minutes: the default
# config's SACK sender and NIC do not finish routing in that time (the sender did not in 80),
# and their rows then give the packer's cells and nextpnr's estimate after placement
# (docs/timing.md). About an hour on 2 cores at the default config (55 min here).
PNR_BUDGET_MINS ?= 40
synth: build
	$(STRACKGEN) report --config $(CONFIG) --top-config configs/small.toml --out target/report \
	  --pnr-budget-mins $(PNR_BUDGET_MINS)
