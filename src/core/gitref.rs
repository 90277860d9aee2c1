//! A folder as it was at a git commit, copied out of the object store (`git ls-tree` and
//! `git cat-file`) into a temporary folder: the work tree and the index are never touched.

use std::io::{BufRead, BufReader, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("cannot run git: {0}")]
    Spawn(std::io::Error),
    #[error("git {args} failed: {stderr}")]
    Failed { args: String, stderr: String },
    #[error("{0} is not inside a git work tree")]
    NotInRepo(PathBuf),
    #[error("`{0}` is not a commit-ish git reference")]
    BadRef(String),
    #[error("git returned something unexpected: {0}")]
    Protocol(String),
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What a copy left out, so the caller can say so.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Materialized {
    pub files: usize,
    /// Symlinks whose target leaves the copied folder (or is absolute): not created.
    pub skipped_links: Vec<String>,
    /// Submodules: their content is another repository's.
    pub skipped_submodules: Vec<String>,
    /// The folder did not exist at that commit.
    pub missing: bool,
}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir);
    // Read-only: no index refresh, no lock files, no pager, no prompts.
    c.env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE");
    c
}

fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let out = git(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(GitError::Spawn)?;
    if !out.status.success() {
        return Err(GitError::Failed {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
}

/// The repository's top folder and `path`'s place in it (`/`-separated, empty for the top).
pub fn locate(path: &Path) -> Result<(PathBuf, String), GitError> {
    let abs = crate::core::paths::absolute(path);
    // The folder may be gone from the work tree (deleted since the commit): ask its nearest
    // existing ancestor and keep the rest of the path.
    let mut existing = abs.as_path();
    let mut tail: Vec<String> = Vec::new();
    while !existing.is_dir() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            return Err(GitError::NotInRepo(path.to_path_buf()));
        };
        tail.push(name.to_string_lossy().into_owned());
        existing = parent;
    }
    let out = run(existing, &["rev-parse", "--show-toplevel", "--show-prefix"])
        .map_err(|_| GitError::NotInRepo(path.to_path_buf()))?;
    let text = String::from_utf8_lossy(&out);
    let mut lines = text.lines();
    let top = PathBuf::from(lines.next().unwrap_or_default());
    let mut prefix = lines
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_string();
    for t in tail.iter().rev() {
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(t);
    }
    Ok((top, prefix))
}

/// Resolves `reference` to a commit id, refusing anything that would read as an option.
pub fn resolve(top: &Path, reference: &str) -> Result<String, GitError> {
    if reference.is_empty() || reference.starts_with('-') || reference.contains('\0') {
        return Err(GitError::BadRef(reference.to_string()));
    }
    let spec = format!("{reference}^{{commit}}");
    let out = run(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
    )
    .map_err(|_| GitError::BadRef(reference.to_string()))?;
    let id = String::from_utf8_lossy(&out).trim().to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(GitError::BadRef(reference.to_string()));
    }
    Ok(id)
}

struct Entry {
    mode: String,
    kind: String,
    id: String,
    path: String,
}

fn ls_tree(top: &Path, commit: &str, prefix: &str) -> Result<Vec<Entry>, GitError> {
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit];
    if !prefix.is_empty() {
        args.push("--");
        args.push(prefix);
    }
    let out = run(top, &args)?;
    let mut entries = Vec::new();
    for rec in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let rec = String::from_utf8_lossy(rec);
        let (meta, path) = rec
            .split_once('\t')
            .ok_or_else(|| GitError::Protocol(rec.to_string()))?;
        let mut m = meta.split(' ');
        let (Some(mode), Some(kind), Some(id)) = (m.next(), m.next(), m.next()) else {
            return Err(GitError::Protocol(rec.to_string()));
        };
        // `-- prefix` also matches `prefix-other`; keep the folder itself only.
        let inside = prefix.is_empty()
            || path == prefix
            || path
                .strip_prefix(prefix)
                .is_some_and(|r| r.starts_with('/'));
        if inside {
            entries.push(Entry {
                mode: mode.to_string(),
                kind: kind.to_string(),
                id: id.to_string(),
                path: path.to_string(),
            });
        }
    }
    Ok(entries)
}

