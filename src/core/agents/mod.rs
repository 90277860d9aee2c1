//! What each agent will really do with a skill: the agents' own switches (Claude Code
//! `skillOverrides`, Codex `[[skills.config]]`, opencode `permission.skill`) read per skill with
//! their source, and toggles written through to those files.

pub mod budget;
mod claude;
mod codex;
mod error;
pub mod json;
pub mod model;
mod opencode;
mod plan;
pub mod view;

pub use error::ToggleError;
pub use plan::{Applied, TogglePlan, backup_path};

use crate::core::catalogue::RuleId;
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One agent whose per-skill switches skillscope reads and writes. Each is one value in its own
/// file, listed once in [`REGISTRY`]; everything else (badges, toggles, the CLI's `--agent`, the
/// help legend) goes through the registry.
pub trait AgentPlugin: Send + Sync + fmt::Debug {
    /// The agent, as skill roots, JSON output and `toggle --agent` name it.
    fn id(&self) -> Agent;
    /// Its name for people, as in the help legend.
    fn display_name(&self) -> &'static str;
    /// The letter of its badge in the skills list.
    fn badge_letter(&self) -> char;
    /// Its entry in the help legend of the badges.
    fn legend(&self) -> String {
        format!("{} {}", self.badge_letter(), self.display_name())
    }
    /// The skill folders it reads, as the last components of their path
    /// (`[".claude", "skills"]`).
    fn skill_folders(&self) -> &'static [&'static [&'static str]];
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
}

/// One settings file's text, with its name for people (`~/.claude/settings.json`).
#[derive(Debug, Clone, Copy)]
pub struct SettingsText<'a> {
    pub path: &'a Path,
    pub shown: &'a str,
    pub text: &'a str,
}

/// The agents skillscope can switch skills for, in the order they are shown.
pub type Registry = &'static [&'static dyn AgentPlugin];

/// Every agent with per-skill switches. A new agent is a new file in this folder and one line here.
pub static REGISTRY: Registry = &[&claude::ClaudeCode, &codex::Codex, &opencode::Opencode];

fn find(registry: Registry, agent: Agent) -> Option<&'static dyn AgentPlugin> {
    registry.iter().copied().find(|p| p.id() == agent)
}

/// The help legend of the agents' badges: `C Claude Code, X Codex, O opencode`.
pub fn legend(registry: Registry) -> String {
    registry
        .iter()
        .map(|p| p.legend())
        .collect::<Vec<_>>()
        .join(", ")
}

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
    pub state: AgentState,
    /// Where the state comes from, for people: `~/.claude/settings.json skillOverrides.pdf`,
    /// `frontmatter disable-model-invocation`, `default`.
    pub source: String,
    /// The settings file that decided, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<PathBuf>,
}

impl Effective {
    fn default_on() -> Self {
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
    pub agent: Agent,
    /// The agent reads the folder the skill is in.
    pub reads: bool,
    pub effective: Effective,
}

impl Badge {
    /// The agent will put the skill in front of its model.
    pub fn loads(&self) -> bool {
        self.reads && self.effective.state.listed()
    }
}

/// Which settings file of an agent a toggle goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SwitchScope {
    /// The user's own settings (`~/.claude/settings.json`, `~/.codex/config.toml`,
    /// `~/.config/opencode/opencode.json`).
    User,
    /// The project's shared settings (`.claude/settings.json`, `opencode.json`).
    Project,
    /// The project's personal settings (`.claude/settings.local.json`; Claude Code only).
    Local,
}

impl SwitchScope {
    pub fn as_str(self) -> &'static str {
        match self {
            SwitchScope::User => "user",
            SwitchScope::Project => "project",
            SwitchScope::Local => "local",
        }
    }
}

impl fmt::Display for SwitchScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A settings file as read: missing, its text, or why it could not be read.
#[derive(Debug, Clone)]
struct SettingsFile {
    agent: Agent,
    scope: SwitchScope,
    path: PathBuf,
    text: Result<Option<String>, String>,
}

/// Every agent's switches, read once from the home and project folders given.
#[derive(Debug, Clone)]
pub struct AgentSwitches {
    registry: Registry,
    home: PathBuf,
    project: Option<PathBuf>,
    files: Vec<SettingsFile>,
    /// What each agent's settings say, in registry order.
    views: Vec<Arc<dyn SkillSwitches>>,
    paths: PathCache,
}

impl AgentSwitches {
    /// Reads every registered agent's settings under `home` and, when given, the project
    /// folder. Files that do not parse are reported and ignored (their switches count as unset).
    pub fn load(home: &Path, project: Option<&Path>) -> (AgentSwitches, Vec<Diagnostic>) {
        AgentSwitches::load_with(REGISTRY, home, project)
    }

