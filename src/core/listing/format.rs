//! A listing format's name and what every format's entry is made of: the layer below the
//! formats' specs and the listing's assembly.

use crate::core::skill::Skill;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

/// Claude Code caps each entry's description plus `when_to_use` at this many characters (UTF-16
/// units, as JavaScript counts them): longer ones keep 1,535 and end in `…`.
pub const CLAUDE_CODE_ENTRY_CAP: usize = 1_536;
/// Claude Code cuts a description taken from the body (no `description`) longer than this many
/// characters to 97 and `...`.
pub const CLAUDE_CODE_FALLBACK_MAX: usize = 100;
/// Agents turn a token budget into characters at this rate.
pub const CHARS_PER_TOKEN: usize = 4;
/// Codex's budget in characters when the model's context window is not known
/// (`DEFAULT_SKILL_METADATA_CHAR_BUDGET`).
pub const CODEX_UNKNOWN_WINDOW_CHARS: usize = 8_000;

/// What a listing budget counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BudgetUnit {
    /// Characters (Claude Code counts UTF-16 units).
    Chars,
    /// Tokens as the agent's client estimates them without a tokenizer (Codex: a quarter of the
    /// UTF-8 bytes, rounded up).
    Tokens,
}

impl BudgetUnit {
    /// Its name after a figure: `chars`, `tokens`.
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetUnit::Chars => "chars",
            BudgetUnit::Tokens => "tokens",
        }
    }

    /// What `text` costs in this unit: its characters, or Codex's token estimate.
    pub fn cost(self, text: &str) -> usize {
        match self {
            BudgetUnit::Chars => text.chars().count(),
            BudgetUnit::Tokens => estimated_tokens(text.len()),
        }
    }
}

/// Codex's token estimate of a text of `bytes` UTF-8 bytes: a quarter, rounded up
/// (`approx_token_count`).
pub fn estimated_tokens(bytes: usize) -> usize {
    bytes.div_ceil(CHARS_PER_TOKEN)
}

/// A listing's budget: how much, and in what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Budget {
    /// The most the entries may cost.
    pub limit: usize,
    /// What it counts.
    pub unit: BudgetUnit,
}

impl Budget {
    /// A budget of `limit` characters.
    pub fn chars(limit: usize) -> Budget {
        Budget {
            limit,
            unit: BudgetUnit::Chars,
        }
    }

    /// A budget of `limit` estimated tokens.
    pub fn tokens(limit: usize) -> Budget {
        Budget {
            limit,
            unit: BudgetUnit::Tokens,
        }
    }

    /// `n` in the budget's unit, for people: `8,000 chars`, `10,000 tokens`.
    pub fn amount(&self, n: usize) -> String {
        format!(
            "{} {}",
            crate::core::words::text::thousands(n as u64),
            self.unit.as_str()
        )
    }
}

impl fmt::Display for Budget {
    /// `8,000 chars`, `10,000 tokens (estimated)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.amount(self.limit))?;
        if self.unit == BudgetUnit::Tokens {
            f.write_str(" (estimated)")?;
        }
        Ok(())
    }
}

/// A format or tier name that is none of skillscope's.
#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    /// Not the name of a listing format.
    #[error("unknown listing format `{0}`: use {ids}", ids = Format::ids())]
    UnknownFormat(String),
    /// Not the name of a tier.
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
    /// Codex 0.171.0's `<skills_instructions>`: `- name: description (file: path)`, within 2% of
    /// the context window in estimated tokens.
    Codex,
    /// `Enabled skills:` then `- name: description` (the Lazy Skills design).
    LazySkills,
    /// Gemini CLI's `# Available Agent Skills` section: `<skill>` elements with name,
    /// description and location, nothing escaped, no budget.
    Gemini,
    /// opencode's `<available_skills>` after its two lines on the skill tool, sorted by name, no
    /// budget.
    Opencode,
    /// Qwen Code 0.24.4's `<available_skills>` reminder: name, description with its level,
    /// level; 8,000 characters, then first lines.
    QwenCode,
    /// GitHub Copilot CLI 1.0.102's `<available_skills>`: name, description, group; about
    /// 15,000 characters, then names on one line.
    Copilot,
    /// Cline 3.0.65's names at the end of its `skills` tool's description.
    Cline,
    /// OpenClaw 2026.9.6's `<available_skills>`: name, description, path; 150 skills and
    /// 18,000 characters, then the compact form.
    Openclaw,
}

