//! Switching skills from the app: skillscope's own state is saved at once; a write-through to
//! the agents' settings shows the exact change and writes only after a yes.

use crate::tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::core::load::LibrarySpec;
use skillscope::core::state::EnableState;
use skillscope::tui::app::App;
use std::sync::mpsc;
use tui_common::{Harness, fixture, harness, write};

#[test]
fn space_saves_the_choice_in_the_state_file_at_once() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    let state_path = h.dir.path().join("config/state.json");
    assert!(!state_path.exists());
    h.key(KeyCode::Char('j')).key(KeyCode::Char(' '));
    let skill = h.app.selected().unwrap().clone();
    assert_eq!(skill.name, "pdf-tools");
    let (state, problems) = EnableState::load(&state_path);
    assert!(problems.is_empty(), "{problems:?}");
    assert!(!state.is_enabled(&skill), "not saved off");
    assert!(h.screen().contains("pdf-tools switched off"));
    // Back on: the stored entry goes (the default is on).
    h.key(KeyCode::Char(' '));
    let (state, _) = EnableState::load(&state_path);
    assert!(state.is_enabled(&skill));
    assert_eq!(state.len(), 0);
}

#[test]
fn a_corrupt_state_file_is_reported_and_left_alone_until_a_save() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("config/state.json"), "{ not json");
    let args = LibrarySpec::of_paths(vec![t.path().to_path_buf()]);
    let (tx, _rx) = mpsc::channel();
    let app = App::new(
        args.clone(),
        args.load(),
        tui_common::isolated(dir.path(), skillscope::tui::theme::Theme::plain(), false),
        tx,
    );
    let status = app.footer.status.clone().unwrap();
    assert!(
        status.error && status.text.contains("does not parse"),
        "{}",
        status.text
    );
    assert_eq!(app.enabled_count(), 4, "defaults hold");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("config/state.json")).unwrap(),
        "{ not json",
        "opening the app never moves or changes the user's file"
    );
}

#[test]
fn agent_write_through_shows_the_diff_and_writes_only_after_yes() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let skills = home.join(".claude/skills");
    write(
        &skills.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Read PDF files when the user mentions a PDF.\n---\n# PDF\n",
    );
    let settings = home.join(".claude/settings.json");
    write(&settings, "{\n  \"theme\": \"dark\"\n}\n");
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
    let list = h.screen();
    assert!(list.contains("agt"), "{list}");

    h.key(KeyCode::Char('a'));
    let popup = h.screen();
    assert!(
        popup.contains("Switch pdf off in the agents' user settings?"),
        "{popup}"
    );
    assert!(popup.contains("+  \"skillOverrides\""), "{popup}");
    assert_snapshot!(popup);
    // Nothing is written before the yes.
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"theme\": \"dark\"\n}\n"
    );

    h.key(KeyCode::Char('n'));
    assert!(h.app.overlay.is_none());
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"theme\": \"dark\"\n}\n"
    );

    h.key(KeyCode::Char('a')).key(KeyCode::Char('y'));
    let written = std::fs::read_to_string(&settings).unwrap();
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["skillOverrides"]["pdf"], "off", "{written}");
    assert_eq!(v["theme"], "dark", "{written}");
    let status = h.app.footer.status.clone().unwrap();
    assert!(
        !status.error && status.text.contains("pdf switched off for claude-code"),
        "{}",
        status.text
    );
    // The badges follow once the settings are read again.
    h.wait_until(|app| {
        let s = &app.lib.skills[0];
        app.switches
            .agents
            .as_ref()
            // Claude Code's, the one written: opencode is not installed here.
            .is_some_and(|sw| {
                sw.badges(s)
                    .iter()
                    .any(|b| b.agent == skillscope::core::Agent::ClaudeCode && !b.loads())
            })
    });
}
