//! A SKILL.md as a client reads it where that differs from skillscope's own reading (its home's
//! `read`): which skills it loads at all, under which name, with which description. Each
//! client's reading is in its home (`gemini/reading.rs`, `opencode/reading.rs`); see
//! `tests/fixtures/agents/FINDINGS.md`.

use crate::core::frontmatter::Frontmatter;
use crate::core::skill::Skill;
use crate::core::source::Agent;

/// A skill as its client loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// The name it is listed and called by.
    pub name: String,
    /// Its description; `None`: loaded, but never listed (opencode).
    pub description: Option<String>,
    /// How the client got there when its YAML did not give it (for a warning).
    pub how: Option<&'static str>,
}

/// How `agent`'s client reads `skill`: `None` when it does not load it. Only the agents whose
/// home has a reading of its own read differently from skillscope; for the others, `None` too
/// (not asked).
pub fn read(agent: Agent, skill: &Skill) -> Option<Read> {
    agent.home().read.and_then(|read| read(skill))
}

/// The agents whose client reads frontmatter its own way.
pub fn reads_its_own_way(agent: Agent) -> bool {
    agent.home().read.is_some()
}

/// A frontmatter field that is text.
pub(crate) fn text_field<'a>(fm: &'a Frontmatter, key: &str) -> Option<&'a str> {
    fm.get(key).and_then(|f| f.value.as_str())
}

/// The whole SKILL.md, lossy; `None` when it cannot be read.
pub(crate) fn file_text(skill: &Skill) -> Option<String> {
    let bytes = crate::core::files::fsx::read_regular(&skill.skill_md)
        .ok()
        .flatten()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}
