//! What can go wrong managing a library, for every step of it.

use std::path::{Path, PathBuf};

/// What can go wrong fetching, staging, installing, removing or recording a skill.
#[derive(Debug, thiserror::Error)]
pub enum ManageError {
    /// A file operation failed.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        /// What was being done (`read`, `copy`, `rename`, …).
        what: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// git could not fetch the source.
    #[error(transparent)]
    Git(#[from] crate::core::gitref::GitError),
    /// An archive could not be unpacked.
    #[error("{}: {why}", path.display())]
    Archive {
        /// The archive.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// A file could not be read or locked.
    #[error(transparent)]
    Fsx(#[from] crate::core::fsx::FsxError),
    /// A manifest (`skills.lock`) could not be read or written.
    #[error("{}: {why}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The source cannot be used.
    #[error("{0}")]
    Source(String),
    /// What was asked would lose something of the user's, so it was not done.
    #[error("{0}")]
    Refused(String),
}

impl ManageError {
    pub(crate) fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| ManageError::Io { what, path, source }
    }
}
