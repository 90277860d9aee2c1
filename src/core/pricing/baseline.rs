//! Budget baselines: a small, stable record of what a library costs (per skill, per level, per
//! agent listing format) and the difference between two such records, for review and CI gates.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The file format's version; a reader refuses any other.
pub const VERSION: u32 = 1;

/// Why a baseline file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// It is not a skillscope baseline.
    #[error("not a skillscope baseline")]
    Parse(#[from] serde_json::Error),
    /// It is a baseline of another version.
    #[error("baseline version {0} is not supported (this skillscope reads version {VERSION})")]
    Version(u32),
}

/// What an agent's listing does with a skill, as a baseline records it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Fate {
    /// In the listing with its description (maybe trimmed: see `trimmed`).
    Listed,
    /// In the listing, its description cut to fit.
    Trimmed,
    /// In the listing by name only.
    NameOnly,
    /// Out of the listing: over budget, shadowed, or no parsed name and description.
    Dropped,
    /// Switched off by its own frontmatter (`auto_load: false`, `disable-model-invocation`).
    Off,
}

impl Fate {
    /// Its name in the baseline file and reports.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Whether the agent's listing names the skill at all.
    pub fn in_listing(self) -> bool {
        matches!(self, Fate::Listed | Fate::Trimmed | Fate::NameOnly)
    }
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<crate::core::listing::Fate> for Fate {
    fn from(f: crate::core::listing::Fate) -> Self {
        use crate::core::listing::Fate as L;
        match f {
            L::Full => Fate::Listed,
            L::Trimmed => Fate::Trimmed,
            L::NameOnly => Fate::NameOnly,
            L::Dropped => Fate::Dropped,
        }
    }
}

/// One skill's costs and fates. Maps are keyed by listing format name, so they sort the same
/// way everywhere.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillRecord {
    /// The skill's name.
    pub name: String,
    /// Its listing entry per format; absent for a skill no agent can list.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub l1: BTreeMap<String, u32>,
    /// The whole SKILL.md; `None` when it could not be read.
    pub l2: Option<u32>,
    /// Its text resources together.
    pub l3: Option<u32>,
    /// Its fate per format.
    #[serde(default)]
    pub fate: BTreeMap<String, Fate>,
}

/// A library's totals, as a baseline records them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Skills counted.
    pub skills: usize,
    /// The sum of the entries per format (the listing adds its header and tier to this).
    pub l1: BTreeMap<String, u64>,
    /// Every SKILL.md together.
    pub l2: u64,
    /// Every skill's text resources together.
    pub l3: u64,
    /// The whole listing per format: what every turn of that agent costs.
    pub per_turn: BTreeMap<String, u64>,
}

/// A library's budget at one moment. Skills are keyed by `<root>/<folder>`, the root as it
/// was given on the command line, so the keys are the same on every machine and at every commit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The baseline format's version.
    pub skillscope_baseline: u32,
    /// The encoding the figures are in.
    pub encoding: String,
    /// The context window the budgets were a share of.
    pub context_window: usize,
    /// The listing tier.
    pub tier: String,
    /// The listing formats recorded.
    pub formats: Vec<String>,
    /// The library's totals.
    pub totals: Totals,
    /// Every skill, by its key.
    pub skills: BTreeMap<String, SkillRecord>,
}

impl Snapshot {
    /// A baseline file's text, refused when it is of another version.
    pub fn parse(text: &str) -> Result<Snapshot, BaselineError> {
        // The version first, so a future format says so instead of failing on a field.
        #[derive(Deserialize)]
        struct Head {
            skillscope_baseline: u32,
        }
        let head: Head = serde_json::from_str(text)?;
        if head.skillscope_baseline != VERSION {
            return Err(BaselineError::Version(head.skillscope_baseline));
        }
        Ok(serde_json::from_str(text)?)
    }

