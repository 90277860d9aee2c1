//! Codex's release eras: each release a behaviour of its listing begins with (the wording before
//! 0.151.0, the default model and the models it knows), as captured from it
//! (`tests/fixtures/agents/codex@<version>/`), oldest first. The installed release picks one
//! (`core::agents::eras`).

use super::models;
use crate::core::agents::client::Client;
use crate::core::agents::client_models::{Catalogue, ClientModel};
use crate::core::agents::eras::Era;
use crate::core::listing::Dialect;

/// A Codex release: its version, models (default first) and what it does with another name.
const fn codex(
    version: &'static str,
    models: &'static [ClientModel],
    catalogue: &'static Catalogue,
) -> Client {
    Client {
        version,
        models,
        builtins: &[],
        budget_env: None,
        budget_setting: None,
        settings_files: (&[".codex/config.toml"], &[]),
        install: None,
        catalogue: Some(catalogue),
    }
}

/// Codex 0.148.0 (`tests/fixtures/agents/codex@0.148.0/`): default model `gpt-5.6-sol`.
pub static CODEX_0_148_0: Client = codex(
    "0.148.0",
    models::CODEX_0_148_0_MODELS,
    &models::CODEX_0_148_0_CATALOGUE,
);
/// Codex 0.151.0 (`tests/fixtures/agents/codex@0.151.0/`): default model `gpt-5.6-sol`.
pub static CODEX_0_151_0: Client = codex(
    "0.151.0",
    models::CODEX_0_151_0_MODELS,
    &models::CODEX_0_151_0_CATALOGUE,
);

/// Codex 0.171.0 (npm `@openai/codex`, its native binary `codex-linux-x64`), as captured in
/// `tests/fixtures/agents/codex@0.171.0/` (`mixed`, `budget150`) and read in
/// `tests/fixtures/agents/FINDINGS.md`; `tests/cli/ground_truth.rs` checks its listing byte for
/// byte. Its budget is 2 % of the model's context window in tokens, which it estimates as a
/// quarter of the UTF-8 bytes (`default_skill_metadata_budget`): its default model `gpt-6.2-sol`
/// (context window 500,000 in the models list its binary embeds) gives 10,000. No setting or
/// variable changes it; no entry is built in (its system skills are files it installs).
pub static CODEX_0_171_0: Client = codex(
    "0.171.0",
    models::CODEX_0_171_0_MODELS,
    &models::CODEX_0_171_0_CATALOGUE,
);

/// Codex 0.148.0's intro before absolute paths.
const CODEX_0_148_INTRO: &str = "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `executor package` locators are owned by their execution environment, `orchestrator package` locators are opaque package identifiers, and `custom resource` locators use their provider's access mechanism.";

/// Codex's eras, oldest first.
pub(crate) static CODEX_ERAS: &[Era] = &[
    Era {
        client: &CODEX_0_148_0,
        dialect: Dialect {
            roots_when_cheaper: false,
            codex_plain_intro: Some(CODEX_0_148_INTRO),
            ..Dialect::CURRENT
        },
    },
    Era {
        client: &CODEX_0_151_0,
        dialect: Dialect::CURRENT,
    },
    Era {
        client: &CODEX_0_171_0,
        dialect: Dialect::CURRENT,
    },
];

#[cfg(test)]
mod tests {
    use crate::core::agents::eras::{era_for, known_from};
    use crate::core::source::Agent;

    #[test]
    fn each_era_knows_its_own_models_and_budgets_another_on_its_fallback() {
        let window = |version: &str, name: &str| {
            let (era, _) = era_for(Agent::Codex, version).unwrap();
            era.client
                .resolve(name)
                .map(|r| (r.model.context_window, r.known))
        };
        // Per era: a model that release knows and the next does not, or the first to know it;
        // and one only a newer release knows (its fallback's 272,000 tokens).
        let cases = [
            (
                "0.148.0",
                "gpt-5.4-mini",
                272_000,
                "gpt-daybreak-red-latest",
                Some("0.151.0"),
            ),
            (
                "0.151.0",
                "gpt-daybreak-red-latest",
                372_000,
                "gpt-6.2-sol",
                Some("0.171.0"),
            ),
            ("0.171.0", "gpt-6.1-sol", 500_000, "gpt-5.4", None),
        ];
        for (version, own, own_window, other, from) in cases {
            assert_eq!(window(version, own), Some((own_window, true)), "{version}");
            assert_eq!(window(version, other), Some((272_000, false)), "{version}");
            assert_eq!(known_from(Agent::Codex, version, other), from);
        }
        let default = |v: &str| era_for(Agent::Codex, v).unwrap().0.client.models[0].id;
        assert_eq!(default("0.151.0"), "gpt-5.6-sol");
        assert_eq!(default("0.171.0"), "gpt-6.2-sol");
    }
}
