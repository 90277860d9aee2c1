//! How Qwen Code, GitHub Copilot CLI, Cline and OpenClaw read the folders they share with other
//! agents (`tests/fixtures/agents/NEW-AGENTS.md`): at which place each reads them (the working
//! folder, the way up to the repository root, the repository root, its workspace) and how deep,
//! which copy of a shared name wins, which skills its client skips, and what it supplies for a
//! missing name or description.

use crate::core::catalogue::RuleId;
use crate::core::library::{Library, read_body_up_to};
use crate::core::skill::Skill;
use crate::core::source::{Agent, Scope};
use std::path::{Path, PathBuf};

/// Whether `agent` is one of the agents modelled here.
pub(super) fn modelled_here(agent: Agent) -> bool {
    matches!(
        agent,
        Agent::QwenCode | Agent::Copilot | Agent::Cline | Agent::Openclaw
    )
}

/// The places the clients start from: the home folder, the working folder, the repository root
/// above it (else the working folder) and OpenClaw's workspace.
#[derive(Debug, Clone)]
pub(super) struct Places {
    home: Option<PathBuf>,
    cwd: PathBuf,
    repo: Option<PathBuf>,
    workspace: Option<PathBuf>,
}

impl Places {
    /// This process's places.
    pub(super) fn current() -> Places {
        let home = dirs::home_dir();
        let cwd = std::env::current_dir()
            .map(|c| crate::core::paths::absolute(&c))
            .unwrap_or_default();
        let repo = super::project_root(&cwd, home.as_deref());
        let workspace = home.as_deref().map(crate::core::source::openclaw_workspace);
        Places {
            home,
            cwd,
            repo,
            workspace,
        }
    }

    fn home_is(&self, root: &Path, rel: &str) -> bool {
        self.home.as_ref().is_some_and(|h| root == h.join(rel))
    }
}

fn ends_any(root: &Path, folders: &[&str]) -> bool {
    folders.iter().any(|f| root.ends_with(f))
}

/// Whether `agent` reads skill `s` where it is, beyond the folder names the model matches.
pub(super) fn reads(agent: Agent, s: &Skill, p: &Places) -> bool {
    if matches!(s.agent, Agent::Path | Agent::Demo) {
        return true;
    }
    let root: &Path = &s.root;
    // The folder holding the project's `.x/skills`.
    let parent = root.parent().and_then(Path::parent);
    let child = s.dir.parent() == Some(root);
    let project = s.scope == Scope::Project;
    match agent {
        Agent::QwenCode => {
            let user = p.home_is(root, ".qwen/skills") || p.home_is(root, ".agents/skills");
            let here = project
                && parent == Some(p.cwd.as_path())
                && p.home.as_deref() != Some(p.cwd.as_path())
                && ends_any(root, &[".qwen/skills", ".agents/skills"]);
            (user || here) && child
        }
        Agent::Copilot => {
            let user = p.home_is(root, ".copilot/skills") || p.home_is(root, ".agents/skills");
            let up = parent.is_some_and(|d| {
                p.cwd.starts_with(d) && p.repo.as_deref().is_none_or(|r| d.starts_with(r))
            });
            let here = project
                && up
                && ends_any(
                    root,
                    &[".github/skills", ".agents/skills", ".claude/skills"],
                );
            // One level further below a folder that is not a skill itself.
            let below = s
                .dir
                .parent()
                .is_some_and(|mid| mid.parent() == Some(root) && !mid.join("SKILL.md").exists());
            (user || here) && (child || below)
        }
        Agent::Cline => {
            let user = p.home_is(root, ".cline/skills") || p.home_is(root, ".agents/skills");
            let here = project
                && parent.is_some()
                && parent == p.repo.as_deref()
                && ends_any(
                    root,
                    &[".clinerules/skills", ".cline/skills", ".agents/skills"],
                );
            (user || here) && (child || s.dir == root)
        }
        Agent::Openclaw => {
            let user = p.home_is(root, ".openclaw/skills") || p.home_is(root, ".agents/skills");
            let here = p
                .workspace
                .as_ref()
                .is_some_and(|ws| root == ws.join("skills") || root == ws.join(".agents/skills"));
            (user || here) && openclaw_depth(s)
        }
        Agent::ClaudeCode
        | Agent::Codex
        | Agent::Opencode
        | Agent::Gemini
        | Agent::Goose
        | Agent::LazySkills
        | Agent::Generic
        | Agent::Path
        | Agent::Demo => true,
    }
}

