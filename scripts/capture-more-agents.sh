#!/usr/bin/env bash
# Ground truth for the agents added after the first four: run each real client once, offline,
# against the loopback mock model server, and keep what it sends as test fixtures.
#
#   scripts/capture-more-agents.sh [qwen-code] [copilot] [cline] [openclaw]   (default: all)
#
# Each client is installed from the npm registry into a cache outside the repository
# ($SKILLSCOPE_CAPTURE_CACHE, default ~/.cache/skillscope-capture/<pkg>@<version>), with the
# Node it needs from the npm registry's `node` package. A run happens in a throwaway HOME and
# project (a git repository) holding tests/fixtures/agents/library: its user/skills in the
# client's user folder, its project/skills in the client's project folder (the "mixed" scenario).
# The mock (scripts/mock_chat.py: Chat Completions added to scripts/mock-model-server.py) binds
# 127.0.0.1 only, and answers the first model turn with a call of the client's skill tool for
# `with-resources`, so the next request shows what loading a skill injects. Every other address is
# sent to a dead loopback proxy (HTTP(S)_PROXY=127.0.0.1:9), telemetry and auto-update are off.
#
# Written, per client, to tests/fixtures/agents/<client>@<version>/mixed/:
#   request.json        the first model request (paths as {HOME}/{PROJECT}, ids and dates normalized)
#   listing.txt         the exact skill listing the client sent
#   placement.json      where the listing sits (message, role, the text right before and after it)
#   tool.json           the skill tool's definition as sent
#   inject-<skill>.txt  what the skill tool returned to the model (normalized)
#   requests.jsonl      every request of the run, normalized, for reference
#   run.txt             the command line and what the client printed
# SCENARIO=folders, SCENARIO=budget or SCENARIO=wide (environment) captures that case instead of
# "mixed": see place_folders, place_budget and place_wide. INJECT_SKILL names the skill the mock
# calls instead of the scenario's; CASE names the folder written instead of the scenario's (a
# second run of one scenario: CASE=switch-off INJECT_SKILL=switch-off calls the skill the
# client's own switch turned off).
# Versions are pinned below; QWEN_VERSION, COPILOT_VERSION, CLINE_VERSION and OPENCLAW_VERSION
# (environment) capture another release.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${SKILLSCOPE_CAPTURE_CACHE:-$HOME/.cache/skillscope-capture}"
LIB="$ROOT/tests/fixtures/agents/library"
OUT="$ROOT/tests/fixtures/agents"
DEAD="http://127.0.0.1:9"
SCENARIO="${SCENARIO:-mixed}"
case "$SCENARIO" in
  folders) DEFAULT_SKILL=clash ;;
  budget) DEFAULT_SKILL=budget-001 ;;
  wide) DEFAULT_SKILL=long-body ;;
  *) DEFAULT_SKILL=with-resources ;;
esac
INJECT_SKILL="${INJECT_SKILL:-$DEFAULT_SKILL}"
CASE="${CASE:-$SCENARIO}"
PROMPT="Use the $INJECT_SKILL skill."

QWEN_VERSION="${QWEN_VERSION:-0.24.4}"
COPILOT_VERSION="${COPILOT_VERSION:-1.0.102}"
CLINE_VERSION="${CLINE_VERSION:-3.0.65}"
OPENCLAW_VERSION="${OPENCLAW_VERSION:-2026.9.6}"
NODE22=22.23.3
NODE24=24.21.0

log() { printf '%s\n' "$*" >&2; }

