//! Mechanical fixes (`check --fix`): the findings whose message says exactly what to change, each
//! changed by editing only the bytes the fix needs, so that the rest of the file (comments, key
//! order, quoting, anchors, line endings) stays as the author wrote it. Every edit is checked by
//! parsing the frontmatter before and after it: the intended key must read as meant and every
//! other value as it did, else the fix is refused with a sentence saying why.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::frontmatter::{self, Change};
use crate::core::skill::Skill;

/// A SKILL.md's head (see `core::files::head_edit`) before and after its fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The head as it was.
    pub before: Vec<u8>,
    /// The head with every fix applied (the same bytes when nothing was fixed).
    pub after: Vec<u8>,
    /// The rules fixed, one entry per finding, in the order they were fixed.
    pub rules: Vec<RuleId>,
    /// The findings with a mechanical fix that was not made, and why: what cannot be edited
    /// faithfully.
    pub refused: Vec<Refused>,
}

/// A fix not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The finding's rule.
    pub rule: RuleId,
    /// Its line in SKILL.md (1-based), when it has one.
    pub line: Option<u32>,
    /// Why (its `Display` is a sentence).
    pub why: Refusal,
}

/// Why a mechanical fix cannot be made faithfully.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The frontmatter is one inline `{…}` mapping (not edited, but for a missing name, added
    /// inside its braces).
    #[error(
        "the frontmatter is one inline `{{…}}` mapping: write it as one `key: value` per line for `--fix` to edit it"
    )]
    FlowTop,
    /// `name` is written as a block, list, mapping, anchor, alias or tagged value.
    #[error(
        "its `name` is written as a block, list, mapping, anchor, alias or tagged value: set it by hand"
    )]
    NameNotPlain,
    /// `metadata` is an inline mapping; the key is the field to move into it.
    #[error(
        "`metadata` is written inline (not as a block of `key: value` lines): move `{0}` into it by hand"
    )]
    MetadataInline(String),
    /// `metadata` already holds the key.
    #[error("`metadata` already holds a `{0}`: merge the two by hand")]
    MetadataHolds(String),
    /// `metadata` holds something other than a mapping.
    #[error("`metadata` is not a mapping: make it one by hand")]
    MetadataNotMapping,
    /// The field to move is a merge key.
    #[error(
        "`<<` merges another mapping into the frontmatter: it is not a field to move under `metadata:`"
    )]
    MergeKey,
    /// The field (`key`) holds an anchor (`anchor`) an alias elsewhere refers to.
    #[error(
        "`{key}` holds the anchor `&{anchor}` that `*{anchor}` refers to elsewhere: moving it under `metadata:` would leave the alias without its anchor; move it by hand"
    )]
    SharedAnchor {
        /// The field to move.
        key: String,
        /// The anchor's name.
        anchor: String,
    },
    /// The edit made does not read as meant.
    #[error(transparent)]
    Unfaithful(#[from] frontmatter::EditError),
}

/// More rounds than any real file needs: a file whose fixes kept making new findings would
/// otherwise loop.
const MAX_ROUNDS: usize = 256;

