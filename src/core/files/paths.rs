//! skillscope's own folders: the cache (token counts, unpacked demo) and the config (state), and
//! the writer of every file skillscope keeps or edits.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The name every file and folder skillscope makes beside a user's files starts with (temporary
/// copies, staged installs, removals under way, lock sidecars): the scan never reads them.
pub const OWN_PREFIX: &str = ".skillscope-";

/// `path.strip_prefix(base)`, found from the bytes when both paths are plain (names between
/// single `/`s, no `.` name, no `/` at the end: a library's paths), so that no component is
/// parsed; other paths are compared component by component, as `Path::strip_prefix` does. The
/// scan, the rules and the views ask this of every skill.
pub fn strip_prefix<'a>(path: &'a Path, base: &Path) -> Option<&'a Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (p, b) = (path.as_os_str().as_bytes(), base.as_os_str().as_bytes());
        // When `path` is `base`, `/` and a rest, `path` is plain exactly when `base` and the
        // rest are (and the rest does not start with `/`): `base` is read once, not twice.
        match p.strip_prefix(b) {
            Some([]) if plain(b) => return Some(Path::new("")),
            Some([b'/', rest @ ..]) if rest.first() != Some(&b'/') && plain(rest) && plain(b) => {
                return Some(Path::new(std::ffi::OsStr::from_bytes(rest)));
            }
            // Else `path` is no plain path below a plain `base` (had it been, the arms above
            // would have answered): two plain paths differ.
            _ if plain(b) && plain(p) => return None,
            _ => {}
        }
    }
    path.strip_prefix(base).ok()
}

/// Whether a path's bytes are its components, each name as written: not empty, no empty name
/// (`//`, a `/` at the end; a leading `/` is the root), no `.` name.
#[cfg(unix)]
fn plain(p: &[u8]) -> bool {
    // Asked of tens of thousands of paths per command: every byte is looked at, with no early
    // exit, which the compiler does many bytes at a time. An empty name is a `//` or a `/` at
    // the end (the root's, before a leading `/`, is not one); a `.` name is `./` at the start,
    // `/./` inside, `/.` at the end, or the whole path. The ends are matched as slice patterns
    // and the bytes read by index: the slices' generic helpers are not inlined across the
    // crate's code units.
    if let [] | [b'.'] | [b'.', b'/', ..] | [.., b'/'] | [.., b'/', b'.'] = p {
        return false;
    }
    let n = p.len();
    if n < 3 {
        return true;
    }
    // Each three bytes looked at once for both a `//` and a `/./`; the last two bytes are no
    // `//` (the path does not end with `/`). Counted as bytes, not booleans: `&&` and `||`
    // would branch at every byte.
    let (a, b, c) = (&p[..n - 2], &p[1..n - 1], &p[2..]);
    let is = |c: u8, want: u8| u8::from(c == want);
    let (mut bad, mut i) = (0_u8, 0);
    while i < a.len() {
        bad |= is(a[i], b'/') & (is(b[i], b'/') | (is(b[i], b'.') & is(c[i], b'/')));
        i += 1;
    }
    bad == 0
}

/// `path`'s text as `to_string_lossy` makes it, checked with the standard library's quick UTF-8
/// check first: a path that is text already (nearly every one) is borrowed without the
/// character-by-character walk of the lossy conversion.
pub fn lossy(path: &Path) -> std::borrow::Cow<'_, str> {
    path.to_str()
        .map_or_else(|| path.to_string_lossy(), std::borrow::Cow::Borrowed)
}

/// `bytes` as `String::from_utf8_lossy` makes them, checked with the quick UTF-8 check first.
pub fn lossy_bytes(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    std::str::from_utf8(bytes).map_or_else(
        |_| String::from_utf8_lossy(bytes),
        std::borrow::Cow::Borrowed,
    )
}

