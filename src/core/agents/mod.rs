//! What each agent will really do with a skill: the agents' own switches (Claude Code
//! `skillOverrides`, Codex `[[skills.config]]`, opencode `permission.skill`) read per skill with
//! their source, and toggles written through to those files.

mod claude;
mod codex;
pub mod jsonc;
mod opencode;
mod plan;

pub use plan::{Applied, ToggleError, TogglePlan, apply, backup_path};

use crate::core::catalogue::RuleId;
use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The agents that have per-skill switches skillscope can read and write.
pub const SWITCHABLE: [Agent; 3] = [Agent::ClaudeCode, Agent::Codex, Agent::Opencode];

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

    /// Whether its listing entry carries the description.
    pub fn described(self) -> bool {
        self == AgentState::On
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
    home: PathBuf,
    project: Option<PathBuf>,
    files: Vec<SettingsFile>,
    claude: Vec<claude::Override>,
    codex: codex::Index,
    opencode: Vec<opencode::Rule>,
    canonical: codex::Canonical,
}

impl AgentSwitches {
    /// Reads every agent's settings under `home` and, when given, the project folder. Files that
    /// do not parse are reported and ignored (their switches count as unset).
    pub fn load(home: &Path, project: Option<&Path>) -> (AgentSwitches, Vec<Diagnostic>) {
        let mut files = Vec::new();
        for (agent, scope, path) in settings_paths(home, project) {
            let text = match std::fs::read(&path) {
                Ok(bytes) => match String::from_utf8(bytes) {
                    Ok(s) => Ok(Some(s)),
                    Err(_) => Err("it is not UTF-8 text".to_string()),
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e.to_string()),
            };
            files.push(SettingsFile {
                agent,
                scope,
                path,
                text,
            });
        }
        AgentSwitches::build(home, project, files, codex::Canonical::default())
    }

    fn build(
        home: &Path,
        project: Option<&Path>,
        files: Vec<SettingsFile>,
        canonical: codex::Canonical,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let mut sw = AgentSwitches {
            home: home.to_path_buf(),
            project: project.map(Path::to_path_buf),
            files: Vec::new(),
            claude: Vec::new(),
            codex: codex::Index::default(),
            opencode: Vec::new(),
            canonical,
        };
        let mut codex_entries = Vec::new();
        for f in &files {
            let text = match &f.text {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(why) => {
                    diags.push(settings_warning(
                        &f.path,
                        format!("cannot read it ({why}); its switches are ignored"),
                    ));
                    continue;
                }
            };
            let shown = show_path(&f.path, home);
            match f.agent {
                Agent::ClaudeCode => sw
                    .claude
                    .extend(claude::read(&f.path, &shown, text, &mut diags)),
                Agent::Codex => {
                    codex_entries.extend(codex::read(&f.path, &shown, text, home, &mut diags))
                }
                Agent::Opencode => sw
                    .opencode
                    .extend(opencode::read(&f.path, &shown, text, &mut diags)),
                _ => {}
            }
        }
        sw.codex = codex::Index::new(codex_entries);
        sw.files = files;
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
            &self.home,
            self.project.as_deref(),
            files,
            self.canonical.clone(),
        )
        .0
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    pub fn project(&self) -> Option<&Path> {
        self.project.as_deref()
    }

    /// The skill's state for `agent` and why. Agents without switches always load what they read.
    pub fn effective(&self, skill: &Skill, agent: Agent) -> Effective {
        match agent {
            Agent::ClaudeCode => claude::effective(&self.claude, skill),
            Agent::Codex => codex::effective(&self.codex, skill, &self.canonical),
            Agent::Opencode => opencode::effective(&self.opencode, skill),
            other => Effective {
                state: AgentState::On,
                source: format!("default ({other} has no per-skill switches)"),
                file: None,
            },
        }
    }

    /// One badge per agent with switches: whether it reads the skill's folder and what it does
    /// with it.
    pub fn badges(&self, skill: &Skill) -> Vec<Badge> {
        let reads = readers(skill);
        SWITCHABLE
            .iter()
            .map(|&agent| Badge {
                agent,
                reads: reads.contains(&agent),
                effective: self.effective(skill, agent),
            })
            .collect()
    }

