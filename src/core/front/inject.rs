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
use crate::core::library::{Library, LibraryError, read_body, read_regular};
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
        Loading::Unmodelled | Loading::Mention => String::new(),
    }
}

/// Why Codex adds nothing for a `$name` in the prompt.
#[derive(Debug, thiserror::Error)]
pub enum MentionError {
    /// No skill Codex reads goes by that name.
    #[error("no skill that Codex reads is named `{0}`")]
    Unknown(String),
    /// The skills of that name are all switched off.
    #[error("`{name}` is switched off in Codex ({why}): `${name}` adds nothing")]
    Off {
        /// The name asked for.
        name: String,
        /// What switched it off.
        why: String,
    },
    /// More than one enabled skill has that name.
    #[error("{count} enabled skills are named `{name}`: Codex adds none of them for `${name}`")]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// How many.
        count: usize,
    },
    /// Its SKILL.md could not be read.
    #[error(transparent)]
    Read(#[from] LibraryError),
}

/// What Codex 0.171.0 adds to the conversation for `$name` in a prompt, exactly
/// (`tests/fixtures/agents/FINDINGS.md`, "Injection"): one user message of its own holding
/// `<skill>\n<name>NAME</name>\n<path>PATH</path>\n`, the whole SKILL.md as the file holds it,
/// then `\n</skill>`. `lib` is Codex's view of the library
/// ([`agent_library`](crate::core::agents::view::agent_library) for `Agent::Codex`, with the
/// agents' switches): the name must resolve to exactly one enabled skill of it. A skill its
/// `agents/openai.yaml` keeps out of the listing is still added when named; a skill switched
/// off, or a name two enabled skills share, adds nothing.
pub fn codex_mention(lib: &Library, name: &str) -> Result<String, MentionError> {
    let named: Vec<usize> = (0..lib.len())
        .filter(|&i| {
            let s = &lib.skills[i];
            s.listable()
                && s.shadowed_by.is_none()
                && s.name.split_whitespace().eq(name.split_whitespace())
        })
        .collect();
    let enabled: Vec<usize> = named
        .iter()
        .copied()
        .filter(|i| !lib.inactive.contains_key(i) || lib.explicit_only.contains(i))
        .collect();
    let i = match (enabled.as_slice(), named.first()) {
        ([i], _) => *i,
        ([], None) => return Err(MentionError::Unknown(name.to_string())),
        ([], Some(off)) => {
            return Err(MentionError::Off {
                name: name.to_string(),
                why: lib.inactive.get(off).cloned().unwrap_or_default(),
            });
        }
        (many, _) => {
            return Err(MentionError::Ambiguous {
                name: name.to_string(),
                count: many.len(),
            });
        }
    };
    let s = &lib.skills[i];
    let bytes = read_regular(&s.skill_md).map_err(|source| LibraryError::Read {
        path: s.skill_md.clone(),
        source,
    })?;
    // Codex names the file by its real place.
    let path = std::fs::canonicalize(&s.skill_md)
        .unwrap_or_else(|_| crate::core::files::paths::absolute(&s.skill_md));
    Ok(format!(
        "<skill>\n<name>{}</name>\n<path>{}</path>\n{}\n</skill>",
        s.name.split_whitespace().collect::<Vec<_>>().join(" "),
        path.display(),
        String::from_utf8_lossy(&bytes)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::AgentSwitches;
    use crate::core::agents::view::agent_library;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, default_roots};
    use std::path::{Path, PathBuf};

    fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
    }

    /// `cp -R from/. to/`, a `*.in` file without its suffix and `{HOME}` filled in.
    fn copy(from: &Path, to: &Path, home: &Path) {
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(&name), home);
                continue;
            }
            std::fs::create_dir_all(to).unwrap();
            match name.strip_suffix(".in") {
                Some(plain) => {
                    let text = std::fs::read_to_string(e.path()).unwrap();
                    let text = text.replace("{HOME}", &home.to_string_lossy());
                    std::fs::write(to.join(plain), text).unwrap();
                }
                None => {
                    std::fs::copy(e.path(), to.join(&name)).unwrap();
                }
            }
        }
    }

    /// The `mixed` library laid out for Codex as the capture script laid it, in Codex's view
    /// with its `[[skills.config]]` switches; and the home folder.
    fn codex_view() -> (tempfile::TempDir, PathBuf, Library) {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        let (home, project) = (base.join("home"), base.join("project"));
        let lib = fixtures().join("library");
        copy(
            &lib.join("user/skills"),
            &home.join(".agents/skills"),
            &home,
        );
        copy(
            &lib.join("project/skills"),
            &project.join(".agents/skills"),
            &home,
        );
        copy(&lib.join("user/overlay/codex"), &home, &home);
        copy(&lib.join("project/overlay/codex"), &project, &home);
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let whole = Library::load(
            default_roots(Some(&home), &project),
            &ScanOptions::default(),
        );
        let (switches, diags) = AgentSwitches::load(&home, Some(&project));
        assert!(diags.is_empty(), "{diags:?}");
        let view = agent_library(&whole, Agent::Codex, &[], Some(&switches));
        (t, home, view)
    }

    fn captured(file: &str, home: &Path) -> String {
        std::fs::read_to_string(fixtures().join("codex@0.171.0/mixed").join(file))
            .unwrap()
            .replace("{HOME}", &home.to_string_lossy())
    }

    #[test]
    fn codex_adds_a_named_skill_as_it_did_in_the_capture() {
        let (_t, home, view) = codex_view();
        let got = codex_mention(&view, "with-resources").unwrap();
        assert_eq!(got, captured("inject-with-resources.txt", &home));
        // Kept out of the listing by its agents/openai.yaml, still added when named.
        let got = codex_mention(&view, "no-implicit").unwrap();
        assert_eq!(got, captured("inject-no-implicit.txt", &home));
    }

    #[test]
    fn codex_adds_nothing_for_a_shared_a_switched_off_or_an_unknown_name() {
        let (_t, _home, view) = codex_view();
        let e = codex_mention(&view, "dup-shared").unwrap_err();
        assert!(matches!(e, MentionError::Ambiguous { count: 2, .. }), "{e}");
        let e = codex_mention(&view, "codex-disabled").unwrap_err();
        assert!(matches!(e, MentionError::Off { .. }), "{e}");
        assert!(e.to_string().contains("skills.config"), "{e}");
        let e = codex_mention(&view, "codex-disabled-by-path").unwrap_err();
        assert!(matches!(e, MentionError::Off { .. }), "{e}");
        let e = codex_mention(&view, "no-description").unwrap_err();
        assert!(matches!(e, MentionError::Unknown(_)), "{e}");
    }

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
