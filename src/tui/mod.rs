//! The terminal app: one event channel, an update function, pure draw functions.

pub mod action;
pub(crate) mod answers;
pub mod app;
pub mod event;
pub(crate) mod external;
pub mod frame;
pub(crate) mod jobs;
pub mod keymap;
pub(crate) mod layout;
pub mod screens;
pub mod settings;
pub mod state;
pub mod theme;
pub mod view;
pub mod wrapped;

use crate::core::front::load::LibrarySpec;
use anyhow::Context as _;
use app::{App, Options};
use event::Event;
use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

pub use app::App as TuiApp;

/// How often the input thread sends a tick when nothing happens (drives progress spinners).
const TICK: Duration = Duration::from_millis(200);
/// The longest the loop handles waiting events before drawing again.
const FRAME: Duration = Duration::from_millis(16);

/// When the process started (as seen by `main`), for the start-up report below.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Notes the start of the process, for `SKILLSCOPE_START_REPORT`.
pub fn note_process_start() {
    let _ = STARTED.set(std::time::Instant::now());
}

/// With `SKILLSCOPE_START_REPORT=FILE`, the app appends to FILE, once, the milliseconds from the
/// start of the process to the end of the first frame drawn with the library's every level
/// counted: a benchmark's figure without a terminal emulator's or a poller's latency in it. With
/// `SKILLSCOPE_START_REPORT_QUIT=1` too, the app quits right after writing it, so that a whole
/// run (`perf stat`, say) is one start and nothing after.
struct StartReport {
    path: Option<std::path::PathBuf>,
    quit: bool,
}

impl StartReport {
    fn from_env() -> StartReport {
        StartReport {
            path: std::env::var_os("SKILLSCOPE_START_REPORT").map(Into::into),
            quit: std::env::var_os("SKILLSCOPE_START_REPORT_QUIT").is_some_and(|v| v == "1"),
        }
    }

    /// After a frame: writes the report if `app` has every level drawn, once. True when the
    /// app is to quit now (the report written, and asked to).
    fn after_frame(&mut self, app: &App) -> bool {
        if !(app.view().loaded() && app.counting.done.iter().all(|d| *d)) {
            return false;
        }
        let (Some(path), Some(started)) = (self.path.take(), STARTED.get()) else {
            return false;
        };
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        let line = format!(
            "{ms:.1} ms to every level on screen, {} skills\n",
            app.lib.len()
        );
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, line.as_bytes()));
        self.quit
    }
}

/// Runs the app until the user quits. The terminal is restored on every way out, panics
/// included.
pub fn run(spec: LibrarySpec, opts: Options) -> anyhow::Result<()> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "the terminal app needs a terminal; for output to a file or a pipe use a subcommand \
             (skillscope list, check, budget, prompt, …; skillscope --help)"
        );
    }
    // A termination signal quits the way `q` does, so running probes are stopped and reaped
    // (see `Checks`) instead of outliving the app.
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        #[cfg(unix)]
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
    ] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .context("cannot install the signal handler")?;
    }
    let (tx, rx) = mpsc::channel();
    let opts = Options {
        key_log: std::env::var_os("SKILLSCOPE_KEY_LOG").map(Into::into),
        ..opts
    };
    let mut app = App::scanning(spec, opts, tx.clone());
    install_panic_hook();
    let mut terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            // Undo whatever part of the set-up succeeded.
            restore();
            return Err(e).context("cannot set up the terminal");
        }
    };
    // Without mouse capture the app still works; the wheel then scrolls the terminal.
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let result = run_loop(&mut terminal, &mut app, &rx, tx, &stop);
    restore();
    app.on_exit();
    // The process ends right after: freeing a library of thousands of skills piece by piece
    // costs milliseconds and returns nothing useful, so the library is never freed.
    std::mem::forget(Arc::clone(&app.lib));
    result
}

fn run_loop(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    rx: &mpsc::Receiver<Event>,
    tx: mpsc::Sender<Event>,
    stop: &AtomicBool,
) -> anyhow::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let gate = Arc::new(event::InputGate::default());
    event::spawn_input(tx, TICK, Arc::clone(&gate));
    let mut report = StartReport::from_env();
    app.requests.frame_before_workers = true;
    loop {
        if let Some(req) = app.requests.edit.take() {
            edit(terminal, app, &gate, &req)?;
        }
        if let Some(text) = app.requests.clipboard.take() {
            use std::io::Write;
            let mut out = std::io::stdout();
            let _ = out
                .write_all(external::osc52(&text).as_bytes())
                .and_then(|()| out.flush());
        }
        if std::mem::take(&mut app.requests.redraw) {
            repaint(terminal)?;
        }
        terminal.draw(|f| frame::draw(f, app))?;
        if report.after_frame(app) {
            return Ok(());
        }
        app.frame_drawn();
        // A tick's wait at most, so a signal or a hung-up terminal is noticed even when no event
        // comes: on some hang-ups the input thread is stuck inside crossterm and sends nothing.
        match rx.recv_timeout(TICK) {
            Ok(ev) => app.handle(ev),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        }
        // Take what is already waiting before drawing again, so a burst of worker results or
        // key repeats costs one frame; but draw at least once a frame's time, so a steady stream
        // of events (results arriving one after another) never holds the screen back.
        let frame = std::time::Instant::now();
        while frame.elapsed() < FRAME {
            let Ok(ev) = rx.try_recv() else { break };
            app.handle(ev);
            if app.requests.quit {
                break;
            }
        }
        if app.requests.quit || stop.load(Ordering::Relaxed) || event::terminal_gone() {
            return Ok(());
        }
    }
}

/// Clears the screen and forgets both frames, so the next draw paints every cell: what another
/// program wrote over the app (a background job's output, a `wall` message) is gone.
fn repaint(terminal: &mut DefaultTerminal) -> anyhow::Result<()> {
    use ratatui::crossterm::terminal::{self as term, ClearType};
    execute!(std::io::stdout(), term::Clear(ClearType::All))?;
    // (`Terminal::clear` would ask the terminal where its cursor is, which not all answer.)
    terminal.current_buffer_mut().reset();
    terminal.swap_buffers();
    Ok(())
}

/// Opens a file in the user's editor: the app steps aside (normal screen, cooked mode, no mouse,
/// its input thread paused so every key goes to the editor), waits for it, and takes the
/// terminal back whole, then reads the library again.
fn edit(
    terminal: &mut DefaultTerminal,
    app: &mut App,
    gate: &event::InputGate,
    req: &external::EditRequest,
) -> anyhow::Result<()> {
    gate.pause(TICK);
    restore();
    let editor = external::editor();
    let result = external::run_editor(&editor, req);
    use ratatui::crossterm::terminal::{self as term, ClearType};
    let back = term::enable_raw_mode().and_then(|()| {
        execute!(
            std::io::stdout(),
            term::EnterAlternateScreen,
            term::Clear(ClearType::All)
        )
    });
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    gate.resume();
    back.context("cannot take the terminal back after the editor")?;
    // The screen is blank: both frames are forgotten, so the next draw paints every cell.
    // (`Terminal::clear` would ask the terminal where its cursor is, which not all answer.)
    terminal.current_buffer_mut().reset();
    terminal.swap_buffers();
    app.edited(&editor, req, result);
    Ok(())
}

fn restore() {
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
}

/// Restores the terminal before the default hook prints the panic, so the message is readable
/// and the shell is usable afterwards.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}
