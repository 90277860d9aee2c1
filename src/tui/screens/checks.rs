//! The Checks screen: the `--help-json` probe of executable skills and the check of declared
//! dependencies, run only when asked, with progress and a verdict per skill.

use super::screen::{Ctx, Outcome, Screen};
use crate::core::probe::dependencies::DepsReport;
use crate::core::probe::{ProbeReport, SandboxMode, SandboxPreference};
use crate::core::{Library, SkillKind};
use crate::tui::action::Action;
use crate::tui::jobs;
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::screens::screen;
use crate::tui::state::view::View;
use crate::tui::view::parts::wrap;
use crate::tui::view::{thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Gauge, Paragraph, Row, Table, TableState};
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
    /// The selected row and the first row on screen.
    pub table: TableState,
    /// The latest report per skill folder; kept across rescans.
    pub reports: HashMap<PathBuf, ProbeReport>,
    /// The latest dependency check per skill folder; kept across rescans.
    pub deps: HashMap<PathBuf, DepsReport>,
    pub run: Option<Run>,
    /// Runs stopped before they ended (a rescan), still killing their probes.
    pub stopping: Vec<JoinHandle<()>>,
    /// Which sandbox probes ask for.
    pub sandbox: SandboxPreference,
    /// The selected skill's probe panel takes the whole screen, with nothing cut (Enter).
    pub expanded: bool,
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
            table: TableState::new().with_selected(0),
            reports: HashMap::new(),
            deps: HashMap::new(),
            run: None,
            stopping: Vec::new(),
            sandbox,
            expanded: false,
        }
    }

    pub fn refresh(&mut self, lib: &Library) {
        let keep = self
            .rows
            .get(self.selected())
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
        let at = keep
            .and_then(|d| self.rows.iter().position(|i| lib.skills[*i].dir == d))
            .unwrap_or(0);
        self.table.select(Some(at));
    }

    /// The selected row.
    pub fn selected(&self) -> usize {
        self.table.selected().unwrap_or(0)
    }

    /// The library index of the selected skill.
    pub fn selected_skill(&self) -> Option<usize> {
        self.rows.get(self.selected()).copied()
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
    /// A probe's verdict is in.
    pub fn probed(&mut self, report: ProbeReport) {
        if let Some(run) = &mut self.run {
            run.done += 1;
        }
        self.reports.insert(report.dir.clone(), report);
    }

    /// One skill's dependencies are checked.
    pub fn deps_checked(&mut self, lib: &Library, skill: usize, report: DepsReport) {
        if let Some(run) = &mut self.run {
            run.done += 1;
            run.total = run.total.max(run.done);
        }
        self.add_row(lib, skill);
        self.deps.insert(report.dir.clone(), report);
    }

    /// Every dependency check asked for is done (`checked` skills declared some): what to say,
    /// and whether it is a problem.
    pub fn deps_done(&mut self, checked: usize) -> (String, bool) {
        self.run = None;
        let failed = self.deps.values().filter(|r| r.failed()).count();
        let text = if checked == 0 {
            "no skill declares dependencies (dependencies: or requirements.txt)".to_string()
        } else {
            format!(
                "checked the dependencies of {}: {failed} with problems; nothing was installed",
                crate::core::words::text::count_of(checked, "skill", "skills")
            )
        };
        (text, failed > 0)
    }

    /// Every probe asked for is done: what to say, and whether one failed.
    pub fn probes_done(&mut self, lib: &Library) -> (String, bool) {
        let failed = self
            .rows
            .iter()
            .filter_map(|i| self.report_for(lib, *i))
            .filter(|r| r.probe_failed())
            .count();
        self.run = None;
        let n = self
            .rows
            .iter()
            .filter(|&&i| {
                lib.skills
                    .get(i)
                    .is_some_and(|s| s.kind() == SkillKind::Executable)
            })
            .count();
        (
            format!("probed {n} executable skills: {failed} failed"),
            failed > 0,
        )
    }

    pub fn add_row(&mut self, lib: &Library, skill: usize) {
        if self.rows.contains(&skill) || skill >= lib.skills.len() {
            return;
        }
        let keep = self.selected_skill();
        self.rows.push(skill);
        self.rows.sort_by(|a, b| {
            (&lib.skills[*a].name, &lib.skills[*a].dir)
                .cmp(&(&lib.skills[*b].name, &lib.skills[*b].dir))
        });
        if let Some(k) = keep.and_then(|k| self.rows.iter().position(|r| *r == k)) {
            self.table.select(Some(k));
        }
    }

    pub fn deps_for(&self, lib: &Library, skill: usize) -> Option<&DepsReport> {
        lib.skills.get(skill).and_then(|s| self.deps.get(&s.dir))
    }

    pub fn report_for(&self, lib: &Library, skill: usize) -> Option<&ProbeReport> {
        lib.skills.get(skill).and_then(|s| self.reports.get(&s.dir))
    }

    /// Moves the selection, scrolling the table so it stays on screen.
    pub fn move_by(&mut self, delta: isize, body: Rect) {
        screen::move_selection(&mut self.table, self.rows.len(), delta);
        screen::reveal(&mut self.table, self.rows.len(), table_rows(body), 0);
    }

    fn act(&mut self, action: Action, cx: &Ctx) -> Outcome {
        let page = table_rows(cx.areas.body).max(1) as isize;
        match action {
            Action::RunChecks => return self.run_probes(cx),
            Action::RunDeps => self.run_deps(cx),
            Action::Open => self.expanded = !self.expanded,
            Action::CancelChecks if self.expanded => self.expanded = false,
            Action::CancelChecks => {
                if self.running() {
                    self.cancel();
                    return Outcome::status("stopping the probes…");
                }
            }
            Action::Up => self.move_by(-1, cx.areas.body),
            Action::Down => self.move_by(1, cx.areas.body),
            Action::PageUp => self.move_by(-page, cx.areas.body),
            Action::PageDown => self.move_by(page, cx.areas.body),
            Action::Top => self.move_by(isize::MIN / 2, cx.areas.body),
            Action::Bottom => self.move_by(isize::MAX / 2, cx.areas.body),
            _ => return Outcome::Ignored,
        }
        Outcome::Done
    }

    /// Starts the `--help-json` probe of every executable skill: the one thing in the app that
    /// runs the library's code, so only ever on this explicit action.
    fn run_probes(&mut self, cx: &Ctx) -> Outcome {
        if self.running() {
            return Outcome::Done;
        }
        let indices: Vec<usize> = self
            .rows
            .iter()
            .copied()
            .filter(|&i| {
                cx.lib
                    .skills
                    .get(i)
                    .is_some_and(|s| s.kind() == SkillKind::Executable)
            })
            .collect();
        if indices.is_empty() {
            return Outcome::status("no executable skills to probe");
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let total = indices.len();
        let worker = jobs::probe(
            Arc::clone(cx.lib),
            cx.cache.clone(),
            indices,
            jobs::ProbeRun {
                cancel: Arc::clone(&cancel),
                sandbox: self.sandbox,
            },
            cx.generation,
            cx.tx.clone(),
        );
        self.run = Some(Run {
            total,
            done: 0,
            cancel,
            worker,
            deps: false,
        });
        Outcome::Done
    }

    /// Checks the declared dependencies of every skill that has some against the interpreter
    /// it would run with, in the probe's sandbox: runs an interpreter, so only on this action.
    fn run_deps(&mut self, cx: &Ctx) {
        if self.running() {
            return;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let worker = jobs::deps(
            Arc::clone(cx.lib),
            jobs::ProbeRun {
                cancel: Arc::clone(&cancel),
                sandbox: self.sandbox,
            },
            cx.generation,
            cx.tx.clone(),
        );
        self.run = Some(Run {
            total: 0,
            done: 0,
            cancel,
            worker,
            deps: true,
        });
    }
}

/// The run line, the table and the selected skill's detail, in the screen's `body`.
fn parts(body: Rect) -> [Rect; 3] {
    let detail_h = if body.height >= 20 { 9 } else { 0 };
    Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(3),
        Constraint::Length(detail_h),
    ])
    .areas(body)
}

