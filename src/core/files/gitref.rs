//! A folder as it was at a git commit, copied out of the object store (`git ls-tree` and
//! `git cat-file`) into a temporary folder: the work tree and the index are never touched.

#[cfg(unix)]
use nix::errno::Errno;
#[cfg(unix)]
use nix::fcntl::{OFlag, openat};
#[cfg(unix)]
use nix::sys::stat::Mode;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
#[cfg(unix)]
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why a folder could not be read from git.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// git could not be started.
    #[error("cannot run git: {0}")]
    Spawn(std::io::Error),
    /// git ran and failed.
    #[error("git {args} failed: {stderr}")]
    Failed {
        /// The git command's arguments.
        args: String,
        /// What git said.
        stderr: String,
    },
    /// The folder is in no git repository.
    #[error("{0} is not inside a git work tree")]
    NotInRepo(PathBuf),
    /// The reference names no commit.
    #[error("`{0}` is not a commit-ish git reference")]
    BadRef(String),
    /// git answered something unexpected.
    #[error("git returned something unexpected: {0}")]
    Protocol(String),
    /// A tree object could not be read.
    #[error("the tree is refused: {0}")]
    BadTree(String),
    /// A file of the copy could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// What a copy left out, so the caller can say so.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Materialized {
    /// Files written.
    pub files: usize,
    /// Symlinks not in the copy: each leads outside the copied folder, nowhere, or could not be
    /// checked. The target is kept, as the tree holds it.
    pub skipped_links: Vec<SkippedLink>,
    /// Submodules: their content is another repository's.
    pub skipped_submodules: Vec<String>,
    /// The folder did not exist at that commit.
    pub missing: bool,
}

/// A symlink of the tree that is not in the copy, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedLink {
    /// Its path inside the copied folder.
    pub path: String,
    /// Where it points, as the tree holds it.
    pub target: String,
    /// Why it is not in the copy.
    pub why: LinkSkip,
}

/// Why a symlink of the tree is not in the copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(unix), allow(dead_code))]
pub enum LinkSkip {
    /// Followed for real in the copy, it leaves the copied folder.
    Outside,
    /// It leads to nothing in the copy, or round in a loop.
    Nowhere,
    /// This system cannot resolve a link beneath a folder (no `openat2`): no link is copied.
    Unchecked,
    /// Its target is longer than any path this system resolves (`PATH_MAX`).
    TooLong,
}

impl LinkSkip {
    /// Why, for people.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkSkip::Outside => "leads outside",
            LinkSkip::Nowhere => "leads nowhere",
            LinkSkip::Unchecked => "not checked",
            LinkSkip::TooLong => "target too long",
        }
    }
}

/// Settings for reading a repository that is not the user's own (a `file://` source read in
/// place): no transport at all, so a missing object of a partial clone is never fetched through
/// a command its settings name, and no hook or fsmonitor daemon.
pub const SEALED: &[&str] = &[
    "protocol.allow=never",
    "core.hooksPath=/dev/null",
    "core.fsmonitor=false",
];

fn git(dir: &Path, sealed: bool) -> Command {
    let mut c = Command::new("git");
    if sealed {
        for s in SEALED {
            c.arg("-c").arg(s);
        }
        // git 2.45.1 and later: no object is fetched lazily, whatever the settings.
        c.env("GIT_NO_LAZY_FETCH", "1");
    }
    c.arg("-C").arg(dir);
    // Read-only: no index refresh, no lock files, no pager, no prompts.
    c.env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE");
    c
}

fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    run_as(dir, args, false)
}

