//! One agent's view of a library: the skills it reads (its own folders and the other agents'
//! folders it also reads), which copy wins when two share a name, which conditional skills are
//! active for the files open, and what its fallbacks supply for a missing description. Every
//! listing, budget and match of one agent is computed over its view.

use super::gemini::settings::GeminiSettings;
use super::home::ClientChoices;
use super::model::{AgentModel, model, readers, reads_at};
use super::plugin::{AgentState, Effective};
use super::reach;
use super::reading::{self, Read};
use super::switches::AgentSwitches;
use crate::core::library::{Library, read_body_up_to};
use crate::core::skill::{Place, Skill};
use crate::core::source::{Agent, Scope};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Which skills an agent sees, and how.
#[derive(Debug, Clone)]
pub struct View {
    /// `None`: every skill of the library, as the library resolved their names.
    pub agent: Option<Agent>,
    /// One per library skill: the agent reads it.
    pub member: Vec<bool>,
    /// One per library skill: the skill of this view that wins its name over it.
    pub shadowed_by: Vec<Option<usize>>,
    /// One per library skill: a conditional skill (`paths:`) that no open file activates, so it
    /// is left out of the listing.
    pub dormant: Vec<bool>,
    /// Descriptions the agent's fallback supplies (the body's first paragraph), by skill.
    pub fallback_descriptions: HashMap<usize, String>,
    /// For an agent whose client reads frontmatter its own way (Gemini CLI, opencode), how it
    /// reads each skill it reads (`None`: it cannot load it); empty for the others.
    pub read_as: Vec<Option<Read>>,
    /// One per library skill: the linked place ([`Skill::linked`]) the agent reads it at, when
    /// it does not read the skill's own place (Claude Code reads `.claude/skills/NAME`, a link
    /// to `.agents/skills/NAME`).
    pub place: Vec<Option<usize>>,
}

impl View {
    /// Every skill of the library, as it resolved their names: what the generic formats list
    /// for folders given on the command line.
    pub fn all(lib: &Library) -> View {
        View {
            agent: None,
            member: vec![true; lib.len()],
            shadowed_by: lib.skills.iter().map(|s| s.shadowed_by).collect(),
            dormant: vec![false; lib.len()],
            fallback_descriptions: HashMap::new(),
            read_as: Vec::new(),
            place: vec![None; lib.len()],
        }
    }

    /// What `agent` sees of `lib`, with `files` open (for conditional skills) and Gemini CLI's
    /// settings as `gemini` says (trust: its project skills are read only in a trusted folder).
    pub fn of(lib: &Library, agent: Agent, files: &[PathBuf], gemini: &GeminiSettings) -> View {
        View::of_shared(lib, agent, files, gemini, &Shared::of(lib))
    }

    /// [`View::of`] with what every view asks of each skill made before, once for them all.
    fn of_shared(
        lib: &Library,
        agent: Agent,
        files: &[PathBuf],
        gemini: &GeminiSettings,
        shared: &Shared,
    ) -> View {
        let m = model(agent);
        let home = agent.home();
        let places = reach::modelled_here(agent).then(reach::Places::current);
        let placed: Vec<Option<Reach>> = lib
            .skills
            .iter()
            .zip(&shared.readers)
            .map(|(s, readers)| reading_place(s, readers, agent))
            .collect();
        let place: Vec<Option<usize>> = placed
            .iter()
            .map(|p| match p {
                Some(Reach::Linked(k)) => Some(*k),
                _ => None,
            })
            .collect();
        // Each skill where this agent reads it, when some are read at a linked place.
        let (relocated, folders_here);
        let (lib, folders) = if place.iter().any(Option::is_some) {
            let mut here = lib.clone();
            for (s, k) in here.skills.iter_mut().zip(&place) {
                if let Some(k) = *k {
                    *s = s.at(&s.linked[k]);
                }
            }
            relocated = here;
            folders_here = Folders::of(&relocated);
            (&relocated, &folders_here)
        } else {
            (lib, &shared.folders)
        };
        let member: Vec<bool> = placed
            .iter()
            .zip(&lib.skills)
            .map(|(p, s)| {
                p.is_some()
                    && home.own_view.is_none_or(|v| (v.reads)(s))
                    && home.layout.is_none_or(|l| l(s, gemini))
                    && places.as_ref().is_none_or(|p| reach::reads(agent, s, p))
            })
            .collect();
        let read_as: Vec<Option<Read>> = if reading::reads_its_own_way(agent) {
            lib.skills
                .par_iter()
                .zip(&member)
                .map(|(s, &mine)| mine.then(|| reading::read(agent, s)).flatten())
                .collect()
        } else {
            Vec::new()
        };
        let shadowed_by = if let Some(v) = home.own_view {
            (v.shadowing)(lib, &member)
        } else if let Some(p) = &places {
            reach::shadowing(lib, agent, &member, p)
        } else {
            shadowing(lib, agent, &member, &read_as, folders)
        };
        let dormant = lib
            .skills
            .iter()
            .zip(&member)
            .map(|(s, &mine)| mine && m.conditional && !active(s, files))
            .collect();
        let fallback_descriptions = if m.fallbacks {
            fallbacks(lib, &member)
        } else {
            HashMap::new()
        };
        View {
            agent: Some(agent),
            member,
            shadowed_by,
            dormant,
            fallback_descriptions,
            read_as,
            place,
        }
    }

