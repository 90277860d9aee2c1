//! An agent's client as a sequence of release eras: each era is the release where a behaviour
//! of the listing begins (escaping, line breaks, name forms, built-ins, the default model), as
//! captured from that release (`tests/fixtures/agents/<client>@<version>/`). The release
//! installed on the machine (`installed.rs`) picks the era every view uses: the newest era not
//! newer than it; a release older than every era gets the oldest, one newer than every era the
//! newest, and each view says so.

use super::calibration::{self, Calibrated, Calibration, CalibrationError};
use super::client::Client;
use super::installed::{self, Installed};
use crate::core::listing::Dialect;
use crate::core::source::Agent;
use std::ffi::OsStr;
use std::path::Path;

/// One release era of a client: its model from that release on.
#[derive(Debug)]
pub struct Era {
    /// The client at the release the era begins with (its version, models, built-ins).
    pub client: &'static Client,
    /// How that release writes its listing where releases differ.
    pub dialect: Dialect,
}

/// How the installed release stands to the eras.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// No release was found installed: the newest era.
    NotInstalled,
    /// The release an era was captured from.
    Captured,
    /// Between two captured releases: the era it falls in.
    Within,
    /// Newer than every captured release: the newest era.
    Newer,
    /// Older than every captured release: the oldest era.
    Older,
}

/// The era a view of an agent uses, and why.
#[derive(Debug, Clone)]
pub struct Chosen {
    /// The era.
    pub era: &'static Era,
    /// The client release found installed, if any.
    pub installed: Option<Installed>,
    /// How the installed release stands to the eras.
    pub standing: Standing,
    /// What `skillscope verify` learned from the installed release, when it is laid over the
    /// era (`era.client` is then the calibrated client), or why none is.
    pub calibration: Calibrated,
}

impl Chosen {
    /// What a view says of the era it uses, when the installed release is not the one the era
    /// was captured from: `modelled on Claude Code 2.1.300; installed 2.1.310 (npm): predicted
    /// with the era it falls in`.
    pub fn note(&self, name: &str) -> Option<String> {
        if matches!(self.calibration, Calibrated::Used { .. }) {
            return None;
        }
        let i = self.installed.as_ref()?;
        let head = format!(
            "modelled on {name} {}; installed {} ({})",
            self.era.client.version,
            i.version,
            i.via.as_str()
        );
        match self.standing {
            Standing::NotInstalled | Standing::Captured => None,
            Standing::Within => Some(format!(
                "{head}: predicted with the era it falls in, the nearest captured release before it"
            )),
            Standing::Newer => Some(format!(
                "{head}, newer than every modelled release: predicted with the nearest"
            )),
            Standing::Older => Some(format!(
                "{head}, older than every modelled release: predicted with the nearest"
            )),
        }
    }
}

/// The eras of `agent`'s client, oldest first (empty for an agent with one modelled release).
pub fn eras(agent: Agent) -> &'static [Era] {
    agent.home().eras
}

/// The oldest release of `agent`'s eras newer than `version` whose client knows the model
/// `name` (an id, an alias or a dated id), for the note on a model the release in use does not
/// know.
pub fn known_from(agent: Agent, version: &str, name: &str) -> Option<&'static str> {
    let v = installed::numbers(version);
    eras(agent)
        .iter()
        .filter(|e| installed::numbers(e.client.version) > v)
        .find(|e| e.client.resolve(name).is_some_and(|r| r.known))
        .map(|e| e.client.version)
}

/// The era of `agent` for a release `version`, and how it stands to the eras; `None` for an
/// agent with no eras.
pub fn era_for(agent: Agent, version: &str) -> Option<(&'static Era, Standing)> {
    let all = eras(agent);
    let (first, last) = (all.first()?, all.last()?);
    let v = installed::numbers(version);
    let of = |e: &Era| installed::numbers(e.client.version);
    if let Some(e) = all.iter().find(|e| of(e) == v) {
        return Some((e, Standing::Captured));
    }
    if v > of(last) {
        return Some((last, Standing::Newer));
    }
    match all.iter().rev().find(|e| of(e) < v) {
        Some(e) => Some((e, Standing::Within)),
        None => Some((first, Standing::Older)),
    }
}

