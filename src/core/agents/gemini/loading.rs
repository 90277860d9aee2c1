//! What loading a skill through Gemini CLI 0.61.0's `activate_skill` adds to the conversation,
//! exactly (captured: `tests/fixtures/agents/gemini-cli@0.61.0/mixed/inject-*.txt`; the rules are
//! in `tests/fixtures/agents/FINDINGS.md`).

use crate::core::agents::loading::Block;
use crate::core::agents::tools::{file_text, split_frontmatter};
use crate::core::skill::Skill;
use crate::core::words::collate::{js_trim, locale_key};
use std::collections::VecDeque;
use std::path::Path;

/// Gemini CLI 0.61.0's `activate_skill` called with `called` for `skill`: one
/// `functionResponse`, `<activated_skill>` with the body and the skill folder's tree
/// ([`activation`]).
pub fn blocks(skill: &Skill, called: &str) -> Vec<Block> {
    vec![Block::new(
        "user",
        "functionResponse",
        activation(skill, called),
    )]
}

/// What Gemini CLI's `activate_skill` returns when called with `called` for `skill`
/// (`ActivateSkillToolInvocation.execute`): the body after the frontmatter, trimmed, and the
/// skill folder's tree (`getFolderStructure`, up to 200 items).
pub fn activation(skill: &Skill, called: &str) -> String {
    let text = file_text(skill);
    // The body is what follows the closing line's line break (`(?:\r?\n([\s\S]*))?`).
    let body = split_frontmatter(&text)
        .and_then(|(_, after)| {
            after
                .strip_prefix("\r\n")
                .or_else(|| after.strip_prefix('\n'))
        })
        .map_or("", js_trim);
    let dir = crate::core::files::paths::absolute(&skill.dir);
    format!(
        "<activated_skill name=\"{called}\">\n  <instructions>\n    {body}\n  </instructions>\n\n  <available_resources>\n    {}\n  </available_resources>\n</activated_skill>",
        folder_structure(&dir, MAX_ITEMS)
    )
}

/// How many files and folders Gemini CLI's tree of a skill folder shows (`MAX_ITEMS`).
pub const MAX_ITEMS: usize = 200;

/// Folders Gemini CLI's tree names but does not open (`DEFAULT_IGNORED_FOLDERS`).
const IGNORED_FOLDERS: [&str; 4] = ["node_modules", ".git", "dist", "__pycache__"];

/// One folder of the tree.
#[derive(Debug, Default)]
struct Node {
    name: String,
    files: Vec<String>,
    folders: Vec<usize>,
    ignored: bool,
    more_files: bool,
    more_folders: bool,
}

/// Reads the tree breadth first, as `readFullStructure` does: each folder's entries sorted with
/// `localeCompare`, its files, then its folders, until `max` items are taken; links are neither
/// files nor folders and are left out.
fn read_tree(root: &Path, max: usize) -> Option<Vec<Node>> {
    let mut nodes = vec![Node {
        name: root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        ..Node::default()
    }];
    let mut queue = VecDeque::from([(0usize, root.to_path_buf())]);
    let mut count = 0;
    while let Some((at, path)) = queue.pop_front() {
        if count >= max {
            continue;
        }
        let Ok(read) = std::fs::read_dir(&path) else {
            if at == 0 {
                return None;
            }
            continue;
        };
        let mut entries: Vec<(String, std::fs::FileType)> = read
            .filter_map(Result::ok)
            .filter_map(|e| {
                Some((
                    e.file_name().to_string_lossy().into_owned(),
                    e.file_type().ok()?,
                ))
            })
            .collect();
        entries.sort_by_cached_key(|e| locale_key(&e.0));
        for (name, _) in entries.iter().filter(|(_, t)| t.is_file()) {
            if count >= max {
                nodes[at].more_files = true;
                break;
            }
            nodes[at].files.push(name.clone());
            count += 1;
        }
        for (name, _) in entries.iter().filter(|(_, t)| t.is_dir()) {
            if count >= max {
                nodes[at].more_folders = true;
                break;
            }
            let ignored = IGNORED_FOLDERS.contains(&name.as_str());
            nodes.push(Node {
                name: name.clone(),
                ignored,
                ..Node::default()
            });
            let child = nodes.len() - 1;
            nodes[at].folders.push(child);
            count += 1;
            if !ignored {
                queue.push_back((child, path.join(name)));
            }
        }
    }
    Some(nodes)
}

