//! The skill tools of Gemini CLI 0.61.0 and opencode 1.18.33 as their clients send them, and
//! what loading a skill through them adds to the conversation, exactly (captured:
//! `tests/fixtures/agents/{gemini-cli@0.61.0,opencode@1.18.33}/mixed/`; the rules are in
//! `tests/fixtures/agents/FINDINGS.md`).

use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use crate::core::words::collate::{js_trim, locale_key};
use serde_json::json;
use std::collections::VecDeque;
use std::path::Path;

/// A skill tool's definition as the client sends it: what it costs every turn beside the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: &'static str,
    /// Its definition as compact JSON, exactly as sent.
    pub json: String,
    /// The listing is part of it (Cline's ends its description with the skills' names), so the
    /// two are not added up.
    pub holds_listing: bool,
}

impl ToolDefinition {
    /// The tool `name` defined by `json`, holding no listing.
    pub(crate) fn new(name: &'static str, json: String) -> ToolDefinition {
        ToolDefinition {
            name,
            json,
            holds_listing: false,
        }
    }
}

/// The skill tool `agent`'s client declares beside a listing of `names` (in listing order), if
/// skillscope knows it: Claude Code's `Skill`, Gemini CLI's `activate_skill` (none when nothing
/// is listed: it is not declared then), opencode's, Qwen Code's and Copilot's `skill`, Cline's
/// `skills` (the listing at the end of its description) and OpenClaw's `read` (its model reads a
/// skill's file). Codex has no skill tool.
///
/// Claude Code words its tool after where its listing sits for `model` (its default when
/// `None`): "a listing from the system", or "a system-reminder listing".
pub fn definition(agent: Agent, names: &[String], model: Option<&str>) -> Option<ToolDefinition> {
    (agent.home().tool)(names, model)
}

/// Gemini CLI's `activate_skill` declaration for a listing of `names` (listing order), as compact
/// JSON (`getActivateSkillDeclaration`): every name quoted in its description and again in the
/// enum of its `name` parameter. `None` for no names: the tool is then not declared.
pub fn gemini_activate_skill(names: &[String]) -> Option<String> {
    if names.is_empty() {
        return None;
    }
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let declaration = json!({
        "name": "activate_skill",
        "description": format!(
            "Activates a specialized agent skill by name (Available: {}). Returns the skill's instructions wrapped in `<activated_skill>` tags. These provide specialized guidance for the current task. Use this when you identify a task that matches a skill's description. ONLY use names exactly as they appear in the `<available_skills>` section.",
            quoted.join(", ")
        ),
        "parametersJsonSchema": {
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "enum": names,
                    "description": "The name of the skill to activate."
                }
            },
            "required": ["name"],
            "additionalProperties": false,
            "$schema": "http://json-schema.org/draft-07/schema#"
        }
    });
    Some(declaration.to_string())
}

/// Claude Code 2.1.332's `Skill` tool, compact JSON: naming no skill, and saying where the
/// listing is — "a listing from the system" (a system message, Opus 5.5), or "a
/// system-reminder listing" when `reminder` (in the first user message, Sonnet 4.5). Captured:
/// `tests/fixtures/agents/claude-code@2.1.332/*/tool.json`.
pub fn claude_code_skill_tool(reminder: bool) -> String {
    let place = if reminder {
        "a system-reminder listing"
    } else {
        "a listing from the system"
    };
    json!({
        "name": "Skill",
        "description": format!("Invoke a skill.\n\nA skill is a packaged set of instructions the user or project has set up for a particular kind of task (deploy steps, a review checklist, a repo-specific workflow). Available skills appear in {place} with one-line descriptions. When the task at hand is one a listed skill covers, call this tool first — the skill's instructions load into the turn for you to follow in place of your default approach; some skills instead run in a subagent and return the finished result. A skill that runs in the background returns only the agent's name — its result arrives later as a task notification, so don't wait on it or invoke it again in the meantime. Users may also ask for one by name (`/<name>`, or \"slash command\"); that's a request to invoke it.\n\n- `skill`: exact name from the listing, no leading slash. Plugin skills use `plugin:skill`. Directory-scoped skills are listed with a path prefix (`apps/web:deploy`); when both scoped and unscoped variants of a name exist, pick the one whose directory contains the files you're working on (most specific wins; unscoped otherwise).\n- `args`: optional arguments to pass through.\n\nOnly names from the listing (or that the user typed explicitly) are valid. Built-in CLI commands (`/help`, `/clear`, …) aren't skills. If a `<command-name>` block is already present this turn, the skill is loaded — follow it directly rather than calling again.\n"),
        "input_schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "skill": {
                    "description": "The name of a skill from the available-skills list. Do not guess names.",
                    "type": "string"
                },
                "args": {
                    "description": "Optional arguments for the skill",
                    "type": "string"
                }
            },
            "required": ["skill"],
            "additionalProperties": false
        }
    })
    .to_string()
}

