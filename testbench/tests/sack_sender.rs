//! Co-simulation of `sack_sender`, closed loop against a model receiver over lossy links with
//! forged SACKs mixed in: the Verilated RTL against the golden model, every output port on
//! every cycle, for the default design (256-PSN window, 64-bit segments) and a small one
//! (32-PSN window, 8-bit segments); both start just before the 2^24 PSN wrap.
//! `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use testbench::configs::{small_sack_config, SACK_INITIAL_PSN};
use testbench::designs::{
    SackSenderBroken, SackSenderByteWindowOnly, SackSenderDefault, SackSenderOldPsnRule,
    SackSenderSmall,
};
use testbench::sack_sender::{demo_mix, stimulus, stream, Block, Mix};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/sack_sender.txt"
);

#[test]
fn sack_sender() {
    let cfg = Config::default();
    cosim_proptest(
        "sack_sender_default",
        SackSenderDefault::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn sack_sender_small() {
    let cfg = small_sack_config();
    cosim_proptest(
        "sack_sender_small",
        SackSenderSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        stimulus(cfg.clone(), 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

/// A broken RTL (the OOO-count loss detector never fires) must be caught.
#[test]
fn sack_sender_broken_variant_is_caught() {
    let cfg = small_sack_config();
    let stim = stream(&cfg, demo_mix(11, 20_000));
    let text = assert_fault_is_caught(
        SackSenderBroken::new,
        SackSenderSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        &stim,
    );
    println!("{text}");
}

/// The PSN order's old rule must be caught: a SACK whose EPSN is exactly 2^23 from snd_una is
/// stale (accepted, moving nothing) under the rule and malformed under the old one. Forged
/// SACKs are five times as common as in the demo mix.
#[test]
fn sack_sender_old_psn_rule_is_caught() {
    println!("built: sack_sender_old_psn_rule = sack_sender with hdl::Fault::PsnOrderOldRule");
    let cfg = small_sack_config();
    let stim = stream(
        &cfg,
        Mix {
            forge: 0.05,
            ..demo_mix(13, 20_000)
        },
    );
    let text = assert_fault_is_caught(
        SackSenderOldPsnRule::new,
        SackSenderSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        &stim,
    );
    println!("{text}");
}

/// New data limited by the bytes in flight alone (the old rule) must be caught: with the PSN
/// span full and the window open (SACK holes, or a window larger than the span), the broken
/// sender sends a packet the receiver could not track.
#[test]
fn sack_sender_byte_window_only_is_caught() {
    println!(
        "built: sack_sender_byte_window_only = sack_sender with \
         hdl::Fault::SackSenderByteWindowOnly"
    );
    let cfg = small_sack_config();
    let stim = stream(&cfg, demo_mix(14, 20_000));
    let text = assert_fault_is_caught(
        SackSenderByteWindowOnly::new,
        SackSenderSmall::new,
        || Block::new(&cfg, SACK_INITIAL_PSN),
        &stim,
    );
    println!("{text}");
}
