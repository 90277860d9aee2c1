//! The app's managing flows over TestBackend: the Add flow's preview (snapshot) and install,
//! removal to the trash with undo.

use crate::tui_common::{self, harness, write};
use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::tui::screens::add::Step;

fn previewing(app: &skillscope::tui::app::App) -> bool {
    matches!(adding(app).map(|f| &f.step), Some(Step::Preview(_)))
}

/// An app over the fixture library, and a source folder beside it holding the skill `alpha`.
fn with_source() -> (tempfile::TempDir, tui_common::Harness, std::path::PathBuf) {
    let lib = tempfile::tempdir().unwrap();
    tui_common::fixture(lib.path());
    let h = harness(&[lib.path()], 110, 32);
    let src = h.dir.path().join("src");
    write(
        &src.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Alpha things, used when the user asks for alpha.\n---\nBody.\n",
    );
    (lib, h, src)
}

#[test]
fn the_add_preview_lists_checkboxes_verdicts_and_the_budget_change() {
    let (_lib, mut h, src) = with_source();
    write(
        &src.join("beta/SKILL.md"),
        "---\nname: beta\ndescription: Beta things, used when the user asks for beta.\n---\nBody.\n",
    );
    write(&src.join("beta/scripts/run.sh"), "#!/bin/sh\n");
    write(&src.join("Bad Name/SKILL.md"), "---\nname: Bad Name\n---\n");
    h.key(KeyCode::Char('A'));
    assert!(h.screen().contains("claude-code user"), "{}", h.screen());
    h.key(KeyCode::Tab);
    assert!(h.screen().contains("codex user"), "{}", h.screen());
    // Round every agent skills can be added to, back to the first.
    for _ in 1..skillscope::core::manage::TARGET_AGENTS.len() {
        h.key(KeyCode::Tab);
    }
    assert!(h.screen().contains("claude-code user"), "{}", h.screen());
    h.chars(&src.display().to_string());
    h.key(KeyCode::Enter);
    h.wait_until(previewing);
    assert_snapshot!(h.screen());
    // Unchecking a skill changes the listing figures; Enter installs the rest.
    h.key(KeyCode::Char(' '));
    let shown = h.screen();
    assert!(shown.contains("[ ] alpha"), "{shown}");
    h.key(KeyCode::Enter);
    h.wait_until(|app| adding(app).is_none());
    let home = h.dir.path().join("home/.claude/skills");
    assert!(home.join("beta/SKILL.md").is_file());
    assert!(!home.join("alpha").exists());
    let status = h.app.footer.status.clone().unwrap();
    assert!(status.text.contains("added beta"), "{}", status.text);
}

#[test]
fn a_closed_flow_s_late_answers_never_land_in_a_newer_one() {
    let (_lib, mut h, src) = with_source();
    // Esc while fetching: the flow closes and its plan, when it comes, is dropped.
    h.key(KeyCode::Char('A'));
    h.chars(&src.display().to_string());
    h.key(KeyCode::Enter);
    h.key(KeyCode::Esc);
    assert!(adding(&h.app).is_none());
    h.key(KeyCode::Char('A'));
    h.pump(300);
    assert!(
        matches!(adding(&h.app).map(|f| &f.step), Some(Step::Source)),
        "the new flow still asks for its source"
    );
    // Esc while installing: the install goes on, says so, and a newer flow stays open.
    h.chars(&src.display().to_string());
    h.key(KeyCode::Enter);
    h.wait_until(previewing);
    h.key(KeyCode::Enter);
    h.key(KeyCode::Esc);
    let status = h.app.footer.status.clone().unwrap();
    assert!(status.text.contains("background"), "{}", status.text);
    h.key(KeyCode::Char('A'));
    h.wait_until(|app| {
        app.footer
            .status
            .as_ref()
            .is_some_and(|s| s.text.contains("added alpha"))
    });
    assert!(
        matches!(adding(&h.app).map(|f| &f.step), Some(Step::Source)),
        "the install's result left the newer flow open"
    );
    assert!(
        h.dir
            .path()
            .join("home/.claude/skills/alpha/SKILL.md")
            .is_file()
    );
}

#[test]
fn remove_asks_first_and_undo_puts_it_back() {
    let lib = tempfile::tempdir().unwrap();
    tui_common::fixture(lib.path());
    let mut h = harness(&[lib.path()], 100, 30);
    let selected = h
        .app
        .screens
        .skills
        .selected(&h.app.lib)
        .unwrap()
        .dir
        .clone();
    let name = h
        .app
        .screens
        .skills
        .selected(&h.app.lib)
        .unwrap()
        .name
        .clone();
    let body = std::fs::read(selected.join("SKILL.md")).unwrap();
    let settings = h.dir.path().join("home/.claude/settings.json");
    write(
        &settings,
        &format!("{{\"skillOverrides\": {{\"{name}\": \"off\"}}}}\n"),
    );
    h.key(KeyCode::Char('D'));
    let shown = h.screen();
    assert!(shown.contains("Remove "), "{shown}");
    assert!(
        shown.contains(&format!("skillOverrides.{name}")),
        "the settings that name it are reported: {shown}"
    );
    h.key(KeyCode::Char('n'));
    assert!(selected.exists(), "no is no");
    h.key(KeyCode::Char('D'));
    h.key(KeyCode::Char('y'));
    assert!(!selected.exists());
    assert_eq!(h.app.manage.trash.list().len(), 1);
    assert!(
        std::fs::read_to_string(&settings).unwrap().contains(&name),
        "settings are cleaned only with consent"
    );
    h.key(KeyCode::Char('u'));
    assert_eq!(std::fs::read(selected.join("SKILL.md")).unwrap(), body);
    assert!(h.app.manage.trash.list().is_empty());
}

/// The Add flow, when it is open.
fn adding(app: &skillscope::tui::app::App) -> Option<&skillscope::tui::screens::add::AddFlow> {
    match &app.overlay {
        Some(skillscope::tui::app::Overlay::Add(f)) => Some(f),
        _ => None,
    }
}
