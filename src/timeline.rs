//! `strackgen model loopback --timeline DIR`: the run's timeline as `timeline.csv` and an SVG
//! plot, `timeline.svg`, of cwnd, inflight and the bottleneck's queue over time (drawn with
//! the plotters library).

use golden_model::loopback::Sample;
use plotters::prelude::*;
use std::path::Path;

/// Write `timeline.csv` and `timeline.svg` into `dir` (created).
pub fn write(dir: &Path, samples: &[Sample]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut csv = String::from("t_ns,cwnd_bytes,inflight_bytes,queue_bytes\n");
    for s in samples {
        csv += &format!(
            "{},{},{},{}\n",
            s.t_ns, s.cwnd_bytes, s.inflight_bytes, s.queue_bytes
        );
    }
    crate::write_atomic(&dir.join("timeline.csv"), csv.as_bytes())?;
    let mut svg = String::new();
    plot(&mut svg, samples).map_err(|e| format!("cannot draw timeline.svg: {e}"))?;
    crate::write_atomic(&dir.join("timeline.svg"), svg.as_bytes())
}

/// A line of the plot: its legend, its colour and the value it draws.
type Series = (&'static str, RGBColor, fn(&Sample) -> u64);

/// Draw the plot into `svg`.
fn plot(svg: &mut String, samples: &[Sample]) -> Result<(), Box<dyn std::error::Error>> {
    let us = |t: u64| t as f64 / 1000.0;
    let kib = |b: u64| b as f64 / 1024.0;
    let t_end = samples.last().map_or(1.0, |s| us(s.t_ns)).max(1e-3);
    let y_max = samples
        .iter()
        .map(|s| s.cwnd_bytes.max(s.inflight_bytes).max(s.queue_bytes))
        .max()
        .map_or(1.0, kib)
        .max(1.0)
        * 1.05;
    let root = SVGBackend::with_string(svg, (960, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "loopback: window, inflight and bottleneck queue",
            ("sans-serif", 20),
        )
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..t_end, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("time (us)")
        .y_desc("KiB")
        .draw()?;
    let series: [Series; 3] = [
        ("cwnd (sum over connections)", BLUE, |s| s.cwnd_bytes),
        ("inflight", GREEN, |s| s.inflight_bytes),
        ("bottleneck queue", RED, |s| s.queue_bytes),
    ];
    for (name, color, value) in series {
        chart
            .draw_series(LineSeries::new(
                samples.iter().map(|s| (us(s.t_ns), kib(value(s)))),
                color,
            ))?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
