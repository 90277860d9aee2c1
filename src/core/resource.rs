//! A skill's files read by their path inside the skill folder, never outside it: absolute paths,
//! `..` and links that lead out are refused, and only regular files are opened (without blocking,
//! so a FIFO is an error rather than a hang).

use crate::core::files::fsx::{self, Stamp};
#[cfg(unix)]
use nix::fcntl::{OFlag, openat};
#[cfg(unix)]
use nix::sys::stat::Mode;
use std::fs::File;
use std::io::Read;
#[cfg(unix)]
use std::os::fd::AsFd;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// A file of a skill other than its SKILL.md: an L3 resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Path relative to the skill folder, with `/` separators.
    pub rel: String,
    /// Its size in bytes.
    pub size: u64,
    /// Modification and status-change times in nanoseconds since the epoch (0 when unknown),
    /// inode and device: with `size`, the stamp its counts are kept with.
    pub mtime_ns: u128,
    /// Status-change time in nanoseconds since the epoch (0 when unknown).
    pub ctime_ns: u128,
    /// Inode number.
    pub ino: u64,
    /// Device number.
    pub dev: u64,
    /// Text files are counted; binary ones are listed with their size only.
    pub text: bool,
    /// The local links of a markdown resource, once a rule has read them (kept in the index).
    pub links: OnceLock<Vec<String>>,
    /// Its token count per encoding (`Encoding::slot`), once counted (kept in the index with
    /// its stamp).
    pub tokens: [OnceLock<u32>; 2],
    /// Its stamp was taken by this load. False for a resource taken by name from the index
    /// ([`Resources::Names`](crate::core::scan::Resources::Names)): its stamp, kind and counts
    /// are the ones the index remembers, which its file may no longer have.
    pub fresh: bool,
}

impl Resource {
    /// A resource stat'ed by this load.
    pub fn new(rel: String, stamp: Stamp, text: bool) -> Resource {
        Resource {
            rel,
            size: stamp.len,
            mtime_ns: stamp.mtime_ns,
            ctime_ns: stamp.ctime_ns,
            ino: stamp.ino,
            dev: stamp.dev,
            text,
            links: OnceLock::new(),
            tokens: Default::default(),
            fresh: true,
        }
    }

    /// A resource as the index remembers it, not stat'ed by this load (see
    /// [`Resource::fresh`]).
    pub fn remembered(rel: String, stamp: Stamp, text: bool) -> Resource {
        Resource {
            fresh: false,
            ..Resource::new(rel, stamp, text)
        }
    }

    /// Takes the counts remembered for it (by an index record whose stamp vouches for it).
    pub fn with_tokens(self, tokens: [Option<u32>; 2]) -> Resource {
        for (slot, n) in self.tokens.iter().zip(tokens) {
            if let Some(n) = n {
                let _ = slot.set(n);
            }
        }
        self
    }

    /// Its path, in the skill folder `dir`.
    pub fn path_in(&self, dir: &Path) -> PathBuf {
        dir.join(&self.rel)
    }

    /// Its stamp, as the index keeps it.
    pub fn stamp(&self) -> Stamp {
        Stamp {
            len: self.size,
            mtime_ns: self.mtime_ns,
            ctime_ns: self.ctime_ns,
            ino: self.ino,
            dev: self.dev,
        }
    }
}

/// A file is text when its first 8 KiB hold no NUL and decode as UTF-8 (a cut multi-byte
/// character at the end of the sample is allowed).
pub fn looks_like_text(path: &Path) -> bool {
    let mut buf = [0u8; 8192];
    let Ok((mut f, _)) = fsx::open_regular(path) else {
        return false;
    };
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(_) => return false,
        }
    }
    let sample = &buf[..n];
    if sample.contains(&0) {
        return false;
    }
    match std::str::from_utf8(sample) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && n == buf.len(),
    }
}

