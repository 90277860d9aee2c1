//! What an agent plugin is and what it says of a skill: the trait each agent's file implements,
//! the state it gives a skill, and the helpers every plugin shares.

use super::error::ToggleError;
use super::json;
use super::scope::SwitchScope;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One agent whose per-skill switches skillscope reads and writes. Each is one value in its own
/// file, listed once in [`REGISTRY`]; everything else (badges, toggles, the CLI's `--agent`, the
/// help legend) goes through the registry. Its name and folders are its model's
/// (`agents/model.rs`); a plugin says only which agent it is, its badge's letter and its settings.
pub trait AgentPlugin: Send + Sync + fmt::Debug {
    /// The agent, as skill roots, JSON output and `toggle --agent` name it.
    fn id(&self) -> Agent;
    /// Its name for people, as in the help legend: its model's.
    fn display_name(&self) -> &'static str {
        super::model::model(self.id()).name
    }
    /// The letter of its badge in the skills list.
    fn badge_letter(&self) -> char;
    /// Its entry in the help legend of the badges.
    fn legend(&self) -> String {
        format!("{} {}", self.badge_letter(), self.display_name())
    }
    /// The skill folders it reads, as the last components of their path
    /// (`[".claude", "skills"]`): its model's.
    fn skill_folders(&self) -> &'static [&'static [&'static str]] {
        super::model::model(self.id()).folders
    }
    /// Its settings files that can hold per-skill switches, with their scope, in the order it
    /// applies them (later ones win).
    fn settings_paths(&self, home: &Path, project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)>;
    /// Why it has no switch for skills at `scope`, when it has none.
    fn unsupported_scope(&self, _scope: SwitchScope) -> Option<&'static str> {
        None
    }
    /// Reads its settings files (the ones there, in the order it applies them) into what decides
    /// each skill's state. A file that does not parse is reported and counts as unset.
    fn read(
        &self,
        files: &[SettingsText<'_>],
        home: &Path,
        diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches>;
    /// The texts `file` (holding `before`; empty when it does not exist) could be given to switch
    /// `skill` on or off, most preferred first. `Err` when the file cannot take the change without
    /// losing something of the user's, or the skill's name cannot be written safely.
    fn candidates(
        &self,
        file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        home: &Path,
    ) -> Result<Vec<String>, ToggleError>;
}

/// An agent's settings, once read: what it does with each skill.
pub trait SkillSwitches: Send + Sync + fmt::Debug {
    /// The skill's state for the agent and what decided it. `paths` resolves folders once for
    /// every agent that names skills by path.
    fn effective(&self, skill: &Skill, paths: &PathCache) -> Effective;
    /// The setting that keeps the agent from listing any skill at all, if one does.
    fn listing_off(&self) -> Option<String> {
        None
    }
}

/// One settings file's text, with its name for people (`~/.claude/settings.json`).
#[derive(Debug, Clone, Copy)]
pub struct SettingsText<'a> {
    /// The file.
    pub path: &'a Path,
    /// Its name for people.
    pub shown: &'a str,
    /// Its text.
    pub text: &'a str,
}

/// The agents skillscope can switch skills for, in the order they are shown.
pub type Registry = &'static [&'static dyn AgentPlugin];

/// Skill folders with their links resolved, kept between calls: resolving costs a system call
/// per path component, and a list asks again on every redraw.
#[derive(Debug, Clone, Default)]
pub struct PathCache(Arc<Mutex<HashMap<PathBuf, Option<PathBuf>>>>);

impl PathCache {
    /// `dir` with its links resolved; `None` when it does not exist.
    pub fn resolve(&self, dir: &Path) -> Option<PathBuf> {
        if let Ok(map) = self.0.lock()
            && let Some(c) = map.get(dir)
        {
            return c.clone();
        }
        let c = std::fs::canonicalize(dir).ok();
        if let Ok(mut map) = self.0.lock() {
            map.insert(dir.to_path_buf(), c.clone());
        }
        c
    }
}

/// What an agent does with a skill, from most to least visible to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AgentState {
    /// Listed with its description; the model may load it.
    On,
    /// Listed by name only (Claude Code `name-only`).
    NameOnly,
    /// Hidden from the model, still invocable by the user (`user-invocable-only`,
    /// `disable-model-invocation: true`).
    UserInvocableOnly,
    /// Not loaded at all.
    Off,
}

impl AgentState {
    /// Its name in JSON and on screen: `on`, `name-only`, `off`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            AgentState::On => "on",
            AgentState::NameOnly => "name-only",
            AgentState::UserInvocableOnly => "user-invocable-only",
            AgentState::Off => "off",
        }
    }

    /// Whether the skill appears in the listing the model sees.
    pub fn listed(self) -> bool {
        matches!(self, AgentState::On | AgentState::NameOnly)
    }
}

impl fmt::Display for AgentState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A skill's state for one agent and what decided it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effective {
    /// What the agent does with the skill.
    pub state: AgentState,
    /// Where the state comes from, for people: `~/.claude/settings.json skillOverrides.pdf`,
    /// `frontmatter disable-model-invocation`, `default`.
    pub source: String,
    /// The settings file that decided, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
}

impl Effective {
    pub(super) fn default_on() -> Self {
        Effective {
            state: AgentState::On,
            source: "default".to_string(),
            file: None,
        }
    }
}

/// One agent's view of a skill, for a badge in a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Badge {
    /// The agent.
    pub agent: Agent,
    /// The agent reads the folder the skill is in.
    pub reads: bool,
    /// Its state for the skill and what decided it.
    pub effective: Effective,
}

impl Badge {
    /// The agent will put the skill in front of its model.
    pub fn loads(&self) -> bool {
        self.reads && self.effective.state.listed()
    }
}

pub(super) fn settings_warning(path: &Path, what: String) -> Diagnostic {
    Diagnostic::new(
        RuleId::AgentSettings,
        Severity::Warning,
        format!("{}: {what}", path.display()),
    )
    .in_file(path)
}

/// A path for people: `~/…` under the home folder, else as it is.
pub fn show_path(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) if !home.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => path.display().to_string(),
    }
}

/// A settings file's JSON tree, or `None` (with a warning saying `ignored` are ignored) when the
/// file is empty or does not parse.
pub(super) fn parse_settings(
    path: &Path,
    text: &str,
    ignored: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<json::Node> {
    if text.trim().is_empty() {
        return None;
    }
    match json::parse(text) {
        Ok(r) => Some(r),
        Err(e) => {
            diags.push(
                settings_warning(path, format!("not valid JSON ({e}); {ignored} are ignored"))
                    .at(e.line, e.column),
            );
            None
        }
    }
}
