//! The ecosystem's records kept in step with skillscope's own changes: a project's
//! `skills-lock.json` (`npx skills`) gets an entry, in its format, for each skill `add` or
//! `update` writes there, and loses it when `remove` takes the skill away; and `--link`
//! installs as `npx skills` does, one copy in `.agents/skills` linked into each agent's folder.
//! Every write is atomic and made under the install lock of the record's folder.

use super::error::Refusal;
use super::origin::Origin;
use super::trash::{TakenLink, TakenRecord};
use super::{ManageError, Target};
use crate::core::installers::{hash, skills_lock};
use crate::core::source::{self, Agent, Scope};
use std::path::{Path, PathBuf};

/// When a project's `skills-lock.json` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Record {
    /// Only when the project already has one (it uses `npx skills`).
    #[default]
    IfPresent,
    /// Always: made when missing (`add --link`).
    Always,
}

/// The project folder a project-scope target lies in: its folder without the agent's
/// `.claude/skills` (or other) part.
pub fn project_of(target: &Target) -> Option<PathBuf> {
    if target.scope != Scope::Project {
        return None;
    }
    source::folders(target.agent, Scope::Project)
        .into_iter()
        .chain([LINK_HOME])
        .find_map(|rel| {
            let mut p = target.dir.clone();
            for _ in Path::new(rel).components() {
                if !p.pop() {
                    return None;
                }
            }
            (p.join(rel) == target.dir).then_some(p)
        })
}

/// The entry `npx skills` would write for a skill of `origin` found at `subfolder` of it,
/// installed in `dir` of `project`; `None` for an archive (it has no such source type).
pub fn entry(
    origin: &Origin,
    project: &Path,
    subfolder: &str,
    dir: &Path,
) -> Result<Option<skills_lock::Entry>, ManageError> {
    let computed_hash = hash::skills_hash(dir).map_err(|e| ManageError::Manifest {
        path: dir.to_path_buf(),
        why: e.into(),
    })?;
    let skill_path = if subfolder.is_empty() {
        "SKILL.md".to_string()
    } else {
        format!("{subfolder}/SKILL.md")
    };
    Ok(Some(match origin {
        Origin::Archive { .. } => return Ok(None),
        Origin::Folder(p) => skills_lock::Entry {
            source: skills_lock::portable_local_source(project, p),
            source_url: None,
            reference: None,
            source_type: "local".into(),
            skill_path: None,
            computed_hash,
        },
        Origin::Git { url, reference } => {
            let (source, source_type, source_url) = match github_repo(url) {
                Some(repo) => (repo, "github", None),
                None if url.to_ascii_lowercase().contains("://gitlab.com/") => {
                    (url.clone(), "gitlab", Some(url.clone()))
                }
                None => (url.clone(), "git", Some(url.clone())),
            };
            skills_lock::Entry {
                source,
                source_url,
                reference: reference.clone(),
                source_type: source_type.into(),
                skill_path: Some(skill_path),
                computed_hash,
            }
        }
    }))
}

/// `owner/repo` of a `https://github.com/owner/repo[.git]` URL, as `npx skills` records it.
fn github_repo(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://github.com/")
        .or_else(|| url.strip_prefix("http://github.com/"))?;
    let rest = rest.trim_end_matches('/');
    let rest = rest.strip_suffix(".git").unwrap_or(rest);
    let (owner, repo) = rest.split_once('/')?;
    (!owner.is_empty() && !repo.is_empty() && !repo.contains('/'))
        .then(|| format!("{owner}/{repo}"))
}

