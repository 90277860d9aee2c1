//! Goose: its model (no client could be run, so only its documentation backs it).

use crate::core::agents::home::Home;
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::source::Agent;

/// Everything skillscope knows of Goose.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Goose,
        name: "Goose",
        folders: Agent::Goose.skill_folders(),
        injection: Injection::SkillTool,
        source: "block.github.io/goose/docs/guides/context-engineering/using-skills (no client could be run)",
        ..crate::core::agents::model::AS_GIVEN
    },
    ..Home::AS_GIVEN
};
