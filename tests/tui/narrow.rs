//! The app at 80 columns: the header keeps the agent in view with its installed-version and
//! model notes, a message on the footer is shown whole, the Add box wraps its help; and the
//! `agt` column and the detail pane's Agents table with every agent's letter, at 80 and 120
//! columns.

use crate::tui_common::{self, Harness, write};
use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::core::Agent;
use std::path::Path;

/// A home whose project is laid out by `npx skills`: one skill in `.agents/skills`, linked from
/// `.claude/skills`, which nearly every agent reads; and one skill of Claude Code's own.
fn shared_home(t: &Path, w: u16, h: u16) -> Harness {
    let home = t.join("home");
    let proj = home.join("proj");
    std::fs::create_dir_all(proj.join(".git")).unwrap();
    write(
        &proj.join(".agents/skills/release-notes/SKILL.md"),
        "---\nname: release-notes\ndescription: Format release notes for the changelog from merged pull requests.\n---\n# Notes\n",
    );
    std::fs::create_dir_all(proj.join(".claude/skills")).unwrap();
    skillscope::core::files::fsx::symlink(
        std::path::Path::new("../../.agents/skills/release-notes"),
        &proj.join(".claude/skills/release-notes"),
        true,
    )
    .unwrap();
    write(
        &home.join(".claude/skills/rust-review/SKILL.md"),
        "---\nname: rust-review\ndescription: Review Rust pull requests for unsafe code.\n---\n# Review\n",
    );
    write(
        &home.join(".claude/settings.json"),
        r#"{"skillOverrides": {"rust-review": "name-only"}}"#,
    );
    let roots = skillscope::core::source::default_roots(Some(&home), &proj);
    tui_common::harness_of_home(roots, &home, w, h)
}

/// The screen with the temp folder's path left out.
fn screen(h: &Harness, t: &Path) -> String {
    h.screen().replace(&t.display().to_string(), "[tmp]")
}

/// The first line of the screen: the tabs, the agent in view and its notes.
fn header(h: &Harness) -> String {
    h.screen().lines().next().unwrap_or_default().to_string()
}

/// The last line of the screen: a message and the keys.
fn footer(h: &Harness) -> String {
    h.screen().lines().last().unwrap_or_default().to_string()
}

#[test]
fn the_header_keeps_the_installed_version_and_the_model_at_80_columns() {
    let t = tempfile::tempdir().unwrap();
    let mut h = shared_home(t.path(), 80, 24);
    h.key(KeyCode::Char('2'));
    h.settle();
    assert_eq!(h.app.in_view.agent(), Some(Agent::ClaudeCode));
    h.app.verify.installed = vec![(Agent::ClaudeCode, "2.1.400".into())];
    for screen in ['1', '2', '3', '4', '5'] {
        h.key(KeyCode::Char(screen));
        h.settle();
        let top = header(&h);
        assert!(
            top.contains("2.1.400") && top.contains("2.1.332") && top.contains("Claude Code"),
            "screen {screen}: {top}"
        );
        // Every tab is still there to click.
        for tab in ["Skills", "Prompt", "Test", "Checks", "Budget"] {
            assert!(top.contains(tab), "screen {screen}: {top}");
        }
        // The Test screen's box takes the digits until Esc leaves it.
        h.key(KeyCode::Esc);
    }
    // A model chosen with m is named beside the agent.
    h.app.verify.installed.clear();
    h.key(KeyCode::Char('5'));
    h.key(KeyCode::Char('m'));
    h.settle();
    let top = header(&h);
    let model = h.app.in_view.client_model().unwrap().id;
    assert!(top.contains(model), "{model}: {top}\n{}", h.screen());
    // A click on a tab at 80 columns lands on the tab drawn there.
    let x = u16::try_from(top.find("3 Test").unwrap()).unwrap();
    h.app.handle(skillscope::tui::event::Event::Input(
        ratatui::crossterm::event::Event::Mouse(ratatui::crossterm::event::MouseEvent {
            kind: ratatui::crossterm::event::MouseEventKind::Down(
                ratatui::crossterm::event::MouseButton::Left,
            ),
            column: x + 1,
            row: 0,
            modifiers: ratatui::crossterm::event::KeyModifiers::NONE,
        }),
    ));
    assert_eq!(h.app.screen, skillscope::tui::action::Screen::Test);
}

#[test]
fn messages_are_shown_whole_at_80_columns() {
    let t = tempfile::tempdir().unwrap();
    let mut h = shared_home(t.path(), 80, 24);
    // Cycling the agent in view says what space does there.
    for _ in 0..Agent::ALL.len() {
        h.key(KeyCode::Char('v'));
        h.settle();
        let status = h.app.footer.status.clone().unwrap();
        let line = footer(&h);
        assert!(
            line.contains(status.text.as_str()),
            "cut: {:?}\n{line}",
            status.text
        );
    }
    // Choosing a model says its window and budget.
    while h.app.in_view.agent() != Some(Agent::ClaudeCode) {
        h.key(KeyCode::Char('v'));
    }
    h.key(KeyCode::Char('5'));
    h.key(KeyCode::Char('m'));
    let status = h.app.footer.status.clone().unwrap();
    assert!(status.text.contains("token window"), "{}", status.text);
    let line = footer(&h);
    assert!(line.contains(status.text.as_str()), "cut:\n{line}");
    // The first key stays in sight beside a message.
    assert!(
        line.ends_with("a agent") || line.contains(" a agent"),
        "{line}"
    );
}

#[test]
fn the_add_box_wraps_its_help_at_80_columns() {
    let t = tempfile::tempdir().unwrap();
    let mut h = shared_home(t.path(), 80, 24);
    h.key(KeyCode::Char('A'));
    let s = screen(&h, t.path());
    // The box's text with its borders and line breaks taken out: each sentence of the help is
    // there whole.
    let text = s
        .lines()
        .map(|l| l.trim_matches('"').replace('│', " "))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for sentence in [
        "A git URL (https://…, git@host:path, file://…), a folder, or a .zip / .tar.gz archive.",
        "Tab: next agent, S-Tab: user or project. Nothing from the source runs.",
    ] {
        assert!(text.contains(sentence), "{sentence}:\n{s}");
    }
}

#[test]
fn the_agents_column_and_table_show_every_agents_letter_at_80_and_120_columns() {
    for (w, rows) in [(80u16, 24u16), (120, 36)] {
        let t = tempfile::tempdir().unwrap();
        let mut h = shared_home(t.path(), w, rows);
        // Sorted by name: release-notes, rust-review.
        let list = screen(&h, t.path());
        let row = list
            .lines()
            .find(|l| l.contains("release-notes") && l.contains("agents·"))
            .unwrap_or_else(|| panic!("{list}"));
        for letter in ['C', 'X', 'O', 'G', 'H', 'Q', 'W'] {
            assert!(row.contains(letter), "{letter} at {w}: {row}");
        }
        assert_snapshot!(format!("agt_column_{w}"), list);
        h.key(KeyCode::Enter);
        let detail = screen(&h, t.path());
        for agent in ["claude-code", "codex", "github-copilot", "qwen-code"] {
            assert!(
                detail.lines().any(|l| l.contains(&format!("  {agent} "))),
                "{agent} at {w}:\n{detail}"
            );
        }
        assert_snapshot!(format!("agents_table_{w}"), detail);
    }
}
