//! Synthesizable RTL of the STrack blocks, written with `rust-hdl` 0.46 and kept behind this
//! crate's API: the rest of the project asks for a [`Block`] (Verilog text, ports, latency)
//! by name and [`strack_config::Config`], and never touches rust-hdl types.
//!
//! Widths that the config sets (`max_paths`, ...) are const generics in rust-hdl, so each
//! block is instantiated for every legal value by a `match` on the config.

pub mod context_pipe;
pub mod context_pipe_hold;
pub mod context_ram;
pub mod cwnd_unit;
pub mod entropy_bitmap;
pub mod first_set;
pub mod free_search;
#[cfg(test)]
mod gate;
pub mod init_dff;
pub mod load_table;
pub mod netlist;
pub mod nic;
pub mod nic_cwnd;
pub mod nic_entropy;
pub mod nic_rx;
pub mod nic_sender;
pub mod nic_tx;
pub mod seq;
pub mod tx_sched;
pub mod widgets;

use rust_hdl::prelude::{generate_verilog, Logic};
use serde::Serialize;
use strack_config::legal;
use strack_config::Config;

/// The cores a user deploys (`strackgen verilog` writes them): the stand-alone STrack blocks,
/// the multi-connection NIC and the load table, in dependency order.
pub const BLOCKS: &[&str] = &["entropy_bitmap", "cwnd_unit", "nic", "load_table"];

/// The multi-connection NIC's parts (`docs/blocks/nic.md`), each generated on its own too:
/// co-simulated and timed as blocks (inside `nic` they are its sub-modules).
pub const NIC_PIPELINES: &[&str] = &[
    "nic_rx",
    "tx_sched",
    "nic_cwnd",
    "nic_entropy",
    "nic_sender",
    "nic_tx",
];

/// Every name [`generate`] takes: the cores, the NIC's pipelines and the check designs.
pub fn design_names() -> impl Iterator<Item = &'static str> {
    BLOCKS
        .iter()
        .chain(NIC_PIPELINES)
        .chain(CHECK_DESIGNS)
        .copied()
}

/// Designs generated only to check a shared part (not cores a user deploys): the NIC's context
/// shell around a check function (`context_pipe::ContextPipeCheck`) at `nic.connections` ids,
/// with a 32-bit record (`context_pipe`, co-simulated) and with a record wider than any of the
/// NIC's (`context_pipe_wide`, 1403 bits, for `make synth`); the hold shell's
/// (`context_pipe_hold::ContextPipeHoldCheck`, 32-bit, checked formally: `docs/formal.md`).
pub const CHECK_DESIGNS: &[&str] = &["context_pipe", "context_pipe_wide", "context_pipe_hold"];

/// A deliberate defect, for the co-simulation's self-test only (proves a broken RTL fails).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `entropy_bitmap`: the ACK's ECN bit sense is flipped.
    EntropyBitmapBitSense,
    /// `entropy_bitmap`: `s_reset` leaves the state (bitmap, round-robin pointer, `next_path`,
    /// the time of the last periodic reset) as it was; the pipeline and the outputs are cleared.
    EntropyBitmapResetKeepsState,
    /// `cwnd_unit`: the fairness increase is never applied.
    CwndUnitNoFairness,
    /// `cwnd_unit`: `acked/w` capped just below 4 (the old rule).
    CwndUnitRatioCap,
    /// `cwnd_unit`: the achievedBDP cut tested as `achievedBDP < floor(max_cwnd / 8)` (the
    /// old rule).
    CwndUnitRoundedBdpTest,
    /// `cwnd_unit`: `s_reset` leaves the window as it was (everything else is reset).
    CwndUnitResetKeepsWindow,
    /// `load_table`: the read-modify-write forwarding is off (back-to-back packets on one link
    /// read a stale row).
    LoadTableNoForward,
    /// `load_table`: `s_reset` does not move the epoch clock on, so the rows written before it
    /// survive it (everything else is reset).
    LoadTableResetKeepsRows,
    /// `context_pipe` and the NIC's pipelines on a context shell (`nic_rx`, `nic_sender`): the
    /// shell's forwarding at this distance (cycles between two events on one id: 1..=4 in
    /// `context_pipe`, 1..=7 in `context_pipe_hold`, `nic_rx` and `nic_sender`, whose shell has
    /// three hold stages)
    /// is off.
    ContextPipeNoForward(u32),
    /// `tx_sched`: a search result is kept when a group is loaded while it is under way (it
    /// searched from a group no longer served).
    TxSchedKeepStale,
    /// `nic_cwnd`: what the event this many cycles ahead on the same connection wrote is not
    /// forwarded (nor read from it: its hit flag is cleared), at distance 1..=17 (13: the
    /// farthest open that makes the window in flight a fresh unit's is not seen).
    NicCwndNoForward(u32),
    /// `nic_entropy`: the hold shell's forwarding at this distance (1..=7) is off.
    NicEntropyNoForward(u32),
    /// `nic_sender`: the reposition made by the event this many cycles ahead on the same
    /// connection (1..=4) is not seen: an event it unsettles is stepped as settled.
    NicSenderSettleBlind(u32),
    /// `nic_sender`: S3's window test by the lost count is inverted, so a settled transmit
    /// opportunity retransmits its lowest lost PSN with the window shut, and not with it open.
    NicSenderRetxInverted,
    /// `nic_entropy`: the loop's bit-0 candidate ignores that the event right ahead on the
    /// connection cleared bit 0 (its scan's start, wrapped).
    NicEntropyNoWrapClear,
    /// `nic_rx`: the head variants' flags for the event behind are picked by the wrong wrap
    /// case (the flags made for a run that did not wrap when it did, and the other way).
    NicRxHeadWrapSwapped,
    /// `nic_rx`: the context shell's copy of H1's pick flag (`h_from_base`) is stored with the
    /// wrong sense, so the receive side's own selects on it (the far test's EPSN, the packet's
    /// own slot bit) take the other source.
    NicRxFromBaseFlipped,
    /// `nic_rx`: the context shell's copy of `!m_hit1` (`m_hit1_n`) is stored with the wrong
    /// sense, so the loop's prepared values are picked from the other source.
    NicRxHit1CopyFlipped,
}

