//! opencode: `permission.skill` rules (glob pattern → allow | ask | deny; the last matching rule
//! wins; deny hides the skill) in `opencode.json`.

use crate::core::agents::edit::json_candidates;
use crate::core::agents::error::Shape;
use crate::core::agents::error::ToggleError;
use crate::core::agents::json::{self, Edit, Kind, Node};
use crate::core::agents::opencode::names::UnsafeName;
use crate::core::agents::plugin::settings_warning;
use crate::core::agents::{
    AgentPlugin, AgentState, Effective, PathCache, SettingsText, SkillSwitches, SwitchScope,
};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// opencode: `permission.skill` rules in `opencode.json(c)`, the user's and the project's.
#[derive(Debug)]
pub struct Opencode;

/// Every rule that applies to skills, in the order opencode evaluates them.
#[derive(Debug)]
struct Rules(Vec<Rule>);

impl SkillSwitches for Rules {
    fn effective(&self, skill: &Skill, _paths: &PathCache) -> Effective {
        effective(&self.0, skill)
    }

    /// The skill tool itself denied: the last rule for skills is `*` = deny (`Permission.disabled`),
    /// and opencode leaves the listing out of its system prompt.
    fn listing_off(&self) -> Option<String> {
        self.0
            .last()
            .filter(|r| r.pattern == "*" && r.action == Action::Deny)
            .map(|r| r.source.clone())
    }
}

impl AgentPlugin for Opencode {
    fn id(&self) -> Agent {
        Agent::Opencode
    }

    fn badge_letter(&self) -> char {
        'O'
    }

    fn settings_paths(&self, home: &Path, project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)> {
        let oc = home.join(".config/opencode");
        let mut out = vec![
            (SwitchScope::User, oc.join("opencode.json")),
            (SwitchScope::User, oc.join("opencode.jsonc")),
        ];
        if let Some(p) = project {
            out.push((SwitchScope::Project, p.join("opencode.json")));
            out.push((SwitchScope::Project, p.join("opencode.jsonc")));
        }
        out
    }

    fn unsupported_scope(&self, scope: SwitchScope) -> Option<&'static str> {
        (scope == SwitchScope::Local).then_some("opencode has no personal project settings file")
    }

    fn read(
        &self,
        files: &[SettingsText<'_>],
        _home: &Path,
        diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches> {
        let rules = files
            .iter()
            .flat_map(|f| read(f.path, f.shown, f.text, diags))
            .collect();
        Box::new(Rules(rules))
    }

    fn candidates(
        &self,
        file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        _home: &Path,
    ) -> Result<Vec<String>, ToggleError> {
        if let Some(why) = unsafe_name(&skill.name) {
            return Err(ToggleError::Name {
                agent: Agent::Opencode,
                name: skill.name.clone(),
                why,
            });
        }
        json_candidates(file, before, |root| candidates(root, &skill.name, on))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Allow,
    Ask,
    Deny,
}

impl Action {
    fn parse(s: &str) -> Option<Action> {
        match s {
            "allow" => Some(Action::Allow),
            "ask" => Some(Action::Ask),
            "deny" => Some(Action::Deny),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Ask => "ask",
            Action::Deny => "deny",
        }
    }
}

/// One rule that applies to skills, in the order opencode evaluates them.
#[derive(Debug, Clone)]
pub struct Rule {
    pub file: PathBuf,
    /// The skill-name pattern (`*` for a rule written as one string).
    pub pattern: String,
    pub action: Action,
    /// Where it is written, for people: `~/.config/opencode/opencode.json permission.skill."pdf*" = deny`.
    pub source: String,
}

/// `*` matches any run of characters, `?` one character, everything else itself.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    // The shapes nearly every rule has, without allocating.
    if !pattern.contains(['*', '?']) {
        return pattern == text;
    }
    if pattern == "*" {
        return true;
    }
    if let Some(prefix) = pattern.strip_suffix('*')
        && !prefix.contains(['*', '?'])
    {
        return text.starts_with(prefix);
    }
    crate::core::words::text::wildcard(
        &pattern.chars().collect::<Vec<_>>(),
        &text.chars().collect::<Vec<_>>(),
    )
}

/// An object's members in the order opencode sees them: it walks `Object.entries` of the
/// parsed JSON, which puts integer-like keys (`"42"`) first in ascending order, then the others
/// as written; a repeated key keeps its first place and its last value. The order decides which
/// rule is the last to match.
fn js_order<'a, T>(members: impl Iterator<Item = (&'a str, T)>) -> Vec<(&'a str, T)> {
    let mut out: Vec<(&'a str, T)> = Vec::new();
    for (k, v) in members {
        match out.iter_mut().find(|(seen, _)| *seen == k) {
            Some(slot) => slot.1 = v,
            None => out.push((k, v)),
        }
    }
    // Stable: the other keys keep their written order.
    out.sort_by_key(|(k, _)| array_index(k).map_or((1, 0), |n| (0, n)));
    out
}

/// The number a key stands for when JavaScript treats it as an array index: `0`, or digits
/// without a leading zero, below 2³² − 1.
fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0"
        || (!key.is_empty()
            && !key.starts_with('0')
            && key.len() <= 10
            && key.bytes().all(|b| b.is_ascii_digit()));
    if !canonical {
        return None;
    }
    key.parse::<u32>().ok().filter(|&n| n < u32::MAX)
}