/// `rel` as a path under `dest`, refusing anything that could leave it.
fn safe_join(dest: &Path, rel: &str) -> Option<PathBuf> {
    let p = Path::new(rel);
    if p.components().all(|c| matches!(c, Component::Normal(_))) {
        Some(dest.join(p))
    } else {
        None
    }
}

/// Whether a symlink at `rel` (relative to the copied folder) pointing at `target` stays inside it.
fn link_stays_inside(rel: &str, target: &str) -> bool {
    if Path::new(target).is_absolute() {
        return false;
    }
    let mut depth: i64 = Path::new(rel).components().count() as i64 - 1;
    for c in Path::new(target).components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::ParentDir => depth -= 1,
            Component::CurDir => {}
            _ => return false,
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// Copies the folder `prefix` of `commit` into `dest` (which receives the folder's content).
pub fn materialize(
    top: &Path,
    commit: &str,
    prefix: &str,
    dest: &Path,
) -> Result<Materialized, GitError> {
    let entries = ls_tree(top, commit, prefix)?;
    let mut report = Materialized {
        missing: entries.is_empty(),
        ..Materialized::default()
    };
    let strip = |path: &str| -> String {
        if prefix.is_empty() {
            path.to_string()
        } else {
            path.strip_prefix(prefix)
                .unwrap_or(path)
                .trim_start_matches('/')
                .to_string()
        }
    };
    let mut blobs: Vec<(&Entry, String)> = Vec::new();
    for e in &entries {
        let rel = strip(&e.path);
        match (e.kind.as_str(), e.mode.as_str()) {
            ("commit", _) => report.skipped_submodules.push(rel),
            ("blob", _) => blobs.push((e, rel)),
            _ => {}
        }
    }
    if blobs.is_empty() {
        std::fs::create_dir_all(dest).map_err(|source| GitError::Write {
            path: dest.to_path_buf(),
            source,
        })?;
        return Ok(report);
    }
    let mut child = git(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(GitError::Spawn)?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(GitError::Protocol("no pipes to git cat-file".into()));
    };
    let ids: Vec<String> = blobs.iter().map(|(e, _)| e.id.clone()).collect();
    // Written from another thread: git answers while it reads, and both pipes are finite.
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        for id in ids {
            writeln!(stdin, "{id}")?;
        }
        Ok(())
    });
    let mut reader = BufReader::new(stdout);
    let mut result = Ok(());
    for (e, rel) in &blobs {
        match read_blob(&mut reader, &e.id) {
            Ok(bytes) => {
                if let Err(err) = place(dest, rel, &e.mode, &bytes, &mut report) {
                    result = Err(err);
                    break;
                }
            }
            Err(err) => {
                result = Err(err);
                break;
            }
        }
    }
    drop(reader);
    let _ = writer.join();
    let status = child.wait().map_err(GitError::Spawn)?;
    result?;
    if !status.success() {
        return Err(GitError::Failed {
            args: "cat-file --batch".into(),
            stderr: format!("exit status {status}"),
        });
    }
    Ok(report)
}

fn read_blob(reader: &mut impl BufRead, id: &str) -> Result<Vec<u8>, GitError> {
    let mut header = String::new();
    reader
        .read_line(&mut header)
        .map_err(|e| GitError::Protocol(e.to_string()))?;
    let mut parts = header.trim_end().split(' ');
    let (Some(got), Some(_kind), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(GitError::Protocol(header));
    };
    if got != id {
        return Err(GitError::Protocol(header));
    }
    let size: usize = size
        .parse()
        .map_err(|_| GitError::Protocol(header.clone()))?;
    let mut bytes = vec![0; size];
    reader
        .read_exact(&mut bytes)
        .map_err(|e| GitError::Protocol(e.to_string()))?;
    let mut nl = [0u8; 1];
    reader
        .read_exact(&mut nl)
        .map_err(|e| GitError::Protocol(e.to_string()))?;
    Ok(bytes)
}

