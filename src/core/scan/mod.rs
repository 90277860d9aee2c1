//! Discovery: one parallel walk of each root finds the folders holding a SKILL.md and the files
//! beside them (the skills' resources), then a frontmatter-only read of each skill file. With a
//! library index, a root whose folders all kept their stat is not walked again, and a skill whose
//! files all kept theirs is not read again. Bodies are read later, when something needs them.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::index::{IndexData, SkillRecord, WalkRecord};
use crate::core::skill::Skill;
use crate::core::source::Root;
use options::{Found, SYSTEM_DIRS, Walked, is_skill_file, is_system};
use rayon::prelude::*;
use read::read_skill;
pub(crate) use relative::below;
use relative::within;
use resources::{Listing, Wanted, assign_resources};
use rustc_hash::FxHashMap;
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use walk::{path_order, walk_root};

mod options;
mod read;
mod relative;
mod resources;
mod seen;
mod walk;

pub use options::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_ENTRIES, MAX_ENTRIES_ENV, RESOURCE_DEPTH, Resources, ScanOptions,
};
pub use read::read_head;
pub use seen::{Entry, RECORD_NAMES, Seen};

/// Walks every root and reads the head of every skill file. Problems that belong to no skill
/// (unreadable folders, symlink cycles, missing roots) come back as the second value.
pub fn scan(roots: &[Root], opts: &ScanOptions) -> (Vec<Skill>, Vec<Diagnostic>) {
    let s = scan_indexed(roots, opts, None);
    (s.skills, s.problems)
}

/// What [`scan_indexed`] found, and how much of it the index saved.
#[derive(Debug, Default)]
pub struct Scanned {
    /// Every skill found, with its parse findings.
    pub skills: Vec<Skill>,
    /// Problems that belong to no single skill: missing roots, folders not entered.
    pub problems: Vec<Diagnostic>,
    /// One per root folder, for the next index.
    pub walks: Vec<WalkRecord>,
    /// Roots walked (the rest came from the index).
    pub roots_walked: usize,
    /// Skill files read and parsed (the rest came from the index).
    pub skills_parsed: usize,
    /// What the walks saw of the installers' record files, for lookups in the folders they read.
    pub seen: Seen,
}

/// [`scan`] with a library index: a root is walked again only when one of its folders changed
/// stat, a skill file is read again only when its stat changed, and a skill's resources, text
/// flags and body facts come from the index while their files keep their stat.
pub fn scan_indexed(roots: &[Root], opts: &ScanOptions, index: Option<IndexData>) -> Scanned {
    let mut out = Scanned::default();
    let mut index = index;
    let mut remembered_walks: Vec<WalkRecord> = index
        .as_mut()
        .map(|ix| std::mem::take(&mut ix.walks))
        .unwrap_or_default();
    let (mut walks, direct) = walk_roots(roots, opts, &mut remembered_walks, &mut out);
    // A walk vouched for by its folders' stats (remembered), or one made now and not cut short.
    for (ri, w) in &walks {
        if !w.capped {
            out.seen.add(&roots[*ri].path, &w.record.marks);
        }
    }
    let (list, by_dir) = claim_folders(direct, &mut walks, &mut out);
    let listings = listings(&list, &by_dir, &mut walks);
    drop(by_dir);
    let (skills, parsed) = read_skills(&list, roots, opts, index.as_mut(), &walks, &listings);
    out.skills = skills;
    out.skills_parsed = parsed;
    out.walks = walks.into_iter().map(|(_, w)| w.record).collect();
    out.problems
        .sort_by(|a, b| a.path.cmp(&b.path).then(a.message.cmp(&b.message)));
    out
}

/// Why a folder given as a root is not walked: it is inside a system folder.
fn refused_root(root: &Root, root_real: &Path) -> Option<Diagnostic> {
    if is_system(root_real) {
        return Some(
            Diagnostic::new(
                RuleId::WalkSkipped,
                Severity::Warning,
                format!(
                    "{} is inside a system folder ({}): not walked",
                    root.path.display(),
                    SYSTEM_DIRS.join(", ")
                ),
            )
            .in_file(&root.path),
        );
    }
    None
}

/// A root that is a file: its folder when it is a SKILL.md, else the error saying it is not.
fn file_root(root: &Root) -> Result<PathBuf, Diagnostic> {
    let is_skill = root
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(is_skill_file);
    match (is_skill, root.path.parent()) {
        (true, Some(dir)) => Ok(dir.to_path_buf()),
        _ => Err(Diagnostic::new(
            RuleId::RootNotAFolder,
            Severity::Error,
            format!(
                "{} is a file, not a skills folder or a SKILL.md",
                root.path.display()
            ),
        )
        .in_file(&root.path)),
    }
}

