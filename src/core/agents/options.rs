//! An agent's own listing options: its format, its client model's window and characters per
//! token, the budget its environment or settings set, and its client's built-in entries. Above
//! the model (`model.rs`) and the listing, which it joins.

use super::client::{BudgetOverrides, ClientError, ClientModel};
use super::model::{AgentModel, models};
use crate::core::listing::{DEFAULT_CONTEXT_WINDOW, Format, ListingOptions, Tier};

impl AgentModel {
    /// Its own listing in `format` at `tier`: for an agent whose budget depends on its client's
    /// model, that model's window (`window` when given) and characters per token, the budget the
    /// environment or its settings set (`overrides`); its client's built-in entries (and the
    /// folder the client is installed in, for their locations) when `format` is its own; for the
    /// others, the share of `window` (else the default window).
    pub fn listing_options(
        &self,
        format: Format,
        tier: Tier,
        window: Option<usize>,
        chosen: Option<&'static ClientModel>,
        overrides: &BudgetOverrides,
    ) -> ListingOptions {
        let generic = ListingOptions {
            format,
            tier,
            context_window: window.unwrap_or(DEFAULT_CONTEXT_WINDOW),
            ..ListingOptions::default()
        };
        let Some(client) = self.client_in_use() else {
            return generic;
        };
        let own = format == self.format;
        let dialect = if own {
            self.dialect()
        } else {
            crate::core::listing::Dialect::CURRENT
        };
        let builtins = if own { client.builtins } else { &[] };
        let client_dir = client
            .install
            .filter(|_| own)
            .map(super::client::Install::dir);
        let Some(m) = chosen.or_else(|| client.default_model()) else {
            return ListingOptions {
                builtins,
                client_dir,
                dialect,
                ..generic
            };
        };
        let context_window = window.unwrap_or(m.context_window);
        ListingOptions {
            context_window,
            chars_per_token: m.chars_per_token,
            budget_chars: overrides.budget(context_window, m.chars_per_token),
            builtins,
            client_dir,
            dialect,
            skills_usage: own && m.skills_usage,
            ..generic
        }
    }

    /// The client whose release the views of this agent use: the era of the installed release
    /// (`eras::in_use`), else the release the model was verified against.
    pub fn client_in_use(&self) -> Option<&'static super::client::Client> {
        super::eras::in_use(self.agent)
            .map(|c| c.era.client)
            .or(self.client)
    }

    /// How the release in use writes its listing where releases differ.
    pub fn dialect(&self) -> crate::core::listing::Dialect {
        super::eras::in_use(self.agent)
            .map_or(crate::core::listing::Dialect::CURRENT, |c| c.era.dialect)
    }

    /// The client model named `id`: an error names the ones known (or says the agent's budget
    /// does not depend on its model).
    pub fn client_model(&self, id: &str) -> Result<&'static ClientModel, ClientError> {
        self.client_model_check()?;
        match self.client_in_use() {
            Some(c) => c.model(id, self.name),
            None => Err(self.no_models()),
        }
    }

    /// An error when its listing budget does not depend on a model (so `--model` means nothing
    /// for it), naming the agents whose budget does.
    pub fn client_model_check(&self) -> Result<(), ClientError> {
        match self.client_in_use().filter(|c| !c.models.is_empty()) {
            Some(_) => Ok(()),
            None => Err(self.no_models()),
        }
    }

    fn no_models(&self) -> ClientError {
        ClientError::NoModels {
            agent: self.name,
            known: models()
                .filter(|m| m.client.is_some_and(|c| !c.models.is_empty()))
                .map(|m| m.agent.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