    /// The file text: sorted keys, one line per skill, so a committed baseline diffs well.
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\n");
        let field = |k: &str, v: String| format!("  {}: {v},\n", quote(k));
        s.push_str(&field(
            "skillscope_baseline",
            self.skillscope_baseline.to_string(),
        ));
        s.push_str(&field("encoding", quote(&self.encoding)));
        s.push_str(&field("context_window", self.context_window.to_string()));
        s.push_str(&field("tier", quote(&self.tier)));
        s.push_str(&field("formats", compact(&self.formats)));
        s.push_str(&field("totals", compact(&self.totals)));
        s.push_str("  \"skills\": {");
        for (i, (k, v)) in self.skills.iter().enumerate() {
            s.push_str(if i == 0 { "\n" } else { ",\n" });
            s.push_str(&format!("    {}: {}", quote(k), compact(v)));
        }
        s.push_str(if self.skills.is_empty() {
            "}\n}\n"
        } else {
            "\n  }\n}\n"
        });
        s
    }
}

fn quote(s: &str) -> String {
    compact(&s)
}

fn compact<T: Serialize + ?Sized>(v: &T) -> String {
    // Plain data of strings, numbers and maps: serialising it cannot fail.
    serde_json::to_string(v).unwrap_or_default()
}

/// A figure before and after; `None` is "not there" (not listable, unreadable, added, removed).
pub type Change<T> = (Option<T>, Option<T>);

/// One skill that differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkillDiff {
    /// Its key: `<root>/<folder>`.
    pub key: String,
    /// Its name.
    pub name: String,
    /// Per format whose L1 changed.
    pub l1: BTreeMap<String, Change<u32>>,
    /// Its SKILL.md's tokens, before and after.
    pub l2: Change<u32>,
    /// Its resources' tokens, before and after.
    pub l3: Change<u32>,
    /// The fates of an added skill, or the ones that changed for a skill in both.
    pub fates: BTreeMap<String, Change<Fate>>,
}

impl SkillDiff {
    /// L1 of one format as a signed change.
    pub fn l1_delta(&self, format: &str) -> i64 {
        self.l1.get(format).map_or(0, |c| delta(*c))
    }
}

/// Before → after as a signed number; "not there" counts as zero.
pub fn delta(c: Change<u32>) -> i64 {
    i64::from(c.1.unwrap_or(0)) - i64::from(c.0.unwrap_or(0))
}

/// The total per turn of one format, before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TurnChange {
    /// Tokens before.
    pub before: u64,
    /// Tokens after.
    pub after: u64,
}

impl TurnChange {
    /// After minus before.
    pub fn delta(&self) -> i64 {
        i64::try_from(self.after).unwrap_or(i64::MAX) - i64::try_from(self.before).unwrap_or(0)
    }
}

/// A skill that left a listing it was in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Drop {
    /// Its key.
    pub key: String,
    /// Its name.
    pub name: String,
    /// The listing format it left.
    pub format: String,
    /// Its fate before.
    pub before: Fate,
    /// Its fate after.
    pub after: Fate,
}

/// What changed between two baselines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// Skills only in the newer one.
    pub added: Vec<SkillDiff>,
    /// Skills only in the older one.
    pub removed: Vec<SkillDiff>,
    /// Skills in both whose figures or fates differ.
    pub changed: Vec<SkillDiff>,
    /// Per format.
    pub per_turn: BTreeMap<String, TurnChange>,
    /// Every SKILL.md together, before and after.
    pub l2: TurnChange,
    /// Every skill's resources together, before and after.
    pub l3: TurnChange,
    /// Skills counted, before and after.
    pub skills: TurnChange,
    /// Skills in both whose fate went from in a listing to dropped.
    pub drops: Vec<Drop>,
    /// Skills in both whose fate changed in some format.
    pub fate_changes: usize,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.per_turn.values().all(|t| t.delta() == 0)
    }

    /// The largest growth per turn among the formats, with its format.
    #[cfg(test)]
    fn max_increase(&self) -> Option<(&str, i64)> {
        self.per_turn
            .iter()
            .map(|(f, t)| (f.as_str(), t.delta()))
            .max_by_key(|(_, d)| *d)
    }
}

