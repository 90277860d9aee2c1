//! Adopting the gate step by step: `--select`, `--ignore`, `--warnings-as-errors`, the config
//! file's `[rules]` (per rule, per family, per path glob) and an author's opt-out comment, on
//! fixtures and on corpus skills.

use crate::common;
use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Rule → how many findings of it, from `check --format json`.
fn rules_of(out: &Output) -> BTreeMap<String, usize> {
    let v = json(out);
    let mut m = BTreeMap::new();
    for d in v["diagnostics"].as_array().unwrap() {
        *m.entry(d["rule"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    m
}

fn run_with_config(args: &[&str], home: &Path, config: &str) -> Output {
    let file = home.join("skillscope.toml");
    std::fs::write(&file, config).unwrap();
    bin()
        .args(args)
        .env("SKILLSCOPE_CONFIG", &file)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", home)
        .current_dir(home)
        .output()
        .unwrap()
}

/// A library of two skills: one with an unknown field (an error under the spec) and a
/// first-person description (a warning), one in `vendor/` with an unknown field.
fn library(home: &Path) -> PathBuf {
    let lib = home.join("lib");
    write(
        &lib.join("own/SKILL.md"),
        "---\nname: own\ndescription: I turn transcripts into meeting notes when the user pastes a transcript.\nversion: 2\n---\nBody\n",
    );
    write(
        &lib.join("vendor/acme/SKILL.md"),
        "---\nname: acme\ndescription: Formats invoices as PDF files. Use when the user asks for an invoice.\ntags:\n  - billing\n---\nBody\n",
    );
    lib
}

#[test]
fn select_ignore_and_warnings_as_errors_decide_what_fails() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let l = lib.to_str().unwrap();
    let all = run(&["check", "--format", "json", l], home.path());
    assert_eq!(all.status.code(), Some(1));
    let rules = rules_of(&all);
    assert_eq!(rules.get("unknown-field"), Some(&2), "{rules:?}");
    assert!(rules.contains_key("description-first-person"), "{rules:?}");

    // The unknown fields left out: only the warning remains, and the gate passes.
    let out = run(
        &["check", "--format", "json", "--ignore", "unknown-field", l],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!rules_of(&out).contains_key("unknown-field"));
    assert!(rules_of(&out).contains_key("description-first-person"));
    // ... until warnings count as errors.
    let out = run(
        &[
            "check",
            "--ignore",
            "unknown-field",
            "--warnings-as-errors",
            l,
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("error[description-first-person]") && text.contains(": 1 error, 0 warnings"),
        "{text}"
    );
    // A family selects its rules; a rule id beats its family.
    let out = run(
        &[
            "check",
            "--format",
            "json",
            "--select",
            "description,frontmatter",
            "--ignore",
            "frontmatter",
            l,
        ],
        home.path(),
    );
    assert_eq!(
        rules_of(&out).keys().collect::<Vec<_>>(),
        ["description-first-person"]
    );
    let out = run(
        &[
            "check",
            "--format",
            "json",
            "--ignore",
            "frontmatter",
            "--select",
            "unknown-field",
            l,
        ],
        home.path(),
    );
    assert_eq!(rules_of(&out).keys().collect::<Vec<_>>(), ["unknown-field"]);
    // Repeated and comma-separated forms add up.
    let out = run(
        &[
            "check",
            "--format",
            "json",
            "--select",
            "unknown-field",
            "--select",
            "description-first-person",
            l,
        ],
        home.path(),
    );
    assert_eq!(rules_of(&out).len(), 2);
    // A typo is a usage error that names what was meant.
    let out = run(&["check", "--select", "unknown-feild", l], home.path());
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("did you mean `unknown-field`?"), "{e}");
}

#[test]
fn the_config_file_sets_levels_per_rule_family_and_path() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let l = lib.to_str().unwrap();
    let config = "[rules]\nunknown-field = \"warning\"\ndescription = \"error\"\n\n[[rules.per-path]]\npaths = [\"vendor/**\"]\nunknown-field = \"off\"\n";
    let out = run_with_config(&["check", "--format", "json", l], home.path(), config);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    let found: Vec<(String, String, bool)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["path"].as_str().unwrap().contains("/vendor/"),
            )
        })
        .collect();
    assert!(
        found.contains(&("unknown-field".into(), "warning".into(), false)),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|(r, _, vendor)| r == "unknown-field" && *vendor),
        "vendor/ is off: {found:?}"
    );
    assert!(
        found.contains(&("description-first-person".into(), "error".into(), false)),
        "{found:?}"
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "the description family is an error now"
    );
    // `list` weighs findings the same way.
    let list = run_with_config(&["list", "--json", l], home.path(), config);
    let v = json(&list);
    let acme = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "acme")
        .unwrap();
    assert_eq!(acme["diagnostics"].as_array().unwrap().len(), 0, "{acme}");
    // The command line narrows further: --ignore on top of the config.
    let out = run_with_config(
        &["check", "--ignore", "description", l],
        home.path(),
        config,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A bad level is reported with its line, and the rest of the file still applies.
    let out = run_with_config(
        &["check", "--format", "json", l],
        home.path(),
        "[rules]\nunknown-field = \"loud\"\ndescription = \"off\"\n",
    );
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("skillscope.toml:2:") && e.contains("loud"),
        "{e}"
    );
    assert!(!rules_of(&out).contains_key("description-first-person"));
}

