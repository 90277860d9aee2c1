//! The verify stage: what runs inside the sandbox (the skillscope binary again, as the sandbox's
//! command). It runs the client's `--version`, starts the mock on the loopback, runs the client
//! once against it, and prints what happened as one JSON object on stdout.

use super::mock::{self, Request};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The hidden first argument that makes the skillscope binary the verify stage.
pub const STAGE_ARG: &str = "__verify";
/// Bytes kept of the client's stdout and stderr each (the end of them).
const TAIL: usize = 16 << 10;
/// How long `--version` may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(30);

/// What the stage is asked to do (its second argument, as JSON).
#[derive(Debug, Serialize, Deserialize)]
pub struct StageSpec {
    /// The agent whose client runs (its name): the mock keeps the body of its turn carrying
    /// the skills, and of no other request.
    pub agent: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub port: u16,
    pub timeout_ms: u64,
    /// Files written before the client starts (inside the sandbox's private `/tmp`): settings
    /// the client needs that must not be written into the user's.
    #[serde(default)]
    pub files: Vec<(PathBuf, String)>,
    /// The user's home. Where the sandbox gives the client a private home at another place
    /// (macOS: `HOME` names a temporary folder holding copies), the program and the files
    /// below the user's home are taken at the same place below the private one.
    #[serde(default)]
    pub user_home: Option<PathBuf>,
}

impl StageSpec {
    /// The spec with its paths below `user_home` moved below `home` (the `HOME` the stage runs
    /// with), and that home when it is not the user's.
    pub fn relocated(&self, home: Option<&std::path::Path>) -> (StageSpec, Option<PathBuf>) {
        let mut out = StageSpec {
            agent: self.agent.clone(),
            program: self.program.clone(),
            args: self.args.clone(),
            port: self.port,
            timeout_ms: self.timeout_ms,
            files: self.files.clone(),
            user_home: self.user_home.clone(),
        };
        let (Some(user), Some(home)) = (self.user_home.as_deref(), home) else {
            return (out, None);
        };
        if user == home {
            return (out, None);
        }
        let moved = |p: &std::path::Path| {
            p.strip_prefix(user)
                .map_or_else(|_| p.to_path_buf(), |rest| home.join(rest))
        };
        out.program = moved(&self.program);
        for (p, _) in &mut out.files {
            *p = moved(p);
        }
        (out, Some(home.to_path_buf()))
    }
}

/// How one run of the client went.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct ClientRun {
    /// Its exit code; `None` when a signal ended it or it was killed.
    pub code: Option<i32>,
    pub timed_out: bool,
    /// The ends of its stdout and stderr.
    pub stdout: String,
    pub stderr: String,
    /// Why it could not be started.
    pub error: Option<String>,
}

/// What the stage reports.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct StageReport {
    /// `CLIENT --version`.
    pub version: ClientRun,
    /// The run against the mock.
    pub run: ClientRun,
    /// The requests the mock received, in order.
    pub requests: Vec<Request>,
    /// Why the mock could not start.
    pub error: Option<String>,
    /// The private home the client ran with, when it is not at the user's home's place: paths
    /// the client sent below it are the user's home's.
    #[serde(default)]
    pub home: Option<PathBuf>,
}

/// Runs the verify stage when the arguments ask for it ([`STAGE_ARG`] first), printing its
/// report; returns the exit code, `None` for any other command line.
pub fn stage(args: &[OsString]) -> Option<i32> {
    if args.get(1).is_none_or(|a| a != STAGE_ARG) {
        return None;
    }
    let spec: Option<StageSpec> = args
        .get(2)
        .and_then(|a| a.to_str())
        .and_then(|s| serde_json::from_str(s).ok());
    let Some(spec) = spec else {
        eprintln!("skillscope: the verify stage needs its specification");
        return Some(2);
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let (spec, moved) = spec.relocated(home.as_deref());
    let mut report = inside(&spec);
    report.home = moved;
    match serde_json::to_string(&report) {
        Ok(s) => {
            println!("{s}");
            Some(0)
        }
        Err(e) => {
            eprintln!("skillscope: {e}");
            Some(2)
        }
    }
}

fn inside(spec: &StageSpec) -> StageReport {
    for (path, text) in &spec.files {
        let made = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(path, text));
        if let Err(e) = made {
            return StageReport {
                error: Some(format!("cannot write {}: {e}", path.display())),
                ..StageReport::default()
            };
        }
    }
    let Some(client) = super::agents()
        .find(|a| a.as_str() == spec.agent)
        .and_then(super::client)
    else {
        return StageReport {
            error: Some(format!("verify cannot run the client of {}", spec.agent)),
            ..StageReport::default()
        };
    };
    if let Some(why) = client.min_node.and_then(|min| old_node(client.name, min)) {
        return StageReport {
            error: Some(why),
            ..StageReport::default()
        };
    }
    let mut report = StageReport {
        version: run_client(&spec.program, &["--version".to_string()], VERSION_TIMEOUT),
        ..StageReport::default()
    };
    let listener = match std::net::TcpListener::bind(("127.0.0.1", spec.port)) {
        Ok(l) => l,
        Err(e) => {
            report.error = Some(format!(
                "the mock cannot listen on 127.0.0.1:{}: {e}",
                spec.port
            ));
            return report;
        }
    };
    let wanted: mock::Wanted =
        Arc::new(move |r: &Request| super::extract::carries_skills(client, r));
    let recorded = match mock::serve(listener, wanted) {
        Ok(r) => r,
        Err(e) => {
            report.error = Some(format!("the mock cannot start: {e}"));
            return report;
        }
    };
    report.run = run_client(
        &spec.program,
        &spec.args,
        Duration::from_millis(spec.timeout_ms),
    );
    report.requests = std::mem::take(
        &mut *recorded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    report
}

/// Why a client that runs on Node.js (`name`, needing `min` or newer) cannot run here: no `node`
/// on `PATH`, or the one there (as its `--version` says) is older. `None` when it is new enough.
fn old_node(name: &str, min: (u32, u32)) -> Option<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let need = format!("{name} runs on Node.js {}.{} or newer", min.0, min.1);
    let Some(node) = super::clients::find_command("node", &path, &[]) else {
        return Some(format!("{need}, and there is no `node` on PATH"));
    };
    let run = run_client(&node, &["--version".to_string()], VERSION_TIMEOUT);
    let printed = run.stdout.trim();
    let found = super::clients::version_in(printed);
    let at = crate::core::words::escape::path(&node);
    match found.as_deref().map(node_version) {
        Some(Some(v)) if v >= min => None,
        Some(Some(_)) => Some(format!(
            "{need}; the `node` on PATH ({at}) is {}: put a newer Node.js first on PATH",
            found.as_deref().unwrap_or_default()
        )),
        _ => Some(format!(
            "{need}; the `node` on PATH ({at}) did not tell its version{}",
            run.error.map(|e| format!(" ({e})")).unwrap_or_default()
        )),
    }
}

