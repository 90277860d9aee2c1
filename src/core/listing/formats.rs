//! The listing formats, one value each: how a format names, describes and places a skill, writes
//! an entry, wraps the entries, and fits them into its agent's budget. Adding a format is one
//! value here, one variant of `Format` and one line of `Format::spec` (`dispatch.rs`).

use super::claude_text;
use super::dialect::Dialect;
use super::format::{
    BudgetUnit, CLAUDE_CODE_ENTRY_CAP, CODEX_DESCRIPTION_CAP, EntryCap, Folders, Parts, ShortRoot,
    claude_cap, claude_escape, codex_cap, html_escape, one_line, py_strip,
};
use super::gemini_opencode::{
    gemini_folder, gemini_line, gemini_parts, opencode_line, opencode_parts,
};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use std::path::Path;

/// What a format does when its entries overflow the agent's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Claude Code's way (2.1.332, its "priority" mode): its bundled skills and the skills
    /// switched to name only are fixed; every other entry starts as its name, then each gets its
    /// description back, by usage score and else in listing order, while what it adds still
    /// fits; nothing is dropped, so the listing can end over the budget. Lengths are UTF-16
    /// units, entries joined by one line break.
    Priority,
    /// skillscope's own way for the generic formats: every description cut to the same longest
    /// length that fits, then dropped, then names past the budget.
    Trimming,
    /// Codex 0.171.0's way (its `allocation.rs`): when the lines overflow, description
    /// characters are handed out one at a time, round-robin in listing order, while what each
    /// adds to its line's cost fits (descriptions cut raw); when even the lines without
    /// descriptions overflow, those while they fit, the rest left out. Paths are shortened
    /// against a table of roots when the plain render cut anything.
    RoundRobin,
}

/// How the entries are put together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frame {
    /// A heading before the entries; nothing at all when no skill is listed.
    Headed(&'static str),
    /// An opening and a closing line around the entries, written even when none is listed.
    Wrapped {
        /// The line before the entries.
        open: &'static str,
        /// The line after them.
        close: &'static str,
    },
    /// Text before and after the entries (each joined to them by one line break), and what the
    /// listing is instead when no skill is listed.
    Enclosed {
        /// The text before the entries.
        open: &'static str,
        /// The text after them.
        close: &'static str,
        /// The whole listing when nothing is listed.
        empty: &'static str,
    },
    /// Codex's `<skills_instructions>`: its intro, the skill roots table when paths are short,
    /// then the entries; nothing at all when no skill can be listed.
    SkillsInstructions,
}

/// The order an agent lists its entries in, and where its client's built-in entries go.
#[derive(Debug, Clone, Copy)]
pub enum Order {
    /// The library's order; built-ins after the library's entries.
    Library,
    /// By this group, then A–Z without regard to case; built-ins after (Claude Code).
    Grouped(fn(&Skill) -> u8),
    /// Built-ins first, then folder by folder (this group), within a folder by the skill
    /// folder's name in descending code-point order; a skill that replaced a same-named one of
    /// an earlier folder takes that one's place, and a skill named like a built-in takes the
    /// built-in's (Gemini CLI: a `Map` keyed by name, filled folder by folder).
    Folders(fn(&Skill) -> u8),
    /// By this group, then by name in byte order, then by path; built-ins after (Codex).
    Bytes(fn(&Skill) -> u8),
    /// By name with JavaScript's `localeCompare`, the built-ins sorted in; a skill named like a
    /// built-in replaces it (opencode).
    Locale,
}

/// One listing format.
#[derive(Debug)]
pub struct FormatSpec {
    /// The name on the command line, in the config file and in JSON.
    pub id: &'static str,
    /// What an entry looks like, for help texts.
    pub summary: &'static str,
    /// The share of the context window (in percent) the agent gives its listing, if it limits it.
    pub budget_percent: Option<usize>,
    /// What that budget counts.
    pub budget_unit: BudgetUnit,
    /// How the format fits its listing into the budget.
    pub fit: Fit,
    /// The agent's cap on each entry's description.
    pub entry_cap: Option<EntryCap>,
    /// The auto tier shortens entries by the number of skills (full, compact, names); an agent
    /// that never does lists every entry in full and leaves the rest to its budget.
    pub tiers_by_count: bool,
    /// The agent's own order of entries, and of its client's built-ins among them.
    pub order: Order,
    /// A skill with an empty `description` (`""`) is listed, with an empty description; without
    /// this it is left out like one without a description.
    pub empty_description: bool,
    /// What surrounds the entries.
    pub frame: Frame,
    /// The name, description and path as this format takes them from a skill (unescaped).
    pub(crate) parts: fn(&Skill, &Folders) -> Parts,
    /// One entry; `description` is `None` for a name-only entry.
    pub(crate) line: fn(&Parts, Option<&str>) -> String,
}

