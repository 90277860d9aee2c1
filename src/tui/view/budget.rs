//! Budget: token totals per level and per source as bars, and the biggest contributors first.

use crate::core::Skill;
use crate::core::source::Scope;
use crate::tui::app::App;
use crate::tui::view::skills::badge;
use crate::tui::view::{cost_in, thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Paragraph};
use std::collections::BTreeMap;

/// Where a skill comes from, for grouping: agent and scope, or for folders given on the command
/// line the root's folder name.
pub fn source_label(skill: &Skill) -> String {
    match skill.scope {
        Scope::Path | Scope::Demo => skill.root.file_name().map_or_else(
            || skill.root.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        _ => badge(skill),
    }
}

/// Totals of one group of skills; `pending` counts skills whose figure is not known yet.
#[derive(Debug, Default, Clone, Copy)]
pub struct Total {
    pub skills: usize,
    pub tokens: u64,
    pub pending: usize,
}

impl Total {
    /// Adds one skill's figure; a missing one is pending only while its level is counted.
    fn add(&mut self, n: Option<u64>, counted: bool) {
        self.skills += 1;
        match n {
            Some(n) => self.tokens += n,
            None if !counted => self.pending += 1,
            None => {}
        }
    }

    fn text(&self) -> String {
        if self.pending == self.skills && self.skills > 0 {
            "…".to_string()
        } else if self.pending > 0 {
            format!("{}+…", thousands(self.tokens))
        } else {
            thousands(self.tokens)
        }
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let lib = &app.lib;
    let on = |i: usize| {
        app.enabled.get(i).copied().unwrap_or(false) && lib.skills[i].shadowed_by.is_none()
    };
    let (mut l1, mut l2, mut l3) = (Total::default(), Total::default(), Total::default());
    let mut by_source: BTreeMap<String, Total> = BTreeMap::new();
    for (i, skill) in lib.skills.iter().enumerate() {
        if !on(i) {
            continue;
        }
        let c = app.costs.get(i).copied().unwrap_or_default();
        let done = app.levels_done;
        l1.add(c.l1, done[0]);
        l2.add(c.l2, done[1]);
        l3.add(c.l3_all(), done[2]);
        by_source
            .entry(source_label(skill))
            .or_default()
            .add(c.l1, done[0]);
    }

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
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(rest)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(rest)
    };

    let mut groups: Vec<(String, Total)> = by_source.into_iter().collect();
    groups.sort_by(|a, b| {
        b.1.tokens
            .cmp(&a.1.tokens)
            .then(b.1.skills.cmp(&a.1.skills))
    });
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

    // The biggest contributors: most tokens per load (L2, then L1).
    let mut order: Vec<usize> = (0..lib.skills.len()).filter(|i| on(*i)).collect();
    let weight = |i: usize| {
        let c = app.costs.get(i).copied().unwrap_or_default();
        (c.l2.unwrap_or(0), c.l1.unwrap_or(0))
    };
    order.sort_by(|a, b| {
        weight(*b)
            .cmp(&weight(*a))
            .then_with(|| lib.skills[*a].name.cmp(&lib.skills[*b].name))
    });
    let width = usize::from(top.width.saturating_sub(2));
    let name_w = width.saturating_sub(16);
    let lines: Vec<Line> = order
        .iter()
        .take(usize::from(top.height.saturating_sub(2)))
        .map(|&i| {
            let c = app.costs.get(i).copied().unwrap_or_default();
            let figure = format!(
                "{:>7} {:>6}",
                cost_in(c.l2, app.levels_done[1], 7),
                cost_in(c.l1, app.levels_done[0], 6)
            );
            Line::from(vec![
                Span::raw(format!(
                    "{:<name_w$} ",
                    truncate(&lib.skills[i].name, name_w)
                )),
                Span::styled(figure, t.dim()),
            ])
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" Biggest per load: L2, L1 ")),
        top,
    );
}
