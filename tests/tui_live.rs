//! The app follows the file system: edits, new and deleted skills show up by themselves, and the
//! selection stays on the same skill folder.

mod tui_common;

use ratatui::crossterm::event::KeyCode;
use skillscope::tui::theme::Theme;
use tui_common::{fixture, harness_opts, write};

#[test]
fn edits_additions_and_deletions_show_up_and_the_selection_stays() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    fixture(&root);
    let mut h = harness_opts(&[&root], 120, 30, Theme::plain(), true);
    h.wait_until(|app| app.is_watching());
    // broken-yaml, pdf-tools, team-notes, weather: select team-notes.
    h.key(KeyCode::Char('j')).key(KeyCode::Char('j'));
    assert_eq!(h.app.selected().unwrap().name, "team-notes");
    let team = h.app.selected().unwrap().dir.clone();
    let generation = h.app.generation;

    write(
        &root.join("aaa-new/SKILL.md"),
        "---\nname: aaa-new\ndescription: A skill added while the app runs, sorted first.\n---\n",
    );
    std::fs::remove_dir_all(root.join("weather")).unwrap();
    write(
        &root.join("team-notes/SKILL.md"),
        "---\nname: team-notes\ndescription: Edited while the app runs.\n---\n# Notes\n",
    );

    h.wait_until(|app| {
        app.generation > generation
            && app.checked
            && app.lib.find("aaa-new").is_some()
            && app.lib.find("weather").is_none()
            && app
                .lib
                .skills
                .iter()
                .any(|s| s.description() == "Edited while the app runs.")
    });
    assert_eq!(
        h.app.selected().map(|s| s.dir.clone()),
        Some(team),
        "selection moved"
    );
    let screen = h.screen();
    assert!(
        screen.contains("aaa-new") && !screen.contains("weather"),
        "{screen}"
    );
    assert!(screen.contains("4/4 enabled"), "{screen}");
    assert!(
        screen.contains("Edited while the app runs."),
        "the detail shows the new text:\n{screen}"
    );
}
