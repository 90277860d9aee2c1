//! The clients `verify` can run: their commands and packages, the API each speaks, how their
//! listing is cut out of their request, and their installed version.

pub use crate::core::on_path::{find_command, install_dirs};
use crate::core::source::Agent;
use serde::Serialize;
use std::ffi::OsStr;
use std::path::PathBuf;

/// The version in what `--version` printed: its first word that starts with a digit and holds
/// a dot (`2.1.332 (Claude Code)`, `codex-cli 0.171.0`), up to the first character a version
/// does not hold (letters, digits, `.`, `-`, `+`), so nothing else the client printed (a
/// terminal's escape sequence) comes with it.
pub fn version_in(output: &str) -> Option<String> {
    output
        .split_whitespace()
        .map(|w| w.trim_start_matches('v'))
        .map(|w| {
            let end = w
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
                .unwrap_or(w.len());
            // A sentence's full stop after it is not part of it (`GitHub Copilot CLI 1.0.102.`).
            w[..end].trim_end_matches('.')
        })
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('.'))
        .map(str::to_string)
}

/// The API a client speaks to its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Responses.
    Responses,
    /// Gemini's `generateContent`.
    Gemini,
    /// OpenAI Chat Completions (`/v1/chat/completions`): the OpenAI-compatible providers the
    /// newer clients are pointed at.
    Chat,
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
    /// How a line the client may put before the listing begins (OpenClaw's note when it
    /// truncates or compacts its catalog, two blank lines between): taken into the listing
    /// when it stands there.
    pub lead: Option<&'static str>,
    /// Where it ends: the first of these after the start.
    pub ends: &'static [&'static str],
    /// Whether the end marker belongs to the listing.
    pub include_end: bool,
    /// Where the listing starts in the skill tool's description, for releases that put it
    /// there (Claude Code before 2.1.0), when no text of the request holds it.
    pub tool_start: Option<&'static str>,
    /// The oldest Node.js the client starts on (major, minor), for a client run by `node`.
    pub min_node: Option<(u32, u32)>,
    /// Where it writes every entry on one line, the first blank line after the entries' start
    /// ends the listing, whatever paragraph follows (Claude Code from 2.1.300 on).
    pub blank_line_ends: bool,
}

