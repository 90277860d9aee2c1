//! OpenClaw: its listing, its bundled skills, its switch and its `read` tool.

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

/// Everything skillscope knows of OpenClaw.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Openclaw,
        name: "OpenClaw",
        // Its workspace's `skills/` is a root of its own (`source::openclaw_workspace`).
        folders: Agent::Openclaw.skill_folders(),
        format: Format::Openclaw,
        profile: Profile::Openclaw,
        injection: Injection::ReadFile,
        source: "OpenClaw 2026.9.6 as captured (tests/fixtures/agents/NEW-AGENTS.md); its docs/tools/skills.md",
        client: Some(&crate::core::agents::client::OPENCLAW_2026_9_6),
        ..crate::core::agents::model::AS_GIVEN
    },
    placement,
    eras: eras::ERAS,
    era_in_use: Some(&ERA),
    tool,
    command: Some("openclaw"),
    release: Some(Release::npm("openclaw", "openclaw")),
    verify: Some(&self::run::RUN),
    loading: crate::core::agents::loading::Loading::Tool(
        |s, _, _| Ok(self::loading::blocks(s)),
        crate::core::agents::loading::WhenOff::Loaded,
    ),
    reach: Some(&self::reach::REACH),
    ..Home::AS_GIVEN
};

/// The era OpenClaw's views use in this process.
static ERA: OnceLock<Option<Chosen>> = OnceLock::new();

/// Its `read` tool: its model reads a skill's file.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(_names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    let older =
        super::eras::in_use(Agent::Openclaw).is_some_and(|c| c.era.dialect.openclaw_versions);
    let text = if older {
        tools::openclaw_2026_7_read_tool()
    } else {
        tools::openclaw_read_tool()
    };
    Some(ToolDefinition::new("read", text))
}

/// OpenClaw 2026.9.6 (`openclaw@2026.9.6/mixed/placement.json`).
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "system",
        location: "messages[0]: the `## Skills` section of the system message",
        wrapper: "none: after the section's rules (its note when truncated or compact and its intro are the listing's), before ## Skill Workshop",
        sent: "in every request",
    })
}