impl Format {
    /// Every format, in the order they are offered.
    pub const ALL: [Format; 11] = [
        Format::Xml,
        Format::Markdown,
        Format::ClaudeCode,
        Format::Codex,
        Format::LazySkills,
        Format::Gemini,
        Format::Opencode,
        Format::QwenCode,
        Format::Copilot,
        Format::Cline,
        Format::Openclaw,
    ];

    /// Its name on the command line, in the config file and in JSON.
    pub fn as_str(self) -> &'static str {
        self.spec().id
    }

    /// Every format's name, for messages: `xml, markdown, claude-code or codex`.
    pub fn ids() -> String {
        let ids: Vec<&str> = Format::ALL.iter().map(|f| f.spec().id).collect();
        match ids.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => ids.join(""),
        }
    }

    /// The share of the context window (in percent) the agent gives its listing, if it limits it.
    pub fn budget_percent(self) -> Option<usize> {
        self.spec().budget_percent
    }

    /// The listing's budget for a context window in tokens, at [`CHARS_PER_TOKEN`].
    pub fn budget(self, context_window: usize) -> Option<Budget> {
        self.budget_at(context_window, CHARS_PER_TOKEN)
    }

    /// The listing's budget for a context window in tokens taken at `chars_per_token` characters
    /// each: in characters, `max(1, window × chars per token × share)`; in tokens,
    /// `max(1, window × share)`, or [`CODEX_UNKNOWN_WINDOW_CHARS`] characters when the window is
    /// not known (0).
    pub fn budget_at(self, context_window: usize, chars_per_token: usize) -> Option<Budget> {
        if let Some(chars) = self.fixed_budget() {
            return Some(Budget::chars(chars));
        }
        let p = self.budget_percent()?;
        let share = |n: usize| (n.saturating_mul(p) / 100).max(1);
        Some(match self.spec().budget_unit {
            BudgetUnit::Chars => {
                Budget::chars(share(context_window.saturating_mul(chars_per_token)))
            }
            BudgetUnit::Tokens if context_window == 0 => Budget::chars(CODEX_UNKNOWN_WINDOW_CHARS),
            BudgetUnit::Tokens => Budget::tokens(share(context_window)),
        })
    }
}

/// Qwen Code 0.24.4's `MAX_SKILL_LISTING_CHARS`.
pub(crate) const QWEN_CODE_BUDGET_CHARS: usize = 8_000;
/// GitHub Copilot CLI 1.0.102's budget: native and not read; its capture fits 14,837 characters
/// and not 15,238.
pub(crate) const COPILOT_BUDGET_CHARS: usize = 15_000;
/// OpenClaw 2026.9.6's `DEFAULT_MAX_SKILLS_PROMPT_CHARS`.
pub(crate) const OPENCLAW_BUDGET_CHARS: usize = 18_000;

impl Format {
    /// The budget in characters a format's client sets whatever the model (Qwen Code's,
    /// Copilot's, OpenClaw's); Cline has none.
    fn fixed_budget(self) -> Option<usize> {
        match self {
            Format::QwenCode => Some(QWEN_CODE_BUDGET_CHARS),
            Format::Copilot => Some(COPILOT_BUDGET_CHARS),
            Format::Openclaw => Some(OPENCLAW_BUDGET_CHARS),
            _ => None,
        }
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

/// Python's `str.strip()`: Unicode white space and the four ASCII separators it also strips.
pub(crate) fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
}

/// The characters [`html_escape`] replaces.
const HTML_SPECIAL: [u8; 5] = [b'&', b'<', b'>', b'"', b'\''];

/// Whether `s` holds none of [`HTML_SPECIAL`]: sixteen bytes at a time, each chunk compared whole
/// with each special byte (no early exit, no branch, which the compiler does in vector
/// registers), then the rest byte by byte.
#[allow(clippy::needless_range_loop)]
fn html_plain(s: &[u8]) -> bool {
    let mut i = 0;
    while let Some(chunk) = s.get(i..i + 16).and_then(|c| <&[u8; 16]>::try_from(c).ok()) {
        let mut bad = [0u8; 16];
        for c in HTML_SPECIAL {
            for k in 0..16 {
                bad[k] |= u8::from(chunk[k] == c);
            }
        }
        let mut any = 0;
        for b in bad {
            any |= b;
        }
        if any != 0 {
            return false;
        }
        i += 16;
    }
    !s[i..].iter().any(|b| HTML_SPECIAL.contains(b))
}

/// Python's `html.escape(s, quote=True)`; `s` itself when it holds nothing to escape, as names
/// and descriptions nearly always do.
pub(crate) fn html_escape(s: &str) -> std::borrow::Cow<'_, str> {
    if html_plain(s.as_bytes()) {
        return std::borrow::Cow::Borrowed(s);
    }
    let special = |b: &u8| HTML_SPECIAL.contains(b);
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    // The text between two special characters is copied whole; they are all ASCII, so every cut
    // falls on a character boundary.
    while let Some(i) = rest.bytes().position(|b| special(&b)) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#x27;",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// One line: every run of white space (line breaks included) becomes a single space.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An entry an agent's client lists whatever the library holds (Claude Code's bundled skills and
/// built-in commands): data of the agent's model for one client version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BuiltinEntry {
    /// The name it is listed and called by.
    pub name: &'static str,
    /// Its description exactly as the client lists it (nothing escaped or joined).
    pub description: &'static str,
    /// Always listed in full: the budget never shortens it (Claude Code's bundled skills).
    pub fixed: bool,
    /// Its location as the listing shows it (empty for a format that shows none): a leading
    /// [`CLIENT_DIR`] stands for the folder the client is installed in.
    pub location: &'static str,
}

