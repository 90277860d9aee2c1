//! What a message injects into the conversation, per agent: the bodies of the skills the agent
//! would load for it, in the agent's own framing, and what they cost beside the listing.
//!
//! Which skills: the agents that route before the model runs use their own rule — Lazy Skills
//! loads every skill its keyword check finds (design 000, `_check_and_load_relevant_skills`),
//! the SkillContextProvider at most three skills whose triggers the message holds (design 002).
//! The agents whose model decides (Claude Code, Codex, opencode, Gemini CLI, Goose) load the
//! one skill it judges relevant, stood in for here by the matcher's first hit.

use crate::core::agents::loading::{Loading, joined};
use crate::core::agents::model::{AgentModel, Injection};
use crate::core::library::{Library, read_body};
use crate::core::matching::{Index, Matcher};
use crate::core::skill::Skill;

/// Most skills the SkillContextProvider injects for one message (design 002, `max_skills=3`).
pub const ADR_MAX_SKILLS: usize = 3;

/// The skills a message makes the agent load and the text that adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Injected {
    /// Library indices, in the order they are injected.
    pub skills: Vec<usize>,
    /// The exact text added to the main conversation; empty when nothing is loaded there.
    pub text: String,
    /// What goes to forked sub-conversations instead (Claude Code's `context: fork` skills: the
    /// body is a sub-agent's prompt, and only its result comes back); empty when none forks.
    pub forked: String,
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
    let (forking, inline): (Vec<usize>, Vec<usize>) = skills
        .iter()
        .partition(|&&i| model.forks && crate::core::agents::loading::forks(&lib.skills[i]));
    Injected {
        text: frame(lib, model, &inline),
        forked: frame(lib, model, &forking),
        skills,
        matcher,
    }
}

/// The skills' bodies in the framing of the agent of `model`.
pub fn frame(lib: &Library, model: &AgentModel, skills: &[usize]) -> String {
    if skills.is_empty() {
        return String::new();
    }
    let body = |i: usize| read_body(&lib.skills[i]).unwrap_or_default();
    let name = |i: usize| lib.skills[i].name.as_str();
    match model.injection {
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
                    crate::core::files::paths::absolute(&lib.skills[i].dir).display(),
                    body(i).trim()
                )
            })
            .collect::<Vec<_>>()
            .join("\n\n"),
        // The agent's own skill tool (Gemini CLI's `activate_skill`, opencode's `skill`), called
        // by the skill's name: what its home says loading adds.
        Injection::ActivateSkill | Injection::SkillContent => skills
            .iter()
            .map(|&i| loaded(model, &lib.skills[i], name(i)))
            .collect::<Vec<_>>()
            .join("\n\n"),
        // The model reads the whole file named in the listing.
        Injection::ReadFile => skills
            .iter()
            .map(|&i| {
                crate::core::files::fsx::read_regular(&lib.skills[i].skill_md)
                    .ok()
                    .flatten()
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// What calling the skill tool of `model`'s agent for `skill` by `called` adds, as its home's
/// loading says: the blocks' texts, a blank line between them; empty when its home models no
/// tool call or the skill cannot be read.
fn loaded(model: &AgentModel, skill: &Skill, called: &str) -> String {
    match model.agent.home().loading {
        Loading::Called(blocks) | Loading::Tool(blocks, _) => blocks(skill, called, "")
            .map(|b| joined(&b))
            .unwrap_or_default(),
        Loading::Unmodelled | Loading::Mention(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::Agent;

    /// Claude Code runs a `context: fork` skill in a sub-agent: its body is that sub-agent's
    /// prompt, priced apart from what enters the main conversation; another agent loads it as
    /// any skill.
    #[test]
    fn a_forked_skill_is_not_injected_into_claude_code_s_main_conversation() {
        let t = tempfile::tempdir().unwrap();
        for (dir, extra) in [("audit", "context: fork\n"), ("style", "")] {
            let d = t.path().join(dir);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(
                d.join("SKILL.md"),
                format!(
                    "---\nname: {dir}\ndescription: The {dir} helper for deploy.\n{extra}---\nThe {dir} body.\n"
                ),
            )
            .unwrap();
        }
        let lib = Library::load(
            vec![crate::core::source::Root::new(
                t.path(),
                Agent::Path,
                crate::core::source::Scope::Path,
            )],
            &ScanOptions::default(),
        );
        let index = Index::build(&lib);
        let audit = lib.skills.iter().position(|s| s.name == "audit").unwrap();
        let claude = crate::core::agents::model::model(Agent::ClaudeCode);
        let got = inject(
            &lib,
            &index,
            claude,
            "audit",
            &|i| i == audit,
            Matcher::Bm25,
        );
        assert_eq!(got.skills, [audit]);
        assert!(got.text.is_empty(), "{}", got.text);
        assert!(got.forked.contains("The audit body."), "{}", got.forked);
        let style = lib.skills.iter().position(|s| s.name == "style").unwrap();
        let got = inject(
            &lib,
            &index,
            claude,
            "style",
            &|i| i == style,
            Matcher::Bm25,
        );
        assert!(got.text.contains("The style body."), "{}", got.text);
        assert!(got.forked.is_empty());
        let goose = crate::core::agents::model::model(Agent::Goose);
        assert_eq!(goose.injection, Injection::SkillTool);
        let got = inject(&lib, &index, goose, "audit", &|i| i == audit, Matcher::Bm25);
        assert!(got.text.contains("The audit body."), "{}", got.text);
        assert!(got.forked.is_empty());
    }
}
