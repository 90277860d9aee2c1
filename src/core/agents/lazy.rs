//! Lazy Skills' one switch, `auto_load` in each skill's own frontmatter (design 000): whether
//! its view lists a skill, and the toggle that writes the switch into the SKILL.md, planned as a
//! diff first and written atomically.
//!
//! Design 000 has no settings file: "Skills must be explicitly enabled/disabled by users or
//! auto-enabled via auto_load: true", and `scan()` sets `enabled=auto_enable and
//! metadata.get("auto_load", False)` for every folder it scans. The only switch that outlives a
//! session is therefore the frontmatter line.

use super::error::{AutoLoadError, Shape, ToggleError};
use super::planned::{Applied, TogglePlan, unified_diff};
use super::plugin::{AgentState, Effective, show_path};
use super::scope::SwitchScope;
use crate::core::agents::home::{FrontmatterToggle, Home};
use crate::core::agents::model::{AgentModel, EnableDefault, Injection};
use crate::core::files::fsx;
use crate::core::files::head_edit;
use crate::core::findings::catalogue::Profile;
use crate::core::listing::Format;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use std::path::Path;
use std::time::Duration;

/// Everything skillscope knows of Lazy Skills.
pub static HOME: Home = Home {
    model: AgentModel {
        agent: Agent::LazySkills,
        name: "Lazy Skills",
        folders: Agent::LazySkills.skill_folders(),
        format: Format::LazySkills,
        profile: Profile::LazySkills,
        enable_default: EnableDefault::OptIn,
        injection: Injection::SkillLoaded,
        auto_max: Some(10),
        probe_timeout: Duration::from_secs(5),
        schema_name_fallback: true,
        source: "the Lazy Skills design",
        ..crate::core::agents::model::AS_GIVEN
    },
    frontmatter_switch: Some(|s| s.frontmatter.auto_load == Some(true)),
    not_opted_in: Some(not_opted_in),
    frontmatter_toggle: Some(FrontmatterToggle { plan, apply }),
    new_skill_fields,
    ..Home::AS_GIVEN
};

/// A new skill's fields for Lazy Skills: its type, when to use it, its triggers and `auto_load`
/// on (its skills are opt-in).
fn new_skill_fields(words: &str) -> String {
    use crate::core::words::naming::yaml_scalar;
    format!(
        "type: contextual\n\
         when_to_use: {}\n\
         triggers:\n  - {}\n\
         auto_load: true\n",
        yaml_scalar(&format!("The user asks about {words}.")),
        yaml_scalar(words)
    )
}

/// Why the Lazy Skills view leaves `skill` out, when it does: not opted in by `auto_load`.
pub fn not_opted_in(skill: &Skill) -> Option<String> {
    match skill.frontmatter.auto_load {
        Some(true) => None,
        Some(false) => Some(
            "off in Lazy Skills: its auto_load is false (Lazy Skills loads a skill only with auto_load: true)"
                .to_string(),
        ),
        None => Some(
            "off in Lazy Skills: no auto_load: true in its frontmatter (its skills are opt-in)"
                .to_string(),
        ),
    }
}

/// What Lazy Skills does with the skill whose SKILL.md reads `text`.
fn effective(text: &str, file: &Path) -> Effective {
    let auto_load = crate::core::frontmatter::parse(text.as_bytes(), true)
        .frontmatter
        .auto_load;
    let (state, source) = match auto_load {
        Some(true) => (AgentState::On, "frontmatter auto_load: true"),
        Some(false) => (AgentState::Off, "frontmatter auto_load: false"),
        None => (AgentState::Off, "no auto_load in its frontmatter (opt-in)"),
    };
    Effective {
        state,
        source: source.to_string(),
        file: Some(file.to_path_buf()),
    }
}

/// The change that switches `skill` on or off for Lazy Skills: its SKILL.md with `auto_load`
/// set, as a diff, written nowhere.
pub(super) fn plan(
    skill: &Skill,
    scope: SwitchScope,
    on: bool,
    home: &Path,
) -> Result<TogglePlan, ToggleError> {
    if scope != SwitchScope::User {
        return Err(ToggleError::Unsupported {
            agent: Agent::LazySkills,
            scope,
            why: "its switch is `auto_load` in the skill's own SKILL.md (toggle without --scope)",
        });
    }
    let file = &skill.skill_md;
    let before = read(file)?;
    plan_on(skill, on, before, home)
}

