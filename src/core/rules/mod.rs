//! Validation rules: stable ids, severities per agent profile, messages that name the fix.

mod body;
mod claude;
mod context_provider;
pub(crate) mod fields;
pub(crate) mod fix;
mod lazy;
mod library;
pub mod overlap;
pub(crate) mod select;
mod template;

use crate::core::findings::diagnostic::{Diagnostic, Severity};
use crate::core::library::Library;
use crate::core::matching::semantic::VectorKey;
use crate::core::skill::Skill;
use crate::core::tokens::{Encoding, TokenCache};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::core::findings::catalogue::{Profile, RULES, RuleId, RuleInfo, UnknownProfile};
#[cfg(test)]
pub(crate) use template::input_key as template_key;

/// What a check run may do beyond reading frontmatter.
#[derive(Clone, Copy, Default)]
pub struct CheckOptions<'a> {
    /// The profile whose rules and levels apply.
    pub profile: Profile,
    /// Judge each skill of an agent's folder by that agent's own profile
    /// (`core::agents::model`); `profile` is then for folders given on the command line.
    pub per_agent: bool,
    /// Read bodies for the body rules (length, links, nesting).
    pub body: bool,
    /// The encoding and token cache for the body's 5,000-token limit (counted no further than
    /// that); without them only lines are checked.
    pub tokens: Option<(Encoding, &'a TokenCache)>,
    /// Which skills are switched on (all when `None`): only those compete in the overlap rule.
    pub enabled: Option<&'a (dyn Fn(usize) -> bool + Sync)>,
    /// The user's choice of rules and levels (the config's `[rules]`, `--select`, …); the
    /// authors' opt-outs apply whatever it is.
    pub selection: Option<&'a select::Selection>,
    /// The sentence vectors the overlap rule compares descriptions by, by the key of their text;
    /// when `None`, those the library index remembers. Nothing is embedded here: when a
    /// competing description has no vector, the rule compares words alone.
    pub vectors: Option<&'a rustc_hash::FxHashMap<VectorKey, Vec<f32>>>,
    /// Each skill's `shadowed` finding as the agents that read it resolve its name
    /// (`core::agents::view::shadowed_findings`, index-aligned with the library); when `None`,
    /// the library's own resolution.
    pub shadowed: Option<&'a [Option<Diagnostic>]>,
}

impl CheckOptions<'_> {
    /// The profile `skill` is judged by: with `per_agent`, its agent's — the agent of its root,
    /// or for a folder named on the command line, the agent whose folder it is
    /// (`check .claude/skills` judges as Claude Code does) — else `profile`.
    pub fn profile_of(&self, skill: &Skill) -> Profile {
        use crate::core::source::Agent;
        if !self.per_agent {
            return self.profile;
        }
        let agent = if matches!(skill.agent, Agent::Path | Agent::Demo) {
            crate::core::agents::readers(skill).first().copied()
        } else {
            Some(skill.agent)
        };
        agent.map_or(self.profile, |a| {
            crate::core::agents::model::model(a).profile
        })
    }

    /// [`CheckOptions::profile_of`] of every skill of `skills`, in order. A skill named on the
    /// command line is judged by the agents that read the folders above its own, which the
    /// skills of one folder share: the answer is found once per folder, not once per skill (a
    /// skill with linked places, or of a user's root, whose own folder can decide, is asked
    /// alone).
    pub fn profiles(&self, skills: &[Skill]) -> Vec<Profile> {
        use crate::core::source::{Agent, Scope};
        if !self.per_agent {
            return vec![self.profile; skills.len()];
        }
        let mut by_folder: rustc_hash::FxHashMap<(&[u8], Agent, Scope), Profile> =
            rustc_hash::FxHashMap::default();
        skills
            .iter()
            .map(|s| {
                let shared = matches!(s.agent, Agent::Path | Agent::Demo)
                    && s.linked.is_empty()
                    && s.scope != Scope::User;
                match s.dir.parent().filter(|_| shared) {
                    Some(parent) => *by_folder
                        .entry((parent.as_os_str().as_encoded_bytes(), s.agent, s.scope))
                        .or_insert_with(|| self.profile_of(s)),
                    None => self.profile_of(s),
                }
            })
            .collect()
    }
}

