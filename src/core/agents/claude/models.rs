//! Claude Code's model catalogue per release era: every model the release knows with its context
//! window and characters per token, its names for them (aliases, dated ids) and the window it
//! gives a model it does not know. Read from each release's own code by
//! `scripts/client-catalogue.py claude-code VERSION` (the catalogue object baked into it, its set
//! of older models at 4 characters a token, the last return of its context-window function) and
//! pasted here as printed; the next release is one command.
//!
//! What the releases differ in: 2.1.231 knows 17 models (default `claude-opus-5`, `best` the
//! newest Fable), 2.1.270 adds Fable 5.1 and Mythos 5.1, 2.1.290 Opus 5.5 (the default from there) and
//! Sonnet 5.5, 2.1.300 Haiku 5.5, 2.1.332 Fable 5.2 and Mythos 5.2 (`best` is Opus there). A model
//! it does not know gets 200,000 tokens before 2.1.332 and 1,000,000 from it on (at 3 characters
//! a token), and 1,000,000 in every release when its name holds `[1m]` (`SUFFIXED`).

use crate::core::agents::client_models::{Catalogue, ClientModel, claude};

/// The id shown for the fallback of a model the client does not know.
const UNKNOWN: &str = "(unknown)";
/// Its name for people.
const UNKNOWN_NAME: &str = "a model Claude Code does not know";
/// The id shown for a model the client does not know, named with `[1m]`.
const UNKNOWN_1M: &str = "(unknown)[1m]";
/// Its name for people.
const UNKNOWN_1M_NAME: &str = "a model Claude Code does not know, named with [1m]";

/// Claude Code 2.1.231's models (`scripts/client-catalogue.py claude-code 2.1.231`), its
/// default first.
pub static CLAUDE_CODE_2_1_231_MODELS: &[ClientModel] = &[
    claude("claude-opus-5", "Opus 5", 1_000_000, 3),
    claude("claude-3-5-haiku", "Haiku 3.5", 200_000, 4),
    claude("claude-haiku-4-5", "Haiku 4.5", 200_000, 4),
    claude("claude-3-5-sonnet", "Sonnet 3.5", 200_000, 4),
    claude("claude-3-7-sonnet", "Sonnet 3.7", 200_000, 4),
    claude("claude-sonnet-4-0", "Sonnet 4", 200_000, 4),
    claude("claude-sonnet-4-5", "Sonnet 4.5", 200_000, 4),
    claude("claude-sonnet-4-6", "Sonnet 4.6", 200_000, 4),
    claude("claude-sonnet-5", "Sonnet 5", 1_000_000, 3),
    claude("claude-opus-4-0", "Opus 4", 200_000, 4),
    claude("claude-opus-4-1", "Opus 4.1", 200_000, 4),
    claude("claude-opus-4-5", "Opus 4.5", 200_000, 4),
    claude("claude-opus-4-6", "Opus 4.6", 200_000, 4),
    claude("claude-opus-4-7", "Opus 4.7", 1_000_000, 3),
    claude("claude-opus-4-8", "Opus 4.8", 1_000_000, 3),
    claude("claude-fable-5", "Fable 5", 1_000_000, 3),
    claude("claude-mythos-5", "Mythos 5", 1_000_000, 3),
    claude("claude-haiku-4-5[1m]", "Haiku 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-0[1m]", "Sonnet 4 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-5[1m]", "Sonnet 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-6[1m]", "Sonnet 4.6 (1M)", 1_000_000, 4),
    claude("claude-opus-4-0[1m]", "Opus 4 (1M)", 1_000_000, 4),
    claude("claude-opus-4-1[1m]", "Opus 4.1 (1M)", 1_000_000, 4),
    claude("claude-opus-4-5[1m]", "Opus 4.5 (1M)", 1_000_000, 4),
    claude("claude-opus-4-6[1m]", "Opus 4.6 (1M)", 1_000_000, 4),
];

/// What Claude Code 2.1.231 budgets for a model it does not know.
static CLAUDE_CODE_2_1_231_FALLBACK: ClientModel = claude(UNKNOWN, UNKNOWN_NAME, 200_000, 3);

/// What Claude Code 2.1.231 budgets for a name holding `[1m]` when it does not know the model.
static CLAUDE_CODE_2_1_231_SUFFIXED: ClientModel =
    claude(UNKNOWN_1M, UNKNOWN_1M_NAME, 1_000_000, 3);