/// Generation options beyond the config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    pub fault: Option<Fault>,
    /// The PSN a connection starts at (the receiver's first EPSN), 24 bits. Connections
    /// usually start at a random PSN; the co-simulation uses it to reach the 2^24 wrap.
    pub initial_psn: u32,
    /// The byte counters a connection of `nic_sender` starts at after the sweep (bytes sent and
    /// bytes received, equal: nothing in flight). Connections start at 0; the co-simulation
    /// uses it to reach the 2^32 wrap.
    pub initial_bytes: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Input,
    Output,
}

/// One port of a generated module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: u32,
}

/// A generated block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Block {
    /// Module name (the block's name).
    pub name: String,
    /// The Verilog-2001 text; the top module is `name`, sub-modules `name__*`.
    #[serde(skip)]
    pub verilog: String,
    /// Clock cycles from an accepted event to its result on `m_*`.
    pub latency: u32,
    /// Events accepted per clock when `m_ready` is held high.
    pub events_per_clock: u32,
    pub ports: Vec<Port>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HdlError {
    #[error("{block}: unknown block (known: {known})")]
    UnknownBlock { block: String, known: String },
    #[error("{block}: {message}")]
    Config { block: String, message: String },
    /// The generator's own fault (not the config's): reported, never written out.
    #[error("{block}: generator fault: {message}")]
    Internal { block: String, message: String },
}

/// Generate block `name` for `cfg`. The config is validated first; errors name the block.
///
/// rust-hdl keeps wide values as `[bool; N]` arrays on the stack, and building the wide blocks
/// (the NIC's per-connection records and context stores hold `rx_window`-bit bitmaps) needs
/// more stack than a default thread has, so generation runs on a thread of its own with a large stack.
pub fn generate(name: &str, cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    const STACK: usize = 1 << 30;
    let (name, cfg, opts) = (name.to_string(), cfg.clone(), opts.clone());
    std::thread::Builder::new()
        .name(format!("hdl-{name}"))
        .stack_size(STACK)
        .spawn(move || generate_here(&name, &cfg, &opts))
        .expect("hdl: cannot start the generator thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// `strackgen_params.vh`: the widths and latencies of the generated cores that the
/// hand-written FPGA wrappers (`fpga/rtl/*_axis.v`, `fpga/rtl/strack_fpga_core.v`) must be built
/// with.
pub fn fpga_params_header(cfg: &Config) -> String {
    format!(
        "// Written by strackgen from the configuration the cores were generated from.\n\
         `ifndef STRACKGEN_PARAMS_VH\n\
         `define STRACKGEN_PARAMS_VH\n\
         `define STRACKGEN_SACK_BITS {}\n\
         `define STRACKGEN_LT_LINKS {}\n\
         `define STRACKGEN_LT_SLOTS {}\n\
         `define STRACKGEN_LT_LOAD_BITS {}\n\
         `define STRACKGEN_LT_LATENCY {}\n\
         `define STRACKGEN_NIC_CONNECTIONS {}\n\
         `define STRACKGEN_NIC_SEND_LATENCY {}\n\
         `define STRACKGEN_NIC_RECV_LATENCY {}\n\
         `define STRACKGEN_CONTEXT_PIPE_LATENCY {}\n\
         `define STRACKGEN_CONTEXT_PIPE_INIT 32'h{:08x}\n\
         `define STRACKGEN_CONTEXT_PIPE_HOLD_LATENCY {}\n\
         `endif\n",
        cfg.sack.sack_bits,
        cfg.load_table.links,
        cfg.load_table.slots,
        cfg.load_table.load_bits,
        load_table::LATENCY,
        cfg.nic.connections,
        nic_tx::LATENCY,
        nic_rx::LATENCY,
        context_pipe::CHECK_LATENCY,
        context_pipe::CHECK_INIT,
        context_pipe_hold::HOLD_CHECK_LATENCY
    )
}

fn generate_here(name: &str, cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    cfg.validate().map_err(|e| HdlError::Config {
        block: name.to_string(),
        message: e.to_string(),
    })?;
    let mut block = match name {
        "entropy_bitmap" => entropy_bitmap_block(cfg, opts),
        "cwnd_unit" => cwnd_unit_block(cfg, opts),
        "load_table" => load_table_block(cfg, opts),
        "context_pipe" | "context_pipe_wide" | "context_pipe_hold" => {
            Ok(context_pipe_block(name, cfg, opts))
        }
        "nic_rx" => nic_rx_block(cfg, opts),
        "tx_sched" => Ok(tx_sched_block(cfg, opts)),
        "nic_cwnd" => nic_cwnd_block(cfg, opts),
        "nic_entropy" => nic_entropy_block(cfg, opts),
        "nic_sender" => nic_sender_block(cfg, opts),
        "nic_tx" => nic_tx_block(cfg, opts),
        "nic" => nic_block(cfg, opts),
        _ => Err(HdlError::UnknownBlock {
            block: name.to_string(),
            known: design_names().collect::<Vec<_>>().join(", "),
        }),
    }?;
    block.verilog = dollar_free(&block.verilog).map_err(|message| HdlError::Internal {
        block: name.to_string(),
        message,
    })?;
    Ok(block)
}

/// rust-hdl names a sub-block's signals in its parent `inst$signal`. A `$` is legal inside a
/// Verilog identifier but not in every downstream tool and waveform viewer, so each `$`
/// inside an identifier becomes `__` (a `$` that starts a name, `$signed` or `$display`, is a
/// system function and stays). A rename that would make two names of one module one is
/// refused.
pub fn dollar_free(verilog: &str) -> Result<String, String> {
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 16);
    let mut module = String::new();
    for line in verilog.split_inclusive('\n') {
        if line.starts_with("module ") && !module.is_empty() {
            out.push_str(&dollar_free_module(&module)?);
            module.clear();
        }
        module.push_str(line);
    }
    out.push_str(&dollar_free_module(&module)?);
    Ok(out)
}

fn dollar_free_module(verilog: &str) -> Result<String, String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 16);
    let mut seen: std::collections::HashMap<String, String> = Default::default();
    let mut word = String::new();
    let mut renamed = String::new();
    let mut flush = |word: &mut String, renamed: &mut String, out: &mut String| {
        if word.contains('$') && !word.starts_with('$') {
            if let Some(other) = seen.insert(renamed.clone(), word.clone()) {
                if other != *word {
                    return Err(format!(
                        "`{other}` and `{word}` would both be named `{renamed}` without `$`"
                    ));
                }
            }
        }
        out.push_str(renamed);
        word.clear();
        renamed.clear();
        Ok(())
    };
    for c in verilog.chars() {
        let inside = !word.is_empty() && !word.starts_with('$');
        if ident(c) || (c == '$' && (word.is_empty() || inside)) {
            word.push(c);
            if c == '$' && inside {
                renamed.push_str("__");
            } else {
                renamed.push(c);
            }
        } else {
            flush(&mut word, &mut renamed, &mut out)?;
            out.push(c);
        }
    }
    flush(&mut word, &mut renamed, &mut out)?;
    // Without `$`, a name may now equal one of the module's that had none.
    let plain: std::collections::HashSet<&str> = verilog
        .split(|c: char| !(ident(c) || c == '$'))
        .filter(|w| !w.contains('$'))
        .collect();
    if let Some((new, old)) = seen.iter().find(|(new, _)| plain.contains(new.as_str())) {
        return Err(format!(
            "`{old}` would be named `{new}` without `$`, a name the module already uses"
        ));
    }
    Ok(out)
}

