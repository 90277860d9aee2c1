//! `prompt --mode enabled|all|auto` and `prompt --compare` through the real binary.

use crate::common;
use common::*;
use skillscope::core::tokens::{Encoding, count};

fn library(home: &std::path::Path) -> std::path::PathBuf {
    let lib = home.join("lib");
    let skills = [
        (
            "pdf-forms",
            "Fill and read PDF forms. Use when the user shares a PDF file.",
        ),
        (
            "git-commits",
            "Write git commit messages from the staged diff. Use when committing.",
        ),
        (
            "sql-speed",
            "Speed up slow SQL queries with indexes. Use for database work.",
        ),
        (
            "docker-fix",
            "Debug Docker containers that exit or fail to build.",
        ),
    ];
    for (name, desc) in skills {
        write(
            &lib.join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {desc}\n---\nBody of {name}.\n"),
        );
    }
    // Off by default: listed by `all`, not by `enabled`, never relevant.
    write(
        &lib.join("legacy-pdf/SKILL.md"),
        "---\nname: legacy-pdf\ndescription: Old PDF form filler kept for reference.\nauto_load: false\n---\n",
    );
    lib
}

fn stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn each_mode_lists_what_it_promises() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let lib = lib.to_str().unwrap();
    let listing = |extra: &[&str]| {
        let mut args = vec!["prompt", "--format", "markdown"];
        args.extend_from_slice(extra);
        args.push(lib);
        stdout(&run(&args, home.path()))
    };
    let enabled = listing(&[]);
    let all = listing(&["--mode", "all"]);
    let auto = listing(&[
        "--mode",
        "auto",
        "--message",
        "please fill in this pdf form",
    ]);
    assert!(
        enabled.contains("**pdf-forms**") && !enabled.contains("legacy-pdf"),
        "{enabled}"
    );
    assert!(
        all.contains("**legacy-pdf**") && all.contains("**sql-speed**"),
        "{all}"
    );
    assert_eq!(listing(&["--all"]), all, "--all is --mode all");
    assert!(auto.contains("**pdf-forms**"), "{auto}");
    for absent in ["legacy-pdf", "git-commits", "sql-speed", "docker-fix"] {
        assert!(!auto.contains(absent), "{absent} in {auto}");
    }
    // Without a message, auto is a usage error that says what to give.
    let out = run(&["prompt", "--mode", "auto", lib], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--message"));
    let out = run(&["prompt", "--mode", "all", "--all", lib], home.path());
    assert_eq!(out.status.code(), Some(2), "--all and --mode conflict");
}

#[test]
fn compare_prices_each_mode_with_the_listing_it_stands_for() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let lib = lib.to_str().unwrap();
    let msg = "please fill in this pdf form";
    let v = json(&run(
        &[
            "prompt",
            "--format",
            "markdown",
            "--compare",
            "--json",
            "--message",
            msg,
            lib,
        ],
        home.path(),
    ));
    assert_eq!(v["message"], msg);
    assert_eq!(v["relevant"][0]["name"], "pdf-forms");
    let modes = v["modes"].as_array().unwrap();
    let names: Vec<&str> = modes.iter().map(|m| m["mode"].as_str().unwrap()).collect();
    assert_eq!(names, ["enabled", "all", "auto"]);
    let mut tokens = Vec::new();
    for (mode, args) in [
        ("enabled", vec![]),
        ("all", vec!["--mode", "all"]),
        ("auto", vec!["--mode", "auto", "--message", msg]),
    ] {
        let mut a = vec!["prompt", "--format", "markdown"];
        a.extend(args);
        a.push(lib);
        let text = stdout(&run(&a, home.path()));
        // The binary prints exactly the listing's bytes (no line break added off a terminal).
        let n = count(Encoding::O200kBase, &text);
        let m = modes.iter().find(|m| m["mode"] == mode).unwrap();
        assert_eq!(m["tokens"].as_u64().unwrap() as usize, n, "{mode}");
        tokens.push(n as f64);
    }
    assert_eq!(modes[0]["listed"], 4);
    assert_eq!(modes[1]["listed"], 5);
    assert_eq!(modes[2]["listed"], 1);
    let saving = (tokens[1] - tokens[2]) / tokens[1] * 100.0;
    let got = modes[2]["saving_vs_all_percent"].as_f64().unwrap();
    assert!((got - saving).abs() <= 0.05, "{got} vs {saving}");
    // The text report carries the same figures.
    let text = stdout(&run(
        &[
            "prompt",
            "--format",
            "markdown",
            "--compare",
            "--message",
            msg,
            lib,
        ],
        home.path(),
    ));
    let auto_row = text.lines().find(|l| l.starts_with("auto")).unwrap();
    assert!(
        auto_row.contains(&format!("{}", tokens[2] as u64)),
        "{text}"
    );
    assert!(auto_row.contains(&format!("−{saving:.0}%")), "{text}");
    assert!(text.contains("lists pdf-forms"), "{text}");
    // Without a message the auto row is left out and the report says how to get it.
    let text = stdout(&run(&["prompt", "--compare", lib], home.path()));
    assert!(!text.lines().any(|l| l.starts_with("auto ")), "{text}");
    assert!(text.contains("--message"), "{text}");
}
