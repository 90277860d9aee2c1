//! The Test screen: a message, and the skills each matcher would trigger for it, side by side,
//! with scores and the matched words highlighted. The box starts and receives its own jobs:
//! the agent's view and what the message injects (`routing.rs`), the semantic columns
//! (`meaning.rs`), the library's index and its vectors (here).

mod meaning;
mod routing;

use super::screen::{Cmd, Ctx, Outcome, Screen};
use crate::core::Agent;
use crate::core::Library;
use crate::core::agents::model::{Injection as Framing, model};
use crate::core::matching::{self, Index, Match, Matcher};
use crate::core::tokens::Encoding;
use crate::core::words::text::line;
use crate::core::words::text::thousands;
use crate::tui::action::Action;
use crate::tui::answers::ViewKey;
use crate::tui::event::{Event, JobEvent};
use crate::tui::keymap::Context;
use crate::tui::layout::Areas;
use crate::tui::screens::skills::table::highlighted;
use crate::tui::state::in_view::InView;
use crate::tui::state::matching::{Matching, view_key};
use crate::tui::state::parts::Switches;
use crate::tui::state::view::View;
use crate::tui::state::work::{Embedding, MatcherIndex};
use crate::tui::view::truncate;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use std::ops::Range;
use std::sync::Arc;
use std::sync::mpsc::Sender;

pub use crate::tui::answers::{Injection, TEST_TOP_K};

/// What the Test box's jobs need of the shared state, lent by the app for one call.
pub struct TestCx<'a> {
    pub lib: &'a Arc<Library>,
    /// The library's generation: worker results carry it so stale ones are dropped.
    pub generation: u64,
    pub switches: &'a Switches,
    pub in_view: &'a InView,
    /// The matchers' indexes, which the prompt preview's auto mode reads too.
    pub matching: &'a mut Matching,
    pub encoding: Encoding,
    pub tx: &'a Sender<Event>,
    /// The Test screen is shown.
    pub shown: bool,
    /// The library is in and no new library's counts hold the cores: an index may be built.
    pub may_build: bool,
    /// Set when the prompt preview and every agent's prices are to be worked out again (the
    /// auto listing mode follows the message).
    pub preview: bool,
}

impl TestCx<'_> {
    /// The agent view the box needs now, if an agent is in view.
    fn view_key(&self) -> Option<ViewKey> {
        view_key(self.generation, self.switches.read, self.in_view)
    }
}

#[derive(Debug, Clone, Default)]
pub struct TestBox {
    pub message: String,
    /// Keys go into the message (printable ones are text); Esc leaves it, Enter comes back.
    pub typing: bool,
    /// The first line of every matcher's column on screen.
    pub scroll: u16,
    /// Each matcher's answer for the message, in [`Matcher::ALL`] order.
    pub results: Vec<(Matcher, Vec<Match>)>,
    /// How many skills competed for it: past 50 keyword routing is warned about.
    pub competing: usize,
    /// What the message injects for the chosen agent.
    pub injecting: Injecting,
}

/// The injection panel's state.
#[derive(Debug, Clone, Default)]
pub enum Injecting {
    /// Every skill is shown: no agent's framing applies.
    #[default]
    NoAgent,
    /// An agent is chosen and the message is empty.
    NoMessage(Agent),
    /// The agent's view or its injection is being worked out.
    Waiting(Agent),
    Shown(Box<Injection>),
}

