//! Everyday use: a mistyped command, skill name, config key or eval expectation names what was
//! meant; text reports show paths as the reader's folder sees them; a refused action off a
//! terminal is exit 2.

use crate::common;
use common::*;
use std::path::Path;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const PDF: &str = "---\nname: pdf-tools\ndescription: Extracts text and tables from PDF files. Use when the user gives a PDF.\nfoo: bar\n---\nBody\n";

#[test]
fn a_mistyped_command_is_exit_2_with_the_one_meant() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["chek"], home.path());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        "skillscope: unknown command 'chek'; did you mean 'check'?"
    );
    assert!(out.stdout.is_empty());
    // With a subcommand's own options after it, the typo is still what is said.
    let out = run(&["budgte", "--format", "json"], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown command 'budgte'; did you mean 'budget'?"),
        "{}",
        stderr(&out)
    );
    // A word close to nothing lists the commands.
    let out = run(&["zzzzzz"], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("the commands are list, check"),
        "{}",
        stderr(&out)
    );
    // A folder of that name is a library to open, not a typo: the app wants a terminal.
    std::fs::create_dir(home.path().join("chek")).unwrap();
    let out = run(&["chek"], home.path());
    assert!(
        !stderr(&out).contains("unknown command"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn mistyped_names_say_what_was_meant() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(&lib.join("pdf-tools/SKILL.md"), PDF);
    let l = lib.to_str().unwrap();
    // A skill name.
    let out = run(&["show", "pdf-tool", l], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("(did you mean `pdf-tools`?)"),
        "{}",
        stderr(&out)
    );
    // An eval expectation.
    let cases = home.path().join("cases.jsonl");
    std::fs::write(
        &cases,
        "{\"message\": \"read this pdf\", \"expect\": [\"pdf-tool\"]}\n",
    )
    .unwrap();
    let out = run(&["eval", cases.to_str().unwrap(), l], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("pdf-tool (did you mean `pdf-tools`?)"),
        "{}",
        stderr(&out)
    );
    // A config key.
    write(
        &home.path().join("config/config.toml"),
        "encodng = \"cl100k_base\"\n",
    );
    let out = run(&["list", l], home.path());
    assert!(
        stderr(&out).contains("unknown key \"encodng\" (did you mean \"encoding\"?)"),
        "{}",
        stderr(&out)
    );
    // An agent.
    let out = run(&["prompt", "--agent", "codx", l], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("(did you mean `codex`?)"),
        "{}",
        stderr(&out)
    );
}

/// No folder named: the agents' folders are read, and a text report must not carry the home
/// folder of whoever ran it (a PR comment would).
#[test]
fn text_reports_show_paths_relative_to_the_current_folder() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().canonicalize().unwrap();
    write(&home.join(".claude/skills/pdf-tools/SKILL.md"), PDF);
    let at = home.to_string_lossy().into_owned();
    for args in [
        vec!["check"],
        vec!["check", "--format", "markdown"],
        vec!["check", "--format", "github"],
        vec!["budget"],
    ] {
        let out = run(&args, &home);
        let text = stdout(&out);
        assert!(
            text.contains(".claude/skills/pdf-tools"),
            "{args:?}: {text}"
        );
        assert!(
            !text.contains(&at),
            "{args:?} shows the home folder: {text}"
        );
    }
    // From elsewhere, the home folder is `~`.
    let elsewhere = home.join("work");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = bin()
        .args(["check"])
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", &home)
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.starts_with("~/.claude/skills/pdf-tools/SKILL.md:4:1: warning[unknown-field]"),
        "{text}"
    );
    // JSON keeps the absolute path.
    let out = run(&["check", "--format", "json"], &home);
    assert!(stdout(&out).contains(&format!("{at}/.claude/skills/pdf-tools/SKILL.md")));
}

