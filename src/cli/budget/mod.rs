//! `skillscope budget`: token costs per level, per skill and in total, with the listing's fates.

pub(crate) mod args;
pub(crate) mod baseline;

use crate::cli::args::LibraryArgs;
use crate::cli::output::note_demo;
use crate::cli::output::{SKILL_SCHEMA_VERSION, SkillJson, TokensJson};
use crate::core::Library;
use crate::core::agents::budget::{self as agent_budget, Supplied, ToolCost};
use crate::core::listing::{self, BudgetUnit, Fate, Format, Listing, Tier};
use crate::core::pricing::budget;
use crate::core::pricing::usage::{self, UseCost};
use crate::core::skill::KindSource;
use crate::core::tokens::{self, Encoding, SkillTokens};
use crate::core::words::text::{count_of, thousands};
use args::{BudgetArgs, OutputFormat};
use serde::Serialize;
use std::io::Write;

/// Which skills the listing holds: those switched on in skillscope's state (every skill when
/// there is no state file).
pub(crate) fn enabled(lib: &Library) -> impl Fn(usize) -> bool + use<> {
    let on = crate::cli::args::enabled_mask(lib);
    move |i| on.get(i).copied().unwrap_or(true)
}

pub fn run(args: BudgetArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    if let Some(m) = args.model().and_then(|m| m.mismatch(args.encoding)) {
        eprintln!("skillscope: {m}");
    }
    if args.save_baseline.is_some()
        || args.baseline.is_some()
        || args.baseline_ref.is_some()
        || args.fail_on_drop
        || args.fail_on_increase.is_some()
    {
        return crate::cli::budget::baseline::run(&args, &library);
    }
    let agent = args.view.agent_for(Some(args.listing()));
    let settings = crate::cli::args::view_settings(agent);
    let configured = args.configured_model(&settings)?;
    let request = args
        .view
        .request(args.listing(), args.tier, args.context_window, configured);
    let opts = request.listing_options(&settings);
    let window = opts.context_window;
    let (lib, cache) = library.load_with_cache(args.no_cache);
    let roots_code = crate::cli::args::require_skills(&lib, "count")?;
    let lib = crate::cli::args::view_library(&request, lib);
    note_demo(&lib);
    let unread = crate::cli::output::note_unread(&lib).max(roots_code);
    let enabled = enabled(&lib);
    let scope = args.scope.mask(&lib);
    let (listing, counts) = rayon::join(
        || listing::render(&lib, &|i| enabled(i) && scope[i], &opts),
        || crate::cli::args::count_levels(&lib, args.encoding, args.listing(), &cache),
    );
    let listing_tokens = tokens::count_listing(&lib, &listing.text, args.encoding, &cache) as usize;
    let configured = request.model;
    let tool = agent.and_then(|a| {
        agent_budget::tool_cost(
            a,
            &listing.names,
            configured.as_ref().map(|c| c.resolved.model.id),
            args.encoding,
            &cache,
        )
    });
    let supplied = agent_budget::supplied(
        &lib,
        &|i| enabled(i) && scope[i],
        &opts,
        (&listing, u32::try_from(listing_tokens).unwrap_or(u32::MAX)),
        args.encoding,
        &cache,
    );
    crate::cli::args::save_cache(&cache);
    crate::cli::args::save_counts(&lib, &cache);
    let used = usage::costs_when_used(
        &lib,
        &counts.iter().map(levels).collect::<Vec<_>>(),
        &usage::composite_links(&lib),
    );
    let report = Report {
        lib: &lib,
        listing: &listing,
        listing_tokens,
        tool: tool.as_ref(),
        supplied,
        counts: &counts,
        used: &used,
        scope: &scope,
        args: &args,
        window,
        configured: configured.as_ref(),
    };
    let mut out = crate::cli::output::report_out();
    match args.format {
        OutputFormat::Json => {
            crate::cli::output::write_json(&mut out, &report.json())?;
            writeln!(out)?;
        }
        OutputFormat::Text => report.write_text(&mut out)?,
        OutputFormat::Markdown => out.write_all(report.markdown().as_bytes())?,
    }
    out.flush()?;
    crate::cli::output::keep_until_exit((lib, cache, counts, used));
    let over = args
        .max_listing_tokens
        .is_some_and(|max| listing_tokens > max);
    if over {
        crate::cli::output::warn(format_args!(
            "the listing costs {} tokens per turn, over the limit of {}",
            thousands(listing_tokens as u64),
            thousands(args.max_listing_tokens.unwrap_or_default() as u64)
        ));
    }
    let over_window = listing_tokens > window;
    // JSON carries only the figures: the warning goes beside it.
    if over_window && (args.fail_over_window || args.format == OutputFormat::Json) {
        crate::cli::output::warn(window_warning(listing_tokens, window));
    }
    let failed = over || (args.fail_over_window && over_window);
    Ok(i32::from(failed).max(unread))
}

