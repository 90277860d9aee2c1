//! What a sandboxed run is given and what it gives back, shared by the sandbox's two modes.

use serde::Serialize;
use std::ffi::OsString;
use std::io::Read;
#[cfg(unix)]
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

/// The environment variable that chooses the sandbox: `process-group` forces the weaker mode,
/// anything else (or nothing) means the strongest one the kernel allows.
pub const SANDBOX_ENV: &str = "SKILLSCOPE_SANDBOX";

/// The hidden first argument that makes the skillscope binary a stage of the sandbox instead of
/// the app (see [`stage`]).
pub const STAGE_ARG: &str = "__sandbox";

/// The only environment the stages start with: the program's allocator (mimalloc) then commits
/// its memory as it uses it instead of mapping its first 1 GiB arena writable up front, which
/// would count whole against the init's data limit (`RLIMIT_DATA`, set before it starts the
/// command) and leave it no memory to start the command with. The command gets its own
/// environment, not this one.
#[cfg(target_os = "linux")]
pub(super) const STAGE_ENV: [(&str, &str); 1] = [("MIMALLOC_ARENA_EAGER_COMMIT", "0")];

/// How long cleanup may wait for killed processes to die and for their pipes to close. A SIGKILLed
/// process is gone in microseconds; the bound only matters for one stuck in the kernel or for a
/// descendant that escaped the kill (process-group mode) and still holds a pipe.
pub(super) const GRACE: Duration = Duration::from_millis(500);

/// Which sandbox ran a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Fresh user, PID, network, mount, IPC and UTS namespaces; a read-only view of the files
    /// but for a private `/tmp`; resource limits; everything dies with the namespace's init.
    Namespaces,
    /// Its own process group: killed as a group, but not contained.
    ProcessGroup,
    /// macOS: its own session and process group under a Seatbelt profile (reads of the system
    /// and the skill only, writes in its private folder only, no network, no terminal) and
    /// resource limits.
    Seatbelt,
}

