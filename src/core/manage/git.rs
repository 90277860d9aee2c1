//! git run so that nothing from the repository runs: a bare shallow clone into a temporary
//! folder with hooks, submodules, fsmonitor and command transports off; the tree is then copied
//! out of the object store (`gitref::materialize`), never checked out.

use crate::core::files::gitref::GitError;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Settings every git call gets on its command line, over the user's and the system's: no hook
/// runs (a clone's template could bring some), no fsmonitor daemon starts, no submodule is
/// followed, and no transport that runs a command is used. `protocol.file.allow` is left as git
/// has it: a `file://` URL the user names is allowed, one a submodule names is not.
const SAFE: &[&str] = &[
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
    "protocol.ext.allow=never",
    "protocol.fd.allow=never",
    // A stalled transfer ends instead of hanging the command.
    "http.lowSpeedLimit=1000",
    "http.lowSpeedTime=60",
];

/// A git command with the safe settings and no prompt on the terminal.
fn git() -> Command {
    let mut c = Command::new("git");
    for s in SAFE {
        c.arg("-c").arg(s);
    }
    c.env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        // Settings and repositories named by the environment are not this clone's.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env_remove("GIT_ALTERNATE_OBJECT_DIRECTORIES")
        .env_remove("GIT_TEMPLATE_DIR")
        .stdin(Stdio::null());
    c
}

/// How long git may go without a word of progress before it is stopped:
/// `$SKILLSCOPE_GIT_STALL_SECS`, else a minute. It covers every transport (`git://`, `ssh://`,
/// `file://`, http), where git's own low-speed limit covers http only.
fn stall_limit() -> Duration {
    std::env::var("SKILLSCOPE_GIT_STALL_SECS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(Duration::from_mins(1), Duration::from_secs)
}

/// Most bytes of git's messages kept for an error.
const STDERR_TAIL: usize = 64 << 10;

/// Runs git, stopped when it says nothing (its progress included) for [`stall_limit`]: a
/// silent server cannot make a command wait forever.
fn run(mut c: Command, what: &str) -> Result<Vec<u8>, GitError> {
    let mut child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(GitError::Spawn)?;
    let heard = Arc::new(Mutex::new(Instant::now()));
    let stdout = child.stdout.take().map(|mut out| {
        let heard = Arc::clone(&heard);
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                all.extend_from_slice(&buf[..n]);
                *heard.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
            }
            all
        })
    });
    let stderr = child.stderr.take().map(|mut err| {
        let heard = Arc::clone(&heard);
        std::thread::spawn(move || {
            let mut tail = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                tail.extend_from_slice(&buf[..n]);
                if tail.len() > STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
                *heard.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
            }
            tail
        })
    });
    let limit = stall_limit();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(GitError::Spawn)? {
            break Some(status);
        }
        let quiet = heard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .elapsed();
        if quiet > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = stdout.and_then(|t| t.join().ok()).unwrap_or_default();
    let err = stderr.and_then(|t| t.join().ok()).unwrap_or_default();
    let said = String::from_utf8_lossy(&err);
    // Progress lines end in `\r`: the last message is what is worth showing.
    let last = said
        .split(['\r', '\n'])
        .map(str::trim)
        .rfind(|l| !l.is_empty() && !is_progress(l))
        .unwrap_or("");
    match status {
        None => Err(GitError::Failed {
            args: what.to_string(),
            stderr: format!(
                "no answer for {} s: the server stalled, so git was stopped (SKILLSCOPE_GIT_STALL_SECS sets the limit)",
                limit.as_secs()
            ),
        }),
        Some(s) if !s.success() => Err(GitError::Failed {
            args: what.to_string(),
            stderr: crate::core::words::text::line(last).into_owned(),
        }),
        Some(_) => Ok(out),
    }
}

/// A line of git's progress meter (`Receiving objects:  12% (3/25)`), not a message.
fn is_progress(line: &str) -> bool {
    line.contains("% (") || line.ends_with(", done.")
}

