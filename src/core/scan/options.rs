//! What a scan is asked (its options and limits) and what one root's walk holds before it is
//! recorded.

use crate::core::index::WalkRecord;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// How far below a root skills are looked for. Agents' own folders hold skills one or two levels
/// down; collections checked out from git nest them deeper (seven levels in real ones).
pub const DEFAULT_MAX_DEPTH: usize = 8;

/// Folders never holding skills: version control internals and package caches.
pub(super) const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "node_modules"];

/// Whether the walk leaves a folder of this name out: version control internals, package
/// caches, and skillscope's own folders beside the skills (an install or a removal under way, or
/// one a killed process left behind, is never a skill).
pub(super) fn skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name) || name.starts_with(crate::core::files::paths::OWN_PREFIX)
}

/// The kernel's views of processes, devices and drivers: a walk there never ends, and reading
/// can block or leak. Never entered, whatever link leads there.
pub(super) const SYSTEM_DIRS: &[&str] = &["/proc", "/sys", "/dev"];

/// How many files and folders a walk visits per root before it stops and says so. Real
/// libraries hold a few thousand entries, the largest checked-out collections tens of
/// thousands, and a 50,000-skill library about 250,000; a million is a few seconds of walking
/// for a root that leads somewhere it should not.
pub const DEFAULT_MAX_ENTRIES: usize = 1_000_000;

/// The environment variable that raises (or lowers) [`DEFAULT_MAX_ENTRIES`].
pub const MAX_ENTRIES_ENV: &str = "SKILLSCOPE_MAX_ENTRIES";

/// The first read of a SKILL.md; enough for nearly every frontmatter.
pub(super) const HEAD_BYTES: usize = 16 * 1024;

/// The most read while looking for the closing `---`.
pub(super) const HEAD_CAP: usize = 1024 * 1024;

/// How many folder levels below a skill folder its resources are looked for.
pub const RESOURCE_DEPTH: usize = 8;

/// How far and how wide the walk goes, and what it needs of resources.
#[derive(Debug, Clone)]
pub struct ScanOptions {
    /// Folder levels below a root looked into for skills.
    pub max_depth: usize,
    /// Files and folders visited per root before the walk of that root stops.
    pub max_entries: usize,
    /// What the load needs of the resources of a folder the index vouches for.
    pub resources: Resources,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_entries: DEFAULT_MAX_ENTRIES,
            resources: Resources::Stat,
        }
    }
}

/// What a load needs of a resource in a folder whose remembered walk the index vouches for (so
/// that no file in it was added, removed or renamed since).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Resources {
    /// Its stat now, so that its size, kind, counts and links are current: the app, `list`,
    /// `budget` and everything that shows or counts resources.
    #[default]
    Stat,
    /// Its name only: it keeps the stamp, kind and counts the index remembers, without a stat
    /// (`Resource::fresh` is false), for a command that reads nothing of a resource but its
    /// name and links (`check`). A resource that is a link, or whose links the index remembers,
    /// is still stat'ed: a link may lose its target with no folder changing, and remembered
    /// links are used only while their file keeps its stat.
    Names,
}

pub(super) fn is_system(p: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|s| p.starts_with(s))
}

/// Why the walk must not enter `real` (where a link leads), if it must not.
pub(super) fn refused(real: &Path, root_real: &Path) -> Option<String> {
    if is_system(real) {
        Some(format!(
            "{}, a system folder ({})",
            real.display(),
            SYSTEM_DIRS.join(", ")
        ))
    } else if real != root_real && root_real.starts_with(real) {
        // The walk would go over the whole tree above the root before it met the root again.
        // (A link to the root itself is a cycle the walker reports on its own.)
        Some(format!("{}, a folder above the root", real.display()))
    } else {
        None
    }
}

/// A folder holding a skill file, found by the walk.
#[derive(Debug, Clone)]
pub(super) struct Found {
    pub(super) root: usize,
    pub(super) dir: PathBuf,
    pub(super) file: PathBuf,
    /// Other skill files in the same folder (`SKILL.md` and `skill.md` side by side).
    pub(super) others: Vec<PathBuf>,
}

pub(super) fn is_skill_file(name: &str) -> bool {
    name.eq_ignore_ascii_case("skill.md")
}

/// One root's walk before it is recorded: what [`WalkRecord`] keeps, plus every other file seen
/// (resource candidates) and the folders the depth limit kept the walker out of.
#[derive(Debug, Default)]
pub(super) struct Walked {
    pub(super) record: WalkRecord,
    /// `None`: the walk came from the index, and so do the resource lists.
    pub(super) files: Option<Vec<PathBuf>>,
    pub(super) frontier: Vec<(PathBuf, usize)>,
    /// Entries the walker reached through a link (files and folders): a file at or below one may
    /// lie outside its skill folder.
    pub(super) linked: HashSet<PathBuf>,
    /// Where the root really is (links resolved), for the walk's refusals.
    pub(super) root_real: PathBuf,
    /// The walk stopped at the entry cap: what it saw is not the whole root, so the next scan
    /// walks it again rather than trust it.
    pub(super) capped: bool,
}
