//! Qwen Code: its listing, its built-in skills, its switch and its skill tool.

pub(crate) mod builtins;
pub(crate) mod listing;
pub(crate) mod switches;
pub(crate) mod tools;

use crate::core::agents::home::Home;
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::tools::ToolDefinition;
use crate::core::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::source::Agent;

/// Everything skillscope knows of Qwen Code.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::QwenCode,
        name: "Qwen Code",
        folders: &[&[".qwen", "skills"], &[".agents", "skills"]],
        format: Format::QwenCode,
        profile: Profile::QwenCode,
        conditional: true,
        injection: Injection::SkillTool,
        source: "Qwen Code 0.24.4 as captured (tests/fixtures/agents/NEW-AGENTS.md); its chunks/",
        client: Some(&crate::core::agents::client::QWEN_CODE_0_24_4),
        ..crate::core::agents::model::AS_GIVEN
    },
    tool,
    command: Some("qwen"),
    ..Home::AS_GIVEN
};

/// Its `skill` tool.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(_names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    Some(ToolDefinition::new("skill", tools::qwen_code_skill_tool()))
}
