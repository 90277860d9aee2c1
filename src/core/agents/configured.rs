//! The model each client is set to run, read from that client's own settings in its own
//! precedence, for the clients whose listing budget depends on the model:
//!
//! - Claude Code: `ANTHROPIC_MODEL`, then the `"model"` of its managed settings
//!   (`managed-settings.json` in its managed folder), the project's `.claude/settings.local.json`,
//!   the project's `.claude/settings.json`, the user's `~/.claude/settings.json` (its `--model`
//!   and `/model` are not visible from outside a session);
//! - Codex: `$CODEX_HOME/config.toml` (`~/.codex/config.toml` without it): the `model` of the
//!   profile its `profile` key selects, else its top-level `model`; `model_context_window` the
//!   same way.
//!
//! Each reader is its agent's (its home's `model_setting`: `claude/model_setting.rs`,
//! `codex/model_setting.rs`); this file holds what they share.
//!
//! A name is taken as the client takes it (`client::Client::resolve`): aliases and dated ids, and
//! a model it does not know on its fallback window, with a note.

use super::client::{Client, Resolved};
use crate::core::source::Agent;
use std::path::{Path, PathBuf};

/// Settings files over this size are not read for a model (no settings file comes near it).
const MAX_SETTINGS_BYTES: u64 = 4 * 1024 * 1024;

/// Where the model in effect was set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Named for this run (`--model`, the app's `m`).
    Chosen,
    /// An environment variable.
    Env(&'static str),
    /// A settings file.
    File(PathBuf),
    /// A settings file's profile (Codex's `[profiles.NAME]`, selected by its `profile` key).
    Profile(PathBuf, String),
    /// Nothing set: the client's default model.
    Default,
}

/// The model a client runs as far as its listing budget is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Configured {
    /// The name as set (the default model's id when nothing is set).
    pub name: String,
    /// What the client makes of it.
    pub resolved: Resolved,
    /// Where it was set.
    pub origin: Origin,
    /// A context window the settings set outright (Codex's `model_context_window`).
    pub window: Option<usize>,
    /// What was passed over on the way: settings that could not be read, values of the wrong
    /// type.
    pub notes: Vec<String>,
}

impl Configured {
    /// The model id budgeted for: the catalogue's, or the name as set when the client does not
    /// know it.
    pub fn id(&self) -> &str {
        if self.resolved.known {
            self.resolved.model.id
        } else {
            &self.name
        }
    }

    /// Where it was set, in words: `from ~/.claude/settings.json`, `from ANTHROPIC_MODEL`,
    /// `Claude Code's default` (`home` is shown as `~`).
    pub fn origin_text(&self, client_name: &str, home: Option<&Path>) -> String {
        let shown = |p: &Path| match home.and_then(|h| p.strip_prefix(h).ok()) {
            Some(rest) => format!("~/{}", rest.display()),
            None => p.display().to_string(),
        };
        match &self.origin {
            Origin::Chosen => "chosen with --model".to_string(),
            Origin::Env(v) => format!("from {v}"),
            Origin::File(p) => format!("from {}", shown(p)),
            Origin::Profile(p, name) => format!("from profile `{name}` of {}", shown(p)),
            Origin::Default => format!("{client_name}'s default"),
        }
    }

    /// One line for people: `model claude-sonnet-4-5 (from ~/.claude/settings.json)`; an alias
    /// says what it means (`model sonnet = claude-sonnet-5-5 (…)`).
    pub fn describe(&self, client_name: &str, home: Option<&Path>) -> String {
        let origin = self.origin_text(client_name, home);
        let id = self.id();
        if self.resolved.known && !self.name.eq_ignore_ascii_case(id) {
            format!("model {} = {id} ({origin})", self.name)
        } else {
            format!("model {id} ({origin})")
        }
    }

    /// The note for a model the client does not know: how it budgets for it instead, and the
    /// release that knows it when a newer one does (`known_from`).
    pub fn unknown_note(
        &self,
        client_name: &str,
        version: &str,
        known_from: Option<&str>,
    ) -> Option<String> {
        (!self.resolved.known).then(|| {
            let newer = known_from
                .map(|v| format!(" (a model of {client_name} {v} and later)"))
                .unwrap_or_default();
            if self.resolved.by_suffix {
                return format!(
                    "{client_name} {version} does not know the model `{}`{newer}, but gives any name holding `[1m]` a window of {} tokens, known or not: its listing budget is made for that window, as {client_name} makes it",
                    self.name,
                    crate::core::words::text::thousands(self.resolved.model.context_window as u64),
                );
            }
            format!(
                "{client_name} {version} does not know the model `{}`{newer}: its listing budget is made for its fallback window of {} tokens, as {client_name} makes it",
                self.name,
                crate::core::words::text::thousands(self.resolved.model.context_window as u64),
            )
        })
    }
}

