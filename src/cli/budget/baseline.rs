//! `skillscope budget --save-baseline / --baseline / --baseline-ref`: record a library's budget,
//! compare it with a recorded one or with the library at a git commit, and gate CI on the change.

use crate::cli::args::LibraryArgs;
use crate::cli::budget::args::{BudgetArgs, OutputFormat};
use crate::cli::ci_formats::md_cell;
use crate::core::listing::{self, Format, ListingOptions, Tier};
use crate::core::pricing::baseline::{self, Diff, Fate, SkillDiff, SkillRecord, Snapshot, Totals};
use crate::core::pricing::model::Model;
use crate::core::scan::ScanOptions;
use crate::core::source::Root;
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::core::words::text::thousands;
use crate::core::{Library, files::gitref, front::state, words::escape};
use anyhow::Context as _;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Skills shown in a markdown table at most: a pull-request comment stays readable.
const MARKDOWN_ROWS: usize = 25;

/// What a snapshot is measured with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub encoding: Encoding,
    pub context_window: usize,
    pub tier: Tier,
}

impl Settings {
    fn of(s: &Snapshot) -> anyhow::Result<Settings> {
        Ok(Settings {
            encoding: s
                .encoding
                .parse()
                .context("the baseline's encoding is unknown")?,
            context_window: s.context_window,
            tier: s.tier.parse().context("the baseline's tier is unknown")?,
        })
    }
}

