//! Cycle-by-cycle co-simulation of the generated RTL (Verilated, through our own binding in
//! `build.rs`) against the golden model.
//!
//! A co-sim run drives the same stimulus into the RTL and into a cycle-level wrapper of the
//! model ([`Latency1`] for the latency-1 blocks), and compares **every output port on every
//! cycle**. The first mismatch is reported with the cycle number, the inputs of that cycle,
//! the expected and actual value of every output port, and a VCD of the failing run
//! (`STRACK_VCD=1` traces every run).

pub mod configs;
pub mod designs;
pub mod entropy_bitmap;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A port of a Verilated design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortInfo {
    pub name: &'static str,
    pub output: bool,
    pub width: u32,
}

/// What the harness needs of a Verilated design; implemented by the generated bindings.
pub trait Dut {
    fn name(&self) -> &'static str;
    fn ports(&self) -> &'static [PortInfo];
    fn eval(&mut self);
    fn time(&mut self) -> &mut u64;
    fn trace_open(&mut self, path: &Path) -> bool;
    fn trace_dump(&mut self, t: u64);
    fn trace_close(&mut self);
    /// Set a narrow (<= 64-bit) input.
    fn set(&mut self, port: &str, v: u64);
    /// Read a narrow (<= 64-bit) output.
    fn get(&self, port: &str) -> u64;

    /// Settle the combinational logic with the clock low (inputs already set).
    fn settle(&mut self) {
        self.set("clock", 0);
        self.eval();
        let t = *self.time();
        self.trace_dump(t);
    }

    /// One rising edge, then the clock back low.
    fn posedge(&mut self) {
        self.set("clock", 1);
        self.eval();
        *self.time() += 5;
        let t = *self.time();
        self.trace_dump(t);
        self.set("clock", 0);
        self.eval();
        *self.time() += 5;
    }
}

/// The cycle-level shape of a latency-1 block with a valid/ready output stage:
/// `s_ready = !m_valid | m_ready`; an accepted event's result is presented from the next cycle
/// until taken; when the stage advances without an event, every output field reads 0.
#[derive(Debug, Clone, Default)]
pub struct Latency1<E: Clone + Default> {
    pub m_valid: bool,
    pub out: E,
}

impl<E: Clone + Default> Latency1<E> {
    pub fn s_ready(&self, m_ready: bool) -> bool {
        !self.m_valid || m_ready
    }

    /// The clock edge: `fired` is the result of the event accepted this cycle, if any.
    pub fn clock(&mut self, m_ready: bool, fired: Option<E>) {
        if self.s_ready(m_ready) {
            match fired {
                Some(e) => {
                    self.m_valid = true;
                    self.out = e;
                }
                None => {
                    self.m_valid = false;
                    self.out = E::default();
                }
            }
        }
    }
}

/// Expected output port values of one cycle, by name.
pub type PortValues = Vec<(&'static str, u64)>;

/// A co-sim failure: everything needed to see what went wrong.
#[derive(Debug, Clone)]
pub struct Mismatch {
    pub design: &'static str,
    pub cycle: u64,
    pub inputs: String,
    /// (port, expected, actual) for every output port.
    pub ports: Vec<(&'static str, u64, u64)>,
    pub vcd: Option<PathBuf>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        let _ = writeln!(s, "{}: first mismatch at cycle {}", self.design, self.cycle);
        let _ = writeln!(s, "  inputs: {}", self.inputs);
        let _ = writeln!(
            s,
            "  {:<28} {:>20} {:>20}",
            "port", "expected (model)", "actual (RTL)"
        );
        for (p, e, a) in &self.ports {
            let mark = if e != a { "  <-- differs" } else { "" };
            let _ = writeln!(s, "  {p:<28} {e:>20} {a:>20}{mark}");
        }
        match &self.vcd {
            Some(p) => {
                let _ = writeln!(s, "  VCD: {}", p.display());
            }
            None => {
                let _ = writeln!(s, "  VCD: not written");
            }
        }
        f.write_str(&s)
    }
}

/// Compare every output port of `dut` against `expected`. `expected` must name every output
/// port of the design exactly once (checked), so no port escapes the comparison.
pub fn compare(dut: &dyn Dut, expected: &PortValues) -> Result<(), Vec<(&'static str, u64, u64)>> {
    let outputs: Vec<&PortInfo> = dut.ports().iter().filter(|p| p.output).collect();
    assert_eq!(
        outputs.len(),
        expected.len(),
        "{}: the model wrapper gives {} output values for {} output ports",
        dut.name(),
        expected.len(),
        outputs.len()
    );
    let mut rows = Vec::with_capacity(expected.len());
    let mut bad = false;
    for p in outputs {
        let e = expected
            .iter()
            .find(|(n, _)| *n == p.name)
            .unwrap_or_else(|| panic!("{}: no expected value for output {}", dut.name(), p.name))
            .1;
        let a = dut.get(p.name);
        bad |= e != a;
        rows.push((p.name, e, a));
    }
    if bad {
        Err(rows)
    } else {
        Ok(())
    }
}

/// Where VCDs go: `target/vcd/` of the workspace.
pub fn vcd_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let d = target.join("vcd");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// `STRACK_VCD=1` asks for a VCD of every run.
pub fn vcd_always() -> bool {
    std::env::var("STRACK_VCD").is_ok_and(|v| v == "1")
}

/// Cycles per co-sim test: `STRACK_COSIM_CYCLES` if set, else `default`.
pub fn cycles_budget(default: u64) -> u64 {
    std::env::var("STRACK_COSIM_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
