//! How opencode 1.18.33 reads a SKILL.md's frontmatter where that differs from skillscope's own
//! reading: a frontmatter that is not valid YAML is parsed again with the values holding `: `
//! quoted. See `tests/fixtures/agents/FINDINGS.md`.

use crate::core::agents::reading::{Read, file_text, text_field};
use crate::core::agents::tools::split_frontmatter;
use crate::core::findings::catalogue::RuleId;
use crate::core::frontmatter::Frontmatter;
use crate::core::skill::Skill;

/// opencode (`Skill` state, gray-matter): a mapping whose `name` is text and whose
/// `description`, when there, is text; a frontmatter that is not valid YAML is parsed again with
/// every plain value holding `:` made a literal block (`ConfigMarkdown.sanitize`).
pub(crate) fn read(skill: &Skill) -> Option<Read> {
    let fm = &skill.frontmatter;
    if fm.parsed {
        return fields(fm, None);
    }
    if !skill
        .parse_diagnostics
        .iter()
        .any(|d| d.rule == RuleId::YamlInvalid)
    {
        return None;
    }
    let (name, description) = skill
        .facts
        .reading(&skill.facts.readings.opencode_again, || {
            file_text(skill).map(|text| read_again(&text))
        })?
        .as_ref()?;
    Some(Read {
        name: name.clone(),
        description: description.clone(),
        how: Some(
            "its frontmatter parsed again with the values holding `: ` quoted (it is not valid YAML)",
        ),
    })
}

/// The name and description of a skill file (`text`) whose frontmatter is parsed again with its
/// plain values holding `:` quoted, when that parse gives them and changes anything.
fn read_again(text: &str) -> Option<(String, Option<String>)> {
    let (yaml, _) = split_frontmatter(text)?;
    let fixed = sanitize(yaml);
    if fixed == yaml {
        return None;
    }
    let again = crate::core::frontmatter::parse(format!("---\n{fixed}\n---\n").as_bytes(), true);
    if !again.frontmatter.parsed {
        return None;
    }
    fields(&again.frontmatter, None).map(|r| (r.name, r.description))
}

fn fields(fm: &Frontmatter, how: Option<&'static str>) -> Option<Read> {
    let name = text_field(fm, "name")?;
    let description = match fm.get("description") {
        None => None,
        Some(f) => Some(f.value.as_str()?.to_string()),
    };
    Some(Read {
        name: name.to_string(),
        description,
        how,
    })
}

/// opencode's `ConfigMarkdown.sanitize` of a frontmatter: each top-level `key: value` line whose
/// value is plain (not empty, not `|` or `>`, not quoted) and holds `:` becomes `key: |-` and the
/// value indented on the next line.
pub fn sanitize(yaml: &str) -> String {
    yaml.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .map(|line| {
            let t = line.trim();
            if t.starts_with('#') || t.is_empty() || line.starts_with(char::is_whitespace) {
                return line.to_string();
            }
            let Some((key, value)) = line.split_once(':') else {
                return line.to_string();
            };
            let key = key.trim_end();
            let valid_key = key
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            let v = value.trim();
            if !valid_key
                || v.is_empty()
                || v == ">"
                || v == "|"
                || v.starts_with(['"', '\''])
                || !v.contains(':')
            {
                return line.to_string();
            }
            format!("{key}: |-\n  {v}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencode_quotes_plain_values_holding_colons() {
        assert_eq!(
            sanitize(
                "name: x\ndescription: cut it: here\nquoted: 'a: b'\n  nested: c: d\nkebab-key: e: f"
            ),
            "name: x\ndescription: |-\n  cut it: here\nquoted: 'a: b'\n  nested: c: d\nkebab-key: e: f"
        );
    }
}