/// A stable name for each root: the path as given when it is relative and stays below the
/// working folder (`skills`, `.claude/skills`), else its last folder name. Two roots never share one.
pub fn root_labels(roots: &[Root]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in roots {
        let p = &r.path;
        let plain = p.is_relative()
            && p.components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        let base = if plain {
            let parts: Vec<String> = p
                .components()
                .filter_map(|c| match c {
                    Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect();
            if parts.is_empty() {
                ".".to_string()
            } else {
                parts.join("/")
            }
        } else {
            crate::core::files::paths::absolute(p)
                .file_name()
                .map_or_else(|| "root".to_string(), |n| n.to_string_lossy().into_owned())
        };
        let mut label = base.clone();
        let mut n = 2;
        while out.contains(&label) {
            label = format!("{base}#{n}");
            n += 1;
        }
        out.push(label);
    }
    out
}

/// `<label>/<folder below the root>`; the label alone for a root that is itself a skill.
fn key_of(label: &str, rel: &str) -> String {
    match (label, rel) {
        (".", "") => ".".to_string(),
        (".", r) => r.to_string(),
        (l, "") => l.to_string(),
        (l, r) => format!("{l}/{r}"),
    }
}

/// Each skill's key, and a copy of the library moved under `/<key>`: listings that print paths
/// (xml, codex) then cost the same wherever the checkout lives and at every commit.
fn relocate(lib: &Library, labels: &[String]) -> (Vec<String>, Library) {
    // The moved skills share their facts with `lib`'s: what the agents read off each file is
    // taken here, off the file where it is.
    crate::core::agents::view::take_readings(lib);
    let mut virt = lib.clone();
    let mut keys = Vec::with_capacity(lib.skills.len());
    for s in &mut virt.skills {
        let i = lib.roots.iter().position(|r| *r.path == *s.root);
        let label = i.and_then(|i| labels.get(i)).map_or("root", String::as_str);
        let rel = s.dir.strip_prefix(&s.root).ok().map_or_else(
            || s.dir_name().into_owned(),
            |r| {
                r.components()
                    .filter_map(|c| match c {
                        Component::Normal(p) => Some(p.to_string_lossy().into_owned()),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("/")
            },
        );
        let key = key_of(label, &rel);
        let file = s
            .skill_md
            .file_name()
            .map_or_else(|| "SKILL.md".into(), std::ffi::OsStr::to_os_string);
        let dir = Path::new("/").join(&key);
        s.skill_md = dir.join(file);
        s.root = Path::new("/").join(label).into();
        s.dir = dir;
        keys.push(key);
    }
    for (r, label) in virt.roots.iter_mut().zip(labels) {
        r.path = Path::new("/").join(label);
    }
    (keys, virt)
}

/// The budget of a library: every level, every listing format, every fate. Only the library
/// decides it (frontmatter switches, not anyone's own on/off state), so it is the same on
/// every machine. `placed` is the same library where the agents find it (for a copy out of
/// git, its folders named by the work tree's places; else `lib` itself): which agent reads a
/// skill follows from its folder.
pub fn snapshot(
    lib: &Library,
    placed: &Library,
    labels: &[String],
    settings: Settings,
    cache: &TokenCache,
) -> Snapshot {
    let enc = settings.encoding;
    let (keys, virt) = relocate(lib, labels);
    let on: Vec<bool> = lib.skills.iter().map(|s| state::default_for(s).0).collect();
    let enabled = |i: usize| on.get(i).copied().unwrap_or(true);
    let mut records: Vec<SkillRecord> = lib
        .skills
        .iter()
        .map(|s| SkillRecord {
            name: s.name.clone(),
            l1: BTreeMap::new(),
            l2: None,
            l3: None,
            fate: BTreeMap::new(),
        })
        .collect();
    let mut totals = Totals {
        skills: lib.skills.len(),
        ..Totals::default()
    };
    for format in Format::ALL {
        let f = format.as_str().to_string();
        let texts = listing::entries(&virt, format);
        let l1 = tokens::count_l1(&texts, enc, cache, &tokens::no_progress);
        let mut sum = 0u64;
        for (r, n) in records.iter_mut().zip(l1) {
            if let Some(n) = n {
                r.l1.insert(f.clone(), n);
                sum += u64::from(n);
            }
        }
        totals.l1.insert(f.clone(), sum);
        let l = format_listing((placed, &virt, labels), format, settings, &enabled);
        for (r, reads) in records.iter_mut().zip(&l.reads) {
            // A skill the agent never reads has no fate in its listing (not even off).
            if *reads {
                r.fate.insert(f.clone(), Fate::Off);
            }
        }
        for (index, fate) in &l.fates {
            if let Some(r) = records.get_mut(*index) {
                r.fate.insert(f.clone(), (*fate).into());
            }
        }
        let per_turn = if l.text.is_empty() {
            0
        } else {
            u64::from(tokens::count_listing(lib, &l.text, enc, cache))
        };
        totals.per_turn.insert(f, per_turn);
    }
    let l2 = tokens::count_l2(lib, enc, cache, &tokens::no_progress);
    let l3 = tokens::count_l3(lib, enc, cache, &tokens::no_progress);
    for ((r, l2), res) in records.iter_mut().zip(l2).zip(l3) {
        r.l2 = l2;
        // Text resources only: a probe's tool schema depends on the machine that ran it.
        r.l3 = Some(tokens::l3_total(&res));
        totals.l2 += u64::from(l2.unwrap_or(0));
        totals.l3 += u64::from(r.l3.unwrap_or(0));
    }
    let mut skills = BTreeMap::new();
    for (key, r) in keys.into_iter().zip(records) {
        // Keys are unique (labels are, and folders below one root are); keep the first if not.
        skills.entry(key).or_insert(r);
    }
    Snapshot {
        skillscope_baseline: baseline::VERSION,
        encoding: enc.as_str().to_string(),
        context_window: settings.context_window,
        tier: settings.tier.as_str().to_string(),
        formats: Format::ALL.iter().map(|f| f.as_str().to_string()).collect(),
        totals,
        skills,
    }
}

/// One format's listing of a library: its text, each skill's fate by library index, and
/// whether the format's agent reads each skill at all.
struct FormatListing {
    text: String,
    fates: Vec<(usize, listing::Fate)>,
    reads: Vec<bool>,
}

/// Whether `agent` reads a skill of a folder given on the command line: the agents whose
/// folder it lies in (`.claude/skills`, `.agents/skills`, ...), or every agent for a folder no
/// agent reads by its name (`skills`), given to see how each would list it. A skill of an
/// agent's own folder is the agent's view's to judge.
fn given_reads(s: &crate::core::skill::Skill, agent: crate::core::Agent) -> bool {
    use crate::core::Agent;
    if !matches!(s.agent, Agent::Path | Agent::Demo) {
        return true;
    }
    let found = crate::core::agents::model::folder_readers(
        crate::core::agents::model::models().map(|m| (m.agent, m.folders)),
        &s.dir,
    );
    found.is_empty() || found.contains(&agent)
}

/// The listing in `format` of the skills `enabled` switches on, with the library's paths made
/// the same on every machine (`libs`: the library, it relocated, the roots' labels). An agent's
/// own format is that agent's listing as `prompt` prints it: its view of the library (read from
/// the real files: Claude Code and Gemini CLI read files without a valid frontmatter too), its
/// client's built-ins (a client's install folder left as `{CLIENT}`), its default model's window.
fn format_listing(
    libs: (&Library, &Library, &[String]),
    format: Format,
    settings: Settings,
    enabled: &dyn Fn(usize) -> bool,
) -> FormatListing {
    let (real, lib, labels) = libs;
    let Some(agent) = crate::core::agents::model::agent_of_format(format) else {
        let l = listing::render(
            lib,
            enabled,
            &ListingOptions {
                format,
                tier: settings.tier,
                context_window: settings.context_window,
                ..ListingOptions::default()
            },
        );
        return FormatListing {
            fates: l.entries.iter().map(|e| (e.index, e.fate)).collect(),
            text: l.text,
            reads: vec![true; real.len()],
        };
    };
    let m = crate::core::agents::model::model(agent);
    let opts = ListingOptions {
        client_dir: None,
        ..m.listing_options(
            format,
            settings.tier,
            m.client
                .is_none_or(|c| c.models.is_empty())
                .then_some(settings.context_window),
            None,
            &crate::core::agents::client::BudgetOverrides::default(),
        )
    };
    let reads: Vec<bool> = real.skills.iter().map(|s| given_reads(s, agent)).collect();
    let read: Vec<usize> = (0..real.len()).filter(|&i| reads[i]).collect();
    let own = if read.len() == real.len() {
        std::borrow::Cow::Borrowed(real)
    } else {
        std::borrow::Cow::Owned(real.subset(&read))
    };
    let (view, keep) = crate::core::agents::view::agent_view(&own, agent, &[], None);
    // The view's skills by the whole library's index.
    let keep: Vec<usize> = keep.iter().filter_map(|&k| read.get(k).copied()).collect();
    let (_, view) = relocate(&view, labels);
    let l = listing::render(&view, &|i| keep.get(i).is_some_and(|&k| enabled(k)), &opts);
    FormatListing {
        fates: l
            .entries
            .iter()
            .filter_map(|e| Some((*keep.get(e.index)?, e.fate)))
            .collect(),
        text: l.text,
        reads,
    }
}

/// The library as it was at `reference`: every root copied out of git into `tmp`, in the same
/// order, read like the work tree's; and the same library placed where the work tree's folders
/// are (see [`snapshot`]). A root with no baseline (in no git work tree, or in a repository
/// other than the working folder's that has no `reference`) is read as it is now, so it counts
/// the same on both sides, and a note names it; when no root has a baseline, that is the error.
fn library_at(
    reference: &str,
    roots: &[Root],
    scan: &ScanOptions,
    tmp: &Path,
    notes: &mut Vec<String>,
) -> anyhow::Result<(Library, Library)> {
    let here = gitref::locate(Path::new(".")).ok().map(|(top, _)| top);
    let mut old_roots = Vec::new();
    let mut commits: Vec<(PathBuf, Option<String>)> = Vec::new();
    let mut first_refusal: Option<gitref::GitError> = None;
    let mut unrooted: Vec<String> = Vec::new();
    let mut unknown: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (i, r) in roots.iter().enumerate() {
        let (top, prefix) = match gitref::locate(&r.path) {
            Ok(found) => found,
            Err(e @ gitref::GitError::NotInRepo(_)) => {
                unrooted.push(home_shown(&r.path));
                first_refusal.get_or_insert(e);
                old_roots.push(r.clone());
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let id = if let Some((_, id)) = commits.iter().find(|(t, _)| *t == top) {
            id.clone()
        } else {
            let id = match gitref::resolve(&top, reference) {
                Ok(id) => Some(id),
                // The working folder's repository must know the reference: a typo there is the
                // user's to hear about, not a folder to skip.
                Err(e) if here.as_ref() == Some(&top) => return Err(e.into()),
                Err(e) => {
                    first_refusal.get_or_insert(e);
                    None
                }
            };
            commits.push((top.clone(), id.clone()));
            id
        };
        let Some(id) = id else {
            unknown
                .entry(home_shown(&top))
                .or_default()
                .push(home_shown(&r.path));
            old_roots.push(r.clone());
            continue;
        };
        let dest = tmp.join(i.to_string());
        let m = gitref::materialize(&top, &id, &prefix, &dest)
            .with_context(|| format!("cannot read {} at {reference}", r.path.display()))?;
        let shown = r.path.display();
        if m.missing {
            notes.push(format!("{shown} did not exist at {reference}"));
        }
        if !m.skipped_links.is_empty() {
            notes.push(links_note(&m.skipped_links, reference, &shown.to_string()));
        }
        if !m.skipped_submodules.is_empty() {
            notes.push(format!(
                "submodules are not read: {}",
                m.skipped_submodules.join(", ")
            ));
        }
        old_roots.push(Root::new(dest, r.agent, r.scope));
    }
    if old_roots
        .iter()
        .zip(roots)
        .all(|(old, now)| old.path == now.path)
        && let Some(e) = first_refusal
    {
        return Err(e.into());
    }
    if !unrooted.is_empty() {
        notes.push(format!(
            "no baseline for {}: not in a git work tree; counted as unchanged",
            unrooted.join(", ")
        ));
    }
    for (repo, folders) in unknown {
        notes.push(format!(
            "no baseline for {}: {reference} is not a commit of {repo}; counted as unchanged",
            folders.join(", ")
        ));
    }
    let old = Library::load(old_roots, scan);
    let placed = placed_as(&old, roots);
    Ok((old, placed))
}

/// `lib` (read from copies) with each root's folders named by `roots`' paths, in the same
/// order: the places the agents judge by. Skill files stay the copies', so whatever an agent
/// reads of a file is read as it was.
fn placed_as(lib: &Library, roots: &[Root]) -> Library {
    let mut out = lib.clone();
    let moves: Vec<(PathBuf, PathBuf)> = lib
        .roots
        .iter()
        .zip(roots)
        .map(|(from, to)| (from.path.clone(), to.path.clone()))
        .collect();
    let moved = |p: &Path| -> Option<PathBuf> {
        moves.iter().find_map(|(from, to)| {
            p.strip_prefix(from).ok().map(|rest| {
                if rest.as_os_str().is_empty() {
                    to.clone()
                } else {
                    to.join(rest)
                }
            })
        })
    };
    for s in &mut out.skills {
        if let Some(d) = moved(&s.dir) {
            s.dir = d;
        }
        if let Some(r) = moved(&s.root) {
            s.root = r.into();
        }
        for p in &mut s.linked {
            if let Some(d) = moved(&p.dir) {
                p.dir = d;
            }
            if let Some(r) = moved(&p.root) {
                p.root = r.into();
            }
        }
    }
    for (r, to) in out.roots.iter_mut().zip(roots) {
        r.path.clone_from(&to.path);
    }
    out
}

/// A folder as a note names it: below the home as `~/...`.
fn home_shown(p: &Path) -> String {
    let abs = crate::core::files::paths::absolute(p);
    match dirs::home_dir().and_then(|h| abs.strip_prefix(&h).ok().map(Path::to_path_buf)) {
        Some(rest) if !rest.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => p.display().to_string(),
    }
}

/// Says which symlinks of the tree at `reference` were left out of the copy and why: a few by
/// name, with their targets as the tree holds them.
fn links_note(skipped: &[gitref::SkippedLink], reference: &str, root: &str) -> String {
    const NAMED: usize = 10;
    let mut named: Vec<String> = skipped
        .iter()
        .take(NAMED)
        .map(|l| format!("{} -> {} ({})", l.path, l.target, l.why.as_str()))
        .collect();
    if skipped.len() > NAMED {
        named.push(format!("and {} more", skipped.len() - NAMED));
    }
    let unchecked = skipped.iter().any(|l| l.why == gitref::LinkSkip::Unchecked);
    format!(
        "{} at {reference} left out of {root}: {}{}",
        plural(skipped.len(), "symlink"),
        named.join(", "),
        if unchecked {
            "; this system cannot follow a link beneath a folder (openat2), so none is copied"
        } else {
            "; links are kept only where, followed, they stay inside"
        }
    )
}

/// A baseline file and its label; its settings become the measure's (a note says so when
/// they differ).
fn read_baseline(
    file: &std::path::Path,
    settings: &mut Settings,
    notes: &mut Vec<String>,
) -> anyhow::Result<(Snapshot, String)> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the baseline {}", file.display()))?;
    let snap = Snapshot::parse(&text)
        .with_context(|| format!("cannot use the baseline {}", file.display()))?;
    let theirs = Settings::of(&snap)?;
    if theirs != *settings {
        notes.push(format!(
            "measuring with the baseline's settings: {}, window {}, tier {}",
            theirs.encoding,
            thousands(theirs.context_window as u64),
            theirs.tier
        ));
        *settings = theirs;
    }
    Ok((snap, file.display().to_string()))
}

/// Runs the baseline flags of `budget`; returns the exit code.
pub fn run(args: &BudgetArgs, library: &LibraryArgs) -> anyhow::Result<i32> {
    if args.baseline.is_some() && args.baseline_ref.is_some() {
        anyhow::bail!("give --baseline FILE or --baseline-ref REF, not both");
    }
    let against_given = args.baseline.is_some() || args.baseline_ref.is_some();
    if !against_given && (args.fail_on_drop || args.fail_on_increase.is_some()) {
        anyhow::bail!(
            "--fail-on-increase and --fail-on-drop need --baseline FILE or --baseline-ref REF"
        );
    }
    let mut notes = Vec::new();
    let spec = library.spec();
    let (roots, demo) = spec.roots();
    if demo && against_given {
        notes.push("no skills found; comparing the bundled demo library".to_string());
    }
    let labels = root_labels(&roots);
    let cache = if args.no_cache {
        TokenCache::in_memory()
    } else {
        TokenCache::open()
    };
    let mut settings = Settings {
        encoding: args.encoding,
        context_window: args
            .context_window
            .unwrap_or(crate::core::listing::DEFAULT_CONTEXT_WINDOW),
        tier: args.tier,
    };
    // The copy of the old tree lives until the report is out: removing thousands of files can
    // take seconds on a busy disk, and the reader should not wait for it.
    let mut copy: Option<tempfile::TempDir> = None;
    let old: Option<(Snapshot, String)> = match (&args.baseline, &args.baseline_ref) {
        (Some(file), _) => Some(read_baseline(file, &mut settings, &mut notes)?),
        (None, Some(reference)) => {
            let tmp = tempfile::Builder::new()
                .prefix("skillscope-ref-")
                .tempdir()
                .context("cannot make a temporary folder")?;
            let (lib, placed) = library_at(
                reference,
                &roots,
                &library.scan_options(),
                tmp.path(),
                &mut notes,
            )?;
            let snap = snapshot(&lib, &placed, &labels, settings, &cache);
            copy = Some(tmp);
            Some((snap, format!("git {reference}")))
        }
        (None, None) => None,
    };
    let lib = Library::load(roots, &spec.scan);
    // A folder that is gone on both sides compares nothing with nothing: that is no pass.
    let roots_code = if old.as_ref().is_none_or(|(o, _)| o.skills.is_empty()) {
        crate::cli::args::require_skills(&lib, "measure")?
    } else {
        0
    };
    let now = snapshot(&lib, &lib, &labels, settings, &cache);
    crate::cli::args::save_cache(&cache);
    for n in &notes {
        crate::cli::output::warn(n);
    }
    if let Some(path) = &args.save_baseline {
        crate::core::files::paths::write_atomic(path, now.to_json().as_bytes(), None)
            .with_context(|| format!("cannot write the baseline {}", path.display()))?;
        crate::cli::output::warn(format_args!(
            "saved the baseline of {} to {}",
            crate::core::words::text::count_of(now.skills.len(), "skill", "skills"),
            path.display()
        ));
    }
    let Some((old, source)) = old else {
        return Ok(roots_code);
    };
    let d = baseline::diff(&old, &now);
    let gates = Gates::judge(&d, args);
    let review = Review {
        diff: &d,
        source: &source,
        settings,
        listing: args.listing().as_str(),
        model: args.model(),
        gates: &gates,
    };
    let mut out = crate::cli::output::report_out();
    match args.format {
        OutputFormat::Text => out.write_all(review.text().as_bytes())?,
        OutputFormat::Markdown => out.write_all(review.markdown().as_bytes())?,
        OutputFormat::Json => {
            crate::cli::output::write_json(&mut out, &review.json())?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    drop(out);
    for why in &gates.failed {
        crate::cli::output::warn(why);
    }
    drop(copy);
    Ok(i32::from(!gates.failed.is_empty()).max(roots_code))
}

/// The CI gates and why they failed.
pub struct Gates {
    pub failed: Vec<String>,
}

impl Gates {
    fn judge(d: &Diff, args: &BudgetArgs) -> Gates {
        let mut failed = Vec::new();
        if let Some(max) = args.fail_on_increase {
            let over: Vec<String> = d
                .per_turn
                .iter()
                .filter(|(_, t)| t.delta() > i64::try_from(max).unwrap_or(i64::MAX))
                .map(|(f, t)| format!("{f} {}", signed(t.delta())))
                .collect();
            if !over.is_empty() {
                failed.push(format!(
                    "tokens per turn grow by more than --fail-on-increase {max}: {}",
                    over.join(", ")
                ));
            }
        }
        if args.fail_on_drop && !d.drops.is_empty() {
            let mut by_skill: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
            for x in &d.drops {
                by_skill.entry(&x.name).or_default().push(&x.format);
            }
            let list: Vec<String> = by_skill
                .iter()
                .map(|(n, fs)| format!("{n} ({})", fs.join(", ")))
                .collect();
            failed.push(format!(
                "{} left a listing (--fail-on-drop): {}",
                plural(by_skill.len(), "skill"),
                list.join("; ")
            ));
        }
        Gates { failed }
    }
}

struct Review<'a> {
    diff: &'a Diff,
    source: &'a str,
    settings: Settings,
    /// The listing format whose L1 the skill rows show.
    listing: &'a str,
    model: Option<&'a Model>,
    gates: &'a Gates,
}

/// `1 skill`, `2 skills`, `1,234 skills`.
fn plural(n: usize, word: &str) -> String {
    crate::core::words::text::count_of(n, word, &format!("{word}s"))
}

fn signed(n: i64) -> String {
    match n {
        0 => "0".to_string(),
        n if n > 0 => format!("+{}", thousands(n.unsigned_abs())),
        n => format!("-{}", thousands(n.unsigned_abs())),
    }
}

fn opt_delta(c: baseline::Change<u32>) -> String {
    match c {
        (None, None) => String::new(),
        c => signed(baseline::delta(c)),
    }
}

/// The rows of the skills table, biggest effect first: drops, then L1 of the shown format, L2.
fn ordered<'a>(d: &'a Diff, listing: &str) -> Vec<(&'static str, &'a SkillDiff)> {
    let mut rows: Vec<(&'static str, &'a SkillDiff)> = d
        .added
        .iter()
        .map(|s| ("added", s))
        .chain(d.removed.iter().map(|s| ("removed", s)))
        .chain(d.changed.iter().map(|s| ("changed", s)))
        .collect();
    let dropped = |s: &SkillDiff| d.drops.iter().any(|x| x.key == s.key);
    rows.sort_by(|a, b| {
        dropped(b.1)
            .cmp(&dropped(a.1))
            .then(
                b.1.l1_delta(listing)
                    .unsigned_abs()
                    .cmp(&a.1.l1_delta(listing).unsigned_abs()),
            )
            .then(
                baseline::delta(b.1.l2)
                    .unsigned_abs()
                    .cmp(&baseline::delta(a.1.l2).unsigned_abs()),
            )
            .then(a.1.key.cmp(&b.1.key))
    });
    rows
}

/// The fates column: formats with the same change grouped, `listed → dropped`.
fn fates_text(s: &SkillDiff) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (f, (a, b)) in &s.fates {
        let t = match (a, b) {
            (Some(a), Some(b)) => format!("{a} → {b}"),
            (None, Some(b)) => b.to_string(),
            (Some(a), None) => format!("{a} → gone"),
            (None, None) => continue,
        };
        match groups.iter_mut().find(|g| g.0 == t) {
            Some(g) => g.1.push(f),
            None => groups.push((t, vec![f])),
        }
    }
    let all = groups.len() == 1 && groups[0].1.len() == Format::ALL.len();
    groups
        .iter()
        .map(|(t, fs)| {
            if all {
                format!("{t} (all)")
            } else {
                format!("{}: {t}", fs.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The name shown for a skill: its name, with its key when the key does not end with it.
fn shown_name(s: &SkillDiff) -> String {
    let ends = s.key == s.name || s.key.ends_with(&format!("/{}", s.name));
    if ends || s.name.is_empty() {
        if s.name.is_empty() {
            s.key.clone()
        } else {
            s.name.clone()
        }
    } else {
        format!("{} ({})", s.name, s.key)
    }
}

impl Review<'_> {
    fn headline(&self) -> String {
        let d = self.diff;
        let t = d.per_turn.get(self.listing).copied();
        let turn = match t {
            Some(t) if t.delta() != 0 => format!(
                "{} tokens per turn ({} listing, {} → {})",
                signed(t.delta()),
                self.listing,
                thousands(t.before),
                thousands(t.after)
            ),
            Some(t) => format!(
                "no change per turn ({} listing, {})",
                self.listing,
                thousands(t.after)
            ),
            None => "no listing figures".to_string(),
        };
        format!(
            "{turn}; {} added, {} removed, {} changed; {} left a listing",
            d.added.len(),
            d.removed.len(),
            d.changed.len(),
            d.drops
                .iter()
                .map(|x| &x.key)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        )
    }

    fn estimate(&self, n: i64) -> Option<String> {
        self.model.map(|m| {
            let e = m.estimate(n.unsigned_abs());
            let e = if n < 0 { -(e as i64) } else { e as i64 };
            format!("≈ {} ({})", signed(e), m.name)
        })
    }

    fn text(&self) -> String {
        let d = self.diff;
        let mut s = format!(
            "budget change against {} ({}, window {}, tier {})\n{}\n\n",
            escape::line(self.source),
            self.settings.encoding,
            thousands(self.settings.context_window as u64),
            self.settings.tier,
            self.headline()
        );
        s.push_str(&format!(
            "{:<16} {:>10} {:>10} {:>9}\n",
            "per turn", "before", "after", "change"
        ));
        for (f, t) in &d.per_turn {
            let line = format!(
                "{:<16} {:>10} {:>10} {:>9}  {}",
                f,
                thousands(t.before),
                thousands(t.after),
                signed(t.delta()),
                self.estimate(t.delta()).unwrap_or_default()
            );
            s.push_str(line.trim_end());
            s.push('\n');
        }
        for (label, t) in [("L2 if all load", d.l2), ("L3 if all used", d.l3)] {
            s.push_str(&format!(
                "{:<16} {:>10} {:>10} {:>9}\n",
                label,
                thousands(t.before),
                thousands(t.after),
                signed(t.delta())
            ));
        }
        let rows = ordered(d, self.listing);
        if !rows.is_empty() {
            let widest = rows
                .iter()
                .map(|(_, sk)| crate::cli::output::shown_width(&shown_name(sk)))
                .max()
                .unwrap_or(0);
            let names = crate::cli::output::Column::new(
                widest,
                32,
                32,
                crate::cli::output::stdout_is_terminal(),
            );
            s.push_str(&format!(
                "\n  {} {:<8} {:>8} {:>8} {:>8}  fates\n",
                names.pad("skill"),
                "change",
                format!("L1 {}", short_format(self.listing)),
                "L2",
                "L3"
            ));
            for (what, sk) in rows {
                let mark = match what {
                    "added" => '+',
                    "removed" => '-',
                    _ => '~',
                };
                let line = format!(
                    "{mark} {} {:<8} {:>8} {:>8} {:>8}  {}",
                    names.pad(&names.fit(&shown_name(sk))),
                    what,
                    opt_delta(sk.l1.get(self.listing).copied().unwrap_or((None, None))),
                    opt_delta(sk.l2),
                    opt_delta(sk.l3),
                    fates_text(sk)
                );
                s.push_str(line.trim_end());
                s.push('\n');
            }
        }
        if !self.gates.failed.is_empty() {
            s.push('\n');
            for g in &self.gates.failed {
                s.push_str(&format!("FAILED: {}\n", escape::line(g)));
            }
        }
        s
    }

    fn markdown(&self) -> String {
        let d = self.diff;
        let mut s = String::from("### skillscope budget\n\n");
        s.push_str(&format!("**{}**\n\n", md_cell(&self.headline())));
        let est = self.model.map(|m| format!(" ≈ {} |", md_cell(&m.name)));
        s.push_str(&format!(
            "| listing | per turn before | after | change |{}\n|---|--:|--:|--:|{}\n",
            est.as_deref().unwrap_or(""),
            if est.is_some() { "--:|" } else { "" }
        ));
        for (f, t) in &d.per_turn {
            let change = if f == self.listing && t.delta() != 0 {
                format!("**{}**", signed(t.delta()))
            } else {
                signed(t.delta())
            };
            let e = self.model.map(|m| {
                let n = m.estimate(t.delta().unsigned_abs());
                let n = if t.delta() < 0 { -(n as i64) } else { n as i64 };
                format!(" {} |", signed(n))
            });
            s.push_str(&format!(
                "| {f} | {} | {} | {change} |{}\n",
                thousands(t.before),
                thousands(t.after),
                e.unwrap_or_default()
            ));
        }
        let rows = ordered(d, self.listing);
        if !rows.is_empty() {
            s.push_str(&format!(
                "\n| skill | change | L1 ({}) | L2 | L3 | fates |\n|---|---|--:|--:|--:|---|\n",
                self.listing
            ));
            for (what, sk) in rows.iter().take(MARKDOWN_ROWS) {
                s.push_str(&format!(
                    "| {} | {what} | {} | {} | {} | {} |\n",
                    md_cell(&shown_name(sk)),
                    opt_delta(sk.l1.get(self.listing).copied().unwrap_or((None, None))),
                    opt_delta(sk.l2),
                    opt_delta(sk.l3),
                    md_cell(&fates_text(sk))
                ));
            }
            if rows.len() > MARKDOWN_ROWS {
                s.push_str(&format!(
                    "\n… and {} (`skillscope budget --format json` lists them all).\n",
                    plural(rows.len() - MARKDOWN_ROWS, "more skill")
                ));
            }
        }
        if !self.gates.failed.is_empty() {
            s.push('\n');
            for g in &self.gates.failed {
                s.push_str(&format!("- :x: {}\n", md_cell(g)));
            }
        }
        s.push_str(&format!(
            "\n<sub>against {}; {} tokens (tiktoken), window {}, tier {}</sub>\n",
            md_cell(self.source),
            self.settings.encoding,
            thousands(self.settings.context_window as u64),
            self.settings.tier
        ));
        s
    }

    fn json(&self) -> serde_json::Value {
        let d = self.diff;
        let per_turn: serde_json::Map<String, serde_json::Value> = d
            .per_turn
            .iter()
            .map(|(f, t)| {
                let mut v = json!({"before": t.before, "after": t.after, "change": t.delta()});
                if let Some(m) = self.model {
                    v["estimate_after"] = json!(m.estimate(t.after));
                }
                (f.clone(), v)
            })
            .collect();
        let skill = |s: &SkillDiff| {
            json!({
                "key": s.key,
                "name": s.name,
                "l1": s.l1.iter().map(|(f, c)| (f.clone(), json!({"before": c.0, "after": c.1}))).collect::<serde_json::Map<_, _>>(),
                "l2": {"before": s.l2.0, "after": s.l2.1},
                "l3": {"before": s.l3.0, "after": s.l3.1},
                "fates": s.fates.iter().map(|(f, c)| (f.clone(), json!({"before": c.0, "after": c.1}))).collect::<serde_json::Map<_, _>>(),
            })
        };
        json!({
            "against": self.source,
            "encoding": self.settings.encoding,
            "context_window": self.settings.context_window,
            "tier": self.settings.tier,
            "model": self.model.map(|m| json!({"name": m.name, "factor": m.factor})),
            "per_turn": per_turn,
            "l2": {"before": d.l2.before, "after": d.l2.after, "change": d.l2.delta()},
            "l3": {"before": d.l3.before, "after": d.l3.after, "change": d.l3.delta()},
            "skills": {"before": d.skills.before, "after": d.skills.after},
            "added": d.added.iter().map(skill).collect::<Vec<_>>(),
            "removed": d.removed.iter().map(skill).collect::<Vec<_>>(),
            "changed": d.changed.iter().map(skill).collect::<Vec<_>>(),
            "drops": d.drops,
            "failed": self.gates.failed,
        })
    }
}

fn short_format(f: &str) -> &str {
    match f {
        "claude-code" => "claude",
        f => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Agent, Scope};

    #[test]
    fn labels_are_the_paths_as_given_and_unique() {
        let roots: Vec<Root> = [
            "skills",
            "./.claude/skills",
            ".",
            "/home/u/.codex/skills",
            "/x/skills",
        ]
        .iter()
        .map(|p| Root::new(*p, Agent::Path, Scope::Path))
        .collect();
        assert_eq!(
            root_labels(&roots),
            ["skills", ".claude/skills", ".", "skills#2", "skills#3"]
        );
        assert_eq!(key_of(".", "a/b"), "a/b");
        assert_eq!(key_of("skills", ""), "skills");
        assert_eq!(key_of("skills", "a"), "skills/a");
    }

    #[test]
    fn a_moved_library_reads_what_its_files_say_whatever_was_asked_before() {
        // Skills its agents read their own way: YAML that Gemini CLI reads line by line and
        // opencode parses again, and a body that gives Claude Code and Copilot a description.
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("skills");
        for (name, text) in [
            (
                "broken",
                "---\nname: broken\ndescription: Fixes things: sometimes\n  bad: [\n---\nBody.\n",
            ),
            (
                "bare",
                "---\nname: bare\n---\n# Drafts replies\n\nIn the team's voice.\n",
            ),
        ] {
            std::fs::create_dir_all(root.join(name)).unwrap();
            std::fs::write(root.join(name).join("SKILL.md"), text).unwrap();
        }
        let load = || {
            crate::core::library::Library::load(
                vec![Root::new(&root, Agent::Path, Scope::Path)],
                &crate::core::scan::ScanOptions::default(),
            )
        };
        let labels = vec!["skills".to_string()];
        // Gemini CLI's reading asked of the files where they lie first, then moved; and a fresh
        // load moved before anyone asked anything.
        let asked = load();
        for s in &asked.skills {
            let _ = crate::core::agents::gemini::reading::read(s);
        }
        let (_, moved_after) = relocate(&asked, &labels);
        let (_, moved) = relocate(&load(), &labels);
        for lib in [&moved, &moved_after] {
            for s in &lib.skills {
                assert!(s.skill_md.starts_with("/skills"), "{:?}", s.skill_md);
                let want = match s.name.as_str() {
                    "broken" => (Some("Fixes things: sometimes bad: ["), None),
                    _ => (None, Some("Drafts replies")),
                };
                let got = readings_of(s);
                assert_eq!((got.0.as_deref(), got.1.as_deref()), want, "{}", s.name);
            }
        }
    }

    /// What Gemini CLI lists as `s`'s description, and Claude Code's fallback for it.
    fn readings_of(s: &crate::core::skill::Skill) -> (Option<String>, Option<String>) {
        (
            crate::core::agents::gemini::reading::read(s).and_then(|r| r.description),
            s.facts.readings.claude_fallback.get().cloned().flatten(),
        )
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(
            md_cell("a|b`c\x1b[31m\u{202e}\u{9b}\u{85}"),
            "a\\|b\\`c\\u{1b}\\[31m\\u{202e}\\u{9b}\\u{85}"
        );
    }
}
