//! Skill folders as trees of files: copied so that nothing leaves the skill (links that point
//! out of it, devices, FIFOs and sockets are left out with a note), hashed to tell a local edit,
//! and moved whole (a rename, or an exact copy across file systems). Every copy, clean-up, hash,
//! listing and comparison walks the folder through the one `walk` (name order, repository data
//! and folders nested too deep left out).

use super::ManageError;
use super::error::Refusal;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Folders no skill needs and no copy takes: a repository's own data.
const SKIPPED: &[&str] = &[".git", ".hg", ".svn"];
/// How deep a skill's folders may nest.
const MAX_DEPTH: usize = 32;

/// Whether a link at `rel` (a path inside a folder) pointing at `target` stays inside that
/// folder, judged on the text alone: relative, and never above the folder.
pub fn link_stays_inside(rel: &str, target: &str) -> bool {
    if target.is_empty() || Path::new(target).is_absolute() {
        return false;
    }
    let mut depth: i64 = Path::new(rel).components().count() as i64 - 1;
    for c in Path::new(target).components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::ParentDir => depth -= 1,
            Component::CurDir => {}
            _ => return false,
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// One entry [`walk`] meets: a file, folder, link or special file, as it is (links not followed).
pub(super) struct Entry {
    /// Where it is.
    pub path: PathBuf,
    /// Its path inside the walked folder, exactly (`a/b`).
    pub rel_path: PathBuf,
    /// The same for people and hashes, `/`-separated (names that are not UTF-8 made so).
    pub rel: String,
    /// Its name.
    pub name: String,
    pub meta: std::fs::Metadata,
    /// How many folders down from the walked one it lies (0: in it).
    pub depth: usize,
}

impl Entry {
    /// Why a folder is not walked into: repository data, or nested deeper than [`MAX_DEPTH`].
    pub fn left_out(&self) -> Option<&'static str> {
        if !self.meta.is_dir() {
            None
        } else if SKIPPED.contains(&self.name.as_str()) {
            Some("repository data")
        } else if self.depth >= MAX_DEPTH {
            Some("nested too deep")
        } else {
            None
        }
    }
}

/// What a visitor of [`walk`] does with a folder it was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Walk into it (never into one [`Entry::left_out`] names).
    Enter,
    /// Leave it.
    Skip,
}

/// The one walk of a skill folder every copy, check and comparison here makes: `dir`'s entries
/// in name order, depth first (a folder's entries right after it), each shown to `visit`; a
/// folder is walked into when `visit` says [`Step::Enter`] and it is not left out (repository
/// data, too deep). `strict`: a folder or entry that cannot be read is an error; otherwise it is
/// passed over.
pub(super) fn walk(
    dir: &Path,
    strict: bool,
    visit: &mut dyn FnMut(&Entry) -> Result<Step, ManageError>,
) -> Result<(), ManageError> {
    walk_in(dir, Path::new(""), "", 0, strict, visit)
}

fn walk_in(
    dir: &Path,
    rel_path: &Path,
    rel: &str,
    depth: usize,
    strict: bool,
    visit: &mut dyn FnMut(&Entry) -> Result<Step, ManageError>,
) -> Result<(), ManageError> {
    let read = std::fs::read_dir(dir).and_then(Iterator::collect::<Result<Vec<_>, _>>);
    let mut entries = match read {
        Ok(e) => e,
        Err(e) if strict => return Err(ManageError::io("read", dir)(e)),
        Err(_) => return Ok(()),
    };
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let path = e.path();
        // The entry's own stat (links not followed), taken beside the folder the walk holds
        // open rather than by its whole path again.
        let meta = match e.metadata() {
            Ok(m) => m,
            Err(err) if strict => return Err(ManageError::io("read", &path)(err)),
            Err(_) => continue,
        };
        let name = e.file_name().to_string_lossy().into_owned();
        let entry = Entry {
            rel_path: rel_path.join(e.file_name()),
            rel: if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            },
            path,
            name,
            meta,
            depth,
        };
        if visit(&entry)? == Step::Enter && entry.meta.is_dir() && entry.left_out().is_none() {
            walk_in(
                &entry.path,
                &entry.rel_path,
                &entry.rel,
                depth + 1,
                strict,
                visit,
            )?;
        }
    }
    Ok(())
}

