//! The one event type the app loop reads: input, ticks, worker results and file-system changes
//! all arrive on the same channel.

use crate::core::agents::AgentSwitches;
use crate::core::files::watch::Watch;
use crate::core::listing::Listing;
use crate::core::matching::Index;
use crate::core::pricing::modes::{Comparison, ListingMode};
use crate::core::probe::ProbeReport;
use crate::core::probe::dependencies::DepsReport;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::{Diagnostic, Library};
use ratatui::crossterm::event as ct;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

#[derive(Debug)]
pub enum Event {
    Input(ct::Event),
    Tick,
    Job(JobEvent),
    /// Something changed under a watched root (already debounced).
    FsChanged(Vec<PathBuf>),
    /// An agent's settings file changed on disk (already debounced).
    SettingsChanged,
    /// The terminal can no longer be read (closed, hung up): the app quits.
    InputGone,
}

/// A result or progress report from a worker. Results carry the generation of the library they
/// were computed from; results of an older library are dropped.
#[derive(Debug)]
pub enum JobEvent {
    Rescanned(Box<Library>),
    /// Every skill's diagnostics under a profile, index-aligned with the library.
    Checked {
        generation: u64,
        profile: Profile,
        /// The body rules ran too (else only the frontmatter rules).
        body: bool,
        diagnostics: Vec<Vec<Diagnostic>>,
    },
    /// Token counts of one level for every skill, index-aligned with the library, tagged with
    /// what they count: L1 depends on the listing format, every level on the encoding.
    Counted {
        generation: u64,
        format: crate::core::listing::Format,
        encoding: crate::core::tokens::Encoding,
        counts: crate::core::front::load::LevelCounts,
    },
    /// How far counting has come.
    CountProgress {
        generation: u64,
        level: Level,
        done: usize,
        total: usize,
    },
    /// The listing for the prompt preview, with its token count.
    Previewed {
        request: u64,
        preview: Box<Preview>,
    },
    /// Every agent's listing priced, for the Budget screen.
    AgentBudgets {
        request: u64,
        budgets: Vec<crate::core::agents::budget::AgentBudget>,
    },
    /// One agent's view of the library and its index, for the Test box.
    AgentIndexed(Arc<crate::tui::answers::AgentIndex>),
    /// What the Test box's message injects for the chosen agent.
    Injected {
        request: u64,
        injection: Box<crate::tui::answers::Injection>,
    },
    /// The Test box's semantic and hybrid columns for one question (a message over one index).
    MatchedByMeaning {
        request: u64,
        question: Box<crate::tui::answers::Question>,
        columns: crate::tui::answers::Columns,
    },
    /// The matchers' index over the library, for the test box.
    Indexed {
        generation: u64,
        index: Arc<Index>,
    },
    /// How far the skills' sentence vectors have come (fields embedded of those missing).
    EmbedProgress {
        generation: u64,
        done: usize,
        total: usize,
    },
    /// The skills' sentence vectors are in the index (or the model could not run).
    Embedded {
        generation: u64,
        result: Result<(), String>,
    },
    /// For each composite skill, the skills its body names (index-aligned with the library).
    Linked {
        generation: u64,
        links: Vec<Vec<usize>>,
    },
    /// One skill's `--help-json` probe finished.
    Probed {
        generation: u64,
        report: Box<ProbeReport>,
        /// Tokens of the tool schema it answered with (part of L3).
        schema_tokens: Option<u32>,
    },
    /// One skill's declared dependencies were checked.
    DepsChecked {
        generation: u64,
        skill: usize,
        report: Box<DepsReport>,
    },
    /// Every dependency check has finished (or was cancelled).
    DepsDone {
        generation: u64,
        checked: usize,
    },
    /// Every probe asked for has finished (or was cancelled).
    ProbesDone {
        generation: u64,
    },
    /// The agents' settings files, read (again).
    Switches {
        /// What a view depends on of the agents' settings (each client's model and budget).
        settings: Box<crate::core::front::request::ViewSettings>,
        result: Result<(Box<AgentSwitches>, Vec<Diagnostic>), String>,
    },
    /// The file watcher is running (or could not start).
    Watching(Result<Box<Watch>, String>),
    /// The file watcher could not start or lost track of something.
    WatchProblem(String),
    /// A file the app keeps (cache, probe store) could not be used; the message names it.
    Problem(String),
    /// A source of the Add flow, fetched and priced (or why not).
    AddPlanned(u64, Result<Box<crate::core::manage::Plan>, String>),
    /// The Add flow's skills were installed (their folders), or why not.
    AddInstalled(u64, Result<Vec<String>, String>),
    /// Which added skills have updates in their sources.
    UpdatesChecked(Result<Vec<String>, String>),
}