/// Fixes what `findings` reports of `skill` when its SKILL.md's head holds `bytes` (the whole
/// file when `complete`), one finding at a time: after each fix the head is parsed again and
/// judged again (a fixed YAML line lets the field rules run). `findings` is the check as the
/// user chose it (profile, opt-outs, `--select`), so only what the report would show is fixed.
pub fn fix(
    skill: &Skill,
    bytes: &[u8],
    complete: bool,
    findings: &dyn Fn(&Skill) -> Vec<Diagnostic>,
) -> Fixed {
    let mut cur = bytes.to_vec();
    let mut rules = Vec::new();
    let mut refused: Vec<Refused> = Vec::new();
    'rounds: for _ in 0..MAX_ROUNDS {
        let Ok(text) = std::str::from_utf8(&cur) else {
            break;
        };
        let now = reparsed(skill, &cur, complete);
        for d in findings(&now) {
            if d.path.as_ref().is_some_and(|p| *p != skill.skill_md) {
                continue;
            }
            let made = edits_for(&now, text, &d).and_then(|e| {
                let Some((edits, change)) = e else {
                    return Ok(None);
                };
                let Some(next) = apply(text, edits) else {
                    return Ok(None);
                };
                frontmatter::check_edit(text, &next, &change)?;
                Ok(Some(next))
            });
            match made {
                Ok(Some(next)) if next.as_bytes() != cur.as_slice() => {
                    cur = next.into_bytes();
                    rules.push(d.rule);
                    continue 'rounds;
                }
                Ok(_) => {}
                Err(why) => {
                    let r = Refused {
                        rule: d.rule,
                        line: d.line,
                        why,
                    };
                    if !refused.contains(&r) {
                        refused.push(r);
                    }
                }
            }
        }
        break;
    }
    // A refusal a later fix made moot (its finding is gone) is not reported.
    if !refused.is_empty() {
        let left = findings(&reparsed(skill, &cur, complete));
        refused.retain(|r| left.iter().any(|d| d.rule == r.rule));
    }
    Fixed {
        before: bytes.to_vec(),
        after: cur,
        rules,
        refused,
    }
}

/// `skill` as it reads when its SKILL.md's head holds `bytes`.
fn reparsed(skill: &Skill, bytes: &[u8], complete: bool) -> Skill {
    let parsed = frontmatter::parse(bytes, complete);
    let mut s = skill.clone();
    s.name = parsed
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| skill.dir_name().into_owned(), str::to_string);
    s.frontmatter = parsed.frontmatter;
    // Findings about the folder (the file's spelling, a twin file) stay as the scan found them.
    s.parse_diagnostics.retain(|d| {
        matches!(
            d.rule,
            RuleId::SkillFileName | RuleId::SkillFileDuplicate | RuleId::SkillFileNotRegular
        )
    });
    s.parse_diagnostics.extend(parsed.diagnostics);
    s.body_line = parsed.layout.body_line;
    s.body_offset = parsed.layout.body_offset as u64;
    s
}

