//! Tolerant frontmatter reading: split the `---` block off SKILL.md whatever the file looks like
//! (BOM, CRLF, blank lines, NULs, bad UTF-8, no closing line), parse it as YAML and type the known
//! fields. Every YAML call of the project lives in this folder: the YAML text's shape
//! (`yaml.rs`), authors' opt-outs (`opt_outs.rs`), edits checked for faithfulness and other
//! YAML files (`edit.rs`), values in words (`values.rs`).

mod edit;
mod opt_outs;
mod values;
mod yaml;

pub use edit::{Change, EditError, YamlError, check_edit, parse_yaml_value};
pub use opt_outs::{OptOut, opt_outs};
pub use values::{compact, json_kind, shown_value, strings_of};

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use opt_outs::split_comment;
use serde::Serialize;
use serde_json::Value;
use yaml::{MAX_FLOW_DEPTH, split_line, too_deep, yaml_kind};

/// How an agent uses the skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SkillKind {
    /// Instructions only: the body is loaded into the context.
    #[default]
    Contextual,
    /// A tool: an entry script that answers `--help-json` with its schema.
    Executable,
    /// Built from other skills: using it loads the skills its body names.
    Composite,
}

/// What decided a skill's type: the Lazy Skills rule is that a declared `type:` wins, an entry
/// script makes a skill executable, and everything else is contextual.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub enum KindSource {
    /// `type:` in the frontmatter.
    #[serde(rename = "type")]
    Declared,
    /// `entry:` in the frontmatter names a script.
    #[serde(rename = "entry")]
    Entry,
    /// The folder holds the default entry script, `execute.py`.
    #[serde(rename = "execute.py")]
    EntryScript,
    /// Nothing says otherwise.
    #[default]
    #[serde(rename = "default")]
    Default,
}

impl KindSource {
    /// Its name in JSON and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            KindSource::Declared => "type",
            KindSource::Entry => "entry",
            KindSource::EntryScript => "execute.py",
            KindSource::Default => "default",
        }
    }
}

impl SkillKind {
    /// Its name in JSON and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            SkillKind::Contextual => "contextual",
            SkillKind::Executable => "executable",
            SkillKind::Composite => "composite",
        }
    }
}

/// One frontmatter key, in file order, with its value as JSON and its 1-based line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    /// The key as written.
    pub key: String,
    /// Its value as JSON.
    pub value: Value,
    /// 1-based line of the key.
    pub line: u32,
}

/// The frontmatter of a skill: every field as written plus typed views of the known ones.
#[derive(Debug, Clone, Default)]
pub struct Frontmatter {
    /// A frontmatter block was found, closed, and parsed as a YAML mapping.
    pub parsed: bool,
    /// Every field, in file order.
    pub fields: Vec<Field>,
    /// The `name`, when it is text.
    pub name: Option<String>,
    /// The `description` as text: see [`Frontmatter::description`].
    pub(crate) description: Option<Text>,
    /// How the `description` scalar is written in the file (plain, quoted, a block): clients
    /// whose own readers keep or drop a final line break by it differ on what they list.
    pub description_style: ScalarStyle,
    /// Claude Code's `when_to_use`, when it is text.
    pub when_to_use: Option<String>,
    /// The skill's type: `type:`, else what `entry:` implies, else contextual.
    pub kind: SkillKind,
    /// What decided `kind`: `type:`, `entry:`, or nothing (the scan adds `execute.py`).
    pub kind_source: KindSource,
    /// The entry script of an executable skill, when named in frontmatter.
    pub entry: Option<String>,
    /// `disable-model-invocation: true`: the agent never loads it on its own.
    pub disable_model_invocation: bool,
    /// Claude Code's `user-invocable`.
    pub user_invocable: Option<bool>,
    /// The Lazy Skills `auto_load:` switch.
    pub auto_load: Option<bool>,
    /// The Lazy Skills `enabled:` switch.
    pub enabled: Option<bool>,
    /// The Lazy Skills trigger phrases.
    pub triggers: Vec<String>,
    /// The Lazy Skills `dependencies:` requirements, as written.
    pub dependencies: Vec<String>,
    /// Flow-style collections (`[a, b]`, `{a: b}`) that the strict YAML of the reference
    /// validator rejects: the 1-based lines where they appear.
    pub flow_style_lines: Vec<u32>,
    /// The author's `# skillscope: ignore[…]` comments.
    pub opt_outs: Vec<OptOut>,
}

/// How a YAML scalar is written: the parser gives the text, not this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScalarStyle {
    /// Unquoted text (also: no value, or a value that is no scalar).
    #[default]
    Plain,
    /// `'…'`.
    SingleQuoted,
    /// `"…"`.
    DoubleQuoted,
    /// A literal block, `|`.
    Literal,
    /// A folded block, `>`.
    Folded,
}

impl ScalarStyle {
    /// Its code in a library index.
    pub fn code(self) -> u8 {
        match self {
            ScalarStyle::Plain => 0,
            ScalarStyle::SingleQuoted => 1,
            ScalarStyle::DoubleQuoted => 2,
            ScalarStyle::Literal => 3,
            ScalarStyle::Folded => 4,
        }
    }

    /// The style of an index's code, `None` for a code no style has.
    pub fn from_code(code: u8) -> Option<ScalarStyle> {
        Some(match code {
            0 => ScalarStyle::Plain,
            1 => ScalarStyle::SingleQuoted,
            2 => ScalarStyle::DoubleQuoted,
            3 => ScalarStyle::Literal,
            4 => ScalarStyle::Folded,
            _ => return None,
        })
    }

    /// A block scalar (`|` or `>`).
    pub fn is_block(self) -> bool {
        matches!(self, ScalarStyle::Literal | ScalarStyle::Folded)
    }
}

/// A typed text field's value: the string of one of the fields (by its place in `fields`), so
/// that a long description is held once; or a text made from a value of another type (a number
/// or boolean, coerced), held apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Text {
    Field(usize),
    Made(String),
}

