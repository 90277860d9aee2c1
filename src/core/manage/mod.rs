//! Managing a library: skills added from git, folders and archives without running anything
//! from them, priced before they land, written atomically, recorded for `update`, removed to a
//! trash they can be restored from, moved and copied between agents.

pub(crate) mod archive;
mod error;
pub(crate) mod git;
pub(crate) mod install;
pub(crate) mod lockfile;
pub(crate) mod manifest;
pub(crate) mod origin;
pub(crate) mod preview;
pub mod settings;
pub mod stage;
mod target;
pub(crate) mod trash;
pub mod tree;
pub(crate) mod update;
mod work;

pub use error::{ArchiveError, ManageError, Refusal, SourceError};
pub use target::{
    TARGET_AGENTS, Target, agent_named, folder_lock, format_for, inside_project, now_utc,
    plain_folder, profile_for, safe_folder_name, still_inside, utc,
};
pub use work::work_dir;

use crate::core::source::{self, Scope};
use std::path::Path;

/// Every skill folder of the agents skills can be added to that exists, as targets: where
/// `update`, `remove` and `move` look for installed skills.
pub fn installed_targets(home: &Path, project: Option<&Path>) -> Vec<Target> {
    let cwd = project.unwrap_or(home);
    let roots = source::default_roots(Some(home), cwd);
    roots
        .iter()
        // Plugin folders belong to the plugin: skills are managed in the agents' own folders.
        .filter(|r| {
            TARGET_AGENTS.contains(&r.agent) && matches!(r.scope, Scope::User | Scope::Project)
        })
        .map(|r| {
            let priced = crate::core::agents::model::pricing_agent(r.agent, r.scope, &r.path);
            Target {
                agent: r.agent,
                scope: r.scope,
                dir: r.path.clone(),
                view: roots
                    .iter()
                    .filter(|x| {
                        x.path == r.path || crate::core::agents::model::reads_root(priced, x)
                    })
                    .cloned()
                    .collect(),
            }
        })
        .collect()
}

/// What removing a skill did besides moving it to the trash.
#[derive(Debug)]
pub struct Removed {
    /// Its trash entry (what a restore puts back).
    pub entry: trash::TrashEntry,
    /// The agents' links to it that were taken away (they would lead nowhere).
    pub unlinked: Vec<std::path::PathBuf>,
    /// The `skills-lock.json` its entry was taken out of.
    pub lock: Option<std::path::PathBuf>,
    /// What could not be done (a link left, the lock file unwritable), said and not fatal.
    pub problems: Vec<String>,
}

/// Removes the skill `name` at `dir` to the trash, as `npx skills remove` does: the agents'
/// links to it among `places` (its linked places) go with it, and so does its entry in the
/// project's `skills-lock.json`; the trash entry remembers both, so that
/// [`restore_skill`] puts them back.
pub fn remove_skill(
    bin: &trash::Trash,
    dir: &Path,
    name: &str,
    places: &[std::path::PathBuf],
) -> Result<Removed, ManageError> {
    let links: Vec<trash::TakenLink> = lockfile::links_to(dir, places)
        .into_iter()
        .filter_map(|at| {
            let to = std::fs::read_link(&at).ok()?;
            Some(trash::TakenLink { at, to })
        })
        .collect();
    let mut entry = bin.put(dir, "remove")?;
    let mut problems = Vec::new();
    let mut unlinked = Vec::new();
    for l in links {
        match std::fs::remove_file(&l.at) {
            Ok(()) => {
                unlinked.push(l.at.clone());
                entry.links.push(l);
            }
            Err(e) => problems.push(format!("the link {} was not removed: {e}", l.at.display())),
        }
    }
    let lock = match lockfile::forget(dir, name) {
        Ok(taken) => {
            let file = taken.as_ref().map(|t| t.file.clone());
            entry.lock = taken;
            file
        }
        Err(e) => {
            problems.push(e.to_string());
            None
        }
    };
    if !entry.links.is_empty() || entry.lock.is_some() {
        bin.record_taken(&entry)?;
    }
    Ok(Removed {
        entry,
        unlinked,
        lock,
        problems,
    })
}

/// What restoring a skill put back besides its folder.
#[derive(Debug, Default)]
pub struct Restored {
    /// The links made again.
    pub relinked: Vec<std::path::PathBuf>,
    /// The `skills-lock.json` its entry went back into.
    pub lock: Option<std::path::PathBuf>,
    /// What was not put back, and why.
    pub problems: Vec<String>,
}

