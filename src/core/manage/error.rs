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
    Git(#[from] crate::core::files::gitref::GitError),
    /// An archive could not be unpacked.
    #[error("{}: {why}", path.display())]
    Archive {
        /// The archive.
        path: PathBuf,
        /// Why.
        why: ArchiveError,
    },
    /// A file could not be read or locked.
    #[error(transparent)]
    Fsx(#[from] crate::core::files::fsx::FsxError),
    /// A manifest (`skills.lock`, a project's `skills-lock.json`) could not be read or written.
    #[error("{}: {why}", path.display())]
    Manifest {
        /// The manifest file (or the skill folder whose hash it records).
        path: PathBuf,
        /// Why.
        why: ManifestError,
    },
    /// The source cannot be used.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// What was asked would lose something of the user's, so it was not done.
    #[error(transparent)]
    Refused(#[from] Refusal),
}

/// Why an archive could not be unpacked.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// The archive is not there.
    #[error("no such file")]
    Missing,
    /// Not a zip archive.
    #[error("not a zip archive: {0}")]
    NotZip(zip::result::ZipError),
    /// A zip entry could not be read.
    #[error("entry {index}: {error}")]
    ZipEntry {
        /// The entry's place in the archive.
        index: usize,
        /// Why.
        error: zip::result::ZipError,
    },
    /// A zip entry's link target could not be read.
    #[error("entry {index}: {error}")]
    ZipLink {
        /// The entry's place in the archive.
        index: usize,
        /// Why.
        error: std::io::Error,
    },
    /// Not a tar archive.
    #[error("not a tar archive: {0}")]
    NotTar(std::io::Error),
    /// A tar entry could not be read.
    #[error("unreadable entry: {0}")]
    TarEntry(std::io::Error),
    /// More entries than are unpacked.
    #[error("more than {0} entries; not unpacked")]
    TooManyEntries(usize),
    /// More bytes than are unpacked.
    #[error("more than {} MiB unpacked; not unpacked", .0 >> 20)]
    TooLarge(u64),
    /// An entry could not be written out.
    #[error("{entry}: {error}")]
    Write {
        /// The entry's name, as shown.
        entry: String,
        /// Why.
        error: std::io::Error,
    },
}

/// Why a manifest could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// Not a skillscope manifest.
    #[error("not a skillscope manifest: {0}")]
    NotManifest(serde_json::Error),
    /// A manifest of another version.
    #[error("manifest version {found} is not supported (this skillscope reads version {reads})")]
    Version {
        /// The version the file says.
        found: u32,
        /// The version read.
        reads: u32,
    },
    /// The manifest could not be written as JSON.
    #[error("{0}")]
    Write(serde_json::Error),
    /// A project's `skills-lock.json` could not take the new entries.
    #[error(transparent)]
    Lock(#[from] crate::core::installers::error::LockEditError),
    /// A skill folder's hash could not be computed.
    #[error(transparent)]
    Hash(#[from] crate::core::installers::hash::HashError),
}

/// Why a source (SOURCE as typed, or as a manifest records it) cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// Nothing was given.
    #[error("the source is empty")]
    Empty,
    /// `--ref` given with a local path.
    #[error("--ref is for git sources; {0} is a local path")]
    RefOfLocal(String),
    /// A path that exists but is neither a folder nor an archive.
    #[error("{0} is neither a folder nor a .zip, .tar.gz, .tgz or .tar archive")]
    NotFolderOrArchive(String),
    /// A git URL whose transport runs a command.
    #[error("{0}: git transports that run commands are never used")]
    CommandTransport(String),
    /// A source that starts with `-`.
    #[error("{0} reads as an option, not a source")]
    LooksLikeOption(String),
    /// A `--ref` that is no branch or tag name.
    #[error("{0:?} is not a branch or tag name")]
    BadRef(String),
    /// Neither a path that exists nor a git URL.
    #[error(
        "{0}: no such folder or archive, and not a git URL (https://…, ssh://…, git@host:path, file://…) or GitHub's owner/repo"
    )]
    Unknown(String),
    /// A recorded archive whose kind is not known.
    #[error("{0} is not a known archive")]
    UnknownArchive(String),
    /// The source (as shown) holds no skill.
    #[error("no skills found in {0}")]
    NoSkills(String),
}

