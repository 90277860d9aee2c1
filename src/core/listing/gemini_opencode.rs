//! The listing formats of Gemini CLI 0.61.0 and opencode 1.18.33, as captured
//! (`tests/fixtures/agents/FINDINGS.md`): neither has a budget, a cap or a compact tier; every
//! listed skill is an XML-like element, written raw.

use super::format::{Folders, Parts};
use crate::core::skill::Skill;
use crate::core::source::Scope;

/// Gemini CLI's skill name: its frontmatter `name` with each of `:\/<>*?"|` made `-`
/// (`loadSkillFromFile`).
pub fn gemini_name(name: &str) -> String {
    // The characters replaced are ASCII, so a name without their bytes has none of them: as
    // nearly every name, copied as it is.
    let replaced = |b: &u8| {
        matches!(
            b,
            b':' | b'\\' | b'/' | b'<' | b'>' | b'*' | b'?' | b'"' | b'|'
        )
    };
    if !name.as_bytes().iter().any(replaced) {
        return name.to_string();
    }
    name.chars()
        .map(|c| {
            if matches!(c, ':' | '\\' | '/' | '<' | '>' | '*' | '?' | '"' | '|') {
                '-'
            } else {
                c
            }
        })
        .collect()
}

/// The folder Gemini CLI read a skill from, in its reading order (`discoverSkills`): its own
/// user folder `~/.gemini/skills` (1), `~/.agents/skills` (2), then in a trusted workspace
/// `.gemini/skills` (3) and `.agents/skills` (4); folders given by hand last (5). 0 is its
/// built-ins'.
pub fn gemini_folder(skill: &Skill) -> u8 {
    let agents = skill.root.ends_with(".agents/skills");
    match skill.scope {
        Scope::User if agents => 2,
        Scope::User => 1,
        Scope::Project if agents => 4,
        Scope::Project => 3,
        _ => 5,
    }
}

/// The name and description a skill is listed with: its frontmatter's, as read.
fn name_and_description(skill: &Skill) -> (&str, &str) {
    let fm = &skill.frontmatter;
    (
        fm.name.as_deref().unwrap_or(&skill.name),
        fm.description().unwrap_or(""),
    )
}

/// Gemini CLI's parts of a skill: the sanitized name, the description and path as read.
pub(super) fn gemini_parts(skill: &Skill, _: &Folders) -> Parts {
    let (name, description) = name_and_description(skill);
    Parts {
        name: gemini_name(name),
        alias: None,
        description: description.to_string(),
        path: path_as_read(skill),
        root: None,
    }
}

/// opencode's parts of a skill: its name, description and path as read.
pub(super) fn opencode_parts(skill: &Skill, _: &Folders) -> Parts {
    let (name, description) = name_and_description(skill);
    Parts {
        name: name.to_string(),
        alias: None,
        description: description.to_string(),
        path: path_as_read(skill),
        root: None,
    }
}

/// Gemini CLI's entry: the element with its location raw.
pub(super) fn gemini_line(p: &Parts, description: Option<&str>) -> String {
    element(p, description, &p.path)
}

/// opencode's entry: the element with its location escaped.
pub(super) fn opencode_line(p: &Parts, description: Option<&str>) -> String {
    element(p, description, &js_escape(&p.path))
}

/// The SKILL.md path as the clients' globs give it: absolute, links not resolved.
fn path_as_read(skill: &Skill) -> String {
    crate::core::files::paths::absolute(&skill.skill_md)
        .to_string_lossy()
        .into_owned()
}

/// One `<skill>` element, indented as both clients write it; a name-only entry has no
/// description, and an entry without a path no location.
fn element(p: &Parts, description: Option<&str>, location: &str) -> String {
    let mut s = format!("  <skill>\n    <name>{}</name>\n", p.name);
    if let Some(d) = description {
        s.push_str(&format!("    <description>{d}</description>\n"));
    }
    if !p.path.is_empty() {
        s.push_str(&format!("    <location>{location}</location>\n"));
    }
    s.push_str("  </skill>");
    s
}

/// opencode's escaping of a location: `&`, `<`, `>`, `"` and `'` as entities (`&#39;`).
fn js_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name copied as it is, when it has none of the replaced characters, is what replacing
    /// them character by character gives.
    #[test]
    fn gemini_names_are_the_names_with_each_replaced_character_a_dash() {
        let by_char = |name: &str| -> String {
            name.chars()
                .map(|c| if ":\\/<>*?\"|".contains(c) { '-' } else { c })
                .collect()
        };
        let names = [
            "",
            "pdf",
            "web:search",
            "a/b\\c",
            "<x>",
            "*?",
            "\"q\"|",
            "é-ü",
            "名前:名",
            "日本/語",
            "trailing:",
            "🦀|🦀",
            "plain-name_1.2",
        ];
        for name in names {
            assert_eq!(gemini_name(name), by_char(name), "{name}");
        }
        assert_eq!(gemini_name("名前:名"), "名前-名");
        assert_eq!(gemini_name("pdf"), "pdf");
    }

    #[test]
    fn gemini_sanitizes_names_and_opencode_escapes_locations() {
        assert_eq!(
            gemini_name(r#"a:b\c/d<e>f*g?h"i|j k"#),
            "a-b-c-d-e-f-g-h-i-j k"
        );
        assert_eq!(
            js_escape(r#"<built-in> & "x" 'y'"#),
            "&lt;built-in&gt; &amp; &quot;x&quot; &#39;y&#39;"
        );
    }
}
