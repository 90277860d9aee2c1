//! JSON (with the comments and trailing commas JSONC allows) read with byte spans, so that one
//! key can be changed by splicing the text and everything else stays exactly as the user wrote it.

use serde_json::Value;

/// A parsed value and where it sits in the text (`start..end`, bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    String(String),
    /// The number as written.
    Number(String),
    Bool(bool),
    Null,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    /// Offset of the key's opening quote.
    pub key_start: usize,
    pub value: Node,
    /// Offset of the comma after the value, when there is one.
    pub comma: Option<usize>,
}

/// Why the text is not JSON, with a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl Node {
    pub fn members(&self) -> Option<&[Member]> {
        match &self.kind {
            Kind::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The member for `key`; when a key is repeated the last one counts, as in JSON parsers.
    pub fn member(&self, key: &str) -> Option<&Member> {
        self.members()?.iter().rev().find(|m| m.key == key)
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as serde_json sees it (object keys in file order, a repeated key keeps its first
    /// position and its last value).
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Object(members) => {
                let mut map = serde_json::Map::new();
                for m in members {
                    map.insert(m.key.clone(), m.value.to_value());
                }
                Value::Object(map)
            }
            Kind::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Kind::String(s) => Value::String(s.clone()),
            Kind::Number(n) => serde_json::from_str(n).unwrap_or(Value::Null),
            Kind::Bool(b) => Value::Bool(*b),
            Kind::Null => Value::Null,
        }
    }
}

/// Parses a whole document: one value, surrounded by whitespace and comments.
pub fn parse(text: &str) -> Result<Node, ParseError> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    if text.starts_with('\u{feff}') {
        p.pos = 3;
    }
    p.skip_trivia()?;
    let node = p.value()?;
    p.skip_trivia()?;
    if p.pos < p.bytes.len() {
        return Err(p.error("unexpected text after the end of the document"));
    }
    Ok(node)
}

