//! How OpenClaw reads the folders it shares with other agents.

use crate::core::agents::places::{Places, Reach, Unparsed, no_block};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use std::path::Path;

/// OpenClaw reads `.openclaw/skills` and `.agents/skills` below the home folder and its
/// workspace's `skills` and `.agents/skills`, up to 6 levels deep; the workspace's copy of a
/// name before the shared and its managed folder.
pub(crate) static REACH: Reach = Reach {
    reads,
    rank,
    last_wins: false,
    lower_case_names: false,
    skipped,
    own_switch: None,
    unparsed: Unparsed::LineByLine,
    folder_name_for_name: true,
    body_for_description: false,
};

fn reads(s: &Skill, p: &Places) -> bool {
    let root: &Path = &s.root;
    let user = p.home_is(root, ".openclaw/skills") || p.home_is(root, ".agents/skills");
    let here = p
        .workspace
        .as_ref()
        .is_some_and(|ws| root == ws.join("skills") || root == ws.join(".agents/skills"));
    (user || here) && depth(s)
}

/// OpenClaw finds a SKILL.md up to 6 levels below a root, and looks no deeper below one.
fn depth(s: &Skill) -> bool {
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

fn rank(s: &Skill, p: &Places) -> (u8, isize) {
    let root: &Path = &s.root;
    let agents = root.ends_with(".agents/skills");
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

fn skipped(s: &Skill) -> Option<&'static str> {
    let description = s.frontmatter.description().unwrap_or("");
    (description.trim().is_empty() || no_block(s))
        .then_some("OpenClaw skips a skill without `description` (description is required)")
}
