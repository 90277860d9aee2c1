#!/usr/bin/env bash
# Capture what real AI coding agents send to their model about installed Agent Skills.
#
# Installs each pinned client from the npm registry into a cache outside the repository, runs it
# once non-interactively in a throwaway home and project holding the fixture library
# (tests/fixtures/agents/library), against scripts/mock-model-server.py on 127.0.0.1, and writes
# the golden captures under tests/fixtures/agents/<client>@<version>/<case>/ (see
# docs/capture.md). Nothing reaches the internet: every client gets a dead loopback proxy.
#
# Usage: scripts/capture-agents.sh [CLIENT...]      (default: claude-code codex gemini-cli opencode)
# Environment:
#   SKILLSCOPE_CAPTURE_CACHE  install cache (default ${XDG_CACHE_HOME:-~/.cache}/skillscope-capture)
#   CAPTURE_OUT               where the captures go (default tests/fixtures/agents)
#   CAPTURE_CASES             only these cases (space-separated), default all of the client's
#                             (Codex's cases for a model of another release: `*-gpt54` runs
#                             `-m gpt-5.4`, `*-gpt55` `-m gpt-5.5`; e.g. CODEX_VERSION=0.148.0
#                             CAPTURE_CASES="mixed-gpt54 budget150-gpt54")
#   CAPTURE_KEEP=1            keep the throwaway folders (their paths are printed)
#   CAPTURE_REEXTRACT=1       run no client: extract the golden files again from the last
#                             recorded runs (kept in the cache under runs/)
#   CLAUDE_CODE_VERSION, CODEX_VERSION, GEMINI_CLI_VERSION, OPENCODE_VERSION   other versions
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIB=$ROOT/tests/fixtures/agents/library
OUT=${CAPTURE_OUT:-$ROOT/tests/fixtures/agents}
CACHE=${SKILLSCOPE_CAPTURE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/skillscope-capture}
MOCK=$ROOT/scripts/mock-model-server.py
EXTRACT=$ROOT/scripts/capture-extract.py
DEAD_PROXY=http://127.0.0.1:9   # the discard port: nothing listens, every proxied call fails

declare -A PKG=(
  [claude-code]=@anthropic-ai/claude-code
  [codex]=@openai/codex
  [gemini-cli]=@google/gemini-cli
  [opencode]=opencode-ai
)
declare -A VER=(
  [claude-code]=${CLAUDE_CODE_VERSION:-2.1.332}
  [codex]=${CODEX_VERSION:-0.171.0}
  [gemini-cli]=${GEMINI_CLI_VERSION:-0.61.0}
  [opencode]=${OPENCODE_VERSION:-1.18.33}
)
declare -A BIN=([claude-code]=claude [codex]=codex [gemini-cli]=gemini [opencode]=opencode)
# The client's own skill folders: user (below HOME) and project (below the project).
declare -A USER_SKILLS=(
  [claude-code]=.claude/skills
  [codex]=.agents/skills
  [gemini-cli]=.gemini/skills
  [opencode]=.config/opencode/skills
)
declare -A PROJECT_SKILLS=(
  [claude-code]=.claude/skills
  [codex]=.agents/skills
  [gemini-cli]=.gemini/skills
  [opencode]=.opencode/skills
)
# Cases per client.
declare -A CASES=(
  [claude-code]="mixed budget150 mixed-sonnet45 budget150-sonnet45 budget150-configured controls"
  [codex]="mixed budget150 budget150-configured"
  [gemini-cli]="mixed budget150 mixed-plain"
  [opencode]="mixed budget150"
)

log() { printf '%s\n' "$*" >&2; }

