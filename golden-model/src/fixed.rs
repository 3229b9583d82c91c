//! The fixed-point division of the cwnd unit, defined once for the model.
//!
//! `a / x` is computed as `a * T[idx(x)] >> shift(x)`, with `T` the 16-bit reciprocal table of
//! [`strack_config::recip_table_entry`]. The RTL does the same: a leading-zero count, a ROM
//! read, one multiply and a barrel shift, so it needs no divider and keeps one ACK per clock.
//!
//! Derivation: with `lz = leading_zeros(x)` and `top = (x << lz) >> (31 - R)` in
//! `[2^R, 2^(R+1))`, `x ~ (top + 0.5) * 2^(31 - R - lz)` and `T[top - 2^R] ~ 2^(16+R)/(top+0.5)`,
//! so `1/x ~ T * 2^-(47 - lz)` whatever `R` is.

use strack_config::recip_table_entry;

/// The table entry and leading-zero count used for `1/x` (`x > 0`).
pub fn recip_parts(x: u32, index_bits: u32) -> (u32, u32) {
    debug_assert!(x != 0);
    let lz = x.leading_zeros();
    let top = (x << lz) >> (31 - index_bits);
    let idx = top - (1 << index_bits);
    (recip_table_entry(idx, index_bits), lz)
}

/// `floor(a * 2^frac / x)`, approximately: `(a * T) >> (47 - lz - frac)`.
///
/// Callers keep `47 - lz - frac >= 0`; the formats in `cwnd_unit` guarantee it (see the
/// shift bounds there), and a debug assertion checks it.
pub fn div_approx(a: u64, x: u32, index_bits: u32, frac: u32) -> u64 {
    let (entry, lz) = recip_parts(x, index_bits);
    let shift = 47i32 - lz as i32 - frac as i32;
    debug_assert!(shift >= 0, "div_approx shift {shift} < 0");
    (a * entry as u64) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_approx_is_within_table_error() {
        for &r in &[4u32, 8, 12] {
            for &x in &[1u32 << 16, 600_000 << 8, 4096 << 8, 123_457, 0xFFFF_FFFF] {
                for &a in &[1u64, 4096, 65_535, (1 << 24) - 1] {
                    let got = div_approx(a, x, r, 24) as f64;
                    let exact = a as f64 * (1u64 << 24) as f64 / x as f64;
                    let err = (got - exact).abs() / exact.max(1.0);
                    assert!(
                        err <= 1.0 / (1u64 << r) as f64 + 1e-6 || (got - exact).abs() <= 1.0,
                        "r={r} x={x} a={a} got={got} exact={exact}"
                    );
                }
            }
        }
    }
}
