//! `strackgen cosim`'s engine (`testbench::cosim`): a config no other test uses, built at run
//! time, matches its model for 10^5 cycles; a broken design fails with the report, the waves
//! around the mismatch and a GTKWave save file; a second run comes from the cache; a trace is
//! replayed and its unfit fields refused.

use std::path::{Path, PathBuf};

use testbench::cosim::{self, Outcome, Request};
use testbench::dynamic::Toolchain;

/// A config that no other test co-simulates: 128 paths, a 200 Gb/s link with a 4 us base
/// RTT, 64 connections, a 12 x 6 load table of 16-bit loads.
fn unused_config() -> strack_config::Config {
    strack_config::Config::from_toml_str(
        "[entropy_bitmap]\nmax_paths = 128\n\
         [network]\nlink_speed_gbps = 200\nnet_base_rtt_ns = 4000\n\
         [load_table]\nlinks = 12\nslots = 6\nload_bits = 16\n\
         [nic]\nconnections = 64\n",
        "unused",
    )
    .expect("a valid config")
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One cache for the whole file: the designs are built once.
fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("cosim-verb-cache")
}

fn request(cfg: strack_config::Config, blocks: &[&str], cycles: u64, out: &Path) -> Request {
    Request {
        cfg,
        blocks: blocks.iter().map(|b| b.to_string()).collect(),
        cycles,
        seed: 7,
        trace: None,
        waves: None,
        out: out.to_path_buf(),
        toolchain: Toolchain::from_env(cache()),
        fault: None,
    }
}

fn run(req: &Request) -> Result<Vec<Outcome>, cosim::Error> {
    let bar = |_: &str, _: u64| -> Box<dyn Fn(u64)> { Box::new(|_| {}) };
    cosim::run(req, &mut |m| eprintln!("{m}"), &bar, &mut |_| Ok(()))
}

#[test]
fn an_unused_config_matches_for_100k_cycles_and_comes_from_the_cache_the_second_time() {
    let out = scratch("cosim-unused");
    let req = request(
        unused_config(),
        &["entropy_bitmap", "cwnd_unit", "nic", "load_table"],
        100_000,
        &out,
    );
    let first = run(&req).expect("the run");
    for o in &first {
        assert!(
            o.failure.is_none(),
            "{}",
            o.failure.as_ref().unwrap().report
        );
        assert_eq!(o.cycles, 100_000, "{}", o.block);
        assert!(o.events > 50_000, "{}: {} events", o.block, o.events);
        assert!(o.coverage_hit > 0);
    }
    let again = run(&req).expect("the second run");
    for (a, b) in first.iter().zip(&again) {
        assert!(
            !b.built,
            "{}: rebuilt instead of taken from the cache",
            b.block
        );
        assert_eq!(a.design, b.design);
        assert_eq!(
            (a.cycles, a.events),
            (b.cycles, b.events),
            "the same seed, the same run"
        );
    }
    // Another seed is another stimulus.
    let mut other = req.clone();
    other.seed = 8;
    other.blocks = vec!["entropy_bitmap".into()];
    let o = run(&other).unwrap();
    assert_ne!(o[0].events, first[0].events);
}

