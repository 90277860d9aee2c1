#!/usr/bin/env python3
"""Turn one capture run's request log into golden files (see docs/capture.md).

Called by scripts/capture-agents.sh once per client and case:

  capture-extract.py --client C --version V --case K --log requests.jsonl --out DIR \
      --base BASE --client-dir DIR --port N --steps JSON --prompt TEXT

writes into DIR: request.json, listing.txt, placement.json, tool.json, inject-<skill>.txt and
inject-<skill>.json (and delta-<n>.txt for listings a client adds later in the conversation).
With --readme it writes the client's README.md from the cases already captured.

Machine paths and run-specific values are replaced by placeholders: {HOME}, {PROJECT}, {EXTRA},
{BASE} (the throwaway folders), {BASE_SLUG} (the base as a file name), {CLIENT} (the client's
install folder), {PORT}, {DATE}, {UUID}, {HEX64}, {TIMESTAMP_MS}, ses_{SESSION_ID}, {OS_RELEASE}. Nothing else is changed: listing.txt and the
inject files hold the client's bytes exactly, placeholders aside.

One extractor class per client: a new client is one more class in EXTRACTORS.
"""

import argparse
import datetime
import json
import os
import platform
import re
import sys

UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
HEX64_RE = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
TS_MS_RE = re.compile(r"(?<!\d)1[6-9]\d{11}(?!\d)")
SESSION_RE = re.compile(r"\bses_[0-9A-Za-z]{20,}")
MAX_REQUEST_BYTES = 200_000


class Placeholders:
    def __init__(self, base, client_dir, port, when):
        pairs = []
        if client_dir:
            pairs.append((os.path.realpath(client_dir), "{CLIENT}"))
            pairs.append((client_dir, "{CLIENT}"))
        if base:
            for sub, name in (("home", "{HOME}"), ("project", "{PROJECT}"), ("extra", "{EXTRA}")):
                pairs.append((os.path.join(base, sub), name))
            pairs.append((base, "{BASE}"))
            # Claude Code names its per-project folder after the path, "/" and "." as "-".
            pairs.append((re.sub(r"[/.]", "-", base), "{BASE_SLUG}"))
        if port:
            pairs.append(("127.0.0.1:%s" % port, "127.0.0.1:{PORT}"))
            pairs.append(("localhost:%s" % port, "localhost:{PORT}"))
        d = datetime.datetime.fromtimestamp(when, datetime.timezone.utc) if when else None
        if d:
            day = str(d.day)
            for fmt in (
                d.strftime("%A, %B ") + day + d.strftime(", %Y"),  # Saturday, November 8, 2026
                d.strftime("%A, %B %d, %Y"),
                d.strftime("%a %b %d %Y"),  # Sat Nov 08 2026 (JS toDateString)
                d.strftime("%B ") + day + d.strftime(", %Y"),
                d.strftime("%Y-%m-%d"),
                d.strftime("%Y/%m/%d"),
                d.strftime("%m/%d/%Y"),
            ):
                pairs.append((fmt, "{DATE}"))
        release = platform.release()
        if release:
            pairs.append((release, "{OS_RELEASE}"))
        # Longest first, so that a path is replaced before its prefix.
        self.pairs = sorted(set(pairs), key=lambda p: -len(p[0]))

    def text(self, s):
        for old, new in self.pairs:
            if old:
                s = s.replace(old, new)
        s = UUID_RE.sub("{UUID}", s)
        s = HEX64_RE.sub("{HEX64}", s)
        s = TS_MS_RE.sub("{TIMESTAMP_MS}", s)
        s = SESSION_RE.sub("ses_{SESSION_ID}", s)
        return s

    def value(self, v):
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, dict):
            return {self.text(k): self.value(x) for k, x in v.items()}
        return v


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def sizes(s):
    return {
        "chars": len(s),
        "utf16_units": utf16_len(s),
        "utf8_bytes": len(s.encode("utf-8")),
        "lines": s.count("\n") + (1 if s and not s.endswith("\n") else 0),
    }


def write_text(path, s):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(s)


def write_json(path, v):
    write_text(path, json.dumps(v, indent=2, ensure_ascii=False) + "\n")


def safe_name(s):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s)


