//! git run so that nothing from the repository runs: a bare shallow clone into a temporary
//! folder with hooks, submodules, fsmonitor and command transports off; the tree is then copied
//! out of the object store (`gitref::materialize`), never checked out.

use crate::core::gitref::GitError;
use std::path::Path;
use std::process::{Command, Stdio};

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

fn run(mut c: Command, what: &str) -> Result<Vec<u8>, GitError> {
    let out = c.output().map_err(GitError::Spawn)?;
    if !out.status.success() {
        return Err(GitError::Failed {
            args: what.to_string(),
            stderr: crate::core::text::line(String::from_utf8_lossy(&out.stderr).trim())
                .into_owned(),
        });
    }
    Ok(out.stdout)
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
        "--quiet",
        // An empty template folder: nothing of the installed templates (hooks) is copied.
        "--template=",
    ]);
    if let Some(r) = reference {
        c.arg("--branch").arg(r);
    }
    c.arg("--").arg(url).arg(dest);
    run(c, &format!("clone {url}"))?;
    commit_of(dest)
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
