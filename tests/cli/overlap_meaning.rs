//! The overlap rule's comparison by meaning through the real binary: plain `check` never runs
//! the model and says the vectors are missing; `check --embed` makes them and finds two
//! descriptions that say the same in other words; the next plain `check` uses them.

use crate::common;
use common::*;

use std::path::{Path, PathBuf};

/// Two skills that do one job in other words, and two that do others.
fn fixture(dir: &Path) -> PathBuf {
    let lib = dir.join("lib");
    let skills = [
        ("query-speedup", "Make slow SQL queries faster."),
        ("sql-tuning", "Speed up slow SQL queries."),
        (
            "pdf",
            "Extract text and tables from PDF files, fill forms, merge documents.",
        ),
        (
            "kubernetes-deploy",
            "Deploy containers to a Kubernetes cluster with Helm charts and rollbacks.",
        ),
    ];
    write_library(&lib, &skills);
    lib
}

/// How many of the library's fields have no sentence vector in its index.
fn vectors_missing(home: &Path, lib: &Path) -> usize {
    use skillscope::core::Library;
    use skillscope::core::index::IndexStore;
    use skillscope::core::matching::semantic::SkillVectors;
    use skillscope::core::scan::ScanOptions;
    use skillscope::core::source;
    let store = IndexStore::in_dir(home.join("cache"));
    let (lib, _) = Library::load_indexed(
        source::path_roots(&[lib.to_path_buf()]),
        &ScanOptions::default(),
        &store,
    );
    SkillVectors::missing(&lib)
}

fn check(home: &Path, args: &[&str]) -> (String, String) {
    let out = run(&[&["check"], args].concat(), home);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_compares_by_meaning_only_with_the_vectors_it_is_given_or_told_to_make() {
    let t = tempfile::tempdir().unwrap();
    let lib = fixture(t.path());
    let path = lib.to_str().unwrap();
    let meaning_warnings = |text: &str| {
        text.lines()
            .filter(|l| l.contains("[overlap]") && l.contains("means nearly the same"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };

    // A fresh cache: words alone, said once with --verbose (not after every check), and the
    // model never runs.
    let (out, err) = check(t.path(), &[path]);
    assert!(meaning_warnings(&out).is_empty(), "{out}");
    assert!(!err.contains("--embed"), "{err}");
    let (_, err) = check(t.path(), &["--verbose", path]);
    assert_eq!(err.matches("--embed").count(), 1, "{err}");
    assert!(
        err.contains("4 of 4 descriptions have no sentence vector yet"),
        "{err}"
    );
    let (json_out, err) = check(t.path(), &["--format", "json", path]);
    let v: serde_json::Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(v["overlap_by_meaning"]["compared"], false, "{v}");
    assert_eq!(v["overlap_by_meaning"]["without_vector"], 4);
    assert!(
        !err.contains("--embed"),
        "JSON says it in its own field: {err}"
    );
    assert_eq!(vectors_missing(t.path(), &lib), 4);

    // Asked to, check makes the vectors and finds the pair; the far skills stay quiet.
    let (out, err) = check(t.path(), &["--embed", path]);
    let found = meaning_warnings(&out);
    assert_eq!(found.len(), 2, "{out}");
    let speedup = found
        .iter()
        .find(|l| l.contains("query-speedup/SKILL.md"))
        .unwrap();
    assert!(
        speedup.contains("means nearly the same as `sql-tuning` (similarity 0."),
        "{speedup}"
    );
    assert!(
        found
            .iter()
            .any(|l| l.contains("sql-tuning/SKILL.md") && l.contains("`query-speedup`"))
    );
    assert!(
        !out.contains("`pdf`") && !out.contains("`kubernetes-deploy`"),
        "{out}"
    );
    assert!(!err.contains("no sentence vector"), "{err}");
    assert_eq!(vectors_missing(t.path(), &lib), 0);

    // Remembered: plain check uses them now.
    let (again, err) = check(t.path(), &[path]);
    assert_eq!(meaning_warnings(&again), found);
    assert!(!err.contains("--embed"), "{err}");
    let (json_out, _) = check(t.path(), &["--format", "json", path]);
    let v: serde_json::Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(v["overlap_by_meaning"]["compared"], true, "{v}");
}

#[test]
fn no_note_when_the_overlap_rule_is_not_reported() {
    let t = tempfile::tempdir().unwrap();
    let lib = fixture(t.path());
    let (_, err) = check(t.path(), &["--select", "name", lib.to_str().unwrap()]);
    assert!(!err.contains("--embed"), "{err}");
    let (_, err) = check(t.path(), &["--ignore", "overlap", lib.to_str().unwrap()]);
    assert!(!err.contains("--embed"), "{err}");
    // Said when asked for (--verbose) and the rule is reported; plain check stays quiet.
    let (_, err) = check(t.path(), &["--select", "library", lib.to_str().unwrap()]);
    assert!(!err.contains("--embed"), "{err}");
    let (_, err) = check(
        t.path(),
        &["--verbose", "--select", "library", lib.to_str().unwrap()],
    );
    assert!(err.contains("--embed"), "{err}");
    let (_, err) = check(
        t.path(),
        &["--verbose", "--ignore", "overlap", lib.to_str().unwrap()],
    );
    assert!(!err.contains("--embed"), "{err}");
}