fn entropy_bitmap_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    use entropy_bitmap::EntropyBitmapRtl as E;
    let reset = cfg.bitmap_reset_interval_ns();
    let flip = opts.fault == Some(Fault::EntropyBitmapBitSense);
    let keep = opts.fault == Some(Fault::EntropyBitmapResetKeepsState);
    let raw = match cfg.entropy_bitmap.max_paths {
        8 => emit(E::<8>::new(reset, flip, keep)),
        16 => emit(E::<16>::new(reset, flip, keep)),
        32 => emit(E::<32>::new(reset, flip, keep)),
        64 => emit(E::<64>::new(reset, flip, keep)),
        128 => emit(E::<128>::new(reset, flip, keep)),
        256 => emit(E::<256>::new(reset, flip, keep)),
        512 => emit(E::<512>::new(reset, flip, keep)),
        1024 => emit(E::<1024>::new(reset, flip, keep)),
        2048 => emit(E::<2048>::new(reset, flip, keep)),
        4096 => emit(E::<4096>::new(reset, flip, keep)),
        other => {
            return Err(HdlError::Config {
                block: "entropy_bitmap".into(),
                message: legal::MAX_PATHS.refusal(other),
            })
        }
    };
    Ok(finish("entropy_bitmap", &raw, entropy_bitmap::LATENCY))
}

fn cwnd_unit_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    use cwnd_unit::CwndUnitRtl as C;
    let mut k = cfg.cwnd_constants();
    if opts.fault == Some(Fault::CwndUnitNoFairness) {
        k.eta_mtu_q = 0;
    }
    let cap = opts.fault == Some(Fault::CwndUnitRatioCap);
    let floor8 = opts.fault == Some(Fault::CwndUnitRoundedBdpTest);
    let keep = opts.fault == Some(Fault::CwndUnitResetKeepsWindow);
    let raw = match cfg.fixed_point.recip_index_bits {
        4 => emit(C::<4>::new(&k, cap, floor8, keep)),
        5 => emit(C::<5>::new(&k, cap, floor8, keep)),
        6 => emit(C::<6>::new(&k, cap, floor8, keep)),
        7 => emit(C::<7>::new(&k, cap, floor8, keep)),
        8 => emit(C::<8>::new(&k, cap, floor8, keep)),
        9 => emit(C::<9>::new(&k, cap, floor8, keep)),
        10 => emit(C::<10>::new(&k, cap, floor8, keep)),
        11 => emit(C::<11>::new(&k, cap, floor8, keep)),
        12 => emit(C::<12>::new(&k, cap, floor8, keep)),
        other => {
            return Err(HdlError::Config {
                block: "cwnd_unit".into(),
                message: legal::RECIP_INDEX_BITS.refusal(other),
            })
        }
    };
    Ok(finish("cwnd_unit", &raw, cwnd_unit::LATENCY))
}