/// What a copy made.
#[derive(Debug, Default, Clone)]
pub struct Copied {
    /// Files copied.
    pub files: usize,
    /// Bytes copied.
    pub bytes: u64,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

/// Copies the skill folder `src` to `dest` (which must not exist): folders, regular files
/// (modes kept but for set-id, sticky and others' write bits) and links that stay inside the
/// skill. Nothing is read through a link, and nothing else is copied.
pub fn copy_skill(src: &Path, dest: &Path) -> Result<Copied, ManageError> {
    let mut out = Copied::default();
    std::fs::create_dir(dest).map_err(ManageError::io("create", dest))?;
    walk(src, true, &mut |e| copy_entry(e, dest, &mut out))?;
    Ok(out)
}

/// Copies one entry of a skill into `dest`, or says why it is left out.
fn copy_entry(e: &Entry, dest: &Path, out: &mut Copied) -> Result<Step, ManageError> {
    let shown = crate::core::words::text::line(&e.rel).into_owned();
    let to = dest.join(&e.rel_path);
    let ft = e.meta.file_type();
    if ft.is_dir() {
        if SKIPPED.contains(&e.name.as_str()) {
            out.notes.push(format!("left out {shown}: repository data"));
            return Ok(Step::Skip);
        }
        if e.left_out().is_some() {
            out.notes
                .push(format!("left out {shown}: nested deeper than {MAX_DEPTH}"));
            return Ok(Step::Skip);
        }
        std::fs::create_dir(&to).map_err(ManageError::io("create", &to))?;
        return Ok(Step::Enter);
    }
    if ft.is_symlink() {
        let target = std::fs::read_link(&e.path).map_err(ManageError::io("read", &e.path))?;
        let target_s = target.to_string_lossy();
        if link_stays_inside(&e.rel, &target_s) {
            crate::core::files::fsx::symlink(&target, &to, e.path.is_dir())
                .map_err(ManageError::io("create", &to))?;
            out.files += 1;
        } else {
            out.notes.push(format!(
                "left out {shown}: a link to {} leaves the skill",
                crate::core::words::text::line(&target_s)
            ));
        }
    } else if ft.is_file() {
        copy_file(&e.path, &to, &e.meta)?;
        out.files += 1;
        out.bytes += e.meta.len();
    } else {
        out.notes
            .push(format!("left out {shown}: it is {}", special_kind(ft)));
    }
    Ok(Step::Skip)
}

/// Makes the folder `dir` (in a temporary tree of skillscope's own, an unpacked archive or a
/// copied-out commit) hold only what [`copy_skill`] would copy: links that leave it, special
/// files and repository data removed, set-id, sticky and others' write bits dropped. Cheaper
/// than a copy: nothing is read or written but what is removed.
pub fn sanitize(dir: &Path) -> Result<Vec<String>, ManageError> {
    let mut notes = Vec::new();
    walk(dir, true, &mut |e| sanitize_entry(e, &mut notes))?;
    Ok(notes)
}

/// Removes one entry a copy would leave out, or drops its unsafe mode bits.
fn sanitize_entry(e: &Entry, notes: &mut Vec<String>) -> Result<Step, ManageError> {
    let shown = crate::core::words::text::line(&e.rel).into_owned();
    let path = &e.path;
    let ft = e.meta.file_type();
    if ft.is_dir() {
        if e.left_out().is_none() {
            return Ok(Step::Enter);
        }
        notes.push(format!(
            "left out {shown}: repository data or nested too deep"
        ));
        std::fs::remove_dir_all(path).map_err(ManageError::io("remove", path))?;
    } else if ft.is_symlink() {
        let target = std::fs::read_link(path).map_err(ManageError::io("read", path))?;
        let target_s = target.to_string_lossy();
        if !link_stays_inside(&e.rel, &target_s) {
            notes.push(format!(
                "left out {shown}: a link to {} leaves the skill",
                crate::core::words::text::line(&target_s)
            ));
            std::fs::remove_file(path).map_err(ManageError::io("remove", path))?;
        }
    } else if ft.is_file() {
        let mode = crate::core::files::fsx::mode_of(&e.meta);
        let want = (mode & 0o775) | 0o600;
        if mode & 0o7777 != want {
            std::fs::set_permissions(path, crate::core::files::fsx::permissions(want, &e.meta))
                .map_err(ManageError::io("write", path))?;
        }
    } else {
        notes.push(format!("left out {shown}: it is {}", special_kind(ft)));
        std::fs::remove_file(path).map_err(ManageError::io("remove", path))?;
    }
    Ok(Step::Skip)
}

#[cfg(unix)]
fn special_kind(ft: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "a FIFO"
    } else if ft.is_socket() {
        "a socket"
    } else if ft.is_char_device() || ft.is_block_device() {
        "a device file"
    } else {
        "not a regular file"
    }
}

