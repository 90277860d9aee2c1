#!/usr/bin/env bash
# Token counts of skillscope against Python tiktoken for every SKILL.md and text resource of the
# given folders (default: the corpus). Works offline: tiktoken's BPE files are taken from the
# tiktoken-rs crate in the cargo registry, which ships the same files.
#
# Usage: scripts/tiktoken_parity.sh [ROOT...] [-- --encoding o200k_base --show 20]
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-}
if [[ -z $python ]]; then
    for p in /work/venv/bin/python python3; do
        if command -v "$p" >/dev/null && "$p" -c 'import tiktoken' 2>/dev/null; then
            python=$p
            break
        fi
    done
fi
[[ -n $python ]] || { echo "tiktoken_parity: no python with tiktoken found (set PYTHON)" >&2; exit 2; }

if [[ -z ${TIKTOKEN_CACHE_DIR:-} ]]; then
    export TIKTOKEN_CACHE_DIR=${TMPDIR:-/tmp}/skillscope-tiktoken-cache
    mkdir -p "$TIKTOKEN_CACHE_DIR"
    assets=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/tiktoken-rs-*/assets 2>/dev/null | tail -1)
    for name in o200k_base cl100k_base; do
        url="https://openaipublic.blob.core.windows.net/encodings/$name.tiktoken"
        key=$(printf '%s' "$url" | sha1sum | cut -d' ' -f1)
        if [[ ! -f $TIKTOKEN_CACHE_DIR/$key && -n $assets ]]; then
            cp "$assets/$name.tiktoken" "$TIKTOKEN_CACHE_DIR/$key"
        fi
    done
fi

roots=()
while [[ $# -gt 0 && $1 != -- ]]; do roots+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
if [[ ${#roots[@]} -eq 0 ]]; then
    roots=("${SKILLSCOPE_CORPUS:-../shared/corpus}")
fi

cargo build --release --quiet
exec "$python" scripts/tiktoken_parity.py --skillscope target/release/skillscope "$@" "${roots[@]}"
