//! The namespaces mode, inside: the two stages the skillscope binary runs when started with
//! `__sandbox`. The helper makes the namespaces and starts the init; the init (PID 1 of the new
//! PID namespace) builds a read-only view of the files with a private `/tmp`, sets the limits,
//! starts the command, watches it and reports to skillscope over the socket on its stdin.
//!
//! Both stages start as fresh processes of a single thread with an empty environment, so no
//! secret of skillscope is in their memory and every call below is an ordinary one.

use super::MAX_PROCESSES;
use super::filter;
use super::namespaces::{Message, Spec};
use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, NetPort, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};
use nix::errno::Errno;
use nix::mount::{MsFlags, mount};
use nix::sched::{CloneFlags, unshare};
use nix::sys::prctl;
use nix::sys::resource::{Resource, getrlimit, setrlimit};
use nix::sys::signal::Signal;
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{Pid, getegid, geteuid, getppid};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Every namespace a probe gets of its own.
const NAMESPACES: CloneFlags = CloneFlags::CLONE_NEWUSER
    .union(CloneFlags::CLONE_NEWPID)
    .union(CloneFlags::CLONE_NEWNET)
    .union(CloneFlags::CLONE_NEWNS)
    .union(CloneFlags::CLONE_NEWIPC)
    .union(CloneFlags::CLONE_NEWUTS)
    .union(CloneFlags::CLONE_NEWCGROUP);

/// The lowest `pid_max` a PID namespace may have (Linux 6.14 and later make it per namespace):
/// the kernel then refuses a 300th task (threads count) however fast they fork.
const PID_MAX: &str = "301";
/// Private writable memory of each process: a 4 GB allocation fails, interpreters still start
/// (their large reservations are not writable, so they do not count).
const DATA_LIMIT: u64 = 1 << 30;
/// Largest file the command may write (its private `/tmp` is 64 MiB anyway).
const FILE_SIZE_LIMIT: u64 = 64 << 20;
/// Tasks (threads included) of the command's user in the namespace. The kernel does not enforce
/// this for root (the init's process count does it then, and `pid_max`).
const TASK_LIMIT: u64 = 128;

/// Folders that get a private, empty, writable tmpfs: (path, mount options).
const PRIVATE: [(&str, &str); 3] = [
    ("/tmp", "size=64m,nr_inodes=16384,mode=1777"),
    ("/var/tmp", "size=16m,nr_inodes=4096,mode=1777"),
    ("/dev/shm", "size=16m,nr_inodes=4096,mode=1777"),
];
/// Folders hidden under an empty tmpfs, read-only like the rest: they hold other programs'
/// sockets (D-Bus, the Docker daemon, agents), which a network namespace does not cut off, and
/// the terminals (`/dev/pts`) a probe must not open.
const HIDDEN: [&str; 3] = ["/run", "/var/run", "/dev/pts"];
const HIDDEN_OPTIONS: &str = "size=1m,nr_inodes=1024,mode=0755";
/// An isolated run's private home: what a client writes at its first start (its state, caches,
/// session logs).
const HOME_OPTIONS: &str = "size=256m,nr_inodes=65536,mode=0700";

/// Runs the stage named by `args` (after [`super::STAGE_ARG`]); returns the exit code.
pub fn stage(args: &[OsString]) -> i32 {
    match args.first().and_then(|a| a.to_str()) {
        Some("helper") => helper(
            args.get(1)
                .and_then(|a| a.to_str())
                .and_then(|s| s.parse().ok()),
        ),
        Some("init") => init(),
        Some("exec") => exec(&args[1..]),
        _ => 2,
    }
}

/// The channel to skillscope: stdin is one end of a socket pair.
fn channel() -> Option<UnixStream> {
    std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .map(UnixStream::from)
}

fn report(channel: &UnixStream, m: &Message) {
    if let Ok(mut line) = serde_json::to_vec(m) {
        line.push(b'\n');
        let mut w = channel;
        let _ = w.write_all(&line);
    }
}

/// A setup step that failed: the sandbox cannot be built here.
struct Failure {
    step: String,
    error: String,
}

fn at<T, E: std::fmt::Display>(step: &str, r: Result<T, E>) -> Result<T, Failure> {
    r.map_err(|e| Failure {
        step: step.to_string(),
        error: e.to_string(),
    })
}

