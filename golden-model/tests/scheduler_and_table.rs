//! The host schedulers and the switch load table together: flows announce the changes of their
//! plans (signed deltas), the table adds them into the rows of the links they cross, and a
//! tick ends each slot. The table keeps no per-flow state, yet every row must equal the sum of
//! the plans of the flows crossing that link, slot after slot, as the plans change.

use golden_model::load_table::{In, LoadTable, Packet, Params};
use golden_model::scheduler::{Flow, Link, Role, Scheduler};

#[test]
fn table_rows_are_the_sum_of_the_announced_plans() {
    let k = 4;
    let links: Vec<Link> = (0..3)
        .map(|i| Link {
            name: format!("l{i}"),
            capacity: 40 + 10 * i as u64,
            recorded: Vec::new(),
            load: vec![0; k],
        })
        .collect();
    let flow = |name: &str, path: Vec<usize>, remaining: u64, role: Role| Flow {
        name: name.into(),
        path,
        remaining,
        sent: 0,
        announced: Vec::new(),
        role,
    };
    let flows = vec![
        flow("a", vec![0, 1], 90, Role::Independent),
        flow("b", vec![1], 120, Role::RingAfter("c".into())),
        flow("c", vec![1, 2], 70, Role::RingAfter("b".into())),
        flow("d", vec![0, 2], 150, Role::Independent),
    ];
    let mut s = Scheduler::new(k, links, flows, 1.0).unwrap();
    let mut table = LoadTable::new(Params {
        links: 3,
        slots: k as u32,
        load_bits: 16,
    });
    let mut progressed = 0;
    for slot in 0..10 {
        let plans = s.plan_slot();
        for (f, p) in s.flows.iter().zip(&plans) {
            for &l in &f.path {
                let o = table.step(&In {
                    tick: false,
                    pkt: Some(Packet {
                        link: l as u32,
                        update: true,
                        deltas: p.deltas.clone(),
                        ..Default::default()
                    }),
                });
                assert!(!o.bad && o.sat_mask == 0, "slot {slot}: {o:?}");
            }
        }
        for (l, row) in table.rows.iter().enumerate() {
            let want: Vec<u64> = (0..k)
                .map(|t| {
                    s.flows
                        .iter()
                        .zip(&plans)
                        .filter(|(f, _)| f.path.contains(&l))
                        .map(|(_, p)| p.plan[t])
                        .sum()
                })
                .collect();
            assert_eq!(row, &want, "slot {slot}, link {l}");
        }
        progressed += plans.iter().map(|p| p.plan[0]).sum::<u64>();
        table.step(&In {
            tick: true,
            pkt: None,
        });
        let measured: Vec<u64> = s.links.iter().map(|l| l.capacity).collect();
        s.advance(&plans, table.rows.clone(), &measured);
    }
    assert!(progressed > 0, "the flows sent something");
}