    /// The settings file a toggle for `agent` at `scope` edits.
    pub fn settings_file(&self, agent: Agent, scope: SwitchScope) -> Result<PathBuf, ToggleError> {
        let unsupported = |why: &'static str| ToggleError::Unsupported { agent, scope, why };
        if !SWITCHABLE.contains(&agent) {
            return Err(unsupported("it has no per-skill switches"));
        }
        if agent == Agent::Codex && scope != SwitchScope::User {
            return Err(unsupported(
                "Codex reads [[skills.config]] only from ~/.codex/config.toml",
            ));
        }
        if agent == Agent::Opencode && scope == SwitchScope::Local {
            return Err(unsupported(
                "opencode has no personal project settings file",
            ));
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
        readers(skill)
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
) -> Option<jsonc::Node> {
    if text.trim().is_empty() {
        return None;
    }
    match jsonc::parse(text) {
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

/// Every settings file that can hold per-skill switches, in the order the agents apply them
/// (later ones win).
fn settings_paths(home: &Path, project: Option<&Path>) -> Vec<(Agent, SwitchScope, PathBuf)> {
    let mut out = vec![(
        Agent::ClaudeCode,
        SwitchScope::User,
        home.join(".claude/settings.json"),
    )];
    if let Some(p) = project {
        out.push((
            Agent::ClaudeCode,
            SwitchScope::Project,
            p.join(".claude/settings.json"),
        ));
        out.push((
            Agent::ClaudeCode,
            SwitchScope::Local,
            p.join(".claude/settings.local.json"),
        ));
    }
    out.push((
        Agent::Codex,
        SwitchScope::User,
        home.join(".codex/config.toml"),
    ));
    let oc = home.join(".config/opencode");
    out.push((Agent::Opencode, SwitchScope::User, oc.join("opencode.json")));
    out.push((
        Agent::Opencode,
        SwitchScope::User,
        oc.join("opencode.jsonc"),
    ));
    if let Some(p) = project {
        out.push((
            Agent::Opencode,
            SwitchScope::Project,
            p.join("opencode.json"),
        ));
        out.push((
            Agent::Opencode,
            SwitchScope::Project,
            p.join("opencode.jsonc"),
        ));
    }
    out
}

/// A path for people: `~/…` under the home folder, else as it is.
pub fn show_path(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) if !home.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => path.display().to_string(),
    }
}

/// The agents that read the folder a skill is in, found from the nearest `…/skills` folder
/// above it: `.claude/skills` is read by Claude Code and opencode, `.agents/skills` by Codex and
/// opencode, `.codex/skills` by Codex, `.opencode/skill(s)` and `~/.config/opencode/skill(s)` by
/// opencode. A skill elsewhere is read by the agent its root was tagged with, if any.
pub fn readers(skill: &Skill) -> Vec<Agent> {
    // One pass over the components: this runs for every row of a list.
    let names: Vec<&std::ffi::OsStr> = skill.dir.components().map(|c| c.as_os_str()).collect();
    // The skill's own folder is not a candidate, only the folders above it.
    for end in (1..names.len()).rev() {
        let at = |back: usize| {
            end.checked_sub(back)
                .and_then(|i| names.get(i))
                .and_then(|n| n.to_str())
        };
        match (at(3), at(2), at(1)) {
            (_, Some(".claude"), Some("skills")) => {
                return vec![Agent::ClaudeCode, Agent::Opencode];
            }
            (_, Some(".agents"), Some("skills")) => return vec![Agent::Codex, Agent::Opencode],
            (_, Some(".codex"), Some("skills")) => return vec![Agent::Codex],
            (_, Some(".opencode"), Some("skill" | "skills"))
            | (Some(".config"), Some("opencode"), Some("skill" | "skills")) => {
                return vec![Agent::Opencode];
            }
            _ => {}
        }
    }
    if SWITCHABLE.contains(&skill.agent) {
        vec![skill.agent]
    } else {
        Vec::new()
    }
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
mod tests;
