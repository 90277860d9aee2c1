//! Which release of an agent's client is installed on this machine, read from files without
//! running anything: the command first on `PATH` (its links resolved) inside an npm package
//! (`node_modules/PACKAGE/package.json`), a native installer's versions folder
//! (`~/.local/share/claude/versions/2.1.300`), a Homebrew keg (`Cellar/FORMULA/VERSION/` or
//! `Caskroom/CASK/VERSION/`); then, for Claude Code, its installs that need not be on `PATH`
//! (`~/.local/bin/claude`, the older local install in `~/.claude/local`). On Windows the
//! command is `claude.exe` or npm's `claude.cmd` shim (in `%APPDATA%\npm`, with the package in
//! the `node_modules` folder beside it).

use crate::core::source::Agent;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// How a client was installed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// An npm package (`npm install -g`, or a prefix of one's own).
    Npm,
    /// The client's own installer, keeping each release in a versions folder.
    Native,
    /// A Homebrew formula or cask.
    Homebrew,
}

impl Via {
    /// Its name for people.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Npm => "npm",
            Via::Native => "native installer",
            Via::Homebrew => "Homebrew",
        }
    }
}

/// An installed client release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// Its command as found (on `PATH`, or where its installer puts it).
    pub command: PathBuf,
    /// Its version, as its package or its installer's folder says.
    pub version: String,
    /// How it was installed.
    pub via: Via,
}

/// The installed release of `agent`'s client: the command first on `path` (a `PATH` value)
/// that tells its version, else its installs off `PATH` below `home` (its home's
/// [`Release`](super::home::Release): Claude Code's); `None` when none is
/// found or none tells its version.
pub fn find(agent: Agent, path: &OsStr, home: Option<&Path>) -> Option<Installed> {
    let c = agent.home().release?;
    let on_path = std::env::split_paths(path)
        .filter(|d| d.is_absolute())
        .flat_map(|d| command_files(&d, c.command, cfg!(windows)))
        .filter(|p| is_executable(p))
        .find_map(|p| version_of(&p, c.package));
    on_path.or_else(|| {
        let home = home?;
        c.off_path
            .iter()
            .map(|p| home.join(p))
            .filter(|p| p.exists())
            .find_map(|p| version_of(&p, c.package))
            .or_else(|| {
                let dir = home.join(c.local_npm?);
                package_version(&dir.join("node_modules").join(c.package)).map(|version| {
                    Installed {
                        command: dir.join(c.command),
                        version,
                        via: Via::Npm,
                    }
                })
            })
    })
}

/// The installed release of `agent`'s client whose command is `command` (as found, its links
/// resolved here); `None` when its files tell no version.
pub fn of_command(agent: Agent, command: &Path) -> Option<Installed> {
    version_of(command, agent.home().release?.package)
}

/// The files a command named `command` in the folder `dir` may be: the name itself on Unix; on
/// Windows (`windows`) the name with the extensions a client's installers give it, in the order
/// the system's `PATHEXT` tries them (`.exe` of a native install, `.cmd` of an npm shim).
fn command_files(dir: &Path, command: &str, windows: bool) -> Vec<PathBuf> {
    if windows {
        ["exe", "cmd"]
            .iter()
            .map(|ext| dir.join(format!("{command}.{ext}")))
            .collect()
    } else {
        vec![dir.join(command)]
    }
}

/// The version of the command at `command`, read from where its links lead.
fn version_of(command: &Path, package: &str) -> Option<Installed> {
    let real = std::fs::canonicalize(command).ok()?;
    let found = |version: String, via| Installed {
        command: command.to_path_buf(),
        version,
        via,
    };
    // npm: the command lies inside `node_modules/PACKAGE`.
    let npm = Path::new("node_modules").join(package);
    if let Some(dir) = real.ancestors().find(|a| a.ends_with(&npm)) {
        return package_version(dir).map(|v| found(v, Via::Npm));
    }
    // The native installer: `…/versions/VERSION` (the binary itself, or a folder holding it).
    for a in real.ancestors() {
        if a.parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "versions")
        {
            let v = a.file_name()?.to_str()?;
            if looks_like_version(v) {
                return Some(found(v.to_string(), Via::Native));
            }
        }
    }
    // npm's shim on Windows: `PREFIX\claude.cmd` beside `PREFIX\node_modules\PACKAGE`.
    if real
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("cmd"))
        && let Some(v) = real
            .parent()
            .and_then(|dir| package_version(&dir.join("node_modules").join(package)))
    {
        return Some(found(v, Via::Npm));
    }
    // Homebrew: `…/Cellar/FORMULA/VERSION/…` or `…/Caskroom/CASK/VERSION/…`.
    let parts: Vec<&OsStr> = real.iter().collect();
    for (i, p) in parts.iter().enumerate() {
        if (*p == "Cellar" || *p == "Caskroom")
            && let Some(v) = parts.get(i + 2).and_then(|v| v.to_str())
        {
            // Homebrew's revisions (`2.1.300_1`) are not the client's.
            let v = v.split('_').next().unwrap_or(v);
            if looks_like_version(v) {
                return Some(found(v.to_string(), Via::Homebrew));
            }
        }
    }
    None
}

