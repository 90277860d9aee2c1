//! End to end: the real binary in a pseudo-terminal, driven by keys, read back as a screen.

use crate::tui_common;

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tui_common::fixture;

const ROWS: u16 = 30;
const COLS: u16 = 100;

pub(crate) struct Session {
    screen: Arc<Mutex<vt100::Parser>>,
    /// Every byte the program wrote, for what the screen does not keep (OSC 52).
    raw: Arc<Mutex<Vec<u8>>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    /// The terminal's other side: while it is open the child's terminal is there; dropping it
    /// hangs the terminal up.
    master: Option<Box<dyn portable_pty::MasterPty + Send>>,
    reader: Option<std::thread::JoinHandle<()>>,
    /// Tells the reader to close its copy of the master.
    closing: Arc<std::sync::atomic::AtomicBool>,
}

impl Session {
    pub(crate) fn text(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen shows `what`; fails with the screen after 10 s.
    pub(crate) fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.text();
            if text.contains(what) {
                return text;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "never saw {what:?}; screen:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Every byte the program has written so far.
    pub(crate) fn raw(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    pub(crate) fn send(&mut self, s: &str) {
        self.send_bytes(s.as_bytes());
    }

    pub(crate) fn send_bytes(&mut self, b: &[u8]) {
        self.writer.write_all(b).unwrap();
        self.writer.flush().unwrap();
    }

    /// Whether the program is on the alternate screen now.
    pub(crate) fn alternate_screen(&self) -> bool {
        self.screen.lock().unwrap().screen().alternate_screen()
    }

    /// Closes the terminal under the program, as closing a terminal window or killing a tmux
    /// session does.
    fn hang_up(&mut self) {
        self.closing
            .store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        self.writer = Box::new(std::io::sink());
        self.master = None;
    }
}

fn start(library: &std::path::Path, config: &std::path::Path, cache: &std::path::Path) -> Session {
    start_with(library, config, cache, &[])
}

pub(crate) fn start_with(
    library: &std::path::Path,
    config: &std::path::Path,
    cache: &std::path::Path,
    env: &[(&str, &std::ffi::OsStr)],
) -> Session {
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.arg(library);
    launch(cmd, config, cache, env)
}

/// Runs `cmd` in a new pseudo-terminal (as the leader of its session, the terminal its
/// controlling one) with the app's folders and the given environment.
pub(crate) fn launch_in(
    cmd: CommandBuilder,
    config: &std::path::Path,
    cache: &std::path::Path,
    env: &[(&str, &std::ffi::OsStr)],
) -> Session {
    launch(cmd, config, cache, env)
}

fn launch(
    mut cmd: CommandBuilder,
    config: &std::path::Path,
    cache: &std::path::Path,
    env: &[(&str, &std::ffi::OsStr)],
) -> Session {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    cmd.env("TERM", "xterm-256color");
    cmd.env("SKILLSCOPE_CONFIG_DIR", config);
    cmd.env("SKILLSCOPE_CACHE_DIR", cache);
    cmd.env("HOME", config);
    cmd.env_remove("NO_COLOR");
    cmd.env_remove("SKILLSCOPE_SANDBOX");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let screen = Arc::new(Mutex::new(vt100::Parser::new(
        ROWS.try_into().unwrap(),
        COLS.try_into().unwrap(),
        0,
    )));
    // The screen is read from a copy of the master's descriptor that the reader lets go when
    // asked: the terminal hangs up only once every copy is closed.
    let raw = pty.master.as_raw_fd().unwrap();
    // SAFETY: the master is alive here and owns `raw`; this only duplicates it.
    #[allow(
        unsafe_code,
        reason = "portable-pty hands out the master only as a raw descriptor"
    )]
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(raw) }
        .try_clone_to_owned()
        .unwrap();
    let closing = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sink = Arc::clone(&screen);
    let raw = Arc::new(Mutex::new(Vec::new()));
    let raw_sink = Arc::clone(&raw);
    let stop = Arc::clone(&closing);
    let reader = std::thread::spawn(move || {
        use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
        use std::os::fd::AsFd;
        let mut file = std::fs::File::from(fd);
        let mut buf = [0u8; 8192];
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let mut fds = [PollFd::new(file.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, PollTimeout::from(50u16)) {
                Ok(0) => continue,
                Ok(_) => {}
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => break,
            }
            match file.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    raw_sink.lock().unwrap().extend_from_slice(&buf[..n]);
                    sink.lock().unwrap().process(&buf[..n]);
                }
            }
        }
    });
    let writer = pty.master.take_writer().unwrap();
    Session {
        screen,
        raw,
        writer,
        child,
        master: Some(pty.master),
        reader: Some(reader),
        closing,
    }
}

