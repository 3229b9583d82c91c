//! STF packet tests (p4c's format: `packet <port> <hex>`, `expect <port> <hex>[$]`,
//! `check_counter <name>(<index>) packets == <n>`, `#` comments), generated from golden-model
//! scenarios and played back against the golden model.
//!
//! The same files run on BMv2 (`make p4-check`, through p4c's `run-bmv2-test.py`) against the
//! v1model program compiled with `-DLT_TEST_CLOCK`: the Ethernet source address is the
//! ingress time, ns, so each packet's slot is fixed by the file.
//!
//! Semantics of a file, as p4c's BMv2 runner has them: the packets go in, in order; on each
//! port the packets that come out must be the `expect` lines for that port, in order, as many
//! (a `*` nibble matches anything; a trailing `$` also requires the exact length, otherwise the
//! expectation is a prefix). `check_counter` lines are checked at their place in the file by
//! [`play`]; p4c's BMv2 runner does not act on them (its `run-bmv2-test.py` passes them over).

use golden_model::load_table::frame::{self, build, test_clock, FrameOut, Verdict};
use golden_model::load_table::lazy::LazyLoadTable;
use golden_model::rng::SplitMix64;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use strack_config::wire::{LoadShim, Shim, SHIM_VERSION};
use strack_config::Config;

/// One line of an STF file that means something.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Packet {
        port: u32,
        bytes: Vec<u8>,
    },
    /// `nibbles`: `None` is a `*`; `exact`: the line ended with `$`.
    Expect {
        port: u32,
        nibbles: Vec<Option<u8>>,
        exact: bool,
    },
    CheckCounter {
        name: String,
        index: u32,
        packets: u64,
    },
}

/// A parsed STF file: its lines with their line numbers (from 1), and the load table it was
/// written for when its header says (`strackgen stf write` records it).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stf {
    pub lines: Vec<(usize, Line)>,
    pub made_for: Option<MadeFor>,
}

/// The header's record of the config an STF file was written for: the load table's
/// parameters the expectations depend on, and the whole config's SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MadeFor {
    /// `links = 64, slots = 10, load_bits = 16, slot_log2_ns = 26, udp_port = 51966`.
    pub params: String,
    pub sha256: Option<String>,
}

/// The parameters line of an STF header for `cfg` (what the expectations depend on).
pub fn params_of(cfg: &Config) -> String {
    let t = &cfg.load_table;
    format!(
        "links = {}, slots = {}, load_bits = {}, slot_log2_ns = {}, udp_port = {}",
        t.links, t.slots, t.load_bits, t.slot_log2_ns, t.udp_port
    )
}

/// Refuses an STF file written for a load table other than `cfg`'s, naming both. A file
/// without the record (written by hand) is taken as it is. Only the load table's parameters
/// decide: a config that differs elsewhere (the NIC's keys) plays the same packets.
pub fn check_made_for(cfg: &Config, stf: &Stf) -> Result<(), String> {
    let Some(m) = &stf.made_for else {
        return Ok(());
    };
    let ours = params_of(cfg);
    if m.params == ours {
        return Ok(());
    }
    Err(format!(
        "written for another config: {} (config SHA-256 {}); the config given has {} (config \
         SHA-256 {}); regenerate it with `strackgen stf write --config ...`",
        m.params,
        m.sha256.as_deref().unwrap_or("not recorded"),
        ours,
        cfg.sha256()
    ))
}

