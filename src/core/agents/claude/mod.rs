//! Claude Code: its switches (`skillOverrides`, `disable-model-invocation`) and its built-in
//! entries per release.

pub(crate) mod builtins;
pub(crate) mod builtins_eras;
pub(crate) mod eras;
pub(crate) mod loading;
pub(crate) mod model_setting;
pub(crate) mod models;
pub(crate) mod run;
pub(crate) mod switches;
pub(crate) mod tools;

use crate::core::agents::eras::Chosen;
use crate::core::agents::home::{Home, Release, SettingsEntry};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::agents::tools::ToolDefinition;
use crate::core::findings::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::source::Agent;
use std::sync::OnceLock;

/// Everything skillscope knows of Claude Code.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::ClaudeCode,
        name: "Claude Code",
        folders: Agent::ClaudeCode.skill_folders(),
        format: Format::ClaudeCode,
        profile: Profile::ClaudeCode,
        fallbacks: true,
        conditional: true,
        injection: Injection::SkillTool,
        forks: true,
        source: "Claude Code 2.1.332 as captured (tests/fixtures/agents/FINDINGS.md); its skills documentation",
        client: Some(&self::eras::CLAUDE_CODE_2_1_332),
        ..crate::core::agents::model::AS_GIVEN
    },
    placement,
    eras: self::eras::CLAUDE_CODE_ERAS,
    era_in_use: Some(&ERA),
    tool,
    model_setting: Some(self::model_setting::claude_code),
    command: Some("claude"),
    release: Some(Release {
        command: "claude",
        package: "@anthropic-ai/claude-code",
        // The native installer's link, then the older local install.
        off_path: &[".local/bin/claude", ".claude/local/claude"],
        local_npm: Some(".claude/local"),
    }),
    settings_entry: SettingsEntry::Json(&["skillOverrides"]),
    new_skill_fields,
    count_note: " (Claude's tokenizer differs by roughly 10-20%)",
    count_note_short: ", an estimate: Claude models count 10–20% more",
    older_release_note,
    verify: Some(&self::run::RUN),
    calls_by_folder: true,
    loading: crate::core::agents::loading::Loading::Called(self::loading::blocks),
    ..Home::AS_GIVEN
};

/// The optional fields of a new skill for Claude Code, commented.
fn new_skill_fields(_words: &str) -> String {
    "# Optional for Claude Code:\n\
     # allowed-tools: Read, Grep, Bash(git status:*)\n\
     # disable-model-invocation: true   (only /name runs it)\n\
     # argument-hint: \"[file]\"\n"
        .to_string()
}

/// Before 2.1, Claude Code listed the skills in its Skill tool's description.
fn older_release_note(version: &str) -> &'static str {
    use crate::core::agents::installed::numbers;
    if numbers(version) < numbers("2.1.0") {
        " (before 2.1 it listed the skills at the end of its Skill tool's description, where \
         verify reads them)"
    } else {
        ""
    }
}

/// The era Claude Code's views use in this process.
static ERA: OnceLock<Option<Chosen>> = OnceLock::new();

/// Claude Code 2.1.332: a system message on Opus 5.5, a reminder in the first user message on
/// Sonnet 4.5.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(model: Option<&str>) -> Option<Placement> {
    let every = "in every request of the session (it stays in the history)";
    Some(
        if model.is_some_and(|m| m.eq_ignore_ascii_case("claude-sonnet-4-5")) {
            Placement {
                role: "user",
                location: "messages[0].content[4]: a text block of the first user message",
                wrapper: "<system-reminder>\\n … \\n</system-reminder>",
                sent: every,
            }
        } else {
            Placement {
                role: "system",
                location: "messages[1]: a paragraph of the system-role message after the first user message",
                wrapper: "none: paragraphs joined by \\n\\n (environment before it, today's date after it)",
                sent: every,
            }
        },
    )
}

/// Its `Skill` tool, worded after where its listing sits for `model`: "a listing from the
/// system", or "a system-reminder listing".
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(_names: &[String], model: Option<&str>) -> Option<ToolDefinition> {
    Some(ToolDefinition::new(
        "Skill",
        self::tools::skill_tool(placement(model).is_some_and(|p| p.role == "user")),
    ))
}