impl Frontmatter {
    /// The description agents see: the `description` field's text (a number or boolean written
    /// out), `None` when there is no such field or it is null or of another shape.
    pub fn description(&self) -> Option<&str> {
        match self.description.as_ref()? {
            Text::Field(i) => self.fields.get(*i)?.value.as_str(),
            Text::Made(s) => Some(s),
        }
    }

    /// Sets the description to `text`, whatever the fields say.
    pub fn set_description(&mut self, text: Option<String>) {
        self.description = text.map(Text::Made);
    }

    /// The field `key`, when the frontmatter has it.
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.key == key)
    }

    /// The line of the field `key`, when the frontmatter has it.
    pub fn line_of(&self, key: &str) -> Option<u32> {
        self.get(key).map(|f| f.line)
    }
}

/// Where the parts of a SKILL.md are.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// Byte offset where the body starts.
    pub body_offset: usize,
    /// 1-based line where the body starts.
    pub body_line: u32,
    /// The closing `---` was not found in the bytes given.
    pub unterminated: bool,
}

/// The result of reading the head of a SKILL.md.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    /// The frontmatter.
    pub frontmatter: Frontmatter,
    /// Where the frontmatter and the body are in the file.
    pub layout: Layout,
    /// What was wrong with the file or its YAML.
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds the end of the frontmatter in raw bytes: the offset just past the closing delimiter line,
/// or `None` when the bytes hold no complete block (the caller may read more).
pub fn frontmatter_end(bytes: &[u8]) -> Option<usize> {
    let mut start = 0;
    let mut opened = false;
    let mut first = true;
    while start < bytes.len() {
        let end = memchr_nl(&bytes[start..]).map_or(bytes.len(), |i| start + i + 1);
        let mut line = &bytes[start..end];
        if first {
            line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        }
        let t = trim_ascii_end(line);
        if !opened {
            if t.is_empty() {
                start = end;
                first = false;
                continue;
            }
            if t != b"---" {
                return Some(0);
            }
            opened = true;
        } else if t == b"---" || t == b"..." {
            return Some(end);
        }
        first = false;
        start = end;
    }
    None
}

fn memchr_nl(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
}

fn trim_ascii_end(b: &[u8]) -> &[u8] {
    let mut e = b.len();
    while e > 0 && matches!(b[e - 1], b' ' | b'\t' | b'\r' | b'\n') {
        e -= 1;
    }
    &b[..e]
}

/// The frontmatter region as text: NUL bytes and bad UTF-8 reported once, then read past.
fn decode(region: &[u8], diags: &mut Vec<Diagnostic>) -> String {
    if let Some(pos) = region.iter().position(|&b| b == 0) {
        let (l, c) = line_col(region, pos);
        diags.push(
            Diagnostic::new(
                RuleId::FileNulBytes,
                Severity::Error,
                "the frontmatter holds NUL bytes: save the file as plain UTF-8 text",
            )
            .at(l, c),
        );
    }
    let text: std::borrow::Cow<str> = match std::str::from_utf8(region) {
        Ok(s) => s.into(),
        Err(e) => {
            let (l, c) = line_col(region, e.valid_up_to());
            diags.push(
                Diagnostic::new(
                    RuleId::FileNotUtf8,
                    Severity::Error,
                    "the file is not valid UTF-8: re-encode it as UTF-8",
                )
                .at(l, c),
            );
            String::from_utf8_lossy(region)
        }
    };
    text.replace('\0', "")
}

/// Past a byte-order mark and blank lines before the opening `---` (each reported): the rest,
/// its line number and its byte offset in `text`.
fn skip_lead<'t>(text: &'t str, diags: &mut Vec<Diagnostic>) -> (&'t str, u32, usize) {
    let mut rest: &str = text;
    let mut line_no: u32 = 1;
    let mut offset = 0usize;
    if let Some(r) = rest.strip_prefix('\u{feff}') {
        diags.push(
            Diagnostic::new(
                RuleId::FileBom,
                Severity::Warning,
                "the file starts with a byte-order mark: save it as UTF-8 without BOM",
            )
            .at(1, 1),
        );
        rest = r;
        offset += 3;
    }
    // Leading blank lines.
    let mut blank = 0;
    loop {
        let (line, next) = split_line(rest);
        if !line.trim().is_empty() || next.len() == rest.len() {
            break;
        }
        blank += 1;
        offset += rest.len() - next.len();
        rest = next;
        line_no += 1;
        if rest.is_empty() {
            break;
        }
    }
    if blank > 0 {
        diags.push(
            Diagnostic::new(
                RuleId::FrontmatterLeadingBlank,
                Severity::Warning,
                format!(
                    "{blank} blank line(s) before the opening `---`: the file must start with `---`"
                ),
            )
            .at(1, 1),
        );
    }
    (rest, line_no, offset)
}