/// OpenClaw finds a SKILL.md up to 6 levels below a root, and looks no deeper below one.
fn openclaw_depth(s: &Skill) -> bool {
    let Ok(rel) = s.dir.strip_prefix(&*s.root) else {
        return false;
    };
    let depth = rel.components().count();
    if depth == 0 || depth > 6 {
        return false;
    }
    let mut mid = s.dir.parent();
    while let Some(m) = mid.filter(|m| *m != &*s.root) {
        if m.join("SKILL.md").is_file() {
            return false;
        }
        mid = m.parent();
    }
    true
}

/// Where the skill's folder comes in the agent's precedence: lower wins (Cline: higher wins).
fn rank(agent: Agent, s: &Skill, p: &Places) -> (u8, isize) {
    let root: &Path = &s.root;
    let agents = root.ends_with(".agents/skills");
    match agent {
        Agent::QwenCode => match s.scope {
            Scope::Project => (0, isize::from(agents)),
            Scope::User => (1, isize::from(agents)),
            _ => (2, 0),
        },
        Agent::Copilot => crate::core::listing::copilot_folder_rank(s),
        Agent::Cline => (crate::core::listing::cline_folder_rank(s), 0),
        Agent::Openclaw => {
            let ws = p.workspace.as_deref();
            if ws.is_some_and(|w| root == w.join("skills")) {
                (0, 0)
            } else if ws.is_some_and(|w| root == w.join(".agents/skills")) {
                (1, 0)
            } else if agents {
                (2, 0)
            } else if s.scope == Scope::User {
                (3, 0)
            } else {
                (4, 0)
            }
        }
        Agent::ClaudeCode
        | Agent::Codex
        | Agent::Opencode
        | Agent::Gemini
        | Agent::Goose
        | Agent::LazySkills
        | Agent::Generic
        | Agent::Path
        | Agent::Demo => (0, 0),
    }
}

/// The name the agent knows a skill by: its frontmatter `name`, else its folder's (Cline:
/// lower-cased, its ids).
fn key(agent: Agent, s: &Skill) -> String {
    let name = s
        .frontmatter
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| s.dir_name().into_owned(), str::to_string);
    if agent == Agent::Cline {
        name.to_lowercase()
    } else {
        name
    }
}

/// Which copy of each name the agent loads: Qwen Code the project's before the user's (its own
/// folder before `.agents`), Copilot the first in its reading order, OpenClaw the workspace's
/// before the shared and its managed folder, Cline the last one it reads.
pub(super) fn shadowing(
    lib: &Library,
    agent: Agent,
    member: &[bool],
    p: &Places,
) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..lib.len())
        .filter(|&i| member[i] && skipped(agent, &lib.skills[i]).is_none())
        .collect();
    // Each skill's rank made once (it joins the workspace's paths), in a stable sort as before;
    // Cline's order is the reverse of its ranks, equal ranks kept in the library's order.
    if agent == Agent::Cline {
        order.sort_by_cached_key(|&i| std::cmp::Reverse(rank(agent, &lib.skills[i], p)));
    } else {
        order.sort_by_cached_key(|&i| rank(agent, &lib.skills[i], p));
    }
    let mut winners: rustc_hash::FxHashMap<String, usize> = rustc_hash::FxHashMap::default();
    let mut out = vec![None; lib.len()];
    for i in order {
        match winners.entry(key(agent, &lib.skills[i])) {
            std::collections::hash_map::Entry::Occupied(w) => out[i] = Some(*w.get()),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i);
            }
        }
    }
    out
}

