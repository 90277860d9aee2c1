//! What Codex 0.171.0 adds to the conversation when the user names a skill as `$name` in a
//! prompt, and why it adds nothing (`tests/fixtures/agents/FINDINGS.md`, "Injection").

use crate::core::library::{Library, LibraryError, read_regular};

/// Why Codex adds nothing for a `$name` in the prompt.
#[derive(Debug, thiserror::Error)]
pub enum MentionError {
    /// No skill Codex reads goes by that name.
    #[error("no skill that Codex reads is named `{0}`")]
    Unknown(String),
    /// The skills of that name are all switched off.
    #[error("`{name}` is switched off in Codex ({why}): `${name}` adds nothing")]
    Off {
        /// The name asked for.
        name: String,
        /// What switched it off.
        why: String,
    },
    /// More than one enabled skill has that name.
    #[error("{count} enabled skills are named `{name}`: Codex adds none of them for `${name}`")]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// How many.
        count: usize,
    },
    /// Its SKILL.md could not be read.
    #[error(transparent)]
    Read(#[from] LibraryError),
}

/// What Codex 0.171.0 adds to the conversation for `$name` in a prompt, exactly
/// (`tests/fixtures/agents/FINDINGS.md`, "Injection"): one user message of its own holding
/// `<skill>\n<name>NAME</name>\n<path>PATH</path>\n`, the whole SKILL.md as the file holds it,
/// then `\n</skill>`. `lib` is Codex's view of the library
/// ([`agent_library`](crate::core::agents::view::agent_library) for `Agent::Codex`, with the
/// agents' switches): the name must resolve to exactly one enabled skill of it. A skill its
/// `agents/openai.yaml` keeps out of the listing is still added when named; a skill switched
/// off, or a name two enabled skills share, adds nothing.
pub fn mention(lib: &Library, name: &str) -> Result<String, MentionError> {
    let named: Vec<usize> = (0..lib.len())
        .filter(|&i| {
            let s = &lib.skills[i];
            s.listable()
                && s.shadowed_by.is_none()
                && s.name.split_whitespace().eq(name.split_whitespace())
        })
        .collect();
    let enabled: Vec<usize> = named
        .iter()
        .copied()
        .filter(|i| !lib.inactive.contains_key(i) || lib.explicit_only.contains(i))
        .collect();
    let i = match (enabled.as_slice(), named.first()) {
        ([i], _) => *i,
        ([], None) => return Err(MentionError::Unknown(name.to_string())),
        ([], Some(off)) => {
            return Err(MentionError::Off {
                name: name.to_string(),
                why: lib.inactive.get(off).cloned().unwrap_or_default(),
            });
        }
        (many, _) => {
            return Err(MentionError::Ambiguous {
                name: name.to_string(),
                count: many.len(),
            });
        }
    };
    let s = &lib.skills[i];
    let bytes = read_regular(&s.skill_md).map_err(|source| LibraryError::Read {
        path: s.skill_md.clone(),
        source,
    })?;
    // Codex names the file by its real place.
    let path = std::fs::canonicalize(&s.skill_md)
        .unwrap_or_else(|_| crate::core::files::paths::absolute(&s.skill_md));
    Ok(format!(
        "<skill>\n<name>{}</name>\n<path>{}</path>\n{}\n</skill>",
        s.name.split_whitespace().collect::<Vec<_>>().join(" "),
        path.display(),
        String::from_utf8_lossy(&bytes)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::agents::AgentSwitches;
    use crate::core::agents::view::agent_library;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, default_roots};
    use std::path::{Path, PathBuf};

    fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
    }

    /// `cp -R from/. to/`, a `*.in` file without its suffix and `{HOME}` filled in.
    fn copy(from: &Path, to: &Path, home: &Path) {
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(&name), home);
                continue;
            }
            std::fs::create_dir_all(to).unwrap();
            match name.strip_suffix(".in") {
                Some(plain) => {
                    let text = std::fs::read_to_string(e.path()).unwrap();
                    let text = text.replace("{HOME}", &home.to_string_lossy());
                    std::fs::write(to.join(plain), text).unwrap();
                }
                None => {
                    std::fs::copy(e.path(), to.join(&name)).unwrap();
                }
            }
        }
    }

    /// The `mixed` library laid out for Codex as the capture script laid it, in Codex's view
    /// with its `[[skills.config]]` switches; and the home folder.
    fn codex_view() -> (tempfile::TempDir, PathBuf, Library) {
        let t = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(t.path()).unwrap();
        let (home, project) = (base.join("home"), base.join("project"));
        let lib = fixtures().join("library");
        copy(
            &lib.join("user/skills"),
            &home.join(".agents/skills"),
            &home,
        );
        copy(
            &lib.join("project/skills"),
            &project.join(".agents/skills"),
            &home,
        );
        copy(&lib.join("user/overlay/codex"), &home, &home);
        copy(&lib.join("project/overlay/codex"), &project, &home);
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let whole = Library::load(
            default_roots(Some(&home), &project),
            &ScanOptions::default(),
        );
        let (switches, diags) = AgentSwitches::load(&home, Some(&project));
        assert!(diags.is_empty(), "{diags:?}");
        let view = agent_library(&whole, Agent::Codex, &[], Some(&switches));
        (t, home, view)
    }

    fn captured(file: &str, home: &Path) -> String {
        std::fs::read_to_string(fixtures().join("codex@0.171.0/mixed").join(file))
            .unwrap()
            .replace("{HOME}", &home.to_string_lossy())
    }

    #[test]
    fn codex_adds_a_named_skill_as_it_did_in_the_capture() {
        let (_t, home, view) = codex_view();
        let got = mention(&view, "with-resources").unwrap();
        assert_eq!(got, captured("inject-with-resources.txt", &home));
        // Kept out of the listing by its agents/openai.yaml, still added when named.
        let got = mention(&view, "no-implicit").unwrap();
        assert_eq!(got, captured("inject-no-implicit.txt", &home));
    }

    #[test]
    fn codex_adds_nothing_for_a_shared_a_switched_off_or_an_unknown_name() {
        let (_t, _home, view) = codex_view();
        let e = mention(&view, "dup-shared").unwrap_err();
        assert!(matches!(e, MentionError::Ambiguous { count: 2, .. }), "{e}");
        let e = mention(&view, "codex-disabled").unwrap_err();
        assert!(matches!(e, MentionError::Off { .. }), "{e}");
        assert!(e.to_string().contains("skills.config"), "{e}");
        let e = mention(&view, "codex-disabled-by-path").unwrap_err();
        assert!(matches!(e, MentionError::Off { .. }), "{e}");
        let e = mention(&view, "no-description").unwrap_err();
        assert!(matches!(e, MentionError::Unknown(_)), "{e}");
    }
}
