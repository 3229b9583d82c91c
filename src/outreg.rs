//! ECP5 block RAM and multiplier output registers, absorbed after synthesis (the multipliers'
//! rule: [`absorb_dsp`]).
//!
//! The context RAMs' read data is registered as it leaves the RAM, before any logic
//! (`docs/blocks/context_pipe.md`). An ECP5 EBR (`DP16KD`) has that register built in
//! (`REGMODE = "OUTREG"`), with a clock-to-output of about 1 ns instead of the 5.8 ns of its
//! unregistered output; in the fabric the same register costs the EBR's slow output plus the
//! route to a flip-flop, which held a 1403-bit, 78-EBR context pipeline to 107.8 MHz. Yosys 0.23
//! (the Debian version this project uses) always maps EBRs as `NOREG` and leaves the register in
//! the fabric, so the flow moves it into the EBR itself, on the netlist Yosys wrote:
//!
//! for each `DP16KD` of a memory named `mem_outreg` (the RTL's opt-in:
//! `hdl::context_ram::ContextRam::with_output_register_in_ebr`; moving the register is a loss
//! where deep logic follows it, since the EBR's fixed place then sets the route to that logic),
//! each read port (`WE` tied low) without an output register, whose `OCE` is tied
//! high and `RST` low, if every output bit that is used drives exactly one flip-flop, on the
//! port's clock, without enable or set/reset, powering up at 0, those flip-flops are deleted,
//! their outputs are driven by the EBR's outputs, and the port's `REGMODE` becomes `OUTREG`.
//! Otherwise the EBR is left alone. The result is the same circuit: one register stage between
//! the RAM array and the logic, now inside the EBR (its output register powers up at 0, as the
//! flip-flops did).

use std::collections::HashMap;

use serde_json::Value;

/// One EBR port that takes its register: the EBR, the port letter, and the flip-flop behind
/// each used output bit.
type Absorption = (String, char, Vec<(usize, String)>);

/// Absorb the output registers of the EBRs of module `top` in a Yosys JSON netlist. Returns how
/// many EBR ports took their register.
pub fn absorb(netlist: &mut Value, top: &str) -> Result<usize, String> {
    let module = module_mut(netlist, top)?;
    let sinks = sinks(module)?;
    let cells = cells_of(module)?;
    let mut plan: Vec<Absorption> = Vec::new();
    for (name, cell) in cells {
        // Yosys names a memory's EBRs `<path>.<memory>.<i>.<j>`.
        let opted_in = name.split('.').rev().nth(2) == Some("mem_outreg");
        if cell["type"] != "DP16KD" || !opted_in {
            continue;
        }
        for side in ['A', 'B'] {
            if let Some(pairs) = absorbable(cell, side, cells, &sinks) {
                plan.push((name.clone(), side, pairs));
            }
        }
    }

    let cells = cells_mut(module)?;
    for (ebr, side, pairs) in &plan {
        take_flip_flops(cells, ebr, pairs, |k| format!("DO{side}{k}"));
        cells[ebr]["parameters"][format!("REGMODE_{side}")] = Value::from("OUTREG");
    }
    Ok(plan.len())
}

/// Module `top` of a Yosys JSON netlist.
fn module_mut<'a>(netlist: &'a mut Value, top: &str) -> Result<&'a mut Value, String> {
    netlist
        .get_mut("modules")
        .and_then(|m| m.get_mut(top))
        .ok_or_else(|| format!("netlist has no module `{top}`"))
}

fn cells_of(module: &Value) -> Result<&serde_json::Map<String, Value>, String> {
    module
        .get("cells")
        .and_then(Value::as_object)
        .ok_or_else(|| "netlist module has no cells".to_string())
}

fn cells_mut(module: &mut Value) -> Result<&mut serde_json::Map<String, Value>, String> {
    module["cells"]
        .as_object_mut()
        .ok_or_else(|| "netlist module has no cells".to_string())
}

/// Delete the flip-flops `pairs` names and drive their outputs from `cell`'s output pins
/// (`pin(k)` for the pair's bit `k`): the register moves into the cell.
fn take_flip_flops(
    cells: &mut serde_json::Map<String, Value>,
    cell: &str,
    pairs: &[(usize, String)],
    pin: impl Fn(usize) -> String,
) {
    for (k, ff) in pairs {
        let q = cells[ff]["connections"]["Q"].clone();
        cells[cell]["connections"][pin(*k)] = q;
        cells.remove(ff);
    }
}