fn record_diff(key: &str, old: Option<&SkillRecord>, new: Option<&SkillRecord>) -> SkillDiff {
    let name = new.or(old).map_or_else(String::new, |r| r.name.clone());
    let formats: BTreeSet<&String> = old
        .into_iter()
        .chain(new)
        .flat_map(|r| r.l1.keys().chain(r.fate.keys()))
        .collect();
    let mut l1 = BTreeMap::new();
    let mut fates = BTreeMap::new();
    for f in formats {
        let a = old.and_then(|r| r.l1.get(f).copied());
        let b = new.and_then(|r| r.l1.get(f).copied());
        if a != b {
            l1.insert(f.clone(), (a, b));
        }
        let fa = old.and_then(|r| r.fate.get(f).copied());
        let fb = new.and_then(|r| r.fate.get(f).copied());
        // Removed skills' fates say nothing new; added ones' say where they land.
        if fa != fb && fb.is_some() {
            fates.insert(f.clone(), (fa, fb));
        }
    }
    SkillDiff {
        key: key.to_string(),
        name,
        l1,
        l2: (old.and_then(|r| r.l2), new.and_then(|r| r.l2)),
        l3: (old.and_then(|r| r.l3), new.and_then(|r| r.l3)),
        fates,
    }
}

/// What changed from `old` to `new`.
pub fn diff(old: &Snapshot, new: &Snapshot) -> Diff {
    let mut d = Diff {
        added: Vec::new(),
        removed: Vec::new(),
        changed: Vec::new(),
        per_turn: BTreeMap::new(),
        l2: TurnChange {
            before: old.totals.l2,
            after: new.totals.l2,
        },
        l3: TurnChange {
            before: old.totals.l3,
            after: new.totals.l3,
        },
        skills: TurnChange {
            before: old.totals.skills as u64,
            after: new.totals.skills as u64,
        },
        drops: Vec::new(),
        fate_changes: 0,
    };
    // A format only one side measured (a baseline written before skillscope knew it) has no
    // change to show: comparing it with nothing would read as a jump.
    let formats: BTreeSet<&String> = old
        .totals
        .per_turn
        .keys()
        .filter(|f| new.totals.per_turn.contains_key(*f))
        .collect();
    for f in formats {
        d.per_turn.insert(
            f.clone(),
            TurnChange {
                before: old.totals.per_turn.get(f).copied().unwrap_or(0),
                after: new.totals.per_turn.get(f).copied().unwrap_or(0),
            },
        );
    }
    let keys: BTreeSet<&String> = old.skills.keys().chain(new.skills.keys()).collect();
    for key in keys {
        let (a, b) = (old.skills.get(key), new.skills.get(key));
        let sd = record_diff(key, a, b);
        match (a, b) {
            (None, Some(_)) => d.added.push(sd),
            (Some(_), None) => d.removed.push(sd),
            (Some(_), Some(_)) => {
                for (f, (fa, fb)) in &sd.fates {
                    if let (Some(fa), Some(fb)) = (fa, fb)
                        && fa.in_listing()
                        && *fb == Fate::Dropped
                    {
                        d.drops.push(Drop {
                            key: key.clone(),
                            name: sd.name.clone(),
                            format: f.clone(),
                            before: *fa,
                            after: *fb,
                        });
                    }
                }
                d.fate_changes += usize::from(!sd.fates.is_empty());
                if !sd.l1.is_empty()
                    || sd.l2.0 != sd.l2.1
                    || sd.l3.0 != sd.l3.1
                    || !sd.fates.is_empty()
                {
                    d.changed.push(sd);
                }
            }
            (None, None) => {}
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(name: &str, l1: u32, l2: u32, fate: Fate) -> SkillRecord {
        SkillRecord {
            name: name.to_string(),
            l1: [("xml".to_string(), l1), ("claude-code".to_string(), l1 / 2)]
                .into_iter()
                .collect(),
            l2: Some(l2),
            l3: Some(0),
            fate: [
                ("xml".to_string(), Fate::Listed),
                ("claude-code".to_string(), fate),
            ]
            .into_iter()
            .collect(),
        }
    }

    fn snap(skills: &[(&str, SkillRecord)], per_turn: u64) -> Snapshot {
        Snapshot {
            skillscope_baseline: VERSION,
            encoding: "o200k_base".into(),
            context_window: 200_000,
            tier: "auto".into(),
            formats: vec!["xml".into(), "claude-code".into()],
            totals: Totals {
                skills: skills.len(),
                per_turn: [("xml".to_string(), per_turn)].into_iter().collect(),
                ..Totals::default()
            },
            skills: skills
                .iter()
                .map(|(k, r)| (k.to_string(), r.clone()))
                .collect(),
        }
    }

    #[test]
    fn added_removed_changed_and_drops() {
        let old = snap(
            &[
                ("s/a", rec("a", 40, 300, Fate::Listed)),
                ("s/b", rec("b", 20, 100, Fate::Listed)),
                ("s/gone", rec("gone", 10, 50, Fate::Listed)),
            ],
            100,
        );
        let new = snap(
            &[
                ("s/a", rec("a", 60, 320, Fate::Listed)),
                ("s/b", rec("b", 20, 100, Fate::Dropped)),
                ("s/new", rec("new", 30, 90, Fate::NameOnly)),
            ],
            130,
        );
        let d = diff(&old, &new);
        assert_eq!(d.added.len(), 1);
        assert_eq!(d.added[0].key, "s/new");
        assert_eq!(
            d.added[0].fates.get("claude-code"),
            Some(&(None, Some(Fate::NameOnly)))
        );
        assert_eq!(d.removed.len(), 1);
        assert_eq!(d.removed[0].l2, (Some(50), None));
        assert!(d.removed[0].fates.is_empty());
        let keys: Vec<&str> = d.changed.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["s/a", "s/b"]);
        assert_eq!(d.changed[0].l1_delta("xml"), 20);
        assert_eq!(d.changed[0].l1_delta("claude-code"), 10);
        assert_eq!(delta(d.changed[0].l2), 20);
        assert_eq!(d.fate_changes, 1);
        assert_eq!(
            d.drops,
            vec![Drop {
                key: "s/b".into(),
                name: "b".into(),
                format: "claude-code".into(),
                before: Fate::Listed,
                after: Fate::Dropped,
            }]
        );
        assert_eq!(d.max_increase(), Some(("xml", 30)));
        assert!(!d.is_empty());
        assert!(diff(&new, &new).is_empty());
    }

    #[test]
    fn going_off_is_a_change_of_fate_not_a_drop() {
        let old = snap(&[("s/a", rec("a", 40, 300, Fate::Listed))], 10);
        let new = snap(&[("s/a", rec("a", 40, 300, Fate::Off))], 10);
        let d = diff(&old, &new);
        assert_eq!(d.fate_changes, 1);
        assert!(d.drops.is_empty());
    }

    #[test]
    fn file_round_trips_with_one_line_per_skill_and_refuses_other_versions() {
        let s = snap(
            &[
                ("s/b", rec("b", 20, 100, Fate::Listed)),
                ("s/a", rec("a", 40, 300, Fate::Trimmed)),
            ],
            100,
        );
        let text = s.to_json();
        assert_eq!(Snapshot::parse(&text).unwrap(), s);
        let lines: Vec<&str> = text.lines().collect();
        let a = lines.iter().position(|l| l.contains("\"s/a\"")).unwrap();
        let b = lines.iter().position(|l| l.contains("\"s/b\"")).unwrap();
        assert_eq!(b, a + 1, "sorted, one line each:\n{text}");
        assert_eq!(s.to_json(), text, "stable");
        let empty = snap(&[], 0);
        assert_eq!(Snapshot::parse(&empty.to_json()).unwrap(), empty);
        let v2 = text.replace("\"skillscope_baseline\": 1", "\"skillscope_baseline\": 2");
        assert!(matches!(
            Snapshot::parse(&v2),
            Err(BaselineError::Version(2))
        ));
        assert!(matches!(
            Snapshot::parse("{\"x\": 1}"),
            Err(BaselineError::Parse(_))
        ));
    }
}
