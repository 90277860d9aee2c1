//! The skill listing an agent's system prompt would hold: one catalog format, a tier chosen by
//! skill count and the agent's character budget, rendered to text with the fate of every skill.

use crate::core::library::Library;
use crate::core::skill::Skill;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Up to this many listed skills, the auto tier lists every entry in full.
pub const FULL_TIER_MAX: usize = 80;
/// Up to this many, compact entries; above it, names only.
pub const COMPACT_TIER_MAX: usize = 300;
/// Compact entries cut descriptions to this many characters (the `…` included).
pub const COMPACT_DESCRIPTION_CHARS: usize = 80;
/// Claude Code caps each entry's description plus `when_to_use` at this many characters.
pub const CLAUDE_CODE_ENTRY_CAP: usize = 1_536;
/// Agents turn a token budget into characters at this rate.
pub const CHARS_PER_TOKEN: usize = 4;
pub const DEFAULT_CONTEXT_WINDOW: usize = 200_000;
/// Codex trims descriptions evenly, but not below this; past it, descriptions are dropped.
pub const MIN_TRIMMED_DESCRIPTION: usize = 24;

#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    #[error("unknown listing format `{0}`: use xml, markdown, claude-code or codex")]
    UnknownFormat(String),
    #[error("unknown tier `{0}`: use auto, full, compact or names")]
    UnknownTier(String),
}

/// How the catalog is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// The agentskills.io `<available_skills>` block, as `skills-ref to-prompt` writes it.
    #[default]
    Xml,
    /// `- **name**: description`.
    Markdown,
    /// `- name: description - when_to_use`, within 1% of the context window.
    ClaudeCode,
    /// `- name: description (file: path)`, within 2% of the context window.
    Codex,
}

impl Format {
    pub const ALL: [Format; 4] = [
        Format::Xml,
        Format::Markdown,
        Format::ClaudeCode,
        Format::Codex,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Format::Xml => "xml",
            Format::Markdown => "markdown",
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
        }
    }

    /// The share of the context window (in percent) the agent gives its listing, if it limits it.
    pub fn budget_percent(self) -> Option<usize> {
        match self {
            Format::Xml | Format::Markdown => None,
            Format::ClaudeCode => Some(1),
            Format::Codex => Some(2),
        }
    }

    /// The listing's budget in characters for a context window in tokens.
    pub fn budget_chars(self, context_window: usize) -> Option<usize> {
        self.budget_percent().map(|p| {
            context_window
                .saturating_mul(CHARS_PER_TOKEN)
                .saturating_mul(p)
                / 100
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = ListingError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| ListingError::UnknownFormat(s.to_string()))
    }
}

/// How much of each entry is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// Chosen by the number of listed skills: full up to 80, compact up to 300, names above.
    #[default]
    Auto,
    Full,
    /// Name and a description cut to 80 characters.
    Compact,
    /// Names only, with a line pointing the agent to a skill search tool.
    Names,
}

impl Tier {
    pub const ALL: [Tier; 4] = [Tier::Auto, Tier::Full, Tier::Compact, Tier::Names];

    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Auto => "auto",
            Tier::Full => "full",
            Tier::Compact => "compact",
            Tier::Names => "names",
        }
    }

    /// The tier auto picks for this many listed skills.
    pub fn for_count(n: usize) -> Tier {
        if n <= FULL_TIER_MAX {
            Tier::Full
        } else if n <= COMPACT_TIER_MAX {
            Tier::Compact
        } else {
            Tier::Names
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Tier {
    type Err = ListingError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Tier::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| ListingError::UnknownTier(s.to_string()))
    }
}

/// What the listing did with a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    Full,
    Trimmed,
    NameOnly,
    Dropped,
}

impl Fate {
    pub const ALL: [Fate; 4] = [Fate::Full, Fate::Trimmed, Fate::NameOnly, Fate::Dropped];

    pub fn as_str(self) -> &'static str {
        match self {
            Fate::Full => "full",
            Fate::Trimmed => "trimmed",
            Fate::NameOnly => "name only",
            Fate::Dropped => "dropped",
        }
    }
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingOptions {
    pub format: Format,
    pub tier: Tier,
    /// The model's context window in tokens; the agents' budgets are a share of it.
    pub context_window: usize,
}

impl Default for ListingOptions {
    fn default() -> Self {
        ListingOptions {
            format: Format::default(),
            tier: Tier::default(),
            context_window: DEFAULT_CONTEXT_WINDOW,
        }
    }
}

/// One enabled skill and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedSkill {
    /// Index into `Library::skills`.
    pub index: usize,
    pub fate: Fate,
    /// Why it is not listed in full; empty when it is.
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listing {
    pub text: String,
    /// The tier used (never `Auto`).
    pub tier: Tier,
    /// The agent's budget in characters, for the formats that have one.
    pub budget_chars: Option<usize>,
    /// Characters the budget is charged with: every listed entry plus its line break.
    pub used_chars: usize,
    /// One per enabled skill, in library order.
    pub entries: Vec<ListedSkill>,
}

