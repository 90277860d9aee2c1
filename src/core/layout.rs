//! Installed layouts: installers (`npx skills add … --agent claude-code codex`) keep one copy of a
//! skill in `.agents/skills` and link it into each other agent's folder. One folder reached from
//! several roots is one skill, listed once at its own place with the others as its linked places;
//! a skill reached through a link that leads outside every skill folder is reported, never
//! followed silently.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::{Place, Skill};
use crate::core::source::{Agent, Root};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

/// What [`merge`] made of the scan's skills.
#[derive(Debug, Default)]
pub struct Merged {
    /// Every skill once: a folder reached from several roots is one skill, its other places in
    /// [`Skill::linked`].
    pub skills: Vec<Skill>,
    /// The copies read at the other places, folded into their skill: kept only so that the
    /// library index remembers them (they are read again on every scan otherwise).
    pub folded: Vec<Skill>,
}

/// Folds the skills found at the same real folder under different roots into one: the copy at
/// its own place (no link on the way) stays, the others become its linked places. Two names for
/// one folder in the same root stay two skills (an agent lists both). A skill whose real folder
/// lies outside every root and every agent's skill folder gets a `link-leaves-library` warning.
pub fn merge(roots: &[Root], skills: Vec<Skill>) -> Merged {
    let real_roots: Vec<(&Path, PathBuf)> = roots
        .iter()
        .filter(|r| !r.commands)
        .map(|r| {
            let real = std::fs::canonicalize(&r.path).unwrap_or_else(|_| r.path.clone());
            (r.path.as_path(), real)
        })
        .collect();
    // Without a link below a root and without two roots in one place, no folder is reached
    // twice and none leads out: nothing to resolve (the common case, and a large library's).
    let nested = real_roots.iter().enumerate().any(|(i, (_, a))| {
        real_roots
            .iter()
            .enumerate()
            .any(|(j, (_, b))| i != j && a.starts_with(b))
    });
    if !nested && skills.iter().all(|s| s.plain || s.command) {
        return Merged {
            skills,
            folded: Vec::new(),
        };
    }
    let real_root = |root: &Path| {
        real_roots
            .iter()
            .find(|(p, _)| *p == root)
            .map(|(_, r)| r.as_path())
    };
    let reals: Vec<Option<PathBuf>> = skills
        .iter()
        .map(|s| real_dir(s, real_root(&s.root)))
        .collect();
    let mut groups: FxHashMap<&Path, Vec<usize>> = FxHashMap::default();
    for (i, real) in reals.iter().enumerate() {
        if let Some(r) = real {
            groups.entry(r.as_path()).or_default().push(i);
        }
    }
    // Which skill each one is folded into, if any; and each keeper's places.
    let mut folded_into: Vec<Option<usize>> = vec![None; skills.len()];
    let mut places: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for members in groups.values().filter(|m| m.len() > 1) {
        let keep = members
            .iter()
            .copied()
            .find(|&i| skills[i].plain)
            .unwrap_or(members[0]);
        let mut taken: Vec<&Path> = vec![listing_folder(&skills[keep])];
        for &i in members {
            let folder = listing_folder(&skills[i]);
            if i == keep || taken.contains(&folder) {
                continue;
            }
            taken.push(folder);
            folded_into[i] = Some(keep);
            places.entry(keep).or_default().push(i);
        }
    }
    let inside = |real: &Path| {
        real_roots.iter().any(|(_, r)| real.starts_with(r))
            || !folder_readers(every_agent().map(|a| (a, a.skill_folders())), real).is_empty()
    };
    let mut leaves: Vec<Option<Diagnostic>> = skills
        .iter()
        .zip(&reals)
        .map(|(s, real)| match real {
            Some(r) if !s.plain && !inside(r) => Some(leaves_library(s, r)),
            _ => None,
        })
        .collect();
    let linked: FxHashMap<usize, Vec<Place>> = places
        .into_iter()
        .map(|(keep, mut others)| {
            others.sort_unstable();
            (keep, others.iter().map(|&i| skills[i].place()).collect())
        })
        .collect();
    let mut out = Merged::default();
    let mut linked = linked;
    for (i, mut s) in skills.into_iter().enumerate() {
        if folded_into[i].is_some() {
            out.folded.push(s);
            continue;
        }
        if let Some(p) = linked.remove(&i) {
            s.linked = p;
        }
        if let Some(d) = leaves[i].take() {
            s.parse_diagnostics.push(d);
        }
        out.skills.push(s);
    }
    out
}

