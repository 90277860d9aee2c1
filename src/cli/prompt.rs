//! `skillscope prompt`: print the skill listing an agent's system prompt would hold, in one of
//! the listing modes, or the cost of every mode side by side.

use crate::cli::args::{LibraryArgs, load_state};
use crate::cli::match_cmd::{MatcherChoice, index_for};
use crate::cli::output::note_demo;
use crate::core::Library;
use crate::core::agents::configured::Configured;
use crate::core::listing::{self, Fate, Format, Tier};
use crate::core::matching::Matcher;
use crate::core::pricing::modes::{
    self, AutoOptions, Comparison, ListingMode, Selections, saving_text,
};
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::core::words::text::thousands;
use clap::Args;
use serde_json::json;
use std::io::{IsTerminal, Write};

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Catalog format: xml, markdown, claude-code, codex, lazy-skills, gemini or opencode
    /// [default: the agent's own with --agent, else xml].
    #[arg(long, add = clap_complete::ArgValueCandidates::new(crate::cli::complete::listings))]
    pub format: Option<Format>,
    /// Entry tier: auto (by skill count), full, compact or names.
    #[arg(long, default_value_t = Tier::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::tiers))]
    pub tier: Tier,
    /// The model's context window in tokens (the claude-code and codex budgets are a share of it)
    /// [default: the agent's model's (Claude Code on its default model: 1,000,000; Codex:
    /// 500,000), else 200000].
    #[arg(long)]
    pub context_window: Option<usize>,
    /// The model the agent runs, where its listing budget depends on it: any model its client
    /// knows (Claude Code: claude-opus-5-5, its default, claude-sonnet-4-5, aliases such as
    /// sonnet or opus[1m], …; Codex: gpt-6.2-sol, its default, gpt-6.2-astra, …); one it does not
    /// know gets the client's fallback window, with a note [default: the model the client's own
    /// settings set (Claude Code: ANTHROPIC_MODEL, its managed, project and user settings' "model";
    /// Codex: model in $CODEX_HOME/config.toml or its profile), else its default].
    #[arg(long = "model", id = "client_model", value_name = "MODEL", add = clap_complete::ArgValueCandidates::new(crate::cli::complete::client_models))]
    pub client_model: Option<String>,
    /// Also print every skill's fate (full, trimmed, name only, dropped) and the listing's size
    /// on stderr.
    #[arg(long)]
    pub fates: bool,
    /// Exit with 1 when the listing is bigger than the context window (with --compare: the
    /// --mode's listing).
    #[arg(long)]
    pub fail_over_window: bool,
    /// Which skills the listing holds: enabled (switched on), all (every installed skill) or auto
    /// (only those --message makes relevant).
    #[arg(long, default_value_t = ListingMode::default())]
    pub mode: ListingMode,
    /// The same as --mode all.
    #[arg(long, conflicts_with = "mode")]
    pub all: bool,
    /// The message whose relevant skills --mode auto lists (and --compare prices).
    #[arg(long, value_name = "TEXT")]
    pub message: Option<String>,
    /// The matcher that decides relevance for auto; `all` takes the skills of every routing
    /// matcher together.
    #[arg(long, value_enum, default_value_t = MatcherChoice::One(Matcher::Bm25))]
    pub matcher: MatcherChoice,
    /// How many skills each matcher may make relevant (triggers never more than 3) [default:
    /// the agent's own auto limit (Lazy Skills: 10), else 5].
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
    /// Print what each mode costs per turn, side by side, instead of the listing.
    #[arg(long)]
    pub compare: bool,
    /// Print JSON: the listing's text with where the client places it, its tokens and fates,
    /// and what else the agent adds every turn (its built-ins' share, its skill tool's
    /// definition); with --compare, the modes side by side.
    #[arg(long)]
    pub json: bool,
    /// Encoding for token counts: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: Encoding,
    #[command(flatten)]
    pub scope: crate::cli::args::ScopeArgs,
    #[command(flatten)]
    pub view: crate::cli::args::AgentArgs,
}

impl PromptArgs {
    /// The listing format: the one asked for, else the agent's own, else xml.
    fn listing_format(&self) -> Format {
        self.format
            .or_else(|| {
                self.view
                    .agent
                    .map(|a| crate::core::agents::model::model(a).format)
            })
            .unwrap_or_default()
    }
}

