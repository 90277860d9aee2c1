//! Snapshot tests of every screen, drawn from fixture libraries on a TestBackend.

use crate::tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::style::{Color, Modifier};
use skillscope::tui::app::Embedding;
use skillscope::tui::theme::Theme;
use tui_common::{
    Harness, fixture, harness, harness_patient, harness_scanning, harness_with, write,
};

#[test]
fn skills_list_at_80x24() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let h = harness(&[t.path()], 80, 24);
    let screen = h.screen();
    for name in [
        "pdf-tools",
        "broken-yaml",
        "team-notes",
        "weather",
        "4/4 enabled",
    ] {
        assert!(screen.contains(name), "{name} missing:\n{screen}");
    }
    assert_snapshot!(screen);
}

#[test]
fn list_and_detail_side_by_side_at_120x36() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 120, 36);
    // Sorted by name: broken-yaml, pdf-tools, team-notes, weather.
    h.key(KeyCode::Char('j'));
    let screen = h.screen();
    assert!(screen.contains("references/guide.md"), "{screen}");
    assert!(
        screen.contains("lines 1–5 (frontmatter) folded"),
        "{screen}"
    );
    assert!(
        screen.contains("6 │ # PDF tools"),
        "body line numbers start after the frontmatter:\n{screen}"
    );
    assert_snapshot!(screen);
}

#[test]
fn detail_of_a_skill_with_bad_yaml_and_extra_fields() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 30);
    h.key(KeyCode::Enter);
    let bad = h.screen();
    assert!(bad.contains("Diagnostics (1, spec rules)"), "{bad}");
    assert!(bad.contains("yaml"), "{bad}");
    assert_snapshot!("detail_bad_yaml", bad);
    h.key(KeyCode::Esc)
        .key(KeyCode::Char('j'))
        .key(KeyCode::Char('j'))
        .key(KeyCode::Enter);
    let extra = h.screen();
    assert!(
        extra.contains("owner: platform-team (unknown to spec)"),
        "{extra}"
    );
    assert_snapshot!("detail_extra_fields", extra);
}

#[test]
fn fuzzy_filter_highlights_matched_characters() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    h.key(KeyCode::Char('/')).chars("ptl");
    let screen = h.screen();
    assert!(screen.contains("/ptl"), "{screen}");
    assert!(screen.contains("1 match"), "{screen}");
    assert!(
        screen.contains("pdf-tools") && !screen.contains("weather"),
        "{screen}"
    );
    assert_snapshot!(screen);
    // p, t and l of "pdf-tools" are underlined; the other letters are not.
    let term = h.terminal();
    let buf = term.backend().buffer();
    let row = (0..buf.area.height)
        .find(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, *y)].symbol())
                .collect::<String>()
                .contains("pdf-tools")
        })
        .unwrap();
    let x0 = (0..buf.area.width)
        .find(|x| {
            (0..9)
                .map(|i| buf[(x + i, row)].symbol())
                .collect::<String>()
                == "pdf-tools"
        })
        .unwrap();
    let underlined: String = (0..9)
        .filter(|i| buf[(x0 + i, row)].modifier.contains(Modifier::UNDERLINED))
        .map(|i| buf[(x0 + i, row)].symbol().to_string())
        .collect();
    assert_eq!(underlined, "ptl");
}

#[test]
fn help_overlay_lists_the_keymap() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 40);
    h.key(KeyCode::Char('?'));
    let screen = h.screen();
    for b in skillscope::tui::keymap::KEYMAP
        .iter()
        .filter(|b| b.context == skillscope::tui::keymap::Context::Global)
    {
        assert!(
            screen.contains(b.help),
            "help lacks {:?}:\n{screen}",
            b.help
        );
    }
    assert_snapshot!(screen);
    h.key(KeyCode::Esc);
    assert!(!h.screen().contains("Show every key"));
}

