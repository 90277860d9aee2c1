//! `skillscope show NAME [RESOURCE]` through the real binary: bodies and resources with their
//! token counts, and nothing outside the skill folder — `..`, absolute paths, outward links and
//! FIFOs are refused with a clear error.

mod common;
use common::*;
use skillscope::core::tokens::{Encoding, count};
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

fn library(root: &Path) {
    write(
        &root.join("pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Read PDF files. Use when a PDF is shared.\n---\n# PDF\n\nSee [forms](references/forms.md).\n",
    );
    write(
        &root.join("pdf/references/forms.md"),
        "# Forms\n\nList the fields, then fill them.\n",
    );
    write(&root.join("secret.txt"), "not part of any skill\n");
    std::os::unix::fs::symlink(root.join("secret.txt"), root.join("pdf/leak.md")).unwrap();
    std::os::unix::fs::symlink("references/forms.md", root.join("pdf/forms-link.md")).unwrap();
}

fn err(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn prints_the_body_and_resources_with_their_tokens() {
    let home = tempfile::tempdir().unwrap();
    let lib = home.path().join("lib");
    library(&lib);
    let lib = lib.to_str().unwrap();
    let out = run(&["show", "pdf", lib], home.path());
    assert!(out.status.success(), "{}", err(&out));
    let body = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(body, "# PDF\n\nSee [forms](references/forms.md).\n");
    let n = count(Encoding::O200kBase, &body);
    assert!(
        err(&out).contains(&format!("pdf body: {n} tokens")),
        "{}",
        err(&out)
    );

    let out = run(&["show", "pdf", "references/forms.md", lib], home.path());
    assert!(out.status.success(), "{}", err(&out));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(text, "# Forms\n\nList the fields, then fill them.\n");
    let n = count(Encoding::O200kBase, &text);
    assert!(err(&out).contains(&format!("{n} tokens")), "{}", err(&out));

    // A link that stays inside the skill is read.
    let out = run(
        &["show", "pdf", "forms-link.md", lib, "--json"],
        home.path(),
    );
    let v = json(&out);
    assert_eq!(v["text"], text);
    assert_eq!(v["tokens"].as_u64().unwrap() as usize, n);
}

#[test]
fn refuses_anything_outside_the_skill_folder() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    library(&root);
    let lib = root.to_str().unwrap();
    let secret = root.join("secret.txt");
    for (rel, says) in [
        ("../secret.txt", "climbs out of the skill folder"),
        (
            "references/../../secret.txt",
            "climbs out of the skill folder",
        ),
        (secret.to_str().unwrap(), "absolute path"),
        ("leak.md", "leads outside the skill folder"),
        ("references", "not a regular file"),
        ("missing.md", "not in the skill folder"),
    ] {
        let out = run(&["show", "pdf", rel, lib], home.path());
        assert_eq!(out.status.code(), Some(2), "{rel}: {}", err(&out));
        assert!(out.stdout.is_empty(), "{rel} printed something");
        assert!(err(&out).contains(says), "{rel}: {}", err(&out));
        assert!(!err(&out).contains("not part of any skill"));
    }
    // The L3 walk follows the same rule: the outward link is no resource of the skill.
    let v = json(&run(&["budget", "--format", "json", lib], home.path()));
    let rels: Vec<&str> = v["skills"][0]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rel"].as_str().unwrap())
        .collect();
    assert_eq!(rels, ["forms-link.md", "references/forms.md"]);
}

#[test]
fn a_fifo_is_an_error_not_a_hang() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    library(&root);
    nix::unistd::mkfifo(
        &root.join("pdf/pipe.md"),
        nix::sys::stat::Mode::S_IRUSR | nix::sys::stat::Mode::S_IWUSR,
    )
    .unwrap();
    let mut child = bin()
        .args(["show", "pdf", "pipe.md", root.to_str().unwrap()])
        .env("SKILLSCOPE_CONFIG_DIR", home.path().join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.path().join("cache"))
        .env("HOME", home.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A guard against a hang, not a measurement: a blocked open never returns.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("show blocked on a FIFO");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(err(&out).contains("named pipe"), "{}", err(&out));
}

#[test]
fn names_ids_and_the_library_folder_in_the_resource_place() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    for ns in ["web", "data"] {
        write(
            &root.join(ns).join("scraper/SKILL.md"),
            &format!(
                "---\nname: scraper\ndescription: Scrape {ns} things. Use for {ns}.\n---\n{ns} body\n"
            ),
        );
    }
    let lib = root.to_str().unwrap();
    let out = run(&["show", "scraper", lib], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err(&out).contains("data.scraper") && err(&out).contains("web.scraper"),
        "{}",
        err(&out)
    );
    let out = run(&["show", "web.scraper", lib], home.path());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "web body\n");
}