/// The listing mode asked for (`--all` is `--mode all`); auto needs a message.
fn listing_mode(args: &PromptArgs) -> anyhow::Result<ListingMode> {
    let mode = if args.all {
        ListingMode::All
    } else {
        args.mode
    };
    if mode == ListingMode::Auto && args.message.is_none() {
        anyhow::bail!(
            "--mode auto lists only the skills a message makes relevant: give the message with --message TEXT"
        );
    }
    Ok(mode)
}

pub fn run(args: PromptArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let mode = listing_mode(&args)?;
    let format = args.listing_format();
    let agent = args.view.agent_for(Some(format));
    let settings = crate::cli::args::view_settings(agent);
    let model = crate::cli::args::client_model(agent, args.client_model.as_deref(), &settings)?;
    crate::cli::args::note_client_model(agent, model.as_ref());
    let request = args
        .view
        .request(format, args.tier, args.context_window, model);
    let opts = request.listing_options(&settings);
    let window = opts.context_window;
    let whole = library.load();
    let roots_code = crate::cli::args::require_skills(&whole, "list")?;
    let lib = crate::cli::args::view_library(&request, whole);
    note_demo(&lib);
    let unread = crate::cli::output::note_unread(&lib).max(roots_code);
    let state = load_state();
    let scope = args.scope.mask(&lib);
    let on = crate::core::front::load::enabled_mask(&lib, state.as_ref());
    let enabled: Vec<bool> = on.iter().zip(&scope).map(|(&o, &s)| o && s).collect();
    let auto = AutoOptions {
        matchers: args.matcher.matchers()?,
        top: args.top.unwrap_or_else(|| {
            lib.agent
                .and_then(|a| crate::core::agents::model::model(a).auto_max)
                .unwrap_or(modes::DEFAULT_TOP_K)
        }),
    };
    let relevant = match args.message.as_deref() {
        Some(message) => {
            args.matcher.note_not_built_in();
            let allowed = crate::core::matching::candidates(&lib, &on);
            let index = index_for(&lib, &auto.matchers)?;
            Some(modes::relevant(
                &index,
                message,
                &|i| allowed[i] && scope[i],
                &auto,
            ))
        }
        None => None,
    };
    let selections = Selections::new(enabled, &|i| scope[i], relevant.as_deref());
    let cache = TokenCache::open();
    if args.compare {
        let mut out = std::io::stdout().lock();
        let (_, cmp) = modes::compare(&lib, &selections, &opts, args.encoding, &cache, mode);
        crate::cli::args::save_cache(&cache);
        crate::cli::args::save_counts(&lib, &cache);
        let per_message = args.message.as_deref().map(|message| {
            per_message(
                &lib,
                message,
                &|i| selections.get(ListingMode::Enabled).is_some_and(|m| m[i]),
                args.encoding,
                &cache,
                cmp.get(ListingMode::Enabled).map_or(0, |m| m.tokens),
            )
        });
        let report = Report {
            lib: &lib,
            cmp: &cmp,
            args: &args,
            window,
            auto: &auto,
            relevant: relevant.as_deref(),
            per_message: per_message.as_ref(),
        };
        if args.json {
            crate::cli::output::write_json(&mut out, &report.json())?;
            writeln!(out)?;
        } else {
            out.write_all(report.text().as_bytes())?;
        }
        out.flush()?;
        let over = cmp.get(mode).is_some_and(|m| m.tokens as usize > window);
        return Ok(gate(&args, over).max(unread));
    }
    let mask = selections.get(mode).unwrap_or(&[]);
    let listing = listing::render(&lib, &|i| mask.get(i).copied().unwrap_or(false), &opts);
    // What a switch keeps out of the enabled listing is named with the switch, not left out
    // without a word.
    let off: Vec<usize> = if mode == ListingMode::Enabled {
        (0..lib.len()).filter(|&i| scope[i] && !on[i]).collect()
    } else {
        Vec::new()
    };
    let code = print_listing(
        &args,
        &lib,
        (&listing, &off),
        &cache,
        mode,
        &opts,
        request.model.as_ref(),
    )?;
    Ok(code.max(unread))
}