#[test]
fn other_screens() {
    let t = tempfile::tempdir().unwrap();
    // A fixed folder name: the budget groups by it.
    let root = t.path().join("library");
    fixture(&root);
    let mut h = harness(&[&root], 80, 24);
    // Neither the listing nor the matchers' index is made before its screen is shown.
    assert!(h.app.preview.shown.is_none() && h.app.matching.index.get().is_none());
    h.key(KeyCode::Tab);
    h.settle();
    let prompt = h.screen();
    let preview = h.app.preview.shown.as_ref().unwrap();
    let want = skillscope::core::tokens::count(
        skillscope::core::tokens::Encoding::O200kBase,
        &preview.listing.text,
    );
    assert_eq!(preview.tokens as usize, want);
    assert!(
        prompt.contains(&format!(" {want} tokens (o200k_base")),
        "{prompt}"
    );
    assert!(prompt.contains("- **pdf-tools**: Extract text"), "{prompt}");
    assert!(prompt.contains("dropped   broken-yaml"), "{prompt}");
    assert_snapshot!("prompt", prompt);
    h.key(KeyCode::Tab).chars("what's the weather in Paris?");
    h.settle();
    assert!(h.app.matching.index.get().is_some());
    let test = h.screen();
    assert!(test.contains("what's the weather in Paris?"), "{test}");
    let results = &h.app.screens.test.results;
    let names = |m: &str| -> Vec<String> {
        results
            .iter()
            .find(|(x, _)| x.as_str() == m)
            .map(|(_, ms)| {
                ms.iter()
                    .map(|x| h.app.lib.skills[x.skill].name.clone())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(names("triggers"), vec!["weather"], "{test}");
    assert_eq!(
        names("bm25").first().map(String::as_str),
        Some("weather"),
        "{test}"
    );
    assert!(
        test.contains("weather (triggers)"),
        "the matched word and where:\n{test}"
    );
    test_box_by_meaning(&mut h, &test);
    h.key(KeyCode::Tab);
    assert_snapshot!("checks", h.screen());
    h.key(KeyCode::Tab);
    h.settle();
    h.stable_agent_budgets();
    assert_snapshot!("budget", h.screen());
}

#[test]
fn shadowed_copy_is_dimmed_and_names_the_winner() {
    let t = tempfile::tempdir().unwrap();
    let a = t.path().join("a");
    let b = t.path().join("b");
    fixture(&a);
    write(
        &b.join("pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Older copy.\n---\n",
    );
    let mut h = harness_with(&[&a, &b], 120, 24, Theme { color: true });
    let screen = h.screen();
    assert!(screen.contains("pdf-tools < a"), "{screen}");
    assert_snapshot!(screen);
    // Select the shadowed copy (second pdf-tools row) and read its detail.
    h.key(KeyCode::Char('j')).key(KeyCode::Char('j'));
    let detail = h.screen();
    assert!(detail.contains("shadowed by [ROOT0]/pdf-tools"), "{detail}");
}

#[test]
fn empty_library() {
    let t = tempfile::tempdir().unwrap();
    let h = harness(&[t.path()], 80, 24);
    let screen = h.screen();
    assert!(screen.contains("No skills found."), "{screen}");
    assert!(screen.contains("0/0 enabled"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn missing_root_and_unreadable_skill() {
    let t = tempfile::tempdir().unwrap();
    let missing = t.path().join("nowhere");
    let h = harness(&[&missing], 80, 24);
    let screen = h.screen();
    assert!(screen.contains("root-missing"), "{screen}");
    assert_snapshot!("missing_root", screen);

    let lib = tempfile::tempdir().unwrap();
    write(&lib.path().join("empty/SKILL.md"), "");
    write(
        &lib.path().join("nulls/SKILL.md"),
        "---\nname: nu\0ll\n---\n",
    );
    let mut h = harness(&[lib.path()], 80, 24);
    h.key(KeyCode::Enter);
    let screen = h.screen();
    assert!(screen.contains("error"), "{screen}");
    assert_snapshot!("unparsable_skill", screen);
}

#[test]
fn huge_library_scrolls_to_the_end() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..5000 {
        write(
            &t.path().join(format!("s{i:04}/SKILL.md")),
            &format!("---\nname: skill-{i:04}\ndescription: Skill number {i}.\n---\n"),
        );
    }
    let mut h = harness(&[t.path()], 80, 24);
    assert!(h.screen().contains("5000/5000 enabled"));
    h.key(KeyCode::Char('G'));
    let end = h.screen();
    assert!(end.contains("skill-4999"), "{end}");
    assert!(!end.contains("skill-0000"), "{end}");
    assert_snapshot!("huge_end", end);
    h.key(KeyCode::PageUp);
    let page = h.screen();
    assert!(!page.contains("skill-4999"), "{page}");
    h.key_mod(KeyCode::Char('u'), KeyModifiers::CONTROL);
    assert!(h.app.screens.skills.list.selected() < 4999 - 2 * 15);
}

#[test]
fn no_color_uses_no_colours_and_marks_the_selection_by_reversing() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let h = harness_with(&[t.path()], 80, 24, Theme::plain());
    let term = h.terminal();
    let buf = term.backend().buffer();
    for c in buf.content() {
        assert!(
            c.fg == Color::Reset && c.bg == Color::Reset,
            "coloured cell {c:?}"
        );
    }
    assert!(
        buf.content()
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED))
    );
}

#[test]
fn toggling_changes_the_header_count_and_the_prompt_preview() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    h.key(KeyCode::Char('2'));
    h.settle();
    assert!(
        h.app
            .preview
            .shown
            .as_ref()
            .unwrap()
            .listing
            .text
            .contains("pdf-tools")
    );
    h.key(KeyCode::Char('1'));
    let l1_before = h.app.view().enabled_l1().0;
    h.key(KeyCode::Char('j')).key(KeyCode::Char(' '));
    let screen = h.screen();
    assert!(screen.contains("3/4 enabled"), "{screen}");
    assert!(screen.contains("○ pdf-tools"), "{screen}");
    let pdf = h.app.lib.find("pdf-tools").unwrap();
    assert_eq!(
        h.app.view().enabled_l1().0,
        l1_before - u64::from(h.app.costs[pdf].l1.unwrap())
    );
    // Rendered again for the Prompt screen, without the skill switched off.
    h.key(KeyCode::Char('2'));
    h.settle();
    let listing = &h.app.preview.shown.as_ref().unwrap().listing;
    assert!(!listing.text.contains("pdf-tools"), "{}", listing.text);
    assert_eq!(listing.entries.len(), 3);
}

#[test]
fn first_frame_comes_before_the_scan_and_the_list_follows() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness_scanning(&[t.path()], 80, 12);
    let first = h.screen();
    assert!(first.contains("Reading skills from [ROOT0]…"), "{first}");
    assert!(first.contains("scanning…"), "{first}");
    assert_snapshot!(first);
    // Keys work before the library is there.
    h.key(KeyCode::Char('j'))
        .key(KeyCode::Char(' '))
        .key(KeyCode::Char('?'));
    assert!(h.screen().contains("Show every key"));
    h.key(KeyCode::Esc);
    h.wait_until(|app| app.view().loaded() && app.findings.checked);
    let list = h.screen();
    assert!(
        list.contains("4/4 enabled") && list.contains("weather"),
        "{list}"
    );
}

// Probes run in the sandbox, which Unix systems have.
#[cfg(unix)]
#[test]
fn probes_run_only_when_asked_and_show_a_verdict_per_skill() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let clock = t.path().join("clock");
    write(
        &clock.join("SKILL.md"),
        "---\nname: clock\ndescription: Tell the time when the user asks what time it is.\ntype: executable\nentry: run.sh\n---\nRun it.\n",
    );
    write(
        &clock.join("run.sh"),
        "#!/bin/sh\necho '{\"name\":\"clock\",\"description\":\"Tell the time.\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}'\n",
    );
    std::fs::set_permissions(clock.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let broken = t.path().join("failing");
    write(
        &broken.join("SKILL.md"),
        "---\nname: failing\ndescription: Always fails when asked for its schema.\ntype: executable\nentry: run.sh\n---\n",
    );
    write(&broken.join("run.sh"), "#!/bin/sh\necho boom >&2\nexit 3\n");
    std::fs::set_permissions(
        broken.join("run.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();

    let mut h = harness(&[t.path()], 100, 30);
    h.key(KeyCode::Char('4'));
    let before = h.screen();
    assert!(
        before.contains("3 executable skills. Nothing runs until you press r."),
        "{before}"
    );
    assert!(before.contains("not run"), "{before}");
    assert!(h.app.screens.checks.reports.is_empty());

    h.key(KeyCode::Char('r'));
    assert!(h.app.screens.checks.running());
    assert!(h.screen().contains("probing 0/3"));
    h.wait_until(|app| !app.screens.checks.running());
    let after = h.screen();
    assert!(after.contains("3/3 probed, 2 failed"), "{after}");
    let line = |name: &str| {
        after
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or("")
            .to_string()
    };
    assert!(
        line("clock").contains("✓") && line("clock").contains(" ok "),
        "{after}"
    );
    assert!(
        line("failing").contains("✗") && line("failing").contains("crashed"),
        "{after}"
    );
    assert!(line("failing").contains("exit code 3"), "{after}");
    // The schema's tokens join the skill's L3, and the result is remembered for next time.
    let i = h.app.lib.find("clock").unwrap();
    let schema = h.app.screens.checks.reports[&h.app.lib.skills[i].dir]
        .schema_text
        .clone()
        .unwrap();
    let want =
        skillscope::core::tokens::count(skillscope::core::tokens::Encoding::O200kBase, &schema);
    assert_eq!(h.app.costs[i].schema, Some(want as u32));
    assert_eq!(
        h.app.costs[i].l3_with_schema(),
        Some(h.app.costs[i].l3.unwrap() + want as u32)
    );
    let store = std::fs::read_to_string(h.dir.path().join("cache/probes.json")).unwrap();
    assert!(
        store.contains("clock") && store.contains("\"ok\""),
        "{store}"
    );
}

#[test]
fn mouse_click_selects_a_row_and_the_wheel_scrolls() {
    use ratatui::crossterm::event::{Event as Input, MouseButton, MouseEvent, MouseEventKind};
    use skillscope::tui::event::Event;
    let t = tempfile::tempdir().unwrap();
    for i in 0..100 {
        write(
            &t.path().join(format!("s{i:03}/SKILL.md")),
            &format!("---\nname: s{i:03}\ndescription: Skill number {i}.\n---\n"),
        );
    }
    let mut h = harness(&[t.path()], 80, 24);
    let mouse = |kind, column, row| {
        Event::Input(Input::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }))
    };
    // Rows start below the header line, the block's top border and the column titles.
    h.app
        .handle(mouse(MouseEventKind::Down(MouseButton::Left), 10, 3 + 4));
    assert_eq!(
        h.app.screens.skills.selected(&h.app.lib).unwrap().name,
        "s004"
    );
    h.app.handle(mouse(MouseEventKind::ScrollDown, 10, 10));
    h.app.handle(mouse(MouseEventKind::ScrollDown, 10, 10));
    assert_eq!(h.app.screens.skills.list.offset(), 6);
    assert_eq!(
        h.app.screens.skills.selected(&h.app.lib).unwrap().name,
        "s007",
        "the selection stays on screen, a row in"
    );
    let screen = h.screen();
    assert!(
        !screen.contains("s005") && screen.contains("s006"),
        "{screen}"
    );
    // A click on a tab switches screens.
    let x = h.screen().lines().next().unwrap().find("5 Budget").unwrap() as u16;
    h.app
        .handle(mouse(MouseEventKind::Down(MouseButton::Left), x, 0));
    assert_eq!(h.app.screen, skillscope::tui::action::Screen::Budget);
}

#[test]
fn every_screen_draws_at_tiny_sizes_without_panicking() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    for (w, hgt) in [(1, 1), (10, 3), (20, 5), (40, 10), (79, 23), (200, 60)] {
        h.app.resize(w, hgt);
        for screen in ['1', '2', '3', '4', '5'] {
            if h.app.screen == skillscope::tui::action::Screen::Test {
                h.key(KeyCode::Tab);
            }
            h.key(KeyCode::Char(screen));
            let _ = h.screen();
        }
        h.key(KeyCode::Char('1')).key(KeyCode::Enter);
        let _ = h.screen();
        h.key(KeyCode::Esc).key(KeyCode::Char('?'));
        let _ = h.screen();
        h.key(KeyCode::Esc);
    }
}

