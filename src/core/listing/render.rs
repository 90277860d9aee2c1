//! The listing of a library: the tier by skill count, each skill's fate, the fitting in the
//! budget (by priority, by trimming, round robin), the built-in entries, and the text.

use super::dialect::Dialect;
use super::entry::{cut, line, listable_in, parts};
use super::format::{Budget, BuiltinRef, CLIENT_DIR, Folders, Format, Parts, utf16_len};
use super::formats::{Fit, Frame, Order};
use super::record::{
    COMPACT_DESCRIPTION_CHARS, FULL_DESCRIPTION_CHARS, Fate, ListedBuiltin, ListedSkill, Listing,
    ListingOptions, MIN_TRIMMED_DESCRIPTION, Tier,
};
use super::{claude_text, codex, dispatch};
use crate::core::library::Library;
use crate::core::skill::Skill;
use rayon::prelude::*;

/// The names tier's note, in the PR's words (design 003: "Names only | Search required via
/// action: \"search\"", the Skill tool's `action: "search"` beside its default `action:
/// "load"`); the PR quotes no sentence of its own.
const SEARCH_NOTE: &str = "Names only. Search required via action: \"search\" (the Skill tool's search by name, description and whenToUse); then load a skill with action: \"load\".";

/// A skill (or a built-in entry) on its way into the listing.
struct Slot {
    index: usize,
    /// A built-in entry of the client, not a skill of the library (`index` is unused).
    builtin: Option<BuiltinRef>,
    parts: Parts,
    /// The description as listed so far; `None` once dropped.
    description: Option<String>,
    /// Characters the format's cap cut from the description.
    capped: usize,
    fate: Fate,
    reason: String,
}

impl Slot {
    fn text(&self, format: Format) -> String {
        line(format, &self.parts, self.description.as_deref())
    }

    fn demote(&mut self, fate: Fate, reason: String) {
        if fate > self.fate {
            self.fate = fate;
        }
        self.reason = reason;
    }
}

