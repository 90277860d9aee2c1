//! skillscope's trash: removed skills moved whole (a rename: bytes, modes and links as they
//! were) under the data folder, each with where it was, where it came from and why it went;
//! restored byte for byte.

use super::error::{ManifestError, Refusal};
use super::{ManageError, manifest};
use serde::{Deserialize, Serialize};
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// One removed skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrashEntry {
    /// Its folder in the trash.
    pub id: String,
    /// The skill's name.
    pub name: String,
    /// The folder it was removed from.
    pub from: PathBuf,
    /// When (UTC).
    pub removed: String,
    /// `remove`, `replaced by add`, `moved to codex:user`, ….
    pub reason: String,
    /// Its manifest entry, when it had one: put back with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<manifest::Entry>,
    /// The agents' links to it, taken away with it: put back with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<TakenLink>,
    /// Its entry in a project's `skills-lock.json`, taken out with it: put back with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<TakenRecord>,
}

/// A link an agent's folder had to a removed skill (`.claude/skills/pdf` → `../../.agents/
/// skills/pdf`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakenLink {
    /// Where the link was.
    pub at: PathBuf,
    /// What it said (relative to its folder, as `npx skills` writes it, or absolute).
    pub to: PathBuf,
}

/// A removed skill's entry in a project's `skills-lock.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakenRecord {
    /// The file.
    pub file: PathBuf,
    /// The entry's key (the skill's name, else its folder's).
    pub key: String,
    /// The entry as it was.
    pub entry: serde_json::Value,
}

/// The trash of the data folder `data` (`paths::data_root()`).
#[derive(Debug, Clone)]
pub struct Trash {
    dir: PathBuf,
}

const ITEM: &str = "item";
/// The trash's folders: its owner's only.
#[cfg(unix)]
const PRIVATE_DIR: u32 = 0o700;
const ENTRY: &str = "entry.json";

impl Trash {
    /// The trash under skillscope's data folder.
    pub fn open() -> Trash {
        Trash::at(&crate::core::files::paths::data_root())
    }

    /// The trash in skillscope's data folder `data`.
    pub fn at(data: &Path) -> Trash {
        Trash {
            dir: data.join("trash"),
        }
    }

    /// The folder removed skills are kept in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Moves the skill folder `dir` (a folder or a link to one) into the trash, with its
    /// manifest entry, which leaves the manifest. Holds the folder's lock (see
    /// [`super::target::folder_lock`]) while it works.
    pub fn put(&self, dir: &Path, reason: &str) -> Result<TrashEntry, ManageError> {
        let _lock = super::target::folder_lock(dir.parent().unwrap_or(dir))?;
        self.put_locked(dir, reason)
    }

