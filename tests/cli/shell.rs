//! Shell conventions through the real binary: completion scripts, the man page, the config file.

use crate::common;
use common::*;
use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What the binary answers a shell asking for completions of `words` (the last one being
/// typed), one candidate per line as zsh reads them (`value:help`), values only.
fn complete(words: &[&str], home: &std::path::Path) -> Vec<String> {
    let out = bin()
        .arg("--")
        .args(words)
        .env("COMPLETE", "zsh")
        .env("_CLAP_IFS", "\n")
        .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", home)
        .current_dir(home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split(':').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn completions_offer_every_options_values_and_the_installed_skills() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let has = |words: &[&str], want: &[&str]| {
        let got = complete(words, h);
        for w in want {
            assert!(got.iter().any(|g| g == w), "{words:?}: no {w} in {got:?}");
        }
    };
    has(
        &["skillscope", "check", "--profile", ""],
        &["spec", "claude-code", "lazy-skills"],
    );
    has(
        &["skillscope", "check", "--listing", ""],
        &["xml", "claude-code", "codex"],
    );
    has(
        &["skillscope", "prompt", "--format", ""],
        &["markdown", "lazy-skills"],
    );
    has(
        &["skillscope", "check", "--format", ""],
        &["github", "sarif", "markdown"],
    );
    has(
        &["skillscope", "budget", "--encoding", ""],
        &["o200k_base", "cl100k_base"],
    );
    has(
        &["skillscope", "budget", "--model", ""],
        &["claude", "gpt-4o", "none"],
    );
    has(
        &["skillscope", "match", "x", "--matcher", ""],
        &["keyword", "bm25", "all"],
    );
    has(
        &["skillscope", "budget", "--agent", ""],
        &["claude-code", "goose", "generic"],
    );
    has(&["skillscope", "budget", "--tier", ""], &["names"]);
    has(
        &["skillscope", "check", "--select", "unknown"],
        &["unknown-field"],
    );
    has(
        &["skillscope", "check", "--color", ""],
        &["auto", "always", "never"],
    );
    has(&["skillscope", "bud"], &["budget"]);
    // No skill installed: nothing to name (the demo is not the user's).
    assert!(
        !complete(&["skillscope", "show", ""], h)
            .iter()
            .any(|c| !c.starts_with('-'))
    );
    for name in ["pdf-tools", "pdf-forms", "csv-stats"] {
        write(
            &h.join(format!(".claude/skills/{name}/SKILL.md")),
            &format!("---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n"),
        );
    }
    assert_eq!(
        complete(&["skillscope", "show", "pdf"], h),
        ["pdf-forms", "pdf-tools"]
    );
    assert_eq!(complete(&["skillscope", "toggle", "cs"], h), ["csv-stats"]);
    assert_eq!(
        complete(&["skillscope", "remove", "pdf-t"], h),
        ["pdf-tools"]
    );
    assert_eq!(complete(&["skillscope", "move", "csv"], h), ["csv-stats"]);
}

#[test]
fn bash_loads_the_completion_script_and_completes_through_the_binary() {
    if !have("bash") {
        eprintln!("skipping: bash is not installed");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_skillscope");
    let call = |words: &str| {
        format!(
            "COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             _clap_complete_skillscope skillscope \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; \
             echo \"[$(IFS=' '; echo \"${{COMPREPLY[*]}}\")]\""
        )
    };
    let script = format!(
        "source <('{exe}' completions bash) && complete -p skillscope && {} && {} && {}",
        call("skillscope bud"),
        call("skillscope budget --base"),
        call("skillscope check --profile c"),
    );
    let out = Command::new("bash")
        .args(["-c", &script])
        .env("HOME", home.path())
        .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("-F _clap_complete_skillscope skillscope"),
        "{text}"
    );
    assert!(text.contains("[budget]"), "{text}");
    assert!(
        text.contains("--baseline") && text.contains("--baseline-ref"),
        "{text}"
    );
    // The profiles whose names start with `c`.
    assert!(text.contains("[claude-code codex cline]"), "{text}");
}

#[test]
fn zsh_and_fish_scripts_call_the_binary() {
    let home = tempfile::tempdir().unwrap();
    for (shell, marker) in [
        ("zsh", "#compdef skillscope"),
        (
            "fish",
            "complete --keep-order --exclusive --command skillscope",
        ),
    ] {
        let out = run(&["completions", shell], home.path());
        assert_eq!(out.status.code(), Some(0));
        let s = String::from_utf8(out.stdout).unwrap();
        assert!(s.contains(marker), "{shell}: {s}");
        assert!(
            s.contains(&format!("COMPLETE=\"{shell}\""))
                || s.contains(&format!("COMPLETE={shell}")),
            "{shell}: {s}"
        );
        assert!(s.contains(env!("CARGO_BIN_EXE_skillscope")), "{shell}: {s}");
        if have(shell) {
            // The shell itself must accept the script.
            let check = match shell {
                "zsh" => Command::new("zsh").args(["-n", "-c", &s]).output(),
                _ => Command::new("fish")
                    .args(["--no-execute", "-c", &s])
                    .output(),
            }
            .unwrap();
            assert!(check.status.success(), "{shell} rejects its script");
        } else {
            eprintln!("skipping the {shell} syntax check: {shell} is not installed");
        }
    }
    let bad = run(&["completions", "tcsh"], home.path());
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_man_page_renders_with_man() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["man"], home.path());
    assert_eq!(out.status.code(), Some(0));
    let roff = String::from_utf8(out.stdout).unwrap();
    assert!(
        roff.starts_with(".ie \\n(.g .ds Aq"),
        "roff: {}",
        &roff[..80.min(roff.len())]
    );
    for needle in [
        ".TH skillscope",
        ".SH COMMANDS",
        "SKILLSCOPE BUDGET",
        "\\-\\-baseline\\-ref",
        ".SH \"EXIT STATUS\"",
        "\\fB130\\fR",
        ".SH ENVIRONMENT",
        "\\fBNO_COLOR\\fR",
        "\\fBSKILLSCOPE_CONFIG\\fR",
        ".SH FILES",
        ".SH EXAMPLES",
    ] {
        assert!(roff.contains(needle), "man page lacks {needle}");
    }
    // One page holds everything: it names no other page (no skillscope-list(1)).
    assert!(!roff.contains("(1)"), "the page refers to another page");
    assert!(
        !roff.contains("skillscope\\-list"),
        "the page refers to another page"
    );
    if !have("man") {
        eprintln!("skipping the man -l rendering: man is not installed (apt-get install man-db)");
        return;
    }
    let page = home.path().join("skillscope.1");
    std::fs::write(&page, &roff).unwrap();
    let shown = Command::new("man")
        .arg("-l")
        .arg(&page)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .unwrap();
    // Justified text: compare with runs of blanks made one.
    let text = String::from_utf8_lossy(&shown.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    assert!(text.contains("NAME"), "{text}");
    assert!(
        text.contains("skillscope - See your Agent Skills"),
        "{text}"
    );
    assert!(text.contains("--fail-on-increase"), "{text}");
    assert!(text.contains("EXIT STATUS"), "{text}");
}

fn lib(home: &std::path::Path) -> std::path::PathBuf {
    let lib = home.join("lib");
    write(
        &lib.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Turns transcripts into meeting notes. Use when the user pastes a transcript.\n---\nBody\n",
    );
    lib
}

#[test]
fn the_config_file_changes_defaults_and_flags_still_win() {
    let home = tempfile::tempdir().unwrap();
    let lib = lib(home.path());
    let lib = lib.to_str().unwrap();
    let plain = json(&run(&["budget", lib, "--format", "json"], home.path()));
    assert_eq!(plain["listing"]["format"], "xml");
    write(
        &home.path().join("config/config.toml"),
        "listing = \"markdown\"\ncontext_window = 32000\nmodel = \"claude\"\nprofile = \"claude-code\"\n",
    );
    let out = run(&["budget", lib, "--format", "json"], home.path());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["listing"]["format"], "markdown");
    assert_eq!(v["listing"]["context_window"], 32000);
    assert_eq!(v["model"]["name"], "claude");
    let n = v["listing"]["tokens"].as_u64().unwrap();
    assert_eq!(
        v["model"]["listing_tokens"],
        (n as f64 * 1.15).round() as u64
    );
    let flag = json(&run(
        &["budget", lib, "--format", "json", "--listing", "codex"],
        home.path(),
    ));
    assert_eq!(flag["listing"]["format"], "codex");
    let check = json(&run(&["check", lib, "--format", "json"], home.path()));
    assert_eq!(check["profile"], "claude-code");
    // `--help` shows the defaults in force.
    let help = String::from_utf8(run(&["budget", "--help"], home.path()).stdout).unwrap();
    assert!(help.contains("[default: markdown]"), "{help}");

    // XDG_CONFIG_HOME is where the file is found when nothing else says.
    let xdg = tempfile::tempdir().unwrap();
    write(
        &xdg.path().join("skillscope/config.toml"),
        "listing = \"claude-code\"\n",
    );
    let out = bin()
        .args(["budget", lib, "--format", "json"])
        .env_remove("SKILLSCOPE_CONFIG_DIR")
        .env("XDG_CONFIG_HOME", xdg.path())
        .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
        .env("HOME", home.path())
        .output()
        .unwrap();
    assert_eq!(json(&out)["listing"]["format"], "claude-code");
    // SKILLSCOPE_CONFIG names the file outright.
    let other = home.path().join("other.toml");
    std::fs::write(&other, "listing = \"codex\"\n").unwrap();
    let out = bin()
        .args(["budget", lib, "--format", "json"])
        .env("SKILLSCOPE_CONFIG", &other)
        .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
        .output()
        .unwrap();
    assert_eq!(json(&out)["listing"]["format"], "codex");
}

#[test]
fn config_problems_are_warnings_with_their_lines_and_never_touch_stdout() {
    let home = tempfile::tempdir().unwrap();
    let lib = lib(home.path());
    let lib = lib.to_str().unwrap();
    write(
        &home.path().join("config/config.toml"),
        "listing = \"markdown\"\n\n# keys\n[keys]\ncycle_model = \"M\"\nquit = \"ctrl-\"\nlisting_format = \"f\"\n[keys.list]\ntoggle = \"s\"\n",
    );
    let out = run(&["budget", lib, "--format", "json"], home.path());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        json(&out)["listing"]["format"],
        "markdown",
        "the good keys still count"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    let path = home.path().join("config/config.toml");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "a key moved on purpose is no problem: {err}"
    );
    assert!(
        lines[0].starts_with(&format!(
            "skillscope: warning: {}:6: `quit`: \"ctrl-\" is not a key",
            path.display()
        )),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "skillscope: warning: {}:7: unknown action \"listing_format\"",
            path.display()
        )),
        "{err}"
    );
    // Completions and the man page are generated quietly.
    let out = run(&["completions", "bash"], home.path());
    assert!(out.stderr.is_empty());
}