/// What a non-regular file is, in words: on Windows, whose pipes and devices are not in folders,
/// anything but a folder, a link or a file.
#[cfg(not(unix))]
fn special_kind(_ft: std::fs::FileType) -> &'static str {
    "not a regular file"
}

fn copy_file(from: &Path, to: &Path, meta: &std::fs::Metadata) -> Result<(), ManageError> {
    let mut src =
        crate::core::files::fsx::open_no_follow(from).map_err(ManageError::io("read", from))?;
    let mode = crate::core::files::fsx::mode_of(meta) & 0o775;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, mode | 0o600);
    let mut dst = opts.open(to).map_err(ManageError::io("write", to))?;
    std::io::copy(&mut src, &mut dst).map_err(ManageError::io("copy", from))?;
    dst.flush().map_err(ManageError::io("write", to))?;
    std::fs::set_permissions(to, crate::core::files::fsx::permissions(mode | 0o600, meta))
        .map_err(ManageError::io("write", to))?;
    Ok(())
}

/// [`tree_hash`]'s record of a folder: `d`, its path inside.
fn hash_folder(h: &mut blake3::Hasher, rel: &str) {
    h.update(b"d\0");
    h.update(rel.as_bytes());
    h.update(b"\0");
}

/// [`tree_hash`]'s record of a link: `l`, its path inside, its target.
fn hash_link(h: &mut blake3::Hasher, rel: &str, target: &Path) {
    h.update(b"l\0");
    h.update(rel.as_bytes());
    h.update(b"\0");
    h.update(target.to_string_lossy().as_bytes());
    h.update(b"\0");
}

/// [`tree_hash`]'s record of a file before its bytes: `x` (it runs) or `f`, its path inside,
/// its length.
fn hash_file_head(h: &mut blake3::Hasher, rel: &str, exec: bool, len: u64) {
    h.update(if exec { b"x\0" } else { b"f\0" });
    h.update(rel.as_bytes());
    h.update(b"\0");
    h.update(&len.to_le_bytes());
}

/// The hash of a skill folder's content: every folder, file (its bytes and whether it runs) and
/// link (its target) by its path inside, in path order; repository data left out. The same
/// content gives the same hash wherever it lies.
pub fn tree_hash(dir: &Path) -> Result<String, ManageError> {
    let mut h = blake3::Hasher::new();
    walk(dir, true, &mut |e| {
        let ft = e.meta.file_type();
        if ft.is_dir() {
            if e.left_out().is_some() {
                return Ok(Step::Skip);
            }
            hash_folder(&mut h, &e.rel);
            return Ok(Step::Enter);
        }
        if ft.is_symlink() {
            let t = std::fs::read_link(&e.path).map_err(ManageError::io("read", &e.path))?;
            hash_link(&mut h, &e.rel, &t);
        } else if ft.is_file() {
            let exec = crate::core::files::fsx::runnable(&e.path, &e.meta);
            hash_file_head(&mut h, &e.rel, exec, e.meta.len());
            let mut f = std::fs::File::open(&e.path).map_err(ManageError::io("read", &e.path))?;
            std::io::copy(&mut f, &mut h).map_err(ManageError::io("read", &e.path))?;
        }
        Ok(Step::Skip)
    })?;
    Ok(h.finalize().to_hex().to_string())
}