fn nic_cwnd_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    use nic_cwnd::NicCwndRtl as C;
    let k = cfg.cwnd_constants();
    let conns = cfg.nic.connections;
    let nf = match opts.fault {
        Some(Fault::NicCwndNoForward(d)) => Some(d),
        _ => None,
    };
    let raw = match cfg.fixed_point.recip_index_bits {
        4 => emit(C::<4>::new(&k, conns, nf)),
        5 => emit(C::<5>::new(&k, conns, nf)),
        6 => emit(C::<6>::new(&k, conns, nf)),
        7 => emit(C::<7>::new(&k, conns, nf)),
        8 => emit(C::<8>::new(&k, conns, nf)),
        9 => emit(C::<9>::new(&k, conns, nf)),
        10 => emit(C::<10>::new(&k, conns, nf)),
        11 => emit(C::<11>::new(&k, conns, nf)),
        12 => emit(C::<12>::new(&k, conns, nf)),
        other => {
            return Err(HdlError::Config {
                block: "nic_cwnd".into(),
                message: legal::RECIP_INDEX_BITS.refusal(other),
            })
        }
    };
    Ok(finish("nic_cwnd", &raw, nic_cwnd::LATENCY))
}

fn nic_entropy_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    use nic_entropy::{group_width, record_bits, NicEntropyRtl as E};
    let (conns, reset) = (cfg.nic.connections, cfg.bitmap_reset_interval_ns());
    let nf = match opts.fault {
        Some(Fault::NicEntropyNoForward(d)) => Some(d),
        _ => None,
    };
    let nwc = opts.fault == Some(Fault::NicEntropyNoWrapClear);
    macro_rules! make {
        ($N:literal, $L:literal) => {
            emit(E::<
                $N,
                $L,
                { record_bits($N) },
                { group_width($N) },
                { $N / group_width($N) },
            >::new(conns, reset, nf, nwc))
        };
    }
    let raw = match cfg.entropy_bitmap.max_paths {
        8 => make!(8, 3),
        16 => make!(16, 4),
        32 => make!(32, 5),
        64 => make!(64, 6),
        128 => make!(128, 7),
        256 => make!(256, 8),
        512 => make!(512, 9),
        1024 => make!(1024, 10),
        2048 => make!(2048, 11),
        4096 => make!(4096, 12),
        other => {
            return Err(HdlError::Config {
                block: "nic_entropy".into(),
                message: legal::MAX_PATHS.refusal(other),
            })
        }
    };
    Ok(finish("nic_entropy", &raw, nic_entropy::LATENCY))
}

/// Calls `$make!(W, SB)` for the legal `(rx_window, sack_bits)` pair `($w, $sb)` (both are
/// const generics of the SACK blocks, so every legal pair is instantiated); `None` otherwise.
macro_rules! sack_dispatch {
    ($w:expr, $sb:expr, $make:ident) => {
        sack_dispatch!(@pairs $w, $sb, $make;
            (16, [8, 16]),
            (32, [8, 16, 32]),
            (64, [8, 16, 32, 64]),
            (128, [8, 16, 32, 64, 128]),
            (256, [8, 16, 32, 64, 128, 256]),
            (512, [8, 16, 32, 64, 128, 256]),
            (1024, [8, 16, 32, 64, 128, 256]),
            (2048, [8, 16, 32, 64, 128, 256]),
            (4096, [8, 16, 32, 64, 128, 256]))
    };
    (@pairs $w:expr, $sb:expr, $make:ident; $( ($W:literal, [$($SB:literal),*]) ),* ) => {
        match ($w, $sb) {
            $( $( ($W, $SB) => Some($make!($W, $SB)), )* )*
            _ => None,
        }
    };
}

/// The SACK blocks' refusal of an illegal window/segment pair or initial PSN.
fn sack_block(
    block: &str,
    cfg: &Config,
    opts: &Options,
    latency: u32,
    raw: impl FnOnce() -> Option<String>,
) -> Result<Block, HdlError> {
    if opts.initial_psn >= 1 << 24 {
        return Err(HdlError::Config {
            block: block.into(),
            message: format!("initial PSN {}: must be below 2^24", opts.initial_psn),
        });
    }
    let (w, sb) = (cfg.sack.rx_window, cfg.sack.sack_bits);
    let raw = raw().ok_or_else(|| HdlError::Config {
        block: block.into(),
        message: format!(
            "`sack.rx_window` = {w}, `sack.sack_bits` = {sb}: need rx_window {}, sack_bits {} \
             and sack_bits <= rx_window",
            legal::RX_WINDOW.describe(),
            legal::SACK_BITS.describe()
        ),
    })?;
    Ok(finish(block, &raw, latency))
}

fn nic_rx_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    let (mtu, coalesce) = (cfg.network.mtu_bytes, cfg.sack.ack_coalesce_bytes);
    let (conns, psn) = (cfg.nic.connections, opts.initial_psn);
    let fault = opts.fault;
    macro_rules! make {
        ($W:literal, $SB:literal) => {
            emit(nic_rx::NicRxRtl::<
                $W,
                $SB,
                { ($W as usize).trailing_zeros() as usize },
                { nic_rx::record_bits($W) },
            >::new(conns, mtu, coalesce, psn, fault))
        };
    }
    let (w, sb) = (cfg.sack.rx_window, cfg.sack.sack_bits);
    sack_block("nic_rx", cfg, opts, nic_rx::LATENCY, || {
        sack_dispatch!(w, sb, make)
    })
}

