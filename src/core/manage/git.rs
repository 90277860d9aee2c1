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

    /// A `file://` clone is the commit asked for, its objects sent as they are: a file of one
    /// repeated line (which zlib would shrink a hundredfold) arrives at its full size.
    #[test]
    fn a_file_url_is_cloned_without_compression() {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        let body = "the same line again\n".repeat(5_000);
        std::fs::write(src.join("SKILL.md"), &body).unwrap();
        if !(git_ok(&src, &["init", "-q"])
            && git_ok(&src, &["add", "-A"])
            && git_ok(
                &src,
                &[
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@e",
                    "commit",
                    "-qm",
                    "s",
                ],
            ))
        {
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
