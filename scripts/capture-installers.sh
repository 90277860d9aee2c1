#!/usr/bin/env bash
# Layouts made by the installers people already use, kept as test fixtures:
#
#   scripts/capture-installers.sh [skills-cli] [clawhub]     (default: both)
#
# `skills` (npm `skills`, Node 22 from the npm registry's `node` package) installs from a local
# source: a small git repository with three skills made here in a temp dir (fixed dates).
# `clawhub` installs only from a registry; it runs against scripts/mock_clawhub.py on 127.0.0.1,
# which serves the same three skills. Every other address goes to a dead loopback proxy, and
# telemetry is off. Each run happens in a throwaway HOME and project (a git repository).
#
# Written to tests/fixtures/installers/<tool>@<version>/<case>/:
#   layout.txt       one line per path below the root (the project, or HOME for -g cases):
#                    `dir PATH`, `file PATH`, `file+x PATH` (executable), `link PATH -> TARGET`
#                    (the link's target exactly as created), sorted by path
#   files/           every regular file below the root, byte for byte, except that the lock
#                    and record files have their paths replaced ({HOME}, {PROJECT}, {SOURCE})
#                    and their clock values fixed ("{DATETIME}" for ISO strings, 0 for ms numbers)
#   commands.txt     the commands run, in order, and what they printed (paths replaced)
#   registry.jsonl   (clawhub) the requests the mock registry answered
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${SKILLSCOPE_CAPTURE_CACHE:-$HOME/.cache/skillscope-capture}"
OUT="$ROOT/tests/fixtures/installers"
DEAD="http://127.0.0.1:9"
SKILLS_VERSION=1.7.4
CLAWHUB_VERSION=0.23.3
NODE22=22.23.3

log() { printf '%s\n' "$*" >&2; }