#[test]
fn hostile_names_and_descriptions_are_shown_escaped() {
    let t = tempfile::tempdir().unwrap();
    // A folder name holding OSC 0 (set the title) and a frontmatter whose name and description
    // hold a bidi override, ESC sequences, C1 CSI and BEL (YAML escapes).
    write(
        &t.path().join("title\x1b]0;pwned\x07/SKILL.md"),
        "---\nname: \"evil\\u202Etxt.exe\"\ndescription: \"Reads \\e[2J files\\x9b and \\a rings. Use when asked about files.\"\n---\nBody \u{202e}here\x1b[31m.\n",
    );
    let mut h = harness(&[t.path()], 120, 50);
    let list = h.screen();
    assert!(list.contains("evil\\u{202e}txt.exe"), "{list}");
    h.key(KeyCode::Enter);
    let detail = h.screen();
    for shown in [
        "evil\\u{202e}txt.exe",
        "Reads \\u{1b}[2J files\\u{9b}",
        "\\u{7} rings.",
        "title\\u{1b}]0;pwned\\u{7}",
        "Body \\u{202e}here\\u{1b}[31m.",
        "control-character",
    ] {
        assert!(detail.contains(shown), "{shown} missing:\n{detail}");
    }
    let term = h.terminal();
    for c in term.backend().buffer().content() {
        assert!(
            !c.symbol()
                .chars()
                .any(skillscope::core::words::text::is_hazard),
            "raw hazard in cell {c:?}"
        );
    }
}

