//! Switch load table RTL (MLCC; spec `load-table.md` section 1): one packet per clock,
//! latency 2, free-running (a switch pipeline does not stall: no ready signals).
//!
//! ```text
//!  cycle t (stage 0)          cycle t+1 (stage 1)                              cycle t+2
//!  s_link ──► row RAM ──read──► raw row ─┐
//!  (sync read)                fwd row ───┴► hit? ─► age = ticks - epoch ─► shift out the
//!                             (last write,         `age` slots that ended (all when age >= K)
//!                              same link)          │
//!  s_deltas, s_path_load ─► stage-1 regs ──────────┴► per slot: sat(row + delta),
//!  s_tick ─► tick_reg (48 bits)                        path + row (saturating) ─► m_* regs ─► m_*
//!                                                      │
//!                                     row RAM ◄─write──┘ {new row, epoch = ticks}
//! ```
//!
//! **Storage.** One RAM row per link holds the K loads in *logical* order (slot 0 = the slot
//! that was current when the row was written) and the 48-bit tick count at that write (its
//! epoch). A tick therefore touches no RAM: when a row is read, the `age = ticks - epoch` slots
//! that ended since it was written are shifted out and zeros shifted in, which is exactly the
//! model's "clear slot 0 and rotate" applied `age` times. The table scales with the RAM
//! (`links` rows of `K * load_bits + 48` bits; 64 x 16 x 16 is 64 rows of 304 bits). A row left
//! untouched for 2^48 ticks would alias (9.1 years at the shortest slot, 2^10 ns).
//!
//! **Hazard.** The RAM reads at the edge where the previous packet's row is written, so a packet
//! right behind one on the same link would read the old row. The last write is kept in
//! `fwd_*_reg` and replaces the RAM data on a link match: forwarded, not stalled. Two packets
//! apart, the RAM already holds the write.
//!
//! **Order within a cycle.** A tick on the same cycle as a packet counts before it (the model's
//! DECISION), because stage 1 reads `tick_reg`, which already includes stage 0's tick.

use rust_hdl::prelude::*;

/// Simple dual-port RAM of `depth` rows of `D` bits: synchronous read (read-old on a
/// simultaneous write), synchronous write, every row zero at power-on. Written by hand (not
/// rust-hdl's `RAM`) because the depth is the configured link count, not a power of two.
#[derive(LogicBlock)]
pub struct RowRam<const D: usize> {
    pub clock: Signal<In, Clock>,
    pub read_address: Signal<In, Bits<16>>,
    pub read_data: Signal<Out, Bits<D>>,
    pub write_address: Signal<In, Bits<16>>,
    pub write_data: Signal<In, Bits<D>>,
    pub write_enable: Signal<In, Bit>,
    _depth: usize,
    _sim: Vec<Bits<D>>,
}

impl<const D: usize> RowRam<D> {
    pub fn new(depth: usize) -> Self {
        RowRam {
            clock: Default::default(),
            read_address: Default::default(),
            read_data: Default::default(),
            write_address: Default::default(),
            write_data: Default::default(),
            write_enable: Default::default(),
            _depth: depth,
            _sim: vec![Bits::default(); depth],
        }
    }
}

