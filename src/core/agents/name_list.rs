//! A per-skill switch that is a list of the names switched off in a JSON settings file (Gemini
//! CLI's and Qwen Code's `skills.disabled`, GitHub Copilot CLI's `disabledSkills`; each agent's
//! own list is in its home): read, and written as a JSON edit that keeps the rest of the file.
//! What such a list says of a skill ([`Off`]) serves OpenClaw's `skills.entries` too.

use super::edit::json_candidates;
use super::error::ToggleError;
use super::json::{Edit, Node};
use super::plugin::parse_settings;
use super::{
    AgentPlugin, AgentState, Effective, PathCache, SettingsText, SkillSwitches, SwitchScope,
};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The name an agent's switch names a skill by: its frontmatter `name`, else its folder's.
pub(crate) fn name_of(skill: &Skill) -> &str {
    skill
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(&skill.name)
}

/// The node at `path` below `root`.
pub(crate) fn at<'a>(root: &'a Node, path: &[&str]) -> Option<&'a Node> {
    path.iter()
        .try_fold(root, |n, k| n.member(k).map(|m| &m.value))
}

/// A switch that is a list of the names of the skills switched off.
#[derive(Debug)]
pub struct NameList {
    /// The agent.
    pub(crate) agent: Agent,
    /// Its badge letter.
    pub(crate) letter: char,
    /// The settings files below the home folder and below the project, with their scope.
    pub(crate) files: &'static [(SwitchScope, bool, &'static str)],
    /// The list's keys from the top of the file.
    pub(crate) key: &'static [&'static str],
    /// Names match without regard to case.
    pub(crate) any_case: bool,
}

/// What one agent's name lists say: each name switched off, with the file and key saying so.
#[derive(Debug)]
pub(crate) struct Off {
    /// Each name switched off, with its file and the key saying so.
    pub(crate) names: Vec<(String, PathBuf, String)>,
    /// Names match without regard to case.
    pub(crate) any_case: bool,
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