#[test]
fn huge_skills_show_whole_figures() {
    let t = tempfile::tempdir().unwrap();
    // About 150,000 tokens of body and 1.05 million in a reference file: neither fits a
    // six-character column with separators.
    write(
        &t.path().join("huge/SKILL.md"),
        &format!(
            "---\nname: huge\ndescription: A very large skill. Use when testing wide figures.\n---\n{}\n",
            " word".repeat(150_000)
        ),
    );
    write(
        &t.path().join("huge/references/big.md"),
        &" word".repeat(1_050_000),
    );
    let mut h = harness_patient(&[t.path()], 80, 24, 300);
    let c = &h.app.costs[0];
    let (l2, l3) = (u64::from(c.l2.unwrap()), u64::from(c.l3.unwrap()));
    assert!(l2 >= 150_000 && l3 >= 1_050_000, "{c:?}");
    let list = h.screen();
    let row = list.lines().find(|l| l.contains("huge")).unwrap();
    let figures: Vec<&str> = row.split_whitespace().collect();
    let k = skillscope::core::words::text::compact(l2, 6);
    let m = skillscope::core::words::text::compact(l3, 6);
    assert!(k.ends_with('k') && m.ends_with('M'), "{k} {m}");
    assert!(
        figures.contains(&k.as_str()) && figures.contains(&m.as_str()),
        "{k} and {m} expected in the row:\n{row}"
    );
    assert_snapshot!("huge_skill_list", list);
    h.key(KeyCode::Enter);
    let detail = h.screen();
    let exact = format!(
        "L2 {} · L3 {}",
        skillscope::core::words::text::thousands(l2),
        skillscope::core::words::text::thousands(l3)
    );
    assert!(detail.contains(&exact), "{exact} missing:\n{detail}");
    assert_snapshot!("huge_skill_detail", detail);
}

