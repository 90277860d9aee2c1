//! The price of a change before it is written: each skill's verdict under the target agent's
//! profile, its tokens per level and the executables it carries; and what the change does to
//! that agent's listing (tokens per turn, fates that change), as a budget baseline diff.

use super::stage::Staged;
use super::{Target, format_for, profile_for};
use crate::core::Library;
use crate::core::findings::diagnostic::{Counts, Severity};
use crate::core::front::state;
use crate::core::index::IndexStore;
use crate::core::listing::{self, Format, Tier};
use crate::core::pricing::baseline::{self, Diff, Fate, SkillRecord, Snapshot, Totals};
use crate::core::rules::{self, CheckOptions};
use crate::core::scan::ScanOptions;
use crate::core::skill::Skill;
use crate::core::source::{Agent, Root, Scope};
use crate::core::tokens::{self, Encoding, TokenCache};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A finding as a verdict quotes it: where it is as `check` says it (`SKILL.md:3:19`, the file
/// relative to the skill's folder), then the severity, the rule and the message.
fn quoted(
    d: &crate::core::findings::diagnostic::Diagnostic,
    skill_dir: Option<&std::path::Path>,
) -> String {
    let at = d.line.map(|l| {
        let file = d
            .path
            .as_deref()
            .and_then(|p| skill_dir.and_then(|dir| p.strip_prefix(dir).ok()))
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| "SKILL.md".to_string(), |p| p.display().to_string());
        match d.column {
            Some(c) => format!("{file}:{l}:{c}: "),
            None => format!("{file}:{l}: "),
        }
    });
    format!(
        "{}{} {}: {}",
        at.unwrap_or_default(),
        d.severity,
        d.rule,
        d.message
    )
}

/// How many rule findings a verdict quotes.
const QUOTED: usize = 3;

/// A skill's verdict under a profile.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Findings at error level.
    pub errors: usize,
    /// Findings at warning level.
    pub warnings: usize,
    /// The first findings, errors first.
    pub findings: Vec<String>,
}

impl Verdict {
    /// `ok`, `2 warnings`, `1 error, 2 warnings`.
    pub fn label(&self) -> String {
        let n = |k: usize, w: &str| {
            if k == 1 {
                format!("1 {w}")
            } else {
                format!("{k} {w}s")
            }
        };
        match (self.errors, self.warnings) {
            (0, 0) => "ok".to_string(),
            (0, w) => n(w, "warning"),
            (e, 0) => n(e, "error"),
            (e, w) => format!("{}, {}", n(e, "error"), n(w, "warning")),
        }
    }
}

/// Tokens of each level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Levels {
    /// Its entry in the agent's listing format.
    pub l1: Option<u32>,
    /// The whole SKILL.md.
    pub l2: Option<u32>,
    /// Its text resources.
    pub l3: Option<u32>,
}

/// Whether a skill is left out of an install unless picked by hand: it has errors under the
/// target agent's profile (the policy [`super::Plan::choose`] applies and the app's Add flow
/// starts from).
pub fn left_out_unpicked(p: &Priced) -> bool {
    p.verdict.errors > 0
}

/// One skill of the change, priced.
#[derive(Debug, Clone, Serialize)]
pub struct Priced {
    /// The folder it will be installed as.
    pub folder: String,
    /// Its name.
    pub name: String,
    /// Its folder inside the source.
    pub subfolder: String,
    /// Its description.
    pub description: String,
    /// Its type: `contextual`, `executable` or `composite`.
    pub kind: &'static str,
    /// Its findings under the target agent's profile.
    pub verdict: Verdict,
    /// Its tokens per level.
    pub tokens: Levels,
    /// Files that could run (never run by skillscope).
    pub executables: Vec<String>,
    /// What the copy left out.
    pub notes: Vec<String>,
    /// What is at its place in the agent's folder now, if anything.
    pub clash: Option<PathBuf>,
}

/// A skill whose fate in the agent's listing changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FateChange {
    /// Its name.
    pub name: String,
    /// Its folder.
    pub dir: String,
    /// Its fate before the change; `None` when it was not offered.
    pub before: Option<Fate>,
    /// Its fate after the change; `None` when it is not offered.
    pub after: Option<Fate>,
}

