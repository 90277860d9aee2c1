//! Worker results arriving on the event channel: a new library, diagnostics, counts, the
//! preview, the index, probe verdicts, the agents' settings and the watcher. One handler per
//! kind of result; each drops what belongs to an older library.

use super::{App, Watching};
use crate::core::findings::diagnostic::Diagnostic;
use crate::core::front::load::LevelCounts;
use crate::core::listing::Format;
use crate::core::probe::ProbeReport;
use crate::core::rules::Profile;
use crate::core::skill::Level;
use crate::core::tokens::{Encoding, Progress};
use crate::tui::event::JobEvent;
use crate::tui::screens::add;
use crate::tui::screens::skills::list;
use crate::tui::state::in_view::ViewChange;

impl App {
    pub(super) fn on_job(&mut self, job: JobEvent) {
        match job {
            job @ (JobEvent::AddPlanned(..)
            | JobEvent::AddInstalled(..)
            | JobEvent::UpdatesChecked(_)) => {
                self.adding(|open, cx| add::on_job(open, job, cx).unwrap_or_default());
            }
            JobEvent::Rescanned(lib) => {
                let again = self.rescan.finish();
                self.set_library(*lib);
                if again {
                    self.request_rescan();
                }
            }
            JobEvent::Checked {
                generation,
                profile,
                body,
                diagnostics,
            } => self.on_checked(generation, profile, body, diagnostics),
            JobEvent::Counted {
                generation,
                format,
                encoding,
                counts,
            } => self.on_count(generation, format, encoding, counts),
            JobEvent::CountProgress {
                generation,
                level,
                done,
                total,
            } => {
                if generation == self.generation && !self.counting.all_done() {
                    self.counting.progress = Some(Progress { level, done, total });
                }
            }
            JobEvent::Previewed { request, preview } => {
                if self.preview.arrived(request, *preview) {
                    self.request_preview();
                }
            }
            JobEvent::AgentBudgets { request, budgets } => {
                if self.screens.budget.arrived(request, budgets) {
                    self.screens.budget.job.mark_stale();
                }
            }
            JobEvent::Linked { generation, links } => {
                if generation == self.generation {
                    self.usage.links = Some(links);
                    self.refresh_used();
                }
            }
            other => match self.with_test(|t, cx| t.on_job(other, cx)) {
                // The overlap rule compares descriptions by meaning once every one has its
                // vector: a complete check runs again to take them (what is unchanged comes
                // from the index).
                Ok(made) => {
                    if made && self.findings.checked {
                        self.run_checks(true);
                    }
                }
                Err(other) => self.on_check_or_outside(other),
            },
        }
    }

    /// The probes' and dependency checks' results, and news from outside the library: the
    /// agents' settings, the watcher, problems.
    fn on_check_or_outside(&mut self, job: JobEvent) {
        match job {
            JobEvent::Probed {
                generation,
                report,
                schema_tokens,
            } => self.on_probed(generation, *report, schema_tokens),
            JobEvent::DepsChecked {
                generation,
                skill,
                report,
            } if generation == self.generation => {
                self.screens.checks.deps_checked(&self.lib, skill, *report);
            }
            JobEvent::DepsDone {
                generation,
                checked,
            } if generation == self.generation => {
                let (text, failed) = self.screens.checks.deps_done(checked);
                self.set_status(text, failed);
            }
            JobEvent::ProbesDone { generation } if generation == self.generation => {
                let (text, failed) = self.screens.checks.probes_done(&self.lib);
                self.set_status(text, failed);
            }
            JobEvent::Switches { settings, result } => match result {
                Ok((switches, diags)) => {
                    if let Some(d) = diags.first() {
                        self.set_status(d.message.clone(), true);
                    }
                    self.on_switches(*switches, *settings);
                }
                Err(e) => {
                    self.set_status(e, true);
                    self.set_view(ViewChange::Settings(*settings));
                }
            },
            JobEvent::Watching(res) => match res {
                Ok(w) => {
                    if let Some(p) = w.problems.first() {
                        self.set_status(format!("not watching every folder: {p}"), true);
                    }
                    self.watching = Watching::On(*w);
                }
                Err(e) => {
                    self.watching = Watching::Off;
                    self.set_status(e, true);
                }
            },
            JobEvent::Problem(e) => self.set_status(e, true),
            JobEvent::WatchProblem(e) => {
                self.set_status(format!("file watcher: {e}"), true);
                self.request_rescan();
            }
            // The library's own results are `on_job`'s.
            _ => {}
        }
    }

    fn on_checked(
        &mut self,
        generation: u64,
        profile: Profile,
        body: bool,
        diagnostics: Vec<Vec<Diagnostic>>,
    ) {
        // A frontmatter-only result never replaces a complete one.
        if generation != self.generation
            || profile != self.findings.profile
            || (self.findings.checked && !body)
        {
            return;
        }
        self.findings.set(diagnostics);
        self.findings.checked = body;
        if self.screens.skills.list.sort == list::Sort::Diagnostics {
            let (screens, cx) = self.parts();
            screens.skills.refresh(&cx);
        }
    }

    fn on_count(
        &mut self,
        generation: u64,
        format: Format,
        encoding: Encoding,
        counts: LevelCounts,
    ) {
        // A count of another library, encoding or (for L1) listing format is stale, even when
        // it arrives last.
        let stale = generation != self.generation
            || encoding != self.cache.encoding
            || (counts.level() == Level::L1 && format != self.screens.prompt.listing_format());
        if !stale {
            self.on_counted(counts);
        }
    }

    pub(super) fn on_counted(&mut self, counts: LevelCounts) {
        let level = counts.level();
        counts.apply_to(&mut self.costs);
        let all = self.counting.counted(level);
        self.refresh_used();
        if all {
            if self.requests.frame_before_workers {
                self.requests.after_counts = true;
            } else {
                self.after_counts();
            }
        }
        if self.screens.skills.list.sort == list::Sort::Cost {
            let (screens, cx) = self.parts();
            screens.skills.refresh(&cx);
        }
    }

    fn on_probed(&mut self, generation: u64, report: ProbeReport, schema_tokens: Option<u32>) {
        if generation != self.generation {
            return;
        }
        if let Some(i) = self.lib.skills.iter().position(|s| s.dir == report.dir)
            && let Some(c) = self.costs.get_mut(i)
        {
            c.schema = schema_tokens;
        }
        self.refresh_used();
        self.screens.budget.probed(&report);
        self.screens.checks.probed(report);
    }
}
