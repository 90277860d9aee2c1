//! What CI reads: `check --format github` workflow commands, SARIF's base ids and help links,
//! markdown that keeps code spans, and the warning (and gate) when a listing is bigger than the
//! context window, in `check`, `budget` and `prompt`.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Output;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn github_annotations_are_escaped_as_workflow_commands() {
    let home = tempfile::tempdir().unwrap();
    // A folder whose name holds the property separators, a name with `%`, and an unknown field.
    write(
        &home.path().join("lib/a,b:c/SKILL.md"),
        "---\nname: 50%-off\ndescription: Finds discount codes for online shops. Use when the user asks for a coupon.\nversion: 2\n---\n",
    );
    let out = run(&["check", "--format", "github", "lib"], home.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let file = "file=lib/a%2Cb%3Ac/SKILL.md";
    assert!(
        lines.iter().any(|l| l
            .starts_with(&format!("::error {file},line=2,col=1,title=name-format::"))
            && l.contains("`50%25-off`")),
        "{text}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with(&format!(
            "::error {file},line=4,col=1,title=unknown-field::unknown field `version`"
        ))),
        "{text}"
    );
    // Every finding is one command line; the summary is a plain log line.
    let commands = lines.iter().filter(|l| l.starts_with("::")).count();
    assert_eq!(commands, lines.len() - 1, "{text}");
    assert!(
        lines.last().unwrap().starts_with("1 skill checked"),
        "{text}"
    );
    // Nothing raw: a name holding a line break or an escape cannot start a second command.
    write(
        &home.path().join("lib2/evil/SKILL.md"),
        "---\nname: \"evil\\n::error::forged\\u001b[2J\"\ndescription: Finds discount codes for online shops. Use when the user asks for a coupon.\n---\n",
    );
    let out = run(&["check", "--format", "github", "lib2"], home.path());
    let text = stdout(&out);
    assert!(!text.contains('\x1b'), "{text}");
    assert!(
        !text.lines().any(|l| l.starts_with("::error::forged")),
        "{text}"
    );
}

#[test]
fn sarif_has_base_ids_help_links_and_rule_indexes() {
    let home = tempfile::tempdir().unwrap();
    write(
        &home.path().join("lib/my skill/SKILL.md"),
        "---\nname: my-skill\ndescription: Finds discount codes for online shops. Use when the user asks for a coupon.\nversion: 2\n---\n",
    );
    let out = run(&["check", "--format", "sarif", "lib"], home.path());
    let v = json(&out);
    let run0 = &v["runs"][0];
    let cwd = std::fs::canonicalize(home.path()).unwrap();
    let base = run0["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    assert_eq!(base, format!("file://{}/", cwd.display()));
    let result = &run0["results"][0];
    let loc = &result["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uri"], "lib/my%20skill/SKILL.md");
    assert_eq!(loc["uriBaseId"], "%SRCROOT%");
    let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
    let i = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[i]["id"], result["ruleId"]);
    // Every rule links to its own anchor of docs/rules.md.
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md"))
        .unwrap();
    for r in rules {
        let id = r["id"].as_str().unwrap();
        let uri = r["helpUri"].as_str().unwrap();
        assert!(
            uri.starts_with("https://") && uri.ends_with(&format!("/docs/rules.md#{id}")),
            "{uri}"
        );
        assert!(
            doc.contains(&format!("<a id=\"{id}\"></a>")),
            "docs/rules.md has no anchor {id}"
        );
    }
    // A file outside the current folder is an absolute URI.
    let elsewhere = tempfile::tempdir().unwrap();
    write(
        &elsewhere.path().join("x/SKILL.md"),
        "---\nname: x\ndescription: d\nversion: 2\n---\n",
    );
    let out = run(
        &[
            "check",
            "--format",
            "sarif",
            elsewhere.path().to_str().unwrap(),
        ],
        home.path(),
    );
    let v = json(&out);
    let loc = &v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert!(
        loc["uri"].as_str().unwrap().starts_with("file:///"),
        "{loc}"
    );
    assert!(loc.get("uriBaseId").is_none(), "{loc}");
}

