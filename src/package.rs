//! The Verilog package `strackgen verilog --out DIR` writes (`docs/package.md`): every core
//! generated for one config, the hand-written AXI-Stream wrappers and their test benches, the
//! parameter header, filelists for Verilator, Icarus and Yosys, the lint waivers, a FuseSoC
//! core file, the resolved config and a manifest. Everything a downstream flow needs is in the
//! directory; nothing points back into this repository.

use crate::descriptors;
use std::path::{Path, PathBuf};
use strack_config::Config;

/// The hand-written RTL the package carries beside the cores, in dependency order (a module's
/// sub-modules first).
pub const WRAPPERS: [(&str, &str); 6] = [
    (
        "strack_axis_fifo.v",
        include_str!("../fpga/rtl/strack_axis_fifo.v"),
    ),
    (
        "strack_axis_result_buffer.v",
        include_str!("../fpga/rtl/strack_axis_result_buffer.v"),
    ),
    (
        "load_table_axis.v",
        include_str!("../fpga/rtl/load_table_axis.v"),
    ),
    ("nic_axis.v", include_str!("../fpga/rtl/nic_axis.v")),
    (
        "stream_exerciser.v",
        include_str!("../fpga/rtl/stream_exerciser.v"),
    ),
    (
        "strack_fpga_core.v",
        include_str!("../fpga/rtl/strack_fpga_core.v"),
    ),
];

/// The wrappers' test benches (module `tb` each, so not in the filelists; the FuseSoC core's
/// simulation targets name them).
pub const BENCHES: [(&str, &str); 2] = [
    (
        "tb_load_table_axis.v",
        include_str!("../fpga/sim/tb_load_table_axis.v"),
    ),
    ("tb_nic_axis.v", include_str!("../fpga/sim/tb_nic_axis.v")),
];

/// The lint waivers: rust-hdl's Verilog, then the wrappers with the cores under them.
const WAIVERS: [&str; 2] = [
    include_str!("../hdl/lint/verilator.vlt"),
    include_str!("../fpga/lint/verilator.vlt"),
];

/// The parameter header every wrapper includes.
pub const PARAMS: &str = "strackgen_params.vh";
/// The descriptor layouts as Verilog defines (the test benches and the board core include it).
pub const LAYOUT: &str = "strackgen_layout.vh";
/// The descriptor layouts for C drivers.
pub const C_HEADER: &str = "strack_descriptors.h";
/// The descriptor layouts as tables.
pub const DESCRIPTORS_MD: &str = "descriptors.md";
/// The filelist with paths relative to itself (`verilator -F`).
pub const FILELIST: &str = "strackgen.f";
/// The same files under `${STRACKGEN_PKG}` (Icarus resolves a command file's paths against
/// the working directory).
pub const FILELIST_ENV: &str = "strackgen_env.f";
/// A Yosys script reading every file (`yosys -c`), paths found from its own place.
pub const YOSYS_TCL: &str = "strackgen_yosys.tcl";
pub const LINT: &str = "lint.vlt";
pub const CORE_FILE: &str = "strackgen.core";
pub const CONFIG: &str = "config.toml";
pub const MANIFEST: &str = "manifest.json";
pub const README: &str = "README.md";

/// The generator's name and version, as every header gives it.
pub const GENERATOR: &str = concat!("strackgen ", env!("CARGO_PKG_VERSION"));

/// One package, built in memory (nothing written yet).
pub struct Package {
    /// File name (no directory) and text, in the order they are listed.
    pub files: Vec<(String, String)>,
    pub blocks: Vec<hdl::Block>,
    /// SHA-256 of the resolved config (the text of `config.toml` below its header).
    pub config_sha256: String,
    /// What `manifest.json` holds.
    pub manifest: serde_json::Value,
}

/// The modules a user may take as a top: every core and every hand-written module.
pub fn tops() -> Vec<String> {
    hdl::BLOCKS
        .iter()
        .map(|b| b.to_string())
        .chain(
            WRAPPERS
                .iter()
                .map(|(f, _)| f.trim_end_matches(".v").to_string()),
        )
        .collect()
}

/// The header every file of the package starts with, in the file's comment syntax.
fn header(comment: &str, what: &str, sha: &str) -> String {
    [
        format!("{GENERATOR}: {what}"),
        format!("config SHA-256 {sha} (of {CONFIG} below its header)"),
        format!(
            "regenerate: strackgen verilog --config DIR/{CONFIG} --out DIR (DIR: this directory)"
        ),
    ]
    .iter()
    .map(|l| format!("{comment} {l}\n"))
    .collect()
}

