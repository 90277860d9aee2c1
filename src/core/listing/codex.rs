//! Codex 0.171.0's listing as its client builds it (read in `tests/fixtures/agents/FINDINGS.md`,
//! checked byte for byte by `tests/cli/ground_truth.rs`): the entries are rendered with absolute
//! paths and once more with `rN/…` paths below a "Skill roots" table, and the better of the two
//! is kept (fewer cuts, then fewer characters: in practice the table, whose intro is shorter).
//! Over the budget, description characters are handed out one at a time, round-robin in listing
//! order, while each line's cost still fits; when even the bare lines overflow, bare lines while
//! they fit.

use super::dialect::Dialect;
use super::format::{Budget, BudgetUnit, ShortRoot, estimated_tokens};

/// The listing's first line.
pub(super) const OPEN: &str = "<skills_instructions>";
/// Its last line.
pub(super) const CLOSE: &str = "</skills_instructions>";
/// The intro when paths are shortened against the skill roots table (captured).
const INTRO_WITH_ROOTS: &str = "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";
/// The intro when every path is absolute. Not captured (every capture cut something); this is
/// the text of the open-source renderer the captured one matches, and it is longer than the
/// other intro plus a small roots table, which the `budget150` capture needs (its table costs
/// nothing extra).
const INTRO_WITH_ABSOLUTE_PATHS: &str = "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list of skills that can be used. Each entry includes a name, description, and source locator. `file` locators are on the host filesystem, `environment resource` locators are owned by an execution environment, `orchestrator resource` locators are opaque non-filesystem resources, and `custom resource` locators use their provider's access mechanism.";

/// The heading of the section Codex sends after the entries to a model whose catalogue entry sets
/// `include_skills_usage_instructions` (`ClientModel::skills_usage`), before the closing tag.
const USAGE_HEADING: &str = "### How to use skills";
/// That section's text when paths are short against the roots table: the same in 0.148.0 and
/// 0.171.0 (captured: `codex@0.148.0/budget150-gpt54`, `codex@0.171.0/mixed-gpt55`).
const USAGE_WITH_ROOTS: &str = concat!(
    "- Discovery: The list above is the skills available in this session (name + description + short path). Skill bodies live on disk at the listed paths after expanding the matching alias from `### Skill roots`.\n",
    "- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.\n",
    "- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and continue with the best fallback.\n",
    "- How to use a skill (progressive disclosure):\n",
    "  1) After deciding to use a skill, the main agent must expand the listed short `path` with the matching alias from `### Skill roots`, then open and read its `SKILL.md` completely before taking task actions. If a read is truncated or paginated, continue until EOF.\n",
    "  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them relative to the directory containing that expanded `SKILL.md` first, and only consider other paths if needed.\n",
    "  3) If `SKILL.md` points to extra folders such as `references/`, use its routing instructions to identify the files required for the task. The main agent must read each required instruction or reference file itself before acting on it. Do not delegate reading, summarizing, or interpreting skill instructions to a subagent. Subagents may still perform task work when the selected skill allows it.\n",
    "  4) If `scripts/` exist, prefer running or patching them instead of retyping large code blocks.\n",
    "  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.\n",
    "- Coordination and sequencing:\n",
    "  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.\n",
    "  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.\n",
    "- Context hygiene:\n",
    "  - Progressive disclosure applies to selecting relevant files, not partially reading a selected instruction file. Do not load unrelated references, scripts, or assets.\n",
    "  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` unless you're blocked.\n",
    "  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.\n",
    "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue.",
);
/// Its text before absolute paths in 0.171.0, read from its binary (its runs so far all used the
/// table); 0.148.0's and 0.151.0's name orchestrator packages where this one names cloud
/// packages (`Dialect::codex_plain_usage`; captured: `codex@0.148.0/mixed-gpt54`).
const USAGE_WITH_ABSOLUTE_PATHS: &str = concat!(
    "- Discovery: The list above is the skills available in this session (name + description + source locator). `file` entries live on the host filesystem, `executor package` and `cloud package` entries are accessed directly through `skills.read`, and `custom resource` entries use their provider's access mechanism.\n",
    "- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task clearly matches a skill's description shown above, you must use that skill for that turn. Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.\n",
    "- Missing/blocked: If a named skill isn't in the list or its source can't be read, say so briefly and continue with the best fallback.\n",
    "- How to use a skill (progressive disclosure):\n",
    "  1) After deciding to use a skill, the main agent must read its `SKILL.md` completely before taking task actions. For a `file` entry, open the listed path. For an `executor package` or `cloud package`, pass the listed locator directly to `skills.read` as `package`; root aliases are resolved automatically. Omit `resource` to read `SKILL.md` directly without calling `skills.list`. If a read is paginated, follow `next_cursor` until EOF.\n",
    "  2) When `SKILL.md` references another resource, use the same access mechanism. For executor and cloud skills, pass the complete package-contained resource identifier with the same package to `skills.read`; do not treat `skill://` identifiers as filesystem paths.\n",
    "  3) If `SKILL.md` points to extra folders such as `references/`, use its routing instructions to identify the resources required for the task. The main agent must read each required instruction or reference file itself before acting on it. Do not delegate reading, summarizing, or interpreting skill instructions to a subagent. Subagents may still perform task work when the selected skill allows it.\n",
    "  4) For filesystem-backed skills, prefer running or patching provided scripts instead of retyping large code blocks. For executor and cloud skills, use `skills.read` and the available tools; do not invent a local path.\n",
    "  5) Reuse provided assets or templates through the same source access mechanism instead of recreating them.\n",
    "- Coordination and sequencing:\n",
    "  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll use them.\n",
    "  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say why.\n",
    "- Context hygiene:\n",
    "  - Progressive disclosure applies to selecting relevant files, not partially reading a selected instruction file. Do not load unrelated references, scripts, or assets.\n",
    "  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` unless you're blocked.\n",
    "  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and note that choice.\n",
    "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state the issue, pick the next-best approach, and continue.",
);