/// Says on stderr which client release the agent's view predicts when it is not the one
/// installed: the era the installed release falls in (an older or newer release than every
/// modelled one gets the nearest, and says so), else that the installed version differs from
/// the modelled one (read from the client's files, nothing run); and the calibration `verify`
/// kept for it: used ("calibrated against your Claude Code 2.1.340 on 2026-12-06"), or why not.
pub fn note_client_version(agent: crate::core::Agent) {
    if let Some(chosen) = crate::core::agents::eras::in_use(agent) {
        let name = crate::core::agents::model::model(agent).name;
        if let Some(note) = chosen.note(name) {
            crate::cli::output::warn(note);
        }
        if let Some(note) = chosen.calibration.note(name, agent.as_str()) {
            crate::cli::output::warn(note);
        }
        return;
    }
    let Some(client) = crate::core::verify::client(agent) else {
        return;
    };
    let installed = std::env::var_os("PATH").and_then(|p| client.installed(&p));
    if let Some(note) = installed.and_then(|i| client.version_note(&i.version)) {
        crate::cli::output::warn(note);
    }
}

/// What `prompt --agent AGENT [--model MODEL]` prints, and what it was made of.
pub struct Prediction {
    /// The agent's view of the library.
    pub lib: Library,
    /// Which of its skills are on.
    pub on: Vec<bool>,
    /// The listing options it was made with.
    pub opts: crate::core::listing::ListingOptions,
    /// The model its budget was made for, when the budget follows one the client knows.
    pub model: Option<&'static crate::core::agents::client::ClientModel>,
    /// The listing, as printed.
    pub text: String,
}

/// What `prompt --agent AGENT [--model MODEL]` prints (its enabled skills, the default tier),
/// and the agent's view of the library it was made from.
pub fn predicted(
    agent: crate::core::Agent,
    model: Option<&str>,
    library: &LibraryArgs,
) -> anyhow::Result<Prediction> {
    predicted_in(agent, model, library, &|k| std::env::var(k).ok())
}