/// Why a skill's file could not be read by its path inside the skill folder.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    /// No path was given.
    #[error("no file named: give a path inside the skill folder, such as `references/guide.md`")]
    Empty,
    /// The path is absolute.
    #[error("`{0}` is an absolute path: name the file by its path inside the skill folder")]
    Absolute(String),
    /// The path climbs out with `..`.
    #[error("`{0}` climbs out of the skill folder with `..`: name a file inside it")]
    Parent(String),
    /// A link leads outside the skill folder.
    #[error("`{rel}` leads outside the skill folder (to {}): refused", target.display())]
    Outside {
        /// The path as given.
        rel: String,
        /// Where it leads.
        target: PathBuf,
    },
    /// A folder on the path became a link while it was opened.
    #[error("`{0}` changed while it was opened (a folder on its path became a link): refused")]
    Swapped(String),
    /// Nothing of that name is in the skill folder.
    #[error("`{0}` is not in the skill folder")]
    NotFound(String),
    /// It is no regular file.
    #[error("`{rel}` is {kind}, not a regular file: refused")]
    NotRegular {
        /// The path as given.
        rel: String,
        /// What it is instead, in words.
        kind: &'static str,
    },
    /// It is larger than what is read.
    #[error("`{rel}` is {size} bytes, over the {max} bytes read here")]
    TooLarge {
        /// The path as given.
        rel: String,
        /// Its size in bytes.
        size: u64,
        /// The most that is read.
        max: u64,
    },
    /// It could not be read.
    #[error("cannot read `{rel}`: {source}")]
    Io {
        /// The path as given.
        rel: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The real path of `rel` inside `dir`, when it is one: relative, without `..`, and still inside
/// the folder once every link is followed. This is the rule the L3 walk and `show` share.
pub fn resolve_inside(dir: &Path, rel: &str) -> Result<PathBuf, ResourceError> {
    resolve(dir, rel).map(|(_, real)| real)
}

/// The folder's real path and the real path of `rel` inside it (see [`resolve_inside`]).
fn resolve(dir: &Path, rel: &str) -> Result<(PathBuf, PathBuf), ResourceError> {
    let rel_trim = rel.trim();
    if rel_trim.is_empty() {
        return Err(ResourceError::Empty);
    }
    let p = Path::new(rel);
    if p.is_absolute() || rel.starts_with('~') {
        return Err(ResourceError::Absolute(rel.to_string()));
    }
    if p.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(ResourceError::Parent(rel.to_string()));
    }
    let base = dir.canonicalize().map_err(io_error(rel))?;
    let real = match dir.join(p).canonicalize() {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ResourceError::NotFound(rel.to_string()));
        }
        Err(e) => return Err(io_error(rel)(e)),
    };
    if !real.starts_with(&base) {
        return Err(ResourceError::Outside {
            rel: rel.to_string(),
            target: real,
        });
    }
    Ok((base, real))
}

fn io_error(rel: &str) -> impl Fn(std::io::Error) -> ResourceError + '_ {
    move |source| ResourceError::Io {
        rel: rel.to_string(),
        source,
    }
}

/// Whether a file found under `dir` stays inside it once its links are followed.
pub fn stays_inside(dir: &Path, path: &Path) -> bool {
    match (dir.canonicalize(), path.canonicalize()) {
        (Ok(base), Ok(real)) => real.starts_with(base),
        _ => false,
    }
}

/// Opens the file `rel` names inside the folder `base` (its real path; `real` is the file's), by
/// handle: a folder on the path swapped for a link between [`resolve`] and the open cannot lead
/// it out. The kernel resolves `rel` beneath a handle on the folder where it can
/// ([`fsx::open_beneath`]); elsewhere the real path is walked one folder at a time, none of them
/// a link (`O_NOFOLLOW`). `O_NONBLOCK` makes opening a FIFO return at once; the type is then
/// checked on the open file itself.
#[cfg(unix)]
fn open_inside(base: &Path, real: &Path, rel: &str) -> Result<(File, u64), ResourceError> {
    let dir = nix::fcntl::open(base, FOLDER | OFlag::O_NOFOLLOW, Mode::empty())
        .map_err(|e| io_error(rel)(e.into()))?;
    let opened = match fsx::open_beneath(dir.as_fd(), Path::new(rel), READ) {
        Ok(Some(fd)) => fd,
        Ok(None) => walk_open(dir, base, real, rel)?,
        Err(e) => return Err(swapped(rel, e)),
    };
    let file = File::from(opened);
    let meta = file.metadata().map_err(io_error(rel))?;
    if !meta.file_type().is_file() {
        return Err(ResourceError::NotRegular {
            rel: rel.to_string(),
            kind: fsx::kind_of(meta.file_type()),
        });
    }
    Ok((file, meta.len()))
}

/// Opens the file `rel` names inside the folder `base` by its real path `real`, then checks that
/// the file opened is the one `real` still names and that `real` still leads nowhere else: a
/// folder on the path swapped for a link (or a junction) before the open is refused, as it is on
/// Unix, by what is found after it. Windows opens by path only, so the check comes after.
#[cfg(not(unix))]
fn open_inside(base: &Path, real: &Path, rel: &str) -> Result<(File, u64), ResourceError> {
    let file = File::open(real).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ResourceError::NotFound(rel.to_string())
        } else {
            io_error(rel)(e)
        }
    })?;
    let meta = file.metadata().map_err(io_error(rel))?;
    if !meta.file_type().is_file() {
        return Err(ResourceError::NotRegular {
            rel: rel.to_string(),
            kind: fsx::kind_of(meta.file_type()),
        });
    }
    let still = real
        .canonicalize()
        .is_ok_and(|now| now == real && now.starts_with(base))
        && match (
            file.try_clone().and_then(same_file::Handle::from_file),
            same_file::Handle::from_path(real),
        ) {
            (Ok(opened), Ok(there)) => opened == there,
            _ => false,
        };
    if !still {
        return Err(ResourceError::Swapped(rel.to_string()));
    }
    Ok((file, meta.len()))
}

