//! Qwen Code: its listing, its built-in skills, its switch and its skill tool.

pub(crate) mod builtins;
pub(crate) mod eras;
pub(crate) mod loading;
pub(crate) mod reach;
pub(crate) mod run;
pub(crate) mod switches;
pub(crate) mod tools;

use crate::core::agents::eras::Chosen;
use crate::core::agents::home::{Home, Release};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::agents::tools::ToolDefinition;
use crate::core::findings::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::source::Agent;
use std::sync::OnceLock;

/// Everything skillscope knows of Qwen Code.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::QwenCode,
        name: "Qwen Code",
        folders: Agent::QwenCode.skill_folders(),
        format: Format::QwenCode,
        profile: Profile::QwenCode,
        conditional: true,
        injection: Injection::SkillTool,
        source: "Qwen Code 0.24.4 as captured (tests/fixtures/agents/NEW-AGENTS.md); its chunks/",
        client: Some(&crate::core::agents::client::QWEN_CODE_0_24_4),
        ..crate::core::agents::model::AS_GIVEN
    },
    placement,
    eras: eras::ERAS,
    era_in_use: Some(&ERA),
    tool,
    command: Some("qwen"),
    release: Some(Release::npm("qwen", "@qwen-code/qwen-code")),
    verify: Some(&self::run::RUN),
    loading: crate::core::agents::loading::Loading::Tool(
        |s, _, _| self::loading::blocks(s),
        crate::core::agents::loading::WhenOff::Error(|name| {
            format!(
                "Skill \"{name}\" is disabled. Re-enable it via /skills or remove it from skills.disabled."
            )
        }),
    ),
    reach: Some(&self::reach::REACH),
    ..Home::AS_GIVEN
};

/// The era Qwen Code's views use in this process.
static ERA: OnceLock<Option<Chosen>> = OnceLock::new();

/// Its `skill` tool.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(_names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    let text = if eras::older_tool() {
        tools::qwen_code_0_21_skill_tool()
    } else {
        tools::qwen_code_skill_tool()
    };
    Some(ToolDefinition::new("skill", text))
}

/// Qwen Code 0.24.4 (`qwen-code@0.24.4/mixed/placement.json`).
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "user",
        location: "messages[1].content[0]: the first text part of the first user message",
        wrapper: "<system-reminder>\\nThe following skills are available for use with the Skill tool. … invoke a skill by passing its name to the Skill tool.\\n\\n … \\n</system-reminder>",
        sent: "in every request of the session (it stays in the history)",
    })
}
