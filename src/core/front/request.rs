//! One view request, shared by both front ends: whose view (the agent, the model its client
//! runs, the listing format, tier and window, the files taken as open) turned into the listing's
//! options and the agent's library, each made once. What it needs of the agents' settings (the
//! model each client is set to run, each client's budget overrides) is read once into
//! [`ViewSettings`] by whoever may read files: the command line before it works, the app on its
//! settings worker, never its key handler.

use crate::core::Library;
use crate::core::agents::AgentSwitches;
use crate::core::agents::client::{BudgetOverrides, ClientModel, Resolved};
use crate::core::agents::configured::{self, Configured, Origin};
use crate::core::listing::{DEFAULT_CONTEXT_WINDOW, Format, ListingOptions, Tier};
use crate::core::source::Agent;
use std::path::{Path, PathBuf};

/// What the agents' settings say that a view depends on, read once: the model each client whose
/// listing budget follows its model is set to run (and where), and each client's budget
/// overrides (its environment variable, its settings key).
#[derive(Debug, Clone, Default)]
pub struct ViewSettings {
    models: Vec<(Agent, Configured)>,
    overrides: Vec<(Agent, BudgetOverrides)>,
}

impl ViewSettings {
    /// Reads them for `agents` from the settings under `home` and `project` and the environment
    /// `env` (the budget's environment variable is this process's own).
    pub fn read(
        agents: &[Agent],
        home: Option<&Path>,
        project: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> ViewSettings {
        let mut out = ViewSettings::default();
        for &agent in agents {
            if let Some(c) = configured::configured(agent, home, project, env) {
                out.models.push((agent, c));
            }
            if let Some(client) = crate::core::agents::model::model(agent).client_in_use() {
                out.overrides
                    .push((agent, BudgetOverrides::read(client, home, project)));
            }
        }
        out
    }

    /// The model `agent`'s client is set to run, and where; `None` when its budget does not
    /// follow a model.
    pub fn configured(&self, agent: Agent) -> Option<&Configured> {
        self.models
            .iter()
            .find(|(a, _)| *a == agent)
            .map(|(_, c)| c)
    }

    /// Every agent's configured model, as read.
    pub fn models(&self) -> &[(Agent, Configured)] {
        &self.models
    }

    /// What `agent`'s environment and settings say of its listing budget (nothing when they
    /// were not read).
    pub fn overrides(&self, agent: Agent) -> BudgetOverrides {
        self.overrides
            .iter()
            .find(|(a, _)| *a == agent)
            .map_or_else(BudgetOverrides::default, |(_, o)| *o)
    }
}

/// Whose view, and how its listing is made: what `prompt`, `budget`, `inject` and the app's
/// screens ask for.
#[derive(Debug, Clone, Default)]
pub struct ViewRequest {
    /// The agent in view; `None`: every skill as given, in the generic listing.
    pub agent: Option<Agent>,
    /// The model the agent's client runs for this view (chosen, or as its settings set it);
    /// `None`: its client's default, or no model for an agent whose budget follows none.
    pub model: Option<Configured>,
    /// The listing format.
    pub format: Format,
    /// How much of each skill the listing holds.
    pub tier: Tier,
    /// The context window asked for; `None`: the one the settings set, else the model's.
    pub window: Option<usize>,
    /// The files taken as open: a conditional skill is listed while one matches its globs.
    pub files: Vec<PathBuf>,
}

impl ViewRequest {
    /// The model of `agent`'s client at `model`, chosen for this view (not read from settings).
    pub fn chosen_model(model: &'static ClientModel) -> Configured {
        Configured {
            name: model.id.to_string(),
            resolved: Resolved {
                model,
                known: true,
                by_suffix: false,
            },
            origin: Origin::Chosen,
            window: None,
            notes: Vec::new(),
        }
    }

    /// `model`, chosen for this view, as `client` (the release in use) takes a model named for it:
    /// with the window it gives a named model where that is less than the model's own (Claude
    /// Code 2.1.231 and 2.1.270), and the note saying so; as [`Self::chosen_model`] without a
    /// client or when the client resolves the id to another model.
    pub fn chosen_in(
        client: Option<&crate::core::agents::client::Client>,
        model: &'static ClientModel,
    ) -> Configured {
        client
            .and_then(|c| configured::chosen(c, model.id))
            .filter(|c| std::ptr::eq(c.resolved.model, model))
            .unwrap_or_else(|| Self::chosen_model(model))
    }

    /// The listing's options: in an agent's view, as its client sets them for the model in
    /// effect (its built-ins, the budget its environment or settings set in `settings`, its
    /// model's window unless one was asked for); otherwise the generic listing at the window
    /// asked for (else the default one).
    pub fn listing_options(&self, settings: &ViewSettings) -> ListingOptions {
        let Some(agent) = self.agent else {
            return ListingOptions {
                format: self.format,
                tier: self.tier,
                context_window: self.window.unwrap_or(DEFAULT_CONTEXT_WINDOW),
                ..ListingOptions::default()
            };
        };
        let m = crate::core::agents::model::model(agent);
        let chosen = self.model.as_ref().map(|c| c.resolved.model);
        let window = self
            .window
            .or_else(|| self.model.as_ref().and_then(|c| c.window));
        m.listing_options(
            self.format,
            self.tier,
            window,
            chosen,
            &settings.overrides(agent),
        )
    }

