//! The private home of an isolated run where no mount namespace can lay one over the user's
//! (macOS, under Seatbelt): a temporary folder that `HOME`, `TMPDIR` and the XDG variables name,
//! holding copies of what of the user's home the command must see — the revealed skill folders,
//! settings files and an installation below the home, the same list the namespaces mode shows
//! read-only — and nothing else. What is revealed outside the home (an installation in
//! `/usr/local` or `/opt/homebrew`, the project) is read in place, which the profile allows and
//! no more. The plan is a pure function of the isolated run and the folder, tested everywhere;
//! [`make`] carries it out.

// Carried out only on macOS; planned and tested everywhere.
#![cfg_attr(not(target_os = "macos"), allow(dead_code))]

use super::spec::Isolated;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Most bytes copied into a private home: a bigger copy is refused, saying so.
pub const COPY_CAP: u64 = 2 << 30;

/// What the private home holds and what the command reads where it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HomePlan {
    /// The private home.
    pub home: PathBuf,
    /// `(from, to)`: what of the user's home is copied into the private one, at the same place
    /// below it.
    pub copies: Vec<(PathBuf, PathBuf)>,
    /// `(link, target)`: the links on the way to the command made again, moved into the private
    /// home where they were below the user's.
    pub links: Vec<(PathBuf, PathBuf)>,
    /// What is read where it is, outside the user's home: never written.
    pub readable: Vec<PathBuf>,
    /// The variables the command gets beside the isolated run's own: `HOME`, `TMPDIR` and the
    /// XDG folders, all in the private home.
    pub env: Vec<(OsString, OsString)>,
}

impl HomePlan {
    /// `path` as the command finds it: below the private home when it was below the user's.
    pub fn moved(&self, user_home: &Path, path: &Path) -> PathBuf {
        moved(user_home, &self.home, path)
    }
}

fn moved(user_home: &Path, private: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(user_home)
        .map_or_else(|_| path.to_path_buf(), |rest| private.join(rest))
}

/// The private home at `private` for `isolated` (whose `home` is the user's).
pub fn plan(isolated: &Isolated, private: &Path) -> HomePlan {
    let user = &isolated.home;
    let real_user = std::fs::canonicalize(user).unwrap_or_else(|_| user.clone());
    // A path below the home, as named or through its links.
    let below = |p: &Path| -> Option<PathBuf> {
        if p.starts_with(user) {
            Some(moved(user, private, p))
        } else if p.starts_with(&real_user) {
            Some(moved(&real_user, private, p))
        } else {
            None
        }
    };
    let mut copies = Vec::new();
    let mut readable = Vec::new();
    for p in &isolated.reveal {
        match below(p) {
            Some(to) => copies.push((p.clone(), to)),
            None => readable.push(p.clone()),
        }
    }
    // A folder already copied with what holds it is not copied twice.
    copies.sort();
    let mut kept: Vec<(PathBuf, PathBuf)> = Vec::new();
    for (from, to) in copies {
        if !kept.iter().any(|(f, _)| from.starts_with(f)) {
            kept.push((from, to));
        }
    }
    readable.sort();
    readable.dedup();
    let links = isolated
        .links
        .iter()
        .map(|(link, target)| {
            let link = below(link).unwrap_or_else(|| link.clone());
            let target = if target.is_absolute() {
                below(target).unwrap_or_else(|| target.clone())
            } else {
                target.clone()
            };
            (link, target)
        })
        .collect();
    let at = |rest: &str| private.join(rest).into_os_string();
    let env = vec![
        ("HOME".into(), private.as_os_str().to_owned()),
        ("TMPDIR".into(), at(".tmp")),
        ("XDG_CONFIG_HOME".into(), at(".config")),
        ("XDG_DATA_HOME".into(), at(".local/share")),
        ("XDG_STATE_HOME".into(), at(".local/state")),
        ("XDG_CACHE_HOME".into(), at(".cache")),
    ];
    HomePlan {
        home: private.to_path_buf(),
        copies: kept,
        links,
        readable,
        env,
    }
}

/// Carries out `plan`: the XDG folders made, every copy made (files, folders and the links
/// inside them as links, at most [`COPY_CAP`] bytes in all), the links made again where they
/// are inside the private home.
pub fn make(plan: &HomePlan) -> std::io::Result<()> {
    for (_, v) in &plan.env {
        std::fs::create_dir_all(v)?;
    }
    let mut budget = COPY_CAP;
    for (from, to) in &plan.copies {
        copy(from, to, &mut budget)?;
    }
    for (link, target) in &plan.links {
        if !link.starts_with(&plan.home) || std::fs::symlink_metadata(link).is_ok() {
            continue;
        }
        if let Some(parent) = link.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let resolved = link
            .parent()
            .map_or_else(|| target.clone(), |p| p.join(target));
        crate::core::files::fsx::symlink(target, link, resolved.is_dir())?;
    }
    Ok(())
}