/// Clones `url` (at `reference`, a branch or tag, else the default branch) bare and one commit
/// deep into `dest`; returns the commit.
pub fn clone(url: &str, reference: Option<&str>, dest: &Path) -> Result<String, GitError> {
    let mut c = git();
    c.args([
        "clone",
        "--bare",
        "--depth",
        "1",
        "--single-branch",
        "--no-tags",
        // Progress on stderr, also off a terminal: what tells a slow transfer from a stalled one.
        "--progress",
        // An empty template folder: nothing of the installed templates (hooks) is copied.
        "--template=",
    ]);
    if let Some(r) = reference {
        c.arg("--branch").arg(r);
    }
    if is_local(url) {
        // The other end runs here, on this machine's cores: packing for a pipe with no delta
        // search and no compression costs a third of the CPU (the objects are read once, by the
        // copy out of the store). The command is ours; git quotes the path it appends.
        c.arg(format!("--upload-pack={LOCAL_UPLOAD_PACK}"));
    }
    c.arg("--").arg(url).arg(dest);
    run(c, &format!("clone {url}"))?;
    commit_of(dest)
}

/// The upload-pack a `file://` clone runs: git's own, told to send the objects as they are (no
/// delta search, no compression). Settings given to the cloning git (`-c`) do not reach it, as
/// git leaves them out of a local transport's environment.
const LOCAL_UPLOAD_PACK: &str =
    "git -c pack.window=0 -c pack.compression=0 -c core.compression=0 upload-pack";

/// Whether git serves `url` from this machine (`file://`), running upload-pack here.
fn is_local(url: &str) -> bool {
    url.get(..7)
        .is_some_and(|s| s.eq_ignore_ascii_case("file://"))
}

/// The folder a `file://` URL names when it is one on this machine that can be read in place:
/// `file:///` and an absolute path with nothing for git to decode (no `%`), naming a folder.
/// Anything else is cloned.
pub fn local_repository(url: &str) -> Option<std::path::PathBuf> {
    let path = url.get(7..).filter(|_| is_local(url))?;
    if !path.starts_with('/') || path.contains('%') {
        return None;
    }
    let path = Path::new(path);
    path.is_dir().then(|| path.to_path_buf())
}

