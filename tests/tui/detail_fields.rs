//! The detail's frontmatter shows values as they must be written (`'1.0'` keeps its quotes) and
//! tags a field unknown where the diagnostics do; a write-through to an agent's settings says
//! "backup kept" only when a file existed, and leaves no lock file in the agent's folder.

use crate::tui_common;

use ratatui::crossterm::event::KeyCode;
use skillscope::core::front::load::LibrarySpec;
use skillscope::tui::app::App;
use std::sync::mpsc;
use tui_common::{Harness, harness, write};

#[test]
fn a_quoted_version_keeps_its_quotes_and_unknown_fields_are_tagged_as_the_diagnostics_say() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Reads PDF files when the user mentions a PDF.\nversion: '1.0'\nlicense: MIT\n---\n# PDF\n",
    );
    let mut h = harness(&[t.path()], 90, 30);
    h.settle();
    h.key(KeyCode::Enter);
    let screen = h.screen();
    assert!(
        screen.contains("version: '1.0' (unknown to spec)"),
        "{screen}"
    );
    assert!(screen.contains("error unknown-field 4:1"), "{screen}");
    // A field the profile knows is not tagged.
    assert!(screen.contains("license: MIT "), "{screen}");
    assert!(!screen.contains("license: MIT (unknown"), "{screen}");
}

/// The app on a home whose Claude Code settings file exists (`existing`) or not, after `a`, `y`.
fn switch_off(existing: bool) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let skills = home.join(".claude/skills");
    write(
        &skills.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Read PDF files when the user mentions a PDF.\n---\n# PDF\n",
    );
    if existing {
        write(
            &home.join(".claude/settings.json"),
            "{\n  \"theme\": \"dark\"\n}\n",
        );
    }
    let args = LibrarySpec::of_paths(vec![skills.clone()]);
    let (tx, rx) = mpsc::channel();
    let app = App::new(
        args.clone(),
        args.load(),
        tui_common::isolated(dir.path(), skillscope::tui::theme::Theme::plain(), false),
        tx,
    );
    let mut h = Harness {
        app,
        rx,
        roots: vec![dir.path().to_path_buf()],
        dir: tempfile::tempdir().unwrap(),
    };
    h.app.resize(100, 30);
    h.settle();
    h.key(KeyCode::Char('a')).key(KeyCode::Char('y'));
    let status = h.app.footer.status.clone().unwrap();
    assert!(!status.error, "{}", status.text);
    (status.text, dir)
}

/// Every file under `dir` whose name ends in `.lock`.
fn locks_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".lock") {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn backup_kept_only_when_a_file_existed_and_no_lock_is_left_behind() {
    let (said, dir) = switch_off(true);
    // Claude Code's file existed: one backup. opencode also reads `.claude/skills`, but it is
    // not installed here: no opencode.json is made for it.
    assert!(
        said.contains("pdf switched off for claude-code (backup kept)"),
        "{said}"
    );
    assert!(!dir.path().join("home/.config/opencode").exists(), "{said}");
    assert!(
        dir.path()
            .join("home/.claude/settings.json.skillscope.bak")
            .exists()
    );
    assert_eq!(locks_under(dir.path()), Vec::<std::path::PathBuf>::new());

    let (said, dir) = switch_off(false);
    assert!(said.contains("pdf switched off for claude-code"), "{said}");
    assert!(
        !said.contains("backup"),
        "nothing existed to back up: {said}"
    );
    assert!(dir.path().join("home/.claude/settings.json").exists());
    assert_eq!(locks_under(dir.path()), Vec::<std::path::PathBuf>::new());
}