impl TestBox {
    /// `body`: where the screen is drawn.
    fn act(&mut self, action: Action, body: Rect) -> Outcome {
        let page = column_rows(body).max(1) as isize;
        match action {
            Action::Backspace => {
                self.message.pop();
            }
            Action::ClearMessage => {
                self.message.clear();
                self.scroll = 0;
            }
            Action::LeaveMessage => {
                self.typing = false;
                return Outcome::Done;
            }
            Action::EditMessage => {
                self.typing = true;
                return Outcome::Done;
            }
            Action::Up => self.scroll_by(-1),
            Action::Down => self.scroll_by(1),
            Action::PageUp => self.scroll_by(-page),
            Action::PageDown => self.scroll_by(page),
            Action::Top => self.scroll_by(isize::MIN / 2),
            Action::Bottom => self.scroll_by(isize::MAX / 2),
            _ => return Outcome::Ignored,
        }
        match action {
            Action::Backspace | Action::ClearMessage => Outcome::Then(Cmd::RunMatchers),
            _ => Outcome::Done,
        }
    }

    /// A character typed into the message.
    fn type_text(&mut self, c: char) -> Outcome {
        if !self.typing {
            return Outcome::Ignored;
        }
        self.message.push(c);
        self.scroll = 0;
        Outcome::Then(Cmd::RunMatchers)
    }

    /// Scrolls the columns together, no further than the last line of the longest.
    pub fn scroll_by(&mut self, delta: isize) {
        // Each match takes two lines (name and score, then why); an empty column one.
        let longest = self
            .results
            .iter()
            .map(|(_, ms)| 2 * ms.len())
            .max()
            .unwrap_or(0);
        let at = usize::from(self.scroll)
            .saturating_add_signed(delta)
            .min(longest.saturating_sub(1));
        self.scroll = u16::try_from(at).unwrap_or(u16::MAX);
    }
}

impl TestBox {
    /// The box is in use: its screen is shown or it holds a message.
    fn wanted(&self, cx: &TestCx) -> bool {
        cx.shown || !self.message.trim().is_empty()
    }

    /// Runs every matcher on the message; only skills an agent would consider (and that are
    /// switched on) compete.
    pub fn run_matchers(&mut self, cx: &mut TestCx) {
        if self.run_agent_matchers(cx) {
            cx.preview = true;
            return;
        }
        let Some(index) = cx.matching.index.get().cloned() else {
            return;
        };
        let competing = matching::candidates(cx.lib, &cx.switches.on);
        let competes = |i: usize| competing.get(i).copied().unwrap_or(false);
        // The lexical columns now; the semantic ones embed the message on a worker.
        let lexical = index.query_many(&self.message, &Matcher::LEXICAL, &competes, TEST_TOP_K);
        self.competing = competing.iter().filter(|c| **c).count();
        let question =
            crate::tui::answers::Question::new(cx.generation, None, &self.message, competing);
        self.show_columns(
            lexical,
            crate::tui::answers::Over::Library(index),
            question,
            cx,
        );
        // The auto listing mode lists what this message makes relevant.
        cx.preview = true;
    }

    /// Builds the matchers' index on a worker if the box needs it and the library's counts
    /// are in; once per library.
    pub fn ensure_index(&mut self, cx: &mut TestCx) {
        let missing = matches!(cx.matching.index, MatcherIndex::Missing);
        if !self.wanted(cx) || !missing || !cx.may_build {
            return;
        }
        cx.matching.index = MatcherIndex::Building;
        crate::tui::jobs::index(Arc::clone(cx.lib), cx.generation, cx.tx.clone());
    }

    /// The matchers' index came for `generation`.
    pub fn on_indexed(&mut self, generation: u64, index: Arc<Index>, cx: &mut TestCx) {
        if generation == cx.generation {
            // The semantic columns' vectors are made after, in the background: the other
            // matchers answer meanwhile. A build without the model has none to make.
            if matching::sentence::BUILT_IN {
                cx.matching.embedding = Embedding::Running { done: 0, total: 0 };
                crate::tui::jobs::embed(
                    Arc::clone(cx.lib),
                    Arc::clone(&index),
                    generation,
                    cx.tx.clone(),
                );
            } else {
                let e = matching::sentence::ModelError::NotBuiltIn;
                cx.matching.embedding = Embedding::Failed(e.to_string());
            }
            cx.matching.index = MatcherIndex::Ready(index);
            self.run_matchers(cx);
        }
    }

