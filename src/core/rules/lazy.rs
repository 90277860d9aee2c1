//! Lazy Skills rules: the shapes of the fields that model adds (`type`, `triggers`,
//! `dependencies`), and declared dependencies that are not valid pip specifiers. Nothing runs.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::frontmatter::{Field, compact, json_kind};
use crate::core::probe::deps::{self, Origin};
use crate::core::skill::Skill;
use serde_json::Value;

pub fn check(skill: &Skill) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let fm = &skill.frontmatter;
    if !fm.parsed {
        return out;
    }
    for f in &fm.fields {
        match f.key.as_str() {
            "type" => type_alias(f, &mut out),
            "triggers" => triggers_shape(f, &mut out),
            "dependencies" => dependencies(f, &head(skill), &mut out),
            _ => {}
        }
    }
    out
}

/// `tool` and `context` are read as types elsewhere; Lazy Skills names only the three words.
fn type_alias(f: &Field, out: &mut Vec<Diagnostic>) {
    let canonical = match f.value.as_str() {
        Some("tool") => "executable",
        Some("context") => "contextual",
        _ => return,
    };
    out.push(
        Diagnostic::new(
            RuleId::FieldValue,
            Severity::Error,
            format!(
                "`type: {}` is not a Lazy Skills type: write `type: {canonical}` (contextual, executable or composite)",
                compact(&f.value)
            ),
        )
        .at(f.line, 1),
    );
}