/// A relative plain path's text (its names made text as `to_string_lossy` does, with `/` between
/// them): what joining each component's lossy text with `/` makes, without parsing them. `None`
/// for other paths (and on systems whose paths are not bytes).
pub fn plain_text(path: &Path) -> Option<std::borrow::Cow<'_, str>> {
    #[cfg(unix)]
    {
        let p = path.as_os_str().as_encoded_bytes();
        // A `/` is one byte that no multi-byte character holds, so the lossy text of the
        // whole is the lossy texts of the names with `/` between them.
        if p.first() != Some(&b'/') && plain(p) {
            return Some(lossy(path));
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    None
}

/// `path.parent()`, read from the bytes when the path's end is plain (a name after a single
/// `/`, itself after a name that is not `.`): a library's paths. Other paths are left to
/// `Path::parent`, which parses their components from the end.
pub fn parent(path: &Path) -> Option<&Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let p = path.as_os_str().as_bytes();
        if let Some(i) = p.iter().rposition(|&c| c == b'/') {
            let (rest, last) = (&p[..i], &p[i + 1..]);
            let plain_end = !last.is_empty() && last != b".";
            if plain_end && rest.is_empty() {
                return Some(Path::new("/"));
            }
            if plain_end && !rest.ends_with(b"/") && !rest.ends_with(b"/.") && rest != b"." {
                return Some(Path::new(std::ffi::OsStr::from_bytes(rest)));
            }
        }
    }
    path.parent()
}

/// `path.file_name()`, read from the bytes when the path ends with a name after a `/` (not `.`
/// and not empty): a library's paths. Other paths are left to `Path::file_name`.
pub fn file_name(path: &Path) -> Option<&std::ffi::OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let p = path.as_os_str().as_bytes();
        if let Some(i) = p.iter().rposition(|&c| c == b'/') {
            match &p[i + 1..] {
                b"" | b"." => {}
                b".." => return None,
                last => return Some(std::ffi::OsStr::from_bytes(last)),
            }
        }
    }
    path.file_name()
}

/// `path` made absolute against the working directory, read once per process (a library of
/// thousands of skills would otherwise ask the kernel for it thousands of times). Like
/// `std::path::absolute`: `.` components go, `..` and links stay.
pub fn absolute(path: &Path) -> PathBuf {
    static CWD: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    if path.is_absolute() {
        return normal(path.to_path_buf());
    }
    match CWD.get_or_init(|| std::env::current_dir().ok()) {
        Some(cwd) => normal(cwd.join(path)),
        None => path.to_path_buf(),
    }
}

/// `path` as its components make it again: without `.` components, repeated separators or a
/// trailing one. Most paths already are (a check of their bytes); the rest are rebuilt.
fn normal(path: PathBuf) -> PathBuf {
    let b = path.as_os_str().as_encoded_bytes();
    let clean = !b.is_empty()
        && !b.starts_with(b"./")
        && b != b"."
        && (b == b"/" || !b.ends_with(b"/"))
        && !b.ends_with(b"/.")
        && !b.windows(2).any(|w| w == b"//")
        && !b.windows(3).any(|w| w == b"/./");
    if clean {
        path
    } else {
        path.components().collect()
    }
}

