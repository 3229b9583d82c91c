//! The AXI-Stream descriptor layouts of the FPGA wrappers (`load_table_axis`, `nic_axis`),
//! defined once here for a config and written three ways: Verilog defines the wrappers' test
//! benches cut the beats with (`strackgen_layout.vh`), a C header for driver writers
//! (`strack_descriptors.h`) and Markdown tables (the package's `descriptors.md`, the block
//! docs at the default config). A beat's bit `b` is TDATA bit `b`: byte `b / 8` of the
//! descriptor in memory (AXI-Stream's byte lanes), bit `b % 8` of that byte.
//!
//! Every TDATA is a whole number of bytes; every field of 8 bits or more starts on a byte;
//! the one-bit flags share a byte. Unused bits are written 0 by the wrappers and ignored by
//! them on input.

use strack_config::Config;

/// One field of a descriptor: `count` copies `stride` bits apart (1 for a scalar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub bit: u32,
    pub width: u32,
    pub count: u32,
    pub stride: u32,
    pub meaning: &'static str,
}

/// One stream's descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Name in the defines and the C header (`NIC_SACK`, `LT_IN`, ...).
    pub name: &'static str,
    /// The wrapper and its TDATA port.
    pub wrapper: &'static str,
    pub port: &'static str,
    pub bits: u32,
    pub fields: Vec<Field>,
}

fn round8(bits: u32) -> u32 {
    bits.div_ceil(8) * 8
}

/// Builds a layout field by field at explicit offsets.
struct Builder(Vec<Field>);

impl Builder {
    fn at(mut self, name: &'static str, bit: u32, width: u32, meaning: &'static str) -> Self {
        self.0.push(Field {
            name,
            bit,
            width,
            count: 1,
            stride: width,
            meaning,
        });
        self
    }
    fn array(
        mut self,
        name: &'static str,
        bit: u32,
        width: u32,
        count: u32,
        stride: u32,
        meaning: &'static str,
    ) -> Self {
        self.0.push(Field {
            name,
            bit,
            width,
            count,
            stride,
            meaning,
        });
        self
    }
}

fn fields() -> Builder {
    Builder(Vec::new())
}