impl Mode {
    /// The mode's stable name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Namespaces => "namespaces",
            Mode::ProcessGroup => "process-group",
            Mode::Seatbelt => "seatbelt",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which sandbox to ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Preference {
    /// Namespaces when the kernel allows them, else the process group (and say why).
    #[default]
    Strongest,
    /// The process group, even where namespaces work (tests of the fallback, odd kernels).
    ProcessGroup,
}

impl Preference {
    /// From [`SANDBOX_ENV`]: `process-group` forces the fallback.
    pub fn from_env() -> Preference {
        match std::env::var_os(SANDBOX_ENV) {
            Some(v) if v == "process-group" => Preference::ProcessGroup,
            _ => Preference::Strongest,
        }
    }
}

/// What to run and under which limits (on Windows, which has no sandbox, never run: only built).
#[derive(Debug, Clone)]
#[cfg_attr(not(unix), allow(dead_code))]
pub struct RunSpec {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub cwd: PathBuf,
    pub timeout: Duration,
    /// Bytes kept of stdout and of stderr each; the rest is read and discarded.
    pub output_cap: usize,
    pub sandbox: Preference,
    /// A run cut off from everything but its own loopback, with a home of its own (`skillscope
    /// verify`). Only the namespaces mode runs it: where that mode cannot run, [`super::run`]
    /// refuses (an error of kind `Unsupported` saying why) and nothing runs.
    pub isolated: Option<Isolated>,
}

/// What an isolated run adds to the namespaces mode.
#[derive(Debug, Clone, Default)]
pub struct Isolated {
    /// An empty, writable, private tmpfs is mounted here (the user's home folder, so that paths
    /// below it are the user's), and `HOME` names it.
    pub home: PathBuf,
    /// Files and folders kept readable (read-only) where they are, inside a hidden folder or
    /// the private home: skill folders, settings files, the client's installation.
    pub reveal: Vec<PathBuf>,
    /// Variables added to the minimal environment (replacing one of the same name).
    pub env: Vec<(OsString, OsString)>,
    /// The loopback interface is brought up, and TCP may bind and connect to this port only.
    pub port: u16,
    /// A folder (the project) the command may write to through a throwaway layer over it, where
    /// the kernel allows overlays; read-only otherwise. Clients write next to their project
    /// settings (opencode's `.opencode/.gitignore`).
    pub layered: Option<PathBuf>,
    /// Symbolic links made again where they are (link, its target as written) when that place
    /// is inside a hidden folder or the private home: the links on the way from a command's
    /// name on `PATH` to its real file, so it starts by the name the user's `PATH` gives it
    /// while only its real file and installation are revealed.
    pub links: Vec<(PathBuf, PathBuf)>,
}

/// The folder to reveal with a program whose real file is `real`, so that it runs: the
/// outermost `node_modules` folder holding it (an npm installation: packages only), else the
/// folder above the one holding it (`…/versions/3.11.7` for `…/versions/3.11.7/bin/python3`).
/// Below the home folder that folder is taken only when it is plainly an installation — above a
/// `bin` or `shims` folder, and named for a version (`v20.11.0`, `3.11.7`, or its parent so),
/// holding a virtual environment's `pyvenv.cfg` or conda's `conda-meta`, or a version manager's
/// own folder ([`VERSION_MANAGERS`]: `~/.pyenv`, `~/.volta`…) — never a folder of the user's own
/// like `~/.local`, `~/.cargo` or `~/.claude`, which hold keyrings, tokens and transcripts
/// beside programs. `None` when nothing but the file itself is to be shown, and never the home
/// folder, a folder holding it, or a top-level folder.
pub fn installation(real: &Path, home: Option<&Path>) -> Option<PathBuf> {
    // The home as named and with its links resolved (`real` has them resolved).
    let homes: Vec<PathBuf> = home
        .into_iter()
        .flat_map(|h| {
            [
                h.to_path_buf(),
                std::fs::canonicalize(h).unwrap_or_default(),
            ]
        })
        .filter(|h| h.is_absolute())
        .collect();
    let holds_home = |p: &Path| homes.iter().any(|h| h.starts_with(p));
    if let Some(nm) = real
        .ancestors()
        .filter(|a| a.file_name() == Some(std::ffi::OsStr::new("node_modules")))
        .last()
    {
        return (!holds_home(nm) && nm.components().count() > 2).then(|| nm.to_path_buf());
    }
    let bin = real.parent()?;
    let prefix = bin.parent()?;
    if holds_home(prefix) || prefix.components().count() <= 2 {
        return None;
    }
    if !homes.iter().any(|h| prefix.starts_with(h)) {
        return Some(prefix.to_path_buf());
    }
    let versioned = |p: &Path| {
        p.file_name()
            .and_then(|n| n.to_str())
            .map(|n| n.strip_prefix('v').unwrap_or(n))
            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
    };
    let marked = prefix.join("pyvenv.cfg").is_file() || prefix.join("conda-meta").is_dir();
    let manager = prefix
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| VERSION_MANAGERS.contains(&n));
    let below_home = prefix.parent().is_some_and(|p| !holds_home(p));
    let bin_name = bin.file_name().and_then(|n| n.to_str());
    (matches!(bin_name, Some("bin" | "shims"))
        && (versioned(prefix)
            || (below_home && prefix.parent().is_some_and(versioned))
            || marked
            || manager))
        .then(|| prefix.to_path_buf())
}

/// The folders of version managers whose `shims` (or `bin`) programs run from the whole folder
/// (`~/.pyenv/shims/python3` runs `~/.pyenv/libexec/pyenv`): installations, shown whole.
const VERSION_MANAGERS: [&str; 6] = [".pyenv", ".rbenv", ".nodenv", ".asdf", ".volta", "mise"];

/// Why the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The command exited by itself (normally or by a signal of its own or of a limit).
    Exited,
    /// Killed at its timeout.
    TimedOut,
    /// Killed because the run was cancelled.
    Cancelled,
}

/// A sandbox limit that stopped the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// It had more processes at once than [`MAX_PROCESSES`]; all were killed.
    Processes,
}

/// Most processes a probe may have at once in the namespaces mode; one more and all are killed.
pub const MAX_PROCESSES: usize = 64;

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
    /// The process id of the command as skillscope sees it, when known (in the process-group
    /// mode it is also the group id).
    pub pid: Option<u32>,
    pub ending: Ending,
    /// `None` only when the command's end could not be observed.
    pub status: Option<ExitStatus>,
    pub stdout: Captured,
    pub stderr: Captured,
    pub elapsed: std::time::Duration,
    /// Processes other than the command itself that were still alive at the end and were killed.
    pub killed_descendants: u32,
    pub mode: Mode,
    /// Why the namespaces mode did not run, when it did not.
    pub fallback: Option<String>,
    pub limit: Option<Limit>,
}

