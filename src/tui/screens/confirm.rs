//! The confirmation before writing a toggle into agents' settings: the exact diff of each file.

use super::screen::{Cmd, Outcome, Overlay};
use crate::core::agents::{SwitchScope, TogglePlan};
use crate::core::source::Agent;
use crate::core::text::line;
use crate::tui::action::Action;
use crate::tui::keymap::{self, Context};
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

/// A write-through waiting for confirmation: the exact change to each agent's file.
#[derive(Debug, Clone)]
pub struct Confirm {
    pub skill: usize,
    pub on: bool,
    pub scope: SwitchScope,
    pub plans: Vec<(Agent, Result<TogglePlan, String>)>,
    pub scroll: u16,
}

impl Confirm {
    /// `max_scroll`: how far the diff scrolls before its end is at the bottom of the box.
    pub fn handle(&mut self, action: Action, max_scroll: u16) -> Outcome {
        match action {
            Action::Confirm => Outcome::Then(Cmd::WriteAgentToggle),
            Action::CycleScope => {
                let next = match self.scope {
                    SwitchScope::User => SwitchScope::Project,
                    SwitchScope::Project => SwitchScope::Local,
                    SwitchScope::Local => SwitchScope::User,
                };
                Outcome::Then(Cmd::PlanAgentToggle(next, Some(self.on)))
            }
            Action::Down => {
                self.scroll = self.scroll.saturating_add(1).min(max_scroll);
                Outcome::Done
            }
            Action::Up => {
                self.scroll = self.scroll.saturating_sub(1);
                Outcome::Done
            }
            Action::Quit => Outcome::Then(Cmd::Quit),
            // Any other key is a no.
            _ => Outcome::Then(Cmd::CloseOverlay(Some("nothing was written"))),
        }
    }
}

pub fn lines(view: &View<'_>, c: &Confirm) -> Vec<Line<'static>> {
    let t = &view.theme;
    let mut out = Vec::new();
    for (agent, plan) in &c.plans {
        out.push(Line::from(Span::styled(
            agent.as_str().to_string(),
            t.title(),
        )));
        match plan {
            Err(e) => out.push(Line::from(Span::styled(
                format!("  {}", line(&e.clone())),
                t.error(),
            ))),
            Ok(p) => {
                out.push(Line::from(format!(
                    "  {} → {}   {}",
                    p.before_state.state,
                    p.after_state.state,
                    crate::core::text::path(&p.file)
                )));
                if let Some(note) = &p.note {
                    out.push(Line::from(Span::styled(
                        format!("  {}", line(note)),
                        t.warning(),
                    )));
                }
                if p.changes_nothing() {
                    out.push(Line::from(Span::styled("  nothing to change", t.dim())));
                }
                for l in p.diff.lines() {
                    let style = if l.starts_with("+++") || l.starts_with("---") {
                        t.dim()
                    } else if l.starts_with('+') {
                        t.added()
                    } else if l.starts_with('-') {
                        t.removed()
                    } else {
                        t.base()
                    };
                    let l = line(&l.replace('\t', "    ")).into_owned();
                    out.push(Line::from(Span::styled(format!("  {l}"), style)));
                }
            }
        }
        out.push(Line::from(""));
    }
    out
}

/// Where the confirmation is drawn on a terminal of `area`.
fn popup(area: Rect) -> Rect {
    let w = area.width.saturating_sub(4).min(100);
    let h = area.height.saturating_sub(4);
    crate::tui::view::parts::centered(area, w, h)
}

/// How far the diff scrolls on a terminal of `area`: until its last line is at the bottom.
pub fn max_scroll(view: &View<'_>, c: &Confirm, area: Rect) -> u16 {
    let rows = popup(area).height.saturating_sub(2);
    u16::try_from(lines(view, c).len())
        .unwrap_or(u16::MAX)
        .saturating_sub(rows)
}

impl Overlay for Confirm {
    fn contexts(&self) -> Vec<Context> {
        vec![Context::Confirm]
    }

    fn handle(&mut self, action: Action, view: &View<'_>, area: Rect) -> Outcome {
        let max = max_scroll(view, self, area);
        Confirm::handle(self, action, max)
    }

    fn draw(&self, view: &View<'_>, frame: &mut Frame, area: Rect) {
        draw(frame, area, view, self);
    }
}

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>, c: &Confirm) {
    let popup = popup(area);
    let name = line(view.lib.skills.get(c.skill).map_or("", |s| s.name.as_str()));
    let word = if c.on { "on" } else { "off" };
    let keys: Vec<String> = view
        .keys
        .map
        .footer(&[Context::Confirm])
        .iter()
        .map(|b| format!("{} {}", keymap::keys_label(b, false), b.short))
        .collect();
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines(view, c))
            // The terminal may have shrunk since the last key.
            .scroll((c.scroll.min(max_scroll(view, c, area)), 0))
            .block(
                Block::bordered()
                    .title(Span::styled(
                        format!(
                            " Switch {name} {word} in the agents' {} settings? ",
                            c.scope
                        ),
                        view.theme.title(),
                    ))
                    .title_bottom(format!(" {} ", keys.join(" · "))),
            ),
        popup,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_scroll_the_diff_to_its_end_and_any_other_key_is_a_no() {
        let mut c = Confirm {
            skill: 0,
            on: false,
            scope: SwitchScope::User,
            plans: Vec::new(),
            scroll: 0,
        };
        for _ in 0..5 {
            assert_eq!(c.handle(Action::Down, 2), Outcome::Done);
        }
        assert_eq!(c.scroll, 2);
        assert_eq!(c.handle(Action::Up, 2), Outcome::Done);
        assert_eq!(c.scroll, 1);
        assert_eq!(
            c.handle(Action::CycleScope, 2),
            Outcome::Then(Cmd::PlanAgentToggle(SwitchScope::Project, Some(false)))
        );
        assert_eq!(
            c.handle(Action::Toggle, 2),
            Outcome::Then(Cmd::CloseOverlay(Some("nothing was written")))
        );
    }
}