/// Rows of the text table made at once (on every core) before they are written.
const ROWS_AT_ONCE: usize = 512;

/// `row(i)` for each `i` of `order`, in order, made on every core `run` rows at a time, each run
/// written before the next is made.
fn write_in_runs(
    out: &mut impl Write,
    order: &[usize],
    run: usize,
    row: impl Fn(usize) -> String + Sync,
) -> std::io::Result<()> {
    use rayon::prelude::*;
    let mut rows: Vec<String> = Vec::with_capacity(order.len().min(run));
    for part in order.chunks(run.max(1)) {
        rows.clear();
        rows.par_extend(part.par_iter().map(|&i| row(i)));
        for r in &rows {
            out.write_all(r.as_bytes())?;
        }
    }
    Ok(())
}

/// The figures a skill's cost when used is made of.
fn levels(c: &SkillTokens) -> usage::Levels {
    usage::Levels {
        l1: c.l1.map(u64::from),
        l2: c.l2.map(u64::from),
        schema: c.schema.map(u64::from),
    }
}

struct Report<'a> {
    lib: &'a Library,
    listing: &'a Listing,
    listing_tokens: usize,
    /// The agent's skill tool, when its client declares one beside the listing, and its tokens.
    tool: Option<&'a ToolCost>,
    /// What the agent's client lists of its own accord, within the listing.
    supplied: Supplied,
    counts: &'a [SkillTokens],
    used: &'a [UseCost],
    /// The skills of the asked namespace (all without --namespace).
    scope: &'a [bool],
    args: &'a BudgetArgs,
    /// The context window the listing is priced against.
    window: usize,
    /// The model of the agent's client the budget was made for, and where it was set.
    configured: Option<&'a crate::core::agents::configured::Configured>,
}

// The JSON report, written straight from borrowed data: a value tree of a large library would
// weigh more than the library itself.

#[derive(Serialize)]
struct JsonReport<'a> {
    schema_version: u32,
    encoding: Encoding,
    /// The model estimate asked for with --model: figures × factor, beside the exact ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<JsonModel<'a>>,
    /// The model of the agent's client the listing's budget was made for, and where it was
    /// set (its settings, the environment, `--model`, or its default).
    #[serde(skip_serializing_if = "Option::is_none")]
    client_model: Option<serde_json::Value>,
    listing: JsonListing,
    /// The agent's skill tool as its client declares it every turn beside the listing.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_definition: Option<JsonTool>,
    /// What the agent's client lists of its own accord (built-ins, system skills), within the
    /// listing's tokens: the listing with them less the listing without them.
    builtins: JsonSupplied,
    /// Everything the agent adds every turn: the listing and its skill tool's definition.
    per_turn_tokens: usize,
    totals: JsonTotals,
    skills: Vec<SkillJson<'a>>,
}

#[derive(Serialize)]
struct JsonModel<'a> {
    name: &'a str,
    factor: f64,
    exact: bool,
    listing_tokens: u64,
    l1: u64,
    l2: u64,
    l3: u64,
}

