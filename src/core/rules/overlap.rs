//! The `overlap` rule: groups of skills whose descriptions compete for the same messages, found
//! through the distinctive terms they share and reported once per group, never pair by pair;
//! and, where the descriptions' sentence vectors are at hand, descriptions that mean nearly the
//! same in other words.

use crate::core::findings::diagnostic::{Diagnostic, RuleId, Severity};
use crate::core::library::Library;
use crate::core::matching::lexicon::{Lexicon, SkillWords, tokenize};
use crate::core::matching::semantic::{self, VectorKey};
use crate::core::matching::sentence::{DIM, MODEL_ID, dot};
use rustc_hash::FxHashMap;
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
/// Two descriptions whose sentence vectors are at least this near (cosine) mean nearly the
/// same. On the 625 skills of the paraphrase library, the pairs above it are rewordings of one
/// job (planning and writing the same migration tests, 0.94; a search-quality skill and its
/// diagnosis twin, 0.90); just below come siblings that do neighbouring jobs (a Spring Boot
/// project in Java and in Kotlin, 0.82).
pub const NEAR: f32 = 0.85;

/// Words nearly every skill description uses whatever its job ("Create a new skill when the
/// user asks to update an existing file"): sharing them says nothing about two skills competing.
/// English stop-words never reach the lexicon; these are compared by stem, so "creates" and
/// "creating" are left out with "create".
const GENERIC: &[&str] = &[
    "add",
    "agent",
    "automatic",
    "automatically",
    "base",
    "based",
    "best",
    "claude",
    "common",
    "create",
    "custom",
    "different",
    "existing",
    "general",
    "guidance",
    "guide",
    "handle",
    "help",
    "include",
    "including",
    "instruction",
    "instructions",
    "make",
    "manage",
    "mention",
    "new",
    "perform",
    "practice",
    "practices",
    "provide",
    "request",
    "skill",
    "skills",
    "specific",
    "support",
    "task",
    "tasks",
    "tool",
    "tools",
    "trigger",
    "update",
    "user",
    "users",
    "various",
    "work",
    "workflow",
    "workflows",
];

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
/// One skill installed for several agents (the same name and description in another agent's
/// folder, as `copy` and the installers make) takes part once: its copies do not compete with
/// it. Copies within one agent's folders still do (the agent loads both).
pub(crate) fn members(lib: &Library, enabled: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let mut agents_of: FxHashMap<(&str, &str), Vec<crate::core::source::Agent>> =
        FxHashMap::default();
    (0..lib.skills.len())
        .filter(|&i| enabled(i) && lib.skills[i].shadowed_by.is_none())
        .filter(|&i| !lib.skills[i].description().trim().is_empty())
        .filter(|&i| {
            let s = &lib.skills[i];
            let agents = agents_of
                .entry((s.name.as_str(), s.description()))
                .or_default();
            let for_another_agent = !agents.is_empty() && !agents.contains(&s.agent);
            if !for_another_agent {
                agents.push(s.agent);
            }
            !for_another_agent
        })
        .collect()
}

/// A hash of everything [`diagnostics`] reads: which skills take part, their names and the
/// fields the matchers read (description, `when_to_use`, triggers), and whether their
/// descriptions were compared by meaning too (their vectors are made from the name and
/// description by the model `MODEL_ID` names, so they need no hash of their own).
pub fn input_key(lib: &Library, enabled: &dyn Fn(usize) -> bool, by_meaning: bool) -> [u8; 32] {
    input_key_of(lib, &members(lib, enabled), by_meaning)
}

