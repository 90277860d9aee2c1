//! The app follows the file system: edits, new and deleted skills show up by themselves, and the
//! selection stays on the same skill folder.

use crate::tui_common;

use ratatui::crossterm::event::KeyCode;
use skillscope::tui::theme::Theme;
use tui_common::{fixture, harness_opts, write};

#[test]
fn edits_additions_and_deletions_show_up_and_the_selection_stays() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    fixture(&root);
    let mut h = harness_opts(&[&root], 120, 30, Theme::plain(), true);
    h.wait_until(|app| app.watching.is_on());
    // broken-yaml, pdf-tools, team-notes, weather: select team-notes.
    h.key(KeyCode::Char('j')).key(KeyCode::Char('j'));
    assert_eq!(
        h.app.screens.skills.selected(&h.app.lib).unwrap().name,
        "team-notes"
    );
    let team = h
        .app
        .screens
        .skills
        .selected(&h.app.lib)
        .unwrap()
        .dir
        .clone();
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
            && app.findings.checked
            && app.lib.find("aaa-new").is_some()
            && app.lib.find("weather").is_none()
            && app
                .lib
                .skills
                .iter()
                .any(|s| s.description() == "Edited while the app runs.")
    });
    assert_eq!(
        h.app
            .screens
            .skills
            .selected(&h.app.lib)
            .map(|s| s.dir.clone()),
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

/// L1 depends on the listing format: a count of the previous format that arrives after the
/// format changed (its worker finished last) is dropped, and the figures are the new format's.
#[test]
fn a_count_of_the_previous_format_arriving_last_is_dropped() {
    use skillscope::core::front::load::LevelCounts;
    use skillscope::core::listing::Format;
    use skillscope::tui::event::{Event, JobEvent};

    let dir = tempfile::tempdir().unwrap();
    fixture(dir.path());
    let mut h = tui_common::harness(&[dir.path()], 100, 30);
    let old = h.app.screens.prompt.listing_format();
    let n = h.app.lib.skills.len();
    // Two format changes in a row, on the Prompt screen: the first recount is stopped.
    h.key(KeyCode::Char('2'));
    h.key(KeyCode::Char('f')).key(KeyCode::Char('f'));
    let new = h.app.screens.prompt.listing_format();
    assert_ne!(old, new);
    h.settle();
    let fresh: Vec<Option<u32>> = (0..n).map(|i| h.app.view().costs_of(i).l1).collect();
    assert!(fresh.iter().any(Option::is_some), "{fresh:?}");

    // The old format's result, late, and one of a format that is not shown.
    let generation = h.app.generation;
    let bogus = LevelCounts::L1(vec![Some(999_999); n]);
    for format in [
        old,
        Format::ALL
            .into_iter()
            .find(|f| *f != old && *f != new)
            .unwrap(),
    ] {
        h.app.handle(Event::Job(JobEvent::Counted {
            generation,
            format,
            encoding: h.app.cache.encoding,
            counts: bogus.clone(),
        }));
    }
    let after: Vec<Option<u32>> = (0..n).map(|i| h.app.view().costs_of(i).l1).collect();
    assert_eq!(after, fresh);

    // The same result tagged with the format on screen is taken: the check is the tag.
    h.app.handle(Event::Job(JobEvent::Counted {
        generation,
        format: new,
        encoding: h.app.cache.encoding,
        counts: bogus,
    }));
    assert_eq!(h.app.view().costs_of(0).l1, Some(999_999));
}

/// An app started as the binary starts it, over `lib`, keeping its cache and state in `dir`;
/// handled until every worker is done.
fn started(lib: &std::path::Path, dir: &std::path::Path) -> tui_common::Harness {
    let args = skillscope::core::front::load::LibrarySpec::of_paths([lib.to_path_buf()]);
    let (tx, rx) = std::sync::mpsc::channel();
    let opts = tui_common::isolated(dir, Theme::plain(), false);
    let mut app = skillscope::tui::app::App::scanning(args, opts, tx);
    app.resize(120, 36);
    let mut h = tui_common::Harness {
        app,
        rx,
        roots: vec![lib.to_path_buf()],
        dir: tempfile::tempdir().unwrap(),
    };
    h.settle();
    h
}

#[test]
fn what_a_run_counted_is_kept_for_the_next_start() {
    let lib = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let first = started(lib.path(), dir.path());
    assert!(
        first.app.cache.get().encoded() > 0,
        "the first start counted nothing"
    );
    // The way out of the app: what the workers counted last (the prompt preview's listing, a
    // level finished just before quitting) is written too.
    first.app.on_exit();
    drop(first);
    let second = started(lib.path(), dir.path());
    assert_eq!(
        second.app.cache.get().encoded(),
        0,
        "the second start had to count again"
    );
}

/// In the terminal, what follows a new library's counts (the body rules, the links) waits for
/// the frame that shows them, and starts once it is drawn.
#[test]
fn what_follows_the_counts_waits_for_the_frame_that_shows_them() {
    let lib = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let mut h = tui_common::harness_scanning(&[lib.path()], 120, 36);
    h.app.requests.frame_before_workers = true;
    h.wait_until(|app| app.counting.done.iter().all(|d| *d));
    // Whatever else was already under way comes in; nothing that follows the counts started.
    h.pump(300);
    assert!(h.app.requests.after_counts);
    assert!(h.app.usage.links.is_none());
    assert!(!h.app.findings.checked);
    h.app.frame_drawn();
    assert!(!h.app.requests.after_counts);
    h.settle();
    assert!(h.app.usage.links.is_some());
    assert!(h.app.findings.checked);
}
