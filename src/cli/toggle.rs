//! `skillscope toggle`: switch a skill on or off in skillscope's own state and in the agents' own
//! settings files, showing the exact change first; without `--on`/`--off`, show what each agent
//! does with the skill and why.

use crate::cli::args::LibraryArgs;
use crate::cli::output::{note_demo, use_color};
use crate::cli::style::Tone;
use crate::core::agents::{
    self, AgentSwitches, Applied, Badge, SwitchScope, ToggleError, TogglePlan, show_path,
};
use crate::core::front::state::{self, EnableState, StateSource};
use crate::core::skill::Skill;
use crate::core::source::Agent;
use crate::core::words::text::line;
use anyhow::Context;
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::path::Path;

#[derive(Debug, Args)]
#[command(
    after_help = "Without --agent, the toggle goes to skillscope's own state (state.json) and to every \
                  agent that reads the skill's folder (Claude Code, Codex, opencode, OpenClaw, GitHub \
                  Copilot CLI, Qwen Code; Lazy Skills for a skill in its own folder, whose switch is \
                  `auto_load` in the skill's SKILL.md); an agent that is not set up here (no settings \
                  file, no folder of its own, no command) and whose own folder does not hold the skill \
                  is skipped, so no settings file is created for an agent you do not use. With \
                  --agent, only there; --agent skillscope touches skillscope's own state only. Without --on or --off, \
                  prints each agent's current state and where it comes from. The changes are shown first and \
                  written once you say yes (--yes skips the question; without a terminal, --yes is \
                  needed)."
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
    /// Write without asking (needed where there is no terminal to ask on).
    #[arg(long, short = 'y')]
    pub yes: bool,
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
    let writable: Vec<&'static str> = switchable().map(Agent::as_str).chain([OWN]).collect();
    match Agent::named(s) {
        Some(a) if agent_of(a.as_str()).is_some() => Ok(a.as_str().to_string()),
        Some(a) if a.home().read_only_switch.is_some() => Err(format!(
            "{} has no settings switch: it switches a skill off in the skill's own frontmatter ({}), which skillscope reads but does not write",
            a.home().model.name,
            a.home().read_only_switch.unwrap_or_default()
        )),
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

/// The agents `toggle` switches: the registered ones, then those whose switch is in the skill's
/// own frontmatter (Lazy Skills' `auto_load`, design 000).
fn switchable() -> impl Iterator<Item = Agent> {
    agents::REGISTRY
        .iter()
        .map(|p| p.id())
        .chain(switched_in_frontmatter())
}

/// The agents whose switch is in each skill's own frontmatter (Lazy Skills' `auto_load`).
fn switched_in_frontmatter() -> impl Iterator<Item = Agent> {
    Agent::ALL
        .iter()
        .copied()
        .filter(|a| a.home().frontmatter_switch.is_some())
}

/// The agent `--agent` names (`None` for skillscope's own state): one [`switchable`].
fn agent_of(name: &str) -> Option<Agent> {
    switchable().find(|a| a.as_str() == name)
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
            crate::core::words::text::count_of(lib.len(), "skill", "skills"),
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
    /// The folder of the copy the plan is for.
    #[serde(skip)]
    skill: Option<std::path::PathBuf>,
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
            // A skill in the own folder of an agent switched in its frontmatter: that switch too.
            .chain(switched_in_frontmatter().filter(|a| skills.iter().any(|s| s.agent == *a)))
            .collect(),
    };
    let mut own = None;
    if args.agent.as_deref().is_none_or(|a| a == OWN) {
        let (change, state) = plan_own(skills, state_path, on);
        report.skillscope = Some(change);
        own = Some(state);
    }
    for agent in agents {
        let skill = skills
            .iter()
            .find(|s| switches.readers(s).contains(&agent) || s.agent == agent)
            .unwrap_or(&skills[0]);
        // Without --agent, an agent that is not set up here gets no settings file of its
        // own making: unless the skill is in its own folder, it is left alone.
        if args.agent.is_none()
            && !switches.installed(agent)
            && !skills.iter().any(|s| s.agent == agent)
        {
            report.agents.push(AgentChange {
                agent,
                plan: None,
                applied: None,
                skipped: Some(format!(
                    "{agent} is not set up here (no settings file, folder or command of its own); \
                     --agent {agent} writes its settings anyway"
                )),
                error: None,
                skill: None,
            });
            continue;
        }
        report
            .agents
            .push(plan_agent(args, switches, skill, agent, on));
    }
    report.changed = report
        .skillscope
        .as_ref()
        .is_some_and(|o| o.before != o.after)
        || report
            .agents
            .iter()
            .any(|a| a.plan.as_ref().is_some_and(|p| !p.changes_nothing()));
    let color = use_color();
    let home = switches.home();
    if !args.json {
        print_plans(&report, home, color);
    }
    if report.changed && !args.dry_run {
        let confirm = crate::cli::args::ConfirmArgs {
            dry_run: false,
            yes: args.yes,
            json: args.json,
        };
        let question = format!(
            "Switch {} {}?",
            line(&args.name),
            if on { "on" } else { "off" }
        );
        if let Some(code) = crate::cli::manage::ask(&confirm, &question)?.refused() {
            if !args.json {
                println!("nothing was written");
            }
            return Ok(code);
        }
        apply(&mut report, own, switches, skills, home, color, args.json);
    }
    let failed = report
        .skillscope
        .as_ref()
        .is_some_and(|o| o.error.is_some())
        || report.agents.iter().any(|a| a.error.is_some());
    if args.json {
        println!("{}", crate::cli::output::json_string(&report)?);
    } else if !report.changed {
        println!("nothing to change");
    } else if args.dry_run {
        println!("dry run: nothing was written");
    }
    Ok(i32::from(failed))
}

