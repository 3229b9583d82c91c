//! The load-table shim header: its one definition (`docs/wire-format.md`).
//!
//! Every user of the header takes its layout from [`LoadShim`]: the golden model's frame parser
//! and serializer, the RTL descriptor (the `s_deltas` / `s_path_load` words of the load-table
//! block, [`pack_elements`]), and the P4 generator (the `header` declaration, [`LoadShim::p4_header`]).
//!
//! The shim follows a UDP header whose destination port is `load_table.udp_port`. Its fields, in
//! wire order, most significant bit first, big-endian:
//!
//! ```text
//!  version:4  update:1  feedback:1  reserved:2  slots:8  link:16
//!  delta[0] .. delta[K-1]            K x (load_bits + 1), two's complement, slot 0 first
//!  path_load[0] .. path_load[K-1]    K x (load_bits + 4), unsigned, slot 0 first
//!  pad                               0..7 bits to a whole byte (sent as zero, passed through)
//! ```

use crate::Config;
use std::fmt;

/// The shim's version this generator writes and accepts.
pub const SHIM_VERSION: u8 = 1;

/// What a field of the shim holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Version,
    Update,
    Feedback,
    Reserved,
    Slots,
    Link,
    /// Delta for slot `k` (signed).
    Delta(u32),
    /// Path-load element for slot `k`.
    PathLoad(u32),
    Pad,
}

/// One field of the shim, in wire order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub kind: FieldKind,
    pub bits: u32,
}

impl Field {
    /// Its name in the P4 header and in `docs/wire-format.md`.
    pub fn name(&self) -> String {
        match self.kind {
            FieldKind::Version => "version".into(),
            FieldKind::Update => "update".into(),
            FieldKind::Feedback => "feedback".into(),
            FieldKind::Reserved => "reserved".into(),
            FieldKind::Slots => "slots".into(),
            FieldKind::Link => "link".into(),
            FieldKind::Delta(k) => format!("delta_{k}"),
            FieldKind::PathLoad(k) => format!("path_load_{k}"),
            FieldKind::Pad => "pad".into(),
        }
    }
}

/// The fixed fields before the vectors, with their widths.
const HEAD: [(FieldKind, u32); 6] = [
    (FieldKind::Version, 4),
    (FieldKind::Update, 1),
    (FieldKind::Feedback, 1),
    (FieldKind::Reserved, 2),
    (FieldKind::Slots, 8),
    (FieldKind::Link, LINK_BITS),
];

/// Width of the `link` field (and so of a link index).
pub const LINK_BITS: u32 = 16;

/// The layout of the shim for one configuration: everything else about it (its fields, their
/// widths, its length) follows from these four numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadShim {
    slots: u32,
    load_bits: u32,
    links: u32,
    udp_port: u16,
}

/// The shim's field values, as decoded (nothing checked but the length).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Shim {
    pub version: u8,
    pub update: bool,
    pub feedback: bool,
    pub reserved: u8,
    pub slots: u8,
    pub link: u16,
    /// `K` signed deltas, slot 0 first.
    pub deltas: Vec<i64>,
    /// `K` path-load elements, slot 0 first.
    pub path_load: Vec<u64>,
    pub pad: u8,
}

/// Why a shim is malformed. A malformed shim is forwarded untouched and counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShimError {
    /// Fewer bytes after the UDP header than the shim needs.
    Truncated {
        have: usize,
        need: usize,
    },
    Version(u8),
    Reserved(u8),
    /// The sender's `K` is not the switch's.
    Slots {
        got: u8,
        want: u32,
    },
    Link {
        got: u16,
        links: u32,
    },
}

impl fmt::Display for ShimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShimError::Truncated { have, need } => {
                write!(
                    f,
                    "truncated: {have} bytes after UDP, the shim needs {need}"
                )
            }
            ShimError::Version(v) => write!(f, "version {v}, expected {SHIM_VERSION}"),
            ShimError::Reserved(r) => write!(f, "reserved bits {r:#x}, expected 0"),
            ShimError::Slots { got, want } => write!(f, "slots {got}, expected {want}"),
            ShimError::Link { got, links } => {
                write!(f, "link {got} out of range (links = {links})")
            }
        }
    }
}

