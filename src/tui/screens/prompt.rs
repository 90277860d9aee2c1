//! The Prompt screen: the exact listing an agent would get, its token count, the budget gauge
//! and every skill's fate, for the listing settings chosen here (which the other screens' L1
//! figures follow). Updates as toggles change.

use super::screen::{Cmd, Ctx, Outcome, Screen};
use crate::core::Agent;
use crate::core::listing::{Fate, Format, Tier};
use crate::core::pricing::modes::{ListingMode, saving_text};
use crate::tui::action::Action;
use crate::tui::event::Preview;
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::state::view::View;
use crate::tui::view::{thousands, truncate};
use crate::tui::wrapped as wrap;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Gauge, Paragraph};
use std::path::PathBuf;

/// Listing formats offered by the prompt preview, tiers and context windows.
pub const FORMATS: [Format; Format::ALL.len()] = Format::ALL;

pub use crate::tui::state::in_view::AGENTS;
pub const TIERS: &[Tier] = Tier::ALL;
pub const WINDOWS: [u64; 4] = [200_000, 1_000_000, 128_000, 32_000];

/// The listing settings (indices into [`FORMATS`], [`TIERS`] and `windows`) and the scroll of
/// the listing text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    /// Which skills the listing holds; `auto` takes the Test box's message.
    pub mode: ListingMode,
    pub format: usize,
    pub tier: usize,
    pub window: usize,
    /// The context windows the window key cycles through.
    pub windows: Vec<u64>,
    /// The first line of the listing on screen.
    pub scroll: u16,
    /// The open-files box, while it is being typed in (the files open are the shared view's).
    pub files_box: Option<String>,
    /// The window key was used: the window shown overrides the model's own.
    pub window_chosen: bool,
    /// The listing box shows the last `skillscope verify` diff of this listing instead.
    pub show_diff: bool,
}

impl Prompt {
    /// Settings starting at `format`, `tier` and `window` (which joins the window cycle when it
    /// is not one of [`WINDOWS`]).
    pub fn new(format: Format, tier: Tier, window: u64) -> Prompt {
        let mut windows = WINDOWS.to_vec();
        if !windows.contains(&window) && window > 0 {
            windows.insert(0, window);
        }
        Prompt {
            mode: ListingMode::default(),
            format: FORMATS.iter().position(|f| *f == format).unwrap_or(0),
            tier: TIERS.iter().position(|t| *t == tier).unwrap_or(0),
            window: windows.iter().position(|w| *w == window).unwrap_or(0),
            windows,
            scroll: 0,
            files_box: None,
            window_chosen: false,
            show_diff: false,
        }
    }

    /// The listing format L1 is counted in.
    pub fn listing_format(&self) -> Format {
        FORMATS[self.format]
    }

    /// The context window, in tokens.
    pub fn window(&self) -> u64 {
        self.windows.get(self.window).copied().unwrap_or(WINDOWS[0])
    }

    /// Another agent is in view: its listing in its own format, from the top.
    pub fn follow_agent(&mut self, agent: Option<Agent>) {
        self.scroll = 0;
        if let Some(a) = agent {
            let own = crate::core::agents::model::model(a).format;
            self.format = FORMATS
                .iter()
                .position(|f| *f == own)
                .unwrap_or(self.format);
        }
    }

    /// A character typed into the open-files box.
    fn type_file_char(&mut self, c: char) -> Outcome {
        match &mut self.files_box {
            Some(text) if !c.is_control() => {
                text.push(c);
                Outcome::Done
            }
            _ => Outcome::Ignored,
        }
    }

    /// The open-files box's keys: Enter takes what it holds, Esc leaves the files as they were.
    fn handle_files(&mut self, action: Action) -> Outcome {
        let Some(text) = &mut self.files_box else {
            return Outcome::Ignored;
        };
        match action {
            Action::Backspace => {
                text.pop();
            }
            Action::ClearMessage => text.clear(),
            Action::Close => self.files_box = None,
            Action::Confirm => {
                let files = parse_files(text);
                self.files_box = None;
                return Outcome::Then(Cmd::SetFiles(files));
            }
            Action::Quit => return Outcome::Then(Cmd::Quit),
            _ => {}
        }
        Outcome::Done
    }

