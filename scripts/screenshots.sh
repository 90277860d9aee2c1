#!/usr/bin/env bash
# Screenshots of the real binary on real skills (list, detail, prompt preview, test box, checks,
# budget), made in a neutral setting: a fake home whose ~/.claude/skills holds the demo library and
# a sample of the corpus, the app started there with no PATH argument (it finds the skills as it
# would on a user's machine), a clean environment, no config file, an empty cache, and a PATH on
# which python3 is /usr/bin/python3. No path of the machine that runs this script reaches the
# screen. The app runs in tmux; each screen is captured with its colours, turned into HTML
# (scripts/ansi2html.py) and photographed with headless Chromium.
#
# Usage: scripts/screenshots.sh
# Env: SAMPLE      corpus collections copied into the fake home (default: anthropic-skills
#                  superpowers wshobson-agents, 207 skills); the corpus is ../shared/corpus or
#                  $SKILLSCOPE_CORPUS; without it the demo library alone is used
#      SHOT_HOME   the fake home (default /tmp/skillscope-home; it appears on the Detail and
#                  Checks screens, so a fixed name keeps the shots reproducible); rebuilt on every
#                  run, and refused if it exists without this script's marker file
#      COLS, ROWS  terminal size (default 120x36)
#      SKILLSCOPE_BIN  the binary (default: a release build in $CARGO_TARGET_DIR or target/)
#      OUT         where the PNGs go (default screenshots/)
# Needs tmux, python3 and chromium (apt-get install tmux chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD

COLS=${COLS:-120}
ROWS=${ROWS:-36}
OUT=$(realpath -m "${OUT:-screenshots}")
CORPUS=${SKILLSCOPE_CORPUS:-../shared/corpus}
SAMPLE=${SAMPLE:-anthropic-skills superpowers wshobson-agents}
SHOT_HOME=${SHOT_HOME:-/tmp/skillscope-home}
MARKER=.skillscope-screenshots-home
# The interpreter the Checks screen shows: a plain system python3, not a version manager's shim.
CLEAN_PATH=/usr/bin:/bin

for tool in tmux python3 realpath; do
    command -v "$tool" >/dev/null || { echo "screenshots: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
[ -x /usr/bin/python3 ] || { echo "screenshots: /usr/bin/python3 is missing (apt-get install python3)" >&2; exit 1; }
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "screenshots: chromium is missing (apt-get install chromium)" >&2; exit 1; }
if [ -n "${SKILLSCOPE_BIN:-}" ]; then
    BIN=$(realpath "$SKILLSCOPE_BIN")
else
    cargo build --release --locked --quiet
    BIN=$(realpath "${CARGO_TARGET_DIR:-target}/release/skillscope")
fi

# The fake home, from scratch: a folder this script made before, or none at all.
if [ -e "$SHOT_HOME" ]; then
    if [ ! -e "$SHOT_HOME/$MARKER" ]; then
        echo "screenshots: $SHOT_HOME exists and was not made by this script; set SHOT_HOME" >&2
        exit 1
    fi
    rm -rf "$SHOT_HOME"
fi
SKILLS="$SHOT_HOME/.claude/skills"
mkdir -p "$SKILLS"
touch "$SHOT_HOME/$MARKER"

# Skills sit in ~/.claude/skills one folder each, as a user installs them. The first folder of a
# name wins; a later one of the same name is left out (one folder cannot hold both).
install_skill() {
    local dir=$1 name
    name=$(basename "$dir")
    [ -e "$SKILLS/$name" ] && return 0
    cp -R "$dir" "$SKILLS/$name"
}
for dir in assets/skills/*/; do
    install_skill "${dir%/}"
done
if [ -d "$CORPUS" ]; then
    for collection in $SAMPLE; do
        [ -d "$CORPUS/$collection" ] || { echo "screenshots: no $collection in $CORPUS" >&2; exit 1; }
        while IFS= read -r -d '' md; do
            install_skill "$(dirname "$md")"
        done < <(find "$CORPUS/$collection" -name SKILL.md -print0 | sort -z)
    done
else
    echo "screenshots: no corpus at $CORPUS; the fake home holds the demo library only" >&2
fi
echo "screenshots: $(find "$SKILLS" -mindepth 1 -maxdepth 1 -type d | wc -l) skills in $SKILLS" >&2

WORK=$(mktemp -d)
SOCKET="skillscope-shots-$$"
cleanup() {
    tmux -L "$SOCKET" kill-server 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT"

# A tmux server of its own, and the app in a clean environment: only what a login shell would
# set, with the fake home as HOME and the working folder (so no project folder is read).
tmux -L "$SOCKET" -f /dev/null new-session -d -s shots -x "$COLS" -y "$ROWS" -c "$SHOT_HOME" \
    env -i HOME="$SHOT_HOME" PATH="$CLEAN_PATH" TERM=xterm-256color LANG=C.UTF-8 USER=me \
    "$BIN"

screen_text() { tmux -L "$SOCKET" capture-pane -p -t shots; }

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
    tmux -L "$SOCKET" send-keys -t shots "$@"
    sleep 0.4
}

# Page size from the font: DejaVu Sans Mono at 15px is 9.04px wide, lines are 1.16 em.
WIDTH=$(python3 -c "import math; print(math.ceil($COLS * 9.04) + 32)")
HEIGHT=$(python3 -c "import math; print(math.ceil($ROWS * 15 * 1.16) + 28)")

# Everything on screen must come from the fake home: a path of this machine would give it away.
check_neutral() {
    local name=$1 text
    text=$(screen_text)
    for leak in "$REPO" "$WORK" "${CORPUS%/}" /root /work .pyenv; do
        if grep -qF -- "$leak" <<<"$text"; then
            echo "screenshots: the $name screen shows \`$leak\`:" >&2
            echo "$text" >&2
            exit 1
        fi
    done
}

shot() {
    local name=$1
    sleep 0.3
    check_neutral "$name"
    tmux -L "$SOCKET" capture-pane -e -p -t shots > "$WORK/$name.ans"
    python3 "$REPO/scripts/ansi2html.py" "$WORK/$name.ans" "$WORK/$name.html" --rows "$ROWS" --title "skillscope: $name"
    "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d -p "$WORK")" --hide-scrollbars \
        --screenshot="$OUT/$name.png" --window-size="$WIDTH,$HEIGHT" \
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

# Claude Code's view (the first agent, where the app starts on a library of the agents' own
# folders): its skills, its listing format, its budget (1% of its model's context window).
keys 2
wait_gone "counting L"
sleep 1
shot prompt

keys 3
tmux -L "$SOCKET" send-keys -t shots -l "extract the tables from this pdf and put them in a spreadsheet"
# The Test box follows the chosen agent: its skills compete, and what it injects is counted.
sleep 1
wait_gone "working out what the message loads"
# The semantic and hybrid columns answer once the skills are embedded (a first run embeds them all).
wait_gone "embedding skills|embedding the message|loading the model"
shot test

# In the test box digits are text: Tab moves on to Checks.
keys Tab
keys r
wait_gone "probing"
shot checks

keys 5
# Each agent's listing is priced when the screen is first shown.
wait_gone "pricing each agent"
shot budget

keys C-c