/// The `version` of the npm package in `dir`.
fn package_version(dir: &Path) -> Option<String> {
    let bytes = crate::core::files::fsx::read_settings(&dir.join("package.json")).ok()??;
    let json: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    let v = json.get("version")?.as_str()?.trim();
    looks_like_version(v).then(|| v.to_string())
}

/// `2.1.300`, `0.148.0`, `2026.9.6-beta.1`: digits and dots first, at most 64 characters.
pub fn looks_like_version(v: &str) -> bool {
    v.len() <= 64
        && v.split(['-', '+']).next().is_some_and(|core| {
            !core.is_empty()
                && core
                    .split('.')
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+'))
}

/// A version's numbers, for ordering releases: `2.1.300` is `[2, 1, 300]`; what follows a `-`
/// or `+` is not counted.
pub fn numbers(v: &str) -> Vec<u64> {
    v.split(['-', '+'])
        .next()
        .unwrap_or("")
        .split('.')
        .map(|n| n.parse().unwrap_or(0))
        .collect()
}

fn is_executable(p: &Path) -> bool {
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && crate::core::files::fsx::runnable(p, &m))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::symlink;

    fn executable(p: &Path) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "#!/bin/sh\n").unwrap();
        let meta = std::fs::metadata(p).unwrap();
        std::fs::set_permissions(p, crate::core::files::fsx::permissions(0o755, &meta)).unwrap();
    }

    fn npm_install(prefix: &Path, package: &str, version: &str, bin: &str) -> PathBuf {
        let pkg = prefix.join("node_modules").join(package);
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(
            pkg.join("package.json"),
            format!(r#"{{"name": "{package}", "version": "{version}"}}"#),
        )
        .unwrap();
        let target = pkg.join(bin);
        executable(&target);
        target
    }

    // A command found by its bare name on the PATH: the Unix layout.
    #[cfg(unix)]
    #[test]
    fn an_npm_install_on_path_is_read_from_its_package() {
        let t = tempfile::tempdir().unwrap();
        let target = npm_install(
            &t.path().join("prefix"),
            "@anthropic-ai/claude-code",
            "2.1.270",
            "cli.js",
        );
        let bin = t.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        symlink(&target, bin.join("claude")).unwrap();
        let path = std::env::join_paths([t.path().join("none"), bin.clone()]).unwrap();
        let i = find(Agent::ClaudeCode, &path, None).unwrap();
        assert_eq!((i.version.as_str(), i.via), ("2.1.270", Via::Npm));
        assert_eq!(i.command, bin.join("claude"));
        // Reached through a link to the folder holding the command: the same install.
        let linked = t.path().join("linked");
        symlink(&bin, &linked).unwrap();
        let i = find(Agent::ClaudeCode, linked.as_os_str(), None).unwrap();
        assert_eq!(i.version, "2.1.270");
        // Another agent's command is not this one.
        assert_eq!(find(Agent::Codex, &path, None), None);
    }

    #[test]
    fn windows_commands_are_an_exe_or_an_npm_shim_and_unix_ones_the_bare_name() {
        let dir = Path::new("prefix");
        assert_eq!(
            command_files(dir, "claude", true),
            [dir.join("claude.exe"), dir.join("claude.cmd")]
        );
        assert_eq!(command_files(dir, "codex", false), [dir.join("codex")]);
    }

    #[test]
    fn an_npm_shim_is_read_from_the_package_beside_it() {
        let t = tempfile::tempdir().unwrap();
        let prefix = t.path().join("npm");
        npm_install(&prefix, "@openai/codex", "0.171.0", "bin/codex.js");
        let shim = prefix.join("codex.cmd");
        std::fs::write(
            &shim,
            "@ECHO off\r\nnode \"%~dp0\\node_modules\\@openai\\codex\\bin\\codex.js\" %*\r\n",
        )
        .unwrap();
        let i = version_of(&shim, "@openai/codex").unwrap();
        assert_eq!((i.version.as_str(), i.via), ("0.171.0", Via::Npm));
        assert_eq!(i.command, shim);
        // Another package's shim beside it is not this client.
        assert_eq!(version_of(&shim, "@google/gemini-cli"), None);
        // A shim with no package beside it tells no version.
        let lone = t.path().join("codex.cmd");
        std::fs::write(&lone, "@ECHO off\r\n").unwrap();
        assert_eq!(version_of(&lone, "@openai/codex"), None);
    }

    // A command found by its bare name on the PATH: the Unix layout.
    #[cfg(unix)]
    #[test]
    fn the_native_installer_and_homebrew_are_read_from_their_folders() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let release = home.join(".local/share/claude/versions/2.1.300");
        executable(&release);
        let bin = home.join(".local/bin");
        std::fs::create_dir_all(&bin).unwrap();
        symlink(&release, bin.join("claude")).unwrap();
        // On PATH.
        let i = find(Agent::ClaudeCode, bin.as_os_str(), None).unwrap();
        assert_eq!((i.version.as_str(), i.via), ("2.1.300", Via::Native));
        // Not on PATH: where the installer puts it.
        let i = find(Agent::ClaudeCode, OsStr::new(""), Some(&home)).unwrap();
        assert_eq!((i.version.as_str(), i.via), ("2.1.300", Via::Native));
        // Homebrew's keg, its revision left out.
        let keg = t.path().join("brew/Cellar/codex/0.148.0_1/bin/codex");
        executable(&keg);
        let brew_bin = t.path().join("brew/bin");
        std::fs::create_dir_all(&brew_bin).unwrap();
        symlink(&keg, brew_bin.join("codex")).unwrap();
        let i = find(Agent::Codex, brew_bin.as_os_str(), None).unwrap();
        assert_eq!((i.version.as_str(), i.via), ("0.148.0", Via::Homebrew));
    }

    #[test]
    fn the_older_local_install_is_read_from_its_package() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        npm_install(
            &home.join(".claude/local"),
            "@anthropic-ai/claude-code",
            "2.0.77",
            "cli.js",
        );
        let i = find(Agent::ClaudeCode, OsStr::new(""), Some(&home)).unwrap();
        assert_eq!((i.version.as_str(), i.via), ("2.0.77", Via::Npm));
    }

    // A command found by its bare name on the PATH: the Unix layout.
    #[cfg(unix)]
    #[test]
    fn hostile_versions_and_folders_tell_nothing() {
        let t = tempfile::tempdir().unwrap();
        for bad in [
            "",
            "latest",
            "2.1.300\n\u{1b}[2J",
            "../../etc",
            &"9".repeat(80),
        ] {
            let prefix = t.path().join(format!("p{}", bad.len()));
            let target = npm_install(&prefix, "@openai/codex", "0", "codex.js");
            std::fs::write(
                prefix.join("node_modules/@openai/codex/package.json"),
                serde_json::json!({ "version": bad }).to_string(),
            )
            .unwrap();
            let bin = prefix.join("bin");
            std::fs::create_dir_all(&bin).unwrap();
            symlink(&target, bin.join("codex")).unwrap();
            assert_eq!(find(Agent::Codex, bin.as_os_str(), None), None, "{bad:?}");
        }
        // A package.json that is not JSON, and a command leading nowhere known.
        let prefix = t.path().join("broken");
        let target = npm_install(&prefix, "@openai/codex", "0.1.0", "codex.js");
        std::fs::write(
            prefix.join("node_modules/@openai/codex/package.json"),
            "{not json",
        )
        .unwrap();
        let bin = prefix.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        symlink(&target, bin.join("codex")).unwrap();
        assert_eq!(find(Agent::Codex, bin.as_os_str(), None), None);
        let plain = t.path().join("plain/codex");
        executable(&plain);
        assert_eq!(
            find(Agent::Codex, plain.parent().unwrap().as_os_str(), None),
            None
        );
    }

    #[test]
    fn versions_order_by_their_numbers() {
        assert!(numbers("2.1.300") > numbers("2.1.290"));
        assert!(numbers("2.1.31") < numbers("2.1.231"));
        assert!(numbers("0.151.0") > numbers("0.148.0"));
        assert_eq!(numbers("2.1.300-beta.1"), vec![2, 1, 300]);
        assert!(looks_like_version("2026.9.6"));
        assert!(!looks_like_version("v2"));
    }
}
