//! One agent's view in the app: the open-files box that makes Claude Code's conditional
//! (`paths:`) skills listed, and the Test box following the chosen agent, with what the message
//! injects in that agent's framing.

use crate::tui_common::{self, Harness, write};
use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::core::tokens::{Encoding, count};
use skillscope::core::{Agent, Root, Scope};
use skillscope::tui::screens::test::Injecting;
use std::path::PathBuf;

/// The app over a Claude Code folder and a Codex folder, each with its own skills.
fn two_agents(t: &std::path::Path, claude: &[(&str, &str)], codex: &[(&str, &str)]) -> Harness {
    let claude_dir = t.join(".claude/skills");
    let codex_dir = t.join(".codex/skills");
    for (root, skills) in [(&claude_dir, claude), (&codex_dir, codex)] {
        std::fs::create_dir_all(root).unwrap();
        for (name, text) in skills {
            write(&root.join(name).join("SKILL.md"), text);
        }
    }
    tui_common::harness_of_roots(
        vec![
            Root::new(&claude_dir, Agent::ClaudeCode, Scope::User),
            Root::new(&codex_dir, Agent::Codex, Scope::User),
        ],
        100,
        30,
    )
}

#[test]
fn the_open_files_box_lists_a_conditional_skill_once_a_file_matches() {
    let t = tempfile::tempdir().unwrap();
    let mut h = two_agents(
        t.path(),
        &[
            (
                "py-style",
                "---\nname: py-style\ndescription: Python style rules for this project.\npaths: \"*.py\"\n---\nBody.\n",
            ),
            (
                "claude-notes",
                "---\nname: claude-notes\ndescription: Notes for Claude Code users.\n---\nBody.\n",
            ),
        ],
        &[],
    );
    h.key(KeyCode::Char('2'));
    // A library of the agents' folders opens on the first agent that reads it: Claude Code.
    assert_eq!(h.app.in_view.agent(), Some(Agent::ClaudeCode));
    h.settle();
    let before = h.screen();
    assert!(before.contains("- claude-notes: Notes"), "{before}");
    assert!(!before.contains("- py-style:"), "{before}");
    assert!(
        before.contains("conditional"),
        "the fates say why: {before}"
    );
    h.key(KeyCode::Char('p'));
    h.chars("README.md, src/app.py");
    let typing = h.screen();
    assert_snapshot!("open_files_box", typing);
    h.key(KeyCode::Enter);
    h.settle();
    let after = h.screen();
    assert!(after.contains("- py-style: Python style"), "{after}");
    assert!(
        after.contains("· README.md and 1"),
        "the title names them: {after}"
    );
    // Esc leaves the files as they were.
    h.key(KeyCode::Char('p'));
    h.key_mod(
        KeyCode::Char('u'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    );
    h.key(KeyCode::Esc);
    assert_eq!(
        h.app.in_view.files(),
        vec![PathBuf::from("README.md"), PathBuf::from("src/app.py")]
    );
    // An empty box closes every file: the skill waits again.
    h.key(KeyCode::Char('p'));
    h.key_mod(
        KeyCode::Char('u'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    );
    h.key(KeyCode::Enter);
    h.settle();
    assert!(!h.screen().contains("- py-style:"), "{}", h.screen());
}

#[test]
fn the_test_box_follows_the_agent_and_shows_what_it_injects() {
    let t = tempfile::tempdir().unwrap();
    let mut h = two_agents(
        t.path(),
        &[(
            "pdf-tools",
            "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files.\n---\n# PDF tools\n\nRun extract.py on the file.\n",
        )],
        &[(
            "pdf-reader",
            "---\nname: pdf-reader\ndescription: Read text from PDF files and extract it.\n---\nBody of the reader.\n",
        )],
    );
    h.key(KeyCode::Char('3'));
    h.chars("extract the text from this pdf");
    // Never every agent's skills together: the first agent that reads the library is in view.
    h.wait_until(|app| matches!(app.screens.test.injecting, Injecting::Shown(_)));
    // The agent's format counts every L1 again: the header shows it until it is done.
    h.settle();
    let Injecting::Shown(shown) = h.app.screens.test.injecting.clone() else {
        unreachable!()
    };
    assert_eq!(shown.agent, Agent::ClaudeCode);
    assert_eq!(shown.ids.len(), 1, "{:?}", shown.ids);
    assert!(shown.ids[0].ends_with("pdf-tools"), "{:?}", shown.ids);
    assert!(
        shown.text.contains("Run extract.py on the file."),
        "{}",
        shown.text
    );
    assert_eq!(shown.tokens, count(Encoding::O200kBase, &shown.text));
    let claude = h.screen();
    assert!(
        !claude.contains("pdf-reader"),
        "only Claude Code's skills: {claude}"
    );
    assert!(claude.contains("Injected by Claude Code"), "{claude}");
    // The text names the skill's folder, whose temporary name changes the count: checked above.
    // The screen holds the semantic and hybrid columns' answers: a build with them.
    if cfg!(feature = "semantic") {
        assert_snapshot!(
            "test_box_injection_claude_code",
            claude.replace(&format!("· {} tokens", shown.tokens), "· N tokens")
        );
    }
    // The Prompt screen's agent is the same one.
    assert_eq!(h.app.in_view.agent(), Some(Agent::ClaudeCode));
    // Typed on while an injection is worked out: what is shown at the end is the last message's.
    h.key(KeyCode::Enter);
    h.chars(" please");
    h.key_mod(
        KeyCode::Char('u'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    );
    h.chars("what a lovely morning");
    h.pump(300);
    h.wait_until(|app| matches!(app.screens.test.injecting, Injecting::Shown(_)));
    let Injecting::Shown(last) = h.app.screens.test.injecting.clone() else {
        unreachable!()
    };
    assert!(
        last.ids.is_empty() && last.text.is_empty(),
        "{:?}",
        last.ids
    );
    h.key_mod(
        KeyCode::Char('u'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    );
    h.chars("extract the text from this pdf");
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('a'));
    h.wait_until(
        |app| matches!(&app.screens.test.injecting, Injecting::Shown(i) if i.agent == Agent::Codex),
    );
    let codex = h.screen();
    assert!(
        codex.contains("pdf-reader") && !codex.contains("pdf-tools"),
        "{codex}"
    );
}

/// One Claude Code skill, the app on the Prompt screen in Claude Code's view.
fn claude_notes_on_the_prompt_screen(t: &std::path::Path) -> Harness {
    let mut h = two_agents(
        t,
        &[(
            "claude-notes",
            "---\nname: claude-notes\ndescription: Notes for Claude Code users.\n---\nBody.\n",
        )],
        &[],
    );
    h.key(KeyCode::Char('2'));
    h.settle();
    assert_eq!(h.app.in_view.agent(), Some(Agent::ClaudeCode));
    h
}

#[test]
fn the_prompt_screen_shows_the_last_verify_of_its_listing_and_d_its_diff() {
    use skillscope::core::verify::store::{Verified, VerifyStore, fingerprint};
    let t = tempfile::tempdir().unwrap();
    let mut h = claude_notes_on_the_prompt_screen(t.path());
    let before = h.screen();
    assert!(
        !before.contains("verified"),
        "nothing verified yet: {before}"
    );
    let listing = h.app.preview.shown.as_ref().unwrap().listing.text.clone();
    let mut store = VerifyStore::at(t.path().join("verify.json"));
    store.record(Verified {
        agent: "claude-code".into(),
        version: "2.1.400".into(),
        listing: fingerprint(&listing),
        identical: false,
        client_tokens: 120,
        predicted_tokens: 110,
        diff: "--- claude 2.1.400\n+++ skillscope\n@@ -1 +1 @@\n-- claude-notes: the client's words\n+- claude-notes: Notes for Claude Code users.\n".into(),
        at: 1,
    });
    store.save().unwrap();
    h.app.verify.store = VerifyStore::at(t.path().join("verify.json"));
    h.app.verify.installed = vec![(Agent::ClaudeCode, "2.1.400".into())];
    let shown = h.screen();
    assert!(
        shown.contains(
            "verified: differs from claude-code 2.1.400 (120 vs 110 tokens) · d: the diff"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("modelled on Claude Code 2.1.332; installed 2.1.400"),
        "{shown}"
    );
    h.key(KeyCode::Char('d'));
    let diff = h.screen();
    assert!(
        diff.contains("-- claude-notes: the client's words"),
        "{diff}"
    );
    assert!(diff.contains("The last verify's diff"), "{diff}");
    h.key(KeyCode::Char('d'));
    assert!(!h.screen().contains("The last verify's diff"));
    // Another listing (Codex's view) was not verified: nothing is claimed for it.
    h.app.verify.installed.clear();
    h.key(KeyCode::Char('a'));
    h.settle();
    let codex = h.screen();
    assert!(!codex.contains("verified:"), "{codex}");
}

#[test]
fn every_screen_says_when_the_agents_installed_client_is_not_the_modelled_version() {
    let t = tempfile::tempdir().unwrap();
    let mut h = claude_notes_on_the_prompt_screen(t.path());
    let header = |h: &mut Harness| h.screen().lines().next().unwrap_or_default().to_string();
    assert!(!header(&mut h).contains('≠'), "{}", header(&mut h));
    h.app.verify.installed = vec![(Agent::ClaudeCode, "2.1.400".into())];
    for screen in ['1', '2', '3', '4', '5'] {
        h.key(KeyCode::Char(screen));
        h.settle();
        let top = header(&mut h);
        assert!(
            top.contains("2.1.400 ≠ 2.1.332") && top.contains("Claude Code"),
            "screen {screen}: {top}"
        );
    }
    // The modelled version installed: nothing is said.
    h.app.verify.installed = vec![(Agent::ClaudeCode, "2.1.332".into())];
    h.key(KeyCode::Char('1'));
    h.settle();
    assert!(!header(&mut h).contains('≠'), "{}", header(&mut h));
}

/// The design documents' agents are views a user opts into: over `.agents/skills`, which real
/// clients read, the cycle never stops at the ADR's agent or at Lazy Skills; once Lazy Skills'
/// own folder holds a skill, its view comes in the cycle.
#[test]
fn the_cycle_offers_a_design_documents_agent_only_with_its_own_folder() {
    let t = tempfile::tempdir().unwrap();
    let shared = t.path().join(".agents/skills");
    write(
        &shared.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Keep notes of a meeting when the user asks for minutes.\n---\nBody.\n",
    );
    let cycle = |h: &mut Harness| {
        let mut seen = Vec::new();
        for _ in 0..=Agent::ALL.len() {
            seen.extend(h.app.in_view.agent());
            h.key(KeyCode::Char('v'));
        }
        seen
    };
    let mut h = tui_common::harness_of_roots(
        vec![Root::new(&shared, Agent::Generic, Scope::User)],
        100,
        30,
    );
    let seen = cycle(&mut h);
    assert!(seen.contains(&Agent::Codex), "{seen:?}");
    assert!(
        !seen.contains(&Agent::Generic) && !seen.contains(&Agent::LazySkills),
        "{seen:?}"
    );
    let lazy = t.path().join(".config/cli-agent/skills");
    write(
        &lazy.join("todo/SKILL.md"),
        "---\nname: todo\ndescription: Track a to-do list when the user adds a task.\nauto_load: true\n---\nBody.\n",
    );
    let mut h = tui_common::harness_of_roots(
        vec![
            Root::new(&shared, Agent::Generic, Scope::User),
            Root::new(&lazy, Agent::LazySkills, Scope::User),
        ],
        100,
        30,
    );
    let seen = cycle(&mut h);
    assert!(seen.contains(&Agent::LazySkills), "{seen:?}");
    assert!(!seen.contains(&Agent::Generic), "{seen:?}");
}

/// The Prompt screen's fates say where the client decides as it runs: opencode keeps either
/// copy of a name (a top-level skill and a nested one), by its load order.
#[test]
fn the_prompt_screens_fates_mark_what_the_client_picks_itself() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join(".config/opencode/skills");
    for (dir, name, description) in [
        ("alpha", "alpha", "The top-level alpha."),
        ("group/alpha", "alpha", "The nested alpha."),
        ("beta", "beta", "Beta alone."),
    ] {
        write(
            &root.join(dir).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n"),
        );
    }
    let mut h = tui_common::harness_of_roots(
        vec![Root::new(&root, Agent::Opencode, Scope::User)],
        200,
        30,
    );
    h.key(KeyCode::Char('2'));
    h.settle();
    assert_eq!(h.app.in_view.agent(), Some(Agent::Opencode));
    // The screen as drawn (before any path is replaced, which would shift its columns).
    let screen = h.terminal().backend().to_string();
    // The fates box: from its title to its bottom border, its own columns only.
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains(" Fate of each "))
        .unwrap_or_else(|| panic!("{screen}"));
    let at = lines[top].find("┌ Fate of each ").unwrap();
    let left = lines[top][..at].chars().count();
    let fates: Vec<String> = lines[top..]
        .iter()
        .map(|l| {
            l.chars()
                .skip(left)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .take_while(|l| !l.is_empty())
        .scan(false, |done, l| {
            (!*done).then(|| {
                *done = l.starts_with('└');
                l
            })
        })
        .collect();
    let fates = fates
        .join("\n")
        .replace(&t.path().display().to_string(), "[HOME]");
    assert_snapshot!("prompt_fates_client_choice", fates);
}

/// How many preview and pricing runs `keys` start, counted once every run (and every run again
/// that one asked for) is in.
fn runs_started_by(h: &mut Harness, keys: &[KeyCode]) -> (u64, u64) {
    h.settle();
    let before = (
        h.app.preview.job.started(),
        h.app.screens.budget.job.started(),
    );
    for k in keys {
        h.key(*k);
    }
    h.settle();
    (
        h.app.preview.job.started() - before.0,
        h.app.screens.budget.job.started() - before.1,
    )
}

#[test]
fn one_key_press_starts_at_most_one_preview_and_one_pricing_run() {
    let t = tempfile::tempdir().unwrap();
    let skill =
        |name: &str| format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody.\n");
    let (a, b) = (skill("alpha"), skill("beta"));
    let mut h = two_agents(t.path(), &[("alpha", &a)], &[("beta", &b)]);
    // On the Prompt screen another agent asks for the preview from several places (its format's
    // L1 recount, the Test box following it, the view itself): one run.
    h.key(KeyCode::Char('2'));
    let agent = h.app.in_view.agent();
    assert_eq!(runs_started_by(&mut h, &[KeyCode::Char('v')]), (1, 0));
    assert_ne!(h.app.in_view.agent(), agent, "v viewed another agent");
    // The same on the Budget screen: one pricing run, and no preview off its screen.
    h.key(KeyCode::Char('5'));
    assert_eq!(runs_started_by(&mut h, &[KeyCode::Char('v')]), (0, 1));
    // Another model (Claude Code's client budgets by its model): one pricing run.
    while h.app.in_view.agent() != Some(Agent::ClaudeCode) {
        h.key(KeyCode::Char('v'));
    }
    assert_eq!(runs_started_by(&mut h, &[KeyCode::Char('m')]), (0, 1));
    // And on the Prompt screen: one preview.
    h.key(KeyCode::Char('2'));
    assert_eq!(runs_started_by(&mut h, &[KeyCode::Char('m')]), (1, 0));
}