/// One entry on its way into the listing, in listing order.
pub(super) struct Entry<'a> {
    pub(super) name: &'a str,
    /// The description after the 1,024-character cap; empty for none.
    pub(super) description: &'a str,
    /// Characters the cap cut from it.
    pub(super) capped: usize,
    /// Its SKILL.md's absolute path (empty: no path shown).
    pub(super) path: &'a str,
    /// The root it was found below.
    pub(super) root: Option<&'a ShortRoot>,
}

/// How much of an entry the listing kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kept {
    /// Its whole description.
    All,
    /// The first this many characters of its description.
    Part(usize),
    /// No description: `- NAME: (file: …)`.
    Bare,
    /// Left out.
    Omitted,
}

/// The listing Codex sends.
#[derive(Debug)]
pub(super) struct Rendered {
    /// One per entry.
    pub(super) kept: Vec<Kept>,
    /// The entries' lines, the omitted ones left out.
    pub(super) lines: Vec<String>,
    /// The skill roots table's lines; empty when the paths are absolute.
    pub(super) roots: Vec<String>,
    /// What the budget was charged: every line with its line break, plus what the roots table
    /// adds to the frame.
    pub(super) used: usize,
}

/// One render of the entries with one set of paths, and Codex's report of it.
struct Fitted {
    kept: Vec<Kept>,
    lines: Vec<String>,
    used: usize,
    included: usize,
    /// Description characters not shown, the cap's included.
    cut_chars: usize,
}

fn line(name: &str, description: &str, path: &str) -> String {
    match (description.is_empty(), path.is_empty()) {
        (true, true) => format!("- {name}"),
        (false, true) => format!("- {name}: {description}"),
        (true, false) => format!("- {name}: (file: {path})"),
        (false, false) => format!("- {name}: {description} (file: {path})"),
    }
}

