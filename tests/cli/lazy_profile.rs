//! The `lazy-skills` profile through the real binary: the demo library is clean under it except
//! the skills broken on purpose, it is the profile the demo gets when none is asked for, and it
//! holds the Lazy Skills fields to their shapes.

use crate::common;
use crate::tui_common;
use common::*;
use std::collections::BTreeSet;

/// The demo skills whose SKILL.md says they demonstrate a diagnostic.
const BROKEN_ON_PURPOSE: [&str; 3] = ["broken-yaml", "long-description", "name-mismatch"];

fn folders_with(diags: &[serde_json::Value], severities: &[&str]) -> BTreeSet<String> {
    diags
        .iter()
        .filter(|d| severities.contains(&d["severity"].as_str().unwrap()))
        .map(|d| {
            let p = std::path::PathBuf::from(d["path"].as_str().unwrap());
            p.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

#[test]
fn the_demo_is_clean_under_lazy_skills_except_the_broken_skills() {
    let home = tempfile::tempdir().unwrap();
    let demo = demo();
    let out = run(
        &[
            "check",
            "--profile",
            "lazy-skills",
            "--format",
            "json",
            demo.to_str().unwrap(),
        ],
        home.path(),
    );
    let v = json(&out);
    assert_eq!(v["profile"], "lazy-skills");
    let diags = v["diagnostics"].as_array().unwrap().clone();
    let flagged = folders_with(&diags, &["error", "warning"]);
    let want: BTreeSet<String> = BROKEN_ON_PURPOSE
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(flagged, want, "{diags:#?}");
    // Each broken skill says in its body which diagnostic it demonstrates.
    for name in BROKEN_ON_PURPOSE {
        let body = std::fs::read_to_string(demo.join(name).join("SKILL.md")).unwrap();
        assert!(
            body.contains("A demo of") || body.contains("Deliberately broken"),
            "{name} is not marked as broken on purpose"
        );
    }
    // The same library under the spec profile: the Lazy Skills fields are unknown there.
    let spec = json(&run(
        &[
            "check",
            "--profile",
            "spec",
            "--format",
            "json",
            demo.to_str().unwrap(),
        ],
        home.path(),
    ));
    let unknown: BTreeSet<String> = spec["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unknown-field")
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect();
    for field in [
        "`type`",
        "`entry`",
        "`triggers`",
        "`when_to_use`",
        "`auto_load`",
    ] {
        assert!(
            unknown.iter().any(|m| m.contains(field)),
            "{field} should be unknown to the spec: {unknown:?}"
        );
    }
}

#[test]
fn the_demo_fallback_is_judged_by_lazy_skills() {
    // An empty home and working folder: no agent folders, so `list` shows the demo library,
    // judged by the profile it is written for.
    let home = tempfile::tempdir().unwrap();
    let out = run(&["list", "--json"], home.path());
    let v = json(&out);
    let skills = v.as_array().unwrap();
    assert_eq!(skills.len(), 15);
    let rules = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["diagnostics"].as_array().unwrap().clone())
            .map(|d| d["rule"].as_str().unwrap().to_string())
            .collect()
    };
    // `type:` and `triggers:` are Lazy Skills fields: unknown to the spec, known here.
    assert!(!rules(&v).contains(&"unknown-field".to_string()), "{v}");
    // Explicit wins.
    let v = json(&run(&["list", "--json", "--profile", "spec"], home.path()));
    assert!(rules(&v).contains(&"unknown-field".to_string()), "{v}");
    // `check` never judges the demo in place of the user's skills (a gate must not pass or
    // fail on them), whatever the profile.
    for profile in [&[][..], &["--profile", "codex"]] {
        let mut args = vec!["check", "--format", "json"];
        args.extend(profile);
        let out = run(&args, home.path());
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
    }
    // A library of one's own starts with the spec.
    let lib = home.path().join("lib");
    write(
        &lib.join("a/SKILL.md"),
        "---\nname: a\ndescription: Does a thing with files. Use when asked.\n---\n",
    );
    let v = json(&run(
        &["check", "--format", "json", lib.to_str().unwrap()],
        home.path(),
    ));
    assert_eq!(v["profile"], "spec");
}

#[test]
fn lazy_fields_are_held_to_their_shapes() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("good/SKILL.md"),
        "---\nname: good\ndescription: Scrapes web pages into text. Use when the user wants a page's content.\ntype: executable\nentry: run.py\ntriggers: [scrape a page]\ndependencies:\n  - playwright==1.40.0\n  - beautifulsoup4>=4.12.0\nenabled: true\nauto_load: true\nwhen_to_use: When a URL is given.\n---\nBody\n",
    );
    write(&lib.join("good/run.py"), "#!/usr/bin/env python3\n");
    write(
        &lib.join("bad/SKILL.md"),
        "---\nname: bad\ndescription: Resizes photos for a slide deck. Use when images are too large.\ntype: plugin\nentry: ../good/run.py\ntriggers: 7\ndependencies:\n  - playwright=1.40.0\n  - requests>=\nenabled: maybe\n---\nBody\n",
    );
    write(
        &lib.join("bad/requirements.txt"),
        "requests>=2.31\nnumpy=>1.0\n",
    );
    let out = run(
        &[
            "check",
            "--profile",
            "lazy-skills",
            "--format",
            "json",
            lib.to_str().unwrap(),
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let diags = v["diagnostics"].as_array().unwrap();
    let of = |dir: &str| -> Vec<(String, u64, String)> {
        diags
            .iter()
            .filter(|d| d["path"].as_str().unwrap().contains(&format!("/{dir}/")))
            .map(|d| {
                assert_eq!(d["severity"], "error", "{d}");
                (
                    d["rule"].as_str().unwrap().to_string(),
                    d["line"].as_u64().unwrap_or(0),
                    d["message"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    assert!(of("good").is_empty(), "{:?}", of("good"));
    let bad = of("bad");
    let rules: Vec<(&str, u64)> = bad.iter().map(|(r, l, _)| (r.as_str(), *l)).collect();
    for want in [
        ("field-value", 4),
        ("executable-no-entry", 5),
        ("field-type", 6),
        ("dependency-invalid", 8),
        ("dependency-invalid", 9),
        ("field-type", 10),
        ("dependency-invalid", 2),
    ] {
        assert!(rules.contains(&want), "{want:?} missing from {rules:?}");
    }
    let dep = |needle: &str| {
        bad.iter()
            .any(|(r, _, m)| r == "dependency-invalid" && m.contains(needle))
    };
    assert!(dep("item 1"), "{bad:?}");
    assert!(dep("item 2"), "{bad:?}");
    assert!(
        bad.iter()
            .any(|(r, _, m)| r == "executable-no-entry" && m.contains("`..`")),
        "{bad:?}"
    );
    // Nothing ran: a check never executes a skill.
    assert!(!lib.join("bad/.venv").exists());
}

#[test]
fn the_app_opens_the_demo_with_lazy_skills_and_only_broken_skills_are_flagged() {
    use skillscope::core::Library;
    use skillscope::core::rules::Profile;
    use skillscope::core::scan::ScanOptions;
    use skillscope::core::source::{Agent, Root, Scope};
    let demo = demo();
    let mut lib = Library::load(
        vec![Root::new(&demo, Agent::Demo, Scope::Demo)],
        &ScanOptions::default(),
    );
    lib.demo = true;
    let dir = tempfile::tempdir().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let opts = tui_common::isolated(dir.path(), skillscope::tui::theme::Theme::plain(), false);
    let args = skillscope::core::front::load::LibrarySpec::default();
    let mut app = skillscope::tui::app::App::new(args, lib, opts, tx);
    app.resize(100, 30);
    let mut h = tui_common::Harness {
        app,
        rx,
        roots: vec![demo.clone()],
        dir,
    };
    h.settle();
    assert_eq!(h.app.findings.profile, Profile::LazySkills);
    let flagged: BTreeSet<String> = h
        .app
        .findings
        .counts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.errors + c.warnings > 0)
        .map(|(i, _)| h.app.lib.skills[i].dir_name().into_owned())
        .collect();
    let want: BTreeSet<String> = BROKEN_ON_PURPOSE
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(flagged, want);
    assert!(h.screen().contains("rules: lazy-skills"), "{}", h.screen());
    // `p` moves on to the next profile and stays there.
    h.key(ratatui::crossterm::event::KeyCode::Char('p'));
    let at = Profile::ALL
        .iter()
        .position(|p| *p == Profile::LazySkills)
        .unwrap();
    assert_eq!(
        h.app.findings.profile,
        Profile::ALL[(at + 1) % Profile::ALL.len()]
    );
}