fn plan_on(
    skill: &Skill,
    on: bool,
    before: String,
    home: &Path,
) -> Result<TogglePlan, ToggleError> {
    let file = skill.skill_md.clone();
    let before_state = effective(&before, &file);
    let want = if on { AgentState::On } else { AgentState::Off };
    // Refused alike whether or not a change is needed, as the settings editors do.
    let edited = with_auto_load(&before, on).map_err(|why| ToggleError::Shape {
        file: file.clone(),
        what: why.into(),
    })?;
    let after = if before_state.state == want {
        before.clone()
    } else {
        edited
    };
    let after_state = effective(&after, &file);
    let note = (after_state.state != want).then(|| {
        format!(
            "lazy-skills will still treat it as {}: {}",
            after_state.state, after_state.source
        )
    });
    let shown = show_path(&file, home);
    Ok(TogglePlan {
        agent: Agent::LazySkills,
        scope: SwitchScope::User,
        skill: skill.name.clone(),
        on,
        diff: unified_diff(&shown, true, &before, &after),
        file,
        existed: true,
        before,
        after,
        before_state,
        after_state,
        note,
    })
}

fn read(file: &Path) -> Result<String, ToggleError> {
    let bytes = fsx::read_regular(file)?.ok_or_else(|| ToggleError::Shape {
        file: file.to_path_buf(),
        what: Shape::Gone,
    })?;
    String::from_utf8(bytes).map_err(|e| ToggleError::Unparsable {
        file: file.to_path_buf(),
        format: "UTF-8 text",
        line: 1,
        column: 1,
        message: e.to_string(),
    })
}

/// `text` with its frontmatter's `auto_load` saying `on`: the value of an `auto_load:` line
/// replaced in place (its comment kept), else a line added before the closing `---`; in a
/// frontmatter written as one inline `{…}` mapping, the entry edited or added inside its braces.
/// Nothing else of the file changes, and the result is parsed again: every other value must read
/// as before. `Err` says why it cannot be done without rewriting more.
pub(crate) fn with_auto_load(text: &str, on: bool) -> Result<String, AutoLoadError> {
    let edited = auto_load_edited(text, on)?;
    crate::core::frontmatter::check_edit(
        text,
        &edited,
        &crate::core::frontmatter::Change::Bool("auto_load".to_string(), on),
    )
    .map_err(AutoLoadError::Unfaithful)?;
    Ok(edited)
}

fn auto_load_edited(text: &str, on: bool) -> Result<String, AutoLoadError> {
    let value = if on { "true" } else { "false" };
    let body_start = text.strip_prefix('\u{feff}').map_or(0, |_| 3);
    let lines: Vec<&str> = text[body_start..].split_inclusive('\n').collect();
    if lines.first().is_none_or(|l| l.trim_end() != "---") {
        return Err(AutoLoadError::NoFrontmatter);
    }
    let Some(close) = lines.iter().skip(1).position(|l| l.trim_end() == "---") else {
        return Err(AutoLoadError::Unclosed);
    };
    let close = close + 1;
    let eol = if lines[0].ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    if lines[1..close]
        .iter()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .is_some_and(|l| l.trim_start().starts_with('{'))
    {
        let from = lines[..1].concat().len() + body_start;
        let to = lines[..close].concat().len() + body_start;
        return in_flow(text, from, to, value);
    }
    let found: Vec<usize> = (1..close)
        .filter(|&i| {
            lines[i]
                .strip_prefix("auto_load")
                .is_some_and(|r| r.trim_start().starts_with(':'))
        })
        .collect();
    match found.as_slice() {
        [] => out.insert(close, format!("auto_load: {value}{eol}")),
        [i] => {
            let continues = lines
                .get(i + 1)
                .is_some_and(|n| *i + 1 < close && n.starts_with([' ', '\t', '-']));
            if continues {
                return Err(AutoLoadError::SeveralLines);
            }
            let line = lines[*i];
            let ending = &line[line.trim_end_matches(['\r', '\n']).len()..];
            let (_, after_colon) = line.split_once(':').unwrap_or((line, ""));
            let comment = comment_of(after_colon.trim_end_matches(['\r', '\n']));
            out[*i] = format!("auto_load: {value}{comment}{ending}");
        }
        _ => return Err(AutoLoadError::Repeated),
    }
    Ok(format!("{}{}", &text[..body_start], out.concat()))
}

