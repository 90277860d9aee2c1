//! What loading a skill through opencode 1.18.33's `skill` tool adds to the conversation,
//! exactly (captured: `tests/fixtures/agents/opencode@1.18.33/mixed/inject-*.txt`; the rules are
//! in `tests/fixtures/agents/FINDINGS.md`).

use crate::core::agents::loading::Block;
use crate::core::agents::tools::{file_text, split_frontmatter};
use crate::core::skill::Skill;
use crate::core::words::collate::js_trim;

/// opencode 1.18.33's `skill` tool called for `skill`: one `tool_result`, `<skill_content>` with
/// the body, the base directory and some of the skill's files ([`skill_content`]).
pub fn blocks(skill: &Skill) -> Vec<Block> {
    vec![Block::new("user", "tool_result", skill_content(skill))]
}

/// How many of a skill folder's other files opencode's `skill` tool names (`limit: 10`).
pub const MAX_FILES: usize = 10;

/// What opencode's `skill` tool returns for `skill`: the body after the frontmatter, trimmed,
/// the skill's folder, and up to 10 of its other files as ripgrep finds them (hidden files
/// included, ignore files obeyed, no `SKILL.md` at any depth, links not followed). opencode
/// takes whichever 10 ripgrep yields first, in no stable order; skillscope takes them in path
/// order.
pub fn skill_content(skill: &Skill) -> String {
    let text = file_text(skill);
    let body = split_frontmatter(&text).map_or("", |(_, after)| {
        let after = after.strip_prefix('\r').unwrap_or(after);
        js_trim(after.strip_prefix('\n').unwrap_or(after))
    });
    let dir = crate::core::files::paths::absolute(&skill.dir);
    let files: Vec<String> = ignore::WalkBuilder::new(&dir)
        .hidden(false)
        .follow_links(false)
        .sort_by_file_name(std::cmp::Ord::cmp)
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()) && e.file_name() != "SKILL.md")
        .take(MAX_FILES)
        .map(|e| format!("<file>{}</file>", e.path().display()))
        .collect();
    let name = &skill.name;
    [
        format!("<skill_content name=\"{name}\">"),
        format!("# Skill: {name}"),
        String::new(),
        body.to_string(),
        String::new(),
        format!("Base directory for this skill: {}", dir.display()),
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.".to_string(),
        "Note: file list is sampled.".to_string(),
        String::new(),
        "<skill_files>".to_string(),
        files.join("\n"),
        "</skill_files>".to_string(),
        "</skill_content>".to_string(),
    ]
    .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::tools::called;
    use crate::core::agents::tools::testing::{capture, laid, placeholders};
    use crate::core::library::Library;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};

    /// The text before and after the file list, and the files as a set (opencode's order is
    /// ripgrep's, which is not stable).
    fn split_files(text: &str) -> (String, std::collections::BTreeSet<String>) {
        let (head, rest) = text.split_once("<skill_files>\n").unwrap();
        let (files, tail) = rest.split_once("</skill_files>").unwrap();
        let set = files
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        (format!("{head}<skill_files>\n…</skill_files>{tail}"), set)
    }

    #[test]
    fn opencode_skill_content_is_the_captured_tool_result() {
        let (_t, view, dirs) = laid(
            Agent::Opencode,
            ".config/opencode/skills",
            ".opencode/skills",
        );
        for skill in ["with-resources", "dup-shared"] {
            let i = called(&view, Agent::Opencode, skill).unwrap();
            let got = placeholders(&skill_content(&view.skills[i]), &dirs);
            let want = capture("opencode@1.18.33", "mixed", &format!("inject-{skill}.txt"));
            assert_eq!(split_files(&got), split_files(&want), "{skill}");
        }
        assert_eq!(called(&view, Agent::Opencode, "With-Resources"), None);
    }

    #[test]
    fn opencode_names_at_most_ten_files_and_no_skill_file() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("many");
        std::fs::create_dir_all(d.join("sub")).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            "---\nname: many\ndescription: d\n---\n\n  Body.  \n",
        )
        .unwrap();
        std::fs::write(d.join("sub/SKILL.md"), "").unwrap();
        std::fs::write(d.join(".hidden"), "").unwrap();
        for i in 0..12 {
            std::fs::write(d.join(format!("f{i:02}")), "").unwrap();
        }
        let lib = Library::load(
            vec![Root::new(t.path(), Agent::Opencode, Scope::User)],
            &ScanOptions::default(),
        );
        let text = skill_content(&lib.skills[0]);
        assert!(
            text.contains("# Skill: many\n\nBody.\n\nBase directory"),
            "{text}"
        );
        let files: Vec<&str> = text.lines().filter(|l| l.starts_with("<file>")).collect();
        assert_eq!(files.len(), MAX_FILES, "{text}");
        assert!(
            files.iter().all(|f| !f.ends_with("SKILL.md</file>")),
            "{text}"
        );
        assert!(
            files.iter().any(|f| f.ends_with("/.hidden</file>")),
            "{text}"
        );
    }
}
