//! The one loader both front ends use: which roots to read (the folders given, else every
//! agent's, else the bundled demo), the scan, the on/off state, and every level's token counts
//! with the probed tool schemas.

use crate::core::front::state::{self, EnableState};
use crate::core::index::IndexStore;
use crate::core::listing::{self, Format};
use crate::core::probe::ProbeStore;
use crate::core::scan::ScanOptions;
use crate::core::skill::{Level, SkillKind};
use crate::core::source::{self, Agent, Root, Scope};
use crate::core::tokens::{self, Encoding, Progress, ResourceTokens, SkillTokens, TokenCache};
use crate::core::{Diagnostic, Library};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// Which skills to read: what the command line's paths and options say, in front-end-neutral
/// terms.
#[derive(Debug, Clone, Default)]
pub struct LibrarySpec {
    /// Skill folders or libraries to read instead of the agents' default folders.
    pub paths: Vec<PathBuf>,
    /// The walk's limits.
    pub scan: ScanOptions,
    /// Folders read beside the agents' own when no paths are given (the config file's `roots`).
    pub extra_roots: Vec<PathBuf>,
    /// Folders given to Claude Code with `--add-dir`: their `.claude/skills` are its skills too.
    pub add_dirs: Vec<PathBuf>,
    /// With no paths given, read only the project's folders (the current folder and its parents
    /// up to the repository root): not the user's, the system's, plugins' or the config file's.
    pub project_only: bool,
}

impl LibrarySpec {
    /// The given folders, read with the default scan options.
    pub fn of_paths(paths: impl IntoIterator<Item = impl Into<PathBuf>>) -> LibrarySpec {
        LibrarySpec {
            paths: paths.into_iter().map(Into::into).collect(),
            ..LibrarySpec::default()
        }
    }

    /// The roots to scan: the given paths, else every agent folder that exists, else the demo
    /// (then `true`).
    pub fn roots(&self) -> (Vec<Root>, bool) {
        let added = source::add_dir_roots(&self.add_dirs);
        if !self.paths.is_empty() {
            let mut roots = source::path_roots(&self.paths);
            roots.extend(added);
            return (roots, false);
        }
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        if self.project_only {
            let mut roots = source::project_roots(dirs::home_dir().as_deref(), &cwd);
            roots.extend(added);
            return (roots, false);
        }
        let mut roots = source::default_roots(dirs::home_dir().as_deref(), &cwd);
        for r in source::path_roots(&self.extra_roots)
            .into_iter()
            .chain(added)
        {
            if !roots.iter().any(|x| x.path == r.path) {
                roots.push(r);
            }
        }
        if roots.is_empty() {
            (vec![demo_root()], true)
        } else {
            (roots, false)
        }
    }

    /// Reads the library through the library index in skillscope's cache folder. Agent folders
    /// that exist but hold no skill fall back to the demo too, so a first run always has
    /// something to show; folders named by hand never do.
    pub fn load(&self) -> Library {
        self.load_with(&IndexStore::open())
    }

    /// [`LibrarySpec::load`] through the index in `store` (`IndexStore::none()`: walk and read
    /// it all).
    pub fn load_with(&self, store: &IndexStore) -> Library {
        let (roots, demo) = self.roots();
        let (mut lib, _) = Library::load_indexed(roots, &self.scan, store);
        lib.demo = demo;
        // The agents' folders include OpenClaw's workspace, whichever agent is in view.
        if self.project_only && self.paths.is_empty() {
            if lib.is_empty() {
                lib.notes.push(format!(
                    "--project-only: no agent's project skill folder (such as .claude/skills or \
                     .agents/skills) in {} or its parents up to the repository root",
                    crate::core::words::escape::path(
                        &std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
                    )
                ));
            }
            return lib;
        }
        let problem = self
            .paths
            .is_empty()
            .then(dirs::home_dir)
            .flatten()
            .and_then(|h| source::openclaw_config_problem(&h));
        if lib.is_empty() && !demo && self.paths.is_empty() {
            let (mut demo_lib, _) = Library::load_indexed(vec![demo_root()], &self.scan, store);
            demo_lib.demo = true;
            demo_lib.notes.extend(problem);
            return demo_lib;
        }
        lib.notes.extend(problem);
        lib
    }
}

