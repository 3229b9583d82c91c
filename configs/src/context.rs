//! The multi-connection NIC's per-connection context: every field, its width, and what the
//! context RAMs cost in ECP5 block RAM (EBR) for a given config.
//!
//! The NIC keeps one record per connection on each side, in an inferred RAM of `connections`
//! rows: the send side (entropy bitmap, cwnd unit, SACK sender, send backlog) and the receive
//! side (SACK receiver). This module is the arithmetic behind that layout; the same field list
//! is the order the RTL packs a record in (`docs/blocks/strack_nic.md`).
//!
//! DECISION (packet lengths, Nagle's rule): a packet's length is not stored per PSN. A packet is
//! `mtu_bytes` long unless it is a connection's *short* packet, whose PSN and length the context
//! holds; a connection sends a short packet (backlog below one MTU) only while no earlier short
//! packet is unacknowledged, otherwise it waits for more backlog or for that acknowledgement.
//! Storing a length per PSN (`rx_window` x 13 bits at the default config) would need 263 EBR
//! for the send record at 1024 connections, more than the ECP5-85 has (208); see
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

/// One field of a connection's context record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextField {
    pub side: Side,
    /// The block whose per-connection state it is (`nic` for the NIC's own).
    pub block: &'static str,
    pub name: &'static str,
    pub bits: u32,
}

/// The whole per-connection context of one config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextLayout {
    pub connections: u32,
    pub fields: Vec<ContextField>,
    /// What a stored length per PSN would cost per connection (the layout does not hold it).
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
    /// Bits per connection on one side.
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

    /// EBR blocks of one side's context RAM.
    pub fn ebr(&self, side: Side) -> u32 {
        ecp5_ebr_blocks(self.connections, self.bits(side))
    }

    /// EBR blocks of both context RAMs.
    pub fn total_ebr(&self) -> u32 {
        self.ebr(Side::Send) + self.ebr(Side::Receive)
    }

    /// EBR blocks of both context RAMs if the send record also held a length per PSN.
    pub fn ebr_with_per_psn_lengths(&self) -> u32 {
        ecp5_ebr_blocks(
            self.connections,
            self.bits(Side::Send) + self.per_psn_length_bits,
        ) + self.ebr(Side::Receive)
    }

    /// Both context RAMs fit the EBR budget of the ECP5-85.
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
        let w = self.sack.rx_window;
        // A packet's length is 1..=MTU, and the MTU is a power of two.
        let len_bits = self.mtu_log2() + 1;
        // What each field holds: docs/blocks/strack_nic.md, "context layout".
        let fields = [
            (Send, "nic", "open", 1),
            (Send, "nic", "backlog", BYTES_BITS),
            (Send, "nic", "short_valid", 1),
            (Send, "nic", "short_psn", PSN_BITS),
            (Send, "nic", "short_len", len_bits),
            (Send, "entropy_bitmap", "bitmap", paths),
            (Send, "entropy_bitmap", "rr", pb),
            (Send, "entropy_bitmap", "next_path_valid", 1),
            (Send, "entropy_bitmap", "next_path", pb),
            (Send, "entropy_bitmap", "last_reset_ts", TIME_BITS),
            (Send, "cwnd_unit", "cwnd", 32),
            (Send, "cwnd_unit", "base_rtt", 32),
            (Send, "cwnd_unit", "avg_delay", 32),
            (Send, "cwnd_unit", "last_decrease_ts", TIME_BITS),
            (Send, "cwnd_unit", "last_fairness_ts", TIME_BITS),
            (Send, "cwnd_unit", "rx_count", 32),
            (Send, "cwnd_unit", "rxcount_clear_ts", TIME_BITS),
            (Send, "cwnd_unit", "achieved_bdp", 32),
            (Send, "sack_sender", "snd_una", PSN_BITS),
            (Send, "sack_sender", "snd_nxt", PSN_BITS),
            (Send, "sack_sender", "acked", w),
            (Send, "sack_sender", "lost", w),
            (Send, "sack_sender", "bytes_sent", BYTES_BITS),
            (Send, "sack_sender", "bytes_recvd", BYTES_BITS),
            (Send, "sack_sender", "bytes_claimed", BYTES_BITS),
            (Send, "sack_sender", "highest_acked_valid", 1),
            (Send, "sack_sender", "highest_acked", PSN_BITS),
            (Send, "sack_sender", "recovery_valid", 1),
            (Send, "sack_sender", "recovery_hi", PSN_BITS),
            (Send, "sack_sender", "probe_ts", TIME_BITS),
            (Send, "sack_sender", "rto_ts", TIME_BITS),
            (Send, "sack_sender", "ack_since_probe", 1),
            (Receive, "sack_receiver", "epsn", PSN_BITS),
            (Receive, "sack_receiver", "bitmap", w),
            (Receive, "sack_receiver", "bytes_recvd", BYTES_BITS),
            // The out-of-order base: (new PSNs + the opening EPSN) mod rx_window; the count of
            // PSNs held beyond EPSN (at most rx_window - 1) is it less EPSN, mod rx_window.
            (Receive, "sack_receiver", "ooo_base", self.rx_window_bits()),
            (Receive, "sack_receiver", "lowest_valid", 1),
            (Receive, "sack_receiver", "lowest", PSN_BITS),
            (Receive, "sack_receiver", "coalesce", 32),
        ]
        .into_iter()
        .map(|(side, block, name, bits)| ContextField {
            side,
            block,
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
        // Both sides' records are read and written whole, one RAM each.
        let send = l.bits(Side::Send);
        let recv = l.bits(Side::Receive);
        assert_eq!(l.total_bits(), send + recv);
        assert_eq!(l.ebr(Side::Send), send.div_ceil(18));
        assert_eq!(l.ebr(Side::Receive), recv.div_ceil(18));
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
        // Two window bitmaps on the send side and one on the receive side, and the bitmap of
        // entropies plus one bit in each of its two pointers.
        assert_eq!(
            l.bits(Side::Send),
            base.bits(Side::Send) + 2 * 256 + 256 + 2
        );
        // The receive bitmap, and one more bit of ooo_base.
        assert_eq!(l.bits(Side::Receive), base.bits(Side::Receive) + 256 + 1);
        assert_eq!(l.per_psn_length_bits, 2 * base.per_psn_length_bits);
        // Field names are unique on each side.
        let mut names: Vec<_> = l.fields.iter().map(|f| (f.side.name(), f.name)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), l.fields.len());
    }

    #[test]
    fn the_block_doc_names_every_field() {
        let doc = include_str!("../../docs/blocks/strack_nic.md");
        for f in Config::default().nic_context().fields {
            let row = format!("| {} | {} |", f.side.name(), f.block);
            let named = doc
                .lines()
                .any(|l| l.starts_with(&row) && l.contains(&format!("`{}`", f.name)));
            assert!(
                named,
                "docs/blocks/strack_nic.md: no row `{row}` naming `{}`",
                f.name
            );
        }
    }
}
