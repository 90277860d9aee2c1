//! The detail pane of the selected skill: frontmatter, diagnostics, resources, costs and the
//! body with line numbers. Only the lines on screen are built, so a long body costs nothing.
//! What it needs beyond the scan is read on demand for the selected skill only: its body and
//! its resources. Nothing of other skills is kept.

use super::Mode;
use crate::core::agents::view::Seen;
use crate::core::frontmatter::{compact, shown_value};
use crate::core::library::{self, ResourceGroup};
use crate::core::resource::Resource;
use crate::core::skill::Skill;
use crate::core::text::line;
use crate::tui::app::App;
use crate::tui::view::wrapped::{self as wrap, WrapCache};
use crate::tui::view::{cost, thousands, truncate, wrap as wrap_words};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use std::path::PathBuf;

/// Bodies larger than this are not previewed: reading them would stall the UI.
pub const MAX_PREVIEW_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Detail {
    pub dir: PathBuf,
    /// The stat of SKILL.md when read, so an edit is noticed.
    pub stamp: crate::core::fsx::Stamp,
    pub body: Result<String, String>,
    pub body_lines: usize,
    /// The skill's files by Conjure's groups (scripts, references, assets, other), each group
    /// in path order: the order the pane shows them and the resource cursor counts them in.
    pub resources: Vec<Resource>,
    /// Where `skillscope add` took the skill from (its `skills.lock` entry), if it did.
    pub source: Option<crate::core::manage::manifest::Entry>,
    /// The body wrapped to the pane's width.
    pub wrap: WrapCache,
}

impl Detail {
    /// How wide the body's text is in a pane `width` columns wide, after its line numbers.
    fn text_width(&self, skill: &Skill, width: usize) -> usize {
        width.saturating_sub(number_width(skill, self.body_lines) + 3)
    }

    /// How many screen rows the body takes in a pane `width` columns wide.
    pub fn body_rows(&self, skill: &Skill, width: usize) -> usize {
        match &self.body {
            Ok(b) => self.wrap.get(b, self.text_width(skill, width)).rows(),
            Err(_) => 0,
        }
    }
}

/// The width of the body's line numbers: those of the file, the body starting after the
/// frontmatter.
fn number_width(skill: &Skill, body_lines: usize) -> usize {
    (u64::from(skill.body_line) + body_lines as u64)
        .to_string()
        .len()
}

impl Detail {
    pub fn load(skill: &Skill) -> Detail {
        let body = if skill.file_len() > MAX_PREVIEW_BYTES {
            Err(format!(
                "SKILL.md is {} — too large to preview here",
                human_bytes(skill.file_len())
            ))
        } else {
            library::read_body(skill).map_err(|e| e.to_string())
        };
        let body_lines = body.as_ref().map_or(0, |b| b.lines().count());
        let mut resources = skill.resources.clone();
        resources.sort_by_key(|r| ResourceGroup::of(&r.rel));
        Detail {
            dir: skill.dir.clone(),
            stamp: skill.stamp,
            body,
            body_lines,
            resources,
            source: crate::core::manage::manifest::lookup(&skill.dir),
            wrap: WrapCache::default(),
        }
    }

    pub fn is_for(&self, skill: &Skill) -> bool {
        self.dir == skill.dir && self.stamp == skill.stamp
    }
}

pub fn human_bytes(n: u64) -> String {
    const KIB: f64 = 1024.0;
    let f = n as f64;
    if f < KIB {
        format!("{n} B")
    } else if f < KIB * KIB {
        format!("{:.1} KiB", f / KIB)
    } else {
        format!("{:.1} MiB", f / KIB / KIB)
    }
}

/// A resource of a skill opened from the detail pane, read by its path inside the skill folder
/// (the same rule as `skillscope show`).
#[derive(Debug, Clone)]
pub struct ResourceView {
    /// The skill's folder, so a rescan that removes the skill can be noticed.
    pub dir: PathBuf,
    /// `id / rel`.
    pub title: String,
    /// The file, for the editor and the clipboard.
    pub path: PathBuf,
    pub text: Result<String, String>,
    pub lines: usize,
    /// Its tokens, when L3 is counted.
    pub tokens: Option<u32>,
    /// The first screen row shown (lines wrap).
    pub scroll: u16,
    /// The text wrapped to the viewer's width.
    pub wrap: WrapCache,
}

impl ResourceView {
    /// How wide the text is in a viewer `width` columns wide inside, after its line numbers.
    pub fn text_width(&self, width: usize) -> usize {
        width.saturating_sub(self.lines.max(1).to_string().len() + 3)
    }

