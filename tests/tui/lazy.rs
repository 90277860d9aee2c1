//! The Lazy Skills views of the app: listing modes on the Prompt screen, the cost-when-used
//! column, and resources opened from the detail pane.

use crate::tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::core::listing::{self, Format, ListingOptions};
use skillscope::core::pricing::modes::ListingMode;
use skillscope::core::tokens::{Encoding, count};
use tui_common::{fixture, harness};

#[test]
fn prompt_mode_key_lists_only_what_the_test_message_makes_relevant() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    let mut h = harness(&[&root], 100, 30);
    h.key(KeyCode::Char('3'))
        .chars("what's the weather in Paris?");
    h.settle();
    h.key(KeyCode::BackTab);
    assert!(
        h.screen().contains("o offered"),
        "the footer offers the key"
    );
    h.key(KeyCode::Char('o'));
    h.settle();
    assert_eq!(h.app.screens.prompt.mode, ListingMode::All);
    h.key(KeyCode::Char('o'));
    h.settle();
    let preview = h.app.preview.shown.as_ref().unwrap();
    assert_eq!(preview.mode, ListingMode::Auto);
    let text = &preview.listing.text;
    assert!(text.contains("**weather**"), "{text}");
    assert!(
        !text.contains("pdf-tools") && !text.contains("team-notes"),
        "{text}"
    );
    // Every figure is the count of the listing it stands for.
    assert_eq!(preview.tokens as usize, count(Encoding::O200kBase, text));
    let enabled = listing::render(
        &h.app.lib,
        &|i| h.app.switches.enabled[i],
        &ListingOptions {
            format: Format::Markdown,
            ..ListingOptions::default()
        },
    );
    let cmp = &preview.comparison;
    let modes: Vec<ListingMode> = cmp.modes.iter().map(|m| m.mode).collect();
    assert_eq!(modes, ListingMode::ALL);
    assert_eq!(
        cmp.get(ListingMode::Enabled).unwrap().tokens as usize,
        count(Encoding::O200kBase, &enabled.text)
    );
    assert_eq!(cmp.get(ListingMode::Auto).unwrap().tokens, preview.tokens);
    let saving = cmp.saving(ListingMode::Auto, ListingMode::All).unwrap();
    assert!(saving > 0.0, "{saving}");
    let screen = h.screen();
    assert!(screen.contains("mode auto"), "{screen}");
    assert!(screen.contains("vs all"), "{screen}");
    assert!(screen.contains("1 relevant → 1 listed"), "{screen}");
    assert_snapshot!("prompt_auto_mode", screen);

    // Without a message, auto lists nothing and says where the message comes from.
    h.key(KeyCode::Char('3')).key_mod(
        KeyCode::Char('u'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    );
    h.settle();
    h.key(KeyCode::BackTab);
    h.settle();
    let empty = h.screen();
    assert!(empty.contains("type one in the Test box"), "{empty}");
    assert_eq!(
        h.app.preview.shown.as_ref().unwrap().listing.entries.len(),
        0
    );
}

/// A composite skill naming an executable and a contextual one, and a skill nobody names.
fn composite_fixture(root: &std::path::Path) {
    use tui_common::write;
    write(
        &root.join("report-builder/SKILL.md"),
        "---\nname: report-builder\ndescription: Build a monthly report from CSV exports. Use when the user asks for the monthly report.\ntype: composite\n---\n# Report\n\nLoad csv-stats for the numbers, then follow chart-style for the figures.\n",
    );
    write(
        &root.join("csv-stats/SKILL.md"),
        "---\nname: csv-stats\ndescription: Summary statistics of the numeric columns of a CSV file. Use for quick numbers.\n---\nRun the tool.\n",
    );
    write(
        &root.join("csv-stats/execute.py"),
        "#!/usr/bin/env python3\nimport json, sys\nif '--help-json' in sys.argv:\n    print(json.dumps({'name': 'csv-stats', 'description': 'Column statistics of a CSV file', 'parameters': {'type': 'object', 'properties': {'path': {'type': 'string', 'description': 'The CSV file'}}, 'required': ['path']}}))\n",
    );
    write(
        &root.join("chart-style/SKILL.md"),
        "---\nname: chart-style\ndescription: The house style for charts in reports, with colours, fonts and labels. Use when drawing a chart.\n---\nUse the palette in references/palette.md.\n",
    );
    write(
        &root.join("chart-style/references/palette.md"),
        "# Palette\n\nBlue #1f77b4, orange #ff7f0e.\n",
    );
    write(
        &root.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Meeting notes in the team format. Use when summarising a meeting for the team.\n---\nTitle, decisions, actions.\n",
    );
}