/// First stage: makes the namespaces, maps skillscope's user to root in them, and starts the
/// init, which becomes PID 1 of the new PID namespace. Then waits for it.
fn helper(parent: Option<i32>) -> i32 {
    // Dies with skillscope. Started by it, so a different parent now means it is already gone.
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() || parent != Some(getppid().as_raw()) {
        return 1;
    }
    let Some(ch) = channel() else { return 1 };
    let (uid, gid) = (geteuid().as_raw(), getegid().as_raw());
    let made = at("unshare", unshare(NAMESPACES)).and_then(|()| map_ids(uid, gid));
    if let Err(f) = made {
        report(
            &ch,
            &Message::Failed {
                step: f.step,
                error: f.error,
            },
        );
        return 1;
    }
    let init = Command::new("/proc/self/exe")
        .arg(super::STAGE_ARG)
        .arg("init")
        .env_clear()
        .envs(super::STAGE_ENV)
        .current_dir("/")
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn();
    match init {
        Err(e) => {
            report(
                &ch,
                &Message::Failed {
                    step: "start the init".to_string(),
                    error: e.to_string(),
                },
            );
            1
        }
        Ok(mut child) => {
            report(&ch, &Message::Init { pid: child.id() });
            let _ = child.wait();
            0
        }
    }
}

/// Maps `uid`/`gid` of the parent namespace to root in the user namespace just made.
fn map_ids(uid: u32, gid: u32) -> Result<(), Failure> {
    at(
        "deny setgroups",
        std::fs::write("/proc/self/setgroups", "deny"),
    )?;
    at(
        "write uid_map",
        std::fs::write("/proc/self/uid_map", format!("0 {uid} 1")),
    )?;
    at(
        "write gid_map",
        std::fs::write("/proc/self/gid_map", format!("0 {gid} 1")),
    )
}

/// Second stage, PID 1 of the new PID namespace: builds the sandbox, runs the command, reports.
fn init() -> i32 {
    // Dies with the helper, hence with skillscope; the namespace dies with it.
    if prctl::set_pdeathsig(Signal::SIGKILL).is_err() {
        return 1;
    }
    close_inherited();
    let Some(ch) = channel() else { return 1 };
    // The spec arrives once the helper is known alive; end of file means skillscope is gone.
    let Some(spec) = read_spec(&ch) else { return 1 };
    if let Err(f) = setup(&spec).and_then(|()| no_terminal()) {
        report(
            &ch,
            &Message::Failed {
                step: f.step,
                error: f.error,
            },
        );
        return 1;
    }
    let child = Command::new(OsStr::from_bytes(&spec.program))
        .args(spec.args.iter().map(|a| OsStr::from_bytes(a)))
        .current_dir(Spec::path(&spec.cwd))
        .env_clear()
        .envs(
            spec.env
                .iter()
                .map(|(k, v)| (OsStr::from_bytes(k), OsStr::from_bytes(v))),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn();
    let child = match child {
        Ok(c) => c,
        Err(e) => {
            report(
                &ch,
                &Message::SpawnError {
                    errno: e.raw_os_error(),
                    error: e.to_string(),
                },
            );
            return 1;
        }
    };
    report(&ch, &Message::Started);
    let Ok(pid) = i32::try_from(child.id()) else {
        return 1;
    };
    let (status, left, limit) = watch(Pid::from_raw(pid));
    report(
        &ch,
        &Message::Exited {
            status,
            left,
            limit: limit.map(str::to_string),
        },
    );
    // Exiting kills every process left in the namespace.
    0
}

/// Leaves the terminal behind: a new session has no controlling terminal, so `/dev/tty` cannot
/// be opened, and the seccomp filter refuses the ioctls that type into, resize or take over any
/// terminal the command could still open. Called last, once the mounts are made (the filter
/// refuses `mount` and `unshare`).
fn no_terminal() -> Result<(), Failure> {
    at("leave the terminal (setsid)", nix::unistd::setsid())?;
    let program = at("build the seccomp filter", filter::build())?;
    at("install the seccomp filter", filter::install(&program))
}

/// Closes every descriptor but the three streams: whatever the caller of skillscope left open
/// (`skillscope probe … 9<secret`) is not the command's to read or write. The stages call it
/// first, while nothing of their own is open above stderr.
fn close_inherited() {
    let listed: Option<Vec<i32>> = std::fs::read_dir("/proc/self/fd").ok().map(|rd| {
        rd.flatten()
            .filter_map(|e| e.file_name().to_str()?.parse().ok())
            .collect()
    });
    // The listing's own descriptor is among them, closed already when its turn comes.
    let fds = listed.unwrap_or_else(|| {
        let (soft, _) = getrlimit(Resource::RLIMIT_NOFILE).unwrap_or((1024, 1024));
        (3..i32::try_from(soft.min(1 << 20)).unwrap_or(1024)).collect()
    });
    for fd in fds.into_iter().filter(|fd| *fd > 2) {
        let _ = nix::unistd::close(fd);
    }
}

/// Whether a `/dev` entry is a terminal: the pseudo-terminals and their multiplexer, the
/// controlling-terminal alias, the consoles and their screen memory.
fn is_terminal_device(name: &str) -> bool {
    matches!(name, "pts" | "ptmx" | "console") || name.starts_with("tty") || name.starts_with("vcs")
}

/// The process-group mode's wall around terminals, with Landlock where the kernel has it: every
/// access is granted beneath each top-level folder but `/dev`, and beneath `/dev` to everything
/// but its terminals ([`is_terminal_device`]), whose folder can only be listed. The command
/// reads and writes what the user can, as the mode says, but opens no terminal, also not
/// through another process's `/proc/PID/fd`.
fn terminal_wall() {
    let abi = ABI::V9;
    let all = AccessFs::from_all(abi);
    // Links are left out: a rule holds the inode a path leads to, and `/dev/stdin` leads
    // through `/proc/self/fd/0` to whatever terminal the stage was given.
    let entries = |dir: &str, keep: &dyn Fn(&str) -> bool| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .filter(|e| e.file_type().is_ok_and(|t| !t.is_symlink()))
                    .filter(|e| keep(&e.file_name().to_string_lossy()))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default()
    };
    let top = entries("/", &|n| n != "dev");
    let dev = entries("/dev", &|n| !is_terminal_device(n));
    let ruleset = Ruleset::default()
        .handle_access(all)
        .and_then(landlock::Ruleset::create)
        .and_then(|r| r.add_rules(path_beneath_rules(&top, all)))
        .and_then(|r| r.add_rules(path_beneath_rules(&dev, all)))
        .and_then(|r| r.add_rules(path_beneath_rules(["/dev"], AccessFs::ReadDir)));
    if let Ok(r) = ruleset {
        let _ = r.restrict_self();
    }
}