fn has(s: &Skill, rule: RuleId) -> bool {
    s.parse_diagnostics.iter().any(|d| d.rule == rule)
}

/// Qwen Code's names: letters, digits, `_`, `:`, `.`, `-` (`SKILL_NAME_PATTERN`).
fn qwen_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'))
}

/// Why the agent's client does not load the skill at all, when it does not.
pub(super) fn skipped(agent: Agent, s: &Skill) -> Option<String> {
    let fm = &s.frontmatter;
    let no_block = has(s, RuleId::FrontmatterMissing)
        || has(s, RuleId::FrontmatterUnterminated)
        || has(s, RuleId::FrontmatterLeadingBlank);
    let bad_yaml = has(s, RuleId::YamlInvalid) || has(s, RuleId::FrontmatterNotMapping);
    let name = fm.name.as_deref().unwrap_or("");
    let description = fm.description().unwrap_or("");
    let why = match agent {
        Agent::QwenCode if no_block => {
            "Qwen Code skips a SKILL.md without a `---` frontmatter at its first line"
        }
        Agent::QwenCode if name.is_empty() => "Qwen Code skips a skill without `name`",
        Agent::QwenCode if description.is_empty() => {
            "Qwen Code skips a skill without `description`"
        }
        Agent::QwenCode if !qwen_name(name) => {
            "Qwen Code skips a name with other characters than letters, digits, `_`, `:`, `.` and `-`"
        }
        Agent::Copilot if no_block || bad_yaml => {
            "GitHub Copilot CLI fails to load a SKILL.md whose frontmatter is missing or not valid YAML"
        }
        Agent::Cline if bad_yaml => "Cline skips a skill whose frontmatter is not valid YAML",
        Agent::Openclaw if description.trim().is_empty() || no_block => {
            "OpenClaw skips a skill without `description` (description is required)"
        }
        Agent::ClaudeCode
        | Agent::Codex
        | Agent::Opencode
        | Agent::Gemini
        | Agent::Goose
        | Agent::Openclaw
        | Agent::Copilot
        | Agent::Cline
        | Agent::QwenCode
        | Agent::LazySkills
        | Agent::Generic
        | Agent::Path
        | Agent::Demo => return None,
    };
    Some(why.to_string())
}

/// Why an agent keeps a skill it reads out of its listing.
pub(super) struct Unlisted {
    /// Said in the listing's fates.
    pub why: String,
    /// The client's own switch turned it off (Cline's frontmatter switch), as opposed to a
    /// skill closed to the model (`disable-model-invocation`).
    pub switched_off: bool,
}

/// Why the agent keeps a skill it reads out of its listing, when it does: `disable-model-
/// invocation` (Qwen Code, Copilot, OpenClaw), or Cline's frontmatter switch.
pub(super) fn unlisted(agent: Agent, s: &Skill) -> Option<Unlisted> {
    let fm = &s.frontmatter;
    match agent {
        Agent::Cline => {
            let disabled = fm
                .get("disabled")
                .is_some_and(|f| f.value == serde_json::Value::Bool(true))
                || fm
                    .get("enabled")
                    .is_some_and(|f| f.value == serde_json::Value::Bool(false));
            disabled.then(|| Unlisted {
                why: "off in Cline (frontmatter disabled: true / enabled: false)".to_string(),
                switched_off: true,
            })
        }
        _ if fm.disable_model_invocation => Some(Unlisted {
            why: format!(
                "disable-model-invocation: true: {} keeps it out of its listing",
                super::model::model(agent).name
            ),
            switched_off: false,
        }),
        Agent::ClaudeCode
        | Agent::Codex
        | Agent::Opencode
        | Agent::Gemini
        | Agent::Goose
        | Agent::Openclaw
        | Agent::Copilot
        | Agent::QwenCode
        | Agent::LazySkills
        | Agent::Generic
        | Agent::Path
        | Agent::Demo => None,
    }
}