fn run_as(dir: &Path, args: &[&str], sealed: bool) -> Result<Vec<u8>, GitError> {
    let out = git(dir, sealed)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(GitError::Spawn)?;
    if !out.status.success() {
        return Err(GitError::Failed {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
}

/// The repository's top folder and `path`'s place in it (`/`-separated, empty for the top).
pub fn locate(path: &Path) -> Result<(PathBuf, String), GitError> {
    let abs = crate::core::files::paths::absolute(path);
    // The folder may be gone from the work tree (deleted since the commit): ask its nearest
    // existing ancestor and keep the rest of the path.
    let mut existing = abs.as_path();
    let mut tail: Vec<String> = Vec::new();
    while !existing.is_dir() {
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            return Err(GitError::NotInRepo(path.to_path_buf()));
        };
        tail.push(name.to_string_lossy().into_owned());
        existing = parent;
    }
    let out = run(existing, &["rev-parse", "--show-toplevel", "--show-prefix"])
        .map_err(|_| GitError::NotInRepo(path.to_path_buf()))?;
    let text = String::from_utf8_lossy(&out);
    let mut lines = text.lines();
    let top = PathBuf::from(lines.next().unwrap_or_default());
    let mut prefix = lines
        .next()
        .unwrap_or_default()
        .trim_end_matches('/')
        .to_string();
    for t in tail.iter().rev() {
        if !prefix.is_empty() {
            prefix.push('/');
        }
        prefix.push_str(t);
    }
    Ok((top, prefix))
}

/// Resolves `reference` to a commit id, refusing anything that would read as an option.
pub fn resolve(top: &Path, reference: &str) -> Result<String, GitError> {
    if reference.is_empty() || reference.starts_with('-') || reference.contains('\0') {
        return Err(GitError::BadRef(reference.to_string()));
    }
    let spec = format!("{reference}^{{commit}}");
    let out = run(
        top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
    )
    .map_err(|_| GitError::BadRef(reference.to_string()))?;
    let id = String::from_utf8_lossy(&out).trim().to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(GitError::BadRef(reference.to_string()));
    }
    Ok(id)
}

struct Entry {
    mode: String,
    kind: String,
    id: String,
    /// The path below the copied folder, as git stores it (bytes, `/`-separated).
    rel: Vec<u8>,
}

impl Entry {
    fn shown(&self) -> String {
        String::from_utf8_lossy(&self.rel).into_owned()
    }
}

/// A name or path as git stores it (bytes), as the system names files: the bytes themselves on
/// Unix; on Windows, whose names are Unicode, their UTF-8 (git writes names there in UTF-8), and
/// bytes that are not UTF-8 are refused rather than guessed at.
#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)]
fn os_name(bytes: &[u8]) -> Result<&OsStr, GitError> {
    Ok(OsStr::from_bytes(bytes))
}

/// See the Unix version.
#[cfg(not(unix))]
fn os_name(bytes: &[u8]) -> Result<&OsStr, GitError> {
    std::str::from_utf8(bytes).map(OsStr::new).map_err(|_| {
        GitError::BadTree(format!(
            "`{}` is not UTF-8, which names files here",
            String::from_utf8_lossy(bytes)
        ))
    })
}

/// Every entry of the tree of `commit` below `prefix`, with its path relative to it.
fn ls_tree(top: &Path, commit: &str, prefix: &str, sealed: bool) -> Result<Vec<Entry>, GitError> {
    let mut args = vec!["ls-tree", "-r", "-z", "--full-tree", commit];
    if !prefix.is_empty() {
        args.push("--");
        args.push(prefix);
    }
    let out = run_as(top, &args, sealed)?;
    let mut entries = Vec::new();
    for rec in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let bad = || GitError::Protocol(String::from_utf8_lossy(rec).into_owned());
        let tab = rec.iter().position(|b| *b == b'\t').ok_or_else(bad)?;
        let (meta, path) = (String::from_utf8_lossy(&rec[..tab]), &rec[tab + 1..]);
        let mut m = meta.split(' ');
        let (Some(mode), Some(kind), Some(id)) = (m.next(), m.next(), m.next()) else {
            return Err(bad());
        };
        // `-- prefix` also matches `prefix-other`; keep the folder itself only.
        let rel = if prefix.is_empty() {
            Some(path)
        } else if path == prefix.as_bytes() {
            Some(&path[..0])
        } else {
            path.strip_prefix(prefix.as_bytes())
                .and_then(|r| r.strip_prefix(b"/"))
        };
        if let Some(rel) = rel {
            entries.push(Entry {
                mode: mode.to_string(),
                kind: kind.to_string(),
                id: id.to_string(),
                rel: rel.to_vec(),
            });
        }
    }
    Ok(entries)
}

