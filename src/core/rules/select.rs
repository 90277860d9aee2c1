//! Which findings are reported and how much they weigh by the user's choice: levels per rule or
//! family from the config file (everywhere, or per path glob), `--select` / `--ignore` /
//! `--warnings-as-errors` from the command line, and the opt-outs a skill's author writes in its
//! frontmatter (`# skillscope: ignore[unknown-field]`).

use crate::core::findings::catalogue::{Family, RULES, RuleId, Severity};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::frontmatter::OptOut;
use crate::core::skill::Skill;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A rule id or a family name: what `--select`, `--ignore`, the config's `[rules]` and an
/// opt-out comment name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Selector {
    /// One rule.
    Rule(RuleId),
    /// Every rule of a family.
    Family(Family),
}

impl Selector {
    /// Whether it names `rule`.
    pub fn matches(self, rule: RuleId) -> bool {
        match self {
            Selector::Rule(r) => r == rule,
            Selector::Family(f) => rule.family() == f,
        }
    }

    /// A rule id says more than its family: where both match, the id decides.
    fn specificity(self) -> u8 {
        match self {
            Selector::Rule(_) => 2,
            Selector::Family(_) => 1,
        }
    }

    /// Every name a selector can be written as: the rule ids, then the families.
    pub fn names() -> Vec<&'static str> {
        let mut out: Vec<&'static str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        for f in families() {
            out.push(f.as_str());
        }
        out
    }
}

/// The families, in catalogue order.
fn families() -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    for r in RULES {
        if !out.contains(&r.family) {
            out.push(r.family);
        }
    }
    out
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::Rule(r) => f.write_str(r.as_str()),
            Selector::Family(fam) => f.write_str(fam.as_str()),
        }
    }
}

/// A name that is no rule id and no family.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule or family `{given}`{}; docs/rules.md lists them", .meant.map_or_else(String::new, |m| format!(" (did you mean `{m}`?)")))]
pub struct UnknownSelector {
    /// The name as given.
    pub given: String,
    /// The closest real name, when one is close.
    pub meant: Option<&'static str>,
}

impl FromStr for Selector {
    type Err = UnknownSelector;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if let Ok(r) = s.parse::<RuleId>() {
            return Ok(Selector::Rule(r));
        }
        if let Some(f) = families().into_iter().find(|f| f.as_str() == s) {
            return Ok(Selector::Family(f));
        }
        Err(UnknownSelector {
            given: s.to_string(),
            meant: crate::core::words::text::closest(s, Selector::names()),
        })
    }
}

/// How much a rule weighs by the user's choice; `Off` leaves it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Not reported.
    Off,
    /// Reported as info.
    Info,
    /// Reported as a warning.
    Warning,
    /// Reported as an error.
    Error,
}

impl Level {
    /// The level names, for messages.
    pub const NAMES: &'static str = "off, info, warning or error";

    fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Info => Some(Severity::Info),
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// A level name that is none of `off`, `info`, `warning`, `error`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level `{0}`: use off, info, warning or error")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "off" => Ok(Level::Off),
            "info" => Ok(Level::Info),
            "warning" | "warn" => Ok(Level::Warning),
            "error" => Ok(Level::Error),
            other => Err(UnknownLevel(other.to_string())),
        }
    }
}

/// Levels by rule or family. Where several match a rule, the rule's own id beats its family, and
/// among equals the one written last wins.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Levels(pub Vec<(Selector, Level)>);

impl Levels {
    /// The level the most specific selector naming `rule` gives it, if any does.
    pub fn level(&self, rule: RuleId) -> Option<Level> {
        let mut best: Option<(u8, Level)> = None;
        for (sel, level) in &self.0 {
            if sel.matches(rule) && best.is_none_or(|(s, _)| sel.specificity() >= s) {
                best = Some((sel.specificity(), *level));
            }
        }
        best.map(|(_, l)| l)
    }

