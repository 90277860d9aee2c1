//! Checks: the `--help-json` probe of executable skills, run only when asked, with progress and
//! a verdict per skill.

use crate::core::SkillKind;
use crate::tui::app::App;
use crate::tui::view::pending;
use ratatui::Frame;
use ratatui::layout::Rect;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let n = app
        .lib
        .skills
        .iter()
        .filter(|s| s.kind() == SkillKind::Executable)
        .count();
    let line = format!("{n} executable skills. Nothing runs until you ask.");
    pending(
        frame,
        area,
        app,
        "Checks",
        &[&line, "The probe runner is not part of this build yet."],
    );
}