/// Extensions of files that are scripts or programs.
const SCRIPT: &[&str] = &[
    "sh", "bash", "zsh", "fish", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "ps1", "bat",
    "cmd", "exe", "lua", "r",
];

/// Whether a file's name or mode says it could run (its first bytes aside).
fn runs_by_name_or_mode(e: &Entry) -> bool {
    crate::core::files::fsx::runnable(&e.path, &e.meta)
        || Path::new(&e.name)
            .extension()
            .is_some_and(|x| SCRIPT.contains(&x.to_string_lossy().to_ascii_lowercase().as_str()))
}

/// Files a skill carries that could run: a run bit, a `#!` line, or a script's extension.
/// Listed for people, never run.
pub fn executables(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    // Not strict: what cannot be read is not listed.
    let _ = walk(dir, false, &mut |e| {
        if e.meta.is_dir() {
            return Ok(Step::Enter);
        }
        if !e.meta.is_file() {
            return Ok(Step::Skip);
        }
        if runs_by_name_or_mode(e) || starts_with_shebang(&e.path) {
            out.push(e.rel.clone());
        }
        Ok(Step::Skip)
    });
    out.sort();
    out
}

/// What staging learns of a skill folder in one walk: what [`tree_hash`] and [`executables`]
/// give, and what was left out of it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Settled {
    /// [`tree_hash`] of the folder.
    pub hash: String,
    /// [`executables`] of the folder.
    pub executables: Vec<String>,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

/// The hash and the executables of a folder gathered entry by entry, as [`tree_hash`] and
/// [`executables`] take them, each file read once for both.
struct Summer {
    hash: blake3::Hasher,
    executables: Vec<String>,
    buf: Vec<u8>,
}

