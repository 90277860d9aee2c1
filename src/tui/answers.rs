//! What the app's workers answer with, carried on the event channel: one agent's view and its
//! index, a question for the semantic columns, a message's injection. Data only, below the
//! event type, the workers and the screens.

use crate::core::Agent;
use crate::core::library::Library;
use crate::core::matching::{self, Index, Match, Matcher};
use std::path::PathBuf;
use std::sync::Arc;

/// How many skills each matcher column of the Test box shows.
pub const TEST_TOP_K: usize = 8;

/// What an agent's view was made for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewKey {
    pub(crate) generation: u64,
    /// Which reading of the agents' switches the view applies.
    pub(crate) switches: u64,
    pub(crate) agent: Agent,
    pub(crate) files: Vec<PathBuf>,
}

/// One agent's view of the library and the index over it.
pub struct AgentIndex {
    pub(crate) key: ViewKey,
    pub(crate) lib: Library,
    pub(crate) index: Index,
    /// The index in the app's library of each skill of the view.
    pub(crate) keep: Vec<usize>,
}

impl AgentIndex {
    pub(crate) fn index(&self) -> &Index {
        &self.index
    }

    /// Numbers the skills of `columns` as the app's library does.
    pub(crate) fn to_library(&self, columns: &mut [(Matcher, Vec<matching::Match>)]) {
        for (_, ms) in columns {
            for m in ms {
                m.skill = self.keep.get(m.skill).copied().unwrap_or(m.skill);
            }
        }
    }
}

impl std::fmt::Debug for AgentIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentIndex")
            .field("key", &self.key)
            .field("skills", &self.keep.len())
            .finish_non_exhaustive()
    }
}

pub type Columns = Vec<(Matcher, Vec<Match>)>;

/// What the semantic columns answer: a message, asked of the library's index or of one agent's
/// view, among the skills that compete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    pub(crate) generation: u64,
    pub(crate) view: Option<ViewKey>,
    pub(crate) message: String,
    /// Which skills of the index compete, in the index's own numbering.
    pub(crate) competing: Vec<bool>,
}

impl Question {
    pub(crate) fn new(
        generation: u64,
        view: Option<ViewKey>,
        message: &str,
        competing: Vec<bool>,
    ) -> Question {
        Question {
            generation,
            view,
            message: message.to_string(),
            competing,
        }
    }

    /// The message it is about.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// The index a question is asked of.
#[derive(Debug, Clone)]
pub(crate) enum Over {
    /// The library's own: no agent is chosen.
    Library(Arc<Index>),
    /// One agent's view, whose skills are numbered apart from the library's.
    View(Arc<AgentIndex>),
}

impl Over {
    pub(crate) fn index(&self) -> &Index {
        match self {
            Over::Library(i) => i,
            Over::View(v) => v.index(),
        }
    }
}

/// What a message injects for one agent: the skills it loads and the exact text, counted.
#[derive(Debug, Clone)]
pub struct Injection {
    pub agent: Agent,
    /// The matcher that chose them (the agent's own rule, or bm25 standing in for the model).
    pub matcher: Matcher,
    pub ids: Vec<String>,
    pub text: String,
    pub tokens: usize,
}
