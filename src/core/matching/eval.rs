//! Routing evaluation: messages with the skills they should trigger, scored per matcher as
//! precision, recall and F1, with the misses and false alarms of each message.

use super::{Index, Matcher};
use crate::core::frontmatter;
use crate::core::library::Library;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// One message and the skills it should trigger (none, when `expect` is empty), each by its name
/// or, where names repeat, its id.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The message.
    pub message: String,
    /// The skills it should trigger.
    #[serde(alias = "expected")]
    pub expect: Vec<String>,
    /// Free text for the reader of the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Why a file of cases could not be used.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A line of a JSON-lines file is not a case.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line.
        line: usize,
        /// Why.
        message: serde_json::Error,
    },
    /// The YAML file is not a list of cases.
    #[error("{0}")]
    Yaml(#[from] crate::core::frontmatter::YamlError),
    /// There is no case.
    #[error("the file holds no cases")]
    Empty,
    /// A case expects skills the library does not have.
    #[error("case {case} ({message:?}) expects skills the library does not have: {}", names.iter().zip(meant).map(|(n, m)| match m { Some(m) => format!("{n} (did you mean `{m}`?)"), None => n.clone() }).collect::<Vec<_>>().join(", "))]
    UnknownSkills {
        /// The case's 1-based number.
        case: usize,
        /// Its message.
        message: String,
        /// The names that match no skill.
        names: Vec<String>,
        /// For each of them, the skill's name it is close to, if any.
        meant: Vec<Option<String>>,
    },
}

/// Reads cases from JSON Lines (one object per line; blank lines and `#` lines skipped), a JSON
/// array, or, when `yaml` is set, a YAML list.
pub fn parse_cases(text: &str, yaml: bool) -> Result<Vec<Case>, EvalError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let cases: Vec<Case> = if yaml {
        frontmatter::parse_yaml_value(text)?
    } else if text.trim_start().starts_with('[') {
        serde_json::from_str(text).map_err(|e| EvalError::Line {
            line: e.line(),
            message: e,
        })?
    } else {
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            out.push(serde_json::from_str(t).map_err(|e| EvalError::Line {
                line: i + 1,
                message: e,
            })?);
        }
        out
    };
    if cases.is_empty() {
        return Err(EvalError::Empty);
    }
    Ok(cases)
}

/// Checks that every expected name (or id) is a skill of the library (a typo would otherwise
/// read as a miss forever).
pub fn check_names(cases: &[Case], lib: &Library) -> Result<(), EvalError> {
    let known: HashSet<&str> = lib
        .skills
        .iter()
        .flat_map(|s| [s.name.as_str(), s.id.as_str()])
        .collect();
    for (i, c) in cases.iter().enumerate() {
        let unknown: Vec<String> = c
            .expect
            .iter()
            .filter(|n| !known.contains(n.as_str()))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            // In a fixed order, so that a tie names the same skill every run.
            let mut names: Vec<&str> = known.iter().copied().collect();
            names.sort_unstable();
            let meant = unknown
                .iter()
                .map(|n| {
                    crate::core::words::text::closest(n, names.iter().copied()).map(str::to_string)
                })
                .collect();
            return Err(EvalError::UnknownSkills {
                case: i + 1,
                message: c.message.clone(),
                names: unknown,
                meant,
            });
        }
    }
    Ok(())
}

/// What one matcher did with one message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// The message.
    pub message: String,
    /// The skills it should trigger.
    pub expect: Vec<String>,
    /// The ids of the skills triggered, best first: copies of one name stay apart.
    pub got: Vec<String>,
    /// Expected (as written in the case) but not triggered.
    pub missed: Vec<String>,
    /// Ids triggered but not expected.
    pub false_alarms: Vec<String>,
}

/// A matcher's totals over every case (micro-averaged: each expected or triggered skill counts
/// once).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Score {
    /// The matcher.
    pub matcher: Matcher,
    /// Expected skills that triggered.
    pub true_positives: usize,
    /// Skills that triggered but were not expected.
    pub false_positives: usize,
    /// Expected skills that did not trigger.
    pub false_negatives: usize,
    /// Share of triggered skills that were expected (1 when nothing triggered).
    pub precision: f64,
    /// Share of expected skills that triggered (1 when nothing was expected).
    pub recall: f64,
    /// The harmonic mean of precision and recall.
    pub f1: f64,
    /// Cases that expected nothing and got nothing.
    pub quiet_when_expected: usize,
    /// Cases that expected nothing.
    pub expected_quiet: usize,
    /// What it did with each case.
    pub outcomes: Vec<Outcome>,
}