# ensure_pkg NAME VERSION -> prints the install folder (its node_modules holds NAME)
ensure_pkg() {
  local name="$1" version="$2" dir
  dir="$CACHE/$(printf '%s' "$name" | tr / _)@$version"
  if [ ! -e "$dir/node_modules/$name/package.json" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$name@$version" >"$dir.log" 2>&1) ||
      { log "npm install $name@$version failed (see $dir.log)"; return 1; }
  fi
  printf '%s\n' "$dir"
}

# node_path VERSION -> prints the folder holding that Node's `node`
node_path() {
  local d
  d="$(ensure_pkg node "$1")" || return 1
  printf '%s\n' "$d/node_modules/node/bin"
}

# The environment every client runs in: nothing of the caller's but PATH's system part.
base_env() {
  local nodebin="$1" home="$2"
  printf '%s\0' env -i "PATH=$nodebin:/usr/local/bin:/usr/bin:/bin" "HOME=$home" "TERM=dumb" \
    "NO_COLOR=1" "LANG=C.UTF-8" "CI=1" "HTTP_PROXY=$DEAD" "HTTPS_PROXY=$DEAD" "http_proxy=$DEAD" \
    "https_proxy=$DEAD" "ALL_PROXY=$DEAD" "NO_PROXY=127.0.0.1" "no_proxy=127.0.0.1" \
    "DO_NOT_TRACK=1" "DISABLE_TELEMETRY=1"
}

start_mock() { # start_mock TMP SKILL_TOOLS [STEPS_JSON] -> sets MOCK_PID, MOCK_PORT
  local t="$1" tools="$2" steps="${3:-}"
  local -a script=(--skills "$INJECT_SKILL")
  [ -n "$steps" ] && script=(--steps "$steps")
  rm -f "$t/port"
  python3 "$ROOT/scripts/mock_chat.py" --log "$t/requests.raw.jsonl" --port-file "$t/port" \
    "${script[@]}" --skill-tools "$tools" >"$t/mock.out" 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 50); do [ -s "$t/port" ] && break; sleep 0.1; done
  MOCK_PORT="$(cat "$t/port")"
}

stop_mock() { kill "$MOCK_PID" 2>/dev/null; wait "$MOCK_PID" 2>/dev/null; }

# new_sandbox -> sets T (throwaway root), H (HOME), P (project, a git repository)
new_sandbox() {
  T="$(mktemp -d /tmp/skillscope-capture.XXXXXX)"
  H="$T/home"
  P="$T/project"
  mkdir -p "$H" "$P"
  (cd "$P" && git init -q . && git -c user.name=capture -c user.email=capture@example.invalid \
    commit -q --allow-empty -m init)
}

place_library() { # place_library USER_DIR PROJECT_DIR
  mkdir -p "$1" "$2"
  if [ "$SCENARIO" = folders ]; then place_folders; return; fi
  if [ "$SCENARIO" = budget ]; then place_budget "$1"; return; fi
  if [ "$SCENARIO" = wide ]; then place_wide "$1"; return; fi
  cp -R "$LIB/user/skills/." "$1/"
  cp -R "$LIB/project/skills/." "$2/"
}

# The "budget" scenario: 200 skills (budget-001 ... budget-200) in the user folder, each with a
# 300-character one-line description, to see the client's listing budget at work.
place_budget() {
  python3 - "$1" <<'PY'
import os, sys
root = sys.argv[1]
for i in range(1, 201):
    name = "budget-%03d" % i
    head = "Budget skill %03d for the listing budget. " % i
    desc = (head + "Filler words to reach three hundred characters. " * 10)[:300].rstrip()
    os.makedirs(os.path.join(root, name), exist_ok=True)
    with open(os.path.join(root, name, "SKILL.md"), "w") as f:
        f.write("---\nname: %s\ndescription: %s\n---\nBody of %s.\n" % (name, desc, name))
PY
}

# The "wide" scenario: tests/fixtures/agents/library/wide (made by its generate-wide.py): its
# user/skills in the client's user folder, its project tree (.github/skills, .agents/skills,
# .claude/skills) at the project's root; odd and long descriptions, a long body, OpenClaw
# requirements, a user skill named like a bundled one.
place_wide() {
  cp -R "$LIB/wide/user/skills/." "$1/"
  cp -R "$LIB/wide/project/." "$P/"
}

# The "folders" scenario: one skill in each folder some agent reads (in-<folder>), and a skill
# named `clash` in every one of them whose description and body name its folder, so the listing
# shows which folders the client reads and the loaded `clash` which copy wins. The client runs in
# $P/sub (a folder below the repository root) with folders there too.
FOLDERS_USER=(.agents/skills .claude/skills .copilot/skills .qwen/skills .cline/skills
  .openclaw/skills .config/agents/skills .codex/skills .gemini/skills)
FOLDERS_PROJECT=(.agents/skills .claude/skills .github/skills .qwen/skills .cline/skills
  .clinerules/skills skills .codex/skills .opencode/skills)
