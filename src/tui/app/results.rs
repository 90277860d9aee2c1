//! Worker results arriving on the event channel: a new library, diagnostics, counts, the
//! preview, the index, probe verdicts, the agents' settings and the watcher.

use super::App;
use crate::core::diagnostic::Counts;
use crate::core::load::LevelCounts;
use crate::core::skill::Level;
use crate::core::tokens::Progress;
use crate::tui::event::JobEvent;
use crate::tui::screens::skills::list;
use std::sync::Arc;

impl App {
    pub(super) fn on_job(&mut self, job: JobEvent) {
        match job {
            JobEvent::AddPlanned(id, plan) => self.on_add_planned(id, plan),
            JobEvent::AddInstalled(id, done) => self.on_add_installed(id, done),
            JobEvent::UpdatesChecked(r) => self.on_updates_checked(r),
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
                if self.skills.list.sort == list::Sort::Diagnostics {
                    let cx = ctx!(self);
                    self.skills.refresh(&cx);
                }
            }
            JobEvent::Counted {
                generation,
                format,
                encoding,
                counts,
            } => {
                // A count of another library, encoding or (for L1) listing format is stale, even
                // when it arrives last.
                let stale = generation != self.generation
                    || encoding != self.encoding()
                    || (counts.level() == Level::L1 && format != self.format());
                if !stale {
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
                    self.counting = Some(Progress { level, done, total });
                }
            }
            JobEvent::Previewed { request, preview } => {
                self.preview_running = false;
                if request == self.preview_request {
                    self.preview = Some(*preview);
                    self.preview_wrap.clear();
                }
                if std::mem::take(&mut self.preview_dirty) {
                    self.request_preview();
                }
            }
            JobEvent::AgentBudgets { request, budgets } => {
                self.agents.running = false;
                if request == self.agents.request {
                    self.agents.budgets = Some(budgets);
                }
                if std::mem::take(&mut self.agents.dirty) {
                    self.request_agent_budgets();
                }
            }
            JobEvent::Indexed { generation, index } => self.on_indexed(generation, index),
            JobEvent::AgentIndexed(built) => self.on_agent_indexed(built),
            JobEvent::Injected { request, injection } => self.on_injected(request, *injection),
            JobEvent::Linked { generation, links } => {
                if generation == self.generation {
                    self.links = Some(links);
                    self.refresh_used();
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
                self.refresh_used();
                if let Some(run) = &mut self.checks.run {
                    run.done += 1;
                }
                self.checks.reports.insert(report.dir.clone(), *report);
            }
            JobEvent::DepsChecked {
                generation,
                skill,
                report,
            } => {
                if generation != self.generation {
                    return;
                }
                if let Some(run) = &mut self.checks.run {
                    run.done += 1;
                    run.total = run.total.max(run.done);
                }
                self.checks.add_row(&self.lib, skill);
                self.checks.deps.insert(report.dir.clone(), *report);
            }
            JobEvent::DepsDone {
                generation,
                checked,
            } => {
                if generation != self.generation {
                    return;
                }
                self.checks.run = None;
                let failed = self.checks.deps.values().filter(|r| r.failed()).count();
                let text = if checked == 0 {
                    "no skill declares dependencies (dependencies: or requirements.txt)".to_string()
                } else {
                    format!(
                        "checked the dependencies of {checked} skills: {failed} with problems; nothing was installed"
                    )
                };
                self.set_status(text, failed > 0);
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
                let n = self
                    .checks
                    .rows
                    .iter()
                    .filter(|&&i| {
                        self.lib
                            .skills
                            .get(i)
                            .is_some_and(|s| s.kind() == crate::core::SkillKind::Executable)
                    })
                    .count();
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
        let level = counts.level();
        counts.apply_to(&mut self.costs);
        self.levels_done[match level {
            Level::L1 => 0,
            Level::L2 => 1,
            Level::L3 => 2,
        }] = true;
        self.refresh_used();
        if self.levels_done.iter().all(|d| *d) {
            self.counting = None;
            if !self.checked {
                self.run_checks(true);
            }
            self.start_after_counts();
        }
        if self.skills.list.sort == list::Sort::Cost {
            let cx = ctx!(self);
            self.skills.refresh(&cx);
        }
    }
}
