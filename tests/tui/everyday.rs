//! The app as people who live in terminals expect it: a help overlay that fits the terminal and
//! scrolls with every scroll key, footer messages that expire and leave the keys in sight, the
//! Test box's text, the reverse sort, and `e` at the diagnostic selected in the detail.

use crate::tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::{Event as Input, KeyCode, MouseEvent, MouseEventKind};
use skillscope::core::Agent;
use skillscope::core::agents::budget::AgentBudget;
use skillscope::tui::action::Screen;
use skillscope::tui::event::Event;
use tui_common::{fixture, harness};

/// The lines of the screen between the help overlay's top and bottom borders.
fn overlay_rows(screen: &str) -> Vec<String> {
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let Some((top, col)) = lines.iter().enumerate().find_map(|(i, l)| {
        let s: String = l.iter().collect();
        let at = s.find("┌ Keys")?;
        Some((i, s[..at].chars().count()))
    }) else {
        return Vec::new();
    };
    let end = col
        + lines[top][col..]
            .iter()
            .position(|c| *c == '┐')
            .unwrap_or(0);
    lines[top + 1..]
        .iter()
        .take_while(|l| l.get(col) != Some(&'└'))
        .map(|l| l[col + 1..end.min(l.len())].iter().collect())
        .collect()
}

#[test]
fn help_is_as_wide_as_its_text_allows_and_never_cuts_a_description() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    for (w, h) in [(80, 24), (160, 48)] {
        let mut hs = harness(&[t.path()], w, h);
        hs.key(KeyCode::Char('?'));
        let screen = hs.screen();
        let top: Vec<char> = screen
            .lines()
            .find(|l| l.contains("┌ Keys"))
            .unwrap()
            .chars()
            .collect();
        let from = top.windows(2).position(|w| w == ['┌', ' ']).unwrap();
        let from = if top[from + 2] == 'K' { from } else { from + 2 };
        let to = from + top[from..].iter().position(|c| *c == '┐').unwrap();
        let width = to - from + 1;
        if w == 160 {
            // Wider than the old fixed 84 columns: every description fits on its line.
            assert!(width > 84 && width <= 156, "{width}\n{screen}");
        } else {
            assert_eq!(width, 76, "{screen}");
        }
        // Every description of every key appears whole (wrapped, not cut), scrolling through.
        let mut rows = std::collections::BTreeMap::new();
        loop {
            let at = help_scroll(&hs.app);
            for (i, r) in overlay_rows(&hs.screen()).into_iter().enumerate() {
                rows.insert(usize::from(at) + i, r.trim().to_string());
            }
            hs.key(KeyCode::PageDown);
            if help_scroll(&hs.app) == at {
                break;
            }
        }
        let seen = rows.values().cloned().collect::<Vec<_>>().join(" ");
        let seen = seen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            seen.matches('…').count(),
            1,
            "only the legend's `…`:\n{seen}"
        );
        // The overlay's own keys are on its border, the others listed.
        for b in skillscope::tui::keymap::KEYMAP
            .iter()
            .filter(|b| b.context != skillscope::tui::keymap::Context::Help)
        {
            assert!(seen.contains(b.help), "{w}x{h}: {:?} missing", b.help);
        }
        hs.key(KeyCode::Home);
        assert_eq!(help_scroll(&hs.app), 0);
        assert_snapshot!(format!("help_{w}x{h}"), screen);
    }
}

#[test]
fn help_scrolls_with_every_scroll_key_and_the_wheel() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    h.key(KeyCode::Char('?'));
    let scroll = |h: &tui_common::Harness| help_scroll(&h.app);
    h.key(KeyCode::Char('G'));
    let bottom = scroll(&h);
    assert!(bottom > 20, "{bottom}");
    assert!(h.screen().contains("Config file:") || h.screen().contains("e opens $VISUAL"));
    h.key(KeyCode::Char('g'));
    assert_eq!(scroll(&h), 0);
    h.key(KeyCode::End);
    assert_eq!(scroll(&h), bottom);
    h.key(KeyCode::Home);
    h.key(KeyCode::PageDown);
    let page = scroll(&h);
    assert!(page >= 15, "a page is the box's height: {page}");
    h.key(KeyCode::Down).key(KeyCode::Char('j'));
    assert_eq!(scroll(&h), page + 2);
    h.key(KeyCode::Up).key(KeyCode::Char('k'));
    assert_eq!(scroll(&h), page);
    h.key(KeyCode::PageUp);
    assert_eq!(scroll(&h), 0);
    let wheel = |h: &mut tui_common::Harness, kind| {
        h.app.handle(Event::Input(Input::Mouse(MouseEvent {
            kind,
            column: 40,
            row: 10,
            modifiers: ratatui::crossterm::event::KeyModifiers::NONE,
        })));
    };
    wheel(&mut h, MouseEventKind::ScrollDown);
    assert_eq!(scroll(&h), 3);
    wheel(&mut h, MouseEventKind::ScrollUp);
    assert_eq!(scroll(&h), 0);
    // The overlay keeps the keys: the list under it did not move.
    assert_eq!(h.app.screens.skills.list.selected(), 0);
}

