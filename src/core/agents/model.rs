//! What each agent does with a library, as one value per agent: the folders it reads (its own
//! and other agents' it also reads), its listing format, the profile its skills are judged by,
//! whether skills are on unless switched off or off unless opted in, its fallbacks for a missing
//! name or description, conditional skills, what a matched skill injects into the conversation,
//! how many skills its auto mode lists, and its probe timeout. Every per-agent view (listing,
//! budget, match, the Prompt screen) reads it from here; `docs/agents.md` tables it.

use super::client::Client;
use crate::core::findings::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::skill::{Place, Skill};
use crate::core::source::Agent;
use std::path::Path;
use std::time::Duration;

/// Whether a skill is on before anyone switches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnableDefault {
    /// On unless its frontmatter or a switch says otherwise (every agent but Lazy Skills).
    OptOut,
    /// Off unless its frontmatter says `auto_load: true` (Lazy Skills: `enabled = auto_enable
    /// and metadata.get("auto_load", False)`).
    OptIn,
}

/// How a skill the agent judges relevant reaches the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Injection {
    /// The model calls the Skill tool; the tool result holds the SKILL.md body after a line
    /// naming the skill's folder (Claude Code, Goose).
    SkillTool,
    /// The model calls Gemini CLI's `activate_skill`: the function response is
    /// `<activated_skill>` with the trimmed body and the skill folder's tree, up to 200 items
    /// (`core::agents::gemini::loading::activation`).
    ActivateSkill,
    /// The model calls opencode's `skill` tool: the result is `<skill_content>` with the trimmed
    /// body, the skill's folder and up to 10 of its other files
    /// (`core::agents::opencode::loading::skill_content`).
    SkillContent,
    /// The model reads the SKILL.md file named in its listing (Codex).
    ReadFile,
    /// Before the model runs, each matched skill's body is added as a system message headed
    /// `# SKILL LOADED: name` (the Lazy Skills design, `_check_and_load_relevant_skills`).
    SkillLoaded,
    /// Before the model runs, an `## Available Skills` block with at most three matched bodies
    /// (the SkillContextProvider ADR).
    AvailableSkills,
}

/// One agent, completely.
#[derive(Debug)]
pub struct AgentModel {
    /// The agent.
    pub agent: Agent,
    /// Its name for people.
    pub name: &'static str,
    /// The skill folders it reads, as the last components of their path, its own first.
    pub folders: &'static [&'static [&'static str]],
    /// The listing format its system prompt holds.
    pub format: Format,
    /// The profile its skills are judged by when none is asked for.
    pub profile: Profile,
    /// Whether a skill is on until something switches it off.
    pub enable_default: EnableDefault,
    /// Lists a skill without a `name` under its folder's name and one without a `description`
    /// under the first paragraph of its body, as Claude Code does.
    pub fallbacks: bool,
    /// Honours `paths:`: such a skill is listed only while a matching file is open.
    pub conditional: bool,
    /// How it puts a skill's body in front of its model once the skill is used.
    pub injection: Injection,
    /// Most skills its auto listing mode keeps (Lazy Skills: `_auto_select_skills(max_skills=10)`).
    pub auto_max: Option<usize>,
    /// How long `--help-json` may take (Lazy Skills' `_get_tool_schema` waits 5 s).
    pub probe_timeout: Duration,
    /// Accepts a tool schema without `name`, or with another name, under the skill's name.
    pub schema_name_fallback: bool,
    /// Runs a skill marked `context: fork` in a forked sub-agent of its own: the body is that
    /// sub-conversation's prompt, not a part of the main conversation (Claude Code).
    pub forks: bool,
    /// Why it puts no listing in its system prompt, when it puts none (the SkillContextProvider
    /// ADR injects matched skills per request instead).
    pub no_listing: Option<&'static str>,
    /// Where the model comes from.
    pub source: &'static str,
    /// The real client at the version the model was verified against (its models, built-ins and
    /// budget settings); `None` where no capture of a client backs the model.
    pub client: Option<&'static Client>,
}

const DEFAULT_PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Every agent's model but the folders given's, in the order of [`Agent::ALL`].
pub fn models() -> impl Iterator<Item = &'static AgentModel> + Clone {
    Agent::ALL
        .iter()
        .filter(|a| !matches!(a, Agent::Path | Agent::Demo))
        .map(|a| &a.home().model)
}

/// Folders named on the command line and the demo library: read as given, by any agent. The
/// defaults of every model: listed in xml, judged by the spec, on unless switched off, no
/// fallbacks, no conditional skills, the ADR's injection, no auto limit, the default probe
/// timeout, no schema-name fallback.
pub const AS_GIVEN: AgentModel = AgentModel {
    agent: Agent::Path,
    name: "folders given",
    folders: &[],
    format: Format::Xml,
    profile: Profile::Spec,
    enable_default: EnableDefault::OptOut,
    fallbacks: false,
    conditional: false,
    injection: Injection::AvailableSkills,
    auto_max: None,
    probe_timeout: DEFAULT_PROBE_TIMEOUT,
    schema_name_fallback: false,
    forks: false,
    no_listing: None,
    source: "skills-ref to-prompt",
    client: None,
};

/// The model of `agent`; folders given on the command line and the demo have the generic one.
pub fn model(agent: Agent) -> &'static AgentModel {
    &agent.home().model
}

/// The agent whose own listing format `format` is, if it is one agent's.
pub fn agent_of_format(format: Format) -> Option<Agent> {
    if matches!(format, Format::Xml | Format::Markdown) {
        return None;
    }
    models().find(|m| m.format == format).map(|m| m.agent)
}

