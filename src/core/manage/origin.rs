//! Where skills come from: a git URL, a local folder or an archive, told apart from the text the
//! user gave, and fetched into a temporary folder without running anything from it.

use super::ManageError;
use super::archive::{self, ArchiveKind};
use super::error::SourceError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A source of skills.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Any URL git accepts (`https://`, `ssh://`, `git@host:path`, `file://`), at a branch or
    /// tag when one is given, else at the remote's default branch.
    Git {
        /// The URL as given.
        url: String,
        /// The branch or tag asked for.
        reference: Option<String>,
    },
    /// A folder on this machine, read as it is.
    Folder(PathBuf),
    /// A `.zip`, `.tar.gz` (`.tgz`) or `.tar` file on this machine.
    Archive {
        /// The archive file.
        path: PathBuf,
        /// Its format, from its name.
        kind: ArchiveKind,
    },
}

/// How a source is written down in the manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OriginKind {
    /// A git repository.
    Git,
    /// A folder.
    Folder,
    /// An archive.
    Archive,
}

/// A source as the manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OriginRecord {
    /// Git, folder or archive.
    pub kind: OriginKind,
    /// The URL as given, or the folder's or archive's absolute path.
    pub location: String,
    /// The branch or tag asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// Transports that run a command of the URL's choosing: never used, whatever git's settings say.
const COMMAND_TRANSPORTS: [&str; 2] = ["ext::", "fd::"];

impl Origin {
    /// Reads SOURCE: an existing folder or archive first, else a git URL. `reference` (a branch
    /// or tag) is for git sources only.
    pub fn parse(text: &str, reference: Option<&str>) -> Result<Origin, ManageError> {
        let refuse = |why: SourceError| Err(ManageError::Source(why));
        if text.is_empty() || text.contains('\0') {
            return refuse(SourceError::Empty);
        }
        let path = Path::new(text);
        if let Ok(meta) = std::fs::metadata(path) {
            let abs = crate::core::files::paths::absolute(path);
            if reference.is_some() {
                return refuse(SourceError::RefOfLocal(text.to_string()));
            }
            if meta.is_dir() {
                return Ok(Origin::Folder(abs));
            }
            return match ArchiveKind::of(path) {
                Some(kind) if meta.is_file() => Ok(Origin::Archive { path: abs, kind }),
                _ => refuse(SourceError::NotFolderOrArchive(text.to_string())),
            };
        }
        let lower = text.to_ascii_lowercase();
        if COMMAND_TRANSPORTS.iter().any(|t| lower.starts_with(t)) {
            return refuse(SourceError::CommandTransport(text.to_string()));
        }
        if text.starts_with('-') {
            return refuse(SourceError::LooksLikeOption(text.to_string()));
        }
        if let Some(r) = reference
            && (r.is_empty() || r.starts_with('-') || r.chars().any(char::is_control))
        {
            return refuse(SourceError::BadRef(r.to_string()));
        }
        if looks_like_git_url(text) {
            return Ok(Origin::Git {
                url: text.to_string(),
                reference: reference.map(str::to_string),
            });
        }
        // After the path: a folder named `owner/repo` that exists is read as that folder.
        if let Some(url) = github_shorthand(text) {
            return Ok(Origin::Git {
                url,
                reference: reference.map(str::to_string),
            });
        }
        refuse(SourceError::Unknown(text.to_string()))
    }

    /// The source as the manifest records it.
    pub fn record(&self) -> OriginRecord {
        match self {
            Origin::Git { url, reference } => OriginRecord {
                kind: OriginKind::Git,
                location: url.clone(),
                reference: reference.clone(),
            },
            Origin::Folder(p) => OriginRecord {
                kind: OriginKind::Folder,
                location: p.display().to_string(),
                reference: None,
            },
            Origin::Archive { path, .. } => OriginRecord {
                kind: OriginKind::Archive,
                location: path.display().to_string(),
                reference: None,
            },
        }
    }