#[test]
fn a_refused_action_off_a_terminal_is_exit_2() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let src = home.join("src");
    write(&src.join("pdf-tools/SKILL.md"), PDF);
    write(
        &home.join(".claude/skills/notes/SKILL.md"),
        &PDF.replace("pdf-tools", "notes"),
    );
    let s = src.to_str().unwrap();
    for args in [
        vec!["add", s],
        vec!["remove", "notes"],
        vec!["copy", "notes", "--to", "codex"],
    ] {
        let out = manage_run(&args, home);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("pass --yes"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert!(!home.join(".claude/skills/pdf-tools").exists());
    assert!(home.join(".claude/skills/notes/SKILL.md").exists());
    // A name that is not installed says which one is.
    let out = manage_run(&["remove", "note"], home);
    assert!(
        stderr(&out).contains("(did you mean `notes`?)"),
        "{}",
        stderr(&out)
    );
}

fn manage_run(args: &[&str], home: &Path) -> std::process::Output {
    bin()
        .args(args)
        .env("HOME", home)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("SKILLSCOPE_DATA_DIR", home.join("data"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .current_dir(home)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// `new` for every agent writes a skill that agent's rules pass, in its folder by default.
#[test]
fn new_writes_a_skill_each_agent_passes() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    for (agent, profile) in [
        ("claude-code", "claude-code"),
        ("codex", "codex"),
        ("opencode", "opencode"),
        ("gemini", "spec"),
        ("goose", "spec"),
        ("generic", "spec"),
        ("lazy-skills", "lazy-skills"),
    ] {
        let lib = home.join("lib").join(agent);
        let out = manage_run(
            &[
                "new",
                "meeting-notes",
                "--agent",
                agent,
                "--path",
                lib.to_str().unwrap(),
            ],
            home,
        );
        assert_eq!(out.status.code(), Some(0), "{agent}: {}", stderr(&out));
        assert!(
            stdout(&out).starts_with(&format!(
                "created lib/{agent}/meeting-notes/SKILL.md for {agent} ({profile} rules: no findings)"
            )),
            "{agent}: {}",
            stdout(&out)
        );
        let dir = lib.join("meeting-notes");
        let out = run(
            &["check", "--profile", profile, dir.to_str().unwrap()],
            home,
        );
        // The placeholder description fails check until it is replaced, and nothing else does.
        assert_eq!(out.status.code(), Some(1), "{agent}: {}", stdout(&out));
        assert!(
            stdout(&out).contains("1 skill checked")
                && stdout(&out).contains(": 1 error, 0 warnings")
                && stdout(&out).contains("error[description-placeholder]"),
            "{agent}: {}",
            stdout(&out)
        );
        let md = dir.join("SKILL.md");
        let text = std::fs::read_to_string(&md).unwrap();
        let (before, after) = text.split_once("description: ").unwrap();
        let rest = &after[after.find('\n').unwrap()..];
        std::fs::write(
            &md,
            format!(
                "{before}description: Writes meeting notes with decisions and owners from a transcript. Use when the user asks to summarise a meeting.{rest}"
            ),
        )
        .unwrap();
        let out = run(
            &["check", "--profile", profile, dir.to_str().unwrap()],
            home,
        );
        assert_eq!(out.status.code(), Some(0), "{agent}: {}", stdout(&out));
        assert!(
            stdout(&out).contains(": 0 errors, 0 warnings"),
            "{agent}: {}",
            stdout(&out)
        );
        // No staging folder is left beside it.
        let left: Vec<_> = std::fs::read_dir(&lib).unwrap().collect();
        assert_eq!(left.len(), 1, "{agent}: {left:?}");
    }
    // By default, the agent's own folder.
    let out = manage_run(&["new", "meeting-notes", "--agent", "codex"], home);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let md = home.join(".codex/skills/meeting-notes/SKILL.md");
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(
        text.starts_with("---\nname: meeting-notes\ndescription: "),
        "{text}"
    );
    // Never over an existing skill.
    let out = manage_run(&["new", "meeting-notes", "--agent", "codex"], home);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&md).unwrap(), text);
}

#[test]
fn new_refuses_a_bad_name_or_a_description_the_agent_rejects() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let lib = home.join("lib");
    let l = lib.to_str().unwrap();
    let out = manage_run(&["new", "Meeting Notes", "--path", l], home);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("(`meeting-notes`)"),
        "{}",
        stderr(&out)
    );
    let out = manage_run(
        &[
            "new",
            "notes",
            "--path",
            l,
            "--description",
            "Writes <notes> from a transcript. Use when asked.",
        ],
        home,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("error[description-xml]"),
        "{}",
        stderr(&out)
    );
    assert!(!lib.join("notes").exists());
    assert_eq!(
        std::fs::read_dir(&lib).unwrap().count(),
        0,
        "a staging folder was left"
    );
}

