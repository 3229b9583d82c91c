//! The one `Config` of the project.
//!
//! It feeds the golden model now and the RTL generics and Verilator parameters later, so that a
//! single TOML file describes one build. Sections follow the blocks of the STrack spec
//! (`docs/spec/strack.md`, restated in `docs/golden-model.md`); defaults are the paper's Table 1
//! at 400 Gb/s and an 8 us network base RTT.
//!
//! A few defaults are derived from other fields (the target queuing delay is the network base
//! RTT, `max_cwnd` is 1.5 x BDP, ...). In the TOML those fields are optional; `resolved()` fills
//! them in, and `strackgen config show` prints the resolved values.
//!
//! Every illegal value or combination is refused by [`Config::validate`] with a
//! [`ConfigError`] naming the field, the value and what is allowed.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Width of a PSN on the wire (docs/spec/strack.md, section 0: 24 bits, wrapping).
pub const PSN_BITS: u32 = 24;
/// Largest RTT sample, and largest `acked_bytes` of one ACK, the cwnd unit accepts (24-bit
/// fields). Larger values are malformed input: counted and ignored.
pub const RTT_BITS: u32 = 24;
/// Width of `acked_bytes` of one ACK.
pub const ACKED_BITS: u32 = 24;
/// Width of the timestamps (`now`, echoed timestamps). Time wraps at 2^32 ns (4.29 s); every
/// interval in the config must stay below 2^31 ns so wrapping differences are unambiguous.
pub const TIME_BITS: u32 = 32;
/// Width of the byte counters (`bytes_sent`, `bytes_recvd`); they wrap like TCP sequence numbers.
pub const BYTES_BITS: u32 = 32;
/// Width of the Q0.16 coefficients (`gamma`, `1 - gamma`, the decrease factor) and of the
/// `acked/cwnd` ratio's fraction.
pub const COEF_FRAC_BITS: u32 = 16;
/// Width of a reciprocal table entry (the entries lie in (2^15, 2^16)).
pub const RECIP_ENTRY_BITS: u32 = 16;
/// Fraction bits of `alpha * MTU` (bytes per ns).
pub const ALPHA_FRAC_BITS: u32 = 16;
/// The cwnd unit's pipeline depth: the result of an ACK accepted in cycle t is on its outputs
/// from cycle t + `CWND_LATENCY` (an architectural constant the model shares with the RTL).
pub const CWND_LATENCY: u32 = 15;
/// The most ACKs that can be ahead of an ACK in the cwnd unit's pipeline when it reads the
/// window its amounts are computed from (stage 2 of 15: the ACKs in stages 3 to 15). See
/// `golden_model::cwnd_unit`, "the window in flight".
pub const CWND_MAX_AHEAD: usize = CWND_LATENCY as usize - 2;

/// The multi-connection NIC's send side (`docs/blocks/nic_tx.md`): an event taken on cycle t
/// writes its connection's has-work bit at the transmit scheduler's input on cycle
/// t + `NIC_TX_WORK_WRITE` (the bit shows from the cycle after). Shared by the model and the
/// RTL.
pub const NIC_TX_WORK_WRITE: u64 = 10;
/// The send side's window view: an event taken on cycle t reads its connection's cwnd unit as
/// the SACKs (and opens) taken on cycles up to t - `NIC_TX_VIEW_LAG` left it (the cwnd unit's
/// pipeline lies between). Shared by the model and the RTL.
pub const NIC_TX_VIEW_LAG: u64 = 27;
/// 800 Gb/s at a 4 KiB MTU, packets per second: the line rate the blocks are measured against.
pub const LINE_RATE_PPS: f64 = 800e9 / (4096.0 * 8.0);
/// The SACKs per second 800 Gb/s brings back at 16 KiB coalescing.
pub const LINE_RATE_SACKS: f64 = 800e9 / (16384.0 * 8.0);
/// The senders' settling distance (`golden_model::nic_sender`, DECISION "settled searches"):
/// an event taken less than this many cycles after the last event that repositioned its
/// connection is unsettled (1 would make every event settled: exact). 5: the events 1 to 4
/// cycles ahead, the ones the sender's context shell forwards, decide. Shared by the model and
/// the RTL.
pub const NIC_SENDER_SETTLE: u64 = 5;

/// The whole configuration. Unknown keys anywhere are an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub network: NetworkConfig,
    pub entropy_bitmap: EntropyBitmapConfig,
    pub cwnd_unit: CwndUnitConfig,
    pub sack: SackConfig,
    pub fixed_point: FixedPointConfig,
    pub load_table: LoadTableConfig,
    pub nic: NicConfig,
}

/// The multi-connection NIC (`docs/blocks/nic.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NicConfig {
    /// Connections the NIC serves, one context record each (power of two, 1..=65536).
    pub connections: u32,
}

impl Default for NicConfig {
    fn default() -> Self {
        NicConfig { connections: 1024 }
    }
}

