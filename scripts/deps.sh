#!/usr/bin/env bash
# Installs or checks what the build needs; idempotent. Nothing is downloaded except from the
# package registries (crates.io through cargo).
set -euo pipefail

missing=()
command -v cargo >/dev/null || missing+=("cargo (install the Rust toolchain with rustup)")
cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt >/dev/null 2>&1 || missing+=("rustfmt (rustup component add rustfmt)")
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy >/dev/null 2>&1 || missing+=("clippy (rustup component add clippy)")

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: missing: ${missing[*]}" >&2
  exit 1
fi