def strip_cache(block):
    """A content block without cache_control (it moves between requests)."""
    return {k: v for k, v in block.items() if k != "cache_control"} if isinstance(block, dict) else block


def block_text(block):
    if isinstance(block, str):
        return block
    if block.get("type") == "text":
        return block.get("text", "")
    c = block.get("content")
    if isinstance(c, str):
        return c
    if isinstance(c, list):
        return "".join(x.get("text", "") for x in c if isinstance(x, dict))
    return ""


class Extractor:
    """Per-client rules. Subclasses define the methods below."""

    client = None
    listing_markers = ()

    def is_main(self, entry):
        raise NotImplementedError

    def text_fields(self, body):
        """(location, role, text) of every text the request carries, in order."""
        raise NotImplementedError

    def find_listing(self, body):
        """(listing text, placement dict) of the first listing, or (None, {})."""
        raise NotImplementedError

    def tool(self, body):
        return None

    def injections(self, main, steps):
        """[(file stem, role summary, blocks)] of what each step's load added."""
        return []

    def deltas(self, main, first_listing):
        return []

    # Shared: locate a listing by its start marker and its possible ends.
    def locate(self, body, start_markers, end_markers, include_end=False):
        for loc, role, text in self.text_fields(body):
            for m in start_markers:
                i = text.find(m)
                if i < 0:
                    continue
                ends = []
                for e in end_markers:
                    j = text.find(e, i)
                    if j >= 0:
                        ends.append(j + (len(e) if include_end else 0))
                end = min(ends) if ends else len(text)
                listing = text[i:end]
                before = text[:i]
                after = text[end:]
                placement = {
                    "location": loc,
                    "role": role,
                    "offset_in_text": i,
                    "text_chars": len(text),
                    "before": before[-160:],
                    "after": after[:160],
                }
                return listing, placement
        return None, {}


class ClaudeCode(Extractor):
    client = "claude-code"
    START = "The following skills are "
    # What follows the listing in the system message, by release (as captured): the date
    # (2.1.332), the token count (2.1.270), auto mode's note (2.1.290, 2.1.300), or the end of
    # the user message's reminder (older models). An entry can hold line breaks (before
    # 2.1.300), so a blank line alone does not end the listing.
    ENDS = (
        "\n\nToday's date is",
        "\n</system-reminder>",
        "\n\n<total_tokens>",
        "\n\nWhile auto mode is active:",
    )

    def is_main(self, e):
        b = e.get("body")
        if not isinstance(b, dict) or not e["path"].startswith("/v1/messages"):
            return False
        if e["path"].endswith("count_tokens"):
            return False
        return any(t.get("name") == "Skill" for t in b.get("tools") or [])

    def text_fields(self, body):
        out = []
        sysp = body.get("system")
        if isinstance(sysp, str):
            out.append(("system", "system (top-level field)", sysp))
        elif isinstance(sysp, list):
            for i, s in enumerate(sysp):
                out.append(("system[%d].text" % i, "system (top-level field)", s.get("text", "")))
        for i, m in enumerate(body.get("messages") or []):
            c = m.get("content")
            if isinstance(c, str):
                out.append(("messages[%d].content" % i, m["role"], c))
                continue
            for j, x in enumerate(c or []):
                t = block_text(x)
                if t:
                    out.append(("messages[%d].content[%d]" % (i, j), m["role"], t))
        return out

    def find_listing(self, body):
        listing, p = self.locate(body, [self.START], self.ENDS)
        if listing is None:
            return None, {}
        p["wrapper"] = (
            "<system-reminder>\\n ... \\n</system-reminder> (a text block of the first user message)"
            if p["before"].endswith("<system-reminder>\n")
            else "none: a paragraph of a role-system message, other paragraphs joined with \\n\\n"
        )
        lines = listing.split("\n")
        p["entries"] = sum(1 for ln in lines if ln.startswith("- "))
        p["name_only_entries"] = [
            ln[2:] for ln in lines if ln.startswith("- ") and ": " not in ln
        ]
        p["shortened_note"] = "This list is shortened to save room" in listing
        return listing, p

    def tool(self, body):
        for t in body.get("tools") or []:
            if t.get("name") == "Skill":
                return t
        return None

    def _turns(self, body):
        """Assistant tool_use blocks in order, each with the messages that follow it until the
        next assistant message (what the client added for that call)."""
        msgs = body.get("messages") or []
        turns = []
        for i, m in enumerate(msgs):
            if m["role"] != "assistant" or not isinstance(m.get("content"), list):
                continue
            uses = [x for x in m["content"] if x.get("type") == "tool_use"]
            if not uses:
                continue
            added = []
            for n in msgs[i + 1 :]:
                if n["role"] == "assistant":
                    break
                c = n.get("content")
                blocks = [{"type": "text", "text": c}] if isinstance(c, str) else c
                for x in blocks:
                    x = strip_cache(x)
                    entry = {"role": n["role"], "type": x.get("type"), "text": block_text(x)}
                    if x.get("is_error"):
                        entry["is_error"] = True
                    added.append(entry)
            turns.append((uses[0], added))
        return turns

    def injections(self, main, steps):
        if not main:
            return []
        out = []
        turns = self._turns(main[-1]["body"])
        for k, step in enumerate(steps):
            if k >= len(turns):
                break
            use, added = turns[k]
            if "skill" in step:
                stem = "inject-" + safe_name(step["skill"])
            else:
                stem = "after-%s-%d" % (safe_name(step.get("tool", "tool")), k + 1)
            out.append((stem, use, added))
        return out

    def deltas(self, main, first_listing):
        """Listings added later in the conversation (e.g. a paths: skill after a matching read):
        every other occurrence of the listing's opening words, up to the same ends."""
        out = []
        seen = set()
        first_loc = None
        for e in main:
            for loc, role, text in self.text_fields(e["body"]):
                i = text.find(self.START)
                while i >= 0:
                    ends = [j for j in (text.find(x, i) for x in self.ENDS) if j >= 0]
                    piece = text[i:min(ends) if ends else len(text)]
                    if first_loc is None:
                        first_loc = (loc, i)
                        seen.add(piece)
                    elif piece not in seen:
                        seen.add(piece)
                        out.append({"first_request_seq": e["seq"], "location": loc, "role": role,
                                    "offset_in_text": i, "text": piece})
                    i = text.find(self.START, i + 1)
        return out


