//! Frontmatter rules: known fields per profile, name and description checks.

use super::Profile;
use crate::core::findings::catalogue::RuleId;
use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::skill::{Skill, SkillKind};
use crate::core::words::escape;
use crate::core::words::naming::kebab;
use crate::core::words::text::thousands;
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

/// The words of the description `new` writes when given none, which the
/// `description-placeholder` rule recognises: a skill is not done while they are in it.
pub const PLACEHOLDER: &str = "replace this sentence with what the skill does";

const SPEC_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "allowed-tools",
    "metadata",
    "compatibility",
];
const CLAUDE_FIELDS: &[&str] = &[
    "when_to_use",
    "argument-hint",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "context",
    "agent",
    "hooks",
    "paths",
    "version",
];

/// The fields Lazy Skills adds to the spec's.
pub const LAZY_FIELDS: &[&str] = &[
    "type",
    "entry",
    "triggers",
    "dependencies",
    "enabled",
    "auto_load",
    "when_to_use",
];

pub const MAX_NAME: usize = 64;
pub const MAX_DESCRIPTION: usize = 1024;
pub const MAX_COMPATIBILITY: usize = 500;

/// The fields Qwen Code 0.24.4 reads beyond the spec's (`parseSkillContent`, `NEW-AGENTS.md`).
const QWEN_FIELDS: &[&str] = &[
    "when_to_use",
    "disable-model-invocation",
    "user-invocable",
    "paths",
    "hooks",
    "priority",
];
/// The fields GitHub Copilot CLI 1.0.102 is seen to act on beyond the spec's.
const COPILOT_FIELDS: &[&str] = &["disable-model-invocation", "user-invocable"];
/// The fields Cline 3.0.65 reads beyond the spec's (`IX` in `@cline/core`).
const CLINE_FIELDS: &[&str] = &["disabled", "enabled"];
/// The fields OpenClaw 2026.9.6 reads beyond the spec's (`docs/tools/skills.md`).
const OPENCLAW_FIELDS: &[&str] = &["disable-model-invocation", "user-invocable", "homepage"];

fn known(profile: Profile, key: &str) -> bool {
    SPEC_FIELDS.contains(&key)
        || match profile {
            Profile::ClaudeCode => CLAUDE_FIELDS.contains(&key),
            Profile::LazySkills => LAZY_FIELDS.contains(&key),
            Profile::QwenCode => QWEN_FIELDS.contains(&key),
            Profile::Copilot => COPILOT_FIELDS.contains(&key),
            Profile::Cline => CLINE_FIELDS.contains(&key),
            Profile::Openclaw => OPENCLAW_FIELDS.contains(&key),
            Profile::Spec | Profile::Codex | Profile::Opencode => false,
        }
}

/// An unknown field: what the profile's agent does with it.
fn unknown_fields(skill: &Skill, profile: Profile, out: &mut Vec<Diagnostic>) {
    let fm = &skill.frontmatter;
    let unknown_sev = match profile {
        Profile::Spec | Profile::LazySkills => Severity::Error,
        Profile::Opencode => Severity::Info,
        _ => Severity::Warning,
    };
    let adr = super::context_provider::applies(skill, profile);
    for f in &fm.fields {
        let adr_field = adr && super::context_provider::known(&f.key);
        if !known(profile, &f.key) && !adr_field {
            let ignores;
            let what = match profile {
                Profile::Spec => {
                    "the spec allows only name, description, license, compatibility, metadata and allowed-tools; move it under `metadata:`"
                }
                Profile::ClaudeCode => {
                    "Claude Code ignores it; move it under `metadata:` or remove it"
                }
                Profile::Codex => "Codex ignores it; move it under `metadata:` or remove it",
                Profile::Opencode => "opencode ignores it",
                Profile::LazySkills => {
                    "Lazy Skills knows the spec's fields plus type, entry, triggers, dependencies, enabled, auto_load and when_to_use; move it under `metadata:`"
                }
                Profile::QwenCode | Profile::Copilot | Profile::Cline | Profile::Openclaw => {
                    ignores = format!(
                        "{} ignores it; move it under `metadata:` or remove it",
                        profile.agent_name().unwrap_or("the agent")
                    );
                    ignores.as_str()
                }
            };
            out.push(
                Diagnostic::new(
                    RuleId::UnknownField,
                    unknown_sev,
                    format!("unknown field `{}`: {what}", f.key),
                )
                .at(f.line, 1),
            );
        }
    }
}

