//! The app's state beside its screens, in small parts: the rules' findings, the switches, the
//! managing flows' settings, the models, the config's notes, what `skillscope verify` found, the
//! footer and what the run loop is asked to do.

use crate::core::agents::AgentSwitches;
use crate::core::findings::diagnostic::{Counts, Diagnostic};
use crate::core::front::state::EnableState;
use crate::core::manage::Target;
use crate::core::manage::trash::{Trash, TrashEntry};
use crate::core::pricing::model::Model;
use crate::core::pricing::usage::UseCost;
use crate::core::rules::Profile;
use crate::core::source::{Agent, Scope};
use crate::tui::external::EditRequest;
use crate::tui::keymap::Keymap;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many past messages the help overlay lists.
const MESSAGES_KEPT: usize = 8;

/// How many ticks (200 ms each) a footer message stays: about four seconds.
pub const STATUS_TICKS: u64 = 20;

/// A message in the footer, until it expires: [`STATUS_TICKS`] ticks after it was set (errors
/// twice as long), or at the next screen change.
#[derive(Debug, Clone)]
pub struct Status {
    pub text: String,
    pub error: bool,
    /// The tick count when it was set.
    pub at: u64,
}

/// The footer's message and the last ones said.
#[derive(Debug, Default)]
pub struct Footer {
    pub status: Option<Status>,
    /// The last footer messages, latest first, whole: the help overlay lists them, for a
    /// message cut short in the footer or gone before it was read.
    pub messages: VecDeque<Status>,
}

impl Footer {
    pub fn say(&mut self, status: Status) {
        if self.messages.front().is_none_or(|m| m.text != status.text) {
            self.messages.push_front(status.clone());
            self.messages.truncate(MESSAGES_KEPT);
        }
        self.status = Some(status);
    }

    /// Clears the message once it has been shown long enough at tick `now`.
    pub fn expire(&mut self, now: u64) {
        if let Some(s) = &self.status {
            let ttl = if s.error {
                2 * STATUS_TICKS
            } else {
                STATUS_TICKS
            };
            if now.wrapping_sub(s.at) >= ttl {
                self.status = None;
            }
        }
    }
}

/// What the rules found: each skill's diagnostics, for which profile, and how far they ran.
#[derive(Debug, Default)]
pub struct Findings {
    /// Each skill's diagnostics: the parse findings at first, every rule's once checked.
    pub diags: Vec<Vec<Diagnostic>>,
    pub counts: Vec<Counts>,
    pub profile: Profile,
    /// The user picked `profile` (else it follows the library: lazy-skills for the demo).
    pub chosen: bool,
    /// Some skill is in an agent's folder: until a profile is picked, each is judged by its
    /// agent's profile (the rest by `profile`).
    pub per_agent: bool,
    /// The rules of `profile` have run on the current library.
    pub checked: bool,
}

impl Findings {
    pub fn set(&mut self, diags: Vec<Vec<Diagnostic>>) {
        self.counts = diags.iter().map(Counts::of).collect();
        self.diags = diags;
    }
}

/// Which skills are on: skillscope's own store and the agents' settings files.
#[derive(Debug, Default)]
pub struct Switches {
    /// Each skill on or off, as skillscope lists it.
    pub enabled: Vec<bool>,
    /// skillscope's own on/off store; `None` when the system has no config folder.
    pub state: Option<EnableState>,
    /// The agents' own switches (settings files), read on a worker.
    pub agents: Option<Arc<AgentSwitches>>,
    /// The home folder whose agent settings are read.
    pub home: Option<PathBuf>,
    /// Some skill is in a folder that an agent with per-skill switches reads.
    pub agent_readers: bool,
    /// What the agent in view does with each skill (empty when no agent is in view): its
    /// folders, precedence, conditional skills and own switches, as its listing applies them.
    pub seen: Vec<crate::core::agents::view::Seen>,
    /// Each skill listed by the agent in view (skillscope's own switch for an agent without
    /// any, or with no agent in view).
    pub on: Vec<bool>,
    /// How many times the agents' switches were read: the views built with older ones are
    /// built again.
    pub read: u64,
    /// Watches the agents' settings files: an edit on disk reads them again.
    pub watch: Option<crate::core::files::watch::Watch>,
}

impl Switches {
    /// Whether the agent in view lists skill `i`.
    pub fn is_on(&self, i: usize) -> bool {
        self.on.get(i).copied().unwrap_or(false)
    }
}

/// Where the Add flow installs and removed skills go.
#[derive(Debug)]
pub struct Manage {
    /// skillscope's data folder: the trash, and temporary folders for sources.
    pub data_dir: PathBuf,
    pub trash: Trash,
    pub agent: Agent,
    pub scope: Scope,
    /// The skill removed last, for undo.
    pub last_removed: Option<TrashEntry>,
}

impl Manage {
    pub fn new(data_dir: PathBuf) -> Manage {
        Manage {
            trash: Trash::at(&data_dir),
            data_dir,
            // The first agent skills can be added for.
            agent: crate::core::manage::TARGET_AGENTS[0],
            scope: Scope::User,
            last_removed: None,
        }
    }
}

/// The home folder `home` and the project the working folder is in: where skills are added
/// and removed, and whose settings may name them.
pub fn home_and_project(home: Option<&Path>) -> Option<(PathBuf, Option<PathBuf>)> {
    let home = home?.to_path_buf();
    let cwd = std::env::current_dir().ok()?;
    let project = crate::core::agents::project_root(&cwd, Some(&home));
    Some((home, project))
}

