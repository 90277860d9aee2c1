//! Namespaced ids through the real binary: ids from nested folders and plugins, no shadowing
//! between namespaces, `--namespace` scopes for list, match and eval, and skill folders named one
//! by one on the command line each listed.

mod common;
use common::*;
use std::path::Path;

fn skill(dir: &Path, name: &str, desc: &str) {
    write(
        &dir.join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {desc}\n---\nBody.\n"),
    );
}

/// web/scraper and data/scraper share a name; a plugin ships its own pdf next to a plain one.
fn library(root: &Path) {
    skill(
        &root.join("web/scraper"),
        "scraper",
        "Scrape web pages into clean text. Use when the user gives a URL to scrape.",
    );
    skill(
        &root.join("data/scraper"),
        "scraper",
        "Scrape tables out of spreadsheets and CSV exports. Use for tabular data.",
    );
    skill(
        &root.join("pdf"),
        "pdf",
        "Read and fill PDF forms. Use when the user shares a PDF file.",
    );
    let plugin = root.join("plugins/doc-kit");
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "docs", "version": "0.1.0"}"#,
    );
    skill(
        &plugin.join("skills/pdf"),
        "pdf",
        "Convert PDF files to markdown. Use when a PDF must become text.",
    );
}

fn ids(v: &serde_json::Value) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["shadowed_by"].is_null(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn nested_folders_and_plugins_get_ids_and_do_not_shadow() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    library(&lib);
    let lib = lib.to_str().unwrap();
    let all = json(&run(&["list", "--json", lib], home.path()));
    assert_eq!(
        ids(&all),
        vec![
            ("data.scraper".to_string(), true),
            ("docs:pdf".to_string(), true),
            ("pdf".to_string(), true),
            ("web.scraper".to_string(), true),
        ]
    );
    let web = json(&run(
        &["list", "--json", "--namespace", "web", lib],
        home.path(),
    ));
    assert_eq!(ids(&web), vec![("web.scraper".to_string(), true)]);
    let web = json(&run(
        &["list", "--json", "--namespace", "web.*", lib],
        home.path(),
    ));
    assert_eq!(ids(&web), vec![("web.scraper".to_string(), true)]);
    let docs = json(&run(
        &["list", "--json", "--namespace", "docs", lib],
        home.path(),
    ));
    assert_eq!(ids(&docs), vec![("docs:pdf".to_string(), true)]);
    // Both copies of a name are listed for the agent: neither is dropped as shadowed.
    let prompt = run(&["prompt", "--format", "markdown", lib], home.path());
    let text = String::from_utf8_lossy(&prompt.stdout);
    assert_eq!(text.matches("**scraper**").count(), 2, "{text}");
    assert_eq!(text.matches("**pdf**").count(), 2, "{text}");
}

#[test]
fn match_and_eval_take_a_namespace_scope() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    library(&lib);
    let lib = lib.to_str().unwrap();
    let msg = "scrape this page and the tables";
    let found = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["match", msg, "--matcher", "bm25", "--json"];
        args.extend_from_slice(extra);
        args.push(lib);
        let v = json(&run(&args, home.path()));
        v["results"]["bm25"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect()
    };
    let everything = found(&[]);
    assert!(
        everything.contains(&"web.scraper".to_string())
            && everything.contains(&"data.scraper".to_string()),
        "{everything:?}"
    );
    assert_eq!(found(&["--namespace", "web"]), vec!["web.scraper"]);
    assert_eq!(found(&["--namespace", "data.*"]), vec!["data.scraper"]);

    let cases = home.path().join("cases.jsonl");
    std::fs::write(
        &cases,
        "{\"message\": \"fill in this pdf form\", \"expect\": [\"pdf\"]}\n",
    )
    .unwrap();
    let recall = |extra: &[&str]| -> f64 {
        let mut args = vec![
            "eval",
            cases.to_str().unwrap(),
            "--matcher",
            "bm25",
            "--json",
        ];
        args.extend_from_slice(extra);
        args.push(lib);
        json(&run(&args, home.path()))["matchers"][0]["recall"]
            .as_f64()
            .unwrap()
    };
    assert_eq!(recall(&[]), 1.0);
    assert_eq!(
        recall(&["--namespace", "web"]),
        0.0,
        "pdf is not a web.* skill"
    );
}

#[test]
fn skill_folders_named_one_by_one_are_each_listed() {
    let home = tempfile::tempdir().unwrap();
    let a = home.path().join("one/report");
    let b = home.path().join("two/report");
    skill(
        &a,
        "report",
        "Monthly report from the sales sheet. Use at month end.",
    );
    skill(
        &b,
        "report",
        "Weekly report from the issue tracker. Use on Fridays.",
    );
    let out = run(
        &[
            "prompt",
            "--format",
            "xml",
            "--all",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        home.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let locations: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("location"))
        .map(|n| n.text().unwrap().trim().to_string())
        .collect();
    assert_eq!(locations.len(), 2, "{text}");
    assert!(
        locations[0].ends_with("one/report/SKILL.md"),
        "{locations:?}"
    );
    assert!(
        locations[1].ends_with("two/report/SKILL.md"),
        "{locations:?}"
    );
    // `list` says neither is shadowed.
    let v = json(&run(
        &["list", "--json", a.to_str().unwrap(), b.to_str().unwrap()],
        home.path(),
    ));
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .all(|s| s["shadowed_by"].is_null())
    );
}
