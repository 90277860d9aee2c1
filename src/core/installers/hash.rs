//! The hashes the installers record of a skill folder, computed the way they compute them:
//! `npx skills`' `computedHash` (`computeSkillFolderHash`) and ClawHub's `fingerprint`
//! (`buildSkillFingerprint`). Both sort paths with JavaScript's `localeCompare` (ICU root
//! collation), modelled here for printable ASCII names; a name outside it is refused rather than
//! guessed (`tests/fixtures/installers/README.md`, `scripts/skills-lock-hash.py`).

use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a folder's hash could not be computed the installer's way.
#[derive(Debug, thiserror::Error)]
pub enum HashError {
    /// A path whose place in ICU's order is not modelled.
    #[error(
        "the file name {0:?} holds characters outside printable ASCII, whose order the installer's sort (ICU) decides: not compared"
    )]
    Unmodelled(String),
    /// A file or folder could not be read.
    #[error("cannot read {path}: {why}")]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        why: std::io::Error,
    },
    /// A folder holding an ignore file (`.gitignore`, `.clawhubignore`), whose rules ClawHub's
    /// fingerprint follows and skillscope does not model.
    #[error(
        "cannot read {path}: ClawHub leaves out what it names, which is not modelled: not compared"
    )]
    IgnoreFile {
        /// The ignore file.
        path: PathBuf,
    },
}

/// ICU root collation's primary order of printable ASCII (letters without case): punctuation
/// and symbols, then digits, then letters.
const PRIMARY: &[u8] = b" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz";

fn rank(c: u8) -> Option<u8> {
    let lower = c.to_ascii_lowercase();
    PRIMARY.iter().position(|&p| p == lower).map(|i| i as u8)
}

/// `a.localeCompare(b)` for printable ASCII strings: primary weights first (letters compared
/// without case), then on a tie lower case before upper case, position by position.
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let ranks = |s: &str| {
        s.bytes()
            .map(|c| rank(c).unwrap_or(u8::MAX))
            .collect::<Vec<_>>()
    };
    let cases = |s: &str| {
        s.bytes()
            .map(|c| c.is_ascii_uppercase())
            .collect::<Vec<_>>()
    };
    ranks(a)
        .cmp(&ranks(b))
        .then_with(|| cases(a).cmp(&cases(b)))
}

/// Whether `locale_compare` models the string: printable ASCII only.
fn modelled(s: &str) -> bool {
    s.bytes().all(|c| rank(c).is_some())
}

/// Every regular file below `dir` (links neither followed nor listed), by its `/`-separated path
/// inside it, leaving out folders `skip_dir` names and files `skip_file` names.
fn files(
    dir: &Path,
    skip_dir: &dyn Fn(&str) -> bool,
    skip_file: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>, HashError> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((here, prefix)) = stack.pop() {
        let entries = std::fs::read_dir(&here).map_err(|e| HashError::Read {
            path: here.clone(),
            why: e,
        })?;
        for e in entries {
            let e = e.map_err(|e| HashError::Read {
                path: here.clone(),
                why: e,
            })?;
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(kind) = e.file_type() else { continue };
            let rel = format!("{prefix}{name}");
            if kind.is_dir() {
                if !skip_dir(&name) {
                    stack.push((e.path(), format!("{rel}/")));
                }
            } else if kind.is_file() && !skip_file(&name) {
                out.push(rel);
            }
        }
    }
    if let Some(bad) = out.iter().find(|p| !modelled(p)) {
        return Err(HashError::Unmodelled(bad.clone()));
    }
    out.sort_by(|a, b| locale_compare(a, b));
    Ok(out)
}

/// Feeds a file's bytes to `h`, a piece at a time; only a regular file is opened.
fn feed(h: &mut Sha256, path: &Path) -> Result<(), HashError> {
    let read = |e: std::io::Error| HashError::Read {
        path: path.to_path_buf(),
        why: e,
    };
    let (mut f, _) = crate::core::files::fsx::open_regular(path).map_err(read)?;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = f.read(&mut buf).map_err(read)?;
        if n == 0 {
            return Ok(());
        }
        h.update(&buf[..n]);
    }
}

/// `npx skills`' `computedHash` of a skill folder: one SHA-256 over each regular file's path and
/// bytes in `localeCompare` order, folders named `.git` and `node_modules` left out.
pub fn skills_hash(dir: &Path) -> Result<String, HashError> {
    skills_hash_leaving(dir, &|_| false, &|_| false)
}

/// [`skills_hash`] of the copy `npx skills` makes of a source folder: without `metadata.json`
/// and folders named `.git`, `__pycache__` and `__pypackages__` (`copyDirectory`).
pub fn installed_copy_hash(source: &Path) -> Result<String, HashError> {
    skills_hash_leaving(
        source,
        &|d| matches!(d, "__pycache__" | "__pypackages__"),
        &|f| f == "metadata.json",
    )
}