    /// The source a manifest entry names, to fetch it again.
    pub fn from_record(r: &OriginRecord) -> Result<Origin, ManageError> {
        match r.kind {
            OriginKind::Git => {
                let o = Origin::Git {
                    url: r.location.clone(),
                    reference: r.reference.clone(),
                };
                // The manifest is a file anyone may have edited: its URL is held to the rules
                // of one typed by hand.
                let lower = r.location.to_ascii_lowercase();
                if COMMAND_TRANSPORTS.iter().any(|t| lower.starts_with(t))
                    || r.location.starts_with('-')
                {
                    return Err(SourceError::CommandTransport(r.location.clone()).into());
                }
                Ok(o)
            }
            OriginKind::Folder => Ok(Origin::Folder(PathBuf::from(&r.location))),
            OriginKind::Archive => {
                let path = PathBuf::from(&r.location);
                let kind = ArchiveKind::of(&path).ok_or_else(|| {
                    ManageError::Source(SourceError::UnknownArchive(r.location.clone()))
                })?;
                Ok(Origin::Archive { path, kind })
            }
        }
    }

    /// For people: the URL or path, with the branch or tag.
    pub fn shown(&self) -> String {
        match self {
            Origin::Git {
                url,
                reference: Some(r),
            } => format!("{url} ({r})"),
            Origin::Git { url, .. } => url.clone(),
            Origin::Folder(p) | Origin::Archive { path: p, .. } => p.display().to_string(),
        }
    }
}

/// The git URL the shorthand `owner/repo` means, as `npx skills` reads it
/// (`https://github.com/owner/repo.git`); `None` for anything else. Owner and repository are
/// GitHub names: letters, digits, `-`, `_` and `.`, not starting with `.` or `-`.
pub fn github_shorthand(text: &str) -> Option<String> {
    let (owner, repo) = text.split_once('/')?;
    let repo = repo.strip_suffix(".git").unwrap_or(repo);
    let name = |s: &str| {
        !s.is_empty()
            && s.len() <= 100
            && !s.starts_with(['.', '-'])
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    (name(owner) && name(repo)).then(|| format!("https://github.com/{owner}/{repo}.git"))
}

/// Whether `text` reads as a git URL: a scheme git knows, or scp-like `[user@]host:path`.
fn looks_like_git_url(text: &str) -> bool {
    if let Some((scheme, rest)) = text.split_once("://") {
        return !rest.is_empty()
            && matches!(
                scheme.to_ascii_lowercase().as_str(),
                "https" | "http" | "ssh" | "git" | "file" | "git+ssh" | "ssh+git"
            );
    }
    // scp-like: a colon before any slash, something on both sides.
    match text.split_once(':') {
        Some((host, path)) => {
            !host.is_empty()
                && !path.is_empty()
                && !host.contains('/')
                && !host.starts_with('.')
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | '.' | '-' | '_'))
        }
        None => false,
    }
}

/// A source fetched into a temporary folder.
#[derive(Debug)]
pub struct Fetched {
    /// The tree to look for skills in.
    pub root: PathBuf,
    /// The commit, for git sources.
    pub commit: Option<String>,
    /// What was left out or refused, for people.
    pub notes: Vec<String>,
}