/// The window `client` gives the model `name` (`resolved`) when it is named for it rather than
/// run as its default, where that is less than the model's own: Claude Code before 2.1.290
/// gives a named model at most 200,000 tokens unless written with `[1m]`
/// (`Catalogue::named_window`), with a note saying so.
fn named_window(client: &Client, name: &str, resolved: Resolved) -> Option<(usize, String)> {
    let cat = client.catalogue?;
    let cap = cat.named_window?;
    let suffixed = cat.suffix.is_some_and(|sfx| {
        name.trim()
            .to_ascii_lowercase()
            .ends_with(&sfx.to_ascii_lowercase())
    });
    (resolved.known && !suffixed && resolved.model.context_window > cap).then(|| {
        let sfx = cat.suffix.unwrap_or_default();
        (
            cap,
            format!(
                "release {} gives a model named for it (--model, its settings, the environment) at most {} tokens: {} only as its default, when nothing names a model, or named `{}{sfx}`",
                client.version,
                crate::core::words::text::thousands(cap as u64),
                crate::core::words::text::thousands(resolved.model.context_window as u64),
                resolved.model.id,
            ),
        )
    })
}

/// `name` as `client` takes it, chosen for this run; `None` when its budget does not depend on
/// the model.
pub fn chosen(client: &Client, name: &str) -> Option<Configured> {
    let resolved = client.resolve(name)?;
    let (window, notes) = match named_window(client, name, resolved) {
        Some((w, note)) => (Some(w), vec![note]),
        None => (None, Vec::new()),
    };
    Some(Configured {
        name: name.trim().to_string(),
        resolved,
        origin: Origin::Chosen,
        window,
        notes,
    })
}

