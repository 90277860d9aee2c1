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

/// Codex 0.148.0's and 0.151.0's "How to use skills" before absolute paths (captured:
/// `codex@0.148.0/mixed-gpt54`; the same text in 0.151.0's binary).
const CODEX_0_148_USAGE: &str = concat!(
    "- Discovery: The list above is the skills available in this session (name + description + source locator). `file` entries live on the host filesystem, `executor package` and `orchestrator package` entries are accessed directly through `skills.read`, and `custom resource` entries use their provider's access mechanism.\n",
    "- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.\n",
    "- Missing/blocked: If a named skill isn't in the list or its source can't be read, say so briefly and continue with the best fallback.\n",
    "- How to use a skill (progressive disclosure):\n",
    "  1) After deciding to use a skill, the main agent must read its `SKILL.md` completely before taking task actions. For a `file` entry, open the listed path. For an `executor package` or `orchestrator package`, pass the listed locator directly to `skills.read` as `package`; root aliases are resolved automatically. Omit `resource` to read `SKILL.md` directly without calling `skills.list`. If a read is paginated, follow `next_cursor` until EOF.\n",
    "  2) When `SKILL.md` references another resource, use the same access mechanism. For executor and orchestrator skills, pass the complete package-contained resource identifier with the same package to `skills.read`; do not treat `skill://` identifiers as filesystem paths.\n",
    "  3) If `SKILL.md` points to extra folders such as `references/`, use its routing instructions to identify the resources required for the task. The main agent must read each required instruction or reference file itself before acting on it. Do not delegate reading, summarizing, or interpreting skill instructions to a subagent. Subagents may still perform task work when the selected skill allows it.\n",
    "  4) For filesystem-backed skills, prefer running or patching provided scripts instead of retyping large code blocks. For executor and orchestrator skills, use `skills.read` and the available tools; do not invent a local path.\n",
    "  5) Reuse provided assets or templates through the same source access mechanism instead of recreating them.\n",
    "- Coordination and sequencing:\n",
    "  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.\n",
    "  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.\n",
    "- Context hygiene:\n",
    "  - Progressive disclosure applies to selecting relevant files, not partially reading a selected instruction file. Do not load unrelated references, scripts, or assets.\n",
    "  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` unless you're blocked.\n",
    "  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.\n",
    "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue.",
);

/// Codex's eras, oldest first.
pub(crate) static CODEX_ERAS: &[Era] = &[
    Era {
        client: &CODEX_0_148_0,
        dialect: Dialect {
            roots_when_cheaper: false,
            codex_plain_intro: Some(CODEX_0_148_INTRO),
            codex_plain_usage: Some(CODEX_0_148_USAGE),
            ..Dialect::CURRENT
        },
    },
    Era {
        client: &CODEX_0_151_0,
        dialect: Dialect {
            codex_plain_usage: Some(CODEX_0_148_USAGE),
            ..Dialect::CURRENT
        },
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
