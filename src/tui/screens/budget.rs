//! The Budget screen, made to be looked at: what every turn costs (L1) as a share of the
//! context window and of the listing's budget; what loading costs (L2, L3) on a scale of its
//! own; each agent's listing side by side; where the L1 comes from; and the biggest skills.
//! Every bar has its label beside it, never on it, so a label's length never changes a bar's.
//! Its state is the agents' prices, made on a worker when it is shown; its keys are the model
//! and the context window.

use super::screen::{Ctx, Outcome, Screen};
use crate::core::agents::budget::AgentBudget;
use crate::core::pricing::budget::{self, LevelTotal};
use crate::core::probe::ProbeReport;
use crate::core::skill::KindSource;
use crate::tui::action::Action;
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::state::view::View;
use crate::tui::state::work::Job;
use crate::tui::view::parts::{bar, cost_in};
use crate::tui::view::{thousands, truncate};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table, Wrap};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Every agent's listing priced, made when the screen is shown: one run at a time, the newest
/// request waiting, as for the prompt preview.
#[derive(Debug, Default)]
pub struct Budget {
    pub budgets: Option<Vec<AgentBudget>>,
    pub job: Job,
    /// The skills (by folder) whose last `--help-json` probe failed: their name and why, in
    /// plain words with what to do. Their cost when used has no schema in it.
    pub failed_probes: BTreeMap<PathBuf, (String, String)>,
}

impl Budget {
    /// Prices every agent's listing of `lib` for `request` on a worker, or has the run under
    /// way run again.
    pub fn start(
        &mut self,
        lib: &std::sync::Arc<crate::core::Library>,
        cache: &crate::tui::jobs::Cache,
        request: crate::tui::jobs::BudgetRequest,
        tx: &std::sync::mpsc::Sender<crate::tui::event::Event>,
    ) {
        let Some(run) = self.job.start() else {
            return;
        };
        crate::tui::jobs::agent_budgets(
            std::sync::Arc::clone(lib),
            cache.clone(),
            request,
            run,
            tx.clone(),
        );
    }

    /// Takes a probe's outcome: a failure is remembered with its reason, a pass forgets one.
    pub fn probed(&mut self, report: &ProbeReport) {
        match report.verdict.as_ref().filter(|_| report.probe_failed()) {
            Some(v) => {
                self.failed_probes
                    .insert(report.dir.clone(), (report.skill.clone(), v.detail()));
            }
            None => {
                self.failed_probes.remove(&report.dir);
            }
        }
    }

    /// Prices for `request`; `true`: price again (something changed meanwhile).
    pub fn arrived(&mut self, request: u64, budgets: Vec<AgentBudget>) -> bool {
        let (newest, again) = self.job.finish(request);
        if newest {
            self.budgets = Some(budgets);
        }
        again
    }

    /// The figures shown are the ones for the current toggles and settings (off the Budget
    /// screen, `screen`, nothing is priced: nothing runs).
    pub fn settled(&self, screen: crate::tui::action::Screen) -> bool {
        self.job.idle()
            && (screen != crate::tui::action::Screen::Budget
                || (self.budgets.is_some() && !self.job.is_stale()))
    }
}

impl Screen for Budget {
    fn context(&self) -> Context {
        Context::Budget
    }

    /// Its keys (the model, the window) are the app's and the Prompt screen's.
    fn handle(&mut self, _action: Action, _cx: &Ctx) -> Outcome {
        Outcome::Ignored
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, areas: Areas) {
        draw(frame, areas.body, view, self);
    }
}

/// Terminals at least this wide get two panels side by side.
const WIDE: u16 = 120;

/// One bar of a panel: its label, how full it is, and the figure that goes after it.
struct BarRow {
    label: String,
    ratio: f64,
    value: String,
    /// Past its limit (drawn in the warning colour).
    over: bool,
    /// Nothing to draw: the figure alone (dim).
    empty: bool,
}

