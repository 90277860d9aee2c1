//! Skills whose names, descriptions, folder names and probe output hold terminal escape
//! sequences, C1 controls and bidi overrides: no output of the binary carries one raw, the XML
//! listing parses, and JSON keeps the exact strings.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Output;

/// OSC 0 (window title), BEL, ESC [2J (clear screen), OSC 52 (clipboard), C1 CSI, U+202E.
const OSC_TITLE: &str = "\x1b]0;pwned\x07";

fn executable(dir: &Path, name: &str, script: &str) {
    write(
        &dir.join(name).join("SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Hostile executable for the output tests. Use when testing probes.\ntype: executable\nentry: execute.sh\n---\nNever run with --run-json.\n"
        ),
    );
    let entry = dir.join(name).join("execute.sh");
    write(&entry, script);
    crate::common::set_mode(&entry, 0o755);
}

fn library(root: &Path) {
    // The folder name sets the window title; the name clears the screen; the description writes
    // the clipboard, holds a C1 CSI, a bidi override and a bell (all as YAML escapes).
    write(
        &root.join(format!("osc{OSC_TITLE}")).join("SKILL.md"),
        "---\nname: \"clear\\e[2Jscreen\"\ndescription: \"Reads \\e]52;c;cHduZWQ=\\a files\\x9b6n and \\u202Efdp.exe pages. Use when asked about files.\"\n---\n# Body \u{202e}\x1b[31m\n",
    );
    // A folder name that clears the screen and holds a C1 CSI.
    write(
        &root.join("cls\x1b[2J\u{9b}6n/SKILL.md"),
        "---\nname: cls\ndescription: Clears nothing. Use when testing folder names.\n---\nBody\n",
    );
    write(
        &root.join("rlo\u{202e}txt.exe/SKILL.md"),
        "---\nname: \"rlo\\u202Etxt.exe\"\ndescription: Reads text files and pages. Use when the user asks about text files.\n---\nBody\n",
    );
    // Probe output: stderr with every hazard, then a crash; stdout that is not JSON; a schema
    // whose name holds escape sequences.
    executable(
        root,
        "crasher",
        "#!/bin/sh\nprintf 'boom \\033]0;pwned\\007 \\033[2J \\302\\233 \\342\\200\\256 end\\n' >&2\nexit 3\n",
    );
    executable(
        root,
        "garbage",
        "#!/bin/sh\nprintf '\\033]52;c;cHduZWQ=\\007 not json \\302\\233\\n'\n",
    );
    executable(
        root,
        "mismatch",
        "#!/bin/sh\nprintf '{\"name\":\"evil\\\\u001b]0;t\\\\u0007\\\\u202e\",\"description\":\"d\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}\\n'\n",
    );
}

/// Fails on any character a terminal or XML consumer would act on; line breaks are layout.
fn assert_clean(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Some((i, c)) = text
        .char_indices()
        .find(|&(_, c)| c != '\n' && skillscope::core::words::text::is_hazard(c))
    {
        let from = text[..i].char_indices().rev().nth(60).map_or(0, |(j, _)| j);
        panic!(
            "{what}: raw U+{:04X} after {:?}",
            u32::from(c),
            &text[from..i]
        );
    }
}