impl Listing {
    pub fn count(&self, fate: Fate) -> usize {
        self.entries.iter().filter(|e| e.fate == fate).count()
    }
}

/// Python's `str.strip()`: Unicode white space and the four ASCII separators it also strips.
fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// Python's `html.escape(s, quote=True)`.
fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// One line: every run of white space (line breaks included) becomes a single space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cuts `s` to at most `max` characters, ending in `…` when anything was cut.
fn cut(s: &str, max: usize) -> (String, bool) {
    if s.chars().count() <= max {
        return (s.to_string(), false);
    }
    let keep: String = s.chars().take(max.saturating_sub(1)).collect();
    (format!("{}…", keep.trim_end()), true)
}

/// What a format needs of a skill, prepared once.
#[derive(Debug, Clone)]
struct Parts {
    name: String,
    description: String,
    /// The SKILL.md path as the format shows it.
    path: String,
}

fn parts(skill: &Skill, format: Format) -> Parts {
    let fm = &skill.frontmatter;
    let name = fm.name.as_deref().unwrap_or(&skill.name);
    let description = fm.description.as_deref().unwrap_or("");
    match format {
        Format::Xml => Parts {
            name: py_strip(name).to_string(),
            description: py_strip(description).to_string(),
            path: xml_location(skill),
        },
        Format::Markdown => Parts {
            name: skill.name.clone(),
            description: one_line(description),
            path: String::new(),
        },
        Format::ClaudeCode => {
            let mut d = one_line(description);
            if let Some(w) = fm
                .when_to_use
                .as_deref()
                .map(one_line)
                .filter(|w| !w.is_empty())
            {
                d.push_str(" - ");
                d.push_str(&w);
            }
            Parts {
                name: skill.name.clone(),
                description: d,
                path: String::new(),
            }
        }
        Format::Codex => Parts {
            name: skill.name.clone(),
            description: one_line(description),
            path: std::path::absolute(&skill.skill_md)
                .unwrap_or_else(|_| skill.skill_md.clone())
                .to_string_lossy()
                .into_owned(),
        },
    }
}

/// The resolved skill folder joined with the skill file's name, as `skills-ref` writes it.
fn xml_location(skill: &Skill) -> String {
    let dir = std::fs::canonicalize(&skill.dir)
        .or_else(|_| std::path::absolute(&skill.dir))
        .unwrap_or_else(|_| skill.dir.clone());
    let file = skill.skill_md.file_name().unwrap_or_default();
    dir.join(file).to_string_lossy().into_owned()
}

/// One entry; `description` is `None` for a name-only entry.
fn line(format: Format, p: &Parts, description: Option<&str>) -> String {
    match (format, description) {
        (Format::Xml, Some(d)) => format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>",
            html_escape(&p.name),
            html_escape(d),
            p.path
        ),
        (Format::Xml, None) => format!(
            "<skill>\n<name>\n{}\n</name>\n<location>\n{}\n</location>\n</skill>",
            html_escape(&p.name),
            p.path
        ),
        (Format::Markdown, Some(d)) => format!("- **{}**: {d}", p.name),
        (Format::Markdown, None) => format!("- **{}**", p.name),
        (Format::ClaudeCode, Some(d)) => format!("- {}: {d}", p.name),
        (Format::ClaudeCode, None) => format!("- {}", p.name),
        (Format::Codex, Some(d)) => format!("- {}: {d} (file: {})", p.name, p.path),
        (Format::Codex, None) => format!("- {} (file: {})", p.name, p.path),
    }
}

/// The full-tier entry of one skill: its L1 text. Empty for a skill no agent can list (no parsed
/// name or description).
pub fn entry(skill: &Skill, format: Format) -> String {
    if !skill.listable() {
        return String::new();
    }
    let p = parts(skill, format);
    let d = if format == Format::ClaudeCode {
        cut(&p.description, CLAUDE_CODE_ENTRY_CAP).0
    } else {
        p.description.clone()
    };
    line(format, &p, Some(&d))
}

/// [`entry`] for every skill of the library, in library order, built on worker threads.
pub fn entries(lib: &Library, format: Format) -> Vec<String> {
    lib.skills.par_iter().map(|s| entry(s, format)).collect()
}

const SEARCH_NOTE: &str = "Only the names of the installed skills are listed. Use the skill search tool to find a skill by what it does, then load it.";

fn header(format: Format) -> &'static str {
    match format {
        Format::Xml => "",
        Format::Markdown => "## Available skills\n\n",
        Format::ClaudeCode => "The following skills are available for use with the Skill tool:\n\n",
        Format::Codex => {
            "## Skills\nA skill is a set of local instructions stored in a `SKILL.md` file. Each entry below gives a name, a description and the file path, so you can open the file for the full instructions when a skill applies.\n### Available skills\n"
        }
    }
}