/// A folder opened only to resolve names beneath it ([`fsx::LOOKUP`]: `O_PATH` on Linux, whose
/// search permission is enough, as it is for a path).
#[cfg(unix)]
const FOLDER: OFlag = fsx::LOOKUP
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_CLOEXEC);
#[cfg(unix)]
const READ: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_NONBLOCK)
    .union(OFlag::O_NOCTTY)
    .union(OFlag::O_CLOEXEC);

/// Opens `real` from `dir` (open on `base`) one folder at a time, refusing a link at every step:
/// `real` has none, so a link met there was swapped in after it was resolved.
#[cfg(unix)]
fn walk_open(
    dir: std::os::fd::OwnedFd,
    base: &Path,
    real: &Path,
    rel: &str,
) -> Result<std::os::fd::OwnedFd, ResourceError> {
    let below = real.strip_prefix(base).unwrap_or(real);
    let mut names: Vec<&std::ffi::OsStr> = below
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let Some(last) = names.pop() else {
        return Err(ResourceError::NotRegular {
            rel: rel.to_string(),
            kind: "a folder",
        });
    };
    let mut at = dir;
    for n in names {
        at = openat(&at, n, FOLDER | OFlag::O_NOFOLLOW, Mode::empty())
            .map_err(|e| swapped(rel, e.into()))?;
    }
    openat(&at, last, READ | OFlag::O_NOFOLLOW, Mode::empty()).map_err(|e| swapped(rel, e.into()))
}

/// The error for an open that failed after `rel` was found inside: its path changed since (a
/// folder on it became a link leading out, or any link where the walk allows none), or the file
/// is gone.
#[cfg(unix)]
fn swapped(rel: &str, e: std::io::Error) -> ResourceError {
    use nix::errno::Errno;
    match e.raw_os_error().map(Errno::from_raw) {
        Some(Errno::EXDEV | Errno::ELOOP | Errno::ENOTDIR) => {
            ResourceError::Swapped(rel.to_string())
        }
        _ if e.kind() == std::io::ErrorKind::NotFound => ResourceError::NotFound(rel.to_string()),
        _ => io_error(rel)(e),
    }
}