fn check_both(what: &str, out: &Output) {
    assert_clean(&format!("{what} stdout"), &out.stdout);
    assert_clean(&format!("{what} stderr"), &out.stderr);
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn no_output_carries_a_raw_control_character() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    library(&root);
    let r = root.to_str().unwrap();
    let go = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push(r);
        let out = run(&all, home.path());
        check_both(&args.join(" "), &out);
        out
    };

    let check = go(&["check"]);
    let text = stdout(&check);
    for shown in [
        "osc\\u{1b}]0;pwned\\u{7}/SKILL.md",
        "clear\\u{1b}[2Jscreen",
        "rlo\\u{202e}txt.exe",
        "cls\\u{1b}[2J\\u{9b}6n/SKILL.md",
        "[control-character]",
    ] {
        assert!(text.contains(shown), "check: {shown} missing:\n{text}");
    }
    go(&["check", "--profile", "claude-code"]);

    let list = go(&["list"]);
    assert!(
        stdout(&list).contains("clear\\u{1b}[2Jscreen"),
        "{}",
        stdout(&list)
    );
    let budget = go(&["budget"]);
    assert!(
        stdout(&budget).contains("osc\\u{1b}]0;pwned\\u{7}"),
        "{}",
        stdout(&budget)
    );

    // Claude Code removes escape sequences and makes hidden characters spaces itself, and does
    // not offer a skill whose name holds one: its listing holds what it would send, nothing to
    // escape; --fates says why the hostile names are not in it.
    let claude = go(&["prompt", "--fates", "--format", "claude-code"]);
    let text = stdout(&claude);
    assert!(
        !text.contains("\\u{") && !text.contains("pwned") && text.contains("- cls: Clears"),
        "claude-code:\n{text}"
    );
    let fates = String::from_utf8_lossy(&claude.stderr);
    assert!(fates.contains("not offered by Claude Code"), "{fates}");
    for format in ["xml", "markdown", "codex"] {
        let out = go(&["prompt", "--fates", "--format", format]);
        let text = stdout(&out);
        assert!(
            text.contains("\\u{1b}]52;c;cHduZWQ=\\u{7}") && text.contains("\\u{202e}fdp.exe"),
            "{format}:\n{text}"
        );
        if format == "xml" {
            let doc = roxmltree::Document::parse(&text)
                .unwrap_or_else(|e| panic!("the XML listing does not parse: {e}\n{text}"));
            let names: Vec<_> = doc
                .descendants()
                .filter(|n| n.has_tag_name("name"))
                .filter_map(|n| n.text())
                .map(str::trim)
                .collect();
            assert!(names.contains(&"clear\\u{1b}[2Jscreen"), "{names:?}");
        }
    }

    let probe = go(&["probe", "--timeout", "5"]);
    let text = stdout(&probe);
    for shown in [
        "\\u{1b}]0;pwned\\u{7} \\u{1b}[2J \\u{9b} \\u{202e} end",
        "\\u{1b}]52;c;cHduZWQ=\\u{7}",
        "evil\\u{1b}]0;t\\u{7}\\u{202e}",
    ] {
        assert!(text.contains(shown), "probe: {shown} missing:\n{text}");
    }

    go(&["match", "clear the screen and read files"]);
}

