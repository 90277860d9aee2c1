//! What a message injects into the conversation, per agent: the bodies of the skills the agent
//! would load for it, in the agent's own framing, and what they cost beside the listing.
//!
//! Which skills: the agents that route before the model runs use their own rule — Lazy Skills
//! loads every skill its keyword check finds (design 000, `_check_and_load_relevant_skills`),
//! the SkillContextProvider at most three skills whose triggers the message holds (design 002).
//! The agents whose model decides (Claude Code, Codex, opencode, Gemini CLI, Goose) load the
//! one skill it judges relevant, stood in for here by the matcher's first hit.

use crate::core::agents::model::{AgentModel, Injection};
use crate::core::library::{Library, read_body};
use crate::core::matching::{Index, Matcher};

/// Most skills the SkillContextProvider injects for one message (design 002, `max_skills=3`).
pub const ADR_MAX_SKILLS: usize = 3;

/// The skills a message makes the agent load and the text that adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injected {
    /// Library indices, in the order they are injected.
    pub skills: Vec<usize>,
    /// The exact text added to the conversation; empty when nothing is loaded.
    pub text: String,
    /// The matcher that chose them.
    pub matcher: Matcher,
}

/// The matcher an agent routes with: its own where it routes before the model, else
/// `fallback` (the stand-in for the model's judgement).
pub fn routing_matcher(model: &AgentModel, fallback: Matcher) -> Matcher {
    match model.injection {
        Injection::SkillLoaded => Matcher::Keyword,
        Injection::AvailableSkills => Matcher::Triggers,
        Injection::SkillTool
        | Injection::ActivateSkill
        | Injection::SkillContent
        | Injection::ReadFile => fallback,
    }
}

/// What `message` injects for the agent of `model` over `lib` (that agent's view), among the
/// skills `allowed` lets compete.
pub fn inject(
    lib: &Library,
    index: &Index,
    model: &AgentModel,
    message: &str,
    allowed: &dyn Fn(usize) -> bool,
    fallback: Matcher,
) -> Injected {
    let matcher = routing_matcher(model, fallback);
    let most = match model.injection {
        Injection::SkillLoaded => lib.len().max(1),
        Injection::AvailableSkills => ADR_MAX_SKILLS,
        Injection::SkillTool
        | Injection::ActivateSkill
        | Injection::SkillContent
        | Injection::ReadFile => 1,
    };
    let skills: Vec<usize> = index
        .query(message, matcher, allowed, most)
        .into_iter()
        .map(|m| m.skill)
        .collect();
    let text = frame(lib, model.injection, &skills);
    Injected {
        skills,
        text,
        matcher,
    }
}

/// The skills' bodies in the agent's framing.
pub fn frame(lib: &Library, injection: Injection, skills: &[usize]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let body = |i: usize| read_body(&lib.skills[i]).unwrap_or_default();
    let name = |i: usize| lib.skills[i].name.as_str();
    match injection {
        // Design 000: one system message per loaded skill.
        Injection::SkillLoaded => skills
            .iter()
            .map(|&i| {
                format!(
                    "# SKILL LOADED: {}\n\nThe following skill has been loaded because it appears relevant:\n\n{}\n\nUse this skill if appropriate for the user's request.\n",
                    name(i),
                    body(i).trim()
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
        // Design 002: one block of at most three skills' instructions.
        Injection::AvailableSkills => {
            let parts: Vec<String> = skills
                .iter()
                .take(ADR_MAX_SKILLS)
                .map(|&i| format!("# {}\n{}", name(i), body(i).trim()))
                .collect();
            format!("\n\n## Available Skills\n\n{}", parts.join("\n\n"))
        }
        // The Skill tool's result: the folder the skill's files are in, then its body.
        Injection::SkillTool => skills
            .iter()
            .map(|&i| {
                format!(
                    "Base directory for this skill: {}\n\n{}",
                    crate::core::paths::absolute(&lib.skills[i].dir).display(),
                    body(i).trim()
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n"),
        // Gemini CLI's `activate_skill`, called by the skill's name.
        Injection::ActivateSkill => skills
            .iter()
            .map(|&i| crate::core::agents::tools::gemini_activation(&lib.skills[i], name(i)))
            .collect::<Vec<_>>()
            .join("\n\n"),
        // opencode's `skill` tool.
        Injection::SkillContent => skills
            .iter()
            .map(|&i| crate::core::agents::tools::opencode_skill_content(&lib.skills[i]))
            .collect::<Vec<_>>()
            .join("\n\n"),
        // The model reads the whole file named in the listing.
        Injection::ReadFile => skills
            .iter()
            .map(|&i| {
                crate::core::fsx::read_regular(&lib.skills[i].skill_md)
                    .ok()
                    .flatten()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}
