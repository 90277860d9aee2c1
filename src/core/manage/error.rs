//! What can go wrong managing a library, for every step of it.

use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum ManageError {
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Git(#[from] crate::core::gitref::GitError),
    #[error("{}: {why}", path.display())]
    Archive {
        /// The archive.
        path: PathBuf,
        /// Why.
        why: String,
    },
    #[error(transparent)]
    Fsx(#[from] crate::core::fsx::FsxError),
    #[error("{}: {why}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    #[error("{0}")]
    Source(String),
    #[error("{0}")]
    Refused(String),
}

impl ManageError {
    pub(crate) fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| ManageError::Io { what, path, source }
    }
}
