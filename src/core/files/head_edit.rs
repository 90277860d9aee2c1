//! Editing the head of a SKILL.md (its frontmatter) without holding the file whole: the head is
//! read apart, the rest copied through in chunks into the new file, which replaces the old one
//! in one rename, and only when the file is still the one that was read. A SKILL.md that links
//! out of its skill's folder is never written through.

use crate::core::files::fsx::{self, Stamp};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// How much of a file is read for its head when no closed frontmatter is found sooner.
pub const HEAD_CAP: usize = 1024 * 1024;

/// The size of the chunks the rest of a file is copied and hashed in.
const CHUNK: usize = 64 * 1024;

/// Why a head was not read or written.
#[derive(Debug, thiserror::Error)]
pub enum HeadError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not where it was, or not a regular file.
    #[error(transparent)]
    Fsx(#[from] fsx::FsxError),
    /// The SKILL.md is a link to a file outside its skill's folder.
    #[error(
        "{} is a link to {}, outside its skill's folder {}: not written through (edit the file it links to by hand, or replace the link with a copy)",
        path.display(),
        target.display(),
        folder.display()
    )]
    LinksOut {
        /// The SKILL.md as the library names it.
        path: PathBuf,
        /// Where it leads.
        target: PathBuf,
        /// The skill's folder, resolved.
        folder: PathBuf,
    },
    /// The file changed after it was read: another program wrote it.
    #[error(
        "{} changed since it was read (another program wrote it): not written, its new content is kept; run the command again",
        path.display()
    )]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// The file is gone.
    #[error("{} is gone", path.display())]
    Gone {
        /// The file.
        path: PathBuf,
    },
}

/// The head of a file as it was read: its first bytes, through the frontmatter's closing line
/// (or, when there is none within [`HEAD_CAP`], up to the last line break there), and what the
/// whole file was then.
#[derive(Debug, Clone)]
pub struct Head {
    /// The file as named (a link is followed only when written, and only within the folder).
    pub path: PathBuf,
    /// The head's bytes.
    pub bytes: Vec<u8>,
    /// Whether the head is the whole file.
    pub complete: bool,
    /// The file's stat when it was read.
    stamp: Stamp,
    /// The hash of the whole file as read.
    hash: blake3::Hash,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> HeadError + '_ {
    move |source| HeadError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads the head of `path` (a regular file, else an error naming it); `None` when it is gone.
/// The rest of the file is read in chunks to hash it, never held.
pub fn read_head(path: &Path) -> Result<Option<Head>, HeadError> {
    let Some((mut file, _)) = fsx::open_regular_up_to(path, u64::MAX)? else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(io(path))?;
    let stamp = Stamp::of(&meta);
    let mut buf = Vec::new();
    (&mut file)
        .take(HEAD_CAP as u64)
        .read_to_end(&mut buf)
        .map_err(io(path))?;
    let mut hasher = blake3::Hasher::new();
    hasher.update(&buf);
    let mut chunk = vec![0u8; CHUNK];
    let mut more = false;
    loop {
        let n = file.read(&mut chunk).map_err(io(path))?;
        if n == 0 {
            break;
        }
        more = true;
        hasher.update(&chunk[..n]);
    }
    let complete = !more && buf.len() < HEAD_CAP;
    let cut = match crate::core::frontmatter::frontmatter_end(&buf) {
        Some(end) if end > 0 => end,
        _ if complete => buf.len(),
        // No closed frontmatter in the first bytes: up to the last whole line.
        _ => buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
    };
    let complete = complete && cut == buf.len();
    buf.truncate(cut);
    buf.shrink_to_fit();
    Ok(Some(Head {
        path: path.to_path_buf(),
        bytes: buf,
        complete,
        stamp,
        hash: hasher.finalize(),
    }))
}

/// Where a write of `path` lands: the file itself, or the file a link leads to when that is
/// inside `folder` (the skill's folder, resolved); a link that leads out is refused.
pub fn write_target(path: &Path, folder: &Path) -> Result<PathBuf, HeadError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(HeadError::Gone {
                path: path.to_path_buf(),
            });
        }
        Err(e) => return Err(io(path)(e)),
    };
    if !meta.file_type().is_symlink() {
        return Ok(path.to_path_buf());
    }
    let target = std::fs::canonicalize(path).map_err(io(path))?;
    let folder = std::fs::canonicalize(folder).map_err(io(folder))?;
    if target.starts_with(&folder) {
        Ok(target)
    } else {
        Err(HeadError::LinksOut {
            path: path.to_path_buf(),
            target,
            folder,
        })
    }
}