/// Applies `change` to the entries of `project`'s `skills-lock.json`, under the install lock of
/// the project folder; with [`Record::IfPresent`] a project without the file is left alone.
/// Returns whether the file was written.
pub fn edit(
    project: &Path,
    when: Record,
    change: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
) -> Result<bool, ManageError> {
    let path = project.join(skills_lock::FILE);
    super::target::inside_project(&path, project)?;
    let _lock = super::target::folder_lock(project)?;
    let existing = crate::core::files::fsx::read_settings(&path)?;
    if existing.is_none() && when == Record::IfPresent {
        return Ok(false);
    }
    let text =
        skills_lock::edited(existing.as_deref(), change).map_err(|why| ManageError::Manifest {
            path: path.clone(),
            why: why.into(),
        })?;
    let Some(text) = text else {
        return Ok(false);
    };
    crate::core::files::paths::write_atomic(&path, text.as_bytes(), None)
        .map_err(ManageError::io("write", &path))?;
    Ok(true)
}

/// The `skills-lock.json` that covers a skill installed at `dir`: in its skills folder or one or
/// two folders above it (`.agents/skills/NAME` of a project), as the reader looks for it.
pub fn covering(dir: &Path) -> Option<PathBuf> {
    dir.parent()?
        .ancestors()
        .take(3)
        .find(|d| d.join(skills_lock::FILE).is_file())
        .map(Path::to_path_buf)
}

/// Takes the entry of the skill `name` (installed at `dir`) out of the `skills-lock.json` that
/// covers it, when one does. Returns the file, the key and the entry taken when it changed.
pub fn forget(dir: &Path, name: &str) -> Result<Option<TakenRecord>, ManageError> {
    let Some(project) = covering(dir) else {
        return Ok(None);
    };
    let folder = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut taken = None;
    let changed = edit(&project, Record::IfPresent, |m| {
        // The key is the frontmatter name; the folder's when the name was not one.
        taken = match m.remove(name) {
            Some(v) => Some((name.to_string(), v)),
            None => m.remove(&folder).map(|v| (folder.clone(), v)),
        };
    })?;
    Ok(taken.filter(|_| changed).map(|(key, entry)| TakenRecord {
        file: project.join(skills_lock::FILE),
        key,
        entry,
    }))
}

/// Puts a removed skill's entry back into the `skills-lock.json` that covers its folder `dir`
/// again: only into that file (the one it was taken from), and never over an entry written
/// since. Returns whether the file changed.
pub fn put_back(dir: &Path, taken: &TakenRecord) -> Result<bool, ManageError> {
    let Some(project) = covering(dir) else {
        return Ok(false);
    };
    let file = project.join(skills_lock::FILE);
    if file != taken.file || taken.key.is_empty() || !taken.entry.is_object() {
        return Ok(false);
    }
    edit(&project, Record::IfPresent, |m| {
        m.entry(taken.key.clone())
            .or_insert_with(|| taken.entry.clone());
    })
}

/// Puts back a link taken away with a removed skill whose folder is `canonical` again: only when
/// nothing is at its place and it leads to that folder. Returns whether it was made.
pub fn relink(canonical: &Path, link: &TakenLink) -> Result<bool, ManageError> {
    let Some(parent) = link.at.parent() else {
        return Ok(false);
    };
    if std::fs::symlink_metadata(&link.at).is_ok() {
        return Ok(false);
    }
    let real = std::fs::canonicalize(canonical).map_err(ManageError::io("resolve", canonical))?;
    let leads = std::fs::canonicalize(parent.join(&link.to)).is_ok_and(|p| p == real);
    if !leads {
        return Ok(false);
    }
    crate::core::files::fsx::symlink(&link.to, &link.at, real.is_dir())
        .map_err(ManageError::io("link", &link.at))?;
    Ok(true)
}

/// Where `npx skills` keeps the one copy of each skill, in the project or the home folder.
pub const LINK_HOME: &str = ".agents/skills";

/// The folder `agent` gets a link in at `scope`, when it does: `None` for an agent that reads
/// [`LINK_HOME`] itself (`npx skills`' "universal" agents: Codex, opencode, Gemini CLI, Goose),
/// else the first folder it reads skills from there. An agent added to `core::source`'s folder
/// tables and to the agents' models is covered with nothing more.
pub fn link_folder(agent: Agent, scope: Scope) -> Option<&'static str> {
    let reads_home = crate::core::agents::model::model(agent)
        .folders
        .iter()
        .any(|f| f.join("/") == LINK_HOME);
    if reads_home {
        return None;
    }
    source::folders(agent, scope).first().copied()
}