fn demo_root() -> Root {
    Root::new(demo_dir(), Agent::Demo, Scope::Demo)
}

static DEMO: include_dir::Dir<'_> = include_dir::include_dir!("$CARGO_MANIFEST_DIR/assets/skills");

/// Why the embedded demo could not be unpacked, once it was tried and failed.
static DEMO_PROBLEM: OnceLock<String> = OnceLock::new();

/// The bundled demo library: the source tree's copy when it is there, else the copy embedded in
/// the binary, unpacked once under the cache folder (scripts keep their run bit).
pub fn demo_dir() -> PathBuf {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/skills");
    if source.is_dir() {
        return source;
    }
    let target =
        crate::core::files::paths::cache_root().join(concat!("demo-", env!("CARGO_PKG_VERSION")));
    if !target.is_dir()
        && let Err(e) = unpack_demo(&target)
    {
        let _ = DEMO_PROBLEM.set(format!(
            "cannot unpack the demo library to {}: {e}",
            target.display()
        ));
    }
    target
}

/// What went wrong unpacking the demo library, for the front end to say.
pub fn demo_problem() -> Option<&'static str> {
    DEMO_PROBLEM.get().map(String::as_str)
}

fn unpack_demo(target: &Path) -> std::io::Result<()> {
    let tmp = target.with_extension("partial");
    if let Some(cache) = target.parent() {
        crate::core::files::paths::private_dir(cache)?;
    }
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    DEMO.extract(&tmp)?;
    mark_scripts_executable(&tmp)?;
    std::fs::rename(&tmp, target)
}

/// Files starting with `#!` get their run bit back (the embedded copy does not keep modes; on
/// Windows, which has no run bits, nothing changes).
fn mark_scripts_executable(dir: &Path) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let p = e.path();
        if e.file_type()?.is_dir() {
            mark_scripts_executable(&p)?;
        } else if std::fs::read(&p)?.starts_with(b"#!") {
            let meta = e.metadata()?;
            std::fs::set_permissions(&p, crate::core::files::fsx::permissions(0o755, &meta))?;
        }
    }
    Ok(())
}

/// skillscope's own on/off state from `path` (else the default place), with what was wrong
/// with the file; `None` when the system has no config folder for it.
pub fn load_state(path: Option<&Path>) -> (Option<EnableState>, Vec<Diagnostic>) {
    let Some(path) = path.map(Path::to_path_buf).or_else(state::default_path) else {
        return (None, Vec::new());
    };
    let (st, diags) = EnableState::load(&path);
    (Some(st), diags)
}

/// Each skill's on/off: the saved choice, else the skill's own default (its frontmatter may
/// keep it out of the listing).
///
/// In one agent's view, an agent with switches of its own obeys only those (the view applies
/// them, see [`crate::core::agents::view::agent_view`]): skillscope's own store is for the
/// agents without any.
pub fn enabled_mask(lib: &Library, state: Option<&EnableState>) -> Vec<bool> {
    lib.skills
        .iter()
        .map(|s| {
            if let Some(on) = lib
                .agent
                .and_then(|a| crate::core::agents::own_switch(a, s))
            {
                return on;
            }
            match state {
                Some(st) => st.is_enabled(s),
                None => state::default_for(s).0,
            }
        })
        .collect()
}

/// One level's counts for every skill, index-aligned with the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LevelCounts {
    /// Each skill's listing entry.
    L1(Vec<Option<u32>>),
    /// Each skill's SKILL.md.
    L2(Vec<Option<u32>>),
    /// Each skill's resources with their counts, and the tokens of the tool schema its last
    /// passing probe (remembered on disk) answered with.
    L3 {
        /// Each skill's resources.
        resources: Vec<Vec<ResourceTokens>>,
        /// Each skill's tool schema.
        schemas: Vec<Option<u32>>,
    },
}