/// One change: the bytes `start..end` of the text replaced by `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// The text with `edits` (which do not overlap) applied; `None` when they overlap.
fn apply(text: &str, mut edits: Vec<Edit>) -> Option<String> {
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in edits {
        if e.start < at || e.end < e.start || e.end > text.len() {
            return None;
        }
        out.push_str(text.get(at..e.start)?);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// Edits and what they are meant to change; `Ok(None)` when `d` has no mechanical fix here,
/// `Err` saying why when it has one that cannot be made faithfully.
type Planned = Result<Option<(Vec<Edit>, Change)>, Refusal>;

/// The edits that fix `d`, when its fix is mechanical here.
fn edits_for(skill: &Skill, text: &str, d: &Diagnostic) -> Planned {
    let lines = Lines::of(text);
    let in_yaml = matches!(
        d.rule,
        RuleId::YamlInvalid
            | RuleId::YamlCoercedScalar
            | RuleId::NameDirectory
            | RuleId::NameMissing
            | RuleId::UnknownField
    );
    if in_yaml && lines.flow_top().is_some() && d.rule != RuleId::NameMissing {
        return Err(Refusal::FlowTop);
    }
    let nothing = |edits: Vec<Edit>| Some((edits, Change::Nothing));
    Ok(match d.rule {
        RuleId::FileBom => text
            .starts_with('\u{feff}')
            .then(|| {
                vec![Edit {
                    start: 0,
                    end: 3,
                    text: String::new(),
                }]
            })
            .and_then(nothing),
        RuleId::FrontmatterLeadingBlank => {
            let Some(open) = lines.opening() else {
                return Ok(None);
            };
            let from = usize::from(text.starts_with('\u{feff}')) * 3;
            (lines.start(open) > from)
                .then(|| {
                    vec![Edit {
                        start: from,
                        end: lines.start(open),
                        text: String::new(),
                    }]
                })
                .and_then(nothing)
        }
        RuleId::YamlInvalid if d.message.contains("quote the value") => {
            d.line.and_then(|l| quote_value(&lines, l, false))
        }
        RuleId::YamlCoercedScalar => d.line.and_then(|l| quote_value(&lines, l, true)),
        RuleId::NameDirectory | RuleId::NameMissing => name_from_folder(skill, &lines, d)?,
        RuleId::UnknownField => match d.line {
            Some(l) => to_metadata(skill, &lines, l)?,
            None => None,
        },
        _ => None,
    })
}

/// The lines of a text: where each starts, where its content ends and where its line break ends.
struct Lines<'a> {
    text: &'a str,
    /// `(start, content end, end with the line break)` per line, the first line first.
    spans: Vec<(usize, usize, usize)>,
}

impl<'a> Lines<'a> {
    fn of(text: &'a str) -> Lines<'a> {
        let mut spans = Vec::new();
        let mut start = 0;
        while start < text.len() {
            let end = text[start..]
                .find('\n')
                .map_or(text.len(), |i| start + i + 1);
            let mut content = end;
            if text[..content].ends_with('\n') {
                content -= 1;
            }
            if text[..content].ends_with('\r') {
                content -= 1;
            }
            spans.push((start, content, end));
            start = end;
        }
        Lines { text, spans }
    }

    /// Line `i` (0-based) without its line break.
    fn get(&self, i: usize) -> Option<&'a str> {
        let &(s, c, _) = self.spans.get(i)?;
        self.text.get(s..c)
    }

    fn start(&self, i: usize) -> usize {
        self.spans.get(i).map_or(self.text.len(), |s| s.0)
    }

    fn end(&self, i: usize) -> usize {
        self.spans.get(i).map_or(self.text.len(), |s| s.2)
    }

    /// The line break line `i` ends with (`\n` when it has none).
    fn eol(&self, i: usize) -> &'a str {
        match self.spans.get(i) {
            Some(&(_, c, e)) if e > c => &self.text[c..e],
            _ => "\n",
        }
    }

    /// The opening `---` line: the first that is not blank (after a BOM).
    fn opening(&self) -> Option<usize> {
        let i = (0..self.spans.len()).find(|&i| {
            self.get(i)
                .is_some_and(|l| !l.trim_start_matches('\u{feff}').trim().is_empty())
        })?;
        (self.get(i)?.trim_start_matches('\u{feff}').trim_end() == "---").then_some(i)
    }

    /// When the frontmatter's YAML is one inline `{…}` mapping: the byte offsets of its opening
    /// `{` and its closing `}`.
    fn flow_top(&self) -> Option<(usize, usize)> {
        let open = self.opening()?;
        let close = self.closing()?;
        let written = |i: &usize| {
            self.get(*i)
                .is_some_and(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        };
        let first = (open + 1..close).find(written)?;
        let last = (open + 1..close).rev().find(written)?;
        let l = self.get(first)?;
        if !l.trim_start().starts_with('{') {
            return None;
        }
        let brace = self.start(first) + (l.len() - l.trim_start().len());
        let l = self.get(last)?;
        // The last `}`, before a comment that may follow it.
        let end = l.rfind('}')?;
        Some((brace, self.start(last) + end))
    }

    /// The closing `---` (or `...`) line.
    fn closing(&self) -> Option<usize> {
        let open = self.opening()?;
        (open + 1..self.spans.len()).find(|&i| {
            self.get(i)
                .is_some_and(|l| matches!(l.trim_end(), "---" | "..."))
        })
    }
}

/// A `key: value` line's parts: the byte range of the value (without a comment or the spaces
/// around it) within the whole text, and the line's indentation.
struct KeyLine {
    indent: usize,
    key: String,
    value: (usize, usize),
}

fn key_line(lines: &Lines, i: usize) -> Option<KeyLine> {
    let line = lines.get(i)?;
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    let body = &line[indent..];
    if body.starts_with(['#', '-']) {
        return None;
    }
    let colon = body
        .find(": ")
        .or_else(|| body.ends_with(':').then(|| body.len() - 1))?;
    let key = body[..colon].trim().trim_matches(['"', '\'']).to_string();
    let rest_at = indent + colon + 1;
    let rest = &line[rest_at..];
    let lead = rest.len() - rest.trim_start().len();
    let value = &rest[lead..];
    // A comment starts at ` #`; what is before it is the value YAML reads.
    let value = value.find(" #").map_or(value, |c| &value[..c]).trim_end();
    let start = lines.start(i) + rest_at + lead;
    Some(KeyLine {
        indent,
        key,
        value: (start, start + value.len()),
    })
}

/// Quotes the value of the `key: value` line `line` (1-based): `key: "text: more"`. Only a
/// value on one line that is not quoted already (`coerced`: a number or boolean, whatever it
/// holds).
fn quote_value(lines: &Lines, line: u32, coerced: bool) -> Option<(Vec<Edit>, Change)> {
    let i = line.checked_sub(1)? as usize;
    let kl = key_line(lines, i)?;
    let value = lines.text.get(kl.value.0..kl.value.1)?;
    if value.is_empty() || value.starts_with(['"', '\'', '|', '>']) {
        return None;
    }
    if !coerced && value.starts_with(['[', '{']) {
        return None;
    }
    // A value that goes on over more-indented lines is a multi-line scalar: not one line to quote.
    if let Some(next) = lines.get(i + 1)
        && !next.trim().is_empty()
        && next.len() - next.trim_start().len() > kl.indent
    {
        return None;
    }
    Some((
        vec![Edit {
            start: kl.value.0,
            end: kl.value.1,
            text: format!("'{}'", value.replace('\'', "''")),
        }],
        Change::Text(kl.key, value.to_string()),
    ))
}

/// `name:` set to the folder's name (added after the opening line when there is none, or inside
/// the braces of a frontmatter written inline), when the folder's name is a valid name. The name
/// is written as YAML reads it back: a name such as `null`, `yes` or `123` is quoted.
fn name_from_folder(skill: &Skill, lines: &Lines, d: &Diagnostic) -> Planned {
    let folder = skill.dir_name();
    if crate::core::words::naming::check_name(&folder).is_err() {
        return Ok(None);
    }
    let written = crate::core::words::naming::yaml_scalar(&folder);
    let change = Change::Text("name".to_string(), folder.clone().into_owned());
    let field = skill.frontmatter.get("name");
    Ok(match field {
        None if d.rule == RuleId::NameMissing => {
            let (Some(open), Some(_)) = (lines.opening(), lines.closing()) else {
                return Ok(None);
            };
            let edit = match lines.flow_top() {
                Some((brace, close)) => {
                    let empty = lines.text[brace + 1..close].trim().is_empty();
                    Edit {
                        start: brace + 1,
                        end: brace + 1,
                        text: format!("name: {written}{}", if empty { "" } else { ", " }),
                    }
                }
                None => Edit {
                    start: lines.end(open),
                    end: lines.end(open),
                    text: format!("name: {written}{}", lines.eol(open)),
                },
            };
            Some((vec![edit], change))
        }
        Some(f) => {
            if lines.flow_top().is_some() {
                return Err(Refusal::FlowTop);
            }
            let Some(kl) = f
                .line
                .checked_sub(1)
                .and_then(|i| key_line(lines, i as usize))
            else {
                return Ok(None);
            };
            if kl.indent != 0 || kl.key != "name" {
                return Ok(None);
            }
            let value = lines.text.get(kl.value.0..kl.value.1).unwrap_or_default();
            if value.starts_with(['|', '>', '[', '{', '&', '*', '!']) {
                return Err(Refusal::NameNotPlain);
            }
            Some((
                vec![Edit {
                    start: kl.value.0,
                    end: kl.value.1,
                    text: written,
                }],
                change,
            ))
        }
        None => None,
    })
}

/// The lines a top-level field at line `i` (0-based) spans, up to `stop`: its own and the
/// indented (or, for a block list, `- `) lines after it; blank lines only inside it.
fn field_extent(lines: &Lines, i: usize, stop: usize) -> usize {
    let mut end = i + 1;
    let mut j = i + 1;
    while j < stop {
        let Some(l) = lines.get(j) else { break };
        if l.trim().is_empty() {
            j += 1;
            continue;
        }
        if l.starts_with([' ', '\t']) || l.starts_with("- ") || l == "-" {
            j += 1;
            end = j;
        } else {
            break;
        }
    }
    end
}

/// The anchors (`&name`) written in `text`, as YAML marks them: after a space, the start of a
/// line or a flow indicator, and outside quotes as far as one line tells.
fn anchors_in(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for (i, c) in line.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') if matches!(prev, ' ' | '[' | '{' | ',' | ':') => {
                    quote = Some(c);
                }
                (None, '#') if prev == ' ' => break,
                (None, '&') if matches!(prev, ' ' | '[' | '{' | ',' | ':' | '-') || i == 0 => {
                    let name = &line[i + 1..];
                    let end = name
                        .find(|c: char| {
                            c.is_whitespace() || matches!(c, ',' | '[' | ']' | '{' | '}')
                        })
                        .unwrap_or(name.len());
                    if end > 0 {
                        out.push(&name[..end]);
                    }
                }
                _ => {}
            }
            prev = c;
        }
    }
    out
}