/// Takes `s` as the agent reads it and says what it supplied, when anything: a frontmatter that
/// is not valid YAML read line by line (Qwen Code, OpenClaw), a SKILL.md without frontmatter
/// read whole (Cline), the folder's name for a missing name (Copilot, Cline, OpenClaw), the
/// body's first paragraph for a missing description (Copilot).
pub(super) fn reading(agent: Agent, s: &mut Skill) -> Option<String> {
    let mut used = Vec::new();
    let bad_yaml = has(s, RuleId::YamlInvalid);
    if !s.frontmatter.parsed {
        match agent {
            Agent::QwenCode | Agent::Openclaw if bad_yaml => {
                s.frontmatter.parsed = true;
                used.push("its frontmatter read line by line, as it is not valid YAML");
            }
            Agent::Cline if !bad_yaml => {
                s.frontmatter.parsed = true;
                used.push("the whole file as its body, as it has no frontmatter");
            }
            Agent::ClaudeCode
            | Agent::Codex
            | Agent::Opencode
            | Agent::Gemini
            | Agent::Goose
            | Agent::Openclaw
            | Agent::Copilot
            | Agent::Cline
            | Agent::QwenCode
            | Agent::LazySkills
            | Agent::Generic
            | Agent::Path
            | Agent::Demo => {}
        }
    }
    if agent == Agent::Cline {
        s.frontmatter.disable_model_invocation = false;
    }
    let nameless = s
        .frontmatter
        .name
        .as_deref()
        .is_none_or(|n| n.trim().is_empty());
    if nameless && matches!(agent, Agent::Copilot | Agent::Cline | Agent::Openclaw) {
        s.frontmatter.name = Some(s.dir_name().into_owned());
        used.push("its folder's name for the missing name");
    }
    if agent == Agent::Copilot
        && s.frontmatter.parsed
        && s.frontmatter.description().is_none()
        && let Ok(body) = read_body_up_to(s, 1 << 20)
        && let Some(p) = first_paragraph(&body)
    {
        s.frontmatter.set_description(Some(p));
        used.push("the first two paragraphs of its body for the missing description");
    }
    (!used.is_empty()).then(|| format!("listed with {}", used.join(" and ")))
}

/// Copilot's description from a body: its first two paragraphs that are no heading, each one's
/// lines trimmed and joined by spaces, the two joined by a space (`wide/listing.txt`:
/// `two-paragraphs`; a third is left out). `None` when every paragraph is a heading.
pub fn first_paragraph(body: &str) -> Option<String> {
    let mut para: Vec<&str> = Vec::new();
    let mut taken: Vec<String> = Vec::new();
    for line in body.lines().map(str::trim).chain(std::iter::once("")) {
        if !line.is_empty() {
            para.push(line);
            continue;
        }
        if para.first().is_some_and(|l| !l.starts_with('#')) {
            taken.push(para.join(" "));
            if taken.len() == 2 {
                break;
            }
        }
        para.clear();
    }
    (!taken.is_empty()).then(|| taken.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copilot_takes_the_first_two_paragraphs_that_are_no_heading() {
        assert_eq!(
            first_paragraph("\n\n# Heading\n\nSecond paragraph.\n").as_deref(),
            Some("Second paragraph.")
        );
        assert_eq!(
            first_paragraph("One line\n  and its next.\n\nOther.\n\nA third.").as_deref(),
            Some("One line and its next. Other.")
        );
        assert_eq!(first_paragraph("# Only a heading\n"), None);
    }

    #[test]
    fn qwen_names_are_letters_digits_and_four_marks() {
        assert!(qwen_name("UpperCase-Skill"));
        assert!(qwen_name("ext:pdf.v2_x"));
        assert!(qwen_name("日本語"));
        assert!(!qwen_name("two words"));
        assert!(!qwen_name(""));
    }
}
