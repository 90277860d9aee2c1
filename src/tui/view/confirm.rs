//! The confirmation before writing a toggle into agents' settings: the exact diff of each file.

use crate::core::text::line;
use crate::tui::app::{App, Confirm};
use crate::tui::keymap::{self, Context};
use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

pub fn lines(app: &App, c: &Confirm) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut out = Vec::new();
    for (agent, plan) in &c.plans {
        out.push(Line::from(Span::styled(
            agent.as_str().to_string(),
            t.title(),
        )));
        match plan {
            Err(e) => out.push(Line::from(Span::styled(
                format!("  {}", line(&e.to_string())),
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

pub fn draw(frame: &mut Frame, area: Rect, app: &App, c: &Confirm) {
    let w = area.width.saturating_sub(4).min(100);
    let h = area.height.saturating_sub(4);
    let [row] = Layout::vertical([Constraint::Length(h)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(w)])
        .flex(Flex::Center)
        .areas(row);
    let name = line(app.lib.skills.get(c.skill).map_or("", |s| s.name.as_str()));
    let word = if c.on { "on" } else { "off" };
    let keys: Vec<String> = app
        .keymap
        .footer(&[Context::Confirm])
        .iter()
        .map(|b| format!("{} {}", keymap::keys_label(b, false), b.short))
        .collect();
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines(app, c)).scroll((c.scroll, 0)).block(
            Block::bordered()
                .title(Span::styled(
                    format!(
                        " Switch {name} {word} in the agents' {} settings? ",
                        c.scope
                    ),
                    app.theme.title(),
                ))
                .title_bottom(format!(" {} ", keys.join(" · "))),
        ),
        popup,
    );
}
