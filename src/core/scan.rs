//! Discovery: one parallel walk of each root finds the folders holding a SKILL.md and the files
//! beside them (the skills' resources), then a frontmatter-only read of each skill file. With a
//! library index, a root whose folders all kept their stat is not walked again, and a skill whose
//! files all kept theirs is not read again. Bodies are read later, when something needs them.

use crate::core::files::fsx::Stamp;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::frontmatter;
use crate::core::index::{IndexData, ResourceRecord, SkillRecord, WalkRecord};
use crate::core::resource::{Resource, looks_like_text};
use crate::core::skill::{KindSource, Skill, SkillKind};
use crate::core::source::Root;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};

/// How far below a root skills are looked for. Agents' own folders hold skills one or two levels
/// down; collections checked out from git nest them deeper (seven levels in real ones).
pub const DEFAULT_MAX_DEPTH: usize = 8;

/// Folders never holding skills: version control internals and package caches.
const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "node_modules"];

/// Whether the walk leaves a folder of this name out: version control internals, package
/// caches, and skillscope's own folders beside the skills (an install or a removal under way, or
/// one a killed process left behind, is never a skill).
fn skipped_dir(name: &str) -> bool {
    SKIPPED_DIRS.contains(&name) || name.starts_with(crate::core::files::paths::OWN_PREFIX)
}

/// The kernel's views of processes, devices and drivers: a walk there never ends, and reading
/// can block or leak. Never entered, whatever link leads there.
const SYSTEM_DIRS: &[&str] = &["/proc", "/sys", "/dev"];

/// How many files and folders a walk visits per root before it stops and says so. Real
/// libraries hold a few thousand entries, the largest checked-out collections tens of
/// thousands, and a 50,000-skill library about 250,000; a million is a few seconds of walking
/// for a root that leads somewhere it should not.
pub const DEFAULT_MAX_ENTRIES: usize = 1_000_000;
/// The environment variable that raises (or lowers) [`DEFAULT_MAX_ENTRIES`].
pub const MAX_ENTRIES_ENV: &str = "SKILLSCOPE_MAX_ENTRIES";

/// The first read of a SKILL.md; enough for nearly every frontmatter.
const HEAD_BYTES: usize = 16 * 1024;
/// The most read while looking for the closing `---`.
const HEAD_CAP: usize = 1024 * 1024;
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

fn is_system(p: &Path) -> bool {
    SYSTEM_DIRS.iter().any(|s| p.starts_with(s))
}

/// Why the walk must not enter `real` (where a link leads), if it must not.
fn refused(real: &Path, root_real: &Path) -> Option<String> {
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
struct Found {
    root: usize,
    dir: PathBuf,
    file: PathBuf,
    /// Other skill files in the same folder (`SKILL.md` and `skill.md` side by side).
    others: Vec<PathBuf>,
}

fn is_skill_file(name: &str) -> bool {
    name.eq_ignore_ascii_case("skill.md")
}

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
}

/// One root's walk before it is recorded: what [`WalkRecord`] keeps, plus every other file seen
/// (resource candidates) and the folders the depth limit kept the walker out of.
#[derive(Debug, Default)]
struct Walked {
    record: WalkRecord,
    /// `None`: the walk came from the index, and so do the resource lists.
    files: Option<Vec<PathBuf>>,
    frontier: Vec<(PathBuf, usize)>,
    /// Entries the walker reached through a link (files and folders): a file at or below one may
    /// lie outside its skill folder.
    linked: HashSet<PathBuf>,
    /// Where the root really is (links resolved), for the walk's refusals.
    root_real: PathBuf,
    /// The walk stopped at the entry cap: what it saw is not the whole root, so the next scan
    /// walks it again rather than trust it.
    capped: bool,
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
    if !dir.starts_with(root) {
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
    !w.dirs.is_empty()
        && w.dirs.par_iter().all(|(d, stamp)| {
            crate::core::files::fsx::Within::new(&root, d)
                .stat_self()
                .is_ok_and(|s| stamp.vouches_for(&s))
        })
}

/// The walker's filter: no skipped folder names, and no link (or plain child of the root) that
/// leads into a system folder or above the root (a warning each, into `skipped`). It owns what
/// it uses: it lives as long as the walker.
fn entry_filter(
    filter_root: PathBuf,
    filter_skipped: Arc<Mutex<Vec<Diagnostic>>>,
) -> impl Fn(&ignore::DirEntry) -> bool + Send + Sync + 'static {
    move |e: &ignore::DirEntry| {
        if e.depth() == 0 {
            return true;
        }
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        if is_dir && skipped_dir(&e.file_name().to_string_lossy()) {
            return false;
        }
        // Where the entry really is: a link is resolved; a plain child of the root is the
        // root's real folder joined with its name (only there can `/proc` be a plain child,
        // when the root is `/`). Deeper plain entries sit below an allowed place, which holds
        // no system folder and no ancestor of the root.
        let real = if e.path_is_symlink() {
            std::fs::canonicalize(e.path()).ok()
        } else if e.depth() == 1 && is_dir {
            Some(filter_root.join(e.file_name()))
        } else {
            None
        };
        let Some(why) = real.and_then(|r| refused(&r, &filter_root)) else {
            return true;
        };
        lock(&filter_skipped).push(
            Diagnostic::new(
                RuleId::WalkSkipped,
                Severity::Warning,
                format!("{} leads to {why}: not followed", e.path().display()),
            )
            .in_file(e.path()),
        );
        false
    }
}

