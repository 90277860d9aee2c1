//! The rule catalogue: every rule id skillscope can report, with its family, its severity under
//! each agent profile and what it finds. Ids exist only as [`RuleId`] values, each defined here
//! once with its entry, so no reported id can be missing from the catalogue; `docs/rules.md` is
//! generated from it.

use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How much a finding matters.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; shown with `--verbose`.
    Info,
    /// Worth fixing.
    Warning,
    /// Breaks the skill for the profile; `check` exits 1.
    Error,
}

impl Severity {
    /// Its name in reports and JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whose rules to apply. Each agent accepts a different set of fields and judges names and
/// descriptions differently; `spec` gives the verdicts of the agentskills.io reference validator.
/// Its variants, in order, are [`Profile::ALL`]; its name is the variant's in kebab case unless
/// given.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    strum::VariantArray,
    strum::IntoStaticStr,
    strum::Display,
)]
#[strum(serialize_all = "kebab-case")]
pub enum Profile {
    /// The Agent Skills specification.
    #[default]
    Spec,
    /// Claude Code's own reading of skills.
    ClaudeCode,
    /// Codex's own reading of skills.
    Codex,
    /// opencode's own reading of skills.
    Opencode,
    /// The spec plus the Lazy Skills fields (`type`, `entry`, `triggers`, `dependencies`,
    /// `enabled`, `auto_load`, `when_to_use`), with their shapes checked.
    LazySkills,
    /// Qwen Code's own reading: no frontmatter, name or description and the skill is skipped;
    /// invalid YAML is read line by line.
    QwenCode,
    /// GitHub Copilot CLI's own reading: strict YAML; a missing name or description is taken
    /// from the folder or the body.
    #[strum(to_string = "github-copilot")]
    Copilot,
    /// Cline's own reading: the frontmatter is optional, invalid YAML skips the skill.
    Cline,
    /// OpenClaw's own reading: a description is required; invalid YAML is read line by line.
    Openclaw,
}

impl Profile {
    /// Every profile, in the order its severities are kept (the enum's order).
    pub const ALL: &'static [Profile] = <Profile as strum::VariantArray>::VARIANTS;

    /// Its name on the command line and in the config file.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every profile's name, for messages: `spec, claude-code, … or openclaw`.
    pub fn names() -> String {
        let names: Vec<&str> = Profile::ALL.iter().map(|p| p.as_str()).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }

    /// The agent whose client reads skills as this profile judges them, for the profiles of
    /// the agents skillscope models by their captures.
    pub fn agent_name(self) -> Option<&'static str> {
        match self {
            Profile::ClaudeCode => Some("Claude Code"),
            Profile::Codex => Some("Codex"),
            Profile::Opencode => Some("opencode"),
            Profile::QwenCode => Some("Qwen Code"),
            Profile::Copilot => Some("GitHub Copilot CLI"),
            Profile::Cline => Some("Cline"),
            Profile::Openclaw => Some("OpenClaw"),
            Profile::Spec | Profile::LazySkills => None,
        }
    }

    /// Profiles that take the spec's verdicts as their base.
    pub fn strict(self) -> bool {
        matches!(self, Profile::Spec | Profile::LazySkills)
    }
}

/// A profile name that is none of skillscope's.
#[derive(Debug, thiserror::Error)]
#[error("unknown profile `{0}`: use {names}", names = Profile::names())]
pub struct UnknownProfile(String);

impl FromStr for Profile {
    type Err = UnknownProfile;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .iter()
            .copied()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownProfile(s.to_string()))
    }
}

/// What a rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Family {
    /// Finding and opening files: roots, folders, skill files.
    File,
    /// The frontmatter block and its YAML.
    Frontmatter,
    /// The `name` field.
    Name,
    /// The `description` field.
    Description,
    /// The SKILL.md body and the files it points to.
    Body,
    /// Several skills together.
    Library,
    /// Executable skills' entry scripts and `scripts/` (`check`, `probe --scripts`).
    Executable,
    /// Lazy Skills' declared Python dependencies: their shape (`check --profile lazy-skills`),
    /// and whether the skill's interpreter has them (`probe --deps`).
    Dependencies,
    /// The `--help-json` probe's verdicts (`probe`).
    Probe,
    /// skillscope's own state and the agents' settings files (`toggle`, the app).
    Settings,
}

