//! The macOS backend: the command runs under `sandbox-exec` with a Seatbelt profile of
//! skillscope's own, in a session and process group of its own with resource limits, and the
//! group is killed at the end.
//!
//! The profile is made by [`profile`], a pure function of what the run may read, where it may
//! write and which loopback port it may reach, so that its text is tested on every system. Paths
//! never enter the profile's text: each is a parameter (`-D READ_0=/path`) that the profile names
//! with `(param "READ_0")`, so a folder called `a") (allow default` is a path like any other.

// The profile is made and tested everywhere, and run only on macOS.
#![cfg_attr(not(target_os = "macos"), allow(dead_code))]

use std::ffi::OsString;
use std::path::PathBuf;

/// The program that applies a profile and runs the command under it.
pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// The system's own folders a command may read: programs, libraries, frameworks, the dynamic
/// loader's cache, settings, time zones, and the places interpreters are installed (Homebrew,
/// Nix, the command line tools, python.org's frameworks). The real paths: Seatbelt compares the
/// path a lookup resolved to (`/etc` is `/private/etc`).
pub const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/System",
    "/Library/Frameworks",
    "/Library/Developer/CommandLineTools",
    "/Applications/Xcode.app/Contents/Developer",
    "/opt/homebrew",
    "/nix",
    "/private/etc",
    "/private/var/db/dyld",
    "/private/var/db/timezone",
    "/private/var/select",
];

/// What one run may do beyond the system's reads.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Folders and files it may read (not write): the skill folder, the program, the
    /// installation a program found on the user's PATH belongs to.
    pub readable: Vec<PathBuf>,
    /// Its private folder (`HOME` and `TMPDIR`): the one place it may write.
    pub private: PathBuf,
    /// The loopback port it may connect to (`verify`'s mock); none for a probe.
    pub port: Option<u16>,
    /// The mock runs inside the sandbox too (`verify`'s stage): it may listen on that port,
    /// on the loopback only.
    pub serve: bool,
}

/// A profile's text and the values of the parameters it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub text: String,
    /// `(name, path)`, passed as `-D name=path`.
    pub params: Vec<(String, PathBuf)>,
}

impl Profile {
    /// `sandbox-exec`'s arguments before the command: the profile and its parameters.
    pub fn args(&self) -> Vec<OsString> {
        let mut out: Vec<OsString> = vec!["-p".into(), self.text.clone().into()];
        for (name, path) in &self.params {
            let mut kv = OsString::from(format!("{name}="));
            kv.push(path.as_os_str());
            out.push("-D".into());
            out.push(kv);
        }
        out
    }
}

/// The terminals, refused whatever else allows them: the controlling terminal's alias, the
/// pseudo-terminals and their multiplexer, the consoles.
const TERMINALS: &str = r#"(literal "/dev/tty") (regex #"^/dev/ttys") (regex #"^/dev/tty[p-w]") (regex #"^/dev/pty") (literal "/dev/ptmx") (literal "/dev/console")"#;

/// The profile for `policy`. Each rule is preceded by a comment saying what it is for; a later
/// rule overrides an earlier one, so the refusals that must hold whatever else is allowed come
/// last.
pub fn profile(policy: &Policy) -> Profile {
    let mut params: Vec<(String, PathBuf)> = Vec::new();
    let mut text = String::from("(version 1)\n");
    let mut rule = |why: &str, body: &str| {
        text.push_str("; ");
        text.push_str(why);
        text.push('\n');
        text.push_str(body);
        text.push('\n');
    };
    rule("Everything not allowed below is refused.", "(deny default)");
    rule(
        "It may start programs (its interpreter and what that runs); they stay under this profile.",
        "(allow process-exec process-fork)",
    );
    rule(
        "Signals and process information only within this sandbox: nothing of skillscope or \
         the user's other programs.",
        "(allow signal process-info* (target same-sandbox))",
    );
    rule(
        "Kernel settings interpreters read when they start (CPU count, page size).",
        "(allow sysctl-read)",
    );
    rule(
        "Whether a path exists and its size and dates, so that lookups through folders work; \
         not what files hold or what folders list.",
        "(allow file-read-metadata)",
    );
    let system: String = SYSTEM_READ
        .iter()
        .map(|p| format!(" (subpath \"{p}\")"))
        .collect();
    rule(
        "The system's programs, libraries, frameworks and settings: read and map as code.",
        &format!("(allow file-read* file-map-executable{system})"),
    );
    if !policy.readable.is_empty() {
        let mut names = String::new();
        for (i, path) in policy.readable.iter().enumerate() {
            let name = format!("READ_{i}");
            names.push_str(&format!(" (subpath (param \"{name}\"))"));
            params.push((name, path.clone()));
        }
        rule(
            "The skill's folder, the program and its installation: read, never written.",
            &format!("(allow file-read* file-map-executable{names})"),
        );
    }
    params.push(("PRIVATE".to_string(), policy.private.clone()));
    rule(
        "Its private folder (HOME and TMPDIR): the only place it may write.",
        "(allow file-read* file-write* (subpath (param \"PRIVATE\")))",
    );
    rule(
        "The null device, written and read; the zero and random devices, read.",
        "(allow file-read* file-write-data (literal \"/dev/null\"))\n\
         (allow file-read* (literal \"/dev/zero\") (literal \"/dev/random\") (literal \"/dev/urandom\"))",
    );
    rule(
        "User and group names (getpwuid), which interpreters look up when they start.",
        "(allow mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))",
    );
    if let Some(port) = policy.port {
        rule(
            "The mock on the loopback port: the only network it may reach.",
            &format!("(allow network-outbound (remote ip \"localhost:{port}\"))"),
        );
        if policy.serve {
            rule(
                "The mock itself, run by the sandbox's first program: it listens on that \
                 loopback port and on nothing else.",
                &format!("(allow network-bind network-inbound (local ip \"localhost:{port}\"))"),
            );
        }
    }
    rule(
        "No terminal: not the controlling one, no pseudo-terminal, no console; none is opened \
         or made.",
        &format!("(deny file-read* file-write* file-ioctl {TERMINALS})\n(deny pseudo-tty)"),
    );
    Profile { text, params }
}

