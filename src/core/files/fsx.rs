//! Safe access to the files skillscope keeps or edits (its state, caches, probe store, the
//! agents' settings): only regular files are read, nothing blocks on a FIFO or a device, and
//! every read → merge → write happens under an exclusive lock on a sidecar file.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Overrides how long a writer waits for another one to finish (milliseconds).
pub const LOCK_WAIT_ENV: &str = "SKILLSCOPE_LOCK_TIMEOUT_MS";
/// How long a writer waits by default: far longer than any read → merge → write takes, short
/// enough that a stuck lock is reported while the user still waits for an answer.
pub const DEFAULT_LOCK_WAIT: Duration = Duration::from_secs(5);

/// Why a file could not be read, written or locked.
#[derive(Debug, thiserror::Error)]
pub enum FsxError {
    /// A FIFO, device, socket or folder where a regular file was expected.
    #[error("{}{} is {kind}, not a regular file; skillscope reads only regular files there", path.display(), through(.link.as_deref()))]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead, in words.
        kind: &'static str,
        /// Where the link at `path` leads, when it is one.
        link: Option<PathBuf>,
    },
    /// A settings, config or lock file larger than skillscope reads (see [`SETTINGS_MAX_BYTES`]).
    #[error(
        "{}{} holds {len} bytes, more than the {max} bytes skillscope reads from a settings, config or lock file; it was not read",
        path.display(), through(.link.as_deref())
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its length (at least this much: one byte past the cap when it grew while read).
        len: u64,
        /// The cap.
        max: u64,
        /// Where the link at `path` leads, when it is one.
        link: Option<PathBuf>,
    },
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    #[error(
        "{} is being changed by another skillscope: its lock {} was not free after {:.1} s; nothing was written, try again",
        target.display(), lock.display(), waited.as_secs_f64()
    )]
    /// Another skillscope held the lock for longer than the wait.
    Busy {
        /// The file being changed.
        target: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// How long the lock was waited for.
        waited: Duration,
    },
    /// The lock could not be taken.
    #[error("cannot lock {} (through {}): {source}", target.display(), lock.display())]
    Lock {
        /// The file being changed.
        target: PathBuf,
        /// Its lock file.
        lock: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl FsxError {
    /// What went wrong, without the file's name, for messages that name the file already.
    pub fn reason(&self) -> String {
        match self {
            FsxError::NotRegular { kind, link, .. } => {
                format!(
                    "it{} is {kind}, not a regular file",
                    through(link.as_deref())
                )
            }
            FsxError::TooLarge { len, max, link, .. } => format!(
                "it{} holds {len} bytes, more than the {max} bytes skillscope reads from a settings, config or lock file",
                through(link.as_deref())
            ),
            FsxError::Read { source, .. } => format!("cannot read it: {source}"),
            FsxError::Busy { lock, waited, .. } => format!(
                "another skillscope is changing it: its lock {} was not free after {:.1} s",
                lock.display(),
                waited.as_secs_f64()
            ),
            FsxError::Lock { lock, source, .. } => {
                format!("cannot lock it through {}: {source}", lock.display())
            }
        }
    }
}

/// `" (a link to T)"` for a link that leads to `T`, else nothing: how messages name what a link
/// at a settings file's place resolved to.
fn through(link: Option<&Path>) -> String {
    link.map_or_else(String::new, |t| format!(" (a link to {})", t.display()))
}

/// Where `path` leads when it is a symbolic link (every link on the way resolved; the link's own
/// text when it cannot be resolved), `None` when it is not a link.
fn link_target(path: &Path) -> Option<PathBuf> {
    std::fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.file_type().is_symlink())
        .map(|_| {
            std::fs::canonicalize(path)
                .or_else(|_| std::fs::read_link(path))
                .unwrap_or_default()
        })
}

/// Whether the file at `path` (its metadata `meta`) can be run: a run bit set on Unix; on
/// Windows, which has none, a program's extension (`.exe`, `.com`, `.bat`, `.cmd`).
pub fn runnable(path: &Path, meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = path;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            ["exe", "com", "bat", "cmd"]
                .iter()
                .any(|x| e.eq_ignore_ascii_case(x))
        })
    }
}

/// What a non-regular file is, in words (for messages about a file that should be regular).
#[cfg(unix)]
pub fn kind_of(ft: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_dir() {
        "a folder"
    } else if ft.is_fifo() {
        "a named pipe (FIFO)"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_char_device() {
        "a character device"
    } else if ft.is_block_device() {
        "a block device"
    } else {
        "not a file"
    }
}

/// What a non-regular file is, in words: on Windows a folder or a link (a device or a pipe has
/// no path in a folder there).
#[cfg(not(unix))]
pub fn kind_of(ft: std::fs::FileType) -> &'static str {
    if ft.is_dir() {
        "a folder"
    } else if ft.is_symlink() {
        "a link"
    } else {
        "not a file"
    }
}

