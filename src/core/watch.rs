//! Watches the skill roots and reports, debounced, that something under them changed.

use notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A batch of changes after a quiet period: the paths that changed (files or folders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Paths(Vec<PathBuf>),
    /// The watcher reported an error; what changed is unknown, so everything may have.
    Lost(String),
}

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot start the file watcher: {0}")]
    Start(notify::Error),
    #[error("cannot watch {path}: {source}")]
    Watch {
        path: PathBuf,
        source: notify::Error,
    },
}

/// Keeps watching while alive; dropping it stops the watcher thread.
pub struct Watch {
    _debouncer: Debouncer<RecommendedWatcher>,
    /// Roots that could not be watched (missing, permission, watch limit), with the reason.
    pub problems: Vec<WatchError>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("problems", &self.problems)
            .finish()
    }
}

/// Watches every root recursively and calls `on_change` after each quiet period of `debounce`.
/// Changes inside dot-folders (`.git`, editors' swap folders) and `node_modules` are ignored, as
/// the scan ignores them. A root that cannot be watched is reported in [`Watch::problems`];
/// the others are still watched.
pub fn watch(
    roots: &[PathBuf],
    debounce: Duration,
    mut on_change: impl FnMut(Change) + Send + 'static,
) -> Result<Watch, WatchError> {
    let watched: Vec<PathBuf> = roots.to_vec();
    let handler = move |res: DebounceEventResult| match res {
        Ok(events) => {
            let mut paths: Vec<PathBuf> = events
                .into_iter()
                .map(|e| e.path)
                .filter(|p| !ignored(p, &watched))
                .collect();
            paths.sort();
            paths.dedup();
            if !paths.is_empty() {
                on_change(Change::Paths(paths));
            }
        }
        Err(e) => on_change(Change::Lost(e.to_string())),
    };
    let mut debouncer = new_debouncer(debounce, handler).map_err(WatchError::Start)?;
    let mut problems = Vec::new();
    for root in roots {
        // A SKILL.md given directly is watched through its folder.
        let target = if root.is_file() {
            root.parent()
                .map_or_else(|| root.clone(), Path::to_path_buf)
        } else {
            root.clone()
        };
        if let Err(source) = debouncer.watcher().watch(&target, RecursiveMode::Recursive) {
            problems.push(WatchError::Watch {
                path: target,
                source,
            });
        }
    }
    Ok(Watch {
        _debouncer: debouncer,
        problems,
    })
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
