//! Co-simulation of `context_pipe` (the NIC's context shell, through its check design): the
//! Verilated RTL against the model, every output port on every cycle, at 4 ids (every event's
//! id collides with the ones around it) and at the default 1024. `STRACK_COSIM_CYCLES` sets the
//! cycles per design (default 10^6).

use golden_model::Config;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use testbench::configs::context_pipe_small_config;
use testbench::context_pipe::{stimulus, Block, Cycle};
use testbench::designs::{
    ContextPipeDefault, ContextPipeNoForward1, ContextPipeNoForward2, ContextPipeNoForward3,
    ContextPipeNoForward4, ContextPipeSmall,
};
use testbench::{assert_fault_is_caught, cosim_proptest, cycles_budget, Dut};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/context_pipe.txt"
);

fn sweep<D: Dut>(name: &str, make: fn(bool) -> D, cfg: Config) {
    cosim_proptest(
        name,
        make,
        || Block::new(&cfg),
        stimulus(&cfg, 5_000..15_000),
        10_000,
        cycles_budget(1_000_000),
        REGRESSIONS,
    );
}

#[test]
fn context_pipe() {
    sweep(
        "context_pipe_default",
        ContextPipeDefault::new,
        Config::default(),
    );
}

#[test]
fn context_pipe_small() {
    sweep(
        "context_pipe_small",
        ContextPipeSmall::new,
        context_pipe_small_config(),
    );
}

/// With the forwarding off at any one distance (1 to 4 cycles between two events on an id),
/// the co-sim fails: each distance is needed, and each is exercised.
#[test]
fn context_pipe_broken_variants_are_caught() {
    let cfg = context_pipe_small_config();
    let mut runner = TestRunner::deterministic();
    let stim: Vec<Cycle> = stimulus(&cfg, 2_000..4_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let model = || Block::new(&cfg);
    let reports = [
        assert_fault_is_caught(
            ContextPipeNoForward1::new,
            ContextPipeSmall::new,
            model,
            &stim,
        ),
        assert_fault_is_caught(
            ContextPipeNoForward2::new,
            ContextPipeSmall::new,
            model,
            &stim,
        ),
        assert_fault_is_caught(
            ContextPipeNoForward3::new,
            ContextPipeSmall::new,
            model,
            &stim,
        ),
        assert_fault_is_caught(
            ContextPipeNoForward4::new,
            ContextPipeSmall::new,
            model,
            &stim,
        ),
    ];
    for (d, text) in reports.iter().enumerate() {
        println!("no forwarding at distance {}:\n{text}", d + 1);
    }
}
