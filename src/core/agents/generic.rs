//! The triggers agent (the shared `.agents/skills` folders): no listing, skills injected by
//! their triggers (the SkillContextProvider ADR).

use crate::core::agents::home::Home;
use crate::core::agents::model::AgentModel;
use crate::core::source::Agent;

/// Everything skillscope knows of the triggers agent.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::Generic,
        name: "triggers agent",
        folders: Agent::Generic.skill_folders(),
        // Design 002, "After (Dynamic Injection)": `Agent._create_agent()` → "NO skill
        // instruction injection here"; per request the provider adds `## Available Skills`.
        no_listing: Some(
            "the triggers agent lists no skill in the system prompt: per request it injects `## Available Skills` with at most 3 skills whose `triggers` the message holds",
        ),
        source: "agentskills.io; the skill-context design: no listing, skills injected by their triggers",
        ..crate::core::agents::model::AS_GIVEN
    },
    ..Home::AS_GIVEN
};
