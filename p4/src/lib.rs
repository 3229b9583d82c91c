//! P4_16 of the MLCC switch load table (docs/spec/load-table.md, section 1;
//! `docs/blocks/load_table.md`), generated from the one `Config`, for Tofino (TNA) and BMv2
//! (v1model); and the STF packet tests that pin it to the golden model ([`stf`]).
//! `p4/README.md` describes the generated files.
//!
//! ```text
//!  parse: Ethernet ─► IPv4 (ihl 5) ─► UDP to udp_port ─► shim (strack_config::wire)
//!
//!  ingress:   malformed shim? ──yes──► count lt_bad, forward untouched
//!               │ no, and update or feedback
//!               ▼
//!  ts (48-bit ns) ─► n = slot mod R, epoch base        (bit slices of the timestamp)
//!               ▼
//!  lt_select[n]: register r <- delta (r - n) mod R, its epoch  (const table, R entries)
//!               ▼
//!  lt_slot_0 .. lt_slot_{R-1}: one read-modify-write each: {epoch, load}; a stale epoch
//!               │               reads as 0 (lazy clear); saturating add of the delta
//!               ▼
//!  lt_gather[n]: element k <- register (n + k) mod R    (const table, R entries)
//!               ▼
//!  saturations counted per element; feedback: path_load[k] += load (saturating), UDP csum 0
//! ```
//!
//! The golden model of exactly this is `golden_model::load_table::{lazy, frame}`.

use std::fmt;
use std::fmt::Write as _;
use strack_config::wire::LoadShim;
use strack_config::Config;

pub mod stf;

/// Which P4 architecture to generate for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Tofino Native Architecture (`tna.p4`): `Register` / `RegisterAction`.
    Tna,
    /// BMv2 `simple_switch` (`v1model.p4`): `register` read and write.
    V1model,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Tna => "tna",
            Target::V1model => "v1model",
        }
    }
    /// The generated file's name.
    pub fn file_name(self) -> String {
        format!("load_table_{}.p4", self.name())
    }
}

/// Options beyond the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// MAU stages the TNA program may use (Tofino 1: 12; Tofino 2: 20). A config whose
    /// estimate ([`tna_stage_estimate`]) is larger is refused.
    pub tna_stages: u32,
    /// Written into the file's header: where the config came from.
    pub config_name: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tna_stages: TOFINO1_STAGES,
            config_name: "built-in defaults".into(),
        }
    }
}

/// MAU stages of a Tofino 1 pipe.
pub const TOFINO1_STAGES: u32 = 12;
/// Stateful ALUs (register actions) per MAU stage on Tofino 1.
pub const TOFINO1_SALUS_PER_STAGE: u32 = 4;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum P4Error {
    #[error("p4 ({target}): invalid configuration: {0}", target = .1)]
    Config(String, &'static str),
    #[error(
        "p4 (tna): load_table.slots = {slots} needs {ring} slot registers, {stages} MAU stages \
         by the estimate ({fixed} + {ring} registers at {salus} per stage); --tna-stages allows \
         {limit}. Use fewer slots (8 slots need 8 registers, {eight} stages) or a target with \
         more stages",
        fixed = TNA_FIXED_STAGES,
        salus = TOFINO1_SALUS_PER_STAGE,
        eight = TNA_FIXED_STAGES + 8 / TOFINO1_SALUS_PER_STAGE
    )]
    TnaStages {
        slots: u32,
        ring: u32,
        stages: u32,
        limit: u32,
    },
}

/// Stages of the TNA program outside the slot registers, by its dependency chain: the malformed
/// check and the timestamp slices; `lt_select`; the deltas' magnitudes; then after the
/// registers: the sums and compares, the clamps, `lt_gather`, the path-load sums, their clamps.
pub const TNA_FIXED_STAGES: u32 = 8;

/// MAU stages the TNA program needs by the estimate: [`TNA_FIXED_STAGES`] plus the slot
/// registers at [`TOFINO1_SALUS_PER_STAGE`] per stage. An estimate: bf-p4c may pack tighter,
/// and PHV pressure may spread it further (this project cannot run bf-p4c; `p4/README.md`).
pub fn tna_stage_estimate(cfg: &Config) -> u32 {
    TNA_FIXED_STAGES + cfg.lt_ring_slots().div_ceil(TOFINO1_SALUS_PER_STAGE)
}

