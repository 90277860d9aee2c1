//! Long lines wrapped to the width of a pane, as the Prompt preview, the detail's body and the
//! file viewer show them: indentation kept, a line broken after its last space that fits (or
//! mid-word when none does), and a map from screen rows back to lines so that scrolling works
//! in rows while line numbers stay those of the file.

/// One line of text as screen rows of at most `width` characters: tabs as four spaces, every
/// hazard escaped, spaces kept.
pub fn wrap_keep(line: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let shown =
        crate::core::text::line(line.strip_suffix('\r').unwrap_or(line)).replace('\t', "    ");
    let chars: Vec<char> = shown.chars().collect();
    if chars.len() <= width {
        return vec![shown];
    }
    let mut rows = Vec::new();
    let mut start = 0;
    while chars.len() - start > width {
        let window = &chars[start..start + width];
        // Break after the last space of the row, unless that leaves the row all indentation.
        let cut = window
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|&p| window[..p].iter().any(|c| *c != ' '))
            .map_or(width, |p| p + 1);
        rows.push(chars[start..start + cut].iter().collect());
        start += cut;
    }
    rows.push(chars[start..].iter().collect());
    rows
}

/// Where each line of a text starts among its screen rows at one width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapped {
    pub width: usize,
    /// `starts[i]`: the first row of line `i`; the last entry is the number of rows.
    starts: Vec<usize>,
}

impl Wrapped {
    pub fn new(text: &str, width: usize) -> Wrapped {
        let mut starts = Vec::with_capacity(text.len() / 40 + 2);
        let mut row = 0;
        for line in text.lines() {
            starts.push(row);
            row += wrap_keep(line, width).len();
        }
        starts.push(row);
        Wrapped { width, starts }
    }

    /// How many screen rows the text takes.
    pub fn rows(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// The line shown at screen row `row`, and which of its rows that is.
    pub fn line_at(&self, row: usize) -> (usize, usize) {
        let lines = self.starts.len().saturating_sub(1);
        let i = match self.starts[..lines].binary_search(&row) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        (
            i,
            row.saturating_sub(self.starts.get(i).copied().unwrap_or(0)),
        )
    }
}

/// A [`Wrapped`] kept for the width it was made for: drawing asks for it every frame, and a big
/// text is wrapped again only when the width changes.
#[derive(Debug, Clone, Default)]
pub struct WrapCache(std::cell::RefCell<Option<Wrapped>>);

impl WrapCache {
    /// The text's rows at `width`, made now if the cached ones are for another width.
    pub fn get(&self, text: &str, width: usize) -> Wrapped {
        let mut cell = self.0.borrow_mut();
        match &*cell {
            Some(w) if w.width == width => w.clone(),
            _ => {
                let w = Wrapped::new(text, width);
                *cell = Some(w.clone());
                w
            }
        }
    }

    /// The text changed: wrap it again when next asked.
    pub fn clear(&self) {
        self.0.borrow_mut().take();
    }
}

/// The screen rows `first..first + height` of `text` wrapped at `width`: each with the number
/// of its line (0-based) when it is the line's first row.
pub fn rows_of(
    text: &str,
    wrapped: &Wrapped,
    first: usize,
    height: usize,
) -> Vec<(Option<usize>, String)> {
    let (mut line, mut sub) = wrapped.line_at(first);
    let mut out = Vec::with_capacity(height);
    for l in text.lines().skip(line) {
        for (k, row) in wrap_keep(l, wrapped.width)
            .into_iter()
            .enumerate()
            .skip(sub)
        {
            if out.len() == height {
                return out;
            }
            out.push(((k == 0).then_some(line), row));
        }
        sub = 0;
        line += 1;
        if out.len() == height {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_after_a_space_keeping_indentation() {
        assert_eq!(wrap_keep("short", 10), ["short"]);
        assert_eq!(wrap_keep("aaa bbb ccc", 8), ["aaa bbb ", "ccc"]);
        assert_eq!(wrap_keep("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(
            wrap_keep("    indented words here", 12),
            ["    indented", " words here"]
        );
        assert_eq!(wrap_keep("\tx", 10), ["    x"]);
        assert_eq!(wrap_keep("a\u{1b}b", 20), ["a\\u{1b}b"]);
        // Every character is kept, in order.
        let long = "- pdf-tools: Extract text and tables from PDF files. Use when asked.";
        for w in [1, 5, 13, 40] {
            assert_eq!(wrap_keep(long, w).concat(), long, "{w}");
            assert!(wrap_keep(long, w).iter().all(|r| r.chars().count() <= w));
        }
    }

    #[test]
    fn rows_map_back_to_their_lines() {
        let text = "one\ntwo two two\nthree";
        let w = Wrapped::new(text, 4);
        // "one", "two ", "two ", "two", "thre", "e"
        assert_eq!(w.rows(), 6);
        assert_eq!(w.line_at(0), (0, 0));
        assert_eq!(w.line_at(2), (1, 1));
        assert_eq!(w.line_at(5), (2, 1));
        let rows = rows_of(text, &w, 2, 3);
        assert_eq!(
            rows,
            [
                (None, "two ".to_string()),
                (None, "two".to_string()),
                (Some(2), "thre".to_string())
            ]
        );
        assert_eq!(rows_of(text, &w, 0, 10).len(), 6);
        assert_eq!(Wrapped::new("", 10).rows(), 0);
    }
}