impl Summer {
    fn new() -> Summer {
        Summer {
            hash: blake3::Hasher::new(),
            executables: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// Takes in one entry that stays in the folder (`link`: a link's target, when the caller
    /// read it already).
    fn take(&mut self, e: &Entry, link: Option<&Path>) -> Result<Step, ManageError> {
        use std::io::Read;
        let h = &mut self.hash;
        let ft = e.meta.file_type();
        if ft.is_dir() {
            if e.left_out().is_some() {
                return Ok(Step::Skip);
            }
            hash_folder(h, &e.rel);
            return Ok(Step::Enter);
        }
        if ft.is_symlink() {
            let read;
            let t = if let Some(t) = link {
                t
            } else {
                read = std::fs::read_link(&e.path).map_err(ManageError::io("read", &e.path))?;
                read.as_path()
            };
            hash_link(h, &e.rel, t);
        } else if ft.is_file() {
            let exec = crate::core::files::fsx::runnable(&e.path, &e.meta);
            hash_file_head(h, &e.rel, exec, e.meta.len());
            let mut f = std::fs::File::open(&e.path).map_err(ManageError::io("read", &e.path))?;
            // Room for the whole file and the read that finds its end, up to one block of
            // reading: the buffer grows to the skill's largest file, not to the block.
            let room = usize::try_from(e.meta.len().saturating_add(1))
                .unwrap_or(usize::MAX)
                .clamp(4 << 10, 64 << 10);
            if self.buf.len() < room {
                self.buf.resize(room, 0);
            }
            // The first two bytes, for the `#!` of a script.
            let mut head = [0u8; 2];
            let mut got = 0;
            loop {
                let n = match f.read(&mut self.buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(err) => return Err(ManageError::io("read", &e.path)(err)),
                };
                let chunk = self.buf.get(..n).unwrap_or_default();
                for &b in chunk.iter().take(2 - got) {
                    if let Some(x) = head.get_mut(got) {
                        *x = b;
                    }
                    got += 1;
                }
                h.update(chunk);
            }
            if runs_by_name_or_mode(e) || (got == 2 && &head == b"#!") {
                self.executables.push(e.rel.clone());
            }
        }
        Ok(Step::Skip)
    }

    fn done(mut self, notes: Vec<String>) -> Settled {
        self.executables.sort();
        Settled {
            hash: self.hash.finalize().to_hex().to_string(),
            executables: self.executables,
            notes,
        }
    }
}

/// [`tree_hash`] and [`executables`] of `dir` in one walk, each file read once.
pub fn settle(dir: &Path) -> Result<Settled, ManageError> {
    let mut sum = Summer::new();
    walk(dir, true, &mut |e| sum.take(e, None))?;
    Ok(sum.done(Vec::new()))
}

/// [`sanitize`], then [`tree_hash`] and [`executables`] of what is left, in one walk: each
/// entry is cleaned as [`sanitize`] does and, when it stays, taken into the hash and the list.
pub fn sanitize_settle(dir: &Path) -> Result<Settled, ManageError> {
    let mut notes = Vec::new();
    let mut sum = Summer::new();
    walk(dir, true, &mut |e| {
        let ft = e.meta.file_type();
        if ft.is_symlink() {
            let target = std::fs::read_link(&e.path).map_err(ManageError::io("read", &e.path))?;
            let target_s = target.to_string_lossy();
            if !link_stays_inside(&e.rel, &target_s) {
                notes.push(format!(
                    "left out {}: a link to {} leaves the skill",
                    crate::core::words::text::line(&e.rel),
                    crate::core::words::text::line(&target_s)
                ));
                std::fs::remove_file(&e.path).map_err(ManageError::io("remove", &e.path))?;
                return Ok(Step::Skip);
            }
            return sum.take(e, Some(&target));
        }
        let kept = ft.is_file() || (ft.is_dir() && e.left_out().is_none());
        let step = sanitize_entry(e, &mut notes)?;
        if kept { sum.take(e, None) } else { Ok(step) }
    })?;
    Ok(sum.done(notes))
}

fn starts_with_shebang(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"#!"
}

/// Moves `from` (a folder or a link) to `to` (which must not exist): a rename, or across file
/// systems an exact copy (modes, times and links as they are) made under a name of skillscope's
/// own beside `to` and renamed into place once complete; `from` then leaves its folder in one
/// rename and is deleted. Killed at any step, `to` is absent or whole and `from` is present or
/// gone whole; a deletion cut short leaves a `.skillscope-gone-…` folder that the scan never
/// reads and the next change in that folder deletes.
pub fn move_whole(from: &Path, to: &Path) -> Result<(), ManageError> {
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(Refusal::AlreadyThere(to.to_path_buf()).into());
    }
    match std::fs::rename(from, to) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => {
            let beside = to.parent().unwrap_or_else(|| Path::new("."));
            let staging = tempfile::Builder::new()
                .prefix(&format!("{}copy-", crate::core::files::paths::OWN_PREFIX))
                .tempdir_in(beside)
                .map_err(ManageError::io("create a temporary folder in", beside))?;
            let copy = staging.path().join("item");
            copy_exact(from, &copy)?;
            std::fs::rename(&copy, to).map_err(ManageError::io("move into place", to))?;
            let (Some(parent), Some(name)) = (from.parent(), from.file_name()) else {
                return Err(Refusal::NoFolderToRemove(from.to_path_buf()).into());
            };
            let gone = parent.join(format!(
                "{}{}-{:08x}",
                super::work::GONE,
                name.to_string_lossy(),
                rand_u32()
            ));
            if let Err(e) = std::fs::rename(from, &gone) {
                // `from` stays: the copy goes, so that nothing is in two places.
                let _ = remove_any(to);
                return Err(ManageError::io("move away", from)(e));
            }
            // Out of the library already: a deletion that fails only leaves garbage behind.
            let _ = remove_any(&gone);
            Ok(())
        }
        Err(e) => Err(ManageError::Io {
            what: "move",
            path: from.to_path_buf(),
            source: e,
        }),
    }
}

