//! Switching skills from the app: skillscope's own state is saved at once; a write-through to
//! the agents' settings shows the exact change and writes only after a yes.

use crate::tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::core::front::load::LibrarySpec;
use skillscope::core::front::state::EnableState;
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
    let skill = h.app.screens.skills.selected(&h.app.lib).unwrap().clone();
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
    assert_eq!(app.view().enabled_count(), 4, "defaults hold");
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

/// Claude Code (switches of its own) and Goose (none) side by side, under the app's home.
fn claude_and_goose() -> (tempfile::TempDir, Harness) {
    use skillscope::core::{Agent, Library, Root, Scope};
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let claude = home.join(".claude/skills");
    let goose = home.join(".config/goose/skills");
    write(
        &claude.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Read PDF files when the user mentions a PDF.\n---\n# PDF\n",
    );
    write(
        &goose.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Keep meeting notes when the user asks for them.\n---\n# Notes\n",
    );
    write(
        &home.join(".claude/settings.json"),
        "{\n  \"theme\": \"dark\"\n}\n",
    );
    let roots = vec![
        Root::new(&claude, Agent::ClaudeCode, Scope::User),
        Root::new(&goose, Agent::Goose, Scope::User),
    ];
    let lib = Library::load(roots, &skillscope::core::scan::ScanOptions::default());
    let args = LibrarySpec::of_paths(vec![claude, goose]);
    let (tx, rx) = mpsc::channel();
    let app = App::new(
        args,
        lib,
        tui_common::isolated(dir.path(), skillscope::tui::theme::Theme::plain(), false),
        tx,
    );
    let mut h = Harness {
        app,
        rx,
        roots: vec![dir.path().to_path_buf()],
        dir: tempfile::tempdir().unwrap(),
    };
    h.app.resize(120, 30);
    h.settle();
    (dir, h)
}

fn select(h: &mut Harness, name: &str) -> usize {
    h.key(KeyCode::Char('g'));
    for _ in 0..h.app.lib.len() {
        if h.app
            .screens
            .skills
            .selected(&h.app.lib)
            .is_some_and(|s| s.name == name)
        {
            break;
        }
        h.key(KeyCode::Char('j'));
    }
    let i = h.app.screens.skills.list.selected_skill().unwrap();
    assert_eq!(h.app.lib.skills[i].name, name);
    i
}

#[test]
fn space_switches_the_skill_for_the_agent_in_view_in_its_own_settings() {
    use skillscope::core::Agent;
    use skillscope::core::agents::view::Seen;
    let (dir, mut h) = claude_and_goose();
    let settings = dir.path().join("home/.claude/settings.json");
    let state_path = dir.path().join("config/state.json");
    // A library of the agents' folders opens on one agent's view, named in the header.
    assert_eq!(h.app.in_view.agent(), Some(Agent::ClaudeCode));
    assert!(h.screen().lines().next().unwrap().contains("Claude Code"));
    let pdf = select(&mut h, "pdf");
    let notes = h
        .app
        .lib
        .skills
        .iter()
        .position(|s| s.name == "notes")
        .unwrap();
    // Claude Code does not read Goose's folder: the row says so, and space switches nothing.
    assert_eq!(h.app.view().seen(notes), Seen::NotRead);
    // Space on Claude Code's view plans a change to Claude Code's settings only, shown first.
    h.key(KeyCode::Char(' '));
    let popup = h.screen();
    assert!(popup.contains("+  \"skillOverrides\""), "{popup}");
    match &h.app.overlay {
        Some(skillscope::tui::app::Overlay::Confirm(c)) => {
            let agents: Vec<Agent> = c.plans.iter().map(|(a, _)| *a).collect();
            assert_eq!(agents, vec![Agent::ClaudeCode]);
        }
        _ => panic!("no confirmation"),
    }
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"theme\": \"dark\"\n}\n",
        "nothing written before the yes"
    );
    h.key(KeyCode::Char('y'));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(v["skillOverrides"]["pdf"], "off");
    assert!(
        !state_path.exists(),
        "skillscope's own state is not touched"
    );
    // The settings are read again: every view of Claude Code shows it off, with the setting.
    h.wait_until(|app| matches!(app.view().seen(pdf), Seen::Off(_)));
    let Seen::Off(why) = h.app.view().seen(pdf) else {
        unreachable!()
    };
    assert!(
        why.contains("off in Claude Code") && why.contains("skillOverrides"),
        "{why}"
    );
    assert!(!h.app.switches.is_on(pdf));
    // Goose has no switches of its own: space there is skillscope's own, and says so.
    while h.app.in_view.agent() != Some(Agent::Goose) {
        h.key(KeyCode::Char('v'));
    }
    // Goose reads Claude Code's folder too, and Claude Code's switch is not Goose's: it lists
    // the skill Claude Code no longer does.
    assert_eq!(h.app.view().seen(pdf), Seen::On);
    select(&mut h, "notes");
    assert!(h.app.switches.is_on(notes));
    h.key(KeyCode::Char(' '));
    assert!(h.app.overlay.is_none());
    let status = h.app.footer.status.clone().unwrap();
    assert!(
        status
            .text
            .contains("notes switched off in skillscope's own switches"),
        "{}",
        status.text
    );
    assert!(!h.app.switches.is_on(notes));
    // Why skillscope's switch decides is the row's state.
    assert!(
        matches!(h.app.view().seen(notes), Seen::Off(ref why) if why.contains("Goose has none of its own")),
        "{:?}",
        h.app.view().seen(notes)
    );
    let (state, _) = EnableState::load(&state_path);
    assert!(!state.is_enabled(&h.app.lib.skills[notes]));
    // Claude Code's settings file is as the yes left it.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(v["skillOverrides"].as_object().unwrap().len(), 1);
}

