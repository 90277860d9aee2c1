//! `skillscope verify`: the user's own client as the oracle. The installed client runs once,
//! sandboxed (fresh namespaces, no network but its own loopback, a private home holding
//! read-only views of the user's skill folders and settings), against a mock of its model API
//! ([`mock`]) that answers "ok"; the listing is cut out of the request it sent ([`extract`]) and
//! compared with skillscope's prediction. Nothing of the user's is written, no model is called.

pub mod extract;
pub mod mock;
mod run;
mod stage;
pub mod store;

pub use run::{Plan, Setup, VerifyError, passed_variables, plan, run};
pub use stage::{STAGE_ARG, StageReport, stage};

use crate::core::source::Agent;
use serde::Serialize;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The API a client speaks to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Responses.
    Responses,
    /// Gemini's `generateContent`.
    Gemini,
}

/// A client `verify` can run, and how its listing is cut out of its request.
#[derive(Debug)]
pub struct Client {
    /// The agent it is.
    pub agent: Agent,
    /// Its name for people.
    pub name: &'static str,
    /// Its command, looked for on `PATH`.
    pub command: &'static str,
    /// Its npm package (`npm install -g PACKAGE`).
    pub package: &'static str,
    /// The API it speaks.
    pub wire: Wire,
    /// The tool that marks its turns carrying the skills.
    pub skill_tool: &'static str,
    /// The listing's opening words.
    pub start: &'static str,
    /// Where it ends: the first of these after the start.
    pub ends: &'static [&'static str],
    /// Whether the end marker belongs to the listing.
    pub include_end: bool,
}

static CLIENTS: [Client; 4] = [
    Client {
        agent: Agent::ClaudeCode,
        name: "Claude Code",
        command: "claude",
        package: "@anthropic-ai/claude-code",
        wire: Wire::Anthropic,
        skill_tool: "Skill",
        start: "The following skills are ",
        ends: &["\n\nToday's date is", "\n</system-reminder>"],
        include_end: false,
    },
    Client {
        agent: Agent::Codex,
        name: "Codex",
        command: "codex",
        package: "@openai/codex",
        wire: Wire::Responses,
        skill_tool: "",
        start: "<skills_instructions>",
        ends: &["</skills_instructions>"],
        include_end: true,
    },
    Client {
        agent: Agent::Gemini,
        name: "Gemini CLI",
        command: "gemini",
        package: "@google/gemini-cli",
        wire: Wire::Gemini,
        skill_tool: "activate_skill",
        start: "# Available Agent Skills",
        ends: &["</available_skills>"],
        include_end: true,
    },
    Client {
        agent: Agent::Opencode,
        name: "opencode",
        command: "opencode",
        package: "opencode-ai",
        wire: Wire::Anthropic,
        skill_tool: "skill",
        start: "Skills provide specialized instructions",
        ends: &["</available_skills>", "No skills are currently available."],
        include_end: true,
    },
];

/// The client of `agent`, when `verify` knows how to run it.
pub fn client(agent: Agent) -> Option<&'static Client> {
    CLIENTS.iter().find(|c| c.agent == agent)
}

/// The agents `verify` can run.
pub fn agents() -> impl Iterator<Item = Agent> {
    CLIENTS.iter().map(|c| c.agent)
}

impl Client {
    /// The version skillscope's model of this client was captured from.
    pub fn modelled(&self) -> Option<&'static str> {
        crate::core::agents::model::model(self.agent)
            .client
            .map(|c| c.version)
    }

    /// The command on `path` (a `PATH` value), as found there (links not resolved).
    pub fn find(&self, path: &OsStr) -> Option<PathBuf> {
        std::env::split_paths(path)
            .filter(|d| d.is_absolute())
            .map(|d| d.join(self.command))
            .find(|c| is_executable(c))
    }

    /// The installed version as its npm package says (`package.json`), read without running
    /// anything: the command on `path`, its links resolved, lies inside `node_modules/PACKAGE`.
    pub fn installed(&self, path: &OsStr) -> Option<Installed> {
        let command = self.find(path)?;
        let real = std::fs::canonicalize(&command).ok()?;
        let package = Path::new("node_modules").join(self.package);
        let dir = real.ancestors().find(|a| a.ends_with(&package))?;
        let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
        let json: serde_json::Value = serde_json::from_str(&text).ok()?;
        let version = json.get("version")?.as_str()?.to_string();
        Some(Installed { command, version })
    }

    /// "modelled on Claude Code 2.1.332; installed 2.1.400" when the versions differ.
    pub fn version_note(&self, installed: &str) -> Option<String> {
        let modelled = self.modelled()?;
        (modelled != installed).then(|| {
            format!(
                "modelled on {} {modelled}; installed {installed}",
                self.name
            )
        })
    }
}