/// The P4 program for `target`.
pub fn generate(cfg: &Config, target: Target, opts: &Options) -> Result<String, P4Error> {
    cfg.validate()
        .map_err(|e| P4Error::Config(e.to_string(), target.name()))?;
    let g = Gen::new(cfg);
    if target == Target::Tna {
        let stages = tna_stage_estimate(cfg);
        if stages > opts.tna_stages {
            return Err(P4Error::TnaStages {
                slots: g.k,
                ring: g.r,
                stages,
                limit: opts.tna_stages,
            });
        }
    }
    Ok(match target {
        Target::V1model => g.v1model(opts),
        Target::Tna => g.tna(opts),
    })
}

/// The numbers every part of the program is written from.
struct Gen {
    shim: LoadShim,
    /// K, R, log2 R.
    k: u32,
    r: u32,
    rb: u32,
    /// Load, delta and path-load widths.
    l: u32,
    ld: u32,
    lp: u32,
    /// Epoch width, slot length's log2.
    e: u32,
    s: u32,
    links: u32,
    cfg_text: String,
}

impl Gen {
    fn new(cfg: &Config) -> Self {
        let t = &cfg.load_table;
        let shim = LoadShim::new(cfg);
        Gen {
            shim,
            k: shim.slots(),
            r: cfg.lt_ring_slots(),
            rb: cfg.lt_ring_slots().trailing_zeros(),
            l: shim.load_bits(),
            ld: shim.delta_bits(),
            lp: shim.path_load_bits(),
            e: cfg.lt_epoch_bits(),
            s: t.slot_log2_ns,
            links: shim.links(),
            cfg_text: format!(
                "links = {}, slots = {}, load_bits = {}, slot_log2_ns = {}, udp_port = {}",
                t.links, t.slots, t.load_bits, t.slot_log2_ns, t.udp_port
            ),
        }
    }

    /// The timestamp's bits that are the slot number mod R (the register of element 0).
    fn reg_slice(&self) -> String {
        format!("ts[{}:{}]", self.s + self.rb - 1, self.s)
    }

    /// The timestamp's bits that are the epoch base (the slot number / R, cut to E bits).
    fn epoch_slice(&self) -> String {
        format!("ts[{}:{}]", self.s + self.rb + self.e - 1, self.s + self.rb)
    }

    /// Element `k` is in register `(n + k) mod R`; register `r` holds element `(r - n) mod R`.
    fn element_of(&self, r: u32, n: u32) -> Option<u32> {
        let k = (r + self.r - n) % self.r;
        (k < self.k).then_some(k)
    }

    fn preamble(&self, target: Target, opts: &Options) -> String {
        let arch = target.name();
        let mut s = format!(
            "\
// load_table_{arch}.p4 -- the MLCC switch load table for {what}.
// Generated by strackgen (p4/src/lib.rs) from {cfg_name}:
//   {cfg}
// Do not edit: change the config and regenerate (`strackgen p4`). p4/README.md explains it.
//
// Semantics: golden_model::load_table::{{lazy, frame}} (docs/wire-format.md). K = {k} slots
// per link in R = {r} slot registers (lt_slot_0 .. lt_slot_{rl}), cells {{epoch: {e} bits,
// load: {l} bits}}; slot number = ts[47:{s}], register = {reg}, epoch base =
// {epoch}. A stale epoch reads as 0: slots clear lazily, no tick needed.
//
// Time: the ingress timestamp in ns. Compile with -DLT_TEST_CLOCK to take it from the Ethernet
// source address instead (the STF tests in p4/tests do: they decide each packet's slot).
//
// Forwarding is not this block's: the program sends every packet back out of its ingress port.
// Put the ingress control's body into your own program's ingress.

#include <core.p4>
#include <{arch}.p4>

",
            what = match target {
                Target::Tna => "Tofino (TNA)",
                Target::V1model => "BMv2 simple_switch (v1model)",
            },
            cfg_name = opts.config_name,
            cfg = self.cfg_text,
            k = self.k,
            r = self.r,
            rl = self.r - 1,
            e = self.e,
            l = self.l,
            s = self.s,
            reg = self.reg_slice(),
            epoch = self.epoch_slice(),
        );
        let _ = writeln!(s, "const bit<16> LT_UDP_PORT = {};", self.shim.udp_port());
        let _ = writeln!(s, "const bit<16> LT_LINKS = {};", self.links);
        let _ = writeln!(s, "const bit<8> LT_SLOTS = {};", self.k);
        let _ = writeln!(
            s,
            "const bit<4> LT_VERSION = {};",
            strack_config::wire::SHIM_VERSION
        );
        let _ = writeln!(
            s,
            "const bit<{}> LT_LOAD_MAX = {};",
            self.l,
            (1u64 << self.l) - 1
        );
        let _ = writeln!(
            s,
            "const bit<{}> LT_PATH_LOAD_MAX = {};",
            self.lp,
            (1u64 << self.lp) - 1
        );
        s.push_str(&format!(
            "\n\
typedef bit<{l}> lt_load_t;
typedef bit<{e}> lt_epoch_t;
typedef bit<{rb}> lt_reg_t;

header ethernet_h {{
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}}

header ipv4_h {{
    bit<4> version;
    bit<4> ihl;
    bit<8> diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3> flags;
    bit<13> frag_offset;
    bit<8> ttl;
    bit<8> protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}}

header udp_h {{
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> length;
    bit<16> checksum;
}}

{shim}
struct headers_t {{
    ethernet_h ethernet;
    ipv4_h ipv4;
    udp_h udp;
    lt_shim_h lt;
}}

",
            l = self.l,
            e = self.e,
            rb = self.rb,
            shim = self.shim.p4_header("lt_shim_h"),
        ));
        s
    }