    /// The semantic matchers' vectors are in the index (or could not be made): `true` when
    /// they were made for the library shown.
    pub fn on_embedded(
        &mut self,
        generation: u64,
        result: Result<(), String>,
        cx: &mut TestCx,
    ) -> bool {
        if generation != cx.generation {
            return false;
        }
        let made = result.is_ok();
        cx.matching.embedding = match result {
            Ok(()) => Embedding::Done,
            Err(e) => Embedding::Failed(e),
        };
        self.run_matchers(cx);
        made
    }

    /// A worker's answer for the box: the agent's view, what the message injects, the
    /// semantic columns, the index and its vectors. `Some(made)` for the vectors' end (`made`:
    /// they were made for the library shown); the event back when it is not the box's.
    pub fn on_job(&mut self, job: JobEvent, cx: &mut TestCx) -> Result<bool, JobEvent> {
        match job {
            JobEvent::Indexed { generation, index } => self.on_indexed(generation, index, cx),
            JobEvent::AgentIndexed(built) => self.on_agent_indexed(built, cx),
            JobEvent::Injected { request, injection } => {
                self.on_injected(request, *injection, cx);
            }
            JobEvent::MatchedByMeaning {
                request,
                question,
                columns,
            } => self.on_matched_by_meaning(request, *question, columns, cx),
            JobEvent::EmbedProgress {
                generation,
                done,
                total,
            } => cx
                .matching
                .embed_progress(generation, cx.generation, done, total),
            JobEvent::Embedded { generation, result } => {
                return Ok(self.on_embedded(generation, result, cx));
            }
            other => return Err(other),
        }
        Ok(false)
    }
}

impl Screen for TestBox {
    /// The message box's keys while typing, else the results'.
    fn context(&self) -> Context {
        if self.typing {
            Context::Test
        } else {
            Context::Results
        }
    }

    fn handle(&mut self, action: Action, cx: &Ctx) -> Outcome {
        self.act(action, cx.areas.body)
    }

    fn type_char(&mut self, c: char, _cx: &Ctx) -> Outcome {
        self.type_text(c)
    }

    fn scroll(&mut self, delta: isize, _cx: &Ctx) -> Outcome {
        self.scroll_by(delta);
        Outcome::Done
    }

    /// Arriving on the Test screen puts the keys in its message box.
    fn shown(&mut self) -> Option<Cmd> {
        self.typing = true;
        Some(Cmd::NeedIndex)
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, areas: Areas) {
        draw(frame, areas.body, view, self);
    }
}

/// The message box, the results and the injection panel, in the screen's `body`.
fn parts(body: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(1),
        Constraint::Length(INJECTION_ROWS),
    ])
    .areas(body)
}

/// The injection panel's height: its title, three lines of the injected text, its border.
const INJECTION_ROWS: u16 = 5;

/// Matcher columns side by side: three on a wide terminal, two on a narrow one; the rest of
/// [`Matcher::ALL`] in further rows.
fn per_row(results: Rect) -> usize {
    if results.width >= 100 { 3 } else { 2 }
}

/// How many lines of a matcher's column are on screen.
fn column_rows(body: Rect) -> usize {
    let results = parts(body)[1];
    let rows = Matcher::ALL.len().div_ceil(per_row(results));
    usize::from((results.height / rows as u16).saturating_sub(2))
}

