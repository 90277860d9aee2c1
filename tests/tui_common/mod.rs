//! Shared helpers for the TUI tests: fixture libraries in temp folders, an app over them, keys,
//! and the screen as text with temp paths replaced.
#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event as Input, KeyCode, KeyEvent, KeyModifiers};
use skillscope::core::front::load::LibrarySpec;
use skillscope::core::listing::Format;
use skillscope::tui::app::{App, Options};
use skillscope::tui::event::Event;
use skillscope::tui::frame;
use skillscope::tui::theme::Theme;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};

pub fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

/// A small library covering what the screens show: resources, an executable, bad YAML, extra
/// fields, and (with `second`) a shadowed copy.
pub fn fixture(root: &Path) {
    write(
        &root.join("pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files. Use when the user mentions PDFs, forms or scanned documents.\nlicense: MIT\n---\n# PDF tools\n\nRead [the guide](references/guide.md) first.\n\nRun `scripts/extract.py FILE`.\n",
    );
    write(
        &root.join("pdf-tools/references/guide.md"),
        "# Guide\n\nSplit pages before extracting.\n",
    );
    write(&root.join("pdf-tools/scripts/extract.py"), "print('hi')\n");
    write(
        &root.join("broken-yaml/SKILL.md"),
        "---\nname: broken-yaml\ndescription: Fixes things: sometimes\n  bad: [\n---\nBody.\n",
    );
    write(
        &root.join("team-notes/SKILL.md"),
        "---\nname: team-notes\ndescription: Write meeting notes in the team's format when asked to summarise a meeting.\nowner: platform-team\nreviewed: 2025-01-10\n---\n# Notes\n\n1. Title\n2. Decisions\n3. Actions\n",
    );
    write(
        &root.join("weather/SKILL.md"),
        "---\nname: weather\ndescription: Get the weather forecast for a city when the user asks about weather.\ntype: executable\ntriggers: [weather, forecast]\n---\nCall execute.py with a city.\n",
    );
    write(
        &root.join("weather/execute.py"),
        "#!/usr/bin/env python3\nprint('{}')\n",
    );
}

pub struct Harness {
    pub app: App,
    pub rx: Receiver<Event>,
    pub roots: Vec<PathBuf>,
    /// Holds the state file and the fake home with the agents' settings.
    pub dir: tempfile::TempDir,
}

/// Options that keep state, cache and agent settings inside `dir`. Listings are in markdown:
/// the xml and codex formats hold the skill's path, whose temp name would change the counts.
pub fn isolated(dir: &Path, theme: Theme, watch: bool) -> Options {
    Options {
        theme,
        watch,
        format: Format::Markdown,
        ..Options::isolated(dir)
    }
}

pub fn harness(roots: &[&Path], w: u16, h: u16) -> Harness {
    harness_with(roots, w, h, Theme::plain())
}

/// An app that scans on a worker, as the binary starts; nothing is handled yet.
pub fn harness_scanning(roots: &[&Path], w: u16, h: u16) -> Harness {
    let args = LibrarySpec::of_paths(roots.iter().map(|p| p.to_path_buf()));
    let (tx, rx) = mpsc::channel();
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::scanning(args, isolated(dir.path(), Theme::plain(), false), tx);
    app.resize(w, h);
    Harness {
        app,
        rx,
        roots: roots.iter().map(|p| p.to_path_buf()).collect(),
        dir,
    }
}

pub fn harness_with(roots: &[&Path], w: u16, h: u16, theme: Theme) -> Harness {
    harness_opts(roots, w, h, theme, false)
}

/// [`harness`] that waits up to `secs` seconds for the workers (huge libraries).
pub fn harness_patient(roots: &[&Path], w: u16, h: u16, secs: u64) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let opts = isolated(dir.path(), Theme::plain(), false);
    let args = LibrarySpec::of_paths(roots.iter().map(|p| p.to_path_buf()));
    let lib = args.load();
    let (tx, rx) = mpsc::channel();
    let mut app = App::new(args, lib, opts, tx);
    app.resize(w, h);
    let mut h = Harness {
        app,
        rx,
        roots: roots.iter().map(|p| p.to_path_buf()).collect(),
        dir,
    };
    h.settle_within(secs);
    h
}

pub fn harness_opts(roots: &[&Path], w: u16, h: u16, theme: Theme, watch: bool) -> Harness {
    harness_configured(roots, w, h, |o| {
        o.theme = theme;
        o.watch = watch;
    })
}

/// An app whose isolated options `configure` changes first (as a config file would).
pub fn harness_configured(
    roots: &[&Path],
    w: u16,
    h: u16,
    configure: impl FnOnce(&mut Options),
) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let mut opts = isolated(dir.path(), Theme::plain(), false);
    configure(&mut opts);
    let args = LibrarySpec::of_paths(roots.iter().map(|p| p.to_path_buf()));
    let lib = args.load();
    let (tx, rx) = mpsc::channel();
    let mut app = App::new(args, lib, opts, tx);
    app.resize(w, h);
    let mut h = Harness {
        app,
        rx,
        roots: roots.iter().map(|p| p.to_path_buf()).collect(),
        dir,
    };
    h.settle();
    h
}

/// An app over `roots` tagged with their agents and scopes (as the default roots are), settled.
pub fn harness_of_roots(roots: Vec<skillscope::core::Root>, w: u16, h: u16) -> Harness {
    let lib = skillscope::core::Library::load(
        roots.clone(),
        &skillscope::core::scan::ScanOptions::default(),
    );
    let dir = tempfile::tempdir().unwrap();
    let opts = isolated(dir.path(), Theme::plain(), false);
    let paths: Vec<PathBuf> = roots.into_iter().map(|r| r.path).collect();
    let args = LibrarySpec::of_paths(paths.clone());
    let (tx, rx) = mpsc::channel();
    let mut app = App::new(args, lib, opts, tx);
    app.resize(w, h);
    let mut h = Harness {
        app,
        rx,
        roots: paths,
        dir,
    };
    h.settle();
    h
}