/// `compatibility` over its limit.
fn compatibility_rule(
    fm: &crate::core::frontmatter::Frontmatter,
    profile: Profile,
    out: &mut Vec<Diagnostic>,
) {
    if let Some(f) = fm.get("compatibility")
        && let Some(c) = f.value.as_str()
    {
        let n = c.chars().count();
        if n > MAX_COMPATIBILITY {
            let sev = if matches!(profile, Profile::Spec | Profile::LazySkills) {
                Severity::Error
            } else {
                Severity::Warning
            };
            out.push(
                Diagnostic::new(
                    RuleId::CompatibilityTooLong,
                    sev,
                    format!(
                        "`compatibility` is {} characters: keep it under {}",
                        thousands(n as u64),
                        thousands(MAX_COMPATIBILITY as u64)
                    ),
                )
                .at(f.line, 1),
            );
        }
    }
}

pub fn check(skill: &Skill, profile: Profile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let fm = &skill.frontmatter;
    // Also on the values salvaged from a frontmatter that does not parse: they are shown.
    control_characters(skill, profile, &mut out);
    if !fm.parsed {
        return out;
    }
    unknown_fields(skill, profile, &mut out);
    if profile == Profile::Spec {
        for &line in &fm.flow_style_lines {
            out.push(
                Diagnostic::new(
                    RuleId::StrictYamlFlow,
                    Severity::Warning,
                    "flow-style YAML (`[a, b]` or `{a: b}`) is valid YAML, but the reference validator's strict parser rejects it: write the list or mapping in block style",
                )
                .at(line, 1),
            );
        }
    }
    // A command is named by its path, and Claude Code describes one without a description by
    // its first line (the fallback says so).
    if !skill.command {
        name_rules(skill, profile, &mut out);
    }
    if !skill.command || skill.frontmatter.get("description").is_some() {
        description_rules(skill, profile, &mut out);
    }
    compatibility_rule(fm, profile, &mut out);
    if skill.kind() == SkillKind::Executable {
        entry_rule(skill, profile, &mut out);
    } else if profile == Profile::LazySkills
        && skill.kind_source() == crate::core::skill::KindSource::Default
        && skill
            .resources
            .iter()
            .any(|r| r.rel == crate::core::skill::DEFAULT_ENTRY)
    {
        out.push(Diagnostic::new(
            RuleId::EntryUntyped,
            Severity::Warning,
            format!(
                "`{}` is here but the frontmatter has no `type: executable`: Lazy Skills keeps the \
                 skill contextual (its script is never registered as a tool); add `type: executable`",
                crate::core::skill::DEFAULT_ENTRY
            ),
        ));
    }
    out
}

/// An executable skill's entry script must be a regular file inside its folder: the probe and
/// the agent refuse anything else.
fn entry_rule(skill: &Skill, profile: Profile, out: &mut Vec<Diagnostic>) {
    let fm = &skill.frontmatter;
    let entry = fm
        .entry
        .as_deref()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or(crate::core::skill::DEFAULT_ENTRY);
    let why = match crate::core::resource::resolve_inside(&skill.dir, entry) {
        Ok(p) if p.is_file() => return,
        Ok(_) => format!("`{entry}` is not a file"),
        Err(crate::core::resource::ResourceError::NotFound(_)) => {
            format!("`{entry}` is not in the skill folder")
        }
        Err(e) => e.to_string(),
    };
    let because = match skill.kind_source() {
        crate::core::skill::KindSource::Entry => "`entry:` names a script",
        _ => "`type: executable`",
    };
    let sev = if profile == Profile::Spec {
        Severity::Warning
    } else {
        Severity::Error
    };
    out.push(
        Diagnostic::new(
            RuleId::ExecutableNoEntry,
            sev,
            format!(
                "{because} but {why}: add the entry script inside the skill folder or name it with `entry:`"
            ),
        )
        .at_line(fm.line_of("entry").or(fm.line_of("type"))),
    );
}

/// `s` in Unicode's NFKC form; ASCII text is its own (every skill is checked, most names are ASCII).
fn nfkc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.nfkc().collect())
    }
}

/// `s` lowercased; ASCII text without a capital is its own.
fn lowercase(s: &str) -> Cow<'_, str> {
    if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.to_lowercase())
    }
}