class Codex(Extractor):
    client = "codex"

    def is_main(self, e):
        b = e.get("body")
        return isinstance(b, dict) and "responses" in e["path"] and isinstance(b.get("input"), list)

    def text_fields(self, body):
        out = []
        if body.get("instructions"):
            out.append(("instructions", "instructions (top-level field)", body["instructions"]))
        for i, it in enumerate(body.get("input") or []):
            for j, c in enumerate(it.get("content") or []):
                if isinstance(c, dict) and "text" in c:
                    out.append(("input[%d].content[%d].text" % (i, j), it.get("role"), c["text"]))
        return out

    def find_listing(self, body):
        listing, p = self.locate(body, ["<skills_instructions>"], ["</skills_instructions>"], True)
        if listing is None:
            return None, {}
        p["wrapper"] = "<skills_instructions>\\n ... \\n</skills_instructions>, one input_text part"
        lines = listing.split("\n")
        p["entries"] = sum(1 for ln in lines if ln.startswith("- ") and "(file: " in ln)
        p["root_lines"] = sum(1 for ln in lines if re.match(r"- `r\d+` = ", ln))
        # The other parts of the same message.
        m = re.match(r"input\[(\d+)\]", p["location"])
        if m:
            item = body["input"][int(m.group(1))]
            p["message_parts"] = [c.get("text", "")[:80] for c in item.get("content") or []]
        return listing, p

    def injections(self, main, steps):
        if not main:
            return []
        out = []
        for loc, role, text in self.text_fields(main[0]["body"]):
            m = re.match(r"<skill>\n<name>([^<]*)</name>", text)
            if m:
                out.append(("inject-" + safe_name(m.group(1)), {"location": loc}, [
                    {"role": role, "type": "input_text", "text": text}
                ]))
        return out