/// Refuses a tree that could not be written as it reads: a path that is not plain names (`.`,
/// `..`, empty parts), a path listed twice, or a path that is both a file (or link) and a folder
/// (entries `git fetch` accepts but a folder cannot hold).
fn check_tree(entries: &[Entry]) -> Result<(), GitError> {
    use std::collections::HashSet;
    let mut files: HashSet<&[u8]> = HashSet::with_capacity(entries.len());
    let mut folders: HashSet<&[u8]> = HashSet::new();
    for e in entries {
        let rel = e.rel.as_slice();
        if rel.is_empty() {
            // The folder itself is a file at the commit: fine alone, not beside its content.
            if entries.len() > 1 {
                return Err(GitError::BadTree(
                    "the folder is both a file and a folder".to_string(),
                ));
            }
            continue;
        }
        if rel
            .split(|b| *b == b'/')
            .any(|n| matches!(n, b"" | b"." | b".."))
        {
            return Err(GitError::BadTree(format!(
                "`{}` is not a plain path",
                e.shown()
            )));
        }
        if !files.insert(rel) {
            return Err(GitError::BadTree(format!("`{}` appears twice", e.shown())));
        }
        for (i, b) in rel.iter().enumerate() {
            if *b == b'/' {
                folders.insert(&rel[..i]);
            }
        }
    }
    if let Some(both) = files.iter().find(|f| folders.contains(*f)) {
        return Err(GitError::BadTree(format!(
            "`{}` is both a file or link and a folder",
            String::from_utf8_lossy(both)
        )));
    }
    Ok(())
}

/// The copy being written: a folder skillscope made itself, held open, and the folders below it
/// open along the path of the last file written. Every folder is made here and opened without
/// following a link, and every file is created new (`O_EXCL | O_NOFOLLOW`) in one of them, so
/// nothing is ever written through a link, whatever the tree holds.
#[cfg(unix)]
struct Copy {
    root: OwnedFd,
    open: Vec<(Vec<u8>, OwnedFd)>,
}

/// The copy being written, on Windows: the folder skillscope made itself (new: nothing was in
/// it), where every folder is made here and every file created new, by its path. Links are
/// never made there (see [`place_links`]), so no path in it leads through one.
#[cfg(not(unix))]
struct Copy {
    root: PathBuf,
}

#[cfg(not(unix))]
impl Copy {
    fn create(dest: &Path) -> Result<Copy, GitError> {
        std::fs::create_dir(dest).map_err(write_err(dest))?;
        Ok(Copy {
            root: dest.to_path_buf(),
        })
    }

    /// Creates the file `rel` new (its folders made if need be).
    fn new_file(&mut self, rel: &[u8]) -> Result<std::fs::File, GitError> {
        let path = self.root.join(os_name(rel)?);
        let err = write_err(&path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(&err)?;
        }
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(err)
    }
}

#[cfg(unix)]
const FOLDER: OFlag = OFlag::O_RDONLY
    .union(OFlag::O_DIRECTORY)
    .union(OFlag::O_NOFOLLOW)
    .union(OFlag::O_CLOEXEC);

#[cfg(unix)]
impl Copy {
    fn create(dest: &Path) -> Result<Copy, GitError> {
        let err = write_err(dest);
        std::fs::create_dir(dest).map_err(&err)?;
        let root = nix::fcntl::open(dest, FOLDER, Mode::empty()).map_err(|e| err(e.into()))?;
        Ok(Copy {
            root,
            open: Vec::new(),
        })
    }