/// Generate every core for `cfg` and lay out the package's files.
pub fn build(cfg: &Config) -> Result<Package, String> {
    let sha = cfg.sha256();
    let generated = |c: &str| header(c, "generated from the config below", &sha);
    let copied = |c: &str| {
        header(
            c,
            "hand-written, checked against the cores of this config",
            &sha,
        )
    };
    let mut files = Vec::new();
    let mut blocks = Vec::new();
    let mut rtl = Vec::new();
    for name in hdl::BLOCKS {
        let b = hdl::generate(name, cfg, &hdl::Options::default()).map_err(|e| e.to_string())?;
        let file = format!("{name}.v");
        files.push((file.clone(), generated("//") + &b.verilog));
        rtl.push(file);
        blocks.push(b);
    }
    for (file, text) in WRAPPERS {
        files.push((file.to_string(), copied("//") + text));
        rtl.push(file.to_string());
    }
    for (file, text) in BENCHES {
        files.push((file.to_string(), copied("//") + text));
    }
    files.push((
        PARAMS.into(),
        generated("//") + &hdl::fpga_params_header(cfg),
    ));
    for l in descriptors::layouts(cfg) {
        descriptors::check(&l).map_err(|e| format!("generator fault: {e}"))?;
    }
    files.push((
        LAYOUT.into(),
        generated("//") + &descriptors::verilog_defines(cfg),
    ));
    files.push((
        C_HEADER.into(),
        generated("//") + &descriptors::c_header(cfg),
    ));
    files.push((CONFIG.into(), generated("#") + &cfg.to_toml()));
    files.push((FILELIST.into(), generated("//") + &filelist(&rtl, "", ".")));
    files.push((
        FILELIST_ENV.into(),
        generated("//") + &filelist(&rtl, "${STRACKGEN_PKG}/", "${STRACKGEN_PKG}"),
    ));
    files.push((YOSYS_TCL.into(), generated("#") + &yosys_tcl(&rtl)));
    files.push((LINT.into(), lint(&generated("//"))));
    files.push((CORE_FILE.into(), fusesoc_core(&rtl, &sha, &generated("#"))));
    let md: String = generated("")
        .lines()
        .map(|l| format!("<!--{l} -->\n"))
        .collect();
    let tables = ["load_table_axis", "nic_axis"]
        .map(|w| descriptors::markdown_for(cfg, w))
        .join("\n");
    files.push((
        DESCRIPTORS_MD.into(),
        format!(
            "{md}# Descriptors\n\nThe AXI-Stream beats of the wrappers for this config: TDATA bit b \
             is bit b % 8 of byte b / 8. `{C_HEADER}` gives the same for C.\n\n{tables}"
        ),
    ));
    files.push((README.into(), md + &readme(&sha)));
    let manifest = serde_json::json!({
        "generator": GENERATOR,
        "config_sha256": sha,
        "regenerate": format!("strackgen verilog --config DIR/{CONFIG} --out DIR"),
        "blocks": blocks,
        "files": files.iter().map(|(f, _)| f.as_str()).chain([MANIFEST]).collect::<Vec<_>>(),
        "tops": tops(),
    });
    files.push((
        MANIFEST.into(),
        serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())? + "\n",
    ));
    Ok(Package {
        files,
        blocks,
        config_sha256: sha,
        manifest,
    })
}

fn filelist(rtl: &[String], prefix: &str, incdir: &str) -> String {
    let mut s = format!("+incdir+{incdir}\n");
    for f in rtl {
        s.push_str(&format!("{prefix}{f}\n"));
    }
    s
}

fn yosys_tcl(rtl: &[String]) -> String {
    format!(
        "# yosys -c DIR/{YOSYS_TCL} -p 'hierarchy -top TOP; ...' reads every core and wrapper.\n\
         set d [file dirname [file normalize [info script]]]\n\
         foreach f {{{}}} {{\n    yosys read_verilog -I$d $d/$f\n}}\n",
        rtl.join(" ")
    )
}