/// `8000` → `8,000`, as reasons show figures.
fn grouped(n: usize) -> String {
    crate::core::words::text::thousands(n as u64)
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The listing of the enabled skills of `lib` (for one agent's view, see
/// [`crate::core::agents::view::agent_library`]).
pub fn render(lib: &Library, enabled: &dyn Fn(usize) -> bool, opts: &ListingOptions) -> Listing {
    if let Some(own) = dispatch::render(lib, enabled, opts) {
        return own;
    }
    let format = opts.format;
    if let Some(why) = &lib.listing_off {
        return nothing_listed(lib, enabled, opts, why);
    }
    let (mut out, listable) = candidates(lib, enabled, format);
    let listed = listable.len();
    let tier = match opts.tier {
        Tier::Auto if format.spec().tiers_by_count => Tier::for_count(listed),
        Tier::Auto => Tier::Full,
        t => t,
    };
    let folders = Folders::default();
    let mut slots: Vec<Slot> = listable
        .par_iter()
        .map(|&i| {
            let parts = parts(&lib.skills[i], format, &folders, opts.dialect);
            Slot {
                index: i,
                builtin: None,
                description: Some(parts.description.clone()),
                parts,
                capped: 0,
                fate: Fate::Full,
                reason: String::new(),
            }
        })
        .collect();
    // The tier the PR's auto-detection picked (design 003), not one asked for by name: its
    // full entries are the PR's, `--tier full` the format's own (skills-ref's for xml).
    let by_count = opts.tier == Tier::Auto && format.spec().tiers_by_count;
    // Every slot of the names tier gives one reason: made once, not once per skill.
    let names_reason = names_tier_reason(tier, listed);
    for s in &mut slots {
        let when_to_use = lib.skills[s.index].frontmatter.when_to_use.as_deref();
        shape(
            s,
            format,
            tier,
            &names_reason,
            by_count.then_some(PrEntry { when_to_use }),
        );
        // The agent's own switch lists it by name only, whatever the budget.
        if let Some(why) = lib.name_only.get(&s.index) {
            s.description = None;
            s.demote(Fate::NameOnly, why.clone());
        }
    }
    let mut slots = arrange(slots, lib, opts);

    let budget = opts.budget();
    let (lines, used, roots) = match (format.spec().fit, budget) {
        (Fit::RoundRobin, Some(budget)) => {
            let r = fit_round_robin(&mut slots, budget, opts.dialect);
            (r.lines, r.used, r.roots)
        }
        (_, budget) => {
            let (lines, used) = fit_in_chars(&mut slots, format, budget.map(|b| b.limit));
            (lines, used, Vec::new())
        }
    };
    let text = assemble(opts, tier, &lines, &roots, !slots.is_empty());
    let texts = if format.spec().fit == Fit::RoundRobin {
        Vec::new()
    } else {
        slots
            .iter()
            .filter(|s| s.fate != Fate::Dropped)
            .map(|s| s.builtin.is_none().then_some(s.index))
            .zip(lines)
            .collect()
    };
    let names = slots
        .iter()
        .filter(|s| s.fate != Fate::Dropped)
        .map(|s| s.parts.name.clone())
        .collect();
    let mut builtins = Vec::new();
    for s in slots {
        match s.builtin {
            Some(b) => builtins.push(ListedBuiltin {
                name: b.name,
                fate: s.fate,
            }),
            None => out.push(ListedSkill {
                index: s.index,
                fate: s.fate,
                reason: s.reason,
            }),
        }
    }
    out.sort_by_key(|e| e.index);
    Listing {
        text,
        tier,
        budget,
        used,
        entries: out,
        builtins,
        names,
        texts,
    }
}

/// The listing of an agent whose settings keep it from listing anything: empty, every enabled
/// skill and every built-in dropped, with why.
fn nothing_listed(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    opts: &ListingOptions,
    why: &str,
) -> Listing {
    Listing {
        text: String::new(),
        tier: Tier::Full,
        budget: opts.budget(),
        used: 0,
        entries: (0..lib.len())
            .filter(|&i| enabled(i))
            .map(|index| ListedSkill {
                index,
                fate: Fate::Dropped,
                reason: why.to_string(),
            })
            .collect(),
        builtins: opts
            .builtins
            .iter()
            .map(|b| ListedBuiltin {
                name: b.name,
                fate: Fate::Dropped,
            })
            .collect(),
        names: Vec::new(),
        texts: Vec::new(),
    }
}

/// The client's built-in entries as slots: its location with the client's folder filled in;
/// the ones the agent's settings switch off dropped.
fn builtin_slots(lib: &Library, opts: &ListingOptions) -> Vec<Slot> {
    opts.builtins
        .iter()
        .map(|b| {
            let path = match (b.location.strip_prefix(CLIENT_DIR), opts.client_dir) {
                (Some(rest), Some(dir)) => format!("{}{rest}", dir.display()),
                _ => b.location.to_string(),
            };
            let mut slot = Slot {
                index: usize::MAX,
                builtin: Some(b),
                parts: Parts {
                    name: b.name.to_string(),
                    alias: None,
                    description: b.description.to_string(),
                    path,
                    root: None,
                },
                description: Some(b.description.to_string()),
                capped: 0,
                fate: Fate::Full,
                reason: String::new(),
            };
            if let Some(why) = lib.builtins_off.get(b.name) {
                slot.description = None;
                slot.demote(Fate::Dropped, why.clone());
            }
            slot
        })
        .collect()
}

/// The library's entries and the client's built-ins in the agent's own order (see [`Order`]).
fn arrange(mut slots: Vec<Slot>, lib: &Library, opts: &ListingOptions) -> Vec<Slot> {
    let mut builtins = builtin_slots(lib, opts);
    match opts.format.spec().order {
        Order::Library => {}
        Order::Grouped(group) => order(&mut slots, lib, group, true),
        Order::Bytes(group) => order(&mut slots, lib, group, false),
        Order::Folders(folder) => {
            by_folder(&mut slots, lib, folder);
            let mut out = Vec::with_capacity(builtins.len() + slots.len());
            for mut b in builtins {
                // A skill of the same name takes the built-in's place.
                match slots.iter().position(|s| s.parts.name == b.parts.name) {
                    Some(at) => {
                        replaced(&mut b);
                        out.push(b);
                        out.push(slots.remove(at));
                    }
                    None => out.push(b),
                }
            }
            out.append(&mut slots);
            return out;
        }
        Order::Locale => {
            for b in &mut builtins {
                if slots.iter().any(|s| s.parts.name == b.parts.name) {
                    replaced(b);
                }
            }
            slots.append(&mut builtins);
            slots.sort_by_cached_key(|s| crate::core::words::collate::locale_key(&s.parts.name));
            return slots;
        }
    }
    slots.append(&mut builtins);
    slots
}

/// A built-in a skill of the library replaced: not listed.
fn replaced(b: &mut Slot) {
    b.description = None;
    b.demote(
        Fate::Dropped,
        "replaced by the library's skill of the same name".to_string(),
    );
}

/// Gemini CLI's order (see [`Order::Folders`]): by `folder`, then by the skill folder's name in
/// descending code-point order; a skill that won its name over copies in earlier folders takes
/// the place of the first of them.
fn by_folder(slots: &mut [Slot], lib: &Library, folder: fn(&Skill) -> u8) {
    let key = |i: usize| {
        let s = &lib.skills[i];
        (folder(s), std::cmp::Reverse(s.dir_name().into_owned()))
    };
    let mut at: std::collections::HashMap<usize, (u8, std::cmp::Reverse<String>)> =
        std::collections::HashMap::new();
    for (i, s) in lib.skills.iter().enumerate() {
        if let Some(w) = s.shadowed_by {
            let k = key(i);
            at.entry(w)
                .and_modify(|e| {
                    if k < *e {
                        *e = k.clone();
                    }
                })
                .or_insert(k);
        }
    }
    slots.sort_by_cached_key(|s| {
        let own = key(s.index);
        match at.get(&s.index) {
            Some(k) if *k < own => k.clone(),
            _ => own,
        }
    });
}

/// The slots fitted into a budget in characters (none: as they are) by the format's way; their
/// lines, and what the budget is charged with.
fn fit_in_chars(slots: &mut [Slot], format: Format, budget: Option<usize>) -> (Vec<String>, usize) {
    let fit = format.spec().fit;
    if let Some(budget) = budget {
        match fit {
            Fit::Priority => fit_by_priority(slots, format, budget),
            Fit::Trimming | Fit::RoundRobin => fit_by_trimming(slots, format, budget),
        }
    }
    let lines: Vec<String> = slots
        .iter()
        .filter(|s| s.fate != Fate::Dropped)
        .map(|s| s.text(format))
        .collect();
    let used = match fit {
        // Claude Code measures its entries joined by line breaks, in UTF-16 units.
        Fit::Priority => {
            lines.iter().map(|l| utf16_len(l)).sum::<usize>() + lines.len().saturating_sub(1)
        }
        Fit::Trimming | Fit::RoundRobin => lines.iter().map(|l| chars(l) + 1).sum(),
    };
    (lines, used)
}

/// The name Claude Code calls a skill by: its folder's (a plugin's skill: `plugin:skill`).
fn claude_called(s: &Skill) -> &str {
    if s.plugin { &s.id } else { &s.name }
}

/// The enabled skills left out before any listing (shadowed, unlistable, inactive) with why, and
/// the indexes of the ones that can be listed.
fn candidates(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    format: Format,
) -> (Vec<ListedSkill>, Vec<usize>) {
    let mut out: Vec<ListedSkill> = Vec::new();
    let mut listable = Vec::new();
    for (i, s) in lib.skills.iter().enumerate() {
        if !enabled(i) {
            continue;
        }
        if let Some(w) = s.shadowed_by {
            let winner = lib.skills.get(w);
            out.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: format!(
                    "shadowed by {} ({})",
                    winner.map_or("?", |w| w.name.as_str()),
                    winner.map_or_else(String::new, |w| w.dir.display().to_string())
                ),
            });
        } else if !listable_in(s, format) {
            out.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: "no parsed name and description in its frontmatter".to_string(),
            });
        } else if format == Format::ClaudeCode && !claude_text::offers_name(claude_called(s)) {
            out.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: "not offered by Claude Code: its name holds a hidden, direction-changing or blank-like character, < or >".to_string(),
            });
        } else if let Some(why) = lib.inactive.get(&i) {
            out.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: why.clone(),
            });
        } else {
            listable.push(i);
        }
    }
    (out, listable)
}

