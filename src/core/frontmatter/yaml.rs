//! The YAML text's shape, before and beside parsing: its lines, how deep its brackets go, and
//! what kind of value a YAML value is, in words.

/// The first line of `s` and the rest after its line feed.
pub(super) fn split_line(s: &str) -> (&str, &str) {
    match s.find('\n') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    }
}

/// Deepest flow nesting (`[` / `{`) a frontmatter may have; real ones stay under five. The YAML
/// parser's time grows with the square of the depth before it gives up, so deeper text is refused
/// before it is parsed.
pub(super) const MAX_FLOW_DEPTH: usize = 64;

/// The line of the first bracket past `MAX_FLOW_DEPTH`, outside quotes and comments.
pub(super) fn too_deep(yaml: &str) -> Option<u32> {
    let mut depth = 0usize;
    for (i, line) in yaml.lines().enumerate() {
        let mut quote: Option<char> = None;
        for c in line.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '#') => break,
                (None, '[' | '{') => {
                    depth += 1;
                    if depth > MAX_FLOW_DEPTH {
                        return Some(i as u32);
                    }
                }
                (None, ']' | '}') => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    None
}

/// What kind of value `v` is, in words, for messages.
pub(super) fn yaml_kind(v: &serde_yaml::Value) -> &'static str {
    match v {
        serde_yaml::Value::Sequence(_) => "list",
        serde_yaml::Value::String(_) => "plain string",
        serde_yaml::Value::Number(_) => "number",
        serde_yaml::Value::Bool(_) => "boolean",
        _ => "non-mapping value",
    }
}
