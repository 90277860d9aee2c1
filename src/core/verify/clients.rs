//! The clients `verify` can run: their commands and packages, the API each speaks, how their
//! listing is cut out of their request, and their installed version.

pub use crate::core::files::on_path::{find_command, install_dirs};
use crate::core::source::Agent;
use serde::Serialize;
use std::ffi::OsStr;
use std::path::PathBuf;

/// The version in what `--version` printed: its first word that starts with a digit and holds
/// a dot (`2.1.332 (Claude Code)`, `codex-cli 0.171.0`), up to the first character a version
/// does not hold (letters, digits, `.`, `-`, `+`), so nothing else the client printed (a
/// terminal's escape sequence) comes with it.
pub fn version_in(output: &str) -> Option<String> {
    output
        .split_whitespace()
        .map(|w| w.trim_start_matches('v'))
        .map(|w| {
            let end = w
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+')))
                .unwrap_or(w.len());
            // A sentence's full stop after it is not part of it (`GitHub Copilot CLI 1.0.102.`).
            w[..end].trim_end_matches('.')
        })
        .find(|w| w.starts_with(|c: char| c.is_ascii_digit()) && w.contains('.'))
        .map(str::to_string)
}

pub use crate::core::agents::run_recipe::Wire;

/// A client `verify` can run, how its listing is cut out of its request, and how it runs: its
/// home's record ([`Home::verify`](crate::core::agents::home::Home::verify)).
pub type Client = crate::core::agents::run_recipe::RunRecipe;

/// The client of `agent`, when `verify` knows how to run it.
pub fn client(agent: Agent) -> Option<&'static Client> {
    agent.home().verify
}

/// The agents `verify` can run, in the order of their records' ranks.
pub fn agents() -> impl Iterator<Item = Agent> {
    let mut clients: Vec<&'static Client> =
        Agent::ALL.iter().filter_map(|a| a.home().verify).collect();
    clients.sort_by_key(|c| c.rank);
    clients.into_iter().map(|c| c.agent)
}

impl Client {
    /// The version skillscope's model of this client was captured from: the release era the
    /// installed client falls in (`core::agents::eras`), else the one release modelled.
    pub fn modelled(&self) -> Option<&'static str> {
        crate::core::agents::model::model(self.agent)
            .client_in_use()
            .map(|c| c.version)
    }

    /// The command on `path` (a `PATH` value), as found there (links not resolved), else in the
    /// folders its installers put commands in ([`install_dirs`]).
    pub fn find(&self, path: &OsStr) -> Option<PathBuf> {
        let extra = install_dirs(dirs::home_dir().as_deref());
        find_command(self.command, path, &extra)
    }

    /// The installed version as its files say, read without running anything
    /// (`core::agents::installed`): the command on `path`, its links resolved, inside its npm
    /// package, a native installer's versions folder or a Homebrew keg.
    pub fn installed(&self, path: &OsStr) -> Option<Installed> {
        let i =
            crate::core::agents::installed::find(self.agent, path, dirs::home_dir().as_deref())?;
        Some(Installed {
            command: i.command,
            version: i.version,
        })
    }

    /// "modelled on Claude Code 2.1.332; installed 2.1.400" when the versions differ.
    pub fn version_note(&self, installed: &str) -> Option<String> {
        let modelled = self.modelled()?;
        (modelled != installed).then(|| {
            format!(
                "modelled on {} {modelled}; installed {installed}",
                self.name
            )
        })
    }
}

/// An installed client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Installed {
    /// The command found on `PATH`.
    pub command: PathBuf,
    /// Its package's version.
    pub version: String,
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    fn executable(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_client_is_found_where_its_installers_put_it_after_path() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let extra = install_dirs(Some(&home));
        let empty = OsStr::new("");
        assert_eq!(find_command("claude", empty, &extra), None);

        // Claude Code's older native installer.
        let old = home.join(".claude/local/claude");
        executable(&old);
        assert_eq!(find_command("claude", empty, &extra), Some(old.clone()));
        // The native installer's link in ~/.local/bin comes first.
        let native = home.join(".local/bin/claude");
        executable(&native);
        assert_eq!(find_command("claude", empty, &extra), Some(native.clone()));
        // PATH before all of them.
        let bin = t.path().join("bin");
        executable(&bin.join("claude"));
        let path = std::env::join_paths([&bin]).unwrap();
        assert_eq!(
            find_command("claude", &path, &extra),
            Some(bin.join("claude"))
        );
        // A file without a run bit, a folder, a relative PATH entry: not a command.
        let plain = t.path().join("plain");
        std::fs::create_dir_all(plain.join("claude")).unwrap();
        std::fs::write(plain.join("codex"), "").unwrap();
        let path = std::env::join_paths([plain.as_path(), Path::new("rel")]).unwrap();
        assert_eq!(find_command("codex", &path, &[]), None);
        assert_eq!(find_command("claude", &path, &[]), None);
        assert!(extra.contains(&PathBuf::from("/opt/homebrew/bin")));
        assert!(extra.contains(&PathBuf::from("/usr/local/bin")));
    }
}
