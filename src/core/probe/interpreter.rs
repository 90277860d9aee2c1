//! Which program runs a script: its `#!` line read the way Linux reads it, else its extension,
//! else the file itself when it is a compiled executable; and for a skill's entry script the one
//! rule both `--help-json` and `--deps` follow: the skill's own `.venv` first (for a Python entry),
//! by its absolute path, else the `#!` line, else the extension.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};

/// How a script is started: `program args… script`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invocation {
    pub program: PathBuf,
    /// Arguments that go between the program and the script (from the `#!` line).
    pub args: Vec<OsString>,
    /// The program runs the file itself (a compiled executable): the script is not passed again.
    pub direct: bool,
}

/// Why no program was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// What was looked for (`python3`, `/usr/local/bin/node`), or empty when nothing names one.
    pub wanted: String,
    pub why: String,
}

/// The first line of a script, as far as it concerns us.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Head {
    /// The text after `#!`, when the file starts with it.
    pub shebang: Option<String>,
    /// The file is a compiled executable (ELF).
    pub binary: bool,
}

/// Reads the head of a file: at most one line of 256 bytes, as the kernel does.
pub fn read_head(path: &Path) -> std::io::Result<Head> {
    let mut buf = [0u8; 256];
    let mut file = std::fs::File::open(path)?;
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    // A byte-order mark before `#!` hides the line from the kernel, so it is not skipped here.
    let bytes = &buf[..n];
    let shebang = bytes.strip_prefix(b"#!").map(|rest| {
        let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
        String::from_utf8_lossy(line)
            .trim_end_matches('\r')
            .to_string()
    });
    Ok(Head {
        shebang,
        binary: bytes.starts_with(b"\x7FELF"),
    })
}

/// The interpreter agents use for a script without a `#!` line, by extension.
pub fn by_extension(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" => "python3",
        "sh" => "sh",
        "bash" => "bash",
        "zsh" => "zsh",
        "js" | "mjs" | "cjs" => "node",
        "rb" => "ruby",
        "pl" => "perl",
        "php" => "php",
        "lua" => "lua",
        "r" => "Rscript",
        _ => return None,
    })
}

/// The skill's own interpreter, where the Lazy Skills design looks for it (design 000,
/// "per-skill venvs": `script_path.parent / ".venv" / "bin" / "python"`).
pub const VENV_PYTHON: &str = ".venv/bin/python";

/// How a skill's entry script runs, and why that program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub invocation: Invocation,
    /// Where the program came from, in words ("the skill's .venv", …).
    pub from: &'static str,
}

/// The skill's `.venv` interpreter when it has one, by absolute path: a probe runs with the
/// skill folder as its working directory, where a relative path would name something else.
pub fn venv_python(dir: &Path) -> Option<PathBuf> {
    let dir = std::path::absolute(dir).ok()?;
    let p = dir.join(VENV_PYTHON);
    is_executable(&p).then_some(p)
}

/// The folders whose programs a skill's own files (its `.venv`, a `#!` line naming a path) may
/// choose: the system's programs and libraries, visible in every sandbox.
pub const SYSTEM_PROGRAMS: [&str; 8] = [
    "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr", "/nix",
];

/// Whether the program chosen for the skill in `dir` may run: its real path (every link
/// resolved, not its text) lies in [`SYSTEM_PROGRAMS`] or inside the skill's folder, or it was
/// found on the user's PATH (`path_var`: the user's environment chose it, not the skill). A
/// `.venv` whose `python` leads into a home folder, skillscope's cache or another user's files
/// is refused: nothing a skill writes chooses what the sandbox reveals.
pub fn vet(program: &Path, dir: &Path, path_var: &OsStr) -> Result<(), Missing> {
    let on_path = program.parent().is_some_and(|parent| {
        std::env::split_paths(path_var).any(|d| !d.as_os_str().is_empty() && d == parent)
    });
    if on_path {
        return Ok(());
    }
    let refused = |why: String| Missing {
        wanted: program.to_string_lossy().into_owned(),
        why,
    };
    let real = std::fs::canonicalize(program)
        .map_err(|e| refused(format!("`{}` cannot be resolved: {e}", program.display())))?;
    let folder = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if real.starts_with(&folder) || SYSTEM_PROGRAMS.iter().any(|s| real.starts_with(s)) {
        return Ok(());
    }
    Err(refused(format!(
        "`{}` leads to `{}`, outside the system folders and the skill: a skill's own files never choose what the sandbox reveals (make its .venv with a system Python, e.g. `/usr/bin/python3 -m venv .venv`, or name a program on PATH with `#!/usr/bin/env`)",
        program.display(),
        real.display()
    )))
}

