//! What every agent's skill tool shares: a tool's definition as its client sends it, the one
//! asked of an agent's home, the skill a call of it loads, and the SKILL.md as the clients cut
//! it. Each client's own tool and what loading a skill through it adds are in its home
//! (`agents/<agent>/tools.rs`, `agents/<agent>/loading.rs`).

use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::source::Agent;

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
pub(crate) fn file_text(skill: &Skill) -> String {
    crate::core::files::fsx::read_regular(&skill.skill_md)
        .ok()
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// What the homes' tests of their tools and loading share: the captures and the `mixed` library
/// laid out for a client.
#[cfg(test)]
pub(crate) mod testing {
    use crate::core::library::Library;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};
    use std::path::{Path, PathBuf};

    pub(crate) fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
    }

    /// A file under the captures, by its path there.
    pub(crate) fn fixture(rel: &str) -> String {
        let p = fixtures().join(rel);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// The body of the captures' `with-resources` skill, the one the loading tests inject.
    pub(crate) const WITH_RESOURCES_BODY: &str = "# With resources\n\nRun `scripts/run.sh` and read `references/guide.md` first.\n\nArguments given: $ARGUMENTS\n";

    pub(crate) fn capture(client: &str, case: &str, file: &str) -> String {
        let p = fixtures().join(client).join(case).join(file);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// A captured tool definition as the client sent it: compact JSON, keys in their order.
    pub(crate) fn sent(client: &str, case: &str) -> String {
        let v: serde_json::Value =
            serde_json::from_str(&capture(client, case, "tool.json")).unwrap();
        v.to_string()
    }

    /// The skill names of a captured listing, in its order.
    pub(crate) fn listed_names(listing: &str) -> Vec<String> {
        listing
            .lines()
            .filter_map(|l| l.trim().strip_prefix("<name>")?.strip_suffix("</name>"))
            .map(str::to_string)
            .collect()
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
    pub(crate) fn laid(
        agent: Agent,
        user: &str,
        project: &str,
    ) -> (tempfile::TempDir, Library, [PathBuf; 2]) {
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

    pub(crate) fn placeholders(text: &str, [home, project]: &[PathBuf; 2]) -> String {
        text.replace(&project.display().to_string(), "{PROJECT}")
            .replace(&home.display().to_string(), "{HOME}")
    }
}
