//! Listing modes, the Lazy Skills `list_level1(mode)`: which skills the catalog holds — the
//! enabled ones, every installed one, or only those a message makes relevant — and what each
//! mode costs per turn, side by side.

use crate::core::library::Library;
use crate::core::listing::{self, Listing, ListingOptions};
use crate::core::matching::{Index, Matcher};
use crate::core::tokens::{self, Encoding, TokenCache};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// How many skills a matcher may make relevant per message, as the `match` command shows.
pub const DEFAULT_TOP_K: usize = 5;

/// Which skills a listing offers: the ones switched on, every one, or the ones a message makes relevant.
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
pub enum ListingMode {
    /// The skills switched on (skillscope's state, else their frontmatter's default).
    #[default]
    Enabled,
    /// Every installed skill, as agents without toggles list them.
    All,
    /// Only the skills a message makes relevant, by a matcher.
    Auto,
}

impl ListingMode {
    /// Every mode, in the order the app cycles through them.
    pub const ALL: &'static [ListingMode] = <ListingMode as strum::VariantArray>::VARIANTS;

    /// Its name on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The mode after this one, round to the first.
    pub fn next(self) -> ListingMode {
        let i = ListingMode::ALL
            .iter()
            .position(|m| *m == self)
            .unwrap_or(0);
        ListingMode::ALL[(i + 1) % ListingMode::ALL.len()]
    }
}

impl fmt::Display for ListingMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A listing mode name that is none of skillscope's.
#[derive(Debug, thiserror::Error)]
#[error("unknown listing mode `{0}`: use enabled, all or auto")]
pub struct UnknownMode(String);

impl FromStr for ListingMode {
    type Err = UnknownMode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ListingMode::ALL
            .iter()
            .copied()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| UnknownMode(s.to_string()))
    }
}

/// How `auto` decides what a message makes relevant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoOptions {
    /// The skills of any of these matchers' answers are listed.
    pub matchers: Vec<Matcher>,
    /// At most this many per matcher (and at most each matcher's own cap).
    pub top: usize,
}

impl Default for AutoOptions {
    fn default() -> Self {
        AutoOptions {
            matchers: vec![Matcher::Bm25],
            top: DEFAULT_TOP_K,
        }
    }
}

impl AutoOptions {
    /// `bm25`, or `keyword+triggers+bm25`, for labels.
    pub fn label(&self) -> String {
        self.matchers
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join("+")
    }
}

/// The library indices a message makes relevant, in library order: every skill some matcher
/// returns for it among those that `competes` allows (the skills an agent would consider).
pub fn relevant(
    index: &Index,
    message: &str,
    competes: &dyn Fn(usize) -> bool,
    opts: &AutoOptions,
) -> Vec<usize> {
    let mut out: Vec<usize> = index
        .query_many(message, &opts.matchers, competes, opts.top)
        .into_iter()
        .flat_map(|(_, ms)| ms)
        .map(|m| m.skill)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Which skills each mode offers to the listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selections {
    /// Switched on: skillscope's state, else their frontmatter's default.
    pub enabled: Vec<bool>,
    /// Every skill an agent could list.
    pub all: Vec<bool>,
    /// `None` when there is no message to judge relevance by.
    pub auto: Option<Vec<bool>>,
}

impl Selections {
    /// `enabled` as given, every skill of `in_scope` for `all`, and the `relevant` skills for
    /// `auto`.
    pub fn new(
        enabled: Vec<bool>,
        in_scope: &dyn Fn(usize) -> bool,
        relevant: Option<&[usize]>,
    ) -> Self {
        let n = enabled.len();
        let auto = relevant.map(|r| {
            let mut v = vec![false; n];
            for &i in r {
                if let Some(slot) = v.get_mut(i) {
                    *slot = true;
                }
            }
            v
        });
        Selections {
            all: (0..n).map(in_scope).collect(),
            enabled,
            auto,
        }
    }

    /// [`Selections::subset`] for one agent's view: an agent with switches of its own obeys
    /// only those (its view applies them), so skillscope's own store switches nothing there.
    pub fn for_view(
        &self,
        lib: &crate::core::library::Library,
        keep: &[usize],
        agent: crate::core::source::Agent,
    ) -> Selections {
        let mut out = self.subset(keep);
        for (n, &i) in keep.iter().enumerate() {
            if let Some(on) = lib
                .skills
                .get(i)
                .and_then(|s| crate::core::agents::own_switch(agent, s))
                && let (Some(e), Some(&a)) = (out.enabled.get_mut(n), out.all.get(n))
            {
                *e = a && on;
            }
        }
        out
    }

    /// The selections of the skills at `keep` only, in that order (for one agent's view).
    pub fn subset(&self, keep: &[usize]) -> Selections {
        let pick = |v: &[bool]| -> Vec<bool> {
            keep.iter()
                .map(|&i| v.get(i).copied().unwrap_or(false))
                .collect()
        };
        Selections {
            enabled: pick(&self.enabled),
            all: pick(&self.all),
            auto: self.auto.as_deref().map(pick),
        }
    }

    /// What `mode` offers; `None` for auto when there is no message.
    pub fn get(&self, mode: ListingMode) -> Option<&[bool]> {
        match mode {
            ListingMode::Enabled => Some(&self.enabled),
            ListingMode::All => Some(&self.all),
            ListingMode::Auto => self.auto.as_deref(),
        }
    }
}

/// What one mode's listing holds and costs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModeCost {
    /// The mode.
    pub mode: ListingMode,
    /// Skills the mode offers to the listing.
    pub skills: usize,
    /// Entries in the listing (offered and not dropped).
    pub listed: usize,
    /// Characters of its listing.
    pub chars: usize,
    /// Tokens of its listing, every turn.
    pub tokens: u32,
}