/// The process-group mode's stage: leaves the terminal (a new session, which is also the group
/// skillscope kills), installs the seccomp filter, then becomes the command (`args`: program
/// and its arguments; environment, folder and streams are already the command's). Returns only
/// when that fails: 126 (the sandbox could not be set up) or 127 (the command could not start),
/// with the reason on stderr.
fn exec(args: &[OsString]) -> i32 {
    let Some((program, rest)) = args.split_first() else {
        return 2;
    };
    close_inherited();
    terminal_wall();
    if let Err(f) = no_terminal() {
        eprintln!("skillscope sandbox: {}: {}", f.step, f.error);
        return 126;
    }
    let e = Command::new(program).args(rest).exec();
    eprintln!(
        "skillscope sandbox: cannot start {}: {e}",
        Path::new(program).display()
    );
    127
}

fn read_spec(ch: &UnixStream) -> Option<Spec> {
    let mut line = Vec::new();
    BufReader::new(ch)
        .take(16 << 20)
        .read_until(b'\n', &mut line)
        .ok()?;
    serde_json::from_slice(&line).ok()
}

/// Builds the sandbox around this process (and so around the command it starts): private
/// mounts, a private `/tmp`, a fresh `/proc`, everything else read-only and locked so, limits,
/// Landlock.
fn setup(spec: &Spec) -> Result<(), Failure> {
    at(
        "make the mounts private",
        mount(
            None::<&str>,
            "/",
            None::<&str>,
            MsFlags::MS_REC | MsFlags::MS_PRIVATE,
            None::<&str>,
        ),
    )?;
    // What must stay visible where it is, even inside a folder that gets hidden (the skill
    // folder, the program and its installation): opened now, bound back through
    // `/proc/self/fd` once the folder is covered. Shortest first, so a path inside one already
    // kept is not bound twice.
    let mut reveal: Vec<PathBuf> = spec.reveal.iter().map(|p| Spec::path(p)).collect();
    reveal.sort_by_key(|p| p.as_os_str().len());
    let mut keep: Vec<(PathBuf, File)> = Vec::new();
    for p in reveal {
        if keep.iter().any(|(k, _)| p.starts_with(k)) {
            continue;
        }
        if let Ok(f) = File::open(&p) {
            keep.push((p, f));
        }
    }
    // Private folders that a hidden one holds (`/var/tmp` in `/var`) get their place back in it.
    let private_there: Vec<bool> = PRIVATE
        .iter()
        .map(|(dir, _)| std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()))
        .collect();
    for dir in &spec.hide {
        cover(&Spec::path(dir), HIDDEN_OPTIONS, &keep)?;
    }
    let mut writable = Vec::new();
    for ((dir, options), there) in PRIVATE.into_iter().zip(private_there) {
        if there && !Path::new(dir).exists() {
            at(
                &format!("make {dir} in a hidden folder"),
                std::fs::create_dir_all(dir),
            )?;
        }
        if cover(Path::new(dir), options, &keep)? {
            writable.push(PathBuf::from(dir));
        }
    }
    if !writable.iter().any(|w| w == Path::new("/tmp")) {
        return Err(Failure {
            step: "private /tmp".to_string(),
            error: "the probed folder holds /tmp".to_string(),
        });
    }
    // After the private /tmp, which may hold them.
    writable.extend(isolated(spec, &keep)?);
    for dir in HIDDEN {
        cover(Path::new(dir), HIDDEN_OPTIONS, &keep)?;
    }
    relink(spec, &writable, &keep);
    at(
        "make the home folder",
        std::fs::create_dir_all(Spec::path(&spec.home)),
    )?;
    at(
        "mount /proc",
        mount(
            Some("proc"),
            "/proc",
            Some("proc"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
            None::<&str>,
        ),
    )?;
    // Linux before 6.14 has one pid_max for all; the process count below still holds then.
    let _ = std::fs::write("/proc/sys/kernel/pid_max", PID_MAX);
    read_only(&writable)?;
    // A user namespace inside this one locks every mount as it is now: the command, root in
    // it, cannot make any of them writable again.
    at(
        "lock the mounts (unshare)",
        unshare(CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNS),
    )?;
    map_ids(0, 0)?;
    // /proc stayed writable for the maps above; now it is read-only too.
    at(
        "read-only /proc",
        mount(
            None::<&str>,
            "/proc",
            None::<&str>,
            MsFlags::MS_BIND
                | MsFlags::MS_REMOUNT
                | MsFlags::MS_RDONLY
                | MsFlags::MS_NOSUID
                | MsFlags::MS_NODEV
                | MsFlags::MS_NOEXEC
                | MsFlags::MS_RELATIME,
            None::<&str>,
        ),
    )?;
    // An isolated run's client maps gigabytes of stacks and heaps: its memory is not capped.
    limits(spec.cpu_secs, spec.port.is_none())?;
    // The command must not read this process's memory (it holds nothing secret, but still).
    let _ = prctl::set_dumpable(false);
    let readable: Vec<PathBuf> = keep.iter().map(|(p, _)| p.clone()).collect();
    landlock(&writable, &readable, spec.port);
    at("no new privileges", prctl::set_no_new_privs())
}