/// The era `agent`'s views use given what is installed (`path` a `PATH` value, `home` the home
/// folder); `None` for an agent with no eras.
pub fn choose(agent: Agent, path: &OsStr, home: Option<&Path>) -> Option<Chosen> {
    let all = eras(agent);
    let newest = all.last()?;
    let found = installed::find(agent, path, home);
    Some(match found {
        None => Chosen {
            era: newest,
            installed: None,
            standing: Standing::NotInstalled,
            calibration: Calibrated::No,
        },
        Some(i) => {
            let (era, standing) = era_for(agent, &i.version)?;
            Chosen {
                era,
                installed: Some(i),
                standing,
                calibration: Calibrated::No,
            }
        }
    })
}

/// `chosen` with the calibration `kept` (what the calibration file holds for the agent) laid
/// over its era when it was learned from the release installed; a release skillscope has
/// captures of needs none. A calibration of another release, or a file that cannot be used, is
/// not used and says so.
pub fn calibrate(
    mut chosen: Chosen,
    kept: Result<Option<Calibration>, CalibrationError>,
) -> Chosen {
    let c = match kept {
        Err(e) => {
            chosen.calibration =
                Calibrated::Unusable(crate::core::words::text::line(&e.to_string()).into_owned());
            return chosen;
        }
        Ok(None) => return chosen,
        Ok(Some(c)) => c,
    };
    let installed = chosen.installed.as_ref().map(|i| i.version.clone());
    if installed.as_deref() != Some(c.version.as_str()) {
        chosen.calibration = Calibrated::OtherVersion {
            version: c.version.clone(),
            date: c.date(),
            installed,
        };
        return chosen;
    }
    if chosen.standing == Standing::Captured {
        return chosen;
    }
    let client = calibration::apply(chosen.era.client, &c);
    chosen.era = Box::leak(Box::new(Era {
        client,
        dialect: chosen.era.dialect,
    }));
    chosen.calibration = Calibrated::Used {
        date: c.date(),
        version: c.version,
    };
    chosen
}

