//! Runs one untrusted command in the strongest sandbox the system allows — fresh namespaces on
//! Linux, a Seatbelt profile on macOS, else its own process group — with a minimal environment,
//! capped output, and a deadline after which everything it started is killed and reaped. Where
//! skillscope has no sandbox (Windows), nothing runs: [`run`] refuses with [`NO_SANDBOX`].

#[cfg(target_os = "linux")]
mod filter;
#[cfg(unix)]
mod group;
#[cfg(target_os = "linux")]
mod inside;
#[cfg(target_os = "linux")]
mod loopback;
#[cfg(target_os = "linux")]
mod namespaces;
mod private_home;
#[cfg(unix)]
mod reveal;
pub mod seatbelt;
mod spec;

#[cfg(target_os = "linux")]
pub use spec::Captured;
pub use spec::{
    Ending, Isolated, Limit, MAX_PROCESSES, Mode, Outcome, Preference, RunSpec, SANDBOX_ENV,
    STAGE_ARG, installation,
};
#[cfg(unix)]
use spec::{GRACE, Reader, environment};
#[cfg(target_os = "linux")]
use spec::{STAGE_ENV, killed_status};

use std::ffi::OsString;
#[cfg(unix)]
use std::path::Path;
use std::path::PathBuf;
#[cfg(unix)]
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, PoisonError};

/// The program that runs the sandbox's stages: the skillscope binary.
static STAGE_PROGRAM: Mutex<Option<PathBuf>> = Mutex::new(None);
/// Why the namespaces mode cannot run here, once a first attempt found out.
#[cfg(unix)]
static UNAVAILABLE: OnceLock<String> = OnceLock::new();

/// Names the skillscope binary, which the namespaces mode runs (with [`STAGE_ARG`]) to set up
/// each sandbox. The binary names itself (`/proc/self/exe`); other programs using the library
/// (tests) name it, else their probes run in the process-group mode.
pub fn set_stage_program(path: impl Into<PathBuf>) {
    *STAGE_PROGRAM.lock().unwrap_or_else(PoisonError::into_inner) = Some(path.into());
}

/// Runs a sandbox stage when the arguments ask for one ([`STAGE_ARG`] first), returning the exit
/// code; `None` for any other command line. The binary calls this before anything else.
pub fn stage(args: &[OsString]) -> Option<i32> {
    if args.get(1).is_none_or(|a| a != STAGE_ARG) {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        Some(inside::stage(&args[2..]))
    }
    #[cfg(target_os = "macos")]
    {
        if args.get(2).is_some_and(|a| a == "seatbelt") {
            return Some(seatbelt::stage(&args[3..]));
        }
        Some(2)
    }
    #[cfg(not(any(target_os = "linux", target_os = "macos")))]
    {
        Some(2)
    }
}

/// What skillscope says where it has no sandbox for the system: probes, `--smoke` and `verify`
/// run nothing there.
pub const NO_SANDBOX: &str = "skillscope runs a skill's code only inside a sandbox, and it has \
     none for this system (it has namespaces on Linux and Seatbelt on macOS): nothing was run";

/// Whether this system has a sandbox skillscope can run commands in (Linux and macOS).
pub const HAS_SANDBOX: bool = cfg!(any(target_os = "linux", target_os = "macos"));

/// What the process-group mode still cannot promise, said wherever it ran.
pub const WEAKER_MODE: &str = "processes that leave the group survive, and nothing stops their \
     reads, writes, network, memory or processes";

/// The program that runs the sandbox's stages, when one was named.
#[cfg(unix)]
fn stage_program() -> Option<PathBuf> {
    STAGE_PROGRAM
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// Why the namespaces mode would not be tried for this spec, if it would not.
#[cfg(unix)]
fn no_namespaces(spec: &RunSpec) -> Option<String> {
    if spec.sandbox == Preference::ProcessGroup {
        return Some(format!("forced by {SANDBOX_ENV}=process-group"));
    }
    if cfg!(target_os = "macos") {
        return mac_fallback();
    }
    if !cfg!(target_os = "linux") {
        return Some("namespaces are Linux-only".to_string());
    }
    if let Some(why) = UNAVAILABLE.get() {
        return Some(why.clone());
    }
    // The private /tmp would hide the folder the command runs in.
    if Path::new("/tmp").starts_with(&spec.cwd) {
        return Some(format!(
            "the probed folder {} holds /tmp, which the sandbox replaces",
            spec.cwd.display()
        ));
    }
    if stage_program().is_none() {
        return Some(
            "no sandbox program: only the skillscope binary (or a caller of \
             `set_stage_program`) can set up namespaces or leave the terminal, so the probe \
             keeps this program's terminal"
                .to_string(),
        );
    }
    None
}

/// Runs the command and returns once it and everything it spawned are dead, in the namespaces
/// mode (Linux) or the Seatbelt mode (macOS) when it can run, else in the process-group mode (the
/// outcome says which, and why). The error is the failure to start the command (program missing,
/// not executable, no resources), or of kind `Unsupported` where there is no sandbox at all
/// ([`NO_SANDBOX`]) or an isolated run cannot be isolated.
pub fn run(spec: &RunSpec, cancel: Option<&AtomicBool>) -> std::io::Result<Outcome> {
    if !HAS_SANDBOX {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            NO_SANDBOX,
        ));
    }
    #[cfg(unix)]
    {
        run_unix(spec, cancel)
    }
    #[cfg(not(unix))]
    {
        let _ = (spec, cancel);
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            NO_SANDBOX,
        ))
    }
}

