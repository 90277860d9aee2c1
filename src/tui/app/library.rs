//! A new library and what follows it: the rules, the counts, the links and the watcher on
//! workers, the agents' settings as read, and reading the library again.

use super::{App, Embedding, FORMATS, MatcherIndex, TestBox, Usage, Watching};
use crate::core::Library;
use crate::core::agents::{self, AgentSwitches};
use crate::core::files::watch::{self, Change};
use crate::core::front::request::ViewSettings;
use crate::core::front::state;
use crate::core::pricing::usage;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::tokens::SkillTokens;
use crate::tui::action::Screen;
use crate::tui::event::{Event, JobEvent};
use crate::tui::jobs;
use crate::tui::state::in_view::ViewChange;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

impl App {
    /// Replaces the library (first load or rescan), keeping the selection on the same folder.
    pub fn set_library(&mut self, lib: Library) {
        let keep = self.screens.skills.list.selected_dir(&self.lib);
        // What waited to follow the old library's counts belongs to it.
        self.requests.after_counts = false;
        // Results of a running probe belong to the old library: stop it.
        self.screens.checks.stop();
        let n = lib.skills.len();
        if !lib.notes.is_empty() {
            self.set_status(lib.notes.join("; "), true);
        }
        self.generation += 1;
        self.findings.per_agent = crate::core::rules::has_agent_skills(&lib);
        self.switches.agent_readers = lib.skills.iter().any(|s| !agents::readers(s).is_empty());
        self.lib = Arc::new(lib);
        // A library of the agents' own folders is seen through one agent.
        // (A few agents among thousands of skills: gathered in a list, hashed once each.)
        let mut found: Vec<crate::core::Agent> = Vec::new();
        for a in self.lib.skills.iter().flat_map(agents::model::readers) {
            if !found.contains(&a) {
                found.push(a);
            }
        }
        let readers: std::collections::HashSet<crate::core::Agent> = found.into_iter().collect();
        let roots = &self.lib.roots;
        let offered = |a| agents::model::offered_unasked(a, roots);
        let chosen = self
            .in_view
            .choose(self.findings.per_agent, &readers, &offered);
        if chosen.is_some() {
            self.screens.prompt.follow_agent(chosen);
        }
        // The counts start as soon as the listing format is settled (by the agent chosen): they
        // run on the workers while this thread works out the rest.
        self.costs = vec![SkillTokens::default(); n];
        self.counting.new_library();
        self.start_counting(&[Level::L1, Level::L2, Level::L3]);
        let lib = &self.lib;
        self.findings.set(
            lib.skills
                .iter()
                .map(crate::core::skill::Skill::parse_findings)
                .collect(),
        );
        self.findings.checked = false;
        if !self.findings.chosen {
            self.findings.profile = Profile::fitting(lib);
        }
        self.switches.enabled = match &self.switches.state {
            Some(st) => lib.skills.iter().map(|s| st.is_enabled(s)).collect(),
            None => lib.skills.iter().map(|s| state::default_for(s).0).collect(),
        };
        debug_assert_eq!(self.switches.enabled.len(), n);
        self.refresh_seen();
        self.screens.skills.list.invalidate();
        self.screens
            .skills
            .list
            .refresh(&self.lib, &self.costs, &self.findings.counts);
        self.screens
            .skills
            .list
            .select_dir(&self.lib, keep.as_deref());
        self.screens.checks.refresh(&self.lib);
        self.after_move();
        // The frontmatter rules first, for their findings to show while the counts run; unless
        // the library came whole from its index: its counts are then moments away, and every
        // rule runs once they are in (two workers at once would slow the counts on two cores).
        if !self.lib.from_index() {
            self.run_checks(false);
        }
        self.matching.index = MatcherIndex::Missing;
        self.matching.embedding = Embedding::Waiting;
        self.screens.test.results.clear();
        self.matching.meaning.forget();
        self.usage = Usage::default();
    }

    /// The counts are in: the body rules, unless they ran, and what waited for the counts.
    pub(super) fn after_counts(&mut self) {
        if !self.findings.checked {
            self.run_checks(true);
        }
        self.start_after_counts();
    }

    /// A frame was drawn: what waited for it to follow the counts starts now.
    pub fn frame_drawn(&mut self) {
        if std::mem::take(&mut self.requests.after_counts) {
            self.after_counts();
        }
    }

