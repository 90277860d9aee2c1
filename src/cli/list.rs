//! `skillscope list`: every skill with its source, state, diagnostics and token costs.

use crate::cli::args::LibraryArgs;
use crate::cli::output::{AgentStateJson, DiagnosticJson, SkillJson, TokensJson};
use crate::core::findings::diagnostic::Counts;
use crate::core::library::GroupedResources;
use crate::core::listing::Format;
use crate::core::rules::{self, CheckOptions, Profile};
use crate::core::tokens::Encoding;
use crate::core::words::text::{count_of, thousands};
use clap::Args;
use std::io::Write;

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Print a JSON array instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Whose rules decide the diagnostics: spec, claude-code, codex, opencode, lazy-skills,
    /// qwen-code, github-copilot, cline or openclaw (default: spec; lazy-skills for the bundled
    /// demo library).
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::cli::complete::profiles))]
    pub profile: Option<Profile>,
    /// Encoding for the token counts: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: Encoding,
    /// The listing format whose entry is each skill's L1: xml, markdown, claude-code or codex.
    #[arg(long, default_value_t = Format::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::listings))]
    pub listing: Format,
    /// Count everything afresh and leave the on-disk token cache alone.
    #[arg(long)]
    pub no_cache: bool,
    #[command(flatten)]
    pub scope: crate::cli::args::ScopeArgs,
    #[command(flatten)]
    pub view: crate::cli::args::AgentArgs,
}

/// With `--agent`: what that agent does with each skill, `None` for those it does not read (left
/// out of the list). Its own switches decide where it has them, skillscope's store elsewhere.
fn agent_states(
    lib: &crate::core::Library,
    view: &crate::cli::args::AgentArgs,
    enabled: &[bool],
) -> Option<Vec<Option<AgentStateJson>>> {
    use crate::core::agents::view::Seen;
    let agent = view.agent?;
    let switches = crate::cli::args::agent_switches(&[agent]);
    let seen = crate::core::agents::view::seen(lib, agent, &view.files, switches.as_ref());
    Some(
        seen.iter()
            .enumerate()
            .map(|(i, s)| {
                let private_off = s.listed()
                    && !crate::core::agents::obeys_own_switches(agent, &lib.skills[i])
                    && !enabled[i];
                let s = if private_off {
                    Seen::Off("off in skillscope's own switches".to_string())
                } else {
                    s.clone()
                };
                AgentStateJson::of(agent, &s)
            })
            .collect(),
    )
}

/// What the agent's counts leave out: only Claude models count with a tokenizer of their own
/// that no one publishes.
fn claude_note(agent: Option<crate::core::Agent>) -> &'static str {
    agent.map_or("", |a| a.home().count_note)
}

/// What `list` shows: the skills in its scope with their findings, counts and states.
struct Listed<'a> {
    lib: &'a crate::core::Library,
    diags: &'a [Vec<crate::core::Diagnostic>],
    tokens: &'a [crate::core::tokens::SkillTokens],
    states: &'a Option<Vec<Option<AgentStateJson>>>,
    enabled: &'a [bool],
    /// Each skill in the scope (and read by the agent in view).
    shown: Vec<bool>,
}

/// `list --json`: one object per skill shown.
fn write_json(
    out: &mut impl Write,
    args: &ListArgs,
    l: &Listed<'_>,
    installed: Option<crate::core::rules::Installed>,
) -> anyhow::Result<()> {
    let (lib, diags, tokens, states, enabled) = (l.lib, l.diags, l.tokens, l.states, l.enabled);
    let shown = |i: usize, _s: &crate::core::skill::Skill| l.shown[i];
    let mut sources = crate::core::manage::manifest::provenances(&lib.skills, &lib.seen);
    // Found by the rules' run already (which the body rules always make).
    let (mut installed, notes) = installed.unwrap_or_else(|| {
        crate::core::installers::records_seen(
            &lib.skills,
            dirs::home_dir().as_deref(),
            std::sync::Arc::clone(&lib.seen),
        )
    });
    for n in &notes {
        crate::cli::output::warn(n);
    }
    // Made a wave at a time and written before the next is made: the objects of thousands of
    // skills are never all held at once.
    let mut array = crate::cli::output::JsonArray::new(0);
    let mut wave: Vec<SkillJson> = Vec::with_capacity(crate::cli::output::JsonArray::WAVE);
    let shown_skills = lib
        .skills
        .iter()
        .zip(diags)
        .enumerate()
        .filter(|(i, (s, _))| shown(*i, s));
    for (i, (s, d)) in shown_skills {
        wave.push(SkillJson {
            agent_state: states.as_ref().and_then(|st| st.get(i).cloned().flatten()),
            license: Some(s.frontmatter.get("license").map(|f| &f.value)),
            compatibility: Some(s.frontmatter.get("compatibility").map(|f| &f.value)),
            metadata: Some(s.frontmatter.get("metadata").map(|f| &f.value)),
            enabled: Some(enabled[i]),
            shadowed_by: Some(s.shadowed_by.map(|w| lib.skills[w].dir.to_string_lossy())),
            resources: Some(GroupedResources::of(&s.resources)),
            diagnostics: Some(d.iter().map(DiagnosticJson::of).collect()),
            source: sources.get_mut(i).and_then(Option::take),
            installed: installed[i]
                .take()
                .map(|r| crate::cli::output::InstalledJson::of(r, &s.dir)),
            linked: Some(crate::cli::output::PlaceJson::all(s)),
            readers: Some(crate::core::agents::model::readers(s)),
            ..SkillJson::of(
                s,
                TokensJson {
                    encoding: args.encoding,
                    l1: tokens[i].l1,
                    l2: tokens[i].l2,
                    l3: tokens[i].l3_with_schema(),
                    schema: tokens[i].schema,
                },
            )
        });
        if wave.len() == crate::cli::output::JsonArray::WAVE {
            array.write(&mut *out, &wave)?;
            wave.clear();
        }
    }
    array.write(&mut *out, &wave)?;
    array.finish(&mut *out)?;
    writeln!(out)?;
    Ok(())
}