/// The network the NIC sits in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// Line rate, Gb/s (1..=3200).
    pub link_speed_gbps: u32,
    /// Network-wide base RTT, ns (`net_base_rtt` of the paper).
    pub net_base_rtt_ns: u32,
    /// Largest payload of one packet, bytes; a power of two so `cwnd_packets` is a shift.
    pub mtu_bytes: u32,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            link_speed_gbps: 400,
            net_base_rtt_ns: 8_000,
            mtu_bytes: 4096,
        }
    }
}

/// Entropy bitmap (docs/spec/strack.md, section 1; Algorithm 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EntropyBitmapConfig {
    /// Number of entropies tracked (power of two, 8..=4096).
    pub max_paths: u32,
    /// Period of the bitmap reset, ns; 0 = never. Default 2 x `net_base_rtt_ns`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bitmap_reset_interval_ns: Option<u32>,
}

impl Default for EntropyBitmapConfig {
    fn default() -> Self {
        EntropyBitmapConfig {
            max_paths: 256,
            bitmap_reset_interval_ns: None,
        }
    }
}

/// Congestion-window unit (docs/spec/strack.md, section 2; Algorithms 1, 2, 4 and Table 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CwndUnitConfig {
    /// `target_Qdelay`, ns. Default: the network base RTT (Table 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_qdelay_ns: Option<u32>,
    /// EWMA gain of `avg_delay`; must be 2^-k (k in 1..=8) so the hardware uses a shift.
    pub ewma: f64,
    /// Multiplicative-decrease parameter, in (0, 1); kept as Q0.16.
    pub gamma: f64,
    /// Largest window, bytes. Default 1.5 x BDP. The initial window is `max_cwnd`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cwnd_bytes: Option<u32>,
}

impl Default for CwndUnitConfig {
    fn default() -> Self {
        CwndUnitConfig {
            target_qdelay_ns: None,
            ewma: 0.125,
            gamma: 0.8,
            max_cwnd_bytes: None,
        }
    }
}

/// SACK tracker (docs/spec/strack.md, section 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SackConfig {
    /// Receive (and send) tracking window, PSNs; power of two, 16..=4096.
    pub rx_window: u32,
    /// Bits of the bitmap segment one SACK carries; power of two, 8..=256, <= rx_window.
    pub sack_bits: u32,
    /// A SACK is sent once this many bytes arrived since the last one (1..=1048576).
    pub ack_coalesce_bytes: u32,
    /// Probe after this long without a SACK, ns. Default 3 x `net_base_rtt_ns`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probe_interval_ns: Option<u32>,
    /// Retransmission timeout, ns.
    pub rto_ns: u32,
    /// The OOO loss threshold is `max(cwnd_packets, ooo_min_threshold)` (the paper's "say 5").
    pub ooo_min_threshold: u32,
}

impl Default for SackConfig {
    fn default() -> Self {
        SackConfig {
            rx_window: 256,
            sack_bits: 64,
            ack_coalesce_bytes: 16_384,
            probe_interval_ns: None,
            rto_ns: 100_000,
            ooo_min_threshold: 5,
        }
    }
}

/// Fixed-point formats of the cwnd unit (see `docs/golden-model.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FixedPointConfig {
    /// Fraction bits of `cwnd` (bytes); `cwnd` is a 32-bit unsigned Q(32-f).f.
    pub cwnd_frac_bits: u32,
    /// Fraction bits of `avg_delay` (ns); a 32-bit unsigned Q(32-f).f.
    pub delay_frac_bits: u32,
    /// Index bits of the reciprocal table used for `1/cwnd` and `1/avg_delay`.
    pub recip_index_bits: u32,
}

impl Default for FixedPointConfig {
    fn default() -> Self {
        FixedPointConfig {
            cwnd_frac_bits: 8,
            delay_frac_bits: 8,
            recip_index_bits: 8,
        }
    }
}

/// Switch load table of the MLCC flow scheduler (docs/spec/load-table.md, restated in
/// `docs/blocks/load_table.md` and `docs/scheduler.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoadTableConfig {
    /// Egress links of the switch, one table row each (1..=4096).
    pub links: u32,
    /// Future time slots per row, `K` (2..=16; the paper uses 10).
    pub slots: u32,
    /// Width of one load entry, bits: 8, 16 or 32. A packet's deltas are `load_bits + 1`-bit
    /// two's complement; the path-load field's elements are `load_bits + 4` bits.
    pub load_bits: u32,
    /// What one unit of a load entry means, Mb/s (1..=100000).
    pub rate_unit_mbps: u32,
    /// A time slot lasts `2^slot_log2_ns` ns (10..=36; 26 is 67.1 ms, near the paper's 60 ms).
    pub slot_log2_ns: u32,
    /// UDP destination port that marks the load-table shim header (`docs/wire-format.md`);
    /// 1..=65535. The default, 0xCAFE, is in the dynamic range (49152..=65535).
    pub udp_port: u32,
    /// The host scheduler's weight on finishing early (Algorithm 1's score `cost + b * w`,
    /// `w = beta_weight * V * C`; `docs/scheduler.md`): a finite number >= 0, default 1.0;
    /// 0 keeps the cost-only rule.
    pub beta_weight: f64,
}