    /// The folder that holds `rel`, made if need be, and the name of `rel` in it.
    fn parent<'a>(
        &mut self,
        dest: &Path,
        rel: &'a [u8],
    ) -> Result<(BorrowedFd<'_>, &'a OsStr), GitError> {
        let mut names: Vec<&[u8]> = rel.split(|b| *b == b'/').collect();
        let name = OsStr::from_bytes(names.pop().unwrap_or_default());
        let same = self
            .open
            .iter()
            .zip(&names)
            .take_while(|((open, _), want)| open.as_slice() == **want)
            .count();
        self.open.truncate(same);
        for n in &names[same..] {
            let at = self
                .open
                .last()
                .map_or(self.root.as_fd(), |(_, fd)| fd.as_fd());
            let path = dest.join(OsStr::from_bytes(rel));
            let err = write_err(&path);
            match nix::sys::stat::mkdirat(at, OsStr::from_bytes(n), Mode::from_bits_truncate(0o755))
            {
                // Made earlier, when the tree does not list a folder's entries together.
                Ok(()) | Err(Errno::EEXIST) => {}
                Err(e) => return Err(err(e.into())),
            }
            let fd = openat(at, OsStr::from_bytes(n), FOLDER, Mode::empty())
                .map_err(|e| err(e.into()))?;
            self.open.push((n.to_vec(), fd));
        }
        let at = self
            .open
            .last()
            .map_or(self.root.as_fd(), |(_, fd)| fd.as_fd());
        Ok((at, name))
    }

    /// Creates the file `rel` new (`O_EXCL | O_NOFOLLOW`) in its folder, made if need be.
    fn new_file(&mut self, dest: &Path, rel: &[u8]) -> Result<std::fs::File, GitError> {
        let path = dest.join(os_name(rel)?);
        let err = write_err(&path);
        let (at, name) = self.parent(dest, rel)?;
        let flags =
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        let fd =
            openat(at, name, flags, Mode::from_bits_truncate(0o644)).map_err(|e| err(e.into()))?;
        Ok(std::fs::File::from(fd))
    }
}

fn write_err(path: &Path) -> impl Fn(std::io::Error) -> GitError {
    let path = path.to_path_buf();
    move |source| GitError::Write {
        path: path.clone(),
        source,
    }
}

/// Copies the folder `prefix` of `commit` into `dest` (made here; it must not exist), which
/// receives the folder's content. Symlinks are made last, then each is followed for real beneath
/// the copy (`openat2` with `RESOLVE_BENEATH`): one that leaves it, or leads nowhere, is removed
/// and reported. Reading the copy afterwards can then never leave it.
pub fn materialize(
    top: &Path,
    commit: &str,
    prefix: &str,
    dest: &Path,
) -> Result<Materialized, GitError> {
    copy_out(top, commit, prefix, dest, false)
}

/// [`materialize`] from a repository that is not the user's own, with git [`SEALED`]: no
/// transport, no lazy fetch, no hook.
pub fn materialize_sealed(
    top: &Path,
    commit: &str,
    prefix: &str,
    dest: &Path,
) -> Result<Materialized, GitError> {
    copy_out(top, commit, prefix, dest, true)
}

