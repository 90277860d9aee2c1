//! The `?` overlay: every binding of every context, straight from the keymap.

use crate::tui::app::App;
use crate::tui::keymap::{self, HELP_ORDER};
use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

pub fn lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut out = Vec::new();
    for ctx in HELP_ORDER {
        let bindings: Vec<_> = app
            .keymap
            .bindings()
            .iter()
            .filter(|b| b.context == *ctx)
            .collect();
        if bindings.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(Line::from(""));
        }
        out.push(Line::from(Span::styled(ctx.title().to_string(), t.title())));
        for b in bindings {
            let keys = keymap::keys_label(b, false);
            out.push(Line::from(vec![
                Span::styled(format!("  {keys:<18}"), t.key()),
                Span::raw(b.help.to_string()),
            ]));
        }
    }
    out.push(Line::from(""));
    let agents = format!(
        "Costs: … still counting, - nothing to count. agt: {} list",
        crate::core::agents::legend(crate::core::agents::REGISTRY)
    );
    for legend in [
        "Mouse: click a row to select it, a tab to switch; the wheel scrolls.",
        "List: ● on, ○ off; a dimmed row `name < where` is a shadowed copy: the one in `where` loads.",
        &agents,
        "it; - one of them reads the folder but its settings keep the skill out.",
    ] {
        out.push(Line::from(Span::styled(legend.to_string(), t.dim())));
    }
    if app.config_path.is_some() || !app.config_notes.is_empty() || !app.config_info.is_empty() {
        let shown = app.config_path.as_ref().map_or_else(
            || "(given to the app)".to_string(),
            |p| p.display().to_string(),
        );
        out.push(Line::from(""));
        out.push(Line::from(Span::styled(
            format!("Config file: {shown}"),
            t.dim(),
        )));
        let notes = app.config_notes.iter().map(|n| (n, t.error()));
        let info = app.config_info.iter().map(|n| (n, t.dim()));
        for (note, style) in notes.chain(info) {
            for (i, l) in crate::tui::view::detail::wrap(note, 72)
                .into_iter()
                .enumerate()
            {
                let lead = if i == 0 { "  " } else { "    " };
                out.push(Line::from(Span::styled(format!("{lead}{l}"), style)));
            }
        }
    }
    out
}

/// The overlay's own keys, from the keymap.
fn bottom_keys(app: &App) -> String {
    let items: Vec<String> = app
        .keymap
        .bindings()
        .iter()
        .filter(|b| b.context == keymap::Context::Help)
        .map(|b| format!("{} {}", keymap::keys_label(b, false), b.short))
        .collect();
    format!(" {} ", items.join(" · "))
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, scroll: u16) {
    let w = area.width.saturating_sub(4).min(84);
    let h = area.height.saturating_sub(2);
    let [row] = Layout::vertical([Constraint::Length(h)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(w)])
        .flex(Flex::Center)
        .areas(row);
    let body = lines(app);
    let max_scroll = (body.len() as u16).saturating_sub(h.saturating_sub(2));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(body)
            .scroll((scroll.min(max_scroll), 0))
            .block(
                Block::bordered()
                    .title(Span::styled(" Keys ", app.theme.title()))
                    .title_bottom(bottom_keys(app)),
            ),
        popup,
    );
}
