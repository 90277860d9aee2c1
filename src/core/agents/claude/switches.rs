//! Claude Code: `skillOverrides` in its settings files and `disable-model-invocation` in
//! frontmatter.

use crate::core::agents::edit::json_candidates;
use crate::core::agents::error::Shape;
use crate::core::agents::error::ToggleError;
use crate::core::agents::json::{self, Edit};
use crate::core::agents::plugin::settings_warning;
use crate::core::agents::{
    AgentPlugin, AgentState, Effective, PathCache, SettingsText, SkillSwitches, SwitchScope,
};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub const KEY: &str = "skillOverrides";

/// Claude Code: `skillOverrides` in the user, project and local settings.
#[derive(Debug)]
pub struct ClaudeCode;

/// Every `skillOverrides` entry of the files read, in the order Claude Code applies them.
#[derive(Debug)]
struct Overrides(Vec<Override>);

impl SkillSwitches for Overrides {
    fn effective(&self, skill: &Skill, _paths: &PathCache) -> Effective {
        effective(&self.0, skill)
    }
}

impl AgentPlugin for ClaudeCode {
    fn id(&self) -> Agent {
        Agent::ClaudeCode
    }

    fn badge_letter(&self) -> char {
        'C'
    }

    fn settings_paths(&self, home: &Path, project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)> {
        let mut out = vec![(SwitchScope::User, home.join(".claude/settings.json"))];
        if let Some(p) = project {
            out.push((SwitchScope::Project, p.join(".claude/settings.json")));
            out.push((SwitchScope::Local, p.join(".claude/settings.local.json")));
        }
        out
    }

    fn read(
        &self,
        files: &[SettingsText<'_>],
        _home: &Path,
        diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches> {
        let overrides = files
            .iter()
            .flat_map(|f| read(f.path, f.shown, f.text, diags))
            .collect();
        Box::new(Overrides(overrides))
    }

    fn candidates(
        &self,
        file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        _home: &Path,
    ) -> Result<Vec<String>, ToggleError> {
        json_candidates(file, before, |root| candidates(root, &key(skill), on))
    }
}

/// One `skillOverrides` entry.
#[derive(Debug, Clone)]
pub struct Override {
    pub file: PathBuf,
    pub name: String,
    pub state: AgentState,
    /// `~/.claude/settings.json skillOverrides.pdf`
    pub source: String,
}

pub fn parse_mode(s: &str) -> Option<AgentState> {
    match s {
        "on" => Some(AgentState::On),
        "name-only" => Some(AgentState::NameOnly),
        "user-invocable-only" => Some(AgentState::UserInvocableOnly),
        "off" => Some(AgentState::Off),
        _ => None,
    }
}

/// The overrides of one settings file, in file order; `shown` is the file's name for people.
pub fn read(path: &Path, shown: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Override> {
    let Some(root) =
        crate::core::agents::plugin::parse_settings(path, text, "its skillOverrides", diags)
    else {
        return Vec::new();
    };

    let Some(member) = root.member(KEY) else {
        return Vec::new();
    };
    let Some(entries) = member.value.members() else {
        diags.push(settings_warning(
            path,
            format!("`{KEY}` must map skill names to \"on\", \"name-only\", \"user-invocable-only\" or \"off\""),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in entries {
        if let Some(state) = m.value.as_str().and_then(parse_mode) {
            out.push(Override {
                file: path.to_path_buf(),
                name: m.key.clone(),
                state,
                source: format!("{shown} {KEY}.{}", m.key),
            });
        } else {
            let (line, col) = json::line_col(text, m.value.start);
            diags.push(
                settings_warning(
                    path,
                    format!(
                        "`{KEY}.{}` is {}: use \"on\", \"name-only\", \"user-invocable-only\" or \"off\"",
                        m.key,
                        &text[m.value.start..m.value.end]
                    ),
                )
                .at(line, col),
            );
        }
    }
    out
}

/// The name `skillOverrides` knows a skill by: Claude Code calls a skill of its skills folders by
/// the folder's name, whatever its frontmatter `name` says (`"folder": "off"` switches off
/// `folder/SKILL.md` named `other`; `"other": "off"` does nothing — checked with `skillscope
/// verify` against Claude Code 2.1.332); commands and plugins' skills keep their own names.
pub fn key(skill: &Skill) -> std::borrow::Cow<'_, str> {
    if skill.command || skill.plugin || skill.agent != Agent::ClaudeCode {
        std::borrow::Cow::Borrowed(skill.name.as_str())
    } else {
        skill.dir_name()
    }
}

/// The settings say one thing, frontmatter may say another: the stricter of the two holds
/// (a setting of `on` does not bring back a skill its author hid from the model).
pub fn effective(overrides: &[Override], skill: &Skill) -> Effective {
    let key = key(skill);
    let setting = overrides.iter().rev().find(|o| o.name == key);
    let fm = &skill.frontmatter;
    let from_frontmatter = if fm.disable_model_invocation && fm.user_invocable == Some(false) {
        Some((
            AgentState::Off,
            "frontmatter disable-model-invocation + user-invocable: false",
        ))
    } else if fm.disable_model_invocation {
        Some((
            AgentState::UserInvocableOnly,
            "frontmatter disable-model-invocation",
        ))
    } else {
        None
    };
    let by_setting = setting.map(|o| Effective {
        state: o.state,
        source: o.source.clone(),
        file: Some(o.file.clone()),
    });
    match (by_setting, from_frontmatter) {
        (Some(s), Some((state, why))) if state > s.state => Effective {
            state,
            source: why.to_string(),
            file: None,
        },
        (Some(s), _) => s,
        (None, Some((state, why))) => Effective {
            state,
            source: why.to_string(),
            file: None,
        },
        (None, None) => Effective::default_on(),
    }
}

/// The candidate edits for switching `name` on or off in one settings file, most preferred first.
/// `Err` says why the file cannot take the change without losing something of the user's.
pub fn candidates(
    root: Option<&json::Node>,
    name: &str,
    on: bool,
) -> Result<Vec<Vec<Edit>>, Shape> {
    if let Some(m) = root.and_then(|r| r.member(KEY))
        && m.value.members().is_none()
    {
        return Err(Shape::NotObject(KEY));
    }
    let path = vec![KEY.to_string(), name.to_string()];
    if !on {
        return Ok(vec![vec![Edit::Set(path, Value::from("off"))]]);
    }
    let present = root
        .and_then(|r| r.member(KEY))
        .and_then(|m| m.value.member(name))
        .is_some();
    let mut out = Vec::new();
    if present {
        // Dropping the entry is the smallest change; an explicit "on" is needed when a file of
        // lower precedence still switches the skill off.
        out.push(vec![Edit::Remove(path.clone())]);
    }
    out.push(vec![Edit::Set(path, Value::from("on"))]);
    Ok(out)
}
