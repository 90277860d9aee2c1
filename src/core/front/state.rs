//! skillscope's own per-skill on/off state, kept in `<config_dir>/skillscope/state.json` and
//! written atomically; a file that cannot be read is kept aside, never overwritten.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Overrides the folder holding `state.json` (tests, portable setups).
pub const CONFIG_DIR_ENV: &str = "SKILLSCOPE_CONFIG_DIR";

const FORMAT_VERSION: u32 = 1;

/// Why skillscope's state could not be written.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The state file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The state file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The state could not be encoded.
    #[error("cannot encode the state: {0}")]
    Encode(#[from] serde_json::Error),
    /// Another program holds the state file's place, or it could not be made safe to write.
    #[error("{path} was not saved: {reason}")]
    Blocked {
        /// The state file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The state file's lock could not be taken.
    #[error("{path} was not saved: {source}")]
    Lock {
        /// The state file.
        path: PathBuf,
        /// Why.
        source: crate::core::files::fsx::FsxError,
    },
    #[error(
        "{path} does not hold the change after it was written ({what}); another program may have replaced it"
    )]
    /// The state file does not hold what was written, once read back.
    NotPersisted {
        /// The state file.
        path: PathBuf,
        /// What was not kept.
        what: NotKept,
    },
}

/// What the state file, read back after a write, does not hold.
#[derive(Debug, thiserror::Error)]
pub enum NotKept {
    /// It cannot be read.
    #[error("{0}")]
    Unreadable(crate::core::files::fsx::FsxError),
    /// It is gone.
    #[error("it is gone")]
    Gone,
    /// It does not parse.
    #[error("it does not parse: {0}")]
    Unparsable(serde_json::Error),
    /// A skill's entry is missing or not the one written.
    #[error("the entry for {0} is missing or different")]
    Entry(String),
}

/// Where the state file lives: `$SKILLSCOPE_CONFIG_DIR/state.json`, else
/// `<config_dir>/skillscope/state.json`; `None` when the platform has no config folder.
pub fn default_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CONFIG_DIR_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("state.json"));
    }
    dirs::config_dir().map(|d| d.join("skillscope").join("state.json"))
}

/// What the file holds. Unknown keys are kept so that a newer skillscope's data survives a save
/// by this one.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct StateFile {
    #[serde(default)]
    version: u32,
    #[serde(default)]
    skills: BTreeMap<String, SkillEntry>,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct SkillEntry {
    enabled: bool,
    #[serde(flatten)]
    extra: serde_json::Map<String, serde_json::Value>,
}

/// Why a skill is on or off in skillscope's own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StateSource {
    /// Set by the user and stored in `state.json`.
    Saved,
    /// `auto_load: false` in frontmatter.
    FrontmatterAutoLoad,
    /// `enabled: false` in frontmatter (Lazy Skills).
    FrontmatterEnabled,
    /// `disable-model-invocation: true` in frontmatter.
    FrontmatterDisableModelInvocation,
    /// Its agent enables a skill only when asked to (Lazy Skills: `auto_load: true`), and it is
    /// not asked.
    NotOptedIn,
    /// Nothing says otherwise: the skill's own default.
    Default,
}

/// Per-skill on/off, keyed by the skill's folder.
#[derive(Debug, Clone)]
pub struct EnableState {
    path: PathBuf,
    file: StateFile,
    /// Set when the file on disk could not be read nor moved aside: saving would destroy it.
    blocked: Option<String>,
    /// Choices made since the last load or save (`None`: back to the default). A save applies
    /// only these to the file as it is then, so another skillscope's choices are not lost.
    pending: BTreeMap<String, Option<SkillEntry>>,
}

impl EnableState {
    /// An empty state that will be saved at `path`.
    pub fn empty(path: impl Into<PathBuf>) -> Self {
        EnableState {
            path: path.into(),
            file: StateFile {
                version: FORMAT_VERSION,
                ..StateFile::default()
            },
            blocked: None,
            pending: BTreeMap::new(),
        }
    }

