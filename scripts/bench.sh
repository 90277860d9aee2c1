#!/usr/bin/env bash
# Measures the performance targets on the real corpus with the release binary.
#   scripts/bench.sh [CORPUS]       (default ../shared/corpus or $SKILLSCOPE_CORPUS; needs hyperfine)
# Criterion benchmarks of the library (scan, rules, tokens, matching, TUI frames) run with `cargo bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-${SKILLSCOPE_CORPUS:-../shared/corpus}}
[ -d "$corpus" ] || { echo "no corpus at $corpus: pass its path or set SKILLSCOPE_CORPUS" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=$PWD/target/release/skillscope
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export SKILLSCOPE_CACHE_DIR=$cache SKILLSCOPE_CONFIG_DIR=$cache/config NO_COLOR=1

echo "== check on the whole corpus, cold token cache (long bodies are counted for body-too-long)"
hyperfine --warmup 1 --runs 5 -i --prepare "rm -rf $cache/tokens*" "$bin check $corpus"
echo "== check on the whole corpus, warm (target ≤ 0.5 s)"
hyperfine -N --warmup 2 -i "$bin check $corpus"

echo "== every level counted, cold cache (target ≤ 5 s) and with the cache (target ≤ 0.2 s)"
hyperfine --warmup 1 --runs 5 --prepare "rm -rf $cache/tokens*" "$bin budget --format json $corpus"
"$bin" budget --format json "$corpus" >/dev/null
hyperfine -N --warmup 2 "$bin budget --format json $corpus"

echo "== the listing and its token count, cold (every L1 is counted in criterion: cargo bench --bench tokens)"
hyperfine --warmup 1 --runs 5 --prepare "rm -rf $cache/tokens*" "$bin prompt --fates $corpus"

echo "== peak memory, all levels cold (target ≤ 64 MB)"
rm -rf "$cache"/tokens*
/usr/bin/time -f "peak RSS %M KB, %e s" "$bin" budget --format json "$corpus" >/dev/null
echo "== peak memory, all levels with the cache"
/usr/bin/time -f "peak RSS %M KB, %e s" "$bin" budget --format json "$corpus" >/dev/null
