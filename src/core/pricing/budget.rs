//! Token totals of a library — per level, per source, and what is still uncounted — the one
//! summary that the `budget` command and the Budget screen both show.

use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::source::Scope;
use crate::core::tokens::SkillTokens;
use crate::core::words::text::thousands;
use std::collections::BTreeMap;

/// One level's total over a set of skills.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LevelTotal {
    /// Skills taken in.
    pub skills: usize,
    /// Their tokens added up.
    pub tokens: u64,
    /// Skills whose figure is not in yet (their level is still being counted).
    pub pending: usize,
}

impl LevelTotal {
    /// Adds one skill's figure; a missing one is pending only while its level is counted.
    pub fn add(&mut self, n: Option<u32>, counted: bool) {
        self.skills += 1;
        match n {
            Some(n) => self.tokens += u64::from(n),
            None if !counted => self.pending += 1,
            None => {}
        }
    }

    /// `1,234`, `1,234+…` while some figures are missing, `…` while all are.
    pub fn text(&self) -> String {
        if self.pending == self.skills && self.skills > 0 {
            "…".to_string()
        } else if self.pending > 0 {
            format!("{}+…", thousands(self.tokens))
        } else {
            thousands(self.tokens)
        }
    }
}

/// The totals of the skills a summary takes in.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// The listing entries.
    pub l1: LevelTotal,
    /// The SKILL.md files.
    pub l2: LevelTotal,
    /// The text resources and the tool schemas.
    pub l3: LevelTotal,
    /// Files other than SKILL.md.
    pub resources: usize,
    /// Resources that are not text (listed, not counted).
    pub binary: usize,
    /// Skill files and text resources that could not be read.
    pub unreadable: usize,
}

/// Which levels are counted: `[L1, L2, L3]`. A missing figure of a counted level is a skill with
/// nothing to count there, not a pending one.
pub type Counted = [bool; 3];

/// Every level counted (the CLI counts before it prints).
pub const ALL_COUNTED: Counted = [true; 3];

/// The totals of the skills `include` takes (by library index), from their figures.
pub fn summarize(
    figures: &[SkillTokens],
    include: &dyn Fn(usize) -> bool,
    counted: Counted,
) -> Summary {
    let mut s = Summary::default();
    for (i, c) in figures.iter().enumerate() {
        if !include(i) {
            continue;
        }
        s.l1.add(c.l1, counted[0]);
        s.l2.add(c.l2, counted[1]);
        s.l3.add(c.l3_with_schema(), counted[2]);
        s.resources += c.resources.len();
        s.binary += c.resources.iter().filter(|r| !r.text).count();
        if counted[1] && c.l2.is_none() {
            s.unreadable += 1;
        }
        s.unreadable += c
            .resources
            .iter()
            .filter(|r| r.text && r.tokens.is_none())
            .count();
    }
    s
}

/// The skills an agent would list: switched on and not shadowed by another copy.
pub fn listed(lib: &Library, enabled: &[bool]) -> impl Fn(usize) -> bool {
    move |i| {
        enabled.get(i).copied().unwrap_or(false)
            && lib.skills.get(i).is_some_and(|s| s.shadowed_by.is_none())
    }
}

/// The L1 totals of the skills `include` takes, grouped by [`source_label`], most tokens first.
pub fn l1_by_source(
    lib: &Library,
    figures: &[SkillTokens],
    include: &dyn Fn(usize) -> bool,
    counted: Counted,
) -> Vec<(String, LevelTotal)> {
    let mut by: BTreeMap<String, LevelTotal> = BTreeMap::new();
    for (i, skill) in lib.skills.iter().enumerate() {
        if !include(i) {
            continue;
        }
        let l1 = figures.get(i).and_then(|c| c.l1);
        by.entry(source_label(skill))
            .or_default()
            .add(l1, counted[0]);
    }
    let mut groups: Vec<(String, LevelTotal)> = by.into_iter().collect();
    groups.sort_by(|a, b| {
        b.1.tokens
            .cmp(&a.1.tokens)
            .then(b.1.skills.cmp(&a.1.skills))
    });
    groups
}

