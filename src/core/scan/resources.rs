//! A skill's resources: the files below its folder, assigned from the walk or listed by name.

use super::{
    options::{Found, RESOURCE_DEPTH, Resources, Walked, refused},
    walk::path_order,
};
use crate::core::files::fsx::Stamp;
use crate::core::index::ResourceRecord;
use crate::core::resource::{Resource, looks_like_text};
use rustc_hash::FxHashMap;
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Gives each file of a walk to the skill folder it is in (the nearest one above it), as that
/// skill's resource, unless a dot-name or `node_modules` lies between them or it is deeper than
/// [`RESOURCE_DEPTH`] folders. Folders the walker's depth limit kept it out of are read here, as
/// far as they belong to a skill.
pub(super) fn assign_resources(
    list: &[Found],
    by_dir: &FxHashMap<OsString, usize>,
    files: Vec<PathBuf>,
    w: &mut Walked,
    out: &mut FxHashMap<OsString, Vec<PathBuf>>,
) {
    let Walked {
        frontier,
        linked,
        root_real,
        record,
        ..
    } = w;
    // `path` is a file (`start` its folder) or a folder (`start` itself). A link that leads out
    // of the skill folder is not one of its resources: the agent reads files by their path inside
    // the skill (the rule `show` applies too). Only paths the walker reached through a link are
    // resolved to check that.
    let owner = |path: &Path, start: &Path| -> Option<(&Found, usize)> {
        let mut depth = 0;
        let mut through_link = start != path && !linked.is_empty() && linked.contains(path);
        let mut cur = start;
        loop {
            if let Some(&i) = by_dir.get(cur.as_os_str()) {
                let f = &list[i];
                if through_link && !crate::core::resource::stays_inside(&f.dir, path) {
                    return None;
                }
                return Some((f, depth));
            }
            through_link = through_link || (!linked.is_empty() && linked.contains(cur));
            let name = cur.file_name()?.to_string_lossy();
            if name.starts_with('.') || name == "node_modules" {
                return None;
            }
            depth += 1;
            if depth > RESOURCE_DEPTH {
                return None;
            }
            cur = cur.parent()?;
        }
    };
    for file in files {
        let hidden = file
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        let Some(parent) = file.parent() else {
            continue;
        };
        if let Some((f, _)) = owner(&file, parent)
            && file != f.file
        {
            out.entry(f.dir.clone().into_os_string())
                .or_default()
                .push(file);
        }
    }
    let mut met = Vec::new();
    for (dir, _) in frontier {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        if name.is_some_and(|n| n.starts_with('.') || n == "node_modules") {
            continue;
        }
        // The folder itself is a file's parent as far as `owner` is concerned.
        if let Some((f, depth)) = owner(dir, dir) {
            let files = out.entry(f.dir.clone().into_os_string()).or_default();
            let mut below = Below::new(root_real, &f.dir);
            below.collect(dir, depth, &f.file, files, &mut record.dirs);
            met.append(&mut below.links);
        }
    }
    record.dirs.sort_unstable_by(|a, b| path_order(&a.0, &b.0));
    // The links met below the walker's depth limit count as the walk's own.
    if !met.is_empty() {
        record.links.extend(met.iter().cloned());
        record.links.sort_unstable_by(|a, b| path_order(a, b));
        record.links.dedup();
        linked.extend(met);
    }
}

/// The most entries one skill's look below the walker's depth limit visits: a skill's files
/// are a handful, so this only stops a link into a huge tree.
pub(super) const MAX_BELOW: usize = 10_000;

/// A look at the files of a skill below the walker's depth limit (or of a skill file given
/// directly), held to the walk's rules: links into system folders or to folders above the root
/// or the skill are not followed, and at most [`MAX_BELOW`] entries are visited.
pub(super) struct Below<'a> {
    root_real: &'a Path,
    /// The skill folder, links resolved: a link that leads out of it is not followed.
    skill_real: PathBuf,
    left: usize,
    /// Every link followed.
    links: Vec<PathBuf>,
}

impl<'a> Below<'a> {
    fn new(root_real: &'a Path, skill_dir: &Path) -> Self {
        Below {
            root_real,
            skill_real: std::fs::canonicalize(skill_dir)
                .unwrap_or_else(|_| skill_dir.to_path_buf()),
            left: MAX_BELOW,
            links: Vec::new(),
        }
    }

