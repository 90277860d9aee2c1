//! What a listing is: which one to render (format, tier, window), and the record of what it did
//! with each skill and built-in. Below every format's module, so each can build one.

use super::format::{Budget, BudgetUnit, BuiltinEntry, CHARS_PER_TOKEN, Format, ListingError};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Up to this many listed skills, the auto tier lists every entry in full.
pub const FULL_TIER_MAX: usize = 80;
/// Up to this many, compact entries; above it, names only.
pub const COMPACT_TIER_MAX: usize = 300;
/// Compact entries cut descriptions to this many characters (the `…` included): the PR's
/// "Compact (name + 80-char desc)" (design 003).
pub const COMPACT_DESCRIPTION_CHARS: usize = 80;
/// The full entries the auto tier picks cut descriptions to this many characters (the `…`
/// included), then add `when_to_use`: the PR's full listing holds "name, description (250
/// chars), whenToUse, and file path for every skill" (design 003).
pub const FULL_DESCRIPTION_CHARS: usize = 250;
/// The context window assumed when none is given (tokens).
pub const DEFAULT_CONTEXT_WINDOW: usize = 200_000;
/// Codex trims descriptions evenly, but not below this; past it, descriptions are dropped.
pub const MIN_TRIMMED_DESCRIPTION: usize = 24;

/// How much of each entry is listed.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    Serialize,
    strum::VariantArray,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Tier {
    /// Chosen by the number of listed skills: full up to 80, compact up to 300, names above.
    #[default]
    Auto,
    /// Every entry in full.
    Full,
    /// Name and a description cut to 80 characters.
    Compact,
    /// Names only, with a line pointing the agent to a skill search tool.
    Names,
}

impl Tier {
    /// Every tier, in the order they are offered.
    pub const ALL: &'static [Tier] = <Tier as strum::VariantArray>::VARIANTS;

    /// Its name on the command line, in the config file and in JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The tier auto picks for this many listed skills.
    pub fn for_count(n: usize) -> Tier {
        if n <= FULL_TIER_MAX {
            Tier::Full
        } else if n <= COMPACT_TIER_MAX {
            Tier::Compact
        } else {
            Tier::Names
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Tier {
    type Err = ListingError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Tier::ALL
            .iter()
            .copied()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| ListingError::UnknownTier(s.to_string()))
    }
}

/// What the listing did with a skill.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    strum::VariantArray,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "lowercase")]
pub enum Fate {
    /// Listed in full.
    Full,
    /// Listed with its description cut.
    Trimmed,
    /// Listed by name only.
    #[strum(to_string = "name only")]
    NameOnly,
    /// Left out of the listing.
    Dropped,
}

impl Fate {
    /// Every fate, from most to least listed.
    pub const ALL: &'static [Fate] = <Fate as strum::VariantArray>::VARIANTS;

    /// Its name in JSON and on screen.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which listing to render: format, tier and the context window its budget is a share of (an
/// agent's own listing: `core::agents::model::AgentModel::listing_options`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListingOptions {
    /// The agent's listing format.
    pub format: Format,
    /// How much of each entry is listed.
    pub tier: Tier,
    /// The model's context window in tokens; the agents' budgets are a share of it.
    pub context_window: usize,
    /// How many characters a token is taken for when the window becomes a budget (Claude Code:
    /// 3, or 4 for its older models).
    pub chars_per_token: usize,
    /// The budget in characters set outright (Claude Code's `SLASH_COMMAND_TOOL_CHAR_BUDGET`, or a
    /// share its settings give), instead of the format's share of the window.
    pub budget_chars: Option<usize>,
    /// Entries the agent's client lists whatever the library holds (Claude Code's, Gemini CLI's
    /// and opencode's built-ins), placed by the format's [`Order`].
    pub builtins: &'static [BuiltinEntry],
    /// The folder the client is installed in, for the built-ins' locations (Gemini CLI's).
    pub client_dir: Option<&'static std::path::Path>,
    /// How the client release in view writes what its releases differ in.
    pub dialect: super::dialect::Dialect,
    /// The client sends its section on how to use skills with the listing for the model in view
    /// (`ClientModel::skills_usage`: Codex's "How to use skills").
    pub skills_usage: bool,
}

impl Default for ListingOptions {
    fn default() -> Self {
        ListingOptions {
            format: Format::default(),
            tier: Tier::default(),
            context_window: DEFAULT_CONTEXT_WINDOW,
            chars_per_token: CHARS_PER_TOKEN,
            budget_chars: None,
            builtins: &[],
            client_dir: None,
            dialect: super::dialect::Dialect::CURRENT,
            skills_usage: false,
        }
    }
}

impl ListingOptions {
    /// The listing's budget, for the formats that have one: the characters set outright, else
    /// the format's share of the window.
    pub fn budget(&self) -> Option<Budget> {
        self.budget_chars.map(Budget::chars).or_else(|| {
            self.format
                .budget_at(self.context_window, self.chars_per_token)
        })
    }
}

/// One enabled skill and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedSkill {
    /// Index into `Library::skills`.
    pub index: usize,
    /// What became of it.
    pub fate: Fate,
    /// Why it is not listed in full; empty when it is.
    pub reason: String,
}

