//! The namespaces mode, skillscope's side: start the sandbox's helper (the skillscope binary
//! again, see `inside`), hand it the command, follow its reports, and kill it all at the deadline.
//!
//! The chain is skillscope → helper → init → command. The helper makes the namespaces; the init
//! is PID 1 of the new PID namespace, builds the read-only view and the limits, starts the
//! command and watches it. When the init dies, for any reason, the kernel kills every process
//! left in its namespace; when the helper dies, the init gets SIGKILL (`PR_SET_PDEATHSIG`); when
//! skillscope dies, so does the helper.

use super::{
    Captured, Ending, GRACE, Limit, Mode, Outcome, Reader, RunSpec, environment, killed_status,
};
use nix::errno::Errno;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::hash::{BuildHasher, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What the init needs to run the command; sent as one JSON line.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Spec {
    pub program: Vec<u8>,
    pub args: Vec<Vec<u8>>,
    pub cwd: Vec<u8>,
    pub env: Vec<(Vec<u8>, Vec<u8>)>,
    /// The command's `HOME` and `TMPDIR`, made inside the private `/tmp`.
    pub home: Vec<u8>,
    /// CPU seconds the command may use.
    pub cpu_secs: u64,
    /// Folders covered by an empty tmpfs: everything that is not the system (see [`SYSTEM`]),
    /// and skillscope's home wherever it is.
    pub hide: Vec<Vec<u8>>,
    /// What stays readable where it is inside a hidden folder: the skill folder, the program
    /// and the installation it belongs to.
    pub reveal: Vec<Vec<u8>>,
    /// An isolated run's home: a private writable tmpfs mounted there (the reveals inside it
    /// bound back read-only).
    #[serde(default)]
    pub private_home: Option<Vec<u8>>,
    /// An isolated run's port: the loopback is brought up, and TCP reaches this port only.
    #[serde(default)]
    pub port: Option<u16>,
    /// An isolated run's project: writable through a throwaway layer.
    #[serde(default)]
    pub layered: Option<Vec<u8>>,
    /// An isolated run's symbolic links made again where they are (link, target as written).
    #[serde(default)]
    pub links: Vec<(Vec<u8>, Vec<u8>)>,
}

/// The top-level folders a probe may read: the system (programs, libraries, configuration,
/// devices, kernel views) and the private `/tmp` and hidden `/run` the sandbox makes itself.
/// Every other top-level folder (`/home`, `/root`, `/opt`, `/var`, `/srv`, `/mnt`, a checkout's
/// `/work`…) is hidden under an empty tmpfs.
pub(super) const SYSTEM: [&str; 14] = [
    "bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc", "sys", "nix",
    "tmp", "run",
];

/// Every top-level folder outside [`SYSTEM`], and `home` when it is not in one of them.
fn hidden_places(home: Option<&Path>) -> Vec<PathBuf> {
    let mut hide: Vec<PathBuf> = std::fs::read_dir("/")
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter(|e| !SYSTEM.iter().any(|s| e.file_name() == *s))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    hide.sort();
    if let Some(home) = home.filter(|h| h.is_absolute() && h.parent().is_some())
        && !hide.iter().any(|h| home.starts_with(h))
    {
        hide.push(home.to_path_buf());
    }
    hide
}

impl Spec {
    pub fn path(bytes: &[u8]) -> PathBuf {
        PathBuf::from(OsString::from_vec(bytes.to_vec()))
    }
}

/// What the helper and the init report, one JSON line each.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "report", rename_all = "kebab-case")]
pub(super) enum Message {
    /// From the helper: the init's process id, as skillscope sees it.
    Init { pid: u32 },
    /// The sandbox could not be set up; nothing of the command ran.
    Failed { step: String, error: String },
    /// The command could not be started.
    SpawnError { errno: Option<i32>, error: String },
    /// The command runs.
    Started,
    /// The command ended: its raw wait status, the processes still alive then (killed with the
    /// namespace), and the limit that stopped it, if one did.
    Exited {
        status: i32,
        left: u32,
        limit: Option<String>,
    },
}

pub(super) enum Attempt {
    Ran(Outcome),
    /// The namespaces mode cannot run here; nothing of the command ran.
    Unavailable(String),
}

/// What the stage program is told to run: the command, its folder and environment, a fresh
/// home, its CPU limit, and the places hidden and revealed.
fn stage_spec(spec: &RunSpec) -> Spec {
    let home = PathBuf::from(format!(
        "/tmp/skillscope-probe-{:016x}",
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    ));
    let bytes = |p: &std::ffi::OsStr| p.as_bytes().to_vec();
    let user_home = dirs::home_dir();
    let mut env = environment(&home);
    let mut reveal = super::reveal::revealed(spec, user_home.as_deref());
    if let Some(iso) = &spec.isolated {
        env.retain(|(k, _)| k != "HOME" && !iso.env.iter().any(|(n, _)| n == k));
        env.push(("HOME".into(), iso.home.clone().into_os_string()));
        env.extend(iso.env.iter().cloned());
        reveal.extend(iso.reveal.iter().cloned());
    }
    Spec {
        program: bytes(spec.program.as_os_str()),
        args: spec.args.iter().map(|a| bytes(a)).collect(),
        cwd: bytes(spec.cwd.as_os_str()),
        env: env.iter().map(|(k, v)| (bytes(k), bytes(v))).collect(),
        home: bytes(home.as_os_str()),
        cpu_secs: spec.timeout.as_secs().saturating_add(1),
        hide: hidden_places(user_home.as_deref())
            .iter()
            .map(|p| bytes(p.as_os_str()))
            .collect(),
        reveal: reveal.iter().map(|p| bytes(p.as_os_str())).collect(),
        private_home: spec.isolated.as_ref().map(|i| bytes(i.home.as_os_str())),
        port: spec.isolated.as_ref().map(|i| i.port),
        layered: spec
            .isolated
            .as_ref()
            .and_then(|i| i.layered.as_ref())
            .map(|p| bytes(p.as_os_str())),
        links: spec
            .isolated
            .as_ref()
            .map(|i| {
                i.links
                    .iter()
                    .map(|(l, t)| (bytes(l.as_os_str()), bytes(t.as_os_str())))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// Runs the command in fresh namespaces through the stage program (the skillscope binary).
pub(super) fn run(
    spec: &RunSpec,
    program: &Path,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<Attempt> {
    let (ours, theirs) = UnixStream::pair()?;
    let message = stage_spec(spec);
    let mut line = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
    line.push(b'\n');

    let mut cmd = Command::new(program);
    cmd.arg(super::STAGE_ARG)
        .arg("helper")
        .arg(std::process::id().to_string())
        .env_clear()
        .envs(super::STAGE_ENV)
        .current_dir("/")
        .stdin(Stdio::from(OwnedFd::from(theirs)))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Out of the terminal's foreground group: Ctrl-C reaches skillscope, which cancels.
        // (The init leaves the terminal's session altogether before the command starts.)
        .process_group(0);
    let start = Instant::now();
    let mut helper = match cmd.spawn() {
        Ok(c) => Helper::new(c),
        Err(e) => {
            return Ok(Attempt::Unavailable(format!(
                "cannot start the sandbox program {}: {e}",
                program.display()
            )));
        }
    };
    let out = Reader::start(helper.child.stdout.take(), spec.output_cap)?;
    let err = Reader::start(helper.child.stderr.take(), spec.output_cap)?;
    let reports = listen(ours.try_clone()?)?;
    let mut writer = &ours;
    // A helper that died at once closes the socket; what it said (if anything) is read below.
    let _ = writer.write_all(&line);

    let mut followed = Followed::default();
    let deadline = start + spec.timeout;
    let ending = loop {
        let now = Instant::now();
        if now >= deadline {
            break Ending::TimedOut;
        }
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            break Ending::Cancelled;
        }
        let nap = (deadline - now).min(Duration::from_millis(20));
        match reports.recv_timeout(nap) {
            Ok(m) => {
                if followed.take(m) {
                    break Ending::Exited;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break Ending::Exited,
        }
    };
    let mut killed = 0;
    if ending != Ending::Exited
        && let Some(init) = followed.init
    {
        // Counted before the kill, which takes them all at once.
        killed = in_namespace_of(init).saturating_sub(u32::from(followed.started));
    }
    helper.finish(followed.init, ending == Ending::Exited);
    let elapsed = start.elapsed();
    let stdout = out.finish();
    let stderr = err.finish();

    if let Some(why) = followed.failed {
        return Ok(Attempt::Unavailable(why));
    }
    if let Some(e) = followed.spawn_error {
        return Err(e);
    }
    if !followed.started && ending == Ending::Exited {
        return Ok(Attempt::Unavailable(silent_end(&stderr)));
    }
    let (status, left, limit) = match (&followed.exited, ending) {
        (Some((status, left, limit)), _) => (
            Some(std::process::ExitStatus::from_raw(*status)),
            *left,
            *limit,
        ),
        // The init died without a word after starting the command: killed from outside.
        (None, Ending::Exited) => (None, 0, None),
        (None, _) => (Some(killed_status()), killed, None),
    };
    Ok(Attempt::Ran(Outcome {
        pid: followed.pid,
        ending,
        status,
        stdout,
        stderr,
        elapsed,
        killed_descendants: left,
        mode: Mode::Namespaces,
        fallback: None,
        limit,
    }))
}

/// Why the chain ended before the command started, with what it printed (a panic, a loader
/// error), for the fallback's reason.
fn silent_end(stderr: &Captured) -> String {
    let tail = super::super::stderr_tail(&stderr.bytes);
    let last = tail.lines().rev().find(|l| !l.trim().is_empty());
    match last {
        Some(l) => format!(
            "the sandbox program ended before the probe started: {}",
            l.trim()
        ),
        None => "the sandbox program ended before the probe started, without a word".to_string(),
    }
}

/// What the reports said so far.
#[derive(Default)]
struct Followed {
    init: Option<Pid>,
    /// The command's process id as skillscope sees it.
    pid: Option<u32>,
    started: bool,
    failed: Option<String>,
    spawn_error: Option<std::io::Error>,
    exited: Option<(i32, u32, Option<Limit>)>,
}

impl Followed {
    /// Takes one report; true when it is the last one.
    fn take(&mut self, m: Message) -> bool {
        match m {
            Message::Init { pid } => {
                self.init = i32::try_from(pid).ok().map(Pid::from_raw);
                false
            }
            Message::Started => {
                self.started = true;
                self.pid = self.init.and_then(first_child);
                false
            }
            Message::Failed { step, error } => {
                self.failed = Some(format!("the kernel refused the sandbox ({step}: {error})"));
                true
            }
            Message::SpawnError { errno, error } => {
                self.spawn_error = Some(match errno {
                    Some(n) => std::io::Error::from_raw_os_error(n),
                    None => std::io::Error::other(error),
                });
                true
            }
            Message::Exited {
                status,
                left,
                limit,
            } => {
                let limit = limit.and_then(|l| (l == "processes").then_some(Limit::Processes));
                self.exited = Some((status, left, limit));
                true
            }
        }
    }
}

/// Reads the reports on a thread; the channel closes when the socket does (every stage gone).
fn listen(stream: UnixStream) -> std::io::Result<mpsc::Receiver<Message>> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("probe-reports".into())
        .spawn(move || {
            // Bounded: a report is a short line; anything longer is not from a stage.
            let mut reader = BufReader::new(stream).take(1 << 20);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let Ok(m) = serde_json::from_slice::<Message>(&line) else {
                            break;
                        };
                        if tx.send(m).is_err() {
                            break;
                        }
                    }
                }
            }
        })?;
    Ok(rx)
}

/// The first child of a process (the init's only child right after it started the command).
fn first_child(pid: Pid) -> Option<u32> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// How many processes besides the init share its PID namespace.
fn in_namespace_of(init: Pid) -> u32 {
    let Ok(ns) = std::fs::metadata(format!("/proc/{init}/ns/pid")) else {
        return 0;
    };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut n = 0;
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        if pid == init.as_raw() {
            continue;
        }
        if std::fs::metadata(e.path().join("ns/pid"))
            .is_ok_and(|m| m.dev() == ns.dev() && m.ino() == ns.ino())
        {
            n += 1;
        }
    }
    n
}

/// The helper process. Dropping it (an early return, a panic) kills the whole chain.
struct Helper {
    child: Child,
    done: bool,
}

impl Helper {
    fn new(child: Child) -> Helper {
        Helper { child, done: false }
    }

    /// Ends the chain and reaps it. The helper is killed (at once, unless the command ended by
    /// itself), which takes the init down (death signal) and with it the namespace; the init,
    /// re-parented to this process (a subreaper) when the helper died first, is reaped here.
    /// Returns when both are gone, or after the grace period.
    fn finish(&mut self, init: Option<Pid>, ended_by_itself: bool) {
        self.done = true;
        let until = Instant::now() + GRACE;
        // After the last report the init exits, and the helper right after it.
        let mut ended = false;
        while ended_by_itself && Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_)) | Err(_)) {
                ended = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if !ended {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // The helper is reaped: the init is either reaped by it, or now a child of this process.
        let Some(init) = init else { return };
        let until = Instant::now() + GRACE;
        loop {
            match waitpid(init, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => {
                    // Still ours and alive: it cannot be a reused process id.
                    let _ = kill(init, Signal::SIGKILL);
                    if Instant::now() >= until {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(Errno::EINTR) => {}
                // Reaped now, or not a child of this process (reaped by the helper).
                Ok(_) | Err(_) => break,
            }
        }
    }
}

impl Drop for Helper {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
