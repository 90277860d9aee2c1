//! What a walk saw of the names the installers' record lookups ask for (`skills-lock.json`,
//! ClawHub's record folders, skillscope's `skills.lock`), so that a lookup in a folder the walk
//! read, while that folder keeps its stat, is answered without a `stat`: a file added, removed
//! or renamed in a folder changes the folder's modification time, and a remembered walk is used
//! only while every folder it read keeps its stat (`folders_unchanged`).

use rustc_hash::FxHashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What a walk keeps of the entries with a record name as it goes: each one's path, and whether
/// it is a plain regular file.
pub(super) type Marks = Arc<Mutex<Vec<(PathBuf, bool)>>>;

/// The record names of one folder a walk read: each entry's name, and whether it is a plain
/// regular file.
type ByDir = FxHashMap<PathBuf, Vec<(OsString, bool)>>;

/// The names a walk remembers where it meets them: the files and folders the installers' records
/// are looked up by (`installers::Records`, `installers::clawhub::lock_path`), and skillscope's
/// own manifest (`manage::manifest::provenances`). Spelled out here, below those modules; a test
/// of `installers` holds them to their constants.
pub const RECORD_NAMES: [&str; 4] = ["skills-lock.json", "skills.lock", ".clawhub", ".clawdhub"];

/// Whether a walk remembers an entry named `name`: a record name, whatever the case of its ASCII
/// letters (a folder that ignores case answers a lookup of one spelling with another; such an
/// entry is remembered as not a plain file, so the lookup still takes its `stat`).
pub(super) fn is_record_name(name: &OsStr) -> bool {
    let name = name.as_encoded_bytes();
    RECORD_NAMES
        .iter()
        .any(|r| r.as_bytes().eq_ignore_ascii_case(name))
}

/// Keeps an entry the walker could not stat (a link to nothing), which never reaches its filter,
/// when it has a record name: as not a plain file.
pub(super) fn mark_unstatable(marks: &Mutex<Vec<(PathBuf, bool)>>, err: &ignore::Error) {
    if let Some(p) = error_path(err)
        && p.file_name().is_some_and(is_record_name)
    {
        marks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((p.to_path_buf(), false));
    }
}

/// The marks a walk kept, in path order.
pub(super) fn sorted(marks: &Marks) -> Vec<(PathBuf, bool)> {
    let mut marks = std::mem::take(
        &mut *marks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    marks.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    marks
}

/// The path an error of the walker names, if any.
fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

/// An entry of a folder as the walk met it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// No entry of that name (in any case).
    Absent,
    /// A regular file of exactly that name, not a link: a `stat` would say it is a file.
    File,
    /// Something else: a folder, a link (its target may come and go while the folder keeps its
    /// stat), a name that differs in case. Only a `stat` tells.
    Other,
}

/// The record names each trusted walk met, by root and by folder.
#[derive(Debug, Default)]
pub struct Seen {
    roots: Vec<(PathBuf, ByDir)>,
}

impl Seen {
    /// Keeps `marks` (each entry's path, and whether it is a plain regular file) of the walk of
    /// `root`, which read every folder from `root` down to each skill folder it found.
    pub(super) fn add(&mut self, root: &Path, marks: &[(PathBuf, bool)]) {
        let mut by_dir = ByDir::default();
        for (path, plain) in marks {
            if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
                by_dir
                    .entry(dir.to_path_buf())
                    .or_default()
                    .push((name.to_os_string(), *plain));
            }
        }
        self.roots.push((root.to_path_buf(), by_dir));
    }

    /// The entry `name` (one of [`RECORD_NAMES`]) of folder `dir`, when a trusted walk read that
    /// folder: the walk of `root` that found the skill at `skill_dir`, with `dir` that skill
    /// folder or one of its ancestors at or below the root. `None` when no such walk tells.
    pub fn entry(&self, root: &Path, skill_dir: &Path, dir: &Path, name: &str) -> Option<Entry> {
        if !RECORD_NAMES.contains(&name) || !skill_dir.starts_with(dir) || !dir.starts_with(root) {
            return None;
        }
        let (_, by_dir) = self.roots.iter().find(|(r, _)| r == root)?;
        let Some(met) = by_dir.get(dir) else {
            return Some(Entry::Absent);
        };
        let mut entry = Entry::Absent;
        for (n, plain) in met {
            if n.as_os_str() == OsStr::new(name) && *plain && entry == Entry::Absent {
                entry = Entry::File;
            } else if n.as_encoded_bytes().eq_ignore_ascii_case(name.as_bytes()) {
                return Some(Entry::Other);
            }
        }
        Some(entry)
    }

    /// Whether a regular file named `name` is in `dir` (links followed), answered from
    /// [`Seen::entry`] when it can be, else by a `stat`.
    pub fn is_file(
        seen: Option<&Seen>,
        at: Option<(&Path, &Path)>,
        dir: &Path,
        name: &str,
    ) -> bool {
        let known = seen
            .zip(at)
            .and_then(|(s, (root, skill_dir))| s.entry(root, skill_dir, dir, name));
        match known {
            Some(Entry::Absent) => false,
            Some(Entry::File) => true,
            Some(Entry::Other) | None => dir.join(name).is_file(),
        }
    }

    /// Whether the walk of `dir` shows no entry named `name` (so nothing below such a name
    /// exists either).
    pub fn absent(&self, at: Option<(&Path, &Path)>, dir: &Path, name: &str) -> bool {
        at.and_then(|(root, skill_dir)| self.entry(root, skill_dir, dir, name))
            == Some(Entry::Absent)
    }
}
