//! JSON settings files (with the comments and trailing commas JSONC allows): read with byte
//! positions through jsonc-parser's AST, and edited through its CST, so that one key changes and
//! every comment, blank, escape and key order the user wrote stays.

use jsonc_parser::cst::{
    CstContainerNode, CstInputValue, CstNode, CstObject, CstObjectProp, CstRootNode,
};
use jsonc_parser::{CollectOptions, ParseOptions, ast};
use serde_json::Value;

/// A parsed value and where it sits in the text (`start..end`, bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
    /// What it is.
    pub kind: Kind,
}

/// What a parsed value is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// An object's members, in order.
    Object(Vec<Member>),
    /// An array's items.
    Array(Vec<Node>),
    /// A string, unescaped.
    String(String),
    /// The number as written.
    Number(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// One member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Its key, unescaped.
    pub key: String,
    /// Offset of the key's opening quote.
    pub key_start: usize,
    /// Its value.
    pub value: Node,
}

/// Why the text is not JSON, with a 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What the parser expected.
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
    /// An object's members; `None` for anything else.
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

    /// A string's text; `None` for anything else.
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

/// JSON plus what JSONC allows (comments, trailing commas), nothing looser: the agents read
/// these files with JSON parsers that refuse the rest.
fn options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A byte-order mark is not JSON, but editors write one: it is set aside and put back.
fn split_bom(text: &str) -> (&str, &str) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text),
    }
}

fn error_at(text: &str, pos: usize, message: String) -> ParseError {
    let (line, column) = line_col(text, pos);
    ParseError {
        line,
        column,
        message,
    }
}

fn parse_error(text: &str, offset: usize, e: &jsonc_parser::errors::ParseError) -> ParseError {
    error_at(text, offset + e.range().start, e.kind().to_string())
}

/// Parses a whole document: one value, surrounded by whitespace and comments.
pub fn parse(text: &str) -> Result<Node, ParseError> {
    let (bom, body) = split_bom(text);
    let parsed = jsonc_parser::parse_to_ast(body, &CollectOptions::default(), &options())
        .map_err(|e| parse_error(text, bom.len(), &e))?;
    match parsed.value {
        Some(v) => Ok(node(&v, bom.len())),
        None => Err(error_at(
            text,
            text.len(),
            "the document holds no value".to_string(),
        )),
    }
}

fn node(v: &ast::Value<'_>, offset: usize) -> Node {
    use jsonc_parser::common::Ranged;
    let range = v.range();
    let kind = match v {
        ast::Value::StringLit(s) => Kind::String(s.value.to_string()),
        ast::Value::NumberLit(n) => Kind::Number(n.value.to_string()),
        ast::Value::BooleanLit(b) => Kind::Bool(b.value),
        ast::Value::NullKeyword(_) => Kind::Null,
        ast::Value::Array(a) => Kind::Array(a.elements.iter().map(|e| node(e, offset)).collect()),
        ast::Value::Object(o) => Kind::Object(
            o.properties
                .iter()
                .map(|p| Member {
                    key: p.name.as_str().to_string(),
                    key_start: offset + p.name.range().start,
                    value: node(&p.value, offset),
                })
                .collect(),
        ),
    };
    Node {
        start: offset + range.start,
        end: offset + range.end,
        kind,
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, pos: usize) -> (u32, u32) {
    crate::core::frontmatter::line_col(text.as_bytes(), pos)
}

/// A string as a JSON string literal.
pub fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("\"{s}\""))
}

/// One change to a document, addressed by a path of object keys from the root.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Sets the key at the end of the path, creating missing objects on the way. An existing
    /// value that is not an object on the way is replaced by one.
    Set(Vec<String>, Value),
    /// Removes the key at the end of the path (every copy of a repeated key), if it is there.
    Remove(Vec<String>),
}

/// The same change on a parsed value (what the edited text must mean afterwards).
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

