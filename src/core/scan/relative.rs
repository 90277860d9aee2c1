//! Paths below a root by their bytes, for stats through the root held open.

use std::path::Path;

/// `dir` as a path below `base` (open as `held`), for stats through the open folder: see
/// [`below`]. A `dir` elsewhere is opened on its own, as [`Within::new`] does.
///
/// [`Within::new`]: crate::core::files::fsx::Within::new
pub(crate) fn within<'a>(
    held: &'a crate::core::files::fsx::Dir,
    base: &Path,
    dir: &'a Path,
) -> crate::core::files::fsx::Within<'a> {
    match below(dir, base) {
        Some(rel) => crate::core::files::fsx::Within::Below(held, rel),
        None => crate::core::files::fsx::Within::new(held, dir),
    }
}

/// `path` past `base` by their bytes: what follows `base` and the `/` (or several) after it, the
/// empty path when they are the same; `None` when `path` does not start so. The kernel looks a
/// path up a name at a time, so `base` held open and this rest reach what `path` reaches,
/// whatever `.`, `..` or doubled `/` either holds (where `paths::strip_prefix` compares names and
/// reads both paths whole, once per folder and skill of a warm load).
#[cfg(unix)]
pub(crate) fn below<'a>(path: &'a Path, base: &Path) -> Option<&'a Path> {
    use std::os::unix::ffi::OsStrExt;
    let (p, b) = (path.as_os_str().as_bytes(), base.as_os_str().as_bytes());
    let rest = p.strip_prefix(b)?;
    if b.is_empty() {
        return None;
    }
    let rel = match rest {
        [] => rest,
        // A `base` ending in `/` is followed by the name itself.
        _ if b.ends_with(b"/") => rest,
        [b'/', ..] => rest,
        _ => return None,
    };
    let start = rel.iter().position(|&c| c != b'/').unwrap_or(rel.len());
    Some(Path::new(std::ffi::OsStr::from_bytes(&rel[start..])))
}

/// On other systems the names are compared.
#[cfg(not(unix))]
pub(crate) fn below<'a>(path: &'a Path, base: &Path) -> Option<&'a Path> {
    crate::core::files::paths::strip_prefix(path, base)
}