/// Puts a removed skill back where it was (see [`trash::Trash::restore`]), with the links and the
/// `skills-lock.json` entry taken away with it: a link only where nothing is now and only one
/// that leads to the restored folder, the entry only into the file it came from and never over
/// one written since.
pub fn restore_skill(
    bin: &trash::Trash,
    entry: &trash::TrashEntry,
) -> Result<Restored, ManageError> {
    bin.restore(entry)?;
    let mut out = Restored::default();
    for l in &entry.links {
        match lockfile::relink(&entry.from, l) {
            Ok(true) => out.relinked.push(l.at.clone()),
            Ok(false) => out.problems.push(format!(
                "the link {} was not put back: something is there now, or it would not lead to {}",
                l.at.display(),
                entry.from.display()
            )),
            Err(e) => out.problems.push(e.to_string()),
        }
    }
    if let Some(taken) = &entry.lock {
        match lockfile::put_back(&entry.from, taken) {
            Ok(true) => out.lock = Some(taken.file.clone()),
            Ok(false) => {}
            Err(e) => out.problems.push(e.to_string()),
        }
    }
    Ok(out)
}

/// How an install records the skills it writes in the target's manifest.
#[derive(Debug, Clone)]
pub enum Recorded {
    /// With their source: the manifest (and a project's lock file, as it says) names it.
    Source(install::Provenance),
    /// Each keeps the manifest entry it had where it came from (a move or copy), by folder.
    Kept(Vec<(String, manifest::Entry)>),
}

/// Where and how a plan's chosen skills are installed.
#[derive(Debug, Clone)]
pub struct Install<'a> {
    /// The folder they go to: the plan's target, or `add --link`'s one copy.
    pub into: &'a Target,
    /// What the manifest records for them.
    pub recorded: Recorded,
    /// An installed skill of the same name goes to the trash first (else it is refused).
    pub replace: bool,
    /// Why a replaced skill is in the trash.
    pub reason: &'a str,
}

/// Skills staged and priced for one target, ready to install: the one install pipeline of the
/// CLI's `add`, `update`, `move` and `copy` and the app's Add flow (stage, price, choose by
/// [`Plan::choose`]'s policy, install).
pub struct Plan {
    /// Holds the clone and the staged copies until the plan is dropped (none when the caller
    /// holds the folder they were staged in).
    pub work: Option<tempfile::TempDir>,
    /// Where the skills come from.
    pub origin: origin::Origin,
    /// The commit fetched, for a git source.
    pub commit: Option<String>,
    /// The skills the source holds, staged.
    pub staged: Vec<stage::Staged>,
    /// Each staged skill judged and priced for the target.
    pub priced: Vec<preview::Priced>,
    /// The target's library and the figures the prices were made with.
    pub pricing: preview::Pricing,
    /// What was left out of the source, and why.
    pub notes: Vec<String>,
}

impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("origin", &self.origin)
            .field("commit", &self.commit)
            .field("skills", &self.staged.len())
            .finish_non_exhaustive()
    }
}

impl Plan {
    /// Fetches `source` into a temporary folder under `base` (in skillscope's data folder) and
    /// prices its skills for `target`; a source without skills is an error.
    pub fn make(source: &str, target: &Target, base: &Path) -> Result<Plan, ManageError> {
        let origin = origin::Origin::parse(source.trim(), None)?;
        let work = work_dir(base)?;
        let fetched = origin::fetch(&origin, work.path())?;
        let cache = std::sync::Arc::new(crate::core::tokens::TokenCache::open());
        let plan = Plan::stage(origin, fetched, work, &[], target, cache)?;
        if plan.staged.is_empty() {
            return Err(SourceError::NoSkills(plan.origin.shown()).into());
        }
        Ok(plan)
    }

    /// Stages the skills of a source fetched into `work` (only those `pick` names, when it
    /// names any) and prices them for `target`.
    pub fn stage(
        origin: origin::Origin,
        fetched: origin::Fetched,
        work: tempfile::TempDir,
        pick: &[String],
        target: &Target,
        cache: std::sync::Arc<crate::core::tokens::TokenCache>,
    ) -> Result<Plan, ManageError> {
        let own = !matches!(origin, origin::Origin::Folder(_));
        let found = stage::stage(&fetched.root, &work.path().join("stage"), pick, own)?;
        let mut plan = Plan::of_staged(
            origin,
            fetched.commit,
            Some(work),
            found.skills,
            target,
            cache,
        );
        plan.notes = fetched.notes;
        plan.notes.extend(found.notes);
        Ok(plan)
    }

    /// Prices skills staged already (an update's upstream version, the installed copy a move
    /// or copy takes) for `target`.
    pub fn of_staged(
        origin: origin::Origin,
        commit: Option<String>,
        work: Option<tempfile::TempDir>,
        staged: Vec<stage::Staged>,
        target: &Target,
        cache: std::sync::Arc<crate::core::tokens::TokenCache>,
    ) -> Plan {
        let pricing = preview::Pricing::new(target, &staged, cache);
        let priced = pricing.price(&staged);
        Plan {
            work,
            origin,
            commit,
            staged,
            priced,
            pricing,
            notes: Vec::new(),
        }
    }

