#!/usr/bin/env bash
# Whole-process figures of the semantic matcher, on the release binary and the real corpus:
#  1. embedding the whole corpus (4,791 skills) cold: `match --matcher semantic` with an empty
#     cache folder, wall time and peak RSS (run once: it is the first start's cost);
#  2. a warm `match --matcher hybrid` on the paraphrase set's 625 skills (vectors remembered in
#     the library index): RUNS timed runs after one that fills the index;
#  3. the same warm run with bm25 alone, for the model's share of time and memory;
#  4. the app's memory with the model loaded: the app on the 625 skills in tmux, its RSS once the
#     list has settled, then after the Test box (key 3) has a message and every column answered.
# The machine's load average is printed first and last: the cores are shared.
#
#   scripts/bench-semantic.sh [RUNS]        # corpus in ../shared/corpus or $SKILLSCOPE_CORPUS
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
corpus=${SKILLSCOPE_CORPUS:-$PWD/../shared/corpus}
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-$PWD/target}/release/skillscope
tmp=$(mktemp -d)
session=skillscope-semantic-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$tmp"' EXIT
export SKILLSCOPE_CONFIG_DIR=$tmp/config SKILLSCOPE_STATE=$tmp/state.json
mapfile -t lib625 < <(sed "s|^|$corpus/|" tests/eval/paraphrase-library.txt)
message="my pager week ends tonight, how do I brief the next person"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "binary: $(stat -c %s "$bin") bytes"

timed() { # prints "seconds peakKB" of one run of the command
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
    cat "$tmp/time"
}

export SKILLSCOPE_CACHE_DIR=$tmp/cold
read -r s kb < <(timed "$bin" match --matcher semantic "$message" "$corpus")
fields=$(SKILLSCOPE_CACHE_DIR=$tmp/cold2 "$bin" list --json "$corpus" 2>/dev/null | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "cold, whole corpus ($fields skills): embedding and match ${s} s, peak RSS $((kb / 1024)) MB"
read -r s kb < <(timed "$bin" match --matcher semantic "$message" "$corpus")
echo "warm, whole corpus: ${s} s, peak RSS $((kb / 1024)) MB"

export SKILLSCOPE_CACHE_DIR=$tmp/warm
timed "$bin" match --matcher hybrid "$message" "${lib625[@]}" >/dev/null
for matcher in hybrid semantic bm25; do
    all=()
    for i in $(seq "$runs"); do
        read -r s kb < <(timed "$bin" match --matcher "$matcher" "$message" "${lib625[@]}")
        all+=("$s $kb")
    done
    printf '%s\n' "${all[@]}" | sort -n | awk -v m="$matcher" -v n="$runs" '
        { t[NR] = $1; k[NR] = $2 }
        END { printf "warm match --matcher %s on 625 skills, %d runs: median %.2f s (min %.2f, max %.2f), peak RSS %d MB\n",
              m, n, t[int((n + 1) / 2)], t[1], t[n], k[int((n + 1) / 2)] / 1024 }'
done

if command -v tmux >/dev/null; then
    # The same 625 skills given as their four collections (625 folder names are too long a
    # command for tmux); the CLI run first makes their vectors, so the app finds them remembered.
    roots=("$corpus/anthropic-skills" "$corpus/superpowers" "$corpus/wshobson-agents" "$corpus/awesome-copilot")
    "$bin" match --matcher semantic "$message" "${roots[@]}" >/dev/null 2>&1
    rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
    tmux new-session -d -s "$session" -x 160 -y 45 "env SKILLSCOPE_CACHE_DIR=$SKILLSCOPE_CACHE_DIR SKILLSCOPE_CONFIG_DIR=$SKILLSCOPE_CONFIG_DIR SKILLSCOPE_STATE=$SKILLSCOPE_STATE $bin ${roots[*]}"
    sleep 1
    pid=$(pgrep -n -f "^$bin $corpus" || true)
    # Settled: every level counted and the rules done (the pane stops changing).
    prev=""; for i in $(seq 120); do
        pane=$(tmux capture-pane -p -t "$session"); [ "$pane" = "$prev" ] && ! grep -qE 'scanning|counting' <<<"$pane" && break
        prev=$pane; sleep 0.5
    done
    before=$(rss "$pid")
    tmux send-keys -t "$session" 3
    tmux send-keys -t "$session" -l "$message"
    for i in $(seq 240); do
        pane=$(tmux capture-pane -p -t "$session")
        grep -qE 'semantic · [0-9]' <<<"$pane" && ! grep -qE 'embedding|loading the model' <<<"$pane" && break
        sleep 0.5
    done
    sleep 2
    after=$(rss "$pid")
    hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
    echo "app on 625 skills: RSS $((before / 1024)) MB before the Test box, $((after / 1024)) MB with the model loaded and every column answered (+$(((after - before) / 1024)) MB), peak $((hwm / 1024)) MB"
    tmux capture-pane -p -t "$session" > "$tmp/pane.txt"
    tmux send-keys -t "$session" q
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