/// What an isolated run adds: its loopback up (by this process, root of the namespace that owns
/// the network, before the mounts are locked; the command cannot), its private home, and its
/// project under a throwaway layer where the kernel allows one. Returns the writable places.
fn isolated(spec: &Spec, keep: &[(PathBuf, File)]) -> Result<Vec<PathBuf>, Failure> {
    if spec.port.is_some() {
        at("bring up the loopback", super::loopback::up())?;
    }
    let mut writable = Vec::new();
    if let Some(home) = &spec.private_home {
        writable.push(private_home(&Spec::path(home), keep)?);
    }
    if let Some(dir) = spec.layered.as_deref().map(Spec::path)
        && layer(&dir).is_ok()
    {
        writable.push(dir);
    }
    Ok(writable)
}

/// Makes an isolated run's symbolic links again where they were, each only where this sandbox
/// put an empty tmpfs (a hidden folder, a private folder, the private home) and outside every
/// path bound back, so nothing is written into a real folder. A place already taken (a link
/// inside a revealed folder is there anyway) is left as it is; a link that cannot be made
/// leaves the command's start to fail and say so.
fn relink(spec: &Spec, writable: &[PathBuf], keep: &[(PathBuf, File)]) {
    let covered: Vec<PathBuf> = spec
        .hide
        .iter()
        .map(|h| Spec::path(h))
        .chain(writable.iter().cloned())
        .collect();
    for (link, target) in &spec.links {
        let (link, target) = (Spec::path(link), Spec::path(target));
        let ours = covered.iter().any(|c| link.starts_with(c) && link != *c);
        if !ours
            || keep.iter().any(|(k, _)| link.starts_with(k))
            || std::fs::symlink_metadata(&link).is_ok()
        {
            continue;
        }
        if let Some(parent) = link.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::os::unix::fs::symlink(&target, &link);
    }
}