place_folders() {
  local d slug
  write_skill() { # write_skill DIR NAME WHERE
    mkdir -p "$1/$2"
    printf -- '---\nname: %s\ndescription: %s\n---\n%s\n' "$2" "$3" "Body of $2 in $3." >"$1/$2/SKILL.md"
  }
  for d in "${FOLDERS_USER[@]}"; do
    slug="$(printf '%s' "$d" | tr -c 'a-z0-9\n' '-' | sed 's/^-*//; s/-*$//')"
    write_skill "$H/$d" "in-home-$slug" "home $d"
    write_skill "$H/$d" clash "clash copy in home $d"
  done
  for d in "${FOLDERS_PROJECT[@]}"; do
    slug="$(printf '%s' "$d" | tr -c 'a-z0-9\n' '-' | sed 's/^-*//; s/-*$//')"
    write_skill "$P/$d" "in-root-$slug" "project root $d"
    write_skill "$P/$d" clash "clash copy in project root $d"
    write_skill "$P/sub/$d" "in-sub-$slug" "project sub $d"
    write_skill "$P/sub/$d" clash "clash copy in project sub $d"
  done
  RUN_DIR="$P/sub"
}

run_client() { # run_client NODEBIN TIMEOUT ARGV... (cwd = $P); output to $T/run.txt
  local nodebin="$1" limit="$2"
  shift 2
  local -a envv
  mapfile -d '' envv < <(base_env "$nodebin" "$H")
  {
    printf '$'
    printf ' %q' "$@"
    printf '\n'
  } >"$T/run.txt"
  (cd "${RUN_DIR:-$P}" && timeout "$limit" "${envv[@]}" "${EXTRA_ENV[@]}" "$@" </dev/null >>"$T/run.txt" 2>&1)
  echo "exit status: $?" >>"$T/run.txt"
}

normalize() { # normalize CLIENT VERSION SKILL_TOOL LISTING_START LISTING_END [LEAD]
  # LEAD: how a line the client may put before the listing begins, two blank lines between
  # (OpenClaw's note when it truncates or compacts its catalog); taken into the listing.
  python3 - "$T" "$OUT/$1@$2/$CASE" "$3" "$4" "$5" "$INJECT_SKILL" "$1" "$2" "$PROMPT" "$CACHE" "${6:-}" <<'PY'
import json, os, re, sys

tmp, out, tool_name, start, end, skill, client, version, prompt, cache, lead = sys.argv[1:12]
home, project = os.path.join(tmp, "home"), os.path.join(tmp, "project")
os.makedirs(out, exist_ok=True)

UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
ISO = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?\b")
LONGDATE = re.compile(
    r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), "
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December) "
    r"\d{1,2}, \d{4}\b")
YMD = re.compile(r"\b20\d\d-\d\d-\d\d\b")
HEX = re.compile(r"\b[0-9a-f]{40,64}\b")

def norm_text(s):
    for real, ph in ((project, "{PROJECT}"), (home, "{HOME}"), (tmp, "{TMP}"), (cache, "{CACHE}")):
        s = s.replace(os.path.realpath(real), ph).replace(real, ph)
    s = UUID.sub("{UUID}", s)
    s = ISO.sub("{DATETIME}", s)
    s = LONGDATE.sub("{DATE}", s)
    s = YMD.sub("{DATE}", s)
    s = HEX.sub("{HASH}", s)
    return s

def norm(v):
    if isinstance(v, str):
        return norm_text(v)
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {norm_text(k): norm(x) for k, x in v.items()}
    return v

entries = [json.loads(l) for l in open(os.path.join(tmp, "requests.raw.jsonl"), encoding="utf-8")]
with open(os.path.join(out, "requests.jsonl"), "w", encoding="utf-8") as f:
    for e in entries:
        e = dict(e)
        e.pop("time", None)
        e["headers"] = {k: v for k, v in e.get("headers", {}).items()
                        if k not in ("content-length", "host")}
        f.write(json.dumps(norm(e), ensure_ascii=False, sort_keys=True) + "\n")

model = [e for e in entries if e.get("api") == "openai-chat" and e.get("method") == "POST"
         and isinstance(e.get("body"), dict) and "messages" in e["body"]]
with_tool = [e for e in model if any(((t or {}).get("function") or {}).get("name") == tool_name
                                     for t in e["body"].get("tools") or [])]
first = (with_tool or model or [None])[0]
if first is None:
    print("no model request recorded", file=sys.stderr)
    sys.exit(1)
body = first["body"]
json.dump(norm(body), open(os.path.join(out, "request.json"), "w", encoding="utf-8"),
          ensure_ascii=False, indent=2)
open(os.path.join(out, "request.json"), "a").write("\n")