/// Opens `opts` on `path` without waiting on a FIFO's writer or a device; the caller checks on
/// the open handle (no window for a swap between the check and the open) that it is a regular
/// file.
fn open_checked(path: &Path, opts: &mut OpenOptions) -> Result<File, std::io::Error> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK changes nothing for a regular file's reads and writes, so it stays set.
        opts.custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits());
    }
    // Windows keeps its pipes and devices out of folders (`\\.\pipe\`, `\\.\`): an open
    // by a folder's path does not wait.
    opts.open(path)
}

/// Opens `path` for reading unless it is a link (`O_NOFOLLOW`; on Windows the link itself is
/// opened, `FILE_FLAG_OPEN_REPARSE_POINT`, and refused), without waiting on a FIFO.
pub fn open_no_follow(path: &Path) -> std::io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK);
        opts.open(path)
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::OpenOptionsExt;
        const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
        opts.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT);
        let file = opts.open(path)?;
        if file.metadata()?.file_type().is_symlink() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "a link where a file was expected",
            ));
        }
        Ok(file)
    }
}

/// Reads exactly `buf.len()` bytes of `file` from `offset`, without moving a shared position.
pub fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, offset)
    }
    #[cfg(windows)]
    {
        use std::os::windows::fs::FileExt;
        let (mut buf, mut offset) = (buf, offset);
        while !buf.is_empty() {
            match file.seek_read(buf, offset) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// The bits of `meta`'s Unix mode skillscope keeps (the run bits and who may read and write);
/// on Windows, which has none, 0o444 with 0o222 added for a file that is not read-only.
pub fn mode_of(meta: &std::fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode()
    }
    #[cfg(not(unix))]
    {
        if meta.permissions().readonly() {
            0o444
        } else {
            0o666
        }
    }
}

/// Permissions of `mode` (see [`mode_of`]); on Windows only whether the file is read-only, of
/// `like`'s permissions (which are otherwise kept).
pub fn permissions(mode: u32, like: &std::fs::Metadata) -> std::fs::Permissions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = like;
        std::fs::Permissions::from_mode(mode)
    }
    #[cfg(not(unix))]
    {
        let mut p = like.permissions();
        p.set_readonly(mode & 0o222 == 0);
        p
    }
}

/// Makes a symbolic link at `link` to `target` (a link to a folder when `to_dir`: Windows makes
/// the two kinds apart, and may need the right to make links, or Developer Mode).
pub fn symlink(target: &Path, link: &Path, to_dir: bool) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let _ = to_dir;
        std::os::unix::fs::symlink(target, link)
    }
    #[cfg(windows)]
    {
        if to_dir {
            std::os::windows::fs::symlink_dir(target, link)
        } else {
            std::os::windows::fs::symlink_file(target, link)
        }
    }
}

/// Test set-up: a link at `link` to `target` (read from the link's folder when relative), made
/// as a folder link when the target is a folder, so the same set-up runs on every system.
/// This program's identity: its version and its executable's stat (length, times, inode), so
/// that findings remembered by another build are never taken for its own. `None` when the
/// executable cannot be looked at.
pub fn program_key() -> Option<&'static [u8; 32]> {
    static KEY: std::sync::OnceLock<Option<[u8; 32]>> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        let st = Stamp::of(&std::fs::metadata(exe).ok()?);
        let mut h = blake3::Hasher::new();
        h.update(env!("CARGO_PKG_VERSION").as_bytes());
        h.update(&st.len.to_le_bytes());
        h.update(&st.mtime_ns.to_le_bytes());
        h.update(&st.ctime_ns.to_le_bytes());
        h.update(&st.ino.to_le_bytes());
        h.update(&st.dev.to_le_bytes());
        Some(*h.finalize().as_bytes())
    })
    .as_ref()
}

#[cfg(test)]
pub(crate) fn test_link(target: impl AsRef<Path>, link: impl AsRef<Path>) -> std::io::Result<()> {
    let (target, link) = (target.as_ref(), link.as_ref());
    let resolved = link
        .parent()
        .map_or_else(|| target.to_path_buf(), |up| up.join(target));
    symlink(target, link, resolved.is_dir())
}

/// What [`open_regular`] refuses: a pipe, socket, device or folder where a file was expected.
#[derive(Debug, thiserror::Error)]
#[error("not a regular file (a pipe, socket, device or folder)")]
pub struct NotRegular;

/// The error for a path that is not a regular file.
pub fn not_regular() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, NotRegular)
}