/// Skillscope's own state with the skill switched, not yet saved.
fn plan_own(skills: &[&Skill], state_path: &Path, on: bool) -> (OwnChange, EnableState) {
    let (mut own, diags) = EnableState::load(state_path);
    for d in &diags {
        eprintln!("warning: {}", line(&d.message));
    }
    let mut changed = false;
    for s in skills {
        changed |= own.set(s, on);
    }
    let out = OwnChange {
        file: state_path.to_path_buf(),
        before: if changed { !on } else { on },
        after: on,
        written: false,
        error: None,
    };
    (out, own)
}

fn plan_agent(
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
        skill: Some(skill.dir.clone()),
    };
    match switches.plan(skill, agent, args.scope.into(), on) {
        // Asked for every agent at once, a scope one agent lacks is not a failure.
        Err(e @ ToggleError::Unsupported { .. }) if args.agent.is_none() => {
            out.skipped = Some(e.to_string());
        }
        Err(e) => out.error = Some(e.to_string()),
        Ok(plan) => out.plan = Some(plan),
    }
    out
}

/// Writes what was planned and shown, and says what was written.
fn apply(
    report: &mut ToggleReport,
    own: Option<EnableState>,
    switches: &AgentSwitches,
    skills: &[&Skill],
    home: &Path,
    color: bool,
    json: bool,
) {
    if let (Some(o), Some(mut state)) = (report.skillscope.as_mut(), own)
        && o.before != o.after
    {
        match state.save() {
            Ok(()) => {
                o.written = true;
                if !json {
                    println!("skillscope: written {}", line(&show_path(&o.file, home)));
                }
            }
            Err(e) => {
                if !json {
                    println!("skillscope: not written");
                    crate::cli::output::warn(&e);
                }
                o.error = Some(e.to_string());
            }
        }
    }
    for a in &mut report.agents {
        let Some(plan) = a.plan.take() else { continue };
        if plan.changes_nothing() {
            a.plan = Some(plan);
            continue;
        }
        let Some(skill) = skills
            .iter()
            .find(|s| a.skill.as_ref().is_some_and(|d| *d == s.dir))
        else {
            a.plan = Some(plan);
            continue;
        };
        let name = a.agent.as_str();
        // What is shown is what was written: the plan made again under the file's lock when
        // another writer changed the file meanwhile (shown again then).
        match switches.apply(skill, &plan) {
            Ok((written, applied)) => {
                if !json {
                    if written.diff != plan.diff {
                        println!("{name}: the file changed meanwhile; written instead:");
                        print_plan(name, &written, home, color);
                    }
                    match &applied.backup {
                        Some(b) => println!(
                            "{name}: written {} (backup: {})",
                            line(&show_path(&applied.file, home)),
                            line(&show_path(b, home))
                        ),
                        None => {
                            println!("{name}: written {}", line(&show_path(&applied.file, home)));
                        }
                    }
                }
                a.plan = Some(written);
                a.applied = Some(applied);
            }
            Err(e) => {
                if !json {
                    println!("{name}: not written");
                    eprintln!("{name}: {}", line(&e.to_string()));
                }
                a.error = Some(e.to_string());
                a.plan = Some(plan);
            }
        }
    }
}

/// What would change: skillscope's own state and each agent's settings file as a diff.
fn print_plans(r: &ToggleReport, home: &Path, color: bool) {
    if let Some(o) = &r.skillscope {
        if o.before == o.after {
            println!("skillscope: already {}; nothing to change", on_off(o.after));
        } else {
            println!(
                "skillscope: {} → {}  {}",
                on_off(o.before),
                on_off(o.after),
                line(&show_path(&o.file, home))
            );
        }
    }
    for a in &r.agents {
        let name = a.agent.as_str();
        if let Some(why) = &a.skipped {
            println!("{name}: skipped: {}", line(why));
        }
        if let Some(p) = &a.plan {
            print_plan(name, p, home, color);
        }
        if let Some(e) = &a.error {
            eprintln!("{name}: {}", line(e));
        }
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
            let l = crate::core::words::text::text(l);
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
