//! `npx skills`' records: `skills-lock.json` in a project (version 1: per skill `source`,
//! `sourceType`, `computedHash`, …) and `~/.agents/.skill-lock.json` for the user's skills
//! (version 3: `skillFolderHash`, times). Read as the installer reads them (a lower version, or
//! no `skills`, reads as empty), and the project file's entries written in its format.

use super::error::{LockEditError, RecordError};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The project record's file name, in the project folder.
pub const FILE: &str = "skills-lock.json";
/// The user-scope record's file name, in `~/.agents` (or `$XDG_STATE_HOME/skills`).
pub const GLOBAL_FILE: &str = ".skill-lock.json";
/// The project record's format version (`readLocalLock` reads a lower one as empty).
pub const VERSION: u64 = 1;
/// The user-scope record's format version.
pub const GLOBAL_VERSION: u64 = 3;

/// The user-scope record `npx skills` writes for `home`: `$XDG_STATE_HOME/skills/` when that is
/// set, else `~/.agents/` (`getSkillLockPath`).
pub fn global_path(home: &Path) -> PathBuf {
    match std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        Some(state) => PathBuf::from(state).join("skills").join(GLOBAL_FILE),
        None => home.join(".agents").join(GLOBAL_FILE),
    }
}

/// The entries of a record file (`None` when there is none), as the installer reads them: a
/// file of a lower version than `min_version`, or without `skills`, holds none.
pub fn read(path: &Path, min_version: u64) -> Result<Option<Map<String, Value>>, RecordError> {
    let bytes = match crate::core::files::fsx::read_settings(path) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(None),
        // The error names the file.
        Err(e) => return Err(e.into()),
    };
    let v: Value = serde_json::from_slice(&bytes).map_err(|source| RecordError::NotJson {
        path: path.to_path_buf(),
        source,
    })?;
    let version = v.get("version").and_then(Value::as_u64).unwrap_or(0);
    match v.get("skills") {
        Some(Value::Object(m)) if version >= min_version => Ok(Some(m.clone())),
        _ => Ok(Some(Map::new())),
    }
}

/// One skill's entry in a project's `skills-lock.json`, in the installer's field order
/// (`projectLockEntry`): `source`, `sourceUrl` (git and gitlab sources), `ref` (when one was
/// asked for), `sourceType`, `skillPath` (remote sources), `computedHash`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `owner/repo` for GitHub, the URL for other git hosts, a path relative to the project for
    /// a local folder.
    pub source: String,
    /// The URL of a git or gitlab source.
    pub source_url: Option<String>,
    /// The branch or tag asked for.
    pub reference: Option<String>,
    /// `local`, `github`, `gitlab` or `git`.
    pub source_type: String,
    /// The SKILL.md's path inside a remote source.
    pub skill_path: Option<String>,
    /// [`super::hash::skills_hash`] of the skill's folder in the source.
    pub computed_hash: String,
}

impl Entry {
    /// The entry as JSON, its fields in the installer's order.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("source".into(), Value::from(self.source.clone()));
        if let Some(u) = &self.source_url {
            m.insert("sourceUrl".into(), Value::from(u.clone()));
        }
        if let Some(r) = &self.reference {
            m.insert("ref".into(), Value::from(r.clone()));
        }
        m.insert("sourceType".into(), Value::from(self.source_type.clone()));
        if let Some(p) = &self.skill_path {
            m.insert("skillPath".into(), Value::from(p.clone()));
        }
        m.insert(
            "computedHash".into(),
            Value::from(self.computed_hash.clone()),
        );
        Value::Object(m)
    }
}

/// A project's `skills-lock.json` text with `change` applied to its entries: everything else
/// in the file kept as it was, the entries' keys sorted (`writeLocalLock`: plain JS sort, UTF-16
/// order), two-space indentation and a final newline (`JSON.stringify(…, null, 2) + "\n"`).
/// `None` when the file would change nothing. A file that is not a version-1 record is refused.
pub fn edited(
    existing: Option<&[u8]>,
    change: impl FnOnce(&mut Map<String, Value>),
) -> Result<Option<String>, LockEditError> {
    let mut doc = match existing {
        Some(b) => serde_json::from_slice::<Value>(b).map_err(LockEditError::NotJson)?,
        None => serde_json::json!({ "version": VERSION, "skills": {} }),
    };
    let Some(obj) = doc.as_object_mut() else {
        return Err(LockEditError::NotObject);
    };
    let version = obj.get("version").and_then(Value::as_u64);
    if version.is_some_and(|v| v > VERSION) {
        return Err(LockEditError::Newer {
            found: version.unwrap_or(0),
            writes: VERSION,
        });
    }
    // `readLocalLock` reads an older file as empty, and `writeLocalLock` writes the current one.
    if version != Some(VERSION) || !obj.get("skills").is_some_and(Value::is_object) {
        obj.insert("version".into(), Value::from(VERSION));
        obj.insert("skills".into(), Value::Object(Map::new()));
    }
    let before = obj.get("skills").cloned();
    let Some(Value::Object(skills)) = obj.get_mut("skills") else {
        return Err(LockEditError::NoSkills);
    };
    change(skills);
    let mut sorted: Vec<(String, Value)> = std::mem::take(skills).into_iter().collect();
    sorted.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    skills.extend(sorted);
    if existing.is_some() && obj.get("skills") == before.as_ref() {
        return Ok(None);
    }
    let mut text = serde_json::to_string_pretty(&doc).map_err(LockEditError::Write)?;
    text.push('\n');
    Ok(Some(text))
}

