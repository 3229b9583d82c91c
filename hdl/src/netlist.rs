//! Structural composition in typed Rust: a top module made of generated blocks (instances),
//! nets and the top's own ports. Every connection is checked when it is made (the port exists,
//! its direction, the widths agree) and every instance input is driven exactly once when the
//! top is finished; errors name the top, the instance and the port. The Verilog is written from
//! that description at the end, one line per declaration, instance port and assignment.
//!
//! Unused instance outputs are still given nets (named `<instance>_<port>`) and read by one
//! `unused_*` reduction, so a lint with every warning on stays quiet without a waiver per
//! port.

use std::collections::BTreeMap;

use crate::{prefixed, Block, Dir, HdlError, Port};

/// A net of the top: one of its inputs, or an instance's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Net {
    name: String,
    width: u32,
}

impl Net {
    pub fn width(&self) -> u32 {
        self.width
    }
}

/// An instance added to a [`Netlist`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inst(usize);

struct Instance {
    block: Block,
    name: String,
    /// Input port -> what drives it (a net's name or a constant).
    inputs: BTreeMap<String, String>,
}

/// A top module under construction.
pub struct Netlist {
    top: String,
    ports: Vec<Port>,
    instances: Vec<Instance>,
    /// Top output -> the net it shows.
    outputs: Vec<(String, String)>,
}

/// A declaration's range: `[w-1:0] `, or nothing for one bit.
pub(crate) fn range(w: u32) -> String {
    if w > 1 {
        format!("[{}:0] ", w - 1)
    } else {
        String::new()
    }
}

/// `module name(` with one `input wire` / `output wire` line per port, and `);`.
pub(crate) fn module_header(name: &str, ports: &[Port]) -> String {
    let decls: Vec<String> = ports
        .iter()
        .map(|p| {
            let d = if p.dir == Dir::Input {
                "input"
            } else {
                "output"
            };
            format!("    {d} wire {}{}", range(p.width), p.name)
        })
        .collect();
    format!("module {name}(\n{}\n);\n\n", decls.join(",\n"))
}

impl Netlist {
    pub fn new(top: &str) -> Self {
        Netlist {
            top: top.to_string(),
            ports: vec![Port {
                name: "clock".into(),
                dir: Dir::Input,
                width: 1,
            }],
            instances: Vec::new(),
            outputs: Vec::new(),
        }
    }

    fn err(&self, message: String) -> HdlError {
        HdlError::Config {
            block: self.top.clone(),
            message,
        }
    }

    /// A new input port of the top.
    pub fn input(&mut self, name: &str, width: u32) -> Result<Net, HdlError> {
        if self.ports.iter().any(|p| p.name == name) {
            return Err(self.err(format!("port `{name}` declared twice")));
        }
        self.ports.push(Port {
            name: name.into(),
            dir: Dir::Input,
            width,
        });
        Ok(Net {
            name: name.into(),
            width,
        })
    }

    /// Instance `name` of `block` (its modules are renamed `<top>__<block>*` when written).
    pub fn instance(&mut self, block: &Block, name: &str) -> Inst {
        let mut inputs = BTreeMap::new();
        if block.ports.iter().any(|p| p.name == "clock") {
            inputs.insert("clock".to_string(), "clock".to_string());
        }
        self.instances.push(Instance {
            block: block.clone(),
            name: name.into(),
            inputs,
        });
        Inst(self.instances.len() - 1)
    }

    fn port(&self, i: Inst, port: &str, dir: Dir) -> Result<Port, HdlError> {
        let inst = &self.instances[i.0];
        let p = inst
            .block
            .ports
            .iter()
            .find(|p| p.name == port)
            .ok_or_else(|| {
                self.err(format!(
                    "instance `{}` ({}) has no port `{port}`",
                    inst.name, inst.block.name
                ))
            })?;
        if p.dir != dir {
            return Err(self.err(format!(
                "port `{port}` of instance `{}` is an {:?}, used as an {dir:?}",
                inst.name, p.dir
            )));
        }
        Ok(p.clone())
    }

