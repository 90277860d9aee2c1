//! The skills a fetched source holds, found as the scan finds them and copied (through
//! [`tree::copy_skill`]) into a staging folder under the names they will be installed under:
//! what is priced is exactly what lands.

use super::error::Refusal;
use super::{ManageError, safe_folder_name, tree};
use crate::core::Library;
use crate::core::scan::ScanOptions;
use crate::core::source::{Agent, Root, Scope};
use std::path::{Path, PathBuf};

/// One skill of a source, copied into the staging folder.
#[derive(Debug, Clone)]
pub struct Staged {
    /// The folder it will have in the agent's skill folder.
    pub folder: String,
    /// Its name as its frontmatter says (else its folder's).
    pub name: String,
    /// Its folder inside the source, `/`-separated (empty when the source is the skill).
    pub subfolder: String,
    /// Its copy in the staging folder.
    pub dir: PathBuf,
    /// The hash of its files as staged (kept in the manifest to tell a later local edit).
    pub hash: String,
    /// Its files that could run, as [`tree::executables`] lists them in the staged copy.
    pub executables: Vec<String>,
    /// What the copy left out.
    pub notes: Vec<String>,
}

/// What a source held.
#[derive(Debug, Default)]
pub struct Found {
    /// The skills staged, under their install names.
    pub skills: Vec<Staged>,
    /// Skills that could not be staged, and why.
    pub notes: Vec<String>,
}

/// Finds the skills under `root` and copies each into `stage` (created). `pick`, when not
/// empty, keeps the skills whose name, folder or subfolder it names. With `own` (`root` is a
/// temporary tree of skillscope's own: a clone's files, an unpacked archive), a skill that holds
/// no other found skill and is held by none is cleaned in place and moved rather than copied.
pub fn stage(root: &Path, stage: &Path, pick: &[String], own: bool) -> Result<Found, ManageError> {
    let mut roots = vec![Root::new(root, Agent::Path, Scope::Path)];
    // A scan skips dot-folders, so the folders where agents keep a project's skills are looked
    // in by name: every agent's, as the agents' folder table lists them.
    for rel in crate::core::source::project_folders() {
        let p = root.join(rel);
        if p.is_dir() {
            roots.push(Root::new(p, Agent::Path, Scope::Path));
        }
    }
    let lib = Library::load(roots, &ScanOptions::default());
    std::fs::create_dir_all(stage).map_err(ManageError::io("create", stage))?;
    let mut found = Found::default();
    let mut seen = std::collections::HashSet::new();
    // Every folder that holds a skill's folder below it: a skill is alone when its folder is
    // none of them and no folder above it is a skill's (one look-up per folder above, not a
    // comparison with every other skill).
    let dirs: std::collections::HashSet<&Path> =
        lib.skills.iter().map(|s| s.dir.as_path()).collect();
    let holders: std::collections::HashSet<&Path> =
        dirs.iter().flat_map(|d| d.ancestors().skip(1)).collect();
    for s in &lib.skills {
        if !seen.insert(s.dir.clone()) {
            continue;
        }
        let subfolder = s
            .dir
            .strip_prefix(root)
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dir_name = s.dir_name().into_owned();
        let folder = if safe_folder_name(&s.name) {
            s.name.clone()
        } else if safe_folder_name(&dir_name) {
            dir_name
        } else {
            found.notes.push(format!(
                "left out {}: neither its name nor its folder is a safe folder name",
                crate::core::words::text::line(&subfolder)
            ));
            continue;
        };
        let wanted = pick.is_empty()
            || pick
                .iter()
                .any(|p| *p == s.name || *p == folder || *p == subfolder);
        if !wanted {
            continue;
        }
        if found.skills.iter().any(|x| x.folder == folder) {
            found.notes.push(format!(
                "left out {}: another skill of the source is named {folder}; --pick its folder to choose",
                crate::core::words::text::line(&subfolder)
            ));
            continue;
        }
        let dir = stage.join(&folder);
        let alone = !holders.contains(s.dir.as_path())
            && !s.dir.ancestors().skip(1).any(|a| dirs.contains(a));
        // One walk of the staged copy cleans it (when moved), hashes it and lists what could
        // run in it.
        let settled = if own && alone && std::fs::rename(&s.dir, &dir).is_ok() {
            tree::sanitize_settle(&dir)?
        } else {
            let notes = tree::copy_skill(&s.dir, &dir)?.notes;
            tree::Settled {
                notes,
                ..tree::settle(&dir)?
            }
        };
        found.skills.push(Staged {
            folder,
            name: s.name.clone(),
            subfolder,
            dir,
            hash: settled.hash,
            executables: settled.executables,
            notes: settled.notes,
        });
    }
    found.skills.sort_by(|a, b| a.folder.cmp(&b.folder));
    for p in pick {
        let named = found
            .skills
            .iter()
            .any(|x| x.name == *p || x.folder == *p || x.subfolder == *p);
        if !named {
            found.notes.push(format!(
                "--pick {}: no such skill in the source",
                crate::core::words::text::line(p)
            ));
        }
    }
    Ok(found)
}

/// An installed skill folder staged as a source's skill would be (for `move` and `copy`).
pub fn stage_installed(dir: &Path, stage: &Path) -> Result<Staged, ManageError> {
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| safe_folder_name(n))
        .ok_or_else(|| Refusal::NoSafeFolderName(dir.to_path_buf()))?;
    std::fs::create_dir_all(stage).map_err(ManageError::io("create", stage))?;
    let to = stage.join(&folder);
    // A skill folder that is a link is copied from where it points.
    let from = std::fs::canonicalize(dir).map_err(ManageError::io("read", dir))?;
    let copied = tree::copy_skill(&from, &to)?;
    let settled = tree::settle(&to)?;
    let lib = Library::load(
        vec![Root::new(to.clone(), Agent::Path, Scope::Path)],
        &ScanOptions::default(),
    );
    let name = lib
        .skills
        .first()
        .map_or_else(|| folder.clone(), |s| s.name.clone());
    Ok(Staged {
        folder,
        name,
        subfolder: String::new(),
        dir: to,
        hash: settled.hash,
        executables: settled.executables,
        notes: copied.notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &Path, name: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: Does {name} things.\n---\nBody.\n"),
        )
        .unwrap();
    }

    /// From a tree of its own, a skill that holds no other and is held by none is moved into
    /// the staging folder; one that holds another, and the one it holds, are copied (the move
    /// of either would take or tear the other).
    #[test]
    fn only_skills_alone_in_their_folders_are_moved() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("tree");
        skill(&root.join("outer"), "outer");
        skill(&root.join("outer/inner"), "inner");
        skill(&root.join("lone"), "lone");
        skill(&root.join("deep/down/leaf"), "leaf");
        let found = stage(&root, &t.path().join("stage"), &[], true).unwrap();
        let folders: Vec<&str> = found.skills.iter().map(|s| s.folder.as_str()).collect();
        assert_eq!(folders, ["inner", "leaf", "lone", "outer"]);
        assert!(!root.join("lone").exists(), "a lone skill is moved");
        assert!(!root.join("deep/down/leaf").exists(), "so is one deep down");
        assert!(root.join("outer/SKILL.md").is_file(), "a holder is copied");
        assert!(
            root.join("outer/inner/SKILL.md").is_file(),
            "so is the held"
        );
        for s in &found.skills {
            assert!(s.dir.join("SKILL.md").is_file(), "{} staged", s.folder);
        }
        let staged_outer = t.path().join("stage/outer");
        assert!(staged_outer.join("inner/SKILL.md").is_file());
    }
}
