#!/usr/bin/env bash
# Bounded cost for any input: `list` and `check` on a library whose one SKILL.md is a 20 MB single
# line (target: each ≤ 2 s and ≤ 150 MB peak RSS, release build, cold token cache every run).
#
#   scripts/bench_huge_file.sh [MB]        (default 20; needs hyperfine and GNU time)
#
# Three shapes of the line: prose after a valid frontmatter (every cut exact, counted on every
# core), one giant word after a valid frontmatter (no exact cut anywhere: tiktoken's worst case),
# and prose with no frontmatter at all. Then a library holding a symlink to `/` (target: ≤ 2 s,
# with a walk-skipped warning).
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-20}
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=$PWD/target/release/skillscope
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SKILLSCOPE_CACHE_DIR=$work/cache SKILLSCOPE_CONFIG_DIR=$work/config NO_COLOR=1

bytes=$((mb * 1024 * 1024))
line() { # $1: a unit repeated to $bytes bytes, on one line
    python3 -c 'import sys; u=sys.argv[1]; n=int(sys.argv[2]); sys.stdout.write((u * (n // len(u) + 1))[:n])' "$1" "$bytes"
}
mkdir -p "$work/prose/huge" "$work/word/huge" "$work/bare/huge"
{ printf -- '---\nname: huge\ndescription: A skill whose body is one %s MB line. Use when testing.\n---\n' "$mb"
  line 'The quick brown fox jumps over the lazy dog, again and again; see [notes](notes.md). '; } \
    >"$work/prose/huge/SKILL.md"
{ printf -- '---\nname: huge\ndescription: A skill whose body is one %s MB word. Use when testing.\n---\n' "$mb"
  line 'abcdefghijklmnopqrstuvwxyz'; } >"$work/word/huge/SKILL.md"
line 'No frontmatter here, just words on and on. ' >"$work/bare/huge/SKILL.md"

for shape in prose word bare; do
    lib=$work/$shape
    for cmd in "list" "check"; do
        echo "== $cmd, $mb MB single-line SKILL.md ($shape), cold cache"
        hyperfine --runs 5 -i --prepare "rm -rf $work/cache" "$bin $cmd $lib"
        rm -rf "$work/cache"
        /usr/bin/time -f "peak RSS %M KB, %e s wall, %U s user" "$bin" $cmd "$lib" >/dev/null 2>"$work/time" || true
        tail -1 "$work/time"
    done
done

echo "== list and check, a library with a symlink to / beside a skill"
mkdir -p "$work/slash/a"
printf -- '---\nname: a\ndescription: A skill beside a link to the root folder. Use when testing.\n---\nBody.\n' \
    >"$work/slash/a/SKILL.md"
ln -s / "$work/slash/root-link"
for cmd in "list" "check"; do
    hyperfine --runs 5 -i --prepare "rm -rf $work/cache" "$bin $cmd $work/slash"
    rm -rf "$work/cache"
    /usr/bin/time -f "peak RSS %M KB, %e s wall, %U s user" "$bin" $cmd "$work/slash" >"$work/out" 2>"$work/time" || true
    tail -1 "$work/time"
    if grep -q "not followed" "$work/out" "$work/time"; then
        echo "warning given: $(grep -ho "[^ ]*root-link leads to [^:]*: not followed" "$work/out" "$work/time" | head -1)"
    else
        echo "NO WARNING about the link to /" >&2
    fi
done
