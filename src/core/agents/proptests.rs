//! Property tests of the settings editors: no input makes them panic, and an edit changes
//! exactly the key it is about, keeps every comment, and parses back. Case counts are bounded
//! so that the whole suite stays fast.

use super::codex::switches as codex;
use super::json::{self, Edit};
use crate::core::frontmatter::Frontmatter;
use crate::core::skill::Skill;
use crate::core::source::{Agent, Root, Scope};
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

const CASES: u32 = 160;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        // A failure is printed with its minimal input; nothing is written into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A JSON value a settings file could hold: scalars, and objects or arrays of them, two deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        "[a-z é\"\\\\/\\t*?{}]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec((json_key(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn json_key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}",
        Just("skillOverrides".to_string()),
        Just("permission".to_string()),
        "[a-z*?\\[\\]{}\" \\\\é-]{0,5}",
    ]
}

/// How a file is laid out.
#[derive(Debug, Clone)]
struct Layout {
    unit: &'static str,
    newline: &'static str,
    one_line: bool,
    trailing_commas: bool,
    comments: bool,
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        prop::sample::select(vec!["  ", "    ", "\t"]),
        prop::sample::select(vec!["\n", "\r\n"]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(unit, newline, one_line, trailing_commas, comments)| Layout {
                unit,
                newline,
                one_line,
                trailing_commas,
                comments,
            },
        )
}

/// Writes `v` as JSONC in the layout, with numbered comments (`/*c1*/`, `//c2`) around the
/// members of every object when the layout has comments.
fn render(v: &Value, l: &Layout, depth: usize, next_comment: &mut usize) -> String {
    let Value::Object(map) = v else {
        return serde_json::to_string(v).unwrap();
    };
    if map.is_empty() {
        return "{}".to_string();
    }
    let comment = |block: bool, next: &mut usize| {
        *next += 1;
        if block {
            format!("/*c{next}*/ ")
        } else {
            format!(" //c{next}")
        }
    };
    let mut out = String::from("{");
    let n = map.len();
    for (i, (k, val)) in map.iter().enumerate() {
        let last = i + 1 == n;
        if l.one_line {
            out.push(' ');
        } else {
            out.push_str(l.newline);
            out.push_str(&l.unit.repeat(depth + 1));
        }
        if l.comments {
            out.push_str(&comment(true, next_comment));
        }
        out.push_str(&serde_json::to_string(k).unwrap());
        out.push_str(": ");
        out.push_str(&render(val, l, depth + 1, next_comment));
        if !last || l.trailing_commas {
            out.push(',');
        }
        if l.comments && !l.one_line {
            out.push_str(&comment(false, next_comment));
        }
    }
    if l.one_line {
        out.push_str(" }");
    } else {
        out.push_str(l.newline);
        out.push_str(&l.unit.repeat(depth));
        out.push('}');
    }
    out
}

fn comments_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('c') {
        let before = &rest[..i];
        let tail = &rest[i + 1..];
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && (before.ends_with("/*") || before.ends_with("//")) {
            out.push(format!("c{digits}"));
        }
        rest = tail;
    }
    out.sort();
    out
}