/// The commit a clone of the repository at `repo` would fetch, read there without cloning it:
/// `reference` as `clone --branch` reads it (a branch, else a tag), else `HEAD`. `None` when
/// `repo` is not itself a repository (one above it is not looked for), or names no such commit:
/// the caller then clones, and git says why. Nothing of the repository runs: git is
/// [sealed](crate::core::files::gitref::SEALED) (no transport, no lazy fetch, no hook).
pub fn local_commit(repo: &Path, reference: Option<&str>) -> Option<String> {
    let specs: Vec<String> = match reference {
        // Only a plain ref name: git would read `main~1` or `v1^` as another commit than
        // `clone --branch` fetches (it refuses them).
        Some(r)
            if r.is_empty()
                || r.starts_with('-')
                || r.contains("..")
                || r.contains("@{")
                || r.chars()
                    .any(|c| c.is_control() || c.is_whitespace() || "~^:?*[\\".contains(c)) =>
        {
            return None;
        }
        Some(r) => vec![
            format!("refs/heads/{r}^{{commit}}"),
            format!("refs/tags/{r}^{{commit}}"),
        ],
        None => vec!["HEAD^{commit}".to_string()],
    };
    // The folder itself, through any link: git looks no higher for a repository.
    let repo = std::fs::canonicalize(repo).ok()?;
    let ceiling = repo.parent()?;
    for spec in specs {
        let mut c = git();
        for s in crate::core::files::gitref::SEALED {
            c.arg("-c").arg(s);
        }
        c.env("GIT_NO_LAZY_FETCH", "1")
            .env("GIT_CEILING_DIRECTORIES", ceiling)
            .arg("-C")
            .arg(&repo)
            .args([
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                &spec,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let Ok(out) = c.output() else {
            return None;
        };
        let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && id.len() >= 40 && id.chars().all(|c| c.is_ascii_hexdigit()) {
            return Some(id);
        }
    }
    None
}

/// The commit `HEAD` names in the bare repository `repo`.
fn commit_of(repo: &Path) -> Result<String, GitError> {
    let mut c = git();
    c.arg("-C")
        .arg(repo)
        .args(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
    let out = run(c, "rev-parse HEAD")?;
    let id = String::from_utf8_lossy(&out).trim().to_string();
    if id.len() < 40 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(GitError::Protocol(format!("not a commit id: {id}")));
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git_ok(dir: &Path, args: &[&str]) -> bool {
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Stages everything in `dir` and commits it as a throwaway author.
    fn commit_all(dir: &Path, msg: &str) -> bool {
        git_ok(dir, &["add", "-A"])
            && git_ok(
                dir,
                &[
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@e",
                    "commit",
                    "-qm",
                    msg,
                ],
            )
    }

    #[test]
    fn only_file_urls_are_served_here() {
        assert!(is_local("file:///tmp/repo"));
        assert!(is_local("FILE:///tmp/repo"));
        for url in [
            "https://github.com/a/b.git",
            "ssh://git@host/x",
            "git@host:x",
            "file:/",
            "",
        ] {
            assert!(!is_local(url), "{url}");
        }
    }

    /// A `file://` repository is read in place at the commit a clone would fetch: `HEAD`, or a
    /// branch, else a tag, of that name; a folder inside a repository, a ref git would read as
    /// another commit, and a URL git would decode are left to the clone.
    #[test]
    fn a_local_repository_is_read_in_place_at_the_commit_a_clone_fetches() {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join("src");
        std::fs::create_dir_all(src.join("sub")).unwrap();
        std::fs::write(src.join("sub/SKILL.md"), "one\n").unwrap();
        let commit = |msg: &str| commit_all(&src, msg);
        if !(git_ok(&src, &["init", "-q", "-b", "main"]) && commit("one")) {
            eprintln!("git is not usable here: skipped");
            return;
        }
        let rev = |spec: &str| {
            let out = Command::new("git")
                .arg("-C")
                .arg(&src)
                .args(["rev-parse", spec])
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        let first = rev("HEAD");
        assert!(git_ok(&src, &["tag", "v1"]));
        std::fs::write(src.join("sub/SKILL.md"), "two\n").unwrap();
        assert!(commit("two"));
        let second = rev("HEAD");
        assert_ne!(first, second);
        // A branch named like the tag wins, as with `clone --branch`.
        assert!(git_ok(&src, &["branch", "both", &first]));
        assert!(git_ok(&src, &["tag", "both", &second]));
        let url = format!("file://{}", src.display());
        let repo = local_repository(&url).unwrap();
        assert_eq!(local_commit(&repo, None).as_deref(), Some(second.as_str()));
        assert_eq!(
            local_commit(&repo, Some("main")).as_deref(),
            Some(second.as_str())
        );
        assert_eq!(
            local_commit(&repo, Some("v1")).as_deref(),
            Some(first.as_str())
        );
        assert_eq!(
            local_commit(&repo, Some("both")).as_deref(),
            Some(first.as_str())
        );
        for not_plain in ["main~1", "main^", "HEAD@{1}", "v1..main", "-x", "nope"] {
            assert_eq!(local_commit(&repo, Some(not_plain)), None, "{not_plain}");
        }
        assert_eq!(
            local_commit(&src.join("sub"), None),
            None,
            "not a repository itself"
        );
        let bare = t.path().join("bare.git");
        assert!(git_ok(
            t.path(),
            &[
                "clone",
                "-q",
                "--bare",
                src.to_str().unwrap(),
                bare.to_str().unwrap()
            ]
        ));
        assert_eq!(local_commit(&bare, None).as_deref(), Some(second.as_str()));
        for other in [
            format!("file://{}%20x", src.display()),
            format!("file://localhost{}", src.display()),
            format!("https://{}", src.display()),
            format!("file://{}/none", src.display()),
        ] {
            assert_eq!(local_repository(&other), None, "{other}");
        }
    }

    /// A `file://` clone is the commit asked for, its objects sent as they are: a file of one
    /// repeated line (which zlib would shrink a hundredfold) arrives at its full size.
    #[test]
    fn a_file_url_is_cloned_without_compression() {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        let body = "the same line again\n".repeat(5_000);
        std::fs::write(src.join("SKILL.md"), &body).unwrap();
        if !(git_ok(&src, &["init", "-q"]) && commit_all(&src, "s")) {
            eprintln!("git is not usable here: skipped");
            return;
        }
        let url = format!("file://{}", src.display());
        let dest = t.path().join("c.git");
        let commit = clone(&url, None, &dest).unwrap();
        let head = Command::new("git")
            .arg("-C")
            .arg(&src)
            .args(["rev-parse", "HEAD"])
            .output()
            .unwrap();
        assert_eq!(commit, String::from_utf8_lossy(&head.stdout).trim());
        let packs: u64 = std::fs::read_dir(dest.join("objects/pack"))
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "pack"))
            .map(|e| e.metadata().unwrap().len())
            .sum();
        assert!(packs >= body.len() as u64, "{packs} bytes of pack");
    }
}