    /// `lines`: how long the listing shown is; `body`: where the screen is drawn; `files`: the
    /// files open now.
    fn act(&mut self, action: Action, (lines, body): (usize, Rect), files: &[PathBuf]) -> Outcome {
        if self.files_box.is_some() {
            return self.handle_files(action);
        }
        let page = text_rows(body).max(1) as isize;
        match action {
            Action::CycleFormat => {
                self.format = (self.format + 1) % FORMATS.len();
                return Outcome::Then(Cmd::RecountL1);
            }
            Action::EditFiles => {
                let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                self.files_box = Some(shown.join(" "));
                return Outcome::Done;
            }
            Action::VerifyDiff => {
                self.show_diff = !self.show_diff;
                self.scroll = 0;
                return Outcome::Done;
            }
            Action::CycleTier => self.tier = (self.tier + 1) % TIERS.len(),
            Action::CycleMode => {
                self.mode = self.mode.next();
                self.scroll = 0;
            }
            Action::CycleWindow => {
                self.window = (self.window + 1) % self.windows.len().max(1);
                self.window_chosen = true;
            }
            Action::Up => return self.scroll_text(-1, lines, body),
            Action::Down => return self.scroll_text(1, lines, body),
            Action::PageUp => return self.scroll_text(-page, lines, body),
            Action::PageDown => return self.scroll_text(page, lines, body),
            Action::Top => return self.scroll_text(isize::MIN / 2, lines, body),
            Action::Bottom => return self.scroll_text(isize::MAX / 2, lines, body),
            _ => return Outcome::Ignored,
        }
        Outcome::Then(Cmd::Preview)
    }

    /// Scrolls the listing text, no further than its last line at the bottom of the box.
    fn scroll_text(&mut self, delta: isize, lines: usize, body: Rect) -> Outcome {
        let max = lines.saturating_sub(text_rows(body));
        let at = usize::from(self.scroll)
            .saturating_add_signed(delta)
            .min(max);
        self.scroll = u16::try_from(at).unwrap_or(u16::MAX);
        Outcome::Done
    }
}

/// The open files as typed: paths relative to the project (or absolute), separated by spaces or
/// commas.
pub fn parse_files(text: &str) -> Vec<PathBuf> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// How many screen rows the listing shown takes, wrapped to its box.
fn listing_rows(cx: &Ctx) -> usize {
    cx.preview.rows(text_width(cx.areas.body))
}

impl Screen for Prompt {
    /// The open files box's keys while it is open.
    fn context(&self) -> Context {
        if self.files_box.is_some() {
            Context::Files
        } else {
            Context::Prompt
        }
    }

    fn type_char(&mut self, c: char, _cx: &Ctx) -> Outcome {
        self.type_file_char(c)
    }

    fn handle(&mut self, action: Action, cx: &Ctx) -> Outcome {
        self.act(
            action,
            (listing_rows(cx), cx.areas.body),
            cx.in_view.files(),
        )
    }

    fn scroll(&mut self, delta: isize, cx: &Ctx) -> Outcome {
        // The wheel only scrolls: nothing for the app to do after it.
        let _ = self.scroll_text(delta, listing_rows(cx), cx.areas.body);
        Outcome::Done
    }

    fn shown(&mut self) -> Option<Cmd> {
        Some(Cmd::FreshPreview)
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, areas: Areas) {
        draw(frame, areas.body, view, self);
    }
}