/// Whether `e` is [`not_regular`].
pub fn is_not_regular(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(
        <dyn std::error::Error + std::marker::Send + std::marker::Sync + 'static>::is::<NotRegular>,
    )
}

/// Opens a file of a skill for reading, and only if it is a regular file. The open does not block
/// (`O_NONBLOCK`: a pipe with no writer would hang a plain open or read), and the type is checked
/// on the open file (`fstat`), so a path swapped for a pipe after a stat is refused too.
pub fn open_regular(path: &Path) -> std::io::Result<(File, std::fs::Metadata)> {
    let file = open_checked(path, OpenOptions::new().read(true))?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    Ok((file, meta))
}

fn ensure_regular(path: &Path, file: &File) -> Result<(), FsxError> {
    let meta = file.metadata().map_err(|source| FsxError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.file_type().is_file() {
        Ok(())
    } else {
        Err(FsxError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_of(meta.file_type()),
            link: link_target(path),
        })
    }
}

/// The whole content of `path` when it is a regular file; `None` when nothing is there. A
/// FIFO, device, socket or folder is an error naming the file, returned at once.
pub fn read_regular(path: &Path) -> Result<Option<Vec<u8>>, FsxError> {
    read_regular_up_to(path, u64::MAX)
}

/// [`read_regular`] for a cache file that is only worth reading when small enough: one larger
/// than `max_len` bytes is `None`, as if it were not there, and never held in memory whole.
pub fn read_regular_up_to(path: &Path, max_len: u64) -> Result<Option<Vec<u8>>, FsxError> {
    let Some((file, len)) = open_regular_up_to(path, max_len)? else {
        return Ok(None);
    };
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    // The file may grow between the stat and the read: read at most one byte past the limit.
    file.take(max_len.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| FsxError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    Ok((bytes.len() as u64 <= max_len).then_some(bytes))
}

/// Opens `path` for reading as [`read_regular_up_to`] would read it, for a reader that streams
/// it: the open file and its length then, or `None` when nothing is there or it is longer than
/// `max_len`. The length is the stat's: a reader that trusts it checks that it met the end there.
pub fn open_regular_up_to(path: &Path, max_len: u64) -> Result<Option<(File, u64)>, FsxError> {
    let file = match open_checked(path, OpenOptions::new().read(true)) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            // A folder cannot always be opened for reading; say what it is rather than why the
            // open failed.
            if let Ok(meta) = std::fs::metadata(path)
                && !meta.is_file()
            {
                return Err(FsxError::NotRegular {
                    path: path.to_path_buf(),
                    kind: kind_of(meta.file_type()),
                    link: link_target(path),
                });
            }
            return Err(FsxError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    ensure_regular(path, &file)?;
    let len = file
        .metadata()
        .map_err(|source| FsxError::Read {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    Ok((len <= max_len).then_some((file, len)))
}

/// The most skillscope reads from one settings, config or lock file (an agent's settings, its
/// own config and state, a lock file or manifest): far more than any real one holds, little
/// enough to hold in memory. A larger file is an error naming it, never read.
pub const SETTINGS_MAX_BYTES: u64 = 16 << 20;

/// The one reader of every settings, config and lock file, of every agent and of skillscope
/// itself: the whole content of `path` when it is a regular file of at most
/// [`SETTINGS_MAX_BYTES`]; `None` when nothing is there (a dangling link included). A link is
/// followed, and what it leads to is checked as the file itself would be: a FIFO, device,
/// socket or folder is [`FsxError::NotRegular`] and a longer file [`FsxError::TooLarge`], each
/// naming the file and where the link led, returned at once (the open never waits, the type is
/// checked on the open handle, and at most one byte past the cap is ever read).
pub fn read_settings(path: &Path) -> Result<Option<Vec<u8>>, FsxError> {
    read_capped(path, SETTINGS_MAX_BYTES)
}

/// [`read_settings`] with a cap of `max` bytes.
pub fn read_capped(path: &Path, max: u64) -> Result<Option<Vec<u8>>, FsxError> {
    let Some((file, len)) = open_regular_up_to(path, u64::MAX)? else {
        return Ok(None);
    };
    let too_large = |len: u64| FsxError::TooLarge {
        path: path.to_path_buf(),
        len,
        max,
        link: link_target(path),
    };
    if len > max {
        return Err(too_large(len));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    // The file may grow between the stat and the read: read at most one byte past the cap.
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|source| FsxError::Read {
            path: path.to_path_buf(),
            source,
        })?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(Some(bytes))
}

/// The sidecar that serialises writers of `target`: `.<name>.lock` in the same folder, there
/// only while a writer holds it (see [`lock`]).
pub fn lock_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.lock"))
}

/// How long to wait for a lock: `$SKILLSCOPE_LOCK_TIMEOUT_MS`, else [`DEFAULT_LOCK_WAIT`].
pub fn lock_wait() -> Duration {
    std::env::var(LOCK_WAIT_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(DEFAULT_LOCK_WAIT, Duration::from_millis)
}

/// An exclusive lock on a file's sidecar, released when dropped: the sidecar is removed while
/// still held, then closed (closing releases it, also when the process dies).
#[derive(Debug)]
pub struct FileLock {
    file: Option<File>,
    path: PathBuf,
}

impl FileLock {
    /// The sidecar file held.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Removed before it is unlocked: a writer waiting on this file finds, once it holds
        // it, that the path no longer names it, and takes a new one (see `lock`). Nothing is
        // left in the agents' folders.
        let _ = std::fs::remove_file(&self.path);
        drop(self.file.take());
    }
}

/// What tells the file or folder `path` leads to from any other, while it exists: its device
/// and inode.
#[cfg(unix)]
pub fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(path)?;
    Ok((meta.dev(), meta.ino()))
}

/// What tells the file or folder `path` leads to from any other, while it exists: a digest of
/// its volume and file index (std reads those only on nightly; `same_file` compares them).
#[cfg(windows)]
pub fn identity(path: &Path) -> std::io::Result<(u64, u64)> {
    use std::hash::{Hash, Hasher};
    let handle = same_file::Handle::from_path(path)?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    handle.hash(&mut h);
    Ok((h.finish(), 0))
}

/// Whether `path` still names the open `file` (same device and inode).
#[cfg(unix)]
fn still_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `path` still names the open `file` (same volume and file index).
#[cfg(windows)]
fn still_at(file: &File, path: &Path) -> bool {
    let (Ok(held), Ok(there)) = (
        file.try_clone().and_then(same_file::Handle::from_file),
        same_file::Handle::from_path(path),
    ) else {
        return false;
    };
    held == there
}

/// Takes the exclusive lock of `target` (see [`lock_path`]), waiting up to `wait` for another
/// writer to finish. A link is locked where it points, so two names of one file share a lock.
///
/// The sidecar lives only while held: the holder removes it before it unlocks. A writer that
/// opened it meanwhile and then gets the lock sees that the path no longer names its file and
/// opens the path again, so two writers never hold two different files at once.
pub fn lock(target: &Path, wait: Duration) -> Result<FileLock, FsxError> {
    let target = match std::fs::symlink_metadata(target) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf())
        }
        _ => target.to_path_buf(),
    };
    let lock = lock_path(&target);
    let fail = |source: std::io::Error| FsxError::Lock {
        target: target.clone(),
        lock: lock.clone(),
        source,
    };
    let start = Instant::now();
    loop {
        if let Some(dir) = lock.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        // Empty, but private like the files skillscope keeps beside it.
        let mut opts = OpenOptions::new();
        opts.read(true).write(true).create(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, crate::core::files::paths::PRIVATE_FILE);
        let file = open_checked(&lock, &mut opts).map_err(fail)?;
        ensure_regular(&lock, &file)?;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) => {
                    let waited = start.elapsed();
                    if waited >= wait {
                        return Err(FsxError::Busy {
                            target,
                            lock,
                            waited,
                        });
                    }
                    std::thread::sleep(Duration::from_millis(10).min(wait.saturating_sub(waited)));
                }
                Err(TryLockError::Error(e)) => return Err(fail(e)),
            }
        }
        if still_at(&file, &lock) {
            return Ok(FileLock {
                file: Some(file),
                path: lock,
            });
        }
        // The holder before removed it: this file is no one's lock any more.
    }
}