    /// How many screen rows the text takes in a viewer `width` columns wide inside.
    pub fn rows(&self, width: usize) -> usize {
        match &self.text {
            Ok(t) => self.wrap.get(t, self.text_width(width)).rows(),
            Err(_) => 0,
        }
    }

    /// The line (1-based) at the top of the viewer.
    pub fn first_line(&self, width: usize) -> u32 {
        let line = match &self.text {
            Ok(t) => {
                self.wrap
                    .get(t, self.text_width(width))
                    .line_at(usize::from(self.scroll))
                    .0
            }
            Err(_) => 0,
        };
        u32::try_from(line + 1).unwrap_or(u32::MAX)
    }
}

impl ResourceView {
    pub fn open(skill: &Skill, rel: &str, tokens: Option<u32>) -> ResourceView {
        let text = crate::core::resource::read_inside(&skill.dir, rel, MAX_PREVIEW_BYTES)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                if t.contains('\0') {
                    Err(format!("`{rel}` is a binary file: only text is shown"))
                } else {
                    Ok(crate::core::escape::text(&t).into_owned())
                }
            });
        ResourceView {
            dir: skill.dir.clone(),
            title: format!("{} / {rel}", skill.id),
            path: skill.dir.join(rel),
            lines: text.as_ref().map_or(0, |t| t.lines().count()),
            text,
            tokens,
            scroll: 0,
            wrap: WrapCache::default(),
        }
    }
}

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
    let skills = &app.screens.skills;
    let focused = skills.mode == Mode::Detail;
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
pub fn line_count(app: &App, skill: &Skill, width: usize) -> usize {
    let body = app
        .screens
        .skills
        .detail
        .as_ref()
        .filter(|d| d.dir == skill.dir)
        .map_or(0, |d| d.body_rows(skill, width));
    head_lines(app, skill, width).len() + body
}

/// Everything above the body, already cut into screen lines.
pub fn head_lines(app: &App, skill: &Skill, width: usize) -> Vec<Line<'static>> {
    let idx = app.screens.skills.list.selected_skill().unwrap_or(0);
    let mut out = Vec::new();
    state_lines(&mut out, app, skill, idx, width);
    agent_lines(&mut out, app, skill, width);
    frontmatter_lines(&mut out, app, skill, idx, width);
    diagnostic_lines(&mut out, app, idx, width);
    resource_lines(&mut out, app, skill, idx, width);
    out
}

/// The skill's state, folder, source, shadowing and costs.
fn state_lines(out: &mut Vec<Line<'static>>, app: &App, skill: &Skill, idx: usize, width: usize) {
    let t = &app.theme;
    let costs = app.costs_of(idx);
    let whose = app
        .view_agent()
        .map(|a| format!(" for {}", crate::core::agents::model::model(a).name))
        .unwrap_or_default();
    let (state, why) = match app.seen(idx) {
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
        Span::styled(crate::core::budget::badge(skill), t.badge()),
    ]));
    if let Some(why) = why {
        out.push(Line::from(Span::styled(truncate(&why, width), t.dim())));
    }
    out.push(Line::from(Span::styled(
        truncate(&skill.dir.display().to_string(), width),
        t.dim(),
    )));
    if let Some(src) = app
        .screens
        .skills
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
    if let Some(w) = skill.shadowed_by.and_then(|w| app.lib.skills.get(w)) {
        for l in wrap_words(
            &format!("shadowed by {} (same name, loaded first)", w.dir.display()),
            width,
        ) {
            out.push(Line::from(Span::styled(l, t.warning())));
        }
    }
    let mut cost_text = format!(
        "Cost L1 {} · L2 {} · L3 {} tokens ({})",
        cost(costs.l1, app.counting.done[0]),
        cost(costs.l2, app.counting.done[1]),
        cost(costs.l3_with_schema(), app.counting.done[2]),
        app.encoding().as_str()
    );
    if let (Some(m), Some(l2)) = (&app.models.chosen, costs.l2) {
        cost_text.push_str(&format!("; L2 {}", m.label(u64::from(l2), app.encoding())));
    }
    for l in wrap_words(&cost_text, width) {
        out.push(Line::from(l));
    }
    for l in wrap_words(&used_text(app, idx), width) {
        out.push(Line::from(l));
    }
}