impl Manage {
    /// Where the Add flow installs, for the home folder `home`.
    pub fn target(&self, home: Option<&Path>) -> Result<Target, String> {
        let (home, project) = home_and_project(home)
            .ok_or_else(|| "no home folder: nothing can be added".to_string())?;
        Target::resolve(self.agent, self.scope, &home, project.as_deref())
            .map_err(|e| e.to_string())
    }

    /// `claude-code user (~/.claude/skills)`.
    pub fn target_label(&self, home: Option<&Path>) -> String {
        match (self.target(home), home) {
            (Ok(t), Some(home)) => format!(
                "{} {} ({})",
                t.agent,
                t.scope,
                crate::core::agents::show_path(&t.dir, home)
            ),
            (Err(e), _) => e,
            (Ok(t), None) => t.dir.display().to_string(),
        }
    }

    /// The Add flow's next agent (`true`), or its other scope.
    pub fn cycle_target(&mut self, agent: bool) {
        if agent {
            let all = crate::core::manage::TARGET_AGENTS;
            let i = all.iter().position(|a| *a == self.agent).unwrap_or(0);
            self.agent = all[(i + 1) % all.len()];
        } else {
            self.scope = match self.scope {
                Scope::User => Scope::Project,
                _ => Scope::User,
            };
        }
    }
}

/// The model whose estimate is shown beside the figures, and the ones the model key cycles.
#[derive(Debug, Default)]
pub struct Models {
    pub chosen: Option<Model>,
    /// The models the model key cycles through (after "none").
    pub all: Vec<Model>,
}

impl Models {
    /// The presets, with `chosen` among them.
    pub fn new(chosen: Option<Model>) -> Models {
        let mut all = Model::presets();
        if let Some(m) = &chosen
            && !all.contains(m)
        {
            all.push(m.clone());
        }
        Models { chosen, all }
    }

    /// none → each model in turn → none.
    pub fn cycle(&mut self) {
        let next = match &self.chosen {
            None => 0,
            Some(m) => self.all.iter().position(|x| x == m).map_or(0, |i| i + 1),
        };
        self.chosen = self.all.get(next).cloned();
    }
}

/// The key bindings, and where each key press is logged.
#[derive(Debug, Default)]
pub struct Keys {
    pub map: Keymap,
    /// `SKILLSCOPE_KEY_LOG`: what a terminal's bytes became, for tests and bug reports.
    pub log: Option<PathBuf>,
}

/// What the config file said about itself, for the header and the help overlay.
#[derive(Debug, Default)]
pub struct ConfigInfo {
    /// Problems with the config file.
    pub notes: Vec<String>,
    pub path: Option<PathBuf>,
    /// What the config's key bindings moved.
    pub info: Vec<String>,
}

/// Each skill's cost when used, by its type.
#[derive(Debug, Default)]
pub struct Usage {
    /// For each composite skill, the skills its body names; `None` until read.
    pub links: Option<Vec<Vec<usize>>>,
    /// Empty until the names in composite bodies are known.
    pub used: Vec<UseCost>,
}

/// What the app asks of the run loop, which owns the terminal.
#[derive(Debug, Default)]
pub struct Requests {
    pub quit: bool,
    /// A file to open in the editor.
    pub edit: Option<EditRequest>,
    /// Text to put on the clipboard (OSC 52).
    pub clipboard: Option<String>,
    /// Paint every cell again at the next frame.
    pub redraw: bool,
    /// Set by the run loop: what follows a new library's counts (the body rules, the links,
    /// the matchers' index, the preview, the watcher) starts after the frame that shows them,
    /// so that frame is not drawn beside the workers starting up.
    pub frame_before_workers: bool,
    /// The counts are in and what follows them waits for the next frame drawn.
    pub after_counts: bool,
}

/// What the Prompt screen says about `skillscope verify`: the results remembered in the cache,
/// and the version of each agent's client installed on `PATH` (read from its npm package once,
/// when the app starts; nothing is run).
#[derive(Debug, Default)]
pub struct VerifyInfo {
    /// The remembered results.
    pub store: crate::core::verify::store::VerifyStore,
    /// The clients found on `PATH`, with their versions.
    pub installed: Vec<(Agent, String)>,
}

impl VerifyInfo {
    /// The results in `store` (the cache's `verify.json`), and with `look`, the clients on
    /// `PATH`.
    pub fn load(store: crate::core::verify::store::VerifyStore, look: bool) -> VerifyInfo {
        let path = std::env::var_os("PATH").filter(|_| look);
        let installed = path.map_or_else(Vec::new, |path| {
            crate::core::verify::agents()
                .filter_map(|a| {
                    let c = crate::core::verify::client(a)?;
                    Some((a, c.installed(&path)?.version))
                })
                .collect()
        });
        VerifyInfo { store, installed }
    }

    /// "modelled on X 2.1.332; installed 2.1.400", when the agent's installed client is not the
    /// version its model was captured from.
    pub fn version_note(&self, agent: Agent) -> Option<String> {
        let (_, version) = self.installed.iter().find(|(a, _)| *a == agent)?;
        crate::core::verify::client(agent)?.version_note(version)
    }

    /// The installed and the modelled version of `agent`'s client, when they differ.
    pub fn version_mismatch(&self, agent: Agent) -> Option<(String, &'static str)> {
        let (_, installed) = self.installed.iter().find(|(a, _)| *a == agent)?;
        let modelled = crate::core::verify::client(agent)?.modelled()?;
        (modelled != installed.as_str()).then(|| (installed.clone(), modelled))
    }

    /// The last result for `agent` whose listing was `listing`.
    pub fn result(
        &self,
        agent: Agent,
        listing: &str,
    ) -> Option<&crate::core::verify::store::Verified> {
        self.store
            .latest(agent.as_str(), &crate::core::words::text::text(listing))
    }
}
