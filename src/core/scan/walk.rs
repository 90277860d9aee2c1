//! The walk of one root: the entry filter and its limits, and the walk's small helpers.

use super::options::{MAX_ENTRIES_ENV, ScanOptions, Walked, is_skill_file, refused, skipped_dir};
use crate::core::files::fsx::Stamp;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::index::WalkRecord;
use crate::core::source::Root;
use std::cmp::Ordering;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};

/// The walker's filter: no skipped folder names, and no link (or plain child of the root) that
/// leads into a system folder or above the root (a warning each, into `skipped`). It sees every
/// entry of every folder read, so it also keeps each one with a record name (`seen::RECORD_NAMES`)
/// in `marks`, with whether it is a plain regular file. It owns what it uses: it lives as long as
/// the walker.
pub(super) fn entry_filter(
    filter_root: PathBuf,
    filter_skipped: Arc<Mutex<Vec<Diagnostic>>>,
    marks: super::seen::Marks,
) -> impl Fn(&ignore::DirEntry) -> bool + Send + Sync + 'static {
    move |e: &ignore::DirEntry| {
        if e.depth() == 0 {
            return true;
        }
        if super::seen::is_record_name(e.file_name()) {
            let plain = !e.path_is_symlink() && e.file_type().is_some_and(|t| t.is_file());
            lock(&marks).push((e.path().to_path_buf(), plain));
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
pub(super) fn walk_root(root: &Root, root_real: &Path, opts: &ScanOptions) -> Walked {
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
    let marks: super::seen::Marks = Arc::default();
    let walker = ignore::WalkBuilder::new(&root.path)
        .standard_filters(false)
        .follow_links(true)
        .max_depth(Some(deepest))
        .filter_entry(entry_filter(
            filter_root,
            filter_skipped,
            Arc::clone(&marks),
        ))
        .build_parallel();
    let visited = AtomicUsize::new(0);
    let capped = AtomicBool::new(false);
    walker.run(|| {
        let (found, problems, dirs, files, frontier, linked, marks) = (
            &found, &problems, &dirs, &files, &frontier, &linked, &*marks,
        );
        let (visited, capped) = (&visited, &capped);
        Box::new(move |entry| {
            if visited.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= opts.max_entries {
                if !capped.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    push(problems, capped_at(root, opts));
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
                Err(err) => {
                    super::seen::mark_unstatable(marks, &err);
                    push(problems, walk_problem(&err));
                }
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
    let marks = super::seen::sorted(&marks);
    Walked {
        record: WalkRecord {
            path: root.path.clone(),
            max_depth: opts.max_depth,
            dirs,
            found,
            problems,
            links,
            marks,
            stored: None,
            stored_dirs: None,
        },
        files: Some(into(files)),
        frontier: into(frontier),
        linked,
        root_real: root_real.to_path_buf(),
        capped: capped.into_inner(),
    }
}

/// The warning of a walk stopped at the entry cap: where, and how to raise the cap.
fn capped_at(root: &Root, opts: &ScanOptions) -> Diagnostic {
    Diagnostic::new(
        RuleId::WalkCap,
        Severity::Warning,
        format!(
            "stopped walking {} after {} files and folders: skills below may be missing; raise the cap with --max-entries N or {MAX_ENTRIES_ENV}=N",
            root.path.display(),
            opts.max_entries
        ),
    )
    .in_file(&root.path)
}

/// Path order (component by component, as `Path`'s `Ord`) for the paths a walk makes, compared
/// as bytes: a separator sorts below every other byte, which is what comparing components does.
pub(super) fn path_order(a: &Path, b: &Path) -> Ordering {
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

pub(super) fn into<T>(m: Mutex<T>) -> T {
    m.into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn push(m: &Mutex<Vec<Diagnostic>>, d: Diagnostic) {
    lock(m).push(d);
}

pub(super) fn walk_problem(err: &ignore::Error) -> Diagnostic {
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
