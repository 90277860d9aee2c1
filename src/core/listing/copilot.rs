//! GitHub Copilot CLI 1.0.102's listing, as its captures show it (the listing is built in its
//! native `runtime.node`; `tests/fixtures/agents/NEW-AGENTS.md`): skills in the order its folders
//! are read (the project's `.github/skills`, `.agents/skills`, `.claude/skills`, each from the
//! working folder up to the repository root, then `~/.copilot/skills`, `~/.agents/skills`), by
//! name in byte order within a folder — the project's three folders of one level by name
//! across them — its built-in skills last; each entry names its group. A description over
//! 1,024 characters leaves its skill out.
//! Entries are written whole while they fit its budget; every name after that goes on one line.
//! Releases before 1.0.102 order each folder's skills by the path of their SKILL.md and the
//! project's folders one after the other ([`Dialect::copilot_path_order`](super::Dialect)).

use crate::core::library::Library;
use crate::core::listing::format::Budget;
use crate::core::listing::format::{BudgetUnit, Folders, Parts};
use crate::core::listing::formats::{Fit, FormatSpec, Frame};
use crate::core::listing::own::{
    self, Item, name_and_description, safe_line, safe_text, xml_escape,
};
use crate::core::listing::record::{Fate, ListedSkill, Listing, ListingOptions};
use crate::core::skill::Skill;
use crate::core::source::Scope;

/// The most characters the whole entries may take. Native and not read: its capture wrote 37
/// entries of 401 characters (14,837) and not a 38th (15,238).
pub(crate) const BUDGET_CHARS: usize = crate::core::listing::format::COPILOT_BUDGET_CHARS;

/// The line that closes the listing with the names that did not fit.
const MORE: &str = "Additional skills available (invoke by name): ";

/// What it says when nothing is listed (a string of its binary; not captured).
pub const NOTHING: &str = "No skills available.";

/// Copilot's format.
pub static COPILOT: FormatSpec = FormatSpec {
    id: "copilot",
    summary: "<skill> with name, description, group, in folder order",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: false,
    order: crate::core::listing::formats::Order::Library,
    empty_description: true,
    frame: Frame::Wrapped {
        open: "<available_skills>",
        close: "</available_skills>",
    },
    parts: |skill, _: &Folders| Parts {
        name: safe_line(&xml_escape(name_and_description(skill).0)),
        alias: None,
        description: description(skill),
        path: group(skill).to_string(),
        root: None,
    },
    line: |p, d| entry(&p.name, d.unwrap_or(""), &p.path),
};

/// The group Copilot names a skill's folder by.
fn group(skill: &Skill) -> &'static str {
    match skill.scope {
        Scope::Project => "project",
        _ => "user",
    }
}

/// A description as listed: its line breaks and spaces kept, escaped; the line breaks at the
/// end of a block scalar's (`|`, `>`) dropped, those a quoted scalar ends in kept (`wide`'s
/// `pipe-desc` and `quoted-blank-end`).
fn description(skill: &Skill) -> String {
    let d = name_and_description(skill).1;
    let d = if skill.frontmatter.description_style.is_block() {
        d.trim_end_matches(['\n', '\r'])
    } else {
        d
    };
    safe_text(&xml_escape(d))
}

fn entry(name: &str, description: &str, group: &str) -> String {
    format!(
        "<skill>\n  <name>{name}</name>\n  <description>{description}</description>\n  <location>{group}</location>\n</skill>\n"
    )
}

/// Where a skill's folder comes in Copilot's reading: the project's `.github/skills`, then
/// `.agents/skills`, then `.claude/skills` (each nearest the working folder first), then
/// `~/.copilot/skills`, `~/.agents/skills`; folders given by hand after them.
pub fn folder_rank(skill: &Skill) -> (u8, isize) {
    let root: &std::path::Path = &skill.root;
    let depth = isize::try_from(root.components().count()).unwrap_or(isize::MAX);
    match skill.scope {
        Scope::Project if root.ends_with(".github/skills") => (0, -depth),
        Scope::Project if root.ends_with(".agents/skills") => (1, -depth),
        Scope::Project => (2, -depth),
        Scope::User if root.ends_with(".copilot/skills") => (3, 0),
        Scope::User => (4, 0),
        _ => (5, 0),
    }
}

