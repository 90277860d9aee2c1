//! The listings of Qwen Code, GitHub Copilot CLI, Cline and OpenClaw, each built whole by its own
//! module (`qwen.rs`, `copilot.rs`, `cline.rs`, `openclaw.rs`) the way its client builds it
//! (`tests/fixtures/agents/NEW-AGENTS.md`, checked by `tests/cli/ground_truth.rs`): their order,
//! budgets and built-ins share nothing with the other formats' slots. What they share is here:
//! which skills are candidates, the escaping three of them use, and the listing's bookkeeping.

use super::format::{Budget, BuiltinEntry};
use super::record::{Fate, ListedBuiltin, ListedSkill, Listing, Tier};
use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::words::escape;
use std::borrow::Cow;

/// The enabled skills split into the ones left out before any listing (shadowed, not listable
/// by the agent, inactive), with why, and the indexes of the ones it can list.
pub(crate) fn candidates(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    listable: &dyn Fn(&Skill) -> bool,
) -> (Vec<ListedSkill>, Vec<usize>) {
    let mut out = Vec::new();
    let mut keep = Vec::new();
    for (i, s) in lib.skills.iter().enumerate() {
        if !enabled(i) {
            continue;
        }
        let why = if let Some(w) = s.shadowed_by {
            let winner = lib.skills.get(w);
            Some(format!(
                "shadowed by {} ({})",
                winner.map_or("?", |w| w.name.as_str()),
                winner.map_or_else(String::new, |w| w.dir.display().to_string())
            ))
        } else if let Some(why) = lib.inactive.get(&i) {
            Some(why.clone())
        } else if !listable(s) {
            Some("its client cannot read a name and a description for it".to_string())
        } else {
            None
        };
        match why {
            Some(reason) => out.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason,
            }),
            None => keep.push(i),
        }
    }
    (out, keep)
}

/// The name and description a skill is listed with: its frontmatter's as the agent's reading
/// left them (the folder's name when it has none).
pub(crate) fn name_and_description(skill: &Skill) -> (&str, &str) {
    let fm = &skill.frontmatter;
    (
        fm.name.as_deref().unwrap_or(&skill.name),
        fm.description().unwrap_or(""),
    )
}

/// `&`, `<`, `>`, `"` and `'` as entities, `'` as `&apos;` (Qwen Code's `escapeXml`, OpenClaw's
/// `escapeSkillXml`, Copilot's listing).
pub(crate) fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// A name or path on one line: control characters and bidi overrides escaped, as every listing
/// shows them (see the listing's `parts`).
pub(crate) fn safe_line(s: &str) -> String {
    match escape::line(s) {
        Cow::Borrowed(b) => b.to_string(),
        Cow::Owned(o) => o,
    }
}

/// A description: line feeds and tabs kept, other hazards escaped.
pub(crate) fn safe_text(s: &str) -> String {
    match escape::text(s) {
        Cow::Borrowed(b) => b.to_string(),
        Cow::Owned(o) => o,
    }
}

/// One entry on its way into one of these listings: a skill of the library or a built-in.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    /// Index into the library's skills; `None` for a built-in.
    pub(crate) index: Option<usize>,
    /// The built-in entry, for one.
    pub(crate) builtin: Option<&'static BuiltinEntry>,
    /// What became of it.
    pub(crate) fate: Fate,
    /// Why, when it is not listed in full.
    pub(crate) reason: String,
}

impl Item {
    pub(crate) fn skill(index: usize) -> Item {
        Item {
            index: Some(index),
            builtin: None,
            fate: Fate::Full,
            reason: String::new(),
        }
    }

    pub(crate) fn builtin(b: &'static BuiltinEntry) -> Item {
        Item {
            index: None,
            builtin: Some(b),
            fate: Fate::Full,
            reason: String::new(),
        }
    }

    /// Marks it listed less than in full.
    pub(crate) fn demote(&mut self, fate: Fate, reason: impl Into<String>) {
        if fate > self.fate {
            self.fate = fate;
        }
        self.reason = reason.into();
    }
}

/// The listing's record: its text, budget and what became of every enabled skill (`dropped`,
/// left out before it was laid out, and `items`, in listing order) and built-in, and the names
/// listed.
pub(crate) fn finish(
    lib: &Library,
    text: String,
    budget: Option<Budget>,
    used: usize,
    mut dropped: Vec<ListedSkill>,
    items: Vec<Item>,
) -> Listing {
    let mut builtins = Vec::new();
    let names = items
        .iter()
        .filter(|it| it.fate != Fate::Dropped)
        .filter_map(|it| match (it.index, it.builtin) {
            (Some(i), _) => lib
                .skills
                .get(i)
                .map(|s| name_and_description(s).0.to_string()),
            (None, b) => b.map(|b| b.name.to_string()),
        })
        .collect();
    for it in items {
        match (it.index, it.builtin) {
            (Some(index), _) => dropped.push(ListedSkill {
                index,
                fate: it.fate,
                reason: it.reason,
            }),
            (None, Some(b)) => builtins.push(ListedBuiltin {
                name: b.name,
                fate: it.fate,
            }),
            (None, None) => {}
        }
    }
    dropped.sort_by_key(|e| e.index);
    Listing {
        text,
        tier: Tier::Full,
        budget,
        used,
        entries: dropped,
        builtins,
        names,
        texts: Vec::new(),
    }
}