fn copy_out(
    top: &Path,
    commit: &str,
    prefix: &str,
    dest: &Path,
    sealed: bool,
) -> Result<Materialized, GitError> {
    let entries = ls_tree(top, commit, prefix, sealed)?;
    check_tree(&entries)?;
    let mut report = Materialized {
        missing: entries.is_empty(),
        ..Materialized::default()
    };
    let mut copy = Copy::create(dest)?;
    let mut blobs: Vec<&Entry> = Vec::new();
    for e in &entries {
        match e.kind.as_str() {
            "commit" => report.skipped_submodules.push(e.shown()),
            // A root that was a file, not a folder, holds no skills.
            "blob" if !e.rel.is_empty() => blobs.push(e),
            _ => {}
        }
    }
    if blobs.is_empty() {
        return Ok(report);
    }
    let mut child = git(top, sealed)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(GitError::Spawn)?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(GitError::Protocol("no pipes to git cat-file".into()));
    };
    let ids: Vec<String> = blobs.iter().map(|e| e.id.clone()).collect();
    // Written from another thread: git answers while it reads, and both pipes are finite.
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        for id in ids {
            writeln!(stdin, "{id}")?;
        }
        Ok(())
    });
    let mut reader = BufReader::new(stdout);
    let mut links: Vec<(&Entry, Vec<u8>)> = Vec::new();
    let mut result = Ok(());
    let mut written = 0u64;
    for e in &blobs {
        let placed = blob_size(&mut reader, &e.id).and_then(|size| {
            if e.mode == "120000" {
                match read_link_target(&mut reader, size)? {
                    Some(target) => links.push((e, target)),
                    None => report.skipped_links.push(SkippedLink {
                        path: e.shown(),
                        target: format!("({size} bytes)"),
                        why: LinkSkip::TooLong,
                    }),
                }
            } else {
                written = within_caps(&e.shown(), size, written)?;
                write_file(&mut copy, dest, e, &mut reader, size)?;
            }
            end_of_blob(&mut reader)
        });
        if let Err(err) = placed {
            result = Err(err);
            break;
        }
        report.files += usize::from(e.mode != "120000");
    }
    drop(reader);
    let _ = writer.join();
    let status = child.wait().map_err(GitError::Spawn)?;
    result?;
    if !status.success() {
        return Err(GitError::Failed {
            args: "cat-file --batch".into(),
            stderr: format!("exit status {status}"),
        });
    }
    place_links(&mut copy, dest, links, &mut report)?;
    Ok(report)
}

/// Largest file a baseline copy writes: a blob can pack to a few bytes and unpack to gigabytes.
const MAX_BLOB: u64 = 1 << 30;
/// Most bytes a baseline copy writes in all.
const MAX_COPY: u64 = 2 << 30;
/// Longest link target kept: no system resolves a longer path (`PATH_MAX`).
const MAX_LINK: u64 = 4096;

/// The bytes a copy has written once a file of `size` is added to the `written` before it,
/// or the error that says which cap the file passes.
fn within_caps(shown: &str, size: u64, written: u64) -> Result<u64, GitError> {
    let total = written.saturating_add(size);
    if size > MAX_BLOB || total > MAX_COPY {
        return Err(GitError::BadTree(format!(
            "{shown} is {size} bytes: a baseline copy takes files up to {} MiB and {} MiB in all",
            MAX_BLOB >> 20,
            MAX_COPY >> 20
        )));
    }
    Ok(total)
}

/// Reads the header `git cat-file --batch` gives blob `id`; returns its size.
fn blob_size(reader: &mut impl BufRead, id: &str) -> Result<u64, GitError> {
    let mut header = String::new();
    reader
        .by_ref()
        .take(256)
        .read_line(&mut header)
        .map_err(|e| GitError::Protocol(e.to_string()))?;
    let mut parts = header.trim_end().split(' ');
    let (Some(got), Some(_kind), Some(size)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(GitError::Protocol(header));
    };
    if got != id {
        return Err(GitError::Protocol(header));
    }
    size.parse().map_err(|_| GitError::Protocol(header.clone()))
}

/// The newline after a blob's bytes.
fn end_of_blob(reader: &mut impl BufRead) -> Result<(), GitError> {
    let mut nl = [0u8; 1];
    reader
        .read_exact(&mut nl)
        .map_err(|e| GitError::Protocol(e.to_string()))
}

/// A link's target of `size` bytes, or `None` (its bytes read past) when it is longer than
/// [`MAX_LINK`].
fn read_link_target(reader: &mut impl BufRead, size: u64) -> Result<Option<Vec<u8>>, GitError> {
    let short = size <= MAX_LINK;
    let mut target = Vec::new();
    let mut part = reader.by_ref().take(size);
    let got = if short {
        part.read_to_end(&mut target)
    } else {
        std::io::copy(&mut part, &mut std::io::sink()).map(|n| n as usize)
    }
    .map_err(|e| GitError::Protocol(e.to_string()))?;
    if got as u64 != size {
        return Err(GitError::Protocol(format!(
            "a blob ended after {got} of {size} bytes"
        )));
    }
    Ok(short.then_some(target))
}