/// A skill's SKILL.md below its folder as the bytes Copilot before 1.0.102 orders a folder's
/// skills by (`nested/inner-skill/SKILL.md`; `codex-disabled-by-path/SKILL.md` sorts before
/// `codex-disabled/SKILL.md`, as `-` is below `/`).
fn path_key(skill: &Skill) -> Vec<u8> {
    let rel = skill
        .skill_md
        .strip_prefix(&*skill.root)
        .unwrap_or(&skill.skill_md);
    rel.to_string_lossy().replace('\\', "/").into_bytes()
}

/// The longest description Copilot takes: a skill with a longer one is left out of the listing
/// (`wide/listing.txt`: `desc-over-1024`, 1,124 characters, absent; `desc-1024` listed).
const MAX_DESCRIPTION: usize = 1024;

/// Whether every project skill listed lies in the one folder level (`.github/skills`,
/// `.agents/skills`, `.claude/skills` of one folder): Copilot then lists them by name across the
/// three (`wide/listing.txt`); found at several levels (the working folder below the repository
/// root), folder by folder, nearer first (`folders/listing.txt`).
fn one_project_level(lib: &Library, keep: &[usize]) -> bool {
    let mut levels = keep
        .iter()
        .map(|&i| &lib.skills[i])
        .filter(|s| s.scope == Scope::Project)
        .filter_map(|s| s.root.parent().and_then(std::path::Path::parent));
    let Some(first) = levels.next() else {
        return true;
    };
    levels.all(|l| l == first)
}

/// Copilot lists a skill with a name (its folder's when it has none) and any description, an
/// empty one too.
fn listable(s: &Skill) -> bool {
    s.frontmatter.parsed && !name_and_description(s).0.is_empty()
}

/// The listing (see the module's comment).
pub(crate) fn render(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    opts: &ListingOptions,
) -> Listing {
    let (mut dropped, mut keep) = own::candidates(lib, enabled, &listable);
    keep.retain(|&i| {
        let fits = name_and_description(&lib.skills[i]).1.chars().count() <= MAX_DESCRIPTION;
        if !fits {
            dropped.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: format!(
                    "its description is over the {MAX_DESCRIPTION} characters GitHub Copilot CLI \
                     takes (\"Skill description must be at most 1024 characters\")"
                ),
            });
        }
        fits
    });
    let by_path = opts.dialect.copilot_path_order;
    let one_level = !by_path && one_project_level(lib, &keep);
    let rank = |s: &Skill| match folder_rank(s) {
        (r, _) if one_level && r <= 2 => (0, 0),
        r => r,
    };
    keep.sort_by(|&a, &b| {
        let (sa, sb) = (&lib.skills[a], &lib.skills[b]);
        let folder =
            |s: &Skill| (!(one_level && s.scope == Scope::Project)).then(|| s.root.clone());
        let within = || {
            if by_path {
                path_key(sa).cmp(&path_key(sb))
            } else {
                name_and_description(sa).0.cmp(name_and_description(sb).0)
            }
        };
        rank(sa)
            .cmp(&rank(sb))
            .then_with(|| folder(sa).cmp(&folder(sb)))
            .then_with(within)
    });
    let mut items: Vec<Item> = keep.iter().map(|&i| Item::skill(i)).collect();
    items.extend(opts.builtins.iter().map(Item::builtin));
    let budget = opts.budget().unwrap_or(Budget::chars(BUDGET_CHARS));
    let mut text = String::from("<available_skills>\n");
    let mut used = 0;
    let mut more: Vec<String> = Vec::new();
    for it in &mut items {
        let (name, e) = match (it.index, it.builtin) {
            (Some(i), _) => {
                let s = &lib.skills[i];
                let name = safe_line(&xml_escape(name_and_description(s).0));
                let e = entry(&name, &description(s), group(s));
                (name, e)
            }
            (None, Some(b)) => {
                let name = xml_escape(b.name);
                let e = entry(&name, &xml_escape(b.description), "builtin");
                (name, e)
            }
            (None, None) => continue,
        };
        let cost = e.chars().count();
        if more.is_empty() && used + cost <= budget.limit {
            used += cost;
            text.push_str(&e);
        } else {
            it.demote(
                Fate::NameOnly,
                format!("over the listing budget of {budget}: named on the closing line only"),
            );
            more.push(name);
        }
    }
    if !more.is_empty() {
        text.push_str(MORE);
        text.push_str(&more.join(", "));
        text.push('\n');
    }
    text.push_str("</available_skills>");
    if items.is_empty() {
        text = NOTHING.to_string();
    }
    own::finish(lib, text, Some(budget), used, dropped, items)
}