/// `$SKILLSCOPE_CACHE_DIR`, else `<cache_dir>/skillscope`.
pub fn cache_root() -> PathBuf {
    std::env::var_os("SKILLSCOPE_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("skillscope")))
        .unwrap_or_else(|| std::env::temp_dir().join("skillscope-cache"))
}

/// `$SKILLSCOPE_CONFIG_DIR`, else `<config_dir>/skillscope`.
pub fn config_root() -> PathBuf {
    std::env::var_os("SKILLSCOPE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::config_dir().map(|d| d.join("skillscope")))
        .unwrap_or_else(|| std::env::temp_dir().join("skillscope-config"))
}

/// `$SKILLSCOPE_DATA_DIR`, else `<data_dir>/skillscope`: what skillscope keeps that is neither
/// a cache nor a setting (the trash of removed skills).
pub fn data_root() -> PathBuf {
    std::env::var_os("SKILLSCOPE_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| dirs::data_dir().map(|d| d.join("skillscope")))
        .unwrap_or_else(|| std::env::temp_dir().join("skillscope-data"))
}

/// Replaces `path` with `bytes` in one rename, so a reader sees the old file or the new one and
/// never half of each. A symlink is written through: its target is replaced, the link stays. The
/// new file gets `perms` (else the old file's, else the usual default).
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    perms: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    write_atomic_with(path, perms, |f| f.write_all(bytes))
}

/// [`write_atomic`] with the contents written by `fill` into the new file, so that they need not
/// be held whole in memory first. A failure of `fill` leaves the old file as it was.
pub fn write_atomic_with(
    path: &Path,
    perms: Option<std::fs::Permissions>,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    write_file(path, perms, Durability::Durable, fill)
}

/// Whether a write waits for the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// The file and the rename are flushed before the write returns: state the user made.
    Durable,
    /// Not flushed: a cache that carries its own checksum, so a crash leaves the old file or one
    /// that is recognised as torn and rebuilt.
    Cache,
}

/// The mode of every file skillscope keeps for itself (caches, state, probe output): Unix only.
#[cfg(unix)]
pub const PRIVATE_FILE: u32 = 0o600;
/// The mode of the folders holding them.
#[cfg(unix)]
pub const PRIVATE_DIR: u32 = 0o700;

/// Writes one of skillscope's own files (a cache, the state, what probes printed) as
/// [`write_atomic_with`] does, private to the user: the file is `0600` whatever it was before,
/// in a folder that is `0700` (created so, or narrowed to it when the user owns it). What a probe
/// printed can hold anything the probe could read, and names in a cache tell what is installed.
pub fn write_private_with(
    path: &Path,
    sync: Durability,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        private_dir(dir)?;
    }
    write_file(path, private_file_mode(), sync, fill)
}

/// [`write_private_with`] of `bytes`.
pub fn write_private(path: &Path, bytes: &[u8], sync: Durability) -> std::io::Result<()> {
    write_private_with(path, sync, |f| f.write_all(bytes))
}

/// `0600` on Unix; elsewhere `None`: the new file keeps the permissions its folder gives it (on
/// Windows, the user's profile folders are the user's alone).
#[cfg(unix)]
#[allow(clippy::unnecessary_wraps)]
pub fn private_file_mode() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(PRIVATE_FILE))
}

#[cfg(not(unix))]
pub fn private_file_mode() -> Option<std::fs::Permissions> {
    None
}

/// Makes `dir` (and any missing parent) a folder only its owner can enter: missing folders are
/// created `0700`; an existing one the user owns loses its group and other bits. A folder owned
/// by someone else is left as it is (its files are still `0600`).
#[cfg(unix)]
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(PRIVATE_DIR)
        .create(dir)?;
    let meta = std::fs::metadata(dir)?;
    if meta.mode() & 0o077 != 0 && meta.uid() == nix::unistd::geteuid().as_raw() {
        std::fs::set_permissions(
            dir,
            std::fs::Permissions::from_mode(meta.mode() & PRIVATE_DIR),
        )?;
    }
    Ok(())
}

/// [`private_dir`] elsewhere: the folder is created; its permissions are those of the folder it
/// is in (on Windows, the user's profile folders are the user's alone).
#[cfg(not(unix))]
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