fn nic_sender_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    let k = nic_sender::SenderConsts {
        mtu: cfg.network.mtu_bytes,
        mtu_log2: cfg.mtu_log2(),
        net_base_rtt_ns: cfg.network.net_base_rtt_ns,
        probe_interval_ns: cfg.probe_interval_ns(),
        rto_ns: cfg.sack.rto_ns,
        ooo_min_threshold: cfg.sack.ooo_min_threshold,
    };
    let (conns, psn) = (cfg.nic.connections, opts.initial_psn);
    let no_forward = match opts.fault {
        Some(Fault::ContextPipeNoForward(d)) => Some(d),
        _ => None,
    };
    let blind = match opts.fault {
        Some(Fault::NicSenderSettleBlind(d)) => Some(d),
        _ => None,
    };
    macro_rules! make {
        ($W:literal, $SB:literal) => {
            emit(
                nic_sender::NicSenderRtl::<
                    $W,
                    $SB,
                    { nic_sender::record_bits($W) },
                    { nic_sender::event_bits($SB) },
                    { nic_sender::top_table_bits($SB) },
                >::new(conns, &k, psn, opts.initial_bytes, no_forward)
                .with_settle_blind(blind)
                .with_retx_inverted(opts.fault == Some(Fault::NicSenderRetxInverted)),
            )
        };
    }
    let (w, sb) = (cfg.sack.rx_window, cfg.sack.sack_bits);
    sack_block("nic_sender", cfg, opts, nic_sender::LATENCY, || {
        sack_dispatch!(w, sb, make)
    })
}

/// The send side composed (`hdl/src/nic_tx.rs`): the glue, the transmit scheduler, the
/// senders, the cwnd units and the entropy bitmaps, wired through [`netlist::Netlist`].
fn nic_tx_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    const TOP: &str = "nic_tx";
    let within = |e: HdlError| HdlError::Config {
        block: TOP.into(),
        message: e.to_string(),
    };
    let snd = generate_here("nic_sender", cfg, opts).map_err(within)?;
    let cw = generate_here("nic_cwnd", cfg, opts).map_err(within)?;
    let eb = generate_here("nic_entropy", cfg, opts).map_err(within)?;
    let sched = tx_sched_block(cfg, opts);
    let k = cfg.cwnd_constants();
    let glue = finish(
        "glue",
        &emit(nic_tx::NicTxGlue::new(
            cfg.nic.connections,
            k.max_cwnd_q >> k.cwnd_frac,
            cfg.mtu_log2(),
        )),
        nic_tx::LATENCY,
    );

    let mut n = netlist::Netlist::new(TOP);
    let g = n.instance(&glue, "glue");
    let s = n.instance(&snd, "snd");
    let c = n.instance(&cw, "cw");
    let e = n.instance(&eb, "eb");
    let t = n.instance(&sched, "sched");
    n.expose("s_reset", &[g, s, e, t])?;
    n.expose("s_now", &[g, s])?;
    // The offers: the glue arbitrates and reads what the cwnd units and the entropy bitmaps
    // need; the sender reads the fields of the event taken.
    for port in [
        "s_open_valid",
        "s_open_conn",
        "s_txop_valid",
        "s_sack_valid",
        "s_sack_conn",
        "s_sack_ecn",
        "s_sack_entropy",
        "s_doorbell_valid",
        "s_doorbell_conn",
    ] {
        n.expose(port, &[g])?;
    }
    for port in ["s_sack_ts", "s_sack_probe"] {
        n.expose(port, &[g, s])?;
    }
    for port in [
        "s_open_psn",
        "s_sack_epsn",
        "s_sack_base",
        "s_sack_bitmap",
        "s_sack_bytes",
        "s_sack_ooo",
        "s_doorbell_bytes",
    ] {
        n.expose(port, &[s])?;
    }

    // The glue's ports named `<prefix>_<port>` go to that port of the instance (inputs of the
    // glue named `<prefix>_m_*` or `<prefix>_status_*` come from it).
    for (prefix, i) in [("snd", s), ("cw", c), ("eb", e), ("sched", t)] {
        for p in glue.ports.clone() {
            let Some(port) = p.name.strip_prefix(&format!("{prefix}_")) else {
                continue;
            };
            let port = if port.starts_with("m_") || port.starts_with("status_") {
                port.to_string()
            } else {
                format!("s_{port}")
            };
            if p.dir == Dir::Output {
                let w = n.output_of(g, &p.name)?;
                n.drive(i, &port, &w)?;
            } else {
                let w = n.output_of(i, &port)?;
                n.drive(g, &p.name, &w)?;
            }
        }
    }
    // The top's outputs: the handshakes, the result, readiness.
    for p in glue.ports.clone() {
        let top_port = p.dir == Dir::Output
            && (p.name.starts_with("m_")
                || p.name.starts_with("status_")
                || p.name.ends_with("_ready"));
        if top_port {
            let w = n.output_of(g, &p.name)?;
            n.output(&p.name, &w)?;
        }
    }
    n.finish(
        "nic_tx: the send side composed (docs/blocks/nic_tx.md). Generated by strackgen.\n\
         Structural: the glue (arbiter, timer scan, window view) and four blocks, wired.",
        nic_tx::LATENCY,
    )
}

