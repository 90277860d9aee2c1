//! Text helpers shared by the core and both front ends: numbers with thousands separators, names
//! cut with `…` (at the end, or at the start for paths), and the visible escapes of
//! [`crate::core::words::escape`] that every text output goes through.

pub use crate::core::words::escape::{Line as Esc, is_hazard, line, path, text};

/// Seconds since the epoch as calendar parts in UTC: (year, month, day, hour, minute, second),
/// by Howard Hinnant's days-to-civil algorithm (the proleptic Gregorian calendar).
pub fn utc_parts(secs: u64) -> (i64, i64, i64, u64, u64, u64) {
    let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rem / 3_600, rem % 3_600 / 60, rem % 60)
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    // The digits made here, not through the formatting machinery: reports write tens of
    // thousands of figures.
    let mut buf = [0_u8; 20];
    let mut at = buf.len();
    let mut rest = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let digits = &buf[at..];
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, &c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(char::from(c));
    }
    out
}

/// A count of things for people: `1 skill`, `0 skills`, `2,136 skills`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// [`count`] of a `usize`.
pub fn count_of(n: usize, one: &str, many: &str) -> String {
    count(n as u64, one, many)
}

/// `n` in at most `width` characters: with thousands separators when they fit, else in `k`, `M`,
/// `G` units (`400k`, `1.2M`), rounded to the nearest; the full figure when nothing fits.
pub fn compact(n: u64, width: usize) -> String {
    let full = thousands(n);
    if full.len() <= width {
        return full;
    }
    for (unit, div) in [("k", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12)] {
        let v = n as f64 / div;
        // 999.6k would round to 1000k: that is the next unit's 1.0M.
        if v >= 999.5 {
            continue;
        }
        let s = if v < 9.95 {
            format!("{v:.1}{unit}")
        } else {
            format!("{v:.0}{unit}")
        };
        if s.len() <= width {
            return s;
        }
    }
    full
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

/// The candidate closest to a mistyped `word`, when one is close enough to be what was meant:
/// at most a third of its characters differ (edits, case aside), or it starts with the word;
/// the fewest edits win.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let w: Vec<char> = word.chars().collect();
    if w.is_empty() {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let lower = c.to_lowercase();
        let limit = (w.len().max(c.chars().count()) / 3).max(1);
        let mut d = edit_distance(&w, &lower.chars().collect::<Vec<_>>());
        // A word that begins the candidate is close however much is left to type.
        if d > limit && w.len() >= 3 && lower.starts_with(&word) {
            d = limit;
        }
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `name` followed by the possessive: `Claude Code's`, `Lazy Skills'`.
pub fn possessive(name: &str) -> String {
    if name.ends_with(['s', 'S']) {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// Edit distance in characters, a swap of two neighbours counting as one edit (`chekc` is one
/// from `check`): the optimal string alignment distance, with three rows.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            let mut d = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Wildcard match of a whole text: `*` any run of characters, `?` any one, everything else
/// itself. Iterative with one backtrack point: linear in practice, never exponential.
pub fn wildcard(p: &[char], t: &[char]) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_and_fit() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("abc", 4), "abc");
        assert_eq!(fit("ééééé", 3), "éé…");
        assert_eq!(fit("abc", 0), "");
        assert_eq!(fit_left("/a/b/c/d", 5), "…/c/d");
        assert_eq!(fit_left("abc", 0), "");
    }

    #[test]
    fn closest_names_what_was_meant_and_nothing_far() {
        let names = ["pdf-extract", "csv-stats", "url-status", "unknown-field"];
        assert_eq!(closest("pdf-extrat", names), Some("pdf-extract"));
        assert_eq!(closest("CSV-stat", names), Some("csv-stats"));
        assert_eq!(closest("unknown-fields", names), Some("unknown-field"));
        assert_eq!(closest("pdf", names), Some("pdf-extract"), "a prefix");
        assert_eq!(closest("docker", names), None);
        assert_eq!(closest("", names), None);
        assert_eq!(edit_distance(&['a', 'b'], &[]), 2);
        assert_eq!(
            closest("pfd", ["pdf", "csv"]),
            Some("pdf"),
            "a swap is one edit"
        );
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(edit_distance(&chars("chekc"), &chars("check")), 1);
        assert_eq!(edit_distance(&chars("kitten"), &chars("sitting")), 3);
    }

    #[test]
    fn possessives_of_names_ending_in_s() {
        assert_eq!(possessive("Lazy Skills"), "Lazy Skills'");
        assert_eq!(possessive("Claude Code"), "Claude Code's");
    }

    #[test]
    fn counts_say_one_and_many() {
        assert_eq!(count(1u32, "skill", "skills"), "1 skill");
        assert_eq!(count(0u32, "skill", "skills"), "0 skills");
        assert_eq!(count_of(2136, "error", "errors"), "2,136 errors");
        assert_eq!(
            count_of(1, "file with errors", "files with errors"),
            "1 file with errors"
        );
    }

    #[test]
    fn compact_figures_keep_their_magnitude() {
        assert_eq!(compact(12_345, 6), "12,345");
        assert_eq!(compact(400_000, 6), "400k");
        assert_eq!(compact(400_000, 7), "400,000");
        assert_eq!(compact(999_999, 6), "1.0M");
        assert_eq!(compact(1_234_567, 6), "1.2M");
        assert_eq!(compact(98_765_432, 6), "99M");
        assert_eq!(compact(4_294_967_295, 6), "4.3G");
        assert_eq!(compact(123_456, 4), "123k");
        assert_eq!(compact(1_500, 4), "1.5k");
        assert_eq!(compact(7, 1), "7");
        assert_eq!(
            compact(12_345, 2),
            "12,345",
            "nothing fits: the whole figure"
        );
    }

    #[test]
    fn fit_escapes_before_it_cuts() {
        assert_eq!(fit("a\x1bb", 20), "a\\u{1b}b");
        assert_eq!(fit("a\u{202e}bcdefgh", 6), "a\\u{2…");
        assert_eq!(fit_left("x/\x1b]0;t\x07", 12), "…b}]0;t\\u{7}");
        assert!(!fit_left("\u{202e}", 3).contains('\u{202e}'));
    }
}