    /// Whether no level is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Levels for the skills under some paths (`[[rules.per-path]]`).
#[derive(Debug, Clone)]
pub struct PathLevels {
    /// The globs as written.
    pub globs: Vec<String>,
    matcher: globset::GlobSet,
    /// The levels under those paths.
    pub levels: Levels,
}

impl PathLevels {
    /// Globs in gitignore's spirit: `*` stays within a folder, `**` crosses folders. A relative
    /// glob is matched against the path below the folder that was read and below the current
    /// folder; an absolute one (or `~/…`) against the absolute path.
    pub fn new(globs: Vec<String>, levels: Levels) -> Result<PathLevels, globset::Error> {
        let mut b = globset::GlobSetBuilder::new();
        for g in &globs {
            let g = match g.strip_prefix("~/").zip(dirs::home_dir()) {
                Some((rest, home)) => home.join(rest).to_string_lossy().into_owned(),
                None => g.trim_end_matches('/').to_string(),
            };
            b.add(
                globset::GlobBuilder::new(&g)
                    .literal_separator(true)
                    .build()?,
            );
        }
        Ok(PathLevels {
            globs,
            matcher: b.build()?,
            levels,
        })
    }

    fn applies(&self, candidates: &[PathBuf]) -> bool {
        candidates.iter().any(|c| self.matcher.is_match(c))
    }
}

/// The config file's `[rules]`: levels everywhere, then per path (later entries win).
#[derive(Debug, Clone, Default)]
pub struct RuleConfig {
    /// Levels everywhere.
    pub levels: Levels,
    /// Levels per path, later entries winning.
    pub per_path: Vec<PathLevels>,
}

impl RuleConfig {
    /// Whether the config sets no level.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty() && self.per_path.is_empty()
    }
}

/// Everything that decides what is reported, in the order it applies: the author's opt-outs,
/// the config's levels (everywhere, then per path), `--select` / `--ignore`, then
/// `--warnings-as-errors`.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// The config file's `[rules]`.
    pub config: RuleConfig,
    /// Report only the rules these match (all when empty).
    pub select: Vec<Selector>,
    /// Leave out the rules these match, unless a more specific `select` names them.
    pub ignore: Vec<Selector>,
    /// Report every warning as an error.
    pub warnings_as_errors: bool,
}

/// Where a finding is, for per-path levels: its file and the folder it was read from.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The file the finding is about.
    pub file: &'a Path,
    /// The folder it was read from, when known.
    pub root: Option<&'a Path>,
}

impl Selection {
    /// Nothing to decide: every finding stays as the profile weighed it.
    pub fn is_empty(&self) -> bool {
        self.config.is_empty()
            && self.select.is_empty()
            && self.ignore.is_empty()
            && !self.warnings_as_errors
    }

    /// The severity a finding of `rule` at `place` is reported with, `None` when it is left
    /// out. `severity` is the profile's.
    pub fn judge(&self, rule: RuleId, severity: Severity, place: Place) -> Option<Severity> {
        let mut severity = severity;
        let mut level = self.config.levels.level(rule);
        if !self.config.per_path.is_empty() {
            let candidates = candidates(place);
            for p in &self.config.per_path {
                if p.applies(&candidates)
                    && let Some(l) = p.levels.level(rule)
                {
                    level = Some(l);
                }
            }
        }
        if let Some(l) = level {
            severity = l.severity()?;
        }
        let picked = self
            .select
            .iter()
            .filter(|s| s.matches(rule))
            .map(|s| s.specificity())
            .max();
        if !self.select.is_empty() && picked.is_none() {
            return None;
        }
        let ignored = self
            .ignore
            .iter()
            .filter(|s| s.matches(rule))
            .map(|s| s.specificity())
            .max();
        if let Some(i) = ignored
            && picked.is_none_or(|p| i >= p)
        {
            return None;
        }
        if self.warnings_as_errors && severity == Severity::Warning {
            severity = Severity::Error;
        }
        Some(severity)
    }

    /// Applies [`Selection::judge`] to a skill's findings in place (`root` is the folder it was
    /// read from).
    pub fn apply(&self, skill: &Skill, diags: &mut Vec<Diagnostic>) {
        if self.is_empty() {
            return;
        }
        diags.retain_mut(|d| {
            let place = Place {
                file: d.path.as_deref().unwrap_or(&skill.skill_md),
                root: Some(&skill.root),
            };
            match self.judge(d.rule, d.severity, place) {
                Some(s) => {
                    d.severity = s;
                    true
                }
                None => false,
            }
        });
    }
}

