//! Whole commands of the built binary, as a user runs them, so that a warm path that grows slower
//! shows here: `check --format json`, `check` (text), `list --json` and `budget` on the real
//! corpus with the token cache and the library index from the run before; the app's second
//! start in a pseudo-terminal, until it has drawn every level and quit
//! (`SKILLSCOPE_START_REPORT_QUIT`); and `add` of a collection of skills from a local git
//! repository into a throwaway home.
//!
//!     SKILLSCOPE_CORPUS=../shared/corpus cargo bench --profile release --bench warm_cli
//!
//! (`--profile release` times the program as it is shipped; plain `cargo bench` builds it in the
//! lightly optimised bench profile.)
//!
//! The commands run only under `cargo bench` (criterion's `--bench` flag): `cargo test
//! --all-targets` builds this file and runs none of them. The warm group needs the corpus
//! (`../shared/corpus` or `$SKILLSCOPE_CORPUS`); `add` needs git. `ADD_SKILLS` sets the size of
//! the collection (default 181, the size of the corpus's wshobson-agents).

use criterion::{BatchSize, Criterion};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_skillscope");

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

/// The binary with its caches, settings and home in `home` alone (no user's state read).
fn skillscope(home: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.env("HOME", home)
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_DATA_DIR", home.join("data"))
        .env("SKILLSCOPE_STATE", home.join("state.json"))
        .env("NO_COLOR", "1")
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

/// Runs one command to its end; its exit code is not asked for (check exits 1 on the corpus's
/// errors), only that it ran.
fn run(mut c: Command) {
    let status = c.status();
    assert!(
        status.as_ref().is_ok_and(|s| s.code().is_some()),
        "{c:?}: {status:?}"
    );
}

fn warm(c: &mut Criterion, corpus: &Path) {
    let home = tempfile::tempdir().expect("a temporary folder");
    let commands: [(&str, &[&str]); 4] = [
        ("check_json", &["check", "--format", "json"]),
        ("check_text", &["check"]),
        ("list_json", &["list", "--json"]),
        ("budget", &["budget"]),
    ];
    // The first run of each fills the token cache and the library index (cold: seconds), and
    // two starts of the app what it counts besides (L1 in its listing format).
    for (_, args) in commands {
        let mut cmd = skillscope(home.path());
        cmd.args(args).arg(corpus);
        run(cmd);
    }
    app_start(home.path(), corpus);
    app_start(home.path(), corpus);
    let mut g = c.benchmark_group("warm_corpus");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, args) in commands {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut cmd = skillscope(home.path());
                cmd.args(args).arg(corpus);
                run(cmd);
            });
        });
    }
    g.bench_function("app_second_start", |b| {
        b.iter(|| app_start(home.path(), corpus));
    });
    g.finish();
}

/// The app on `corpus` in a pseudo-terminal of 160×40, from its launch until it quits after
/// drawing its first frame with every level counted.
fn app_start(home: &Path, corpus: &Path) {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 160,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pseudo-terminal");
    let mut cmd = CommandBuilder::new(BIN);
    cmd.arg(corpus);
    cmd.cwd(home);
    for (k, v) in [
        ("HOME", home.to_path_buf()),
        ("SKILLSCOPE_CACHE_DIR", home.join("cache")),
        ("SKILLSCOPE_CONFIG_DIR", home.join("config")),
        ("SKILLSCOPE_DATA_DIR", home.join("data")),
        ("SKILLSCOPE_STATE", home.join("state.json")),
        ("SKILLSCOPE_START_REPORT", home.join("start.txt")),
    ] {
        cmd.env(k, v);
    }
    cmd.env("SKILLSCOPE_START_REPORT_QUIT", "1");
    cmd.env("TERM", "xterm-256color");
    let mut child = pty.slave.spawn_command(cmd).expect("the app started");
    drop(pty.slave);
    // What the app draws is read and thrown away, so it never waits for the terminal.
    let mut screen = pty
        .master
        .try_clone_reader()
        .expect("the terminal's output");
    let reader = std::thread::spawn(move || std::io::copy(&mut screen, &mut std::io::sink()));
    let status = child.wait();
    assert!(
        status.is_ok_and(|s| s.success()),
        "the app did not quit by itself"
    );
    drop(pty.master);
    let _ = reader.join();
}

/// A git repository of `n` skills, each with a reference file, in `dir`.
fn collection(dir: &Path, n: usize) -> bool {
    for i in 0..n {
        let skill = dir.join("skills").join(format!("skill-{i:04}"));
        std::fs::create_dir_all(skill.join("references")).expect("a skill folder");
        std::fs::write(
            skill.join("SKILL.md"),
            format!(
                "---\nname: skill-{i:04}\ndescription: Formats, checks and summarises report \
                 {i} when the user asks for report {i} or its tables.\n---\n\n# Report {i}\n\n\
                 Read references/guide.md first, then follow its steps.\n"
            ),
        )
        .expect("a SKILL.md");
        std::fs::write(
            skill.join("references/guide.md"),
            format!("# Guide {i}\n\n1. Open the report.\n2. Check its tables.\n"),
        )
        .expect("a reference");
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .args([
                "-c",
                "user.name=bench",
                "-c",
                "user.email=bench@example.com",
            ])
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    git(&["init", "-q"]) && git(&["add", "-A"]) && git(&["commit", "-qm", "skills"])
}

fn add(c: &mut Criterion) {
    let n = std::env::var("ADD_SKILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(181);
    let repo = tempfile::tempdir().expect("a temporary folder");
    if !collection(repo.path(), n) {
        eprintln!("skipping add: git could not make the repository");
        return;
    }
    let url = format!("file://{}", repo.path().display());
    let mut g = c.benchmark_group("add");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    // Every run from an empty home: no token cache, nothing installed.
    g.bench_function(format!("{n}_skills_from_git_yes"), |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("a temporary home"),
            |home| {
                let mut cmd = skillscope(home.path());
                cmd.args(["add", &url, "--yes"]);
                run(cmd);
                home
            },
            BatchSize::PerIteration,
        );
    });
    g.finish();
}

fn main() {
    // `cargo test --all-targets` runs a bench without `--bench`: it is built, and nothing runs.
    if !std::env::args().any(|a| a == "--bench") {
        eprintln!("warm_cli: runs under `cargo bench` only");
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    match corpus() {
        Some(corpus) => warm(&mut c, &corpus),
        None => eprintln!(
            "skipping the warm group: no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS)"
        ),
    }
    add(&mut c);
    c.final_summary();
}