    /// The agent's model, or the generic one for the whole library.
    pub fn model(&self) -> &'static AgentModel {
        model(self.agent.unwrap_or(Agent::Path))
    }

    /// How many skills the agent reads.
    pub fn len(&self) -> usize {
        self.member.iter().filter(|&&m| m).count()
    }

    /// Whether no agent wrote anything for the skill.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the agent can list the skill: its frontmatter parsed (an agent with fallbacks
    /// reads a file without one, or with invalid YAML, too) and it has a name and a description,
    /// its own or its fallbacks'.
    pub fn listable(&self, lib: &Library, i: usize) -> bool {
        let s = &lib.skills[i];
        if s.listable() {
            return true;
        }
        let m = self.model();
        m.fallbacks
            && !s.name.trim().is_empty()
            && (has_description(s) || self.fallback_descriptions.contains_key(&i))
    }

    /// The warning a fallback earns, when the skill is listed by one.
    pub fn fallback_note(&self, lib: &Library, i: usize) -> Option<String> {
        let s = &lib.skills[i];
        if !self.member.get(i).copied().unwrap_or(false) || !self.model().fallbacks {
            return None;
        }
        let mut used = Vec::new();
        if !s.frontmatter.parsed && !s.command {
            used.push("its file read though its frontmatter is missing or not valid YAML");
        }
        if s.frontmatter
            .name
            .as_deref()
            .is_none_or(|n| n.trim().is_empty())
        {
            used.push("its folder's name for the missing name");
        }
        if !has_description(s) && self.fallback_descriptions.contains_key(&i) {
            used.push(if s.command {
                "the first line of the command for the missing description"
            } else {
                "the first line of its body for the missing description"
            });
        }
        (!used.is_empty()).then(|| format!("listed with {}", used.join(" and ")))
    }
}

/// What `agent` sees of `lib`, with `files` open, as a library of its own: only the skills it
/// reads, in the library's order, their names resolved by its precedence, conditional skills no
/// open file activates kept out of listings (with why), and its fallbacks applied — a skill
/// without a name takes its folder's, one without a description the first paragraph of its
/// body, and each such skill gets a warning saying so.
pub fn agent_library(
    lib: &Library,
    agent: Agent,
    files: &[PathBuf],
    switches: Option<&AgentSwitches>,
) -> Library {
    agent_view(lib, agent, files, switches).0
}

/// [`agent_library`], with the index in `lib` of each of its skills (to map results back).
/// With `switches` (the agents' settings as read), the agent's own switch of each skill decides
/// too: `off` and `user-invocable-only` keep it out of the listing and of every matcher (the
/// model never sees it), `name-only` lists it by name only, each with the setting that said so.
pub fn agent_view(
    lib: &Library,
    agent: Agent,
    files: &[PathBuf],
    switches: Option<&AgentSwitches>,
) -> (Library, Vec<usize>) {
    let unread = GeminiSettings::default();
    let gemini = switches.map_or(&unread, AgentSwitches::gemini);
    let view = View::of(lib, agent, files, gemini);
    let home = agent.home();
    let who = model(agent).name;
    let keep: Vec<usize> = (0..lib.len()).filter(|&i| view.member[i]).collect();
    let mut out = lib.subset(&keep);
    out.agent = Some(agent);
    for (n, &i) in keep.iter().enumerate() {
        if let Some(k) = view.place[i] {
            let s = &out.skills[n];
            out.skills[n] = s.at(&s.linked[k]);
        }
        let note = view.fallback_note(lib, i);
        if reach::modelled_here(agent) {
            newcomer_reading(&mut out, n, agent);
        }
        let s = &mut out.skills[n];
        s.shadowed_by = view.shadowed_by[i].and_then(|w| keep.binary_search(&w).ok());
        if home.calls_by_folder {
            by_folder(s, agent, view.model().fallbacks);
        }
        if let Some(read) = view.read_as.get(i) {
            client_reading(&mut out, n, agent, read.as_ref());
        }
        let own_note = home.own_view.and_then(|v| (v.reading)(&mut out.skills[n]));
        if let Some(why) = home
            .own_view
            .and_then(|v| (v.explicit_only)(&out.skills[n]))
        {
            out.inactive.insert(n, why.to_string());
            out.explicit_only.insert(n);
        }
        if view.dormant[i] {
            out.inactive.insert(
                n,
                format!(
                    "conditional (paths: {}): listed once a matching file is open (--files; p on the Prompt screen)",
                    conditional_paths(&out.skills[n]).join(", ")
                ),
            );
        }
        if let Some(sw) = switches.filter(|sw| read_by_plugin(sw, agent)) {
            switched(&mut out, n, agent, &sw.effective(&lib.skills[i], agent));
        }
        if home.trusts_folders
            && let Some(source) = gemini.disabled_by(&out.skills[n].name)
        {
            out.inactive.insert(n, format!("off in {who} ({source})"));
            out.switched_off.insert(n);
        }
        let s = &mut out.skills[n];
        if let Some(note) = own_note {
            s.parse_diagnostics.push(
                crate::core::findings::diagnostic::Diagnostic::new(
                    crate::core::findings::catalogue::RuleId::ListedByFallback,
                    crate::core::findings::diagnostic::Severity::Warning,
                    format!("{who} {note}"),
                )
                .in_file(&s.skill_md),
            );
        }
        if let Some(note) = note {
            fallen_back(
                &mut out.skills[n],
                view.fallback_descriptions.get(&i),
                agent,
                &note,
            );
        }
    }
    client_wide(&mut out, agent, gemini, switches);
    client_choices(&mut out, agent);
    if let Some(why) = model(agent).no_listing {
        out.listing_off = Some(why.to_string());
    }
    (out, keep)
}

/// What the client decides as it runs, which skillscope cannot know: opencode loads its
/// skills concurrently and keeps the copy of a name loaded last (the one of the later folder
/// most often, not always: the user's copy in some runs, a top-level or a nested copy of one
/// folder either way); Gemini CLI lists a folder's skills in the order its glob returns them,
/// which it does not sort, and keeps the copy of a name its glob gave last.
fn client_choices(out: &mut Library, agent: Agent) {
    use crate::core::library::Pick;
    let choices = agent.home().choices;
    if choices == ClientChoices::Known {
        return;
    }
    for n in 0..out.skills.len() {
        let s = &out.skills[n];
        let Some(w) = s.shadowed_by else {
            continue;
        };
        let pick = match choices {
            ClientChoices::LoadOrder => Pick::LoadOrder,
            ClientChoices::GlobOrder if out.skills[w].root == s.root => Pick::FileSystemOrder,
            // Gemini CLI reads its folders one after the other: the later folder's copy wins.
            ClientChoices::GlobOrder | ClientChoices::Known => continue,
        };
        let c = out.choices.entry(w).or_default();
        c.copies.push(n);
        c.pick = Some(pick);
    }
    if choices == ClientChoices::GlobOrder {
        for n in 0..out.skills.len() {
            let s = &out.skills[n];
            if s.shadowed_by.is_none() && !out.inactive.contains_key(&n) {
                let root = s.root.to_path_buf();
                out.choices.entry(n).or_default().order = Some(root);
            }
        }
    }
}

