//! What Claude Code (2.1.300 on) makes of a skill's description and `when_to_use` before it
//! lists them, and which skill names it offers at all (captured in
//! `tests/fixtures/agents/claude-code@2.1.332/controls/`, the `controls` library):
//!
//! - the description's ends are trimmed as JavaScript trims (`when_to_use` is not);
//! - terminal escape sequences are removed the way its runtime's `Bun.stripANSI` removes them
//!   ([`strip_ansi`]): a sequence that never ends takes the rest of the text with it;
//! - each run of hidden characters ([`hidden`]: control characters, line breaks and tabs
//!   included, format characters such as bidi controls and zero-width characters, private-use
//!   characters, the line and paragraph separators, default-ignorable characters) becomes one
//!   space; a zero-width joiner, non-joiner or variation selector that spells an emoji sequence
//!   or a joined letter of an Indic or Arabic script is kept ([`kept_joiners`]);
//! - a skill whose name holds a hidden character, a blank other than the space, `<` or `>` is
//!   not offered ([`offers_name`]).
//!
//! What comes out is what the client sends: nothing here escapes for a terminal.

/// The description as Claude Code lists it (before `<` and `>` are written as entities).
pub(super) fn description(raw: &str) -> String {
    one_line(&strip_ansi(crate::core::words::collate::js_trim(raw)))
}

/// `when_to_use` as Claude Code lists it: as a description, its ends as written.
pub(super) fn when_to_use(raw: &str) -> String {
    one_line(&strip_ansi(raw))
}

/// Whether Claude Code offers a skill called `name`: no hidden character, no blank but the
/// space, no `<` or `>`, at most 256 UTF-16 units.
pub fn offers_name(name: &str) -> bool {
    name.encode_utf16().count() <= 256
        && !name
            .chars()
            .any(|c| hidden(c) || matches!(c, '<' | '>') || (c != ' ' && c.is_whitespace()))
}

/// Characters Claude Code replaces (a run of them by one space): C0 and C1 controls and DEL,
/// format characters (Cf), surrogates, private use (Co), noncharacters, U+2028 and U+2029, its
/// list of default-ignorable ranges, and U+2800 (the blank Braille pattern).
pub(super) fn hidden(c: char) -> bool {
    // Printable ASCII, nearly every character of a description, is never hidden.
    !(' '..='~').contains(&c) && listed_hidden(c)
}