/// Parses STF text; errors name the line.
pub fn parse(text: &str) -> Result<Stf, String> {
    let mut stf = Stf::default();
    let mut sha = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(c) = raw.trim().strip_prefix('#') {
            let c = c.trim();
            if let Some(p) = c.strip_prefix("links = ") {
                stf.made_for = Some(MadeFor {
                    params: format!("links = {}", p.trim_end_matches('.')),
                    sha256: None,
                });
            } else if let Some(h) = c.strip_prefix("config SHA-256 ") {
                sha = h.split_whitespace().next().map(String::from);
            }
        }
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("").to_ascii_lowercase();
        let err = |what: &str| format!("line {n}: {what}: `{raw}`");
        match cmd.as_str() {
            "packet" | "expect" => {
                let port = words
                    .next()
                    .and_then(|p| p.parse::<u32>().ok())
                    .ok_or_else(|| err("expected a port number"))?;
                let data: String = words.collect();
                let (data, exact) = match data.strip_suffix('$') {
                    Some(d) => (d.to_string(), true),
                    None => (data, false),
                };
                let mut nibbles = Vec::with_capacity(data.len());
                for c in data.chars() {
                    nibbles.push(match c {
                        '*' if cmd == "expect" => None,
                        c => Some(
                            c.to_digit(16)
                                .ok_or_else(|| err(&format!("`{c}` is not a hex digit")))?
                                as u8,
                        ),
                    });
                }
                if cmd == "packet" {
                    if nibbles.len() % 2 != 0 || exact {
                        return Err(err("a packet is whole bytes of hex, no `$`"));
                    }
                    let bytes = nibbles
                        .chunks(2)
                        .map(|c| c[0].unwrap_or(0) << 4 | c[1].unwrap_or(0))
                        .collect();
                    stf.lines.push((n, Line::Packet { port, bytes }));
                } else {
                    stf.lines.push((
                        n,
                        Line::Expect {
                            port,
                            nibbles,
                            exact,
                        },
                    ));
                }
            }
            "check_counter" => {
                // check_counter NAME(INDEX) packets == N
                let rest: String = words.collect::<Vec<_>>().join(" ");
                let (name, rest) = rest
                    .split_once('(')
                    .ok_or_else(|| err("expected NAME(INDEX)"))?;
                let (index, rest) = rest
                    .split_once(')')
                    .ok_or_else(|| err("expected NAME(INDEX)"))?;
                let index = index
                    .trim()
                    .parse()
                    .map_err(|_| err("the counter index is not a number"))?;
                let cond: Vec<&str> = rest.split_whitespace().collect();
                let packets = match cond.as_slice() {
                    ["packets", "==", v] => v.parse().map_err(|_| err("expected a count"))?,
                    _ => return Err(err("only `packets == N` is supported")),
                };
                stf.lines.push((
                    n,
                    Line::CheckCounter {
                        name: name.trim().to_string(),
                        index,
                        packets,
                    },
                ));
            }
            _ => return Err(err(&format!("unknown command `{cmd}`"))),
        }
    }
    if let (Some(m), Some(h)) = (&mut stf.made_for, sha) {
        m.sha256 = Some(h);
    }
    if stf.lines.is_empty() {
        return Err("no packet, expect or check_counter line: an empty test".into());
    }
    Ok(stf)
}

/// An `expect` line: its number, its nibbles, whether it ended with `$`.
type Expected = (usize, Vec<Option<u8>>, bool);

/// What [`play`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Played {
    pub packets: usize,
    pub expects: usize,
    pub counters: usize,
}

/// Plays `stf` against the golden model (a fresh lazy table for `cfg`, frames through
/// [`frame::process`], the clock from each frame's Ethernet source address, every packet back
/// out of its port). Checks every expectation and counter; the first failure is the error,
/// with its line, what was expected and what the model gave.
pub fn play(cfg: &Config, stf: &Stf) -> Result<Played, String> {
    check_made_for(cfg, stf)?;
    let mut sw = ModelSwitch::new(cfg);
    let mut out: BTreeMap<u32, Vec<Vec<u8>>> = BTreeMap::new();
    let mut expected: BTreeMap<u32, Vec<Expected>> = BTreeMap::new();
    let mut played = Played::default();
    for (n, line) in &stf.lines {
        match line {
            Line::Packet { port, bytes } => {
                out.entry(*port).or_default().push(sw.process(bytes).frame);
                played.packets += 1;
            }
            Line::Expect {
                port,
                nibbles,
                exact,
            } => {
                expected
                    .entry(*port)
                    .or_default()
                    .push((*n, nibbles.clone(), *exact));
                played.expects += 1;
            }
            Line::CheckCounter {
                name,
                index,
                packets,
            } => {
                let have = sw
                    .counters()
                    .into_iter()
                    .find(|(c, i, _)| c == name && i == index)
                    .map(|(_, _, v)| v)
                    .ok_or_else(|| {
                        format!(
                            "line {n}: no counter {name}({index}); the program has lt_bad(0) and \
                             lt_saturations(0..{})",
                            sw.shim.slots()
                        )
                    })?;
                if have != *packets {
                    return Err(format!(
                        "line {n}: counter {name}({index}): expected {packets} packets, the \
                         model counted {have}"
                    ));
                }
                played.counters += 1;
            }
        }
    }
    let ports: std::collections::BTreeSet<u32> =
        out.keys().chain(expected.keys()).copied().collect();
    for port in ports {
        let got = out.get(&port).map_or(&[][..], |v| v.as_slice());
        let want = expected.get(&port).map_or(&[][..], |v| v.as_slice());
        if got.len() != want.len() {
            return Err(format!(
                "port {port}: {} packets expected, the model sent {}",
                want.len(),
                got.len()
            ));
        }
        for (i, ((n, nibbles, exact), frame)) in want.iter().zip(got).enumerate() {
            let have: Vec<u8> = frame.iter().flat_map(|b| [b >> 4, b & 15]).collect();
            let short = have.len() < nibbles.len();
            let long = *exact && have.len() > nibbles.len();
            let differ = nibbles
                .iter()
                .zip(&have)
                .position(|(w, h)| w.is_some_and(|w| w != *h));
            if short || long || differ.is_some() {
                let at = if short || long {
                    format!(
                        " in length: {} hex digits expected{}, the model's has {}",
                        nibbles.len(),
                        if *exact { "" } else { " or more" },
                        have.len()
                    )
                } else {
                    format!(": {}", field_diff(&sw.shim, nibbles, &have))
                };
                return Err(format!(
                    "line {n}: packet {i} on port {port} differs{at}\n  expected {}\n  model    {}",
                    nibbles
                        .iter()
                        .map(|x| x.map_or('*', |v| char::from_digit(v as u32, 16).unwrap()))
                        .collect::<String>(),
                    hex(frame, false)
                ));
            }
        }
    }
    Ok(played)
}

