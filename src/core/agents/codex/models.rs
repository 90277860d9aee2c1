//! Codex's model catalogue per release era: the `models` list each release's binary embeds
//! (every model by `priority`, the hidden ones too: a config may name them; its default first)
//! with their context windows, and what a model not in it gets (its fallback metadata's window of
//! 272,000 tokens). Read by `scripts/client-catalogue.py codex VERSION` and pasted here as
//! printed; the next release is one command.
//!
//! What the releases differ in: 0.148.0 knows 8 models (default `gpt-5.6-sol`), 0.151.0 adds the
//! two Daybreak models, 0.171.0 the GPT-6 models (default `gpt-6.2-sol`, window 500,000) and
//! drops `gpt-5.4`, `gpt-5.4-mini` and `gpt-5.2`. The models whose entry sets
//! `include_skills_usage_instructions` (`.with_skills_usage()`) are sent Codex's "How to use
//! skills" section after the listing: on 0.148.0 `gpt-5.5`, `gpt-5.4`, `gpt-5.4-mini`, `gpt-5.2`
//! and `codex-auto-review`; on 0.151.0 the same but `codex-auto-review`; on 0.171.0 `gpt-5.5`
//! alone. None of the defaults is, nor a model the release does not know.

use crate::core::agents::client_models::{Catalogue, ClientModel, gpt};

/// The id shown for the fallback of a model the client does not know.
const UNKNOWN: &str = "(unknown)";
/// Its name for people.
const UNKNOWN_NAME: &str = "a model Codex does not know";

/// Codex 0.148.0's models (`scripts/client-catalogue.py codex 0.148.0`), its
/// default first.
pub static CODEX_0_148_0_MODELS: &[ClientModel] = &[
    gpt("gpt-5.6-sol", "GPT-5.6-Sol", 272_000),
    gpt("gpt-5.6-terra", "GPT-5.6-Terra", 272_000),
    gpt("gpt-5.6-luna", "GPT-5.6-Luna", 272_000),
    gpt("gpt-5.5", "GPT-5.5", 272_000).with_skills_usage(),
    gpt("gpt-5.4", "GPT-5.4", 272_000).with_skills_usage(),
    gpt("gpt-5.4-mini", "GPT-5.4-Mini", 272_000).with_skills_usage(),
    gpt("gpt-5.2", "GPT-5.2", 272_000).with_skills_usage(),
    gpt("codex-auto-review", "Codex Auto Review", 272_000).with_skills_usage(),
];

/// What Codex 0.148.0 budgets for a model it does not know.
static CODEX_0_148_0_FALLBACK: ClientModel = gpt(UNKNOWN, UNKNOWN_NAME, 272_000);

/// Codex 0.148.0's names for its models.
pub static CODEX_0_148_0_CATALOGUE: Catalogue = Catalogue {
    aliases: &[],
    suffix: None,
    fallback: &CODEX_0_148_0_FALLBACK,
    suffixed: None,
    named_window: None,
};

/// Codex 0.151.0's models (`scripts/client-catalogue.py codex 0.151.0`), its
/// default first.
pub static CODEX_0_151_0_MODELS: &[ClientModel] = &[
    gpt("gpt-5.6-sol", "GPT-5.6-Sol", 272_000),
    gpt("gpt-5.6-terra", "GPT-5.6-Terra", 272_000),
    gpt("gpt-5.6-luna", "GPT-5.6-Luna", 272_000),
    gpt("gpt-daybreak-blue-latest", "Daybreak Blue", 272_000),
    gpt("gpt-daybreak-red-latest", "Daybreak Red", 372_000),
    gpt("gpt-5.5", "GPT-5.5", 272_000).with_skills_usage(),
    gpt("gpt-5.4", "GPT-5.4", 272_000).with_skills_usage(),
    gpt("gpt-5.4-mini", "GPT-5.4-Mini", 272_000).with_skills_usage(),
    gpt("gpt-5.2", "GPT-5.2", 272_000).with_skills_usage(),
    gpt("codex-auto-review", "Codex Auto Review", 272_000),
];

/// What Codex 0.151.0 budgets for a model it does not know.
static CODEX_0_151_0_FALLBACK: ClientModel = gpt(UNKNOWN, UNKNOWN_NAME, 272_000);

/// Codex 0.151.0's names for its models.
pub static CODEX_0_151_0_CATALOGUE: Catalogue = Catalogue {
    aliases: &[],
    suffix: None,
    fallback: &CODEX_0_151_0_FALLBACK,
    suffixed: None,
    named_window: None,
};

/// Codex 0.171.0's models (`scripts/client-catalogue.py codex 0.171.0`), its
/// default first.
pub static CODEX_0_171_0_MODELS: &[ClientModel] = &[
    gpt("gpt-6.2-sol", "GPT-6.2-Sol", 500_000),
    gpt("gpt-6.2-astra", "GPT-6.2-Astra", 272_000),
    gpt("gpt-6.1-terra", "GPT-6.1 Terra", 500_000),
    gpt("gpt-6.1-sol", "GPT-6.1-Sol", 500_000),
    gpt("gpt-6-astra", "GPT-6-Astra", 272_000),
    gpt("gpt-6-sol", "GPT-6-Sol", 272_000),
    gpt("gpt-6-luna", "GPT-6-Luna", 272_000),
    gpt("gpt-5.6-sol", "GPT-5.6-Sol", 272_000),
    gpt("gpt-5.6-terra", "GPT-5.6-Terra", 272_000),
    gpt("gpt-5.6-luna", "GPT-5.6-Luna", 272_000),
    gpt("gpt-daybreak-blue-latest", "Daybreak Blue", 272_000),
    gpt("gpt-daybreak-red-latest", "Daybreak Red", 372_000),
    gpt("gpt-5.5", "GPT-5.5", 272_000).with_skills_usage(),
    gpt("codex-auto-review", "Codex Auto Review", 272_000),
];

/// What Codex 0.171.0 budgets for a model it does not know.
static CODEX_0_171_0_FALLBACK: ClientModel = gpt(UNKNOWN, UNKNOWN_NAME, 272_000);

/// Codex 0.171.0's names for its models.
pub static CODEX_0_171_0_CATALOGUE: Catalogue = Catalogue {
    aliases: &[],
    suffix: None,
    fallback: &CODEX_0_171_0_FALLBACK,
    suffixed: None,
    named_window: None,
};