/// One cell per matcher of [`Matcher::ALL`], row by row.
fn cells(results: Rect) -> Vec<Rect> {
    let across = per_row(results);
    let rows = Matcher::ALL.len().div_ceil(across);
    Layout::vertical(vec![Constraint::Ratio(1, rows as u32); rows])
        .split(results)
        .iter()
        .flat_map(|row| {
            Layout::horizontal(vec![Constraint::Ratio(1, across as u32); across])
                .split(*row)
                .to_vec()
        })
        .collect()
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, test: &TestBox) {
    let t = &view.theme;
    let [input, results, injected] = parts(area);
    injection(frame, injected, view, test);
    let routing: Vec<Match> = test
        .results
        .iter()
        .filter(|(m, _)| Matcher::ROUTING.contains(m))
        .flat_map(|(_, ms)| ms.iter().cloned())
        .collect();
    let spans = matching::highlight_spans(&routing);
    let mut text = marked(&test.message, &spans, t.base(), t.hit());
    let mut title = if test.typing {
        text.spans.push(Span::styled("▏", t.key()));
        " Message: which skills would it trigger? ".to_string()
    } else {
        " Message (Enter to type again) ".to_string()
    };
    if let Some(a) = view.agent {
        title.push_str(&format!(
            "· {} skills ",
            crate::core::words::text::possessive(model(a).name)
        ));
    }
    frame.render_widget(
        Paragraph::new(text).block(Block::bordered().title(Span::styled(title, t.title()))),
        input,
    );

    let cells = cells(results);
    for (k, matcher) in Matcher::ALL.iter().enumerate() {
        let Some(cell) = cells.get(k) else { continue };
        let found = test
            .results
            .iter()
            .find(|(m, _)| m == matcher)
            .map(|(_, ms)| ms.as_slice());
        column(frame, *cell, view, test, *matcher, found);
    }
}

/// What a column waits for before it can show anything: the vectors being made, the model
/// loading, the message being embedded; `None` when nothing.
fn waiting_for(embedding: &Embedding, meaning_pending: bool, matcher: Matcher) -> Option<String> {
    match (embedding, matcher.needs_vectors()) {
        (_, false) => None,
        (Embedding::Running { done, total }, true) if *total > 0 => Some(format!(
            "embedding skills… {}/{}",
            thousands(*done as u64),
            thousands(*total as u64)
        )),
        (Embedding::Running { .. } | Embedding::Waiting, true) => {
            Some("loading the model…".to_string())
        }
        (Embedding::Failed(e), true) => Some(line(e).into_owned()),
        (Embedding::Done, true) if meaning_pending => Some("embedding the message…".to_string()),
        (Embedding::Done, true) => None,
    }
}

