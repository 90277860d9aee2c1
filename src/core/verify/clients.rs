//! The clients `verify` can run: their commands and packages, the API each speaks, how their
//! listing is cut out of their request, and their installed version.

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
    /// Where the listing starts in the skill tool's description, for releases that put it
    /// there (Claude Code before 2.1.0), when no text of the request holds it.
    pub tool_start: Option<&'static str>,
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
        // What follows the listing, by release (as captured): the date (2.1.332), the token
        // count (2.1.270), auto mode's note (2.1.290, 2.1.300), the end of a reminder.
        ends: &[
            "\n\nToday's date is",
            "\n</system-reminder>",
            "\n\n<total_tokens>",
            "\n\nWhile auto mode is active:",
        ],
        include_end: false,
        tool_start: Some("Available skills:\n"),
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
        tool_start: None,
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
        tool_start: None,
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
        tool_start: None,
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
    /// The version skillscope's model of this client was captured from: the release era the
    /// installed client falls in (`core::agents::eras`), else the one release modelled.
    pub fn modelled(&self) -> Option<&'static str> {
        crate::core::agents::model::model(self.agent)
            .client_in_use()
            .map(|c| c.version)
    }

    /// The command on `path` (a `PATH` value), as found there (links not resolved).
    pub fn find(&self, path: &OsStr) -> Option<PathBuf> {
        std::env::split_paths(path)
            .filter(|d| d.is_absolute())
            .map(|d| d.join(self.command))
            .find(|c| is_executable(c))
    }

    /// The installed version as its files say, read without running anything
    /// (`core::agents::installed`): the command on `path`, its links resolved, inside its npm
    /// package, a native installer's versions folder or a Homebrew keg.
    pub fn installed(&self, path: &OsStr) -> Option<Installed> {
        let i = crate::core::agents::installed::find(self.agent, path, None)?;
        Some(Installed {
            command: i.command,
            version: i.version,
        })
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