/// In a built-in entry's location, the folder the client is installed in (`npm install
/// --prefix`'s folder, as the captures name it).
pub const CLIENT_DIR: &str = "{CLIENT}";

/// A built-in entry of an agent's client, as the listing holds it.
pub(crate) type BuiltinRef = &'static BuiltinEntry;

/// Length as JavaScript's `String.length` counts it: UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    // One unit for each byte that starts a character, two for a character of four bytes (its
    // first byte 0xf0 or above): counted over the bytes, without decoding.
    s.bytes()
        .map(|b| usize::from(b & 0xc0 != 0x80) + usize::from(b >= 0xf0))
        .sum()
}

/// The first `units` UTF-16 units of `s` (never splitting a character).
fn utf16_prefix(s: &str, units: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += c.len_utf16();
        if used > units {
            return &s[..i];
        }
    }
    s
}

/// Claude Code's per-entry cap: longer than `max` UTF-16 units, the first `max - 1` and `…`
/// (nothing trimmed).
pub(crate) fn claude_cap(s: &str, max: usize) -> (String, bool) {
    // A text has no more UTF-16 units than UTF-8 bytes.
    if s.len() <= max || utf16_len(s) <= max {
        return (s.to_string(), false);
    }
    (
        format!("{}\u{2026}", utf16_prefix(s, max.saturating_sub(1))),
        true,
    )
}

/// Claude Code's description from a body: its first non-blank line, trimmed, a Markdown heading's
/// text without its `#`s; over [`CLAUDE_CODE_FALLBACK_MAX`] characters, the first 97 and `...`.
pub fn claude_body_description(body: &str) -> Option<String> {
    let line = body.lines().map(str::trim).find(|l| !l.is_empty())?;
    let text = match line.trim_start_matches('#') {
        rest if rest.len() < line.len()
            && rest.starts_with(char::is_whitespace)
            && !rest.trim().is_empty() =>
        {
            rest.trim()
        }
        _ => line,
    };
    Some(if utf16_len(text) > CLAUDE_CODE_FALLBACK_MAX {
        format!(
            "{}...",
            utf16_prefix(text, CLAUDE_CODE_FALLBACK_MAX.saturating_sub(3))
        )
    } else {
        text.to_string()
    })
}

/// Claude Code's escaping of a listed description: `<` and `>` only.
pub(crate) fn claude_escape(s: &str) -> String {
    s.replace('<', "&lt;").replace('>', "&gt;")
}

/// What a format needs of a skill, prepared once.
#[derive(Debug, Clone)]
pub(crate) struct Parts {
    pub(crate) name: String,
    /// Another name shown after it in parentheses (Claude Code: the frontmatter `name` of a skill
    /// it calls by its folder's name).
    pub(crate) alias: Option<String>,
    pub(crate) description: String,
    /// The SKILL.md path as the format shows it.
    pub(crate) path: String,
    /// The root folder the path can be shortened against (Codex's skill roots table).
    pub(crate) root: Option<ShortRoot>,
}

/// A root folder a client names once in a table and shortens its skills' paths against.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ShortRoot {
    /// Its place among the client's roots: lower first.
    pub(crate) rank: (u8, isize),
    /// The folder, links resolved.
    pub(crate) path: String,
}