/// A file's modification time in nanoseconds since the epoch (0 when unknown).
pub fn mtime_ns(meta: &std::fs::Metadata) -> u128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
}

/// What a file's stat says of its identity, as far as skillscope's caches trust it: length,
/// modification and status-change times (nanoseconds since the epoch, 0 when unknown), inode and
/// device, the fields git's index keeps. The change time catches what the others miss: an edit
/// that keeps the length and puts the mtime back (`cp -p`, `tar x`, `rsync -t`, `touch -r`)
/// still moves it, and no user call can set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stamp {
    /// Length in bytes.
    pub len: u64,
    /// 0 is "do not trust" in a remembered stat (unknown, or too recent when taken).
    pub mtime_ns: u128,
    /// Status-change time in nanoseconds since the epoch (0 when unknown).
    pub ctime_ns: u128,
    /// Inode number.
    pub ino: u64,
    /// Device number.
    pub dev: u64,
}

/// How recent a modification must be for its stat to be distrusted: file systems stamp times
/// from a coarse clock, so a second write in the same tick would leave the stat as it was.
pub const RACY_WINDOW_NS: u128 = 2_000_000_000;

impl Stamp {
    /// The stat of `meta`, as [`std::fs::metadata`] or [`std::fs::File::metadata`] gave it.
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                len: meta.len(),
                mtime_ns: epoch_ns(meta.mtime(), meta.mtime_nsec()),
                ctime_ns: epoch_ns(meta.ctime(), meta.ctime_nsec()),
                ino: meta.ino(),
                dev: meta.dev(),
            }
        }
        #[cfg(not(unix))]
        Stamp {
            len: meta.len(),
            mtime_ns: mtime_ns(meta),
            ..Stamp::default()
        }
    }

    #[cfg(unix)]
    fn of_raw(st: &nix::sys::stat::FileStat) -> Stamp {
        Stamp {
            len: u64::try_from(st.st_size).unwrap_or(0),
            mtime_ns: epoch_ns(st.st_mtime, st.st_mtime_nsec),
            ctime_ns: epoch_ns(st.st_ctime, st.st_ctime_nsec),
            ino: st.st_ino,
            // A `u64` on Linux, an `i32` on macOS: widened as std's `MetadataExt::dev` does.
            #[allow(clippy::unnecessary_cast)]
            dev: st.st_dev as u64,
        }
    }

    /// Whether the file was modified within [`RACY_WINDOW_NS`] before `taken_ns`, or at an
    /// unknown time: another write in the same tick could then leave the stat as it is. Judged
    /// by the mtime alone, as git's index judges it: the ctime of a file whose mtime was put
    /// back is always recent, and such a file is told apart by its ctime already.
    pub fn racy(&self, taken_ns: u128) -> bool {
        self.mtime_ns == 0 || self.mtime_ns.saturating_add(RACY_WINDOW_NS) > taken_ns
    }

    /// The stat to remember for something stat'ed at `taken_ns`: a racy one (see
    /// [`Stamp::racy`]) is stored as untrusted.
    pub fn settled(self, taken_ns: u128) -> Stamp {
        if self.racy(taken_ns) {
            Stamp {
                mtime_ns: 0,
                ..self
            }
        } else {
            self
        }
    }

    /// Whether a remembered stat vouches for a fresh one: it was trusted, and every field is
    /// the same.
    pub fn vouches_for(&self, fresh: &Stamp) -> bool {
        self.mtime_ns != 0 && self == fresh
    }
}

