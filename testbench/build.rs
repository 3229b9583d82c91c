//! Our own thin Verilator binding (the `verilated` crate does not build against Verilator 5;
//! see docs/verilator.md).
//!
//! For every design in `DESIGNS`: generate the block's Verilog through `hdl`, run
//! `verilator --cc --trace`, write a C ABI shim (`extern "C"` new/free/eval/trace and one
//! getter or setter per port), and compile it with the `cc` crate. The Verilator runtime is
//! compiled once into its own library and shared by every design. Rust bindings with typed
//! accessors are written to `$OUT_DIR/designs.rs` and included by `src/designs.rs`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use hdl::{Dir, Fault, Options, Port};
use strack_config::Config;

/// A design to co-simulate: a block, a config and an optional injected fault.
struct Design {
    /// Unique name: the Rust type, the C prefix and the Verilator `--prefix`.
    name: &'static str,
    block: &'static str,
    config: fn() -> Config,
    fault: Option<Fault>,
    initial_psn: u32,
}

include!("src/configs.rs");

const DESIGNS: &[Design] = &[
    Design {
        name: "context_pipe_default",
        block: "context_pipe",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "context_pipe_small",
        block: "context_pipe",
        config: context_pipe_small_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "context_pipe_no_forward_1",
        block: "context_pipe",
        config: context_pipe_small_config,
        fault: Some(Fault::ContextPipeNoForward(1)),
        initial_psn: 0,
    },
    Design {
        name: "context_pipe_no_forward_2",
        block: "context_pipe",
        config: context_pipe_small_config,
        fault: Some(Fault::ContextPipeNoForward(2)),
        initial_psn: 0,
    },
    Design {
        name: "context_pipe_no_forward_3",
        block: "context_pipe",
        config: context_pipe_small_config,
        fault: Some(Fault::ContextPipeNoForward(3)),
        initial_psn: 0,
    },
    Design {
        name: "context_pipe_no_forward_4",
        block: "context_pipe",
        config: context_pipe_small_config,
        fault: Some(Fault::ContextPipeNoForward(4)),
        initial_psn: 0,
    },
    Design {
        name: "entropy_bitmap_default",
        block: "entropy_bitmap",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "entropy_bitmap_small",
        block: "entropy_bitmap",
        config: small_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "entropy_bitmap_broken",
        block: "entropy_bitmap",
        config: small_config,
        fault: Some(Fault::EntropyBitmapBitSense),
        initial_psn: 0,
    },
    Design {
        name: "entropy_bitmap_reset_keeps_state",
        block: "entropy_bitmap",
        config: small_config,
        fault: Some(Fault::EntropyBitmapResetKeepsState),
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_default",
        block: "cwnd_unit",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_small",
        block: "cwnd_unit",
        config: small_cwnd_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_wide",
        block: "cwnd_unit",
        config: wide_cwnd_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_broken",
        block: "cwnd_unit",
        config: small_cwnd_config,
        fault: Some(Fault::CwndUnitNoFairness),
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_ratio_cap",
        block: "cwnd_unit",
        config: small_cwnd_config,
        fault: Some(Fault::CwndUnitRatioCap),
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_rounded_bdp_test",
        block: "cwnd_unit",
        config: small_cwnd_config,
        fault: Some(Fault::CwndUnitRoundedBdpTest),
        initial_psn: 0,
    },
    Design {
        name: "cwnd_unit_reset_keeps_window",
        block: "cwnd_unit",
        config: small_cwnd_config,
        fault: Some(Fault::CwndUnitResetKeepsWindow),
        initial_psn: 0,
    },
    Design {
        name: "load_table_4x4",
        block: "load_table",
        config: load_table_4x4_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "load_table_8x10",
        block: "load_table",
        config: load_table_8x10_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "load_table_64x16",
        block: "load_table",
        config: load_table_64x16_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "load_table_default",
        block: "load_table",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "load_table_broken",
        block: "load_table",
        config: load_table_4x4_config,
        fault: Some(Fault::LoadTableNoForward),
        initial_psn: 0,
    },
    Design {
        name: "load_table_reset_keeps_rows",
        block: "load_table",
        config: load_table_4x4_config,
        fault: Some(Fault::LoadTableResetKeepsRows),
        initial_psn: 0,
    },
    Design {
        name: "tx_sched_default",
        block: "tx_sched",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "tx_sched_small",
        block: "tx_sched",
        config: tx_sched_small_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "tx_sched_tiny",
        block: "tx_sched",
        config: tx_sched_tiny_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "tx_sched_keep_stale",
        block: "tx_sched",
        config: tx_sched_small_config,
        fault: Some(Fault::TxSchedKeepStale),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_default",
        block: "nic_cwnd",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_small",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_1",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(1)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_2",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(2)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_3",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(3)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_4",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(4)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_5",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(5)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_6",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(6)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_7",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(7)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_13",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(13)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_14",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(14)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_15",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(15)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_16",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(16)),
        initial_psn: 0,
    },
    Design {
        name: "nic_cwnd_no_forward_17",
        block: "nic_cwnd",
        config: nic_cwnd_small_config,
        fault: Some(Fault::NicCwndNoForward(17)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_default",
        block: "nic_entropy",
        config: Config::default,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_small",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: None,
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_1",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(1)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_2",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(2)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_3",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(3)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_4",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(4)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_5",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(5)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_6",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(6)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_forward_7",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoForward(7)),
        initial_psn: 0,
    },
    Design {
        name: "nic_entropy_no_wrap_clear",
        block: "nic_entropy",
        config: nic_entropy_small_config,
        fault: Some(Fault::NicEntropyNoWrapClear),
        initial_psn: 0,
    },
    Design {
        name: "nic_rx_small",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_1",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(1)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_2",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(2)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_3",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(3)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_4",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(4)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_5",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(5)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_6",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(6)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_no_forward_7",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::ContextPipeNoForward(7)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_head_wrap_swapped",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::NicRxHeadWrapSwapped),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_from_base_flipped",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::NicRxFromBaseFlipped),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_rx_hit1_copy_flipped",
        block: "nic_rx",
        config: nic_rx_small_config,
        fault: Some(Fault::NicRxHit1CopyFlipped),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_default",
        block: "nic_sender",
        config: Config::default,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_small",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_whole_segment",
        block: "nic_sender",
        config: nic_sender_whole_segment_config,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_1",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(1)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_2",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(2)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_3",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(3)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_4",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(4)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_5",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(5)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_6",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(6)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_no_forward_7",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(7)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_settle_blind_1",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::NicSenderSettleBlind(1)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_settle_blind_4",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::NicSenderSettleBlind(4)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_sender_retx_inverted",
        block: "nic_sender",
        config: nic_sender_small_config,
        fault: Some(Fault::NicSenderRetxInverted),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_tx_small",
        block: "nic_tx",
        config: nic_sender_small_config,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_tx_sender_no_forward_1",
        block: "nic_tx",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(1)),
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_default",
        block: "nic",
        config: Config::default,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_small",
        block: "nic",
        config: nic_sender_small_config,
        fault: None,
        initial_psn: SACK_INITIAL_PSN,
    },
    Design {
        name: "nic_no_forward_1",
        block: "nic",
        config: nic_sender_small_config,
        fault: Some(Fault::ContextPipeNoForward(1)),
        initial_psn: SACK_INITIAL_PSN,
    },
];

