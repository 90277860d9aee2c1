//! Codex: `[[skills.config]]` entries (`name` or `path`, `enabled`) in `~/.codex/config.toml`,
//! edited with toml_edit so that comments and layout stay.

use crate::core::agents::error::Shape;
use crate::core::agents::error::ToggleError;
use crate::core::agents::plugin::settings_warning;
use crate::core::agents::{
    AgentPlugin, AgentState, Effective, PathCache, SettingsText, SkillSwitches, SwitchScope,
};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use toml_edit::{DocumentMut, Item, Table, TableLike, Value};

/// Codex: `[[skills.config]]` in `~/.codex/config.toml`.
#[derive(Debug)]
pub struct Codex;

impl SkillSwitches for Index {
    fn effective(&self, skill: &Skill, paths: &PathCache) -> Effective {
        effective(self, skill, paths)
    }
}

impl AgentPlugin for Codex {
    fn id(&self) -> Agent {
        Agent::Codex
    }

    fn badge_letter(&self) -> char {
        'X'
    }

    fn settings_paths(&self, home: &Path, _project: Option<&Path>) -> Vec<(SwitchScope, PathBuf)> {
        vec![(SwitchScope::User, home.join(".codex/config.toml"))]
    }

    fn unsupported_scope(&self, scope: SwitchScope) -> Option<&'static str> {
        (scope != SwitchScope::User)
            .then_some("Codex reads [[skills.config]] only from ~/.codex/config.toml")
    }

    fn read(
        &self,
        files: &[SettingsText<'_>],
        home: &Path,
        diags: &mut Vec<Diagnostic>,
    ) -> Box<dyn SkillSwitches> {
        let entries = files
            .iter()
            .flat_map(|f| read(f.path, f.shown, f.text, home, diags))
            .collect();
        Box::new(Index::new(entries))
    }

    fn candidates(
        &self,
        file: &Path,
        before: &str,
        skill: &Skill,
        on: bool,
        home: &Path,
    ) -> Result<Vec<String>, ToggleError> {
        Ok(vec![edit(file, before, skill, on, home)?])
    }
}

/// How an entry names its skill.
#[derive(Debug, Clone)]
pub enum Selector {
    Name(String),
    /// The skill folder (a `SKILL.md` path is reduced to its folder), lexically and with links
    /// resolved when it exists.
    Path {
        raw: String,
        dir: PathBuf,
        canonical: Option<PathBuf>,
    },
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub file: PathBuf,
    pub selector: Selector,
    pub enabled: bool,
    /// `~/.codex/config.toml skills.config[2] (name = "pdf", enabled = false)`
    pub source: String,
}

/// The folder an entry's `path` stands for: `~` expanded, relative paths taken from `~/.codex`,
/// a trailing `SKILL.md` dropped.
fn entry_dir(raw: &str, home: &Path) -> PathBuf {
    let p = if let Some(rest) = raw.strip_prefix("~/") {
        home.join(rest)
    } else if raw == "~" {
        home.to_path_buf()
    } else {
        let p = PathBuf::from(raw);
        if p.is_absolute() {
            p
        } else {
            home.join(".codex").join(p)
        }
    };
    let is_skill_file = p
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"));
    match (is_skill_file, p.parent()) {
        (true, Some(parent)) => parent.to_path_buf(),
        _ => p,
    }
}

fn parse(path: &Path, text: &str) -> Result<DocumentMut, ToggleError> {
    text.parse::<DocumentMut>().map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| {
            crate::core::agents::json::line_col(text, s.start)
        });
        ToggleError::Unparsable {
            file: path.to_path_buf(),
            format: "TOML",
            line,
            column,
            message: e.message().to_string(),
        }
    })
}

/// The tables of `skills.config`, whichever way the file writes them.
fn config_tables(doc: &DocumentMut) -> Result<Vec<&dyn TableLike>, Shape> {
    let Some(skills) = doc.get("skills") else {
        return Ok(Vec::new());
    };
    let Some(skills) = skills.as_table_like() else {
        return Err(Shape::NotTable("skills"));
    };
    match skills.get("config") {
        None => Ok(Vec::new()),
        Some(Item::ArrayOfTables(aot)) => Ok(aot.iter().map(|t| t as &dyn TableLike).collect()),
        Some(Item::Value(Value::Array(arr))) => arr
            .iter()
            .map(|v| {
                v.as_inline_table()
                    .map(|t| t as &dyn TableLike)
                    .ok_or(Shape::NotAllTables("skills.config"))
            })
            .collect(),
        Some(_) => Err(Shape::NotListOfTables("skills.config")),
    }
}

