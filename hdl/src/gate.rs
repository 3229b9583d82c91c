//! The cheap gate every block passes (run by each block's tests): it generates, lints with
//! `verilator --lint-only -Wall` (only the waivers in `hdl/lint/verilator.vlt`), compiles in
//! Icarus (`iverilog -g2005`), and passes a Yosys check (`hierarchy -check; proc; flatten; check
//! -assert`, plus a full `synth -noshare` when `full_synth`). `-noshare` skips Yosys 0.23's
//! SAT-based resource sharing, which ran out of memory (killed after 4 minutes) on the (since
//! removed) stand-alone SACK receiver's mux trees; without it the same synthesis takes seconds.

use std::path::PathBuf;
use std::process::Command;

use crate::Block;

pub fn check(b: &Block, tag: &str, full_synth: bool) {
    let v = lint(b, tag);
    let dir = v.parent().unwrap();

    let out = Command::new("iverilog")
        .args(["-g2005", "-s", &b.name, "-o"])
        .arg(dir.join("a.out"))
        .arg(&v)
        .output()
        .expect("iverilog not found (make deps)");
    assert!(
        out.status.success(),
        "{tag}: iverilog:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let script = if full_synth {
        format!(
            "read_verilog {}; synth -noshare -top {}; check -assert",
            v.display(),
            b.name
        )
    } else {
        format!(
            "read_verilog {}; hierarchy -check -top {}; proc; flatten; opt_clean; check -assert",
            v.display(),
            b.name
        )
    };
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .expect("yosys not found (make deps)");
    assert!(
        out.status.success(),
        "{tag}: yosys:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles the test bench `tb.v` (top module `tb`) with `dut.v` in `dir` under Icarus and
/// returns what it prints: the shared step of the small blocks' exhaustive checks.
#[cfg(test)]
pub fn icarus_run(dir: &std::path::Path, tb: &str, dut: &str) -> String {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("dut.v"), dut).unwrap();
    std::fs::write(dir.join("tb.v"), tb).unwrap();
    let out = Command::new("iverilog")
        .args(["-g2005", "-s", "tb", "-o"])
        .arg(dir.join("a.out"))
        .arg(dir.join("tb.v"))
        .arg(dir.join("dut.v"))
        .output()
        .expect("iverilog not found (make deps)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("vvp").arg(dir.join("a.out")).output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The first step of [`check`] alone: writes the Verilog under `target/gate/<tag>` and lints it
/// (for designs too big for the rest of the gate). Returns the file's path.
pub fn lint(b: &Block, tag: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/gate")
        .join(tag);
    std::fs::create_dir_all(&dir).unwrap();
    let v = dir.join(format!("{}.v", b.name));
    std::fs::write(&v, &b.verilog).unwrap();
    let waivers = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("lint/verilator.vlt");
    let out = Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", &b.name])
        .arg(&waivers)
        .arg(&v)
        .output()
        .expect("verilator not found (make deps)");
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{tag}: verilator lint:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    v
}