    /// [`Trash::put`] by a caller that holds the folder's lock.
    ///
    /// The entry file is written first and the skill moved after it: an entry is listed only once
    /// its folder is complete (see [`Trash::list`]), and a move across file systems copies
    /// under a name of skillscope's own and takes the skill out of its folder with one rename
    /// (see [`super::tree::move_whole`]). A process killed at any step leaves the skill either
    /// where it was or whole in the trash, never half in both.
    pub(crate) fn put_locked(&self, dir: &Path, reason: &str) -> Result<TrashEntry, ManageError> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| Refusal::NoSkillFolder(dir.to_path_buf()))?;
        self.make_private()?;
        sweep_unfinished(&self.dir);
        if let Some(parent) = dir.parent() {
            super::work::sweep_removed(parent);
        }
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let prefix = format!("{stamp}-{name}-");
        let mut slot = tempfile::Builder::new();
        slot.prefix(&prefix).rand_bytes(4);
        // The trash's own folder is private already; on Unix each slot is too.
        #[cfg(unix)]
        slot.permissions(std::fs::Permissions::from_mode(PRIVATE_DIR));
        let slot = slot
            .tempdir_in(&self.dir)
            .map_err(ManageError::io("create", &self.dir))?
            .keep();
        let id = slot
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let provenance = manifest::lookup(dir);
        let entry = TrashEntry {
            id,
            name: name.clone(),
            from: dir.to_path_buf(),
            removed: super::now_utc(),
            reason: reason.to_string(),
            provenance: provenance.clone(),
            links: Vec::new(),
            lock: None,
        };
        let moved = write_entry(&slot, &entry)
            .and_then(|()| super::tree::move_whole(dir, &slot.join(ITEM)));
        if let Err(e) = moved {
            // A move that failed left the skill where it was: the slot holds nothing of use.
            if std::fs::symlink_metadata(dir).is_ok() {
                let _ = std::fs::remove_dir_all(&slot);
            }
            return Err(e);
        }
        if provenance.is_some()
            && let Some(parent) = dir.parent()
        {
            manifest::edit(parent, |m| {
                m.skills.remove(&name);
            })?;
        }
        Ok(entry)
    }

    /// The trash folder, made private (`0700`) if it is not: removed skills of a private home
    /// stay private.
    fn make_private(&self) -> Result<(), ManageError> {
        std::fs::create_dir_all(&self.dir).map_err(ManageError::io("create", &self.dir))?;
        let meta =
            std::fs::symlink_metadata(&self.dir).map_err(ManageError::io("read", &self.dir))?;
        if !meta.is_dir() {
            return Err(Refusal::NotAFolder(self.dir.clone()).into());
        }
        #[cfg(unix)]
        if meta.permissions().mode() & 0o777 != PRIVATE_DIR {
            std::fs::set_permissions(&self.dir, std::fs::Permissions::from_mode(PRIVATE_DIR))
                .map_err(ManageError::io("protect", &self.dir))?;
        }
        Ok(())
    }

    /// Writes down what was taken away with the entry's skill after it went to the trash (its
    /// links, its lock entry), so that a restore puts them back too.
    pub fn record_taken(&self, entry: &TrashEntry) -> Result<(), ManageError> {
        let slot = self.slot(entry)?;
        write_entry(&slot, entry)
    }

    /// Everything in the trash, newest first.
    pub fn list(&self) -> Vec<TrashEntry> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<TrashEntry> = rd
            .flatten()
            .filter_map(|e| {
                let bytes =
                    crate::core::files::fsx::read_settings(&e.path().join(ENTRY)).ok()??;
                let entry: TrashEntry = serde_json::from_slice(&bytes).ok()?;
                // An entry whose skill is not (yet) whole in it is no removal to restore.
                std::fs::symlink_metadata(e.path().join(ITEM)).ok()?;
                // The folder's own name is the id: an entry file copied elsewhere says nothing.
                (entry.id == e.file_name().to_string_lossy()).then_some(entry)
            })
            .collect();
        out.sort_by(|a, b| b.removed.cmp(&a.removed).then(b.id.cmp(&a.id)));
        out
    }

    /// The newest entry whose id or name is `key`.
    pub fn find(&self, key: &str) -> Option<TrashEntry> {
        let all = self.list();
        all.iter()
            .find(|e| e.id == key)
            .or_else(|| all.iter().find(|e| e.name == key))
            .cloned()
    }

    /// Puts an entry back where it was, byte for byte, with its manifest entry. Refused when
    /// something is there now. Holds the folder's lock while it works.
    pub fn restore(&self, entry: &TrashEntry) -> Result<(), ManageError> {
        let parent = entry.from.parent().unwrap_or(&entry.from);
        std::fs::create_dir_all(parent).map_err(ManageError::io("create", parent))?;
        let _lock = super::target::folder_lock(parent)?;
        self.restore_locked(entry)
    }

    /// [`Trash::restore`] by a caller that holds the folder's lock.
    pub(crate) fn restore_locked(&self, entry: &TrashEntry) -> Result<(), ManageError> {
        let slot = self.slot(entry)?;
        if std::fs::symlink_metadata(&entry.from).is_ok() {
            return Err(Refusal::ThereAgain {
                from: entry.from.clone(),
                item: slot.join(ITEM),
            }
            .into());
        }
        if let Some(parent) = entry.from.parent() {
            std::fs::create_dir_all(parent).map_err(ManageError::io("create", parent))?;
        }
        super::tree::move_whole(&slot.join(ITEM), &entry.from)?;
        if let (Some(p), Some(parent)) = (&entry.provenance, entry.from.parent()) {
            manifest::edit(parent, |m| {
                m.skills.insert(entry.name.clone(), p.clone());
            })?;
        }
        std::fs::remove_dir_all(&slot).map_err(ManageError::io("remove", &slot))?;
        Ok(())
    }

    /// Deletes one entry for good.
    pub fn purge(&self, entry: &TrashEntry) -> Result<(), ManageError> {
        let slot = self.slot(entry)?;
        std::fs::remove_dir_all(&slot).map_err(ManageError::io("remove", &slot))
    }

    /// The entry's folder in the trash, refusing an id that is not one plain name.
    fn slot(&self, entry: &TrashEntry) -> Result<PathBuf, ManageError> {
        let plain = !entry.id.is_empty()
            && !entry.id.starts_with('.')
            && !entry.id.contains('/')
            && !entry.id.contains('\0');
        if !plain {
            return Err(Refusal::NotTrashEntry(entry.id.clone()).into());
        }
        Ok(self.dir.join(&entry.id))
    }
}