/// What `chars` characters of `bytes` UTF-8 bytes cost.
fn cost_of(unit: BudgetUnit, chars: usize, bytes: usize) -> usize {
    match unit {
        BudgetUnit::Chars => chars,
        BudgetUnit::Tokens => estimated_tokens(bytes),
    }
}

/// A line's cost with its line break.
fn line_cost(unit: BudgetUnit, l: &str) -> usize {
    cost_of(unit, l.chars().count() + 1, l.len() + 1)
}

/// The listing of `entries` (in listing order) within `budget`.
pub(super) fn render(entries: &[Entry], budget: Budget, dialect: Dialect) -> Rendered {
    let intro = plain_intro(dialect);
    let absolute_paths: Vec<&str> = entries.iter().map(|e| e.path).collect();
    let absolute = fit(entries, &absolute_paths, budget);
    let plain = Rendered {
        kept: absolute.kept.clone(),
        lines: absolute.lines.clone(),
        roots: Vec::new(),
        used: absolute.used,
    };
    // Both renders are made whether or not the absolute one cut anything: Codex 0.171.0 sends the
    // roots table for two uncut skills of one root too (seen with `skillscope verify`), so the
    // cheaper render wins, a tie going to the table.
    // Before 0.151.0 the table came only when the budget made the absolute paths cut
    // something (the 1,024-character cap does not count: 0.148.0 sent absolute paths with a
    // capped description).
    let capped: usize = entries.iter().map(|e| e.capped).sum();
    let uncut = absolute.included == entries.len() && absolute.cut_chars == capped;
    if uncut && !dialect.roots_when_cheaper {
        return plain;
    }
    let (table, short) = short_paths(entries);
    if table.is_empty() {
        return plain;
    }
    let table_cost = budget
        .unit
        .cost(&body(&table, intro))
        .saturating_sub(budget.unit.cost(&body(&[], intro)));
    if table_cost >= budget.limit {
        return plain;
    }
    let shorter = Budget {
        limit: budget.limit - table_cost,
        unit: budget.unit,
    };
    let short_refs: Vec<&str> = short.iter().map(String::as_str).collect();
    let aliased = fit(entries, &short_refs, shorter);
    let better = if aliased.included != absolute.included {
        aliased.included > absolute.included
    } else if aliased.cut_chars != absolute.cut_chars {
        aliased.cut_chars < absolute.cut_chars
    } else {
        aliased.used + table_cost <= absolute.used
    };
    if !better {
        return plain;
    }
    Rendered {
        kept: aliased.kept,
        lines: aliased.lines,
        roots: table,
        used: aliased.used + table_cost,
    }
}

/// The roots table (roots in the client's order, numbered `r0`…) and every entry's path
/// shortened against its root (absolute when it is not below it).
fn short_paths(entries: &[Entry]) -> (Vec<String>, Vec<String>) {
    let mut roots: Vec<&ShortRoot> = entries.iter().filter_map(|e| e.root).collect();
    roots.sort();
    roots.dedup();
    let table = roots
        .iter()
        .enumerate()
        .map(|(i, r)| format!("- `r{i}` = `{}`", r.path))
        .collect();
    let short = entries
        .iter()
        .map(|e| {
            let below = e.root.and_then(|r| {
                let i = roots.binary_search(&r).ok()?;
                let rest = e.path.strip_prefix(r.path.as_str())?.strip_prefix('/')?;
                Some(format!("r{i}/{rest}"))
            });
            below.unwrap_or_else(|| e.path.to_string())
        })
        .collect();
    (table, short)
}

/// The frame without entries, as Codex prices the roots table: the intro and the table.
fn body(roots: &[String], intro: &str) -> String {
    assemble_inner(roots, &[], intro, None)
}

