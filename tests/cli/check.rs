//! `list` and `check` through the real binary.

use crate::common;
use common::*;

#[test]
fn check_reports_each_broken_demo_skill_and_fails() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        &["check", "--format", "json", demo().to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["skills"], 15);
    let diags = v["diagnostics"].as_array().unwrap();
    let has = |dir: &str, rule: &str| {
        diags
            .iter()
            .any(|d| d["path"].as_str().unwrap().contains(&format!("/{dir}/")) && d["rule"] == rule)
    };
    assert!(has("broken-yaml", "yaml-invalid"));
    assert!(has("name-mismatch", "name-directory"));
    assert!(has("long-description", "description-too-long"));
    assert!(has("docker-debug", "strict-yaml-flow"));
    let errors = diags.iter().filter(|d| d["severity"] == "error").count();
    assert_eq!(v["errors"], errors);
    let yaml = diags.iter().find(|d| d["rule"] == "yaml-invalid").unwrap();
    assert_eq!(yaml["line"], 3);
    assert!(yaml["message"].as_str().unwrap().contains("quote"));
}

#[test]
fn check_passes_a_clean_library_and_profiles_change_verdicts() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    write(
        &lib.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Turns transcripts into meeting notes. Use when the user pastes a transcript.\nwhen_to_use: After meetings.\n---\nBody\n",
    );
    let spec = run(&["check", lib.to_str().unwrap()], home.path());
    assert_eq!(
        spec.status.code(),
        Some(1),
        "when_to_use is not a spec field"
    );
    let claude = run(
        &["check", "--profile", "claude-code", lib.to_str().unwrap()],
        home.path(),
    );
    assert_eq!(
        claude.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&claude.stdout)
    );
    let text = String::from_utf8_lossy(&claude.stdout);
    assert!(
        text.contains("1 skill checked with the claude-code profile: 0 errors, 0 warnings; 0 files with errors"),
        "{text}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["check", "--profile", "nope"], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown profile"));
}

#[test]
fn sarif_names_rules_and_locations() {
    let home = tempfile::tempdir().unwrap();
    let out = run(
        &["check", "--format", "sarif", demo().to_str().unwrap()],
        home.path(),
    );
    let v = json(&out);
    assert_eq!(v["version"], "2.1.0");
    let run0 = &v["runs"][0];
    let rules: Vec<_> = run0["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let results = run0["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        assert!(rules.contains(&r["ruleId"].as_str().unwrap()), "{r}");
        assert!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
                .ends_with(".md")
        );
    }
}

#[test]
fn list_json_has_the_documented_shape() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["list", "--json", demo().to_str().unwrap()], home.path());
    assert!(out.status.success());
    let v = json(&out);
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 15);
    for key in [
        "name",
        "dir",
        "skill_md",
        "agent",
        "scope",
        "enabled",
        "shadowed_by",
        "diagnostics",
        "tokens",
    ] {
        assert!(items.iter().all(|i| i.get(key).is_some()), "missing {key}");
    }
    let broken = items.iter().find(|i| i["name"] == "broken-yaml").unwrap();
    assert_eq!(broken["diagnostics"][0]["rule"], "yaml-invalid");
}

#[test]
fn shadowed_copies_name_their_winner() {
    let home = tempfile::tempdir().unwrap();
    let a = home.path().join("a");
    let b = home.path().join("b");
    for r in [&a, &b] {
        write(
            &r.join("pdf/SKILL.md"),
            "---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is shared.\n---\n",
        );
    }
    let out = run(
        &["list", "--json", a.to_str().unwrap(), b.to_str().unwrap()],
        home.path(),
    );
    let v = json(&out);
    let items = v.as_array().unwrap();
    assert_eq!(items[0]["shadowed_by"], serde_json::Value::Null);
    assert_eq!(
        items[1]["shadowed_by"].as_str().unwrap(),
        a.join("pdf").to_str().unwrap()
    );
    assert!(
        items[1]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "shadowed")
    );
}

#[test]
fn no_installed_skills_means_the_demo_library_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let out = run(&["list", "--json"], home.path());
    assert!(out.status.success());
    assert_eq!(json(&out).as_array().unwrap().len(), 15);
    assert!(String::from_utf8_lossy(&out.stderr).contains("demo library"));
}