impl ModeCost {
    fn of(mode: ListingMode, listing: &Listing, tokens: u32) -> ModeCost {
        ModeCost {
            mode,
            skills: listing.entries.len(),
            listed: listing.entries.len() - listing.count(listing::Fate::Dropped),
            chars: listing.text.chars().count(),
            tokens,
        }
    }
}

/// The three modes side by side for one library, listing format and message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Comparison {
    /// One per mode that could be rendered, in [`ListingMode::ALL`] order (`auto` is missing
    /// without a message).
    pub modes: Vec<ModeCost>,
}

impl Comparison {
    /// What `mode` costs, when it could be priced.
    pub fn get(&self, mode: ListingMode) -> Option<&ModeCost> {
        self.modes.iter().find(|m| m.mode == mode)
    }

    /// How much `mode` saves per turn against `baseline`, in percent of the baseline (negative
    /// when it costs more); `None` when either is missing or the baseline is empty.
    pub fn saving(&self, mode: ListingMode, baseline: ListingMode) -> Option<f64> {
        let m = self.get(mode)?;
        let b = self.get(baseline)?;
        (b.tokens > 0)
            .then(|| (f64::from(b.tokens) - f64::from(m.tokens)) / f64::from(b.tokens) * 100.0)
    }
}

/// Renders the listing of every mode the selections have and counts each through the cache.
/// Returns the listing of `shown` (when it could be rendered) and the comparison.
pub fn compare(
    lib: &Library,
    selections: &Selections,
    opts: &ListingOptions,
    enc: Encoding,
    cache: &TokenCache,
    shown: ListingMode,
) -> (Option<(Listing, u32)>, Comparison) {
    let mut out = Comparison::default();
    let mut kept = None;
    for &mode in ListingMode::ALL {
        let Some(mask) = selections.get(mode) else {
            continue;
        };
        let listing = listing::render(lib, &|i| mask.get(i).copied().unwrap_or(false), opts);
        let n = tokens::count_listing(lib, &listing.text, enc, cache);
        out.modes.push(ModeCost::of(mode, &listing, n));
        if mode == shown {
            kept = Some((listing, n));
        }
    }
    (kept, out)
}