pub fn read(
    path: &Path,
    shown: &str,
    text: &str,
    home: &Path,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Entry> {
    let doc = match parse(path, text) {
        Ok(d) => d,
        Err(e) => {
            diags.push(settings_warning(
                path,
                format!("{e}; its [[skills.config]] entries are ignored"),
            ));
            return Vec::new();
        }
    };
    let tables = match config_tables(&doc) {
        Ok(t) => t,
        Err(why) => {
            diags.push(settings_warning(path, format!("{why}; it is ignored")));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (index, t) in tables.into_iter().enumerate() {
        let enabled = match t.get("enabled") {
            None => true,
            Some(item) => {
                if let Some(b) = item.as_bool() {
                    b
                } else {
                    diags.push(settings_warning(
                    path,
                    format!("skills.config[{index}].enabled must be true or false; the entry is ignored"),
                ));
                    continue;
                }
            }
        };
        let selector = if let Some(raw) = t.get("path").and_then(Item::as_str) {
            let dir = entry_dir(raw, home);
            Selector::Path {
                raw: raw.to_string(),
                canonical: std::fs::canonicalize(&dir).ok(),
                dir,
            }
        } else if let Some(name) = t.get("name").and_then(Item::as_str) {
            Selector::Name(name.to_string())
        } else {
            diags.push(settings_warning(
                path,
                format!("skills.config[{index}] has neither `name` nor `path`; it is ignored"),
            ));
            continue;
        };
        let what = match &selector {
            Selector::Name(n) => format!("name = {n:?}"),
            Selector::Path { raw, .. } => format!("path = {raw:?}"),
        };
        out.push(Entry {
            file: path.to_path_buf(),
            selector,
            enabled,
            source: format!("{shown} skills.config[{index}] ({what}, enabled = {enabled})"),
        });
    }
    out
}

/// Whether entries of a table name this skill (by name or by folder).
struct SkillKey<'a> {
    name: &'a str,
    dir: PathBuf,
    skill_dir: &'a Path,
    /// Not asked yet (`None`), or the folder's real place if it has one.
    #[allow(clippy::option_option)]
    canonical: Option<Option<PathBuf>>,
    cache: &'a PathCache,
}

impl<'a> SkillKey<'a> {
    fn of(skill: &'a Skill, cache: &'a PathCache) -> SkillKey<'a> {
        SkillKey {
            name: &skill.name,
            dir: crate::core::files::paths::absolute(&skill.dir),
            skill_dir: &skill.dir,
            canonical: None,
            cache,
        }
    }

    fn matches(&mut self, selector: &Selector) -> bool {
        match selector {
            Selector::Name(n) => n == self.name,
            Selector::Path { dir, canonical, .. } => {
                if *dir == self.dir {
                    return true;
                }
                let Some(c) = canonical else { return false };
                // Resolved only when a lexical match fails, and once per skill.
                let (cache, skill_dir) = (self.cache, self.skill_dir);
                let mine = self
                    .canonical
                    .get_or_insert_with(|| cache.resolve(skill_dir));
                mine.as_ref() == Some(c)
            }
        }
    }
}

/// The entries, looked up by what they name. An entry written later overrides an earlier one
/// for the same skill.
#[derive(Debug, Clone, Default)]
pub struct Index {
    entries: Vec<Entry>,
    by_name: HashMap<String, usize>,
    by_dir: HashMap<PathBuf, usize>,
    by_canonical: HashMap<PathBuf, usize>,
}

impl Index {
    pub fn new(entries: Vec<Entry>) -> Index {
        let mut ix = Index::default();
        for (i, e) in entries.iter().enumerate() {
            match &e.selector {
                Selector::Name(n) => {
                    ix.by_name.insert(n.clone(), i);
                }
                Selector::Path { dir, canonical, .. } => {
                    ix.by_dir.insert(dir.clone(), i);
                    if let Some(c) = canonical {
                        ix.by_canonical.insert(c.clone(), i);
                    }
                }
            }
        }
        ix.entries = entries;
        ix
    }

    fn find(&self, skill: &Skill, cache: &PathCache) -> Option<&Entry> {
        let mut best = self.by_name.get(&skill.name).copied();
        if !self.by_dir.is_empty() {
            let dir = crate::core::files::paths::absolute(&skill.dir);
            best = best.max(self.by_dir.get(&dir).copied());
        }
        if !self.by_canonical.is_empty()
            && let Some(c) = cache.resolve(&skill.dir)
        {
            best = best.max(self.by_canonical.get(&c).copied());
        }
        best.map(|i| &self.entries[i])
    }
}

pub fn effective(index: &Index, skill: &Skill, cache: &PathCache) -> Effective {
    match index.find(skill, cache) {
        Some(e) => Effective {
            state: if e.enabled {
                AgentState::On
            } else {
                AgentState::Off
            },
            source: e.source.clone(),
            file: Some(e.file.clone()),
        },
        None => Effective::default_on(),
    }
}

/// The file with every entry for the skill set to `enabled = on`; when switching off and no entry
/// names the skill, a new `[[skills.config]]` with its `SKILL.md` path is added at the end.
pub fn edit(
    file: &Path,
    before: &str,
    skill: &Skill,
    on: bool,
    home: &Path,
) -> Result<String, ToggleError> {
    let mut doc = parse(file, before)?;
    let shape = |what: Shape| ToggleError::Shape {
        file: file.to_path_buf(),
        what,
    };
    let cache = PathCache::default();
    let mut key = SkillKey::of(skill, &cache);
    config_tables(&doc).map_err(shape)?;
    let mut matched = false;
    let mut changed = false;
    let selector_of = |t: &dyn TableLike| -> Option<Selector> {
        if let Some(raw) = t.get("path").and_then(Item::as_str) {
            let dir = entry_dir(raw, home);
            Some(Selector::Path {
                raw: raw.to_string(),
                canonical: std::fs::canonicalize(&dir).ok(),
                dir,
            })
        } else {
            t.get("name")
                .and_then(Item::as_str)
                .map(|n| Selector::Name(n.to_string()))
        }
    };
    if let Some(skills) = doc.get_mut("skills").and_then(Item::as_table_like_mut) {
        match skills.get_mut("config") {
            Some(Item::ArrayOfTables(aot)) => {
                for t in aot.iter_mut() {
                    if selector_of(&*t).is_some_and(|s| key.matches(&s)) {
                        matched = true;
                        changed |= set_enabled(t, on);
                    }
                }
                if !matched && !on {
                    aot.push(new_entry(skill));
                    matched = true;
                    changed = true;
                }
            }
            Some(Item::Value(Value::Array(arr))) => {
                for v in arr.iter_mut() {
                    let Some(t) = v.as_inline_table_mut() else {
                        continue;
                    };
                    if selector_of(&*t).is_some_and(|s| key.matches(&s)) {
                        matched = true;
                        changed |= set_enabled(t, on);
                    }
                }
                if !matched && !on {
                    arr.push_formatted(Value::InlineTable(new_entry(skill).into_inline_table()));
                    arr.fmt();
                    matched = true;
                    changed = true;
                }
            }
            _ => {}
        }
    }
    if !matched && !on {
        let mut aot = toml_edit::ArrayOfTables::new();
        aot.push(new_entry(skill));
        if let Some(skills) = doc.get_mut("skills").and_then(Item::as_table_like_mut) {
            skills.insert("config", Item::ArrayOfTables(aot));
        } else {
            let mut skills = Table::new();
            skills.set_implicit(true);
            skills.insert("config", Item::ArrayOfTables(aot));
            doc.insert("skills", Item::Table(skills));
        }
        changed = true;
    }
    // An untouched document is returned as read, byte for byte.
    Ok(if changed {
        doc.to_string()
    } else {
        before.to_string()
    })
}

/// Sets `enabled`, keeping the spacing and comment around an existing value; says whether
/// anything changed. A missing `enabled` means on, so switching on leaves it missing.
fn set_enabled(t: &mut dyn TableLike, on: bool) -> bool {
    match t.get_mut("enabled") {
        Some(item) if item.as_bool() == Some(on) => false,
        Some(Item::Value(v)) => {
            let decor = v.decor().clone();
            *v = Value::from(on);
            *v.decor_mut() = decor;
            true
        }
        None if on => false,
        _ => {
            t.insert("enabled", toml_edit::value(on));
            true
        }
    }
}

fn new_entry(skill: &Skill) -> Table {
    let md = crate::core::files::paths::absolute(&skill.skill_md);
    let mut t = Table::new();
    t.insert("path", toml_edit::value(md.to_string_lossy().into_owned()));
    t.insert("enabled", toml_edit::value(false));
    t
}
