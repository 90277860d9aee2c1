//! How Gemini CLI 0.61.0 reads a SKILL.md's frontmatter where that differs from skillscope's
//! own reading: a file that does not open plainly is not loaded, and when the YAML is not valid
//! the `name:` and `description:` lines are read one by one. See
//! `tests/fixtures/agents/FINDINGS.md`.

use crate::core::agents::reading::{Read, file_text, text_field};
use crate::core::agents::tools::split_frontmatter;
use crate::core::findings::catalogue::RuleId;
use crate::core::skill::Skill;

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

/// Gemini CLI (`loadSkillFromFile`): a YAML mapping whose `name` and `description` are both
/// text; failing that, the `name:` and `description:` lines read one by one
/// (`parseSimpleFrontmatter`); the name with `:\/<>*?"|` made `-`.
pub(crate) fn read(skill: &Skill) -> Option<Read> {
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
    let (name, description) = lines(skill)?;
    Some(Read {
        name: crate::core::listing::gemini_name(name),
        description: Some(description.clone()),
        how: Some(
            "its `name:` and `description:` lines read one by one (its frontmatter is not YAML with a text name and description)",
        ),
    })
}

/// The skill file's `name:` and `description:` lines read one by one ([`simple_frontmatter`] of
/// its frontmatter), read off the file once and kept with the skill (`Readings::gemini_lines`).
fn lines(skill: &Skill) -> Option<&(String, String)> {
    skill
        .facts
        .reading(&skill.facts.readings.gemini_lines, || {
            let text = file_text(skill)?;
            Some(split_frontmatter(&text).and_then(|(yaml, _)| simple_frontmatter(yaml)))
        })?
        .as_ref()
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
}
