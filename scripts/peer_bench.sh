#!/usr/bin/env bash
# skillscope's warm `check --format json` side by side with a Rust peer validating the same skill
# folders in one process: skills-ref-rs (the agentskills library's Rust port, from crates.io),
# called by a small program this script writes and builds in a temporary folder (nothing of it
# is kept in the repository). Both runs walk the corpus for skill files themselves.
#
#   scripts/peer_bench.sh [CORPUS]
#   scripts/peer_bench.sh --build-only    # builds the peer and prints its path (scripts/bench.sh)
#
# Needs network access to crates.io (or a cargo registry mirror) once, hyperfine and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=
if [ "${1:-}" = --build-only ]; then
    build_only=1
    shift
fi
corpus=${1:-${SKILLSCOPE_CORPUS:-../shared/corpus}}
[ -n "$build_only" ] || [ -d "$corpus" ] || { echo "no corpus at $corpus: pass its path or set SKILLSCOPE_CORPUS" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
peer_version=${PEER_VERSION:-0.1.1}
work=${PEER_DIR:-${TMPDIR:-/tmp}/skillscope-peer-skills-ref-rs-$peer_version}
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<EOF
[package]
name = "validate-all"
version = "0.0.0"
edition = "2024"

[dependencies]
skills-ref-rs = "=$peer_version"

[profile.release]
debug = false
EOF
cat >"$work/src/main.rs" <<'EOF'
//! Validates every folder holding a SKILL.md (any case) below the given roots with
//! skills_ref::validate, in one process, and prints how many folders and errors there were.
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut has_skill = false;
    for e in entries.flatten() {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            walk(&e.path(), out);
        } else if e.file_name().to_string_lossy().eq_ignore_ascii_case("skill.md") {
            has_skill = true;
        }
    }
    if has_skill {
        out.push(dir.to_path_buf());
    }
}

fn main() {
    let mut dirs = Vec::new();
    for root in std::env::args().skip(1) {
        walk(Path::new(&root), &mut dirs);
    }
    let errors: usize = dirs.iter().map(|d| skills_ref::validate(d).len()).sum();
    println!("{} folders, {} errors", dirs.len(), errors);
}
EOF
(cd "$work" && cargo build --release --quiet >&2)
peer=$work/target/release/validate-all
if [ -n "$build_only" ]; then
    echo "$peer"
    exit 0
fi
cargo build --release --locked --quiet
bin=$PWD/target/release/skillscope
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export SKILLSCOPE_CACHE_DIR=$cache/cache SKILLSCOPE_CONFIG_DIR=$cache/config NO_COLOR=1
echo "== what each reports"
"$bin" check --format json "$corpus" >/dev/null || true
"$bin" check "$corpus" | tail -1 || true
"$peer" "$corpus"
echo "== side by side, warm (skillscope's index and token cache from the run above)"
hyperfine -N --warmup 3 --runs 20 -i \
    -n "skillscope check --format json" "$bin check --format json $corpus" \
    -n "skills-ref-rs $peer_version validate, every folder" "$peer $corpus"
for cmd in "$bin check --format json $corpus" "$peer $corpus"; do
    /usr/bin/time -f "    peak RSS %M KB, %e s wall, %U s user, %S s sys: ${cmd##*/}" $cmd >/dev/null 2>"$cache/time" || true
    tail -1 "$cache/time"
done