fn name_and_description(skill: &Skill) -> (&str, &str) {
    let fm = &skill.frontmatter;
    (
        fm.name.as_deref().unwrap_or(&skill.name),
        fm.description().unwrap_or(""),
    )
}

/// The agentskills.io `<available_skills>` block, as `skills-ref to-prompt` writes it.
pub static XML: FormatSpec = FormatSpec {
    id: "xml",
    summary: "<skill><name>…</name><description>…</description><location>…</location></skill>",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: true,
    order: Order::Library,
    empty_description: false,
    frame: Frame::Wrapped {
        open: "<available_skills>",
        close: "</available_skills>",
    },
    parts: |skill, folders| {
        let (name, description) = name_and_description(skill);
        Parts {
            name: py_strip(name).to_string(),
            alias: None,
            description: py_strip(description).to_string(),
            path: folders.location(skill),
            root: None,
        }
    },
    line: |p, description| match description {
        // The compact tier lists no location.
        Some(d) if p.path.is_empty() => format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n</skill>",
            html_escape(&p.name),
            html_escape(d)
        ),
        Some(d) => format!(
            "<skill>\n<name>\n{}\n</name>\n<description>\n{}\n</description>\n<location>\n{}\n</location>\n</skill>",
            html_escape(&p.name),
            html_escape(d),
            p.path
        ),
        // The names tier lists names only: no location either.
        None if p.path.is_empty() => {
            format!("<skill><name>{}</name></skill>", html_escape(&p.name))
        }
        None => format!(
            "<skill>\n<name>\n{}\n</name>\n<location>\n{}\n</location>\n</skill>",
            html_escape(&p.name),
            p.path
        ),
    },
};

/// `- **name**: description`.
pub static MARKDOWN: FormatSpec = FormatSpec {
    id: "markdown",
    summary: "- **name**: description",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: true,
    order: Order::Library,
    empty_description: false,
    frame: Frame::Headed("## Available skills\n\n"),
    parts: |skill, _| Parts {
        name: skill.name.clone(),
        alias: None,
        description: one_line(name_and_description(skill).1),
        path: String::new(),
        root: None,
    },
    line: |p, description| match description {
        Some(d) => format!("- **{}**: {d}", p.name),
        None => format!("- **{}**", p.name),
    },
};

/// `- name: description - when_to_use`, within 1% of the context window, as Claude Code 2.1.332
/// writes it (`tests/fixtures/agents/FINDINGS.md`).
pub static CLAUDE_CODE: FormatSpec = FormatSpec {
    id: "claude-code",
    summary: "- name: description - when_to_use",
    budget_percent: Some(1),
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Priority,
    entry_cap: Some(EntryCap {
        max: CLAUDE_CODE_ENTRY_CAP,
        cut: claude_cap,
        what: "description and when_to_use",
    }),
    tiers_by_count: false,
    order: Order::Grouped(claude_group),
    empty_description: false,
    frame: Frame::Headed("The following skills are available for use with the Skill tool:\n\n"),
    parts: |skill, _| claude_parts(skill, Dialect::CURRENT),
    line: |p, description| {
        let name = match &p.alias {
            Some(a) => format!("{} ({a})", p.name),
            None => p.name.clone(),
        };
        match description {
            Some(d) => format!("- {name}: {d}"),
            None => format!("- {name}"),
        }
    },
};

/// What Claude Code makes of a text field before it lists it.
type Clean = fn(&str) -> String;