    /// Reads the state at `path`. A missing file is an empty state; a file that does not parse is
    /// reported and the state starts empty (the next save keeps it aside as
    /// `state.json.corrupt-<timestamp>`).
    pub fn load(path: &Path) -> (EnableState, Vec<Diagnostic>) {
        let mut state = EnableState::empty(path);
        let mut diags = Vec::new();
        let bytes = match crate::core::files::fsx::read_settings(path) {
            Ok(Some(b)) => b,
            Ok(None) => return (state, diags),
            Err(e) => {
                let reason = format!(
                    "{}; skills use their defaults and nothing is saved",
                    e.reason()
                );
                diags.push(warning(path, &reason));
                state.blocked = Some(reason);
                return (state, diags);
            }
        };
        match serde_json::from_slice::<StateFile>(&bytes) {
            Ok(file) => {
                if file.version > FORMAT_VERSION {
                    diags.push(warning(
                        path,
                        &format!(
                            "written by a newer skillscope (format {}); read as format {FORMAT_VERSION}",
                            file.version
                        ),
                    ));
                }
                state.file = file;
                state.file.version = state.file.version.max(FORMAT_VERSION);
            }
            Err(e) => {
                // Reading never moves the user's file: only a save, an explicit action, keeps it
                // aside before writing a fresh one.
                diags.push(
                    warning(
                        path,
                        &format!(
                            "does not parse ({e}); skills use their defaults, and the file will be kept aside as {}.corrupt-<time> when a change is saved",
                            path.file_name().unwrap_or_default().to_string_lossy()
                        ),
                    )
                    .at(e.line() as u32, e.column() as u32),
                );
            }
        }
        (state, diags)
    }

    /// The state file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the skill is on in skillscope: the saved choice, else its frontmatter default.
    pub fn is_enabled(&self, skill: &Skill) -> bool {
        self.saved(skill).unwrap_or_else(|| default_for(skill).0)
    }

    /// The state and why it is so.
    pub fn explain(&self, skill: &Skill) -> (bool, StateSource) {
        match self.saved(skill) {
            Some(on) => (on, StateSource::Saved),
            None => default_for(skill),
        }
    }

    /// The stored choice for this skill, if any.
    pub fn saved(&self, skill: &Skill) -> Option<bool> {
        // Most libraries have no stored choice at all: no key is made for each skill then.
        if self.file.skills.is_empty() {
            return None;
        }
        self.file.skills.get(&key_of(&skill.dir)).map(|e| e.enabled)
    }

    /// Records a choice in memory; [`EnableState::save`] writes it. Choosing the default removes the
    /// stored entry, so the skill follows its frontmatter again. Returns whether anything changed.
    pub fn set(&mut self, skill: &Skill, on: bool) -> bool {
        let key = key_of(&skill.dir);
        let before = self.is_enabled(skill);
        let entry = if on == default_for(skill).0 {
            None
        } else {
            let extra = self
                .file
                .skills
                .get(&key)
                .map(|e| e.extra.clone())
                .unwrap_or_default();
            Some(SkillEntry { enabled: on, extra })
        };
        match &entry {
            Some(e) => self.file.skills.insert(key.clone(), e.clone()),
            None => self.file.skills.remove(&key),
        };
        self.pending.insert(key, entry);
        before != on
    }

    /// How many skills have a stored choice.
    pub fn len(&self) -> usize {
        self.file.skills.len()
    }

    /// Whether no skill has a state of its own.
    pub fn is_empty(&self) -> bool {
        self.file.skills.is_empty()
    }

    /// Writes the choices made since the last load or save onto the file as it is now, atomically
    /// (temporary file in the same folder, fsync, then rename), under the file's exclusive lock
    /// so that parallel savers lose nothing: read → merge → write → re-read all happen while
    /// it is held. A file that went bad meanwhile is kept aside first, as [`EnableState::load`]
    /// does. `Ok` means every choice is in the file as re-read after the write.
    pub fn save(&mut self) -> Result<(), StateError> {
        self.save_waiting(crate::core::files::fsx::lock_wait())
    }

