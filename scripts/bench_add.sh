#!/usr/bin/env bash
# Measures `skillscope add` of a 300-skill collection from a local git repository (targets:
# preview ≤ 2 s, install ≤ 3 s on 2 cores), with the release binary and hyperfine.
#
#   scripts/bench_add.sh [SKILLS]
#
# SKILLS (default 300) synthetic skills are written by scripts/gen-synthetic into a fresh git
# repository; every run starts from an empty home (no token cache, no installed skills), so the
# figures include the clone, the staging, the rules, the counts and the listing change.
set -euo pipefail
cd "$(dirname "$0")/.."
skills=${1:-300}
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=$(realpath "${CARGO_TARGET_DIR:-target}")/release/skillscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/gen-synthetic "$tmp/repo" --skills "$skills" >/dev/null
git -C "$tmp/repo" init -q
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=bench -c user.email=bench@example.com commit -qm skills
export HOME=$tmp/home SKILLSCOPE_DATA_DIR=$tmp/home/data SKILLSCOPE_CACHE_DIR=$tmp/home/cache \
    SKILLSCOPE_CONFIG_DIR=$tmp/home/config NO_COLOR=1
url=file://$tmp/repo
echo "== add of $skills skills from $url: preview (--dry-run; target ≤ 2 s)"
hyperfine -N --warmup 1 --runs 10 --prepare "rm -rf $tmp/home" "$bin add $url --dry-run"
echo "== add of $skills skills: preview and install (--yes; target ≤ 3 s)"
hyperfine -N --warmup 1 --runs 10 --prepare "rm -rf $tmp/home" "$bin add $url --yes"
rm -rf "$tmp/home"
"$bin" add "$url" --dry-run | tail -3
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