/// Agent and scope, shortened: a folder given on the command line is just `path`. A skill
/// linked into other agents' folders names them after a `+` (see [`linked_badges`]).
pub fn badge(skill: &Skill) -> String {
    let own = match skill.scope {
        Scope::Path | Scope::Demo => skill.agent.badge().to_string(),
        // A custom command (`.claude/commands`), labelled as one.
        scope if skill.command => format!("{}·{scope}·cmd", skill.agent.badge()),
        scope => format!("{}·{scope}", skill.agent.badge()),
    };
    own + &linked_badges(skill, "·")
}

/// The agents whose folders link to the skill ([`Skill::linked`]), each as `+badge`, with
/// `sep` and the scope when it is not the skill's own: `+claude`, `+claude·user`. Empty for a
/// skill reached at one place only.
pub fn linked_badges(skill: &Skill, sep: &str) -> String {
    let mut out = String::new();
    let mut seen: Vec<(crate::core::source::Agent, Scope)> = Vec::new();
    for p in &skill.linked {
        if p.agent == skill.agent && p.scope == skill.scope || seen.contains(&(p.agent, p.scope)) {
            continue;
        }
        seen.push((p.agent, p.scope));
        out.push('+');
        out.push_str(p.agent.badge());
        if p.scope != skill.scope && !matches!(p.scope, Scope::Path | Scope::Demo) {
            out.push_str(sep);
            out.push_str(p.scope.as_str());
        }
    }
    out
}

/// Each skill's name as results and tables show it: a name two skills share (one skill
/// installed for two agents, or two collections' copies) carries its agent and scope, so that
/// the rows can be told apart.
pub fn shown_names(lib: &Library) -> Vec<String> {
    let mut count: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for s in &lib.skills {
        *count.entry(s.id.as_str()).or_default() += 1;
    }
    lib.skills
        .iter()
        .map(|s| {
            if count[s.id.as_str()] > 1 {
                format!("{} ({}·{})", s.id, s.agent.as_str(), s.scope.as_str())
            } else {
                s.id.clone()
            }
        })
        .collect()
}

/// Where a skill comes from, for grouping: agent and scope, or for folders given on the command
/// line the root's folder name.
pub fn source_label(skill: &Skill) -> String {
    match skill.scope {
        Scope::Path | Scope::Demo => skill.root.file_name().map_or_else(
            || skill.root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        _ => badge(skill),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tokens::ResourceTokens;

    fn figures(l1: Option<u32>, l2: Option<u32>, l3: Option<u32>) -> SkillTokens {
        SkillTokens {
            l1,
            l2,
            l3,
            ..SkillTokens::default()
        }
    }

    #[test]
    fn missing_figures_are_pending_only_while_their_level_is_counted() {
        let f = vec![
            figures(Some(10), Some(100), Some(5)),
            figures(None, None, None),
            figures(Some(1), Some(2), Some(3)),
        ];
        let counting = summarize(&f, &|i| i != 2, [false, true, false]);
        assert_eq!(counting.l1.tokens, 10);
        assert_eq!(counting.l1.pending, 1);
        assert_eq!(counting.l1.text(), "10+…");
        assert_eq!(counting.l2.pending, 0, "L2 is counted: nothing to count");
        assert_eq!(counting.unreadable, 1, "an L2 missing once counted");
        let done = summarize(&f, &|_| true, ALL_COUNTED);
        assert_eq!(
            (done.l1.tokens, done.l2.tokens, done.l3.tokens),
            (11, 102, 8)
        );
        assert_eq!(done.l1.skills, 3);
        assert_eq!(done.l3.text(), "8");
        let none = summarize(&f, &|i| i == 1, [false; 3]);
        assert_eq!(none.l1.text(), "…");
    }

    #[test]
    fn schemas_count_in_l3_and_binary_files_are_listed_apart() {
        let mut f = figures(Some(1), Some(1), Some(40));
        f.schema = Some(60);
        f.resources = vec![
            ResourceTokens {
                rel: "a.md".into(),
                size: 3,
                text: true,
                tokens: Some(40),
            },
            ResourceTokens {
                rel: "b.png".into(),
                size: 3,
                text: false,
                tokens: None,
            },
        ];
        let s = summarize(&[f], &|_| true, ALL_COUNTED);
        assert_eq!(s.l3.tokens, 100);
        assert_eq!((s.resources, s.binary, s.unreadable), (2, 1, 0));
    }
}
