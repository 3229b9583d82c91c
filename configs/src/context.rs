//! The multi-connection NIC's per-connection context: every field of every RAM the NIC keeps a
//! record per connection in, its width, and what those RAMs cost in ECP5 block RAM (EBR) for a
//! given config.
//!
//! Each per-connection pipeline keeps its state in RAMs of `connections` rows: the receive side
//! one record (`nic_rx`); the send side the senders' record (`nic_sender`: the SACK sender, the
//! backlog and the short packet), the entropy bitmaps' record (`nic_entropy`), the cwnd units'
//! six RAMs (`nic_cwnd`, each written and read at its own stage) and the window view the send
//! side reads (`nic_tx`). This module is the arithmetic behind that layout, field by field in
//! the order the RTL packs each record (`docs/blocks/nic.md`, "Context layout"; each
//! block's unit tests hold its record width to this list).
//!
//! DECISION (packet lengths, Nagle's rule): a packet's length is not stored per PSN. A packet is
//! `mtu_bytes` long unless it is a connection's *short* packet, whose PSN and length the context
//! holds; a connection sends a short packet (backlog below one MTU) only while no earlier short
//! packet is unacknowledged, otherwise it waits for more backlog or for that acknowledgement.
//! Storing a length per PSN (`rx_window` x 13 bits at the default config) would make the
//! senders' record alone 215 EBR at 1024 connections, more than the ECP5-85 has (208); see
//! [`ContextLayout::per_psn_length_bits`].

use crate::{Config, BYTES_BITS, PSN_BITS, TIME_BITS};

/// Block RAMs of the ECP5-85 (LFE5UM-85F): 208 DP16KD blocks of 18 Kibit.
pub const ECP5_85_EBR: u32 = 208;
/// Bits in one ECP5 EBR at the 9-, 18- and 36-bit widths (the parity bits used as data).
pub const ECP5_EBR_BITS: u32 = 18 * 1024;
/// The share of the device's EBR the NIC may use (the rest is left to the user's design).
pub const EBR_BUDGET_PERCENT: u32 = 70;

/// Which pipeline reads and writes a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Doorbells, SACKs received, transmit opportunities, timer checks.
    Send,
    /// Data packets and probes received.
    Receive,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Send => "send",
            Side::Receive => "receive",
        }
    }
}

/// One field of a connection's context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextField {
    pub side: Side,
    /// The block whose per-connection state it is.
    pub block: &'static str,
    /// The block's RAM that holds it (`record` where the block has one).
    pub ram: &'static str,
    pub name: &'static str,
    pub bits: u32,
}

/// One RAM of `connections` rows: its side, block, name and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextRamWidth {
    pub side: Side,
    pub block: &'static str,
    pub ram: &'static str,
    pub bits: u32,
}

/// The whole per-connection context of one config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextLayout {
    pub connections: u32,
    pub fields: Vec<ContextField>,
    /// What a stored length per PSN would cost per connection (the layout does not hold it;
    /// it would go into the senders' record).
    pub per_psn_length_bits: u32,
}

/// Bits of an ECP5 EBR port at `depth` rows (DP16KD / PDPW16KD data widths: a pseudo-dual-port
/// block is 36 bits wide at 512 rows, 18 at 1024, 9 at 2048, 4 at 4096, 2 at 8192, 1 at 16384).
pub fn ecp5_ebr_width(depth: u32) -> u32 {
    match depth {
        0..=512 => 36,
        513..=1024 => 18,
        1025..=2048 => 9,
        2049..=4096 => 4,
        4097..=8192 => 2,
        _ => 1,
    }
}

/// EBR blocks of a one-read, one-write RAM of `depth` rows of `width` bits: blocks side by side
/// for the width, and for depths beyond 16384 rows, stacks of them.
pub fn ecp5_ebr_blocks(depth: u32, width: u32) -> u32 {
    if width == 0 || depth == 0 {
        return 0;
    }
    let stacks = depth.div_ceil(16_384);
    let rows = depth.min(16_384);
    width.div_ceil(ecp5_ebr_width(rows)) * stacks
}

impl ContextLayout {
    /// The RAMs, in the order of their first field.
    pub fn rams(&self) -> Vec<ContextRamWidth> {
        let mut rams: Vec<ContextRamWidth> = Vec::new();
        for f in &self.fields {
            match rams
                .iter_mut()
                .find(|r| r.side == f.side && r.block == f.block && r.ram == f.ram)
            {
                Some(r) => r.bits += f.bits,
                None => rams.push(ContextRamWidth {
                    side: f.side,
                    block: f.block,
                    ram: f.ram,
                    bits: f.bits,
                }),
            }
        }
        rams
    }

    /// Bits per connection on one side, all its RAMs.
    pub fn bits(&self, side: Side) -> u32 {
        self.fields
            .iter()
            .filter(|f| f.side == side)
            .map(|f| f.bits)
            .sum()
    }

