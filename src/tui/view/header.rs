//! The top line: the screens as tabs, and what the figures are about (the agent in view and
//! whether its installed client is the version modelled, demo library, rescans).

use crate::tui::action::Screen;
use crate::tui::layout::{brand, tab_label};
use crate::tui::state::view::View;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(frame: &mut Frame, area: Rect, view: &View<'_>) {
    let t = &view.theme;
    let mut spans = vec![Span::styled(brand(area.width), t.title())];
    for s in Screen::ALL {
        let style = if s == view.screen {
            t.tab_active()
        } else {
            t.base()
        };
        spans.push(Span::styled(tab_label(s, area.width), style));
        spans.push(Span::raw(" "));
    }
    let mut right = Vec::new();
    if let Some(c) = view.counting.progress {
        let level = match c.level {
            crate::core::skill::Level::L1 => "L1",
            crate::core::skill::Level::L2 => "L2",
            crate::core::skill::Level::L3 => "L3",
        };
        right.push(Span::styled(
            format!("counting {level} {}/{} ", c.done, c.total),
            t.dim(),
        ));
    }
    if view.rescan.running() {
        let word = if view.loaded() {
            "rescanning… "
        } else {
            "scanning… "
        };
        right.push(Span::styled(word, t.dim()));
    }
    // The agent every screen shows (v cycles it).
    if let Some(a) = view.view_agent() {
        right.push(Span::styled(
            format!(" {} ", crate::core::agents::model::model(a).name),
            t.badge().add_modifier(ratatui::style::Modifier::REVERSED),
        ));
    }
    if view.lib.demo {
        right.push(Span::styled(
            " demo library ",
            t.warning().add_modifier(ratatui::style::Modifier::REVERSED),
        ));
    }
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let room = usize::from(area.width).saturating_sub(used);
    let width = |v: &[Span]| v.iter().map(|s| s.content.chars().count()).sum::<usize>();
    if !view.config.notes.is_empty() {
        // Config problems outrank progress words: the badge stays, shorter if it must. The
        // details are in the help overlay, with their lines.
        let n = view.config.notes.len();
        let what = if n == 1 { "problem" } else { "problems" };
        let style = t.error().add_modifier(ratatui::style::Modifier::REVERSED);
        let long = Span::styled(format!(" config: {n} {what}, see ? "), style);
        let short = Span::styled(format!(" config {n}! "), style);
        let mut with = right.clone();
        with.insert(0, long.clone());
        right = if width(&with) <= room {
            with
        } else if long.content.chars().count() <= room {
            vec![long]
        } else {
            vec![short]
        };
    }
    // Every screen shows one agent's view: when its installed client is not the version its
    // model was captured from, the header says so beside the agent, shorter when it must (the
    // Prompt screen has the whole note).
    if let Some((installed, modelled)) = view
        .view_agent()
        .and_then(|a| view.verify.version_mismatch(a))
    {
        let long = format!(" installed {installed} ≠ modelled {modelled} ");
        let short = format!(" {installed} ≠ {modelled} ");
        let shortest = format!(" {installed}≠{modelled} ");
        let fits = |text: &str| width(&right) + text.chars().count() <= room;
        let text = [long, short, shortest].into_iter().find(|t| fits(t));
        if let Some(text) = text {
            let badge = t.badge().add_modifier(ratatui::style::Modifier::REVERSED);
            let at = right
                .iter()
                .position(|s| s.style == badge)
                .unwrap_or(right.len());
            right.insert(at, Span::styled(text, t.warning()));
        }
    }
    if let Some(span) = calibration_badge(view, room.saturating_sub(width(&right))) {
        right.insert(0, span);
    }
    if let Some(text) = model_badge(view)
        && width(&right) + text.chars().count() <= room
    {
        let badge = t.badge().add_modifier(ratatui::style::Modifier::REVERSED);
        let at = right
            .iter()
            .position(|s| s.style == badge)
            .map_or(right.len(), |i| i + 1);
        right.insert(at, Span::styled(text, t.dim()));
    }
    let right_w = width(&right);
    if right_w <= room {
        spans.push(Span::raw(" ".repeat(room - right_w)));
        spans.extend(right);
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// ` calibrated against your 2.1.340 ` (shorter when it must be, in `room` columns): the view's
/// agent was calibrated by `skillscope verify` against the release installed.
fn calibration_badge(view: &View<'_>, room: usize) -> Option<Span<'static>> {
    let chosen = crate::core::agents::eras::in_use(view.view_agent()?)?;
    let crate::core::agents::calibration::Calibrated::Used { version, .. } = &chosen.calibration
    else {
        return None;
    };
    let version = crate::core::words::text::line(version);
    let long = format!(" calibrated against your {version} ");
    let short = format!(" calibrated {version} ");
    [long, short]
        .into_iter()
        .find(|t| t.chars().count() <= room)
        .map(|text| Span::styled(text, view.theme.dim()))
}

/// ` on claude-sonnet-4-5 `: a model other than the client's default (set in its settings, or
/// chosen with m), named beside the agent, since every screen's figures are made for it. A model
/// the client does not know (its fallback) is named by the Prompt screen's title instead.
fn model_badge(view: &View<'_>) -> Option<String> {
    let client = crate::core::agents::model::model(view.view_agent()?).client_in_use()?;
    let cm = view.client_model?;
    let default = client.default_model()?;
    let fallback = client.catalogue.map(|c| c.fallback);
    (!std::ptr::eq(cm, default) && !fallback.is_some_and(|f| std::ptr::eq(cm, f)))
        .then(|| format!(" on {} ", crate::core::words::text::line(cm.id)))
}
