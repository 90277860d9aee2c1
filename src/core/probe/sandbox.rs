//! Runs one untrusted command: no shell, its own process group, a minimal environment, capped
//! output read on threads, and a deadline after which the whole group is killed and reaped.

use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
use nix::sys::wait::{Id, waitid};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

/// How long cleanup may wait for a killed group to die and for its pipes to close. A SIGKILLed
/// process is gone in microseconds; the bound only matters for one stuck in the kernel or for a
/// descendant that left the group (`setsid`) and still holds a pipe.
const GRACE: Duration = Duration::from_millis(500);

/// What to run and under which limits.
#[derive(Debug, Clone)]
pub struct RunSpec {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub cwd: PathBuf,
    pub timeout: Duration,
    /// Bytes kept of stdout and of stderr each; the rest is read and discarded.
    pub output_cap: usize,
}

/// Why the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The command exited by itself (normally or by a signal of its own).
    Exited,
    TimedOut,
    Cancelled,
}

/// What one stream carried: the first `output_cap` bytes and how many were written in all.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    pub bytes: Vec<u8>,
    pub total: u64,
}

impl Captured {
    pub fn truncated(&self) -> bool {
        self.total > self.bytes.len() as u64
    }
}

#[derive(Debug, Clone)]
pub struct Outcome {
    /// The process id of the command, which is also its process group id.
    pub pid: u32,
    pub ending: Ending,
    /// `None` only when the command could not be reaped within the grace period.
    pub status: Option<ExitStatus>,
    pub stdout: Captured,
    pub stderr: Captured,
    pub elapsed: Duration,
    /// Processes of the group other than the command itself that were still alive at the end
    /// and were killed (counted where the process can adopt orphans: Linux).
    pub killed_descendants: u32,
}

impl Outcome {
    pub fn exit_code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    pub fn signal(&self) -> Option<i32> {
        self.status.and_then(|s| s.signal())
    }
}

/// Runs the command and returns once it and everything it spawned in its group are dead.
/// The error is the failure to start it (program missing, not executable, no resources).
pub fn run(spec: &RunSpec, cancel: Option<&AtomicBool>) -> std::io::Result<Outcome> {
    adopt_orphans();
    // HOME and TMPDIR point to a fresh folder so the command neither reads the user's dotfiles
    // nor leaves files behind; the folder goes when this function returns.
    let home = tempfile::Builder::new()
        .prefix("skillscope-probe-")
        .tempdir()?;
    let path = super::interpreter::search_path();
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .current_dir(&spec.cwd)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home.path())
        .env("TMPDIR", home.path())
        .env("LANG", "C.UTF-8")
        // A probe must not change the skill folder; Python would write __pycache__ into it.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);

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
        pid,
        ending,
        status,
        stdout: out.finish(),
        stderr: err.finish(),
        elapsed,
        killed_descendants,
    })
}

/// Makes this process the parent of orphans from its descendants, so that a probe's grandchildren
/// are reaped here instead of lingering as zombies under an init that does not reap (containers).
fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = nix::sys::prctl::set_child_subreaper(true);
        });
    }
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
        match i32::try_from(child.id()) {
            Ok(raw) => Ok(Group {
                child,
                pgid: Pid::from_raw(raw),
                status: None,
                done: false,
            }),
            Err(_) => {
                let mut child = child;
                let _ = child.kill();
                let _ = child.wait();
                Err(std::io::Error::other("process id out of range"))
            }
        }
    }

    fn kill(&self) {
        let _ = killpg(self.pgid, Signal::SIGKILL);
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
                Ok(Some(s)) => break Some(s),
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

/// Reads one pipe on its own thread, keeping the first `cap` bytes and discarding the rest, so
/// the command never blocks on a full pipe.
struct Reader {
    shared: Arc<Mutex<Captured>>,
    done: mpsc::Receiver<()>,
}

impl Reader {
    fn start<R: Read + Send + 'static>(pipe: Option<R>, cap: usize) -> std::io::Result<Reader> {
        let shared = Arc::new(Mutex::new(Captured::default()));
        let (tx, done) = mpsc::channel();
        if let Some(mut pipe) = pipe {
            let sink = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("probe-pipe".into())
                .spawn(move || {
                    let mut buf = vec![0u8; 64 * 1024];
                    loop {
                        match pipe.read(&mut buf) {
                            Ok(0) => break,
                            Ok(n) => {
                                let mut c = sink.lock().unwrap_or_else(PoisonError::into_inner);
                                let room = cap.saturating_sub(c.bytes.len()).min(n);
                                c.bytes.extend_from_slice(&buf[..room]);
                                c.total += n as u64;
                            }
                            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                            Err(_) => break,
                        }
                    }
                    let _ = tx.send(());
                })?;
        }
        Ok(Reader { shared, done })
    }

    /// What was read. Once the group is dead the pipe closes at once; only a descendant that left
    /// the group can hold it open, and then what arrived so far is taken and the thread left to
    /// end on its own.
    fn finish(self) -> Captured {
        let _ = self.done.recv_timeout(GRACE);
        let mut c = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut *c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(program: &str, args: &[&str], timeout: Duration, cap: usize) -> RunSpec {
        RunSpec {
            program: PathBuf::from(program),
            args: args.iter().map(OsString::from).collect(),
            cwd: std::env::temp_dir(),
            timeout,
            output_cap: cap,
        }
    }

    #[test]
    fn output_beyond_the_cap_is_counted_but_not_kept() {
        let s = spec(
            "/usr/bin/head",
            &["-c", "5000", "/dev/zero"],
            Duration::from_secs(30),
            1000,
        );
        let o = run(&s, None).unwrap();
        assert_eq!(o.ending, Ending::Exited);
        assert_eq!(o.exit_code(), Some(0));
        assert_eq!((o.stdout.bytes.len(), o.stdout.total), (1000, 5000));
        assert!(o.stdout.truncated());
        assert_eq!(o.stderr.total, 0);
    }

    #[test]
    fn the_deadline_kills_the_command() {
        let s = spec("/bin/sleep", &["30"], Duration::from_millis(100), 1000);
        let o = run(&s, None).unwrap();
        assert_eq!(o.ending, Ending::TimedOut);
        assert_eq!(o.signal(), Some(Signal::SIGKILL as i32));
    }

    #[test]
    fn a_missing_program_is_an_error_to_start() {
        let s = spec("/nonexistent/program", &[], Duration::from_secs(1), 1000);
        assert_eq!(
            run(&s, None).unwrap_err().kind(),
            std::io::ErrorKind::NotFound
        );
    }
}
