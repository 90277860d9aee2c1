//! Styles of the app, in colour or (under `NO_COLOR`) in reverse/bold/underline only.

use ratatui::style::{Color, Modifier, Style};

/// Every style the views use, chosen once at start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// Colours unless `--color never`, or `NO_COLOR` set to a non-empty value
    /// (<https://no-color.org>) without `--color always`.
    pub fn from_env() -> Theme {
        Theme {
            color: crate::color::enabled(true),
        }
    }

    pub fn plain() -> Theme {
        Theme { color: false }
    }

    fn pick(self, colored: Style, plain: Style) -> Style {
        if self.color { colored } else { plain }
    }

    pub fn base(&self) -> Style {
        Style::default()
    }

    pub fn title(&self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn selected(&self) -> Style {
        self.pick(
            Style::default()
                .bg(Color::Blue)
                .fg(Color::White)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::REVERSED),
        )
    }

    pub fn tab_active(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    pub fn dim(&self) -> Style {
        self.pick(
            Style::default().fg(Color::DarkGray),
            Style::default().add_modifier(Modifier::DIM),
        )
    }

    pub fn on(&self) -> Style {
        self.pick(
            Style::default().fg(Color::Green),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn error(&self) -> Style {
        self.pick(
            Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn warning(&self) -> Style {
        self.pick(Style::default().fg(Color::Yellow), Style::default())
    }

    /// Characters or words that matched a filter or a message.
    pub fn hit(&self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )
    }

    pub fn key(&self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn badge(&self) -> Style {
        self.pick(Style::default().fg(Color::Magenta), Style::default())
    }

    pub fn gauge(&self) -> Style {
        self.pick(Style::default().fg(Color::Green), Style::default())
    }

    pub fn gauge_over(&self) -> Style {
        self.pick(
            Style::default().fg(Color::Red),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn line_number(&self) -> Style {
        self.dim()
    }

    pub fn added(&self) -> Style {
        self.pick(
            Style::default().fg(Color::Green),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn removed(&self) -> Style {
        self.pick(
            Style::default().fg(Color::Red),
            Style::default().add_modifier(Modifier::DIM),
        )
    }
}
