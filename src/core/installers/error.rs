//! Why an installer's record could not be read or edited.

use std::path::PathBuf;

/// Why a record file (`skills-lock.json`, `.skill-lock.json`, ClawHub's `lock.json`) could not
/// be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file could not be read (the error names the file).
    #[error(transparent)]
    Read(#[from] crate::core::files::fsx::FsxError),
    /// The file is not JSON.
    #[error("{}: not JSON: {source}", path.display())]
    NotJson {
        /// The file.
        path: PathBuf,
        /// The parser's words.
        source: serde_json::Error,
    },
}

/// Why a project's `skills-lock.json` could not be given new entries.
#[derive(Debug, thiserror::Error)]
pub enum LockEditError {
    /// The file is not JSON.
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// The file's top level is not an object.
    #[error("not a JSON object")]
    NotObject,
    /// The file is of a newer version than the one written.
    #[error("version {found} is newer than the version {writes} skillscope writes")]
    Newer {
        /// The file's version.
        found: u64,
        /// The version written.
        writes: u64,
    },
    /// The file holds no `skills` object once made current.
    #[error("no skills")]
    NoSkills,
    /// The edited record could not be written as JSON.
    #[error("{0}")]
    Write(serde_json::Error),
}
