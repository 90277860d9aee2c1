#!/usr/bin/env bash
# A second start of the app, measured on the real binary in a terminal: from launching
# `skillscope ROOT` in tmux until the pane shows the skill list with every level counted (no
# "scanning…", no "counting", no "…" left in the L1/L2/L3 columns), and the app's peak RSS then.
# The first run fills the token cache and the library index (not timed); the next RUNS are timed.
#
#   scripts/app_start.sh ROOT [RUNS]
#   UNTIL=list scripts/app_start.sh ROOT [RUNS]   # until the list is on screen, counts or not
#   CPU=1 scripts/app_start.sh ROOT [RUNS]        # the CPU of each second start (perf stat)
#
# With CPU=1 each timed start quits by itself once it has drawn every level
# (SKILLSCOPE_START_REPORT_QUIT=1) and runs under `perf stat -e task-clock`: the CPU time of one
# whole start, which the load of other programs changes far less than the wall time. Needs perf.
#
# Each second start also gives the app's peak RSS $SETTLE seconds (default 3) later, once the
# workers that follow the counts (the rules, the preview, the matchers' index, the watcher) are
# done: the memory the app really needs, not only what it held when the list came up.
#
# The pane is polled every 20 ms (each poll runs tmux and grep, on the same cores), so each figure
# includes up to one poll of delay and the cost of tmux itself; the app's own report
# (SKILLSCOPE_START_REPORT: from its process's start to the end of its first frame with every
# level counted, written to the terminal) is given beside it. Needs tmux.
set -euo pipefail
cd "$(dirname "$0")/.."
root=${1:?usage: scripts/app_start.sh ROOT [RUNS]}
runs=${2:-5}
command -v tmux >/dev/null || { echo "tmux is needed (apt-get install tmux)" >&2; exit 2; }
# BIN=… measures another build (nothing is built then).
if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --quiet
fi
bin=${BIN:-$PWD/target/release/skillscope}
cache=$(mktemp -d)
session=skillscope-start-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$cache"' EXIT
export SKILLSCOPE_CACHE_DIR=$cache/cache SKILLSCOPE_CONFIG_DIR=$cache/config SKILLSCOPE_STATE=$cache/state.json
export SKILLSCOPE_MAX_ENTRIES=${SKILLSCOPE_MAX_ENTRIES:-2000000}

until=${UNTIL:-levels}
case $until in
levels) what="the list with every level" ;;
list) what="the list on screen" ;;
*) echo "UNTIL is levels or list" >&2; exit 2 ;;
esac

# Whether the pane shows the list (UNTIL=list), with every level known (UNTIL=levels).
ready() {
    local pane
    pane=$(tmux capture-pane -p -t "$session" 2>/dev/null) || return 1
    grep -q 'L1' <<<"$pane" || return 1
    if [ "$until" = list ]; then
        ! grep -q 'scanning' <<<"$pane"
        return
    fi
    # A count not known yet is a lone `…` in its column (a cut name ends in one after a letter;
    # the detail pane's diagnostics heading ends in one while the body rules run).
    pane=$(grep -v 'Diagnostics' <<<"$pane")
    ! grep -qE 'scanning|counting| …( |$)' <<<"$pane"
}

# The same polling on a pane whose program prints the L1 heading and nothing else at once: what
# tmux and the polling add to each figure below.
baseline() {
    local t0 t1
    t0=$(date +%s%N)
    tmux new-session -d -s "$session" -x 160 -y 40 "printf 'L1\\n'; sleep 5"
    until tmux capture-pane -p -t "$session" 2>/dev/null | grep -q 'L1'; do sleep 0.02; done
    t1=$(date +%s%N)
    tmux kill-session -t "$session" 2>/dev/null || true
    echo "$(( (t1 - t0) / 1000000 ))"
}

once() { # prints "ms KB KB" for one start: the time, the peak RSS then, and the peak RSS once
    # the app has been open $2 seconds more (its workers done); $1 = timeout in seconds
    local t0 t1 pid hwm
    t0=$(date +%s%N)
    tmux new-session -d -s "$session" -x 160 -y 40 \
        "env SKILLSCOPE_CACHE_DIR=$SKILLSCOPE_CACHE_DIR SKILLSCOPE_CONFIG_DIR=$SKILLSCOPE_CONFIG_DIR SKILLSCOPE_MAX_ENTRIES=$SKILLSCOPE_MAX_ENTRIES SKILLSCOPE_START_REPORT=$cache/start.txt $bin $root"
    until ready; do
        if (( ($(date +%s%N) - t0) / 1000000000 > $1 )); then
            echo "timed out" >&2
            break
        fi
        sleep 0.02
    done
    t1=$(date +%s%N)
    pid=$(pgrep -n -f "$bin $root" || true)
    hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo "?")
    sleep "${2:-0}"
    settled=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo "?")
    tmux send-keys -t "$session" q
    sleep 0.3
    tmux kill-session -t "$session" 2>/dev/null || true
    echo "$(( (t1 - t0) / 1000000 )) $hwm $settled"
}

# What the app itself reported for the start just measured (SKILLSCOPE_START_REPORT): from its
# process's start to its first frame with every level counted, no terminal or poller in it.
reported() {
    tail -1 "$cache/start.txt" 2>/dev/null | cut -d' ' -f1
}

# One second start that quits once it has drawn every level, under perf stat: prints "ms cpu_ms",
# the app's own report and the task-clock of the whole process.
cpu_once() {
    tmux new-session -d -s "$session" -x 160 -y 40 \
        "env SKILLSCOPE_CACHE_DIR=$SKILLSCOPE_CACHE_DIR SKILLSCOPE_CONFIG_DIR=$SKILLSCOPE_CONFIG_DIR SKILLSCOPE_MAX_ENTRIES=$SKILLSCOPE_MAX_ENTRIES SKILLSCOPE_START_REPORT=$cache/start.txt SKILLSCOPE_START_REPORT_QUIT=1 perf stat -x, -e task-clock -o $cache/perf.txt -- $bin $root"
    local waited=0
    while tmux has-session -t "$session" 2>/dev/null && (( waited < 6000 )); do
        sleep 0.02
        waited=$((waited + 1))
    done
    tmux kill-session -t "$session" 2>/dev/null || true
    echo "$(reported) $(awk -F, '/task-clock/ {printf "%.1f", $1}' "$cache/perf.txt")"
}

# The first start stays open a while after its counts, so that its workers (the body rules, the
# index and cache writes) finish before it quits.
echo "first start (fills the cache and the index): $(once 600 10 | awk '{print $1 " ms, peak RSS " $2 " KB, " $3 " KB after 10 s"}')"
once 120 5 >/dev/null
if [ -n "${CPU:-}" ]; then
    command -v perf >/dev/null || { echo "CPU=1 needs perf" >&2; exit 2; }
    for i in $(seq "$runs"); do
        read -r ms cpu <<<"$(cpu_once)"
        echo "second start $i: the app's own report: $ms ms to every level drawn; CPU $cpu ms (task-clock)"
    done
    exit 0
fi
echo "tmux and the polling alone: $(baseline) ms to show a line"
for i in $(seq "$runs"); do
    line=$(once 120 "${SETTLE:-3}" | awk -v what="$what" '{print $1 " ms to " what ", peak RSS " $2 " KB then, " $3 " KB once its workers are done"}')
    echo "second start $i: $line; the app's own report: $(reported) ms to every level drawn"
done
