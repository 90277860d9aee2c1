//! `skills.lock`: where each added skill of a skill folder came from (source, commit, subfolder,
//! time, content hash), kept in that folder as JSON, written atomically under its lock.

use super::ManageError;
use super::error::ManifestError;
use super::origin::OriginRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The manifest's file name in a skill folder.
pub const FILE: &str = "skills.lock";
/// The format's version; a reader refuses any other.
pub const VERSION: u32 = 1;

/// One added skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The skill's name when it was added.
    pub name: String,
    /// Where it was added from.
    pub source: OriginRecord,
    /// The commit it was taken from (git sources).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// Its folder inside the source, `/`-separated; empty when the source is the skill.
    #[serde(default)]
    pub subfolder: String,
    /// When it was added or last updated (UTC).
    pub added: String,
    /// The content hash of what was written ([`super::tree::tree_hash`]): a different hash
    /// now is a local edit.
    pub hash: String,
}

/// Every added skill of one folder, by its folder name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The manifest's format version.
    pub skillscope_manifest: u32,
    /// Each added skill's entry, by its folder name.
    #[serde(default)]
    pub skills: BTreeMap<String, Entry>,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            skillscope_manifest: VERSION,
            skills: BTreeMap::new(),
        }
    }
}

/// The manifest of the skill folder `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

/// Reads the manifest of `dir`; an empty one when there is none.
pub fn read(dir: &Path) -> Result<Manifest, ManageError> {
    let p = path(dir);
    let Some(bytes) = crate::core::files::fsx::read_capped(&p, 64 << 20)? else {
        return Ok(Manifest::default());
    };
    let bad = |why: ManifestError| ManageError::Manifest {
        path: p.clone(),
        why,
    };
    #[derive(Deserialize)]
    struct Head {
        skillscope_manifest: u32,
    }
    let head: Head =
        serde_json::from_slice(&bytes).map_err(|e| bad(ManifestError::NotManifest(e)))?;
    if head.skillscope_manifest != VERSION {
        return Err(bad(ManifestError::Version {
            found: head.skillscope_manifest,
            reads: VERSION,
        }));
    }
    serde_json::from_slice(&bytes).map_err(|e| bad(ManifestError::NotManifest(e)))
}

/// Reads, changes and writes the manifest of `dir` under its exclusive lock, so that two
/// writers lose nothing. The file goes when it would hold no skill.
pub fn edit<T>(dir: &Path, change: impl FnOnce(&mut Manifest) -> T) -> Result<T, ManageError> {
    let p = path(dir);
    let _lock = crate::core::files::fsx::lock(&p, crate::core::files::fsx::lock_wait())?;
    let mut m = read(dir)?;
    let before = m.clone();
    let out = change(&mut m);
    if m == before {
        return Ok(out);
    }
    if m.skills.is_empty() {
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(ManageError::io("remove", &p)(e)),
        }
        return Ok(out);
    }
    let mut text = serde_json::to_string_pretty(&m).map_err(|e| ManageError::Manifest {
        path: p.clone(),
        why: ManifestError::Write(e),
    })?;
    text.push('\n');
    crate::core::files::paths::write_atomic(&p, text.as_bytes(), None)
        .map_err(ManageError::io("write", &p))?;
    Ok(out)
}

/// Where the skill in folder `dir` came from, when it was added by skillscope.
pub fn lookup(dir: &Path) -> Option<Entry> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let parent = dir.parent()?;
    read(parent).ok()?.skills.remove(&name)
}

/// Where each skill of `skills` came from (index-aligned), reading each folder's manifest once;
/// whether a folder the library's walks read holds one is answered from what they saw.
pub fn provenances(
    skills: &[crate::core::skill::Skill],
    seen: &crate::core::scan::Seen,
) -> Vec<Option<Entry>> {
    let mut read_once: std::collections::HashMap<PathBuf, Option<Manifest>> =
        std::collections::HashMap::new();
    skills
        .iter()
        .map(|skill| {
            let dir = skill.dir.as_path();
            let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
                return None;
            };
            let m = read_once.entry(parent.to_path_buf()).or_insert_with(|| {
                crate::core::scan::Seen::is_file(Some(seen), Some((&skill.root, dir)), parent, FILE)
                    .then(|| read(parent).ok())
                    .flatten()
            });
            m.as_ref()?.skills.get(&*name.to_string_lossy()).cloned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_remembers_the_manifest_s_name() {
        assert!(crate::core::scan::RECORD_NAMES.contains(&FILE));
    }
    use crate::core::manage::origin::OriginKind;

    fn entry(name: &str) -> Entry {
        Entry {
            name: name.into(),
            source: OriginRecord {
                kind: OriginKind::Git,
                location: "file:///r".into(),
                reference: None,
            },
            commit: Some("abc".into()),
            subfolder: format!("skills/{name}"),
            added: "2025-01-01T00:00:00Z".into(),
            hash: "h".into(),
        }
    }

    #[test]
    fn entries_are_kept_and_the_file_goes_with_the_last() {
        let t = tempfile::tempdir().unwrap();
        assert!(read(t.path()).unwrap().skills.is_empty());
        edit(t.path(), |m| {
            m.skills.insert("a".into(), entry("a"));
            m.skills.insert("b".into(), entry("b"));
        })
        .unwrap();
        assert_eq!(lookup(&t.path().join("a")), Some(entry("a")));
        assert!(lookup(&t.path().join("c")).is_none());
        edit(t.path(), |m| m.skills.clear()).unwrap();
        assert!(!path(t.path()).exists());
        std::fs::write(path(t.path()), "{\"skillscope_manifest\": 9}").unwrap();
        assert!(
            read(t.path())
                .unwrap_err()
                .to_string()
                .contains("version 9")
        );
    }
}