/// `formatStructure`: one line per item below `at`, boxes drawn as Gemini CLI draws them.
fn format_tree(
    nodes: &[Node],
    at: usize,
    indent: &str,
    last: bool,
    root: bool,
    out: &mut Vec<String>,
) {
    let n = &nodes[at];
    let connector = if last { "└───" } else { "├───" };
    if !root || n.ignored {
        out.push(format!(
            "{indent}{connector}{}/{}",
            n.name,
            if n.ignored { "..." } else { "" }
        ));
    }
    let inner = if root {
        String::new()
    } else {
        format!("{indent}{}", if last { "    " } else { "│   " })
    };
    for (i, f) in n.files.iter().enumerate() {
        let last_file = i + 1 == n.files.len() && n.folders.is_empty() && !n.more_folders;
        out.push(format!(
            "{inner}{}{f}",
            if last_file {
                "└───"
            } else {
                "├───"
            }
        ));
    }
    if n.more_files {
        let last_mark = n.folders.is_empty() && !n.more_folders;
        out.push(format!(
            "{inner}{}...",
            if last_mark {
                "└───"
            } else {
                "├───"
            }
        ));
    }
    for (i, &child) in n.folders.iter().enumerate() {
        let last_folder = i + 1 == n.folders.len() && !n.more_folders;
        format_tree(nodes, child, &inner, last_folder, false, out);
    }
    if n.more_folders {
        out.push(format!("{inner}└───..."));
    }
}

/// Gemini CLI's `getFolderStructure` of `dir` with at most `max` items.
fn folder_structure(dir: &Path, max: usize) -> String {
    let Some(nodes) = read_tree(dir, max) else {
        return format!(
            "Error: Could not read directory \"{}\". Check path and permissions.",
            dir.display()
        );
    };
    let mut lines = Vec::new();
    format_tree(&nodes, 0, "", true, true, &mut lines);
    let truncated = nodes
        .iter()
        .any(|n| n.more_files || n.more_folders || n.ignored);
    let mut summary = format!("Showing up to {max} items (files + folders).");
    if truncated {
        summary.push_str(&format!(
            " Folders or files indicated with ... contain more items not shown, were ignored, or the display limit ({max} items) was reached."
        ));
    }
    format!("{summary}\n\n{}/\n{}", dir.display(), lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::tools::called;
    use crate::core::agents::tools::testing::{capture, laid, placeholders};
    use crate::core::source::Agent;

    #[test]
    fn gemini_activation_is_the_captured_function_response() {
        let (_t, view, dirs) = laid(Agent::Gemini, ".gemini/skills", ".gemini/skills");
        for skill in ["with-resources", "dup-shared"] {
            let i = called(&view, Agent::Gemini, skill).unwrap();
            let got = placeholders(&activation(&view.skills[i], skill), &dirs);
            let want = capture("gemini-cli@0.61.0", "mixed", &format!("inject-{skill}.txt"));
            assert_eq!(got, want, "{skill}");
        }
        // Names are matched without regard to case, and answered with the name as called.
        let i = called(&view, Agent::Gemini, "With-Resources").unwrap();
        assert!(
            activation(&view.skills[i], "With-Resources")
                .starts_with("<activated_skill name=\"With-Resources\">")
        );
    }

    #[test]
    fn gemini_tree_stops_at_its_item_limit_and_names_ignored_folders() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("big");
        std::fs::create_dir_all(d.join("node_modules/pkg")).unwrap();
        std::fs::create_dir_all(d.join("refs")).unwrap();
        for f in ["SKILL.md", "b.txt", "A.txt"] {
            std::fs::write(d.join(f), "").unwrap();
        }
        for i in 0..3 {
            std::fs::write(d.join(format!("refs/r{i}.md")), "").unwrap();
        }
        let tree = folder_structure(&d, 6);
        // As `formatStructure` draws it: the last file shown gets `└───` though `...` follows.
        let want = format!(
            "Showing up to 6 items (files + folders). Folders or files indicated with ... contain more items not shown, were ignored, or the display limit (6 items) was reached.\n\n{}/\n├───A.txt\n├───b.txt\n├───SKILL.md\n├───node_modules/...\n└───refs/\n    └───r0.md\n    └───...",
            d.display()
        );
        assert_eq!(tree, want);
    }
}