#[cfg(target_os = "macos")]
pub(super) use run::{run, run_isolated, stage};

#[cfg(target_os = "macos")]
mod run {
    use super::super::spec::{Isolated, Mode, Outcome, RunSpec, STAGE_ARG};
    use super::{Policy, SANDBOX_EXEC, profile};
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    use std::ffi::OsString;
    use std::os::unix::process::CommandExt;
    use std::path::Path;
    use std::process::Command;
    use std::sync::atomic::AtomicBool;

    /// Largest file the command may write (64 MiB).
    const FILE_SIZE_LIMIT: u64 = 64 << 20;

    /// Runs the command under its profile through the `seatbelt` stage of `stage` (the
    /// skillscope binary), which leaves the terminal's session and sets the limits first.
    pub(in super::super) fn run(
        spec: &RunSpec,
        stage: &Path,
        cancel: Option<&AtomicBool>,
    ) -> std::io::Result<Outcome> {
        // A program that cannot start is the caller's error, as with a direct spawn.
        std::fs::metadata(&spec.program)?;
        let private = tempfile::Builder::new()
            .prefix("skillscope-probe-")
            .tempdir()?;
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let home = dirs::home_dir();
        let mut readable: Vec<_> = super::super::reveal::revealed(spec, home.as_deref())
            .iter()
            .map(|p| real(p))
            .collect();
        readable.sort();
        readable.dedup();
        let policy = Policy {
            readable,
            private: real(private.path()),
            port: None,
            serve: false,
        };
        let cpu = spec.timeout.as_secs().saturating_add(1);
        let mut cmd = Command::new(stage);
        cmd.arg(STAGE_ARG)
            .arg("seatbelt")
            .arg(cpu.to_string())
            .arg(SANDBOX_EXEC)
            .args(profile(&policy).args())
            .arg(&spec.program);
        let mut out = super::super::group::run_in(cmd, spec, (private.path(), &[]), cancel)?;
        out.mode = Mode::Seatbelt;
        Ok(out)
    }

    /// An isolated run (`verify`'s stage with its mock and the client) under the profile: a
    /// private home of copies ([`private_home`](super::super::private_home)) that `HOME`,
    /// `TMPDIR` and the XDG variables name, what is revealed outside the home read in place,
    /// the loopback port the mock listens on and the client reaches, and nothing else.
    pub(in super::super) fn run_isolated(
        spec: &RunSpec,
        isolated: &Isolated,
        stage: &Path,
        cancel: Option<&AtomicBool>,
    ) -> std::io::Result<Outcome> {
        use super::super::private_home;
        std::fs::metadata(&spec.program)?;
        let private = tempfile::Builder::new()
            .prefix("skillscope-verify-")
            .tempdir()?;
        let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let top = real(private.path());
        let plan = private_home::plan(isolated, &top.join("home"));
        private_home::make(&plan)?;
        let mut readable: Vec<_> = plan.readable.iter().map(|p| real(p)).collect();
        readable.push(real(&spec.program));
        readable.push(real(&spec.cwd));
        readable.sort();
        readable.dedup();
        let policy = Policy {
            readable,
            private: top,
            port: Some(isolated.port),
            serve: true,
        };
        // The run's own variables, its PATH's folders below the home taken from the copies,
        // then the private home's.
        let mut env: Vec<(OsString, OsString)> = isolated
            .env
            .iter()
            .map(|(k, v)| {
                if k == "PATH" {
                    let dirs = std::env::split_paths(v).map(|d| plan.moved(&isolated.home, &d));
                    (
                        k.clone(),
                        std::env::join_paths(dirs).unwrap_or_else(|_| v.clone()),
                    )
                } else {
                    (k.clone(), v.clone())
                }
            })
            .collect();
        env.extend(plan.env.iter().cloned());
        let cpu = spec.timeout.as_secs().saturating_add(1);
        let mut cmd = Command::new(stage);
        cmd.arg(STAGE_ARG)
            .arg("seatbelt")
            .arg(cpu.to_string())
            .arg(SANDBOX_EXEC)
            .args(profile(&policy).args())
            .arg(&spec.program);
        let mut out = super::super::group::run_in(cmd, spec, (plan.home.as_path(), &env), cancel)?;
        out.mode = Mode::Seatbelt;
        Ok(out)
    }