/// Whether some skill of `lib` has an agent to be judged by (see [`CheckOptions::profile_of`]):
/// it comes from an agent's root, or a folder named on the command line is an agent's folder.
/// Without one, a per-agent check is the fallback profile's check.
pub fn has_agent_skills(lib: &Library) -> bool {
    use crate::core::source::Agent;
    lib.skills.iter().any(|s| {
        !matches!(s.agent, Agent::Path | Agent::Demo) || !crate::core::agents::readers(s).is_empty()
    })
}

/// What a check run found.
pub struct Checked {
    /// Every diagnostic of every skill (index-aligned with `lib.skills`), sorted by line, each
    /// with its file (the skill's `SKILL.md` unless a rule named another).
    pub diagnostics: Vec<Vec<Diagnostic>>,
    /// Whether the overlap rule compared the descriptions by meaning too.
    pub meaning: overlap::Meaning,
    /// With the body rules, the installers' records of every skill (index-aligned) and what
    /// could not be read (`installers::records_seen`): found once, for the rules and the report.
    pub installed: Option<Installed>,
}

/// The installers' records of every skill, and the notes of what could not be read.
pub type Installed = (Vec<Option<crate::core::installers::Record>>, Vec<String>);

/// Every diagnostic of every skill (index-aligned with `lib.skills`), sorted by line.
pub fn check_library(lib: &Library, opts: &CheckOptions) -> Vec<Vec<Diagnostic>> {
    check(lib, opts).diagnostics
}

/// Every diagnostic of every skill, and how far the overlap rule went.
pub fn check(lib: &Library, opts: &CheckOptions) -> Checked {
    let learned = AtomicBool::new(false);
    let enabled = |i: usize| opts.enabled.is_none_or(|f| f(i));
    // The library-wide rules' inputs are read beside the per-skill rules: they need nothing
    // from them, and on their own they would keep one core idle.
    let (mut all, (meaning, key, library_wide, records)) = rayon::join(
        || per_skill(lib, opts, &learned),
        || {
            // Which descriptions have a vector is all that is read here: the vectors themselves
            // only when the overlap rule has to run. Without any vector remembered, no text's
            // key is made to learn that.
            let members = overlap::members(lib, &enabled);
            let meaning = if let Some(v) = opts.vectors {
                overlap::Meaning::of_members(lib, &members, &|k| v.contains_key(k))
            } else {
                let keys = lib.remembered_vector_keys();
                if keys.is_empty() {
                    overlap::Meaning::without_vectors(&members)
                } else {
                    overlap::Meaning::of_members(lib, &members, &|k| keys.contains(k))
                }
            };
            let key = overlap::input_key_of(lib, &members, meaning == overlap::Meaning::Compared);
            // A skill an installer recorded is compared with its record below: the records are
            // found here, one lock file at a time, while the other cores run the rules.
            let records = opts.body.then(|| {
                crate::core::installers::records_seen(
                    &lib.skills,
                    dirs::home_dir().as_deref(),
                    std::sync::Arc::clone(&lib.seen),
                )
            });
            (
                meaning,
                key,
                library::check(lib, opts.profile, opts.shadowed),
                records,
            )
        },
    );
    if learned.into_inner() {
        lib.index_changed();
    }
    // The overlap rule weighs every description against the others: its findings are kept in
    // the library index for as long as the descriptions (and who competes, and whether they
    // were compared by meaning) stay the same.
    let (meaning, found) = match lib.remembered(&key) {
        Some(found) => (meaning, found),
        None => overlap_findings(lib, &enabled, meaning, opts.vectors),
    };
    for (i, d) in found {
        if let Some(slot) = all.get_mut(i) {
            slot.push(d);
        }
    }
    for (i, d) in library_wide {
        all[i].push(d);
    }
    if let Some((records, _)) = &records {
        // A skill an installer recorded, edited since: its files against the recorded hash.
        let found: Vec<Option<Diagnostic>> = records
            .par_iter()
            .zip(&lib.skills)
            .map(|(r, s)| r.as_ref().and_then(|r| r.diagnostic(s)))
            .collect();
        for (slot, d) in all.iter_mut().zip(found) {
            slot.extend(d);
        }
    }
    all.par_iter_mut().zip(&lib.skills).for_each(|(d, s)| {
        select::apply_opt_outs(s, d);
        if let Some(sel) = opts.selection {
            sel.apply(s, d);
        }
        d.sort_by_key(|d| (d.line.unwrap_or(0), std::cmp::Reverse(d.severity)));
        s.file_findings(d);
    });
    Checked {
        diagnostics: all,
        meaning,
        installed: records,
    }
}