/// The intro before absolute paths in the release of `dialect`.
pub(super) fn plain_intro(dialect: Dialect) -> &'static str {
    dialect
        .codex_plain_intro
        .unwrap_or(INTRO_WITH_ABSOLUTE_PATHS)
}

/// The "How to use skills" text Codex sends with paths as `roots` has them (short when there is a
/// table) in the release of `dialect`.
pub(super) fn usage(roots: &[String], dialect: Dialect) -> &'static str {
    if roots.is_empty() {
        dialect
            .codex_plain_usage
            .unwrap_or(USAGE_WITH_ABSOLUTE_PATHS)
    } else {
        USAGE_WITH_ROOTS
    }
}

/// The listing's text: the frame, the intro, the roots table when paths are short, the lines,
/// and the section on how to use skills when the model is sent one (`usage`). That section is
/// not charged to the budget: Codex fits the entries first and adds it after them.
pub(super) fn assemble(
    roots: &[String],
    lines: &[String],
    intro: &str,
    usage: Option<&str>,
) -> String {
    format!(
        "{OPEN}{}{CLOSE}",
        assemble_inner(roots, lines, intro, usage)
    )
}

fn assemble_inner(roots: &[String], lines: &[String], intro: &str, usage: Option<&str>) -> String {
    let mut all: Vec<&str> = vec!["## Skills"];
    if roots.is_empty() {
        all.push(intro);
    } else {
        all.push(INTRO_WITH_ROOTS);
        all.push("### Skill roots");
        all.extend(roots.iter().map(String::as_str));
    }
    all.push("### Available skills");
    all.extend(lines.iter().map(String::as_str));
    if let Some(text) = usage {
        all.push(USAGE_HEADING);
        all.push(text);
    }
    format!("\n{}\n", all.join("\n"))
}

/// The entries with `paths` within `budget`: all in full when they fit; else, when the bare
/// lines fit, descriptions shared out; else bare lines while they fit.
fn fit(entries: &[Entry], paths: &[&str], budget: Budget) -> Fitted {
    let unit = budget.unit;
    let capped: usize = entries.iter().map(|e| e.capped).sum();
    let full: Vec<String> = entries
        .iter()
        .zip(paths)
        .map(|(e, p)| line(e.name, e.description, p))
        .collect();
    let full_cost: usize = full.iter().map(|l| line_cost(unit, l)).sum();
    if full_cost <= budget.limit {
        return Fitted {
            kept: vec![Kept::All; entries.len()],
            lines: full,
            used: full_cost,
            included: entries.len(),
            cut_chars: capped,
        };
    }
    let bare: Vec<String> = entries
        .iter()
        .zip(paths)
        .map(|(e, p)| line(e.name, "", p))
        .collect();
    let bare_costs: Vec<usize> = bare.iter().map(|l| line_cost(unit, l)).collect();
    let bare_cost: usize = bare_costs.iter().sum();
    if bare_cost <= budget.limit {
        return share_out(
            entries,
            paths,
            &bare,
            budget,
            budget.limit - bare_cost,
            capped,
        );
    }
    let mut out = Fitted {
        kept: Vec::with_capacity(entries.len()),
        lines: Vec::new(),
        used: 0,
        included: 0,
        cut_chars: capped,
    };
    // Codex goes on past an entry that does not fit: a later, shorter one may.
    for ((e, l), c) in entries.iter().zip(bare).zip(bare_costs) {
        out.cut_chars += e.description.chars().count();
        if out.used + c <= budget.limit {
            out.used += c;
            out.included += 1;
            out.lines.push(l);
            out.kept.push(if e.description.is_empty() {
                Kept::All
            } else {
                Kept::Bare
            });
        } else {
            out.kept.push(Kept::Omitted);
        }
    }
    out
}

/// One entry's share while descriptions are handed out.
#[derive(Clone, Copy)]
struct Share {
    /// Characters and bytes of the description kept so far.
    chars: usize,
    bytes: usize,
    /// What they add to the bare line's cost.
    extra: usize,
}

