//! A skill's files read by their path inside the skill folder, never outside it: absolute paths,
//! `..` and links that lead out are refused, and only regular files are opened (without blocking,
//! so a FIFO is an error rather than a hang).

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    #[error("no file named: give a path inside the skill folder, such as `references/guide.md`")]
    Empty,
    #[error("`{0}` is an absolute path: name the file by its path inside the skill folder")]
    Absolute(String),
    #[error("`{0}` climbs out of the skill folder with `..`: name a file inside it")]
    Parent(String),
    #[error("`{rel}` leads outside the skill folder (to {}): refused", target.display())]
    Outside { rel: String, target: PathBuf },
    #[error("`{0}` is not in the skill folder")]
    NotFound(String),
    #[error("`{rel}` is a {kind}, not a regular file: refused")]
    NotRegular { rel: String, kind: &'static str },
    #[error("`{rel}` is {size} bytes, over the {max} bytes read here")]
    TooLarge { rel: String, size: u64, max: u64 },
    #[error("cannot read `{rel}`: {source}")]
    Io { rel: String, source: std::io::Error },
}

/// The real path of `rel` inside `dir`, when it is one: relative, without `..`, and still inside
/// the folder once every link is followed. This is the rule the L3 walk and `show` share.
pub fn resolve_inside(dir: &Path, rel: &str) -> Result<PathBuf, ResourceError> {
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
    let io = |source: std::io::Error| ResourceError::Io {
        rel: rel.to_string(),
        source,
    };
    let base = dir.canonicalize().map_err(io)?;
    let real = match dir.join(p).canonicalize() {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ResourceError::NotFound(rel.to_string()));
        }
        Err(e) => return Err(io(e)),
    };
    if !real.starts_with(&base) {
        return Err(ResourceError::Outside {
            rel: rel.to_string(),
            target: real,
        });
    }
    Ok(real)
}

/// Whether a file found under `dir` stays inside it once its links are followed.
pub fn stays_inside(dir: &Path, path: &Path) -> bool {
    match (dir.canonicalize(), path.canonicalize()) {
        (Ok(base), Ok(real)) => real.starts_with(base),
        _ => false,
    }
}

fn kind_of(ft: std::fs::FileType) -> &'static str {
    if ft.is_dir() {
        "folder"
    } else if ft.is_fifo() {
        "named pipe"
    } else if ft.is_socket() {
        "socket"
    } else if ft.is_block_device() || ft.is_char_device() {
        "device"
    } else {
        "special file"
    }
}

/// Opens a file that must be regular. `O_NONBLOCK` makes opening a FIFO return at once, and
/// `O_NOFOLLOW` refuses a link swapped in after the path was resolved; the type is then checked
/// on the open file itself.
pub fn open_regular(path: &Path, rel: &str) -> Result<(File, u64), ResourceError> {
    let flags = nix::fcntl::OFlag::O_NONBLOCK | nix::fcntl::OFlag::O_NOFOLLOW;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits())
        .open(path)
        .map_err(|source| ResourceError::Io {
            rel: rel.to_string(),
            source,
        })?;
    let meta = file.metadata().map_err(|source| ResourceError::Io {
        rel: rel.to_string(),
        source,
    })?;
    if !meta.file_type().is_file() {
        return Err(ResourceError::NotRegular {
            rel: rel.to_string(),
            kind: kind_of(meta.file_type()),
        });
    }
    Ok((file, meta.len()))
}

/// Reads `rel` inside `dir` as text (bad UTF-8 replaced), at most `max` bytes.
pub fn read_inside(dir: &Path, rel: &str, max: u64) -> Result<String, ResourceError> {
    let real = resolve_inside(dir, rel)?;
    let (file, size) = open_regular(&real, rel)?;
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
        .map_err(|source| ResourceError::Io {
            rel: rel.to_string(),
            source,
        })?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Text made safe for a terminal: control characters other than line breaks and tabs in caret
/// notation (`^[`), DEL as `^?`, C1 controls as `<U+009B>`, so a file is shown, not obeyed.
pub fn escape_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' => out.push(c),
            '\u{7f}' => out.push_str("^?"),
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from(b'@' + c as u8));
            }
            c if ('\u{80}'..='\u{9f}').contains(&c) => {
                out.push_str(&format!("<U+{:04X}>", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_not_obeyed() {
        assert_eq!(
            escape_controls("a\x1b[31mb\r\n\tc\x7f\u{9b}"),
            "a^[[31mb^M\n\tc^?<U+009B>"
        );
    }

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
        std::os::unix::fs::symlink("references/guide.md", d.join("link.md")).unwrap();
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
        std::os::unix::fs::symlink(&abs, d.join("out.txt")).unwrap();
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
            ResourceError::NotRegular { kind: "folder", .. }
        ));
        assert!(
            err("out.txt")
                .to_string()
                .contains("outside the skill folder")
        );
    }

    #[test]
    fn a_fifo_is_an_error_not_a_hang() {
        let (_t, d) = skill();
        nix::unistd::mkfifo(&d.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let e = read_inside(&d, "pipe", 1024).unwrap_err();
        assert!(
            matches!(
                e,
                ResourceError::NotRegular {
                    kind: "named pipe",
                    ..
                }
            ),
            "{e:?}"
        );
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
