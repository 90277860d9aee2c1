//! Visible escapes for the characters that must never reach a terminal or an XML consumer raw:
//! control characters (which start terminal escape sequences, ring bells, move the cursor) and
//! bidirectional controls (which make text read differently from what it holds).
//!
//! A hazard is written as Rust writes it in a string literal, `\u{1b}`: plain ASCII, so the
//! escaped text is safe on any terminal, inside XML and inside a JSON string, and escaping twice
//! changes nothing.

use std::borrow::Cow;
use std::fmt;

/// C0 controls (tab and line feed included), DEL and the C1 controls: what terminals act on.
pub fn is_control(c: char) -> bool {
    matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}')
}

/// Bidirectional formatting characters: embeddings and overrides (U+202A–U+202E), isolates
/// (U+2066–U+2069) and the marks (U+200E, U+200F, U+061C).
pub fn is_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
    )
}

/// Every character [`line`] escapes: controls, bidi controls and the two noncharacters XML 1.0
/// forbids (U+FFFE, U+FFFF).
pub fn is_hazard(c: char) -> bool {
    is_control(c) || is_bidi(c) || matches!(c, '\u{fffe}' | '\u{ffff}')
}

/// The text as one line: every hazard escaped, tabs and line breaks included. For names, paths,
/// table cells and messages.
pub fn line(s: &str) -> Cow<'_, str> {
    // Printable ASCII holds no hazard: most names and paths are, so they are not looked at twice.
    if all_bytes(s, |b| matches!(b, b' '..=b'~')) {
        return Cow::Borrowed(s);
    }
    escape(s, |_, _| true)
}

/// Text that may span lines: line feeds and tabs are kept, a carriage return only right before
/// a line feed (alone it would send the cursor back over what is written); every other hazard is
/// escaped. For descriptions, bodies, listings and a program's output.
pub fn text(s: &str) -> Cow<'_, str> {
    if all_bytes(s, |b| matches!(b, b' '..=b'~' | b'\n' | b'\t')) {
        return Cow::Borrowed(s);
    }
    escape(s, |c, next| match c {
        '\n' | '\t' => false,
        '\r' => next != Some('\n'),
        _ => true,
    })
}

/// Whether every byte of `s` passes `ok`. Every byte is looked at (no early exit), which the
/// compiler does many bytes at a time: most text passes, and is looked at whole anyway.
fn all_bytes(s: &str, ok: impl Fn(u8) -> bool) -> bool {
    s.bytes().fold(true, |all, b| all & ok(b))
}

/// Escapes the hazards for which `escaped(c, next char)` says so.
fn escape(s: &str, escaped: impl Fn(char, Option<char>) -> bool) -> Cow<'_, str> {
    let mut chars = s.char_indices().peekable();
    let mut out: Option<String> = None;
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let hit = is_hazard(c) && escaped(c, next);
        match (&mut out, hit) {
            (None, false) => {}
            (None, true) => {
                let mut o = String::with_capacity(s.len() + 8);
                o.push_str(&s[..i]);
                push_escape(&mut o, c);
                out = Some(o);
            }
            (Some(o), true) => push_escape(o, c),
            (Some(o), false) => o.push(c),
        }
    }
    out.map_or(Cow::Borrowed(s), Cow::Owned)
}

fn push_escape(out: &mut String, c: char) {
    use fmt::Write;
    let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
}

/// The first hazard of `s` and its character index, if any.
#[cfg(test)]
fn first_hazard(s: &str) -> Option<(usize, char)> {
    s.chars().enumerate().find(|&(_, c)| is_hazard(c))
}

/// Shows its text as [`line`] does, honouring width, fill and alignment (`{:<20}`).
#[derive(Debug, Clone, Copy)]
pub struct Line<'a>(pub &'a str);

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&line(self.0))
    }
}

/// A path shown as one escaped line.
pub fn path(p: &std::path::Path) -> String {
    let shown = p.display().to_string();
    match line(&shown) {
        Cow::Borrowed(_) => shown,
        Cow::Owned(o) => o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // The printable-ASCII shortcut gives what the character walk gives.
        #[test]
        fn the_shortcut_agrees_with_the_walk(s in "[ -~\\n\\t\\r\\x00-\\x1f\\x7f\\u{80}-\\u{9f}\\u{202e}é]{0,40}") {
            prop_assert_eq!(line(&s), escape(&s, |_, _| true));
            prop_assert_eq!(
                text(&s),
                escape(&s, |c, next| match c {
                    '\n' | '\t' => false,
                    '\r' => next != Some('\n'),
                    _ => true,
                })
            );
        }
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(line("pdf-tools é ✓"), Cow::Borrowed(_)));
        assert!(matches!(text("a\n\tb\r\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_hazard_is_escaped_visibly() {
        assert_eq!(line("\x1b]0;pwned\x07"), "\\u{1b}]0;pwned\\u{7}");
        assert_eq!(line("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(line("\u{9b}2J\x7f"), "\\u{9b}2J\\u{7f}");
        assert_eq!(
            line("\u{2066}\u{200f}\u{61c}\u{fffe}"),
            "\\u{2066}\\u{200f}\\u{61c}\\u{fffe}"
        );
        assert_eq!(line("a\nb\tc"), "a\\u{a}b\\u{9}c");
        assert_eq!(text("a\nb\tc"), "a\nb\tc");
        assert_eq!(text("a\r\nb\rc\r"), "a\r\nb\\u{d}c\\u{d}");
    }

    #[test]
    fn escaping_twice_changes_nothing() {
        let s = "x\x1b[2J\u{202e}\u{9b}\n\r";
        let once = line(s).into_owned();
        assert_eq!(line(&once), once);
        assert!(!once.chars().any(is_hazard));
        let once = text(s).into_owned();
        assert_eq!(text(&once), once);
    }

    #[test]
    fn display_pads_the_escaped_form() {
        assert_eq!(format!("[{:<8}]", Line("a\x07")), "[a\\u{7}  ]");
        assert_eq!(first_hazard("ab\u{202e}"), Some((2, '\u{202e}')));
        assert_eq!(first_hazard("abc"), None);
    }
}