/// An installed client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Installed {
    /// The command found on `PATH`.
    pub command: PathBuf,
    /// Its package's version.
    pub version: String,
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The version in what `--version` printed: its first word that starts with a digit and holds
/// a dot (`2.1.332 (Claude Code)`, `codex-cli 0.171.0`).
pub fn version_in(output: &str) -> Option<String> {
    output
        .split_whitespace()
        .map(|w| w.trim_start_matches('v'))
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('.'))
        .map(str::to_string)
}

/// The comparison of the client's listing with skillscope's.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    /// Byte for byte the same.
    pub identical: bool,
    /// The client's listing's tokens and skillscope's (o200k_base).
    pub client_tokens: u32,
    /// skillscope's listing's tokens.
    pub predicted_tokens: u32,
    /// The first line that differs (1-based), when one does.
    pub first_difference: Option<usize>,
    /// A unified diff, client first ("" when identical).
    pub diff: String,
}

/// Compares `real` (the client's listing) with `predicted`.
pub fn compare(real: &str, predicted: &str, label: &str) -> Comparison {
    let cache = crate::core::tokens::TokenCache::in_memory();
    let count = |t: &str| {
        crate::core::tokens::count_text(t, crate::core::tokens::Encoding::O200kBase, &cache)
    };
    let identical = real == predicted;
    let first_difference = (!identical).then(|| {
        let (a, b): (Vec<&str>, Vec<&str>) =
            (real.split('\n').collect(), predicted.split('\n').collect());
        (0..a.len().max(b.len()))
            .find(|&i| a.get(i) != b.get(i))
            .map_or(1, |i| i + 1)
    });
    let diff = if identical {
        String::new()
    } else {
        similar::TextDiff::from_lines(real, predicted)
            .unified_diff()
            .context_radius(3)
            .header(label, "skillscope")
            .to_string()
    };
    Comparison {
        identical,
        client_tokens: count(real),
        predicted_tokens: count(predicted),
        first_difference,
        diff,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_what_clients_print() {
        assert_eq!(
            version_in("2.1.332 (Claude Code)").as_deref(),
            Some("2.1.332")
        );
        assert_eq!(version_in("codex-cli 0.171.0").as_deref(), Some("0.171.0"));
        assert_eq!(version_in("v1.2.3\n").as_deref(), Some("1.2.3"));
        assert_eq!(version_in("no version"), None);
    }

    #[test]
    fn the_note_names_both_versions_only_when_they_differ() {
        let c = client(Agent::ClaudeCode).unwrap();
        let modelled = c.modelled().unwrap();
        assert_eq!(c.version_note(modelled), None);
        assert_eq!(
            c.version_note("9.9.9").unwrap(),
            format!("modelled on Claude Code {modelled}; installed 9.9.9")
        );
    }

    #[test]
    fn a_difference_names_its_first_line_and_both_counts() {
        let c = compare("a\nb\nc", "a\nB\nc", "claude");
        assert!(!c.identical);
        assert_eq!(c.first_difference, Some(2));
        assert!(c.diff.contains("-b\n+B"), "{}", c.diff);
        let same = compare("a\nb", "a\nb", "claude");
        assert!(same.identical && same.diff.is_empty());
        assert_eq!(same.client_tokens, same.predicted_tokens);
    }
}