/// Why a rule for `name` cannot be written so that it means this skill and no other, if it
/// cannot. opencode turns each `permission.skill` key into a regular expression: `*` and `?`
/// are wildcards with no escape (a `\` is read as `/`), every other character stands for
/// itself (`[`, `]`, `{`, `}` included), and a leading `~` or `$HOME` is replaced by the home
/// folder first.
pub fn unsafe_name(name: &str) -> Option<UnsafeName> {
    if name.contains(['*', '?']) {
        return Some(UnsafeName::Wildcard);
    }
    if name.contains('\\') {
        return Some(UnsafeName::Backslash);
    }
    if name == "~" || name.starts_with("~/") || name.starts_with("$HOME") {
        return Some(UnsafeName::HomePrefix);
    }
    None
}

pub fn read(path: &Path, shown: &str, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Rule> {
    let Some(root) =
        crate::core::agents::plugin::parse_settings(path, text, "its permission rules", diags)
    else {
        return Vec::new();
    };

    let Some(perm) = root.member("permission") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut push = |pattern: &str, node: &Node, at: String, out: &mut Vec<Rule>| {
        if let Some(action) = node.as_str().and_then(Action::parse) {
            out.push(Rule {
                file: path.to_path_buf(),
                pattern: pattern.to_string(),
                action,
                source: format!("{shown} {at} = {}", action.as_str()),
            });
        } else {
            let (line, col) = json::line_col(text, node.start);
            diags.push(
                settings_warning(
                    path,
                    format!(
                        "`{at}` is {}: use \"allow\", \"ask\" or \"deny\"",
                        &text[node.start..node.end]
                    ),
                )
                .at(line, col),
            );
        }
    };
    match &perm.value.kind {
        Kind::String(_) => push("*", &perm.value, "permission".to_string(), &mut out),
        Kind::Object(keys) => {
            let keys = js_order(keys.iter().map(|m| (m.key.as_str(), &m.value)));
            for (key, value) in keys.into_iter().filter(|(k, _)| wildcard(k, "skill")) {
                let at = format!("permission.{}", show_key(key));
                match &value.kind {
                    Kind::Object(patterns) => {
                        let patterns =
                            js_order(patterns.iter().map(|m| (m.key.as_str(), &m.value)));
                        for (pattern, value) in patterns {
                            push(
                                pattern,
                                value,
                                format!("{at}.{}", show_key(pattern)),
                                &mut out,
                            );
                        }
                    }
                    _ => push("*", value, at, &mut out),
                }
            }
        }
        _ => diags.push(settings_warning(
            path,
            "`permission` must be \"allow\", \"ask\", \"deny\" or an object".to_string(),
        )),
    }
    out
}

/// A key as written in a dotted path: bare when it is a plain word, quoted otherwise.
fn show_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        json::quote(k)
    }
}

pub fn effective(rules: &[Rule], skill: &Skill) -> Effective {
    match rules
        .iter()
        .rev()
        .find(|r| wildcard(&r.pattern, &skill.name))
    {
        Some(r) => Effective {
            state: if r.action == Action::Deny {
                AgentState::Off
            } else {
                AgentState::On
            },
            source: r.source.clone(),
            file: Some(r.file.clone()),
        },
        None => Effective::default_on(),
    }
}