/// The paths a per-path glob is matched against: the file and each folder above it, relative
/// to the folder that was read and to the current folder, and absolute.
fn candidates(place: Place) -> Vec<PathBuf> {
    let abs = crate::core::files::paths::absolute(place.file);
    let mut bases: Vec<PathBuf> = Vec::new();
    if let Some(root) = place.root {
        let root = crate::core::files::paths::absolute(root);
        // A root that is a skill folder (or its SKILL.md) is named with its own folder.
        let base = if abs.parent() == Some(root.as_path()) || abs == root {
            root.parent().map(Path::to_path_buf)
        } else {
            Some(root)
        };
        bases.extend(base);
    }
    if let Ok(cwd) = std::env::current_dir() {
        bases.push(cwd);
    }
    let mut out = Vec::new();
    for base in &bases {
        if let Ok(rel) = abs.strip_prefix(base) {
            let mut p = PathBuf::new();
            for c in rel.components() {
                p.push(c);
                out.push(p.clone());
            }
        }
    }
    let mut p = PathBuf::new();
    for c in abs.components() {
        p.push(c);
        out.push(p.clone());
    }
    out
}

/// Whether an opt-out leaves out a finding of `rule` at `line`.
pub fn covers(o: &OptOut, rule: RuleId, line: Option<u32>) -> bool {
    if o.line.is_some() && o.line != line {
        return false;
    }
    o.rules.is_empty()
        || o.rules
            .iter()
            .any(|r| r.parse::<Selector>().is_ok_and(|s| s.matches(rule)))
}

/// Leaves out the findings a skill's author opted out of.
pub fn apply_opt_outs(skill: &Skill, diags: &mut Vec<Diagnostic>) {
    let opt_outs = &skill.frontmatter.opt_outs;
    if opt_outs.is_empty() {
        return;
    }
    diags.retain(|d| {
        // A finding about another file of the skill is the skill's too; a line there is not a
        // line of SKILL.md.
        let line = if d.path.as_ref().is_some_and(|p| *p != skill.skill_md) {
            None
        } else {
            d.line
        };
        d.rule == RuleId::OptOutUnknown || !opt_outs.iter().any(|o| covers(o, d.rule, line))
    });
}