fn write_file(
    path: &Path,
    perms: Option<std::fs::Permissions>,
    sync: Durability,
    fill: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    // Write through a symlink (a dotfile managed elsewhere) rather than replacing the link.
    let resolved;
    let path = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            resolved = std::fs::canonicalize(path)?;
            resolved.as_path()
        }
        _ => path,
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    let perms = match perms {
        Some(p) => Some(p),
        None => std::fs::metadata(path).ok().map(|m| m.permissions()),
    };
    // Created 0600 by `tempfile`: nothing can read it before its mode is set.
    let mut tmp = tempfile::Builder::new()
        .prefix(OWN_PREFIX)
        .suffix(".tmp")
        .tempfile_in(&dir)?;
    fill(tmp.as_file_mut())?;
    if sync == Durability::Durable {
        tmp.as_file().sync_all()?;
    }
    match perms {
        Some(p) => tmp.as_file().set_permissions(p)?,
        None => set_default_permissions(tmp.as_file())?,
    }
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable; not every platform can open a folder, so this is best effort.
    if sync == Durability::Durable
        && let Ok(d) = std::fs::File::open(&dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

/// A new settings file should look like one the user's editor would create.
#[cfg(unix)]
fn set_default_permissions(f: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    f.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
#[allow(clippy::unnecessary_wraps)]
fn set_default_permissions(_f: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

/// Where `path` leads once every link on the way (itself included) is resolved, when that is
/// not inside `base` (resolved too); `None` when it stays inside. The part of `path` that does
/// not exist yet is taken as written below what does; a link there that leads nowhere (a
/// dangling one, which a write would follow) counts as leading out, to its own text. For
/// writes that must stay in a folder: a project's committed link (`.claude -> ../../.claude`)
/// must not carry them into the user's own files.
pub fn leads_out(path: &Path, base: &Path) -> Option<PathBuf> {
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| absolute(base));
    let path = absolute(path);
    // The longest part of the path that exists, resolved, then the rest as written.
    let mut existing = path.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let resolved = loop {
        if let Ok(r) = std::fs::canonicalize(existing) {
            break r;
        }
        if let Ok(m) = std::fs::symlink_metadata(existing)
            && m.file_type().is_symlink()
        {
            // A link whose target is missing: a write through it lands wherever it says.
            return Some(std::fs::read_link(existing).unwrap_or_else(|_| existing.into()));
        }
        let (Some(parent), Some(name)) = (existing.parent(), existing.file_name()) else {
            return Some(path.clone());
        };
        rest.push(name);
        existing = parent;
    };
    let mut full = resolved;
    for name in rest.iter().rev() {
        if *name == ".." {
            // `..` below a folder that does not exist: nothing to resolve, and nothing to trust.
            return Some(path.clone());
        }
        full.push(name);
    }
    (!full.starts_with(&base)).then_some(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte comparison answers as `Path::strip_prefix` does, for plain paths and for the
    /// others it leaves to the components.
    #[test]
    fn strip_prefix_answers_as_the_components_do() {
        let paths = [
            "",
            "/",
            "a",
            "/a",
            "/ab",
            "/a/b",
            "/a/b/c",
            "/a/bc",
            "/a//b",
            "/a/b/",
            "/a/./b",
            "./a",
            "./a/b",
            "a/b",
            "a/b/c",
            "ab/c",
            "/a/b/.",
            "/a/../b",
            "/a/..",
            "//a/b",
            "/a/b/SKILL.md",
        ];
        let mut compared = 0;
        for path in paths {
            for base in paths {
                let (path, base) = (Path::new(path), Path::new(base));
                assert_eq!(
                    strip_prefix(path, base),
                    path.strip_prefix(base).ok(),
                    "{path:?} without {base:?}"
                );
                compared += usize::from(strip_prefix(path, base).is_some());
            }
        }
        // Both answers occur: the pairs above are not all refused.
        assert!(compared > paths.len(), "{compared}");
    }

    /// Paths made of the bytes that decide how a path parses: names, `.`, `..` and `/`.
    fn any_path() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        proptest::collection::vec(
            prop_oneof![
                Just("/"),
                Just("."),
                Just(".."),
                Just("a"),
                Just("bc"),
                Just("skills"),
                Just(".d")
            ],
            0..8,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest::proptest! {
        /// The byte paths answer as the components do, whatever the path.
        #[test]
        fn parent_and_file_name_answer_as_the_components_do(p in any_path()) {
            let path = Path::new(&p);
            proptest::prop_assert_eq!(parent(path), path.parent(), "{:?}", p);
            proptest::prop_assert_eq!(file_name(path), path.file_name(), "{:?}", p);
        }

        #[test]
        fn lossy_text_is_what_the_lossy_conversions_make(
            p in any_path(),
            b in proptest::collection::vec(proptest::prop_oneof![
                proptest::prelude::any::<u8>(),
                proptest::prelude::Just(b'a'),
                proptest::prelude::Just(0xc3u8),
                proptest::prelude::Just(0xa9u8),
            ], 0..24),
        ) {
            proptest::prop_assert_eq!(lossy(Path::new(&p)), Path::new(&p).to_string_lossy());
            proptest::prop_assert_eq!(lossy_bytes(&b), String::from_utf8_lossy(&b));
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStrExt;
                let path = Path::new(std::ffi::OsStr::from_bytes(&b));
                proptest::prop_assert_eq!(lossy(path), path.to_string_lossy());
            }
        }

        #[test]
        fn plain_text_is_the_names_joined(p in any_path()) {
            let path = Path::new(&p);
            let joined = path
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            if let Some(text) = plain_text(path) {
                proptest::prop_assert_eq!(text, joined);
                proptest::prop_assert!(path.is_relative());
                proptest::prop_assert!(
                    path.components().all(|c| matches!(
                        c,
                        std::path::Component::Normal(_) | std::path::Component::ParentDir
                    ))
                );
            }
        }

        #[test]
        fn strip_prefix_answers_as_the_components_do_for_any_paths(
            p in any_path(),
            b in any_path(),
        ) {
            let (path, base) = (Path::new(&p), Path::new(&b));
            proptest::prop_assert_eq!(strip_prefix(path, base), path.strip_prefix(base).ok());
            // And for a base that is a prefix of the path's bytes.
            let cut = &p[..p.len() / 2];
            proptest::prop_assert_eq!(
                strip_prefix(path, Path::new(cut)),
                path.strip_prefix(cut).ok(),
                "{:?} without {:?}", p, cut
            );
        }
    }

    /// `plain` is what its words say: the path's components, joined with `/`, give its bytes
    /// back (no empty or `.` name was dropped), and it is not empty.
    #[cfg(unix)]
    #[test]
    fn plain_paths_are_their_components_joined() {
        let names = ["/", ".", "..", "a", "bc", "/.", "./", "//"];
        let mut seen = [0_usize; 2];
        // Every path of up to four of these pieces.
        let mut paths = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|p| names.iter().map(move |n| format!("{p}{n}")))
                .collect();
            paths.extend(longer);
        }
        for p in &paths {
            let path = Path::new(p);
            let rebuilt: PathBuf = path.components().collect();
            let same = !p.is_empty()
                && !p.ends_with('/')
                && rebuilt.as_os_str() == path.as_os_str()
                && !path.components().any(|c| c == std::path::Component::CurDir);
            assert_eq!(plain(p.as_bytes()), same, "{p:?}");
            seen[usize::from(same)] += 1;
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
    }

    /// The hand-picked cases of the byte paths, beside the components' answers.
    #[test]
    fn parent_and_file_name_of_the_odd_paths() {
        for p in [
            "",
            "/",
            "a",
            "/a",
            "/a/b",
            "a/b",
            "./a",
            "../a",
            "a/..",
            "/a/.",
            "/a/b/",
            "/a//b",
            "//a",
            "/./a",
            "a/./b",
            ".",
            "..",
            "/..",
            "a/.b",
            "/a/b/SKILL.md",
        ] {
            let path = Path::new(p);
            assert_eq!(parent(path), path.parent(), "{p}");
            assert_eq!(file_name(path), path.file_name(), "{p}");
        }
        assert_eq!(parent(Path::new("/a/b")), Some(Path::new("/a")));
        assert_eq!(
            file_name(Path::new("/a/b")),
            Some(std::ffi::OsStr::new("b"))
        );
    }

    #[test]
    fn a_path_that_a_link_carries_out_of_its_folder_leads_out() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().canonicalize().unwrap();
        let project = root.join("home/src/proj");
        std::fs::create_dir_all(project.join("real")).unwrap();
        std::fs::create_dir_all(root.join("home/.claude/skills")).unwrap();
        crate::core::files::fsx::test_link("../../.claude", project.join(".claude")).unwrap();
        crate::core::files::fsx::test_link("real", project.join("inside")).unwrap();
        crate::core::files::fsx::test_link("../../nowhere/x", project.join("dangling")).unwrap();
        // Through the link, however much of the rest exists yet.
        assert_eq!(
            leads_out(&project.join(".claude/skills/new/SKILL.md"), &project),
            Some(root.join("home/.claude/skills/new/SKILL.md"))
        );
        assert_eq!(leads_out(&project.join("inside/a/b"), &project), None);
        assert_eq!(leads_out(&project.join("not/yet/there"), &project), None);
        assert_eq!(
            leads_out(&project.join("dangling"), &project),
            Some(PathBuf::from("../../nowhere/x"))
        );
        assert!(leads_out(&project.join("new/../../escape"), &project).is_some());
        assert!(leads_out(&project.join(".."), &project).is_some());
    }

    #[test]
    fn absolute_matches_the_standard_library() {
        for p in [
            "a/b", "./a/./b", "../x/y", "/abs/./p", "a/../b", "/", "//a", "/a//b", "/a/b/", "/a/.",
            "a/.", ".", "./", "/a/b/./", "/x/../y", "a/.b", "/.a/b.", "/a/...",
        ] {
            // The same components, and the same bytes as those components make.
            let std = std::path::absolute(p).unwrap();
            assert_eq!(absolute(Path::new(p)), std, "{p}");
            assert_eq!(
                absolute(Path::new(p)).as_os_str(),
                std.components().collect::<PathBuf>().as_os_str(),
                "{p}"
            );
        }
    }

    #[test]
    fn a_fill_that_fails_part_way_leaves_the_old_file_and_no_temporary_one() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("tokens.bin");
        std::fs::write(&path, "old").unwrap();
        let err = write_atomic_with(&path, None, |f| {
            f.write_all(b"half of the new")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "disk full");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        let names: Vec<_> = std::fs::read_dir(t.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("tokens.bin")]);
        write_atomic_with(&path, None, |f| f.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_0600_in_0700_folders_and_settings_files_keep_their_mode() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let t = tempfile::tempdir().unwrap();
        // Missing folders are created private, down to the file's own.
        let fresh = t.path().join("new/cache/tokens.bin");
        write_private(&fresh, b"x", Durability::Cache).unwrap();
        assert_eq!(mode(&fresh), 0o600);
        assert_eq!(mode(fresh.parent().unwrap()), 0o700);
        assert_eq!(mode(&t.path().join("new")), 0o700);
        // An open folder and a file readable by all, as an older build left them.
        let old = t.path().join("old");
        std::fs::create_dir(&old).unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
        let probes = old.join("probes.json");
        std::fs::write(&probes, "{}").unwrap();
        std::fs::set_permissions(&probes, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&probes, b"{}", Durability::Durable).unwrap();
        assert_eq!((mode(&old), mode(&probes)), (0o700, 0o600));
        // A user's settings file keeps the mode it had, in a folder left as it was.
        let settings = t.path().join("agent/settings.json");
        std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
        std::fs::set_permissions(
            settings.parent().unwrap(),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::fs::write(&settings, "{}").unwrap();
        std::fs::set_permissions(&settings, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&settings, b"{ }", None).unwrap();
        assert_eq!(mode(&settings), 0o640);
        assert_eq!(mode(settings.parent().unwrap()), 0o755);
    }

    #[test]
    fn a_symlink_is_written_through() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("dotfiles/state.json");
        std::fs::create_dir_all(real.parent().unwrap()).unwrap();
        std::fs::write(&real, "old").unwrap();
        let link = t.path().join("state.json");
        crate::core::files::fsx::test_link(&real, &link).unwrap();
        write_atomic(&link, b"new", None).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }
}