/// Where a field moved under `metadata:` goes: the offset to insert at and the indentation of
/// the metadata's entries (`None`: a new `metadata:` block at the end of the frontmatter).
fn metadata_spot(
    skill: &Skill,
    lines: &Lines,
    key: &str,
    close: usize,
) -> Result<Option<(usize, Option<String>)>, Refusal> {
    Ok(Some(match skill.frontmatter.get("metadata") {
        None => (lines.start(close), None),
        Some(m) => {
            let Some(mi) = m.line.checked_sub(1).map(|l| l as usize) else {
                return Ok(None);
            };
            let Some(ml) = key_line(lines, mi) else {
                return Ok(None);
            };
            // A block mapping (or nothing yet): `metadata:` with nothing after it on its line.
            if ml.indent != 0 || ml.value.0 != ml.value.1 {
                return Err(Refusal::MetadataInline(key.to_string()));
            }
            if m.value.as_object().is_some_and(|o| o.contains_key(key)) {
                return Err(Refusal::MetadataHolds(key.to_string()));
            }
            if !(m.value.is_object() || m.value.is_null()) {
                return Err(Refusal::MetadataNotMapping);
            }
            let m_end = field_extent(lines, mi, close);
            let child = (mi + 1..m_end)
                .filter_map(|j| lines.get(j))
                .find(|l| !l.trim().is_empty())
                .map_or("  ", |l| {
                    &l[..l.len() - l.trim_start_matches([' ', '\t']).len()]
                });
            (lines.start(m_end), Some(child.to_string()))
        }
    }))
}

