#!/usr/bin/env bash
# Bounded cost for any input (target: ≤ 2 s per 20 MB and ≤ 150 MB peak RSS, release build,
# cold token cache and library index every run unless said otherwise):
#
#   scripts/bench_huge_file.sh [MB] [RESOURCE_MB]     (defaults 20 and 600; needs GNU time)
#   RUNS=5 scripts/bench_huge_file.sh                 (runs per case, default 3)
#   BIN=/path/to/skillscope scripts/bench_huge_file.sh  (another build; default: this tree's release)
#   ONLY=resource scripts/bench_huge_file.sh           (one group: line, resource or slash)
#
# Each case is run RUNS times under `/usr/bin/time -v`; the line gives the wall time and the CPU
# time (user + system) of each run, and the largest peak RSS ("Maximum resident set size").
#
# - line: `list` and `check` on a library whose one SKILL.md is an MB-long single line, in three
#   shapes: prose after a valid frontmatter (every cut exact, counted on every core), one giant
#   word after a valid frontmatter (no exact cut anywhere: tiktoken's worst case), and prose with
#   no frontmatter at all.
# - resource: `list` on a skill with a RESOURCE_MB text resource (lines of prose), cold, then
#   warm (its count in the index), then touched before each run (a new stat, the same bytes: the
#   file is read and hashed, and its count found by the hash); and `check` cold (which reads no
#   resource that is not markdown).
# - slash: `list` and `check` on a library holding a symlink to `/` (target: ≤ 2 s, with a
#   walk-skipped warning).
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-20}
resource_mb=${2:-600}
runs=${RUNS:-3}
only=${ONLY:-}
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --quiet
    bin=$PWD/target/release/skillscope
else
    bin=$BIN
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SKILLSCOPE_CACHE_DIR=$work/cache SKILLSCOPE_CONFIG_DIR=$work/config NO_COLOR=1

# measure LABEL PREPARE CMD...: runs CMD $runs times, PREPARE (a shell command) before each.
measure() {
    local label=$1 prepare=$2
    shift 2
    local walls=() cpus=() peak=0
    for _ in $(seq "$runs"); do
        eval "$prepare"
        /usr/bin/time -v "$@" >"$work/out" 2>"$work/time" || true
        local wall rss user sys
        wall=$(sed -n 's/^\s*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
        rss=$(sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$work/time")
        user=$(sed -n 's/^\s*User time (seconds): //p' "$work/time")
        sys=$(sed -n 's/^\s*System time (seconds): //p' "$work/time")
        walls+=("$wall")
        cpus+=("$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')")
        [ "$rss" -gt "$peak" ] && peak=$rss
    done
    printf '%-56s wall %s  cpu %s s  peak RSS %d MB\n' "$label" "${walls[*]}" "${cpus[*]}" $((peak / 1024))
}
cold="rm -rf $work/cache"

# line UNIT BYTES: UNIT repeated to BYTES bytes, on one line.
line() {
    python3 -c 'import sys; u=sys.argv[1]; n=int(sys.argv[2]); sys.stdout.write((u * (n // len(u) + 1))[:n])' "$1" "$2"
}

echo "binary: $bin ($(du -h "$bin" | cut -f1)); $runs runs per case; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -z "$only" ] || [ "$only" = line ]; then
    bytes=$((mb * 1024 * 1024))
    mkdir -p "$work/prose/huge" "$work/word/huge" "$work/bare/huge"
    { printf -- '---\nname: huge\ndescription: A skill whose body is one %s MB line. Use when testing.\n---\n' "$mb"
      line 'The quick brown fox jumps over the lazy dog, again and again; see [notes](notes.md). ' "$bytes"; } \
        >"$work/prose/huge/SKILL.md"
    { printf -- '---\nname: huge\ndescription: A skill whose body is one %s MB word. Use when testing.\n---\n' "$mb"
      line 'abcdefghijklmnopqrstuvwxyz' "$bytes"; } >"$work/word/huge/SKILL.md"
    line 'No frontmatter here, just words on and on. ' "$bytes" >"$work/bare/huge/SKILL.md"
    for shape in prose word bare; do
        for cmd in list check; do
            measure "$cmd, $mb MB single-line SKILL.md ($shape), cold" "$cold" "$bin" $cmd "$work/$shape"
        done
    done
    rm -rf "$work/prose" "$work/word" "$work/bare"
fi

if [ -z "$only" ] || [ "$only" = resource ]; then
    skill=$work/res/big
    mkdir -p "$skill/references"
    printf -- '---\nname: big\ndescription: A skill with a %s MB reference. Use when testing.\n---\nSee [the data](references/data.txt).\n' \
        "$resource_mb" >"$skill/SKILL.md"
    python3 - "$skill/references/data.txt" "$((resource_mb * 1024 * 1024))" <<'EOF'
import sys
path, n = sys.argv[1], int(sys.argv[2])
# Lines of varied prose, numbers and identifiers, written a few MB at a time.
words = ("the quick brown fox jumps over the lazy dog while 42 agents parse skill_files "
         "and tokens/pieces; don't stop until 1234567 lines are read. ").split()
block = []
for i in range(60000):
    w = words[i % len(words):] + words[:i % len(words)]
    block.append(" ".join(w[: 8 + i % 11]) + f" #{i * 7919 % 100003}\n")
block = "".join(block).encode()
with open(path, "wb") as f:
    left = n
    while left > 0:
        f.write(block[:left])
        left -= min(left, len(block))
EOF
    # Not just written: a stamp from the last two seconds would not be trusted warm.
    touch -d '1 hour ago' "$skill/references/data.txt" "$skill/SKILL.md" "$skill/references" "$skill" "$work/res"
    measure "list, $resource_mb MB resource, cold" "$cold" "$bin" list "$work/res"
    measure "list, $resource_mb MB resource, warm" ":" "$bin" list "$work/res"
    measure "list, $resource_mb MB resource, touched (same bytes, new stat)" \
        "touch -d '1 hour ago' $skill/references/data.txt" "$bin" list "$work/res"
    measure "check, $resource_mb MB resource, cold" "$cold" "$bin" check "$work/res"
    rm -rf "$work/res"
fi

if [ -z "$only" ] || [ "$only" = slash ]; then
    mkdir -p "$work/slash/a"
    printf -- '---\nname: a\ndescription: A skill beside a link to the root folder. Use when testing.\n---\nBody.\n' \
        >"$work/slash/a/SKILL.md"
    ln -s / "$work/slash/root-link"
    for cmd in list check; do
        measure "$cmd, a library with a symlink to /, cold" "$cold" "$bin" $cmd "$work/slash"
        if grep -q "not followed" "$work/out" "$work/time"; then
            echo "  warning given: $(grep -ho "[^ ]*root-link leads to [^:]*: not followed" "$work/out" "$work/time" | head -1)"
        else
            echo "  NO WARNING about the link to /" >&2
        fi
    done
fi