#[derive(Serialize)]
struct JsonListing {
    format: Format,
    tier: Tier,
    context_window: usize,
    /// A budget in characters and what it was charged (`used_chars` is the entries' size when
    /// there is no budget).
    budget_chars: Option<usize>,
    used_chars: Option<usize>,
    /// A budget in tokens as the agent's client estimates them (Codex) and what it was charged.
    budget_tokens: Option<usize>,
    used_tokens: Option<usize>,
    chars: usize,
    tokens: usize,
    /// The listing's share of the context window, and whether it is bigger than the window.
    window_percent: f64,
    over_window: bool,
    fates: JsonFates,
}

#[derive(Serialize)]
struct JsonSupplied {
    entries: usize,
    tokens: usize,
}

#[derive(Serialize)]
struct JsonTool {
    name: &'static str,
    chars: usize,
    tokens: usize,
    /// The listing is part of the tool (Cline's): its tokens are not added to the listing's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    holds_listing: bool,
}

#[derive(Serialize)]
struct JsonFates {
    full: usize,
    trimmed: usize,
    name_only: usize,
    dropped: usize,
}

#[derive(Serialize)]
struct JsonTotals {
    skills: usize,
    l1: u64,
    l2: u64,
    l3: u64,
    resources: usize,
    binary_resources: usize,
    unreadable_files: usize,
}