/// Moves the top-level field at `line` (1-based) under `metadata:`: to the end of the
/// metadata's block, indented as its entries are, or into a new `metadata:` block at the end of
/// the frontmatter. Refused for a merge key, a field holding an anchor other fields' aliases use,
/// flow-style metadata, or metadata that already holds the key.
fn to_metadata(skill: &Skill, lines: &Lines, line: u32) -> Planned {
    let (Some(i), Some(close)) = (line.checked_sub(1), lines.closing()) else {
        return Ok(None);
    };
    let i = i as usize;
    let Some(kl) = key_line(lines, i) else {
        return Ok(None);
    };
    if kl.indent != 0 || kl.key == "metadata" {
        return Ok(None);
    }
    if kl.key == "<<" {
        return Err(Refusal::MergeKey);
    }
    let end = field_extent(lines, i, close);
    let moved: Vec<(&str, &str)> = (i..end)
        .map(|j| Some((lines.get(j)?, lines.eol(j))))
        .collect::<Option<_>>()
        .unwrap_or_default();
    let moved_text = &lines.text[lines.start(i)..lines.start(end)];
    let open_end = lines.opening().map_or(0, |o| lines.end(o));
    let rest = format!(
        "{}{}",
        &lines.text[open_end..lines.start(i)],
        &lines.text[lines.start(end)..lines.start(close)]
    );
    if let Some(a) = anchors_in(moved_text)
        .into_iter()
        .find(|a| rest.contains(&format!("*{a}")))
    {
        return Err(Refusal::SharedAnchor {
            key: kl.key.clone(),
            anchor: a.to_string(),
        });
    }
    let Some((at, indent)) = metadata_spot(skill, lines, &kl.key, close)? else {
        return Ok(None);
    };
    if at > lines.start(i) && at < lines.start(end) {
        return Ok(None);
    }
    let mut block = String::new();
    let indent = if let Some(s) = indent {
        s
    } else {
        block.push_str("metadata:");
        block.push_str(lines.eol(close.saturating_sub(1)));
        "  ".to_string()
    };
    for (l, eol) in moved {
        if !l.is_empty() {
            block.push_str(&indent);
        }
        block.push_str(l);
        block.push_str(eol);
    }
    Ok(Some((
        vec![
            Edit {
                start: lines.start(i),
                end: lines.start(end),
                text: String::new(),
            },
            Edit {
                start: at,
                end: at,
                text: block,
            },
        ],
        Change::ToMetadata(kl.key),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rules::Profile;
    use crate::core::source::{Agent, Root, Scope};
    use std::path::PathBuf;

    fn skill(folder: &str) -> Skill {
        let root = Root::new("/lib", Agent::Path, Scope::Path);
        let dir = PathBuf::from("/lib").join(folder);
        Skill::new(&root, dir.clone(), dir.join("SKILL.md"))
    }

    fn fixed(folder: &str, text: &str, profile: Profile) -> (String, Vec<RuleId>) {
        let f = fixed_all(folder, text, profile);
        (String::from_utf8(f.after).unwrap(), f.rules)
    }

    fn fixed_all(folder: &str, text: &str, profile: Profile) -> Fixed {
        fix(&skill(folder), text.as_bytes(), true, &|s| {
            crate::core::rules::check_skill(s, profile)
        })
    }

    /// The frontmatter of `text` as a JSON object (it must parse).
    fn fields(text: &str) -> serde_json::Value {
        let p = frontmatter::parse(text.as_bytes(), true);
        assert!(p.frontmatter.parsed, "{text}: {:?}", p.diagnostics);
        serde_json::Value::Object(
            p.frontmatter
                .fields
                .into_iter()
                .map(|f| (f.key, f.value))
                .collect(),
        )
    }

    #[test]
    fn an_inline_frontmatter_keeps_its_fields_and_gets_a_missing_name_inside_its_braces() {
        // Before, the whole `{…}` line went under `metadata:` and the description was lost.
        let text = "---\n{name: pdf, description: Extracts text from PDF files. Use when the user gives a PDF., version: 2}\n---\nBody\n";
        let f = fixed_all("pdf", text, Profile::Spec);
        assert_eq!(String::from_utf8(f.after).unwrap(), text);
        assert!(f.rules.is_empty());
        assert_eq!(f.refused.len(), 1, "{:?}", f.refused);
        assert_eq!(f.refused[0].rule, RuleId::UnknownField);
        assert!(
            f.refused[0]
                .why
                .to_string()
                .contains("one inline `{…}` mapping"),
            "{:?}",
            f.refused
        );
        // A missing name is added inside the braces, the rest as it was.
        let text = "---\n{ description: 'Extracts text: PDF. Use when the user gives a PDF.' } # mine\n---\n";
        let (after, rules) = fixed("pdf-tools", text, Profile::Spec);
        assert_eq!(
            after,
            "---\n{name: pdf-tools,  description: 'Extracts text: PDF. Use when the user gives a PDF.' } # mine\n---\n"
        );
        assert_eq!(rules, [RuleId::NameMissing]);
        assert_eq!(fields(&after)["description"], fields(text)["description"]);
    }

    #[test]
    fn an_anchor_or_merge_is_never_moved_away_from_what_uses_it() {
        // `owner` holds the anchor `author` aliases: moving it below would break the YAML.
        let text = format!("---\nname: pdf\n{DESC}\nowner: &who Jane # lead\nauthor: *who\n---\n");
        let f = fixed_all("pdf", &text, Profile::Spec);
        let after = String::from_utf8(f.after).unwrap();
        assert_eq!(
            after,
            format!(
                "---\nname: pdf\n{DESC}\nowner: &who Jane # lead\nmetadata:\n  author: *who\n---\n"
            )
        );
        assert_eq!(fields(&after)["metadata"]["author"], "Jane");
        assert!(
            f.refused.iter().any(|r| r.rule == RuleId::UnknownField
                && r.why
                    .to_string()
                    .contains("`owner` holds the anchor `&who`")),
            "{:?}",
            f.refused
        );
        // A mapping merged with `<<:` stays where it is, and so does the merge key.
        let text = format!("---\nbase: &b {{license: MIT}}\nname: pdf\n{DESC}\n<<: *b\n---\n");
        let f = fixed_all("pdf", &text, Profile::Spec);
        assert_eq!(String::from_utf8(f.after).unwrap(), text);
        assert!(!f.refused.is_empty());
        // An alias moved above its anchor (into an earlier metadata block) is refused by the
        // parse after the edit.
        let text = format!(
            "---\nname: pdf\n{DESC}\nmetadata:\n  team: x\nrelease: &r 1.0\nbuild: *r\n---\n"
        );
        let f = fixed_all("pdf", &text, Profile::Spec);
        let after = String::from_utf8(f.after).unwrap();
        let p = frontmatter::parse(after.as_bytes(), true);
        assert!(p.frontmatter.parsed, "{after}");
        assert_eq!(fields(&after)["build"], fields(&text)["build"], "{after}");
        assert!(
            f.refused
                .iter()
                .any(|r| r.why.to_string().contains("invalid")
                    || r.why.to_string().contains("anchor")),
            "{:?}",
            f.refused
        );
    }

    #[test]
    fn a_folder_name_yaml_reads_as_another_type_is_written_quoted() {
        // `name: null` unquoted read back as no name at all.
        for folder in ["null", "yes", "123", "off", "true"] {
            let text = format!("---\n{DESC}\n---\n");
            let (after, rules) = fixed(folder, &text, Profile::Spec);
            assert_eq!(rules, [RuleId::NameMissing], "{folder}: {after}");
            assert_eq!(fields(&after)["name"], folder, "{after}");
            let text = format!("---\nname: other\n{DESC}\n---\n");
            let (after, _) = fixed(folder, &text, Profile::Spec);
            assert_eq!(fields(&after)["name"], folder, "{after}");
        }
        let (after, _) = fixed("null", &format!("---\n{DESC}\n---\n"), Profile::Spec);
        assert!(after.contains("name: \"null\"\n"), "{after}");
    }

    const DESC: &str =
        "description: Extracts text and tables from PDF files. Use when the user gives a PDF.";

    #[test]
    fn unknown_fields_move_under_metadata_as_written() {
        let text = format!(
            "---\nname: pdf\n{DESC}\nrelease: 1.0 # ours\ntags:\n- a\n- b\n# kept\nlicense: MIT\n---\nBody\n"
        );
        let (after, rules) = fixed("pdf", &text, Profile::ClaudeCode);
        assert_eq!(
            after,
            format!(
                "---\nname: pdf\n{DESC}\n# kept\nlicense: MIT\nmetadata:\n  release: 1.0 # ours\n  tags:\n  - a\n  - b\n---\nBody\n"
            )
        );
        assert_eq!(rules, [RuleId::UnknownField, RuleId::UnknownField]);
        // Into an existing block, indented as its entries are; CRLF kept.
        let text = format!(
            "---\r\nname: pdf\r\n{DESC}\r\nmetadata:\r\n    owner: me\r\nauthor: Jane\r\n---\r\n"
        );
        let (after, _) = fixed("pdf", &text, Profile::Spec);
        assert_eq!(
            after,
            format!(
                "---\r\nname: pdf\r\n{DESC}\r\nmetadata:\r\n    owner: me\r\n    author: Jane\r\n---\r\n"
            )
        );
        // Flow-style metadata, or the key already there: left as it is.
        for text in [
            format!("---\nname: pdf\n{DESC}\nmetadata: {{owner: me}}\nauthor: Jane\n---\n"),
            format!("---\nname: pdf\n{DESC}\nmetadata:\n  author: me\nauthor: Jane\n---\n"),
        ] {
            let (after, rules) = fixed("pdf", &text, Profile::Spec);
            assert_eq!(after, text);
            assert!(rules.is_empty());
        }
    }

    #[test]
    fn yaml_that_needs_quotes_is_quoted_and_the_field_rules_then_run() {
        let text =
            "---\nname: Pdf\ndescription: Forms: fills them. Use when asked.\nversion: 2\n---\n";
        let (after, rules) = fixed("pdf", text, Profile::Spec);
        assert_eq!(
            after,
            "---\nname: pdf\ndescription: 'Forms: fills them. Use when asked.'\nmetadata:\n  version: 2\n---\n"
        );
        assert_eq!(
            rules,
            [
                RuleId::YamlInvalid,
                RuleId::UnknownField,
                RuleId::NameDirectory
            ]
        );
        let (after, _) = fixed(
            "pdf",
            "---\nname: pdf\ndescription: It's: here. Use when asked\n---\n",
            Profile::Spec,
        );
        assert!(
            after.contains("description: 'It''s: here. Use when asked'\n"),
            "{after}"
        );
    }

    #[test]
    fn bom_blank_lines_coerced_scalars_and_a_missing_name() {
        let text = format!("\u{feff}\n\n---\n{DESC}\nwhen_to_use: true\n---\n");
        let (after, rules) = fixed("pdf-tools", &text, Profile::ClaudeCode);
        assert_eq!(
            after,
            format!("---\nname: pdf-tools\n{DESC}\nwhen_to_use: 'true'\n---\n")
        );
        assert_eq!(rules.len(), 4, "{rules:?}");
        // A folder that is no valid name gives no name.
        let text = format!("---\n{DESC}\n---\n");
        let (after, rules) = fixed("PDF Tools", &text, Profile::Spec);
        assert_eq!(after, text);
        assert!(rules.is_empty());
    }

    #[test]
    fn edits_never_overlap_and_lines_keep_their_breaks() {
        assert_eq!(
            apply(
                "abcdef",
                vec![
                    Edit {
                        start: 4,
                        end: 6,
                        text: "X".into()
                    },
                    Edit {
                        start: 0,
                        end: 1,
                        text: String::new()
                    },
                ]
            )
            .as_deref(),
            Some("bcdX")
        );
        assert_eq!(
            apply(
                "abc",
                vec![
                    Edit {
                        start: 0,
                        end: 2,
                        text: String::new()
                    },
                    Edit {
                        start: 1,
                        end: 3,
                        text: String::new()
                    },
                ]
            ),
            None
        );
        let l = Lines::of("a\r\nb\nc");
        assert_eq!((l.get(0), l.eol(0)), (Some("a"), "\r\n"));
        assert_eq!((l.get(2), l.eol(2)), (Some("c"), "\n"));
    }
}
