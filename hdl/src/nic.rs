//! The multi-connection NIC composed (`docs/blocks/nic.md`): the send side
//! ([`crate::nic_tx`]) and the receive side ([`crate::nic_rx`]) behind one configuration port,
//! with one readiness. This file holds the glue between them ([`NicGlue`], combinational);
//! `nic_block` in `lib.rs` instantiates it with the two sides through [`crate::netlist`].
//!
//! ```text
//!  s_open_* ──► glue: both sides ready? either PSN too wide? ──► nic_tx (s_open_*, our PSN)
//!                                                            └─► nic_rx (s_open_*, the peer's PSN)
//!  s_txop_*, s_sack_*, s_doorbell_*, s_now ─────────────────────► nic_tx ─► m_send_*, status_send_*
//!  s_pkt_* ─────────────────────────────────────────────────────► nic_rx ─► m_recv_*, status_recv_*
//! ```
//!
//! An open is taken by both sides on the same cycle or by neither: each side is offered it
//! only when the other is ready (neither side's open readiness depends on the offer, so this
//! makes no loop). An open whose PSN or peer PSN is wider than 24 bits is refused by both:
//! both are then given an all-ones PSN, which each side refuses on its own.

use rust_hdl::prelude::*;

/// The PSN both sides are given when either of an open's PSNs is too wide: wider than 24
/// bits, so each refuses it.
pub const REFUSED_PSN: u32 = u32::MAX;

/// See the module documentation.
#[derive(LogicBlock)]
pub struct NicGlue {
    /// An open is offered: our first PSN (the send side's) and the peer's (the first PSN the
    /// receive side expects).
    pub s_open_valid: Signal<In, Bit>,
    pub s_open_psn: Signal<In, Bits<32>>,
    pub s_open_peer_psn: Signal<In, Bits<32>>,
    /// The open is taken: both sides take it.
    pub s_open_ready: Signal<Out, Bit>,
    /// Each side's open readiness (independent of its offer).
    pub tx_open_ready: Signal<In, Bit>,
    pub rx_open_ready: Signal<In, Bit>,
    /// What each side is offered.
    pub tx_open_valid: Signal<Out, Bit>,
    pub tx_open_psn: Signal<Out, Bits<32>>,
    pub rx_open_valid: Signal<Out, Bit>,
    pub rx_open_psn: Signal<Out, Bits<32>>,
    /// Each side's sweep is over.
    pub tx_status_ready: Signal<In, Bit>,
    pub rx_status_ready: Signal<In, Bit>,
    /// Both sides take events.
    pub status_ready: Signal<Out, Bit>,
    /// An open with a PSN wider than 24 bits.
    wide: Signal<Local, Bit>,
    cfg_refused: Constant<Bits<32>>,
}

impl Default for NicGlue {
    fn default() -> Self {
        NicGlue {
            s_open_valid: Default::default(),
            s_open_psn: Default::default(),
            s_open_peer_psn: Default::default(),
            s_open_ready: Default::default(),
            tx_open_ready: Default::default(),
            rx_open_ready: Default::default(),
            tx_open_valid: Default::default(),
            tx_open_psn: Default::default(),
            rx_open_valid: Default::default(),
            rx_open_psn: Default::default(),
            tx_status_ready: Default::default(),
            rx_status_ready: Default::default(),
            status_ready: Default::default(),
            wide: Default::default(),
            cfg_refused: Constant::new(REFUSED_PSN.to_bits()),
        }
    }
}

impl Logic for NicGlue {
    #[hdl_gen]
    fn update(&mut self) {
        self.s_open_ready.next = self.tx_open_ready.val() & self.rx_open_ready.val();
        self.tx_open_valid.next = self.s_open_valid.val() & self.rx_open_ready.val();
        self.rx_open_valid.next = self.s_open_valid.val() & self.tx_open_ready.val();
        self.wide.next = (self.s_open_psn.val().get_bits::<8>(24) != 0_usize.to_bits::<8>())
            | (self.s_open_peer_psn.val().get_bits::<8>(24) != 0_usize.to_bits::<8>());
        self.tx_open_psn.next = self.s_open_psn.val();
        self.rx_open_psn.next = self.s_open_peer_psn.val();
        if self.wide.val() {
            self.tx_open_psn.next = self.cfg_refused.val();
            self.rx_open_psn.next = self.cfg_refused.val();
        }
        self.status_ready.next = self.tx_status_ready.val() & self.rx_status_ready.val();
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Dir, Options};
    use strack_config::Config;

    fn small() -> Config {
        let mut cfg = Config::default();
        cfg.nic.connections = 4;
        cfg.sack.rx_window = 32;
        cfg.sack.sack_bits = 8;
        cfg.cwnd_unit.max_cwnd_bytes = Some(8 * cfg.network.mtu_bytes);
        cfg
    }

    /// The sides' ports, renamed by side, and the shared ones once.
    #[test]
    fn the_ports_are_named_by_side() {
        let cfg = small();
        let b = generate("nic", &cfg, &Options::default()).unwrap();
        let tx = generate("nic_tx", &cfg, &Options::default()).unwrap();
        let rx = generate("nic_rx", &cfg, &Options::default()).unwrap();
        let has = |n: &str, d: Dir| b.ports.iter().any(|p| p.name == n && p.dir == d);
        for n in [
            "s_open_ready",
            "status_ready",
            "s_txop_ready",
            "s_pkt_ready",
        ] {
            assert!(has(n, Dir::Output), "{n}");
        }
        for n in [
            "s_open_peer_psn",
            "s_open_psn",
            "s_now",
            "s_pkt_psn",
            "s_sack_epsn",
        ] {
            assert!(has(n, Dir::Input), "{n}");
        }
        for (side, blk) in [("send", &tx), ("recv", &rx)] {
            for p in blk.ports.iter().filter(|p| p.name.starts_with("m_")) {
                let n = format!("m_{side}_{}", &p.name[2..]);
                assert!(has(&n, Dir::Output), "{n}");
            }
        }
        assert!(has("status_send_tx_new", Dir::Output));
        assert!(has("status_recv_duplicates", Dir::Output));
        let ins = |blk: &crate::Block| blk.ports.iter().filter(|p| p.dir == Dir::Input).count();
        // clock, s_reset and s_open_{valid,conn,psn} shared; s_open_peer_psn added.
        assert_eq!(
            b.ports.iter().filter(|p| p.dir == Dir::Input).count(),
            ins(&tx) + ins(&rx) - 5 + 1
        );
    }

    #[test]
    fn gate_at_a_small_config() {
        let b = generate("nic", &small(), &Options::default()).unwrap();
        crate::gate::check(&b, "nic_small", false);
    }
}
