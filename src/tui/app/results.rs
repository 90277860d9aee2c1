//! Worker results arriving on the event channel: a new library, diagnostics, counts, the
//! preview, the index, probe verdicts, the agents' settings and the watcher.

use super::{App, Counting, list};
use crate::core::diagnostic::Counts;
use crate::tui::event::{JobEvent, LevelCounts};
use std::sync::Arc;

impl App {
    pub(super) fn on_job(&mut self, job: JobEvent) {
        match job {
            JobEvent::Rescanned(lib) => {
                self.rescanning = false;
                self.set_library(*lib);
                if std::mem::take(&mut self.rescan_again) {
                    self.request_rescan();
                }
            }
            JobEvent::Checked {
                generation,
                profile,
                body,
                diagnostics,
            } => {
                // A frontmatter-only result never replaces a complete one.
                if generation != self.generation
                    || profile != self.profile
                    || (self.checked && !body)
                {
                    return;
                }
                self.diag_counts = diagnostics.iter().map(Counts::of).collect();
                self.diags = diagnostics;
                self.checked = body;
                if self.list.sort == list::Sort::Diagnostics {
                    self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
                    self.after_move();
                }
            }
            JobEvent::Counted { generation, counts } => {
                if generation == self.generation {
                    self.on_counted(counts);
                }
            }
            JobEvent::CountProgress {
                generation,
                level,
                done,
                total,
            } => {
                if generation == self.generation && !self.levels_done.iter().all(|d| *d) {
                    self.counting = Some(Counting { level, done, total });
                }
            }
            JobEvent::Previewed { request, preview } => {
                self.preview_running = false;
                if request == self.preview_request {
                    self.preview = Some(*preview);
                }
                if std::mem::take(&mut self.preview_dirty) {
                    self.request_preview();
                }
            }
            JobEvent::Indexed { generation, index } => {
                if generation == self.generation {
                    self.index = Some(index);
                    self.run_matchers();
                }
            }
            JobEvent::Probed {
                generation,
                report,
                schema_tokens,
            } => {
                if generation != self.generation {
                    return;
                }
                if let Some(i) = self.lib.skills.iter().position(|s| s.dir == report.dir)
                    && let Some(c) = self.costs.get_mut(i)
                {
                    c.schema = schema_tokens;
                }
                if let Some(run) = &mut self.checks.run {
                    run.done += 1;
                }
                self.checks.reports.insert(report.dir.clone(), *report);
            }
            JobEvent::ProbesDone { generation } => {
                if generation != self.generation {
                    return;
                }
                let failed = self
                    .checks
                    .rows
                    .iter()
                    .filter_map(|i| self.checks.report_for(&self.lib, *i))
                    .filter(|r| r.probe_failed())
                    .count();
                self.checks.run = None;
                let n = self.checks.rows.len();
                self.set_status(
                    format!("probed {n} executable skills: {failed} failed"),
                    failed > 0,
                );
            }
            JobEvent::Switches(result) => match result {
                Ok((switches, diags)) => {
                    if let Some(d) = diags.first() {
                        self.set_status(d.message.clone(), true);
                    }
                    self.switches = Some(Arc::new(*switches));
                }
                Err(e) => self.set_status(e, true),
            },
            JobEvent::Watching(res) => match res {
                Ok(w) => {
                    if let Some(p) = w.problems.first() {
                        self.set_status(format!("not watching every folder: {p}"), true);
                    }
                    self.watch = Some(*w);
                }
                Err(e) => self.set_status(e, true),
            },
            JobEvent::Problem(e) => self.set_status(e, true),
            JobEvent::WatchProblem(e) => {
                self.set_status(format!("file watcher: {e}"), true);
                self.request_rescan();
            }
        }
    }

    pub(super) fn on_counted(&mut self, counts: LevelCounts) {
        let widen = |v: &Option<u32>| v.map(u64::from);
        match counts {
            LevelCounts::L1(v) => {
                for (c, n) in self.costs.iter_mut().zip(&v) {
                    c.l1 = widen(n);
                }
                self.levels_done[0] = true;
            }
            LevelCounts::L2(v) => {
                for (c, n) in self.costs.iter_mut().zip(&v) {
                    c.l2 = widen(n);
                }
                self.levels_done[1] = true;
            }
            LevelCounts::L3 { resources, schemas } => {
                for ((c, r), schema) in self.costs.iter_mut().zip(&resources).zip(&schemas) {
                    c.l3 = Some(u64::from(crate::core::tokens::l3_total(r)));
                    // A probe of this session is newer than the remembered one.
                    if c.schema.is_none() {
                        c.schema = schema.map(u64::from);
                    }
                }
                self.resource_tokens = resources;
                self.levels_done[2] = true;
            }
        }
        if self.levels_done.iter().all(|d| *d) {
            self.counting = None;
            if !self.checked {
                self.run_checks(true);
            }
        }
        if self.list.sort == list::Sort::Cost {
            self.list.refresh(&self.lib, &self.costs, &self.diag_counts);
            self.after_move();
        }
    }
}
