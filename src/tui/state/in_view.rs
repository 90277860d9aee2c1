//! Whose view every screen shows: the agent in view, the model its client runs once `m` chose
//! one, the files taken as open, and what the agents' settings say of them (read on the
//! settings worker, never on a key). A change goes through [`InView::change`], which says what
//! follows from it; the app carries that out in one place (`App::set_view`).

use crate::core::Agent;
use crate::core::agents::client::ClientModel;
use crate::core::front::request::{ViewRequest, ViewSettings};
use crate::core::listing::{Format, Tier};
use std::path::PathBuf;

/// The views every screen cycles through: every skill, then each agent's own (every agent of
/// [`Agent::ALL`] but the last two, the folders given and the demo, which are no agent's view).
pub const AGENTS: [Option<Agent>; Agent::ALL.len() - 1] = {
    let mut out = [None; Agent::ALL.len() - 1];
    let mut i = 0;
    while i + 2 < Agent::ALL.len() {
        out[i + 1] = Some(Agent::ALL[i]);
        i += 1;
    }
    out
};

/// The view every screen shows.
#[derive(Debug, Clone, Default)]
pub struct InView {
    /// Whose view (an index into [`AGENTS`]): every skill, or one agent's.
    agent: usize,
    /// The files taken as open: an agent's conditional skills (`paths:`) are listed while one
    /// of them matches.
    files: Vec<PathBuf>,
    /// The model `m` chose for the agent in view (an index into its client's models); `None`:
    /// it runs the one its settings set.
    model: Option<usize>,
    /// What the agents' settings say that a view depends on, as last read.
    settings: ViewSettings,
}

/// One change of the view.
#[derive(Debug, Clone)]
pub enum ViewChange {
    /// View this agent (`None`: every skill as given).
    Agent(Option<Agent>),
    /// Take these files as open.
    Files(Vec<PathBuf>),
    /// Run this model of the agent's client (an index into its models).
    Model(usize),
    /// The agents' settings as read again.
    Settings(ViewSettings),
}

/// What follows a change of the view: which of the app's work starts again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Follows {
    /// Another agent: the listing format follows it, and every L1 is counted again.
    pub agent: bool,
    /// What the agent in view does with each skill is worked out again.
    pub seen: bool,
    /// The Test box answers again (its skills, its agent's view).
    pub matchers: bool,
    /// The preview and every agent's prices are made again.
    pub listing: bool,
}

impl InView {
    /// The view a listing in `format` starts with: that format's own agent, else every skill.
    pub fn starting(format: Format) -> InView {
        InView {
            agent: crate::core::agents::model::agent_of_format(format)
                .and_then(|a| AGENTS.iter().position(|x| *x == Some(a)))
                .unwrap_or(0),
            ..InView::default()
        }
    }

    /// The agent in view, if one is.
    pub fn agent(&self) -> Option<Agent> {
        AGENTS.get(self.agent).copied().flatten()
    }

    /// The files taken as open.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// The agents' settings as last read.
    pub fn settings(&self) -> &ViewSettings {
        &self.settings
    }

    /// The agent a new library is seen through when none is in view: of a library of the
    /// agents' own folders (`per_agent`), the first agent that reads a skill of it (`readers`)
    /// and is offered (`offered`), else the first agent. Taken at once: the new library's own
    /// start works out everything that follows.
    pub fn choose(
        &mut self,
        per_agent: bool,
        readers: &std::collections::HashSet<Agent>,
        offered: &dyn Fn(Agent) -> bool,
    ) -> Option<Agent> {
        if !per_agent || self.agent().is_some() {
            return None;
        }
        let first = AGENTS
            .iter()
            .flatten()
            .find(|&&a| readers.contains(&a) && offered(a))
            .or_else(|| AGENTS.iter().flatten().next())
            .copied()?;
        let _ = self.change(ViewChange::Agent(Some(first)));
        Some(first)
    }

    /// The next view of the cycle: each agent's own that `offered` takes; with `every`, also
    /// every skill as given (a library of folders named on the command line, which no agent
    /// owns). A library of the agents' own folders is always seen through one agent.
    pub fn next_agent(&self, every: bool, offered: &dyn Fn(Agent) -> bool) -> Option<Agent> {
        let mut next = self.agent;
        for _ in 0..AGENTS.len() {
            next = (next + 1) % AGENTS.len();
            match AGENTS[next] {
                None if every => break,
                Some(a) if offered(a) => break,
                _ => {}
            }
        }
        AGENTS[next]
    }

    /// Makes `change`, and says what follows from it.
    pub fn change(&mut self, change: ViewChange) -> Follows {
        match change {
            ViewChange::Agent(agent) => {
                self.agent = AGENTS.iter().position(|a| *a == agent).unwrap_or(0);
                // Another agent runs the model its own settings set until `m` chooses.
                self.model = None;
                Follows {
                    agent: true,
                    seen: true,
                    matchers: true,
                    listing: true,
                }
            }
            ViewChange::Files(files) => {
                self.files = files;
                Follows {
                    seen: true,
                    matchers: true,
                    listing: true,
                    ..Follows::default()
                }
            }
            ViewChange::Model(i) => {
                self.model = Some(i);
                Follows {
                    listing: true,
                    ..Follows::default()
                }
            }
            ViewChange::Settings(settings) => {
                self.settings = settings;
                Follows {
                    seen: true,
                    listing: true,
                    ..Follows::default()
                }
            }
        }
    }

