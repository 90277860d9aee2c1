//! Codex: its switches (`[[skills.config]]`) and how it reads the skills of its folders.

pub(crate) mod eras;
pub(crate) mod mention;
pub(crate) mod model_setting;
pub(crate) mod models;
pub(crate) mod reading;
pub(crate) mod run;
pub(crate) mod switches;

use crate::core::agents::eras::Chosen;
use crate::core::agents::home::{Home, Release, SettingsEntry};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::agents::placement::Placement;
use crate::core::findings::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::source::Agent;
use std::sync::OnceLock;

/// Everything skillscope knows of Codex.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Codex,
        name: "Codex",
        folders: Agent::Codex.skill_folders(),
        format: Format::Codex,
        profile: Profile::Codex,
        injection: Injection::ReadFile,
        source: "Codex 0.171.0 as captured (tests/fixtures/agents/FINDINGS.md); developers.openai.com/codex/skills",
        client: Some(&self::eras::CODEX_0_171_0),
        ..crate::core::agents::model::AS_GIVEN
    },
    placement,
    eras: self::eras::CODEX_ERAS,
    era_in_use: Some(&ERA),
    model_setting: Some(self::model_setting::codex),
    command: Some("codex"),
    release: Some(Release::npm("codex", "@openai/codex")),
    settings_entry: SettingsEntry::CodexConfig,
    new_skill_fields,
    verify: Some(&self::run::RUN),
    own_view: Some(crate::core::agents::home::OwnView {
        reads: self::reading::reads,
        shadowing: self::reading::same_file,
        reading: self::reading::reading,
        explicit_only: |s| (!self::reading::implicit(s)).then_some(self::reading::EXPLICIT_ONLY),
    }),
    loading: crate::core::agents::loading::Loading::Mention(self::mention::mention),
    ..Home::AS_GIVEN
};

/// The optional fields of a new skill for Codex, commented.
fn new_skill_fields(_words: &str) -> String {
    "# Optional for Codex:\n\
     # metadata:\n\
     #   short-description: a shorter line for the skills menu\n"
        .to_string()
}

/// The era Codex's views use in this process.
static ERA: OnceLock<Option<Chosen>> = OnceLock::new();

/// Codex: the first part of the developer message. It has no skill tool.
#[allow(clippy::unnecessary_wraps)] // the home record's signature
fn placement(_model: Option<&str>) -> Option<Placement> {
    Some(Placement {
        role: "developer",
        location: "input[2].content[0]: the first part of the developer message",
        wrapper: "<skills_instructions>\\n … \\n</skills_instructions>",
        sent: "in every request of the session (it stays in the history)",
    })
}