    /// Bits per connection, both sides.
    pub fn total_bits(&self) -> u32 {
        self.bits(Side::Send) + self.bits(Side::Receive)
    }

    /// The width of one block's RAM (0 when there is none).
    pub fn ram_bits(&self, block: &str, ram: &str) -> u32 {
        self.rams()
            .iter()
            .filter(|r| r.block == block && r.ram == ram)
            .map(|r| r.bits)
            .sum()
    }

    /// EBR blocks of one side's RAMs, each RAM on its own blocks.
    pub fn ebr(&self, side: Side) -> u32 {
        self.rams()
            .iter()
            .filter(|r| r.side == side)
            .map(|r| ecp5_ebr_blocks(self.connections, r.bits))
            .sum()
    }

    /// EBR blocks of every context RAM.
    pub fn total_ebr(&self) -> u32 {
        self.ebr(Side::Send) + self.ebr(Side::Receive)
    }

    /// EBR blocks of every context RAM if the senders' record also held a length per PSN.
    pub fn ebr_with_per_psn_lengths(&self) -> u32 {
        let sender = self.ram_bits("nic_sender", "record");
        self.total_ebr() - ecp5_ebr_blocks(self.connections, sender)
            + ecp5_ebr_blocks(self.connections, sender + self.per_psn_length_bits)
    }

    /// The context RAMs fit the EBR budget of the ECP5-85.
    pub fn fits_ecp5_85(&self) -> bool {
        self.total_ebr() * 100 <= ECP5_85_EBR * EBR_BUDGET_PERCENT
    }
}

