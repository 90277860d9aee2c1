//! The model catalogues of the clients whose listing budget depends on the model: every model the
//! client version knows, with the numbers its budget is made of (context window, characters per
//! token), the names it takes for them (aliases, dated ids) and what it does with a model it does
//! not know. Data read from the clients themselves:
//!
//! - Claude Code 2.1.332: the model catalogue baked into its code (`models`, `aliases`), its
//!   context-window function (a model's `context.window`; a model it does not know: 1,000,000, a
//!   known one without a window: 200,000; `[1m]` after a model: 1,000,000) and its set of older
//!   models it takes 4 characters a token for (every other model 3);
//! - Codex 0.171.0: the `models` list its binary embeds (`slug`, `context_window`); a model not
//!   in it runs on its fallback metadata (a window of 272,000 tokens), as `budget150-configured`
//!   shows for `gpt-5.1-codex`.

/// One model an agent's client runs, as its listing budget sees it.
#[derive(Debug, PartialEq, Eq)]
pub struct ClientModel {
    /// Its id, as the client's `--model` takes it.
    pub id: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// Its context window in tokens, as the client takes it.
    pub context_window: usize,
    /// How many characters the client takes a token for when it makes the window a budget.
    pub chars_per_token: usize,
    /// The family whose token estimate fits it (`core::model::PRESETS`).
    pub family: &'static str,
}

/// What a client takes for the names of its models, and what it does with one it does not know.
#[derive(Debug)]
pub struct Catalogue {
    /// Other names for a model: an alias (`sonnet`) or a dated id, and the model id it means.
    pub aliases: &'static [(&'static str, &'static str)],
    /// A suffix that asks for another window (Claude Code's `[1m]`): the model `ID` written with
    /// it is the catalogue's `ID[1m]` entry where there is one, else the model itself (already
    /// that large).
    pub suffix: Option<&'static str>,
    /// The model the client budgets for when it does not know the one named.
    pub fallback: &'static ClientModel,
}

const fn claude(
    id: &'static str,
    name: &'static str,
    context_window: usize,
    chars_per_token: usize,
) -> ClientModel {
    ClientModel {
        id,
        name,
        context_window,
        chars_per_token,
        family: "claude",
    }
}

const fn gpt(id: &'static str, name: &'static str, context_window: usize) -> ClientModel {
    ClientModel {
        id,
        name,
        context_window,
        chars_per_token: 4,
        family: "gpt-4o",
    }
}

/// Claude Code 2.1.332's models, its default (`claude-opus-5-5`) first, then its catalogue's
/// order; the older models it counts 4 characters a token for, the others 3; a window of
/// 1,000,000 for the models it gives one natively and for `ID[1m]` of those that take the suffix.
pub static CLAUDE_CODE_2_1_332_MODELS: &[ClientModel] = &[
    claude("claude-opus-5-5", "Opus 5.5", 1_000_000, 3),
    claude("claude-3-5-haiku", "Haiku 3.5", 200_000, 4),
    claude("claude-haiku-4-5", "Haiku 4.5", 200_000, 4),
    claude("claude-haiku-5-5", "Haiku 5.5", 1_000_000, 3),
    claude("claude-3-5-sonnet", "Sonnet 3.5", 200_000, 4),
    claude("claude-3-7-sonnet", "Sonnet 3.7", 200_000, 4),
    claude("claude-sonnet-4-0", "Sonnet 4", 200_000, 4),
    claude("claude-sonnet-4-5", "Sonnet 4.5", 200_000, 4),
    claude("claude-sonnet-4-6", "Sonnet 4.6", 200_000, 4),
    claude("claude-sonnet-5", "Sonnet 5", 1_000_000, 3),
    claude("claude-sonnet-5-5", "Sonnet 5.5", 1_000_000, 3),
    claude("claude-opus-4-0", "Opus 4", 200_000, 4),
    claude("claude-opus-4-1", "Opus 4.1", 200_000, 4),
    claude("claude-opus-4-5", "Opus 4.5", 200_000, 4),
    claude("claude-opus-4-6", "Opus 4.6", 200_000, 4),
    claude("claude-opus-4-7", "Opus 4.7", 1_000_000, 3),
    claude("claude-opus-4-8", "Opus 4.8", 1_000_000, 3),
    claude("claude-opus-5", "Opus 5", 1_000_000, 3),
    claude("claude-fable-5", "Fable 5", 1_000_000, 3),
    claude("claude-fable-5-1", "Fable 5.1", 1_000_000, 3),
    claude("claude-fable-5-2", "Fable 5.2", 1_000_000, 3),
    claude("claude-mythos-5", "Mythos 5", 1_000_000, 3),
    claude("claude-mythos-5-1", "Mythos 5.1", 1_000_000, 3),
    claude("claude-mythos-5-2", "Mythos 5.2", 1_000_000, 3),
    claude("claude-haiku-4-5[1m]", "Haiku 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-0[1m]", "Sonnet 4 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-5[1m]", "Sonnet 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-6[1m]", "Sonnet 4.6 (1M)", 1_000_000, 4),
    claude("claude-opus-4-0[1m]", "Opus 4 (1M)", 1_000_000, 4),
    claude("claude-opus-4-1[1m]", "Opus 4.1 (1M)", 1_000_000, 4),
    claude("claude-opus-4-5[1m]", "Opus 4.5 (1M)", 1_000_000, 4),
    claude("claude-opus-4-6[1m]", "Opus 4.6 (1M)", 1_000_000, 4),
];

