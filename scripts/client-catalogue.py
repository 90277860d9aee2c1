#!/usr/bin/env python3
"""Read a client release's model catalogue from the client itself and print it as the Rust
source of its era's catalogue (src/core/agents/claude/models.rs, src/core/agents/codex/models.rs).

Usage:
  scripts/client-catalogue.py claude-code VERSION [INSTALL]   (INSTALL: an npm prefix holding it)
  scripts/client-catalogue.py codex VERSION [INSTALL]
  scripts/client-catalogue.py --json CLIENT VERSION [INSTALL] (what was read, as JSON)

Without INSTALL the release is installed (once) into the capture cache, as
scripts/capture-agents.sh does: ${SKILLSCOPE_CAPTURE_CACHE:-~/.cache/skillscope-capture}.
Nothing is run: the files are read.

Claude Code (a native binary holding its JavaScript as text):
  - the catalogue object baked into its code (`models:[{id:"claude-3-5-haiku",…}],aliases:{…},
    best:…`), evaluated as the object literal it is (node's `vm`, no globals);
  - the set of older models it takes 4 characters a token for (`SET.has(id)?4:3`);
  - the window it gives a model it does not know: the constant its context-window function
    returns last (`…CLAUDE_CODE_MAX_CONTEXT_TOKENS…;return WINDOW}`);
  - a known model's window: `context.window` (1,000,000 exactly for the `native_1m` ones;
    without one, 200,000); `ID[1m]` for the models that take the suffix (`supports_1m_suffix`)
    and have no million natively;
  - names: the catalogue's aliases (first-party), `best` (the catalogue's `best` alias),
    `opusplan` (Sonnet outside plan mode), `default` (Opus), and the first-party dated ids.
  - before 2.1.290, the most a model named for it gets (NAMED_WINDOW below, measured);
  - a name holding `[1m]` (`/\[1m\]/i`, anywhere in it): the context-window function tests the
    name before anything else and gives it 1,000,000 tokens, a model the release does not know
    too (written as the catalogue's `suffixed` model, at the unknown model's characters per
    token; checked with `verify --model claude-fable-9[1m]` on 2.1.231 and 2.1.270).
Codex (a native binary embedding its models list as JSON, `{"models": [...]}`):
  - every model (the hidden ones too: a config may name them) by `priority`, `slug`,
    `display_name`, `context_window`, `include_skills_usage_instructions` (the model is sent a
    "How to use skills" section after the listing: `.with_skills_usage()`); the default is the
    first;
  - a model not in the list runs on its fallback metadata, a window of 272,000 tokens and no
    usage instructions (a constant of its code, not in the list: checked with
    `budget150-configured` on 0.171.0 and with `verify --model` on the older releases).
"""

import json
import os
import re
import subprocess
import sys

# What the code does not show plainly and `skillscope verify --model` measured: Claude Code
# before 2.1.290 gives a model named with --model, its settings or ANTHROPIC_MODEL at most
# 200,000 tokens unless written ID[1m] (its default model, when nothing names one, keeps its
# million); from 2.1.290 on a named model keeps its own window.
NAMED_WINDOW = {("claude-code", "2.1.231"): 200_000, ("claude-code", "2.1.270"): 200_000}

PKG = {"claude-code": "@anthropic-ai/claude-code", "codex": "@openai/codex"}
CACHE = os.environ.get("SKILLSCOPE_CAPTURE_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "skillscope-capture"
)


def die(msg):
    sys.stderr.write(f"error: {msg}\n")
    sys.exit(1)


def install(client, version, given):
    pkg = PKG[client]
    if given:
        roots = [given, os.path.join(given, "lib")]
    else:
        d = os.path.join(CACHE, f"{pkg.replace('/', '_')}@{version}")
        if not os.path.isdir(os.path.join(d, "node_modules", pkg)):
            sys.stderr.write(f"installing {pkg}@{version} into {d}\n")
            subprocess.run(
                ["npm", "install", "--prefix", d, "--no-audit", "--no-fund",
                 "--loglevel=error", f"{pkg}@{version}"],
                check=True, stdout=sys.stderr,
            )
        roots = [d]
    for r in roots:
        meta = os.path.join(r, "node_modules", pkg, "package.json")
        if os.path.isfile(meta):
            got = json.load(open(meta))["version"]
            if got != version:
                die(f"{pkg} in {r} is {got}, not {version}")
            return os.path.join(r, "node_modules")
    die(f"no {pkg} below {given}")


def binary(client, modules):
    if client == "claude-code":
        b = os.path.join(modules, PKG[client], "bin", "claude.exe")
        if os.path.isfile(b):
            return b
        die(f"no native binary at {b} (releases shipping cli.js are not read by this script)")
    for dirpath, _, files in os.walk(os.path.join(modules, "@openai")):
        if "codex" in files and "vendor" in dirpath:
            return os.path.join(dirpath, "codex")
    die("no native codex binary below the install")