/// An app over `roots` whose agents' settings are read from `home` (as the binary reads the
/// user's), settled.
pub fn harness_of_home(roots: Vec<skillscope::core::Root>, home: &Path, w: u16, h: u16) -> Harness {
    let lib = skillscope::core::Library::load(
        roots.clone(),
        &skillscope::core::scan::ScanOptions::default(),
    );
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        home: Some(home.to_path_buf()),
        ..isolated(dir.path(), Theme::plain(), false)
    };
    let paths: Vec<PathBuf> = roots.into_iter().map(|r| r.path).collect();
    let args = LibrarySpec::of_paths(paths.clone());
    let (tx, rx) = mpsc::channel();
    let mut app = App::new(args, lib, opts, tx);
    app.resize(w, h);
    let mut h = Harness {
        app,
        rx,
        roots: paths,
        dir,
    };
    h.settle();
    h
}

impl Harness {
    pub fn key(&mut self, code: KeyCode) -> &mut Self {
        self.key_mod(code, KeyModifiers::NONE)
    }

    pub fn key_mod(&mut self, code: KeyCode, mods: KeyModifiers) -> &mut Self {
        self.app
            .handle(Event::Input(Input::Key(KeyEvent::new(code, mods))));
        self
    }

    pub fn chars(&mut self, s: &str) -> &mut Self {
        for c in s.chars() {
            self.key(KeyCode::Char(c));
        }
        self
    }

    /// Handles every worker result already sent, waiting up to `ms` for the first.
    pub fn pump(&mut self, ms: u64) {
        while let Ok(ev) = self.rx.recv_timeout(std::time::Duration::from_millis(ms)) {
            self.app.handle(ev);
        }
    }

    /// Handles worker results until the workers started so far are done: rules checked.
    pub fn settle(&mut self) {
        self.wait_until(|app| {
            app.findings.checked
                && app.switches.agents.is_some()
                && app.index_settled()
                && app.counting.done.iter().all(|d| *d)
                && app.preview.settled(app.screen)
                && app.screens.budget.settled(app.screen)
                && app.usage.links.is_some()
        });
    }

    /// Handles events until `done` holds; fails after 20 s.
    pub fn wait_until(&mut self, done: impl Fn(&App) -> bool) {
        self.wait_until_within(20, done);
    }

    /// [`Harness::settle`] for libraries whose counting takes long on a loaded machine: a hang
    /// guard of `secs` seconds, not a timing.
    pub fn settle_within(&mut self, secs: u64) {
        self.wait_until_within(secs, |app| {
            app.findings.checked
                && app.switches.agents.is_some()
                && app.index_settled()
                && app.counting.done.iter().all(|d| *d)
                && app.preview.settled(app.screen)
                && app.screens.budget.settled(app.screen)
                && app.usage.links.is_some()
        });
    }

    fn wait_until_within(&mut self, secs: u64, done: impl Fn(&App) -> bool) {
        let start = std::time::Instant::now();
        while !done(&self.app) {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(secs),
                "workers never finished"
            );
            if let Ok(ev) = self.rx.recv_timeout(std::time::Duration::from_millis(50)) {
                self.app.handle(ev);
            }
        }
    }

    pub fn terminal(&self) -> Terminal<TestBackend> {
        let mut t =
            Terminal::new(TestBackend::new(self.app.size.width, self.app.size.height)).unwrap();
        t.draw(|f| frame::draw(f, &self.app)).unwrap();
        t
    }

    /// The screen as text, temp folders replaced by `[ROOT<n>]`.
    pub fn screen(&self) -> String {
        let t = self.terminal();
        let mut s = t.backend().to_string();
        for (i, r) in self.roots.iter().enumerate() {
            s = s.replace(&r.display().to_string(), &format!("[ROOT{i}]"));
        }
        s = s.replace(&self.dir.path().display().to_string(), "[DIR]");
        s
    }
}

impl Harness {
    /// Prices every agent's listing again as if the library sat at `/skills`: the xml and codex
    /// listings hold each skill's path, whose temp name would change their counts from run to
    /// run. Returns what the app had priced, to compare.
    pub fn stable_agent_budgets(&mut self) -> Vec<skillscope::core::agents::budget::AgentBudget> {
        let live = self
            .app
            .screens
            .budget
            .budgets
            .clone()
            .expect("agents priced");
        let mut lib = (*self.app.lib).clone();
        let fixed = |p: &Path| -> PathBuf {
            let mut out = p.to_path_buf();
            for r in &self.roots {
                if let Ok(rest) = p.strip_prefix(r) {
                    out = Path::new("/skills").join(rest);
                }
            }
            out
        };
        for sk in &mut lib.skills {
            sk.dir = fixed(&sk.dir);
            sk.skill_md = fixed(&sk.skill_md);
            sk.root = std::sync::Arc::from(fixed(&sk.root).as_path());
        }
        let enabled = self.app.switches.enabled.clone();
        let budgets = skillscope::core::agents::budget::per_agent(
            &lib,
            None,
            &|i| enabled[i],
            skillscope::core::agents::budget::At::new(
                skillscope::tui::app::TIERS[self.app.screens.prompt.tier],
                usize::try_from(self.app.screens.prompt.window()).unwrap(),
            ),
            self.app.cache.encoding,
            &skillscope::core::tokens::TokenCache::in_memory(),
        );
        self.app.screens.budget.budgets = Some(budgets);
        live
    }
}