/// Copies `from` to `to`, a folder with everything below it, links as links.
fn copy(from: &Path, to: &Path, budget: &mut u64) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(from)?;
        let is_dir = from.is_dir();
        return crate::core::files::fsx::symlink(&target, to, is_dir);
    }
    if meta.is_dir() {
        std::fs::create_dir_all(to)?;
        for e in std::fs::read_dir(from)? {
            let e = e?;
            copy(&e.path(), &to.join(e.file_name()), budget)?;
        }
        return Ok(());
    }
    if !meta.is_file() {
        // A pipe, socket or device of the user's is not the client's to read.
        return Ok(());
    }
    if meta.len() > *budget {
        return Err(std::io::Error::other(format!(
            "the private home would hold more than {} GiB of copies (at {})",
            COPY_CAP >> 30,
            crate::core::words::escape::path(from)
        )));
    }
    *budget -= meta.len();
    std::fs::copy(from, to)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn isolated(home: &Path, reveal: &[PathBuf], links: &[(PathBuf, PathBuf)]) -> Isolated {
        Isolated {
            home: home.to_path_buf(),
            reveal: reveal.to_vec(),
            env: Vec::new(),
            port: 4000,
            layered: None,
            links: links.to_vec(),
        }
    }

    #[test]
    fn what_is_below_the_home_is_copied_and_the_rest_read_in_place() {
        let home = Path::new("/Users/me");
        let private = Path::new("/private/var/folders/x/T/skillscope-verify-1");
        let skills = home.join(".claude/skills");
        let settings = home.join(".claude/settings.json");
        let install = PathBuf::from("/opt/homebrew/lib/node_modules/@anthropic-ai/claude-code");
        let project = PathBuf::from("/Volumes/work/project");
        let npm = home.join(".npm-global/lib/node_modules");
        let plan = plan(
            &isolated(
                home,
                &[
                    skills.clone(),
                    skills.join("pdf"),
                    settings.clone(),
                    install.clone(),
                    project.clone(),
                    npm.clone(),
                ],
                &[(
                    home.join(".npm-global/bin/claude"),
                    PathBuf::from("../lib/node_modules/@anthropic-ai/claude-code/cli.js"),
                )],
            ),
            private,
        );
        assert_eq!(
            plan.copies,
            [
                (settings, private.join(".claude/settings.json")),
                (skills, private.join(".claude/skills")),
                (npm, private.join(".npm-global/lib/node_modules")),
            ]
        );
        assert_eq!(plan.readable, [project, install]);
        assert_eq!(
            plan.links,
            [(
                private.join(".npm-global/bin/claude"),
                PathBuf::from("../lib/node_modules/@anthropic-ai/claude-code/cli.js")
            )]
        );
        // Nothing of the home but what is copied: neither the home nor a folder holding it is
        // read or copied whole.
        assert!(plan.copies.iter().all(|(f, _)| f != home));
        assert!(plan.readable.iter().all(|r| !home.starts_with(r)));
        let var = |k: &str| {
            plan.env
                .iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| PathBuf::from(v))
        };
        assert_eq!(var("HOME").as_deref(), Some(private));
        for k in [
            "TMPDIR",
            "XDG_CONFIG_HOME",
            "XDG_DATA_HOME",
            "XDG_STATE_HOME",
            "XDG_CACHE_HOME",
        ] {
            assert!(var(k).unwrap().starts_with(private), "{k}");
        }
        assert_eq!(
            plan.moved(home, &home.join(".npm-global/bin/claude")),
            private.join(".npm-global/bin/claude")
        );
        assert_eq!(
            plan.moved(home, Path::new("/usr/bin/env")),
            Path::new("/usr/bin/env")
        );
    }

    #[test]
    fn making_it_copies_only_the_planned_folders_and_keeps_links() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let private = t.path().join("private");
        let skill = home.join(".claude/skills/pdf");
        std::fs::create_dir_all(&skill).unwrap();
        std::fs::write(skill.join("SKILL.md"), "---\nname: pdf\n---\n").unwrap();
        crate::core::files::fsx::test_link(&skill, home.join(".claude/skills/linked")).unwrap();
        std::fs::write(home.join(".claude/.credentials.json"), "TOPSECRET").unwrap();
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".ssh/id_ed25519"), "TOPSECRET").unwrap();
        let plan = plan(
            &isolated(&home, &[home.join(".claude/skills")], &[]),
            &private,
        );
        make(&plan).unwrap();
        assert_eq!(
            std::fs::read_to_string(private.join(".claude/skills/pdf/SKILL.md")).unwrap(),
            "---\nname: pdf\n---\n"
        );
        assert!(
            std::fs::symlink_metadata(private.join(".claude/skills/linked"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(!private.join(".claude/.credentials.json").exists());
        assert!(!private.join(".ssh").exists());
        assert!(private.join(".config").is_dir() && private.join(".tmp").is_dir());
    }
}