/// The agent's own order: by group, then by name — A–Z without regard to case (Claude Code), or
/// in byte order and then by path (Codex). A name shown beside another (Claude Code's `folder
/// (name)`) that is itself a listed skill's name is not shown (it would call that skill).
fn order(slots: &mut [Slot], lib: &Library, group: fn(&Skill) -> u8, case_insensitive: bool) {
    slots.sort_by_cached_key(|s| {
        let fold = if case_insensitive {
            s.parts.name.to_lowercase()
        } else {
            String::new()
        };
        let path = if case_insensitive {
            std::path::PathBuf::new()
        } else {
            std::path::PathBuf::from(&s.parts.path)
        };
        (
            group(&lib.skills[s.index]),
            fold,
            s.parts.name.clone(),
            path,
        )
    });
    let names: std::collections::HashSet<String> =
        slots.iter().map(|s| s.parts.name.clone()).collect();
    for s in slots.iter_mut() {
        if s.parts.alias.as_ref().is_some_and(|a| names.contains(a)) {
            s.parts.alias = None;
        }
    }
}

/// What the PR's full entry adds to a description: the skill's `when_to_use`, if any.
#[derive(Clone, Copy)]
struct PrEntry<'a> {
    when_to_use: Option<&'a str>,
}

/// Why an entry of the names tier, among `listed` skills, shows its name only (nothing for
/// another tier).
fn names_tier_reason(tier: Tier, listed: usize) -> String {
    if tier != Tier::Names {
        return String::new();
    }
    format!(
        "names tier: {} listed by name only",
        crate::core::words::text::count_of(listed, "skill is", "skills are")
    )
}

/// One entry's description as the format and tier take it: capped, cut to the compact length
/// (without a location), or left out in the names tier (for `names_reason`, see
/// [`names_tier_reason`]). `by_count` holds the skill's `when_to_use` when the tier was picked
/// by the number of skills: a full entry is then the PR's, its description cut to 250
/// characters and followed by `when_to_use` (design 003).
fn shape(
    s: &mut Slot,
    format: Format,
    tier: Tier,
    names_reason: &str,
    by_count: Option<PrEntry<'_>>,
) {
    let Some(mut d) = s.description.take() else {
        return;
    };
    if let Some(cap) = &format.spec().entry_cap {
        let (c, was_cut) = (cap.cut)(&d, cap.max);
        if was_cut {
            s.capped = chars(&d).saturating_sub(chars(&c));
            s.demote(
                Fate::Trimmed,
                format!("{} capped at {} characters", cap.what, cap.max),
            );
        }
        d = c;
    }
    match tier {
        Tier::Compact => {
            let (c, was_cut) = cut(&d, COMPACT_DESCRIPTION_CHARS);
            if was_cut {
                s.demote(
                    Fate::Trimmed,
                    format!(
                        "compact tier: description cut to {COMPACT_DESCRIPTION_CHARS} characters"
                    ),
                );
            }
            s.description = Some(c);
            // "Compact (name + 80-char desc)": no location.
            s.parts.path.clear();
        }
        Tier::Full if by_count.is_some() => {
            let (mut c, was_cut) = cut(&d, FULL_DESCRIPTION_CHARS);
            if was_cut {
                s.demote(
                    Fate::Trimmed,
                    format!("full tier: description cut to {FULL_DESCRIPTION_CHARS} characters"),
                );
            }
            let when = by_count
                .and_then(|e| e.when_to_use)
                .map(|w| w.split_whitespace().collect::<Vec<_>>());
            if let Some(w) = when.filter(|w| !w.is_empty()) {
                c = format!("{c} - {}", w.join(" "));
            }
            s.description = Some(c);
        }
        Tier::Names => {
            s.demote(Fate::NameOnly, names_reason.to_string());
            s.description = None;
            // Names only, in every format: the search tool finds the rest.
            s.parts.path.clear();
        }
        Tier::Full | Tier::Auto => s.description = Some(d),
    }
}

/// The listing's text: `lines` in the format's frame (Codex's with its `roots` table); `any`
/// says whether any skill was a candidate.
fn assemble(
    opts: &ListingOptions,
    tier: Tier,
    lines: &[String],
    roots: &[String],
    any: bool,
) -> String {
    let format = opts.format;
    let note = (tier == Tier::Names && !lines.is_empty()).then_some(SEARCH_NOTE);
    match format.spec().frame {
        Frame::SkillsInstructions if !any => String::new(),
        Frame::SkillsInstructions => {
            let mut lines = lines.to_vec();
            if let Some(n) = note {
                lines.insert(0, n.to_string());
            }
            let usage = opts.skills_usage.then(|| codex::usage(roots, opts.dialect));
            codex::assemble(roots, &lines, codex::plain_intro(opts.dialect), usage)
        }
        Frame::Wrapped { open, close } => {
            let mut all: Vec<&str> = Vec::new();
            if let Some(n) = note {
                all.push(n);
            }
            all.push(open);
            all.extend(lines.iter().map(String::as_str));
            all.push(close);
            all.join("\n")
        }
        Frame::Enclosed { empty, .. } if lines.is_empty() => empty.to_string(),
        Frame::Enclosed { open, close, .. } => {
            let mut all: Vec<&str> = Vec::new();
            if let Some(n) = note {
                all.push(n);
            }
            all.push(open);
            all.extend(lines.iter().map(String::as_str));
            all.push(close);
            all.join("\n")
        }
        Frame::Headed(_) if lines.is_empty() => String::new(),
        Frame::Headed(heading) => {
            let mut text = heading.to_string();
            if let Some(n) = note {
                text.push_str(n);
                text.push_str("\n\n");
            }
            text.push_str(&lines.join("\n"));
            text
        }
    }
}

