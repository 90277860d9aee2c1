//! The last `--help-json` answer of each executable skill, kept on disk so that its tool schema
//! counts in L3 (for `list`, `budget` and the app) until the entry script changes.

use super::ProbeReport;
use crate::core::skill::Skill;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
struct Record {
    /// blake3 of the entry script when it was probed.
    entry_hash: String,
    verdict: String,
    schema_text: Option<String>,
}

/// Probe results by skill folder.
#[derive(Debug, Default)]
pub struct ProbeStore {
    path: Option<PathBuf>,
    /// Why the file was not read when it is not a regular file (a FIFO, a folder, …): it is
    /// then never written over.
    problem: Option<String>,
    records: BTreeMap<String, Record>,
}

/// The entry script's hash; a script that is not a regular file (a FIFO) has none, rather than
/// blocking the read.
fn hash_file(path: &Path) -> Option<String> {
    crate::core::files::fsx::read_regular(path)
        .ok()
        .flatten()
        .map(|b| blake3::hash(&b).to_hex().to_string())
}

impl ProbeStore {
    /// `probes.json` in skillscope's cache folder; a missing or unreadable file is an empty store.
    pub fn open() -> ProbeStore {
        ProbeStore::at(crate::core::files::paths::cache_root().join("probes.json"))
    }

    /// The store kept in `path`. Only a regular file of a settings file's size is read
    /// ([`read_settings`](crate::core::files::fsx::read_settings)); anything else there (a FIFO, a
    /// folder, a file past the cap) leaves the store empty, is reported by [`ProbeStore::problem`] and is never
    /// written over.
    pub fn at(path: impl Into<PathBuf>) -> ProbeStore {
        let path = path.into();
        let (records, problem) = match crate::core::files::fsx::read_settings(&path) {
            Ok(bytes) => (
                bytes
                    .and_then(|b| serde_json::from_slice(&b).ok())
                    .unwrap_or_default(),
                None,
            ),
            // An unreadable store is only a cache to write again, unless it is not a file at all.
            Err(
                e @ (crate::core::files::fsx::FsxError::NotRegular { .. }
                | crate::core::files::fsx::FsxError::TooLarge { .. }),
            ) => (BTreeMap::new(), Some(e.to_string())),
            Err(_) => (BTreeMap::new(), None),
        };
        ProbeStore {
            path: Some(path),
            problem,
            records,
        }
    }

    /// Why the store's file could not be read, naming the file.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// Remembers a finished probe of an executable skill.
    pub fn record(&mut self, report: &ProbeReport) {
        let (Some(entry), Some(verdict)) = (&report.entry, &report.verdict) else {
            return;
        };
        let Some(entry_hash) = hash_file(entry) else {
            return;
        };
        self.records.insert(
            report.dir.to_string_lossy().into_owned(),
            Record {
                entry_hash,
                verdict: verdict.name().to_string(),
                schema_text: verdict
                    .is_ok()
                    .then(|| report.schema_text.clone())
                    .flatten(),
            },
        );
    }

    /// The schema of the skill's last passing probe, if its entry script has not changed since.
    pub fn schema(&self, skill: &Skill) -> Option<&str> {
        let r = self.records.get(skill.dir.to_string_lossy().as_ref())?;
        let entry = skill.dir.join(super::entry_name(skill));
        (hash_file(&entry)? == r.entry_hash)
            .then_some(r.schema_text.as_deref())
            .flatten()
    }

    /// Writes the store atomically (temporary file, then rename).
    pub fn save(&self) -> std::io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if let Some(p) = &self.problem {
            return Err(std::io::Error::other(p.clone()));
        }
        let bytes = serde_json::to_vec_pretty(&self.records).map_err(std::io::Error::other)?;
        crate::core::files::paths::write_private(
            path,
            &bytes,
            crate::core::files::paths::Durability::Durable,
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Library;
    use crate::core::probe::{ProbeOptions, probe_skill};
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};

    #[test]
    fn a_schema_counts_until_its_entry_script_changes() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("lib/tool");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: tool\ndescription: A tool. Use when asked.\ntype: executable\nentry: run.sh\n---\n",
        )
        .unwrap();
        let script = dir.join("run.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\necho '{\"name\":\"tool\",\"description\":\"d\",\"parameters\":{\"type\":\"object\"}}'\n",
        )
        .unwrap();
        let lib = Library::load(
            vec![Root::new(t.path().join("lib"), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let skill = &lib.skills[0];
        let report = probe_skill(skill, &ProbeOptions::default());
        assert!(
            report
                .verdict
                .as_ref()
                .is_some_and(super::super::report::Verdict::is_ok),
            "{report:?}"
        );
        let mut store = ProbeStore::at(t.path().join("probes.json"));
        store.record(&report);
        store.save().unwrap();
        let store = ProbeStore::at(t.path().join("probes.json"));
        assert!(
            store
                .schema(skill)
                .is_some_and(|s| s.contains("\"parameters\""))
        );
        std::fs::write(&script, "#!/bin/sh\necho changed\n").unwrap();
        assert_eq!(store.schema(skill), None);
    }
}
