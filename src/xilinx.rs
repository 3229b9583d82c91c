//! `strackgen report --xilinx`: resource counts on an AMD UltraScale+ part from Yosys's
//! `synth_xilinx -family xcup` (`docs/timing.md`, "UltraScale+ resources"). Synthesis only:
//! no place and route, so no Fmax; the figures say whether the per-connection state lands in
//! block RAM, and how much logic and how many flip-flops surround it.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde::Serialize;
use strack_config::Config;

/// The family `synth_xilinx` maps to.
pub const FAMILY: &str = "xcup";

/// One block's counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Row {
    pub block: String,
    pub config: String,
    pub connections: u32,
    /// LUT1..LUT6 used as logic.
    pub lut: u64,
    /// LUTs used as memory or shift registers (RAM32M, RAM64X1D, SRL16E, ...).
    pub lutram: u64,
    /// Flip-flops (FDRE, FDSE, FDCE, FDPE).
    pub ff: u64,
    /// Block RAM in 36 Kb tiles (a RAMB18E2 counts half).
    pub bram36: f64,
    pub dsp: u64,
    /// Carry chain cells (CARRY4 or CARRY8, 4 or 8 bits each; Yosys 0.23 maps to CARRY4).
    pub carry: u64,
    pub seconds: f64,
}

/// The cell counts of the last `stat` in a Yosys log or `tee` file (the flattened top).
pub fn parse_stat(text: &str) -> Result<Row, String> {
    let start = text
        .rfind("Number of cells:")
        .ok_or("no `Number of cells:` in Yosys's stat output")?;
    let mut r = Row::default();
    for line in text[start..].lines().skip(1) {
        let mut f = line.split_whitespace();
        let (Some(cell), Some(n), None) = (f.next(), f.next(), f.next()) else {
            break;
        };
        let Ok(n) = n.parse::<u64>() else { break };
        match cell {
            c if c.starts_with("LUT") => r.lut += n,
            c if c.starts_with("FD") => r.ff += n,
            "RAMB36E2" => r.bram36 += n as f64,
            "RAMB18E2" => r.bram36 += n as f64 / 2.0,
            c if c.starts_with("RAM") || c.starts_with("SRL") => r.lutram += n,
            c if c.starts_with("DSP48") => r.dsp += n,
            "CARRY4" | "CARRY8" => r.carry += n,
            _ => {}
        }
    }
    Ok(r)
}

/// Synthesize each of `blocks` for `cfg` in `out` (`<block>.v`, `<block>.xilinx.log`,
/// `<block>.stat.txt`), one after another; progress on stderr.
pub fn run(
    cfg: &Config,
    config_name: &str,
    blocks: &[String],
    out: &Path,
    yosys: &str,
) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (i, name) in blocks.iter().enumerate() {
        eprintln!(
            "[{}/{}] {name}: Yosys synth_xilinx -family {FAMILY}",
            i + 1,
            blocks.len()
        );
        let b = hdl::generate(name, cfg, &hdl::Options::default()).map_err(|e| e.to_string())?;
        let v = out.join(format!("{name}.v"));
        std::fs::write(&v, &b.verilog).map_err(|e| format!("cannot write {}: {e}", v.display()))?;
        let stat = out.join(format!("{name}.stat.txt"));
        let log = out.join(format!("{name}.xilinx.log"));
        let script = format!(
            "read_verilog {}; synth_xilinx -family {FAMILY} -flatten -top {name}; tee -o {} stat",
            v.display(),
            stat.display()
        );
        let t = Instant::now();
        let run = Command::new(yosys)
            .args(["-l"])
            .arg(&log)
            .args(["-q", "-p", &script])
            .output()
            .map_err(|e| format!("cannot run {yosys}: {e}"))?;
        if !run.status.success() {
            return Err(format!(
                "{name}: Yosys synth_xilinx failed (log: {}):\n{}",
                log.display(),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
        let text = std::fs::read_to_string(&stat)
            .map_err(|e| format!("cannot read {}: {e}", stat.display()))?;
        let mut r = parse_stat(&text).map_err(|e| format!("{name}: {e}"))?;
        r.block = name.clone();
        r.config = config_name.to_string();
        r.connections = cfg.nic.connections;
        r.seconds = t.elapsed().as_secs_f64();
        eprintln!("      {name}: done ({:.0} s)", r.seconds);
        rows.push(r);
    }
    Ok(rows)
}

pub fn markdown(rows: &[Row]) -> String {
    let mut s = format!(
        "UltraScale+ (Yosys synth_xilinx -family {FAMILY}; synthesis only, no place and route)\n\n\
         | block | config | connections | LUT | LUTRAM | FF | BRAM (36 Kb) | DSP | carry cells | synthesis |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} s |\n",
            r.block,
            r.config,
            r.connections,
            r.lut,
            r.lutram,
            r.ff,
            r.bram36,
            r.dsp,
            r.carry,
            r.seconds
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last `stat` block counts, by kind; a block RAM half counts half; the hierarchy
    /// lines after it end it.
    #[test]
    fn stat_cells_are_counted_by_kind() {
        let text = "\
=== early ===
   Number of cells:                  9
     LUT6                            9

=== top ===

   Number of wires:                 12
   Number of cells:                 41
     CARRY4                          2
     DSP48E2                         1
     FDRE                            7
     FDSE                            1
     LUT2                            3
     LUT6                            4
     RAM64M8                         2
     RAMB18E2                        3
     RAMB36E2                        5
     SRL16E                          1

   Estimated number of LCs:          7
";
        let r = parse_stat(text).unwrap();
        assert_eq!((r.lut, r.ff, r.lutram, r.dsp, r.carry), (7, 8, 3, 1, 2));
        assert_eq!(r.bram36, 6.5);
        assert!(parse_stat("nothing here").is_err());
    }
}