#[test]
fn the_start_report_is_written_once_when_every_level_is_drawn() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let report = config.path().join("start.txt");
    let mut s = start_with(
        lib.path(),
        config.path(),
        cache.path(),
        &[("SKILLSCOPE_START_REPORT", report.as_os_str())],
    );
    s.wait_for("4/4 enabled");
    settle(&s);
    // More frames after the first complete one add nothing.
    s.send("j");
    s.send("j");
    std::thread::sleep(Duration::from_millis(300));
    s.send("q");
    assert!(wait_exit(&mut s).success());
    let text = std::fs::read_to_string(&report).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    let (ms, rest) = lines[0].split_once(' ').unwrap();
    let ms: f64 = ms.parse().unwrap();
    assert!(ms > 0.0, "{text}");
    assert_eq!(rest, "ms to every level on screen, 4 skills");
}

#[test]
fn toggle_type_and_quit_in_a_real_terminal() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let mut s = start(lib.path(), config.path(), cache.path());

    let first = s.wait_for("4/4 enabled");
    assert!(
        first.contains("pdf-tools") && first.contains("weather"),
        "{first}"
    );
    assert!(s.screen.lock().unwrap().screen().alternate_screen());

    // The first row (broken-yaml) is selected; switch it off.
    s.send(" ");
    let after = s.wait_for("3/4 enabled");
    assert!(after.contains("○ broken-yaml"), "{after}");
    // Saved at once, keyed by the skill's folder.
    let state = std::fs::read_to_string(config.path().join("state.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&state).unwrap();
    let key = lib.path().join("broken-yaml").display().to_string();
    assert_eq!(v["skills"][&key]["enabled"], false, "{state}");

    // The test box takes what is typed, letters that are commands elsewhere included.
    s.send("3");
    s.wait_for("Message");
    s.send("quick weather in paris");
    s.wait_for("quick weather in paris");

    // Ctrl-C quits and the terminal comes back.
    s.send("\x03");
    let status = wait_exit(&mut s);
    assert!(status.success(), "{status:?}");
    assert!(
        !s.screen.lock().unwrap().screen().alternate_screen(),
        "alternate screen left on"
    );
}

#[test]
fn without_a_terminal_it_says_so_instead_of_drawing() {
    let lib = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .arg(lib.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "nothing drawn to a pipe");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("needs a terminal") && err.contains("skillscope list"),
        "{err}"
    );
}

/// Processes whose command line holds `token`.
fn processes_with(token: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains(token))
        .collect()
}

/// Quitting while a probe runs stops it: the probe and everything it started are killed and
/// reaped, and its temporary folder is removed, before the app exits.
fn quitting_stops_the_probes(sandbox: Option<&str>, quit: &str) {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = lib.path().join("sleeper");
    tui_common::write(
        &dir.join("SKILL.md"),
        "---\nname: sleeper\ndescription: Never answers.\ntype: executable\nentry: run.sh\n---\n",
    );
    tui_common::write(&dir.join("run.sh"), "#!/bin/sh\nsleep 1000 &\nwait\n");
    let token = dir.join("run.sh").display().to_string();
    let mut env: Vec<(&str, &std::ffi::OsStr)> = vec![("TMPDIR", tmp.path().as_os_str())];
    if let Some(mode) = sandbox {
        env.push(("SKILLSCOPE_SANDBOX", std::ffi::OsStr::new(mode)));
    }
    let mut s = start_with(lib.path(), config.path(), cache.path(), &env);
    s.wait_for("1/1 enabled");
    s.send("4");
    s.wait_for("Nothing runs until you press r");
    s.send("r");
    s.wait_for("probing");
    let start = Instant::now();
    while processes_with(&token).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the probe never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let homes = || {
        std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("skillscope-probe-")
            })
            .count()
    };
    if sandbox == Some("process-group") {
        assert_eq!(homes(), 1, "the probe's temporary home is in TMPDIR");
    }
    s.send(quit);
    let start = Instant::now();
    let status = loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            break st;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "did not quit:\n{}",
            s.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let left = processes_with(&token);
    assert!(left.is_empty(), "probe processes left: {left:?}");
    assert_eq!(homes(), 0, "temporary folder left behind");
}

#[test]
fn q_stops_and_reaps_running_probes_namespaces() {
    quitting_stops_the_probes(None, "q");
}