/// [`hidden`]'s classes, character by character.
fn listed_hidden(c: char) -> bool {
    let u = u32::from(c);
    matches!(c, '\0'..='\x1f' | '\x7f'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{2800}')
        || format_char(u)
        || ignorable(u)
        || matches!(u, 0xe000..=0xf8ff | 0xf_0000..=0xf_fffd | 0x10_0000..=0x10_fffd)
        || matches!(u, 0xfdd0..=0xfdef)
        || u & 0xfffe == 0xfffe
}

/// Unicode's format characters (general category Cf).
fn format_char(u: u32) -> bool {
    matches!(
        u,
        0xad | 0x600..=0x605
            | 0x61c
            | 0x6dd
            | 0x70f
            | 0x890..=0x891
            | 0x8e2
            | 0x180e
            | 0x200b..=0x200f
            | 0x202a..=0x202e
            | 0x2060..=0x2064
            | 0x2066..=0x206f
            | 0xfeff
            | 0xfff9..=0xfffb
            | 0x110bd
            | 0x110cd
            | 0x13430..=0x1343f
            | 0x1bca0..=0x1bca3
            | 0x1d173..=0x1d17a
            | 0xe0001
            | 0xe0020..=0xe007f
    )
}

/// Claude Code's own list of default-ignorable ranges (beside the format characters).
fn ignorable(u: u32) -> bool {
    matches!(
        u,
        0x34f
            | 0x115f..=0x1160
            | 0x17b4..=0x17b5
            | 0x180b..=0x180f
            | 0x3164
            | 0xfe00..=0xfe0f
            | 0xffa0
            | 0xfff0..=0xfffb
            | 0x1107f
            | 0x16fe4
            | 0xe0000..=0xe0fff
    )
}

/// Each run of [`hidden`] characters as one space, the joiners [`kept_joiners`] names kept in
/// place (a run goes on after one, and gets at most one space before it).
fn one_line(s: &str) -> String {
    // Without a hidden character (most descriptions) there is nothing to replace or keep.
    let clean = if s.is_ascii() {
        !any_byte(s, |b| b < b' ' || b == 0x7f)
    } else {
        !s.chars().any(hidden)
    };
    if clean {
        return s.to_owned();
    }
    runs_as_spaces(s)
}

/// Whether some byte of `s` is one `pred` picks: a block of bytes at a time, each block whole,
/// so the compiler tests many bytes at once.
fn any_byte(s: &str, pred: impl Fn(u8) -> bool) -> bool {
    s.as_bytes()
        .chunks(64)
        .any(|block| block.iter().fold(false, |found, &b| found | pred(b)))
}

/// [`one_line`] character by character.
fn runs_as_spaces(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let keep = kept_joiners(&chars);
    let mut out = String::with_capacity(s.len());
    let mut run_spaced = false;
    for (i, &c) in chars.iter().enumerate() {
        if !hidden(c) {
            out.push(c);
            run_spaced = false;
        } else if keep.get(i).copied().unwrap_or(false) {
            out.push(c);
        } else if !run_spaced || !out.ends_with(' ') {
            out.push(' ');
            run_spaced = true;
        }
    }
    out
}

/// Emoji as the emoji tables draw them, approximately: the pictographic blocks and the symbols
/// that take a variation selector.
fn emoji(c: char) -> bool {
    matches!(
        u32::from(c),
        0xa9 | 0xae
            | 0x203c
            | 0x2049
            | 0x2122
            | 0x2139
            | 0x2194..=0x21aa
            | 0x231a..=0x231b
            | 0x2328
            | 0x23cf..=0x23fa
            | 0x24c2
            | 0x25aa..=0x25fe
            | 0x2600..=0x27bf
            | 0x2934..=0x2935
            | 0x2b05..=0x2b55
            | 0x3030
            | 0x303d
            | 0x3297
            | 0x3299
            | 0x1_f000..=0x1_faff
    )
}

/// Letters of the scripts whose spelling needs a joiner (Devanagari to Malayalam, Sinhala,
/// Arabic).
fn joining_script(c: char) -> bool {
    matches!(u32::from(c), 0x600..=0x6ff | 0x750..=0x77f | 0x8a0..=0x8ff | 0x900..=0xdff)
}

/// Which hidden characters are kept as part of what they spell: a zero-width joiner between two
/// emoji (a skin tone or variation selector may come between), a variation selector or keycap
/// after an emoji or keycap base, the tags of a flag after U+1F3F4, and a joiner or non-joiner
/// between two letters of a joining script.
fn kept_joiners(chars: &[char]) -> Vec<bool> {
    let mut keep = vec![false; chars.len()];
    if !chars
        .iter()
        .any(|&c| matches!(c, '\u{200c}' | '\u{200d}' | '\u{fe0f}' | '\u{e007f}'))
    {
        return keep;
    }
    let modifier = |c: char| matches!(u32::from(c), 0x1_f3fb..=0x1_f3ff | 0xfe0f | 0x20e3);
    // The emoji a position follows, past modifiers.
    let after_emoji = |i: usize| {
        chars[..i]
            .iter()
            .rev()
            .find(|&&c| !modifier(c))
            .is_some_and(|&c| emoji(c))
    };
    let mut in_flag = false;
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        keep[i] = match c {
            '\u{fe0f}' => {
                prev.is_some_and(|p| emoji(p) || p.is_ascii_digit() || matches!(p, '#' | '*'))
            }
            '\u{200d}' => {
                (after_emoji(i) && next.is_some_and(emoji))
                    || (prev.is_some_and(joining_script) && next.is_some_and(joining_script))
            }
            '\u{200c}' => prev.is_some_and(joining_script) && next.is_some_and(joining_script),
            '\u{e0020}'..='\u{e007f}' => {
                in_flag = in_flag || prev == Some('\u{1f3f4}');
                let kept = in_flag;
                if c == '\u{e007f}' {
                    in_flag = false;
                }
                kept
            }
            _ => false,
        };
    }
    keep
}

/// Where the stripper is in an escape sequence.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Ground,
    /// After ESC.
    Escape,
    /// After ESC and an intermediate byte: the next character ends it.
    Intermediate,
    /// In a control sequence (CSI), until its final byte.
    Csi,
    /// In a string (OSC, DCS, SOS, PM, APC), until ST; an OSC ends at BEL too.
    Str {
        bel_ends: bool,
    },
}