fn skills_hash_leaving(
    dir: &Path,
    skip_dir: &dyn Fn(&str) -> bool,
    skip_file: &dyn Fn(&str) -> bool,
) -> Result<String, HashError> {
    let paths = files(
        dir,
        &|d| d == ".git" || d == "node_modules" || skip_dir(d),
        skip_file,
    )?;
    let mut h = Sha256::new();
    for rel in paths {
        h.update(rel.as_bytes());
        feed(&mut h, &dir.join(&rel))?;
    }
    Ok(hex(&h.finalize()))
}

/// ClawHub's `fingerprint` of an installed skill folder: the lines `PATH:SHA256` of every file
/// whose path has no segment starting with `.` and no `node_modules`, sorted by path with
/// `localeCompare`, joined by `\n`, hashed. ClawHub also leaves out what the folder's
/// `.gitignore` and `.clawhubignore` name; a folder holding either is not compared.
pub fn clawhub_fingerprint(dir: &Path) -> Result<String, HashError> {
    for ignore in [".gitignore", ".clawhubignore"] {
        if dir.join(ignore).exists() {
            return Err(HashError::IgnoreFile {
                path: dir.join(ignore),
            });
        }
    }
    let hidden = |n: &str| n.starts_with('.') || n == "node_modules";
    let paths = files(dir, &hidden, &hidden)?;
    let mut lines = Vec::with_capacity(paths.len());
    for rel in paths {
        let mut h = Sha256::new();
        feed(&mut h, &dir.join(&rel))?;
        lines.push(format!("{rel}:{}", hex(&h.finalize())));
    }
    Ok(hex(&Sha256::digest(lines.join("\n").as_bytes())))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(case: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/installers")
            .join(case)
    }

    #[test]
    fn locale_order_is_icus_not_bytes() {
        let mut v = vec![
            "SKILL.md",
            "README.md",
            "scripts/extract.sh",
            "references/forms.md",
        ];
        v.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            v,
            [
                "README.md",
                "references/forms.md",
                "scripts/extract.sh",
                "SKILL.md"
            ]
        );
        // Case only breaks ties, lower case first; punctuation before digits before letters.
        assert_eq!(locale_compare("a", "A"), Ordering::Less);
        assert_eq!(locale_compare("B", "a"), Ordering::Greater);
        assert_eq!(locale_compare("_x", "-x"), Ordering::Less);
        assert_eq!(locale_compare("9", "a"), Ordering::Less);
        assert_eq!(locale_compare("a", "a-b"), Ordering::Less);
    }

    #[test]
    fn the_recorded_hashes_are_recomputed_from_the_captured_files() {
        // The source folders `npx skills` hashed (`skills-lock.json` of project-local).
        let src = fixture("skills-cli@1.7.4/source/files/skills");
        assert_eq!(
            skills_hash(&src.join("pdf-tools")).unwrap(),
            "9b31103770ea37b383de8bbd59a2463670a212a48dfa65f658224da1f1a15bc6"
        );
        assert_eq!(
            skills_hash(&src.join("git-commit")).unwrap(),
            "0d31c29df61a65ac729c32a11afdc968c13bad40dabbf6dbecdd29b4ad6bb1c8"
        );
        assert_eq!(
            skills_hash(&src.join("web-search")).unwrap(),
            "524821ba68c31766e77a8dec26ae31c16fab1c4a75395f71bad22f129615db1e"
        );
        // Its copy leaves metadata.json out: the installed folder hashes differently, and the
        // copy's hash of the source says what the installed folder should hash to.
        let installed = fixture("skills-cli@1.7.4/project-local/files/.agents/skills/web-search");
        let copy = "ab03abc10bfc0745fefe0bf324e65f022adc652b57a9aade944db6e1ea9b3ad2";
        assert_eq!(skills_hash(&installed).unwrap(), copy);
        assert_eq!(installed_copy_hash(&src.join("web-search")).unwrap(), copy);
        // ClawHub's fingerprints, as its origin.json files record them.
        let claw = fixture("clawhub@0.23.3/install-pin/files/skills");
        for dir in ["pdf-tools", "@example/web-search", "commit-helper"] {
            let origin =
                std::fs::read_to_string(claw.join(dir).join(".clawhub/origin.json")).unwrap();
            let origin: serde_json::Value = serde_json::from_str(&origin).unwrap();
            let got = clawhub_fingerprint(&claw.join(dir)).unwrap();
            assert_eq!(got, origin["fingerprint"].as_str().unwrap(), "{dir}");
        }
    }

    #[test]
    fn names_outside_printable_ascii_are_refused_not_guessed() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("SKILL.md"), "x").unwrap();
        std::fs::write(t.path().join("é.md"), "x").unwrap();
        assert!(matches!(
            skills_hash(t.path()),
            Err(HashError::Unmodelled(_))
        ));
    }
}