    /// The library as the agent in view sees it (its folders, precedence, fallbacks, the open
    /// files, its own switches in `switches`); the whole library when no agent is in view.
    pub fn library(&self, lib: Library, switches: Option<&AgentSwitches>) -> Library {
        match self.agent {
            Some(agent) => {
                crate::core::agents::view::agent_library(&lib, agent, &self.files, switches)
            }
            None => lib,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn without_an_agent_the_listing_is_the_generic_one_at_the_window_asked() {
        let req = ViewRequest {
            format: Format::Xml,
            window: Some(50_000),
            ..ViewRequest::default()
        };
        let opts = req.listing_options(&ViewSettings::default());
        assert_eq!(opts.format, Format::Xml);
        assert_eq!(opts.context_window, 50_000);
        assert!(opts.builtins.is_empty());
        let dflt = ViewRequest::default().listing_options(&ViewSettings::default());
        assert_eq!(dflt.context_window, DEFAULT_CONTEXT_WINDOW);
    }

    #[test]
    fn the_settings_budget_key_read_once_sets_the_agents_budget() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let agent = Agent::ClaudeCode;
        let m = crate::core::agents::model::model(agent);
        let client = m.client_in_use().unwrap();
        let key = client
            .budget_setting
            .expect("Claude Code's listing budget has a settings key");
        let req = ViewRequest {
            agent: Some(agent),
            format: m.format,
            ..ViewRequest::default()
        };
        let unread = req.listing_options(&ViewSettings::default());
        let (user, _) = client.settings_files;
        let file = home.join(user[0]);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, format!("{{\"{key}\": 0.5}}")).unwrap();
        let settings = ViewSettings::read(&[agent], Some(&home), None, &no_env);
        let read = req.listing_options(&settings);
        assert_ne!(read.budget_chars, unread.budget_chars);
        assert_eq!(
            read.budget_chars,
            BudgetOverrides {
                chars: None,
                fraction: Some(0.5)
            }
            .budget(read.context_window, read.chars_per_token)
        );
        // The file changed after the reading: the request keeps what was read.
        std::fs::write(&file, format!("{{\"{key}\": 0.9}}")).unwrap();
        assert_eq!(
            req.listing_options(&settings).budget_chars,
            read.budget_chars
        );
    }

    #[test]
    fn a_model_chosen_takes_the_window_its_release_gives_a_named_model() {
        use crate::core::agents::claude::eras::{CLAUDE_CODE_2_1_270, CLAUDE_CODE_2_1_332};
        // 2.1.270 gives a model named for it at most 200,000 tokens, unless written `ID[1m]`.
        let big = CLAUDE_CODE_2_1_270
            .models
            .iter()
            .find(|m| m.context_window > 200_000 && !m.id.ends_with("[1m]"))
            .expect("2.1.270 knows a model of a larger window");
        let named = ViewRequest::chosen_in(Some(&CLAUDE_CODE_2_1_270), big);
        assert!(std::ptr::eq(named.resolved.model, big));
        assert_eq!(named.window, Some(200_000));
        assert_eq!(named.notes.len(), 1, "{:?}", named.notes);
        // 2.1.332 gives it its own window; without a client, the model as it is.
        let newest = CLAUDE_CODE_2_1_332
            .models
            .iter()
            .find(|m| m.context_window > 200_000)
            .expect("2.1.332 knows a model of a larger window");
        let own = ViewRequest::chosen_in(Some(&CLAUDE_CODE_2_1_332), newest);
        assert_eq!(own.window, None);
        assert!(own.notes.is_empty());
        assert_eq!(ViewRequest::chosen_in(None, big).window, None);
    }

    #[test]
    fn a_model_chosen_sets_the_window_unless_one_is_asked_for() {
        let agent = Agent::ClaudeCode;
        let m = crate::core::agents::model::model(agent);
        let client = m.client_in_use().unwrap();
        let small = client
            .models
            .iter()
            .min_by_key(|c| c.context_window)
            .expect("Claude Code's client has models");
        let mut req = ViewRequest {
            agent: Some(agent),
            model: Some(ViewRequest::chosen_model(small)),
            format: m.format,
            ..ViewRequest::default()
        };
        let settings = ViewSettings::default();
        assert_eq!(
            req.listing_options(&settings).context_window,
            small.context_window
        );
        req.window = Some(12_345);
        assert_eq!(req.listing_options(&settings).context_window, 12_345);
    }

    #[test]
    fn the_library_is_the_agents_view_and_the_whole_library_without_one() {
        let dir = tempfile::tempdir().unwrap();
        let codex = dir.path().join(".codex/skills/only-codex");
        std::fs::create_dir_all(&codex).unwrap();
        std::fs::write(
            codex.join("SKILL.md"),
            "---\nname: only-codex\ndescription: d\n---\nbody\n",
        )
        .unwrap();
        let roots = vec![crate::core::source::Root::new(
            dir.path().join(".codex/skills"),
            Agent::Codex,
            crate::core::source::Scope::User,
        )];
        let lib = Library::load(roots, &crate::core::scan::ScanOptions::default());
        assert_eq!(lib.len(), 1);
        let whole = ViewRequest::default().library(lib.clone(), None);
        assert_eq!(whole.len(), 1);
        assert_eq!(whole.agent, None);
        let codex_view = ViewRequest {
            agent: Some(Agent::Codex),
            ..ViewRequest::default()
        }
        .library(lib.clone(), None);
        assert_eq!(codex_view.agent, Some(Agent::Codex));
        assert_eq!(codex_view.len(), 1);
        let claude_view = ViewRequest {
            agent: Some(Agent::ClaudeCode),
            ..ViewRequest::default()
        }
        .library(lib, None);
        assert_eq!(claude_view.len(), 0);
    }
}