#[test]
fn cost_when_used_column_follows_the_type() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    composite_fixture(&root);
    let mut h = harness(&[&root], 120, 30);
    h.wait_until(|app| !app.usage.used.is_empty());
    let lib = h.app.lib.clone();
    let idx = |n: &str| lib.find(n).unwrap();
    let own = |h: &tui_common::Harness, n: &str| {
        let c = &h.app.costs[idx(n)];
        u64::from(c.l1.unwrap()) + u64::from(c.l2.unwrap()) + u64::from(c.schema.unwrap_or(0))
    };
    let report = &h.app.usage.used[idx("report-builder")];
    assert!(report.schema_unknown, "csv-stats is not probed yet");
    // Probe the executable (the only thing that runs code), then read the figures again.
    h.key(KeyCode::Char('4')).key(KeyCode::Char('r'));
    h.wait_until(|app| !app.screens.checks.running() && !app.screens.checks.reports.is_empty());
    h.settle();
    assert!(h.app.costs[idx("csv-stats")].schema.unwrap() > 10);
    let used = |h: &tui_common::Harness, n: &str| h.app.usage.used[idx(n)].tokens.unwrap();
    assert_eq!(used(&h, "notes"), own(&h, "notes"), "contextual: L1 + L2");
    assert_eq!(
        used(&h, "chart-style"),
        own(&h, "chart-style"),
        "its reference is read only on demand"
    );
    assert_eq!(
        used(&h, "csv-stats"),
        own(&h, "csv-stats"),
        "L1 + L2 + schema"
    );
    assert_eq!(
        used(&h, "report-builder"),
        own(&h, "report-builder") + own(&h, "csv-stats") + own(&h, "chart-style")
    );
    h.key(KeyCode::Char('5'));
    h.settle();
    h.stable_agent_budgets();
    let budget = h.screen();
    assert!(
        budget.contains("used") && budget.contains("composite"),
        "{budget}"
    );
    assert!(
        budget.contains("executable*"),
        "execute.py inferred the type:\n{budget}"
    );
    assert_snapshot!("budget_used_column", budget);
    // The detail pane says the same, with the type that decided it and what it loads along.
    h.key(KeyCode::Char('1'));
    while h
        .app
        .screens
        .skills
        .selected(&h.app.lib)
        .map(|s| s.name.as_str())
        != Some("report-builder")
    {
        h.key(KeyCode::Char('j'));
    }
    let detail = h.screen();
    assert!(
        detail.contains(&format!("When used {} tokens", used(&h, "report-builder"))),
        "{detail}"
    );
    assert!(detail.contains("(chart-style, csv-stats)"), "{detail}");
    assert_snapshot!("detail_used_composite", detail);
}

#[test]
fn the_list_shows_ids_grouped_by_namespace_and_filters_by_glob() {
    use tui_common::write;
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    for (dir, name) in [
        ("zeta", "zeta"),
        ("alpha", "alpha"),
        ("web/search", "search"),
        ("web/scraper", "scraper"),
        ("data/scraper", "scraper"),
    ] {
        write(
            &root.join(dir).join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: The {dir} skill. Use when {name} is needed.\n---\n"
            ),
        );
    }
    let mut h = harness(&[&root], 80, 24);
    let order = |h: &tui_common::Harness| -> Vec<String> {
        h.app
            .screens
            .skills
            .list
            .rows
            .iter()
            .map(|r| h.app.lib.skills[r.skill].id.clone())
            .collect()
    };
    assert_eq!(
        order(&h),
        ["alpha", "zeta", "data.scraper", "web.scraper", "web.search"]
    );
    let screen = h.screen();
    assert!(
        screen.contains("web.scraper") && screen.contains("data.scraper"),
        "{screen}"
    );
    h.key(KeyCode::Char('/')).chars("web.*").key(KeyCode::Enter);
    assert_eq!(order(&h), ["web.scraper", "web.search"]);
    assert!(h.screen().contains("/web.*"), "{}", h.screen());
    // A plain pattern stays fuzzy, over the id.
    h.key(KeyCode::Esc).key(KeyCode::Char('/')).chars("dscr");
    assert_eq!(order(&h), ["data.scraper"]);
}

