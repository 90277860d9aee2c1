//! What the ecosystem's installers recorded about the skills they installed: `npx skills`
//! (`skills-lock.json` in a project, `~/.agents/.skill-lock.json` for the user's skills) and
//! ClawHub (`.clawhub/lock.json`, each skill's `.clawhub/origin.json`): where a skill came
//! from, its version and pin, and whether its files still match the hash recorded when it was
//! installed.

pub(crate) mod clawhub;
pub(crate) mod error;
pub(crate) mod hash;
pub(crate) mod skills_lock;

use crate::core::files::paths;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use rustc_hash::FxHashMap;
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Which installer kept the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Installer {
    /// `npx skills` (npm `skills`).
    Skills,
    /// ClawHub (npm `clawhub`).
    Clawhub,
}

impl Installer {
    /// Its name for people.
    pub fn name(self) -> &'static str {
        match self {
            Installer::Skills => "npx skills",
            Installer::Clawhub => "ClawHub",
        }
    }
}

/// How the recorded hash is compared with the files.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Hashed {
    /// `computedHash` of the source folder (`npx skills`): the source, when it is a local
    /// folder, tells a copy's left-out files from an edit.
    Skills { local_source: Option<PathBuf> },
    /// ClawHub's `fingerprint` of the installed folder.
    Fingerprint,
    /// Not a hash skillscope can recompute (a GitHub tree hash).
    Not(&'static str),
}

/// One installer's record of one skill.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// Who installed it.
    #[serde(rename = "by")]
    pub installer: Installer,
    /// The record file.
    pub file: PathBuf,
    /// The skill's key there (its name; ClawHub's slug).
    pub key: String,
    /// Where it came from, as recorded (`owner/repo`, a URL, a path; ClawHub's registry and slug).
    pub source: Option<String>,
    /// `local`, `github`, `git`, … (`npx skills`); `clawhub` or `skills-sh` (ClawHub).
    pub source_type: Option<String>,
    /// The URL of a git source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// The branch or tag asked for.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    /// The SKILL.md's path inside a remote source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill_path: Option<String>,
    /// The version installed (ClawHub).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Pinned: the installer's own update leaves it alone (ClawHub).
    pub pinned: bool,
    /// Why it was pinned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pin_reason: Option<String>,
    /// The hash recorded at install.
    pub hash: Option<String>,
    #[serde(skip)]
    hashed: Hashed,
}

