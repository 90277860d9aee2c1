//! OpenClaw 2026.9.6's listing (`formatSkillCatalog` in `dist/skill-contract-*.mjs`,
//! `prepareSkillsForPrompt` in `dist/skill-prompt-limits-*.mjs`; `tests/fixtures/agents/
//! NEW-AGENTS.md`): every skill and eligible bundled skill sorted by name with
//! `localeCompare(…, "en")`, each with its name, description and SKILL.md path (the home folder
//! written `~`). At most 150 skills and 18,000 characters for the whole `## Skills` catalog: the
//! full form when it fits; else the compact form, descriptions cut to the longest length in 4–220
//! that fits (or left out), after dropping skills from the end while even names do not fit, with
//! a note line before it. The listing is the catalog as the client writes it into its system
//! prompt's `## Skills` section: the note (when truncated or compact), the intro naming what a
//! task is matched by, and the `<available_skills>` block.

use crate::core::library::Library;
use crate::core::listing::BuiltinEntry;
use crate::core::listing::format::Budget;
use crate::core::listing::format::{BudgetUnit, Folders, Parts, utf16_len};
use crate::core::listing::formats::{Fit, FormatSpec, Frame};
use crate::core::listing::own::{
    self, Item, name_and_description, safe_line, safe_text, xml_escape,
};
use crate::core::listing::record::{Fate, ListedSkill, Listing, ListingOptions};
use crate::core::skill::Skill;
use crate::core::words::collate::locale_cmp;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `DEFAULT_MAX_SKILLS_PROMPT_CHARS`: the most the catalog may hold (UTF-16 units), its note
/// and intro included.
pub(crate) const BUDGET_CHARS: usize = crate::core::listing::format::OPENCLAW_BUDGET_CHARS;
/// `DEFAULT_MAX_SKILLS_IN_PROMPT`.
pub const MAX_SKILLS: usize = 150;
/// `COMPACT_DESCRIPTION_MIN_CHARS` and the longest compact description.
const COMPACT_MIN: usize = 4;
const COMPACT_MAX: usize = 220;

/// OpenClaw's format.
pub static OPENCLAW: FormatSpec = FormatSpec {
    id: "openclaw",
    summary: "<skill> with name, description, SKILL.md path (~ for home), sorted by name",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: false,
    order: crate::core::listing::formats::Order::Library,
    empty_description: true,
    frame: Frame::Wrapped {
        open: "<available_skills>",
        close: "</available_skills>",
    },
    parts: |skill, _: &Folders| Parts {
        name: safe_line(&xml_escape(name_and_description(skill).0)),
        alias: None,
        description: safe_text(&xml_escape(name_and_description(skill).1)),
        path: safe_line(&xml_escape(&location(skill))),
        root: None,
    },
    line: |p, d| entry(&p.name, d, &p.path),
};

fn entry(name: &str, description: Option<&str>, location: &str) -> String {
    versioned(name, description, location, None)
}

/// An entry, with its `<version>` line when the release lists one.
fn versioned(
    name: &str,
    description: Option<&str>,
    location: &str,
    version: Option<&str>,
) -> String {
    let mut s = format!("  <skill>\n    <name>{name}</name>\n");
    if let Some(d) = description {
        s.push_str(&format!("    <description>{d}</description>\n"));
    }
    s.push_str(&format!("    <location>{location}</location>\n"));
    if let Some(v) = version {
        s.push_str(&format!("    <version>{v}</version>\n"));
    }
    s.push_str("  </skill>");
    s
}

/// A skill's SKILL.md as OpenClaw shows it: absolute, links not resolved, a path in the home
/// folder written `~/…` (`compactHomePath`).
fn location(skill: &Skill) -> String {
    let path = crate::core::files::paths::absolute(&skill.skill_md);
    home_relative(&path)
}

fn home_relative(path: &Path) -> String {
    match dirs::home_dir().and_then(|h| path.strip_prefix(h).ok().map(Path::to_path_buf)) {
        Some(rest) if !rest.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => path.display().to_string(),
    }
}

