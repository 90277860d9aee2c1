//! A toggle written through to an agent's settings file: planned first (the exact change, as a
//! unified diff), then applied atomically with a backup, refusing files that do not parse, are
//! read-only, or changed since the plan.

use super::error::{NotHeld, ToggleError};
use super::json;
use super::planned::{Applied, TogglePlan, desired, unified_diff};
use super::plugin::{AgentState, show_path};
use super::scope::SwitchScope;
use super::switches::AgentSwitches;
use crate::core::files::fsx;
use crate::core::files::paths::write_atomic;
use crate::core::skill::Skill;
use crate::core::source::Agent;
use std::path::{Path, PathBuf};

/// Where the copy of a file from before the last toggle is kept.
pub fn backup_path(file: &Path) -> PathBuf {
    let mut name = file
        .file_name()
        .map(std::ffi::OsStr::to_os_string)
        .unwrap_or_default();
    name.push(".skillscope.bak");
    file.with_file_name(name)
}

pub(super) fn plan(
    sw: &AgentSwitches,
    skill: &Skill,
    agent: Agent,
    scope: SwitchScope,
    on: bool,
) -> Result<TogglePlan, ToggleError> {
    let file = sw.settings_file(agent, scope)?;
    let (existed, before) = read_current(&file)?;
    plan_on(sw, skill, agent, scope, on, file, existed, before)
}

/// The plan for the file's text `before` (`existed`: the file was there).
#[allow(clippy::too_many_arguments)]
fn plan_on(
    sw: &AgentSwitches,
    skill: &Skill,
    agent: Agent,
    scope: SwitchScope,
    on: bool,
    file: PathBuf,
    existed: bool,
    before: String,
) -> Result<TogglePlan, ToggleError> {
    let base = sw.with_text(&file, &before);
    let before_state = base.effective(skill, agent);
    let want = desired(on);
    // Every candidate is worked out even when nothing needs to change, so a file that does not
    // parse is refused the same way every time.
    let candidates = match sw.plugin(agent) {
        Some(p) => p.candidates(&file, &before, skill, on, sw.home())?,
        None => Vec::new(),
    };
    let after = if before_state.state == want {
        before.clone()
    } else {
        choose(
            &base,
            &file,
            skill,
            agent,
            &before,
            before_state.state,
            want,
            candidates,
        )
    };
    let after_state = base.with_text(&file, &after).effective(skill, agent);
    let mut notes = Vec::new();
    if after_state.state != want {
        notes.push(format!(
            "{agent} will still treat it as {}: {}",
            after_state.state, after_state.source
        ));
    }
    if !sw.readers(skill).contains(&agent) {
        notes.push(format!(
            "{agent} does not read the folder {} is in",
            skill.name
        ));
    }
    let shown = show_path(&file, sw.home());
    Ok(TogglePlan {
        agent,
        scope,
        skill: skill.name.clone(),
        on,
        diff: unified_diff(&shown, existed, &before, &after),
        file,
        existed,
        before,
        after,
        before_state,
        after_state,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    })
}

/// The file's text now: empty when it does not exist yet. Only a regular file is read.
fn read_current(file: &Path) -> Result<(bool, String), ToggleError> {
    match fsx::read_settings(file)? {
        Some(bytes) => match String::from_utf8(bytes) {
            Ok(s) => Ok((true, s)),
            Err(e) => {
                let text = String::from_utf8_lossy(e.as_bytes());
                let (line, column) = json::line_col(&text, e.utf8_error().valid_up_to());
                Err(ToggleError::Unparsable {
                    file: file.to_path_buf(),
                    format: "UTF-8 text",
                    line,
                    column,
                    message: "invalid UTF-8".to_string(),
                })
            }
        },
        None => Ok((false, String::new())),
    }
}

/// The first candidate that gives the state asked for; else the one that comes closest, if it
/// is closer than the current state; else no change.
#[allow(clippy::too_many_arguments)]
fn choose(
    base: &AgentSwitches,
    file: &Path,
    skill: &Skill,
    agent: Agent,
    before: &str,
    current: AgentState,
    want: AgentState,
    candidates: Vec<String>,
) -> String {
    let distance = |s: AgentState| (s as i32 - want as i32).abs();
    let mut best: Option<(i32, String)> = None;
    for text in candidates {
        let d = distance(base.with_text(file, &text).effective(skill, agent).state);
        if d == 0 {
            return text;
        }
        if d < distance(current) && best.as_ref().is_none_or(|(b, _)| d < *b) {
            best = Some((d, text));
        }
    }
    best.map_or_else(|| before.to_string(), |(_, t)| t)
}

