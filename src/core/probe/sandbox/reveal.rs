//! What a sandboxed command is let read outside the system folders.

use super::spec::RunSpec;
use std::path::{Path, PathBuf};

/// What the command needs to read beneath a hidden folder: its folder, the program, and for a
/// program found on the user's PATH its real file and the installation holding it
/// (`…/versions/3.11.7` for `…/versions/3.11.7/bin/python3`). Nothing is revealed because a
/// skill's files say so: a program the skill chose (its `.venv`, a `#!` path) runs only from
/// the system folders or the skill's own (see [`crate::core::probe::interpreter::vet`]), which
/// are visible anyway, and its `pyvenv.cfg` is never read here. An installation that would be
/// the home folder itself, hold it, or be a top-level folder, or a folder of the user's own
/// below the home (`~/.local`), is not revealed whole: only the program's file is (see
/// [`super::installation`]).
pub(super) fn revealed(spec: &RunSpec, home: Option<&Path>) -> Vec<PathBuf> {
    let mut out = vec![spec.cwd.clone(), spec.program.clone()];
    let path_var = crate::core::probe::interpreter::search_path();
    let on_path = spec
        .program
        .parent()
        .is_some_and(|p| std::env::split_paths(&path_var).any(|d| d == p));
    let folder = std::fs::canonicalize(&spec.cwd).unwrap_or_else(|_| spec.cwd.clone());
    if let Ok(real) = std::fs::canonicalize(&spec.program)
        && on_path
        && !real.starts_with(&folder)
    {
        out.extend(super::installation(&real, home));
        out.push(real);
    }
    out.sort();
    out.dedup();
    out
}