#[test]
fn markdown_keeps_code_spans_and_escapes_the_rest() {
    let home = tempfile::tempdir().unwrap();
    write(
        &home.path().join("lib/mismatch/SKILL.md"),
        "---\nname: image-resizer\ndescription: Resizes images to given sizes. Use when the user wants a smaller picture.\n---\n",
    );
    write(
        &home.path().join("lib/x|<i>y/SKILL.md"),
        "---\nname: xy\ndescription: Formats tables of numbers. Use when the user pastes a table.\n---\n",
    );
    let out = run(&["check", "--format", "markdown", "lib"], home.path());
    let md = stdout(&out);
    assert!(
        md.contains("| error | `name-directory` | lib/mismatch/SKILL.md:2 | the name `image-resizer` differs from its folder `mismatch`"),
        "{md}"
    );
    // The folder's pipe and tags are inert, inside a code span and out of one.
    assert!(md.contains("lib/x\\|\\<i\\>y/SKILL.md"), "{md}");
    assert!(md.contains("folder `x\\|<i>y`"), "{md}");
    assert!(!md.contains("\\`"), "no backtick escaped: {md}");
}

/// A library whose xml listing (about 1,250 tokens) is bigger than a 1,000-token window.
fn over_window(home: &Path) -> String {
    let lib = home.join("lib");
    for i in 0..12 {
        write(
            &lib.join(format!("skill-{i}/SKILL.md")),
            &format!(
                "---\nname: skill-{i}\ndescription: Converts spreadsheets of kind {i} into charts with axes, legends and titles chosen from the column headers. Use when the user shares a spreadsheet of kind {i} and asks for a chart.\n---\nBody\n"
            ),
        );
    }
    lib.to_str().unwrap().to_string()
}

#[test]
fn a_listing_bigger_than_the_window_is_said_in_every_format_and_can_fail_the_gate() {
    let home = tempfile::tempdir().unwrap();
    let lib = over_window(home.path());
    let small = ["--context-window", "1000"];
    let with = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(small);
        all.push(&lib);
        run(&all, home.path())
    };
    let said = "% of the 1,000-token context window: MORE THAN THE WHOLE WINDOW";

    // check: text and markdown say it, JSON carries it, the gate fails only when asked.
    let out = with(&["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("warning: the xml listing of enabled skills costs ")
            && text.contains(said),
        "{text}"
    );
    let md = stdout(&with(&["check", "--format", "markdown"]));
    assert!(
        md.contains(":warning: the xml listing") && md.contains(said),
        "{md}"
    );
    let out = with(&["check", "--format", "json"]);
    let v = json(&out);
    assert_eq!(v["listing"]["over_window"], true, "{v}");
    assert_eq!(v["listing"]["context_window"], 1000);
    assert!(v["listing"]["window_percent"].as_f64().unwrap() > 100.0);
    assert!(
        stderr(&out).contains(said),
        "JSON's reader gets it on stderr"
    );
    let out = with(&["check", "--fail-over-window"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(said), "{}", stderr(&out));

    // budget
    let out = with(&["budget"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("warning: the listing costs "),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains(said));
    let md = stdout(&with(&["budget", "--format", "markdown"]));
    assert!(
        md.contains(":warning: the listing costs") && md.contains(said),
        "{md}"
    );
    let v = json(&with(&["budget", "--format", "json"]));
    assert_eq!(v["listing"]["over_window"], true, "{v}");
    assert!(v["listing"]["window_percent"].as_f64().unwrap() > 100.0);
    assert_eq!(
        with(&["budget", "--fail-over-window"]).status.code(),
        Some(1)
    );

    // prompt: --fates says it with the table, --compare --json per mode, and the gate.
    let out = with(&["prompt", "--fates"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("warning: the listing costs "),
        "{}",
        stderr(&out)
    );
    let v = json(&with(&["prompt", "--compare", "--json"]));
    let enabled = v["modes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["mode"] == "enabled")
        .unwrap();
    assert_eq!(enabled["over_window"], true, "{v}");
    let out = with(&["prompt", "--fail-over-window"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("<available_skills>"),
        "the listing is still printed"
    );

    // The same library in a real window: no warning, nothing fails.
    let out = run(&["check", "--fail-over-window", &lib], home.path());
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains("warning:"), "{}", stdout(&out));
    let v = json(&run(&["check", "--format", "json", &lib], home.path()));
    assert_eq!(v["listing"]["over_window"], false);
    let out = run(&["budget", "--fail-over-window", &lib], home.path());
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("listing per turn: "),
        "{}",
        stdout(&out)
    );
}
