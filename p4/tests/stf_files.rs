//! The committed STF files (`p4/tests/*.stf`): each is what the golden model's scenarios
//! generate today for `configs/default.toml`, and each plays back against the golden model with
//! every expectation and counter met. `make p4-check` runs the same files on BMv2.

use std::path::{Path, PathBuf};
use strack_config::Config;
use strack_p4::stf;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn default_config() -> Config {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/default.toml");
    Config::from_file(&p.to_string_lossy()).expect("configs/default.toml")
}

#[test]
fn the_committed_stf_files_are_the_generated_ones() {
    let cfg = default_config();
    for (name, text) in stf::scenarios(&cfg) {
        let p = dir().join(format!("{name}.stf"));
        let committed = std::fs::read_to_string(&p).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; write it with `strackgen stf write --out p4/tests`",
                p.display()
            )
        });
        assert!(
            committed == text,
            "{} differs from what the golden model generates; regenerate with \
             `target/release/strackgen stf write --out p4/tests` and review the diff",
            p.display()
        );
    }
}

#[test]
fn every_stf_file_plays_back_against_the_golden_model() {
    let cfg = default_config();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "stf"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let parsed = stf::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let played = stf::play(&cfg, &parsed).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert!(played.packets > 0, "{}", f.display());
        assert_eq!(played.packets, played.expects, "{}", f.display());
        println!("{}: {played:?}", f.display());
    }
}
