//! GitHub Copilot CLI: its listing, its built-in skills, its switch and its skill tool.

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

/// Everything skillscope knows of GitHub Copilot CLI.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Copilot,
        name: "GitHub Copilot CLI",
        folders: Agent::Copilot.skill_folders(),
        format: Format::Copilot,
        profile: Profile::Copilot,
        injection: Injection::SkillTool,
        source: "GitHub Copilot CLI 1.0.102 as captured (tests/fixtures/agents/NEW-AGENTS.md); copilot skill --help",
        client: Some(&crate::core::agents::client::COPILOT_1_0_102),
        ..crate::core::agents::model::AS_GIVEN
    },
    placement,
    eras: eras::ERAS,
    era_in_use: Some(&ERA),
    tool,
    project_only: &[".claude/skills"],
    alias: Some("copilot"),
    command: Some("copilot"),
    release: Some(Release::npm("copilot", "@github/copilot")),
    verify: Some(&self::run::RUN),
    loading: crate::core::agents::loading::Loading::Tool(
        |s, _, _| self::loading::blocks(s),
        crate::core::agents::loading::WhenOff::NotFound(self::loading::not_found),
    ),
    reach: Some(&self::reach::REACH),
    ..Home::AS_GIVEN
};

/// The era GitHub Copilot CLI's views use in this process.
static ERA: OnceLock<Option<Chosen>> = OnceLock::new();

/// Its `skill` tool, as the release in use declares it.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(_names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    let text = if eras::older_tool() {
        tools::copilot_1_0_83_skill_tool()
    } else {
        tools::copilot_skill_tool()
    };
    Some(ToolDefinition::new("skill", text))
}

/// GitHub Copilot CLI 1.0.102 (`copilot@1.0.102/mixed/placement.json`).
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "system",
        location: "messages[0]: the tool-instructions section of the system message named after its skill tool",
        wrapper: "<skill>\\n … \\n</skill>: after the </fetch_copilot_cli_documentation> section, before <sql>",
        sent: "in every request",
    })
}
