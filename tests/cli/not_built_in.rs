//! Built without the `semantic` feature: where the semantic and hybrid matchers would answer, the
//! commands say they are not built in, and everything else works.

use crate::common;
use common::*;

const NOT_BUILT_IN: &str = "not built in: skillscope was built without the semantic feature";

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_matcher_by_meaning_asked_by_name_is_an_error_that_says_why() {
    let home = tempfile::tempdir().unwrap();
    let demo = demo();
    for matcher in ["semantic", "hybrid"] {
        for command in [
            vec!["match", "--matcher", matcher, "merge two pdfs"],
            vec!["eval", "cases.jsonl", "--matcher", matcher],
            vec![
                "prompt",
                "--mode",
                "auto",
                "--message",
                "pdf",
                "--matcher",
                matcher,
            ],
        ] {
            let mut args = command.clone();
            args.push(demo.to_str().unwrap());
            let out = run(&args, home.path());
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(out.stdout.is_empty(), "{args:?}");
            let err = stderr(&out);
            assert!(
                err.contains(&format!("the {matcher} matcher is {NOT_BUILT_IN}")),
                "{args:?}: {err}"
            );
        }
    }
}

#[test]
fn all_runs_the_matchers_built_in_and_names_the_others() {
    let home = tempfile::tempdir().unwrap();
    let demo = demo();
    let out = run(
        &[
            "match",
            "--json",
            "pull the tables out of this pdf",
            demo.to_str().unwrap(),
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let keys: Vec<&str> = v["results"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["keyword", "triggers", "bm25"]);
    let err = stderr(&out);
    for matcher in ["semantic", "hybrid"] {
        assert!(
            err.contains(&format!(
                "skillscope: the {matcher} matcher is {NOT_BUILT_IN}"
            )),
            "{err}"
        );
    }

    let cases = home.path().join("cases.jsonl");
    write(
        &cases,
        "{\"message\": \"pull the tables out of this pdf\", \"expect\": [\"pdf-extract\"]}\n",
    );
    let out = run(
        &[
            "eval",
            "--json",
            cases.to_str().unwrap(),
            demo.to_str().unwrap(),
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let scored: Vec<&str> = v["matchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["matcher"].as_str().unwrap())
        .collect();
    assert!(scored.contains(&"bm25"), "{v}");
    assert!(
        !scored.contains(&"semantic") && !scored.contains(&"hybrid"),
        "{v}"
    );
    let skipped: Vec<(&str, &str)> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["matcher"].as_str().unwrap(), s["why"].as_str().unwrap()))
        .filter(|(_, why)| why.contains(NOT_BUILT_IN))
        .collect();
    assert_eq!(
        skipped.iter().map(|s| s.0).collect::<Vec<_>>(),
        ["semantic", "hybrid"]
    );
}

#[test]
fn check_embed_says_the_model_is_not_built_in_and_check_alone_says_it_compared_words() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write_library(
        &lib,
        &[
            ("query-speedup", "Make slow SQL queries faster."),
            ("sql-tuning", "Speed up slow SQL queries."),
        ],
    );
    let path = lib.to_str().unwrap();
    let out = run(&["check", "--embed", path], home.path());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(NOT_BUILT_IN), "{}", stderr(&out));
    let out = run(&["check", "--verbose", path], home.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("2 of 2 descriptions have no sentence vector yet"),
        "{err}"
    );
    assert!(
        err.contains("the sentence model that makes them is not built in"),
        "{err}"
    );
    assert!(
        !err.contains("--embed"),
        "no advice this build cannot take: {err}"
    );
}