class GeminiCli(Extractor):
    client = "gemini-cli"

    def is_main(self, e):
        b = e.get("body")
        if not isinstance(b, dict) or "GenerateContent" not in e["path"] and "generateContent" not in e["path"]:
            return False
        si = b.get("systemInstruction") or {}
        text = "".join(p.get("text", "") for p in si.get("parts") or [])
        tools = [f.get("name") for t in b.get("tools") or [] for f in t.get("functionDeclarations") or []]
        return "activate_skill" in tools or "# Available Agent Skills" in text or len(tools) > 3

    def text_fields(self, body):
        out = []
        si = body.get("systemInstruction") or {}
        for i, p in enumerate(si.get("parts") or []):
            if "text" in p:
                out.append(("systemInstruction.parts[%d].text" % i, "systemInstruction", p["text"]))
        for i, c in enumerate(body.get("contents") or []):
            for j, p in enumerate(c.get("parts") or []):
                if "text" in p:
                    out.append(("contents[%d].parts[%d].text" % (i, j), c.get("role"), p["text"]))
        return out

    def find_listing(self, body):
        listing, p = self.locate(body, ["# Available Agent Skills"], ["</available_skills>"], True)
        if listing is None:
            return None, {}
        p["wrapper"] = "a '# Available Agent Skills' section of the system instruction"
        p["entries"] = listing.count("<skill>")
        return listing, p

    def tool(self, body):
        for t in body.get("tools") or []:
            for f in t.get("functionDeclarations") or []:
                if f.get("name") == "activate_skill":
                    return f
        return None

    def injections(self, main, steps):
        if not main:
            return []
        contents = main[-1]["body"].get("contents") or []
        calls = []
        for i, c in enumerate(contents):
            for p in c.get("parts") or []:
                if "functionCall" in p and p["functionCall"].get("name") == "activate_skill":
                    calls.append((i, p["functionCall"]))
        out = []
        for i, call in calls:
            added = []
            for c in contents[i + 1 :]:
                if c.get("role") == "model":
                    break
                for p in c.get("parts") or []:
                    if "functionResponse" in p:
                        resp = p["functionResponse"].get("response") or {}
                        text = resp.get("output") if isinstance(resp.get("output"), str) else json.dumps(resp)
                        added.append({"role": c.get("role"), "type": "functionResponse", "text": text})
                    elif "text" in p:
                        added.append({"role": c.get("role"), "type": "text", "text": p["text"]})
            name = (call.get("args") or {}).get("name", "unknown")
            out.append(("inject-" + safe_name(name), call, added))
        return out


class Opencode(Extractor):
    client = "opencode"

    def is_main(self, e):
        b = e.get("body")
        if not isinstance(b, dict) or not e["path"].startswith("/v1/messages"):
            return False
        return any(t.get("name") == "skill" for t in b.get("tools") or [])

    text_fields = ClaudeCode.text_fields

    def find_listing(self, body):
        listing, p = self.locate(
            body,
            ["Skills provide specialized instructions"],
            ["</available_skills>", "No skills are currently available."],
            True,
        )
        if listing is None:
            return None, {}
        p["wrapper"] = "lines of the system prompt's first text block, after the <env> block"
        p["entries"] = listing.count("<skill>")
        return listing, p

    def tool(self, body):
        for t in body.get("tools") or []:
            if t.get("name") == "skill":
                return t
        return None

    def injections(self, main, steps):
        if not main:
            return []
        out = []
        for use, added in ClaudeCode._turns(self, main[-1]["body"]):
            if use.get("name") != "skill":
                continue
            name = (use.get("input") or {}).get("name", "unknown")
            out.append(("inject-" + safe_name(name), use, added))
        return out


EXTRACTORS = {x.client: x for x in (ClaudeCode(), Codex(), GeminiCli(), Opencode())}


def shrink(body, keep):
    """Replace long texts that hold none of the keep strings, until the body is small enough."""

    def walk(v):
        if isinstance(v, str):
            if len(v) > 2000 and not any(k in v for k in keep):
                return "[stripped by the capture: %d characters]" % len(v)
            return v
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        return v

    return walk(body)