# Where the listing is: each text the request carries, in order.
def texts(b):
    for i, m in enumerate(b.get("messages") or []):
        c = m.get("content")
        if isinstance(c, str):
            yield {"where": "messages", "message_index": i, "role": m.get("role")}, c
        elif isinstance(c, list):
            for j, part in enumerate(c):
                if isinstance(part, dict) and isinstance(part.get("text"), str):
                    yield ({"where": "messages", "message_index": i, "role": m.get("role"),
                            "content_part": j}, part["text"])
    for k, t in enumerate(b.get("tools") or []):
        fn = (t or {}).get("function") or {}
        if isinstance(fn.get("description"), str):
            yield {"where": "tools", "tool_index": k, "tool": fn.get("name")}, fn["description"]

placement = None
for loc, text in texts(body):
    a = text.find(start)
    if a < 0:
        continue
    b = text.find(end, a) if end else -1
    if lead and text[:a].endswith("\n\n\n"):
        line = text[:a - 3].rfind("\n") + 1
        if text[line:a].startswith(lead):
            a = line
    stop = b + len(end) if b >= 0 else len(text)
    listing = text[a:stop]
    placement = {"client": client, "version": version, "case": os.path.basename(out), "prompt": prompt,
                 "skill_tool": tool_name,
                 "requests_recorded": [{"seq": e["seq"], "method": e["method"], "path": e["path"]}
                                       for e in entries],
                 "first_request_seq": first["seq"]}
    if loc["where"] == "tools":
        placement["location"] = "tools[%d].function.description" % loc["tool_index"]
    elif "content_part" in loc:
        placement["location"] = "messages[%d].content[%d].text" % (loc["message_index"], loc["content_part"])
    else:
        placement["location"] = "messages[%d].content" % loc["message_index"]
    placement.update(loc)
    placement.update({
        "sizes": {"chars": len(listing), "utf16_units": len(listing.encode("utf-16-le")) // 2,
                  "utf8_bytes": len(listing.encode("utf-8")), "lines": listing.count("\n") + 1},
        "entries": listing.count("<skill>") if "<skill>" in listing else
                   len([x for x in listing[len(start):].rstrip(".").split(", ") if x]),
        "start_marker": start, "end_marker": end,
        "offset_chars": a,
        "before": norm_text(text[:a]) if a <= 600 else "…" + norm_text(text[a - 600:a]),
        "after": norm_text(text[stop:]) if len(text) - stop <= 600 else norm_text(text[stop:stop + 600]) + "…",
        "text_chars": len(text),
    })
    if lead:
        placement["lead_marker"] = lead
    open(os.path.join(out, "listing.txt"), "w", encoding="utf-8", newline="").write(norm_text(listing))
    break
if placement is None:
    placement = {"found": False, "start_marker": start}
    print("listing marker not found: %r" % start, file=sys.stderr)
json.dump(placement, open(os.path.join(out, "placement.json"), "w", encoding="utf-8"),
          ensure_ascii=False, indent=2)
open(os.path.join(out, "placement.json"), "a").write("\n")

tool = next((t for t in body.get("tools") or []
             if ((t or {}).get("function") or {}).get("name") == tool_name), None)
json.dump(norm(tool), open(os.path.join(out, "tool.json"), "w", encoding="utf-8"),
          ensure_ascii=False, indent=2)
open(os.path.join(out, "tool.json"), "a").write("\n")

# The first tool result after the skill call: what loading the skill injected.
for e in model:
    msgs = e["body"].get("messages") or []
    calls = {}
    for m in msgs:
        for c in m.get("tool_calls") or []:
            calls[c.get("id")] = (c.get("function") or {}).get("name")
    res = [m for m in msgs if m.get("role") == "tool" and calls.get(m.get("tool_call_id")) == tool_name]
    if res:
        c = res[0].get("content")
        if isinstance(c, list):
            c = "".join(p.get("text", "") for p in c if isinstance(p, dict))
        open(os.path.join(out, "inject-%s.txt" % skill), "w", encoding="utf-8", newline="").write(norm_text(c or ""))
        # And whatever the client added after the result in the same request (some clients
        # put the skill's body in a message of their own).
        idx = msgs.index(res[0])
        extra = msgs[idx + 1:]
        if extra:
            json.dump(norm(extra), open(os.path.join(out, "inject-%s.after.json" % skill), "w",
                      encoding="utf-8"), ensure_ascii=False, indent=2)
        break
run = open(os.path.join(tmp, "run.txt"), encoding="utf-8", errors="replace").read()
open(os.path.join(out, "run.txt"), "w", encoding="utf-8").write(norm_text(run))
print("wrote", out)
PY
}