/// [`input_key`] of the [`members`] already found.
pub(crate) fn input_key_of(lib: &Library, members: &[usize], by_meaning: bool) -> [u8; 32] {
    // The texts are short: gathered into a buffer and hashed 64 KiB at a time, so that blake3
    // works on many blocks at once rather than one block per call (the same hash as feeding
    // each text to the hasher).
    const STAGE: usize = 64 * 1024;
    let mut h = blake3::Hasher::new();
    let mut buf: Vec<u8> = Vec::with_capacity(STAGE);
    buf.extend_from_slice(b"overlap 3");
    if by_meaning {
        buf.extend_from_slice(b" meaning ");
        buf.extend_from_slice(MODEL_ID.as_bytes());
        buf.extend_from_slice(&NEAR.to_le_bytes());
    }
    buf.push(0);
    let mut text = |t: &str| {
        buf.extend_from_slice(&(t.len() as u64).to_le_bytes());
        buf.extend_from_slice(t.as_bytes());
        if buf.len() >= STAGE {
            h.update(&buf);
            buf.clear();
        }
    };
    for &i in members {
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

    // A term shared by a large part of the library names a field, not a competition: more than
    // 2% of a large library (at least ten skills, so that a small library made of competitors
    // is still seen as one), and the generic words of skill descriptions wherever they are.
    let n = members.len();
    let max_df = (n / 50).max(10) as u32;
    let mut generic = vec![false; lx.stems.len()];
    for w in GENERIC {
        if let Some(id) = lx.stem_id(&crate::core::matching::text::stem(w)) {
            generic[id as usize] = true;
        }
    }
    let idf = |id: u32| ((n as f32 + 1.0) / (df[id as usize] as f32)).ln();
    let top: Vec<Vec<u32>> = ids
        .iter()
        .map(|t| {
            let mut scored: Vec<(u32, f32)> = t
                .iter()
                .filter(|(id, _)| {
                    !generic[*id as usize] && (2..=max_df).contains(&df[*id as usize])
                })
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

/// Whether the rule compared the descriptions by meaning too, in one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// Every competing description had its sentence vector: descriptions that mean nearly the
    /// same in other words were looked for too.
    Compared,
    /// `missing` of the `of` competing descriptions have no sentence vector yet: words alone
    /// were compared.
    Missing {
        /// Descriptions without a vector.
        missing: usize,
        /// Descriptions that compete.
        of: usize,
    },
}

impl Meaning {
    /// Whether every competing description has its vector (`has` says which texts have one,
    /// by their key).
    pub fn of(
        lib: &Library,
        enabled: &dyn Fn(usize) -> bool,
        has: &dyn Fn(&VectorKey) -> bool,
    ) -> Meaning {
        Meaning::of_members(lib, &members(lib, enabled), has)
    }

    /// [`Meaning::of`] the [`members`] already found.
    pub(crate) fn of_members(
        lib: &Library,
        members: &[usize],
        has: &dyn Fn(&VectorKey) -> bool,
    ) -> Meaning {
        let missing = members
            .iter()
            .filter(|&&i| !semantic::description_key(&lib.skills[i]).is_some_and(|k| has(&k)))
            .count();
        Meaning::missing(missing, members.len())
    }

    /// [`Meaning::of`] when no text has a vector: every member's is missing, found without
    /// making any text's key.
    pub(crate) fn without_vectors(members: &[usize]) -> Meaning {
        Meaning::missing(members.len(), members.len())
    }

    fn missing(missing: usize, of: usize) -> Meaning {
        if missing == 0 {
            Meaning::Compared
        } else {
            Meaning::Missing { missing, of }
        }
    }
}

/// The sentence vectors of the competing descriptions, for the comparison by meaning.
pub struct Meanings {
    /// The skills that take part, in library order.
    skills: Vec<usize>,
    /// Each one's row: copies of one text (one skill in several collections) share a row.
    row_of: Vec<u32>,
    /// [`DIM`] floats per distinct description text, at the precision the library index keeps
    /// them (so that a run that has just embedded them finds what a later run finds).
    rows: Vec<f32>,
}

impl Meanings {
    /// The vectors of the competing descriptions, found in `vectors` by the key of their text
    /// ([`semantic::description_key`]); when any has none, how many have none
    /// ([`Meaning::Missing`]).
    pub fn gather(
        lib: &Library,
        enabled: &dyn Fn(usize) -> bool,
        vectors: &FxHashMap<VectorKey, Vec<f32>>,
    ) -> Result<Meanings, Meaning> {
        Self::gather_by(lib, enabled, &|k| vectors.get(k).map(Vec::as_slice))
    }

    /// [`Meanings::gather`] with the vectors looked up by `vector`.
    pub fn gather_by<'v>(
        lib: &Library,
        enabled: &dyn Fn(usize) -> bool,
        vector: &dyn Fn(&VectorKey) -> Option<&'v [f32]>,
    ) -> Result<Meanings, Meaning> {
        let skills = members(lib, enabled);
        let keys: Vec<Option<VectorKey>> = skills
            .iter()
            .map(|&i| semantic::description_key(&lib.skills[i]))
            .collect();
        let vector = |k: &Option<VectorKey>| k.as_ref().and_then(vector).filter(|v| v.len() == DIM);
        let missing = keys.iter().filter(|k| vector(k).is_none()).count();
        if missing > 0 {
            return Err(Meaning::Missing {
                missing,
                of: skills.len(),
            });
        }
        let mut row_by_key: FxHashMap<VectorKey, u32> = FxHashMap::default();
        let mut rows = Vec::new();
        let mut row_of = Vec::with_capacity(skills.len());
        for k in &keys {
            let (Some(key), Some(v)) = (k, vector(k)) else {
                continue;
            };
            let next = row_by_key.len() as u32;
            let row = *row_by_key.entry(*key).or_insert(next);
            if row == next {
                rows.extend(v.iter().map(|&x| half::f16::from_f32(x).to_f32()));
            }
            row_of.push(row);
        }
        Ok(Meanings {
            skills,
            row_of,
            rows,
        })
    }

    fn row(&self, r: u32) -> &[f32] {
        let r = r as usize;
        &self.rows[r * DIM..(r + 1) * DIM]
    }

    /// For each skill that has any, the descriptions near its own in meaning that the lexical
    /// clusters do not already put beside it, one per distinct text, nearest first.
    fn near(&self, lib: &Library, clusters: &[OverlapCluster]) -> Vec<(usize, Vec<Near>)> {
        let mut cluster_of: FxHashMap<usize, usize> = FxHashMap::default();
        for (c, cluster) in clusters.iter().enumerate() {
            for &i in &cluster.skills {
                cluster_of.insert(i, c);
            }
        }
        let apart = |i: usize, j: usize| {
            i != j && (!cluster_of.contains_key(&i) || cluster_of.get(&i) != cluster_of.get(&j))
        };
        let n = self.rows.len() / DIM;
        let mut holders: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (m, &r) in self.row_of.iter().enumerate() {
            holders[r as usize].push(self.skills[m]);
        }
        // Copies of one text are as near as two texts can be.
        let copies = (0..n as u32)
            .filter(|&r| holders[r as usize].len() > 1)
            .map(|r| (r, r, dot(self.row(r), self.row(r))));
        let mut found: FxHashMap<usize, Vec<(u32, usize, f32)>> = FxHashMap::default();
        for (a, b, sim) in near_rows(&self.rows).into_iter().chain(copies) {
            for (from, to) in [(a, b), (b, a)] {
                for &i in &holders[from as usize] {
                    if let Some(&j) = holders[to as usize].iter().find(|&&j| apart(i, j)) {
                        found.entry(i).or_default().push((to, j, sim));
                    }
                }
                if a == b {
                    break;
                }
            }
        }
        let mut out: Vec<(usize, Vec<Near>)> = found
            .into_iter()
            .map(|(i, mut near)| {
                let own = self.row_of[self.skills.binary_search(&i).unwrap_or_default()];
                near.sort_by(|x, y| {
                    y.2.total_cmp(&x.2)
                        .then_with(|| lib.skills[x.1].name.cmp(&lib.skills[y.1].name))
                        .then(x.0.cmp(&y.0))
                });
                near.dedup_by_key(|x| x.0);
                let near = near
                    .into_iter()
                    .map(|(row, skill, similarity)| Near {
                        skill,
                        similarity,
                        copy: row == own,
                    })
                    .collect();
                (i, near)
            })
            .collect();
        out.sort_by_key(|x| x.0);
        out
    }
}

/// A description near another's in meaning.
struct Near {
    /// A skill with that description.
    skill: usize,
    similarity: f32,
    /// The same name and description: a copy of the skill (in another collection, say).
    copy: bool,
}

/// Every pair of distinct rows (row-major, [`DIM`] floats each) at least [`NEAR`] in cosine,
/// as (row, later row, similarity), in row order.
fn near_rows(rows: &[f32]) -> Vec<(u32, u32, f32)> {
    // Matrix products (on whatever vector instructions the processor has), a block of rows on
    // each core, do the corpus's ten million comparisons several times faster than a loop of
    // dot products; the loop stays for what they must agree with.
    near_rows_by_product(rows).unwrap_or_else(|_| near_rows_one_by_one(rows))
}

/// [`near_rows`] as matrix products, a block of rows at a time against every later row.
fn near_rows_by_product(
    rows: &[f32],
) -> Result<Vec<(u32, u32, f32)>, crate::core::matching::matrix::MatrixError> {
    use crate::core::matching::matrix::{Matrix, MatrixError, gemm};
    use rayon::prelude::*;
    const BLOCK: usize = 256;
    let n = rows.len() / DIM;
    let blocks: Vec<Vec<(u32, u32, f32)>> = (0..n)
        .step_by(BLOCK)
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|first| {
            let len = BLOCK.min(n - first);
            // The block against itself and the rows after it: each pair once.
            let width = n - first;
            let mut sims = vec![0f32; len * width];
            let from = &rows[first * DIM..n * DIM];
            gemm(
                Matrix::new(from, len, DIM, DIM, 1),
                // The later rows read as columns.
                Matrix::new(from, DIM, width, 1, DIM),
                1.0,
                &mut sims,
                width,
            )?;
            let mut near = Vec::new();
            for i in 0..len {
                let a = first + i;
                for (j, &sim) in sims[i * width..(i + 1) * width]
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                {
                    if sim >= NEAR {
                        near.push((a as u32, (first + j) as u32, sim));
                    }
                }
            }
            Ok(near)
        })
        .collect::<Result<_, MatrixError>>()?;
    Ok(blocks.concat())
}

/// [`near_rows`] one dot product at a time: what the matrix product must agree with, and what
/// runs if it cannot.
fn near_rows_one_by_one(rows: &[f32]) -> Vec<(u32, u32, f32)> {
    let n = rows.len() / DIM;
    let row = |r: usize| &rows[r * DIM..(r + 1) * DIM];
    let mut near = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let sim = dot(row(a), row(b));
            if sim >= NEAR {
                near.push((a as u32, b as u32, sim));
            }
        }
    }
    near
}