def extract(args):
    ex = EXTRACTORS[args.client]
    entries = []
    with open(args.log, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                entries.append(json.loads(line))
    steps = json.loads(args.steps or "[]")
    when = entries[0]["time"] if entries else None
    ph = Placeholders(args.base, args.client_dir, args.port, when)
    raw_main = [e for e in entries if ex.is_main(e)]
    raw_listing = ex.find_listing(raw_main[0]["body"])[0] if raw_main else None
    # From here on everything is in placeholder form.
    entries = [dict(e, body=ph.value(e["body"]), headers=ph.value(e["headers"])) for e in entries]
    main = [e for e in entries if ex.is_main(e)]
    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):
        if old.startswith(("inject-", "delta-", "after-")) or old in (
            "request.json", "listing.txt", "placement.json", "tool.json"):
            os.remove(os.path.join(args.out, old))
    placement = {
        "client": args.client,
        "version": args.version,
        "case": args.case,
        "prompt": ph.text(args.prompt or ""),
        "scripted_steps": ph.value(steps),
        "requests_recorded": [
            {
                "seq": e["seq"],
                "method": e["method"],
                "path": e["path"],
                "model": (e["body"] or {}).get("model") if isinstance(e["body"], dict) else None,
                "main": ex.is_main(e),
            }
            for e in entries
        ],
    }
    if not main:
        placement["error"] = "no model request carrying the skills was recorded"
        write_json(os.path.join(args.out, "placement.json"), placement)
        print("capture-extract: %s/%s: no main request" % (args.client, args.case), file=sys.stderr)
        return 1
    first = main[0]
    body = first["body"]
    listing, where = ex.find_listing(body)
    placement["model"] = body.get("model") or first["path"].split("/models/")[-1].split(":")[0]
    placement["first_main_request_seq"] = first["seq"]
    if listing is not None:
        listing = ph.text(listing)
        write_text(os.path.join(args.out, "listing.txt"), listing)
        where = ph.value(where)
        where["sizes"] = sizes(listing)
        if raw_listing is not None:
            where["sizes_with_real_paths"] = sizes(raw_listing)
        where["placeholder_lengths"] = {
            "{HOME}": len(os.path.join(args.base, "home")) if args.base else None,
            "{PROJECT}": len(os.path.join(args.base, "project")) if args.base else None,
            "{CLIENT}": len(args.client_dir) if args.client_dir else None,
        }
        where["in_every_main_request"] = all(
            any(listing == ph.text(t)[where["offset_in_text"]:where["offset_in_text"] + len(listing)]
                or listing in ph.text(t) for _, _, t in ex.text_fields(e["body"]))
            for e in main
        )
        placement["listing"] = where
    else:
        placement["listing"] = None
    tool = ex.tool(body)
    if tool is not None:
        tool = ph.value(tool)
        write_json(os.path.join(args.out, "tool.json"), tool)
        placement["tool"] = {
            "name": tool.get("name"),
            "json_chars": len(json.dumps(tool, ensure_ascii=False, separators=(",", ":"))),
            "description_chars": len(tool.get("description", "")),
        }
    else:
        placement["tool"] = None
    injected = []
    for stem, call, blocks in ex.injections(main, steps):
        blocks = ph.value(blocks)
        write_json(os.path.join(args.out, stem + ".json"), {"call": ph.value(call), "added": blocks})
        text = "\n\n".join(b["text"] for b in blocks)
        write_text(os.path.join(args.out, stem + ".txt"), text)
        injected.append({
            "file": stem + ".txt",
            "blocks": [{"role": b["role"], "type": b["type"], "chars": len(b["text"])} for b in blocks],
        })
    placement["injections"] = injected
    deltas = []
    for n, d in enumerate(ex.deltas(main, listing and listing.replace("{HOME}", "")), 1):
        d = ph.value(d)
        write_text(os.path.join(args.out, "delta-%d.txt" % n), d.pop("text"))
        d["file"] = "delta-%d.txt" % n
        deltas.append(d)
    if deltas:
        placement["deltas"] = deltas
    request = {
        "method": first["method"],
        "path": first["path"],
        "query": first["query"],
        "headers": first["headers"],
        "body": body,
    }
    request = ph.value(request)
    # Maps the client fills from a hash map have no stable key order: sort them.
    if isinstance(request["body"], dict) and isinstance(request["body"].get("client_metadata"), dict):
        request["body"]["client_metadata"] = dict(sorted(request["body"]["client_metadata"].items()))
    request["headers"] = dict(sorted(request["headers"].items()))
    request["headers"].pop("content-length", None)
    request["headers"].pop("host", None)
    text = json.dumps(request, indent=2, ensure_ascii=False)
    if len(text.encode("utf-8")) > MAX_REQUEST_BYTES:
        keep = [x for x in ("skill", "Skill", "SKILL") if x]
        request["body"] = shrink(request["body"], keep)
        placement["request_json_stripped"] = True
    write_json(os.path.join(args.out, "request.json"), request)
    write_json(os.path.join(args.out, "placement.json"), placement)
    print(
        "capture-extract: %s/%s: %d main requests, listing %s chars, %d injections"
        % (args.client, args.case, len(main), len(listing) if listing else "no", len(injected)),
        file=sys.stderr,
    )
    return 0


