//! The unused-dependency check: every crate `Cargo.toml` names is used by the code it is for.

use std::collections::BTreeMap;
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
    let only = features_only(&doc);
    for n in &only {
        assert!(names.contains(n), "features-only {n} is not a dependency");
    }
    let code = sources(&["src"]);
    let used: Vec<String> = names.into_iter().filter(|n| !only.contains(n)).collect();
    let unused = unused(&used, &code);
    assert!(
        unused.is_empty(),
        "[dependencies] that nothing in src/ uses (drop them, or move them to \
         [dev-dependencies] if only tests or benches use them): {unused:?}"
    );
}

/// `[package.metadata.deps] features-only`: dependencies the code does not use, there to give
/// the program's build the features its tests' build turns on (with `-` as `_`).
fn features_only(doc: &toml_edit::DocumentMut) -> Vec<String> {
    doc.get("package")
        .and_then(|p| p.get("metadata"))
        .and_then(|m| m.get("deps"))
        .and_then(|d| d.get("features-only"))
        .and_then(|f| f.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str())
                .map(|n| n.replace('-', "_"))
                .collect()
        })
        .unwrap_or_default()
}

/// Every package of the build `cargo tree` describes with `edges`, with the features it is built
/// with there.
fn features_of(edges: &str) -> BTreeMap<String, Vec<String>> {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let out = std::process::Command::new(cargo)
        .args(["tree", "--locked", "--offline", "--prefix", "none"])
        .args(["-e", edges, "-f", "{p}|{f}", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut packages: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some((package, features)) = line.split_once('|') else {
            continue;
        };
        let package = package.trim_end_matches(" (*)").trim().to_string();
        let list = packages.entry(package).or_default();
        for f in features.trim_end_matches(" (*)").split(',') {
            if !f.is_empty() && !list.iter().any(|x| x == f) {
                list.push(f.to_string());
            }
        }
        list.sort();
    }
    packages
}

/// The README's test command (`cargo test --release`) reuses what its run command built only if
/// every crate the program uses is built with the same features in both: features that the
/// tests' dev-dependencies turn on in such a crate rebuild it and everything above it, up to
/// skillscope. A dev-dependency that does so is matched by a `features-only` dependency.
#[test]
fn the_tests_build_every_crate_of_the_program_with_the_programs_features() {
    let program = features_of("normal,build");
    let tests = features_of("normal,build,dev");
    assert!(
        program.keys().any(|p| p.starts_with("clap ")),
        "{program:?}"
    );
    let differ: Vec<String> = program
        .iter()
        .filter_map(|(p, f)| {
            let t = tests.get(p)?;
            (t != f).then(|| format!("{p}: {f:?} for the program, {t:?} for the tests"))
        })
        .collect();
    assert!(
        differ.is_empty(),
        "give these the tests' features in [dependencies] (and features-only):\n{}",
        differ.join("\n")
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
    assert!(!uses("crate::core::probe::deps::parse()", "deps"));
    assert!(!uses("let ignore = 1;", "ignore"));
    assert!(uses("let v = ::serde_json::Value::Null;", "serde_json"));
    // Prose is not a use.
    let code = code_lines(
        "//! Built on notify_debouncer_mini::new_debouncer.\n    /// See `zip::ZipArchive`.\nfn f() {}\n",
    );
    assert!(!uses(&code, "notify_debouncer_mini"));
    assert!(!uses(&code, "zip"));
}
