//! The state of the Checks screen: which executable skills there are, what their probes said,
//! and the run in progress.

use crate::core::probe::dependencies::DepsReport;
use crate::core::probe::{ProbeReport, SandboxPreference};
use crate::core::{Library, SkillKind};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long leaving the app may wait for stopped probes to be killed, reaped and their
/// temporary folders removed. A cancelled probe ends within milliseconds; the bound is for a
/// process stuck in the kernel.
const STOP_WAIT: Duration = Duration::from_secs(3);

#[derive(Debug, Default)]
pub struct Checks {
    /// Library indices of the executable skills, by name.
    pub rows: Vec<usize>,
    pub selected: usize,
    /// The latest report per skill folder; kept across rescans.
    pub reports: HashMap<PathBuf, ProbeReport>,
    /// The latest dependency check per skill folder; kept across rescans.
    pub deps: HashMap<PathBuf, DepsReport>,
    pub run: Option<Run>,
    /// Runs stopped before they ended (a rescan), still killing their probes.
    pub stopping: Vec<JoinHandle<()>>,
    /// Which sandbox probes ask for.
    pub sandbox: SandboxPreference,
}

/// A probe run in progress.
#[derive(Debug)]
pub struct Run {
    pub total: usize,
    pub done: usize,
    pub cancel: Arc<AtomicBool>,
    /// The worker running the probes; it ends once every probe is killed and reaped.
    pub worker: Option<JoinHandle<()>>,
    /// The run checks declared dependencies rather than `--help-json`.
    pub deps: bool,
}

/// Leaving the app (quit, Ctrl-C, a panic unwinding) stops every probe and waits until they are
/// killed and reaped and their temporary folders removed, so none outlives the app.
impl Drop for Checks {
    fn drop(&mut self) {
        self.stop();
        let until = Instant::now() + STOP_WAIT;
        for worker in self.stopping.drain(..) {
            while !worker.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
            if worker.is_finished() {
                let _ = worker.join();
            }
        }
    }
}

impl Checks {
    pub fn new(sandbox: SandboxPreference) -> Checks {
        Checks {
            rows: Vec::new(),
            selected: 0,
            reports: HashMap::new(),
            deps: HashMap::new(),
            run: None,
            stopping: Vec::new(),
            sandbox,
        }
    }

    pub fn refresh(&mut self, lib: &Library) {
        let keep = self
            .rows
            .get(self.selected)
            .and_then(|i| lib.skills.get(*i))
            .map(|s| s.dir.clone());
        let mut rows: Vec<usize> = lib
            .skills
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                s.kind() == SkillKind::Executable
                    || s.frontmatter.get("dependencies").is_some()
                    || self.deps.contains_key(&s.dir)
            })
            .map(|(i, _)| i)
            .collect();
        rows.sort_by(|a, b| {
            (&lib.skills[*a].name, &lib.skills[*a].dir)
                .cmp(&(&lib.skills[*b].name, &lib.skills[*b].dir))
        });
        self.rows = rows;
        self.selected = keep
            .and_then(|d| self.rows.iter().position(|i| lib.skills[*i].dir == d))
            .unwrap_or(0);
    }

    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    pub fn cancel(&self) {
        if let Some(r) = &self.run {
            r.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Cancels the run in progress and forgets it; its worker is kept until it has finished.
    pub fn stop(&mut self) {
        self.cancel();
        if let Some(worker) = self.run.take().and_then(|r| r.worker) {
            self.stopping.push(worker);
        }
        self.stopping.retain(|w| !w.is_finished());
    }

    /// Adds a skill whose dependencies were checked to the rows (a `requirements.txt` is only
    /// found by the check), keeping the order by name.
    pub fn add_row(&mut self, lib: &Library, skill: usize) {
        if self.rows.contains(&skill) || skill >= lib.skills.len() {
            return;
        }
        let keep = self.rows.get(self.selected).copied();
        self.rows.push(skill);
        self.rows.sort_by(|a, b| {
            (&lib.skills[*a].name, &lib.skills[*a].dir)
                .cmp(&(&lib.skills[*b].name, &lib.skills[*b].dir))
        });
        if let Some(k) = keep.and_then(|k| self.rows.iter().position(|r| *r == k)) {
            self.selected = k;
        }
    }

    pub fn deps_for(&self, lib: &Library, skill: usize) -> Option<&DepsReport> {
        lib.skills.get(skill).and_then(|s| self.deps.get(&s.dir))
    }

    pub fn report_for(&self, lib: &Library, skill: usize) -> Option<&ProbeReport> {
        lib.skills.get(skill).and_then(|s| self.reports.get(&s.dir))
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.rows.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }
}