/// [`predicted`] for the client run with the environment `env` (verify's run of it, which may
/// set what decides the listing, such as Gemini CLI's folder trust).
pub fn predicted_in(
    agent: crate::core::Agent,
    model: Option<&str>,
    library: &LibraryArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Prediction> {
    let format = crate::core::agents::model::model(agent).format;
    let settings = crate::cli::args::view_settings_in(Some(agent), env);
    let model = crate::cli::args::client_model(Some(agent), model, &settings)?;
    let request = crate::core::front::request::ViewRequest {
        agent: Some(agent),
        model,
        format,
        tier: Tier::default(),
        ..Default::default()
    };
    let opts = request.listing_options(&settings);
    let lib = crate::cli::args::view_library_in(&request, library.load(), env);
    let state = load_state();
    let on = crate::core::front::load::enabled_mask(&lib, state.as_ref());
    let listing = listing::render(&lib, &|i| on.get(i).copied().unwrap_or(false), &opts);
    // The bytes the client would send: whatever shows them escapes them.
    let text = listing.text;
    Ok(Prediction {
        lib,
        on,
        opts,
        model: request
            .model
            .filter(|m| m.resolved.known)
            .map(|m| m.resolved.model),
        text,
    })
}

/// Prints exactly the listing's bytes on stdout, as the agent sends them (a line break after them
/// only on a terminal), and with --fates every entry's fate and the sizes on stderr; the exit code
/// of --fail-over-window.
fn print_listing(
    args: &PromptArgs,
    lib: &Library,
    (listing, off): (&listing::Listing, &[usize]),
    cache: &TokenCache,
    mode: ListingMode,
    opts: &crate::core::listing::ListingOptions,
    model: Option<&Configured>,
) -> anyhow::Result<i32> {
    if args.json {
        return print_listing_json(args, lib, listing, cache, opts, model);
    }
    let window = opts.context_window;
    let mut out = std::io::stdout().lock();
    // Piped, the bytes the agent receives; on a terminal, every hazard escaped (the listing of
    // a client that sends them raw holds them).
    if std::io::stdout().is_terminal() {
        out.write_all(crate::core::words::text::text(&listing.text).as_bytes())?;
        if !listing.text.is_empty() {
            writeln!(out)?;
        }
    } else {
        out.write_all(listing.text.as_bytes())?;
    }
    out.flush()?;
    if !(args.fates || args.fail_over_window) {
        return Ok(0);
    }
    // Through the cache: an unchanged listing needs no encoder.
    let tokens = tokens::count_listing(lib, &listing.text, args.encoding, cache) as usize;
    crate::cli::args::save_cache(cache);
    crate::cli::args::save_counts(lib, cache);
    if args.fates {
        if let (Some(a), Some(m)) = (lib.agent, model) {
            let name = crate::core::agents::model::model(a).name;
            crate::cli::output::warn(format_args!(
                "{name}: {}",
                m.describe(name, dirs::home_dir().as_deref())
            ));
        }
        eprint!(
            "{}",
            fate_table(lib, (listing, off), tokens, args.encoding, mode, window)
        );
    } else if tokens > window {
        crate::cli::output::warn(window_warning(tokens, window));
    }
    Ok(gate(args, tokens > window))
}

/// `prompt --json`: the listing and everything the agent adds with it every turn, each part
/// apart, with where its client places the listing.
fn print_listing_json(
    args: &PromptArgs,
    lib: &Library,
    listing: &listing::Listing,
    cache: &TokenCache,
    opts: &crate::core::listing::ListingOptions,
    configured: Option<&Configured>,
) -> anyhow::Result<i32> {
    use crate::core::agents::budget as agent_budget;
    let window = opts.context_window;
    let enc = args.encoding;
    let tokens = if listing.text.is_empty() {
        0
    } else {
        tokens::count_listing(lib, &listing.text, enc, cache)
    };
    let agent = lib.agent;
    let model = configured.map(|c| c.resolved.model);
    // Every skill the listing was rendered with has an entry in it, listed or not.
    let mut rendered = vec![false; lib.len()];
    for e in &listing.entries {
        if let Some(r) = rendered.get_mut(e.index) {
            *r = true;
        }
    }
    let supplied = agent_budget::supplied(
        lib,
        &|i| rendered.get(i).copied().unwrap_or(false),
        opts,
        (listing, tokens),
        enc,
        cache,
    );
    let tool = agent
        .and_then(|a| agent_budget::tool_cost(a, &listing.names, model.map(|m| m.id), enc, cache));
    // The tool's definition as the client sends it (compact JSON).
    let tool_text = agent
        .and_then(|a| {
            crate::core::agents::tools::definition(a, &listing.names, model.map(|m| m.id))
        })
        .map(|d| d.json);
    crate::cli::args::save_cache(cache);
    crate::cli::args::save_counts(lib, cache);
    let per_turn = match &tool {
        // Cline's listing is inside its tool's description: counted once.
        Some(t) if t.holds_listing => t.tokens,
        Some(t) => tokens + t.tokens,
        None => tokens,
    };
    let v = json!({
        "agent": agent,
        "client": agent.and_then(|a| crate::core::agents::model::model(a).client_in_use()).map(|c| c.version),
        "model": configured.map(Configured::id),
        "model_source": configured.map(|c| model_source(agent, c)),
        "placement": agent.and_then(|a| crate::core::agents::placement::placement(a, model.map(|m| m.id))),
        "encoding": enc,
        "context_window": window,
        "listing": {
            "text": listing.text,
            "chars": listing.text.chars().count(),
            "tokens": tokens,
            "budget": listing.budget.map(|b| json!({"limit": b.limit, "unit": b.unit.as_str(), "used": listing.used})),
            "fates": {
                "full": listing.count(listing::Fate::Full),
                "trimmed": listing.count(listing::Fate::Trimmed),
                "name_only": listing.count(listing::Fate::NameOnly),
                "dropped": listing.count(listing::Fate::Dropped),
            },
            "client_choice": listing.client_choices(lib).into_iter().map(|(i, why)| json!({
                "name": lib.skills[i].name,
                "path": lib.skills[i].skill_md,
                "choice": why,
            })).collect::<Vec<_>>(),
        },
        "builtins": {"entries": supplied.entries, "tokens": supplied.tokens},
        "tool_definition": tool.map(|t| json!({"name": t.name, "text": tool_text, "chars": t.chars, "tokens": t.tokens})),
        "per_turn_tokens": per_turn,
    });
    let mut out = std::io::stdout().lock();
    crate::cli::output::write_json(&mut out, &v)?;
    writeln!(out)?;
    out.flush()?;
    Ok(gate(args, tokens as usize > window))
}

/// The exit code of `--fail-over-window`.
fn gate(args: &PromptArgs, over_window: bool) -> i32 {
    i32::from(args.fail_over_window && over_window)
}

/// The listing is bigger than the window: every turn would overflow it.
fn window_warning(tokens: usize, window: usize) -> String {
    format!(
        "the listing costs {} tokens per turn: {}",
        thousands(tokens as u64),
        crate::cli::output::window_share(tokens, window)
    )
}

/// The comparison of the three modes, as text or JSON.
struct Report<'a> {
    lib: &'a Library,
    cmp: &'a Comparison,
    args: &'a PromptArgs,
    /// The context window the listing is priced against.
    window: usize,
    auto: &'a AutoOptions,
    relevant: Option<&'a [usize]>,
    per_message: Option<&'a PerMessage>,
}