impl LevelCounts {
    /// The level these counts are of.
    pub fn level(&self) -> Level {
        match self {
            LevelCounts::L1(_) => Level::L1,
            LevelCounts::L2(_) => Level::L2,
            LevelCounts::L3 { .. } => Level::L3,
        }
    }

    /// Writes this level into every skill's figures. A schema already there (a probe of this
    /// session) is newer than the remembered one and stays.
    pub fn apply_to(self, figures: &mut [SkillTokens]) {
        match self {
            LevelCounts::L1(v) => {
                for (c, n) in figures.iter_mut().zip(v) {
                    c.l1 = n;
                }
            }
            LevelCounts::L2(v) => {
                for (c, n) in figures.iter_mut().zip(v) {
                    c.l2 = n;
                }
            }
            LevelCounts::L3 { resources, schemas } => {
                for ((c, r), schema) in figures.iter_mut().zip(resources).zip(schemas) {
                    c.l3 = Some(tokens::l3_total(&r));
                    c.resources = r;
                    if c.schema.is_none() {
                        c.schema = schema;
                    }
                }
            }
        }
    }
}

/// Counts one level of every skill: L1 is each skill's entry in `format`, L3 adds the tool
/// schema an executable skill's last passing probe answered with (as `probes` remembers it).
/// `None` when `stop` was set before the end (the rest is skipped).
#[allow(clippy::too_many_arguments)]
pub fn count_level(
    lib: &Library,
    level: Level,
    format: Format,
    enc: Encoding,
    cache: &TokenCache,
    probes: Option<&ProbeStore>,
    progress: &(dyn Fn(Progress) + Sync),
    stop: &AtomicBool,
) -> Option<LevelCounts> {
    Some(match level {
        Level::L1 => {
            // Counts are kept by what each entry is made of: an unchanged skill's entry is not
            // made at all.
            let maker = listing::EntryMaker::new(format);
            LevelCounts::L1(tokens::count_l1_keyed(
                lib,
                &|s| maker.key(s),
                &|_, s| std::borrow::Cow::Owned(maker.entry(s)),
                enc,
                cache,
                progress,
                stop,
            )?)
        }
        Level::L2 => LevelCounts::L2(tokens::count_l2_unless(lib, enc, cache, progress, stop)?),
        Level::L3 => {
            let resources = tokens::count_l3_unless(lib, enc, cache, progress, stop)?;
            let schemas = lib
                .skills
                .iter()
                .map(|s| {
                    (s.kind() == SkillKind::Executable)
                        .then(|| probes?.schema(s))
                        .flatten()
                        .map(|text| tokens::count_text(text, enc, cache))
                })
                .collect();
            LevelCounts::L3 { resources, schemas }
        }
    })
}

