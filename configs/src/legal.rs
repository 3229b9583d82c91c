//! The values a config key may take, written once: [`crate::Config::validate`] checks them, the
//! RTL generator's dispatch (const generics, one instance per legal value) refuses anything
//! else in the same words, and its tests generate every legal value, so the two cannot drift.

/// What a key allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// `min..=max`.
    Range(u64, u64),
    /// A power of two in `min..=max`.
    Pow2(u64, u64),
    /// One of these.
    OneOf(&'static [u64]),
}

/// A config key and what it allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// `section.key`, as in the TOML file.
    pub name: &'static str,
    pub allowed: Allowed,
}

impl Key {
    pub fn allows(&self, v: u64) -> bool {
        match self.allowed {
            Allowed::Range(lo, hi) => (lo..=hi).contains(&v),
            Allowed::Pow2(lo, hi) => v.is_power_of_two() && (lo..=hi).contains(&v),
            Allowed::OneOf(set) => set.contains(&v),
        }
    }

    /// "in 4..=12", "a power of two in 8..=4096", "8, 16 or 32".
    pub fn describe(&self) -> String {
        match self.allowed {
            Allowed::Range(lo, hi) => format!("in {lo}..={hi}"),
            Allowed::Pow2(lo, hi) => format!("a power of two in {lo}..={hi}"),
            Allowed::OneOf(set) => {
                let v: Vec<String> = set.iter().map(u64::to_string).collect();
                match v.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("{} or {last}", rest.join(", "))
                    }
                    _ => v.join(""),
                }
            }
        }
    }

    /// "must be " and [`Key::describe`]: what an error message says.
    pub fn rule(&self) -> String {
        format!("must be {}", self.describe())
    }

    /// "`name` = v: must be ...".
    pub fn refusal(&self, v: impl std::fmt::Display) -> String {
        format!("`{}` = {v}: {}", self.name, self.rule())
    }

    /// Every legal value, smallest first (a range's only when it has at most 4096).
    pub fn values(&self) -> Vec<u64> {
        match self.allowed {
            Allowed::Range(lo, hi) if hi - lo < 4096 => (lo..=hi).collect(),
            Allowed::Range(..) => Vec::new(),
            Allowed::Pow2(lo, hi) => (0..64)
                .map(|k| 1u64 << k)
                .filter(|v| (lo..=hi).contains(v))
                .collect(),
            Allowed::OneOf(set) => set.to_vec(),
        }
    }
}

pub const MTU_BYTES: Key = Key {
    name: "network.mtu_bytes",
    allowed: Allowed::Pow2(256, 16_384),
};
pub const MAX_PATHS: Key = Key {
    name: "entropy_bitmap.max_paths",
    allowed: Allowed::Pow2(8, 4096),
};
pub const RX_WINDOW: Key = Key {
    name: "sack.rx_window",
    allowed: Allowed::Pow2(16, 4096),
};
pub const SACK_BITS: Key = Key {
    name: "sack.sack_bits",
    allowed: Allowed::Pow2(8, 256),
};
pub const RECIP_INDEX_BITS: Key = Key {
    name: "fixed_point.recip_index_bits",
    allowed: Allowed::Range(4, 12),
};
pub const LT_LINKS: Key = Key {
    name: "load_table.links",
    allowed: Allowed::Range(1, 4096),
};
pub const LT_SLOTS: Key = Key {
    name: "load_table.slots",
    allowed: Allowed::Range(2, 16),
};
pub const LT_LOAD_BITS: Key = Key {
    name: "load_table.load_bits",
    allowed: Allowed::OneOf(&[8, 16, 32]),
};
pub const NIC_CONNECTIONS: Key = Key {
    name: "nic.connections",
    allowed: Allowed::Pow2(1, 65_536),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_describes_and_lists_what_it_allows() {
        assert_eq!(
            MAX_PATHS.values(),
            [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
        );
        assert!(MAX_PATHS.allows(64) && !MAX_PATHS.allows(48) && !MAX_PATHS.allows(8192));
        assert_eq!(
            MAX_PATHS.refusal(300),
            "`entropy_bitmap.max_paths` = 300: must be a power of two in 8..=4096"
        );
        assert_eq!(RECIP_INDEX_BITS.rule(), "must be in 4..=12");
        assert_eq!(RECIP_INDEX_BITS.values().len(), 9);
        assert_eq!(LT_LOAD_BITS.rule(), "must be 8, 16 or 32");
        assert!(LT_LOAD_BITS.allows(16) && !LT_LOAD_BITS.allows(24));
    }
}
