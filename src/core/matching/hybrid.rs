//! The `hybrid` matcher: the semantic similarity, raised by bm25's own finding where there is
//! one: a skill whose words the message uses (enough for bm25 to take it) gains up to
//! [`BM25_WEIGHT`], in proportion to its share of the best bm25 score, if it is near the message
//! in meaning at all ([`MIN_LIFTED_SIMILARITY`]). Words that bm25 alone would not act on add
//! nothing, so common words do not pull in noise. A skill the message names outright
//! (`Bm25Index::named`) passes every semantic gate, and is lifted by bm25 however far it is in
//! meaning.

use super::Match;
use super::bm25::Bm25Index;
use super::lexicon::Lexicon;
use super::semantic::{self, SkillVectors};
use rustc_hash::FxHashMap;

/// What bm25's best skill adds to its similarity (a tenth of the cosine scale is a clear lead at
/// the similarities these messages reach).
pub const BM25_WEIGHT: f32 = 0.15;
/// A skill must be at least this near in meaning for bm25's finding to lift it: a word the
/// message shares with a skill about something else ("next" in a message about the pager and a
/// skill about Next.js) is not a reason to load it.
pub const MIN_LIFTED_SIMILARITY: f32 = 0.2;

#[allow(clippy::too_many_arguments)]
pub(super) fn query(
    bm25: &Bm25Index,
    lx: &Lexicon,
    vectors: &SkillVectors,
    message: &str,
    q: &[f32],
    enabled: &dyn Fn(usize) -> bool,
    k: usize,
    names: &[String],
) -> Vec<Match> {
    let lexical: Vec<(u32, f32)> = bm25
        .ranked(lx, message, enabled, names)
        .into_iter()
        .filter(|&(_, _, taken)| taken)
        .map(|(d, score, _)| (d, score))
        .collect();
    let best_lexical = lexical.first().map_or(0.0, |l| l.1);
    let boost: FxHashMap<u32, f32> = lexical
        .iter()
        .map(|&(d, s)| (d, BM25_WEIGHT * s / best_lexical))
        .collect();
    let named = bm25.named(lx, message, enabled, &semantic::whole_word);
    let is_named = |d: u32| named.binary_search(&d).is_ok();
    let sims = vectors.similarities(q, enabled);
    let lifted = |d: u32, sim: f32| match boost.get(&d) {
        Some(&b) if sim >= MIN_LIFTED_SIMILARITY || is_named(d) => sim + b,
        _ => sim,
    };
    let mut found = semantic::nearest(&sims, &lifted, k, names);
    // A skill the message names outright passes every semantic gate: in a library of app
    // skills that share one template description, its name is all there is to route on.
    for (d, fields) in &sims {
        if is_named(*d) && !found.iter().any(|f| f.0 == *d) {
            let sim = fields.first().map_or(0.0, |f| f.1);
            found.push((*d, lifted(*d, sim), fields.as_slice()));
        }
    }
    found.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| names[a.0 as usize].cmp(&names[b.0 as usize]))
    });
    keep_named(&mut found, &|d| is_named(d), k);
    found
        .into_iter()
        .map(|(d, score, fields)| {
            let nearest = fields.get(..1).unwrap_or(&[]);
            let mut hits = semantic::hits(nearest);
            let lexical = boost.contains_key(&d) || is_named(d);
            if lexical && score > nearest.first().map_or(0.0, |x| x.1) {
                hits.extend(bm25.hits_of(lx, message, d));
            }
            Match {
                skill: d as usize,
                score,
                hits,
                name_indices: Vec::new(),
            }
        })
        .collect()
}

/// Cuts `found`, ordered best first, to `k`: the best skill always stays first, and the rest of
/// the room goes to the skills the message names before the others, so a named skill far in
/// meaning still shows among the first five but never takes the only place (`--top 1`) from a
/// skill much nearer. The order stays the score's.
fn keep_named<T>(found: &mut Vec<(u32, f32, T)>, is_named: &dyn Fn(u32) -> bool, k: usize) {
    let Some(best) = found.first().map(|f| f.0) else {
        return;
    };
    let named_n = found
        .iter()
        .filter(|f| f.0 != best && is_named(f.0))
        .count()
        .min(k.saturating_sub(1));
    let mut room = k.saturating_sub(1 + named_n);
    found.retain(|f| {
        f.0 == best
            || is_named(f.0)
            || (room > 0 && {
                room -= 1;
                true
            })
    });
    found.truncate(k);
}

