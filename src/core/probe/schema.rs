//! The `--help-json` answer: parse it as JSON and check it is a tool schema
//! `{"name", "description", "parameters": <JSON Schema object>}`.

use serde_json::Value;

/// How many bytes of a bad answer are shown.
const SNIPPET: usize = 40;

/// The answer is not one JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson {
    /// Byte offset in stdout where parsing failed.
    pub at_byte: usize,
    /// The bytes from there on (a short, lossy, printable excerpt).
    pub offending: String,
    pub error: String,
    /// The bytes ended in the middle of a value.
    pub eof: bool,
}

/// The answer is JSON but not a tool schema: which key, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadKey {
    /// A dotted path (`parameters.type`, `parameters.required[1]`), or `(document)`.
    pub key: String,
    pub problem: String,
}

/// Parses stdout as exactly one JSON value (whitespace around it allowed).
pub fn parse(stdout: &[u8]) -> Result<Value, NotJson> {
    if stdout.iter().all(u8::is_ascii_whitespace) {
        return Err(NotJson {
            at_byte: 0,
            offending: String::new(),
            error: "nothing on stdout".to_string(),
            eof: true,
        });
    }
    serde_json::from_slice(stdout).map_err(|e| {
        let at = offset_of(stdout, e.line(), e.column());
        NotJson {
            at_byte: at,
            offending: snippet(&stdout[at..]),
            error: e.to_string(),
            eof: e.is_eof(),
        }
    })
}

/// Byte offset of a 1-based line and column as serde_json reports them (columns count bytes).
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match bytes[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len().saturating_sub(1))
}

/// The first bytes of `b`, printable: control characters and bad UTF-8 escaped.
pub fn snippet(b: &[u8]) -> String {
    let cut = &b[..b.len().min(SNIPPET)];
    let text = String::from_utf8_lossy(cut);
    let mut s: String = text.escape_debug().collect();
    if b.len() > SNIPPET {
        s.push('…');
    }
    s
}

/// Checks the shape of a tool schema; returns its `name`. With `name_optional` (an agent that
/// registers a nameless schema under the skill's name) a missing `name` is `None`, not an error.
pub fn check(v: &Value, name_optional: bool) -> Result<Option<&str>, BadKey> {
    let Value::Object(top) = v else {
        return Err(bad(
            "(document)",
            format!(
                "is {}; expected an object with name, description and parameters",
                kind(v)
            ),
        ));
    };
    let name = match top.get("name") {
        None if name_optional => None,
        found => Some(text_field(found, "name")?),
    };
    text_field(top.get("description"), "description")?;
    let Some(params) = top.get("parameters") else {
        return Err(bad(
            "parameters",
            "is missing; expected a JSON Schema object such as {\"type\": \"object\", \"properties\": {}}",
        ));
    };
    let Value::Object(params) = params else {
        return Err(bad(
            "parameters",
            format!("is {}; expected a JSON Schema object", kind(params)),
        ));
    };
    match params.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => {
            return Err(bad(
                "parameters.type",
                format!(
                    "is {}; must be \"object\"",
                    serde_json::to_string(other).unwrap_or_default()
                ),
            ));
        }
        None => return Err(bad("parameters.type", "is missing; must be \"object\"")),
    }
    let props = match params.get("properties") {
        None => None,
        Some(Value::Object(p)) => Some(p),
        Some(other) => {
            return Err(bad(
                "parameters.properties",
                format!("is {}; expected an object of property schemas", kind(other)),
            ));
        }
    };
    for (k, schema) in props.into_iter().flatten() {
        if !schema.is_object() && !schema.is_boolean() {
            return Err(bad(
                format!("parameters.properties.{k}"),
                format!("is {}; expected a JSON Schema object", kind(schema)),
            ));
        }
    }
    match params.get("required") {
        None => {}
        Some(Value::Array(req)) => {
            for (i, r) in req.iter().enumerate() {
                let key = format!("parameters.required[{i}]");
                let Value::String(r) = r else {
                    return Err(bad(
                        key,
                        format!("is {}; expected a property name", kind(r)),
                    ));
                };
                if !props.is_some_and(|p| p.contains_key(r)) {
                    return Err(bad(
                        key,
                        format!("names \"{r}\", which is not in parameters.properties"),
                    ));
                }
            }
        }
        Some(other) => {
            return Err(bad(
                "parameters.required",
                format!("is {}; expected a list of property names", kind(other)),
            ));
        }
    }
    Ok(name)
}