impl Family {
    /// Its name, as `--select` and the config take it.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// One rule of the catalogue.
#[derive(Debug, Clone, Copy)]
pub struct RuleInfo {
    /// The rule.
    pub id: RuleId,
    /// Its family.
    pub family: Family,
    /// The most a finding weighs under each profile, in [`Profile::ALL`] order; `None` where the
    /// profile does not report it. Rules outside `check` weigh the same under every profile.
    pub severity: [Option<Severity>; Profile::ALL.len()],
    /// What it checks, in one line (docs/rules.md).
    pub summary: &'static str,
}

impl RuleInfo {
    /// Its level under `profile`; `None` when that profile does not report it.
    #[cfg(test)]
    pub(crate) fn severity_under(&self, profile: Profile) -> Option<Severity> {
        let i = Profile::ALL.iter().position(|p| *p == profile).unwrap_or(0);
        self.severity[i]
    }
}

const E: Option<Severity> = Some(Severity::Error);
const W: Option<Severity> = Some(Severity::Warning);
const I: Option<Severity> = Some(Severity::Info);
const NO: Option<Severity> = None;

/// Defines [`RuleId`], its names and the catalogue from one table, so they cannot disagree.
macro_rules! catalogue {
    ($($variant:ident $id:literal $family:ident [$($sev:ident),*] $summary:literal;)*) => {
        /// A stable rule id; shown and serialised as its kebab-case name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum RuleId {
            $(#[doc = $summary] $variant,)*
        }

        impl RuleId {
            /// Every id, in catalogue order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];

            /// Its kebab-case name, as reports show it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $id,)*
                }
            }
        }

        /// Every rule, in the order of [`RuleId::ALL`].
        pub const RULES: &[RuleInfo] = &[
            $(RuleInfo {
                id: RuleId::$variant,
                family: Family::$family,
                severity: [$($sev),*],
                summary: $summary,
            },)*
        ];
    };
}