/// Every descriptor of the package's wrappers for `cfg`.
pub fn layouts(cfg: &Config) -> Vec<Layout> {
    let k = cfg.load_table.slots;
    let w = cfg.load_table.load_bits;
    let (ds, ps, rs) = (round8(w + 1), round8(w + 4), round8(w));
    let sb = cfg.sack.sack_bits;
    let sbp = sb.div_ceil(32) * 32;
    let lt_in = fields()
        .at("LINK", 0, 16, "link (port) index; `links` or more is `bad`")
        .at("UPDATE", 16, 1, "the packet carries load deltas to add")
        .at(
            "FEEDBACK",
            17,
            1,
            "a feedback packet: read the row, write nothing",
        )
        .array(
            "DELTA",
            24,
            w + 1,
            k,
            ds,
            "slot k's load delta, signed (two's complement)",
        )
        .array(
            "PATH_LOAD",
            24 + k * ds,
            w + 4,
            k,
            ps,
            "slot k's path load so far (in)",
        );
    let lt_out = fields()
        .at(
            "BAD",
            0,
            1,
            "the link index was out of range (counted, nothing changed)",
        )
        .at("SAT_MASK", 8, 16, "bit k: slot k saturated")
        .array(
            "PATH_LOAD",
            24,
            w + 4,
            k,
            ps,
            "slot k's path load after this hop",
        )
        .array(
            "ROW",
            24 + k * ps,
            w,
            k,
            rs,
            "slot k's load on this link after the update",
        );
    let open = fields()
        .at(
            "PSN",
            0,
            32,
            "our initial PSN (wider than 24 bits: refused)",
        )
        .at("PEER_PSN", 32, 32, "the peer's initial PSN")
        .at("CONN", 64, 16, "connection");
    let doorbell = fields()
        .at("BYTES", 0, 32, "bytes appended to the send backlog")
        .at("CONN", 32, 16, "connection");
    let sack = fields()
        .at("EPSN", 0, 32, "expected PSN")
        .at("BASE", 32, 32, "PSN of the bitmap's bit 0")
        .at("BYTES", 64, 32, "bytes received")
        .at("OOO", 96, 32, "out-of-order count")
        .at("TS", 128, 32, "timestamp echoed (ns)")
        .at("ENTROPY", 160, 32, "entropy echoed")
        .at("CONN", 192, 16, "connection")
        .at("PROBE", 208, 1, "answers a probe")
        .at("ECN", 209, 1, "ECN echoed")
        .at(
            "BITMAP",
            224,
            sb,
            "received bitmap from BASE, bit i = PSN BASE + i",
        );
    let pkt = fields()
        .at("PSN", 0, 32, "PSN")
        .at("LEN", 32, 32, "payload bytes")
        .at("ENTROPY", 64, 32, "entropy")
        .at("TS", 96, 32, "sender's timestamp (ns)")
        .at("CONN", 128, 16, "connection")
        .at("ECN", 144, 1, "ECN marked")
        .at("PROBE", 145, 1, "a probe, not data")
        .at("ACK_REQ", 146, 1, "the sender asks for a SACK now");
    let send = fields()
        .at(
            "TX_PSN",
            0,
            32,
            "PSN of the packet sent (24 bits, zero-extended)",
        )
        .at("TX_LEN", 32, 32, "its payload bytes")
        .at("TX_TS", 64, 32, "its timestamp (ns)")
        .at(
            "TX_ENTROPY",
            96,
            16,
            "its entropy (0 when the bitmap chose none)",
        )
        .at("CONN", 112, 16, "connection")
        .at(
            "SOURCE",
            128,
            3,
            "the event: 1 open, 2 SACK, 3 transmit, 4 doorbell",
        )
        .at(
            "BAD",
            131,
            1,
            "connection id out of range (nothing changed)",
        )
        .at("OPENED", 132, 1, "open done")
        .at("OPEN_REFUSED", 133, 1, "open refused")
        .at("SACK_ACCEPTED", 134, 1, "SACK accepted")
        .at("SACK_MALFORMED", 135, 1, "SACK malformed (nothing changed)")
        .at("DOORBELL_OK", 136, 1, "doorbell taken")
        .at(
            "DOORBELL_REFUSED",
            137,
            1,
            "doorbell refused (backlog past 2^32 - 1)",
        )
        .at("TX_VALID", 138, 1, "a packet was sent")
        .at("TX_KIND", 139, 2, "0 new, 1 retransmission, 2 probe")
        .at("TX_ACK_REQ", 141, 1, "the packet asks for a SACK")
        .at("LOSS_VALID", 142, 1, "a loss was detected")
        .at(
            "LOSS_KIND",
            143,
            2,
            "0 out-of-order count, 1 probe, 2 timeout",
        )
        .at("WORK", 145, 1, "the connection has work left");
    let recv = fields()
        .at("SACK_EPSN", 0, 32, "expected PSN")
        .at("SACK_BASE", 32, 32, "PSN of the bitmap's bit 0")
        .at("SACK_BYTES_RECVD", 64, 32, "bytes received")
        .at("SACK_OOO_COUNT", 96, 32, "out-of-order count")
        .at("SACK_ENTROPY", 128, 32, "entropy echoed")
        .at("SACK_TS", 160, 32, "timestamp echoed (ns)")
        .at("CONN", 192, 16, "connection")
        .at(
            "VERDICT",
            208,
            3,
            "0 in order, 1 out of order, 2 duplicate, 3 out of window, 4 probe, 5 malformed, 6 opened, 7 open refused",
        )
        .at("BAD", 211, 1, "connection id out of range (nothing changed)")
        .at("TRIG_COALESCE", 212, 1, "SACK sent: coalescing threshold")
        .at("TRIG_HEAD_FILL", 213, 1, "SACK sent: the head hole filled")
        .at("TRIG_PROBE", 214, 1, "SACK sent: a probe")
        .at("TRIG_ACK_REQ", 215, 1, "SACK sent: asked for")
        .at("TRIG_ECN", 216, 1, "SACK sent: ECN")
        .at("SACK_VALID", 217, 1, "a SACK is sent")
        .at("SACK_ECN", 218, 1, "its ECN echo")
        .at("SACK_PROBE", 219, 1, "it answers a probe")
        .at("SACK_BITMAP", 224, sb, "its bitmap from SACK_BASE");
    let layout = |name, wrapper, port, bits, b: Builder| Layout {
        name,
        wrapper,
        port,
        bits,
        fields: b.0,
    };
    vec![
        layout(
            "LT_IN",
            "load_table_axis",
            "s_axis_tdata",
            24 + k * ds + k * ps,
            lt_in,
        ),
        layout(
            "LT_OUT",
            "load_table_axis",
            "m_axis_tdata",
            24 + k * ps + k * rs,
            lt_out,
        ),
        layout("NIC_OPEN", "nic_axis", "s_axis_open_tdata", 96, open),
        layout(
            "NIC_DOORBELL",
            "nic_axis",
            "s_axis_doorbell_tdata",
            64,
            doorbell,
        ),
        layout("NIC_SACK", "nic_axis", "s_axis_sack_tdata", 224 + sbp, sack),
        layout("NIC_PKT", "nic_axis", "s_axis_pkt_tdata", 160, pkt),
        layout("NIC_SEND", "nic_axis", "m_axis_send_tdata", 160, send),
        layout("NIC_RECV", "nic_axis", "m_axis_recv_tdata", 224 + sbp, recv),
    ]
}

