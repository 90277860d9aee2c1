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
#     $SKILLSCOPE_SYNTH) warm;
#   - the sentence model cold (an empty cache folder each time, `match --matcher semantic`, once
#     each): the whole corpus, and the 600 skills of tests/eval/paraphrase-library-2.txt; then a
#     warm `match --matcher hybrid` on the 625 skills of tests/eval/paraphrase-library.txt.
# SKIP="add app synth vectors" leaves those parts out (their rows say "not run").
#
# BEFORE=path/to/another/skillscope measures that build too, in the same hyperfine runs (its own
# cache folder, started through `env` for that), and the table gets a column for it: before and
# after side by side, at one load.
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
before=${BEFORE:-}
[ -z "$before" ] || [ -x "$before" ] || { echo "BEFORE=$before is no program" >&2; exit 2; }
# PEER=… takes a peer binary built before (scripts/peer_bench.sh --build-only prints its path).
peer=${PEER:-$(scripts/peer_bench.sh --build-only)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SKILLSCOPE_CACHE_DIR=$work/cache SKILLSCOPE_CONFIG_DIR=$work/config NO_COLOR=1
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

echo "== corpus ($corpus), warm, beside skills-ref-rs"
warm_cmds=("check --format json" "list --json" "budget" "check")
warm_names=()
for cmd in "${warm_cmds[@]}"; do
    "$bin" $cmd "$corpus" >/dev/null 2>&1 || true
    warm_names+=(-n "$cmd" "$bin $cmd $corpus")
done
if [ -n "$before" ]; then
    for cmd in "${warm_cmds[@]}"; do
        SKILLSCOPE_CACHE_DIR=$work/cache-before "$before" $cmd "$corpus" >/dev/null 2>&1 || true
        warm_names+=(-n "before: $cmd" "env SKILLSCOPE_CACHE_DIR=$work/cache-before $before $cmd $corpus")
    done
fi
hyperfine -N --warmup 2 --runs 10 -i --export-json "$work/warm.json" \
    "${warm_names[@]}" -n "skills-ref-rs" "$peer $corpus"

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
    [ -z "$before" ] || names+=(-n "before: skillscope add --yes" "${add_env[*]} $before add file://$work/repo --yes")
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
    if [ -n "$before" ]; then
        BIN=$before scripts/app_start.sh "$corpus" 5 | tee "$work/app-before.txt"
    fi
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
    synth_names=(-n "list --json" "$bin list --json $synth" -n "check" "$bin check $synth")
    if [ -n "$before" ]; then
        for cmd in check "list --json"; do
            SKILLSCOPE_CACHE_DIR=$work/synth-cache-before "$before" $cmd "$synth" >/dev/null 2>&1 || true
        done
        synth_names+=(-n "before: list --json" "env SKILLSCOPE_CACHE_DIR=$work/synth-cache-before $before list --json $synth"
            -n "before: check" "env SKILLSCOPE_CACHE_DIR=$work/synth-cache-before $before check $synth")
    fi
    hyperfine -N --warmup 1 --runs 5 -i --export-json "$work/synth.json" "${synth_names[@]}"
fi

# The sentence model: each cold run once, in an empty cache folder of its own; "name wall user sys"
# lines in vectors.txt.
: >"$work/vectors.txt"
if [[ $skip != *" vectors "* ]]; then
    message="my pager week ends tonight, how do I brief the next person"
    mapfile -t lib600 < <(sed "s|^|$corpus/|" tests/eval/paraphrase-library-2.txt)
    mapfile -t lib625 < <(sed "s|^|$corpus/|" tests/eval/paraphrase-library.txt)
    cold() { # NAME BINARY ROOTS...: one cold `match --matcher semantic`, timed
        local name=$1 program=$2
        shift 2
        rm -rf "$work/vec-cache"
        # `match` exits 1 when no skill answers the message: the time is kept all the same.
        SKILLSCOPE_CACHE_DIR=$work/vec-cache /usr/bin/time -f "%e %U %S" -o "$work/time" \
            "$program" match --matcher semantic "$message" "$@" >/dev/null 2>"$work/vec-err" || true
        if ! tail -n1 "$work/time" | grep -Eq '^[0-9.]+ [0-9.]+ [0-9.]+$'; then
            echo "$name failed:"
            cat "$work/vec-err"
            return 0
        fi
        echo "$name $(tail -n1 "$work/time")" | tee -a "$work/vectors.txt"
    }
    echo "== the sentence model, cold"
    for who in "" before; do
        program=$bin
        if [ "$who" = before ]; then
            [ -n "$before" ] || continue
            program=$before
        fi
        cold "${who:+before:}corpus" "$program" "$corpus"
        # The paraphrase sets name skills of the real corpus: left out for another root.
        [ -e "${lib600[0]}" ] && cold "${who:+before:}600" "$program" "${lib600[@]}"
    done
    [ -e "${lib625[0]}" ] || skip="$skip hybrid "
    [[ $skip == *" hybrid "* ]] || echo "== warm match --matcher hybrid, 625 skills"
    # Through a script of its own each: the skills' paths and the message stay whole words.
    hybrid_names=()
    for who in "" before; do
        [[ $skip != *" hybrid "* ]] || continue
        program=$bin
        if [ "$who" = before ]; then
            [ -n "$before" ] || continue
            program=$before
        fi
        script=$work/hybrid${who:+-$who}.sh
        {
            echo "export SKILLSCOPE_CACHE_DIR=$work/hybrid${who:+-$who}"
            printf 'exec %q match --matcher hybrid %q' "$program" "$message"
            printf ' %q' "${lib625[@]}"
            echo
        } >"$script"
        bash "$script" >/dev/null 2>&1 || true
        hybrid_names+=(-n "${who:+before: }hybrid" "bash $script")
    done
    [ ${#hybrid_names[@]} -eq 0 ] || hyperfine -N --warmup 1 --runs 10 -i --export-json "$work/hybrid.json" "${hybrid_names[@]}"
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$work" "$summary" "$(date -u +%Y-%m-%d)" "$built" \
    "$load_before" "$load_after" "$skills" "$before" <<'EOF'
import json, re, sys
work, out, day, commit, load_before, load_after, skills, before = sys.argv[1:]

def runs(name):
    try:
        with open(f"{work}/{name}.json") as f:
            return {r["command"]: r for r in json.load(f).get("results", [])}
    except (OSError, ValueError):
        return {}

def fig(r):
    if not r:
        return "not run"
    return f"{r['mean']:.3f} s ± {r['stddev']:.3f} (user {r['user']:.3f}, sys {r['system']:.3f} s)"

def judged(ok):
    return "met" if ok else "**missed**"

def app_report(name):
    try:
        text = open(f"{work}/{name}").read()
    except OSError:
        return []
    return [float(m) for m in re.findall(r"the app's own report: ([0-9.]+) ms", text)]

def app_fig(ms):
    return f"{min(ms):.0f}–{max(ms):.0f} ms ({len(ms)} starts)" if ms else "not run"

vectors = {}
try:
    for line in open(f"{work}/vectors.txt"):
        name, wall, user, system = line.split()
        vectors[name] = (float(wall), float(user), float(system))
except (OSError, ValueError):
    pass

def vec_fig(v):
    return f"{v[0]:.1f} s (user {v[1]:.1f}, sys {v[2]:.1f} s)" if v else "not run"

warm, add, synth, hybrid = runs("warm"), runs("add"), runs("synth"), runs("hybrid")
rows = []  # (what, skillscope, before, beside, target, judged)
peer = warm.get("skills-ref-rs")
for name in ["check --format json", "list --json", "budget"]:
    r = warm.get(name)
    if r and peer:
        ratio = r["mean"] / peer["mean"]
        cpu = (r["user"] + r["system"]) / (peer["user"] + peer["system"])
        rows.append((f"`{name}`, corpus, warm", fig(r), fig(warm.get(f"before: {name}")),
                     f"skills-ref-rs {fig(peer)}", "≤ 0.33× the peer's wall",
                     f"{judged(ratio <= 0.33)} ({ratio:.2f}× its wall, {cpu:.2f}× its CPU)"))
r = warm.get("check")
if r:
    rows.append(("`check` (text), corpus, warm", fig(r), fig(warm.get("before: check")), "",
                 "≤ 0.25 s", judged(r["mean"] <= 0.25)))
a, p = add.get("skillscope add --yes"), add.get("skills add --copy -y")
what = "`add` of 181 skills from a local git repository"
b = fig(add.get("before: skillscope add --yes"))
if a and p:
    cpu = (a["user"] + a["system"]) / (p["user"] + p["system"])
    rows.append((what, fig(a), b, f"skills add --copy {fig(p)}",
                 "≤ 0.5× the skills CLI's CPU", f"{judged(cpu <= 0.5)} ({cpu:.2f}× its CPU)"))
else:
    rows.append((what, fig(a), b, "skills CLI not run", "≤ 0.5× the skills CLI's CPU", "not judged"))
app = app_report("app.txt")
rows.append(("the app's second start on the corpus, to every level drawn (its own report)",
             app_fig(app), app_fig(app_report("app-before.txt")), "", "≤ 100 ms",
             judged(max(app) <= 100) if app else "not judged"))
for name in ["list --json", "check"]:
    r = synth.get(name)
    rows.append((f"`{name}`, {int(skills):,} synthetic skills, warm", fig(r),
                 fig(synth.get(f"before: {name}")), "", "≤ 1 s",
                 judged(r["mean"] <= 1.0) if r else "not judged"))
v = vectors.get("corpus")
rows.append(("cold sentence vectors, whole corpus (`match --matcher semantic`, empty cache)",
             vec_fig(v), vec_fig(vectors.get("before:corpus")), "", "≤ 30 s",
             judged(v[0] <= 30) if v else "not judged"))
v = vectors.get("600")
rows.append(("cold sentence vectors, 600 skills (`paraphrase-library-2.txt`)", vec_fig(v),
             vec_fig(vectors.get("before:600")), "", "≤ 6 CPU-s",
             judged(v[1] + v[2] <= 6) if v else "not judged"))
r, rb = hybrid.get("hybrid"), hybrid.get("before: hybrid")
if r and rb:
    verdict = judged(r["user"] + r["system"] <= 1.05 * (rb["user"] + rb["system"]))
    verdict += f" ({(r['user'] + r['system']) / (rb['user'] + rb['system']):.2f}× the CPU before)"
else:
    verdict = "not judged (no build before)" if r else "not judged"
rows.append(("warm `match --matcher hybrid`, 625 skills", fig(r), fig(rb), "",
             "unchanged or better", verdict))

head = ["what", "skillscope: wall mean ± σ (CPU)"]
if before:
    head.append(f"before (`{before}`), same run")
head += ["beside", "target", "by this run"]
text = [f"**{day}, `scripts/bench.sh` {commit}**, release build, load average {load_before} "
        f"before and {load_after} after (1, 5, 15 minutes; the machine has 2 cores). Means of "
        "`hyperfine -N` runs; the cold sentence vectors one `/usr/bin/time` run each; each "
        "target judged by this run alone.", "",
        "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
for r in rows:
    cells = [r[0], r[1]] + ([r[2]] if before else []) + list(r[3:])
    text.append("| " + " | ".join(cells) + " |")
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