/// How Qwen Code, Copilot, Cline or OpenClaw takes skill `n` of its view (`reach.rs`): a skill
/// its client skips or keeps out of its listing is inactive with why; what a fallback supplied
/// earns a warning.
fn newcomer_reading(out: &mut Library, n: usize, agent: Agent) {
    let s = &mut out.skills[n];
    if let Some(why) = reach::skipped(agent, s) {
        out.inactive.insert(n, why);
        return;
    }
    let note = reach::reading(agent, s);
    if let Some(u) = reach::unlisted(agent, s) {
        out.inactive.insert(n, u.why);
        if u.switched_off {
            out.switched_off.insert(n);
        }
    }
    if let Some(note) = note {
        let d = listed_by_fallback(s, format!("{} {note}", model(agent).name));
        s.parse_diagnostics.push(d);
    }
}

/// What a fallback supplied: the folder's name for a missing name, the body's first line for a
/// missing description, and the warning saying so.
fn fallen_back(s: &mut Skill, description: Option<&String>, agent: Agent, note: &str) {
    if s.frontmatter
        .name
        .as_deref()
        .is_none_or(|n| n.trim().is_empty())
    {
        s.frontmatter.name = Some(s.name.clone());
    }
    if let Some(d) = description
        && !has_description(s)
    {
        s.frontmatter.set_description(Some(d.clone()));
    }
    s.parse_diagnostics.push(listed_by_fallback(
        s,
        format!("{} {note}", model(agent).name),
    ));
}

fn listed_by_fallback(s: &Skill, message: String) -> crate::core::findings::diagnostic::Diagnostic {
    crate::core::findings::diagnostic::Diagnostic::new(
        crate::core::findings::catalogue::RuleId::ListedByFallback,
        crate::core::findings::diagnostic::Severity::Warning,
        message,
    )
    .in_file(&s.skill_md)
}

/// Skill `n` of the view as its client (Gemini CLI, opencode) read it: its name and description
/// as read, a warning when its YAML did not give them; left out of the listing when the client
/// cannot load it.
fn client_reading(out: &mut Library, n: usize, agent: Agent, read: Option<&Read>) {
    let who = model(agent).name;
    let s = &mut out.skills[n];
    match read {
        Some(r) => {
            s.name.clone_from(&r.name);
            s.frontmatter.name = Some(r.name.clone());
            s.frontmatter.set_description(r.description.clone());
            s.frontmatter.parsed = true;
            if let Some(how) = r.how {
                let d = listed_by_fallback(s, format!("{who} lists it with {how}"));
                s.parse_diagnostics.push(d);
            }
        }
        None => {
            out.inactive
                .insert(n, format!("{who} does not load it: {}", unreadable(agent)));
        }
    }
}

/// Why a client does not load a skill it cannot read.
fn unreadable(agent: Agent) -> &'static str {
    agent.home().unreadable
}

/// What the client's settings say of its whole listing and of its built-ins: Gemini CLI's
/// `skills.enabled: false` (no skill at all) and `skills.disabled` naming a built-in; opencode's
/// `permission.skill` denying the skill tool (no listing) or a built-in.
fn client_wide(
    out: &mut Library,
    agent: Agent,
    gemini: &GeminiSettings,
    switches: Option<&AgentSwitches>,
) {
    let Some(client) = model(agent).client else {
        return;
    };
    let home = agent.home();
    let who = model(agent).name;
    if home.trusts_folders {
        out.listing_off = gemini
            .skills_off
            .as_ref()
            .map(|why| format!("{who}'s skills are off ({why})"));
        for b in client.builtins {
            if let Some(source) = gemini.disabled_by(b.name) {
                out.builtins_off
                    .insert(b.name.to_string(), format!("off in {who} ({source})"));
            }
        }
    } else if home.skill_tool_switch {
        let Some(sw) = switches else {
            return;
        };
        out.listing_off = sw
            .listing_off(agent)
            .map(|why| format!("{who}'s skill tool is denied ({why}): no listing"));
        for b in client.builtins {
            let e = sw.effective_for_name(b.name, agent);
            if !e.state.listed() {
                out.builtins_off
                    .insert(b.name.to_string(), format!("off in {who} ({})", e.source));
            }
        }
    }
}

/// How Claude Code takes a skill of its own folders: it calls it by its folder's name (the
/// frontmatter `name` is only shown beside it), and it reads a SKILL.md whose frontmatter is
/// missing (no fields) or not valid YAML (its `name:` and `description:` lines as written).
fn by_folder(s: &mut Skill, agent: Agent, fallbacks: bool) {
    if s.agent == agent && !s.command && !s.plugin {
        let folder = s.dir_name().into_owned();
        if s.namespace.is_empty() {
            s.id.clone_from(&folder);
        }
        s.name = folder;
    }
    if fallbacks && !s.frontmatter.parsed {
        s.frontmatter.parsed = true;
    }
}

/// A skill below another folder of Claude Code's own skills folder: it reads only
/// `skills/NAME/SKILL.md` (commands and plugins have their own layouts).
fn nested(
    s: &Skill,
    viewer: Agent,
    (agent, scope, dir, root): (Agent, Scope, &Path, &Path),
) -> bool {
    agent == viewer
        && viewer.home().calls_by_folder
        && !s.command
        && !s.plugin
        && scope != Scope::Plugin
        && dir.parent() != Some(root)
}

/// Where an agent reads a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// At its own place.
    Own,
    /// At its linked place of this index (the first it reads).
    Linked(usize),
}

/// What every agent's view of one library asks of each skill, made once for them all
/// ([`every_view`] makes one view per agent of the same library).
struct Shared {
    /// The agents that read each skill at one of its places ([`readers`]).
    readers: Vec<Vec<Agent>>,
    /// The skills' folders, where no skill is read at a linked place.
    folders: Folders,
}

impl Shared {
    fn of(lib: &Library) -> Shared {
        Shared {
            readers: lib.skills.par_iter().map(readers).collect(),
            folders: Folders::of(lib),
        }
    }
}