/// Streams a blob of `size` bytes from `reader` into its file of the copy: memory stays bounded
/// whatever the size.
fn write_file(
    copy: &mut Copy,
    dest: &Path,
    e: &Entry,
    reader: &mut impl BufRead,
    size: u64,
) -> Result<(), GitError> {
    let path = dest.join(os_name(&e.rel)?);
    let err = write_err(&path);
    #[cfg(unix)]
    let mut f = copy.new_file(dest, &e.rel)?;
    #[cfg(not(unix))]
    let mut f = copy.new_file(&e.rel)?;
    let got = std::io::copy(&mut reader.by_ref().take(size), &mut f).map_err(&err)?;
    if got != size {
        return Err(GitError::Protocol(format!(
            "a blob ended after {got} of {size} bytes"
        )));
    }
    // A modification time of 0 reads as "unknown": the token cache then never remembers the
    // copy's temporary paths (it still finds every count by the content's hash).
    f.set_modified(std::time::UNIX_EPOCH).map_err(&err)?;
    #[cfg(unix)]
    if e.mode == "100755" {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o755))
            .map_err(&err)?;
    }
    Ok(())
}

/// Makes the tree's symlinks, then keeps only those that, followed for real, stay beneath the
/// copy. Removing one can only leave another leading nowhere (never outside), so the check runs
/// again until every link left resolves.
#[cfg(unix)]
fn place_links(
    copy: &mut Copy,
    dest: &Path,
    links: Vec<(&Entry, Vec<u8>)>,
    report: &mut Materialized,
) -> Result<(), GitError> {
    let skip = |e: &Entry, target: &[u8], why| SkippedLink {
        path: e.shown(),
        target: String::from_utf8_lossy(target).into_owned(),
        why,
    };
    let probe = crate::core::files::fsx::open_beneath(
        copy.root.as_fd(),
        Path::new("."),
        crate::core::files::fsx::LOOKUP,
    );
    if !matches!(probe, Ok(Some(_))) {
        report
            .skipped_links
            .extend(links.iter().map(|(e, t)| skip(e, t, LinkSkip::Unchecked)));
        return Ok(());
    }
    let mut kept = Vec::with_capacity(links.len());
    for (e, target) in links {
        let (at, name) = copy.parent(dest, &e.rel)?;
        // A target holding a NUL byte is no path.
        match nix::unistd::symlinkat(OsStr::from_bytes(&target), at, name) {
            Ok(()) => kept.push((e, target)),
            Err(Errno::EINVAL | Errno::ENOENT) => {
                report
                    .skipped_links
                    .push(skip(e, &target, LinkSkip::Nowhere));
            }
            Err(Errno::ENAMETOOLONG) => {
                report
                    .skipped_links
                    .push(skip(e, &target, LinkSkip::TooLong));
            }
            Err(err) => return Err(write_err(&dest.join(OsStr::from_bytes(&e.rel)))(err.into())),
        }
    }
    loop {
        let mut removed = false;
        let mut still = Vec::with_capacity(kept.len());
        for (e, target) in kept {
            let beneath = crate::core::files::fsx::open_beneath(
                copy.root.as_fd(),
                Path::new(OsStr::from_bytes(&e.rel)),
                crate::core::files::fsx::LOOKUP,
            );
            let why = match beneath {
                Ok(Some(_)) => {
                    still.push((e, target));
                    continue;
                }
                Err(err) if err.raw_os_error() == Some(Errno::EXDEV as i32) => LinkSkip::Outside,
                Ok(None) => LinkSkip::Unchecked,
                Err(_) => LinkSkip::Nowhere,
            };
            let (at, name) = copy.parent(dest, &e.rel)?;
            nix::unistd::unlinkat(at, name, nix::unistd::UnlinkatFlags::NoRemoveDir)
                .map_err(|err| write_err(&dest.join(OsStr::from_bytes(&e.rel)))(err.into()))?;
            report.skipped_links.push(skip(e, &target, why));
            removed = true;
        }
        kept = still;
        if !removed {
            break;
        }
    }
    report.files += kept.len();
    Ok(())
}

