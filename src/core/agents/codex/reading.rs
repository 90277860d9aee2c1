//! How Codex 0.171.0 reads the skills of its folders (`tests/fixtures/agents/FINDINGS.md`): which
//! files it takes, how it reads a frontmatter that is not valid YAML or has no name, that it
//! lists every copy of a shared name (only the same file reached twice is one skill), and the
//! `agents/openai.yaml` policy that keeps a skill out of its listing.

use crate::core::findings::catalogue::RuleId;
use crate::core::library::Library;
use crate::core::skill::Skill;
use std::path::{Path, PathBuf};

/// Why a skill whose `agents/openai.yaml` forbids implicit invocation is not listed.
pub const EXPLICIT_ONLY: &str = "agents/openai.yaml sets policy.allow_implicit_invocation: false: Codex lists it only when the prompt names it ($name)";

/// The file beside a SKILL.md that holds Codex's policy for it.
const POLICY_FILE: &str = "agents/openai.yaml";

/// Whether Codex reads a skill of its folders: a file named exactly `SKILL.md`, in a folder no
/// dot-name leads to from its root (Codex skips every dot-name as it walks; its system skills'
/// `.system` folder is a root of its own).
pub fn reads(s: &Skill) -> bool {
    crate::core::files::paths::file_name(&s.skill_md).is_some_and(|n| n == "SKILL.md")
        && crate::core::files::paths::strip_prefix(&s.dir, &s.root).is_none_or(|rel| {
            // A name's first byte, not the name made text: `.` is one byte in any encoding.
            rel.components()
                .all(|c| !c.as_os_str().as_encoded_bytes().starts_with(b"."))
        })
}

/// Codex lists every skill of a shared name; only one file reached twice (through a link, or
/// by two roots) is one skill: each later copy points at the first.
pub fn same_file(lib: &Library, member: &[bool]) -> Vec<Option<usize>> {
    // Keyed by the paths' bytes (a path's own `Hash` reads it component by component): the
    // keys are made by `canonicalize`, `absolute` or a join of a plain folder, no `.` or `//`.
    let mut roots: rustc_hash::FxHashMap<&std::ffi::OsStr, PathBuf> =
        rustc_hash::FxHashMap::default();
    let mut first: rustc_hash::FxHashMap<std::ffi::OsString, usize> =
        rustc_hash::FxHashMap::default();
    let mut out = vec![None; lib.len()];
    for (i, s) in lib.skills.iter().enumerate() {
        if !member.get(i).copied().unwrap_or(false) {
            continue;
        }
        // A plain folder is its root's real place joined with the rest: one resolution per
        // root, not per skill.
        let below = crate::core::files::paths::strip_prefix(&s.dir, &s.root).filter(|_| s.plain);
        let key = match below {
            Some(rel) => roots
                .entry(s.root.as_os_str())
                .or_insert_with(|| real(&s.root))
                .join(rel)
                .join("SKILL.md"),
            None => real(&s.skill_md),
        }
        .into_os_string();
        match first.entry(key) {
            std::collections::hash_map::Entry::Occupied(w) => out[i] = Some(*w.get()),
            std::collections::hash_map::Entry::Vacant(w) => {
                w.insert(i);
            }
        }
    }
    out
}

fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| crate::core::files::paths::absolute(p))
}

/// Takes `s` as Codex reads it, and says what it supplied, when it will be listed by it: a
/// frontmatter that is not valid YAML is read line by line (its `name:` and `description:` as
/// written), a missing name is the folder's; `disable-model-invocation` means nothing to it. A
/// skill without a closed frontmatter or a description stays unlisted.
pub fn reading(s: &mut Skill) -> Option<String> {
    s.frontmatter.disable_model_invocation = false;
    let unterminated = s
        .parse_diagnostics
        .iter()
        .any(|d| d.rule == RuleId::FrontmatterUnterminated);
    let described = s
        .frontmatter
        .description()
        .is_some_and(|d| !d.trim().is_empty());
    if unterminated || !described {
        return None;
    }
    let mut used = Vec::new();
    if !s.frontmatter.parsed {
        s.frontmatter.parsed = true;
        used.push("its frontmatter read line by line, as it is not valid YAML");
    }
    if s.frontmatter
        .name
        .as_deref()
        .is_none_or(|n| n.trim().is_empty())
    {
        s.frontmatter.name = Some(s.name.clone());
        used.push("its folder's name for the missing name");
    }
    (!used.is_empty()).then(|| format!("listed with {}", used.join(" and ")))
}

