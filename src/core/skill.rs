//! A skill as discovered: where it lives, what its frontmatter says, what is wrong with it.

use crate::core::diagnostic::Diagnostic;
use crate::core::frontmatter::Frontmatter;
pub use crate::core::frontmatter::{KindSource, SkillKind};
use crate::core::source::{Agent, Root, Scope};
use serde::Serialize;
use std::path::PathBuf;

/// The three levels of progressive disclosure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Level {
    L1,
    L2,
    L3,
}

#[derive(Debug, Clone, Serialize)]
pub struct Skill {
    /// The name agents see: the frontmatter `name`, or the folder name when it has none.
    pub name: String,
    /// The name with its namespace: `web.scraper` for `web/scraper/SKILL.md` below the root,
    /// `plugin:skill` for a Claude Code plugin's skill; the name itself at the top of a root.
    pub id: String,
    /// The namespace part of `id` (empty at the top of a root; the plugin for plugin skills).
    pub namespace: String,
    /// A Claude Code plugin's skill (`plugin:skill`), which its agent always namespaces.
    pub plugin: bool,
    pub dir: PathBuf,
    pub skill_md: PathBuf,
    pub root: PathBuf,
    pub agent: Agent,
    pub scope: Scope,
    pub frontmatter: Frontmatter,
    /// Problems found while reading the file (YAML, encoding, layout). Rule findings are computed
    /// per profile by [`crate::core::rules`].
    pub parse_diagnostics: Vec<Diagnostic>,
    /// Index (in the library) of the skill that wins over this one for the same name.
    pub shadowed_by: Option<usize>,
    /// Size of SKILL.md in bytes.
    pub file_len: u64,
    /// 1-based line where the body starts (after the closing `---`).
    pub body_line: u32,
    /// Byte offset of the body in SKILL.md.
    pub body_offset: u64,
    /// Modification time in nanoseconds since the epoch (0 when unknown).
    pub mtime_ns: u128,
}

impl Skill {
    /// A skill found at `dir` under `root` before its file is read: no frontmatter yet, named
    /// after its folder.
    pub fn new(root: &Root, dir: PathBuf, skill_md: PathBuf) -> Skill {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Skill {
            id: name.clone(),
            name,
            namespace: String::new(),
            plugin: false,
            dir,
            skill_md,
            root: root.path.clone(),
            agent: root.agent,
            scope: root.scope,
            frontmatter: Frontmatter::default(),
            parse_diagnostics: Vec::new(),
            shadowed_by: None,
            file_len: 0,
            body_line: 1,
            body_offset: 0,
            mtime_ns: 0,
        }
    }

    pub fn kind(&self) -> SkillKind {
        self.frontmatter.kind
    }

    /// The key two copies must share for one to shadow the other: agents that namespace nested
    /// folders (and every agent, for plugin skills) tell skills apart by id, the others by name.
    pub fn shadow_key(&self) -> &str {
        if self.plugin || self.agent.namespaces_folders() {
            &self.id
        } else {
            &self.name
        }
    }

    /// What decided [`Skill::kind`].
    pub fn kind_source(&self) -> KindSource {
        self.frontmatter.kind_source
    }

    pub fn description(&self) -> &str {
        self.frontmatter.description.as_deref().unwrap_or("")
    }

    /// The folder's name, as the `name` field must repeat it.
    pub fn dir_name(&self) -> String {
        self.dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Can an agent list this skill at all? It needs a parsed name and description.
    pub fn listable(&self) -> bool {
        self.frontmatter.parsed
            && self
                .frontmatter
                .name
                .as_deref()
                .is_some_and(|n| !n.trim().is_empty())
            && self
                .frontmatter
                .description
                .as_deref()
                .is_some_and(|d| !d.trim().is_empty())
    }
}
