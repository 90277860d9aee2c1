//! What `skillscope verify` learned from a client release skillscope has no captures of: the
//! built-in entries that release listed and the context window its budget was fitted to, kept in
//! skillscope's cache (`calibration.json`, one calibration per agent) and laid over the era the
//! release falls in by every view of that agent, for as long as that release is the one
//! installed. The file is read as untrusted input: bounded, every field checked; one that fails
//! is an error the views name, and they predict without it.

use super::client::{Client, ClientModel};
use crate::core::listing::BuiltinEntry;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most bytes read from the calibration file.
pub const MAX_BYTES: u64 = 1 << 20;
/// The most built-in entries one calibration holds.
pub const MAX_BUILTINS: usize = 200;
/// The longest built-in name, in characters.
const MAX_NAME: usize = 128;
/// The longest built-in description, in characters.
const MAX_DESCRIPTION: usize = 20_000;
/// The largest context window a calibration may fit, in tokens.
pub const MAX_WINDOW: usize = 100_000_000;

/// One built-in entry as the client listed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Builtin {
    /// The name it is listed by.
    pub name: String,
    /// Its description, as listed (empty when the client listed its name alone).
    pub description: String,
    /// Always listed in full (a bundled skill), never shortened by the budget.
    pub fixed: bool,
}

/// What one verify run learned from one client release.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// The agent's name (`claude-code`).
    pub agent: String,
    /// The client release it was learned from (`2.1.340`).
    pub version: String,
    /// When, in seconds since the epoch.
    pub at: u64,
    /// The built-in entries that release lists, in its order; `None`: the era's own.
    pub builtins: Option<Vec<Builtin>>,
    /// The model whose context window was fitted (its id), with [`Calibration::window`].
    pub model: Option<String>,
    /// The context window, in tokens, that makes the budget the client's listing showed.
    pub window: Option<usize>,
    /// The listing predicted with this calibration was the client's, byte for byte.
    pub reproduced: bool,
}

/// A calibration file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// Not readable (not a regular file, larger than [`MAX_BYTES`], an I/O error).
    #[error("the calibration file cannot be read: {0}")]
    Read(#[from] crate::core::files::fsx::FsxError),
    /// Not the JSON of a calibration file.
    #[error("the calibration file {} is not one skillscope wrote: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        source: serde_json::Error,
    },
    /// A calibration whose fields are out of bounds.
    #[error("the calibration file {} holds an unusable calibration of {agent}: {why}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The key it was kept under.
        agent: String,
        /// What is wrong.
        why: Unusable,
    },
    /// Writing it failed.
    #[error("cannot write the calibration file {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Why a calibration cannot be used: the field out of bounds. Names and keys are escaped for
/// one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unusable {
    /// Kept under one agent's key, naming another.
    #[error("kept under `{key}` but names `{named}`")]
    OtherAgent {
        /// The key it is kept under.
        key: String,
        /// The agent it names.
        named: String,
    },
    /// Its client version is not a version.
    #[error("its client version is not a version")]
    Version,
    /// More built-in entries than [`MAX_BUILTINS`].
    #[error("{0} built-in entries, more than {MAX_BUILTINS}")]
    Builtins(usize),
    /// A built-in whose name is not a name.
    #[error("a built-in's name `{0}` is not a name")]
    BuiltinName(String),
    /// A built-in whose description is longer than [`MAX_DESCRIPTION`].
    #[error("the built-in `{0}`'s description is longer than {MAX_DESCRIPTION} characters")]
    BuiltinLength(String),
    /// A built-in whose description holds control characters.
    #[error("the built-in `{0}`'s description holds control characters")]
    BuiltinControl(String),
    /// Its model is not a model id.
    #[error("its model is not a model id")]
    Model,
    /// A context window of no tokens or more than [`MAX_WINDOW`].
    #[error("a context window of {0} tokens")]
    Window(usize),
    /// A model without a window, or a window without a model.
    #[error("a model without a window, or a window without a model")]
    Unpaired,
}

/// `calibration.json` in skillscope's cache folder.
pub fn file() -> PathBuf {
    crate::core::files::paths::cache_root().join("calibration.json")
}