catalogue! {
    FileEmpty "file-empty" File [E, E, E, E, E, E, E, E, E] "SKILL.md is empty";
    FileUnreadable "file-unreadable" File [E, E, E, E, E, E, E, E, E] "SKILL.md cannot be read";
    FileNotUtf8 "file-not-utf8" File [E, E, E, E, E, E, E, E, E] "SKILL.md is not valid UTF-8";
    FileNulBytes "file-nul-bytes" File [E, E, E, E, E, E, E, E, E] "the frontmatter holds NUL bytes";
    FileBom "file-bom" File [E, W, W, W, E, W, W, W, W] "the file starts with a byte-order mark";
    SkillFileName "skill-file-name" File [E, E, E, E, E, E, E, E, E] "the skill file is not spelled SKILL.md";
    SkillFileNotRegular "skill-file-not-regular" File [E, E, E, E, E, E, E, E, E]
        "SKILL.md is a pipe, socket or device (listed, never opened)";
    SkillFileDuplicate "skill-file-duplicate" File [W, W, W, W, W, W, W, W, W] "SKILL.md and skill.md side by side";
    RootMissing "root-missing" File [E, E, E, E, E, E, E, E, E] "a folder given to read does not exist";
    RootNotAFolder "root-not-a-folder" File [E, E, E, E, E, E, E, E, E]
        "a path given to read is neither a folder nor a SKILL.md";
    SymlinkCycle "symlink-cycle" File [W, W, W, W, W, W, W, W, W] "a symlink leads back to a folder above it";
    WalkError "walk-error" File [W, W, W, W, W, W, W, W, W] "a folder or link could not be read";
    WalkSkipped "walk-skipped" File [W, W, W, W, W, W, W, W, W]
        "a link into /proc, /sys, /dev or above the root, not followed";
    WalkCap "walk-cap" File [W, W, W, W, W, W, W, W, W] "a root's walk stopped at the entry cap";
    LinkLeavesLibrary "link-leaves-library" File [W, W, W, W, W, W, W, W, W]
        "a skill reached through a link that leads outside every skill folder";
    InstalledModified "installed-modified" File [W, W, W, W, W, W, W, W, W]
        "a skill's files no longer match the hash its installer recorded (`skills-lock.json`, ClawHub's `origin.json`)";
    FrontmatterMissing "frontmatter-missing" Frontmatter [E, W, E, E, E, E, E, W, E] "no `---` frontmatter block";
    FrontmatterUnterminated "frontmatter-unterminated" Frontmatter [E, E, E, E, E, E, E, W, E]
        "the frontmatter is never closed";
    FrontmatterLeadingBlank "frontmatter-leading-blank" Frontmatter [E, W, W, W, E, E, W, W, W]
        "blank lines before the opening `---`";
    FrontmatterNotMapping "frontmatter-not-mapping" Frontmatter [E, E, E, E, E, E, E, E, E]
        "the frontmatter is not `key: value` lines";
    YamlInvalid "yaml-invalid" Frontmatter [E, E, E, E, E, W, E, E, W] "the frontmatter is not valid YAML";
    StrictYamlFlow "strict-yaml-flow" Frontmatter [W, NO, NO, NO, NO, NO, NO, NO, NO]
        "flow-style YAML the reference validator's strict parser rejects";
    YamlCoercedScalar "yaml-coerced-scalar" Frontmatter [W, W, W, W, W, W, W, W, W]
        "a text field YAML reads as a number or boolean";
    FieldType "field-type" Frontmatter [E, E, E, E, E, E, E, E, E] "a known field has the wrong type";
    FieldValue "field-value" Frontmatter [W, W, W, W, E, W, W, W, W] "a known field has an unknown value";
    UnknownField "unknown-field" Frontmatter [E, W, W, I, E, W, W, W, W] "a field the profile does not know";
    CompatibilityTooLong "compatibility-too-long" Frontmatter [E, W, W, W, E, W, W, W, W]
        "`compatibility` over 500 characters";
    OptOutUnknown "opt-out-unknown" Frontmatter [W, W, W, W, W, W, W, W, W]
        "an opt-out comment (`# skillscope: ignore[…]`) names no rule or family";
    NameMissing "name-missing" Name [E, W, W, E, E, E, W, W, W] "no `name` field";
    NameTooLong "name-too-long" Name [E, E, E, E, E, E, E, E, E] "name over 64 characters";
    NameFormat "name-format" Name [E, E, E, E, E, E, W, W, W] "name not lowercase letters, digits and hyphens";
    NameHyphens "name-hyphens" Name [E, E, E, E, E, W, W, W, W] "leading, trailing or double hyphen";
    NameDirectory "name-directory" Name [E, W, W, E, W, W, W, W, W] "name differs from the folder name";
    NameReserved "name-reserved" Name [W, W, W, W, W, W, W, W, W] "name holds a reserved word";
    NameXml "name-xml" Name [E, E, E, E, E, E, E, E, E] "name holds XML tags";
    ControlCharacter "control-character" Name [W, E, E, E, E, E, E, E, E]
        "a name, description or folder name holds a control or bidi character (bidi: a warning)";
    DescriptionMissing "description-missing" Description [E, W, E, E, E, E, W, W, E] "no or empty `description`";
    DescriptionTooLong "description-too-long" Description [E, W, E, E, E, E, E, E, E]
        "description over 1,024 characters";
    DescriptionXml "description-xml" Description [W, E, W, W, W, W, W, W, W]
        "description holds XML tags or angle brackets";
    DescriptionGeneric "description-generic" Description [W, W, W, W, W, W, W, W, W]
        "description too vague to trigger well: under 6 words, or no \"when\" cue and not concrete (two action verbs and four verbs or named technologies, as the Lazy Skills design's \"Best\" example)";
    DescriptionPlaceholder "description-placeholder" Description [E, E, E, E, E, E, E, E, E]
        "the description is still the sentence `skillscope new` writes to be replaced";
    DescriptionFirstPerson "description-first-person" Description [W, W, W, W, W, W, W, W, W]
        "description written in the first person";
    BodyTooLong "body-too-long" Body [W, W, W, W, W, W, W, W, W] "body over 500 lines or 5,000 tokens";
    BodyBrokenLink "body-broken-link" Body [W, W, W, W, W, W, W, W, W]
        "a link to a file that does not exist (at most 100 reported per skill)";
    BodyNestedReference "body-nested-reference" Body [W, W, W, W, W, W, W, W, W]
        "references nested more than one level deep";
    BodyUnreadable "body-unreadable" Body [E, E, E, E, E, E, E, E, E] "the body cannot be read";
    DuplicateName "duplicate-name" Library [I, I, I, I, I, I, I, I, I] "two skills with the same name";
    Shadowed "shadowed" Library [W, W, W, W, W, W, W, W, W] "another skill of the same name wins";
    Overlap "overlap" Library [W, W, W, W, W, W, W, W, W]
        "descriptions that compete for the same messages: shared terms, or nearly the same meaning in other words (by their sentence vectors)";
    DescriptionTemplate "description-template" Library [W, W, W, W, W, W, W, W, W]
        "descriptions that differ from others only by the skill's name: routing by meaning cannot tell them apart";
    ListedByFallback "listed-by-fallback" Library [W, W, W, W, W, W, W, W, W]
        "an agent lists the skill under its folder's name or its body's first paragraph";
    TriggersMissing "triggers-missing" Library [W, NO, NO, NO, NO, NO, NO, NO, NO]
        "a skill in the triggers agent's own folder (`~/.config/agents/skills`, which no released client reads) without `triggers:`: that agent never injects it";
    ExecutableNoEntry "executable-no-entry" Executable [W, E, E, E, E, E, E, E, E]
        "`type: executable` without its entry script";
    EntryUntyped "entry-untyped" Executable [NO, NO, NO, NO, W, NO, NO, NO, NO]
        "an `execute.py` without `type: executable`: the skill stays contextual";
    ScriptNotExecutable "script-not-executable" Executable [W, W, W, W, W, W, W, W, W]
        "a script without its run bit";
    ScriptNoInterpreter "script-no-interpreter" Executable [E, E, E, E, E, E, E, E, E]
        "a script whose interpreter is missing";
    ScriptNoShebang "script-no-shebang" Executable [W, W, W, W, W, W, W, W, W] "a script without a `#!` line";
    ScriptSmokeFailed "script-smoke-failed" Executable [W, W, W, W, W, W, W, W, W]
        "a script's `--help` failed in the sandbox (`probe --smoke`)";
    ScriptSmokeSkipped "script-smoke-skipped" Executable [I, I, I, I, I, I, I, I, I]
        "a script `probe --smoke` did not run";
    DependencyInvalid "dependency-invalid" Dependencies [NO, NO, NO, NO, E, NO, NO, NO, NO]
        "a declared dependency (`dependencies:` or `requirements.txt`) that is not a valid pip specifier";
    DependencyMissing "dependency-missing" Dependencies [E, E, E, E, E, E, E, E, E]
        "a declared dependency not installed for the skill's interpreter (`probe --deps`)";
    DependencyVersion "dependency-version" Dependencies [E, E, E, E, E, E, E, E, E]
        "a declared dependency installed at a version its specifier refuses (`probe --deps`)";
    DependencyUnchecked "dependency-unchecked" Dependencies [W, W, W, W, W, W, W, W, W]
        "declared dependencies that could not be checked: no interpreter, not Python (`probe --deps`)";
    ProbeOk "probe-ok" Probe [I, I, I, I, I, I, I, I, I] "`--help-json` answered with a valid tool schema";
    ProbeTimeout "probe-timeout" Probe [E, E, E, E, E, E, E, E, E] "`--help-json` gave no answer in time";
    ProbeCancelled "probe-cancelled" Probe [W, W, W, W, W, W, W, W, W] "the probe was stopped before it answered";
    ProbeCrashed "probe-crashed" Probe [E, E, E, E, E, E, E, E, E]
        "the entry script exited non-zero or was killed";
    ProbeNotJson "probe-not-json" Probe [E, E, E, E, E, E, E, E, E] "`--help-json` printed something not JSON";
    ProbeBadSchema "probe-bad-schema" Probe [E, E, E, E, E, E, E, E, E] "the tool schema has the wrong shape";
    ProbeNameMismatch "probe-name-mismatch" Probe [E, E, E, E, E, E, E, E, E]
        "the tool schema's name is not the skill's";
    ProbeNameFallback "probe-name-fallback" Probe [W, W, W, W, W, W, W, W, W]
        "the tool schema has no name (the agent registers it under the skill's) or another one (registered under that one; Lazy Skills)";
    ProbeNoEntry "probe-no-entry" Probe [E, E, E, E, E, E, E, E, E] "the entry script is missing";
    ProbeNoInterpreter "probe-no-interpreter" Probe [E, E, E, E, E, E, E, E, E]
        "nothing can run the entry script";
    StateFile "state-file" Settings [W, W, W, W, W, W, W, W, W]
        "skillscope's state file cannot be read or written";
    AgentSettings "agent-settings" Settings [W, W, W, W, W, W, W, W, W]
        "an agent's settings file cannot be read or parsed";
}

