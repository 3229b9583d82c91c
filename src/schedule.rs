//! `strackgen schedule`'s input (`docs/scheduler.md`): the links and flows as JSON, checked
//! against what the hardware can hold, converted to the MLCC host scheduler's units.

use golden_model::scheduler::{self, FlowPlan, Scheduler};
use strack_config::Config;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleFile {
    pub links: Vec<LinkSpec>,
    pub flows: Vec<FlowSpec>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub name: String,
    pub capacity_mbps: u64,
    #[serde(default)]
    pub recorded_mbps: Vec<u64>,
    /// The load table's K-slot estimate, in load units.
    pub load: Vec<u64>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    pub name: String,
    pub path: Vec<String>,
    pub remaining_bytes: u64,
    #[serde(default)]
    pub sent_bytes: u64,
    #[serde(default)]
    pub announced: Vec<u64>,
    #[serde(default)]
    pub role: scheduler::Role,
}

/// The scheduler's inputs, refused where the hardware could not hold them: names unique, a
/// link's capacity at least one load unit, loads and announced rates within the load table's
/// width, a load for each of the K slots.
pub fn check(spec: &ScheduleFile, cfg: &Config, file: &str) -> Result<(), String> {
    let unit = cfg.load_table.rate_unit_mbps as u64;
    let max = cfg.load_max();
    let width = cfg.load_table.load_bits;
    let mut seen = std::collections::BTreeSet::new();
    for l in &spec.links {
        if !seen.insert(&l.name) {
            return Err(format!(
                "{file}: link `{}`: a second link of that name",
                l.name
            ));
        }
        if l.capacity_mbps < unit {
            return Err(format!(
                "{file}: link `{}`: capacity_mbps = {}: below one load unit \
                 (load_table.rate_unit_mbps = {unit})",
                l.name, l.capacity_mbps
            ));
        }
        if let Some((k, v)) = l.load.iter().enumerate().find(|(_, v)| **v > max) {
            return Err(format!(
                "{file}: link `{}`: load[{k}] = {v}: the load table holds at most {max} \
                 (load_bits = {width})",
                l.name
            ));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for f in &spec.flows {
        if !seen.insert(&f.name) {
            return Err(format!(
                "{file}: flow `{}`: a second flow of that name",
                f.name
            ));
        }
        if let Some((k, v)) = f.announced.iter().enumerate().find(|(_, v)| **v > max) {
            return Err(format!(
                "{file}: flow `{}`: announced[{k}] = {v}: the load table holds at most {max} \
                 (load_bits = {width})",
                f.name
            ));
        }
    }
    Ok(())
}

/// Parse `text` (the flows file named `file` in messages), check it, and build the scheduler
/// in load units and unit-slots.
pub fn scheduler(text: &str, cfg: &Config, file: &str) -> Result<Scheduler, String> {
    let spec: ScheduleFile = serde_json::from_str(text).map_err(|e| format!("{file}: {e}"))?;
    let unit = cfg.load_table.rate_unit_mbps as u64;
    // Bytes one load unit carries in one slot: unit Mb/s x slot ns / 8000.
    let slot_ns = cfg.slot_ns() as u128;
    let unit_slots = |what: &str, bytes: u64| -> Result<u64, String> {
        let den = unit as u128 * slot_ns;
        let n = (bytes as u128 * 8000).div_ceil(den);
        u64::try_from(n).map_err(|_| {
            format!("{file}: {what} = {bytes}: {n} load-unit slots, more than 2^64 - 1")
        })
    };
    check(&spec, cfg, file)?;
    let links: Vec<scheduler::Link> = spec
        .links
        .iter()
        .map(|l| scheduler::Link {
            name: l.name.clone(),
            capacity: l.capacity_mbps / unit,
            recorded: l.recorded_mbps.iter().map(|r| r / unit).collect(),
            load: l.load.clone(),
        })
        .collect();
    let mut flows = Vec::new();
    for f in &spec.flows {
        let mut p = Vec::new();
        for name in &f.path {
            let i = spec
                .links
                .iter()
                .position(|l| &l.name == name)
                .ok_or_else(|| {
                    format!(
                        "{}: flow `{}`: path link `{name}` is not one of the links",
                        file, f.name
                    )
                })?;
            p.push(i);
        }
        flows.push(scheduler::Flow {
            name: f.name.clone(),
            path: p,
            remaining: unit_slots(
                &format!("flow `{}`: remaining_bytes", f.name),
                f.remaining_bytes,
            )?,
            sent: unit_slots(&format!("flow `{}`: sent_bytes", f.name), f.sent_bytes)?,
            announced: f.announced.clone(),
            role: f.role.clone(),
        });
    }
    let k = cfg.load_table.slots as usize;
    let s = Scheduler::new(k, links, flows, cfg.load_table.beta_weight)
        .map_err(|e| format!("{}: {e}", file))?;
    Ok(s)
}

/// What the packets would carry must fit the hardware: a plan in the load table's width, a
/// delta in the wire format's signed field. A plan that does not is an error, not printed.
pub fn check_plans(plans: &[FlowPlan], cfg: &Config, file: &str) -> Result<(), String> {
    let shim = strack_config::wire::LoadShim::new(cfg);
    let (lo, hi) = (
        -(1i64 << (shim.delta_bits() - 1)),
        (1i64 << (shim.delta_bits() - 1)) - 1,
    );
    for p in plans {
        if let Some((k, v)) = p
            .plan
            .iter()
            .enumerate()
            .find(|(_, v)| **v > cfg.load_max())
        {
            return Err(format!(
                "{file}: flow `{}`: its plan for slot {k} is {v} load units, more than the load \
                 table holds ({}, load_bits = {})",
                p.name,
                cfg.load_max(),
                cfg.load_table.load_bits
            ));
        }
        if let Some((k, d)) = p
            .deltas
            .iter()
            .enumerate()
            .find(|(_, d)| !(lo..=hi).contains(*d))
        {
            return Err(format!(
                "{file}: flow `{}`: its delta for slot {k} is {d}, outside the wire format's \
                 {lo}..={hi} ({} signed bits)",
                p.name,
                shim.delta_bits()
            ));
        }
    }
    Ok(())
}
