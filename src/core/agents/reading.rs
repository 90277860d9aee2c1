//! How Gemini CLI 0.61.0 and opencode 1.18.33 read a SKILL.md's frontmatter, where that differs
//! from skillscope's own reading: which skills they load at all, under which name, with which
//! description, and what they do when the YAML is not valid (Gemini CLI reads the `name:` and
//! `description:` lines one by one; opencode quotes values holding `: ` and parses again).
//! See `tests/fixtures/agents/FINDINGS.md`.

use super::tools::split_frontmatter;
use crate::core::findings::catalogue::RuleId;
use crate::core::frontmatter::Frontmatter;
use crate::core::skill::Skill;
use crate::core::source::Agent;

/// A skill as its client loads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Read {
    /// The name it is listed and called by.
    pub name: String,
    /// Its description; `None`: loaded, but never listed (opencode).
    pub description: Option<String>,
    /// How the client got there when its YAML did not give it (for a warning).
    pub how: Option<&'static str>,
}

/// How `agent`'s client reads `skill`: `None` when it does not load it. Only Gemini CLI and
/// opencode read differently from skillscope; for the others, `None` too (not asked).
pub fn read(agent: Agent, skill: &Skill) -> Option<Read> {
    agent.home().read.and_then(|read| read(skill))
}

/// The agents whose client reads frontmatter its own way.
pub fn reads_its_own_way(agent: Agent) -> bool {
    agent.home().read.is_some()
}

/// A frontmatter field that is text.
fn text_field<'a>(fm: &'a Frontmatter, key: &str) -> Option<&'a str> {
    fm.get(key).and_then(|f| f.value.as_str())
}

/// The file opens with `---` on its first line: no byte-order mark, no blank line before it,
/// and its frontmatter is closed (Gemini CLI's `FRONTMATTER_REGEX`).
fn opens_plainly(skill: &Skill) -> bool {
    !skill.parse_diagnostics.iter().any(|d| {
        matches!(
            d.rule,
            RuleId::FileBom
                | RuleId::FrontmatterLeadingBlank
                | RuleId::FrontmatterMissing
                | RuleId::FrontmatterUnterminated
        )
    })
}

/// The whole SKILL.md, lossy; `None` when it cannot be read.
fn file_text(skill: &Skill) -> Option<String> {
    let bytes = crate::core::files::fsx::read_regular(&skill.skill_md)
        .ok()
        .flatten()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Gemini CLI (`loadSkillFromFile`): a YAML mapping whose `name` and `description` are both
/// text; failing that, the `name:` and `description:` lines read one by one
/// (`parseSimpleFrontmatter`); the name with `:\/<>*?"|` made `-`.
pub(crate) fn gemini(skill: &Skill) -> Option<Read> {
    if !opens_plainly(skill) {
        return None;
    }
    let fm = &skill.frontmatter;
    if fm.parsed
        && let (Some(name), Some(description)) =
            (text_field(fm, "name"), text_field(fm, "description"))
    {
        return Some(Read {
            name: crate::core::listing::gemini_name(name),
            description: Some(description.to_string()),
            how: None,
        });
    }
    let text = file_text(skill)?;
    let (yaml, _) = split_frontmatter(&text)?;
    let (name, description) = simple_frontmatter(yaml)?;
    Some(Read {
        name: crate::core::listing::gemini_name(&name),
        description: Some(description),
        how: Some(
            "its `name:` and `description:` lines read one by one (its frontmatter is not YAML with a text name and description)",
        ),
    })
}

/// Gemini CLI's `parseSimpleFrontmatter`: the last `name:` line's value, trimmed; the last
/// `description:` line's value with the indented lines after it, each trimmed, the non-empty
/// ones joined by spaces. Both must be there.
pub fn simple_frontmatter(yaml: &str) -> Option<(String, String)> {
    let lines: Vec<&str> = yaml
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let value = |line: &str, key: &str| -> Option<String> {
        let rest = line.trim_start().strip_prefix(key)?.strip_prefix(':')?;
        Some(rest.trim().to_string())
    };
    let (mut name, mut description) = (None, None);
    let mut i = 0;
    while i < lines.len() {
        if let Some(v) = value(lines[i], "name") {
            name = Some(v);
        } else if let Some(v) = value(lines[i], "description") {
            let mut parts = vec![v];
            while let Some(next) = lines.get(i + 1) {
                let indented = next.starts_with([' ', '\t'])
                    && next
                        .trim_start_matches([' ', '\t'])
                        .chars()
                        .next()
                        .is_some_and(|c| !c.is_whitespace());
                if !indented {
                    break;
                }
                parts.push(next.trim().to_string());
                i += 1;
            }
            parts.retain(|p| !p.is_empty());
            description = Some(parts.join(" "));
        }
        i += 1;
    }
    Some((name?, description?))
}

/// opencode (`Skill` state, gray-matter): a mapping whose `name` is text and whose
/// `description`, when there, is text; a frontmatter that is not valid YAML is parsed again with
/// every plain value holding `:` made a literal block (`ConfigMarkdown.sanitize`).
pub(crate) fn opencode(skill: &Skill) -> Option<Read> {
    let fm = &skill.frontmatter;
    if fm.parsed {
        return opencode_fields(fm, None);
    }
    if !skill
        .parse_diagnostics
        .iter()
        .any(|d| d.rule == RuleId::YamlInvalid)
    {
        return None;
    }
    let text = file_text(skill)?;
    let (yaml, _) = split_frontmatter(&text)?;
    let fixed = opencode_sanitize(yaml);
    if fixed == yaml {
        return None;
    }
    let again = crate::core::frontmatter::parse(format!("---\n{fixed}\n---\n").as_bytes(), true);
    if !again.frontmatter.parsed {
        return None;
    }
    opencode_fields(
        &again.frontmatter,
        Some(
            "its frontmatter parsed again with the values holding `: ` quoted (it is not valid YAML)",
        ),
    )
}

fn opencode_fields(fm: &Frontmatter, how: Option<&'static str>) -> Option<Read> {
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
pub fn opencode_sanitize(yaml: &str) -> String {
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
    fn gemini_reads_name_and_description_lines_one_by_one() {
        assert_eq!(
            simple_frontmatter("name: broken\ndescription: [unclosed flow sequence"),
            Some(("broken".into(), "[unclosed flow sequence".into()))
        );
        assert_eq!(
            simple_frontmatter("name: a\ndescription: first: part\n  second\n\n  third\nother: x"),
            Some(("a".into(), "first: part second".into()))
        );
        assert_eq!(simple_frontmatter("name: a\n"), None);
        assert_eq!(simple_frontmatter("description: d"), None);
        // The last line of a key wins; `  name:` nested counts too, as the client reads it.
        assert_eq!(
            simple_frontmatter("name: a\nmeta:\n  name: b\ndescription: \"q\""),
            Some(("b".into(), "\"q\"".into()))
        );
    }

    #[test]
    fn opencode_quotes_plain_values_holding_colons() {
        assert_eq!(
            opencode_sanitize(
                "name: x\ndescription: cut it: here\nquoted: 'a: b'\n  nested: c: d\nkebab-key: e: f"
            ),
            "name: x\ndescription: |-\n  cut it: here\nquoted: 'a: b'\n  nested: c: d\nkebab-key: e: f"
        );
    }
}