/// Walks one root in parallel: skill files, every folder (stamped before it is read) and every
/// other file (resource candidates). Links into a system folder or to a folder above the root are
/// not followed (a warning each), and the walk stops after `opts.max_entries` entries (a warning
/// naming the root and how to raise the cap).
fn walk_root(root: &Root, root_real: &Path, opts: &ScanOptions) -> Walked {
    let found: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());
    let problems: Mutex<Vec<Diagnostic>> = Mutex::new(Vec::new());
    let dirs: Mutex<Vec<(PathBuf, Stamp)>> = Mutex::new(Vec::new());
    let files: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let frontier: Mutex<Vec<(PathBuf, usize)>> = Mutex::new(Vec::new());
    let linked: Mutex<HashSet<PathBuf>> = Mutex::new(HashSet::new());
    let deepest = opts.max_depth + 1;
    // The filter must own what it uses: it lives as long as the walker.
    let skipped: Arc<Mutex<Vec<Diagnostic>>> = Arc::default();
    let filter_skipped = Arc::clone(&skipped);
    let filter_root = root_real.to_path_buf();
    let walker = ignore::WalkBuilder::new(&root.path)
        .standard_filters(false)
        .follow_links(true)
        .max_depth(Some(deepest))
        .filter_entry(entry_filter(filter_root, filter_skipped))
        .build_parallel();
    let visited = AtomicUsize::new(0);
    let capped = AtomicBool::new(false);
    walker.run(|| {
        let (found, problems, dirs, files, frontier, linked) =
            (&found, &problems, &dirs, &files, &frontier, &linked);
        let (visited, capped) = (&visited, &capped);
        Box::new(move |entry| {
            if visited.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= opts.max_entries {
                if !capped.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    push(
                        problems,
                        Diagnostic::new(
                            RuleId::WalkCap,
                            Severity::Warning,
                            format!(
                                "stopped walking {} after {} files and folders: skills below may be missing; raise the cap with --max-entries N or {MAX_ENTRIES_ENV}=N",
                                root.path.display(),
                                opts.max_entries
                            ),
                        )
                        .in_file(&root.path),
                    );
                }
                return ignore::WalkState::Quit;
            }
            match entry {
                Ok(e) => {
                    if e.path_is_symlink() {
                        lock(linked).insert(e.path().to_path_buf());
                    }
                    let named = e.file_name().to_str().is_some_and(is_skill_file);
                    let ft = e.file_type();
                    if ft.is_some_and(|t| t.is_dir()) {
                        // Stamped before the walker reads it: a change made while it is read
                        // shows up as a new mtime next time.
                        let stamp = e.metadata().map_or(Stamp::default(), |m| Stamp::of(&m));
                        lock(dirs).push((e.path().to_path_buf(), stamp));
                        if e.depth() == deepest {
                            lock(frontier).push((e.path().to_path_buf(), e.depth()));
                        }
                    } else if named {
                        // A pipe or device is kept as a skill that is never opened: it is listed
                        // with its error rather than left out.
                        if let Some(dir) = e.path().parent() {
                            lock(found).push((dir.to_path_buf(), e.path().to_path_buf()));
                        }
                        if ft.is_some_and(|t| t.is_file()) {
                            // A second spelling beside the one agents read is a file of the
                            // skill.
                            lock(files).push(e.path().to_path_buf());
                        }
                    } else if ft.is_some_and(|t| t.is_file()) {
                        lock(files).push(e.path().to_path_buf());
                    }
                }
                Err(err) => push(problems, walk_problem(&err)),
            }
            ignore::WalkState::Continue
        })
    });
    let mut problems = into(problems);
    problems.append(&mut lock(&skipped));
    let mut dirs: Vec<(PathBuf, Stamp)> = into(dirs);
    dirs.sort_unstable_by(|a, b| path_order(&a.0, &b.0));
    let mut found: Vec<(PathBuf, PathBuf)> = into(found);
    // In the order the scan puts a root's skills in, so that its sort finds them sorted.
    found.sort_unstable_by(|a, b| path_order(&a.0, &b.0).then_with(|| path_order(&a.1, &b.1)));
    let linked: HashSet<PathBuf> = into(linked);
    let mut links: Vec<PathBuf> = linked.iter().cloned().collect();
    links.sort_unstable_by(|a, b| path_order(a, b));
    Walked {
        record: WalkRecord {
            path: root.path.clone(),
            max_depth: opts.max_depth,
            dirs,
            found,
            problems,
            links,
            stored: None,
        },
        files: Some(into(files)),
        frontier: into(frontier),
        linked,
        root_real: root_real.to_path_buf(),
        capped: capped.into_inner(),
    }
}