#[test]
fn config_extra_roots_join_the_default_folders() {
    let home = tempfile::tempdir().unwrap();
    let _ = lib(home.path());
    write(
        &home.path().join("config/config.toml"),
        "roots = [\"../lib\"]\n",
    );
    // No PATH: the agents' folders (none here) plus the extra root from the config.
    let v = json(&run(&["list", "--json"], home.path()));
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["notes"]);
    // A PATH replaces every default root, the config's too.
    let demo = demo();
    let v = json(&run(
        &["list", "--json", demo.to_str().unwrap()],
        home.path(),
    ));
    assert!(v.as_array().unwrap().iter().all(|s| s["name"] != "notes"));
}

#[test]
fn docs_config_names_every_action_context_and_model() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/config.md"),
    )
    .unwrap();
    for name in skillscope::tui::action::Action::named().map(skillscope::tui::action::Action::name)
    {
        assert!(
            doc.contains(&format!("`{name}`")),
            "docs/config.md lacks the action {name}"
        );
    }
    for c in skillscope::tui::keymap::Context::ALL {
        assert!(
            doc.contains(&format!("`{}`", c.name())),
            "docs/config.md lacks {}",
            c.name()
        );
    }
    for p in skillscope::core::pricing::model::PRESETS {
        assert!(
            doc.contains(&format!("| `{}` |", p.name))
                && doc.contains(&format!("| {:.2} |", p.factor)),
            "docs/config.md lacks the model {} with its factor {}",
            p.name,
            p.factor
        );
    }
    for (key, _) in skillscope::config::KEYS {
        assert!(
            doc.contains(&format!("{key} =")) || doc.contains(&format!("[{key}]")),
            "{key}"
        );
    }
}