#[test]
fn enter_on_a_resource_opens_it_in_a_scrollable_view() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    let long: String = (1..=60).map(|i| format!("step {i}\n")).collect();
    tui_common::write(&root.join("pdf-tools/references/steps.md"), &long);
    let mut h = harness(&[&root], 80, 24);
    // broken-yaml, then pdf-tools.
    h.key(KeyCode::Char('j')).key(KeyCode::Enter);
    // Enter with no resource selected still goes back to the list.
    h.key(KeyCode::Enter);
    assert_eq!(h.app.screens.skills.mode, skillscope::tui::app::Mode::List);
    // Files come by Conjure's groups: scripts/extract.py first, then the references.
    h.key(KeyCode::Enter)
        .key(KeyCode::Char(']'))
        .key(KeyCode::Char(']'));
    let detail = h.screen();
    assert!(
        detail.contains("] file"),
        "the footer offers the key:\n{detail}"
    );
    assert!(detail.contains("references/guide.md"), "{detail}");
    h.key(KeyCode::Enter);
    let v = h
        .app
        .screens
        .skills
        .viewer
        .as_ref()
        .expect("the resource is open");
    assert_eq!(
        v.text.as_deref().unwrap(),
        "# Guide\n\nSplit pages before extracting.\n"
    );
    let screen = h.screen();
    assert!(
        screen.contains("pdf-tools / references/guide.md"),
        "{screen}"
    );
    assert!(screen.contains("1 │ # Guide"), "{screen}");
    let guide = &h.app.costs[h.app.lib.find("pdf-tools").unwrap()]
        .resources
        .iter()
        .find(|r| r.rel == "references/guide.md")
        .unwrap();
    assert!(
        screen.contains(&format!("{} tok", guide.tokens.unwrap())),
        "{screen}"
    );
    assert_snapshot!("resource_view", screen);
    h.key(KeyCode::Esc);
    assert!(h.app.screens.skills.viewer.is_none());
    assert_eq!(
        h.app.screens.skills.mode,
        skillscope::tui::app::Mode::Detail
    );
    // The next file is long: the view scrolls.
    h.key(KeyCode::Char(']')).key(KeyCode::Enter);
    assert!(h.screen().contains(" 1 │ step 1"), "{}", h.screen());
    for _ in 0..30 {
        h.key(KeyCode::Char('j'));
    }
    let scrolled = h.screen();
    assert!(
        scrolled.contains("31 │ step 31") && !scrolled.contains(" 1 │ step 1\n"),
        "{scrolled}"
    );
    h.key(KeyCode::Char('G'));
    assert!(h.screen().contains("60 │ step 60"), "{}", h.screen());
}

#[test]
fn the_checks_screen_checks_declared_dependencies_on_d() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipping: no python3 to check dependencies against");
        return;
    }
    use tui_common::write;
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    // Found by the check itself: nothing in the frontmatter says it has requirements.
    write(
        &root.join("team-notes/requirements.txt"),
        "skillscope-test-not-installed==1.0\n",
    );
    let mut h = harness(&[&root], 100, 30);
    h.key(KeyCode::Char('4'));
    assert!(h.screen().contains("d deps"), "{}", h.screen());
    assert!(
        h.app.screens.checks.deps.is_empty(),
        "nothing runs before the key"
    );
    h.key(KeyCode::Char('d'));
    h.wait_until(|app| !app.screens.checks.running());
    let team = h.app.lib.find("team-notes").unwrap();
    let report = h
        .app
        .screens
        .checks
        .deps_for(&h.app.lib, team)
        .expect("checked");
    assert_eq!(report.summary(), "0 ok, 1 missing");
    assert!(
        h.app.screens.checks.rows.contains(&team),
        "the skill got a row"
    );
    h.key(KeyCode::Char('g'));
    for _ in 0..h.app.screens.checks.rows.len() {
        if h.app.screens.checks.rows[h.app.screens.checks.selected()] == team {
            break;
        }
        h.key(KeyCode::Char('j'));
    }
    let screen = h.screen();
    assert!(screen.contains("0 ok, 1 missing"), "{screen}");
    assert!(screen.contains("dependency-missing"), "{screen}");
    assert!(
        screen.contains("-m venv .venv && .venv/bin/pip install -r requirements.txt"),
        "{screen}"
    );
    assert!(
        !root.join("team-notes/.venv").exists(),
        "nothing was installed"
    );
}

