//! Co-simulation of `sack_receiver`: the Verilated RTL against the golden model, every output
//! port on every cycle, for the default design (256-PSN window, 64-bit segments) and a small
//! one (32-PSN window, 8-bit segments); both start just before the 2^24 PSN wrap.
//! `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use testbench::configs::{small_sack_config, SACK_INITIAL_PSN};
use testbench::designs::{
    SackReceiverBroken, SackReceiverDefault, SackReceiverOldPsnRule, SackReceiverSmall,
};
use testbench::sack_receiver::{stimulus, stream, Block, Mix};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/sack_receiver.txt"
);

/// The broken variants' stream: 3000 packets, 10% dropped, much reordering, some duplicates.
fn selftest_mix(seed: u64) -> Mix {
    Mix {
        seed,
        packets: 3_000,
        drop: 0.1,
        reorder: 0.3,
        dup: 0.05,
    }
}

#[test]
fn sack_receiver() {
    let cfg = Config::default();
    cosim_proptest(
        "sack_receiver_default",
        SackReceiverDefault::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), SACK_INITIAL_PSN, 4_000..12_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn sack_receiver_small() {
    let cfg = small_sack_config();
    let p0 = SACK_INITIAL_PSN;
    cosim_proptest(
        "sack_receiver_small",
        SackReceiverSmall::new,
        || Block::new(&cfg, p0),
        stimulus(cfg.clone(), p0, 4_000..12_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

/// A broken RTL (the head-fill SACK trigger never fires) must be caught.
#[test]
fn sack_receiver_broken_variant_is_caught() {
    let cfg = small_sack_config();
    let p0 = SACK_INITIAL_PSN;
    let stim = stream(&cfg, p0, selftest_mix(11));
    let text = assert_fault_is_caught(
        SackReceiverBroken::new,
        SackReceiverSmall::new,
        || Block::new(&cfg, p0),
        &stim,
    );
    println!("{text}");
}

/// The PSN order's old rule (`a` below `b` when `(b - a) mod 2^24` is in `1..2^23`, so a PSN
/// exactly 2^23 from EPSN is neither below nor ahead) must be caught: the stream sends PSNs at
/// `EPSN + 2^23 + k` and half the space below the lowest.
#[test]
fn sack_receiver_old_psn_rule_is_caught() {
    println!("built: sack_receiver_old_psn_rule = sack_receiver with hdl::Fault::PsnOrderOldRule");
    let cfg = small_sack_config();
    let p0 = SACK_INITIAL_PSN;
    let stim = stream(&cfg, p0, selftest_mix(12));
    let text = assert_fault_is_caught(
        SackReceiverOldPsnRule::new,
        SackReceiverSmall::new,
        || Block::new(&cfg, p0),
        &stim,
    );
    println!("{text}");
}