#[test]
#[cfg_attr(not(skillscope_corpus), ignore = "needs the corpus")]
fn every_corpus_skill_is_listed_with_its_diagnostics() {
    let Some(corpus) = corpus() else { return };
    let home = tempfile::tempdir().unwrap();
    let out = run(&["list", "--json", corpus.to_str().unwrap()], home.path());
    assert!(out.status.success());
    let listed = json(&out).as_array().unwrap().len();
    // An independent count: folders holding a skill file of any case, outside .git/node_modules.
    fn count(dir: &std::path::Path) -> usize {
        let mut n = 0;
        let mut has = false;
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            let ft = e.file_type().unwrap();
            if ft.is_dir() && name != ".git" && name != "node_modules" {
                n += count(&e.path());
            } else if ft.is_file() && name.eq_ignore_ascii_case("skill.md") {
                has = true;
            }
        }
        n + usize::from(has)
    }
    assert_eq!(listed, count(&corpus));
}

#[test]
fn max_listing_tokens_gates_the_listing_cost() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    for name in ["alpha", "beta"] {
        write(
            &lib.join(name).join("SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: Formats {name} reports as tables. Use when the user asks for a {name} report.\n---\n"
            ),
        );
    }
    let p = lib.to_str().unwrap();
    let ok = run(&["check", p, "--max-listing-tokens", "100000"], home.path());
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let over = run(&["check", p, "--max-listing-tokens", "10"], home.path());
    assert_eq!(over.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&over.stderr).contains("over the limit of 10"));
}

/// A warm check takes the resources of an unchanged folder by name from the library index,
/// without a stat each: what it reports still follows a reference edited in place (its links)
/// and a linked file whose target went (in a folder the walk does not enter).
#[test]
fn a_warm_check_follows_references_edited_in_place_and_links_that_lost_their_target() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    let skill = lib.join("beta");
    write(
        &skill.join("SKILL.md"),
        "---\nname: beta\ndescription: Does beta things. Use when beta is asked for.\n---\n[guide](references/guide.md)\n[data](references/data.json)\n",
    );
    write(
        &skill.join("references/guide.md"),
        "# Guide\nSee [more](more.md).\n",
    );
    write(&skill.join("references/more.md"), "# More\n");
    write(&skill.join("node_modules/real.json"), "{}\n");
    crate::common::symlink(
        "../node_modules/real.json",
        skill.join("references/data.json"),
    )
    .unwrap();
    backdate_tree(&lib);
    let findings = || -> Vec<String> {
        let out = run(
            &["check", "--format", "json", lib.to_str().unwrap()],
            home.path(),
        );
        json(&out)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| format!("{} {}", d["rule"], d["message"]))
            .collect()
    };
    let has = |f: &[String], rule: &str, text: &str| {
        f.iter().any(|x| x.contains(rule) && x.contains(text))
    };
    // The index is made by `list`, then kept by a first check (which learns guide.md's links).
    let listed = run(&["list", "--json", lib.to_str().unwrap()], home.path());
    assert!(listed.status.success());
    let first = findings();
    assert!(has(&first, "body-nested-reference", "more.md"), "{first:?}");
    assert!(!has(&first, "body-broken-link", "data.json"), "{first:?}");
    assert_eq!(
        findings(),
        first,
        "a warm check reports what a cold one did"
    );
    // Edited in place, and a target removed: no folder the walk stamped changes.
    write(&skill.join("references/guide.md"), "# Guide, no links\n");
    std::fs::remove_file(skill.join("node_modules/real.json")).unwrap();
    let after = findings();
    assert!(
        !has(&after, "body-nested-reference", "more.md"),
        "{after:?}"
    );
    assert!(has(&after, "body-broken-link", "data.json"), "{after:?}");
}

/// A first `list` keeps what the body rules read in the library index, even when it had to
/// encode text (a body over the body rule's token limit is encoded on every run): the next
/// `list` then takes each unchanged body's findings from the index instead of rereading it.
#[test]
fn a_list_that_encoded_text_keeps_the_body_findings_in_the_index() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    let long_body = "Many words of text for the body rule to count. ".repeat(1_000);
    write(
        &lib.join("long/SKILL.md"),
        &format!(
            "---\nname: long\ndescription: Has a long body. Use when a long body is wanted.\n---\n{long_body}\n"
        ),
    );
    write(
        &lib.join("short/SKILL.md"),
        "---\nname: short\ndescription: Has a short body. Use when a short body is wanted.\n---\nShort.\n",
    );
    backdate_tree(&lib);
    let listed = run(&["list", "--json", lib.to_str().unwrap()], home.path());
    assert!(listed.status.success(), "{listed:?}");
    let cache = home.path().join("cache");
    let indexes: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "idx"))
        .collect();
    assert_eq!(indexes.len(), 1, "one library index in {cache:?}");
    let data = skillscope::core::index::read(&indexes[0])
        .unwrap()
        .expect("the index reads back");
    assert_eq!(data.skills.len(), 2);
    for record in data.skills.values() {
        assert!(
            record.body.is_some(),
            "the body findings of {:?} are kept",
            record.file
        );
    }
}
