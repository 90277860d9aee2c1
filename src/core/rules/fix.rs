//! Mechanical fixes (`check --fix`): the findings whose message says exactly what to change, each
//! changed by editing only the bytes the fix needs, so that the rest of the file (comments, key
//! order, quoting, line endings) stays as the author wrote it.

use crate::core::catalogue::RuleId;
use crate::core::diagnostic::Diagnostic;
use crate::core::frontmatter;
use crate::core::skill::Skill;

/// A SKILL.md before and after its fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The file as it was.
    pub before: Vec<u8>,
    /// The file with every fix applied (the same bytes when nothing was fixed).
    pub after: Vec<u8>,
    /// The rules fixed, one entry per finding, in the order they were fixed.
    pub rules: Vec<RuleId>,
}

/// More rounds than any real file needs: a file whose fixes kept making new findings would
/// otherwise loop.
const MAX_ROUNDS: usize = 256;

/// Fixes what `findings` reports of `skill` when its SKILL.md holds `bytes`, one finding at a
/// time: after each fix the file is parsed again and judged again (a fixed YAML line lets the
/// field rules run). `findings` is the check as the user chose it (profile, opt-outs,
/// `--select`), so only what the report would show is fixed.
pub fn fix(skill: &Skill, bytes: &[u8], findings: &dyn Fn(&Skill) -> Vec<Diagnostic>) -> Fixed {
    let mut cur = bytes.to_vec();
    let mut rules = Vec::new();
    'rounds: for _ in 0..MAX_ROUNDS {
        let Ok(text) = std::str::from_utf8(&cur) else {
            break;
        };
        let now = reparsed(skill, &cur);
        for d in findings(&now) {
            if d.path.as_ref().is_some_and(|p| *p != skill.skill_md) {
                continue;
            }
            if let Some(edits) = edits_for(&now, text, &d)
                && let Some(next) = apply(text, edits)
                && next.as_bytes() != cur.as_slice()
            {
                cur = next.into_bytes();
                rules.push(d.rule);
                continue 'rounds;
            }
        }
        break;
    }
    Fixed {
        before: bytes.to_vec(),
        after: cur,
        rules,
    }
}

/// `skill` as it reads when its SKILL.md holds `bytes`.
fn reparsed(skill: &Skill, bytes: &[u8]) -> Skill {
    let parsed = frontmatter::parse(bytes, true);
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

/// The edits that fix `d`, when its fix is mechanical here.
fn edits_for(skill: &Skill, text: &str, d: &Diagnostic) -> Option<Vec<Edit>> {
    let lines = Lines::of(text);
    match d.rule {
        RuleId::FileBom => text.starts_with('\u{feff}').then(|| {
            vec![Edit {
                start: 0,
                end: 3,
                text: String::new(),
            }]
        }),
        RuleId::FrontmatterLeadingBlank => {
            let open = lines.opening()?;
            let from = usize::from(text.starts_with('\u{feff}')) * 3;
            (lines.start(open) > from).then(|| {
                vec![Edit {
                    start: from,
                    end: lines.start(open),
                    text: String::new(),
                }]
            })
        }
        RuleId::YamlInvalid if d.message.contains("quote the value") => {
            quote_value(&lines, d.line?, false)
        }
        RuleId::YamlCoercedScalar => quote_value(&lines, d.line?, true),
        RuleId::NameDirectory | RuleId::NameMissing => name_from_folder(skill, &lines, d),
        RuleId::UnknownField => to_metadata(skill, &lines, d.line?),
        _ => None,
    }
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
fn quote_value(lines: &Lines, line: u32, coerced: bool) -> Option<Vec<Edit>> {
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
    Some(vec![Edit {
        start: kl.value.0,
        end: kl.value.1,
        text: format!("'{}'", value.replace('\'', "''")),
    }])
}

/// `name:` set to the folder's name (added after the opening line when there is none), when the
/// folder's name is a valid name.
fn name_from_folder(skill: &Skill, lines: &Lines, d: &Diagnostic) -> Option<Vec<Edit>> {
    let folder = skill.dir_name();
    crate::core::skeleton::check_name(&folder).ok()?;
    let field = skill.frontmatter.get("name");
    match field {
        None if d.rule == RuleId::NameMissing => {
            let open = lines.opening()?;
            lines.closing()?;
            Some(vec![Edit {
                start: lines.end(open),
                end: lines.end(open),
                text: format!("name: {folder}{}", lines.eol(open)),
            }])
        }
        Some(f) => {
            let kl = key_line(lines, f.line.checked_sub(1)? as usize)?;
            if kl.indent != 0 || kl.key != "name" {
                return None;
            }
            let value = lines.text.get(kl.value.0..kl.value.1)?;
            if value.starts_with(['|', '>', '[', '{']) {
                return None;
            }
            Some(vec![Edit {
                start: kl.value.0,
                end: kl.value.1,
                text: folder.into_owned(),
            }])
        }
        None => None,
    }
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

/// Moves the top-level field at `line` (1-based) under `metadata:`: to the end of the
/// metadata's block, indented as its entries are, or into a new `metadata:` block at the end of
/// the frontmatter. Not when metadata is written in flow style or already holds the key.
fn to_metadata(skill: &Skill, lines: &Lines, line: u32) -> Option<Vec<Edit>> {
    let i = line.checked_sub(1)? as usize;
    let close = lines.closing()?;
    let kl = key_line(lines, i)?;
    if kl.indent != 0 || kl.key == "metadata" {
        return None;
    }
    let end = field_extent(lines, i, close);
    let moved: Vec<(&str, &str)> = (i..end)
        .map(|j| Some((lines.get(j)?, lines.eol(j))))
        .collect::<Option<_>>()?;
    let fm = &skill.frontmatter;
    let (at, indent) = match fm.get("metadata") {
        None => (lines.start(close), None),
        Some(m) => {
            let mi = m.line.checked_sub(1)? as usize;
            let ml = key_line(lines, mi)?;
            // A block mapping (or nothing yet): `metadata:` with nothing after it on its line.
            if ml.indent != 0 || ml.value.0 != ml.value.1 {
                return None;
            }
            if m.value.as_object().is_some_and(|o| o.contains_key(&kl.key)) {
                return None;
            }
            if !(m.value.is_object() || m.value.is_null()) {
                return None;
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
    };
    if at > lines.start(i) && at < lines.start(end) {
        return None;
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
    Some(vec![
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
    ])
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
        let f = fix(&skill(folder), text.as_bytes(), &|s| {
            crate::core::rules::check_skill(s, profile)
        });
        (String::from_utf8(f.after).unwrap(), f.rules)
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