#[test]
fn footer_messages_expire_and_leave_the_keys_in_sight() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    h.key(KeyCode::Char('5'));
    h.key(KeyCode::Char('m'));
    let footer = |h: &tui_common::Harness| h.screen().lines().last().unwrap().to_string();
    let with = footer(&h);
    assert!(with.contains("model claude"), "{with}");
    // The message is shown whole at 80 columns; the first keys stay beside it.
    let said = h.app.footer.status.clone().unwrap().text;
    assert!(with.contains(said.as_str()), "{said}: {with}");
    assert!(
        with.contains("a agent") && with.contains("m model"),
        "{with}"
    );
    // About four seconds of ticks later it is gone.
    for _ in 0..skillscope::tui::app::STATUS_TICKS {
        h.app.handle(Event::Tick);
    }
    assert!(h.app.footer.status.is_none());
    assert!(!footer(&h).contains("model claude"));
    // A screen change ends a message at once; the help keeps it whole.
    h.key(KeyCode::Char('m'));
    assert!(h.app.footer.status.is_some());
    h.key(KeyCode::Char('1'));
    assert!(h.app.footer.status.is_none(), "{}", footer(&h));
    h.key(KeyCode::Char('?')).key(KeyCode::End);
    let help = h.screen();
    assert!(help.contains("Messages, latest first"), "{help}");
    assert!(help.contains("model gemini"), "{help}");
}

#[test]
fn digits_and_q_are_text_in_the_test_box_until_esc_leaves_it() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    h.key(KeyCode::Char('3')).chars("q1 weather 2");
    assert_eq!(h.app.screens.test.message, "q1 weather 2");
    assert_eq!(h.app.screen, Screen::Test);
    assert!(!h.app.requests.quit);
    h.key(KeyCode::Esc);
    assert_eq!(
        h.app.screens.test.message, "q1 weather 2",
        "Esc keeps the message"
    );
    assert!(h.screen().contains("Enter to type again"));
    h.key(KeyCode::Char('x'));
    assert_eq!(
        h.app.screens.test.message, "",
        "x erases it outside the box"
    );
    h.key(KeyCode::Enter).chars("pdf");
    assert_eq!(h.app.screens.test.message, "pdf");
    h.key(KeyCode::Esc).key(KeyCode::Char('1'));
    assert_eq!(h.app.screen, Screen::Skills);
    h.key(KeyCode::Char('3'))
        .key(KeyCode::Esc)
        .key(KeyCode::Char('q'));
    assert!(h.app.requests.quit);
}

#[test]
fn s_cycles_the_sort_and_capital_s_reverses_it() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 80, 24);
    let names = |h: &tui_common::Harness| -> Vec<String> {
        h.app
            .screens
            .skills
            .list
            .rows
            .iter()
            .map(|r| h.app.lib.skills[r.skill].name.clone())
            .collect()
    };
    let by_name = names(&h);
    assert_eq!(
        by_name,
        ["broken-yaml", "pdf-tools", "team-notes", "weather"]
    );
    h.key(KeyCode::Char('S'));
    let mut rev = by_name.clone();
    rev.reverse();
    assert_eq!(names(&h), rev);
    assert!(h.screen().contains("sort: name reversed"));
    h.key(KeyCode::Char('s'));
    let cost_rev = names(&h);
    h.key(KeyCode::Char('S'));
    let mut cost = names(&h);
    cost.reverse();
    assert_eq!(cost, cost_rev, "reversed cost: cheapest first");
}