/// Applies the edits to the document's CST and writes it back: only the edited members change,
/// laid out like their neighbours (indentation, line breaks, trailing commas as the file has
/// them). The document's top level must be an object.
pub fn edit(text: &str, edits: &[Edit]) -> Result<String, ParseError> {
    let (bom, body) = split_bom(text);
    let root =
        CstRootNode::parse(body, &options()).map_err(|e| parse_error(text, bom.len(), &e))?;
    let Some(obj) = root.object_value() else {
        return Err(error_at(
            text,
            0,
            "the top level is not an object".to_string(),
        ));
    };
    for e in edits {
        match e {
            Edit::Set(path, value) => set(&obj, path, value),
            Edit::Remove(path) => remove(&obj, path),
        }
    }
    Ok(format!("{bom}{root}"))
}

/// The property that counts for `key`: the last one, as JSON parsers read a repeated key.
fn last_prop(obj: &CstObject, key: &str) -> Option<CstObjectProp> {
    obj.properties()
        .into_iter()
        .rev()
        .find(|p| p.decoded_name().as_deref() == Some(key))
}

/// An object written on one line (with members: an empty one takes the file's layout), and the
/// blanks inside its braces, so that it can be put back on one line after the CST broke it
/// onto lines to add a member.
struct OneLine {
    object: CstObject,
    open: String,
    close: String,
}

impl OneLine {
    fn of(object: &CstObject) -> Option<OneLine> {
        if object.properties().is_empty() || object.to_string().contains(['\n', '\r']) {
            return None;
        }
        let children = object.children();
        let blank = |c: Option<&CstNode>| {
            c.and_then(jsonc_parser::cst::CstNode::as_whitespace)
                .map(|w| w.value())
                .unwrap_or_default()
        };
        Some(OneLine {
            open: blank(children.get(1)),
            close: blank(children.len().checked_sub(2).and_then(|i| children.get(i))),
            object: object.clone(),
        })
    }

    fn restore(&self) {
        collapse(&self.object.clone().into(), &self.open, &self.close);
    }
}

/// Joins the lines of a container (and of everything in it) back into one: each line break
/// and the indentation after it become one space between members, the original blanks inside
/// the braces, or nothing.
fn collapse(container: &CstContainerNode, open: &str, close: &str) {
    let children = container.children();
    let significant = |c: &&CstNode| !c.is_whitespace() && !c.is_newline();
    for (i, child) in children.iter().enumerate() {
        let Some(newline) = child.as_newline() else {
            continue;
        };
        let after_open = children[..i]
            .iter()
            .rev()
            .find(significant)
            .and_then(CstNode::token_char)
            .is_some_and(|c| c == '{' || c == '[');
        let before_close = children[i + 1..]
            .iter()
            .find(significant)
            .and_then(CstNode::token_char)
            .is_some_and(|c| c == '}' || c == ']');
        let blank = if after_open {
            open
        } else if before_close {
            close
        } else {
            " "
        };
        newline.remove();
        if let Some(indent) = children.get(i + 1).and_then(CstNode::as_whitespace) {
            if blank.is_empty() {
                indent.remove();
            } else {
                indent.set_value(blank.to_string());
            }
        }
    }
    // A member removed right after the opening brace leaves the blank that followed its comma.
    let children = container.children();
    if let Some(w) = children.get(1).and_then(CstNode::as_whitespace)
        && w.value() != open
    {
        if open.is_empty() {
            w.remove();
        } else {
            w.set_value(open.to_string());
        }
    }
    for child in container.children() {
        if let CstNode::Container(c) = child {
            collapse(&c, "", "");
        }
    }
}

/// The objects on the way to a key, as they are now: the first one written on one line is
/// remembered, to put back on one line after the edit.
struct Walk {
    object: CstObject,
    one_line: Option<OneLine>,
}

impl Walk {
    fn start(obj: &CstObject) -> Walk {
        Walk {
            object: obj.clone(),
            one_line: OneLine::of(obj),
        }
    }

    fn enter(&mut self, object: CstObject, existed: bool) {
        if existed && self.one_line.is_none() {
            self.one_line = OneLine::of(&object);
        }
        self.object = object;
    }