impl Outcome {
    pub fn exit_code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    /// The signal that ended the command (none on systems without signals).
    #[cfg_attr(not(unix), allow(clippy::unused_self))]
    pub fn signal(&self) -> Option<i32> {
        #[cfg(unix)]
        {
            self.status.and_then(|s| s.signal())
        }
        #[cfg(not(unix))]
        {
            None
        }
    }
}

#[cfg_attr(not(unix), allow(dead_code))]
/// The minimal environment of a probe: `PATH`, a private `HOME` and `TMPDIR`, a UTF-8 locale,
/// and no `__pycache__` written into the skill.
pub(super) fn environment(home: &Path) -> Vec<(OsString, OsString)> {
    vec![
        ("PATH".into(), super::super::interpreter::search_path()),
        ("HOME".into(), home.as_os_str().to_owned()),
        ("TMPDIR".into(), home.as_os_str().to_owned()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
    ]
}

/// The status of a process killed by SIGKILL (the namespaces mode's, whose init reports it).
#[cfg(target_os = "linux")]
pub(super) fn killed_status() -> ExitStatus {
    ExitStatus::from_raw(nix::sys::signal::Signal::SIGKILL as i32)
}

#[cfg_attr(not(unix), allow(dead_code))]
/// Reads one pipe on its own thread, keeping the first `cap` bytes and discarding the rest, so
/// the command never blocks on a full pipe.
pub(super) struct Reader {
    shared: Arc<Mutex<Captured>>,
    done: mpsc::Receiver<()>,
}

#[cfg_attr(not(unix), allow(dead_code))]
impl Reader {
    pub(super) fn start<R: Read + Send + 'static>(
        pipe: Option<R>,
        cap: usize,
    ) -> std::io::Result<Reader> {
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

    /// What was read. Once every process holding the pipe is dead it closes at once; only a
    /// descendant that escaped the kill can hold it open, and then what arrived so far is taken
    /// and the thread left to end on its own.
    pub(super) fn finish(self) -> Captured {
        let _ = self.done.recv_timeout(GRACE);
        let mut c = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::take(&mut *c)
    }
}

#[cfg(test)]
mod tests {
    use super::installation;
    use std::path::{Path, PathBuf};

    #[test]
    fn below_the_home_only_a_plain_installation_is_revealed() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let file = |rel: &str| -> PathBuf {
            let p = home.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "").unwrap();
            p
        };
        let of = |p: &Path| installation(p, Some(&home));
        // Folders of the user's own: only the file.
        assert_eq!(of(&file(".local/bin/claude")), None);
        assert_eq!(of(&file(".cargo/bin/skillscope")), None);
        assert_eq!(of(&file(".claude/local/claude")), None);
        assert_eq!(of(&file(".local/share/pnpm/claude")), None);
        assert_eq!(of(&file("bin/tool")), None, "the home itself");
        // npm's packages, a version manager's version, a virtual environment.
        assert_eq!(
            of(&file(".local/lib/node_modules/@a/b/cli.js")),
            Some(home.join(".local/lib/node_modules"))
        );
        assert_eq!(
            of(&file(".nvm/versions/node/v20.11.0/bin/node")),
            Some(home.join(".nvm/versions/node/v20.11.0"))
        );
        assert_eq!(
            of(&file(
                ".local/share/fnm/node-versions/v20.11.0/installation/bin/node"
            )),
            Some(home.join(".local/share/fnm/node-versions/v20.11.0/installation"))
        );
        assert_eq!(of(&file(".pyenv/shims/python3")), Some(home.join(".pyenv")));
        assert_eq!(of(&file(".pyenv/plugins/x")), None, "not its shims");
        file("venv/pyvenv.cfg");
        assert_eq!(of(&file("venv/bin/python3")), Some(home.join("venv")));
        // Outside the home, the folder above the program's.
        assert_eq!(
            installation(Path::new("/opt/tool/bin/tool"), Some(&home)),
            Some(PathBuf::from("/opt/tool"))
        );
        assert_eq!(
            installation(Path::new("/usr/bin/python3"), Some(&home)),
            None
        );
    }
}
