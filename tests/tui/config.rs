//! The app with a config file: its key bindings drive the keys, the footer and the help overlay;
//! its defaults set the starting screen state; its problems are shown, with their lines.

use crate::tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::config::Config;
use skillscope::core::listing::Format;
use tui_common::{fixture, harness_configured};

const CONFIG: &str = r#"# a team's settings
listing = "claude-code"
tier = "compact"
context_window = 64000
model = "claude"

[keys]
cycle_model = "M"

[keys.list]
toggle = "x"
flip = "z"

[keys.checks]
run_checks = "x"
"#;

#[test]
fn config_keys_drive_the_footer_help_and_keys() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let mut config = Config::parse_text(CONFIG, None);
    let bindings = skillscope::tui::settings::read(&mut config);
    // One problem: the unknown action, with its line.
    assert_eq!(config.problems.len(), 1, "{:?}", config.problems);
    assert_eq!(config.problems[0].line, Some(12));
    let mut h = harness_configured(&[t.path()], 80, 40, |o| {
        *o = skillscope::tui::app::Options {
            theme: o.theme,
            watch: false,
            state_path: o.state_path.clone(),
            home: o.home.clone(),
            cache_path: o.cache_path.clone(),
            ..skillscope::tui::settings::options(&config, bindings)
        };
    });
    // The problem is flagged in the header from the first frame, in words at 80 columns.
    let first = h.screen();
    assert!(
        first
            .lines()
            .next()
            .unwrap()
            .contains("config: 1 problem, see ?"),
        "{first}"
    );
    // Defaults from the file: listing format, tier, window, model.
    assert_eq!(h.app.listing_options().format, Format::ClaudeCode);
    assert_eq!(h.app.screens.prompt.window(), 64_000);
    // The listing is rendered once the Prompt screen is shown.
    h.key(KeyCode::Char('2'));
    h.settle();
    let prompt = h.screen();
    assert!(
        prompt.contains("Prompt · claude-code · mode enabled · tier compact · window 64,"),
        "{prompt}"
    );
    assert!(
        prompt.contains("≈ "),
        "the claude estimate is shown:\n{prompt}"
    );
    assert!(prompt.contains("(claude)"), "{prompt}");
    assert!(
        prompt.contains(" M model"),
        "footer follows the binding:\n{prompt}"
    );
    assert!(!prompt.contains(" m model"), "{prompt}");
    // The rebound key cycles the model; the old one does nothing now. (On the Budget screen
    // of an agent whose budget follows its client's model, Claude Code's and Codex's, the key
    // picks that model instead: opencode's does not follow one.)
    h.key(KeyCode::Char('v'));
    h.key(KeyCode::Char('v'));
    assert_eq!(
        h.app.in_view.agent(),
        Some(skillscope::core::Agent::Opencode)
    );
    h.key(KeyCode::Char('5'));
    h.key(KeyCode::Char('m'));
    assert_eq!(
        h.app.models.chosen.as_ref().map(|m| m.name.as_str()),
        Some("claude")
    );
    h.key(KeyCode::Char('M'));
    assert_eq!(
        h.app.models.chosen.as_ref().map(|m| m.name.as_str()),
        Some("gemini")
    );
    // `x` toggles in the list, space no longer does.
    h.key(KeyCode::Char('1'));
    let on = h.app.view().enabled_count();
    h.key(KeyCode::Char(' '));
    assert_eq!(
        h.app.view().enabled_count(),
        on,
        "space is unbound in the list"
    );
    h.key(KeyCode::Char('x'));
    assert_eq!(h.app.view().enabled_count(), on - 1, "x toggles");
    // The help overlay lists the new keys and the config problem.
    h.key(KeyCode::Char('?'));
    let help = h.screen();
    assert!(
        help.contains("  M                 Next model's estimate"),
        "{help}"
    );
    assert!(
        help.contains("  x                 Switch the selected skill"),
        "{help}"
    );
    assert_snapshot!(help);
    h.key(KeyCode::End);
    let bottom = h.screen();
    assert!(bottom.contains("Config file:"), "{bottom}");
    assert!(
        bottom.contains("line 12: unknown action \"flip\""),
        "{bottom}"
    );
    // A key moved on purpose is a note, not a problem: in the help, not in the badge.
    assert!(
        bottom.contains("line 15: x in the checks did `cancel_checks`; now it does"),
        "{bottom}"
    );
    assert_eq!(h.app.config.notes.len(), 1);
}

#[test]
fn model_key_cycles_none_and_every_family_on_the_budget_screen() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    let mut h = harness_configured(&[&root], 100, 30, |_| {});
    h.key(KeyCode::Char('5'));
    let plain = h.screen();
    assert!(!plain.contains('≈'), "no estimate by default:\n{plain}");
    let mut seen = Vec::new();
    for _ in 0..5 {
        h.key(KeyCode::Char('m'));
        seen.push(h.app.models.chosen.as_ref().map(|m| m.name.clone()));
    }
    assert_eq!(
        seen,
        [
            Some("claude".to_string()),
            Some("gemini".to_string()),
            Some("gpt-4o".to_string()),
            Some("gpt-4".to_string()),
            None
        ]
    );
    h.key(KeyCode::Char('m'));
    let claude = h.screen();
    // L1 of the fixture, exact and ×1.15, side by side.
    let l1: u64 = h.app.view().enabled_l1().0;
    let est = (l1 as f64 * 1.15).round() as u64;
    assert!(
        claude.contains(&format!("≈ {est} (claude)")),
        "L1 {l1} → {est}:\n{claude}"
    );
}

/// The model Claude Code's own settings set decides its budget in the app too, and the Prompt
/// screen's title and the header say which model and where it was set; `m` then chooses another
/// of the client's models.
#[test]
fn the_model_in_claude_codes_settings_is_the_apps_and_is_named() {
    let t = tempfile::tempdir().unwrap();
    fixture(t.path());
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    std::fs::write(
        home.path().join(".claude/settings.json"),
        r#"{"model": "claude-sonnet-4-5"}"#,
    )
    .unwrap();
    let at = home.path().to_path_buf();
    let mut h = harness_configured(&[t.path()], 200, 40, |o| {
        o.format = Format::ClaudeCode;
        o.home = Some(at);
    });
    assert_eq!(
        h.app.in_view.agent(),
        Some(skillscope::core::Agent::ClaudeCode)
    );
    assert_eq!(
        h.app.in_view.client_model().map(|m| m.id),
        Some("claude-sonnet-4-5")
    );
    // Sonnet 4.5: 200,000 × 4 × 1 %.
    assert_eq!(
        h.app.listing_options().budget(),
        Some(skillscope::core::listing::Budget::chars(8_000))
    );
    h.key(KeyCode::Char('2'));
    h.settle();
    let screen = h.screen();
    assert!(
        screen.contains("model claude-sonnet-4-5 (from ~/.claude/settings.json)"),
        "{screen}"
    );
    assert!(
        screen
            .lines()
            .next()
            .unwrap()
            .contains(" on claude-sonnet-4-5 "),
        "{screen}"
    );
    // `m` goes on from the settings' model to the next one of the client's.
    h.key(KeyCode::Char('m'));
    h.settle();
    assert_eq!(
        h.app.in_view.client_model().map(|m| m.id),
        Some("claude-sonnet-4-6")
    );
    assert!(
        h.screen()
            .contains("model claude-sonnet-4-6 (chosen with m)")
    );
}