/// How many rows of the table are on screen: its block's borders and its column titles take
/// three lines.
fn table_rows(body: Rect) -> usize {
    usize::from(parts(body)[1].height.saturating_sub(3))
}

impl Screen for Checks {
    fn context(&self) -> Context {
        Context::Checks
    }

    fn handle(&mut self, action: Action, cx: &Ctx) -> Outcome {
        self.act(action, cx)
    }

    /// The wheel over the screen moves the selection as the arrow keys do.
    fn scroll(&mut self, delta: isize, cx: &Ctx) -> Outcome {
        self.move_by(delta, cx.areas.body);
        Outcome::Done
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, areas: Areas) {
        draw(frame, areas.body, view, self);
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, checks: &Checks) {
    if checks.expanded {
        // The whole message, wrapped: the table steps aside until Enter or Esc.
        let [top, rest] = Layout::vertical([Constraint::Length(3), Constraint::Min(3)]).areas(area);
        summary(frame, top, view, checks);
        probe_panel(frame, rest, view, checks);
        return;
    }
    let [top, list, bottom] = parts(area);
    summary(frame, top, view, checks);
    table(frame, list, table_rows(area), view, checks);
    if bottom.height > 0 {
        probe_panel(frame, bottom, view, checks);
    }
}

/// The top box: the run's gauge while one runs, else what was found so far.
fn summary(frame: &mut Frame, top: Rect, view: &View<'_>, checks: &Checks) {
    let t = &view.theme;
    let top_block = Block::bordered().title(Span::styled(
        " Checks: --help-json probe, declared dependencies ",
        t.title(),
    ));
    if let Some(run) = &checks.run {
        let ratio = if run.total == 0 {
            1.0
        } else {
            run.done as f64 / run.total as f64
        };
        let spin = ["◐", "◓", "◑", "◒"][(view.ticks % 4) as usize];
        frame.render_widget(
            Gauge::default()
                .block(top_block)
                .gauge_style(t.gauge())
                .ratio(ratio.clamp(0.0, 1.0))
                .label(if run.deps {
                    format!("{spin} checking dependencies: {} done", run.done)
                } else {
                    format!("{spin} probing {}/{}", run.done, run.total)
                }),
            top,
        );
    } else {
        let text = summary_text(view, checks);
        frame.render_widget(Paragraph::new(format!(" {text}")).block(top_block), top);
    }
}

/// What the checks found so far, in a sentence.
fn summary_text(view: &View<'_>, checks: &Checks) -> String {
    let n = checks.rows.len();
    let probed = checks
        .rows
        .iter()
        .filter(|i| checks.report_for(view.lib, **i).is_some())
        .count();
    if n == 0 {
        "No executable skills or declared dependencies yet. d looks for requirements.txt too."
            .to_string()
    } else if probed == 0 {
        let executables = checks
            .rows
            .iter()
            .filter(|&&i| {
                view.lib
                    .skills
                    .get(i)
                    .is_some_and(|s| s.kind() == crate::core::SkillKind::Executable)
            })
            .count();
        if executables == n {
            format!(
                "{}. Nothing runs until you press r.",
                crate::core::words::text::count_of(n, "executable skill", "executable skills")
            )
        } else {
            format!(
                "{} ({executables} executable). Nothing runs until you press r (probe) or d (dependencies).",
                crate::core::words::text::count_of(n, "skill", "skills")
            )
        }
    } else {
        let failed = checks
            .rows
            .iter()
            .filter_map(|i| checks.report_for(view.lib, *i))
            .filter(|r| r.probe_failed())
            .count();
        let weaker = checks
            .rows
            .iter()
            .filter_map(|i| checks.report_for(view.lib, *i))
            .any(|r| r.sandbox == Some(SandboxMode::ProcessGroup));
        let sandbox = if weaker {
            "some in the weaker process-group sandbox"
        } else {
            "sandbox: namespaces"
        };
        format!("{probed}/{n} probed, {failed} failed; {sandbox}. Press r to probe again.")
    }
}

/// The table of executable skills and declared dependencies, `rows` rows on screen.
fn table(frame: &mut Frame, list: Rect, rows_shown: usize, view: &View<'_>, checks: &Checks) {
    let t = &view.theme;
    // Only the rows on screen are built; the table state decides which those are.
    let shown = checks.table.offset()..checks.table.offset() + rows_shown;
    let detail_w = usize::from(list.width).saturating_sub(2 + 2 + 24 + 14 + 8 + 13 + 5);
    let rows: Vec<Row> = checks
        .rows
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            if shown.contains(&k) {
                row(view, checks, k, i, detail_w)
            } else {
                Row::default()
            }
        })
        .collect();
    let table = Table::new(
        rows,
        [
            Constraint::Length(1),
            Constraint::Length(24),
            Constraint::Length(14),
            Constraint::Length(8),
            Constraint::Length(13),
            Constraint::Fill(1),
        ],
    )
    .header(Row::new(vec!["", "skill", "verdict", "time", "sandbox", "detail"]).style(t.dim()))
    .column_spacing(1)
    .block(Block::bordered().title(" Executable skills and declared dependencies "));
    frame.render_stateful_widget(table, list, &mut checks.table.clone());
}

