//! Shared helpers of the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Set-up: a link at `link` to `target` (read from the link's folder when relative), made as a
/// folder link when the target is a folder, so the same set-up runs on every system.
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> std::io::Result<()> {
    let (target, link) = (target.as_ref(), link.as_ref());
    let resolved = link
        .parent()
        .map_or_else(|| target.to_path_buf(), |up| up.join(target));
    skillscope::core::files::fsx::symlink(target, link, resolved.is_dir())
}

/// Sets `path`'s mode (on Windows only whether it is read-only, see `fsx::permissions`).
pub fn set_mode(path: impl AsRef<Path>, mode: u32) {
    let path = path.as_ref();
    let meta = std::fs::metadata(path).unwrap();
    std::fs::set_permissions(path, skillscope::core::files::fsx::permissions(mode, &meta)).unwrap();
}

/// `path`'s mode, not following a last link (on Windows 0o444 or 0o666, see `fsx::mode_of`).
pub fn mode_of(path: impl AsRef<Path>) -> u32 {
    skillscope::core::files::fsx::mode_of(&std::fs::symlink_metadata(path.as_ref()).unwrap())
}

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skillscope"));
    // The developer's own config file must not change what the tests see.
    c.env("NO_COLOR", "1").env_remove("SKILLSCOPE_CONFIG");
    // Nor the machine's managed skills (Claude Code's, under /etc on Linux).
    c.env("SKILLSCOPE_MANAGED_DIR", "/nonexistent/skillscope-managed");
    c
}

/// Runs the binary with isolated config and cache folders.
pub fn run(args: &[&str], home: &Path) -> Output {
    bin()
        .args(args)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", home)
        .current_dir(home)
        .output()
        .expect("the binary runs")
}

/// [`run`] with a hang guard: the binary is killed and the test fails after `secs` seconds.
pub fn run_guarded(args: &[&str], home: &Path, secs: u64) -> Output {
    let child = bin()
        .args(args)
        .env("SKILLSCOPE_CONFIG_DIR", home.join("config"))
        .env("SKILLSCOPE_CACHE_DIR", home.join("cache"))
        .env("HOME", home)
        .current_dir(home)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    wait_guarded(child, secs, &format!("skillscope {args:?}"))
}

/// Waits for a child whose stdout and stderr are piped, draining both; kills it and fails the
/// test after `secs` seconds (`what` names it in the message).
pub fn wait_guarded(mut child: std::process::Child, secs: u64, what: &str) -> Output {
    use std::time::{Duration, Instant};
    // Drain both pipes on threads so a chatty child never blocks on a full pipe.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let out_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut so, &mut b).ok();
        b
    });
    let err_t = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut se, &mut b).ok();
        b
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            child.kill().ok();
            child.wait().ok();
            panic!("{what} still running after {secs} s: it hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out_t.join().unwrap(),
        stderr: err_t.join().unwrap(),
    }
}

pub fn demo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/skills")
}

/// The real-world corpus, when this checkout has it next to it.
pub fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!(
            "skipping: the skill corpus is not at {} (set SKILLSCOPE_CORPUS to run this test)",
            p.display()
        );
        None
    }
}

pub fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

/// A library folder holding one skill per `(name, description)`, each with a one-line body.
pub fn write_library(lib: &Path, skills: &[(&str, &str)]) {
    for (name, description) in skills {
        write(
            &lib.join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n"),
        );
    }
}

pub fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Dates every file and folder under `root` an hour back, so that the library index trusts their
/// stamps (the last seconds' are not trusted: another write in the same tick would not show).
pub fn backdate_tree(root: &Path) {
    let then = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap() {
                stack.push(e.unwrap().path());
            }
        }
        std::fs::File::open(&p).unwrap().set_modified(then).unwrap();
    }
}

/// Rebuilds a layout captured from a real installer (`tests/fixtures/installers/<case>/`, see
/// its README) under `root`: the folders, the files (each `{NAME}` placeholder of the records
/// replaced by its value in `vars`), the links exactly as the installer wrote them, and the run
/// bits. `home-layout.txt` cases are rebuilt with `layout = "home-layout.txt"` and
/// `files = "home-files"` by [`rebuild_layout_from`].
pub fn rebuild_layout(case: &str, root: &Path, vars: &[(&str, &str)]) {
    rebuild_layout_from(case, "layout.txt", "files", root, vars);
}

/// [`rebuild_layout`] from a case's other layout (its `home-layout.txt` and `home-files/`).
pub fn rebuild_layout_from(
    case: &str,
    layout: &str,
    files: &str,
    root: &Path,
    vars: &[(&str, &str)],
) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/installers")
        .join(case);
    let text = std::fs::read_to_string(dir.join(layout)).unwrap();
    std::fs::create_dir_all(root).unwrap();
    for line in text.lines() {
        let (kind, rest) = line.split_once(' ').unwrap();
        match kind {
            "dir" => std::fs::create_dir_all(root.join(rest)).unwrap(),
            "file" | "file+x" => {
                let mut bytes = std::fs::read(dir.join(files).join(rest)).unwrap();
                if rest.ends_with(".json") {
                    let mut s = String::from_utf8(bytes).unwrap();
                    for (k, v) in vars {
                        s = s.replace(&format!("{{{k}}}"), v);
                    }
                    bytes = s.into_bytes();
                }
                let to = root.join(rest);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::write(&to, bytes).unwrap();
                let mode = if kind == "file+x" { 0o755 } else { 0o644 };
                set_mode(&to, mode);
            }
            "link" => {
                let (path, target) = rest.split_once(" -> ").unwrap();
                let at = root.join(path);
                std::fs::create_dir_all(at.parent().unwrap()).unwrap();
                symlink(target, at).unwrap();
            }
            other => panic!("{case}/{layout}: unknown entry {other:?}"),
        }
    }
}

/// Every path below `root` as a layout line (`dir P`, `file P`, `file+x P`, `link P -> T`),
/// sorted, leaving out `.git` and what `skip` names: to compare with a captured `layout.txt`.
pub fn layout_of(root: &Path, skip: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            if rel == ".git" || skip(&rel) {
                continue;
            }
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.file_type().is_symlink() {
                let t = std::fs::read_link(&p).unwrap();
                out.push(format!("link {rel} -> {}", t.display()));
            } else if m.is_dir() {
                out.push(format!("dir {rel}"));
                stack.push(p);
            } else if skillscope::core::files::fsx::mode_of(&m) & 0o111 != 0 {
                out.push(format!("file+x {rel}"));
            } else {
                out.push(format!("file {rel}"));
            }
        }
    }
    out.sort_by(|a, b| {
        a.split_once(' ')
            .unwrap()
            .1
            .cmp(b.split_once(' ').unwrap().1)
    });
    out
}