impl Report<'_> {
    /// Every skill's figures in scope added up (the command counts every skill, on or off).
    fn totals(&self) -> budget::Summary {
        budget::summarize(self.counts, &|i| self.scope[i], budget::ALL_COUNTED)
    }

    fn fates(&self) -> Vec<Option<Fate>> {
        let mut f = vec![None; self.lib.skills.len()];
        for e in &self.listing.entries {
            f[e.index] = Some(e.fate);
        }
        f
    }

    fn json(&self) -> JsonReport<'_> {
        let t = self.totals();
        let fates = self.fates();
        let skills = self
            .lib
            .skills
            .iter()
            .zip(self.counts)
            .zip(fates)
            .zip(self.used)
            .zip(self.scope)
            .filter(|(_, on)| **on)
            .map(|((((s, c), fate), u), _)| SkillJson {
                fate: Some(fate),
                type_source: Some(u.decided_by),
                used: Some(u.tokens),
                used_loads: Some(
                    u.loads
                        .iter()
                        .map(|&j| self.lib.skills[j].name.as_str())
                        .collect(),
                ),
                schema_unknown: Some(u.schema_unknown),
                resource_tokens: Some(&c.resources),
                ..SkillJson::of(
                    s,
                    TokensJson {
                        encoding: self.args.encoding,
                        l1: c.l1,
                        l2: c.l2,
                        l3: c.l3_with_schema(),
                        schema: c.schema,
                    },
                )
            })
            .collect();
        let l = self.listing;
        JsonReport {
            schema_version: SKILL_SCHEMA_VERSION,
            encoding: self.args.encoding,
            model: self.args.model().map(|m| JsonModel {
                name: &m.name,
                factor: m.factor,
                exact: m.is_exact_with(self.args.encoding),
                listing_tokens: m.estimate(self.listing_tokens as u64),
                l1: m.estimate(t.l1.tokens),
                l2: m.estimate(t.l2.tokens),
                l3: m.estimate(t.l3.tokens),
            }),
            client_model: self.client_model_json(),
            listing: JsonListing {
                format: self.listing_format(),
                tier: l.tier,
                context_window: self.window,
                budget_chars: l.budget_in(BudgetUnit::Chars).map(|b| b.0),
                used_chars: l
                    .budget
                    .is_none_or(|b| b.unit == BudgetUnit::Chars)
                    .then_some(l.used),
                budget_tokens: l.budget_in(BudgetUnit::Tokens).map(|b| b.0),
                used_tokens: l.budget_in(BudgetUnit::Tokens).map(|b| b.1),
                chars: l.text.chars().count(),
                tokens: self.listing_tokens,
                window_percent: crate::cli::output::window_percent(
                    self.listing_tokens,
                    self.window,
                ),
                over_window: self.listing_tokens > self.window,
                fates: JsonFates {
                    full: l.count(Fate::Full),
                    trimmed: l.count(Fate::Trimmed),
                    name_only: l.count(Fate::NameOnly),
                    dropped: l.count(Fate::Dropped),
                },
            },
            tool_definition: self.tool.map(|t| JsonTool {
                name: t.name,
                chars: t.chars,
                tokens: t.tokens as usize,
                holds_listing: t.holds_listing,
            }),
            builtins: JsonSupplied {
                entries: self.supplied.entries,
                tokens: self.supplied.tokens as usize,
            },
            per_turn_tokens: self.per_turn(),
            totals: JsonTotals {
                skills: self.scope.iter().filter(|s| **s).count(),
                l1: t.l1.tokens,
                l2: t.l2.tokens,
                l3: t.l3.tokens,
                resources: t.resources,
                binary_resources: t.binary,
                unreadable_files: t.unreadable,
            },
            skills,
        }
    }

    fn listing_format(&self) -> Format {
        self.args.listing()
    }

    /// ` ≈ N (model)` after a figure when --model asks for it.
    fn beside(&self, n: u64) -> String {
        self.args.model().map_or_else(String::new, |m| {
            format!(" {}", m.label(n, self.args.encoding))
        })
    }

    /// A short summary for a pull-request comment: totals, the listing, the biggest skills.
    /// The markdown table of the biggest skills (`--top`, else 10).
    fn markdown_biggest(&self, fates: &[Option<Fate>]) -> String {
        let mut s = String::new();
        let mut order: Vec<usize> = (0..self.counts.len()).collect();
        let size = |i: usize| {
            let c = &self.counts[i];
            (u64::from(c.l1.unwrap_or(0)), u64::from(c.l2.unwrap_or(0)))
        };
        order.sort_by(|&a, &b| size(b).cmp(&size(a)).then(a.cmp(&b)));
        order.truncate(self.args.top.unwrap_or(10));
        if !order.is_empty() {
            s.push_str("\n| skill | L1 | L2 | L3 | fate |\n|---|--:|--:|--:|---|\n");
            for i in order {
                let c = &self.counts[i];
                s.push_str(&format!(
                    "| {} | {} | {} | {} | {} |\n",
                    crate::cli::ci_formats::md_cell(&self.lib.skills[i].name),
                    opt(c.l1),
                    opt(c.l2),
                    opt(c.l3_with_schema()),
                    fates[i].map_or("off", Fate::as_str)
                ));
            }
        }
        s
    }

    fn markdown(&self) -> String {
        let t = self.totals();
        let l = self.listing;
        let fates = self.fates();
        let model = self.args.model();
        let mut s = String::from("### skillscope budget\n\n");
        let est_head = model.map_or_else(String::new, |m| {
            let sign = if m.is_exact_with(self.args.encoding) {
                "="
            } else {
                "≈"
            };
            format!(" {sign} {} |", crate::cli::ci_formats::md_cell(&m.name))
        });
        s.push_str(&format!(
            "| | tokens ({}) |{est_head}\n|---|--:|{}\n",
            self.args.encoding,
            if model.is_some() { "--:|" } else { "" }
        ));
        let est =
            |n: u64| model.map_or_else(String::new, |m| format!(" {} |", thousands(m.estimate(n))));
        let turn = self.listing_tokens as u64;
        s.push_str(&format!(
            "| listing per turn ({}, {} tier) | **{}** |{}\n",
            self.listing_format(),
            l.tier,
            thousands(turn),
            est(turn)
        ));
        if self.supplied.entries > 0 {
            let n = u64::from(self.supplied.tokens);
            s.push_str(&format!(
                "| of which the client's own ({}) | {} |{}\n",
                count_of(self.supplied.entries, "entry", "entries"),
                thousands(n),
                est(n)
            ));
        }
        if let Some(t) = self.tool {
            let n = u64::from(t.tokens);
            s.push_str(&format!(
                "| tool definition (`{}`) per turn | {} |{}\n",
                t.name,
                thousands(n),
                est(n)
            ));
            let all = self.per_turn() as u64;
            s.push_str(&format!(
                "| per turn in all | **{}** |{}\n",
                thousands(all),
                est(all)
            ));
        }
        for (label, n) in [
            ("L1 all entries", t.l1.tokens),
            ("L2 if every skill loads", t.l2.tokens),
            ("L3 if every resource is read", t.l3.tokens),
        ] {
            s.push_str(&format!("| {label} | {} |{}\n", thousands(n), est(n)));
        }
        s.push_str(&format!(
            "\n{}: {} full, {} trimmed, {} name only, {} dropped",
            count_of(self.scope.iter().filter(|s| **s).count(), "skill", "skills"),
            thousands(l.count(Fate::Full) as u64),
            thousands(l.count(Fate::Trimmed) as u64),
            thousands(l.count(Fate::NameOnly) as u64),
            thousands(l.count(Fate::Dropped) as u64),
        ));
        if let Some(b) = l.budget {
            s.push_str(&format!(
                "; {} of {} budget {}",
                thousands(l.used as u64),
                thousands(b.limit as u64),
                b.unit.as_str()
            ));
        }
        s.push('\n');
        let window = self.window;
        if self.listing_tokens > window {
            s.push_str(&format!(
                "\n:warning: {}\n",
                crate::cli::ci_formats::md_text(&window_warning(self.listing_tokens, window))
            ));
        } else {
            s.push_str(&format!(
                "\nlisting per turn: {}\n",
                crate::cli::output::window_share(self.listing_tokens, window)
            ));
        }
        s.push_str(&self.markdown_biggest(&fates));
        s
    }

    /// A line per skill in the scope, biggest first (`--top` of them), written to `out`.
    fn write_table(&self, out: &mut impl Write) -> std::io::Result<()> {
        let fates = self.fates();
        let mut order: Vec<usize> = (0..self.counts.len()).filter(|&i| self.scope[i]).collect();
        let size = |i: usize| {
            let c = &self.counts[i];
            u64::from(c.l1.unwrap_or(0))
                + u64::from(c.l2.unwrap_or(0))
                + u64::from(c.l3_with_schema().unwrap_or(0))
        };
        order.sort_by(|&a, &b| size(b).cmp(&size(a)).then(a.cmp(&b)));
        if let Some(n) = self.args.top {
            order.truncate(n);
        }
        // 6+1+8+1+9+1+9+1+11+1+5+1+4+1+9+2 = 70 columns of figures; on a terminal names and
        // paths share the rest of 120.
        let terminal = crate::cli::output::stdout_is_terminal();
        let widest = order
            .iter()
            .map(|&i| crate::cli::output::shown_width(&self.lib.skills[i].name))
            .max()
            .unwrap_or(0);
        let names = crate::cli::output::Column::new(widest, 24, 24, terminal);
        let folders = crate::cli::output::Column::new(25, 25, 25, terminal);
        writeln!(
            out,
            "{:>6} {:>8} {:>9} {:>9} {:<11} {:>5} {:>4} {:<9}  {} folder",
            "L1",
            "L2",
            "L3",
            "used",
            "type",
            "files",
            "bin",
            "fate",
            names.pad("skill"),
        )?;
        // The rows made on every core (thousands of them) a run at a time, each run written in
        // order before the next is made: its strings' memory serves the next run.
        let row = |i: usize| {
            let c = &self.counts[i];
            let sk = &self.lib.skills[i];
            let bin = c.resources.iter().filter(|r| !r.text).count();
            let u = &self.used[i];
            let line = format!(
                "{:>6} {:>8} {:>9} {:>9} {:<11} {:>5} {:>4} {:<9}  {} {}",
                opt(c.l1),
                opt(c.l2),
                opt(c.l3_with_schema()),
                used_text(u),
                type_text(u),
                thousands(c.resources.len() as u64),
                thousands(bin as u64),
                fates[i].map_or("off", Fate::as_str),
                names.pad(&names.fit(&sk.name)),
                folders.fit_left(&crate::cli::output::shown_path(&sk.dir)),
            );
            let mut line = line.trim_end().to_string();
            line.push('\n');
            line
        };
        write_in_runs(out, &order, ROWS_AT_ONCE, row)
    }

    /// The totals under the table: resources, levels, the listing, the tool, the window.
    fn totals_text(&self) -> String {
        let t = self.totals();
        let mut s = String::new();
        let l = self.listing;
        s.push_str(&format!(
            "\n{}, {} ({} binary, not counted){}\n",
            count_of(self.scope.iter().filter(|s| **s).count(), "skill", "skills"),
            count_of(t.resources, "resource", "resources"),
            thousands(t.binary as u64),
            if t.unreadable > 0 {
                format!(
                    ", {}",
                    count_of(t.unreadable, "unreadable file", "unreadable files")
                )
            } else {
                String::new()
            }
        ));
        s.push_str(
            "used: tokens in context once used: contextual L1+L2, executable + tool schema, composite + the skills it names\n\
             `?` executable not probed yet (its schema is not counted); `*` type inferred from an entry script\n",
        );
        s.push_str(&format!(
            "total: L1 {}{}  L2 {}{}  L3 {}{} tokens ({}; an estimate for Claude models)\n",
            thousands(t.l1.tokens),
            self.beside(t.l1.tokens),
            thousands(t.l2.tokens),
            self.beside(t.l2.tokens),
            thousands(t.l3.tokens),
            self.beside(t.l3.tokens),
            self.args.encoding
        ));
        let budget = l.budget.map_or_else(String::new, |b| {
            format!(
                ", {} of {} budget {}",
                thousands(l.used as u64),
                thousands(b.limit as u64),
                b.unit.as_str()
            )
        });
        s.push_str(&format!(
            "listing{} ({}, {} tier): {} tokens per turn{}{budget}; {} full, {} trimmed, {} name only, {} dropped\n",
            // Named when asked for; an agent's own format already says whose listing it is.
            self.args
                .view
                .agent
                .map_or_else(String::new, |a| {
                    format!(" for {}", crate::core::agents::model::model(a).name)
                }),
            self.listing_format(),
            l.tier,
            thousands(self.listing_tokens as u64),
            self.beside(self.listing_tokens as u64),
            thousands(l.count(Fate::Full) as u64),
            thousands(l.count(Fate::Trimmed) as u64),
            thousands(l.count(Fate::NameOnly) as u64),
            thousands(l.count(Fate::Dropped) as u64),
        ));
        s.push_str(&self.model_line());
        if self.supplied.entries > 0 {
            s.push_str(&format!(
                "  of which the client's own: {} ({}), {} tokens{}\n",
                count_of(self.supplied.entries, "entry", "entries"),
                self.supplied_kind(),
                thousands(u64::from(self.supplied.tokens)),
                self.beside(u64::from(self.supplied.tokens)),
            ));
        }
        if let Some(t) = self.tool {
            s.push_str(&format!(
                "tool definition ({}): {} tokens per turn{} ({} characters of JSON{})\n",
                t.name,
                thousands(u64::from(t.tokens)),
                self.beside(u64::from(t.tokens)),
                thousands(t.chars as u64),
                if t.holds_listing {
                    "; the listing is inside it, not on top of it"
                } else {
                    ""
                },
            ));
            s.push_str(&format!(
                "per turn in all: {} tokens{} (listing and tool definition)\n",
                thousands(self.per_turn() as u64),
                self.beside(self.per_turn() as u64),
            ));
        }
        let window = self.window;
        if self.listing_tokens > window {
            s.push_str(&format!(
                "warning: {}\n",
                window_warning(self.listing_tokens, window)
            ));
        } else {
            s.push_str(&format!(
                "listing per turn: {}\n",
                crate::cli::output::window_share(self.listing_tokens, window)
            ));
        }
        s
    }

    /// The text report: the table, then the totals.
    fn write_text(&self, out: &mut impl Write) -> std::io::Result<()> {
        self.write_table(out)?;
        out.write_all(self.totals_text().as_bytes())
    }
}

