//! Trigger simulation end to end: explanations on the demo library, the `match` and `eval`
//! commands through the real binary, and routing quality on the hand-written eval files.

use crate::common;
use common::*;

use skillscope::core::Library;
use skillscope::core::front::load::enabled_mask;
use skillscope::core::matching::candidates;
use skillscope::core::matching::eval::{check_names, evaluate, parse_cases};
use skillscope::core::matching::{HitField, Index, Matcher};
use skillscope::core::scan::ScanOptions;
use skillscope::core::source;
use std::path::{Path, PathBuf};

fn load(paths: &[PathBuf]) -> Library {
    Library::load(source::path_roots(paths), &ScanOptions::default())
}

fn eval_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/eval")
        .join(name)
}

#[test]
fn keyword_false_positives_say_which_word_fired_and_from_where() {
    let lib = load(&[demo()]);
    let idx = Index::build(&lib);
    let allowed = candidates(&lib, &enabled_mask(&lib, None));
    let enabled = |i: usize| allowed[i];

    // Nothing here is about checking URLs, but the keyword rule makes every executable skill
    // answer to "call".
    let msg = "Call my mom and tell her I'll be late";
    let got = idx.query(msg, Matcher::Keyword, &enabled, 10);
    let url = lib.find("url-status").unwrap();
    let m = got
        .iter()
        .find(|m| m.skill == url)
        .expect("url-status fires");
    let hit = &m.hits[0];
    assert_eq!(
        (hit.term.as_str(), hit.field),
        ("call", HitField::ExecutableVerb)
    );
    assert_eq!(&msg[hit.spans[0].clone()], "Call");
    // The same message leaves bm25 quiet.
    assert!(idx.query(msg, Matcher::Bm25, &enabled, 10).is_empty());

    // The verbs are found inside other words too (design 000: `keyword in user_message_lower`):
    // "brunch" holds "run".
    let msg = "Where shall we have brunch?";
    let got = idx.query(msg, Matcher::Keyword, &enabled, 10);
    let m = got
        .iter()
        .find(|m| m.skill == url)
        .expect("url-status fires");
    assert_eq!(
        (m.hits[0].term.as_str(), m.hits[0].field),
        ("run", HitField::ExecutableVerb)
    );
    assert_eq!(&msg[m.hits[0].spans[0].clone()], "run");
    // A word of the name alone fires nothing: the whole name must be there.
    let msg = "What's the status of my order?";
    assert!(idx.query(msg, Matcher::Keyword, &enabled, 10).is_empty());
}

#[test]
fn skills_an_agent_would_not_load_are_not_candidates() {
    let lib = load(&[demo()]);
    let allowed = candidates(&lib, &enabled_mask(&lib, None));
    let idx = Index::build(&lib);
    let is = |name: &str| allowed[lib.find(name).unwrap()];
    assert!(!is("meeting-notes"), "auto_load: false");
    assert!(!is("broken-yaml"), "its frontmatter does not parse");
    assert!(is("pdf-extract"));
    let msg = "Turn this meeting transcript into minutes";
    assert!(idx.query(msg, Matcher::Bm25, &|i| allowed[i], 5).is_empty());
    let all = idx.query(msg, Matcher::Bm25, &|_| true, 5);
    assert_eq!(lib.skills[all[0].skill].name, "meeting-notes");
}