/// What the change does to the agent's listing.
#[derive(Debug, Clone, Serialize)]
pub struct ListingChange {
    /// The agent's listing format.
    pub format: Format,
    /// Tokens per turn before and after.
    pub per_turn: baseline::TurnChange,
    /// Skills listed before and after.
    pub skills: baseline::TurnChange,
    /// The tier before.
    pub tier_before: Tier,
    /// The tier after.
    pub tier_after: Tier,
    /// Added skills' fates, and every fate that changes for a skill already there.
    pub fates: Vec<FateChange>,
    /// Skills already there that leave the listing.
    pub drops: usize,
}

/// What is needed to price a change for one target.
pub struct Pricing {
    /// The folder the skills go to.
    pub target: Target,
    /// The agent's listing format.
    pub format: Format,
    /// The encoding the tokens are counted in.
    pub encoding: Encoding,
    /// The context window the listing's budget is a share of.
    pub context_window: usize,
    /// The agent's skills as they are.
    before: Library,
    /// The staged skills, read where they are staged.
    staged: Library,
    /// Each staged skill's index in `staged`, by folder.
    by_folder: HashMap<String, usize>,
    /// Figures of the skills replaced (L2, L3), by their folder.
    replaced_levels: HashMap<PathBuf, (Option<u32>, Option<u32>)>,
    /// L2 and L3 of each staged skill (index-aligned with `staged`), counted once.
    staged_levels: Vec<(Option<u32>, Option<u32>)>,
    cache: Arc<TokenCache>,
    /// The agents' own switches as their settings say (Codex's `enabled = false`, Claude Code's
    /// `skillOverrides`, …): a skill its agent has off is priced off, as `budget --agent` does.
    switches: Option<crate::core::agents::AgentSwitches>,
    /// Skill folders the change takes away (a move's original): not in the listing after.
    leaving: Vec<PathBuf>,
}

/// The whole preview of a change.
#[derive(Debug, Clone, Serialize)]
pub struct Preview {
    /// The target agent.
    pub agent: Agent,
    /// The target scope.
    pub scope: Scope,
    /// The target folder.
    pub dir: PathBuf,
    /// The profile the skills are judged by.
    pub profile: &'static str,
    /// The encoding of the figures.
    pub encoding: &'static str,
    /// Each skill of the change, priced.
    pub skills: Vec<Priced>,
    /// What the change does to the listing.
    pub listing: ListingChange,
}

/// What is at the place of each of `folders` in the folder `dir` now (that place), if
/// anything: nothing at all when `dir` itself is not there (one look instead of one per folder).
fn taken_places<'a>(dir: &Path, folders: impl Iterator<Item = &'a str>) -> Vec<Option<PathBuf>> {
    let there = std::fs::symlink_metadata(dir).is_ok();
    folders
        .map(|f| {
            let place = dir.join(f);
            (there && std::fs::symlink_metadata(&place).is_ok()).then_some(place)
        })
        .collect()
}

/// The agents' switches of this home and the project around the working folder.
fn settings_switches() -> Option<crate::core::agents::AgentSwitches> {
    let home = dirs::home_dir()?;
    let cwd = std::env::current_dir().ok()?;
    let project = crate::core::agents::project_root(&cwd, Some(&home));
    Some(crate::core::agents::AgentSwitches::load(&home, project.as_deref()).0)
}

