#!/usr/bin/env bash
# `skillscope prompt --format xml` against skills-ref's `to-prompt`, skill by skill, for every skill
# folder of the given roots (default: the corpus).
#
# Usage: scripts/prompt_parity.sh [ROOT...] [-- --show 20 --max 500]
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-}
if [[ -z $python ]]; then
    for p in /work/venv/bin/python python3; do
        if command -v "$p" >/dev/null && "$p" -c 'import skills_ref' 2>/dev/null; then
            python=$p
            break
        fi
    done
fi
[[ -n $python ]] || { echo "prompt_parity: no python with skills-ref found (set PYTHON)" >&2; exit 2; }

roots=()
while [[ $# -gt 0 && $1 != -- ]]; do roots+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
if [[ ${#roots[@]} -eq 0 ]]; then
    roots=("${SKILLSCOPE_CORPUS:-../shared/corpus}")
fi

cargo build --release --quiet
exec "$python" scripts/prompt_parity.py --skillscope target/release/skillscope "$@" "${roots[@]}"