/// The NIC composed: the send side, the receive side and the glue of their shared
/// configuration port (`docs/blocks/nic.md`). The send side's results keep `nic_tx`'s names
/// with `send_` after the role (`m_send_*`, `status_send_*`), the receive side's `nic_rx`'s
/// with `recv_`; the offers keep their names (the receive side's open PSN is
/// `s_open_peer_psn`). The block's latency is the send side's, the longer.
fn nic_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    const TOP: &str = "nic";
    let within = |e: HdlError| HdlError::Config {
        block: TOP.into(),
        message: e.to_string(),
    };
    let txb = generate_here("nic_tx", cfg, opts).map_err(within)?;
    let rxb = generate_here("nic_rx", cfg, opts).map_err(within)?;
    let glue = finish("glue", &emit(nic::NicGlue::default()), 0);

    let mut n = netlist::Netlist::new(TOP);
    let g = n.instance(&glue, "glue");
    let tx = n.instance(&txb, "tx");
    let rx = n.instance(&rxb, "rx");
    n.expose("s_reset", &[tx, rx])?;
    n.expose("s_open_valid", &[g])?;
    n.expose("s_open_conn", &[tx, rx])?;
    n.expose("s_open_psn", &[g])?;
    n.expose("s_open_peer_psn", &[g])?;
    for (side, i) in [("tx", tx), ("rx", rx)] {
        let w = n.output_of(g, &format!("{side}_open_valid"))?;
        n.drive(i, "s_open_valid", &w)?;
        let w = n.output_of(g, &format!("{side}_open_psn"))?;
        n.drive(i, "s_open_psn", &w)?;
        let w = n.output_of(i, "s_open_ready")?;
        n.drive(g, &format!("{side}_open_ready"), &w)?;
        let w = n.output_of(i, "status_ready")?;
        n.drive(g, &format!("{side}_status_ready"), &w)?;
    }
    for port in ["s_open_ready", "status_ready"] {
        let w = n.output_of(g, port)?;
        n.output(port, &w)?;
    }
    // Every other port of a side: its offers as they are, its results renamed by side.
    for (side, i, b) in [("send", tx, &txb), ("recv", rx, &rxb)] {
        for p in &b.ports {
            let name = p.name.as_str();
            let shared = [
                "clock",
                "s_reset",
                "s_open_valid",
                "s_open_conn",
                "s_open_psn",
            ];
            if shared.contains(&name) || name == "s_open_ready" || name == "status_ready" {
                continue;
            }
            if p.dir == Dir::Input {
                n.expose(name, &[i])?;
                continue;
            }
            let w = n.output_of(i, name)?;
            let top = if let Some(rest) = name.strip_prefix("m_") {
                format!("m_{side}_{rest}")
            } else if let Some(rest) = name.strip_prefix("status_") {
                format!("status_{side}_{rest}")
            } else {
                name.to_string()
            };
            n.output(&top, &w)?;
        }
    }
    n.finish(
        "nic: the NIC composed (docs/blocks/nic.md). Generated by strackgen.\n\
         Structural: the send side, the receive side and the glue of their open port, wired.",
        nic_tx::LATENCY,
    )
}

/// The transmit scheduler at `nic.connections` (validated: a power of two up to 65536).
fn tx_sched_block(cfg: &Config, opts: &Options) -> Block {
    use tx_sched::{search_groups, TxSchedRtl as T, GROUP};
    let conns = cfg.nic.connections;
    let stale = opts.fault == Some(Fault::TxSchedKeepStale);
    macro_rules! make {
        ($($G:literal),*) => {
            match search_groups(conns) {
                $( $G => emit(T::<$G, { $G * GROUP }>::new(conns, stale)), )*
                g => unreachable!("tx_sched: {g} groups at {conns} connections"),
            }
        };
    }
    let raw = make!(16, 32, 64, 128, 256, 512, 1024, 2048);
    finish("tx_sched", &raw, 1)
}