/// The overlap rule's findings, remembered for the next run; by meaning too when `meaning` says
/// every description has its vector (and it is so: a vector of the wrong length is none).
fn overlap_findings(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    meaning: overlap::Meaning,
    vectors: Option<&rustc_hash::FxHashMap<VectorKey, Vec<f32>>>,
) -> (overlap::Meaning, Vec<(usize, Diagnostic)>) {
    let meanings = match (meaning, vectors) {
        (overlap::Meaning::Missing { .. }, _) => Err(meaning),
        (_, Some(v)) => overlap::Meanings::gather(lib, enabled, v),
        (_, None) => lib.with_remembered_vectors(|v| {
            overlap::Meanings::gather_by(lib, enabled, &|k| v.get(k).copied())
        }),
    };
    let meaning = meanings.as_ref().err().copied().unwrap_or(meaning);
    let key = overlap::input_key(lib, enabled, meanings.is_ok());
    if let Some(found) = lib.remembered(&key) {
        return (meaning, found);
    }
    let found = overlap::diagnostics(lib, enabled, meanings.as_ref().ok());
    lib.remember(key, &found);
    (meaning, found)
}

/// The rules of each skill on its own, on every core.
fn per_skill(lib: &Library, opts: &CheckOptions, learned: &AtomicBool) -> Vec<Vec<Diagnostic>> {
    let profiles = opts.profiles(&lib.skills);
    lib.skills
        .par_iter()
        .zip(profiles)
        .map(|(s, profile)| {
            let mut d = check_skill_kept(s, profile, learned);
            // The ADR agent's warning where real clients read the folder too: only when asked
            // for by name (`--select triggers-missing`), the view a user opts into.
            let asked = opts.selection.is_some_and(|sel| {
                sel.select
                    .contains(&select::Selector::Rule(RuleId::TriggersMissing))
            });
            if asked
                && context_provider::applies(s, profile)
                && !context_provider::warns(s, profile)
            {
                d.extend(context_provider::check(s));
            }
            if opts.per_agent {
                linked_profiles(s, profile, &mut d);
            }
            if opts.body {
                let (found, new) = body::check(s, profile, opts.tokens);
                d.extend(found);
                if new {
                    learned.store(true, Ordering::Relaxed);
                }
                if profile == Profile::LazySkills {
                    d.extend(lazy::requirements_file(s));
                }
            }
            d
        })
        .collect()
}

/// A skill linked into other agents' folders is one skill judged by each of those agents'
/// profiles too: a finding any of them makes is kept once, at the most it weighs.
fn linked_profiles(s: &Skill, own: Profile, d: &mut Vec<Diagnostic>) {
    let mut seen = vec![own];
    for p in &s.linked {
        let profile = crate::core::agents::model::model(p.agent).profile;
        if seen.contains(&profile) {
            continue;
        }
        seen.push(profile);
        for found in check_skill(s, profile) {
            let same = d
                .iter_mut()
                .find(|x| (x.rule, x.line, x.column) == (found.rule, found.line, found.column));
            match same {
                Some(x) if x.severity < found.severity => *x = found,
                Some(_) => {}
                None => d.push(found),
            }
        }
    }
}

/// The diagnostics of one skill that need nothing but its frontmatter.
pub fn check_skill(skill: &Skill, profile: Profile) -> Vec<Diagnostic> {
    let mut out = parse_findings(skill, profile);
    out.extend(judge(skill, profile));
    out
}

/// [`check_skill`], its rules' findings taken from what the skill remembers (`Facts::rules`, kept
/// in the library index with the skill file's stamp) when they read nothing that changed since;
/// `learned` is set when they ran and what they found is new to remember.
fn check_skill_kept(skill: &Skill, profile: Profile, learned: &AtomicBool) -> Vec<Diagnostic> {
    let mut out = parse_findings(skill, profile);
    let Some(key) = per_skill_key(skill, profile) else {
        out.extend(judge(skill, profile));
        return out;
    };
    if let Some(found) = crate::core::index::kept_rules_for(&skill.facts, &key) {
        out.extend(found);
        return out;
    }
    let found = judge(skill, profile);
    let mut kept = crate::core::index::kept_rules(&skill.facts);
    if kept.len() >= crate::core::skill::RULES_KEPT {
        kept.remove(0);
    }
    kept.push((key, found.clone()));
    learned.store(true, Ordering::Relaxed);
    out.extend(found);
    out
}

