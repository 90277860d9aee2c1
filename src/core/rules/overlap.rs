//! The `overlap` rule: groups of skills whose descriptions compete for the same messages, found
//! through the distinctive terms they share and reported once per group, never pair by pair.

use crate::core::diagnostic::{Diagnostic, RuleId, Severity};
use crate::core::library::Library;
use crate::core::matching::lexicon::{Lexicon, SkillWords, tokenize};
use serde::Serialize;
use std::collections::HashMap;

/// The rule this module reports.
pub const RULE: RuleId = RuleId::Overlap;

/// How many of its most distinctive terms stand for a skill.
const TOP_TERMS: usize = 8;
/// Two skills compete when this many of their distinctive terms are the same.
const MIN_SHARED: usize = 4;
/// Names listed in one diagnostic before "and N more".
const NAMES_SHOWN: usize = 4;
/// Shared terms listed per group.
const TERMS_SHOWN: usize = 5;

/// Skills that compete for the same messages, and the terms they compete on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OverlapCluster {
    /// Library indices, in library order.
    pub skills: Vec<usize>,
    /// The distinctive terms most members share, most shared first.
    pub shared_terms: Vec<String>,
}

/// Each member's stems (content words of three letters or more) with their frequency, in stem
/// order.
fn stem_counts(lx: &Lexicon, words: &SkillWords) -> Vec<Vec<(u32, f32)>> {
    let mut stems: Vec<u32> = Vec::new();
    (0..words.len())
        .map(|doc| {
            stems.clear();
            for ids in words.fields(doc) {
                stems.extend(
                    ids.iter()
                        .map(|&id| &lx.words[id as usize])
                        .filter(|w| w.text.chars().nth(2).is_some())
                        .map(|w| w.stem),
                );
            }
            stems.sort_unstable();
            let mut counts: Vec<(u32, f32)> = Vec::new();
            for &s in &stems {
                match counts.last_mut() {
                    Some((last, c)) if *last == s => *c += 1.0,
                    _ => counts.push((s, 1.0)),
                }
            }
            counts
        })
        .collect()
}

/// The skills that take part in the overlap rule: enabled, not shadowed, with a description.
fn members(lib: &Library, enabled: &dyn Fn(usize) -> bool) -> Vec<usize> {
    (0..lib.skills.len())
        .filter(|&i| enabled(i) && lib.skills[i].shadowed_by.is_none())
        .filter(|&i| !lib.skills[i].description().trim().is_empty())
        .collect()
}

/// A hash of everything [`diagnostics`] reads: which skills take part, and their names and the
/// fields the matchers read (description, `when_to_use`, triggers).
pub fn input_key(lib: &Library, enabled: &dyn Fn(usize) -> bool) -> [u8; 32] {
    // The texts are short: gathered into a buffer and hashed 64 KiB at a time, so that blake3
    // works on many blocks at once rather than one block per call (the same hash as feeding
    // each text to the hasher).
    const STAGE: usize = 64 * 1024;
    let mut h = blake3::Hasher::new();
    let mut buf: Vec<u8> = Vec::with_capacity(STAGE);
    buf.extend_from_slice(b"overlap 1");
    let mut text = |t: &str| {
        buf.extend_from_slice(&(t.len() as u64).to_le_bytes());
        buf.extend_from_slice(t.as_bytes());
        if buf.len() >= STAGE {
            h.update(&buf);
            buf.clear();
        }
    };
    for i in members(lib, enabled) {
        let s = &lib.skills[i];
        text(&i.to_string());
        text(&s.name);
        text(s.description());
        text(s.frontmatter.when_to_use.as_deref().unwrap_or("\0"));
        for t in &s.frontmatter.triggers {
            text(t);
        }
        text("\0");
    }
    h.update(&buf);
    *h.finalize().as_bytes()
}