/// opencode's `skill` tool as sent to an Anthropic model, compact JSON: fixed text, naming no
/// skill.
pub fn opencode_skill_tool() -> String {
    json!({
        "name": "skill",
        "description": "Load a specialized skill when the task at hand matches one of the skills listed in the system prompt.\n\nUse this tool to inject the skill's instructions and resources into current conversation. The output may contain detailed workflow guidance as well as references to scripts, files, etc in the same directory as the skill.\n\nThe skill name must match one of the skills listed in your system prompt.\n",
        "input_schema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {
                    "type": "string",
                    "description": "The name of the skill from available_skills"
                }
            },
            "required": ["name"]
        },
        "eager_input_streaming": true
    })
    .to_string()
}

/// The skill of an agent's view (`lib`) a call of its skill tool with `name` loads: Gemini CLI
/// and Cline (its ids are lower-cased names) match names without regard to case, the others
/// exactly; a shadowed copy is never loaded.
pub fn called(lib: &Library, agent: Agent, name: &str) -> Option<usize> {
    let lower = name.to_lowercase();
    lib.skills.iter().position(|s| {
        s.shadowed_by.is_none()
            && if agent.home().calls_any_case {
                s.name.to_lowercase() == lower
            } else {
                s.name == name
            }
    })
}

/// The text after a SKILL.md's frontmatter as both clients cut it: the file opens with a `---`
/// line, the frontmatter ends at the first line starting with `---`; `None` without one.
/// Returns the frontmatter's text and what follows the closing `---` on its line and after.
pub(crate) fn split_frontmatter(text: &str) -> Option<(&str, &str)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let at = rest.find("\n---")?;
    let yaml = rest[..at].strip_suffix('\r').unwrap_or(&rest[..at]);
    Some((yaml, &rest[at + 4..]))
}

/// The whole SKILL.md as text (lossy), or empty when it cannot be read.
fn file_text(skill: &Skill) -> String {
    crate::core::files::fsx::read_regular(&skill.skill_md)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// What Gemini CLI's `activate_skill` returns when called with `called` for `skill`
/// (`ActivateSkillToolInvocation.execute`): the body after the frontmatter, trimmed, and the
/// skill folder's tree (`getFolderStructure`, up to 200 items).
pub fn gemini_activation(skill: &Skill, called: &str) -> String {
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
        folder_structure(&dir, GEMINI_MAX_ITEMS)
    )
}

/// How many files and folders Gemini CLI's tree of a skill folder shows (`MAX_ITEMS`).
pub const GEMINI_MAX_ITEMS: usize = 200;

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

/// How many of a skill folder's other files opencode's `skill` tool names (`limit: 10`).
pub const OPENCODE_MAX_FILES: usize = 10;

