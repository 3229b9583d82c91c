//! Serial-number arithmetic for the 24-bit PSNs and the wrapping 32-bit times and byte counters.

use strack_config::PSN_BITS;

/// Mask of a 24-bit PSN.
pub const PSN_MASK: u32 = (1 << PSN_BITS) - 1;
/// Half the PSN space: a PSN within this distance ahead of another is "after" it.
pub const PSN_HALF: u32 = 1 << (PSN_BITS - 1);

/// `a + n` in PSN space.
pub fn psn_add(a: u32, n: u32) -> u32 {
    a.wrapping_add(n) & PSN_MASK
}

/// `a - b` in PSN space (a distance in `0..2^24`).
pub fn psn_sub(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b) & PSN_MASK
}

/// `a` comes strictly before `b` (serial-number comparison).
pub fn psn_lt(a: u32, b: u32) -> bool {
    let d = psn_sub(b, a);
    d != 0 && d < PSN_HALF
}

/// Time elapsed from `then` to `now` on the wrapping 32-bit ns clock.
pub fn elapsed(now: u32, then: u32) -> u32 {
    now.wrapping_sub(then)
}

/// `a` is strictly after `b` on a wrapping 32-bit counter (bytes).
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

    #[test]
    fn elapsed_across_time_wrap() {
        assert_eq!(elapsed(5, u32::MAX - 4), 10);
        assert!(u32_gt(3, u32::MAX));
        assert!(!u32_gt(u32::MAX, 3));
    }
}
