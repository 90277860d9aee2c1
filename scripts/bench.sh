#!/usr/bin/env bash
# Measures the performance targets with the release binary: the corpus warm and cold, and a
# synthetic library of 50,000 skills warm.
#
#   scripts/bench.sh [CORPUS] [SKILLS]
#
# CORPUS defaults to ../shared/corpus or $SKILLSCOPE_CORPUS; SKILLS (default 50000) is the size of
# the synthetic library, written once by scripts/gen-synthetic to $SKILLSCOPE_SYNTH (default
# ${TMPDIR:-/tmp}/skillscope-synth-SKILLS) and reused. Needs hyperfine and GNU time.
# Criterion benchmarks of the library (scan, rules, tokens, matching, TUI frames) run with `cargo bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-${SKILLSCOPE_CORPUS:-../shared/corpus}}
skills=${2:-50000}
synth=${SKILLSCOPE_SYNTH:-${TMPDIR:-/tmp}/skillscope-synth-$skills}
[ -d "$corpus" ] || { echo "no corpus at $corpus: pass its path or set SKILLSCOPE_CORPUS" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=$PWD/target/release/skillscope
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
# The cache folder holds tokens.bin and the library index: removing it makes a run cold.
export SKILLSCOPE_CACHE_DIR=$cache/cache SKILLSCOPE_CONFIG_DIR=$cache/config NO_COLOR=1
rss() { # peak RSS and wall of one run of "$@"
    /usr/bin/time -f "    peak RSS %M KB, %e s wall, %U s user, %S s sys" "$@" >/dev/null 2>"$cache/time" || true
    tail -1 "$cache/time"
}

echo "== corpus ($corpus), warm: token cache and library index from the run before (targets ≤ 0.2 s)"
for cmd in "check --format json" "list --json" "budget"; do
    "$bin" $cmd "$corpus" >/dev/null 2>&1 || true
    hyperfine -N --warmup 2 --runs 10 -i "$bin $cmd $corpus"
    rss "$bin" $cmd "$corpus"
done

echo "== corpus, every level counted cold: no token cache, no index (target ≤ 3 s, ≤ 100 MB)"
hyperfine --runs 3 -i --prepare "rm -rf $cache/cache" "$bin budget $corpus"
rm -rf "$cache/cache"
rss "$bin" budget "$corpus"
echo "== corpus, check cold (body-too-long counts long bodies up to the limit)"
rm -rf "$cache/cache"
rss "$bin" check --format json "$corpus"

if [ ! -d "$synth" ]; then
    echo "== writing $skills synthetic skills to $synth"
    python3 scripts/gen-synthetic "$synth" --skills "$skills" >/dev/null
fi
# About 4.7 files and folders per synthetic skill: 50,000 skills are within the default walk cap
# of 1,000,000 entries; a larger SKILLS needs it raised (a capped walk is walked again every run).
export SKILLSCOPE_MAX_ENTRIES=${SKILLSCOPE_MAX_ENTRIES:-2000000}
echo "== $skills synthetic skills, cold (index and token cache built)"
rm -rf "$cache/cache"
rss "$bin" check "$synth"
rm -rf "$cache/cache"
rss "$bin" list --json "$synth"
echo "== $skills synthetic skills, warm (targets ≤ 1 s)"
for cmd in "check" "list --json"; do
    "$bin" $cmd "$synth" >/dev/null 2>&1 || true
    hyperfine -N --warmup 1 --runs 5 -i "$bin $cmd $synth"
    rss "$bin" $cmd "$synth"
done