/// [`choose_unvetted`], refused unless [`vet`] allows the program.
pub fn choose(
    dir: &Path,
    entry: Option<(&Path, &Head)>,
    path_var: &OsStr,
) -> Result<Chosen, Missing> {
    let chosen = choose_unvetted(dir, entry, path_var)?;
    vet(&chosen.invocation.program, dir, path_var)?;
    Ok(chosen)
}

/// The one rule for a skill's interpreter. With an entry script (`entry` and its head): a Python
/// entry (its `#!` line names Python, or it has none and ends in `.py`) runs with the skill's
/// `.venv` when there is one, keeping the `#!` line's arguments; anything else as its `#!` line or
/// extension says. Without one (a skill that declares dependencies but runs nothing): the
/// `.venv`, else `python3` on PATH.
fn choose_unvetted(
    dir: &Path,
    entry: Option<(&Path, &Head)>,
    path_var: &OsStr,
) -> Result<Chosen, Missing> {
    let venv = venv_python(dir);
    let Some((script, head)) = entry else {
        if let Some(program) = venv {
            return Ok(Chosen {
                invocation: Invocation {
                    program,
                    args: Vec::new(),
                    direct: false,
                },
                from: "the skill's .venv",
            });
        }
        return which("python3", path_var)
            .map(|program| Chosen {
                invocation: Invocation {
                    program,
                    args: Vec::new(),
                    direct: false,
                },
                from: "python3 on PATH (no .venv, no entry script)",
            })
            .ok_or_else(|| Missing {
                wanted: "python3".to_string(),
                why: "no .venv in the skill and no python3 on PATH".to_string(),
            });
    };
    let line = head.shebang.as_deref().map(parse_shebang).transpose()?;
    let python = match &line {
        Some(l) => is_python(Path::new(&l.program)),
        None => by_extension(script) == Some("python3"),
    };
    if python && let Some(program) = venv {
        return Ok(Chosen {
            invocation: Invocation {
                program,
                args: line.map(|l| l.args).unwrap_or_default(),
                direct: false,
            },
            from: "the skill's .venv",
        });
    }
    let from = if head.shebang.is_some() {
        "the entry script's #! line"
    } else if by_extension(script).is_some() {
        "the entry script's extension"
    } else {
        "the entry script itself (compiled)"
    };
    resolve(script, head, path_var).map(|invocation| Chosen { invocation, from })
}

/// Whether a program is a Python interpreter, by its name.
pub fn is_python(program: &Path) -> bool {
    program
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("python") || n == "pypy3" || n == "pypy")
}

/// Finds how to run `script` with the programs on `path_var`.
pub fn resolve(script: &Path, head: &Head, path_var: &OsStr) -> Result<Invocation, Missing> {
    if let Some(line) = &head.shebang {
        return from_shebang(line, path_var);
    }
    if let Some(name) = by_extension(script) {
        return match which(name, path_var) {
            Some(program) => Ok(Invocation {
                program,
                args: Vec::new(),
                direct: false,
            }),
            None => Err(Missing {
                wanted: name.to_string(),
                why: format!("`{name}` (chosen by the file extension) is not on PATH"),
            }),
        };
    }
    if head.binary && is_executable(script) {
        return Ok(Invocation {
            program: script.to_path_buf(),
            args: Vec::new(),
            direct: true,
        });
    }
    Err(Missing {
        wanted: String::new(),
        why: "no `#!` line and no known extension: add a line such as `#!/usr/bin/env python3`"
            .to_string(),
    })
}

/// What a `#!` line names, before anything is looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shebang {
    /// The interpreter as written (`/bin/sh`), or the program `env` is to find (`python3`).
    program: String,
    /// Found on PATH by `env`, rather than named by its path.
    on_path: bool,
    args: Vec<OsString>,
}