/// Seconds and nanoseconds since the epoch as nanoseconds (0 when before it).
#[cfg(unix)]
fn epoch_ns(secs: i64, nsecs: i64) -> u128 {
    match (u128::try_from(secs), u128::try_from(nsecs)) {
        (Ok(s), Ok(n)) => s * 1_000_000_000 + n,
        _ => 0,
    }
}

/// Now, in nanoseconds since the epoch.
pub fn now_ns() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// How a folder is opened only to look names up beneath it: `O_PATH` where the kernel has such
/// opens (search permission is enough, as for a path), elsewhere a read-only open.
#[cfg(target_os = "linux")]
pub const LOOKUP: nix::fcntl::OFlag = nix::fcntl::OFlag::O_PATH;
/// See the Linux version.
#[cfg(all(unix, not(target_os = "linux")))]
pub const LOOKUP: nix::fcntl::OFlag = nix::fcntl::OFlag::O_RDONLY;

/// A folder held open to stat files below it by their relative path, so that the kernel does not
/// walk the folder's own path again for each of them (what a warm scan does for every resource).
pub struct Dir {
    #[cfg(unix)]
    fd: Option<std::os::fd::OwnedFd>,
    path: PathBuf,
}

impl Dir {
    /// Opens `path` for lookups only (`O_PATH`); when that fails, every stat takes the full path.
    #[cfg(unix)]
    pub fn open(path: &Path) -> Dir {
        use nix::fcntl::OFlag;
        // Lookups only where the kernel has such opens; elsewhere a read-only open of the folder.
        let flags = LOOKUP | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC;
        Dir {
            fd: nix::fcntl::open(path, flags, nix::sys::stat::Mode::empty()).ok(),
            path: path.to_path_buf(),
        }
    }

    /// Keeps `path`: on Windows every stat takes the full path.
    #[cfg(not(unix))]
    pub fn open(path: &Path) -> Dir {
        Dir {
            path: path.to_path_buf(),
        }
    }

    /// Whether stats below it go through an open handle rather than the full path.
    #[cfg_attr(not(unix), allow(clippy::unused_self))]
    fn held(&self) -> bool {
        #[cfg(unix)]
        return self.fd.is_some();
        #[cfg(not(unix))]
        false
    }

    /// What is at `rel` below the folder, links followed: `Some` stat for a regular file, `None`
    /// for anything else (a folder, a pipe, a device); the error when it cannot be stat'ed.
    pub fn stat(&self, rel: &Path) -> std::io::Result<Option<Stamp>> {
        self.stat_any(rel)
            .map(|(st, regular)| regular.then_some(st))
    }