    /// The per-packet metadata: per register its delta, epoch and result; per element its
    /// result after `lt_gather`. `extra` adds target-specific fields.
    fn metadata(&self, extra: &dyn Fn(u32) -> String) -> String {
        let mut s = String::from(
            "struct lt_meta_t {\n    lt_reg_t n;           // slot number mod R\n    \
             lt_epoch_t epoch_base;  // slot number / R\n",
        );
        for r in 0..self.r {
            let _ = writeln!(
                s,
                "    bit<{ld}> d_{r};\n    lt_epoch_t e_{r};\n    lt_load_t new_{r};\n    \
                 bit<1> sat_{r};{x}",
                ld = self.ld,
                x = extra(r)
            );
        }
        for k in 0..self.k {
            let _ = writeln!(s, "    lt_load_t load_{k};\n    bit<1> sat_k{k};");
        }
        s.push_str("}\n\nstruct metadata_t {\n    lt_meta_t lt;\n}\n\n");
        s
    }

    /// Parser states after the target's own start: Ethernet, IPv4 without options, UDP, shim.
    fn parser_states(&self) -> String {
        "    \
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.protocol) {
            (4, 5, 17): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        pkt.extract(hdr.udp);
        transition select(hdr.udp.dst_port) {
            LT_UDP_PORT: parse_lt;
            default: accept;
        }
    }