impl Default for LoadTableConfig {
    fn default() -> Self {
        LoadTableConfig {
            links: 64,
            slots: 10,
            load_bits: 16,
            rate_unit_mbps: 100,
            slot_log2_ns: 26,
            udp_port: 0xCAFE,
            beta_weight: 1.0,
        }
    }
}

/// Extra bits of a path-load element over a load entry: a path of up to 16 hops of saturated
/// links adds up without saturating the field.
pub const PATH_LOAD_EXTRA_BITS: u32 = 4;

/// Width of the switch's ingress timestamp, ns (Tofino's MAC timestamp; BMv2's microseconds
/// times 1000, truncated). Slot numbers wrap with it.
pub const LT_TIMESTAMP_BITS: u32 = 48;

/// One refused value: which field, what it was, what is allowed.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub field: String,
    pub value: String,
    pub allowed: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` = {}: {}", self.field, self.value, self.allowed)
    }
}

/// Why a configuration was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    #[error("invalid configuration ({} error{}):\n{}", .0.len(), if .0.len() == 1 { "" } else { "s" },
            .0.iter().map(|e| format!("  - {e}")).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<FieldError>),
}

/// Time intervals must stay below 2^31 ns; we allow up to one second, far above any use.
const MAX_INTERVAL_NS: u32 = 1_000_000_000;

/// Fixed-point constants of the cwnd unit, derived once from the config so the RTL and the model
/// read the same numbers. Every `_q` value is an unsigned integer in the format its doc gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CwndConstants {
    /// `cwnd` fraction bits (`fixed_point.cwnd_frac_bits`).
    pub cwnd_frac: u32,
    /// `avg_delay` fraction bits (`fixed_point.delay_frac_bits`).
    pub delay_frac: u32,
    /// Reciprocal table index bits.
    pub recip_index_bits: u32,
    /// `ewma = 2^-ewma_shift`.
    pub ewma_shift: u32,
    /// `MTU` in cwnd format.
    pub mtu_q: u32,
    /// `log2(MTU)`: `cwnd_packets = cwnd_bytes >> mtu_log2`.
    pub mtu_log2: u32,
    /// `max_cwnd` in cwnd format.
    pub max_cwnd_q: u32,
    /// `max_cwnd` in bytes (the achievedBDP cut's test is `8 * achievedBDP < max_cwnd`,
    /// exact: [`CwndConstants::bdp_cut_limit`]).
    pub max_cwnd_bytes: u32,
    /// `target_Qdelay`, ns.
    pub tq_ns: u32,
    /// `target_Qhigh = 3 * target_Qdelay`, ns.
    pub tq_high_ns: u32,
    /// `beta * MTU` in cwnd format (bytes).
    pub beta_mtu_q: u32,
    /// `eta * MTU` in cwnd format (bytes).
    pub eta_mtu_q: u32,
    /// `alpha * MTU`, bytes per ns, with `ALPHA_FRAC_BITS` fraction bits.
    pub alpha_mtu_q: u32,
    /// `gamma` in Q0.16.
    pub gamma_q16: u32,
    /// `1 - gamma` in Q0.16 (computed as `65536 - gamma_q16`, so the two sum to one exactly).
    pub one_minus_gamma_q16: u32,
}

impl CwndConstants {
    /// `ceil(max_cwnd / 8)`: `achievedBDP < this` is exactly `8 * achievedBDP < max_cwnd` (for
    /// an integer achievedBDP, `8a < m` <=> `a < m / 8` <=> `a < ceil(m / 8)`), so the hardware
    /// compares against one constant. It is not `floor(max_cwnd / 8)`, which differs when
    /// `max_cwnd` is not a multiple of 8.
    pub fn bdp_cut_limit(&self) -> u32 {
        self.max_cwnd_bytes.div_ceil(8)
    }
}

impl Config {
    /// Parse TOML text (unknown keys are errors) and validate it. A value of the wrong type is
    /// refused naming its key (`load_table.beta_weight`: invalid type: string ...).
    pub fn from_toml_str(text: &str, path: &str) -> Result<Config, ConfigError> {
        let de = toml::Deserializer::new(text);
        let cfg: Config = serde_path_to_error::deserialize(de).map_err(|e| {
            let key = e.path().to_string();
            let inner = e.into_inner().to_string();
            ConfigError::Parse {
                path: path.to_string(),
                message: if key.is_empty() || key == "." {
                    inner
                } else {
                    format!("`{key}`: {inner}")
                },
            }
        })?;
        cfg.validate()?;
        Ok(cfg)
    }

    /// Read, parse and validate a TOML file.
    pub fn from_file(path: &str) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_string(),
            source,
        })?;
        Config::from_toml_str(&text, path)
    }

    /// The same configuration with every derived default written out.
    pub fn resolved(&self) -> Config {
        let mut c = self.clone();
        c.entropy_bitmap.bitmap_reset_interval_ns = Some(self.bitmap_reset_interval_ns());
        c.cwnd_unit.target_qdelay_ns = Some(self.target_qdelay_ns());
        c.cwnd_unit.max_cwnd_bytes = Some(self.max_cwnd_bytes());
        c.sack.probe_interval_ns = Some(self.probe_interval_ns());
        c
    }

    /// The resolved configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(&self.resolved()).expect("a Config always serializes")
    }

    /// SHA-256 of [`Config::to_toml`] (the resolved config), in hex: names the config a set of
    /// generated files was made from.
    pub fn sha256(&self) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.to_toml().as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    // ---- derived values -------------------------------------------------------------------

    /// Line rate in bytes per ns.
    pub fn link_bytes_per_ns(&self) -> f64 {
        self.network.link_speed_gbps as f64 / 8.0
    }
    /// Bandwidth-delay product, bytes (line rate x network base RTT).
    pub fn bdp_bytes(&self) -> f64 {
        self.link_bytes_per_ns() * self.network.net_base_rtt_ns as f64
    }
    /// Table 1: `bdp_sf = BDP / (100 Gb/s * 12 us)`.
    pub fn bdp_sf(&self) -> f64 {
        self.bdp_bytes() / (12.5 * 12_000.0)
    }
    /// Table 1: `beta = 5 * bdp_sf` (in MTUs per window of ACKs).
    pub fn beta(&self) -> f64 {
        5.0 * self.bdp_sf()
    }
    /// Table 1: `eta = 0.15 * bdp_sf`.
    pub fn eta(&self) -> f64 {
        0.15 * self.bdp_sf()
    }
    /// Table 1: `alpha = 4.0 * bdp_sf * delay_sf / base_rtt` with `delay_sf = base_rtt / 12 us`;
    /// the base RTT cancels, leaving `4 * bdp_sf / 12 us` (per ns).
    pub fn alpha_per_ns(&self) -> f64 {
        4.0 * self.bdp_sf() / 12_000.0
    }
    /// `target_Qdelay`, ns (default: the network base RTT).
    pub fn target_qdelay_ns(&self) -> u32 {
        self.cwnd_unit
            .target_qdelay_ns
            .unwrap_or(self.network.net_base_rtt_ns)
    }
    /// `target_Qhigh = 3 * target_Qdelay`, ns.
    pub fn target_qhigh_ns(&self) -> u32 {
        self.target_qdelay_ns().saturating_mul(3)
    }
    /// `max_cwnd`, bytes (default 1.5 x BDP, rounded down).
    pub fn max_cwnd_bytes(&self) -> u32 {
        self.cwnd_unit.max_cwnd_bytes.unwrap_or_else(|| {
            let v = (1.5 * self.bdp_bytes()).floor();
            if v >= u32::MAX as f64 {
                u32::MAX
            } else {
                v as u32
            }
        })
    }
    /// Bitmap reset period, ns (default 2 x network base RTT; 0 = never).
    pub fn bitmap_reset_interval_ns(&self) -> u32 {
        self.entropy_bitmap
            .bitmap_reset_interval_ns
            .unwrap_or(self.network.net_base_rtt_ns.saturating_mul(2))
    }
    /// Probe interval, ns (default 3 x network base RTT).
    pub fn probe_interval_ns(&self) -> u32 {
        self.sack
            .probe_interval_ns
            .unwrap_or(self.network.net_base_rtt_ns.saturating_mul(3))
    }
    /// `log2(max_paths)`: width of an entropy.
    pub fn paths_bits(&self) -> u32 {
        self.entropy_bitmap.max_paths.trailing_zeros()
    }
    /// `log2(MTU)`.
    pub fn mtu_log2(&self) -> u32 {
        self.network.mtu_bytes.trailing_zeros()
    }
    /// `log2(rx_window)`.
    pub fn rx_window_bits(&self) -> u32 {
        self.sack.rx_window.trailing_zeros()
    }
    /// `log2(sack_bits)`.
    pub fn sack_bits_log2(&self) -> u32 {
        self.sack.sack_bits.trailing_zeros()
    }
    /// `ewma = 2^-ewma_shift`.
    pub fn ewma_shift(&self) -> u32 {
        ewma_shift_of(self.cwnd_unit.ewma).unwrap_or(0)
    }

    /// Width of a load-table delta element (`load_bits + 1`, two's complement).
    pub fn delta_bits(&self) -> u32 {
        self.load_table.load_bits + 1
    }
    /// Width of a path-load element (`load_bits + 4`).
    pub fn path_load_bits(&self) -> u32 {
        self.load_table.load_bits + PATH_LOAD_EXTRA_BITS
    }
    /// Largest load entry, `2^load_bits - 1`.
    pub fn load_max(&self) -> u64 {
        (1u64 << self.load_table.load_bits) - 1
    }
    /// Largest path-load element, `2^(load_bits + 4) - 1`.
    pub fn path_load_max(&self) -> u64 {
        (1u64 << self.path_load_bits()) - 1
    }
    /// Slot length, ns.
    pub fn slot_ns(&self) -> u64 {
        1u64 << self.load_table.slot_log2_ns
    }
    /// The lazily cleared table of the switch (P4) variants: `R` slot registers, the power of two
    /// at or above `K`, so a slot's register and epoch are bit slices of its number.
    pub fn lt_ring_slots(&self) -> u32 {
        self.load_table.slots.next_power_of_two()
    }
    /// Width of a cell's epoch tag in the lazily cleared table: the bits of the slot number
    /// above the register index that a 48-bit nanosecond timestamp has, at most 32 (a cell is
    /// `{epoch, load}` in at most 64 bits).
    pub fn lt_epoch_bits(&self) -> u32 {
        let slot_bits = LT_TIMESTAMP_BITS - self.load_table.slot_log2_ns;
        (slot_bits - self.lt_ring_slots().trailing_zeros()).min(32)
    }

    /// Fixed-point constants of the cwnd unit. Call on a validated config.
    pub fn cwnd_constants(&self) -> CwndConstants {
        let cf = self.fixed_point.cwnd_frac_bits;
        let mtu = self.network.mtu_bytes;
        let max_cwnd = self.max_cwnd_bytes();
        let gamma_q16 = q16(self.cwnd_unit.gamma);
        CwndConstants {
            cwnd_frac: cf,
            delay_frac: self.fixed_point.delay_frac_bits,
            recip_index_bits: self.fixed_point.recip_index_bits,
            ewma_shift: self.ewma_shift(),
            mtu_q: mtu << cf,
            mtu_log2: self.mtu_log2(),
            max_cwnd_q: max_cwnd << cf,
            max_cwnd_bytes: max_cwnd,
            tq_ns: self.target_qdelay_ns(),
            tq_high_ns: self.target_qhigh_ns(),
            beta_mtu_q: round_q(self.beta() * mtu as f64, cf) as u32,
            eta_mtu_q: round_q(self.eta() * mtu as f64, cf) as u32,
            alpha_mtu_q: round_q(self.alpha_per_ns() * mtu as f64, ALPHA_FRAC_BITS) as u32,
            gamma_q16,
            one_minus_gamma_q16: (1 << COEF_FRAC_BITS) - gamma_q16,
        }
    }

    /// Check every field and combination; report all problems at once.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut errs = Vec::new();
        let mut bad = |field: &str, value: String, allowed: String| {
            errs.push(FieldError {
                field: field.to_string(),
                value,
                allowed,
            })
        };
        let n = &self.network;
        range(
            &mut bad,
            "network.link_speed_gbps",
            n.link_speed_gbps,
            1,
            3200,
        );
        range(
            &mut bad,
            "network.net_base_rtt_ns",
            n.net_base_rtt_ns,
            100,
            1_000_000,
        );
        key(&mut bad, &legal::MTU_BYTES, n.mtu_bytes);

        let e = &self.entropy_bitmap;
        key(&mut bad, &legal::MAX_PATHS, e.max_paths);
        if let Some(v) = e.bitmap_reset_interval_ns {
            range(
                &mut bad,
                "entropy_bitmap.bitmap_reset_interval_ns",
                v,
                0,
                MAX_INTERVAL_NS,
            );
        }

        let c = &self.cwnd_unit;
        if let Some(v) = c.target_qdelay_ns {
            range(&mut bad, "cwnd_unit.target_qdelay_ns", v, 100, 1_000_000);
        }
        if ewma_shift_of(c.ewma).is_none() {
            bad(
                "cwnd_unit.ewma",
                c.ewma.to_string(),
                "must be a power of two 2^-k with k in 1..=8 (0.5, 0.25, ..., 0.00390625), \
                 so the hardware averages with a shift"
                    .into(),
            );
        }
        if !(c.gamma > 0.0 && c.gamma < 1.0) || q16(c.gamma) == 0 || q16(c.gamma) >= 1 << 16 {
            bad(
                "cwnd_unit.gamma",
                c.gamma.to_string(),
                "must be in (0, 1) and representable in Q0.16 (1/65536 ..= 65535/65536)".into(),
            );
        }
        if let Some(v) = c.max_cwnd_bytes {
            if v < n.mtu_bytes {
                bad(
                    "cwnd_unit.max_cwnd_bytes",
                    v.to_string(),
                    format!("must be at least network.mtu_bytes ({})", n.mtu_bytes),
                );
            }
        }

        let s = &self.sack;
        key(&mut bad, &legal::RX_WINDOW, s.rx_window);
        key(&mut bad, &legal::SACK_BITS, s.sack_bits);
        if s.sack_bits.is_power_of_two()
            && s.rx_window.is_power_of_two()
            && s.sack_bits > s.rx_window
        {
            bad(
                "sack.sack_bits",
                s.sack_bits.to_string(),
                format!("must not exceed sack.rx_window ({})", s.rx_window),
            );
        }
        range(
            &mut bad,
            "sack.ack_coalesce_bytes",
            s.ack_coalesce_bytes,
            1,
            1 << 20,
        );
        if let Some(v) = s.probe_interval_ns {
            range(&mut bad, "sack.probe_interval_ns", v, 1, MAX_INTERVAL_NS);
        }
        range(&mut bad, "sack.rto_ns", s.rto_ns, 1, MAX_INTERVAL_NS);
        range(
            &mut bad,
            "sack.ooo_min_threshold",
            s.ooo_min_threshold,
            1,
            4096,
        );
        let probe = self.probe_interval_ns();
        if probe < n.net_base_rtt_ns {
            bad(
                "sack.probe_interval_ns",
                probe.to_string(),
                format!(
                    "must be at least network.net_base_rtt_ns ({}): an earlier probe is always \
                     spurious",
                    n.net_base_rtt_ns
                ),
            );
        }
        if s.rto_ns <= probe {
            bad(
                "sack.rto_ns",
                s.rto_ns.to_string(),
                format!(
                    "must exceed sack.probe_interval_ns ({probe}): the timeout is the slowest \
                     of the three loss detectors"
                ),
            );
        }

        let f = &self.fixed_point;
        range(
            &mut bad,
            "fixed_point.cwnd_frac_bits",
            f.cwnd_frac_bits,
            0,
            12,
        );
        range(
            &mut bad,
            "fixed_point.delay_frac_bits",
            f.delay_frac_bits,
            0,
            8,
        );
        key(&mut bad, &legal::RECIP_INDEX_BITS, f.recip_index_bits);

        let t = &self.load_table;
        key(&mut bad, &legal::LT_LINKS, t.links);
        key(&mut bad, &legal::LT_SLOTS, t.slots);
        key(&mut bad, &legal::LT_LOAD_BITS, t.load_bits);
        range(
            &mut bad,
            "load_table.rate_unit_mbps",
            t.rate_unit_mbps,
            1,
            100_000,
        );
        range(&mut bad, "load_table.slot_log2_ns", t.slot_log2_ns, 10, 36);
        range(&mut bad, "load_table.udp_port", t.udp_port, 1, 65535);
        if !(t.beta_weight.is_finite() && t.beta_weight >= 0.0) {
            bad(
                "load_table.beta_weight",
                t.beta_weight.to_string(),
                "must be a finite number >= 0 (0 = the cost-only schedule)".into(),
            );
        }

        key(&mut bad, &legal::NIC_CONNECTIONS, self.nic.connections);

        // The receive window must hold the largest window's packets (spec DECISION, config
        // consistency): the sender keeps at most rx_window PSNs in flight and the receiver
        // counts at most rx_window - 1 out of order, so a smaller window caps the sender below
        // cwnd and the OOO detector (`ooo_count > max(cwnd_packets, ooo_min_threshold)`)
        // could never fire.
        if s.rx_window.is_power_of_two() && (16..=4096).contains(&s.rx_window) {
            if n.mtu_bytes.is_power_of_two() && (256..=16_384).contains(&n.mtu_bytes) {
                let max_cwnd = self.max_cwnd_bytes();
                let need = max_cwnd.div_ceil(n.mtu_bytes) as u64 + 2;
                if (s.rx_window as u64) < need {
                    let derived = if c.max_cwnd_bytes.is_some() {
                        ""
                    } else {
                        " (derived: 1.5 x BDP)"
                    };
                    bad(
                        "sack.rx_window",
                        s.rx_window.to_string(),
                        format!(
                            "must be at least ceil(max_cwnd / MTU) + 2 = {need} for \
                             cwnd_unit.max_cwnd_bytes = {max_cwnd}{derived} and \
                             network.mtu_bytes = {}: the sender may have at most rx_window \
                             PSNs in flight; raise sack.rx_window or lower max_cwnd_bytes",
                            n.mtu_bytes
                        ),
                    );
                }
            }
            if s.ooo_min_threshold > s.rx_window - 2 {
                bad(
                    "sack.ooo_min_threshold",
                    s.ooo_min_threshold.to_string(),
                    format!(
                        "must be at most sack.rx_window - 2 = {} (sack.rx_window = {}): \
                         ooo_count never exceeds rx_window - 1, so the out-of-order loss \
                         detector could never fire",
                        s.rx_window - 2,
                        s.rx_window
                    ),
                );
            }
        }

        // Width checks on derived constants only make sense once their inputs are legal.
        if errs_is_empty_for_widths(self) {
            let cf = f.cwnd_frac_bits;
            let max_cwnd = self.max_cwnd_bytes() as u64;
            let limit = 1u64 << 32;
            if (max_cwnd << cf) >= limit {
                let field = if c.max_cwnd_bytes.is_some() {
                    "cwnd_unit.max_cwnd_bytes"
                } else {
                    "cwnd_unit.max_cwnd_bytes (derived: 1.5 x BDP)"
                };
                bad(
                    field,
                    max_cwnd.to_string(),
                    format!(
                        "max_cwnd << fixed_point.cwnd_frac_bits ({cf}) must fit the 32-bit cwnd \
                         field: at most {} bytes",
                        (limit >> cf) - 1
                    ),
                );
            }
            let beta_mtu = round_q(self.beta() * n.mtu_bytes as f64, cf);
            if beta_mtu >= limit as f64 {
                bad(
                    "network.link_speed_gbps x network.net_base_rtt_ns x network.mtu_bytes",
                    format!(
                        "{} x {} x {}",
                        n.link_speed_gbps, n.net_base_rtt_ns, n.mtu_bytes
                    ),
                    format!(
                        "derived beta*MTU ({:.0} bytes) << fixed_point.cwnd_frac_bits ({cf}) \
                         must fit 32 bits; lower one of them",
                        self.beta() * n.mtu_bytes as f64
                    ),
                );
            }
            let alpha_mtu = round_q(self.alpha_per_ns() * n.mtu_bytes as f64, ALPHA_FRAC_BITS);
            if alpha_mtu >= limit as f64 {
                bad(
                    "network.link_speed_gbps x network.net_base_rtt_ns x network.mtu_bytes",
                    format!(
                        "{} x {} x {}",
                        n.link_speed_gbps, n.net_base_rtt_ns, n.mtu_bytes
                    ),
                    "derived alpha*MTU (bytes/ns, Q16.16) must fit 32 bits; lower one of them"
                        .into(),
                );
            }
            // The proportional gain (alpha*MTU)_q16 * (tq - delay) >> (16 - cf) peaks at delay 0
            // and must fit the 32-bit field the RTL keeps it in (exact integer check).
            let tq = self.target_qdelay_ns() as u128;
            let gain = (alpha_mtu as u128 * tq) >> (ALPHA_FRAC_BITS - cf.min(ALPHA_FRAC_BITS));
            if alpha_mtu < limit as f64 && gain >= limit as u128 {
                bad(
                    "cwnd_unit.target_qdelay_ns",
                    tq.to_string(),
                    format!(
                        "derived peak gain alpha*MTU*target_qdelay ({:.0} bytes) << \
                         fixed_point.cwnd_frac_bits ({cf}) must fit 32 bits; lower it, \
                         network.mtu_bytes or the BDP",
                        self.alpha_per_ns() * n.mtu_bytes as f64 * tq as f64
                    ),
                );
            }
            if round_q(self.eta() * n.mtu_bytes as f64, cf) < 1.0 {
                bad(
                    "network.link_speed_gbps x network.net_base_rtt_ns",
                    format!("{} x {}", n.link_speed_gbps, n.net_base_rtt_ns),
                    format!(
                        "derived eta*MTU rounds to 0 in the cwnd format \
                         (fixed_point.cwnd_frac_bits = {cf}); raise cwnd_frac_bits"
                    ),
                );
            }
        }

        if errs.is_empty() {
            Ok(())
        } else {
            Err(ConfigError::Invalid(errs))
        }
    }
}

/// The derived-width checks need legal inputs (a power-of-two MTU, a fraction width in range).
fn errs_is_empty_for_widths(cfg: &Config) -> bool {
    cfg.network.mtu_bytes.is_power_of_two()
        && cfg.fixed_point.cwnd_frac_bits <= 12
        && (1..=3200).contains(&cfg.network.link_speed_gbps)
        && (100..=1_000_000).contains(&cfg.network.net_base_rtt_ns)
}

fn range(bad: &mut impl FnMut(&str, String, String), field: &str, v: u32, lo: u32, hi: u32) {
    if v < lo || v > hi {
        bad(field, v.to_string(), format!("must be in {lo}..={hi}"));
    }
}

/// A key whose legal values [`legal`] defines.
fn key(bad: &mut impl FnMut(&str, String, String), k: &legal::Key, v: u32) {
    if !k.allows(u64::from(v)) {
        bad(k.name, v.to_string(), k.rule());
    }
}

/// `k` such that `x == 2^-k`, for k in 1..=8.
fn ewma_shift_of(x: f64) -> Option<u32> {
    (1..=8).find(|&k| x == 1.0 / (1u32 << k) as f64)
}

/// Round a non-negative real to an unsigned fixed-point integer with `frac` fraction bits.
fn round_q(x: f64, frac: u32) -> f64 {
    (x * (1u64 << frac) as f64).round()
}

fn q16(x: f64) -> u32 {
    let v = round_q(x.clamp(0.0, 2.0), COEF_FRAC_BITS);
    v as u32
}

/// Entry `idx` of the reciprocal table with `index_bits` index bits.
///
/// A normalized value `m` in `[2^R, 2^(R+1))` (R = `index_bits`) selects entry `m - 2^R`; the
/// entry is `round(2^(16+R) / (m + 0.5))`, i.e. 2^16 times the reciprocal of the interval's
/// midpoint scaled into `(0.5, 1]`. Entries lie in `(2^15, 2^16)`, so they fit 16 bits. This is
/// a constant table shared by the RTL ROM and the golden model, like Table 1's constants.
pub fn recip_table_entry(idx: u32, index_bits: u32) -> u32 {
    let num = 1u64 << (RECIP_ENTRY_BITS + index_bits + 1);
    let den = 2 * ((1u64 << index_bits) + idx as u64) + 1;
    // round(num / den) in integers
    ((2 * num + den) / (2 * den)) as u32
}

pub mod context;
pub mod legal;
pub mod wire;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_config_is_valid_and_matches_table1() {
        let c = Config::default();
        c.validate().unwrap();
        assert_eq!(c.bdp_bytes(), 400_000.0);
        assert_eq!(c.max_cwnd_bytes(), 600_000);
        assert_eq!(c.target_qdelay_ns(), 8_000);
        assert_eq!(c.target_qhigh_ns(), 24_000);
        assert!((c.bdp_sf() - 400_000.0 / 150_000.0).abs() < 1e-12);
        assert_eq!(c.ewma_shift(), 3);
        assert_eq!(c.paths_bits(), 8);
    }

    #[test]
    fn nic_connections_must_be_a_power_of_two() {
        for bad in [0, 3, 1000, 131_072] {
            let mut c = Config::default();
            c.nic.connections = bad;
            let e = c.validate().unwrap_err().to_string();
            assert!(
                e.contains(&format!(
                    "`nic.connections` = {bad}: must be a power of two in 1..=65536"
                )),
                "{e}"
            );
        }
        let mut c = Config::default();
        c.nic.connections = 1;
        c.validate().unwrap();
    }

    #[test]
    fn default_toml_file_equals_builtin_defaults() {
        let text = include_str!("../default.toml");
        let c = Config::from_toml_str(text, "default.toml").unwrap();
        assert_eq!(c.resolved(), Config::default().resolved());
    }

    #[test]
    fn resolved_round_trips_through_toml() {
        let c = Config::default();
        let back = Config::from_toml_str(&c.to_toml(), "show").unwrap();
        assert_eq!(back, c.resolved());
    }

    #[test]
    fn recip_table_entries_fit_16_bits_and_approximate_reciprocal() {
        for r in 4..=12 {
            for idx in 0..(1u32 << r) {
                let e = recip_table_entry(idx, r);
                assert!(e > 1 << 15 && e < 1 << 16, "r={r} idx={idx} e={e}");
                let m = (1u64 << r) as f64 + idx as f64;
                let exact = (1u64 << (16 + r)) as f64 / m;
                assert!(((e as f64) - exact).abs() / exact <= 1.0 / (1u64 << r) as f64);
            }
        }
    }

    #[test]
    fn gamma_and_one_minus_gamma_sum_to_one() {
        let k = Config::default().cwnd_constants();
        assert_eq!(k.gamma_q16 + k.one_minus_gamma_q16, 1 << 16);
        assert_eq!(k.gamma_q16, 52_429);
    }

    fn errors_of(c: &Config) -> Vec<FieldError> {
        match c.validate() {
            Err(ConfigError::Invalid(v)) => v,
            other => panic!("{other:?}"),
        }
    }

    /// 600000 B of window in 4096 B packets is ceil(146.48) = 147 packets, so the receive
    /// window needs 149 PSNs: 256 passes, 128 is refused naming both values.
    #[test]
    fn the_receive_window_must_hold_the_largest_window() {
        let mut c = Config::default();
        c.sack.rx_window = 128;
        let e = errors_of(&c);
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].field, "sack.rx_window");
        assert_eq!(e[0].value, "128");
        assert!(e[0].allowed.contains("= 149"), "{}", e[0]);
        assert!(
            e[0].allowed.contains("max_cwnd_bytes = 600000 (derived"),
            "{}",
            e[0]
        );
        // 126 packets of 4096 B: 126 + 2 = 128 fits; one byte more needs 129.
        c.cwnd_unit.max_cwnd_bytes = Some(126 * 4096);
        c.validate().unwrap();
        c.cwnd_unit.max_cwnd_bytes = Some(126 * 4096 + 1);
        let e = errors_of(&c);
        assert!(e[0]
            .allowed
            .contains("= 129 for cwnd_unit.max_cwnd_bytes = 516097 and"));
    }

    /// ooo_count tops out at rx_window - 1, so the threshold may be at most rx_window - 2.
    #[test]
    fn the_ooo_threshold_must_be_reachable() {
        let mut c = Config::default();
        c.sack.ooo_min_threshold = 254;
        c.validate().unwrap();
        c.sack.ooo_min_threshold = 255;
        let e = errors_of(&c);
        assert_eq!(
            (e[0].field.as_str(), e[0].value.as_str()),
            ("sack.ooo_min_threshold", "255")
        );
        assert!(e[0]
            .allowed
            .contains("at most sack.rx_window - 2 = 254 (sack.rx_window = 256)"));
    }

    #[test]
    fn beta_weight_must_be_finite_and_not_negative() {
        let mut c = Config::default();
        assert_eq!(c.load_table.beta_weight, 1.0);
        c.load_table.beta_weight = 0.0;
        c.validate().unwrap();
        for v in [-1.0, f64::NAN, f64::INFINITY] {
            c.load_table.beta_weight = v;
            let e = errors_of(&c);
            assert_eq!(e[0].field, "load_table.beta_weight", "{v}");
        }
        let e = Config::from_toml_str("[load_table]\nbeta_weight = nan\n", "t").unwrap_err();
        assert!(
            e.to_string().contains("`load_table.beta_weight` = NaN"),
            "{e}"
        );
        let e = Config::from_toml_str("[load_table]\nbeta_weight = \"high\"\n", "t").unwrap_err();
        assert!(
            e.to_string().starts_with("t: `load_table.beta_weight`: "),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("invalid type: string \"high\", expected f64"),
            "{e}"
        );
    }

    #[test]
    fn all_errors_are_reported_together() {
        let mut c = Config::default();
        c.network.mtu_bytes = 1500;
        c.sack.rx_window = 100;
        match c.validate() {
            Err(ConfigError::Invalid(v)) => assert_eq!(v.len(), 2, "{v:?}"),
            other => panic!("{other:?}"),
        }
    }
}