/// A skill's mark in `list`'s table: its state where one is known, else on, shadowed or off.
fn glyph(
    state: Option<&Option<AgentStateJson>>,
    on: bool,
    s: &crate::core::skill::Skill,
) -> &'static str {
    match state.and_then(Option::as_ref) {
        Some(st) => st.glyph(),
        None => match (on, s.shadowed_by) {
            (false, _) => "○",
            (true, Some(_)) => "◌",
            (true, None) => "●",
        },
    }
}

/// `list`'s table: a line per skill shown, then the totals.
fn write_table(out: &mut impl Write, args: &ListArgs, l: &Listed<'_>) -> anyhow::Result<()> {
    let (lib, diags, tokens, states, enabled) = (l.lib, l.diags, l.tokens, l.states, l.enabled);
    let shown = |i: usize, _s: &crate::core::skill::Skill| l.shown[i];
    let widest = lib
        .skills
        .iter()
        .enumerate()
        .filter(|(i, s)| shown(*i, s))
        .map(|(_, s)| crate::cli::output::shown_width(&s.id))
        .max()
        .unwrap_or(0);
    let names =
        crate::cli::output::Column::new(widest, 4, 40, crate::cli::output::stdout_is_terminal());
    let sources: Vec<String> = lib.skills.iter().map(source).collect();
    // Wider than 16 only for a skill linked into other agents' folders.
    let sw = lib
        .skills
        .iter()
        .zip(&sources)
        .enumerate()
        .filter(|(i, (s, _))| shown(*i, s))
        .map(|(_, (_, x))| x.chars().count())
        .max()
        .unwrap_or(0)
        .max(16);
    writeln!(
        out,
        "  {}  {:sw$}  {:>6}  {:>7}  {:>7}  {:>6}  {:>5}",
        names.pad("NAME"),
        "SOURCE",
        "L1",
        "L2",
        "L3",
        "ERRORS",
        "WARNS"
    )?;
    let num = |n: Option<u32>| n.map_or_else(|| "-".to_string(), |n| thousands(u64::from(n)));
    for (i, ((((s, d), on), t), src)) in lib
        .skills
        .iter()
        .zip(diags)
        .zip(enabled)
        .zip(tokens)
        .zip(&sources)
        .enumerate()
    {
        if !shown(i, s) {
            continue;
        }
        let c = Counts::of(d);
        let name = names.pad(&names.fit(&s.id));
        let glyph = glyph(states.as_ref().and_then(|st| st.get(i)), *on, s);
        writeln!(
            out,
            "{} {}  {:sw$}  {:>6}  {:>7}  {:>7}  {:>6}  {:>5}",
            glyph,
            name,
            src,
            num(t.l1),
            num(t.l2),
            num(t.l3_with_schema()),
            thousands(c.errors as u64),
            thousands(c.warnings as u64)
        )?;
    }
    let scope: Vec<bool> = lib
        .skills
        .iter()
        .enumerate()
        .map(|(i, s)| shown(i, s))
        .collect();
    let on = enabled
        .iter()
        .zip(&scope)
        .filter(|(e, s)| **e && **s)
        .count();
    let whose = args.view.agent.map_or(String::new(), |a| {
        format!(" for {}", crate::core::agents::model::model(a).name)
    });
    let claude = claude_note(args.view.agent);
    writeln!(
        out,
        "{}, {} enabled{whose}; token counts are {} estimates{claude}",
        count_of(scope.iter().filter(|s| **s).count(), "skill", "skills"),
        thousands(on as u64),
        args.encoding
    )?;
    Ok(())
}