#[test]
fn an_authors_opt_out_comment_leaves_a_rule_out_for_that_skill_only() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    // Whole skill, then one line only, then a name that is no rule.
    write(
        &lib.join("whole/SKILL.md"),
        "---\nname: whole\n# skillscope: ignore[unknown-field]\ndescription: Formats invoices as PDF files. Use when the user asks for an invoice.\nversion: 2\nowner: me\n---\n",
    );
    write(
        &lib.join("line/SKILL.md"),
        "---\nname: line\ndescription: Summarises git logs into release notes. Use when a release is being prepared.\nversion: 2 # skillscope: ignore[unknown-field]\nowner: me\n---\n",
    );
    write(
        &lib.join("typo/SKILL.md"),
        "---\nname: typo\ndescription: Translates subtitle files between languages. Use when the user shares an .srt file.\n# skillscope: ignore[unknown-feild]\nowner: me\n---\n",
    );
    let l = lib.to_str().unwrap();
    // Twice: the second run reads the skills from the library index.
    for _ in 0..2 {
        let out = run(&["check", "--format", "json", l], home.path());
        let v = json(&out);
        let at: Vec<(String, String, u64)> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let p = d["path"].as_str().unwrap();
                let skill = Path::new(p).parent().unwrap().file_name().unwrap();
                (
                    skill.to_string_lossy().into_owned(),
                    d["rule"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap_or(0),
                )
            })
            .collect();
        assert_eq!(
            at,
            [
                ("line".to_string(), "unknown-field".to_string(), 5),
                ("typo".into(), "opt-out-unknown".into(), 4),
                ("typo".into(), "unknown-field".into(), 5),
            ],
            "{at:?}"
        );
        let e = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["rule"] == "opt-out-unknown")
            .unwrap();
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("did you mean `unknown-field`?"),
            "{e}"
        );
    }
}

/// Corpus skills of one third-party collection, each with several fields the spec does not know.
fn corpus_slice(n: usize) -> Option<Vec<PathBuf>> {
    let root = corpus()?.join("cybersecurity-skills/skills");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("SKILL.md").is_file())
        .collect();
    dirs.sort();
    dirs.truncate(n);
    Some(dirs)
}

#[test]
#[cfg_attr(not(skillscope_corpus), ignore = "needs the corpus")]
fn rule_selection_on_corpus_skills() {
    let Some(dirs) = corpus_slice(25) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let paths: Vec<&str> = dirs.iter().map(|d| d.to_str().unwrap()).collect();
    let with = |extra: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        args.extend(extra);
        args.extend(&paths);
        run(&args, home.path())
    };
    let all = with(&[]);
    assert_eq!(all.status.code(), Some(1));
    let before = rules_of(&all);
    let unknown = before.get("unknown-field").copied().unwrap_or(0);
    assert!(
        unknown >= 25,
        "a collection of fields of its own: {before:?}"
    );
    let errors = json(&all)["errors"].as_u64().unwrap();

    let ignored = with(&["--ignore", "unknown-field"]);
    let after = rules_of(&ignored);
    assert!(!after.contains_key("unknown-field"));
    let mut expected = before.clone();
    expected.remove("unknown-field");
    assert_eq!(after, expected, "nothing else changes");
    assert_eq!(
        json(&ignored)["errors"].as_u64().unwrap(),
        errors - unknown as u64
    );

    // The same collection switched off by a per-path entry of the config, by its absolute
    // path and by a glob that matches at any depth.
    let root = dirs[0].parent().unwrap().parent().unwrap();
    for glob in [
        format!("{}/**", root.display()),
        "**/cybersecurity-skills/**".to_string(),
    ] {
        let config = format!("[[rules.per-path]]\npaths = [\"{glob}\"]\nunknown-field = \"off\"\n");
        let mut args = vec!["check", "--format", "json"];
        args.extend(&paths);
        let out = run_with_config(&args, home.path(), &config);
        assert_eq!(rules_of(&out), expected, "{glob}");
    }
}

#[test]
#[cfg_attr(not(skillscope_corpus), ignore = "needs the corpus")]
fn an_opt_out_comment_in_corpus_skills() {
    let Some(dirs) = corpus_slice(5) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    for d in &dirs {
        let copy = lib.join(d.file_name().unwrap());
        copy_tree(d, &copy);
        let text = std::fs::read_to_string(d.join("SKILL.md")).unwrap();
        let body = text
            .strip_prefix("---\n")
            .expect("the corpus skill starts with ---");
        write(
            &copy.join("SKILL.md"),
            &format!("---\n# skillscope: ignore[unknown-field]\n{body}"),
        );
    }
    let copied = run(
        &["check", "--format", "json", lib.to_str().unwrap()],
        home.path(),
    );
    let paths: Vec<&str> = dirs.iter().map(|d| d.to_str().unwrap()).collect();
    let mut args = vec!["check", "--format", "json", "--ignore", "unknown-field"];
    args.extend(&paths);
    let originals = run(&args, home.path());
    // The comment does what --ignore does, skill by skill; every other finding stays.
    assert_eq!(rules_of(&copied), rules_of(&originals));
    assert!(!rules_of(&copied).contains_key("unknown-field"));
}

/// A copy of a skill folder, its files and folders (links are not followed).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let ft = e.file_type().unwrap();
        if ft.is_dir() {
            copy_tree(&e.path(), &to.join(e.file_name()));
        } else if ft.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}
