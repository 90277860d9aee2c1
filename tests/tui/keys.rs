//! Every key of the key map, sent to the real binary as the bytes a terminal sends for it
//! (`ESC [ Z` for Shift-Tab, `ESC [ 6 ~` for PgDn, `0x03` for Ctrl-C, …), reaches its action in
//! its context. The app writes what each key press became to `SKILLSCOPE_KEY_LOG`.

use crate::pty::{Session, launch_in};
use crate::tui_common::fixture;
use portable_pty::CommandBuilder;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use skillscope::tui::action::Action;
use skillscope::tui::keymap::{Context, KEYMAP, Key};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The bytes xterm (and the terminals that follow it) sends for a key in its default modes.
fn bytes_of(key: &Key) -> Vec<u8> {
    let mut out = Vec::new();
    if key.mods.contains(KeyModifiers::ALT) {
        out.push(0x1b);
    }
    let seq: &[u8] = match key.code {
        KeyCode::Char(c) if key.mods.contains(KeyModifiers::CONTROL) => {
            out.push(u8::try_from(c).unwrap() & 0x1f);
            return out;
        }
        KeyCode::Char(c) => {
            out.extend(c.to_string().as_bytes());
            return out;
        }
        KeyCode::Enter => b"\r",
        KeyCode::Esc => b"\x1b",
        KeyCode::Tab => b"\t",
        KeyCode::BackTab => b"\x1b[Z",
        KeyCode::Backspace => b"\x7f",
        KeyCode::Up => b"\x1b[A",
        KeyCode::Down => b"\x1b[B",
        KeyCode::Right => b"\x1b[C",
        KeyCode::Left => b"\x1b[D",
        KeyCode::Home => b"\x1b[H",
        KeyCode::End => b"\x1b[F",
        KeyCode::Insert => b"\x1b[2~",
        KeyCode::Delete => b"\x1b[3~",
        KeyCode::PageUp => b"\x1b[5~",
        KeyCode::PageDown => b"\x1b[6~",
        KeyCode::F(1) => b"\x1bOP",
        KeyCode::F(2) => b"\x1bOQ",
        KeyCode::F(3) => b"\x1bOR",
        KeyCode::F(4) => b"\x1bOS",
        KeyCode::F(n @ 5..=12) => {
            let code = [15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 5)];
            out.extend(format!("\x1b[{code}~").as_bytes());
            return out;
        }
        other => panic!("no terminal bytes known for {other:?}"),
    };
    out.extend(seq);
    out
}

/// Bound nowhere: pressed after a key to learn which context the app is in.
const PROBE: &[u8] = b"\x1b[24~";
const ESC: &[u8] = b"\x1b";

/// The keys that bring the app from the Budget screen into a context; `source` is a folder of
/// skills for the Add flow to fetch.
fn setup(ctx: Context, source: &std::path::Path) -> Vec<Vec<u8>> {
    let keys = |k: &[&str]| k.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
    match ctx {
        Context::Global | Context::Budget => vec![],
        Context::List => keys(&["1"]),
        Context::Filter => keys(&["1", "/"]),
        Context::Detail => keys(&["1", "\r"]),
        Context::Resource => keys(&["1", "/", "p", "d", "f", "-", "t", "\r", "\r", "]", "\r"]),
        Context::Prompt => keys(&["2"]),
        Context::Files => keys(&["2", "p"]),
        Context::Test => keys(&["3"]),
        Context::Results => keys(&["3", "\x1b"]),
        Context::Checks => keys(&["4"]),
        Context::Confirm => keys(&["1", "a"]),
        Context::Help => keys(&["?"]),
        Context::AddSource => keys(&["1", "A"]),
        Context::AddPreview => {
            let mut v = keys(&["1", "A"]);
            v.extend(
                source
                    .display()
                    .to_string()
                    .chars()
                    .map(|c| c.to_string().into_bytes()),
            );
            v.push(b"\r".to_vec());
            v
        }
    }
}

/// Actions after which the context changes later, when a worker is done: the app is brought
/// into the context again before the next key.
fn settles_later(ctx: Context, action: Action) -> bool {
    matches!(
        (ctx, action),
        (Context::AddSource | Context::AddPreview, Action::Confirm)
    )
}

/// From anywhere back to the Budget screen: out of the text boxes, overlays and panes.
const RESET: [&[u8]; 4] = [ESC, ESC, ESC, b"5"];

struct Driver {
    s: Session,
    log: PathBuf,
    edits: PathBuf,
    /// A folder of one skill, for the Add flow.
    source: PathBuf,
    dirs: [tempfile::TempDir; 2],
}

