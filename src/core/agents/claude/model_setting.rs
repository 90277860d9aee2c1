//! Where Claude Code is set to run a model: `ANTHROPIC_MODEL`, then the `"model"` of its managed
//! settings, the project's `.claude/settings.local.json` and `.claude/settings.json`, the user's
//! `~/.claude/settings.json`.

use crate::core::agents::client::Client;
use crate::core::agents::configured::{Origin, read, text_value};
use std::path::{Path, PathBuf};

/// Claude Code's managed settings file: `managed-settings.json` in the folder its managed
/// skills are below (`$SKILLSCOPE_MANAGED_DIR`, else the system's).
fn claude_managed_settings() -> Option<PathBuf> {
    let skills = crate::core::source::managed_skills_dir()?;
    // `<managed>/.claude/skills` → `<managed>`.
    skills
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("managed-settings.json"))
}

/// Where Claude Code is set to run a model.
pub(crate) fn claude_code(
    _client: &Client,
    home: Option<&Path>,
    project: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    notes: &mut Vec<String>,
) -> Option<(String, Origin, Option<usize>)> {
    if let Some(v) = env("ANTHROPIC_MODEL").filter(|v| !v.trim().is_empty()) {
        return Some((v.trim().to_string(), Origin::Env("ANTHROPIC_MODEL"), None));
    }
    let files = claude_managed_settings()
        .into_iter()
        .chain(project.into_iter().flat_map(|p| {
            [
                p.join(".claude/settings.local.json"),
                p.join(".claude/settings.json"),
            ]
        }))
        .chain(home.map(|h| h.join(".claude/settings.json")));
    for file in files {
        let Some(text) = read(&file, notes) else {
            continue;
        };
        let value = match crate::core::agents::json::parse(&text) {
            Ok(node) => node.to_value(),
            Err(e) => {
                notes.push(format!(
                    "{}: not valid JSON ({e}); its model is not read",
                    file.display()
                ));
                continue;
            }
        };
        let Some(v) = value.get("model") else {
            continue;
        };
        if let Some(name) = text_value(v, &format!("`model` in {}", file.display()), notes) {
            return Some((name, Origin::File(file), None));
        }
    }
    None
}
