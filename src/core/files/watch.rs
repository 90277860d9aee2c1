//! Watches the skill roots and reports, debounced, that something under them changed.

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A batch of changes after a quiet period: the paths that changed (files or folders).
#[derive(Debug)]
pub enum Change {
    /// Files or folders that changed.
    Paths(Vec<PathBuf>),
    /// The watcher reported an error; what changed is unknown, so everything may have.
    Lost(notify::Error),
}

/// Why the watcher could not watch.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The watcher could not be made.
    #[error("cannot start the file watcher: {0}")]
    Start(notify::Error),
    /// A folder could not be watched.
    #[error("cannot watch {path}: {source}")]
    Watch {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: notify::Error,
    },
}

/// Keeps watching while alive; dropping it stops the watcher and its debounce thread.
pub struct Watch {
    _watcher: RecommendedWatcher,
    /// Roots that could not be watched (missing, permission, watch limit), with the reason.
    pub problems: Vec<WatchError>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("problems", &self.problems)
            .finish_non_exhaustive()
    }
}

/// What the watcher reports: paths that changed, or its error.
type Raw = Result<Vec<PathBuf>, notify::Error>;

/// Watches every root recursively and calls `on_change` once things have been quiet for
/// `debounce` (or, under a steady stream of changes, every four `debounce`s). Reads are not
/// changes: the access events inotify reports for every open — the scan's own included — are
/// dropped here, which is why this does not use a generic debouncer that passes them on. Changes
/// inside dot-folders (`.git`, editors' swap folders) and `node_modules` are ignored, as the scan
/// ignores them. A root that cannot be watched is reported in [`Watch::problems`]; the others
/// are still watched.
pub fn watch(
    roots: &[PathBuf],
    debounce: Duration,
    on_change: impl FnMut(Change) + Send + 'static,
) -> Result<Watch, WatchError> {
    let watched: Vec<PathBuf> = roots.to_vec();
    let mut watcher = start(move |p| !ignored(p, &watched), debounce, on_change)?;
    let mut problems = Vec::new();
    for root in roots {
        // A SKILL.md given directly is watched through its folder.
        let target = if root.is_file() {
            root.parent()
                .map_or_else(|| root.clone(), Path::to_path_buf)
        } else {
            root.clone()
        };
        if let Err(source) = watcher.watch(&target, RecursiveMode::Recursive) {
            problems.push(WatchError::Watch {
                path: target,
                source,
            });
        }
    }
    Ok(Watch {
        _watcher: watcher,
        problems,
    })
}

/// Watches the files `files` (settings files, which editors and skillscope replace by a rename):
/// each existing parent folder is watched on its own, and only events on one of `files` are
/// reported. A file whose folder does not exist yet is not watched.
pub fn watch_files(
    files: &[PathBuf],
    debounce: Duration,
    on_change: impl FnMut(Change) + Send + 'static,
) -> Result<Watch, WatchError> {
    let wanted: Vec<PathBuf> = files.to_vec();
    let mut watcher = start(move |p| wanted.iter().any(|w| w == p), debounce, on_change)?;
    let mut folders: Vec<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    folders.sort();
    folders.dedup();
    let mut problems = Vec::new();
    for folder in folders.into_iter().filter(|f| f.is_dir()) {
        if let Err(source) = watcher.watch(folder, RecursiveMode::NonRecursive) {
            problems.push(WatchError::Watch {
                path: folder.to_path_buf(),
                source,
            });
        }
    }
    Ok(Watch {
        _watcher: watcher,
        problems,
    })
}

/// A watcher (nothing watched yet) whose events on the paths `keep` accepts, reads left out, reach
/// `on_change` in debounced batches.
fn start(
    keep: impl Fn(&Path) -> bool + Send + 'static,
    debounce: Duration,
    on_change: impl FnMut(Change) + Send + 'static,
) -> Result<notify::RecommendedWatcher, WatchError> {
    let (tx, rx) = mpsc::channel::<Raw>();
    let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        let raw = match res {
            Ok(ev) if matches!(ev.kind, EventKind::Access(_)) => return,
            Ok(ev) => {
                let paths: Vec<PathBuf> = ev.paths.into_iter().filter(|p| keep(p)).collect();
                if paths.is_empty() {
                    return;
                }
                Ok(paths)
            }
            Err(e) => Err(e),
        };
        let _ = tx.send(raw);
    })
    .map_err(WatchError::Start)?;
    std::thread::Builder::new()
        .name("watch-debounce".into())
        .spawn(move || debounce_loop(&rx, debounce, on_change))
        .map_err(|e| WatchError::Start(notify::Error::io(e)))?;
    Ok(watcher)
}