fn text_field<'v>(v: Option<&'v Value>, key: &str) -> Result<&'v str, BadKey> {
    match v {
        None => Err(bad(key, "is missing; expected a string")),
        Some(Value::String(s)) if s.trim().is_empty() => Err(bad(key, "is empty")),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(bad(key, format!("is {}; expected a string", kind(other)))),
    }
}

fn bad(key: impl Into<String>, problem: impl Into<String>) -> BadKey {
    BadKey {
        key: key.into(),
        problem: problem.into(),
    }
}

/// A JSON value's kind in JSON's own words, with its article.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key_of(v: Value) -> String {
        check(&v, false).unwrap_err().key
    }

    #[test]
    fn a_complete_schema_passes_and_gives_its_name() {
        let v = json!({"name": "w", "description": "d", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}});
        assert_eq!(check(&v, false).unwrap(), Some("w"));
        let v = json!({"name": "w", "description": "d", "parameters": {"type": "object"}});
        assert_eq!(check(&v, false).unwrap(), Some("w"));
        // Where the agent falls back to the skill's name, only a missing name may be missing.
        let v = json!({"description": "d", "parameters": {"type": "object"}});
        assert_eq!(check(&v, true).unwrap(), None);
        assert_eq!(check(&v, false).unwrap_err().key, "name");
        let v = json!({"name": 3, "description": "d", "parameters": {"type": "object"}});
        assert_eq!(check(&v, true).unwrap_err().key, "name");
    }

    #[test]
    fn each_wrong_key_is_named() {
        assert_eq!(key_of(json!([1])), "(document)");
        assert_eq!(key_of(json!({"description": "d"})), "name");
        assert_eq!(key_of(json!({"name": 3, "description": "d"})), "name");
        assert_eq!(
            key_of(json!({"name": "n", "description": " "})),
            "description"
        );
        assert_eq!(
            key_of(json!({"name": "n", "description": "d"})),
            "parameters"
        );
        assert_eq!(
            key_of(json!({"name": "n", "description": "d", "parameters": []})),
            "parameters"
        );
        let p = |params: Value| json!({"name": "n", "description": "d", "parameters": params});
        assert_eq!(key_of(p(json!({}))), "parameters.type");
        assert_eq!(key_of(p(json!({"type": "array"}))), "parameters.type");
        assert_eq!(
            key_of(p(json!({"type": "object", "properties": []}))),
            "parameters.properties"
        );
        assert_eq!(
            key_of(p(json!({"type": "object", "properties": {"x": "string"}}))),
            "parameters.properties.x"
        );
        assert_eq!(
            key_of(p(json!({"type": "object", "required": "x"}))),
            "parameters.required"
        );
        assert_eq!(
            key_of(p(
                json!({"type": "object", "properties": {"x": {}}, "required": ["x", "y"]})
            )),
            "parameters.required[1]"
        );
    }

    #[test]
    fn not_json_points_at_the_offending_bytes() {
        let e = parse(b"{\"name\": \"x\"}\nDone.\n").unwrap_err();
        assert_eq!(e.at_byte, 14);
        assert!(e.offending.starts_with("Done."), "{}", e.offending);
        let e = parse(b"hello\x01").unwrap_err();
        assert_eq!(e.at_byte, 0);
        assert_eq!(e.offending, "hello\\u{1}");
        assert_eq!(parse(b"  \n").unwrap_err().error, "nothing on stdout");
        assert!(parse(b" {\"a\": 1}\n").is_ok());
    }
}