    fn bind(&mut self, i: Inst, port: &str, width: u32, what: String) -> Result<(), HdlError> {
        let p = self.port(i, port, Dir::Input)?;
        let inst = &self.instances[i.0];
        if p.width != width {
            return Err(self.err(format!(
                "input `{port}` of instance `{}` is {} bits, driven by {width} bits ({what})",
                inst.name, p.width
            )));
        }
        if inst.inputs.contains_key(port) {
            return Err(self.err(format!(
                "input `{port}` of instance `{}` is driven twice",
                inst.name
            )));
        }
        self.instances[i.0].inputs.insert(port.into(), what);
        Ok(())
    }

    /// Drive input `port` of instance `i` from `net` (same width).
    pub fn drive(&mut self, i: Inst, port: &str, net: &Net) -> Result<(), HdlError> {
        self.bind(i, port, net.width, net.name.clone())
    }

    /// A new input port of the top named and sized as input `port` of the first of `to`,
    /// driving that port of each of them.
    pub fn expose(&mut self, port: &str, to: &[Inst]) -> Result<Net, HdlError> {
        let first = *to
            .first()
            .ok_or_else(|| self.err(format!("input `{port}` exposed to no instance")))?;
        let width = self.port(first, port, Dir::Input)?.width;
        let net = self.input(port, width)?;
        for &i in to {
            self.drive(i, port, &net)?;
        }
        Ok(net)
    }

    /// The net output `port` of instance `i` drives.
    pub fn output_of(&self, i: Inst, port: &str) -> Result<Net, HdlError> {
        let p = self.port(i, port, Dir::Output)?;
        Ok(Net {
            name: format!("{}_{port}", self.instances[i.0].name),
            width: p.width,
        })
    }

    /// A new output port of the top, showing `net`.
    pub fn output(&mut self, name: &str, net: &Net) -> Result<(), HdlError> {
        if self.ports.iter().any(|p| p.name == name) {
            return Err(self.err(format!("port `{name}` declared twice")));
        }
        self.ports.push(Port {
            name: name.into(),
            dir: Dir::Output,
            width: net.width,
        });
        self.outputs.push((name.into(), net.name.clone()));
        Ok(())
    }

