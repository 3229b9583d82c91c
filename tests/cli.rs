//! End-to-end tests of the `strackgen` command line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use golden_model::{
    cwnd_unit, entropy_bitmap, load_table, nic, sack_receiver, sack_sender, Config,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use strack_config::context::Side;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn strackgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn strackgen_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn strackgen_stdin_bytes(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Run strackgen with `args`: it must be refused (exit 1) with `want` in its error, no panic.
fn assert_refused(args: &[&str], want: &str) {
    let o = strackgen(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(
        err.contains(want),
        "{args:?}:\nexpected: {want}\ngot: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn every_bad_config_is_refused_with_its_expected_message() {
    let mut n = 0;
    let mut files: Vec<_> = std::fs::read_dir(root().join("tests/bad_configs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let body = std::fs::read_to_string(&f).unwrap();
        let expect = body
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{}: no '# expect:' line", f.display()));
        let o = strackgen(&["config", "check", f.to_str().unwrap()]);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{} was accepted", f.display());
        assert_eq!(o.status.code(), Some(1), "{}: {err}", f.display());
        assert!(!err.contains("panicked"), "{}: {err}", f.display());
        assert!(
            err.contains(expect),
            "{}:\nexpected: {expect}\ngot: {err}",
            f.display()
        );
        assert!(o.stdout.is_empty());
        n += 1;
    }
    assert!(n >= 20, "only {n} bad configs");
}

#[test]
fn default_config_checks_and_show_round_trips() {
    let o = strackgen(&["config", "check", "configs/default.toml"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = strackgen(&["config", "show", "--config", "configs/default.toml"]);
    assert!(o.status.success());
    let shown = text(&o.stdout);
    let parsed = Config::from_toml_str(&shown, "show").unwrap();
    assert_eq!(parsed, Config::default().resolved());
    assert!(shown.contains("target_qdelay_ns = 8000") && shown.contains("max_cwnd_bytes = 600000"));
    // The NIC's context arithmetic, as the library computes it.
    let l = Config::default().nic_context();
    let want = format!(
        "send side {} bits ({} EBR), receive side {} bits",
        l.bits(Side::Send),
        l.ebr(Side::Send),
        l.bits(Side::Receive)
    );
    assert!(shown.contains(&want), "{want} not in:\n{shown}");
    assert!(shown.contains("(fits: budget 70 %)"), "{shown}");
}

#[test]
fn missing_config_file_is_a_clear_error() {
    let o = strackgen(&["config", "check", "no/such.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("cannot read no/such.toml"));
}

/// The CLI's output for a trace equals the library model's, line for line.
fn check_replay<I: DeserializeOwned, O: Serialize>(block: &str, mut step: impl FnMut(&I) -> O) {
    let trace = format!("traces/{block}-sample.jsonl");
    let o = strackgen(&["model", "replay", "--block", block, "--trace", &trace]);
    assert!(o.status.success(), "{block}: {}", text(&o.stderr));
    let lines: Vec<String> = std::fs::read_to_string(root().join(&trace))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect();
    let got: Vec<String> = text(&o.stdout).lines().map(String::from).collect();
    assert_eq!(got.len(), lines.len(), "{block}: one output line per event");
    for (i, (l, g)) in lines.iter().zip(&got).enumerate() {
        let want = serde_json::to_string(&step(&serde_json::from_str(l).unwrap())).unwrap();
        assert_eq!(g, &want, "{block} line {}", i + 1);
    }
}

#[test]
fn replay_runs_every_block_like_the_library() {
    let cfg = Config::default();
    let mut eb = entropy_bitmap::EntropyBitmap::from_config(&cfg);
    check_replay("entropy_bitmap", |i: &entropy_bitmap::In| eb.step(i));
    let mut cw = cwnd_unit::CwndUnit::from_config(&cfg);
    check_replay("cwnd_unit", |i: &cwnd_unit::In| cw.step(i));
    let mut rx = sack_receiver::SackReceiver::from_config(&cfg);
    check_replay("sack_receiver", |i: &sack_receiver::DataPkt| rx.step(i));
    let mut tx = sack_sender::SackSender::from_config(&cfg);
    check_replay("sack_sender", |i: &sack_sender::In| tx.step(i));
    // The NIC's replay starts once the power-on sweep is over.
    let mut nic = nic::Nic::after_sweep(&cfg, 0);
    check_replay("nic", |i: &nic::In| nic.step(i));
    let mut lt = load_table::LoadTable::from_config(&cfg);
    check_replay("load_table", |i: &load_table::In| lt.step(i));
}

/// Output line N answers input line N: a bad line gets an error object in its place (and its
/// message on stderr) and does not reach the model; a blank line gets a blank line.
#[test]
fn bad_trace_lines_are_answered_in_place_and_do_not_reach_the_model() {
    let good = "{\"now\":0,\"choose\":{\"cwnd_packets\":4}}\n{\"now\":5,\"choose\":{\"cwnd_packets\":4}}\n";
    let with_bad = "{\"now\":0,\"choose\":{\"cwnd_packets\":4}}\n{\"now\":1,\"choose\":{\"cwnd_packets\":-4}}\nnot json\n\n{\"now\":2,\"bogus\":1}\n\u{ff}\n{\"now\":5,\"choose\":{\"cwnd_packets\":4}}\n";
    let args = [
        "model",
        "replay",
        "--block",
        "entropy_bitmap",
        "--trace",
        "-",
    ];
    let a = strackgen_stdin(&args, good);
    let mut bytes = with_bad.as_bytes().to_vec();
    // Line 6 is not UTF-8 (a lone 0xff byte).
    let at = bytes.windows(2).position(|w| w == [0xc3, 0xbf]).unwrap();
    bytes.splice(at..at + 2, [0xff]);
    let b = strackgen_stdin_bytes(&args, &bytes);
    assert!(a.status.success());
    assert_eq!(b.status.code(), Some(1));
    let good_out: Vec<String> = text(&a.stdout).lines().map(String::from).collect();
    let out: Vec<String> = text(&b.stdout).lines().map(String::from).collect();
    assert_eq!(out.len(), 7, "{out:?}");
    // The good lines' answers are the ones without the bad lines: these never reached the model.
    assert_eq!(out[0], good_out[0]);
    assert_eq!(out[6], good_out[1]);
    assert_eq!(out[3], "");
    for (n, col, msg) in [
        (2, None, "invalid value"),
        (3, Some(2), "expected ident"),
        (5, None, "unknown field `bogus`"),
        (6, Some(1), "not UTF-8"),
    ] {
        let v: serde_json::Value = serde_json::from_str(&out[n - 1]).unwrap();
        assert_eq!(v["error"]["line"], n, "{v}");
        if let Some(c) = col {
            assert_eq!(v["error"]["column"], c, "{v}");
        }
        assert!(v["error"]["message"].as_str().unwrap().contains(msg), "{v}");
    }
    let err = text(&b.stderr);
    for n in [2, 3, 5, 6] {
        assert!(err.contains(&format!("line {n}, column")), "{err}");
    }
    assert!(err.contains("4 bad line(s)"), "{err}");
    assert!(!err.contains("line 1,") && !err.contains("line 7,"));
}

/// Each answer is written when its line is read: the first answer comes while standard input
/// is still open.
#[test]
fn replay_streams_its_answers() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args([
            "model",
            "replay",
            "--block",
            "entropy_bitmap",
            "--trace",
            "-",
        ])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    writeln!(stdin, "{{\"now\":0,\"choose\":{{\"cwnd_packets\":4}}}}").unwrap();
    stdin.flush().unwrap();
    let first = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("no answer while the input is open: the output does not stream");
    assert!(first.contains("\"choice\""), "{first}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn usage_errors_exit_2_and_runtime_errors_exit_1() {
    for args in [
        &["bogus"][..],
        &["config", "check"],
        &["model", "replay", "--block", "nope", "--trace", "-"],
        &["verilog"],
    ] {
        let o = strackgen(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
    }
    let o = strackgen(&["config", "check", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
}

#[test]
fn config_check_takes_the_file_positionally_with_config_or_from_stdin_and_speaks_json() {
    let a = strackgen(&["config", "check", "configs/small.toml"]);
    let b = strackgen(&["config", "check", "--config", "configs/small.toml"]);
    assert!(a.status.success() && b.status.success());
    assert_eq!(text(&a.stdout), text(&b.stdout));
    let small = std::fs::read_to_string(root().join("configs/small.toml")).unwrap();
    let c = strackgen_stdin(&["config", "check", "--config", "-", "--json"], &small);
    assert!(c.status.success(), "{}", text(&c.stderr));
    let v: serde_json::Value = serde_json::from_str(&text(&c.stdout)).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["load_table"]["slots"], 2);
    assert_eq!(v["sha256"].as_str().unwrap().len(), 64);
    let both = strackgen(&[
        "config",
        "check",
        "configs/small.toml",
        "--config",
        "configs/small.toml",
    ]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn completions_and_man_pages_are_generated() {
    for shell in ["bash", "zsh", "fish"] {
        let o = strackgen(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let t = text(&o.stdout);
        assert!(
            t.contains("strackgen") && t.contains("verilog"),
            "{shell}: {t}"
        );
    }
    let o = strackgen(&["man"]);
    assert!(o.status.success());
    assert!(text(&o.stdout).starts_with(".ie") || text(&o.stdout).contains(".TH strackgen 1"));
    let dir = root().join("target/cli-test-man");
    let _ = std::fs::remove_dir_all(&dir);
    let o = strackgen(&["man", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for page in [
        "strackgen.1",
        "strackgen-verilog.1",
        "strackgen-model-replay.1",
    ] {
        let t = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(t.contains(".TH"), "{page}");
    }
}

#[test]
fn unknown_block_is_refused() {
    let o = strackgen(&["model", "replay", "--block", "entropy", "--trace", "-"]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("invalid value 'entropy'"));
}

#[test]
fn loopback_sample_delivers_every_byte_once() {
    let o = strackgen(&[
        "model",
        "loopback",
        "--trace",
        "traces/loopback-sample.jsonl",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["delivered_exactly_once"], true);
    assert_eq!(r["bytes_delivered"], r["bytes_offered"]);
}

#[test]
fn loopback_refuses_bad_probabilities_and_reports_unfinished_runs() {
    let o = strackgen(&[
        "model",
        "loopback",
        "--trace",
        "traces/loopback-sample.jsonl",
        "--drop-data",
        "1.5",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--drop-data = 1.5: must be a probability in 0..=1"));
    let o = strackgen(&[
        "model",
        "loopback",
        "--trace",
        "traces/loopback-sample.jsonl",
        "--time-limit-ns",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stdout).contains("not finished within 1000 ns"));
    let dir = root().join("target/cli-test-loopback");
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("far.jsonl");
    std::fs::write(&trace, "{\"at_ns\": 0, \"bytes\": 10, \"conn\": 1024}\n").unwrap();
    assert_refused(
        &["model", "loopback", "--trace", trace.to_str().unwrap()],
        "message 1: conn = 1024: must be below [nic] connections = 1024",
    );
}

#[test]
fn sample_traces_exist_for_every_block() {
    for b in [
        "entropy_bitmap",
        "cwnd_unit",
        "sack_receiver",
        "sack_sender",
        "nic",
        "load_table",
        "loopback",
    ] {
        assert!(
            Path::new(&root().join(format!("traces/{b}-sample.jsonl"))).exists(),
            "{b}"
        );
    }
}

#[test]
fn verilog_writes_the_package_every_block_a_filelist_and_a_manifest() {
    let dir = root().join("target/cli-test-verilog");
    let _ = std::fs::remove_dir_all(&dir);
    let o = strackgen(&[
        "verilog",
        "--config",
        "configs/default.toml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let filelist = std::fs::read_to_string(dir.join("strackgen.f")).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["config_sha256"].as_str().unwrap().len(), 64);
    // Every file the manifest names is there, and nothing else.
    let mut listed: Vec<String> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    let mut present: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    listed.sort();
    present.sort();
    assert_eq!(listed, present);
    let blocks = manifest["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), hdl::BLOCKS.len());
    for (name, b) in hdl::BLOCKS.iter().zip(blocks) {
        assert!(filelist.lines().any(|l| l == format!("{name}.v")));
        let lib = hdl::generate(name, &Config::default(), &hdl::Options::default()).unwrap();
        let file = std::fs::read_to_string(dir.join(format!("{name}.v"))).unwrap();
        assert!(file.starts_with("// strackgen "), "{name}.v: no header");
        assert!(
            file.ends_with(&lib.verilog),
            "{name}.v is not the block's Verilog"
        );
        assert_eq!(b["name"], *name);
        assert_eq!(b["latency"], lib.latency);
        assert_eq!(b["ports"].as_array().unwrap().len(), lib.ports.len());
    }
    // The FPGA wrappers' parameters: the result latencies (the NIC's two, the load table's) as
    // generated.
    let header = std::fs::read_to_string(dir.join("strackgen_params.vh")).unwrap();
    let define = |name: &str| -> u64 {
        let line = header
            .lines()
            .find(|l| l.starts_with(&format!("`define {name} ")))
            .unwrap_or_else(|| panic!("strackgen_params.vh lacks {name}"));
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let cfg = Config::default();
    let latency = |b: &str| {
        u64::from(
            hdl::generate(b, &cfg, &hdl::Options::default())
                .unwrap()
                .latency,
        )
    };
    assert_eq!(define("STRACKGEN_NIC_SEND_LATENCY"), latency("nic_tx"));
    assert_eq!(define("STRACKGEN_NIC_RECV_LATENCY"), latency("nic_rx"));
    assert_eq!(define("STRACKGEN_LT_LATENCY"), latency("load_table"));
    assert_eq!(
        define("STRACKGEN_NIC_CONNECTIONS"),
        u64::from(cfg.nic.connections)
    );
    assert_eq!(define("STRACKGEN_SACK_BITS"), u64::from(cfg.sack.sack_bits));
    assert_eq!(
        define("STRACKGEN_LT_LINKS"),
        u64::from(cfg.load_table.links)
    );
    // The context shell's check design, for the formal wrapper (docs/formal.md).
    assert_eq!(
        define("STRACKGEN_CONTEXT_PIPE_LATENCY"),
        latency("context_pipe")
    );
    assert_eq!(
        define("STRACKGEN_CONTEXT_PIPE_HOLD_LATENCY"),
        latency("context_pipe_hold")
    );
    assert!(header.contains(&format!(
        "`define STRACKGEN_CONTEXT_PIPE_INIT 32'h{:08x}\n",
        hdl::context_pipe::CHECK_INIT
    )));
}

#[test]
fn verilog_refuses_a_bad_config() {
    let o = strackgen(&[
        "verilog",
        "--config",
        "tests/bad_configs/max_paths_not_pow2.toml",
        "--out",
        "target/cli-test-never",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("`entropy_bitmap.max_paths` = 300"));
    assert!(!root()
        .join("target/cli-test-never/entropy_bitmap.v")
        .exists());
}

#[test]
fn verilog_refuses_to_replace_a_directory_that_is_not_a_package() {
    let dir = root().join("target/cli-test-not-a-package");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mine.txt"), "keep").unwrap();
    let o = strackgen(&["verilog", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(
        e.contains("cli-test-not-a-package")
            && e.contains("neither empty nor an earlier strackgen package"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.txt")).unwrap(),
        "keep"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn schedule_prints_every_flows_plan_and_its_deltas() {
    let o = strackgen(&["schedule", "--flows", "traces/flows-sample.json", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["slots"], 10);
    let flows = v["flows"].as_array().unwrap();
    assert_eq!(flows.len(), 4);
    for f in flows {
        let plan = f["plan"].as_array().unwrap();
        let deltas = f["deltas"].as_array().unwrap();
        assert_eq!(plan.len(), 10);
        // Nothing was announced before, so the deltas are the plan.
        assert_eq!(plan, deltas, "{f}");
    }
    assert_eq!(v["beta_weight"], 1.0);
    // f2 aggregates for ps1 and is behind the broadcast flow f3: it is sped up; f3 is then
    // ahead of the slowest aggregation flow and is trimmed back to it.
    assert!(flows[1]["delta"].as_u64().unwrap() > 0, "{}", flows[1]);
    assert!(flows[2]["trimmed"].as_u64().unwrap() > 0, "{}", flows[2]);
    // With the completion weight every flow sends in the current slot; with the cost-only
    // rule (beta_weight = 0) the same flows defer to the emptier far slots.
    let sends_now = |v: &serde_json::Value| {
        v["flows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["plan"][0].as_u64().unwrap() > 0)
            .count()
    };
    assert_eq!(sends_now(&v), 4);
    let dir = root().join("target/cli-test-schedule-b0");
    std::fs::create_dir_all(&dir).unwrap();
    let b0 = dir.join("b0.toml");
    std::fs::write(&b0, "[load_table]\nbeta_weight = 0.0\n").unwrap();
    let o = strackgen(&[
        "schedule",
        "--flows",
        "traces/flows-sample.json",
        "--json",
        "--config",
        b0.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v0: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(sends_now(&v0) < 2, "{v0}");
    let o = strackgen(&["schedule", "--flows", "traces/flows-sample.json"]);
    assert!(o.status.success());
    let t = text(&o.stdout);
    for name in ["f1", "f2", "f3", "bulk"] {
        assert!(
            t.lines()
                .any(|l| l.starts_with(name) && l.contains("plan [")),
            "{t}"
        );
    }
}

/// Every refused scheduler input is a file in `tests/bad_inputs/schedule/` with its expected
/// message beside it (`NAME.expect`): refused with exit 1, no output, no panic.
#[test]
fn schedule_refuses_every_bad_description_with_its_expected_message() {
    let mut files: Vec<_> = std::fs::read_dir(root().join("tests/bad_inputs/schedule"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    for f in &files {
        let want = std::fs::read_to_string(f.with_extension("expect")).unwrap();
        let o = strackgen(&["schedule", "--flows", f.to_str().unwrap()]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{}: {err}", f.display());
        assert!(
            err.contains(want.trim()),
            "{}:\nexpected: {want}got: {err}",
            f.display()
        );
        assert!(
            !err.contains("panicked") && o.stdout.is_empty(),
            "{}",
            f.display()
        );
    }
    assert!(files.len() >= 10, "only {} bad inputs", files.len());
}

#[test]
fn p4_writes_each_target_and_refuses_a_tna_config_over_its_stages() {
    let dir = std::env::temp_dir().join(format!("strackgen-p4-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    for target in ["v1model", "tna"] {
        let o = strackgen(&[
            "p4",
            "--config",
            "configs/default.toml",
            "--target",
            target,
            "--out",
            d,
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let p4 = std::fs::read_to_string(dir.join(format!("load_table_{target}.p4"))).unwrap();
        assert!(p4.contains(&format!("#include <{target}.p4>")));
        assert!(p4.contains("configs/default.toml"));
    }
    let o = strackgen(&["p4", "--target", "tna", "--tna-stages", "11", "--out", d]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains("needs 16 slot registers, 12 MAU stages") && err.contains("allows 11"),
        "{err}"
    );
    let o = strackgen(&["p4", "--target", "asic", "--out", d]);
    assert_eq!(o.status.code(), Some(2), "clap refuses an unknown target");
    assert!(text(&o.stderr).contains("possible values: tna, v1model"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stf_run_passes_the_committed_files_and_fails_a_changed_one() {
    let o = strackgen(&[
        "stf",
        "run",
        "p4/tests/updates.stf",
        "p4/tests/bad_headers.stf",
    ]);
    assert!(o.status.success(), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("p4/tests/updates.stf: ok (12 packets, 12 expectations"));
    // One counter changed: the file fails, naming the line.
    let dir = std::env::temp_dir().join(format!("strackgen-stf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let body = std::fs::read_to_string(root().join("p4/tests/bad_headers.stf")).unwrap();
    let changed = body.replace("lt_bad(0) packets == 6", "lt_bad(0) packets == 5");
    assert_ne!(body, changed);
    let f = dir.join("changed.stf");
    std::fs::write(&f, changed).unwrap();
    let o = strackgen(&["stf", "run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(
        out.contains("FAILED: line") && out.contains("expected 5 packets, the model counted 6"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every verb that prints results takes `--json` and prints one JSON object (schemas: the
/// keys checked here; loopback, schedule and replay have their own tests).
#[test]
fn every_verb_that_prints_results_speaks_json() {
    let json = |args: &[&str]| -> serde_json::Value {
        let o = strackgen(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not one JSON object: {e}\n{}", text(&o.stdout)))
    };
    let v = json(&["config", "show", "--config", "configs/small.toml", "--json"]);
    assert_eq!(v["config"]["load_table"]["slots"], 2);
    assert_eq!(v["sha256"].as_str().unwrap().len(), 64);
    let dir = root().join("target/cli-test-json");
    let _ = std::fs::remove_dir_all(&dir);
    let d = |sub: &str| dir.join(sub).to_str().unwrap().to_string();
    let v = json(&[
        "verilog",
        "--config",
        "configs/small.toml",
        "--out",
        &d("v"),
        "--json",
    ]);
    assert_eq!(v["manifest"]["config_sha256"].as_str().unwrap().len(), 64);
    assert!(v["manifest"]["tops"].as_array().unwrap().len() >= 10);
    let v = json(&["p4", "--target", "v1model", "--out", &d("p4"), "--json"]);
    assert!(
        v["file"]
            .as_str()
            .unwrap()
            .ends_with("load_table_v1model.p4"),
        "{v}"
    );
    assert_eq!(v["target"], "v1model");
    let v = json(&["stf", "write", "--out", &d("stf"), "--json"]);
    let files: Vec<String> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert!(files.len() >= 5);
    let mut args = vec!["stf", "run", "--json"];
    args.extend(files.iter().map(String::as_str));
    let v = json(&args);
    assert_eq!(v["failed"], 0);
    assert!(v["files"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["ok"] == true));
}

/// `stf run` refuses a file written for another load table, naming both, and goes on with
/// the other files (an unreadable one and an empty one included), exiting 1.
#[test]
fn stf_run_refuses_a_file_for_another_config_and_reports_every_file() {
    let dir = root().join("target/cli-test-stf-config");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("empty.stf"), "").unwrap();
    let o = strackgen(&[
        "stf",
        "run",
        "--config",
        "configs/small.toml",
        "p4/tests/updates.stf",
        "target/cli-test-stf-config/missing.stf",
        "target/cli-test-stf-config/empty.stf",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o.stdout);
    assert!(
        out.contains("updates.stf: FAILED: written for another config: links = 64")
            && out.contains("the config given has links = 4"),
        "{out}"
    );
    assert!(out.contains("missing.stf: FAILED: cannot read it"), "{out}");
    assert!(out.contains("empty.stf: FAILED: no packet"), "{out}");
}

/// `model loopback` with a bottleneck: `--timeline DIR` writes the samples as CSV and an SVG
/// plot; options out of range are refused naming the option.
#[test]
fn loopback_bottleneck_writes_its_timeline_and_refuses_bad_options() {
    let dir = root().join("target/cli-test-timeline");
    let _ = std::fs::remove_dir_all(&dir);
    let o = strackgen(&[
        "model",
        "loopback",
        "--trace",
        "traces/loopback-sample.jsonl",
        "--bottleneck-gbps",
        "100",
        "--buffer-bytes",
        "200000",
        "--ecn-threshold-bytes",
        "50000",
        "--timeline",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(r["queue_drops"].as_u64().unwrap() > 0, "{r}");
    let csv = std::fs::read_to_string(dir.join("timeline.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("t_ns,cwnd_bytes,inflight_bytes,queue_bytes")
    );
    let deepest = lines
        .map(|l| l.rsplit(',').next().unwrap().parse::<u64>().unwrap())
        .max()
        .unwrap();
    assert!(deepest > 0 && deepest <= r["queue_max_bytes"].as_u64().unwrap());
    let svg = std::fs::read_to_string(dir.join("timeline.svg")).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("bottleneck queue"),
        "{svg:.200}"
    );
    for (args, want) in [
        (
            &["--bottleneck-gbps", "100", "--buffer-bytes", "100"][..],
            "--buffer-bytes = 100",
        ),
        (&["--bottleneck-gbps=-1"][..], "--bottleneck-gbps = -1"),
        (&["--bottleneck-gbps=nan"][..], "--bottleneck-gbps = NaN"),
        (
            &[
                "--bottleneck-gbps",
                "100",
                "--ecn-threshold-bytes",
                "99999999",
            ][..],
            "--ecn-threshold-bytes = 99999999",
        ),
    ] {
        let mut a = vec![
            "model",
            "loopback",
            "--trace",
            "traces/loopback-sample.jsonl",
        ];
        a.extend(args);
        assert_refused(&a, want);
    }
}

/// Output that cannot be written is an error, never a panic: a full disk exits 1 naming the
/// cause; a reader that has gone (a closed pipe) ends the run quietly, exit 0.
#[test]
fn unwritable_output_is_an_error_and_a_closed_pipe_ends_quietly() {
    for args in [
        &["config", "show"][..],
        &["schedule", "--flows", "traces/flows-sample.json"],
        &["completions", "bash"],
        &["man"],
        &[
            "model",
            "replay",
            "--block",
            "cwnd_unit",
            "--trace",
            "traces/cwnd_unit-sample.jsonl",
        ],
        &[
            "model",
            "loopback",
            "--trace",
            "traces/loopback-sample.jsonl",
        ],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_strackgen"))
            .args(args)
            .current_dir(root())
            .stdout(full)
            .output()
            .unwrap();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("cannot write the output") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    // 200,000 events answered into a pipe whose reader left after the first line.
    let script = format!(
        "yes '{{\"now\":0,\"choose\":{{\"cwnd_packets\":4}}}}' | head -n 200000 | \
         {} model replay --block entropy_bitmap --trace - 2>err.txt | head -n 1 >/dev/null; \
         echo ${{PIPESTATUS[2]}}",
        env!("CARGO_BIN_EXE_strackgen")
    );
    let dir = root().join("target/cli-test-pipe");
    std::fs::create_dir_all(&dir).unwrap();
    let o = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(text(&o.stdout).trim(), "0", "{}", text(&o.stderr));
    let err = std::fs::read_to_string(dir.join("err.txt")).unwrap();
    assert!(!err.contains("panicked"), "{err}");
}

/// Sizes from input files cost no memory in proportion: a message of 2^64 - 1 bytes runs (and
/// does not finish in its time), two of them are refused (their sum does not fit).
#[test]
fn loopback_takes_a_huge_message_without_allocating_for_it() {
    let dir = root().join("target/cli-test-huge");
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("one.jsonl");
    std::fs::write(&one, "{\"at_ns\": 0, \"bytes\": 18446744073709551615}\n").unwrap();
    let o = strackgen(&[
        "model",
        "loopback",
        "--trace",
        one.to_str().unwrap(),
        "--time-limit-ns",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("not finished, 1 of 1 messages not wholly delivered"),
        "{}",
        text(&o.stdout)
    );
    let two = dir.join("two.jsonl");
    std::fs::write(
        &two,
        "{\"at_ns\": 0, \"bytes\": 18446744073709551615}\n{\"at_ns\": 5, \"bytes\": 2}\n",
    )
    .unwrap();
    assert_refused(
        &["model", "loopback", "--trace", two.to_str().unwrap()],
        "the messages' bytes add up to more than 2^64 - 1",
    );
}

/// Options that do not apply to the chosen target or mode are refused, not ignored.
#[test]
fn options_that_do_not_apply_are_refused() {
    let o = strackgen(&[
        "p4",
        "--target",
        "v1model",
        "--tna-stages",
        "20",
        "--out",
        "target/cli-test-never-p4",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--tna-stages applies to --target tna only"));
    assert!(!root().join("target/cli-test-never-p4").exists());
    for extra in [
        &["--pnr-budget-mins", "3"][..],
        &["--no-top"],
        &["--jobs", "2"],
        &["--progress-secs", "5"],
        &["--speed", "6"],
    ] {
        let mut a = vec![
            "report",
            "--xilinx",
            "--out",
            "target/cli-test-never-report",
        ];
        a.extend(extra);
        let o = strackgen(&a);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains("cannot be used with"), "{extra:?}");
    }
    let o = strackgen(&[
        "model",
        "loopback",
        "--trace",
        "traces/loopback-sample.jsonl",
        "--timeline-ns",
        "500",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

/// A speed grade the out-of-context device does not have is refused, naming the option, the
/// value and the grades there are, before any tool runs.
#[test]
fn report_refuses_a_speed_grade_the_device_lacks() {
    for bad in ["5", "9"] {
        assert_refused(
            &[
                "report",
                "--speed",
                bad,
                "--no-top",
                "--out",
                "target/cli-test-never-speed",
            ],
            &format!("--speed {bad}: not a speed grade of the LFE5U-85F (6, 7 or 8)"),
        );
    }
    assert!(!root().join("target/cli-test-never-speed").exists());
}

/// `p4 --out -` writes the program to standard output (the same text as the file), nothing
/// else; `--json` with it is refused.
#[test]
fn p4_writes_to_standard_output_with_out_dash() {
    let dir = root().join("target/cli-test-p4-dash");
    let _ = std::fs::remove_dir_all(&dir);
    let o = strackgen(&["p4", "--target", "tna", "--out", "-"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let f = strackgen(&["p4", "--target", "tna", "--out", dir.to_str().unwrap()]);
    assert!(f.status.success());
    let file = std::fs::read_to_string(dir.join("load_table_tna.p4")).unwrap();
    assert_eq!(text(&o.stdout), file);
    assert_refused(
        &["p4", "--target", "tna", "--out", "-", "--json"],
        "with --out - the program itself is the output",
    );
}

/// `strackgen cosim` at the command line: a small config's block built on demand and compared
/// (JSON schema), a trace from standard input, refusals with their exit codes (usage 2,
/// runtime 1). The engine's own tests (a broken design's waves, the cache, 10^5 cycles at an
/// unused config) are testbench's `cosim_verb`.
#[test]
fn cosim_builds_a_config_on_demand_and_compares_every_port() {
    let cache = root().join("target/cli-test-cosim-cache");
    let out = root().join("target/cli-test-cosim-out");
    let (cache_s, out_s) = (cache.to_str().unwrap(), out.to_str().unwrap());
    let o = strackgen(&[
        "cosim",
        "--config",
        "configs/small.toml",
        "--block",
        "cwnd_unit",
        "--cycles",
        "3000",
        "--seed",
        "5",
        "--cache",
        cache_s,
        "--out",
        out_s,
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["ok"], true);
    assert_eq!(v["config_sha256"].as_str().unwrap().len(), 64);
    let b = &v["blocks"][0];
    assert_eq!(b["block"], "cwnd_unit");
    assert_eq!(b["cycles"], 3000);
    assert_eq!(b["stimulus"], "random, seed 5");
    assert!(b["failure"].is_null());
    for key in [
        "design",
        "built",
        "build_seconds",
        "events",
        "run_seconds",
        "coverage_hit",
        "coverage_points",
        "coverage",
        "not_reached",
    ] {
        assert!(b.get(key).is_some(), "{key} missing from {b}");
    }
    // The sample trace from standard input, in words.
    let trace = std::fs::read_to_string(root().join("traces/cwnd_unit-sample.jsonl")).unwrap();
    let o = strackgen_stdin(
        &[
            "cosim",
            "--config",
            "configs/small.toml",
            "--block",
            "cwnd_unit",
            "--trace",
            "-",
            "--cache",
            cache_s,
            "--out",
            out_s,
        ],
        &trace,
    );
    let s = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        s.contains("0 mismatches") && s.contains("trace <stdin>") && s.contains("from the cache"),
        "{s}"
    );
    assert_refused(
        &["cosim", "--block", "sack_sender", "--cache", cache_s],
        "--block sack_sender: not a co-simulated block",
    );
    assert_refused(
        &[
            "cosim",
            "--block",
            "cwnd_unit",
            "--cycles",
            "0",
            "--cache",
            cache_s,
        ],
        "--cycles 0: must be 1 to",
    );
    assert_refused(
        &["cosim", "--config", "configs/nope.toml", "--cache", cache_s],
        "configs/nope.toml",
    );
    // A relative cache (the compiler and the loader run elsewhere).
    let rel = "target/cli-test-cosim-relative-cache";
    let _ = std::fs::remove_dir_all(root().join(rel));
    let o = strackgen(&[
        "cosim",
        "--config",
        "configs/small.toml",
        "--block",
        "load_table",
        "--cycles",
        "500",
        "--cache",
        rel,
        "--out",
        out_s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("load_table: 500 cycles compared"),
        "{}",
        text(&o.stdout)
    );
    let o = strackgen(&["cosim", "--trace", "x.jsonl", "--cycles", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}