pub fn run(args: ListArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let (lib, cache) = library.load_with_cache(args.no_cache);
    let roots_code = crate::cli::args::require_skills(&lib, "list")?;
    crate::cli::output::note_demo(&lib);
    let unread = crate::cli::output::note_unread(&lib).max(roots_code);
    // With an agent in view its own switches decide (below); skillscope's store is asked only
    // for what that agent has no switch for, so no other agent's settings are read.
    // Without an agent, the on/off mask and the shadowed findings come from one view per agent.
    let (enabled, every_agent_shadowed) = match args.view.agent {
        Some(_) => (
            crate::core::front::load::enabled_mask(&lib, crate::cli::args::load_state().as_ref()),
            None,
        ),
        None => crate::cli::args::enabled_and_shadowed(&lib),
    };
    let states = agent_states(&lib, &args.view, &enabled);
    // One agent's list: the skills it reads, on as it has them.
    let shown = |i: usize, s: &crate::core::skill::Skill| {
        args.scope.contains(s)
            && states
                .as_ref()
                .is_none_or(|st| st.get(i).is_some_and(Option::is_some))
    };
    let enabled: Vec<bool> = match &states {
        Some(st) => st
            .iter()
            .map(|s| {
                s.as_ref()
                    .is_some_and(|s| matches!(s.state, "on" | "name-only"))
            })
            .collect(),
        None => enabled,
    };
    let is_enabled = |i: usize| enabled[i];
    // The config file's `[rules]` weigh the findings as they do in `check`.
    let selection = crate::core::rules::select::Selection {
        config: crate::config::active()
            .map(|c| c.rules.clone())
            .unwrap_or_default(),
        ..Default::default()
    };
    // A shadowed copy as the agents that read it resolve its name (with an agent in view, no
    // other agent's settings are read).
    let shadowed = match args.view.agent {
        Some(a) => crate::cli::args::shadowed(&lib, &[a]),
        None => every_agent_shadowed,
    };
    let (checked, tokens) = rayon::join(
        || {
            rules::check(
                &lib,
                &CheckOptions {
                    // Judged as `check` judges: each skill by its agent's profile, with the
                    // same rules (the body's too), so both give one skill the same findings.
                    per_agent: args.profile.is_none() && rules::has_agent_skills(&lib),
                    profile: args.profile.unwrap_or_else(|| Profile::fitting(&lib)),
                    body: true,
                    tokens: Some((args.encoding, &cache)),
                    enabled: Some(&is_enabled),
                    selection: Some(&selection),
                    vectors: None,
                    shadowed: shadowed.as_deref(),
                },
            )
        },
        || crate::cli::args::count_levels(&lib, args.encoding, args.listing, &cache),
    );
    let rules::Checked {
        diagnostics: diags,
        installed,
        ..
    } = checked;
    crate::cli::args::save_cache(&cache);
    // What the rules read off the bodies is kept whatever was encoded, as `check` keeps it: a
    // body over the body rule's token limit is encoded again on every run (only counts within
    // the limit are cached), so waiting for a run that encoded nothing would reread every body
    // on every `list`.
    crate::cli::args::save_index(&lib);
    let listed = Listed {
        lib: &lib,
        diags: &diags,
        tokens: &tokens,
        states: &states,
        enabled: &enabled,
        shown: lib
            .skills
            .iter()
            .enumerate()
            .map(|(i, s)| shown(i, s))
            .collect(),
    };
    let mut out = crate::cli::output::report_out();
    if args.json {
        write_json(&mut out, &args, &listed, installed)?;
    } else {
        write_table(&mut out, &args, &listed)?;
    }
    out.flush()?;
    crate::cli::output::keep_until_exit((lib, cache, diags, tokens));
    Ok(unread)
}

/// The SOURCE column: agent and scope of the skill's folder, then the agents whose folders link
/// to it (`agents/project+claude`).
fn source(s: &crate::core::Skill) -> String {
    if s.command {
        let scope = match s.scope {
            crate::core::source::Scope::Project => "proj",
            other => other.as_str(),
        };
        format!("{}/{scope}-cmd", s.agent.badge())
    } else {
        format!(
            "{}/{}{}",
            s.agent.badge(),
            s.scope,
            crate::core::pricing::budget::linked_badges(s, "/")
        )
    }
}