/// Gives each file of a walk to the skill folder it is in (the nearest one above it), as that
/// skill's resource, unless a dot-name or `node_modules` lies between them or it is deeper than
/// [`RESOURCE_DEPTH`] folders. Folders the walker's depth limit kept it out of are read here, as
/// far as they belong to a skill.
fn assign_resources(
    list: &[Found],
    by_dir: &FxHashMap<OsString, usize>,
    files: Vec<PathBuf>,
    w: &mut Walked,
    out: &mut FxHashMap<OsString, Vec<PathBuf>>,
) {
    let Walked {
        frontier,
        linked,
        root_real,
        record,
        ..
    } = w;
    // `path` is a file (`start` its folder) or a folder (`start` itself). A link that leads out
    // of the skill folder is not one of its resources: the agent reads files by their path inside
    // the skill (the rule `show` applies too). Only paths the walker reached through a link are
    // resolved to check that.
    let owner = |path: &Path, start: &Path| -> Option<(&Found, usize)> {
        let mut depth = 0;
        let mut through_link = start != path && !linked.is_empty() && linked.contains(path);
        let mut cur = start;
        loop {
            if let Some(&i) = by_dir.get(cur.as_os_str()) {
                let f = &list[i];
                if through_link && !crate::core::resource::stays_inside(&f.dir, path) {
                    return None;
                }
                return Some((f, depth));
            }
            through_link = through_link || (!linked.is_empty() && linked.contains(cur));
            let name = cur.file_name()?.to_string_lossy();
            if name.starts_with('.') || name == "node_modules" {
                return None;
            }
            depth += 1;
            if depth > RESOURCE_DEPTH {
                return None;
            }
            cur = cur.parent()?;
        }
    };
    for file in files {
        let hidden = file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        let Some(parent) = file.parent() else {
            continue;
        };
        if let Some((f, _)) = owner(&file, parent)
            && file != f.file
        {
            out.entry(f.dir.clone().into_os_string())
                .or_default()
                .push(file);
        }
    }
    let mut met = Vec::new();
    for (dir, _) in frontier {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if name.is_some_and(|n| n.starts_with('.') || n == "node_modules") {
            continue;
        }
        // The folder itself is a file's parent as far as `owner` is concerned.
        if let Some((f, depth)) = owner(dir, dir) {
            let files = out.entry(f.dir.clone().into_os_string()).or_default();
            let mut below = Below::new(root_real, &f.dir);
            below.collect(dir, depth, &f.file, files, &mut record.dirs);
            met.append(&mut below.links);
        }
    }
    record.dirs.sort_unstable_by(|a, b| path_order(&a.0, &b.0));
    // The links met below the walker's depth limit count as the walk's own.
    if !met.is_empty() {
        record.links.extend(met.iter().cloned());
        record.links.sort_unstable_by(|a, b| path_order(a, b));
        record.links.dedup();
        linked.extend(met);
    }
}

/// The most entries one skill's look below the walker's depth limit visits: a skill's files
/// are a handful, so this only stops a link into a huge tree.
const MAX_BELOW: usize = 10_000;

/// A look at the files of a skill below the walker's depth limit (or of a skill file given
/// directly), held to the walk's rules: links into system folders or to folders above the root
/// or the skill are not followed, and at most [`MAX_BELOW`] entries are visited.
struct Below<'a> {
    root_real: &'a Path,
    /// The skill folder, links resolved: a link that leads out of it is not followed.
    skill_real: PathBuf,
    left: usize,
    /// Every link followed.
    links: Vec<PathBuf>,
}

impl<'a> Below<'a> {
    fn new(root_real: &'a Path, skill_dir: &Path) -> Self {
        Below {
            root_real,
            skill_real: std::fs::canonicalize(skill_dir)
                .unwrap_or_else(|_| skill_dir.to_path_buf()),
            left: MAX_BELOW,
            links: Vec::new(),
        }
    }