/// Lays a throwaway writable layer over `dir` (an overlay whose upper layer is in the private
/// `/tmp`): the command writes there as it likes, nothing reaches the folder. Refused by kernels
/// without overlays in user namespaces, and for paths an overlay's options cannot name; the
/// folder stays read-only then.
fn layer(dir: &Path) -> Result<(), Failure> {
    let text = dir.to_string_lossy();
    if text.contains([',', ':', '\\']) || !dir.is_dir() {
        return Err(Failure {
            step: "layer".to_string(),
            error: "not a folder an overlay can name".to_string(),
        });
    }
    let base = Path::new("/tmp/.skillscope-layer");
    let (upper, work) = (base.join("upper"), base.join("work"));
    at("make the layer", std::fs::create_dir_all(&upper))?;
    at("make the layer", std::fs::create_dir_all(&work))?;
    let options = format!(
        "lowerdir={text},upperdir={},workdir={},userxattr",
        upper.display(),
        work.display()
    );
    at(
        "mount the layer",
        mount(
            Some("overlay"),
            dir,
            Some("overlay"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
            Some(options.as_str()),
        ),
    )
}

/// Mounts the isolated run's private home: an empty writable tmpfs at `home` (made inside the
/// hidden folder holding it), with the kept paths below it bound back. Returns its path.
fn private_home(home: &Path, keep: &[(PathBuf, File)]) -> Result<PathBuf, Failure> {
    if keep.iter().any(|(k, _)| home.starts_with(k)) {
        return Err(Failure {
            step: "private home".to_string(),
            error: format!("{} is inside a folder kept visible", home.display()),
        });
    }
    at("make the private home", std::fs::create_dir_all(home))?;
    if !cover(home, HOME_OPTIONS, keep)? {
        return Err(Failure {
            step: "private home".to_string(),
            error: format!("{} is not a folder", home.display()),
        });
    }
    Ok(home.to_path_buf())
}

/// Mounts an empty tmpfs over `dir` (when it is a real folder and holds none of `keep`), and
/// binds back the kept paths inside it. Returns whether `dir` was covered.
fn cover(dir: &Path, options: &str, keep: &[(PathBuf, File)]) -> Result<bool, Failure> {
    let real_dir = std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir());
    if !real_dir || keep.iter().any(|(k, _)| dir.starts_with(k)) {
        return Ok(false);
    }
    let step = format!("mount a tmpfs on {}", dir.display());
    at(
        &step,
        mount(
            Some("tmpfs"),
            dir,
            Some("tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
            Some(options),
        ),
    )?;
    for (path, file) in keep.iter().filter(|(k, _)| k.starts_with(dir)) {
        let step = format!("keep {} visible", path.display());
        let is_dir = at(&step, file.metadata())?.is_dir();
        if is_dir {
            at(&step, std::fs::create_dir_all(path))?;
        } else {
            if let Some(parent) = path.parent() {
                at(&step, std::fs::create_dir_all(parent))?;
            }
            at(&step, File::create(path))?;
        }
        let source = format!("/proc/self/fd/{}", file.as_raw_fd());
        at(
            &step,
            mount(
                Some(source.as_str()),
                path,
                None::<&str>,
                MsFlags::MS_BIND | MsFlags::MS_REC,
                None::<&str>,
            ),
        )?;
    }
    Ok(true)
}

/// One line of `/proc/self/mountinfo`.
struct MountEntry {
    id: u64,
    parent: u64,
    point: PathBuf,
    options: String,
}

fn mount_table() -> Result<Vec<MountEntry>, Failure> {
    let text = at(
        "read the mount table",
        std::fs::read_to_string("/proc/self/mountinfo"),
    )?;
    Ok(text
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split(' ').collect();
            Some(MountEntry {
                id: f.first()?.parse().ok()?,
                parent: f.get(1)?.parse().ok()?,
                point: unescape(f.get(4)?),
                options: (*f.get(5)?).to_string(),
            })
        })
        .collect())
}