/// Makes `place` a relative link to `canonical` (as `npx skills` does: relative from the real
/// folder the link is in), atomically: a link of a temporary name renamed into place. Something
/// already at `place` is left alone and refused, unless it is that link already.
pub fn link(canonical: &Path, place: &Path) -> Result<(), ManageError> {
    let parent = place
        .parent()
        .ok_or_else(|| Refusal::NoFolder(place.to_path_buf()))?;
    std::fs::create_dir_all(parent).map_err(ManageError::io("create", parent))?;
    let real_parent = std::fs::canonicalize(parent).map_err(ManageError::io("resolve", parent))?;
    let real_canonical =
        std::fs::canonicalize(canonical).map_err(ManageError::io("resolve", canonical))?;
    if std::fs::symlink_metadata(place).is_ok() {
        if std::fs::canonicalize(place).is_ok_and(|p| p == real_canonical) {
            return Ok(());
        }
        return Err(Refusal::NotReplacedByLink(place.to_path_buf()).into());
    }
    let target = skills_lock::relative(&real_parent, &real_canonical)
        .unwrap_or_else(|| real_canonical.clone());
    let tmp = parent.join(format!(
        "{}link-{}",
        crate::core::files::paths::OWN_PREFIX,
        std::process::id()
    ));
    let _ = std::fs::remove_file(&tmp);
    crate::core::files::fsx::symlink(&target, &tmp, real_canonical.is_dir())
        .map_err(ManageError::io("link", &tmp))?;
    if let Err(e) = std::fs::rename(&tmp, place) {
        let _ = std::fs::remove_file(&tmp);
        return Err(ManageError::io("link", place)(e));
    }
    Ok(())
}