/// Parses the head of a SKILL.md. `head` holds the file's first bytes (at least through the
/// closing delimiter when there is one); `complete` says whether `head` is the whole file.
pub fn parse(head: &[u8], complete: bool) -> Parsed {
    let mut out = Parsed::default();
    let diags = &mut out.diagnostics;
    if head.is_empty() && complete {
        diags.push(
            Diagnostic::new(
                RuleId::FileEmpty,
                Severity::Error,
                "SKILL.md is empty: add a frontmatter block with `name` and `description`",
            )
            .at(1, 1),
        );
        out.layout.body_line = 1;
        return out;
    }

    let end = frontmatter_end(head);
    let region_len = end.unwrap_or(head.len());
    let region = &head[..region_len];

    let text = decode(region, diags);
    let (rest, line_no, offset) = skip_lead(&text, diags);
    let (first, after_first) = split_line(rest);
    if first.trim_end() != "---" {
        let msg = if rest.trim().is_empty() {
            "SKILL.md holds no frontmatter: start it with a `---` block holding `name` and `description`"
        } else {
            "SKILL.md does not start with a `---` frontmatter block: add one with `name` and `description`"
        };
        diags
            .push(Diagnostic::new(RuleId::FrontmatterMissing, Severity::Error, msg).at(line_no, 1));
        out.layout.body_offset = 0;
        out.layout.body_line = 1;
        return out;
    }
    let open_line = line_no;
    let yaml_first_line = line_no + 1;
    let yaml_start = offset + (rest.len() - after_first.len());
    let mut cursor = after_first;
    let mut ln = yaml_first_line;
    let mut yaml_end = None;
    while !cursor.is_empty() {
        let (line, next) = split_line(cursor);
        let t = line.trim_end();
        if t == "---" || t == "..." {
            yaml_end = Some((text.len() - cursor.len(), text.len() - next.len(), ln + 1));
            break;
        }
        cursor = next;
        ln += 1;
    }
    let Some((yaml_stop, body_off, body_line)) = yaml_end else {
        let hint = if complete {
            "the frontmatter is never closed: add a `---` line after the last field"
        } else {
            "the frontmatter is not closed within the first MiB: add a `---` line after the last field"
        };
        diags.push(
            Diagnostic::new(RuleId::FrontmatterUnterminated, Severity::Error, hint)
                .at(open_line, 1),
        );
        out.layout.unterminated = true;
        out.layout.body_offset = 0;
        out.layout.body_line = 1;
        salvage(&text[yaml_start..], yaml_first_line, &mut out.frontmatter);
        out.frontmatter.opt_outs = opt_outs(&text[yaml_start..], yaml_first_line);
        return out;
    };
    // Offsets above are into `text` (NULs removed, lossy); the body offset must be into the raw
    // bytes, which `frontmatter_end` computed.
    out.layout.body_offset = end.unwrap_or(body_off);
    out.layout.body_line = body_line;
    let yaml = &text[yaml_start..yaml_stop];
    parse_yaml(yaml, yaml_first_line, &mut out.frontmatter, diags);
    out.frontmatter.opt_outs = opt_outs(yaml, yaml_first_line);
    out
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(bytes: &[u8], pos: usize) -> (u32, u32) {
    let before = &bytes[..pos.min(bytes.len())];
    #[allow(clippy::naive_bytecount)] // one call per diagnostic: no crate for it
    let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count() as u32
        + 1;
    (line, col)
}

/// Top-level keys of a YAML block and their 1-based lines, found by layout rather than by the
/// parser (which forgets positions).
fn key_lines(yaml: &str, first_line: u32) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (i, line) in yaml.lines().enumerate() {
        let Some(c) = line.chars().next() else {
            continue;
        };
        if c.is_whitespace() || c == '#' || c == '-' {
            continue;
        }
        if let Some(idx) = line.find(':') {
            let key = line[..idx].trim().trim_matches(|c| c == '"' || c == '\'');
            let after = &line[idx + 1..];
            if after.is_empty() || after.starts_with([' ', '\t', '\r']) {
                out.push((key.to_string(), first_line + i as u32));
            }
        }
    }
    out
}

/// Best effort when the YAML cannot be parsed: pick `name:` and `description:` off their lines so
/// the skill still shows up under a recognisable name.
fn salvage(yaml: &str, first_line: u32, fm: &mut Frontmatter) {
    for (i, line) in yaml.lines().enumerate() {
        for key in ["name", "description"] {
            if let Some(v) = line.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
                let v = v.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
                if v.is_empty() || v.starts_with(['|', '>']) {
                    continue;
                }
                let free = if key == "name" {
                    fm.name.is_none()
                } else {
                    fm.description.is_none()
                };
                if free {
                    if key == "name" {
                        fm.name = Some(v.clone());
                    } else {
                        fm.description = Some(Text::Field(fm.fields.len()));
                    }
                    fm.fields.push(Field {
                        key: key.to_string(),
                        value: Value::String(v),
                        line: first_line + i as u32,
                    });
                }
            }
        }
    }
}

fn yaml_fix_hint(msg: &str) -> &'static str {
    if msg.contains("mapping values are not allowed") {
        "quote the value: an unquoted value cannot hold `: ` (write `key: \"text: more\"`)"
    } else if msg.contains("cannot start any token") || msg.contains("while scanning an alias") {
        "quote the value: YAML reads a leading `*`, `&`, `@`, `!`, `%` or backtick as syntax"
    } else if msg.contains("tab") {
        "indent with spaces: YAML forbids tabs for indentation"
    } else if msg.contains("duplicate") {
        "remove the repeated key: each key may appear once"
    } else if msg.contains("block sequence entries are not allowed") {
        "put list items on their own lines under the key, or quote the value"
    } else if msg.contains("expected ',' or ']'") {
        "a `[` opens a list that is never closed: close it with `]` (or quote the value if the bracket is text)"
    } else if msg.contains("expected ',' or '}'") {
        "a `{` opens a mapping that is never closed: close it with `}` (or quote the value if the brace is text)"
    } else if msg.contains("while scanning a quoted scalar")
        || msg.contains("unexpected end of stream")
    {
        "a quoted value is never closed: end it with the quote it starts with"
    } else {
        "fix the YAML syntax on that line"
    }
}