/// Runs every case through each matcher, keeping at most `top_k` skills per message.
pub fn evaluate(
    index: &Index,
    lib: &Library,
    cases: &[Case],
    matchers: &[Matcher],
    enabled: &dyn Fn(usize) -> bool,
    top_k: usize,
) -> Vec<Score> {
    matchers
        .iter()
        .map(|&matcher| {
            let outcomes: Vec<Outcome> = cases
                .iter()
                .map(|c| {
                    let mut got: Vec<usize> = Vec::new();
                    for m in index.query(&c.message, matcher, enabled, top_k) {
                        if !got.contains(&m.skill) {
                            got.push(m.skill);
                        }
                    }
                    // An expected entry names a skill by its id, or by its name (any copy).
                    let meets = |e: &str, i: usize| {
                        let s = &lib.skills[i];
                        s.id == e || s.name == e
                    };
                    Outcome {
                        missed: c
                            .expect
                            .iter()
                            .filter(|e| !got.iter().any(|&i| meets(e, i)))
                            .cloned()
                            .collect(),
                        false_alarms: got
                            .iter()
                            .filter(|&&i| !c.expect.iter().any(|e| meets(e, i)))
                            .map(|&i| lib.skills[i].id.clone())
                            .collect(),
                        message: c.message.clone(),
                        expect: c.expect.clone(),
                        got: got.iter().map(|&i| lib.skills[i].id.clone()).collect(),
                    }
                })
                .collect();
            score(matcher, outcomes)
        })
        .collect()
}

fn score(matcher: Matcher, outcomes: Vec<Outcome>) -> Score {
    let fp: usize = outcomes.iter().map(|o| o.false_alarms.len()).sum();
    let fneg: usize = outcomes.iter().map(|o| o.missed.len()).sum();
    // Each expected entry met counts once, however many copies of a name met it.
    let tp: usize = outcomes
        .iter()
        .map(|o| o.expect.len() - o.missed.len())
        .sum();
    let precision = if tp + fp == 0 {
        1.0
    } else {
        tp as f64 / (tp + fp) as f64
    };
    let recall = if tp + fneg == 0 {
        1.0
    } else {
        tp as f64 / (tp + fneg) as f64
    };
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    let expected_quiet = outcomes.iter().filter(|o| o.expect.is_empty()).count();
    let quiet_when_expected = outcomes
        .iter()
        .filter(|o| o.expect.is_empty() && o.got.is_empty())
        .count();
    Score {
        matcher,
        true_positives: tp,
        false_positives: fp,
        false_negatives: fneg,
        precision,
        recall,
        f1,
        quiet_when_expected,
        expected_quiet,
        outcomes,
    }
}

#[cfg(test)]
mod tests {
    use super::super::testlib::library;
    use super::*;