/// One message's cost for the agent: its listing plus what the message injects, beside putting
/// every enabled skill's SKILL.md in every turn (the ADR's "before").
#[derive(Debug, serde::Serialize)]
struct PerMessage {
    agent: crate::core::Agent,
    listing: u32,
    injected: u32,
    /// What goes to forked sub-agents instead of the main conversation (`context: fork`).
    forked: u32,
    injected_skills: Vec<String>,
    total: u32,
    every_body_every_turn: u32,
}

fn per_message(
    lib: &Library,
    message: &str,
    enabled: &dyn Fn(usize) -> bool,
    enc: Encoding,
    cache: &TokenCache,
    listing: u32,
) -> PerMessage {
    let agent = lib.agent.unwrap_or(crate::core::Agent::Generic);
    let model = crate::core::agents::model::model(agent);
    let allowed = crate::core::matching::candidates(lib, &crate::cli::args::enabled_mask(lib));
    let got = crate::core::front::inject::inject(
        lib,
        &crate::core::matching::Index::build(lib),
        model,
        message,
        &|i| allowed[i] && enabled(i),
        crate::core::matching::Matcher::Bm25,
    );
    let injected = tokens::count_text(&got.text, enc, cache);
    let forked = tokens::count_text(&got.forked, enc, cache);
    let bodies: u32 = tokens::count_l2(lib, enc, cache, &tokens::no_progress)
        .iter()
        .enumerate()
        .filter(|&(i, _)| enabled(i))
        .map(|(_, n)| n.unwrap_or(0))
        .sum();
    PerMessage {
        agent,
        listing,
        injected,
        forked,
        injected_skills: got
            .skills
            .iter()
            .map(|&i| lib.skills[i].id.clone())
            .collect(),
        total: listing.saturating_add(injected),
        every_body_every_turn: bodies,
    }
}

