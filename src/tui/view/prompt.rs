//! The prompt preview: the exact listing an agent would get, its token count, the budget gauge
//! and every skill's fate. Updates as toggles change.

use crate::core::listing::Fate;
use crate::core::modes::{ListingMode, saving_text};
use crate::tui::app::{App, FORMATS, TIERS};
use crate::tui::event::Preview;
use crate::tui::view::{thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Gauge, Paragraph};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let p = &app.prompt;
    let [head, gauge, body] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(1),
        Constraint::Min(3),
    ])
    .areas(area);
    let settings = format!(
        " Prompt · mode {} · {} · tier {} · window {} ",
        p.mode.as_str(),
        FORMATS[p.format].as_str(),
        TIERS[p.tier].as_str(),
        thousands(app.window())
    );
    let Some(preview) = app.preview.as_ref() else {
        frame.render_widget(
            Paragraph::new(Line::from(Span::styled(" rendering the listing…", t.dim())))
                .block(Block::bordered().title(Span::styled(settings, t.title()))),
            area,
        );
        return;
    };
    let l = &preview.listing;
    let listed = l.entries.len() - l.count(Fate::Dropped);
    let tokens = thousands(u64::from(preview.tokens));
    let summary = vec![
        Line::from(vec![
            Span::raw(format!(
                " {} {} → {} listed (tier {}): ",
                l.entries.len(),
                offered(preview.mode),
                listed,
                l.tier
            )),
            Span::styled(format!("{} full", l.count(Fate::Full)), t.on()),
            Span::raw(", "),
            Span::styled(format!("{} trimmed", l.count(Fate::Trimmed)), t.warning()),
            Span::raw(", "),
            Span::styled(
                format!("{} name only", l.count(Fate::NameOnly)),
                t.warning(),
            ),
            Span::raw(", "),
            Span::styled(format!("{} dropped", l.count(Fate::Dropped)), t.error()),
        ]),
        Line::from(match &app.model {
            None => format!(
                " {} tokens ({}, an estimate: Claude models count 10–20% more) · {} chars",
                tokens,
                app.encoding().as_str(),
                thousands(l.text.chars().count() as u64)
            ),
            Some(_) => format!(
                " {} tokens ({}){} · {} chars",
                tokens,
                app.encoding().as_str(),
                app.beside(u64::from(preview.tokens)),
                thousands(l.text.chars().count() as u64)
            ),
        }),
        comparison_line(preview, app),
    ];
    frame.render_widget(
        Paragraph::new(summary).block(Block::bordered().title(Span::styled(settings, t.title()))),
        head,
    );
    let (ratio, label, over) = match l.budget_chars {
        Some(budget) if budget > 0 => {
            let r = l.used_chars as f64 / budget as f64;
            (
                r,
                format!(
                    "budget {} / {} chars ({:.0}%)",
                    thousands(l.used_chars as u64),
                    thousands(budget as u64),
                    r * 100.0
                ),
                r > 1.0,
            )
        }
        _ => {
            let n = f64::from(preview.tokens);
            let window = app.window() as f64;
            let r = n / window;
            (
                r,
                format!(
                    "{:.2}% of the context window, every turn (no budget for this format)",
                    r * 100.0
                ),
                false,
            )
        }
    };
    frame.render_widget(
        Gauge::default()
            .gauge_style(if over { t.gauge_over() } else { t.gauge() })
            .ratio(ratio.clamp(0.0, 1.0))
            .label(label),
        gauge,
    );

    let [text_area, fates_area] = if body.width >= 100 {
        Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(body)
    } else {
        Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(body)
    };
    let text_w = usize::from(text_area.width.saturating_sub(2));
    let height = usize::from(text_area.height.saturating_sub(2));
    let total_lines = l.text.lines().count();
    let scroll = usize::from(p.scroll).min(total_lines.saturating_sub(height));
    let mut lines: Vec<Line> = l
        .text
        .lines()
        .skip(scroll)
        .take(height)
        .map(|line| Line::from(truncate(line, text_w)))
        .collect();
    if preview.mode == ListingMode::Auto && preview.message.is_none() {
        lines = [
            " auto lists only the skills a message makes relevant:",
            " type one in the Test box (3).",
        ]
        .iter()
        .map(|l| Line::from(Span::styled(truncate(l, text_w), t.dim())))
        .collect();
    }
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(format!(
            " What the system prompt holds · lines {}–{} of {} ",
            (scroll + 1).min(total_lines),
            (scroll + height).min(total_lines),
            total_lines
        ))),
        text_area,
    );

    let fate_w = usize::from(fates_area.width.saturating_sub(2));
    let mut order: Vec<&crate::core::listing::ListedSkill> = l.entries.iter().collect();
    // The skills that lost something first: dropped, name only, trimmed, then full.
    order.sort_by(|a, b| b.fate.cmp(&a.fate).then(a.index.cmp(&b.index)));
    let fate_lines: Vec<Line> = order
        .iter()
        .take(usize::from(fates_area.height.saturating_sub(2)))
        .map(|e| {
            let style = match e.fate {
                Fate::Full => t.on(),
                Fate::Trimmed | Fate::NameOnly => t.warning(),
                Fate::Dropped => t.error(),
            };
            let name = app.lib.skills.get(e.index).map_or("", |s| s.name.as_str());
            let mut spans = vec![
                Span::styled(format!("{:<9} ", e.fate.as_str()), style),
                Span::raw(truncate(name, fate_w.saturating_sub(10))),
            ];
            let used = 10
                + crate::core::text::line(name)
                    .chars()
                    .count()
                    .min(fate_w.saturating_sub(10));
            if !e.reason.is_empty() && used + 3 < fate_w {
                spans.push(Span::styled(
                    format!("  {}", truncate(&e.reason, fate_w - used - 2)),
                    t.dim(),
                ));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(
        Paragraph::new(fate_lines).block(
            Block::bordered().title(format!(" Fate of each {} skill ", offered(preview.mode))),
        ),
        fates_area,
    );
}

/// What a mode offers to the listing, as the summary names it.
fn offered(mode: ListingMode) -> &'static str {
    match mode {
        ListingMode::Enabled => "enabled",
        ListingMode::All => "installed",
        ListingMode::Auto => "relevant",
    }
}

/// Each mode's tokens per turn side by side, and what auto saves for the Test box's message.
fn comparison_line(preview: &Preview, app: &App) -> Line<'static> {
    let t = &app.theme;
    let c = &preview.comparison;
    let mut spans = vec![Span::raw(" per turn: ")];
    for m in &c.modes {
        let text = format!("{} {}", m.mode.as_str(), thousands(u64::from(m.tokens)));
        spans.push(if m.mode == preview.mode {
            Span::styled(text, t.selected())
        } else {
            Span::raw(text)
        });
        spans.push(Span::raw(" · "));
    }
    match (c.get(ListingMode::Auto), &preview.message) {
        (Some(_), Some(msg)) => {
            spans.pop();
            spans.push(Span::raw(" tok; auto "));
            spans.push(Span::styled(
                format!(
                    "{} vs all, {} vs enabled",
                    saving_text(c.saving(ListingMode::Auto, ListingMode::All)),
                    saving_text(c.saving(ListingMode::Auto, ListingMode::Enabled))
                ),
                t.on(),
            ));
            spans.push(Span::styled(
                format!(" for \"{}\"", truncate(msg, 40)),
                t.dim(),
            ));
        }
        _ => spans.push(Span::styled(
            "auto: type a message in the Test box",
            t.dim(),
        )),
    }
    Line::from(spans)
}