/// The folder of the installed `openclaw` package: the command on `PATH`, links resolved, is
/// its `openclaw.mjs`; else npm's global folder.
pub fn package_dir() -> &'static Path {
    static FOUND: OnceLock<PathBuf> = OnceLock::new();
    FOUND.get_or_init(|| {
        std::env::var_os("PATH")
            .and_then(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join("openclaw"))
                    .filter(|c| c.is_file())
                    .filter_map(|c| std::fs::canonicalize(c).ok())
                    .find_map(|real| {
                        let dir = real.parent()?;
                        dir.join("package.json")
                            .is_file()
                            .then(|| dir.to_path_buf())
                            .filter(|d| d.ends_with("node_modules/openclaw"))
                    })
            })
            .unwrap_or_else(|| PathBuf::from("/usr/local/lib/node_modules/openclaw"))
    })
}

/// Where a built-in skill is: below the package folder, or (`~/…`) below the home folder; the
/// entry's own location when it has one, else the newest release's.
fn builtin_location(b: &BuiltinEntry) -> String {
    let rel = if b.location.is_empty() {
        LOCATIONS
            .iter()
            .find(|(n, _)| *n == b.name)
            .map_or("", |(_, l)| *l)
    } else {
        b.location
    };
    match rel.strip_prefix("~/") {
        Some(_) => rel.to_string(),
        None => home_relative(&package_dir().join(rel)),
    }
}

/// OpenClaw lists a skill with a name (its folder's when it has none) and a description.
fn listable(s: &Skill) -> bool {
    let (name, description) = name_and_description(s);
    !name.trim().is_empty() && !description.trim().is_empty()
}

/// The requirements of a skill's `metadata.openclaw` (JSON5 inside the frontmatter, or a YAML
/// mapping) this host does not meet, as `openclaw skills check` lists them under "Missing
/// requirements": binaries not on `PATH` (`requires.bins`, each; `requires.anyBins`, one of
/// them), environment variables unset or empty (`requires.env`), another system (`os`, in
/// Node's names: `darwin`, `linux`, `win32`). `always: true` waives all but the system.
/// `requires.config` (paths in `openclaw.json`) is not judged. Empty when the skill is eligible.
pub(crate) fn missing_requirements(skill: &Skill) -> Vec<String> {
    let Some(meta) = skill.frontmatter.get("metadata").map(|f| &f.value) else {
        return Vec::new();
    };
    let parsed;
    let meta = match meta {
        serde_json::Value::String(t) => {
            parsed = jsonc_parser::parse_to_serde_value(t, &jsonc_parser::ParseOptions::default())
                .ok()
                .flatten();
            match &parsed {
                Some(v) => v,
                None => return Vec::new(),
            }
        }
        v => v,
    };
    let Some(oc) = meta.get("openclaw").filter(|v| v.is_object()) else {
        return Vec::new();
    };
    let list = |v: Option<&serde_json::Value>| -> Vec<String> {
        match v {
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(|x| x.as_str().map(|s| s.trim().to_string()))
                .filter(|s| !s.is_empty())
                .collect(),
            Some(serde_json::Value::String(s)) if !s.trim().is_empty() => vec![s.trim().into()],
            _ => Vec::new(),
        }
    };
    let mut missing = Vec::new();
    let os = list(oc.get("os"));
    let here = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    if !os.is_empty() && !os.iter().any(|o| o == here) {
        missing.push(format!("os: {} (this is {here})", os.join(", ")));
    }
    if oc.get("always").and_then(serde_json::Value::as_bool) == Some(true) {
        return missing;
    }
    let requires = oc.get("requires");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let on_path = |b: &str| crate::core::files::on_path::find_command(b, &path, &[]).is_some();
    for b in list(requires.and_then(|r| r.get("bins"))) {
        if !on_path(&b) {
            missing.push(format!("bin: {b}"));
        }
    }
    let any = list(requires.and_then(|r| r.get("anyBins")));
    if !any.is_empty() && !any.iter().any(|b| on_path(b)) {
        missing.push(format!("anyBins: {}", any.join(", ")));
    }
    for e in list(requires.and_then(|r| r.get("env"))) {
        if std::env::var_os(&e).is_none_or(|v| v.is_empty()) {
            missing.push(format!("env: {e}"));
        }
    }
    missing
}