impl Pricing {
    /// Reads the agent's skills and the staged ones and judges the staged ones.
    pub fn new(target: &Target, staged: &[Staged], cache: Arc<TokenCache>) -> Pricing {
        let (before, _) = Library::load_indexed(
            target.view.clone(),
            &ScanOptions::default(),
            &IndexStore::open(),
        );
        // One walk per staging folder, not one per skill: a walk has a cost of its own.
        let mut roots: Vec<Root> = Vec::new();
        for s in staged {
            if let Some(parent) = s.dir.parent()
                && !roots.iter().any(|r| r.path == parent)
            {
                roots.push(Root::new(parent, Agent::Path, Scope::Path));
            }
        }
        let mut staged_lib = Library::load(roots, &ScanOptions::default());
        staged_lib
            .skills
            .retain(|s| staged.iter().any(|x| x.dir == s.dir));
        staged_lib.resolve_shadowing();
        let by_folder = staged_lib
            .skills
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((s.dir.file_name()?.to_string_lossy().into_owned(), i)))
            .collect();
        let mut p = Pricing {
            target: target.clone(),
            format: format_for(target.pricing_agent()),
            encoding: Encoding::default(),
            context_window: listing::DEFAULT_CONTEXT_WINDOW,
            before,
            staged: staged_lib,
            by_folder,
            replaced_levels: HashMap::new(),
            staged_levels: Vec::new(),
            cache,
            switches: settings_switches(),
            leaving: Vec::new(),
        };
        let l2 = tokens::count_l2(&p.staged, p.encoding, &p.cache, &tokens::no_progress);
        let l3 = tokens::count_l3(&p.staged, p.encoding, &p.cache, &tokens::no_progress);
        p.staged_levels = l2
            .into_iter()
            .zip(l3)
            .map(|(l2, l3)| (l2, Some(tokens::l3_total(&l3))))
            .collect();
        p.replaced_levels = p.levels_of_replaced(staged);
        p
    }

    /// A move: the skill at `dir` leaves with the change, so the listing after holds it only at
    /// its new place (a move within one agent's folders changes no count).
    pub fn moving_from(&mut self, dir: &Path) {
        self.leaving.push(dir.to_path_buf());
    }

    /// L2 and L3 of the skills the staged ones would replace.
    fn levels_of_replaced(
        &self,
        staged: &[Staged],
    ) -> HashMap<PathBuf, (Option<u32>, Option<u32>)> {
        // Only a skill the agent's folder was read with can be one of them (the library below
        // keeps no other): the files of the others are not looked for.
        let dirs: Vec<PathBuf> = staged
            .iter()
            .map(|s| self.target.dir.join(&s.folder))
            .filter(|d| self.before.skills.iter().any(|s| s.dir == *d))
            .filter(|d| d.join("SKILL.md").is_file() || d.join("skill.md").is_file())
            .collect();
        if dirs.is_empty() {
            return HashMap::new();
        }
        // They are in the agent's folder, read already.
        let mut lib = self.before.clone();
        lib.skills.retain(|s| dirs.contains(&s.dir));
        lib.resolve_shadowing();
        let l2 = tokens::count_l2(&lib, self.encoding, &self.cache, &tokens::no_progress);
        let l3 = tokens::count_l3(&lib, self.encoding, &self.cache, &tokens::no_progress);
        lib.skills
            .iter()
            .zip(l2)
            .zip(l3)
            .map(|((s, l2), l3)| (s.dir.clone(), (l2, Some(tokens::l3_total(&l3)))))
            .collect()
    }

    /// The staged skill of `folder`, moved (in memory) to its place in the target folder.
    fn placed(&self, folder: &str) -> Option<Skill> {
        let mut s = self
            .staged
            .skills
            .get(*self.by_folder.get(folder)?)?
            .clone();
        let dir = self.target.dir.join(folder);
        let file = s
            .skill_md
            .file_name()
            .map_or_else(|| "SKILL.md".into(), std::ffi::OsStr::to_os_string);
        s.skill_md = dir.join(file);
        s.dir = dir;
        s.root = Arc::from(self.target.dir.as_path());
        s.agent = self.target.agent;
        s.scope = self.target.scope;
        s.id = s.name.clone();
        s.namespace = String::new();
        s.shadowed_by = None;
        Some(s)
    }

    /// Prices every staged skill (independent of which are chosen).
    pub fn price(&self, staged: &[Staged]) -> Vec<Priced> {
        let profile = profile_for(self.target.pricing_agent());
        let diags = rules::check_library(
            &self.staged,
            &CheckOptions {
                per_agent: false,
                profile,
                body: true,
                tokens: Some((self.encoding, &self.cache)),
                enabled: None,
                selection: None,
                vectors: None,
                shadowed: None,
            },
        );
        let taken = taken_places(&self.target.dir, staged.iter().map(|s| s.folder.as_str()));
        staged
            .iter()
            .zip(taken)
            .map(|(st, clash)| {
                let i = self.by_folder.get(&st.folder).copied();
                let skill = i.and_then(|i| self.staged.skills.get(i));
                let mut verdict = Verdict::default();
                if let Some(d) = i.and_then(|i| diags.get(i)) {
                    let c = Counts::of(d);
                    verdict.errors = c.errors;
                    verdict.warnings = c.warnings;
                    let mut sorted: Vec<_> = d
                        .iter()
                        .filter(|d| d.severity >= Severity::Warning)
                        .collect();
                    sorted.sort_by_key(|d| std::cmp::Reverse(d.severity));
                    verdict.findings = sorted
                        .iter()
                        .take(QUOTED)
                        .map(|d| quoted(d, skill.map(|s| s.dir.as_path())))
                        .collect();
                }
                let l1 = self.placed(&st.folder).and_then(|s| {
                    let e = listing::entry(&s, self.format);
                    (!e.is_empty()).then(|| tokens::count_text(&e, self.encoding, &self.cache))
                });
                Priced {
                    folder: st.folder.clone(),
                    name: st.name.clone(),
                    subfolder: st.subfolder.clone(),
                    description: skill
                        .map(|s| s.description().to_string())
                        .unwrap_or_default(),
                    kind: skill.map_or("contextual", |s| s.kind().as_str()),
                    verdict,
                    tokens: Levels {
                        l1,
                        l2: i.and_then(|i| self.staged_levels.get(i)).and_then(|l| l.0),
                        l3: i.and_then(|i| self.staged_levels.get(i)).and_then(|l| l.1),
                    },
                    executables: st.executables.clone(),
                    notes: st.notes.clone(),
                    clash,
                }
            })
            .collect()
    }

    /// What installing the staged skills of `chosen` folders does to the agent's listing: those
    /// in the target folder with the same folder are replaced.
    pub fn listing_change(&self, chosen: &[&str]) -> (ListingChange, Diff) {
        let mut after = self.before.clone();
        let replaced: Vec<PathBuf> = chosen.iter().map(|f| self.target.dir.join(f)).collect();
        after
            .skills
            .retain(|s| !replaced.contains(&s.dir) && !self.leaving.contains(&s.dir));
        for f in chosen {
            if let Some(s) = self.placed(f) {
                after.skills.push(s);
            }
        }
        if !after.roots.iter().any(|r| r.path == self.target.dir) {
            after.roots.push(Root::new(
                self.target.dir.clone(),
                self.target.agent,
                self.target.scope,
            ));
        }
        after.resolve_shadowing();
        let staged_levels: HashMap<PathBuf, (Option<u32>, Option<u32>)> = self
            .staged
            .skills
            .iter()
            .zip(&self.staged_levels)
            .filter_map(|(s, lv)| {
                let f = s.dir.file_name()?.to_string_lossy().into_owned();
                Some((self.target.dir.join(f), *lv))
            })
            .collect();
        let (old, tier_before) = self.snapshot(&self.before, &self.replaced_levels);
        let (new, tier_after) = self.snapshot(&after, &staged_levels);
        let d = baseline::diff(&old, &new);
        let f = self.format.as_str();
        let mut fates = Vec::new();
        for s in d.added.iter().chain(&d.changed) {
            if let Some((a, b)) = s.fates.get(f) {
                fates.push(FateChange {
                    name: s.name.clone(),
                    dir: s.key.clone(),
                    before: *a,
                    after: *b,
                });
            }
        }
        let change = ListingChange {
            format: self.format,
            per_turn: d.per_turn.get(f).copied().unwrap_or(baseline::TurnChange {
                before: 0,
                after: 0,
            }),
            skills: d.skills,
            tier_before,
            tier_after,
            drops: d.drops.len(),
            fates,
        };
        (change, d)
    }

    /// One format's budget of `lib`, keyed by folder; L2 and L3 only of the skills in `levels`.
    fn snapshot(
        &self,
        lib: &Library,
        levels: &HashMap<PathBuf, (Option<u32>, Option<u32>)>,
    ) -> (Snapshot, Tier) {
        let f = self.format.as_str().to_string();
        // The target agent's own view of everything it reads (its precedence, fallbacks and
        // frontmatter switches) in its own listing, at its own budget.
        let agent = self.target.pricing_agent();
        let switches = self.switches.as_ref();
        let (view, keep) = crate::core::agents::view::agent_view(lib, agent, &[], switches);
        // On as the agent has it: its own switches where it has them (the view applied them),
        // else each skill's own default.
        let on: Vec<bool> = view
            .skills
            .iter()
            .map(|s| {
                crate::core::agents::own_switch(agent, s).unwrap_or_else(|| state::default_for(s).0)
            })
            .collect();
        let enabled = |i: usize| on.get(i).copied().unwrap_or(true);
        let model = crate::core::agents::model::model(self.target.pricing_agent());
        let mut opts = model.listing_options(
            self.format,
            Tier::Auto,
            model.client.is_none().then_some(self.context_window),
            None,
            &crate::core::agents::client::BudgetOverrides::default(),
        );
        opts.format = self.format;
        let l = listing::render(&view, &enabled, &opts);
        let mut fate: Vec<Fate> = vec![Fate::Off; lib.skills.len()];
        for e in &l.entries {
            if let Some(x) = keep.get(e.index).and_then(|&i| fate.get_mut(i)) {
                *x = e.fate.into();
            }
        }
        let mut skills = BTreeMap::new();
        let mut totals = Totals {
            skills: lib.skills.len(),
            ..Totals::default()
        };
        for (s, fate) in lib.skills.iter().zip(fate) {
            let entry = listing::entry(s, self.format);
            let mut l1 = BTreeMap::new();
            if !entry.is_empty() {
                let n = tokens::count_text(&entry, self.encoding, &self.cache);
                l1.insert(f.clone(), n);
                *totals.l1.entry(f.clone()).or_default() += u64::from(n);
            }
            let (l2, l3) = levels.get(&s.dir).copied().unwrap_or((None, None));
            skills.insert(
                s.dir.display().to_string(),
                SkillRecord {
                    name: s.name.clone(),
                    l1,
                    l2,
                    l3,
                    fate: [(f.clone(), fate)].into_iter().collect(),
                },
            );
        }
        let per_turn = if l.text.is_empty() {
            0
        } else {
            u64::from(tokens::count_text(&l.text, self.encoding, &self.cache))
        };
        totals.per_turn.insert(f.clone(), per_turn);
        let snap = Snapshot {
            skillscope_baseline: baseline::VERSION,
            encoding: self.encoding.as_str().to_string(),
            context_window: self.context_window,
            tier: Tier::Auto.as_str().to_string(),
            formats: vec![f],
            totals,
            skills,
        };
        (snap, l.tier)
    }

    /// The whole preview for the `chosen` folders.
    pub fn preview(&self, skills: Vec<Priced>, chosen: &[&str]) -> Preview {
        let (listing, _) = self.listing_change(chosen);
        Preview {
            agent: self.target.pricing_agent(),
            scope: self.target.scope,
            dir: self.target.dir.clone(),
            profile: profile_for(self.target.pricing_agent()).as_str(),
            encoding: self.encoding.as_str(),
            skills,
            listing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The places found taken are the ones a look at each place finds taken, whatever the
    /// agent's folder is: missing, a file, a link that leads nowhere or to a folder, a folder.
    #[test]
    fn taken_places_are_the_places_a_look_finds_taken() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real");
        std::fs::create_dir_all(real.join("pdf")).unwrap();
        std::fs::write(real.join("file"), "x").unwrap();
        crate::core::files::fsx::test_link("nowhere", real.join("dangling")).unwrap();
        let file = t.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let dangling = t.path().join("dangling");
        crate::core::files::fsx::test_link("nowhere", &dangling).unwrap();
        let linked = t.path().join("linked");
        crate::core::files::fsx::test_link(&real, &linked).unwrap();
        let folders = ["pdf", "file", "dangling", "new"];
        for dir in [t.path().join("missing"), file, dangling, linked, real] {
            let want: Vec<Option<PathBuf>> = folders
                .iter()
                .map(|f| {
                    let place = dir.join(f);
                    std::fs::symlink_metadata(&place).is_ok().then_some(place)
                })
                .collect();
            assert_eq!(
                taken_places(&dir, folders.iter().copied()),
                want,
                "{}",
                dir.display()
            );
        }
        let real = t.path().join("real");
        assert_eq!(
            taken_places(&real, folders.iter().copied())
                .iter()
                .filter(|p| p.is_some())
                .count(),
            3
        );
    }
}