/// Descriptions handed out one character at a time, round-robin over the entries in listing
/// order: a character is taken when what it adds to its line's cost fits in what is `left`.
/// Lines are cut raw (no `...`).
fn share_out(
    entries: &[Entry],
    paths: &[&str],
    bare: &[String],
    budget: Budget,
    mut left: usize,
    capped: usize,
) -> Fitted {
    let unit = budget.unit;
    // A bare line with its break; a description adds its characters and one space.
    let bases: Vec<(usize, usize)> = bare
        .iter()
        .map(|l| (l.chars().count() + 1, l.len() + 1))
        .collect();
    let mut shares = vec![
        Share {
            chars: 0,
            bytes: 0,
            extra: 0
        };
        entries.len()
    ];
    loop {
        let mut changed = false;
        for ((e, s), &(chars, bytes)) in entries.iter().zip(shares.iter_mut()).zip(&bases) {
            let Some(c) = e.description[s.bytes..].chars().next() else {
                continue;
            };
            let (nc, nb) = (s.chars + 1, s.bytes + c.len_utf8());
            let extra = cost_of(unit, chars + nc + 1, bytes + nb + 1)
                .saturating_sub(cost_of(unit, chars, bytes));
            let delta = extra.saturating_sub(s.extra);
            if delta <= left {
                left -= delta;
                *s = Share {
                    chars: nc,
                    bytes: nb,
                    extra,
                };
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = Fitted {
        kept: Vec::with_capacity(entries.len()),
        lines: Vec::with_capacity(entries.len()),
        used: 0,
        included: entries.len(),
        cut_chars: capped,
    };
    for ((e, p), s) in entries.iter().zip(paths).zip(&shares) {
        let l = line(e.name, &e.description[..s.bytes], p);
        out.used += line_cost(unit, &l);
        out.lines.push(l);
        let whole = s.bytes == e.description.len();
        out.cut_chars += e.description[s.bytes..].chars().count();
        out.kept.push(match (whole, s.chars) {
            (true, _) => Kept::All,
            (false, 0) => Kept::Bare,
            (false, n) => Kept::Part(n),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'a>(name: &'a str, description: &'a str, path: &'a str) -> Entry<'a> {
        Entry {
            name,
            description,
            capped: 0,
            path,
            root: None,
        }
    }

    #[test]
    fn a_line_costs_a_quarter_of_its_bytes_with_its_break_rounded_up() {
        assert_eq!(line_cost(BudgetUnit::Tokens, "abc"), 1);
        assert_eq!(line_cost(BudgetUnit::Tokens, "abcd"), 2);
        assert_eq!(line_cost(BudgetUnit::Tokens, "é"), 1);
        assert_eq!(line_cost(BudgetUnit::Chars, "é"), 2);
    }

    #[test]
    fn entries_without_a_root_keep_their_absolute_paths() {
        let e = [entry("a", "Alpha.", "/r/a/SKILL.md")];
        let r = render(&e, Budget::tokens(1_000), Dialect::CURRENT);
        assert_eq!(r.kept, vec![Kept::All]);
        assert!(r.roots.is_empty());
        let text = assemble(&r.roots, &r.lines, INTRO_WITH_ABSOLUTE_PATHS, None);
        assert!(
            text.ends_with(
                "### Available skills\n- a: Alpha. (file: /r/a/SKILL.md)\n</skills_instructions>"
            ),
            "{text}"
        );
        assert_eq!(r.used, line_cost(BudgetUnit::Tokens, &r.lines[0]));
    }

    #[test]
    fn characters_go_round_robin_while_each_line_still_fits() {
        // Bare lines `- a: (file: p)` are 14 characters with the break (15 chars budget); a
        // character of description costs one more, the first also its space.
        let e = [
            entry("a", "xxxxxxxx", "p"),
            entry("b", "yy", "p"),
            entry("c", "zzzzzzzz", "p"),
        ];
        let bare = 3 * 15;
        // Rounds: 2 + 2 + 2, then 1 + 1 + 1 (b is whole), then a and c 1 each, then a 1 more
        // and nothing is left for c.
        let r = render(&e, Budget::chars(bare + 12), Dialect::CURRENT);
        assert_eq!(r.kept, vec![Kept::Part(4), Kept::All, Kept::Part(3)]);
        assert_eq!(r.lines[0], "- a: xxxx (file: p)");
        assert_eq!(r.lines[2], "- c: zzz (file: p)");
        assert_eq!(r.used, bare + 12);
    }

    #[test]
    fn bare_lines_while_they_fit_and_a_later_shorter_one_still_gets_in() {
        let e = [
            entry("aaaaaaaaaa", "x", "p"),
            entry("bbbbbbbbbbbbbbbbbbbb", "y", "p"),
            entry("c", "z", "p"),
        ];
        // Bare: 24, 34 and 15 characters with their breaks.
        let r = render(&e, Budget::chars(24 + 15 + 5), Dialect::CURRENT);
        assert_eq!(r.kept, vec![Kept::Bare, Kept::Omitted, Kept::Bare]);
        assert_eq!(r.lines, vec!["- aaaaaaaaaa: (file: p)", "- c: (file: p)"]);
    }

    #[test]
    fn a_cut_render_shortens_paths_against_the_roots_in_their_order() {
        let (user, system) = (
            ShortRoot {
                rank: (2, 0),
                path: "/h/.agents/skills".to_string(),
            },
            ShortRoot {
                rank: (3, 0),
                path: "/h/.codex/skills/.system".to_string(),
            },
        );
        let e = [
            Entry {
                root: Some(&system),
                ..entry("s", "System.", "/h/.codex/skills/.system/s/SKILL.md")
            },
            Entry {
                root: Some(&user),
                capped: 5,
                ..entry("u", "Capped...", "/h/.agents/skills/u/SKILL.md")
            },
        ];
        let r = render(&e, Budget::tokens(10_000), Dialect::CURRENT);
        assert_eq!(
            r.roots,
            vec![
                "- `r0` = `/h/.agents/skills`",
                "- `r1` = `/h/.codex/skills/.system`"
            ]
        );
        assert_eq!(
            r.lines,
            vec![
                "- s: System. (file: r1/s/SKILL.md)",
                "- u: Capped... (file: r0/u/SKILL.md)"
            ]
        );
        let text = assemble(&r.roots, &r.lines, INTRO_WITH_ABSOLUTE_PATHS, None);
        assert!(text.contains(INTRO_WITH_ROOTS), "{text}");
        assert!(text.contains("### Skill roots\n- `r0`"), "{text}");
    }

    /// Seen with `skillscope verify` against Codex 0.171.0: two skills of `~/.codex/skills`,
    /// nothing cut, and the listing still carries the roots table and short paths.
    #[test]
    fn an_uncut_listing_also_takes_the_roots_table_when_it_is_cheaper() {
        let root = ShortRoot {
            rank: (1, 0),
            path: "/srv/h/.codex/skills".to_string(),
        };
        let e = [
            Entry {
                root: Some(&root),
                ..entry("a", "Alpha.", "/srv/h/.codex/skills/a/SKILL.md")
            },
            Entry {
                root: Some(&root),
                ..entry("b", "Beta.", "/srv/h/.codex/skills/b/SKILL.md")
            },
        ];
        let r = render(&e, Budget::tokens(10_000), Dialect::CURRENT);
        assert_eq!(r.kept, vec![Kept::All, Kept::All]);
        assert_eq!(r.roots, vec!["- `r0` = `/srv/h/.codex/skills`"]);
        assert_eq!(
            r.lines,
            vec![
                "- a: Alpha. (file: r0/a/SKILL.md)",
                "- b: Beta. (file: r0/b/SKILL.md)"
            ]
        );
    }
}
