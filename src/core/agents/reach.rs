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

/// A root (its `Arc`) and scope, and their rank.
type Kept = (
    std::sync::Arc<std::path::Path>,
    crate::core::source::Scope,
    (u8, isize),
);

/// The ranks of skills, each root's made once: an agent's rank is of the skill's root and
/// scope only (every [`Reach::rank`](super::places::Reach)), and the skills of a root come one
/// after another, so the last root's rank is kept (by the root's own `Arc`, the same path).
struct Ranks<'p> {
    agent: Agent,
    places: &'p Places,
    last: std::cell::RefCell<Option<Kept>>,
}

impl<'p> Ranks<'p> {
    fn new(agent: Agent, places: &'p Places) -> Ranks<'p> {
        Ranks {
            agent,
            places,
            last: std::cell::RefCell::new(None),
        }
    }

    /// [`rank`] of `s`.
    fn of(&self, s: &Skill) -> (u8, isize) {
        let mut last = self.last.borrow_mut();
        if let Some((root, scope, r)) = last.as_ref()
            && std::sync::Arc::ptr_eq(root, &s.root)
            && *scope == s.scope
        {
            return *r;
        }
        let r = rank(self.agent, s, self.places);
        *last = Some((s.root.clone(), s.scope, r));
        r
    }
}

/// The name the agent knows a skill by: its frontmatter `name`, else its folder's (Cline:
/// lower-cased, its ids).
fn key(agent: Agent, s: &Skill) -> std::borrow::Cow<'_, str> {
    let name = s
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| s.dir_name(), std::borrow::Cow::Borrowed);
    if reach(agent).is_some_and(|r| r.lower_case_names) {
        std::borrow::Cow::Owned(name.to_lowercase())
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
    // Each root's rank made once (it joins the workspace's paths), in a stable sort as before;
    // where the last copy wins the order is the reverse of the ranks, equal ranks kept in the
    // library's order.
    let ranks = Ranks::new(agent, p);
    if reach(agent).is_some_and(|r| r.last_wins) {
        order.sort_by_cached_key(|&i| std::cmp::Reverse(ranks.of(&lib.skills[i])));
    } else {
        order.sort_by_cached_key(|&i| ranks.of(&lib.skills[i]));
    }
    let mut winners: rustc_hash::FxHashMap<std::borrow::Cow<'_, str>, usize> =
        rustc_hash::FxHashMap::default();
    winners.reserve(order.len());
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
        && let Some(p) = body_paragraphs(s)
    {
        s.frontmatter.set_description(Some(p));
        used.push("the first two paragraphs of its body for the missing description");
    }
    (!used.is_empty()).then(|| format!("listed with {}", used.join(" and ")))
}

/// [`first_paragraph`] of the skill's body (its first MiB), read off the file once and kept
/// with the skill (`Readings::first_paragraphs`).
pub(super) fn body_paragraphs(s: &Skill) -> Option<String> {
    s.facts
        .reading(&s.facts.readings.first_paragraphs, || {
            read_body_up_to(s, 1 << 20)
                .ok()
                .map(|body| first_paragraph(&body))
        })?
        .clone()
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
    use crate::core::source::{Root, Scope};

    /// The ranks kept per root answer as each skill's own rank does: through roots shared and
    /// not, the same path in two roots, and one root's skills of two scopes.
    #[test]
    fn the_rank_kept_per_root_is_each_skills_rank() {
        let places = Places::current();
        let folders = [
            ("/w/p/.github/skills", Scope::Project),
            ("/w/p/.agents/skills", Scope::Project),
            ("/w/p/.clinerules/skills", Scope::Project),
            ("/h/.cline/skills", Scope::User),
            ("/h/.copilot/skills", Scope::User),
            ("/h/.agents/skills", Scope::User),
            ("/h/.qwen/skills", Scope::User),
            ("/w/p/.agents/skills", Scope::User),
            ("/x/skills", Scope::Path),
        ];
        let mut skills: Vec<Skill> = Vec::new();
        for (n, (folder, scope)) in folders.iter().enumerate() {
            let root = Root::new(folder, Agent::Path, *scope);
            for k in 0..3 {
                let dir = root.path.join(format!("s{n}-{k}"));
                let mut s = Skill::new(&root, dir.clone(), dir.join("SKILL.md"));
                // The skills of a root share its `Arc`, as the scan's do; the last one of each
                // root is of another scope.
                if let Some(prev) = skills.last().filter(|_| k > 0) {
                    s.root = prev.root.clone();
                }
                if k == 2 {
                    s.scope = Scope::Managed;
                }
                skills.push(s);
            }
        }
        let mut ranked = std::collections::BTreeSet::new();
        for agent in [
            Agent::Openclaw,
            Agent::Copilot,
            Agent::Cline,
            Agent::QwenCode,
        ] {
            let ranks = Ranks::new(agent, &places);
            for s in skills.iter().chain(skills.iter().rev()) {
                assert_eq!(ranks.of(s), rank(agent, s, &places), "{agent:?} {s:?}");
                ranked.insert(rank(agent, s, &places));
            }
        }
        // The folders rank apart: the ranks compared are not all one.
        assert!(ranked.len() > 3, "{ranked:?}");
    }

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