/// Claude Code's parts of a skill as the release of `dialect` writes them: `description -
/// when_to_use`, one line and `<`/`>` escaped or (before 2.1.300) as written, only the ends
/// trimmed; called by its folder's name (a plugin's skill by `plugin:skill`), a frontmatter name
/// that differs shown beside it from 2.1.290 on.
pub(crate) fn claude_parts(skill: &Skill, dialect: Dialect) -> Parts {
    // From 2.1.300 on, escape sequences removed and each run of hidden characters one space
    // (`claude_text`); before, only the ends trimmed.
    let (description, when_to_use): (Clean, Clean) = if dialect.one_line {
        (claude_text::description, claude_text::when_to_use)
    } else {
        (|s| s.trim().to_string(), |s| s.trim().to_string())
    };
    let mut d = description(name_and_description(skill).1);
    if let Some(w) = skill
        .frontmatter
        .when_to_use
        .as_deref()
        .map(when_to_use)
        .filter(|w| !w.is_empty())
    {
        d.push_str(" - ");
        d.push_str(&w);
    }
    let name = if skill.plugin {
        skill.id.clone()
    } else {
        skill.name.clone()
    };
    Parts {
        alias: claude_alias(skill, &name).filter(|_| dialect.name_beside_folder),
        name,
        description: if dialect.escape_angles {
            claude_escape(&d)
        } else {
            d
        },
        path: String::new(),
        root: None,
    }
}

/// Claude Code's order: user skills (managed ones before them), project skills, skills of
/// `--add-dir` folders (and folders given by hand), plugins' skills, then custom commands of
/// every scope together.
fn claude_group(skill: &Skill) -> u8 {
    if skill.command {
        return 5;
    }
    match skill.scope {
        Scope::Managed => 0,
        Scope::User => 1,
        Scope::Project => 2,
        Scope::AddDir | Scope::System | Scope::Path | Scope::Demo => 3,
        Scope::Plugin => 4,
    }
}

/// The frontmatter name Claude Code shows beside the name it calls a skill by: none when it is
/// the same, ends in `:NAME`, or is not a valid name (letters, marks, digits, `_:.-`, at most 256).
fn claude_alias(skill: &Skill, called: &str) -> Option<String> {
    if skill.command || skill.plugin {
        return None;
    }
    let own = skill.frontmatter.name.as_deref()?.trim();
    let valid = !own.is_empty()
        && own.chars().count() <= 256
        && own
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '-'));
    (valid && own != called && !own.ends_with(&format!(":{called}"))).then(|| own.to_string())
}

/// Codex 0.171.0's `<skills_instructions>` (`tests/fixtures/agents/FINDINGS.md`): `- name:
/// description (file: path)` in Codex's order, within 2% of the context window in estimated
/// tokens.
pub static CODEX: FormatSpec = FormatSpec {
    id: "codex",
    summary: "- name: description (file: path)",
    budget_percent: Some(2),
    budget_unit: BudgetUnit::Tokens,
    fit: Fit::RoundRobin,
    entry_cap: Some(EntryCap {
        max: CODEX_DESCRIPTION_CAP,
        cut: codex_cap,
        what: "description",
    }),
    tiers_by_count: false,
    order: Order::Bytes(codex_group),
    empty_description: false,
    frame: Frame::SkillsInstructions,
    // Every run of white space in a name or description is one space, the ends trimmed
    // (`sanitize_single_line`); nothing is escaped. The path is the file's real place.
    parts: |skill, folders| Parts {
        name: one_line(&skill.name),
        alias: None,
        description: one_line(name_and_description(skill).1),
        path: folders.location(skill),
        root: Some(ShortRoot {
            rank: codex_root_rank(skill),
            path: folders.resolve(&skill.root).to_string_lossy().into_owned(),
        }),
    },
    line: |p, description| match description {
        Some(d) if !d.is_empty() => format!("- {}: {d} (file: {})", p.name, p.path),
        _ if p.path.is_empty() => format!("- {}", p.name),
        _ => format!("- {}: (file: {})", p.name, p.path),
    },
};

/// Codex's order of scopes: its own system skills, admin (managed) skills, the repository's,
/// then the user's (and folders given by hand).
fn codex_group(skill: &Skill) -> u8 {
    match skill.scope {
        Scope::System => 0,
        Scope::Managed => 1,
        Scope::Project => 2,
        _ => 3,
    }
}