/// The key of what [`judge`] reads of `skill` for `profile`, beyond its skill file (whose stamp
/// the remembered findings are kept with): this program (a new build may judge otherwise), the
/// profile, the skill's agent and paths, whether it is a command or a plugin's. `None` where the
/// rules read more than that, so they run every time: an executable skill's entry (a file looked
/// at), Lazy Skills' resources and files, the ADR agent's readers.
fn per_skill_key(skill: &Skill, profile: Profile) -> Option<[u8; 32]> {
    use crate::core::skill::SkillKind;
    use crate::core::source::Agent;
    if skill.kind() == SkillKind::Executable
        || profile == Profile::LazySkills
        || skill.agent == Agent::Generic
    {
        return None;
    }
    let program = crate::core::files::fsx::program_key()?;
    // The program is the hash's key, not part of what is hashed: a short input is hashed in
    // fewer blocks.
    Some(*blake3::keyed_hash(program, &per_skill_key_input(skill, profile)).as_bytes())
}

/// What [`per_skill_key`] hashes, in one buffer (one hashing call, not one per part). The
/// skill file below its folder and the folder below its root, as they nearly always are, are
/// written as the file's name and the root's length: fewer bytes to hash, and the three paths
/// can still be told from the bytes (each part is marked, and every part carries its length).
fn per_skill_key_input(skill: &Skill, profile: Profile) -> Vec<u8> {
    let (dir, md, root) = (
        key_bytes(&skill.dir),
        key_bytes(&skill.skill_md),
        key_bytes(&skill.root),
    );
    let mut buf = Vec::with_capacity(32 + dir.len() + md.len() + root.len());
    // Lengths as u64: a path of any length is told apart from the bytes after it.
    let put = |buf: &mut Vec<u8>, part: &[u8]| {
        buf.extend_from_slice(&(part.len() as u64).to_le_bytes());
        buf.extend_from_slice(part);
    };
    buf.extend_from_slice(b"psr3");
    buf.extend_from_slice(&[
        profile as u8,
        skill.agent as u8,
        u8::from(skill.command),
        u8::from(skill.plugin),
    ]);
    put(&mut buf, &dir);
    if let Some(name) = md
        .strip_prefix(&dir[..])
        .and_then(|rest| rest.strip_prefix(b"/"))
    {
        buf.push(1);
        put(&mut buf, name);
    } else {
        buf.push(0);
        put(&mut buf, &md);
    }
    if dir.starts_with(&root) {
        buf.push(1);
        buf.extend_from_slice(&(root.len() as u64).to_le_bytes());
    } else {
        buf.push(0);
        put(&mut buf, &root);
    }
    buf
}

/// A path's bytes as the cache files store them ([`path_bytes`](crate::core::files::fsx::path_bytes)),
/// borrowed where they are the path's own.
fn key_bytes(p: &std::path::Path) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        std::borrow::Cow::Borrowed(p.as_os_str().as_encoded_bytes())
    }
    #[cfg(not(unix))]
    {
        std::borrow::Cow::Owned(crate::core::files::fsx::path_bytes(p))
    }
}

/// The parse findings of `skill`, each at the level `profile` gives it.
fn parse_findings(skill: &Skill, profile: Profile) -> Vec<Diagnostic> {
    skill
        .parse_diagnostics
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.severity = parse_severity(skill, &d, profile);
            if d.rule == RuleId::FrontmatterMissing && profile == Profile::ClaudeCode {
                // What Claude Code does with it, as the name and description rules say.
                d.message = "SKILL.md has no `---` frontmatter: Claude Code lists it under its \
                             folder's name and its body's first line (listed-by-fallback); add \
                             one with `name` and `description` for the agents that skip it"
                    .to_string();
            }
            d
        })
        .collect()
}