/// What each agent that reads the skill's folder makes of it.
fn agent_lines(out: &mut Vec<Line<'static>>, app: &App, skill: &Skill, width: usize) {
    let t = &app.theme;
    if let Some(switches) = &app.switches.agents {
        let badges = switches.badges(skill);
        let shown: Vec<_> = badges.iter().filter(|b| b.reads).collect();
        if !shown.is_empty() {
            section(out, "Agents", app);
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
}

/// The frontmatter's fields, the ones no profile (or the profile in use) knows tagged.
fn frontmatter_lines(
    out: &mut Vec<Line<'static>>,
    app: &App,
    skill: &Skill,
    idx: usize,
    width: usize,
) {
    let t = &app.theme;
    section(out, "Frontmatter", app);
    let fm = &skill.frontmatter;
    if fm.fields.is_empty() {
        out.push(Line::from(Span::styled("  (none)", t.dim())));
    }
    let diags = app.diagnostics(idx);
    // A field is tagged unknown where the diagnostics say so (under the profile in use); until
    // they are in, where no profile knows it.
    let unknown_at: Vec<u32> = diags
        .iter()
        .filter(|d| d.rule == crate::core::catalogue::RuleId::UnknownField)
        .filter_map(|d| d.line)
        .collect();
    for f in &fm.fields {
        let extra = if app.findings.checked {
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
        } else if app.findings.checked {
            format!(" (unknown to {})", app.profile_of(idx))
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
fn diagnostic_lines(out: &mut Vec<Line<'static>>, app: &App, idx: usize, width: usize) {
    let t = &app.theme;
    let diags = app.diagnostics(idx);
    let pending = if app.findings.checked { "" } else { " …" };
    section(
        out,
        &format!(
            "{DIAGNOSTICS} ({}, {} rules){pending}",
            diags.len(),
            app.profile_of(idx)
        ),
        app,
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
        out.push(if app.screens.skills.diag_cursor == Some(k) {
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
    app: &App,
    skill: &Skill,
    idx: usize,
    width: usize,
) {
    let t = &app.theme;
    let costs = app.costs_of(idx);
    let detail = app
        .screens
        .skills
        .detail
        .as_ref()
        .filter(|d| d.dir == skill.dir);
    if let Some(d) = detail {
        section(out, &format!("{RESOURCES} ({})", d.resources.len()), app);
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
                (true, None) if app.counting.done[2] => "-".to_string(),
                (true, None) => "…".to_string(),
            };
            let size = human_bytes(r.size);
            let right = format!("{size:>10} {kind:>10}");
            let name_w = width.saturating_sub(right.chars().count() + 5);
            let row = Line::from(vec![
                Span::raw(format!("    {:<name_w$}", truncate(&r.rel, name_w))),
                Span::styled(right, t.dim()),
            ]);
            out.push(if app.screens.skills.resource_cursor == Some(k) {
                row.style(t.selected())
            } else {
                row
            });
        }
        let folded = skill.body_line.saturating_sub(1);
        section(out, "Body", app);
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
        section(out, "Body", app);
        out.push(Line::from(Span::styled("  …", t.dim())));
    }
}

/// The cost when used, with the type that decided it and what it adds up.
fn used_text(app: &App, idx: usize) -> String {
    let Some(u) = app.usage.used.get(idx) else {
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
const DIAGNOSTICS: &str = "Diagnostics";

/// How wide a diagnostic's message is wrapped in a pane `width` columns wide.
fn diagnostic_room(width: usize) -> usize {
    width.saturating_sub(4).max(10)
}

/// The line of the detail pane (before scrolling) that starts diagnostic `k`.
pub fn diagnostic_line(app: &App, skill: &Skill, width: usize, k: usize) -> Option<usize> {
    let lines = head_lines(app, skill, width);
    let title = format!("{DIAGNOSTICS} (");
    let at = lines.iter().position(|l| {
        l.spans
            .first()
            .is_some_and(|s| s.content.starts_with(&title))
    })?;
    let idx = app.screens.skills.list.selected_skill()?;
    let before: usize = app
        .diagnostics(idx)
        .iter()
        .take(k)
        .map(|d| 1 + wrap_words(&d.message, diagnostic_room(width)).len())
        .sum();
    Some(at + 1 + before)
}

/// The line of the detail pane (before scrolling) that shows resource `k`: below the section
/// title, after the heading of each group up to its own.
pub fn resource_line(app: &App, skill: &Skill, width: usize, k: usize) -> Option<usize> {
    let lines = head_lines(app, skill, width);
    let title = format!("{RESOURCES} (");
    let headings = app.screens.skills.detail.as_ref().map_or(0, |d| {
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

fn section(out: &mut Vec<Line<'static>>, title: &str, app: &App) {
    out.push(Line::from(""));
    out.push(Line::from(Span::styled(
        title.to_string(),
        app.theme.title(),
    )));
}
