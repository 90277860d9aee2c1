//! Cline: its listing and its skill tool.

pub(crate) mod loading;
pub(crate) mod reach;
pub(crate) mod run;
pub(crate) mod tools;

use crate::core::agents::home::Home;
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::agents::tools::ToolDefinition;
use crate::core::findings::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::source::Agent;

/// Everything skillscope knows of Cline.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Cline,
        name: "Cline",
        folders: Agent::Cline.skill_folders(),
        format: Format::Cline,
        profile: Profile::Cline,
        injection: Injection::SkillTool,
        source: "Cline 3.0.65 as captured (tests/fixtures/agents/NEW-AGENTS.md); its @cline/core",
        client: Some(&crate::core::agents::client::CLINE_3_0_65),
        ..crate::core::agents::model::AS_GIVEN
    },
    placement,
    tool,
    calls_any_case: true,
    // Its only switch is in the skill's own file, which toggle does not edit.
    no_switch: "it has no settings switch: Cline switches a skill off in the skill's own frontmatter (`disabled: true`), which skillscope reads and does not write",
    read_only_switch: Some("`disabled: true`"),
    verify: Some(&self::run::RUN),
    loading: crate::core::agents::loading::Loading::Tool(
        |s, _, args| self::loading::blocks(s, (!args.is_empty()).then_some(args)),
        crate::core::agents::loading::WhenOff::Error(|name| {
            format!("Skill \"{name}\" is configured but disabled.")
        }),
    ),
    reach: Some(&self::reach::REACH),
    ..Home::AS_GIVEN
};

/// Its `skills` tool, the listing of `names` at the end of its description.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn tool(names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    let listing = if names.is_empty() {
        String::new()
    } else {
        format!("Available skills: {}.", names.join(", "))
    };
    Some(ToolDefinition {
        holds_listing: true,
        ..ToolDefinition::new("skills", tools::cline_skills_tool(&listing))
    })
}

/// Cline 3.0.65 (`cline@3.0.65/mixed/placement.json`).
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "tool",
        location: "tools[0].function.description: the end of its `skills` tool's description",
        wrapper: "none: `Available skills: A, B.` after the tool's own text",
        sent: "in every request",
    })
}
