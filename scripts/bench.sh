#!/usr/bin/env bash
# Measures the performance targets with the release binary in one run, beside the peer, and
# writes the summary table docs/performance.md shows: dated, with the machine's load, each
# target met or missed by this run's own figures.
#
#   scripts/bench.sh [CORPUS] [SKILLS]
#   WRITE_DOCS=1 scripts/bench.sh        # also puts the table into docs/performance.md
#
# What runs:
#   - warm `check --format json`, `list --json`, `budget` and `check` on the corpus beside
#     skills-ref-rs validating every folder in one process (scripts/peer_bench.sh builds it),
#     all in one `hyperfine -N -w 2 -r 10` run, so that they share the machine's load;
#   - `add` of the corpus's wshobson-agents (181 skills) from a local git repository beside
#     `skills add -s '*' -a claude-code --copy -g -y` (scripts/bench_add.sh says how the skills CLI
#     is found; left out when it cannot run);
#   - the app's second start (scripts/app_start.sh, the app's own report);
#   - SKILLS synthetic skills (default 50,000, scripts/gen-synthetic, written once to
#     $SKILLSCOPE_SYNTH) warm.
# SKIP="add app synth" leaves those parts out (their rows say "not run").
#
# CORPUS defaults to ../shared/corpus or $SKILLSCOPE_CORPUS. Needs hyperfine, GNU time, python3,
# git, tmux (the app) and network access to crates.io once (the peer). The table goes to
# $SUMMARY (default target/bench-summary.md) and to stdout. Criterion benchmarks of the library
# and of the warm commands run with `cargo bench` (benches/warm_cli.rs: the same commands).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
corpus=$(realpath "${1:-${SKILLSCOPE_CORPUS:-../shared/corpus}}")
skills=${2:-50000}
synth=${SKILLSCOPE_SYNTH:-${TMPDIR:-/tmp}/skillscope-synth-$skills}
summary=${SUMMARY:-$repo/target/bench-summary.md}
skip=" ${SKIP:-} "
[ -d "$corpus" ] || { echo "no corpus at $corpus: pass its path or set SKILLSCOPE_CORPUS" >&2; exit 2; }
for tool in hyperfine python3 git; do
    command -v $tool >/dev/null || { echo "$tool is needed" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
# BIN=… measures another build of skillscope (nothing is built then; the table names it).
built="at $(git rev-parse --short HEAD)"
[ -z "${BIN:-}" ] || built="of $BIN"
if [ -z "${BIN:-}" ]; then
    cargo build --release --locked --quiet
fi
bin=${BIN:-$repo/target/release/skillscope}
export BIN=$bin
# PEER=… takes a peer binary built before (scripts/peer_bench.sh --build-only prints its path).
peer=${PEER:-$(scripts/peer_bench.sh --build-only)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SKILLSCOPE_CACHE_DIR=$work/cache SKILLSCOPE_CONFIG_DIR=$work/config NO_COLOR=1
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

echo "== corpus ($corpus), warm, beside skills-ref-rs"
for cmd in "check --format json" "list --json" "budget" "check"; do
    "$bin" $cmd "$corpus" >/dev/null 2>&1 || true
done
hyperfine -N --warmup 2 --runs 10 -i --export-json "$work/warm.json" \
    -n "check --format json" "$bin check --format json $corpus" \
    -n "list --json" "$bin list --json $corpus" \
    -n "budget" "$bin budget $corpus" \
    -n "check" "$bin check $corpus" \
    -n "skills-ref-rs" "$peer $corpus"

echo '{}' >"$work/add.json"
if [[ $skip != *" add "* ]] && [ -d "$corpus/wshobson-agents" ]; then
    echo "== add of the corpus's wshobson-agents from a local git repository"
    cp -r "$corpus/wshobson-agents" "$work/repo"
    git -C "$work/repo" init -q
    git -C "$work/repo" add -A
    git -C "$work/repo" -c user.name=bench -c user.email=bench@example.com commit -qm skills
    mkdir -p "$work/cwd"
    peer_add=()
    if [ -n "${NODE:-}" ] && [ -n "${SKILLS_CLI:-}" ]; then
        peer_add=("$NODE" "$SKILLS_CLI")
    elif command -v npx >/dev/null && node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a==22&&b>=20)?0:1)' 2>/dev/null; then
        peer_add=(npx -y "skills@${SKILLS_VERSION:-1.7.4}")
    fi
    fresh="rm -rf $work/home $work/cwd/skills-lock.json $work/cwd/.claude"
    add_env=(env HOME="$work/home" SKILLSCOPE_DATA_DIR="$work/home/data"
        SKILLSCOPE_CACHE_DIR="$work/home/cache" SKILLSCOPE_CONFIG_DIR="$work/home/config"
        DO_NOT_TRACK=1 DISABLE_TELEMETRY=1)
    names=(-n "skillscope add --yes" "${add_env[*]} $bin add file://$work/repo --yes")
    if [ ${#peer_add[@]} -gt 0 ]; then
        names+=(-n "skills add --copy -y" "${add_env[*]} ${peer_add[*]} add $work/repo -s * -a claude-code --copy -g -y")
    else
        echo "the skills CLI is left out: it needs Node.js 22.20 or later (set NODE and SKILLS_CLI)"
    fi
    (cd "$work/cwd" && hyperfine -N --warmup 1 --runs 10 -i --prepare "$fresh" \
        --export-json "$work/add.json" "${names[@]}")
fi

: >"$work/app.txt"
if [[ $skip != *" app "* ]] && command -v tmux >/dev/null; then
    echo "== the app's second start on the corpus"
    scripts/app_start.sh "$corpus" 5 | tee "$work/app.txt"
fi

echo '{}' >"$work/synth.json"
if [[ $skip != *" synth "* ]]; then
    if [ ! -d "$synth" ]; then
        echo "== writing $skills synthetic skills to $synth"
        python3 scripts/gen-synthetic "$synth" --skills "$skills" >/dev/null
    fi
    echo "== $skills synthetic skills, warm"
    # About 4.7 files and folders per synthetic skill: over the default walk cap of 1,000,000
    # entries past about 200,000 skills (a capped walk is walked again every run).
    export SKILLSCOPE_MAX_ENTRIES=${SKILLSCOPE_MAX_ENTRIES:-2000000}
    # Its own cache folder: its counts never push the corpus's out of the corpus rows' cache.
    export SKILLSCOPE_CACHE_DIR=$work/synth-cache
    "$bin" check "$synth" >/dev/null 2>&1 || true
    "$bin" list --json "$synth" >/dev/null 2>&1 || true
    hyperfine -N --warmup 1 --runs 5 -i --export-json "$work/synth.json" \
        -n "list --json" "$bin list --json $synth" \
        -n "check" "$bin check $synth"
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$work" "$summary" "$(date -u +%Y-%m-%d)" "$built" \
    "$load_before" "$load_after" "$skills" <<'EOF'
import json, re, sys
work, out, day, commit, load_before, load_after, skills = sys.argv[1:]

def runs(name):
    try:
        with open(f"{work}/{name}.json") as f:
            return {r["command"]: r for r in json.load(f).get("results", [])}
    except (OSError, ValueError):
        return {}

def fig(r):
    return f"{r['mean']:.3f} s ± {r['stddev']:.3f} (user {r['user']:.3f}, sys {r['system']:.3f} s)"

def judged(ok):
    return "met" if ok else "**missed**"

warm, add, synth = runs("warm"), runs("add"), runs("synth")
rows = []
peer = warm.get("skills-ref-rs")
for name in ["check --format json", "list --json", "budget"]:
    r = warm.get(name)
    if r and peer:
        ratio = r["mean"] / peer["mean"]
        cpu = (r["user"] + r["system"]) / (peer["user"] + peer["system"])
        rows.append((f"`{name}`, corpus, warm", fig(r), f"skills-ref-rs {fig(peer)}",
                     "≤ 0.33× the peer's wall",
                     f"{judged(ratio <= 0.33)} ({ratio:.2f}× its wall, {cpu:.2f}× its CPU)"))
r = warm.get("check")
if r:
    rows.append(("`check` (text), corpus, warm", fig(r), "", "≤ 0.25 s", judged(r["mean"] <= 0.25)))
a, p = add.get("skillscope add --yes"), add.get("skills add --copy -y")
if a and p:
    cpu = (a["user"] + a["system"]) / (p["user"] + p["system"])
    rows.append(("`add` of 181 skills from a local git repository", fig(a), f"skills add --copy {fig(p)}",
                 "≤ 0.5× the skills CLI's CPU", f"{judged(cpu <= 0.5)} ({cpu:.2f}× its CPU)"))
elif a:
    rows.append(("`add` of 181 skills from a local git repository", fig(a), "skills CLI not run",
                 "≤ 0.5× the skills CLI's CPU", "not judged"))
else:
    rows.append(("`add` of 181 skills", "not run", "", "≤ 0.5× the skills CLI's CPU", "not judged"))
try:
    app = [float(m) for m in re.findall(r"the app's own report: ([0-9.]+) ms", open(f"{work}/app.txt").read())]
except OSError:
    app = []
if app:
    rows.append(("the app's second start on the corpus, to every level drawn (its own report)",
                 f"{min(app):.0f}–{max(app):.0f} ms ({len(app)} starts)", "", "≤ 100 ms", judged(max(app) <= 100)))
else:
    rows.append(("the app's second start", "not run", "", "≤ 100 ms", "not judged"))
for name in ["list --json", "check"]:
    r = synth.get(name)
    if r:
        rows.append((f"`{name}`, {int(skills):,} synthetic skills, warm", fig(r), "", "≤ 1 s", judged(r["mean"] <= 1.0)))
    else:
        rows.append((f"`{name}`, {int(skills):,} synthetic skills", "not run", "", "≤ 1 s", "not judged"))

text = [f"**{day}, `scripts/bench.sh` {commit}**, release build, load average {load_before} "
        f"before and {load_after} after (1, 5, 15 minutes; the machine has 2 cores). Means of "
        "`hyperfine -N` runs; each target judged by this run alone.", "",
        "| what | skillscope: wall mean ± σ (CPU) | beside | target | by this run |",
        "|---|---|---|---|---|"]
text += ["| " + " | ".join(r) + " |" for r in rows]
with open(out, "w") as f:
    f.write("\n".join(text) + "\n")
print("\n".join(text))
EOF

if [ "${WRITE_DOCS:-}" = 1 ]; then
    python3 - "$summary" docs/performance.md <<'EOF'
import sys
summary, doc = open(sys.argv[1]).read(), sys.argv[2]
text = open(doc).read()
start, end = "<!-- scripts/bench.sh: start -->\n", "<!-- scripts/bench.sh: end -->\n"
a, b = text.index(start) + len(start), text.index(end)
open(doc, "w").write(text[:a] + summary + text[b:])
EOF
    echo "docs/performance.md: summary written"
fi
