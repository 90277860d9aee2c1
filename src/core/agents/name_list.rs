//! The per-skill switches of Gemini CLI and Qwen Code (`skills.disabled` in `settings.json`,
//! names without regard to case), GitHub Copilot CLI (`disabledSkills` in `settings.json`, what `copilot skill
//! disable` writes) and OpenClaw (`skills.entries.NAME.enabled: false` in `openclaw.json`): read,
//! and written as a JSON edit that keeps the rest of the file. Cline has no settings switch (its
//! skills switch off in their own frontmatter, `disabled: true`), so it has none here.

use super::edit::json_candidates;
use super::error::ToggleError;
use super::json::{Edit, Node};
use super::plugin::parse_settings;
use super::{
    AgentPlugin, AgentState, Effective, PathCache, SettingsText, SkillSwitches, SwitchScope,
};
use crate::core::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The name an agent's switch names a skill by: its frontmatter `name`, else its folder's.
fn name_of(skill: &Skill) -> &str {
    skill
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(&skill.name)
}

/// The node at `path` below `root`.
fn at<'a>(root: &'a Node, path: &[&str]) -> Option<&'a Node> {
    path.iter()
        .try_fold(root, |n, k| n.member(k).map(|m| &m.value))
}

/// A switch that is a list of the names of the skills switched off.
#[derive(Debug)]
pub struct NameList {
    agent: Agent,
    letter: char,
    /// The settings files below the home folder and below the project, with their scope.
    files: &'static [(SwitchScope, bool, &'static str)],
    /// The list's keys from the top of the file.
    key: &'static [&'static str],
    /// Names match without regard to case.
    any_case: bool,
}

/// Qwen Code 0.24.4: `skills.disabled`, the union of every settings scope, without regard to
/// case (`Config.isSkillEnabled`).
pub static QWEN_CODE: NameList = NameList {
    agent: Agent::QwenCode,
    letter: 'Q',
    files: &[
        (SwitchScope::User, true, ".qwen/settings.json"),
        (SwitchScope::Project, false, ".qwen/settings.json"),
    ],
    key: &["skills", "disabled"],
    any_case: true,
};

/// GitHub Copilot CLI 1.0.102: `disabledSkills` (`copilot skill disable NAME` writes the
/// user's); the repository's `.github/copilot/settings.json` and `settings.local.json` too.
pub static COPILOT: NameList = NameList {
    agent: Agent::Copilot,
    letter: 'H',
    files: &[
        (SwitchScope::User, true, ".copilot/settings.json"),
        (SwitchScope::Project, false, ".github/copilot/settings.json"),
        (
            SwitchScope::Local,
            false,
            ".github/copilot/settings.local.json",
        ),
    ],
    key: &["disabledSkills"],
    any_case: false,
};

/// Gemini CLI 0.61.0: `skills.disabled` (what `gemini skills disable NAME` writes), the user's
/// settings and the project's, names without regard to case. Its view reads the same lists with
/// the folder-trust rule (a project's settings count only in a trusted folder, see `gemini/settings.rs`);
/// this entry is what `toggle` writes and what the app's switch shows.
pub static GEMINI: NameList = NameList {
    agent: Agent::Gemini,
    letter: 'G',
    files: &[
        (SwitchScope::User, true, ".gemini/settings.json"),
        (SwitchScope::Project, false, ".gemini/settings.json"),
    ],
    key: &["skills", "disabled"],
    any_case: true,
};

/// What one agent's name lists say: each name switched off, with the file and key saying so.
#[derive(Debug)]
struct Off {
    names: Vec<(String, PathBuf, String)>,
    any_case: bool,
}

impl SkillSwitches for Off {
    fn effective(&self, skill: &Skill, _paths: &PathCache) -> Effective {
        let name = name_of(skill);
        let same = |n: &str| {
            if self.any_case {
                n.eq_ignore_ascii_case(name) || n.to_lowercase() == name.to_lowercase()
            } else {
                n == name
            }
        };
        match self.names.iter().find(|(n, _, _)| same(n)) {
            Some((_, file, source)) => Effective {
                state: AgentState::Off,
                source: source.clone(),
                file: Some(file.clone()),
            },
            None => Effective::default_on(),
        }
    }
}

