//! The temporary folders an add works in: made under skillscope's data folder, and the ones a
//! killed add left behind swept away by a later one.

use super::error::ManageError;
use std::path::Path;

/// How old a temporary folder of an add must be before a later add takes it for one a killed
/// process left behind (a day: no add runs that long).
pub(crate) const STALE: std::time::Duration = std::time::Duration::from_hours(24);

/// Removes the folders named `prefix…` in `dir` older than [`STALE`]: what an add killed before
/// it could clean up left there. Links and files of that name are left alone.
pub(crate) fn sweep_stale(dir: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        if !name.to_string_lossy().starts_with(prefix) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(e.path()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > STALE);
        if meta.is_dir() && old {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Deletes what removals left in `dir` (see [`super::tree::move_whole`]): a folder renamed
/// `.skillscope-gone-…` is already out of the library, whole elsewhere, and deleted by whoever
/// finds it, a killed process's included.
pub(crate) fn sweep_removed(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with(GONE)
            && e.file_type().is_ok_and(|t| t.is_dir())
        {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The name a folder leaving the library takes before it is deleted.
pub(crate) const GONE: &str = ".skillscope-gone-";

/// A temporary folder under `base` (skillscope's data folder) for clones and staged copies,
/// removed when dropped; the stale ones a killed add left there go first.
pub fn work_dir(base: &Path) -> Result<tempfile::TempDir, ManageError> {
    std::fs::create_dir_all(base).map_err(ManageError::io("create", base))?;
    sweep_stale(base, "work-");
    tempfile::Builder::new()
        .prefix("work-")
        .tempdir_in(base)
        .map_err(ManageError::io("create a temporary folder in", base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_add_removes_only_the_stale_folders_a_killed_add_left() {
        let t = tempfile::tempdir().unwrap();
        let old = t.path().join("work-old");
        let fresh = t.path().join("work-fresh");
        let other = t.path().join("mine-old");
        for d in [&old, &fresh, &other] {
            std::fs::create_dir_all(d.join("inner")).unwrap();
        }
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("keep"), "x").unwrap();
        let link = t.path().join("work-link");
        crate::core::files::fsx::test_link(outside.path(), &link).unwrap();
        let then = std::time::SystemTime::now() - STALE - std::time::Duration::from_mins(1);
        for d in [&old, &other] {
            std::fs::File::open(d).unwrap().set_modified(then).unwrap();
        }
        let work = work_dir(t.path()).unwrap();
        assert!(!old.exists(), "a stale work folder goes");
        assert!(fresh.exists(), "one a running add may use stays");
        assert!(other.exists(), "another name stays");
        assert!(
            outside.path().join("keep").exists() && link.exists(),
            "a link is not followed"
        );
        assert!(work.path().starts_with(t.path()));
    }
}