/// Reads a `#!` line the way Linux does: the interpreter path, then at most one argument holding
/// the rest of the line. `env` stands for the program it names (`-S` splits its arguments).
fn parse_shebang(line: &str) -> Result<Shebang, Missing> {
    let line = line.trim_start_matches([' ', '\t']);
    let (interp, rest) = match line.find([' ', '\t']) {
        Some(i) => (&line[..i], line[i..].trim_matches([' ', '\t'])),
        None => (line, ""),
    };
    if interp.is_empty() {
        return Err(Missing {
            wanted: String::new(),
            why: "the `#!` line names no interpreter".to_string(),
        });
    }
    let is_env = Path::new(interp).file_name() == Some(OsStr::new("env"));
    if !is_env {
        let args = if rest.is_empty() {
            Vec::new()
        } else {
            vec![OsString::from(rest)]
        };
        return Ok(Shebang {
            program: interp.to_string(),
            on_path: false,
            args,
        });
    }
    // `env` without -S receives the rest of the line as one word, so `env python3 -u` looks for
    // a program literally named "python3 -u", as it does on Linux.
    let words: Vec<&str> = match rest.strip_prefix("-S") {
        Some(split) => split.split_whitespace().collect(),
        None if rest.is_empty() => Vec::new(),
        None => vec![rest],
    };
    let mut words = words
        .into_iter()
        .skip_while(|w| w.starts_with('-') || (w.contains('=') && !w.starts_with('/')));
    let Some(name) = words.next() else {
        return Err(Missing {
            wanted: "env".to_string(),
            why: "the `#!/usr/bin/env` line names no program".to_string(),
        });
    };
    Ok(Shebang {
        program: name.to_string(),
        on_path: true,
        args: words.map(OsString::from).collect(),
    })
}

/// Finds the program a `#!` line names.
fn from_shebang(line: &str, path_var: &OsStr) -> Result<Invocation, Missing> {
    let Shebang {
        program: name,
        on_path,
        args,
    } = parse_shebang(line)?;
    let program = if on_path {
        which(&name, path_var).ok_or_else(|| Missing {
            wanted: name.clone(),
            why: format!("`{name}` (from the `#!` line) is not on PATH"),
        })?
    } else {
        locate(&name, path_var).ok_or_else(|| Missing {
            wanted: name.clone(),
            why: format!("`{name}` (from the `#!` line) does not exist or cannot be run"),
        })?
    };
    Ok(Invocation {
        program,
        args,
        direct: false,
    })
}

fn locate(program: &str, path_var: &OsStr) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.is_absolute() {
        is_executable(p).then(|| p.to_path_buf())
    } else {
        which(program, path_var)
    }
}

/// The first executable file called `name` in the folders of `path_var`.
pub fn which(name: &str, path_var: &OsStr) -> Option<PathBuf> {
    if name.is_empty() || name.contains('/') {
        return locate_absolute(name);
    }
    std::env::split_paths(path_var)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn locate_absolute(name: &str) -> Option<PathBuf> {
    let p = Path::new(name);
    (p.is_absolute() && is_executable(p)).then(|| p.to_path_buf())
}

/// A regular file with at least one execute bit (on Windows, which has none: a program file,
/// `.exe`, `.com`, `.bat` or `.cmd`).
pub fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path)
        .is_ok_and(|m| m.is_file() && crate::core::files::fsx::runnable(path, &m))
}