impl LoadShim {
    /// The layout for a validated config.
    pub fn new(cfg: &Config) -> Self {
        let t = &cfg.load_table;
        LoadShim::with(t.slots, t.load_bits, t.links, t.udp_port as u16)
    }

    /// The layout for `slots` elements of `load_bits`-bit loads on a switch of `links` links.
    pub fn with(slots: u32, load_bits: u32, links: u32, udp_port: u16) -> Self {
        LoadShim {
            slots,
            load_bits,
            links,
            udp_port,
        }
    }

    /// The fields in wire order.
    pub fn fields(&self) -> Vec<Field> {
        let field = |(kind, bits)| Field { kind, bits };
        let mut f: Vec<Field> = HEAD.into_iter().map(field).collect();
        f.extend((0..self.slots).map(|k| field((FieldKind::Delta(k), self.delta_bits()))));
        f.extend((0..self.slots).map(|k| field((FieldKind::PathLoad(k), self.path_load_bits()))));
        if self.pad_bits() > 0 {
            f.push(field((FieldKind::Pad, self.pad_bits())));
        }
        f
    }
    pub fn slots(&self) -> u32 {
        self.slots
    }
    pub fn load_bits(&self) -> u32 {
        self.load_bits
    }
    pub fn links(&self) -> u32 {
        self.links
    }
    pub fn udp_port(&self) -> u16 {
        self.udp_port
    }
    /// Width of a delta element (`load_bits + 1`).
    pub fn delta_bits(&self) -> u32 {
        self.load_bits + 1
    }
    /// Width of a path-load element (`load_bits + 4`).
    pub fn path_load_bits(&self) -> u32 {
        self.load_bits + crate::PATH_LOAD_EXTRA_BITS
    }
    /// Bits of the fields before the pad.
    fn unpadded_bits(&self) -> u32 {
        HEAD.iter().map(|(_, b)| b).sum::<u32>()
            + self.slots * (self.delta_bits() + self.path_load_bits())
    }
    /// Width of the pad (0..=7).
    pub fn pad_bits(&self) -> u32 {
        (8 - self.unpadded_bits() % 8) % 8
    }
    /// Length of the shim on the wire, bytes.
    pub fn bytes(&self) -> usize {
        ((self.unpadded_bits() + self.pad_bits()) / 8) as usize
    }

    /// Decodes the shim at the start of `b` (bytes after it are not the shim's).
    pub fn decode(&self, b: &[u8]) -> Result<Shim, ShimError> {
        if b.len() < self.bytes() {
            return Err(ShimError::Truncated {
                have: b.len(),
                need: self.bytes(),
            });
        }
        let mut r = BitReader { b, at: 0 };
        let mut s = Shim::default();
        for f in self.fields() {
            let v = r.take(f.bits);
            match f.kind {
                FieldKind::Version => s.version = v as u8,
                FieldKind::Update => s.update = v == 1,
                FieldKind::Feedback => s.feedback = v == 1,
                FieldKind::Reserved => s.reserved = v as u8,
                FieldKind::Slots => s.slots = v as u8,
                FieldKind::Link => s.link = v as u16,
                FieldKind::Delta(_) => s.deltas.push(sign_extend(v, f.bits)),
                FieldKind::PathLoad(_) => s.path_load.push(v),
                FieldKind::Pad => s.pad = v as u8,
            }
        }
        Ok(s)
    }