/// The summary box, the gauge, the listing text and the fates, in the screen's `body`.
fn parts(body: Rect) -> [Rect; 4] {
    let [head, gauge, rest] = Layout::vertical([
        Constraint::Length(5),
        Constraint::Length(1),
        Constraint::Min(3),
    ])
    .areas(body);
    let [text, fates] = if rest.width >= 100 {
        Layout::horizontal([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(rest)
    } else {
        Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(rest)
    };
    [head, gauge, text, fates]
}

/// How many lines of the listing text are on screen.
fn text_rows(body: Rect) -> usize {
    usize::from(parts(body)[2].height.saturating_sub(2))
}

/// How wide the listing text is on screen: its lines wrap there.
pub fn text_width(body: Rect) -> usize {
    usize::from(parts(body)[2].width.saturating_sub(2))
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, p: &Prompt) {
    let t = &view.theme;
    let [head, gauge, text_area, fates_area] = parts(area);
    let mut settings = settings_title(p, view);
    if let Some(model) = view.client_model_text() {
        // Which model the budget is made for, and where it was set.
        settings = format!("{settings}· {model} ");
    }
    let Some(preview) = view.preview.shown.as_ref() else {
        frame.render_widget(
            Paragraph::new(Line::from(Span::styled(" rendering the listing…", t.dim())))
                .block(Block::bordered().title(Span::styled(settings, t.title()))),
            area,
        );
        return;
    };
    if let Some(text) = &p.files_box {
        frame.render_widget(files_box(view, text), head);
    } else {
        let mut block = Block::bordered().title(Span::styled(settings, t.title()));
        let status = view
            .agent
            .map(|a| verify_status(view, a, &preview.listing.text).0);
        if let Some(status) = status.filter(|s| !s.is_empty()) {
            block = block.title_bottom(Line::from(Span::styled(status, t.dim())));
        }
        frame.render_widget(Paragraph::new(summary(preview, view, p)).block(block), head);
    }
    budget_gauge(frame, gauge, preview, view);
    listing_text(frame, text_area, area, preview, view, p);
    fates(frame, fates_area, preview, view);
}

/// The settings in the head box's title.
fn settings_title(p: &Prompt, view: &View<'_>) -> String {
    let model = view.client_model;
    // The window the listing is priced on: the client model's own unless one was chosen.
    let window = match model.filter(|_| !p.window_chosen) {
        Some(m) => m.context_window as u64,
        None => p.window(),
    };
    // The format is named when it is not the agent's own.
    let format = FORMATS[p.format];
    let own = view
        .agent
        .is_some_and(|a| crate::core::agents::model::model(a).format == format);
    let mut settings = format!(
        " Prompt · {} · mode {}{} · tier {} · window {} ",
        view.agent.map_or("every skill", Agent::as_str),
        p.mode.as_str(),
        if own {
            String::new()
        } else {
            format!(" · {}", format.as_str())
        },
        TIERS[p.tier].as_str(),
        thousands(window)
    );
    let files = view.in_view.files();
    if !files.is_empty() {
        settings.push_str(&format!("· {} open ", files_label(files)));
    }
    settings
}

/// The head box: how many skills are listed and how, the tokens, the modes compared.
fn summary<'a>(preview: &Preview, view: &View<'_>, p: &Prompt) -> Vec<Line<'a>> {
    let t = &view.theme;
    let l = &preview.listing;
    let listed = l.entries.len() - l.count(Fate::Dropped);
    let tokens = thousands(u64::from(preview.tokens));
    vec![
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
        Line::from(match &view.models.chosen {
            None => format!(
                " {} tokens ({}{}) · {} chars{}",
                tokens,
                view.encoding().as_str(),
                view.agent.map_or("", |a| a.home().count_note_short),
                thousands(l.text.chars().count() as u64),
                turn_parts(preview)
            ),
            Some(_) => format!(
                " {} tokens ({}){} · {} chars{}",
                tokens,
                view.encoding().as_str(),
                view.beside(u64::from(preview.tokens)),
                thousands(l.text.chars().count() as u64),
                turn_parts(preview)
            ),
        }),
        comparison_line(preview, view, p),
    ]
}

/// What else the agent adds every turn, each part apart: its client's own entries (within the
/// listing's tokens) and its skill tool's definition, with the sum.
fn turn_parts(preview: &Preview) -> String {
    let mut s = String::new();
    if preview.supplied.entries > 0 {
        s.push_str(&format!(
            " · the client's own {} entries: {} tok",
            preview.supplied.entries,
            thousands(u64::from(preview.supplied.tokens))
        ));
    }
    if let Some(tool) = &preview.tool {
        s.push_str(&format!(
            " · + {} tool {} tok = {} per turn",
            tool.name,
            thousands(u64::from(tool.tokens)),
            thousands(u64::from(if tool.holds_listing {
                tool.tokens
            } else {
                preview.tokens + tool.tokens
            }))
        ));
    }
    s
}

