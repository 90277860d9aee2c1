//! How Qwen Code, GitHub Copilot CLI, Cline and OpenClaw read the folders they share with other
//! agents (`tests/fixtures/agents/NEW-AGENTS.md`), asked of each agent's record
//! ([`Reach`](super::places::Reach), its home's `reach`): at which place each reads them and how
//! deep, which copy of a shared name wins, which skills its client skips, and what it supplies
//! for a missing name or description.

pub(super) use super::places::Places;
use super::places::{Reach, Unparsed, has};
use crate::core::findings::catalogue::RuleId;
use crate::core::library::{Library, read_body_up_to};
use crate::core::skill::Skill;
use crate::core::source::Agent;

/// The agent's record of how it reads shared folders, when it has one.
fn reach(agent: Agent) -> Option<&'static Reach> {
    agent.home().reach
}

/// Whether `agent` is one of the agents modelled here.
pub(super) fn modelled_here(agent: Agent) -> bool {
    reach(agent).is_some()
}

impl Places {
    /// This process's places.
    pub(super) fn current() -> Places {
        let home = dirs::home_dir();
        let cwd = std::env::current_dir()
            .map(|c| crate::core::files::paths::absolute(&c))
            .unwrap_or_default();
        let repo = super::project_root(&cwd, home.as_deref());
        let workspace = home.as_deref().map(crate::core::source::openclaw_workspace);
        Places {
            home,
            cwd,
            repo,
            workspace,
        }
    }
}

/// Whether `agent` reads skill `s` where it is, beyond the folder names the model matches.
pub(super) fn reads(agent: Agent, s: &Skill, p: &Places) -> bool {
    if matches!(s.agent, Agent::Path | Agent::Demo) {
        return true;
    }
    reach(agent).is_none_or(|r| (r.reads)(s, p))
}

/// Where the skill's folder comes in the agent's precedence: lower first.
fn rank(agent: Agent, s: &Skill, p: &Places) -> (u8, isize) {
    reach(agent).map_or((0, 0), |r| (r.rank)(s, p))
}

/// The name the agent knows a skill by: its frontmatter `name`, else its folder's (Cline:
/// lower-cased, its ids).
fn key(agent: Agent, s: &Skill) -> String {
    let name = s
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| s.dir_name().into_owned(), str::to_string);
    if reach(agent).is_some_and(|r| r.lower_case_names) {
        name.to_lowercase()
    } else {
        name
    }
}

/// Which copy of each name the agent loads: Qwen Code the project's before the user's (its own
/// folder before `.agents`), Copilot the first in its reading order, OpenClaw the workspace's
/// before the shared and its managed folder, Cline the last one it reads.
pub(super) fn shadowing(
    lib: &Library,
    agent: Agent,
    member: &[bool],
    p: &Places,
) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..lib.len())
        .filter(|&i| member[i] && skipped(agent, &lib.skills[i]).is_none())
        .collect();
    // Each skill's rank made once (it joins the workspace's paths), in a stable sort as before;
    // where the last copy wins the order is the reverse of the ranks, equal ranks kept in the
    // library's order.
    if reach(agent).is_some_and(|r| r.last_wins) {
        order.sort_by_cached_key(|&i| std::cmp::Reverse(rank(agent, &lib.skills[i], p)));
    } else {
        order.sort_by_cached_key(|&i| rank(agent, &lib.skills[i], p));
    }
    let mut winners: rustc_hash::FxHashMap<String, usize> = rustc_hash::FxHashMap::default();
    let mut out = vec![None; lib.len()];
    for i in order {
        match winners.entry(key(agent, &lib.skills[i])) {
            std::collections::hash_map::Entry::Occupied(w) => out[i] = Some(*w.get()),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i);
            }
        }
    }
    out
}

/// Why the agent's client does not load the skill at all, when it does not.
pub(super) fn skipped(agent: Agent, s: &Skill) -> Option<String> {
    reach(agent)
        .and_then(|r| (r.skipped)(s))
        .map(str::to_string)
}