/// One entry's parts, unescaped.
struct Raw {
    name: String,
    description: String,
    location: String,
    /// Its `<version>`, for a release that lists one.
    version: Option<String>,
}

/// A SKILL.md's `<version>` as OpenClaw 2026.7 computes it (`computeSkillPromptVersion`):
/// `sha256:` and the first 16 hex digits of the SHA-256 of the file read as UTF-8.
fn skill_version(skill: &Skill) -> Option<String> {
    use sha2::{Digest, Sha256};
    let bytes = crate::core::files::fsx::read_capped(&skill.skill_md, 16 << 20).ok()??;
    let text = String::from_utf8_lossy(&bytes);
    let hash = Sha256::digest(text.as_bytes());
    let hex: String = hash.iter().take(8).map(|b| format!("{b:02x}")).collect();
    Some(format!("sha256:{hex}"))
}

/// `truncateSkillDescription`: white space collapsed, then over `max` UTF-16 units cut to
/// `max - 3`, trimmed, and `...`.
fn cut_description(d: &str, max: usize) -> String {
    let normalized = d.split_whitespace().collect::<Vec<_>>().join(" ");
    if utf16_len(&normalized) <= max {
        return normalized;
    }
    let prefix = |units: usize| {
        let mut used = 0;
        let mut end = 0;
        for (i, c) in normalized.char_indices() {
            used += c.len_utf16();
            if used > units {
                break;
            }
            end = i + c.len_utf8();
        }
        normalized[..end].to_string()
    };
    if max <= 3 {
        return prefix(max);
    }
    format!("{}...", prefix(max - 3).trim_end())
}

/// How the catalog is written: in full, or compact with descriptions of at most this many
/// characters (0: none).
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Full,
    Compact(usize),
}

/// The catalog as OpenClaw measures it: its note, intro and `<available_skills>` block.
fn catalog(raws: &[Raw], total: usize, form: Form, note: bool, versions: bool) -> String {
    let truncated = raws.len() < total;
    let mut lines: Vec<String> = Vec::new();
    let mut block = vec!["<available_skills>".to_string()];
    for r in raws {
        let d = match form {
            Form::Full => Some(r.description.clone()),
            Form::Compact(0) => None,
            Form::Compact(n) => Some(cut_description(&r.description, n)).filter(|d| !d.is_empty()),
        };
        block.push(versioned(
            &xml_escape(&r.name),
            d.map(|d| xml_escape(&d)).as_deref(),
            &xml_escape(&r.location),
            r.version
                .as_deref()
                .filter(|_| versions)
                .map(xml_escape)
                .as_deref(),
        ));
    }
    block.push("</available_skills>".to_string());
    let block = block.join("\n");
    let shown = match form {
        Form::Compact(0) => " (compact format, descriptions omitted)",
        Form::Compact(_) => " (compact format, descriptions shortened)",
        Form::Full => "",
    };
    if note && truncated {
        lines.push(format!(
            "\u{26a0}\u{fe0f} Skills truncated: included {} of {total}{shown}. Run `openclaw skills check` to audit.",
            raws.len()
        ));
    } else if note && form != Form::Full {
        lines.push(format!(
            "\u{26a0}\u{fe0f} Skills catalog using compact format ({}). Run `openclaw skills check` to audit.",
            shown.trim_start_matches(" (compact format, ").trim_end_matches(')')
        ));
    }
    if raws.is_empty() {
        return lines.join("\n");
    }
    let matches = match form {
        Form::Compact(0) => "its name",
        Form::Compact(_) => "its name or description",
        Form::Full => "its description",
    };
    let read = if versions {
        format!(
            "Use the read tool to load a skill's file when the task matches {matches}.\nIf a skill's <version> differs from a previous turn, re-read its SKILL.md before using it."
        )
    } else {
        format!("Read a skill's file at its listed location when the task matches {matches}.")
    };
    lines.push(format!(
        "\n\nThe following skills provide specialized instructions for specific tasks.\n{read}\nWhen a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n{block}"
    ));
    lines.join("\n")
}