/// The frame's fields, `(name, first bit, bits)` from the start of the frame, MSB first:
/// Ethernet, IPv4 (no options), UDP, then the shim's fields (docs/wire-format.md).
fn frame_fields(shim: &LoadShim) -> Vec<(String, usize, usize)> {
    let mut f: Vec<(String, usize, usize)> = [
        ("eth.dst", 48),
        ("eth.src (the test clock)", 48),
        ("eth.type", 16),
        ("ipv4.version", 4),
        ("ipv4.ihl", 4),
        ("ipv4.tos", 8),
        ("ipv4.total_length", 16),
        ("ipv4.id", 16),
        ("ipv4.flags_fragment", 16),
        ("ipv4.ttl", 8),
        ("ipv4.protocol", 8),
        ("ipv4.checksum", 16),
        ("ipv4.src", 32),
        ("ipv4.dst", 32),
        ("udp.src_port", 16),
        ("udp.dst_port", 16),
        ("udp.length", 16),
        ("udp.checksum", 16),
    ]
    .iter()
    .scan(0, |at, (name, bits)| {
        let f = (name.to_string(), *at, *bits);
        *at += bits;
        Some(f)
    })
    .collect();
    let mut at = frame::SHIM_AT * 8;
    for field in shim.fields() {
        f.push((format!("shim.{}", field.name()), at, field.bits as usize));
        at += field.bits as usize;
    }
    f
}

/// The fields where the model's frame differs from the expectation (its `*` digits match
/// anything), each with both values; bytes past the shim are the payload's.
fn field_diff(shim: &LoadShim, want: &[Option<u8>], have: &[u8]) -> String {
    let bit = |nibbles: &dyn Fn(usize) -> Option<u8>, b: usize| {
        nibbles(b / 4).map(|v| (v >> (3 - b % 4)) & 1)
    };
    let wanted = |i: usize| want.get(i).copied().flatten();
    let had = |i: usize| have.get(i).copied();
    let mut fields = frame_fields(shim);
    let end = fields.last().map_or(0, |(_, a, b)| a + b);
    for byte in (end / 8)..want.len().max(have.len()).div_ceil(2) {
        fields.push((format!("payload byte {}", byte - end / 8), byte * 8, 8));
    }
    let mut diffs = Vec::new();
    for (name, at, bits) in fields {
        let (mut w, mut h, mut differs, mut wild) = (0u64, 0u64, false, false);
        for b in at..at + bits {
            let (x, y) = (bit(&wanted, b), bit(&had, b));
            match x {
                Some(x) => {
                    differs |= Some(x) != y;
                    w = w << 1 | x as u64;
                }
                None => {
                    wild = true;
                    w <<= 1;
                }
            }
            h = h << 1 | y.unwrap_or(0) as u64;
        }
        if differs {
            diffs.push(format!(
                "{name} expected {w:#x}{} model {h:#x}",
                if wild { " (with * digits)" } else { "" }
            ));
        }
    }
    if diffs.is_empty() {
        "(no field differs)".into()
    } else {
        diffs.join("; ")
    }
}