#[test]
fn test_box_warns_when_keyword_routing_faces_more_than_fifty_skills() {
    let t = tempfile::tempdir().unwrap();
    let library = |n: usize| {
        let root = t.path().join(format!("lib{n}"));
        for i in 0..n {
            write(
                &root.join(format!("s{i:02}/SKILL.md")),
                &format!("---\nname: skill-{i:02}\ndescription: Fill form number {i}.\n---\n"),
            );
        }
        root
    };
    let (fifty, many) = (library(50), library(51));
    let typed = |root: &std::path::Path| {
        let mut h = harness(&[root], 120, 30);
        h.key(KeyCode::Tab).key(KeyCode::Tab).chars("use skill-00");
        h.settle();
        h.screen()
    };
    let quiet = typed(&fifty);
    assert!(!quiet.contains("keyword matching"), "{quiet}");
    let warned = typed(&many);
    assert!(warned.contains("⚠ 51 skills: keyword"), "{warned}");
    // Wrapped to the column's width.
    assert!(
        warned.contains("degrades") && warned.contains("past ~50 (Lazy Skills design)"),
        "{warned}"
    );
    assert!(
        warned.contains("skill-00"),
        "the matches still show:\n{warned}"
    );
    // The screen holds the semantic and hybrid columns' answers: a build with them.
    if cfg!(feature = "semantic") {
        assert_snapshot!("test_box_keyword_crowded", warned);
    }
}

