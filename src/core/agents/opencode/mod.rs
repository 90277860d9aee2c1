//! opencode: its switches (`permission.skill` rules) and its built-in entry.

pub(crate) mod builtins;
pub(crate) mod run;
pub(crate) mod switches;

use crate::core::agents::home::{Home, Release, SettingsEntry};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::agents::tools::{ToolDefinition, opencode_skill_tool};
use crate::core::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::source::Agent;

/// Everything skillscope knows of opencode.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Opencode,
        name: "opencode",
        folders: Agent::Opencode.skill_folders(),
        format: Format::Opencode,
        profile: Profile::Opencode,
        injection: Injection::SkillContent,
        source: "opencode 1.18.33 as captured (tests/fixtures/agents/FINDINGS.md); opencode.ai/docs/skills",
        client: Some(&crate::core::agents::client::OPENCODE_1_18_33),
        ..crate::core::agents::model::AS_GIVEN
    },
    read: Some(crate::core::agents::reading::opencode),
    placement,
    tool,
    command: Some("opencode"),
    release: Some(Release::npm("opencode", "opencode-ai")),
    settings_entry: SettingsEntry::Json(&["permission", "skill"]),
    new_skill_fields: |_| "compatibility: opencode\n".to_string(),
    verify: Some(&self::run::RUN),
    loading: crate::core::agents::loading::Loading::Tool(
        |s, _, _| Ok(crate::core::agents::loading::opencode(s)),
        crate::core::agents::loading::WhenOff::Unknown,
    ),
    ..Home::AS_GIVEN
};

/// opencode: the end of the first system text block.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "system",
        location: "system[0]: the end of the first system text block",
        wrapper: "none: right after the </env> block",
        sent: "in every request",
    })
}

/// Its `skill` tool.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(_names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    Some(ToolDefinition::new("skill", opencode_skill_tool()))
}