fn hex(b: &[u8], grouped: bool) -> String {
    let mut s = String::with_capacity(b.len() * 3);
    for (i, x) in b.iter().enumerate() {
        // Space between the headers: Ethernet, IPv4, UDP, shim.
        if grouped
            && [
                frame::ETH_LEN,
                frame::ETH_LEN + frame::IPV4_LEN,
                frame::SHIM_AT,
            ]
            .contains(&i)
        {
            s.push(' ');
        }
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// The golden model as a switch running the P4 program built with `-DLT_TEST_CLOCK`: frames
/// through [`frame::process`] with the clock from each frame's Ethernet source address, and the
/// program's counters.
#[derive(Clone)]
struct ModelSwitch {
    shim: LoadShim,
    table: LazyLoadTable,
    /// `lt_saturations`: saturated elements per slot `k`.
    sat: Vec<u64>,
}

impl ModelSwitch {
    fn new(cfg: &Config) -> Self {
        ModelSwitch {
            shim: LoadShim::new(cfg),
            table: LazyLoadTable::from_config(cfg),
            sat: vec![0; cfg.load_table.slots as usize],
        }
    }

    /// One frame in; what leaves.
    fn process(&mut self, f: &[u8]) -> FrameOut {
        let o = frame::process(&mut self.table, &self.shim, test_clock(f), f);
        if let Verdict::Applied(a) = &o.verdict {
            for (k, s) in self.sat.iter_mut().enumerate() {
                *s += (a.sat_mask >> k) as u64 & 1;
            }
        }
        o
    }

    /// The program's packet counters: name, index, count.
    fn counters(&self) -> Vec<(&'static str, u32, u64)> {
        let mut c = vec![("lt_bad", 0, self.table.bad_count)];
        c.extend(
            self.sat
                .iter()
                .enumerate()
                .map(|(k, s)| ("lt_saturations", k as u32, *s)),
        );
        c
    }
}

/// Builds a scenario's STF text: comments, packets (with the model's expectations) and counter
/// checks (with the model's counts).
struct Writer {
    sw: ModelSwitch,
    text: String,
    port: u32,
    slot_log2_ns: u32,
}

impl Writer {
    fn new(cfg: &Config, title: &str) -> Self {
        let t = &cfg.load_table;
        let mut text = String::new();
        let _ = writeln!(
            text,
            "# {title}\n#\n# Generated by `strackgen stf write` from the golden model (p4/src/stf.rs) for\n\
             # {}.\n\
             # config SHA-256 {} (`strackgen stf run` refuses it under another load table)\n\
             # The Ethernet source address is the ingress time in ns (-DLT_TEST_CLOCK).\n\
             # Frames: Ethernet | IPv4 | UDP | shim (docs/wire-format.md).",
            params_of(cfg),
            cfg.sha256()
        );
        Writer {
            sw: ModelSwitch::new(cfg),
            text,
            port: 0,
            slot_log2_ns: t.slot_log2_ns,
        }
    }

    fn comment(&mut self, c: &str) {
        let _ = write!(self.text, "\n# {c}\n");
    }

    /// The time of `offset` ns into slot number `slot`.
    fn at(&self, slot: u64, offset: u64) -> u64 {
        (slot << self.slot_log2_ns | offset) & ((1 << strack_config::LT_TIMESTAMP_BITS) - 1)
    }

    /// A frame as it is (its clock in its Ethernet source address): a `packet` line, and an
    /// `expect` line with what the model sends out.
    fn raw(&mut self, f: &[u8]) -> FrameOut {
        let o = self.sw.process(f);
        let _ = writeln!(
            self.text,
            "packet {p} {}\nexpect {p} {}$",
            hex(f, true),
            hex(&o.frame, true),
            p = self.port
        );
        o
    }

    /// A test frame at `clock` carrying `body`.
    fn frame(&mut self, clock: u64, body: &[u8]) -> FrameOut {
        let f = build(&self.sw.shim, clock, body);
        self.raw(&f)
    }

    fn shim(&self, link: u16, update: Option<&[i64]>, feedback: Option<&[u64]>) -> Shim {
        let k = self.sw.shim.slots() as usize;
        Shim {
            version: SHIM_VERSION,
            update: update.is_some(),
            feedback: feedback.is_some(),
            reserved: 0,
            slots: k as u8,
            link,
            deltas: update.map_or(vec![0; k], <[i64]>::to_vec),
            path_load: feedback.map_or(vec![0; k], <[u64]>::to_vec),
            pad: 0,
        }
    }

    fn packet(&mut self, clock: u64, s: &Shim) -> FrameOut {
        let body = self.sw.shim.encode(s);
        self.frame(clock, &body)
    }

    fn update(&mut self, clock: u64, link: u16, deltas: &[i64]) {
        let s = self.shim(link, Some(deltas), None);
        self.packet(clock, &s);
    }

    fn feedback(&mut self, clock: u64, link: u16, path_load: &[u64]) {
        let s = self.shim(link, None, Some(path_load));
        self.packet(clock, &s);
    }

    /// The file: what was written, then every counter's check.
    fn finish(mut self) -> String {
        for (name, i, v) in self.sw.counters() {
            let _ = writeln!(self.text, "check_counter {name}({i}) packets == {v}");
        }
        self.text
    }

    /// Link `n` of a switch with at least `n + 1` links; on a smaller one, `n mod links` (so a
    /// scenario tests the same things on any config).
    fn link(&self, n: u32) -> u16 {
        (n % self.sw.shim.links()) as u16
    }

    /// `K` values from a function of the slot index.
    fn row<T>(&self, f: impl Fn(usize) -> T) -> Vec<T> {
        (0..self.sw.shim.slots() as usize).map(f).collect()
    }
}

/// The scenarios, by file name (`p4/tests/<name>.stf`), for `cfg`.
pub fn scenarios(cfg: &Config) -> Vec<(&'static str, String)> {
    vec![
        ("updates", updates(cfg)),
        ("feedback", feedback(cfg)),
        ("slot_expiry", slot_expiry(cfg)),
        ("saturation", saturation(cfg)),
        ("bad_headers", bad_headers(cfg)),
        ("random", random(cfg)),
    ]
}

fn updates(cfg: &Config) -> String {
    let mut w = Writer::new(
        cfg,
        "Schedule updates: deltas add into the egress link's row",
    );
    let t = w.at(1000, 0);
    let links = w.sw.shim.links() as u16;
    let (a, b) = (w.link(1), w.link(4));
    w.comment("Paper Fig. 5: other flows' plans on links 1 and 4, then one flow's plan on both.");
    let other_a = w.row(|k| [10, 10, 30][k % 3]);
    let other_b = w.row(|k| [0, 40, 5][k % 3]);
    let flow = w.row(|k| [5, 20, 15, 10][k % 4]);
    w.update(t, a, &other_a);
    w.update(t + 1, b, &other_b);
    w.update(t + 2, a, &flow);
    w.update(t + 3, b, &flow);
    w.comment("Feedback reads the sums; a packet that updates and asks reads its own update.");
    w.feedback(t + 4, a, &vec![0; flow.len()]);
    let both = w.shim(b, Some(&w.row(|k| k as i64)), Some(&w.row(|_| 1000)));
    w.packet(t + 5, &both);
    w.comment("The flow finishes: it announces the negation of its plan, on both links.");
    let neg: Vec<i64> = flow.iter().map(|d| -d).collect();
    w.update(t + 6, a, &neg);
    w.update(t + 7, b, &neg);
    w.feedback(t + 8, a, &vec![0; flow.len()]);
    w.feedback(t + 9, b, &vec![0; flow.len()]);
    w.comment("The last link and an update-only packet (forwarded as it came).");
    w.update(t + 10, links - 1, &w.row(|k| 100 * k as i64 + 1));
    w.feedback(t + 11, links - 1, &vec![0; flow.len()]);
    w.finish()
}

fn feedback(cfg: &Config) -> String {
    let mut w = Writer::new(
        cfg,
        "Feedback: the path-load field sums the rows along a path",
    );
    let t = w.at(77, 12345);
    let k = w.sw.shim.slots() as usize;
    let path: Vec<u16> = [0, 2, 5, 3].iter().map(|l| w.link(*l)).collect();
    w.comment("Four links with different plans.");
    for (i, l) in path.iter().enumerate() {
        let d = w.row(|s| ((i + 1) * 100 + s) as i64);
        w.update(t + i as u64, *l, &d);
    }
    w.comment("A packet crossing the four links: each hop adds its row into the field.");
    // Hop by hop: the next hop receives what the previous one sent.
    let mut field = vec![0u64; k];
    for (i, l) in path.iter().enumerate() {
        let s = w.shim(*l, None, Some(&field));
        let o = w.packet(t + 10 + i as u64, &s);
        // What the model wrote back becomes the next hop's input.
        field =
            w.sw.shim
                .decode(&o.frame[frame::SHIM_AT..])
                .expect("whole")
                .path_load;
    }
    w.comment("Feedback on a link nobody announced on adds zeros (the UDP checksum still clears).");
    let empty = w.link(7);
    w.feedback(t + 20, empty, &w.row(|s| s as u64 * 3));
    w.finish()
}

fn slot_expiry(cfg: &Config) -> String {
    let mut w = Writer::new(
        cfg,
        "Slot expiry: slots end with time; a stale cell reads as zero (lazy clear)",
    );
    let k = w.sw.shim.slots() as u64;
    let ring = w.sw.table.ring();
    let d = w.row(|s| s as i64 + 1);
    let zeros = vec![0; k as usize];
    let (l3, l9, l11) = (w.link(3), w.link(9), w.link(11));
    w.comment("Slot 2000: an announcement, read back in the same slot, later in it.");
    w.update(w.at(2000, 0), l3, &d);
    w.feedback(w.at(2000, 999), l3, &zeros);
    w.comment("Each next slot drops one element from the front.");
    for s in 1..=3 {
        w.feedback(w.at(2000 + s, 5), l3, &zeros);
    }
    w.comment("K slots on, everything has ended.");
    w.feedback(w.at(2000 + k, 0), l3, &zeros);
    w.comment("Packets in slots whose windows wrap around the register ring (n near R).");
    let base = (3000 / ring) * ring + ring - 2;
    w.update(w.at(base, 0), l9, &d);
    w.feedback(w.at(base + 1, 0), l9, &zeros);
    w.update(w.at(base + 3, 0), l9, &d);
    w.feedback(w.at(base + 3, 1), l9, &zeros);
    w.comment("A gap of exactly R slots: the same registers, the next epoch, so zeros.");
    w.feedback(w.at(base + 3 + ring, 0), l9, &zeros);
    w.comment("A long gap (100 R slots), then new data on the same cells.");
    w.update(w.at(base + 103 * ring, 7), l9, &d);
    w.feedback(w.at(base + 103 * ring, 8), l9, &zeros);
    w.comment("The 48-bit timestamp wraps: the last slot before the wrap, then slot 0 after it.");
    let last = (1u64 << (strack_config::LT_TIMESTAMP_BITS - w.slot_log2_ns)) - 1;
    w.update(w.at(last, 0), l11, &d);
    w.feedback(w.at(0, 0), l11, &zeros);
    w.feedback(w.at(1, 0), l11, &zeros);
    w.finish()
}

fn saturation(cfg: &Config) -> String {
    let mut w = Writer::new(
        cfg,
        "Saturation: loads stop at 0 and at their maximum; counted",
    );
    let t = w.at(500, 0);
    let l = w.sw.shim.load_bits();
    let (lo, hi) = (-(1i64 << l), (1i64 << l) - 1);
    let zeros = vec![0; w.sw.shim.slots() as usize];
    let (l6, l8) = (w.link(6), w.link(8));
    w.comment("Up to the maximum in two steps; the second overflows in the even slots.");
    w.update(t, l6, &w.row(|_| hi - 5));
    w.update(t + 1, l6, &w.row(|s| if s % 2 == 0 { 10 } else { 5 }));
    w.feedback(t + 2, l6, &zeros);
    w.comment("The most negative delta on a full row and on an empty one.");
    w.update(t + 3, l6, &w.row(|s| if s < 3 { lo } else { 0 }));
    w.update(t + 4, l8, &w.row(|_| lo));
    w.update(t + 5, l8, &w.row(|_| -1));
    w.feedback(t + 6, l8, &zeros);
    w.comment("The path-load field saturates at its own maximum (not counted as a saturation).");
    let pmax = (1u64 << w.sw.shim.path_load_bits()) - 1;
    w.feedback(t + 7, l6, &w.row(|s| pmax - s as u64));
    w.finish()
}

fn bad_headers(cfg: &Config) -> String {
    let mut w = Writer::new(
        cfg,
        "Malformed shims are forwarded untouched and counted; other frames pass uncounted",
    );
    let t = w.at(321, 0);
    let k = w.sw.shim.slots() as usize;
    let links = w.sw.shim.links();
    let d = w.row(|s| s as i64 + 1);
    w.comment("A good announcement first.");
    let l2 = w.link(2);
    w.update(t, l2, &d);
    let good = w.shim(l2, Some(&vec![1000; k]), Some(&vec![0; k]));
    let mut bads: Vec<(&str, Shim)> = Vec::new();
    let mut s = good.clone();
    s.version = SHIM_VERSION + 1;
    bads.push(("version 2", s));
    let mut s = good.clone();
    s.reserved = 1;
    bads.push(("a reserved bit set", s));
    let mut s = good.clone();
    s.slots = (k as u8).wrapping_sub(1);
    bads.push(("the sender's K one less than the switch's", s));
    if links < 65536 {
        let mut s = good.clone();
        s.link = links as u16;
        bads.push(("link = links, one past the last", s));
    }
    let mut s = good.clone();
    s.link = u16::MAX;
    bads.push(("link 65535", s));
    for (i, (what, s)) in bads.iter().enumerate() {
        w.comment(&format!("Malformed: {what}."));
        w.packet(t + 1 + i as u64, s);
    }
    w.comment("Malformed: the shim cut one byte short.");
    let body = w.sw.shim.encode(&good);
    w.frame(t + 10, &body[..body.len() - 1]);
    w.comment("Not shim frames: another UDP port, TCP, IPv4 with options, ARP.");
    let f = build(&w.sw.shim, t + 11, &body);
    let mut others = Vec::new();
    let mut g = f.clone();
    g[frame::ETH_LEN + frame::IPV4_LEN + 3] ^= 1;
    others.push(g);
    let mut g = f.clone();
    g[frame::ETH_LEN + 9] = 6;
    others.push(g);
    let mut g = f.clone();
    g[frame::ETH_LEN] = 0x46;
    others.push(g);
    let mut g = f.clone();
    g[12..14].copy_from_slice(&[0x08, 0x06]);
    others.push(g);
    for g in others {
        let o = w.raw(&g);
        debug_assert_eq!(o.verdict, Verdict::NotShim);
    }
    w.comment("The table was not touched: the good announcement reads back alone.");
    w.feedback(t + 12, l2, &vec![0; k]);
    w.finish()
}

fn random(cfg: &Config) -> String {
    let mut w = Writer::new(
        cfg,
        "Random traffic: 300 packets on 4 links, slot gaps of 0 to 2K (seeded, SplitMix64(6))",
    );
    let mut rng = SplitMix64::new(6);
    let k = w.sw.shim.slots() as usize;
    let l = w.sw.shim.load_bits();
    let links = (w.sw.shim.links() as u64).min(4);
    let mut slot = 40_000u64;
    for _ in 0..300 {
        slot += match rng.next_u64() % 8 {
            0..=4 => 0,
            5 | 6 => 1,
            _ => rng.next_u64() % (2 * k as u64 + 1),
        };
        let clock = w.at(slot, rng.next_u64() % 1000);
        let link = (rng.next_u64() % links) as u16;
        let delta = |r: &mut SplitMix64| -> i64 {
            match r.next_u64() % 10 {
                0 => -(1i64 << l),
                1 => (1i64 << l) - 1,
                2..=5 => (r.next_u64() % 2001) as i64 - 1000,
                _ => (r.next_u64() % 9) as i64 - 4,
            }
        };
        let update = !rng.next_u64().is_multiple_of(3);
        let feedback = rng.next_u64().is_multiple_of(2);
        let deltas: Vec<i64> = (0..k).map(|_| delta(&mut rng)).collect();
        let pl: Vec<u64> = (0..k)
            .map(|_| rng.next_u64() % (1 << w.sw.shim.path_load_bits()))
            .collect();
        let mut s = w.shim(
            link,
            update.then_some(&deltas[..]),
            feedback.then_some(&pl[..]),
        );
        // Deltas and path loads ride along even when their flag is off.
        s.deltas = deltas;
        s.path_load = pl;
        w.packet(clock, &s);
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_packets_expects_and_counters() {
        // `expect <port>` alone: some packet, any content (p4c's meaning).
        let s = parse("expect 3\n").unwrap();
        assert_eq!(
            s.lines,
            vec![(
                1,
                Line::Expect {
                    port: 3,
                    nibbles: vec![],
                    exact: false
                }
            )]
        );
        let s = parse("packet 1 0a 0B # x\nexpect 2 0* 0b$\ncheck_counter lt_bad(0) packets == 3")
            .unwrap();
        assert_eq!(
            s.lines,
            vec![
                (
                    1,
                    Line::Packet {
                        port: 1,
                        bytes: vec![10, 11]
                    }
                ),
                (
                    2,
                    Line::Expect {
                        port: 2,
                        nibbles: vec![Some(0), None, Some(0), Some(11)],
                        exact: true
                    }
                ),
                (
                    3,
                    Line::CheckCounter {
                        name: "lt_bad".into(),
                        index: 0,
                        packets: 3
                    }
                ),
            ]
        );
        assert_eq!(
            parse("packet 1 0g").unwrap_err(),
            "line 1: `g` is not a hex digit: `packet 1 0g`"
        );
    }

    #[test]
    fn every_scenario_plays_back_against_the_model() {
        let cfg = Config::default();
        for (name, text) in scenarios(&cfg) {
            let stf = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let p = play(&cfg, &stf).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(p.packets > 0 && p.packets == p.expects, "{name}: {p:?}");
            assert!(p.counters > 0, "{name}");
        }
    }

    #[test]
    fn a_file_for_another_load_table_is_refused_naming_both_and_an_empty_one_too() {
        let cfg = Config::default();
        let stf = parse(&updates(&cfg)).unwrap();
        let m = stf.made_for.clone().expect("the header's record");
        assert_eq!(m.params, params_of(&cfg));
        assert_eq!(m.sha256.as_deref(), Some(cfg.sha256().as_str()));
        let mut small = cfg.clone();
        small.load_table.links = 4;
        let e = play(&small, &stf).unwrap_err();
        assert!(
            e.contains("links = 64, slots = 10") && e.contains("links = 4, slots = 10"),
            "{e}"
        );
        // A config that differs only outside the load table plays it.
        let mut other = cfg.clone();
        other.nic.connections = 4;
        assert!(play(&other, &stf).is_ok());
        assert!(parse("# only a comment\n\n")
            .unwrap_err()
            .contains("an empty test"));
    }

    #[test]
    fn play_reports_the_first_difference_with_its_line() {
        let cfg = Config::default();
        let text = updates(&cfg);
        // Change one nibble of the first expectation's shim (its link byte).
        let stf = parse(&text).unwrap();
        let first = stf
            .lines
            .iter()
            .position(|(_, l)| matches!(l, Line::Expect { .. }))
            .unwrap();
        let mut broken = stf.clone();
        let (n, line) = &mut broken.lines[first];
        let Line::Expect { nibbles, .. } = line else {
            unreachable!("found as an expect line")
        };
        let at = 2 * (frame::SHIM_AT + 3);
        nibbles[at] = Some(nibbles[at].unwrap() ^ 1);
        let n = *n;
        let e = play(&cfg, &broken).unwrap_err();
        // Named by its field, with both values.
        assert!(
            e.starts_with(&format!(
                "line {n}: packet 0 on port 0 differs: shim.link expected 0x11 model 0x1\n"
            )),
            "{e}"
        );
        // A wrong counter.
        let wrong = text.replace(
            "check_counter lt_bad(0) packets == 0",
            "check_counter lt_bad(0) packets == 1",
        );
        let e = play(&cfg, &parse(&wrong).unwrap()).unwrap_err();
        assert!(
            e.contains("counter lt_bad(0): expected 1 packets, the model counted 0"),
            "{e}"
        );
        // A missing expectation.
        let mut fewer = stf.clone();
        let last = fewer
            .lines
            .iter()
            .rposition(|(_, l)| matches!(l, Line::Expect { .. }))
            .unwrap();
        fewer.lines.remove(last);
        let e = play(&cfg, &fewer).unwrap_err();
        assert!(
            e.contains("port 0: 11 packets expected, the model sent 12"),
            "{e}"
        );
    }

    #[test]
    fn the_scenarios_hit_what_the_issue_lists() {
        let cfg = Config::default();
        let all: BTreeMap<_, _> = scenarios(&cfg).into_iter().collect();
        // Saturations happened and were counted; malformed shims were counted.
        assert!(
            all["saturation"].contains("check_counter lt_saturations(0) packets == 4"),
            "{}",
            all["saturation"]
        );
        assert!(
            all["bad_headers"].contains("check_counter lt_bad(0) packets == 6"),
            "{}",
            all["bad_headers"]
        );
        assert!(
            all["random"]
                .lines()
                .filter(|l| l.starts_with("packet"))
                .count()
                == 300
        );
    }
}
