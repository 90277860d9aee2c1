//! The SkillContextProvider ADR's agent (design 002), whose folder is `.agents/skills`: its
//! skills' manifests carry `triggers` ("Skill Manifest Enhancement"), and a skill without them
//! is never injected, since the provider's `_match_skills` looks at nothing else.

use crate::core::findings::catalogue::{Profile, RuleId};
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use crate::core::source::Agent;

/// Whether `skill` is judged as one of the ADR agent's: in its own folder, by its profile.
pub fn applies(skill: &Skill, profile: Profile) -> bool {
    skill.agent == Agent::Generic
        && profile == crate::core::agents::model::model(Agent::Generic).profile
}

/// Whether the ADR agent's own warnings apply to `skill`: one of its folders that no released
/// client reads (`~/.config/agents/skills`). Codex, Gemini CLI, opencode and the others list the
/// skills of `.agents/skills` whatever their `triggers`, so there the ADR's view is one a user
/// opts into (`--agent generic`), never a warning.
pub fn warns(skill: &Skill, profile: Profile) -> bool {
    applies(skill, profile)
        && crate::core::agents::model::readers(skill)
            .iter()
            .all(|a| a.from_design_documents())
}

/// The field the ADR adds to the manifest, known to its agent's profile.
pub fn known(key: &str) -> bool {
    key == "triggers"
}

/// A skill of the ADR agent's folder without a trigger phrase: `_match_skills` iterates
/// `skill.get("triggers", [])`, so it never matches and is never injected.
pub fn check(skill: &Skill) -> Option<Diagnostic> {
    let fm = &skill.frontmatter;
    if !fm.parsed || fm.get("triggers").is_some_and(|_| !fm.triggers.is_empty()) {
        return None;
    }
    Some(
        Diagnostic::new(
            RuleId::TriggersMissing,
            Severity::Warning,
            "no `triggers:` phrases: the triggers agent (`--agent generic`) injects a skill only when one of its triggers is in the message, so this one is never injected; add `triggers: [\"word\", \"phrase\"]`".to_string(),
        )
        .in_file(&skill.skill_md)
        .at(1, 1),
    )
}
