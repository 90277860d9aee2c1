//! What the app waits for from its workers, one small state each: the prompt preview (one run
//! at a time, the newest request waiting, as for the agents' prices), the matchers' index, the
//! counts, the rescan and the file watcher.

use crate::core::files::watch::Watch;
use crate::core::front::load::LibrarySpec;
use crate::core::matching::Index;
use crate::core::skill::Level;
use crate::core::tokens::Progress;
use crate::tui::event::Preview;
use crate::tui::wrapped::WrapCache;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a one-at-a-time worker is: a request made while one runs waits for it, and the newest
/// of them is all that runs next.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Run {
    #[default]
    Idle,
    Running,
    /// Something changed while it ran: run again when it is in.
    RunningThenAgain,
}

/// A worker whose one result the app shows: the request it is on, whether it runs, and whether
/// what it showed went out of date while its screen was not shown.
#[derive(Debug, Default)]
pub struct Job {
    request: u64,
    run: Run,
    /// Something changed while its screen was not shown: run when it is.
    stale: bool,
}

impl Job {
    /// What it shows is out of date; it runs again when its screen is shown.
    pub fn mark_stale(&mut self) {
        self.stale = true;
    }

    pub fn is_stale(&self) -> bool {
        self.stale
    }

    /// Starts a run: the request id to start it with, or `None` when one is running (which
    /// then runs again once it is in).
    pub fn start(&mut self) -> Option<u64> {
        if self.run != Run::Idle {
            self.run = Run::RunningThenAgain;
            return None;
        }
        self.stale = false;
        self.run = Run::Running;
        self.request += 1;
        Some(self.request)
    }

    /// The run for `request` is in: whether its result is the newest asked for, and whether to
    /// run again.
    pub fn finish(&mut self, request: u64) -> (bool, bool) {
        let again = self.run == Run::RunningThenAgain;
        self.run = Run::Idle;
        (request == self.request, again)
    }

    /// How many runs were started so far.
    pub fn started(&self) -> u64 {
        self.request
    }

    /// No run is under way or waiting.
    pub fn idle(&self) -> bool {
        self.run == Run::Idle
    }
}

/// The prompt preview's listing, for the current toggles and settings. Rendered only for the
/// Prompt screen: at 50,000 skills a listing is tens of megabytes.
#[derive(Debug, Default)]
pub struct PreviewJob {
    pub shown: Option<Preview>,
    /// The listing wrapped to the width it is shown at.
    pub wrap: WrapCache,
    pub job: Job,
}

impl PreviewJob {
    /// The preview shown is the one for the current toggles and settings (off the Prompt
    /// screen, `screen`, none is made: nothing runs).
    pub fn settled(&self, screen: crate::tui::action::Screen) -> bool {
        self.job.idle()
            && (screen != crate::tui::action::Screen::Prompt
                || (self.shown.is_some() && !self.job.is_stale()))
    }

    /// A rendered preview for `request`; `true`: render again (something changed meanwhile).
    pub fn arrived(&mut self, request: u64, preview: Preview) -> bool {
        let (newest, again) = self.job.finish(request);
        if newest {
            self.shown = Some(preview);
            self.wrap.clear();
        }
        again
    }

    /// How many screen rows the listing takes wrapped to `width` columns.
    pub fn rows(&self, width: usize) -> usize {
        self.shown
            .as_ref()
            .map_or(0, |p| self.wrap.get(&p.listing.text, width).rows())
    }
}

/// The matchers' index of the current library: built only when the Test box needs it (its
/// screen is shown, or it holds a message).
#[derive(Debug, Default)]
pub enum MatcherIndex {
    #[default]
    Missing,
    Building,
    Ready(Arc<Index>),
}

impl MatcherIndex {
    pub fn get(&self) -> Option<&Arc<Index>> {
        match self {
            MatcherIndex::Ready(i) => Some(i),
            _ => None,
        }
    }

    pub fn building(&self) -> bool {
        matches!(self, MatcherIndex::Building)
    }
}