#[test]
fn markdown_reports_for_check_and_budget_hold_the_json_figures() {
    let home = tempfile::tempdir().unwrap();
    let demo = demo();
    let demo = demo.to_str().unwrap();
    let cj = json(&run(&["check", demo, "--format", "json"], home.path()));
    let out = run(&["check", demo, "--format", "markdown"], home.path());
    assert_eq!(out.status.code(), Some(1), "errors fail in every format");
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.starts_with("### skillscope check (spec profile)\n"),
        "{md}"
    );
    assert!(
        md.contains(&format!(
            ":x: **{} skills: {} errors, {} warnings**",
            cj["skills"], cj["errors"], cj["warnings"]
        )),
        "{md}"
    );
    let rows = md
        .lines()
        .filter(|l| l.starts_with("| error |") || l.starts_with("| warning |"));
    let shown = (cj["errors"].as_u64().unwrap() + cj["warnings"].as_u64().unwrap()).min(30);
    assert_eq!(rows.count() as u64, shown, "{md}");
    assert!(md.contains("| error | `yaml-invalid` | "), "{md}");

    let bj = json(&run(
        &["budget", demo, "--format", "json", "--model", "claude"],
        home.path(),
    ));
    let out = run(
        &["budget", demo, "--format", "markdown", "--model", "claude"],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    let tokens = bj["listing"]["tokens"].as_u64().unwrap();
    let est = bj["model"]["listing_tokens"].as_u64().unwrap();
    assert_eq!(est, (tokens as f64 * 1.15).round() as u64);
    let thousands = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        md.contains(&format!(
            "| listing per turn (xml, full tier) | **{}** | {} |",
            thousands(tokens),
            thousands(est)
        )),
        "{md}"
    );
    assert!(md.contains("| | tokens (o200k_base) | ≈ claude |"), "{md}");
    // The text report puts the estimate beside the figure, never instead of it.
    let text =
        String::from_utf8(run(&["budget", demo, "--model", "claude"], home.path()).stdout).unwrap();
    assert!(
        text.contains(&format!(
            "{} tokens per turn ≈ {} (claude)",
            thousands(tokens),
            thousands(est)
        )),
        "{text}"
    );
    let bad = run(&["budget", demo, "--model", "llama"], home.path());
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown model `llama`"));
}