/// The rules docs/rules.md marks as fixed by `check --fix`.
fn fixable_rules() -> std::collections::BTreeSet<String> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md")).unwrap();
    doc.lines()
        .filter(|l| l.starts_with("| <a id="))
        .filter(|l| !l.trim_end().ends_with("| - |"))
        .filter_map(|l| l.split('`').nth(1).map(str::to_string))
        .collect()
}

/// Every fixable finding, each in a file of its own, a finding no fix can make, and a file with
/// nothing to fix: `check --diff` writes nothing; `check --fix` leaves none of the fixable
/// findings and changes exactly the bytes each fix needs.
#[test]
fn check_fix_clears_every_fixable_finding_and_changes_no_other_byte() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    let desc =
        "description: Writes meeting notes from transcripts. Use when a transcript is pasted.";
    let files: Vec<(&str, String, String)> = vec![
        (
            "bom",
            format!("\u{feff}---\nname: bom\n{desc}\n---\n# Body\n"),
            format!("---\nname: bom\n{desc}\n---\n# Body\n"),
        ),
        (
            "blank",
            format!("\n \n---\nname: blank\n{desc}\n---\n"),
            format!("---\nname: blank\n{desc}\n---\n"),
        ),
        (
            "colon",
            "---\nname: colon\ndescription: Notes: writes them from transcripts. Use when asked. # c\n---\n".to_string(),
            "---\nname: colon\ndescription: 'Notes: writes them from transcripts. Use when asked.' # c\n---\n".to_string(),
        ),
        (
            "2024",
            format!("---\nname: 2024\n{desc}\n---\n"),
            format!("---\nname: '2024'\n{desc}\n---\n"),
        ),
        (
            "fields",
            format!("---\r\nname: fields\r\n{desc}\r\n# why\r\nauthor: Jane # lead\r\nmetadata:\r\n    owner: team\r\ntags:\r\n- a\r\n---\r\nBody\r\n"),
            format!("---\r\nname: fields\r\n{desc}\r\n# why\r\nmetadata:\r\n    owner: team\r\n    author: Jane # lead\r\n    tags:\r\n    - a\r\n---\r\nBody\r\n"),
        ),
        (
            "nameless",
            format!("---\n{desc}\n---\n"),
            format!("---\nname: nameless\n{desc}\n---\n"),
        ),
        (
            "folder",
            format!("---\nname: \"other\"   # old\n{desc}\n---\n"),
            format!("---\nname: folder   # old\n{desc}\n---\n"),
        ),
        // Nothing mechanical: left byte for byte.
        (
            "vague",
            "---\nname: vague\ndescription: Helps.\n---\n".to_string(),
            "---\nname: vague\ndescription: Helps.\n---\n".to_string(),
        ),
    ];
    for (dir, before, _) in &files {
        write(&lib.join(dir).join("SKILL.md"), before);
    }
    write(
        &lib.join("fields/references/guide.md"),
        "author: not frontmatter\n",
    );
    let l = lib.to_str().unwrap();
    let rules = |out: &std::process::Output| -> std::collections::BTreeSet<String> {
        json(out)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_string())
            .collect()
    };
    let fixable = fixable_rules();
    assert!(fixable.len() >= 7, "{fixable:?}");
    let before = run(
        &["check", "--profile", "spec", "--format", "json", l],
        home.path(),
    );
    let found = rules(&before);
    assert!(
        fixable.is_subset(&found),
        "the library lacks a fixable finding: {:?}",
        fixable.difference(&found).collect::<Vec<_>>()
    );
    // --diff shows and writes nothing.
    let out = run(&["check", "--profile", "spec", "--diff", l], home.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("+++ b/lib/colon/SKILL.md"),
        "{}",
        stdout(&out)
    );
    for (dir, before, _) in &files {
        assert_eq!(
            &std::fs::read_to_string(lib.join(dir).join("SKILL.md")).unwrap(),
            before
        );
    }
    let out = run(&["check", "--profile", "spec", "--fix", l], home.path());
    assert!(
        stderr(&out).contains("fixed lib/fields/SKILL.md: unknown-field ×2"),
        "{}",
        stderr(&out)
    );
    for (dir, _, after) in &files {
        assert_eq!(
            &std::fs::read_to_string(lib.join(dir).join("SKILL.md")).unwrap(),
            after,
            "{dir}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(lib.join("fields/references/guide.md")).unwrap(),
        "author: not frontmatter\n"
    );
    let after = run(
        &["check", "--profile", "spec", "--format", "json", l],
        home.path(),
    );
    let left = rules(&after);
    assert!(left.is_disjoint(&fixable), "left: {left:?}");
    assert!(left.contains("description-generic"), "{left:?}");
    let out = run(&["check", "--profile", "spec", "--diff", l], home.path());
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(out.stdout.is_empty());
}

