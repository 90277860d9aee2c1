//! `budget` reports each skill's cost when used, by the type that decided it.

use crate::common;
use common::*;
use serde_json::Value;

fn fixture(lib: &std::path::Path) {
    write(
        &lib.join("report-builder/SKILL.md"),
        "---\nname: report-builder\ndescription: Build a monthly report from CSV exports. Use when asked for the monthly report.\ntype: composite\n---\nLoad csv-stats for the numbers, then follow chart-style. Loop back to report-builder if asked.\n",
    );
    write(
        &lib.join("csv-stats/SKILL.md"),
        "---\nname: csv-stats\ndescription: Summary statistics of the numeric columns of a CSV file. Use for quick numbers.\n---\nRun the tool.\n",
    );
    write(
        &lib.join("csv-stats/execute.py"),
        "#!/usr/bin/env python3\nimport json, sys\nif '--help-json' in sys.argv:\n    print(json.dumps({'name': 'csv-stats', 'description': 'Column statistics', 'parameters': {'type': 'object', 'properties': {'path': {'type': 'string'}}}}))\n",
    );
    write(
        &lib.join("chart-style/SKILL.md"),
        "---\nname: chart-style\ndescription: The house style for charts in reports. Use when drawing a chart.\n---\nUse references/palette.md.\n",
    );
    write(
        &lib.join("chart-style/references/palette.md"),
        "# Palette\n\nBlue, orange, green, red, purple, brown, pink, grey.\n",
    );
}

fn skills(v: &Value) -> Vec<Value> {
    v["skills"].as_array().unwrap().clone()
}

fn skill<'a>(all: &'a [Value], name: &str) -> &'a Value {
    all.iter().find(|s| s["name"] == name).unwrap()
}

/// A figure of a skill of `budget --format json`: its tokens per level are under `tokens`.
fn n(v: &Value, key: &str) -> u64 {
    let v = if matches!(key, "l1" | "l2" | "l3" | "schema") {
        &v["tokens"][key]
    } else {
        &v[key]
    };
    v.as_u64().unwrap_or(0)
}

#[test]
fn cost_when_used_follows_the_type() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    fixture(&lib);
    let lib = lib.to_str().unwrap();
    let budget = || json(&run(&["budget", "--format", "json", lib], home.path()));

    let before = skills(&budget());
    let csv = skill(&before, "csv-stats");
    assert_eq!(csv["type"], "executable");
    assert_eq!(csv["type_source"], "execute.py");
    assert_eq!(csv["schema_unknown"], true, "not probed yet");
    assert_eq!(n(csv, "used"), n(csv, "l1") + n(csv, "l2"));

    let probe = run(&["probe", lib], home.path());
    assert_eq!(
        probe.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&probe.stdout)
    );

    let after = skills(&budget());
    let csv = skill(&after, "csv-stats");
    let schema = n(csv, "schema");
    assert!(schema > 10, "{csv}");
    assert_eq!(csv["schema_unknown"], false);
    assert_eq!(n(csv, "used"), n(csv, "l1") + n(csv, "l2") + schema);
    let chart = skill(&after, "chart-style");
    assert_eq!(chart["type"], "contextual");
    assert_eq!(chart["type_source"], "default");
    assert!(n(chart, "l3") > 0);
    assert_eq!(
        n(chart, "used"),
        n(chart, "l1") + n(chart, "l2"),
        "a contextual skill's resources are not loaded with it"
    );
    let report = skill(&after, "report-builder");
    assert_eq!(report["type"], "composite");
    assert_eq!(report["type_source"], "type");
    assert_eq!(
        report["used_loads"],
        serde_json::json!(["chart-style", "csv-stats"])
    );
    assert_eq!(
        n(report, "used"),
        n(report, "l1") + n(report, "l2") + n(csv, "used") + n(chart, "used")
    );

    let text = run(&["budget", lib], home.path());
    let text = String::from_utf8_lossy(&text.stdout);
    let row = text.lines().find(|l| l.contains("report-builder")).unwrap();
    assert!(
        row.contains(&n(report, "used").to_string()) && row.contains("composite"),
        "{text}"
    );
    let row = text.lines().find(|l| l.contains(" csv-stats")).unwrap();
    assert!(row.contains("executable*"), "{text}");
    // Into a pipe the folder is whole (on a terminal it is cut to keep rows within 120), and
    // shown from the current folder.
    assert!(text.contains(" lib/report-builder\n"), "{text}");
}
