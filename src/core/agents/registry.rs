//! The one place that names every agent's home: adding an agent is its folder with its `HOME`
//! and one line here.

use super::home::{AS_GIVEN_HOME, Home};
use super::{
    claude, cline, codex, copilot, gemini, generic, goose, lazy, openclaw, opencode, qwen,
};
use crate::core::source::Agent;

impl Agent {
    /// Everything skillscope knows of the agent: its home's record. Folders given on the command
    /// line and the demo have the record of a library read as given.
    pub fn home(self) -> &'static Home {
        match self {
            Agent::ClaudeCode => &claude::HOME,
            Agent::Codex => &codex::HOME,
            Agent::Opencode => &opencode::HOME,
            Agent::Gemini => &gemini::HOME,
            Agent::Goose => &goose::HOME,
            Agent::Openclaw => &openclaw::HOME,
            Agent::Copilot => &copilot::HOME,
            Agent::Cline => &cline::HOME,
            Agent::QwenCode => &qwen::HOME,
            Agent::LazySkills => &lazy::HOME,
            Agent::Generic => &generic::HOME,
            Agent::Path | Agent::Demo => &AS_GIVEN_HOME,
        }
    }
}
