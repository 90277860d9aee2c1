//! The app on the real corpus: time from start to the first drawn frame, and the time to answer
//! one key (update + draw) while workers count and check in the background.
// A benchmark sets up its whole scene in one function.
#![allow(clippy::too_many_lines)]

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event as Input, KeyCode, KeyEvent, KeyModifiers};
use skillscope::core::front::load::LibrarySpec;
use skillscope::core::listing::{self, Format};
use skillscope::core::tokens::{self, Encoding, TokenCache};
use skillscope::tui::app::{App, Options};
use skillscope::tui::event::Event;
use skillscope::tui::frame;
use skillscope::tui::theme::Theme;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

fn corpus() -> Option<PathBuf> {
    let p = std::env::var_os("SKILLSCOPE_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    );
    p.is_dir().then_some(p)
}

/// No watcher, and state and agent settings in a temp folder, so runs are alike.
fn options() -> Options {
    Options {
        theme: Theme::from_env(),
        ..Options::isolated(&work_dir())
    }
}

/// The state, cache and fake home of this run; removed at the end.
fn work_dir() -> PathBuf {
    std::env::temp_dir().join(format!("skillscope-bench-{}", std::process::id()))
}

fn key(code: KeyCode) -> Event {
    Event::Input(Input::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

/// Whether every worker the app started is done: rules, counts, index, preview, switches, the
/// Budget screen's per-agent figures.
fn settled(app: &App) -> bool {
    app.view().loaded()
        && app.findings.checked
        && app.counting.done.iter().all(|d| *d)
        && app.index_settled()
        && app.switches.agents.is_some()
        && app.preview.settled(app.screen)
        && app.screens.budget.settled(app.screen)
}

/// Handles events until every worker is done.
fn drain(app: &mut App, rx: &mpsc::Receiver<Event>) {
    while !settled(app) {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(ev) => app.handle(ev),
            Err(_) => break,
        }
    }
}

/// Handles events until the first scan is in.
fn wait_loaded(app: &mut App, rx: &mpsc::Receiver<Event>) {
    while !app.view().loaded() {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(ev) => app.handle(ev),
            Err(_) => break,
        }
    }
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = corpus() else {
        eprintln!("skipping: no corpus at ../shared/corpus (set SKILLSCOPE_CORPUS)");
        return;
    };
    let args = LibrarySpec::of_paths(vec![corpus]);
    // Where a first start's time goes (cold token cache), once, for the report.
    {
        let t0 = Instant::now();
        let lib = args.load();
        let t1 = Instant::now();
        let (tx, rx) = mpsc::channel();
        let mut app = App::new(args.clone(), lib, options(), tx);
        app.resize(120, 36);
        let t2 = Instant::now();
        let mut term = Terminal::new(TestBackend::new(120, 36)).expect("test backend");
        term.draw(|f| frame::draw(f, &app)).expect("draw");
        let t3 = Instant::now();
        let mut level_at = [None; 3];
        while !settled(&app) {
            match rx.recv_timeout(Duration::from_mins(1)) {
                Ok(ev) => app.handle(ev),
                Err(_) => break,
            }
            for (k, done) in app.counting.done.iter().enumerate() {
                if *done && level_at[k].is_none() {
                    level_at[k] = Some(t0.elapsed());
                }
            }
        }
        eprintln!(
            "cold start: scan {:?}, app state {:?}, draw {:?}; L1 counted after {:?}, L2 after {:?}, \
             L3 after {:?}; every worker done after {:?}",
            t1 - t0,
            t2 - t1,
            t3 - t2,
            level_at[0],
            level_at[1],
            level_at[2],
            t0.elapsed()
        );
    }
    for _ in 0..3 {
        let t0 = Instant::now();
        let (tx, rx) = mpsc::channel();
        let mut app = App::scanning(args.clone(), options(), tx);
        wait_loaded(&mut app, &rx);
        let t1 = Instant::now();
        drain(&mut app, &rx);
        eprintln!(
            "scan on a worker until loaded: {:?}; checked after {:?}",
            t1 - t0,
            t0.elapsed()
        );
    }
    let mut g = c.benchmark_group("tui");
    g.sample_size(10).measurement_time(Duration::from_secs(10));

    // Start to first frame: the app starts its scan on a worker and draws at once (120x36).
    g.bench_function("first_frame", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let (tx, rx) = mpsc::channel();
                let mut app = App::scanning(args.clone(), options(), tx);
                app.resize(120, 36);
                let mut term = Terminal::new(TestBackend::new(120, 36)).expect("test backend");
                term.draw(|f| frame::draw(f, &app)).expect("draw");
                total += start.elapsed();
                // Let the workers finish outside the timed part, so runs do not pile up.
                wait_loaded(&mut app, &rx);
                drain(&mut app, &rx);
            }
            total
        });
    });

    // Start to the first frame that shows the whole list.
    g.bench_function("list_on_screen", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let (tx, rx) = mpsc::channel();
                let mut app = App::scanning(args.clone(), options(), tx);
                app.resize(120, 36);
                let mut term = Terminal::new(TestBackend::new(120, 36)).expect("test backend");
                wait_loaded(&mut app, &rx);
                term.draw(|f| frame::draw(f, &app)).expect("draw");
                total += start.elapsed();
                drain(&mut app, &rx);
            }
            total
        });
    });

    // A second start: the token cache is warm, so every level is known without the encoder.
    g.bench_function("every_level_known_warm_cache", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let start = Instant::now();
                let (tx, rx) = mpsc::channel();
                let mut app = App::scanning(args.clone(), options(), tx);
                while !(app.view().loaded() && app.counting.done.iter().all(|d| *d)) {
                    match rx.recv_timeout(Duration::from_secs(30)) {
                        Ok(ev) => app.handle(ev),
                        Err(_) => break,
                    }
                }
                total += start.elapsed();
                drain(&mut app, &rx);
            }
            total
        });
    });

    // One key, update + draw, while a worker counts tokens on every core.
    let lib = args.load();
    let (tx, rx) = mpsc::channel();
    let mut app = App::new(args.clone(), lib, options(), tx);
    app.resize(120, 36);
    drain(&mut app, &rx);
    let busy = Arc::new(AtomicBool::new(true));
    let worker = {
        let busy = Arc::clone(&busy);
        let lib = Arc::clone(&app.lib);
        std::thread::spawn(move || {
            // Counting every level from an empty cache, again and again: the work a first start
            // does in the background, kept going for the whole measurement.
            let texts = listing::entries(&lib, Format::default());
            while busy.load(Ordering::Relaxed) {
                let cache = TokenCache::in_memory();
                std::hint::black_box(tokens::count_library(
                    &lib,
                    &texts,
                    Encoding::O200kBase,
                    &cache,
                ));
            }
        })
    };
    let mut term = Terminal::new(TestBackend::new(120, 36)).expect("test backend");
    let mut down = true;
    g.bench_function("key_while_workers_run", |b| {
        b.iter(|| {
            // Walk the list down and back up so every step selects a new skill (and reads its
            // body for the detail pane).
            if app.screens.skills.list.selected() + 1 >= app.screens.skills.list.rows.len() {
                down = false;
            } else if app.screens.skills.list.selected() == 0 {
                down = true;
            }
            app.handle(key(if down { KeyCode::Down } else { KeyCode::Up }));
            term.draw(|f| frame::draw(f, &app)).expect("draw");
        });
    });
    // One filter keystroke (typing, then erasing, "pdf"), update + draw.
    app.handle(key(KeyCode::Char('/')));
    let typed = ['p', 'd', 'f'];
    let mut step = 0usize;
    g.bench_function("filter_keystroke", |b| {
        b.iter(|| {
            let ev = if step % 6 < 3 {
                key(KeyCode::Char(typed[step % 3]))
            } else {
                key(KeyCode::Backspace)
            };
            step += 1;
            app.handle(ev);
            term.draw(|f| frame::draw(f, &app)).expect("draw");
        });
    });
    busy.store(false, Ordering::Relaxed);
    let _ = worker.join();
    g.finish();
    let _ = std::fs::remove_dir_all(work_dir());
}

criterion_group!(benches, bench);
criterion_main!(benches);
