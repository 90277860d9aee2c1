//! Long lines wrapped to the width of a pane, as the Prompt preview, the detail's body and the
//! file viewer show them: indentation kept, a line broken after its last space that fits (or
//! mid-word when none does), and a map from screen rows back to lines so that scrolling works
//! in rows while line numbers stay those of the file.

/// One line of text as screen rows of at most `width` characters: tabs as four spaces, every
/// hazard escaped, spaces kept.
pub fn wrap_keep(line: &str, width: usize) -> Vec<String> {
    let shown = prepare(line);
    rows(&shown, width).map(str::to_string).collect()
}

/// A line as it is shown: its hazards escaped, tabs as four spaces.
fn prepare(line: &str) -> std::borrow::Cow<'_, str> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.contains('\t') {
        std::borrow::Cow::Owned(
            crate::core::words::text::line(&line.replace('\t', "    ")).into_owned(),
        )
    } else {
        crate::core::words::text::line(line)
    }
}

/// The rows of a prepared line, made one at a time: a long line costs only the rows taken.
fn rows(line: &str, width: usize) -> impl Iterator<Item = &str> {
    let width = width.max(1);
    let mut rest = Some(line);
    std::iter::from_fn(move || {
        let s = rest?;
        // The byte index after `width` characters, and after the last space among them that
        // has something other than spaces before it.
        let mut end = s.len();
        let mut space = None;
        let mut seen_text = false;
        for (n, (i, c)) in s.char_indices().enumerate() {
            if n == width {
                end = i;
                break;
            }
            if c == ' ' {
                if seen_text {
                    space = Some(i + 1);
                }
            } else {
                seen_text = true;
            }
        }
        if end == s.len() {
            rest = None;
            return Some(s);
        }
        let cut = space.unwrap_or(end);
        rest = Some(&s[cut..]);
        Some(&s[..cut])
    })
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
            row += rows(&prepare(line), width).count();
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
    let (mut line, sub) = wrapped.line_at(first);
    let mut out = Vec::with_capacity(height);
    for (n, l) in text.lines().skip(line).enumerate() {
        let shown = prepare(l);
        let skip = if n == 0 { sub } else { 0 };
        for (k, row) in rows(&shown, wrapped.width).enumerate().skip(skip) {
            if out.len() == height {
                return out;
            }
            out.push(((k == 0).then_some(line), row.to_string()));
        }
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
