//! The app's rules and the overlap rule's comparison by meaning: the app never embeds for the
//! rules, and once its Test box has made the skills' vectors, the rules run again with them.

use crate::tui_common;

use ratatui::crossterm::event::KeyCode;
use skillscope::core::rules::RuleId;
use skillscope::tui::app::App;
use tui_common::{harness, write};

#[test]
fn the_rules_compare_by_meaning_once_the_test_box_has_made_the_vectors() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    for (name, description) in [
        ("query-speedup", "Make slow SQL queries faster."),
        ("sql-tuning", "Speed up slow SQL queries."),
        (
            "pdf",
            "Extract text and tables from PDF files, fill forms, merge documents.",
        ),
    ] {
        write(
            &root.join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
        );
    }
    let mut h = harness(&[&root], 100, 30);
    let speedup = h.app.lib.find("query-speedup").unwrap();
    let by_meaning = move |app: &App| {
        app.findings.diags[speedup]
            .iter()
            .any(|d| d.rule == RuleId::Overlap && d.message.contains("`sql-tuning`"))
    };
    // Every rule has run, and no vector was made for them.
    assert!(h.app.findings.checked);
    assert!(!by_meaning(&h.app), "{:?}", h.app.findings.diags[speedup]);
    // The Test box embeds the skills for its semantic columns; the rules take the vectors.
    h.key(KeyCode::Char('3')).chars("my database is slow");
    h.wait_until(by_meaning);
    let d = h.app.findings.diags[speedup]
        .iter()
        .find(|d| d.rule == RuleId::Overlap)
        .unwrap();
    assert!(
        d.message
            .starts_with("the description means nearly the same as `sql-tuning` (similarity 0."),
        "{}",
        d.message
    );
}