/// A format's cap on each entry's description: longer ones are cut by `cut`.
#[derive(Debug)]
pub struct EntryCap {
    /// The most a description keeps (in the unit `cut` counts).
    pub max: usize,
    /// The cut: the description within `max`, and whether anything was cut.
    pub(crate) cut: fn(&str, usize) -> (String, bool),
    /// What is capped, for the reason a capped entry shows.
    pub(crate) what: &'static str,
}

/// Codex caps a description at this many characters: longer ones keep 1,021 and end in `...`
/// (`MAX_CATALOG_SKILL_DESCRIPTION_CHARS`, `TRUNCATED_SKILL_DESCRIPTION_SUFFIX`).
pub const CODEX_DESCRIPTION_CAP: usize = 1_024;

/// Codex's cap: over `max` characters, the first `max - 3` and `...` (nothing trimmed).
pub(crate) fn codex_cap(s: &str, max: usize) -> (String, bool) {
    if s.char_indices().nth(max).is_none() {
        return (s.to_string(), false);
    }
    let keep = max.saturating_sub(3);
    let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
    (format!("{}...", &s[..end]), true)
}

/// Resolves folders as `realpath` does, sharing the work for common parents: one `lstat` per
/// distinct folder instead of one `readlink` per component of every path.
/// Keyed by the folder's bytes: a path's own `Hash` reads it component by component, and every
/// skill of every listing asks.
#[derive(Default)]
pub(crate) struct Folders {
    known: Mutex<Known>,
}

/// Folders resolved so far, by their path's bytes.
type Known = rustc_hash::FxHashMap<std::ffi::OsString, PathBuf>;

impl Folders {
    pub(crate) fn resolve(&self, dir: &Path) -> PathBuf {
        if let Some(r) = self.lock().get(dir.as_os_str()) {
            return r.clone();
        }
        if !dir.is_absolute() {
            return self.resolve(&crate::core::files::paths::absolute(dir));
        }
        let plain_child = match (dir.parent(), dir.file_name()) {
            (Some(parent), Some(name)) if dir.is_absolute() && !parent.as_os_str().is_empty() => {
                let is_link = std::fs::symlink_metadata(dir).map(|m| m.file_type().is_symlink());
                matches!(is_link, Ok(false)).then_some((parent, name))
            }
            _ => None,
        };
        let resolved = match plain_child {
            Some((parent, name)) => self.resolve(parent).join(name),
            None => std::fs::canonicalize(dir)
                .unwrap_or_else(|_| crate::core::files::paths::absolute(dir)),
        };
        self.lock()
            .insert(dir.as_os_str().to_os_string(), resolved.clone());
        resolved
    }

    /// The resolved skill folder joined with the skill file's name, as `skills-ref` writes it. A
    /// plain skill folder (no link below its root) is its root's real folder joined with the rest.
    pub(crate) fn location(&self, skill: &Skill) -> String {
        let file = crate::core::files::paths::file_name(&skill.skill_md).unwrap_or_default();
        let below = crate::core::files::paths::strip_prefix(&skill.dir, &skill.root)
            .filter(|rel| skill.plain && !rel.as_os_str().is_empty());
        let mut dir = match below {
            Some(rel) => {
                let mut d = self.resolve(&skill.root);
                d.reserve(rel.as_os_str().len() + file.len() + 2);
                d.push(rel);
                d
            }
            None => self.resolve(&skill.dir),
        };
        dir.push(file);
        // Text as it is (no copy) when it is UTF-8, as it nearly always is.
        dir.into_os_string()
            .into_string()
            .unwrap_or_else(|os| os.to_string_lossy().into_owned())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        self.known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn utf16_units_counted_over_bytes_are_the_encoders(s in any::<String>(), max in 0usize..40) {
            prop_assert_eq!(utf16_len(&s), s.encode_utf16().count());
            let (capped, cut) = claude_cap(&s, max);
            prop_assert_eq!(cut, s.encode_utf16().count() > max);
            if !cut {
                prop_assert_eq!(capped, s);
            }
        }
    }

    #[test]
    fn a_character_of_four_bytes_is_two_units() {
        assert_eq!(utf16_len("a\u{e9}\u{4e2d}\u{1f600}"), 5);
        assert_eq!(
            claude_cap("\u{1f600}\u{1f600}", 3),
            ("\u{1f600}\u{2026}".to_string(), true)
        );
        assert!(!claude_cap("\u{1f600}\u{1f600}", 4).1);
    }
}