static CLIENTS: [Client; 8] = [
    Client {
        agent: Agent::ClaudeCode,
        name: "Claude Code",
        command: "claude",
        package: "@anthropic-ai/claude-code",
        wire: Wire::Anthropic,
        skill_tool: "Skill",
        start: "The following skills are ",
        lead: None,
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
        min_node: None,
        blank_line_ends: true,
    },
    Client {
        agent: Agent::Codex,
        name: "Codex",
        command: "codex",
        package: "@openai/codex",
        wire: Wire::Responses,
        skill_tool: "",
        start: "<skills_instructions>",
        lead: None,
        ends: &["</skills_instructions>"],
        include_end: true,
        tool_start: None,
        min_node: None,
        blank_line_ends: false,
    },
    Client {
        agent: Agent::Gemini,
        name: "Gemini CLI",
        command: "gemini",
        package: "@google/gemini-cli",
        wire: Wire::Gemini,
        skill_tool: "activate_skill",
        start: "# Available Agent Skills",
        lead: None,
        ends: &["</available_skills>"],
        include_end: true,
        tool_start: None,
        min_node: None,
        blank_line_ends: false,
    },
    Client {
        agent: Agent::Opencode,
        name: "opencode",
        command: "opencode",
        package: "opencode-ai",
        wire: Wire::Anthropic,
        skill_tool: "skill",
        start: "Skills provide specialized instructions",
        lead: None,
        ends: &["</available_skills>", "No skills are currently available."],
        include_end: true,
        tool_start: None,
        min_node: None,
        blank_line_ends: false,
    },
    // The four below speak OpenAI Chat Completions to a custom provider pointed at the mock;
    // their listings are cut out as `scripts/capture-more-agents.sh` cut the captures.
    Client {
        agent: Agent::QwenCode,
        name: "Qwen Code",
        command: "qwen",
        package: "@qwen-code/qwen-code",
        wire: Wire::Chat,
        skill_tool: "skill",
        start: "<available_skills>",
        lead: None,
        ends: &["</available_skills>"],
        include_end: true,
        tool_start: None,
        min_node: Some((22, 0)),
        blank_line_ends: false,
    },
    Client {
        agent: Agent::Copilot,
        name: "GitHub Copilot CLI",
        command: "copilot",
        package: "@github/copilot",
        wire: Wire::Chat,
        skill_tool: "skill",
        start: "<available_skills>",
        lead: None,
        ends: &["</available_skills>"],
        include_end: true,
        tool_start: None,
        min_node: None,
        blank_line_ends: false,
    },
    // Cline's listing ends its `skills` tool's description.
    Client {
        agent: Agent::Cline,
        name: "Cline",
        command: "cline",
        package: "cline",
        wire: Wire::Chat,
        skill_tool: "skills",
        start: "Available skills: ",
        lead: None,
        ends: &[],
        include_end: false,
        tool_start: None,
        min_node: None,
        blank_line_ends: false,
    },
    // OpenClaw has no skill tool: its listing tells the model to `read` a SKILL.md.
    Client {
        agent: Agent::Openclaw,
        name: "OpenClaw",
        command: "openclaw",
        package: "openclaw",
        wire: Wire::Chat,
        skill_tool: "read",
        // Its catalog: the note it puts first when it truncates or compacts, its intro, the
        // `<available_skills>` block (the section's rules before it name the block too).
        start: "The following skills provide specialized instructions",
        lead: Some("\u{26a0}\u{fe0f} Skills "),
        ends: &["</available_skills>"],
        include_end: true,
        tool_start: None,
        min_node: Some((24, 16)),
        blank_line_ends: false,
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

    /// The command on `path` (a `PATH` value), as found there (links not resolved), else in the
    /// folders its installers put commands in ([`install_dirs`]).
    pub fn find(&self, path: &OsStr) -> Option<PathBuf> {
        let extra = install_dirs(dirs::home_dir().as_deref());
        find_command(self.command, path, &extra)
    }

    /// The installed version as its files say, read without running anything
    /// (`core::agents::installed`): the command on `path`, its links resolved, inside its npm
    /// package, a native installer's versions folder or a Homebrew keg.
    pub fn installed(&self, path: &OsStr) -> Option<Installed> {
        let i =
            crate::core::agents::installed::find(self.agent, path, dirs::home_dir().as_deref())?;
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    fn executable(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_client_is_found_where_its_installers_put_it_after_path() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let extra = install_dirs(Some(&home));
        let empty = OsStr::new("");
        assert_eq!(find_command("claude", empty, &extra), None);

        // Claude Code's older native installer.
        let old = home.join(".claude/local/claude");
        executable(&old);
        assert_eq!(find_command("claude", empty, &extra), Some(old.clone()));
        // The native installer's link in ~/.local/bin comes first.
        let native = home.join(".local/bin/claude");
        executable(&native);
        assert_eq!(find_command("claude", empty, &extra), Some(native.clone()));
        // PATH before all of them.
        let bin = t.path().join("bin");
        executable(&bin.join("claude"));
        let path = std::env::join_paths([&bin]).unwrap();
        assert_eq!(
            find_command("claude", &path, &extra),
            Some(bin.join("claude"))
        );
        // A file without a run bit, a folder, a relative PATH entry: not a command.
        let plain = t.path().join("plain");
        std::fs::create_dir_all(plain.join("claude")).unwrap();
        std::fs::write(plain.join("codex"), "").unwrap();
        let path = std::env::join_paths([plain.as_path(), Path::new("rel")]).unwrap();
        assert_eq!(find_command("codex", &path, &[]), None);
        assert_eq!(find_command("claude", &path, &[]), None);
        assert!(extra.contains(&PathBuf::from("/opt/homebrew/bin")));
        assert!(extra.contains(&PathBuf::from("/usr/local/bin")));
    }
}
