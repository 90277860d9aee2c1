//! Archives unpacked without trusting them: entries that climb out (`../`, absolute paths),
//! devices, FIFOs, hard links and links that leave the archive are refused with a note; nothing
//! is ever written through a link (links are made last); sizes and counts are bounded.

use super::ManageError;
use super::error::ArchiveError;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    /// A `.zip` file.
    Zip,
    /// A gzip-compressed tar file (`.tar.gz`, `.tgz`).
    TarGz,
    /// A plain `.tar` file.
    Tar,
}

impl ArchiveKind {
    /// The format a file's name says.
    pub fn of(path: &Path) -> Option<ArchiveKind> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".zip") {
            Some(ArchiveKind::Zip)
        } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
            Some(ArchiveKind::TarGz)
        } else if name.ends_with(".tar") {
            Some(ArchiveKind::Tar)
        } else {
            None
        }
    }
}

/// At most this many entries are read from an archive.
pub const MAX_ENTRIES: usize = 100_000;
/// At most this many bytes are unpacked from an archive.
pub const MAX_BYTES: u64 = 1 << 30;

/// What an unpacking did.
#[derive(Debug, Default)]
pub struct Unpacked {
    /// Files written.
    pub files: usize,
    /// Entries refused or left out, and why.
    pub notes: Vec<String>,
}

/// What an entry is.
enum Kind {
    File {
        exec: bool,
    },
    Dir,
    Link(String),
    /// Refused: a device, a FIFO, a hard link, a socket.
    Other(&'static str),
}

/// Unpacks `archive` into `dest` (created).
pub fn unpack(archive: &Path, kind: ArchiveKind, dest: &Path) -> Result<Unpacked, ManageError> {
    std::fs::create_dir_all(dest).map_err(ManageError::io("create", dest))?;
    let mut w = Writer {
        archive,
        dest,
        entries: 0,
        bytes: 0,
        out: Unpacked::default(),
        links: Vec::new(),
    };
    let bad = |why: ArchiveError| ManageError::Archive {
        path: archive.to_path_buf(),
        why,
    };
    let (file, _) = crate::core::files::fsx::open_regular_up_to(archive, u64::MAX)?
        .ok_or_else(|| bad(ArchiveError::Missing))?;
    match kind {
        ArchiveKind::Zip => {
            let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file))
                .map_err(|e| bad(ArchiveError::NotZip(e)))?;
            for i in 0..zip.len() {
                let mut entry = zip
                    .by_index(i)
                    .map_err(|error| bad(ArchiveError::ZipEntry { index: i, error }))?;
                let name = entry.name_raw().to_vec();
                let kind = zip_kind(&entry);
                let kind = match kind {
                    Kind::Link(_) => {
                        let mut target = String::new();
                        (&mut entry)
                            .take(4096)
                            .read_to_string(&mut target)
                            .map_err(|error| bad(ArchiveError::ZipLink { index: i, error }))?;
                        Kind::Link(target)
                    }
                    k => k,
                };
                w.entry(&name, kind, &mut entry)?;
            }
        }
        ArchiveKind::TarGz => {
            let gz = flate2::read::GzDecoder::new(std::io::BufReader::new(file));
            read_tar(tar::Archive::new(gz), &mut w, &bad)?;
        }
        ArchiveKind::Tar => {
            read_tar(
                tar::Archive::new(std::io::BufReader::new(file)),
                &mut w,
                &bad,
            )?;
        }
    }
    Ok(w.finish())
}

fn zip_kind<R: Read + ?Sized>(e: &zip::read::ZipFile<'_, R>) -> Kind {
    const IFMT: u32 = 0o170_000;
    match e.unix_mode() {
        Some(mode) => match mode & IFMT {
            0o040_000 => Kind::Dir,
            0o120_000 => Kind::Link(String::new()),
            0o010_000 => Kind::Other("a FIFO"),
            0o020_000 | 0o060_000 => Kind::Other("a device file"),
            0o140_000 => Kind::Other("a socket"),
            _ if e.is_dir() => Kind::Dir,
            _ => Kind::File {
                exec: mode & 0o111 != 0,
            },
        },
        None if e.is_dir() => Kind::Dir,
        None => Kind::File { exec: false },
    }
}