/// The text with its terminal escape sequences removed, as Bun's `stripANSI` removes them
/// (read from its behaviour, Bun 1.4): ESC or a C1 introducer starts a sequence; a CSI runs to
/// its final byte (`@` to `~`), swallowing what comes between; OSC, DCS, SOS, PM and APC run to
/// ST (ESC or U+009C; an OSC also to BEL); CAN and SUB cancel a sequence; ESC followed by a
/// character that starts none (another control, DEL, a non-ASCII character) is dropped and the
/// character kept; a sequence still open at the end takes the rest of the text.
pub(super) fn strip_ansi(s: &str) -> String {
    // ESC is the byte 0x1b and every C1 introducer starts with the byte 0xc2 in UTF-8: a text
    // with neither (most descriptions) has no sequence, found without decoding its characters.
    if !any_byte(s, |b| b == 0x1b || b == 0xc2)
        || !s.contains([
            '\x1b', '\u{90}', '\u{98}', '\u{9b}', '\u{9d}', '\u{9e}', '\u{9f}',
        ])
    {
        return s.to_string();
    }
    strip_sequences(s)
}

/// [`strip_ansi`] character by character.
fn strip_sequences(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut state = State::Ground;
    for c in s.chars() {
        state = match state {
            State::Ground => introducer(c).unwrap_or_else(|| {
                out.push(c);
                State::Ground
            }),
            State::Escape => match c {
                '[' => State::Csi,
                ']' => State::Str { bel_ends: true },
                'P' | 'X' | '^' | '_' => State::Str { bel_ends: false },
                ' '..='/' => State::Intermediate,
                '0'..='~' | '\x18' | '\x1a' | '\u{9c}' => State::Ground,
                c => introducer(c).unwrap_or_else(|| {
                    out.push(c);
                    State::Ground
                }),
            },
            State::Intermediate => {
                if c == '\x1b' {
                    State::Escape
                } else {
                    State::Ground
                }
            }
            State::Csi => match c {
                '@'..='~' | '\x18' | '\x1a' | '\u{9c}' => State::Ground,
                '\x1b' => State::Escape,
                _ => State::Csi,
            },
            State::Str { bel_ends } => match c {
                '\x07' if bel_ends => State::Ground,
                '\x18' | '\x1a' | '\u{9c}' => State::Ground,
                '\x1b' => State::Escape,
                _ => state,
            },
        };
    }
    out
}

