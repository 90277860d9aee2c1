//! The unused-dependency check: every crate `Cargo.toml` names is used by the code it is for.

use std::fs;
use std::path::{Path, PathBuf};

fn manifest() -> toml_edit::DocumentMut {
    let text = fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml reads");
    text.parse().expect("Cargo.toml parses")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names code uses for the crates in table `key` (`dependencies`, `dev-dependencies`), top
/// level and per target: the table key with `-` as `_` (a `package = ` rename keeps the key).
fn crates(doc: &toml_edit::DocumentMut, key: &str) -> Vec<String> {
    let mut tables: Vec<&dyn toml_edit::TableLike> = Vec::new();
    if let Some(t) = doc.get(key).and_then(|i| i.as_table_like()) {
        tables.push(t);
    }
    if let Some(targets) = doc.get("target").and_then(|i| i.as_table_like()) {
        for (_, target) in targets.iter() {
            if let Some(t) = target.get(key).and_then(|i| i.as_table_like()) {
                tables.push(t);
            }
        }
    }
    let mut names: Vec<String> = tables
        .into_iter()
        .flat_map(|t| t.iter().map(|(k, _)| k.replace('-', "_")))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The Rust sources under `dirs`, with whole-line comments dropped so that a crate named only in
/// prose does not count as used.
fn sources(dirs: &[&str]) -> String {
    fn walk(dir: &Path, out: &mut String) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&p).expect("a source file reads");
                out.push_str(&code_lines(&text));
            }
        }
    }
    let mut out = String::new();
    for d in dirs {
        walk(&root().join(d), &mut out);
    }
    out
}

fn code_lines(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if !line.trim_start().starts_with("//") {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Whether `code` names crate `name`: a path `name::…` (which covers `use`, derives and
/// attributes such as `#[serde(…)]` written with the crate's path), `use name`, or
/// `extern crate name`.
fn uses(code: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    // `a::name::` is a module inside a path, `::name::` the crate.
    let starts_word = |at: usize| {
        let before = &code[..at];
        match before.strip_suffix("::") {
            Some(rest) => !rest
                .chars()
                .next_back()
                .is_some_and(|c| ident(c) || c == '>'),
            None => !before.chars().next_back().is_some_and(ident),
        }
    };
    let ends_word = |at: usize| !code[at..].chars().next().is_some_and(ident);
    let path = format!("{name}::");
    let found = |pat: &str, whole: bool| {
        code.match_indices(pat)
            .any(|(at, _)| starts_word(at) && (!whole || ends_word(at + pat.len())))
    };
    found(&path, false)
        || found(&format!("use {name}"), true)
        || found(&format!("extern crate {name}"), true)
}

fn unused(names: &[String], code: &str) -> Vec<String> {
    names.iter().filter(|n| !uses(code, n)).cloned().collect()
}

#[test]
fn every_dependency_is_used_by_src() {
    let doc = manifest();
    let names = crates(&doc, "dependencies");
    assert!(
        names.iter().any(|n| n == "clap"),
        "the table is read: {names:?}"
    );
    let code = sources(&["src"]);
    let unused = unused(&names, &code);
    assert!(
        unused.is_empty(),
        "[dependencies] that nothing in src/ uses (drop them, or move them to \
         [dev-dependencies] if only tests or benches use them): {unused:?}"
    );
}

#[test]
fn every_dev_dependency_is_used_by_tests_benches_or_unit_tests() {
    let doc = manifest();
    let names = crates(&doc, "dev-dependencies");
    assert!(
        names.iter().any(|n| n == "insta"),
        "the table is read: {names:?}"
    );
    // Unit tests live in src/ under `#[cfg(test)]`; a dev-dependency used there is used.
    let code = sources(&["tests", "benches", "src"]);
    let unused = unused(&names, &code);
    assert!(
        unused.is_empty(),
        "[dev-dependencies] that no test or bench uses: {unused:?}"
    );
}

#[test]
fn the_check_tells_a_use_from_a_mention() {
    assert!(uses("use serde::Serialize;", "serde"));
    assert!(uses("    let x = ignore::WalkBuilder::new(p);", "ignore"));
    assert!(uses("#[derive(serde::Deserialize)]", "serde"));
    assert!(uses("use base64;", "base64"));
    assert!(uses("extern crate landlock;", "landlock"));
    // A longer crate name, or a module of that name inside a path, is not the crate.
    assert!(!uses("use notify::Watcher;", "notify_debouncer_mini"));
    assert!(!uses("use notify_debouncer_mini::new_debouncer;", "notify"));
    assert!(!uses("crate::core::deps::parse()", "deps"));
    assert!(!uses("let ignore = 1;", "ignore"));
    assert!(uses("let v = ::serde_json::Value::Null;", "serde_json"));
    // Prose is not a use.
    let code = code_lines(
        "//! Built on notify_debouncer_mini::new_debouncer.\n    /// See `zip::ZipArchive`.\nfn f() {}\n",
    );
    assert!(!uses(&code, "notify_debouncer_mini"));
    assert!(!uses(&code, "zip"));
}