/// Deeper nesting than any settings file needs; keeps a hostile file from exhausting the stack.
const MAX_DEPTH: usize = 256;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> ParseError {
        let (line, column) = line_col(self.text, self.pos);
        ParseError {
            line,
            column,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_trivia(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') => match self.bytes.get(self.pos + 1) {
                    Some(b'/') => {
                        while let Some(c) = self.peek() {
                            if c == b'\n' {
                                break;
                            }
                            self.pos += 1;
                        }
                    }
                    Some(b'*') => {
                        let from = self.pos;
                        self.pos += 2;
                        loop {
                            match self.peek() {
                                None => {
                                    self.pos = from;
                                    return Err(self.error("a `/*` comment is never closed"));
                                }
                                Some(b'*') if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                                    self.pos += 2;
                                    break;
                                }
                                Some(_) => self.pos += 1,
                            }
                        }
                    }
                    _ => return Err(self.error("unexpected `/`")),
                },
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self) -> Result<Node, ParseError> {
        let start = self.pos;
        let kind = match self.peek() {
            None => return Err(self.error("the document ends where a value was expected")),
            Some(b'{') => self.object()?,
            Some(b'[') => self.array()?,
            Some(b'"') => Kind::String(self.string()?),
            Some(b'-' | b'0'..=b'9') => Kind::Number(self.number()?),
            Some(b't') => self.word("true", Kind::Bool(true))?,
            Some(b'f') => self.word("false", Kind::Bool(false))?,
            Some(b'n') => self.word("null", Kind::Null)?,
            Some(_) => {
                return Err(self.error(
                    "expected a value (object, array, string, number, true, false or null)",
                ));
            }
        };
        Ok(Node {
            start,
            end: self.pos,
            kind,
        })
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        Ok(())
    }

    fn object(&mut self) -> Result<Kind, ParseError> {
        self.enter()?;
        self.pos += 1;
        let mut members: Vec<Member> = Vec::new();
        loop {
            self.skip_trivia()?;
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                Some(b'"') => {}
                _ => return Err(self.error("expected a quoted key or `}`")),
            }
            if let Some(last) = members.last()
                && last.comma.is_none()
            {
                return Err(self.error("expected `,` between members"));
            }
            let key_start = self.pos;
            let key = self.string()?;
            self.skip_trivia()?;
            if self.peek() != Some(b':') {
                return Err(self.error("expected `:` after the key"));
            }
            self.pos += 1;
            self.skip_trivia()?;
            let value = self.value()?;
            self.skip_trivia()?;
            let comma = if self.peek() == Some(b',') {
                self.pos += 1;
                Some(self.pos - 1)
            } else if self.peek() == Some(b'}') {
                None
            } else {
                return Err(self.error("expected `,` or `}` after the value"));
            };
            members.push(Member {
                key,
                key_start,
                value,
                comma,
            });
        }
        self.depth -= 1;
        Ok(Kind::Object(members))
    }

    fn array(&mut self) -> Result<Kind, ParseError> {
        self.enter()?;
        self.pos += 1;
        let mut items = Vec::new();
        let mut need_comma = false;
        loop {
            self.skip_trivia()?;
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                Some(b',') if need_comma => {
                    self.pos += 1;
                    need_comma = false;
                    continue;
                }
                _ if need_comma => return Err(self.error("expected `,` or `]` after the value")),
                _ => {}
            }
            items.push(self.value()?);
            need_comma = true;
        }
        self.depth -= 1;
        Ok(Kind::Array(items))
    }

    fn word(&mut self, word: &str, kind: Kind) -> Result<Kind, ParseError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(kind)
        } else {
            Err(self.error("expected a value (object, array, string, number, true, false or null)"))
        }
    }

    fn number(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                self.pos += 1;
            } else {
                break;
            }
        }
        let raw = &self.text[start..self.pos];
        if serde_json::from_str::<serde_json::Number>(raw).is_err() {
            self.pos = start;
            return Err(self.error(&format!("`{raw}` is not a JSON number")));
        }
        Ok(raw.to_string())
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                self.pos = open;
                return Err(self.error("a string is never closed"));
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let e = self.peek();
                    self.pos += 1;
                    match e {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let ch = if (0xD800..0xDC00).contains(&hi)
                                && self.bytes[self.pos..].starts_with(b"\\u")
                            {
                                self.pos += 2;
                                let lo = self.hex4()?;
                                char::from_u32(
                                    0x10000
                                        + ((hi - 0xD800) << 10)
                                        + (lo.wrapping_sub(0xDC00) & 0x3FF),
                                )
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(ch.unwrap_or('\u{fffd}'));
                        }
                        _ => {
                            self.pos -= 1;
                            return Err(self.error("unknown escape in a string"));
                        }
                    }
                }
                c if c < 0x20 => {
                    return Err(self
                        .error("a control character (such as a raw line break) inside a string"));
                }
                _ => {
                    // Copy a run of plain characters at once; `"` and `\` are ASCII, so the run
                    // ends on a character boundary.
                    let from = self.pos;
                    while let Some(c) = self.peek() {
                        if c == b'"' || c == b'\\' || c < 0x20 {
                            break;
                        }
                        self.pos += 1;
                    }
                    out.push_str(&self.text[from..self.pos]);
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let digits = self
            .text
            .get(self.pos..self.pos + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("`\\u` must be followed by four hex digits"))?;
        let v = u32::from_str_radix(digits, 16).map_err(|_| self.error("bad `\\u` escape"))?;
        self.pos += 4;
        Ok(v)
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, pos: usize) -> (u32, u32) {
    crate::core::frontmatter::line_col(text.as_bytes(), pos)
}

/// How the file is laid out, so that inserted text looks like the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    /// One level of indentation as the file writes it.
    pub unit: String,
    /// Members on their own lines (`false` for a file written on one line).
    pub multiline: bool,
    pub newline: &'static str,
}

impl Style {
    /// Reads the layout off the root object: the indentation of its first member, else two spaces.
    pub fn detect(text: &str, root: &Node) -> Style {
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let mut style = Style {
            unit: "  ".to_string(),
            multiline: true,
            newline,
        };
        if let Some(first) = root.members().and_then(|m| m.first()) {
            let gap = &text[root.start + 1..first.key_start];
            if gap.contains('\n') {
                let indent = line_indent(text, first.key_start);
                if !indent.is_empty() {
                    style.unit = indent.to_string();
                }
            } else {
                style.multiline = false;
            }
        }
        style
    }

    /// A value as text, objects laid out in this style; `indent` is the indentation of the line
    /// the value starts on.
    pub fn render(&self, value: &Value, indent: &str) -> String {
        match value {
            Value::Object(map) if !map.is_empty() => {
                let entries: Vec<String> = map
                    .iter()
                    .map(|(k, v)| {
                        let inner = format!("{indent}{}", self.unit);
                        format!("{}: {}", quote(k), self.render(v, &inner))
                    })
                    .collect();
                if self.multiline {
                    let inner = format!("{indent}{}", self.unit);
                    let sep = format!(",{}{inner}", self.newline);
                    format!(
                        "{{{nl}{inner}{}{nl}{indent}}}",
                        entries.join(&sep),
                        nl = self.newline
                    )
                } else {
                    format!("{{{}}}", entries.join(", "))
                }
            }
            other => serde_json::to_string(other).unwrap_or_else(|_| "null".to_string()),
        }
    }
}

pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// The whitespace that starts the line holding `pos`.
pub fn line_indent(text: &str, pos: usize) -> &str {
    let line_start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let rest = &text[line_start..];
    let n = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    &rest[..n]
}

/// One change to a document, addressed by a path of object keys from the root.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Sets the key at the end of the path, creating missing objects on the way. An existing
    /// value that is not an object on the way is replaced by one.
    Set(Vec<String>, Value),
    /// Removes the key at the end of the path, if it is there.
    Remove(Vec<String>),
}

/// The same change on a parsed value (what the spliced text must mean afterwards).
pub fn apply_to_value(root: &mut Value, edit: &Edit) {
    match edit {
        Edit::Set(path, v) => {
            let mut cur = root;
            for key in &path[..path.len().saturating_sub(1)] {
                if !cur.is_object() {
                    *cur = Value::Object(serde_json::Map::new());
                }
                let Value::Object(map) = cur else { return };
                cur = map
                    .entry(key.clone())
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                if !cur.is_object() {
                    *cur = Value::Object(serde_json::Map::new());
                }
            }
            if let (Some(last), Value::Object(map)) = (path.last(), cur) {
                map.insert(last.clone(), v.clone());
            }
        }
        Edit::Remove(path) => {
            let mut cur = root;
            for key in &path[..path.len().saturating_sub(1)] {
                match cur.get_mut(key) {
                    Some(next) => cur = next,
                    None => return,
                }
            }
            if let (Some(last), Value::Object(map)) = (path.last(), cur) {
                map.shift_remove(last);
            }
        }
    }
}

/// Applies one edit to the text by splicing: only the bytes of the changed member move.
pub fn splice(text: &str, edit: &Edit) -> Result<String, ParseError> {
    let root = parse(text)?;
    if root.members().is_none() {
        return Err(ParseError {
            line: 1,
            column: 1,
            message: "the top level is not an object".to_string(),
        });
    }
    let style = Style::detect(text, &root);
    let mut out = text.to_string();
    match edit {
        Edit::Set(path, value) => splice_set(&mut out, &root, path, value, &style),
        Edit::Remove(path) => splice_remove(&mut out, &root, path),
    }
    Ok(out)
}

/// The value to write in place of the missing part of a path: `{"b": {"c": value}}` for `b.c`.
fn nest(keys: &[String], value: &Value) -> Value {
    keys.iter().rev().fold(value.clone(), |acc, k| {
        let mut m = serde_json::Map::new();
        m.insert(k.clone(), acc);
        Value::Object(m)
    })
}

fn splice_set(out: &mut String, root: &Node, path: &[String], value: &Value, style: &Style) {
    let mut obj = root;
    for (i, key) in path.iter().enumerate() {
        let last = i + 1 == path.len();
        match obj.member(key) {
            Some(m) if last => {
                let indent = line_indent(out, m.key_start).to_string();
                out.replace_range(m.value.start..m.value.end, &style.render(value, &indent));
                return;
            }
            Some(m) if m.value.members().is_some() => obj = &m.value,
            Some(m) => {
                let indent = line_indent(out, m.key_start).to_string();
                let v = nest(&path[i + 1..], value);
                out.replace_range(m.value.start..m.value.end, &style.render(&v, &indent));
                return;
            }
            None => {
                let v = nest(&path[i + 1..], value);
                insert_member(out, obj, key, &v, style);
                return;
            }
        }
    }
}