fn place(
    dest: &Path,
    rel: &str,
    mode: &str,
    bytes: &[u8],
    report: &mut Materialized,
) -> Result<(), GitError> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GitError::Write { path, source }
    };
    // A root that was a file, not a folder, holds no skills.
    if rel.is_empty() {
        return Ok(());
    }
    let Some(path) = safe_join(dest, rel) else {
        return Err(GitError::Protocol(format!("unsafe path in tree: {rel}")));
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(write_err(parent))?;
    }
    if mode == "120000" {
        let target = String::from_utf8_lossy(bytes).into_owned();
        if link_stays_inside(rel, &target) {
            std::os::unix::fs::symlink(&target, &path).map_err(write_err(&path))?;
            report.files += 1;
        } else {
            report.skipped_links.push(rel.to_string());
        }
        return Ok(());
    }
    let mut f = std::fs::File::create(&path).map_err(write_err(&path))?;
    f.write_all(bytes).map_err(write_err(&path))?;
    // A modification time of 0 reads as "unknown": the token cache then never remembers the
    // copy's temporary paths (it still finds every count by the content's hash).
    f.set_modified(std::time::UNIX_EPOCH)
        .map_err(write_err(&path))?;
    drop(f);
    if mode == "100755" {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(write_err(&path))?;
    }
    report.files += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git_ok(dir: &Path, args: &[&str]) -> bool {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    #[test]
    fn a_commit_is_copied_with_modes_and_without_the_work_trees_changes() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("repo");
        std::fs::create_dir_all(repo.join("lib/a/scripts")).unwrap();
        if !git_ok(&repo, &["init", "-q"]) {
            eprintln!("skipping: git is not installed");
            return;
        }
        std::fs::write(repo.join("lib/a/SKILL.md"), "old\n").unwrap();
        std::fs::write(repo.join("lib/a/scripts/run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::write(repo.join("lib-other.md"), "not in lib\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            repo.join("lib/a/scripts/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        assert!(git_ok(&repo, &["add", "-A"]));
        assert!(git_ok(&repo, &["commit", "-qm", "one"]));
        std::fs::write(repo.join("lib/a/SKILL.md"), "new\n").unwrap();
        let (top, prefix) = locate(&repo.join("lib")).unwrap();
        assert_eq!(prefix, "lib");
        let id = resolve(&top, "HEAD").unwrap();
        let dest = t.path().join("copy");
        let m = materialize(&top, &id, &prefix, &dest).unwrap();
        assert_eq!(m.files, 2);
        assert!(!m.missing);
        assert_eq!(
            std::fs::read_to_string(dest.join("a/SKILL.md")).unwrap(),
            "old\n"
        );
        let meta = std::fs::metadata(dest.join("a/scripts/run.sh")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o111, 0o111);
        assert_eq!(meta.modified().unwrap(), std::time::UNIX_EPOCH);
        assert!(
            !dest.join("lib-other.md").exists(),
            "a sibling with the same prefix"
        );
        assert!(matches!(resolve(&top, "-x"), Err(GitError::BadRef(_))));
        assert!(matches!(resolve(&top, "nope"), Err(GitError::BadRef(_))));
        // A folder gone from the work tree is still found at the commit.
        std::fs::remove_dir_all(repo.join("lib")).unwrap();
        let (_, prefix) = locate(&repo.join("lib")).unwrap();
        assert_eq!(prefix, "lib");
    }

    #[test]
    fn links_must_stay_inside() {
        assert!(link_stays_inside("a/b", "c"));
        assert!(link_stays_inside("a/b", "../c"));
        assert!(!link_stays_inside("a/b", "../../c"));
        assert!(!link_stays_inside("a", "/etc/passwd"));
        assert!(!link_stays_inside("a", "../x"));
        assert!(safe_join(Path::new("/t"), "a/../b").is_none());
        assert!(safe_join(Path::new("/t"), "/abs").is_none());
        assert_eq!(
            safe_join(Path::new("/t"), "a/b"),
            Some(PathBuf::from("/t/a/b"))
        );
    }
}
