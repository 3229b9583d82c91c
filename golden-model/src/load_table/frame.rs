//! The switch variants' behaviour on whole frames (`docs/wire-format.md`): which frames carry
//! the shim, what a malformed one does, what the switch writes back. The P4 programs implement
//! exactly this; the STF files (`p4/tests/*.stf`) are generated from it and replayed against it.
//!
//! A frame carries the shim when it is Ethernet (type 0x0800), IPv4 without options
//! (`version = 4`, `ihl = 5`), UDP (protocol 17) to `load_table.udp_port`. Any other frame is
//! not the table's business: forwarded untouched, not counted. A shim frame is then
//! - **malformed** when the shim is cut short or [`LoadShim::check`] refuses it: forwarded
//!   untouched and counted, the table not touched;
//! - otherwise applied to the table ([`LazyLoadTable::step`]); when it asks for feedback its
//!   path-load elements are rewritten and its UDP checksum set to zero ("no checksum", legal
//!   for UDP over IPv4), the rest of the frame untouched.

use super::lazy::LazyLoadTable;
use super::{Out, Packet};
use strack_config::wire::{LoadShim, Shim, ShimError};

pub const ETH_LEN: usize = 14;
pub const IPV4_LEN: usize = 20;
pub const UDP_LEN: usize = 8;
/// Where the shim starts in a frame that carries it.
pub const SHIM_AT: usize = ETH_LEN + IPV4_LEN + UDP_LEN;
const UDP_CSUM_AT: usize = ETH_LEN + IPV4_LEN + 6;

/// What the switch made of a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Not a shim frame.
    NotShim,
    /// A malformed shim: forwarded untouched, counted.
    Malformed(ShimError),
    /// Applied to the table.
    Applied(Out),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameOut {
    /// The frame as it leaves.
    pub frame: Vec<u8>,
    pub verdict: Verdict,
}

/// Whether `frame` is a shim frame by its Ethernet, IPv4 and UDP headers.
pub fn carries_shim(shim: &LoadShim, frame: &[u8]) -> bool {
    frame.len() >= SHIM_AT
        && frame[12..14] == [0x08, 0x00]
        && frame[ETH_LEN] == 0x45
        && frame[ETH_LEN + 9] == 17
        && u16::from_be_bytes([frame[ETH_LEN + IPV4_LEN + 2], frame[ETH_LEN + IPV4_LEN + 3]])
            == shim.udp_port()
}

/// One frame through the switch at ingress time `ts_ns`.
pub fn process(t: &mut LazyLoadTable, shim: &LoadShim, ts_ns: u64, frame: &[u8]) -> FrameOut {
    let untouched = |verdict| FrameOut {
        frame: frame.to_vec(),
        verdict,
    };
    if !carries_shim(shim, frame) {
        return untouched(Verdict::NotShim);
    }
    let s = match shim
        .decode(&frame[SHIM_AT..])
        .and_then(|s| shim.check(&s).map(|()| s))
    {
        Ok(s) => s,
        Err(e) => {
            t.count_bad();
            return untouched(Verdict::Malformed(e));
        }
    };
    let pkt = Packet {
        link: s.link as u32,
        update: s.update,
        deltas: s.deltas.clone(),
        feedback: s.feedback,
        path_load: s.path_load.clone(),
    };
    let out = t.step(ts_ns, Some(&pkt));
    let mut f = frame.to_vec();
    if s.feedback {
        let written = shim.encode(&Shim {
            path_load: out.path_load.clone(),
            ..s
        });
        f[SHIM_AT..SHIM_AT + written.len()].copy_from_slice(&written);
        f[UDP_CSUM_AT..UDP_CSUM_AT + 2].fill(0);
    }
    FrameOut {
        frame: f,
        verdict: Verdict::Applied(out),
    }
}

/// The STF tests' clock: a test build of the P4 (`LT_TEST_CLOCK`) takes the ingress time, ns,
/// from the Ethernet source address, so a test decides which slot each packet falls in.
pub fn test_clock(frame: &[u8]) -> u64 {
    frame
        .get(6..12)
        .map_or(0, |b| b.iter().fold(0u64, |v, x| v << 8 | *x as u64))
}

/// A frame for tests: Ethernet (source address = `clock`), IPv4 10.0.0.1 -> 10.0.0.2 with its
/// header checksum, UDP from port 4791 to the shim's port with a real checksum, then `body`
/// (the shim, or anything for malformed frames).
pub fn build(shim: &LoadShim, clock: u64, body: &[u8]) -> Vec<u8> {
    let mut f = vec![0x02, 0, 0, 0, 0, 0x02];
    f.extend_from_slice(&clock.to_be_bytes()[2..]);
    f.extend_from_slice(&[0x08, 0x00]);
    let ip_len = (IPV4_LEN + UDP_LEN + body.len()) as u16;
    let src = [10, 0, 0, 1];
    let dst = [10, 0, 0, 2];
    let mut ip = vec![0x45, 0];
    ip.extend_from_slice(&ip_len.to_be_bytes());
    ip.extend_from_slice(&[0, 1, 0x40, 0, 64, 17, 0, 0]);
    ip.extend_from_slice(&src);
    ip.extend_from_slice(&dst);
    let c = !ones_sum(&ip, 0);
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    f.extend_from_slice(&ip);
    let udp_len = (UDP_LEN + body.len()) as u16;
    let mut udp = 4791u16.to_be_bytes().to_vec();
    udp.extend_from_slice(&shim.udp_port().to_be_bytes());
    udp.extend_from_slice(&udp_len.to_be_bytes());
    udp.extend_from_slice(&[0, 0]);
    udp.extend_from_slice(body);
    // Pseudo-header: addresses, protocol, UDP length.
    let mut pseudo = src.to_vec();
    pseudo.extend_from_slice(&dst);
    pseudo.extend_from_slice(&[0, 17]);
    pseudo.extend_from_slice(&udp_len.to_be_bytes());
    let c = match !ones_sum(&udp, ones_sum(&pseudo, 0)) {
        0 => 0xFFFF,
        c => c,
    };
    udp[6..8].copy_from_slice(&c.to_be_bytes());
    f.extend_from_slice(&udp);
    f
}