/// The state a character starts a sequence in, outside one.
fn introducer(c: char) -> Option<State> {
    match c {
        '\x1b' => Some(State::Escape),
        '\u{9b}' => Some(State::Csi),
        '\u{9d}' => Some(State::Str { bel_ends: true }),
        '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => Some(State::Str { bel_ends: false }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn no_printable_ascii_character_is_hidden() {
        for c in ' '..='~' {
            assert!(!listed_hidden(c), "{c:?}");
        }
        for c in ['\0', '\t', '\n', '\x7f', '\u{85}', '\u{200b}', '\u{e000}'] {
            assert!(hidden(c), "{c:?}");
        }
    }

    #[test]
    fn every_sequence_introducer_starts_with_a_byte_the_quick_look_seeks() {
        for c in [
            '\x1b', '\u{90}', '\u{98}', '\u{9b}', '\u{9d}', '\u{9e}', '\u{9f}',
        ] {
            let mut buf = [0; 4];
            let first = c.encode_utf8(&mut buf).as_bytes()[0];
            assert!(first == 0x1b || first == 0xc2, "{c:?}");
        }
    }

    /// Text of printable ASCII, hidden characters, joiners, emoji and joining letters.
    fn mixed_text() -> impl Strategy<Value = String> {
        let c = prop_oneof![
            4 => proptest::char::range(' ', '~'),
            1 => proptest::sample::select(vec![
                '\0', '\t', '\n', '\x1b', '\x7f', '\u{85}', '\u{9b}', '\u{9c}', '\u{ad}',
                '\u{200b}', '\u{200c}', '\u{200d}', '\u{2028}', '\u{fe0f}', '\u{feff}', '\u{e000}',
                '\u{e0041}', '\u{e007f}', '\u{1f3f4}', '\u{1f600}', '\u{1f3fb}', '\u{627}',
                '\u{915}', '\u{e9}', '\u{4e2d}',
            ]),
        ];
        proptest::collection::vec(c, 0..40).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #[test]
        fn the_quick_paths_answer_as_the_character_walks(s in mixed_text()) {
            prop_assert_eq!(one_line(&s), runs_as_spaces(&s));
            prop_assert_eq!(strip_ansi(&s), strip_sequences(&s));
            for c in s.chars() {
                prop_assert_eq!(hidden(c), listed_hidden(c));
            }
        }
    }

    /// Each pair: what Bun 1.4's `Bun.stripANSI` was given and what it returned.
    #[test]
    fn escape_sequences_are_removed_as_bun_removes_them() {
        for (given, bun) in [
            ("a\u{9b} csi, \u{9d} osc, \u{9f} apc end.", "asi, "),
            ("x\x1b[31mred\x1b]0;t\x07y", "xredy"),
            ("q\x1bz rest", "q rest"),
            ("q\x1b", "q"),
            ("\u{80}\u{85}\x7f", "\u{80}\u{85}\x7f"),
            ("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),
            ("a\x1bPdcs\x1b\\b", "ab"),
            ("a\u{9c}b", "a\u{9c}b"),
            ("a\u{9f} b", "a"),
            ("a\x1b[1\nmb", "ab"),
            ("a\x1b[1\u{e9}b", "a"),
            ("a\x1b]0;x\nb\x07c", "ac"),
            ("a\x1bPx\x07b", "a"),
            ("a\x1b\x07b", "a\x07b"),
            ("a\x1b\u{80}b", "a\u{80}b"),
            ("a\x1b\u{9b}mb", "ab"),
            ("a\x1b!b", "a"),
            ("a\x1b 'b", "ab"),
            ("a\x1b \x1b[mb", "ab"),
            ("a\x1b \u{9b}mb", "amb"),
            ("a\x1b[1;2\x1bXb", "a"),
            ("a\x1b[1;2\x18b", "ab"),
            ("a\x1b[0;\u{9c}mb", "amb"),
            ("a\x1b]x\x1b[1mb", "ab"),
            ("a\x1b]x\u{9b}mb", "a"),
            ("a\x1b\u{9c}b", "ab"),
            ("a\x1b\x18b", "ab"),
            ("a\x1b[1\u{1f600}mb", "ab"),
            ("a\x1b\u{1f600}b", "a\u{1f600}b"),
            ("a\x1b]x\x1b\x07b", "a\x07b"),
        ] {
            assert_eq!(strip_ansi(given), bun, "{given:?}");
        }
    }

    #[test]
    fn runs_of_hidden_characters_become_one_space() {
        assert_eq!(
            description("  Bell\x07, back\x08space\x7f end.\n"),
            "Bell , back space  end."
        );
        assert_eq!(description("a\r\n\r\nb\t\tc"), "a b c");
        // JavaScript's trim takes U+FEFF off the end.
        assert_eq!(
            description("Bidi \u{202e} x\u{200b}y\u{feff}"),
            "Bidi   x y"
        );
        assert_eq!(description("Line\u{2028}para\u{2029}end"), "Line para end");
        // Spaces are not hidden: a run of them stays.
        assert_eq!(description("a \u{7} b"), "a   b");
        // What escapes leave.
        assert_eq!(
            description(
                "Colour \x1b[31mred\x1b[0m, title \x1b]0;pwned\x07, clear \x1b[2J\x1b[H done."
            ),
            "Colour red, title , clear  done."
        );
        assert_eq!(when_to_use(" x\n"), " x ");
    }

    #[test]
    fn joiners_that_spell_something_are_kept() {
        let family = "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}";
        assert_eq!(
            description(&format!("A {family} skill")),
            format!("A {family} skill")
        );
        assert_eq!(
            description("Warn \u{26a0}\u{fe0f} here"),
            "Warn \u{26a0}\u{fe0f} here"
        );
        assert_eq!(
            description("key 1\u{fe0f}\u{20e3}"),
            "key 1\u{fe0f}\u{20e3}"
        );
        // Between letters of a script that joins no letters, a joiner is hidden.
        assert_eq!(description("a\u{200d}b a\u{fe0f}"), "a b a ");
        assert_eq!(
            description("\u{915}\u{94d}\u{200d}\u{937}"),
            "\u{915}\u{94d}\u{200d}\u{937}"
        );
    }

    #[test]
    fn names_with_hidden_or_blank_like_characters_are_not_offered() {
        assert!(offers_name("deploy"));
        assert!(offers_name("d\u{e9}ploy"));
        for bad in [
            "ctl-dir-\x1b[7m",
            "ctl-dir-\u{202e}",
            "ctl-dir-\t",
            "a<b",
            "a\u{a0}b",
            "z\u{200b}",
        ] {
            assert!(!offers_name(bad), "{bad:?}");
        }
        assert!(!offers_name(&"a".repeat(257)));
    }
}
