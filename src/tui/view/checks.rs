//! Checks: the `--help-json` probe of executable skills, run only when asked, with progress and
//! a verdict per skill.

use crate::core::probe::{SandboxMode, SandboxPreference};
use crate::tui::app::App;
use crate::tui::view::detail::wrap;
use crate::tui::view::{thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Gauge, Paragraph, Row, Table};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let checks = &app.checks;
    let detail_h = if area.height >= 20 { 9 } else { 0 };
    let [top, list, bottom] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(3),
        Constraint::Length(detail_h),
    ])
    .areas(area);
    let n = checks.rows.len();
    let top_block = Block::bordered().title(Span::styled(
        " Checks: --help-json probe, declared dependencies ",
        t.title(),
    ));
    match &checks.run {
        Some(run) => {
            let ratio = if run.total == 0 {
                1.0
            } else {
                run.done as f64 / run.total as f64
            };
            let spin = ["◐", "◓", "◑", "◒"][(app.ticks % 4) as usize];
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
        }
        None => {
            let probed = checks
                .rows
                .iter()
                .filter(|i| checks.report_for(&app.lib, **i).is_some())
                .count();
            let text = if n == 0 {
                "No executable skills or declared dependencies yet. d looks for requirements.txt too."
                    .to_string()
            } else if probed == 0 {
                let executables = checks
                    .rows
                    .iter()
                    .filter(|&&i| {
                        app.lib
                            .skills
                            .get(i)
                            .is_some_and(|s| s.kind() == crate::core::SkillKind::Executable)
                    })
                    .count();
                if executables == n {
                    format!("{n} executable skills. Nothing runs until you press r.")
                } else {
                    format!(
                        "{n} skills ({executables} executable). Nothing runs until you press r (probe) or d (dependencies)."
                    )
                }
            } else {
                let failed = checks
                    .rows
                    .iter()
                    .filter_map(|i| checks.report_for(&app.lib, *i))
                    .filter(|r| r.probe_failed())
                    .count();
                let weaker = checks
                    .rows
                    .iter()
                    .filter_map(|i| checks.report_for(&app.lib, *i))
                    .any(|r| r.sandbox == Some(SandboxMode::ProcessGroup));
                let sandbox = if weaker {
                    "some in the weaker process-group sandbox"
                } else {
                    "sandbox: namespaces"
                };
                format!("{probed}/{n} probed, {failed} failed; {sandbox}. Press r to probe again.")
            };
            frame.render_widget(Paragraph::new(format!(" {text}")).block(top_block), top);
        }
    }

    let inner_h = usize::from(list.height.saturating_sub(3));
    let offset = checks.selected.saturating_sub(inner_h.saturating_sub(1));
    let detail_w = usize::from(list.width).saturating_sub(2 + 2 + 24 + 14 + 8 + 13 + 5);
    let rows: Vec<Row> = checks
        .rows
        .iter()
        .enumerate()
        .skip(offset)
        .take(inner_h)
        .map(|(k, &i)| {
            let skill = &app.lib.skills[i];
            let report = checks.report_for(&app.lib, i);
            let deps = checks.deps_for(&app.lib, i);
            let (mark, mark_style, verdict, ms, detail) =
                match report.and_then(|r| r.verdict.as_ref().map(|v| (r, v))) {
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
            if k == checks.selected {
                row.style(t.selected())
            } else {
                row
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
    frame.render_widget(table, list);

    if detail_h == 0 {
        return;
    }
    let width = usize::from(bottom.width.saturating_sub(2));
    let mut lines: Vec<Line> = Vec::new();
    let selected = checks.rows.get(checks.selected).copied();
    if let Some(d) = selected.and_then(|i| checks.deps_for(&app.lib, i)) {
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
            lines.push(Line::from(vec![
                Span::styled("install ", t.dim()),
                Span::raw(truncate(&d.install, width.saturating_sub(8))),
            ]));
        }
    }
    match selected.and_then(|i| checks.report_for(&app.lib, i)) {
        Some(r) => {
            if !r.command.is_empty() {
                lines.push(Line::from(vec![
                    Span::styled("ran ", t.dim()),
                    Span::raw(truncate(&r.command.join(" "), width.saturating_sub(4))),
                ]));
            }
            if let Some(v) = &r.verdict {
                for l in wrap(&v.detail(), width) {
                    lines.push(Line::from(l));
                }
            }
            match (r.sandbox, &r.sandbox_fallback) {
                (Some(SandboxMode::ProcessGroup), why) => {
                    let why = why.as_deref().unwrap_or("namespaces unavailable");
                    let text = format!(
                        "sandbox process-group (weaker: not contained, not limited): {why}"
                    );
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
                for l in wrap(schema, width).into_iter().take(4) {
                    lines.push(Line::from(l));
                }
            }
        }
        None if !lines.is_empty() => {}
        None => {
            if let Some(skill) = selected.and_then(|i| app.lib.skills.get(i)) {
                lines.push(Line::from(format!(
                    "{} — entry `{}`, not probed yet",
                    crate::core::text::line(&skill.name),
                    crate::core::text::line(crate::core::probe::entry_name(skill))
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
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(Block::bordered().title(" Probe ")),
        bottom,
    );
}
