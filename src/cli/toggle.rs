//! `skillscope toggle`: switch a skill on or off in skillscope's own state and in the agents' own
//! settings files, showing the exact change first; without `--on`/`--off`, show what each agent
//! does with the skill and why.

use crate::cli::args::LibraryArgs;
use crate::cli::output::{note_demo, use_color};
use crate::cli::style::Tone;
use crate::core::agents::{
    self, AgentSwitches, Applied, Badge, SwitchScope, ToggleError, TogglePlan, show_path,
};
use crate::core::skill::Skill;
use crate::core::source::Agent;
use crate::core::state::{self, EnableState, StateSource};
use crate::core::text::line;
use anyhow::Context;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::path::Path;

#[derive(Debug, Args)]
#[command(
    after_help = "Without --agent, the toggle goes to skillscope's own state (state.json) and to every \
                  agent that reads the skill's folder (Claude Code, Codex, opencode, OpenClaw, GitHub \
                  Copilot CLI, Qwen Code; Lazy Skills for a skill in its own folder, whose switch is \
                  `auto_load` in the skill's SKILL.md). With --agent, only \
                  there; --agent skillscope touches skillscope's own state only. Without --on or --off, \
                  prints each agent's current state and where it comes from."
)]
pub struct ToggleArgs {
    /// The skill's name.
    #[arg(add = clap_complete::ArgValueCompleter::new(crate::cli::complete::skill_names))]
    pub name: String,
    /// Switch the skill on.
    #[arg(long, conflicts_with = "off")]
    pub on: bool,
    /// Switch the skill off (kept on disk, left out of the listing).
    #[arg(long)]
    pub off: bool,
    /// Only this agent's settings (`skillscope`: only skillscope's own state).
    #[arg(long, value_parser = agent_name)]
    pub agent: Option<String>,
    /// Which settings file: user (~/...), project (shared), local (Claude Code's
    /// .claude/settings.local.json).
    #[arg(long, value_enum, default_value_t = ToggleScope::User)]
    pub scope: ToggleScope,
    /// Show the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--agent skillscope`: only skillscope's own state.
const OWN: &str = "skillscope";

/// `--agent`: an agent with switches of its own (`copilot` for `github-copilot`), or skillscope
/// itself; an agent skillscope models but cannot switch is refused with why.
fn agent_name(s: &str) -> Result<String, String> {
    if s == OWN {
        return Ok(OWN.to_string());
    }
    let writable: Vec<&'static str> = agents::REGISTRY
        .iter()
        .map(|p| p.id().as_str())
        .chain([Agent::LazySkills.as_str(), OWN])
        .collect();
    match Agent::named(s) {
        Some(a) if agent_of(a.as_str()).is_some() => Ok(a.as_str().to_string()),
        Some(Agent::Cline) => Err(
            "Cline has no settings switch: it switches a skill off in the skill's own frontmatter (`disabled: true`), which skillscope reads but does not write".to_string(),
        ),
        Some(a) => Err(format!(
            "{} has no per-skill switch skillscope writes (read-only); use one of {}",
            a.as_str(),
            writable.join(", ")
        )),
        None => Err(format!("unknown agent `{s}`: use {}", writable.join(", "))),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ToggleScope {
    User,
    Project,
    Local,
}

impl From<ToggleScope> for SwitchScope {
    fn from(s: ToggleScope) -> Self {
        match s {
            ToggleScope::User => SwitchScope::User,
            ToggleScope::Project => SwitchScope::Project,
            ToggleScope::Local => SwitchScope::Local,
        }
    }
}

/// The agent `--agent` names (`None` for skillscope's own state): a registered one, or Lazy
/// Skills, whose switch is `auto_load` in the skill's own SKILL.md (design 000).
fn agent_of(name: &str) -> Option<Agent> {
    agents::REGISTRY
        .iter()
        .map(|p| p.id())
        .chain([Agent::LazySkills])
        .find(|a| a.as_str() == name)
}

fn source_text(s: StateSource) -> &'static str {
    match s {
        StateSource::Saved => "saved in state.json",
        StateSource::FrontmatterAutoLoad => "frontmatter auto_load: false",
        StateSource::FrontmatterEnabled => "frontmatter enabled: false",
        StateSource::FrontmatterDisableModelInvocation => "frontmatter disable-model-invocation",
        StateSource::NotOptedIn => "off until opted in (its agent wants auto_load: true)",
        StateSource::Default => "default",
    }
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

pub fn run(args: ToggleArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let lib = library.load();
    note_demo(&lib);
    let mut skills: Vec<&Skill> = lib.skills.iter().filter(|s| s.name == args.name).collect();
    if skills.is_empty() {
        crate::cli::output::warn(format_args!(
            "no skill named {:?} among {}{}; `skillscope list` shows the names",
            args.name,
            crate::core::text::count_of(lib.len(), "skill", "skills"),
            crate::cli::args::did_you_mean(&lib, &args.name)
        ));
        return Ok(1);
    }
    // The copy each agent loads first: unshadowed ones before shadowed ones.
    skills.sort_by_key(|s| s.shadowed_by.is_some());
    let home = dirs::home_dir().context("cannot tell where the home folder is")?;
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let project = agents::project_root(&cwd, Some(&home));
    let (switches, diags) = AgentSwitches::load(&home, project.as_deref());
    for d in &diags {
        eprintln!("warning: {}", line(&d.message));
    }
    let state_path = state::default_path()
        .context("no configuration folder on this system; set SKILLSCOPE_CONFIG_DIR")?;
    match (args.on, args.off) {
        (false, false) => status(&args, &skills, &switches, &state_path),
        (on, _) => toggle(&args, &skills, &switches, &state_path, on),
    }
}

#[derive(Serialize)]
struct OwnStatus {
    enabled: bool,
    source: StateSource,
    file: std::path::PathBuf,
}

#[derive(Serialize)]
struct SkillStatus<'a> {
    name: &'a str,
    dir: &'a Path,
    skillscope: OwnStatus,
    agents: Vec<Badge>,
}

fn status(
    args: &ToggleArgs,
    skills: &[&Skill],
    switches: &AgentSwitches,
    state_path: &Path,
) -> anyhow::Result<i32> {
    let (own, diags) = EnableState::load(state_path);
    for d in &diags {
        eprintln!("warning: {}", line(&d.message));
    }
    let rows: Vec<SkillStatus> = skills
        .iter()
        .map(|s| {
            let (enabled, source) = own.explain(s);
            SkillStatus {
                name: &s.name,
                dir: &s.dir,
                skillscope: OwnStatus {
                    enabled,
                    source,
                    file: state_path.to_path_buf(),
                },
                agents: switches.badges(s),
            }
        })
        .collect();
    if args.json {
        println!("{}", crate::cli::output::json_string(&rows)?);
        return Ok(0);
    }
    let home = switches.home();
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            println!();
        }
        println!("{}  {}", line(row.name), line(&show_path(row.dir, home)));
        println!("  {:<12} {:<6} {:<20} why", "agent", "reads", "state");
        println!(
            "  {:<12} {:<6} {:<20} {}",
            "skillscope",
            "-",
            on_off(row.skillscope.enabled),
            source_text(row.skillscope.source)
        );
        for b in &row.agents {
            println!(
                "  {:<12} {:<6} {:<20} {}",
                b.agent.as_str(),
                if b.reads { "yes" } else { "no" },
                b.effective.state.as_str(),
                line(&b.effective.source)
            );
        }
    }
    Ok(0)
}