/// `text` whose frontmatter's YAML (`text[from..to]`) is one inline `{…}` mapping, with its
/// `auto_load` entry's plain value replaced, or `auto_load: value` added before the closing
/// brace.
fn in_flow(text: &str, from: usize, to: usize, value: &str) -> Result<String, AutoLoadError> {
    let yaml = &text[from..to];
    let Some(close) = yaml.rfind('}') else {
        return Err(AutoLoadError::UnclosedFlow);
    };
    let found: Vec<usize> = yaml
        .match_indices("auto_load")
        .map(|(i, _)| i)
        .filter(|&i| {
            yaml[..i].trim_end().ends_with(['{', ','])
                && yaml[i + "auto_load".len()..].trim_start().starts_with(':')
        })
        .collect();
    let (start, end, text_in) = match found.as_slice() {
        [] => {
            let open = yaml.find('{').unwrap_or(0);
            let empty = yaml[open + 1..close].trim().is_empty();
            let before = yaml[..close]
                .trim_end_matches([' ', '\t', '\r', '\n'])
                .len();
            let sep = if empty || yaml[..before].ends_with(',') {
                ""
            } else {
                ", "
            };
            (before, before, format!("{sep}auto_load: {value}"))
        }
        [i] => {
            let colon =
                i + "auto_load".len() + yaml[i + "auto_load".len()..].find(':').unwrap_or(0);
            let rest = &yaml[colon + 1..];
            let lead = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            let start = colon + 1 + lead;
            let len = yaml[start..]
                .find([',', '}', '\n', '\r', '#'])
                .unwrap_or(yaml.len() - start);
            let old = yaml[start..start + len].trim_end();
            if old.is_empty() || old.starts_with(['[', '{', '"', '\'', '&', '*', '!', '|', '>']) {
                return Err(AutoLoadError::NotPlain);
            }
            (start, start + old.len(), value.to_string())
        }
        _ => return Err(AutoLoadError::Repeated),
    };
    Ok(format!(
        "{}{text_in}{}",
        &text[..from + start],
        &text[from + end..]
    ))
}

/// The ` # comment` at the end of a value, with the space before it, when there is one.
fn comment_of(value: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in value.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if prev == ' ' => quote = Some(c),
            (None, '#') if prev == ' ' || prev == '\t' => {
                let start = value[..i].trim_end().len();
                return &value[start..];
            }
            _ => {}
        }
        prev = c;
    }
    ""
}

/// Writes a plan made by [`plan`]: under the SKILL.md's lock, on top of the file as it is then
/// (planned again when it changed meanwhile), its head replaced in one rename by
/// [`head_edit::write_head_locked`], which refuses when another program (one that takes no lock)
/// changed the file after it was read here: that program's text is kept and the error says so.
/// Read back before the lock goes. No backup is left beside it: a file in the skill's folder
/// would become one of its resources.
pub(super) fn apply(
    skill: &Skill,
    plan: &TogglePlan,
    home: &Path,
    wait: std::time::Duration,
) -> Result<(TogglePlan, Applied), ToggleError> {
    apply_watched(skill, plan, home, wait, &mut || {})
}