#[cfg(test)]
mod tests {
    use super::super::Index;
    use super::super::testlib::library;
    #[cfg(feature = "semantic")]
    use super::super::{Matcher, testlib::names};
    #[cfg(feature = "semantic")]
    use std::sync::Arc;

    /// App skills as an automation catalogue ships them: one template description each, the
    /// app's name the only word that differs.
    #[cfg(feature = "semantic")]
    const APPS: &[&str] = &[
        "Strava",
        "QuickBooks",
        "Xero",
        "Expensify",
        "Stripe",
        "Plaid",
        "Wave",
        "FreshBooks",
        "Trello",
        "Asana",
        "Slack",
        "Todoist",
        "Notion",
        "Airtable",
        "Mailchimp",
        "Zendesk",
        "Calendly",
        "Garmin",
        "Fitbit",
        "Peloton",
    ];

    #[cfg(feature = "semantic")]
    fn app_library() -> (tempfile::TempDir, crate::core::Library) {
        let skills: Vec<(String, String)> = APPS
            .iter()
            .map(|app| {
                let slug = app.to_lowercase();
                (
                    slug.clone(),
                    format!(
                        "name: {slug}-automation\ndescription: \"Automate {app} tasks via Rube MCP (Composio): records, accounts, reports. Always search tools first for current schemas.\""
                    ),
                )
            })
            .collect();
        let refs: Vec<(&str, &str)> = skills
            .iter()
            .map(|(d, f)| (d.as_str(), f.as_str()))
            .collect();
        library(&refs)
    }

    #[cfg(feature = "semantic")]
    #[test]
    fn a_request_that_names_the_app_finds_its_skill_and_small_talk_stays_quiet() {
        let (_t, lib) = app_library();
        let idx = Index::build(&lib);
        let v = super::super::semantic::SkillVectors::build(&lib, &|_, _| {}).unwrap();
        assert!(idx.set_vectors(Arc::new(v)));
        for (message, app) in [
            ("log my ride on Strava", "strava-automation"),
            (
                "log my ride on strava from this morning",
                "strava-automation",
            ),
            (
                "send the March invoice to the client with QuickBooks",
                "quickbooks-automation",
            ),
            (
                "add a card for the bug to our Trello board",
                "trello-automation",
            ),
            ("post the standup summary in Slack", "slack-automation"),
            (
                "sync yesterday's run from my Garmin watch",
                "garmin-automation",
            ),
        ] {
            let bm25 = idx.query(message, Matcher::Bm25, &|_| true, 5);
            assert_eq!(names(&lib, &bm25).first(), Some(&app), "bm25: {message}");
            let got = idx.query(message, Matcher::Hybrid, &|_| true, 5);
            assert_eq!(
                names(&lib, &got).first(),
                Some(&app),
                "hybrid: {message}: {:?}",
                names(&lib, &got)
            );
            assert!(
                got[0]
                    .hits
                    .iter()
                    .any(|h| h.field == super::super::HitField::Name),
                "the name says why: {:?}",
                got[0].hits
            );
        }
        for message in [
            "thanks, that's all for today",
            "hi there!",
            "what's the weather like where you are?",
            "did you catch the match last night? what a finish",
        ] {
            let got = idx.query(message, Matcher::Hybrid, &|_| true, 5);
            assert!(got.is_empty(), "{message}: {:?}", names(&lib, &got));
        }
    }