# Install PKG@VERSION into the cache (once) and print the folder.
install_client() {
  local client=$1 pkg=${PKG[$1]} ver=${VER[$1]}
  local dir=$CACHE/${pkg//\//_}@$ver
  if [ ! -x "$dir/node_modules/.bin/${BIN[$client]}" ]; then
    log "installing $pkg@$ver into $dir"
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$pkg@$ver" >&2
  fi
  local got
  got=$(node -p "require('$dir/node_modules/$pkg/package.json').version")
  if [ "$got" != "$ver" ]; then
    log "error: $pkg installed as $got, wanted $ver"
    exit 1
  fi
  printf '%s\n' "$dir"
}

# Copy a tree's files into a folder; a file ending in .in has {PORT}, {HOME}, {PROJECT} and
# {EXTRA} replaced and loses the .in; a .json that exists already is merged into (objects
# deep-merged), a .toml that exists already is appended to.
overlay() {
  local src=$1 dst=$2
  [ -d "$src" ] || return 0
  python3 - "$src" "$dst" "$PORT" "$H" "$PROJ" "$EXTRA" <<'PY'
import json, os, shutil, sys
src, dst, port, home, proj, extra = sys.argv[1:7]
def merge(a, b):
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            merge(a[k], v)
        else:
            a[k] = v
    return a
for d, _, files in os.walk(src):
    for f in files:
        s = os.path.join(d, f)
        rel = os.path.relpath(s, src)
        t = os.path.join(dst, rel[:-3] if rel.endswith(".in") else rel)
        os.makedirs(os.path.dirname(t), exist_ok=True)
        data = open(s, "rb").read()
        if rel.endswith(".in"):
            text = data.decode("utf-8")
            for k, v in (("{PORT}", port), ("{HOME}", home), ("{PROJECT}", proj), ("{EXTRA}", extra)):
                text = text.replace(k, v)
            data = text.encode("utf-8")
        if os.path.exists(t) and t.endswith(".json"):
            merged = merge(json.load(open(t)), json.loads(data))
            open(t, "w").write(json.dumps(merged, indent=2) + "\n")
        elif os.path.exists(t) and t.endswith(".toml"):
            open(t, "ab").write(data)
        else:
            open(t, "wb").write(data)
            shutil.copymode(s, t)
PY
}

# The client's run configuration (what it needs to reach the mock), written before the overlays.
base_config() {
  local client=$1
  case $client in
    codex)
      mkdir -p "$H/.codex"
      cat >"$H/.codex/config.toml" <<EOF
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:$PORT/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[analytics]
enabled = false

[feedback]
enabled = false
EOF
      ;;
    gemini-cli)
      mkdir -p "$H/.gemini"
      cat >"$H/.gemini/settings.json" <<EOF
{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "general": { "disableAutoUpdate": true, "disableUpdateNag": true }
}
EOF
      ;;
    opencode)
      mkdir -p "$H/.config/opencode"
      cat >"$H/.config/opencode/opencode.json" <<EOF
{
  "\$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": "anthropic/claude-sonnet-4-5",
  "small_model": "anthropic/claude-haiku-4-5",
  "provider": {
    "anthropic": {
      "options": { "baseURL": "http://127.0.0.1:$PORT/v1", "apiKey": "dummy" }
    }
  }
}
EOF
      ;;
  esac
}

