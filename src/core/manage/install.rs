//! Writing skills into an agent's folder: every skill copied into a temporary folder next to the
//! target and renamed into place, the replaced one moved to the trash first, the manifest
//! updated under its lock. An interrupted install leaves nothing half-done.

use super::error::Refusal;
use super::manifest::{self, Entry};
use super::origin::OriginRecord;
use super::stage::Staged;
use super::trash::{Trash, TrashEntry};
use super::{ManageError, Target, tree};
use std::path::PathBuf;

/// Where the skills being installed came from.
#[derive(Debug, Clone)]
pub struct Provenance {
    /// The source, as the manifest records it.
    pub source: OriginRecord,
    /// The commit of a git source.
    pub commit: Option<String>,
    /// When a project's `skills-lock.json` gets the skills' entries too (project scope only).
    pub lock: super::lockfile::Record,
}

/// One skill written.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Installed {
    /// Its folder name in the agent's skill folder.
    pub folder: String,
    /// Its folder.
    pub dir: PathBuf,
    /// The skill it replaced, now in the trash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced: Option<TrashEntry>,
}

/// Installs `skills` (staged; they are used up: each is moved when it can be) into the target
/// folder. Each is moved or copied into a temporary folder next to the target first; only when every copy is complete are they renamed into place,
/// one rename each. A skill whose folder is taken is refused unless `replace`: the one there
/// then goes to `trash` first (and comes back if the rename fails). With `provenance`, each is
/// recorded in the folder's manifest (else the manifest keeps what it had for `keep`, the
/// entries of skills moved or copied in).
pub fn install(
    target: &Target,
    skills: &[&Staged],
    provenance: Option<&Provenance>,
    keep: &[(String, Entry)],
    replace: bool,
    trash: &Trash,
    reason: &str,
) -> Result<Vec<Installed>, ManageError> {
    let how = How {
        provenance,
        keep,
        replace,
        trash,
        reason,
    };
    install_watched(target, skills, &how, &mut || {})
}

/// What [`install`] records and replaces.
struct How<'a> {
    provenance: Option<&'a Provenance>,
    keep: &'a [(String, Entry)],
    replace: bool,
    trash: &'a Trash,
    reason: &'a str,
}

/// [`install`], `window` run twice: before anything is written (after the target was resolved
/// and checked) and once every copy is ready, just before the renames into place (tests swap
/// the folder for a link there, as a hostile process would).
fn install_watched(
    target: &Target,
    skills: &[&Staged],
    how: &How<'_>,
    window: &mut dyn FnMut(),
) -> Result<Vec<Installed>, ManageError> {
    let How {
        provenance,
        keep,
        replace,
        trash,
        reason,
    } = *how;
    for s in skills {
        super::target::plain_folder(&s.folder, &s.dir)?;
    }
    window();
    let project = super::lockfile::project_of(target);
    if let Some(project) = &project {
        super::target::inside_project(&target.dir, project)?;
    }
    std::fs::create_dir_all(&target.dir).map_err(ManageError::io("create", &target.dir))?;
    let identity = super::target::still_inside(&target.dir, project.as_deref(), None)?;
    // One install, removal or restore at a time in this folder: a replacement and its
    // manifest entry are one step for every other process.
    let _lock = super::target::folder_lock(&target.dir)?;
    super::target::still_inside(&target.dir, project.as_deref(), Some(identity))?;
    for s in skills {
        let place = target.dir.join(&s.folder);
        if !replace && std::fs::symlink_metadata(&place).is_ok() {
            return Err(Refusal::Installed(place.clone()).into());
        }
    }
    super::work::sweep_stale(&target.dir, ".skillscope-add-");
    super::work::sweep_removed(&target.dir);
    // A dot-folder: the scan never reads it, so a copy cut short is never taken for a skill.
    let tmp = tempfile::Builder::new()
        .prefix(".skillscope-add-")
        .tempdir_in(&target.dir)
        .map_err(ManageError::io("create a temporary folder in", &target.dir))?;
    let mut ready = Vec::new();
    for s in skills {
        let to = tmp.path().join(&s.folder);
        // The staged copy holds only what a copy would take (see `stage`): a rename keeps its
        // bytes and its hash; across file systems it is copied.
        if std::fs::rename(&s.dir, &to).is_err() {
            tree::copy_skill(&s.dir, &to)?;
        }
        ready.push((s, to, s.hash.clone()));
    }
    window();
    let mut done = Vec::new();
    let mut entries = Vec::new();
    for (s, from, hash) in ready {
        super::target::still_inside(&target.dir, project.as_deref(), Some(identity))?;
        let place = target.dir.join(&s.folder);
        let replaced = if std::fs::symlink_metadata(&place).is_ok() {
            Some(trash.put_locked(&place, reason)?)
        } else {
            None
        };
        if let Err(e) = std::fs::rename(&from, &place) {
            let failed = ManageError::io("move into place", &place)(e);
            if let Some(r) = &replaced
                && let Err(back) = trash.restore_locked(r)
            {
                return Err(Refusal::NotPutBack {
                    failed: Box::new(failed),
                    back: Box::new(back),
                    id: r.id.clone(),
                }
                .into());
            }
            return Err(failed);
        }
        if let Some(p) = provenance {
            entries.push((
                s.folder.clone(),
                Entry {
                    name: s.name.clone(),
                    source: p.source.clone(),
                    commit: p.commit.clone(),
                    subfolder: s.subfolder.clone(),
                    added: super::now_utc(),
                    hash,
                },
            ));
        } else if let Some((_, e)) = keep.iter().find(|(f, _)| *f == s.folder) {
            entries.push((s.folder.clone(), e.clone()));
        }
        done.push(Installed {
            folder: s.folder.clone(),
            dir: place,
            replaced,
        });
    }
    if !entries.is_empty() {
        super::target::still_inside(&target.dir, project.as_deref(), Some(identity))?;
        manifest::edit(&target.dir, |m| {
            for (f, e) in entries {
                m.skills.insert(f, e);
            }
        })?;
    }
    if let Some(p) = provenance {
        record_in_project(target, skills, p)?;
    }
    Ok(done)
}