/// Every calibration kept in `path`, by agent; a missing file holds none. Every one is checked:
/// one out of bounds makes the file unusable.
pub fn read_all(path: &Path) -> Result<BTreeMap<String, Calibration>, CalibrationError> {
    let Some(bytes) = crate::core::files::fsx::read_capped(path, MAX_BYTES)? else {
        return Ok(BTreeMap::new());
    };
    let all: BTreeMap<String, Calibration> =
        serde_json::from_slice(&bytes).map_err(|source| CalibrationError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
    for (agent, c) in &all {
        c.check(agent).map_err(|why| CalibrationError::Invalid {
            path: path.to_path_buf(),
            agent: crate::core::words::text::line(agent).into_owned(),
            why,
        })?;
    }
    Ok(all)
}

/// The calibration of `agent` kept in `path`.
pub fn read(path: &Path, agent: &str) -> Result<Option<Calibration>, CalibrationError> {
    Ok(read_all(path)?.remove(agent))
}

/// Keeps `c` in `path` (written atomically), replacing the agent's earlier calibration; a file
/// that cannot be used is replaced whole.
pub fn write(path: &Path, c: &Calibration) -> Result<(), CalibrationError> {
    let mut all = read_all(path).unwrap_or_default();
    all.insert(c.agent.clone(), c.clone());
    let bytes = serde_json::to_vec_pretty(&all).map_err(|e| CalibrationError::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })?;
    crate::core::files::paths::write_private(
        path,
        &bytes,
        crate::core::files::paths::Durability::Durable,
    )
    .map_err(|source| CalibrationError::Write {
        path: path.to_path_buf(),
        source,
    })
}

impl Calibration {
    /// Why it cannot be used, kept under `key`; `Ok` when every field is in bounds.
    pub fn check(&self, key: &str) -> Result<(), Unusable> {
        if self.agent != key {
            return Err(Unusable::OtherAgent {
                key: crate::core::words::text::line(key).into_owned(),
                named: crate::core::words::text::line(&self.agent).into_owned(),
            });
        }
        if !super::installed::looks_like_version(&self.version) {
            return Err(Unusable::Version);
        }
        if let Some(b) = &self.builtins {
            if b.len() > MAX_BUILTINS {
                return Err(Unusable::Builtins(b.len()));
            }
            for e in b {
                check_builtin(e)?;
            }
        }
        match (&self.model, self.window) {
            (None, None) => {}
            (Some(m), Some(w)) => {
                if m.is_empty()
                    || m.chars().count() > MAX_NAME
                    || !m.chars().all(|c| c.is_ascii_graphic())
                {
                    return Err(Unusable::Model);
                }
                if w == 0 || w > MAX_WINDOW {
                    return Err(Unusable::Window(w));
                }
            }
            _ => return Err(Unusable::Unpaired),
        }
        Ok(())
    }

    /// The day it was made, `2026-12-06` (UTC).
    pub fn date(&self) -> String {
        date(self.at)
    }
}

fn check_builtin(e: &Builtin) -> Result<(), Unusable> {
    let name_ok = !e.name.is_empty()
        && e.name.chars().count() <= MAX_NAME
        && e.name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':'));
    if !name_ok {
        return Err(Unusable::BuiltinName(
            crate::core::words::text::line(&e.name).into_owned(),
        ));
    }
    if e.description.chars().count() > MAX_DESCRIPTION {
        return Err(Unusable::BuiltinLength(e.name.clone()));
    }
    if e.description
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    {
        return Err(Unusable::BuiltinControl(e.name.clone()));
    }
    Ok(())
}

/// `at` (seconds since the epoch) as a day, `2026-12-06` (UTC).
pub fn date(at: u64) -> String {
    let (year, month, day, ..) = crate::core::words::text::utc_parts(at);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Built-in entries kept for the rest of the process (a view's listing options hold them as
/// `'static`): made once per process for the calibration in use, once per verify for its fit.
pub fn leak_builtins(entries: &[Builtin]) -> &'static [BuiltinEntry] {
    let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
    let v: Vec<BuiltinEntry> = entries
        .iter()
        .map(|e| BuiltinEntry {
            name: leak(&e.name),
            description: leak(&e.description),
            fixed: e.fixed,
            location: "",
        })
        .collect();
    Box::leak(v.into_boxed_slice())
}

/// `base` with what `c` learned: its version, its built-ins, the fitted model's window. Made
/// once per process for the era in use.
pub fn apply(base: &'static Client, c: &Calibration) -> &'static Client {
    let builtins = c.builtins.as_deref().map_or(base.builtins, leak_builtins);
    let models: &'static [ClientModel] = match (&c.model, c.window) {
        (Some(id), Some(window)) if base.models.iter().any(|m| m.id == id) => {
            let v: Vec<ClientModel> = base
                .models
                .iter()
                .map(|m| ClientModel {
                    id: m.id,
                    name: m.name,
                    context_window: if m.id == id { window } else { m.context_window },
                    chars_per_token: m.chars_per_token,
                    family: m.family,
                    skills_usage: m.skills_usage,
                })
                .collect();
            Box::leak(v.into_boxed_slice())
        }
        _ => base.models,
    };
    Box::leak(Box::new(Client {
        version: Box::leak(c.version.clone().into_boxed_str()),
        models,
        builtins,
        ..*base
    }))
}

/// How a view of an agent stands to its calibration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Calibrated {
    /// None kept, or none needed (the installed release was captured).
    No,
    /// Laid over the era: the release it was learned from is the one installed.
    Used {
        /// The release.
        version: String,
        /// The day it was made.
        date: String,
    },
    /// Kept for another release than the one installed: not used.
    OtherVersion {
        /// The release it was learned from.
        version: String,
        /// The day it was made.
        date: String,
        /// The release installed, if one was found.
        installed: Option<String>,
    },
    /// The file cannot be used: why.
    Unusable(String),
}