finish() { # finish CLIENT VERSION SKILL_TOOL START END [LEAD]
  normalize "$@"
  if [ -z "${KEEP_SANDBOX:-}" ]; then rm -rf "$T"; else log "sandbox kept: $T"; fi
}

# ---------------------------------------------------------------- Qwen Code
capture_qwen() {
  local pkg nodebin
  pkg="$(ensure_pkg @qwen-code/qwen-code "$QWEN_VERSION")" || return 1
  nodebin="$(node_path "$NODE22")" || return 1
  new_sandbox
  place_library "$H/.qwen/skills" "$P/.qwen/skills"
  # skills.disabled is Qwen Code's switch (settings.json, user scope here).
  cat >"$H/.qwen/settings.json" <<'JSON'
{
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "general": { "disableAutoUpdate": true },
  "skills": { "disabled": ["switch-off"] }
}
JSON
  start_mock "$T" skill
  EXTRA_ENV=(OPENAI_API_KEY=dummy "OPENAI_BASE_URL=http://127.0.0.1:$MOCK_PORT/v1" OPENAI_MODEL=mock-model
    QWEN_CODE_SUPPRESS_YOLO_WARNING=1)
  run_client "$nodebin" 180 node "$pkg/node_modules/@qwen-code/qwen-code/cli-entry.js" \
    --auth-type openai -m mock-model --approval-mode yolo "$PROMPT"
  stop_mock
  finish qwen-code "$QWEN_VERSION" skill "<available_skills>" "</available_skills>"
}

# ---------------------------------------------------------------- GitHub Copilot CLI
# Runs offline with a custom provider (COPILOT_OFFLINE + COPILOT_PROVIDER_BASE_URL: no GitHub
# login). The npm package is a loader; the platform package's binary unpacks its JavaScript
# into $HOME/.cache/copilot/pkg on first start (here the throwaway HOME).
capture_copilot() {
  local pkg bin
  pkg="$(ensure_pkg @github/copilot "$COPILOT_VERSION")" || return 1
  bin="$pkg/node_modules/@github/copilot-linux-x64/copilot"
  [ -x "$bin" ] || { log "no copilot-linux-x64 binary in $pkg"; return 1; }
  new_sandbox
  place_library "$H/.copilot/skills" "$P/.github/skills"
  start_mock "$T" skill
  EXTRA_ENV=(COPILOT_AUTO_UPDATE=false COPILOT_OFFLINE=true
    "COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:$MOCK_PORT/v1" COPILOT_PROVIDER_TYPE=openai
    COPILOT_PROVIDER_API_KEY=dummy COPILOT_MODEL=mock-model COPILOT_ALLOW_ALL=true)
  # The client's own switch, written by the client: ~/.copilot/settings.json "disabledSkills".
  run_client /usr/bin 60 "$bin" skill disable switch-off
  # Before `copilot skill disable` (1.0.83 has only add, list and remove) the same switch is
  # written as that command writes it: the release reads `disabledSkills` all the same.
  [ -e "$H/.copilot/settings.json" ] ||
    printf '{\n  "disabledSkills": [\n    "switch-off"\n  ]\n}\n' >"$H/.copilot/settings.json"
  cp "$H/.copilot/settings.json" "$T/settings.json" 2>/dev/null
  run_client /usr/bin 60 "$bin" skill list
  cp "$T/run.txt" "$T/skill-list.txt"
  # --disable-client-telemetry exists from 1.0.102 on; an older release refuses to start with it.
  local telemetry=()
  [ "$(printf '%s\n' 1.0.102 "$COPILOT_VERSION" | sort -V | head -1)" = 1.0.102 ] &&
    telemetry=(--disable-client-telemetry)
  run_client /usr/bin 180 "$bin" -p "$PROMPT" --allow-all-tools "${telemetry[@]}" -s
  stop_mock
  normalize copilot "$COPILOT_VERSION" skill "<available_skills>" "</available_skills>"
  local out="$OUT/copilot@$COPILOT_VERSION/$CASE"
  python3 - "$T" "$out" "$CACHE" <<'PY'
import os, sys
tmp, out, cache = sys.argv[1:4]
home, project = os.path.join(tmp, "home"), os.path.join(tmp, "project")
for src, dst in (("skill-list.txt", "skill-list.txt"), ("settings.json", "settings.json")):
    p = os.path.join(tmp, src)
    if os.path.exists(p):
        s = open(p, encoding="utf-8", errors="replace").read()
        s = s.replace(project, "{PROJECT}").replace(home, "{HOME}").replace(tmp, "{TMP}")
        s = s.replace(cache, "{CACHE}")
        open(os.path.join(out, dst), "w", encoding="utf-8").write(s)
PY
  if [ -z "${KEEP_SANDBOX:-}" ]; then rm -rf "$T"; else log "sandbox kept: $T"; fi
}