fn json_edit() -> impl Strategy<Value = (Vec<String>, Option<String>)> {
    (
        prop::collection::vec(json_key(), 1..3),
        prop::option::of("[a-z]{0,5}"),
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn json_parse_and_splice_never_panic(
        text in "\\PC{0,120}",
        path in prop::collection::vec(json_key(), 1..3),
        remove in any::<bool>(),
    ) {
        let edit = if remove { Edit::Remove(path) } else { Edit::Set(path, Value::from("off")) };
        let _ = json::parse(&text);
        let _ = json::edit(&text, &[edit]);
    }

    #[test]
    fn json_splice_of_a_damaged_file_never_panics(
        root in prop::collection::vec((json_key(), json_value()), 0..5),
        l in layout(),
        cut in any::<prop::sample::Index>(),
        len in 0usize..6,
        insert in "[{}\\[\\],:\"/* \\n]{0,3}",
        path in prop::collection::vec(json_key(), 1..3),
    ) {
        let v = Value::Object(root.into_iter().collect());
        let text = render(&v, &l, 0, &mut 0);
        let chars: Vec<char> = text.chars().collect();
        let at = cut.index(chars.len() + 1);
        let end = (at + len).min(chars.len());
        let damaged: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(chars[end..].iter()).collect();
        let _ = json::edit(&damaged, &[Edit::Set(path.clone(), Value::from("x"))]);
        let _ = json::edit(&damaged, &[Edit::Remove(path)]);
    }

    #[test]
    fn json_splice_changes_only_the_key_and_keeps_comments_and_layout(
        root in prop::collection::vec((json_key(), json_value()), 0..5),
        l in layout(),
        (path, set) in json_edit(),
    ) {
        let v = Value::Object(root.into_iter().collect());
        let text = render(&v, &l, 0, &mut 0);
        let parsed = json::parse(&text).unwrap().to_value();
        prop_assert_eq!(&parsed, &v, "the rendered file reads back as its value:\n{}", text);
        let edit = match &set {
            Some(s) => Edit::Set(path.clone(), Value::from(s.as_str())),
            None => Edit::Remove(path.clone()),
        };
        let out = json::edit(&text, std::slice::from_ref(&edit)).unwrap();
        let mut want = v.clone();
        json::apply_to_value(&mut want, &edit);
        let got = json::parse(&out);
        prop_assert!(got.is_ok(), "does not parse after the edit:\n{}", out);
        prop_assert_eq!(&got.unwrap().to_value(), &want, "\n{}\n=>\n{}", text, out);
        // Setting a key whose value is an object replaces that object, its comments with it.
        let replaces_an_object = path
            .iter()
            .try_fold(&v, |cur, k| cur.get(k))
            .is_some_and(|old| old.as_object().is_some_and(|m| !m.is_empty()));
        if set.is_some() && !replaces_an_object {
            prop_assert_eq!(comments_in(&out), comments_in(&text), "\n{}\n=>\n{}", text, out);
        } else {
            // A removed or replaced member may take its own comments along; nothing is added.
            let kept = comments_in(&out);
            prop_assert!(kept.iter().all(|c| comments_in(&text).contains(c)));
        }
        if text.contains("\r\n") {
            prop_assert!(!out.replace("\r\n", "").contains('\n'), "a bare line feed in a CRLF file:\n{:?}", out);
        }
        // A splice that changes nothing leaves the bytes alone.
        if want == v {
            prop_assert_eq!(&out, &text);
        }
    }
}

const HOME: &str = "/nonexistent-proptest-home";

fn skill(name: &str) -> Skill {
    let dir = Path::new(HOME).join(".agents/skills").join(name);
    let root = Root::new(dir.parent().unwrap(), Agent::Codex, Scope::User);
    Skill {
        frontmatter: Frontmatter::default(),
        ..Skill::new(&root, dir.clone(), dir.join("SKILL.md"))
    }
}

#[derive(Debug, Clone)]
struct TomlEntry {
    by_path: bool,
    skill: String,
    enabled: Option<bool>,
}

fn toml_entry() -> impl Strategy<Value = TomlEntry> {
    (
        any::<bool>(),
        prop::sample::select(vec!["pdf", "docx", "x*y", "a\"b"]),
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(by_path, skill, enabled)| TomlEntry {
            by_path,
            skill: skill.to_string(),
            enabled,
        })
}

/// A config.toml: top-level keys, a table, and `skills.config` entries written as an array of
/// tables or as an inline array, with numbered comments (`#c1`).
fn toml_doc(top: &[(String, i32)], entries: &[TomlEntry], inline: bool, crlf: bool) -> String {
    let nl = if crlf { "\r\n" } else { "\n" };
    let mut c = 0;
    let mut comment = || {
        c += 1;
        format!(" #c{c}")
    };
    let mut out = format!("#c0 written by hand{nl}");
    for (k, v) in top {
        out.push_str(&format!("{k} = {v}{}{nl}", comment()));
    }
    out.push_str(&format!("{nl}[other]{}{nl}answer = 42{nl}", comment()));
    let entry_fields = |e: &TomlEntry| {
        let sel = if e.by_path {
            let p = Path::new(HOME)
                .join(".agents/skills")
                .join(&e.skill)
                .join("SKILL.md");
            format!(
                "path = {}",
                toml_edit::Value::from(p.to_string_lossy().as_ref())
            )
        } else {
            format!("name = {}", toml_edit::Value::from(e.skill.as_str()))
        };
        match e.enabled {
            Some(b) => vec![sel, format!("enabled = {b}")],
            None => vec![sel],
        }
    };
    if inline {
        if !entries.is_empty() {
            let items: Vec<String> = entries
                .iter()
                .map(|e| format!("{{ {} }}", entry_fields(e).join(", ")))
                .collect();
            out.push_str(&format!(
                "{nl}[skills]{nl}config = [{}]{}{nl}",
                items.join(", "),
                comment()
            ));
        }
    } else {
        for e in entries {
            out.push_str(&format!("{nl}[[skills.config]]{}{nl}", comment()));
            for f in entry_fields(e) {
                out.push_str(&format!("{f}{}{nl}", comment()));
            }
        }
    }
    out
}

fn toml_comments(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .split('#')
        .skip(1)
        .filter_map(|t| {
            let d: String = t
                .strip_prefix('c')?
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            (!d.is_empty()).then(|| format!("c{d}"))
        })
        .collect();
    out.sort();
    out
}

fn codex_state(text: &str, skill: &Skill) -> super::AgentState {
    let file = PathBuf::from(HOME).join(".codex/config.toml");
    let entries = codex::read(&file, "config.toml", text, Path::new(HOME), &mut Vec::new());
    codex::effective(
        &codex::Index::new(entries),
        skill,
        &super::PathCache::default(),
    )
    .state
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn toml_edit_never_panics(text in "\\PC{0,160}", on in any::<bool>()) {
        let file = PathBuf::from(HOME).join(".codex/config.toml");
        let _ = codex::edit(&file, &text, &skill("pdf"), on, Path::new(HOME));
    }

    #[test]
    fn toml_edit_changes_only_the_skills_entries_and_keeps_comments(
        top in prop::collection::vec(("[a-z]{1,6}", any::<i32>()), 0..4)
            .prop_map(|kv| {
                // Distinct keys, none that the skills table would clash with.
                let mut seen = std::collections::BTreeSet::new();
                kv.into_iter().filter(|(k, _)| k != "skills" && k != "other" && seen.insert(k.clone())).collect::<Vec<_>>()
            }),
        entries in prop::collection::vec(toml_entry(), 0..5),
        inline in any::<bool>(),
        crlf in any::<bool>(),
        target in prop::sample::select(vec!["pdf", "docx", "x*y", "a\"b", "new"]),
        on in any::<bool>(),
    ) {
        let text = toml_doc(&top, &entries, inline, crlf);
        let before: toml_edit::DocumentMut = text.parse().unwrap();
        let file = PathBuf::from(HOME).join(".codex/config.toml");
        let s = skill(target);
        let out = codex::edit(&file, &text, &s, on, Path::new(HOME)).unwrap();
        let after = out.parse::<toml_edit::DocumentMut>();
        prop_assert!(after.is_ok(), "does not parse after the edit:\n{}", out);
        let after = after.unwrap();
        // Every other key, table and comment is as it was.
        for (k, item) in before.iter() {
            if k != "skills" {
                prop_assert_eq!(after.get(k).map(std::string::ToString::to_string), Some(item.to_string()), "{}", k);
            }
        }
        prop_assert_eq!(after.len(), before.len() + usize::from(before.get("skills").is_none() && after.get("skills").is_some()));
        let comments_before = toml_comments(&text);
        prop_assert_eq!(toml_comments(&out), comments_before, "\n{}\n=>\n{}", text, out);
        // The skill is in the state asked for; every other skill is as it was.
        let want = if on { super::AgentState::On } else { super::AgentState::Off };
        prop_assert_eq!(codex_state(&out, &s), want, "\n{}", out);
        for other in ["pdf", "docx", "x*y", "a\"b", "new"].into_iter().filter(|n| *n != target) {
            let o = skill(other);
            prop_assert_eq!(codex_state(&out, &o), codex_state(&text, &o), "{} changed:\n{}", other, out);
        }
        // Nothing to change: the bytes stay.
        if codex_state(&text, &s) == want && !entries.iter().any(|e| e.skill == target && e.enabled.unwrap_or(true) != on) {
            prop_assert_eq!(&out, &text);
        }
    }
}
