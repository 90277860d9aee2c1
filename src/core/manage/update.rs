//! Updates of added skills: each source fetched again, each skill compared with what was added
//! (and with what is there now, to tell a local edit), priced, and applied only when asked.

use super::manifest::{self, Entry};
use super::origin::{self, Origin};
use super::stage::Staged;
use super::tree::{self, TreeDiff};
use super::{ManageError, Target};
use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// An added skill: its folder, the target folder it is in, and its manifest entry.
#[derive(Debug, Clone)]
pub struct Added {
    /// The target folder it was added to.
    pub target: Target,
    /// Its folder name there.
    pub folder: String,
    /// What the manifest recorded when it was added.
    pub entry: Entry,
}

impl Added {
    /// Its folder.
    pub fn dir(&self) -> PathBuf {
        self.target.dir.join(&self.folder)
    }
}

/// Every skill recorded in the manifests of `targets`.
pub fn added(targets: &[Target]) -> (Vec<Added>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for t in targets {
        match manifest::read(&t.dir) {
            Ok(m) => {
                for (folder, entry) in m.skills {
                    // A key is joined to the folder: a committed manifest could name `../../.git`.
                    if let Err(e) = super::target::plain_folder(&folder, &manifest::path(&t.dir)) {
                        notes.push(e.to_string());
                        continue;
                    }
                    out.push(Added {
                        target: t.clone(),
                        folder,
                        entry,
                    });
                }
            }
            Err(e) => notes.push(e.to_string()),
        }
    }
    (out, notes)
}

/// What an update would do to one skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The source holds what was added.
    UpToDate,
    /// The source holds something else.
    Changed,
    /// The source no longer holds the skill.
    Gone,
    /// The skill's folder is no longer there.
    Missing,
}

/// One added skill compared with its source.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// Its folder name in the target.
    pub folder: String,
    /// Its name.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its source, for people.
    pub source: String,
    /// What an update would do.
    pub status: Status,
    /// The folder differs from what was added: an update would overwrite a local edit.
    pub edited: bool,
    /// The commit it was added from, for a git source.
    pub commit_before: Option<String>,
    /// The commit the source is at now.
    pub commit_after: Option<String>,
    /// What changes from the folder as it is to the source's version.
    pub diff: TreeDiff,
    /// The source's version, staged, when it changed.
    #[serde(skip)]
    pub staged: Option<Staged>,
    /// The target it is in, for installing the staged version.
    #[serde(skip)]
    pub target: Option<Target>,
    /// Its source, when it could be read.
    #[serde(skip)]
    pub origin: Option<Origin>,
    /// Why the source could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// Fetches each source of `skills` once (under `work`) and compares every skill with it.
pub fn check(skills: &[Added], work: &Path) -> Vec<Check> {
    let mut groups: Vec<(origin::OriginRecord, Vec<&Added>)> = Vec::new();
    for a in skills {
        match groups.iter_mut().find(|g| g.0 == a.entry.source) {
            Some(g) => g.1.push(a),
            None => groups.push((a.entry.source.clone(), vec![a])),
        }
    }
    let mut out = Vec::new();
    let mut staged_n = 0usize;
    for (n, (record, members)) in groups.into_iter().enumerate() {
        let here = work.join(n.to_string());
        let (origin, fetched) = match Origin::from_record(&record) {
            Ok(o) => {
                let f = origin::fetch(&o, &here);
                (Some(o), f)
            }
            Err(e) => (None, Err(e)),
        };
        for a in members {
            let mut c = Check {
                folder: a.folder.clone(),
                name: a.entry.name.clone(),
                dir: a.dir(),
                source: record.location.clone(),
                status: Status::UpToDate,
                edited: false,
                commit_before: a.entry.commit.clone(),
                commit_after: None,
                diff: TreeDiff::default(),
                staged: None,
                target: Some(a.target.clone()),
                origin: origin.clone(),
                problem: None,
            };
            let f = match &fetched {
                Ok(f) => f,
                Err(e) => {
                    c.problem = Some(e.to_string());
                    out.push(c);
                    continue;
                }
            };
            c.commit_after.clone_from(&f.commit);
            if std::fs::symlink_metadata(c.dir.clone()).is_err() {
                c.status = Status::Missing;
                out.push(c);
                continue;
            }
            c.edited = !matches!(tree::tree_hash(&c.dir), Ok(h) if h == a.entry.hash);
            let Some(upstream) = below(&f.root, &a.entry.subfolder) else {
                c.status = Status::Gone;
                out.push(c);
                continue;
            };
            // One folder per skill checked: a source added at two places stages twice.
            staged_n += 1;
            let stage = here.join("stage").join(staged_n.to_string());
            let staged = std::fs::create_dir_all(&stage)
                .map_err(ManageError::io("create", &stage))
                .and_then(|()| {
                    let to = stage.join(&a.folder);
                    let copied = tree::copy_skill(&upstream, &to)?;
                    let settled = tree::settle(&to)?;
                    Ok(Staged {
                        folder: a.folder.clone(),
                        name: a.entry.name.clone(),
                        subfolder: a.entry.subfolder.clone(),
                        dir: to,
                        hash: settled.hash,
                        executables: settled.executables,
                        notes: copied.notes,
                    })
                });
            match staged {
                Ok(s) => {
                    if s.hash != a.entry.hash {
                        c.status = Status::Changed;
                    }
                    c.diff = tree::diff_trees(&c.dir, &s.dir);
                    c.staged = Some(s);
                }
                Err(e) => c.problem = Some(e.to_string()),
            }
            out.push(c);
        }
    }
    out
}

/// The skill folder `sub` below `root`, when it is one plain path below it holding a skill file.
fn below(root: &Path, sub: &str) -> Option<PathBuf> {
    let rel = Path::new(sub);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let dir = root.join(rel);
    let meta = std::fs::symlink_metadata(&dir).ok()?;
    (meta.is_dir() && (dir.join("SKILL.md").is_file() || dir.join("skill.md").is_file()))
        .then_some(dir)
}
