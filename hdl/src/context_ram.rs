//! The context RAM of the read-compute-write pipelines: one record per id (a load-table link,
//! a NIC connection), read at one stage and written back at a later one.
//!
//! Each user keeps the records of the events still between its read and its write in
//! forwarding registers and takes the newest of them over the RAM's, so a read of a record
//! written on the same edge is never used (`docs/blocks/load_table.md`, "Storage and the two
//! hazards").

use rust_hdl::prelude::*;

/// Simple dual-port RAM of `depth` records of `D` bits: synchronous read (on a simultaneous
/// write to the same record: old data in simulation, either in hardware, `no_rw_check`),
/// synchronous write, every record zero at power-on. Written by hand (not rust-hdl's `RAM`)
/// because the depth is a configured count (links, connections), not always a power of two.
#[derive(LogicBlock)]
pub struct ContextRam<const D: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<16>>,
    pub read_data: Signal<Out, Bits<D>>,
    pub write_address: Signal<In, Bits<16>>,
    pub write_data: Signal<In, Bits<D>>,
    pub write_enable: Signal<In, Bit>,
    _depth: usize,
    _outreg: bool,
    _sim: Vec<Bits<D>>,
}

impl<const D: usize> ContextRam<D> {
    pub fn new(depth: usize) -> Self {
        ContextRam {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _depth: depth,
            _outreg: false,
            _sim: vec![Bits::default(); depth],
        }
    }

    /// The user registers the read data as it comes out (with no enable, set or reset): name
    /// the memory `mem_outreg`, which tells `make synth` to move that register into the ECP5
    /// EBR's own output register (`src/outreg.rs`). Worth it where logic follows the register
    /// closely (the context shell's S2: a multiplexer); not where it feeds deep logic (the
    /// load table's age arithmetic, 126.52 -> 117.90 MHz when tried), since the EBR's fixed
    /// place then sets the route to that logic.
    pub fn with_output_register_in_ebr(mut self) -> Self {
        self._outreg = true;
        self
    }
}

impl<const D: usize> Logic for ContextRam<D> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let r = self.read_address.val().index();
            self.read_data.next = self._sim.get(r).copied().unwrap_or_default();
            let w = self.write_address.val().index();
            if self.write_enable.val() && w < self._depth {
                self._sim[w] = self.write_data.val();
            }
        }
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        let abits = usize::BITS - (self._depth.max(2) - 1).leading_zeros();
        // The address ports are 16 bits wide; records need only the low ones (all 16 at 65536).
        let unused = if abits < 16 {
            format!(
                "wire unused_address_bits = &{{1'b0, read_address[15:{abits}], \
                 write_address[15:{abits}]}};\n"
            )
        } else {
            String::new()
        };
        let mem = if self._outreg { "mem_outreg" } else { "mem" };
        Verilog::Custom(format!(
            "\
// no_rw_check: a read of a record written on the same edge may return old or new data. Its
// users never use such a read (the newer record is forwarded over it), so Yosys need not
// build read-old bypass logic after the block RAM, which sat on the critical path.
(* no_rw_check *)
reg [{msb}:0] {mem} [0:{last}];
integer i;
initial begin
    for (i = 0; i < {depth}; i = i + 1) {mem}[i] = {D}'d0;
end

{unused}
always @(posedge clock) begin
    read_data <= {mem}[read_address[{amsb}:0]];
    if (write_enable) {mem}[write_address[{amsb}:0]] <= write_data;
end
",
            msb = D - 1,
            last = self._depth - 1,
            depth = self._depth,
            amsb = abits - 1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RAM passes the lint, Icarus and Yosys gate at a link count and a connection count.
    #[test]
    fn the_ram_passes_the_gate() {
        for depth in [64, 1024] {
            let raw = crate::emit(ContextRam::<8>::new(depth));
            let b = crate::finish("context_ram", &raw, 1);
            crate::gate::check(&b, &format!("context_ram_{depth}"), false);
        }
    }

    /// At the largest depth (65536) every address bit is used and none is left over to waive.
    /// (Lint only: Yosys unrolls the 65536-row power-on loop for minutes.)
    #[test]
    fn the_largest_ram_lints() {
        let raw = crate::emit(ContextRam::<8>::new(65_536));
        let b = crate::finish("context_ram", &raw, 1);
        assert!(!b.verilog.contains("unused_address_bits"));
        crate::gate::lint(&b, "context_ram_65536");
    }
}
