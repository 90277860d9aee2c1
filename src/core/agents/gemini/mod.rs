//! Gemini CLI: what its settings say of its skills (trust, `skills.disabled`, `skills.enabled`), its
//! switch as `toggle` writes it and its built-in entries.

pub(crate) mod builtins;
pub(crate) mod loading;
pub(crate) mod reading;
pub(crate) mod run;
pub(crate) mod settings;
pub(crate) mod switches;
pub(crate) mod tools;

use crate::core::agents::home::{Home, Release};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::agents::tools::ToolDefinition;
use crate::core::listing::Format;
use crate::core::source::Agent;

/// Everything skillscope knows of Gemini CLI.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Gemini,
        name: "Gemini CLI",
        folders: Agent::Gemini.skill_folders(),
        format: Format::Gemini,
        injection: Injection::ActivateSkill,
        source: "Gemini CLI 0.61.0 as captured (tests/fixtures/agents/FINDINGS.md); geminicli.com/docs/cli/skills",
        client: Some(&crate::core::agents::client::GEMINI_CLI_0_61_0),
        ..crate::core::agents::model::AS_GIVEN
    },
    read: Some(self::reading::read),
    placement,
    tool,
    calls_any_case: true,
    alias: Some("gemini-cli"),
    trusts_folders: true,
    // No `command`: Gemini CLI is taken as set up whether or not its command is found.
    release: Some(Release::npm("gemini", "@google/gemini-cli")),
    verify: Some(&self::run::RUN),
    layout: Some(layout),
    folder_rank: Some(crate::core::listing::gemini_folder),
    choices: crate::core::agents::home::ClientChoices::GlobOrder,
    unreadable: "it needs a file opening with a `---` frontmatter that gives a text `name` and `description`",
    loading: crate::core::agents::loading::Loading::Tool(
        |s, name, _| Ok(self::loading::blocks(s, name)),
        crate::core::agents::loading::WhenOff::Unknown,
    ),
    ..Home::AS_GIVEN
};

/// Gemini CLI: a section of the system instruction.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "system",
        location: "systemInstruction.parts[0]: a section of the system instruction",
        wrapper: "none: after the sub-agents section, before # Hook Context",
        sent: "in every request",
    })
}

/// Its `activate_skill`, which names the skills listed (none when nothing is listed: it is not
/// declared then).
fn tool(names: &[String], _model: Option<&str>) -> Option<ToolDefinition> {
    self::tools::activate_skill(names).map(|json| ToolDefinition::new("activate_skill", json))
}

/// Gemini CLI reads only `SKILL.md` and `*/SKILL.md` below one of its folders, and a project's
/// folders only in a trusted workspace, that workspace's own. Folders given on the command line
/// are read as given.
fn layout(s: &crate::core::skill::Skill, gemini: &settings::GeminiSettings) -> bool {
    use crate::core::source::Scope;
    use std::path::Path;
    let given = matches!(s.agent, Agent::Path | Agent::Demo);
    let shallow = given || s.dir.as_path() == &*s.root || s.dir.parent() == Some(&*s.root);
    let project_ok = s.scope != Scope::Project
        || (gemini.trusted
            && gemini
                .workspace
                .as_deref()
                .is_none_or(|w| s.root.parent().and_then(Path::parent) == Some(w)));
    shallow && project_ok
}
