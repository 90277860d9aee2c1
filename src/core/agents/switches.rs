//! Every agent's switches read once: the registry of agent plugins and what their settings files
//! say of each skill.

use super::error::ToggleError;
use super::gemini::settings::GeminiSettings;
use super::model::folder_readers;
use super::plugin::{
    AgentPlugin, AgentState, Badge, Effective, PathCache, Registry, SettingsText, SkillSwitches,
    settings_warning, show_path,
};
use super::scope::SwitchScope;
use super::{claude, codex, copilot, gemini, openclaw, opencode, qwen};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every agent with per-skill switches. A new agent is a new file in this folder and one line here.
pub static REGISTRY: Registry = &[
    &claude::switches::ClaudeCode,
    &codex::switches::Codex,
    &opencode::switches::Opencode,
    &openclaw::switches::Openclaw,
    &copilot::switches::COPILOT,
    &qwen::switches::QWEN_CODE,
    &gemini::switches::GEMINI,
];

fn find(registry: Registry, agent: Agent) -> Option<&'static dyn AgentPlugin> {
    registry.iter().copied().find(|p| p.id() == agent)
}

/// Whether `agent` has per-skill switches of its own (settings files skillscope reads and
/// writes): the registered agents. Such an agent obeys only its own switches, never
/// skillscope's store.
pub fn has_switches(agent: Agent) -> bool {
    find(REGISTRY, agent).is_some()
}

/// Whether `agent`'s own settings decide `skill` in its view: the agent has per-skill switches
/// and the skill is installed in an agent's folder. Folders named on the command line and the
/// demo are no agent's install, so skillscope's own switch decides them, as it does every skill
/// for an agent without switches. The one rule every view (listing, budget, match, the app)
/// applies.
///
/// Lazy Skills is the exception: its one switch, `auto_load`, is in each skill's own
/// frontmatter, and its registry applies it to every folder it scans (design 000, `scan()`:
/// `for skills_dir in self.skills_dirs: … enabled=auto_enable and metadata.get("auto_load",
/// False)`), so folders named on the command line obey it too.
pub fn obeys_own_switches(agent: Agent, skill: &Skill) -> bool {
    agent.home().frontmatter_switch.is_some()
        || (has_switches(agent) && !matches!(skill.agent, Agent::Path | Agent::Demo))
}

/// Whether `skill` is on in `agent`'s view by the agent's own switch, where that decides and
/// not skillscope's store: for an agent with settings switches, on (its view applies them:
/// [`crate::core::agents::view::agent_view`]); for Lazy Skills, its `auto_load` (off is not
/// hidden: its `all` listing mode still lists the skill, as `list_level1(mode="all")` does);
/// `None` where skillscope's store decides.
pub fn own_switch(agent: Agent, skill: &Skill) -> Option<bool> {
    if let Some(on) = agent.home().frontmatter_switch {
        Some(on(skill))
    } else {
        obeys_own_switches(agent, skill).then_some(true)
    }
}