/// `−77%`-style text for a saving (a rise shows as `+12%`). Whole percents, except where
/// rounding would claim a total saving or none at all: `−99.7%` and `−0.3%` keep a decimal, so
/// only an equal listing shows `0%` and only an empty one `−100%`.
pub fn saving_text(p: Option<f64>) -> String {
    let Some(p) = p else {
        return "—".to_string();
    };
    if p == 0.0 {
        return "0%".to_string();
    }
    let a = p.abs();
    let figure = if a < 0.5 || (99.5..100.0).contains(&a) {
        // One decimal, but never rounded up to the whole saving or down to nothing.
        let d = if a < 0.5 {
            ((a * 10.0).round() / 10.0).max(0.1)
        } else {
            ((a * 10.0).floor() / 10.0).min(99.9)
        };
        format!("{d:.1}")
    } else {
        format!("{a:.0}")
    };
    if p > 0.0 {
        format!("−{figure}%")
    } else {
        format!("+{figure}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::matching::testlib::library;

    #[test]
    fn modes_list_what_they_promise_and_auto_costs_least() {
        let (_t, lib) = library(&[
            (
                "pdf",
                "name: pdf\ndescription: Fill and read PDF forms. Use for PDF files.",
            ),
            (
                "git",
                "name: git\ndescription: Write git commit messages. Use when committing.",
            ),
            (
                "sql",
                "name: sql\ndescription: Speed up slow SQL queries. Use for databases.",
            ),
            (
                "docker",
                "name: docker\ndescription: Debug containers that fail. Use for Docker.",
            ),
        ]);
        let index = Index::build(&lib);
        let git = lib.find("git").unwrap();
        let pdf = lib.find("pdf").unwrap();
        let enabled: Vec<bool> = (0..lib.len()).map(|i| i != git).collect();
        let competes = |i: usize| enabled[i];
        let rel = relevant(
            &index,
            "fill this pdf form",
            &competes,
            &AutoOptions::default(),
        );
        assert_eq!(rel, vec![pdf]);
        // git is off, so no message can make it relevant.
        assert!(
            relevant(
                &index,
                "write a git commit message",
                &competes,
                &AutoOptions::default()
            )
            .is_empty()
        );
        let sel = Selections::new(enabled.clone(), &|_| true, Some(&rel));
        let cache = TokenCache::in_memory();
        let opts = ListingOptions {
            format: listing::Format::Markdown,
            ..ListingOptions::default()
        };
        let (shown, cmp) = compare(
            &lib,
            &sel,
            &opts,
            Encoding::O200kBase,
            &cache,
            ListingMode::Auto,
        );
        let (listing, tokens) = shown.unwrap();
        assert!(listing.text.contains("**pdf**") && !listing.text.contains("**sql**"));
        let counts: Vec<(ListingMode, usize)> =
            cmp.modes.iter().map(|m| (m.mode, m.listed)).collect();
        assert_eq!(
            counts,
            vec![
                (ListingMode::Enabled, 3),
                (ListingMode::All, 4),
                (ListingMode::Auto, 1)
            ]
        );
        assert_eq!(cmp.get(ListingMode::Auto).unwrap().tokens, tokens);
        let exact = tokens::count(Encoding::O200kBase, &listing.text) as u32;
        assert_eq!(tokens, exact);
        let all = cmp.get(ListingMode::All).unwrap().tokens;
        let saving = cmp.saving(ListingMode::Auto, ListingMode::All).unwrap();
        assert!(
            (saving - (f64::from(all) - f64::from(exact)) / f64::from(all) * 100.0).abs() < 1e-9
        );
        assert!(saving > 50.0, "{saving}");
        assert!(cmp.saving(ListingMode::All, ListingMode::Enabled).unwrap() < 0.0);
    }

    #[test]
    fn without_a_message_auto_is_left_out() {
        let (_t, lib) = library(&[("pdf", "name: pdf\ndescription: Fill PDF forms.")]);
        let sel = Selections::new(vec![true], &|_| true, None);
        let (shown, cmp) = compare(
            &lib,
            &sel,
            &ListingOptions::default(),
            Encoding::O200kBase,
            &TokenCache::in_memory(),
            ListingMode::Auto,
        );
        assert!(shown.is_none());
        assert_eq!(cmp.modes.len(), 2);
        assert_eq!(cmp.saving(ListingMode::Auto, ListingMode::All), None);
    }

    #[test]
    fn modes_parse_and_cycle() {
        for &m in ListingMode::ALL {
            assert_eq!(m.as_str().parse::<ListingMode>().unwrap(), m);
        }
        assert_eq!(ListingMode::Auto.next(), ListingMode::Enabled);
        assert!("some".parse::<ListingMode>().is_err());
        assert_eq!(saving_text(Some(76.6)), "−77%");
        assert_eq!(saving_text(Some(-12.0)), "+12%");
        assert_eq!(saving_text(None), "—");
        assert_eq!(saving_text(Some(0.0)), "0%");
        assert_eq!(saving_text(Some(100.0)), "−100%");
        // 611 tokens instead of 221,687: not a total saving.
        assert_eq!(saving_text(Some(99.72)), "−99.7%");
        assert_eq!(saving_text(Some(99.99)), "−99.9%");
        assert_eq!(saving_text(Some(0.01)), "−0.1%");
        assert_eq!(saving_text(Some(-0.3)), "+0.3%");
    }
}