/// The links among `places` that lead to `canonical` (a skill's linked places that are links
/// themselves, not paths through a linked folder): what `remove` takes away with the skill.
pub fn links_to(canonical: &Path, places: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(real) = std::fs::canonicalize(canonical) else {
        return Vec::new();
    };
    places
        .iter()
        .filter(|p| {
            std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
                && std::fs::canonicalize(p).is_ok_and(|r| r == real)
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lock_file_past_the_cap_is_an_error_and_is_never_written_over() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join(skills_lock::FILE);
        let len = crate::core::files::fsx::SETTINGS_MAX_BYTES + 1;
        std::fs::File::create(&path).unwrap().set_len(len).unwrap();
        for when in [Record::IfPresent, Record::Always] {
            let e = edit(t.path(), when, |m| {
                m.insert("x".into(), serde_json::json!({}));
            })
            .unwrap_err();
            assert!(e.to_string().contains("bytes, more than the"), "{e}");
            assert_eq!(std::fs::metadata(&path).unwrap().len(), len);
        }
    }

    #[test]
    fn a_lock_file_that_a_link_carries_out_of_the_project_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let project = t.path().join("proj");
        std::fs::create_dir_all(&project).unwrap();
        let users = t.path().join("users-lock.json");
        std::fs::write(&users, "{}").unwrap();
        crate::core::files::fsx::test_link("../users-lock.json", project.join(skills_lock::FILE))
            .unwrap();
        let e = edit(&project, Record::Always, |m| {
            m.insert("x".into(), serde_json::json!({}));
        })
        .unwrap_err();
        assert!(e.to_string().contains("leads out of the project"), "{e}");
        assert_eq!(std::fs::read_to_string(&users).unwrap(), "{}");
    }

    #[test]
    fn github_urls_are_recorded_as_owner_and_repo() {
        assert_eq!(
            github_repo("https://github.com/vercel-labs/agent-skills.git").as_deref(),
            Some("vercel-labs/agent-skills")
        );
        assert_eq!(
            github_repo("https://github.com/o/r").as_deref(),
            Some("o/r")
        );
        assert_eq!(github_repo("https://gitlab.com/o/r"), None);
        assert_eq!(github_repo("https://github.com/o/r/tree/main/x"), None);
    }

    #[test]
    fn universal_agents_get_no_link_and_claude_code_gets_its_folder() {
        assert_eq!(link_folder(Agent::Codex, Scope::Project), None);
        assert_eq!(link_folder(Agent::Gemini, Scope::Project), None);
        assert_eq!(
            link_folder(Agent::ClaudeCode, Scope::Project),
            Some(".claude/skills")
        );
        assert_eq!(
            link_folder(Agent::ClaudeCode, Scope::User),
            Some(".claude/skills")
        );
    }

    #[test]
    fn a_link_is_relative_and_never_replaces_what_is_there() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path();
        std::fs::create_dir_all(p.join(".agents/skills/pdf")).unwrap();
        let place = p.join(".claude/skills/pdf");
        link(&p.join(".agents/skills/pdf"), &place).unwrap();
        assert_eq!(
            std::fs::read_link(&place).unwrap(),
            Path::new("../../.agents/skills/pdf")
        );
        // Again: it is already there.
        link(&p.join(".agents/skills/pdf"), &place).unwrap();
        std::fs::create_dir_all(p.join(".claude/skills/other")).unwrap();
        assert!(
            link(
                &p.join(".agents/skills/pdf"),
                &p.join(".claude/skills/other")
            )
            .is_err()
        );
        assert_eq!(
            links_to(
                &p.join(".agents/skills/pdf"),
                &[place.clone(), p.join(".claude/skills/other")]
            ),
            [place]
        );
    }

    #[test]
    fn a_project_target_knows_its_project() {
        let t = Target {
            agent: Agent::Generic,
            scope: Scope::Project,
            dir: PathBuf::from("/w/proj/.agents/skills"),
            view: Vec::new(),
        };
        assert_eq!(project_of(&t), Some(PathBuf::from("/w/proj")));
        let user = Target {
            scope: Scope::User,
            ..t
        };
        assert_eq!(project_of(&user), None);
    }

    /// A trash entry is data on disk: a link that would lead anywhere but the restored folder,
    /// or a lock entry for another file, is not put back.
    #[test]
    fn a_tampered_trash_entry_puts_back_no_stray_link_or_record() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path();
        let skill = p.join(".agents/skills/pdf");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::create_dir_all(p.join(".claude/skills")).unwrap();
        let stray = TakenLink {
            at: p.join(".claude/skills/pdf"),
            to: PathBuf::from("/etc"),
        };
        assert!(!relink(&skill, &stray).unwrap());
        assert!(std::fs::symlink_metadata(&stray.at).is_err());
        let fair = TakenLink {
            to: PathBuf::from("../../.agents/skills/pdf"),
            ..stray
        };
        assert!(relink(&skill, &fair).unwrap());
        assert_eq!(std::fs::read_link(&fair.at).unwrap(), fair.to);
        // Its place taken now: left alone.
        assert!(!relink(&skill, &fair).unwrap());

        let lock = p.join(skills_lock::FILE);
        std::fs::write(&lock, "{\n  \"version\": 1,\n  \"skills\": {}\n}\n").unwrap();
        let elsewhere = TakenRecord {
            file: p.join("other/skills-lock.json"),
            key: "pdf".into(),
            entry: serde_json::json!({"source": "x"}),
        };
        assert!(!put_back(&skill, &elsewhere).unwrap());
        let here = TakenRecord {
            file: lock.clone(),
            ..elsewhere
        };
        assert!(put_back(&skill, &here).unwrap());
        let text = std::fs::read_to_string(&lock).unwrap();
        assert!(text.contains("\"pdf\""), "{text}");
        // Never over an entry written since.
        let newer = TakenRecord {
            entry: serde_json::json!({"source": "y"}),
            ..here
        };
        assert!(!put_back(&skill, &newer).unwrap());
    }
}