/// What Claude Code 2.1.332 budgets for a model it does not know: a window of 1,000,000 tokens,
/// 3 characters a token.
static CLAUDE_CODE_2_1_332_FALLBACK: ClientModel = claude(
    "(unknown)",
    "a model Claude Code does not know",
    1_000_000,
    3,
);

/// Claude Code 2.1.332's names: its aliases as a first-party (API key) user gets them (`opusplan`
/// is Sonnet outside plan mode, where a listing is sent; `best` is Opus), and the dated ids of
/// its catalogue's first-party entries.
pub static CLAUDE_CODE_2_1_332_CATALOGUE: Catalogue = Catalogue {
    aliases: &[
        ("default", "claude-opus-5-5"),
        ("best", "claude-opus-5-5"),
        ("opus", "claude-opus-5-5"),
        ("sonnet", "claude-sonnet-5-5"),
        ("haiku", "claude-haiku-5-5"),
        ("fable", "claude-fable-5-2"),
        ("opusplan", "claude-sonnet-5-5"),
        ("claude-3-5-haiku-20241022", "claude-3-5-haiku"),
        ("claude-haiku-4-5-20251001", "claude-haiku-4-5"),
        ("claude-3-5-sonnet-20241022", "claude-3-5-sonnet"),
        ("claude-3-7-sonnet-20250219", "claude-3-7-sonnet"),
        ("claude-sonnet-4-20250514", "claude-sonnet-4-0"),
        ("claude-sonnet-4", "claude-sonnet-4-0"),
        ("claude-sonnet-4-5-20250929", "claude-sonnet-4-5"),
        ("claude-opus-4-20250514", "claude-opus-4-0"),
        ("claude-opus-4", "claude-opus-4-0"),
        ("claude-opus-4-1-20250805", "claude-opus-4-1"),
        ("claude-opus-4-5-20251101", "claude-opus-4-5"),
    ],
    suffix: Some("[1m]"),
    fallback: &CLAUDE_CODE_2_1_332_FALLBACK,
};

/// Codex 0.171.0's models, as its binary's `models` list orders them (by `priority`; its default
/// `gpt-6.2-sol` first), the hidden ones included: a config may name them.
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
    gpt("gpt-5.5", "GPT-5.5", 272_000),
    gpt("codex-auto-review", "Codex Auto Review", 272_000),
];

/// What Codex 0.171.0 budgets for a model it does not know ("This will use fallback model
/// metadata"): a window of 272,000 tokens.
static CODEX_0_171_0_FALLBACK: ClientModel =
    gpt("(unknown)", "a model Codex does not know", 272_000);

/// Codex 0.171.0's names: a model's slug only.
pub static CODEX_0_171_0_CATALOGUE: Catalogue = Catalogue {
    aliases: &[],
    suffix: None,
    fallback: &CODEX_0_171_0_FALLBACK,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_a_model_of_its_catalogue() {
        for (models, cat) in [
            (CLAUDE_CODE_2_1_332_MODELS, &CLAUDE_CODE_2_1_332_CATALOGUE),
            (CODEX_0_171_0_MODELS, &CODEX_0_171_0_CATALOGUE),
        ] {
            for (alias, id) in cat.aliases {
                assert!(models.iter().any(|m| m.id == *id), "{alias} → {id}");
                assert!(!models.iter().any(|m| m.id == *alias), "{alias} is a model");
            }
            let mut ids: Vec<&str> = models.iter().map(|m| m.id).collect();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), models.len(), "a model listed twice");
            assert!(models.iter().all(|m| m.context_window > 0));
        }
        // Each `[1m]` entry is a model of the catalogue with a window of a million.
        for m in CLAUDE_CODE_2_1_332_MODELS {
            if let Some(base) = m.id.strip_suffix("[1m]") {
                let b = CLAUDE_CODE_2_1_332_MODELS.iter().find(|x| x.id == base);
                assert_eq!(b.map(|b| b.chars_per_token), Some(m.chars_per_token));
                assert_eq!(m.context_window, 1_000_000);
            }
        }
    }
}