fn column(
    frame: &mut Frame,
    area: Rect,
    view: &View<'_>,
    test: &TestBox,
    matcher: Matcher,
    found: Option<&[Match]>,
) {
    let t = &view.theme;
    let width = usize::from(area.width.saturating_sub(2));
    let waiting = waiting_for(view.embedding, view.meaning_pending, matcher);
    // No count while the vectors are being made or the message embedded: nothing found yet is
    // not nothing found.
    let title = match found {
        Some(ms) if !test.message.trim().is_empty() && waiting.is_none() => {
            format!(" {matcher} · {} ", ms.len())
        }
        _ => format!(" {matcher} "),
    };
    let mut lines: Vec<Line> = Vec::new();
    if matcher == Matcher::Keyword && matching::keyword_crowded(test.competing).is_some() {
        let w = format!(
            "⚠ {} skills: keyword matching degrades past ~{} (Lazy Skills design)",
            test.competing,
            matching::KEYWORD_SKILL_LIMIT
        );
        for l in crate::tui::view::parts::wrap(&w, width.max(10)) {
            lines.push(Line::from(Span::styled(l, t.warning())));
        }
    }
    if !matcher.built_in() {
        let note = format!("{matcher} is {}", matching::sentence::NOT_BUILT_IN);
        for l in crate::tui::view::parts::wrap(&note, width.max(10)) {
            lines.push(Line::from(Span::styled(l, t.dim())));
        }
    } else if !view.test_ready {
        lines.push(Line::from(Span::styled("indexing…", t.dim())));
    } else if let Some(w) = waiting {
        lines.push(Line::from(Span::styled(w, t.dim())));
    } else if test.message.trim().is_empty() {
        lines.push(Line::from(Span::styled("type a message", t.dim())));
    } else {
        match found {
            Some(ms) if !ms.is_empty() => {
                for (rank, m) in ms.iter().enumerate() {
                    let Some(skill) = view.lib.skills.get(m.skill) else {
                        continue;
                    };
                    // Similarities are fractions: two places tell them apart.
                    let score = if matcher.needs_vectors() {
                        format!("{:.2}", m.score)
                    } else {
                        format!("{:.1}", m.score)
                    };
                    let name_w = width.saturating_sub(score.len() + 3);
                    let mut line = Line::from(Span::styled(format!("{} ", rank + 1), t.dim()));
                    // The id tells copies of one name apart; the fuzzy hits are on the name,
                    // which ends it.
                    let shift = skill
                        .id
                        .chars()
                        .count()
                        .saturating_sub(skill.name.chars().count());
                    let indices: Vec<usize> = if skill.id.ends_with(skill.name.as_str()) {
                        m.name_indices.iter().map(|i| i + shift).collect()
                    } else {
                        Vec::new()
                    };
                    // A name two skills share carries its agent and scope.
                    let place = if shares_name(view, m.skill) {
                        format!(" ({}·{})", skill.agent.as_str(), skill.scope.as_str())
                    } else {
                        String::new()
                    };
                    let room = name_w.saturating_sub(place.chars().count());
                    let name = highlighted(&skill.id, &indices, room, t.title(), t.hit());
                    let mut used: usize =
                        name.spans.iter().map(|s| s.content.chars().count()).sum();
                    line.spans.extend(name.spans);
                    if !place.is_empty() {
                        used += place.chars().count();
                        line.spans.push(Span::styled(place, t.dim()));
                    }
                    line.spans
                        .push(Span::raw(" ".repeat(name_w.saturating_sub(used) + 1)));
                    line.spans.push(Span::styled(score, t.dim()));
                    lines.push(line);
                    lines.push(why(m, view, test, width));
                }
            }
            _ => lines.push(Line::from(Span::styled("nothing triggers", t.dim()))),
        }
    }
    let scroll = test.scroll.min(lines.len().saturating_sub(1) as u16);
    frame.render_widget(
        Paragraph::new(lines)
            .scroll((scroll, 0))
            .block(Block::bordered().title(Span::styled(title, t.title()))),
        area,
    );
}

/// What the message injects for the chosen agent: which skills, how many tokens, and the first
/// lines of the text in the agent's framing.
fn injection(frame: &mut Frame, area: Rect, view: &View<'_>, test: &TestBox) {
    let t = &view.theme;
    let width = usize::from(area.width.saturating_sub(2));
    let (title, lines): (String, Vec<Line>) = match &test.injecting {
        Injecting::NoAgent => (
            " Injected ".to_string(),
            vec![Line::from(Span::styled(
                "every skill is shown: a (after Esc) picks an agent, to see what it adds for the message",
                t.dim(),
            ))],
        ),
        Injecting::NoMessage(a) => (
            format!(" Injected by {} ", model(*a).name),
            vec![Line::from(Span::styled(
                format!("type a message to see what {} adds for it", model(*a).name),
                t.dim(),
            ))],
        ),
        Injecting::Waiting(a) => (
            format!(" Injected by {} ", model(*a).name),
            vec![Line::from(Span::styled(
                "working out what the message loads…",
                t.dim(),
            ))],
        ),
        Injecting::Shown(i) => {
            let m = model(i.agent);
            let how = match m.injection {
                Framing::SkillLoaded | Framing::AvailableSkills => {
                    format!("its own {} rule", i.matcher)
                }
                Framing::SkillTool
                | Framing::ActivateSkill
                | Framing::SkillContent
                | Framing::ReadFile => {
                    format!("{} standing in for the model", i.matcher)
                }
            };
            let what = if i.ids.is_empty() {
                "nothing".to_string()
            } else {
                i.ids
                    .iter()
                    .map(|id| line(id).into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let title = format!(
                " Injected by {} ({how}): {what} · {} tokens ({}) ",
                m.name,
                crate::core::words::text::thousands(i.tokens as u64),
                view.encoding().as_str()
            );
            let body: Vec<Line> = if i.text.is_empty() {
                vec![Line::from(Span::styled(
                    "nothing is added to the conversation for this message",
                    t.dim(),
                ))]
            } else {
                i.text
                    .trim_start_matches('\n')
                    .lines()
                    .take(usize::from(INJECTION_ROWS.saturating_sub(2)))
                    .map(|l| Line::from(Span::styled(truncate(&line(l), width), t.dim())))
                    .collect()
            };
            (title, body)
        }
    };
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(Span::styled(
            truncate(&title, usize::from(area.width.saturating_sub(2))),
            t.title(),
        ))),
        area,
    );
}

