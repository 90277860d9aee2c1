//! The detail of the selected skill: frontmatter, diagnostics, resources, costs and the body
//! with line numbers. Only the lines on screen are built, so a long body costs nothing.

use crate::core::frontmatter::compact;
use crate::core::skill::Skill;
use crate::core::text::line;
use crate::tui::app::detail::human_bytes;
use crate::tui::app::{App, Mode};
use crate::tui::view::{cost, thousands, truncate};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

/// Fields some agent or the spec defines; the rest are shown as extras.
pub const KNOWN_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "when_to_use",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "context",
    "agent",
    "hooks",
    "paths",
    "argument-hint",
    "version",
    "type",
    "auto_load",
    "dependencies",
    "triggers",
    "entry",
];

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let focused = app.mode == Mode::Detail;
    let border = if focused { t.title() } else { t.base() };
    let Some(skill) = app.selected() else {
        frame.render_widget(Block::bordered().title(" Detail "), area);
        return;
    };
    let block = Block::bordered()
        .border_style(border)
        .title(Span::styled(format!(" {} ", line(&skill.name)), t.title()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let head = head_lines(app, skill, width);
    let height = usize::from(inner.height);
    let scroll = usize::from(app.detail_scroll);
    let detail = app.detail.as_ref().filter(|d| d.dir == skill.dir);
    let body_lines = detail.map_or(0, |d| d.body_lines);
    let total = head.len() + body_lines;
    let scroll = scroll.min(total.saturating_sub(height.min(total)));
    let mut lines: Vec<Line> = head.into_iter().skip(scroll).take(height).collect();
    let head_len = total - body_lines;
    if lines.len() < height
        && let Some(Ok(body)) = detail.map(|d| &d.body)
    {
        let first = scroll.saturating_sub(head_len);
        let num_w = (u64::from(skill.body_line) + body_lines as u64)
            .to_string()
            .len();
        for (i, l) in body
            .lines()
            .enumerate()
            .skip(first)
            .take(height - lines.len())
        {
            let n = skill.body_line as usize + i;
            lines.push(Line::from(vec![
                Span::styled(format!("{n:>num_w$} │ "), t.line_number()),
                Span::raw(truncate(
                    &l.replace('\t', "    "),
                    width.saturating_sub(num_w + 3),
                )),
            ]));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Everything above the body, already cut into screen lines.
pub fn head_lines(app: &App, skill: &Skill, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let idx = app.list.selected_skill().unwrap_or(0);
    let on = app.enabled.get(idx).copied().unwrap_or(false);
    let costs = app.costs_of(idx);
    let mut out = Vec::new();
    out.push(Line::from(vec![
        if on {
            Span::styled("● on", t.on())
        } else {
            Span::styled("○ off", t.dim())
        },
        Span::raw("  "),
        Span::styled(skill.kind().as_str(), t.badge()),
        Span::raw("  "),
        Span::styled(crate::core::budget::badge(skill), t.badge()),
    ]));
    out.push(Line::from(Span::styled(
        truncate(&skill.dir.display().to_string(), width),
        t.dim(),
    )));
    if let Some(w) = skill.shadowed_by.and_then(|w| app.lib.skills.get(w)) {
        for l in wrap(
            &format!("shadowed by {} (same name, loaded first)", w.dir.display()),
            width,
        ) {
            out.push(Line::from(Span::styled(l, t.warning())));
        }
    }
    let mut cost_text = format!(
        "Cost L1 {} · L2 {} · L3 {} tokens ({})",
        cost(costs.l1, app.levels_done[0]),
        cost(costs.l2, app.levels_done[1]),
        cost(costs.l3_with_schema(), app.levels_done[2]),
        app.encoding().as_str()
    );
    if let (Some(m), Some(l2)) = (&app.model, costs.l2) {
        cost_text.push_str(&format!("; L2 {}", m.label(u64::from(l2), app.encoding())));
    }
    for l in wrap(&cost_text, width) {
        out.push(Line::from(l));
    }
    for l in wrap(&used_text(app, idx), width) {
        out.push(Line::from(l));
    }

    if let Some(switches) = &app.switches {
        let badges = switches.badges(skill);
        let shown: Vec<_> = badges.iter().filter(|b| b.reads).collect();
        if !shown.is_empty() {
            section(&mut out, "Agents", app);
            for b in shown {
                let style = if b.loads() { t.on() } else { t.error() };
                let lead = format!(
                    "  {:<12}{:<20}",
                    b.agent.as_str(),
                    b.effective.state.as_str()
                );
                let room = width.saturating_sub(lead.chars().count());
                out.push(Line::from(vec![
                    Span::styled(lead, style),
                    Span::styled(truncate(&b.effective.source, room), t.dim()),
                ]));
            }
        }
    }

    section(&mut out, "Frontmatter", app);
    let fm = &skill.frontmatter;
    if fm.fields.is_empty() {
        out.push(Line::from(Span::styled("  (none)", t.dim())));
    }
    for f in &fm.fields {
        let extra = !KNOWN_FIELDS.contains(&f.key.as_str());
        let key_style = if extra { t.warning() } else { t.key() };
        let value = compact(&f.value);
        let label = format!("  {}: ", line(&f.key));
        let tag = if extra { " (extra)" } else { "" };
        let room = width.saturating_sub(label.chars().count()).max(10);
        let mut first = true;
        for chunk in wrap(&format!("{value}{tag}"), room) {
            let lead = if first {
                Span::styled(label.clone(), key_style)
            } else {
                Span::raw(" ".repeat(label.chars().count()))
            };
            first = false;
            out.push(Line::from(vec![lead, Span::raw(chunk)]));
        }
    }

    let diags = app.diagnostics(idx);
    let pending = if app.checked { "" } else { " …" };
    section(
        &mut out,
        &format!(
            "Diagnostics ({}, {} rules){pending}",
            diags.len(),
            app.profile
        ),
        app,
    );
    if diags.is_empty() {
        out.push(Line::from(Span::styled("  none", t.dim())));
    }
    for d in diags {
        let style = match d.severity {
            crate::core::Severity::Error => t.error(),
            crate::core::Severity::Warning => t.warning(),
            crate::core::Severity::Info => t.dim(),
        };
        let at = d
            .line
            .map(|l| format!(" {l}:{}", d.column.unwrap_or(1)))
            .unwrap_or_default();
        let lead = format!("  {} {}{at} ", d.severity, d.rule);
        let room = width.saturating_sub(4).max(10);
        out.push(Line::from(Span::styled(truncate(&lead, width), style)));
        for l in wrap(&d.message, room) {
            out.push(Line::from(format!("    {l}")));
        }
    }

    let detail = app.detail.as_ref().filter(|d| d.dir == skill.dir);
    match detail {
        Some(d) => {
            section(
                &mut out,
                &format!("{RESOURCES} ({})", d.resources.len()),
                app,
            );
            if d.resources.is_empty() {
                out.push(Line::from(Span::styled("  none", t.dim())));
            }
            for (k, r) in d.resources.iter().enumerate() {
                let counted = costs.resources.iter().find(|x| x.rel == r.rel);
                let kind = match (r.text, counted.and_then(|x| x.tokens)) {
                    (false, _) => "binary".to_string(),
                    (true, Some(n)) => format!("{} tok", thousands(u64::from(n))),
                    (true, None) if app.levels_done[2] => "-".to_string(),
                    (true, None) => "…".to_string(),
                };
                let size = human_bytes(r.size);
                let right = format!("{size:>10} {kind:>10}");
                let name_w = width.saturating_sub(right.chars().count() + 3);
                let row = Line::from(vec![
                    Span::raw(format!("  {:<name_w$}", truncate(&r.rel, name_w))),
                    Span::styled(right, t.dim()),
                ]);
                out.push(if app.resource_cursor == Some(k) {
                    row.style(t.selected())
                } else {
                    row
                });
            }
            let folded = skill.body_line.saturating_sub(1);
            section(&mut out, "Body", app);
            if folded > 0 {
                out.push(Line::from(Span::styled(
                    format!("  ┄ lines 1–{folded} (frontmatter) folded ┄"),
                    t.dim(),
                )));
            }
            if let Err(e) = &d.body {
                out.push(Line::from(Span::styled(
                    format!("  {}", line(&e.to_string())),
                    t.error(),
                )));
            } else if d.body_lines == 0 {
                out.push(Line::from(Span::styled("  (empty)", t.dim())));
            }
        }
        None => {
            section(&mut out, "Body", app);
            out.push(Line::from(Span::styled("  …", t.dim())));
        }
    }
    out
}

/// The cost when used, with the type that decided it and what it adds up.
fn used_text(app: &App, idx: usize) -> String {
    let Some(u) = app.used.get(idx) else {
        return "When used … (reading composite bodies)".to_string();
    };
    let figure = match (u.tokens, u.schema_unknown) {
        (Some(n), false) => format!("{} tokens", thousands(n)),
        (Some(n), true) => format!("{} tokens + schema (not probed yet)", thousands(n)),
        (None, _) => "…".to_string(),
    };
    let mut s = format!("When used {figure} · {}: {}", u.type_label(), u.rule());
    if !u.loads.is_empty() {
        let names: Vec<&str> = u
            .loads
            .iter()
            .filter_map(|&i| app.lib.skills.get(i))
            .map(|s| s.name.as_str())
            .collect();
        s.push_str(&format!(" ({})", names.join(", ")));
    }
    s
}

const RESOURCES: &str = "Resources";

/// The line of the detail pane (before scrolling) that shows resource `k`.
pub fn resource_line(app: &App, skill: &Skill, width: usize, k: usize) -> Option<usize> {
    let lines = head_lines(app, skill, width);
    let title = format!("{RESOURCES} (");
    lines
        .iter()
        .position(|l| {
            l.spans
                .first()
                .is_some_and(|s| s.content.starts_with(&title))
        })
        .map(|i| i + 1 + k)
}

fn section(out: &mut Vec<Line<'static>>, title: &str, app: &App) {
    out.push(Line::from(""));
    out.push(Line::from(Span::styled(
        title.to_string(),
        app.theme.title(),
    )));
}

/// Word wrap to `width` columns, every hazard escaped; words longer than a line are cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let para = line(para.strip_suffix('\r').unwrap_or(para));
        let mut line = String::new();
        let mut len = 0;
        for word in para.split_whitespace() {
            let wl = word.chars().count();
            if len > 0 && len + 1 + wl > width {
                out.push(std::mem::take(&mut line));
                len = 0;
            }
            if wl > width {
                let chars: Vec<char> = word.chars().collect();
                for chunk in chars.chunks(width) {
                    if len > 0 {
                        out.push(std::mem::take(&mut line));
                    }
                    line = chunk.iter().collect();
                    len = chunk.len();
                }
                continue;
            }
            if len > 0 {
                line.push(' ');
                len += 1;
            }
            line.push_str(word);
            len += wl;
        }
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wraps_on_words_and_cuts_long_words() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
        assert_eq!(wrap("a\r\nb\u{202e}c", 20), vec!["a", "b\\u{202e}c"]);
    }
}