ensure_pkg() { # ensure_pkg NAME VERSION -> prints the install folder
  local name="$1" version="$2" dir
  dir="$CACHE/$(printf '%s' "$name" | tr / _)@$version"
  if [ ! -e "$dir/node_modules/$name/package.json" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$name@$version" >"$dir.log" 2>&1) ||
      { log "npm install $name@$version failed (see $dir.log)"; return 1; }
  fi
  printf '%s\n' "$dir"
}

# make_source DIR: the source repository, three skills (one with resources and an executable,
# one whose folder name differs from its name, one with a metadata.json that the installer's
# copies leave out).
make_source() {
  local s="$1"
  mkdir -p "$s/skills/pdf-tools/scripts" "$s/skills/pdf-tools/references" "$s/skills/git-commit" \
    "$s/skills/web-search"
  cat >"$s/skills/pdf-tools/SKILL.md" <<'EOF'
---
name: pdf-tools
description: Extract text and tables from PDF files, fill PDF forms, and merge documents. Use when the user mentions a PDF, a form, or a scanned document.
license: MIT
---

# PDF tools

1. Run `scripts/extract.sh FILE.pdf` to get the text.
2. For forms, read [references/forms.md](references/forms.md) first.
EOF
  cat >"$s/skills/pdf-tools/scripts/extract.sh" <<'EOF'
#!/bin/sh
# Prints the text of a PDF (needs pdftotext).
exec pdftotext -layout "$1" -
EOF
  chmod 755 "$s/skills/pdf-tools/scripts/extract.sh"
  printf '# Forms\n\nList the fields first, then fill them one by one.\n' >"$s/skills/pdf-tools/references/forms.md"
  printf '# pdf-tools\n\nA skill for PDF files.\n' >"$s/skills/pdf-tools/README.md"
  cat >"$s/skills/git-commit/SKILL.md" <<'EOF'
---
name: commit-helper
description: "Write a conventional commit message from the staged diff: type(scope): summary. Use when the user asks to commit."
---

# Commit helper

Read `git diff --staged`, then write `type(scope): summary` and a body that says why.
EOF
  cat >"$s/skills/web-search/SKILL.md" <<'EOF'
---
name: web-search
description: Search the web & summarize <results> with sources. Use for questions about recent events.
metadata:
  author: example
  version: "1.2"
---

# Web search

Search, open the three best results, and cite each one.
EOF
  printf '{"kind":"example","note":"the installer leaves this file out of its copies"}\n' \
    >"$s/skills/web-search/metadata.json"
  printf '# skills\n\nThree example skills.\n' >"$s/README.md"
  chmod 644 "$s/README.md" "$s"/skills/*/SKILL.md "$s/skills/pdf-tools/README.md" \
    "$s/skills/pdf-tools/references/forms.md" "$s/skills/web-search/metadata.json"
  (cd "$s" && git init -q -b main . && git add -A &&
    GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z \
      git -c user.name=source -c user.email=source@example.invalid commit -q -m "three skills")
}

new_sandbox() { # sets T, H (HOME), P (project), S (source)
  T="$(mktemp -d /tmp/skillscope-installers.XXXXXX)"
  H="$T/home"
  P="$T/project"
  S="$T/source"
  mkdir -p "$H" "$P"
  (cd "$P" && git init -q . && git -c user.name=capture -c user.email=capture@example.invalid \
    commit -q --allow-empty -m init)
  make_source "$S"
}

run() { # run NODEBIN ARGV... in $P, appended to $T/commands.txt
  local nodebin="$1"
  shift
  {
    printf '$'
    printf ' %q' "$@"
    printf '\n'
  } >>"$T/commands.txt"
  (cd "$P" && timeout 300 env -i "PATH=$nodebin:/usr/local/bin:/usr/bin:/bin" "HOME=$H" TERM=dumb \
    NO_COLOR=1 LANG=C.UTF-8 CI=1 "HTTP_PROXY=$DEAD" "HTTPS_PROXY=$DEAD" "http_proxy=$DEAD" \
    "https_proxy=$DEAD" NO_PROXY=127.0.0.1 no_proxy=127.0.0.1 DISABLE_TELEMETRY=1 DO_NOT_TRACK=1 \
    CLAWHUB_DISABLE_TELEMETRY=1 "${EXTRA_ENV[@]}" "$@" </dev/null >>"$T/commands.txt" 2>&1)
  echo "exit status: $?" >>"$T/commands.txt"
}

# snapshot ROOT_DIR OUT_DIR: layout.txt and files/ (paths and clock values normalized in
# JSON lock/record files only).
snapshot() {
  python3 - "$1" "$2" "$T" <<'PY'
import json, os, re, shutil, stat, sys
root, out, tmp = sys.argv[1:4]
home, project, source = (os.path.join(tmp, x) for x in ("home", "project", "source"))
if os.path.exists(out):
    shutil.rmtree(out)
os.makedirs(os.path.join(out, "files"))

def ph(s):
    for real, p in ((source, "{SOURCE}"), (project, "{PROJECT}"), (home, "{HOME}"), (tmp, "{TMP}")):
        s = s.replace(real, p)
    return re.sub(r"http://127\.0\.0\.1:\d+", "{REGISTRY}", s)

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
def fix(v, key=None):
    if isinstance(v, dict):
        return {k: fix(x, k) for k, x in v.items()}
    if isinstance(v, list):
        return [fix(x) for x in v]
    if isinstance(v, str):
        return "{DATETIME}" if ISO.match(v) else ph(v)
    if isinstance(v, (int, float)) and not isinstance(v, bool) and key in ("installedAt", "updatedAt"):
        return 0
    return v

RECORDS = {"skills-lock.json", ".skill-lock.json", "lock.json", "origin.json", "config.json"}
lines = []
for dirpath, dirs, names in os.walk(root):
    dirs.sort()
    if os.path.relpath(dirpath, root) == ".":
        dirs[:] = [d for d in dirs if d != ".git"]
    for name in sorted(dirs + names):
        p = os.path.join(dirpath, name)
        rel = os.path.relpath(p, root)
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            lines.append("link %s -> %s" % (rel, os.readlink(p)))
            if name in dirs:
                dirs.remove(name)  # never walk through a link
        elif stat.S_ISDIR(st.st_mode):
            lines.append("dir %s" % rel)
        elif stat.S_ISREG(st.st_mode):
            lines.append(("file+x %s" if st.st_mode & 0o111 else "file %s") % rel)
            dst = os.path.join(out, "files", rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            data = open(p, "rb").read()
            if name in RECORDS:
                text = data.decode("utf-8")
                try:
                    obj = json.loads(text)
                    trail = text[len(text.rstrip("\n")):]
                    indent = 2 if "\n  " in text else None
                    text = json.dumps(fix(obj), indent=indent, ensure_ascii=False) + trail
                except ValueError:
                    text = ph(text)
                data = text.encode("utf-8")
            open(dst, "wb").write(data)
            if st.st_mode & 0o111:
                os.chmod(dst, 0o755)
lines.sort(key=lambda l: l.split(" ", 1)[1])
open(os.path.join(out, "layout.txt"), "w").write("\n".join(lines) + "\n")
PY
}

finish_case() { # finish_case OUT_DIR: commands.txt (placeholders), then reset the log
  python3 - "$T/commands.txt" "$1/commands.txt" "$T" "$CACHE" <<'PY'
import os, re, sys
src, dst, tmp, cache = sys.argv[1:5]
s = open(src, encoding="utf-8", errors="replace").read()
for real, p in ((os.path.join(tmp, "source"), "{SOURCE}"), (os.path.join(tmp, "project"), "{PROJECT}"),
                (os.path.join(tmp, "home"), "{HOME}"), (tmp, "{TMP}"), (cache, "{CACHE}")):
    s = s.replace(real, p)
s = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", s)
open(dst, "w", encoding="utf-8").write(s)
PY
  : >"$T/commands.txt"
}

# ---------------------------------------------------------------- skills (vercel-labs)
capture_skills_cli() {
  local pkg nodebin cli out
  pkg="$(ensure_pkg skills "$SKILLS_VERSION")" || return 1
  nodebin="$(ensure_pkg node "$NODE22")/node_modules/node/bin" || return 1
  cli="$pkg/node_modules/skills/bin/cli.mjs"
  out="$OUT/skills-cli@$SKILLS_VERSION"
  EXTRA_ENV=()

  # project-local: the issue's command, from a local folder, two agents.
  new_sandbox
  run "$nodebin" node "$cli" add ../source --agent claude-code codex -y
  snapshot "$P" "$out/project-local"
  finish_case "$out/project-local"
  # ... then `skills remove` of one skill: the links, the copy and its lock entry go.
  run "$nodebin" node "$cli" remove commit-helper -y
  snapshot "$P" "$out/project-local-remove"
  finish_case "$out/project-local-remove"
  rm -rf "$T"

  # project-copy: --copy makes one independent copy per agent folder.
  new_sandbox
  run "$nodebin" node "$cli" add ../source --agent claude-code codex --copy -y
  snapshot "$P" "$out/project-copy"
  finish_case "$out/project-copy"
  rm -rf "$T"

  # project-git-new-agents: a git URL (sourceType git) and the agents skillscope adds.
  new_sandbox
  run "$nodebin" node "$cli" add "file://$S" --agent claude-code codex openclaw github-copilot cline \
    qwen-code -y
  snapshot "$P" "$out/project-git-new-agents"
  finish_case "$out/project-git-new-agents"
  rm -rf "$T"

  # global: -g, the same agents; the layout and ~/.agents/.skill-lock.json are in HOME.
  new_sandbox
  run "$nodebin" node "$cli" add "$S" -g --agent claude-code codex openclaw github-copilot cline \
    qwen-code -y
  snapshot "$H" "$out/global"
  finish_case "$out/global"
  rm -rf "$T"

  # The source tree itself, for the hash worked example (tests recompute computedHash from it).
  new_sandbox
  snapshot "$S" "$out/source"
  rm -f "$out/source/commands.txt"
  rm -rf "$T"
}

# ---------------------------------------------------------------- clawhub
capture_clawhub() {
  local pkg nodebin cli out reg pid port
  pkg="$(ensure_pkg clawhub "$CLAWHUB_VERSION")" || return 1
  nodebin="$(ensure_pkg node "$NODE22")/node_modules/node/bin" || return 1
  cli="$pkg/node_modules/clawhub/bin/clawdhub.js"
  out="$OUT/clawhub@$CLAWHUB_VERSION"
  new_sandbox
  reg="$T/registry"
  for d in pdf-tools git-commit web-search; do
    local slug="$d"
    [ "$d" = git-commit ] && slug=commit-helper
    mkdir -p "$reg/$slug/1.0.0"
    (cd "$S/skills/$d" && tar cf - --exclude=metadata.json .) | (cd "$reg/$slug/1.0.0" && tar xf -)
  done
  python3 "$ROOT/scripts/mock_clawhub.py" --skills "$reg" --port-file "$T/port" \
    --log "$T/registry.jsonl" >"$T/mock.out" 2>&1 &
  pid=$!
  for _ in $(seq 50); do [ -s "$T/port" ] && break; sleep 0.1; done
  port="$(cat "$T/port")"
  EXTRA_ENV=("CLAWHUB_REGISTRY=http://127.0.0.1:$port" "CLAWHUB_SITE=http://127.0.0.1:$port")

  # install: three skills, one by owner (@example/web-search, a folder of its own), then a pin.
  run "$nodebin" node "$cli" --no-input install pdf-tools
  run "$nodebin" node "$cli" --no-input install commit-helper
  run "$nodebin" node "$cli" --no-input install @example/web-search
  run "$nodebin" node "$cli" --no-input pin pdf-tools --reason "reviewed 1.0.0"
  run "$nodebin" node "$cli" --no-input list
  snapshot "$P" "$out/install-pin"
  snapshot "$H" "$out/install-pin/home"
  mv "$out/install-pin/home/layout.txt" "$out/install-pin/home-layout.txt"
  mv "$out/install-pin/home/files" "$out/install-pin/home-files"
  rmdir "$out/install-pin/home"
  finish_case "$out/install-pin"

  # update: 1.1.0 of pdf-tools and commit-helper appear; `update --all` leaves the pinned one.
  for slug in pdf-tools commit-helper; do
    cp -R "$reg/$slug/1.0.0" "$reg/$slug/1.1.0"
    printf '\nChanged in 1.1.0.\n' >>"$reg/$slug/1.1.0/SKILL.md"
  done
  run "$nodebin" node "$cli" --no-input update --all
  run "$nodebin" node "$cli" --no-input list
  snapshot "$P" "$out/update-all"
  finish_case "$out/update-all"
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  sed -e "s#$T#{TMP}#g" "$T/registry.jsonl" >"$out/registry.jsonl"
  sed -i -e "s#http://127.0.0.1:$port#{REGISTRY}#g" "$out"/*/commands.txt
  rm -rf "$T"
}

main() {
  local tools=("$@")
  [ ${#tools[@]} -eq 0 ] && tools=(skills-cli clawhub)
  for t in "${tools[@]}"; do
    case "$t" in
      skills-cli) capture_skills_cli ;;
      clawhub) capture_clawhub ;;
      *) log "unknown installer: $t"; return 2 ;;
    esac
  done
}

main "$@"
