//! `strackgen formal`'s quick part, as `make test` runs it: the output conventions of each
//! RAM-pipelined block proven for all depths, and every broken design (forwarding off) caught
//! by the shadow model's bounded check with a counterexample written. The deep bounded checks
//! are `make formal`'s (docs/formal.md).
//!
//! The tools come from `make deps`. Where they are missing the tests say so and pass, except
//! under CI (`CI` set), where a missing tool fails them: CI must run the proofs.

use std::path::PathBuf;

use strackgen::formal::{self, Method, Verdict};

fn tools() -> Option<formal::Tools> {
    match formal::Tools::find() {
        Ok(t) => Some(t),
        Err(e) if std::env::var_os("CI").is_some() => panic!("formal tools missing under CI: {e}"),
        Err(e) => {
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn out(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn the_conventions_are_proven_and_every_broken_design_is_caught() {
    let Some(tools) = tools() else { return };
    let opts = formal::Options {
        blocks: formal::block_names()
            .iter()
            .map(|b| b.to_string())
            .collect(),
        quick: true,
        depth: None,
        out: out("formal-quick"),
    };
    let rows = formal::run(&tools, &opts, true).expect("the formal run");
    for d in formal::DESIGNS {
        let of: Vec<_> = rows.iter().filter(|r| r.block == d.block).collect();
        assert_eq!(of.len(), 1 + d.faults.len(), "{}: {of:?}", d.block);
        let conv = of[0];
        assert_eq!(conv.method, Method::Induction);
        assert_eq!(conv.verdict, Verdict::Proven, "{}", formal::line(conv));
        for r in &of[1..] {
            match r.verdict {
                Verdict::Caught { step } => {
                    assert!(step < r.depth, "{}", formal::line(r));
                    assert!(!r.failed_assertions.is_empty(), "{}", formal::line(r));
                    let vcd = r.trace.as_ref().expect("a counterexample");
                    let text = std::fs::read_to_string(vcd).expect("the VCD");
                    assert!(text.contains("$enddefinitions"), "{}", vcd.display());
                }
                _ => panic!("a broken design was not caught: {}", formal::line(r)),
            }
        }
    }
}

/// The wrappers' shadow models are written for their own configuration: a core generated from
/// another one is refused when the model is built, not checked against the wrong shadow.
#[test]
fn a_core_from_another_configuration_is_refused() {
    let Some(tools) = tools() else { return };
    let mut cfg = formal::config_of(&formal::DESIGNS[0]).expect("the formal config");
    cfg.load_table.links = 5;
    let err = formal::build_model_for(
        &tools,
        "load_table",
        &cfg,
        "CHECK_SHADOW",
        &out("formal-mismatch"),
    )
    .expect_err("a mismatched core");
    assert!(err.contains("formal_wrapper_config_mismatch"), "{err}");
}

#[test]
fn an_unknown_block_is_refused_with_the_known_ones() {
    let Some(tools) = tools() else { return };
    let opts = formal::Options {
        blocks: vec!["nic_sender".into()],
        quick: true,
        depth: None,
        out: out("formal-unknown"),
    };
    let err = formal::run(&tools, &opts, false).expect_err("an unknown block");
    assert!(
        err.contains("nic_sender") && err.contains("load_table, context_pipe"),
        "{err}"
    );
}
