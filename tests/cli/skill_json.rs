//! One JSON view of a skill: `list --json`, `budget --format json` and `add --json` print the
//! same fields under the same names for the same skill, each object versioned.

use crate::common::{json, run, write};
use serde_json::Value;

/// The fields every command's skill objects carry.
const COMMON: &[&str] = &[
    "schema_version",
    "name",
    "id",
    "namespace",
    "description",
    "type",
    "dir",
    "skill_md",
    "agent",
    "scope",
    "tokens",
];

fn library(root: &std::path::Path) {
    write(
        &root.join("pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\nlicense: MIT\n---\nUse pdftk.\n",
    );
    write(&root.join("pdf-tools/references/forms.md"), "# Forms\n");
}

fn skill<'a>(skills: &'a Value, name: &str) -> &'a Value {
    skills
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {skills:#}"))
}

#[test]
fn list_budget_and_add_show_a_skill_with_the_same_fields() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    library(&lib);
    let lib_arg = lib.to_str().unwrap();

    let listed = json(&run(&["list", "--json", lib_arg], home.path()));
    let budget = json(&run(&["budget", "--format", "json", lib_arg], home.path()));
    assert_eq!(budget["schema_version"], 1, "{budget:#}");
    let from_list = skill(&listed, "pdf-tools");
    let from_budget = skill(&budget["skills"], "pdf-tools");
    for key in COMMON {
        assert!(
            from_list.get(key).is_some(),
            "list has no {key}: {from_list:#}"
        );
        assert_eq!(
            from_list[key], from_budget[key],
            "{key} differs between list and budget"
        );
    }
    assert_eq!(from_list["schema_version"], 1);
    assert_eq!(from_list["type"], "contextual");
    assert_eq!(from_list["tokens"]["encoding"], "o200k_base");
    assert!(from_list["tokens"]["l2"].as_u64().unwrap() > 0);
    // Each command's own fields are its own: the others leave them out.
    assert_eq!(from_list["license"], "MIT");
    assert!(from_budget.get("license").is_none(), "{from_budget:#}");
    assert!(from_budget["fate"].is_string(), "{from_budget:#}");
    assert!(from_list.get("fate").is_none(), "{from_list:#}");
    assert_eq!(
        from_budget["resource_tokens"][0]["rel"],
        "references/forms.md"
    );
    assert_eq!(
        from_list["resources"]["references"][0],
        "references/forms.md"
    );

    let add = run(
        &[
            "add",
            lib_arg,
            "--agent",
            "claude-code",
            "--scope",
            "user",
            "--dry-run",
            "--json",
        ],
        home.path(),
    );
    assert_eq!(
        add.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&add.stderr)
    );
    let add = json(&add);
    assert_eq!(add["schema_version"], 1, "{add:#}");
    let priced = skill(&add["preview"]["skills"], "pdf-tools");
    for key in COMMON {
        assert!(priced.get(key).is_some(), "add has no {key}: {priced:#}");
    }
    for key in ["schema_version", "name", "id", "description", "type"] {
        assert_eq!(
            priced[key], from_list[key],
            "{key} differs between add and list"
        );
    }
    assert_eq!(priced["agent"], "claude-code");
    assert_eq!(priced["folder"], "pdf-tools");
    assert_eq!(priced["tokens"]["l2"], from_list["tokens"]["l2"]);
    assert!(
        priced["dir"]
            .as_str()
            .unwrap()
            .ends_with(".claude/skills/pdf-tools"),
        "{priced:#}"
    );
}
