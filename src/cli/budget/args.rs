//! `skillscope budget`'s arguments, shared by its report and its baseline comparison.

use crate::core::agents::client::ClientModel;
use crate::core::listing::{Format, Tier};
use crate::core::model::{Model, ModelChoice};
use crate::core::tokens::Encoding;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
    /// A short table for a pull-request comment.
    Markdown,
}

#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Encoding: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: Encoding,
    /// Output: a table (biggest skills first), JSON, or markdown for a pull-request comment.
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// The listing format whose entries are L1: xml, markdown, claude-code, codex, lazy-skills,
    /// gemini or opencode [default: the agent's own with --agent, else xml].
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::cli::complete::listings))]
    pub listing: Option<Format>,
    /// The listing tier: auto, full, compact or names.
    #[arg(long, default_value_t = Tier::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::tiers))]
    pub tier: Tier,
    /// The model's context window in tokens (the claude-code and codex budgets are a share of it)
    /// [default: the agent's model's (Claude Code on its default model: 1,000,000), else 200000].
    #[arg(long)]
    pub context_window: Option<usize>,
    /// Show only the N biggest skills in the table.
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,
    /// Exit with 1 when the listing costs more than this many tokens per turn.
    #[arg(long, value_name = "TOKENS")]
    pub max_listing_tokens: Option<usize>,
    /// Exit with 1 when the listing is bigger than the context window.
    #[arg(long)]
    pub fail_over_window: bool,
    /// Count everything afresh and leave the on-disk token cache alone.
    #[arg(long)]
    pub no_cache: bool,
    #[command(flatten)]
    pub scope: crate::cli::args::ScopeArgs,
    #[command(flatten)]
    pub view: crate::cli::args::AgentArgs,
    /// Also show each figure as the model would count it: claude, gemini, gpt-4o, gpt-4, or
    /// NAME=FACTOR; `none` for no estimate (also over the config file's). Shown as "≈ N
    /// (model)" beside the tiktoken figure, never instead of it. A model of the agent's client
    /// (with --agent claude-code: claude-opus-5-5, its default, or claude-sonnet-4-5; with
    /// --agent codex: gpt-6.2-sol) also sets the listing's budget, and estimates with its family.
    #[arg(long, value_name = "MODEL", add = clap_complete::ArgValueCandidates::new(crate::cli::complete::models))]
    pub model: Option<ModelArg>,
    /// Write the library's budget (every skill's costs and fate per listing format) to FILE.
    #[arg(long, value_name = "FILE")]
    pub save_baseline: Option<PathBuf>,
    /// Print the change since a baseline FILE written by --save-baseline.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline_ref")]
    pub baseline: Option<PathBuf>,
    /// Print the change since the library as it was at a git commit (read from git; the work
    /// tree and the index are left alone).
    #[arg(long, value_name = "GIT_REF")]
    pub baseline_ref: Option<String>,
    /// With a baseline: exit 1 when a listing's tokens per turn grow by more than N.
    #[arg(long, value_name = "N")]
    pub fail_on_increase: Option<u64>,
    /// With a baseline: exit 1 when a skill leaves a listing it was in (its fate becomes dropped).
    #[arg(long)]
    pub fail_on_drop: bool,
}

/// What `budget --model` takes: a model family's estimate, or a model an agent's client runs
/// (which sets that agent's budget and estimates with its family).
#[derive(Debug, Clone)]
pub enum ModelArg {
    /// An estimate only.
    Estimate(ModelChoice),
    /// A model of an agent's client, with its family's estimate.
    Client(&'static ClientModel, ModelChoice),
}

impl std::str::FromStr for ModelArg {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let client = crate::core::agents::model::MODELS
            .iter()
            .filter_map(|m| m.client)
            .flat_map(|c| c.models)
            .find(|m| m.id.eq_ignore_ascii_case(s.trim()));
        if let Some(m) = client {
            let family = m.family.parse().map_err(|e| format!("{e}"))?;
            return Ok(ModelArg::Client(m, ModelChoice(Some(family))));
        }
        s.parse::<ModelChoice>()
            .map(ModelArg::Estimate)
            .map_err(|e| {
                let ids: Vec<&str> = crate::core::agents::model::MODELS
                    .iter()
                    .filter_map(|m| m.client)
                    .flat_map(|c| c.models)
                    .map(|m| m.id)
                    .collect();
                format!("{e}; or a model of an agent's client: {}", ids.join(", "))
            })
    }
}

impl BudgetArgs {
    /// The model whose estimate is shown beside the figures, if any.
    pub fn model(&self) -> Option<&Model> {
        match self.model.as_ref()? {
            ModelArg::Estimate(c) | ModelArg::Client(_, c) => c.0.as_ref(),
        }
    }

    /// The model of the agent's client asked for, if one is.
    pub fn client_model(&self) -> Option<&'static str> {
        match self.model.as_ref()? {
            ModelArg::Client(m, _) => Some(m.id),
            ModelArg::Estimate(_) => None,
        }
    }

    /// The listing format: the one asked for, else the agent's own, else xml.
    pub fn listing(&self) -> Format {
        self.listing
            .or_else(|| {
                self.view
                    .agent
                    .map(|a| crate::core::agents::model::model(a).format)
            })
            .unwrap_or_default()
    }
}
