//! What the library index and the token cache trust a file by: an edit that keeps the file's
//! length and puts its mtime back (`cp -p`, `tar x`, `rsync -t`, `touch -r`) must still be seen
//! by a warm command, through the ctime it cannot put back.

use crate::common::{backdate_tree, json, run, write};
use std::path::Path;

/// Rewrites `path` with `text` (of the same length) in place, then puts its mtime back to what
/// it was. Waits until the ctime has moved on, so that a coarse clock cannot hide the change.
fn same_size_edit_mtime_put_back(path: &Path, text: &str) {
    use std::os::unix::fs::MetadataExt;
    let before = std::fs::metadata(path).unwrap();
    assert_eq!(before.len(), text.len() as u64, "the edit keeps the length");
    let mtime = before.modified().unwrap();
    std::fs::write(path, text).unwrap();
    loop {
        std::fs::File::open(path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        let after = std::fs::metadata(path).unwrap();
        assert_eq!(after.modified().unwrap(), mtime);
        assert_eq!((after.len(), after.ino()), (before.len(), before.ino()));
        if (after.ctime(), after.ctime_nsec()) != (before.ctime(), before.ctime_nsec()) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn a_same_size_edit_with_its_mtime_put_back_is_seen_by_warm_list_and_check() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    let skill = lib.join("alpha");
    let old_md = "---\nname: alpha\ndescription: Fills in alpha forms and files. Use when alpha forms are asked for.\n---\n# Alpha\nword word word word word word word word\n";
    // The same length: a tag in the description (a finding of its own), a body of other tokens.
    let new_md = "---\nname: alpha\ndescription: Fills in <alpha> forms and files. Use when alpha forms are ordered.\n---\n# Alpha\nxq7z-vk2p-w9rj-m4tb-h8cn-f3gs-y6dl-ka5e\n";
    assert_eq!(old_md.len(), new_md.len());
    let old_ref = "# Notes\nthe the the the the the the the the the\n";
    let new_ref = "# Notes\n9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6\n";
    assert_eq!(old_ref.len(), new_ref.len());
    write(&skill.join("SKILL.md"), old_md);
    write(&skill.join("references/notes.md"), old_ref);
    backdate_tree(&lib);
    let libs = lib.to_str().unwrap();

    let list = |extra: &[&str]| {
        let mut args = vec!["list", "--json", libs];
        args.extend_from_slice(extra);
        let out = run(&args, home.path());
        assert!(out.status.success(), "{out:?}");
        let v = json(&out);
        let s = &v[0];
        (
            s["description"].as_str().unwrap().to_string(),
            s["tokens"]["l2"].as_u64().unwrap(),
            s["tokens"]["l3"].as_u64().unwrap(),
        )
    };
    let check = || {
        let out = run(&["check", "--format", "json", libs], home.path());
        json(&out)["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["rule"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };

    // Cold, then warm: the index and the token cache now vouch for both files.
    let cold = list(&[]);
    assert_eq!(list(&[]), cold);
    let findings = check();
    assert!(
        !findings.iter().any(|r| r == "description-xml"),
        "{findings:?}"
    );
    assert!(
        std::fs::read_dir(home.path().join("cache"))
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".idx")),
        "a library index was written"
    );

    // A resource first: its count alone moves.
    same_size_edit_mtime_put_back(&skill.join("references/notes.md"), new_ref);
    let warm = list(&[]);
    assert_ne!(warm.2, cold.2, "L3 counted again");
    assert_eq!((&warm.0, warm.1), (&cold.0, cold.1));
    assert_eq!(warm, list(&["--no-cache"]), "the figures counted afresh");

    // Then the skill file: its description, its findings and its count.
    same_size_edit_mtime_put_back(&skill.join("SKILL.md"), new_md);
    let warm = list(&[]);
    assert_eq!(
        warm.0,
        "Fills in <alpha> forms and files. Use when alpha forms are ordered."
    );
    assert_ne!(warm.1, cold.1, "L2 counted again");
    assert_eq!(warm, list(&["--no-cache"]), "the figures counted afresh");
    let findings = check();
    assert!(
        findings.iter().any(|r| r == "description-xml"),
        "a warm check judges the new description: {findings:?}"
    );
}
