//! Agents' settings entries that name a skill (Claude Code `skillOverrides`, Codex
//! `[[skills.config]]`, opencode `permission.skill` rules): found for a removed skill, and
//! cleaned only when asked.

use super::ManageError;
use super::error::Refusal;
use crate::core::agents::home::SettingsEntry;
use crate::core::agents::{self, json};
use crate::core::source::Agent;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One settings file's entries that name a skill, and the file's text without them.
#[derive(Debug, Clone, Serialize)]
pub struct Reference {
    /// The agent whose settings file it is.
    pub agent: Agent,
    /// The settings file.
    pub file: PathBuf,
    /// The entries, for people: `skillOverrides.pdf`, `skills.config[1] (name = "pdf")`.
    pub entries: Vec<String>,
    #[serde(skip)]
    before: String,
    #[serde(skip)]
    after: String,
}

/// Every settings entry of the registered agents (under `home` and `project`) that names the
/// skill `name` in folder `dir`.
pub fn references(name: &str, dir: &Path, home: &Path, project: Option<&Path>) -> Vec<Reference> {
    let mut out = Vec::new();
    for p in agents::REGISTRY {
        for (_, file) in p.settings_paths(home, project) {
            let Ok(Some(bytes)) = crate::core::files::fsx::read_settings(&file) else {
                continue;
            };
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            if let Some((entries, after)) = without(p.id(), &text, name, dir, home) {
                out.push(Reference {
                    agent: p.id(),
                    file,
                    entries,
                    before: text,
                    after,
                });
            }
        }
    }
    out
}

/// The entries of one file's text that name the skill, and the text without them.
fn without(
    agent: Agent,
    text: &str,
    name: &str,
    dir: &Path,
    home: &Path,
) -> Option<(Vec<String>, String)> {
    match agent.home().settings_entry {
        SettingsEntry::Json(keys) => {
            let path: Vec<&str> = keys.iter().copied().chain([name]).collect();
            json_without(text, &path)
        }
        SettingsEntry::CodexConfig => toml_without(text, name, dir, home),
        SettingsEntry::None => None,
    }
}

fn json_without(text: &str, path: &[&str]) -> Option<(Vec<String>, String)> {
    let root = json::parse(text).ok()?.to_value();
    let mut cur = &root;
    for key in path {
        cur = cur.get(*key)?;
    }
    let keys: Vec<String> = path.iter().map(|s| (*s).to_string()).collect();
    let after = json::edit(text, &[json::Edit::Remove(keys)]).ok()?;
    Some((vec![path.join(".")], after))
}

fn toml_without(text: &str, name: &str, dir: &Path, home: &Path) -> Option<(Vec<String>, String)> {
    let mut doc: toml_edit::DocumentMut = text.parse().ok()?;
    let arr = doc
        .get_mut("skills")?
        .as_table_like_mut()?
        .get_mut("config")?
        .as_array_of_tables_mut()?;
    let names_it = |t: &toml_edit::Table| {
        if t.get("name").and_then(|v| v.as_str()) == Some(name) {
            return true;
        }
        t.get("path").and_then(|v| v.as_str()).is_some_and(|raw| {
            let p = match raw.strip_prefix("~/") {
                Some(rest) => home.join(rest),
                None => home.join(".codex").join(raw),
            };
            p == dir || p.parent() == Some(dir)
        })
    };
    let mut entries = Vec::new();
    let mut gone = Vec::new();
    for (i, t) in arr.iter().enumerate() {
        if names_it(t) {
            entries.push(format!("skills.config[{i}]"));
            gone.push(i);
        }
    }
    if entries.is_empty() {
        return None;
    }
    // Comments above a removed entry stay, above the entry that now follows them.
    let mut orphans = String::new();
    for i in gone.into_iter().rev() {
        let prefix = arr
            .get(i)
            .and_then(|t| t.decor().prefix())
            .and_then(|p| p.as_str())
            .unwrap_or("")
            .to_string();
        arr.remove(i);
        let carried = format!("{prefix}{orphans}");
        orphans.clear();
        if carried.contains('#') {
            match arr.get_mut(i) {
                Some(next) => {
                    let own = next
                        .decor()
                        .prefix()
                        .and_then(|p| p.as_str())
                        .unwrap_or("")
                        .to_string();
                    next.decor_mut().set_prefix(format!("{carried}{own}"));
                }
                None => orphans = carried,
            }
        }
    }
    if !orphans.is_empty() {
        let trailing = doc.trailing().as_str().unwrap_or("").to_string();
        doc.set_trailing(format!("{trailing}{orphans}"));
    }
    Some((entries, doc.to_string()))
}

/// Removes a reference's entries from its file: under the file's lock, only when the file
/// still holds the text they were found in, with a backup, atomically.
pub fn clean(r: &Reference) -> Result<PathBuf, ManageError> {
    let _lock = crate::core::files::fsx::lock(&r.file, crate::core::files::fsx::lock_wait())?;
    let now = crate::core::files::fsx::read_settings(&r.file)?
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    if now != r.before {
        return Err(Refusal::Changed(r.file.clone()).into());
    }
    let backup = agents::backup_path(&r.file);
    crate::core::files::paths::write_atomic(&backup, r.before.as_bytes(), None)
        .map_err(ManageError::io("write", &backup))?;
    crate::core::files::paths::write_atomic(&r.file, r.after.as_bytes(), None)
        .map_err(ManageError::io("write", &r.file))?;
    Ok(backup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_naming_a_skill_are_found_and_cleaned_and_nothing_else() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path();
        let dir = home.join(".claude/skills/pdf");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(home.join(".codex")).unwrap();
        std::fs::write(
            home.join(".claude/settings.json"),
            "{\n  // mine\n  \"skillOverrides\": {\"pdf\": \"off\", \"docx\": \"on\"},\n  \"model\": \"x\"\n}\n",
        )
        .unwrap();
        std::fs::write(
            home.join(".codex/config.toml"),
            "# keep\n[[skills.config]]\nname = \"pdf\"\nenabled = false\n\n[[skills.config]]\nname = \"docx\"\nenabled = false\n",
        )
        .unwrap();
        let refs = references("pdf", &dir, home, None);
        assert_eq!(refs.len(), 2, "{refs:?}");
        for r in &refs {
            clean(r).unwrap();
        }
        let claude = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
        assert!(
            !claude.contains("\"pdf\"") && claude.contains("docx") && claude.contains("// mine"),
            "{claude}"
        );
        let codex = std::fs::read_to_string(home.join(".codex/config.toml")).unwrap();
        assert!(
            !codex.contains("\"pdf\"") && codex.contains("docx") && codex.contains("# keep"),
            "{codex}"
        );
        assert!(references("pdf", &dir, home, None).is_empty());
        assert!(agents::backup_path(&home.join(".codex/config.toml")).is_file());
    }
}