    /// Files below `dir` (itself `depth` levels below its skill folder). Stops at nested skills,
    /// dot-names and `node_modules`, as the walk does; each folder is stamped before it is read.
    fn collect(
        &mut self,
        dir: &Path,
        depth: usize,
        skill_file: &Path,
        files: &mut Vec<PathBuf>,
        dirs: &mut Vec<(PathBuf, Stamp)>,
    ) {
        if depth > RESOURCE_DEPTH {
            return;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut subdirs = Vec::new();
        let mut here = Vec::new();
        for e in entries.flatten() {
            if self.left == 0 {
                break;
            }
            self.left -= 1;
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            let path = e.path();
            // Links are followed, as by the walk, and refused where the walk refuses them; a
            // link to a folder above this one would be a cycle.
            if e.file_type().is_ok_and(|t| t.is_symlink()) {
                let Ok(real) = std::fs::canonicalize(&path) else {
                    continue;
                };
                let dir_real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
                if refused(&real, self.root_real).is_some()
                    || dir_real.starts_with(&real)
                    || !real.starts_with(&self.skill_real)
                {
                    continue;
                }
                self.links.push(path.clone());
            }
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                if name != "node_modules" {
                    subdirs.push((path, Stamp::of(&meta)));
                }
            } else if meta.is_file() {
                // A folder holding its own skill file is a nested skill, not part of this one.
                if name == "SKILL.md" || name == "skill.md" {
                    return;
                }
                if path != skill_file {
                    here.push(path);
                }
            }
        }
        files.append(&mut here);
        for (sub, stamp) in subdirs {
            dirs.push((sub.clone(), stamp));
            self.collect(&sub, depth + 1, skill_file, files, dirs);
        }
    }
}

/// Where a skill's resource paths come from.
pub(super) enum Listing<'a> {
    /// The files a fresh walk gave this skill.
    Walked(&'a [PathBuf]),
    /// The walk came from the index: the remembered list (if the record fits) or a new look.
    Remembered,
    /// No walk (a skill file given directly): a new look at the folder.
    Look,
}

/// What a skill's load needs of its resources: see [`Resources`]. `linked` is every link its
/// root's walk met.
#[derive(Clone, Copy)]
pub(super) struct Wanted<'a> {
    pub(super) resources: Resources,
    pub(super) linked: Option<&'a HashSet<PathBuf>>,
}

impl Wanted<'_> {
    /// Whether a remembered resource is taken as the index has it, without a stat.
    fn by_name(&self, f: &Found, x: &ResourceRecord) -> bool {
        self.resources == Resources::Names
            && x.links.is_none()
            && self
                .linked
                .is_none_or(|l| l.is_empty() || !l.contains(&f.dir.join(&x.rel)))
    }
}

/// A skill's resources, each stat'ed now (but see [`Resources::Names`]); the text flag and link
/// list of one that kept its stat come from the index record.
pub(super) fn resources(
    f: &Found,
    dir: &crate::core::files::fsx::Within,
    remembered: Option<Vec<ResourceRecord>>,
    listing: Listing,
    want: Wanted,
) -> Vec<Resource> {
    let stat = |path: &Path| {
        std::fs::metadata(path)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| Stamp::of(&m))
    };
    let mut out: Vec<Resource> = match (listing, remembered) {
        // The folders did not change: the same files, each stat'ed again (from the skill folder,
        // held open).
        (Listing::Remembered, Some(records)) => records
            .into_iter()
            .filter_map(|x| {
                if want.by_name(f, &x) {
                    return Some(
                        Resource::remembered(x.rel, x.stamp, x.text).with_tokens(x.tokens),
                    );
                }
                let stamp = dir.regular_file(Path::new(&x.rel))?;
                Some(if x.stamp.vouches_for(&stamp) {
                    let r = Resource::new(x.rel, stamp, x.text).with_tokens(x.tokens);
                    if let Some(links) = x.links {
                        let _ = r.links.set(links);
                    }
                    r
                } else {
                    let text = looks_like_text(&f.dir.join(&x.rel));
                    Resource::new(x.rel, stamp, text)
                })
            })
            .collect(),
        (listing, remembered) => {
            let paths: Vec<PathBuf> = if let Listing::Walked(paths) = listing {
                paths.to_vec()
            } else {
                let root_real = std::fs::canonicalize(&f.dir).unwrap_or_else(|_| f.dir.clone());
                let mut paths = Vec::new();
                Below::new(&root_real, &f.dir).collect(
                    &f.dir,
                    0,
                    &f.file,
                    &mut paths,
                    &mut Vec::new(),
                );
                paths
            };
            let mut remembered = remembered.unwrap_or_default();
            remembered.sort_unstable_by(|a, b| a.rel.cmp(&b.rel));
            paths
                .into_iter()
                .filter_map(|path| {
                    let stamp = stat(&path)?;
                    let rel = path
                        .strip_prefix(&f.dir)
                        .unwrap_or(&path)
                        .to_string_lossy()
                        .replace('\\', "/");
                    let known = remembered
                        .binary_search_by(|x| x.rel.as_str().cmp(&rel))
                        .ok()
                        .map(|i| &mut remembered[i])
                        .filter(|x| x.stamp.vouches_for(&stamp));
                    Some(if let Some(k) = known {
                        let r = Resource::new(rel, stamp, k.text).with_tokens(k.tokens);
                        if let Some(links) = k.links.take() {
                            let _ = r.links.set(links);
                        }
                        r
                    } else {
                        let text = looks_like_text(&path);
                        Resource::new(rel, stamp, text)
                    })
                })
                .collect()
        }
    };
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}