#[test]
fn ctrl_c_stops_and_reaps_running_probes_process_group() {
    quitting_stops_the_probes(Some("process-group"), "\x03");
}

/// Waits for the app to end after a key; fails with the screen after 10 s. Its last bytes (the
/// terminal handed back) are on the screen when this returns: the reader has met the end of the
/// terminal's output, or 10 s have gone by.
pub(crate) fn wait_exit(s: &mut Session) -> portable_pty::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(st) = s.child.try_wait().unwrap() {
            while s.reader.as_ref().is_some_and(|r| !r.is_finished())
                && start.elapsed() < Duration::from_secs(10)
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            return st;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "did not quit:\n{}",
            s.text()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_fifo_at_a_file_the_app_reads_is_shown_and_q_still_quits() {
    // The app takes its agents' settings from the home, which `start` puts in the config folder.
    let files = [
        ("config", "state.json"),
        ("cache", "tokens.bin"),
        ("cache", "probes.json"),
        ("config", ".claude/settings.json"),
    ];
    for (folder, name) in files {
        let lib = tempfile::tempdir().unwrap();
        let config = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        fixture(lib.path());
        let base = if folder == "config" {
            config.path()
        } else {
            cache.path()
        };
        let fifo = base.join(name);
        std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let mut s = start(lib.path(), config.path(), cache.path());
        // The app goes on without the file: the library is listed.
        s.wait_for("pdf-tools");
        // The message, cut short in the footer, is whole among the help's messages, at its end.
        s.send("?");
        let start = Instant::now();
        let help = loop {
            s.send("G");
            std::thread::sleep(Duration::from_millis(20));
            let text = help_text(&s.text());
            if text.contains("named pipe (FIFO)") {
                break text;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "{text}");
        };
        assert!(
            help.contains(&fifo.display().to_string()),
            "{name}: the message does not name the file:\n{help}"
        );
        s.send("q");
        s.send("q");
        let status = wait_exit(&mut s);
        assert!(status.success(), "{name}: {status:?}");
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo(),
            "{name}: the FIFO was written over"
        );
    }
}

/// The text inside the help overlay's border, its wrapped lines joined by spaces.
fn help_text(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let inner = l.strip_prefix('│')?.strip_suffix('│')?;
            Some(inner.trim().to_string())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The ids of processes whose command line holds `token`.
fn pids_with(token: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().parse::<i32>().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(token)
                .then_some(pid)
        })
        .collect()
}

/// Waits up to 10 s for every process whose command line holds `token` to end. Whatever is
/// still running then is killed, so a failing run leaves nothing behind, and the test fails.
fn assert_all_end(token: &str, what: &str) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if pids_with(token).is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = pids_with(token);
    for pid in &left {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(*pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    assert!(
        left.is_empty(),
        "{what}: still running after 10 s: {left:?}"
    );
}

#[test]
fn a_termination_signal_quits_when_no_key_comes() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let mut s = start(lib.path(), config.path(), cache.path());
    s.wait_for("pdf-tools");
    let pid = s.child.process_id().unwrap();
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid.try_into().unwrap()),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = wait_exit(&mut s);
    assert!(status.success(), "{status:?}");
    // The terminal is handed back: the alternate screen is left, the cursor shown.
    let screen = s.screen.lock().unwrap();
    assert!(
        !screen.screen().alternate_screen(),
        "still on the alternate screen"
    );
    assert!(!screen.screen().hide_cursor(), "the cursor is still hidden");
}

/// Waits until the app has every figure on screen and its workers have had time to finish, so
/// that no worker's result wakes the app after the hang-up: only the app's own watch can.
fn settle(s: &Session) {
    let start = Instant::now();
    while s.text().contains("counting") || s.text().contains("scanning") {
        assert!(start.elapsed() < Duration::from_secs(10), "{}", s.text());
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_secs(2));
}

#[test]
fn closing_the_terminal_ends_the_app() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let token = lib.path().display().to_string();
    // The app leads its session: the kernel sends it SIGHUP when the terminal goes.
    let mut s = start(lib.path(), config.path(), cache.path());
    s.wait_for("pdf-tools");
    settle(&s);
    s.hang_up();
    assert_all_end(&token, "the app leading its session");
}

