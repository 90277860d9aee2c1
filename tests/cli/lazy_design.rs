//! The Lazy Skills agent as design 000 writes it, through the real binary: `auto_load` opts a
//! skill in wherever it is (folders named on the command line too), read as PyYAML and Python
//! read it; `toggle --agent lazy-skills` writes that switch into the skill's own SKILL.md.

use crate::common::*;
use std::path::Path;

fn skill(lib: &Path, dir: &str, name: &str, description: &str, extra: &str) {
    write(
        &lib.join(dir).join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: {description}\n{extra}---\n# {name}\n"),
    );
}

fn stdout(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn lazy_listing(home: &Path, lib: &Path) -> String {
    stdout(&run(
        &["prompt", "--agent", "lazy-skills", lib.to_str().unwrap()],
        home,
    ))
}

#[test]
fn auto_load_gates_folders_named_on_the_command_line_as_pyyaml_reads_it() {
    let t = tempfile::tempdir().unwrap();
    let lib = t.path().join("lib");
    skill(&lib, "plain", "plain", "No switch at all", "");
    skill(
        &lib,
        "yes",
        "yes-skill",
        "Opted in with yes",
        "auto_load: yes\n",
    );
    skill(
        &lib,
        "on",
        "on-skill",
        "Opted in with On",
        "auto_load: On\n",
    );
    skill(
        &lib,
        "no",
        "no-skill",
        "Opted out with no",
        "auto_load: no\n",
    );
    skill(
        &lib,
        "off",
        "off-skill",
        "Opted out with OFF",
        "auto_load: OFF\n",
    );
    // Quoted, it is text, and a non-empty text is true in Python.
    skill(
        &lib,
        "quoted",
        "quoted-false",
        "Quoted false",
        "auto_load: \"false\"\n",
    );
    skill(&lib, "zero", "zero-skill", "Zero", "auto_load: 0\n");
    let text = lazy_listing(t.path(), &lib);
    for on in ["yes-skill", "on-skill", "quoted-false"] {
        assert!(text.contains(&format!("- {on}: ")), "{on} missing:\n{text}");
    }
    for off in ["plain", "no-skill", "off-skill", "zero-skill"] {
        assert!(
            !text.contains(&format!("- {off}: ")),
            "{off} listed:\n{text}"
        );
    }
    // The generic view of the same folder still lists what skills-ref would.
    let xml = stdout(&run(
        &["prompt", "--format", "xml", lib.to_str().unwrap()],
        t.path(),
    ));
    assert!(xml.contains("<name>\nplain\n</name>"), "{xml}");
}

#[test]
fn toggle_writes_auto_load_into_the_skills_own_frontmatter_and_the_listing_follows() {
    let t = tempfile::tempdir().unwrap();
    let lib = t.path().join("lib");
    let md = lib.join("pdf/SKILL.md");
    write(
        &md,
        "---\nname: pdf\n# the switch:\nauto_load: yes # for now\ndescription: Fill PDF forms\n---\n# pdf\n",
    );
    let before = std::fs::read_to_string(&md).unwrap();
    assert!(lazy_listing(t.path(), &lib).contains("- pdf: Fill PDF forms"));

    let l = lib.to_str().unwrap();
    // The dry run shows the diff and writes nothing.
    let dry = stdout(&run(
        &[
            "toggle",
            "pdf",
            "--off",
            "--agent",
            "lazy-skills",
            "--dry-run",
            l,
        ],
        t.path(),
    ));
    assert!(dry.contains("-auto_load: yes # for now"), "{dry}");
    assert!(dry.contains("+auto_load: false # for now"), "{dry}");
    assert_eq!(std::fs::read_to_string(&md).unwrap(), before);

    let off = stdout(&run(
        &[
            "toggle",
            "--yes",
            "pdf",
            "--off",
            "--agent",
            "lazy-skills",
            l,
        ],
        t.path(),
    ));
    assert!(off.contains("lazy-skills: written"), "{off}");
    // Only the value changed; the comment, the order and the rest are as they were.
    assert_eq!(
        std::fs::read_to_string(&md).unwrap(),
        before.replace("auto_load: yes", "auto_load: false")
    );
    assert!(!lazy_listing(t.path(), &lib).contains("- pdf:"));
    // No backup or lock file is left in the skill's folder (it would be one of its resources).
    let files: Vec<_> = std::fs::read_dir(lib.join("pdf")).unwrap().collect();
    assert_eq!(files.len(), 1);

    stdout(&run(
        &[
            "toggle",
            "--yes",
            "pdf",
            "--on",
            "--agent",
            "lazy-skills",
            l,
        ],
        t.path(),
    ));
    assert_eq!(
        std::fs::read_to_string(&md).unwrap(),
        before.replace("auto_load: yes", "auto_load: true")
    );
    assert!(lazy_listing(t.path(), &lib).contains("- pdf: Fill PDF forms"));
}

#[test]
fn toggle_adds_auto_load_where_there_is_none() {
    let t = tempfile::tempdir().unwrap();
    let lib = t.path().join("lib");
    skill(&lib, "csv", "csv", "Sum CSV columns", "");
    let l = lib.to_str().unwrap();
    stdout(&run(
        &[
            "toggle",
            "--yes",
            "csv",
            "--on",
            "--agent",
            "lazy-skills",
            l,
        ],
        t.path(),
    ));
    assert_eq!(
        std::fs::read_to_string(lib.join("csv/SKILL.md")).unwrap(),
        "---\nname: csv\ndescription: Sum CSV columns\nauto_load: true\n---\n# csv\n"
    );
    assert!(lazy_listing(t.path(), &lib).contains("- csv: Sum CSV columns"));
}

#[test]
fn namespaced_skills_of_one_name_are_both_listed_by_their_namespaced_names() {
    let t = tempfile::tempdir().unwrap();
    // The agent's own folder, nested as design 000's namespaces section lays it out.
    let own = t.path().join(".config/cli-agent/skills");
    skill(
        &own,
        "web/parser",
        "parser",
        "Parse web pages",
        "auto_load: true\n",
    );
    skill(
        &own,
        "data/parser",
        "parser",
        "Parse data files",
        "auto_load: true\n",
    );
    skill(&own, "top", "top", "At the top", "auto_load: true\n");
    let text = stdout(&run(&["prompt", "--agent", "lazy-skills"], t.path()));
    assert!(text.contains("- web.parser: Parse web pages"), "{text}");
    assert!(text.contains("- data.parser: Parse data files"), "{text}");
    assert!(text.contains("- top: At the top"), "{text}");
    assert!(!text.contains("- parser:"), "{text}");
}