#[derive(Serialize)]
struct OwnChange {
    file: std::path::PathBuf,
    before: bool,
    after: bool,
    written: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct AgentChange {
    agent: Agent,
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<TogglePlan>,
    #[serde(skip_serializing_if = "Option::is_none")]
    applied: Option<Applied>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct ToggleReport<'a> {
    skill: &'a str,
    on: bool,
    dry_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    skillscope: Option<OwnChange>,
    agents: Vec<AgentChange>,
    /// Something was (or, in a dry run, would be) written.
    changed: bool,
}

fn toggle(
    args: &ToggleArgs,
    skills: &[&Skill],
    switches: &AgentSwitches,
    state_path: &Path,
    on: bool,
) -> anyhow::Result<i32> {
    let mut report = ToggleReport {
        skill: &args.name,
        on,
        dry_run: args.dry_run,
        skillscope: None,
        agents: Vec::new(),
        changed: false,
    };
    let agents: Vec<Agent> = match args.agent.as_deref() {
        Some(name) => agent_of(name).into_iter().collect(),
        None => switches
            .registry()
            .iter()
            .map(|p| p.id())
            .filter(|a| skills.iter().any(|s| switches.readers(s).contains(a)))
            // A skill in Lazy Skills' own folder: its `auto_load` too.
            .chain(
                skills
                    .iter()
                    .any(|s| s.agent == Agent::LazySkills)
                    .then_some(Agent::LazySkills),
            )
            .collect(),
    };
    if args.agent.as_deref().is_none_or(|a| a == OWN) {
        report.skillscope = Some(toggle_own(skills, state_path, on, args.dry_run));
    }
    for agent in agents {
        let skill = skills
            .iter()
            .find(|s| switches.readers(s).contains(&agent) || s.agent == agent)
            .unwrap_or(&skills[0]);
        report
            .agents
            .push(toggle_agent(args, switches, skill, agent, on));
    }
    report.changed = report
        .skillscope
        .as_ref()
        .is_some_and(|o| o.before != o.after)
        || report
            .agents
            .iter()
            .any(|a| a.plan.as_ref().is_some_and(|p| !p.changes_nothing()));
    let failed = report
        .skillscope
        .as_ref()
        .is_some_and(|o| o.error.is_some())
        || report.agents.iter().any(|a| a.error.is_some());
    if args.json {
        println!("{}", crate::cli::output::json_string(&report)?);
    } else {
        print_report(&report, switches.home(), args.dry_run);
    }
    Ok(i32::from(failed))
}

fn toggle_own(skills: &[&Skill], state_path: &Path, on: bool, dry_run: bool) -> OwnChange {
    let (mut own, diags) = EnableState::load(state_path);
    for d in &diags {
        eprintln!("warning: {}", line(&d.message));
    }
    let mut changed = false;
    for s in skills {
        changed |= own.set(s, on);
    }
    let mut out = OwnChange {
        file: state_path.to_path_buf(),
        before: if changed { !on } else { on },
        after: on,
        written: false,
        error: None,
    };
    if changed && !dry_run {
        match own.save() {
            Ok(()) => out.written = true,
            Err(e) => out.error = Some(e.to_string()),
        }
    }
    out
}

fn toggle_agent(
    args: &ToggleArgs,
    switches: &AgentSwitches,
    skill: &Skill,
    agent: Agent,
    on: bool,
) -> AgentChange {
    let mut out = AgentChange {
        agent,
        plan: None,
        applied: None,
        skipped: None,
        error: None,
    };
    match switches.plan(skill, agent, args.scope.into(), on) {
        // Asked for every agent at once, a scope one agent lacks is not a failure.
        Err(e @ ToggleError::Unsupported { .. }) if args.agent.is_none() => {
            out.skipped = Some(e.to_string());
        }
        Err(e) => out.error = Some(e.to_string()),
        Ok(plan) => {
            if !args.dry_run && !plan.changes_nothing() {
                // What is shown is what was written: the plan made again under the file's lock
                // when another writer changed the file meanwhile.
                match switches.apply(skill, &plan) {
                    Ok((written, a)) => {
                        out.plan = Some(written);
                        out.applied = Some(a);
                        return out;
                    }
                    Err(e) => out.error = Some(e.to_string()),
                }
            }
            out.plan = Some(plan);
        }
    }
    out
}

fn print_report(r: &ToggleReport, home: &Path, dry_run: bool) {
    let color = use_color();
    if let Some(o) = &r.skillscope {
        if o.before == o.after {
            println!("skillscope: already {}; nothing to change", on_off(o.after));
        } else {
            let done = match (o.written, dry_run) {
                (true, _) => "",
                (false, true) => " (dry run)",
                (false, false) => " (not written)",
            };
            println!(
                "skillscope: {} → {}  {}{done}",
                on_off(o.before),
                on_off(o.after),
                line(&show_path(&o.file, home))
            );
        }
        if let Some(e) = &o.error {
            crate::cli::output::warn(e);
        }
    }
    for a in &r.agents {
        let name = a.agent.as_str();
        if let Some(why) = &a.skipped {
            println!("{name}: skipped: {}", line(why));
        }
        if let Some(p) = &a.plan {
            print_plan(name, p, home, color);
            if let Some(applied) = &a.applied {
                match &applied.backup {
                    Some(b) => println!(
                        "{name}: written {} (backup: {})",
                        line(&show_path(&applied.file, home)),
                        line(&show_path(b, home))
                    ),
                    None => println!("{name}: written {}", line(&show_path(&applied.file, home))),
                }
            }
        }
        if let Some(e) = &a.error {
            if a.plan.as_ref().is_some_and(|p| !p.changes_nothing()) && !dry_run {
                println!("{name}: not written");
            }
            eprintln!("{name}: {}", line(e));
        }
    }
    if !r.changed {
        println!("nothing to change");
    } else if dry_run {
        println!("dry run: nothing was written");
    }
}

fn print_plan(name: &str, p: &TogglePlan, home: &Path, color: bool) {
    let file = line(&show_path(&p.file, home)).into_owned();
    if p.already() {
        println!(
            "{name}: already {} ({}); nothing to change",
            p.before_state.state,
            line(&p.before_state.source)
        );
    } else if p.changes_nothing() {
        println!("{name}: no change to {file} would help");
    } else {
        println!("{name}: {file}");
        // The diff quotes the settings file: its lines are escaped like any other text (tabs
        // kept, they indent real settings files).
        for l in p.diff.lines() {
            let l = crate::core::text::text(l);
            let style = crate::cli::style::Style::new(color);
            if l.starts_with("---") || l.starts_with("+++") {
                println!("{l}");
            } else if l.starts_with('+') {
                println!("{}", style.paint(Tone::Good, &l));
            } else if l.starts_with('-') {
                println!("{}", style.paint(Tone::Bad, &l));
            } else {
                println!("{l}");
            }
        }
        println!(
            "{name}: {} → {} ({})",
            p.before_state.state,
            p.after_state.state,
            line(&p.after_state.source)
        );
    }
    if let Some(note) = &p.note {
        println!("{name}: note: {}", line(note));
    }
}