/// The counting of the current library's levels.
#[derive(Debug, Default)]
pub struct Counting {
    /// Which levels are counted (L1, L2, L3).
    pub done: [bool; 3],
    /// How far the level being counted is, while one is.
    pub progress: Option<Progress>,
    /// The matchers' index, the composite links, the prompt preview and the file watcher of a
    /// new library wait until its levels are counted: the first screen shows the counts, and
    /// the cores are few.
    waiting: bool,
    /// Stops for the counting runs under way: every level of the library, and the L1 recount a
    /// format change started. A new run of either kind stops the one it replaces.
    stops: [Arc<AtomicBool>; 2],
}

impl Counting {
    /// Every level of a new library is to be counted, and what waits for the counts waits.
    pub fn new_library(&mut self) {
        self.done = [false; 3];
        self.waiting = true;
    }

    /// The stop of a new run counting `levels`, having stopped the run it replaces (every level
    /// or an L1 recount; a new library stops both).
    pub fn start(&mut self, levels: &[Level]) -> Arc<AtomicBool> {
        let slot = usize::from(levels == [Level::L1]);
        if slot == 0 {
            self.stops[1].store(true, Ordering::Relaxed);
        }
        self.stops[slot].store(true, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        self.stops[slot] = Arc::clone(&stop);
        stop
    }

    /// L1 is to be counted again (its listing format changed).
    pub fn recount_l1(&mut self) {
        self.done[0] = false;
    }

    /// `level` is counted; `true` when every level is.
    pub fn counted(&mut self, level: Level) -> bool {
        self.done[match level {
            Level::L1 => 0,
            Level::L2 => 1,
            Level::L3 => 2,
        }] = true;
        if self.all_done() {
            self.progress = None;
        }
        self.all_done()
    }

    pub fn all_done(&self) -> bool {
        self.done.iter().all(|d| *d)
    }

    /// Whether what waited for the counts still waits.
    pub fn waiting(&self) -> bool {
        self.waiting
    }

    /// Ends the wait: `true` the first time only.
    pub fn end_wait(&mut self) -> bool {
        std::mem::take(&mut self.waiting)
    }
}

/// The library read again on a worker: one at a time, a change during one asking for another.
#[derive(Debug)]
pub struct Rescan {
    /// Which skills to read (again on a rescan).
    pub spec: LibrarySpec,
    running: bool,
    /// A change arrived while a rescan ran: scan again when it ends.
    again: bool,
}

impl Rescan {
    pub fn new(spec: LibrarySpec) -> Rescan {
        Rescan {
            spec,
            running: false,
            again: false,
        }
    }

    /// `true`: start one now; else one runs and another follows it.
    pub fn start(&mut self) -> bool {
        if self.running {
            self.again = true;
            return false;
        }
        self.running = true;
        true
    }

    /// The rescan is in: `true` when another was asked for meanwhile.
    pub fn finish(&mut self) -> bool {
        self.running = false;
        std::mem::take(&mut self.again)
    }

    pub fn running(&self) -> bool {
        self.running
    }
}

/// The file watcher over the library's roots, started once the first screen is complete.
#[derive(Debug)]
pub enum Watching {
    /// Not wanted (tests that want a still library), or it could not start.
    Off,
    /// Wanted, not started yet.
    Wanted,
    /// A worker is adding the watches.
    Starting,
    On(Watch),
}

impl Watching {
    /// The watcher is running.
    pub fn is_on(&self) -> bool {
        matches!(self, Watching::On(_))
    }

    pub fn new(wanted: bool) -> Watching {
        if wanted {
            Watching::Wanted
        } else {
            Watching::Off
        }
    }
}

/// The semantic matchers' vectors in the app.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Embedding {
    /// No index yet.
    #[default]
    Waiting,
    /// Fields embedded of those the library index did not remember (0 of 0 while it is read).
    Running {
        done: usize,
        total: usize,
    },
    Done,
    /// The model could not run: what it said.
    Failed(String),
}