/// Fetches `origin` under `work` (a temporary folder the caller removes). A folder is read in
/// place; an archive is unpacked; a git source is cloned bare (a `file://` repository on this
/// machine is read in place instead) and its tree copied out of the object store (no checkout,
/// no hooks, no submodules, no filters, no transport).
pub fn fetch(origin: &Origin, work: &Path) -> Result<Fetched, ManageError> {
    match origin {
        Origin::Folder(p) => Ok(Fetched {
            root: p.clone(),
            commit: None,
            notes: Vec::new(),
        }),
        Origin::Archive { path, kind } => {
            let dest = work.join("tree");
            let unpacked = archive::unpack(path, *kind, &dest)?;
            Ok(Fetched {
                root: dest,
                commit: None,
                notes: unpacked.notes,
            })
        }
        Origin::Git { url, reference } => {
            // A repository on this machine is read in place: a clone of it would only copy
            // its objects (and run its upload-pack) to read the same commit.
            let local = super::git::local_repository(url).and_then(|repo| {
                let commit = super::git::local_commit(&repo, reference.as_deref())?;
                Some((repo, commit))
            });
            let (repo, commit) = if let Some(found) = local {
                // (A clone would have made it.)
                std::fs::create_dir_all(work).map_err(ManageError::io("create", work))?;
                found
            } else {
                let repo = work.join("repo.git");
                let commit = super::git::clone(url, reference.as_deref(), &repo)?;
                (repo, commit)
            };
            let dest = work.join("tree");
            let m = crate::core::files::gitref::materialize_sealed(&repo, &commit, "", &dest)?;
            let mut notes = Vec::new();
            if !m.skipped_links.is_empty() {
                notes.push(format!(
                    "left out {} link(s) of the repository: {}",
                    m.skipped_links.len(),
                    m.skipped_links
                        .iter()
                        .map(|l| format!("{} ({})", l.path, l.why.as_str()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !m.skipped_submodules.is_empty() {
                notes.push(format!(
                    "submodules are not fetched: {}",
                    m.skipped_submodules.join(", ")
                ));
            }
            Ok(Fetched {
                root: dest,
                commit: Some(commit),
                notes,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_told_apart() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("lib");
        std::fs::create_dir_all(&dir).unwrap();
        let zip = t.path().join("s.zip");
        std::fs::write(&zip, b"PK").unwrap();
        let txt = t.path().join("s.txt");
        std::fs::write(&txt, b"x").unwrap();
        assert!(matches!(
            Origin::parse(dir.to_str().unwrap(), None),
            Ok(Origin::Folder(_))
        ));
        assert!(matches!(
            Origin::parse(zip.to_str().unwrap(), None),
            Ok(Origin::Archive {
                kind: ArchiveKind::Zip,
                ..
            })
        ));
        assert!(Origin::parse(txt.to_str().unwrap(), None).is_err());
        for url in [
            "https://github.com/a/b",
            "file:///tmp/repo",
            "git@github.com:a/b.git",
            "ssh://git@host/x",
        ] {
            assert!(
                matches!(Origin::parse(url, Some("main")), Ok(Origin::Git { .. })),
                "{url}"
            );
        }
        for bad in [
            "ext::sh -c touch% /tmp/pwned",
            "fd::3",
            "-uhelp",
            "no/such/folder",
            "./no/such",
            "",
        ] {
            assert!(Origin::parse(bad, None).is_err(), "{bad}");
        }
        assert!(Origin::parse("https://h/x", Some("--upload-pack=x")).is_err());
        let rec = OriginRecord {
            kind: OriginKind::Git,
            location: "ext::sh -c x".into(),
            reference: None,
        };
        assert!(Origin::from_record(&rec).is_err());
    }

    #[test]
    fn owner_slash_repo_means_github_unless_a_folder_has_that_name() {
        assert_eq!(
            github_shorthand("vercel-labs/agent-skills").as_deref(),
            Some("https://github.com/vercel-labs/agent-skills.git")
        );
        assert_eq!(
            github_shorthand("o/r.git").as_deref(),
            Some("https://github.com/o/r.git")
        );
        for not in [
            "o", "o/r/x", "/r", "o/", "./r", "../r", "o/.r", "-o/r", "o r/x", "ö/r",
        ] {
            assert_eq!(github_shorthand(not), None, "{not}");
        }
        assert_eq!(
            Origin::parse("octo/skills", Some("v1")).unwrap(),
            Origin::Git {
                url: "https://github.com/octo/skills.git".into(),
                reference: Some("v1".into())
            }
        );
        // (A folder named `octo/skills` that exists wins: `tests/cli/installers.rs`.)
    }
}