# Lay out the library for CLIENT and CASE in $H (home), $PROJ (project) and $EXTRA.
lay_library() {
  local client=$1 case=$2
  mkdir -p "$H" "$PROJ" "$EXTRA"
  cp -R "$LIB/project/files/." "$PROJ/"
  base_config "$client"
  case $case in
    mixed*)
      mkdir -p "$H/${USER_SKILLS[$client]}" "$PROJ/${PROJECT_SKILLS[$client]}"
      cp -R "$LIB/user/skills/." "$H/${USER_SKILLS[$client]}/"
      cp -R "$LIB/project/skills/." "$PROJ/${PROJECT_SKILLS[$client]}/"
      overlay "$LIB/user/overlay/$client" "$H"
      overlay "$LIB/project/overlay/$client" "$PROJ"
      overlay "$LIB/extra/overlay/$client" "$EXTRA"
      ;;
    budget150*)
      python3 "$LIB/generate-budget.py" "$H/${USER_SKILLS[$client]}" 150
      ;;
    controls)
      python3 "$LIB/generate-controls.py" "$H/${USER_SKILLS[$client]}"
      ;;
  esac
  # `*-configured`: the model chosen in the client's own user settings, not on its command line.
  case "$client/$case" in
    claude-code/*-configured)
      mkdir -p "$H/.claude"
      printf '{\n  "model": "claude-sonnet-4-5"\n}\n' >"$H/.claude/settings.json"
      ;;
    codex/*-configured)
      # A top-level key: it must come before the tables of the base configuration.
      { printf 'model = "gpt-5.1-codex"\n'; cat "$H/.codex/config.toml"; } >"$H/.codex/config.toml.new"
      mv "$H/.codex/config.toml.new" "$H/.codex/config.toml"
      ;;
  esac
  # A git repository with one commit of fixed date, so that the client's git context is the same
  # on every run.
  (
    cd "$PROJ"
    export GIT_AUTHOR_DATE="2025-01-01T00:00:00Z" GIT_COMMITTER_DATE="2025-01-01T00:00:00Z"
    git init -q -b main
    git -c user.name=fixture -c user.email=fixture@example.invalid add -A
    git -c user.name=fixture -c user.email=fixture@example.invalid commit -q -m "fixture project"
  )
}

# Steps of the mock's scripted mode, and the prompt, per client and case.
steps_for() {
  local client=$1 case=$2
  case "$client/$case" in
    claude-code/mixed | claude-code/mixed-sonnet45)
      printf '%s' '[{"tool":"Read","input":{"file_path":"'"$PROJ"'/src/lib.rs"}},
        {"skill":"with-resources","args":"one two"},{"skill":"folder-differs"},
        {"skill":"deploy","args":"staging"},{"skill":"dup-shared"},{"skill":"no-model-invocation"}]'
      ;;
    gemini-cli/mixed | opencode/mixed)
      printf '%s' '[{"skill":"with-resources"},{"skill":"dup-shared"}]'
      ;;
    *) printf '[]' ;;
  esac
}

prompt_for() {
  local client=$1 case=$2
  case "$client/$case" in
    codex/mixed | codex/mixed-gpt5*) printf '%s' 'hello $with-resources $dup-shared $no-implicit $codex-disabled' ;;
    *) printf 'hello' ;;
  esac
}

run_client() {
  local client=$1 case=$2 dir=$3 prompt=$4
  local bin=$dir/node_modules/.bin/${BIN[$client]}
  local -a env=(
    HOME="$H" PATH="$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin" TERM=dumb LANG=C.UTF-8 TZ=UTC
    HTTP_PROXY=$DEAD_PROXY HTTPS_PROXY=$DEAD_PROXY ALL_PROXY=$DEAD_PROXY
    http_proxy=$DEAD_PROXY https_proxy=$DEAD_PROXY all_proxy=$DEAD_PROXY
    NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost
  )
  local -a cmd
  case $client in
    claude-code)
      env+=(ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" ANTHROPIC_API_KEY=sk-ant-capture-dummy
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1
        DISABLE_ERROR_REPORTING=1 CLAUDE_CODE_ENABLE_TELEMETRY=0)
      cmd=("$bin" -p "$prompt" --allowedTools Skill Read)
      case $case in *sonnet45) cmd+=(--model claude-sonnet-4-5) ;; esac
      case $case in mixed*) cmd+=(--add-dir "$EXTRA") ;; esac
      ;;
    codex)
      env+=(MOCK_API_KEY=capture-dummy CODEX_HOME="$H/.codex")
      cmd=("$bin" exec --skip-git-repo-check)
      # A model named on its command line (one whose catalogue entry sets
      # include_skills_usage_instructions: the "How to use skills" section).
      case $case in
        *-gpt54) cmd+=(-m gpt-5.4) ;;
        *-gpt55) cmd+=(-m gpt-5.5) ;;
      esac
      cmd+=("$prompt")
      ;;
    gemini-cli)
      env+=(GEMINI_API_KEY=capture-dummy GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT"
        GEMINI_CLI_TRUST_WORKSPACE=true GEMINI_TELEMETRY_ENABLED=false)
      cmd=("$bin" -p "$prompt")
      case $case in *plain) ;; *) cmd+=(--approval-mode yolo) ;; esac
      ;;
    opencode)
      env+=(OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1
        OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_SHARE=1)
      cmd=("$bin" run "$prompt")
      ;;
  esac
  (cd "$PROJ" && env -i "${env[@]}" timeout 300 "${cmd[@]}" </dev/null)
}

capture() {
  local client=$1 case=$2 dir=$3
  local base
  base=$(mktemp -d /tmp/skillscope-capture.XXXXXX)
  H=$base/home PROJ=$base/project EXTRA=$base/extra
  local raw=$CACHE/runs/$client@${VER[$client]}/$case
  rm -rf "$raw"
  mkdir -p "$raw"
  # Start the mock first (its port goes into the configuration), then lay out the library.
  local steps
  steps=$(steps_for "$client" "$case")
  python3 "$MOCK" --port 0 --port-file "$raw/port" --log "$raw/requests.jsonl" \
    --steps "$steps" >"$raw/mock.log" 2>&1 &
  local mock_pid=$!
  for _ in $(seq 100); do [ -s "$raw/port" ] && break; sleep 0.1; done
  PORT=$(cat "$raw/port")
  lay_library "$client" "$case"
  local prompt
  prompt=$(prompt_for "$client" "$case")
  log "== $client@${VER[$client]} $case (home $H, port $PORT)"
  local rc=0
  run_client "$client" "$case" "$dir" "$prompt" >"$raw/client.out" 2>"$raw/client.err" || rc=$?
  kill "$mock_pid" 2>/dev/null || true
  wait "$mock_pid" 2>/dev/null || true
  echo "$rc" >"$raw/client.rc"
  log "   client exit $rc, $(wc -l <"$raw/requests.jsonl" 2>/dev/null || echo 0) requests recorded in $raw"
  printf '%s\n' "$base" "$PORT" "$dir" "$steps" "$prompt" | python3 -c \
    'import json,sys; k=["base","port","client_dir","steps","prompt"]; v=sys.stdin.read().split("\n"); json.dump(dict(zip(k,[v[0],v[1],v[2],"\n".join(v[3:-2]),v[-2]])),open(sys.argv[1],"w"))' \
    "$raw/run.json"
  extract_run "$client" "$case"
  if [ "${CAPTURE_KEEP:-}" = 1 ]; then
    log "   kept $base"
  else
    rm -rf "$base"
  fi
}

# Extract the golden files of one recorded run (again).
extract_run() {
  local client=$1 case=$2
  local raw=$CACHE/runs/$client@${VER[$client]}/$case
  local -a a
  mapfile -t a < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["base"]); print(r["port"]); print(r["client_dir"]); print(json.dumps(json.loads(r["steps"] or "[]"))); print(r["prompt"])' "$raw/run.json")
  python3 "$EXTRACT" --client "$client" --version "${VER[$client]}" --case "$case" \
    --log "$raw/requests.jsonl" --out "$OUT/$client@${VER[$client]}/$case" \
    --base "${a[0]}" --port "${a[1]}" --client-dir "${a[2]}" --steps "${a[3]}" --prompt "${a[4]}"
}

main() {
  local clients=("$@")
  [ ${#clients[@]} -gt 0 ] || clients=(claude-code codex gemini-cli opencode)
  command -v rg >/dev/null || log "warning: ripgrep (rg) not on PATH; opencode needs it (apt-get install ripgrep)"
  for client in "${clients[@]}"; do
    [ -n "${PKG[$client]:-}" ] || { log "unknown client $client"; exit 2; }
    local dir
    dir=$(install_client "$client")
    local cases=${CAPTURE_CASES:-${CASES[$client]}}
    for case in $cases; do
      if [ "${CAPTURE_REEXTRACT:-}" = 1 ]; then
        extract_run "$client" "$case"
      else
        capture "$client" "$case" "$dir"
      fi
    done
    python3 "$EXTRACT" --readme --client "$client" --version "${VER[$client]}" \
      --out "$OUT/$client@${VER[$client]}" --client-dir "$dir"
  done
}

main "$@"