impl NameList {
    fn read_one(&self, f: &SettingsText<'_>, diags: &mut Vec<Diagnostic>) -> Vec<String> {
        let what = format!("its {} switches", self.key.join("."));
        let Some(root) = parse_settings(f.path, f.text, &what, diags) else {
            return Vec::new();
        };
        at(&root, self.key)
            .map(Node::to_value)
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    }
}

impl AgentPlugin for NameList {
    fn id(&self) -> Agent {
        self.agent
    }

    fn badge_letter(&self) -> char {
        self.letter
    }

    fn settings_paths(&self, home: &Path, project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)> {
        self.files
            .iter()
            .filter_map(|&(scope, in_home, rel)| match (in_home, project) {
                (true, _) => Some((scope, home.join(rel))),
                (false, Some(p)) => Some((scope, p.join(rel))),
                (false, None) => None,
            })
            .collect()
    }

    fn unsupported_scope(&self, scope: SwitchScope) -> Option<&'static str> {
        (!self.files.iter().any(|(s, _, _)| *s == scope))
            .then_some("it has no settings file of that scope")
    }

    fn read(
        &self,
        files: &[SettingsText<'_>],
        _home: &Path,
        diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches> {
        let mut names = Vec::new();
        for f in files {
            for n in self.read_one(f, diags) {
                let source = format!("{} {}", f.shown, self.key.join("."));
                names.push((n, f.path.to_path_buf(), source));
            }
        }
        Box::new(Off {
            names,
            any_case: self.any_case,
        })
    }

    fn candidates(
        &self,
        file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        _home: &Path,
    ) -> Result<Vec<String>, ToggleError> {
        let name = name_of(skill).to_string();
        let key: Vec<String> = self.key.iter().map(ToString::to_string).collect();
        let any_case = self.any_case;
        json_candidates(file, before, |root| {
            let mut list: Vec<Value> = root
                .and_then(|r| at(r, self.key))
                .map(Node::to_value)
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default();
            let same = |v: &Value| {
                v.as_str().is_some_and(|n| {
                    n == name || (any_case && n.to_lowercase() == name.to_lowercase())
                })
            };
            if on {
                list.retain(|v| !same(v));
            } else if !list.iter().any(same) {
                list.push(Value::String(name.clone()));
            }
            Ok(vec![vec![Edit::Set(key.clone(), Value::Array(list))]])
        })
    }
}

/// OpenClaw 2026.9.6: `skills.entries.<name>.enabled: false` in `~/.openclaw/openclaw.json`
/// (its one settings file; the entry's key may also be a skill's `skillKey`).
#[derive(Debug)]
pub struct Openclaw;

impl AgentPlugin for Openclaw {
    fn id(&self) -> Agent {
        Agent::Openclaw
    }

    fn badge_letter(&self) -> char {
        'W'
    }

    fn settings_paths(&self, home: &Path, _project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)> {
        vec![(
            SwitchScope::User,
            home.join(crate::core::source::OPENCLAW_CONFIG),
        )]
    }

    fn unsupported_scope(&self, scope: SwitchScope) -> Option<&'static str> {
        (scope != SwitchScope::User)
            .then_some("OpenClaw keeps its switches in ~/.openclaw/openclaw.json only")
    }

    fn read(
        &self,
        files: &[SettingsText<'_>],
        _home: &Path,
        diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches> {
        let mut names = Vec::new();
        for f in files {
            let Some(root) = parse_settings(f.path, f.text, "its skills.entries switches", diags)
            else {
                continue;
            };
            let Some(entries) = at(&root, &["skills", "entries"]).and_then(Node::members) else {
                continue;
            };
            for m in entries {
                let off = m
                    .value
                    .member("enabled")
                    .is_some_and(|e| e.value.to_value() == Value::Bool(false));
                if off {
                    let source = format!("{} skills.entries.{}.enabled", f.shown, m.key);
                    names.push((m.key.clone(), f.path.to_path_buf(), source));
                }
            }
        }
        Box::new(Off {
            names,
            any_case: false,
        })
    }

    fn candidates(
        &self,
        file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        _home: &Path,
    ) -> Result<Vec<String>, ToggleError> {
        let path = vec![
            "skills".to_string(),
            "entries".to_string(),
            name_of(skill).to_string(),
            "enabled".to_string(),
        ];
        json_candidates(file, before, |_| {
            Ok(vec![vec![if on {
                Edit::Remove(path)
            } else {
                Edit::Set(path, Value::Bool(false))
            }]])
        })
    }
}