/// A library of app skills whose descriptions are one template: `check` says routing cannot
/// tell them apart and how much of the library it is; a request that names the app finds its
/// skill with the hybrid matcher.
#[test]
fn app_skills_with_one_template_are_reported_and_found_by_name() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("apps");
    let apps = [
        "Strava",
        "QuickBooks",
        "Xero",
        "Expensify",
        "Trello",
        "Asana",
        "Garmin",
    ];
    for app in apps {
        let slug = app.to_lowercase();
        write(
            &lib.join(format!("{slug}-automation/SKILL.md")),
            &format!(
                "---\nname: {slug}-automation\ndescription: \"Automate {app} tasks via Rube MCP (Composio): records, accounts, reports. Always search tools first for current schemas.\"\n---\n# {app}\n"
            ),
        );
    }
    write_library(
        &lib,
        &[(
            "meeting-notes",
            "Writes meeting notes from a pasted transcript. Use when the user pastes a transcript.",
        )],
    );
    let l = lib.to_str().unwrap();
    let out = run(
        &["check", "--select", "description-template", l],
        home.path(),
    );
    let text = stdout(&out);
    assert_eq!(
        text.matches("warning[description-template]").count(),
        apps.len(),
        "{text}"
    );
    assert!(
        text.contains("7 of the library's 8 skills (88 %) have a description that is a template"),
        "{text}"
    );
    assert!(!text.contains("meeting-notes/"), "{text}");
    // The hybrid matcher is the `semantic` feature's (tests/cli/not_built_in.rs: without it).
    if cfg!(feature = "semantic") {
        for (message, app) in [
            ("log my ride on Strava", "strava-automation"),
            (
                "send the invoice for March with QuickBooks",
                "quickbooks-automation",
            ),
            (
                "put a card for this bug on the trello board",
                "trello-automation",
            ),
        ] {
            let out = run(
                &["match", "--matcher", "hybrid", "--json", message, l],
                home.path(),
            );
            let v = json(&out);
            let first = v["results"]["hybrid"][0]["name"].as_str();
            assert_eq!(first, Some(app), "{message}: {v}");
        }
    }
}

/// Inside a project (a git work tree, or a folder holding `.claude` or `.agents`), `new` writes
/// to the project's folder and says so; `--scope user` still writes to the user's own; outside
/// a project the user's own is the default.
#[test]
fn new_defaults_to_the_project_inside_one_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    for marker in [".git", ".claude", ".agents"] {
        let project = home.join(format!("work/app{}", marker.replace('.', "-")));
        std::fs::create_dir_all(project.join(marker)).unwrap();
        let sub = project.join("src/deep");
        std::fs::create_dir_all(&sub).unwrap();
        let out = bin()
            .args(["new", "release-notes"])
            .env("HOME", home)
            .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
            .env("SKILLSCOPE_DATA_DIR", home.join("data"))
            .current_dir(&sub)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{marker}: {}", stderr(&out));
        assert!(
            project
                .join(".claude/skills/release-notes/SKILL.md")
                .is_file(),
            "{marker}: {}",
            stdout(&out)
        );
        assert!(
            stderr(&out).contains("inside the project") && stderr(&out).contains("--scope user"),
            "{marker}: {}",
            stderr(&out)
        );
        assert!(
            !home.join(".claude/skills/release-notes").exists(),
            "{marker}"
        );
    }
    // Asked for, the user's own folder.
    let project = home.join("work/app-git");
    let out = bin()
        .args(["new", "standup", "--scope", "user"])
        .env("HOME", home)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("SKILLSCOPE_DATA_DIR", home.join("data"))
        .current_dir(&project)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(home.join(".claude/skills/standup/SKILL.md").is_file());
    assert!(!project.join(".claude/skills/standup").exists());
    // Outside any project: the user's own folder.
    let plain = home.join("notes");
    std::fs::create_dir_all(&plain).unwrap();
    let out = manage_run(&["new", "diary"], home);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(home.join(".claude/skills/diary/SKILL.md").is_file());
    assert!(
        !stderr(&out).contains("inside the project"),
        "{}",
        stderr(&out)
    );
}