/// Calls `$make!(K, W)` for the legal `(slots, load_bits)` pair `($k, $w)`; `None` otherwise.
macro_rules! load_table_dispatch {
    ($k:expr, $w:expr, $make:ident) => {
        load_table_dispatch!(@pairs $k, $w, $make;
            2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
    };
    (@pairs $k:expr, $w:expr, $make:ident; $($K:literal),*) => {
        match ($k, $w) {
            $( ($K, 8) => Some($make!($K, 8)),
               ($K, 16) => Some($make!($K, 16)),
               ($K, 32) => Some($make!($K, 32)), )*
            _ => None,
        }
    };
}

/// The context shell's check designs: a 32-bit record (`context_pipe`) or one wider than any of
/// the NIC's records (`context_pipe_wide`).
fn context_pipe_block(name: &str, cfg: &Config, opts: &Options) -> Block {
    use context_pipe::{ContextPipeCheck as C, WIDE_RECORD_BITS};
    let no_forward = match opts.fault {
        Some(Fault::ContextPipeNoForward(d)) => Some(d),
        _ => None,
    };
    let ids = cfg.nic.connections;
    if name == "context_pipe_hold" {
        use context_pipe_hold::{ContextPipeHoldCheck as H, HOLD_CHECK_LATENCY};
        return finish(name, &emit(H::new(ids, no_forward)), HOLD_CHECK_LATENCY);
    }
    let raw = if name == "context_pipe_wide" {
        emit(C::<WIDE_RECORD_BITS>::new(ids, no_forward))
    } else {
        emit(C::<32>::new(ids, no_forward))
    };
    finish(name, &raw, context_pipe::CHECK_LATENCY)
}

fn load_table_block(cfg: &Config, opts: &Options) -> Result<Block, HdlError> {
    use load_table::{LoadTableRtl as L, EPOCH_BITS as E};
    let links = cfg.load_table.links;
    let fault = opts.fault == Some(Fault::LoadTableNoForward);
    let keep = opts.fault == Some(Fault::LoadTableResetKeepsRows);
    macro_rules! make {
        ($K:literal, $W:literal) => {
            emit(L::<
                $K,
                $W,
                { $W + 1 },
                { $W + 2 },
                { $W + 4 },
                { $W + 5 },
                { $K * $W },
                { $K * ($W + 1) },
                { $K * ($W + 4) },
                { $K * $W + E },
            >::new(links, fault, keep))
        };
    }
    let (k, w) = (cfg.load_table.slots, cfg.load_table.load_bits);
    let raw = load_table_dispatch!(k, w, make).ok_or_else(|| HdlError::Config {
        block: "load_table".into(),
        message: format!(
            "`load_table.slots` = {k}, `load_table.load_bits` = {w}: need slots {} and \
             load_bits {}",
            legal::LT_SLOTS.describe(),
            legal::LT_LOAD_BITS.describe()
        ),
    })?;
    let block = finish("load_table", &raw, load_table::LATENCY);
    check_descriptor(&block, &strack_config::wire::LoadShim::new(cfg))?;
    Ok(block)
}

/// The load table's descriptor ports carry the shim's fields (`docs/wire-format.md`, "The RTL
/// descriptor"): each vector port is K elements of its shim field's width, and a link index
/// fits its port. A generator change that broke this would make a parser in front of the
/// block mis-slice the deltas, so it is refused here rather than found in a switch.
fn check_descriptor(block: &Block, shim: &strack_config::wire::LoadShim) -> Result<(), HdlError> {
    let k = shim.slots();
    let want = [
        ("s_deltas", k * shim.delta_bits()),
        ("s_path_load", k * shim.path_load_bits()),
        ("m_path_load", k * shim.path_load_bits()),
        ("s_link", strack_config::wire::LINK_BITS),
    ];
    for (port, bits) in want {
        let have = block.ports.iter().find(|p| p.name == port).map(|p| p.width);
        if have != Some(bits) {
            return Err(HdlError::Config {
                block: "load_table".into(),
                message: format!(
                    "port `{port}` is {have:?} bits, the shim header's fields need {bits} \
                     (strack_config::wire)"
                ),
            });
        }
    }
    Ok(())
}

/// Block `b`'s Verilog with its modules renamed `prefix__<module>`.
fn prefixed(b: &Block, prefix: &str) -> String {
    let name = &b.name;
    let mut v = String::with_capacity(b.verilog.len());
    for line in b.verilog.lines() {
        let t = line.trim_start();
        let indent = &line[..line.len() - t.len()];
        let renamed = t.starts_with(&format!("module {name}("))
            || t.starts_with(&format!("module {name}__"))
            || t.starts_with(&format!("endmodule // {name}"));
        if renamed {
            let (kw, rest) = t.split_once(' ').unwrap_or((t, ""));
            let rest = rest
                .strip_prefix("// ")
                .map_or(rest.to_string(), |r| format!("// {prefix}__{r}"));
            if rest.starts_with("//") {
                v.push_str(&format!("{indent}{kw} {rest}\n"));
            } else {
                v.push_str(&format!("{indent}{kw} {prefix}__{rest}\n"));
            }
        } else if t.starts_with(&format!("{name}__")) {
            v.push_str(&format!("{indent}{prefix}__{t}\n"));
        } else {
            v.push_str(line);
            v.push('\n');
        }
    }
    v
}

fn emit<L: Logic + rust_hdl::prelude::Block>(mut uut: L) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}

/// Rename rust-hdl's `top` / `top$x` modules to `name` / `name__x` (a `$` in a module name
/// trips some tools) and collect the top module's ports.
fn finish(name: &str, raw: &str, latency: u32) -> Block {
    let mut v = String::with_capacity(raw.len());
    for line in raw.lines() {
        let l = if let Some(rest) = line.strip_prefix("module top$") {
            format!("module {name}__{rest}")
        } else if let Some(rest) = line.strip_prefix("module top(") {
            format!("module {name}({rest}")
        } else if let Some(rest) = line.trim_start().strip_prefix("top$") {
            let indent = &line[..line.len() - line.trim_start().len()];
            format!("{indent}{name}__{rest}")
        } else if line.starts_with("endmodule // top") {
            format!("endmodule // {}", name)
        } else {
            line.to_string()
        };
        v.push_str(&l);
        v.push('\n');
    }
    let ports = top_ports(&v, name);
    Block {
        name: name.to_string(),
        verilog: v,
        latency,
        events_per_clock: 1,
        ports,
    }
}