/// The name when there is one to judge; else `name-missing` (an error, or a warning for an
/// agent that lists the skill under its folder's name) and `None`.
fn named<'s>(skill: &'s Skill, profile: Profile, out: &mut Vec<Diagnostic>) -> Option<&'s str> {
    let fm = &skill.frontmatter;
    let line = fm.line_of("name");
    // Claude Code, Codex, Copilot, Cline and OpenClaw list a skill without a name under its
    // folder's name; Qwen Code skips it.
    let by_folder = match profile {
        Profile::ClaudeCode
        | Profile::Codex
        | Profile::Copilot
        | Profile::Cline
        | Profile::Openclaw => profile.agent_name(),
        _ => None,
    };
    match (&fm.name, fm.get("name")) {
        (_, None) => {
            let (severity, message) = match by_folder {
                Some(agent) => (
                    Severity::Warning,
                    format!(
                        "no `name` field: {agent} lists it under its folder's name (listed-by-fallback); add `name: {}` for the agents that need one",
                        skill.dir_name()
                    ),
                ),
                None => (
                    Severity::Error,
                    format!(
                        "no `name` field: add `name: {}` (the folder name)",
                        skill.dir_name()
                    ),
                ),
            };
            out.push(Diagnostic::new(RuleId::NameMissing, severity, message).at(1, 1));
            None
        }
        (Some(n), _) if !n.trim().is_empty() => Some(n),
        (_, Some(f)) => {
            if !f.value.is_array() && !f.value.is_object() {
                out.push(
                    Diagnostic::new(
                        RuleId::NameMissing,
                        Severity::Error,
                        format!("`name` is empty: write `name: {}`", skill.dir_name()),
                    )
                    .at_line(line),
                );
            }
            None
        }
    }
}

/// `name-format` and `name-hyphens`: the characters the profile's agents take; the name
/// lowercased.
fn name_characters<'n>(
    name: &'n str,
    profile: Profile,
    line: Option<u32>,
    out: &mut Vec<Diagnostic>,
) -> Cow<'n, str> {
    let suggestion = || kebab(name);
    // The spec admits any lowercase letter or digit; the agents' own loaders only ASCII.
    let ascii_only = !matches!(profile, Profile::Spec | Profile::LazySkills);
    // Lazy Skills keys skills by name and its own examples are snake_case (`web_scraper`).
    let underscore = profile == Profile::LazySkills;
    let bad_char = |c: char| {
        !(c == '-'
            || (underscore && c == '_')
            || if ascii_only {
                c.is_ascii_lowercase() || c.is_ascii_digit()
            } else {
                c.is_alphanumeric()
            })
    };
    let lower = lowercase(name);
    if name != lower || name.chars().any(bad_char) {
        out.push(
            Diagnostic::new(
                RuleId::NameFormat,
                if client_lists_name(profile, name) {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                format!(
                    "the name `{name}` must use only lowercase letters, digits and hyphens: write `{}`",
                    suggestion()
                ),
            )
            .at_line(line),
        );
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        out.push(
            Diagnostic::new(
                RuleId::NameHyphens,
                if client_lists_name(profile, name) {
                    Severity::Warning
                } else {
                    Severity::Error
                },
                format!(
                    "the name `{name}` starts or ends with a hyphen or has two in a row: write `{}`",
                    suggestion()
                ),
            )
            .at_line(line),
        );
    }
    lower
}

fn name_rules(skill: &Skill, profile: Profile, out: &mut Vec<Diagnostic>) {
    let fm = &skill.frontmatter;
    let line = fm.line_of("name");
    let Some(raw) = named(skill, profile, out) else {
        return;
    };
    let name = nfkc(raw.trim());
    let len = name.chars().count();
    if len > MAX_NAME {
        out.push(
            Diagnostic::new(
                RuleId::NameTooLong,
                Severity::Error,
                format!(
                    "the name is {} characters: shorten it to {MAX_NAME} or fewer",
                    thousands(len as u64)
                ),
            )
            .at_line(line),
        );
    }
    let lower = name_characters(&name, profile, line, out);
    let folder = skill.dir_name();
    let dir = nfkc(&folder);
    if dir != name {
        let sev = match profile {
            Profile::Spec | Profile::Opencode => Severity::Error,
            _ => Severity::Warning,
        };
        out.push(
            Diagnostic::new(
                RuleId::NameDirectory,
                sev,
                format!("the name `{name}` differs from its folder `{dir}`: rename one to match the other"),
            )
            .at_line(line),
        );
    }
    if let Some(word) = ["anthropic", "claude"]
        .into_iter()
        .find(|w| lower.contains(w))
    {
        // Claude Code lists such a skill (its own `claude-api` among them); the Claude API and
        // claude.ai refuse an upload of it.
        out.push(
            Diagnostic::new(
                RuleId::NameReserved,
                Severity::Warning,
                format!("the name holds the reserved word `{word}`: Claude Code lists it, but the Claude API and claude.ai refuse to upload it; choose another name to share it there"),
            )
            .at_line(line),
        );
    }
    if has_xml_tag(&name) {
        out.push(
            Diagnostic::new(
                RuleId::NameXml,
                Severity::Error,
                "the name holds an XML tag: remove it",
            )
            .at_line(line),
        );
    }
}