/// Undoes the octal escapes of the mount table (`\040` for a space, …).
fn unescape(field: &str) -> PathBuf {
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            let v = (b[i + 1] - b'0') * 64 + (b[i + 2] - b'0') * 8 + (b[i + 3] - b'0');
            out.push(v);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    PathBuf::from(OsStr::from_bytes(&out))
}

/// Is the mount at `i` hidden under one mounted later at its place or above it (and not below
/// it in the tree)? Such a mount cannot be reached by any path, so it needs no remount.
fn hidden(table: &[MountEntry], i: usize) -> bool {
    let mut ancestors = vec![table[i].id];
    let mut cur = table[i].parent;
    while let Some(p) = table.iter().find(|m| m.id == cur) {
        if ancestors.contains(&p.id) {
            break;
        }
        ancestors.push(p.id);
        cur = p.parent;
    }
    table[i + 1..]
        .iter()
        .any(|later| table[i].point.starts_with(&later.point) && !ancestors.contains(&later.id))
}

/// Remounts every reachable mount read-only, keeping the flags a user namespace may not clear,
/// except the private writable folders and `/proc` (made read-only later).
fn read_only(writable: &[PathBuf]) -> Result<(), Failure> {
    let table = mount_table()?;
    for (i, m) in table.iter().enumerate() {
        if writable.contains(&m.point) || m.point == Path::new("/proc") || hidden(&table, i) {
            continue;
        }
        let mut flags = MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_RDONLY;
        let mut atime = false;
        for o in m.options.split(',') {
            flags |= match o {
                "nosuid" => MsFlags::MS_NOSUID,
                "nodev" => MsFlags::MS_NODEV,
                "noexec" => MsFlags::MS_NOEXEC,
                "nodiratime" => MsFlags::MS_NODIRATIME,
                "noatime" => {
                    atime = true;
                    MsFlags::MS_NOATIME
                }
                "relatime" => {
                    atime = true;
                    MsFlags::MS_RELATIME
                }
                _ => MsFlags::empty(),
            };
        }
        if !atime {
            flags |= MsFlags::MS_STRICTATIME;
        }
        match mount(None::<&str>, &m.point, None::<&str>, flags, None::<&str>) {
            // Out of reach by path, for the command as for this process.
            Ok(()) | Err(Errno::ENOENT | Errno::EACCES) => {}
            Err(e) => {
                return Err(Failure {
                    step: format!("read-only remount of {}", m.point.display()),
                    error: e.to_string(),
                });
            }
        }
    }
    Ok(())
}

/// Resource limits, inherited by the command: CPU time, private memory, file size, tasks, no
/// core dumps. Never above a hard limit already in place.
fn limits(cpu_secs: u64, cap_memory: bool) -> Result<(), Failure> {
    let set = |resource: Resource, soft: u64, hard: u64| {
        let (_, now) = getrlimit(resource).map_err(|e| Failure {
            step: format!("read {resource:?}"),
            error: e.to_string(),
        })?;
        let hard = hard.min(now);
        at(
            &format!("set {resource:?}"),
            setrlimit(resource, soft.min(hard), hard),
        )
    };
    // SIGXCPU at the soft limit, SIGKILL a second later.
    set(Resource::RLIMIT_CPU, cpu_secs, cpu_secs.saturating_add(1))?;
    if cap_memory {
        set(Resource::RLIMIT_DATA, DATA_LIMIT, DATA_LIMIT)?;
    }
    set(Resource::RLIMIT_FSIZE, FILE_SIZE_LIMIT, FILE_SIZE_LIMIT)?;
    set(Resource::RLIMIT_NPROC, TASK_LIMIT, TASK_LIMIT)?;
    set(Resource::RLIMIT_CORE, 0, 0)
}