impl Config {
    /// The per-connection context of the multi-connection NIC at this config.
    pub fn nic_context(&self) -> ContextLayout {
        use Side::{Receive, Send};
        let paths = self.entropy_bitmap.max_paths;
        let pb = self.paths_bits();
        // The entropy bitmaps keep `rr` as two masks: its group of `2^ceil(pb / 2)` entropies
        // among the groups, and its offset in that group (`hdl::nic_entropy::group_width`).
        let group = 1u32 << pb.div_ceil(2);
        let w = self.sack.rx_window;
        let wb = self.rx_window_bits();
        // A packet's length is 1..=MTU, and the MTU is a power of two.
        let len_bits = self.mtu_log2() + 1;
        // What each field holds: docs/blocks/nic.md, "Context layout", and each block's
        // doc. Widths and order as the RTL packs them.
        let fields = [
            (Send, "nic_sender", "record", "snd_nxt", PSN_BITS),
            (Send, "nic_sender", "record", "bytes_sent", BYTES_BITS),
            (Send, "nic_sender", "record", "bytes_recvd", BYTES_BITS),
            (Send, "nic_sender", "record", "flight", BYTES_BITS),
            (Send, "nic_sender", "record", "probe_ts", TIME_BITS),
            (Send, "nic_sender", "record", "rto_ts", TIME_BITS),
            (Send, "nic_sender", "record", "backlog", BYTES_BITS),
            (Send, "nic_sender", "record", "ack_since_probe", 1),
            (Send, "nic_sender", "record", "h_valid", 1),
            (Send, "nic_sender", "record", "recovery", 1),
            (Send, "nic_sender", "record", "short_valid", 1),
            (Send, "nic_sender", "record", "acked", w),
            (Send, "nic_sender", "record", "out", wb + 1),
            (Send, "nic_sender", "record", "rtx_back", wb + 1),
            (Send, "nic_sender", "record", "h_back", wb),
            (Send, "nic_sender", "record", "hi_back", wb),
            (Send, "nic_sender", "record", "short_back", wb),
            (Send, "nic_sender", "record", "short_len", 16),
            (Send, "nic_sender", "record", "lost_view", BYTES_BITS),
            (Send, "nic_entropy", "record", "bitmap", paths),
            (Send, "nic_entropy", "record", "g_le", paths / group),
            (Send, "nic_entropy", "record", "o_le", group),
            (Send, "nic_entropy", "record", "next_path_valid", 1),
            (Send, "nic_entropy", "record", "next_path", pb),
            (Send, "nic_entropy", "record", "last_reset_ts", TIME_BITS),
            (Send, "nic_cwnd", "g1", "base_rtt", 32),
            (Send, "nic_cwnd", "g1", "base_rtt_target", 32),
            (Send, "nic_cwnd", "g2a", "bdp_clear_ts", TIME_BITS),
            (Send, "nic_cwnd", "g2a", "fairness_ts", TIME_BITS),
            (Send, "nic_cwnd", "g2b", "avg_delay", 32),
            (Send, "nic_cwnd", "g2b", "rx_count", 32),
            (Send, "nic_cwnd", "g2b", "achieved_bdp", 32),
            (Send, "nic_cwnd", "g4", "last_decrease_ts", TIME_BITS),
            (Send, "nic_cwnd", "window_a", "cwnd", 32),
            (Send, "nic_cwnd", "window_b", "cwnd_copy", 32),
            (Send, "nic_tx", "view", "cwnd_bytes", 32),
            (Send, "nic_tx", "view", "bdp_zero", 1),
            (Receive, "nic_rx", "record", "epsn", PSN_BITS),
            (Receive, "nic_rx", "record", "bitmap", w),
            (Receive, "nic_rx", "record", "bytes_recvd", BYTES_BITS),
            // The out-of-order base: (new PSNs + the opening EPSN) mod rx_window; the count of
            // PSNs held beyond EPSN (at most rx_window - 1) is it less EPSN, mod rx_window.
            (Receive, "nic_rx", "record", "ooo_base", wb),
            (Receive, "nic_rx", "record", "lowest_valid", 1),
            (Receive, "nic_rx", "record", "lowest", PSN_BITS),
            (Receive, "nic_rx", "record", "coalesce", 32),
        ]
        .into_iter()
        .map(|(side, block, ram, name, bits)| ContextField {
            side,
            block,
            ram,
            name,
            bits,
        })
        .collect();
        ContextLayout {
            connections: self.nic.connections,
            fields,
            per_psn_length_bits: w * len_bits,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ebr_geometry_follows_the_ecp5_port_widths() {
        // A block holds 18 Kibit at the widths with parity bits (9, 18, 36), 16 Kibit below.
        for d in [512, 1024, 2048] {
            assert_eq!(d * ecp5_ebr_width(d), ECP5_EBR_BITS);
        }
        for d in [4096, 8192, 16_384] {
            assert_eq!(d * ecp5_ebr_width(d), 16_384);
        }
        assert_eq!(ecp5_ebr_blocks(1024, 18), 1);
        assert_eq!(ecp5_ebr_blocks(1024, 19), 2);
        assert_eq!(ecp5_ebr_blocks(512, 36), 1);
        assert_eq!(ecp5_ebr_blocks(300, 37), 2);
        assert_eq!(ecp5_ebr_blocks(32_768, 3), 6);
        assert_eq!(ecp5_ebr_blocks(1024, 0), 0);
    }

    #[test]
    fn the_default_context_fits_the_ecp5_85_budget_and_per_psn_lengths_would_not() {
        let l = Config::default().nic_context();
        assert_eq!(l.connections, 1024);
        // Each RAM on its own blocks, 18 bits wide at 1024 rows.
        let rams = l.rams();
        assert_eq!(rams.len(), 10);
        let widths: Vec<u32> = rams.iter().map(|r| r.bits).collect();
        assert_eq!(widths, [566, 329, 64, 64, 96, 32, 32, 32, 33, 377]);
        let ebr: u32 = widths.iter().map(|b| b.div_ceil(18)).sum();
        assert_eq!(l.total_ebr(), ebr);
        assert_eq!(l.ebr(Side::Receive), 377_u32.div_ceil(18));
        assert!(l.fits_ecp5_85(), "{} EBR", l.total_ebr());
        assert!(l.ebr_with_per_psn_lengths() > ECP5_85_EBR);
        // 2048 connections would not fit the budget: 1024 is the largest power of two that does.
        let mut c = Config::default();
        c.nic.connections = 2048;
        assert!(!c.nic_context().fits_ecp5_85());
    }

    #[test]
    fn the_window_fields_scale_with_the_config() {
        let base = Config::default().nic_context();
        let mut c = Config::default();
        c.sack.rx_window *= 2;
        c.entropy_bitmap.max_paths *= 2;
        let l = c.nic_context();
        // The senders' acknowledged bits and one more bit in each of their five offsets; the
        // entropy bitmaps' bitmap, `rr`'s offset mask (16 to 32 bits; its group mask stays 16)
        // and one more bit of their next path.
        assert_eq!(l.ram_bits("nic_sender", "record"), 566 + 256 + 5);
        assert_eq!(l.ram_bits("nic_entropy", "record"), 329 + 256 + 16 + 1);
        // The receive bitmap, and one more bit of ooo_base.
        assert_eq!(l.bits(Side::Receive), base.bits(Side::Receive) + 256 + 1);
        assert_eq!(l.per_psn_length_bits, 2 * base.per_psn_length_bits);
        // Field names are unique in each RAM.
        let mut names: Vec<_> = l.fields.iter().map(|f| (f.block, f.ram, f.name)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), l.fields.len());
    }

    #[test]
    fn the_block_doc_names_every_field() {
        let doc = include_str!("../../docs/blocks/nic.md");
        for f in Config::default().nic_context().fields {
            let row = format!("| {} | {} | {} |", f.side.name(), f.block, f.ram);
            let named = doc
                .lines()
                .any(|l| l.starts_with(&row) && l.contains(&format!("`{}`", f.name)));
            assert!(
                named,
                "docs/blocks/nic.md: no row `{row}` naming `{}`",
                f.name
            );
        }
    }
}