/// Whether Codex may list the skill for the model to pick: not when its `agents/openai.yaml`
/// says `policy.allow_implicit_invocation: false` (a file it cannot read or parse says nothing).
/// Only a skill whose resources hold that file is read.
pub fn implicit(s: &Skill) -> bool {
    if !s.resources.iter().any(|r| r.rel == POLICY_FILE) {
        return true;
    }
    let Ok(Some(bytes)) =
        crate::core::files::fsx::read_regular_up_to(&s.dir.join(POLICY_FILE), 1 << 20)
    else {
        return true;
    };
    let Ok(v) = serde_yaml::from_slice::<serde_yaml::Value>(&bytes) else {
        return true;
    };
    v.get("policy")
        .and_then(|p| p.get("allow_implicit_invocation"))
        .and_then(serde_yaml::Value::as_bool)
        != Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn load(root: &Path) -> Library {
        Library::load(
            vec![Root::new(root, Agent::Codex, Scope::User)],
            &ScanOptions::default(),
        )
    }

    #[test]
    fn dot_folders_and_other_spellings_are_not_read() {
        let t = tempfile::tempdir().unwrap();
        let fm = "---\nname: x\ndescription: d\n---\n";
        write(t.path(), "a/SKILL.md", fm);
        write(t.path(), ".hidden/b/SKILL.md", fm);
        write(t.path(), "c/skill.md", fm);
        let lib = load(t.path());
        let read: Vec<bool> = lib.skills.iter().map(reads).collect();
        let by = |d: &str| read[lib.skills.iter().position(|s| s.dir.ends_with(d)).unwrap()];
        assert!(by("a"));
        assert!(!by("b"));
        assert!(!by("c"));
    }

    #[test]
    fn the_policy_file_hides_a_skill_only_when_it_says_false() {
        let t = tempfile::tempdir().unwrap();
        let fm = "---\nname: x\ndescription: d\n---\n";
        for (dir, policy) in [
            ("off", Some("policy:\n  allow_implicit_invocation: false\n")),
            ("on", Some("policy:\n  allow_implicit_invocation: true\n")),
            (
                "text",
                Some("policy:\n  allow_implicit_invocation: \"false\"\n"),
            ),
            ("broken", Some("policy: [\n")),
            ("none", None),
        ] {
            write(t.path(), &format!("{dir}/SKILL.md"), fm);
            if let Some(p) = policy {
                write(t.path(), &format!("{dir}/agents/openai.yaml"), p);
            }
        }
        let lib = load(t.path());
        let hidden: Vec<String> = lib
            .skills
            .iter()
            .filter(|s| !implicit(s))
            .map(|s| s.dir_name().into_owned())
            .collect();
        assert_eq!(hidden, vec!["off"]);
    }

    #[test]
    fn invalid_yaml_is_read_line_by_line_and_a_missing_name_is_the_folders() {
        let t = tempfile::tempdir().unwrap();
        write(
            t.path(),
            "broken/SKILL.md",
            "---\nname: broken\ndescription: [unclosed\n---\n",
        );
        write(t.path(), "nameless/SKILL.md", "---\ndescription: D.\n---\n");
        write(t.path(), "bare/SKILL.md", "---\nname: bare\n---\n");
        write(
            t.path(),
            "open/SKILL.md",
            "---\nname: open\ndescription: D.\n",
        );
        let mut lib = load(t.path());
        let mut notes = std::collections::HashMap::new();
        for s in &mut lib.skills {
            notes.insert(s.dir_name().into_owned(), reading(s));
        }
        let get = |d: &str| lib.skills.iter().find(|s| s.dir.ends_with(d)).unwrap();
        assert!(get("broken").listable());
        assert_eq!(get("broken").frontmatter.description(), Some("[unclosed"));
        assert!(
            notes["broken"]
                .as_deref()
                .unwrap()
                .contains("not valid YAML")
        );
        assert!(get("nameless").listable());
        assert_eq!(
            get("nameless").frontmatter.name.as_deref(),
            Some("nameless")
        );
        assert!(
            notes["nameless"]
                .as_deref()
                .unwrap()
                .contains("folder's name")
        );
        assert!(!get("bare").listable());
        assert!(!get("open").listable());
        assert_eq!(notes["bare"], None);
    }

    #[test]
    fn only_one_file_reached_twice_is_one_skill() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join("a"), t.path().join("b"));
        write(&a, "dup/SKILL.md", "---\nname: dup\ndescription: A.\n---\n");
        write(&b, "dup/SKILL.md", "---\nname: dup\ndescription: B.\n---\n");
        crate::core::files::fsx::test_link(a.join("dup"), b.join("link")).unwrap();
        // A second name for it in its own root stays a skill of its own in the library.
        crate::core::files::fsx::test_link("dup", a.join("later")).unwrap();
        let lib = Library::load(
            vec![
                Root::new(&a, Agent::Codex, Scope::User),
                Root::new(&b, Agent::Codex, Scope::User),
            ],
            &ScanOptions::default(),
        );
        let member = vec![true; lib.len()];
        let shadow = same_file(&lib, &member);
        let by = |d: &str| lib.skills.iter().position(|s| s.dir.ends_with(d)).unwrap();
        assert_eq!(shadow[by("a/dup")], None);
        assert_eq!(shadow[by("b/dup")], None);
        assert_eq!(shadow[by("a/later")], Some(by("a/dup")));
        // Reached from another root, it is one skill already (`core::layout`), linked there.
        assert_eq!(lib.len(), 3);
        assert!(lib.skills[by("a/dup")].linked[0].dir.ends_with("b/link"));
    }
}
