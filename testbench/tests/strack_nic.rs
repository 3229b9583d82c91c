//! Co-simulation of `strack_nic` (the four blocks composed, latency 4, one step per clock),
//! closed loop against a peer model NIC over links that delay, reorder, drop and ECN-mark,
//! with forged SACKs and data mixed in: the Verilated RTL against the golden model, every
//! output port on every cycle, for the default design and a small one (32-PSN window, 8-bit
//! segments, 16 paths); both start just before the 2^24 PSN wrap.
//! `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use testbench::configs::{small_nic_config, SACK_INITIAL_PSN};
use testbench::designs::{StrackNicBroken, StrackNicDefault, StrackNicSmall};
use testbench::strack_nic::{demo_mix, stimulus, stream, Block};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/strack_nic.txt"
);

#[test]
fn strack_nic() {
    let cfg = Config::default();
    cosim_proptest(
        "strack_nic_default",
        StrackNicDefault::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn strack_nic_small() {
    let cfg = small_nic_config();
    cosim_proptest(
        "strack_nic_small",
        StrackNicSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

/// A broken RTL (the entropy bitmap's ECN sense flipped, inside the NIC) must be caught.
#[test]
fn strack_nic_broken_variant_is_caught() {
    let cfg = small_nic_config();
    let stim = stream(&cfg, demo_mix(5, 20_000));
    let text = assert_fault_is_caught(
        StrackNicBroken::new,
        StrackNicSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        &stim,
    );
    println!("{text}");
}