fn read_tar<R: Read>(
    mut ar: tar::Archive<R>,
    w: &mut Writer<'_>,
    bad: &dyn Fn(ArchiveError) -> ManageError,
) -> Result<(), ManageError> {
    use tar::EntryType as T;
    let entries = ar.entries().map_err(|e| bad(ArchiveError::NotTar(e)))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| bad(ArchiveError::TarEntry(e)))?;
        let name = entry.path_bytes().into_owned();
        let mode = entry.header().mode().unwrap_or(0o644);
        let kind = match entry.header().entry_type() {
            T::Regular | T::Continuous => Kind::File {
                exec: mode & 0o111 != 0,
            },
            T::Directory => Kind::Dir,
            T::Symlink => Kind::Link(
                entry
                    .link_name_bytes()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default(),
            ),
            T::Link => Kind::Other("a hard link"),
            T::Char | T::Block => Kind::Other("a device file"),
            T::Fifo => Kind::Other("a FIFO"),
            // Extended headers belong to the entry after them: the reader has applied them.
            T::XGlobalHeader | T::XHeader | T::GNULongName | T::GNULongLink => continue,
            _ => Kind::Other("an entry of a kind skillscope does not unpack"),
        };
        w.entry(&name, kind, &mut entry)?;
    }
    Ok(())
}

struct Writer<'a> {
    archive: &'a Path,
    dest: &'a Path,
    entries: usize,
    bytes: u64,
    out: Unpacked,
    /// Links, made once every file is written, so that no file is written through one.
    links: Vec<(PathBuf, String, String)>,
}

impl Writer<'_> {
    fn entry(&mut self, raw: &[u8], kind: Kind, data: &mut dyn Read) -> Result<(), ManageError> {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return Err(ManageError::Archive {
                path: self.archive.to_path_buf(),
                why: ArchiveError::TooManyEntries(MAX_ENTRIES),
            });
        }
        let shown = crate::core::words::text::line(&String::from_utf8_lossy(raw)).into_owned();
        let rel = match entry_path(raw) {
            Ok(Some(rel)) => rel,
            Ok(None) => return Ok(()),
            Err(why) => {
                self.out.notes.push(format!("refused {shown}: {why}"));
                return Ok(());
            }
        };
        let path = self.dest.join(&rel);
        match kind {
            Kind::Other(what) => {
                self.out
                    .notes
                    .push(format!("refused {shown}: it is {what}"));
            }
            Kind::Dir => {
                if let Err(e) = std::fs::create_dir_all(&path) {
                    self.out.notes.push(format!("left out {shown}: {e}"));
                }
            }
            Kind::Link(target) => {
                let rel_s = rel.to_string_lossy().into_owned();
                if crate::core::manage::tree::link_stays_inside(&rel_s, &target) {
                    self.links.push((path, target, shown));
                } else {
                    self.out.notes.push(format!(
                        "left out {shown}: a link to {} leaves the archive",
                        crate::core::words::text::line(&target)
                    ));
                }
            }
            Kind::File { exec } => {
                if let Some(parent) = path.parent()
                    && let Err(e) = std::fs::create_dir_all(parent)
                {
                    self.out.notes.push(format!("left out {shown}: {e}"));
                    return Ok(());
                }
                if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
                    self.out
                        .notes
                        .push(format!("left out {shown}: a folder of that name is there"));
                    return Ok(());
                }
                let mut f =
                    std::fs::File::create(&path).map_err(ManageError::io("write", &path))?;
                let left = MAX_BYTES - self.bytes;
                let n = std::io::copy(&mut data.take(left + 1), &mut f).map_err(|error| {
                    ManageError::Archive {
                        path: self.archive.to_path_buf(),
                        why: ArchiveError::Write {
                            entry: shown.clone(),
                            error,
                        },
                    }
                })?;
                if n > left {
                    return Err(ManageError::Archive {
                        path: self.archive.to_path_buf(),
                        why: ArchiveError::TooLarge(MAX_BYTES),
                    });
                }
                self.bytes += n;
                let mode = if exec { 0o755 } else { 0o644 };
                let meta = std::fs::metadata(&path).map_err(ManageError::io("write", &path))?;
                std::fs::set_permissions(&path, crate::core::files::fsx::permissions(mode, &meta))
                    .map_err(ManageError::io("write", &path))?;
                self.out.files += 1;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Unpacked {
        for (path, target, shown) in std::mem::take(&mut self.links) {
            let made = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| {
                    let to_dir = path.parent().is_some_and(|p| p.join(&target).is_dir());
                    crate::core::files::fsx::symlink(Path::new(&target), &path, to_dir)
                });
            match made {
                Ok(()) => self.out.files += 1,
                Err(e) => self.out.notes.push(format!("left out {shown}: {e}")),
            }
        }
        self.out
    }
}

