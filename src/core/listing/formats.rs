//! The listing formats, one value each: how a format names, describes and places a skill, writes
//! an entry, wraps the entries, and fits them into its agent's budget. Adding a format is one
//! value here, one variant of [`Format`] and one line of [`Format::spec`].

use super::format::{
    CLAUDE_CODE_ENTRY_CAP, Folders, Format, Parts, claude_escape, claude_one_line, html_escape,
    one_line, py_strip,
};
use crate::core::skill::Skill;
use crate::core::source::Scope;

/// What a format does when its entries overflow the agent's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Claude Code's way (2.1.332, its "priority" mode): its bundled skills and the skills
    /// switched to name only are fixed; every other entry starts as its name, then each gets its
    /// description back, by usage score and else in listing order, while what it adds still
    /// fits; nothing is dropped, so the listing can end over the budget. Lengths are UTF-16
    /// units, entries joined by one line break.
    Priority,
    /// Codex's way: every description cut to the same longest length that fits, then dropped,
    /// then names past the budget.
    Trimming,
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
    /// How the format fits its listing into the budget.
    pub fit: Fit,
    /// The agent caps each entry's description at this many characters.
    pub entry_cap: Option<usize>,
    /// The auto tier shortens entries by the number of skills (full, compact, names); an agent
    /// that never does lists every entry in full and leaves the rest to its budget.
    pub tiers_by_count: bool,
    /// The agent's own order of entries: by this group, then A–Z case-insensitive; `None` keeps
    /// the library's order.
    pub order: Option<fn(&Skill) -> u8>,
    /// What surrounds the entries.
    pub frame: Frame,
    /// The name, description and path as this format takes them from a skill (unescaped).
    pub(super) parts: fn(&Skill, &Folders) -> Parts,
    /// One entry; `description` is `None` for a name-only entry.
    pub(super) line: fn(&Parts, Option<&str>) -> String,
}

impl Format {
    /// The format's behaviour.
    pub fn spec(self) -> &'static FormatSpec {
        match self {
            Format::Xml => &XML,
            Format::Markdown => &MARKDOWN,
            Format::ClaudeCode => &CLAUDE_CODE,
            Format::Codex => &CODEX,
            Format::LazySkills => &LAZY_SKILLS,
        }
    }
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
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: true,
    order: None,
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
        }
    },
    line: |p, description| match description {
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
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: true,
    order: None,
    frame: Frame::Headed("## Available skills\n\n"),
    parts: |skill, _| Parts {
        name: skill.name.clone(),
        alias: None,
        description: one_line(name_and_description(skill).1),
        path: String::new(),
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
    fit: Fit::Priority,
    entry_cap: Some(CLAUDE_CODE_ENTRY_CAP),
    tiers_by_count: false,
    order: Some(claude_group),
    frame: Frame::Headed("The following skills are available for use with the Skill tool:\n\n"),
    parts: |skill, _| {
        let mut d = claude_one_line(name_and_description(skill).1);
        if let Some(w) = skill
            .frontmatter
            .when_to_use
            .as_deref()
            .map(claude_one_line)
            .filter(|w| !w.is_empty())
        {
            d.push_str(" - ");
            d.push_str(&w);
        }
        // Called by its folder's name (a plugin's skill by `plugin:skill`); a frontmatter name
        // that differs is shown beside it.
        let name = if skill.plugin {
            skill.id.clone()
        } else {
            skill.name.clone()
        };
        Parts {
            alias: claude_alias(skill, &name),
            name,
            description: claude_escape(&d),
            path: String::new(),
        }
    },
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
        Scope::AddDir | Scope::Path | Scope::Demo => 3,
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

/// `- name: description (file: path)`, within 2% of the context window.
pub static CODEX: FormatSpec = FormatSpec {
    id: "codex",
    summary: "- name: description (file: path)",
    budget_percent: Some(2),
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: true,
    order: None,
    frame: Frame::Headed(
        "## Skills\nA skill is a set of local instructions stored in a `SKILL.md` file. Each entry below gives a name, a description and the file path, so you can open the file for the full instructions when a skill applies.\n### Available skills\n",
    ),
    parts: |skill, _| Parts {
        name: skill.name.clone(),
        alias: None,
        description: one_line(name_and_description(skill).1),
        path: crate::core::paths::absolute(&skill.skill_md)
            .to_string_lossy()
            .into_owned(),
    },
    line: |p, description| match description {
        Some(d) => format!("- {}: {d} (file: {})", p.name, p.path),
        None if p.path.is_empty() => format!("- {}", p.name),
        None => format!("- {} (file: {})", p.name, p.path),
    },
};

/// `Enabled skills:` then `- name: description`: what the Lazy Skills agent puts in its system
/// prompt from `list_level1()` (design 000, Level 1).
pub static LAZY_SKILLS: FormatSpec = FormatSpec {
    id: "lazy-skills",
    summary: "- name: description, under \"Enabled skills:\"",
    budget_percent: None,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: true,
    order: None,
    frame: Frame::Headed("Enabled skills:\n"),
    parts: |skill, _| Parts {
        name: skill.name.clone(),
        alias: None,
        description: one_line(name_and_description(skill).1),
        path: String::new(),
    },
    line: |p, description| match description {
        Some(d) => format!("- {}: {d}", p.name),
        None => format!("- {}", p.name),
    },
};

#[cfg(test)]
mod tests {
    use super::*;

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