/// What was not done because it would lose something of the user's (or cannot be done safely).
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// A folder with no name to put in the trash.
    #[error("{} is no skill folder", .0.display())]
    NoSkillFolder(PathBuf),
    /// The trash is not a folder.
    #[error("{} is not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// Something is where a trashed skill would be restored to.
    #[error(
        "{} is there again; move it away first, or restore by hand from {}",
        from.display(),
        item.display()
    )]
    ThereAgain {
        /// Where the skill was.
        from: PathBuf,
        /// The skill in the trash.
        item: PathBuf,
    },
    /// A trash entry id that is not one plain name.
    #[error("{0:?} is not a trash entry")]
    NotTrashEntry(String),
    /// A skill folder with no name to stage it under.
    #[error("{} has no safe folder name", .0.display())]
    NoSafeFolderName(PathBuf),
    /// A place with no parent folder.
    #[error("{} has no folder", .0.display())]
    NoFolder(PathBuf),
    /// Something is where a link would go.
    #[error(
        "{} is already there: not replaced by a link (remove it first, or add --replace)",
        .0.display()
    )]
    NotReplacedByLink(PathBuf),
    /// The project scope with no project.
    #[error("no project folder here (the project scope needs one): use --scope user")]
    NoProject,
    /// A scope skills are not added at.
    #[error("skills are added at the user or project scope, not {0}")]
    Scope(crate::core::source::Scope),
    /// An agent (as shown) with no skill folder at a scope.
    #[error("{agent} has no skill folder at the {scope} scope")]
    NoAgentFolder {
        /// The agent, as shown.
        agent: &'static str,
        /// The scope.
        scope: crate::core::source::Scope,
    },
    /// A project's path that, through a link the project holds, leads outside it.
    #[error(
        "{} leads out of the project {} (to {}, through a link the project holds): nothing was written",
        crate::core::words::escape::path(path),
        crate::core::words::escape::path(project),
        crate::core::words::escape::path(to)
    )]
    LeavesProject {
        /// The path as the project names it.
        path: PathBuf,
        /// The project folder.
        project: PathBuf,
        /// Where it leads.
        to: PathBuf,
    },
    /// The target folder was swapped while skills were written into it.
    #[error(
        "{} was replaced by another folder or a link while skills were being written into it: nothing more was written",
        crate::core::words::escape::path(.0)
    )]
    Swapped(PathBuf),
    /// A recorded folder name that is not one plain name.
    #[error(
        "{} names the folder {:?}, which is not one plain folder name (letters, digits, `.`, `_`, `-`, not starting with `.`): left alone",
        from.display(),
        crate::core::words::text::line(name)
    )]
    NotPlainName {
        /// The file that names it.
        from: PathBuf,
        /// The name as written.
        name: String,
    },
    /// A settings file changed since it was read.
    #[error("{} changed since it was read; nothing was cleaned, try again", .0.display())]
    Changed(PathBuf),
    /// Something is where a folder would be moved to.
    #[error("{} is already there", .0.display())]
    AlreadyThere(PathBuf),
    /// A folder to remove that is not one.
    #[error("{} is no folder to remove", .0.display())]
    NoFolderToRemove(PathBuf),
    /// A special file (its kind in words), never moved.
    #[error("{} is {kind}; moved by hand only", from.display())]
    Special {
        /// The file.
        from: PathBuf,
        /// What it is (`a FIFO`, …).
        kind: &'static str,
    },
    /// A skill is already installed at the place.
    #[error(
        "{} is already there: nothing was written (--replace puts the installed skill in the trash and this one in its place)",
        .0.display()
    )]
    Installed(PathBuf),
    /// A skill not moved into place, and the one it replaced not put back from the trash.
    #[error(
        "{failed}; and the replaced skill could not be put back ({back}): `skillscope restore {id}` does it"
    )]
    NotPutBack {
        /// Why the skill was not moved into place.
        failed: Box<ManageError>,
        /// Why the replaced one was not put back.
        back: Box<ManageError>,
        /// The replaced skill's trash entry.
        id: String,
    },
    /// Skills installed, but the project's record of them not updated.
    #[error("installed, but {} was not updated: {why}", path.display())]
    RecordNotUpdated {
        /// The record file.
        path: PathBuf,
        /// Why.
        why: Box<ManageError>,
    },
}

impl ManageError {
    pub(crate) fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| ManageError::Io { what, path, source }
    }
}
