//! Skills whose names, descriptions, folder names and probe output hold terminal escape
//! sequences, C1 controls and bidi overrides: no output of the binary carries one raw, the XML
//! listing parses, and JSON keeps the exact strings.

mod common;
use common::*;
use std::os::unix::fs::PermissionsExt;
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
    std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o755)).unwrap();
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
        .find(|&(_, c)| c != '\n' && skillscope::core::text::is_hazard(c))
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

    for format in ["xml", "markdown", "claude-code", "codex"] {
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
