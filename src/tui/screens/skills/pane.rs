//! The detail pane's draw: the selected skill's state, agents, frontmatter, diagnostics,
//! resources and body, and where each diagnostic and resource line falls (for the cursors).

use super::detail::{KNOWN_FIELDS, human_bytes, number_width};
use super::{Mode, Skills};
use crate::core::agents::view::Seen;
use crate::core::frontmatter::{compact, shown_value};
use crate::core::library::ResourceGroup;
use crate::core::skill::Skill;
use crate::core::words::text::line;
use crate::tui::state::view::View;
use crate::tui::view::parts::{cost, wrap as wrap_words};
use crate::tui::view::{thousands, truncate};
use crate::tui::wrapped::{self as wrap};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, skills: &Skills) {
    let t = &view.theme;
    let focused = skills.mode == Mode::Detail;
    let border = if focused { t.title() } else { t.base() };
    let Some(skill) = skills.selected(view.lib) else {
        frame.render_widget(Block::bordered().title(" Detail "), area);
        return;
    };
    let block = Block::bordered()
        .border_style(border)
        .title(Span::styled(format!(" {} ", line(&skill.name)), t.title()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let head = head_lines(view, skills, skill, width);
    let height = usize::from(inner.height);
    let detail = skills.detail.as_ref().filter(|d| d.dir == skill.dir);
    let body_rows = detail.map_or(0, |d| d.body_rows(skill, width));
    let total = head.len() + body_rows;
    // The handler keeps the scroll within the pane; a resize or a shorter skill may still
    // leave it past the end until the next key.
    let scroll = usize::from(skills.detail_scroll).min(total.saturating_sub(height.min(total)));
    let mut lines: Vec<Line> = head.into_iter().skip(scroll).take(height).collect();
    let head_len = total - body_rows;
    if lines.len() < height
        && let Some(d) = detail
        && let Ok(body) = &d.body
    {
        let first = scroll.saturating_sub(head_len);
        let num_w = number_width(skill, d.body_lines);
        let wrapped = d.wrap.get(body, d.text_width(skill, width));
        for (line, row) in wrap::rows_of(body, &wrapped, first, height - lines.len()) {
            let number = match line {
                Some(i) => format!("{:>num_w$} │ ", skill.body_line as usize + i),
                None => format!("{:>num_w$} │ ", ""),
            };
            lines.push(Line::from(vec![
                Span::styled(number, t.line_number()),
                Span::raw(row),
            ]));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// How many lines the detail pane of `skill` has at `width` columns: everything above the body,
/// then the body.
pub fn line_count(view: &View<'_>, skills: &Skills, skill: &Skill, width: usize) -> usize {
    let body = skills
        .detail
        .as_ref()
        .filter(|d| d.dir == skill.dir)
        .map_or(0, |d| d.body_rows(skill, width));
    head_lines(view, skills, skill, width).len() + body
}

/// Everything above the body, already cut into screen lines.
pub fn head_lines(
    view: &View<'_>,
    skills: &Skills,
    skill: &Skill,
    width: usize,
) -> Vec<Line<'static>> {
    let idx = skills.list.selected_skill().unwrap_or(0);
    let mut out = Vec::new();
    state_lines(&mut out, view, skills, skill, idx, width);
    agent_lines(&mut out, view, skill, width);
    frontmatter_lines(&mut out, view, skill, idx, width);
    diagnostic_lines(&mut out, view, skills, idx, width);
    resource_lines(&mut out, view, skills, skill, idx, width);
    out
}

/// The skill's state, folder, source, shadowing and costs.
fn state_lines(
    out: &mut Vec<Line<'static>>,
    view: &View<'_>,
    skills: &Skills,
    skill: &Skill,
    idx: usize,
    width: usize,
) {
    let t = &view.theme;
    let costs = view.costs_of(idx);
    let whose = view
        .view_agent()
        .map(|a| format!(" for {}", crate::core::agents::model::model(a).name))
        .unwrap_or_default();
    let (state, why) = match view.seen(idx) {
        Seen::On => (Span::styled(format!("● on{whose}"), t.on()), None),
        Seen::NameOnly(why) => (
            Span::styled(format!("◐ name only{whose}"), t.on()),
            Some(why),
        ),
        Seen::Off(why) => (Span::styled(format!("○ off{whose}"), t.dim()), Some(why)),
        Seen::Shadowed => (
            Span::styled(format!("○ shadowed{whose}"), t.dim()),
            Some("another copy of its name wins".to_string()),
        ),
        Seen::Dormant => (
            Span::styled(format!("○ conditional{whose}"), t.dim()),
            Some("listed once a file matching its paths: is open".to_string()),
        ),
        Seen::NotRead => (
            Span::styled(format!("· not read{whose}"), t.dim()),
            Some("its folder is not one this agent reads (v views another)".to_string()),
        ),
    };
    out.push(Line::from(vec![
        state,
        Span::raw("  "),
        Span::styled(skill.kind().as_str(), t.badge()),
        Span::raw("  "),
        Span::styled(crate::core::pricing::budget::badge(skill), t.badge()),
    ]));
    if let Some(why) = why {
        out.push(Line::from(Span::styled(truncate(&why, width), t.dim())));
    }
    out.push(Line::from(Span::styled(
        truncate(&skill.dir.display().to_string(), width),
        t.dim(),
    )));
    if let Some(src) = skills
        .detail
        .as_ref()
        .filter(|d| d.dir == skill.dir)
        .and_then(|d| d.source.as_ref())
    {
        let commit = src
            .commit
            .as_deref()
            .map(|c| format!(" at {}", &c[..c.len().min(12)]))
            .unwrap_or_default();
        let sub = if src.subfolder.is_empty() {
            String::new()
        } else {
            format!(" ({})", src.subfolder)
        };
        for l in wrap_words(
            &format!(
                "from {}{commit}{sub}, added {}",
                src.source.location, src.added
            ),
            width,
        ) {
            out.push(Line::from(Span::styled(l, t.dim())));
        }
    }
    if let Some(w) = skill.shadowed_by.and_then(|w| view.lib.skills.get(w)) {
        for l in wrap_words(
            &format!("shadowed by {} (same name, loaded first)", w.dir.display()),
            width,
        ) {
            out.push(Line::from(Span::styled(l, t.warning())));
        }
    }
    let mut cost_text = format!(
        "Cost L1 {} · L2 {} · L3 {} tokens ({})",
        cost(costs.l1, view.counting.done[0]),
        cost(costs.l2, view.counting.done[1]),
        cost(costs.l3_with_schema(), view.counting.done[2]),
        view.encoding().as_str()
    );
    if let (Some(m), Some(l2)) = (&view.models.chosen, costs.l2) {
        cost_text.push_str(&format!("; L2 {}", m.label(u64::from(l2), view.encoding())));
    }
    for l in wrap_words(&cost_text, width) {
        out.push(Line::from(l));
    }
    for l in wrap_words(&used_text(view, idx), width) {
        out.push(Line::from(l));
    }
}

/// What each agent that reads the skill's folder makes of it.
fn agent_lines(out: &mut Vec<Line<'static>>, view: &View<'_>, skill: &Skill, width: usize) {
    let t = &view.theme;
    if let Some(switches) = &view.switches.agents {
        let badges = switches.badges(skill);
        let shown: Vec<_> = badges.iter().filter(|b| b.reads).collect();
        if !shown.is_empty() {
            section(out, "Agents", view);
            // Columns as wide as their longest entry and a space (`github-copilot` is 14).
            let name_w = shown
                .iter()
                .map(|b| b.agent.as_str().len())
                .max()
                .unwrap_or(0)
                + 1;
            let state_w = shown
                .iter()
                .map(|b| b.effective.state.as_str().len())
                .max()
                .unwrap_or(0)
                + 1;
            for b in shown {
                let style = if b.loads() { t.on() } else { t.error() };
                let lead = format!(
                    "  {:<name_w$}{:<state_w$}",
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
}

/// The frontmatter's fields, the ones no profile (or the profile in use) knows tagged.
fn frontmatter_lines(
    out: &mut Vec<Line<'static>>,
    view: &View<'_>,
    skill: &Skill,
    idx: usize,
    width: usize,
) {
    let t = &view.theme;
    section(out, "Frontmatter", view);
    let fm = &skill.frontmatter;
    if fm.fields.is_empty() {
        out.push(Line::from(Span::styled("  (none)", t.dim())));
    }
    let diags = view.diagnostics(idx);
    // A field is tagged unknown where the diagnostics say so (under the profile in use); until
    // they are in, where no profile knows it.
    let unknown_at: Vec<u32> = diags
        .iter()
        .filter(|d| d.rule == crate::core::findings::catalogue::RuleId::UnknownField)
        .filter_map(|d| d.line)
        .collect();
    for f in &fm.fields {
        let extra = if view.findings.checked {
            unknown_at.contains(&f.line)
        } else {
            !KNOWN_FIELDS.contains(&f.key.as_str())
        };
        let key_style = if extra { t.warning() } else { t.key() };
        // A frontmatter that did not parse holds the text as written on its line.
        let value = if fm.parsed {
            shown_value(&f.value)
        } else {
            compact(&f.value)
        };
        let label = format!("  {}: ", line(&f.key));
        let tag = if !extra {
            String::new()
        } else if view.findings.checked {
            format!(" (unknown to {})", view.profile_of(idx))
        } else {
            " (extra)".to_string()
        };
        let room = width.saturating_sub(label.chars().count()).max(10);
        let mut first = true;
        for chunk in wrap_words(&format!("{value}{tag}"), room) {
            let lead = if first {
                Span::styled(label.clone(), key_style)
            } else {
                Span::raw(" ".repeat(label.chars().count()))
            };
            first = false;
            out.push(Line::from(vec![lead, Span::raw(chunk)]));
        }
    }
}

/// The skill's diagnostics under the profile in use.
fn diagnostic_lines(
    out: &mut Vec<Line<'static>>,
    view: &View<'_>,
    skills: &Skills,
    idx: usize,
    width: usize,
) {
    let t = &view.theme;
    let diags = view.diagnostics(idx);
    let pending = if view.findings.checked { "" } else { " …" };
    section(
        out,
        &format!(
            "{DIAGNOSTICS} ({}, {} rules){pending}",
            diags.len(),
            view.profile_of(idx)
        ),
        view,
    );
    if diags.is_empty() {
        out.push(Line::from(Span::styled("  none", t.dim())));
    }
    for (k, d) in diags.iter().enumerate() {
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
        let lead = Line::from(Span::styled(truncate(&lead, width), style));
        out.push(if skills.diag_cursor == Some(k) {
            lead.style(t.selected())
        } else {
            lead
        });
        for l in wrap_words(&d.message, diagnostic_room(width)) {
            out.push(Line::from(format!("    {l}")));
        }
    }
}

/// The skill's resources by group, then the body's heading.
fn resource_lines(
    out: &mut Vec<Line<'static>>,
    view: &View<'_>,
    skills: &Skills,
    skill: &Skill,
    idx: usize,
    width: usize,
) {
    let t = &view.theme;
    let costs = view.costs_of(idx);
    let detail = skills.detail.as_ref().filter(|d| d.dir == skill.dir);
    if let Some(d) = detail {
        section(out, &format!("{RESOURCES} ({})", d.resources.len()), view);
        if d.resources.is_empty() {
            out.push(Line::from(Span::styled("  none", t.dim())));
        }
        let mut group = None;
        for (k, r) in d.resources.iter().enumerate() {
            let g = ResourceGroup::of(&r.rel);
            if group != Some(g) {
                group = Some(g);
                let n = d
                    .resources
                    .iter()
                    .filter(|x| ResourceGroup::of(&x.rel) == g)
                    .count();
                out.push(Line::from(Span::styled(
                    format!("  {} ({n})", g.as_str()),
                    t.dim(),
                )));
            }
            let counted = costs.resources.iter().find(|x| x.rel == r.rel);
            let kind = match (r.text, counted.and_then(|x| x.tokens)) {
                (false, _) => "binary".to_string(),
                (true, Some(n)) => format!("{} tok", thousands(u64::from(n))),
                (true, None) if view.counting.done[2] => "-".to_string(),
                (true, None) => "…".to_string(),
            };
            let size = human_bytes(r.size);
            let right = format!("{size:>10} {kind:>10}");
            let name_w = width.saturating_sub(right.chars().count() + 5);
            let row = Line::from(vec![
                Span::raw(format!("    {:<name_w$}", truncate(&r.rel, name_w))),
                Span::styled(right, t.dim()),
            ]);
            out.push(if skills.resource_cursor == Some(k) {
                row.style(t.selected())
            } else {
                row
            });
        }
        let folded = skill.body_line.saturating_sub(1);
        section(out, "Body", view);
        if folded > 0 {
            out.push(Line::from(Span::styled(
                format!("  ┄ lines 1–{folded} (frontmatter) folded ┄"),
                t.dim(),
            )));
        }
        if let Err(e) = &d.body {
            out.push(Line::from(Span::styled(
                format!("  {}", line(&e.clone())),
                t.error(),
            )));
        } else if d.body_lines == 0 {
            out.push(Line::from(Span::styled("  (empty)", t.dim())));
        }
    } else {
        section(out, "Body", view);
        out.push(Line::from(Span::styled("  …", t.dim())));
    }
}

/// The cost when used, with the type that decided it and what it adds up.
fn used_text(view: &View<'_>, idx: usize) -> String {
    let Some(u) = view.usage.used.get(idx) else {
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
            .filter_map(|&i| view.lib.skills.get(i))
            .map(|s| s.name.as_str())
            .collect();
        s.push_str(&format!(" ({})", names.join(", ")));
    }
    s
}

const RESOURCES: &str = "Resources";
const DIAGNOSTICS: &str = "Diagnostics";

/// How wide a diagnostic's message is wrapped in a pane `width` columns wide.
fn diagnostic_room(width: usize) -> usize {
    width.saturating_sub(4).max(10)
}

/// The line of the detail pane (before scrolling) that starts diagnostic `k`.
pub fn diagnostic_line(
    view: &View<'_>,
    skills: &Skills,
    skill: &Skill,
    width: usize,
    k: usize,
) -> Option<usize> {
    let lines = head_lines(view, skills, skill, width);
    let title = format!("{DIAGNOSTICS} (");
    let at = lines.iter().position(|l| {
        l.spans
            .first()
            .is_some_and(|s| s.content.starts_with(&title))
    })?;
    let idx = skills.list.selected_skill()?;
    let before: usize = view
        .diagnostics(idx)
        .iter()
        .take(k)
        .map(|d| 1 + wrap_words(&d.message, diagnostic_room(width)).len())
        .sum();
    Some(at + 1 + before)
}

/// The line of the detail pane (before scrolling) that shows resource `k`: below the section
/// title, after the heading of each group up to its own.
pub fn resource_line(
    view: &View<'_>,
    skills: &Skills,
    skill: &Skill,
    width: usize,
    k: usize,
) -> Option<usize> {
    let lines = head_lines(view, skills, skill, width);
    let title = format!("{RESOURCES} (");
    let headings = skills.detail.as_ref().map_or(0, |d| {
        let mut groups: Vec<ResourceGroup> = d
            .resources
            .iter()
            .take(k + 1)
            .map(|r| ResourceGroup::of(&r.rel))
            .collect();
        groups.dedup();
        groups.len()
    });
    lines
        .iter()
        .position(|l| {
            l.spans
                .first()
                .is_some_and(|s| s.content.starts_with(&title))
        })
        .map(|i| i + 1 + headings + k)
}

fn section(out: &mut Vec<Line<'static>>, title: &str, view: &View<'_>) {
    out.push(Line::from(""));
    out.push(Line::from(Span::styled(
        title.to_string(),
        view.theme.title(),
    )));
}