/// The era `agent`'s views use in this process: chosen once from this process's `PATH` and
/// home folder, with the calibration kept in skillscope's cache laid over it ([`calibrate`]).
pub fn in_use(agent: Agent) -> Option<&'static Chosen> {
    let cell = agent.home().era_in_use?;
    cell.get_or_init(|| {
        // The library's own tests do not depend on the clients installed where they run.
        if cfg!(test) {
            return choose(agent, OsStr::new(""), None);
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let chosen = choose(agent, &path, dirs::home_dir().as_deref())?;
        let kept = calibration::read(&calibration::file(), agent.as_str());
        Some(calibrate(chosen, kept))
    })
    .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_release_takes_the_newest_era_not_newer_than_it() {
        let at = |v| era_for(Agent::ClaudeCode, v).map(|(e, s)| (e.client.version, s));
        assert_eq!(at("2.1.332"), Some(("2.1.332", Standing::Captured)));
        assert_eq!(at("2.1.299"), Some(("2.1.290", Standing::Within)));
        assert_eq!(at("2.1.289"), Some(("2.1.270", Standing::Within)));
        assert_eq!(at("2.1.400"), Some(("2.1.332", Standing::Newer)));
        assert_eq!(at("2.1.100"), Some(("2.1.231", Standing::Older)));
        let codex = |v| era_for(Agent::Codex, v).map(|(e, s)| (e.client.version, s));
        assert_eq!(codex("0.150.1"), Some(("0.148.0", Standing::Within)));
        assert_eq!(codex("0.151.0"), Some(("0.151.0", Standing::Captured)));
        assert!(era_for(Agent::Gemini, "0.61.0").is_none());
    }

    #[test]
    fn the_eras_differ_where_the_releases_did() {
        let e = eras(Agent::ClaudeCode);
        assert!(
            e.windows(2).all(|w| installed::numbers(w[0].client.version)
                < installed::numbers(w[1].client.version))
        );
        let by = |v: &str| e.iter().find(|x| x.client.version == v).unwrap();
        assert!(!by("2.1.270").dialect.name_beside_folder);
        assert!(by("2.1.290").dialect.name_beside_folder && !by("2.1.290").dialect.one_line);
        assert!(by("2.1.300").dialect.one_line && by("2.1.300").dialect.escape_angles);
        assert_eq!(by("2.1.231").client.models[0].id, "claude-opus-5");
        assert_eq!(by("2.1.290").client.models[0].id, "claude-opus-5-5");
        assert_eq!(by("2.1.231").client.builtins.len(), 10);
        assert_eq!(by("2.1.270").client.builtins.len(), 12);
        assert!(!eras(Agent::Codex)[0].dialect.roots_when_cheaper);
    }

    #[test]
    fn a_view_says_which_release_it_predicts_with() {
        let chosen = |v: &str, standing| Chosen {
            era: era_for(Agent::ClaudeCode, v).unwrap().0,
            installed: Some(Installed {
                command: "/bin/claude".into(),
                version: v.to_string(),
                via: installed::Via::Native,
            }),
            standing,
            calibration: Calibrated::No,
        };
        assert_eq!(
            chosen("2.1.400", Standing::Newer)
                .note("Claude Code")
                .as_deref(),
            Some(
                "modelled on Claude Code 2.1.332; installed 2.1.400 (native installer), newer than every modelled release: predicted with the nearest"
            )
        );
        assert_eq!(
            chosen("2.1.300", Standing::Captured).note("Claude Code"),
            None
        );
        assert_eq!(
            chosen("2.1.310", Standing::Within)
                .note("Claude Code")
                .as_deref(),
            Some(
                "modelled on Claude Code 2.1.300; installed 2.1.310 (native installer): predicted with the era it falls in, the nearest captured release before it"
            )
        );
        assert!(
            chosen("2.0.77", Standing::Older)
                .note("Claude Code")
                .unwrap()
                .starts_with("modelled on Claude Code 2.1.231; installed 2.0.77")
        );
    }

    #[test]
    fn a_calibration_is_used_only_for_the_release_installed() {
        let installed = |v: &str| {
            let (era, standing) = era_for(Agent::ClaudeCode, v).unwrap();
            Chosen {
                era,
                installed: Some(Installed {
                    command: "/bin/claude".into(),
                    version: v.to_string(),
                    via: installed::Via::Npm,
                }),
                standing,
                calibration: Calibrated::No,
            }
        };
        let kept = Calibration {
            agent: "claude-code".into(),
            version: "2.1.340".into(),
            at: 1_796_580_000,
            builtins: Some(vec![calibration::Builtin {
                name: "brand-new".into(),
                description: "New in that release.".into(),
                fixed: true,
            }]),
            model: None,
            window: None,
            reproduced: true,
        };
        let used = calibrate(installed("2.1.340"), Ok(Some(kept.clone())));
        assert_eq!(used.era.client.version, "2.1.340");
        assert_eq!(used.era.client.builtins[0].name, "brand-new");
        assert_eq!(used.era.dialect, Dialect::CURRENT);
        assert_eq!(
            used.calibration
                .note("Claude Code", "claude-code")
                .as_deref(),
            Some("calibrated against your Claude Code 2.1.340 on 2026-12-06")
        );
        // The era's note gives way to the calibration's.
        assert_eq!(used.note("Claude Code"), None);
        // Another release installed: the nearest era, and why the calibration is not used.
        let other = calibrate(installed("2.1.341"), Ok(Some(kept.clone())));
        assert_eq!(other.era.client.version, "2.1.332");
        assert!(matches!(other.calibration, Calibrated::OtherVersion { .. }));
        assert!(other.note("Claude Code").is_some());
        // Nothing installed: not used either.
        let mut none = installed("2.1.340");
        none.installed = None;
        let none = calibrate(none, Ok(Some(kept.clone())));
        assert!(matches!(
            none.calibration,
            Calibrated::OtherVersion {
                installed: None,
                ..
            }
        ));
        // A captured release needs none.
        let captured = calibrate(
            installed("2.1.300"),
            Ok(Some(Calibration {
                version: "2.1.300".into(),
                ..kept
            })),
        );
        assert!(std::ptr::eq(
            captured.era.client,
            &raw const crate::core::agents::claude::eras::CLAUDE_CODE_2_1_300
        ));
        assert_eq!(captured.calibration, Calibrated::No);
        // A file that cannot be used: the era, and why.
        let broken = calibrate(
            installed("2.1.340"),
            Err(CalibrationError::Invalid {
                path: "/c/calibration.json".into(),
                agent: "claude-code".into(),
                why: crate::core::agents::calibration::Unusable::Window(0),
            }),
        );
        assert_eq!(broken.era.client.version, "2.1.332");
        let note = broken
            .calibration
            .note("Claude Code", "claude-code")
            .unwrap();
        assert!(
            note.ends_with("a context window of 0 tokens; predicted without it"),
            "{note}"
        );
    }
}