/// Why an agent keeps a skill it reads out of its listing.
pub(super) struct Unlisted {
    /// Said in the listing's fates.
    pub why: String,
    /// The client's own switch turned it off (Cline's frontmatter switch), as opposed to a
    /// skill closed to the model (`disable-model-invocation`).
    pub switched_off: bool,
}

/// Why the agent keeps a skill it reads out of its listing, when it does: its own frontmatter
/// switch where it has one (Cline's), else `disable-model-invocation` (Qwen Code, Copilot,
/// OpenClaw).
pub(super) fn unlisted(agent: Agent, s: &Skill) -> Option<Unlisted> {
    match reach(agent).and_then(|r| r.own_switch) {
        Some(off) => off(s).map(|why| Unlisted {
            why,
            switched_off: true,
        }),
        None => s.frontmatter.disable_model_invocation.then(|| Unlisted {
            why: format!(
                "disable-model-invocation: true: {} keeps it out of its listing",
                super::model::model(agent).name
            ),
            switched_off: false,
        }),
    }
}

/// Takes `s` as the agent reads it and says what it supplied, when anything: a frontmatter that
/// is not valid YAML read line by line (Qwen Code, OpenClaw), a SKILL.md without frontmatter
/// read whole (Cline), the folder's name for a missing name (Copilot, Cline, OpenClaw), the
/// body's first paragraph for a missing description (Copilot).
pub(super) fn reading(agent: Agent, s: &mut Skill) -> Option<String> {
    let r = reach(agent)?;
    let mut used = Vec::new();
    let bad_yaml = has(s, RuleId::YamlInvalid);
    if !s.frontmatter.parsed {
        match r.unparsed {
            Unparsed::LineByLine if bad_yaml => {
                s.frontmatter.parsed = true;
                used.push("its frontmatter read line by line, as it is not valid YAML");
            }
            Unparsed::WholeBody if !bad_yaml => {
                s.frontmatter.parsed = true;
                used.push("the whole file as its body, as it has no frontmatter");
            }
            Unparsed::LineByLine | Unparsed::WholeBody | Unparsed::Skipped => {}
        }
    }
    if r.own_switch.is_some() {
        s.frontmatter.disable_model_invocation = false;
    }
    let nameless = s
        .frontmatter
        .name
        .as_deref()
        .is_none_or(|n| n.trim().is_empty());
    if nameless && r.folder_name_for_name {
        s.frontmatter.name = Some(s.dir_name().into_owned());
        used.push("its folder's name for the missing name");
    }
    if r.body_for_description
        && s.frontmatter.parsed
        && s.frontmatter.description().is_none()
        && let Ok(body) = read_body_up_to(s, 1 << 20)
        && let Some(p) = first_paragraph(&body)
    {
        s.frontmatter.set_description(Some(p));
        used.push("the first two paragraphs of its body for the missing description");
    }
    (!used.is_empty()).then(|| format!("listed with {}", used.join(" and ")))
}

/// Copilot's description from a body: its first two paragraphs that are no heading, each one's
/// lines trimmed and joined by spaces, the two joined by a space (`wide/listing.txt`:
/// `two-paragraphs`; a third is left out). `None` when every paragraph is a heading.
pub fn first_paragraph(body: &str) -> Option<String> {
    let mut para: Vec<&str> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    for line in body.lines().map(str::trim).chain(std::iter::once("")) {
        if !line.is_empty() {
            para.push(line);
            continue;
        }
        if para.first().is_some_and(|l| !l.starts_with('#')) {
            taken.push(para.join(" "));
            if taken.len() == 2 {
                break;
            }
        }
        para.clear();
    }
    (!taken.is_empty()).then(|| taken.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copilot_takes_the_first_two_paragraphs_that_are_no_heading() {
        assert_eq!(
            first_paragraph("\n\n# Heading\n\nSecond paragraph.\n").as_deref(),
            Some("Second paragraph.")
        );
        assert_eq!(
            first_paragraph("One line\n  and its next.\n\nOther.\n\nA third.").as_deref(),
            Some("One line and its next. Other.")
        );
        assert_eq!(first_paragraph("# Only a heading\n"), None);
    }
}