/// The layout's own rules: whole bytes, fields inside the beat and apart, every field of 8
/// bits or more on a byte boundary. A fault here is the generator's.
pub fn check(l: &Layout) -> Result<(), String> {
    if !l.bits.is_multiple_of(8) {
        return Err(format!("{}: {} bits, not whole bytes", l.name, l.bits));
    }
    let mut used = vec![None::<&str>; l.bits as usize];
    for f in &l.fields {
        if f.width >= 8 && !f.bit.is_multiple_of(8) {
            return Err(format!(
                "{}.{}: bit {} is not on a byte",
                l.name, f.name, f.bit
            ));
        }
        if f.count > 1 && (f.stride < f.width || (f.width >= 8 && !f.stride.is_multiple_of(8))) {
            return Err(format!("{}.{}: stride {}", l.name, f.name, f.stride));
        }
        for i in 0..f.count {
            for b in 0..f.width {
                let at = (f.bit + i * f.stride + b) as usize;
                match used.get_mut(at) {
                    None => {
                        return Err(format!(
                            "{}.{}: past the beat's {} bits",
                            l.name, f.name, l.bits
                        ))
                    }
                    Some(Some(other)) => {
                        return Err(format!(
                            "{}.{} overlaps {} at bit {at}",
                            l.name, f.name, other
                        ))
                    }
                    Some(slot) => *slot = Some(f.name),
                }
            }
        }
    }
    Ok(())
}

/// Put `value` (its low `width` bits) into `beat` at `bit`, LSB first.
pub fn set(beat: &mut [u8], bit: u32, width: u32, value: u64) {
    for i in 0..width.min(64) {
        let b = (bit + i) as usize;
        let v = (value >> i) & 1 == 1;
        beat[b / 8] = (beat[b / 8] & !(1 << (b % 8))) | ((v as u8) << (b % 8));
    }
}

/// The `width` bits of `beat` at `bit` (at most 64).
pub fn get(beat: &[u8], bit: u32, width: u32) -> u64 {
    (0..width.min(64)).fold(0, |acc, i| {
        let b = (bit + i) as usize;
        acc | ((((beat[b / 8] >> (b % 8)) & 1) as u64) << i)
    })
}

/// `strackgen_layout.vh`: every layout as Verilog defines (`STRACKGEN_<LAYOUT>_TDATA_WIDTH`, and per
/// field `_<FIELD>_BIT`, `_WIDTH`, for arrays `_STRIDE` and `_COUNT`).
pub fn verilog_defines(cfg: &Config) -> String {
    let mut s = String::from(
        "// The AXI-Stream descriptor layouts of load_table_axis and nic_axis (bit offsets into\n\
         // TDATA, LSB first): what strack_descriptors.h gives drivers. The test benches cut the\n\
         // beats with these, so a wrapper that drifts from them fails its bench.\n\
         `ifndef STRACKGEN_LAYOUT_VH\n`define STRACKGEN_LAYOUT_VH\n",
    );
    for l in layouts(cfg) {
        let p = format!("STRACKGEN_{}", l.name);
        s += &format!("`define {p}_TDATA_WIDTH {}\n", l.bits);
        for f in &l.fields {
            s += &format!("`define {p}_{}_BIT {}\n", f.name, f.bit);
            s += &format!("`define {p}_{}_WIDTH {}\n", f.name, f.width);
            if f.count > 1 {
                s += &format!("`define {p}_{}_STRIDE {}\n", f.name, f.stride);
                s += &format!("`define {p}_{}_COUNT {}\n", f.name, f.count);
            }
        }
    }
    s + "`endif\n"
}