/// Whether the profile's client lists a skill under a name the spec refuses (capitals, other
/// characters, stray hyphens): Copilot, Cline and OpenClaw list it as written (their captures
/// list `UpperCase-Skill`); Qwen Code takes any letters, digits, `_`, `:`, `.` and `-`
/// (`validateSkillName`). Such a name is then a warning, not an error.
fn client_lists_name(profile: Profile, name: &str) -> bool {
    match profile {
        Profile::Copilot | Profile::Cline | Profile::Openclaw => true,
        Profile::QwenCode => name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-')),
        _ => false,
    }
}

/// Control and bidi characters in what agents list and terminals show: the name, the description,
/// `when_to_use` and the folder name.
fn control_characters(skill: &Skill, profile: Profile, out: &mut Vec<Diagnostic>) {
    let fm = &skill.frontmatter;
    let dir = skill.dir_name();
    // The folder is named apart only when the name does not already repeat it.
    let folder = (fm.name.as_deref() != Some(dir.as_ref())).then_some(dir.as_ref());
    let fields = [
        ("name", fm.name.as_deref(), fm.line_of("name")),
        ("description", fm.description(), fm.line_of("description")),
        (
            "when_to_use",
            fm.when_to_use.as_deref(),
            fm.line_of("when_to_use"),
        ),
        ("folder name", folder, None),
    ];
    for (what, value, line) in fields {
        // A description may span lines (block scalars) and hold tabs: those are fine.
        let multi_line = matches!(what, "description" | "when_to_use");
        // Printable ASCII (and a description's line breaks and tabs) holds no hazard: most
        // values are, and every skill is checked.
        let plain = |v: &str| {
            v.bytes()
                .all(|b| matches!(b, b' '..=b'~') || (multi_line && matches!(b, b'\n' | b'\t')))
        };
        let found = value.filter(|v| !plain(v)).and_then(|v| {
            v.chars()
                .enumerate()
                .find(|&(_, c)| escape::is_hazard(c) && !(multi_line && matches!(c, '\n' | '\t')))
        });
        let Some((at, c)) = found else { continue };
        let bidi = escape::is_bidi(c);
        // The reference validator accepts them, and `spec` keeps its verdicts; the agents copy
        // them into their system prompt, where a control character breaks the XML listing.
        let severity = match profile {
            Profile::Spec => Severity::Warning,
            _ if bidi => Severity::Warning,
            _ => Severity::Error,
        };
        let kind = if bidi {
            "a bidirectional control, which makes text read differently from what it holds"
        } else if c < ' ' {
            "a control character, which terminals act on and XML 1.0 forbids"
        } else {
            "a control character, which terminals may act on"
        };
        let mut d = Diagnostic::new(
            RuleId::ControlCharacter,
            severity,
            format!(
                "the {what} holds U+{:04X} at character {}: {kind}; remove it",
                u32::from(c),
                at + 1
            ),
        );
        if let Some(l) = line {
            d = d.at(l, 1);
        }
        out.push(d);
    }
}

fn has_xml_tag(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        c == b'<'
            && b.get(i + 1)
                .is_some_and(|&n| n.is_ascii_alphabetic() || n == b'/')
            && s[i..].contains('>')
    })
}

/// Words of the first person, which a description addressed to the model should not use.
const FIRST_PERSON: &[&str] = &["i", "i'm", "i'll", "i've", "me", "my", "we", "we'll", "our"];

const CUES: &[&str] = &[
    "when", "whenever", "if", "use", "used", "for", "trigger", "triggers", "asks", "ask", "needs",
    "need", "wants",
];