/// Row `k` of the table: skill `i`'s verdict, time, sandbox and detail.
fn row(view: &View<'_>, checks: &Checks, k: usize, i: usize, detail_w: usize) -> Row<'static> {
    let t = &view.theme;
    let skill = &view.lib.skills[i];
    let report = checks.report_for(view.lib, i);
    let deps = checks.deps_for(view.lib, i);
    let (mark, mark_style, verdict, ms, detail) =
        match report.and_then(|r| r.verdict.as_ref().map(|v| (r, v))) {
            Some((r, v)) if v.is_ok() && v.is_warning() => {
                ("!", t.warning(), v.name(), r.elapsed_ms, v.detail())
            }
            Some((r, v)) if v.is_ok() => ("✓", t.on(), v.name(), r.elapsed_ms, v.detail()),
            Some((r, v)) => ("✗", t.error(), v.name(), r.elapsed_ms, v.detail()),
            None => match deps {
                Some(d) if d.failed() => ("✗", t.error(), "deps", 0, d.summary()),
                Some(d) => ("✓", t.on(), "deps", 0, d.summary()),
                None if checks.running() => ("…", t.dim(), "waiting", 0, String::new()),
                None => ("·", t.dim(), "not run", 0, String::new()),
            },
        };
    // A probed skill's dependencies go after its verdict.
    let detail = match (report.is_some(), deps) {
        (true, Some(d)) => format!("{detail}; deps: {}", d.summary()),
        _ => detail,
    };
    let ms = if report.is_some() {
        format!("{} ms", thousands(ms))
    } else {
        String::new()
    };
    let sandbox = match report
        .and_then(|r| r.sandbox)
        .or(deps.and_then(|d| d.sandbox))
    {
        Some(m @ SandboxMode::ProcessGroup) => Span::styled(m.name(), t.warning()),
        Some(m) => Span::styled(m.name(), t.dim()),
        None => Span::raw(""),
    };
    let row = Row::new(vec![
        Cell::from(Span::styled(mark, mark_style)),
        Cell::from(truncate(&skill.name, 24)),
        Cell::from(Span::styled(verdict, mark_style)),
        Cell::from(Line::from(ms).right_aligned()),
        Cell::from(sandbox),
        Cell::from(truncate(&detail, detail_w)),
    ]);
    // A row style, not the table's highlight, so the verdict keeps its colour.
    if k == checks.selected() {
        row.style(t.selected())
    } else {
        row
    }
}

/// The bottom box: the selected skill's dependencies and its probe's report.
fn probe_panel(frame: &mut Frame, bottom: Rect, view: &View<'_>, checks: &Checks) {
    let width = usize::from(bottom.width.saturating_sub(2));
    let mut lines: Vec<Line> = Vec::new();
    let selected = checks.selected_skill();
    if let Some(d) = selected.and_then(|i| checks.deps_for(view.lib, i)) {
        deps_lines(&mut lines, d, width, view, checks);
    }
    match selected.and_then(|i| checks.report_for(view.lib, i)) {
        Some(r) => report_lines(&mut lines, r, width, view, checks),
        None if !lines.is_empty() => {}
        None => not_probed_lines(&mut lines, selected, view, checks),
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(Block::bordered().title(if checks.expanded {
                " Probe · whole message (Enter or Esc: back to the table) "
            } else {
                " Probe (Enter: the whole message) "
            })),
        bottom,
    );
}

/// The selected skill's declared dependencies: what was found, what is wrong, how to install.
fn deps_lines(
    lines: &mut Vec<Line<'static>>,
    d: &DepsReport,
    width: usize,
    view: &View<'_>,
    checks: &Checks,
) {
    let t = &view.theme;
    let interp = d.interpreter.as_ref().map_or_else(String::new, |p| {
        format!(" · {} ({})", p.display(), d.interpreter_from)
    });
    for l in wrap(&format!("dependencies: {}{interp}", d.summary()), width) {
        lines.push(Line::from(l));
    }
    for diag in &d.diagnostics {
        for l in wrap(&format!("{} {}", diag.rule, diag.message), width) {
            lines.push(Line::from(Span::styled(l, t.error())));
        }
    }
    if d.failed() && !d.install.is_empty() {
        if checks.expanded {
            for l in wrap(&format!("install {}", d.install), width) {
                lines.push(Line::from(l));
            }
        } else {
            lines.push(Line::from(vec![
                Span::styled("install ", t.dim()),
                Span::raw(truncate(&d.install, width.saturating_sub(8))),
            ]));
        }
    }
}

/// The selected skill's probe: what ran, the verdict, the sandbox and the schema.
fn report_lines(
    lines: &mut Vec<Line<'static>>,
    r: &ProbeReport,
    width: usize,
    view: &View<'_>,
    checks: &Checks,
) {
    let t = &view.theme;
    if !r.command.is_empty() {
        if checks.expanded {
            for l in wrap(&format!("ran {}", r.command.join(" ")), width) {
                lines.push(Line::from(l));
            }
        } else {
            lines.push(Line::from(vec![
                Span::styled("ran ", t.dim()),
                Span::raw(truncate(&r.command.join(" "), width.saturating_sub(4))),
            ]));
        }
    }
    if let Some(v) = &r.verdict {
        for l in wrap(&v.detail(), width) {
            lines.push(Line::from(l));
        }
    }
    match (r.sandbox, &r.sandbox_fallback) {
        (Some(SandboxMode::ProcessGroup), why) => {
            let why = why.as_deref().unwrap_or("namespaces unavailable");
            let text = format!("sandbox process-group (weaker: not contained, not limited): {why}");
            for l in wrap(&text, width) {
                lines.push(Line::from(Span::styled(l, t.warning())));
            }
        }
        (Some(m), _) => lines.push(Line::from(vec![
            Span::styled("sandbox ", t.dim()),
            Span::raw(m.name()),
        ])),
        (None, _) => {}
    }
    if let Some(schema) = &r.schema_text {
        lines.push(Line::from(Span::styled("schema", t.dim())));
        let shown = if checks.expanded { usize::MAX } else { 4 };
        for l in wrap(schema, width).into_iter().take(shown) {
            lines.push(Line::from(l));
        }
    }
}

/// A skill not probed yet: what its probe would run, and how.
fn not_probed_lines(
    lines: &mut Vec<Line<'static>>,
    selected: Option<usize>,
    view: &View<'_>,
    checks: &Checks,
) {
    let t = &view.theme;
    if let Some(skill) = selected.and_then(|i| view.lib.skills.get(i)) {
        lines.push(Line::from(format!(
            "{} — entry `{}`, not probed yet",
            crate::core::words::text::line(&skill.name),
            crate::core::words::text::line(crate::core::probe::entry_name(skill))
        )));
    }
    let sandbox = match checks.sandbox {
        SandboxPreference::Strongest => {
            "in fresh namespaces where the kernel allows (else its own process group)"
        }
        SandboxPreference::ProcessGroup => {
            "in its own process group only (SKILLSCOPE_SANDBOX=process-group)"
        }
    };
    lines.push(Line::from(Span::styled(
        format!(
            "The probe runs only `--help-json`, never `--run-json`: {sandbox}, in the \
             skill folder, with a minimal environment, killed after 10 s."
        ),
        t.dim(),
    )));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_scrolls_by_pages_and_keeps_its_window_going_back_up() {
        let mut c = Checks::new(SandboxPreference::Strongest);
        c.rows = (0..100).collect();
        let body = Rect::new(0, 1, 100, 30);
        // 30 lines: 3 for the run line, 9 for the probe detail, 3 for the table's frame.
        let rows = table_rows(body);
        assert_eq!(rows, 15);
        c.move_by(rows as isize, body);
        assert_eq!((c.selected(), c.table.offset()), (15, 1));
        c.move_by(rows as isize, body);
        assert_eq!((c.selected(), c.table.offset()), (30, 16));
        // Up within the window moves the selection, not the rows shown.
        c.move_by(-3, body);
        assert_eq!((c.selected(), c.table.offset()), (27, 16));
        c.move_by(isize::MIN / 2, body);
        assert_eq!((c.selected(), c.table.offset()), (0, 0));
        c.move_by(isize::MAX / 2, body);
        assert_eq!((c.selected(), c.table.offset()), (99, 85));
    }
}
