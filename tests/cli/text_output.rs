//! Text reports as people read them: nothing cut when the output is a pipe or a file (cut with
//! `…` only on a terminal), columns aligned with long names, counts with thousands separators
//! and the right plural.

use crate::common;
use common::*;
use std::path::Path;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A 60-character name beside a short one.
const LONG: &str = "converts-quarterly-spreadsheets-into-annotated-bar-charts-xy";

fn library(home: &Path) -> String {
    let lib = home.join("lib");
    write(
        &lib.join(format!("{LONG}/SKILL.md")),
        &format!(
            "---\nname: {LONG}\ndescription: Converts quarterly spreadsheets into annotated bar charts. Use when the user shares a spreadsheet and asks for a chart.\n---\nBody\n"
        ),
    );
    write(
        &lib.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Extracts text and tables from PDF files. Use when the user gives a PDF and wants its content.\n---\nBody\n",
    );
    lib.to_str().unwrap().to_string()
}

/// The column at which `what` starts on the line holding `on`.
fn column_of(text: &str, on: &str, what: &str) -> usize {
    let line = text
        .lines()
        .find(|l| l.contains(on))
        .unwrap_or_else(|| panic!("no line with {on}:\n{text}"));
    line[line.find(on).unwrap() + on.len()..]
        .find(what)
        .map_or_else(
            || panic!("no {what} after {on}:\n{line}"),
            |i| {
                line[..line.find(on).unwrap() + on.len() + i]
                    .chars()
                    .count()
            },
        )
}

#[test]
fn a_pipe_gets_every_character_and_the_columns_line_up() {
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());

    let list = stdout(&run(&["list", &lib], home.path()));
    assert!(list.contains(LONG) && !list.contains('…'), "{list}");
    // The SOURCE column starts at the same place on every row, header included.
    let at = |row: &str| {
        let line = list.lines().find(|l| l.contains(row)).unwrap();
        let i = line
            .find("path/path")
            .or_else(|| line.find("SOURCE"))
            .unwrap();
        line[..i].chars().count()
    };
    assert_eq!(at(LONG), at(" pdf "), "{list}");
    assert_eq!(at("NAME"), at(" pdf "), "{list}");

    let budget = stdout(&run(&["budget", &lib], home.path()));
    assert!(
        budget.contains(&format!("{LONG} ")) && !budget.contains('…'),
        "{budget}"
    );
    assert!(
        budget.contains(&format!(" lib/{LONG}\n")),
        "the whole folder: {budget}"
    );
    assert_eq!(
        column_of(&budget, LONG, "/"),
        column_of(&budget, "  pdf ", "/"),
        "{budget}"
    );

    // match: the scores line up however long the names.
    let out = run(
        &[
            "match",
            "extract the text and tables of this pdf file, then convert the spreadsheet into charts",
            &lib,
            "--matcher",
            "bm25",
        ],
        home.path(),
    );
    let text = stdout(&out);
    assert!(text.contains(LONG) && !text.contains('…'), "{text}");
    let score_at = |name: &str| {
        let line = text
            .lines()
            .find(|l| l.contains(&format!(". {name} ")))
            .unwrap();
        let after = line.find(name).unwrap() + name.len();
        let i = after + line[after..].find(|c: char| c.is_ascii_digit()).unwrap();
        line[..i].chars().count()
    };
    assert_eq!(score_at(LONG), score_at("pdf"), "{text}");

    // prompt --fates writes its table to stderr: a pipe there gets it whole too.
    let out = run(&["prompt", "--fates", &lib], home.path());
    let fates = String::from_utf8_lossy(&out.stderr);
    assert!(fates.contains(LONG) && !fates.contains('…'), "{fates}");
}

