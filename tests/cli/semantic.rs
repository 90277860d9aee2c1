//! The semantic and hybrid matchers through the real binary: a paraphrase finds its skill, small
//! talk finds nothing, vectors are remembered in the library index, the model asset is what its
//! checksums say, and nothing needs the network; on the corpus, the paraphrase set's floors.

use crate::common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Command;

/// A small library whose descriptions share few words with the messages the tests send.
fn fixture(dir: &Path) -> PathBuf {
    let lib = dir.join("lib");
    let skills = [
        (
            "on-call-handoff",
            "Master on-call shift handoffs with context transfer, escalation procedures and documentation.",
        ),
        (
            "avoid-ai-writing",
            "Audit and rewrite prose so it stops reading as machine-generated.",
        ),
        (
            "pdf",
            "Extract text and tables from PDF files, fill forms, merge documents.",
        ),
        (
            "git-commit",
            "Write conventional commit messages for staged changes.",
        ),
        (
            "kubernetes-deploy",
            "Deploy containers to a Kubernetes cluster with Helm charts and rollbacks.",
        ),
    ];
    write_library(&lib, &skills);
    lib
}

fn match_json(home: &Path, lib: &Path, matcher: &str, message: &str) -> serde_json::Value {
    let out = run(
        &[
            "match",
            "--matcher",
            matcher,
            "--json",
            message,
            lib.to_str().unwrap(),
        ],
        home,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

fn names(v: &serde_json::Value, matcher: &str) -> Vec<String> {
    v["results"][matcher]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_paraphrase_finds_its_skill_and_small_talk_finds_none() {
    let t = tempfile::tempdir().unwrap();
    let lib = fixture(t.path());
    for matcher in ["semantic", "hybrid"] {
        let v = match_json(
            t.path(),
            &lib,
            matcher,
            "how do I hand over my pager duty to the next engineer",
        );
        assert_eq!(
            names(&v, matcher).first().map(String::as_str),
            Some("on-call-handoff"),
            "{matcher}: {v}"
        );
        let best = &v["results"][matcher][0]["matched"][0];
        // At least the least similarity a best skill must reach (semantic::MIN_BEST_SIMILARITY).
        assert!(best["similarity"].as_f64().unwrap() >= 0.25, "{best}");
        assert_eq!(best["field"], "description");
        for small_talk in ["good morning!", "what's the weather like in Paris?"] {
            let v = match_json(t.path(), &lib, matcher, small_talk);
            assert!(
                names(&v, matcher).is_empty(),
                "{matcher}: {small_talk}: {v}"
            );
        }
    }
    // bm25 misses the paraphrase: it shares no word of the skill.
    let v = match_json(
        t.path(),
        &lib,
        "bm25",
        "how do I hand over my pager duty to the next engineer",
    );
    assert!(!names(&v, "bm25").contains(&"on-call-handoff".to_string()));
}

#[test]
fn text_output_gives_the_similarity_and_the_nearest_field() {
    let t = tempfile::tempdir().unwrap();
    let lib = fixture(t.path());
    let out = run(
        &[
            "match",
            "--matcher",
            "semantic",
            "this essay reads like a chatbot produced it",
            lib.to_str().unwrap(),
        ],
        t.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text
        .lines()
        .find(|l| l.trim_start().starts_with("1."))
        .unwrap_or_default();
    assert!(first.contains("avoid-ai-writing"), "{text}");
    assert!(first.contains("meaning 0."), "{text}");
    assert!(first.contains("(description)"), "{text}");
}

#[test]
fn vectors_are_remembered_and_a_changed_description_is_embedded_again() {
    use skillscope::core::Library;
    use skillscope::core::index::IndexStore;
    use skillscope::core::matching::semantic::SkillVectors;
    use skillscope::core::scan::ScanOptions;
    use skillscope::core::source;
    let t = tempfile::tempdir().unwrap();
    let lib_dir = fixture(t.path());
    let store = IndexStore::in_dir(t.path().join("cache"));
    let embedded = || {
        let (lib, _) = Library::load_indexed(
            source::path_roots(std::slice::from_ref(&lib_dir)),
            &ScanOptions::default(),
            &store,
        );
        let missing = SkillVectors::missing(&lib);
        let v = SkillVectors::build(&lib, &|_, _| {}).unwrap();
        assert_eq!(v.embedded, missing);
        assert!(lib.save_index().is_none());
        v.embedded
    };
    // The five descriptions the first time; none the second.
    assert_eq!(embedded(), 5);
    assert_eq!(embedded(), 0);
    // The file's stamp must change: a new length does it whatever the clock's grain.
    write(
        &lib_dir.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Split scanned documents into single pages, one file each.\n---\n# pdf\n",
    );
    assert_eq!(embedded(), 1, "only the changed description");
    assert_eq!(embedded(), 0);
}

#[test]
fn the_model_asset_matches_its_checksums_and_carries_its_license() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/model");
    let license = std::fs::read_to_string(dir.join("LICENSE")).unwrap();
    assert!(license.contains("Apache License"), "{license}");
    assert!(license.contains("Version 2.0"));
    assert!(license.contains("all-MiniLM-L6-v2"));
    let sums = std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap();
    for f in ["model.safetensors", "tokenizer.json", "LICENSE"] {
        assert!(
            sums.lines().any(|l| l.ends_with(&format!("  {f}"))),
            "{f} in {sums}"
        );
    }
    let size = std::fs::metadata(dir.join("model.safetensors"))
        .unwrap()
        .len();
    assert!(size <= 48 * 1000 * 1000, "{size} bytes");
    let out = Command::new("sha256sum")
        .args(["--check", "--strict", "SHA256SUMS"])
        .current_dir(&dir)
        .output()
        .expect("sha256sum runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_matcher_works_with_no_network() {
    let t = tempfile::tempdir().unwrap();
    let lib = fixture(t.path());
    // A new user and network namespace: no interface but a loopback that is down.
    let probe = Command::new("unshare").args(["-rn", "true"]).output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipping: this kernel or sandbox does not allow `unshare -rn`");
        return;
    }
    let out = Command::new("unshare")
        .arg("-rn")
        .arg(env!("CARGO_BIN_EXE_skillscope"))
        .args([
            "match",
            "--matcher",
            "hybrid",
            "--json",
            "turn this article back into something a person would have written",
            lib.to_str().unwrap(),
        ])
        .env("NO_COLOR", "1")
        .env("SKILLSCOPE_CONFIG_DIR", t.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", t.path().join("cache"))
        .env("HOME", t.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(
        names(&v, "hybrid").first().map(String::as_str),
        Some("avoid-ai-writing"),
        "{v}"
    );
}

/// A paraphrase set's library (`paraphrase-library` or `paraphrase-library-2`): the skill
/// folders it lists, under the corpus.
fn paraphrase_library(corpus: &Path, list: &str) -> Vec<String> {
    let list = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/eval/{list}.txt"));
    std::fs::read_to_string(list)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| corpus.join(l).to_string_lossy().into_owned())
        .collect()
}

/// recall@k and quiet count of each matcher on one of the paraphrase sets (`paraphrase`,
/// `paraphrase-everyday`, `paraphrase-holdout` or `paraphrase-second`), through `eval --json`.
fn paraphrase_scores(home: &Path, set: &str, folders: &[String], k: usize) -> serde_json::Value {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/eval/{set}.jsonl"));
    let k = k.to_string();
    let mut args = vec![
        "eval",
        file.to_str().unwrap(),
        "--json",
        "--top",
        k.as_str(),
    ];
    args.extend(folders.iter().map(String::as_str));
    let out = run(&args, home);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

/// recall and the share of small talk left quiet, per matcher, from an `eval --json` report.
fn scores_of(v: &serde_json::Value, name: &str) -> (f64, f64) {
    let m = v["matchers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["matcher"] == name)
        .unwrap();
    let quiet = m["quiet_when_expected"].as_f64().unwrap() / m["expected_quiet"].as_f64().unwrap();
    (m["recall"].as_f64().unwrap(), quiet)
}

/// Floors that hold today on the four paraphrase sets (figures in docs/matching.md): they catch a
/// matcher that gets worse. On the held-out set and on the second library's set, written blind,
/// they are the routing target itself: 85% of requests find their skill among the first five,
/// 20 points more than bm25, and nine small-talk messages in ten load nothing.
#[test]
fn paraphrase_set_floors() {
    let Some(corpus) = corpus() else { return };
    let t = tempfile::tempdir().unwrap();
    let folders = paraphrase_library(&corpus, "paraphrase-library");
    assert!(folders.len() >= 500);
    // The strict set: no distinctive word of the target at all.
    let v = paraphrase_scores(t.path(), "paraphrase", &folders, 5);
    let (bm25, _) = scores_of(&v, "bm25");
    let (semantic, semantic_quiet) = scores_of(&v, "semantic");
    let (hybrid, hybrid_quiet) = scores_of(&v, "hybrid");
    assert!(semantic >= 0.65, "semantic top-5 recall {semantic}");
    assert!(hybrid >= 0.6, "hybrid top-5 recall {hybrid}");
    assert!(
        semantic >= bm25 + 0.2,
        "semantic top-5 recall {semantic} against bm25 {bm25}"
    );
    assert_quiet(semantic_quiet, hybrid_quiet);
    // The everyday set (the vectors are remembered from the run above: same library).
    let v = paraphrase_scores(t.path(), "paraphrase-everyday", &folders, 5);
    let (bm25, _) = scores_of(&v, "bm25");
    let (semantic, semantic_quiet) = scores_of(&v, "semantic");
    let (hybrid, hybrid_quiet) = scores_of(&v, "hybrid");
    assert!(semantic >= 0.78, "semantic top-5 recall {semantic}");
    assert!(hybrid >= 0.8, "hybrid top-5 recall {hybrid}");
    assert!(
        hybrid >= bm25 + 0.2,
        "hybrid top-5 recall {hybrid} against bm25 {bm25}"
    );
    assert_quiet(semantic_quiet, hybrid_quiet);
    // The held-out set, written blind after the first matchers were settled.
    let v = paraphrase_scores(t.path(), "paraphrase-holdout", &folders, 5);
    assert_routing_target(&v);
    // The second library, none of whose skills taught the model, and its set, written blind.
    let folders = paraphrase_library(&corpus, "paraphrase-library-2");
    assert!(folders.len() >= 500);
    let v = paraphrase_scores(t.path(), "paraphrase-second", &folders, 5);
    assert_routing_target(&v);
}

/// Nine small-talk messages in ten trigger nothing, by meaning alone and in the hybrid.
fn assert_quiet(semantic_quiet: f64, hybrid_quiet: f64) {
    assert!(
        semantic_quiet >= 0.9 && hybrid_quiet >= 0.9,
        "small talk quiet: semantic {semantic_quiet}, hybrid {hybrid_quiet}"
    );
}

/// Both semantic and hybrid find 85% of the requests' skills among their first five, 20 points
/// more than bm25, and keep small talk quiet.
fn assert_routing_target(v: &serde_json::Value) {
    let (bm25, _) = scores_of(v, "bm25");
    let (semantic, semantic_quiet) = scores_of(v, "semantic");
    let (hybrid, hybrid_quiet) = scores_of(v, "hybrid");
    for (name, recall) in [("semantic", semantic), ("hybrid", hybrid)] {
        assert!(recall >= 0.85, "{name} top-5 recall {recall}");
        assert!(
            recall >= bm25 + 0.2,
            "{name} top-5 recall {recall} against bm25 {bm25}"
        );
    }
    assert_quiet(semantic_quiet, hybrid_quiet);
}

/// The corpus's skills whose descriptions are one template filled in with a name (the
/// `description-template` rule finds them: Composio's app skills, the glab family, …), taken as
/// a library of their own: a request that names the app finds its skill first with the hybrid
/// matcher, and small talk finds none.
#[test]
#[ignore = "embeds the corpus's template skills on a cold cache: a minute on two cores; run with --ignored"]
fn corpus_template_skills_are_found_when_the_request_names_them() {
    let Some(corpus) = corpus() else { return };
    let t = tempfile::tempdir().unwrap();
    let c = corpus.to_str().unwrap();
    let out = run(
        &[
            "check",
            "--select",
            "description-template",
            "--format",
            "json",
            c,
        ],
        t.path(),
    );
    let v = json(&out);
    let mut folders: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["path"].as_str())
        .filter_map(|p| std::path::Path::new(p).parent())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    folders.sort();
    folders.dedup();
    assert!(folders.len() >= 20, "{folders:?}");
    for (message, skill) in [
        (
            "create an issue in Linear for the login bug",
            Some("linear-automation"),
        ),
        ("move my Jira ticket to done", Some("jira-automation")),
        (
            "send the build command to my zellij session",
            Some("zellij"),
        ),
        ("thanks, that was helpful", None),
    ] {
        if let Some(skill) = skill {
            assert!(
                folders.iter().any(|p| p.ends_with(&format!("/{skill}"))),
                "{skill} is no template skill of the corpus any more: {folders:?}"
            );
        }
        let mut args = vec!["match", "--matcher", "hybrid", "--json", message];
        args.extend(folders.iter().map(String::as_str));
        let v = json(&run(&args, t.path()));
        let got: Vec<&str> = v["results"]["hybrid"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["name"].as_str())
            .collect();
        match skill {
            Some(skill) => assert_eq!(got.first(), Some(&skill), "{message}: {got:?}"),
            None => assert!(got.is_empty(), "{message}: {got:?}"),
        }
    }
}