/// The gauge: the listing against its budget, or against the context window.
fn budget_gauge(frame: &mut Frame, gauge: Rect, preview: &Preview, view: &View<'_>) {
    let t = &view.theme;
    let l = &preview.listing;
    let (ratio, label, over) = match l.budget {
        Some(budget) if budget.limit > 0 => {
            let r = l.used as f64 / budget.limit as f64;
            (
                r,
                format!(
                    "budget {} / {} {} ({:.0}%)",
                    thousands(l.used as u64),
                    thousands(budget.limit as u64),
                    budget.unit.as_str(),
                    r * 100.0
                ),
                r > 1.0,
            )
        }
        _ => {
            let n = f64::from(preview.tokens);
            let window = view.window() as f64;
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
}

/// The listing's text, wrapped and scrolled, in `text_area` of the screen's `area`.
fn listing_text(
    frame: &mut Frame,
    text_area: Rect,
    area: Rect,
    preview: &Preview,
    view: &View<'_>,
    p: &Prompt,
) {
    let t = &view.theme;
    let l = &preview.listing;
    let text_w = text_width(area);
    let height = text_rows(area);
    let wrapped = view.preview.wrap.get(&l.text, text_w);
    let total_rows = wrapped.rows();
    let total_lines = l.text.lines().count();
    // The handler keeps the scroll within the text; a newer, shorter listing may still end
    // above it until the next key.
    let scroll = usize::from(p.scroll).min(total_rows.saturating_sub(height));
    let mut lines: Vec<Line> = wrap::rows_of(&l.text, &wrapped, scroll, height)
        .into_iter()
        .map(|(_, row)| Line::from(row))
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
    let first = wrapped.line_at(scroll).0 + 1;
    let last = wrapped.line_at(scroll + height.max(1) - 1).0 + 1;
    let verified = view.agent.map(|a| verify_status(view, a, &l.text));
    if let (true, Some((_, Some(diff)))) = (p.show_diff, &verified) {
        let rows: Vec<Line> = diff
            .lines()
            .skip(usize::from(p.scroll))
            .take(height)
            .map(|l| {
                let style = match l.chars().next() {
                    Some('-') => t.error(),
                    Some('+') => t.on(),
                    _ => t.dim(),
                };
                Line::from(Span::styled(truncate(l, text_w), style))
            })
            .collect();
        frame.render_widget(
            Paragraph::new(rows).block(Block::bordered().title(
                " The last verify's diff: the client's listing (-) against skillscope's (+) · d: the listing ",
            )),
            text_area,
        );
        return;
    }
    let mut block = Block::bordered().title(format!(
        " What the system prompt holds · lines {}–{} of {} ",
        first.min(total_lines),
        last.min(total_lines),
        thousands(total_lines as u64)
    ));
    if let Some(note) = view.agent.and_then(|a| view.verify.version_note(a)) {
        block = block.title_bottom(Line::from(Span::styled(format!(" {note} "), t.warning())));
    } else if let Some(note) = view.agent.and_then(calibration_note) {
        block = block.title_bottom(Line::from(Span::styled(format!(" {note} "), t.dim())));
    }
    frame.render_widget(Paragraph::new(lines).block(block), text_area);
}

/// What the calibration `skillscope verify` kept for `agent` comes to: "calibrated against your
/// Claude Code 2.1.340 on 2026-12-06", or why it is not used.
fn calibration_note(agent: Agent) -> Option<String> {
    let chosen = crate::core::agents::eras::in_use(agent)?;
    let name = crate::core::agents::model::model(agent).name;
    chosen
        .calibration
        .note(name, agent.as_str())
        .map(|n| crate::core::words::text::line(&n).into_owned())
}

/// What the head box's foot says about `skillscope verify` for `agent`'s listing `text`: the
/// last result for this very listing and the client version it ran ("" when there is none);
/// and the diff, when the result differed.
fn verify_status(view: &View<'_>, agent: Agent, text: &str) -> (String, Option<String>) {
    let Some(v) = view.verify.result(agent, text) else {
        return (String::new(), None);
    };
    if v.identical {
        let status = format!(
            " verified: identical to {} {} ({} tokens) ",
            agent.as_str(),
            v.version,
            thousands(u64::from(v.client_tokens))
        );
        return (status, None);
    }
    let status = format!(
        " verified: differs from {} {} ({} vs {} tokens) · d: the diff ",
        agent.as_str(),
        v.version,
        thousands(u64::from(v.client_tokens)),
        thousands(u64::from(v.predicted_tokens))
    );
    (status, Some(v.diff.clone()))
}

/// Every skill's fate, the ones that lost something first.
fn fates(frame: &mut Frame, fates_area: Rect, preview: &Preview, view: &View<'_>) {
    let t = &view.theme;
    let l = &preview.listing;
    let fate_w = usize::from(fates_area.width.saturating_sub(2));
    let mut order: Vec<&crate::core::listing::ListedSkill> = l.entries.iter().collect();
    // The skills that lost something first: dropped, name only, trimmed, then full.
    order.sort_by(|a, b| b.fate.cmp(&a.fate).then(a.index.cmp(&b.index)));
    let choices = &preview.choices;
    let fate_lines: Vec<Line> = order
        .iter()
        .take(usize::from(fates_area.height.saturating_sub(2)))
        .map(|e| {
            let style = match e.fate {
                Fate::Full => t.on(),
                Fate::Trimmed | Fate::NameOnly => t.warning(),
                Fate::Dropped => t.error(),
            };
            let name = view.lib.skills.get(e.index).map_or("", |s| s.name.as_str());
            let mut spans = vec![
                Span::styled(format!("{:<9} ", e.fate.as_str()), style),
                Span::raw(truncate(name, fate_w.saturating_sub(10))),
            ];
            let used = 10
                + crate::core::words::text::line(name)
                    .chars()
                    .count()
                    .min(fate_w.saturating_sub(10));
            // What the client decides as it runs, after what the listing did.
            let reason = match choices.get(&e.index) {
                Some(c) if e.reason.is_empty() => c.clone(),
                Some(c) => format!("{}; {c}", e.reason),
                None => e.reason.clone(),
            };
            if !reason.is_empty() && used + 3 < fate_w {
                spans.push(Span::styled(
                    format!("  {}", truncate(&reason, fate_w - used - 2)),
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
fn comparison_line(preview: &Preview, view: &View<'_>, p: &Prompt) -> Line<'static> {
    let t = &view.theme;
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
    if let Some(note) = more_than_all(preview, TIERS[p.tier] == Tier::Auto) {
        spans.push(Span::styled(format!(" · {note}"), t.dim()));
    }
    Line::from(spans)
}

/// Why `enabled` can cost more than `all`, which lists more skills: more skills can take a
/// shorter tier (with `auto`), and listings cut to the same budget hold a budget's worth of
/// characters whose tokens depend on the entries that fill it.
fn more_than_all(preview: &Preview, auto_tier: bool) -> Option<String> {
    let c = &preview.comparison;
    let (e, a) = (c.get(ListingMode::Enabled)?, c.get(ListingMode::All)?);
    if e.tokens <= a.tokens {
        return None;
    }
    let (te, ta) = (Tier::for_count(e.skills), Tier::for_count(a.skills));
    if auto_tier && te != ta {
        return Some(format!(
            "enabled > all: all's {} skills take the {ta} tier, enabled's {} the {te}",
            thousands(a.skills as u64),
            thousands(e.skills as u64)
        ));
    }
    let budget = preview.listing.budget?;
    Some(format!(
        "enabled > all: both cut to the {} budget, filled by other entries",
        budget.amount(budget.limit)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_scrolls_no_further_than_its_last_line() {
        let mut p = Prompt::new(Format::default(), Tier::default(), WINDOWS[0]);
        let body = Rect::new(0, 1, 80, 22);
        let rows = text_rows(body);
        assert!(rows > 0);
        let _ = p.act(Action::Bottom, (100, body), &[]);
        assert_eq!(usize::from(p.scroll), 100 - rows);
        // The first key up shows one line more at the top: nothing was kept past the end.
        let _ = p.act(Action::Up, (100, body), &[]);
        assert_eq!(usize::from(p.scroll), 100 - rows - 1);
        let _ = p.act(Action::PageUp, (100, body), &[]);
        assert_eq!(usize::from(p.scroll), 100 - 2 * rows - 1);
        let _ = p.act(Action::Top, (100, body), &[]);
        assert_eq!(p.scroll, 0);
        // A listing shorter than the box does not scroll.
        let _ = p.act(Action::Down, (rows, body), &[]);
        assert_eq!(p.scroll, 0);
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;
    use crate::core::pricing::modes::{Comparison, ModeCost};

    fn preview(enabled: u32, all: u32, budget: Option<usize>) -> Preview {
        let cost = |mode, skills, tokens| ModeCost {
            mode,
            skills,
            listed: skills,
            chars: 8_000,
            tokens,
        };
        Preview {
            listing: crate::core::listing::Listing {
                text: String::new(),
                tier: Tier::Compact,
                budget: budget.map(crate::core::listing::Budget::chars),
                used: 7_990,
                entries: Vec::new(),
                builtins: Vec::new(),
                names: Vec::new(),
                texts: Vec::new(),
            },
            tokens: enabled,
            supplied: crate::core::agents::budget::Supplied::default(),
            tool: None,
            mode: ListingMode::Enabled,
            comparison: Comparison {
                modes: vec![
                    cost(ListingMode::Enabled, 191, enabled),
                    cost(ListingMode::All, 222, all),
                ],
            },
            message: None,
            choices: std::collections::BTreeMap::new(),
        }
    }

    #[test]
    fn enabled_above_all_is_explained_by_the_budget() {
        let note = more_than_all(&preview(1_704, 1_688, Some(8_000)), true).unwrap();
        assert!(note.contains("8,000 chars budget"), "{note}");
        assert_eq!(
            more_than_all(&preview(1_688, 1_704, Some(8_000)), true),
            None
        );
        assert_eq!(more_than_all(&preview(1_704, 1_688, None), true), None);
        // 80 skills are listed whole, 222 compact: more skills, fewer tokens.
        let mut p = preview(1_704, 1_688, None);
        p.comparison.modes[0].skills = 80;
        let note = more_than_all(&p, true).unwrap();
        assert!(note.contains("222 skills take the compact tier"), "{note}");
        assert_eq!(more_than_all(&p, false), None);
    }
}

/// `a.py`, `a.py and 2 more`: the open files, for the title.
fn files_label(files: &[PathBuf]) -> String {
    let first = files
        .first()
        .map(|f| crate::core::words::text::line(&f.display().to_string()).into_owned())
        .unwrap_or_default();
    match files.len() {
        0 | 1 => first,
        n => format!("{first} and {} more", n - 1),
    }
}

/// The open-files box, in place of the summary while it is typed in.
fn files_box<'a>(view: &View<'_>, text: &str) -> Paragraph<'a> {
    let t = &view.theme;
    let agent = view
        .agent
        .map_or("an agent", |a| crate::core::agents::model::model(a).name);
    let conditional = view
        .agent
        .is_some_and(|a| crate::core::agents::model::model(a).conditional);
    let note = if conditional {
        format!(
            "{agent} lists a skill with `paths:` only while one of these files matches a glob of it"
        )
    } else {
        format!(
            "{agent} has no conditional skills: every skill it reads is listed whatever is open"
        )
    };
    Paragraph::new(vec![
        Line::from(vec![
            Span::styled(" Open files: ", t.title()),
            Span::raw(format!("{}▏", crate::core::words::text::line(text))),
        ]),
        Line::from(Span::styled(
            " paths relative to the project (or absolute), spaces or commas between",
            t.dim(),
        )),
        Line::from(Span::styled(format!(" {note}"), t.dim())),
    ])
    .block(Block::bordered().title(Span::styled(
        " Which files are open? Enter: take them · Esc: leave them ",
        t.title(),
    )))
}