/// What opencode's `skill` tool returns for `skill`: the body after the frontmatter, trimmed,
/// the skill's folder, and up to 10 of its other files as ripgrep finds them (hidden files
/// included, ignore files obeyed, no `SKILL.md` at any depth, links not followed). opencode
/// takes whichever 10 ripgrep yields first, in no stable order; skillscope takes them in path
/// order.
pub fn opencode_skill_content(skill: &Skill) -> String {
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
        .take(OPENCODE_MAX_FILES)
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
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Root, Scope};
    use std::path::PathBuf;

    fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
    }

    fn capture(client: &str, case: &str, file: &str) -> String {
        let p = fixtures().join(client).join(case).join(file);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// A captured tool definition as the client sent it: compact JSON, keys in their order.
    fn sent(client: &str, case: &str) -> String {
        let v: serde_json::Value =
            serde_json::from_str(&capture(client, case, "tool.json")).unwrap();
        v.to_string()
    }

    /// The skill names of a captured listing, in its order.
    fn listed_names(listing: &str) -> Vec<String> {
        listing
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<name>")?.strip_suffix("</name>"))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn gemini_declares_activate_skill_with_every_listed_name_as_captured() {
        for (case, chars) in [("mixed", 1_772), ("budget150", 6_332)] {
            let names = listed_names(&capture("gemini-cli@0.61.0", case, "listing.txt"));
            let got = gemini_activate_skill(&names).unwrap();
            assert_eq!(got, sent("gemini-cli@0.61.0", case), "{case}");
            assert_eq!(got.chars().count(), chars, "{case}");
        }
        assert_eq!(gemini_activate_skill(&[]), None);
        let d = definition(Agent::Gemini, &["a\"b".to_string()], None).unwrap();
        assert!(d.json.contains(r#"'a\"b'"#), "{}", d.json);
    }

    #[test]
    fn opencodes_skill_tool_is_fixed_text_as_captured() {
        for case in ["mixed", "budget150"] {
            assert_eq!(
                opencode_skill_tool(),
                sent("opencode@1.18.33", case),
                "{case}"
            );
        }
        assert_eq!(opencode_skill_tool().chars().count(), 676);
        assert_eq!(
            definition(Agent::Opencode, &[], None).map(|d| d.name),
            Some("skill")
        );
        assert_eq!(definition(Agent::Codex, &[], None), None);
    }

    fn copy_tree(src: &Path, dst: &Path) {
        for e in std::fs::read_dir(src).unwrap() {
            let e = e.unwrap();
            let to = dst.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                copy_tree(&e.path(), &to);
            } else {
                std::fs::create_dir_all(dst).unwrap();
                std::fs::copy(e.path(), &to).unwrap();
            }
        }
    }

    /// The `mixed` library laid out for a client (its user and project skill folders), and the
    /// client's view of it; the home and project folders.
    fn laid(agent: Agent, user: &str, project: &str) -> (tempfile::TempDir, Library, [PathBuf; 2]) {
        let t = tempfile::tempdir().unwrap();
        let (home, proj) = (t.path().join("home"), t.path().join("project"));
        let lib = fixtures().join("library");
        copy_tree(&lib.join("user/skills"), &home.join(user));
        copy_tree(&lib.join("project/skills"), &proj.join(project));
        let whole = Library::load(
            vec![
                Root::new(home.join(user), agent, Scope::User),
                Root::new(proj.join(project), agent, Scope::Project),
            ],
            &ScanOptions::default(),
        );
        let view = crate::core::agents::view::agent_library(&whole, agent, &[], None);
        (t, view, [home, proj])
    }

    fn placeholders(text: &str, [home, project]: &[PathBuf; 2]) -> String {
        text.replace(&project.display().to_string(), "{PROJECT}")
            .replace(&home.display().to_string(), "{HOME}")
    }

    #[test]
    fn gemini_activation_is_the_captured_function_response() {
        let (_t, view, dirs) = laid(Agent::Gemini, ".gemini/skills", ".gemini/skills");
        for skill in ["with-resources", "dup-shared"] {
            let i = called(&view, Agent::Gemini, skill).unwrap();
            let got = placeholders(&gemini_activation(&view.skills[i], skill), &dirs);
            let want = capture("gemini-cli@0.61.0", "mixed", &format!("inject-{skill}.txt"));
            assert_eq!(got, want, "{skill}");
        }
        // Names are matched without regard to case, and answered with the name as called.
        let i = called(&view, Agent::Gemini, "With-Resources").unwrap();
        assert!(
            gemini_activation(&view.skills[i], "With-Resources")
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
            let got = placeholders(&opencode_skill_content(&view.skills[i]), &dirs);
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
        let text = opencode_skill_content(&lib.skills[0]);
        assert!(
            text.contains("# Skill: many\n\nBody.\n\nBase directory"),
            "{text}"
        );
        let files: Vec<&str> = text.lines().filter(|l| l.starts_with("<file>")).collect();
        assert_eq!(files.len(), OPENCODE_MAX_FILES, "{text}");
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