/// Verilator's configuration file starts with its own directive; the header goes below it.
fn lint(header: &str) -> String {
    let mut s = String::from("`verilator_config\n");
    s.push_str(header);
    for w in WAIVERS {
        s.push_str(w.trim_start_matches("`verilator_config\n"));
    }
    s
}

/// A FuseSoC core (CAPI 2). Its first line must be `CAPI=2:`; the header follows it.
fn fusesoc_core(rtl: &[String], sha: &str, header: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let mut y = format!("CAPI=2:\n{header}");
    y += &format!("name: strackgen:strack:cores:{version}\n");
    y += &format!("description: STrack NIC and MLCC load table cores (config SHA-256 {sha})\n\n");
    y += "filesets:\n  rtl:\n    files:\n";
    y += &format!("      - {PARAMS}: {{is_include_file: true}}\n");
    y += &format!("      - {LAYOUT}: {{is_include_file: true}}\n");
    for f in rtl {
        y += &format!("      - {f}\n");
    }
    y += "    file_type: verilogSource\n";
    y += &format!("  waivers:\n    files:\n      - {LINT}\n    file_type: vlt\n");
    for (set, (file, _)) in ["tb_load_table", "tb_nic"].iter().zip(BENCHES) {
        y += &format!("  {set}:\n    files:\n      - {file}\n    file_type: verilogSource\n");
    }
    y += r#"
targets:
  default:
    filesets: [rtl]
    toplevel: strack_fpga_core
  lint:
    default_tool: verilator
    filesets: [rtl, waivers]
    toplevel: strack_fpga_core
    tools:
      verilator:
        mode: lint-only
        verilator_options: [-Wall]
  sim_load_table:
    default_tool: icarus
    filesets: [rtl, tb_load_table]
    toplevel: tb
    tools:
      icarus:
        iverilog_options: [-g2005]
  sim_nic:
    default_tool: verilator
    filesets: [rtl, waivers, tb_nic]
    toplevel: tb
    tools:
      verilator:
        mode: binary
        verilator_options: [--timing, -O1, -Wno-fatal, -Wno-lint, -Wno-style]
"#;
    y
}

fn readme(sha: &str) -> String {
    let tops = tops().join(", ");
    format!(
        "# strackgen Verilog package\n\
\n\
Written by {GENERATOR} from `{CONFIG}` (SHA-256 `{sha}` of the config below its header).\n\
Regenerate with `strackgen verilog --config DIR/{CONFIG} --out DIR`.\n\
\n\
Tops: {tops}. `{PARAMS}` holds the widths and latencies the hand-written wrappers are built\n\
with; `manifest.json` lists every core's ports and latency.\n\
\n\
| tool | command (DIR: this directory; run from anywhere) |\n\
|---|---|\n\
| Verilator lint | `verilator --lint-only -Wall DIR/{LINT} -F DIR/{FILELIST} --top-module TOP` |\n\
| Icarus Verilog | `STRACKGEN_PKG=DIR iverilog -g2005 -c DIR/{FILELIST_ENV} -s TOP` (or, in DIR, `iverilog -c {FILELIST}`) |\n\
| Yosys | `yosys -c DIR/{YOSYS_TCL} -p 'hierarchy -top TOP; synth'` |\n\
| FuseSoC | `fusesoc --cores-root DIR run --target lint strackgen:strack:cores` (targets: lint, sim_load_table, sim_nic) |\n\
\n\
`{FILELIST}` lists paths relative to itself (Verilator's `-F`); `{FILELIST_ENV}` lists\n\
the same files under `${{STRACKGEN_PKG}}`, for tools that resolve a filelist's paths against\n\
the working directory (Icarus's `-c` and `-f`, Verilator's `-f`).\n"
    )
}

