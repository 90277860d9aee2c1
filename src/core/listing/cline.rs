//! Cline 3.0.65's listing: no message holds it; its `skills` tool's description ends with
//! `Available skills: a, b, c.` (`@cline/core/dist/index.js`; `tests/fixtures/agents/
//! NEW-AGENTS.md`). Names only, nothing escaped, no budget, in the order its folders are read
//! (the repository's `.clinerules/skills`, `.cline/skills`, `.agents/skills`, then
//! `~/.cline/skills`, `~/.agents/skills`) and within a folder in the order the file system
//! returns its entries (not sorted: on another file system the order differs). A name shared by
//! several folders keeps the place of its first copy, though the last copy is the one loaded.

use crate::core::library::Library;
use crate::core::listing::format::{BudgetUnit, Folders, Parts};
use crate::core::listing::formats::{Fit, FormatSpec, Frame};
use crate::core::listing::own::{self, Item, name_and_description, safe_line};
use crate::core::listing::record::{Listing, ListingOptions};
use crate::core::skill::Skill;
use crate::core::source::Scope;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What comes before the names, at the end of the tool's description.
pub const HEAD: &str = "Available skills: ";

/// Cline's format.
pub static CLINE: FormatSpec = FormatSpec {
    id: "cline",
    summary: "names only, at the end of the skills tool's description",
    budget_percent: None,
    budget_unit: BudgetUnit::Chars,
    fit: Fit::Trimming,
    entry_cap: None,
    tiers_by_count: false,
    order: crate::core::listing::formats::Order::Library,
    empty_description: true,
    frame: Frame::Headed(HEAD),
    parts: |skill, _: &Folders| Parts {
        name: safe_line(name_and_description(skill).0),
        alias: None,
        description: String::new(),
        path: String::new(),
        root: None,
    },
    line: |p, _| p.name.clone(),
};

/// Where a skill's folder comes in Cline's reading (`resolveSkillsConfigSearchPaths`).
pub fn folder_rank(skill: &Skill) -> u8 {
    let root: &Path = &skill.root;
    match skill.scope {
        Scope::Project if root.ends_with(".clinerules/skills") => 0,
        Scope::Project if root.ends_with(".cline/skills") => 1,
        Scope::Project => 2,
        Scope::User if root.ends_with(".cline/skills") => 3,
        Scope::User => 4,
        _ => 5,
    }
}

/// The entries of each folder in the order the file system gives them, read once per folder.
#[derive(Default)]
struct DirOrder(HashMap<PathBuf, HashMap<OsString, usize>>);

impl DirOrder {
    /// The place of the entry of `root` that `dir` is in (0 for the root itself).
    fn position(&mut self, root: &Path, dir: &Path) -> usize {
        let Some(first) = dir
            .strip_prefix(root)
            .ok()
            .and_then(|rel| rel.components().next())
        else {
            return 0;
        };
        let order = self.0.entry(root.to_path_buf()).or_insert_with(|| {
            std::fs::read_dir(root)
                .map(|rd| {
                    rd.filter_map(Result::ok)
                        .enumerate()
                        .map(|(i, e)| (e.file_name(), i + 1))
                        .collect()
                })
                .unwrap_or_default()
        });
        order.get(first.as_os_str()).copied().unwrap_or(usize::MAX)
    }
}

/// Cline lists a skill with a name (its folder's when it has none), a description or not.
fn listable(s: &Skill) -> bool {
    s.frontmatter.parsed && !name_and_description(s).0.is_empty()
}

/// The listing (see the module's comment).
pub(crate) fn render(
    lib: &Library,
    enabled: &dyn Fn(usize) -> bool,
    _opts: &ListingOptions,
) -> Listing {
    let (dropped, keep) = own::candidates(lib, enabled, &listable);
    let mut order = DirOrder::default();
    let mut place: HashMap<usize, (u8, usize)> = HashMap::new();
    for (i, s) in lib.skills.iter().enumerate() {
        let at = (folder_rank(s), order.position(&s.root, &s.dir));
        // A copy that lost its name to a later folder gives the winner its place.
        let owner = s.shadowed_by.unwrap_or(i);
        place
            .entry(owner)
            .and_modify(|p| *p = (*p).min(at))
            .or_insert(at);
    }
    let mut keep = keep;
    keep.sort_by_key(|i| place.get(i).copied().unwrap_or((u8::MAX, usize::MAX)));
    let names: Vec<String> = keep
        .iter()
        .map(|&i| safe_line(name_and_description(&lib.skills[i]).0))
        .collect();
    let text = if names.is_empty() {
        String::new()
    } else {
        format!("{HEAD}{}.", names.join(", "))
    };
    let used = text.chars().count();
    let items = keep.into_iter().map(Item::skill).collect();
    own::finish(lib, text, None, used, dropped, items)
}
