//! The one style layer of the CLI's text reports: each tone a report paints in, as ANSI codes,
//! or the text as it is when colour is off (`--color`, `NO_COLOR`, not a terminal:
//! `output::use_color`). Every subcommand paints through [`Style`]; none writes an escape code.

use crate::core::findings::diagnostic::Severity;

/// What a piece of text is, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// A heading or a name to find (bold).
    Strong,
    /// Less important (dim).
    Faint,
    /// Failed, an error, a line taken out (red).
    Bad,
    /// Failed badly (bold red).
    Worst,
    /// A warning (yellow).
    Warn,
    /// Passed, a line added (green).
    Good,
    /// Worth knowing (cyan).
    Note,
    /// Matched words (bold yellow).
    Mark,
}

impl Tone {
    /// Its SGR parameters.
    fn code(self) -> &'static str {
        match self {
            Tone::Strong => "1",
            Tone::Faint => "2",
            Tone::Bad => "31",
            Tone::Worst => "1;31",
            Tone::Warn => "33",
            Tone::Good => "32",
            Tone::Note => "36",
            Tone::Mark => "1;33",
        }
    }
}

/// Colour on or off for one report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    on: bool,
}

impl Style {
    /// Paints when `on`.
    pub fn new(on: bool) -> Style {
        Style { on }
    }

    /// What goes before text of `tone`, and what after ("" and "" when colour is off).
    pub fn around(self, tone: Tone) -> (String, &'static str) {
        if self.on {
            (format!("\x1b[{}m", tone.code()), "\x1b[0m")
        } else {
            (String::new(), "")
        }
    }

    /// `text` in `tone`.
    pub fn paint(self, tone: Tone, text: &str) -> String {
        let (open, close) = self.around(tone);
        format!("{open}{text}{close}")
    }

    /// A finding's severity: errors red, warnings yellow, the rest `info`'s tone.
    pub fn severity(self, severity: Severity, info: Tone, text: &str) -> String {
        let tone = match severity {
            Severity::Error => Tone::Bad,
            Severity::Warning => Tone::Warn,
            Severity::Info => info,
        };
        self.paint(tone, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_leaves_text_as_it_is_and_on_wraps_it_in_its_tone() {
        assert_eq!(Style::new(false).paint(Tone::Bad, "error"), "error");
        assert_eq!(
            Style::new(true).paint(Tone::Bad, "error"),
            "\x1b[31merror\x1b[0m"
        );
        assert_eq!(
            Style::new(true).severity(Severity::Info, Tone::Faint, "info"),
            "\x1b[2minfo\x1b[0m"
        );
        assert_eq!(Style::new(true).around(Tone::Mark).0, "\x1b[1;33m");
    }
}
