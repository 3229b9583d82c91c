//! The send record's compact representation, checked against the SACK sender model before
//! the multi-connection send side's RTL is built on it (`docs/blocks/nic_tx.md`, "The
//! sender's record"). The model keeps a `lost` bit per PSN and `bytes_claimed`; the RTL
//! will keep neither. This test runs the model alone on its closed loop
//! (`testbench::sack_sender`: lossy links, blackouts, forged SACKs, PSNs across the 2^24 wrap)
//! and checks, after every step, that what the RTL will keep determines what the model keeps:
//!
//! 1. Outside recovery no PSN is lost. In recovery the lost PSNs are exactly the unacked
//!    PSNs of `[rtx, recovery_hi]` inside the window, for a pointer `rtx` that moves only
//!    in O(1) ways: to `snd_una` when losses are declared, one past the PSN retransmitted,
//!    and up to `snd_una` when `snd_una` passes it.
//! 2. `bytes_claimed` is the bytes retransmitted so far plus the lengths of the lost PSNs,
//!    so the window gate can read `bytes_sent - bytes_recvd - retransmitted - lost bytes`.
//! 3. `highest_acked` is the highest acked PSN in the window (None when none is), and
//!    `snd_una` itself is never acked: a recovery entry's lost count is `h - una + 1` less
//!    the acked count, and a timeout's is the outstanding count less it.
//! 4. No bit outside the window is lost.
//! 5. After an accepted SACK, with `D` the PSNs from the old `snd_una` that are passed or
//!    acknowledged (the old acked bits, the EPSN's advance as a prefix, the segment's bits),
//!    `r` its first clear offset, and `Z(x)` its clear offsets below `x`: the new `snd_una`
//!    is `r` on, the acknowledged count in the new window is `out - Z(out) - r`, and the lost
//!    count is `Z(hi + 1) - Z(rtx)`. Counts over one vector with prefix sums, no case for
//!    `rtx` below the new `snd_una` (the arithmetic a faster `nic_sender` can use;
//!    `docs/blocks/nic_sender.md`, "Timing").
//!
//! Each check can fail: the pointer's rules are the test's own, not read from the model.

use golden_model::sack_sender::{SackSender, SackVerdict, TxKind};
use golden_model::seq::{psn_add, psn_ahead, psn_sub};
use golden_model::Config;
use testbench::configs::{small_sack_config, SACK_INITIAL_PSN};
use testbench::sack_sender::{demo_mix, stream, ClosedLoop, Knobs, Mix};

/// What the checks saw, so that a run which never reached recovery cannot pass unnoticed.
#[derive(Default, Debug)]
struct Seen {
    steps: u64,
    declarations: u64,
    retransmits: u64,
    rtx_passed_by_una: u64,
    in_recovery_steps: u64,
    lost_max: u32,
    /// Accepted SACKs whose counts fact 5 checked, and those that ran `snd_una` past the
    /// EPSN over PSNs acknowledged before.
    sacks_counted: u64,
    runs_past_epsn: u64,
}

fn slot(s: &SackSender, psn: u32) -> usize {
    (psn & (s.params().rx_window - 1)) as usize
}