/// The agents that read the folder a skill is in: found from the nearest folder above it that
/// some agent reads (`.agents/skills` is read by Codex, opencode, Gemini CLI, Goose and the
/// generic agent). Skills of folders given on the command line (and the demo) are read by every
/// agent, since they are given to see how an agent would list them.
/// A skill linked into other agents' folders ([`Skill::linked`]) is read by the readers of each
/// of its places.
pub fn readers(skill: &Skill) -> Vec<Agent> {
    let mut out = readers_at(skill.agent, skill.scope, &skill.dir, skill.command);
    for p in &skill.linked {
        for a in readers_at(p.agent, p.scope, &p.dir, false) {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// Whether `agent` reads the skill at `place` (see [`readers`]).
pub fn reads_at(place: &Place, agent: Agent) -> bool {
    readers_at(place.agent, place.scope, &place.dir, false).contains(&agent)
}

/// The agents that read a skill at one of its places: `dir` under a root of `agent` at `scope`.
fn readers_at(
    agent: Agent,
    scope: crate::core::source::Scope,
    dir: &Path,
    command: bool,
) -> Vec<Agent> {
    if matches!(agent, Agent::Path | Agent::Demo) {
        return models().map(|m| m.agent).collect();
    }
    // Managed skills, `--add-dir` skills and commands are Claude Code's alone, though their
    // folders end in `.claude/skills` like the folders other agents borrow.
    if command
        || matches!(
            scope,
            crate::core::source::Scope::Managed | crate::core::source::Scope::AddDir
        )
    {
        return vec![agent];
    }
    let mut found = folder_readers(models().map(|m| (m.agent, m.folders)), dir);
    user_claude_folder_aside(scope, dir, &mut found);
    if found.is_empty() { vec![agent] } else { found }
}

/// The agents that read a folder in a project only (GitHub Copilot CLI's `.claude/skills`) do
/// not read it below the home folder.
pub(super) fn user_claude_folder_aside(
    scope: crate::core::source::Scope,
    dir: &Path,
    found: &mut Vec<Agent>,
) {
    if scope == crate::core::source::Scope::User {
        found.retain(|a| {
            !a.home()
                .project_only
                .iter()
                .any(|f| dir.ancestors().any(|x| x.ends_with(f)))
        });
    }
}

/// The agent whose listing and rules a change to `folder` (a root of `agent` at `scope`) is
/// priced by: `agent` itself, but for a design document's agent
/// ([`Agent::from_design_documents`]) in a folder a real client reads, the first such client
/// (Codex for `.agents/skills`).
pub fn pricing_agent(agent: Agent, scope: crate::core::source::Scope, folder: &Path) -> Agent {
    if !agent.from_design_documents() {
        return agent;
    }
    real_readers_at(agent, scope, folder)
        .first()
        .copied()
        .unwrap_or(agent)
}

/// The agents with a released client (not [`Agent::from_design_documents`]) that read the skills
/// of `folder`, a root of `agent` at `scope`.
pub fn real_readers_at(
    agent: Agent,
    scope: crate::core::source::Scope,
    folder: &Path,
) -> Vec<Agent> {
    readers_at(agent, scope, &folder.join("skill"), false)
        .into_iter()
        .filter(|a| !a.from_design_documents() && !matches!(a, Agent::Path | Agent::Demo))
        .collect()
}

/// Whether the view of `agent` is offered unasked for a library of `roots`: always for an agent
/// with a released client; for a design document's agent ([`Agent::from_design_documents`]) only
/// when one of its own folders, which no released client reads, is among them.
pub fn offered_unasked(agent: Agent, roots: &[crate::core::source::Root]) -> bool {
    !agent.from_design_documents()
        || roots.iter().any(|r| {
            r.agent == agent && !r.commands && real_readers_at(r.agent, r.scope, &r.path).is_empty()
        })
}

/// Whether `agent` reads the skills of `root`: its own roots, and the other agents' user and
/// project folders it also reads (Codex reads `~/.agents/skills`, opencode `~/.claude/skills`).
/// Managed, `--add-dir`, plugin and command roots are their own agent's alone.
pub fn reads_root(agent: Agent, root: &crate::core::source::Root) -> bool {
    use crate::core::source::Scope;
    if root.agent == agent {
        return true;
    }
    if !matches!(root.scope, Scope::User | Scope::Project) {
        return false;
    }
    let names: Vec<&str> = root
        .path
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    model(agent)
        .folders
        .iter()
        .any(|f| names.len() >= f.len() && names[names.len() - f.len()..].iter().eq(f.iter()))
}

pub use crate::core::layout::folder_readers;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_but_the_given_folders_has_one_model_and_reads_its_own_folders() {
        for &a in Agent::ALL {
            let m = model(a);
            match a {
                Agent::Path | Agent::Demo => assert_eq!(m.agent, Agent::Path),
                _ => {
                    assert_eq!(m.agent, a);
                    assert!(!m.folders.is_empty(), "{a}");
                }
            }
        }
    }

    #[test]
    fn the_agent_formats_name_their_agent() {
        for m in models() {
            if let Some(a) = agent_of_format(m.format) {
                assert_eq!(a, m.agent, "{}", m.name);
            }
        }
    }
}

#[cfg(test)]
mod plugin_tests {
    use super::*;

    #[test]
    fn folder_readers_find_the_plugin_cache() {
        let dir = std::path::Path::new("/h/.claude/plugins/cache/mkt/helper/1.0.0/skills/lint");
        let found = super::folder_readers(models().map(|m| (m.agent, m.folders)), dir);
        assert_eq!(found, vec![Agent::ClaudeCode]);
    }
}