/// `a, b, c and 2 more`: at most [`NAMES_SHOWN`] of `names`, then how many more there are.
fn listed(names: &[String]) -> String {
    let mut s = names
        .iter()
        .take(NAMES_SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMES_SHOWN {
        s.push_str(&format!(" and {} more", names.len() - NAMES_SHOWN));
    }
    s
}

/// One warning per member of each cluster, naming the others and the shared terms; with
/// `meanings`, one more for each skill whose description means nearly the same as others that
/// no cluster puts beside it, naming them with their similarity.
pub fn diagnostics(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    meanings: Option<&Meanings>,
) -> Vec<(usize, Diagnostic)> {
    let clusters = clusters(lib, enabled);
    let mut out = Vec::new();
    for c in &clusters {
        for &i in &c.skills {
            let others: Vec<String> = c
                .skills
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| lib.skills[j].name.clone())
                .collect();
            let skill = &lib.skills[i];
            let d = Diagnostic::new(
                RULE,
                Severity::Warning,
                format!(
                    "the description competes with {} for the same messages (shared terms: {}): \
                     say what sets this skill apart and when to pick it",
                    listed(&others),
                    c.shared_terms.join(", ")
                ),
            )
            .at_line(skill.frontmatter.line_of("description"));
            out.push((i, d));
        }
    }
    let Some(meanings) = meanings else {
        return out;
    };
    for (i, near) in meanings.near(lib, &clusters) {
        let skill = &lib.skills[i];
        let d = Diagnostic::new(RULE, Severity::Warning, by_meaning_message(lib, &near))
            .at_line(skill.frontmatter.line_of("description"));
        out.push((i, d));
    }
    out
}