#[test]
fn a_skill_switched_off_in_skillscope_does_not_trigger() {
    let home = tempfile::tempdir().unwrap();
    let pdf = demo().join("pdf-extract");
    let state =
        serde_json::json!({"version": 1, "skills": {pdf.to_str().unwrap(): {"enabled": false}}});
    write(&home.path().join("config/state.json"), &state.to_string());
    let names = |extra: &[&str]| -> Vec<String> {
        let demo = demo();
        let mut args = vec![
            "match",
            "pull the tables out of this pdf",
            demo.to_str().unwrap(),
        ];
        args.extend_from_slice(&["--matcher", "bm25", "--json"]);
        args.extend_from_slice(extra);
        let v = json(&run(&args, home.path()));
        v["results"]["bm25"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(!names(&[]).contains(&"pdf-extract".to_string()));
    assert_eq!(names(&["--include-disabled"])[0], "pdf-extract");
}

#[test]
fn match_json_carries_terms_fields_and_spans() {
    let home = tempfile::tempdir().unwrap();
    let msg = "update the changelog and prepare a release";
    let out = run(
        &["match", msg, demo().to_str().unwrap(), "--json"],
        home.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["message"], msg);
    let results = v["results"].as_object().unwrap();
    let keys: Vec<&str> = results.keys().map(String::as_str).collect();
    // Every routing matcher (the semantic feature's two only when it is built in).
    let routing = ["keyword", "triggers", "bm25", "semantic", "hybrid"];
    let built = if cfg!(feature = "semantic") { 5 } else { 3 };
    assert_eq!(keys, routing[..built]);
    let trig = &results["triggers"][0];
    assert_eq!(trig["name"], "release-notes");
    let matched = trig["matched"].as_array().unwrap();
    let phrases: Vec<&str> = matched
        .iter()
        .map(|h| h["term"].as_str().unwrap())
        .collect();
    // The demo groups its phrases in a mapping; the ADR's `for trigger in …` visits its keys.
    assert_eq!(phrases, ["changelog", "release"]);
    for h in matched {
        assert_eq!(h["field"], "triggers");
        let span = h["spans"][0].as_array().unwrap();
        let (s, e) = (
            span[0].as_u64().unwrap() as usize,
            span[1].as_u64().unwrap() as usize,
        );
        assert_eq!(msg[s..e], *h["text"].as_str().unwrap());
        assert_eq!(h["text"], h["term"]);
    }
    let bm25 = results["bm25"].as_array().unwrap();
    assert_eq!(bm25[0]["name"], "release-notes");
    assert!(bm25[0]["score"].as_f64().unwrap() > 0.0);
}

#[test]
fn match_text_marks_the_message_and_names_the_field() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        &[
            "match",
            "call the api",
            demo().to_str().unwrap(),
            "--matcher",
            "keyword",
        ],
        home.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("message: [call] the [api]\n"), "{text}");
    assert!(text.contains("call (executable-verb)"), "{text}");
    assert!(!text.contains('\x1b'), "no colour under NO_COLOR: {text}");
}

