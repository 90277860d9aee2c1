//! Small text helpers shared by the CLI and the app: numbers with thousands separators, names cut
//! with `…`, and the visible escapes of [`crate::core::escape`] that every text output goes
//! through.

pub use crate::core::escape::{Line as Esc, is_hazard, line, path, text};

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The text as one escaped line (see [`line`]), at most `width` characters, cut at the end with
/// `…` when it was longer.
pub fn fit(s: &str, width: usize) -> String {
    let s = line(s);
    if width == 0 {
        return String::new();
    }
    if s.chars().count() <= width {
        return s.into_owned();
    }
    let mut out: String = s.chars().take(width - 1).collect();
    out.push('…');
    out
}

/// The text as one escaped line, at most `width` characters, cut at the start with `…` (the end
/// of a path says the most).
pub fn fit_left(s: &str, width: usize) -> String {
    let s = line(s);
    let n = s.chars().count();
    if n <= width {
        return s.into_owned();
    }
    if width == 0 {
        return String::new();
    }
    let tail: String = s.chars().skip(n - (width - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_and_fit() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("abc", 4), "abc");
        assert_eq!(fit("ééééé", 3), "éé…");
        assert_eq!(fit("abc", 0), "");
        assert_eq!(fit_left("/a/b/c/d", 5), "…/c/d");
        assert_eq!(fit_left("abc", 0), "");
    }

    #[test]
    fn fit_escapes_before_it_cuts() {
        assert_eq!(fit("a\x1bb", 20), "a\\u{1b}b");
        assert_eq!(fit("a\u{202e}bcdefgh", 6), "a\\u{2…");
        assert_eq!(fit_left("x/\x1b]0;t\x07", 12), "…b}]0;t\\u{7}");
        assert!(!fit_left("\u{202e}", 3).contains('\u{202e}'));
    }
}
