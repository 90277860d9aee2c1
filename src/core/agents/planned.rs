//! What a toggle plans and what applying it did: the records every agent's toggle shares (the
//! settings files' planner in `plan.rs`, Lazy Skills' SKILL.md switch in `lazy.rs`), below both.

use super::plugin::{AgentState, Effective};
use super::scope::SwitchScope;
use crate::core::source::Agent;
use serde::Serialize;
use std::path::PathBuf;

/// The exact change a toggle makes to one settings file, for a confirmation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TogglePlan {
    /// The agent whose settings file changes.
    pub agent: Agent,
    /// Which of its settings files.
    pub scope: SwitchScope,
    /// The skill's name.
    pub skill: String,
    /// Switching on (`true`) or off.
    pub on: bool,
    /// The settings file.
    pub file: PathBuf,
    /// The file existed when planned (otherwise the toggle creates it).
    pub existed: bool,
    /// Its text now (empty when it does not exist).
    pub before: String,
    /// Its text once the change is written.
    pub after: String,
    /// `before` → `after` as a unified diff; empty when nothing changes.
    pub diff: String,
    /// What the agent does with the skill now.
    pub before_state: Effective,
    /// What the agent will do once the change is written.
    pub after_state: Effective,
    /// Why the change will not have the effect asked for, when it will not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl TogglePlan {
    /// Whether the file's text stays as it is.
    pub fn changes_nothing(&self) -> bool {
        self.before == self.after
    }

    /// The agent already does what was asked.
    pub fn already(&self) -> bool {
        self.changes_nothing() && self.before_state.state == desired(self.on)
    }
}

/// What applying did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Applied {
    /// The settings file.
    pub file: PathBuf,
    /// Whether anything was written.
    pub written: bool,
    /// The file as it was, when there was one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backup: Option<PathBuf>,
}

/// The state a toggle asks for.
pub(super) fn desired(on: bool) -> AgentState {
    if on { AgentState::On } else { AgentState::Off }
}

/// A unified diff with three lines of context; empty when the texts are equal.
pub fn unified_diff(shown: &str, existed: bool, before: &str, after: &str) -> String {
    if before == after {
        return String::new();
    }
    let old = if existed {
        shown.to_string()
    } else {
        "/dev/null".to_string()
    };
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&old, shown)
        .to_string()
}
