//! Cost when used: how far a skill loads once an agent uses it, decided by its type. A
//! contextual skill stops at its body (L1 + L2; its resources are listed, read only on demand),
//! an executable one adds the tool schema of its last `--help-json` probe, and a composite one
//! adds the skills its body names, each once, however they name each other.

use crate::core::library::{self, Library};
use crate::core::skill::{KindSource, Skill, SkillKind};
use serde::Serialize;
use std::collections::HashMap;

/// Composite bodies larger than this are not searched for skill names.
const MAX_BODY_BYTES: u64 = 4 * 1024 * 1024;

/// The figures a skill's own part of the cost is made of; `None` while unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Levels {
    /// Its listing entry.
    pub l1: Option<u64>,
    /// Its SKILL.md.
    pub l2: Option<u64>,
    /// The tool schema of the last probe (executables only).
    pub schema: Option<u64>,
}

/// One skill's cost when used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UseCost {
    /// Its type: what decides what using it costs.
    #[serde(rename = "type")]
    pub kind: SkillKind,
    /// What decided the type.
    pub decided_by: KindSource,
    /// Tokens in context once the skill is used; `None` while a part is unknown.
    pub tokens: Option<u64>,
    /// The other skills loaded along (composites: every skill reachable through the names in
    /// the bodies), library indices in library order.
    pub loads: Vec<usize>,
    /// Executable skills never probed: their schema is not in `tokens`.
    pub schema_unknown: bool,
}

impl UseCost {
    /// `executable (entry)`-style: the type and, when it was not declared, what inferred it.
    pub fn type_label(&self) -> String {
        match self.decided_by {
            KindSource::Declared | KindSource::Default => self.kind.as_str().to_string(),
            other => format!("{} ({})", self.kind.as_str(), other.as_str()),
        }
    }

    /// How the figure is made, for a detail view.
    pub fn rule(&self) -> &'static str {
        match self.kind {
            SkillKind::Contextual => "L1 + L2; resources are read only on demand",
            SkillKind::Executable => "L1 + L2 + the tool schema",
            SkillKind::Composite => "L1 + L2 + the skills its body names",
        }
    }
}

/// Finds, for each composite skill, the other skills its body names (by name or namespaced
/// id), in library order. Only composite bodies are read; other skills name nothing.
pub fn composite_links(lib: &Library) -> Vec<Vec<usize>> {
    let by_name = name_index(lib);
    lib.skills
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if s.kind() != SkillKind::Composite || s.file_len() > MAX_BODY_BYTES {
                return Vec::new();
            }
            library::read_body(s)
                .map(|body| named_in(&body, i, lib, &by_name))
                .unwrap_or_default()
        })
        .collect()
}

/// Every name and id an agent could load, with the copies that carry it.
fn name_index(lib: &Library) -> HashMap<&str, Vec<usize>> {
    let mut m: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, s) in lib.skills.iter().enumerate() {
        if !s.frontmatter.parsed {
            continue;
        }
        m.entry(s.name.as_str()).or_default().push(i);
        if s.id != s.name {
            m.entry(s.id.as_str()).or_default().push(i);
        }
    }
    m
}

/// The copy of a named skill that `from`'s agent would load: its own winner when it has one,
/// else any copy that is not shadowed.
fn pick(copies: &[usize], from: &Skill, lib: &Library) -> Option<usize> {
    let winner = |&&i: &&usize| lib.skills[i].shadowed_by.is_none();
    copies
        .iter()
        .filter(winner)
        .find(|&&i| lib.skills[i].agent == from.agent)
        .or_else(|| copies.iter().find(winner))
        .or_else(|| copies.first())
        .copied()
}