    /// The `seatbelt` stage: closes inherited descriptors, leaves the terminal's session (a new
    /// session is also the group skillscope kills), sets the limits, then becomes
    /// `sandbox-exec` with the profile and the command (`args`: CPU seconds, then the program
    /// and its arguments). Returns only when that fails: 126 (no sandbox) or 127.
    pub(in super::super) fn stage(args: &[OsString]) -> i32 {
        let Some((cpu, rest)) = args.split_first() else {
            return 2;
        };
        let Some((program, rest)) = rest.split_first() else {
            return 2;
        };
        let cpu: u64 = cpu.to_str().and_then(|c| c.parse().ok()).unwrap_or(11);
        let (soft, _) = getrlimit(Resource::RLIMIT_NOFILE).unwrap_or((1024, 1024));
        for fd in 3..i32::try_from(soft.min(1 << 16)).unwrap_or(1024) {
            let _ = nix::unistd::close(fd);
        }
        if let Err(e) = nix::unistd::setsid() {
            eprintln!("skillscope sandbox: leave the terminal (setsid): {e}");
            return 126;
        }
        let set = |resource: Resource, limit: u64| {
            let (_, hard) = getrlimit(resource)?;
            setrlimit(resource, limit.min(hard), limit.min(hard))
        };
        let limited = set(Resource::RLIMIT_CPU, cpu)
            .and_then(|()| set(Resource::RLIMIT_FSIZE, FILE_SIZE_LIMIT))
            .and_then(|()| set(Resource::RLIMIT_CORE, 0));
        if let Err(e) = limited {
            eprintln!("skillscope sandbox: set the limits: {e}");
            return 126;
        }
        let e = Command::new(program).args(rest).exec();
        eprintln!(
            "skillscope sandbox: cannot start {}: {e}",
            Path::new(program).display()
        );
        127
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(port: Option<u16>) -> Policy {
        Policy {
            readable: vec![
                PathBuf::from("/Users/me/skills/csv-stats"),
                PathBuf::from("/opt/homebrew/Cellar/python@3.12/3.12.4"),
            ],
            private: PathBuf::from("/private/var/folders/x/T/skillscope-probe-1"),
            port,
            serve: false,
        }
    }

    /// The rules of a profile, without its comments.
    fn rules(p: &Profile) -> Vec<&str> {
        p.text
            .lines()
            .filter(|l| !l.starts_with(';') && !l.is_empty())
            .collect()
    }

    #[test]
    fn everything_not_allowed_is_refused() {
        let p = profile(&policy(None));
        assert_eq!(rules(&p)[..2], ["(version 1)", "(deny default)"]);
        assert!(!p.text.contains("(allow default"), "{}", p.text);
    }

    #[test]
    fn every_rule_says_what_it_is_for() {
        let p = profile(&policy(Some(4000)));
        let lines: Vec<&str> = p.text.lines().skip(1).collect();
        for (i, line) in lines.iter().enumerate() {
            if line.starts_with('(') {
                let before = lines[..i]
                    .iter()
                    .rev()
                    .find(|l| !l.starts_with('('))
                    .copied();
                assert!(
                    before.is_some_and(|c| c.starts_with("; ") && c.len() > 20),
                    "{line}"
                );
            }
        }
    }

    #[test]
    fn a_probe_reaches_no_network() {
        let p = profile(&policy(None));
        assert!(!p.text.contains("(allow network"), "{}", p.text);
        assert!(!p.text.contains("network-bind"), "{}", p.text);
        // Unix sockets (other programs' servers) are network-outbound too: refused by default.
        assert!(!p.text.contains("remote unix"), "{}", p.text);
    }

    #[test]
    fn verify_reaches_only_its_loopback_port() {
        let p = profile(&policy(Some(4571)));
        let net: Vec<&str> = rules(&p)
            .into_iter()
            .filter(|r| r.contains("network"))
            .collect();
        assert_eq!(
            net,
            ["(allow network-outbound (remote ip \"localhost:4571\"))"]
        );
    }

    /// `verify` on macOS: the mock runs inside the sandbox with the client, so it may listen on
    /// its loopback port, and only there; the client reaches that port and no other network.
    #[test]
    fn verifys_mock_listens_only_on_its_loopback_port() {
        let p = profile(&Policy {
            serve: true,
            ..policy(Some(4571))
        });
        let net: Vec<&str> = rules(&p)
            .into_iter()
            .filter(|r| r.contains("network"))
            .collect();
        assert_eq!(
            net,
            [
                "(allow network-outbound (remote ip \"localhost:4571\"))",
                "(allow network-bind network-inbound (local ip \"localhost:4571\"))",
            ]
        );
        // A probe serves nothing.
        let probe = profile(&Policy {
            serve: true,
            ..policy(None)
        });
        assert!(!probe.text.contains("network-bind"), "{}", probe.text);
        // Its writes are still the private folder's only.
        assert!(!p.text.contains("(allow file-write* (subpath (param \"READ"));
    }

    #[test]
    fn writes_only_in_the_private_folder() {
        let p = profile(&policy(None));
        let writes: Vec<&str> = rules(&p)
            .into_iter()
            .filter(|r| r.starts_with("(allow") && r.contains("file-write"))
            .collect();
        assert_eq!(
            writes,
            [
                "(allow file-read* file-write* (subpath (param \"PRIVATE\")))",
                "(allow file-read* file-write-data (literal \"/dev/null\"))",
            ]
        );
        assert!(p.params.contains(&(
            "PRIVATE".to_string(),
            PathBuf::from("/private/var/folders/x/T/skillscope-probe-1")
        )));
    }

    #[test]
    fn reads_only_the_system_the_skill_and_its_program() {
        let p = profile(&policy(None));
        let reads: Vec<&str> = rules(&p)
            .into_iter()
            .filter(|r| r.starts_with("(allow file-read*"))
            .collect();
        assert_eq!(reads.len(), 5, "{reads:#?}");
        assert!(
            reads[0].contains("(subpath \"/usr\")") && reads[0].contains("(subpath \"/System\")")
        );
        assert_eq!(
            reads[1],
            "(allow file-read* file-map-executable (subpath (param \"READ_0\")) (subpath (param \"READ_1\")))"
        );
        assert_eq!(
            &p.params[..2],
            &[
                (
                    "READ_0".to_string(),
                    PathBuf::from("/Users/me/skills/csv-stats")
                ),
                (
                    "READ_1".to_string(),
                    PathBuf::from("/opt/homebrew/Cellar/python@3.12/3.12.4")
                ),
            ]
        );
        // The home folder, the users' folders and the rest of /private/var are not among them.
        for hidden in ["/Users", "/private/var/folders", "/Volumes", "/private/tmp"] {
            assert!(!p.text.contains(&format!("\"{hidden}")), "{hidden}");
        }
        // Everywhere else only a path's metadata.
        assert!(rules(&p).contains(&"(allow file-read-metadata)"));
    }

    #[test]
    fn no_terminal_is_opened_or_made() {
        let p = profile(&policy(Some(1)));
        let last: Vec<&str> = rules(&p).into_iter().rev().take(2).collect();
        assert_eq!(last[0], "(deny pseudo-tty)");
        for t in [
            "\"/dev/tty\"",
            "^/dev/ttys",
            "\"/dev/ptmx\"",
            "\"/dev/console\"",
        ] {
            assert!(last[1].contains(t), "{t}");
        }
        assert!(last[1].starts_with("(deny file-read* file-write* file-ioctl"));
    }

    #[test]
    fn signals_reach_only_its_own_processes() {
        let p = profile(&policy(None));
        assert!(rules(&p).contains(&"(allow signal process-info* (target same-sandbox))"));
        assert!(!p.text.contains("(allow signal)"));
    }

    #[test]
    fn hostile_paths_stay_parameters() {
        let evil = PathBuf::from("/Users/me/a\") (allow default) (\"\n; x");
        let p = profile(&Policy {
            readable: vec![evil.clone()],
            private: PathBuf::from("/tmp/\")(allow file-write* (subpath \"/\"))"),
            port: None,
            serve: false,
        });
        assert!(!p.text.contains("allow default"), "{}", p.text);
        assert!(!p.text.contains("(subpath \"/\")"), "{}", p.text);
        assert_eq!(p.params[0], ("READ_0".to_string(), evil.clone()));
        let args = p.args();
        assert_eq!(args[0], "-p");
        let mut expected = OsString::from("READ_0=");
        expected.push(evil.as_os_str());
        assert!(args.contains(&expected));
    }
}
