//! skillscope's trash: removed skills moved whole (a rename: bytes, modes and links as they
//! were) under the data folder, each with where it was, where it came from and why it went;
//! restored byte for byte.

use super::{ManageError, manifest};
use serde::{Deserialize, Serialize};
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
}

/// The trash of the data folder `data` (`paths::data_root()`).
#[derive(Debug, Clone)]
pub struct Trash {
    dir: PathBuf,
}

const ITEM: &str = "item";
const ENTRY: &str = "entry.json";

impl Trash {
    /// The trash under skillscope's data folder.
    pub fn open() -> Trash {
        Trash::at(&crate::core::paths::data_root())
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
    /// manifest entry, which leaves the manifest.
    pub fn put(&self, dir: &Path, reason: &str) -> Result<TrashEntry, ManageError> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| ManageError::Refused(format!("{} is no skill folder", dir.display())))?;
        std::fs::create_dir_all(&self.dir).map_err(ManageError::io("create", &self.dir))?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let slot = tempfile::Builder::new()
            .prefix(&format!("{stamp}-{name}-"))
            .rand_bytes(4)
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
        };
        write_entry(&slot, &entry)?;
        if let Err(e) = super::tree::move_whole(dir, &slot.join(ITEM)) {
            let _ = std::fs::remove_dir_all(&slot);
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

    /// Everything in the trash, newest first.
    pub fn list(&self) -> Vec<TrashEntry> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<TrashEntry> = rd
            .flatten()
            .filter_map(|e| {
                let bytes = crate::core::fsx::read_regular(&e.path().join(ENTRY)).ok()??;
                let entry: TrashEntry = serde_json::from_slice(&bytes).ok()?;
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
    /// something is there now.
    pub fn restore(&self, entry: &TrashEntry) -> Result<(), ManageError> {
        let slot = self.slot(entry)?;
        if std::fs::symlink_metadata(&entry.from).is_ok() {
            return Err(ManageError::Refused(format!(
                "{} is there again; move it away first, or restore by hand from {}",
                entry.from.display(),
                slot.join(ITEM).display()
            )));
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
            return Err(ManageError::Refused(format!(
                "{:?} is not a trash entry",
                entry.id
            )));
        }
        Ok(self.dir.join(&entry.id))
    }
}

fn write_entry(slot: &Path, e: &TrashEntry) -> Result<(), ManageError> {
    let p = slot.join(ENTRY);
    let mut text = serde_json::to_string_pretty(e).map_err(|err| ManageError::Manifest {
        path: p.clone(),
        why: err.to_string(),
    })?;
    text.push('\n');
    crate::core::paths::write_atomic(&p, text.as_bytes(), None)
        .map_err(ManageError::io("write", &p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

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
        std::os::unix::fs::symlink("/etc/passwd", skill.join("outward")).unwrap();
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