    /// `m` chose the model the agent in view runs.
    pub fn model_chosen(&self) -> bool {
        self.model.is_some()
    }

    /// The model the agent in view runs, where its listing budget depends on it: the one `m`
    /// chose, else the one its settings set, else its client's default.
    pub fn client_model(&self) -> Option<&'static ClientModel> {
        let agent = self.agent()?;
        let client = crate::core::agents::model::model(agent).client_in_use()?;
        if let Some(i) = self.model {
            return client.models.get(i).or_else(|| client.default_model());
        }
        self.settings
            .configured(agent)
            .map(|c| c.resolved.model)
            .or_else(|| client.default_model())
    }

    /// Every client model the agents' budgets are priced on: the one `m` chose for the agent in
    /// view, each other's as its settings set it.
    pub fn agent_models(&self) -> Vec<(Agent, &'static ClientModel)> {
        let view = self.agent().zip(self.client_model());
        let mut out: Vec<_> = self
            .settings
            .models()
            .iter()
            .filter(|(a, _)| view.is_none_or(|(v, _)| v != *a))
            .map(|(a, c)| (*a, c.resolved.model))
            .collect();
        out.extend(view);
        out
    }

    /// The view request of a listing in `format` at `tier` on a `window`-token window: the model
    /// in effect, and the window unless the model sets its own and none was chosen
    /// (`window_chosen`).
    pub fn request(
        &self,
        format: Format,
        tier: Tier,
        window: u64,
        window_chosen: bool,
    ) -> ViewRequest {
        let agent = self.agent();
        let chosen = self.client_model();
        let model = agent.zip(chosen).map(|(a, cm)| match self.model {
            None => self
                .settings
                .configured(a)
                .filter(|c| std::ptr::eq(c.resolved.model, cm))
                .cloned()
                .unwrap_or_else(|| ViewRequest::chosen_model(cm)),
            // Named with `m`: as the release in use takes a model named for it.
            Some(_) => {
                ViewRequest::chosen_in(crate::core::agents::model::model(a).client_in_use(), cm)
            }
        });
        let window = usize::try_from(window).unwrap_or(usize::MAX);
        ViewRequest {
            agent,
            model,
            format,
            tier,
            window: (window_chosen || chosen.is_none()).then_some(window),
            files: self.files.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_change_says_what_follows() {
        let mut v = InView::default();
        let agent = v.change(ViewChange::Agent(Some(Agent::Codex)));
        assert_eq!(v.agent(), Some(Agent::Codex));
        assert!(agent.agent && agent.seen && agent.matchers && agent.listing);
        let files = v.change(ViewChange::Files(vec![PathBuf::from("a.py")]));
        assert_eq!(v.files(), [PathBuf::from("a.py")]);
        assert!(!files.agent && files.seen && files.matchers && files.listing);
        let model = v.change(ViewChange::Model(1));
        assert!(v.model_chosen());
        assert_eq!(
            model,
            Follows {
                listing: true,
                ..Follows::default()
            }
        );
        // Another agent runs its own settings' model again.
        v.change(ViewChange::Agent(Some(Agent::ClaudeCode)));
        assert!(!v.model_chosen());
        let settings = v.change(ViewChange::Settings(ViewSettings::default()));
        assert!(!settings.agent && settings.seen && !settings.matchers && settings.listing);
    }

    #[test]
    fn the_cycle_passes_over_the_agents_not_offered_and_every_skill_unless_asked() {
        let v = InView::default();
        assert_eq!(v.agent(), None);
        let only_codex = |a: Agent| a == Agent::Codex;
        assert_eq!(v.next_agent(false, &only_codex), Some(Agent::Codex));
        let mut at_codex = v.clone();
        at_codex.change(ViewChange::Agent(Some(Agent::Codex)));
        assert_eq!(at_codex.next_agent(true, &only_codex), None);
        assert_eq!(at_codex.next_agent(false, &only_codex), Some(Agent::Codex));
    }

    #[test]
    fn a_model_chosen_is_the_requests_model_and_its_window_wins_unless_one_is_chosen() {
        let mut v = InView::default();
        v.change(ViewChange::Agent(Some(Agent::ClaudeCode)));
        let client = crate::core::agents::model::model(Agent::ClaudeCode)
            .client_in_use()
            .expect("Claude Code has a client");
        assert!(client.models.len() > 1, "Claude Code's client has models");
        v.change(ViewChange::Model(1));
        let req = v.request(Format::ClaudeCode, Tier::default(), 32_000, false);
        let cm = req.model.as_ref().expect("a model").resolved.model;
        assert_eq!(cm.id, client.models[1].id);
        assert_eq!(req.window, None);
        let opts = req.listing_options(v.settings());
        assert_eq!(opts.context_window, client.models[1].context_window);
        let chosen = v.request(Format::ClaudeCode, Tier::default(), 32_000, true);
        assert_eq!(chosen.window, Some(32_000));
        // Every skill as given: no model, the window asked for.
        v.change(ViewChange::Agent(None));
        let none = v.request(Format::Xml, Tier::default(), 32_000, false);
        assert!(none.model.is_none());
        assert_eq!(none.window, Some(32_000));
    }
}