/// Writes a planned change under the file's exclusive lock: the file is read again while the
/// lock is held and, when it changed since the plan (another skillscope's toggle, an editor),
/// the change is planned again on top of what is there now, so nothing is lost. The old text is
/// kept in `<file>.skillscope.bak`, the new one replaces the file in one rename (after an
/// fsync), and the file is read back before the lock is released: `written` is said only of a
/// file that holds the change. A file that is a link is written through the link.
///
/// Returns the plan actually written (the one given, or the one made on the newer text).
pub(super) fn apply(
    sw: &AgentSwitches,
    skill: &Skill,
    plan: &TogglePlan,
    wait: std::time::Duration,
) -> Result<(TogglePlan, Applied), ToggleError> {
    let target = match std::fs::symlink_metadata(&plan.file) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(&plan.file).map_err(|source| ToggleError::Read {
                file: plan.file.clone(),
                source,
            })?
        }
        _ => plan.file.clone(),
    };
    let _lock = fsx::lock(&target, wait)?;
    let (existed, now) = read_current(&target)?;
    let plan = if existed == plan.existed && now == plan.before {
        plan.clone()
    } else {
        plan_on(
            sw,
            skill,
            plan.agent,
            plan.scope,
            plan.on,
            plan.file.clone(),
            existed,
            now,
        )?
    };
    if plan.changes_nothing() {
        let applied = Applied {
            file: plan.file.clone(),
            written: false,
            backup: None,
        };
        return Ok((plan, applied));
    }
    let perms = ensure_writable(&plan, &target)?;
    let backup = if plan.existed {
        let b = backup_path(&plan.file);
        write_atomic(&b, plan.before.as_bytes(), perms.clone()).map_err(|source| {
            ToggleError::Write {
                file: b.clone(),
                source,
            }
        })?;
        Some(b)
    } else {
        None
    };
    write_atomic(&target, plan.after.as_bytes(), perms).map_err(|source| ToggleError::Write {
        file: plan.file.clone(),
        source,
    })?;
    let not_there = |what: NotHeld| ToggleError::NotPersisted {
        file: plan.file.clone(),
        what,
    };
    match read_current(&target) {
        Ok((true, text)) if text == plan.after => {}
        Ok(_) => return Err(not_there(NotHeld::OtherText)),
        Err(e) => return Err(not_there(NotHeld::Unreadable(Box::new(e)))),
    }
    let applied = Applied {
        file: plan.file.clone(),
        written: true,
        backup,
    };
    Ok((plan, applied))
}

/// Read-only is judged on the permission bits, not on whether a write would fail: the
/// superuser can write anything, and the user's "read-only" must still hold then.
fn ensure_writable(
    plan: &TogglePlan,
    target: &Path,
) -> Result<Option<std::fs::Permissions>, ToggleError> {
    let perms = if plan.existed {
        let meta = std::fs::metadata(target).map_err(|source| ToggleError::Read {
            file: plan.file.clone(),
            source,
        })?;
        if meta.permissions().readonly() {
            return Err(ToggleError::ReadOnly {
                file: plan.file.clone(),
            });
        }
        Some(meta.permissions())
    } else {
        None
    };
    // The rename needs the folder; a folder that exists must be writable.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(meta) = std::fs::metadata(dir)
        && meta.permissions().readonly()
    {
        return Err(ToggleError::ReadOnly {
            file: dir.to_path_buf(),
        });
    }
    Ok(perms)
}

impl AgentSwitches {
    /// Works out the change that switches the skill on or off for `agent` in the `scope` file,
    /// without writing anything. The file is read afresh; one that does not parse is refused.
    pub fn plan(
        &self,
        skill: &Skill,
        agent: Agent,
        scope: SwitchScope,
        on: bool,
    ) -> Result<TogglePlan, ToggleError> {
        if let Some(own) = agent.home().frontmatter_toggle {
            return (own.plan)(skill, scope, on, self.home());
        }
        plan(self, skill, agent, scope, on)
    }

    /// Writes a plan made by [`AgentSwitches::plan`] for `skill`: under the file's exclusive
    /// lock, on top of the file as it is then (planned again when it changed meanwhile), with a
    /// backup, and read back before the lock goes. Returns the plan actually written.
    pub fn apply(
        &self,
        skill: &Skill,
        plan: &TogglePlan,
    ) -> Result<(TogglePlan, Applied), ToggleError> {
        if let Some(own) = plan.agent.home().frontmatter_toggle {
            return (own.apply)(
                skill,
                plan,
                self.home(),
                crate::core::files::fsx::lock_wait(),
            );
        }
        apply(self, skill, plan, crate::core::files::fsx::lock_wait())
    }
}

impl AgentSwitches {
    /// A plan for every agent that reads the skill's folder, as a "switch it off everywhere"
    /// action needs. An agent without a settings file for `scope` comes back as
    /// [`ToggleError::Unsupported`].
    pub fn plan_readers(
        &self,
        skill: &Skill,
        scope: SwitchScope,
        on: bool,
    ) -> Vec<(Agent, Result<TogglePlan, ToggleError>)> {
        self.readers(skill)
            .into_iter()
            .map(|agent| {
                // A switch is written only for an agent that is here: a Claude Code user gets
                // no opencode.json for the folder opencode would also read.
                let plan = if self.installed(agent) {
                    self.plan(skill, agent, scope, on)
                } else {
                    Err(ToggleError::NotInstalled { agent })
                };
                (agent, plan)
            })
            .collect()
    }
}
