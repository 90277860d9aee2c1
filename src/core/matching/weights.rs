//! Where the sentence model's weights come from. A build from a git checkout embeds
//! `assets/model/model.safetensors` (build.rs sees the file and sets `skillscope_embedded_model`);
//! the published crate leaves the 45 MB file out, and a program built from it reads the weights
//! that `skillscope model install` put in skillscope's data folder, after checking them against
//! the pinned SHA-256 below.

use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The SHA-256 of the weights file, as `assets/model/SHA256SUMS` lists it: the only file
/// `model install` accepts.
pub const SHA256: &str = "17802e6f593d12bb9dea64d2e9f338e5d0b4721c229f578323da3746212f1c00";

/// Its size in bytes.
pub const SIZE: u64 = 45_141_904;

/// Where the release workflow publishes the same file (a release asset of the model's own tag);
/// `skillscope model install --url` takes it from there by default.
pub const URL: &str =
    "https://github.com/skillscope/skillscope/releases/download/model-routing-1/model.safetensors";

/// Whether this program carries the weights in its binary.
pub const EMBEDDED: bool = cfg!(all(feature = "semantic", skillscope_embedded_model));

/// The environment variable that, set to `installed`, makes a program with embedded weights read
/// the installed ones instead, as a program built from the published crate does.
pub const SOURCE_ENV: &str = "SKILLSCOPE_MODEL";

/// The installed weights: `model/model.safetensors` in skillscope's data folder.
pub fn installed_path() -> PathBuf {
    crate::core::files::paths::data_root()
        .join("model")
        .join("model.safetensors")
}

/// Whether the model is read from the binary (else from [`installed_path`]).
pub fn uses_embedded() -> bool {
    EMBEDDED && std::env::var_os(SOURCE_ENV).is_none_or(|v| v != "installed")
}

/// What is wrong with a weights file.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file given cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The installed file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// Where it was to be written.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    #[error(
        "{} is not the sentence model's weights: its SHA-256 is {found} ({size} bytes), \
         expected {SHA256} ({SIZE} bytes); nothing was installed",
        path.display()
    )]
    /// The file is not the pinned one.
    Mismatch {
        /// The file given.
        path: PathBuf,
        /// Its SHA-256.
        found: String,
        /// Its size in bytes.
        size: u64,
    },
}

/// The SHA-256 (hex) and length of what `reader` yields, read in blocks.
fn digest(
    mut reader: impl Read,
    mut also: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<(String, u64)> {
    let mut hash = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hash.update(&buf[..n]);
        also(&buf[..n])?;
        size += n as u64;
    }
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((hex, size))
}

/// Installs the weights in `file` at `dest`: copied into a new file beside it, checked against
/// [`SHA256`] on the way, and renamed over `dest` only when they match, so a wrong or short file
/// leaves whatever was installed before as it was.
pub fn install(file: &Path, dest: &Path) -> Result<(), WeightsError> {
    let read_err = |source| WeightsError::Read {
        path: file.to_path_buf(),
        source,
    };
    let source = std::fs::File::open(file).map_err(read_err)?;
    if !source.metadata().map_err(read_err)?.is_file() {
        return Err(read_err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a file",
        )));
    }
    if let Some(dir) = dest.parent() {
        std::fs::create_dir_all(dir).map_err(|source| WeightsError::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let mut outcome: Option<Result<(), WeightsError>> = None;
    let written = crate::core::files::paths::write_atomic_with(dest, None, |out| {
        use std::io::Write;
        // Reading errors are told apart from writing ones by where they happened.
        let mut read_failed = None;
        let reader = ReadTap {
            inner: source,
            failed: &mut read_failed,
        };
        let result = digest(reader, |block| out.write_all(block));
        match (result, read_failed) {
            (_, Some(e)) => {
                outcome = Some(Err(read_err(e)));
                Err(std::io::Error::other("read failed"))
            }
            (Err(e), None) => Err(e),
            (Ok((found, size)), None) if found != SHA256 || size != SIZE => {
                outcome = Some(Err(WeightsError::Mismatch {
                    path: file.to_path_buf(),
                    found,
                    size,
                }));
                Err(std::io::Error::other("mismatch"))
            }
            (Ok(_), None) => Ok(()),
        }
    });
    match (written, outcome) {
        (_, Some(Err(e))) => Err(e),
        (Err(source), _) => Err(WeightsError::Write {
            path: dest.to_path_buf(),
            source,
        }),
        (Ok(()), _) => Ok(()),
    }
}

/// A reader that keeps its error apart, so that a copy's failure says which side failed.
struct ReadTap<'a, R> {
    inner: R,
    failed: &'a mut Option<std::io::Error>,
}