/// On Windows no link of the tree is made: each is reported unchecked, as where the kernel
/// cannot follow one beneath the copy (making links there may also need a right users lack).
#[cfg(not(unix))]
#[allow(clippy::unnecessary_wraps)]
fn place_links(
    _copy: &mut Copy,
    _dest: &Path,
    links: Vec<(&Entry, Vec<u8>)>,
    report: &mut Materialized,
) -> Result<(), GitError> {
    report
        .skipped_links
        .extend(links.into_iter().map(|(e, target)| SkippedLink {
            path: e.shown(),
            target: String::from_utf8_lossy(&target).into_owned(),
            why: LinkSkip::Unchecked,
        }));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_past_a_cap_is_refused_with_the_caps() {
        assert_eq!(within_caps("a", 10, 5).unwrap(), 15);
        assert_eq!(within_caps("a", MAX_BLOB, 0).unwrap(), MAX_BLOB);
        let big = within_caps("skills/a/data.bin", MAX_BLOB + 1, 0).unwrap_err();
        assert!(
            big.to_string()
                .contains("skills/a/data.bin is 1073741825 bytes: a baseline copy takes files up to 1024 MiB and 2048 MiB in all"),
            "{big}"
        );
        assert!(within_caps("b", MAX_BLOB, MAX_COPY - MAX_BLOB + 1).is_err());
    }

    fn git_ok(dir: &Path, args: &[&str]) -> bool {
        Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    #[cfg(unix)]
    #[test]
    fn a_commit_is_copied_with_modes_and_without_the_work_trees_changes() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("repo");
        std::fs::create_dir_all(repo.join("lib/a/scripts")).unwrap();
        if !git_ok(&repo, &["init", "-q"]) {
            eprintln!("skipping: git is not installed");
            return;
        }
        std::fs::write(repo.join("lib/a/SKILL.md"), "old\n").unwrap();
        std::fs::write(repo.join("lib/a/scripts/run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::write(repo.join("lib-other.md"), "not in lib\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            repo.join("lib/a/scripts/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        assert!(git_ok(&repo, &["add", "-A"]));
        assert!(git_ok(&repo, &["commit", "-qm", "one"]));
        std::fs::write(repo.join("lib/a/SKILL.md"), "new\n").unwrap();
        let (top, prefix) = locate(&repo.join("lib")).unwrap();
        assert_eq!(prefix, "lib");
        let id = resolve(&top, "HEAD").unwrap();
        let dest = t.path().join("copy");
        let m = materialize(&top, &id, &prefix, &dest).unwrap();
        assert_eq!(m.files, 2);
        assert!(!m.missing);
        assert_eq!(
            std::fs::read_to_string(dest.join("a/SKILL.md")).unwrap(),
            "old\n"
        );
        let meta = std::fs::metadata(dest.join("a/scripts/run.sh")).unwrap();
        assert_eq!(meta.permissions().mode() & 0o111, 0o111);
        assert_eq!(meta.modified().unwrap(), std::time::UNIX_EPOCH);
        assert!(
            !dest.join("lib-other.md").exists(),
            "a sibling with the same prefix"
        );
        assert!(matches!(resolve(&top, "-x"), Err(GitError::BadRef(_))));
        assert!(matches!(resolve(&top, "nope"), Err(GitError::BadRef(_))));
        // A folder gone from the work tree is still found at the commit.
        std::fs::remove_dir_all(repo.join("lib")).unwrap();
        let (_, prefix) = locate(&repo.join("lib")).unwrap();
        assert_eq!(prefix, "lib");
    }

    #[test]
    fn links_are_kept_only_where_followed_they_stay_inside() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("repo");
        std::fs::create_dir_all(repo.join("lib/a/references")).unwrap();
        if !git_ok(&repo, &["init", "-q"]) {
            eprintln!("skipping: git is not installed");
            return;
        }
        std::fs::write(repo.join("lib/a/SKILL.md"), "a\n").unwrap();
        std::fs::write(repo.join("lib/a/references/guide.md"), "guide\n").unwrap();
        std::fs::write(repo.join("outside.md"), "outside\n").unwrap();
        let link = |target: &str, at: &str| {
            crate::core::files::fsx::test_link(target, repo.join(at)).unwrap();
        };
        link("a", "lib/b");
        link("references/guide.md", "lib/a/guide.md");
        link("../../outside.md", "lib/a/out.md");
        link("/etc", "lib/a/etc");
        link("missing.md", "lib/a/dangling.md");
        // `top` is the copied folder itself; through it, `sneaky.md` counts as inside on paper
        // (three names deep, one step up) and leads to `outside.md` followed for real.
        link("../..", "lib/a/references/top");
        link("references/top/../outside.md", "lib/a/sneaky.md");
        assert!(git_ok(&repo, &["add", "-A"]));
        assert!(git_ok(&repo, &["commit", "-qm", "links"]));
        let (top, prefix) = locate(&repo.join("lib")).unwrap();
        let id = resolve(&top, "HEAD").unwrap();
        let dest = t.path().join("copy");
        let m = materialize(&top, &id, &prefix, &dest).unwrap();
        let mut skipped: Vec<(&str, LinkSkip)> = m
            .skipped_links
            .iter()
            .map(|l| (l.path.as_str(), l.why))
            .collect();
        skipped.sort_by_key(|l| l.0);
        assert_eq!(
            skipped,
            [
                ("a/dangling.md", LinkSkip::Nowhere),
                ("a/etc", LinkSkip::Outside),
                ("a/out.md", LinkSkip::Outside),
                ("a/sneaky.md", LinkSkip::Outside),
            ]
        );
        assert_eq!(m.files, 5, "two files, three inward links");
        assert_eq!(
            std::fs::read_to_string(dest.join("b/guide.md")).unwrap(),
            "guide\n"
        );
        for gone in ["a/out.md", "a/etc", "a/dangling.md", "a/sneaky.md"] {
            assert!(
                std::fs::symlink_metadata(dest.join(gone)).is_err(),
                "{gone}"
            );
        }
        let sneaky = m.skipped_links.iter().find(|l| l.path == "a/sneaky.md");
        assert_eq!(sneaky.unwrap().target, "references/top/../outside.md");
        assert_eq!(
            std::fs::read_to_string(dest.join("a/references/top/a/SKILL.md")).unwrap(),
            "a\n"
        );
    }

    fn entry(mode: &str, rel: &str) -> Entry {
        Entry {
            mode: mode.to_string(),
            kind: "blob".to_string(),
            id: "0".repeat(40),
            rel: rel.as_bytes().to_vec(),
        }
    }

    #[test]
    fn a_tree_that_cannot_be_written_as_it_reads_is_refused() {
        let refused = |entries: &[Entry]| match check_tree(entries) {
            Err(GitError::BadTree(why)) => why,
            other => panic!("{other:?}"),
        };
        let link = "120000";
        let file = "100644";
        assert_eq!(
            refused(&[entry(link, "x"), entry(file, "x/pwned.md")]),
            "`x` is both a file or link and a folder"
        );
        assert_eq!(
            refused(&[entry(file, "a/x"), entry(file, "a/x/y/z")]),
            "`a/x` is both a file or link and a folder"
        );
        assert_eq!(
            refused(&[entry(file, "x"), entry(link, "x")]),
            "`x` appears twice"
        );
        for odd in ["a/../b", "a/./b", "a//b", "/a", "a/"] {
            assert_eq!(
                refused(&[entry(file, odd)]),
                format!("`{odd}` is not a plain path")
            );
        }
        assert_eq!(
            refused(&[entry(file, ""), entry(file, "a")]),
            "the folder is both a file and a folder"
        );
        assert!(check_tree(&[entry(file, "")]).is_ok());
        assert!(check_tree(&[entry(file, "a/b"), entry(link, "a/c"), entry(file, "ab")]).is_ok());
    }
}