/// Groups of enabled skills that compete for the same messages. Shadowed copies are left out:
/// the agent never loads them, and duplicate names have their own rule.
pub fn clusters(lib: &Library, enabled: &dyn Fn(usize) -> bool) -> Vec<OverlapCluster> {
    let members = members(lib, enabled);
    let (lx, words) = tokenize(lib, &members);
    let ids = stem_counts(&lx, &words);
    let mut df: Vec<u32> = vec![0; lx.stems.len()];
    for doc in &ids {
        for &(s, _) in doc {
            df[s as usize] += 1;
        }
    }

    // A term shared by a large part of the library names a field, not a competition.
    let n = members.len();
    let max_df = (n / 50).max(10) as u32;
    let idf = |id: u32| ((n as f32 + 1.0) / (df[id as usize] as f32)).ln();
    let top: Vec<Vec<u32>> = ids
        .iter()
        .map(|t| {
            let mut scored: Vec<(u32, f32)> = t
                .iter()
                .filter(|(id, _)| (2..=max_df).contains(&df[*id as usize]))
                .map(|&(id, c)| (id, c.min(3.0) * idf(id)))
                .collect();
            scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            let mut ids: Vec<u32> = scored.into_iter().take(TOP_TERMS).map(|s| s.0).collect();
            ids.sort_unstable();
            ids
        })
        .collect();

    // Which members hold each distinctive term; pairs are counted from these lists only.
    let mut holders: Vec<Vec<u32>> = vec![Vec::new(); df.len()];
    for (m, t) in top.iter().enumerate() {
        for &id in t {
            holders[id as usize].push(m as u32);
        }
    }
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut shared = vec![0u8; n];
    let mut touched: Vec<u32> = Vec::new();
    for (a, t) in top.iter().enumerate() {
        for &id in t {
            for &b in &holders[id as usize] {
                if b as usize > a {
                    if shared[b as usize] == 0 {
                        touched.push(b);
                    }
                    shared[b as usize] += 1;
                }
            }
        }
        for b in touched.drain(..) {
            if shared[b as usize] as usize >= MIN_SHARED {
                union(&mut parent, a as u32, b);
            }
            shared[b as usize] = 0;
        }
    }

    let mut groups: HashMap<u32, Vec<usize>> = HashMap::new();
    for m in 0..n {
        let root = find(&mut parent, m as u32);
        groups.entry(root).or_default().push(m);
    }
    let mut out: Vec<OverlapCluster> = groups
        .into_values()
        .filter(|g| g.len() >= 2)
        .map(|g| {
            let mut count: HashMap<u32, usize> = HashMap::new();
            for &m in &g {
                for &id in &top[m] {
                    *count.entry(id).or_default() += 1;
                }
            }
            let mut common: Vec<(u32, usize)> =
                count.into_iter().filter(|&(_, c)| c >= 2).collect();
            common.sort_by(|a, b| {
                b.1.cmp(&a.1)
                    .then(lx.stem_display(a.0).cmp(lx.stem_display(b.0)))
            });
            OverlapCluster {
                skills: g.iter().map(|&m| members[m]).collect(),
                shared_terms: common
                    .into_iter()
                    .take(TERMS_SHOWN)
                    .map(|(id, _)| lx.stem_display(id).to_string())
                    .collect(),
            }
        })
        .collect();
    out.sort_by_key(|c| c.skills[0]);
    out
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        parent[ra.max(rb) as usize] = ra.min(rb);
    }
}