/// Charge for a set of slots: every entry that is not dropped, plus its line break.
fn cost(slots: &[Slot], format: Format) -> usize {
    slots
        .iter()
        .filter(|s| s.fate != Fate::Dropped)
        .map(|s| chars(&s.text(format)) + 1)
        .sum()
}

/// Codex's way ([`Fit::RoundRobin`], `codex.rs`): the slots' descriptions shared out within
/// `budget`, each slot's fate and reason set from what it kept.
fn fit_round_robin(slots: &mut [Slot], budget: Budget, dialect: Dialect) -> codex::Rendered {
    let empty = String::new();
    let entries: Vec<codex::Entry> = slots
        .iter()
        .map(|s| codex::Entry {
            name: &s.parts.name,
            description: s.description.as_ref().unwrap_or(&empty),
            capped: s.capped,
            path: &s.parts.path,
            root: s.parts.root.as_ref(),
        })
        .collect();
    let r = codex::render(&entries, budget, dialect);
    let over = format!("over the listing budget of {budget}");
    for (s, kept) in slots.iter_mut().zip(&r.kept) {
        let whole = s.description.as_deref().map_or(0, chars);
        match *kept {
            codex::Kept::All => {}
            codex::Kept::Part(n) => {
                if let Some(d) = &mut s.description {
                    *d = d.chars().take(n).collect();
                }
                s.demote(
                    Fate::Trimmed,
                    format!("{over}: description cut to {n} of {whole} characters"),
                );
            }
            codex::Kept::Bare => {
                s.description = None;
                s.demote(Fate::NameOnly, format!("{over}: description left out"));
            }
            codex::Kept::Omitted => {
                s.description = None;
                s.demote(
                    Fate::Dropped,
                    format!("{over} even without its description: left out"),
                );
            }
        }
    }
    r
}

/// Claude Code's way (2.1.332's "priority" mode, see [`Fit::Priority`]): when the entries,
/// joined by line breaks, overflow the budget (UTF-16 units), the fixed ones (built-ins it never
/// shortens, skills already listed by name only) stay as they are, every other starts as its
/// name, and each in turn (by usage score, which skillscope takes as 0 for every skill, so in
/// listing order) gets its description back when what that adds still fits. Nothing is dropped.
fn fit_by_priority(slots: &mut [Slot], format: Format, budget: usize) {
    let joins = slots.len().saturating_sub(1);
    let full: usize = slots.iter().map(|s| utf16_len(&s.text(format))).sum();
    if full + joins <= budget {
        return;
    }
    let fixed = |s: &Slot| s.description.is_none() || s.builtin.is_some_and(|b| b.fixed);
    let name_len = |s: &Slot| utf16_len(&line(format, &s.parts, None));
    let base: usize = slots
        .iter()
        .map(|s| {
            if fixed(s) {
                utf16_len(&s.text(format))
            } else {
                name_len(s)
            }
        })
        .sum::<usize>()
        + joins;
    let mut left = budget.saturating_sub(base);
    for s in slots.iter_mut().filter(|s| !fixed(s)) {
        let extra = utf16_len(&s.text(format)).saturating_sub(name_len(s));
        if extra <= left {
            left -= extra;
        } else {
            s.description = None;
            s.demote(
                Fate::NameOnly,
                format!(
                    "over the {}-character listing budget: listed by name only",
                    grouped(budget)
                ),
            );
        }
    }
}