/// A Node.js version's major and minor (`24.16.0` → 24, 16).
fn node_version(v: &str) -> Option<(u32, u32)> {
    let mut parts = v.split(['.', '-', '+']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor))
}

/// Runs the client with `args` in its own process group, killed with it at `timeout` (the stage
/// runs inside the Linux sandbox; elsewhere the client alone is killed).
fn run_client(program: &Path, args: &[String], timeout: Duration) -> ClientRun {
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command.spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return ClientRun {
                error: Some(format!("cannot start {}: {e}", program.display())),
                ..ClientRun::default()
            };
        }
    };
    let out = tail_reader(child.stdout.take());
    let err = tail_reader(child.stderr.take());
    let start = Instant::now();
    let mut run = ClientRun::default();
    #[cfg(unix)]
    let group = i32::try_from(child.id())
        .ok()
        .map(nix::unistd::Pid::from_raw);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                run.code = status.code();
                break;
            }
            Ok(None) if start.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                run.timed_out = true;
                break;
            }
        }
    }
    // What it left behind (a helper, a server) goes with it.
    #[cfg(unix)]
    if let Some(g) = group {
        let _ = nix::sys::signal::killpg(g, nix::sys::signal::Signal::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = child.kill();
    let _ = child.wait();
    run.stdout = finish(out);
    run.stderr = finish(err);
    run
}

type Tail = std::sync::mpsc::Receiver<Vec<u8>>;

/// Reads a pipe on a thread, keeping its last [`TAIL`] bytes.
fn tail_reader<R: Read + Send + 'static>(pipe: Option<R>) -> Option<Tail> {
    let mut pipe = pipe?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("verify-pipe".into())
        .spawn(move || {
            let mut kept: Vec<u8> = Vec::new();
            let mut buf = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * TAIL {
                    kept.drain(..kept.len() - TAIL);
                }
            }
            let cut = kept.len().saturating_sub(TAIL);
            let _ = tx.send(kept.split_off(cut));
        })
        .ok()?;
    Some(rx)
}

fn finish(tail: Option<Tail>) -> String {
    tail.and_then(|t| t.recv_timeout(Duration::from_secs(2)).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod relocation_tests {
    use super::*;

    /// macOS gives the client a private home at another place: the client found below the
    /// user's home and the files verify writes there are taken below the private one, what is
    /// outside the home stays; on Linux (the private home at the user's home's place) nothing
    /// moves.
    #[test]
    fn paths_below_the_users_home_move_to_the_private_one() {
        let spec = StageSpec {
            agent: "gemini".into(),
            program: PathBuf::from("/Users/me/.npm-global/bin/gemini"),
            args: vec!["-p".into(), "hello".into()],
            port: 1,
            timeout_ms: 1,
            files: vec![
                (
                    PathBuf::from("/Users/me/.gemini/settings.json"),
                    "{}".into(),
                ),
                (PathBuf::from("/etc/elsewhere"), String::new()),
            ],
            user_home: Some(PathBuf::from("/Users/me")),
        };
        let private = std::path::Path::new("/private/var/folders/x/T/skillscope-verify-1/home");
        let (moved, home) = spec.relocated(Some(private));
        assert_eq!(home.as_deref(), Some(private));
        assert_eq!(moved.program, private.join(".npm-global/bin/gemini"));
        assert_eq!(moved.files[0].0, private.join(".gemini/settings.json"));
        assert_eq!(moved.files[1].0, PathBuf::from("/etc/elsewhere"));
        let (same, home) = spec.relocated(Some(std::path::Path::new("/Users/me")));
        assert_eq!(home, None);
        assert_eq!(same.program, spec.program);
        assert_eq!(same.files, spec.files);
    }
}

#[cfg(test)]
mod tests {
    use super::node_version;

    #[test]
    fn node_versions_compare_by_major_then_minor() {
        assert_eq!(node_version("24.16.0"), Some((24, 16)));
        assert_eq!(node_version("20.20.2"), Some((20, 20)));
        assert_eq!(node_version("25"), Some((25, 0)));
        assert_eq!(node_version("x.1"), None);
        assert!(node_version("24.9.0").unwrap() < (24, 16));
        assert!(node_version("24.21.0").unwrap() >= (24, 16));
        assert!(node_version("25.0.0").unwrap() >= (24, 16));
    }
}
