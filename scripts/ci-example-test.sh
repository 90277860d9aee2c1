#!/usr/bin/env bash
# Runs the commands of docs/ci.md (the GitHub Actions workflow and the pre-commit hook) on a
# fixture git repository with two commits, and checks their figures, fates, tables and exit codes.
#   scripts/ci-example-test.sh            (builds the debug binary)
#   SKILLSCOPE_BIN=path/to/skillscope scripts/ci-example-test.sh
# Needs bash, git, grep, sed. Prints "ci example: ok" at the end; any failure exits non-zero.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${SKILLSCOPE_BIN:-}" ]; then
  (cd "$here" && cargo build --quiet)
  SKILLSCOPE_BIN=$here/target/debug/skillscope
fi
command -v git >/dev/null || { echo "ci example: git is needed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/repo"
ln -s "$SKILLSCOPE_BIN" "$work/bin/skillscope"
export PATH=$work/bin:$PATH
# Nothing of the user's: config, cache, state, git identity.
export SKILLSCOPE_CONFIG_DIR=$work/config SKILLSCOPE_CACHE_DIR=$work/cache HOME=$work NO_COLOR=1
unset SKILLSCOPE_CONFIG
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.com GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.com

fail() { echo "ci example: FAILED: $*" >&2; exit 1; }
# expect CODE CMD...: runs CMD and fails unless it exits with CODE.
expect() {
  local want=$1; shift
  local got=0
  "$@" >"$work/expect.log" 2>&1 || got=$?
  [ "$got" = "$want" ] || { cat "$work/expect.log" >&2; fail "exit $got, expected $want: $*"; }
}
has() { grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 lacks: $2"; }; }

skill() { mkdir -p "skills/$1"; printf -- '---\nname: %s\ndescription: %s\n---\n# %s\n\n%s\n' "$1" "$2" "$1" "$3" > "skills/$1/SKILL.md"; }

cd "$work/repo"
git init -q
SKILLS=skills
MAX_INCREASE=500

# Commit 1: three skills and their budget baseline, committed as the docs suggest.
skill alpha "Formats SQL queries. Use when the user pastes SQL." "Indent every clause."
skill beta "Writes release notes." "Group by area."
skill gamma "Reviews Terraform plans for risky changes. Use when a plan is pasted." "Look for deletes."
skillscope budget "$SKILLS" --save-baseline skills-budget.json 2>/dev/null
git add -A && git commit -qm "three skills"

# Commit 2: a skill added, a description lengthened, a skill made invalid.
skill delta "Drafts incident post-mortems with a timeline, impact, root cause and follow-up actions. Use after an outage." "1. Timeline"
skill beta "Writes release notes from merged pull requests, grouped by area, with breaking changes first. Use when the user asks for a changelog." "Group by area."
printf -- '---\nname: gamma\ndescription: Reviews Terraform plans: risky [changes\n---\n# gamma\n' > skills/gamma/SKILL.md
git add -A && git commit -qm "delta, longer beta, broken gamma"

BASE=HEAD~1

# --- The workflow's steps (docs/ci.md), exactly.
expect 1 sh -c 'skillscope check "$0" --format github > annotations.txt' "$SKILLS"
skillscope check "$SKILLS" --format github > annotations.txt || true
has annotations.txt "::error file=skills/gamma/SKILL.md,line="
has annotations.txt ",title=yaml-invalid::"
expect 1 sh -c 'skillscope check "$0" --format markdown > check.md' "$SKILLS"
skillscope check "$SKILLS" --format markdown > check.md || true
has check.md "### skillscope check (spec profile)"
has check.md "| error | \`yaml-invalid\` | skills/gamma/SKILL.md:"

status=0
skillscope budget "$SKILLS" --baseline-ref "$BASE" --format markdown --fail-on-increase "$MAX_INCREASE" --fail-on-drop > budget.md 2>/dev/null || status=$?
[ "$status" = 1 ] || fail "budget against $BASE exited $status, expected 1 (gamma left the listings)"
has budget.md "1 added, 0 removed, 2 changed; 1 left a listing"
has budget.md "| gamma | changed |"
# Claude Code and Codex read a frontmatter that is not valid YAML line by line: gamma stays in
# their listings.
has budget.md "| cline, copilot, lazy-skills, markdown, xml: listed → dropped |"
has budget.md "| delta | added |"
has budget.md "| listed (all) |"
has budget.md ":x: 1 skill left a listing (--fail-on-drop): gamma (cline, copilot, lazy-skills, markdown, xml)"
has budget.md "against git HEAD\\~1"   # `~` escaped: GitHub would strike through text between two

# The figures: the per-turn cost before and after is what `budget` itself measures at each commit.
per_turn() { # COMMIT-DIR FORMAT → tokens per turn of that listing
  (cd "$1" && skillscope budget "$SKILLS" --listing "$2" | sed -n "s/^listing ($2, [a-z]* tier): \([0-9,]*\) tokens per turn.*/\1/p")
}
git worktree add -q "$work/old" "$BASE"
for f in markdown claude-code; do
  before=$(per_turn "$work/old" "$f")
  after=$(per_turn . "$f")
  [ -n "$before" ] && [ -n "$after" ] || fail "no $f figures"
  change=$(( ${after//,/} - ${before//,/} ))
  has budget.md "| $f | $before | $after | +$change |"
done
git worktree remove --force "$work/old"

# The same review against the committed baseline file: the same table.
mv budget.md budget-ref.md
status=0
skillscope budget "$SKILLS" --baseline skills-budget.json --format markdown --fail-on-increase "$MAX_INCREASE" --fail-on-drop > budget.md 2>/dev/null || status=$?
[ "$status" = 1 ] || fail "budget against the baseline file exited $status, expected 1"
diff <(grep -v '^<sub>' budget-ref.md) <(grep -v '^<sub>' budget.md) || fail "the baseline file and HEAD~1 disagree"
has budget.md "against skills-budget.json"

# Exit codes of each gate alone.
expect 0 skillscope budget "$SKILLS" --baseline-ref "$BASE"
expect 1 skillscope budget "$SKILLS" --baseline-ref "$BASE" --fail-on-drop
expect 0 skillscope budget "$SKILLS" --baseline-ref "$BASE" --fail-on-increase 100000
expect 1 skillscope budget "$SKILLS" --baseline-ref "$BASE" --fail-on-increase 0
expect 1 skillscope budget "$SKILLS" --baseline skills-budget.json --fail-on-increase 0
expect 2 skillscope budget "$SKILLS" --baseline-ref no-such-commit
expect 1 skillscope check "$SKILLS" --ignore unknown-field --warnings-as-errors
expect 0 skillscope check "$SKILLS" --ignore yaml-invalid,description-generic
expect 2 skillscope check no-such-folder

# --- The pre-commit hook (docs/ci.md), installed as the docs say.
mkdir -p .githooks
cat > .githooks/pre-commit <<'HOOK'
#!/bin/sh
# Blocks a commit that breaks a skill or pushes one out of an agent's listing.
set -e
SKILLS=${SKILLS:-skills}
MAX_INCREASE=${MAX_INCREASE:-200}
git rev-parse -q --verify HEAD >/dev/null || exit 0   # the first commit has nothing to compare
skillscope check "$SKILLS"
skillscope budget "$SKILLS" --baseline-ref HEAD --fail-on-increase "$MAX_INCREASE" --fail-on-drop
HOOK
chmod +x .githooks/pre-commit
git config core.hooksPath .githooks
# Mend gamma: the hook lets the commit through.
skill gamma "Reviews Terraform plans for risky changes. Use when a plan is pasted." "Look for deletes."
git add -A
git commit -qm "mend gamma" >hook.log 2>&1 || { cat hook.log >&2; fail "the hook refused a good commit"; }
# Break alpha: the hook stops the commit, and says why.
printf -- '---\nname: alpha\n---\n# alpha\n' > skills/alpha/SKILL.md
git add -A
head=$(git rev-parse HEAD)
if git commit -qm "break alpha" >hook.log 2>&1; then fail "the hook let a broken skill through"; fi
has hook.log "skills/alpha/SKILL.md"
[ "$(git rev-parse HEAD)" = "$head" ] || fail "a commit was made"

echo "ci example: ok"