fn parse_yaml(yaml: &str, first_line: u32, fm: &mut Frontmatter, diags: &mut Vec<Diagnostic>) {
    if let Some(line) = too_deep(yaml) {
        diags.push(
            Diagnostic::new(
                RuleId::YamlInvalid,
                Severity::Error,
                format!(
                    "invalid YAML in frontmatter: brackets nested more than {MAX_FLOW_DEPTH} deep; quote the value or write it in block style"
                ),
            )
            .at(first_line + line, 1),
        );
        salvage(yaml, first_line, fm);
        return;
    }
    let value: serde_yaml::Value = match serde_yaml::from_str(yaml) {
        Ok(v) => v,
        Err(e) => {
            // From the byte index, not the parser's line and column: YAML also breaks lines at
            // U+0085, U+2028, U+2029 and a lone CR, which no editor shows as a new line.
            let (line, col) = e.location().map_or((first_line, 1), |l| {
                let (line, col) = line_col(yaml.as_bytes(), l.index());
                (first_line + line - 1, col)
            });
            let raw = e.to_string();
            let msg = raw.split(" at line ").next().unwrap_or(&raw).to_string();
            diags.push(
                Diagnostic::new(
                    RuleId::YamlInvalid,
                    Severity::Error,
                    format!(
                        "invalid YAML in frontmatter: {msg}; {}",
                        yaml_fix_hint(&raw)
                    ),
                )
                .at(line, col),
            );
            salvage(yaml, first_line, fm);
            return;
        }
    };
    let map = match value {
        serde_yaml::Value::Mapping(m) => m,
        serde_yaml::Value::Null => serde_yaml::Mapping::new(),
        other => {
            diags.push(
                Diagnostic::new(
                    RuleId::FrontmatterNotMapping,
                    Severity::Error,
                    format!(
                        "the frontmatter is a {} rather than `key: value` lines: write it as a mapping",
                        yaml_kind(&other)
                    ),
                )
                .at(first_line, 1),
            );
            return;
        }
    };
    fm.parsed = true;
    let lines = key_lines(yaml, first_line);
    fm.flow_style_lines = flow_style_lines(yaml, first_line);
    if let Some(&(_, line)) = lines.iter().find(|(k, _)| k == "description") {
        fm.description_style = scalar_style(yaml, (line - first_line) as usize);
    }
    for (k, v) in map {
        let key = match k {
            serde_yaml::Value::String(s) => s,
            other => scalar_text(&other).unwrap_or_else(|| compact(&to_json(other))),
        };
        let line = lines
            .iter()
            .find(|(n, _)| *n == key)
            .map_or(first_line, |(_, l)| *l);
        let mut value = to_json(v);
        if key == "auto_load" {
            value = pyyaml_bool(yaml, first_line, line, value);
        }
        fm.fields.push(Field { key, value, line });
    }
    type_fields(fm, diags);
}

/// PyYAML's booleans (YAML 1.1, `yaml.safe_load`'s resolver): these spellings, unquoted, are
/// `True`/`False` in Python; `y`, `n` and mixed case like `yEs` are text.
const PYYAML_TRUE: [&str; 9] = [
    "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
];
const PYYAML_FALSE: [&str; 9] = [
    "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
];

/// `auto_load` as the Lazy Skills loader holds it (design 000 reads SKILL.md frontmatter with
/// a Python YAML loader, `metadata.get("auto_load", False)`): an unquoted YAML 1.1 boolean
/// (`yes`, `off`, …), which serde_yaml's YAML 1.2 reads as text, becomes the boolean Python
/// gets. A quoted `'yes'` stays text. Kept in the field itself, so an index that stores the
/// fields reads it the same way.
fn pyyaml_bool(yaml: &str, first_line: u32, line: u32, value: Value) -> Value {
    let Value::String(s) = &value else {
        return value;
    };
    let raw = line
        .checked_sub(first_line)
        .and_then(|i| yaml.lines().nth(i as usize))
        .and_then(|l| l.split_once(':'))
        .map(|(_, after)| {
            split_comment(after)
                .map_or(after, |(before, _)| before)
                .trim()
        });
    if raw != Some(s.as_str()) {
        return value;
    }
    if PYYAML_TRUE.contains(&s.as_str()) {
        Value::Bool(true)
    } else if PYYAML_FALSE.contains(&s.as_str()) {
        Value::Bool(false)
    } else {
        value
    }
}

/// Python's truth of a value as a YAML loader hands it over: `False`, `None`, `0`, `0.0`, `""`,
/// `[]` and `{}` are false, everything else true (so the text `"false"` is true). What the Lazy
/// Skills registry makes of `auto_load` (`enabled = auto_enable and metadata.get("auto_load",
/// False)`, then `if skill.enabled`).
pub fn python_truth(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

fn scalar_text(v: &serde_yaml::Value) -> Option<String> {
    match v {
        serde_yaml::Value::String(s) => Some(s.clone()),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn to_json(v: serde_yaml::Value) -> Value {
    match v {
        serde_yaml::Value::Null => Value::Null,
        serde_yaml::Value::Bool(b) => Value::Bool(b),
        serde_yaml::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                n.as_f64()
                    .and_then(serde_json::Number::from_f64)
                    .map_or(Value::String(n.to_string()), Value::Number)
            }
        }
        serde_yaml::Value::String(s) => Value::String(s),
        serde_yaml::Value::Sequence(s) => Value::Array(s.into_iter().map(to_json).collect()),
        serde_yaml::Value::Mapping(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    let key = scalar_text(&k).unwrap_or_else(|| compact(&to_json(k)));
                    (key, to_json(v))
                })
                .collect(),
        ),
        serde_yaml::Value::Tagged(t) => to_json(t.value),
    }
}

/// The style of the scalar of the top-level key on line `at` (0-based in `yaml`), from the raw
/// text: the first character of its value past any tag or anchor, on the key's line or, when
/// the value starts on a later line, on the first line after it that holds any.
fn scalar_style(yaml: &str, at: usize) -> ScalarStyle {
    let mut lines = yaml.lines().skip(at);
    let Some(after) = lines
        .next()
        .and_then(|l| l.split_once(':'))
        .map(|(_, after)| after)
    else {
        return ScalarStyle::Plain;
    };
    let first_of = |text: &str| {
        let mut rest = text.trim_start();
        // Tags (`!!str`) and anchors (`&a`) come before the value.
        while rest.starts_with(['!', '&']) {
            rest = rest
                .split_once([' ', '\t'])
                .map_or("", |(_, r)| r)
                .trim_start();
        }
        rest.chars().next().filter(|&c| c != '#')
    };
    let first = first_of(after).or_else(|| lines.find_map(first_of));
    match first {
        Some('\'') => ScalarStyle::SingleQuoted,
        Some('"') => ScalarStyle::DoubleQuoted,
        Some('|') => ScalarStyle::Literal,
        Some('>') => ScalarStyle::Folded,
        _ => ScalarStyle::Plain,
    }
}

