//! `skillscope show NAME [RESOURCE]` through the real binary: bodies and resources with their
//! token counts, and nothing outside the skill folder — `..`, absolute paths, outward links and
//! FIFOs are refused with a clear error.

use crate::common;
use common::*;
use skillscope::core::tokens::{Encoding, count};
use std::path::Path;
use std::process::Output;
#[cfg(unix)]
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
    crate::common::symlink(root.join("secret.txt"), root.join("pdf/leak.md")).unwrap();
    crate::common::symlink("references/forms.md", root.join("pdf/forms-link.md")).unwrap();
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
    let rels: Vec<&str> = v["skills"][0]["resource_tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rel"].as_str().unwrap())
        .collect();
    assert_eq!(rels, ["forms-link.md", "references/forms.md"]);
}

#[cfg(unix)]
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
    let deadline = Instant::now() + Duration::from_mins(1);
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

/// OSC 0 (window title) with its BEL, ED (clear the screen), a C1 CSI and a bidi override.
const HOSTILE: &str = "title \x1b]0;pwned\x07 clear \x1b[2J csi \u{9b}6n rlo \u{202e}fdp.exe\n";
const HOSTILE_SHOWN: &str =
    "title \\u{1b}]0;pwned\\u{7} clear \\u{1b}[2J csi \\u{9b}6n rlo \\u{202e}fdp.exe\n";

#[test]
fn bodies_and_resources_are_shown_escaped_and_exact_in_json() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    write(
        &root.join("evil/SKILL.md"),
        &format!(
            "---\nname: evil\ndescription: Hostile body. Use when testing.\n---\n{HOSTILE}\tindented\r\nend\n"
        ),
    );
    write(&root.join("evil/references/notes.md"), HOSTILE);
    let lib = root.to_str().unwrap();
    let clean = |what: &str, bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        let raw: Vec<char> = text
            .chars()
            .filter(|&c| {
                !matches!(c, '\n' | '\t' | '\r') && skillscope::core::words::text::is_hazard(c)
            })
            .collect();
        assert!(raw.is_empty(), "{what}: raw {raw:?} in {text:?}");
    };
    for (args, shown) in [
        (
            vec!["show", "evil", lib],
            format!("{HOSTILE_SHOWN}\tindented\r\nend\n"),
        ),
        (
            vec!["show", "evil", "references/notes.md", lib],
            HOSTILE_SHOWN.to_string(),
        ),
    ] {
        let out = run(&args, home.path());
        assert!(out.status.success(), "{}", err(&out));
        clean("stdout", &out.stdout);
        clean("stderr", &out.stderr);
        // Line feeds, tabs and a carriage return before a line feed are layout, kept.
        assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
        let mut args = args.clone();
        args.push("--json");
        let out = run(&args, home.path());
        clean("json", &out.stdout);
        let text = json(&out)["text"].as_str().unwrap().to_string();
        assert!(text.starts_with(HOSTILE), "{text:?}");
    }
}

/// A thread keeps exchanging the skill's `references` folder (`RENAME_EXCHANGE`, atomic) with a
/// link to an outside folder holding a `guide.md` of its own, while `show` reads
/// `references/guide.md` 1,000 times: the outside file is never printed. Linux only:
/// `renameat2` is Linux's.
#[test]
#[cfg(target_os = "linux")]
fn a_folder_swapped_for_an_outward_link_mid_show_leaks_nothing() {
    use nix::fcntl::{AT_FDCWD, RenameFlags, renameat2};
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("lib");
    library(&root);
    write(&root.join("pdf/references/guide.md"), "inside\n");
    let outside = home.path().join("outside");
    write(&outside.join("guide.md"), "SECRET outside the skill\n");
    crate::common::symlink(&outside, root.join("pdf/swap")).unwrap();
    let lib = root.to_str().unwrap();
    let args = ["show", "pdf", "references/guide.md", lib];
    let (a, b) = (root.join("pdf/references"), root.join("pdf/swap"));
    let stop = AtomicBool::new(false);
    let swaps = AtomicU64::new(0);
    let (leaks, shown) = std::thread::scope(|s| {
        let swapper = s.spawn(|| {
            while !stop.load(Ordering::Relaxed) || swaps.load(Ordering::Relaxed) % 2 == 1 {
                renameat2(AT_FDCWD, &a, AT_FDCWD, &b, RenameFlags::RENAME_EXCHANGE).unwrap();
                let n = swaps.fetch_add(1, Ordering::Relaxed);
                // Each state held for a varying while, so that reads meet both and the moments
                // between them.
                std::thread::sleep(Duration::from_micros(n % 40));
            }
        });
        let (mut leaks, mut shown) = (0, 0);
        for _ in 0..1000 {
            let out = run(&args, home.path());
            let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), err(&out));
            if all.contains("SECRET") {
                leaks += 1;
            } else if out.status.success() {
                shown += 1;
            }
        }
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap();
        (leaks, shown)
    });
    assert_eq!(
        leaks, 0,
        "runs that printed the outside file ({shown} read the inside one)"
    );
    assert!(root.join("pdf/references").is_dir());
    let out = run(&args, home.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "inside\n",
        "{}",
        err(&out)
    );
}