/// A SKILL.md found or given directly: (root, folder, file).
type Direct = (usize, PathBuf, PathBuf);

/// The walk of each root (remembered when its folders kept their stat), and the SKILL.md files
/// given directly.
fn walk_roots(
    roots: &[Root],
    opts: &ScanOptions,
    remembered_walks: &mut Vec<WalkRecord>,
    out: &mut Scanned,
) -> (Vec<(usize, Walked)>, Vec<Direct>) {
    let mut walks: Vec<(usize, Walked)> = Vec::new();
    let mut direct: Vec<Direct> = Vec::new();
    for (ri, root) in roots.iter().enumerate() {
        // Command files are read by `commands::load`, not walked for skill folders.
        if root.commands {
            continue;
        }
        if !root.path.exists() {
            out.problems.push(
                Diagnostic::new(
                    RuleId::RootMissing,
                    Severity::Error,
                    format!("{} does not exist", root.path.display()),
                )
                .in_file(&root.path),
            );
            continue;
        }
        if root.path.is_file() {
            match file_root(root) {
                Ok(dir) => direct.push((ri, dir, root.path.clone())),
                Err(d) => out.problems.push(d),
            }
            continue;
        }
        let root_real = std::fs::canonicalize(&root.path).unwrap_or_else(|_| root.path.clone());
        if let Some(d) = refused_root(root, &root_real) {
            out.problems.push(d);
            continue;
        }
        let remembered = remembered_walks
            .iter()
            .position(|w| w.path == root.path && w.max_depth == opts.max_depth)
            .map(|i| remembered_walks.swap_remove(i))
            .filter(folders_unchanged);
        let walked = if let Some(record) = remembered {
            Walked {
                linked: record.links.iter().cloned().collect(),
                record,
                files: None,
                frontier: Vec::new(),
                root_real,
                capped: false,
            }
        } else {
            out.roots_walked += 1;
            walk_root(root, &root_real, opts)
        };
        walks.push((ri, walked));
    }
    (walks, direct)
}

/// One skill per folder, in (root, folder) order; a folder is claimed by the first root that
/// reaches it. Also the walks' problems, and each folder's place in the list.
fn claim_folders(
    direct: Vec<(usize, PathBuf, PathBuf)>,
    walks: &mut [(usize, Walked)],
    out: &mut Scanned,
) -> (Vec<Found>, FxHashMap<OsString, usize>) {
    let mut raw: Vec<(usize, PathBuf, PathBuf)> = direct;
    for (ri, w) in walks.iter_mut() {
        out.problems.extend(w.record.problems.iter().cloned());
        if w.record.stored.is_some() {
            // A remembered walk is copied from its index file when the index is written again:
            // its skill files are moved, not copied, and the rest let go before the skills are
            // read (the peak of a load).
            raw.extend(
                std::mem::take(&mut w.record.found)
                    .into_iter()
                    .map(|(d, f)| (*ri, d, f)),
            );
            w.record.forget_if_stored();
        } else {
            raw.extend(
                w.record
                    .found
                    .iter()
                    .map(|(d, f)| (*ri, d.clone(), f.clone())),
            );
        }
    }
    raw.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| path_order(&a.1, &b.1))
            .then_with(|| path_order(&a.2, &b.2))
    });
    // In (root, folder) order, as `raw` is.
    let mut list: Vec<Found> = Vec::new();
    let mut by_dir: FxHashMap<OsString, usize> = FxHashMap::default();
    for (ri, dir, file) in raw {
        match by_dir.get(dir.as_os_str()).map(|&i| &mut list[i]) {
            Some(f) if f.root == ri => {
                // Prefer the exact `SKILL.md` spelling, as agents do.
                if file.file_name().is_some_and(|n| n == "SKILL.md") {
                    let old = std::mem::replace(&mut f.file, file);
                    f.others.push(old);
                } else {
                    f.others.push(file);
                }
            }
            Some(_) => {}
            None => {
                by_dir.insert(dir.clone().into_os_string(), list.len());
                list.push(Found {
                    root: ri,
                    dir,
                    file,
                    others: Vec::new(),
                });
            }
        }
    }
    (list, by_dir)
}

/// Where each skill's resources come from: the walk's files, by folder, for a walked root;
/// the index for a remembered one.
struct Listings {
    fresh: FxHashMap<OsString, Vec<PathBuf>>,
    walked: HashSet<usize>,
    remembered: HashSet<usize>,
}