/// Gathers raw events into batches separated by quiet periods. Ends when the watcher is gone.
fn debounce_loop(rx: &Receiver<Raw>, quiet: Duration, mut on_change: impl FnMut(Change)) {
    while let Ok(first) = rx.recv() {
        let started = Instant::now();
        let mut paths: Vec<PathBuf> = Vec::new();
        let mut lost: Option<notify::Error> = None;
        let mut absorb = |raw: Raw| match raw {
            Ok(p) => paths.extend(p),
            Err(e) => lost = Some(e),
        };
        absorb(first);
        let mut closed = false;
        while started.elapsed() < quiet * 4 {
            match rx.recv_timeout(quiet) {
                Ok(raw) => absorb(raw),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    closed = true;
                    break;
                }
            }
        }
        if let Some(e) = lost {
            on_change(Change::Lost(e));
        } else {
            paths.sort();
            paths.dedup();
            on_change(Change::Paths(paths));
        }
        if closed {
            return;
        }
    }
}

/// Paths below a dot-folder or `node_modules` inside a root.
fn ignored(path: &Path, roots: &[PathBuf]) -> bool {
    let rel = roots
        .iter()
        .find_map(|r| path.strip_prefix(r).ok())
        .unwrap_or(path);
    rel.components().any(|c| {
        let s = c.as_os_str().to_string_lossy();
        (s.starts_with('.') && s != "." && s != "..") || s == "node_modules"
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn reports_an_edit_once_after_the_quiet_period_and_ignores_dot_folders() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("pdf")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let (tx, rx) = mpsc::channel();
        let w = watch(
            std::slice::from_ref(&root),
            Duration::from_millis(100),
            move |c| {
                let _ = tx.send(c);
            },
        )
        .unwrap();
        assert!(w.problems.is_empty(), "{:?}", w.problems);
        std::fs::write(root.join(".git/index"), "x").unwrap();
        std::fs::write(root.join("pdf/SKILL.md"), "---\nname: pdf\n---\n").unwrap();
        // Events may come in more than one batch; gather them until the edit shows up.
        let mut seen: Vec<PathBuf> = Vec::new();
        while !seen.iter().any(|p| p.ends_with("pdf/SKILL.md")) {
            match rx.recv_timeout(Duration::from_secs(5)) {
                Ok(Change::Paths(p)) => seen.extend(p),
                other => panic!("expected paths, got {other:?} after {seen:?}"),
            }
        }
        assert!(
            seen.iter().all(|p| !p.starts_with(root.join(".git"))),
            "{seen:?}"
        );
    }

    #[test]
    fn reading_files_is_not_a_change() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("pdf")).unwrap();
        std::fs::write(root.join("pdf/SKILL.md"), "---\nname: pdf\n---\n").unwrap();
        let (tx, rx) = mpsc::channel();
        let _w = watch(
            std::slice::from_ref(&root),
            Duration::from_millis(50),
            move |c| {
                let _ = tx.send(c);
            },
        )
        .unwrap();
        for _ in 0..5 {
            std::fs::read(root.join("pdf/SKILL.md")).unwrap();
            std::fs::read_dir(root.join("pdf")).unwrap().for_each(drop);
        }
        let quiet = rx.recv_timeout(Duration::from_millis(400)).ok();
        assert!(quiet.is_none(), "{quiet:?}");
        std::fs::remove_file(root.join("pdf/SKILL.md")).unwrap();
        let got = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(
            matches!(&got, Change::Paths(p) if p.iter().any(|p| p.ends_with("pdf/SKILL.md"))),
            "{got:?}"
        );
    }

    #[test]
    fn a_missing_root_is_a_problem_not_a_failure() {
        let t = tempfile::tempdir().unwrap();
        let w = watch(
            &[t.path().join("nope"), t.path().to_path_buf()],
            Duration::from_millis(50),
            |_| {},
        )
        .unwrap();
        assert_eq!(w.problems.len(), 1);
        assert!(w.problems[0].to_string().contains("nope"));
    }
}