/// Reads `rel` inside `dir` as text (bad UTF-8 replaced), at most `max` bytes.
pub fn read_inside(dir: &Path, rel: &str, max: u64) -> Result<String, ResourceError> {
    let (base, real) = resolve(dir, rel)?;
    let (file, size) = open_inside(&base, &real, rel)?;
    if size > max {
        return Err(ResourceError::TooLarge {
            rel: rel.to_string(),
            size,
            max,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(max)
        .read_to_end(&mut bytes)
        .map_err(io_error(rel))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        std::fs::create_dir_all(d.join("references")).unwrap();
        std::fs::write(d.join("references/guide.md"), "# Guide\n").unwrap();
        std::fs::write(t.path().join("secret.txt"), "secret\n").unwrap();
        (t, d)
    }

    #[test]
    fn reads_a_file_inside_and_an_inward_link() {
        let (_t, d) = skill();
        assert_eq!(
            read_inside(&d, "references/guide.md", 1024).unwrap(),
            "# Guide\n"
        );
        crate::core::files::fsx::test_link("references/guide.md", d.join("link.md")).unwrap();
        assert_eq!(read_inside(&d, "link.md", 1024).unwrap(), "# Guide\n");
        assert_eq!(
            read_inside(&d, "./references/guide.md", 1024).unwrap(),
            "# Guide\n"
        );
    }

    #[test]
    fn refuses_parent_absolute_outward_links_and_missing_files() {
        let (t, d) = skill();
        let abs = t.path().join("secret.txt");
        crate::core::files::fsx::test_link(&abs, d.join("out.txt")).unwrap();
        let err = |rel: &str| read_inside(&d, rel, 1024).unwrap_err();
        assert!(matches!(err("../secret.txt"), ResourceError::Parent(_)));
        assert!(matches!(
            err("references/../../secret.txt"),
            ResourceError::Parent(_)
        ));
        assert!(matches!(
            err(abs.to_str().unwrap()),
            ResourceError::Absolute(_)
        ));
        assert!(matches!(err("out.txt"), ResourceError::Outside { .. }));
        assert!(matches!(err("nope.md"), ResourceError::NotFound(_)));
        assert!(matches!(err(""), ResourceError::Empty));
        assert!(matches!(
            err("references"),
            ResourceError::NotRegular {
                kind: "a folder",
                ..
            }
        ));
        assert!(
            err("out.txt")
                .to_string()
                .contains("outside the skill folder")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_an_error_not_a_hang() {
        let (_t, d) = skill();
        nix::unistd::mkfifo(&d.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let e = read_inside(&d, "pipe", 1024).unwrap_err();
        assert!(
            matches!(
                e,
                ResourceError::NotRegular {
                    kind: "a named pipe (FIFO)",
                    ..
                }
            ),
            "{e:?}"
        );
    }

    /// A skill whose `references` folder a thread keeps exchanging (`RENAME_EXCHANGE`, atomic)
    /// with a link to an outside folder holding a secret of the same name, while `read` reads
    /// `references/guide.md` 1,000 times. Returns how many reads gave the secret, and the text
    /// read once the swapping stopped. Linux only: `renameat2` is Linux's.
    #[cfg(target_os = "linux")]
    fn swap_race(read: impl Fn(&Path) -> Result<String, ResourceError>) -> (usize, String) {
        use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        std::fs::create_dir_all(d.join("references")).unwrap();
        std::fs::write(d.join("references/guide.md"), "inside\n").unwrap();
        let outside = t.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("guide.md"), "SECRET\n").unwrap();
        crate::core::files::fsx::test_link(&outside, d.join("swap")).unwrap();
        let stop = AtomicBool::new(false);
        let swaps = AtomicU64::new(0);
        let (a, b) = (d.join("references"), d.join("swap"));
        let leaks = std::thread::scope(|s| {
            let swapper = s.spawn(|| {
                while !stop.load(Ordering::Relaxed) || swaps.load(Ordering::Relaxed) % 2 == 1 {
                    renameat2(AT_FDCWD, &a, AT_FDCWD, &b, RenameFlags::RENAME_EXCHANGE).unwrap();
                    let n = swaps.fetch_add(1, Ordering::Relaxed);
                    // Each state held for a varying while, so that reads meet both and the
                    // moments between them.
                    std::thread::sleep(std::time::Duration::from_micros(n % 40));
                }
            });
            // The reads start once the folder is being swapped.
            while swaps.load(Ordering::Relaxed) == 0 {
                std::thread::yield_now();
            }
            let leaks = (0..1000)
                .filter(|_| read(&d).is_ok_and(|t| t.contains("SECRET")))
                .count();
            stop.store(true, Ordering::Relaxed);
            swapper.join().unwrap();
            leaks
        });
        assert!(d.join("references").is_dir() && d.join("swap").is_symlink());
        (leaks, read(&d).unwrap())
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_folder_swapped_for_an_outward_link_mid_read_leaks_nothing() {
        let (leaks, after) = swap_race(|d| read_inside(d, "references/guide.md", 1024));
        assert_eq!(leaks, 0, "reads that gave the outside file");
        assert_eq!(after, "inside\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_swapped_between_the_check_and_the_open_is_refused() {
        let (t, d) = skill();
        let rel = "references/guide.md";
        let (base, real) = resolve(&d, rel).unwrap();
        std::fs::create_dir(t.path().join("outside")).unwrap();
        std::fs::write(t.path().join("outside/guide.md"), "SECRET\n").unwrap();
        std::fs::rename(d.join("references"), d.join("kept")).unwrap();
        crate::core::files::fsx::test_link(t.path().join("outside"), d.join("references")).unwrap();
        for e in [
            open_inside(&base, &real, rel).unwrap_err(),
            walk_open(
                nix::fcntl::open(&base, FOLDER, Mode::empty()).unwrap(),
                &base,
                &real,
                rel,
            )
            .unwrap_err(),
        ] {
            assert!(matches!(e, ResourceError::Swapped(_)), "{e:?}");
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_walk_without_openat2_refuses_a_swapped_folder_too() {
        let (leaks, after) = swap_race(|d| {
            let rel = "references/guide.md";
            let (base, real) = resolve(d, rel)?;
            let dir = nix::fcntl::open(&base, FOLDER, Mode::empty()).unwrap();
            let mut text = String::new();
            File::from(walk_open(dir, &base, &real, rel)?)
                .read_to_string(&mut text)
                .unwrap();
            Ok(text)
        });
        assert_eq!(leaks, 0, "reads that gave the outside file");
        assert_eq!(after, "inside\n");
    }

    #[test]
    fn large_files_are_refused_before_reading() {
        let (_t, d) = skill();
        std::fs::write(d.join("big.txt"), vec![b'a'; 2048]).unwrap();
        assert!(matches!(
            read_inside(&d, "big.txt", 1024).unwrap_err(),
            ResourceError::TooLarge { size: 2048, .. }
        ));
    }
}