/// Gives each skill installed into a project-scope target its `skills-lock.json` entry, when
/// the project keeps one (or `p.lock` says to make it). An archive has no entry there.
fn record_in_project(
    target: &Target,
    skills: &[&Staged],
    p: &Provenance,
) -> Result<(), ManageError> {
    let Some(project) = super::lockfile::project_of(target) else {
        return Ok(());
    };
    let path = project.join(crate::core::installers::skills_lock::FILE);
    if p.lock == super::lockfile::Record::IfPresent && !path.is_file() {
        return Ok(());
    }
    let origin = super::origin::Origin::from_record(&p.source)?;
    let mut entries = Vec::new();
    for s in skills {
        let dir = target.dir.join(&s.folder);
        if let Some(e) = super::lockfile::entry(&origin, &project, &s.subfolder, &dir)? {
            entries.push((s.name.clone(), e));
        }
    }
    if entries.is_empty() {
        return Ok(());
    }
    super::lockfile::edit(&project, p.lock, |m| {
        for (name, e) in entries {
            m.insert(name, e.to_json());
        }
    })
    .map_err(|e| Refusal::RecordNotUpdated {
        path: path.clone(),
        why: Box::new(e),
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::{Agent, Scope};
    use std::path::Path;

    struct Swap {
        _t: tempfile::TempDir,
        target: Target,
        staged: Staged,
        trash: Trash,
        /// The user's own `~/.claude/skills`, where the link leads.
        outside: PathBuf,
        /// Where the project's real folder is moved when the link takes its place.
        moved: PathBuf,
    }

    /// A project with its `.claude/skills`, the target resolved (and checked) there, one skill
    /// staged, and the user's own `~/.claude/skills` beside it.
    fn swap_fixture() -> Swap {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let project = t.path().join("project");
        let outside = home.join(".claude/skills");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::create_dir_all(project.join(".claude/skills")).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let target =
            Target::resolve(Agent::ClaudeCode, Scope::Project, &home, Some(&project)).unwrap();
        assert_eq!(target.dir, project.join(".claude/skills"));
        let dir = t.path().join("stage/pdf");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: pdf\ndescription: d\n---\n",
        )
        .unwrap();
        let staged = Staged {
            folder: "pdf".into(),
            name: "pdf".into(),
            subfolder: String::new(),
            dir,
            hash: String::new(),
            executables: Vec::new(),
            notes: Vec::new(),
        };
        let trash = Trash::at(&t.path().join("data"));
        Swap {
            moved: project.join(".claude/skills-moved"),
            _t: t,
            target,
            staged,
            trash,
            outside,
        }
    }

    /// Swaps the project's skill folder for a link to `to`, on the `at`-th call.
    fn swapper<'a>(from: &'a Path, moved: &'a Path, to: &'a Path, at: usize) -> impl FnMut() + 'a {
        let mut calls = 0;
        move || {
            calls += 1;
            if calls == at {
                std::fs::rename(from, moved).unwrap();
                crate::core::files::fsx::test_link(to, from).unwrap();
            }
        }
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// A link planted between the check of the target and the install (`.claude/skills` made a
    /// link to the user's own `~/.claude/skills`): nothing is written there, and the refusal
    /// says why.
    #[test]
    fn a_link_planted_after_the_check_carries_no_install_out_of_the_project() {
        let f = swap_fixture();
        let how = How {
            provenance: None,
            keep: &[],
            replace: false,
            trash: &f.trash,
            reason: "test",
        };
        let mut swap = swapper(&f.target.dir, &f.moved, &f.outside, 1);
        let err = install_watched(&f.target, &[&f.staged], &how, &mut swap).unwrap_err();
        assert!(
            err.to_string().contains("leads out of the project"),
            "{err}"
        );
        assert_eq!(entries(&f.outside), Vec::<String>::new());
    }

    /// The same link swapped in while the copies are made, just before they are renamed into
    /// place: the install stops there, nothing lands outside the project, and the skill is not
    /// in the project's folder either.
    #[test]
    fn a_link_swapped_in_before_the_rename_carries_nothing_out_of_the_project() {
        let f = swap_fixture();
        let how = How {
            provenance: None,
            keep: &[],
            replace: false,
            trash: &f.trash,
            reason: "test",
        };
        let mut swap = swapper(&f.target.dir, &f.moved, &f.outside, 2);
        let err = install_watched(&f.target, &[&f.staged], &how, &mut swap).unwrap_err();
        assert!(
            err.to_string().contains("leads out of the project"),
            "{err}"
        );
        assert_eq!(entries(&f.outside), Vec::<String>::new());
        assert!(!f.moved.join("pdf").exists());
    }
}