    /// Files below `dir` (itself `depth` levels below its skill folder). Stops at nested skills,
    /// dot-names and `node_modules`, as the walk does; each folder is stamped before it is read.
    fn collect(
        &mut self,
        dir: &Path,
        depth: usize,
        skill_file: &Path,
        files: &mut Vec<PathBuf>,
        dirs: &mut Vec<(PathBuf, Stamp)>,
    ) {
        if depth > RESOURCE_DEPTH {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut subdirs = Vec::new();
        let mut here = Vec::new();
        for e in entries.flatten() {
            if self.left == 0 {
                break;
            }
            self.left -= 1;
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            let path = e.path();
            // Links are followed, as by the walk, and refused where the walk refuses them; a
            // link to a folder above this one would be a cycle.
            if e.file_type().is_ok_and(|t| t.is_symlink()) {
                let Ok(real) = std::fs::canonicalize(&path) else {
                    continue;
                };
                let dir_real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
                if refused(&real, self.root_real).is_some()
                    || dir_real.starts_with(&real)
                    || !real.starts_with(&self.skill_real)
                {
                    continue;
                }
                self.links.push(path.clone());
            }
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                if name != "node_modules" {
                    subdirs.push((path, Stamp::of(&meta)));
                }
            } else if meta.is_file() {
                // A folder holding its own skill file is a nested skill, not part of this one.
                if name == "SKILL.md" || name == "skill.md" {
                    return;
                }
                if path != skill_file {
                    here.push(path);
                }
            }
        }
        files.append(&mut here);
        for (sub, stamp) in subdirs {
            dirs.push((sub.clone(), stamp));
            self.collect(&sub, depth + 1, skill_file, files, dirs);
        }
    }
}

/// Path order (component by component, as `Path`'s `Ord`) for the paths a walk makes, compared
/// as bytes: a separator sorts below every other byte, which is what comparing components does.
fn path_order(a: &Path, b: &Path) -> Ordering {
    let key = |c: u8| if c == b'/' { 0 } else { c };
    let (a, b) = (
        a.as_os_str().as_encoded_bytes(),
        b.as_os_str().as_encoded_bytes(),
    );
    // The bytes agree up to the first that differs (found a word at a time); only there does
    // the separator's place matter. A path holds no NUL byte, so `key` loses nothing.
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    match (a.get(i), b.get(i)) {
        (Some(&x), Some(&y)) => key(x).cmp(&key(y)),
        _ => a.len().cmp(&b.len()),
    }
}

