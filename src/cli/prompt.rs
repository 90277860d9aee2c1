//! `skillscope prompt`: print the skill listing an agent's system prompt would hold.

use crate::cli::{LibraryArgs, note_demo};
use crate::core::Library;
use crate::core::listing::{self, Fate, Format, ListingOptions, Tier};
use crate::core::tokens::{self, Encoding, TokenCache};
use clap::Args;
use std::io::Write;

#[derive(Debug, Args)]
pub struct PromptArgs {
    /// Catalog format: xml, markdown, claude-code or codex.
    #[arg(long, default_value_t = Format::default())]
    pub format: Format,
    /// Entry tier: auto (by skill count), full, compact or names.
    #[arg(long, default_value_t = Tier::default())]
    pub tier: Tier,
    /// The model's context window in tokens (the claude-code and codex budgets are a share of it).
    #[arg(long, default_value_t = listing::DEFAULT_CONTEXT_WINDOW)]
    pub context_window: usize,
    /// Also print every skill's fate (full, trimmed, name only, dropped) and the listing's size
    /// on stderr.
    #[arg(long)]
    pub fates: bool,
    /// List every skill, also those switched off (in skillscope's state or by their frontmatter).
    #[arg(long)]
    pub all: bool,
    /// Encoding for the token count shown with --fates: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default())]
    pub encoding: Encoding,
}

pub fn run(args: PromptArgs, library: LibraryArgs) -> anyhow::Result<i32> {
    let lib = library.load();
    note_demo(&lib);
    let unread = crate::cli::note_unread(&lib);
    let enabled = super::budget::enabled(&lib);
    let all = args.all;
    let listing = listing::render(
        &lib,
        &|i| all || enabled(i),
        &ListingOptions {
            format: args.format,
            tier: args.tier,
            context_window: args.context_window,
        },
    );
    let mut out = std::io::stdout().lock();
    // The core already lists hazards escaped; escaping again changes nothing and keeps the
    // promise local.
    writeln!(out, "{}", crate::text::text(&listing.text))?;
    out.flush()?;
    if args.fates {
        // Through the cache: an unchanged listing needs no encoder.
        let cache = TokenCache::open();
        let tokens = tokens::count_text(&listing.text, args.encoding, &cache) as usize;
        if let Err(e) = cache.save() {
            crate::cli::warn(e);
        }
        eprint!("{}", fate_table(&lib, &listing, tokens, args.encoding));
    }
    Ok(unread)
}

fn fate_table(lib: &Library, listing: &listing::Listing, tokens: usize, enc: Encoding) -> String {
    let mut s = String::new();
    let budget = listing
        .budget_chars
        .map_or_else(|| "no budget".to_string(), |b| format!("budget {b} chars"));
    s.push_str(&format!(
        "listing: {} tier, {} chars, ~{tokens} tokens ({enc}), {} of {budget}\n",
        listing.tier,
        listing.text.chars().count(),
        listing.used_chars,
    ));
    let counts: Vec<String> = Fate::ALL
        .iter()
        .map(|f| format!("{} {f}", listing.count(*f)))
        .collect();
    s.push_str(&format!("fates: {}\n", counts.join(", ")));
    let width = listing
        .entries
        .iter()
        .map(|e| crate::text::line(&lib.skills[e.index].name).chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for e in &listing.entries {
        let name = crate::text::fit(&lib.skills[e.index].name, width);
        let line = format!(
            "{:<9} {name:<width$}  {}",
            e.fate.as_str(),
            crate::text::line(&e.reason)
        );
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}
