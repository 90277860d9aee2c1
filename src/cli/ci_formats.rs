//! What CI systems read: GitHub workflow commands (`::error file=…::…`), file URIs for SARIF,
//! and markdown for a pull-request comment that keeps its code spans.

use crate::core::words::escape;
use std::path::{Path, PathBuf};

/// Where the rules are documented: one anchor per rule id in `docs/rules.md`.
pub const RULES_DOC_URL: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/rules.md");

/// The documentation of one rule, for SARIF's `helpUri`.
pub fn rule_help_uri(rule: crate::core::findings::diagnostic::RuleId) -> String {
    format!("{RULES_DOC_URL}#{}", rule.as_str())
}

/// A workflow command's data (the message after `::`): `%`, CR and LF percent-encoded, as
/// GitHub's toolkit does (a line break stays one inside the annotation, never starts another
/// command), every other hazard made visible by the escaper.
pub fn workflow_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            c if escape::is_hazard(c) || c.is_control() => {
                out.push_str(&escape::line(c.encode_utf8(&mut [0; 4])));
            }
            c => out.push(c),
        }
    }
    out
}

/// A workflow command's property value (`file=…`, `title=…`): data escaping plus `:` and `,`,
/// which separate properties.
pub fn workflow_property(s: &str) -> String {
    workflow_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A path as the current folder sees it: relative when it is below it (GitHub places an
/// annotation by the path from the repository's root, where a job runs), else as it is.
pub fn relative_to_cwd(path: &Path) -> PathBuf {
    let abs = crate::core::files::paths::absolute(path);
    match std::env::current_dir() {
        Ok(cwd) => match abs.strip_prefix(&cwd) {
            Ok(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
            _ => abs,
        },
        Err(_) => abs,
    }
}

/// Percent-encodes a path for a URI: every byte but the unreserved characters and `/`. On Unix
/// the bytes are the path's own; on Windows its UTF-8 (what URIs use), with `\` written `/`
/// and an absolute path's drive kept as URIs write it (`/C:/…`).
pub fn uri_path(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes()
    };
    #[cfg(not(unix))]
    let text = {
        let t = path.to_string_lossy().replace('\\', "/");
        if path.is_absolute() {
            format!("/{t}")
        } else {
            t
        }
    };
    #[cfg(not(unix))]
    let bytes = text.as_bytes();
    let mut out = String::new();
    for (i, &b) in bytes.iter().enumerate() {
        let drive = cfg!(windows) && i == 2 && b == b':' && path.is_absolute();
        if drive || b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The base id of the files below the current folder in a SARIF log.
pub const SRCROOT: &str = "%SRCROOT%";

/// A SARIF `artifactLocation`: relative to [`SRCROOT`] (the current folder) when the file is
/// below it, else an absolute `file:` URI.
pub fn artifact_location(path: &Path) -> serde_json::Value {
    let rel = relative_to_cwd(path);
    if rel.is_relative() {
        serde_json::json!({"uri": uri_path(&rel), "uriBaseId": SRCROOT})
    } else {
        serde_json::json!({"uri": format!("file://{}", uri_path(&rel))})
    }
}

/// SARIF's `originalUriBaseIds`: where [`SRCROOT`] is, as a folder URI (ending in `/`).
pub fn original_uri_base_ids() -> serde_json::Value {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let mut uri = format!("file://{}", uri_path(&cwd));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    serde_json::json!({ SRCROOT: {"uri": uri} })
}

/// Text for a markdown table cell that keeps the code spans skillscope's messages are written
/// with (`` `name` `` renders as code on GitHub) and keeps everything else inert: outside a span
/// markdown's punctuation is backslash-escaped (no link, emphasis or HTML from a skill's text);
/// inside one nothing is markup, so only the cell's `|` is escaped. A backtick with no partner
/// is escaped. Hazards are escaped as everywhere ([`escape::line`]).
pub fn md_text(s: &str) -> String {
    let s = escape::line(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let run = chars[i..].iter().take_while(|c| **c == '`').count();
            // The closing run: the same number of backticks, not part of a longer run.
            let close = (i + run..chars.len()).find(|&j| {
                chars[j..].iter().take_while(|c| **c == '`').count() == run
                    && (j == 0 || chars[j - 1] != '`')
            });
            if let Some(j) = close {
                for c in &chars[i..j + run] {
                    match c {
                        '|' => out.push_str("\\|"),
                        c => out.push(*c),
                    }
                }
                i = j + run;
                continue;
            }
            for _ in 0..run {
                out.push_str("\\`");
            }
            i += run;
            continue;
        }
        push_inert(&mut out, chars[i]);
        i += 1;
    }
    out
}

/// One character outside a code span, as plain text.
fn push_inert(out: &mut String, c: char) {
    match c {
        '|' | '\\' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '~' | '!' | '&' => {
            out.push('\\');
            out.push(c);
        }
        c => out.push(c),
    }
}

/// Skill names and paths come from the library: in a markdown table they must not break the
/// table or become markup, and their hazards are escaped as everywhere ([`escape::line`]).
pub fn md_cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c if escape::is_hazard(c) => out.push_str(&escape::line(c.encode_utf8(&mut [0; 4]))),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_as_githubs_toolkit_does() {
        assert_eq!(workflow_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(
            workflow_property("a:b,c%\n"),
            "a%3Ab%2Cc%25%0A",
            "properties also escape their separators"
        );
        // A control character is shown, never sent: no second line, no terminal sequence.
        let d = workflow_data("x\n::error::forged\x1b[2J");
        assert!(!d.contains('\n') && !d.contains('\x1b'), "{d}");
    }

    #[test]
    fn uris_encode_what_a_path_may_hold() {
        assert_eq!(uri_path(Path::new("a b/ü#1.md")), "a%20b/%C3%BC%231.md");
        assert_eq!(uri_path(Path::new("skills/x-y_z~.md")), "skills/x-y_z~.md");
    }

    #[test]
    fn markdown_keeps_code_spans_and_nothing_else_is_markup() {
        assert_eq!(
            md_text("the name `image-resizer` differs"),
            "the name `image-resizer` differs"
        );
        assert_eq!(md_text("a `x|y` b|c"), "a `x\\|y` b\\|c");
        assert_eq!(
            md_text("<script>alert(1)</script> [x](y) *b*"),
            "\\<script\\>alert(1)\\</script\\> \\[x\\](y) \\*b\\*"
        );
        // Inside a span HTML is text already: left as it is.
        assert_eq!(md_text("`<b>`"), "`<b>`");
        assert_eq!(md_text("an odd ` tick"), "an odd \\` tick");
        assert_eq!(md_text("``a`b`` c"), "``a`b`` c");
        assert_eq!(
            md_text("x\x1b[31m`\u{202e}`"),
            "x\\\\u{1b}\\[31m`\\u{202e}`"
        );
    }
}