/// Adds `key: value` as the last member of `obj`, laid out like its siblings.
fn insert_member(out: &mut String, obj: &Node, key: &str, value: &Value, style: &Style) {
    let members = obj.members().unwrap_or(&[]);
    let nl = style.newline;
    match members.last() {
        Some(last) => {
            let prev_end = members.len().checked_sub(2).map_or(obj.start + 1, |i| {
                members[i].comma.unwrap_or(members[i].value.end) + 1
            });
            let gap = &out[prev_end.min(last.key_start)..last.key_start];
            let multiline = gap.contains('\n');
            let indent = if multiline {
                line_indent(out, last.key_start).to_string()
            } else {
                String::new()
            };
            let member = format!("{}: {}", quote(key), style.render(value, &indent));
            match (last.comma, multiline) {
                (Some(c), true) => {
                    let at = end_of_line_comment(out, c + 1);
                    out.insert_str(at, &format!("{nl}{indent}{member},"));
                }
                (Some(c), false) => out.insert_str(c + 1, &format!(" {member},")),
                (None, true) => {
                    let at = end_of_line_comment(out, last.value.end);
                    out.insert_str(at, &format!("{nl}{indent}{member}"));
                    out.insert(last.value.end, ',');
                }
                (None, false) => out.insert_str(last.value.end, &format!(", {member}")),
            }
        }
        None => {
            let inner = &out[obj.start + 1..obj.end - 1];
            let only_space = inner.trim().is_empty();
            let base = line_indent(out, obj.start).to_string();
            if style.multiline {
                let indent = format!("{base}{}", style.unit);
                let member = format!("{}: {}", quote(key), style.render(value, &indent));
                if only_space {
                    out.replace_range(
                        obj.start + 1..obj.end - 1,
                        &format!("{nl}{indent}{member}{nl}{base}"),
                    );
                } else {
                    // Comments inside an empty object stay, after the new member.
                    out.insert_str(obj.start + 1, &format!("{nl}{indent}{member},"));
                }
            } else {
                let member = format!("{}: {}", quote(key), style.render(value, ""));
                if only_space {
                    out.replace_range(obj.start + 1..obj.end - 1, &member);
                } else {
                    out.insert_str(obj.start + 1, &format!("{member}, "));
                }
            }
        }
    }
}

/// Where to put a new line after position `pos`: past the rest of the line when that rest is
/// only blanks and a `//` comment (so the comment stays with its member), else `pos` itself.
fn end_of_line_comment(text: &str, pos: usize) -> usize {
    let rest = &text[pos..];
    let line_end = rest.find('\n').map_or(text.len(), |i| pos + i);
    let line = text[pos..line_end].trim_end_matches('\r');
    let t = line.trim_start();
    if t.is_empty() {
        pos
    } else if t.starts_with("//") {
        pos + line.len()
    } else {
        pos
    }
}

