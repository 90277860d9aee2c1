//! JavaScript's string helpers as the modelled clients call them: `localeCompare` (ICU's root
//! collation, which opencode sorts its skill listing by and Gemini CLI a skill folder's files)
//! and `trim`.

use std::cmp::Ordering;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// ASCII punctuation and symbols in the order ICU's root collation gives them (after white
/// space, before digits): `_ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # % ` ^ + < = > | ~ $`.
const PUNCTUATION: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// White space in the order ICU's root collation gives it.
const SPACE: &str = "\t\n\u{b}\u{c}\r\u{85}\u{2028}\u{2029} ";

/// One character's weights at the three levels ICU compares: the base character, its accents,
/// its case.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Element {
    primary: u32,
    accents: Vec<char>,
    upper: bool,
}

/// The primary weights of the ASCII characters, 0 for the ones ICU ignores (controls).
const ASCII: [u32; 128] = ascii_weights();

const fn ascii_weights() -> [u32; 128] {
    let mut t = [0u32; 128];
    let space = SPACE.as_bytes();
    let mut i = 0;
    // The ASCII white space comes first in `SPACE`, the space last.
    while i < 5 {
        t[space[i] as usize] = 1 + i as u32;
        i += 1;
    }
    t[b' ' as usize] = 9;
    let punct = PUNCTUATION.as_bytes();
    let mut i = 0;
    while i < punct.len() {
        t[punct[i] as usize] = 0x20 + i as u32;
        i += 1;
    }
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        if b.is_ascii_digit() {
            t[c] = 0x20_0000 + (b - b'0') as u32;
        } else if b.is_ascii_alphabetic() {
            t[c] = 0x30_0000 + b.to_ascii_lowercase() as u32;
        }
        c += 1;
    }
    t
}

/// The primary weight of a base character: white space, then ASCII punctuation and symbols,
/// then every other non-alphanumeric character, then digits, then letters without regard to
/// case (Latin by its letter, other scripts after it by code point).
fn primary(c: char) -> u32 {
    if c.is_ascii() {
        return ASCII[c as usize];
    }
    if let Some(i) = SPACE.chars().position(|s| s == c) {
        return 1 + i as u32;
    }
    if c.is_alphanumeric() {
        let lower = c.to_lowercase().next().unwrap_or(c);
        return 0x30_0000 + u32::from(lower);
    }
    0x100 + u32::from(c)
}

/// The collation elements of `s`: its canonical decomposition, each base character carrying
/// the combining marks after it. Controls weigh nothing, as in ICU.
fn elements(s: &str) -> Vec<Element> {
    let mut out: Vec<Element> = Vec::with_capacity(s.len());
    if s.is_ascii() {
        // Nothing to decompose and no accents.
        out.extend(
            s.bytes()
                .filter(|&b| ASCII[b as usize] != 0)
                .map(|b| Element {
                    primary: ASCII[b as usize],
                    accents: Vec::new(),
                    upper: b.is_ascii_uppercase(),
                }),
        );
        return out;
    }
    for c in s.nfd() {
        if is_combining_mark(c) {
            match out.last_mut() {
                Some(e) => e.accents.push(c),
                None => out.push(Element {
                    primary: 0,
                    accents: vec![c],
                    upper: false,
                }),
            }
            continue;
        }
        if c.is_control() && !SPACE.contains(c) {
            continue;
        }
        out.push(Element {
            primary: primary(c),
            accents: Vec::new(),
            upper: c.is_uppercase(),
        });
    }
    out
}

/// What `localeCompare` compares of a text, level by level: base characters, then accents, then
/// case. Keys order as their texts do (see [`locale_cmp`]); sorting by a cached key spares
/// decomposing each text again at every comparison.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct LocaleKey {
    primary: Vec<u32>,
    accents: Vec<Vec<char>>,
    upper: Vec<bool>,
}

/// The collation key of `s` (see [`LocaleKey`]).
pub fn locale_key(s: &str) -> LocaleKey {
    let e = elements(s);
    LocaleKey {
        primary: e.iter().map(|x| x.primary).collect(),
        accents: e.iter().map(|x| x.accents.clone()).collect(),
        upper: e.iter().map(|x| x.upper).collect(),
    }
}

/// `a.localeCompare(b)` as V8 gives it with ICU's root collation, for the text skill names and
/// file names are made of: base characters first (white space, punctuation, symbols, digits,
/// letters without regard to case or accents), then accents, then case (lower before upper).
/// Two texts that differ only in what ICU ignores compare equal.
pub fn locale_cmp(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    locale_key(a).cmp(&locale_key(b))
}

/// JavaScript's `String.prototype.trim`: white space and line terminators as ECMAScript defines
/// them (U+FEFF included, U+0085 not).
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(|c| {
        matches!(
            c,
            '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}'
                    | '\u{2028}'
                    | '\u{2029}'
                    | '\u{202f}'
                    | '\u{205f}'
                    | '\u{3000}'
                    | '\u{feff}'
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(words: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = words.iter().map(ToString::to_string).collect();
        v.sort_by(|a, b| locale_cmp(a, b));
        v
    }

    #[test]
    fn letters_ignore_case_and_accents_before_they_count() {
        assert_eq!(
            sorted(&[
                "very-long",
                "UpperCase-Skill",
                "switch-user",
                "Apple",
                "apple",
                "äpple"
            ]),
            [
                "apple",
                "Apple",
                "äpple",
                "switch-user",
                "UpperCase-Skill",
                "very-long"
            ]
        );
        // A prefix sorts first; punctuation before digits before letters.
        assert_eq!(
            sorted(&[
                "codex-disabled-by-path",
                "codex-disabled",
                "a1",
                "a_",
                "aa",
                "a-"
            ]),
            [
                "a_",
                "a-",
                "a1",
                "aa",
                "codex-disabled",
                "codex-disabled-by-path"
            ]
        );
        assert_eq!(
            sorted(&["scripts", "SKILL.md", "assets", "references"]),
            ["assets", "references", "scripts", "SKILL.md"]
        );
        assert_eq!(locale_cmp("a", "a"), Ordering::Equal);
        assert_eq!(locale_cmp("b", "A"), Ordering::Greater);
    }

    #[test]
    fn trim_is_javascripts() {
        assert_eq!(js_trim("\u{feff} a b \n\u{3000}"), "a b");
        assert_eq!(js_trim("\u{85}a\u{85}"), "\u{85}a\u{85}");
    }
}