/// The folder an agent lists a skill from: its root, or, below a folder given on the command
/// line (a project, say), the agent skill folder it sits in (`.claude/skills`, `.agents/skills`),
/// so that a project given as one path is read as the default walk reads its folders. Two names
/// for one real folder in the same listing folder are two entries an agent lists.
fn listing_folder(s: &Skill) -> &Path {
    if !matches!(s.agent, Agent::Path | Agent::Demo) {
        return &s.root;
    }
    s.dir
        .ancestors()
        .skip(1)
        .take_while(|a| a.starts_with(&*s.root) && *a != &*s.root)
        .find(|a| {
            every_agent().any(|agent| {
                agent
                    .skill_folders()
                    .iter()
                    .any(|f| a.ends_with(f.iter().collect::<PathBuf>()))
            })
        })
        .unwrap_or(&*s.root)
}

/// Where a skill folder really is: below its root's real place when the walk met no link on the
/// way, else resolved. `None` for a command file or a folder that cannot be resolved.
fn real_dir(s: &Skill, real_root: Option<&Path>) -> Option<PathBuf> {
    if s.command {
        return None;
    }
    if s.plain
        && let (Some(rr), Ok(rel)) = (real_root, s.dir.strip_prefix(&*s.root))
    {
        return Some(rr.join(rel));
    }
    std::fs::canonicalize(&s.dir).ok()
}

/// The warning for a skill reached through a link that leads out of the library.
fn leaves_library(s: &Skill, real: &Path) -> Diagnostic {
    Diagnostic::new(
        RuleId::LinkLeavesLibrary,
        Severity::Warning,
        format!(
            "{} is reached through a link that leads to {}, outside every skill folder: agents load it from there; check that the link is meant (or move the skill into a skill folder)",
            s.dir.display(),
            real.display()
        ),
    )
    .in_file(&s.skill_md)
}

/// Every agent that reads folders of its own (the folders given and the demo left out), in
/// `Agent::ALL`'s order.
fn every_agent() -> impl Iterator<Item = Agent> + Clone {
    Agent::ALL
        .iter()
        .copied()
        .filter(|a| !matches!(a, Agent::Path | Agent::Demo))
}