/// Lines where a value is written in flow style (`key: [a, b]`, `key: {a: b}`, `- [a]`).
fn flow_style_lines(yaml: &str, first_line: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut in_block_scalar: Option<usize> = None;
    for (i, line) in yaml.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if let Some(ind) = in_block_scalar {
            if t.is_empty() || indent > ind {
                continue;
            }
            in_block_scalar = None;
        }
        let value = if let Some(rest) = t.strip_prefix("- ") {
            rest.trim_start()
        } else if let Some(idx) = t.find(": ") {
            t[idx + 2..].trim_start()
        } else if t.ends_with(':') {
            ""
        } else {
            continue;
        };
        if value.starts_with('[') || value.starts_with('{') {
            out.push(first_line + i as u32);
        } else if value.starts_with('|') || value.starts_with('>') {
            in_block_scalar = Some(indent);
        }
    }
    out
}

/// The frontmatter that [`parse`] made of these fields, typed again without YAML: for a library
/// index, which keeps the fields (and the parse's diagnostics) but not the typed views.
pub fn from_fields(
    parsed: bool,
    fields: Vec<Field>,
    flow_style_lines: Vec<u32>,
    description_style: ScalarStyle,
) -> Frontmatter {
    let mut fm = Frontmatter {
        parsed,
        fields,
        description_style,
        flow_style_lines,
        ..Frontmatter::default()
    };
    if parsed {
        type_fields(&mut fm, &mut Vec::new());
    } else {
        // Unparsed frontmatters hold only what `salvage` picked off the lines.
        for (i, f) in fm.fields.iter().enumerate() {
            match f.key.as_str() {
                "name" if fm.name.is_none() => fm.name = f.value.as_str().map(str::to_string),
                "description" if fm.description.is_none() && f.value.is_string() => {
                    fm.description = Some(Text::Field(i));
                }
                _ => {}
            }
        }
    }
    fm
}

/// A text field's value (a number or a boolean taken as text, with a note), `None` for an
/// empty one; for a value of the wrong type, what it must be.
fn text_of(f: &Field, diags: &mut Vec<Diagnostic>) -> Result<Option<String>, &'static str> {
    Ok(match &f.value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => {
            diags.push(coerced(f, "number"));
            Some(n.to_string())
        }
        Value::Bool(b) => {
            diags.push(coerced(f, "boolean"));
            Some(b.to_string())
        }
        Value::Null => None,
        _ => return Err("a string"),
    })
}

/// A switch's value (`true`/`false`, also as text), `None` for an empty one; for a value of
/// the wrong type, what it must be.
fn switch_of(value: &Value) -> Result<Option<bool>, &'static str> {
    Ok(match value {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        Value::Null => None,
        _ => return Err("true or false"),
    })
}

/// Lazy Skills' `auto_load` (design 000: `enabled = auto_enable and metadata.get("auto_load",
/// False)`): Python's truth of whatever the value is, only this spelling of the key; a value
/// that is not a boolean is said with how the loader takes it.
fn auto_load_of(f: &Field, diags: &mut Vec<Diagnostic>) -> bool {
    let truth = python_truth(&f.value);
    if !matches!(f.value, Value::Bool(_)) {
        diags.push(
            Diagnostic::new(
                RuleId::FieldType,
                Severity::Warning,
                format!(
                    "`auto_load` is {} `{}`, which the Lazy Skills loader takes as {} (Python's truth of the value): write `auto_load: {}`",
                    json_kind(&f.value),
                    compact(&f.value),
                    if truth { "true" } else { "false" },
                    truth
                ),
            )
            .at(f.line, 1),
        );
    }
    truth
}

/// The description's text: the field's own (by its place `i`), or a number or boolean taken
/// as text (with a note); for a value of the wrong type, what it must be.
fn description_of(
    i: usize,
    f: &Field,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<Text>, &'static str> {
    Ok(match &f.value {
        Value::String(_) => Some(Text::Field(i)),
        Value::Number(n) => {
            diags.push(coerced(f, "number"));
            Some(Text::Made(n.to_string()))
        }
        Value::Bool(b) => {
            diags.push(coerced(f, "boolean"));
            Some(Text::Made(b.to_string()))
        }
        Value::Null => None,
        _ => return Err("a string"),
    })
}

/// Known fields, typed, with a diagnostic for each value of the wrong shape.
fn type_fields(fm: &mut Frontmatter, diags: &mut Vec<Diagnostic>) {
    // Taken out while the typed views are filled in, and put back: no copy of every value.
    let fields = std::mem::take(&mut fm.fields);
    for (i, f) in fields.iter().enumerate() {
        let wrong = |what: &str| {
            Diagnostic::new(
                RuleId::FieldType,
                Severity::Error,
                format!("`{}` must be {what}, found {}", f.key, json_kind(&f.value)),
            )
            .at(f.line, 1)
        };
        match f.key.as_str() {
            "description" => {
                fm.description = description_of(i, f, diags).unwrap_or_else(|want| {
                    diags.push(wrong(want));
                    None
                });
            }
            "name" | "when_to_use" | "when-to-use" => {
                let text = text_of(f, diags).unwrap_or_else(|want| {
                    diags.push(wrong(want));
                    None
                });
                match f.key.as_str() {
                    "name" => fm.name = text,
                    _ => fm.when_to_use = text,
                }
            }
            "type" => match f.value.as_str().and_then(kind_named) {
                Some(kind) => {
                    fm.kind = kind;
                    fm.kind_source = KindSource::Declared;
                }
                _ => diags.push(
                    Diagnostic::new(
                        RuleId::FieldValue,
                        Severity::Warning,
                        format!(
                            "`type` is `{}`: use `contextual`, `executable` or `composite`",
                            compact(&f.value)
                        ),
                    )
                    .at(f.line, 1),
                ),
            },
            "entry" | "entrypoint" | "entry_point" | "script" => match f.value.as_str() {
                Some(s) => fm.entry = Some(s.to_string()),
                None => diags.push(wrong("a file name")),
            },
            "auto_load" => fm.auto_load = Some(auto_load_of(f, diags)),
            "disable-model-invocation" | "user-invocable" | "enabled" => {
                let b = switch_of(&f.value).unwrap_or_else(|want| {
                    diags.push(wrong(want));
                    None
                });
                match f.key.as_str() {
                    "disable-model-invocation" => fm.disable_model_invocation = b == Some(true),
                    "user-invocable" => fm.user_invocable = b,
                    _ => fm.enabled = b,
                }
            }
            "triggers" => fm.triggers.extend(strings_of(&f.value)),
            "dependencies" => fm.dependencies = strings_of(&f.value),
            "metadata" if !matches!(f.value, Value::Object(_) | Value::Null) => {
                diags.push(wrong("a mapping of `key: value`"));
            }
            "allowed-tools" | "paths"
                if !matches!(f.value, Value::String(_) | Value::Array(_) | Value::Null) =>
            {
                diags.push(wrong("a string or a list"));
            }
            "license" | "compatibility" | "model" | "context" | "argument-hint" | "agent"
                if !matches!(
                    f.value,
                    Value::String(_) | Value::Null | Value::Number(_) | Value::Bool(_)
                ) =>
            {
                diags.push(wrong("a string"));
            }
            _ => {}
        }
    }
    fm.fields = fields;
    // A declared type wins; an entry script makes a skill executable.
    if fm.kind_source == KindSource::Default
        && fm.entry.as_deref().is_some_and(|e| !e.trim().is_empty())
    {
        fm.kind = SkillKind::Executable;
        fm.kind_source = KindSource::Entry;
    }
}