/// Where a root comes in Codex's roots (`skill_roots`): the project's `.codex/skills` (nearest
/// the working folder first), `~/.codex/skills`, `~/.agents/skills`, its system skills, admin
/// skills, plugins, then the project's `.agents/skills` (the repository root's first); folders
/// given by hand last.
fn codex_root_rank(skill: &Skill) -> (u8, isize) {
    let root: &Path = &skill.root;
    let depth = isize::try_from(root.components().count()).unwrap_or(isize::MAX);
    let codex = root.ends_with(".codex/skills");
    match skill.scope {
        Scope::Project if codex => (0, -depth),
        Scope::User if codex => (1, 0),
        Scope::User if root.ends_with(".agents/skills") => (2, 0),
        Scope::System => (3, 0),
        Scope::Managed => (4, 0),
        Scope::Plugin => (5, 0),
        Scope::Project => (6, depth),
        _ => (7, 0),
    }
}

/// `Enabled skills:` then `- name: description`: what the Lazy Skills agent puts in its system
/// prompt from `list_level1()` (design 000, Level 1). A skill in a nested folder is listed by
/// its namespaced name (design 000, namespaces: "Reference as web.scraper, data.csv_processor",
/// so that "Multiple skills named parser in different namespaces" are told apart).
pub static LAZY_SKILLS: FormatSpec = FormatSpec {
    id: "lazy-skills",
    summary: "- name: description, under \"Enabled skills:\"",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    // Design 000 lists every enabled skill's name and description (`list_level1()`): no tier.
    tiers_by_count: false,
    order: Order::Library,
    empty_description: false,
    frame: Frame::Headed("Enabled skills:\n"),
    parts: |skill, _| Parts {
        name: skill.id.clone(),
        alias: None,
        description: one_line(name_and_description(skill).1),
        path: String::new(),
        root: None,
    },
    line: |p, description| match description {
        Some(d) => format!("- {}: {d}", p.name),
        None => format!("- {}", p.name),
    },
};

// ---- Gemini CLI 0.61.0 and opencode 1.18.33 (their helpers: `gemini_opencode.rs`) ----------

/// The two lines opencode puts before its listing (`SystemPrompt.skills`).
macro_rules! opencode_intro {
    () => {
        "Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description."
    };
}

/// Gemini CLI 0.61.0's `# Available Agent Skills` section of its system instruction
/// (`renderAgentSkills`): built-ins first, then folder by folder; the name (sanitized), the
/// description and the SKILL.md path as read, nothing escaped, trimmed or cut, no budget; no
/// section at all when nothing is listed.
pub static GEMINI: FormatSpec = FormatSpec {
    id: "gemini",
    summary: "<skill> elements (name, description, location) under \"# Available Agent Skills\"",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: false,
    order: Order::Folders(gemini_folder),
    empty_description: true,
    frame: Frame::Enclosed {
        open: "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n<available_skills>",
        close: "</available_skills>",
        empty: "",
    },
    parts: gemini_parts,
    line: gemini_line,
};

/// opencode 1.18.33's `<available_skills>` (`fmt(…, {verbose: true})`) after its two lines on
/// the skill tool: sorted by name with `localeCompare`, its built-in among them; only the
/// location escaped; no budget.
pub static OPENCODE: FormatSpec = FormatSpec {
    id: "opencode",
    summary: "<skill> elements (name, description, location) sorted by name",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: false,
    order: Order::Locale,
    empty_description: true,
    frame: Frame::Enclosed {
        open: concat!(opencode_intro!(), "\n<available_skills>"),
        close: "</available_skills>",
        empty: concat!(opencode_intro!(), "\nNo skills are currently available."),
    },
    parts: opencode_parts,
    line: opencode_line,
};

#[cfg(test)]
mod tests {
    use super::super::format::Format;

    #[test]
    fn every_format_names_its_own_spec_and_ids_are_unique() {
        let ids: Vec<&str> = Format::ALL.iter().map(|f| f.spec().id).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        for f in Format::ALL {
            assert_eq!(f.as_str(), f.spec().id);
            assert_eq!(f.spec().id.parse::<Format>().ok(), Some(f));
        }
    }
}
