//! How GitHub Copilot CLI reads the folders it shares with other agents.

use crate::core::agents::places::{Places, Reach, Unparsed, bad_yaml, ends_any, no_block};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use std::path::Path;

/// GitHub Copilot CLI reads `.copilot/skills` and `.agents/skills` below the home folder and
/// `.github/skills`, `.agents/skills`, `.claude/skills` on the way from the working folder up
/// to the repository root, a child of the root or one level further below a folder that is no
/// skill; the first copy of a name in its reading order wins.
pub(crate) static REACH: Reach = Reach {
    reads,
    rank: |s, _| crate::core::listing::copilot_folder_rank(s),
    last_wins: false,
    lower_case_names: false,
    skipped,
    own_switch: None,
    unparsed: Unparsed::Skipped,
    folder_name_for_name: true,
    body_for_description: true,
};

fn reads(s: &Skill, p: &Places) -> bool {
    let root: &Path = &s.root;
    let parent = root.parent().and_then(Path::parent);
    let child = s.dir.parent() == Some(root);
    let project = s.scope == Scope::Project;
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

fn skipped(s: &Skill) -> Option<&'static str> {
    (no_block(s) || bad_yaml(s)).then_some(
        "GitHub Copilot CLI fails to load a SKILL.md whose frontmatter is missing or not valid YAML",
    )
}