    /// Encodes `s` (its vectors must have `K` elements; values are cut to their field widths).
    pub fn encode(&self, s: &Shim) -> Vec<u8> {
        let mut w = BitWriter::default();
        for f in self.fields() {
            let v = match f.kind {
                FieldKind::Version => s.version as u64,
                FieldKind::Update => s.update as u64,
                FieldKind::Feedback => s.feedback as u64,
                FieldKind::Reserved => s.reserved as u64,
                FieldKind::Slots => s.slots as u64,
                FieldKind::Link => s.link as u64,
                FieldKind::Delta(k) => s.deltas.get(k as usize).map_or(0, |d| *d as u64),
                FieldKind::PathLoad(k) => s.path_load.get(k as usize).copied().unwrap_or(0),
                FieldKind::Pad => s.pad as u64,
            };
            w.put(v, f.bits);
        }
        w.bytes
    }

    /// Whether the switch may act on `s`: version, reserved bits, `K` and link in range.
    pub fn check(&self, s: &Shim) -> Result<(), ShimError> {
        if s.version != SHIM_VERSION {
            return Err(ShimError::Version(s.version));
        }
        if s.reserved != 0 {
            return Err(ShimError::Reserved(s.reserved));
        }
        if s.slots as u32 != self.slots {
            return Err(ShimError::Slots {
                got: s.slots,
                want: self.slots,
            });
        }
        if s.link as u32 >= self.links {
            return Err(ShimError::Link {
                got: s.link,
                links: self.links,
            });
        }
        Ok(())
    }

    /// The P4_16 `header` declaration of the shim, named `name`.
    pub fn p4_header(&self, name: &str) -> String {
        let mut s = format!(
            "// The load-table shim ({} bytes), after UDP on port {}. Generated from the one\n\
             // definition in strack_config::wire; docs/wire-format.md describes it.\n\
             header {name} {{\n",
            self.bytes(),
            self.udp_port
        );
        for f in self.fields() {
            s.push_str(&format!("    bit<{}> {};\n", f.bits, f.name()));
        }
        s.push_str("}\n");
        s
    }

    /// The RTL descriptor's `s_deltas` word for `deltas` (see [`pack_elements`]).
    pub fn rtl_deltas(&self, deltas: &[i64]) -> Vec<u64> {
        pack_elements(
            deltas.iter().map(|d| *d as u64),
            self.delta_bits(),
            self.slots as usize,
        )
    }

    /// The RTL descriptor's `s_path_load` word for `path_load` (see [`pack_elements`]).
    pub fn rtl_path_load(&self, path_load: &[u64]) -> Vec<u64> {
        pack_elements(
            path_load.iter().copied(),
            self.path_load_bits(),
            self.slots as usize,
        )
    }
}

/// How the RTL descriptor carries a vector field: `n` elements of `width` bits, element `k` in
/// bits `k * width ..` of one wide word (slot 0 in the least significant bits), as 64-bit chunks,
/// least significant first. The shim carries the same elements in the same order, slot 0 first
/// on the wire.
pub fn pack_elements(values: impl IntoIterator<Item = u64>, width: u32, n: usize) -> Vec<u64> {
    let total = width as usize * n;
    let mut out = vec![0u64; total.div_ceil(64)];
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    for (i, v) in values.into_iter().enumerate().take(n) {
        let (at, v) = (i * width as usize, v & mask);
        out[at / 64] |= v << (at % 64);
        if at % 64 + width as usize > 64 {
            out[at / 64 + 1] |= v >> (64 - at % 64);
        }
    }
    out
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

struct BitReader<'a> {
    b: &'a [u8],
    at: usize,
}

impl BitReader<'_> {
    /// The next `bits` bits, most significant first.
    fn take(&mut self, bits: u32) -> u64 {
        let mut v = 0u64;
        for _ in 0..bits {
            let bit = (self.b[self.at / 8] >> (7 - self.at % 8)) & 1;
            v = (v << 1) | bit as u64;
            self.at += 1;
        }
        v
    }
}

#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    at: usize,
}

