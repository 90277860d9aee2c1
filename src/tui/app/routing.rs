//! The Test box for one agent: that agent's view of the library with its own matchers' index
//! (built on a worker once per library, agent and set of open files, as `match --agent` builds
//! it), the skills it lets compete for the message, and what the message injects in the agent's
//! framing (worked out and counted on a worker, the newest message winning).

use super::App;
use crate::core::agents::AgentSwitches;
use crate::core::library::Library;
use crate::core::matching::{self, Index, Matcher};
use crate::tui::answers::{AgentIndex, Over, Question, ViewKey};
use crate::tui::answers::{Injection, TEST_TOP_K};
use crate::tui::event::{Event, JobEvent};
use crate::tui::screens::test::Injecting;
use std::sync::Arc;
use std::sync::mpsc::Sender;

/// Builds `key`'s view of `lib` and its index.
fn build(lib: Arc<Library>, switches: Option<Arc<AgentSwitches>>, key: ViewKey, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let (view, keep) =
            crate::core::agents::view::agent_view(&lib, key.agent, &key.files, switches.as_deref());
        let index = Index::build(&view);
        let built = AgentIndex {
            key,
            lib: view,
            index,
            keep,
        };
        let _ = tx.send(Event::Job(JobEvent::AgentIndexed(Arc::new(built))));
    });
}

/// Works out what `message` injects for the view's agent among the skills `enabled` lets
/// compete, and counts it.
fn inject(
    view: Arc<AgentIndex>,
    enabled: Vec<bool>,
    message: String,
    enc: crate::core::tokens::Encoding,
    request: u64,
    tx: Sender<Event>,
) {
    std::thread::spawn(move || {
        let model = crate::core::agents::model::model(view.key.agent);
        let got = crate::core::inject::inject(
            &view.lib,
            &view.index,
            model,
            &message,
            &|j| matching::competes(&view.lib, &enabled, j),
            Matcher::Bm25,
        );
        let shown = Injection {
            agent: view.key.agent,
            matcher: got.matcher,
            ids: got
                .skills
                .iter()
                .filter_map(|&j| view.lib.skills.get(j).map(|s| s.id.clone()))
                .collect(),
            tokens: crate::core::tokens::count(enc, &got.text),
            text: got.text,
        };
        let _ = tx.send(Event::Job(JobEvent::Injected {
            request,
            injection: Box::new(shown),
        }));
    });
}

impl App {
    /// The agent view the Test box needs now, if an agent is chosen.
    fn view_key(&self) -> Option<ViewKey> {
        Some(ViewKey {
            generation: self.generation,
            switches: self.switches.read,
            agent: self.in_view.agent()?,
            files: self.in_view.files().to_vec(),
        })
    }

    /// The chosen agent's view and index, when they are in for the library and files shown.
    fn agent_view(&self) -> Option<Arc<AgentIndex>> {
        let key = self.view_key()?;
        self.matching
            .routing
            .view
            .as_ref()
            .filter(|v| v.key == key)
            .map(Arc::clone)
    }

    /// Whether the Test box can answer: the index it needs (the library's, or the chosen
    /// agent's) is in.
    pub fn test_ready(&self) -> bool {
        match self.view_key() {
            Some(_) => self.agent_view().is_some(),
            None => self.matching.index.get().is_some(),
        }
    }

    /// The matchers' answers for the Test box's message over the chosen agent's view (its
    /// skills only, conditional ones only while an open file activates them), and what the
    /// message injects; `false` when no agent is chosen.
    pub(super) fn run_agent_matchers(&mut self) -> bool {
        let Some(key) = self.view_key() else {
            self.screens.test.injecting = Injecting::NoAgent;
            return false;
        };
        let Some(view) = self.agent_view() else {
            self.screens.test.results.clear();
            self.matching.meaning.forget();
            self.screens.test.injecting = Injecting::Waiting(key.agent);
            // Built when the Test box is in use, and not while the counts of a new library
            // hold both cores.
            let wanted = self.screen == crate::tui::action::Screen::Test
                || !self.screens.test.message.trim().is_empty();
            if wanted
                && self.view().loaded()
                && !self.counting.waiting()
                && self.matching.routing.building.as_ref() != Some(&key)
            {
                self.matching.routing.building = Some(key.clone());
                build(
                    Arc::clone(&self.lib),
                    self.switches.agents.clone(),
                    key,
                    self.tx.clone(),
                );
            }
            return true;
        };
        // An agent with switches of its own obeys only those, applied in its view.
        let enabled: Vec<bool> = view.keep.iter().map(|&i| self.switches.is_on(i)).collect();
        // The semantic columns: the view's vectors are the library's, once those are made.
        if !view.index.has_vectors()
            && let Some(v) = self.matching.index.get().and_then(|i| i.vectors())
        {
            view.index.set_vectors(Arc::new(v.for_view(&view.lib)));
        }
        let competing = matching::candidates(&view.lib, &enabled);
        let competes = |j: usize| competing.get(j).copied().unwrap_or(false);
        let mut lexical = view.index.query_many(
            &self.screens.test.message,
            &Matcher::LEXICAL,
            &competes,
            TEST_TOP_K,
        );
        view.to_library(&mut lexical);
        self.screens.test.competing = competing.iter().filter(|c| **c).count();
        let question = Question::new(
            self.generation,
            Some(key.clone()),
            &self.screens.test.message,
            competing,
        );
        self.show_columns(lexical, Over::View(Arc::clone(&view)), question);
        if self.screens.test.message.trim().is_empty() {
            self.screens.test.injecting = Injecting::NoMessage(key.agent);
        } else {
            self.screens.test.injecting = Injecting::Waiting(key.agent);
            if let Some(request) = self.matching.routing.inject.start() {
                inject(
                    view,
                    enabled,
                    self.screens.test.message.clone(),
                    self.cache.encoding,
                    request,
                    self.tx.clone(),
                );
            }
        }
        true
    }

    /// Starts building the chosen agent's view if the Test box needs it and it is not in.
    pub(super) fn ensure_agent_view(&mut self) {
        if self.view_key().is_some() && self.agent_view().is_none() {
            self.run_agent_matchers();
        }
    }

    /// An agent's view came: the Test box answers over it if it is still the one needed.
    pub(super) fn on_agent_indexed(&mut self, built: Arc<AgentIndex>) {
        if self.matching.routing.building.as_ref() == Some(&built.key) {
            self.matching.routing.building = None;
        }
        if self.view_key().as_ref() == Some(&built.key) {
            self.matching.routing.view = Some(built);
            self.run_matchers();
        }
    }

    /// What the message injects, unless the message, the agent or the files changed since:
    /// then it is worked out again for what they are now.
    pub(super) fn on_injected(&mut self, request: u64, injection: Injection) {
        let (newest, again) = self.matching.routing.inject.finish(request);
        if again {
            self.run_matchers();
        } else if newest && self.view_key().is_some_and(|k| k.agent == injection.agent) {
            self.screens.test.injecting = Injecting::Shown(Box::new(injection));
        }
    }
}
