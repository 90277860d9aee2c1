//! What the app hands to the world outside it: a file to the user's editor (the app steps aside
//! while it runs) and text to the terminal's clipboard (OSC 52, which also works over SSH).

use base64::Engine as _;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

/// A file to open in the editor, at a line when one is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRequest {
    pub file: PathBuf,
    pub line: Option<u32>,
}

/// The most text sent to the clipboard at once: terminals drop (or choke on) longer OSC 52
/// sequences; xterm's and kitty's limits are about this size.
pub const MAX_COPY: usize = 1 << 20;

/// The user's editor, as git finds it: `$VISUAL`, else `$EDITOR`, else `vi`. The value may hold
/// arguments (`code -w`), so it is run through `sh`.
pub fn editor() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(std::env::var_os)
        .map(|v| v.to_string_lossy().trim().to_string())
        .find(|v| !v.is_empty())
        .unwrap_or_else(|| "vi".to_string())
}

/// How an editor is told the line, by the name of its program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStyle {
    /// `+LINE FILE`: vi, vim, nvim, nano, emacs, micro, kakoune, joe, ne, mg, mcedit.
    Plus,
    /// `FILE:LINE`: helix, Sublime Text, Zed.
    Colon,
    /// `-g FILE:LINE`: VS Code and its forks.
    Goto,
    /// Only the file: an editor whose way of taking a line is not known.
    None,
}

/// The line style of an editor command (`/usr/bin/nvim`, `emacsclient -t`, `code -w`): by its
/// program's file name.
pub fn line_style(editor: &str) -> LineStyle {
    let program = editor.split_whitespace().next().unwrap_or_default();
    let name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    match name {
        "vi" | "vim" | "nvim" | "gvim" | "mvim" | "view" | "vis" | "nano" | "rnano" | "pico"
        | "emacs" | "emacsclient" | "micro" | "kak" | "joe" | "jmacs" | "ne" | "mg" | "mcedit" => {
            LineStyle::Plus
        }
        "hx" | "helix" | "subl" | "sublime_text" | "zed" | "zeditor" => LineStyle::Colon,
        "code" | "code-insiders" | "codium" | "vscodium" | "cursor" | "windsurf" => LineStyle::Goto,
        _ => LineStyle::None,
    }
}

/// The arguments after the editor command for `req`.
pub fn editor_args(editor: &str, req: &EditRequest) -> Vec<OsString> {
    let file = req.file.as_os_str().to_owned();
    let Some(line) = req.line.filter(|l| *l > 0) else {
        return vec![file];
    };
    let with_colon = || {
        let mut f = file.clone();
        f.push(format!(":{line}"));
        f
    };
    match line_style(editor) {
        LineStyle::Plus => vec![format!("+{line}").into(), file],
        LineStyle::Colon => vec![with_colon()],
        LineStyle::Goto => vec!["-g".into(), with_colon()],
        LineStyle::None => vec![file],
    }
}

/// The command that opens `req` in `editor`: `sh -c '<editor> "$@"'` with the file as an
/// argument, so the editor's own arguments are split as a shell splits them and the file name
/// never is.
pub fn editor_command(editor: &str, req: &EditRequest) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("{editor} \"$@\""))
        .arg(editor)
        .args(editor_args(editor, req));
    cmd
}

/// Runs the editor on the terminal and waits for it.
pub fn run_editor(editor: &str, req: &EditRequest) -> std::io::Result<ExitStatus> {
    editor_command(editor, req).status()
}

/// The OSC 52 sequence that puts `text` on the clipboard.
pub fn osc52(text: &str) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    format!("\x1b]52;c;{b64}\x07")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(editor: &str, line: Option<u32>) -> Vec<String> {
        let req = EditRequest {
            file: PathBuf::from("/s/my skill/SKILL.md"),
            line,
        };
        editor_args(editor, &req)
            .into_iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn each_editor_is_told_the_line_its_own_way() {
        let f = "/s/my skill/SKILL.md";
        for e in [
            "vi",
            "/usr/bin/nvim",
            "vim",
            "nano",
            "emacsclient -t",
            "micro",
        ] {
            assert_eq!(args(e, Some(7)), ["+7", f], "{e}");
        }
        for e in ["hx", "/opt/helix/hx", "subl -w", "zed --wait"] {
            assert_eq!(args(e, Some(7)), [format!("{f}:7")], "{e}");
        }
        assert_eq!(args("code -w", Some(7)), ["-g", &format!("{f}:7")]);
        assert_eq!(args("ed", Some(7)), [f]);
        assert_eq!(args("vim", None), [f]);
        assert_eq!(args("vim", Some(0)), [f]);
    }

    #[test]
    fn the_editor_value_is_split_by_the_shell_and_the_file_is_not() {
        let req = EditRequest {
            file: PathBuf::from("/tmp/a b;touch x/SKILL.md"),
            line: Some(3),
        };
        let cmd = editor_command("vim -u NONE", &req);
        let argv: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(cmd.get_program(), "sh");
        assert_eq!(
            argv,
            [
                "-c",
                "vim -u NONE \"$@\"",
                "vim -u NONE",
                "+3",
                "/tmp/a b;touch x/SKILL.md"
            ]
        );
    }

    #[test]
    fn osc52_carries_the_text_in_base64() {
        assert_eq!(osc52("pdf-tools"), "\x1b]52;c;cGRmLXRvb2xz\x07");
        assert_eq!(osc52(""), "\x1b]52;c;\x07");
    }
}