fn into<T>(m: Mutex<T>) -> T {
    m.into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn push(m: &Mutex<Vec<Diagnostic>>, d: Diagnostic) {
    lock(m).push(d);
}

fn walk_problem(err: &ignore::Error) -> Diagnostic {
    match err {
        ignore::Error::WithPath { path, err } => walk_problem(err).in_file(path),
        ignore::Error::WithDepth { err, .. } => walk_problem(err),
        ignore::Error::Loop { ancestor, child } => Diagnostic::new(
            RuleId::SymlinkCycle,
            Severity::Warning,
            format!(
                "symlink cycle: {} leads back to {}; not followed again",
                child.display(),
                ancestor.display()
            ),
        )
        .in_file(child),
        other => Diagnostic::new(
            RuleId::WalkError,
            Severity::Warning,
            format!("could not read a folder: {other}"),
        ),
    }
}

/// Diagnostics about the folder's skill files (their names, duplicates) rather than one file's
/// contents: made again on every scan, never taken from the index.
/// A link's destination is judged again too (`core::layout`).
const FOLDER_RULES: [RuleId; 3] = [
    RuleId::SkillFileName,
    RuleId::SkillFileDuplicate,
    RuleId::LinkLeavesLibrary,
];

/// Where a skill's resource paths come from.
enum Listing<'a> {
    /// The files a fresh walk gave this skill.
    Walked(&'a [PathBuf]),
    /// The walk came from the index: the remembered list (if the record fits) or a new look.
    Remembered,
    /// No walk (a skill file given directly): a new look at the folder.
    Look,
}

/// A skill whose file kept its stat, as the index remembered it: its frontmatter, findings,
/// body facts and counts.
fn restore(skill: &mut Skill, r: SkillRecord, stamp: Stamp) {
    skill.stamp = stamp;
    skill.frontmatter = r.frontmatter;
    skill.parse_diagnostics = r.parse_diagnostics;
    skill
        .parse_diagnostics
        .retain(|d| !FOLDER_RULES.contains(&d.rule));
    skill.body_line = r.body_line;
    skill.body_offset = r.body_offset;
    if let Some(b) = r.body {
        let _ = skill.facts.body.set(b);
    }
    for (slot, n) in skill.facts.body_tokens.iter().zip(r.body_tokens) {
        if let Some(n) = n {
            let _ = slot.set(n);
        }
    }
    *skill
        .facts
        .l1_tokens
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = r.l1_tokens;
    *skill
        .facts
        .rules
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = r.rules;
    for (slot, n) in skill.facts.l2_tokens.iter().zip(r.l2_tokens) {
        if let Some(n) = n {
            let _ = slot.set(n);
        }
    }
}

/// Reads one skill (or takes it from its index record when its skill file kept its stat), with its
/// resources stat'ed afresh. The flag says whether the skill file was read and parsed.
fn read_skill(
    f: &Found,
    roots: &[Root],
    root_dir: &crate::core::files::fsx::Dir,
    manifests: &crate::core::words::namespace::Manifests,
    record: Option<Box<SkillRecord>>,
    listing: Listing,
    want: Wanted,
) -> (Skill, bool) {
    let root = &roots[f.root];
    let mut skill = Skill::new(root, f.dir.clone(), f.file.clone());
    let mut record = record.filter(|r| r.file.as_os_str() == f.file.as_os_str());
    let remembered = record.as_mut().map(|r| std::mem::take(&mut r.resources));
    // The skill file and the resources are stat'ed from the root, held open: the kernel walks only
    // the path below it, and no folder is opened per skill.
    let dir = crate::core::files::fsx::Within::new(root_dir, &f.dir);
    let meta = match crate::core::files::paths::strip_prefix(&f.file, &f.dir) {
        Some(rel) if !rel.as_os_str().is_empty() => dir.stat(rel),
        _ => crate::core::files::fsx::stat_path(&f.file).map(|(st, regular)| regular.then_some(st)),
    };
    // A pipe, socket or device is never opened (opening some devices acts on them); a file that
    // cannot be stat'ed is tried, so that the error says why.
    let regular = meta.as_ref().map_or(true, Option::is_some);
    let fresh = meta.ok().flatten();
    let reuse = match (&fresh, record) {
        (Some(stamp), Some(r)) if r.stamp.vouches_for(stamp) => Some((r, *stamp)),
        _ => None,
    };
    let parsed = reuse.is_none();
    match reuse {
        Some((r, stamp)) => restore(&mut skill, *r, stamp),
        None => match if regular {
            read_head(&f.file)
        } else {
            Err(crate::core::files::fsx::not_regular())
        } {
            Ok((head, stamp, complete)) => {
                skill.stamp = stamp;
                let parsed = frontmatter::parse(&head, complete);
                skill.frontmatter = parsed.frontmatter;
                skill.parse_diagnostics = parsed.diagnostics;
                skill.body_line = parsed.layout.body_line;
                skill.body_offset = parsed.layout.body_offset as u64;
            }
            Err(e) if crate::core::files::fsx::is_not_regular(&e) => skill.parse_diagnostics.push(
                Diagnostic::new(
                    RuleId::SkillFileNotRegular,
                    Severity::Error,
                    "this SKILL.md is not a regular file (a pipe, socket, device or folder): it was not opened; replace it with a text file",
                ),
            ),
            Err(e) => skill.parse_diagnostics.push(
                Diagnostic::new(
                    RuleId::FileUnreadable,
                    Severity::Error,
                    format!("cannot read SKILL.md: {e}; check its permissions"),
                )
                .at(1, 1),
            ),
        },
    }
    let file_name = f.file.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(n) = file_name.filter(|n| n != "SKILL.md" && n != "skill.md") {
        skill.parse_diagnostics.push(Diagnostic::new(
            RuleId::SkillFileName,
            Severity::Error,
            format!(
                "the file is named `{n}`: agents look for `SKILL.md` on case-sensitive file systems; rename it"
            ),
        ));
    }
    for other in &f.others {
        skill.parse_diagnostics.push(Diagnostic::new(
            RuleId::SkillFileDuplicate,
            Severity::Warning,
            format!(
                "the folder also holds {}: agents read only {}; remove one",
                other.file_name().unwrap_or_default().to_string_lossy(),
                f.file.file_name().unwrap_or_default().to_string_lossy()
            ),
        ));
    }
    skill.name = skill
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| skill.dir_name().into_owned(), str::to_string);
    skill.resources = resources(f, &dir, remembered, listing, want);
    // Without `type:` or `entry:`, the default entry script makes a skill executable. Taken from
    // the resources as this load found them (stat'ed, or named by a walk the index vouches for;
    // a record keeps only what the skill file says), so adding or removing the script counts
    // even when the skill file kept its stat. A link named so that
    // leads out of the folder is not a resource, and not an entry script either.
    // The Lazy Skills agent reads `type` alone (`metadata.get("type", "contextual")`): its
    // skills stay contextual, and the rules say why the script is not used.
    if skill.frontmatter.kind_source == KindSource::Default
        && !root.agent.kind_from_type_alone()
        && skill
            .resources
            .iter()
            .any(|r| r.rel == crate::core::skill::DEFAULT_ENTRY)
    {
        skill.frontmatter.kind = SkillKind::Executable;
        skill.frontmatter.kind_source = KindSource::EntryScript;
    }
    let placed =
        crate::core::words::namespace::place_in(&root.path, &skill.dir, &skill.name, manifests);
    skill.id = placed.id;
    skill.namespace = placed.namespace;
    skill.plugin = placed.plugin;
    (skill, parsed)
}