/// Triggers are phrases: a string, a list of strings, or a mapping of groups to those.
fn triggers_shape(f: &Field, out: &mut Vec<Diagnostic>) {
    /// What was found where a phrase belongs.
    #[derive(Debug, thiserror::Error)]
    enum NotPhrases {
        #[error("an empty phrase")]
        Empty,
        #[error("{0}")]
        Kind(&'static str),
    }
    fn phrases(v: &Value) -> Result<(), NotPhrases> {
        match v {
            Value::String(s) if s.trim().is_empty() => Err(NotPhrases::Empty),
            Value::String(_) => Ok(()),
            Value::Array(items) => items.iter().try_for_each(|i| match i {
                Value::String(_) => phrases(i),
                other => Err(NotPhrases::Kind(json_kind(other))),
            }),
            other => Err(NotPhrases::Kind(json_kind(other))),
        }
    }
    let result = match &f.value {
        Value::Object(groups) => groups.values().try_for_each(phrases),
        other => phrases(other),
    };
    if let Err(found) = result {
        out.push(
            Diagnostic::new(
                RuleId::FieldType,
                Severity::Error,
                format!(
                    "`triggers` must be a list of phrases (or groups of them), found {found}: write `triggers: [\"fill a pdf form\", …]`"
                ),
            )
            .at(f.line, 1),
        );
    }
}

/// `dependencies` is a list of pip specifiers, each of which must parse.
fn dependencies(f: &Field, head: &str, out: &mut Vec<Diagnostic>) {
    if !matches!(f.value, Value::Array(_) | Value::Null) {
        out.push(
            Diagnostic::new(
                RuleId::FieldType,
                Severity::Error,
                format!(
                    "`dependencies` must be a list of pip specifiers, found {}: write one per line as `- package>=1.0`",
                    json_kind(&f.value)
                ),
            )
            .at(f.line, 1),
        );
        return;
    }
    for (origin, r) in deps::from_frontmatter(&f.value) {
        if let (Origin::Frontmatter { index }, Err(e)) = (origin, r) {
            out.push(
                Diagnostic::new(
                    RuleId::DependencyInvalid,
                    Severity::Error,
                    format!("`dependencies` item {}: {e}", index + 1),
                )
                .at(item_line(head, f.line, index).unwrap_or(f.line), 1),
            );
        }
    }
}

/// The frontmatter's text (the file up to its body), or nothing when it cannot be read.
fn head(skill: &Skill) -> String {
    use std::io::Read;
    let mut bytes = Vec::new();
    let read = crate::core::files::fsx::open_regular(&skill.skill_md)
        .and_then(|(file, _)| file.take(skill.body_offset).read_to_end(&mut bytes));
    match read {
        Ok(_) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => String::new(),
    }
}

/// The 1-based file line of item `index` of the block list under the key on line `key_line`
/// (`- item` lines, blank and comment lines passed over); `None` for a flow list (`[a, b]`) or
/// when the text ends first.
fn item_line(head: &str, key_line: u32, index: usize) -> Option<u32> {
    let mut seen = 0;
    for (n, line) in head.lines().enumerate().skip(key_line as usize) {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t == "-" || t.starts_with("- ") {
            if seen == index {
                return u32::try_from(n + 1).ok();
            }
            seen += 1;
        } else if !line.starts_with(char::is_whitespace) {
            return None;
        }
    }
    None
}

/// Lines of the skill's `requirements.txt` that pip would refuse.
pub fn requirements_file(skill: &Skill) -> Vec<Diagnostic> {
    let declared = deps::declared(&skill.dir, None);
    let path = skill.dir.join(deps::REQUIREMENTS_FILE);
    let mut out = Vec::new();
    if let Some(e) = &declared.requirements_txt_error {
        out.push(
            Diagnostic::new(
                RuleId::DependencyInvalid,
                Severity::Error,
                format!("{} cannot be read: {e}", deps::REQUIREMENTS_FILE),
            )
            .in_file(&path),
        );
    }
    for (origin, e) in declared.invalid() {
        if let Origin::RequirementsTxt { line } = origin {
            out.push(
                Diagnostic::new(
                    RuleId::DependencyInvalid,
                    Severity::Error,
                    format!("{}: {e}", deps::REQUIREMENTS_FILE),
                )
                .in_file(&path)
                .at(*line, 1),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::frontmatter;
    use crate::core::source::{Agent, Root, Scope};
    use std::path::Path;

    fn skill_at(dir: &Path, fm: &str) -> Skill {
        let text = format!("---\n{fm}\n---\n");
        std::fs::write(dir.join("SKILL.md"), &text).unwrap();
        let p = frontmatter::parse(text.as_bytes(), true);
        let root = Root::new(dir, Agent::Path, Scope::Path);
        Skill {
            frontmatter: p.frontmatter,
            parse_diagnostics: p.diagnostics,
            body_offset: text.len() as u64,
            ..Skill::new(&root, dir.to_path_buf(), dir.join("SKILL.md"))
        }
    }

    fn rules(d: &[Diagnostic]) -> Vec<RuleId> {
        d.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn shapes_of_the_lazy_fields() {
        let t = tempfile::tempdir().unwrap();
        let good = skill_at(
            t.path(),
            "name: a\ntype: composite\ntriggers:\n  pdf: [fill a form, read a pdf]\ndependencies:\n  - playwright==1.40.0\n  - beautifulsoup4>=4.12.0",
        );
        assert!(check(&good).is_empty(), "{:?}", check(&good));
        let bad = skill_at(
            t.path(),
            "name: a\ntype: tool\ntriggers: [pdf, 3]\ndependencies: requests>=2",
        );
        assert_eq!(
            rules(&check(&bad)),
            vec![RuleId::FieldValue, RuleId::FieldType, RuleId::FieldType]
        );
        let specs = skill_at(
            t.path(),
            "name: a\ndependencies:\n  - requests>=2\n  - playwright=1.40\n  - ''",
        );
        let d = check(&specs);
        assert_eq!(
            rules(&d),
            vec![RuleId::DependencyInvalid, RuleId::DependencyInvalid]
        );
        assert!(d[0].message.contains("item 2"), "{}", d[0].message);
        assert_eq!(d[0].line, Some(5), "the item's own line");
        assert_eq!(d[1].line, Some(6));
    }

    #[test]
    fn malformed_requirements_txt_lines_are_located() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(
            t.path().join("requirements.txt"),
            "requests>=2.31\n# c\nnumpy=>1.0\n",
        )
        .unwrap();
        let s = skill_at(t.path(), "name: a");
        let d = requirements_file(&s);
        assert_eq!(rules(&d), vec![RuleId::DependencyInvalid]);
        assert_eq!(d[0].line, Some(3));
        assert!(d[0].path.as_ref().unwrap().ends_with("requirements.txt"));
    }
}