/// A skill on its way into the listing.
struct Slot {
    index: usize,
    parts: Parts,
    /// The description as listed so far; `None` once dropped.
    description: Option<String>,
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

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// The listing of the enabled skills of `lib`.
pub fn render(lib: &Library, enabled: &dyn Fn(usize) -> bool, opts: &ListingOptions) -> Listing {
    let format = opts.format;
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
        } else if !s.listable() {
            out.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: "no parsed name and description in its frontmatter".to_string(),
            });
        } else {
            listable.push(i);
        }
    }
    let listed = listable.len();
    let tier = match opts.tier {
        Tier::Auto => Tier::for_count(listed),
        t => t,
    };
    let mut slots: Vec<Slot> = listable
        .par_iter()
        .map(|&i| {
            let parts = parts(&lib.skills[i], format);
            Slot {
                index: i,
                description: Some(parts.description.clone()),
                parts,
                fate: Fate::Full,
                reason: String::new(),
            }
        })
        .collect();

    for s in &mut slots {
        let Some(d) = s.description.take() else {
            continue;
        };
        let mut d = d;
        if format == Format::ClaudeCode {
            let (c, was_cut) = cut(&d, CLAUDE_CODE_ENTRY_CAP);
            if was_cut {
                s.demote(
                    Fate::Trimmed,
                    format!(
                        "description and when_to_use capped at {CLAUDE_CODE_ENTRY_CAP} characters"
                    ),
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
            }
            Tier::Names => {
                s.demote(
                    Fate::NameOnly,
                    format!("names tier: {} skills are listed by name only", listed),
                );
                s.description = None;
            }
            Tier::Full | Tier::Auto => s.description = Some(d),
        }
    }

    let budget = format.budget_chars(opts.context_window);
    if let Some(budget) = budget {
        match format {
            Format::ClaudeCode => fit_by_dropping(&mut slots, format, budget),
            _ => fit_by_trimming(&mut slots, format, budget),
        }
    }

    let mut used = 0;
    let mut lines = Vec::new();
    for s in &slots {
        if s.fate != Fate::Dropped {
            let t = s.text(format);
            used += chars(&t) + 1;
            lines.push(t);
        }
    }
    let text = assemble(format, tier, &lines);
    out.extend(slots.into_iter().map(|s| ListedSkill {
        index: s.index,
        fate: s.fate,
        reason: s.reason,
    }));
    out.sort_by_key(|e| e.index);
    Listing {
        text,
        tier,
        budget_chars: budget,
        used_chars: used,
        entries: out,
    }
}

fn assemble(format: Format, tier: Tier, lines: &[String]) -> String {
    let note = (tier == Tier::Names && !lines.is_empty()).then_some(SEARCH_NOTE);
    if format == Format::Xml {
        let mut all: Vec<&str> = Vec::new();
        if let Some(n) = note {
            all.push(n);
        }
        all.push("<available_skills>");
        all.extend(lines.iter().map(String::as_str));
        all.push("</available_skills>");
        return all.join("\n");
    }
    if lines.is_empty() {
        return String::new();
    }
    let mut text = header(format).to_string();
    if let Some(n) = note {
        text.push_str(n);
        text.push_str("\n\n");
    }
    text.push_str(&lines.join("\n"));
    text
}

/// Charge for a set of slots: every entry that is not dropped, plus its line break.
fn cost(slots: &[Slot], format: Format) -> usize {
    slots
        .iter()
        .filter(|s| s.fate != Fate::Dropped)
        .map(|s| chars(&s.text(format)) + 1)
        .sum()
}

/// Claude Code's way: when the entries overflow, skills in listing order keep their description
/// while it still fits and every one after the first that does not is listed by name only; when
/// even the names overflow, the names past the budget are dropped.
fn fit_by_dropping(slots: &mut [Slot], format: Format, budget: usize) {
    if cost(slots, format) <= budget {
        return;
    }
    let name_costs: Vec<usize> = slots
        .iter()
        .map(|s| chars(&line(format, &s.parts, None)) + 1)
        .collect();
    let names_total: usize = name_costs.iter().sum();
    if names_total > budget {
        names_only_within(slots, budget, &name_costs);
        return;
    }
    let mut left = budget - names_total;
    let mut granting = true;
    for (s, name_cost) in slots.iter_mut().zip(&name_costs) {
        let Some(_) = &s.description else { continue };
        let extra = (chars(&s.text(format)) + 1).saturating_sub(*name_cost);
        if granting && extra <= left {
            left -= extra;
        } else {
            granting = false;
            s.description = None;
            s.demote(
                Fate::NameOnly,
                format!("over the {budget}-character listing budget: description dropped"),
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
                        format!("over the {budget}-character listing budget: description trimmed to {lo} characters"),
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
                format!("over the {budget}-character listing budget even with descriptions trimmed to {MIN_TRIMMED_DESCRIPTION} characters: description dropped"),
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
                format!("over the {budget}-character listing budget: description dropped"),
            );
        } else {
            fits = false;
            s.demote(
                Fate::Dropped,
                format!("over the {budget}-character listing budget even by name"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for t in Tier::ALL {
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
        assert_eq!(Format::ClaudeCode.budget_chars(200_000), Some(8_000));
        assert_eq!(Format::Codex.budget_chars(200_000), Some(16_000));
        assert_eq!(Format::Xml.budget_chars(200_000), None);
    }
}
