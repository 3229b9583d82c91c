//! The FPGA tops, their constraints and the Vivado script agree with each other, and the
//! hand-written wrappers lint clean against the generated cores.
//!
//! Vivado is not available here, so the Alveo files are checked by parsing: every port of the
//! top has a package pin and an I/O standard, nothing is constrained that the top lacks, the
//! clock input has a period, and the TCL script reads every file the top needs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The ports of `module top (...)` in a Verilog file, one name per bit (`led[0]`, ...), with
/// their direction.
fn top_ports(rel: &str) -> BTreeMap<String, &'static str> {
    let text = read(rel);
    let start = text
        .find("module top (")
        .unwrap_or_else(|| panic!("{rel}: no `module top (`"));
    let end = start + text[start..].find(");").expect("end of the port list");
    let mut ports = BTreeMap::new();
    for line in text[start..end].lines() {
        let line = line
            .split("//")
            .next()
            .unwrap()
            .trim()
            .trim_end_matches(',');
        let dir = if line.starts_with("input") {
            "input"
        } else if line.starts_with("output") {
            "output"
        } else {
            continue;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let name = words.last().unwrap().to_string();
        match words.iter().find(|w| w.starts_with('[')) {
            Some(range) => {
                let inner = range.trim_matches(|c| c == '[' || c == ']');
                let (hi, lo) = inner.split_once(':').expect("[hi:lo]");
                let (hi, lo): (u32, u32) = (hi.parse().unwrap(), lo.parse().unwrap());
                for b in lo..=hi {
                    ports.insert(format!("{name}[{b}]"), dir);
                }
            }
            None => {
                ports.insert(name, dir);
            }
        }
    }
    assert!(!ports.is_empty(), "{rel}: no ports found");
    ports
}

/// `[get_ports {x}]` / `[get_ports x]` -> `x` (braces protect names with brackets).
fn get_ports_arg(line: &str) -> Option<String> {
    let i = line.find("[get_ports")?;
    let rest = line[i + "[get_ports".len()..].trim_start();
    let name = if let Some(braced) = rest.strip_prefix('{') {
        &braced[..braced.find('}')?]
    } else {
        &rest[..rest.find(']')?]
    };
    Some(name.trim().trim_matches('"').to_string())
}

#[derive(Default, Debug)]
struct XdcPort {
    pin: Option<String>,
    iostandard: Option<String>,
}

/// Pin and I/O standard per port from `set_property` lines (single property or `-dict`), and
/// the ports with a `create_clock`.
fn parse_xdc(texts: &[String]) -> (BTreeMap<String, XdcPort>, BTreeSet<String>) {
    let mut ports: BTreeMap<String, XdcPort> = BTreeMap::new();
    let mut clocks = BTreeSet::new();
    for text in texts {
        for line in text.lines() {
            let line = line.split(";#").next().unwrap().trim();
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let Some(port) = get_ports_arg(line) else {
                continue;
            };
            if line.starts_with("create_clock") {
                assert!(line.contains("-period"), "clock without a period: {line}");
                clocks.insert(port);
                continue;
            }
            if !line.starts_with("set_property") {
                continue;
            }
            let props: Vec<(String, String)> = if let Some(d) = line.find("-dict") {
                let open = line[d..].find('{').unwrap() + d;
                let close = line[open..].find('}').unwrap() + open;
                let words: Vec<&str> = line[open + 1..close].split_whitespace().collect();
                words
                    .chunks(2)
                    .map(|kv| (kv[0].to_string(), kv[1].to_string()))
                    .collect()
            } else {
                let words: Vec<&str> = line.split_whitespace().collect();
                vec![(words[1].to_string(), words[2].to_string())]
            };
            let entry = ports.entry(port).or_default();
            for (k, v) in props {
                match k.as_str() {
                    "PACKAGE_PIN" | "LOC" => entry.pin = Some(v),
                    "IOSTANDARD" => entry.iostandard = Some(v),
                    _ => {}
                }
            }
        }
    }
    (ports, clocks)
}

