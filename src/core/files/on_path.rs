//! Finding a client's command without running it: on `PATH`, else in the folders its
//! installers put commands in.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The folders clients' installers put commands in, looked in after `PATH`: Homebrew's
/// (`/opt/homebrew/bin`, `/usr/local/bin`), the native installers' (`~/.local/bin`, Claude
/// Code's older `~/.claude/local`), npm's usual global ones (`~/.npm-global/bin`; on Windows
/// `%APPDATA%\npm`).
pub fn install_dirs(home: Option<&Path>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    if cfg!(unix) {
        out.push(PathBuf::from("/opt/homebrew/bin"));
        out.push(PathBuf::from("/usr/local/bin"));
    }
    if let Some(home) = home {
        out.push(home.join(".local/bin"));
        out.push(home.join(".claude/local"));
        out.push(home.join(".npm-global/bin"));
    }
    if cfg!(windows)
        && let Some(appdata) = std::env::var_os("APPDATA")
    {
        out.push(PathBuf::from(appdata).join("npm"));
    }
    out
}

/// The file names a command has on this system: `claude`; on Windows also `claude.exe` and the
/// `claude.cmd` shim npm writes.
pub fn command_names(command: &str) -> Vec<String> {
    if cfg!(windows) {
        vec![
            format!("{command}.exe"),
            format!("{command}.cmd"),
            command.to_string(),
        ]
    } else {
        vec![command.to_string()]
    }
}

/// `command` in the first folder of `path` (a `PATH` value) that has it, else in the first of
/// `extra`; only absolute folders count.
pub fn find_command(command: &str, path: &OsStr, extra: &[PathBuf]) -> Option<PathBuf> {
    let names = command_names(command);
    std::env::split_paths(path)
        .chain(extra.iter().cloned())
        .filter(|d| d.is_absolute())
        .flat_map(|d| names.iter().map(move |n| d.join(n)).collect::<Vec<_>>())
        .find(|c| is_executable(c))
}

/// A file this user may run: a run bit on Unix, any file elsewhere (Windows runs by extension).
fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(p).is_ok_and(|m| m.is_file())
    }
}
