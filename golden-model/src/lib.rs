//! Golden model of every STrack block: naive, readable and bit-accurate.
//!
//! Each block has `fn step(&mut self, input: &In) -> Out` and inspectable state. The RTL is
//! checked against these models cycle by cycle, so the models are written as directly as the
//! spec (`docs/spec/`, restated in `docs/golden-model.md`) reads, never by sharing code with
//! `hdl`. "Section N" below is a section of `docs/spec/strack.md` unless another file is named.
//!
//! | module | spec | paper |
//! |---|---|---|
//! | [`entropy_bitmap`] | section 1 | Algorithm 3 |
//! | [`cwnd_unit`] (+ [`cwnd_unit::reference`] in f64) | section 2 | Algorithms 1, 2, 4, Table 1 |
//! | [`sack_receiver`] | section 3 (receiver) | Section 3.3.1 |
//! | [`sack_sender`] | section 3 (sender) | Section 3.3.2 |
//! | [`loopback`] | two NICs over a model link | - |
//! | [`load_table`] | `docs/spec/load-table.md` section 1 | MLCC Section IV-A, Fig. 5 |
//! | [`context_pipe`] (per-connection context: records, sweep, bad ids) | - | - |
//! | [`nic_rx`] (the multi-connection NIC's receive side: N receivers, opens) | section 3 (receiver) | Section 3.3.1 |
//! | [`load_table::lazy`], [`load_table::frame`] (the P4 variants: epoch-tagged slots, whole frames) | `docs/spec/load-table.md` section 1, `docs/wire-format.md` | - |
//! | [`nic_tx`] (the multi-connection NIC's send side: N senders, the scheduler, the timer scan) | sections 1-3 (sender) | Algorithm 1, Section 3.3.2 |
//! | [`nic`] (the multi-connection NIC: the send and receive sides, one open port) | sections 1-3 | Algorithm 1 |
//! | [`nic_sender`] (the send side's senders: the SACK sender, backlog and short packet of each connection, one event per clock) | section 3 (sender) | Section 3.3.2 |
//! | [`tx_sched`] (the send side's transmit scheduler: round-robin by group of 32) | - | - |
//! | [`nic_cwnd`] (the send side's cwnd units: one per connection, one event per clock) | section 2 | Algorithms 1, 2, 4 |
//! | [`nic_entropy`] (the send side's entropy bitmaps: one per connection, one event per clock) | section 1 | Algorithm 3 |
//! | [`scheduler`] | `docs/spec/load-table.md` section 2 | MLCC Algorithms 1, 2, Fig. 6 |

pub mod context_pipe;
pub mod cwnd_unit;
pub mod entropy_bitmap;
pub mod fixed;
pub mod load_table;
pub mod loopback;
pub mod nic;
pub mod nic_cwnd;
pub mod nic_entropy;
pub mod nic_rx;
pub mod nic_sender;
pub mod nic_tx;
pub mod rng;
pub mod sack_receiver;
pub mod sack_sender;
pub mod scheduler;
pub mod seq;
pub mod tx_sched;

pub use strack_config::Config;

/// The NIC models' unit tests' config: 4 connections, a 32-PSN window, 8-bit segments.
#[cfg(test)]
pub(crate) fn small_nic_config() -> strack_config::Config {
    let mut c = strack_config::Config::default();
    c.nic.connections = 4;
    c.sack.rx_window = 32;
    c.sack.sack_bits = 8;
    c
}
