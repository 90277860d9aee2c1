//! The small things people meet every day: `eval --min-recall` on a library without
//! `triggers:`, a foreign baseline's error said once, "did you mean" for a mistyped skill name,
//! a hint for the YAML mistake actually made, and no lock file left in an agent's folder.

use crate::common;
use common::*;
use std::path::Path;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn library(home: &Path) -> String {
    let lib = home.join("lib");
    write(
        &lib.join("pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user gives a PDF.\n---\nBody\n",
    );
    write(
        &lib.join("csv-stats/SKILL.md"),
        "---\nname: csv-stats\ndescription: Computes column statistics of CSV files. Use when the user shares a CSV.\n---\nBody\n",
    );
    lib.to_str().unwrap().to_string()
}

#[test]
fn min_recall_leaves_out_the_triggers_matcher_of_a_library_without_triggers() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let cases = home.path().join("cases.jsonl");
    std::fs::write(
        &cases,
        // Each message names its skill: the keyword rule wants the whole name (design 000).
        "{\"message\": \"extract the tables of this pdf with pdf-tools\", \"expect\": [\"pdf-tools\"]}\n{\"message\": \"csv-stats: column statistics of data.csv\", \"expect\": [\"csv-stats\"]}\n",
    )
    .unwrap();
    let c = cases.to_str().unwrap();
    let out = run(&["eval", c, &lib, "--min-recall", "0.5"], home.path());
    let e = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{e}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("triggers   skipped: no competing skill declares `triggers:`"),
        "{text}"
    );
    assert!(!e.contains("triggers recall 0.00"), "{e}");
    // The other matchers still gate.
    let out = run(
        &["eval", c, &lib, "--min-recall", "0.5", "--matcher", "fuzzy"],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    // With triggers declared, the triggers matcher gates again.
    write(
        &home.path().join("lib/pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user gives a PDF.\ntriggers: [read this scan]\n---\nBody\n",
    );
    let out = run(&["eval", c, &lib, "--min-recall", "0.5"], home.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("triggers recall"), "{}", stderr(&out));
}

#[test]
fn a_foreign_baseline_is_refused_in_one_sentence() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    std::fs::write(home.path().join("b.json"), "{\"a\": 1}\n").unwrap();
    let out = run(&["budget", &lib, "--baseline", "b.json"], home.path());
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("not a skillscope baseline: missing field"),
        "{e}"
    );
    assert_eq!(e.matches("missing field").count(), 1, "said twice: {e}");
}

#[test]
fn a_mistyped_skill_name_gets_a_suggestion() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let out = run(&["show", "pdf-tool", &lib], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out)
            .contains("no skill named `pdf-tool` among 2 skills (did you mean `pdf-tools`?)"),
        "{}",
        stderr(&out)
    );
    let out = run(&["show", "docker", &lib], home.path());
    assert!(!stderr(&out).contains("did you mean"), "{}", stderr(&out));
    // toggle reads the agents' folders.
    write(
        &home.path().join(".claude/skills/csv-stats/SKILL.md"),
        "---\nname: csv-stats\ndescription: Computes column statistics of CSV files. Use when the user shares a CSV.\n---\n",
    );
    let out = run(&["toggle", "--yes", "csv-stat", "--off"], home.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("(did you mean `csv-stats`?)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn inject_suggests_the_skill_meant() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    for agent in ["claude-code", "codex", "gemini", "opencode"] {
        let out = run(&["inject", "--agent", agent, "pdf-tool", &lib], home.path());
        assert_ne!(out.status.code(), Some(0), "{agent}");
        assert!(
            stderr(&out).contains("(did you mean `pdf-tools`?)"),
            "{agent}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn yaml_invalid_hints_at_the_mistake_made() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("list/SKILL.md"),
        "---\nname: list\ndescription: Lists things. Use when asked.\ntags: [a, b\n---\n",
    );
    write(
        &lib.join("colon/SKILL.md"),
        "---\nname: colon\ndescription: Use it: for things\n---\n",
    );
    let out = run(
        &[
            "check",
            "--format",
            "json",
            "--select",
            "yaml-invalid",
            lib.to_str().unwrap(),
        ],
        home.path(),
    );
    let v = json(&out);
    let message = |dir: &str| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["path"].as_str().unwrap().contains(&format!("/{dir}/")))
            .map(|d| d["message"].as_str().unwrap().to_string())
            .unwrap()
    };
    let list = message("list");
    assert!(
        list.contains("close it with `]`") && !list.contains("quoting"),
        "{list}"
    );
    assert!(message("colon").contains("quote the value"));
}

#[test]
fn a_toggle_leaves_no_lock_file_in_the_agents_folders() {
    let home = tempfile::tempdir().unwrap();
    write(
        &home.path().join(".claude/skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Reads PDF files when the user mentions a PDF.\n---\n",
    );
    write(&home.path().join(".claude/settings.json"), "{}\n");
    let out = run(&["toggle", "--yes", "pdf", "--off"], home.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let mut locks = Vec::new();
    let mut stack = vec![home.path().to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".lock") {
                locks.push(p);
            }
        }
    }
    assert!(locks.is_empty(), "{locks:?}");
    let claude = std::fs::read_to_string(home.path().join(".claude/settings.json")).unwrap();
    assert!(claude.contains("\"pdf\": \"off\""), "{claude}");
}