/// What a skill's load needs of its resources: see [`Resources`]. `linked` is every link its
/// root's walk met.
#[derive(Clone, Copy)]
struct Wanted<'a> {
    resources: Resources,
    linked: Option<&'a HashSet<PathBuf>>,
}

impl Wanted<'_> {
    /// Whether a remembered resource is taken as the index has it, without a stat.
    fn by_name(&self, f: &Found, x: &ResourceRecord) -> bool {
        self.resources == Resources::Names
            && x.links.is_none()
            && self
                .linked
                .is_none_or(|l| l.is_empty() || !l.contains(&f.dir.join(&x.rel)))
    }
}

/// A skill's resources, each stat'ed now (but see [`Resources::Names`]); the text flag and link
/// list of one that kept its stat come from the index record.
fn resources(
    f: &Found,
    dir: &crate::core::files::fsx::Within,
    remembered: Option<Vec<ResourceRecord>>,
    listing: Listing,
    want: Wanted,
) -> Vec<Resource> {
    let stat = |path: &Path| {
        std::fs::metadata(path)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| Stamp::of(&m))
    };
    let mut out: Vec<Resource> = match (listing, remembered) {
        // The folders did not change: the same files, each stat'ed again (from the skill folder,
        // held open).
        (Listing::Remembered, Some(records)) => records
            .into_iter()
            .filter_map(|x| {
                if want.by_name(f, &x) {
                    return Some(
                        Resource::remembered(x.rel, x.stamp, x.text).with_tokens(x.tokens),
                    );
                }
                let stamp = dir.regular_file(Path::new(&x.rel))?;
                Some(if x.stamp.vouches_for(&stamp) {
                    let r = Resource::new(x.rel, stamp, x.text).with_tokens(x.tokens);
                    if let Some(links) = x.links {
                        let _ = r.links.set(links);
                    }
                    r
                } else {
                    let text = looks_like_text(&f.dir.join(&x.rel));
                    Resource::new(x.rel, stamp, text)
                })
            })
            .collect(),
        (listing, remembered) => {
            let paths: Vec<PathBuf> = if let Listing::Walked(paths) = listing {
                paths.to_vec()
            } else {
                let root_real = std::fs::canonicalize(&f.dir).unwrap_or_else(|_| f.dir.clone());
                let mut paths = Vec::new();
                Below::new(&root_real, &f.dir).collect(
                    &f.dir,
                    0,
                    &f.file,
                    &mut paths,
                    &mut Vec::new(),
                );
                paths
            };
            let mut remembered = remembered.unwrap_or_default();
            remembered.sort_unstable_by(|a, b| a.rel.cmp(&b.rel));
            paths
                .into_iter()
                .filter_map(|path| {
                    let stamp = stat(&path)?;
                    let rel = path
                        .strip_prefix(&f.dir)
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .replace('\\', "/");
                    let known = remembered
                        .binary_search_by(|x| x.rel.as_str().cmp(&rel))
                        .ok()
                        .map(|i| &mut remembered[i])
                        .filter(|x| x.stamp.vouches_for(&stamp));
                    Some(if let Some(k) = known {
                        let r = Resource::new(rel, stamp, k.text).with_tokens(k.tokens);
                        if let Some(links) = k.links.take() {
                            let _ = r.links.set(links);
                        }
                        r
                    } else {
                        let text = looks_like_text(&path);
                        Resource::new(rel, stamp, text)
                    })
                })
                .collect()
        }
    };
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// Reads a SKILL.md's first bytes: through the frontmatter's end when there is one, at most
/// `HEAD_CAP`. Returns the bytes, the file's stamp (taken before the read) and whether the bytes
/// are the whole file. Only a regular file is read, and opening never blocks.
pub fn read_head(path: &Path) -> std::io::Result<(Vec<u8>, Stamp, bool)> {
    let (mut file, meta) = crate::core::files::fsx::open_regular(path)?;
    let stamp = Stamp::of(&meta);
    let len = stamp.len;
    let mut buf = Vec::with_capacity((len as usize).min(HEAD_BYTES));
    let mut want = HEAD_BYTES;
    loop {
        let got = (&mut file)
            .take((want - buf.len()) as u64)
            .read_to_end(&mut buf)?;
        let complete = buf.len() as u64 >= len || got == 0;
        // A read may stop inside a line (`----x` cut after `---`): judge only whole lines.
        let whole = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete || frontmatter::frontmatter_end(&buf[..whole]).is_some() || want >= HEAD_CAP {
            return Ok((buf, stamp, complete));
        }
        want = (want * 4).min(HEAD_CAP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::{Agent, Scope};

    fn write(p: &Path, s: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    #[test]
    fn path_order_is_the_order_of_separator_first_bytes_and_of_paths() {
        use proptest::prelude::*;
        let old = |a: &Path, b: &Path| {
            let key = |c: &u8| if *c == b'/' { 0 } else { *c };
            let (a, b) = (
                a.as_os_str().as_encoded_bytes(),
                b.as_os_str().as_encoded_bytes(),
            );
            a.iter().map(key).cmp(b.iter().map(key))
        };
        let path = "(/?[ab./ -]{0,6}){0,4}";
        proptest!(ProptestConfig::with_cases(20_000), |(a in path, b in path)| {
            let (a, b) = (Path::new(&a), Path::new(&b));
            prop_assert_eq!(path_order(a, b), old(a, b));
            // On paths a walk makes (no `.` or `..` component below the root, no repeated or
            // trailing separator), the order of `Path` itself.
            let clean = |p: &Path| {
                crate::core::files::paths::absolute(p).as_os_str() == p.as_os_str()
                    && !p.components().any(|c| c == std::path::Component::ParentDir)
            };
            if a.is_absolute() && b.is_absolute() && clean(a) && clean(b) {
                prop_assert_eq!(path_order(a, b), a.cmp(b));
            }
        });
        let long = "/a/".repeat(40);
        assert_eq!(
            path_order(
                Path::new(&format!("{long}x")),
                Path::new(&format!("{long}-"))
            ),
            Ordering::Greater
        );
        assert_eq!(
            path_order(
                Path::new(&format!("{long}/b")),
                Path::new(&format!("{long}-b"))
            ),
            Ordering::Less
        );
    }

    #[test]
    fn finds_skills_at_depth_skips_dot_dirs_and_reports_cycles() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        write(&r.join("a/SKILL.md"), "---\nname: a\ndescription: d\n---\n");
        write(
            &r.join("x/y/b/skill.md"),
            "---\nname: b\ndescription: d\n---\n",
        );
        write(
            &r.join(".github/f/SKILL.md"),
            "---\nname: f\ndescription: d\n---\n",
        );
        write(
            &r.join(".git/c/SKILL.md"),
            "---\nname: c\ndescription: d\n---\n",
        );
        write(&r.join("node_modules/d/SKILL.md"), "---\nname: d\n---\n");
        // An install or a removal under way (or cut short by a kill) is skillscope's own.
        for own in [".skillscope-add-x1/g", ".skillscope-gone-g-x2"] {
            write(
                &r.join(own).join("SKILL.md"),
                "---\nname: g\ndescription: d\n---\n",
            );
        }
        write(&r.join("e/Skill.md"), "---\nname: e\ndescription: d\n---\n");
        crate::core::files::fsx::test_link(r, r.join("x/loop")).unwrap();
        let (skills, problems) = scan(
            &[Root::new(r, Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let names: Vec<_> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["f", "a", "e", "b"]);
        assert!(
            skills[2]
                .parse_diagnostics
                .iter()
                .any(|d| d.rule == "skill-file-name")
        );
        assert!(
            problems.iter().any(|d| d.rule == "symlink-cycle"),
            "{problems:?}"
        );
    }

    /// Runs `f` on a thread; fails if it takes longer than a minute (a hang guard, not a timing).
    fn guarded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_mins(1))
            .expect("the walk did not finish: it went where it must not")
    }

    #[test]
    fn links_to_system_folders_and_above_the_root_are_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("lib");
        write(&r.join("a/SKILL.md"), "---\nname: a\ndescription: d\n---\n");
        crate::core::files::fsx::test_link("/", r.join("slash")).unwrap();
        crate::core::files::fsx::test_link("/proc", r.join("a/proc")).unwrap();
        crate::core::files::fsx::test_link("/dev/null", r.join("a/null")).unwrap();
        crate::core::files::fsx::test_link(t.path(), r.join("parent")).unwrap();
        crate::core::files::fsx::test_link(&r, r.join("self")).unwrap();
        let root = Root::new(&r, Agent::Path, Scope::Path);
        let (skills, problems) = guarded(move || scan(&[root], &ScanOptions::default()));
        assert_eq!(skills.len(), 1);
        let skipped: Vec<_> = problems
            .iter()
            .filter(|d| d.rule == "walk-skipped")
            .map(|d| d.path.clone().unwrap())
            .collect();
        for link in ["slash", "a/proc", "a/null", "parent"] {
            assert!(skipped.contains(&r.join(link)), "{link}: {problems:?}");
        }
        assert!(problems.iter().all(|d| d.severity == Severity::Warning));
        assert!(
            problems.iter().any(|d| d.rule == "symlink-cycle"),
            "a link to the root itself is a cycle: {problems:?}"
        );
    }

    #[test]
    fn a_root_inside_a_system_folder_is_not_walked() {
        let root = Root::new("/proc/self", Agent::Path, Scope::Path);
        let (skills, problems) = guarded(move || scan(&[root], &ScanOptions::default()));
        assert!(skills.is_empty());
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].rule, "walk-skipped");
    }

    #[test]
    fn a_walk_stops_at_the_entry_cap_and_says_how_to_raise_it() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..40 {
            write(
                &t.path().join(format!("s{i:02}/SKILL.md")),
                "---\nname: s\ndescription: d\n---\n",
            );
        }
        let root = Root::new(t.path(), Agent::Path, Scope::Path);
        let opts = |max_entries| ScanOptions {
            max_entries,
            ..ScanOptions::default()
        };
        let (skills, problems) = scan(std::slice::from_ref(&root), &opts(10));
        assert!(skills.len() < 40, "{}", skills.len());
        let cap: Vec<_> = problems.iter().filter(|d| d.rule == "walk-cap").collect();
        assert_eq!(cap.len(), 1, "{problems:?}");
        assert!(cap[0].message.contains(&t.path().display().to_string()));
        assert!(
            cap[0]
                .message
                .contains("--max-entries N or SKILLSCOPE_MAX_ENTRIES=N")
        );
        let (skills, problems) = scan(&[root], &opts(81));
        assert_eq!(skills.len(), 40);
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn a_link_to_slash_beside_a_skill_past_the_depth_limit_is_not_followed() {
        // The walker's depth limit leaves the skill's deep folder to the resource look, which
        // must refuse the same links the walk refuses.
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("lib");
        write(&r.join("s/SKILL.md"), "---\nname: s\ndescription: d\n---\n");
        write(&r.join("s/a/b/ok.md"), "ok\n");
        crate::core::files::fsx::test_link("/", r.join("s/a/b/slash")).unwrap();
        crate::core::files::fsx::test_link(&r, r.join("s/a/b/up")).unwrap();
        let root = Root::new(&r, Agent::Path, Scope::Path);
        let opts = ScanOptions {
            max_depth: 1,
            ..ScanOptions::default()
        };
        let (skills, _) = guarded(move || scan(&[root], &opts));
        let rels: Vec<&str> = skills[0].resources.iter().map(|x| x.rel.as_str()).collect();
        assert_eq!(rels, vec!["a/b/ok.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_skill_file_is_listed_with_its_error_and_never_opened() {
        let t = tempfile::tempdir().unwrap();
        write(
            &t.path().join("ok/SKILL.md"),
            "---\nname: ok\ndescription: d\n---\n",
        );
        std::fs::create_dir_all(t.path().join("pipe")).unwrap();
        nix::unistd::mkfifo(
            &t.path().join("pipe/SKILL.md"),
            nix::sys::stat::Mode::S_IRWXU,
        )
        .unwrap();
        let root = Root::new(t.path(), Agent::Path, Scope::Path);
        let (skills, _) = guarded(move || scan(&[root], &ScanOptions::default()));
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, vec!["ok", "pipe"]);
        let rules: Vec<_> = skills[1].parse_diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, vec![RuleId::SkillFileNotRegular]);
    }

    #[test]
    fn unreadable_and_huge_files_still_appear() {
        let t = tempfile::tempdir().unwrap();
        let big = t.path().join("big/SKILL.md");
        let mut s = String::from("---\nname: big\n");
        s.push_str(&"x: y\n".repeat(300_000));
        write(&big, &s);
        let (skills, _) = scan(
            &[Root::new(t.path(), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        assert_eq!(skills.len(), 1);
        assert_eq!(skills[0].name, "big");
        let rules: Vec<_> = skills[0].parse_diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, vec!["frontmatter-unterminated"]);
        assert!(skills[0].parse_diagnostics[0].message.contains("first MiB"));
    }
}