impl RuleId {
    /// The rule's catalogue entry.
    pub fn info(self) -> &'static RuleInfo {
        // RULES is in the order of ALL, which is the order of the variants.
        &RULES[self as usize]
    }

    /// The family the rule belongs to.
    pub fn family(self) -> Family {
        self.info().family
    }

    /// What `check --fix` changes for a finding of this rule, when the fix is mechanical
    /// (`core::rules::fix` makes it); `None` when it needs a person.
    pub fn fix(self) -> Option<&'static str> {
        Some(match self {
            RuleId::FileBom => "removes the byte-order mark",
            RuleId::FrontmatterLeadingBlank => "removes the blank lines before `---`",
            RuleId::YamlInvalid => {
                "quotes a one-line value that holds `: ` or starts with YAML syntax (`key: 'text: more'`); other YAML errors need a person"
            }
            RuleId::YamlCoercedScalar => "quotes the value (`name: '2024'`)",
            RuleId::UnknownField => {
                "moves the field, as written, under `metadata:` (made at the end of the frontmatter when there is none); not into a flow-style `metadata: {…}` or one that holds the key, nor a field whose anchor an alias uses, nor `<<`"
            }
            RuleId::NameMissing => {
                "adds `name:` set to the folder's name (quoted when YAML would read it as another type, such as `null`), when that is a valid name; inside the braces of an inline `{…}` frontmatter"
            }
            RuleId::NameDirectory => {
                "sets `name:` to the folder's name (quoted when YAML would read it as another type), when that is a valid name"
            }
            _ => return None,
        })
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl Serialize for RuleId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A rule id that is none of the catalogue's.
#[derive(Debug, thiserror::Error)]
#[error("unknown rule `{0}`")]
pub struct UnknownRule(String);

