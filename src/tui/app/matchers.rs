//! The matchers' state in the app: the library's index, the sentence vectors, the Test box's
//! agent view and its semantic columns. Data and small methods only: the `impl App` that drives
//! them is in `meaning.rs` and `routing.rs`, above this file.

use crate::tui::answers::{AgentIndex, Over, Question, ViewKey};
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
    pub(super) routing: Routing,
    /// The Test box's semantic and hybrid columns, worked out on a worker.
    pub meaning: Meaning,
}

/// A question with the index to ask it of.
#[derive(Debug)]
pub(super) struct Asked {
    pub(super) question: Question,
    pub(super) over: Over,
}

/// The semantic columns' worker and what they wait for.
#[derive(Debug, Default)]
pub struct Meaning {
    pub(super) job: Job,
    /// The question the columns wait for the answer to: the newest asked.
    pub(super) wanted: Option<Asked>,
    /// The question whose answer the columns show.
    pub(super) shown: Option<Question>,
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
    pub(super) fn forget(&mut self) {
        self.wanted = None;
        self.shown = None;
    }
}

/// The agent view in use, the one being built, and the injection under way: one at a time
/// (a keyword-routed agent may load hundreds of bodies for one message), the newest message
/// waiting while one runs.
#[derive(Default)]
pub struct Routing {
    pub(super) view: Option<Arc<AgentIndex>>,
    pub(super) building: Option<ViewKey>,
    /// The injection's worker: one run at a time, the newest message waiting.
    pub(super) inject: Job,
}