/// The longest prefix of `raws` (in `lo..=hi`) for which `fits` holds, `lo` when none longer does.
fn longest(mut lo: usize, mut hi: usize, fits: &dyn Fn(usize) -> bool) -> usize {
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// What `prepareSkillsForPrompt` keeps: how many entries, in which form, with the note or not.
/// OpenClaw 2026.7 (`versions`, `applySkillsPromptLimits`): the full form, else the compact form
/// of names only, dropping skills from the end until it fits; its note always.
fn fit(raws: &[Raw], limit: usize, versions: bool) -> (usize, Form, bool) {
    let total = raws.len();
    let by_count = total.min(MAX_SKILLS);
    let within = |n: usize, form: Form, note: bool| {
        let prompt = catalog(&raws[..n], total, form, note, versions);
        utf16_len(&prompt) <= limit
    };
    if within(by_count, Form::Full, true) {
        return (by_count, Form::Full, true);
    }
    if versions {
        let n = if within(by_count, Form::Compact(0), true) {
            by_count
        } else {
            longest(0, by_count, &|m| within(m, Form::Compact(0), true))
        };
        return (n, Form::Compact(0), true);
    }
    let mut n = by_count;
    if !within(n, Form::Compact(0), true) {
        n = longest(0, n, &|m| within(m, Form::Compact(0), true));
    }
    if n == 0 && by_count > 0 {
        if within(by_count, Form::Full, false) {
            return (by_count, Form::Full, false);
        }
        n = longest(0, by_count, &|m| within(m, Form::Compact(0), false));
    }
    let note = within(n, Form::Compact(0), true);
    let mut chars = 0;
    if n > 0 && within(n, Form::Compact(COMPACT_MIN), note) {
        chars = longest(COMPACT_MIN, COMPACT_MAX, &|c| {
            within(n, Form::Compact(c), note)
        });
    }
    (n, Form::Compact(chars), note)
}

/// The listing (see the module's comment).
pub(crate) fn render(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    opts: &ListingOptions,
) -> Listing {
    let versions = opts.dialect.openclaw_versions;
    let (mut dropped, mut keep) = own::candidates(lib, enabled, &listable);
    keep.retain(|&i| {
        let missing = missing_requirements(&lib.skills[i]);
        if !missing.is_empty() {
            dropped.push(ListedSkill {
                index: i,
                fate: Fate::Dropped,
                reason: format!(
                    "OpenClaw leaves it out on this host: missing requirements ({})",
                    missing.join("; ")
                ),
            });
        }
        missing.is_empty()
    });
    let mut items: Vec<Item> = keep.iter().map(|&i| Item::skill(i)).collect();
    // A skill of the library shadows a bundled one of the same name (every folder it reads
    // comes before its bundled skills).
    let names: std::collections::HashSet<&str> = keep
        .iter()
        .map(|&i| name_and_description(&lib.skills[i]).0.trim())
        .collect();
    items.extend(
        opts.builtins
            .iter()
            .filter(|b| !names.contains(b.name))
            .map(Item::builtin),
    );
    let raw = |it: &Item| match (it.index, it.builtin) {
        (Some(i), _) => {
            let s = &lib.skills[i];
            let (name, description) = name_and_description(s);
            Raw {
                name: safe_line(name.trim()),
                description: safe_text(description.trim()),
                location: safe_line(&location(s)),
                version: if versions { skill_version(s) } else { None },
            }
        }
        (None, Some(b)) => Raw {
            name: b.name.to_string(),
            description: b.description.to_string(),
            location: builtin_location(b),
            version: VERSIONS_2026_7
                .iter()
                .find(|(n, _)| *n == b.name)
                .filter(|_| versions)
                .map(|(_, v)| (*v).to_string()),
        },
        (None, None) => Raw {
            name: String::new(),
            description: String::new(),
            location: String::new(),
            version: None,
        },
    };
    let mut pairs: Vec<(Item, Raw)> = items
        .into_iter()
        .map(|it| {
            let r = raw(&it);
            (it, r)
        })
        .collect();
    pairs.sort_by(|a, b| locale_cmp(&a.1.name, &b.1.name));
    let (mut items, raws): (Vec<Item>, Vec<Raw>) = pairs.into_iter().unzip();
    let budget = opts.budget().unwrap_or(Budget::chars(BUDGET_CHARS));
    let (n, form, note) = fit(&raws, budget.limit, versions);
    let prompt = catalog(&raws[..n], raws.len(), form, note, versions);
    for (k, it) in items.iter_mut().enumerate() {
        if k >= n {
            it.demote(
                Fate::Dropped,
                if k >= MAX_SKILLS {
                    format!("past OpenClaw's {MAX_SKILLS} skills in the prompt: left out")
                } else {
                    format!("over the listing budget of {budget} even by name: left out")
                },
            );
            continue;
        }
        match form {
            Form::Full => {}
            Form::Compact(0) => it.demote(
                Fate::NameOnly,
                format!("over the listing budget of {budget}: compact form, descriptions left out"),
            ),
            Form::Compact(c) => {
                if cut_description(&raws[k].description, c) != raws[k].description {
                    it.demote(
                        Fate::Trimmed,
                        format!("over the listing budget of {budget}: compact form, description cut to {c} characters"),
                    );
                }
            }
        }
    }
    // What it writes into its `## Skills` section: the note (when truncated or compact), its
    // intro and the block, the section's line breaks before them aside.
    let text = prompt.trim_start_matches('\n').to_string();
    own::finish(lib, text, Some(budget), utf16_len(&prompt), dropped, items)
}

/// Each of [`BUILTINS_2026_7`]'s `<version>`, as listed (of the files the capture's release holds).
pub(crate) static VERSIONS_2026_7: &[(&str, &str)] = &[
    ("browser-automation", "sha256:608bed60aca52631"),
    ("canvas", "sha256:7419e23f242397b3"),
    ("clawhub", "sha256:6bb70d95cbd1a545"),
    ("diagram-maker", "sha256:6195e03fcb04a1a6"),
    ("healthcheck", "sha256:518ec6e0482cf1c7"),
    ("meme-maker", "sha256:8b8832f9f0f58b16"),
    ("node-connect", "sha256:cc39026fd84e5cfa"),
    ("node-inspect-debugger", "sha256:50d2f6828eaf4bbf"),
    ("notion", "sha256:d45e2c1270d58c78"),
    ("python-debugpy", "sha256:bfb1891204b67260"),
    ("session-logs", "sha256:8c231c581ff0e0ab"),
    ("skill-creator", "sha256:d15b25d332d835eb"),
    ("spike", "sha256:1258cde2d0e53267"),
    ("taskflow", "sha256:d8b6a48d329aef0a"),
    ("taskflow-inbox-triage", "sha256:1fe28cd924d8ae2d"),
    ("tmux", "sha256:98b6b8392ec57e11"),
    ("weather", "sha256:62ab4821aa873949"),
];

/// Where each built-in is: below the installed `openclaw` package folder (`skills/`,
/// `custodian-skills/`), or below the home folder (`~/.openclaw/plugin-skills/`, where enabled
/// plugins' skills are copied).
pub static LOCATIONS: &[(&str, &str)] = &[
    (
        "add-model-provider",
        "custodian-skills/add-model-provider/SKILL.md",
    ),
    (
        "browser-automation",
        "~/.openclaw/plugin-skills/browser-automation/SKILL.md",
    ),
    ("canvas", "~/.openclaw/plugin-skills/canvas/SKILL.md"),
    ("clawhub", "skills/clawhub/SKILL.md"),
    (
        "cloud-image-bake",
        "custodian-skills/cloud-image-bake/SKILL.md",
    ),
    (
        "configure-channel",
        "custodian-skills/configure-channel/SKILL.md",
    ),
    ("control-ui", "skills/control-ui/SKILL.md"),
    (
        "diagnose-gateway",
        "custodian-skills/diagnose-gateway/SKILL.md",
    ),
    ("diagram-maker", "skills/diagram-maker/SKILL.md"),
    ("healthcheck", "skills/healthcheck/SKILL.md"),
    ("meme-maker", "skills/meme-maker/SKILL.md"),
    ("node-connect", "skills/node-connect/SKILL.md"),
    (
        "node-inspect-debugger",
        "skills/node-inspect-debugger/SKILL.md",
    ),
    ("notion", "skills/notion/SKILL.md"),
    ("python-debugpy", "skills/python-debugpy/SKILL.md"),
    ("skill-creator", "skills/skill-creator/SKILL.md"),
    ("spike", "skills/spike/SKILL.md"),
    ("taskflow", "skills/taskflow/SKILL.md"),
    (
        "taskflow-inbox-triage",
        "skills/taskflow-inbox-triage/SKILL.md",
    ),
    ("tmux", "skills/tmux/SKILL.md"),
    ("visualize", "skills/visualize/SKILL.md"),
    ("weather", "skills/weather/SKILL.md"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(i: usize, description: &str) -> Raw {
        Raw {
            name: format!("skill-{i:03}"),
            description: description.to_string(),
            location: format!("~/.openclaw/skills/skill-{i:03}/SKILL.md"),
            version: Some(format!("sha256:{i:016x}")),
        }
    }

    /// The note stands first, two blank lines before the intro, in each release's words: when
    /// the catalog is compact and when it is truncated; none when everything fits in full.
    #[test]
    fn the_note_comes_first_when_compact_or_truncated() {
        let long = "A description long enough to matter. ".repeat(8);
        let raws: Vec<Raw> = (0..60).map(|i| raw(i, &long)).collect();
        for versions in [false, true] {
            let (n, form, note) = fit(&raws, BUDGET_CHARS, versions);
            assert_eq!((n, note), (60, true), "{versions}");
            assert!(form != Form::Full);
            let text = catalog(&raws[..n], raws.len(), form, note, versions);
            let text = text.trim_start_matches('\n');
            let (first, rest) = text.split_once("\n\n\n").unwrap();
            let shown = if versions {
                "descriptions omitted"
            } else {
                "descriptions shortened"
            };
            assert_eq!(
                first,
                format!(
                    "\u{26a0}\u{fe0f} Skills catalog using compact format ({shown}). Run `openclaw skills check` to audit."
                )
            );
            assert!(rest.starts_with("The following skills provide"), "{rest}");
            assert_eq!(rest.contains("<version>sha256:"), versions);
            assert!(utf16_len(text) <= BUDGET_CHARS);
        }
        // Too many even by name: truncated, the count in the note.
        let raws: Vec<Raw> = (0..400).map(|i| raw(i, &long)).collect();
        for versions in [false, true] {
            let (n, form, note) = fit(&raws, BUDGET_CHARS, versions);
            assert!(n <= MAX_SKILLS && note, "{versions}: {n}");
            let shown = match form {
                Form::Compact(0) => "omitted",
                _ => "shortened",
            };
            let text = catalog(&raws[..n], raws.len(), form, note, versions);
            assert!(
                text.starts_with(&format!(
                    "\u{26a0}\u{fe0f} Skills truncated: included {n} of 400 (compact format, descriptions {shown}). Run `openclaw skills check` to audit.\n\n\nThe following skills"
                )),
                "{text}"
            );
        }
        // Everything fits in full: no note, the intro first.
        let few: Vec<Raw> = (0..3).map(|i| raw(i, "Short.")).collect();
        let (n, form, note) = fit(&few, BUDGET_CHARS, true);
        let text = catalog(&few[..n], few.len(), form, note, true);
        assert!(
            text.trim_start_matches('\n')
                .starts_with("The following skills")
        );
        assert!(form == Form::Full);
    }
}