/// Who reads each net bit of `module`: cell input pins and the module's output ports
/// (`"<port>"`).
fn sinks(module: &Value) -> Result<HashMap<u64, Vec<(String, String)>>, String> {
    let mut sinks: HashMap<u64, Vec<(String, String)>> = HashMap::new();
    let mut read_by = |bits: &Value, reader: (String, String)| {
        for b in bits
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_u64)
        {
            sinks.entry(b).or_default().push(reader.clone());
        }
    };
    for (name, cell) in cells_of(module)? {
        for (pin, bits) in cell["connections"].as_object().into_iter().flatten() {
            if cell["port_directions"][pin] == "input" {
                read_by(bits, (name.clone(), pin.clone()));
            }
        }
    }
    for (name, port) in module["ports"].as_object().into_iter().flatten() {
        if port["direction"] == "output" {
            read_by(&port["bits"], ("<port>".into(), name.clone()));
        }
    }
    Ok(sinks)
}

/// A multiplier taking its output register: the DSP, its clock and clock-enable bits, and the
/// flip-flop behind each used output bit.
type DspAbsorption = (String, Value, Value, Vec<(usize, String)>);

/// What [`dsp_absorbable`] finds: the clock and clock-enable bits, and the flip-flop behind
/// each used output bit.
type DspPlan = (Value, Value, Vec<(usize, String)>);

/// Absorb the output registers of the multipliers (`MULT18X18D`) of module `top` in a Yosys
/// JSON netlist (see [`dsp_absorbable`]). Returns how many multipliers took theirs.
///
/// Every product in the RTL is registered as it leaves the multiplier (the partial products
/// of `hdl::cwnd_unit::MulPipe32`), and the ECP5 `MULT18X18D` has that register built in;
/// Yosys 0.23 maps multipliers without registers and leaves the register in the fabric, so the
/// path was a register, the route to the DSP, the multiplier (3.93 ns) and the route back to a
/// flip-flop the placer may put anywhere: the cwnd unit's critical path, 8.0 to 8.6 ns over
/// seeds. The same register inside the DSP takes that route out of the path.
pub fn absorb_dsp(netlist: &mut Value, top: &str) -> Result<usize, String> {
    let module = module_mut(netlist, top)?;
    let sinks = sinks(module)?;
    let cells = cells_of(module)?;
    let plan: Vec<DspAbsorption> = cells
        .iter()
        .filter(|(_, c)| c["type"] == "MULT18X18D")
        .filter_map(|(name, c)| {
            dsp_absorbable(c, cells, &sinks).map(|(clk, ce, pairs)| (name.clone(), clk, ce, pairs))
        })
        .collect();
    let cells = cells_mut(module)?;
    for (dsp, clk, ce, pairs) in &plan {
        take_flip_flops(cells, dsp, pairs, |k| format!("P{k}"));
        let d = &mut cells[dsp];
        for (pin, bits) in [
            ("CLK0", clk.clone()),
            ("CE0", ce.clone()),
            ("RST0", json_zero()),
        ] {
            d["connections"][pin] = bits;
            d["port_directions"][pin] = Value::from("input");
        }
        for (param, v) in [
            ("REG_OUTPUT_CLK", "CLK0"),
            ("REG_OUTPUT_CE", "CE0"),
            ("REG_OUTPUT_RST", "RST0"),
        ] {
            d["parameters"][param] = Value::from(v);
        }
    }
    Ok(plan.len())
}

fn json_zero() -> Value {
    Value::from(vec![Value::from("0")])
}