#[test]
fn xdc_port_names_with_brackets_are_read_whole() {
    assert_eq!(
        get_ports_arg("set_property -dict {A B} [get_ports {led[0]}]").as_deref(),
        Some("led[0]")
    );
    assert_eq!(
        get_ports_arg("create_clock -period 3.3 [get_ports clk_p]").as_deref(),
        Some("clk_p")
    );
}

#[test]
fn every_alveo_top_port_is_constrained_and_nothing_else_is() {
    let top = top_ports("fpga/au250/top.v");
    let pins = read("constraints/au250/pins.xdc");
    let timing = read("constraints/au250/timing.xdc");
    assert!(
        !pins.contains("create_clock"),
        "pins.xdc holds pins only: clocks go in timing.xdc"
    );
    assert!(
        !timing.contains("PACKAGE_PIN"),
        "timing.xdc holds timing only: pins go in pins.xdc"
    );
    let (xdc, clocks) = parse_xdc(&[pins, timing]);
    for name in top.keys() {
        let p = xdc
            .get(name)
            .unwrap_or_else(|| panic!("port `{name}` of fpga/au250/top.v has no constraint"));
        assert!(p.pin.is_some(), "port `{name}` has no PACKAGE_PIN");
        assert!(p.iostandard.is_some(), "port `{name}` has no IOSTANDARD");
    }
    for name in xdc.keys() {
        assert!(
            top.contains_key(name),
            "the XDC constrains `{name}`, which fpga/au250/top.v does not have"
        );
    }
    let mut seen = BTreeMap::new();
    for (name, p) in &xdc {
        if let Some(pin) = &p.pin {
            if let Some(other) = seen.insert(pin.clone(), name.clone()) {
                panic!("pin {pin} is given to both `{other}` and `{name}`");
            }
        }
    }
    assert_eq!(
        clocks,
        BTreeSet::from(["clk_300mhz_p".to_string()]),
        "the reference clock needs a period"
    );
}

#[test]
fn the_vivado_script_reads_what_the_top_needs() {
    let tcl = read("fpga/au250/build.tcl");
    let has = |s: &str| {
        tcl.lines()
            .any(|l| !l.trim_start().starts_with('#') && l.contains(s))
    };
    assert!(has("set_part xcu250-"), "the script sets a U250 part");
    assert!(has("synth_design -top top"), "the script synthesises `top`");
    for f in ["pins.xdc", "timing.xdc"] {
        assert!(
            has(&format!("constraints au250 {f}")),
            "the script reads {f}"
        );
        assert!(root().join("constraints/au250").join(f).is_file());
    }
    assert!(has("fpga au250 top.v"), "the script reads the top");
    assert!(has("fpga rtl *.v"), "the script reads the wrappers");
    // Every module the top instantiates (besides Xilinx primitives) comes from a file the script
    // reads: the generated cores it names, or fpga/rtl.
    for core in ["nic.v", "load_table.v"] {
        assert!(has(core), "the script reads the generated {core}");
        assert!(hdl::BLOCKS.contains(&core.trim_end_matches(".v")));
    }
    assert!(has("-include_dirs"), "strackgen_params.vh must be found");
    for step in [
        "place_design",
        "route_design",
        "report_timing_summary",
        "write_bitstream",
    ] {
        assert!(has(step), "the script runs {step}");
    }
}

