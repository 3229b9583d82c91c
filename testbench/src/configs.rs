// Configs of the co-simulated designs; `build.rs` includes this file too, so the RTL and the
// model are always built from the same config.

/// The sweep's small design: 16 paths and a 5 us bitmap reset, so full bitmaps and resets come
/// often.
pub fn small_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.entropy_bitmap.max_paths = 16;
    c.entropy_bitmap.bitmap_reset_interval_ns = Some(5_000);
    c
}

/// The cwnd unit's sweep design: a 256-byte MTU, a small window, a 16-entry reciprocal table,
/// narrow fractions and a fast EWMA, so clamps, floors and saturations come often. Its
/// `max_cwnd`, 8197 bytes, is not a multiple of 8, so the achievedBDP cut's exact test
/// (`8 * 1024 < 8197`) and a rounded one (`1024 < floor(8197 / 8)`) disagree.
pub fn small_cwnd_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.network.link_speed_gbps = 100;
    c.network.net_base_rtt_ns = 2_000;
    c.network.mtu_bytes = 256;
    c.cwnd_unit.max_cwnd_bytes = Some(8_197);
    c.cwnd_unit.ewma = 0.5;
    c.fixed_point.recip_index_bits = 4;
    c.fixed_point.cwnd_frac_bits = 4;
    c.fixed_point.delay_frac_bits = 2;
    c
}

/// The cwnd unit's wide design: the default network with the widest formats (Q20.12 window,
/// integer average delay, a 4096-entry reciprocal table) and the slowest EWMA, so `beta*MTU`
/// is large enough (2^27.7 LSB) that an ACK for a few hundred windows makes an increase past
/// 2^36 LSB, where the 40-bit bounds would wrap but for the high clamp's flag.
pub fn wide_cwnd_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.fixed_point.cwnd_frac_bits = 12;
    c.fixed_point.delay_frac_bits = 0;
    c.fixed_point.recip_index_bits = 12;
    c.cwnd_unit.ewma = 1.0 / 256.0;
    c
}

/// The small SACK config, which the NIC's small SACK designs build on: a 32-PSN window, 8-bit
/// segments, 3000-byte coalescing, a 1 KiB MTU and a 30 KiB window cap (the most a 32-PSN
/// window allows: 30 packets + 2).
pub fn small_sack_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.network.mtu_bytes = 1024;
    c.cwnd_unit.max_cwnd_bytes = Some(30 * 1024);
    c.sack.rx_window = 32;
    c.sack.sack_bits = 8;
    c.sack.ack_coalesce_bytes = 3_000;
    c
}

/// Where the co-simulated SACK designs start (the connection's initial PSN), so every case
/// crosses the 2^24 PSN wrap early.
pub const SACK_INITIAL_PSN: u32 = (1 << 24) - 300;

/// The byte counters the co-simulated `nic_sender` designs start at (bytes sent and received),
/// 16 KiB below the 2^32 wrap, so a connection's counters cross it within its first packets.
pub const NIC_SENDER_INITIAL_BYTES: u32 = u32::MAX - (16 << 10) + 1;

/// The load table's sweep: (links, slots, load_bits). 8-bit loads saturate quickly; 4 links
/// make back-to-back packets on one link common.
pub fn load_table_4x4_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.load_table.links = 4;
    c.load_table.slots = 4;
    c.load_table.load_bits = 8;
    c
}

/// 8 links of 10 slots (the paper's K), 16-bit loads.
pub fn load_table_8x10_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.load_table.links = 8;
    c.load_table.slots = 10;
    c.load_table.load_bits = 16;
    c
}

/// 64 links of 16 slots, 16-bit loads: the largest table the issue names.
pub fn load_table_64x16_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.load_table.links = 64;
    c.load_table.slots = 16;
    c.load_table.load_bits = 16;
    c
}

/// The context shell's small design: 4 ids, so consecutive events share an id constantly and a
/// sweep is short.
pub fn context_pipe_small_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.nic.connections = 4;
    c
}

/// The NIC receive side's small design: the small SACK design (window 32, segment 8) at 4
/// connections, so consecutive packets share a connection constantly and a sweep is short.
pub fn nic_rx_small_config() -> strack_config::Config {
    let mut c = small_sack_config();
    c.nic.connections = 4;
    c
}

/// The transmit scheduler's small design: 128 connections, four groups of 32, so that the
/// search switches groups and wraps often (the RTL pads its search to 16 groups).
pub fn tx_sched_small_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.nic.connections = 128;
    c
}

/// The transmit scheduler's smallest design: 4 connections, one group (the RTL pads its search
/// to 16 groups of 32).
pub fn tx_sched_tiny_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.nic.connections = 4;
    c
}

/// The NIC's cwnd units' small design: the cwnd unit's small config (MTU 256, a 16-entry
/// table, `max_cwnd` 8197: every arm and clamp is reached quickly) at 4 connections, so ids
/// collide constantly.
pub fn nic_cwnd_small_config() -> strack_config::Config {
    let mut c = small_cwnd_config();
    c.nic.connections = 4;
    c
}

/// The entropy bitmaps' small design: the stand-alone block's small config (16 paths, a 5 us
/// bitmap reset, so full bitmaps and periodic resets come quickly) at 4 connections, so ids
/// collide constantly and a sweep is short.
pub fn nic_entropy_small_config() -> strack_config::Config {
    let mut c = small_config();
    c.nic.connections = 4;
    c
}

/// The send side's senders' small design: the small SACK design (a 1 KiB MTU, a 32-PSN window,
/// 8-bit segments, a 30 KiB window cap) at 4 connections, with a 1 us network base RTT, a 2 us
/// probe interval and a 5 us timeout, so that ids collide constantly, a sweep is short, windows
/// fill in a few dozen packets and probes, probe losses and timeouts come often.
pub fn nic_sender_small_config() -> strack_config::Config {
    let mut c = small_sack_config();
    c.nic.connections = 4;
    c.network.net_base_rtt_ns = 1_000;
    c.sack.probe_interval_ns = Some(2_000);
    c.sack.rto_ns = 5_000;
    c
}

/// `nic_sender`'s smallest window with a segment as wide as it (16 PSNs, 16-bit segments: one
/// placement, the whole window in one SACK), the window cap 12 KiB so that the config holds.
pub fn nic_sender_whole_segment_config() -> strack_config::Config {
    let mut c = nic_sender_small_config();
    c.sack.rx_window = 16;
    c.sack.sack_bits = 16;
    c.cwnd_unit.max_cwnd_bytes = Some(12 << 10);
    c
}