/// The model `agent`'s client is set to run in `project` for a user whose home is `home`, with
/// the environment `env`; `None` when its budget does not depend on the model (or it has no
/// client).
pub fn configured(
    agent: Agent,
    home: Option<&Path>,
    project: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Option<Configured> {
    let client = super::model::model(agent)
        .client_in_use()
        .filter(|c| c.catalogue.is_some())?;
    let mut notes = Vec::new();
    let found = agent
        .home()
        .model_setting
        .and_then(|f| f(client, home, project, env, &mut notes));
    let (name, origin, mut window) = if let Some(f) = found {
        f
    } else {
        let default = client.default_model()?;
        (default.id.to_string(), Origin::Default, None)
    };
    let resolved = client.resolve(&name)?;
    if window.is_none()
        && origin != Origin::Default
        && let Some((w, note)) = named_window(client, &name, resolved)
    {
        window = Some(w);
        notes.push(note);
    }
    Some(Configured {
        name,
        resolved,
        origin,
        window,
        notes,
    })
}

/// [`configured`] for every agent whose listing budget depends on its client's model.
pub fn every(
    home: Option<&Path>,
    project: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Vec<(Agent, Configured)> {
    super::model::models()
        .filter_map(|m| configured(m.agent, home, project, env).map(|c| (m.agent, c)))
        .collect()
}

/// What a settings file holds: `None` when there is no such file; a file that cannot be read is
/// a note.
pub(crate) fn read(path: &Path, notes: &mut Vec<String>) -> Option<String> {
    match crate::core::files::fsx::read_regular_up_to(path, MAX_SETTINGS_BYTES) {
        Ok(Some(bytes)) => {
            let text = String::from_utf8(bytes).ok();
            if text.is_none() {
                notes.push(format!(
                    "{}: not UTF-8 text; its model is not read",
                    path.display()
                ));
            }
            text
        }
        Ok(None) => {
            if path.exists() {
                notes.push(format!(
                    "{}: larger than {} bytes; its model is not read",
                    path.display(),
                    MAX_SETTINGS_BYTES
                ));
            }
            None
        }
        Err(e) => {
            notes.push(format!("{e}; its model is not read"));
            None
        }
    }
}

/// A non-empty text value, or a note saying why it is passed over.
pub(crate) fn text_value(
    v: &serde_json::Value,
    what: &str,
    notes: &mut Vec<String>,
) -> Option<String> {
    match v.as_str().map(str::trim) {
        Some(t) if !t.is_empty() => Some(t.to_string()),
        Some(_) => None,
        None => {
            notes.push(format!("{what} is not a text; it is passed over"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn claude_code_reads_its_model_in_its_own_precedence() {
        let t = tempfile::tempdir().unwrap();
        let (home, project) = (t.path().join("h"), t.path().join("p"));
        // Nothing set: the default.
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &no_env).unwrap();
        assert_eq!((c.id(), &c.origin), ("claude-opus-5-5", &Origin::Default));
        assert_eq!(
            c.describe("Claude Code", Some(&home)),
            "model claude-opus-5-5 (Claude Code's default)"
        );
        // The user's settings.
        write(
            &home.join(".claude/settings.json"),
            r#"{"model": "claude-sonnet-4-5"}"#,
        );
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &no_env).unwrap();
        assert_eq!(c.resolved.model.id, "claude-sonnet-4-5");
        assert_eq!(
            c.describe("Claude Code", Some(&home)),
            "model claude-sonnet-4-5 (from ~/.claude/settings.json)"
        );
        // The project's shared settings over the user's, its local ones over both.
        write(
            &project.join(".claude/settings.json"),
            r#"{"model": "haiku"}"#,
        );
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &no_env).unwrap();
        assert_eq!(c.resolved.model.id, "claude-haiku-5-5");
        assert!(
            c.describe("Claude Code", None)
                .starts_with("model haiku = claude-haiku-5-5 (from ")
        );
        write(
            &project.join(".claude/settings.local.json"),
            r#"{"model": "opus"}"#,
        );
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &no_env).unwrap();
        assert_eq!(c.resolved.model.id, "claude-opus-5-5");
        assert_eq!(
            c.origin,
            Origin::File(project.join(".claude/settings.local.json"))
        );
        // The environment over every file.
        let env = |k: &str| (k == "ANTHROPIC_MODEL").then(|| "sonnet[1m]".to_string());
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &env).unwrap();
        assert_eq!(
            (c.resolved.model.id, &c.origin),
            ("claude-sonnet-5-5", &Origin::Env("ANTHROPIC_MODEL"))
        );
        let env = |k: &str| (k == "ANTHROPIC_MODEL").then(|| "claude-sonnet-4-5[1M]".to_string());
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &env).unwrap();
        assert_eq!(c.resolved.model.context_window, 1_000_000);
        assert_eq!(c.resolved.model.chars_per_token, 4);
    }

    #[test]
    fn hostile_claude_settings_lose_nothing_and_say_why() {
        let t = tempfile::tempdir().unwrap();
        let (home, project) = (t.path().join("h"), t.path().join("p"));
        write(
            &home.join(".claude/settings.json"),
            r#"{"model": "claude-sonnet-4-5"}"#,
        );
        // A project file that is not JSON, one whose model is a number, one that is a folder:
        // each is passed over with a note, and the user's model still counts.
        write(&project.join(".claude/settings.local.json"), "{\"model\": ");
        write(&project.join(".claude/settings.json"), r#"{"model": 42}"#);
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &no_env).unwrap();
        assert_eq!(c.resolved.model.id, "claude-sonnet-4-5");
        assert_eq!(c.notes.len(), 2, "{:?}", c.notes);
        assert!(c.notes[0].contains("not valid JSON"), "{:?}", c.notes);
        assert!(c.notes[1].contains("not a text"), "{:?}", c.notes);
        std::fs::remove_file(project.join(".claude/settings.json")).unwrap();
        std::fs::create_dir_all(project.join(".claude/settings.json")).unwrap();
        let c = configured(Agent::ClaudeCode, Some(&home), Some(&project), &no_env).unwrap();
        assert_eq!(c.resolved.model.id, "claude-sonnet-4-5");
        assert!(
            c.notes.iter().any(|n| n.contains("settings.json")),
            "{:?}",
            c.notes
        );
        // A name the client does not know, even one made to look like a path or markup, is its
        // fallback window with a note naming it as written.
        let env = |k: &str| (k == "ANTHROPIC_MODEL").then(|| "../../<b>x\u{202e}".to_string());
        let c = configured(Agent::ClaudeCode, Some(&home), None, &env).unwrap();
        assert!(!c.resolved.known);
        assert_eq!(c.resolved.model.context_window, 1_000_000);
        let note = c.unknown_note("Claude Code", "2.1.332", None).unwrap();
        assert!(note.contains("`../../<b>x\u{202e}`"), "{note}");
        assert!(note.contains("1,000,000"), "{note}");
    }

    /// A name holding `[1m]` that the release does not know: the million Claude Code gives it,
    /// not the named model's 200,000 cap of 2.1.270 nor its fallback, and a note that says why.
    #[test]
    fn an_unknown_name_with_1m_gets_the_million_and_a_note_saying_why() {
        let client = &crate::core::agents::claude::eras::CLAUDE_CODE_2_1_270;
        let c = chosen(client, "claude-fable-9[1m]").unwrap();
        assert_eq!(
            (c.resolved.known, c.resolved.by_suffix, c.window),
            (false, true, None)
        );
        assert_eq!(c.resolved.model.context_window, 1_000_000);
        let note = c.unknown_note("Claude Code", "2.1.270", None).unwrap();
        assert!(
            note.contains("does not know the model `claude-fable-9[1m]`")
                && note.contains("gives any name holding `[1m]` a window of 1,000,000 tokens"),
            "{note}"
        );
        // Without `[1m]`: its fallback, and the note says so.
        let c = chosen(client, "claude-fable-9").unwrap();
        assert_eq!(c.resolved.model.context_window, 200_000);
        let note = c.unknown_note("Claude Code", "2.1.270", None).unwrap();
        assert!(note.contains("fallback window of 200,000"), "{note}");
    }

    #[test]
    fn codex_reads_its_config_its_profile_and_codex_home() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("h");
        let config = home.join(".codex/config.toml");
        let c = configured(Agent::Codex, Some(&home), None, &no_env).unwrap();
        assert_eq!((c.id(), &c.origin), ("gpt-6.2-sol", &Origin::Default));
        write(
            &config,
            "model = \"gpt-5.1-codex\"\n\n[analytics]\nenabled = false\n",
        );
        let c = configured(Agent::Codex, Some(&home), None, &no_env).unwrap();
        assert_eq!((c.id(), c.resolved.known), ("gpt-5.1-codex", false));
        assert_eq!(c.resolved.model.context_window, 272_000);
        assert_eq!(
            c.describe("Codex", Some(&home)),
            "model gpt-5.1-codex (from ~/.codex/config.toml)"
        );
        assert!(
            c.unknown_note("Codex", "0.171.0", None)
                .unwrap()
                .contains("272,000")
        );
        // A selected profile's model over the top-level one; its window too.
        write(
            &config,
            "model = \"gpt-5.1-codex\"\nprofile = \"deep\"\n[profiles.deep]\nmodel = \"gpt-6.2-astra\"\nmodel_context_window = 100000\n",
        );
        let c = configured(Agent::Codex, Some(&home), None, &no_env).unwrap();
        assert_eq!(
            (c.id(), c.resolved.model.context_window),
            ("gpt-6.2-astra", 272_000)
        );
        assert_eq!(c.window, Some(100_000));
        assert_eq!(c.origin, Origin::Profile(config.clone(), "deep".into()));
        // A profile that is not defined: the top-level model, with a note.
        write(&config, "model = \"gpt-6-luna\"\nprofile = \"gone\"\n");
        let c = configured(Agent::Codex, Some(&home), None, &no_env).unwrap();
        assert_eq!(c.id(), "gpt-6-luna");
        assert!(c.notes[0].contains("`gone`"), "{:?}", c.notes);
        // CODEX_HOME moves the whole configuration.
        let elsewhere = t.path().join("codex-home");
        write(&elsewhere.join("config.toml"), "model = \"gpt-5.5\"\n");
        let env = |k: &str| (k == "CODEX_HOME").then(|| elsewhere.display().to_string());
        let c = configured(Agent::Codex, Some(&home), None, &env).unwrap();
        assert_eq!(c.id(), "gpt-5.5");
        // Broken TOML: the default, with a note; a model that is not a text is not one.
        write(&config, "model = [\n");
        let c = configured(Agent::Codex, Some(&home), None, &no_env).unwrap();
        assert_eq!((c.id(), c.notes.len()), ("gpt-6.2-sol", 1));
        write(&config, "model = 5\n");
        let c = configured(Agent::Codex, Some(&home), None, &no_env).unwrap();
        assert_eq!(c.id(), "gpt-6.2-sol");
    }

    #[test]
    fn agents_whose_budget_does_not_follow_a_model_have_none() {
        for a in [
            Agent::Gemini,
            Agent::Opencode,
            Agent::QwenCode,
            Agent::Goose,
            Agent::Path,
        ] {
            assert_eq!(configured(a, None, None, &no_env), None, "{a}");
        }
    }
}