fn splice_remove(out: &mut String, root: &Node, path: &[String]) {
    let mut obj = root;
    for key in &path[..path.len().saturating_sub(1)] {
        match obj.member(key) {
            Some(m) if m.value.members().is_some() => obj = &m.value,
            _ => return,
        }
    }
    let Some(key) = path.last() else { return };
    let members = obj.members().unwrap_or(&[]);
    // Every copy of a repeated key goes, or the earlier one would take effect again.
    let idxs: Vec<usize> = members
        .iter()
        .enumerate()
        .filter(|(_, m)| m.key == *key)
        .map(|(i, _)| i)
        .collect();
    if idxs.is_empty() {
        return;
    }
    if idxs.len() == members.len() {
        out.replace_range(obj.start + 1..obj.end - 1, "");
        return;
    }
    // Ranges are found on the original text, merged, then cut from the end so that earlier
    // offsets stay valid.
    let mut ranges: Vec<(usize, usize)> = idxs
        .iter()
        .map(|&i| {
            let m = &members[i];
            match members[i + 1..].iter().find(|n| n.key != *key) {
                Some(next) => (m.key_start, next.key_start),
                None => match members[..i].iter().rev().find(|p| p.key != *key) {
                    Some(p) => (p.value.end, m.value.end),
                    None => (m.key_start, m.comma.map_or(m.value.end, |c| c + 1)),
                },
            }
        })
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    for (s, e) in merged.into_iter().rev() {
        out.replace_range(s..e, "");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(path: &[&str], v: Value) -> Edit {
        Edit::Set(path.iter().map(|s| s.to_string()).collect(), v)
    }

    fn remove(path: &[&str]) -> Edit {
        Edit::Remove(path.iter().map(|s| s.to_string()).collect())
    }

    /// Splices, and checks the result means exactly the edited value.
    fn check(text: &str, edit: Edit) -> String {
        let out = splice(text, &edit).unwrap();
        let mut want = parse(text).unwrap().to_value();
        apply_to_value(&mut want, &edit);
        let got = parse(&out)
            .unwrap_or_else(|e| panic!("{e}\n{out}"))
            .to_value();
        assert_eq!(got, want, "\n{out}");
        out
    }

    #[test]
    fn parses_comments_trailing_commas_and_escapes() {
        let text = "\u{feff}// head\n{ /* a */ \"a\\u00e9\\n\": [1, -2.5e3, true, null,], \"b\": {\"c\": \"\\ud83d\\ude00\"}, }";
        let v = parse(text).unwrap().to_value();
        assert_eq!(
            v,
            json!({"aé\n": [1, -2500.0, true, null], "b": {"c": "😀"}})
        );
    }

    #[test]
    fn reports_where_the_text_stops_being_json() {
        let e = parse("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!((e.line, e.column), (3, 7));
        assert!(parse("{\"a\": 1} x").is_err());
        assert!(parse("{\"a\": 01x}").is_err());
        assert!(parse("{\"a\": \"x").is_err());
        assert!(parse("{\"a\": 1 \"b\": 2}").is_err());
        assert!(parse(&"[".repeat(10_000)).is_err());
    }

    #[test]
    fn replaces_a_value_in_place() {
        let text = "{\n    \"x\": 1,\n    \"skillOverrides\": { \"pdf\": \"on\" }\n}\n";
        let out = check(text, set(&["skillOverrides", "pdf"], json!("off")));
        assert_eq!(
            out,
            "{\n    \"x\": 1,\n    \"skillOverrides\": { \"pdf\": \"off\" }\n}\n"
        );
    }

    #[test]
    fn inserts_with_the_file_indentation() {
        let text = "{\n\t\"model\": \"opus\"\n}\n";
        let out = check(text, set(&["skillOverrides", "pdf"], json!("off")));
        assert_eq!(
            out,
            "{\n\t\"model\": \"opus\",\n\t\"skillOverrides\": {\n\t\t\"pdf\": \"off\"\n\t}\n}\n"
        );
    }

    #[test]
    fn inserts_into_a_one_line_file_on_one_line() {
        let out = check(r#"{"a":1,"b":{"c":2}}"#, set(&["b", "d"], json!("x")));
        assert_eq!(out, r#"{"a":1,"b":{"c":2, "d": "x"}}"#);
    }

    #[test]
    fn keeps_a_trailing_comment_with_its_member_and_trailing_commas() {
        let text = "{\n  \"a\": 1 // one\n}";
        let out = check(text, set(&["b"], json!(true)));
        assert_eq!(out, "{\n  \"a\": 1, // one\n  \"b\": true\n}");
        let text = "{\n  \"a\": 1, // one\n}";
        let out = check(text, set(&["b"], json!(true)));
        assert_eq!(out, "{\n  \"a\": 1, // one\n  \"b\": true,\n}");
    }

    #[test]
    fn fills_empty_objects_and_empty_files() {
        assert_eq!(
            check("{}", set(&["a", "b"], json!("x"))),
            "{\n  \"a\": {\n    \"b\": \"x\"\n  }\n}"
        );
        let text = "{\n  \"p\": {}\n}";
        assert_eq!(
            check(text, set(&["p", "k"], json!("deny"))),
            "{\n  \"p\": {\n    \"k\": \"deny\"\n  }\n}"
        );
    }

    #[test]
    fn replaces_a_scalar_on_the_way_with_an_object() {
        let text = "{\n  \"permission\": \"allow\"\n}";
        let out = check(text, set(&["permission", "skill"], json!({"pdf": "deny"})));
        assert_eq!(
            out,
            "{\n  \"permission\": {\n    \"skill\": {\n      \"pdf\": \"deny\"\n    }\n  }\n}"
        );
    }

    #[test]
    fn removes_first_middle_last_and_only_members() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}";
        assert_eq!(check(text, remove(&["a"])), "{\n  \"b\": 2,\n  \"c\": 3\n}");
        assert_eq!(check(text, remove(&["b"])), "{\n  \"a\": 1,\n  \"c\": 3\n}");
        assert_eq!(check(text, remove(&["c"])), "{\n  \"a\": 1,\n  \"b\": 2\n}");
        assert_eq!(
            check("{\"o\": {\"a\": 1}}", remove(&["o", "a"])),
            "{\"o\": {}}"
        );
        assert_eq!(
            check("{\"a\": 1, \"b\": 2, \"a\": 3}", remove(&["a"])),
            "{\"b\": 2}"
        );
        assert_eq!(check(text, remove(&["zz"])), text);
        assert_eq!(
            check("{\"b\": 2, \"a\": 1, \"a\": 3}", remove(&["a"])),
            "{\"b\": 2}"
        );
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let text = "{\r\n  \"a\": 1\r\n}\r\n";
        let out = check(text, set(&["b"], json!({"c": "d"})));
        assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    }
}
