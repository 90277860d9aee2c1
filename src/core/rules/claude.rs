//! Claude Code rules: the values of the fields only Claude Code reads (`context`, `model`),
//! which it would otherwise ignore or refuse without a word.

use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::frontmatter::compact;
use crate::core::skill::Skill;

/// `context:` runs the skill inline (the default) or in a forked sub-agent.
const CONTEXTS: [&str; 2] = ["inline", "fork"];
/// `model:` takes an alias, `inherit`, or a full Claude model id (`claude-…`).
const MODEL_ALIASES: [&str; 6] = ["inherit", "sonnet", "opus", "haiku", "opusplan", "default"];

pub fn check(skill: &Skill) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let fm = &skill.frontmatter;
    if !fm.parsed {
        return out;
    }
    if let Some(f) = fm.get("context") {
        let ok = f.value.as_str().is_some_and(|v| CONTEXTS.contains(&v));
        if !ok {
            out.push(
                Diagnostic::new(
                    RuleId::FieldValue,
                    Severity::Warning,
                    format!(
                        "`context: {}` is not one Claude Code knows: write `context: inline` or `context: fork`",
                        compact(&f.value)
                    ),
                )
                .at(f.line, 1),
            );
        }
    }
    if let Some(f) = fm.get("model") {
        let ok = f
            .value
            .as_str()
            .is_some_and(|v| MODEL_ALIASES.contains(&v) || v.starts_with("claude-"));
        if !ok {
            out.push(
                Diagnostic::new(
                    RuleId::FieldValue,
                    Severity::Warning,
                    format!(
                        "`model: {}` is not a Claude model: write an alias (sonnet, opus, haiku), `inherit`, or a model id such as `claude-sonnet-4-5`",
                        compact(&f.value)
                    ),
                )
                .at(f.line, 1),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(frontmatter: &str) -> Skill {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("s");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), format!("---\n{frontmatter}\n---\n")).unwrap();
        let lib = crate::core::Library::load(
            vec![crate::core::Root::new(
                &dir,
                crate::core::Agent::Path,
                crate::core::Scope::Path,
            )],
            &crate::core::scan::ScanOptions::default(),
        );
        lib.skills[0].clone()
    }

    #[test]
    fn context_and_model_values_are_checked() {
        let bad = skill("name: s\ndescription: d\ncontext: banana\nmodel: gpt-4");
        let found: Vec<String> = check(&bad).into_iter().map(|d| d.message).collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("context: banana"), "{found:?}");
        assert!(found[1].contains("model: gpt-4"), "{found:?}");
        let good = skill("name: s\ndescription: d\ncontext: fork\nmodel: claude-opus-4-1");
        assert!(check(&good).is_empty());
        let alias = skill("name: s\ndescription: d\nmodel: sonnet");
        assert!(check(&alias).is_empty());
    }
}