# ---------------------------------------------------------------- Cline
# `cline auth` stores an openai-compatible provider pointing at the mock (no Cline account);
# the task runs non-interactively as `cline "PROMPT"` (act mode, auto-approve).
capture_cline() {
  local pkg nodebin cl
  pkg="$(ensure_pkg cline "$CLINE_VERSION")" || return 1
  nodebin="$(node_path "$NODE22")" || return 1
  cl="$pkg/node_modules/cline/bin/cline"
  new_sandbox
  place_library "$H/.cline/skills" "$P/.cline/skills"
  start_mock "$T" skills
  run_client "$nodebin" 60 "$cl" auth -p openai-compatible -k dummy -m mock-model \
    -b "http://127.0.0.1:$MOCK_PORT/v1"
  run_client "$nodebin" 240 "$cl" "$PROMPT"
  stop_mock
  # Cline starts a hub daemon (`.cline --cline-hub-daemon --cwd DIR`) that can outlive the run:
  # stop the one this run started (its --cwd is this throwaway project).
  local pid
  for pid in $(pgrep -f -- "--cline-hub-daemon --cwd ${RUN_DIR:-$P} " || true); do kill "$pid" 2>/dev/null; done
  # The listing is the end of the skills tool's description.
  finish cline "$CLINE_VERSION" skills "Available skills: " ""
}

# ---------------------------------------------------------------- OpenClaw
# `openclaw agent --local` runs the embedded agent without a Gateway, with a custom
# openai-completions provider pointing at the mock (models.providers in ~/.openclaw/openclaw.json)
# and the project as the agent's workspace. OpenClaw has no skill tool: its listing tells the model
# to `read` the SKILL.md at <location>, so the mock's first turn is that read, and tool.json is
# the `read` tool.
capture_openclaw() {
  local pkg nodebin oc
  pkg="$(ensure_pkg openclaw "$OPENCLAW_VERSION")" || return 1
  nodebin="$(node_path "$NODE24")" || return 1
  oc="$pkg/node_modules/openclaw/openclaw.mjs"
  new_sandbox
  place_library "$H/.openclaw/skills" "$P/skills"
  local steps="[{\"tool\": \"read\", \"input\": {\"path\": \"~/.openclaw/skills/$INJECT_SKILL/SKILL.md\"}}]"
  [ "$SCENARIO" = mixed ] || steps="[]"
  start_mock "$T" read "$steps"
  # skills.entries.<name>.enabled = false is OpenClaw's switch.
  cat >"$H/.openclaw/openclaw.json" <<JSON
{
  "agents": { "defaults": { "workspace": "${RUN_DIR:-$P}", "model": { "primary": "mock/mock-model" } } },
  "models": {
    "mode": "merge",
    "providers": {
      "mock": {
        "baseUrl": "http://127.0.0.1:$MOCK_PORT/v1",
        "apiKey": "dummy",
        "api": "openai-completions",
        "models": [ { "id": "mock-model", "name": "Mock", "reasoning": false, "input": ["text"],
                      "cost": { "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0 },
                      "contextWindow": 200000, "maxTokens": 8192 } ]
      }
    }
  },
  "skills": { "entries": { "switch-off": { "enabled": false } } }
}
JSON
  run_client "$nodebin" 300 node "$oc" agent --local --agent main --message "$PROMPT"
  stop_mock
  # The catalog: its note when truncated or compact, its intro, the <available_skills> block.
  finish openclaw "$OPENCLAW_VERSION" read "The following skills provide specialized instructions" \
    "</available_skills>" "⚠️ Skills "
}

main() {
  local clients=("$@")
  [ ${#clients[@]} -eq 0 ] && clients=(qwen-code copilot cline openclaw)
  for c in "${clients[@]}"; do
    EXTRA_ENV=()
    RUN_DIR=""
    case "$c" in
      qwen-code) capture_qwen ;;
      copilot) capture_copilot ;;
      cline) capture_cline ;;
      openclaw) capture_openclaw ;;
      *) log "unknown client: $c"; return 2 ;;
    esac
  done
}

main "$@"