/// `strack_descriptors.h`: the layouts for C, with accessors on a descriptor in memory.
pub fn c_header(cfg: &Config) -> String {
    let mut s = String::from(
        "/* The AXI-Stream descriptors of load_table_axis and nic_axis. A descriptor is the beat's\n\
         \x20* TDATA in memory: TDATA bit b is bit (b % 8) of byte (b / 8). For each descriptor X:\n\
         \x20* STRACK_X_SIZE (bytes); for each field F: STRACK_X_F_BIT (its first bit) and STRACK_X_F_WIDTH;\n\
         \x20* for an array, STRACK_X_F_STRIDE (bits from one element to the next) and STRACK_X_F_COUNT.\n\
         \x20* strack_get / strack_set read and write a field of at most 64 bits; the bitmaps (wider)\n\
         \x20* start on a byte: bit i of the bitmap is bit (i % 8) of byte (BIT / 8 + i / 8).\n\
         \x20* Unused bits: write 0; the wrappers ignore them on input. */\n\
         #ifndef STRACK_DESCRIPTORS_H\n#define STRACK_DESCRIPTORS_H\n\n#include <stdint.h>\n\n\
         static inline uint64_t strack_get(const uint8_t *d, unsigned bit, unsigned width)\n{\n\
         \x20   uint64_t v = 0;\n\
         \x20   unsigned i;\n\
         \x20   for (i = 0; i < width && i < 64; i++)\n\
         \x20       v |= (uint64_t)((d[(bit + i) / 8] >> ((bit + i) % 8)) & 1u) << i;\n\
         \x20   return v;\n}\n\n\
         static inline void strack_set(uint8_t *d, unsigned bit, unsigned width, uint64_t v)\n{\n\
         \x20   unsigned i;\n\
         \x20   for (i = 0; i < width && i < 64; i++) {\n\
         \x20       uint8_t m = (uint8_t)(1u << ((bit + i) % 8));\n\
         \x20       d[(bit + i) / 8] = (uint8_t)((d[(bit + i) / 8] & ~m) | (((v >> i) & 1u) ? m : 0));\n\
         \x20   }\n}\n",
    );
    for l in layouts(cfg) {
        let p = format!("STRACK_{}", l.name);
        s += &format!("\n/* {} {} ({} bits) */\n", l.wrapper, l.port, l.bits);
        s += &format!("#define {p}_SIZE {} /* bytes */\n", l.bits / 8);
        for f in &l.fields {
            s += &format!("#define {p}_{}_BIT {} /* {} */\n", f.name, f.bit, f.meaning);
            s += &format!("#define {p}_{}_WIDTH {}\n", f.name, f.width);
            if f.count > 1 {
                s += &format!("#define {p}_{}_STRIDE {}\n", f.name, f.stride);
                s += &format!("#define {p}_{}_COUNT {}\n", f.name, f.count);
            }
        }
    }
    s + "\n#endif /* STRACK_DESCRIPTORS_H */\n"
}

/// One layout as a Markdown table: byte and bit, width, field, meaning.
pub fn markdown(l: &Layout) -> String {
    let mut s = format!(
        "`{}` `{}`: {} bits ({} bytes); C: `STRACK_{}_*`\n\n\
         | byte.bit | bits | field | meaning |\n|---|---:|---|---|\n",
        l.wrapper,
        l.port,
        l.bits,
        l.bits / 8,
        l.name
    );
    for f in &l.fields {
        let place = if f.count > 1 {
            format!(
                "{}.{} + k × {}",
                f.bit / 8,
                f.bit % 8,
                if f.stride.is_multiple_of(8) {
                    format!("{} bytes", f.stride / 8)
                } else {
                    format!("{} bits", f.stride)
                }
            )
        } else {
            format!("{}.{}", f.bit / 8, f.bit % 8)
        };
        let name = if f.count > 1 {
            format!("`{}[k]`, k < {}", f.name, f.count)
        } else {
            format!("`{}`", f.name)
        };
        s += &format!("| {place} | {} | {name} | {} |\n", f.width, f.meaning);
    }
    s
}