def balanced_end(data, i):
    """The index of the bracket closing the object body that starts at i (strings skipped)."""
    depth, quote, n = 0, None, len(data)
    while i < n:
        c = data[i]
        if quote is not None:
            if c == 0x5C:
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in b"\"'`":
            quote = c
        elif c in b"[{(":
            depth += 1
        elif c in b"]})":
            depth -= 1
            if depth < 0:
                return i
        i += 1
    die("the catalogue object does not end")


def js_object(src):
    js = ("const vm=require('vm');const t=require('fs').readFileSync(0,'utf8');"
          "process.stdout.write(JSON.stringify(vm.runInNewContext(t,Object.create(null),"
          "{timeout:2000})))")
    out = subprocess.run(["node", "-e", js], input=src, capture_output=True, check=True)
    return json.loads(out.stdout)


def number(data, name):
    vals = set()
    for m in re.finditer(rb"[,; ]" + re.escape(name) + rb"=(\d+(?:e\d+)?)[,;]", data):
        vals.add(int(float(m.group(1).decode())))
    if len(vals) != 1:
        die(f"{name.decode()} has {len(vals)} numeric values: {sorted(vals)}")
    return vals.pop()


def claude_code(data):
    hits = [m.start() for m in re.finditer(rb'models:\[\{id:"claude-', data)]
    cats = []
    for start in hits:
        obj = js_object(b"({" + data[start:balanced_end(data, start)] + b"})")
        if "aliases" in obj and "best" in obj:
            cats.append(obj)
    if len(cats) != 1:
        die(f"{len(cats)} catalogue objects found")
    cat = cats[0]
    four = None
    for m in re.finditer(rb"(\w+)=new Set\((\[[^\]]*\])\)", data):
        if b"claude-3-opus" in m.group(2) and re.search(
                re.escape(m.group(1)) + rb"\.has\(\w+\)\?4:3", data):
            four = set(json.loads(m.group(2)))
    if four is None:
        die("no set of models at 4 characters a token")
    tail = re.findall(
        rb"CLAUDE_CODE_MAX_CONTEXT_TOKENS;if\([^;{}]*\)return [\w$]+;"
        rb"return (?:[\w$]+\(\)\?[\w$]+:)?([\w$]+)\}", data)
    if len(set(tail)) != 1:
        die(f"the unknown model's window: {len(set(tail))} candidates")
    unknown = number(data, tail[0])
    # The `[1m]` test (behind CLAUDE_CODE_DISABLE_1M_CONTEXT, directly or through a function of
    # its own) and its use first in the context-window function: `if(F(e))return 1e6` (2.1.231
    # to 2.1.290) or `(F(e)||…)` in the test that makes it a million (2.1.300, 2.1.332).
    tests = set(re.findall(rb"function ([\w$]+)\(e\)\{return/\\\[1m\\\]/i\.test\(e\)\}", data))
    names = set(tests)
    for t in tests:
        names |= set(re.findall(rb"function ([\w$]+)\(e\)\{if\([\w$]+\(\)\)return!1;return "
                                + re.escape(t) + rb"\(e\)\}", data))
    names |= set(re.findall(rb"function ([\w$]+)\(e\)\{if\([\w$]+\(\)\)return!1;return"
                            rb"/\\\[1m\\\]/i\.test\(e\)\}", data))
    suffixed = any(re.search(rb"if\(" + re.escape(n) + rb"\(e\)\)return 1e6;", data)
                   or re.search(rb"\(" + re.escape(n) + rb"\(e\)\|\|", data) for n in names)
    if not suffixed:
        sys.stderr.write("warning: no `[1m]` test first in the context-window function\n")

    def first_party(alias):
        a = cat["aliases"].get(alias)
        return a.get("default") if isinstance(a, dict) else a

    models = []
    for m in cat["models"]:
        ctx = m.get("context") or {}
        window = ctx.get("window") or 200_000
        if (window >= 1_000_000) != bool(ctx.get("native_1m")):
            sys.stderr.write(f"warning: {m['id']}: window {window}, native_1m {ctx.get('native_1m')}\n")
        cpt = 4 if m["id"] in four else 3
        models.append({"id": m["id"], "name": m["display_name"], "window": window, "cpt": cpt,
                       "suffix": bool(ctx.get("supports_1m_suffix")) and window < 1_000_000,
                       "dated": m.get("provider_ids", {}).get("first_party")})
    default = first_party("opus")
    ids = {m["id"] for m in models}
    if default not in ids:
        die(f"the default model {default} is not in the catalogue")
    aliases = [("default", default), ("best", first_party(cat["best"]))]
    for a in cat["aliases"]:
        aliases.append((a, first_party(a)))
    aliases.append(("opusplan", first_party("sonnet")))
    order = ["default", "best", "opus", "sonnet", "haiku", "fable", "opusplan"]
    aliases.sort(key=lambda x: order.index(x[0]) if x[0] in order else len(order))
    for m in models:
        if m["dated"] and m["dated"] != m["id"]:
            aliases.append((m["dated"], m["id"]))
        if m["id"].endswith("-0"):
            aliases.append((m["id"][:-2], m["id"]))
    aliases = [(a, i) for a, i in aliases if i in ids and a not in ids]
    head = next(m for m in models if m["id"] == default)
    ordered = [head] + [m for m in models if m is not head]
    out = [dict(m, id=m["id"]) for m in ordered]
    out += [dict(m, id=m["id"] + "[1m]", name=m["name"] + " (1M)", window=1_000_000)
            for m in ordered if m["suffix"]]
    return {"models": out, "aliases": aliases, "unknown": {"window": unknown, "cpt": 3},
            "suffixed": {"window": 1_000_000, "cpt": 3} if suffixed else None,
            "four_chars_per_token": sorted(four)}