#[test]
fn json_keeps_the_exact_strings_with_nothing_raw() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    library(&root);
    let r = root.to_str().unwrap();
    let go = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push(r);
        let out = run(&all, home.path());
        check_both(&args.join(" "), &out);
        json(&out)
    };
    let list = go(&["list", "--json"]);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(names.contains(&"clear\x1b[2Jscreen"), "{names:?}");
    assert!(names.contains(&"rlo\u{202e}txt.exe"), "{names:?}");
    let check = go(&["check", "--format", "json"]);
    assert!(
        check["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["path"].as_str().unwrap().contains(OSC_TITLE)),
        "{check:#}"
    );
    go(&["check", "--format", "sarif"]);
    let budget = go(&["budget", "--format", "json"]);
    assert!(budget["skills"].as_array().unwrap().iter().any(|s| {
        s["dir"]
            .as_str()
            .is_some_and(|d| d.ends_with(&format!("osc{OSC_TITLE}")))
    }));
    let probe = go(&["probe", "--json", "--timeout", "5"]);
    let crashed = probe["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["skill"] == "crasher")
        .unwrap();
    assert!(
        crashed["verdict"]["stderr_tail"]
            .as_str()
            .unwrap()
            .contains("\x1b]0;pwned\x07 \x1b[2J \u{9b} \u{202e} end"),
        "{crashed:#}"
    );
    go(&["match", "--json", "clear the screen and read files"]);
}

/// Runs the binary on a pseudo-terminal (stdout and stderr both a terminal, 200 columns) and
/// returns all it wrote there; fails after 60 s.
fn on_terminal(args: &[&str], home: &Path) -> Vec<u8> {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::Read;
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 50,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.args(args);
    cmd.cwd(home);
    cmd.env("NO_COLOR", "1");
    cmd.env("HOME", home);
    cmd.env("SKILLSCOPE_CONFIG_DIR", home.join("config"));
    cmd.env("SKILLSCOPE_CACHE_DIR", home.join("cache"));
    cmd.env("SKILLSCOPE_MANAGED_DIR", "/nonexistent/skillscope-managed");
    cmd.env_remove("SKILLSCOPE_CONFIG");
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let reading = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        // The read ends with an error once the child is gone and the terminal closed.
        while let Ok(n) = reader.read(&mut chunk) {
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        buf
    });
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > std::time::Duration::from_mins(1) {
            child.kill().ok();
            panic!("skillscope {args:?} still running on a terminal after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(pty.master);
    reading.join().unwrap()
}

/// A skill whose body and description hold every hazard, under a plain name that can be typed.
fn hostile_body(root: &Path) {
    write(
        &root.join("loud/SKILL.md"),
        "---\nname: loud\ndescription: \"Reads \\e]52;c;cHduZWQ=\\a mail\\x9b6n and \\u2066notes. Use when the user asks about mail.\"\n---\n# Loud \x1b]0;pwned\x07\n\nClear \x1b[2J the \u{9b}6n screen \u{85} and \u{202e}txt.exe, then \x07 ring.\n",
    );
}

/// Every command's output on a terminal, with a library whose names, descriptions, bodies,
/// folder names and probe output hold ESC, OSC 52, CSI, BEL, C1 controls and bidi overrides:
/// nothing of them reaches the terminal raw (a line feed, and the carriage return the terminal
/// puts before it, are layout).
#[test]
fn a_terminal_gets_no_raw_control_character_from_any_command() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    library(&root);
    hostile_body(&root);
    let r = root.to_str().unwrap();
    let commands: &[&[&str]] = &[
        &["list", r],
        &["list", "--agent", "claude-code", r],
        &["show", "loud", r],
        &["show", "clear\x1b[2Jscreen", r],
        &["check", r],
        &["budget", r],
        &["budget", "--agent", "codex", r],
        &["prompt", r],
        &["prompt", "--agent", "claude-code", "--fates", r],
        &["inject", "--agent", "claude-code", "loud", r],
        &["inject", "--agent", "gemini", "loud", r],
        &["inject", "--agent", "opencode", "loud", r],
        &["match", "read my mail", r],
        &["probe", "--timeout", "5", r],
    ];
    for args in commands {
        let out = on_terminal(args, home.path());
        let text = String::from_utf8_lossy(&out);
        if let Some((i, c)) = text.char_indices().find(|&(_, c)| {
            !matches!(c, '\n' | '\r') && skillscope::core::words::text::is_hazard(c)
        }) {
            let from = text[..i].char_indices().rev().nth(60).map_or(0, |(j, _)| j);
            panic!(
                "`skillscope {}` on a terminal: raw U+{:04X} after {:?}",
                args.join(" ").escape_debug(),
                u32::from(c),
                &text[from..i]
            );
        }
        assert!(!text.trim().is_empty(), "{args:?} said nothing");
    }
    // What the terminal shows of the body is its escaped form.
    let out = on_terminal(
        &["inject", "--agent", "claude-code", "loud", r],
        home.path(),
    );
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("Clear \\u{1b}[2J the \\u{9b}6n screen"),
        "{text}"
    );
}

/// Piped, `inject` writes exactly what the agent receives: the body's bytes as they are.
#[test]
fn piped_inject_keeps_the_bytes_the_agent_receives() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    hostile_body(&root);
    let out = run(
        &[
            "inject",
            "--agent",
            "claude-code",
            "loud",
            root.to_str().unwrap(),
        ],
        home.path(),
    );
    let text = stdout(&out);
    assert!(
        text.contains("Clear \x1b[2J the \u{9b}6n screen \u{85} and \u{202e}txt.exe"),
        "{text:?}"
    );
}

/// Fails when a terminal got a raw hazard from `args` (a line feed, and the carriage return the
/// terminal puts before it, are layout); returns what it got.
fn assert_terminal_clean(args: &[&str], home: &Path) -> String {
    let out = on_terminal(args, home);
    let text = String::from_utf8_lossy(&out).into_owned();
    if let Some((i, c)) = text
        .char_indices()
        .find(|&(_, c)| !matches!(c, '\n' | '\r') && skillscope::core::words::text::is_hazard(c))
    {
        let from = text[..i].char_indices().rev().nth(60).map_or(0, |(j, _)| j);
        panic!(
            "`skillscope {}` on a terminal: raw U+{:04X} after {:?}",
            args.join(" ").escape_debug(),
            u32::from(c),
            &text[from..i]
        );
    }
    assert!(!text.trim().is_empty(), "{args:?} said nothing");
    text
}