    /// [`AgentSwitches::load`] for the agents of `registry`.
    pub fn load_with(
        registry: Registry,
        home: &Path,
        project: Option<&Path>,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        let mut files = Vec::new();
        for p in registry {
            for (scope, path) in p.settings_paths(home, project) {
                let text = match crate::core::fsx::read_regular(&path) {
                    Ok(Some(bytes)) => match String::from_utf8(bytes) {
                        Ok(s) => Ok(Some(s)),
                        Err(_) => Err("it is not UTF-8 text".to_string()),
                    },
                    Ok(None) => Ok(None),
                    Err(e) => Err(e.reason()),
                };
                files.push(SettingsFile {
                    agent: p.id(),
                    scope,
                    path,
                    text,
                });
            }
        }
        AgentSwitches::build(registry, home, project, files, PathCache::default())
    }

    fn build(
        registry: Registry,
        home: &Path,
        project: Option<&Path>,
        files: Vec<SettingsFile>,
        paths: PathCache,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut views = Vec::new();
        for p in registry {
            let mine: Vec<&SettingsFile> = files.iter().filter(|f| f.agent == p.id()).collect();
            let shown: Vec<String> = mine.iter().map(|f| show_path(&f.path, home)).collect();
            let mut texts = Vec::new();
            for (f, shown) in mine.iter().zip(&shown) {
                match &f.text {
                    Ok(Some(text)) => texts.push(SettingsText {
                        path: &f.path,
                        shown,
                        text,
                    }),
                    Ok(None) => {}
                    Err(why) => diags.push(settings_warning(
                        &f.path,
                        format!("{why}; its switches are ignored"),
                    )),
                }
            }
            views.push(Arc::from(p.read(&texts, home, &mut diags)));
        }
        let sw = AgentSwitches {
            registry,
            home: home.to_path_buf(),
            project: project.map(Path::to_path_buf),
            files,
            views,
            paths,
        };
        (sw, diags)
    }

    /// The same switches with one file's text replaced: what the agent would see after an edit.
    fn with_text(&self, path: &Path, text: &str) -> AgentSwitches {
        let files = self
            .files
            .iter()
            .map(|f| {
                let mut f = f.clone();
                if f.path == path {
                    f.text = Ok(Some(text.to_string()));
                }
                f
            })
            .collect();
        AgentSwitches::build(
            self.registry,
            &self.home,
            self.project.as_deref(),
            files,
            self.paths.clone(),
        )
        .0
    }

    /// The agents these switches are for.
    pub fn registry(&self) -> Registry {
        self.registry
    }

    /// The registered agent `agent`, if it has switches.
    pub fn plugin(&self, agent: Agent) -> Option<&'static dyn AgentPlugin> {
        find(self.registry, agent)
    }

    /// The agents that read the folder the skill is in (see [`readers`]).
    pub fn readers(&self, skill: &Skill) -> Vec<Agent> {
        readers_in(self.registry, skill)
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    pub fn project(&self) -> Option<&Path> {
        self.project.as_deref()
    }

    /// The skill's state for `agent` and why. Agents without switches always load what they read.
    pub fn effective(&self, skill: &Skill, agent: Agent) -> Effective {
        match self.registry.iter().position(|p| p.id() == agent) {
            Some(i) => self.views[i].effective(skill, &self.paths),
            None => Effective {
                state: AgentState::On,
                source: format!("default ({agent} has no per-skill switches)"),
                file: None,
            },
        }
    }

    /// One badge per agent with switches: whether it reads the skill's folder and what it does
    /// with it.
    pub fn badges(&self, skill: &Skill) -> Vec<Badge> {
        let reads = self.readers(skill);
        self.registry
            .iter()
            .zip(&self.views)
            .map(|(p, view)| Badge {
                agent: p.id(),
                reads: reads.contains(&p.id()),
                effective: view.effective(skill, &self.paths),
            })
            .collect()
    }

    /// The settings file a toggle for `agent` at `scope` edits.
    pub fn settings_file(&self, agent: Agent, scope: SwitchScope) -> Result<PathBuf, ToggleError> {
        let unsupported = |why: &'static str| ToggleError::Unsupported { agent, scope, why };
        let Some(p) = self.plugin(agent) else {
            return Err(unsupported("it has no per-skill switches"));
        };
        if let Some(why) = p.unsupported_scope(scope) {
            return Err(unsupported(why));
        }
        if scope != SwitchScope::User && self.project.is_none() {
            return Err(unsupported("no project folder was found"));
        }
        let candidates: Vec<&SettingsFile> = self
            .files
            .iter()
            .filter(|f| f.agent == agent && f.scope == scope)
            .collect();
        // When several files of the scope exist, the last one read wins, so edit that one.
        let existing = candidates
            .iter()
            .rev()
            .find(|f| !matches!(f.text, Ok(None)))
            .or_else(|| candidates.first());
        existing
            .map(|f| f.path.clone())
            .ok_or_else(|| unsupported("no settings file is known for it"))
    }

    /// Works out the change that switches the skill on or off for `agent` in the `scope` file,
    /// without writing anything. The file is read afresh; one that does not parse is refused.
    pub fn plan(
        &self,
        skill: &Skill,
        agent: Agent,
        scope: SwitchScope,
        on: bool,
    ) -> Result<TogglePlan, ToggleError> {
        plan::plan(self, skill, agent, scope, on)
    }

    /// Writes a plan made by [`AgentSwitches::plan`] for `skill`: under the file's exclusive
    /// lock, on top of the file as it is then (planned again when it changed meanwhile), with a
    /// backup, and read back before the lock goes. Returns the plan actually written.
    pub fn apply(
        &self,
        skill: &Skill,
        plan: &TogglePlan,
    ) -> Result<(TogglePlan, Applied), ToggleError> {
        plan::apply(self, skill, plan, crate::core::fsx::lock_wait())
    }
}