#[test]
fn every_ecp5_top_port_has_a_site_and_an_io_type() {
    let top = top_ports("fpga/ecp5_evn/top.v");
    let pins = read("constraints/ecp5_evn/pins.lpf");
    let timing = read("constraints/ecp5_evn/timing.lpf");
    assert!(!pins.contains("FREQUENCY"), "clocks go in timing.lpf");
    assert!(!timing.contains("LOCATE"), "pins go in pins.lpf");
    let quoted = |l: &str| l.split('"').nth(1).map(str::to_string);
    let mut sites = BTreeMap::new();
    let mut io = BTreeSet::new();
    for l in pins.lines().map(str::trim) {
        if l.starts_with("LOCATE COMP") {
            let site = l.split('"').nth(3).unwrap().to_string();
            sites.insert(quoted(l).unwrap(), site);
        } else if l.starts_with("IOBUF PORT") {
            assert!(l.contains("IO_TYPE="), "{l}");
            io.insert(quoted(l).unwrap());
        }
    }
    for name in top.keys() {
        assert!(sites.contains_key(name), "port `{name}` has no LOCATE");
        assert!(io.contains(name), "port `{name}` has no IOBUF IO_TYPE");
    }
    for name in sites.keys().chain(io.iter()) {
        assert!(
            top.contains_key(name),
            "the LPF names `{name}`, not a port of the top"
        );
    }
    assert!(
        timing.contains("FREQUENCY PORT \"clk12\""),
        "the 12 MHz input needs a frequency"
    );
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Generate the cores for `config` into a fresh directory named after `what` and the config;
/// returns the directory.
fn generate(config: &str, what: &str) -> PathBuf {
    let stem = Path::new(config).file_stem().unwrap().to_string_lossy();
    let dir = std::env::temp_dir().join(format!(
        "strackgen-fpga-{what}-{}-{stem}",
        std::process::id()
    ));
    let out = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(["verilog", "--config", config, "--out"])
        .arg(&dir)
        .current_dir(root())
        .output()
        .unwrap();
    succeeded(&out, &format!("strackgen verilog --config {config}"));
    dir
}

fn succeeded(out: &std::process::Output, what: &str) {
    assert!(
        out.status.success(),
        "{what} fails:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `strackgen verilog`'s package (docs/package.md) used as a downstream flow would use it:
/// from a directory outside it, with only its own files. At the default and small configs:
/// plain Verilator lint of every core and wrapper with the package's waivers and filelist,
/// Yosys reading it through its script, Icarus compiling the board core through the
/// environment filelist, FuseSoC parsing the core file; and no identifier holds a `$`.
#[test]
fn package_stands_alone() {
    for tool in ["verilator", "iverilog", "yosys", "fusesoc"] {
        assert!(have(tool), "{tool} is needed (make deps)");
    }
    for config in ["configs/default.toml", "configs/small.toml"] {
        let dir = generate(config, "pkg");
        let away = dir.with_extension("elsewhere");
        std::fs::create_dir_all(&away).unwrap();
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap())
                .unwrap();
        for f in manifest["files"].as_array().unwrap() {
            let f = f.as_str().unwrap();
            if !f.ends_with(".v") {
                continue;
            }
            let text = std::fs::read_to_string(dir.join(f)).unwrap();
            let bad = text
                .as_bytes()
                .windows(2)
                .position(|w| w[1] == b'$' && (w[0].is_ascii_alphanumeric() || w[0] == b'_'));
            if let Some(at) = bad {
                let line = text[..at].lines().count();
                panic!("{config}: {f}:{line}: an identifier with a `$`");
            }
        }
        let tops: Vec<String> = manifest["tops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        assert!(tops.len() >= 10, "{tops:?}");
        let lint = |top: &str| {
            let out = Command::new("verilator")
                .args(["--lint-only", "-Wall"])
                .arg(dir.join("lint.vlt"))
                .arg("-F")
                .arg(dir.join("strackgen.f"))
                .args(["--top-module", top])
                .current_dir(&away)
                .output()
                .unwrap();
            succeeded(
                &out,
                &format!("{config}: verilator --lint-only -Wall, top {top}"),
            );
        };
        tops.iter().for_each(|t| lint(t));
        // A wrapper built with parameters that are not its core's stops elaboration, naming
        // the parameter.
        std::fs::write(
            away.join("wrong_k.v"),
            "`include \"strackgen_params.vh\"\nmodule wrong_k;\n    \
             load_table_axis #(.K(`STRACKGEN_LT_SLOTS + 1)) lt();\nendmodule\n",
        )
        .unwrap();
        let out = Command::new("verilator")
            .args(["--lint-only", "-Wno-fatal", "-Wno-PINMISSING"])
            .arg(dir.join("lint.vlt"))
            .arg("-F")
            .arg(dir.join("strackgen.f"))
            .args(["wrong_k.v", "--top-module", "wrong_k"])
            .current_dir(&away)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success()
                && err.contains("load_table_axis_parameter_K_is_not_STRACKGEN_LT_SLOTS"),
            "{config}: a load_table_axis with another K elaborates:\n{err}"
        );
        let out = Command::new("yosys")
            .arg("-q")
            .arg("-c")
            .arg(dir.join("strackgen_yosys.tcl"))
            .args(["-p", "hierarchy -check -top strack_fpga_core"])
            .current_dir(&away)
            .output()
            .unwrap();
        succeeded(&out, &format!("{config}: yosys -c strackgen_yosys.tcl"));
        let out = Command::new("iverilog")
            .args(["-g2005", "-s", "strack_fpga_core", "-o", "core.vvp", "-c"])
            .arg(dir.join("strackgen_env.f"))
            .env("STRACKGEN_PKG", &dir)
            .current_dir(&away)
            .output()
            .unwrap();
        succeeded(&out, &format!("{config}: iverilog -c strackgen_env.f"));
        let out = Command::new("fusesoc")
            .arg("--cores-root")
            .arg(&dir)
            .args(["core", "show", "strackgen:strack:cores"])
            .current_dir(&away)
            .output()
            .unwrap();
        succeeded(&out, &format!("{config}: fusesoc core show"));
        let shown = String::from_utf8_lossy(&out.stdout);
        for target in ["lint", "sim_load_table", "sim_nic"] {
            assert!(
                shown.contains(target),
                "{config}: fusesoc lacks target {target}:\n{shown}"
            );
        }
        let out = Command::new("fusesoc")
            .arg("--cores-root")
            .arg(&dir)
            .args(["run", "--target", "lint", "strackgen:strack:cores"])
            .current_dir(&away)
            .output()
            .unwrap();
        succeeded(&out, &format!("{config}: fusesoc run --target lint"));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&away);
    }
}

/// A deliberately broken copy of a wrapper: its directory's name, and the text replaced.
struct Broken {
    what: &'static str,
    from: &'static str,
    to: &'static str,
}

/// A load table wrapper that reads the deltas packed W + 1 bits apart (the layout before the
/// byte lanes), which the bench, cutting the beats by the generated layout, must fail.
const LT_OFF_LAYOUT: Broken = Broken {
    what: "tb-broken-layout",
    from: "s_axis_tdata[24 + k*DS +: W+1]",
    to: "s_axis_tdata[24 + k*(W+1) +: W+1]",
};

/// A load table wrapper whose credit does not restart at a reset: it keeps counting the packets
/// the core dropped as in flight, so the long stall no longer fills the FIFO.
const LT_NO_RESET_FLUSH: Broken = Broken {
    what: "tb-broken-flush",
    from: ".RESET_FLUSH(LATENCY)",
    to: ".RESET_FLUSH(0)",
};

/// Run the package's tb_load_table_axis.v (fpga/sim/) under Icarus Verilog against the core of
/// `config`, with the package's copy of the wrapper or a `broken` one; its output.
fn run_load_table_bench(config: &str, broken: Option<&Broken>) -> String {
    assert!(have("iverilog"), "iverilog is needed (make deps)");
    let dir = generate(config, broken.map_or("tb", |b| b.what));
    let wrapper = match broken {
        Some(b) => broken_copy(&dir, "load_table_axis.v", b.from, b.to),
        None => dir.join("load_table_axis.v"),
    };
    let vvp = dir.join("tb.vvp");
    let out = Command::new("iverilog")
        .args(["-g2005", "-o"])
        .arg(&vvp)
        .arg(format!("-I{}", dir.display()))
        .arg(dir.join("tb_load_table_axis.v"))
        .args(["strack_axis_fifo.v", "strack_axis_result_buffer.v"].map(|f| dir.join(f)))
        .arg(&wrapper)
        .arg(dir.join("load_table.v"))
        .output()
        .unwrap();
    succeeded(&out, &format!("{config}: iverilog"));
    let out = Command::new("vvp").arg("-n").arg(&vvp).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A test bench's verdict: it printed PASS and no FAIL.
fn assert_passed(text: &str, what: &str) {
    assert!(
        text.contains("PASS") && !text.contains("FAIL"),
        "{what} fails:\n{text}"
    );
}

/// A test bench's verdict on a broken design: it printed FAIL and no PASS.
fn assert_failed(text: &str, what: &str) {
    assert!(
        text.contains("FAIL") && !text.contains("PASS"),
        "{what}: the bench passes it:\n{text}"
    );
}

/// A deliberately broken copy of the package's `file` beside it, `from` replaced by `to`
/// (which must be there: the edit point).
fn broken_copy(dir: &Path, file: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    assert!(
        text.contains(from),
        "{file}: the broken variant's edit point `{from}`"
    );
    let p = dir.join(file.replace(".v", "_broken.v"));
    std::fs::write(&p, text.replace(from, to)).unwrap();
    p
}

/// Run fpga/sim/tb_nic_axis.v against the NIC of `config`, built by Verilator as a stand-alone
/// simulation (`--binary --timing`): Icarus runs the NIC at about 20 cycles/s, too slow for
/// the bench's 7,000 cycles and the default config's 1,025-cycle sweeps. `nic_axis` is the
/// wrapper, or a deliberately broken variant of it (`broken`: its send side's results of the
/// events taken before a reset are not discarded), which the bench must fail.
fn run_nic_bench(config: &str, broken: bool) -> String {
    assert!(have("verilator"), "verilator is needed (make deps)");
    let what = if broken { "nictb-broken" } else { "nictb" };
    let dir = generate(config, what);
    let rtl = dir.clone();
    let wrapper = if broken {
        broken_copy(
            &dir,
            "nic_axis.v",
            ".RESET_FLUSH(LATENCY_SEND)",
            ".RESET_FLUSH(0)",
        )
    } else {
        rtl.join("nic_axis.v")
    };
    let obj = dir.join("obj");
    let out = Command::new("verilator")
        .args([
            "--binary",
            "--timing",
            "-O1",
            "-j",
            "2",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "--top-module",
            "tb",
        ])
        .arg("-Mdir")
        .arg(&obj)
        .arg(format!("-I{}", dir.display()))
        .arg(dir.join("lint.vlt"))
        .arg(dir.join("tb_nic_axis.v"))
        .arg(&wrapper)
        .args(["strack_axis_fifo.v", "strack_axis_result_buffer.v"].map(|f| rtl.join(f)))
        .arg(dir.join("nic.v"))
        .output()
        .unwrap();
    succeeded(&out, &format!("{config}: verilator --binary"));
    let out = Command::new(obj.join("Vtb")).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    text
}

#[test]
fn load_table_wrapper_passes_its_test_bench_default_config() {
    let text = run_load_table_bench("configs/default.toml", None);
    assert_passed(&text, "default: the load table wrapper's test bench");
}

#[test]
fn load_table_wrapper_passes_its_test_bench_small_config_and_fails_broken_wrappers() {
    let text = run_load_table_bench("configs/small.toml", None);
    assert_passed(&text, "small: the load table wrapper's test bench");
    let text = run_load_table_bench("configs/small.toml", Some(&LT_OFF_LAYOUT));
    assert_failed(&text, "small: a wrapper off the generated layout");
    let text = run_load_table_bench("configs/small.toml", Some(&LT_NO_RESET_FLUSH));
    assert_failed(&text, "small: a wrapper whose credit survives a reset");
}

#[test]
fn nic_wrapper_passes_its_test_bench_default_config() {
    let text = run_nic_bench("configs/default.toml", false);
    assert_passed(&text, "default: the NIC wrapper's test bench");
}

/// 4 connections: ids collide on every side.
#[test]
fn nic_wrapper_passes_its_test_bench_tiny_config_and_fails_a_broken_wrapper() {
    let text = run_nic_bench("configs/tiny.toml", false);
    assert_passed(&text, "tiny: the NIC wrapper's test bench");
    let text = run_nic_bench("configs/tiny.toml", true);
    assert_failed(&text, "tiny: a wrapper that keeps results across a reset");
}

/// CI's check of the open flow (the flow runs and writes its report on a small config; the
/// figures are not checked): three blocks out of context, synthesised, placed and routed. The
/// NIC's blocks and the ECP5 board top are left to `make synth`: they take the longest to
/// synthesise and route at any config (the top's synthesis alone takes about 6 minutes, at 4
/// connections as at 1024; docs/timing.md). The top's pins and I/O types are checked against
/// its constraints above. The 5-minute budget is a ceiling for the other tests of this file
/// running beside it on 2 cores, not a target. Needs Yosys and nextpnr-ecp5 (`make deps`
/// installs them).
#[test]
fn report_flow_runs_on_the_small_config() {
    let out = std::env::temp_dir().join(format!("strackgen-report-{}", std::process::id()));
    let blocks = ["entropy_bitmap", "cwnd_unit", "load_table"];
    let run = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(["report", "--config", "configs/small.toml", "--jobs", "2"])
        .args([
            "--blocks",
            &blocks.join(","),
            "--no-top",
            "--progress-secs",
            "60",
            "--pnr-budget-mins",
            "5",
            "--out",
        ])
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "strackgen report fails:\n{stderr}");
    for b in blocks {
        assert!(
            stderr.contains(&format!("{b}: synthesis and place-and-route")),
            "no progress line for {b}:\n{stderr}"
        );
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("timing.json")).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), blocks.len(), "a row per block, no top");
    for (row, b) in rows.iter().zip(blocks) {
        assert_eq!(row["block"], b);
        assert_eq!(row["config"], "small");
        // The flow's speed grade (DECISION, docs/timing.md "Speed grade"), in the row.
        assert_eq!(row["speed_grade"], "8", "{row}");
        assert!(
            row["device"].as_str().unwrap().starts_with("LFE5U-85F-8 "),
            "{row}"
        );
        assert!(row["error"].is_null(), "{row}");
        assert!(row["lut4"].as_u64().unwrap() > 0, "{row}");
        assert!(row["ff"].as_u64().unwrap() > 0, "{row}");
        assert!(row["unfinished"].is_null(), "{row}");
        assert!(row["fmax_mhz"].as_f64().unwrap() > 0.0, "{row}");
        assert_eq!(row["events_per_clock"], 1);
        let eps = row["events_per_sec"].as_f64().unwrap();
        let margin = row["line_rate_margin"].as_f64().unwrap();
        assert!((eps / 24_414_062.5 - margin).abs() < 1e-9, "{row}");
    }
    let md = std::fs::read_to_string(out.join("timing.md")).unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    for b in blocks {
        assert!(md.contains(&format!("| {b} | small | 8 |")), "{md}");
        assert!(
            stdout.contains(&format!("| {b} | small |")),
            "table not printed"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The report's two findings that are not failures, end to end through the CLI with stand-in
/// tools (`STRACKGEN_YOSYS`, `STRACKGEN_NEXTPNR`): a design the packer finds too big is stopped
/// at once and named so, with the packer's cells; a run still going at `--pnr-budget-mins` is
/// stopped there, with the packer's cells and the estimate after placement. Both exit 0.
#[test]
fn report_stops_a_design_too_big_at_once_and_a_slow_one_at_its_budget() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("strackgen-fake-pnr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    };
    let yosys = script("yosys", "exit 0");
    // load_table: over the device; cwnd_unit: fits, places, then routes for ever.
    let nextpnr = script(
        "nextpnr",
        r#"[ "$1" = --version ] && exit 0
case "$*" in
*load_table*) echo "Info:     Total LUT4s:     91171/83640   109%"
   echo "Info: Device utilisation:"
   echo "Info:         TRELLIS_COMB:   93013/  83640   111%" ;;
*) echo "Info:           TRELLIS_FF:    4357/  83640     5%"
   echo "Info:         TRELLIS_COMB:    4034/  83640     4%"
   echo "Info: Running simulated annealing placer for refinement."
   echo "Info: Max frequency for clock 'clock': 91.34 MHz (FAIL at 125.00 MHz)"
   echo "Info: Routing.." ;;
esac
exec sleep 600"#,
    );
    let out = dir.join("report");
    let t0 = std::time::Instant::now();
    let run = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(["report", "--config", "configs/small.toml", "--no-top"])
        .args(["--blocks", "cwnd_unit,load_table", "--jobs", "2"])
        .args(["--pnr-budget-mins", "1", "--out"])
        .arg(&out)
        .env("STRACKGEN_YOSYS", &yosys)
        .env("STRACKGEN_NEXTPNR", &nextpnr)
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "strackgen report fails:\n{stderr}");
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(300),
        "the stand-in nextpnr runs 10 minutes unless stopped"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("timing.json")).unwrap()).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let (slow, big) = (&rows[0], &rows[1]);
    assert_eq!(slow["block"], "cwnd_unit");
    assert!(
        slow["error"].is_null() && slow["fmax_mhz"].is_null(),
        "{slow}"
    );
    assert_eq!(slow["fmax_estimate_mhz"], 91.34);
    assert_eq!(
        slow["unfinished"],
        "nextpnr stopped at the 1-minute budget while routing"
    );
    assert_eq!(
        (slow["lut4"].as_u64(), slow["ff"].as_u64()),
        (Some(4034), Some(4357))
    );
    assert_eq!(big["block"], "load_table");
    assert_eq!(big["error"], "does not fit: TRELLIS_COMB 93013 of 83640");
    assert_eq!(big["lut4"], 93013);
    assert!(
        big["seconds"].as_f64().unwrap() < 50.0,
        "not placed until the budget: {big}"
    );
    let md = String::from_utf8_lossy(&run.stdout);
    assert!(md.contains("; 91.34 estimated after placement |"), "{md}");
    assert!(
        md.contains("| does not fit: TRELLIS_COMB 93013 of 83640 |"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_refuses_unknown_blocks_and_names_the_choices() {
    let run = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args([
            "report",
            "--blocks",
            "entropy_bitmap,warp_drive",
            "--no-top",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(!run.status.success());
    let e = String::from_utf8_lossy(&run.stderr);
    assert!(e.contains("--blocks") && e.contains("warp_drive"), "{e}");
    assert!(
        e.contains("load_table"),
        "the error lists the known blocks: {e}"
    );
}

/// `report --xilinx`: Yosys synth_xilinx on a small design, the counts in the table and the
/// JSON; the per-connection records land in block RAM, not in flip-flops.
#[test]
fn xilinx_report_counts_the_context_shell() {
    let out = std::env::temp_dir().join(format!("strackgen-xilinx-{}", std::process::id()));
    let run = Command::new(env!("CARGO_BIN_EXE_strackgen"))
        .args(["report", "--xilinx", "--blocks", "context_pipe", "--out"])
        .arg(&out)
        .current_dir(root())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "strackgen report --xilinx fails:\n{stderr}"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("| context_pipe | built-in default | 1024 |"),
        "{stdout}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("xilinx.json")).unwrap()).unwrap();
    let row = &json[0];
    assert!(row["bram36"].as_f64().unwrap() >= 1.0, "{row}");
    // 1024 records of 32 bits in flip-flops would be 32,768 of them.
    assert!(row["ff"].as_u64().unwrap() < 2_000, "{row}");
    assert!(row["lut"].as_u64().unwrap() > 0, "{row}");
    let _ = std::fs::remove_dir_all(&out);
}