fn check(cfg: &Config, m: Mix, seen: &mut Seen) {
    let stim = stream(cfg, m);
    let mut b = ClosedLoop::new(cfg, SACK_INITIAL_PSN);
    let mut now: u32 = 0;
    let mut rtx: u32 = 0;
    let mut retransmitted: u32 = 0;
    for (i, c) in stim.iter().enumerate() {
        now = now.wrapping_add(c.dt);
        let c = b.resolve(now, c);
        if !c.s_valid {
            continue;
        }
        let was_recovering = b.sender.recovery_hi.is_some();
        let before = b.sender.clone();
        let o = b.step(now, &c);
        let s = &b.sender;
        let una = s.snd_una;
        let out = s.outstanding();
        let w = s.params().rx_window;
        seen.steps += 1;

        // The pointer's rules.
        if o.loss.is_some() {
            rtx = una;
            seen.declarations += 1;
        } else if was_recovering && psn_sub(rtx, una) > out {
            // snd_una passed it (rtx is never more than one past the window's end).
            rtx = una;
            seen.rtx_passed_by_una += 1;
        }
        if let Some(tx) = o.tx.filter(|t| t.kind == TxKind::Retransmit) {
            rtx = psn_add(tx.psn, 1);
            retransmitted = retransmitted.wrapping_add(tx.len);
            seen.retransmits += 1;
        }
        let ctx = || format!("step {i} (now {now}), una {una}, out {out}, rtx {rtx}, {s:?}");

        // 1 and 4: the lost set.
        let mut lost_bytes: u32 = 0;
        let mut n_lost = 0;
        let mut n_acked = 0;
        let mut highest = None;
        for k in 0..w {
            let p = psn_add(una, k);
            let sl = slot(s, p);
            let inside = k < out;
            let expect = match s.recovery_hi {
                Some(hi) if inside => {
                    let (r, h) = (psn_sub(rtx, una), psn_sub(hi, una));
                    assert!(r <= h + 1, "rtx beyond recovery_hi + 1: {}", ctx());
                    r <= k && k <= h && !s.acked[sl]
                }
                _ => false,
            };
            assert_eq!(
                s.lost[sl],
                expect,
                "lost bit of PSN {p} (offset {k}): {}",
                ctx()
            );
            if s.lost[sl] {
                lost_bytes = lost_bytes.wrapping_add(s.len[sl]);
                n_lost += 1;
            }
            if inside && s.acked[sl] {
                n_acked += 1;
                highest = Some(p);
            }
        }
        if s.recovery_hi.is_some() {
            seen.in_recovery_steps += 1;
        }
        seen.lost_max = seen.lost_max.max(n_lost);

        // 2: bytes_claimed.
        assert_eq!(
            s.bytes_claimed,
            retransmitted.wrapping_add(lost_bytes),
            "bytes_claimed against retransmitted {retransmitted} + lost {lost_bytes}: {}",
            ctx()
        );

        // 3: highest_acked, and snd_una never acked.
        assert_eq!(s.highest_acked, highest, "highest_acked: {}", ctx());
        assert!(
            out == 0 || !s.acked[slot(s, una)],
            "snd_una acked: {}",
            ctx()
        );
        assert!(n_acked < w, "acked count {n_acked}: {}", ctx());

        // 5: the counts from prefix sums of one vector.
        if let (Some(k), Some(SackVerdict::Accepted)) = (&c.sack, o.sack) {
            let (ub, ob) = (before.snd_una, before.outstanding());
            let sb = s.params().sack_bits;
            let advance = if psn_ahead(k.epsn, ub) {
                psn_sub(k.epsn, ub)
            } else {
                0
            };
            let d: Vec<bool> = (0..ob)
                .map(|o| {
                    let p = psn_add(ub, o);
                    let i = psn_sub(p, k.sack_base);
                    let marked = i < sb && (k.bitmap[(i / 64) as usize] >> (i % 64)) & 1 == 1;
                    o < advance || before.acked[slot(&before, p)] || marked
                })
                .collect();
            let r = d.iter().position(|&x| !x).unwrap_or(d.len()) as u32;
            let z = |x: u32| d[..x as usize].iter().filter(|&&x| !x).count() as u32;
            assert_eq!(psn_add(ub, r), una, "fact 5, snd_una: {}", ctx());
            assert_eq!(n_acked, ob - z(ob) - r, "fact 5, acked count: {}", ctx());
            if let Some(hi) = s.recovery_hi {
                let (h1, rt) = (psn_sub(hi, ub) + 1, psn_sub(rtx, ub));
                assert_eq!(n_lost, z(h1) - z(rt), "fact 5, lost count: {}", ctx());
            }
            seen.sacks_counted += 1;
            if r > advance {
                seen.runs_past_epsn += 1;
            }
        }
    }
}

fn mixes(seed: u64, cycles: usize) -> Vec<Mix> {
    let lossy = Mix {
        offer: 0.9,
        tx_ready: 0.95,
        forge: 0.03,
        knobs: Knobs {
            drop_data: 0.08,
            drop_sack: 0.06,
            delay_ns: 2_000,
            jitter_ns: 3_000,
            blackout: 0.0005,
        },
        ..demo_mix(seed, cycles)
    };
    vec![demo_mix(seed, cycles), lossy]
}

#[test]
fn the_lost_set_is_a_pointer_range_and_claimed_bytes_follow() {
    let cycles = 50_000;
    for cfg in [Config::default(), small_sack_config()] {
        let mut seen = Seen::default();
        for seed in 1..=2 {
            for m in mixes(seed, cycles) {
                check(&cfg, m, &mut seen);
            }
        }
        println!("W {}: {seen:?}", cfg.sack.rx_window);
        assert!(
            seen.declarations > 10
                && seen.retransmits > 10
                && seen.rtx_passed_by_una > 0
                && seen.sacks_counted > 1000
                && seen.runs_past_epsn > 0,
            "the stimulus did not exercise recovery: {seen:?}"
        );
    }
}
