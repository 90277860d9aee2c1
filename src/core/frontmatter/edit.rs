//! Edits of a frontmatter checked for faithfulness: what an edit is meant to change, and that
//! everything else reads the same after it; and the YAML of other files than SKILL.md.

use super::yaml::{MAX_FLOW_DEPTH, split_line, too_deep, yaml_kind};

/// Parses a whole YAML document into `T` (for YAML files other than SKILL.md, such as routing
/// eval files), so that every YAML call stays in `core::frontmatter`.
pub fn parse_yaml_value<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| YamlError(e.to_string()))
}

/// Why a YAML document could not be read (YAML's own words).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct YamlError(pub String);

/// Why frontmatter YAML is not a mapping.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotMapping {
    #[error("brackets nested more than {MAX_FLOW_DEPTH} deep")]
    TooDeep,
    /// It is a value of this kind (`a list`, …).
    #[error("it is a {0}, not a mapping")]
    Other(&'static str),
    /// YAML's words, without their place.
    #[error("{0}")]
    Yaml(String),
}

/// Why an edit of a frontmatter is not faithful (see [`check_edit`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The edited text has no closed frontmatter.
    #[error("the edit would leave no closed frontmatter")]
    NoFrontmatter,
    /// The edited frontmatter is not a YAML mapping.
    #[error("the edit would leave the YAML invalid ({0})")]
    Invalid(NotMapping),
    /// Nothing valid to compare with, and the changed key does not read as intended.
    #[error("the edited frontmatter would not read as intended")]
    NotAsIntended,
    /// The key to move under `metadata` is not a top-level key.
    #[error("`{0}` is not a top-level key")]
    NotTopLevel(String),
    /// `metadata` holds something other than a mapping.
    #[error("`metadata` is not a mapping")]
    MetadataNotMapping,
    /// Another value reads differently after the edit.
    #[error(
        "the edit would change other values of the frontmatter (an anchor, alias or merge key shared with them, or a value written across lines)"
    )]
    OtherValues,
}

/// What an edit of a frontmatter is meant to do to the mapping it holds; everything else must
/// read the same after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Nothing: the edit is outside the YAML (a byte-order mark, blank lines before `---`).
    Nothing,
    /// The top-level `key` holds this text (added when missing).
    Text(String, String),
    /// The top-level `key` holds this boolean (added when missing).
    Bool(String, bool),
    /// The top-level `key` moved under `metadata` (created when missing), its value unchanged.
    ToMetadata(String),
}

/// The YAML between the `---` lines of a SKILL.md's text, when it has a closed frontmatter.
pub fn yaml_of(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.len() - rest.len();
    let mut at = 0;
    let mut opened = None;
    while at < rest.len() {
        let (line, next) = split_line(&rest[at..]);
        let end = rest.len() - next.len();
        let t = line.trim_end();
        match opened {
            None if t.is_empty() => {}
            None if t == "---" => opened = Some(end),
            None => return None,
            Some(from) if t == "---" || t == "..." => {
                return text.get(start + from..start + at);
            }
            Some(_) => {}
        }
        at = end;
    }
    None
}

/// The top-level mapping of frontmatter YAML, aliases resolved (an empty document is an empty
/// mapping); `Err` says why it is not one.
fn mapping_of(yaml: &str) -> Result<serde_yaml::Mapping, NotMapping> {
    if too_deep(yaml).is_some() {
        return Err(NotMapping::TooDeep);
    }
    match serde_yaml::from_str::<serde_yaml::Value>(yaml) {
        Ok(serde_yaml::Value::Mapping(m)) => Ok(m),
        Ok(serde_yaml::Value::Null) => Ok(serde_yaml::Mapping::new()),
        Ok(other) => Err(NotMapping::Other(yaml_kind(&other))),
        Err(e) => {
            let raw = e.to_string();
            Err(NotMapping::Yaml(
                raw.split(" at line ").next().unwrap_or(&raw).to_string(),
            ))
        }
    }
}

/// Checks that `after` (a SKILL.md's text) holds the frontmatter `before` held with `change`
/// made and nothing else changed: every other key, at every depth, reads the same value (aliases
/// resolved, merge keys as written). When `before` is not valid YAML, that `after` parses and
/// the changed key reads as intended. `Err` says why the edit is not faithful.
pub fn check_edit(before: &str, after: &str, change: &Change) -> Result<(), EditError> {
    let (b, a) = (yaml_of(before), yaml_of(after));
    let Some(a) = a else {
        return if b.is_none() && *change == Change::Nothing {
            Ok(())
        } else {
            Err(EditError::NoFrontmatter)
        };
    };
    let after_map = mapping_of(a).map_err(EditError::Invalid)?;
    let key_of = |k: &str| serde_yaml::Value::String(k.to_string());
    let Ok(mut want) = b
        .ok_or(NotMapping::Yaml(String::new()))
        .and_then(mapping_of)
    else {
        // Nothing valid to compare with: the changed key must read as intended.
        return match change {
            Change::Text(k, v) if after_map.get(key_of(k)) == Some(&key_of(v)) => Ok(()),
            Change::Bool(k, v)
                if after_map.get(key_of(k)) == Some(&serde_yaml::Value::Bool(*v)) =>
            {
                Ok(())
            }
            Change::Nothing => Ok(()),
            _ => Err(EditError::NotAsIntended),
        };
    };
    match change {
        Change::Nothing => {}
        Change::Text(k, v) => {
            want.insert(key_of(k), key_of(v));
        }
        Change::Bool(k, v) => {
            want.insert(key_of(k), serde_yaml::Value::Bool(*v));
        }
        Change::ToMetadata(k) => {
            let moved = want
                .remove(key_of(k))
                .ok_or_else(|| EditError::NotTopLevel(k.clone()))?;
            let meta = want
                .entry(key_of("metadata"))
                .or_insert_with(|| serde_yaml::Value::Mapping(serde_yaml::Mapping::new()));
            if meta.is_null() {
                *meta = serde_yaml::Value::Mapping(serde_yaml::Mapping::new());
            }
            let serde_yaml::Value::Mapping(m) = meta else {
                return Err(EditError::MetadataNotMapping);
            };
            m.insert(key_of(k), moved);
        }
    }
    if want == after_map {
        Ok(())
    } else {
        Err(EditError::OtherValues)
    }
}
