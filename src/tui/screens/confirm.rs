//! The confirmation before writing a toggle into agents' settings: the exact diff of each file.

use super::screen::{Cmd, Outcome, Overlay};
use crate::core::Library;
use crate::core::agents::{AgentSwitches, SwitchScope, TogglePlan};
use crate::core::source::Agent;
use crate::core::words::text::line;
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
    /// The write-through of skill `i` of `lib` to every agent that reads its folder: off when
    /// any of them loads it now, else on (or `on`). Nothing is written before the user says
    /// yes; what to say instead when no agent with switches reads it.
    pub fn for_readers(
        lib: &Library,
        i: usize,
        switches: &AgentSwitches,
        scope: SwitchScope,
        on: Option<bool>,
    ) -> Result<Confirm, String> {
        let skill = &lib.skills[i];
        let on = on.unwrap_or_else(|| {
            !switches
                .badges(skill)
                .iter()
                .any(crate::core::agents::Badge::loads)
        });
        let plans: Vec<(Agent, Result<TogglePlan, String>)> = switches
            .plan_readers(skill, scope, on)
            .into_iter()
            .map(|(a, p)| (a, p.map_err(|e| e.to_string())))
            .collect();
        if plans.is_empty() {
            let dir = skill.dir.display().to_string();
            return Err(format!("no agent with per-skill switches reads {dir}"));
        }
        Ok(Confirm {
            skill: i,
            on,
            scope,
            plans,
            scroll: 0,
        })
    }

    /// The switch of skill `i` of `lib` in `agent`'s own settings (`switches`: `None` while
    /// they are read), turned `on`; what to say instead when it cannot be planned.
    pub fn for_view(
        lib: &Library,
        i: usize,
        agent: Agent,
        switches: Option<&AgentSwitches>,
        on: bool,
    ) -> Result<Option<Confirm>, String> {
        let Some(switches) = switches else {
            return Err("the agents' settings are still being read".to_string());
        };
        let Some(skill) = lib.skills.get(i) else {
            return Ok(None);
        };
        let name = crate::core::agents::model::model(agent).name;
        // An agent whose switch is in the skill's own file decides whatever folder it is in.
        if agent.home().frontmatter_switch.is_none() && !switches.readers(skill).contains(&agent) {
            return Err(format!(
                "{name} does not read this folder (v: another agent)"
            ));
        }
        let plan = if switches.installed(agent) {
            switches
                .plan(skill, agent, SwitchScope::User, on)
                .map_err(|e| e.to_string())
        } else {
            Err(crate::core::agents::ToggleError::NotInstalled { agent }.to_string())
        };
        Ok(Some(Confirm {
            skill: i,
            on,
            scope: SwitchScope::User,
            plans: vec![(agent, plan)],
            scroll: 0,
        }))
    }

    /// Writes every planned change (each file atomically, with a backup) into the agents'
    /// settings `switches` (`None`: being read again) for `lib`: what to say, and whether it
    /// is an error.
    pub fn write(&self, lib: &Library, switches: Option<&AgentSwitches>) -> (String, bool) {
        let mut written = Vec::new();
        // Only a file that existed has a backup: a new settings file has nothing to keep.
        let mut backed_up = 0;
        let mut failed = Vec::new();
        let skill = lib.skills.get(self.skill);
        for (agent, plan) in &self.plans {
            let Ok(plan) = plan else {
                continue;
            };
            if plan.changes_nothing() {
                continue;
            }
            let (Some(switches), Some(skill)) = (switches, skill) else {
                failed.push(
                    "the agents' settings are being read again; nothing was written".to_string(),
                );
                break;
            };
            match switches.apply(skill, plan) {
                Ok((_, a)) if a.written => {
                    written.push(agent.as_str());
                    backed_up += usize::from(a.backup.is_some());
                }
                Ok(_) => {}
                Err(e) => failed.push(e.to_string()),
            }
        }
        let name = skill.map_or("", |s| s.name.as_str());
        let word = if self.on { "on" } else { "off" };
        if let Some(e) = failed.first() {
            (e.clone(), true)
        } else if written.is_empty() {
            (format!("{name}: nothing to change"), false)
        } else {
            let kept = match backed_up {
                0 => "",
                1 => " (backup kept)",
                _ => " (backups kept)",
            };
            (
                format!("{name} switched {word} for {}{kept}", written.join(", ")),
                false,
            )
        }
    }

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
                    crate::core::words::text::path(&p.file)
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
