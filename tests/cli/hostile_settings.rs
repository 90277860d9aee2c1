//! Hostile settings files: a FIFO, a link to `/dev/zero` or a file far past the cap where an
//! agent keeps its settings (OpenClaw's `openclaw.json`, Claude Code's, Codex's, opencode's and
//! Gemini CLI's settings) or where skillscope keeps its config. Every command returns at once,
//! exits normally and names the file and what is wrong with it when it reads it; an agent's
//! settings are read (and reported) only by the commands that look at that agent.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// What is planted at a settings file's place.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// A named pipe with no writer: a blocking open never returns.
    Fifo,
    /// A link to `/dev/zero`: a read to the end never ends, and its memory grows without bound.
    DevZero,
    /// A sparse regular file of 64 MiB, past every settings file's cap.
    Huge,
}

impl Kind {
    /// What the message says about it.
    fn said(self) -> &'static str {
        match self {
            Kind::Fifo => "named pipe (FIFO)",
            Kind::DevZero => "(a link to /dev/zero) is a character device",
            Kind::Huge => "67108864 bytes, more than the",
        }
    }

    fn plant(self, at: &Path) {
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        match self {
            Kind::Fifo => nix::unistd::mkfifo(at, nix::sys::stat::Mode::S_IRWXU).unwrap(),
            Kind::DevZero => std::os::unix::fs::symlink("/dev/zero", at).unwrap(),
            Kind::Huge => std::fs::File::create(at)
                .unwrap()
                .set_len(64 << 20)
                .unwrap(),
        }
    }
}

/// A home with one skill in Claude Code's folder, a project, and skillscope's own folders.
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
        for d in ["config", "cache", "project/.git"] {
            std::fs::create_dir_all(tmp.path().join(d)).unwrap();
        }
        World { tmp }
    }

    fn at(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }

    /// Runs the binary with at most 4 GiB of address space (a read that never ends fails
    /// instead of taking the machine's memory); kills it and fails after 30 s (a hang guard
    /// only: nothing here may make it wait at all).
    fn run(&self, args: &[&str]) -> Output {
        let base = self.tmp.path();
        let child = Command::new("sh")
            .arg("-c")
            .arg("ulimit -v 4194304 && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_skillscope"))
            .args(args)
            .current_dir(base.join("project"))
            .env("HOME", base.join("home"))
            .env("SKILLSCOPE_CONFIG_DIR", base.join("config"))
            .env("SKILLSCOPE_CACHE_DIR", base.join("cache"))
            .env("SKILLSCOPE_MANAGED_DIR", "/nonexistent/skillscope-managed")
            .env("NO_COLOR", "1")
            .env_remove("SKILLSCOPE_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        crate::common::wait_guarded(child, 30, &format!("`skillscope {}`", args.join(" ")))
    }
}

/// A settings file, and the agent whose commands read it (`None`: every command does).
struct File {
    rel: &'static str,
    agent: Option<&'static str>,
}

const FILES: [File; 6] = [
    File {
        rel: "home/.openclaw/openclaw.json",
        agent: None,
    },
    File {
        rel: "config/config.toml",
        agent: None,
    },
    File {
        rel: "home/.claude/settings.json",
        agent: Some("claude-code"),
    },
    File {
        rel: "home/.codex/config.toml",
        agent: Some("codex"),
    },
    File {
        rel: "home/.config/opencode/opencode.json",
        agent: Some("opencode"),
    },
    File {
        rel: "home/.gemini/settings.json",
        agent: Some("gemini"),
    },
];

/// Runs every command that concerns `file` with `kind` planted there: those that read it name
/// it and say what it is, the others (another agent in view) say nothing of it; all of them
/// finish and exit with a code of their own.
fn sweep(kind: Kind, file: &File) {
    let in_view = file.agent.unwrap_or("claude-code");
    // Another agent, whose view reads nothing of this agent's settings.
    let other = if in_view == "codex" {
        "claude-code"
    } else {
        "codex"
    };
    let mut commands: Vec<(Vec<&str>, bool)> = vec![
        (vec!["list", "--agent", in_view], true),
        (vec!["budget", "--agent", in_view], true),
        (vec!["prompt", "--agent", in_view], true),
        (vec!["list", "--agent", other], file.agent.is_none()),
    ];
    if file.agent.is_none() {
        commands.push((vec!["list"], true));
        commands.push((vec!["check"], true));
        commands.push((vec!["prompt"], true));
    }
    for (args, reads) in commands {
        let w = World::new();
        let path = w.at(file.rel);
        kind.plant(&path);
        let out = w.run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        let what = format!("`{}` with {kind:?} at {}", args.join(" "), file.rel);
        assert!(
            out.status.code().is_some(),
            "{what}: ended by a signal ({:?}): {err}",
            out.status
        );
        let named = err.contains(&path.display().to_string());
        if reads {
            assert!(named && err.contains(kind.said()), "{what}: {err}");
        } else {
            assert!(!named, "{what}: another agent's settings were read: {err}");
        }
    }
}