#[test]
fn a_hostile_body_and_file_are_shown_escaped() {
    const HOSTILE: &str = "title \x1b]0;pwned\x07 clear \x1b[2J rlo \u{202e}fdp.exe csi \u{9b}6n\n";
    const SHOWN: &str =
        "title \\u{1b}]0;pwned\\u{7} clear \\u{1b}[2J rlo \\u{202e}fdp.exe csi \\u{9b}6n";
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    tui_common::write(
        &root.join("pdf-tools/SKILL.md"),
        &format!(
            "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user mentions PDFs.\n---\n{HOSTILE}"
        ),
    );
    tui_common::write(&root.join("pdf-tools/references/guide.md"), HOSTILE);
    let mut h = harness(&[&root], 120, 24);
    let raw = |screen: &str| -> Vec<char> {
        screen
            .chars()
            .filter(|&c| c != '\n' && skillscope::core::words::text::is_hazard(c))
            .collect()
    };
    // broken-yaml, then pdf-tools: its detail pane ends with the body.
    h.key(KeyCode::Char('j')).key(KeyCode::Enter);
    for _ in 0..20 {
        h.key(KeyCode::Char('j'));
    }
    let detail = h.screen();
    assert!(detail.contains("title \\u{1b}]0;pwned\\u{7}"), "{detail}");
    assert!(raw(&detail).is_empty(), "{detail}");
    // scripts/extract.py comes first (Conjure's groups), then references/guide.md.
    h.key(KeyCode::Char(']'))
        .key(KeyCode::Char(']'))
        .key(KeyCode::Enter);
    let v = h
        .app
        .screens
        .skills
        .viewer
        .as_ref()
        .expect("the file is open");
    assert_eq!(v.text.as_deref().unwrap(), format!("{SHOWN}\n"));
    let screen = h.screen();
    assert!(screen.contains(&format!("1 │ {SHOWN}")), "{screen}");
    assert!(raw(&screen).is_empty(), "{screen}");
}

#[test]
fn the_agent_key_lists_exactly_each_agents_skills() {
    use skillscope::core::{Agent, Root, Scope};
    let t = tempfile::tempdir().unwrap();
    let claude = t.path().join(".claude/skills");
    let codex = t.path().join(".codex/skills");
    for (root, name) in [(&claude, "claude-notes"), (&codex, "codex-notes")] {
        tui_common::write(
            &root.join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: Notes for {name} users.\n---\nBody.\n"),
        );
    }
    let mut h = tui_common::harness_of_roots(
        vec![
            Root::new(&claude, Agent::ClaudeCode, Scope::User),
            Root::new(&codex, Agent::Codex, Scope::User),
        ],
        100,
        30,
    );
    h.key(KeyCode::Char('2'));
    h.settle();
    // Never every agent's skills together: the library opens on Claude Code's view.
    let claude_view = h.screen();
    assert!(!claude_view.contains("every skill"), "{claude_view}");
    assert!(
        claude_view.contains("Prompt · claude-code"),
        "{claude_view}"
    );
    assert!(
        claude_view.contains("- claude-notes: Notes"),
        "{claude_view}"
    );
    assert!(!claude_view.contains("codex-notes"), "{claude_view}");
    h.key(KeyCode::Char('a'));
    h.settle();
    let codex_view = h.screen();
    assert!(codex_view.contains("Prompt · codex"), "{codex_view}");
    assert!(codex_view.contains("- codex-notes: Notes"), "{codex_view}");
    assert!(!codex_view.contains("claude-notes"), "{codex_view}");
    // The cycle goes round the agents and never through "every skill".
    for _ in 0..skillscope::tui::screens::prompt::AGENTS.len() {
        h.key(KeyCode::Char('a'));
        assert!(h.app.in_view.agent().is_some());
    }
}