/// Removes a folder with everything in it, or a file or link.
fn remove_any(p: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(p)?.is_dir() {
        std::fs::remove_dir_all(p)
    } else {
        std::fs::remove_file(p)
    }
}

/// A number unlikely to repeat, for a temporary name.
fn rand_u32() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let h = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    (h ^ (h >> 32)) as u32
}

/// An exact copy: every folder, file and link as it is, modes and modification times kept.
fn copy_exact(from: &Path, to: &Path) -> Result<(), ManageError> {
    let meta = std::fs::symlink_metadata(from).map_err(ManageError::io("read", from))?;
    let ft = meta.file_type();
    if ft.is_symlink() {
        let t = std::fs::read_link(from).map_err(ManageError::io("read", from))?;
        crate::core::files::fsx::symlink(&t, to, from.is_dir())
            .map_err(ManageError::io("create", to))?;
        return Ok(());
    }
    if ft.is_dir() {
        std::fs::create_dir(to).map_err(ManageError::io("create", to))?;
        for e in std::fs::read_dir(from).map_err(ManageError::io("read", from))? {
            let e = e.map_err(ManageError::io("read", from))?;
            copy_exact(&e.path(), &to.join(e.file_name()))?;
        }
    } else if ft.is_file() {
        std::fs::copy(from, to).map_err(ManageError::io("copy", from))?;
        if let Ok(t) = meta.modified() {
            let f = std::fs::File::options()
                .write(true)
                .open(to)
                .map_err(ManageError::io("write", to))?;
            f.set_modified(t).map_err(ManageError::io("write", to))?;
        }
    } else {
        return Err(Refusal::Special {
            from: from.to_path_buf(),
            kind: special_kind(ft),
        }
        .into());
    }
    std::fs::set_permissions(
        to,
        crate::core::files::fsx::permissions(crate::core::files::fsx::mode_of(&meta), &meta),
    )
    .map_err(ManageError::io("write", to))?;
    Ok(())
}

/// The files of two versions of a skill compared: which were added, removed or changed, and
/// the lines added and removed in text files.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TreeDiff {
    /// Files only in the new copy.
    pub added: Vec<String>,
    /// Files only in the old one.
    pub removed: Vec<String>,
    /// Files in both that differ.
    pub changed: Vec<String>,
    /// Lines added across the changed text files.
    pub lines_added: usize,
    /// Lines removed across them.
    pub lines_removed: usize,
}

impl TreeDiff {
    /// Whether the two copies hold the same files.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// `2 files changed (+10 −3), 1 added, 0 removed`.
    pub fn summary(&self) -> String {
        format!(
            "{} changed (+{} −{}), {} added, {} removed",
            self.changed.len(),
            self.lines_added,
            self.lines_removed,
            self.added.len(),
            self.removed.len()
        )
    }
}

/// Compares the files of `old` and `new` (regular files and links, by path inside).
pub fn diff_trees(old: &Path, new: &Path) -> TreeDiff {
    let a = files_of(old);
    let b = files_of(new);
    let mut d = TreeDiff::default();
    for (rel, pa) in &a {
        match b.get(rel) {
            None => d.removed.push(rel.clone()),
            Some(pb) => {
                let (ba, bb) = (read_entry(pa), read_entry(pb));
                if ba != bb {
                    d.changed.push(rel.clone());
                    if let (Ok(ta), Ok(tb)) = (std::str::from_utf8(&ba), std::str::from_utf8(&bb)) {
                        let diff = similar::TextDiff::from_lines(ta, tb);
                        for c in diff.iter_all_changes() {
                            match c.tag() {
                                similar::ChangeTag::Insert => d.lines_added += 1,
                                similar::ChangeTag::Delete => d.lines_removed += 1,
                                similar::ChangeTag::Equal => {}
                            }
                        }
                    }
                }
            }
        }
    }
    for rel in b.keys() {
        if !a.contains_key(rel) {
            d.added.push(rel.clone());
        }
    }
    d
}