#[test]
fn e_opens_at_the_line_of_the_diagnostic_selected_in_the_detail() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut h = harness(&[t.path()], 120, 40);
    // weather: several diagnostics.
    h.key(KeyCode::Char('G'));
    let i = h.app.screens.skills.list.selected_skill().unwrap();
    let diags = h.app.view().diagnostics(i).to_vec();
    assert!(diags.len() >= 2, "{diags:?}");
    h.key(KeyCode::Char('e'));
    let first = h.app.requests.edit.take().unwrap();
    assert_eq!(first.file, h.app.lib.skills[i].skill_md);
    assert_eq!(first.line, diags.iter().find_map(|d| d.line));
    h.key(KeyCode::Enter)
        .key(KeyCode::Char('n'))
        .key(KeyCode::Char('n'));
    assert_eq!(h.app.screens.skills.diag_cursor, Some(1));
    h.key(KeyCode::Char('e'));
    let second = h.app.requests.edit.take().unwrap();
    assert_eq!(second.line, diags[1].line);
    h.key(KeyCode::Char('N')).key(KeyCode::Char('N'));
    assert_eq!(h.app.screens.skills.diag_cursor, Some(0));
    // Nothing to edit on the Budget screen: a word, no editor.
    h.key(KeyCode::Esc)
        .key(KeyCode::Char('5'))
        .key(KeyCode::Char('e'));
    assert!(h.app.requests.edit.take().is_none());
}

/// The cells of the bar on the screen line holding `label`: filled (`█▏▎▍▌▋▊▉`) and all.
fn bar_cells(screen: &str, label: &str) -> (usize, usize) {
    let line = screen.lines().find(|l| l.contains(label)).unwrap();
    let filled = line.chars().filter(|c| "█▏▎▍▌▋▊▉".contains(*c)).count();
    let track = line.chars().filter(|c| *c == '░').count();
    (filled, filled + track)
}

#[test]
fn budget_screen_at_80x24_and_160x48() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    for (w, h) in [(80, 24), (160, 48)] {
        let mut hs = harness(&[&root], w, h);
        hs.key(KeyCode::Char('5'));
        hs.settle();
        let live = hs.stable_agent_budgets();
        let stable = hs.app.screens.budget.budgets.clone().unwrap();
        // Listings without paths are the same wherever the library is.
        for agent in [Agent::ClaudeCode, Agent::LazySkills] {
            let get = |v: &[AgentBudget]| v.iter().find(|b| b.agent == agent).cloned();
            assert_eq!(get(&live), get(&stable), "{agent:?}");
        }
        let screen = hs.screen();
        for want in [
            "Every turn · L1",
            "of the window",
            "of the budget",
            "L2 every body",
            "L3 every file",
            "Each agent every turn",
            "claude-code",
            "lazy-skills",
            "Biggest when used",
        ] {
            assert!(screen.contains(want), "{w}x{h}: {want} missing\n{screen}");
        }
        assert_snapshot!(format!("budget_{w}x{h}"), screen);
    }
}

#[test]
fn budget_bars_keep_their_length_and_scale() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    let mut h = harness(&[&root], 80, 24);
    h.key(KeyCode::Char('5'));
    h.settle();
    let before = h.screen();
    let s = h.app.view().summary();
    // L2 and L3 on their own scale: the larger fills its bar, the other in proportion.
    let (l2, len) = bar_cells(&before, "L2 every body");
    let (l3, len3) = bar_cells(&before, "L3 every file");
    assert_eq!(len, len3, "{before}");
    assert_eq!(l2, len, "L2 is the larger: {before}");
    let want = (s.l3.tokens as f64 / s.l2.tokens as f64 * len as f64).ceil() as usize;
    assert!(
        l3 == want || l3 + 1 == want,
        "{l3} of {len}, want {want}\n{before}"
    );
    // A model's estimate lengthens the figures; the bars stay as they were.
    h.key(KeyCode::Char('m'));
    let after = h.screen();
    assert!(after.contains("(claude)"), "{after}");
    for label in ["L2 every body", "L3 every file", "of the window"] {
        assert_eq!(
            bar_cells(&before, label),
            bar_cells(&after, label),
            "{label}\n{before}\n{after}"
        );
    }
    // A smaller window makes the same L1 a bigger share of it.
    let (w1, _) = bar_cells(&after, "of the window");
    for _ in 0..3 {
        h.key(KeyCode::Char('w'));
    }
    h.settle();
    assert_eq!(h.app.screens.prompt.window(), 32_000);
    let (w2, _) = bar_cells(&h.screen(), "of the window");
    assert!(w2 >= w1, "{w1} → {w2}");
    // A format with a budget: L1 against 1% of the 32,000-token window.
    h.key(KeyCode::Char('2'));
    while h.app.screens.prompt.listing_format() != skillscope::core::listing::Format::ClaudeCode {
        h.key(KeyCode::Char('f'));
    }
    h.key(KeyCode::Char('5'));
    h.settle();
    let screen = h.screen();
    let l1 = h.app.view().summary().l1.tokens;
    let line = screen
        .lines()
        .find(|l| l.contains("of the budget"))
        .unwrap();
    let pct = (l1 as f64 / 320.0 * 100.0).round();
    assert!(line.contains(&format!("{pct:.0}% of 320")), "{l1}: {line}");
    let (filled, len) = bar_cells(&screen, "of the budget");
    let want = (l1 as f64 / 320.0 * len as f64).ceil() as usize;
    assert!(
        filled == want || filled + 1 == want,
        "{filled}/{len} want {want}\n{screen}"
    );
}