def codex(data):
    i = data.find(b'{\n  "models": [')
    if i < 0:
        die("no embedded models list")
    obj, _ = json.JSONDecoder().raw_decode(data[i:i + 8_000_000].decode("utf-8", "replace"))
    models = sorted(obj["models"], key=lambda m: m.get("priority", 0))
    return {"models": [{"id": m["slug"], "name": m["display_name"], "window": m["context_window"],
                        "cpt": 4, "hidden": m.get("visibility") != "list",
                        "usage": m.get("include_skills_usage_instructions") is True}
                       for m in models],
            "aliases": [], "unknown": {"window": 272_000, "cpt": 4}}


def rust(client, version, cat):
    v = version.replace(".", "_")
    up = "CLAUDE_CODE" if client == "claude-code" else "CODEX"
    name = "Claude Code" if client == "claude-code" else "Codex"
    ctor = "claude" if client == "claude-code" else "gpt"
    lines = [f"/// {name} {version}'s models (`scripts/client-catalogue.py {client} {version}`), its",
             "/// default first."]
    lines.append(f"pub static {up}_{v}_MODELS: &[ClientModel] = &[")
    for m in cat["models"]:
        w = f"{m['window']:_}"
        if client == "claude-code":
            lines.append(f'    claude("{m["id"]}", "{m["name"]}", {w}, {m["cpt"]}),')
        else:
            usage = ".with_skills_usage()" if m.get("usage") else ""
            lines.append(f'    gpt("{m["id"]}", "{m["name"]}", {w}){usage},')
    lines.append("];")
    u = cat["unknown"]
    lines.append("")
    lines.append(f"/// What {name} {version} budgets for a model it does not know.")
    if client == "claude-code":
        lines.append(f"static {up}_{v}_FALLBACK: ClientModel = {ctor}(UNKNOWN, UNKNOWN_NAME, "
                     f"{u['window']:_}, {u['cpt']});")
    else:
        lines.append(f"static {up}_{v}_FALLBACK: ClientModel = {ctor}(UNKNOWN, UNKNOWN_NAME, "
                     f"{u['window']:_});")
    sfx = cat.get("suffixed")
    if sfx:
        lines.append("")
        lines.append(f"/// What {name} {version} budgets for a name holding `[1m]` when it does not know "
                     "the model.")
        lines.append(f"static {up}_{v}_SUFFIXED: ClientModel = {ctor}(UNKNOWN_1M, UNKNOWN_1M_NAME, "
                     f"{sfx['window']:_}, {sfx['cpt']});")
    lines.append("")
    lines.append(f"/// {name} {version}'s names for its models.")
    lines.append(f"pub static {up}_{v}_CATALOGUE: Catalogue = Catalogue {{")
    if cat["aliases"]:
        lines.append("    aliases: &[")
        for a, i in cat["aliases"]:
            lines.append(f'        ("{a}", "{i}"),')
        lines.append("    ],")
    else:
        lines.append("    aliases: &[],")
    suffix = 'Some("[1m]")' if client == "claude-code" else "None"
    lines.append(f"    suffix: {suffix},")
    lines.append(f"    fallback: &{up}_{v}_FALLBACK,")
    lines.append(f"    suffixed: {f'Some(&{up}_{v}_SUFFIXED)' if sfx else 'None'},")
    named = NAMED_WINDOW.get((client, version))
    lines.append(f"    named_window: {f'Some({named:_})' if named else 'None'},")
    lines.append("};")
    return "\n".join(lines)


def main(argv):
    as_json = "--json" in argv
    argv = [a for a in argv if a != "--json"]
    if len(argv) not in (2, 3) or argv[0] not in PKG:
        die(__doc__.strip().splitlines()[3])
    client, version = argv[0], argv[1]
    modules = install(client, version, argv[2] if len(argv) == 3 else None)
    data = open(binary(client, modules), "rb").read()
    cat = claude_code(data) if client == "claude-code" else codex(data)
    if as_json:
        print(json.dumps(cat, indent=1))
    else:
        print(rust(client, version, cat))


if __name__ == "__main__":
    main(sys.argv[1:])