/// The tables of one wrapper's layouts, as the block docs and the package's
/// `descriptors.md` hold them.
pub fn markdown_for(cfg: &Config, wrapper: &str) -> String {
    layouts(cfg)
        .iter()
        .filter(|l| l.wrapper == wrapper)
        .map(markdown)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_keeps_its_rules_at_every_config_we_ship() {
        for cfg in [
            Config::default(),
            Config::from_toml_str(include_str!("../configs/small.toml"), "small.toml").unwrap(),
            Config::from_toml_str(include_str!("../configs/tiny.toml"), "tiny.toml").unwrap(),
        ] {
            for l in layouts(&cfg) {
                assert_eq!(check(&l), Ok(()), "{}", l.name);
            }
        }
    }

    #[test]
    fn the_check_refuses_a_layout_that_breaks_a_rule() {
        let mut l = layouts(&Config::default()).remove(2);
        l.fields[1].bit = 33;
        assert!(check(&l).unwrap_err().contains("not on a byte"));
        l.fields[1].bit = 0;
        assert!(check(&l).unwrap_err().contains("overlaps PSN"));
        l.bits = 95;
        assert!(check(&l).unwrap_err().contains("not whole bytes"));
    }

    /// The C header, compiled with the machine's C compiler, packs every field of every
    /// descriptor at the place the layout says (the bytes equal `set`'s) and reads it back.
    #[test]
    fn the_c_header_packs_what_the_layout_says() {
        let cfg = Config::default();
        let dir = std::env::temp_dir().join(format!("strack-c-header-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("strack_descriptors.h"), c_header(&cfg)).unwrap();
        let mut prog = String::from(
            "#include <stdio.h>\n#include \"strack_descriptors.h\"\nint main(void)\n{\n    unsigned i;\n",
        );
        let mut expected = String::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for l in layouts(&cfg) {
            let p = format!("STRACK_{}", l.name);
            let mut beat = vec![0u8; (l.bits / 8) as usize];
            prog += &format!("    {{\n        uint8_t d[{p}_SIZE] = {{0}};\n");
            for f in &l.fields {
                for k in 0..f.count {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let w = f.width.min(64);
                    let v = seed & (u64::MAX >> (64 - w));
                    set(&mut beat, f.bit + k * f.stride, w, v);
                    let at = if f.count > 1 {
                        format!("{p}_{n}_BIT + {k} * {p}_{n}_STRIDE", n = f.name)
                    } else {
                        format!("{p}_{}_BIT", f.name)
                    };
                    let width = format!("({p}_{n}_WIDTH < 64 ? {p}_{n}_WIDTH : 64)", n = f.name);
                    prog += &format!("        strack_set(d, {at}, {width}, {v}ull);\n");
                    prog += &format!(
                        "        if (strack_get(d, {at}, {width}) != {v}ull) printf(\"get {}.{}\\n\");\n",
                        l.name, f.name
                    );
                }
            }
            prog += "        for (i = 0; i < sizeof d; i++) printf(\"%02x\", d[i]);\n        printf(\"\\n\");\n    }\n";
            expected += &beat.iter().map(|b| format!("{b:02x}")).collect::<String>();
            expected.push('\n');
        }
        prog += "    return 0;\n}\n";
        std::fs::write(dir.join("t.c"), prog).unwrap();
        let out = std::process::Command::new("cc")
            .args(["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-o"])
            .arg(dir.join("t"))
            .arg(dir.join("t.c"))
            .output()
            .expect("a C compiler (cc)");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = std::process::Command::new(dir.join("t")).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The block docs hold the tables of the default config as generated.
    #[test]
    fn the_block_docs_hold_the_generated_tables() {
        let cfg = Config::default();
        for (doc, wrapper) in [
            ("docs/blocks/load_table.md", "load_table_axis"),
            ("docs/blocks/nic.md", "nic_axis"),
        ] {
            let text =
                std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc))
                    .unwrap();
            let begin = format!("<!-- descriptors: {wrapper} -->\n");
            let end = "<!-- end of descriptors -->";
            let a = text
                .find(&begin)
                .unwrap_or_else(|| panic!("{doc}: no `{begin}`"));
            let b = text[a..]
                .find(end)
                .unwrap_or_else(|| panic!("{doc}: no `{end}`"))
                + a;
            assert_eq!(
                &text[a + begin.len()..b],
                format!("\n{}\n", markdown_for(&cfg, wrapper)),
                "{doc}: the descriptor tables differ from the generated ones"
            );
        }
    }

    /// The bit order itself, not only its round trip: TDATA bit b is bit b % 8 of byte b / 8.
    #[test]
    fn set_puts_bit_b_in_byte_b_over_8() {
        let mut beat = [0u8; 3];
        set(&mut beat, 9, 3, 0b101);
        assert_eq!(beat, [0, 0b1010, 0]);
        set(&mut beat, 16, 8, 0xa5);
        assert_eq!(beat[2], 0xa5);
    }

    #[test]
    fn set_and_get_agree_at_every_offset() {
        let mut beat = vec![0u8; 16];
        for bit in 0..64 {
            for width in [1, 3, 8, 17, 32, 64] {
                let v = 0xdead_beef_cafe_f00d_u64 & (u64::MAX >> (64 - width));
                beat.fill(0xa5);
                set(&mut beat, bit, width, v);
                assert_eq!(get(&beat, bit, width), v, "bit {bit} width {width}");
            }
        }
    }
}
