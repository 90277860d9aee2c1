//! OpenClaw's per-skill switch: `skills.entries.<name>.enabled` in its one settings file.

use crate::core::agents::edit::json_candidates;
use crate::core::agents::error::ToggleError;
use crate::core::agents::json::{Edit, Node};
use crate::core::agents::name_list::{Off, at, name_of};
use crate::core::agents::plugin::parse_settings;
use crate::core::agents::{AgentPlugin, SettingsText, SkillSwitches, SwitchScope};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde_json::Value;
use std::path::{Path, PathBuf};

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
