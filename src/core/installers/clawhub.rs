//! ClawHub's records: `<workdir>/.clawhub/lock.json` (the legacy `.clawdhub/lock.json` too)
//! names each skill it installed below `<workdir>/skills/` by its slug (`pdf-tools`,
//! `@owner/slug`) with its `version` and pin; each skill's `.clawhub/origin.json` holds the
//! registry, the slug and the `fingerprint` of what was installed.

use super::error::RecordError;
use crate::core::files::paths;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The record folders ClawHub reads, newest first.
pub const DOT_DIRS: [&str; 2] = [".clawhub", ".clawdhub"];

/// The lock file of the ClawHub work folder `workdir`, if it has one.
pub fn lock_path(workdir: &Path) -> Option<PathBuf> {
    lock_path_where(workdir, |_| true)
}

/// [`lock_path`], looking only in the record folders `maybe` does not rule out (a walk that read
/// `workdir` and met no entry of that name).
pub fn lock_path_where(workdir: &Path, maybe: impl Fn(&str) -> bool) -> Option<PathBuf> {
    DOT_DIRS
        .iter()
        .filter(|d| maybe(d))
        .map(|d| workdir.join(d).join("lock.json"))
        .find(|p| p.is_file())
}

/// The entries of a lock file (`skills`), by slug.
pub fn read_lock(path: &Path) -> Result<Map<String, Value>, RecordError> {
    let bytes = match crate::core::files::fsx::read_settings(path) {
        Ok(Some(b)) => b,
        Ok(None) => return Ok(Map::new()),
        // The error names the file.
        Err(e) => return Err(e.into()),
    };
    let v: Value = serde_json::from_slice(&bytes).map_err(|source| RecordError::NotJson {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(match v.get("skills") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    })
}

/// A skill folder's `origin.json`, when it has one that parses.
pub fn read_origin(skill_dir: &Path) -> Option<Map<String, Value>> {
    DOT_DIRS.iter().find_map(|d| {
        let p = skill_dir.join(d).join("origin.json");
        let bytes = crate::core::files::fsx::read_settings(&p).ok()??;
        match serde_json::from_slice(&bytes).ok()? {
            Value::Object(m) => Some(m),
            _ => None,
        }
    })
}

/// Where ClawHub would keep a skill installed at `dir`: its work folder (the parent of a folder
/// named `skills` one or two levels above `dir`) and the skill's slug there (`skills/@owner/slug`
/// is `@owner/slug`). Whether the work folder holds a lock is [`lock_path`]'s question.
pub fn place_of(dir: &Path) -> Option<(PathBuf, String)> {
    let (depth, above) = skills_folder_of(dir)?;
    let workdir = paths::parent(above)?;
    let rel = paths::strip_prefix(dir, above)?;
    // A plain path below `skills` is its names with `/` between them: the slug is its text.
    if let Some(slug) = paths::plain_text(rel) {
        let first = slug.split('/').next().unwrap_or_default();
        if depth == 2 && !first.starts_with('@') {
            return None;
        }
        return Some((workdir.to_path_buf(), slug.into_owned()));
    }
    let slug: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    // `@owner/slug` is the only two-level form.
    if depth == 2 && !slug[0].starts_with('@') {
        return None;
    }
    Some((workdir.to_path_buf(), slug.join("/")))
}

/// The work folder of the `skills` folder above `dir` (the one [`place_of`] gives, when it gives
/// one), without making the slug: a library's skills mostly share a few work folders, and most
/// of those hold no lock.
pub fn workdir_of(dir: &Path) -> Option<&Path> {
    paths::parent(skills_folder_of(dir)?.1)
}

/// The folder named `skills` one or two levels above `dir`, the nearer first, with its depth.
fn skills_folder_of(dir: &Path) -> Option<(usize, &Path)> {
    let named = |d: &Path| paths::file_name(d).is_some_and(|n| n == "skills");
    let up = paths::parent(dir)?;
    if named(up) {
        return Some((1, up));
    }
    let up = paths::parent(up)?;
    named(up).then_some((2, up))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_remembers_every_record_name_looked_up_here() {
        let names = crate::core::scan::RECORD_NAMES;
        assert!(names.contains(&super::super::skills_lock::FILE));
        assert!(DOT_DIRS.iter().all(|d| names.contains(d)));
    }

    #[test]
    fn a_skill_below_skills_of_a_work_folder_is_found_by_its_slug() {
        let t = tempfile::tempdir().unwrap();
        let w = t.path();
        assert_eq!(lock_path(w), None);
        std::fs::create_dir_all(w.join(".clawdhub")).unwrap();
        std::fs::write(w.join(".clawdhub/lock.json"), "{}").unwrap();
        assert_eq!(lock_path(w), Some(w.join(".clawdhub/lock.json")));
        assert_eq!(
            place_of(&w.join("skills/pdf-tools")),
            Some((w.to_path_buf(), "pdf-tools".into()))
        );
        assert_eq!(
            place_of(&w.join("skills/@example/web-search")),
            Some((w.to_path_buf(), "@example/web-search".into()))
        );
        assert_eq!(place_of(&w.join("skills/group/web-search")), None);
        assert_eq!(place_of(&w.join("other/pdf-tools")), None);
        // The work folder alone is the one of the whole place.
        for d in [
            "skills/pdf-tools",
            "skills/@example/web-search",
            "a/skills/b/skills/c",
        ] {
            let d = w.join(d);
            assert_eq!(
                workdir_of(&d).map(Path::to_path_buf),
                place_of(&d).map(|(workdir, _)| workdir)
            );
        }
        assert_eq!(workdir_of(&w.join("other/pdf-tools")), None);
    }
}
