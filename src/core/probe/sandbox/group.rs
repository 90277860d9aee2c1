//! The process-group mode: the command runs in a session and process group of its own (no
//! controlling terminal, terminal ioctls refused by the seccomp filter) with a minimal
//! environment and a private temporary `HOME`; the group is killed at the end. Used where the
//! kernel refuses namespaces, or when asked for. Descendants that leave the group (`setsid`,
//! double forks) are out of its reach, and nothing limits what the command reads, writes,
//! connects to or allocates.

use super::{Ending, GRACE, Mode, Outcome, Reader, RunSpec, environment};
use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
use nix::sys::wait::{Id, waitid};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Runs the command and returns once it and everything it spawned in its group are dead.
///
/// With `stage` (the skillscope binary) the command starts through its `exec` stage, which
/// leaves the terminal's session (a new session is also a new process group, the one killed
/// here) and installs the seccomp filter first; without it, the command only gets a process
/// group of its own and keeps the terminal.
pub(super) fn run(
    spec: &RunSpec,
    stage: Option<&Path>,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<Outcome> {
    // HOME and TMPDIR point to a fresh folder so the command neither reads the user's dotfiles
    // nor leaves files behind; the folder goes when this function returns.
    let home = tempfile::Builder::new()
        .prefix("skillscope-probe-")
        .tempdir()?;
    let cmd = if let Some(stage) = stage.filter(|_| cfg!(target_os = "linux")) {
        // A program that cannot start is the caller's error, as with a direct spawn.
        std::fs::metadata(&spec.program)?;
        let mut c = Command::new(stage);
        c.arg(super::STAGE_ARG).arg("exec").arg(&spec.program);
        c
    } else {
        let mut c = Command::new(&spec.program);
        c.process_group(0);
        c
    };
    run_in(cmd, spec, (home.path(), &[]), cancel)
}

/// Runs `cmd` (the command, or a stage that makes a session of its own before it becomes the
/// command) with `spec`'s arguments, folder and limits, `home` as its `HOME` and `TMPDIR`, and
/// returns once it and everything it spawned in its group are dead.
pub(super) fn run_in(
    mut cmd: Command,
    spec: &RunSpec,
    (home, extra): (&Path, &[(OsString, OsString)]),
    cancel: Option<&AtomicBool>,
) -> std::io::Result<Outcome> {
    cmd.args(&spec.args)
        .current_dir(&spec.cwd)
        .env_clear()
        .envs(environment(home))
        .envs(extra.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());

    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let pid = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let mut group = Group::new(child)?;
    let out = Reader::start(stdout, spec.output_cap)?;
    let err = Reader::start(stderr, spec.output_cap)?;

    let ending = group.wait_exit(start + spec.timeout, cancel);
    let (status, killed_descendants) = group.finish();
    let elapsed = start.elapsed();
    Ok(Outcome {
        pid: Some(pid),
        ending,
        status,
        stdout: out.finish(),
        stderr: err.finish(),
        elapsed,
        killed_descendants,
        mode: Mode::ProcessGroup,
        fallback: None,
        limit: None,
    })
}

/// The running command and its process group. Dropping it kills and reaps the group, so no
/// early return (or panic) leaves a process behind.
struct Group {
    child: Child,
    pgid: Pid,
    /// The command's status once reaped.
    status: Option<ExitStatus>,
    done: bool,
}

impl Group {
    fn new(child: Child) -> std::io::Result<Group> {
        if let Ok(raw) = i32::try_from(child.id()) {
            Ok(Group {
                child,
                pgid: Pid::from_raw(raw),
                status: None,
                done: false,
            })
        } else {
            let mut child = child;
            let _ = child.kill();
            let _ = child.wait();
            Err(std::io::Error::other("process id out of range"))
        }
    }

    fn kill(&self) {
        let _ = killpg(self.pgid, Signal::SIGKILL);
        // Before the `exec` stage's `setsid` the group does not exist yet: the command itself
        // is killed by its id (not yet reaped, so the id is still its own).
        if self.status.is_none() {
            let _ = nix::sys::signal::kill(self.pgid, Signal::SIGKILL);
        }
    }

    /// Waits until the command exits, the deadline passes or the run is cancelled.
    fn wait_exit(&mut self, deadline: Instant, cancel: Option<&AtomicBool>) -> Ending {
        let mut nap = Duration::from_millis(1);
        loop {
            if self.exited() {
                return Ending::Exited;
            }
            let now = Instant::now();
            if now >= deadline {
                return Ending::TimedOut;
            }
            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Ending::Cancelled;
            }
            std::thread::sleep(nap.min(deadline - now));
            nap = (nap * 2).min(Duration::from_millis(20));
        }
    }

    /// Has the command exited? It is observed without being reaped (WNOWAIT): while its zombie
    /// exists its process group id cannot be reused, so the kill that follows cannot hit an
    /// unrelated group.
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
    fn exited(&mut self) -> bool {
        loop {
            let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT | WaitPidFlag::WNOHANG;
            match waitid(Id::Pid(self.pgid), flags) {
                Ok(WaitStatus::StillAlive) => return false,
                Err(Errno::EINTR) => {}
                Ok(_) | Err(_) => return true,
            }
        }
    }

    /// Has the command exited? Without `waitid` it is reaped at once, which leaves a short
    /// window in which its group id could be reused before the kill.
    #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
    fn exited(&mut self) -> bool {
        match self.child.try_wait() {
            Ok(Some(status)) => {
                self.status = Some(status);
                true
            }
            Ok(None) => false,
            Err(_) => true,
        }
    }

    /// Kills whatever is left of the group, reaps the command, then reaps the descendants this
    /// process adopted. Returns the command's status and how many descendants were reaped.
    fn finish(&mut self) -> (Option<ExitStatus>, u32) {
        self.done = true;
        self.kill();
        let until = Instant::now() + GRACE;
        let status = loop {
            if self.status.is_some() {
                break self.status;
            }
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    // Reaped: from now on its id may be another process's.
                    self.status = Some(s);
                    break Some(s);
                }
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(None) | Err(_) => break None,
            }
        };
        let mut reaped = 0;
        let group = Pid::from_raw(-self.pgid.as_raw());
        loop {
            match waitpid(group, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => {
                    if Instant::now() >= until {
                        break;
                    }
                    // A member forked while the first kill was on its way: kill again.
                    self.kill();
                    std::thread::sleep(Duration::from_millis(1));
                }
                Ok(_) => reaped += 1,
                Err(Errno::EINTR) => {}
                // ECHILD: no child of this process is left in the group.
                Err(_) => break,
            }
        }
        (status, reaped)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.done {
            self.finish();
        }
    }
}