/// The Test box's semantic and hybrid columns in `other_screens`: they answer once the skills'
/// vectors are made, say how far that has come meanwhile, and wait for each new message.
#[cfg(feature = "semantic")]
fn test_box_by_meaning(h: &mut Harness, test: &str) {
    // The semantic columns answered once the skills' vectors were made in the background.
    assert_eq!(h.app.matching.embedding, Embedding::Done);
    assert_eq!(
        column(h, "semantic").first().map(String::as_str),
        Some("weather"),
        "{test}"
    );
    assert!(test.contains("┌ hybrid · "), "{test}");
    assert_snapshot!("test_box", test);
    // While the vectors are made, those columns say how far it has come; the others answer.
    h.app.matching.embedding = Embedding::Running {
        done: 1_200,
        total: 4_791,
    };
    let busy = h.screen();
    assert!(busy.contains("embedding skills… 1,200/4,791"), "{busy}");
    assert!(busy.contains("weather (triggers)"), "{busy}");
    assert!(
        busy.contains("┌ semantic ─"),
        "no count while embedding:\n{busy}"
    );
    assert!(busy.contains("┌ bm25 · "), "{busy}");
    h.app.matching.embedding = Embedding::Done;
    // Typed on: the lexical columns answer at once; the semantic ones wait for a worker to embed
    // the new message and claim nothing meanwhile, neither a count nor the old answer.
    h.key(KeyCode::Backspace);
    let pending = h.screen();
    assert!(
        pending.contains("what's the weather in Paris▏"),
        "{pending}"
    );
    assert!(pending.contains("┌ bm25 · 1"), "{pending}");
    assert!(
        pending.contains("┌ semantic ─") && pending.contains("┌ hybrid ─"),
        "no count while the message is embedded:\n{pending}"
    );
    assert_eq!(
        pending.matches("embedding the message…").count(),
        2,
        "{pending}"
    );
    assert!(!pending.contains("≈0.54"), "{pending}");
    assert_snapshot!("test_box_pending", pending);
    h.settle();
    let answered = h.screen();
    assert!(answered.contains("┌ semantic · 1"), "{answered}");
    assert!(!answered.contains("embedding the message"), "{answered}");
}

/// Built without the model, the Test box's semantic and hybrid columns say they are not built in,
/// and nothing waits for them.
#[cfg(not(feature = "semantic"))]
fn test_box_by_meaning(h: &mut Harness, test: &str) {
    assert!(
        matches!(h.app.matching.embedding, Embedding::Failed(_)),
        "{:?}",
        h.app.matching.embedding
    );
    assert!(column(h, "semantic").is_empty() && column(h, "hybrid").is_empty());
    for m in ["semantic", "hybrid"] {
        assert!(test.contains(&format!("┌ {m} ─")), "no count:\n{test}");
        assert!(test.contains(&format!("{m} is not built in:")), "{test}");
    }
    assert_eq!(
        test.matches("built without the semantic").count(),
        2,
        "{test}"
    );
    assert!(h.app.index_settled());
    assert_snapshot!("test_box_not_built_in", test);
}

/// The names a matcher's column of the Test box shows.
fn column(h: &Harness, matcher: &str) -> Vec<String> {
    h.app
        .screens
        .test
        .results
        .iter()
        .find(|(m, _)| m.as_str() == matcher)
        .map(|(_, ms)| {
            ms.iter()
                .map(|x| h.app.lib.skills[x.skill].name.clone())
                .collect()
        })
        .unwrap_or_default()
}