/// [`apply`], `before_rename` run in the write's last moment before its final check (tests
/// change the file there, as another program would).
pub(super) fn apply_watched(
    skill: &Skill,
    plan: &TogglePlan,
    home: &Path,
    wait: std::time::Duration,
    before_rename: &mut dyn FnMut(),
) -> Result<(TogglePlan, Applied), ToggleError> {
    // A SKILL.md that links out of its skill's folder is not written through.
    head_edit::write_target(&plan.file, &skill.dir)?;
    let _lock = fsx::lock(&plan.file, wait)?;
    let head = head_edit::read_head(&plan.file)?.ok_or_else(|| ToggleError::Shape {
        file: plan.file.clone(),
        what: Shape::Gone,
    })?;
    let now = read(&plan.file)?;
    // Both reads of one file: another program wrote between them.
    let Some(rest) = now.as_bytes().strip_prefix(head.bytes.as_slice()) else {
        return Err(head_edit::HeadError::Changed {
            path: plan.file.clone(),
        }
        .into());
    };
    let plan = if now == plan.before {
        plan.clone()
    } else {
        plan_on(skill, plan.on, now.clone(), home)?
    };
    let mut applied = Applied {
        file: plan.file.clone(),
        written: false,
        backup: None,
    };
    if plan.changes_nothing() {
        return Ok((plan, applied));
    }
    let meta = std::fs::metadata(&plan.file).map_err(|source| ToggleError::Read {
        file: plan.file.clone(),
        source,
    })?;
    if meta.permissions().readonly() {
        return Err(ToggleError::ReadOnly {
            file: plan.file.clone(),
        });
    }
    // The switch is in the frontmatter: the new head is the new text without the rest of the
    // file, which is copied through as it is.
    let new_head =
        plan.after
            .as_bytes()
            .strip_suffix(rest)
            .ok_or_else(|| ToggleError::WouldReformat {
                file: plan.file.clone(),
            })?;
    head_edit::write_head_locked(&head, new_head, &skill.dir, before_rename)?;
    if read(&plan.file).ok().as_deref() != Some(plan.after.as_str()) {
        return Err(ToggleError::NotPersisted {
            file: plan.file.clone(),
            what: crate::core::agents::error::NotHeld::OtherText,
        });
    }
    applied.written = true;
    Ok((plan, applied))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn why_auto_load_cannot_be_set_reads_as_a_sentence() {
        let why = |t: &str| with_auto_load(t, true).unwrap_err().to_string();
        assert_eq!(
            why("no frontmatter\n"),
            "it has no frontmatter to hold `auto_load`"
        );
        assert_eq!(
            why("---\nname: a\n"),
            "its frontmatter is never closed with `---`"
        );
        assert_eq!(
            why("---\n{name: a\n---\n"),
            "its inline frontmatter mapping is never closed with `}`"
        );
        assert_eq!(
            why("---\nauto_load: 1\nauto_load: 2\n---\n"),
            "it has `auto_load` more than once"
        );
    }

    /// A Lazy Skills skill in a throwaway folder, with its SKILL.md, and the home.
    fn lazy_skill(text: &str) -> (tempfile::TempDir, Skill) {
        let t = tempfile::tempdir().unwrap();
        let root = crate::core::source::Root::new(
            t.path().join("skills"),
            Agent::LazySkills,
            crate::core::source::Scope::User,
        );
        let dir = root.path.join("pdf");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), text).unwrap();
        let skill = Skill::new(&root, dir.clone(), dir.join("SKILL.md"));
        (t, skill)
    }

    /// Another program (one that takes no lock) edits the SKILL.md while the switch is being
    /// written, after it was read: the switch is not written, the other program's text is
    /// kept, and the error says the file changed.
    #[test]
    fn an_edit_made_while_the_switch_is_written_is_kept_and_reported() {
        let mine = "---\nname: pdf\ndescription: d\nauto_load: true\n---\nbody\n";
        let theirs = "---\nname: pdf\ndescription: theirs\nauto_load: true\n---\nbody and more\n";
        let (t, skill) = lazy_skill(mine);
        let p = plan(&skill, SwitchScope::User, false, t.path()).unwrap();
        assert!(!p.changes_nothing());
        let file = skill.skill_md.clone();
        let mut hook = || std::fs::write(&file, theirs).unwrap();
        let wait = std::time::Duration::from_millis(50);
        let err = apply_watched(&skill, &p, t.path(), wait, &mut hook).unwrap_err();
        assert!(
            matches!(
                err,
                ToggleError::Head(crate::core::files::head_edit::HeadError::Changed { .. })
            ),
            "{err}"
        );
        assert!(
            err.to_string().contains("changed since it was read"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&skill.skill_md).unwrap(), theirs);
        // Without the other program, the same plan is written, the body copied through.
        std::fs::write(&skill.skill_md, mine).unwrap();
        let (_, applied) = apply(&skill, &p, t.path(), wait).unwrap();
        assert!(applied.written);
        assert_eq!(
            std::fs::read_to_string(&skill.skill_md).unwrap(),
            "---\nname: pdf\ndescription: d\nauto_load: false\n---\nbody\n"
        );
    }

    /// An edit made between the plan and the write is planned on: the switch goes on top.
    #[test]
    fn an_edit_made_after_the_plan_is_kept_and_the_switch_goes_on_top() {
        let (t, skill) = lazy_skill("---\nname: pdf\ndescription: d\n---\nbody\n");
        let p = plan(&skill, SwitchScope::User, true, t.path()).unwrap();
        std::fs::write(
            &skill.skill_md,
            "---\nname: pdf\ndescription: new\n---\nnew body\n",
        )
        .unwrap();
        let wait = std::time::Duration::from_millis(50);
        let (_, applied) = apply(&skill, &p, t.path(), wait).unwrap();
        assert!(applied.written);
        assert_eq!(
            std::fs::read_to_string(&skill.skill_md).unwrap(),
            "---\nname: pdf\ndescription: new\nauto_load: true\n---\nnew body\n"
        );
    }

    #[test]
    fn auto_load_is_replaced_in_place_or_added_last() {
        let t = "---\nname: a\nauto_load: yes # mine\ndescription: d\n---\nbody\n";
        assert_eq!(
            with_auto_load(t, false).unwrap(),
            "---\nname: a\nauto_load: false # mine\ndescription: d\n---\nbody\n"
        );
        let t = "\u{feff}---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\n";
        assert_eq!(
            with_auto_load(t, true).unwrap(),
            "\u{feff}---\r\nname: a\r\ndescription: d\r\nauto_load: true\r\n---\r\nbody\r\n"
        );
        // `auto_loader:` is another key.
        let t = "---\nauto_loader: 1\n---\n";
        assert_eq!(
            with_auto_load(t, true).unwrap(),
            "---\nauto_loader: 1\nauto_load: true\n---\n"
        );
    }

    #[test]
    fn an_inline_frontmatter_gets_auto_load_inside_its_braces() {
        // Before, `auto_load: true` went on a line of its own after the `{…}` line: invalid YAML.
        let t = "---\n{name: a, description: d}\n---\nbody\n";
        assert_eq!(
            with_auto_load(t, true).unwrap(),
            "---\n{name: a, description: d, auto_load: true}\n---\nbody\n"
        );
        let t = "---\n{\n  name: a,\n  auto_load: no,\n  description: d\n} # kept\n---\n";
        let on = with_auto_load(t, true).unwrap();
        assert_eq!(
            on,
            "---\n{\n  name: a,\n  auto_load: true,\n  description: d\n} # kept\n---\n"
        );
        let p = crate::core::frontmatter::parse(on.as_bytes(), true);
        assert_eq!(p.frontmatter.auto_load, Some(true));
        assert_eq!(p.frontmatter.description(), Some("d"));
        assert_eq!(
            with_auto_load("---\n{}\n---\n", false).unwrap(),
            "---\n{auto_load: false}\n---\n"
        );
    }

    #[test]
    fn an_edit_that_would_change_other_values_is_refused() {
        // The anchor's own line: replacing its value would take the anchor, and the alias with it.
        let err = with_auto_load("---\nauto_load: &x yes\nother: *x\n---\n", true).unwrap_err();
        assert!(
            matches!(err, AutoLoadError::Unfaithful(_))
                && err.to_string().contains("cannot be done faithfully"),
            "{err}"
        );
        // An inline value that is not a plain word.
        assert!(with_auto_load("---\n{auto_load: [x]}\n---\n", true).is_err());
    }

    #[test]
    fn what_cannot_be_edited_in_place_is_refused() {
        assert!(with_auto_load("no frontmatter\n", true).is_err());
        assert!(with_auto_load("---\nname: a\n", true).is_err());
        assert!(with_auto_load("---\nauto_load:\n  - x\n---\n", true).is_err());
        assert!(with_auto_load("---\nauto_load: 1\nauto_load: 2\n---\n", true).is_err());
    }
}
