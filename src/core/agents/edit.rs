//! The texts a JSON settings file could be given for a switch: edits applied through the file's
//! own syntax tree, and kept only when the result means exactly the edited value.

use super::error::{Shape, ToggleError};
use super::json::{self, Edit};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

/// Each candidate list of edits applied to a JSON settings file.
pub(super) fn json_candidates(
    file: &Path,
    before: &str,
    candidates: impl FnOnce(Option<&json::Node>) -> Result<Vec<Vec<Edit>>, Shape>,
) -> Result<Vec<String>, ToggleError> {
    let root = if before.trim().is_empty() {
        None
    } else {
        let root = json::parse(before).map_err(|e| ToggleError::Unparsable {
            file: file.to_path_buf(),
            format: "JSON",
            line: e.line,
            column: e.column,
            message: e.message,
        })?;
        if root.members().is_none() {
            return Err(ToggleError::Shape {
                file: file.to_path_buf(),
                what: Shape::TopNotObject,
            });
        }
        Some(root)
    };
    candidates(root.as_ref())
        .map_err(|what| ToggleError::Shape {
            file: file.to_path_buf(),
            what,
        })?
        .iter()
        .map(|edits| edit_json(file, before, root.as_ref(), edits))
        .collect()
}

/// Applies edits through the document's CST, then checks the result means exactly the edited
/// value. When it does not (it should not happen), the edit is refused: the user's file is never
/// rewritten whole.
fn edit_json(
    file: &Path,
    before: &str,
    root: Option<&json::Node>,
    edits: &[Edit],
) -> Result<String, ToggleError> {
    let Some(root) = root else {
        let mut v = Value::Object(serde_json::Map::new());
        for e in edits {
            json::apply_to_value(&mut v, e);
        }
        return Ok(pretty(&v, "  ", "\n"));
    };
    let mut want = root.to_value();
    for e in edits {
        json::apply_to_value(&mut want, e);
    }
    match json::edit(before, edits) {
        Ok(text) if json::parse(&text).is_ok_and(|n| n.to_value() == want) => Ok(text),
        // Never rewrite the user's whole file: refuse instead.
        _ => Err(ToggleError::WouldReformat {
            file: file.to_path_buf(),
        }),
    }
}

fn pretty(v: &Value, indent: &str, newline: &str) -> String {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let text = match v.serialize(&mut ser) {
        Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
        Err(_) => "{}".to_string(),
    };
    let mut text = if newline == "\n" {
        text
    } else {
        text.replace('\n', newline)
    };
    text.push_str(newline);
    text
}
