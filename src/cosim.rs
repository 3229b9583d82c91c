//! `strackgen cosim`: the verb's printing around [`testbench::cosim`] (which builds, runs and
//! compares): one summary per block as it finishes, a progress bar on standard error for runs
//! over a couple of seconds, JSON on request.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
pub use testbench::cosim::{Outcome, Request};

/// The build cache: `$STRACKGEN_CACHE`, else `$XDG_CACHE_HOME/strackgen`, else
/// `~/.cache/strackgen`, else `target/strackgen-cache` in the working directory.
pub fn default_cache() -> PathBuf {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("STRACKGEN_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("strackgen")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("strackgen")))
        .unwrap_or_else(|| PathBuf::from("target/strackgen-cache"))
        .join("cosim")
}

/// A progress callback for one block: a bar on standard error, drawn once the run has taken
/// two seconds (shorter runs print nothing), hidden when standard error is not a terminal.
fn bar(block: &str, len: u64) -> Box<dyn Fn(u64)> {
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:40}] {pos}/{len} cycles, {per_sec}, eta {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    pb.set_prefix(block.to_string());
    let start = Instant::now();
    let shown = std::cell::Cell::new(false);
    Box::new(move |done| {
        if !shown.get() && start.elapsed() > Duration::from_secs(2) {
            shown.set(true);
            pb.set_draw_target(ProgressDrawTarget::stderr());
        }
        pb.set_position(done);
        if done >= len {
            pb.finish_and_clear();
        }
    })
}

/// One block's summary in words.
pub fn summary(o: &Outcome) -> String {
    let built = if o.built {
        format!("built in {:.1} s", o.build_seconds)
    } else {
        "from the cache".into()
    };
    let mut s = match &o.failure {
        None => format!(
            "{}: {} cycles compared on every output port, {} events, 0 mismatches, coverage \
             {}/{} points ({}; {built}, ran in {:.1} s)\n",
            o.block,
            o.cycles,
            o.events,
            o.coverage_hit,
            o.coverage_points,
            o.stimulus,
            o.run_seconds
        ),
        Some(f) => {
            let mut s = format!(
                "{}: MISMATCH ({}; {built})\n{}",
                o.block, o.stimulus, f.report
            );
            match (&f.waves, &f.save_file, &f.open) {
                (Some(w), Some(g), Some(open)) => {
                    s += &format!(
                        "  waves around it: {w}\n  GTKWave save file: {g}\n  open: {open}\n"
                    )
                }
                _ => s += "  (no waves were written)\n",
            }
            s
        }
    };
    if o.failure.is_none() && !o.not_reached.is_empty() {
        s += &format!("  not reached in this run: {}\n", o.not_reached.join(", "));
    }
    s
}

/// Run the request, printing through `print` as each block finishes; Ok(true) when every
/// block matched.
pub fn run_with(
    req: &Request,
    json: bool,
    print: &mut dyn FnMut(&str) -> Result<(), String>,
) -> Result<bool, String> {
    let mut say = |m: &str| eprintln!("cosim: {m}");
    let mut done = |o: &Outcome| if json { Ok(()) } else { print(&summary(o)) };
    let outcomes =
        testbench::cosim::run(req, &mut say, &bar, &mut done).map_err(|e| e.to_string())?;
    let ok = outcomes.iter().all(|o| o.failure.is_none());
    if json {
        let v = serde_json::json!({
            "config_sha256": req.cfg.sha256(),
            "ok": ok,
            "blocks": outcomes,
        });
        print(&format!("{v}\n"))?;
    }
    Ok(ok)
}
