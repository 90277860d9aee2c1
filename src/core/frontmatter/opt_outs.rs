//! Authors' opt-outs in the frontmatter: `# skillscope: ignore[…]` comments.

/// An author's opt-out: `# skillscope: ignore[rule, family]` (or bare `# skillscope: ignore`
/// for every rule) in the frontmatter. On a line of its own it covers the whole skill; after a
/// field, the findings on that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptOut {
    /// The line of the comment, 1-based in SKILL.md.
    pub at: u32,
    /// Only findings on this line; `None` for the whole skill.
    pub line: Option<u32>,
    /// The rules and families named, as written; empty for every rule.
    pub rules: Vec<String>,
}

/// The marker an opt-out comment starts with.
const MARKER: &str = "skillscope:";

/// The opt-outs of a frontmatter's YAML text (`first_line`: the SKILL.md line of its first line).
pub fn opt_outs(yaml: &str, first_line: u32) -> Vec<OptOut> {
    let mut out = Vec::new();
    // Most frontmatters hold no opt-out: one search of the whole text decides.
    if !yaml.contains(MARKER) {
        return out;
    }
    for (i, text) in yaml.lines().enumerate() {
        let Some((before, comment)) = split_comment(text) else {
            continue;
        };
        let Some(rest) = comment.trim().strip_prefix(MARKER) else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("ignore") else {
            continue;
        };
        let rest = rest.trim();
        let rules = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
            Some((list, _)) => list
                .split(',')
                .map(|r| r.trim().to_string())
                .filter(|r| !r.is_empty())
                .collect(),
            None if rest.is_empty() => Vec::new(),
            // `ignore` followed by something else is not an opt-out.
            None => continue,
        };
        let at = first_line + i as u32;
        out.push(OptOut {
            at,
            line: (!before.trim().is_empty()).then_some(at),
            rules,
        });
    }
    out
}

/// A YAML line's text before its comment and the comment after `#`: a `#` starts a comment at
/// the start of a line or after a space, outside quotes.
pub(super) fn split_comment(line: &str) -> Option<(&str, &str)> {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if prev == ' ' || prev == ':' || i == 0 => quote = Some(c),
            (None, '#') if prev == ' ' || prev == '\t' || i == 0 => {
                return Some((&line[..i], &line[i + 1..]));
            }
            _ => {}
        }
        prev = c;
    }
    None
}
