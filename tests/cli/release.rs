//! What `cargo install skillscope` and the release binaries are made from: the published crate's
//! contents and size, and the release workflow (actionlint where it is installed, and always a
//! check of its structure against `[package.metadata.binstall]`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// crates.io refuses crates larger than this.
const CRATES_IO_LIMIT: u64 = 10 * 1024 * 1024;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(root());
    c
}

#[test]
fn the_crate_leaves_the_weights_out_and_keeps_what_builds_the_program() {
    let out = cargo()
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "--locked",
        ])
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let files: Vec<&str> = list.lines().collect();
    for needed in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src/main.rs",
        "src/lib.rs",
        "assets/model/tokenizer.json",
        "assets/model/SHA256SUMS",
        "assets/model/LICENSE",
        "README.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ] {
        assert!(files.contains(&needed), "{needed} is not in the crate");
    }
    assert!(
        files.iter().any(|f| f.starts_with("assets/skills/")),
        "the demo library is not in the crate"
    );
    for left_out in [
        "assets/model/model.safetensors",
        "screenshots/",
        "scripts/",
        ".github/",
    ] {
        assert!(
            !files.iter().any(|f| f.starts_with(left_out)),
            "{left_out} is in the crate"
        );
    }
}

#[test]
fn the_crate_fits_crates_io() {
    let target = tempfile::tempdir().unwrap();
    let out = cargo()
        .args([
            "package",
            "--no-verify",
            "--allow-dirty",
            "--offline",
            "--locked",
        ])
        .arg("--target-dir")
        .arg(target.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let package = target.path().join("package");
    let crates: Vec<PathBuf> = std::fs::read_dir(&package)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "crate"))
        .collect();
    assert_eq!(crates.len(), 1, "{crates:?}");
    let size = std::fs::metadata(&crates[0]).unwrap().len();
    eprintln!("{}: {size} bytes", crates[0].display());
    assert!(size < CRATES_IO_LIMIT, "{size} bytes");
    // Without the weights the crate is a fraction of them.
    assert!(size < 45_141_904 / 4, "{size} bytes");
}

fn workflow_path() -> PathBuf {
    root().join(".github/workflows/release.yml")
}

/// actionlint, from `$ACTIONLINT` or the PATH.
fn actionlint() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ACTIONLINT").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("actionlint"))
        .find(|p| p.is_file())
}

#[test]
fn actionlint_passes_the_release_workflow() {
    let Some(lint) = actionlint() else {
        eprintln!(
            "SKIPPED actionlint: not found ($ACTIONLINT or actionlint on PATH); \
             the_release_workflow_builds_every_target_with_checksums still checks its structure"
        );
        return;
    };
    let out = Command::new(&lint).arg(workflow_path()).output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The linter finds faults: a workflow with one is refused.
    let bad = tempfile::Builder::new().suffix(".yml").tempfile().unwrap();
    std::fs::write(
        bad.path(),
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
    )
    .unwrap();
    let out = Command::new(&lint).arg(bad.path()).output().unwrap();
    assert!(!out.status.success(), "actionlint passed a broken workflow");
}

fn yaml(path: &Path) -> serde_yaml::Value {
    serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_release_workflow_builds_every_target_with_checksums() {
    let w = yaml(&workflow_path());
    assert_eq!(w["on"]["push"]["tags"][0].as_str(), Some("v*"));
    let build = &w["jobs"]["build"];
    let mut targets: Vec<(&str, &str)> = build["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["target"].as_str().unwrap(),
                m["archive"].as_str().unwrap(),
            )
        })
        .collect();
    targets.sort_unstable();
    assert_eq!(
        targets,
        [
            ("aarch64-apple-darwin", "tar.gz"),
            ("aarch64-unknown-linux-gnu", "tar.gz"),
            ("x86_64-apple-darwin", "tar.gz"),
            ("x86_64-pc-windows-msvc", "zip"),
            ("x86_64-unknown-linux-gnu", "tar.gz"),
        ]
    );
    let steps: Vec<String> = build["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str().map(str::to_string))
        .collect();
    let script = steps.join("\n");
    assert!(script.contains("cargo build --release --locked --target \"${{ matrix.target }}\""));
    // Each archive is `skillscope-TARGET.EXT` holding `skillscope-TARGET/skillscope[.exe]`, with its
    // SHA-256 beside it.
    assert!(script.contains("name=\"skillscope-${TARGET}\""), "{script}");
    assert!(script.contains("cp \"target/${TARGET}/release/skillscope${ext}\" \"dist/${name}/\""));
    assert!(
        script.contains("> \"${name}.${ARCHIVE}.sha256\""),
        "{script}"
    );
    let publish = &w["jobs"]["publish"];
    assert_eq!(publish["needs"].as_str(), Some("build"));
    assert_eq!(publish["permissions"]["contents"].as_str(), Some("write"));
    let publish_script: String = publish["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect();
    assert!(publish_script.contains("sha256sum --check SHA256SUMS"));
    assert!(publish_script.contains("dist/SHA256SUMS"));

    // cargo binstall looks for the same names.
    let manifest: toml_edit::DocumentMut = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    assert_eq!(
        binstall["pkg-url"].as_str(),
        Some("{ repo }/releases/download/v{ version }/{ name }-{ target }{ archive-suffix }")
    );
    assert_eq!(
        binstall["bin-dir"].as_str(),
        Some("{ name }-{ target }/{ bin }{ binary-ext }")
    );
    assert_eq!(binstall["pkg-fmt"].as_str(), Some("tgz"));
    assert_eq!(
        binstall["overrides"]["x86_64-pc-windows-msvc"]["pkg-fmt"].as_str(),
        Some("zip")
    );
}