#[test]
fn names_keep_their_room_at_60_columns_and_descriptions_show_when_there_is_room() {
    let t = tempfile::tempdir().unwrap();
    let name = "spreadsheet-formula-auditing-helper";
    tui_common::write(
        &t.path().join(format!("{name}/SKILL.md")),
        &format!(
            "---\nname: {name}\ndescription: Audit spreadsheet formulas for broken references. Use when a workbook's totals look wrong.\n---\nBody.\n"
        ),
    );
    let h = harness(&[t.path()], 60, 20);
    let screen = h.screen();
    let row = screen.lines().find(|l| l.contains("spreadsheet")).unwrap();
    let shown: String = row
        .split('●')
        .nth(1)
        .unwrap()
        .trim_start()
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    assert!(
        shown.trim_end_matches('…').chars().count() > 10,
        "the name keeps more than 10 characters: {row}"
    );
    assert!(
        !screen.contains("description"),
        "no room for one:\n{screen}"
    );
    // Wider: the name whole, its description beside it.
    let h = harness(&[t.path()], 110, 30);
    let screen = h.screen();
    let row = screen
        .lines()
        .find(|l| l.contains(name) && l.contains('●'))
        .unwrap();
    assert!(row.contains("Audit spreadsheet formulas"), "{row}");
    assert!(screen.contains("description"), "{screen}");
}

#[test]
fn long_lines_wrap_in_the_prompt_preview_and_the_detail_body() {
    let t = tempfile::tempdir().unwrap();
    let long = "word ".repeat(40);
    let longer = "word ".repeat(200);
    tui_common::write(
        &t.path().join("wide/SKILL.md"),
        &format!(
            "---\nname: wide\ndescription: {longer}Use when testing width.\n---\nFirst {long}end-of-body.\n"
        ),
    );
    let mut h = harness(&[t.path()], 80, 30);
    h.key(KeyCode::Enter).key(KeyCode::End);
    let detail = h.screen();
    assert!(
        detail.contains("end-of-body."),
        "the body's end wraps into view:\n{detail}"
    );
    assert!(!detail.contains('…'), "{detail}");
    // `t` once: the full tier by name, whose entry is the whole description (the auto tier's
    // full entry cuts it at 250 characters, design 003).
    h.key(KeyCode::Esc)
        .key(KeyCode::Char('2'))
        .key(KeyCode::Char('t'));
    h.settle();
    // Scrolling goes by screen rows, to the last one and no further.
    h.key(KeyCode::Char('G'));
    let prompt = h.screen();
    assert!(prompt.contains("Use when testing width."), "{prompt}");
    let end = h.app.screens.prompt.scroll;
    h.key(KeyCode::Char('j'));
    assert_eq!(h.app.screens.prompt.scroll, end);
    assert!(end > 0, "the wrapped listing is longer than its box");
}

/// How far the open help overlay is scrolled.
fn help_scroll(app: &skillscope::tui::app::App) -> u16 {
    match &app.overlay {
        Some(skillscope::tui::app::Overlay::Help(h)) => h.scroll,
        _ => panic!("the help overlay is not open"),
    }
}

