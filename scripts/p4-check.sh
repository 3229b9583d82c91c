#!/usr/bin/env bash
# make p4-check: the generated P4 load table against the real P4 tools, where they are installed.
#
#   1. generate both variants for CONFIG into target/p4                         (always)
#   2. play the STF files against the golden model                               (always)
#   3. p4c-bm2-ss: compile the v1model program, plain and with -DLT_TEST_CLOCK
#   4. BMv2: run every STF file on simple_switch through p4c's run-bmv2-test.py
#      (needs simple_switch and simple_switch_CLI on PATH, P4C_SRC = a p4c source tree,
#      python3 with ply and scapy 2.5.0)
#   5. p4test with TNA_INCLUDE (a directory holding tna.p4): type-check the TNA program
#
# A tool that is not there is reported as "skipped: <tool> not found" and its step is left out.
# Exit status: 0 unless a step that ran failed. The STF files are p4/tests/*.stf for
# configs/default.toml, otherwise generated for CONFIG into target/p4/stf.
#
# Usage: scripts/p4-check.sh STRACKGEN CONFIG
set -u
STRACKGEN=${1:-target/release/strackgen}
CONFIG=${2:-configs/default.toml}
OUT=target/p4
failed=0
fail() {
  echo "FAILED: $*"
  failed=1
}
have() {
  if command -v "$1" > /dev/null 2>&1; then
    return 0
  fi
  echo "skipped: $1 not found"
  return 1
}

mkdir -p "$OUT"
echo "== generate ($CONFIG)"
"$STRACKGEN" p4 --config "$CONFIG" --target v1model --out "$OUT" || fail "strackgen p4 --target v1model"
"$STRACKGEN" p4 --config "$CONFIG" --target tna --out "$OUT" || fail "strackgen p4 --target tna"

if [ "$(realpath "$CONFIG")" = "$(realpath configs/default.toml)" ]; then
  STFS=(p4/tests/*.stf)
else
  rm -rf "$OUT/stf"
  "$STRACKGEN" stf write --config "$CONFIG" --out "$OUT/stf" > /dev/null || fail "strackgen stf write"
  STFS=("$OUT"/stf/*.stf)
fi

echo "== STF files against the golden model"
"$STRACKGEN" stf run --config "$CONFIG" "${STFS[@]}" || fail "STF against the golden model"

echo "== v1model: p4c-bm2-ss"
compiled=0
if have p4c-bm2-ss; then
  if p4c-bm2-ss --std p4-16 -o "$OUT/load_table_v1model.json" "$OUT/load_table_v1model.p4" &&
    p4c-bm2-ss --std p4-16 -DLT_TEST_CLOCK -o "$OUT/load_table_v1model_test.json" \
      "$OUT/load_table_v1model.p4"; then
    echo "p4c-bm2-ss: compiled (plain and -DLT_TEST_CLOCK)"
    compiled=1
  else
    fail "p4c-bm2-ss"
  fi
fi

echo "== v1model: STF on BMv2 simple_switch"
runner="${P4C_SRC:-}/backends/bmv2/run-bmv2-test.py"
if [ $compiled = 0 ]; then
  echo "skipped: BMv2 run needs the compiled v1model program (p4c-bm2-ss)"
elif have simple_switch && have simple_switch_CLI; then
  if [ -z "${P4C_SRC:-}" ] || [ ! -f "$runner" ]; then
    echo "skipped: run-bmv2-test.py not found (set P4C_SRC to a p4c source tree)"
  elif ! python3 -c "import ply, scapy" 2> /dev/null; then
    echo "skipped: python3 modules ply and scapy not found (pip install ply scapy==2.5.0)"
  else
    # run-bmv2-test.py takes the compiler from a p4c build directory and reads its config.h to
    # know that BMv2 is there; this one points at the p4c-bm2-ss found on PATH.
    bd="$(realpath "$OUT")/bmv2-build"
    mkdir -p "$bd"
    ln -sf "$(command -v p4c-bm2-ss)" "$bd/p4c-bm2-ss"
    echo "#define HAVE_SIMPLE_SWITCH 1" > "$bd/config.h"
    for stf in "${STFS[@]}"; do
      log="$OUT/bmv2-$(basename "$stf" .stf).log"
      # From target/p4: the runner leaves its temporary directory in the current one when a
      # test fails.
      p4="$(realpath "$OUT/load_table_v1model.p4")"
      abs_stf="$(realpath "$stf")"
      if (cd "$OUT" && python3 "$runner" "$P4C_SRC" "$p4" -bd "$bd" -tf "$abs_stf" \
        -a=-DLT_TEST_CLOCK) > "$log" 2>&1; then
        echo "bmv2 $stf: PASS"
      else
        fail "bmv2 $stf (log: $log)"
        tail -20 "$log"
      fi
    done
  fi
fi

echo "== tna: p4test"
if have p4test; then
  if [ -z "${TNA_INCLUDE:-}" ] || [ ! -f "$TNA_INCLUDE/tna.p4" ]; then
    echo "skipped: TNA include path not given (TNA_INCLUDE=<dir with tna.p4>)"
  elif p4test --std p4-16 -I "$TNA_INCLUDE" -D__TARGET_TOFINO__=1 "$OUT/load_table_tna.p4" &&
    p4test --std p4-16 -I "$TNA_INCLUDE" -D__TARGET_TOFINO__=1 -DLT_TEST_CLOCK "$OUT/load_table_tna.p4"; then
    echo "p4test: TNA program type-checks (plain and -DLT_TEST_CLOCK)"
  else
    fail "p4test (TNA)"
  fi
fi

if [ $failed = 0 ]; then
  echo "p4-check: done (steps whose tools are missing were skipped, above)"
fi
exit $failed