/// The findings of the rules that read a skill's frontmatter and place (all of [`check_skill`]
/// but the parse findings).
fn judge(skill: &Skill, profile: Profile) -> Vec<Diagnostic> {
    let mut out = fields::check(skill, profile);
    out.extend(select::check_opt_outs(skill));
    if profile == Profile::LazySkills {
        out.extend(lazy::check(skill));
    }
    if profile == Profile::ClaudeCode {
        out.extend(claude::check(skill));
    }
    if context_provider::warns(skill, profile) {
        out.extend(context_provider::check(skill));
    }
    out
}

/// Parse findings are the same for every profile; how much they matter is not. The reference
/// validator reads the file as it is, so what other agents forgive (a BOM, blank lines before the
/// frontmatter) makes it fail.
fn parse_severity(skill: &Skill, d: &Diagnostic, profile: Profile) -> Severity {
    match (d.rule, profile) {
        (RuleId::FileBom | RuleId::FrontmatterLeadingBlank, p) if p.strict() => Severity::Error,
        // The profile that knows the Lazy Skills fields also holds them to their shapes.
        (RuleId::FieldType | RuleId::FieldValue, Profile::LazySkills) => Severity::Error,
        (RuleId::FieldType, Profile::Spec) => {
            let strict = ["name", "description", "compatibility"]
                .iter()
                .any(|k| skill.frontmatter.line_of(k) == d.line);
            if strict {
                Severity::Error
            } else {
                Severity::Warning
            }
        }
        (RuleId::SkillFileName, p) if p.agent_name().is_some() => Severity::Error,
        // Qwen Code and OpenClaw read a frontmatter that is not valid YAML line by line.
        (RuleId::YamlInvalid, Profile::QwenCode | Profile::Openclaw) => Severity::Warning,
        // Cline takes a file without a (closed) frontmatter as all body, under its folder's name.
        (RuleId::FrontmatterMissing | RuleId::FrontmatterUnterminated, Profile::Cline) => {
            Severity::Warning
        }
        // Claude Code lists a SKILL.md without frontmatter under its folder's name, its body's
        // first paragraph the description.
        (RuleId::FrontmatterMissing, Profile::ClaudeCode) => Severity::Warning,
        // Qwen Code's frontmatter must open the file (after a byte-order mark): else skipped.
        (RuleId::FrontmatterLeadingBlank, Profile::QwenCode) => Severity::Error,
        _ => d.severity,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::ScanOptions;
    use crate::core::source::{Agent, Root, Scope};

    /// The per-skill key's input tells apart every skill whose folder, file or root differs,
    /// however the three lie against each other, and is the same for the same skill: the
    /// shortened parts (the file's name, the root's length) never make two skills one.
    #[test]
    fn per_skill_keys_tell_every_place_apart() {
        let places = [
            ("/r", "/r/a", "/r/a/SKILL.md"),
            ("/r", "/r/a", "/r/a/skill.md"),
            ("/r", "/r/a", "/r/ab/SKILL.md"),
            ("/r", "/r/a", "/r/a/b/SKILL.md"),
            ("/r", "/r/a", "/elsewhere/SKILL.md"),
            ("/r", "/r/a/b", "/r/a/b/SKILL.md"),
            ("/r/a", "/r/a/b", "/r/a/b/SKILL.md"),
            ("/r/", "/r/a/b", "/r/a/b/SKILL.md"),
            ("/q", "/r/a", "/r/a/SKILL.md"),
            ("/r/a", "/r/a", "/r/a/SKILL.md"),
            ("/", "/r/a", "/r/a/SKILL.md"),
            ("/r", "/r", "/r/SKILL.md"),
            ("/r", "/r/a/", "/r/a/SKILL.md"),
            ("/r", "/r/a", "/r/a//SKILL.md"),
        ];
        let mut seen = std::collections::HashMap::new();
        for (root, dir, md) in places {
            let r = Root::new(root, Agent::Path, Scope::Path);
            let s = Skill::new(&r, dir.into(), md.into());
            let input = per_skill_key_input(&s, Profile::default());
            assert_eq!(input, per_skill_key_input(&s, Profile::default()));
            if let Some(other) = seen.insert(input, (root, dir, md)) {
                panic!("{other:?} and {:?} share a key", (root, dir, md));
            }
        }
        assert_eq!(seen.len(), places.len());
    }

    /// Skills that between them trip most rules.
    const ODD: &[(&str, &str)] = &[
        ("bom", "\u{feff}---\nname: bom\ndescription: d\n---\n"),
        ("blank", "\n---\nname: blank\ndescription: d\n---\n"),
        ("unterminated", "---\nname: unterminated\n"),
        ("no-frontmatter", "# Title\n"),
        ("empty", ""),
        ("nul", "---\nname: nul\0\ndescription: d\n---\n"),
        (
            "colon",
            "---\nname: colon\ndescription: Use it: for things\n---\n",
        ),
        ("list", "---\n- a\n---\n"),
        ("coerced", "---\nname: coerced\ndescription: 12\n---\n"),
        (
            "types",
            "---\nname: [a]\ndescription: d\nmetadata: x\ntype: weird\n---\n",
        ),
        (
            "fields",
            "---\nname: fields\ndescription: d\nwhen_to_use: w\nmcp: [a]\ncompatibility: \"\"\n---\n",
        ),
        (
            "Bad--Name-",
            "---\nname: Bad--Name-\ndescription: I help with <b>claude</b> things\n---\n",
        ),
        (
            "claude-x",
            "---\nname: claude-x\ndescription: \"\\e]0;t\\a \\u202E\"\n---\n",
        ),
        (
            "exe",
            "---\nname: exe\ndescription: d\ntype: executable\n---\n[gone](gone.md)\n",
        ),
        ("nameless", "---\ndescription: d\n---\n"),
    ];

    #[test]
    fn the_profiles_found_once_per_folder_are_each_skills_own() {
        // Folders named on the command line that are agents' folders (two skills in each, so
        // the second is answered from the first), a plain folder, a skill folder named like an
        // agent's folder, a user's root and a folder of commands.
        let t = tempfile::tempdir().unwrap();
        let dirs = [
            "p/.claude/skills/a",
            "p/.claude/skills/b",
            "p/.gemini/skills/c",
            "p/.gemini/skills/d",
            "p/.opencode/skill/e",
            "p/.opencode/skill/f",
            "p/plain/g",
            "p/plain/h",
            "p/.codex/skills",
            "p/.agents/skills/i/nested",
            "home/.claude/skills/j",
            "home/.claude/skills/k",
        ];
        for d in dirs {
            let name = d.rsplit('/').next().unwrap();
            let p = t.path().join(d).join("SKILL.md");
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, format!("---\nname: {name}\ndescription: d\n---\n")).unwrap();
        }
        let lib = Library::load(
            vec![
                Root::new(t.path().join("p"), Agent::Path, Scope::Path),
                Root::new(t.path().join("home"), Agent::Path, Scope::User),
            ],
            &ScanOptions::default(),
        );
        assert_eq!(lib.len(), dirs.len());
        for per_agent in [true, false] {
            let opts = CheckOptions {
                profile: Profile::Spec,
                per_agent,
                ..CheckOptions::default()
            };
            let one_by_one: Vec<Profile> = lib.skills.iter().map(|s| opts.profile_of(s)).collect();
            assert_eq!(opts.profiles(&lib.skills), one_by_one);
            if per_agent {
                // Not every skill is judged by the fallback: the test sees the agents' folders.
                assert!(one_by_one.iter().any(|&p| p != Profile::Spec));
                assert!(one_by_one.contains(&Profile::Spec));
            }
        }
    }

    #[test]
    fn every_finding_weighs_at_most_what_the_catalogue_says() {
        let t = tempfile::tempdir().unwrap();
        for (dir, text) in ODD {
            let p = t.path().join(dir).join("SKILL.md");
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
        }
        std::fs::write(t.path().join("exe/skill.md"), "x").unwrap();
        let more = [
            ("long-body", format!("---\nname: long-body\ndescription: d\n---\n{}", "line\n".repeat(600))),
            ("spelled/Skill.md", "---\nname: spelled\ndescription: d\n---\n".to_string()),
            ("deep/x/twin", "---\nname: twin\ndescription: Twin skill for reading reports. Use when reports arrive.\n---\n".to_string()),
            ("twin", "---\nname: twin\ndescription: Twin skill for reading reports. Use when reports arrive.\n---\n".to_string()),
            ("long-name", format!("---\nname: {}\ndescription: \"\"\ncompatibility: {}\n---\n", "a".repeat(70), "c".repeat(600))),
            ("xml-name", "---\nname: <b>x</b>\n---\n".to_string()),
        ];
        for (path, text) in more {
            let p = t.path().join(path);
            let p = if p.extension().is_some() {
                p
            } else {
                p.join("SKILL.md")
            };
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
        }
        let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/skills");
        let lib = Library::load(
            vec![
                Root::new(t.path(), Agent::Path, Scope::Path),
                Root::new(&demo, Agent::Path, Scope::Path),
                Root::new(t.path().join("missing"), Agent::Path, Scope::Path),
            ],
            &ScanOptions::default(),
        );
        let cache = TokenCache::in_memory();
        let mut seen = std::collections::BTreeSet::new();
        for &profile in Profile::ALL {
            let diags = check_library(
                &lib,
                &CheckOptions {
                    per_agent: false,
                    profile,
                    body: true,
                    tokens: Some((Encoding::O200kBase, &cache)),
                    enabled: None,
                    selection: None,
                    vectors: None,
                    shadowed: None,
                },
            );
            for d in diags.iter().flatten().chain(&lib.problems) {
                let most = d.rule.info().severity_under(profile);
                assert!(
                    most.is_some_and(|m| d.severity <= m),
                    "{} is {} under {profile}; the catalogue says {most:?}: {}",
                    d.rule,
                    d.severity,
                    d.message
                );
                seen.insert(d.rule);
            }
        }
        // The sweep is wide enough to mean something.
        assert!(seen.len() >= 32, "only {} rules seen: {seen:?}", seen.len());
    }

    /// The four newer agents' profiles: what each client skips is an error, what it reads by a
    /// fallback or lists anyway a warning (`tests/fixtures/agents/NEW-AGENTS.md`).
    #[test]
    fn the_newer_agents_profiles_weigh_what_their_clients_do() {
        let t = tempfile::tempdir().unwrap();
        let files = [
            ("no-frontmatter", "# Title\n\nBody.\n"),
            (
                "broken",
                "---\nname: broken\ndescription: [unclosed\n---\nBody.\n",
            ),
            (
                "no-name",
                "---\ndescription: Reads reports when asked.\n---\nBody.\n",
            ),
            ("no-description", "---\nname: no-description\n---\nBody.\n"),
            (
                "Upper",
                "---\nname: Upper\ndescription: Reads reports when asked.\n---\nBody.\n",
            ),
            (
                "extra",
                "---\nname: extra\ndescription: Reads reports when asked.\nversion: 1\n---\n",
            ),
        ];
        for (dir, text) in files {
            let p = t.path().join(dir).join("SKILL.md");
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, text).unwrap();
        }
        let lib = Library::load(
            vec![Root::new(t.path(), Agent::Path, Scope::Path)],
            &ScanOptions::default(),
        );
        let weight = |skill: &str, rule: RuleId, profile: Profile| {
            let s = lib.skills.iter().find(|s| s.dir.ends_with(skill)).unwrap();
            check_skill(s, profile)
                .into_iter()
                .find(|d| d.rule == rule)
                .map(|d| d.severity)
        };
        use Severity::{Error as E, Warning as W};
        // (skill, rule, Qwen Code, Copilot, Cline, OpenClaw)
        let table = [
            ("no-frontmatter", RuleId::FrontmatterMissing, E, E, W, E),
            ("broken", RuleId::YamlInvalid, W, E, E, W),
            ("no-name", RuleId::NameMissing, E, W, W, W),
            ("no-description", RuleId::DescriptionMissing, E, W, W, E),
            ("Upper", RuleId::NameFormat, W, W, W, W),
            ("extra", RuleId::UnknownField, W, W, W, W),
        ];
        for (skill, rule, q, g, c, o) in table {
            for (profile, want) in [
                (Profile::QwenCode, q),
                (Profile::Copilot, g),
                (Profile::Cline, c),
                (Profile::Openclaw, o),
            ] {
                assert_eq!(
                    weight(skill, rule, profile),
                    Some(want),
                    "{skill} {rule} {profile}"
                );
            }
        }
        // The spec still refuses what the clients take.
        assert_eq!(weight("Upper", RuleId::NameFormat, Profile::Spec), Some(E));
    }
}