impl<R: Read> Read for ReadTap<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let kind = e.kind();
            *self.failed = Some(e);
            std::io::Error::from(kind)
        })
    }
}

/// The state of the weights, as `skillscope model status` tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Built without the `semantic` feature: no model at all.
    NotBuiltIn,
    /// In the binary.
    Embedded,
    /// Installed at the path, and their SHA-256 is the pinned one.
    Installed(PathBuf),
    /// A file is at the path, but not the pinned weights.
    Damaged {
        /// The installed file.
        path: PathBuf,
        /// Its SHA-256 (or why it could not be read).
        found: String,
    },
    /// Nothing at the path.
    Missing(PathBuf),
}

/// The weights' state: checks the installed file's hash (a tenth of a second).
pub fn status() -> Status {
    if !cfg!(feature = "semantic") {
        return Status::NotBuiltIn;
    }
    if uses_embedded() {
        return Status::Embedded;
    }
    let path = installed_path();
    match std::fs::File::open(&path) {
        Err(_) => Status::Missing(path),
        Ok(f) => match digest(f, |_| Ok(())) {
            Ok((found, size)) if found == SHA256 && size == SIZE => Status::Installed(path),
            Ok((found, _)) => Status::Damaged { path, found },
            Err(e) => Status::Damaged {
                path,
                found: format!("unreadable ({e})"),
            },
        },
    }
}

/// What to do when the weights are not installed.
pub fn how_to_install() -> String {
    format!(
        "install it with `skillscope model install --url` (downloads {URL}) or `skillscope model \
         install FILE` (a copy of that file), which checks its SHA-256 and puts it in {}",
        installed_path().display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn real_weights() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/model/model.safetensors")
    }

    #[test]
    fn the_pinned_hash_is_the_one_the_checkout_lists() {
        let sums = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/model/SHA256SUMS"),
        )
        .unwrap();
        assert!(
            sums.lines()
                .any(|l| l == format!("{SHA256}  model.safetensors")),
            "{sums}"
        );
    }

    #[test]
    fn the_real_weights_install_and_a_changed_byte_does_not() {
        let weights = real_weights();
        if !weights.is_file() {
            eprintln!("SKIPPED: no weights in this checkout");
            return;
        }
        let t = tempfile::tempdir().unwrap();
        let dest = t.path().join("data/model/model.safetensors");
        install(&weights, &dest).unwrap();
        assert_eq!(std::fs::metadata(&dest).unwrap().len(), SIZE);

        // One byte changed: refused, and the installed file stays as it was.
        let mut bytes = std::fs::read(&weights).unwrap();
        bytes[1000] ^= 1;
        let bad = t.path().join("bad.safetensors");
        std::fs::write(&bad, &bytes).unwrap();
        let e = install(&bad, &dest).unwrap_err();
        assert!(matches!(e, WeightsError::Mismatch { .. }), "{e}");
        assert!(e.to_string().contains("nothing was installed"), "{e}");
        assert_eq!(
            std::fs::read(&dest).unwrap(),
            std::fs::read(&weights).unwrap()
        );
        // No temporary file left beside it.
        let names: Vec<_> = std::fs::read_dir(dest.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["model.safetensors"]);
    }

    #[test]
    fn a_wrong_file_installs_nothing() {
        let t = tempfile::tempdir().unwrap();
        let dest = t.path().join("model/model.safetensors");
        let short = t.path().join("short");
        let text = b"{\"not\": \"weights\"}";
        std::fs::write(&short, text).unwrap();
        let e = install(&short, &dest).unwrap_err();
        match &e {
            WeightsError::Mismatch { size, .. } => assert_eq!(*size, text.len() as u64),
            other => panic!("{other}"),
        }
        assert!(!dest.exists());
        // A folder, a missing file: read errors naming the path.
        for p in [t.path().to_path_buf(), t.path().join("missing")] {
            let e = install(&p, &dest).unwrap_err();
            assert!(matches!(e, WeightsError::Read { .. }), "{e}");
            assert!(e.to_string().contains(&p.display().to_string()), "{e}");
        }
        assert!(!dest.exists());
    }
}