/// A multiplier qualifies when it has no register of its own yet and its clock, clock-enable
/// and reset pins are free, and every used output bit drives exactly one flip-flop: all on one
/// clock, with one clock enable (or none), without set/reset, powering up at 0. Returns the
/// clock bits, the enable bits (constant 1 if none) and the flip-flop behind each output bit.
fn dsp_absorbable(
    cell: &Value,
    cells: &serde_json::Map<String, Value>,
    sinks: &HashMap<u64, Vec<(String, String)>>,
) -> Option<DspPlan> {
    let unset = |p: &str| {
        cell["parameters"]
            .get(p)
            .is_none_or(|v| v.as_str().map(str::trim) == Some("NONE"))
    };
    let regs = [
        "REG_INPUTA_CLK",
        "REG_INPUTB_CLK",
        "REG_INPUTC_CLK",
        "REG_PIPELINE_CLK",
        "REG_OUTPUT_CLK",
    ];
    let free = |p: &str| cell["connections"].get(p).is_none();
    if !regs.iter().all(|p| unset(p)) || !["CLK0", "CE0", "RST0"].iter().all(|p| free(p)) {
        return None;
    }
    let mut clock: Option<Value> = None;
    let mut enable: Option<Value> = None;
    let mut pairs = Vec::new();
    for k in 0..36 {
        let Some(bit) = cell["connections"][format!("P{k}")]
            .as_array()
            .and_then(|b| b.first())
            .and_then(Value::as_u64)
        else {
            continue;
        };
        match sinks.get(&bit).map(Vec::as_slice).unwrap_or_default() {
            [] => continue,
            [(ff, pin)] if pin == "DI" => {
                let f = cells.get(ff)?;
                let prm = &f["parameters"];
                let ce = match prm["CEMUX"].as_str().map(str::trim) {
                    Some("1") => json_one(),
                    Some("CE") => f["connections"]["CE"].clone(),
                    _ => return None,
                };
                let plain = f["type"] == "TRELLIS_FF"
                    && prm["CLKMUX"] == "CLK"
                    && tied(f, "LSR", "0")
                    && prm["REGSET"] == "RESET";
                let clk = f["connections"]["CLK"].clone();
                if !plain
                    || clock.get_or_insert_with(|| clk.clone()) != &clk
                    || enable.get_or_insert_with(|| ce.clone()) != &ce
                {
                    return None;
                }
                pairs.push((k, ff.clone()));
            }
            _ => return None,
        }
    }
    Some((clock?, enable?, pairs))
}

fn json_one() -> Value {
    Value::from(vec![Value::from("1")])
}

/// A tied-off pin: its one bit is the constant `c`.
fn tied(cell: &Value, pin: &str, c: &str) -> bool {
    cell["connections"][pin]
        .as_array()
        .is_some_and(|b| b.len() == 1 && b[0] == c)
}

