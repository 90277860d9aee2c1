//! The Test box for one agent: that agent's view of the library with its own matchers' index
//! (built on a worker once per library, agent and set of open files, as `match --agent` builds
//! it), the skills it lets compete for the message, and what the message injects in the agent's
//! framing (worked out and counted on a worker, the newest message winning).

use super::{Injecting, TestBox, TestCx};
use crate::core::agents::AgentSwitches;
use crate::core::library::Library;
use crate::core::matching::{self, Index, Matcher};
use crate::tui::answers::{AgentIndex, Over, Question, ViewKey};
use crate::tui::answers::{Injection, TEST_TOP_K};
use crate::tui::event::{Event, JobEvent};
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
        let got = crate::core::front::inject::inject(
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

impl TestBox {
    /// The matchers' answers for the message over the chosen agent's view (its skills only,
    /// conditional ones only while an open file activates them), and what the message
    /// injects; `false` when no agent is chosen.
    pub(super) fn run_agent_matchers(&mut self, cx: &mut TestCx) -> bool {
        let Some(key) = cx.view_key() else {
            self.injecting = Injecting::NoAgent;
            return false;
        };
        let Some(view) = cx.matching.agent_view(&key) else {
            self.results.clear();
            cx.matching.meaning.forget();
            self.injecting = Injecting::Waiting(key.agent);
            // Built when the Test box is in use, and not while the counts of a new library
            // hold both cores.
            if self.wanted(cx)
                && cx.may_build
                && cx.matching.routing.building.as_ref() != Some(&key)
            {
                cx.matching.routing.building = Some(key.clone());
                build(
                    Arc::clone(cx.lib),
                    cx.switches.agents.clone(),
                    key,
                    cx.tx.clone(),
                );
            }
            return true;
        };
        // An agent with switches of its own obeys only those, applied in its view.
        let enabled: Vec<bool> = view.keep.iter().map(|&i| cx.switches.is_on(i)).collect();
        // The semantic columns: the view's vectors are the library's, once those are made.
        if !view.index.has_vectors()
            && let Some(v) = cx.matching.index.get().and_then(|i| i.vectors())
        {
            view.index.set_vectors(Arc::new(v.for_view(&view.lib)));
        }
        let competing = matching::candidates(&view.lib, &enabled);
        let competes = |j: usize| competing.get(j).copied().unwrap_or(false);
        let mut lexical =
            view.index
                .query_many(&self.message, &Matcher::LEXICAL, &competes, TEST_TOP_K);
        view.to_library(&mut lexical);
        self.competing = competing.iter().filter(|c| **c).count();
        let question = Question::new(cx.generation, Some(key.clone()), &self.message, competing);
        self.show_columns(lexical, Over::View(Arc::clone(&view)), question, cx);
        if self.message.trim().is_empty() {
            self.injecting = Injecting::NoMessage(key.agent);
        } else {
            self.injecting = Injecting::Waiting(key.agent);
            if let Some(request) = cx.matching.routing.inject.start() {
                inject(
                    view,
                    enabled,
                    self.message.clone(),
                    cx.encoding,
                    request,
                    cx.tx.clone(),
                );
            }
        }
        true
    }

    /// Starts building the chosen agent's view if the box needs it and it is not in.
    pub fn ensure_agent_view(&mut self, cx: &mut TestCx) {
        if let Some(key) = cx.view_key()
            && cx.matching.agent_view(&key).is_none()
        {
            self.run_agent_matchers(cx);
        }
    }

    /// An agent's view came: the box answers over it if it is still the one needed.
    pub(super) fn on_agent_indexed(&mut self, built: Arc<AgentIndex>, cx: &mut TestCx) {
        if cx.matching.routing.building.as_ref() == Some(&built.key) {
            cx.matching.routing.building = None;
        }
        if cx.view_key().as_ref() == Some(&built.key) {
            cx.matching.routing.view = Some(built);
            self.run_matchers(cx);
        }
    }

    /// What the message injects, unless the message, the agent or the files changed since:
    /// then it is worked out again for what they are now.
    pub(super) fn on_injected(&mut self, request: u64, injection: Injection, cx: &mut TestCx) {
        let (newest, again) = cx.matching.routing.inject.finish(request);
        if again {
            self.run_matchers(cx);
        } else if newest && cx.view_key().is_some_and(|k| k.agent == injection.agent) {
            self.injecting = Injecting::Shown(Box::new(injection));
        }
    }
}
