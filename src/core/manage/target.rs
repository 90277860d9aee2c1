//! Where skills can be added: the agents and scopes a skill is installed for, and the folder
//! names and times the installs record.

use super::error::{ManageError, Refusal};
use crate::core::listing::Format;
use crate::core::rules::Profile;
use crate::core::source::{self, Agent, Root, Scope};
use std::path::{Path, PathBuf};

/// The agents skills can be added to: every agent with skill folders of its own.
/// (Every agent of [`Agent::ALL`] but the last two: the folders given and the demo.)
pub const TARGET_AGENTS: [Agent; Agent::ALL.len() - 2] = {
    let mut out = [Agent::Generic; Agent::ALL.len() - 2];
    let mut i = 0;
    while i < out.len() {
        out[i] = Agent::ALL[i];
        i += 1;
    }
    out
};

/// The agent named `name` (`claude-code`, `codex`, …; the triggers agent `triggers`, or
/// `generic` as it was first called), when skills can be added to it.
pub fn agent_named(name: &str) -> Option<Agent> {
    TARGET_AGENTS
        .into_iter()
        .find(|a| a.as_str() == name || a.shown() == name)
}

/// The rules an agent's skills are judged by (its model's profile).
pub fn profile_for(agent: Agent) -> Profile {
    crate::core::agents::model::model(agent).profile
}

/// The listing format an agent's system prompt holds its skills in (its model's format).
pub fn format_for(agent: Agent) -> Format {
    crate::core::agents::model::model(agent).format
}

/// Where skills go: one agent's skill folder at one scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The agent whose folder it is.
    pub agent: Agent,
    /// User or project.
    pub scope: Scope,
    /// The skill folder (it may not exist yet).
    pub dir: PathBuf,
    /// Every folder the agent reads skills from at any scope, the target's included: what its
    /// listing holds before and after.
    pub view: Vec<Root>,
}

impl Target {
    /// `agent`'s skill folder at `scope`: the first of its folders there that exists, else the
    /// first it reads. The project scope needs a project folder.
    pub fn resolve(
        agent: Agent,
        scope: Scope,
        home: &Path,
        project: Option<&Path>,
    ) -> Result<Target, ManageError> {
        let base = match scope {
            Scope::User => home,
            Scope::Project => project.ok_or(Refusal::NoProject)?,
            _ => {
                return Err(Refusal::Scope(scope).into());
            }
        };
        let folders = source::folders(agent, scope);
        let dir = folders
            .iter()
            .map(|rel| base.join(rel))
            .find(|p| p.is_dir())
            .or_else(|| folders.first().map(|rel| base.join(rel)))
            .ok_or(Refusal::NoAgentFolder {
                agent: agent.shown(),
                scope,
            })?;
        if scope == Scope::Project {
            inside_project(&dir, base)?;
            inside_project(&dir.join(super::manifest::FILE), base)?;
        }
        let cwd = project.unwrap_or(home);
        // Every root the pricing agent reads, the other agents' folders it borrows included: the
        // whole view an install changes.
        let priced = crate::core::agents::model::pricing_agent(agent, scope, &dir);
        let mut view: Vec<Root> = source::default_roots(Some(home), cwd)
            .into_iter()
            .filter(|r| crate::core::agents::model::reads_root(priced, r))
            .collect();
        if !view.iter().any(|r| r.path == dir) {
            view.push(Root::new(dir.clone(), agent, scope));
        }
        Ok(Target {
            agent,
            scope,
            dir,
            view,
        })
    }

    /// The agent whose listing and rules an install here is priced by: the folder's own agent,
    /// or for a design document's agent in a folder real clients read (`.agents/skills`), the
    /// first of those clients (see [`crate::core::agents::model::pricing_agent`]).
    pub fn pricing_agent(&self) -> Agent {
        crate::core::agents::model::pricing_agent(self.agent, self.scope, &self.dir)
    }

    /// `agent:scope`, as `move --to` takes it.
    pub fn label(&self) -> String {
        format!("{}:{}", self.agent.shown(), self.scope)
    }
}

/// Refuses a project-scope write to `path` that leads out of `project` once the links on the
/// way are resolved: a clone that commits `.agents -> ../../.claude` (or links `.claude`,
/// `.claude/skills` or a lock file outward) must not make an install write into the user's own
/// folders while naming the project's.
pub fn inside_project(path: &Path, project: &Path) -> Result<(), ManageError> {
    match crate::core::files::paths::leads_out(path, project) {
        None => Ok(()),
        Some(to) => Err(Refusal::LeavesProject {
            path: path.to_path_buf(),
            project: project.to_path_buf(),
            to,
        }
        .into()),
    }
}

/// The folder `dir` a write goes into, as it is now: still inside its `project` for a
/// project-scope write (a link planted since the target was resolved may carry it out) and still
/// the folder the write began in (`identity`, its device and inode then). Checked after each step that
/// names the folder by its path and right before each rename, so a link swapped in meanwhile
/// makes the write stop, with nothing written outside the project.
pub fn still_inside(
    dir: &Path,
    project: Option<&Path>,
    identity: Option<(u64, u64)>,
) -> Result<(u64, u64), ManageError> {
    if let Some(project) = project {
        inside_project(dir, project)?;
    }
    let now = crate::core::files::fsx::identity(dir).map_err(ManageError::io("read", dir))?;
    if identity.is_some_and(|was| was != now) {
        return Err(Refusal::Swapped(dir.to_path_buf()).into());
    }
    Ok(now)
}

/// A folder name a skill can be installed under: one plain component of letters, digits, `.`,
/// `_` and `-`, not starting with a dot (hidden folders are not read as skills).
pub fn safe_folder_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// The exclusive lock on changes to the skill folder `dir`: installs, replacements, removals
/// and restores in it, with its manifest, are one step each for every other process (its
/// sidecar, `.skillscope-install.lock`, is removed when released).
pub fn folder_lock(dir: &Path) -> Result<crate::core::files::fsx::FileLock, ManageError> {
    Ok(crate::core::files::fsx::lock(
        &dir.join("skillscope-install"),
        crate::core::files::fsx::lock_wait(),
    )?)
}

/// A folder name read from something untrusted (a manifest's key, an archive, a tree) made
/// sure to be one plain name before it is joined to a folder: [`safe_folder_name`], else a
/// refusal that says where it came from.
pub fn plain_folder<'a>(name: &'a str, from: &Path) -> Result<&'a str, ManageError> {
    if safe_folder_name(name) {
        Ok(name)
    } else {
        Err(Refusal::NotPlainName {
            from: from.to_path_buf(),
            name: name.to_string(),
        }
        .into())
    }
}

/// The time now as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

/// Seconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (the proleptic Gregorian calendar).
pub fn utc(secs: u64) -> String {
    let (y, m, d, h, mi, s) = crate::core::words::text::utc_parts(secs);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}
