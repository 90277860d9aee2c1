//! A skill's entry in a listing format: its parts as the format takes them, cut to the
//! format's caps, as one line.

use super::dialect::Dialect;
use super::format::{Folders, Format, Parts};
use super::formats;
use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::words::escape;
use rayon::prelude::*;
use std::borrow::Cow;

/// Cuts `s` to at most `max` characters, ending in `…` when anything was cut.
pub(super) fn cut(s: &str, max: usize) -> (String, bool) {
    if s.chars().count() <= max {
        return (s.to_string(), false);
    }
    let keep: String = s.chars().take(max.saturating_sub(1)).collect();
    (format!("{}…", keep.trim_end()), true)
}

pub(super) fn parts(skill: &Skill, format: Format, folders: &Folders, dialect: Dialect) -> Parts {
    let mut p = match format {
        // Claude Code's parts are what it sends: it removes or replaces every hazard itself
        // (`claude_text`), and a name holding one is not offered.
        Format::ClaudeCode => return formats::claude_parts(skill, dialect),
        _ => raw_parts(skill, format, folders),
    };
    // A control character would make the XML ill-formed and can drive the terminal the listing
    // is printed on; a bidi override would make an entry read as something else. They are
    // listed escaped (`\u{1b}`), names and paths on one line.
    if let Cow::Owned(n) = escape::line(&p.name) {
        p.name = n;
    }
    if let Cow::Owned(d) = escape::text(&p.description) {
        p.description = d;
    }
    if let Cow::Owned(l) = escape::line(&p.path) {
        p.path = l;
    }
    p
}

pub(super) fn raw_parts(skill: &Skill, format: Format, folders: &Folders) -> Parts {
    (format.spec().parts)(skill, folders)
}

/// One entry; `description` is `None` for a name-only entry.
pub(super) fn line(format: Format, p: &Parts, description: Option<&str>) -> String {
    (format.spec().line)(p, description)
}

/// Whether `format` can list the skill: a parsed name and description (an empty description
/// counts for the formats that list one).
pub(super) fn listable_in(skill: &Skill, format: Format) -> bool {
    if !format.spec().empty_description {
        return skill.listable();
    }
    let fm = &skill.frontmatter;
    fm.parsed
        && fm.name.as_deref().is_some_and(|n| !n.trim().is_empty())
        && fm.description().is_some()
}

/// The full-tier entry of one skill: its L1 text. Empty for a skill no agent can list (no parsed
/// name or description).
pub fn entry(skill: &Skill, format: Format) -> String {
    entry_in(skill, format, &Folders::default())
}

pub(super) fn entry_in(skill: &Skill, format: Format, folders: &Folders) -> String {
    if !listable_in(skill, format) {
        return String::new();
    }
    let p = parts(skill, format, folders, Dialect::CURRENT);
    let d = match &format.spec().entry_cap {
        Some(cap) => (cap.cut)(&p.description, cap.max).0,
        None => p.description.clone(),
    };
    line(format, &p, Some(&d))
}

/// [`entry`] for every skill of the library, in library order, built on worker threads.
pub fn entries(lib: &Library, format: Format) -> Vec<String> {
    let entry = entry_maker(format);
    lib.skills.par_iter().map(&entry).collect()
}

/// What [`entries`] makes of each skill, one skill at a time (the folders it resolves are
/// remembered across calls).
pub fn entry_maker(format: Format) -> impl Fn(&Skill) -> String + Sync {
    let folders = Folders::default();
    move |s| entry_in(s, format, &folders)
}