/// Verbs that say what a skill does ("Analyze", "extracts", "detecting"), compared by their
/// light stem. The Lazy Skills design's advice for a description that triggers well: "Include
/// specific technologies, action verbs, and domain terms users might mention" (design 000).
const ACTION_VERBS: &[&str] = &[
    "analyze",
    "analyse",
    "annotate",
    "audit",
    "automate",
    "benchmark",
    "build",
    "calculate",
    "check",
    "classify",
    "clean",
    "compare",
    "compile",
    "compose",
    "compress",
    "compute",
    "configure",
    "convert",
    "crawl",
    "create",
    "debug",
    "decrypt",
    "deploy",
    "detect",
    "diagnose",
    "diff",
    "download",
    "draft",
    "edit",
    "encrypt",
    "estimate",
    "explain",
    "export",
    "extract",
    "fetch",
    "fill",
    "find",
    "fix",
    "format",
    "generate",
    "import",
    "index",
    "inspect",
    "install",
    "lint",
    "list",
    "manage",
    "measure",
    "merge",
    "migrate",
    "monitor",
    "optimize",
    "organize",
    "parse",
    "plan",
    "plot",
    "profile",
    "publish",
    "query",
    "refactor",
    "render",
    "resize",
    "restore",
    "review",
    "rewrite",
    "run",
    "scaffold",
    "scan",
    "schedule",
    "scrape",
    "search",
    "send",
    "sign",
    "split",
    "suggest",
    "summarize",
    "sync",
    "test",
    "track",
    "transcribe",
    "transform",
    "translate",
    "update",
    "upload",
    "validate",
    "verify",
    "visualize",
    "write",
];

/// Whether a description is concrete without a "when" cue: at least two action verbs, and four
/// verbs and named terms together. A named term is a technology or format as its makers write it
/// (`PostgreSQL`, `MySQL`, `PDF`, `S3`) or a capitalised word inside a sentence (`Kubernetes`).
/// The design's "Best" description ("Analyze PostgreSQL/MySQL schemas, detect normalization
/// violations, suggest foreign keys and indexes") has three verbs and two named terms.
fn concrete(desc: &str) -> bool {
    static VERBS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let verbs = VERBS.get_or_init(|| {
        let mut v: Vec<String> = ACTION_VERBS
            .iter()
            .map(|w| crate::core::matching::text::stem(w))
            .collect();
        v.sort();
        v.dedup();
        v
    });
    let (mut found_verbs, mut named): (Vec<String>, usize) = (Vec::new(), 0);
    let mut sentence_start = true;
    let mut rest = desc;
    while let Some(start) = rest.find(|c: char| c.is_alphanumeric()) {
        let before = &rest[..start];
        if before.contains(['.', '!', '?', ':', ';', '\n']) {
            sentence_start = true;
        }
        let len = rest[start..]
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        rest = &rest[start + len..];
        let upper_inside = word.chars().skip(1).any(char::is_uppercase);
        let mixed_digits =
            word.chars().any(|c| c.is_ascii_digit()) && word.chars().any(char::is_alphabetic);
        let capitalised = word.chars().next().is_some_and(char::is_uppercase);
        if upper_inside || mixed_digits || (capitalised && !sentence_start) {
            named += 1;
        } else {
            let st = crate::core::matching::text::stem(&word.to_lowercase());
            if verbs.binary_search(&st).is_ok() && !found_verbs.contains(&st) {
                found_verbs.push(st);
            }
        }
        sentence_start = false;
    }
    found_verbs.len() >= 2 && found_verbs.len() + named >= 4
}

/// A description's word count, whether it holds a cue word ("use when…"), and whether its first
/// words speak in the first person. One pass over the words, nothing collected: every skill is
/// checked. A word is compared lowercased; an ASCII one (nearly all) without allocating.
fn description_words(desc: &str) -> (usize, bool, bool) {
    let is_one_of = |w: &str, set: &[&str]| {
        if w.is_ascii() {
            set.iter().any(|c| c.eq_ignore_ascii_case(w))
        } else {
            let lower = w.to_lowercase();
            set.contains(&lower.as_str())
        }
    };
    let (mut words, mut cue_word, mut first_person) = (0usize, false, false);
    for w in desc
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
    {
        cue_word = cue_word || is_one_of(w, CUES);
        first_person = first_person || (words < 12 && is_one_of(w, FIRST_PERSON));
        words += 1;
    }
    (words, cue_word, first_person)
}