    /// The stat of whatever is at `rel` below the folder (the folder itself when `rel` is empty),
    /// links followed, and whether it is a regular file.
    pub fn stat_any(&self, rel: &Path) -> std::io::Result<(Stamp, bool)> {
        let rel = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            let st = nix::sys::stat::fstatat(fd, rel, nix::fcntl::AtFlags::empty())
                .map_err(std::io::Error::from)?;
            let regular = st.st_mode & nix::libc::S_IFMT == nix::libc::S_IFREG;
            return Ok((Stamp::of_raw(&st), regular));
        }
        stat_path(&self.path.join(rel))
    }
}

/// The stat of whatever is at `path`, links followed, and whether it is a regular file.
pub fn stat_path(path: &Path) -> std::io::Result<(Stamp, bool)> {
    let m = std::fs::metadata(path)?;
    Ok((Stamp::of(&m), m.is_file()))
}

/// The files of one folder, stat'ed relative to a folder held open: an ancestor shared by many
/// folders (a library root: no open per skill folder), or the folder itself.
pub enum Within<'a> {
    /// A folder below an open ancestor.
    Below(&'a Dir, &'a Path),
    /// A folder opened on its own.
    Own(Dir),
}

impl<'a> Within<'a> {
    /// `dir`, reached from `ancestor` (held open) when it lies below it, else opened itself.
    pub fn new(ancestor: &'a Dir, dir: &'a Path) -> Within<'a> {
        match crate::core::files::paths::strip_prefix(dir, &ancestor.path) {
            Some(below) if ancestor.held() => Within::Below(ancestor, below),
            _ => Within::Own(Dir::open(dir)),
        }
    }

    /// [`Dir::stat`] of `rel` below the folder.
    pub fn stat(&self, rel: &Path) -> std::io::Result<Option<Stamp>> {
        match self {
            Within::Below(d, below) if below.as_os_str().is_empty() => d.stat(rel),
            Within::Below(d, below) => d.stat(&below.join(rel)),
            Within::Own(d) => d.stat(rel),
        }
    }

    /// The stat of the regular file at `rel` below the folder, links followed; `None` when there
    /// is none.
    pub fn regular_file(&self, rel: &Path) -> Option<Stamp> {
        self.stat(rel).ok().flatten()
    }

    /// The stat of the folder itself.
    pub fn stat_self(&self) -> std::io::Result<Stamp> {
        match self {
            Within::Below(d, below) => d.stat_any(below),
            Within::Own(d) => d.stat_any(Path::new("")),
        }
        .map(|(st, _)| st)
    }
}

/// A path as the bytes the cache files store (its OS bytes on Unix).
#[cfg(unix)]
pub fn path_bytes(p: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    p.as_os_str().as_bytes().to_vec()
}

/// The path stored as [`path_bytes`].
#[cfg(unix)]
pub fn bytes_path(b: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(b))
}

/// A path as the bytes the cache files store: its UTF-8 on Windows.
#[cfg(not(unix))]
pub fn path_bytes(p: &Path) -> Vec<u8> {
    p.to_string_lossy().as_bytes().to_vec()
}

/// The path stored as [`path_bytes`].
#[cfg(not(unix))]
pub fn bytes_path(b: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(b).into_owned())
}

