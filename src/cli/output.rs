//! How the subcommands print: warnings on stderr, JSON with nothing raw, columns that fit a
//! terminal, colour only where wanted, and notes on how the library was read.

use crate::core::Library;
use crate::core::load;
use std::io::IsTerminal;

/// `12.3 % of the 200,000-token context window`, with a warning past the whole window.
pub fn window_share(tokens: usize, window: usize) -> String {
    let pct = if window == 0 {
        0.0
    } else {
        tokens as f64 * 100.0 / window as f64
    };
    let over = if tokens > window {
        ": MORE THAN THE WHOLE WINDOW"
    } else {
        ""
    };
    format!(
        "{pct:.1} % of the {}-token context window{over}",
        crate::core::text::thousands(window as u64)
    )
}

/// `tokens` as a share of `window`, in percent with one decimal (for JSON).
pub fn window_percent(tokens: usize, window: usize) -> f64 {
    if window == 0 {
        return 0.0;
    }
    (tokens as f64 * 1000.0 / window as f64).round() / 10.0
}

/// Says on stderr that the demo library is in use, so no figure is mistaken for the user's own,
/// and what else is worth knowing about how the library was read (an index file not used).
pub fn note_demo(lib: &Library) {
    for note in &lib.notes {
        warn(note);
    }
    if let Some(p) = load::demo_problem() {
        warn(p);
    }
    if lib.demo {
        let dir = lib.roots.first().map(|r| r.path.display().to_string());
        warn(format_args!(
            "no skills installed; showing the bundled demo library ({})",
            dir.unwrap_or_default()
        ));
    }
}

/// A line on stderr, `skillscope: …`, with every hazard of the message escaped: messages quote
/// names, paths and file contents.
pub fn warn(msg: impl std::fmt::Display) {
    eprintln!("skillscope: {}", crate::core::text::line(&msg.to_string()));
}

/// Says on stderr what could not be read (a missing root, a root that is a file, a folder the walk
/// could not enter, a skill file that is not a regular file or cannot be opened). Returns the
/// exit code `check` would give for it: 1 when any of it is an error, else 0.
pub fn note_unread(lib: &Library) -> i32 {
    let mut code = 0;
    for (path, d) in lib.unread() {
        let shown = path.display().to_string();
        if d.message.contains(&shown) {
            warn(format_args!("{}: {}", d.severity, d.message));
        } else {
            warn(format_args!("{}: {shown}: {}", d.severity, d.message));
        }
        if d.severity == crate::core::Severity::Error {
            code = 1;
        }
    }
    code
}

/// Keeps what a command built alive until the process exits, which is about to happen: freeing a
/// library of thousands of skills piece by piece costs milliseconds and returns nothing useful.
pub fn keep_until_exit<T>(what: T) {
    std::mem::forget(what);
}

/// Standard output for a report: locked, and buffered 64 KiB at a time (a report of thousands of
/// findings is megabytes; the default buffer would make a write call every 8 KiB).
pub fn report_out() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock())
}

/// Pretty JSON in which the characters a terminal acts on (DEL, C1 controls, bidi controls; serde
/// already escapes C0) are written as `\uXXXX` escapes: the same JSON value, nothing raw.
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(
    out: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, SafeFormatter::default());
    value.serialize(&mut ser)
}

/// [`write_json`] into a string.
pub fn json_string<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut buf = Vec::new();
    write_json(&mut buf, value)?;
    // The serializer writes only what it was given and ASCII escapes: valid UTF-8.
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// serde_json's pretty layout, with hazards escaped inside strings.
#[derive(Default)]
struct SafeFormatter(serde_json::ser::PrettyFormatter<'static>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            serde_json::ser::Formatter::$name(&mut self.0, w $(, $arg)*)
        }
    )*};
}

impl serde_json::ser::Formatter for SafeFormatter {
    delegate! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        begin_object_value();
        end_object_value();
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Printable ASCII holds no hazard: most text is written whole.
        if fragment.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return w.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if crate::core::escape::is_hazard(c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                write!(w, "\\u{:04x}", u32::from(c))?;
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// A column of names in a text report. On a terminal a long name is cut to the column with `…`
/// so the table keeps its shape; into a pipe or a file every character is kept and the column
/// is as wide as its longest entry, so the columns still line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    pub width: usize,
    cut: bool,
}

impl Column {
    /// A column for entries up to `widest` characters: at most `max` wide on a terminal
    /// (`terminal`), else `widest` (and never narrower than `min`).
    pub fn new(widest: usize, min: usize, max: usize, terminal: bool) -> Column {
        if terminal {
            Column {
                width: widest.clamp(min, max.max(min)),
                cut: true,
            }
        } else {
            Column {
                width: widest.max(min),
                cut: false,
            }
        }
    }

    /// The text as one escaped line, cut at its end on a terminal.
    pub fn fit(&self, s: &str) -> String {
        if self.cut {
            crate::core::text::fit(s, self.width)
        } else {
            crate::core::text::line(s).into_owned()
        }
    }

    /// The text as one escaped line, cut at its start on a terminal (a path's end says most).
    pub fn fit_left(&self, s: &str) -> String {
        if self.cut {
            crate::core::text::fit_left(s, self.width)
        } else {
            crate::core::text::line(s).into_owned()
        }
    }

    /// `s` (already fitted) padded to the column.
    pub fn pad(&self, s: &str) -> String {
        let n = s.chars().count();
        format!("{s}{}", " ".repeat(self.width.saturating_sub(n)))
    }
}

/// The width of `s` as a column shows it (escaped, in characters).
pub fn shown_width(s: &str) -> usize {
    crate::core::text::line(s).chars().count()
}

/// Whether standard output is a terminal.
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Whether to colour standard output: `--color`, else only on a terminal and never when
/// `NO_COLOR` is set.
pub fn use_color() -> bool {
    crate::color::enabled(std::io::stdout().is_terminal())
}
