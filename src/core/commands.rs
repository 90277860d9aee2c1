//! Claude Code's custom commands (`.claude/commands/*.md`) as skills: one Markdown file is one
//! skill, named by its path below the folder (`frontend/component.md` is `frontend:component`),
//! its frontmatter optional, its description the frontmatter's or, without one, the first line
//! of the file (Claude Code's default). A skill of the same name wins over a command.
//!
//! Commands are few and small: they are read on each load, without the library index.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::Skill;
use crate::core::source::Root;
use std::path::Path;

/// How deep below a commands folder files are read.
const MAX_DEPTH: usize = 8;
/// Most files read from one commands folder.
const MAX_FILES: usize = 2_000;

/// The command name of `file` below `root`: its path without `.md`, folders joined with `:`.
pub fn command_name(root: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(root).unwrap_or(file).with_extension("");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(":")
}

/// Every command below `root`, in path order, and the problems that belong to no command.
pub fn load(root: &Root) -> (Vec<Skill>, Vec<Diagnostic>) {
    let mut skills = Vec::new();
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let walk = ignore::WalkBuilder::new(&root.path)
        .standard_filters(false)
        .hidden(true)
        .follow_links(false)
        .max_depth(Some(MAX_DEPTH))
        .build();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                problems.push(
                    Diagnostic::new(
                        RuleId::WalkError,
                        Severity::Warning,
                        format!("a commands folder could not be read whole: {e}"),
                    )
                    .in_file(&root.path),
                );
                continue;
            }
        };
        let path = entry.path();
        let is_md = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("md"));
        let Some(kind) = entry.file_type() else {
            continue;
        };
        if !is_md || kind.is_dir() {
            continue;
        }
        if !kind.is_file() {
            // A link could lead anywhere; a pipe or device is never opened.
            problems.push(
                Diagnostic::new(
                    RuleId::WalkSkipped,
                    Severity::Warning,
                    "a command that is not a regular file (a link, pipe or device) was not read",
                )
                .in_file(path),
            );
            continue;
        }
        if files.len() == MAX_FILES {
            problems.push(
                Diagnostic::new(
                    RuleId::WalkSkipped,
                    Severity::Warning,
                    format!("more than {MAX_FILES} commands: the rest were not read"),
                )
                .in_file(&root.path),
            );
            break;
        }
        files.push(path.to_path_buf());
    }
    files.sort();
    for file in files {
        skills.push(read(root, &file));
    }
    (skills, problems)
}

/// One command file as a skill.
fn read(root: &Root, file: &Path) -> Skill {
    let mut skill = Skill::new(root, file.to_path_buf(), file.to_path_buf());
    skill.command = true;
    skill.name = command_name(&root.path, file);
    skill.id = skill.name.clone();
    match crate::core::scan::read_head(file) {
        Ok((head, stamp, complete)) => {
            skill.stamp = stamp;
            if head.starts_with(b"---") {
                let parsed = crate::core::frontmatter::parse(&head, complete);
                skill.frontmatter = parsed.frontmatter;
                skill.parse_diagnostics = parsed.diagnostics;
                skill.body_line = parsed.layout.body_line;
                skill.body_offset = parsed.layout.body_offset as u64;
            } else {
                // No frontmatter: the whole file is the prompt.
                skill.frontmatter.parsed = true;
            }
        }
        Err(e) => skill.parse_diagnostics.push(
            Diagnostic::new(
                RuleId::FileUnreadable,
                Severity::Error,
                format!("cannot read the command: {e}; check its permissions"),
            )
            .at(1, 1),
        ),
    }
    // Its path names it: what the lists and listings show, whatever the frontmatter says.
    skill.frontmatter.name = Some(skill.name.clone());
    skill
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::source::{Agent, Scope};

    #[test]
    fn commands_are_named_by_their_path_and_need_no_frontmatter() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("commands");
        std::fs::create_dir_all(dir.join("frontend")).unwrap();
        std::fs::write(dir.join("review.md"), "Review the diff for bugs.\n").unwrap();
        std::fs::write(
            dir.join("frontend/component.md"),
            "---\ndescription: Make a component.\n---\nMake $ARGUMENTS.\n",
        )
        .unwrap();
        std::fs::write(dir.join("notes.txt"), "not a command").unwrap();
        let root = Root::new(&dir, Agent::ClaudeCode, Scope::User);
        let (skills, problems) = load(&root);
        assert!(problems.is_empty(), "{problems:?}");
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["frontend:component", "review"]);
        assert!(skills.iter().all(|s| s.command && s.frontmatter.parsed));
        assert_eq!(
            skills[0].frontmatter.description(),
            Some("Make a component.")
        );
        assert!(skills[1].parse_diagnostics.is_empty());
    }
}