/// The description's text; `None`, with the finding, when it is missing or empty (Claude Code
/// and Copilot fall back on the body, Cline needs none).
fn description_text<'s>(
    skill: &'s Skill,
    profile: Profile,
    out: &mut Vec<Diagnostic>,
) -> Option<&'s str> {
    let fm = &skill.frontmatter;
    let line = fm.line_of("description");
    // Claude Code lists a skill without a description under its body's first line, Copilot
    // under its first two paragraphs; Cline lists names only and needs none.
    let (severity, fallback) = match profile {
        Profile::ClaudeCode => (
            Severity::Warning,
            ": Claude Code lists it under the first line of its body (listed-by-fallback)",
        ),
        Profile::Copilot => (
            Severity::Warning,
            ": GitHub Copilot CLI lists it under the first two paragraphs of its body (listed-by-fallback)",
        ),
        Profile::Cline => (
            Severity::Warning,
            ": Cline lists skills by name alone and loads it, but the other agents skip it",
        ),
        _ => (Severity::Error, ""),
    };
    let Some(field) = fm.get("description") else {
        out.push(
            Diagnostic::new(
                RuleId::DescriptionMissing,
                severity,
                format!(
                    "no `description` field{fallback}; add one saying what the skill does and when to use it"
                ),
            )
            .at(1, 1),
        );
        return None;
    };
    match fm.description() {
        Some(d) if !d.trim().is_empty() => Some(d),
        _ => {
            if !field.value.is_array() && !field.value.is_object() {
                out.push(
                    Diagnostic::new(
                        RuleId::DescriptionMissing,
                        severity,
                        format!(
                            "`description` is empty{fallback}; say what the skill does and when to use it"
                        ),
                    )
                    .at_line(line),
                );
            }
            None
        }
    }
}