/// Where a local `source` of a record in `lock_dir` is: a relative path is resolved against the
/// record's folder (`getPortableLocalSource` wrote it relative to it).
pub fn local_source(lock_dir: &Path, source: &str) -> PathBuf {
    let p = Path::new(source);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        lock_dir.join(p)
    }
}

/// `source` as the installer writes it for a local folder: relative to the project with `/`
/// separators, `.` when it is the project itself, else absolute (`getPortableLocalSource`).
pub fn portable_local_source(project: &Path, folder: &Path) -> String {
    let rel = relative(project, folder);
    match rel {
        Some(r) if r.as_os_str().is_empty() => ".".to_string(),
        Some(r) => r.to_string_lossy().replace('\\', "/"),
        None => folder.to_string_lossy().replace('\\', "/"),
    }
}

/// The path that leads from folder `from` to `to` (both absolute, made of plain components).
/// `.` and `..` are resolved as written (as Node's `path.relative` does), not through links.
pub fn relative(from: &Path, to: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let normal = |p: &Path| -> Option<Vec<std::ffi::OsString>> {
        let mut out = Vec::new();
        for c in p.components() {
            match c {
                Component::RootDir | Component::CurDir => {}
                Component::Normal(n) => out.push(n.to_os_string()),
                Component::ParentDir => {
                    out.pop();
                }
                Component::Prefix(_) => return None,
            }
        }
        Some(out)
    };
    if !from.is_absolute() || !to.is_absolute() {
        return None;
    }
    let (a, b) = (normal(from)?, normal(to)?);
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(case: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/installers/skills-cli@1.7.4")
            .join(case)
            .join("files")
    }

    #[test]
    fn an_entry_written_by_skillscope_is_byte_for_byte_the_installers() {
        let captured = std::fs::read_to_string(fixture("project-local").join(FILE)).unwrap();
        // Rebuilt from nothing, in another order: the same bytes.
        let mut text = None;
        for name in ["web-search", "commit-helper", "pdf-tools"] {
            let hash = match name {
                "web-search" => "524821ba68c31766e77a8dec26ae31c16fab1c4a75395f71bad22f129615db1e",
                "commit-helper" => {
                    "0d31c29df61a65ac729c32a11afdc968c13bad40dabbf6dbecdd29b4ad6bb1c8"
                }
                _ => "9b31103770ea37b383de8bbd59a2463670a212a48dfa65f658224da1f1a15bc6",
            };
            let e = Entry {
                source: "../source".into(),
                source_url: None,
                reference: None,
                source_type: "local".into(),
                skill_path: None,
                computed_hash: hash.into(),
            };
            let before: Option<String> = text.clone();
            text = edited(before.as_deref().map(str::as_bytes), |m| {
                m.insert(name.into(), e.to_json());
            })
            .unwrap()
            .or(before);
        }
        assert_eq!(text.unwrap(), captured);
        // A git source's entry, field for field as the installer wrote it.
        let git = std::fs::read_to_string(fixture("project-git-new-agents").join(FILE)).unwrap();
        let v: Value = serde_json::from_str(&git).unwrap();
        let e = Entry {
            source: "file://{SOURCE}".into(),
            source_url: Some("file://{SOURCE}".into()),
            reference: None,
            source_type: "git".into(),
            skill_path: Some("skills/git-commit/SKILL.md".into()),
            computed_hash: "0d31c29df61a65ac729c32a11afdc968c13bad40dabbf6dbecdd29b4ad6bb1c8"
                .into(),
        };
        assert_eq!(
            serde_json::to_string(&e.to_json()).unwrap(),
            serde_json::to_string(&v["skills"]["commit-helper"]).unwrap()
        );
    }

    #[test]
    fn removing_an_entry_keeps_the_rest_and_an_unknown_field() {
        let mut v: Value = serde_json::from_str(
            &std::fs::read_to_string(fixture("project-local").join(FILE)).unwrap(),
        )
        .unwrap();
        v["skills"]["pdf-tools"]["wellKnownDigest"] = Value::from("x");
        let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
        let out = edited(Some(text.as_bytes()), |m| {
            m.remove("commit-helper");
        })
        .unwrap()
        .unwrap();
        let after: Value = serde_json::from_str(&out).unwrap();
        let keys: Vec<&String> = after["skills"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["pdf-tools", "web-search"]);
        assert_eq!(after["skills"]["pdf-tools"]["wellKnownDigest"], "x");
        assert!(edited(Some(out.as_bytes()), |_| {}).unwrap().is_none());
        assert!(edited(Some(b"{\"version\": 9, \"skills\": {}}"), |_| {}).is_err());
        assert!(edited(Some(b"[1]"), |_| {}).is_err());
    }

    #[test]
    fn local_sources_are_written_relative_to_the_project() {
        let p = Path::new("/w/proj");
        assert_eq!(
            portable_local_source(p, Path::new("/w/source")),
            "../source"
        );
        assert_eq!(portable_local_source(p, p), ".");
        assert_eq!(
            portable_local_source(p, Path::new("/w/proj/lib/s")),
            "lib/s"
        );
        assert_eq!(
            portable_local_source(p, Path::new("/w/proj/../source")),
            "../source"
        );
        assert_eq!(local_source(p, "../source"), Path::new("/w/proj/../source"));
    }
}