impl Calibrated {
    /// What a view says of it (`name` the client's name, `agent` the agent's): `calibrated
    /// against your Claude Code 2.1.340 on 2026-12-06`, or why a calibration is not used.
    pub fn note(&self, name: &str, agent: &str) -> Option<String> {
        match self {
            Calibrated::No => None,
            Calibrated::Used { version, date } => Some(format!(
                "calibrated against your {name} {version} on {date}"
            )),
            Calibrated::OtherVersion {
                version,
                date,
                installed,
            } => {
                let now = installed.as_ref().map_or_else(
                    || format!("no {name} is found installed"),
                    |v| format!("{name} {v} is installed"),
                );
                Some(format!(
                    "the calibration against {name} {version} of {date} is not used: {now} \
                     (`skillscope verify --agent {agent}` calibrates again)"
                ))
            }
            Calibrated::Unusable(why) => Some(format!("{why}; predicted without it")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn why_a_calibration_is_unusable_reads_as_a_sentence() {
        let c = Calibration {
            agent: "codex".into(),
            ..sample()
        };
        assert_eq!(
            c.check("claude-code").unwrap_err().to_string(),
            "kept under `claude-code` but names `codex`"
        );
        assert_eq!(
            Unusable::Builtins(201).to_string(),
            "201 built-in entries, more than 200"
        );
        assert_eq!(
            Unusable::BuiltinLength("x".into()).to_string(),
            "the built-in `x`'s description is longer than 20000 characters"
        );
        assert_eq!(
            Unusable::Window(0).to_string(),
            "a context window of 0 tokens"
        );
    }

    fn sample() -> Calibration {
        Calibration {
            agent: "claude-code".into(),
            version: "2.1.340".into(),
            at: 1_796_601_600,
            builtins: Some(vec![Builtin {
                name: "brand-new".into(),
                description: "A built-in of that release.".into(),
                fixed: true,
            }]),
            model: Some("claude-opus-5-5".into()),
            window: Some(123_456),
            reproduced: true,
        }
    }

    #[test]
    fn a_calibration_is_kept_and_read_back_per_agent() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("cache/calibration.json");
        assert_eq!(read(&path, "claude-code").unwrap(), None);
        write(&path, &sample()).unwrap();
        let mut codex = sample();
        codex.agent = "codex".into();
        codex.version = "0.175.0".into();
        codex.builtins = None;
        write(&path, &codex).unwrap();
        assert_eq!(read(&path, "claude-code").unwrap(), Some(sample()));
        assert_eq!(read(&path, "codex").unwrap(), Some(codex));
        // A later calibration of the agent replaces its earlier one.
        let mut later = sample();
        later.version = "2.1.341".into();
        write(&path, &later).unwrap();
        assert_eq!(
            read(&path, "claude-code").unwrap().map(|c| c.version),
            Some("2.1.341".into())
        );
    }

    #[test]
    fn a_hostile_file_is_a_clear_error() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("calibration.json");
        let unusable = |text: &str| {
            std::fs::write(&path, text).unwrap();
            read(&path, "claude-code").unwrap_err().to_string()
        };
        assert!(unusable("{not json").contains("is not one skillscope wrote"));
        let mut bad = sample();
        bad.builtins = Some(vec![Builtin {
            name: "x\u{1b}]52;c;aGk=\u{7}".into(),
            description: String::new(),
            fixed: true,
        }]);
        let e = unusable(&serde_json::to_string(&BTreeMap::from([("claude-code", &bad)])).unwrap());
        assert!(e.contains("is not a name"), "{e}");
        assert!(!e.contains('\u{1b}'), "{e}");
        let mut bad = sample();
        bad.window = Some(usize::MAX);
        let e = unusable(&serde_json::to_string(&BTreeMap::from([("claude-code", &bad)])).unwrap());
        assert!(e.contains("context window"), "{e}");
        let mut bad = sample();
        bad.version = "../../etc".into();
        let e = unusable(&serde_json::to_string(&BTreeMap::from([("claude-code", &bad)])).unwrap());
        assert!(e.contains("not a version"), "{e}");
        let e = unusable(&serde_json::to_string(&BTreeMap::from([("codex", &sample())])).unwrap());
        assert!(e.contains("names `claude-code`"), "{e}");
        let many = Calibration {
            builtins: Some(vec![
                Builtin {
                    name: "a".into(),
                    description: String::new(),
                    fixed: false
                };
                MAX_BUILTINS + 1
            ]),
            ..sample()
        };
        let e =
            unusable(&serde_json::to_string(&BTreeMap::from([("claude-code", &many)])).unwrap());
        assert!(e.contains("more than 200"), "{e}");
        // An unknown field, a description with a terminal escape.
        let e = unusable(r#"{"claude-code": {"agent": "claude-code", "extra": 1}}"#);
        assert!(e.contains("is not one skillscope wrote"), "{e}");
        let mut bad = sample();
        bad.builtins = Some(vec![Builtin {
            name: "ok".into(),
            description: "clear\u{1b}[2J".into(),
            fixed: true,
        }]);
        let e = unusable(&serde_json::to_string(&BTreeMap::from([("claude-code", &bad)])).unwrap());
        assert!(e.contains("control characters"), "{e}");
    }

    #[test]
    fn an_oversized_or_odd_file_is_refused_unread() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("calibration.json");
        std::fs::write(&path, vec![b' '; usize::try_from(MAX_BYTES).unwrap() + 1]).unwrap();
        assert!(matches!(
            read(&path, "claude-code"),
            Err(CalibrationError::Read(_))
        ));
        #[cfg(unix)]
        {
            std::fs::remove_file(&path).unwrap();
            std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
            assert!(matches!(
                read(&path, "claude-code"),
                Err(CalibrationError::Read(_))
            ));
        }
        // Writing replaces an unusable file with a good one.
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "[]").unwrap();
        write(&path, &sample()).unwrap();
        assert_eq!(read(&path, "claude-code").unwrap(), Some(sample()));
    }