/// One warning per member of each cluster, naming the others and the shared terms.
pub fn diagnostics(lib: &Library, enabled: &dyn Fn(usize) -> bool) -> Vec<(usize, Diagnostic)> {
    let mut out = Vec::new();
    for c in clusters(lib, enabled) {
        for &i in &c.skills {
            let others: Vec<&str> = c
                .skills
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| lib.skills[j].name.as_str())
                .collect();
            let mut names = others
                .iter()
                .take(NAMES_SHOWN)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            if others.len() > NAMES_SHOWN {
                names.push_str(&format!(" and {} more", others.len() - NAMES_SHOWN));
            }
            let skill = &lib.skills[i];
            let d = Diagnostic::new(
                RULE,
                Severity::Warning,
                format!(
                    "the description competes with {names} for the same messages (shared terms: {}): \
                     say what sets this skill apart and when to pick it",
                    c.shared_terms.join(", ")
                ),
            )
            .at_line(skill.frontmatter.line_of("description"));
            out.push((i, d));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::matching::testlib::library;

    fn three_pdf_skills_and_others() -> (tempfile::TempDir, Library) {
        library(&[
            (
                "pdf-a",
                "name: pdf-a\ndescription: Extract text and tables from PDF invoices, merge scanned receipts, fill forms.",
            ),
            (
                "pdf-b",
                "name: pdf-b\ndescription: Merge PDF invoices and scanned receipts; extract tables and text.",
            ),
            (
                "pdf-c",
                "name: pdf-c\ndescription: Fill forms in PDF invoices, extract text from scanned receipts.",
            ),
            (
                "git",
                "name: git-commit\ndescription: Write commit messages for staged changes in a repository.",
            ),
            (
                "tests",
                "name: tdd\ndescription: Write the failing unit test first, then the implementation.",
            ),
            (
                "deploy",
                "name: deploy\ndescription: Ship services to production with canary releases and rollbacks.",
            ),
            (
                "poem",
                "name: poem\ndescription: Write poems, limericks and song lyrics about any subject.",
            ),
        ])
    }

    #[test]
    fn competing_descriptions_form_one_cluster_with_their_terms() {
        let (_t, lib) = three_pdf_skills_and_others();
        let got = clusters(&lib, &|_| true);
        assert_eq!(got.len(), 1, "{got:?}");
        let mut names: Vec<&str> = got[0]
            .skills
            .iter()
            .map(|&i| lib.skills[i].name.as_str())
            .collect();
        names.sort_unstable();
        assert_eq!(names, ["pdf-a", "pdf-b", "pdf-c"]);
        let terms = &got[0].shared_terms;
        assert!(terms.iter().any(|s| s == "invoices"), "{terms:?}");
        for t in terms {
            let holders = names.iter().filter(|n| {
                let d = lib.skills[lib.find(n).unwrap()]
                    .description()
                    .to_lowercase();
                d.contains(t.as_str())
            });
            assert!(holders.count() >= 2, "{t} is not shared: {terms:?}");
        }
    }

    #[test]
    fn one_diagnostic_per_member_naming_the_others() {
        let (_t, lib) = three_pdf_skills_and_others();
        let d = diagnostics(&lib, &|_| true);
        assert_eq!(d.len(), 3);
        let a = lib.find("pdf-a").unwrap();
        let (_, diag) = d.iter().find(|(i, _)| *i == a).unwrap();
        assert_eq!(
            (diag.rule, diag.severity),
            (RuleId::Overlap, Severity::Warning)
        );
        assert!(
            diag.message.contains("pdf-b") && diag.message.contains("pdf-c"),
            "{}",
            diag.message
        );
        assert!(!diag.message.contains("pdf-a"), "{}", diag.message);
        assert_eq!(diag.line, Some(3));
    }

    #[test]
    fn disabled_skills_leave_the_cluster() {
        let (_t, lib) = three_pdf_skills_and_others();
        let b = lib.find("pdf-b").unwrap();
        let c = lib.find("pdf-c").unwrap();
        assert!(clusters(&lib, &|i| i != b && i != c).is_empty());
    }

    #[test]
    fn many_names_are_cut_with_a_count() {
        let skills: Vec<(String, String)> = (0..7)
            .map(|i| {
                (
                    format!("s{i}"),
                    format!("name: s{i}\ndescription: Kubernetes helm charts rollout canary ingress manifests variant {i}."),
                )
            })
            .collect();
        let refs: Vec<(&str, &str)> = skills
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let (_t, lib) = library(&refs);
        let d = diagnostics(&lib, &|_| true);
        assert_eq!(d.len(), 7);
        assert!(d[0].1.message.contains("and 2 more"), "{}", d[0].1.message);
    }
}