    /// The skills to add (by folder), and those left out with why: the one policy of every
    /// install. A skill with errors under the target agent's profile is left out unless `pick`
    /// names it (by name, folder or folder inside the source).
    pub fn choose(&self, pick: &[String]) -> (Vec<&str>, Vec<(String, String)>) {
        let profile = target::profile_for(self.pricing.target.pricing_agent());
        let mut left_out: Vec<(String, String)> = Vec::new();
        let mut chosen: Vec<&str> = Vec::new();
        for p in &self.priced {
            let named = pick
                .iter()
                .any(|n| *n == p.name || *n == p.folder || *n == p.subfolder);
            if preview::left_out_unpicked(p) && !named {
                left_out.push((
                    p.folder.clone(),
                    format!(
                        "{} under the {profile} profile; --pick it to add it anyway",
                        p.verdict.label()
                    ),
                ));
            } else {
                chosen.push(&p.folder);
            }
        }
        (chosen, left_out)
    }

    /// Installs the staged skills of the `chosen` folders with their source into the target
    /// (refusing clashes).
    pub fn install(
        &self,
        chosen: &[&str],
        trash: &trash::Trash,
    ) -> Result<Vec<install::Installed>, ManageError> {
        let into = &self.pricing.target;
        self.install_into(into, chosen, lockfile::Record::IfPresent, false, trash)
    }

    /// Installs the staged skills of the `chosen` folders with their source into `into` (the
    /// target, or `add --link`'s one copy), recording them in the lock file as `lock` says;
    /// with `replace`, an installed skill of the same name goes to the trash first.
    pub fn install_into(
        &self,
        into: &Target,
        chosen: &[&str],
        lock: lockfile::Record,
        replace: bool,
        trash: &trash::Trash,
    ) -> Result<Vec<install::Installed>, ManageError> {
        let how = Install {
            into,
            recorded: Recorded::Source(install::Provenance {
                source: self.origin.record(),
                commit: self.commit.clone(),
                lock,
            }),
            replace,
            reason: "replaced by add",
        };
        self.install_as(&how, chosen, trash)
    }

    /// Installs the staged skills of the `chosen` folders as `how` says.
    pub fn install_as(
        &self,
        how: &Install<'_>,
        chosen: &[&str],
        trash: &trash::Trash,
    ) -> Result<Vec<install::Installed>, ManageError> {
        let picked: Vec<&stage::Staged> = self
            .staged
            .iter()
            .filter(|s| chosen.contains(&s.folder.as_str()))
            .collect();
        let (provenance, keep) = match &how.recorded {
            Recorded::Source(p) => (Some(p), &[][..]),
            Recorded::Kept(k) => (None, k.as_slice()),
        };
        install::install(
            how.into,
            &picked,
            provenance,
            keep,
            how.replace,
            trash,
            how.reason,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::Agent;

    #[test]
    fn times_are_utc_calendar_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_767_225_599), "2025-12-31T23:59:59Z");
    }

    #[test]
    fn folder_names_are_one_plain_component() {
        assert!(safe_folder_name("pdf-tools"));
        assert!(safe_folder_name("a.b_c"));
        for bad in ["", ".", "..", ".hidden", "a/b", "a b", "x\u{202e}", "é"] {
            assert!(!safe_folder_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_target_is_the_agents_folder_at_the_scope() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let proj = t.path().join("proj");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(proj.join(".git")).unwrap();
        let user = Target::resolve(Agent::ClaudeCode, Scope::User, &home, Some(&proj)).unwrap();
        assert_eq!(user.dir, home.join(".claude/skills"));
        assert!(user.view.iter().any(|r| r.path == user.dir));
        let p = Target::resolve(Agent::Codex, Scope::Project, &home, Some(&proj)).unwrap();
        assert_eq!(p.dir, proj.join(".codex/skills"));
        let g = Target::resolve(Agent::Generic, Scope::User, &home, None).unwrap();
        assert_eq!(g.dir, home.join(".agents/skills"));
        std::fs::create_dir_all(home.join(".config/agents/skills")).unwrap();
        let g = Target::resolve(Agent::Generic, Scope::User, &home, None).unwrap();
        assert_eq!(
            g.dir,
            home.join(".config/agents/skills"),
            "an existing folder wins"
        );
        assert!(Target::resolve(Agent::ClaudeCode, Scope::Project, &home, None).is_err());
    }
}