/// The agents (of `agents`, each with the folders it reads) that read the nearest folder above
/// `dir` that any of them reads; empty when none does.
pub fn folder_readers<'a>(
    agents: impl Iterator<Item = (Agent, &'a [&'a [&'a str]])> + Clone,
    dir: &Path,
) -> Vec<Agent> {
    // One pass over the components: this runs for every row of a list.
    let names: Vec<Option<&str>> = dir.components().map(|c| c.as_os_str().to_str()).collect();
    // The last names of every agent's folders: a folder named none of them ends none of them,
    // and is passed over without asking each agent (most folders of a library are such).
    let mut lasts: Vec<&str> = Vec::new();
    let mut any_empty = false;
    for (_, folders) in agents.clone() {
        for f in folders {
            match f.last() {
                Some(last) if !lasts.contains(last) => lasts.push(last),
                Some(_) => {}
                None => any_empty = true,
            }
        }
    }
    // The skill's own folder is not a candidate, only the folders above it.
    for end in (1..names.len()).rev() {
        if !any_empty && !names[end - 1].is_some_and(|n| lasts.contains(&n)) {
            continue;
        }
        let ends_with = |folder: &[&str]| {
            end >= folder.len()
                && folder
                    .iter()
                    .rev()
                    .zip(names[..end].iter().rev())
                    .all(|(want, got)| *got == Some(*want))
        };
        let found: Vec<Agent> = agents
            .clone()
            .filter(|(_, folders)| folders.iter().any(|f| ends_with(f)))
            .map(|(a, _)| a)
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::{ScanOptions, scan};
    use crate::core::source::{Agent, Scope};

    fn write(p: &Path, s: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    fn roots(p: &Path) -> Vec<Root> {
        vec![
            Root::new(p.join(".claude/skills"), Agent::ClaudeCode, Scope::Project),
            Root::new(p.join(".agents/skills"), Agent::Generic, Scope::Project),
        ]
    }

    #[test]
    fn a_folder_linked_into_another_agents_folder_is_one_skill_with_its_places() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path();
        write(
            &p.join(".agents/skills/pdf/SKILL.md"),
            "---\nname: pdf\ndescription: d\n---\n",
        );
        std::fs::create_dir_all(p.join(".claude/skills")).unwrap();
        crate::core::files::fsx::test_link(
            "../../.agents/skills/pdf",
            p.join(".claude/skills/pdf"),
        )
        .unwrap();
        // Two names for one folder in one root stay two skills: the agent lists both.
        crate::core::files::fsx::test_link("pdf", p.join(".agents/skills/pdf-again")).unwrap();
        let roots = roots(p);
        let (skills, _) = scan(&roots, &ScanOptions::default());
        assert_eq!(skills.len(), 3);
        let m = merge(&roots, skills);
        let dirs: Vec<_> = m.skills.iter().map(|s| s.dir.clone()).collect();
        assert_eq!(
            dirs,
            [
                p.join(".agents/skills/pdf"),
                p.join(".agents/skills/pdf-again")
            ]
        );
        let pdf = &m.skills[0];
        assert_eq!(pdf.agent, Agent::Generic);
        assert_eq!(pdf.linked.len(), 1);
        assert_eq!(pdf.linked[0].dir, p.join(".claude/skills/pdf"));
        assert_eq!(pdf.linked[0].agent, Agent::ClaudeCode);
        assert!(m.skills[1].linked.is_empty());
        assert_eq!(m.folded.len(), 1);
        assert!(m.skills.iter().all(|s| {
            s.parse_diagnostics
                .iter()
                .all(|d| d.rule != "link-leaves-library")
        }));
    }

    #[test]
    fn a_second_load_of_a_linked_layout_reads_nothing_again() {
        use crate::core::index::IndexStore;
        use crate::core::library::Library;
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("proj");
        write(
            &p.join(".agents/skills/pdf/SKILL.md"),
            "---\nname: pdf\ndescription: d\n---\n",
        );
        std::fs::create_dir_all(p.join(".claude/skills")).unwrap();
        crate::core::files::fsx::test_link(
            "../../.agents/skills/pdf",
            p.join(".claude/skills/pdf"),
        )
        .unwrap();
        // Stamps in the racy window are not trusted: date everything back.
        let then = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
        for f in [
            ".agents/skills/pdf/SKILL.md",
            ".agents/skills/pdf",
            ".agents/skills",
            ".claude/skills",
        ] {
            std::fs::File::open(p.join(f))
                .unwrap()
                .set_modified(then)
                .unwrap();
        }
        let store = IndexStore::in_dir(t.path().join("cache"));
        let load = || Library::load_indexed(roots(&p), &ScanOptions::default(), &store);
        let (first, stats) = load();
        assert_eq!(first.skills.len(), 1);
        assert_eq!(stats.skills_parsed, 2);
        let (again, stats) = load();
        assert_eq!(stats.skills_parsed, 0, "the linked copy was read again");
        assert!(again.from_index());
        assert_eq!(again.skills.len(), 1);
        assert_eq!(again.skills[0].linked.len(), 1);
    }

    #[test]
    fn a_link_that_leads_out_of_the_library_is_reported() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("proj");
        write(
            &t.path().join("elsewhere/mine/SKILL.md"),
            "---\nname: mine\ndescription: d\n---\n",
        );
        std::fs::create_dir_all(p.join(".claude/skills")).unwrap();
        std::fs::create_dir_all(p.join(".agents/skills")).unwrap();
        crate::core::files::fsx::test_link(
            t.path().join("elsewhere/mine"),
            p.join(".claude/skills/mine"),
        )
        .unwrap();
        let roots = roots(&p);
        let (skills, _) = scan(&roots, &ScanOptions::default());
        let m = merge(&roots, skills);
        assert_eq!(m.skills.len(), 1);
        let d: Vec<_> = m.skills[0]
            .parse_diagnostics
            .iter()
            .filter(|d| d.rule == "link-leaves-library")
            .collect();
        assert_eq!(d.len(), 1, "{:?}", m.skills[0].parse_diagnostics);
        assert!(d[0].message.contains("elsewhere/mine"), "{}", d[0].message);
    }
}
