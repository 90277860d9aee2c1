//! The matchers' state in the app: the library's index, the sentence vectors, the Test box's
//! agent view and its semantic columns. Data and small methods only: the Test box drives them
//! (`screens/test/routing.rs` and `meaning.rs`), the prompt preview's auto mode reads the index.

use crate::tui::answers::{AgentIndex, Over, Question, ViewKey};
use crate::tui::state::in_view::InView;
use crate::tui::state::work::{Embedding, Job, MatcherIndex};
use std::sync::Arc;

/// The matchers' indexes the Test box and the auto listing mode use.
#[derive(Default)]
pub struct Matching {
    /// The library's, built when the Test box needs it (its screen is shown, or it holds a
    /// message).
    pub index: MatcherIndex,
    /// Where the semantic matchers' vectors for `index` are.
    pub embedding: Embedding,
    /// The Test box over the chosen agent's view.
    pub(crate) routing: Routing,
    /// The Test box's semantic and hybrid columns, worked out on a worker.
    pub meaning: Meaning,
}

/// A question with the index to ask it of.
#[derive(Debug)]
pub(crate) struct Asked {
    pub(crate) question: Question,
    pub(crate) over: Over,
}

/// The semantic columns' worker and what they wait for.
#[derive(Debug, Default)]
pub struct Meaning {
    pub(crate) job: Job,
    /// The question the columns wait for the answer to: the newest asked.
    pub(crate) wanted: Option<Asked>,
    /// The question whose answer the columns show.
    pub(crate) shown: Option<Question>,
}

impl Meaning {
    /// The columns wait for the answer to the message shown: they have none to show yet.
    pub fn pending(&self) -> bool {
        self.wanted.is_some()
    }

    /// Nothing is asked or under way.
    pub fn settled(&self) -> bool {
        self.wanted.is_none() && self.job.idle()
    }

    /// The columns were emptied (a new library, an agent's view not in yet): what they waited
    /// for or showed no longer applies, and an answer still under way is dropped when it comes.
    pub(crate) fn forget(&mut self) {
        self.wanted = None;
        self.shown = None;
    }
}

/// The agent view in use, the one being built, and the injection under way: one at a time
/// (a keyword-routed agent may load hundreds of bodies for one message), the newest message
/// waiting while one runs.
#[derive(Default)]
pub struct Routing {
    pub(crate) view: Option<Arc<AgentIndex>>,
    pub(crate) building: Option<ViewKey>,
    /// The injection's worker: one run at a time, the newest message waiting.
    pub(crate) inject: Job,
}

/// The agent view the Test box needs now, if an agent is in view: for the library of
/// `generation` and the settings as read the `read`th time.
pub fn view_key(generation: u64, read: u64, in_view: &InView) -> Option<ViewKey> {
    Some(ViewKey {
        generation,
        switches: read,
        agent: in_view.agent()?,
        files: in_view.files().to_vec(),
    })
}

impl Matching {
    /// The agent's view and index for `key`, when they are in.
    pub fn agent_view(&self, key: &ViewKey) -> Option<Arc<AgentIndex>> {
        self.routing
            .view
            .as_ref()
            .filter(|v| v.key == *key)
            .map(Arc::clone)
    }

    /// Whether the Test box can answer: the index it needs (the library's, or the view's of
    /// `key` when an agent is in view) is in.
    pub fn ready(&self, key: Option<&ViewKey>) -> bool {
        match key {
            Some(k) => self.agent_view(k).is_some(),
            None => self.index.get().is_some(),
        }
    }

    /// How far the semantic matchers' vectors have come, for the library of `generation`.
    pub fn embed_progress(&mut self, generation: u64, now: u64, done: usize, total: usize) {
        if generation == now && matches!(self.embedding, Embedding::Running { .. }) {
            self.embedding = Embedding::Running { done, total };
        }
    }

    /// No index is being built, the one the Test box needs (if any) is in, with its vectors,
    /// and the semantic columns answer the message shown; `wanted`: the Test box is in use.
    pub fn settled(&self, wanted: bool) -> bool {
        !self.index.building()
            && !matches!(self.embedding, Embedding::Running { .. })
            && self.meaning.settled()
            && (self.index.get().is_some() || !wanted)
    }
}