/// The help legend of the agents' badges: `C Claude Code, X Codex, O opencode`.
pub fn legend(registry: Registry) -> String {
    registry
        .iter()
        .map(|p| p.legend())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A settings file as read: missing, its text, or why it could not be read.
#[derive(Debug, Clone)]
struct SettingsFile {
    agent: Agent,
    scope: SwitchScope,
    path: PathBuf,
    text: Result<Option<String>, Unread>,
}

/// Why a settings file could not be read (the messages name the file already).
#[derive(Debug, Clone, thiserror::Error)]
enum Unread {
    /// Its bytes are not UTF-8.
    #[error("it is not UTF-8 text")]
    NotUtf8,
    /// It could not be read.
    #[error("{}", .0.reason())]
    File(Arc<crate::core::files::fsx::FsxError>),
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
    /// What Gemini CLI's settings say of its skills (it has switches, but no toggle yet).
    gemini: Arc<GeminiSettings>,
}

impl AgentSwitches {
    /// Reads every registered agent's settings under `home` and, when given, the project
    /// folder. Files that do not parse are reported and ignored (their switches count as unset).
    pub fn load(home: &Path, project: Option<&Path>) -> (AgentSwitches, Vec<Diagnostic>) {
        AgentSwitches::load_with(REGISTRY, home, project)
    }

    /// [`AgentSwitches::load`] for one agent in view: only its own settings files are read
    /// (none for an agent without switches; Gemini CLI's trust and settings only for Gemini CLI),
    /// so another agent's settings file, however broken, is neither opened nor reported.
    pub fn load_for(
        agent: Agent,
        home: &Path,
        project: Option<&Path>,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        AgentSwitches::load_for_in(agent, home, project, &|k| std::env::var(k).ok())
    }

    /// [`AgentSwitches::load_for`] with the environment given by `env` (Gemini CLI's folder
    /// trust reads it): what the agent sees when its client runs with that environment.
    pub fn load_for_in(
        agent: Agent,
        home: &Path,
        project: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        let own = REGISTRY
            .iter()
            .position(|p| p.id() == agent)
            .map_or(&REGISTRY[..0], |i| &REGISTRY[i..=i]);
        AgentSwitches::load_with_in(own, home, project, env)
    }

    /// [`AgentSwitches::load`] for the agents of `registry`; Gemini CLI's settings (its folder
    /// trust too) are read only when it is one of them.
    pub fn load_with(
        registry: Registry,
        home: &Path,
        project: Option<&Path>,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        AgentSwitches::load_with_in(registry, home, project, &|k| std::env::var(k).ok())
    }

    /// [`AgentSwitches::load_with`] with the environment given by `env`.
    fn load_with_in(
        registry: Registry,
        home: &Path,
        project: Option<&Path>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> (AgentSwitches, Vec<Diagnostic>) {
        let mut files = Vec::new();
        for p in registry {
            for (scope, path) in p.settings_paths(home, project) {
                let text = match crate::core::files::fsx::read_settings(&path) {
                    Ok(Some(bytes)) => match String::from_utf8(bytes) {
                        Ok(s) => Ok(Some(s)),
                        Err(_) => Err(Unread::NotUtf8),
                    },
                    Ok(None) => Ok(None),
                    Err(e) => Err(Unread::File(Arc::new(e))),
                };
                files.push(SettingsFile {
                    agent: p.id(),
                    scope,
                    path,
                    text,
                });
            }
        }
        let (gemini, mut found) = if registry.iter().any(|p| p.id().home().trusts_folders) {
            let workspace = gemini_workspace(project);
            GeminiSettings::read(home, workspace.as_deref(), env)
        } else {
            (GeminiSettings::default(), Vec::new())
        };
        let (sw, diags) = AgentSwitches::build(
            registry,
            home,
            project,
            files,
            PathCache::default(),
            Arc::new(gemini),
        );
        found.extend(diags);
        (sw, found)
    }

    fn build(
        registry: Registry,
        home: &Path,
        project: Option<&Path>,
        files: Vec<SettingsFile>,
        paths: PathCache,
        gemini: Arc<GeminiSettings>,
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
            gemini,
        };
        (sw, diags)
    }

    /// The same switches with one file's text replaced: what the agent would see after an edit.
    pub(super) fn with_text(&self, path: &Path, text: &str) -> AgentSwitches {
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
            Arc::clone(&self.gemini),
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

    /// The home folder the settings were read under.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Whether `agent` is installed here: one of its settings files or the folder of its user
    /// settings exists, or its command is on PATH or where its installers put it.
    pub fn installed(&self, agent: Agent) -> bool {
        let Some(command) = agent.home().command else {
            return true;
        };
        let settings = self.files.iter().filter(|f| f.agent == agent).any(|f| {
            f.path.exists()
                || (f.scope == SwitchScope::User && f.path.parent().is_some_and(Path::is_dir))
        });
        let extra = crate::core::files::on_path::install_dirs(Some(&self.home));
        settings
            || crate::core::files::on_path::find_command(
                command,
                &std::env::var_os("PATH").unwrap_or_default(),
                &extra,
            )
            .is_some()
    }

    /// Every settings file read (or looked for): what a watcher keeps an eye on.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self.files.iter().map(|f| f.path.clone()).collect();
        out.extend(GeminiSettings::files(
            &self.home,
            self.gemini.workspace.as_deref(),
        ));
        out
    }

    /// What Gemini CLI's settings say of its skills: trust, `skills.disabled`, `skills.enabled`.
    pub fn gemini(&self) -> &GeminiSettings {
        &self.gemini
    }

    /// The project folder the settings were read under, if any.
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

    /// The state `agent`'s settings give a skill called `name` that is no skill of the library
    /// (a built-in of its client).
    pub fn effective_for_name(&self, name: &str, agent: Agent) -> Effective {
        let root = crate::core::source::Root::new("", agent, crate::core::source::Scope::User);
        let mut probe = Skill::new(&root, PathBuf::new(), PathBuf::new());
        probe.name = name.to_string();
        self.effective(&probe, agent)
    }

    /// The setting that keeps `agent` from listing any skill at all, if one does.
    pub fn listing_off(&self, agent: Agent) -> Option<String> {
        let i = self.registry.iter().position(|p| p.id() == agent)?;
        self.views[i].listing_off()
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
            return Err(unsupported(agent.home().no_switch));
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
        let file = existing
            .map(|f| f.path.clone())
            .ok_or_else(|| unsupported("no settings file is known for it"))?;
        if scope != SwitchScope::User
            && let Some(project) = &self.project
            && let Some(to) = crate::core::files::paths::leads_out(&file, project)
        {
            return Err(ToggleError::LeavesProject {
                file,
                project: project.clone(),
                to,
            });
        }
        Ok(file)
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
    let mut out = readers_at(registry, &skill.dir, skill.agent, skill.scope);
    // A skill linked into other agents' folders is read by the readers of each place.
    for p in &skill.linked {
        for a in readers_at(registry, &p.dir, p.agent, p.scope) {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

fn readers_at(
    registry: Registry,
    dir: &Path,
    agent: Agent,
    scope: crate::core::source::Scope,
) -> Vec<Agent> {
    let mut found = folder_readers(registry.iter().map(|p| (p.id(), p.skill_folders())), dir);
    super::model::user_claude_folder_aside(scope, dir, &mut found);
    if !found.is_empty() {
        found
    } else if find(registry, agent).is_some() {
        vec![agent]
    } else {
        Vec::new()
    }
}

/// The folder Gemini CLI is taken to run in: the current folder when it is inside the project
/// folder (Gemini CLI reads the project skills of the folder it starts in, not of the
/// repository's root), else the project folder.
fn gemini_workspace(project: Option<&Path>) -> Option<PathBuf> {
    let project = project?;
    let cwd = std::env::current_dir().ok();
    Some(
        cwd.filter(|c| c.starts_with(project))
            .unwrap_or_else(|| project.to_path_buf()),
    )
}