/// Draws `rows` as label · bar · value in `area`: every label in one column as wide as the
/// widest, every bar the same length, every value after its bar.
fn bars(rows: &[BarRow], area: Rect, view: &View<'_>) -> Vec<Line<'static>> {
    let t = &view.theme;
    let width = usize::from(area.width);
    let label_w = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0)
        .min(width / 3);
    // A third of the width is kept for the figures whatever they say, so a longer one (a
    // model's estimate beside it) leaves the bars as they were.
    let value_w = rows
        .iter()
        .map(|r| r.value.chars().count())
        .max()
        .unwrap_or(0)
        .max(width / 3)
        .min(width / 2);
    let bar_w = width.saturating_sub(label_w + value_w + 2).max(1);
    rows.iter()
        .map(|r| {
            let label = format!("{:<label_w$} ", truncate(&r.label, label_w));
            let mut spans = vec![Span::raw(label)];
            if r.empty {
                spans.push(Span::styled(" ".repeat(bar_w), t.dim()));
            } else {
                let fill = if r.over { t.gauge_over() } else { t.gauge() };
                spans.extend(bar(r.ratio, bar_w, fill, t.dim()));
            }
            let style = if r.empty { t.dim() } else { Style::default() };
            spans.push(Span::styled(
                format!(" {}", truncate(&r.value, value_w)),
                style,
            ));
            Line::from(spans)
        })
        .collect()
}