fn path(keys: &[&str]) -> Vec<String> {
    keys.iter().map(std::string::ToString::to_string).collect()
}

/// The candidate edits for switching `name` on or off in one config file, most preferred first;
/// `Err` says why the file cannot take the change without losing something of the user's.
pub fn candidates(root: Option<&Node>, name: &str, on: bool) -> Result<Vec<Vec<Edit>>, Shape> {
    let want = if on { "allow" } else { "deny" };
    let perm = root.and_then(|r| r.member("permission"));
    let skill = perm.and_then(|p| p.value.member("skill"));
    let rule_shaped = |n: &Node| matches!(n.kind, Kind::String(_) | Kind::Object(_));
    if perm.is_some_and(|p| !rule_shaped(&p.value)) {
        return Err(Shape::NeitherStringNorObject("permission"));
    }
    if skill.is_some_and(|s| !rule_shaped(&s.value)) {
        return Err(Shape::NeitherStringNorObject("permission.skill"));
    }
    let mut out = Vec::new();
    // A rule written as one string covers every skill: it becomes the `*` rule of an object, so
    // what it said for the other skills stays true.
    if let Some(all) = perm.and_then(|p| p.value.as_str()) {
        let mut rules = Map::new();
        rules.insert(name.to_string(), Value::from(want));
        let mut obj = Map::new();
        obj.insert("*".to_string(), Value::from(all));
        obj.insert("skill".to_string(), Value::Object(rules));
        return Ok(vec![vec![Edit::Set(
            path(&["permission"]),
            Value::Object(obj),
        )]]);
    }
    if let Some(all) = skill.and_then(|s| s.value.as_str()) {
        let mut obj = Map::new();
        obj.insert("*".to_string(), Value::from(all));
        obj.insert(name.to_string(), Value::from(want));
        return Ok(vec![vec![Edit::Set(
            path(&["permission", "skill"]),
            Value::Object(obj),
        )]]);
    }
    let exact = path(&["permission", "skill", name]);
    let present = skill.and_then(|s| s.value.member(name)).is_some();
    if present {
        if on {
            out.push(vec![Edit::Remove(exact.clone())]);
        }
        out.push(vec![Edit::Set(exact.clone(), Value::from(want))]);
    }
    // Last: the rule moved to the end of the object, where it beats every pattern before it.
    out.push(vec![
        Edit::Remove(exact.clone()),
        Edit::Set(exact, Value::from(want)),
    ]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_like_keys_come_first_like_object_entries() {
        let got = js_order(
            [
                ("*", 1),
                ("42", 2),
                ("b", 3),
                ("7", 4),
                ("042", 5),
                ("b", 6),
                ("4294967295", 7),
            ]
            .into_iter(),
        );
        let keys: Vec<_> = got.iter().map(|(k, v)| (*k, *v)).collect();
        assert_eq!(
            keys,
            vec![
                ("7", 4),
                ("42", 2),
                ("*", 1),
                ("b", 6),
                ("042", 5),
                ("4294967295", 7)
            ]
        );
    }

    #[test]
    fn names_with_wildcards_or_home_prefixes_are_refused() {
        for bad in ["*", "a*", "p?f", "a\\b", "~", "~/x", "$HOME", "$HOMEx"] {
            assert!(unsafe_name(bad).is_some(), "{bad}");
        }
        for good in ["pdf", "[a]", "{b}", "a/b", "a~", "x$HOME", "über", "a.b+c"] {
            assert_eq!(unsafe_name(good), None, "{good}");
        }
    }

    #[test]
    fn wildcard_matches_like_opencode() {
        assert!(wildcard("*", "pdf"));
        assert!(wildcard("pdf", "pdf"));
        assert!(!wildcard("pdf", "pdf-tools"));
        assert!(wildcard("pdf*", "pdf-tools"));
        assert!(wildcard("*-tools", "pdf-tools"));
        assert!(wildcard("p?f", "pdf"));
        assert!(!wildcard("p?f", "pf"));
        assert!(wildcard("a*b*c", "aXXbYYc"));
        assert!(!wildcard("a*b*c", "aXXbYY"));
        assert!(wildcard("", ""));
        assert!(!wildcard("", "x"));
    }
}
