//! How Qwen Code reads the folders it shares with other agents.

use crate::core::agents::places::{Places, Reach, Unparsed, ends_any, no_block};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use std::path::Path;

/// Qwen Code reads `.qwen/skills` and `.agents/skills` below the home folder and the working
/// folder (not the home folder as a project), their direct children only; the project's copy
/// of a name before the user's, its own folder before `.agents`.
pub(crate) static REACH: Reach = Reach {
    reads,
    rank,
    last_wins: false,
    lower_case_names: false,
    skipped,
    own_switch: None,
    unparsed: Unparsed::LineByLine,
    folder_name_for_name: false,
    body_for_description: false,
};

fn reads(s: &Skill, p: &Places) -> bool {
    let root: &Path = &s.root;
    let parent = root.parent().and_then(Path::parent);
    let child = s.dir.parent() == Some(root);
    let project = s.scope == Scope::Project;
    let user = p.home_is(root, ".qwen/skills") || p.home_is(root, ".agents/skills");
    let here = project
        && parent == Some(p.cwd.as_path())
        && p.home.as_deref() != Some(p.cwd.as_path())
        && ends_any(root, &[".qwen/skills", ".agents/skills"]);
    (user || here) && child
}

fn rank(s: &Skill, _p: &Places) -> (u8, isize) {
    let agents = s.root.ends_with(".agents/skills");
    match s.scope {
        Scope::Project => (0, isize::from(agents)),
        Scope::User => (1, isize::from(agents)),
        _ => (2, 0),
    }
}

fn skipped(s: &Skill) -> Option<&'static str> {
    let fm = &s.frontmatter;
    let name = fm.name.as_deref().unwrap_or("");
    let description = fm.description().unwrap_or("");
    if no_block(s) {
        Some("Qwen Code skips a SKILL.md without a `---` frontmatter at its first line")
    } else if name.is_empty() {
        Some("Qwen Code skips a skill without `name`")
    } else if description.is_empty() {
        Some("Qwen Code skips a skill without `description`")
    } else if !qwen_name(name) {
        Some(
            "Qwen Code skips a name with other characters than letters, digits, `_`, `:`, `.` and `-`",
        )
    } else {
        None
    }
}

/// Qwen Code's names: letters, digits, `_`, `:`, `.`, `-` (`SKILL_NAME_PATTERN`).
fn qwen_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwen_names_are_letters_digits_and_four_marks() {
        assert!(qwen_name("UpperCase-Skill"));
        assert!(qwen_name("ext:pdf.v2_x"));
        assert!(qwen_name("日本語"));
        assert!(!qwen_name("two words"));
        assert!(!qwen_name(""));
    }
}
