//! Where Codex is set to run a model: `$CODEX_HOME/config.toml` (`~/.codex/config.toml`
//! without it), the `model` of the profile its `profile` key selects, else its top-level `model`;
//! `model_context_window` the same way.

use crate::core::agents::client::Client;
use crate::core::agents::configured::{Origin, read};
use std::path::{Path, PathBuf};

/// Where Codex is set to run a model.
pub(crate) fn codex(
    client: &Client,
    home: Option<&Path>,
    _project: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
    notes: &mut Vec<String>,
) -> Option<(String, Origin, Option<usize>)> {
    let dir = match env("CODEX_HOME").filter(|v| !v.trim().is_empty()) {
        Some(d) => PathBuf::from(d),
        None => home?.join(".codex"),
    };
    let file = dir.join("config.toml");
    let text = read(&file, notes)?;
    let doc = match text.parse::<toml_edit::DocumentMut>() {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!(
                "{}: not valid TOML ({}); its model is not read",
                file.display(),
                e.message()
            ));
            return None;
        }
    };
    let profile_name = doc.get("profile").and_then(toml_edit::Item::as_str);
    let profile = profile_name.and_then(|p| doc.get("profiles").and_then(|t| t.get(p)));
    if let (Some(name), None) = (profile_name, profile) {
        notes.push(format!(
            "{}: the profile `{name}` it selects is not defined",
            file.display()
        ));
    }
    let text_of = |item: Option<&toml_edit::Item>| {
        item.and_then(toml_edit::Item::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    let window_of = |item: Option<&toml_edit::Item>| {
        item.and_then(toml_edit::Item::as_integer)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n > 0)
    };
    let window = window_of(profile.and_then(|p| p.get("model_context_window")))
        .or_else(|| window_of(doc.get("model_context_window")));
    let in_profile = text_of(profile.and_then(|p| p.get("model")));
    match (in_profile, profile_name) {
        (Some(m), Some(p)) => Some((m, Origin::Profile(file, p.to_string()), window)),
        _ => match text_of(doc.get("model")) {
            Some(m) => Some((m, Origin::File(file), window)),
            // A window set without a model still sets the default model's window.
            None => window.and_then(|w| {
                let default = client.default_model()?;
                Some((default.id.to_string(), Origin::Default, Some(w)))
            }),
        },
    }
}