#[test]
fn a_terminal_gets_long_names_cut_to_the_column() {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::Read;
    let home = tempfile::tempdir().unwrap();
    let lib = library(home.path());
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.args(["list", &lib]);
    cmd.cwd(home.path());
    cmd.env("NO_COLOR", "1");
    cmd.env("HOME", home.path());
    cmd.env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"));
    cmd.env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"));
    cmd.env_remove("SKILLSCOPE_CONFIG");
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let reading = std::thread::spawn(move || {
        let mut buf = Vec::new();
        // The read ends with an error once the child is gone and the pty closed.
        let mut chunk = [0u8; 4096];
        while let Ok(n) = reader.read(&mut chunk) {
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        buf
    });
    let status = child.wait().unwrap();
    drop(pty.master);
    let text = String::from_utf8_lossy(&reading.join().unwrap()).into_owned();
    assert!(status.success(), "{text}");
    assert!(
        text.contains(&format!("{}…", &LONG[..39])) && !text.contains(LONG),
        "cut to 40 columns on a terminal:\n{text}"
    );
}

#[test]
fn counts_have_separators_and_their_plural() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    // One skill, one error: a description of 1,500 characters; a body of thousands of tokens.
    let description = format!("Summarises {}.", "long reports ".repeat(114));
    assert!(description.chars().count() > 1_000);
    write(
        &lib.join("summary/SKILL.md"),
        &format!(
            "---\nname: summary\ndescription: {description}\n---\n{}",
            "Read the report, then list every finding with its page.\n".repeat(200)
        ),
    );
    let l = lib.to_str().unwrap();
    let check = stdout(&run(&["check", l], home.path()));
    assert!(
        check.contains(&format!(
            "the description is {} characters: cut it to 1,024 or fewer",
            thousands_of(description.chars().count())
        )),
        "{check}"
    );
    assert!(
        check.contains(
            "1 skill checked with the spec profile: 1 error, 0 warnings; 1 file with errors"
        ),
        "{check}"
    );
    let list = stdout(&run(&["list", l], home.path()));
    assert!(list.contains("1 skill, 1 enabled;"), "{list}");
    let l2 = list
        .lines()
        .find(|x| x.contains("summary"))
        .unwrap()
        .split_whitespace()
        .nth(4)
        .unwrap()
        .to_string();
    assert!(
        l2.contains(','),
        "L2 over a thousand with its separator: {list}"
    );
    let budget = stdout(&run(&["budget", l], home.path()));
    assert!(
        budget.contains("\n1 skill, 0 resources (0 binary, not counted)"),
        "{budget}"
    );
    let md = stdout(&run(&["check", "--format", "markdown", l], home.path()));
    assert!(
        md.contains("**1 skill: 1 error, 0 warnings**; 1 file with errors"),
        "{md}"
    );
}

fn thousands_of(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn color_is_auto_always_or_never_and_no_color_holds_under_auto() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(&lib.join("bad/SKILL.md"), "---\nname: Bad Name\n---\n");
    let l = lib.to_str().unwrap();
    // The test binary runs with NO_COLOR=1 and a pipe for stdout.
    let always = stdout(&run(&["check", l, "--color", "always"], home.path()));
    assert!(
        always.contains("\x1b[31merror\x1b[0m"),
        "an explicit flag wins: {always}"
    );
    let never = stdout(&run(&["check", l, "--color=never"], home.path()));
    assert!(!never.contains('\x1b'), "{never}");
    let auto = stdout(&run(&["check", l], home.path()));
    assert!(!auto.contains('\x1b'), "a pipe under auto: {auto}");
    // Without NO_COLOR, auto still colours only a terminal.
    let out = bin()
        .args(["check", l, "--color", "auto"])
        .env_remove("NO_COLOR")
        .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
    // A global flag: before the subcommand too.
    let before = stdout(&run(&["--color", "always", "check", l], home.path()));
    assert!(before.contains('\x1b'), "{before}");
    let bad = run(&["check", l, "--color", "sometimes"], home.path());
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn model_none_is_accepted_and_turns_off_the_configs_model() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Turns transcripts into meeting notes. Use when the user pastes a transcript.\n---\nBody\n",
    );
    let l = lib.to_str().unwrap();
    let config = home.path().join("skillscope.toml");
    std::fs::write(&config, "model = \"claude\"\n").unwrap();
    let with_config = |args: &[&str]| {
        bin()
            .args(args)
            .env("SKILLSCOPE_CONFIG", &config)
            .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
            .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
            .env("HOME", home.path())
            .output()
            .unwrap()
    };
    let estimated = with_config(&["budget", l]);
    assert!(
        stdout(&estimated).contains("(claude)"),
        "{}",
        stdout(&estimated)
    );
    let none = with_config(&["budget", l, "--model", "none"]);
    assert_eq!(
        none.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&none.stderr)
    );
    assert!(!stdout(&none).contains('≈'), "{}", stdout(&none));
    let v = json(&with_config(&[
        "budget", l, "--model", "none", "--format", "json",
    ]));
    assert!(v.get("model").is_none(), "{v}");
    // `model = "none"` in the file is no problem either.
    std::fs::write(&config, "model = \"none\"\n").unwrap();
    let out = with_config(&["budget", l]);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout(&out).contains('≈'));
}