#[test]
fn the_budget_screen_prices_the_agent_in_view_and_names_each_fate() {
    use skillscope::core::Agent;
    let (_dir, mut h) = claude_and_goose();
    h.key(KeyCode::Char('5'));
    h.wait_until(|app| app.screens.budget.budgets.is_some());
    h.settle();
    let claude = h.screen();
    assert!(claude.contains("Every turn · Claude Code"), "{claude}");
    // Claude Code's own listing: its 13 built-in entries beside the one skill it reads.
    assert!(claude.contains("1 of 1 listed"), "{claude}");
    assert!(
        claude.contains("entries: 1 full, 0 trimmed, 0 name only, 0 dropped"),
        "{claude}"
    );
    assert!(
        !claude.contains("notes "),
        "Goose's skill is not Claude Code's: {claude}"
    );
    // The top panel only: the other agents' listings hold the temporary folder's path.
    let top: Vec<&str> = claude.lines().take(6).collect();
    assert_snapshot!("budget_claude_code_view", top.join("\n"));
    h.key(KeyCode::Char('a'));
    while h.app.in_view.agent() != Some(Agent::Goose) {
        h.key(KeyCode::Char('a'));
    }
    h.wait_until(|app| app.screens.budget.settled(app.screen));
    h.settle();
    let goose = h.screen();
    assert!(goose.contains("Every turn · Goose"), "{goose}");
    assert!(goose.contains("Goose sets no budget"), "{goose}");
}

/// Lazy Skills in view: space writes `auto_load` into the skill's own SKILL.md (design 000),
/// after the diff and a yes.
#[test]
fn space_in_lazy_skills_view_writes_auto_load_in_the_skill_file() {
    use skillscope::core::agents::view::Seen;
    use skillscope::core::{Agent, Library, Root, Scope};
    let dir = tempfile::tempdir().unwrap();
    let lazy = dir.path().join("home/.config/cli-agent/skills");
    let md = lazy.join("csv/SKILL.md");
    write(
        &md,
        "---\nname: csv\ndescription: Sum the columns of a CSV file when asked.\n---\n# CSV\n",
    );
    let roots = vec![Root::new(&lazy, Agent::LazySkills, Scope::User)];
    let lib = Library::load(roots, &skillscope::core::scan::ScanOptions::default());
    let (tx, rx) = mpsc::channel();
    let app = App::new(
        LibrarySpec::of_paths(vec![lazy]),
        lib,
        tui_common::isolated(dir.path(), skillscope::tui::theme::Theme::plain(), false),
        tx,
    );
    let mut h = Harness {
        app,
        rx,
        roots: vec![dir.path().to_path_buf()],
        dir: tempfile::tempdir().unwrap(),
    };
    h.app.resize(120, 30);
    h.settle();
    while h.app.in_view.agent() != Some(Agent::LazySkills) {
        h.key(KeyCode::Char('v'));
    }
    let csv = select(&mut h, "csv");
    assert!(
        matches!(h.app.view().seen(csv), Seen::Off(_)),
        "not opted in"
    );
    h.key(KeyCode::Char(' '));
    let popup = h.screen();
    assert!(popup.contains("+auto_load: true"), "{popup}");
    h.key(KeyCode::Char('y'));
    assert_eq!(
        std::fs::read_to_string(&md).unwrap(),
        "---\nname: csv\ndescription: Sum the columns of a CSV file when asked.\nauto_load: true\n---\n# CSV\n"
    );
}
