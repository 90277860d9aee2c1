//! The prompt preview: the exact listing an agent would get, its token count, the budget gauge
//! and every skill's fate.

use crate::tui::app::{App, FORMATS, TIERS, WINDOWS};
use crate::tui::view::{pending, thousands};
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let p = &app.prompt;
    let settings = format!(
        "format {} · tier {} · window {} tokens",
        FORMATS[p.format],
        TIERS[p.tier],
        thousands(WINDOWS[p.window])
    );
    pending(
        frame,
        area,
        app,
        "Prompt preview",
        &[
            &settings,
            "…",
            "The listing renderer is not part of this build yet.",
        ],
    );
}