impl BitWriter {
    fn put(&mut self, v: u64, bits: u32) {
        for i in (0..bits).rev() {
            if self.at.is_multiple_of(8) {
                self.bytes.push(0);
            }
            let bit = ((v >> i) & 1) as u8;
            *self.bytes.last_mut().expect("pushed above") |= bit << (7 - self.at % 8);
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shim() -> LoadShim {
        LoadShim::new(&Config::default())
    }

    #[test]
    fn default_layout_is_51_bytes_with_a_6_bit_pad() {
        let s = shim();
        // 32 + 10 x 17 + 10 x 20 = 402 bits, padded to 408.
        assert_eq!(s.bytes(), 51);
        assert_eq!(s.pad_bits(), 6);
        assert_eq!(s.fields()[6].name(), "delta_0");
        assert_eq!(s.fields()[6].bits, 17);
        assert_eq!(s.fields()[16].name(), "path_load_0");
        assert_eq!(s.fields()[16].bits, 20);
    }

    #[test]
    fn encode_then_decode_is_identity_and_deltas_keep_their_sign() {
        let l = shim();
        let s = Shim {
            version: 1,
            update: true,
            feedback: true,
            reserved: 0,
            slots: 10,
            link: 63,
            deltas: vec![-65536, 65535, -1, 0, 1, 2, 3, -4, 5, -6],
            path_load: vec![0, 1, 0xFFFFF, 4, 5, 6, 7, 8, 9, 10],
            pad: 0,
        };
        let b = l.encode(&s);
        assert_eq!(b.len(), 51);
        assert_eq!(b[0], 0x1C, "version 1, update, feedback");
        assert_eq!(&b[1..4], &[10, 0, 63]);
        // delta_0 = -65536 = 1_0000_0000_0000_0000 (17 bits) starts the fifth byte.
        assert_eq!(b[4], 0x80);
        assert_eq!(l.decode(&b), Ok(s));
        assert_eq!(
            l.decode(&b[..50]),
            Err(ShimError::Truncated { have: 50, need: 51 })
        );
    }

    #[test]
    fn check_names_what_is_malformed() {
        let l = shim();
        let good = Shim {
            version: 1,
            slots: 10,
            link: 3,
            deltas: vec![0; 10],
            path_load: vec![0; 10],
            ..Default::default()
        };
        assert_eq!(l.check(&good), Ok(()));
        let bad = |f: fn(&mut Shim)| {
            let mut s = good.clone();
            f(&mut s);
            l.check(&s).unwrap_err().to_string()
        };
        assert_eq!(bad(|s| s.version = 2), "version 2, expected 1");
        assert_eq!(bad(|s| s.reserved = 1), "reserved bits 0x1, expected 0");
        assert_eq!(bad(|s| s.slots = 9), "slots 9, expected 10");
        assert_eq!(bad(|s| s.link = 64), "link 64 out of range (links = 64)");
    }

    #[test]
    fn the_rtl_words_put_slot_0_in_the_low_bits() {
        let l = LoadShim::with(3, 8, 4, 1);
        assert_eq!(l.rtl_deltas(&[-1, 1, 2]), vec![0x1FF | 1 << 9 | 2 << 18]);
        assert_eq!(l.rtl_path_load(&[1, 2, 3]), vec![1 | 2 << 12 | 3 << 24]);
        // 5 x 17 bits = 85 bits span two chunks.
        let w = pack_elements([0x1FFFF; 5], 17, 5);
        assert_eq!(w, vec![u64::MAX, (1 << 21) - 1]);
    }

    #[test]
    fn the_p4_header_lists_every_field_in_order() {
        let h = LoadShim::with(2, 8, 4, 0xCAFE).p4_header("lt_shim_h");
        assert!(h.contains("header lt_shim_h {"));
        let order = [
            "bit<4> version;",
            "bit<1> update;",
            "bit<9> delta_1;",
            "bit<12> path_load_0;",
            "bit<6> pad;",
        ];
        let at: Vec<usize> = order.iter().map(|f| h.find(f).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{h}");
        // 32 + 2 x 9 + 2 x 12 = 74 bits, padded to 80.
        assert!(h.contains("(10 bytes), after UDP on port 51966"));
    }
}