    #[test]
    fn jsonl_yaml_and_json_array_read_the_same_cases() {
        let jsonl = "# routing\n{\"message\": \"fill a pdf\", \"expect\": [\"pdf\"]}\n\n{\"message\": \"hi\", \"expect\": []}\n";
        let yaml = "- message: fill a pdf\n  expect: [pdf]\n- message: hi\n  expect: []\n";
        let json = "[{\"message\": \"fill a pdf\", \"expected\": [\"pdf\"]}, {\"message\": \"hi\", \"expect\": []}]";
        let a = parse_cases(jsonl, false).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].expect, ["pdf"]);
        assert!(a[1].expect.is_empty());
        assert_eq!(parse_cases(yaml, true).unwrap(), a);
        assert_eq!(parse_cases(json, false).unwrap(), a);
    }

    #[test]
    fn bad_files_say_where() {
        let e = parse_cases(
            "{\"message\": \"a\", \"expect\": []}\n{\"message\": \"b\"}\n",
            false,
        );
        assert!(matches!(e, Err(EvalError::Line { line: 2, .. })), "{e:?}");
        let e = parse_cases(
            "{\"message\": \"a\", \"expect\": [], \"expcet\": 1}\n",
            false,
        );
        assert!(e.unwrap_err().to_string().contains("expcet"));
        let e = parse_cases("- message: a\n  expect: [\n", true);
        assert!(matches!(e, Err(EvalError::Yaml(_))), "{e:?}");
        let none = parse_cases("\n# nothing\n", false);
        assert!(matches!(none, Err(EvalError::Empty)), "{none:?}");
    }

    #[test]
    fn precision_recall_and_quiet_cases_add_up() {
        let (_t, lib) = library(&[
            (
                "pdf",
                "name: pdf\ndescription: Fill PDF forms.\ntriggers: [pdf]",
            ),
            (
                "xlsx",
                "name: xlsx\ndescription: Edit spreadsheets.\ntriggers: [spreadsheet]",
            ),
        ]);
        let idx = Index::build(&lib);
        let cases = parse_cases(
            concat!(
                "{\"message\": \"fill this pdf\", \"expect\": [\"pdf\"]}\n",
                "{\"message\": \"pdf into a spreadsheet\", \"expect\": [\"xlsx\"]}\n",
                "{\"message\": \"edit my budget\", \"expect\": [\"xlsx\"]}\n",
                "{\"message\": \"good morning\", \"expect\": []}\n",
            ),
            false,
        )
        .unwrap();
        check_names(&cases, &lib).unwrap();
        let s = &evaluate(&idx, &lib, &cases, &[Matcher::Triggers], &|_| true, 3)[0];
        // fill this pdf → pdf (tp); pdf into a spreadsheet → pdf (fp) + xlsx (tp);
        // edit my budget → nothing (fn); good morning → nothing.
        assert_eq!(
            (s.true_positives, s.false_positives, s.false_negatives),
            (2, 1, 1)
        );
        assert!((s.precision - 2.0 / 3.0).abs() < 1e-9);
        assert!((s.recall - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!((s.quiet_when_expected, s.expected_quiet), (1, 1));
        assert_eq!(s.outcomes[1].false_alarms, ["pdf"]);
        assert_eq!(s.outcomes[2].missed, ["xlsx"]);
    }

    #[test]
    fn copies_of_one_name_are_told_apart_by_id() {
        let (_t, lib) = library(&[
            ("a/pdf", "name: pdf\ndescription: Fill PDF forms."),
            ("b/pdf", "name: pdf\ndescription: Merge PDF files."),
            ("c/pdf", "name: pdf\ndescription: Split PDF pages."),
        ]);
        let idx = Index::build(&lib);
        let cases = parse_cases(
            concat!(
                "{\"message\": \"merge these pdf files\", \"expect\": [\"b.pdf\"]}\n",
                "{\"message\": \"a pdf\", \"expect\": [\"pdf\"]}\n",
            ),
            false,
        )
        .unwrap();
        check_names(&cases, &lib).unwrap();
        let s = &evaluate(&idx, &lib, &cases, &[Matcher::Keyword], &|_| true, 5)[0];
        let mut got = s.outcomes[0].got.clone();
        got.sort();
        assert_eq!(got, ["a.pdf", "b.pdf", "c.pdf"]);
        let mut alarms = s.outcomes[0].false_alarms.clone();
        alarms.sort();
        assert_eq!(alarms, ["a.pdf", "c.pdf"]);
        // The name meets any copy, and counts once.
        assert!(s.outcomes[1].missed.is_empty() && s.outcomes[1].false_alarms.is_empty());
        assert_eq!(s.true_positives, 2);
    }

    #[test]
    fn unknown_expected_names_are_an_error() {
        let (_t, lib) = library(&[("pdf", "name: pdf\ndescription: d")]);
        let cases = parse_cases("{\"message\": \"m\", \"expect\": [\"pfd\"]}", false).unwrap();
        let e = check_names(&cases, &lib).unwrap_err();
        assert!(
            e.to_string().ends_with(": pfd (did you mean `pdf`?)"),
            "{e}"
        );
        let cases = parse_cases("{\"message\": \"m\", \"expect\": [\"zzzzzz\"]}", false).unwrap();
        let e = check_names(&cases, &lib).unwrap_err();
        assert!(e.to_string().ends_with(": zzzzzz"), "{e}");
    }
}