/// The installed Verilator's include directory, from the tool itself (`verilator --getenv
/// VERILATOR_ROOT`), never a path written here.
fn vl_include(verilator: &str) -> PathBuf {
    let out = Command::new(verilator)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .unwrap_or_else(|e| panic!("testbench: `{verilator} --getenv VERILATOR_ROOT`: {e}"));
    let root = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let inc = Path::new(&root).join("include");
    assert!(
        out.status.success() && inc.join("verilated.h").is_file(),
        "testbench: `{verilator} --getenv VERILATOR_ROOT` gave `{root}`, without \
         include/verilated.h: is Verilator 5 installed whole?"
    );
    inc
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=VERILATOR");
    println!("cargo:rerun-if-env-changed=RUSTC_WORKSPACE_WRAPPER");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let verilator = std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into());
    if Command::new(&verilator).arg("--version").output().is_err() {
        panic!(
            "testbench: `{verilator}` not found. Install Verilator 5 (`make deps`, or \
             `apt-get install verilator`), or set VERILATOR to its path."
        );
    }

    // Under `cargo clippy` nothing is linked: the bindings are all it needs, so Verilator and
    // the C++ compile (minutes, and `cargo test` does them again in its own build) are skipped.
    let checking = std::env::var("RUSTC_WORKSPACE_WRAPPER").is_ok_and(|w| {
        Path::new(&w)
            .file_stem()
            .is_some_and(|s| s == "clippy-driver")
    });

    // Generation and Verilator run two designs at a time (each is one process on one core).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Prepared)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(d) = DESIGNS.get(i) else { break };
                        mine.push((i, prepare(d, &out, &verilator, checking)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| {
                w.join()
                    .expect("testbench: a design's preparation panicked")
            })
            .collect()
    });
    done.sort_by_key(|p| p.0);
    let mut rust = String::from("// Generated by testbench/build.rs. Do not edit.\n");
    let mut units: Vec<Unit> = Vec::new();
    let mut blocks: Vec<(&'static str, &'static str, Vec<Port>)> = Vec::new();
    for (i, p) in done {
        rust.push_str(&p.binding);
        units.extend(p.unit);
        match blocks.iter().find(|b| b.1 == p.block) {
            Some((first, _, ports)) => {
                let names = |ps: &[Port]| -> Vec<(String, bool)> {
                    ps.iter()
                        .map(|q| (q.name.clone(), q.dir == Dir::Input))
                        .collect()
                };
                assert_eq!(
                    names(ports),
                    names(&p.ports),
                    "testbench: {} and {} are both `{}` but have other ports",
                    first,
                    DESIGNS[i].name,
                    p.block
                );
            }
            None => blocks.push((DESIGNS[i].name, p.block, p.ports)),
        }
    }
    rust.push_str(&port_constants(&blocks));
    // Largest first, so that the longest compile does not start last.
    units.sort_by_key(|u| std::cmp::Reverse(u.bytes));
    let pick = |fault: bool| -> Vec<&Path> {
        units
            .iter()
            .filter(|u| u.fault == fault)
            .map(|u| u.path.as_path())
            .collect()
    };
    if checking {
        std::fs::write(out.join("designs.rs"), rust).unwrap();
        return;
    }

    // The designs, two libraries: the fault variants run a few thousand cycles until their
    // first mismatch, so they are compiled unoptimised (half the generated C++; -O0 compiles a
    // design about 2.8 times faster than -O2), the rest optimised for the long co-sims.
    let inc = vl_include(&verilator);
    for (lib, fault, opt) in [("strack_designs", false, 2), ("strack_faults", true, 0)] {
        let mut b = cxx(&inc);
        b.opt_level(opt).include(out.join("vl"));
        for d in DESIGNS {
            b.include(out.join("vl").join(d.name));
        }
        b.files(pick(fault)).compile(lib);
    }

    // The Verilator runtime, once.
    let mut rt = cxx(&inc);
    for f in [
        "verilated.cpp",
        "verilated_vcd_c.cpp",
        "verilated_threads.cpp",
    ] {
        rt.file(inc.join(f));
    }
    rt.compile("verilated_rt");
    println!("cargo:rustc-link-lib=pthread");

    std::fs::write(out.join("designs.rs"), rust).unwrap();
}