/// Whether a skill's files still match what was installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Files {
    /// They hash to the recorded value (or to what the installer's copy of its unchanged source
    /// would hold).
    Unchanged {
        /// How that was decided, when not by the hash alone.
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// They hash to something else: edited since it was installed.
    Modified {
        /// Their hash now.
        now: String,
        /// What else could explain it.
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    /// Not compared, and why.
    NotCompared {
        /// Why.
        why: String,
    },
}

/// What `npx skills` leaves out of its copies, which its hash (of the source) counts.
const COPY_NOTE: &str = "npx skills hashes its source, and its copy leaves out metadata.json, __pycache__/ and __pypackages__: a source that held them reads as modified too";

impl Record {
    /// Compares the files of the skill folder `dir` with the recorded hash.
    pub fn files(&self, dir: &Path) -> Files {
        let Some(recorded) = self.hash.as_deref() else {
            return Files::NotCompared {
                why: "no hash recorded".into(),
            };
        };
        let now = match &self.hashed {
            Hashed::Not(why) => return Files::NotCompared { why: (*why).into() },
            Hashed::Fingerprint => hash::clawhub_fingerprint(dir),
            Hashed::Skills { .. } => hash::skills_hash(dir),
        };
        let now = match now {
            Ok(h) => h,
            Err(e) => return Files::NotCompared { why: e.to_string() },
        };
        if now == recorded {
            return Files::Unchanged { note: None };
        }
        let Hashed::Skills { local_source } = &self.hashed else {
            return Files::Modified { now, note: None };
        };
        // The source as it was installed from, when it still is: the copy it makes of it is
        // what the folder should hold.
        let source = local_source
            .as_deref()
            .and_then(|s| find_in_source(s, &self.key))
            .filter(|s| hash::skills_hash(s).is_ok_and(|h| h == recorded));
        match source.map(|s| hash::installed_copy_hash(&s)) {
            Some(Ok(copy)) if copy == now => Files::Unchanged {
                note: Some(
                    "the installer's copy of its unchanged source (metadata.json and caches left out)"
                        .into(),
                ),
            },
            Some(_) => Files::Modified { now, note: None },
            None => Files::Modified {
                now,
                note: Some(COPY_NOTE.into()),
            },
        }
    }

    /// A diagnostic when the files no longer match the recorded hash.
    pub fn diagnostic(&self, skill: &Skill) -> Option<Diagnostic> {
        let Files::Modified { note, .. } = self.files(&skill.dir) else {
            return None;
        };
        let mut msg = format!(
            "modified since {} installed it: its files no longer match the hash in {}",
            self.installer.name(),
            self.file.display()
        );
        if let Some(n) = note {
            msg.push_str(&format!(" ({n})"));
        }
        msg.push_str(&format!(
            "; an update by {} would overwrite the change",
            self.installer.name()
        ));
        Some(
            Diagnostic::new(RuleId::InstalledModified, Severity::Warning, msg)
                .in_file(&skill.skill_md),
        )
    }
}

/// The skill named `key` in a local source folder: the folder itself, or a folder below it
/// (at most three levels) whose SKILL.md names it. The look is bounded: a source is any folder.
fn find_in_source(source: &Path, key: &str) -> Option<PathBuf> {
    let named = |dir: &Path| {
        let head = crate::core::scan::read_head(&dir.join("SKILL.md")).ok()?;
        let fm = crate::core::frontmatter::parse(&head.0, head.2).frontmatter;
        Some(fm.name.as_deref().map(str::trim) == Some(key))
    };
    let mut left = 2_000usize;
    let mut level = vec![source.to_path_buf()];
    for _ in 0..=3 {
        let mut next = Vec::new();
        for d in level {
            if named(&d) == Some(true) {
                return Some(d);
            }
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in entries.flatten() {
                left = left.checked_sub(1)?;
                let name = e.file_name();
                let system = ["/proc", "/sys", "/dev"]
                    .iter()
                    .any(|s| e.path().starts_with(s));
                if !system
                    && e.file_type().is_ok_and(|t| t.is_dir())
                    && !name.to_string_lossy().starts_with('.')
                    && name != "node_modules"
                {
                    next.push(e.path());
                }
            }
        }
        level = next;
    }
    None
}

/// A lookup by path, keyed by the path's bytes: a path's own `Hash` and `Eq` read it component
/// by component, and every skill asks. Two spellings of one path (`a//b`, `a/./b`) are two keys,
/// each answered from its own path: the same answer, looked up twice.
type ByPath<V> = FxHashMap<Box<[u8]>, V>;

/// The key of `p` in a [`ByPath`].
fn key(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// How a record file is read: its entries, `None` when there is no file.
type ReadRecord = fn(&Path) -> Result<Option<Map<String, Value>>, error::RecordError>;

/// The records of a library's skills, each record file read once, and what could not be read.
#[derive(Debug, Default)]
pub struct Records {
    files: ByPath<Option<Map<String, Value>>>,
    /// The `skills-lock.json` of each folder looked in, when it has one.
    project_locks: ByPath<Option<PathBuf>>,
    /// The `skills-lock.json` that holds the records of the skills in each folder, when one does.
    project_lock_of: ByPath<Option<PathBuf>>,
    /// The last folder of [`Records::project_lock_of`] asked, and its answer.
    last_project: Option<(PathBuf, Option<PathBuf>)>,
    /// The ClawHub lock of each work folder, looked for once per folder.
    clawhub_locks: ByPath<Option<PathBuf>>,
    /// Record files that could not be read, for people.
    pub notes: Vec<String>,
    home: Option<PathBuf>,
    /// What the library's walks saw of the record files' names: a lookup in a folder a trusted
    /// walk read is answered without a `stat`.
    seen: Option<std::sync::Arc<crate::core::scan::Seen>>,
}

impl Records {
    /// An empty lookup; `home` places the user-scope record of `npx skills`.
    pub fn new(home: Option<&Path>) -> Records {
        Records {
            home: home.map(Path::to_path_buf),
            ..Records::default()
        }
    }

    /// The entries of a record file, read once.
    fn entries(&mut self, path: &Path, read: ReadRecord) -> Option<&Map<String, Value>> {
        if !self.files.contains_key(key(path)) {
            let got = match read(path) {
                Ok(m) => m,
                Err(e) => {
                    self.notes.push(format!("installer record not read: {e}"));
                    None
                }
            };
            self.files.insert(key(path).into(), got);
        }
        self.files.get(key(path))?.as_ref()
    }

    /// [`Records::new`], with lookups in folders the library's walks read answered from what
    /// they saw (`scan::Seen`).
    pub fn with_seen(
        home: Option<&Path>,
        seen: std::sync::Arc<crate::core::scan::Seen>,
    ) -> Records {
        Records {
            seen: Some(seen),
            ..Records::new(home)
        }
    }

    /// What an installer recorded of `skill`: ClawHub's record of its folder, else the project's
    /// `skills-lock.json`, else the user's `.skill-lock.json`.
    pub fn of(&mut self, skill: &Skill) -> Option<Record> {
        if skill.command {
            return None;
        }
        self.clawhub_at(&skill.dir, Some(&skill.root))
            .or_else(|| self.project(skill))
            .or_else(|| self.global(skill))
    }

    /// ClawHub's record of the skill installed at `dir`, when its work folder's lock names it.
    pub fn clawhub(&mut self, dir: &Path) -> Option<Record> {
        self.clawhub_at(dir, None)
    }

    /// [`Records::clawhub`] of a skill found by the walk of `root`, when it was.
    fn clawhub_at(&mut self, dir: &Path, root: Option<&Path>) -> Option<Record> {
        // A folder below no `skills` folder has no ClawHub record, and a work folder already
        // found to hold no lock answers before the slug is made.
        let workdir = clawhub::workdir_of(dir)?;
        if matches!(self.clawhub_locks.get(key(workdir)), Some(None)) {
            return None;
        }
        let (workdir, slug) = clawhub::place_of(dir)?;
        let seen = self.seen.as_deref();
        let lock = if let Some(lock) = self.clawhub_locks.get(key(&workdir)) {
            lock.clone()
        } else {
            // A record folder the walk saw no entry of holds no lock.
            let lock = clawhub::lock_path_where(&workdir, |d| {
                !seen.is_some_and(|s| s.absent(root.map(|r| (r, dir)), &workdir, d))
            });
            self.clawhub_locks
                .insert(key(&workdir).into(), lock.clone());
            lock
        }?;
        let Some(Value::Object(entry)) = self
            .entries(&lock, |p| clawhub::read_lock(p).map(Some))?
            .get(&slug)
            .cloned()
        else {
            return None;
        };
        let origin = clawhub::read_origin(dir).unwrap_or_default();
        let text =
            |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
        let source = text(&entry, "sourceUrl").or_else(|| {
            text(&origin, "registry").map(|r| {
                format!(
                    "{r} {}",
                    text(&origin, "slug").unwrap_or_else(|| slug.clone())
                )
            })
        });
        Some(Record {
            installer: Installer::Clawhub,
            file: lock,
            key: slug,
            source,
            source_type: Some(text(&entry, "sourceKind").unwrap_or_else(|| "clawhub".into())),
            source_url: text(&entry, "sourceUrl"),
            reference: None,
            skill_path: text(&entry, "sourcePath"),
            version: text(&entry, "version").or_else(|| text(&origin, "installedVersion")),
            pinned: entry.get("pinned").and_then(Value::as_bool) == Some(true),
            pin_reason: text(&entry, "pinReason"),
            hash: text(&origin, "fingerprint"),
            hashed: Hashed::Fingerprint,
        })
    }

    fn project(&mut self, skill: &Skill) -> Option<Record> {
        let skills_dir = paths::parent(&skill.dir)?;
        // Skills share the folder they lie in: its lock is found once. The skills of a folder
        // come one after another, so the last folder's answer is kept at hand: the same bytes
        // are the same path, and need no hashing.
        let kept = self
            .last_project
            .as_ref()
            .filter(|(d, _)| same_bytes(d, skills_dir))
            .map(|(_, lock)| lock.clone());
        let lock = if let Some(lock) = kept {
            lock
        } else if let Some(lock) = self.project_lock_of.get(key(skills_dir)) {
            lock.clone()
        } else {
            let lock = self.project_lock(skills_dir, Some((&skill.root, &skill.dir)));
            self.project_lock_of
                .insert(key(skills_dir).into(), lock.clone());
            lock
        };
        if !self
            .last_project
            .as_ref()
            .is_some_and(|(d, _)| same_bytes(d, skills_dir))
        {
            self.last_project = Some((skills_dir.to_path_buf(), lock.clone()));
        }
        let lock = lock?;
        let entries = self.entries(&lock, |p| skills_lock::read(p, skills_lock::VERSION))?;
        let (key, entry) = lookup(entries, skill)?;
        let lock_dir = paths::parent(&lock).unwrap_or(Path::new("."));
        let mut r = npx_record(&lock, key, &entry, "computedHash");
        let local = r.source_type.as_deref() == Some("local");
        r.hashed = Hashed::Skills {
            local_source: r
                .source
                .as_deref()
                .filter(|_| local)
                .map(|s| skills_lock::local_source(lock_dir, s)),
        };
        Some(r)
    }

    /// The project's `skills-lock.json` of the skills in `skills_dir`: in it or up to two
    /// folders above it, the nearest.
    fn project_lock(&mut self, skills_dir: &Path, at: Option<(&Path, &Path)>) -> Option<PathBuf> {
        // Skills share their folders' ancestors: each folder is asked once.
        let mut lock = None;
        for d in std::iter::successors(Some(skills_dir), |d| paths::parent(d)).take(3) {
            // Looked up before it is copied: most folders were asked already.
            let found = if let Some(found) = self.project_locks.get(key(d)) {
                found.clone()
            } else {
                let found = crate::core::scan::Seen::is_file(
                    self.seen.as_deref(),
                    at,
                    d,
                    skills_lock::FILE,
                )
                .then(|| d.join(skills_lock::FILE));
                self.project_locks.insert(key(d).into(), found.clone());
                found
            };
            if found.is_some() {
                lock = found;
                break;
            }
        }
        lock
    }

    fn global(&mut self, skill: &Skill) -> Option<Record> {
        let skills_dir = paths::parent(&skill.dir)?;
        let agents = paths::parent(skills_dir)?;
        if paths::file_name(skills_dir)? != "skills" || paths::file_name(agents)? != ".agents" {
            return None;
        }
        let in_home = self
            .home
            .as_deref()
            .is_some_and(|h| h.join(".agents") == agents);
        let lock = if in_home {
            skills_lock::global_path(agents.parent()?)
        } else {
            agents.join(skills_lock::GLOBAL_FILE)
        };
        let entries = self.entries(&lock, |p| skills_lock::read(p, skills_lock::GLOBAL_VERSION))?;
        let (key, entry) = lookup(entries, skill)?;
        let mut r = npx_record(&lock, key, &entry, "skillFolderHash");
        // For a GitHub source the value is GitHub's tree hash of the folder, not this one.
        r.hashed = match r.source_type.as_deref() {
            Some("local") => Hashed::Skills {
                local_source: r.source.as_deref().map(PathBuf::from),
            },
            _ => Hashed::Not(
                "the user-scope record holds the source's own hash (GitHub's tree hash) for this source type",
            ),
        };
        Some(r)
    }
}

/// Whether two paths have the same bytes (and so are the same path).
fn same_bytes(a: &Path, b: &Path) -> bool {
    a.as_os_str().as_encoded_bytes() == b.as_os_str().as_encoded_bytes()
}

/// The entry of `skill` in an `npx skills` record: by its name, else its folder's.
fn lookup(entries: &Map<String, Value>, skill: &Skill) -> Option<(String, Map<String, Value>)> {
    [skill.name.as_str(), &skill.dir_name()]
        .into_iter()
        .find_map(|k| match entries.get(k) {
            Some(Value::Object(m)) => Some((k.to_string(), m.clone())),
            _ => None,
        })
}

fn npx_record(file: &Path, key: String, entry: &Map<String, Value>, hash_key: &str) -> Record {
    let text = |k: &str| entry.get(k).and_then(Value::as_str).map(str::to_string);
    Record {
        installer: Installer::Skills,
        file: file.to_path_buf(),
        key,
        source: text("source"),
        source_type: text("sourceType"),
        source_url: text("sourceUrl"),
        reference: text("ref"),
        skill_path: text("skillPath"),
        version: text("version"),
        pinned: false,
        pin_reason: None,
        hash: text(hash_key),
        hashed: Hashed::Not("unset"),
    }
}

/// The installers' records of every skill (index-aligned), and what could not be read; a lookup
/// in a folder the library's walks read is answered from what they saw (`Library::seen`).
pub fn records_seen(
    skills: &[Skill],
    home: Option<&Path>,
    seen: std::sync::Arc<crate::core::scan::Seen>,
) -> (Vec<Option<Record>>, Vec<String>) {
    let mut r = Records::with_seen(home, seen);
    let out = skills.iter().map(|s| r.of(s)).collect();
    (out, r.notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::{Agent, Root, Scope};

    /// Record files and locks are looked up by their paths' bytes, each once: every skill's
    /// record is the one a lookup of its own (nothing kept from other skills) finds, for skills
    /// of one folder, of another, and at paths spelled another way.
    #[test]
    fn records_looked_up_by_path_bytes_are_what_a_lookup_of_their_own_finds() {
        let t = tempfile::tempdir().unwrap();
        let proj = t.path().join("proj");
        let skills = proj.join(".agents").join("skills");
        std::fs::create_dir_all(&skills).unwrap();
        std::fs::write(
            proj.join(skills_lock::FILE),
            r#"{"version":1,"skills":{"a":{"source":"o/a","sourceType":"github","computedHash":"1"},"b":{"source":"o/b","sourceType":"github","computedHash":"2"}}}"#,
        )
        .unwrap();
        let other = t.path().join("other").join("skills");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(
            other.join(skills_lock::FILE),
            r#"{"version":1,"skills":{"a":{"source":"o/other","sourceType":"github","computedHash":"3"}}}"#,
        )
        .unwrap();
        let spelled = PathBuf::from(format!("{}/.agents//skills", proj.display()));
        let dirs = [
            skills.join("a"),
            skills.join("b"),
            skills.join("c"),
            other.join("a"),
            spelled.join("a"),
            skills.join("b"),
            other.join("c"),
        ];
        let root = Root::new(&skills, Agent::Path, Scope::Project);
        let mut shared = Records::new(None);
        let mut found = 0;
        for d in &dirs {
            let s = Skill::new(&root, d.clone(), d.join("SKILL.md"));
            let kept = shared.of(&s);
            let own = Records::new(None).of(&s);
            assert_eq!(format!("{kept:?}"), format!("{own:?}"), "{}", d.display());
            found += usize::from(kept.is_some());
        }
        assert_eq!(found, 5);
        assert!(shared.notes.is_empty());
    }
}