fn write_entry(slot: &Path, e: &TrashEntry) -> Result<(), ManageError> {
    let p = slot.join(ENTRY);
    let mut text = serde_json::to_string_pretty(e).map_err(|err| ManageError::Manifest {
        path: p.clone(),
        why: ManifestError::Write(err),
    })?;
    text.push('\n');
    crate::core::files::paths::write_atomic(
        &p,
        text.as_bytes(),
        crate::core::files::paths::private_file_mode(),
    )
    .map_err(ManageError::io("write", &p))
}

/// Removes the slots a killed removal left unfinished: an entry file without its skill, older
/// than a day (a removal under way in another process is younger).
fn sweep_unfinished(trash: &Path) {
    let Ok(rd) = std::fs::read_dir(trash) else {
        return;
    };
    for e in rd.flatten() {
        let slot = e.path();
        let unfinished = e.file_type().is_ok_and(|t| t.is_dir())
            && std::fs::symlink_metadata(slot.join(ITEM)).is_err()
            && std::fs::symlink_metadata(&slot)
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|m| m.elapsed().ok())
                .is_some_and(|age| age > super::work::STALE);
        if unfinished {
            let _ = std::fs::remove_dir_all(&slot);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn removed_and_restored_byte_for_byte() {
        let t = tempfile::tempdir().unwrap();
        let lib = t.path().join("skills");
        let skill = lib.join("s");
        std::fs::create_dir_all(skill.join("scripts")).unwrap();
        std::fs::write(skill.join("SKILL.md"), b"---\nname: s\n---\n\xff\n").unwrap();
        std::fs::write(skill.join("scripts/run"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(
            skill.join("scripts/run"),
            std::fs::Permissions::from_mode(0o750),
        )
        .unwrap();
        crate::core::files::fsx::test_link("/etc/passwd", skill.join("outward")).unwrap();
        let before = super::super::tree::tree_hash(&skill).unwrap();
        let trash = Trash::at(&t.path().join("data"));
        let e = trash.put(&skill, "remove").unwrap();
        assert!(!skill.exists());
        assert_eq!(trash.list(), vec![e.clone()]);
        assert_eq!(trash.find("s"), Some(e.clone()));
        trash.restore(&e).unwrap();
        assert_eq!(super::super::tree::tree_hash(&skill).unwrap(), before);
        assert_eq!(
            std::fs::metadata(skill.join("scripts/run"))
                .unwrap()
                .permissions()
                .mode()
                & 0o777,
            0o750
        );
        assert_eq!(
            std::fs::read_link(skill.join("outward")).unwrap(),
            PathBuf::from("/etc/passwd"),
            "a restore puts back what was there, links included"
        );
        assert!(trash.list().is_empty());
    }
}