    /// [`EnableState::save`], waiting at most `wait` for another saver to finish.
    pub fn save_waiting(&mut self, wait: std::time::Duration) -> Result<(), StateError> {
        if let Some(reason) = &self.blocked {
            return Err(StateError::Blocked {
                path: self.path.clone(),
                reason: reason.clone(),
            });
        }
        let _lock =
            crate::core::files::fsx::lock(&self.path, wait).map_err(|source| StateError::Lock {
                path: self.path.clone(),
                source,
            })?;
        let mut file = match crate::core::files::fsx::read_settings(&self.path) {
            Ok(Some(bytes)) => {
                if let Ok(f) = serde_json::from_slice::<StateFile>(&bytes) {
                    f
                } else {
                    keep_aside(&self.path).map_err(|e| StateError::Blocked {
                        path: self.path.clone(),
                        reason: format!("it no longer parses and could not be moved aside ({e})"),
                    })?;
                    self.file.clone()
                }
            }
            Ok(None) => StateFile::default(),
            Err(e) => {
                return Err(StateError::Blocked {
                    path: self.path.clone(),
                    reason: e.to_string(),
                });
            }
        };
        file.version = file.version.max(FORMAT_VERSION);
        for (key, entry) in &self.pending {
            match entry {
                Some(e) => file.skills.insert(key.clone(), e.clone()),
                None => file.skills.remove(key),
            };
        }
        let mut text = serde_json::to_string_pretty(&file)?;
        text.push('\n');
        let sync = crate::core::files::paths::Durability::Durable;
        crate::core::files::paths::write_private(&self.path, text.as_bytes(), sync).map_err(
            |source| StateError::Write {
                path: self.path.clone(),
                source,
            },
        )?;
        self.verify_written()?;
        self.file = file;
        self.pending.clear();
        Ok(())
    }

    /// Reads the file back (the lock is still held) and checks that every pending choice is in
    /// it, so that "saved" is never said of a choice the file does not hold.
    fn verify_written(&self) -> Result<(), StateError> {
        let not_there = |what: NotKept| StateError::NotPersisted {
            path: self.path.clone(),
            what,
        };
        let bytes = crate::core::files::fsx::read_settings(&self.path)
            .map_err(|e| not_there(NotKept::Unreadable(e)))?
            .ok_or_else(|| not_there(NotKept::Gone))?;
        let now: StateFile =
            serde_json::from_slice(&bytes).map_err(|e| not_there(NotKept::Unparsable(e)))?;
        for (key, entry) in &self.pending {
            let stored = now.skills.get(key).map(|e| e.enabled);
            if stored != entry.as_ref().map(|e| e.enabled) {
                return Err(not_there(NotKept::Entry(key.clone())));
            }
        }
        Ok(())
    }
}

fn warning(path: &Path, what: &str) -> Diagnostic {
    Diagnostic::new(
        RuleId::StateFile,
        Severity::Warning,
        format!("skillscope state {}: {what}", path.display()),
    )
    .in_file(path)
}

/// The default of a skill before any choice: off when its frontmatter asks not to be loaded.
pub fn default_for(skill: &Skill) -> (bool, StateSource) {
    if skill.frontmatter.auto_load == Some(false) {
        (false, StateSource::FrontmatterAutoLoad)
    } else if skill.frontmatter.enabled == Some(false) {
        (false, StateSource::FrontmatterEnabled)
    } else if skill.frontmatter.disable_model_invocation {
        (false, StateSource::FrontmatterDisableModelInvocation)
    } else if crate::core::agents::model::model(skill.agent).enable_default
        == crate::core::agents::model::EnableDefault::OptIn
        && skill.frontmatter.auto_load != Some(true)
    {
        (false, StateSource::NotOptedIn)
    } else {
        (true, StateSource::Default)
    }
}

/// Skills are keyed by their folder as an absolute path (without resolving links, so the key is
/// the path the user knows and costs no file-system call).
fn key_of(dir: &Path) -> String {
    crate::core::files::paths::absolute(dir)
        .to_string_lossy()
        .into_owned()
}

