//! Serial-number arithmetic for the 24-bit PSNs and the wrapping 32-bit times and byte counters.
//!
//! **The one PSN order** (DECISION, `docs/golden-model.md` "Serial compare"): `a` is below `b`
//! when `(b - a) mod 2^24` is in `1..=2^23` ([`psn_lt`]). Serial arithmetic leaves the distance
//! `2^23` open; this rule counts it as below, so a PSN exactly `2^23` from EPSN is a duplicate.
//! At that one distance each of two PSNs is below the other; every comparison in every block
//! asks one question of this one function, so the blocks agree on what that distance means:
//! - "is `x` below the reference `r`" is `psn_lt(x, r)`;
//! - "is `x` ahead of `r`" is neither below nor equal ([`psn_ahead`]);
//! - "is `x` in the window `[r, r + n)`" ([`psn_in`]) is the offset `x - r < n`, which for
//!   every window a block keeps (`n <= rx_window <= 4096`, far below `2^23`) is exactly
//!   `!psn_lt(x, r) && psn_lt(x, r + n)` (a test checks every distance).

use strack_config::PSN_BITS;

/// Mask of a 24-bit PSN.
pub const PSN_MASK: u32 = (1 << PSN_BITS) - 1;
/// Half the PSN space: the largest distance at which a PSN is below another.
pub const PSN_HALF: u32 = 1 << (PSN_BITS - 1);

/// `a + n` in PSN space.
pub fn psn_add(a: u32, n: u32) -> u32 {
    a.wrapping_add(n) & PSN_MASK
}

/// `a - b` in PSN space (a distance in `0..2^24`).
pub fn psn_sub(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b) & PSN_MASK
}

/// `a` is below `b`: `(b - a) mod 2^24` is in `1..=2^23`.
pub fn psn_lt(a: u32, b: u32) -> bool {
    let d = psn_sub(b, a);
    d != 0 && d <= PSN_HALF
}

/// `a` is ahead of `b`: neither below it nor equal (`(a - b) mod 2^24` in `1..2^23`).
pub fn psn_ahead(a: u32, b: u32) -> bool {
    a & PSN_MASK != b & PSN_MASK && !psn_lt(a, b)
}

/// `x` lies in the window of `n` PSNs starting at `r` (`n <= 2^23`).
pub fn psn_in(x: u32, r: u32, n: u32) -> bool {
    debug_assert!(n <= PSN_HALF);
    psn_sub(x, r) < n
}

/// Time elapsed from `then` to `now` on the wrapping 32-bit ns clock.
pub fn elapsed(now: u32, then: u32) -> u32 {
    now.wrapping_sub(then)
}

/// `a` is strictly after `b` on a wrapping 32-bit counter (bytes). Byte counts a block
/// compares are never `2^31` apart (at most `rx_window * MTU <= 2^26` bytes are in flight),
/// so the counters need no rule for that distance.
pub fn u32_gt(a: u32, b: u32) -> bool {
    let d = a.wrapping_sub(b);
    d != 0 && d < 1 << 31
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn psn_compare_across_wrap() {
        assert!(psn_lt(PSN_MASK, 0));
        assert!(psn_lt(PSN_MASK - 5, 3));
        assert!(!psn_lt(3, PSN_MASK - 5));
        assert!(!psn_lt(7, 7));
        assert_eq!(psn_add(PSN_MASK, 2), 1);
        assert_eq!(psn_sub(1, PSN_MASK), 2);
    }

    /// The three distances around half the space, worked by hand from EPSN = 100:
    /// - 100 + 2^23 - 1 = 8_388_707 is ahead (distance 2^23 - 1 forward);
    /// - 100 + 2^23 = 8_388_708 is below 100 (100 - 8_388_708 mod 2^24 = 2^23) and, at this one
    ///   distance, 100 is below it too;
    /// - 100 + 2^23 + 1 = 8_388_709 is below (100 - 8_388_709 mod 2^24 = 2^23 - 1).
    #[test]
    fn the_half_distance_is_below() {
        let epsn = 100;
        assert!(psn_ahead(8_388_707, epsn) && !psn_lt(8_388_707, epsn));
        assert!(psn_lt(8_388_708, epsn) && !psn_ahead(8_388_708, epsn));
        assert!(psn_lt(epsn, 8_388_708));
        assert!(psn_lt(8_388_709, epsn) && !psn_ahead(8_388_709, epsn));
        assert!(!psn_lt(epsn, 8_388_709));
        // Across the wrap: EPSN 2^24 - 2, its half-distance PSN is 2^23 - 2.
        assert!(psn_lt(8_388_606, 16_777_214));
        assert!(psn_ahead(8_388_605, 16_777_214));
    }

    /// The window test is the serial rule's `!below(x, r) && below(x, r + n)` at every
    /// distance, for windows up to the largest a block keeps.
    #[test]
    fn window_offsets_are_the_serial_rule() {
        let r = PSN_MASK - 7; // across the wrap
        for n in [1u32, 2, 16, 256, 4096] {
            let mut d = 0u32;
            while d <= PSN_MASK {
                let x = psn_add(r, d);
                let rule = !psn_lt(x, r) && psn_lt(x, psn_add(r, n));
                assert_eq!(psn_in(x, r, n), rule, "n {n} d {d}");
                // every distance near the window and the half space, a sample elsewhere
                d += if d < 8192 || d.abs_diff(PSN_HALF) < 8 || d > PSN_MASK - 8192 {
                    1
                } else {
                    4093
                };
            }
        }
    }

    #[test]
    fn elapsed_across_time_wrap() {
        assert_eq!(elapsed(5, u32::MAX - 4), 10);
        assert!(u32_gt(3, u32::MAX));
        assert!(!u32_gt(u32::MAX, 3));
    }
}