/// `--model` completes the models of the client release installed: Claude Code 2.1.231's own
/// (Mythos 5, not Opus 5.5, which 2.1.290 added).
#[test]
fn model_completion_offers_the_installed_releases_models() {
    let home = tempfile::tempdir().unwrap();
    let pkg = home
        .path()
        .join("npm/node_modules/@anthropic-ai/claude-code");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name": "@anthropic-ai/claude-code", "version": "2.1.231"}"#,
    )
    .unwrap();
    std::fs::write(pkg.join("cli.js"), "#!/bin/sh\nexit 1\n").unwrap();
    set_mode(pkg.join("cli.js"), 0o755);
    let bin_dir = home.path().join("npm/bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    symlink(pkg.join("cli.js"), bin_dir.join("claude")).unwrap();
    let out = bin()
        .args(["--", "skillscope", "budget", "--model", ""])
        .env("COMPLETE", "zsh")
        .env("_CLAP_IFS", "\n")
        .env("_CLAP_COMPLETE_INDEX", "3")
        .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
        .env("HOME", home.path())
        .env("PATH", &bin_dir)
        .current_dir(home.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let values: Vec<&str> = text
        .lines()
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert!(values.contains(&"claude-mythos-5"), "{text}");
    assert!(values.contains(&"claude-opus-5"), "{text}");
    assert!(!values.contains(&"claude-opus-5-5"), "{text}");
    assert!(text.contains("Claude Code 2.1.231"), "{text}");
}