    /// The top, checked (every instance input driven) and written.
    pub fn finish(self, comment: &str, latency: u32) -> Result<Block, HdlError> {
        let top = &self.top;
        let read: Vec<&str> = self
            .instances
            .iter()
            .flat_map(|i| i.inputs.values().map(String::as_str))
            .chain(self.outputs.iter().map(|(_, n)| n.as_str()))
            .collect();
        let mut v = String::new();
        for line in comment.lines() {
            v.push_str(&format!("// {line}\n"));
        }
        v.push_str(&module_header(top, &self.ports));
        let mut unused = Vec::new();
        for i in &self.instances {
            for p in i.block.ports.iter().filter(|p| p.dir == Dir::Output) {
                let n = format!("{}_{}", i.name, p.name);
                v.push_str(&format!("    wire {}{n};\n", range(p.width)));
                if !read.contains(&n.as_str()) {
                    unused.push(n);
                }
            }
        }
        if !unused.is_empty() {
            v.push_str(&format!(
                "    // Outputs of the instances the top does not use.\n    \
                 wire unused_outputs = &{{1'b0, {}}};\n",
                unused.join(", ")
            ));
        }
        let mut modules: Vec<&Block> = Vec::new();
        for i in &self.instances {
            let mut lines = Vec::new();
            for p in &i.block.ports {
                let to = match p.dir {
                    Dir::Input => i.inputs.get(&p.name).cloned().ok_or_else(|| {
                        self.err(format!(
                            "input `{}` of instance `{}` ({}) is not driven",
                            p.name, i.name, i.block.name
                        ))
                    })?,
                    Dir::Output => format!("{}_{}", i.name, p.name),
                };
                lines.push(format!("        .{}({to})", p.name));
            }
            v.push_str(&format!(
                "\n    {top}__{} {}(\n{}\n    );\n",
                i.block.name,
                i.name,
                lines.join(",\n")
            ));
            if !modules.iter().any(|m| m.name == i.block.name) {
                modules.push(&i.block);
            }
        }
        v.push('\n');
        for (port, net) in &self.outputs {
            v.push_str(&format!("    assign {port} = {net};\n"));
        }
        v.push_str(&format!("endmodule // {top}\n"));
        for b in modules {
            v.push('\n');
            v.push_str(&prefixed(b, top));
        }
        Ok(Block {
            name: top.clone(),
            verilog: v,
            latency,
            events_per_clock: 1,
            ports: self.ports,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(name: &str, ports: &[(&str, Dir, u32)]) -> Block {
        Block {
            name: name.into(),
            verilog: format!("module {name}();\nendmodule // {name}\n"),
            latency: 1,
            events_per_clock: 1,
            ports: ports
                .iter()
                .map(|&(n, dir, width)| Port {
                    name: n.into(),
                    dir,
                    width,
                })
                .collect(),
        }
    }

    #[test]
    fn connections_are_checked_and_named_in_errors() {
        let b = block(
            "b",
            &[
                ("clock", Dir::Input, 1),
                ("s_x", Dir::Input, 8),
                ("s_y", Dir::Input, 2),
                ("m_z", Dir::Output, 8),
            ],
        );
        let mut n = Netlist::new("t");
        let x = n.input("x", 8).unwrap();
        let i = n.instance(&b, "u");
        let e = n.drive(i, "s_y", &x).unwrap_err().to_string();
        assert_eq!(
            e,
            "t: input `s_y` of instance `u` is 2 bits, driven by 8 bits (x)"
        );
        let e = n.drive(i, "m_z", &x).unwrap_err().to_string();
        assert!(e.contains("is an Output, used as an Input"), "{e}");
        assert!(n
            .drive(i, "s_w", &x)
            .unwrap_err()
            .to_string()
            .contains("no port `s_w`"));
        let e = n.expose("m_z", &[i]).unwrap_err().to_string();
        assert!(e.contains("is an Output, used as an Input"), "{e}");
        n.drive(i, "s_x", &x).unwrap();
        assert!(n
            .drive(i, "s_x", &x)
            .unwrap_err()
            .to_string()
            .contains("driven twice"));
        let z = n.output_of(i, "m_z").unwrap();
        n.output("z", &z).unwrap();
        let e = n.finish("t", 1).err().unwrap().to_string();
        assert_eq!(e, "t: input `s_y` of instance `u` (b) is not driven");
    }

    #[test]
    fn a_finished_top_wires_every_port_and_reads_unused_outputs() {
        let b = block(
            "b",
            &[
                ("clock", Dir::Input, 1),
                ("s_x", Dir::Input, 8),
                ("m_z", Dir::Output, 8),
                ("m_w", Dir::Output, 1),
            ],
        );
        let mut n = Netlist::new("t");
        let i = n.instance(&b, "u");
        let x = n.expose("s_x", &[i]).unwrap();
        assert_eq!(x.width(), 8);
        let z = n.output_of(i, "m_z").unwrap();
        n.output("z", &z).unwrap();
        let t = n.finish("a test", 3).unwrap();
        assert!(t.verilog.contains("    input wire [7:0] s_x,\n"));
        assert!(t
            .verilog
            .contains("    t__b u(\n        .clock(clock),\n        .s_x(s_x),\n"));
        assert!(t.verilog.contains("wire unused_outputs = &{1'b0, u_m_w};"));
        assert!(t.verilog.contains("assign z = u_m_z;"));
        assert!(t.verilog.contains("module t__b();"));
        let names: Vec<&str> = t.ports.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["clock", "s_x", "z"]);
    }
}