impl Listings {
    fn of(&self, f: &Found) -> Listing<'_> {
        if self.walked.contains(&f.root) {
            Listing::Walked(self.fresh.get(f.dir.as_os_str()).map_or(&[], Vec::as_slice))
        } else if self.remembered.contains(&f.root) {
            Listing::Remembered
        } else {
            Listing::Look
        }
    }
}

/// Resources: from the walk when there was one, else from the index.
fn listings(
    list: &[Found],
    by_dir: &FxHashMap<OsString, usize>,
    walks: &mut [(usize, Walked)],
) -> Listings {
    let mut fresh: FxHashMap<OsString, Vec<PathBuf>> = FxHashMap::default();
    let mut walked: HashSet<usize> = HashSet::new();
    let remembered: HashSet<usize> = walks
        .iter()
        .filter(|(_, w)| w.files.is_none())
        .map(|(ri, _)| *ri)
        .collect();
    for (ri, w) in walks.iter_mut() {
        if let Some(files) = w.files.take() {
            walked.insert(*ri);
            assign_resources(list, by_dir, files, w, &mut fresh);
        }
        if w.capped {
            // No folder stamps: `folders_unchanged` never vouches for a partial walk.
            w.record.dirs.clear();
        }
    }
    Listings {
        fresh,
        walked,
        remembered,
    }
}

/// Reads every skill found, in parallel, with its index record when there is one (taken, not
/// copied); the skills and how many SKILL.md files were parsed.
fn read_skills(
    list: &[Found],
    roots: &[Root],
    opts: &ScanOptions,
    mut index: Option<&mut IndexData>,
    walks: &[(usize, Walked)],
    listings: &Listings,
) -> (Vec<Skill>, usize) {
    let records: Vec<Option<Box<SkillRecord>>> = list
        .iter()
        .map(|f| {
            index
                .as_mut()
                .and_then(|ix| ix.skills.remove(f.dir.as_os_str().as_encoded_bytes()))
        })
        .collect();
    let parsed = std::sync::atomic::AtomicUsize::new(0);
    let manifests = crate::core::words::namespace::Manifests::default();
    // Each root held open, to stat its skills' files from.
    let root_dirs: Vec<crate::core::files::fsx::Dir> = roots
        .iter()
        .map(|r| crate::core::files::fsx::Dir::open(&r.path))
        .collect();
    // One copy of each root's path for all of its skills.
    let shared: Vec<std::sync::Arc<Path>> = roots
        .iter()
        .map(|r| std::sync::Arc::from(r.path.as_path()))
        .collect();
    // The links each walked root holds, to tell plain skill folders from linked ones.
    let mut links_of: Vec<Option<&HashSet<PathBuf>>> = vec![None; roots.len()];
    for (ri, w) in walks {
        links_of[*ri] = Some(&w.linked);
    }
    let skills = list
        .par_iter()
        .zip(records)
        .map(|(f, record)| {
            let want = Wanted {
                resources: opts.resources,
                linked: links_of[f.root],
            };
            let (mut skill, read) = read_skill(
                f,
                roots,
                &root_dirs[f.root],
                &manifests,
                record,
                listings.of(f),
                want,
            );
            skill.root = std::sync::Arc::clone(&shared[f.root]);
            skill.plain = links_of[f.root].is_some_and(|l| no_link_between(&skill.root, &f.dir, l));
            if read {
                parsed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            skill
        })
        .collect();
    (skills, parsed.into_inner())
}

/// Whether the walk that found `dir` below `root` met no link at `dir` or between them.
fn no_link_between(root: &Path, dir: &Path, links: &HashSet<PathBuf>) -> bool {
    // By the paths' bytes where both are plain (`paths::strip_prefix`), as every skill asks.
    if crate::core::files::paths::strip_prefix(dir, root).is_none() {
        return false;
    }
    links.is_empty()
        || dir
            .ancestors()
            .take_while(|a| *a != root)
            .all(|a| !links.contains(a))
}

/// Whether every folder a remembered walk read still has the stat it had before it was read.
fn folders_unchanged(w: &WalkRecord) -> bool {
    // Each folder is stat'ed from the root, held open.
    let root = crate::core::files::fsx::Dir::open(&w.path);
    let Some(dirs) = w.folders() else {
        return false;
    };
    !dirs.is_empty()
        && dirs.par_iter().all(|(d, stamp)| {
            within(&root, &w.path, d)
                .stat_self()
                .is_ok_and(|s| stamp.vouches_for(&s))
        })
}

#[cfg(test)]
mod tests;