fn description_rules(skill: &Skill, profile: Profile, out: &mut Vec<Diagnostic>) {
    let fm = &skill.frontmatter;
    let line = fm.line_of("description");
    let Some(desc) = description_text(skill, profile, out) else {
        return;
    };
    let len = desc.chars().count();
    if len > MAX_DESCRIPTION {
        // Claude Code lists a longer description in full (its listing budget cuts it, not its
        // reader): the spec's limit is a warning there, an error where the skill is refused.
        let sev = if profile == Profile::ClaudeCode {
            Severity::Warning
        } else {
            Severity::Error
        };
        out.push(
            Diagnostic::new(
                RuleId::DescriptionTooLong,
                sev,
                format!(
                    "the description is {} characters: cut it to {} or fewer (it is paid on every turn)",
                    thousands(len as u64),
                    thousands(MAX_DESCRIPTION as u64)
                ),
            )
            .at_line(line),
        );
    }
    if has_xml_tag(desc) || desc.contains('<') || desc.contains('>') {
        let sev = if profile == Profile::ClaudeCode {
            Severity::Error
        } else {
            Severity::Warning
        };
        out.push(
            Diagnostic::new(
                RuleId::DescriptionXml,
                sev,
                "the description holds angle brackets or XML tags, which break XML listings: reword without `<` and `>`",
            )
            .at_line(line),
        );
    }
    if desc.contains(PLACEHOLDER) {
        out.push(
            Diagnostic::new(
                RuleId::DescriptionPlaceholder,
                Severity::Error,
                "the description is still the placeholder `skillscope new` wrote: say what the skill does and when to use it",
            )
            .at_line(line),
        );
    }
    let (words, cue_word, first_person) = description_words(desc);
    let cue = cue_word || fm.when_to_use.is_some() || !fm.triggers.is_empty();
    if words < 6 || (!cue && words < 40 && !concrete(desc)) {
        let why = if words < 6 {
            format!("only {words} words")
        } else {
            "no cue saying when to use it".to_string()
        };
        out.push(
            Diagnostic::new(
                RuleId::DescriptionGeneric,
                Severity::Warning,
                format!(
                    "the description is too vague to trigger well ({why}): say what it does with concrete nouns and add \"Use when …\""
                ),
            )
            .at_line(line),
        );
    }
    if first_person {
        out.push(
            Diagnostic::new(
                RuleId::DescriptionFirstPerson,
                Severity::Warning,
                "the description speaks in the first person: the listing is read by the model, so write in the third person (\"Extracts…\", \"Use when…\")",
            )
            .at_line(line),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::frontmatter;
    use crate::core::source::{Agent, Root, Scope};
    use std::path::PathBuf;

    fn skill(dir: &str, text: &str) -> Skill {
        let p = frontmatter::parse(text.as_bytes(), true);
        let d = PathBuf::from("/lib").join(dir);
        let root = Root::new("/lib", Agent::Path, Scope::Path);
        Skill {
            name: p.frontmatter.name.clone().unwrap_or_default(),
            frontmatter: p.frontmatter,
            parse_diagnostics: p.diagnostics,
            body_line: p.layout.body_line,
            body_offset: p.layout.body_offset as u64,
            ..Skill::new(&root, d.clone(), d.join("SKILL.md"))
        }
    }

    fn ids(d: &[Diagnostic]) -> Vec<(&'static str, Severity)> {
        d.iter().map(|d| (d.rule.as_str(), d.severity)).collect()
    }

    const GOOD: &str =
        "Extracts text and tables from PDF files. Use when the user asks about a PDF.";

    #[test]
    fn a_good_skill_has_no_findings() {
        let s = skill(
            "pdf",
            &format!("---\nname: pdf\ndescription: {GOOD}\n---\n"),
        );
        for &p in Profile::ALL {
            assert_eq!(ids(&check(&s, p)), vec![], "{p}");
        }
    }

    #[test]
    fn name_rules_name_the_fix() {
        let s = skill(
            "Pdf Tool",
            &format!("---\nname: Pdf Tool\ndescription: {GOOD}\n---\n"),
        );
        let d = check(&s, Profile::Spec);
        assert_eq!(ids(&d), vec![("name-format", Severity::Error)]);
        assert!(d[0].message.contains("`pdf-tool`"), "{}", d[0].message);
        assert_eq!(d[0].line, Some(2));
        let s = skill(
            "x",
            &format!("---\nname: -claude--x\ndescription: {GOOD}\n---\n"),
        );
        assert_eq!(
            ids(&check(&s, Profile::ClaudeCode)),
            vec![
                ("name-hyphens", Severity::Error),
                ("name-directory", Severity::Warning),
                // Claude Code lists it (its own `claude-api` too): the API's refusal is a warning.
                ("name-reserved", Severity::Warning)
            ]
        );
    }

    #[test]
    fn unicode_names_pass_the_spec_but_not_the_agents() {
        let s = skill(
            "données",
            &format!("---\nname: données\ndescription: {GOOD}\n---\n"),
        );
        assert!(check(&s, Profile::Spec).is_empty());
        assert_eq!(
            ids(&check(&s, Profile::ClaudeCode)),
            vec![("name-format", Severity::Error)]
        );
    }

    #[test]
    fn unknown_fields_depend_on_the_profile() {
        let s = skill(
            "pdf",
            &format!("---\nname: pdf\ndescription: {GOOD}\nwhen_to_use: x\nmcp: [rube]\n---\n"),
        );
        assert_eq!(
            ids(&check(&s, Profile::Spec)),
            vec![
                ("unknown-field", Severity::Error),
                ("unknown-field", Severity::Error),
                ("strict-yaml-flow", Severity::Warning)
            ]
        );
        assert_eq!(
            ids(&check(&s, Profile::ClaudeCode)),
            vec![("unknown-field", Severity::Warning)]
        );
        assert_eq!(
            ids(&check(&s, Profile::Opencode)),
            vec![
                ("unknown-field", Severity::Info),
                ("unknown-field", Severity::Info)
            ]
        );
    }

    #[test]
    fn description_rules() {
        let long = "word ".repeat(300);
        let s = skill(
            "pdf",
            &format!("---\nname: pdf\ndescription: {long}\n---\n"),
        );
        assert!(
            ids(&check(&s, Profile::Spec)).contains(&("description-too-long", Severity::Error))
        );
        let s = skill("pdf", "---\nname: pdf\ndescription: PDF helper\n---\n");
        assert_eq!(
            ids(&check(&s, Profile::Spec)),
            vec![("description-generic", Severity::Warning)]
        );
        let s = skill(
            "pdf",
            "---\nname: pdf\ndescription: I can read <b>PDF</b> files when you ask me to.\n---\n",
        );
        assert_eq!(
            ids(&check(&s, Profile::ClaudeCode)),
            vec![
                ("description-xml", Severity::Error),
                ("description-first-person", Severity::Warning)
            ]
        );
        let s = skill("pdf", "---\nname: pdf\ndescription: \"\"\n---\n");
        assert_eq!(
            ids(&check(&s, Profile::Spec)),
            vec![("description-missing", Severity::Error)]
        );
    }

    /// The Lazy Skills design's three descriptions ("The description field is critical",
    /// design 000), each with its own name.
    #[test]
    fn the_lazy_skills_designs_good_and_best_descriptions_pass_and_its_bad_one_does_not() {
        let generic = |name: &str, desc: &str| {
            let s = skill(
                name,
                &format!("---\nname: {name}\ndescription: {desc}\n---\n"),
            );
            check(&s, Profile::LazySkills)
                .iter()
                .any(|d| d.rule == RuleId::DescriptionGeneric)
        };
        assert!(!generic(
            "database_schema_analyzer",
            "Analyze database schemas for normalization issues and suggest improvements"
        ));
        assert!(!generic(
            "database_schema_analyzer",
            "Analyze PostgreSQL/MySQL schemas, detect normalization violations, suggest foreign keys and indexes"
        ));
        assert!(generic("db_tool", "Database utility"));
    }

    #[test]
    fn verbs_alone_or_names_alone_are_not_concrete() {
        assert!(concrete(
            "Analyze PostgreSQL/MySQL schemas, detect normalization violations, suggest foreign keys and indexes"
        ));
        // One verb and a capitalised first word: still vague.
        assert!(!concrete(
            "Helps with Many things around the house and garden today"
        ));
        assert!(!concrete(
            "Analyze things and suggest stuff to people in general"
        ));
        assert!(!concrete(
            "PostgreSQL MySQL Redis Kafka tooling of every kind"
        ));
        assert!(concrete(
            "Extracts tables from PDF files, merges them and converts to CSV"
        ));
    }

    #[test]
    fn executable_without_entry() {
        let s = skill(
            "tool",
            &format!("---\nname: tool\ndescription: {GOOD}\ntype: executable\n---\n"),
        );
        assert!(
            ids(&check(&s, Profile::ClaudeCode))
                .contains(&("executable-no-entry", Severity::Error))
        );
    }

    #[test]
    fn control_and_bidi_characters_are_reported_per_profile() {
        let s = skill(
            "evil",
            &format!(
                "---\nname: evil\ndescription: \"{GOOD} \\e]0;pwned\\a\"\nwhen_to_use: \"a\\u202Eb\"\n---\n"
            ),
        );
        let found = |p| {
            check(&s, p)
                .into_iter()
                .filter(|d| d.rule == "control-character")
                .map(|d| (d.severity, d.line, d.message))
                .collect::<Vec<_>>()
        };
        let cc = found(Profile::ClaudeCode);
        assert_eq!(cc.len(), 2, "{cc:?}");
        assert_eq!((cc[0].0, cc[0].1), (Severity::Error, Some(3)));
        assert!(cc[0].2.contains("U+001B at character 78"), "{}", cc[0].2);
        assert_eq!((cc[1].0, cc[1].1), (Severity::Warning, Some(4)));
        assert!(cc[0].2.contains("XML 1.0 forbids"), "{}", cc[0].2);
        assert!(cc[1].2.contains("U+202E"), "{}", cc[1].2);
        assert!(
            found(Profile::Spec)
                .iter()
                .all(|d| d.0 == Severity::Warning)
        );

        // Line breaks and tabs of a block scalar are not control characters here.
        let s = skill(
            "pdf",
            &format!("---\nname: pdf\ndescription: |\n  {GOOD}\n  \tMore.\n---\n"),
        );
        assert!(
            !check(&s, Profile::Spec)
                .iter()
                .any(|d| d.rule == "control-character")
        );

        // A folder name with ESC, a name salvaged from YAML that does not parse.
        let s = skill("x\x1b[2J", "---\nname: ok\x07\ndescription: a: b\n---\n");
        let d: Vec<_> = check(&s, Profile::Spec)
            .into_iter()
            .filter(|d| d.rule == "control-character")
            .map(|d| d.message)
            .collect();
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].starts_with("the name holds U+0007"), "{d:?}");
        assert!(d[1].starts_with("the folder name holds U+001B"), "{d:?}");
    }

    #[test]
    fn kebab_suggestions() {
        assert_eq!(kebab("Agent Wallet"), "agent-wallet");
        assert_eq!(kebab("SEO_Optimizer!"), "seo-optimizer");
    }
}