#[test]
fn closing_the_terminal_ends_the_app_when_no_signal_says_so() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    fixture(lib.path());
    let token = lib.path().display().to_string();
    // The shell leads the session and ignores the hang-up, so the kernel's SIGHUP never reaches
    // the app (as under `ssh -t host cmd` or a multiplexer that forwards nothing): the app has
    // to notice the terminal is gone by itself.
    let mut cmd = CommandBuilder::new("sh");
    cmd.args([
        "-c",
        "trap '' HUP; \"$0\" \"$@\"; echo ended",
        env!("CARGO_BIN_EXE_skillscope"),
    ]);
    cmd.arg(lib.path());
    let mut s = launch(cmd, config.path(), cache.path(), &[]);
    s.wait_for("pdf-tools");
    settle(&s);
    s.hang_up();
    assert_all_end(&token, "the app under a shell that ignores SIGHUP");
}

#[test]
fn the_add_flow_fetches_prices_and_installs_the_checked_skills() {
    let lib = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    fixture(lib.path());
    // A repository of two skills; one carries a script that would leave a marker if run.
    let repo = src.path().join("repo");
    let marker = src.path().join("MARKER");
    tui_common::write(
        &repo.join("alpha/SKILL.md"),
        "---\nname: alpha\ndescription: Alpha things, used when the user asks for alpha.\n---\nBody.\n",
    );
    tui_common::write(
        &repo.join("beta/SKILL.md"),
        "---\nname: beta\ndescription: Beta things, used when the user asks for beta.\n---\nBody.\n",
    );
    tui_common::write(
        &repo.join("beta/run.sh"),
        &format!("#!/bin/sh\ntouch {}\n", marker.display()),
    );
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(&repo)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "skills"]);
    let data = config.path().join("data");
    let mut s = start_with(
        lib.path(),
        config.path(),
        cache.path(),
        &[
            ("SKILLSCOPE_DATA_DIR", data.as_os_str()),
            ("GIT_CONFIG_GLOBAL", std::ffi::OsStr::new("/dev/null")),
        ],
    );
    s.wait_for("4/4 enabled");
    s.send("A");
    s.wait_for("Source:");
    s.send(&format!("file://{}", repo.display()));
    s.send("\r");
    let preview = s.wait_for("tokens per turn");
    assert!(
        preview.contains("[x] alpha") && preview.contains("[x] beta"),
        "{preview}"
    );
    assert!(
        preview.contains("run.sh"),
        "what could run is shown: {preview}"
    );
    // Uncheck beta; only alpha is installed.
    s.send("j");
    s.send(" ");
    s.wait_for("[ ] beta");
    s.send("\r");
    s.wait_for("added alpha");
    let home_skills = config.path().join(".claude/skills");
    assert!(home_skills.join("alpha/SKILL.md").is_file());
    assert!(!home_skills.join("beta").exists());
    assert!(home_skills.join("skills.lock").is_file());
    assert!(!marker.exists(), "nothing from the source ran");
    s.send("q");
    assert!(wait_exit(&mut s).success());
}

/// The open app follows an agent's settings file edited on disk (here by an atomic rename, as
/// editors and skillscope write): Claude Code's badge of the skill switched off turns off, with
/// no restart and no key.
#[test]
fn an_agent_settings_file_changed_on_disk_shows_at_once() {
    let home = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let skills = home.path().join(".claude/skills");
    for (name, what) in [
        ("alpha", "Brainstorm product ideas with the user."),
        ("beta", "Summarize meeting notes into action items."),
    ] {
        tui_common::write(
            &skills.join(name).join("SKILL.md"),
            &format!("---\nname: {name}\ndescription: {what}\n---\n# {name}\n"),
        );
    }
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.cwd(home.path());
    let mut s = launch_in(cmd, home.path(), cache.path(), &[]);
    let row = |text: &str, name: &str| -> String {
        text.lines()
            .find(|l| l.contains(&format!(" {name} ")))
            .unwrap_or_else(|| panic!("no row {name}:\n{text}"))
            .to_string()
    };
    let before = s.wait_for("claude·user");
    assert!(row(&before, "alpha").contains(" C O "), "{before}");
    let settings = home.path().join(".claude/settings.json");
    let tmp = home.path().join(".claude/settings.json.new");
    std::fs::write(&tmp, r#"{"skillOverrides": {"alpha": "off"}}"#).unwrap();
    std::fs::rename(&tmp, &settings).unwrap();
    let start = Instant::now();
    loop {
        let text = s.text();
        if row(&text, "alpha").contains(" - O ") {
            assert!(row(&text, "beta").contains(" C O "), "{text}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the app did not follow the settings file:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    s.send("q");
    let status = wait_exit(&mut s);
    assert!(status.success(), "{status:?}");
}