/// One of the client's built-in entries and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedBuiltin {
    /// Its name.
    pub name: &'static str,
    /// What became of it: full, or name only when the budget shortened it.
    pub fate: Fate,
}

/// A rendered listing and what it did with each enabled skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listing {
    /// The listing as the system prompt holds it.
    pub text: String,
    /// The tier used (never `Auto`).
    pub tier: Tier,
    /// The agent's budget, for the formats that have one.
    pub budget: Option<Budget>,
    /// What the budget is charged with, in its unit (characters without a budget): every listed
    /// entry plus its line break (Claude Code: the entries joined by line breaks, in UTF-16
    /// units; Codex: its token estimate of every line, plus what its roots table adds).
    pub used: usize,
    /// One per enabled skill, in library order.
    pub entries: Vec<ListedSkill>,
    /// The client's built-in entries, in listing order.
    pub builtins: Vec<ListedBuiltin>,
    /// The names of the listed entries (the library's and the built-ins'), in listing order:
    /// what a skill tool that repeats them (Gemini CLI's `activate_skill`) names.
    #[serde(skip)]
    pub names: Vec<String>,
    /// Each listed entry's own text, in listing order, with its skill's index (`None`: a
    /// built-in), for the formats whose entries the listing joins by line breaks (empty for
    /// the formats their own module builds whole).
    #[serde(skip)]
    pub texts: Vec<(Option<usize>, String)>,
}

impl Listing {
    /// The budget's limit and what it was charged, when the budget counts `unit`.
    pub fn budget_in(&self, unit: BudgetUnit) -> Option<(usize, usize)> {
        self.budget
            .filter(|b| b.unit == unit)
            .map(|b| (b.limit, self.used))
    }

    /// `7,990 of 8,000 chars`, `9,998 of 10,000 tokens`, for listings with a budget.
    pub fn budget_text(&self) -> Option<String> {
        self.budget.map(|b| {
            format!(
                "{} of {}",
                crate::core::words::text::thousands(self.used as u64),
                b
            )
        })
    }

    /// How many skills met `fate`.
    pub fn count(&self, fate: Fate) -> usize {
        self.entries.iter().filter(|e| e.fate == fate).count()
    }

    /// What the client may order or pick otherwise than this listing shows, by the index of each
    /// listed skill it concerns (`Library::choices`): an order among a folder's entries only
    /// where another entry of that folder is listed too.
    pub fn client_choices(
        &self,
        lib: &crate::core::library::Library,
    ) -> std::collections::BTreeMap<usize, String> {
        let listed: Vec<usize> = self
            .entries
            .iter()
            .filter(|e| e.fate != Fate::Dropped)
            .map(|e| e.index)
            .collect();
        let folder = |i: usize| lib.choices.get(&i).and_then(|c| c.order.as_deref());
        let mut out = std::collections::BTreeMap::new();
        for &i in &listed {
            let Some(c) = lib.choices.get(&i) else {
                continue;
            };
            let beside = c.order.as_deref().map_or(0, |f| {
                listed
                    .iter()
                    .filter(|&&j| j != i && folder(j) == Some(f))
                    .count()
            });
            if let Some(why) = c.describe(beside) {
                out.insert(i, why);
            }
            // The copies passed over: the client may list any of them instead.
            let copy = crate::core::library::ClientChoice {
                order: None,
                ..c.clone()
            };
            if let Some(why) = copy.describe(0) {
                for &k in &c.copies {
                    if self.entries.iter().any(|e| e.index == k) {
                        out.insert(k, why.clone());
                    }
                }
            }
        }
        out
    }
}