/// Every level of every skill, L1 in `format`, with the probed schemas in L3.
pub fn count_levels(
    lib: &Library,
    format: Format,
    enc: Encoding,
    cache: &TokenCache,
    probes: &ProbeStore,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<SkillTokens> {
    let never = AtomicBool::new(false);
    let mut figures = vec![SkillTokens::default(); lib.skills.len()];
    for level in [Level::L1, Level::L2, Level::L3] {
        if let Some(c) = count_level(
            lib,
            level,
            format,
            enc,
            cache,
            Some(probes),
            progress,
            &never,
        ) {
            c.apply_to(&mut figures);
        }
    }
    figures
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(p: &Path, s: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap();
    }

    #[test]
    fn named_folders_never_fall_back_to_the_demo() {
        let t = tempfile::tempdir().unwrap();
        let spec = LibrarySpec::of_paths([t.path()]);
        let lib = spec.load();
        assert!(!lib.demo);
        assert!(lib.is_empty());
        assert_eq!(lib.roots.len(), 1);
        assert_eq!(lib.roots[0].path, t.path());
    }

    #[test]
    fn every_level_is_counted_and_l1_follows_the_format() {
        let t = tempfile::tempdir().unwrap();
        write(
            &t.path().join("pdf/SKILL.md"),
            "---\nname: pdf\ndescription: Reads PDF files.\n---\nBody text here.\n",
        );
        write(&t.path().join("pdf/guide.md"), "A guide with some words.\n");
        let lib = LibrarySpec::of_paths([t.path()]).load();
        let cache = TokenCache::in_memory();
        let probes = ProbeStore::at(t.path().join("probes.json"));
        let enc = Encoding::O200kBase;
        let md = count_levels(
            &lib,
            Format::Markdown,
            enc,
            &cache,
            &probes,
            &tokens::no_progress,
        );
        let xml = count_levels(
            &lib,
            Format::Xml,
            enc,
            &cache,
            &probes,
            &tokens::no_progress,
        );
        let entry = |f| tokens::count(enc, &listing::entry(&lib.skills[0], f)) as u32;
        assert_eq!(md[0].l1, Some(entry(Format::Markdown)));
        assert_eq!(xml[0].l1, Some(entry(Format::Xml)));
        assert_ne!(md[0].l1, xml[0].l1);
        let skill_md = std::fs::read_to_string(&lib.skills[0].skill_md).unwrap();
        assert_eq!(md[0].l2, Some(tokens::count(enc, &skill_md) as u32));
        assert_eq!(md[0].resources.len(), 1);
        assert_eq!(
            md[0].l3,
            Some(tokens::count(enc, "A guide with some words.\n") as u32)
        );
        assert_eq!(md[0].schema, None, "not an executable skill");
    }

    #[test]
    fn a_stopped_count_says_so() {
        let t = tempfile::tempdir().unwrap();
        write(
            &t.path().join("a/SKILL.md"),
            "---\nname: a\ndescription: d\n---\n",
        );
        let lib = LibrarySpec::of_paths([t.path()]).load();
        let cache = TokenCache::in_memory();
        let probes = ProbeStore::at(t.path().join("probes.json"));
        let stop = AtomicBool::new(true);
        for level in [Level::L1, Level::L2, Level::L3] {
            let got = count_level(
                &lib,
                level,
                Format::Xml,
                Encoding::O200kBase,
                &cache,
                Some(&probes),
                &tokens::no_progress,
                &stop,
            );
            assert_eq!(got, None, "{level:?}");
        }
    }

    #[test]
    fn a_schema_of_this_session_beats_the_remembered_one() {
        let mut figures = vec![SkillTokens {
            schema: Some(7),
            ..SkillTokens::default()
        }];
        LevelCounts::L3 {
            resources: vec![Vec::new()],
            schemas: vec![Some(99)],
        }
        .apply_to(&mut figures);
        assert_eq!(figures[0].schema, Some(7));
        assert_eq!(figures[0].l3, Some(0));
    }

    #[test]
    fn without_a_state_file_a_skill_keeps_its_own_default() {
        let t = tempfile::tempdir().unwrap();
        write(
            &t.path().join("quiet/SKILL.md"),
            "---\nname: quiet\ndescription: d\ndisable-model-invocation: true\n---\n",
        );
        write(
            &t.path().join("loud/SKILL.md"),
            "---\nname: loud\ndescription: d\n---\n",
        );
        let lib = LibrarySpec::of_paths([t.path()]).load();
        let mask = enabled_mask(&lib, None);
        let on = |n: &str| mask[lib.find(n).unwrap()];
        assert!(on("loud"));
        assert!(!on("quiet"));
        let (st, diags) = load_state(Some(&t.path().join("missing/state.json")));
        assert!(diags.is_empty());
        assert_eq!(enabled_mask(&lib, st.as_ref()), mask);
    }
}