/// Replaces the head of the file `head` was read from with `after`, the rest copied through,
/// under the file's lock, in one rename; `folder` is the skill's folder (see [`write_target`]).
/// The file must still be the one read: its stat is compared before the copy and again just
/// before the rename, and what is copied is hashed against what was read, so another program's
/// write in between is kept and reported ([`HeadError::Changed`]). `before_rename` runs just
/// before that last comparison (tests make their concurrent write there).
pub fn write_head(
    head: &Head,
    after: &[u8],
    folder: &Path,
    wait: std::time::Duration,
    before_rename: &mut dyn FnMut(),
) -> Result<(), HeadError> {
    let target = write_target(&head.path, folder)?;
    let _lock = fsx::lock(&target, wait)?;
    write_head_locked(head, after, folder, before_rename)
}

/// [`write_head`] for a caller that already holds the file's lock ([`fsx::lock`]) and read the
/// head under it.
pub fn write_head_locked(
    head: &Head,
    after: &[u8],
    folder: &Path,
    before_rename: &mut dyn FnMut(),
) -> Result<(), HeadError> {
    let target = write_target(&head.path, folder)?;
    let changed = || HeadError::Changed {
        path: head.path.clone(),
    };
    let Some((mut file, _)) = fsx::open_regular_up_to(&target, u64::MAX)? else {
        return Err(HeadError::Gone {
            path: head.path.clone(),
        });
    };
    let meta = file.metadata().map_err(io(&target))?;
    if Stamp::of(&meta) != head.stamp {
        return Err(changed());
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(crate::core::files::paths::OWN_PREFIX)
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(io(&dir))?;
    let out = tmp.as_file_mut();
    out.write_all(after).map_err(io(&target))?;
    let mut hasher = blake3::Hasher::new();
    let mut chunk = vec![0u8; CHUNK];
    let mut read = 0usize;
    loop {
        let n = file.read(&mut chunk).map_err(io(&target))?;
        if n == 0 {
            break;
        }
        let bytes = &chunk[..n];
        hasher.update(bytes);
        // The head's bytes are replaced; the rest goes through as it is.
        let skip = head.bytes.len().saturating_sub(read).min(n);
        if skip > 0 && bytes[..skip] != head.bytes[read..read + skip] {
            return Err(changed());
        }
        out.write_all(&bytes[skip..]).map_err(io(&target))?;
        read += n;
    }
    if read < head.bytes.len() || hasher.finalize() != head.hash {
        return Err(changed());
    }
    out.sync_all().map_err(io(&target))?;
    out.set_permissions(meta.permissions())
        .map_err(io(&target))?;
    before_rename();
    match std::fs::symlink_metadata(&target) {
        Ok(now) if now.file_type().is_file() && Stamp::of(&now) == head.stamp => {}
        _ => return Err(changed()),
    }
    // A write within the file system's clock tick leaves the stat as it was: a file modified
    // that recently is hashed again.
    if head.stamp.racy(fsx::now_ns()) && hash_from_start(&mut file, &target)? != head.hash {
        return Err(changed());
    }
    tmp.persist(&target).map_err(|e| io(&target)(e.error))?;
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The hash of the whole of an open file, read from its start in chunks.
fn hash_from_start(file: &mut std::fs::File, path: &Path) -> Result<blake3::Hash, HeadError> {
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(0)).map_err(io(path))?;
    let mut hasher = blake3::Hasher::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = file.read(&mut chunk).map_err(io(path))?;
        if n == 0 {
            return Ok(hasher.finalize());
        }
        hasher.update(&chunk[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait() -> std::time::Duration {
        std::time::Duration::from_secs(5)
    }

    #[test]
    fn the_head_is_the_frontmatter_and_the_rest_goes_through_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("SKILL.md");
        let body: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
        std::fs::write(&p, format!("---\nname: a\n---\n{body}")).unwrap();
        let head = read_head(&p).unwrap().unwrap();
        assert_eq!(head.bytes, b"---\nname: a\n---\n");
        assert!(!head.complete);
        write_head(
            &head,
            b"---\nname: b\n---\n",
            dir.path(),
            wait(),
            &mut || {},
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            format!("---\nname: b\n---\n{body}")
        );
        // A file with no frontmatter: its first lines, and the whole of a short one.
        std::fs::write(&p, "\u{feff}# Title\nbody\n").unwrap();
        let head = read_head(&p).unwrap().unwrap();
        assert!(head.complete);
        assert_eq!(head.bytes, "\u{feff}# Title\nbody\n".as_bytes());
    }

    #[test]
    fn another_programs_write_before_the_rename_is_kept_and_reported() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("SKILL.md");
        std::fs::write(&p, "---\nname: a\n---\nbody\n").unwrap();
        // The other program writes in place, keeping the length, or changes the body.
        for theirs in [
            "---\nname: z\n---\nbody\n",
            "---\nname: a\n---\nbody edited\n",
        ] {
            let head = read_head(&p).unwrap().unwrap();
            let mut hook = || std::fs::write(&p, theirs).unwrap();
            let err = write_head(&head, b"---\nname: b\n---\n", dir.path(), wait(), &mut hook)
                .unwrap_err();
            assert!(matches!(err, HeadError::Changed { .. }), "{err}");
            assert!(
                err.to_string().contains("changed since it was read"),
                "{err}"
            );
            assert_eq!(std::fs::read_to_string(&p).unwrap(), theirs);
            std::fs::write(&p, "---\nname: a\n---\nbody\n").unwrap();
        }
        // The other program replaces the file by a rename, as editors save.
        let head = read_head(&p).unwrap().unwrap();
        let mut hook = || {
            std::fs::write(dir.path().join("new"), "---\nname: a\n---\nbody\n").unwrap();
            std::fs::rename(dir.path().join("new"), &p).unwrap();
        };
        let err =
            write_head(&head, b"---\nname: b\n---\n", dir.path(), wait(), &mut hook).unwrap_err();
        assert!(matches!(err, HeadError::Changed { .. }), "{err}");
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "---\nname: a\n---\nbody\n"
        );
        // Changed between the read and the write: refused before anything is copied.
        let head = read_head(&p).unwrap().unwrap();
        std::fs::write(&p, "---\nname: a\n---\nbody, longer now\n").unwrap();
        let err = write_head(
            &head,
            b"---\nname: b\n---\n",
            dir.path(),
            wait(),
            &mut || {},
        )
        .unwrap_err();
        assert!(matches!(err, HeadError::Changed { .. }), "{err}");
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "---\nname: a\n---\nbody, longer now\n"
        );
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["SKILL.md"]);
    }

    #[test]
    fn a_link_out_of_the_skill_folder_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let skill = dir.path().join("lib/pdf");
        std::fs::create_dir_all(&skill).unwrap();
        let outside = dir.path().join("outside.md");
        std::fs::write(&outside, "---\nname: a\n---\nsecret\n").unwrap();
        let p = skill.join("SKILL.md");
        crate::core::files::fsx::test_link(&outside, &p).unwrap();
        let head = read_head(&p).unwrap().unwrap();
        let err =
            write_head(&head, b"---\nname: pdf\n---\n", &skill, wait(), &mut || {}).unwrap_err();
        let said = err.to_string();
        assert!(matches!(err, HeadError::LinksOut { .. }), "{said}");
        assert!(said.contains(&p.display().to_string()), "{said}");
        assert!(said.contains("outside.md"), "{said}");
        assert_eq!(
            std::fs::read_to_string(&outside).unwrap(),
            "---\nname: a\n---\nsecret\n"
        );
        assert!(
            std::fs::symlink_metadata(&p)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A link to a file inside the folder is written through, the link kept.
        std::fs::remove_file(&p).unwrap();
        std::fs::write(skill.join("real.md"), "---\nname: a\n---\nbody\n").unwrap();
        crate::core::files::fsx::test_link("real.md", &p).unwrap();
        let head = read_head(&p).unwrap().unwrap();
        write_head(&head, b"---\nname: pdf\n---\n", &skill, wait(), &mut || {}).unwrap();
        assert_eq!(
            std::fs::read_to_string(skill.join("real.md")).unwrap(),
            "---\nname: pdf\n---\nbody\n"
        );
        assert!(
            std::fs::symlink_metadata(&p)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }
}
