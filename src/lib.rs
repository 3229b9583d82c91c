//! The library behind the `strackgen` command: what its verbs build, apart from argument
//! parsing: the Verilog package and its descriptors, the open FPGA flows (`synth`: Yosys and
//! nextpnr-ecp5; `xilinx`: Yosys synth_xilinx; `outreg`: the netlist pass between them), the
//! loopback timeline.

pub mod cosim;
pub mod descriptors;
pub mod formal;
pub mod outreg;
pub mod package;
pub mod replay;
pub mod schedule;
pub mod synth;
pub mod timeline;
pub mod xilinx;

/// Write `bytes` to `path` whole or not at all: into a temporary file beside it, then renamed
/// over it, so a failure (a full disk) never leaves a partial file where the old one was.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.strackgen-{}", std::process::id()));
    let result = std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