README_HEAD = {
    "claude-code": """# Claude Code {version} (npm `@anthropic-ai/claude-code@{version}`)

Captured by `scripts/capture-agents.sh claude-code` (docs/capture.md): `claude -p hello
--allowedTools Skill Read` (plus `--model claude-sonnet-4-5` in the `*-sonnet45` cases and
`--add-dir {{EXTRA}}` in the `mixed*` cases) against the mock, in a throwaway home and project.
The user skills are in `~/.claude/skills`, the project skills in `.claude/skills`, the overlays
(settings with `skillOverrides`, commands, a directory-scoped skill, the `--add-dir` folder) as in
`tests/fixtures/agents/library/*/overlay/claude-code`.

How each file was extracted (scripts/capture-extract.py, class ClaudeCode):

- `request.json`: the first `/v1/messages` request that declares the `Skill` tool (method, path,
  headers without secrets, body), placeholders as in docs/capture.md.
- `listing.txt`: from `The following skills are ` up to (not including) `\\n\\nToday's date is` or
  `\\n</system-reminder>`, whichever comes first, in the text block holding it.
- `placement.json`: where that text block is (`location`, `role`), the 160 characters around the
  listing, its sizes (`chars` = code points, `utf16_units` = JavaScript `length`), its entries and
  the requests recorded.
- `tool.json`: the `Skill` tool's definition as sent.
- `inject-<skill>.txt` / `.json`: everything the client added after the mock's `Skill` call
  until the model's next turn, taken from the last request: the `.json` has each block (role,
  type, text, `is_error`; `cache_control` dropped, it moves between requests), the `.txt` the
  blocks' texts joined by one blank line (`\\n\\n`).
- `after-Read-1.*`: the same for the mock's first step, a `Read` of `{{PROJECT}}/src/lib.rs`
  (which matches the `paths:` skill).
- `delta-<n>.txt`: a later text block that starts a new skill listing (the conditional skill's).
""",
    "codex": """# Codex {version} (npm `@openai/codex@{version}`, native binary `codex-linux-x64`)

Captured by `scripts/capture-agents.sh codex` (docs/capture.md): `codex exec
--skip-git-repo-check PROMPT` with a custom `model_provider` (`wire_api = "responses"`) pointing
at the mock, in a throwaway home (`CODEX_HOME={{HOME}}/.codex`) and project. The user skills are in
`~/.agents/skills`, the project skills in `.agents/skills`, the overlays (the `[[skills.config]]`
entries, a skill in `~/.codex/skills`, one in the project's `.codex/skills`) as in
`tests/fixtures/agents/library/*/overlay/codex`. No model is named, so the request shows Codex's
default model, except in a `*-configured` case (`model = "gpt-5.1-codex"` in its `config.toml`) and
a `*-gpt54` or `*-gpt55` case (`codex exec -m gpt-5.4`, `-m gpt-5.5`: models whose catalogue entry
sets `include_skills_usage_instructions`, so the listing ends with "How to use skills").

How each file was extracted (scripts/capture-extract.py, class Codex):

- `request.json`: the first `/v1/responses` request.
- `listing.txt`: the whole `input_text` part from `<skills_instructions>` to
  `</skills_instructions>` inclusive (it is a part of its own in a developer message).
- `placement.json`: where that part is (`input[i].content[j]`, role), the first 80 characters of
  every part of the same message, sizes, entries and root lines.
- `tool.json`: none — Codex has no skill tool; the model reads the SKILL.md itself.
- `inject-<skill>.txt`: in the `mixed` case the prompt names skills as `$name`; each
  `<skill>\\n<name>…` text part Codex adds to the first request (a user message of its own) is
  one file, exactly. Skills it did not inject have no file.
""",
    "gemini-cli": """# Gemini CLI {version} (npm `@google/gemini-cli@{version}`)

Captured by `scripts/capture-agents.sh gemini-cli` (docs/capture.md): `gemini -p hello
--approval-mode yolo` (`mixed`, `budget150`) and `gemini -p hello` (`mixed-plain`), with
`GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL` (the mock) and `GEMINI_CLI_TRUST_WORKSPACE=true`, in a
throwaway home and project. The user skills are in `~/.gemini/skills`, the project skills in
`.gemini/skills`, the overlays (`skills.disabled` in settings, the `.agents/skills` alias folders)
as in `tests/fixtures/agents/library/*/overlay/gemini-cli`.

How each file was extracted (scripts/capture-extract.py, class GeminiCli):

- `request.json`: the first `generateContent`/`streamGenerateContent` request of the main chat
  (the one whose system instruction holds the skills or which declares the tools; the router's
  classifier request before it is listed in `placement.json` only).
- `listing.txt`: from `# Available Agent Skills` to `</available_skills>` inclusive, in the
  system instruction's text.
- `tool.json`: the `activate_skill` function declaration (absent when the run declares no such
  tool).
- `inject-<skill>.txt`: the `functionResponse.response.output` text answering the mock's
  `activate_skill` call, from the last request; `.json` has the role and the call.
- `budget150/listing.other-run.txt`: the listing of another run of the same case, kept by hand:
  the order within a folder is the glob's and varies between runs (FINDINGS.md).
""",
    "opencode": """# opencode {version} (npm `opencode-ai@{version}`, native binary)

Captured by `scripts/capture-agents.sh opencode` (docs/capture.md): `opencode run hello` with an
`anthropic` provider whose `baseURL` is the mock (model `anthropic/claude-sonnet-4-5`), in a
throwaway home and project, with ripgrep on PATH. The user skills are in
`~/.config/opencode/skills`, the project skills in `.opencode/skills`, the overlays
(`permission.skill`, the `.claude/skills`, `.agents/skills` and `~/.opencode/skills` folders) as in
`tests/fixtures/agents/library/*/overlay/opencode`.

How each file was extracted (scripts/capture-extract.py, class Opencode):

- `request.json`: the first `/v1/messages` request that declares the `skill` tool (the title
  request to the small model before it is listed in `placement.json` only).
- `listing.txt`: from `Skills provide specialized instructions` to `</available_skills>`
  inclusive, in the system text block holding it.
- `tool.json`: the `skill` tool's definition.
- `inject-<skill>.txt`: the `tool_result` answering the mock's `skill` call, from the last
  request; `.json` has each block with its role (`cache_control` dropped).
""",
}


