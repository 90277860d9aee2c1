//! Claude Code's release eras: each release a behaviour of its listing begins with (escaping,
//! line breaks, name forms, built-ins, the default model and the models it knows), as captured
//! from it (`tests/fixtures/agents/claude-code@<version>/`), oldest first. The installed release
//! picks one (`core::agents::eras`).
//!
//! What a release budgets for a model it does not know is its catalogue's fallback (200,000
//! tokens before 2.1.332, 1,000,000 from it on), except for a name holding `[1m]`: every era's
//! context-window function tests the name for `/\[1m\]/i` before it looks the model up
//! (2.1.231 `LS`, 2.1.270 `Rc`, 2.1.290 `pu`, 2.1.300 `cf` in `QVn`, 2.1.332 `Ay` in `xBo`) and
//! gives it 1,000,000 tokens (`Catalogue::suffixed`). Surprising: a model the release has never
//! heard of (`claude-fable-9[1m]`) gets a million on 2.1.231 and 2.1.270, where the same name
//! without `[1m]` gets 200,000 and even a model they know, named, gets at most 200,000; and the
//! test finds `[1m]` anywhere in the name, not only at its end. Checked with
//! `verify --model claude-fable-9[1m]` against 2.1.231 and 2.1.270.

use super::models;
use crate::core::agents::client::Client;
use crate::core::agents::client_models::{Catalogue, ClientModel};
use crate::core::agents::eras::Era;
use crate::core::listing::{BuiltinEntry, Dialect};

/// A Claude Code release: its version, models (default first), names for them and built-ins.
const fn claude_code(
    version: &'static str,
    models: &'static [ClientModel],
    catalogue: &'static Catalogue,
    builtins: &'static [BuiltinEntry],
) -> Client {
    Client {
        version,
        models,
        builtins,
        budget_env: Some("SLASH_COMMAND_TOOL_CHAR_BUDGET"),
        budget_setting: Some("skillListingBudgetFraction"),
        settings_files: (
            &[".claude/settings.json"],
            &[".claude/settings.json", ".claude/settings.local.json"],
        ),
        install: None,
        catalogue: Some(catalogue),
    }
}

/// Claude Code 2.1.231 (`tests/fixtures/agents/claude-code@2.1.231/`): default model
/// `claude-opus-5`, 10 built-ins.
pub static CLAUDE_CODE_2_1_231: Client = claude_code(
    "2.1.231",
    models::CLAUDE_CODE_2_1_231_MODELS,
    &models::CLAUDE_CODE_2_1_231_CATALOGUE,
    super::builtins_eras::BUILTINS_2_1_231,
);
/// Claude Code 2.1.270: 12 built-ins (`code-review`, `workflow-authoring` added).
pub static CLAUDE_CODE_2_1_270: Client = claude_code(
    "2.1.270",
    models::CLAUDE_CODE_2_1_270_MODELS,
    &models::CLAUDE_CODE_2_1_270_CATALOGUE,
    super::builtins_eras::BUILTINS_2_1_270,
);
/// Claude Code 2.1.290: default model `claude-opus-5-5`, 13 built-ins (`plugin-authoring`).
pub static CLAUDE_CODE_2_1_290: Client = claude_code(
    "2.1.290",
    models::CLAUDE_CODE_2_1_290_MODELS,
    &models::CLAUDE_CODE_2_1_290_CATALOGUE,
    super::builtins_eras::BUILTINS_2_1_290,
);
/// Claude Code 2.1.300: the built-ins' texts of that release.
pub static CLAUDE_CODE_2_1_300: Client = claude_code(
    "2.1.300",
    models::CLAUDE_CODE_2_1_300_MODELS,
    &models::CLAUDE_CODE_2_1_300_CATALOGUE,
    super::builtins_eras::BUILTINS_2_1_300,
);

/// Claude Code 2.1.332 (npm `@anthropic-ai/claude-code`), as captured in
/// `tests/fixtures/agents/claude-code@2.1.332/` and read in `tests/fixtures/agents/FINDINGS.md`:
/// its budget is `context window × characters per token × 1 %` of the model (`Cdn`, `Hw`, `Lm`).
pub static CLAUDE_CODE_2_1_332: Client = claude_code(
    "2.1.332",
    models::CLAUDE_CODE_2_1_332_MODELS,
    &models::CLAUDE_CODE_2_1_332_CATALOGUE,
    super::builtins::BUILTINS,
);

/// Before 2.1.290: `<`/`>` raw, line breaks and tabs kept, the folder's name alone.
const CLAUDE_RAW: Dialect = Dialect {
    escape_angles: false,
    one_line: false,
    name_beside_folder: false,
    ..Dialect::CURRENT
};

/// Claude Code's eras, oldest first.
pub(crate) static CLAUDE_CODE_ERAS: &[Era] = &[
    Era {
        client: &CLAUDE_CODE_2_1_231,
        dialect: CLAUDE_RAW,
    },
    Era {
        client: &CLAUDE_CODE_2_1_270,
        dialect: CLAUDE_RAW,
    },
    Era {
        client: &CLAUDE_CODE_2_1_290,
        dialect: Dialect {
            name_beside_folder: true,
            ..CLAUDE_RAW
        },
    },
    Era {
        client: &CLAUDE_CODE_2_1_300,
        dialect: Dialect::CURRENT,
    },
    Era {
        client: &CLAUDE_CODE_2_1_332,
        dialect: Dialect::CURRENT,
    },
];