impl FromStr for RuleId {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // Every remembered finding of a warm run is read back by its rule's name: one lookup,
        // not a walk through the catalogue comparing names.
        static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, RuleId>> =
            std::sync::OnceLock::new();
        BY_NAME
            .get_or_init(|| RuleId::ALL.iter().map(|&r| (r.as_str(), r)).collect())
            .get(s)
            .copied()
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

/// `docs/rules.md`: the catalogue as a page, one table per family.
pub fn markdown() -> String {
    let mut s = String::from(
        "# Rules\n\n\
         <!-- Generated from src/core/findings/catalogue.rs by the test `rules_doc_matches_the_catalogue`; \
         do not edit. Regenerate with `SKILLSCOPE_WRITE_DOCS=1 cargo test --lib rules_doc`. -->\n\n\
         Every id skillscope reports, with what it finds and how much a finding weighs under each \
         `--profile` of `check` (`-`: the profile does not report it). The file, frontmatter, \
         name, description, body, library and executable families are `check`'s (`list`, the \
         app and the previews of `add`, `update` and `move` judge by the same rules); `probe` reports the probe family and the script checks; \
         `toggle` and the app report the settings family; in the dependencies family, `dependency-invalid` is `check --profile lazy-skills`' \
         and the others are `probe --deps`'. Each rule's id is also its anchor on this page \
         (`rules.md#unknown-field`).\n\n\
         Which rules `check` reports and how much they weigh can be changed: `--select`, \
         `--ignore` and `--warnings-as-errors` on the command line, levels per rule, family or \
         path in the config file's `[rules]` ([config.md](config.md#rules)), and an opt-out \
         comment in a skill's frontmatter ([below](#opting-a-skill-out)).\n\n\
         The `--fix` column says what `check --fix` changes for a finding of the rule (`-`: the \
         fix needs a person). A fix edits only the bytes it needs: comments, key order, quoting, \
         anchors and line endings stay as they were, and the frontmatter is parsed again after \
         each fix, which is made only when the changed key reads as meant and every other value \
         as before. What cannot be edited so (a frontmatter written as one inline `{…}` mapping, \
         a field holding an anchor that an alias elsewhere uses, a `<<` merge key) is left as it \
         is, and `--fix` says why. `check --diff` shows the fixes as a unified diff of each \
         frontmatter and writes nothing, also with `--fix`.\n",
    );
    let mut families: Vec<Family> = RULES.iter().map(|r| r.family).collect();
    families.dedup();
    for family in families {
        s.push_str(&format!(
            "\n## {}\n\n| rule | {} | what it finds | `--fix` |\n|---|{}---|---|\n",
            family.as_str(),
            Profile::ALL
                .iter()
                .map(|p| p.as_str())
                .collect::<Vec<_>>()
                .join(" | "),
            "---|".repeat(Profile::ALL.len())
        ));
        for r in RULES.iter().filter(|r| r.family == family) {
            let sev: Vec<&str> = r
                .severity
                .iter()
                .map(|v| v.map_or("-", Severity::as_str))
                .collect();
            // Each rule is an anchor of its own: SARIF's `helpUri` and `--format github` link
            // to `rules.md#<id>`.
            s.push_str(&format!(
                "| <a id=\"{}\"></a>`{}` | {} | {} | {} |\n",
                r.id,
                r.id,
                sev.join(" | "),
                r.summary,
                r.id.fix().unwrap_or("-")
            ));
        }
    }
    s.push_str(OPT_OUT_DOC);
    s
}

/// The end of `docs/rules.md`: how a skill's author opts out of a rule.
const OPT_OUT_DOC: &str = r"
## Opting a skill out

A skill's author can leave a rule out for that skill with a YAML comment in its frontmatter, as
`# noqa` and `eslint-disable` do for code. Agents and the reference validator ignore comments, so
the skill stays valid everywhere:

```yaml
---
name: pdf-tools
description: Extract text and tables from PDF files. Use when the user gives a PDF.
# skillscope: ignore[unknown-field, description-generic]
version: 1.0   # skillscope: ignore[yaml-coerced-scalar]
---
```

- On a line of its own, the comment covers the whole skill; after a field, only the findings on
  that line.
- Between the brackets: rule ids or families (`description`), separated by commas. Without
  brackets (`# skillscope: ignore`) it covers every rule.
- A name that is no rule or family is reported (`opt-out-unknown`), so a typo does not go
  unnoticed.
- Opt-outs apply in `check`, `list` and the app, before the config file's levels and the command
  line's `--select` and `--ignore`.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_has_one_entry_in_order_and_reads_back() {
        assert_eq!(RuleId::ALL.len(), RULES.len());
        for (i, (id, info)) in RuleId::ALL.iter().zip(RULES).enumerate() {
            assert_eq!(*id as usize, i);
            assert_eq!(info.id, *id);
            assert_eq!(id.info().id, *id);
            assert_eq!(id.as_str().parse::<RuleId>().unwrap(), *id);
            assert!(
                id.as_str()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{id}"
            );
            assert!(
                info.severity.iter().any(Option::is_some),
                "{id} is reported under no profile"
            );
        }
        let mut names: Vec<_> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RuleId::ALL.len(), "an id is spelled twice");
        // Families are contiguous, so the page has one section each.
        let mut seen = Vec::new();
        for r in RULES {
            if seen.last() != Some(&r.family) {
                assert!(!seen.contains(&r.family), "{:?} is split", r.family);
                seen.push(r.family);
            }
        }
    }

    #[test]
    fn ids_serialise_as_their_names() {
        assert_eq!(
            serde_json::to_string(&RuleId::ControlCharacter).unwrap(),
            "\"control-character\""
        );
        assert_eq!(format!("{:<8}|", RuleId::Overlap), "overlap |");
        assert!("nope".parse::<RuleId>().is_err());
    }

    #[test]
    fn profiles_parse_by_name() {
        for &p in Profile::ALL {
            assert_eq!(p.as_str().parse::<Profile>().unwrap(), p);
        }
        assert!("claude".parse::<Profile>().is_err());
    }

    #[test]
    fn rules_doc_matches_the_catalogue() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
        let want = markdown();
        if std::env::var_os("SKILLSCOPE_WRITE_DOCS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/rules.md differs from the rule catalogue: regenerate it with \
             `SKILLSCOPE_WRITE_DOCS=1 cargo test --lib rules_doc`"
        );
    }
}