impl AgentSwitches {
    /// A plan for every agent that reads the skill's folder, as a "switch it off everywhere"
    /// action needs. An agent without a settings file for `scope` comes back as
    /// [`ToggleError::Unsupported`].
    pub fn plan_readers(
        &self,
        skill: &Skill,
        scope: SwitchScope,
        on: bool,
    ) -> Vec<(Agent, Result<TogglePlan, ToggleError>)> {
        self.readers(skill)
            .into_iter()
            .map(|agent| (agent, self.plan(skill, agent, scope, on)))
            .collect()
    }
}

/// A settings file's JSON tree, or `None` (with a warning saying `ignored` are ignored) when the
/// file is empty or does not parse.
fn parse_settings(
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

fn settings_warning(path: &Path, what: String) -> Diagnostic {
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

/// The agents that read the folder a skill is in, found from the nearest folder above it that an
/// agent reads skills from (each agent's [`AgentPlugin::skill_folders`]): `.claude/skills` is
/// read by Claude Code and opencode, `.agents/skills` by Codex and opencode, `.codex/skills` by
/// Codex, `.opencode/skill(s)` and `~/.config/opencode/skill(s)` by opencode. A skill elsewhere
/// is read by the agent its root was tagged with, if that agent has switches.
pub fn readers(skill: &Skill) -> Vec<Agent> {
    readers_in(REGISTRY, skill)
}

fn readers_in(registry: Registry, skill: &Skill) -> Vec<Agent> {
    let found = folder_readers(
        registry.iter().map(|p| (p.id(), p.skill_folders())),
        &skill.dir,
    );
    if !found.is_empty() {
        found
    } else if find(registry, skill.agent).is_some() {
        vec![skill.agent]
    } else {
        Vec::new()
    }
}

/// The agents (of `agents`, each with the folders it reads) that read the nearest folder above
/// `dir` that any of them reads; empty when none does.
pub(crate) fn folder_readers<'a>(
    agents: impl Iterator<Item = (Agent, &'a [&'a [&'a str]])> + Clone,
    dir: &Path,
) -> Vec<Agent> {
    // One pass over the components: this runs for every row of a list.
    let names: Vec<Option<&str>> = dir.components().map(|c| c.as_os_str().to_str()).collect();
    // The skill's own folder is not a candidate, only the folders above it.
    for end in (1..names.len()).rev() {
        let ends_with = |folder: &[&str]| {
            end >= folder.len()
                && folder
                    .iter()
                    .rev()
                    .zip(names[..end].iter().rev())
                    .all(|(want, got)| *got == Some(*want))
        };
        let found: Vec<Agent> = agents
            .clone()
            .filter(|(_, folders)| folders.iter().any(|f| ends_with(f)))
            .map(|(a, _)| a)
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The project folder agents take their project settings from: the repository root above
/// `cwd` (the first folder holding `.git`), else `cwd` itself; never the home folder.
pub fn project_root(cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    for dir in cwd.ancestors() {
        if Some(dir) == home {
            break;
        }
        if dir.join(".git").exists() {
            return Some(dir.to_path_buf());
        }
    }
    if Some(cwd) == home {
        None
    } else {
        Some(cwd.to_path_buf())
    }
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
