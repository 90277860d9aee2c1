//! `skillscope budget`'s arguments, shared by its report and its baseline comparison.

use crate::core::agents::client::ClientModel;
use crate::core::listing::{Format, Tier};
use crate::core::pricing::model::{Model, ModelChoice};
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
    /// (with --agent claude-code or codex: any model that client knows, or one it does not, on
    /// its fallback window) also sets the listing's budget, and estimates with its family
    /// [default for the budget: the model the client's own settings set, else its default].
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
    /// A model of an agent's client (its name as given, the model it means), with its family's
    /// estimate.
    Client(String, &'static ClientModel, ModelChoice),
    /// A name no client's catalogue holds and no family: with `--agent` of a client whose budget
    /// follows its model, that client's fallback; else the family error kept here.
    Unknown(String, String),
}

impl std::str::FromStr for ModelArg {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let client = crate::core::agents::model::models()
            .filter_map(|m| m.client)
            .filter_map(|c| c.resolve(s))
            .find(|r| r.known)
            .map(|r| r.model);
        if let Some(m) = client {
            let family = m.family.parse().map_err(|e| format!("{e}"))?;
            return Ok(ModelArg::Client(
                s.trim().to_string(),
                m,
                ModelChoice(Some(family)),
            ));
        }
        match s.parse::<ModelChoice>() {
            Ok(c) => Ok(ModelArg::Estimate(c)),
            Err(e) => Ok(ModelArg::Unknown(
                s.trim().to_string(),
                format!(
                    "{e}; or a model of an agent's client (with --agent claude-code or codex: any model that client knows)"
                ),
            )),
        }
    }
}

impl BudgetArgs {
    /// The model whose estimate is shown beside the figures, if any.
    pub fn model(&self) -> Option<&Model> {
        match self.model.as_ref()? {
            ModelArg::Estimate(c) | ModelArg::Client(_, _, c) => c.0.as_ref(),
            ModelArg::Unknown(..) => None,
        }
    }

    /// The model of the agent's client asked for, if one is, as given.
    pub fn client_model(&self) -> Option<&str> {
        match self.model.as_ref()? {
            ModelArg::Client(name, _, _) | ModelArg::Unknown(name, _) => Some(name),
            ModelArg::Estimate(_) => None,
        }
    }

    /// The model of the agent's client for this budget: `--model`'s, else the one the client's
    /// settings set (`cli::args::client_model`, said on stderr as `note_client_model` says it);
    /// a `--model` that is neither a family nor a model any client knows is an error unless the
    /// agent's client budgets for unknown models.
    pub fn configured_model(
        &self,
        settings: &crate::core::front::request::ViewSettings,
    ) -> anyhow::Result<Option<crate::core::agents::configured::Configured>> {
        let agent = self.view.agent_for(Some(self.listing()));
        if let Some(ModelArg::Unknown(_, family_error)) = self.model.as_ref() {
            let follows = agent
                .and_then(|a| crate::core::agents::model::model(a).client)
                .is_some_and(|c| c.catalogue.is_some());
            if !follows {
                anyhow::bail!("invalid value for --model: {family_error}");
            }
        }
        let configured = crate::cli::args::client_model(agent, self.client_model(), settings)?;
        crate::cli::args::note_client_model(agent, configured.as_ref());
        Ok(configured)
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