/// The type a `type:` value names. `tool` and `context` are spellings other loaders accept; the
/// `lazy-skills` profile asks for the three canonical words.
pub fn kind_named(value: &str) -> Option<SkillKind> {
    match value {
        "executable" | "tool" => Some(SkillKind::Executable),
        "composite" => Some(SkillKind::Composite),
        "contextual" | "context" => Some(SkillKind::Contextual),
        _ => None,
    }
}

fn coerced(f: &Field, kind: &str) -> Diagnostic {
    Diagnostic::new(
        RuleId::YamlCoercedScalar,
        Severity::Warning,
        format!(
            "`{}` is read as a {kind} by YAML: quote it (`{}: \"{}\"`) so every agent reads text",
            f.key,
            f.key,
            compact(&f.value)
        ),
    )
    .at(f.line, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(p: &Parsed) -> Vec<&'static str> {
        p.diagnostics.iter().map(|d| d.rule.as_str()).collect()
    }

    fn auto_load_of(value: &str) -> (Option<bool>, Vec<&'static str>) {
        let p = parse(
            format!("---\nname: a\ndescription: d\nauto_load: {value}\n---\n").as_bytes(),
            true,
        );
        let rules = rules(&p);
        (p.frontmatter.auto_load, rules)
    }

    #[test]
    fn auto_load_is_read_as_pyyaml_and_python_read_it() {
        // YAML 1.1 booleans, unquoted: what PyYAML hands the Lazy Skills registry.
        for v in ["yes", "Yes", "YES", "on", "ON", "true", "True"] {
            assert_eq!(auto_load_of(v), (Some(true), vec![]), "{v}");
        }
        for v in ["no", "No", "off", "OFF", "false", "FALSE", "no # not yet"] {
            assert_eq!(auto_load_of(v), (Some(false), vec![]), "{v}");
        }
        // Anything else is Python's truth of the value, with a word on how it is read.
        for v in ["'no'", "\"false\"", "y", "n", "yEs", "1", "[x]"] {
            assert_eq!(auto_load_of(v), (Some(true), vec!["field-type"]), "{v}");
        }
        for v in ["0", "''", "[]", "~", ""] {
            assert_eq!(auto_load_of(v), (Some(false), vec!["field-type"]), "{v}");
        }
        // Only `auto_load` is the Lazy Skills switch (`metadata.get("auto_load", False)`).
        let p = parse(
            b"---\nname: a\ndescription: d\nauto-load: true\n---\n",
            true,
        );
        assert_eq!(p.frontmatter.auto_load, None);
    }

    #[test]
    fn texts_that_read_as_numbers_keep_their_quotes() {
        let p = parse(
            b"---\nname: a\ndescription: d\nversion: '1.0'\nnumber: 1.0\nflag: 'yes'\nempty: ''\nplain: hello world\ncolon: 'a: b'\n---\n",
            true,
        );
        let shown: Vec<String> = p
            .frontmatter
            .fields
            .iter()
            .map(|f| format!("{}={}", f.key, shown_value(&f.value)))
            .collect();
        assert_eq!(
            shown,
            [
                "name=a",
                "description=d",
                "version='1.0'",
                "number=1.0",
                "flag='yes'",
                "empty=''",
                "plain=hello world",
                "colon='a: b'"
            ]
        );
    }

    #[test]
    fn yaml_hints_name_the_cause() {
        let hint = |yaml: &str| {
            let p = parse(format!("---\nname: a\n{yaml}\n---\n").as_bytes(), true);
            p.diagnostics
                .iter()
                .find(|d| d.rule == RuleId::YamlInvalid)
                .map(|d| d.message.clone())
                .unwrap_or_default()
        };
        let colon = hint("description: Use it: for things");
        assert!(colon.contains("quote the value"), "{colon}");
        let list = hint("tags: [a, b");
        assert!(list.contains("close it with `]`"), "{list}");
        assert!(!list.contains("quoting the value usually helps"), "{list}");
        let map = hint("meta: {a: 1");
        assert!(map.contains("close it with `}`"), "{map}");
        let quote = hint("description: \"unclosed");
        assert!(quote.contains("quoted value is never closed"), "{quote}");
    }

    #[test]
    fn plain_frontmatter() {
        let p = parse(
            b"---\nname: pdf\ndescription: Reads PDFs.\n---\n# Body\n",
            true,
        );
        assert!(p.frontmatter.parsed);
        assert_eq!(p.frontmatter.name.as_deref(), Some("pdf"));
        assert_eq!(p.frontmatter.description(), Some("Reads PDFs."));
        assert_eq!(p.layout.body_line, 5);
        assert_eq!(p.layout.body_offset, 43);
        assert_eq!(p.frontmatter.line_of("description"), Some(3));
        assert!(p.diagnostics.is_empty());
    }

    #[test]
    fn bom_crlf_and_blank_lines() {
        let p = parse(
            b"\xEF\xBB\xBF\r\n\r\n---\r\nname: a\r\ndescription: b\r\n---\r\nx",
            true,
        );
        assert_eq!(p.frontmatter.name.as_deref(), Some("a"));
        assert_eq!(rules(&p), vec!["file-bom", "frontmatter-leading-blank"]);
        assert_eq!(p.frontmatter.line_of("name"), Some(4));
        assert_eq!(p.layout.body_line, 7);
    }

    #[test]
    fn unterminated_missing_and_empty() {
        let p = parse(b"---\nname: a\ndescription: b\n", true);
        assert_eq!(rules(&p), vec!["frontmatter-unterminated"]);
        assert_eq!(p.frontmatter.name.as_deref(), Some("a"));
        assert!(!p.frontmatter.parsed);
        assert_eq!(
            rules(&parse(b"# Title\n", true)),
            vec!["frontmatter-missing"]
        );
        assert_eq!(rules(&parse(b"", true)), vec!["file-empty"]);
    }

    #[test]
    fn invalid_yaml_names_the_fix_and_position() {
        let p = parse(
            b"---\nname: a\ndescription: Use it: for things\n---\n",
            true,
        );
        let d = &p.diagnostics[0];
        assert_eq!(d.rule, "yaml-invalid");
        assert_eq!(d.line, Some(3));
        assert!(d.message.contains("quote the value"), "{}", d.message);
        assert_eq!(p.frontmatter.name.as_deref(), Some("a"));
    }

    #[test]
    fn yaml_errors_are_placed_by_our_lines_not_yaml_line_breaks() {
        // YAML breaks lines at U+0085 too; the position must still be in the file's own lines
        // (found by the property tests below).
        let doc = "---\n0\u{85}\ndescription: >\n---\n";
        let p = parse(doc.as_bytes(), true);
        let d = p
            .diagnostics
            .iter()
            .find(|d| d.rule == "yaml-invalid")
            .unwrap();
        let line = doc.split('\n').nth(d.line.unwrap() as usize - 1).unwrap();
        assert!(
            d.column.unwrap() as usize <= line.chars().count() + 1,
            "{d:?} on {line:?}"
        );
    }

    #[test]
    fn the_description_s_scalar_style_is_read_from_the_text() {
        let cases: [(&str, ScalarStyle); 10] = [
            ("description: plain text", ScalarStyle::Plain),
            ("description: 'single\n\n  '", ScalarStyle::SingleQuoted),
            ("description: \"double\"", ScalarStyle::DoubleQuoted),
            ("description: |\n  literal\n", ScalarStyle::Literal),
            ("description: >-\n  folded\n", ScalarStyle::Folded),
            ("description: !!str |\n  tagged\n", ScalarStyle::Literal),
            ("description: &a 'anchored'", ScalarStyle::SingleQuoted),
            (
                "description: # a comment\n  'on the next line'",
                ScalarStyle::SingleQuoted,
            ),
            ("\"description\": >\n  quoted key\n", ScalarStyle::Folded),
            ("description: it's plain", ScalarStyle::Plain),
        ];
        for (yaml, want) in cases {
            let text = format!("---\nname: a\nother: 'x'\n{yaml}\nlast: |\n  y\n---\n");
            let p = parse(text.as_bytes(), true);
            assert!(p.frontmatter.parsed, "{yaml}");
            assert_eq!(p.frontmatter.description_style, want, "{yaml}");
            assert_eq!(ScalarStyle::from_code(want.code()), Some(want));
        }
        // No description, or an unparsed frontmatter: plain.
        let p = parse(b"---\nname: 'a'\n---\n", true);
        assert_eq!(p.frontmatter.description_style, ScalarStyle::Plain);
        assert_eq!(ScalarStyle::from_code(5), None);
    }

    #[test]
    fn star_description_and_nul_and_latin1() {
        let p = parse(b"---\nname: a\ndescription: *bold*\n---\n", true);
        assert_eq!(rules(&p), vec!["yaml-invalid"]);
        let p = parse(b"---\nname: a\0\ndescription: b\n---\n", true);
        assert_eq!(rules(&p), vec!["file-nul-bytes"]);
        assert_eq!(p.diagnostics[0].line, Some(2));
        let p = parse(b"---\nname: caf\xe9\ndescription: b\n---\n", true);
        assert_eq!(rules(&p), vec!["file-not-utf8"]);
        assert_eq!(p.diagnostics[0].column, Some(10));
    }

    #[test]
    fn yaml11_quirks_block_scalars_and_flow() {
        let p = parse(
            b"---\nname: yes\ndescription: |\n  Multi\n  line [x]\nmcp: [rube]\ntriggers:\n  pdf: [extract pdf, read pdf]\n  other: merge\n---\n",
            true,
        );
        assert_eq!(p.frontmatter.name.as_deref(), Some("yes"));
        assert_eq!(p.frontmatter.description(), Some("Multi\nline [x]\n"));
        assert_eq!(p.frontmatter.flow_style_lines, vec![6, 8]);
        assert_eq!(
            p.frontmatter.triggers,
            vec!["extract pdf", "read pdf", "merge"]
        );
        let p = parse(b"---\nname: true\ndescription: 12\n---\n", true);
        assert_eq!(
            rules(&p),
            vec!["yaml-coerced-scalar", "yaml-coerced-scalar"]
        );
        assert_eq!(p.frontmatter.name.as_deref(), Some("true"));
    }

    #[test]
    fn not_a_mapping_and_wrong_types() {
        let p = parse(b"---\n- a\n- b\n---\n", true);
        assert_eq!(rules(&p), vec!["frontmatter-not-mapping"]);
        let p = parse(b"---\nname: [a]\ndescription: b\nmetadata: x\n---\n", true);
        assert_eq!(rules(&p), vec!["field-type", "field-type"]);
    }

    #[test]
    fn deep_brackets_are_refused_before_parsing() {
        let text = format!("---\nname: a\ndescription: {}\n---\n", "[".repeat(100_000));
        let p = parse(text.as_bytes(), true);
        assert_eq!(rules(&p), vec!["yaml-invalid"]);
        assert!(p.diagnostics[0].message.contains("nested"));
        assert_eq!(p.frontmatter.name.as_deref(), Some("a"));
        let ok = parse(
            b"---\nname: a\ndescription: \"[[[\"\nmetadata: {a: [1, {b: 2}]}\n---\n",
            true,
        );
        assert!(ok.frontmatter.parsed);
    }

    #[test]
    fn non_string_keys_read_as_text() {
        let p = parse(b"---\n? [a, b]\n: x\n---\n", true);
        assert_eq!(p.frontmatter.fields[0].key, "[\"a\",\"b\"]");
    }

    #[test]
    fn frontmatter_end_finds_the_closing_line() {
        assert_eq!(frontmatter_end(b"---\na: b\n---\nbody"), Some(13));
        assert_eq!(frontmatter_end(b"---\na: b\n"), None);
        assert_eq!(frontmatter_end(b"body"), Some(0));
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        /// Lines of the text as a reader counts them (lossy UTF-8: a bad byte is one character).
        fn lines_of(bytes: &[u8]) -> Vec<String> {
            String::from_utf8_lossy(bytes)
                .split('\n')
                .map(str::to_string)
                .collect()
        }

        /// Everything `parse` reports points inside the bytes it was given.
        fn check_bounds(head: &[u8], p: &Parsed) -> Result<(), TestCaseError> {
            let lines = lines_of(head);
            let n = lines.len() as u32;
            prop_assert!(p.layout.body_offset <= head.len());
            prop_assert!(
                p.layout.body_offset == 0 || head[p.layout.body_offset - 1] == b'\n',
                "the body starts at a line start"
            );
            prop_assert!(p.layout.body_line >= 1 && p.layout.body_line <= n + 1);
            for d in &p.diagnostics {
                if let Some(l) = d.line {
                    prop_assert!(l >= 1 && l <= n, "{} at line {l} of {n}", d.rule);
                    if let Some(c) = d.column {
                        let width = lines[l as usize - 1].chars().count() as u32;
                        prop_assert!(
                            c >= 1 && c <= width + 1,
                            "{} at {l}:{c}, the line has {width} characters",
                            d.rule
                        );
                    }
                }
            }
            for f in &p.frontmatter.fields {
                prop_assert!(f.line >= 1 && f.line <= n, "{} at line {}", f.key, f.line);
            }
            for &l in &p.frontmatter.flow_style_lines {
                prop_assert!(l >= 1 && l <= n);
            }
            Ok(())
        }

        /// A frontmatter-ish line: keys, values, YAML syntax, control and bidi characters.
        fn line() -> impl Strategy<Value = String> {
            prop_oneof![
                // Mostly plain fields, so that many documents parse.
                8 => "[a-z]{1,10}: [a-zA-Z0-9 ,.]{0,30}",
                1 => Just("name: \"a\\u202Eb\\e[2J\\x9b\"".to_string()),
                2 => "[a-z_-]{1,12}: [ -~\t\u{0}-\u{1f}\u{7f}-\u{9f}\u{202e}\u{feff}é]{0,40}",
                2 => "[ -~\t\u{0}-\u{1f}\u{80}-\u{9f}\u{202e}]{0,60}",
                1 => Just("---".to_string()),
                1 => Just("...".to_string()),
                1 => Just("  - item".to_string()),
                1 => "description: [|>][-+]?",
                1 => "[\\[\\]{}:,'\"#&*!|>%@` ]{0,30}",
                // Long lines.
                1 => (0usize..20_000, "[a-z: \\[]").prop_map(|(n, c)| c.repeat(n)),
            ]
        }

        fn document() -> impl Strategy<Value = Vec<u8>> {
            (
                any::<bool>(),
                prop::collection::vec(line(), 0..24),
                any::<bool>(),
                "[ -~\n]{0,200}",
                prop_oneof![Just("\n"), Just("\r\n")],
            )
                .prop_map(|(open, lines, close, body, nl)| {
                    let mut s = String::new();
                    if open {
                        s.push_str("---");
                        s.push_str(nl);
                    }
                    for l in lines {
                        s.push_str(&l);
                        s.push_str(nl);
                    }
                    if close {
                        s.push_str("---");
                        s.push_str(nl);
                    }
                    s.push_str(&body);
                    s.into_bytes()
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn arbitrary_bytes_never_panic_and_stay_in_bounds(
                bytes in prop::collection::vec(any::<u8>(), 0..4096),
                complete in any::<bool>(),
            ) {
                let p = parse(&bytes, complete);
                check_bounds(&bytes, &p)?;
                prop_assert!(frontmatter_end(&bytes).is_none_or(|e| e <= bytes.len()));
            }

            #[test]
            fn fenced_text_never_panics_and_stays_in_bounds(
                doc in document(),
                complete in any::<bool>(),
            ) {
                let p = parse(&doc, complete);
                check_bounds(&doc, &p)?;
                let end = frontmatter_end(&doc);
                prop_assert!(end.is_none_or(|e| e <= doc.len()));
                // The body offset is where the frontmatter ends (or 0 without one).
                if p.frontmatter.parsed {
                    prop_assert_eq!(Some(p.layout.body_offset), end);
                }
            }

            #[test]
            fn a_bom_and_leading_blanks_shift_nothing_out_of_bounds(
                doc in document(),
                blanks in 0usize..4,
            ) {
                let mut bytes = b"\xEF\xBB\xBF".to_vec();
                bytes.extend(std::iter::repeat_n(b'\n', blanks));
                bytes.extend(doc);
                let p = parse(&bytes, true);
                check_bounds(&bytes, &p)?;
            }
        }
    }
}