/// The words of the message that matched, each with the field of the skill it matched in.
fn why(m: &Match, view: &View<'_>, test: &TestBox, width: usize) -> Line<'static> {
    let t = &view.theme;
    let mut spans = vec![Span::raw("  ")];
    let mut used = 2;
    for (i, h) in m.hits.iter().enumerate() {
        let words: Vec<&str> = h
            .spans
            .iter()
            .filter_map(|r| test.message.get(r.clone()))
            .collect();
        // A semantic hit matched no word: it says how near the message is to the field.
        let said = match h.similarity {
            Some(sim) => format!("≈{sim:.2}"),
            None => line(words.first().copied().unwrap_or(h.term.as_str())).into_owned(),
        };
        let field = match h.field.as_str() {
            "description" => "desc",
            "when_to_use" => "when",
            "executable-verb" => "exec",
            other => other,
        };
        let item = format!("{said} ({field})");
        let sep = if i > 0 { ", " } else { "" };
        if used + sep.len() + item.chars().count() > width {
            spans.push(Span::styled("…", t.dim()));
            break;
        }
        used += sep.len() + item.chars().count();
        spans.push(Span::raw(sep));
        spans.push(Span::styled(said, t.hit()));
        spans.push(Span::styled(format!(" ({field})"), t.dim()));
    }
    Line::from(spans)
}

/// The message with the byte ranges in `marks` styled as hits.
pub fn marked(text: &str, marks: &[Range<usize>], base: Style, hit: Style) -> Line<'static> {
    let mut spans = Vec::new();
    let mut pos = 0;
    for r in marks {
        let (start, end) = (r.start.min(text.len()), r.end.min(text.len()));
        if start < pos || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue;
        }
        if start > pos {
            spans.push(Span::styled(line(&text[pos..start]).into_owned(), base));
        }
        spans.push(Span::styled(line(&text[start..end]).into_owned(), hit));
        pos = end;
    }
    if pos < text.len() {
        spans.push(Span::styled(line(&text[pos..]).into_owned(), base));
    }
    Line::from(spans)
}

/// Whether another skill of the library has the same id as skill `i` (one skill installed for
/// two agents, or two collections' copies).
fn shares_name(view: &View<'_>, i: usize) -> bool {
    let lib = &view.lib;
    let Some(id) = lib.skills.get(i).map(|s| s.id.as_str()) else {
        return false;
    };
    lib.skills
        .iter()
        .enumerate()
        .any(|(j, s)| j != i && s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::single_range_in_vec_init)]
    fn marks_split_the_message_at_byte_ranges() {
        let l = marked(
            "read a pdf now",
            &[7..10],
            Style::default(),
            Style::default().bold(),
        );
        let parts: Vec<&str> = l.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(parts, vec!["read a ", "pdf", " now"]);
        // Ranges off a char boundary are skipped rather than panicking.
        let l = marked("é", &[1..2], Style::default(), Style::default());
        assert_eq!(l.spans.len(), 1);
    }
}
