//! A skill's spec fields and its files by Conjure's groups (design 004: scripts, references,
//! assets, other) in `list --json` and `show`.

use crate::common::*;

fn skill(home: &std::path::Path) -> std::path::PathBuf {
    let lib = home.join("lib");
    let dir = lib.join("pdf");
    write(
        &dir.join("SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use when a PDF form is given.\nlicense: Apache-2.0\ncompatibility: Needs python3 and poppler\nmetadata:\n  author: example-org\n  version: \"1.2\"\n---\n# PDF\n",
    );
    write(&dir.join("scripts/fill.py"), "print(1)\n");
    write(&dir.join("scripts/merge.py"), "print(2)\n");
    write(&dir.join("references/forms.md"), "# Forms\n");
    write(&dir.join("assets/template.txt"), "x\n");
    write(&dir.join("LICENSE.txt"), "Apache\n");
    lib
}

#[test]
fn list_json_carries_the_spec_fields_and_the_grouped_files() {
    let home = tempfile::tempdir().unwrap();
    let lib = skill(home.path());
    let v = json(&run(
        &["list", "--json", lib.to_str().unwrap()],
        home.path(),
    ));
    let s = &v[0];
    assert_eq!(s["license"], "Apache-2.0", "{s}");
    assert_eq!(s["compatibility"], "Needs python3 and poppler");
    assert_eq!(
        s["metadata"],
        serde_json::json!({"author": "example-org", "version": "1.2"})
    );
    assert_eq!(
        s["resources"],
        serde_json::json!({
            "scripts": ["scripts/fill.py", "scripts/merge.py"],
            "references": ["references/forms.md"],
            "assets": ["assets/template.txt"],
            "other": ["LICENSE.txt"],
        })
    );
    // Absent fields are null, not left out.
    write(
        &lib.join("bare/SKILL.md"),
        "---\nname: bare\ndescription: Nothing else. Use for tests.\n---\n",
    );
    let v = json(&run(
        &["list", "--json", lib.to_str().unwrap()],
        home.path(),
    ));
    let bare = v
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "bare")
        .unwrap();
    for key in ["license", "compatibility", "metadata"] {
        assert!(bare[key].is_null(), "{key}: {bare}");
    }
    assert_eq!(bare["resources"]["other"], serde_json::json!([]));
}

#[test]
fn show_lists_the_files_by_group_beside_the_body() {
    let home = tempfile::tempdir().unwrap();
    let lib = skill(home.path());
    let out = run(&["show", "pdf", lib.to_str().unwrap()], home.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "# PDF\n",
        "stdout is the body alone"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("skillscope: scripts 2: scripts/fill.py, scripts/merge.py\n"),
        "{err}"
    );
    assert!(
        err.contains("skillscope: references 1: references/forms.md\n"),
        "{err}"
    );
    assert!(
        err.contains("skillscope: assets 1: assets/template.txt\n"),
        "{err}"
    );
    assert!(err.contains("skillscope: other 1: LICENSE.txt\n"), "{err}");
    let v = json(&run(
        &["show", "pdf", lib.to_str().unwrap(), "--json"],
        home.path(),
    ));
    assert_eq!(v["resources"]["scripts"][1], "scripts/merge.py", "{v}");
    assert_eq!(v["resources"]["other"][0], "LICENSE.txt", "{v}");
    // One file shown: no listing.
    let v = json(&run(
        &[
            "show",
            "pdf",
            "references/forms.md",
            lib.to_str().unwrap(),
            "--json",
        ],
        home.path(),
    ));
    assert!(v.get("resources").is_none(), "{v}");
}
