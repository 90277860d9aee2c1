//! Every file skillscope keeps for itself (the library index, the token cache, what probes
//! printed, its state, the locks beside them) is private to the user: 0600 in a 0700 folder,
//! also where an older skillscope left the folder open and the files readable by all.

use crate::common::{run, write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn caches_state_probe_output_and_locks_are_0600_in_0700_folders() {
    let home = tempfile::tempdir().unwrap();
    let skill = home.path().join(".claude/skills/alpha");
    write(
        &skill.join("SKILL.md"),
        "---\nname: alpha\ndescription: Runs alpha jobs. Use when alpha is asked for.\ntype: executable\n---\n# Alpha\n",
    );
    write(
        &skill.join("execute.py"),
        "import json, sys\nprint(json.dumps({\"name\": \"alpha\", \"description\": \"Runs alpha jobs.\", \"parameters\": {\"type\": \"object\", \"properties\": {}}}))\n",
    );
    let (cache, config) = (home.path().join("cache"), home.path().join("config"));
    // As an older skillscope left them: folders and files readable by everyone.
    for dir in [&cache, &config] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for old in [cache.join("probes.json"), cache.join("tokens.bin")] {
        std::fs::write(&old, "{}").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o644)).unwrap();
    }

    let lib = skill.parent().unwrap().to_str().unwrap().to_string();
    for args in [
        vec!["list", "--json", lib.as_str()],
        vec!["probe", "--json", lib.as_str()],
        vec!["toggle", "--yes", "alpha", "--off", "--agent", "skillscope"],
    ] {
        let out = run(&args, home.path());
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let probes = std::fs::read_to_string(cache.join("probes.json")).unwrap();
    assert!(probes.contains("alpha"), "the probe was stored: {probes}");

    assert_eq!(mode(&cache), 0o700, "{}", cache.display());
    assert_eq!(mode(&config), 0o700, "{}", config.display());
    let mut seen = Vec::new();
    for dir in [&cache, &config] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_file() {
                assert_eq!(mode(&p), 0o600, "{}", p.display());
                seen.push(p.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    seen.sort();
    for want in ["probes.json", "tokens.bin", "state.json"] {
        assert!(seen.iter().any(|n| n == want), "{want} in {seen:?}");
    }
    // A lock lives only while a writer holds it.
    assert!(
        !seen.iter().any(|n| n.ends_with(".lock")),
        "a lock file left behind: {seen:?}"
    );
    assert!(
        seen.iter()
            .any(|n| n.starts_with("library-") && n.ends_with(".idx")),
        "the library index in {seen:?}"
    );
}
