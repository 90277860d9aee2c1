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
            let installed = tree::tree_hash(&c.dir).ok();
            c.edited = installed.as_deref() != Some(a.entry.hash.as_str());
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
                    c.diff = diff_unless_same(&c.dir, installed.as_deref(), &s);
                    c.staged = Some(s);
                }
                Err(e) => c.problem = Some(e.to_string()),
            }
            out.push(c);
        }
    }
    out
}

/// The files of the installed copy at `dir` compared with the staged upstream one: nothing to
/// read when the installed copy's hash (`installed`, when it could be taken) is the staged
/// one's, as the same hash is the same files, links and bytes; else [`tree::diff_trees`].
fn diff_unless_same(dir: &Path, installed: Option<&str>, staged: &Staged) -> TreeDiff {
    if installed == Some(staged.hash.as_str()) {
        TreeDiff::default()
    } else {
        tree::diff_trees(dir, &staged.dir)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The comparison taken from the hashes is the one the files give: empty when the installed
    /// copy is the upstream one, and read file by file (the same as `diff_trees`) otherwise or
    /// when the installed copy's hash could not be taken.
    #[test]
    fn a_copy_with_the_staged_hash_compares_as_its_files_do() {
        let t = tempfile::tempdir().unwrap();
        let installed = t.path().join("installed");
        std::fs::create_dir_all(installed.join("references")).unwrap();
        std::fs::write(installed.join("SKILL.md"), "---\nname: s\n---\nBody.\n").unwrap();
        std::fs::write(installed.join("references/a.md"), "one\ntwo\n").unwrap();
        let to = t.path().join("stage/s");
        std::fs::create_dir_all(t.path().join("stage")).unwrap();
        tree::copy_skill(&installed, &to).unwrap();
        let settled = tree::settle(&to).unwrap();
        let staged = Staged {
            folder: "s".into(),
            name: "s".into(),
            subfolder: String::new(),
            dir: to,
            hash: settled.hash,
            executables: settled.executables,
            notes: Vec::new(),
        };
        let same = tree::tree_hash(&installed).unwrap();
        let slow = tree::diff_trees(&installed, &staged.dir);
        assert!(slow.is_empty());
        assert_eq!(diff_unless_same(&installed, Some(&same), &staged), slow);
        assert_eq!(diff_unless_same(&installed, None, &staged), slow);
        std::fs::write(installed.join("references/a.md"), "one\nthree\nfour\n").unwrap();
        std::fs::write(installed.join("extra.md"), "x\n").unwrap();
        let edited = tree::tree_hash(&installed).unwrap();
        let slow = tree::diff_trees(&installed, &staged.dir);
        assert_eq!(slow.changed, vec!["references/a.md".to_string()]);
        assert_eq!(slow.removed, vec!["extra.md".to_string()]);
        assert_eq!(diff_unless_same(&installed, Some(&edited), &staged), slow);
    }
}