impl Report<'_> {
    fn text(&self) -> String {
        let mut s = format!(
            "{:<8} {:>7} {:>7} {:>9} {:>8} {:>11}\n",
            "mode", "skills", "listed", "tokens", "vs all", "vs enabled"
        );
        for m in &self.cmp.modes {
            s.push_str(&format!(
                "{:<8} {:>7} {:>7} {:>9} {:>8} {:>11}\n",
                m.mode.as_str(),
                thousands(m.skills as u64),
                thousands(m.listed as u64),
                thousands(u64::from(m.tokens)),
                saving_text(self.cmp.saving(m.mode, ListingMode::All)),
                saving_text(self.cmp.saving(m.mode, ListingMode::Enabled)),
            ));
        }
        s.push_str(&format!(
            "tokens per turn of the {} listing ({} tier), {}; an estimate for Claude models\n",
            self.args.listing_format(),
            self.args.tier,
            self.args.encoding
        ));
        for m in &self.cmp.modes {
            if m.tokens as usize > self.window {
                s.push_str(&format!(
                    "warning: {} mode: {}\n",
                    m.mode.as_str(),
                    window_warning(m.tokens as usize, self.window)
                ));
            }
        }
        match (&self.args.message, self.relevant) {
            (Some(msg), Some(rel)) => {
                let names: Vec<String> = rel
                    .iter()
                    // Ids, not names: in a big library several relevant skills share a name.
                    .map(|&i| crate::core::words::text::line(&self.lib.skills[i].id).into_owned())
                    .collect();
                let shown = if names.is_empty() {
                    "nothing".to_string()
                } else {
                    names.join(", ")
                };
                s.push_str(&format!(
                    "auto: {} (top {}) for {} lists {shown}\n",
                    self.auto.label(),
                    self.auto.top,
                    crate::core::words::text::line(&format!("{msg:?}"))
                ));
            }
            _ => s.push_str(
                "auto: give --message TEXT to price the skills a message makes relevant\n",
            ),
        }
        if let Some(p) = self.per_message {
            let saving = if p.every_body_every_turn == 0 {
                String::new()
            } else {
                format!(
                    " ({})",
                    saving_text(Some(
                        100.0 * (1.0 - f64::from(p.total) / f64::from(p.every_body_every_turn))
                    ))
                )
            };
            s.push_str(&format!(
                "per message for {}: listing {} + injected {} ({}) = {} tokens{saving}; every body every turn: {} tokens\n",
                p.agent,
                thousands(u64::from(p.listing)),
                thousands(u64::from(p.injected)),
                if p.injected_skills.is_empty() {
                    "nothing".to_string()
                } else {
                    crate::core::words::text::line(&p.injected_skills.join(", ")).into_owned()
                },
                thousands(u64::from(p.total)),
                thousands(u64::from(p.every_body_every_turn)),
            ));
            if p.forked > 0 {
                s.push_str(&format!(
                    "  and {} tokens as a forked sub-agent's prompt (context: fork), outside the main conversation\n",
                    thousands(u64::from(p.forked)),
                ));
            }
        }
        s
    }

    fn json(&self) -> serde_json::Value {
        let modes: Vec<_> = self
            .cmp
            .modes
            .iter()
            .map(|m| {
                json!({
                    "mode": m.mode,
                    "skills": m.skills,
                    "listed": m.listed,
                    "chars": m.chars,
                    "tokens": m.tokens,
                    "saving_vs_all_percent": self.cmp.saving(m.mode, ListingMode::All).map(round1),
                    "saving_vs_enabled_percent": self.cmp.saving(m.mode, ListingMode::Enabled).map(round1),
                    "window_percent": crate::cli::output::window_percent(m.tokens as usize, self.window),
                    "over_window": m.tokens as usize > self.window,
                })
            })
            .collect();
        let relevant: Option<Vec<_>> = self.relevant.map(|r| {
            r.iter()
                .map(|&i| {
                    let s = &self.lib.skills[i];
                    json!({"name": s.name, "id": s.id, "path": s.skill_md})
                })
                .collect()
        });
        json!({
            "format": self.args.listing_format(),
            "agent": self.lib.agent,
            "tier": self.args.tier,
            "context_window": self.window,
            "encoding": self.args.encoding,
            "message": self.args.message,
            "matchers": self.auto.matchers,
            "top": self.auto.top,
            "modes": modes,
            "relevant": relevant,
            "per_message": self.per_message,
        })
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn fate_table(
    lib: &Library,
    (listing, off): (&listing::Listing, &[usize]),
    tokens: usize,
    enc: Encoding,
    mode: ListingMode,
    window: usize,
) -> String {
    let mut s = String::new();
    let budget = listing
        .budget
        .map_or_else(|| "no budget".to_string(), |b| format!("budget {b}"));
    let whose = lib.agent.map_or_else(String::new, |a| {
        format!(" for {}", crate::core::agents::model::model(a).name)
    });
    s.push_str(&format!(
        "listing{whose} ({mode} mode): {} tier, {} chars, ~{} tokens ({enc}), {} of {budget}; {}\n",
        listing.tier,
        thousands(listing.text.chars().count() as u64),
        thousands(tokens as u64),
        thousands(listing.used as u64),
        crate::cli::output::window_share(tokens, window),
    ));
    if tokens > window {
        s.push_str(&format!("warning: {}\n", window_warning(tokens, window)));
    }
    let counts: Vec<String> = Fate::ALL
        .iter()
        .map(|f| format!("{} {f}", thousands(listing.count(*f) as u64)))
        .collect();
    s.push_str(&format!("fates: {}\n", counts.join(", ")));
    if !off.is_empty() {
        s.push_str(&format!(
            "switched off: {} (not in the listing)\n",
            thousands(off.len() as u64)
        ));
    }
    let widest = listing
        .entries
        .iter()
        .map(|e| e.index)
        .chain(off.iter().copied())
        .map(|i| crate::cli::output::shown_width(&lib.skills[i].name))
        .max()
        .unwrap_or(0);
    // The table goes to stderr: it is cut only when stderr is a terminal.
    let names = crate::cli::output::Column::new(widest, 0, 40, std::io::stderr().is_terminal());
    let choices = listing.client_choices(lib);
    for e in &listing.entries {
        let skill = &lib.skills[e.index];
        let name = names.pad(&names.fit(&skill.name));
        // A skill listed only through its agent's fallbacks says so.
        let fallback = skill
            .parse_diagnostics
            .iter()
            .find(|d| d.rule == crate::core::findings::catalogue::RuleId::ListedByFallback);
        let reason = match (e.reason.is_empty(), fallback) {
            (true, Some(d)) => d.message.as_str(),
            _ => e.reason.as_str(),
        };
        // What the client decides as it runs, after what the listing did.
        let reason = match choices.get(&e.index) {
            Some(c) if reason.is_empty() => c.clone(),
            Some(c) => format!("{reason}; {c}"),
            None => reason.to_string(),
        };
        let line = format!(
            "{:<9} {name}  {}",
            e.fate.as_str(),
            crate::core::words::text::line(&reason)
        );
        s.push_str(line.trim_end());
        s.push('\n');
    }
    for &i in off {
        let skill = &lib.skills[i];
        let name = names.pad(&names.fit(&skill.name));
        let own = lib
            .agent
            .is_some_and(|a| crate::core::agents::own_switch(a, skill).is_some());
        let why = if own {
            "off by its agent's own switch".to_string()
        } else {
            format!(
                "off in skillscope's own switches (skillscope toggle {} --on)",
                crate::core::words::text::line(&skill.name)
            )
        };
        let line = format!("{:<9} {name}  {why}", "off");
        s.push_str(line.trim_end());
        s.push('\n');
    }
    for b in &listing.builtins {
        let name = names.pad(&names.fit(b.name));
        let why = if b.fate == Fate::Full {
            "built into the agent's client"
        } else {
            "built into the agent's client; over the listing budget: listed by name only"
        };
        s.push_str(&format!("{:<9} {name}  {why}\n", b.fate.as_str()));
    }
    s
}

/// Where a model was set, for JSON: `{"from": "file", "path": …}`, `{"from": "env", "variable":
/// …}`, `{"from": "profile", …}`, `{"from": "default"}` or `{"from": "chosen"}` (`--model`), with
/// the catalogue's model it means and whether the client knows it.
pub fn model_source(agent: Option<crate::core::Agent>, c: &Configured) -> serde_json::Value {
    use crate::core::agents::configured::Origin;
    let mut v = match &c.origin {
        Origin::Chosen => json!({"from": "chosen"}),
        Origin::Env(var) => json!({"from": "env", "variable": var}),
        Origin::File(p) => json!({"from": "file", "path": p}),
        Origin::Profile(p, name) => json!({"from": "profile", "path": p, "profile": name}),
        Origin::Default => json!({"from": "default"}),
    };
    if let Some(o) = v.as_object_mut() {
        o.insert("name".into(), json!(c.name));
        o.insert("known".into(), json!(c.resolved.known));
        o.insert(
            "context_window".into(),
            json!(c.window.unwrap_or(c.resolved.model.context_window)),
        );
        if let Some(a) = agent {
            let m = crate::core::agents::model::model(a);
            o.insert(
                "text".into(),
                json!(c.describe(m.name, dirs::home_dir().as_deref())),
            );
        }
    }
    v
}