impl<const D: usize> Logic for RowRam<D> {
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
        Verilog::Custom(format!(
            "\
reg [{msb}:0] mem [0:{last}];
integer i;
initial begin
    for (i = 0; i < {depth}; i = i + 1) mem[i] = {D}'d0;
end

// The address ports are 16 bits wide; rows need only the low ones.
wire unused_address_bits = &{{1'b0, read_address[15:{abits}], write_address[15:{abits}]}};

always @(posedge clock) begin
    read_data <= mem[read_address[{amsb}:0]];
    if (write_enable) mem[write_address[{amsb}:0]] <= write_data;
end
",
            msb = D - 1,
            last = self._depth - 1,
            depth = self._depth,
            amsb = abits - 1,
            abits = abits,
        ))
    }
}

/// Width of a row's epoch (the tick count when it was written).
pub const EPOCH_BITS: usize = 48;

/// See the module documentation. `K` slots of `W`-bit loads; the other parameters are derived
/// (rust-hdl needs them as literals): `W1 = W + 1` (delta), `W2 = W + 2` (sum), `PW = W + 4`
/// (path load), `PW1 = PW + 1`, `KW = K * W`, `KD = K * W1`, `KP = K * PW`, `RW = KW + 48`.
#[derive(LogicBlock)]
pub struct LoadTableRtl<
    const K: usize,
    const W: usize,
    const W1: usize,
    const W2: usize,
    const PW: usize,
    const PW1: usize,
    const KW: usize,
    const KD: usize,
    const KP: usize,
    const RW: usize,
> {
    pub clock: Signal<In, Clock>,

    /// A packet descriptor is presented (one per clock at most; nothing stalls).
    pub s_valid: Signal<In, Bit>,
    /// Egress link: the row. `>= links` is out of range: forwarded unchanged and counted.
    pub s_link: Signal<In, Bits<16>>,
    /// The packet carries a schedule change: add `s_deltas` into the row.
    pub s_update: Signal<In, Bit>,
    /// K signed deltas of `load_bits + 1` bits, slot 0 in the low bits.
    pub s_deltas: Signal<In, Bits<KD>>,
    /// The packet asks for feedback: add the row (after the update) into `s_path_load`.
    pub s_feedback: Signal<In, Bit>,
    /// K path-load elements of `load_bits + 4` bits, slot 0 in the low bits.
    pub s_path_load: Signal<In, Bits<KP>>,
    /// The current slot ends (may come with or without a packet; counts before it).
    pub s_tick: Signal<In, Bit>,

    /// The packet of two cycles ago comes out.
    pub m_valid: Signal<Out, Bit>,
    /// It was out of range and left the table untouched.
    pub m_bad: Signal<Out, Bit>,
    /// Its path-load field (updated when it asked for feedback; unchanged otherwise).
    pub m_path_load: Signal<Out, Bits<KP>>,
    /// Its link's row after it (0 when bad), slot 0 in the low bits.
    pub m_row: Signal<Out, Bits<KW>>,
    /// Bit `k`: slot `k`'s update saturated.
    pub m_sat_mask: Signal<Out, Bits<16>>,
    /// Saturated elements so far.
    pub status_sat_count: Signal<Out, Bits<32>>,
    /// Bad packets so far.
    pub status_bad_count: Signal<Out, Bits<32>>,
    /// Ticks so far (low 32 bits).
    pub status_tick_count: Signal<Out, Bits<32>>,

    cfg_links: Constant<Bits<16>>,
    cfg_k: Constant<Bits<EPOCH_BITS>>,
    cfg_one48: Constant<Bits<EPOCH_BITS>>,
    cfg_one32: Constant<Bits<32>>,
    cfg_epoch_bits: Constant<Bits<16>>,
    /// Shift amounts: one, two, four and eight slots of the row.
    cfg_sh1: Constant<Bits<16>>,
    cfg_sh2: Constant<Bits<16>>,
    cfg_sh4: Constant<Bits<16>>,
    cfg_sh8: Constant<Bits<16>>,
    cfg_w: Constant<Bits<16>>,
    cfg_w1: Constant<Bits<16>>,
    cfg_pw: Constant<Bits<16>>,
    /// Where the last element of a row / path field starts.
    cfg_top_row: Constant<Bits<16>>,
    cfg_top_path: Constant<Bits<16>>,
    /// Bit indices: the delta's sign (W), the sum's sign (W + 1), the path sum's carry (PW).
    cfg_idx_w: Constant<Bits<16>>,
    cfg_idx_w1: Constant<Bits<16>>,
    cfg_idx_pw: Constant<Bits<16>>,
    /// Ones above a delta's W + 1 bits in the W + 2-bit sum (the sign extension).
    cfg_sext: Constant<Bits<W2>>,
    cfg_load_max: Constant<Bits<W>>,
    cfg_path_max: Constant<Bits<PW>>,
    /// Fault injection for the co-sim self-test: 1 disables forwarding. 0 in products.
    cfg_fault_no_fwd: Constant<Bit>,

    ram: RowRam<RW>,

    v1_reg: DFF<Bit>,
    bad1_reg: DFF<Bit>,
    link1_reg: DFF<Bits<16>>,
    upd1_reg: DFF<Bit>,
    fb1_reg: DFF<Bit>,
    deltas1_reg: DFF<Bits<KD>>,
    path1_reg: DFF<Bits<KP>>,
    tick_reg: DFF<Bits<EPOCH_BITS>>,
    fwd_valid_reg: DFF<Bit>,
    fwd_link_reg: DFF<Bits<16>>,
    fwd_row_reg: DFF<Bits<RW>>,
    sat_count_reg: DFF<Bits<32>>,
    bad_count_reg: DFF<Bits<32>>,

    m_valid_reg: DFF<Bit>,
    m_bad_reg: DFF<Bit>,
    m_path_reg: DFF<Bits<KP>>,
    m_row_reg: DFF<Bits<KW>>,
    m_sat_reg: DFF<Bits<16>>,

    bad0: Signal<Local, Bit>,
    hit: Signal<Local, Bit>,
    raw: Signal<Local, Bits<RW>>,
    epoch: Signal<Local, Bits<EPOCH_BITS>>,
    age: Signal<Local, Bits<EPOCH_BITS>>,
    age4: Signal<Local, Bits<4>>,
    sh0: Signal<Local, Bits<KW>>,
    sh1: Signal<Local, Bits<KW>>,
    sh2: Signal<Local, Bits<KW>>,
    sh3: Signal<Local, Bits<KW>>,
    cur: Signal<Local, Bits<KW>>,
    cur_w: Signal<Local, Bits<KW>>,
    dl_w: Signal<Local, Bits<KD>>,
    pl_w: Signal<Local, Bits<KP>>,
    e_cur: Signal<Local, Bits<W>>,
    e_dl: Signal<Local, Bits<W1>>,
    e_pl: Signal<Local, Bits<PW>>,
    e_sum: Signal<Local, Bits<W2>>,
    e_neg: Signal<Local, Bit>,
    e_over: Signal<Local, Bit>,
    e_new: Signal<Local, Bits<W>>,
    e_psum: Signal<Local, Bits<PW1>>,
    e_path: Signal<Local, Bits<PW>>,
    new_row: Signal<Local, Bits<KW>>,
    new_path: Signal<Local, Bits<KP>>,
    sat_mask: Signal<Local, Bits<16>>,
    sat_n: Signal<Local, Bits<32>>,
    write: Signal<Local, Bit>,
}

impl<
        const K: usize,
        const W: usize,
        const W1: usize,
        const W2: usize,
        const PW: usize,
        const PW1: usize,
        const KW: usize,
        const KD: usize,
        const KP: usize,
        const RW: usize,
    > LoadTableRtl<K, W, W1, W2, PW, PW1, KW, KD, KP, RW>
{
    /// `links` rows; `fault_no_fwd` only for the co-sim self-test.
    pub fn new(links: u32, fault_no_fwd: bool) -> Self {
        assert!(W1 == W + 1 && W2 == W + 2 && PW == W + 4 && PW1 == PW + 1);
        assert!(KW == K * W && KD == K * W1 && KP == K * PW && RW == KW + EPOCH_BITS);
        assert!(K <= 16 && W <= 32);
        let c16 = |v: usize| Constant::new(bits::<16>(v as u64));
        let ones = |n: usize| (1u64 << n) - 1;
        LoadTableRtl {
            clock: Default::default(),
            s_valid: Default::default(),
            s_link: Default::default(),
            s_update: Default::default(),
            s_deltas: Default::default(),
            s_feedback: Default::default(),
            s_path_load: Default::default(),
            s_tick: Default::default(),
            m_valid: Default::default(),
            m_bad: Default::default(),
            m_path_load: Default::default(),
            m_row: Default::default(),
            m_sat_mask: Default::default(),
            status_sat_count: Default::default(),
            status_bad_count: Default::default(),
            status_tick_count: Default::default(),
            cfg_links: c16(links as usize),
            cfg_k: Constant::new(bits(K as u64)),
            cfg_one48: Constant::new(bits(1)),
            cfg_one32: Constant::new(bits(1)),
            cfg_epoch_bits: c16(EPOCH_BITS),
            cfg_sh1: c16(W),
            cfg_sh2: c16(2 * W),
            cfg_sh4: c16(4 * W),
            cfg_sh8: c16(8 * W),
            cfg_w: c16(W),
            cfg_w1: c16(W1),
            cfg_pw: c16(PW),
            cfg_top_row: c16(KW - W),
            cfg_top_path: c16(KP - PW),
            cfg_idx_w: c16(W),
            cfg_idx_w1: c16(W1),
            cfg_idx_pw: c16(PW),
            cfg_sext: Constant::new(bits(1u64 << W1)),
            cfg_load_max: Constant::new(bits(ones(W))),
            cfg_path_max: Constant::new(bits(ones(PW))),
            cfg_fault_no_fwd: Constant::new(fault_no_fwd),
            ram: RowRam::new(links as usize),
            v1_reg: Default::default(),
            bad1_reg: Default::default(),
            link1_reg: Default::default(),
            upd1_reg: Default::default(),
            fb1_reg: Default::default(),
            deltas1_reg: Default::default(),
            path1_reg: Default::default(),
            tick_reg: Default::default(),
            fwd_valid_reg: Default::default(),
            fwd_link_reg: Default::default(),
            fwd_row_reg: Default::default(),
            sat_count_reg: Default::default(),
            bad_count_reg: Default::default(),
            m_valid_reg: Default::default(),
            m_bad_reg: Default::default(),
            m_path_reg: Default::default(),
            m_row_reg: Default::default(),
            m_sat_reg: Default::default(),
            bad0: Default::default(),
            hit: Default::default(),
            raw: Default::default(),
            epoch: Default::default(),
            age: Default::default(),
            age4: Default::default(),
            sh0: Default::default(),
            sh1: Default::default(),
            sh2: Default::default(),
            sh3: Default::default(),
            cur: Default::default(),
            cur_w: Default::default(),
            dl_w: Default::default(),
            pl_w: Default::default(),
            e_cur: Default::default(),
            e_dl: Default::default(),
            e_pl: Default::default(),
            e_sum: Default::default(),
            e_neg: Default::default(),
            e_over: Default::default(),
            e_new: Default::default(),
            e_psum: Default::default(),
            e_path: Default::default(),
            new_row: Default::default(),
            new_path: Default::default(),
            sat_mask: Default::default(),
            sat_n: Default::default(),
            write: Default::default(),
        }
    }
}

impl<
        const K: usize,
        const W: usize,
        const W1: usize,
        const W2: usize,
        const PW: usize,
        const PW1: usize,
        const KW: usize,
        const KD: usize,
        const KP: usize,
        const RW: usize,
    > Logic for LoadTableRtl<K, W, W1, W2, PW, PW1, KW, KD, KP, RW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            v1_reg,
            bad1_reg,
            link1_reg,
            upd1_reg,
            fb1_reg,
            deltas1_reg,
            path1_reg,
            tick_reg,
            fwd_valid_reg,
            fwd_link_reg,
            fwd_row_reg,
            sat_count_reg,
            bad_count_reg,
            m_valid_reg,
            m_bad_reg,
            m_path_reg,
            m_row_reg,
            m_sat_reg
        );
        self.ram.clock.next = self.clock.val();
        self.m_valid.next = self.m_valid_reg.q.val();
        self.m_bad.next = self.m_bad_reg.q.val();
        self.m_path_load.next = self.m_path_reg.q.val();
        self.m_row.next = self.m_row_reg.q.val();
        self.m_sat_mask.next = self.m_sat_reg.q.val();
        self.status_sat_count.next = self.sat_count_reg.q.val();
        self.status_bad_count.next = self.bad_count_reg.q.val();
        self.status_tick_count.next = bit_cast::<32, EPOCH_BITS>(self.tick_reg.q.val());

        // ---- Stage 0: range check, RAM read, tick count.
        self.bad0.next = self.s_link.val() >= self.cfg_links.val();
        self.ram.read_address.next = self.s_link.val();
        if self.bad0.val() {
            self.ram.read_address.next = 0.into();
        }
        self.v1_reg.d.next = self.s_valid.val();
        self.bad1_reg.d.next = self.s_valid.val() & self.bad0.val();
        self.link1_reg.d.next = self.s_link.val();
        self.upd1_reg.d.next = self.s_update.val();
        self.fb1_reg.d.next = self.s_feedback.val();
        self.deltas1_reg.d.next = self.s_deltas.val();
        self.path1_reg.d.next = self.s_path_load.val();
        if self.s_tick.val() {
            self.tick_reg.d.next = self.tick_reg.q.val() + self.cfg_one48.val();
        }

        // ---- Stage 1: the row (forwarded on a hazard), aged to the current slot.
        self.hit.next = self.fwd_valid_reg.q.val()
            & (self.fwd_link_reg.q.val() == self.link1_reg.q.val())
            & !self.cfg_fault_no_fwd.val();
        self.raw.next = self.ram.read_data.val();
        if self.hit.val() {
            self.raw.next = self.fwd_row_reg.q.val();
        }
        self.epoch.next = bit_cast::<EPOCH_BITS, RW>(self.raw.val());
        self.sh0.next = bit_cast::<KW, RW>(self.raw.val() >> self.cfg_epoch_bits.val());
        self.age.next = self.tick_reg.q.val() - self.epoch.val();
        self.age4.next = bit_cast::<4, EPOCH_BITS>(self.age.val());
        self.sh1.next = self.sh0.val();
        if self.age4.val().get_bit(0) {
            self.sh1.next = self.sh0.val() >> self.cfg_sh1.val();
        }
        self.sh2.next = self.sh1.val();
        if self.age4.val().get_bit(1) {
            self.sh2.next = self.sh1.val() >> self.cfg_sh2.val();
        }
        self.sh3.next = self.sh2.val();
        if self.age4.val().get_bit(2) {
            self.sh3.next = self.sh2.val() >> self.cfg_sh4.val();
        }
        self.cur.next = self.sh3.val();
        if self.age4.val().get_bit(3) {
            self.cur.next = self.sh3.val() >> self.cfg_sh8.val();
        }
        if self.age.val() >= self.cfg_k.val() {
            self.cur.next = 0.into();
        }

        // ---- Per slot: saturating update, then saturating feedback. The working vectors
        // shift one element per slot; the results shift in from the top.
        self.cur_w.next = self.cur.val();
        self.dl_w.next = self.deltas1_reg.q.val();
        self.pl_w.next = self.path1_reg.q.val();
        self.new_row.next = 0.into();
        self.new_path.next = 0.into();
        self.sat_mask.next = 0.into();
        self.sat_n.next = 0.into();
        for k in 0..K {
            self.e_cur.next = self.cur_w.val().get_bits::<W>(0);
            self.e_dl.next = self.dl_w.val().get_bits::<W1>(0);
            self.e_pl.next = self.pl_w.val().get_bits::<PW>(0);
            self.e_sum.next =
                bit_cast::<W2, W>(self.e_cur.val()) + bit_cast::<W2, W1>(self.e_dl.val());
            if self.e_dl.val().get_bit(self.cfg_idx_w.val().index()) {
                self.e_sum.next = bit_cast::<W2, W>(self.e_cur.val())
                    + (bit_cast::<W2, W1>(self.e_dl.val()) | self.cfg_sext.val());
            }
            self.e_neg.next = self.e_sum.val().get_bit(self.cfg_idx_w1.val().index());
            self.e_over.next =
                !self.e_neg.val() & self.e_sum.val().get_bit(self.cfg_idx_w.val().index());
            self.e_new.next = self.e_cur.val();
            if self.upd1_reg.q.val() {
                self.e_new.next = bit_cast::<W, W2>(self.e_sum.val());
                if self.e_neg.val() {
                    self.e_new.next = 0.into();
                }
                if self.e_over.val() {
                    self.e_new.next = self.cfg_load_max.val();
                }
                if self.e_neg.val() | self.e_over.val() {
                    self.sat_mask.next = self.sat_mask.val().replace_bit(k, true);
                    self.sat_n.next = self.sat_n.val() + self.cfg_one32.val();
                }
            }
            self.e_psum.next =
                bit_cast::<PW1, PW>(self.e_pl.val()) + bit_cast::<PW1, W>(self.e_new.val());
            self.e_path.next = self.e_pl.val();
            if self.fb1_reg.q.val() {
                self.e_path.next = bit_cast::<PW, PW1>(self.e_psum.val());
                if self.e_psum.val().get_bit(self.cfg_idx_pw.val().index()) {
                    self.e_path.next = self.cfg_path_max.val();
                }
            }
            self.new_row.next = (self.new_row.val() >> self.cfg_w.val())
                | (bit_cast::<KW, W>(self.e_new.val()) << self.cfg_top_row.val());
            self.new_path.next = (self.new_path.val() >> self.cfg_pw.val())
                | (bit_cast::<KP, PW>(self.e_path.val()) << self.cfg_top_path.val());
            self.cur_w.next = self.cur_w.val() >> self.cfg_w.val();
            self.dl_w.next = self.dl_w.val() >> self.cfg_w1.val();
            self.pl_w.next = self.pl_w.val() >> self.cfg_pw.val();
        }

        // ---- Write back (updates only) and keep the write for forwarding.
        self.write.next = self.v1_reg.q.val() & !self.bad1_reg.q.val() & self.upd1_reg.q.val();
        self.ram.write_address.next = self.link1_reg.q.val();
        self.ram.write_data.next = (bit_cast::<RW, KW>(self.new_row.val())
            << self.cfg_epoch_bits.val())
            | bit_cast::<RW, EPOCH_BITS>(self.tick_reg.q.val());
        self.ram.write_enable.next = self.write.val();
        self.fwd_valid_reg.d.next = self.write.val();
        self.fwd_link_reg.d.next = self.link1_reg.q.val();
        self.fwd_row_reg.d.next = self.ram.write_data.val();

        // ---- Output stage: every field defined on every cycle (0 without a packet).
        self.m_valid_reg.d.next = self.v1_reg.q.val();
        self.m_bad_reg.d.next = self.bad1_reg.q.val();
        self.m_path_reg.d.next = 0.into();
        self.m_row_reg.d.next = 0.into();
        self.m_sat_reg.d.next = 0.into();
        if self.v1_reg.q.val() {
            if self.bad1_reg.q.val() {
                self.m_path_reg.d.next = self.path1_reg.q.val();
                self.bad_count_reg.d.next = self.bad_count_reg.q.val() + self.cfg_one32.val();
            } else {
                self.m_path_reg.d.next = self.new_path.val();
                self.m_row_reg.d.next = self.new_row.val();
                self.m_sat_reg.d.next = self.sat_mask.val();
                self.sat_count_reg.d.next = self.sat_count_reg.q.val() + self.sat_n.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Options};
    use strack_config::Config;

    fn small() -> Config {
        let mut c = Config::default();
        c.load_table.links = 4;
        c.load_table.slots = 4;
        c.load_table.load_bits = 8;
        c
    }

    #[test]
    fn small_config_verilog_snapshot() {
        let b = generate("load_table", &small(), &Options::default()).unwrap();
        insta::assert_snapshot!("load_table_4x4x8", b.verilog);
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut c = Config::default();
        c.load_table.slots = 1;
        let e = generate("load_table", &c, &Options::default()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("load_table: "), "{msg}");
        assert!(msg.contains("`load_table.slots` = 1"), "{msg}");
    }

    /// Gate: the default design (64 x 10 x 16) lints, compiles in Icarus and passes the Yosys
    /// structural check; the small one goes through a full Yosys `synth`.
    #[test]
    fn gate_lint_icarus_yosys() {
        let b = generate("load_table", &Config::default(), &Options::default()).unwrap();
        crate::gate::check(&b, "load_table_default", false);
        let b = generate("load_table", &small(), &Options::default()).unwrap();
        crate::gate::check(&b, "load_table_small", true);
    }
}