/// Landlock, where the kernel has it: reads only in the system folders, the private ones and
/// what was kept visible (`readable`); writes only inside the private folders (and to
/// `/dev/null`); no ioctl on any device but `/dev/null`; no TCP, no abstract sockets or signals
/// outside the sandbox. A second wall behind the mounts, so a kernel without it loses nothing
/// the mounts promise.
fn landlock(writable: &[PathBuf], readable: &[PathBuf], port: Option<u16>) {
    let abi = ABI::V9;
    let write = AccessFs::from_write(abi) & !BitFlags::from(AccessFs::IoctlDev);
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    let file = (write | read | AccessFs::IoctlDev) & AccessFs::from_file(abi);
    let system: Vec<PathBuf> = super::namespaces::SYSTEM
        .iter()
        .map(|d| Path::new("/").join(d))
        .filter(|p| p.exists())
        .collect();
    let ruleset = Ruleset::default()
        .handle_access(write | read | AccessFs::IoctlDev)
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(landlock::Ruleset::create)
        .and_then(|r| r.add_rules(path_beneath_rules(writable, write | read)))
        .and_then(|r| r.add_rules(path_beneath_rules(&system, read)))
        .and_then(|r| r.add_rules(path_beneath_rules(readable, read)))
        .and_then(|r| match PathFd::new("/dev/null") {
            Ok(null) => r.add_rule(PathBeneath::new(null, file)),
            Err(_) => Ok(r),
        })
        .and_then(|r| match port {
            Some(p) => r.add_rule(NetPort::new(p, AccessNet::BindTcp | AccessNet::ConnectTcp)),
            None => Ok(r),
        });
    if let Ok(r) = ruleset {
        let _ = r.restrict_self();
    }
}

/// The raw wait status of an ended process (as `waitpid` fills it).
fn raw_status(ws: WaitStatus) -> Option<(Pid, i32)> {
    match ws {
        WaitStatus::Exited(pid, code) => Some((pid, (code & 0xff) << 8)),
        WaitStatus::Signaled(pid, sig, core) => {
            Some((pid, sig as i32 | if core { 0x80 } else { 0 }))
        }
        _ => None,
    }
}

/// Processes in the namespace other than this init (its `/proc` shows only those).
fn others() -> usize {
    std::fs::read_dir("/proc").map_or(0, |d| {
        d.flatten()
            .filter(|e| {
                let name = e.file_name();
                let b = name.as_bytes();
                !b.is_empty() && b != b"1" && b.iter().all(u8::is_ascii_digit)
            })
            .count()
    })
}

/// Waits for the command, reaping every orphan re-parented to this init, and counts the
/// processes: over [`MAX_PROCESSES`] the whole namespace is ended. Returns the command's raw
/// status, how many processes were left, and the limit that stopped it.
fn watch(command: Pid) -> (i32, u32, Option<&'static str>) {
    let mut nap = Duration::from_millis(1);
    let mut ended = None;
    loop {
        loop {
            match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => break,
                Ok(ws) => {
                    if let Some((pid, raw)) = raw_status(ws)
                        && pid == command
                    {
                        ended = Some(raw);
                    }
                }
                Err(Errno::EINTR) => {}
                // No child left at all: the command is reaped (or was never there).
                Err(_) => {
                    ended = ended.or(Some(Signal::SIGKILL as i32));
                    break;
                }
            }
        }
        let n = others();
        if let Some(raw) = ended {
            return (raw, u32::try_from(n).unwrap_or(u32::MAX), None);
        }
        if n > MAX_PROCESSES {
            // The command is among them; exiting kills them all at once.
            let left = u32::try_from(n - 1).unwrap_or(u32::MAX);
            return (Signal::SIGKILL as i32, left, Some("processes"));
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_points_are_unescaped() {
        assert_eq!(unescape("/a\\040b"), PathBuf::from("/a b"));
        assert_eq!(unescape("/x\\134y"), PathBuf::from("/x\\y"));
        assert_eq!(unescape("/end\\04"), PathBuf::from("/end\\04"));
    }

    fn entry(id: u64, parent: u64, point: &str) -> MountEntry {
        MountEntry {
            id,
            parent,
            point: PathBuf::from(point),
            options: "rw".to_string(),
        }
    }

    #[test]
    fn a_mount_covered_later_is_hidden_but_its_own_children_are_not() {
        let table = [
            entry(1, 0, "/"),
            entry(2, 1, "/proc"),
            entry(3, 2, "/proc/sys/fs/binfmt_misc"),
            entry(4, 1, "/tmp"),
            entry(5, 1, "/proc"),
            entry(6, 4, "/tmp/skill"),
        ];
        let hidden: Vec<bool> = (0..table.len()).map(|i| hidden(&table, i)).collect();
        assert_eq!(hidden, [false, true, true, false, false, false]);
    }
}