/// Codex's way: when the entries overflow, every description is cut to the same longest length
/// that fits; when that length would fall under [`MIN_TRIMMED_DESCRIPTION`], descriptions are
/// dropped, and then names past the budget.
fn fit_by_trimming(slots: &mut [Slot], format: Format, budget: usize) {
    if cost(slots, format) <= budget {
        return;
    }
    // Entry length = fixed part + description length, so the cost of a cut is arithmetic.
    let fixed: Vec<Option<(usize, usize)>> = slots
        .iter()
        .map(|s| {
            s.description.as_ref().map(|d| {
                let empty = line(format, &s.parts, Some(""));
                (chars(&empty) + 1, chars(d))
            })
        })
        .collect();
    let name_costs: Vec<usize> = slots
        .iter()
        .map(|s| chars(&line(format, &s.parts, None)) + 1)
        .collect();
    let cost_at = |limit: usize| -> usize {
        fixed
            .iter()
            .zip(&name_costs)
            .map(|(f, n)| match f {
                Some((base, len)) => base + (*len).min(limit),
                None => *n,
            })
            .sum()
    };
    let longest = fixed.iter().flatten().map(|(_, l)| *l).max().unwrap_or(0);
    if longest >= MIN_TRIMMED_DESCRIPTION && cost_at(MIN_TRIMMED_DESCRIPTION) <= budget {
        // The largest limit in [MIN, longest] whose cost fits.
        let (mut lo, mut hi) = (MIN_TRIMMED_DESCRIPTION, longest);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if cost_at(mid) <= budget {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        for s in slots.iter_mut() {
            if let Some(d) = &s.description {
                let (c, was_cut) = cut(d, lo);
                if was_cut {
                    s.description = Some(c);
                    s.demote(
                        Fate::Trimmed,
                        format!("over the {}-character listing budget: description trimmed to {lo} characters", grouped(budget)),
                    );
                }
            }
        }
        return;
    }
    let names_total: usize = name_costs.iter().sum();
    if names_total > budget {
        names_only_within(slots, budget, &name_costs);
        return;
    }
    for s in slots.iter_mut() {
        if s.description.take().is_some() {
            s.demote(
                Fate::NameOnly,
                format!("over the {}-character listing budget even with descriptions trimmed to {MIN_TRIMMED_DESCRIPTION} characters: description dropped", grouped(budget)),
            );
        }
    }
}

/// Names only, in listing order, while they fit; the rest dropped.
fn names_only_within(slots: &mut [Slot], budget: usize, name_costs: &[usize]) {
    let mut used = 0;
    let mut fits = true;
    for (s, c) in slots.iter_mut().zip(name_costs) {
        s.description = None;
        if fits && used + c <= budget {
            used += c;
            s.demote(
                Fate::NameOnly,
                format!(
                    "over the {}-character listing budget: description dropped",
                    grouped(budget)
                ),
            );
        } else {
            fits = false;
            s.demote(
                Fate::Dropped,
                format!(
                    "over the {}-character listing budget even by name",
                    grouped(budget)
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::html_escape;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn html_escape_replaces_each_special_character(s in "[a-z&<>\"' é✓]{0,60}") {
            let mut want = String::new();
            for c in s.chars() {
                match c {
                    '&' => want.push_str("&amp;"),
                    '<' => want.push_str("&lt;"),
                    '>' => want.push_str("&gt;"),
                    '"' => want.push_str("&quot;"),
                    '\'' => want.push_str("&#x27;"),
                    c => want.push(c),
                }
            }
            prop_assert_eq!(html_escape(&s), want);
        }
    }

    use super::super::format::py_strip;
    use super::super::*;
    use super::*;
    use crate::core::words::escape;

    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};
    use std::path::Path;

    fn write_skill(root: &Path, dir: &str, frontmatter: &str) {
        let d = root.join(dir);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\n{frontmatter}---\nBody.\n"),
        )
        .unwrap();
    }

    fn load(roots: &[&Path]) -> Library {
        Library::load(
            roots
                .iter()
                .map(|r| Root::new(*r, Agent::Path, Scope::Path))
                .collect(),
            &ScanOptions::default(),
        )
    }

    /// `n` skills `skill-000`… with descriptions of `desc_len` characters.
    fn many(n: usize, desc_len: usize) -> (tempfile::TempDir, Library) {
        let t = tempfile::tempdir().unwrap();
        for i in 0..n {
            let name = format!("skill-{i:03}");
            let desc: String = "abcdefghij".repeat(desc_len / 10 + 1)[..desc_len].to_string();
            write_skill(
                t.path(),
                &name,
                &format!("name: {name}\ndescription: {desc}\n"),
            );
        }
        let lib = load(&[t.path()]);
        (t, lib)
    }

    fn opts(format: Format, tier: Tier, context_window: usize) -> ListingOptions {
        ListingOptions {
            format,
            tier,
            context_window,
            ..ListingOptions::default()
        }
    }

    fn fates(l: &Listing) -> Vec<Fate> {
        l.entries.iter().map(|e| e.fate).collect()
    }

    #[test]
    fn control_and_bidi_characters_are_listed_escaped_in_every_format() {
        let t = tempfile::tempdir().unwrap();
        write_skill(
            t.path(),
            "evil\x1b]0;pwned\x07",
            "name: \"e\\e[2Jvil\\x9b\"\ndescription: \"Reads \\u202Efdp.exe files\\x01 when asked, \\a and more\"\n",
        );
        let lib = load(&[t.path()]);
        for format in Format::ALL {
            let l = render(
                &lib,
                &|_| true,
                &opts(format, Tier::Full, DEFAULT_CONTEXT_WINDOW),
            );
            // Cline lists names only; Claude Code does not offer a skill whose name holds a
            // hidden character (what it sends holds none, escaped or raw).
            if format == Format::ClaudeCode {
                assert!(!l.text.contains("fdp.exe"), "{}", l.text);
                assert!(
                    l.entries
                        .iter()
                        .any(|e| e.reason.starts_with("not offered by Claude Code")),
                    "{:?}",
                    l.entries
                );
            } else if format != Format::Cline {
                assert!(l.text.contains("\\u{202e}fdp.exe"), "{format}: {}", l.text);
            }
            assert!(
                !l.text.chars().any(|c| escape::is_hazard(c) && c != '\n'),
                "{format}: {:?}",
                l.text
            );
            if format == Format::Xml {
                roxmltree::Document::parse(&l.text).unwrap();
                assert!(l.text.contains("e\\u{1b}[2Jvil\\u{9b}"), "{}", l.text);
                assert!(l.text.contains("evil\\u{1b}]0;pwned\\u{7}"), "{}", l.text);
            }
        }
    }

    #[test]
    fn xml_entries_are_escaped_stripped_and_located_at_the_resolved_folder() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real");
        write_skill(
            &real,
            "pdf",
            "name: pdf\ndescription: |\n  Reads <PDF> & \"forms\" it's fine\n\n",
        );
        let link = t.path().join("link");
        crate::core::files::fsx::test_link(&real, &link).unwrap();
        let lib = load(&[&link]);
        let resolved = std::fs::canonicalize(real.join("pdf"))
            .unwrap()
            .join("SKILL.md");
        let expected = format!(
            "<skill>\n<name>\npdf\n</name>\n<description>\nReads &lt;PDF&gt; &amp; &quot;forms&quot; it&#x27;s fine\n</description>\n<location>\n{}\n</location>\n</skill>",
            resolved.display()
        );
        assert_eq!(entry(&lib.skills[0], Format::Xml), expected);
        let l = render(&lib, &|_| true, &ListingOptions::default());
        assert_eq!(
            l.text,
            format!("<available_skills>\n{expected}\n</available_skills>")
        );
        assert_eq!(l.tier, Tier::Full);
        assert_eq!(l.budget, None);
    }

    #[test]
    fn an_empty_listing() {
        let t = tempfile::tempdir().unwrap();
        let lib = load(&[t.path()]);
        let l = render(&lib, &|_| true, &ListingOptions::default());
        assert_eq!(l.text, "<available_skills>\n</available_skills>");
        assert!(l.entries.is_empty());
        let l = render(&lib, &|_| true, &opts(Format::Codex, Tier::Auto, 200_000));
        assert_eq!(l.text, "");
    }

    #[test]
    fn one_line_formats() {
        let t = tempfile::tempdir().unwrap();
        write_skill(
            t.path(),
            "deploy",
            "name: deploy\ndescription: |\n  Ships the app.\n  Twice.\nwhen_to_use: When asked to deploy\n",
        );
        let lib = load(&[t.path()]);
        let s = &lib.skills[0];
        assert_eq!(
            entry(s, Format::Markdown),
            "- **deploy**: Ships the app. Twice."
        );
        assert_eq!(
            entry(s, Format::ClaudeCode),
            "- deploy: Ships the app. Twice. - When asked to deploy"
        );
        assert_eq!(
            entry(s, Format::Codex),
            format!(
                "- deploy: Ships the app. Twice. (file: {})",
                s.skill_md.display()
            )
        );
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::ClaudeCode, Tier::Auto, 200_000),
        );
        assert_eq!(
            l.text,
            "The following skills are available for use with the Skill tool:\n\n- deploy: Ships the app. Twice. - When asked to deploy"
        );
    }

    #[test]
    fn disabled_skills_are_not_candidates_and_unlistable_or_shadowed_ones_are_dropped() {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        write_skill(a.path(), "pdf", "name: pdf\ndescription: First copy.\n");
        write_skill(b.path(), "pdf", "name: pdf\ndescription: Second copy.\n");
        write_skill(a.path(), "bare", "name: bare\n");
        write_skill(a.path(), "off", "name: off\ndescription: Switched off.\n");
        let lib = load(&[a.path(), b.path()]);
        let off = lib.find("off").unwrap();
        let l = render(
            &lib,
            &|i| i != off,
            &opts(Format::Markdown, Tier::Auto, 200_000),
        );
        assert!(l.entries.iter().all(|e| e.index != off));
        assert_eq!(l.entries.len(), 3);
        let by_name = |n: &str, dir: &Path| {
            l.entries
                .iter()
                .find(|e| lib.skills[e.index].name == n && lib.skills[e.index].dir.starts_with(dir))
                .unwrap()
        };
        assert_eq!(by_name("pdf", a.path()).fate, Fate::Full);
        let shadowed = by_name("pdf", b.path());
        assert_eq!(shadowed.fate, Fate::Dropped);
        assert!(
            shadowed.reason.starts_with("shadowed by pdf"),
            "{}",
            shadowed.reason
        );
        assert_eq!(by_name("bare", a.path()).fate, Fate::Dropped);
        assert_eq!(l.text, "## Available skills\n\n- **pdf**: First copy.");
    }

    #[test]
    fn auto_tiers_by_count() {
        let (_t, lib) = many(81, 100);
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::Markdown, Tier::Auto, 200_000),
        );
        assert_eq!(l.tier, Tier::Compact);
        assert!(fates(&l).iter().all(|f| *f == Fate::Trimmed));
        let first = l.text.lines().nth(2).unwrap();
        let desc = first.strip_prefix("- **skill-000**: ").unwrap();
        assert_eq!(desc.chars().count(), COMPACT_DESCRIPTION_CHARS);
        assert!(desc.ends_with('…'));
        // Short descriptions survive the compact tier whole.
        let (_t, lib) = many(81, 50);
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::Markdown, Tier::Auto, 200_000),
        );
        assert!(fates(&l).iter().all(|f| *f == Fate::Full));

        let (_t, lib) = many(301, 30);
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Auto, 200_000));
        assert_eq!(l.tier, Tier::Names);
        assert!(fates(&l).iter().all(|f| *f == Fate::NameOnly));
        assert!(l.text.starts_with(SEARCH_NOTE));
        assert!(!l.text.contains("<description>"));
        assert_eq!(l.text.matches("<skill>").count(), 301);
        // An explicit tier wins over the count.
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Full, 200_000));
        assert_eq!(l.text.matches("<description>").count(), 301);
    }

    #[test]
    fn the_names_tier_says_one_skill_in_the_singular() {
        let (_t, lib) = many(1, 30);
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Names, 200_000));
        assert_eq!(fates(&l), [Fate::NameOnly]);
        assert_eq!(
            l.entries[0].reason,
            "names tier: 1 skill is listed by name only"
        );
        let (_t, lib) = many(2, 30);
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Names, 200_000));
        assert_eq!(
            l.entries[1].reason,
            "names tier: 2 skills are listed by name only"
        );
    }

    #[test]
    fn the_prs_three_tiers_as_it_writes_them() {
        // ≤ 80: full entries, the description cut at 250 characters and `when_to_use` after it,
        // with the location.
        let t = tempfile::tempdir().unwrap();
        let long: String = "abcdefghij".repeat(30);
        write_skill(
            t.path(),
            "deploy",
            &format!("name: deploy\ndescription: {long}\nwhen_to_use: When asked\n  to ship\n"),
        );
        let lib = load(&[t.path()]);
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Auto, 200_000));
        assert_eq!(l.tier, Tier::Full);
        let cut: String = long.chars().take(FULL_DESCRIPTION_CHARS - 1).collect();
        assert!(
            l.text.contains(&format!(
                "<description>\n{cut}… - When asked to ship\n</description>\n<location>"
            )),
            "{}",
            l.text
        );
        assert_eq!(fates(&l), [Fate::Trimmed]);
        // Asked for by name, the full tier is the format's own entry (skills-ref's for xml).
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Full, 200_000));
        assert!(
            l.text
                .contains(&format!("<description>\n{long}\n</description>"))
        );
        assert_eq!(fates(&l), [Fate::Full]);

        // 81–300: compact entries, no location.
        let (_t, lib) = many(81, 100);
        let l = render(&lib, &|_| true, &opts(Format::Xml, Tier::Auto, 200_000));
        assert_eq!(l.tier, Tier::Compact);
        assert!(!l.text.contains("<location>"), "{}", &l.text[..400]);
        assert_eq!(l.text.matches("<description>").count(), 81);

        // > 300: names and the PR's search note.
        let (_t, lib) = many(301, 30);
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::Markdown, Tier::Auto, 200_000),
        );
        assert!(
            l.text.contains("Search required via action: \"search\""),
            "{}",
            &l.text[..300]
        );
    }

    #[test]
    fn lazy_skills_lists_every_enabled_skill_whatever_their_number() {
        // Design 000's `list_level1()` has no tiers.
        let (_t, lib) = many(301, 30);
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::LazySkills, Tier::Auto, 200_000),
        );
        assert_eq!(l.tier, Tier::Full);
        assert!(fates(&l).iter().all(|f| *f == Fate::Full));
    }

    #[test]
    fn claude_code_keeps_descriptions_in_order_until_the_budget_runs_out() {
        // Each full entry is `- skill-NNN: ` + 300 = 313 characters; a name is 11; entries are
        // joined by 49 line breaks. 50 names take 599 of 8,000, leaving 7,401 for 302-character
        // extras: 24.
        let (_t, lib) = many(50, 300);
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::ClaudeCode, Tier::Full, 200_000),
        );
        assert_eq!(l.budget, Some(Budget::chars(8_000)));
        let f = fates(&l);
        assert!(f[..24].iter().all(|f| *f == Fate::Full), "{f:?}");
        assert!(f[24..].iter().all(|f| *f == Fate::NameOnly), "{f:?}");
        assert!(l.used <= 8_000);
        assert_eq!(l.used, 24 * 313 + 26 * 11 + 49);
        assert!(l.text.ends_with("\n- skill-049"));

        // When even the names overflow (a 1,000-token window: 40 characters), Claude Code 2.1.332
        // drops nothing: every skill is listed by name, over the budget.
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::ClaudeCode, Tier::Full, 1_000),
        );
        let f = fates(&l);
        assert_eq!(f.iter().filter(|f| **f == Fate::NameOnly).count(), 50);
        assert_eq!(f.iter().filter(|f| **f == Fate::Dropped).count(), 0);
        assert!(l.used > 40);
    }

    #[test]
    fn claude_code_gives_descriptions_back_greedily_and_never_shortens_fixed_builtins() {
        static BUILTINS: &[BuiltinEntry] = &[
            BuiltinEntry {
                name: "bundled",
                description: "Raw <text>\nkept as it is.",
                fixed: true,
                location: "",
            },
            BuiltinEntry {
                name: "command",
                description: "A built-in command.",
                fixed: false,
                location: "",
            },
        ];
        let t = tempfile::tempdir().unwrap();
        // Listed A–Z without regard to case: `b-long` before `C-short`.
        write_skill(t.path(), "C-short", "name: C-short\ndescription: Short.\n");
        let long = "y".repeat(60);
        write_skill(
            t.path(),
            "b-long",
            &format!("name: b-long\ndescription: {long}\n"),
        );
        let lib = load(&[t.path()]);
        let budget = |chars| ListingOptions {
            format: Format::ClaudeCode,
            tier: Tier::Auto,
            budget_chars: Some(chars),
            builtins: BUILTINS,
            ..ListingOptions::default()
        };
        let full = render(&lib, &|_| true, &budget(100_000));
        assert_eq!(
            full.text,
            format!(
                "The following skills are available for use with the Skill tool:\n\n- b-long: {long}\n- C-short: Short.\n- bundled: Raw <text>\nkept as it is.\n- command: A built-in command."
            )
        );
        // Names: `- b-long` 8 + `- C-short` 9 + `- command` 9, the bundled entry 36, 3 breaks:
        // 65. With 20 left, the long description (62 more) does not fit, the later short one
        // (8) does, and the command's (21) no longer does.
        let tight = render(&lib, &|_| true, &budget(65 + 20));
        assert!(
            tight.text.ends_with(
                "- b-long\n- C-short: Short.\n- bundled: Raw <text>\nkept as it is.\n- command"
            ),
            "{}",
            tight.text
        );
        assert_eq!(
            tight.builtins.iter().map(|b| b.fate).collect::<Vec<_>>(),
            vec![Fate::Full, Fate::NameOnly]
        );
        assert_eq!(tight.used, 65 + 8);
    }

    #[test]
    fn claude_code_caps_each_entry() {
        let (_t, lib) = many(1, 2_000);
        let l = render(
            &lib,
            &|_| true,
            &opts(Format::ClaudeCode, Tier::Full, 10_000_000),
        );
        assert_eq!(fates(&l), vec![Fate::Trimmed]);
        let desc = l
            .text
            .lines()
            .last()
            .unwrap()
            .strip_prefix("- skill-000: ")
            .unwrap();
        assert_eq!(desc.chars().count(), CLAUDE_CODE_ENTRY_CAP);
        assert_eq!(
            entry(&lib.skills[0], Format::ClaudeCode).chars().count(),
            13 + 1_536
        );
    }

    /// The description of each `- NAME: DESCRIPTION (file: r0/…)` line of a Codex listing.
    fn codex_descriptions(l: &Listing) -> Vec<String> {
        l.text
            .lines()
            .filter(|line| line.starts_with("- skill-"))
            .map(|line| {
                let (_, rest) = line.split_once(": ").unwrap();
                let (d, _) = rest.rsplit_once(" (file: r0/").unwrap();
                d.to_string()
            })
            .collect()
    }

    #[test]
    fn codex_shares_description_characters_out_within_its_token_budget() {
        // 60 entries of about 90 estimated tokens each overflow 2% of 200,000 tokens.
        let (_t, lib) = many(60, 300);
        let l = render(&lib, &|_| true, &opts(Format::Codex, Tier::Auto, 200_000));
        assert_eq!(l.budget, Some(Budget::tokens(4_000)));
        assert_eq!(l.tier, Tier::Full);
        assert!(fates(&l).iter().all(|f| *f == Fate::Trimmed));
        // Cut, so the paths are shortened against the one root.
        let root = std::fs::canonicalize(&*lib.skills[0].root).unwrap();
        assert!(
            l.text
                .contains(&format!("### Skill roots\n- `r0` = `{}`\n", root.display())),
            "{}",
            l.text
        );
        let lens: Vec<usize> = codex_descriptions(&l).iter().map(String::len).collect();
        assert_eq!(lens.len(), 60);
        // Shared out one character at a time: lengths differ by one token's 4 bytes at most, the
        // earlier entries longer.
        let (lo, hi) = (lens.iter().min().unwrap(), lens.iter().max().unwrap());
        assert!(hi - lo <= 4 && hi > lo, "{lens:?}");
        assert!(lens.windows(2).all(|w| w[0] >= w[1]), "{lens:?}");
        // Every token is spent: each line costs a quarter of its bytes with its break.
        let lines: usize = l
            .text
            .lines()
            .filter(|line| line.starts_with("- skill-"))
            .map(|line| estimated_tokens(line.len() + 1))
            .sum();
        assert_eq!(l.used, 4_000);
        assert!(lines <= l.used);

        // At 2% of 20,000 tokens even the lines without descriptions overflow: as many as fit.
        let l = render(&lib, &|_| true, &opts(Format::Codex, Tier::Auto, 20_000));
        let bare = estimated_tokens("- skill-000: (file: r0/skill-000/SKILL.md)".len() + 1);
        let fit = 400 / bare;
        assert_eq!(l.count(Fate::NameOnly), fit);
        assert_eq!(l.count(Fate::Dropped), 60 - fit);
        assert!(
            l.text
                .contains("\n- skill-000: (file: r0/skill-000/SKILL.md)\n")
        );
        assert_eq!(l.used, fit * bare);
    }

    #[test]
    fn codex_caps_descriptions_and_orders_names_in_byte_order() {
        let (t, _) = many(1, 2_000);
        write_skill(t.path(), "beta", "name: beta\ndescription: B.\n");
        write_skill(t.path(), "Zeta", "name: Zeta\ndescription: Z.\n");
        let lib = load(&[t.path()]);
        let l = render(&lib, &|_| true, &opts(Format::Codex, Tier::Auto, 200_000));
        let names: Vec<&str> = l
            .text
            .lines()
            .filter_map(|line| line.strip_prefix("- "))
            .filter_map(|line| line.split(':').next())
            .filter(|n| !n.starts_with('`'))
            .collect();
        assert_eq!(names, vec!["Zeta", "beta", "skill-000"]);
        let capped = l
            .text
            .lines()
            .find(|line| line.starts_with("- skill-000: "))
            .unwrap();
        let d = capped
            .strip_prefix("- skill-000: ")
            .and_then(|r| r.strip_suffix(" (file: r0/skill-000/SKILL.md)"))
            .unwrap();
        assert_eq!(d.chars().count(), CODEX_DESCRIPTION_CAP);
        let whole = lib
            .skills
            .iter()
            .find(|s| s.name == "skill-000")
            .and_then(|s| s.frontmatter.description())
            .unwrap();
        assert_eq!(d, format!("{}...", &whole[..CODEX_DESCRIPTION_CAP - 3]));
        let e = l
            .entries
            .iter()
            .find(|e| lib.skills[e.index].name == "skill-000");
        assert_eq!(e.map(|e| e.fate), Some(Fate::Trimmed));
        assert_eq!(l.count(Fate::Full), 2);
    }

    #[test]
    fn python_strip_and_escape() {
        assert_eq!(py_strip("\x1c\u{a0} a b \n\x1f"), "a b");
        assert_eq!(
            html_escape(r#"<a href="x">Tom & Jerry's</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#x27;s&lt;/a&gt;"
        );
    }

    #[test]
    fn cut_keeps_short_text_and_ends_long_text_with_an_ellipsis() {
        assert_eq!(cut("short", 80), ("short".to_string(), false));
        let (c, was) = cut(&"word ".repeat(40), 80);
        assert!(was);
        assert!(c.ends_with("word…"), "{c}");
        assert!(c.chars().count() <= 80);
        let (c, _) = cut("ééééé", 3);
        assert_eq!(c, "éé…");
    }

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.as_str().parse::<Format>().unwrap(), f);
        }
        for &t in Tier::ALL {
            assert_eq!(t.as_str().parse::<Tier>().unwrap(), t);
        }
        assert!("json".parse::<Format>().is_err());
        assert_eq!(Tier::for_count(80), Tier::Full);
        assert_eq!(Tier::for_count(81), Tier::Compact);
        assert_eq!(Tier::for_count(300), Tier::Compact);
        assert_eq!(Tier::for_count(301), Tier::Names);
    }

    #[test]
    fn budgets_follow_the_context_window() {
        assert_eq!(
            Format::ClaudeCode.budget(200_000),
            Some(Budget::chars(8_000))
        );
        assert_eq!(Format::Codex.budget(200_000), Some(Budget::tokens(4_000)));
        assert_eq!(Format::Codex.budget(0), Some(Budget::chars(8_000)));
        assert_eq!(Format::Xml.budget(200_000), None);
    }
}
