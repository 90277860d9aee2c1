//! The one event type the app loop reads: input, ticks, worker results and file-system changes
//! all arrive on the same channel.

use crate::core::agents::AgentSwitches;
use crate::core::listing::Listing;
use crate::core::matching::Index;
use crate::core::modes::{Comparison, ListingMode};
use crate::core::probe::ProbeReport;
use crate::core::probe::dependencies::DepsReport;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::watch::Watch;
use crate::core::{Diagnostic, Library};
use ratatui::crossterm::event as ct;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Sender;
use std::time::Duration;

#[derive(Debug)]
pub enum Event {
    Input(ct::Event),
    Tick,
    Job(JobEvent),
    /// Something changed under a watched root (already debounced).
    FsChanged(Vec<PathBuf>),
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
        counts: crate::core::load::LevelCounts,
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
    /// The matchers' index over the library, for the test box.
    Indexed {
        generation: u64,
        index: Arc<Index>,
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
    Switches(Result<(Box<AgentSwitches>, Vec<Diagnostic>), String>),
    /// The file watcher is running (or could not start).
    Watching(Result<Box<Watch>, String>),
    /// The file watcher could not start or lost track of something.
    WatchProblem(String),
    /// A file the app keeps (cache, probe store) could not be used; the message names it.
    Problem(String),
}

/// Reads terminal input on its own thread and forwards it; sends a tick when idle so the loop
/// can animate progress. Ends when the receiver is gone.
pub fn spawn_input(tx: Sender<Event>, tick: Duration) {
    std::thread::spawn(move || {
        loop {
            let ev = match ct::poll(tick) {
                Ok(true) => match ct::read() {
                    Ok(e) => Event::Input(e),
                    Err(_) => break,
                },
                Ok(false) => Event::Tick,
                Err(_) => break,
            };
            if tx.send(ev).is_err() {
                break;
            }
        }
    });
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
}