fn read_entry(p: &Path) -> Vec<u8> {
    match std::fs::read_link(p) {
        Ok(t) => t.to_string_lossy().as_bytes().to_vec(),
        Err(_) => std::fs::read(p).unwrap_or_default(),
    }
}

fn files_of(dir: &Path) -> std::collections::BTreeMap<String, PathBuf> {
    let mut out = std::collections::BTreeMap::new();
    // Not strict: what cannot be read is not compared.
    let _ = walk(dir, false, &mut |e| {
        let ft = e.meta.file_type();
        if ft.is_dir() {
            return Ok(Step::Enter);
        }
        if ft.is_file() || ft.is_symlink() {
            out.insert(e.rel.clone(), e.path.clone());
        }
        Ok(Step::Skip)
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::PermissionsExt;

    /// A skill folder with something of every kind a walk can meet: nested folders, repository
    /// data, links inside and out, a FIFO, a set-id script, files whose `#!` or extension
    /// says they run, a one-byte file, a bare `#!` and a file larger than one read.
    #[cfg(unix)]
    fn hostile_skill(dir: &Path) {
        std::fs::create_dir_all(dir.join("scripts/deep/er")).unwrap();
        std::fs::create_dir_all(dir.join(".git/objects")).unwrap();
        std::fs::create_dir_all(dir.join("empty")).unwrap();
        std::fs::write(dir.join(".git/objects/x"), "blob").unwrap();
        std::fs::write(dir.join("SKILL.md"), "---\nname: s\n---\nBody.\n").unwrap();
        std::fs::write(dir.join("scripts/run.sh"), "echo\n").unwrap();
        std::fs::set_permissions(
            dir.join("scripts/run.sh"),
            std::fs::Permissions::from_mode(0o4777),
        )
        .unwrap();
        std::fs::write(dir.join("scripts/tool"), "#!/usr/bin/env python3\n").unwrap();
        std::fs::write(dir.join("scripts/Build.PY"), "print()\n").unwrap();
        std::fs::write(dir.join("scripts/deep/er/bang"), "#!").unwrap();
        std::fs::write(dir.join("scripts/deep/hash"), "#").unwrap();
        std::fs::write(dir.join("scripts/deep/none"), "").unwrap();
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(dir.join("big.bin"), &big).unwrap();
        std::fs::set_permissions(dir.join("big.bin"), std::fs::Permissions::from_mode(0o750))
            .unwrap();
        crate::core::files::fsx::test_link("/etc/passwd", dir.join("passwd")).unwrap();
        crate::core::files::fsx::test_link("../SKILL.md", dir.join("scripts/doc")).unwrap();
        crate::core::files::fsx::test_link("../../..", dir.join("scripts/deep/up")).unwrap();
        crate::core::files::fsx::test_link("run.sh", dir.join("scripts/again.sh")).unwrap();
        nix::unistd::mkfifo(&dir.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    }

    /// The one walk of staging gives what the separate walks it replaces give: a moved skill's
    /// clean-up, hash, executables and notes as [`sanitize`] then [`tree_hash`] and
    /// [`executables`] find them, and the folder left the same; a copy's hash and executables
    /// as [`tree_hash`] and [`executables`] find them.
    #[cfg(unix)]
    #[test]
    fn one_walk_gives_what_the_separate_walks_give() {
        let t = tempfile::tempdir().unwrap();
        let (slow, fast) = (t.path().join("slow"), t.path().join("fast"));
        hostile_skill(&slow);
        hostile_skill(&fast);
        let notes = sanitize(&slow).unwrap();
        let want = Settled {
            hash: tree_hash(&slow).unwrap(),
            executables: executables(&slow),
            notes,
        };
        let got = sanitize_settle(&fast).unwrap();
        assert_eq!(got, want);
        assert!(
            got.executables.contains(&"scripts/tool".to_string())
                && got
                    .executables
                    .contains(&"scripts/deep/er/bang".to_string())
                && got.executables.contains(&"big.bin".to_string())
                && !got.executables.contains(&"scripts/deep/hash".to_string()),
            "{:?}",
            got.executables
        );
        assert!(!got.notes.is_empty());
        assert!(diff_trees(&slow, &fast).is_empty());
        assert_eq!(
            tree_hash(&fast).unwrap(),
            got.hash,
            "the folder is as hashed"
        );
        let copy = t.path().join("copy");
        copy_skill(&slow, &copy).unwrap();
        let settled = settle(&copy).unwrap();
        assert_eq!(settled.hash, tree_hash(&copy).unwrap());
        assert_eq!(settled.executables, executables(&copy));
        assert_eq!(
            settled.hash, want.hash,
            "a copy hashes as the cleaned original"
        );
        std::fs::write(copy.join("scripts/deep/none"), "#!").unwrap();
        let edited = settle(&copy).unwrap();
        assert_ne!(edited.hash, settled.hash);
        assert_eq!(edited.executables, executables(&copy));
    }

    #[test]
    fn links_must_stay_inside() {
        assert!(link_stays_inside("a/b", "c"));
        assert!(link_stays_inside("a/b", "../c"));
        assert!(!link_stays_inside("a/b", "../../c"));
        assert!(!link_stays_inside("a", "/etc/passwd"));
        assert!(!link_stays_inside("a", "../x"));
        assert!(!link_stays_inside("a", ""));
    }

    #[cfg(unix)]
    #[test]
    fn a_copy_keeps_the_skill_and_leaves_out_what_leaves_it() {
        let t = tempfile::tempdir().unwrap();
        let src = t.path().join("src");
        std::fs::create_dir_all(src.join("scripts")).unwrap();
        std::fs::create_dir_all(src.join(".git")).unwrap();
        std::fs::write(src.join("SKILL.md"), "---\nname: s\n---\n").unwrap();
        std::fs::write(src.join("scripts/run.sh"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(
            src.join("scripts/run.sh"),
            std::fs::Permissions::from_mode(0o4777),
        )
        .unwrap();
        crate::core::files::fsx::test_link("/etc/passwd", src.join("passwd")).unwrap();
        crate::core::files::fsx::test_link("../SKILL.md", src.join("scripts/doc")).unwrap();
        nix::unistd::mkfifo(&src.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let dest = t.path().join("dest");
        let c = copy_skill(&src, &dest).unwrap();
        assert_eq!(c.files, 3);
        assert!(std::fs::symlink_metadata(dest.join("passwd")).is_err());
        assert!(std::fs::symlink_metadata(dest.join("pipe")).is_err());
        assert!(!dest.join(".git").exists());
        let mode = std::fs::metadata(dest.join("scripts/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o7777, 0o775, "no set-id bit, no world write");
        let notes = c.notes.join("\n");
        assert!(
            notes.contains("passwd") && notes.contains("FIFO"),
            "{notes}"
        );
        assert_eq!(
            executables(&dest),
            vec!["scripts/run.sh".to_string()],
            "the link to a markdown file is not a script"
        );
        // The hash is of the content, wherever it is; an edit changes it.
        let again = t.path().join("again");
        copy_skill(&dest, &again).unwrap();
        assert_eq!(tree_hash(&dest).unwrap(), tree_hash(&again).unwrap());
        std::fs::write(again.join("SKILL.md"), "---\nname: s\n---\nedited\n").unwrap();
        assert_ne!(tree_hash(&dest).unwrap(), tree_hash(&again).unwrap());
        let d = diff_trees(&dest, &again);
        assert_eq!(d.changed, vec!["SKILL.md".to_string()]);
        assert_eq!((d.lines_added, d.lines_removed), (1, 0));
    }
}
