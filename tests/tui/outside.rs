//! `e` and `y` in a real terminal: the editor gets the terminal (normal screen, cooked mode) and
//! the file at the diagnostic's line, and the app comes back whole with the edit read; copies
//! reach the terminal as OSC 52.

use crate::pty::{start_with, wait_exit};
use crate::tui_common::fixture;
use base64::Engine as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// Waits up to 10 s for `done`; fails with `what`.
fn wait(what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(10), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// An editor named `vim` (so it is given `+LINE`) that records its arguments and the terminal's
/// mode, waits for `go`, then writes a fixed SKILL.md over the file it was given.
fn fake_vim(dir: &Path) -> std::path::PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let vim = bin.join("vim");
    let d = dir.display();
    std::fs::write(
        &vim,
        format!(
            "#!/bin/sh\n\
             stty -a > '{d}/stty' 2>&1\n\
             printf '%s\\n' \"$@\" > '{d}/args.tmp' && mv '{d}/args.tmp' '{d}/args'\n\
             n=0; while [ ! -e '{d}/go' ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n+1)); done\n\
             printf -- '---\\nname: broken-yaml\\ndescription: Fixed in the editor.\\n---\\nBody.\\n' > \"$2\"\n"
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&vim, std::fs::Permissions::from_mode(0o755)).unwrap();
    vim
}

#[test]
fn e_opens_the_editor_at_the_diagnostic_line_and_the_app_comes_back_with_the_edit() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let vim = fake_vim(work.path());
    let mut s = start_with(
        lib.path(),
        config.path(),
        cache.path(),
        &[
            ("VISUAL", vim.as_os_str()),
            ("EDITOR", std::ffi::OsStr::new("")),
        ],
    );
    let first = s.wait_for("4/4 enabled");
    // The first row, broken-yaml, has one error: invalid YAML at a line.
    assert!(
        first.contains("broken-yaml") && first.contains("1E"),
        "{first}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(["check", "--format", "json"])
        .arg(lib.path().join("broken-yaml"))
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = report.to_string();
    let line = text
        .split("\"line\":")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap()
        .to_string();
    s.send("e");
    let args = work.path().join("args");
    wait("the editor ran", || args.exists());
    // While the editor has the terminal the app is off it: normal screen, cooked mode.
    // The app left the screen before it started the editor; the reader may be a moment behind.
    wait("the app left the alternate screen", || {
        !s.alternate_screen()
    });
    let stty = std::fs::read_to_string(work.path().join("stty")).unwrap();
    assert!(
        stty.split_whitespace().any(|w| w == "icanon")
            && stty.split_whitespace().any(|w| w == "echo"),
        "the editor got a raw terminal:\n{stty}"
    );
    let file = lib.path().join("broken-yaml/SKILL.md");
    assert_eq!(
        std::fs::read_to_string(&args).unwrap(),
        format!("+{line}\n{}\n", file.display())
    );
    std::fs::write(work.path().join("go"), "").unwrap();
    wait("the app took the screen back", || s.alternate_screen());
    let back = s.wait_for("edited ");
    assert!(back.contains("4/4 enabled"), "{back}");
    // The edit is read again: the YAML error is gone from the row.
    let row = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains("broken-yaml"))
            .unwrap_or_default()
            .to_string()
    };
    wait("the edit read again", || !row(&s.text()).contains("1E"));
    // The app takes keys again.
    s.send("q");
    assert!(wait_exit(&mut s).success());
}

/// The texts sent to the clipboard by OSC 52 so far.
fn clipboard(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    text.split("\x1b]52;c;")
        .skip(1)
        .filter_map(|rest| rest.split('\x07').next())
        .map(|b64| {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap();
            String::from_utf8(bytes).unwrap()
        })
        .collect()
}

#[test]
fn y_copies_the_name_the_path_and_the_listing_by_osc52() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let mut s = start_with(lib.path(), config.path(), cache.path(), &[]);
    s.wait_for("4/4 enabled");
    // broken-yaml, then pdf-tools.
    s.send("j");
    s.send("y");
    s.wait_for("copied the name pdf-tools");
    s.send("Y");
    let path = lib.path().join("pdf-tools/SKILL.md");
    s.wait_for("copied the path");
    wait("two copies", || clipboard(&s.raw()).len() == 2);
    assert_eq!(
        clipboard(&s.raw()),
        ["pdf-tools".to_string(), path.display().to_string()]
    );
    // The Prompt screen copies its listing.
    s.send("2");
    s.wait_for("What the system prompt holds");
    s.send("y");
    let screen = s.wait_for("copied the listing");
    wait("three copies", || clipboard(&s.raw()).len() == 3);
    let listing = clipboard(&s.raw()).pop().unwrap();
    assert!(
        listing.contains("pdf-tools") && listing.contains("weather"),
        "{listing}"
    );
    let lines = listing.lines().count();
    assert!(
        screen.contains(&format!("copied the listing: {lines} lines")),
        "{screen}"
    );
    s.send("q");
    assert!(wait_exit(&mut s).success());
}