/// `0.03%`, `4.2%`, `93%`, `467%`: two figures where a share is small.
fn percent(ratio: f64) -> String {
    let p = ratio * 100.0;
    if p == 0.0 {
        "0%".to_string()
    } else if p < 0.1 {
        format!("{p:.2}%")
    } else if p < 10.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// The biggest skills keep their header and one row, however many agents there are.
const TOP_MIN: u16 = 4;

/// The areas of the screen: per turn, when loaded, per agent, per source (wide only), the
/// biggest skills.
struct Parts {
    turn: Rect,
    loaded: Rect,
    agents: Rect,
    sources: Option<Rect>,
    top: Rect,
}

fn parts(area: Rect) -> Parts {
    let agents_h = u16::try_from(crate::core::agents::model::models().count()).unwrap_or(7) + 2;
    if area.width >= WIDE {
        let agents_h = agents_h.min(area.height.saturating_sub(5 + TOP_MIN).max(3));
        let [row1, row2, top] = Layout::vertical([
            Constraint::Length(6),
            Constraint::Length(agents_h),
            Constraint::Min(TOP_MIN),
        ])
        .areas(area);
        let [turn, loaded] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                .areas(row1);
        let [agents, sources] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                .areas(row2);
        Parts {
            turn,
            loaded,
            agents,
            sources: Some(sources),
            top,
        }
    } else {
        let agents_h = agents_h.min(area.height.saturating_sub(5 + 4 + TOP_MIN).max(3));
        let [turn, loaded, agents, top] = Layout::vertical([
            Constraint::Length(6),
            Constraint::Length(4),
            Constraint::Length(agents_h),
            Constraint::Min(TOP_MIN),
        ])
        .areas(area);
        Parts {
            turn,
            loaded,
            agents,
            sources: None,
            top,
        }
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, budget: &Budget) {
    let listed = view.listed_mask();
    let on = |i: usize| listed.get(i).copied().unwrap_or(false);
    let summary = budget::summarize(view.costs, &on, view.counting.done);
    let p = parts(area);
    match view.view_agent() {
        Some(agent) => agent_turn(frame, p.turn, view, budget, agent),
        None => per_turn(frame, p.turn, view, summary.l1),
    }
    when_loaded(frame, p.loaded, view, &summary);
    per_agent(frame, p.agents, view, budget);
    if let Some(sources) = p.sources {
        per_source(frame, sources, view, &on);
    }
    biggest(frame, p.top, view, &on, &budget.failed_probes);
}

/// The agent in view every turn: its own listing (its skills, precedence, switches, format and
/// budget), its share of its window and of its budget, and each entry's fate.
fn agent_turn(
    frame: &mut Frame,
    area: Rect,
    view: &View<'_>,
    budget: &Budget,
    agent: crate::core::source::Agent,
) {
    let t = &view.theme;
    let name = crate::core::agents::model::model(agent).name;
    let b = budget
        .budgets
        .as_ref()
        .and_then(|all| all.iter().find(|b| b.agent == agent));
    let Some(b) = b else {
        let block =
            Block::bordered().title(Span::styled(format!(" Every turn · {name} "), t.title()));
        frame.render_widget(
            Paragraph::new(Span::styled(format!("pricing {name}'s listing…"), t.dim()))
                .block(block),
            area,
        );
        return;
    };
    let per_turn = u64::from(b.per_turn());
    let title = format!(
        " Every turn · {name} · {} tok{} · {} of {} listed ",
        thousands(per_turn),
        match &view.models.chosen {
            Some(_) => view.beside(per_turn),
            None => String::new(),
        },
        thousands(b.listed as u64),
        thousands(b.skills as u64),
    );
    let title = truncate(&title, usize::from(area.width.saturating_sub(2)));
    let mut block = Block::bordered().title(Span::styled(title, t.title()));
    // The model its budget is made for, and where it was set.
    if let Some(model) = view.client_model_text() {
        let text = format!(" {model} ");
        block = block.title_bottom(Span::styled(
            truncate(&text, usize::from(area.width.saturating_sub(2))),
            t.dim(),
        ));
    }
    let inner = block.inner(area);
    let window = b.window as u64;
    let window_share = b.window_share(window);
    let mut rows = vec![BarRow {
        label: "of the window".to_string(),
        ratio: window_share,
        value: format!("{} of {}", percent(window_share), thousands(window)),
        over: window_share > 1.0,
        empty: false,
    }];
    rows.push(match (b.budget, b.budget_share()) {
        (Some(budget), Some(r)) => BarRow {
            label: "of the budget".to_string(),
            ratio: r,
            value: format!("{} of {}", percent(r), budget.amount(budget.limit)),
            over: r > 1.0,
            empty: false,
        },
        _ => BarRow {
            label: "of the budget".to_string(),
            ratio: 0.0,
            value: format!("{name} sets no budget: every entry in full"),
            over: false,
            empty: true,
        },
    });
    let mut lines = bars(&rows, inner, view);
    if inner.height > 2 {
        lines.push(Line::from(Span::styled(
            truncate(&format!("entries: {}", b.fates()), usize::from(inner.width)),
            if b.cut() > 0 { t.warning() } else { t.dim() },
        )));
    }
    if inner.height > 3 {
        lines.push(Line::from(Span::styled(
            truncate(&turn_parts(b), usize::from(inner.width)),
            t.dim(),
        )));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// What one turn is made of: the listing (with the client's own entries' share) and the skill
/// tool's definition.
fn turn_parts(b: &crate::core::agents::budget::AgentBudget) -> String {
    let own = if b.builtins.entries > 0 {
        format!(
            " (the client's own {} entries: {})",
            b.builtins.entries,
            thousands(u64::from(b.builtins.tokens))
        )
    } else {
        String::new()
    };
    let tool = b.tool.as_ref().map_or_else(String::new, |tool| {
        format!(
            " + {} tool {} tok",
            tool.name,
            thousands(u64::from(tool.tokens))
        )
    });
    format!("listing {} tok{own}{tool}", thousands(u64::from(b.tokens)))
}

/// L1 every turn of the folders given (no agent owns them): its total, and bars of its share of
/// the context window and of the listing format's budget.
fn per_turn(frame: &mut Frame, area: Rect, view: &View<'_>, l1: LevelTotal) {
    let t = &view.theme;
    let format = super::prompt::FORMATS[view.format];
    let window = view.window();
    let title = format!(
        " Every turn · L1 {} tok{} · {} enabled skills as {} entries (shadowed copies left out) ",
        l1.text(),
        match (&view.models.chosen, l1.pending) {
            (Some(_), 0) => view.beside(l1.tokens),
            _ => String::new(),
        },
        thousands(l1.skills as u64),
        format.as_str()
    );
    let title = truncate(&title, usize::from(area.width.saturating_sub(2)));
    let block = Block::bordered().title(Span::styled(title, t.title()));
    let inner = block.inner(area);
    let mut lines = Vec::new();
    let window_share = l1.tokens as f64 / window.max(1) as f64;
    let mut rows = vec![BarRow {
        label: "of the window".to_string(),
        ratio: window_share,
        value: format!("{} of {}", percent(window_share), thousands(window)),
        over: window_share > 1.0,
        empty: false,
    }];
    // L1 is in tokens, so a budget in characters is compared in tokens at the same 4
    // characters a token the agents assume.
    let budget_tokens = format
        .budget(usize::try_from(window).unwrap_or(usize::MAX))
        .map(|b| match b.unit {
            crate::core::listing::BudgetUnit::Chars => {
                (b.limit / crate::core::listing::CHARS_PER_TOKEN) as u64
            }
            crate::core::listing::BudgetUnit::Tokens => b.limit as u64,
        });
    rows.push(match (budget_tokens, format.budget_percent()) {
        (Some(b), Some(pct)) if b > 0 => {
            let r = l1.tokens as f64 / b as f64;
            let over = if r > 1.0 { ", entries cut" } else { "" };
            let share = format!("{} of {}", percent(r), thousands(b));
            // As much as fits in half the panel: the budget's rule, then whether it cuts.
            let room = usize::from(inner.width) / 2;
            let value = [
                format!("{share} ({pct}% of the window){over}"),
                format!("{share}{over}"),
            ]
            .into_iter()
            .find(|v| v.chars().count() <= room)
            .unwrap_or(share);
            BarRow {
                label: "of the budget".to_string(),
                ratio: r,
                value,
                over: r > 1.0,
                empty: false,
            }
        }
        _ => BarRow {
            label: "of the budget".to_string(),
            ratio: 0.0,
            value: format!("none in the {} format", format.as_str()),
            over: false,
            empty: true,
        },
    });
    lines.extend(bars(&rows, inner, view));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// L2 and L3: what loading every body and using every file would add, on their own scale.
fn when_loaded(frame: &mut Frame, area: Rect, view: &View<'_>, s: &budget::Summary) {
    let t = &view.theme;
    let block = Block::bordered().title(Span::styled(" When loaded · own scale ", t.title()));
    let inner = block.inner(area);
    let scale = s.l2.tokens.max(s.l3.tokens).max(1) as f64;
    let value = |total: &LevelTotal| match (&view.models.chosen, total.pending) {
        (Some(_), 0) => format!("{} tok{}", total.text(), view.beside(total.tokens)),
        _ => format!("{} tok", total.text()),
    };
    let rows = [
        BarRow {
            label: "L2 every body".to_string(),
            ratio: s.l2.tokens as f64 / scale,
            value: value(&s.l2),
            over: false,
            empty: false,
        },
        BarRow {
            label: "L3 every file".to_string(),
            ratio: s.l3.tokens as f64 / scale,
            value: value(&s.l3),
            over: false,
            empty: false,
        },
    ];
    let mut lines = bars(&rows, inner, view);
    if inner.height > 2 {
        let n = s.l2.skills.max(1) as u64;
        lines.push(Line::from(Span::styled(
            truncate(
                &format!(
                    "a body {} tok on average · {} resources ({} binary)",
                    thousands(s.l2.tokens / n),
                    thousands(s.resources as u64),
                    thousands(s.binary as u64)
                ),
                usize::from(inner.width),
            ),
            t.dim(),
        )));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// Each agent's listing every turn, on one scale, with its share of its budget (or of the
/// window when it has none).
fn per_agent(frame: &mut Frame, area: Rect, view: &View<'_>, budget: &Budget) {
    let t = &view.theme;
    let block = Block::bordered().title(Span::styled(
        " Each agent every turn · its own skills, format and budget ",
        t.title(),
    ));
    let inner = block.inner(area);
    let Some(budgets) = &budget.budgets else {
        frame.render_widget(
            Paragraph::new(Span::styled("pricing each agent's listing…", t.dim())).block(block),
            area,
        );
        return;
    };
    let scale = budgets.iter().map(|b| b.tokens).max().unwrap_or(0).max(1);
    let rows: Vec<BarRow> = budgets
        .iter()
        .map(|b| agent_row(b, scale, view.window(), usize::from(inner.width) / 2))
        .collect();
    let room = usize::from(inner.height);
    let mut lines = bars(&rows, inner, view);
    if lines.len() > room {
        // The agents that do not fit are named on the last line rather than cut silently.
        let shown = room.saturating_sub(1);
        let rest: Vec<&str> = rows[shown..].iter().map(|r| r.label.as_str()).collect();
        lines.truncate(shown);
        let more = format!(
            "+{} more: {} (a taller window shows them)",
            rest.len(),
            rest.join(", ")
        );
        lines.push(Line::from(Span::styled(
            truncate(&more, usize::from(inner.width)),
            t.dim(),
        )));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// An agent's bar: its tokens on the scale of the largest listing, and its figures, as many as
/// fit in `room` columns (tokens and share first, then what the budget cut, then how many).
fn agent_row(b: &AgentBudget, scale: u32, window: u64, room: usize) -> BarRow {
    let label = b.agent.shown().to_string();
    if b.skills == 0 {
        return BarRow {
            label,
            ratio: 0.0,
            value: "reads none of these skills".to_string(),
            over: false,
            empty: true,
        };
    }
    let tokens = format!("{} tok", thousands(u64::from(b.tokens)));
    let share = match b.budget_share() {
        Some(r) => format!("{} of budget", percent(r)),
        None => format!("{} of window", percent(b.window_share(window))),
    };
    // Each fate by its name: what was shortened, listed by name only, left out.
    let cut = [
        (b.trimmed, "trimmed"),
        (b.name_only, "name only"),
        (b.dropped, "dropped"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{} {what}", thousands(*n as u64)))
    .collect::<Vec<_>>();
    let cut = (!cut.is_empty()).then(|| cut.join(", "));
    let listed = format!("{} listed", thousands(b.listed as u64));
    let variants = [
        [Some(&tokens), Some(&listed), Some(&share), cut.as_ref()],
        [Some(&tokens), None, Some(&share), cut.as_ref()],
        [Some(&tokens), None, Some(&share), None],
    ];
    let value = variants
        .iter()
        .map(|v| {
            v.iter()
                .flatten()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" · ")
        })
        .find(|v| v.chars().count() <= room)
        .unwrap_or_else(|| format!("{tokens} · {share}"));
    BarRow {
        label,
        ratio: f64::from(b.tokens) / f64::from(scale),
        value,
        over: b.budget_share().is_some_and(|r| r > 1.0),
        empty: false,
    }
}

/// L1 by where the skills come from (agent and scope, or the folder given).
fn per_source(frame: &mut Frame, area: Rect, view: &View<'_>, on: &dyn Fn(usize) -> bool) {
    let groups = budget::l1_by_source(view.lib, view.costs, on, view.counting.done);
    let block = Block::bordered().title(" L1 per source ");
    let inner = block.inner(area);
    let scale = groups.iter().map(|g| g.1.tokens).max().unwrap_or(0).max(1) as f64;
    let rows: Vec<BarRow> = groups
        .iter()
        .take(usize::from(inner.height))
        .map(|(name, total)| BarRow {
            label: name.clone(),
            ratio: total.tokens as f64 / scale,
            value: format!(
                "{} tok · {}",
                total.text(),
                crate::core::words::text::count(total.skills as u64, "skill", "skills")
            ),
            over: false,
            empty: false,
        })
        .collect();
    frame.render_widget(Paragraph::new(bars(&rows, inner, view)).block(block), area);
}

/// The biggest contributors: most tokens once used, then per load (L2), then per turn (L1).
/// A skill whose probe failed is marked `!`, and below the table a line per such skill says
/// why and what to do.
fn biggest(
    frame: &mut Frame,
    area: Rect,
    view: &View<'_>,
    on: &dyn Fn(usize) -> bool,
    failed: &BTreeMap<PathBuf, (String, String)>,
) {
    let t = &view.theme;
    let lib = &view.lib;
    let failed_here = |i: usize| {
        lib.skills
            .get(i)
            .and_then(|s| failed.get(&s.dir))
            .filter(|_| on(i))
    };
    let notes = probe_notes(view, (0..lib.skills.len()).filter_map(&failed_here));
    let (area, notes_area) = room_for_notes(area, &notes);
    let mut order: Vec<usize> = (0..lib.skills.len()).filter(|i| on(*i)).collect();
    let weight = |i: usize| {
        let c = view.costs_of(i);
        let used = view.usage.used.get(i).and_then(|u| u.tokens).unwrap_or(0);
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
    let done = view.counting.done;
    let names = budget::shown_names(lib);
    let right = |s: String| Cell::from(Line::from(s).right_aligned());
    let rows: Vec<Row> = order
        .iter()
        .take(usize::from(area.height.saturating_sub(3)))
        .map(|&i| {
            let c = view.costs_of(i);
            let u = view.usage.used.get(i);
            let used = match u.map(|u| (u.tokens, u.schema_unknown)) {
                Some((Some(n), false)) => crate::core::words::text::compact(n, 7),
                Some((Some(n), true)) if failed_here(i).is_some() => {
                    format!("{}!", crate::core::words::text::compact(n, 6))
                }
                Some((Some(n), true)) => format!("{}?", crate::core::words::text::compact(n, 6)),
                _ => "…".to_string(),
            };
            let kind = u.map_or_else(String::new, |u| match u.decided_by {
                KindSource::Entry | KindSource::EntryScript => format!("{}*", u.kind.as_str()),
                _ => u.kind.as_str().to_string(),
            });
            Row::new(vec![
                Cell::from(crate::core::words::text::line(&names[i])),
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
    .block(Block::bordered().title(if notes.is_empty() {
        " Biggest when used (? not probed, * type inferred) "
    } else {
        " Biggest when used (? not probed, ! probe failed, * type inferred) "
    }));
    frame.render_widget(table, area);
    if let Some(below) = notes_area {
        let block = Block::bordered().title(" Probes that failed ");
        frame.render_widget(
            Paragraph::new(notes)
                .wrap(Wrap { trim: false })
                .block(block),
            below,
        );
    }
}

/// A line per skill whose probe failed: which skill, why in plain words, what to do.
fn probe_notes<'a>(
    view: &View<'_>,
    failed: impl Iterator<Item = &'a (String, String)>,
) -> Vec<Line<'static>> {
    failed
        .map(|(skill, why)| {
            Line::from(Span::styled(
                format!(
                    "! {}: its --help-json probe failed, so its schema is not in used: {}. The Checks screen (4) shows the whole report; r there probes again.",
                    crate::core::words::text::line(skill),
                    crate::core::words::text::line(why)
                ),
                view.theme.warning(),
            ))
        })
        .collect()
}

/// The table's area and, when there are notes and room, a box below it for them (at most half
/// the height).
fn room_for_notes(area: Rect, notes: &[Line<'_>]) -> (Rect, Option<Rect>) {
    if notes.is_empty() || area.height < 8 {
        return (area, None);
    }
    let inner_width = usize::from(area.width.saturating_sub(2).max(1));
    let wanted: u16 = notes
        .iter()
        .map(|l| u16::try_from(l.width().div_ceil(inner_width)).unwrap_or(u16::MAX))
        .fold(0u16, u16::saturating_add);
    let room = wanted.min(area.height / 2).saturating_add(2);
    let [table, below] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(room)]).areas(area);
    (table, Some(below))
}

#[cfg(test)]
mod tests {
    use super::percent;

    #[test]
    fn shares_keep_two_figures_when_small() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(0.000_335), "0.03%");
        assert_eq!(percent(0.042), "4.2%");
        assert_eq!(percent(0.93), "93%");
        assert_eq!(percent(4.67), "467%");
    }
}
