//! A register with a power-on value, as a plain `initial` block.
//!
//! rust-hdl's `DFFWithInit` stores `d ^ init` in a zero-initialised register and reads it back
//! through `q ^ init`: on an FPGA that is a LUT on the register's output (and one on its input)
//! for every bit whose initial value is 1, inside whatever loop the register closes. Yosys maps
//! an `initial` value straight onto the flip-flop (ECP5: `REGSET`), and Verilator and Icarus run
//! the `initial` block, so this register has no logic around it. Measured: the LUT was the
//! first level of the cwnd unit's window loop (issue 5).

use rust_hdl::prelude::*;

#[derive(Clone, Debug, LogicBlock)]
pub struct InitDff<T: Synth> {
    pub d: Signal<In, T>,
    pub q: Signal<Out, T>,
    pub clock: Signal<In, Clock>,
    init: Constant<T>,
}

impl<T: Synth> InitDff<T> {
    pub fn new(init: T) -> Self {
        InitDff {
            d: Default::default(),
            q: Signal::new_with_default(init),
            clock: Default::default(),
            init: Constant::new(init),
        }
    }
}

impl<T: Synth> Logic for InitDff<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val()
        }
    }

    fn connect(&mut self) {
        self.q.connect();
    }

    fn hdl(&self) -> Verilog {
        // `init` is the module's localparam, which rust-hdl declares from the constant field.
        Verilog::Custom(
            "\
initial begin
   q = init;
end

always @(posedge clock) begin
   q <= d;
end
"
            .into(),
        )
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "init_dff".into(),
            clock: "clock".into(),
            inputs: vec!["d".into()],
            outputs: vec!["q".into()],
        }]
    }
}
