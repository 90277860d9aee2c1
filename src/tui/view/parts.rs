//! The drawing helpers the screens share: token figures, bars, wrapped words, a centred box.

/// A token figure of a level: `…` while the level is being counted, `-` when it was counted
/// and there is nothing (an L1 of a skill that is not listed, an unreadable file).
pub fn cost(n: Option<u32>, counted: bool) -> String {
    cost_in(n, counted, usize::MAX)
}

/// [`cost`] for a column `width` characters wide: a figure that does not fit whole is shown in
/// `k`/`M` units (`400k`), never cut (the detail pane has the exact figure).
pub fn cost_in(n: Option<u32>, counted: bool, width: usize) -> String {
    match (n, counted) {
        (Some(n), _) => crate::core::words::text::compact(u64::from(n), width),
        (None, true) => "-".to_string(),
        (None, false) => "…".to_string(),
    }
}

/// A horizontal bar `width` cells long filled to `ratio` (clamped to 0..=1) in eighths of a
/// cell, the rest a dim track. A figure above zero shows at least a sliver, so "small" never
/// looks like "none".
pub fn bar(
    ratio: f64,
    width: usize,
    fill: ratatui::style::Style,
    track: ratatui::style::Style,
) -> Vec<ratatui::text::Span<'static>> {
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let ratio = if ratio.is_finite() {
        ratio.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let eighths = (ratio * (width * 8) as f64).round() as usize;
    let eighths = if ratio > 0.0 { eighths.max(1) } else { 0 };
    let (full, part) = (eighths / 8, eighths % 8);
    let mut filled = "█".repeat(full);
    filled.push_str(PARTS[part]);
    let used = full + usize::from(part > 0);
    vec![
        ratatui::text::Span::styled(filled, fill),
        ratatui::text::Span::styled("░".repeat(width.saturating_sub(used)), track),
    ]
}

/// Word wrap to `width` columns, every hazard escaped; words longer than a line are cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let para = crate::core::words::text::line(para.strip_suffix('\r').unwrap_or(para));
        let mut line = String::new();
        let mut len = 0;
        for word in para.split_whitespace() {
            let wl = word.chars().count();
            if len > 0 && len + 1 + wl > width {
                out.push(std::mem::take(&mut line));
                len = 0;
            }
            if wl > width {
                let chars: Vec<char> = word.chars().collect();
                for chunk in chars.chunks(width) {
                    if len > 0 {
                        out.push(std::mem::take(&mut line));
                    }
                    line = chunk.iter().collect();
                    len = chunk.len();
                }
                continue;
            }
            if len > 0 {
                line.push(' ');
                len += 1;
            }
            line.push_str(word);
            len += wl;
        }
        out.push(line);
    }
    out
}

/// A box of `width` × `height` in the middle of `area` (each no larger than `area`'s): where the
/// overlays are drawn.
pub fn centered(area: ratatui::layout::Rect, width: u16, height: u16) -> ratatui::layout::Rect {
    use ratatui::layout::{Constraint, Flex, Layout};
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [middle] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    middle
}

#[cfg(test)]
mod tests {
    use super::{bar, wrap};
    use ratatui::style::Style;

    fn drawn(ratio: f64, width: usize) -> String {
        bar(ratio, width, Style::default(), Style::default())
            .iter()
            .map(|s| s.content.to_string())
            .collect()
    }

    #[test]
    fn bars_fill_in_eighths_and_keep_their_length() {
        assert_eq!(drawn(0.0, 4), "░░░░");
        assert_eq!(drawn(1.0, 4), "████");
        assert_eq!(drawn(0.5, 4), "██░░");
        assert_eq!(drawn(0.5 + 1.0 / 32.0, 4), "██▏░");
        // A small share is a sliver, not nothing; more than all is all.
        assert_eq!(drawn(0.0001, 4), "▏░░░");
        assert_eq!(drawn(3.0, 4), "████");
        assert_eq!(drawn(f64::NAN, 2), "░░");
        for r in [0.0, 0.13, 0.5, 0.99, 1.0, 7.0] {
            assert_eq!(drawn(r, 10).chars().count(), 10, "{r}");
        }
    }

    #[test]
    fn wraps_on_words_and_cuts_long_words() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap("a\nb", 10), vec!["a", "b"]);
        assert_eq!(wrap("a\r\nb\u{202e}c", 20), vec!["a", "b\\u{202e}c"]);
    }
}