/// What the shadowing asks of each skill's folder.
struct Folders {
    /// Each skill's place in the order of the skills' folders (the same folder, the same
    /// place), so that sorting compares numbers, not paths.
    order: Vec<u32>,
    /// Folders named one by one on the command line are each listed (see the library's own
    /// shadowing): they compete only with themselves. The root each such skill is, by its
    /// index in the library's roots.
    alone: Vec<Option<usize>>,
}

impl Folders {
    fn of(lib: &Library) -> Folders {
        let skills = &lib.skills;
        let mut by_dir: Vec<usize> = (0..skills.len()).collect();
        by_dir.par_sort_by(|&a, &b| skills[a].dir.cmp(&skills[b].dir));
        let mut order = vec![0_u32; skills.len()];
        let mut place = 0_u32;
        for (k, &i) in by_dir.iter().enumerate() {
            if k > 0 && skills[by_dir[k - 1]].dir != skills[i].dir {
                place += 1;
            }
            order[i] = place;
        }
        let alone = skills
            .iter()
            .map(|s| {
                (s.agent == Agent::Path && (s.dir.as_path() == &*s.root))
                    .then(|| lib.roots.iter().position(|r| r.path.as_path() == &*s.root))
                    .flatten()
            })
            .collect();
        Folders { order, alone }
    }
}

/// Where `agent` reads `s`, if it does; `readers` are the agents that read it ([`readers`]).
fn reading_place(s: &Skill, readers: &[Agent], agent: Agent) -> Option<Reach> {
    let own = (s.agent, s.scope, s.dir.as_path(), &*s.root);
    let claude_skips = |at| nested(s, agent, at);
    if s.linked.is_empty() {
        return (readers.contains(&agent) && !claude_skips(own)).then_some(Reach::Own);
    }
    if reads_at(&s.place(), agent) && !claude_skips(own) {
        return Some(Reach::Own);
    }
    s.linked
        .iter()
        .position(|p: &Place| {
            reads_at(p, agent) && !claude_skips((p.agent, p.scope, p.dir.as_path(), &*p.root))
        })
        .map(Reach::Linked)
}

/// The name `agent` tells same-named skills apart by: Claude Code's skills of its own folders go
/// by their folder's name; everything else by its shadow key.
fn called(s: &Skill, agent: Agent) -> Cow<'_, str> {
    if agent.home().calls_by_folder && s.agent == agent && !s.command && !s.plugin {
        s.dir_name()
    } else {
        Cow::Borrowed(s.shadow_key())
    }
}

/// Records what the agent's own switch does with skill `n` of its view.
fn switched(out: &mut Library, n: usize, agent: Agent, e: &Effective) {
    let who = model(agent).name;
    match e.state {
        AgentState::On => {}
        AgentState::NameOnly => {
            out.name_only
                .insert(n, format!("name only in {who} ({})", e.source));
        }
        AgentState::UserInvocableOnly => {
            out.explicit_only.remove(&n);
            out.inactive.insert(
                n,
                format!(
                    "user-invocable only in {who} ({}): kept from the model",
                    e.source
                ),
            );
        }
        AgentState::Off => {
            out.explicit_only.remove(&n);
            out.inactive
                .insert(n, format!("off in {who} ({})", e.source));
            out.switched_off.insert(n);
        }
    }
}

fn has_description(s: &Skill) -> bool {
    s.frontmatter
        .description()
        .is_some_and(|d| !d.trim().is_empty())
}