/// A folder source of skills for the managing commands: a description holding OSC 52, a C1
/// CSI, a bell and a bidi override; a script whose file name sets the window title; a folder
/// name that clears the screen (which `add` refuses, naming it); a frontmatter name with a bidi
/// override.
fn hostile_source(src: &Path) {
    write(
        &src.join("loud/SKILL.md"),
        "---\nname: loud\ndescription: \"Reads \\e]52;c;cHduZWQ=\\a mail\\x9b6n and \\u202Efdp.exe notes. Use when the user asks about mail.\"\n---\n# Loud\n\nRun scripts/setup.sh.\n",
    );
    let script = src.join(format!("loud/scripts/run{OSC_TITLE}\u{202e}.sh"));
    write(&script, "#!/bin/sh\necho hi\n");
    crate::common::set_mode(&script, 0o755);
    write(
        &src.join("cls\x1b[2J\u{9b}6n/SKILL.md"),
        "---\nname: cls\ndescription: Clears nothing. Use when testing folder names.\n---\nBody\n",
    );
    write(
        &src.join("quiet/SKILL.md"),
        "---\nname: \"quiet\\u202Etxt\"\ndescription: \"Quiet \\e[2J notes. Use when the user asks about quiet notes.\"\n---\nBody\n",
    );
}

/// Every command that manages skills, on a terminal, with a source whose names, descriptions,
/// folder names and script names hold ESC, OSC 52, CSI, BEL, C1 controls and bidi overrides:
/// `add` (its preview, its refusal of a folder name), `toggle`, `copy`, `move`, `update` (a
/// changed source with another hostile script), `remove`, `restore` and `new` (a hostile name
/// and description refused) print nothing of them raw.
#[test]
fn a_terminal_gets_no_raw_control_character_from_any_managing_command() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let src = h.join("src");
    hostile_source(&src);
    let s = src.to_str().unwrap();
    let steps: &[&[&str]] = &[
        &["add", s, "--dry-run"],
        &["add", s, "--yes", "--pick", "loud", "--pick", "quiet"],
        &["toggle", "--yes", "loud"],
        &[
            "toggle",
            "loud",
            "--off",
            "--agent",
            "claude-code",
            "--dry-run",
        ],
        &["toggle", "--yes", "loud", "--off", "--agent", "claude-code"],
        &["toggle", "--yes", "quiet\u{202e}txt", "--on"],
        &["toggle", "--yes", "clear\x1b[2Jscreen", "--on"],
        &["copy", "loud", "--to", "codex", "--yes"],
        &["move", "quiet", "--to", "opencode", "--yes"],
    ];
    for args in steps {
        assert_terminal_clean(args, h);
    }
    // The source changes: another hostile script and description.
    let script = src.join("loud/scripts/new\x1b[2J\u{9b}6n.sh");
    write(&script, "#!/bin/sh\necho new\n");
    crate::common::set_mode(&script, 0o755);
    write(
        &src.join("loud/SKILL.md"),
        "---\nname: loud\ndescription: \"Reads \\e]0;pwned\\a mail \\u2066now. Use when the user asks about mail.\"\n---\n# Loud\n",
    );
    let steps: &[&[&str]] = &[
        &["update", "--dry-run"],
        &["update", "--yes", "--force"],
        &["remove", "loud", "--agent", "claude-code", "--yes"],
        &["remove", "quiet", "--yes"],
        &["trash"],
        &["restore", "loud"],
        &["restore", "quiet"],
        &["remove", "clear\x1b[2Jscreen", "--yes"],
        &["restore", "\x1b]0;pwned\x07"],
        &["new", "evil\x1b]0;pwned\x07"],
        &[
            "new",
            "fresh-notes",
            "--description",
            "Writes \x1b]52;c;cHduZWQ=\x07 fresh \u{9b}6n notes \u{202e}. Use when the user asks for notes.",
        ],
    ];
    for args in steps {
        assert_terminal_clean(args, h);
    }
    // The commands did what they said: the update with its new script, the copy, the
    // restores; the skill with a hostile description was not written.
    assert!(
        h.join(".claude/skills/loud/scripts")
            .join("new\x1b[2J\u{9b}6n.sh")
            .is_file()
    );
    assert!(h.join(".codex/skills/loud/SKILL.md").is_file());
    assert!(h.join(".config/opencode/skill/quiet/SKILL.md").is_file());
    assert!(!h.join(".claude/skills/fresh-notes").exists());
}
