# Two commands for a fresh machine (see README):
#   make demo   the main job on the default config
#   make test   everything CI runs (fmt, clippy -D warnings, all tests)

CARGO ?= cargo
STRACKGEN := target/release/strackgen

.PHONY: demo test deps fmt clippy unit build

deps:
	@scripts/deps.sh

build: deps
	$(CARGO) build --release --locked

demo: build
	@scripts/demo.sh $(STRACKGEN)

fmt: deps
	$(CARGO) fmt --all --check

clippy: deps
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

unit: deps
	$(CARGO) test --workspace --locked

test: fmt clippy unit