#[test]
fn a_broken_design_fails_with_the_waves_around_the_mismatch_and_a_save_file() {
    let out = scratch("cosim-broken");
    let mut req = request(unused_config(), &["entropy_bitmap"], 20_000, &out);
    req.fault = Some(hdl::Fault::EntropyBitmapBitSense);
    let o = run(&req).expect("the run");
    let f = o[0].failure.as_ref().expect("the broken design passed");
    assert!(f.report.contains("first mismatch at cycle"), "{}", f.report);
    assert!(f.report.contains("<-- differs"), "{}", f.report);
    assert!(!f.ports.is_empty());
    let waves = PathBuf::from(f.waves.as_ref().expect("waves"));
    assert!(waves.starts_with(&out), "{}", waves.display());
    let len = std::fs::metadata(&waves).unwrap().len();
    assert!(len > 1000, "{}: {len} bytes", waves.display());
    let save = std::fs::read_to_string(f.save_file.as_ref().expect("a save file")).unwrap();
    assert!(
        save.contains(&format!("[dumpfile] \"{}\"", waves.display())),
        "{save}"
    );
    for p in &f.ports {
        assert!(save.contains(&format!("top.{p}")), "{p} not in {save}");
    }
    assert!(save.contains("top.s_valid"), "{save}");
    assert_eq!(
        f.open.as_deref(),
        Some(
            format!(
                "gtkwave {} {}",
                waves.display(),
                f.save_file.as_ref().unwrap()
            )
            .as_str()
        )
    );
}

#[test]
fn a_trace_is_replayed_through_the_rtl_and_fields_the_ports_cannot_carry_are_refused() {
    let out = scratch("cosim-trace");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for block in ["entropy_bitmap", "cwnd_unit", "load_table"] {
        let path = root.join(format!("traces/{block}-sample.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count() as u64;
        let mut req = request(strack_config::Config::default(), &[block], 0, &out);
        req.trace = Some((path.display().to_string(), text));
        let o = run(&req).expect("the run");
        assert!(
            o[0].failure.is_none(),
            "{}",
            o[0].failure.as_ref().unwrap().report
        );
        assert_eq!(o[0].cycles, lines, "{block}: one cycle per line");
        assert_eq!(o[0].events, lines, "{block}: every line an event");
    }
    let bad = [
        (
            "entropy_bitmap",
            "{\"now\": 1}\n{\"now\": 2, \"ack\": {\"entropy\": 70000, \"ecn\": false}}\n",
            "line 2: ack.entropy: 70000 does not fit the RTL's 16-bit port",
        ),
        (
            "load_table",
            "{\"pkt\": {\"link\": 1, \"update\": true, \"deltas\": [1, 2]}}\n",
            "line 1: pkt.deltas has 2 elements; the RTL's port carries the row's 10 slots",
        ),
        ("cwnd_unit", "\n\n", "line 1: the trace has no events"),
        ("cwnd_unit", "{\"now\": 1, \"rtt\": -1}\n", "line 1: column"),
    ];
    for (block, text, want) in bad {
        let mut req = request(strack_config::Config::default(), &[block], 0, &out);
        req.trace = Some(("t.jsonl".into(), text.into()));
        let e = run(&req).expect_err(text).to_string();
        assert!(
            e.starts_with("t.jsonl, ") && e.contains(want),
            "{block}: {e}"
        );
    }
}

#[test]
fn requests_it_cannot_honour_are_refused_before_anything_is_built() {
    let out = scratch("cosim-refused");
    let cases: Vec<(Request, &str)> = vec![
        (
            request(unused_config(), &["sack_sender"], 10, &out),
            "--block sack_sender: not a co-simulated block; the blocks are entropy_bitmap, cwnd_unit, nic, load_table",
        ),
        (
            request(unused_config(), &["nic"], 0, &out),
            "--cycles 0: must be 1 to 20000000",
        ),
        (
            Request {
                trace: Some(("t".into(), "{}".into())),
                ..request(unused_config(), &["nic"], 10, &out)
            },
            "--trace with --block nic",
        ),
        (
            Request {
                trace: Some(("t".into(), "{}".into())),
                ..request(unused_config(), &["cwnd_unit", "load_table"], 10, &out)
            },
            "--trace needs --block",
        ),
        (
            Request {
                waves: Some(out.join("w.vcd")),
                ..request(unused_config(), &["cwnd_unit"], 10, &out)
            },
            "the waves are FST; name the file *.fst",
        ),
    ];
    for (req, want) in cases {
        let e = cosim::check(&req).expect_err(want).to_string();
        assert!(e.contains(want), "{e}");
    }
}
