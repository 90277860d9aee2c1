//! A FIFO where skillscope keeps or reads a file (state, token cache, probe store, agent
//! settings) is a clear error naming the file, never a hang, and is never written over.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A home with one skill that Claude Code and opencode read, and the config and cache folders.
struct World {
    tmp: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let skill = tmp.path().join("home/.claude/skills/pdf");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(
            skill.join("SKILL.md"),
            "---\nname: pdf\ndescription: Read PDF files. Use when the user mentions PDFs.\n---\nBody.\n",
        )
        .unwrap();
        std::fs::create_dir_all(tmp.path().join("config")).unwrap();
        std::fs::create_dir_all(tmp.path().join("cache")).unwrap();
        std::fs::create_dir_all(tmp.path().join("project/.git")).unwrap();
        World { tmp }
    }

    fn path(&self, file: File) -> PathBuf {
        let base = self.tmp.path();
        match file {
            File::State => base.join("config/state.json"),
            File::Tokens => base.join("cache/tokens.bin"),
            File::Probes => base.join("cache/probes.json"),
            File::ClaudeSettings => base.join("home/.claude/settings.json"),
        }
    }

    fn fifo(&self, file: File) -> PathBuf {
        let p = self.path(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::S_IRWXU).unwrap();
        p
    }

    /// Runs the binary; kills it and fails when it has not finished after 10 s (a hang guard
    /// only: a FIFO must not make it wait at all).
    fn run(&self, args: &[&str]) -> Output {
        let base = self.tmp.path();
        let child = Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .args(args)
            .current_dir(base.join("project"))
            .env("HOME", base.join("home"))
            .env("SKILLSCOPE_CONFIG_DIR", base.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", base.join("cache"))
            .env("NO_COLOR", "1")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        crate::common::wait_guarded(child, 10, &format!("`skillscope {}`", args.join(" ")))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum File {
    State,
    Tokens,
    Probes,
    ClaudeSettings,
}

const FILES: [File; 4] = [
    File::State,
    File::Tokens,
    File::Probes,
    File::ClaudeSettings,
];

/// The commands, and the files each of them reads: without an agent in view, a skill is on when
/// an agent that reads it has it on, so the switches of the agents reading the library (here
/// Claude Code's settings) are read too.
const COMMANDS: [(&[&str], &[File]); 3] = [
    (
        &["list"],
        &[
            File::State,
            File::Tokens,
            File::Probes,
            File::ClaudeSettings,
        ],
    ),
    (
        &["budget"],
        &[
            File::State,
            File::Tokens,
            File::Probes,
            File::ClaudeSettings,
        ],
    ),
    (
        &["toggle", "--yes", "pdf", "--off"],
        &[File::State, File::ClaudeSettings],
    ),
];

fn is_fifo(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_fifo())
}

#[test]
fn a_fifo_at_any_file_is_a_clear_error_naming_it_for_list_budget_and_toggle() {
    for file in FILES {
        for (args, reads) in COMMANDS {
            let w = World::new();
            let fifo = w.fifo(file);
            let out = w.run(args);
            let err = String::from_utf8_lossy(&out.stderr);
            if reads.contains(&file) {
                assert!(
                    err.contains(&fifo.display().to_string()) && err.contains("named pipe (FIFO)"),
                    "`{}` with a FIFO at {file:?}: {err}",
                    args.join(" ")
                );
            } else {
                assert!(
                    !err.contains("FIFO"),
                    "`{}` does not read {file:?}: {err}",
                    args.join(" ")
                );
            }
            assert!(
                is_fifo(&fifo),
                "`{}` replaced the FIFO at {file:?}",
                args.join(" ")
            );
        }
    }
}

#[test]
fn a_toggle_that_would_write_a_fifo_fails_and_says_why() {
    let w = World::new();
    let state = w.fifo(File::State);
    let out = w.run(&["toggle", "--yes", "pdf", "--off", "--agent", "skillscope"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("{} was not saved", state.display())) && err.contains("FIFO"),
        "{err}"
    );

    let w = World::new();
    let settings = w.fifo(File::ClaudeSettings);
    let out = w.run(&["toggle", "--yes", "pdf", "--off", "--agent", "claude-code"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("{} is a named pipe (FIFO)", settings.display())),
        "{err}"
    );
    assert!(is_fifo(&settings));
}