def readme(args):
    head = README_HEAD[args.client].format(version=args.version)
    rows = []
    for case in sorted(os.listdir(args.out)):
        p = os.path.join(args.out, case, "placement.json")
        if not os.path.exists(p):
            continue
        pl = json.load(open(p, encoding="utf-8"))
        li = pl.get("listing") or {}
        sz = li.get("sizes") or {}
        tool = pl.get("tool") or {}
        rows.append(
            "| `%s` | %s | %s | %s | %s | %s | %s |"
            % (
                case,
                pl.get("model"),
                li.get("entries", "—"),
                sz.get("chars", "—"),
                sz.get("utf8_bytes", "—"),
                li.get("role", "—"),
                tool.get("json_chars", "—"),
            )
        )
    table = (
        "\n## Cases\n\n| case | model | entries | listing chars | listing UTF-8 bytes | role | "
        "tool JSON chars |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    write_text(os.path.join(args.out, "README.md"), head + table)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", required=True, choices=sorted(EXTRACTORS))
    ap.add_argument("--version", required=True)
    ap.add_argument("--case")
    ap.add_argument("--log")
    ap.add_argument("--out", required=True)
    ap.add_argument("--base")
    ap.add_argument("--client-dir")
    ap.add_argument("--port")
    ap.add_argument("--steps", default="[]")
    ap.add_argument("--prompt", default="")
    ap.add_argument("--readme", action="store_true")
    args = ap.parse_args()
    if args.readme:
        return readme(args)
    return extract(args)


if __name__ == "__main__":
    sys.exit(main())