/// Skills named in a body: words made of the characters names and ids use, compared whole.
#[allow(clippy::implicit_hasher)] // the map is the library's own, built with the default hasher
pub fn named_in(
    body: &str,
    me: usize,
    lib: &Library,
    by_name: &HashMap<&str, Vec<usize>>,
) -> Vec<usize> {
    let from = &lib.skills[me];
    let mut out: Vec<usize> = body
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
        .map(|w| {
            w.trim_end_matches(['.', ':'])
                .trim_start_matches(['.', ':'])
        })
        .filter(|w| !w.is_empty())
        .filter_map(|w| by_name.get(w))
        .filter_map(|copies| pick(copies, from, lib))
        .filter(|&i| i != me)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Each skill's cost when used. `levels` and `links` are index-aligned with the library.
pub fn costs_when_used(lib: &Library, levels: &[Levels], links: &[Vec<usize>]) -> Vec<UseCost> {
    let own = |i: usize| -> (Option<u64>, bool) {
        let lv = levels.get(i).copied().unwrap_or_default();
        let skill = &lib.skills[i];
        let base = lv.l2.map(|l2| lv.l1.unwrap_or(0) + l2);
        if skill.kind() == SkillKind::Executable {
            match lv.schema {
                Some(schema) => (base.map(|b| b + schema), false),
                None => (base, true),
            }
        } else {
            (base, false)
        }
    };
    (0..lib.skills.len())
        .map(|i| {
            let skill = &lib.skills[i];
            let loads = if skill.kind() == SkillKind::Composite {
                closure(i, lib, links)
            } else {
                Vec::new()
            };
            let (mut tokens, mut schema_unknown) = own(i);
            for &j in &loads {
                let (t, unknown) = own(j);
                tokens = tokens.zip(t).map(|(a, b)| a + b);
                schema_unknown |= unknown;
            }
            UseCost {
                kind: skill.kind(),
                decided_by: skill.kind_source(),
                tokens,
                loads,
                schema_unknown,
            }
        })
        .collect()
}

/// Every skill reachable from `start` through the names composite bodies hold, without `start`
/// itself; each once, so cycles end.
fn closure(start: usize, lib: &Library, links: &[Vec<usize>]) -> Vec<usize> {
    let mut seen = vec![false; lib.skills.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut out = Vec::new();
    while let Some(i) = stack.pop() {
        // Only a composite loads the skills it names; a contextual skill's mentions are text.
        if lib.skills[i].kind() != SkillKind::Composite {
            continue;
        }
        for &j in links.get(i).map_or(&[][..], Vec::as_slice) {
            if j < seen.len() && !seen[j] {
                seen[j] = true;
                out.push(j);
                stack.push(j);
            }
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::matching::testlib::library;

    fn levels(lib: &Library, per: &[(&str, u64, u64, Option<u64>)]) -> Vec<Levels> {
        let mut v = vec![Levels::default(); lib.len()];
        for (name, l1, l2, schema) in per {
            v[lib.find(name).unwrap()] = Levels {
                l1: Some(*l1),
                l2: Some(*l2),
                schema: *schema,
            };
        }
        v
    }

    #[test]
    fn each_type_loads_as_far_as_it_should() {
        let (t, lib) = library(&[
            ("notes", "name: notes\ndescription: Notes."),
            ("tool", "name: tool\ndescription: A tool.\nentry: run.py"),
            (
                "fresh",
                "name: fresh\ndescription: Never probed.\ntype: executable",
            ),
            (
                "report",
                "name: report\ndescription: Reports.\ntype: composite",
            ),
        ]);
        std::fs::write(
            t.path().join("report/SKILL.md"),
            "---\nname: report\ndescription: Reports.\ntype: composite\n---\nFirst run `tool`, then follow notes. Never report itself.\n",
        )
        .unwrap();
        let lib = Library::load(
            lib.roots.clone(),
            &crate::core::scan::ScanOptions::default(),
        );
        let lv = levels(
            &lib,
            &[
                ("notes", 10, 100, None),
                ("tool", 20, 200, Some(50)),
                ("fresh", 5, 50, None),
                ("report", 30, 300, None),
            ],
        );
        let links = composite_links(&lib);
        let costs = costs_when_used(&lib, &lv, &links);
        let of = |n: &str| &costs[lib.find(n).unwrap()];
        assert_eq!(of("notes").tokens, Some(110));
        assert_eq!(of("tool").tokens, Some(270));
        assert_eq!(of("tool").type_label(), "executable (entry)");
        assert_eq!(of("fresh").tokens, Some(55));
        assert!(of("fresh").schema_unknown);
        // report: its own 330 + tool 270 + notes 110.
        assert_eq!(of("report").tokens, Some(710));
        let loaded: Vec<&str> = of("report")
            .loads
            .iter()
            .map(|&i| lib.skills[i].name.as_str())
            .collect();
        assert_eq!(loaded, vec!["notes", "tool"]);
    }

    #[test]
    fn composites_that_name_each_other_count_each_skill_once() {
        let (t, _) = library(&[]);
        let write = |dir: &str, body: &str| {
            let d = t.path().join(dir);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(
                d.join("SKILL.md"),
                format!("---\nname: {dir}\ndescription: d\ntype: composite\n---\n{body}\n"),
            )
            .unwrap();
        };
        write("a", "Uses b and c.");
        write("b", "Uses a, c and c again.");
        write("c", "Uses b.");
        let lib = Library::load(
            vec![crate::core::source::Root::new(
                t.path(),
                crate::core::source::Agent::Path,
                crate::core::source::Scope::Path,
            )],
            &crate::core::scan::ScanOptions::default(),
        );
        let lv = levels(
            &lib,
            &[("a", 1, 10, None), ("b", 2, 20, None), ("c", 4, 40, None)],
        );
        let costs = costs_when_used(&lib, &lv, &composite_links(&lib));
        for c in &costs {
            assert_eq!(
                c.tokens,
                Some(77),
                "every skill of the cycle loads all three once"
            );
            assert_eq!(c.loads.len(), 2);
        }
    }

    #[test]
    fn an_unknown_part_makes_the_whole_unknown() {
        let (_t, lib) = library(&[("a", "name: a\ndescription: d")]);
        let costs = costs_when_used(&lib, &[Levels::default()], &[Vec::new()]);
        assert_eq!(costs[0].tokens, None);
    }
}
