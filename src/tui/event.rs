//! The one event type the app loop reads: input, ticks, worker results and file-system changes
//! all arrive on the same channel.

use crate::core::agents::AgentSwitches;
use crate::core::listing::Listing;
use crate::core::matching::Index;
use crate::core::probe::ProbeReport;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::tokens::ResourceTokens;
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
    /// Token counts of one level for every skill, index-aligned with the library.
    Counted {
        generation: u64,
        counts: LevelCounts,
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
    /// One skill's `--help-json` probe finished.
    Probed {
        generation: u64,
        report: Box<ProbeReport>,
        /// Tokens of the tool schema it answered with (part of L3).
        schema_tokens: Option<u64>,
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

/// One level's counts.
#[derive(Debug)]
pub enum LevelCounts {
    L1(Vec<Option<u32>>),
    L2(Vec<Option<u32>>),
    /// Each skill's resources with their counts, and the tokens of the tool schema its last
    /// passing probe (remembered on disk) answered with.
    L3 {
        resources: Vec<Vec<ResourceTokens>>,
        schemas: Vec<Option<u32>>,
    },
}

/// A rendered listing and its token count.
#[derive(Debug, Clone)]
pub struct Preview {
    pub listing: Listing,
    pub tokens: u32,
}