/// The warning of a skill whose description is near `near`'s in meaning: each named with its
/// similarity (a copy of the skill as such), nearest first.
fn by_meaning_message(lib: &Library, near: &[Near]) -> String {
    let mut said_similarity = false;
    let others: Vec<String> = near
        .iter()
        .map(|n| {
            let name = &lib.skills[n.skill].name;
            if n.copy {
                format!("`{name}` (the same text)")
            } else if said_similarity {
                format!("`{name}` ({:.2})", n.similarity)
            } else {
                said_similarity = true;
                format!("`{name}` (similarity {:.2})", n.similarity)
            }
        })
        .collect();
    if let [only] = near
        && only.copy
    {
        format!(
            "another copy of `{}` (the same name and description) is loaded too: keep one copy, \
             or say what sets this skill apart and when to pick it",
            lib.skills[only.skill].name
        )
    } else {
        format!(
            "the description means nearly the same as {}{} though they share few distinctive \
             terms: say what sets this skill apart and when to pick it",
            listed(&others),
            if others.len() > 1 { "," } else { "" }
        )
    }
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
        let d = diagnostics(&lib, &|_| true, None);
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
    fn skills_sharing_only_generic_words_do_not_overlap_and_true_competitors_still_do() {
        let (_t, lib) = library(&[
            (
                "skill-writer",
                "name: skill-writer\ndescription: Create a new skill or update an existing skill when the user asks; helps the user manage skill tasks and workflows.",
            ),
            (
                "report-builder",
                "name: report-builder\ndescription: Creates a new report or updates an existing report for users; helps manage report tasks and workflows.",
            ),
            (
                "pdf-a",
                "name: pdf-a\ndescription: Extract text and tables from PDF invoices, merge scanned receipts, fill forms.",
            ),
            (
                "pdf-b",
                "name: pdf-b\ndescription: Merge PDF invoices and scanned receipts; extract tables and text.",
            ),
            (
                "git",
                "name: git-commit\ndescription: Write commit messages for staged changes in a repository.",
            ),
            (
                "poem",
                "name: poem\ndescription: Write poems, limericks and song lyrics about any subject.",
            ),
        ]);
        let got = clusters(&lib, &|_| true);
        let names: Vec<Vec<&str>> = got
            .iter()
            .map(|c| {
                let mut n: Vec<&str> = c
                    .skills
                    .iter()
                    .map(|&i| lib.skills[i].name.as_str())
                    .collect();
                n.sort_unstable();
                n
            })
            .collect();
        assert_eq!(names, [["pdf-a", "pdf-b"]], "{got:?}");
        for t in &got[0].shared_terms {
            assert!(
                !["create", "existing", "skill", "user", "new", "update"].contains(&t.as_str()),
                "{t} is a generic word: {got:?}"
            );
        }
    }

    #[test]
    fn disabled_skills_leave_the_cluster() {
        let (_t, lib) = three_pdf_skills_and_others();
        let b = lib.find("pdf-b").unwrap();
        let c = lib.find("pdf-c").unwrap();
        assert!(clusters(&lib, &|i| i != b && i != c).is_empty());
    }

    /// A unit vector with these components (the rest 0).
    fn unit(parts: &[(usize, f32)]) -> Vec<f32> {
        let mut v = vec![0.0; DIM];
        for &(i, x) in parts {
            v[i] = x;
        }
        let norm = dot(&v, &v).sqrt();
        v.iter().map(|x| x / norm).collect()
    }

    /// Hand-made description vectors, by the name of the skill whose description each is.
    fn vectors(lib: &Library, of: &[(&str, Vec<f32>)]) -> FxHashMap<VectorKey, Vec<f32>> {
        of.iter()
            .map(|(name, v)| {
                let skill = &lib.skills[lib.find(name).unwrap()];
                (semantic::description_key(skill).unwrap(), v.clone())
            })
            .collect()
    }

    /// The warnings of the comparison by meaning, by the name of the skill each is about.
    fn by_meaning(
        lib: &Library,
        enabled: &dyn Fn(usize) -> bool,
        v: &FxHashMap<VectorKey, Vec<f32>>,
    ) -> Vec<(String, String)> {
        let m = Meanings::gather(lib, enabled, v).unwrap();
        let mut out: Vec<(String, String)> = diagnostics(lib, enabled, Some(&m))
            .into_iter()
            .filter(|(_, d)| !d.message.contains("competes with"))
            .map(|(i, d)| (lib.skills[i].name.clone(), d.message))
            .collect();
        out.sort();
        out
    }

    fn handoff_and_others() -> (tempfile::TempDir, Library) {
        library(&[
            (
                "brief",
                "name: shift-brief\ndescription: Hand the pager over at the end of a rotation, with what is still burning.",
            ),
            (
                "handoff",
                "name: on-call-handoff\ndescription: Pass on-call duty to the next engineer with context and open incidents.",
            ),
            (
                "poem",
                "name: poem\ndescription: Write poems, limericks and song lyrics about any subject.",
            ),
            (
                "lyrics",
                "name: lyrics\ndescription: Compose verses for a melody in a chosen style.",
            ),
            (
                "sql",
                "name: sql\ndescription: Make slow database queries faster.",
            ),
        ])
    }

    fn handoff_vectors(lib: &Library) -> FxHashMap<VectorKey, Vec<f32>> {
        vectors(
            lib,
            &[
                // cos 0.93: the same job in other words.
                ("shift-brief", unit(&[(0, 1.0)])),
                ("on-call-handoff", unit(&[(0, 1.0), (1, 0.4)])),
                // cos 0.80: one field, different jobs.
                ("poem", unit(&[(2, 1.0)])),
                ("lyrics", unit(&[(2, 0.8), (3, 0.6)])),
                ("sql", unit(&[(4, 1.0)])),
            ],
        )
    }

    #[test]
    fn a_near_pair_sharing_few_words_is_flagged_and_a_far_pair_is_not() {
        let (_t, lib) = handoff_and_others();
        // The words alone find nothing.
        assert!(clusters(&lib, &|_| true).is_empty());
        assert!(diagnostics(&lib, &|_| true, None).is_empty());
        let got = by_meaning(&lib, &|_| true, &handoff_vectors(&lib));
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["on-call-handoff", "shift-brief"], "{got:?}");
        assert!(
            got[0].1.starts_with(
                "the description means nearly the same as `shift-brief` (similarity 0.93) though"
            ),
            "{}",
            got[0].1
        );
        assert!(got[1].1.contains("`on-call-handoff` (similarity 0.93)"));
        for (_, m) in &got {
            assert!(!m.contains("poem") && !m.contains("lyrics"), "{m}");
        }
        // Where the warning points: the description's line.
        let m = Meanings::gather(&lib, &|_| true, &handoff_vectors(&lib)).unwrap();
        let d = diagnostics(&lib, &|_| true, Some(&m));
        assert!(d.iter().all(|(_, d)| d.line == Some(3)
            && (d.rule, d.severity) == (RuleId::Overlap, Severity::Warning)));
    }

    #[test]
    fn a_pair_already_in_a_lexical_cluster_is_not_flagged_twice() {
        let (_t, lib) = three_pdf_skills_and_others();
        let near_pdf = |x: f32| unit(&[(0, 1.0), (1, x)]);
        let v = vectors(
            &lib,
            &[
                ("pdf-a", near_pdf(0.0)),
                ("pdf-b", near_pdf(0.1)),
                ("pdf-c", near_pdf(0.2)),
                // Near pdf-a in meaning (0.91), in no cluster with it.
                ("git-commit", unit(&[(0, 1.0), (2, 0.45)])),
                ("tdd", unit(&[(3, 1.0)])),
                ("deploy", unit(&[(4, 1.0)])),
                ("poem", unit(&[(5, 1.0)])),
            ],
        );
        let got = by_meaning(&lib, &|_| true, &v);
        // git-commit is near all three; each pdf skill names git-commit alone, never the
        // others of its cluster.
        assert_eq!(got.len(), 4, "{got:?}");
        for (name, m) in &got {
            if name == "git-commit" {
                assert!(m.contains("`pdf-a`") && m.contains("`pdf-b`") && m.contains("`pdf-c`"));
            } else {
                assert!(name.starts_with("pdf-"), "{name}");
                assert!(m.contains("`git-commit`"), "{m}");
                assert!(!m.contains("`pdf-"), "{m}");
            }
        }
        // The cluster's own warnings are still there, one each.
        let m = Meanings::gather(&lib, &|_| true, &v).unwrap();
        let lexical = diagnostics(&lib, &|_| true, Some(&m))
            .into_iter()
            .filter(|(_, d)| d.message.contains("competes with"))
            .count();
        assert_eq!(lexical, 3);
    }

    #[test]
    fn disabled_and_shadowed_skills_are_left_out() {
        let (_t, mut lib) = handoff_and_others();
        let mut v = handoff_vectors(&lib);
        let brief = lib.find("shift-brief").unwrap();
        let handoff = lib.find("on-call-handoff").unwrap();
        assert_eq!(by_meaning(&lib, &|_| true, &v).len(), 2);
        assert!(by_meaning(&lib, &|i| i != brief, &v).is_empty());
        // A skill left out needs no vector.
        v.remove(&semantic::description_key(&lib.skills[brief]).unwrap());
        assert!(Meanings::gather(&lib, &|_| true, &v).is_err());
        assert!(by_meaning(&lib, &|i| i != brief, &v).is_empty());
        let v = handoff_vectors(&lib);
        let sql = lib.find("sql").unwrap();
        lib.skills[handoff].shadowed_by = Some(sql);
        assert!(by_meaning(&lib, &|_| true, &v).is_empty());
    }

    #[test]
    fn without_every_vector_the_words_alone_are_compared() {
        let (_t, lib) = handoff_and_others();
        let mut v = handoff_vectors(&lib);
        v.remove(&semantic::description_key(&lib.skills[lib.find("poem").unwrap()]).unwrap());
        // A vector of another length is no vector.
        let sql = semantic::description_key(&lib.skills[lib.find("sql").unwrap()]).unwrap();
        v.insert(sql, vec![1.0; 3]);
        match Meanings::gather(&lib, &|_| true, &v) {
            Err(m) => assert_eq!(m, Meaning::Missing { missing: 2, of: 5 }),
            Ok(_) => panic!("two descriptions have no vector"),
        }
    }

    #[test]
    fn copies_of_one_text_are_named_once() {
        let (_t, mut lib) = library(&[
            ("a/tidy", "name: tidy\ndescription: Tidy code."),
            ("b/tidy", "name: tidy\ndescription: Tidy code."),
            ("c/tidy", "name: tidy\ndescription: Tidy code."),
            ("neat", "name: neat\ndescription: Make programs clean."),
            (
                "sql",
                "name: sql\ndescription: Make slow database queries faster.",
            ),
        ]);
        // Three collections, each with its copy: none shadows another.
        for s in &mut lib.skills {
            s.shadowed_by = None;
        }
        assert!(clusters(&lib, &|_| true).is_empty());
        let v = vectors(
            &lib,
            &[
                ("tidy", unit(&[(0, 1.0)])),
                ("neat", unit(&[(0, 1.0), (1, 0.5)])),
                ("sql", unit(&[(2, 1.0)])),
            ],
        );
        let got = by_meaning(&lib, &|_| true, &v);
        assert_eq!(got.len(), 4, "{got:?}");
        let (neat, copies): (Vec<_>, Vec<_>) = got.iter().partition(|(n, _)| n == "neat");
        // The three copies are one text: named once, with the similarity of their vectors.
        assert_eq!(neat[0].1.matches("`tidy`").count(), 1, "{}", neat[0].1);
        assert!(neat[0].1.contains("(similarity 0.89)"), "{}", neat[0].1);
        for (_, m) in copies {
            assert!(
                m.starts_with("the description means nearly the same as `tidy` (the same text), `neat` (similarity 0.89), though"),
                "{m}"
            );
        }
        // Without the neighbour, the copies are named as such.
        let neat = lib.find("neat").unwrap();
        let got = by_meaning(&lib, &|i| i != neat, &v);
        assert_eq!(got.len(), 3, "{got:?}");
        for (_, m) in &got {
            assert_eq!(
                m,
                "another copy of `tidy` (the same name and description) is loaded too: keep one \
                 copy, or say what sets this skill apart and when to pick it"
            );
        }
    }

    #[test]
    fn one_skill_installed_for_two_agents_is_no_competitor_of_itself() {
        use crate::core::source::Agent;
        let (_t, mut lib) = library(&[
            ("a/tidy", "name: tidy\ndescription: Tidy code."),
            ("b/tidy", "name: tidy\ndescription: Tidy code."),
            ("neat", "name: neat\ndescription: Make programs clean."),
        ]);
        for s in &mut lib.skills {
            s.shadowed_by = None;
        }
        let v = vectors(
            &lib,
            &[("tidy", unit(&[(0, 1.0)])), ("neat", unit(&[(2, 1.0)]))],
        );
        // Two copies for one agent: the agent loads both, so they are named.
        let neat = lib.find("neat").unwrap();
        assert_eq!(by_meaning(&lib, &|i| i != neat, &v).len(), 2);
        // The same skill in Claude Code's folder and Codex's: one skill, no finding.
        let tidy: Vec<usize> = (0..lib.len())
            .filter(|&i| lib.skills[i].name == "tidy")
            .collect();
        lib.skills[tidy[0]].agent = Agent::ClaudeCode;
        lib.skills[tidy[1]].agent = Agent::Codex;
        assert!(by_meaning(&lib, &|i| i != neat, &v).is_empty());
        assert!(clusters(&lib, &|_| true).is_empty());
    }

    #[test]
    fn the_remembered_answer_is_the_one_for_the_same_vectors() {
        use crate::core::index::IndexStore;
        use crate::core::rules::{CheckOptions, check};
        use crate::core::scan::ScanOptions;
        use crate::core::source::{Agent, Root, Scope};
        let (t, lib) = handoff_and_others();
        let store = IndexStore::in_dir(t.path().join(".cache"));
        let load = || {
            Library::load_indexed(
                vec![Root::new(t.path(), Agent::Path, Scope::Path)],
                &ScanOptions::default(),
                &store,
            )
            .0
        };
        let everything: Vec<(VectorKey, Vec<f32>)> = handoff_vectors(&lib).into_iter().collect();
        let run = |lib: &Library| {
            let c = check(lib, &CheckOptions::default());
            let near = c
                .diagnostics
                .iter()
                .flatten()
                .filter(|d| d.message.contains("means nearly the same"))
                .count();
            assert!(lib.save_index().is_none());
            (c.meaning, near)
        };
        let missing = Meaning::Missing { missing: 5, of: 5 };
        assert_eq!(run(&load()), (missing, 0));
        // The vectors come (a semantic match made them): the words-only answer is not served.
        let lib = load();
        lib.remember_vectors(everything.clone());
        assert_eq!(run(&lib), (Meaning::Compared, 2));
        // Remembered, and served again.
        let lib = load();
        let key = input_key(&lib, &|_| true, true);
        assert!(lib.remembered(&key).is_some());
        assert_eq!(run(&lib), (Meaning::Compared, 2));
        // One vector gone: the answer by meaning is not served either.
        let lib = load();
        lib.remember_vectors(everything[1..].to_vec());
        assert_eq!(run(&lib).1, 0);
        assert!(matches!(
            run(&load()).0,
            Meaning::Missing { missing: 1, .. }
        ));
        // Given by the caller, the vectors are used without the index's.
        let lib = load();
        let given: FxHashMap<VectorKey, Vec<f32>> = everything.into_iter().collect();
        let c = check(
            &lib,
            &CheckOptions {
                vectors: Some(&given),
                ..CheckOptions::default()
            },
        );
        assert_eq!(c.meaning, Meaning::Compared);
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn the_matrix_product_finds_the_pairs_the_dot_products_find() {
        // Rows in groups of near neighbours (a shared direction, each its own small part) and
        // loners, more rows than a block, so that pairs cross blocks.
        let mut rows = Vec::new();
        let mut seed = 7u64;
        let mut noise = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        for r in 0..700 {
            let mut v: Vec<f32> = (0..DIM).map(|_| noise()).collect();
            let group = r % 90;
            if group < 30 {
                for x in &mut v {
                    *x *= 0.2;
                }
                v[group] += 4.0;
            }
            let norm = dot(&v, &v).sqrt();
            rows.extend(v.iter().map(|x| x / norm));
        }
        let by_product = near_rows_by_product(&rows).unwrap();
        let one_by_one = near_rows_one_by_one(&rows);
        assert!(one_by_one.len() > 100, "{}", one_by_one.len());
        let pairs = |v: &[(u32, u32, f32)]| v.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>();
        assert_eq!(pairs(&by_product), pairs(&one_by_one));
        for (p, q) in by_product.iter().zip(&one_by_one) {
            assert!((p.2 - q.2).abs() < 1e-4, "{p:?} {q:?}");
        }
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
        let d = diagnostics(&lib, &|_| true, None);
        assert_eq!(d.len(), 7);
        assert!(d[0].1.message.contains("and 2 more"), "{}", d[0].1.message);
    }

    #[test]
    fn many_near_names_are_cut_with_a_count() {
        let words = [
            "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
        ];
        let skills: Vec<(String, String)> = words
            .iter()
            .map(|w| {
                (
                    w.to_string(),
                    format!("name: {w}\ndescription: The {w} way."),
                )
            })
            .collect();
        let refs: Vec<(&str, &str)> = skills
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let (_t, lib) = library(&refs);
        let near: Vec<(&str, Vec<f32>)> = words
            .iter()
            .enumerate()
            .map(|(i, w)| (*w, unit(&[(0, 1.0), (i + 1, 0.1)])))
            .collect();
        let got = by_meaning(&lib, &|_| true, &vectors(&lib, &near));
        assert_eq!(got.len(), 7);
        for (name, m) in &got {
            assert!(m.contains("(0.99) and 2 more, though"), "{m}");
            assert_eq!(m.matches('`').count(), 8, "{m}");
            assert!(!m.contains(&format!("`{name}`")), "{m}");
        }
    }
}
