//! `skillscope show NAME [RESOURCE]`: print a skill's body, or one of its files by its path
//! inside the skill folder, with its token count; with the body, the skill's files by Conjure's
//! groups (scripts, references, assets, other). Nothing outside the skill folder is read.

use crate::cli::args::LibraryArgs;
use crate::cli::output::note_demo;
use crate::core::library::{self, GroupedResources, Library};
use crate::core::tokens::{self, Encoding, TokenCache};
use crate::core::{resource, words::escape};
use anyhow::Context;
use clap::Args;
use serde_json::json;
use std::io::Write;

/// The most `show` prints of one file.
pub const MAX_SHOW_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The skill: its name, or its id when names repeat (`web.scraper`, `plugin:skill`).
    #[arg(value_name = "NAME", add = clap_complete::ArgValueCompleter::new(crate::cli::complete::skill_names))]
    pub name: String,
    /// A file of the skill by its path inside the skill folder (`references/forms.md`); without
    /// it, the body of SKILL.md. A folder given here instead is read as the library.
    #[arg(value_name = "RESOURCE")]
    pub resource: Option<String>,
    /// Encoding for the token count: o200k_base or cl100k_base.
    #[arg(long, default_value_t = Encoding::default(), add = clap_complete::ArgValueCandidates::new(crate::cli::complete::encodings))]
    pub encoding: Encoding,
    /// Print one JSON object (text, path, bytes, tokens) instead of the text.
    #[arg(long)]
    pub json: bool,
}

/// What `show` prints: the body, or a resource of the skill (text only): its name, path and text.
fn read_shown(
    skill: &crate::core::skill::Skill,
    resource: Option<&str>,
) -> anyhow::Result<(String, std::path::PathBuf, String)> {
    Ok(match resource {
        None => {
            if skill.file_len() > MAX_SHOW_BYTES {
                anyhow::bail!(
                    "{} is {} bytes, over the {} bytes show prints",
                    skill.skill_md.display(),
                    crate::core::words::text::thousands(skill.file_len()),
                    crate::core::words::text::thousands(MAX_SHOW_BYTES)
                );
            }
            let body = library::read_body(skill)?;
            ("body".to_string(), skill.skill_md.clone(), body)
        }
        Some(rel) => {
            let text = resource::read_inside(&skill.dir, rel, MAX_SHOW_BYTES)
                .with_context(|| format!("{} ({})", skill.id, skill.dir.display()))?;
            if text.contains('\0') {
                anyhow::bail!(
                    "`{rel}` of {} is a binary file: show prints text only",
                    skill.id
                );
            }
            (rel.to_string(), skill.dir.join(rel), text)
        }
    })
}

pub fn run(mut args: ShowArgs, mut library: LibraryArgs) -> anyhow::Result<i32> {
    // `show NAME LIBRARY`: a folder can never be a resource, so it names the library.
    if library.paths.is_empty()
        && let Some(r) = args.resource.as_deref()
        && std::path::Path::new(r).is_dir()
    {
        library.paths.push(r.into());
        args.resource = None;
    }
    let lib = library.load();
    note_demo(&lib);
    let index = find(&lib, &args.name)?;
    let skill = &lib.skills[index];
    let (what, path, text) = read_shown(skill, args.resource.as_deref())?;
    let cache = TokenCache::open();
    let n = tokens::count_text(&text, args.encoding, &cache);
    crate::cli::args::save_cache(&cache);
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut v = json!({
            "skill": skill.id,
            "name": skill.name,
            "resource": args.resource,
            "path": path,
            "bytes": text.len(),
            "tokens": n,
            "encoding": args.encoding,
            "text": text,
        });
        if args.resource.is_none() {
            v["resources"] = json!(GroupedResources::of(&skill.resources));
            v["linked"] = json!(crate::cli::output::PlaceJson::all(skill));
            v["readers"] = json!(crate::core::agents::model::readers(skill));
            v["installed"] = json!(
                installed(skill).map(|r| crate::cli::output::InstalledJson::of(r, &skill.dir))
            );
        }
        crate::cli::output::write_json(&mut out, &v)?;
        writeln!(out)?;
    } else {
        // A file is shown, not obeyed: a pipe often ends in a terminal too (`| less -R`), so its
        // hazards are escaped wherever it goes; `--json` holds the exact text.
        let shown = escape::text(&text);
        out.write_all(shown.as_bytes())?;
        if !shown.ends_with('\n') && !shown.is_empty() {
            writeln!(out)?;
        }
        out.flush()?;
        crate::cli::output::warn(format_args!(
            "{} {what}: {} tokens ({}), {} bytes",
            skill.id,
            crate::core::words::text::thousands(u64::from(n)),
            args.encoding,
            crate::core::words::text::thousands(text.len() as u64)
        ));
        if args.resource.is_none() {
            for p in &skill.linked {
                crate::cli::output::warn(format_args!(
                    "linked from {} ({} {})",
                    p.dir.display(),
                    p.agent,
                    p.scope
                ));
            }
            if let Some(r) = installed(skill) {
                for line in provenance(&r, &skill.dir) {
                    crate::cli::output::warn(line);
                }
            }
            let groups = GroupedResources::of(&skill.resources);
            for (group, files) in groups.groups() {
                if !files.is_empty() {
                    // `warn` escapes the file names, which come from the skill folder.
                    crate::cli::output::warn(format_args!(
                        "{} {}: {}",
                        group.as_str(),
                        files.len(),
                        files.join(", ")
                    ));
                }
            }
        }
    }
    Ok(0)
}

