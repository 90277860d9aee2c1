#!/usr/bin/env bash
# The budget diff shown in the README, made on the real corpus: a git repository whose first
# commit holds the corpus's anthropic-skills library and whose second adds three superpowers
# skills, lengthens one description and breaks one skill's YAML.
#   scripts/corpus-diff.sh [CORPUS]     (default ../shared/corpus or $SKILLSCOPE_CORPUS)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${1:-${SKILLSCOPE_CORPUS:-$here/../shared/corpus}}
[ -d "$corpus/anthropic-skills/skills" ] || { echo "no corpus at $corpus" >&2; exit 2; }
bin=${SKILLSCOPE_BIN:-$here/target/debug/skillscope}
[ -x "$bin" ] || (cd "$here" && cargo build --quiet)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SKILLSCOPE_CONFIG_DIR=$work/config SKILLSCOPE_CACHE_DIR=${SKILLSCOPE_CACHE_DIR:-$work/cache} NO_COLOR=1
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=x GIT_AUTHOR_EMAIL=x@example.com GIT_COMMITTER_NAME=x GIT_COMMITTER_EMAIL=x@example.com
cd "$work" && git init -q
cp -r "$corpus/anthropic-skills/skills" skills
git add -A && git commit -qm "anthropic skills"
for s in brainstorming systematic-debugging test-driven-development; do
  cp -r "$corpus/superpowers/skills/$s" skills/
done
sed -i 's/^\(description: .*\)\.$/\1. Also use it to review a skill'"'"'s frontmatter against each agent'"'"'s rules before publishing it./' skills/skill-creator/SKILL.md
sed -i 's/^description: .*/description: Toolkit for testing web apps: [playwright/' skills/webapp-testing/SKILL.md
echo "\$ skillscope budget skills --baseline-ref HEAD --format markdown --listing claude-code --model claude"
"$bin" budget skills --baseline-ref HEAD --format markdown --listing claude-code --model claude || echo "(exit $?)"