/// Claude Code 2.1.231's names for its models.
pub static CLAUDE_CODE_2_1_231_CATALOGUE: Catalogue = Catalogue {
    aliases: &[
        ("default", "claude-opus-5"),
        ("best", "claude-fable-5"),
        ("opus", "claude-opus-5"),
        ("sonnet", "claude-sonnet-5"),
        ("haiku", "claude-haiku-4-5"),
        ("fable", "claude-fable-5"),
        ("opusplan", "claude-sonnet-5"),
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
    fallback: &CLAUDE_CODE_2_1_231_FALLBACK,
    suffixed: Some(&CLAUDE_CODE_2_1_231_SUFFIXED),
    named_window: Some(200_000),
};

/// Claude Code 2.1.270's models (`scripts/client-catalogue.py claude-code 2.1.270`), its
/// default first.
pub static CLAUDE_CODE_2_1_270_MODELS: &[ClientModel] = &[
    claude("claude-opus-5", "Opus 5", 1_000_000, 3),
    claude("claude-3-5-haiku", "Haiku 3.5", 200_000, 4),
    claude("claude-haiku-4-5", "Haiku 4.5", 200_000, 4),
    claude("claude-3-5-sonnet", "Sonnet 3.5", 200_000, 4),
    claude("claude-3-7-sonnet", "Sonnet 3.7", 200_000, 4),
    claude("claude-sonnet-4-0", "Sonnet 4", 200_000, 4),
    claude("claude-sonnet-4-5", "Sonnet 4.5", 200_000, 4),
    claude("claude-sonnet-4-6", "Sonnet 4.6", 200_000, 4),
    claude("claude-sonnet-5", "Sonnet 5", 1_000_000, 3),
    claude("claude-opus-4-0", "Opus 4", 200_000, 4),
    claude("claude-opus-4-1", "Opus 4.1", 200_000, 4),
    claude("claude-opus-4-5", "Opus 4.5", 200_000, 4),
    claude("claude-opus-4-6", "Opus 4.6", 200_000, 4),
    claude("claude-opus-4-7", "Opus 4.7", 1_000_000, 3),
    claude("claude-opus-4-8", "Opus 4.8", 1_000_000, 3),
    claude("claude-fable-5", "Fable 5", 1_000_000, 3),
    claude("claude-fable-5-1", "Fable 5.1", 1_000_000, 3),
    claude("claude-mythos-5", "Mythos 5", 1_000_000, 3),
    claude("claude-mythos-5-1", "Mythos 5.1", 1_000_000, 3),
    claude("claude-haiku-4-5[1m]", "Haiku 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-0[1m]", "Sonnet 4 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-5[1m]", "Sonnet 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-6[1m]", "Sonnet 4.6 (1M)", 1_000_000, 4),
    claude("claude-opus-4-0[1m]", "Opus 4 (1M)", 1_000_000, 4),
    claude("claude-opus-4-1[1m]", "Opus 4.1 (1M)", 1_000_000, 4),
    claude("claude-opus-4-5[1m]", "Opus 4.5 (1M)", 1_000_000, 4),
    claude("claude-opus-4-6[1m]", "Opus 4.6 (1M)", 1_000_000, 4),
];

/// What Claude Code 2.1.270 budgets for a model it does not know.
static CLAUDE_CODE_2_1_270_FALLBACK: ClientModel = claude(UNKNOWN, UNKNOWN_NAME, 200_000, 3);

/// What Claude Code 2.1.270 budgets for a name holding `[1m]` when it does not know the model.
static CLAUDE_CODE_2_1_270_SUFFIXED: ClientModel =
    claude(UNKNOWN_1M, UNKNOWN_1M_NAME, 1_000_000, 3);

/// Claude Code 2.1.270's names for its models.
pub static CLAUDE_CODE_2_1_270_CATALOGUE: Catalogue = Catalogue {
    aliases: &[
        ("default", "claude-opus-5"),
        ("best", "claude-fable-5-1"),
        ("opus", "claude-opus-5"),
        ("sonnet", "claude-sonnet-5"),
        ("haiku", "claude-haiku-4-5"),
        ("fable", "claude-fable-5-1"),
        ("opusplan", "claude-sonnet-5"),
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
    fallback: &CLAUDE_CODE_2_1_270_FALLBACK,
    suffixed: Some(&CLAUDE_CODE_2_1_270_SUFFIXED),
    named_window: Some(200_000),
};

/// Claude Code 2.1.290's models (`scripts/client-catalogue.py claude-code 2.1.290`), its
/// default first.
pub static CLAUDE_CODE_2_1_290_MODELS: &[ClientModel] = &[
    claude("claude-opus-5-5", "Opus 5.5", 1_000_000, 3),
    claude("claude-3-5-haiku", "Haiku 3.5", 200_000, 4),
    claude("claude-haiku-4-5", "Haiku 4.5", 200_000, 4),
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
    claude("claude-mythos-5", "Mythos 5", 1_000_000, 3),
    claude("claude-mythos-5-1", "Mythos 5.1", 1_000_000, 3),
    claude("claude-haiku-4-5[1m]", "Haiku 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-0[1m]", "Sonnet 4 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-5[1m]", "Sonnet 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-6[1m]", "Sonnet 4.6 (1M)", 1_000_000, 4),
    claude("claude-opus-4-0[1m]", "Opus 4 (1M)", 1_000_000, 4),
    claude("claude-opus-4-1[1m]", "Opus 4.1 (1M)", 1_000_000, 4),
    claude("claude-opus-4-5[1m]", "Opus 4.5 (1M)", 1_000_000, 4),
    claude("claude-opus-4-6[1m]", "Opus 4.6 (1M)", 1_000_000, 4),
];

/// What Claude Code 2.1.290 budgets for a model it does not know.
static CLAUDE_CODE_2_1_290_FALLBACK: ClientModel = claude(UNKNOWN, UNKNOWN_NAME, 200_000, 3);

/// What Claude Code 2.1.290 budgets for a name holding `[1m]` when it does not know the model.
static CLAUDE_CODE_2_1_290_SUFFIXED: ClientModel =
    claude(UNKNOWN_1M, UNKNOWN_1M_NAME, 1_000_000, 3);

/// Claude Code 2.1.290's names for its models.
pub static CLAUDE_CODE_2_1_290_CATALOGUE: Catalogue = Catalogue {
    aliases: &[
        ("default", "claude-opus-5-5"),
        ("best", "claude-fable-5-1"),
        ("opus", "claude-opus-5-5"),
        ("sonnet", "claude-sonnet-5-5"),
        ("haiku", "claude-haiku-4-5"),
        ("fable", "claude-fable-5-1"),
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
    fallback: &CLAUDE_CODE_2_1_290_FALLBACK,
    suffixed: Some(&CLAUDE_CODE_2_1_290_SUFFIXED),
    named_window: None,
};

/// Claude Code 2.1.300's models (`scripts/client-catalogue.py claude-code 2.1.300`), its
/// default first.
pub static CLAUDE_CODE_2_1_300_MODELS: &[ClientModel] = &[
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
    claude("claude-mythos-5", "Mythos 5", 1_000_000, 3),
    claude("claude-mythos-5-1", "Mythos 5.1", 1_000_000, 3),
    claude("claude-haiku-4-5[1m]", "Haiku 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-0[1m]", "Sonnet 4 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-5[1m]", "Sonnet 4.5 (1M)", 1_000_000, 4),
    claude("claude-sonnet-4-6[1m]", "Sonnet 4.6 (1M)", 1_000_000, 4),
    claude("claude-opus-4-0[1m]", "Opus 4 (1M)", 1_000_000, 4),
    claude("claude-opus-4-1[1m]", "Opus 4.1 (1M)", 1_000_000, 4),
    claude("claude-opus-4-5[1m]", "Opus 4.5 (1M)", 1_000_000, 4),
    claude("claude-opus-4-6[1m]", "Opus 4.6 (1M)", 1_000_000, 4),
];

/// What Claude Code 2.1.300 budgets for a model it does not know.
static CLAUDE_CODE_2_1_300_FALLBACK: ClientModel = claude(UNKNOWN, UNKNOWN_NAME, 200_000, 3);

/// What Claude Code 2.1.300 budgets for a name holding `[1m]` when it does not know the model.
static CLAUDE_CODE_2_1_300_SUFFIXED: ClientModel =
    claude(UNKNOWN_1M, UNKNOWN_1M_NAME, 1_000_000, 3);

/// Claude Code 2.1.300's names for its models.
pub static CLAUDE_CODE_2_1_300_CATALOGUE: Catalogue = Catalogue {
    aliases: &[
        ("default", "claude-opus-5-5"),
        ("best", "claude-fable-5-1"),
        ("opus", "claude-opus-5-5"),
        ("sonnet", "claude-sonnet-5-5"),
        ("haiku", "claude-haiku-5-5"),
        ("fable", "claude-fable-5-1"),
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
    fallback: &CLAUDE_CODE_2_1_300_FALLBACK,
    suffixed: Some(&CLAUDE_CODE_2_1_300_SUFFIXED),
    named_window: None,
};

/// Claude Code 2.1.332's models (`scripts/client-catalogue.py claude-code 2.1.332`), its
/// default first.
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

/// What Claude Code 2.1.332 budgets for a model it does not know.
static CLAUDE_CODE_2_1_332_FALLBACK: ClientModel = claude(UNKNOWN, UNKNOWN_NAME, 1_000_000, 3);

/// What Claude Code 2.1.332 budgets for a name holding `[1m]` when it does not know the model.
static CLAUDE_CODE_2_1_332_SUFFIXED: ClientModel =
    claude(UNKNOWN_1M, UNKNOWN_1M_NAME, 1_000_000, 3);

/// Claude Code 2.1.332's names for its models.
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
    suffixed: Some(&CLAUDE_CODE_2_1_332_SUFFIXED),
    named_window: None,
};