#[test]
fn a_fifo_at_any_agents_settings_is_named_at_once_by_each_command_that_reads_it() {
    for file in &FILES {
        sweep(Kind::Fifo, file);
    }
}

#[test]
fn a_link_to_dev_zero_at_any_agents_settings_is_refused_without_reading_it() {
    for file in &FILES {
        sweep(Kind::DevZero, file);
    }
}

#[test]
fn a_settings_file_past_the_cap_is_refused_without_reading_it() {
    for file in &FILES {
        sweep(Kind::Huge, file);
    }
}

/// The commands still work around the file they cannot read: OpenClaw's workspace falls back to
/// its default, and the skill is listed.
#[test]
fn a_hostile_openclaw_config_leaves_the_library_whole() {
    let w = World::new();
    Kind::Fifo.plant(&w.at("home/.openclaw/openclaw.json"));
    let out = w.run(&["list", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v.as_array().unwrap().iter().any(|s| s["name"] == "pdf"),
        "{v:#}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("OpenClaw's workspace is taken as"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every read of a file in the source goes through the one bounded reader of settings files
/// (`fsx::read_settings`, or `fsx::read_capped` with a cap of its own), or is one of these: reads
/// of a skill's own files, of caches with checks of their own, of the kernel's `/proc`, or of a
/// file the user names on the command line. A new reader of an agent's settings, a config or a
/// lock file that bypasses the bounded reader fails here until it uses it.
#[test]
fn no_settings_reader_bypasses_the_bounded_reader() {
    // (file, what the line holds): why it may read otherwise.
    const ALLOWED: &[(&str, &str)] = &[
        // A skill's SKILL.md and resources: capped and streamed by their own readers.
        (
            "src/core/front/inject.rs",
            "read_regular(&lib.skills[i].skill_md)",
        ),
        (
            "src/core/agents/codex/mention.rs",
            "read_regular(&s.skill_md)",
        ),
        ("src/core/library.rs", "open_regular(path)"),
        ("src/core/library.rs", "read_regular(path)"),
        ("src/core/library.rs", "open_regular(&skill.skill_md)"),
        ("src/core/library.rs", "read_regular(&skill.skill_md)"),
        ("src/core/scan/read.rs", "open_regular(path)"),
        ("src/core/resource.rs", "open_regular(path)"),
        ("src/core/tokens/mod.rs", "open_regular(path)"),
        (
            "src/core/agents/reading.rs",
            "read_regular(&skill.skill_md)",
        ),
        ("src/core/agents/tools.rs", "read_regular(&skill.skill_md)"),
        ("src/core/agents/lazy.rs", "read_regular(file)"),
        // OpenClaw's `read` of a SKILL.md: regular files only, capped (it sat below a test
        // module in agents/loading.rs, where this scan stopped before it).
        (
            "src/core/agents/openclaw/loading.rs",
            "read_regular_up_to(&skill.skill_md, 64 << 20)",
        ),
        (
            "src/core/agents/codex/reading.rs",
            "read_regular_up_to(&s.dir.join(POLICY_FILE)",
        ),
        ("src/core/installers/hash.rs", "open_regular(path)"),
        ("src/core/probe/store.rs", "read_regular(path)"),
        ("src/core/probe/scripts.rs", "fs::read(path)"),
        ("src/core/probe/interpreter.rs", "File::open(path)"),
        ("src/core/manage/tree.rs", "File::open(&e.path)"),
        ("src/core/manage/tree.rs", "File::open(path)"),
        ("src/core/manage/tree.rs", "fs::read(p)"),
        ("src/core/manage/archive.rs", "open_regular_up_to(archive"),
        // skillscope's caches: the index and token cache, capped, checksummed and rebuilt.
        (
            "src/core/index/mod.rs",
            "open_regular_up_to(path, MAX_INDEX_BYTES)",
        ),
        (
            "src/core/tokens/cache.rs",
            "read_regular_up_to(path, MAX_FILE_BYTES)",
        ),
        ("src/core/verify/store.rs", "read_regular(&path)"),
        // The bundled demo, unpacked by skillscope itself.
        ("src/core/front/load.rs", "fs::read(&p)"),
        // A folder opened to sync it, never read.
        ("src/core/files/paths.rs", "File::open(&dir)"),
        // The kernel's own files.
        ("src/core/probe/sandbox/namespaces.rs", "/proc/"),
        ("src/core/probe/sandbox/inside.rs", "/proc/self/mountinfo"),
        ("src/core/probe/sandbox/inside.rs", "File::open(&p)"),
        // The model a client's settings name: the same bounded opener (regular files only, never
        // waiting), with its own cap; a larger file is a note.
        (
            "src/core/agents/configured.rs",
            "read_regular_up_to(path, MAX_SETTINGS_BYTES)",
        ),
        // A wrapper script in front of a client, read (regular files only, capped) for the
        // programs it names.
        (
            "src/core/verify/run.rs",
            "read_regular_up_to(real, WRAPPER_CAP)",
        ),
        // A SKILL.md being fixed: regular files only, streamed through, never held whole.
        (
            "src/core/files/head_edit.rs",
            "open_regular_up_to(path, u64::MAX)",
        ),
        (
            "src/core/files/head_edit.rs",
            "open_regular_up_to(&target, u64::MAX)",
        ),
        // A folder opened to sync it, never read.
        ("src/core/files/head_edit.rs", "File::open(&dir)"),
        // A skill's own SKILL.md, read only up to its body for the frontmatter's lines.
        ("src/core/rules/lazy.rs", "open_regular(&skill.skill_md)"),
        // A skill's resource on Windows: opened by its real path, then checked to be a regular
        // file that path still names inside the skill.
        ("src/core/resource.rs", "File::open(real)"),
        // The sentence model's weights: a file the user names to `model install` (checked to be
        // a file, its size and SHA-256), and the copy skillscope installed in its data folder.
        ("src/core/matching/weights.rs", "File::open(file)"),
        ("src/core/matching/weights.rs", "File::open(&path)"),
        ("src/core/matching/sentence.rs", "fs::read(&path)"),
        // Files the user names on the command line.
        ("src/cli/eval.rs", "read_to_string(&args.file)"),
        ("src/cli/budget/baseline.rs", "read_to_string(file)"),
    ];
    let readers = [
        "fs::read_to_string(",
        "fs::read(",
        "File::open(",
        "read_regular(",
        "read_regular_up_to(",
        "open_regular(",
        "open_regular_up_to(",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack = vec![root.join("src")];
    let mut found = Vec::new();
    let mut seen = 0;
    let mut used = vec![false; ALLOWED.len()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            // The reader itself, and the unit tests' own files.
            if !name.ends_with(".rs") || name == "tests.rs" || name == "proptests.rs" {
                continue;
            }
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            if rel == "src/core/files/fsx.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for (n, line) in text.lines().enumerate() {
                // The unit tests at the end of a file read what they like.
                if line.starts_with("#[cfg(test)]") || line.starts_with("#[cfg(all(test") {
                    break;
                }
                let code = line.trim_start();
                if code.starts_with("//") || code.contains("pub fn ") {
                    continue;
                }
                if !readers.iter().any(|r| code.contains(r)) {
                    continue;
                }
                seen += 1;
                match ALLOWED
                    .iter()
                    .position(|(file, what)| *file == rel && code.contains(what))
                {
                    Some(k) => used[k] = true,
                    None => found.push(format!("{rel}:{}: {code}", n + 1)),
                }
            }
        }
    }
    // The scan sees the reads it lets through: it is looking at the source, and every read it
    // lets through is still there.
    let unused: Vec<_> = ALLOWED
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(a, _)| a)
        .collect();
    assert!(
        seen >= ALLOWED.len() && unused.is_empty(),
        "{seen} reads found; allowed but not found: {unused:?}"
    );
    assert!(
        found.is_empty(),
        "files read without the bounded settings reader (fsx::read_settings):\n{}",
        found.join("\n")
    );
}