/// The ports of module `name`, in declaration order, from the generated text.
fn top_ports(verilog: &str, name: &str) -> Vec<Port> {
    let mut ports = Vec::new();
    let mut inside = false;
    for line in verilog.lines() {
        let t = line.trim();
        if t.starts_with(&format!("module {name}(")) {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if t.starts_with("endmodule") || t.starts_with("// Stub") || t.starts_with("// Update") {
            break;
        }
        let (dir, rest) = if let Some(r) = t.strip_prefix("input ") {
            (Dir::Input, r)
        } else if let Some(r) = t.strip_prefix("output ") {
            (Dir::Output, r)
        } else {
            continue;
        };
        let rest = rest
            .trim_start_matches("wire")
            .trim_start_matches("reg")
            .trim();
        let (width, ident) = if let Some(r) = rest.strip_prefix('[') {
            let (range, id) = r.split_once(']').unwrap_or(("0:0", r));
            let msb: u32 = range
                .split(':')
                .next()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0);
            (msb + 1, id)
        } else {
            (1, rest)
        };
        let ident = ident.trim().trim_end_matches(';').trim().to_string();
        ports.push(Port {
            name: ident,
            dir,
            width,
        });
    }
    ports
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatch over const generics covers exactly the legal values `strack_config::legal`
    /// defines: each one generates; the next value out is refused in the config's words.
    #[test]
    fn every_legal_value_of_a_dispatched_key_generates() {
        let gen = |name: &str, cfg: &Config| generate(name, cfg, &Options::default());
        for v in legal::MAX_PATHS.values() {
            let mut cfg = Config::default();
            cfg.entropy_bitmap.max_paths = v as u32;
            cfg.sack.rx_window = cfg.sack.rx_window.max(v as u32);
            gen("entropy_bitmap", &cfg).unwrap_or_else(|e| panic!("max_paths {v}: {e}"));
        }
        for v in legal::RECIP_INDEX_BITS.values() {
            let mut cfg = Config::default();
            cfg.fixed_point.recip_index_bits = v as u32;
            gen("cwnd_unit", &cfg).unwrap_or_else(|e| panic!("recip_index_bits {v}: {e}"));
        }
        for k in legal::LT_SLOTS.values() {
            for w in legal::LT_LOAD_BITS.values() {
                let mut cfg = Config::default();
                cfg.load_table.slots = k as u32;
                cfg.load_table.load_bits = w as u32;
                cfg.load_table.links = 4;
                gen("load_table", &cfg).unwrap_or_else(|e| panic!("slots {k}, bits {w}: {e}"));
            }
        }
        // Past the legal values, the generator refuses (the config does first) in its words.
        let mut cfg = Config::default();
        cfg.entropy_bitmap.max_paths = 8192;
        let e = gen("entropy_bitmap", &cfg).unwrap_err().to_string();
        assert!(e.contains(&legal::MAX_PATHS.rule()), "{e}");
    }

    #[test]
    fn dollar_free_renames_inside_names_and_leaves_system_functions() {
        let v = "module m(input wire a$b, output wire y);\n  assign y = $signed(a$b) > 0;\n\
                 endmodule\nmodule n(output wire a__b);\n  assign a__b = 1'b0;\nendmodule\n";
        let out = dollar_free(v).unwrap();
        assert!(
            out.contains("input wire a__b") && out.contains("$signed(a__b)"),
            "{out}"
        );
        // `a__b` in another module is no clash.
        assert!(out.contains("output wire a__b"));
        let clash = "module m;\n  wire a$b;\n  wire a__b;\nendmodule\n";
        let e = dollar_free(clash).unwrap_err();
        assert!(e.contains("`a$b`") && e.contains("`a__b`"), "{e}");
    }

    #[test]
    fn no_generated_block_has_a_dollar_in_a_name() {
        let cfg = Config::default();
        for name in BLOCKS {
            let b = generate(name, &cfg, &Options::default()).unwrap();
            let bytes = b.verilog.as_bytes();
            let at = bytes
                .windows(2)
                .position(|w| w[1] == b'$' && (w[0].is_ascii_alphanumeric() || w[0] == b'_'));
            assert_eq!(at, None, "{name}: an identifier with a `$`");
        }
    }

    #[test]
    fn the_load_table_descriptor_matches_the_shim_header() {
        let cfg = Config::default();
        let b = generate("load_table", &cfg, &Options::default()).unwrap();
        let shim = strack_config::wire::LoadShim::new(&cfg);
        assert_eq!(check_descriptor(&b, &shim), Ok(()));
        // The same ports against a shim of another K or width are refused, naming the port.
        let other = strack_config::wire::LoadShim::with(9, 16, 64, 1);
        let e = check_descriptor(&b, &other).unwrap_err().to_string();
        assert_eq!(
            e,
            "load_table: port `s_deltas` is Some(170) bits, the shim header's fields need 153 \
             (strack_config::wire)"
        );
    }

    #[test]
    fn entropy_bitmap_generates_with_named_ports() {
        let b = generate("entropy_bitmap", &Config::default(), &Options::default()).unwrap();
        assert!(b.verilog.contains("module entropy_bitmap("));
        assert!(!b.verilog.contains("top$"));
        let find = |n: &str| {
            b.ports
                .iter()
                .find(|p| p.name == n)
                .unwrap_or_else(|| panic!("{n}: {:?}", b.ports))
                .clone()
        };
        assert_eq!(
            find("clock"),
            Port {
                name: "clock".into(),
                dir: Dir::Input,
                width: 1
            }
        );
        assert_eq!(find("s_ack_entropy").width, 16);
        assert_eq!(find("m_entropy").dir, Dir::Output);
        assert_eq!(b.ports.len(), 21);
    }

    /// Every core a user deploys has the one synchronous reset input, `s_reset`, one bit wide.
    #[test]
    fn every_core_has_a_synchronous_reset() {
        let mut cfg = Config::default();
        cfg.nic.connections = 4;
        for name in BLOCKS {
            let b = generate(name, &cfg, &Options::default()).unwrap();
            let resets: Vec<&Port> = b.ports.iter().filter(|p| p.name == "s_reset").collect();
            assert_eq!(
                resets,
                [&Port {
                    name: "s_reset".into(),
                    dir: Dir::Input,
                    width: 1
                }],
                "{name}"
            );
        }
    }

    #[test]
    fn cwnd_unit_generates_with_named_ports() {
        let b = generate("cwnd_unit", &Config::default(), &Options::default()).unwrap();
        assert!(b.verilog.contains("module cwnd_unit("));
        let names: Vec<&str> = b.ports.iter().map(|p| p.name.as_str()).collect();
        for n in [
            "s_reset",
            "s_rtt",
            "s_acked_bytes",
            "m_cwnd_q",
            "m_branch",
            "status_malformed_count",
        ] {
            assert!(names.contains(&n), "{n}: {names:?}");
        }
        assert_eq!(b.ports.len(), 19);
    }

    #[test]
    fn illegal_config_is_refused_naming_the_block() {
        let mut cfg = Config::default();
        cfg.entropy_bitmap.max_paths = 300;
        let e = generate("entropy_bitmap", &cfg, &Options::default()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("entropy_bitmap: "), "{msg}");
        assert!(msg.contains("`entropy_bitmap.max_paths` = 300"), "{msg}");
    }

    #[test]
    fn unknown_block_is_refused() {
        let e = generate("nope", &Config::default(), &Options::default()).unwrap_err();
        assert!(e.to_string().contains("unknown block"));
    }
}