/// Among the view's skills, the copy of highest precedence wins each name: for most agents,
/// the agent's own folders before the ones it borrows, then user before project (Claude Code's
/// order), then the library's order; for Gemini CLI and opencode the copy their client reads
/// last (the project's over the user's), by the name the client read.
fn shadowing(
    lib: &Library,
    agent: Agent,
    member: &[bool],
    read_as: &[Option<Read>],
    folders: &Folders,
) -> Vec<Option<usize>> {
    let mut order: Vec<usize> = (0..lib.len()).filter(|&i| member[i]).collect();
    let folder_rank = agent.home().folder_rank;
    // A folder's number depends on the skill's root and scope alone, and finding it compares
    // the root's last folders with every folder the agent reads: once per root.
    let mut by_root: rustc_hash::FxHashMap<(*const u8, Scope), u8> =
        rustc_hash::FxHashMap::default();
    let mut rank = |s: &Skill| match folder_rank {
        // Later folders win: the highest folder number first.
        Some(folder) => {
            let root = std::sync::Arc::as_ptr(&s.root).cast::<u8>();
            let n = *by_root.entry((root, s.scope)).or_insert_with(|| folder(s));
            (u8::MAX - n, 0, 0)
        }
        // A skill wins over a command of the same name (Claude Code's rule).
        None => (
            u8::from(s.agent != agent),
            s.scope.rank(),
            u8::from(s.command),
        ),
    };
    // Each skill's rank made once, not at every comparison (a folder's number is found from its
    // path), its folder's place in the folders' order made once for every view; a stable sort,
    // as `sort_by` was.
    order.sort_by_cached_key(|&i| (rank(&lib.skills[i]), folders.order[i]));
    // Sized for every member at once: growing it a member at a time rehashed every name.
    let mut winners: rustc_hash::FxHashMap<(Option<usize>, Cow<'_, str>), usize> =
        rustc_hash::FxHashMap::with_capacity_and_hasher(order.len(), rustc_hash::FxBuildHasher);
    let mut out = vec![None; lib.len()];
    let reads_unparsed = model(agent).fallbacks;
    for i in order {
        let s = &lib.skills[i];
        let name = if read_as.is_empty() {
            if !s.frontmatter.parsed && !reads_unparsed {
                continue;
            }
            called(s, agent)
        } else {
            // A skill its client cannot load shadows nothing.
            match &read_as[i] {
                Some(r) => Cow::Borrowed(r.name.as_str()),
                None => continue,
            }
        };
        let alone = folders.alone[i];
        match winners.entry((alone, name)) {
            std::collections::hash_map::Entry::Occupied(w) => out[i] = Some(*w.get()),
            std::collections::hash_map::Entry::Vacant(w) => {
                w.insert(i);
            }
        }
    }
    out
}

/// The `paths:` globs of a skill (a list, or one string of comma-separated globs).
pub fn conditional_paths(s: &Skill) -> Vec<String> {
    let Some(f) = s.frontmatter.get("paths") else {
        return Vec::new();
    };
    match &f.value {
        serde_json::Value::String(t) => t
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        serde_json::Value::Array(a) => a
            .iter()
            .filter_map(|v| v.as_str())
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Is a conditional skill active: no `paths:`, or a file of `files` matches one of its globs?
fn active(s: &Skill, files: &[PathBuf]) -> bool {
    let globs = conditional_paths(s);
    globs.is_empty()
        || files
            .iter()
            .any(|f| globs.iter().any(|g| glob_matches(g, f)))
}

/// Whether `path` (as given: relative to the project, or absolute) matches `glob`, in the
/// gitignore-like syntax `paths:` uses: `*` within a component, `**` across them, `?` one
/// character. A glob without `/` matches the file name anywhere.
pub fn glob_matches(glob: &str, path: &Path) -> bool {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.trim_start_matches("./");
    let glob = glob.trim_start_matches("./");
    let pattern = if glob.contains('/') {
        glob.to_string()
    } else {
        format!("**/{glob}")
    };
    let Ok(g) = globset::GlobBuilder::new(&pattern)
        .literal_separator(true)
        .build()
    else {
        return false;
    };
    let m = g.compile_matcher();
    m.is_match(text) || (!text.starts_with('/') && m.is_match(format!("/{text}")))
}

/// The most bytes of a body read for a fallback description.
const FALLBACK_BYTES: u64 = 1 << 20;

/// What Claude Code lists for a skill with no description and nothing on its first lines.
const NOTHING_TO_LIST: &str = "Custom item";

/// The description the agent's fallback gives each member without one: Claude Code's, the
/// first non-blank line of its body (a heading's text without its `#`s), over 100 characters cut
/// to 97 and `...`; `Custom item` when the body has no such line.
fn fallbacks(lib: &Library, member: &[bool]) -> HashMap<usize, String> {
    lib.skills
        .iter()
        .enumerate()
        .filter(|&(i, s)| member[i] && !has_description(s))
        .filter_map(|(i, s)| {
            Some((
                i,
                claude_fallback(s)?
                    .clone()
                    .unwrap_or_else(|| NOTHING_TO_LIST.to_string()),
            ))
        })
        .collect()
}

/// Claude Code's fallback description of `s` (the first non-blank line of its body), read off
/// the body once and kept with the skill (`Readings::claude_fallback`); `None` when the file
/// cannot be read.
fn claude_fallback(s: &Skill) -> Option<&Option<String>> {
    s.facts.reading(&s.facts.readings.claude_fallback, || {
        // The beginning is enough for a first line: a huge body is not read whole.
        let body = read_body_up_to(s, FALLBACK_BYTES).ok()?;
        Some(crate::core::listing::claude_body_description(&body))
    })
}

/// Takes now, off each skill's own file, every reading an agent may ask of it (each only where
/// that agent would ask: a frontmatter that is not YAML, a missing description), so that they
/// are kept with the skill's facts. A library moved to other paths (the budget's baseline, whose
/// skills lie at `/LABEL/...`) shares its skills' facts: its agents then find what the files
/// say, rather than look for files where none are, whatever was asked before.
pub fn take_readings(lib: &Library) {
    lib.skills.par_iter().for_each(|s| {
        let _ = super::gemini::reading::read(s);
        let _ = super::opencode::reading::read(s);
        if !has_description(s) {
            let _ = claude_fallback(s);
        }
        if s.frontmatter.parsed && s.frontmatter.description().is_none() {
            let _ = reach::body_paragraphs(s);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Skill files whose readings differ by agent, dated an hour back (stamps of the last seconds
    /// are not trusted).
    fn write_reading_skills(root: &Path) {
        let skills = [
            (
                "lines",
                "---\nname: lines\ndescription: one: two\n  and more\n---\n# Body\n",
            ),
            (
                "nodesc",
                "---\nname: nodesc\n---\n\n# The heading\n\nFirst\nline.\n\nSecond.\n",
            ),
            ("empty", "---\nname: empty\n---\n"),
            ("unclosed", "---\nname: [unclosed\ndescription: x: y\n"),
            (
                "plain",
                "---\nname: plain\ndescription: Plain.\n---\nBody.\n",
            ),
            (
                "bad",
                "---\nname: bad: name\ndescription: [\n---\n\n\nA body line\n",
            ),
        ];
        for (name, text) in skills {
            std::fs::create_dir_all(root.join(name)).unwrap();
            std::fs::write(root.join(name).join("SKILL.md"), text).unwrap();
        }
        // Stamps of the last seconds are not trusted: the files are dated an hour back.
        let then = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
        for (name, _) in skills {
            for p in [root.join(name).join("SKILL.md"), root.join(name)] {
                std::fs::File::open(&p).unwrap().set_modified(then).unwrap();
            }
        }
        std::fs::File::open(root)
            .unwrap()
            .set_modified(then)
            .unwrap();
    }

    /// What the agents that read a skill file their own way read off it (Gemini CLI's and
    /// opencode's frontmatter read again, Claude Code's and Copilot's descriptions from the body)
    /// is read once, kept in the library index with the file's stamp, and is what reading the
    /// file again gives: warm, from a cold read of the same files, and after an edit.
    #[test]
    fn readings_off_the_file_are_kept_and_are_what_the_file_reads() {
        use crate::core::index::IndexStore;
        use crate::core::scan::ScanOptions;
        use crate::core::source::Root;
        let t = tempfile::tempdir().unwrap();
        let (root, cache) = (t.path().join("lib"), t.path().join("cache"));
        write_reading_skills(&root);
        let load = || {
            Library::load_indexed(
                vec![Root::new(&root, Agent::Path, Scope::Path)],
                &ScanOptions::default(),
                &IndexStore::in_dir(&cache),
            )
        };
        let read = |lib: &Library| -> Vec<String> {
            let fallback = fallbacks(lib, &vec![true; lib.skills.len()]);
            lib.skills
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    format!(
                        "{} {:?} {:?} {:?} {:?}",
                        s.name,
                        crate::core::agents::gemini::reading::read(s),
                        crate::core::agents::opencode::reading::read(s),
                        fallback.get(&i),
                        reach::body_paragraphs(s)
                    )
                })
                .collect()
        };
        // The obvious path: every reading made from the file, nothing kept before.
        let cold = |lib: &Library| {
            let mut fresh = lib.clone();
            for s in &mut fresh.skills {
                s.facts = std::sync::Arc::default();
            }
            read(&fresh)
        };
        let (lib, _) = load();
        let first = read(&lib);
        assert_eq!(first, cold(&lib));
        let kept = |lib: &Library, name: &str| {
            let at = lib.skills.iter().position(|s| s.dir.ends_with(name));
            let r = &lib.skills[at.unwrap()].facts.readings;
            (
                r.gemini_lines.get().cloned(),
                r.opencode_again.get().cloned(),
                r.claude_fallback.get().cloned(),
                r.first_paragraphs.get().cloned(),
            )
        };
        let lines = kept(&lib, "lines");
        assert!(
            matches!(lines.0, Some(Some((ref n, ref d))) if n == "lines" && d == "one: two and more")
        );
        assert!(
            matches!(lines.1, Some(Some((ref n, Some(ref d)))) if n == "lines" && d.starts_with("one: two"))
        );
        let nodesc = kept(&lib, "nodesc");
        assert_eq!(nodesc.2, Some(Some("The heading".to_string())));
        assert_eq!(nodesc.3, Some(Some("First line. Second.".to_string())));
        assert_eq!(kept(&lib, "empty").2, Some(None));
        assert!(lib.save_index().is_none());
        // Warm: nothing parsed, the readings come back from the index before anyone asks.
        let (warm, stats) = load();
        assert_eq!(stats.skills_parsed, 0);
        for name in ["lines", "nodesc", "empty", "unclosed", "bad"] {
            assert_eq!(kept(&warm, name), kept(&lib, name), "{name}");
        }
        assert_eq!(read(&warm), first);
        assert_eq!(cold(&warm), first);
        // An edited file is read again.
        std::fs::write(
            root.join("nodesc/SKILL.md"),
            "---\nname: nodesc\n---\n\n## Another heading\n\nOther words.\n",
        )
        .unwrap();
        let (edited, stats) = load();
        assert_eq!(stats.skills_parsed, 1);
        let now = read(&edited);
        assert_ne!(now, first);
        assert_eq!(now, cold(&edited));
        assert_eq!(
            kept(&edited, "nodesc").2,
            Some(Some("Another heading".to_string()))
        );
    }

    #[test]
    fn gemini_settings_and_unreadable_files_are_seen_off() {
        use crate::core::scan::ScanOptions;
        use crate::core::source::Root;
        let t = tempfile::tempdir().unwrap();
        for (name, text) in [
            ("kept", "---\nname: kept\ndescription: K.\n---\n"),
            ("Muted", "---\nname: Muted\ndescription: M.\n---\n"),
            ("bare", "no frontmatter\n"),
        ] {
            std::fs::create_dir_all(t.path().join(name)).unwrap();
            std::fs::write(t.path().join(name).join("SKILL.md"), text).unwrap();
        }
        let lib = Library::load(
            vec![Root::new(t.path(), Agent::Gemini, Scope::User)],
            &ScanOptions::default(),
        );
        let mut settings = GeminiSettings {
            disabled: vec![("muted".to_string(), "settings.json".to_string())],
            ..GeminiSettings::default()
        };
        let view = View::of(&lib, Agent::Gemini, &[], &settings);
        let off = |view: &View, settings: &GeminiSettings, name: &str| {
            let i = lib
                .skills
                .iter()
                .position(|s| s.dir_name() == name)
                .unwrap();
            client_off(view, &lib, i, Agent::Gemini, settings)
        };
        assert_eq!(off(&view, &settings, "kept"), None);
        assert_eq!(
            off(&view, &settings, "Muted").as_deref(),
            Some("off in Gemini CLI (settings.json)")
        );
        assert!(off(&view, &settings, "bare").is_some_and(|w| w.contains("does not load it")));
        settings.skills_off = Some("settings.json skills.enabled".to_string());
        assert!(off(&view, &settings, "kept").is_some_and(|w| w.contains("skills are off")));
    }

    /// A skill the client's own switch turned off is a fact of the view, apart from the other
    /// reasons a skill is kept from the listing (Cline's frontmatter switch, Qwen Code's
    /// `disable-model-invocation`).
    #[test]
    fn a_switched_off_skill_is_marked_apart_from_other_inactive_ones() {
        use crate::core::scan::ScanOptions;
        use crate::core::source::Root;
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join(".cline").join("skills");
        for (name, text) in [
            ("plain", "---\nname: plain\ndescription: P.\n---\n"),
            (
                "off",
                "---\nname: off\ndescription: O.\ndisabled: true\n---\n",
            ),
            (
                "closed",
                "---\nname: closed\ndescription: C.\ndisable-model-invocation: true\n---\n",
            ),
        ] {
            std::fs::create_dir_all(root.join(name)).unwrap();
            std::fs::write(root.join(name).join("SKILL.md"), text).unwrap();
        }
        let lib = Library::load(
            vec![Root::new(&root, Agent::Path, Scope::User)],
            &ScanOptions::default(),
        );
        // Qwen Code keeps `closed` from its listing, and switches nothing off.
        let qwen = agent_library(&lib, Agent::QwenCode, &[], None);
        let closed = qwen.skills.iter().position(|s| s.name == "closed").unwrap();
        assert!(qwen.inactive.contains_key(&closed));
        assert!(qwen.switched_off.is_empty());
        let view = agent_library(&lib, Agent::Cline, &[], None);
        let at = |name: &str| view.skills.iter().position(|s| s.name == name).unwrap();
        assert!(view.inactive.contains_key(&at("off")));
        assert!(!view.inactive.contains_key(&at("plain")));
        let off: Vec<&str> = view
            .switched_off
            .iter()
            .map(|&i| view.skills[i].name.as_str())
            .collect();
        assert_eq!(off, vec!["off"]);
        // A view of part of the library keeps the fact on the same skill.
        let keep: Vec<usize> = (0..view.len()).filter(|&i| i != at("closed")).collect();
        let part = view.subset(&keep);
        let off: Vec<&str> = part
            .switched_off
            .iter()
            .map(|&i| part.skills[i].name.as_str())
            .collect();
        assert_eq!(off, vec!["off"]);
    }

    #[test]
    fn the_fallback_is_the_first_line_as_claude_code_takes_it() {
        use crate::core::listing::claude_body_description as first;
        assert_eq!(
            first("\n\n# Heading used\n\nNext.").as_deref(),
            Some("Heading used")
        );
        assert_eq!(first("  plain line  \nmore").as_deref(), Some("plain line"));
        assert_eq!(first("#NoSpace").as_deref(), Some("#NoSpace"));
        let long = "x".repeat(101);
        assert_eq!(first(&long), Some(format!("{}...", "x".repeat(97))));
        assert_eq!(first(&"y".repeat(100)).map(|s| s.len()), Some(100));
        assert_eq!(first(" \n\n"), None);
    }

    #[test]
    fn paths_globs_match_as_gitignore_does() {
        assert!(glob_matches("src/**/*.rs", Path::new("src/core/a.rs")));
        assert!(glob_matches("*.py", Path::new("deep/down/x.py")));
        assert!(!glob_matches("src/*.rs", Path::new("src/core/a.rs")));
        assert!(!glob_matches("*.py", Path::new("x.rs")));
    }
}

/// What one agent does with one skill of the library, as every per-skill view of the app shows
/// it: the same decisions [`agent_view`] makes, one per library skill, without building the
/// view's library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// The agent does not read the skill's folder.
    NotRead,
    /// Another copy of its name wins in the agent's precedence.
    Shadowed,
    /// A conditional skill (`paths:`) that no open file activates yet.
    Dormant,
    /// The agent's own switch keeps it from the model (`off`, `user-invocable-only`), with the
    /// setting that says so.
    Off(String),
    /// Listed by name only (Claude Code's `name-only`), with the setting.
    NameOnly(String),
    /// The agent lists it and may load it.
    On,
}

impl Seen {
    /// Whether the agent lists the skill (in full or by name).
    pub fn listed(&self) -> bool {
        matches!(self, Seen::On | Seen::NameOnly(_))
    }
}

/// Why the client of `agent` keeps skill `i` (read by it) from the model, when it does: it cannot
/// load the file, or Gemini CLI's `skills.enabled: false` or `skills.disabled`.
fn client_off(
    view: &View,
    lib: &Library,
    i: usize,
    agent: Agent,
    gemini: &GeminiSettings,
) -> Option<String> {
    let who = model(agent).name;
    let read = match view.read_as.get(i) {
        Some(None) => return Some(format!("{who} does not load it: {}", unreadable(agent))),
        Some(Some(r)) => Some(r),
        None => None,
    };
    if !agent.home().trusts_folders {
        return None;
    }
    if let Some(why) = &gemini.skills_off {
        return Some(format!("{who}'s skills are off ({why})"));
    }
    let name = read.map_or(lib.skills[i].name.as_str(), |r| r.name.as_str());
    gemini
        .disabled_by(name)
        .map(|source| format!("off in {who} ({source})"))
}

/// Whether `agent`'s view takes its switches from its plugin. Gemini CLI's `skills.disabled`
/// is read with its folder-trust rule by [`GeminiSettings`] instead (its plugin writes them).
fn read_by_plugin(sw: &AgentSwitches, agent: Agent) -> bool {
    sw.plugin(agent).is_some() && !agent.home().trusts_folders
}

/// Each skill's on/off outside one agent's view: the one definition every command without
/// `--agent` uses. A skill an agent's folder holds is on when some agent with a released client
/// that reads it has it on: by that agent's own switch where it has switches (Codex's
/// `enabled = false`, Claude Code's `skillOverrides`, Gemini CLI's `skills.disabled`), by
/// skillscope's own store (`store`, index-aligned with the library) where it has none. A skill
/// read only by a design document's agent is on as that agent has it (Lazy Skills' `auto_load`),
/// and a skill of a folder given on the command line as the store has it.
pub fn on_for_readers(
    lib: &Library,
    switches: Option<&AgentSwitches>,
    store: &[bool],
) -> Vec<bool> {
    let unread = GeminiSettings::default();
    let gemini = switches.map_or(&unread, AgentSwitches::gemini);
    on_for_readers_in(lib, &every_view(lib, gemini), switches, store)
}

/// Every agent's view of `lib` with no file open, in the order of
/// [`models`](super::model::models), made on every core: what [`on_for_readers_in`] and
/// [`shadowed_findings_in`] both go through, so that a command needing both makes each view once.
pub fn every_view(lib: &Library, gemini: &GeminiSettings) -> Vec<View> {
    let shared = Shared::of(lib);
    super::model::models()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|m| View::of_shared(lib, m.agent, &[], gemini, &shared))
        .collect()
}

/// [`on_for_readers`] over views made before ([`every_view`], with `switches`' Gemini settings).
pub fn on_for_readers_in(
    lib: &Library,
    views: &[View],
    switches: Option<&AgentSwitches>,
    store: &[bool],
) -> Vec<bool> {
    let stored = |i: usize| store.get(i).copied().unwrap_or(true);
    // A skill of a folder given on the command line is on as the store has it, whoever reads
    // it: when every skill is one, no agent's verdict is asked for.
    if lib
        .skills
        .iter()
        .all(|s| matches!(s.agent, Agent::Path | Agent::Demo))
    {
        return (0..lib.len()).map(stored).collect();
    }
    let unread = GeminiSettings::default();
    let gemini = switches.map_or(&unread, AgentSwitches::gemini);
    // Per skill: (read by a released client, on for one; read by a design agent, on for one).
    let mut by = vec![(false, false, false, false); lib.len()];
    for (agent, view) in crate::core::agents::model::models()
        .map(|m| m.agent)
        .zip(views)
    {
        let design = agent.from_design_documents();
        for (i, s) in seen_in(view, lib, agent, gemini, switches)
            .into_iter()
            .enumerate()
        {
            if matches!(s, Seen::NotRead) {
                continue;
            }
            let own = super::obeys_own_switches(agent, &lib.skills[i]);
            let on = match s {
                Seen::Off(_) => false,
                // Listed, or not a switch's verdict (shadowed, dormant): the agent's own switch
                // let it through where it has one, else skillscope's store decides.
                _ => own || stored(i),
            };
            let b = &mut by[i];
            if design {
                b.2 = true;
                b.3 |= on;
            } else {
                b.0 = true;
                b.1 |= on;
            }
        }
    }
    by.iter()
        .enumerate()
        .map(|(i, &(real, real_on, design, design_on))| {
            if matches!(lib.skills[i].agent, Agent::Path | Agent::Demo) {
                stored(i)
            } else if real {
                real_on
            } else if design {
                design_on
            } else {
                stored(i)
            }
        })
        .collect()
}

/// The `shadowed` finding of each skill (index-aligned with `lib`) as the agents that read it
/// resolve its name, the same agents and precedence every view of theirs uses: a copy that some
/// reader passes over for another copy of its name is named with those readers and the copy each
/// loads instead (Claude Code loads the user's copy over the project's, opencode the project's
/// over the user's). The design documents' agents count only for a skill no released client
/// reads; a skill no agent reads (a folder given on the command line) keeps the library's
/// resolution ([`crate::core::Skill::shadowed_by`]).
pub fn shadowed_findings(
    lib: &Library,
    switches: Option<&AgentSwitches>,
) -> Vec<Option<crate::core::findings::diagnostic::Diagnostic>> {
    let unread = GeminiSettings::default();
    let gemini = switches.map_or(&unread, AgentSwitches::gemini);
    shadowed_findings_in(lib, &every_view(lib, gemini))
}

/// [`shadowed_findings`] over views made before ([`every_view`]).
pub fn shadowed_findings_in(
    lib: &Library,
    views: &[View],
) -> Vec<Option<crate::core::findings::diagnostic::Diagnostic>> {
    use crate::core::findings::catalogue::RuleId;
    use crate::core::findings::diagnostic::{Diagnostic, Severity};
    // Per skill: (read by a released client, read by a design agent, (agent, winner) pairs of
    // released clients, of design agents).
    type Passed = Vec<(Agent, usize)>;
    let mut by: Vec<(bool, bool, Passed, Passed)> =
        vec![(false, false, Vec::new(), Vec::new()); lib.len()];
    for (agent, view) in super::model::models().map(|m| m.agent).zip(views) {
        let design = agent.from_design_documents();
        for (i, b) in by.iter_mut().enumerate() {
            if !view.member[i] {
                continue;
            }
            let passed = view.shadowed_by[i].map(|w| (agent, w));
            if design {
                b.1 = true;
                b.3.extend(passed);
            } else {
                b.0 = true;
                b.2.extend(passed);
            }
        }
    }
    by.into_iter()
        .enumerate()
        .map(|(i, (real, design, real_passed, design_passed))| {
            let passed = if real {
                real_passed
            } else if design {
                design_passed
            } else {
                lib.skills[i]
                    .shadowed_by
                    .map(|w| vec![(lib.skills[w].agent, w)])
                    .unwrap_or_default()
            };
            if passed.is_empty() {
                return None;
            }
            // One clause per winning copy, with the agents that load it.
            let mut winners: Vec<(usize, Vec<Agent>)> = Vec::new();
            for (agent, w) in passed {
                match winners.iter_mut().find(|(x, _)| *x == w) {
                    Some((_, agents)) => agents.push(agent),
                    None => winners.push((w, vec![agent])),
                }
            }
            let clauses: Vec<String> = winners
                .iter()
                .map(|(w, agents)| {
                    let winner = &lib.skills[*w];
                    let names: Vec<&str> = agents.iter().map(|a| a.as_str()).collect();
                    let verb = if names.len() == 1 { "loads" } else { "load" };
                    format!(
                        "shadowed by {} ({} {}): {} {verb} that copy, not this one",
                        winner.dir.display(),
                        winner.agent,
                        winner.scope,
                        names.join(", ")
                    )
                })
                .collect();
            Some(Diagnostic::new(
                RuleId::Shadowed,
                Severity::Warning,
                format!("{}; rename or remove one of them", clauses.join("; ")),
            ))
        })
        .collect()
}

/// [`Seen`] for every skill of `lib` by `agent`, with `files` open and the agents' settings as
/// read (`switches`). An agent without switches of its own sees every skill it reads `On`:
/// skillscope's own store decides for it, and the caller applies that.
pub fn seen(
    lib: &Library,
    agent: Agent,
    files: &[PathBuf],
    switches: Option<&AgentSwitches>,
) -> Vec<Seen> {
    let unread = GeminiSettings::default();
    let gemini = switches.map_or(&unread, AgentSwitches::gemini);
    let view = View::of(lib, agent, files, gemini);
    seen_in(&view, lib, agent, gemini, switches)
}

/// [`seen`] through `agent`'s view made before.
fn seen_in(
    view: &View,
    lib: &Library,
    agent: Agent,
    gemini: &GeminiSettings,
    switches: Option<&AgentSwitches>,
) -> Vec<Seen> {
    let sw = switches.filter(|sw| read_by_plugin(sw, agent));
    (0..lib.len())
        .map(|i| {
            if !view.member[i] {
                return Seen::NotRead;
            }
            if view.shadowed_by[i].is_some() {
                return Seen::Shadowed;
            }
            if view.dormant[i] {
                return Seen::Dormant;
            }
            if let Some(why) = client_off(view, lib, i, agent, gemini) {
                return Seen::Off(why);
            }
            if let Some(why) = agent.home().not_opted_in.and_then(|f| f(&lib.skills[i])) {
                return Seen::Off(why);
            }
            let Some(sw) = sw else {
                return Seen::On;
            };
            let e = sw.effective(&lib.skills[i], agent);
            match e.state {
                AgentState::On => Seen::On,
                AgentState::NameOnly => Seen::NameOnly(e.source),
                AgentState::UserInvocableOnly | AgentState::Off => Seen::Off(format!(
                    "{} in {} ({})",
                    e.state.as_str(),
                    model(agent).name,
                    e.source
                )),
            }
        })
        .collect()
}
