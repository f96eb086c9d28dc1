//! `cargo test` replays the kept fuzz corpus (fuzz/corpus/<target>/*, minimised, in the repository) and the
//! inputs that once failed (fuzz/regressions/<target>/*) through each target's checks, without libFuzzer.

use std::path::Path;

use super::TARGETS;

fn replay(folder: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(folder);
    let mut count = 0;
    for (name, check) in TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(name)) else { continue };
        let mut paths: Vec<_> = entries.map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            // A failing check panics with the input; name the file too.
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "fuzz target {name} fails on {}", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn kept_fuzz_corpus_passes_every_check() {
    let count = replay("corpus");
    assert!(count >= TARGETS.len(), "expected a kept corpus under fuzz/corpus, replayed {count} inputs");
}

#[test]
fn fuzz_regressions_pass_every_check() {
    replay("regressions");
}

#[test]
fn every_target_has_a_fuzz_target_file() {
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    for (name, _) in TARGETS {
        assert!(targets.join(format!("{name}.rs")).exists(), "fuzz/fuzz_targets/{name}.rs is missing");
    }
}