/// An entry's path below the folder unpacked into: `None` for the archive's own top (`./`);
/// an error saying why for one that is absolute or climbs out.
fn entry_path(raw: &[u8]) -> Result<Option<PathBuf>, &'static str> {
    if raw.contains(&0) {
        return Err("a NUL in its name");
    }
    if raw.first() == Some(&b'/') {
        return Err("an absolute path");
    }
    let path = crate::core::files::fsx::bytes_path(raw);
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir => return Err("its path climbs out of the archive (..)"),
            Component::RootDir | Component::Prefix(_) => return Err("an absolute path"),
        }
    }
    Ok((!out.as_os_str().is_empty()).then_some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_paths_stay_below_the_folder() {
        assert_eq!(entry_path(b"a/b").unwrap(), Some(PathBuf::from("a/b")));
        assert_eq!(entry_path(b"./a//b/").unwrap(), Some(PathBuf::from("a/b")));
        assert_eq!(entry_path(b"./").unwrap(), None);
        assert!(entry_path(b"../x").is_err());
        assert!(entry_path(b"a/../../x").is_err());
        assert!(entry_path(b"/etc/passwd").is_err());
    }

    #[test]
    fn a_hostile_tar_is_unpacked_without_leaving_its_folder() {
        let t = tempfile::tempdir().unwrap();
        let ar = t.path().join("x.tar");
        let mut b = tar::Builder::new(std::fs::File::create(&ar).unwrap());
        let mut add = |name: &[u8], kind: tar::EntryType, data: &[u8], link: Option<&str>| {
            let mut h = tar::Header::new_gnu();
            // Written raw: the builder's own setters refuse `..`.
            h.as_old_mut().name[..name.len()].copy_from_slice(name);
            h.set_entry_type(kind);
            h.set_size(data.len() as u64);
            h.set_mode(0o755);
            if let Some(l) = link {
                h.set_link_name(l).unwrap();
            }
            h.set_cksum();
            b.append(&h, data).unwrap();
        };
        add(b"s/SKILL.md", tar::EntryType::Regular, b"hi", None);
        add(b"../escaped", tar::EntryType::Regular, b"x", None);
        add(b"/abs", tar::EntryType::Regular, b"x", None);
        add(b"s/fifo", tar::EntryType::Fifo, b"", None);
        add(b"s/dev", tar::EntryType::Char, b"", None);
        add(b"s/out", tar::EntryType::Symlink, b"", Some("/etc/passwd"));
        add(b"s/in", tar::EntryType::Symlink, b"", Some("SKILL.md"));
        // A link to a folder outside, then a file through it: neither lands outside.
        add(b"s/d", tar::EntryType::Symlink, b"", Some("../.."));
        add(b"s/d/planted", tar::EntryType::Regular, b"x", None);
        b.into_inner().unwrap();
        let dest = t.path().join("out/tree");
        let u = unpack(&ar, ArchiveKind::Tar, &dest).unwrap();
        assert!(dest.join("s/SKILL.md").is_file());
        assert!(!t.path().join("out/escaped").exists());
        assert!(!t.path().join("escaped").exists());
        assert!(!dest.join("s/fifo").exists() && !dest.join("s/dev").exists());
        assert!(std::fs::symlink_metadata(dest.join("s/out")).is_err());
        assert_eq!(
            std::fs::read_link(dest.join("s/in")).unwrap(),
            PathBuf::from("SKILL.md")
        );
        assert!(!t.path().join("planted").exists());
        let notes = u.notes.join("\n");
        for want in [
            "climbs out",
            "absolute",
            "FIFO",
            "device",
            "leaves the archive",
        ] {
            assert!(notes.contains(want), "{want} in {notes}");
        }
    }
}
