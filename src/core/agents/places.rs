//! How an agent's client reads the folders it shares with other agents, as a record its home
//! fills (`tests/fixtures/agents/NEW-AGENTS.md`): at which place it reads them (the working
//! folder, the way up to the repository root, the repository root, its workspace) and how deep,
//! which copy of a shared name wins, which skills its client skips, and what it supplies for a
//! missing name or description. `reach.rs` asks it.

use crate::core::findings::catalogue::RuleId;
use crate::core::skill::Skill;
use std::path::{Path, PathBuf};

/// The places the clients start from: the home folder, the working folder, the repository root
/// above it (else the working folder) and OpenClaw's workspace.
#[derive(Debug, Clone)]
pub struct Places {
    /// The home folder.
    pub home: Option<PathBuf>,
    /// The working folder.
    pub cwd: PathBuf,
    /// The repository root above the working folder, else the working folder.
    pub repo: Option<PathBuf>,
    /// OpenClaw's workspace.
    pub workspace: Option<PathBuf>,
}

impl Places {
    /// Whether `root` is the folder `rel` below the home folder.
    pub fn home_is(&self, root: &Path, rel: &str) -> bool {
        self.home.as_ref().is_some_and(|h| root == h.join(rel))
    }
}

/// Whether `root` ends with one of `folders`.
pub fn ends_any(root: &Path, folders: &[&str]) -> bool {
    folders.iter().any(|f| root.ends_with(f))
}

/// Whether the skill was parsed with a diagnostic of `rule`.
pub fn has(s: &Skill, rule: RuleId) -> bool {
    s.parse_diagnostics.iter().any(|d| d.rule == rule)
}

/// The SKILL.md has no `---` frontmatter block at its first line.
pub fn no_block(s: &Skill) -> bool {
    has(s, RuleId::FrontmatterMissing)
        || has(s, RuleId::FrontmatterUnterminated)
        || has(s, RuleId::FrontmatterLeadingBlank)
}

/// The frontmatter is not valid YAML, or not a mapping.
pub fn bad_yaml(s: &Skill) -> bool {
    has(s, RuleId::YamlInvalid) || has(s, RuleId::FrontmatterNotMapping)
}

/// What a client does with a SKILL.md whose frontmatter skillscope could not parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unparsed {
    /// Nothing of its own: it does not load it.
    Skipped,
    /// A frontmatter that is not valid YAML read line by line (Qwen Code, OpenClaw).
    LineByLine,
    /// A SKILL.md without frontmatter read whole, as its body (Cline).
    WholeBody,
}

/// How an agent's client reads the folders it shares with other agents.
#[derive(Debug)]
pub struct Reach {
    /// Whether it reads skill `s` where it is, beyond the folder names its model matches.
    pub reads: fn(&Skill, &Places) -> bool,
    /// Where the skill's folder comes in its precedence: lower first. Of the skill's root and
    /// scope only, which the shadowing asks once per root.
    pub rank: fn(&Skill, &Places) -> (u8, isize),
    /// The copy of a name it reads last wins (Cline), not the first.
    pub last_wins: bool,
    /// It knows a skill by its name lower-cased (Cline's ids).
    pub lower_case_names: bool,
    /// Why its client does not load the skill at all, when it does not.
    pub skipped: fn(&Skill) -> Option<&'static str>,
    /// Its own switch in a skill's frontmatter, which it reads instead of
    /// `disable-model-invocation`: why the skill is off, when it is (Cline's).
    pub own_switch: Option<fn(&Skill) -> Option<String>>,
    /// What it does with a frontmatter skillscope could not parse.
    pub unparsed: Unparsed,
    /// It takes the folder's name for a missing name.
    pub folder_name_for_name: bool,
    /// It takes the body's first two paragraphs for a missing description (Copilot).
    pub body_for_description: bool,
}

/// A client that skips nothing of its own.
pub fn skips_nothing(_s: &Skill) -> Option<&'static str> {
    None
}
