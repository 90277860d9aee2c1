#!/usr/bin/env bash
# Screenshots of the real binary on real skills (list, detail, prompt preview, test box, checks,
# budget): run it in tmux, send keys, capture the pane with its colours, turn that into HTML
# (scripts/ansi2html.py) and photograph the page with headless Chromium.
#
# Usage: scripts/screenshots.sh [PATH...]
#   default PATHs: ../shared/corpus (or $SKILLSCOPE_CORPUS) plus the demo library, whose
#   executable skills give the Checks screen something to probe.
# Env: COLS, ROWS (terminal size, default 120x36), SKILLSCOPE_BIN (default: release build),
#      OUT (default screenshots/). Needs tmux, python3 and chromium (apt-get install tmux chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

COLS=${COLS:-120}
ROWS=${ROWS:-36}
OUT=${OUT:-screenshots}
BIN=${SKILLSCOPE_BIN:-target/release/skillscope}
CORPUS=${SKILLSCOPE_CORPUS:-../shared/corpus}

for tool in tmux python3; do
    command -v "$tool" >/dev/null || { echo "screenshots: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "screenshots: chromium is missing (apt-get install chromium)" >&2; exit 1; }
if [ -z "${SKILLSCOPE_BIN:-}" ]; then
    cargo build --release --quiet
fi

if [ $# -gt 0 ]; then
    LIBS=("$@")
elif [ -d "$CORPUS" ]; then
    LIBS=("$CORPUS" assets/skills)
else
    echo "screenshots: no corpus at $CORPUS; using the demo library only" >&2
    LIBS=(assets/skills)
fi

WORK=$(mktemp -d)
SESSION="skillscope-shots-$$"
cleanup() {
    tmux kill-session -t "$SESSION" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT" "$WORK/config" "$WORK/cache"

# Fresh config and cache: the shots show the library as a first start sees it.
tmux new-session -d -s "$SESSION" -x "$COLS" -y "$ROWS" \
    env SKILLSCOPE_CONFIG_DIR="$WORK/config" SKILLSCOPE_CACHE_DIR="$WORK/cache" TERM=xterm-256color \
    "$BIN" "${LIBS[@]}"

screen_text() { tmux capture-pane -p -t "$SESSION"; }

# Waits until the screen shows a pattern (grep -E), at most 60 s.
wait_for() {
    for _ in $(seq 1 600); do
        if screen_text | grep -qE "$1"; then return 0; fi
        sleep 0.1
    done
    echo "screenshots: timed out waiting for /$1/; the screen was:" >&2
    screen_text >&2
    exit 1
}

# Waits until the screen no longer shows a pattern, at most 60 s.
wait_gone() {
    for _ in $(seq 1 600); do
        if ! screen_text | grep -qE "$1"; then return 0; fi
        sleep 0.1
    done
    echo "screenshots: /$1/ never went away" >&2
}

keys() {
    tmux send-keys -t "$SESSION" "$@"
    sleep 0.4
}

# Page size from the font: DejaVu Sans Mono at 15px is 9.04px wide, lines are 1.16 em.
WIDTH=$(python3 -c "import math; print(math.ceil($COLS * 9.04) + 32)")
HEIGHT=$(python3 -c "import math; print(math.ceil($ROWS * 15 * 1.16) + 28)")

shot() {
    local name=$1
    sleep 0.3
    tmux capture-pane -e -p -t "$SESSION" > "$WORK/$name.ans"
    python3 scripts/ansi2html.py "$WORK/$name.ans" "$WORK/$name.html" --rows "$ROWS" --title "skillscope: $name"
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$WORK")" --hide-scrollbars \
        --screenshot="$PWD/$OUT/$name.png" --window-size="$WIDTH,$HEIGHT" \
        "file://$WORK/$name.html" >/dev/null 2>&1
    echo "$OUT/$name.png"
}

wait_for "enabled ·"
wait_gone "scanning…"
# Let the background workers (rules, token counts) finish filling in.
wait_gone "rules: [a-z-]+…"
wait_gone "counting L"
sleep 1

# The list, biggest skills first.
keys s
shot list
keys s ; keys s ; keys s

# The detail of a skill found with the fuzzy filter (matched letters highlighted).
keys / ; keys p d f ; keys Enter
keys j j j j j
keys Enter
shot detail
keys Escape
keys Escape

# The claude-code listing: its budget is 1% of the context window.
keys 2
keys f ; keys f
wait_gone "counting L"
sleep 1
shot prompt

keys 3
tmux send-keys -t "$SESSION" -l "extract the tables from this pdf and put them in a spreadsheet"
sleep 0.5
shot test

# In the test box digits are text: Tab moves on to Checks.
keys Tab
keys r
wait_gone "probing"
shot checks

keys 5
shot budget

keys C-c
