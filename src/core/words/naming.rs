//! A skill's name as every agent takes it (checked, and the nearest valid one), and a value
//! written back into YAML exactly: shared by `new`'s skeleton and the rules' fixes.

/// Why a name cannot be a new skill's.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NameError {
    /// Not lowercase ASCII letters, digits and single hyphens, or too long.
    #[error("`{given}` cannot be a skill's name: use lowercase letters, digits and single hyphens, at most 64 characters{}", .meant.as_ref().map_or_else(String::new, |m| format!(" (`{m}`)")))]
    Invalid {
        /// The name as given.
        given: String,
        /// The nearest valid name, if there is one.
        meant: Option<String>,
    },
}

/// The longest name every agent takes.
const MAX_NAME: usize = 64;

/// Whether `name` is a valid name for every agent: `[a-z0-9-]`, 1–64 characters, no leading,
/// trailing or double hyphen. The suggestion is the name made so.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if valid {
        return Ok(());
    }
    let kebab: String = kebab(name)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(MAX_NAME)
        .collect();
    let kebab = kebab.trim_matches('-').to_string();
    Err(NameError::Invalid {
        given: crate::core::words::text::line(name).into_owned(),
        meant: (!kebab.is_empty() && kebab != name).then_some(kebab),
    })
}

/// The nearest valid name: lowercase ASCII words joined by single hyphens.
pub fn kebab(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A YAML scalar holding `s` exactly: plain when YAML would read it back as the same string,
/// else double-quoted (a JSON string is a valid double-quoted YAML scalar).
pub fn yaml_scalar(s: &str) -> String {
    // YAML 1.1 reads these as booleans and null, and some agents' parsers still do.
    const WORDS: &[&str] = &["y", "n", "yes", "no", "on", "off", "true", "false", "null"];
    let plain = s.starts_with(char::is_alphabetic)
        && s == s.trim()
        && !WORDS.iter().any(|w| w.eq_ignore_ascii_case(s))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.chars().any(char::is_control)
        && crate::core::frontmatter::parse_yaml_value::<String>(s).as_deref() == Ok(s);
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_agent_takes_and_the_nearest_for_others() {
        assert_eq!(check_name("pdf-tools"), Ok(()));
        assert_eq!(check_name("a1"), Ok(()));
        for (bad, meant) in [
            ("PDF Tools", Some("pdf-tools")),
            ("-x", Some("x")),
            ("a--b", Some("a-b")),
            ("", None),
            ("___", None),
        ] {
            match check_name(bad) {
                Err(NameError::Invalid { meant: m, .. }) => {
                    assert_eq!(m.as_deref(), meant, "{bad}");
                }
                Ok(()) => panic!("{bad} passed"),
            }
        }
        assert!(check_name(&"a".repeat(65)).is_err());
    }

    #[test]
    fn a_description_that_yaml_would_misread_is_quoted() {
        assert_eq!(yaml_scalar("Fills PDF forms."), "Fills PDF forms.");
        for s in [
            "Forms: fill them",
            "yes",
            "12",
            "- item",
            "a # b",
            "line\nbreak",
            "",
        ] {
            let y = yaml_scalar(s);
            assert_eq!(
                crate::core::frontmatter::parse_yaml_value::<String>(&y).as_deref(),
                Ok(s),
                "{y}"
            );
            assert_ne!(y, s, "{s:?} kept plain");
        }
    }
}
