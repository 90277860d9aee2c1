#!/usr/bin/env bash
# Measures `skillscope add` of a collection from a local git repository into ~/.claude/skills,
# every run from an empty home (no token cache, no installed skills), with the release binary
# and hyperfine; beside it `npx skills add REPO -s '*' -a claude-code --copy -g -y` (-g: the user's folder) when the skills
# CLI can run here (target: skillscope ≤ 0.5× its CPU).
#
#   scripts/bench_add.sh [SKILLS]        # SKILLS synthetic skills (scripts/gen-synthetic)
#   SOURCE=DIR scripts/bench_add.sh      # the skill folders below DIR, copied into a repository
#
# Without SKILLS or SOURCE the collection is the corpus's wshobson-agents (181 skills; the corpus
# at ../shared/corpus or $SKILLSCOPE_CORPUS). The skills CLI is run as `$NODE $SKILLS_CLI` when
# both are set (it needs Node.js 22.20 or later), else as `npx -y skills@$SKILLS_VERSION` when
# the node on PATH is recent enough, else left out (said). The figures include the clone, the
# staging, the rules, every level counted with the encoder loaded, the listing change, the
# install and the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=$(realpath "${CARGO_TARGET_DIR:-target}")/release/skillscope
corpus=${SKILLSCOPE_CORPUS:-../shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${1:-}" ]; then
    python3 scripts/gen-synthetic "$tmp/repo" --skills "$1" >/dev/null
elif [ -n "${SOURCE:-}" ] || [ -d "$corpus/wshobson-agents" ]; then
    cp -r "${SOURCE:-$corpus/wshobson-agents}" "$tmp/repo"
else
    echo "no collection: pass SKILLS, set SOURCE, or set SKILLSCOPE_CORPUS" >&2
    exit 2
fi
git -C "$tmp/repo" init -q
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=bench -c user.email=bench@example.com commit -qm skills
skills=$(find "$tmp/repo" -name SKILL.md -not -path '*/.git/*' | wc -l)
# The commands run in an empty folder that is no git work tree (else add installs into that
# project's folder, and the skills CLI writes its skills-lock.json there).
mkdir -p "$tmp/cwd"
cd "$tmp/cwd"
export HOME=$tmp/home SKILLSCOPE_DATA_DIR=$tmp/home/data SKILLSCOPE_CACHE_DIR=$tmp/home/cache \
    SKILLSCOPE_CONFIG_DIR=$tmp/home/config NO_COLOR=1 DO_NOT_TRACK=1 DISABLE_TELEMETRY=1
url=file://$tmp/repo
fresh="rm -rf $tmp/home $tmp/cwd/skills-lock.json $tmp/cwd/.claude"

# The skills CLI, when it can run here.
peer=()
version=${SKILLS_VERSION:-1.7.4}
if [ -n "${NODE:-}" ] && [ -n "${SKILLS_CLI:-}" ]; then
    peer=("$NODE" "$SKILLS_CLI")
elif command -v npx >/dev/null && node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a==22&&b>=20)?0:1)' 2>/dev/null; then
    peer=(npx -y "skills@$version")
else
    echo "the skills CLI is left out: it needs Node.js 22.20 or later (set NODE and SKILLS_CLI)"
fi
peer_cmd=${peer[*]:+${peer[*]} add $tmp/repo -s * -a claude-code --copy -g -y}

echo "== add of $skills skills from $url: preview (--dry-run)"
hyperfine -N --warmup 1 --runs 10 --prepare "$fresh" "$bin add $url --dry-run"
echo "== add of $skills skills: preview and install (--yes), beside the skills CLI"
if [ -n "$peer_cmd" ]; then
    # hyperfine -N runs no shell: the skills CLI gets '*' as written.
    hyperfine -N --warmup 1 --runs 10 --prepare "$fresh" \
        -n "skillscope add --yes" "$bin add $url --yes" \
        -n "skills add --copy -y" "$peer_cmd"
else
    hyperfine -N --warmup 1 --runs 10 --prepare "$fresh" "$bin add $url --yes"
fi
echo "== CPU of one run each (GNU time)"
for i in 1 2 3; do
    $fresh
    /usr/bin/time -f "    skillscope add --yes: %e s wall, %U s user, %S s sys, peak RSS %M KB" \
        "$bin" add "$url" --yes >/dev/null 2>"$tmp/time" || true
    tail -1 "$tmp/time"
    if [ -n "$peer_cmd" ]; then
        $fresh
        /usr/bin/time -f "    skills add --copy -y: %e s wall, %U s user, %S s sys, peak RSS %M KB" \
            "${peer[@]}" add "$tmp/repo" -s '*' -a claude-code --copy -g -y >/dev/null 2>"$tmp/time" || true
        tail -1 "$tmp/time"
    fi
done
$fresh
"$bin" add "$url" --dry-run | tail -3
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