/// The flip-flop each used output bit of `cell`'s port `side` drives, if the port qualifies.
fn absorbable(
    cell: &Value,
    side: char,
    cells: &serde_json::Map<String, Value>,
    sinks: &HashMap<u64, Vec<(String, String)>>,
) -> Option<Vec<(usize, String)>> {
    let p = |pin: &str| format!("{pin}{side}");
    let read_only = tied(cell, &p("WE"), "0");
    if !read_only
        || cell["parameters"][p("REGMODE_")] != "NOREG"
        || !tied(cell, &p("OCE"), "1")
        || !tied(cell, &p("RST"), "0")
    {
        return None;
    }
    let clock = &cell["connections"][p("CLK")];
    let mut pairs = Vec::new();
    for k in 0..18 {
        let Some(bit) = cell["connections"][format!("DO{side}{k}")]
            .as_array()
            .and_then(|b| b.first())
            .and_then(Value::as_u64)
        else {
            continue;
        };
        let readers = sinks.get(&bit).map(Vec::as_slice).unwrap_or_default();
        match readers {
            [] => continue,
            [(ff, pin)] if pin == "DI" => {
                let f = cells.get(ff)?;
                let prm = &f["parameters"];
                let plain = f["type"] == "TRELLIS_FF"
                    && &f["connections"]["CLK"] == clock
                    && prm["CLKMUX"] == "CLK"
                    && prm["CEMUX"].as_str().map(str::trim) == Some("1")
                    && tied(f, "LSR", "0")
                    && prm["REGSET"] == "RESET";
                if !plain {
                    return None;
                }
                pairs.push((k, ff.clone()));
            }
            _ => return None,
        }
    }
    (!pairs.is_empty()).then_some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An EBR whose port B outputs 0 and 1 (bits 10, 11) feed flip-flops `f0`, `f1` (outputs
    /// 20, 21) on clock bit 2; `tweak` edits the netlist before the pass.
    fn netlist(tweak: impl FnOnce(&mut Value)) -> Value {
        let ff = |di: u64, q: u64| {
            json!({
                "type": "TRELLIS_FF",
                "parameters": {"CEMUX": "1 ", "CLKMUX": "CLK", "GSR": "DISABLED",
                               "LSRMUX": "LSR", "REGSET": "RESET"},
                "port_directions": {"CLK": "input", "DI": "input", "LSR": "input",
                                    "Q": "output"},
                "connections": {"CLK": [2], "DI": [di], "LSR": ["0"], "Q": [q]}
            })
        };
        let mut ebr_conn = json!({"CLKB": [2], "WEB": ["0"], "OCEB": ["1"], "RSTB": ["0"],
                                  "CLKA": [2], "WEA": [5], "OCEA": ["1"], "RSTA": ["0"]});
        let mut dirs = json!({"CLKB": "input", "WEB": "input", "OCEB": "input", "RSTB": "input",
                              "CLKA": "input", "WEA": "input", "OCEA": "input",
                              "RSTA": "input"});
        for k in 0..18 {
            let b = if k < 2 {
                json!([10 + k])
            } else {
                json!([100 + k])
            };
            ebr_conn[format!("DOB{k}")] = b;
            dirs[format!("DOB{k}")] = json!("output");
        }
        let mut n = json!({"modules": {"top": {
            "ports": {"q": {"direction": "output", "bits": [20, 21]}},
            "cells": {
                "pipe.ram.mem_outreg.0.0": {"type": "DP16KD",
                        "parameters": {"REGMODE_A": "NOREG", "REGMODE_B": "NOREG"},
                        "port_directions": dirs, "connections": ebr_conn},
                "f0": ff(10, 20),
                "f1": ff(11, 21)
            }
        }}});
        tweak(&mut n);
        n
    }

    /// An edit of the test netlist.
    type Tweak = fn(&mut Value);

    fn cells(n: &Value) -> &serde_json::Map<String, Value> {
        n["modules"]["top"]["cells"].as_object().unwrap()
    }

    #[test]
    fn plain_output_registers_move_into_the_ebr() {
        let mut n = netlist(|_| {});
        assert_eq!(absorb(&mut n, "top"), Ok(1));
        let c = cells(&n);
        assert!(!c.contains_key("f0") && !c.contains_key("f1"));
        let ram = &c["pipe.ram.mem_outreg.0.0"];
        assert_eq!(ram["parameters"]["REGMODE_B"], "OUTREG");
        assert_eq!(ram["parameters"]["REGMODE_A"], "NOREG");
        assert_eq!(ram["connections"]["DOB0"], json!([20]));
        assert_eq!(ram["connections"]["DOB1"], json!([21]));
    }

    /// Each way a register differs from the EBR's own leaves the netlist as it was.
    #[test]
    fn anything_else_is_left_alone() {
        let cases: [(&str, Tweak); 8] = [
            ("a second reader", |n| {
                n["modules"]["top"]["ports"]["q"]["bits"] = json!([20, 21, 11])
            }),
            ("another clock", |n| {
                n["modules"]["top"]["cells"]["f1"]["connections"]["CLK"] = json!([3])
            }),
            ("a clock enable", |n| {
                n["modules"]["top"]["cells"]["f0"]["parameters"]["CEMUX"] = json!("CE")
            }),
            ("a reset", |n| {
                n["modules"]["top"]["cells"]["f0"]["connections"]["LSR"] = json!([7])
            }),
            ("a power-on 1", |n| {
                n["modules"]["top"]["cells"]["f1"]["parameters"]["REGSET"] = json!("SET")
            }),
            ("a written port", |n| {
                n["modules"]["top"]["cells"]["pipe.ram.mem_outreg.0.0"]["connections"]["WEB"] =
                    json!([5])
            }),
            ("a memory that did not opt in", |n| {
                let cells = n["modules"]["top"]["cells"].as_object_mut().unwrap();
                let ram = cells.remove("pipe.ram.mem_outreg.0.0").unwrap();
                cells.insert("ram.mem.0.0".into(), ram);
            }),
            ("a register already", |n| {
                n["modules"]["top"]["cells"]["pipe.ram.mem_outreg.0.0"]["parameters"]["REGMODE_B"] =
                    json!("OUTREG")
            }),
        ];
        for (what, tweak) in cases {
            let mut n = netlist(tweak);
            let before = n.clone();
            assert_eq!(absorb(&mut n, "top"), Ok(0), "{what}");
            assert_eq!(n, before, "{what}");
        }
    }

    /// A multiplier whose outputs P0, P1 (bits 30, 31) feed flip-flops `g0`, `g1` (outputs 40,
    /// 41) on clock bit 2 with clock enable bit 9; `tweak` edits the netlist before the pass.
    fn dsp_netlist(tweak: impl FnOnce(&mut Value)) -> Value {
        let ff = |di: u64, q: u64| {
            json!({
                "type": "TRELLIS_FF",
                "parameters": {"CEMUX": "CE", "CLKMUX": "CLK", "GSR": "DISABLED",
                               "LSRMUX": "LSR", "REGSET": "RESET"},
                "port_directions": {"CLK": "input", "CE": "input", "DI": "input",
                                    "LSR": "input", "Q": "output"},
                "connections": {"CLK": [2], "CE": [9], "DI": [di], "LSR": ["0"], "Q": [q]}
            })
        };
        let mut conn = json!({"A0": [3], "B0": [4], "SIGNEDA": ["0"], "SIGNEDB": ["0"]});
        let mut dirs = json!({"A0": "input", "B0": "input", "SIGNEDA": "input",
                              "SIGNEDB": "input"});
        for k in 0..36 {
            conn[format!("P{k}")] = if k < 2 {
                json!([30 + k])
            } else {
                json!([200 + k])
            };
            dirs[format!("P{k}")] = json!("output");
        }
        let mut n = json!({"modules": {"top": {
            "ports": {"q": {"direction": "output", "bits": [40, 41]}},
            "cells": {
                "mul.dsp": {"type": "MULT18X18D", "parameters": {},
                            "port_directions": dirs, "connections": conn},
                "g0": ff(30, 40),
                "g1": ff(31, 41)
            }
        }}});
        tweak(&mut n);
        n
    }

    #[test]
    fn multiplier_output_registers_move_into_the_dsp() {
        let mut n = dsp_netlist(|_| {});
        assert_eq!(absorb_dsp(&mut n, "top"), Ok(1));
        let c = cells(&n);
        assert!(!c.contains_key("g0") && !c.contains_key("g1"));
        let d = &c["mul.dsp"];
        assert_eq!(d["parameters"]["REG_OUTPUT_CLK"], "CLK0");
        assert_eq!(d["parameters"]["REG_OUTPUT_CE"], "CE0");
        assert_eq!(d["parameters"]["REG_OUTPUT_RST"], "RST0");
        assert_eq!(d["connections"]["CLK0"], json!([2]));
        assert_eq!(d["connections"]["CE0"], json!([9]));
        assert_eq!(d["connections"]["RST0"], json!(["0"]));
        assert_eq!(d["port_directions"]["CE0"], "input");
        assert_eq!(d["connections"]["P0"], json!([40]));
        assert_eq!(d["connections"]["P1"], json!([41]));
    }

    /// Flip-flops without a clock enable: the DSP's enable is tied high.
    #[test]
    fn no_enable_ties_the_dsps_high() {
        let mut n = dsp_netlist(|n| {
            for f in ["g0", "g1"] {
                n["modules"]["top"]["cells"][f]["parameters"]["CEMUX"] = json!("1 ");
            }
        });
        assert_eq!(absorb_dsp(&mut n, "top"), Ok(1));
        assert_eq!(cells(&n)["mul.dsp"]["connections"]["CE0"], json!(["1"]));
    }

    #[test]
    fn multipliers_that_differ_are_left_alone() {
        let cases: [(&str, Tweak); 6] = [
            ("a second reader", |n| {
                n["modules"]["top"]["ports"]["q"]["bits"] = json!([40, 41, 31])
            }),
            ("another clock", |n| {
                n["modules"]["top"]["cells"]["g1"]["connections"]["CLK"] = json!([3])
            }),
            ("another enable", |n| {
                n["modules"]["top"]["cells"]["g1"]["connections"]["CE"] = json!([8])
            }),
            ("a reset", |n| {
                n["modules"]["top"]["cells"]["g0"]["connections"]["LSR"] = json!([7])
            }),
            ("a power-on 1", |n| {
                n["modules"]["top"]["cells"]["g1"]["parameters"]["REGSET"] = json!("SET")
            }),
            ("an input register already", |n| {
                n["modules"]["top"]["cells"]["mul.dsp"]["parameters"]["REG_INPUTA_CLK"] =
                    json!("CLK0")
            }),
        ];
        for (what, tweak) in cases {
            let mut n = dsp_netlist(tweak);
            let before = n.clone();
            assert_eq!(absorb_dsp(&mut n, "top"), Ok(0), "{what}");
            assert_eq!(n, before, "{what}");
        }
    }

    #[test]
    fn a_missing_module_is_an_error() {
        let mut n = netlist(|_| {});
        assert_eq!(
            absorb(&mut n, "nope"),
            Err("netlist has no module `nope`".to_string())
        );
    }
}
