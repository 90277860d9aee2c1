//! The app and its probes: a panic while probes run still stops and reaps them and removes their
//! temporary folders (the real terminal's `q` and Ctrl-C are in `tui_pty.rs`).

use crate::tui_common;

use ratatui::crossterm::event::KeyCode;
use skillscope::core::probe::{self, SandboxMode, SandboxPreference};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tui_common::{harness, write};

/// Process ids whose command line holds `token`.
fn processes_with(token: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().parse::<u32>().ok()?;
            let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmd).contains(token).then_some(pid)
        })
        .collect()
}

/// The `HOME` a running process was given, as the host sees it.
fn home_of(pid: u32) -> Option<PathBuf> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    env.split(|b| *b == 0)
        .find_map(|kv| kv.strip_prefix(b"HOME="))
        .map(|v| PathBuf::from(String::from_utf8_lossy(v).into_owned()))
}

fn panic_while_probing(sandbox: SandboxPreference) {
    probe::set_sandbox_program(env!("CARGO_BIN_EXE_skillscope"));
    let lib = tempfile::tempdir().unwrap();
    let dir = lib.path().join("sleeper");
    write(
        &dir.join("SKILL.md"),
        "---\nname: sleeper\ndescription: Never answers.\ntype: executable\nentry: run.sh\n---\n",
    );
    write(&dir.join("run.sh"), "#!/bin/sh\nsleep 1000 &\nwait\n");
    let token = dir.join("run.sh").display().to_string();

    let mut h = harness(&[lib.path()], 100, 30);
    h.app.screens.checks.sandbox = sandbox;
    h.key(KeyCode::Char('4')).key(KeyCode::Char('r'));
    assert!(h.app.screens.checks.running());
    let start = Instant::now();
    let pid = loop {
        if let Some(pid) = processes_with(&token).first() {
            break *pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the probe never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let home = home_of(pid).expect("the probe's HOME");
    if sandbox == SandboxPreference::ProcessGroup {
        assert!(home.is_dir(), "the temporary home exists while it runs");
    }

    // A panic in the app unwinds through it, as one on the UI thread would.
    let crashed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let _app = h;
        panic!("simulated crash while probing");
    }));
    assert!(crashed.is_err());
    let left = processes_with(&token);
    assert!(left.is_empty(), "probe processes left: {left:?}");
    assert!(!home.exists(), "temporary home {} left", home.display());
}

#[test]
fn a_panic_stops_and_reaps_running_probes_namespaces() {
    panic_while_probing(SandboxPreference::Strongest);
}

#[test]
fn a_panic_stops_and_reaps_running_probes_process_group() {
    panic_while_probing(SandboxPreference::ProcessGroup);
}

#[test]
fn the_checks_screen_names_the_sandbox_of_each_verdict() {
    probe::set_sandbox_program(env!("CARGO_BIN_EXE_skillscope"));
    let lib = tempfile::tempdir().unwrap();
    write(
        &lib.path().join("tool/SKILL.md"),
        "---\nname: tool\ndescription: A tool.\ntype: executable\nentry: run.sh\n---\n",
    );
    write(
        &lib.path().join("tool/run.sh"),
        "#!/bin/sh\necho '{\"name\": \"tool\", \"description\": \"d\", \"parameters\": {\"type\": \"object\"}}'\n",
    );
    for sandbox in [
        SandboxPreference::Strongest,
        SandboxPreference::ProcessGroup,
    ] {
        let mut h = harness(&[lib.path()], 120, 30);
        h.app.screens.checks.sandbox = sandbox;
        h.key(KeyCode::Char('4')).key(KeyCode::Char('r'));
        h.wait_until(|app| !app.screens.checks.running());
        let report = h.app.screens.checks.report_for(&h.app.lib, 0).unwrap();
        let mode = report.sandbox.unwrap();
        let screen = h.screen();
        let row = screen
            .lines()
            .find(|l| l.contains("tool") && l.contains(" ok "))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(row.contains(mode.name()), "{row}");
        match mode {
            SandboxMode::ProcessGroup => {
                assert!(screen.contains("weaker"), "{screen}");
                if sandbox == SandboxPreference::Strongest {
                    eprintln!("namespaces refused here: checked that the screen says so");
                }
            }
            SandboxMode::Namespaces => {
                assert_eq!(sandbox, SandboxPreference::Strongest);
                assert!(screen.contains("sandbox namespaces"), "{screen}");
            }
            SandboxMode::Seatbelt => {
                assert_eq!(sandbox, SandboxPreference::Strongest);
                assert!(screen.contains("sandbox seatbelt"), "{screen}");
            }
        }
    }
}
