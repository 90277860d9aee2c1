//! opencode: its switches (`permission.skill` rules) and its built-in entry.

pub(crate) mod builtins;
pub(crate) mod loading;
pub(crate) mod names;
pub(crate) mod reading;
pub(crate) mod run;
pub(crate) mod switches;
pub(crate) mod tools;

use crate::core::agents::home::{Home, Release, SettingsEntry};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::agents::tools::ToolDefinition;
use crate::core::findings::catalogue::Profile;
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
    read: Some(self::reading::read),
    placement,
    tool,
    command: Some("opencode"),
    release: Some(Release::npm("opencode", "opencode-ai")),
    settings_entry: SettingsEntry::Json(&["permission", "skill"]),
    new_skill_fields: |_| "compatibility: opencode\n".to_string(),
    verify: Some(&self::run::RUN),
    folder_rank: Some(folder_rank),
    choices: crate::core::agents::home::ClientChoices::LoadOrder,
    unreadable: "it needs a frontmatter (valid YAML, or made so by quoting values holding `: `) with a text `name`, and a text `description` or none",
    skill_tool_switch: true,
    loading: crate::core::agents::loading::Loading::Tool(
        |s, _, _| Ok(self::loading::blocks(s)),
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
    Some(ToolDefinition::new("skill", self::tools::skill_tool()))
}

/// The folder opencode read a skill from, in its reading order (`discovery`): `~/.claude/skills`
/// (0), `~/.agents/skills` (1), the project's `.claude/skills` (2) and `.agents/skills` (3),
/// `~/.config/opencode/skill(s)` (4), the project's `.opencode/skill(s)` (5),
/// `~/.opencode/skill(s)` (6), folders given by hand (7). Its skills load concurrently and the
/// last one loaded wins a name; the captures show the later folder's copy winning.
fn folder_rank(s: &crate::core::skill::Skill) -> u8 {
    let r = &s.root;
    let user = s.scope == crate::core::source::Scope::User;
    let any = |ends: &[&str]| ends.iter().any(|e| r.ends_with(e));
    if any(&[".claude/skills"]) {
        if user { 0 } else { 2 }
    } else if any(&[".agents/skills"]) {
        if user { 1 } else { 3 }
    } else if any(&[".config/opencode/skill", ".config/opencode/skills"]) {
        4
    } else if any(&[".opencode/skill", ".opencode/skills"]) {
        if user { 6 } else { 5 }
    } else {
        7
    }
}