/// Write `pkg` into `out` as a whole: the files go to a new directory beside `out`, which
/// then takes `out`'s place, so a failure leaves `out` as it was. `out` must not exist, be
/// empty, or hold an earlier package (its `manifest.json` names strackgen): anything else is
/// refused rather than replaced.
pub fn write(pkg: &Package, out: &Path) -> Result<(), String> {
    let out = absolute(out)?;
    let parent = out
        .parent()
        .ok_or_else(|| format!("--out {}: not a directory one can replace", out.display()))?;
    if out.exists() {
        check_replaceable(&out)?;
    } else {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = parent.join(format!(".{name}.strackgen-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| {
        std::fs::create_dir(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        for (file, text) in &pkg.files {
            let p = tmp.join(file);
            std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        let old = parent.join(format!(".{name}.strackgen-old-{}", std::process::id()));
        if out.exists() {
            std::fs::rename(&out, &old)
                .map_err(|e| format!("cannot move {} aside: {e}", out.display()))?;
        }
        if let Err(e) = std::fs::rename(&tmp, &out) {
            let _ = std::fs::rename(&old, &out);
            return Err(format!("cannot put the package at {}: {e}", out.display()));
        }
        let _ = std::fs::remove_dir_all(&old);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

/// Build the package for `cfg` and write it into `out` (refused before anything is generated
/// when `out` may not be replaced).
pub fn write_verilog(cfg: &Config, out: &Path) -> Result<Package, String> {
    check_out(out)?;
    let pkg = build(cfg)?;
    write(&pkg, out)?;
    Ok(pkg)
}

/// Refuse an `--out` the package may not replace, before anything is generated.
pub fn check_out(out: &Path) -> Result<(), String> {
    let out = absolute(out)?;
    if out.exists() {
        check_replaceable(&out)?;
    }
    Ok(())
}

fn absolute(p: &Path) -> Result<PathBuf, String> {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| format!("cannot read the working directory: {e}"))?
            .join(p)
    };
    // `.` and `..` resolved by hand: the directory itself may not exist yet.
    let mut clean = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                clean.pop();
            }
            c => clean.push(c),
        }
    }
    Ok(clean)
}

fn check_replaceable(out: &Path) -> Result<(), String> {
    if !out.is_dir() {
        return Err(format!(
            "--out {}: exists and is not a directory (give a new directory, an empty one, or an earlier package)",
            out.display()
        ));
    }
    let mut entries = std::fs::read_dir(out)
        .map_err(|e| format!("cannot read {}: {e}", out.display()))?
        .peekable();
    if entries.peek().is_none() {
        return Ok(());
    }
    let manifest = std::fs::read_to_string(out.join(MANIFEST)).unwrap_or_default();
    let ours = serde_json::from_str::<serde_json::Value>(&manifest)
        .ok()
        .and_then(|m| m["generator"].as_str().map(|g| g.starts_with("strackgen ")))
        .unwrap_or(false);
    if ours {
        Ok(())
    } else {
        Err(format!(
            "--out {}: a directory that is neither empty nor an earlier strackgen package (no {MANIFEST} of ours); \
             the package replaces its directory as a whole, so give a new or empty one",
            out.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    #[test]
    fn every_file_starts_with_the_header_in_its_own_syntax() {
        let pkg = build(&Config::default()).unwrap();
        for (file, text) in &pkg.files {
            if file == MANIFEST {
                let m: serde_json::Value = serde_json::from_str(text).unwrap();
                assert_eq!(m["config_sha256"], pkg.config_sha256);
                continue;
            }
            let first = match file.rsplit('.').next().unwrap() {
                "core" => text.lines().nth(1),
                "vlt" => text.lines().nth(1),
                _ => text.lines().next(),
            }
            .unwrap();
            assert!(first.contains(GENERATOR), "{file}: header missing: {first}");
            assert!(text.contains(&pkg.config_sha256), "{file}");
        }
    }

    #[test]
    fn the_hash_is_of_the_config_below_its_header() {
        let cfg = Config::default();
        let pkg = build(&cfg).unwrap();
        let text = &pkg.files.iter().find(|(f, _)| f == CONFIG).unwrap().1;
        let body: String = text
            .lines()
            .skip_while(|l| l.starts_with("# "))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(body, cfg.to_toml());
        let sha: String = Sha256::digest(body.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(sha, pkg.config_sha256);
        // A different config, a different hash.
        let mut other = cfg.clone();
        other.nic.connections = 4;
        assert_ne!(other.sha256(), pkg.config_sha256);
    }

    #[test]
    fn a_directory_that_is_not_a_package_is_not_replaced() {
        let dir = std::env::temp_dir().join(format!("strackgen-pkg-refuse-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        let pkg = Package {
            files: vec![("a.v".into(), "x".into())],
            blocks: vec![],
            config_sha256: String::new(),
            manifest: serde_json::Value::Null,
        };
        let e = write(&pkg, &dir).unwrap_err();
        assert!(
            e.contains("neither empty nor an earlier strackgen package"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
            "mine"
        );
        assert!(!dir.join("a.v").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