/// Lets the app take the terminal's input back from the input thread while another program
/// (the editor) has the terminal: a paused thread reads nothing, so every key goes to that
/// program.
#[derive(Debug, Default)]
pub struct InputGate {
    paused: AtomicBool,
    parked: AtomicBool,
}

impl InputGate {
    /// Stops the input thread reading, and waits (a tick at most, as it polls) until it has.
    pub fn pause(&self, tick: Duration) {
        self.paused.store(true, Ordering::SeqCst);
        let until = std::time::Instant::now() + tick * 3;
        while !self.parked.load(Ordering::SeqCst) && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}

/// Reads terminal input on its own thread and forwards it; sends a tick when idle so the loop
/// can animate progress. Ends when the receiver is gone, or after saying the input is gone.
///
/// The loop does not rely on this thread to notice a closed terminal: on some hang-ups
/// crossterm's `poll` never returns. [`terminal_gone`] is the loop's own check.
pub fn spawn_input(tx: Sender<Event>, tick: Duration, gate: Arc<InputGate>) {
    std::thread::spawn(move || {
        loop {
            if gate.paused.load(Ordering::SeqCst) {
                gate.parked.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            gate.parked.store(false, Ordering::SeqCst);
            let ev = match ct::poll(tick) {
                Ok(true) => match ct::read() {
                    Ok(e) => Event::Input(e),
                    Err(_) => Event::InputGone,
                },
                Ok(false) => Event::Tick,
                Err(_) => Event::InputGone,
            };
            let gone = matches!(ev, Event::InputGone);
            if tx.send(ev).is_err() || gone {
                break;
            }
        }
    });
}

/// Whether the terminal on standard input or output has hung up or gone: the kernel reports
/// `POLLHUP`, `POLLERR` or `POLLNVAL` on it. Asks without waiting and without reading. (Windows
/// has no such report: a console that goes ends the process.)
#[cfg(not(unix))]
pub fn terminal_gone() -> bool {
    false
}

/// Whether the terminal on standard input or output has hung up or gone: the kernel reports
/// `POLLHUP`, `POLLERR` or `POLLNVAL` on it. Asks without waiting and without reading.
#[cfg(unix)]
pub fn terminal_gone() -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let mut fds = [
        PollFd::new(stdin.as_fd(), PollFlags::empty()),
        PollFd::new(stdout.as_fd(), PollFlags::empty()),
    ];
    match poll(&mut fds, PollTimeout::ZERO) {
        Ok(0) => false,
        Ok(_) => {
            let bad = PollFlags::POLLHUP | PollFlags::POLLERR | PollFlags::POLLNVAL;
            fds.iter()
                .any(|f| f.revents().is_some_and(|r| r.intersects(bad)))
        }
        // Interrupted (a signal): the caller asks again on its next turn.
        Err(_) => false,
    }
}

/// A rendered listing and its token count, with what every listing mode costs.
#[derive(Debug, Clone)]
pub struct Preview {
    /// The listing of `mode` (empty for `auto` without a message).
    pub listing: Listing,
    pub tokens: u32,
    pub mode: ListingMode,
    /// Each mode's cost side by side (`auto` only when there was a message).
    pub comparison: Comparison,
    /// The message `auto` judged relevance by.
    pub message: Option<String>,
    /// What the agent's client lists of its own accord, within `tokens`.
    pub supplied: crate::core::agents::budget::Supplied,
    /// The skill tool its client declares beside the listing every turn.
    pub tool: Option<crate::core::agents::budget::ToolCost>,
    /// What the agent's client may order or pick otherwise, by the index of each skill of the
    /// library it concerns (`Listing::client_choices`).
    pub choices: std::collections::BTreeMap<usize, String>,
}