impl Report<'_> {
    /// `  budget for model … (from …)`: the model of the agent's client the budget was made for.
    fn model_line(&self) -> String {
        match (self.configured, self.lib.agent) {
            (Some(c), Some(a)) => {
                let name = crate::core::agents::model::model(a).name;
                format!(
                    "  budget for {}\n",
                    crate::core::words::text::line(&c.describe(name, dirs::home_dir().as_deref()))
                )
            }
            _ => String::new(),
        }
    }

    /// The model of the agent's client for JSON: `prompt --json`'s `model_source` with its `id`.
    fn client_model_json(&self) -> Option<serde_json::Value> {
        self.configured.map(|c| {
            let mut v = crate::cli::prompt::model_source(self.lib.agent, c);
            if let Some(o) = v.as_object_mut() {
                o.insert("id".into(), serde_json::json!(c.id()));
            }
            v
        })
    }

    /// Everything the agent adds every turn: the listing and its skill tool's definition.
    fn per_turn(&self) -> usize {
        match self.tool {
            // Cline's listing is inside its tool's description: counted once.
            Some(t) if t.holds_listing => t.tokens as usize,
            Some(t) => self.listing_tokens + t.tokens as usize,
            None => self.listing_tokens,
        }
    }

    /// What the client's own entries are: built-ins, or the system skills it installs.
    fn supplied_kind(&self) -> &'static str {
        if self.listing.builtins.is_empty() {
            "the system skills it installs"
        } else {
            "built-in skills"
        }
    }
}

