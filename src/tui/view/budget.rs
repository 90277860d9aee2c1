//! Budget: token totals per level and per source as bars, and the biggest contributors first.

use crate::core::budget;
use crate::core::skill::KindSource;
use crate::tui::app::App;
use crate::tui::view::{cost_in, thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Cell, Row, Table};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let lib = &app.lib;
    let on = budget::listed(lib, &app.enabled);
    let summary = budget::summarize(&app.costs, &on, app.levels_done);
    let (l1, l2, l3) = (summary.l1, summary.l2, summary.l3);

    let [levels, rest] = Layout::vertical([Constraint::Length(5), Constraint::Min(3)]).areas(area);
    let max = l1.tokens.max(l2.tokens).max(l3.tokens).max(1);
    let level_bars: Vec<Bar> = [
        ("L1 every turn", l1),
        ("L2 if all load", l2),
        ("L3 if all used", l3),
    ]
    .iter()
    .map(|(label, total)| {
        Bar::default()
            .label(Line::from(*label))
            .value(total.tokens)
            .text_value(match (&app.model, total.pending) {
                (Some(_), 0) => format!("{} tok{}", total.text(), app.beside(total.tokens)),
                _ => format!("{} tok", total.text()),
            })
    })
    .collect();
    let title = format!(
        " Budget · {} enabled skills (shadowed copies left out) · L1 as {} entries ",
        thousands(l1.skills as u64),
        crate::tui::app::FORMATS[app.prompt.format].as_str()
    );
    frame.render_widget(
        BarChart::default()
            .direction(Direction::Horizontal)
            .block(Block::bordered().title(Span::styled(title, t.title())))
            .bar_width(1)
            .bar_gap(0)
            .bar_style(t.gauge())
            .value_style(t.selected())
            .max(max)
            .data(BarGroup::default().bars(&level_bars)),
        levels,
    );

    let [sources, top] = if rest.width >= 100 {
        Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(rest)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(rest)
    };

    let groups = budget::l1_by_source(lib, &app.costs, &on, app.levels_done);
    let rows = usize::from(sources.height.saturating_sub(2));
    let label_w = usize::from(sources.width / 3).clamp(8, 24);
    let bars: Vec<Bar> = groups
        .iter()
        .take(rows)
        .map(|(name, total)| {
            Bar::default()
                .label(Line::from(truncate(name, label_w)))
                .value(total.tokens)
                .text_value(format!(
                    "{} tok · {} skills",
                    total.text(),
                    thousands(total.skills as u64)
                ))
        })
        .collect();
    let source_max = groups.iter().map(|g| g.1.tokens).max().unwrap_or(0).max(1);
    frame.render_widget(
        BarChart::default()
            .direction(Direction::Horizontal)
            .block(Block::bordered().title(" L1 per source "))
            .bar_width(1)
            .bar_gap(0)
            .bar_style(t.gauge())
            .value_style(t.selected())
            .max(source_max)
            .data(BarGroup::default().bars(&bars)),
        sources,
    );

    // The biggest contributors: most tokens once used, then per load (L2), then per turn (L1).
    let mut order: Vec<usize> = (0..lib.skills.len()).filter(|i| on(*i)).collect();
    let weight = |i: usize| {
        let c = app.costs_of(i);
        let used = app.used.get(i).and_then(|u| u.tokens).unwrap_or(0);
        (
            used,
            u64::from(c.l2.unwrap_or(0)),
            u64::from(c.l1.unwrap_or(0)),
        )
    };
    order.sort_by(|a, b| {
        weight(*b)
            .cmp(&weight(*a))
            .then_with(|| lib.skills[*a].name.cmp(&lib.skills[*b].name))
    });
    let done = app.levels_done;
    let right = |s: String| Cell::from(Line::from(s).right_aligned());
    let rows: Vec<Row> = order
        .iter()
        .take(usize::from(top.height.saturating_sub(3)))
        .map(|&i| {
            let c = app.costs_of(i);
            let u = app.used.get(i);
            let used = match u.map(|u| (u.tokens, u.schema_unknown)) {
                Some((Some(n), false)) => crate::core::text::compact(n, 7),
                Some((Some(n), true)) => format!("{}?", crate::core::text::compact(n, 6)),
                _ => "…".to_string(),
            };
            let kind = u.map_or_else(String::new, |u| match u.decided_by {
                KindSource::Entry | KindSource::EntryScript => format!("{}*", u.kind.as_str()),
                _ => u.kind.as_str().to_string(),
            });
            Row::new(vec![
                Cell::from(crate::core::text::line(&lib.skills[i].name)),
                right(cost_in(c.l1, done[0], 6)),
                right(cost_in(c.l2, done[1], 6)),
                right(cost_in(c.l3_with_schema(), done[2], 6)),
                right(used),
                Cell::from(Span::styled(kind, t.dim())),
            ])
        })
        .collect();
    let table = Table::new(
        rows,
        [
            Constraint::Fill(1),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(7),
            Constraint::Length(11),
        ],
    )
    .header(
        Row::new(vec![
            "skill", "    L1", "    L2", "    L3", "   used", "type",
        ])
        .style(t.dim()),
    )
    .column_spacing(1)
    .block(Block::bordered().title(" Biggest when used (? not probed, * type inferred) "));
    frame.render_widget(table, top);
}