/// The PATH given to probed programs: the caller's own, or a conventional one when unset.
pub fn search_path() -> OsString {
    std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shebang(line: &str) -> Result<Invocation, Missing> {
        let head = Head {
            shebang: Some(line.to_string()),
            binary: false,
        };
        resolve(Path::new("x"), &head, &search_path())
    }

    #[test]
    fn env_line_finds_the_program_on_path() {
        let inv = shebang("/usr/bin/env sh").unwrap();
        assert_eq!(inv.program.file_name().unwrap(), "sh");
        assert!(inv.program.is_absolute());
        assert!(inv.args.is_empty());
    }

    #[test]
    fn env_dash_s_splits_arguments() {
        let inv = shebang("/usr/bin/env -S sh -e -u").unwrap();
        assert_eq!(inv.program.file_name().unwrap(), "sh");
        assert_eq!(inv.args, vec![OsString::from("-e"), OsString::from("-u")]);
    }

    #[test]
    fn env_without_dash_s_takes_the_rest_as_one_name_like_linux() {
        let err = shebang("/usr/bin/env sh -e").unwrap_err();
        assert_eq!(err.wanted, "sh -e");
    }

    #[test]
    fn absolute_interpreter_keeps_its_single_argument() {
        let inv = shebang(" /bin/sh -e -x").unwrap();
        assert_eq!(inv.program, PathBuf::from("/bin/sh"));
        assert_eq!(inv.args, vec![OsString::from("-e -x")]);
    }

    #[test]
    fn missing_interpreters_are_named() {
        assert_eq!(
            shebang("/nonexistent/python9").unwrap_err().wanted,
            "/nonexistent/python9"
        );
        assert_eq!(
            shebang("/usr/bin/env no-such-program-here")
                .unwrap_err()
                .wanted,
            "no-such-program-here"
        );
        assert_eq!(shebang("").unwrap_err().wanted, "");
    }

    #[test]
    fn extension_picks_the_interpreter_when_there_is_no_shebang() {
        let inv = resolve(Path::new("a/run.sh"), &Head::default(), &search_path()).unwrap();
        assert_eq!(inv.program.file_name().unwrap(), "sh");
        let err = resolve(Path::new("a/run.sh"), &Head::default(), OsStr::new("")).unwrap_err();
        assert_eq!(err.wanted, "sh");
        let err = resolve(Path::new("a/run"), &Head::default(), &search_path()).unwrap_err();
        assert!(err.why.contains("#!"), "{}", err.why);
    }

    #[cfg(unix)]
    fn venv_skill() -> tempfile::TempDir {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let bin = t.path().join(".venv/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("python"), "").unwrap();
        std::fs::set_permissions(bin.join("python"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        t
    }

    fn head(line: Option<&str>) -> Head {
        Head {
            shebang: line.map(str::to_string),
            binary: false,
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_python_entry_runs_with_the_skills_venv_by_absolute_path() {
        let t = venv_skill();
        let venv = t.path().join(".venv/bin/python");
        for (script, line) in [
            ("execute.py", None),
            ("execute.py", Some("/usr/bin/env python3")),
            ("run", Some("/usr/bin/python3")),
        ] {
            let c = choose(
                t.path(),
                Some((&t.path().join(script), &head(line))),
                OsStr::new(""),
            )
            .unwrap();
            assert_eq!(c.invocation.program, venv, "{script} {line:?}");
            assert_eq!(c.from, "the skill's .venv");
        }
        // The `#!` line's arguments stay; PATH is not needed.
        let c = choose(
            t.path(),
            Some((
                &t.path().join("x"),
                &head(Some("/usr/bin/env -S python3 -u")),
            )),
            OsStr::new(""),
        )
        .unwrap();
        assert_eq!(c.invocation.args, vec![OsString::from("-u")]);
        // Not Python: the `#!` line or the extension decides, venv or not.
        let c = choose(
            t.path(),
            Some((&t.path().join("run.sh"), &head(None))),
            &search_path(),
        )
        .unwrap();
        assert_eq!(c.invocation.program.file_name().unwrap(), "sh");
        assert_eq!(c.from, "the entry script's extension");
        // No entry script: the venv.
        assert_eq!(
            choose(t.path(), None, OsStr::new(""))
                .unwrap()
                .invocation
                .program,
            venv
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_relative_skill_folder_still_gives_an_absolute_venv() {
        let t = venv_skill();
        let cwd = std::env::current_dir().unwrap();
        let rel = pathdiff(t.path(), &cwd);
        assert!(rel.is_relative());
        let p = venv_python(&rel).unwrap();
        assert!(p.is_absolute(), "{}", p.display());
        assert!(is_executable(&p));
    }

    /// `target` as a path relative to `base` (both absolute).
    #[cfg(unix)]
    fn pathdiff(target: &Path, base: &Path) -> PathBuf {
        let t: Vec<_> = target.components().collect();
        let b: Vec<_> = base.components().collect();
        let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
        let mut out = PathBuf::new();
        for _ in common..b.len() {
            out.push("..");
        }
        for c in &t[common..] {
            out.push(c);
        }
        out
    }

    #[test]
    fn without_a_venv_the_shebang_then_the_extension() {
        let t = tempfile::tempdir().unwrap();
        let c = choose(
            t.path(),
            Some((&t.path().join("execute.py"), &head(Some("/bin/sh")))),
            &search_path(),
        )
        .unwrap();
        assert_eq!(c.invocation.program, PathBuf::from("/bin/sh"));
        assert_eq!(c.from, "the entry script's #! line");
        let e = choose(
            t.path(),
            Some((&t.path().join("execute.py"), &head(None))),
            OsStr::new(""),
        )
        .unwrap_err();
        assert_eq!(e.wanted, "python3");
    }

    #[test]
    fn head_reads_the_first_line_only() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s");
        std::fs::write(&p, "#!/bin/sh -e\r\necho hi\n").unwrap();
        let h = read_head(&p).unwrap();
        assert_eq!(h.shebang.as_deref(), Some("/bin/sh -e"));
        assert!(!h.binary);
        std::fs::write(&p, "\u{feff}#!/bin/sh\n").unwrap();
        assert_eq!(read_head(&p).unwrap().shebang, None);
    }
}