#[test]
fn match_on_no_skills_is_an_error_that_says_why() {
    let home = tempfile::tempdir().unwrap();
    let missing = home.path().join("nowhere");
    let out = run(
        &["match", "fill a pdf", missing.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not exist") && err.contains("no skills found"),
        "{err}"
    );
}

fn write_cases(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    write(&p, text);
    p
}

#[test]
fn eval_fails_below_min_recall_and_passes_above() {
    let home = tempfile::tempdir().unwrap();
    let cases = write_cases(
        home.path(),
        "cases.yaml",
        "- message: pull the tables out of this pdf\n  expect: [pdf-extract]\n- message: xyzzy plugh\n  expect: [sql-optimizer]\n",
    );
    let demo = demo();
    let args = |r: &str| -> Vec<String> {
        [
            "eval",
            cases.to_str().unwrap(),
            demo.to_str().unwrap(),
            "--matcher",
            "bm25",
            "--min-recall",
            r,
        ]
        .map(String::from)
        .to_vec()
    };
    let argv = args("0.9");
    let out = run(
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bm25 recall 0.50 is below --min-recall 0.9"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\"xyzzy plugh\"\n    missed:       sql-optimizer"),
        "{text}"
    );
    let argv = args("0.5");
    let out = run(
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        home.path(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn eval_rejects_bad_files_with_the_place_and_unknown_names() {
    let home = tempfile::tempdir().unwrap();
    let demo = demo();
    let bad = write_cases(
        home.path(),
        "bad.jsonl",
        "{\"message\": \"ok\", \"expect\": []}\n{\"message\": \"no expect\"}\n",
    );
    let out = run(
        &["eval", bad.to_str().unwrap(), demo.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2") && err.contains("expect"), "{err}");

    let typo = write_cases(
        home.path(),
        "typo.jsonl",
        "{\"message\": \"m\", \"expect\": [\"pdf-extrct\"]}\n",
    );
    let out = run(
        &["eval", typo.to_str().unwrap(), demo.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pdf-extrct"));

    let out = run(
        &["eval", "missing.jsonl", demo.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.jsonl"));
}

#[test]
fn eval_json_reports_every_matcher_and_outcome() {
    let home = tempfile::tempdir().unwrap();
    let file = eval_file("demo.jsonl");
    let out = run(
        &[
            "eval",
            file.to_str().unwrap(),
            demo().to_str().unwrap(),
            "--json",
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let cases = v["cases"].as_u64().unwrap() as usize;
    let matchers = v["matchers"].as_array().unwrap();
    // Every routing matcher (the semantic feature's two only when it is built in).
    assert_eq!(
        matchers.len(),
        if cfg!(feature = "semantic") { 5 } else { 3 }
    );
    for m in matchers {
        assert_eq!(m["outcomes"].as_array().unwrap().len(), cases);
        let tp = m["true_positives"].as_f64().unwrap();
        let fp = m["false_positives"].as_f64().unwrap();
        if tp + fp > 0.0 {
            assert!((m["precision"].as_f64().unwrap() - tp / (tp + fp)).abs() < 1e-9);
        }
    }
}

/// Routing quality floors: they hold today and catch a matcher that gets worse.
fn scores(file: &str, paths: &[PathBuf]) -> Vec<(Matcher, f64, f64)> {
    let lib = load(paths);
    let text = std::fs::read_to_string(eval_file(file)).unwrap();
    let cases = parse_cases(&text, false).unwrap();
    check_names(&cases, &lib).unwrap();
    let idx = Index::build(&lib);
    let allowed = candidates(&lib, &enabled_mask(&lib, None));
    evaluate(&idx, &lib, &cases, &Matcher::ROUTING, &|i| allowed[i], 3)
        .into_iter()
        .map(|s| (s.matcher, s.precision, s.recall))
        .collect()
}

#[test]
fn bm25_routes_the_demo_cases_better_than_keyword() {
    let s = scores("demo.jsonl", &[demo()]);
    let (_, kp, kr) = s[0];
    let (_, bp, br) = s[2];
    assert!(br >= 0.9, "bm25 recall {br}");
    assert!(bp >= 0.8, "bm25 precision {bp}");
    assert!(bp > kp, "bm25 precision {bp} vs keyword {kp} (recall {kr})");
}

#[test]
#[cfg_attr(not(skillscope_corpus), ignore = "needs the corpus")]
fn corpus_slice_routing_quality() {
    let Some(corpus) = corpus() else { return };
    let paths: Vec<PathBuf> = ["anthropic-skills", "superpowers", "wshobson-agents"]
        .iter()
        .map(|d| corpus.join(d))
        .collect();
    let s = scores("corpus-slice.jsonl", &paths);
    let (_, bp, br) = s[2];
    assert!(br >= 0.95, "bm25 recall {br}");
    assert!(bp >= 0.65, "bm25 precision {bp}");
    let (_, kp, _) = s[0];
    assert!(kp < bp, "keyword precision {kp} should trail bm25 {bp}");
}

/// The Lazy Skills design's example library (design 000) and the context-provider ADR's
/// `hello-extended` (design 002), side by side.
fn design_library(root: &Path) {
    write(
        &root.join("web_scraper/SKILL.md"),
        "---\nname: web_scraper\ndescription: Extract content from websites using headless browser\ntype: executable\ndependencies: [playwright, beautifulsoup4]\n---\n# Web Scraper Skill\n",
    );
    write(
        &root.join("pdf_extractor/SKILL.md"),
        "---\nname: pdf_extractor\ndescription: Extract text and tables from PDF documents\ntype: executable\n---\n",
    );
    write(
        &root.join("code_complexity/SKILL.md"),
        "---\nname: code_complexity\ndescription: Analyze code complexity metrics per ISO 25010\n---\n",
    );
    write(
        &root.join("hello-extended/SKILL.md"),
        "---\nname: hello-extended\ndescription: Multi-language greeting tool\ntriggers: [\"greet\", \"hello\", \"bonjour\", \"hola\", \"greeting\"]\n---\n# hello-extended\n",
    );
}

#[test]
fn the_designs_worked_examples_find_their_skills() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("skills");
    design_library(&lib);
    let out = run(
        &[
            "match",
            "Can you scrape the pricing table from example.com?",
            lib.to_str().unwrap(),
            "--json",
        ],
        home.path(),
    );
    let v = json(&out);
    let first = &v["results"]["bm25"][0];
    assert_eq!(first["name"], "web_scraper", "bm25: {v}");
    let matched = &first["matched"][0];
    assert_eq!(matched["text"], "scrape", "bm25: {matched}");
    assert_eq!(matched["field"], "name", "bm25: {matched}");
    // Design 000's prose says its keyword rule finds web_scraper here; its code
    // (`skill_dict["name"].lower() in user_message_lower`, the verbs of an executable) finds
    // nothing: "web_scraper" is not in the message, nor is run, execute, call, api or script.
    assert_eq!(v["results"]["keyword"], serde_json::json!([]), "{v}");
    let out = run(
        &[
            "match",
            "greetings",
            lib.to_str().unwrap(),
            "--matcher",
            "triggers",
            "--json",
        ],
        home.path(),
    );
    let v = json(&out);
    let got = v["results"]["triggers"].as_array().unwrap();
    assert_eq!(got.len(), 1, "{v}");
    assert_eq!(got[0]["name"], "hello-extended");
    let terms: Vec<&str> = got[0]["matched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["term"].as_str().unwrap())
        .collect();
    assert!(terms.contains(&"greet"), "{terms:?}");
}

#[test]
fn match_and_eval_text_tell_copies_of_one_name_apart() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("skills");
    for (dir, what) in [("a", "Fill"), ("b", "Merge"), ("c", "Split")] {
        write(
            &lib.join(dir).join("pdf/SKILL.md"),
            &format!("---\nname: pdf\ndescription: {what} PDF forms.\n---\n"),
        );
    }
    let out = run(
        &[
            "match",
            "merge the pdf forms",
            lib.to_str().unwrap(),
            "--matcher",
            "keyword",
        ],
        home.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for id in ["a.pdf", "b.pdf", "c.pdf"] {
        assert_eq!(text.matches(id).count(), 1, "{id} once:\n{text}");
    }
    let cases = write_cases(
        home.path(),
        "cases.jsonl",
        "{\"message\": \"merge the pdf forms\", \"expect\": [\"b.pdf\"]}\n",
    );
    let out = run(
        &[
            "eval",
            cases.to_str().unwrap(),
            lib.to_str().unwrap(),
            "--matcher",
            "keyword",
        ],
        home.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("false alarms: a.pdf, c.pdf"), "{text}");
}

#[test]
fn eval_skips_the_triggers_matcher_where_no_skill_declares_triggers() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("skills");
    write(
        &lib.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use when a PDF form is given.\n---\n",
    );
    write(
        &lib.join("sql/SKILL.md"),
        "---\nname: sql\ndescription: Faster SQL queries. Use when a query is slow.\n---\n",
    );
    let cases = write_cases(
        home.path(),
        "cases.jsonl",
        "{\"message\": \"fill this pdf form\", \"expect\": [\"pdf\"]}\n{\"message\": \"my sql query is slow\", \"expect\": [\"sql\"]}\n",
    );
    let args = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = ["eval", cases.to_str().unwrap(), lib.to_str().unwrap()]
            .map(String::from)
            .to_vec();
        a.extend(extra.iter().map(std::string::ToString::to_string));
        a
    };
    let argv = args(&["--min-recall", "0.9"]);
    let out = run(
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        home.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("triggers   skipped: no competing skill declares `triggers:`"),
        "{text}"
    );
    let argv = args(&["--json"]);
    let v = json(&run(
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        home.path(),
    ));
    assert_eq!(v["skipped"][0]["matcher"], "triggers", "{v}");
    let scored = if cfg!(feature = "semantic") { 4 } else { 2 };
    assert_eq!(v["matchers"].as_array().unwrap().len(), scored, "{v}");
    // Asked for by name it is scored, and the failure says why.
    let argv = args(&["--matcher", "triggers", "--min-recall", "0.5"]);
    let out = run(
        &argv.iter().map(String::as_str).collect::<Vec<_>>(),
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("triggers recall 0.00 is below --min-recall 0.5 (no competing skill declares `triggers:`"),
        "{err}"
    );
}

#[test]
fn eval_warns_when_keyword_routing_faces_more_than_fifty_skills() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("skills");
    let cases = write_cases(
        home.path(),
        "cases.jsonl",
        "{\"message\": \"fill a form\", \"expect\": [\"skill-00\"]}\n",
    );
    let warned = |n: usize| {
        write(
            &lib.join(format!("skill-{:02}/SKILL.md", n - 1)),
            &format!(
                "---\nname: skill-{:02}\ndescription: Fill form number {n}.\n---\n",
                n - 1
            ),
        );
        let out = run(
            &["eval", cases.to_str().unwrap(), lib.to_str().unwrap()],
            home.path(),
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let v = json(&run(
            &[
                "eval",
                cases.to_str().unwrap(),
                lib.to_str().unwrap(),
                "--json",
            ],
            home.path(),
        ));
        assert_eq!(v["competing"], n);
        (text, v["warnings"].as_array().unwrap().len())
    };
    for n in 1..50 {
        write(
            &lib.join(format!("skill-{:02}/SKILL.md", n - 1)),
            &format!(
                "---\nname: skill-{:02}\ndescription: Fill form number {n}.\n---\n",
                n - 1
            ),
        );
    }
    let (text, warnings) = warned(50);
    assert_eq!(warnings, 0, "{text}");
    assert!(!text.contains("warning:"), "{text}");
    let (text, warnings) = warned(51);
    assert_eq!(warnings, 1);
    assert!(
        text.contains("warning: keyword matching faces 51 skills"),
        "{text}"
    );
}