#[cfg(test)]
mod tests {
    use crate::core::agents::eras::{era_for, known_from};
    use crate::core::source::Agent;

    /// What the release `version` budgets for the model `name`: the window, the characters per
    /// token and whether it knows it.
    fn budget(version: &str, name: &str) -> (usize, usize, bool) {
        let (era, _) = era_for(Agent::ClaudeCode, version).unwrap();
        let r = era.client.resolve(name).unwrap();
        (r.model.context_window, r.model.chars_per_token, r.known)
    }

    #[test]
    fn each_era_knows_its_own_models_and_budgets_another_on_its_fallback() {
        // Per era: a model that release is the first to know, and one only a newer one knows.
        let cases = [
            (
                "2.1.231",
                "claude-mythos-5",
                "claude-fable-5-1",
                Some("2.1.270"),
            ),
            (
                "2.1.270",
                "claude-fable-5-1",
                "claude-opus-5-5",
                Some("2.1.290"),
            ),
            (
                "2.1.290",
                "claude-sonnet-5-5",
                "claude-haiku-5-5",
                Some("2.1.300"),
            ),
            (
                "2.1.300",
                "claude-haiku-5-5",
                "claude-fable-5-2",
                Some("2.1.332"),
            ),
            ("2.1.332", "claude-mythos-5-2", "gpt-5", None),
        ];
        for (version, own, other, from) in cases {
            assert_eq!(
                budget(version, own),
                (1_000_000, 3, true),
                "{version} {own}"
            );
            // Before 2.1.332 a model Claude Code does not know gets 200,000 tokens, from it on
            // a million (at 3 characters a token).
            let fallback = if version == "2.1.332" {
                1_000_000
            } else {
                200_000
            };
            assert_eq!(
                budget(version, other),
                (fallback, 3, false),
                "{version} {other}"
            );
            assert_eq!(known_from(Agent::ClaudeCode, version, other), from);
        }
        // The names each release gives: `best` is Fable before 2.1.332, Opus from it on; the
        // default is Opus 5 before 2.1.290.
        let id = |v: &str, name: &str| {
            let (era, _) = era_for(Agent::ClaudeCode, v).unwrap();
            era.client.resolve(name).map(|r| r.model.id)
        };
        assert_eq!(id("2.1.231", "best"), Some("claude-fable-5"));
        assert_eq!(id("2.1.300", "best"), Some("claude-fable-5-1"));
        assert_eq!(id("2.1.332", "best"), Some("claude-opus-5-5"));
        assert_eq!(id("2.1.270", "opus"), Some("claude-opus-5"));
        assert_eq!(id("2.1.290", "opus"), Some("claude-opus-5-5"));
        assert_eq!(id("2.1.290", "haiku"), Some("claude-haiku-4-5"));
        assert_eq!(id("2.1.300", "haiku"), Some("claude-haiku-5-5"));
        // 2.1.231 and 2.1.270 give a named model at most 200,000 tokens; later ones its own.
        let cap = |v: &str| {
            let (era, _) = era_for(Agent::ClaudeCode, v).unwrap();
            era.client.catalogue.unwrap().named_window
        };
        assert_eq!(cap("2.1.270"), Some(200_000));
        assert_eq!(cap("2.1.290"), None);
    }

    /// A model a release does not know, named with `[1m]`, gets a million in every era (at 3
    /// characters a token), while the same name without it gets the era's fallback; the client
    /// finds `[1m]` anywhere in the name, in any letter case.
    #[test]
    fn a_name_holding_1m_gets_a_million_in_every_era_known_or_not() {
        let eras = [
            ("2.1.231", 200_000),
            ("2.1.270", 200_000),
            ("2.1.290", 200_000),
            ("2.1.300", 200_000),
            ("2.1.332", 1_000_000),
        ];
        for (version, fallback) in eras {
            for name in [
                "claude-fable-9[1m]",
                "Claude-Fable-9[1M]",
                "claude-fable-9[1m]-preview",
            ] {
                assert_eq!(
                    budget(version, name),
                    (1_000_000, 3, false),
                    "{version} {name}"
                );
                let (era, _) = era_for(Agent::ClaudeCode, version).unwrap();
                assert!(era.client.resolve(name).unwrap().by_suffix, "{version}");
            }
            assert_eq!(
                budget(version, "claude-fable-9"),
                (fallback, 3, false),
                "{version}"
            );
            let (era, _) = era_for(Agent::ClaudeCode, version).unwrap();
            assert!(!era.client.resolve("claude-fable-9").unwrap().by_suffix);
            // A model the release knows keeps its own `[1m]` entry (4 characters a token).
            assert_eq!(
                budget(version, "claude-sonnet-4-5[1m]"),
                (1_000_000, 4, true),
                "{version}"
            );
        }
        // A model only a newer release knows, named with `[1m]`: a million too.
        assert_eq!(
            budget("2.1.270", "claude-opus-5-5[1m]"),
            (1_000_000, 3, false)
        );
    }
}