/// `new --help` names only the flags `new` has.
#[test]
fn new_help_names_no_flag_it_lacks() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["new", "--help"], home.path());
    let help = stdout(&out);
    assert!(
        help.contains("--scope") && help.contains("--agent"),
        "{help}"
    );
    assert!(!help.contains("--link"), "{help}");
}

/// `--project-only` reads the project's skill folders alone: every agent's, from the current
/// folder up to the repository root, never the user's; a project without any says so instead
/// of falling back to the demo; and it cannot be mixed with paths given by hand.
#[test]
fn project_only_reads_the_projects_folders_alone() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let skill = |dir: &std::path::Path, name: &str| {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        std::fs::write(
            dir.join(name).join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Writes {name} notes when the user asks for them.\n---\n# {name}\n"),
        )
        .unwrap();
    };
    skill(&home.join(".claude/skills"), "personal");
    let project = home.join("work/app");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    skill(&project.join(".claude/skills"), "shared");
    skill(&project.join(".agents/skills"), "team");
    let sub = project.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    let empty = home.join("work/empty");
    std::fs::create_dir_all(empty.join(".git")).unwrap();
    let run = |cwd: &std::path::Path, args: &[&str]| {
        bin()
            .args(args)
            .env("HOME", home)
            .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
            .env("SKILLSCOPE_DATA_DIR", home.join("data"))
            .current_dir(cwd)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let all = run(&sub, &["list", "--json"]);
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    for name in ["personal", "shared", "team"] {
        assert!(
            stdout(&all).contains(&format!("\"{name}\"")),
            "{name}: {}",
            stdout(&all)
        );
    }
    for cmd in [
        &["list", "--json"][..],
        &["check", "--format", "json"][..],
        &["budget", "--format", "json"][..],
    ] {
        let mut args = cmd.to_vec();
        args.push("--project-only");
        let out = run(&sub, &args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            !stdout(&out).contains("personal"),
            "{args:?}: {}",
            stdout(&out)
        );
        if cmd[0] != "check" {
            for name in ["shared", "team"] {
                assert!(
                    stdout(&out).contains(name),
                    "{args:?} {name}: {}",
                    stdout(&out)
                );
            }
        }
    }
    let none = run(&empty, &["list", "--project-only"]);
    assert!(
        stderr(&none).contains("--project-only: no agent's project skill folder"),
        "{}",
        stderr(&none)
    );
    assert!(
        !stdout(&none).contains("demo") && !stderr(&none).contains("demo"),
        "{}",
        stdout(&none)
    );
    let mixed = run(&sub, &["list", "--project-only", "."]);
    assert_eq!(mixed.status.code(), Some(2), "{}", stderr(&mixed));
}

/// Claude's own tokenizer is named only where Claude Code is the agent in view: the other
/// agents' models count as the encoding says.
#[test]
fn the_claude_tokenizer_note_is_only_in_claude_codes_view() {
    let home = tempfile::tempdir().unwrap();
    write(&home.path().join(".claude/skills/pdf-tools/SKILL.md"), PDF);
    write(&home.path().join(".codex/skills/pdf-tools/SKILL.md"), PDF);
    for (args, named) in [
        (&["list"][..], false),
        (&["list", "--agent", "claude-code"][..], true),
        (&["list", "--agent", "codex"][..], false),
    ] {
        let out = manage_run(args, home.path());
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains("token counts are o200k_base estimates"),
            "{args:?}: {text}"
        );
        assert_eq!(
            text.contains("Claude's tokenizer differs"),
            named,
            "{args:?}: {text}"
        );
    }
}
