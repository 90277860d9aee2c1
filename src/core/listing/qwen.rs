//! Qwen Code 0.24.4's listing (`renderAvailableSkillsBlock`, `trimSkillEntriesTowardsBudget` in
//! its `chunks/`; `tests/fixtures/agents/NEW-AGENTS.md`): every skill and bundled skill sorted
//! by name with `localeCompare`, each entry naming its level; when the block passes 8,000
//! characters, every entry but the bundled ones keeps only the first line of its description
//! and loses its `when_to_use`. Nothing is ever dropped.

use crate::core::library::Library;
use crate::core::listing::format::Budget;
use crate::core::listing::format::{BudgetUnit, Folders, Parts, utf16_len};
use crate::core::listing::formats::{Fit, FormatSpec, Frame};
use crate::core::listing::own::{
    self, Item, name_and_description, safe_line, safe_text, xml_escape,
};
use crate::core::listing::record::{Fate, Listing, ListingOptions};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use crate::core::words::collate::{js_trim, locale_cmp};

/// `MAX_SKILL_LISTING_CHARS`: the most the block of entries may hold (UTF-16 units) before the
/// descriptions are cut to their first line.
pub(crate) const BUDGET_CHARS: usize = crate::core::listing::format::QWEN_CODE_BUDGET_CHARS;

/// What the reminder says instead of a listing when nothing is listed.
pub const NOTHING: &str = "No skills are currently available. Skills can be added by creating directories with SKILL.md files or by configuring MCP servers with model-invocable prompts.";

/// Qwen Code's format.
pub static QWEN_CODE: FormatSpec = FormatSpec {
    id: "qwen-code",
    summary: "<skill> with name, description (level), level, sorted by name",
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
        description: description(skill, false),
        path: level(skill).to_string(),
        root: None,
    },
    line: |p, d| entry(&p.name, d.unwrap_or(""), &p.path),
};

/// The level Qwen Code gives a skill: `project` for the project's folders, else `user`.
fn level(skill: &Skill) -> &'static str {
    match skill.scope {
        Scope::Project => "project",
        _ => "user",
    }
}

/// A skill's description as listed: escaped, its `when_to_use` after ` — `, its level in
/// parentheses; `first_line`: only the description's first line, trimmed (the budget's cut).
fn description(skill: &Skill, first_line: bool) -> String {
    let raw = name_and_description(skill).1;
    let mut d = if first_line {
        xml_escape(js_trim(raw.split('\n').next().unwrap_or("")))
    } else {
        xml_escape(raw)
    };
    if !first_line
        && let Some(w) = skill
            .frontmatter
            .when_to_use
            .as_deref()
            .filter(|w| !w.is_empty())
    {
        d.push_str(" \u{2014} ");
        d.push_str(&xml_escape(w));
    }
    format!("{} ({})", safe_text(&d), level(skill))
}

fn entry(name: &str, description: &str, level: &str) -> String {
    format!(
        "<skill>\n<name>\n{name}\n</name>\n<description>\n{description}\n</description>\n<location>\n{level}\n</location>\n</skill>"
    )
}

/// Whether Qwen Code lists the skill: a name and a non-empty description.
fn listable(s: &Skill) -> bool {
    let (name, description) = name_and_description(s);
    !name.is_empty() && !description.is_empty()
}

/// The listing (see the module's comment).
pub(crate) fn render(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    opts: &ListingOptions,
) -> Listing {
    let (dropped, keep) = own::candidates(lib, enabled, &listable);
    let mut items: Vec<Item> = keep.iter().map(|&i| Item::skill(i)).collect();
    items.extend(opts.builtins.iter().map(Item::builtin));
    let name = |it: &Item| match (it.index, it.builtin) {
        (Some(i), _) => name_and_description(&lib.skills[i]).0.to_string(),
        (None, Some(b)) => b.name.to_string(),
        (None, None) => String::new(),
    };
    items.sort_by(|a, b| locale_cmp(&name(a), &name(b)));
    let render_all = |first_lines: bool| -> Vec<String> {
        items
            .iter()
            .map(|it| match (it.index, it.builtin) {
                (Some(i), _) => {
                    let s = &lib.skills[i];
                    entry(
                        &safe_line(&xml_escape(name_and_description(s).0)),
                        &description(s, first_lines),
                        level(s),
                    )
                }
                (None, Some(b)) => entry(
                    &xml_escape(b.name),
                    &format!("{} (bundled)", xml_escape(b.description)),
                    "bundled",
                ),
                (None, None) => String::new(),
            })
            .collect()
    };
    let whole = render_all(false);
    let cut = render_all(true);
    let full = whole.join("\n");
    let budget = opts.budget().unwrap_or(Budget::chars(BUDGET_CHARS));
    let block = if utf16_len(&full) <= budget.limit {
        full
    } else {
        for (it, (whole, short)) in items.iter_mut().zip(whole.iter().zip(&cut)) {
            if whole != short {
                it.demote(
                    Fate::Trimmed,
                    format!(
                        "over the listing budget of {budget}: description cut to its first line, when_to_use left out"
                    ),
                );
            }
        }
        cut.join("\n")
    };
    let used = utf16_len(&block);
    let text = if items.is_empty() {
        NOTHING.to_string()
    } else {
        format!("<available_skills>\n{block}\n</available_skills>")
    };
    own::finish(lib, text, Some(budget), used, dropped, items)
}