/// The 16-bit one's-complement sum of `b` (odd lengths padded with zero) onto `acc`.
fn ones_sum(b: &[u8], acc: u16) -> u16 {
    let mut s = acc as u32;
    for c in b.chunks(2) {
        s += u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]) as u32;
        s = (s & 0xFFFF) + (s >> 16);
    }
    s as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use strack_config::Config;

    fn setup() -> (LazyLoadTable, LoadShim) {
        let cfg = Config::default();
        (LazyLoadTable::from_config(&cfg), LoadShim::new(&cfg))
    }

    fn shim_of(l: &LoadShim, link: u16, update: bool, feedback: bool) -> Shim {
        Shim {
            version: 1,
            update,
            feedback,
            slots: l.slots() as u8,
            link,
            deltas: (0..l.slots() as i64).collect(),
            path_load: vec![100; l.slots() as usize],
            ..Default::default()
        }
    }

    #[test]
    fn built_frames_have_valid_ip_and_udp_checksums() {
        let (_, l) = setup();
        let f = build(&l, 7, &l.encode(&shim_of(&l, 1, true, false)));
        assert_eq!(ones_sum(&f[ETH_LEN..ETH_LEN + IPV4_LEN], 0), 0xFFFF);
        let udp = &f[ETH_LEN + IPV4_LEN..];
        let mut pseudo = f[ETH_LEN + 12..ETH_LEN + 20].to_vec();
        pseudo.extend_from_slice(&[0, 17]);
        pseudo.extend_from_slice(&(udp.len() as u16).to_be_bytes());
        assert_eq!(ones_sum(udp, ones_sum(&pseudo, 0)), 0xFFFF);
        assert_eq!(test_clock(&f), 7);
        assert!(carries_shim(&l, &f));
    }

    #[test]
    fn feedback_rewrites_the_path_load_and_zeroes_the_udp_checksum_only() {
        let (mut t, l) = setup();
        let f = build(&l, 0, &l.encode(&shim_of(&l, 2, true, true)));
        let o = process(&mut t, &l, 0, &f);
        let Verdict::Applied(out) = &o.verdict else {
            panic!("{:?}", o.verdict)
        };
        let want: Vec<u64> = (0..10).map(|k| 100 + k).collect();
        assert_eq!(out.path_load, want);
        assert_eq!(l.decode(&o.frame[SHIM_AT..]).unwrap().path_load, want);
        assert_eq!(o.frame[UDP_CSUM_AT..UDP_CSUM_AT + 2], [0, 0]);
        assert_eq!(o.frame[..UDP_CSUM_AT], f[..UDP_CSUM_AT]);
        // An update alone leaves the frame as it was.
        let f = build(&l, 0, &l.encode(&shim_of(&l, 2, true, false)));
        assert_eq!(process(&mut t, &l, 0, &f).frame, f);
    }

    #[test]
    fn malformed_shims_are_forwarded_untouched_and_counted() {
        let (mut t, l) = setup();
        let good = l.encode(&shim_of(&l, 2, true, true));
        let mut bodies = vec![good[..good.len() - 1].to_vec()];
        for (byte, v) in [(0, 0x2C), (0, 0x1D), (1, 9), (2, 1)] {
            let mut b = good.clone();
            b[byte] = v;
            bodies.push(b);
        }
        for (n, b) in bodies.iter().enumerate() {
            let f = build(&l, 0, b);
            let o = process(&mut t, &l, 0, &f);
            assert!(matches!(o.verdict, Verdict::Malformed(_)), "{n}: {o:?}");
            assert_eq!(o.frame, f);
            assert_eq!(t.bad_count, n as u64 + 1);
        }
        assert!(t.cells.iter().flatten().all(|c| *c == (0, 0)));
    }

    #[test]
    fn other_frames_pass_uncounted() {
        let (mut t, l) = setup();
        let f = build(&l, 0, &l.encode(&shim_of(&l, 2, true, true)));
        let mut others = vec![f[..SHIM_AT - 1].to_vec()];
        for (at, v) in [(12, 0x86), (ETH_LEN, 0x46), (ETH_LEN + 9, 6), (36, 0)] {
            let mut g = f.clone();
            g[at] = v;
            others.push(g);
        }
        for g in &others {
            let o = process(&mut t, &l, 0, g);
            assert_eq!(o.verdict, Verdict::NotShim);
            assert_eq!(&o.frame, g);
        }
        assert_eq!(t.bad_count, 0);
    }
}