    fn finish(self) {
        if let Some(o) = self.one_line {
            o.restore();
        }
    }
}

fn set(obj: &CstObject, path: &[String], value: &Value) {
    let Some((last, ways)) = path.split_last() else {
        return;
    };
    let mut walk = Walk::start(obj);
    for key in ways {
        let (next, existed) = match last_prop(&walk.object, key) {
            Some(p) => match p.object_value() {
                Some(o) => (o, true),
                None => (p.object_value_or_set(), false),
            },
            None => (
                walk.object
                    .append(key, CstInputValue::Object(Vec::new()))
                    .object_value_or_set(),
                false,
            ),
        };
        walk.enter(next, existed);
    }
    match last_prop(&walk.object, last) {
        Some(p) => {
            // An equal value is left as written (spacing, escapes).
            if p.value().is_some_and(|v| same(&v, value)) {
                return;
            }
            p.set_value(input(value));
        }
        None => {
            walk.object.append(last, input(value));
        }
    }
    walk.finish();
}

/// Whether a CST value means `want`, judged on its text.
fn same(node: &CstNode, want: &Value) -> bool {
    jsonc_parser::parse_to_serde_value::<Value>(&node.to_string(), &options())
        .is_ok_and(|v| v == *want)
}

fn remove(obj: &CstObject, path: &[String]) {
    let Some((last, ways)) = path.split_last() else {
        return;
    };
    let mut walk = Walk::start(obj);
    for key in ways {
        match last_prop(&walk.object, key).and_then(|p| p.object_value()) {
            Some(o) => walk.enter(o, true),
            None => return,
        }
    }
    if last_prop(&walk.object, last).is_none() {
        return;
    }
    // Every copy of a repeated key goes, or an earlier one would take effect again.
    while let Some(p) = last_prop(&walk.object, last) {
        p.remove();
    }
    walk.finish();
}

fn input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(input).collect()),
        Value::Object(m) => {
            CstInputValue::Object(m.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(path: &[&str], v: Value) -> Edit {
        Edit::Set(
            path.iter().map(std::string::ToString::to_string).collect(),
            v,
        )
    }

    fn remove(path: &[&str]) -> Edit {
        Edit::Remove(path.iter().map(std::string::ToString::to_string).collect())
    }

    /// Edits, and checks the result means exactly the edited value.
    fn check(text: &str, edit: Edit) -> String {
        let out = super::edit(text, std::slice::from_ref(&edit)).unwrap();
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
        assert_eq!(e.line, 3, "{e}");
        assert!(parse("{\"a\": 1} x").is_err());
        assert!(parse("{\"a\": 01x}").is_err());
        assert!(parse("{\"a\": \"x").is_err());
        assert!(parse("{\"a\": 1 \"b\": 2}").is_err());
        assert!(parse("{a: 1}").is_err(), "keys are quoted in JSON");
        assert!(parse("{\"a\": 'x'}").is_err(), "strings are double-quoted");
        assert!(parse("{\"a\": 0x10}").is_err());
        assert!(parse("").is_err());
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

    #[test]
    fn nothing_changed_is_the_same_bytes() {
        for text in [
            "\u{feff}{ \"a\" :  \"off\" } // x\n",
            "{\r\n\t\"a\": {\"b\": \"\\u006fff\"},\r\n}",
        ] {
            assert_eq!(super::edit(text, &[]).unwrap(), text);
            assert_eq!(
                super::edit(text, &[remove(&["zz"]), remove(&["a", "zz"])]).unwrap(),
                text
            );
        }
        assert_eq!(
            check("{ \"a\" :  \"off\" }", set(&["a"], json!("off"))),
            "{ \"a\" :  \"off\" }"
        );
        assert_eq!(
            check(
                "{\"a\": {\"b\": \"\\u006fff\"}}",
                set(&["a", "b"], json!("off"))
            ),
            "{\"a\": {\"b\": \"\\u006fff\"}}"
        );
    }
}