/// [`run`] on Linux and macOS.
#[cfg(unix)]
fn run_unix(spec: &RunSpec, cancel: Option<&AtomicBool>) -> std::io::Result<Outcome> {
    adopt_orphans();
    #[allow(unused_mut)]
    let mut why = no_namespaces(spec);
    #[cfg(target_os = "linux")]
    if why.is_none() {
        let program = stage_program().unwrap_or_default();
        match namespaces::run(spec, &program, cancel)? {
            namespaces::Attempt::Ran(outcome) => return Ok(outcome),
            namespaces::Attempt::Unavailable(reason) => {
                // Kernels do not change their mind between probes: ask once.
                let reason = UNAVAILABLE.get_or_init(|| reason).clone();
                why = Some(reason);
            }
        }
    }
    #[cfg(target_os = "macos")]
    if why.is_none()
        && let (Some(isolated), Some(program)) = (&spec.isolated, stage_program())
    {
        return seatbelt::run_isolated(spec, isolated, &program, cancel);
    }
    if spec.isolated.is_some() {
        // An isolated run promises what only the namespaces or Seatbelt give: it does not run
        // without them.
        let why = why.unwrap_or_else(|| {
            "an isolated run (a private home, the loopback mock) needs Linux's namespaces or \
             macOS's Seatbelt"
                .to_string()
        });
        return Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            format!("the sandbox cannot isolate it here: {why}"),
        ));
    }
    #[cfg(target_os = "macos")]
    if why.is_none()
        && let Some(program) = stage_program()
    {
        return seatbelt::run(spec, &program, cancel);
    }
    let mut out = group::run(spec, stage_program().as_deref(), cancel)?;
    out.fallback = why;
    Ok(out)
}

/// Why the Seatbelt mode would not be tried on macOS, if it would not (the spec's own reasons
/// are [`no_namespaces`]'s).
#[cfg(unix)]
fn mac_fallback() -> Option<String> {
    if !Path::new(seatbelt::SANDBOX_EXEC).exists() {
        return Some(format!("{} is missing", seatbelt::SANDBOX_EXEC));
    }
    if stage_program().is_none() {
        return Some(
            "no sandbox program: only the skillscope binary (or a caller of \
             `set_stage_program`) can start a Seatbelt sandbox"
                .to_string(),
        );
    }
    None
}

/// Makes this process the parent of orphans from its descendants, so that a probe's grandchildren
/// (and a sandbox init whose helper died) are reaped here instead of lingering as zombies under an
/// init that does not reap (containers).
#[cfg(unix)]
fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = nix::sys::prctl::set_child_subreaper(true);
        });
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use nix::sys::signal::Signal;
    use std::time::Duration;

    fn spec(program: &str, args: &[&str], timeout: Duration, cap: usize) -> RunSpec {
        RunSpec {
            program: PathBuf::from(program),
            args: args.iter().map(OsString::from).collect(),
            cwd: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
            timeout,
            output_cap: cap,
            sandbox: Preference::Strongest,
            isolated: None,
        }
    }

    #[test]
    fn output_beyond_the_cap_is_counted_but_not_kept() {
        let s = spec(
            "/usr/bin/head",
            &["-c", "5000", "/dev/zero"],
            Duration::from_secs(30),
            1000,
        );
        let o = run(&s, None).unwrap();
        assert_eq!(o.ending, Ending::Exited);
        assert_eq!(o.exit_code(), Some(0));
        assert_eq!((o.stdout.bytes.len(), o.stdout.total), (1000, 5000));
        assert!(o.stdout.truncated());
        assert_eq!(o.stderr.total, 0);
    }

    #[test]
    fn the_deadline_kills_the_command() {
        let s = spec("/bin/sleep", &["30"], Duration::from_millis(100), 1000);
        let o = run(&s, None).unwrap();
        assert_eq!(o.ending, Ending::TimedOut);
        assert_eq!(o.signal(), Some(Signal::SIGKILL as i32));
    }

    #[test]
    fn a_missing_program_is_an_error_to_start() {
        let s = spec("/nonexistent/program", &[], Duration::from_secs(1), 1000);
        assert_eq!(
            run(&s, None).unwrap_err().kind(),
            std::io::ErrorKind::NotFound
        );
    }

    #[test]
    fn without_a_stage_program_the_fallback_says_why() {
        // Unit tests run in the test harness, which is not the skillscope binary.
        let o = run(&spec("/bin/true", &[], Duration::from_secs(30), 1000), None).unwrap();
        assert_eq!(o.mode, Mode::ProcessGroup);
        assert!(
            o.fallback
                .as_deref()
                .is_some_and(|w| w.contains("sandbox program")),
            "{:?}",
            o.fallback
        );
        let forced = RunSpec {
            sandbox: Preference::ProcessGroup,
            ..spec("/bin/true", &[], Duration::from_secs(30), 1000)
        };
        let o = run(&forced, None).unwrap();
        assert_eq!(o.mode, Mode::ProcessGroup);
        assert!(
            o.fallback
                .as_deref()
                .is_some_and(|w| w.contains(SANDBOX_ENV))
        );
    }

    #[test]
    fn a_folder_holding_tmp_gets_the_fallback() {
        for cwd in ["/", "/tmp"] {
            let s = RunSpec {
                cwd: PathBuf::from(cwd),
                ..spec("/bin/true", &[], Duration::from_secs(30), 1000)
            };
            let o = run(&s, None).unwrap();
            assert_eq!(o.mode, Mode::ProcessGroup);
            let why = o.fallback.unwrap();
            assert!(why.contains("holds /tmp"), "{why}");
        }
        // Remembered only when the kernel refuses, not for one folder.
        assert!(UNAVAILABLE.get().is_none_or(|w| !w.contains("holds /tmp")));
    }

    #[test]
    fn only_the_stage_argument_starts_a_stage() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(stage(&args(&["skillscope", "list"])), None);
        assert_eq!(stage(&args(&["skillscope"])), None);
    }
}