/// The app judges a body's length by its tokens as `check` does: a body under 500 lines but
/// over 5,000 tokens gets `body-too-long` in both, and both find the same rules on the skill.
#[test]
fn the_apps_body_check_counts_tokens_as_check_does() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    let line = "Read the quarterly ledger, reconcile every account against the bank statement, and flag any difference above ten dollars.\n";
    let body = line.repeat(300);
    assert!(
        body.lines().count() < 500,
        "short in lines: only tokens tell"
    );
    tui_common::write(
        &root.join("ledger/SKILL.md"),
        &format!(
            "---\nname: ledger\ndescription: Reconciles ledgers against bank statements. Use when the user asks to reconcile accounts.\n---\n# Ledger\n\n{body}"
        ),
    );
    let mut h = harness(&[&root], 100, 30);
    h.wait_until(|app| app.findings.checked);
    let i = h.app.lib.find("ledger").unwrap();
    let app_rules: std::collections::BTreeSet<String> = h
        .app
        .view()
        .diagnostics(i)
        .iter()
        .map(|d| d.rule.as_str().to_string())
        .collect();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(["check", "--format", "json"])
        .arg(&root)
        .env("HOME", t.path())
        .env("SKILLSCOPE_CONFIG_DIR", t.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", t.path().join("cli-cache"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let cli_rules: std::collections::BTreeSet<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_string())
        .collect();
    assert!(cli_rules.contains("body-too-long"), "{report:#}");
    assert_eq!(app_rules, cli_rules, "{report:#}");
}

/// After a failed probe the Budget screen says why instead of "? not probed": the skill, the
/// probe's error in plain words and what to do, and `!` in its used column.
#[test]
fn budget_says_why_a_probe_failed() {
    use skillscope::core::probe::{ProbeReport, Verdict};
    use skillscope::tui::event::JobEvent;
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    tui_common::write(
        &root.join("fetch-rates/SKILL.md"),
        "---\nname: fetch-rates\ndescription: Fetches exchange rates. Use when the user asks for a currency rate.\ntype: executable\nentry: run.py\n---\nRun it.\n",
    );
    tui_common::write(&root.join("fetch-rates/run.py"), "import requests\n");
    let mut h = harness(&[&root], 120, 40);
    h.key(KeyCode::Char('5'));
    h.settle();
    let i = h.app.lib.find("fetch-rates").unwrap();
    let dir = h.app.lib.skills[i].dir.clone();
    assert!(
        h.screen()
            .contains(" Biggest when used (? not probed, * type inferred) "),
        "{}",
        h.screen()
    );
    let report = ProbeReport {
        skill: "fetch-rates".into(),
        dir: dir.clone(),
        kind: skillscope::core::SkillKind::Executable,
        entry: Some(dir.join("run.py")),
        command: vec!["python3".into(), "run.py".into(), "--help-json".into()],
        interpreter_from: None,
        timeout_ms: 5000,
        verdict: Some(Verdict::Crashed {
            exit_code: Some(1),
            signal: None,
            stderr_tail: "ModuleNotFoundError: No module named 'requests'".into(),
            limit: None,
        }),
        exit_code: Some(1),
        elapsed_ms: 40,
        stdout_bytes: 0,
        stderr_bytes: 48,
        pid: None,
        sandbox: None,
        sandbox_fallback: None,
        killed_descendants: 0,
        schema_text: None,
        schema_tokens: None,
        diagnostics: Vec::new(),
    };
    let generation = h.app.generation;
    h.app.handle(Event::Job(JobEvent::Probed {
        generation,
        report: Box::new(report.clone()),
        schema_tokens: None,
    }));
    let screen = h.screen();
    for want in [
        "! probe failed",
        "! fetch-rates: its --help-json probe failed",
        "exit code 1",
        "No module named 'requests'",
        "Checks screen (4)",
        "r there probes again",
    ] {
        assert!(screen.contains(want), "{want} missing:\n{screen}");
    }
    let row = screen
        .lines()
        .find(|l| l.contains("│fetch-rates") && l.contains("executable"))
        .unwrap_or_default();
    assert!(
        row.contains("! executable") && !row.contains('?'),
        "{row}\n{screen}"
    );
    // The agents' rows above hold listings with the temporary folder's path: the boxes below
    // them are the same wherever the library is.
    let boxes: Vec<&str> = screen
        .lines()
        .skip_while(|l| !l.contains("Biggest when used"))
        .collect();
    assert_snapshot!("budget_after_a_failed_probe", boxes.join("\n"));

    // A probe that passes later takes the note away.
    let passed = ProbeReport {
        verdict: Some(Verdict::Ok),
        exit_code: Some(0),
        ..report
    };
    h.app.handle(Event::Job(JobEvent::Probed {
        generation,
        report: Box::new(passed),
        schema_tokens: Some(20),
    }));
    let screen = h.screen();
    assert!(!screen.contains("probe failed"), "{screen}");
}