/// Renames an unreadable state file to `<name>.corrupt-<UTC timestamp>` (with a counter when that
/// name is taken) and returns the new path.
fn keep_aside(path: &Path) -> std::io::Result<PathBuf> {
    let name = path.file_name().map_or_else(
        || "state.json".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let stamp = utc_stamp(std::time::SystemTime::now());
    let mut n = 1;
    loop {
        let candidate = if n == 1 {
            path.with_file_name(format!("{name}.corrupt-{stamp}"))
        } else {
            path.with_file_name(format!("{name}.corrupt-{stamp}-{n}"))
        };
        if !candidate.exists() {
            std::fs::rename(path, &candidate)?;
            return Ok(candidate);
        }
        n += 1;
    }
}

/// `YYYYMMDDTHHMMSSZ` for a point in time.
fn utc_stamp(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d, h, mi, s) = crate::core::words::text::utc_parts(secs);
    format!("{y:04}{m:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::frontmatter::Frontmatter;
    use crate::core::source::{Agent, Scope};

    fn skill(dir: &Path, fm: Frontmatter) -> Skill {
        let root = crate::core::Root::new(dir.parent().unwrap(), Agent::ClaudeCode, Scope::User);
        Skill {
            frontmatter: fm,
            ..Skill::new(&root, dir.to_path_buf(), dir.join("SKILL.md"))
        }
    }

    fn plain(dir: &Path) -> Skill {
        skill(dir, Frontmatter::default())
    }

    #[test]
    fn missing_file_is_an_empty_state_without_warnings() {
        let t = tempfile::tempdir().unwrap();
        let (state, diags) = EnableState::load(&t.path().join("none/state.json"));
        assert!(diags.is_empty());
        assert!(state.is_empty());
        assert!(state.is_enabled(&plain(&t.path().join("pdf"))));
    }

    #[test]
    fn choices_survive_a_save_and_a_load() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("cfg/state.json");
        let pdf = plain(&t.path().join("skills/pdf"));
        let docx = plain(&t.path().join("skills/docx"));
        let mut state = EnableState::load(&path).0;
        assert!(state.set(&pdf, false));
        assert!(
            !state.set(&pdf, false),
            "setting the same value again changes nothing"
        );
        state.save().unwrap();
        let (again, diags) = EnableState::load(&path);
        assert!(diags.is_empty(), "{diags:?}");
        assert!(!again.is_enabled(&pdf));
        assert!(again.is_enabled(&docx));
        assert_eq!(again.explain(&pdf), (false, StateSource::Saved));
        let text = std::fs::read_to_string(&path).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let key = std::path::absolute(&pdf.dir).unwrap();
        assert_eq!(v["version"], 1);
        assert_eq!(v["skills"][key.to_str().unwrap()]["enabled"], false);
    }

    #[test]
    fn corrupt_file_is_kept_aside_and_reported() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("state.json");
        let garbage = b"{\"version\": 1, \"skills\": {\"/x\": {\"enabled\": tru";
        std::fs::write(&path, garbage).unwrap();
        let (mut state, diags) = EnableState::load(&path);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].severity, Severity::Warning);
        assert!(
            diags[0].message.contains("when a change is saved"),
            "{}",
            diags[0].message
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            garbage,
            "reading never moves or changes the file"
        );
        let kept = |dir: &Path| -> Vec<PathBuf> {
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.to_string_lossy().contains("state.json.corrupt-"))
                .collect()
        };
        assert!(kept(t.path()).is_empty());
        // The first save keeps the corrupt file aside, then writes the fresh state.
        state.set(&plain(&t.path().join("pdf")), false);
        state.save().unwrap();
        let aside = kept(t.path());
        assert_eq!(aside.len(), 1);
        assert_eq!(std::fs::read(&aside[0]).unwrap(), garbage);
        assert!(
            serde_json::from_slice::<serde_json::Value>(&std::fs::read(&path).unwrap()).is_ok()
        );
    }

    #[test]
    fn a_second_corruption_in_the_same_second_gets_its_own_name() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("state.json");
        for garbage in ["not json", "still not json"] {
            std::fs::write(&path, garbage).unwrap();
            let mut state = EnableState::load(&path).0;
            state.set(&plain(&t.path().join("pdf")), false);
            state.save().unwrap();
        }
        let kept = std::fs::read_dir(t.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with("state.json.corrupt-")
            })
            .count();
        assert_eq!(kept, 2);
    }

    #[test]
    fn save_replaces_the_file_by_rename() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("state.json");
        let mut state = EnableState::load(&path).0;
        state.set(&plain(&t.path().join("a")), false);
        state.save().unwrap();
        let old = std::fs::read_to_string(&path).unwrap();
        // A hard link keeps pointing at the old file when the new one is renamed into place; an
        // in-place rewrite would change what the link shows.
        let link = t.path().join("old-link");
        std::fs::hard_link(&path, &link).unwrap();
        state.set(&plain(&t.path().join("b")), false);
        state.save().unwrap();
        assert_eq!(std::fs::read_to_string(&link).unwrap(), old);
        assert_ne!(std::fs::read_to_string(&path).unwrap(), old);
        let leftovers: Vec<_> = std::fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn two_instances_saving_keep_each_others_choices() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("state.json");
        let (a_skill, b_skill) = (plain(&t.path().join("a")), plain(&t.path().join("b")));
        let mut tui = EnableState::load(&path).0;
        let mut cli = EnableState::load(&path).0;
        tui.set(&a_skill, false);
        cli.set(&b_skill, false);
        tui.save().unwrap();
        cli.save().unwrap();
        let (now, _) = EnableState::load(&path);
        assert!(!now.is_enabled(&a_skill));
        assert!(!now.is_enabled(&b_skill));
        // The later save also sees the earlier one's choice in memory.
        assert!(!cli.is_enabled(&a_skill));
    }

    #[test]
    fn frontmatter_sets_the_default_and_choosing_it_clears_the_entry() {
        let t = tempfile::tempdir().unwrap();
        let lazy = skill(
            &t.path().join("lazy"),
            Frontmatter {
                auto_load: Some(false),
                ..Frontmatter::default()
            },
        );
        let manual = skill(
            &t.path().join("manual"),
            Frontmatter {
                disable_model_invocation: true,
                ..Frontmatter::default()
            },
        );
        let mut state = EnableState::empty(t.path().join("state.json"));
        assert_eq!(
            state.explain(&lazy),
            (false, StateSource::FrontmatterAutoLoad)
        );
        assert_eq!(
            state.explain(&manual),
            (false, StateSource::FrontmatterDisableModelInvocation)
        );
        assert!(state.set(&lazy, true));
        assert!(state.is_enabled(&lazy));
        assert_eq!(state.len(), 1);
        assert!(state.set(&lazy, false));
        assert_eq!(state.len(), 0, "back at the default, nothing is stored");
        assert!(!state.is_enabled(&lazy));
    }

    #[test]
    fn unknown_keys_survive_a_save() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("state.json");
        std::fs::write(
            &path,
            r#"{"version": 1, "theme": "dark", "skills": {"/x": {"enabled": false, "note": "keep"}}}"#,
        )
        .unwrap();
        let (mut state, diags) = EnableState::load(&path);
        assert!(diags.is_empty());
        state.set(&plain(&t.path().join("y")), false);
        state.save().unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["theme"], "dark");
        assert_eq!(v["skills"]["/x"]["note"], "keep");
        assert_eq!(v["skills"]["/x"]["enabled"], false);
    }

    #[test]
    fn an_unreadable_path_blocks_saving_instead_of_overwriting() {
        let t = tempfile::tempdir().unwrap();
        // A folder where the file should be: reading fails with something other than NotFound.
        let path = t.path().join("state.json");
        std::fs::create_dir(&path).unwrap();
        let (mut state, diags) = EnableState::load(&path);
        assert_eq!(diags.len(), 1);
        assert!(matches!(state.save(), Err(StateError::Blocked { .. })));
        assert!(path.is_dir());
    }

    #[test]
    fn utc_stamp_matches_known_dates() {
        let at = |s: u64| utc_stamp(std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "19700101T000000Z");
        // 2024-02-29 12:34:56 UTC, a leap day.
        assert_eq!(at(1_709_210_096), "20240229T123456Z");
    }
}