    #[test]
    fn the_best_score_keeps_the_first_place_and_named_skills_the_rest_of_the_room() {
        let found = || -> Vec<(u32, f32, ())> {
            vec![
                (1, 0.71, ()),
                (2, 0.6, ()),
                (3, 0.5, ()),
                (4, 0.4, ()),
                (9, 0.1, ()),
            ]
        };
        let named = |d: u32| d == 9;
        let ids = |v: &[(u32, f32, ())]| v.iter().map(|f| f.0).collect::<Vec<_>>();
        let mut top1 = found();
        super::keep_named(&mut top1, &named, 1);
        assert_eq!(
            ids(&top1),
            [1],
            "a far better meaning score keeps the only place"
        );
        let mut top3 = found();
        super::keep_named(&mut top3, &named, 3);
        assert_eq!(
            ids(&top3),
            [1, 2, 9],
            "the named skill is kept, in score order"
        );
        let mut top5 = found();
        super::keep_named(&mut top5, &named, 5);
        assert_eq!(ids(&top5), [1, 2, 3, 4, 9]);
        let mut none = found();
        super::keep_named(&mut none, &|_| false, 2);
        assert_eq!(ids(&none), [1, 2]);
        let mut empty: Vec<(u32, f32, ())> = Vec::new();
        super::keep_named(&mut empty, &named, 1);
        assert!(empty.is_empty());
    }

    /// A name counts when it is the skill's distinctive name: not a dictionary word another word
    /// of the name outranks, a single letter, two letters of a longer name, or a stem.
    #[test]
    fn only_a_skill_s_distinctive_name_names_it() {
        let (_t, lib) = library(&[
            (
                "blackops",
                "name: blackops-center\ndescription: Run the black operations dashboard.",
            ),
            (
                "happyscribe",
                "name: happy-scribe-automation\ndescription: Automate Happy Scribe transcripts via Rube MCP.",
            ),
            (
                "toggl",
                "name: toggl-automation\ndescription: Automate Toggl time entries via Rube MCP.",
            ),
            (
                "slack",
                "name: slack-automation\ndescription: Automate Slack messages via Rube MCP.",
            ),
            (
                "ycomb",
                "name: y-pitch\ndescription: Draft a pitch for the accelerator.",
            ),
            (
                "cvb",
                "name: cv-builder\ndescription: Build a resume in LaTeX.",
            ),
            ("cv", "name: cv\ndescription: Write a resume."),
        ]);
        let idx = Index::build(&lib);
        let dictionary = ["center", "happy", "slack", "cv", "y", "toggle", "scribe"];
        let vocabulary = |w: &str| dictionary.contains(&w);
        let named = |m: &str| -> Vec<&str> {
            idx.bm25
                .named(&idx.lexicon, m, &|_| true, &vocabulary)
                .into_iter()
                .map(|d| lib.skills[d as usize].name.as_str())
                .collect()
        };
        assert!(
            named("check the cluster against the Center for Internet Security guide").is_empty()
        );
        assert!(named("I am so Happy today").is_empty());
        assert!(named("what does Y stand for").is_empty());
        assert!(named("toggle the dark mode").is_empty(), "a stem of toggl");
        assert_eq!(named("log two hours in Toggl"), ["toggl-automation"]);
        assert_eq!(named("post the summary in Slack"), ["slack-automation"]);
        assert_eq!(named("update my CV please"), ["cv"], "the whole name only");
    }

    #[test]
    fn a_dictionary_word_in_lower_case_names_nothing() {
        let (_t, lib) = library(&[
            (
                "finishing",
                "name: finishing-a-development-branch\ndescription: Wrap up a feature branch: tests, merge or pull request, cleanup.",
            ),
            (
                "strava",
                "name: strava-automation\ndescription: Automate Strava tasks via Rube MCP (Composio).",
            ),
        ]);
        let idx = Index::build(&lib);
        let vocabulary = |w: &str| w != "strava";
        let named = |m: &str| idx.bm25.named(&idx.lexicon, m, &|_| true, &vocabulary);
        assert!(named("what a finish last night").is_empty());
        assert!(named("a development branch").is_empty(), "not every word");
        assert_eq!(
            named("finishing a development branch").len(),
            1,
            "every word"
        );
        assert_eq!(
            named("log my ride on strava").len(),
            1,
            "not a dictionary word"
        );
        assert_eq!(
            named("my Strava ride").len(),
            1,
            "capitalised inside a sentence"
        );
    }
}