/// One design made ready: its Rust binding, and (unless only checking) its C++ as one unit.
struct Prepared {
    binding: String,
    unit: Option<Unit>,
    /// The block and its ports, for the block's port constants.
    block: &'static str,
    ports: Vec<Port>,
}

/// A design's C++ as one translation unit.
struct Unit {
    /// The generated C++ it includes (the compile's size).
    bytes: u64,
    path: PathBuf,
    /// A fault variant (compiled unoptimised).
    fault: bool,
}

/// Generate `d`'s Verilog through `hdl`, write its binding, and (unless `checking`) run
/// Verilator and write its shim and its one-unit C++.
fn prepare(d: &Design, out: &Path, verilator: &str, checking: bool) -> Prepared {
    let cfg = (d.config)();
    let block = hdl::generate(
        d.block,
        &cfg,
        &Options {
            fault: d.fault,
            initial_psn: d.initial_psn,
            // Every sender design starts its byte counters near the 2^32 wrap.
            initial_bytes: if ["nic_sender", "nic_tx", "nic"].contains(&d.block) {
                NIC_SENDER_INITIAL_BYTES
            } else {
                0
            },
        },
    )
    .unwrap_or_else(|e| panic!("testbench: {}: {e}", d.name));
    let dir = out.join("vl").join(d.name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let vfile = dir.join(format!("{}.v", d.block));
    std::fs::write(&vfile, &block.verilog).unwrap();
    let binding = rust_binding(d.name, d.block, block.latency, &block.ports);
    if checking {
        return Prepared {
            binding,
            unit: None,
            block: d.block,
            ports: block.ports,
        };
    }
    let prefix = format!("V{}", d.name);
    let status = Command::new(verilator)
        .args([
            "--cc",
            "--trace",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "-O3",
        ])
        .args(["--prefix", &prefix, "--top-module", d.block, "--Mdir"])
        .arg(&dir)
        .arg(&vfile)
        .status()
        .expect("run verilator");
    assert!(
        status.success(),
        "testbench: verilator failed on {}",
        d.name
    );
    std::fs::write(dir.join("shim.cpp"), shim(d.name, &prefix, &block.ports)).unwrap();
    // One translation unit per design, as Verilator's own makefile builds when it does not
    // split the build: the runtime headers are parsed once per design instead of once per
    // file (a 0.64 MB design: 20.9 s of compile split, 9.4 s as one unit).
    let mut files: Vec<(u64, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
        .map(|p| {
            let len = std::fs::metadata(&p).unwrap().len();
            (len, p.file_name().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    files.sort_by(|a, b| a.1.cmp(&b.1));
    let unit = dir.join("design.cpp");
    let mut text = String::from("// Generated by testbench/build.rs: the design as one unit.\n");
    for (_, f) in &files {
        let _ = writeln!(text, "#include \"{f}\"");
    }
    std::fs::write(&unit, text).unwrap();
    Prepared {
        binding,
        block: d.block,
        ports: block.ports.clone(),
        unit: Some(Unit {
            bytes: files.iter().map(|f| f.0).sum(),
            path: unit,
            fault: d.fault.is_some(),
        }),
    }
}

/// A C++ build with Verilator's include directory `inc`.
fn cxx(inc: &Path) -> cc::Build {
    let mut b = cc::Build::new();
    b.cpp(true)
        .std("c++17")
        .include(inc)
        .include(inc.join("vltstd"))
        .define("VM_TRACE", "1")
        .define("VM_TRACE_VCD", "1")
        .define("VM_COVERAGE", "0")
        .define("VM_SC", "0")
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-variable")
        .flag_if_supported("-Wno-sign-compare")
        .flag_if_supported("-Wno-shadow")
        .flag_if_supported("-faligned-new")
        .warnings(false)
        // No debug info: it made the generated C++ a third slower to compile, and a failing
        // co-sim is read in its VCD, not in a debugger.
        .debug(false)
        .opt_level(2);
    b
}

fn words(width: u32) -> u32 {
    width.div_ceil(32)
}

fn shim(name: &str, prefix: &str, ports: &[Port]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "#include \"{prefix}.h\"\n#include \"verilated_vcd_c.h\"\n#include <cstdint>\n#include <cstddef>");
    let _ = writeln!(
        s,
        "struct H_{name} {{ VerilatedContext ctx; {prefix}* top = nullptr; VerilatedVcdC* tfp = nullptr; bool trace_on = false; }};"
    );
    let _ = writeln!(s, "extern \"C\" {{");
    let _ = writeln!(
        s,
        "void* {name}_new(int trace) {{ auto h = new H_{name}(); if (trace) {{ h->ctx.traceEverOn(true); h->trace_on = true; }} h->top = new {prefix}(&h->ctx, \"top\"); return h; }}"
    );
    let _ = writeln!(
        s,
        "void {name}_free(void* p) {{ auto h = (H_{name}*)p; if (h->tfp) {{ h->tfp->close(); delete h->tfp; }} h->top->final(); delete h->top; delete h; }}"
    );
    let _ = writeln!(
        s,
        "void {name}_eval(void* p) {{ ((H_{name}*)p)->top->eval(); }}"
    );
    let _ = writeln!(
        s,
        "int {name}_trace_open(void* p, const char* path) {{ auto h = (H_{name}*)p; if (!h->trace_on) return 0; h->tfp = new VerilatedVcdC; h->top->trace(h->tfp, 99); h->tfp->open(path); return h->tfp->isOpen() ? 1 : 0; }}"
    );
    let _ = writeln!(s, "void {name}_trace_dump(void* p, uint64_t t) {{ auto h = (H_{name}*)p; if (h->tfp) h->tfp->dump(t); }}");
    let _ = writeln!(s, "void {name}_trace_close(void* p) {{ auto h = (H_{name}*)p; if (h->tfp) {{ h->tfp->close(); delete h->tfp; h->tfp = nullptr; }} }}");
    for p in ports {
        let n = &p.name;
        match (p.dir, p.width <= 64) {
            (Dir::Input, true) => {
                let _ = writeln!(
                    s,
                    "void {name}_set_{n}(void* p, uint64_t v) {{ ((H_{name}*)p)->top->{n} = v; }}"
                );
            }
            (Dir::Output, true) => {
                let _ = writeln!(
                    s,
                    "uint64_t {name}_get_{n}(void* p) {{ return ((H_{name}*)p)->top->{n}; }}"
                );
            }
            (Dir::Input, false) => {
                let _ = writeln!(
                    s,
                    "void {name}_set_{n}(void* p, const uint32_t* w) {{ for (size_t i = 0; i < {}; i++) ((H_{name}*)p)->top->{n}[i] = w[i]; }}",
                    words(p.width)
                );
            }
            (Dir::Output, false) => {
                let _ = writeln!(
                    s,
                    "void {name}_get_{n}(void* p, uint32_t* w) {{ for (size_t i = 0; i < {}; i++) w[i] = ((H_{name}*)p)->top->{n}[i]; }}",
                    words(p.width)
                );
            }
        }
    }
    let _ = writeln!(s, "}}");
    s
}

/// One module per block, `ports::<block>`, with a constant for each port, typed by direction
/// ([`In`]/[`Out`] in `src/lib.rs`): the co-sim drivers name ports through them, so a port the
/// generated RTL does not have, or an output driven as an input, does not compile.
fn port_constants(blocks: &[(&str, &str, Vec<Port>)]) -> String {
    let mut s =
        String::from("\n/// Every co-simulated block's ports, as generated.\npub mod ports {\n");
    for (design, block, ports) in blocks {
        let _ = writeln!(
            s,
            "    /// `{block}`'s ports (from the generated design `{design}`; every design of the block has these).\n    pub mod {block} {{\n        use crate::{{In, Out}};"
        );
        for p in ports {
            let (ty, what) = match p.dir {
                Dir::Input => ("In", "input"),
                Dir::Output => ("Out", "output"),
            };
            let _ = writeln!(
                s,
                "        /// `{}`, {what}.\n        pub const {}: {ty} = {ty}(\"{}\");",
                p.name,
                p.name.to_uppercase(),
                p.name
            );
        }
        s.push_str("    }\n");
    }
    s.push_str("}\n");
    s
}

fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| w[..1].to_uppercase() + &w[1..])
        .collect()
}

fn rust_binding(name: &str, block: &str, latency: u32, ports: &[Port]) -> String {
    let ty = camel(name);
    let mut s = String::new();
    let _ = writeln!(s, "\n/// `{block}` as built for design `{name}`.");
    let _ = writeln!(s, "pub struct {ty} {{ h: *mut c_void, time: u64 }}");
    let _ = writeln!(
        s,
        "// SAFETY: each instance owns its own VerilatedContext and model."
    );
    let _ = writeln!(s, "unsafe impl Send for {ty} {{}}");
    let _ = writeln!(s, "unsafe extern \"C\" {{");
    let _ = writeln!(s, "    fn {name}_new(trace: i32) -> *mut c_void;");
    let _ = writeln!(s, "    fn {name}_free(p: *mut c_void);");
    let _ = writeln!(s, "    fn {name}_eval(p: *mut c_void);");
    let _ = writeln!(
        s,
        "    fn {name}_trace_open(p: *mut c_void, path: *const c_char) -> i32;"
    );
    let _ = writeln!(s, "    fn {name}_trace_dump(p: *mut c_void, t: u64);");
    let _ = writeln!(s, "    fn {name}_trace_close(p: *mut c_void);");
    for p in ports {
        let n = &p.name;
        match (p.dir, p.width <= 64) {
            (Dir::Input, true) => {
                let _ = writeln!(s, "    fn {name}_set_{n}(p: *mut c_void, v: u64);");
            }
            (Dir::Output, true) => {
                let _ = writeln!(s, "    fn {name}_get_{n}(p: *mut c_void) -> u64;");
            }
            (Dir::Input, false) => {
                let _ = writeln!(s, "    fn {name}_set_{n}(p: *mut c_void, w: *const u32);");
            }
            (Dir::Output, false) => {
                let _ = writeln!(s, "    fn {name}_get_{n}(p: *mut c_void, w: *mut u32);");
            }
        }
    }
    let _ = writeln!(s, "}}");
    let _ = writeln!(s, "impl {ty} {{");
    let _ = writeln!(s, "    pub const BLOCK: &'static str = \"{block}\";");
    let _ = writeln!(s, "    pub const NAME: &'static str = \"{name}\";");
    let _ = writeln!(s, "    pub const LATENCY: u32 = {latency};");
    let _ = writeln!(s, "    pub const PORTS: &'static [PortInfo] = &[");
    for p in ports {
        let _ = writeln!(
            s,
            "        PortInfo {{ name: \"{}\", output: {}, width: {} }},",
            p.name,
            p.dir == Dir::Output,
            p.width
        );
    }
    let _ = writeln!(s, "    ];");
    let _ = writeln!(
        s,
        "    /// A new instance; with `trace`, VCD tracing can be opened."
    );
    let _ = writeln!(s, "    pub fn new(trace: bool) -> Self {{ {ty} {{ h: unsafe {{ {name}_new(trace as i32) }}, time: 0 }} }}");
    for p in ports {
        let n = &p.name;
        match (p.dir, p.width <= 64) {
            (Dir::Input, true) => {
                let _ = writeln!(s, "    pub fn set_{n}(&mut self, v: u64) {{ unsafe {{ {name}_set_{n}(self.h, v) }} }}");
            }
            (Dir::Output, true) => {
                let _ = writeln!(
                    s,
                    "    pub fn {n}(&self) -> u64 {{ unsafe {{ {name}_get_{n}(self.h) }} }}"
                );
            }
            (Dir::Input, false) => {
                let _ = writeln!(s, "    pub fn set_{n}(&mut self, w: &[u32; {}]) {{ unsafe {{ {name}_set_{n}(self.h, w.as_ptr()) }} }}", words(p.width));
            }
            (Dir::Output, false) => {
                let _ = writeln!(s, "    pub fn {n}(&self) -> [u32; {}] {{ let mut w = [0u32; {}]; unsafe {{ {name}_get_{n}(self.h, w.as_mut_ptr()) }}; w }}", words(p.width), words(p.width));
            }
        }
    }
    let _ = writeln!(s, "}}");
    let _ = writeln!(s, "impl Dut for {ty} {{");
    let _ = writeln!(s, "    fn name(&self) -> &'static str {{ Self::NAME }}");
    let _ = writeln!(
        s,
        "    fn ports(&self) -> &'static [PortInfo] {{ Self::PORTS }}"
    );
    let _ = writeln!(
        s,
        "    fn eval(&mut self) {{ unsafe {{ {name}_eval(self.h) }} }}"
    );
    let _ = writeln!(s, "    fn time(&mut self) -> &mut u64 {{ &mut self.time }}");
    let _ = writeln!(s, "    fn trace_open(&mut self, path: &std::path::Path) -> bool {{ let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).unwrap(); unsafe {{ {name}_trace_open(self.h, c.as_ptr()) == 1 }} }}");
    let _ = writeln!(
        s,
        "    fn trace_dump(&mut self, t: u64) {{ unsafe {{ {name}_trace_dump(self.h, t) }} }}"
    );
    let _ = writeln!(
        s,
        "    fn trace_close(&mut self) {{ unsafe {{ {name}_trace_close(self.h) }} }}"
    );
    let _ = writeln!(
        s,
        "    fn set(&mut self, port: crate::In, v: u64) {{ match port.0 {{"
    );
    for p in ports
        .iter()
        .filter(|p| p.dir == Dir::Input && p.width <= 64)
    {
        let _ = writeln!(s, "        \"{0}\" => self.set_{0}(v),", p.name);
    }
    let _ = writeln!(
        s,
        "        _ => panic!(\"{name}: no narrow input port {{port:?}}\"), }} }}"
    );
    let _ = writeln!(
        s,
        "    fn get(&self, port: crate::Out) -> u64 {{ match port.0 {{"
    );
    for p in ports
        .iter()
        .filter(|p| p.dir == Dir::Output && p.width <= 64)
    {
        let _ = writeln!(s, "        \"{0}\" => self.{0}(),", p.name);
    }
    let _ = writeln!(
        s,
        "        _ => panic!(\"{name}: no narrow output port {{port:?}}\"), }} }}"
    );
    let _ = writeln!(
        s,
        "    fn set_words(&mut self, port: crate::In, w: &[u32]) {{ match port.0 {{"
    );
    for p in ports.iter().filter(|p| p.dir == Dir::Input && p.width > 64) {
        let _ = writeln!(
            s,
            "        \"{0}\" => self.set_{0}(w.try_into().expect(\"{0}: {1} words\")),",
            p.name,
            words(p.width)
        );
    }
    let _ = writeln!(
        s,
        "        _ => panic!(\"{name}: no wide input port {{port:?}}\"), }} }}"
    );
    let _ = writeln!(
        s,
        "    fn get_words(&self, port: crate::Out) -> Vec<u32> {{ match port.0 {{"
    );
    for p in ports
        .iter()
        .filter(|p| p.dir == Dir::Output && p.width > 64)
    {
        let _ = writeln!(s, "        \"{0}\" => self.{0}().to_vec(),", p.name);
    }
    let _ = writeln!(
        s,
        "        _ => panic!(\"{name}: no wide output port {{port:?}}\"), }} }}"
    );
    let _ = writeln!(s, "}}");
    let _ = writeln!(
        s,
        "impl Drop for {ty} {{ fn drop(&mut self) {{ unsafe {{ {name}_free(self.h) }} }} }}"
    );
    s
}
