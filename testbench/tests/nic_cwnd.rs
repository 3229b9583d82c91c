//! Co-simulation of `nic_cwnd` (the NIC's congestion-window units): the Verilated RTL against
//! N cwnd-unit models, every output port on every cycle, at the default config (1024
//! connections) and at 4 connections with the cwnd unit's small config (ids collide
//! constantly). `STRACK_COSIM_CYCLES` sets the cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::nic_cwnd_small_config;
use testbench::designs::{
    NicCwndDefault, NicCwndNoForward1, NicCwndNoForward13, NicCwndNoForward14, NicCwndNoForward15,
    NicCwndNoForward16, NicCwndNoForward17, NicCwndNoForward2, NicCwndNoForward3,
    NicCwndNoForward4, NicCwndNoForward5, NicCwndNoForward6, NicCwndNoForward7, NicCwndSmall,
};
use testbench::nic_cwnd::{stimulus, Block, Cycle};
use testbench::{assert_fault_is_caught_on_some, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/nic_cwnd.txt"
);

fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg),
        stimulus(&cfg, 3_000..9_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn nic_cwnd() {
    sweep("nic_cwnd_default", NicCwndDefault::new, Config::default());
}

#[test]
fn nic_cwnd_small() {
    sweep("nic_cwnd_small", NicCwndSmall::new, nic_cwnd_small_config());
}

/// Each forwarding distance the design uses, turned off, fails the co-sim on one of a few
/// stimuli on which the intact design passes; distance 13 is the farthest open that makes the
/// window in flight a fresh unit's (distances 8 to 13 serve only that override), and it shows
/// only when the connection's window had fallen before the open and the ACK 13 behind it
/// increases or decreases, so it is searched for over up to eight stimuli.
#[test]
fn nic_cwnd_broken_variants_are_caught() {
    let cfg = nic_cwnd_small_config();
    let mut runner = TestRunner::deterministic();
    let stims: Vec<Vec<Cycle>> = (0..8)
        .map(|_| {
            stimulus(&cfg, 6_000..8_000)
                .new_tree(&mut runner)
                .unwrap()
                .current()
        })
        .collect();
    macro_rules! caught {
        ($($d:literal => $design:ident),*) => {$(
            let (i, text) = assert_fault_is_caught_on_some(
                $design::new,
                NicCwndSmall::new,
                || Block::new(&cfg),
                &stims,
            );
            println!("no forwarding at distance {} (stimulus {i}):\n{text}", $d);
        )*};
    }
    caught!(1 => NicCwndNoForward1, 2 => NicCwndNoForward2, 3 => NicCwndNoForward3,
        4 => NicCwndNoForward4, 5 => NicCwndNoForward5, 6 => NicCwndNoForward6,
        7 => NicCwndNoForward7, 13 => NicCwndNoForward13, 14 => NicCwndNoForward14,
        15 => NicCwndNoForward15, 16 => NicCwndNoForward16, 17 => NicCwndNoForward17);
}
