//! `skillscope model`: a program that reads the installed weights (as one built from the
//! published crate does; `SKILLSCOPE_MODEL=installed` makes this checkout's binary do the same)
//! says how to get them where routing by meaning would answer, works otherwise, and installs only
//! the pinned file, atomically.

use crate::common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

fn weights() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/model/model.safetensors")
}

fn model_run(args: &[&str], home: &Path) -> Output {
    bin()
        .args(args)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("SKILLSCOPE_DATA_DIR", home.join("data"))
        .env("SKILLSCOPE_MODEL", "installed")
        .env("HOME", home)
        .current_dir(home)
        .output()
        .expect("the binary runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn without_the_weights_routing_by_meaning_says_how_to_get_them_and_the_rest_works() {
    let home = tempfile::tempdir().unwrap();
    let demo = demo();
    let demo = demo.to_str().unwrap();

    let out = model_run(&["model", "status"], home.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("not installed"), "{}", text(&out));
    assert!(
        text(&out).contains("skillscope model install"),
        "{}",
        text(&out)
    );

    let out = model_run(
        &["match", "--matcher", "semantic", "merge two pdfs", demo],
        home.path(),
    );
    assert_ne!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("skillscope model install"),
        "{}",
        text(&out)
    );

    // Everything else answers as usual.
    let out = model_run(
        &["match", "--matcher", "keyword", "merge two pdfs", demo],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("pdf"),
        "{}",
        text(&out)
    );
    let out = model_run(&["list", demo], home.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn only_the_pinned_weights_install_and_then_route_by_meaning() {
    let home = tempfile::tempdir().unwrap();
    let installed = home.path().join("data/model/model.safetensors");
    let demo = demo();
    let demo = demo.to_str().unwrap();

    // One byte changed: refused, nothing written.
    let mut bytes = std::fs::read(weights()).unwrap();
    bytes[4096] ^= 0x40;
    let bad = home.path().join("model.safetensors");
    std::fs::write(&bad, &bytes).unwrap();
    let out = model_run(&["model", "install", bad.to_str().unwrap()], home.path());
    assert_ne!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("nothing was installed"),
        "{}",
        text(&out)
    );
    assert!(!installed.exists());

    // Only https is downloaded (no network is needed to refuse).
    let out = model_run(
        &["model", "install", "--url", "http://example.com/m"],
        home.path(),
    );
    assert_ne!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("only https://"), "{}", text(&out));
    assert!(!installed.exists());

    let out = model_run(
        &["model", "install", weights().to_str().unwrap()],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        std::fs::read(&installed).unwrap(),
        std::fs::read(weights()).unwrap()
    );
    let out = model_run(&["model", "status"], home.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("installed"), "{}", text(&out));

    let out = model_run(
        &["match", "--matcher", "semantic", "merge two pdfs", demo],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("pdf"),
        "{}",
        text(&out)
    );

    // A damaged installed file is told apart from a missing one.
    std::fs::write(&installed, b"damaged").unwrap();
    let out = model_run(&["model", "status"], home.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("is not the sentence model's weights"),
        "{}",
        text(&out)
    );
}