impl Driver {
    fn start(dirs: [tempfile::TempDir; 2]) -> Driver {
        let [config, cache] = &dirs;
        let log = config.path().join("keys.log");
        let edits = config.path().join("edits.log");
        let source = config.path().join("source");
        crate::tui_common::write(
            &source.join("alpha/SKILL.md"),
            "---\nname: alpha\ndescription: Alpha things, used when the user asks for alpha.\n---\nBody.\n",
        );
        let editor = config.path().join("editor.sh");
        std::fs::write(
            &editor,
            format!("#!/bin/sh\necho \"$@\" >> '{}'\n", edits.display()),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillscope"));
        cmd.cwd(config.path());
        cmd.env_remove("EDITOR");
        let s = launch_in(
            cmd,
            config.path(),
            cache.path(),
            &[
                ("SKILLSCOPE_KEY_LOG", log.as_os_str()),
                ("VISUAL", editor.as_os_str()),
            ],
        );
        let mut d = Driver {
            s,
            log,
            edits,
            source,
            dirs,
        };
        d.s.wait_for("4/4 enabled");
        d.press(b"5");
        d
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn edits(&self) -> usize {
        std::fs::read_to_string(&self.edits).map_or(0, |t| t.lines().count())
    }

    /// Sends one key's bytes and returns what the app logged for it.
    fn press(&mut self, bytes: &[u8]) -> String {
        let n = self.lines().len();
        self.s.send_bytes(bytes);
        let start = Instant::now();
        loop {
            if let Some(l) = self.lines().get(n) {
                return l.clone();
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no key logged for {bytes:?}; screen:\n{}",
                self.s.text()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The context the app is in now.
    fn context(&mut self) -> String {
        let l = self.press(PROBE);
        l.split(' ').next().unwrap_or_default().to_string()
    }

    fn enter(&mut self, ctx: Context) {
        for k in RESET {
            self.press(k);
        }
        for k in setup(ctx, &self.source.clone()) {
            self.press(&k);
        }
        // The Add flow's preview comes from a worker: wait for it (10 s at most).
        let start = Instant::now();
        while ctx == Context::AddPreview && self.context() != ctx.name() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{}",
                self.s.text()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn base(ctx: Context) -> Context {
    if ctx == Context::Global {
        Context::Budget
    } else {
        ctx
    }
}

#[test]
fn every_key_in_the_key_map_reaches_its_action_from_a_real_terminal() {
    let lib_home = || [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let fresh = || {
        let dirs = lib_home();
        fixture(&dirs[0].path().join(".claude/skills"));
        Driver::start(dirs)
    };
    let mut d = fresh();
    let mut checked = 0;
    // The Add flow's source prompt changes where the next flow installs (its S-Tab picks the
    // project scope, which needs a project folder): its keys go last.
    let mut order = Context::ALL.to_vec();
    order.sort_by_key(|c| *c == Context::AddSource);
    for ctx in order {
        let bindings: Vec<_> = KEYMAP.iter().filter(|b| b.context == ctx).collect();
        if bindings.is_empty() {
            continue;
        }
        let want_ctx = base(ctx).name();
        d.enter(ctx);
        assert_eq!(d.context(), want_ctx, "could not reach the {ctx:?} context");
        for b in bindings {
            for key in b.keys.iter() {
                if ctx == Context::Global {
                    assert!(
                        !KEYMAP.iter().any(|o| o.context == Context::Budget
                            && o.action != b.action
                            && o.keys.contains(key)),
                        "{key:?}: the Budget screen binds it otherwise; test it elsewhere"
                    );
                }
                let edits = d.edits();
                let got = d.press(&bytes_of(key));
                let want = format!("{want_ctx} {}", b.action.name());
                assert_eq!(got, want, "{} ({:?}) in {ctx:?}", key.label(), key);
                checked += 1;
                if b.action == Action::Quit {
                    let status = crate::pty::wait_exit(&mut d.s);
                    assert!(status.success(), "{status:?}");
                    let Driver { dirs, .. } = d;
                    d = Driver::start(dirs);
                    d.enter(ctx);
                    continue;
                }
                if b.action == Action::Edit {
                    // The editor ran and the app has its screen back before the next key.
                    let start = Instant::now();
                    while d.edits() == edits || !d.s.alternate_screen() {
                        assert!(start.elapsed() < Duration::from_secs(10), "{}", d.s.text());
                        std::thread::sleep(Duration::from_millis(5));
                    }
                }
                if settles_later(ctx, b.action) || d.context() != want_ctx {
                    d.enter(ctx);
                }
            }
        }
    }
    let total: usize = KEYMAP.iter().map(|b| b.keys.len()).sum();
    assert_eq!(checked, total);
    d.enter(Context::Budget);
    d.s.send("q");
    assert!(crate::pty::wait_exit(&mut d.s).success());
}