    #[test]
    fn the_calibration_is_laid_over_the_client() {
        let base = &crate::core::agents::claude::eras::CLAUDE_CODE_2_1_300;
        let c = apply(base, &sample());
        assert_eq!(c.version, "2.1.340");
        assert_eq!(c.builtins.len(), 1);
        assert_eq!(c.builtins[0].name, "brand-new");
        let opus = c.models.iter().find(|m| m.id == "claude-opus-5-5").unwrap();
        assert_eq!(opus.context_window, 123_456);
        let sonnet = c
            .models
            .iter()
            .find(|m| m.id == "claude-sonnet-4-5")
            .unwrap();
        assert_eq!(sonnet.context_window, 200_000);
        // Nothing learned of the built-ins or the window: the era's own.
        let plain = apply(
            base,
            &Calibration {
                builtins: None,
                model: None,
                window: None,
                ..sample()
            },
        );
        assert!(std::ptr::eq(plain.builtins, base.builtins));
        assert!(std::ptr::eq(plain.models, base.models));
    }

    #[test]
    fn dates_are_days_in_utc() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_796_601_599), "2026-12-06");
        assert_eq!(date(1_796_601_600), "2026-12-07");
    }

    #[test]
    fn each_standing_is_said() {
        let used = Calibrated::Used {
            version: "2.1.340".into(),
            date: "2026-12-06".into(),
        };
        assert_eq!(
            used.note("Claude Code", "claude-code").as_deref(),
            Some("calibrated against your Claude Code 2.1.340 on 2026-12-06")
        );
        let other = Calibrated::OtherVersion {
            version: "2.1.340".into(),
            date: "2026-12-06".into(),
            installed: Some("2.1.341".into()),
        };
        let n = other.note("Claude Code", "claude-code").unwrap();
        assert!(
            n.contains("is not used: Claude Code 2.1.341 is installed"),
            "{n}"
        );
        assert_eq!(Calibrated::No.note("Claude Code", "claude-code"), None);
    }
}