    // A shim cut short leaves hdr.lt invalid: the ingress counts it as malformed.
    state parse_lt {
        pkt.extract(hdr.lt);
        transition accept;
    }
"
        .to_string()
    }

    /// `lt_select` and `lt_gather`: const tables keyed on `n` (the slot number mod R).
    /// `en`: also flag the registers in the window (`en_r`; the v1model program tests it, the
    /// TNA one runs its registers from their own const tables).
    fn select_gather_tables(&self, en: bool) -> String {
        let mut s = String::new();
        s.push_str(
            "    // lt_select: register r takes the delta of element (r - n) mod R and that slot's\n    \
             // epoch (one more than the base when the slot is in the next turn of the ring).\n",
        );
        for n in 0..self.r {
            let _ = writeln!(s, "    action lt_select_{n}() {{");
            for r in 0..self.r {
                if let Some(k) = self.element_of(r, n) {
                    let _ = writeln!(s, "        meta.lt.d_{r} = hdr.lt.delta_{k};");
                    let e = if r < n {
                        "meta.lt.epoch_base + 1"
                    } else {
                        "meta.lt.epoch_base"
                    };
                    let _ = writeln!(s, "        meta.lt.e_{r} = {e};");
                    if en {
                        let _ = writeln!(s, "        meta.lt.en_{r} = 1;");
                    }
                }
            }
            s.push_str("    }\n");
        }
        s.push_str(&self.const_table("lt_select", "lt_select"));
        s.push_str("\n    // lt_gather: element k comes from register (n + k) mod R.\n");
        for n in 0..self.r {
            let _ = writeln!(s, "    action lt_gather_{n}() {{");
            for k in 0..self.k {
                let r = (n + k) % self.r;
                let _ = writeln!(
                    s,
                    "        meta.lt.load_{k} = meta.lt.new_{r};\n        \
                     meta.lt.sat_k{k} = meta.lt.sat_{r};"
                );
            }
            s.push_str("    }\n");
        }
        s.push_str(&self.const_table("lt_gather", "lt_gather"));
        s
    }

    fn const_table(&self, name: &str, action: &str) -> String {
        let mut s = format!(
            "    table {name} {{\n        key = {{ meta.lt.n : exact; }}\n        actions = {{\n"
        );
        for n in 0..self.r {
            let _ = writeln!(s, "            {action}_{n};");
        }
        s.push_str("            @defaultonly NoAction;\n        }\n        const entries = {\n");
        for n in 0..self.r {
            let _ = writeln!(s, "            {n} : {action}_{n}();");
        }
        s.push_str("        }\n        const default_action = NoAction();\n    }\n");
        s
    }

    /// `lt_add`: a load plus a signed delta, saturating at 0 and `LT_LOAD_MAX`; the delta
    /// counts only when the packet updates.
    fn add_action(&self) -> String {
        format!(
            "    \
    // new = old + d (d two's complement), saturating at 0 and LT_LOAD_MAX; sat says it did.
    action lt_add(in lt_load_t old, in bit<{ld}> d, in bit<1> update,
                  out lt_load_t new_load, out bit<1> sat) {{
        bit<1> neg = d[{dm}:{dm}] & update;
        bit<{ld}> mag = (update == 0) ? {zd} : ((neg == 1) ? (~d + 1) : d);
        bit<{ld}> wide_old = (bit<{ld}>)old;
        bit<{ld}> up = wide_old + mag;
        sat = (neg == 1) ? ((wide_old < mag) ? 1w1 : 1w0)
                         : ((up > (bit<{ld}>)LT_LOAD_MAX) ? 1w1 : 1w0);
        new_load = (neg == 1) ? ((sat == 1) ? {zl} : old - mag[{lm}:0])
                              : ((sat == 1) ? LT_LOAD_MAX : up[{lm}:0]);
    }}
",
            ld = self.ld,
            dm = self.ld - 1,
            lm = self.l - 1,
            zd = format_args!("{}w0", self.ld),
            zl = format_args!("{}w0", self.l),
        )
    }

    /// The ingress's `apply` up to the slot registers: `forward` (the target's send-back), the
    /// malformed test and count, the slot number's slices, `lt_select`.
    fn apply_head(&self, forward: &str) -> String {
        format!(
            "
    apply {{
        {forward}
        if (hdr.udp.isValid() && hdr.udp.dst_port == LT_UDP_PORT) {{
            if ({bad}) {{
                lt_bad.count(0);
            }} else if (hdr.lt.update == 1 || hdr.lt.feedback == 1) {{
                bit<48> ts = LT_CLOCK;
                meta.lt.n = {reg};
                meta.lt.epoch_base = {epoch};
                lt_select.apply();
",
            bad = self.malformed_cond(),
            reg = self.reg_slice(),
            epoch = self.epoch_slice(),
        )
    }

    /// The malformed-shim test, in the ingress's terms.
    fn malformed_cond(&self) -> &'static str {
        "!hdr.lt.isValid() || hdr.lt.version != LT_VERSION || hdr.lt.reserved != 0 ||\n                \
         hdr.lt.slots != LT_SLOTS || hdr.lt.link >= LT_LINKS"
    }

    /// `lt_gather`, saturations counted per element, feedback write-back and the UDP checksum
    /// (inside the ingress's good-packet branch).
    fn finish(&self, count_sat: &dyn Fn(u32) -> String) -> String {
        let mut s = String::from("                lt_gather.apply();\n");
        for k in 0..self.k {
            let _ = writeln!(
                s,
                "                if (meta.lt.sat_k{k} == 1) {{\n                    {}\n                }}",
                count_sat(k)
            );
        }
        s.push_str("                if (hdr.lt.feedback == 1) {\n");
        let w = self.lp + 1;
        for k in 0..self.k {
            let _ = writeln!(
                s,
                "                    bit<{w}> pl_{k} = (bit<{w}>)hdr.lt.path_load_{k} + (bit<{w}>)meta.lt.load_{k};\n                    \
                 hdr.lt.path_load_{k} = (pl_{k} > (bit<{w}>)LT_PATH_LOAD_MAX) ? LT_PATH_LOAD_MAX : pl_{k}[{m}:0];",
                m = self.lp - 1
            );
        }
        s.push_str(
            "                    // The payload changed: \"no checksum\" (legal for UDP over IPv4).\n                    \
             hdr.udp.checksum = 0;\n                }\n",
        );
        s
    }

    fn v1model(&self, opts: &Options) -> String {
        let mut s = self.preamble(Target::V1model, opts);
        s.push_str(
            &self.metadata(&|r| {
                format!("\n    bit<1> en_{r};       // register {r} is in the window")
            }),
        );
        s.push_str(&format!(
            "\
#ifdef LT_TEST_CLOCK
#define LT_CLOCK hdr.ethernet.src_addr
#else
// BMv2 counts microseconds.
#define LT_CLOCK (sm.ingress_global_timestamp * 1000)
#endif

parser LtParser(packet_in pkt, out headers_t hdr, inout metadata_t meta,
                inout standard_metadata_t sm) {{
    state start {{
        transition parse_ethernet;
    }}

{states}}}

control LtVerifyChecksum(inout headers_t hdr, inout metadata_t meta) {{
    apply {{ }}
}}

control LtIngress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {{
",
            states = self.parser_states()
        ));
        for r in 0..self.r {
            let _ = writeln!(
                s,
                "    register<bit<{cw}>>((bit<32>)LT_LINKS) lt_slot_{r};  // {{epoch, load}} per link",
                cw = self.e + self.l
            );
        }
        let _ = writeln!(
            s,
            "    counter(1, CounterType.packets) lt_bad;          // malformed shims\n    \
             counter({}, CounterType.packets) lt_saturations;  // saturated elements, per slot k\n",
            self.k
        );
        s.push_str(&self.add_action());
        s.push('\n');
        s.push_str(&self.select_gather_tables(true));
        s.push_str(&self.apply_head("sm.egress_spec = sm.ingress_port;"));
        s.push_str("                bit<32> link = (bit<32>)hdr.lt.link;\n");
        let (cw, l) = (self.e + self.l, self.l);
        for r in 0..self.r {
            let _ = write!(
                s,
                "                if (meta.lt.en_{r} == 1) {{
                    bit<{cw}> cell_{r};
                    lt_slot_{r}.read(cell_{r}, link);
                    lt_load_t old_{r} = (cell_{r}[{ch}:{l}] == meta.lt.e_{r}) ? cell_{r}[{lm}:0] : {l}w0;
                    lt_add(old_{r}, meta.lt.d_{r}, hdr.lt.update, meta.lt.new_{r}, meta.lt.sat_{r});
                    lt_slot_{r}.write(link, meta.lt.e_{r} ++ meta.lt.new_{r});
                }}
",
                ch = cw - 1,
                lm = l - 1,
            );
        }
        s.push_str(&self.finish(&|k| format!("lt_saturations.count({k});")));
        s.push_str(
            "            }
        }
    }
}

control LtEgress(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {
    apply { }
}

control LtComputeChecksum(inout headers_t hdr, inout metadata_t meta) {
    apply { }
}

control LtDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.udp);
        pkt.emit(hdr.lt);
    }
}

V1Switch(LtParser(), LtVerifyChecksum(), LtIngress(), LtEgress(), LtComputeChecksum(),
         LtDeparser()) main;
",
        );
        s
    }

    fn tna(&self, opts: &Options) -> String {
        let mut s = self.preamble(Target::Tna, opts);
        let shift = 32 - self.l;
        s.push_str(&format!(
            "\
// A cell is a 64-bit register pair: the load in the top {l} bits of `load` (so the stateful
// ALU's 32-bit saturating add and subtract saturate at the load's own limits) and the epoch.
struct lt_cell_t {{
    bit<32> load;
    bit<32> epoch;
}}

",
            l = self.l
        ));
        s.push_str(&self.metadata(&|r| {
            format!(
                "\n    bit<1> pos_{r};\n    bit<32> mag_{r};   // |delta| clamped to LT_LOAD_MAX, \
                 top-aligned\n    bit<32> old_{r};   // the register's load before, top-aligned"
            )
        }));
        // A register's epoch as the 32-bit register field compares it.
        let epoch32 = |r: u32| {
            if self.e == 32 {
                format!("meta.lt.e_{r}")
            } else {
                format!("(bit<32>)meta.lt.e_{r}")
            }
        };
        s.push_str(&format!(
            "\
#ifdef LT_TEST_CLOCK
#define LT_CLOCK hdr.ethernet.src_addr
#else
#define LT_CLOCK ig_intr_md.ingress_mac_tstamp
#endif

parser LtIngressParser(packet_in pkt, out headers_t hdr, out metadata_t meta,
                       out ingress_intrinsic_metadata_t ig_intr_md) {{
    state start {{
        meta = {{ lt = {{ ... }} }};  // every field zero
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        transition parse_ethernet;
    }}

{states}}}

control LtIngress(inout headers_t hdr, inout metadata_t meta,
                  in ingress_intrinsic_metadata_t ig_intr_md,
                  in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                  inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                  inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {{
    Counter<bit<32>, bit<1>>(1, CounterType_t.PACKETS) lt_bad;  // malformed shims
",
            states = self.parser_states()
        ));
        for k in 0..self.k {
            let _ = writeln!(
                s,
                "    Counter<bit<32>, bit<1>>(1, CounterType_t.PACKETS) lt_sat_{k};  // saturated, slot {k}"
            );
        }
        for r in 0..self.r {
            let e = epoch32(r);
            let _ = write!(
                s,
                "
    Register<lt_cell_t, bit<16>>((bit<32>)LT_LINKS) lt_slot_{r};
    // Returns the load before (0 when the epoch is stale) and writes the saturated sum.
    RegisterAction<lt_cell_t, bit<16>, bit<32>>(lt_slot_{r}) lt_rmw_{r} = {{
        void apply(inout lt_cell_t c, out bit<32> old) {{
            if (c.epoch == {e}) {{
                old = c.load;
                if (meta.lt.pos_{r} == 1) {{
                    c.load = c.load |+| meta.lt.mag_{r};
                }} else {{
                    c.load = c.load |-| meta.lt.mag_{r};
                }}
            }} else {{
                old = 0;
                c.epoch = {e};
                if (meta.lt.pos_{r} == 1) {{
                    c.load = meta.lt.mag_{r};
                }} else {{
                    c.load = 0;
                }}
            }}
        }}
    }};
    action lt_run_{r}() {{
        meta.lt.old_{r} = lt_rmw_{r}.execute(hdr.lt.link);
    }}
"
            );
            // The register's table: it runs for the slots n whose window holds it.
            let _ = write!(
                s,
                "    table lt_reg_{r} {{\n        key = {{ meta.lt.n : exact; }}\n        \
                 actions = {{ lt_run_{r}; @defaultonly NoAction; }}\n        const entries = {{\n"
            );
            for n in 0..self.r {
                if self.element_of(r, n).is_some() {
                    let _ = writeln!(s, "            {n} : lt_run_{r}();");
                }
            }
            s.push_str("        }\n        const default_action = NoAction();\n    }\n");
        }
        s.push('\n');
        s.push_str(&self.add_action());
        s.push('\n');
        s.push_str(&self.select_gather_tables(false));
        s.push_str(&self.apply_head("ig_tm_md.ucast_egress_port = ig_intr_md.ingress_port;"));
        let (ld, l) = (self.ld, self.l);
        let top = |v: &str| {
            if shift == 0 {
                v.to_string()
            } else {
                format!("{v} ++ {shift}w0")
            }
        };
        for r in 0..self.r {
            let _ = write!(
                s,
                "                // Register {r}: the delta as sign and clamped magnitude for the ALU.
                meta.lt.pos_{r} = ~(meta.lt.d_{r}[{dm}:{dm}] & hdr.lt.update);
                bit<{ld}> mag_{r} = (hdr.lt.update == 0) ? {ld}w0
                    : ((meta.lt.pos_{r} == 1) ? meta.lt.d_{r} : (~meta.lt.d_{r} + 1));
                meta.lt.mag_{r} = {magc};
                lt_reg_{r}.apply();
                lt_add(meta.lt.old_{r}[31:{shift}], meta.lt.d_{r}, hdr.lt.update,
                       meta.lt.new_{r}, meta.lt.sat_{r});
",
                dm = ld - 1,
                magc = top(&format!(
                    "((mag_{r}[{l}:{l}] == 1) ? LT_LOAD_MAX : mag_{r}[{lm}:0])",
                    lm = l - 1
                )),
            );
        }
        s.push_str(&self.finish(&|k| format!("lt_sat_{k}.count(0);")));
        s.push_str(
            "            }
        }
    }
}

control LtIngressDeparser(packet_out pkt, inout headers_t hdr, in metadata_t meta,
                          in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

struct lt_eg_headers_t { }
struct lt_eg_metadata_t { }

parser LtEgressParser(packet_in pkt, out lt_eg_headers_t hdr, out lt_eg_metadata_t meta,
                      out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition accept;
    }
}

control LtEgress(inout lt_eg_headers_t hdr, inout lt_eg_metadata_t meta,
                 in egress_intrinsic_metadata_t eg_intr_md,
                 in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                 inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                 inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply { }
}

control LtEgressDeparser(packet_out pkt, inout lt_eg_headers_t hdr, in lt_eg_metadata_t meta,
                         in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(LtIngressParser(), LtIngress(), LtIngressDeparser(),
         LtEgressParser(), LtEgress(), LtEgressDeparser()) pipe;

Switch(pipe) main;
",
        );
        s
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1model_default_snapshot() {
        let p = generate(&Config::default(), Target::V1model, &Options::default()).unwrap();
        insta::assert_snapshot!("load_table_v1model_default", p);
    }

    #[test]
    fn tna_default_snapshot() {
        let p = generate(&Config::default(), Target::Tna, &Options::default()).unwrap();
        insta::assert_snapshot!("load_table_tna_default", p);
    }

    #[test]
    fn every_register_is_in_the_window_of_exactly_k_slots() {
        let g = Gen::new(&Config::default());
        for r in 0..g.r {
            let n = (0..g.r).filter(|n| g.element_of(r, *n).is_some()).count();
            assert_eq!(n as u32, g.k);
        }
        // Slot 0 of a packet in slot n = 14 is register 14; slot 2 wraps to register 0.
        assert_eq!(g.element_of(14, 14), Some(0));
        assert_eq!(g.element_of(0, 14), Some(2));
        assert_eq!(g.element_of(8, 14), None);
    }

    #[test]
    fn the_tna_program_is_refused_past_its_stage_budget_with_the_numbers() {
        let cfg = Config::default();
        assert_eq!(tna_stage_estimate(&cfg), 12);
        let opts = Options {
            tna_stages: 10,
            ..Options::default()
        };
        let e = generate(&cfg, Target::Tna, &opts).unwrap_err().to_string();
        assert_eq!(
            e,
            "p4 (tna): load_table.slots = 10 needs 16 slot registers, 12 MAU stages by the \
             estimate (8 + 16 registers at 4 per stage); --tna-stages allows 10. Use fewer slots \
             (8 slots need 8 registers, 10 stages) or a target with more stages"
        );
        // The v1model program has no stage limit.
        assert!(generate(&cfg, Target::V1model, &opts).is_ok());
    }

    #[test]
    fn an_invalid_config_is_refused_naming_the_field() {
        let mut cfg = Config::default();
        cfg.load_table.udp_port = 70000;
        let e = generate(&cfg, Target::V1model, &Options::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("p4 (v1model): invalid configuration:"), "{e}");
        assert!(e.contains("load_table.udp_port"), "{e}");
    }

    #[test]
    fn thirty_two_bit_loads_need_no_alignment_shift_and_the_programs_differ_by_config() {
        let mut cfg = Config::default();
        cfg.load_table.load_bits = 32;
        cfg.load_table.slot_log2_ns = 10;
        let t = generate(&cfg, Target::Tna, &Options::default()).unwrap();
        assert!(t.contains("meta.lt.mag_0 = ((mag_0[32:32] == 1) ? LT_LOAD_MAX : mag_0[31:0]);"));
        assert!(t.contains("lt_add(meta.lt.old_0[31:0]"));
        // 48 - 10 - 4 = 34 epoch bits, capped at 32.
        assert!(t.contains("typedef bit<32> lt_epoch_t;"));
        let v = generate(&cfg, Target::V1model, &Options::default()).unwrap();
        assert!(v.contains("register<bit<64>>((bit<32>)LT_LINKS) lt_slot_0;"));
    }
}
