//! Validation rules: stable ids, severities per agent profile, messages that name the fix.

mod body;
mod fields;
mod library;
pub mod overlap;

use crate::core::diagnostic::{Diagnostic, Severity};
use crate::core::library::Library;
use crate::core::skill::Skill;
use crate::core::tokens::{Encoding, TokenCache};
use rayon::prelude::*;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whose rules to apply. Each agent accepts a different set of fields and judges names and
/// descriptions differently; `spec` gives the verdicts of the agentskills.io reference validator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    #[default]
    Spec,
    ClaudeCode,
    Codex,
    Opencode,
}

impl Profile {
    pub const ALL: [Profile; 4] = [
        Profile::Spec,
        Profile::ClaudeCode,
        Profile::Codex,
        Profile::Opencode,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Spec => "spec",
            Profile::ClaudeCode => "claude-code",
            Profile::Codex => "codex",
            Profile::Opencode => "opencode",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("unknown profile `{0}`: use spec, claude-code, codex or opencode")]
pub struct UnknownProfile(String);

impl FromStr for Profile {
    type Err = UnknownProfile;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

/// A rule of the catalogue: its id, family and what it checks.
#[derive(Debug, Clone, Copy)]
pub struct RuleInfo {
    pub id: &'static str,
    pub family: &'static str,
    pub summary: &'static str,
}

/// Every rule id skillscope reports, for documentation, SARIF and the TUI.
pub const RULES: &[RuleInfo] = &[
    RuleInfo {
        id: "file-empty",
        family: "file",
        summary: "SKILL.md is empty",
    },
    RuleInfo {
        id: "file-unreadable",
        family: "file",
        summary: "SKILL.md cannot be read",
    },
    RuleInfo {
        id: "file-not-utf8",
        family: "file",
        summary: "SKILL.md is not valid UTF-8",
    },
    RuleInfo {
        id: "file-nul-bytes",
        family: "file",
        summary: "the frontmatter holds NUL bytes",
    },
    RuleInfo {
        id: "file-bom",
        family: "file",
        summary: "the file starts with a byte-order mark",
    },
    RuleInfo {
        id: "skill-file-name",
        family: "file",
        summary: "the skill file is not spelled SKILL.md",
    },
    RuleInfo {
        id: "skill-file-not-regular",
        family: "file",
        summary: "SKILL.md is a pipe, socket or device",
    },
    RuleInfo {
        id: "root-missing",
        family: "file",
        summary: "a folder given to read does not exist",
    },
    RuleInfo {
        id: "root-not-a-folder",
        family: "file",
        summary: "a path given to read is neither a folder nor a SKILL.md",
    },
    RuleInfo {
        id: "symlink-cycle",
        family: "file",
        summary: "a symlink leads back to a folder above it",
    },
    RuleInfo {
        id: "walk-error",
        family: "file",
        summary: "a folder or link could not be read",
    },
    RuleInfo {
        id: "skill-file-duplicate",
        family: "file",
        summary: "SKILL.md and skill.md side by side",
    },
    RuleInfo {
        id: "frontmatter-missing",
        family: "frontmatter",
        summary: "no `---` frontmatter block",
    },
    RuleInfo {
        id: "frontmatter-unterminated",
        family: "frontmatter",
        summary: "the frontmatter is never closed",
    },
    RuleInfo {
        id: "frontmatter-leading-blank",
        family: "frontmatter",
        summary: "blank lines before the opening `---`",
    },
    RuleInfo {
        id: "frontmatter-not-mapping",
        family: "frontmatter",
        summary: "the frontmatter is not `key: value` lines",
    },
    RuleInfo {
        id: "yaml-invalid",
        family: "frontmatter",
        summary: "the frontmatter is not valid YAML",
    },
    RuleInfo {
        id: "strict-yaml-flow",
        family: "frontmatter",
        summary: "flow-style YAML the reference validator's strict parser rejects",
    },
    RuleInfo {
        id: "yaml-coerced-scalar",
        family: "frontmatter",
        summary: "a text field YAML reads as a number or boolean",
    },
    RuleInfo {
        id: "field-type",
        family: "frontmatter",
        summary: "a known field has the wrong type",
    },
    RuleInfo {
        id: "field-value",
        family: "frontmatter",
        summary: "a known field has an unknown value",
    },
    RuleInfo {
        id: "unknown-field",
        family: "frontmatter",
        summary: "a field the profile does not know",
    },
    RuleInfo {
        id: "compatibility-too-long",
        family: "frontmatter",
        summary: "`compatibility` over 500 characters",
    },
    RuleInfo {
        id: "name-missing",
        family: "name",
        summary: "no `name` field",
    },
    RuleInfo {
        id: "name-too-long",
        family: "name",
        summary: "name over 64 characters",
    },
    RuleInfo {
        id: "name-format",
        family: "name",
        summary: "name not lowercase letters, digits and hyphens",
    },
    RuleInfo {
        id: "name-hyphens",
        family: "name",
        summary: "leading, trailing or double hyphen",
    },
    RuleInfo {
        id: "name-directory",
        family: "name",
        summary: "name differs from the folder name",
    },
    RuleInfo {
        id: "name-reserved",
        family: "name",
        summary: "name holds a reserved word",
    },
    RuleInfo {
        id: "name-xml",
        family: "name",
        summary: "name holds XML tags",
    },
    RuleInfo {
        id: "description-missing",
        family: "description",
        summary: "no or empty `description`",
    },
    RuleInfo {
        id: "description-too-long",
        family: "description",
        summary: "description over 1,024 characters",
    },
    RuleInfo {
        id: "description-xml",
        family: "description",
        summary: "description holds XML tags or angle brackets",
    },
    RuleInfo {
        id: "description-generic",
        family: "description",
        summary: "description too vague to trigger well",
    },
    RuleInfo {
        id: "description-first-person",
        family: "description",
        summary: "description written in the first person",
    },
    RuleInfo {
        id: "body-too-long",
        family: "body",
        summary: "body over 500 lines or 5,000 tokens",
    },
    RuleInfo {
        id: "body-broken-link",
        family: "body",
        summary: "a link to a file that does not exist",
    },
    RuleInfo {
        id: "body-nested-reference",
        family: "body",
        summary: "references nested more than one level deep",
    },
    RuleInfo {
        id: "body-unreadable",
        family: "body",
        summary: "the body cannot be read",
    },
    RuleInfo {
        id: "duplicate-name",
        family: "library",
        summary: "two skills with the same name",
    },
    RuleInfo {
        id: "shadowed",
        family: "library",
        summary: "another skill of the same name wins",
    },
    RuleInfo {
        id: "overlap",
        family: "library",
        summary: "descriptions that compete for the same messages",
    },
    RuleInfo {
        id: "executable-no-entry",
        family: "executable",
        summary: "`type: executable` without its entry script",
    },
    RuleInfo {
        id: "script-not-executable",
        family: "executable",
        summary: "a script without its run bit",
    },
    RuleInfo {
        id: "script-no-interpreter",
        family: "executable",
        summary: "a script whose interpreter is missing",
    },
    RuleInfo {
        id: "script-no-shebang",
        family: "executable",
        summary: "a script without a `#!` line",
    },
];

pub fn rule_info(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.id == id)
}

/// What a check run may do beyond reading frontmatter.
#[derive(Clone, Copy, Default)]
pub struct CheckOptions<'a> {
    pub profile: Profile,
    /// Read bodies for the body rules (length, links, nesting).
    pub body: bool,
    /// The encoding and token cache for the body's 5,000-token limit (counted no further than
    /// that); without them only lines are checked.
    pub tokens: Option<(Encoding, &'a TokenCache)>,
    /// Which skills are switched on (all when `None`): only those compete in the overlap rule.
    pub enabled: Option<&'a (dyn Fn(usize) -> bool + Sync)>,
}

/// Every diagnostic of every skill (index-aligned with `lib.skills`), sorted by line.
pub fn check_library(lib: &Library, opts: &CheckOptions) -> Vec<Vec<Diagnostic>> {
    let learned = AtomicBool::new(false);
    let mut all: Vec<Vec<Diagnostic>> = lib
        .skills
        .par_iter()
        .map(|s| {
            let mut d = check_skill(s, opts.profile);
            if opts.body {
                let (found, new) = body::check(s, opts.profile, opts.tokens);
                d.extend(found);
                if new {
                    learned.store(true, Ordering::Relaxed);
                }
            }
            d
        })
        .collect();
    if learned.into_inner() {
        lib.index_changed();
    }
    let enabled = |i: usize| opts.enabled.is_none_or(|f| f(i));
    // The overlap rule weighs every description against the others: its findings are kept in
    // the library index for as long as the descriptions (and who competes) stay the same.
    let key = overlap::input_key(lib, &enabled);
    let found = lib.remembered(&key).unwrap_or_else(|| {
        let found = overlap::diagnostics(lib, &enabled);
        lib.remember(key, &found);
        found
    });
    for (i, d) in found {
        if let Some(slot) = all.get_mut(i) {
            slot.push(d);
        }
    }
    for (i, d) in library::check(lib, opts.profile) {
        all[i].push(d);
    }
    for d in &mut all {
        d.sort_by_key(|d| (d.line.unwrap_or(0), std::cmp::Reverse(d.severity)));
    }
    all
}

/// The diagnostics of one skill that need nothing but its frontmatter.
pub fn check_skill(skill: &Skill, profile: Profile) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = skill
        .parse_diagnostics
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.severity = parse_severity(skill, &d, profile);
            d
        })
        .collect();
    out.extend(fields::check(skill, profile));
    out
}

/// Parse findings are the same for every profile; how much they matter is not. The reference
/// validator reads the file as it is, so what other agents forgive (a BOM, blank lines before the
/// frontmatter) makes it fail.
fn parse_severity(skill: &Skill, d: &Diagnostic, profile: Profile) -> Severity {
    match (d.rule, profile) {
        ("file-bom" | "frontmatter-leading-blank", Profile::Spec) => Severity::Error,
        ("field-type", Profile::Spec) => {
            let strict = ["name", "description", "compatibility"]
                .iter()
                .any(|k| skill.frontmatter.line_of(k) == d.line);
            if strict {
                Severity::Error
            } else {
                Severity::Warning
            }
        }
        ("skill-file-name", Profile::Opencode | Profile::Codex | Profile::ClaudeCode) => {
            Severity::Error
        }
        _ => d.severity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_id_is_unique_and_kebab_case() {
        let mut ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        ids.sort();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len());
        assert!(ids.iter().all(|i| {
            i.chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c.is_ascii_digit())
        }));
    }

    #[test]
    fn profiles_parse_by_name() {
        for p in Profile::ALL {
            assert_eq!(p.as_str().parse::<Profile>().unwrap(), p);
        }
        assert!("claude".parse::<Profile>().is_err());
    }
}