/// What an installer recorded of the skill (its notes said on stderr).
fn installed(skill: &crate::core::Skill) -> Option<crate::core::installers::Record> {
    let mut records = crate::core::installers::Records::new(dirs::home_dir().as_deref());
    let r = records.of(skill);
    for n in &records.notes {
        crate::cli::output::warn(n);
    }
    r
}

/// An installer's record as lines: who installed it from where, and whether its files changed.
fn provenance(r: &crate::core::installers::Record, dir: &std::path::Path) -> Vec<String> {
    use crate::core::installers::Files;
    let mut from = format!("installed by {}", r.installer.name());
    if let Some(src) = &r.source {
        from.push_str(&format!(" from {src}"));
    }
    if let Some(t) = &r.source_type {
        from.push_str(&format!(" ({t})"));
    }
    if let Some(v) = &r.version {
        from.push_str(&format!(", version {v}"));
    }
    from.push_str(&format!("; recorded in {}", r.file.display()));
    let mut out = vec![from];
    if r.pinned {
        out.push(format!(
            "pinned{}: its installer's update leaves it alone, and so does skillscope's",
            r.pin_reason
                .as_deref()
                .map(|w| format!(" ({w})"))
                .unwrap_or_default()
        ));
    }
    out.push(match r.files(dir) {
        Files::Unchanged { note: None } => {
            "files: as installed (they match the recorded hash)".into()
        }
        Files::Unchanged { note: Some(n) } => format!("files: as installed ({n})"),
        Files::Modified { note, .. } => format!(
            "files: modified since it was installed (they no longer match the recorded hash){}",
            note.map(|n| format!("; {n}")).unwrap_or_default()
        ),
        Files::NotCompared { why } => format!("files: not compared with the recorded hash: {why}"),
    });
    out
}

/// The skill a name or id stands for: an exact id first, then the name when one copy an agent
/// would load carries it.
pub fn find(lib: &Library, wanted: &str) -> anyhow::Result<usize> {
    if let Some(i) = lib.skills.iter().position(|s| s.id == wanted) {
        return Ok(i);
    }
    let named: Vec<usize> = (0..lib.skills.len())
        .filter(|&i| lib.skills[i].name == wanted)
        .collect();
    let winners: Vec<usize> = named
        .iter()
        .copied()
        .filter(|&i| lib.skills[i].shadowed_by.is_none())
        .collect();
    match (named.len(), winners.as_slice()) {
        (0, _) => anyhow::bail!(
            "no skill named `{wanted}` among {}{} (list them with `skillscope list`)",
            crate::core::words::text::count_of(lib.len(), "skill", "skills"),
            crate::cli::args::did_you_mean(lib, wanted)
        ),
        (1, _) => Ok(named[0]),
        (_, [one]) => Ok(*one),
        _ => {
            let ids: Vec<String> = named
                .iter()
                .map(|&i| {
                    let s = &lib.skills[i];
                    format!("{} ({})", s.id, s.dir.display())
                })
                .collect();
            anyhow::bail!(
                "`{wanted}` names {} skills: {}; give the id or a single folder",
                named.len(),
                ids.join(", ")
            )
        }
    }
}