/// The listing is bigger than the window: every turn would overflow it.
fn window_warning(tokens: usize, window: usize) -> String {
    format!(
        "the listing costs {} tokens per turn: {}",
        thousands(tokens as u64),
        crate::cli::output::window_share(tokens, window)
    )
}

/// The cost when used, `?`-marked when an executable's schema is not known yet.
fn used_text(u: &UseCost) -> String {
    match (u.tokens, u.schema_unknown) {
        (None, _) => "-".to_string(),
        (Some(n), false) => thousands(n),
        (Some(n), true) => format!("{}?", thousands(n)),
    }
}

/// The type, `*`-marked when an entry script inferred it rather than `type:`.
fn type_text(u: &UseCost) -> String {
    match u.decided_by {
        KindSource::Entry | KindSource::EntryScript => format!("{}*", u.kind.as_str()),
        _ => u.kind.as_str().to_string(),
    }
}

fn opt(n: Option<u32>) -> String {
    n.map_or_else(|| "-".to_string(), |n| thousands(u64::from(n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows written a run at a time are the rows in order, whatever the run's length.
    #[test]
    fn rows_written_in_runs_are_the_rows_in_order() {
        let order: Vec<usize> = (0..1100).rev().chain([7, 7, 3]).collect();
        let row = |i: usize| format!("row {i:>5}|{}\n", "x".repeat(i % 13));
        let whole: String = order.iter().map(|&i| row(i)).collect();
        for run in [0, 1, 7, ROWS_AT_ONCE, 1103, 5000] {
            let mut out = Vec::new();
            write_in_runs(&mut out, &order, run, row).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), whole, "run {run}");
        }
        let mut out = Vec::new();
        write_in_runs(&mut out, &[], ROWS_AT_ONCE, row).unwrap();
        assert!(out.is_empty());
    }
}
