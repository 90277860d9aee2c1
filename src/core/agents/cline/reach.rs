//! How Cline reads the folders it shares with other agents.

use crate::core::agents::places::{Places, Reach, Unparsed, bad_yaml, ends_any};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use std::path::Path;

/// Cline reads `.cline/skills` and `.agents/skills` below the home folder and
/// `.clinerules/skills`, `.cline/skills`, `.agents/skills` at the repository root, a child of
/// the root or the root itself; the last copy of a name it reads wins, names lower-cased (its
/// ids); its own frontmatter switch decides, not `disable-model-invocation`.
pub(crate) static REACH: Reach = Reach {
    reads,
    rank: |s, _| (crate::core::listing::cline_folder_rank(s), 0),
    last_wins: true,
    lower_case_names: true,
    skipped,
    own_switch: Some(switched_off),
    unparsed: Unparsed::WholeBody,
    folder_name_for_name: true,
    body_for_description: false,
};

fn reads(s: &Skill, p: &Places) -> bool {
    let root: &Path = &s.root;
    let parent = root.parent().and_then(Path::parent);
    let child = s.dir.parent() == Some(root);
    let project = s.scope == Scope::Project;
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

fn skipped(s: &Skill) -> Option<&'static str> {
    bad_yaml(s).then_some("Cline skips a skill whose frontmatter is not valid YAML")
}

/// `disabled: true` or `enabled: false` in the skill's frontmatter.
fn switched_off(s: &Skill) -> Option<String> {
    let fm = &s.frontmatter;
    let disabled = fm
        .get("disabled")
        .is_some_and(|f| f.value == serde_json::Value::Bool(true))
        || fm
            .get("enabled")
            .is_some_and(|f| f.value == serde_json::Value::Bool(false));
    disabled.then(|| "off in Cline (frontmatter disabled: true / enabled: false)".to_string())
}