/// Opens `rel` below the folder `dir` is open on, with every link on the way followed by the
/// kernel but never out of that folder (`openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_MAGICLINKS`): a path that leads out, however late one of its folders is swapped for
/// a link, fails with `EXDEV`. `Ok(None)` when the kernel offers no such open (before Linux 5.6,
/// other systems, or a seccomp filter that refuses the call): the caller then walks the path
/// itself.
#[cfg(target_os = "linux")]
pub fn open_beneath(
    dir: std::os::fd::BorrowedFd<'_>,
    rel: &Path,
    flags: nix::fcntl::OFlag,
) -> std::io::Result<Option<std::os::fd::OwnedFd>> {
    use nix::errno::Errno;
    use nix::fcntl::{OpenHow, ResolveFlag};
    let how = OpenHow::new()
        .flags(flags | nix::fcntl::OFlag::O_CLOEXEC)
        .resolve(ResolveFlag::RESOLVE_BENEATH | ResolveFlag::RESOLVE_NO_MAGICLINKS);
    match nix::fcntl::openat2(dir, rel, how) {
        Ok(fd) => Ok(Some(fd)),
        // ENOSYS: no openat2; EPERM: a container's seccomp filter that does not know it.
        Err(Errno::ENOSYS | Errno::EPERM) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// See the Linux version: elsewhere the caller always walks the path itself.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn open_beneath(
    _dir: std::os::fd::BorrowedFd<'_>,
    _rel: &Path,
    _flags: nix::fcntl::OFlag,
) -> std::io::Result<Option<std::os::fd::OwnedFd>> {
    Ok(None)
}

/// The running sum a [`Checksummed`] file ends with.
pub trait RunningSum: Default {
    /// Adds the next bytes.
    fn add(&mut self, bytes: &[u8]);
    /// The sum of every byte added, as it is written at the file's end.
    fn sum(&self) -> Vec<u8>;
}

/// blake3's 32 bytes: the token cache's sum.
impl RunningSum for blake3::Hasher {
    fn add(&mut self, bytes: &[u8]) {
        self.update(bytes);
    }
    fn sum(&self) -> Vec<u8> {
        self.finalize().as_bytes().to_vec()
    }
}

/// CRC-32 (IEEE), little-endian: the library index's sum. The index is read whole on every warm
/// run and its sum only has to tell a torn or damaged file (anyone who can edit the file can
/// write any sum), which CRC-32 does at a small fraction of blake3's cost.
#[derive(Default)]
pub struct Crc32(crc32fast::Hasher);

impl RunningSum for Crc32 {
    fn add(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn sum(&self) -> Vec<u8> {
        self.0.clone().finalize().to_le_bytes().to_vec()
    }
}

/// A file with a checksum at its end (the library index, the token cache), written as it is
/// encoded: bytes go out through a buffer of [`Checksummed::PIECE`] bytes and are hashed a
/// piece at a time (blake3 hashes a large piece many blocks at a time, a small one a block at a
/// time), so the file is never held whole in memory. [`Checksummed::finish`] writes the sum.
pub struct Checksummed<O: std::io::Write, S: RunningSum>(std::io::BufWriter<Hashing<O, S>>);

/// Writes to `out`, hashing every byte that went out.
struct Hashing<O, S> {
    out: O,
    hasher: S,
}

impl<O: std::io::Write, S: RunningSum> std::io::Write for Hashing<O, S> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(bytes)?;
        self.hasher.add(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl<O: std::io::Write, S: RunningSum> Checksummed<O, S> {
    /// The size of the pieces written and hashed.
    pub const PIECE: usize = 256 * 1024;

    /// A writer that hashes everything it passes to `out`.
    pub fn new(out: O) -> Self {
        Checksummed(std::io::BufWriter::with_capacity(
            Self::PIECE,
            Hashing {
                out,
                hasher: S::default(),
            },
        ))
    }

    /// Writes what is buffered, then the sum of everything written, and hands the writer back.
    pub fn finish(self) -> std::io::Result<O> {
        let mut inner = self
            .0
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        let sum = inner.hasher.sum();
        inner.out.write_all(&sum)?;
        inner.out.flush()?;
        Ok(inner.out)
    }
}

impl<O: std::io::Write, S: RunningSum> std::io::Write for Checksummed<O, S> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.write(bytes)
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.write_all(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checksummed_file_is_its_bytes_then_their_hash_however_they_were_written() {
        use std::io::Write;
        let big: Vec<u8> = (0..700_000u32).map(|i| (i % 251) as u8).collect();
        fn written<S: RunningSum>(big: &[u8]) -> Vec<u8> {
            let mut w = Checksummed::<_, S>::new(Vec::new());
            w.write_all(b"head").unwrap();
            for chunk in big.chunks(1000) {
                w.write_all(chunk).unwrap();
            }
            w.write_all(big).unwrap();
            w.write_all(b"tail").unwrap();
            w.finish().unwrap()
        }
        let mut want = b"head".to_vec();
        want.extend_from_slice(&big);
        want.extend_from_slice(&big);
        want.extend_from_slice(b"tail");
        let mut blake = want.clone();
        blake.extend_from_slice(blake3::hash(&want).as_bytes());
        assert_eq!(written::<blake3::Hasher>(&big), blake);
        let mut crc = want.clone();
        crc.extend_from_slice(&crc32fast::hash(&want).to_le_bytes());
        assert_eq!(written::<Crc32>(&big), crc);
    }

    #[test]
    fn a_regular_file_is_read_and_a_missing_one_is_none() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("f.json");
        assert!(read_regular(&p).unwrap().is_none());
        std::fs::write(&p, b"{}").unwrap();
        assert_eq!(read_regular(&p).unwrap().as_deref(), Some(&b"{}"[..]));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_a_folder_and_a_device_are_errors_naming_the_file() {
        let t = tempfile::tempdir().unwrap();
        let fifo = t.path().join("state.json");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // Without a writer on the other end, a blocking open would never return.
        let e = read_regular(&fifo).unwrap_err();
        assert!(matches!(e, FsxError::NotRegular { .. }), "{e}");
        let msg = e.to_string();
        assert!(
            msg.contains(&fifo.display().to_string()) && msg.contains("FIFO"),
            "{msg}"
        );
        let e = read_regular(t.path()).unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        let e = read_regular(Path::new("/dev/null")).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn the_settings_reader_refuses_a_link_to_a_device_a_fifo_and_a_file_past_the_cap() {
        let t = tempfile::tempdir().unwrap();
        let zero = t.path().join("settings.json");
        crate::core::files::fsx::test_link("/dev/zero", &zero).unwrap();
        let e = read_settings(&zero).unwrap_err();
        assert!(matches!(e, FsxError::NotRegular { .. }), "{e}");
        assert!(
            e.to_string().starts_with(&format!(
                "{} (a link to /dev/zero) is a character device",
                zero.display()
            )),
            "{e}"
        );
        let fifo = t.path().join("fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let via = t.path().join("config.toml");
        crate::core::files::fsx::test_link(&fifo, &via).unwrap();
        let e = read_settings(&via).unwrap_err();
        assert!(e.reason().contains("is a named pipe (FIFO)"), "{e}");
        let fifo = fifo.canonicalize().unwrap();
        assert!(e.reason().contains(&fifo.display().to_string()), "{e}");
        // A sparse file: its length is past the cap, and none of it is read.
        let big = t.path().join("openclaw.json");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(SETTINGS_MAX_BYTES + 1)
            .unwrap();
        let e = read_settings(&big).unwrap_err();
        assert!(
            matches!(e, FsxError::TooLarge { len, max, .. } if len == SETTINGS_MAX_BYTES + 1 && max == SETTINGS_MAX_BYTES),
            "{e}"
        );
        std::fs::write(&big, b"{}").unwrap();
        assert_eq!(read_settings(&big).unwrap().as_deref(), Some(&b"{}"[..]));
        let dangling = t.path().join("gone.json");
        crate::core::files::fsx::test_link(t.path().join("nowhere"), &dangling).unwrap();
        assert!(read_settings(&dangling).unwrap().is_none());
        assert!(read_settings(&t.path().join("absent")).unwrap().is_none());
    }

    #[test]
    fn a_held_lock_makes_the_next_writer_wait_then_give_up() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("sub/state.json");
        let held = lock(&target, Duration::ZERO).unwrap();
        assert_eq!(held.path(), t.path().join("sub/.state.json.lock"));
        let e = lock(&target, Duration::from_millis(30)).unwrap_err();
        assert!(matches!(e, FsxError::Busy { .. }), "{e}");
        assert!(e.to_string().contains("state.json"), "{e}");
        drop(held);
        lock(&target, Duration::ZERO).unwrap();
    }

    #[test]
    fn a_released_lock_leaves_no_file_and_a_waiting_writer_takes_a_new_one() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("settings.json");
        let held = lock(&target, Duration::ZERO).unwrap();
        let sidecar = held.path().to_path_buf();
        assert!(sidecar.exists());
        // A writer that opened the sidecar while it was held gets it once released, sees it
        // is gone, and locks a new one: never two holders at once.
        let waiting = {
            let target = target.clone();
            std::thread::spawn(move || {
                let l = lock(&target, Duration::from_secs(10)).unwrap();
                let there = l.path().exists();
                // The holder's file is the one at the path.
                let third = lock(&target, Duration::ZERO);
                (there, matches!(third, Err(FsxError::Busy { .. })))
            })
        };
        std::thread::sleep(Duration::from_millis(100));
        drop(held);
        let (there, busy) = waiting.join().unwrap();
        assert!(there, "the second writer holds a file that is at the path");
        assert!(busy, "a third writer waits for the second");
        assert!(!sidecar.exists(), "nothing left once every writer is done");
        assert_eq!(
            std::fs::read_dir(t.path()).unwrap().count(),
            0,
            "no lock file left beside the target"
        );
    }

    #[test]
    fn a_lock_on_a_link_is_the_lock_of_its_target() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real.json");
        std::fs::write(&real, "{}").unwrap();
        let link = t.path().join("link.json");
        crate::core::files::fsx::test_link(&real, &link).unwrap();
        let _held = lock(&real, Duration::ZERO).unwrap();
        assert!(matches!(
            lock(&link, Duration::ZERO),
            Err(FsxError::Busy { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_lock_path_is_refused_without_blocking() {
        let t = tempfile::tempdir().unwrap();
        let target = t.path().join("state.json");
        nix::unistd::mkfifo(&lock_path(&target), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let e = lock(&target, Duration::ZERO).unwrap_err();
        assert!(matches!(e, FsxError::NotRegular { .. }), "{e}");
    }
}