    /// Starts what waited for the counts of a new library (see [`Counting`]), once.
    pub(super) fn start_after_counts(&mut self) {
        if !self.counting.end_wait() {
            return;
        }
        jobs::links(Arc::clone(&self.lib), self.generation, self.tx.clone());
        self.with_test(TestBox::ensure_index);
        self.request_preview();
        // Watching means a watch on every folder: set up once the first screen is complete.
        if matches!(self.watching, Watching::Wanted) {
            self.start_watch();
        }
    }

    /// Runs the rules on a worker. Without `body` only the frontmatter rules run (fast); the
    /// body rules read every body, so after a new library they wait until the counts are in,
    /// which need the same disk and cores and matter more to the first screen.
    pub(super) fn run_checks(&mut self, body: bool) {
        jobs::check(
            Arc::clone(&self.lib),
            // Until a profile is picked (`P`), each skill is judged by its agent's, as `check`
            // and `list` judge it.
            (
                self.findings.profile,
                self.findings.per_agent && !self.findings.chosen,
            ),
            (self.switches.enabled.clone(), self.switches.agents.clone()),
            (body, self.cache.clone()),
            self.generation,
            self.tx.clone(),
        );
    }

    /// Counts `levels` on a worker, stopping the earlier run of the same kind (every level, or
    /// an L1 recount), whose results would only be thrown away.
    pub(super) fn start_counting(&mut self, levels: &[Level]) {
        let stop = self.counting.start(levels);
        jobs::count(
            Arc::clone(&self.lib),
            self.cache.clone(),
            FORMATS[self.screens.prompt.format],
            levels.to_vec(),
            self.generation,
            stop,
            self.tx.clone(),
        );
    }

    /// Works out every skill's cost when used again from the figures known so far.
    pub fn refresh_used(&mut self) {
        let Some(links) = &self.usage.links else {
            return;
        };
        let levels: Vec<usage::Levels> = self
            .costs
            .iter()
            .map(|c| usage::Levels {
                l1: c.l1.map(u64::from),
                l2: c.l2.map(u64::from),
                schema: c.schema.map(u64::from),
            })
            .collect();
        self.usage.used = usage::costs_when_used(&self.lib, &levels, links);
    }

    /// The agents' switches as just read, with what the views depend on of the same settings:
    /// every view, listing, budget and match that applies them is worked out again, and their
    /// files are watched (again: one may have appeared).
    pub(super) fn on_switches(&mut self, switches: AgentSwitches, settings: ViewSettings) {
        let files = switches.files();
        self.switches.agents = Some(Arc::new(switches));
        self.switches.read += 1;
        let tx = self.tx.clone();
        self.switches.watch = watch::watch_files(&files, Duration::from_millis(250), move |c| {
            if matches!(c, Change::Paths(_)) {
                let _ = tx.send(Event::SettingsChanged);
            }
        })
        .ok();
        self.set_view(ViewChange::Settings(settings));
        if self.screen == Screen::Test {
            self.run_matchers();
        }
    }

    /// Starts the file watcher on a worker: adding a watch for every folder of a big library
    /// takes a while, and the keys must not wait for it.
    pub(super) fn start_watch(&mut self) {
        self.watching = Watching::Starting;
        let tx = self.tx.clone();
        let roots: Vec<PathBuf> = self.lib.roots.iter().map(|r| r.path.clone()).collect();
        std::thread::spawn(move || {
            let events = tx.clone();
            let res = watch::watch(&roots, Duration::from_millis(250), move |change| {
                let ev = match change {
                    Change::Paths(p) => Event::FsChanged(p),
                    Change::Lost(e) => Event::Job(JobEvent::WatchProblem(e.to_string())),
                };
                let _ = events.send(ev);
            });
            let _ = tx.send(Event::Job(JobEvent::Watching(
                res.map(Box::new).map_err(|e| e.to_string()),
            )));
        });
    }

    pub fn request_rescan(&mut self) {
        if !self.rescan.start() {
            return;
        }
        jobs::rescan(
            self.rescan.spec.clone(),
            self.cache.index_store(),
            self.tx.clone(),
        );
    }

    /// L1 is the listing entry, which the format decides: every L1 is counted again.
    pub(super) fn recount_l1(&mut self) {
        self.counting.recount_l1();
        for c in &mut self.costs {
            c.l1 = None;
        }
        self.start_counting(&[Level::L1]);
        self.request_preview();
    }
}