/// A warning for each name in an opt-out that is no rule or family: a typo would otherwise
/// leave the finding in place without a word.
pub fn check_opt_outs(skill: &Skill) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for o in &skill.frontmatter.opt_outs {
        for r in &o.rules {
            if let Err(e) = r.parse::<Selector>() {
                out.push(
                    Diagnostic::new(
                        RuleId::OptOutUnknown,
                        Severity::Warning,
                        format!("the opt-out comment names {e}"),
                    )
                    .at(o.at, 1),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::frontmatter::opt_outs;

    fn sel(s: &str) -> Selector {
        s.parse().unwrap()
    }

    #[test]
    fn selectors_are_rule_ids_or_families_and_typos_get_a_suggestion() {
        assert_eq!(sel("unknown-field"), Selector::Rule(RuleId::UnknownField));
        assert_eq!(sel("name"), Selector::Family(Family::Name));
        assert!(sel("name").matches(RuleId::NameFormat));
        assert!(!sel("name").matches(RuleId::UnknownField));
        let e = "unknown-feild".parse::<Selector>().unwrap_err();
        assert_eq!(e.meant, Some("unknown-field"));
        assert!(
            e.to_string().contains("(did you mean `unknown-field`?)"),
            "{e}"
        );
        assert_eq!("nam".parse::<Selector>().unwrap_err().meant, Some("name"));
        assert_eq!("zzz".parse::<Selector>().unwrap_err().meant, None);
    }

    #[test]
    fn the_rule_id_beats_its_family_and_the_last_of_equals_wins() {
        let levels = Levels(vec![
            (sel("name"), Level::Off),
            (sel("name-format"), Level::Warning),
            (sel("description"), Level::Warning),
            (sel("description"), Level::Error),
        ]);
        assert_eq!(levels.level(RuleId::NameFormat), Some(Level::Warning));
        assert_eq!(levels.level(RuleId::NameHyphens), Some(Level::Off));
        assert_eq!(levels.level(RuleId::DescriptionXml), Some(Level::Error));
        assert_eq!(levels.level(RuleId::Overlap), None);
    }

    #[test]
    fn select_ignore_and_warnings_as_errors() {
        let place = Place {
            file: Path::new("/lib/a/SKILL.md"),
            root: Some(Path::new("/lib")),
        };
        let s = Selection {
            select: vec![sel("name"), sel("unknown-field")],
            ignore: vec![sel("name-directory")],
            ..Selection::default()
        };
        let w = Severity::Warning;
        assert_eq!(s.judge(RuleId::NameFormat, w, place), Some(w));
        assert_eq!(s.judge(RuleId::NameDirectory, w, place), None);
        assert_eq!(s.judge(RuleId::Overlap, w, place), None, "not selected");
        // A selected id beats an ignored family.
        let s = Selection {
            select: vec![sel("name-format")],
            ignore: vec![sel("name")],
            warnings_as_errors: true,
            ..Selection::default()
        };
        assert_eq!(s.judge(RuleId::NameFormat, w, place), Some(Severity::Error));
        assert_eq!(
            s.judge(RuleId::NameFormat, Severity::Info, place),
            Some(Severity::Info)
        );
        assert_eq!(s.judge(RuleId::NameHyphens, w, place), None);
    }

    #[test]
    fn per_path_levels_apply_below_their_globs_only() {
        let config = RuleConfig {
            levels: Levels(vec![(sel("unknown-field"), Level::Warning)]),
            per_path: vec![
                PathLevels::new(
                    vec!["vendor/**".into()],
                    Levels(vec![(sel("unknown-field"), Level::Off)]),
                )
                .unwrap(),
                PathLevels::new(
                    vec!["**/legacy-*".into()],
                    Levels(vec![(sel("description"), Level::Off)]),
                )
                .unwrap(),
            ],
        };
        let s = Selection {
            config,
            ..Selection::default()
        };
        let at = |file: &'static str| Place {
            file: Path::new(file),
            root: Some(Path::new("/lib")),
        };
        let e = Severity::Error;
        assert_eq!(
            s.judge(RuleId::UnknownField, e, at("/lib/own/SKILL.md")),
            Some(Severity::Warning)
        );
        assert_eq!(
            s.judge(RuleId::UnknownField, e, at("/lib/vendor/x/SKILL.md")),
            None
        );
        assert_eq!(
            s.judge(RuleId::DescriptionXml, e, at("/lib/a/legacy-pdf/SKILL.md")),
            None
        );
        assert_eq!(
            s.judge(RuleId::DescriptionXml, e, at("/lib/a/pdf/SKILL.md")),
            Some(e)
        );
        // `*` stays within a folder.
        let one = PathLevels::new(vec!["vendor/*".into()], Levels::default()).unwrap();
        assert!(one.applies(&candidates(at("/lib/vendor/x/SKILL.md"))));
        let deep = candidates(Place {
            file: Path::new("/lib/a/b/c/SKILL.md"),
            root: Some(Path::new("/lib")),
        });
        let top = PathLevels::new(vec!["a/*/SKILL.md".into()], Levels::default()).unwrap();
        assert!(!top.applies(&deep));
        // A root that is a skill folder is named with its own folder's name.
        let own = candidates(Place {
            file: Path::new("/lib/vendor/x/SKILL.md"),
            root: Some(Path::new("/lib/vendor/x")),
        });
        assert!(own.contains(&PathBuf::from("x/SKILL.md")), "{own:?}");
    }

    #[test]
    fn opt_out_comments_on_their_own_line_or_after_a_field() {
        let yaml = "name: a\n# skillscope: ignore[unknown-field, description]\nversion: 1.0  # skillscope: ignore[yaml-coerced-scalar]\nnote: \"# skillscope: ignore\"\nx: 1 #skillscope: ignore\n#  skillscope:   ignore  \n# skillscope: ignored\n";
        let got = opt_outs(yaml, 2);
        assert_eq!(
            got,
            vec![
                OptOut {
                    at: 3,
                    line: None,
                    rules: vec!["unknown-field".into(), "description".into()]
                },
                OptOut {
                    at: 4,
                    line: Some(4),
                    rules: vec!["yaml-coerced-scalar".into()]
                },
                OptOut {
                    at: 6,
                    line: Some(6),
                    rules: vec![]
                },
                OptOut {
                    at: 7,
                    line: None,
                    rules: vec![]
                },
            ]
        );
        assert!(covers(&got[0], RuleId::DescriptionGeneric, Some(9)));
        assert!(!covers(&got[0], RuleId::NameFormat, None));
        assert!(covers(&got[1], RuleId::YamlCoercedScalar, Some(4)));
        assert!(!covers(&got[1], RuleId::YamlCoercedScalar, Some(5)));
        assert!(covers(&got[2], RuleId::NameFormat, Some(6)));
        assert!(opt_outs("name: a # no marker\n", 2).is_empty());
    }
}
