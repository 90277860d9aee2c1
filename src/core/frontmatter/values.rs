//! Frontmatter values in words: every string of a value, its kind, and a value as one short
//! line as the frontmatter would hold it.

use serde_json::Value;

/// Every string in a value of any shape (string, list, map of lists, null).
pub fn strings_of(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Number(n) => vec![n.to_string()],
        Value::Array(a) => a.iter().flat_map(strings_of).collect(),
        Value::Object(m) => m.values().flat_map(strings_of).collect(),
        _ => Vec::new(),
    }
}

/// What kind of value `v` is, in words, for messages: `a string`, `a list`, ….
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// A value as one short line of text.
/// A value as the frontmatter would have to hold it: a text that YAML would read as something
/// else (`'1.0'`, `'yes'`, `'null'`, `''`) keeps its quotes, so it is not mistaken for the
/// number or boolean; anything else as [`compact`].
pub fn shown_value(v: &Value) -> String {
    match v {
        Value::String(s) if reads_as_other(s) => format!("'{}'", s.replace('\'', "''")),
        other => compact(other),
    }
}

/// Whether YAML reads the unquoted `s` as anything but that same text.
fn reads_as_other(s: &str) -> bool {
    if s.is_empty() || s.trim() != s {
        return true;
    }
    // Scalars YAML types are short and on one line; a long text is text.
    if s.len() > 64 || s.contains('\n') {
        return false;
    }
    // YAML 1.1's booleans: agents that read frontmatter with PyYAML take them as true/false.
    let yaml11 = ["yes", "no", "on", "off", "y", "n"];
    if yaml11.iter().any(|b| s.eq_ignore_ascii_case(b)) {
        return true;
    }
    !matches!(
        serde_yaml::from_str::<serde_yaml::Value>(s),
        Ok(serde_yaml::Value::String(t)) if t == s
    )
}

/// `v` on one line: a string as it is, anything else as JSON.
pub fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
