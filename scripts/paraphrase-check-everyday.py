#!/usr/bin/env python3
"""Checks that the "everyday" paraphrase routing set keeps to its rule: a message names the job in
the user's own words, not in the distinctive words of its target skill. For each target skill:
  1. no word of the skill's name;
  2. none of the 3 words of its name and description that weigh most by tf-idf over the library;
  3. no two consecutive content words of the description, in the same order, in the message.
Words are lower-cased, lightly stemmed (plural/-ing/-ed/-ly endings removed), English stop-words
left out. Also reports unknown target names, targets used more than once, and targets shared with
the strict set (tests/eval/paraphrase.jsonl), when that file is given or found.

    C=../shared/corpus
    cargo run -q -- list --json $(sed "s|^|$C/|" tests/eval/paraphrase-library.txt) > /tmp/lib.json
    python3 scripts/paraphrase-check-everyday.py /tmp/lib.json tests/eval/paraphrase-everyday.jsonl

Prints each offence; exits 1 if there is any.
"""

import collections
import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The strict set's checker holds the words, stems and stop-words both rules use.
_spec = importlib.util.spec_from_file_location("paraphrase_check", os.path.join(HERE, "paraphrase-check.py"))
_strict_checker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_strict_checker)
words = _strict_checker.words

TOP = 3
STRICT_DEFAULT = os.path.join(HERE, "..", "tests", "eval", "paraphrase.jsonl")


def bigrams(ws):
    return {(a, b) for a, b in zip(ws, ws[1:])}


def load_cases(path):
    return [json.loads(l) for l in open(path) if l.strip() and not l.startswith("#")]


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    lib = json.load(open(args[0]))
    docs, names, descs = {}, {}, {}
    for s in lib:
        name_words = words(s["name"].replace("-", " "))
        docs.setdefault(s["name"], []).extend(name_words + words(s.get("description")))
        names.setdefault(s["name"], set()).update(name_words)
        descs.setdefault(s["name"], []).append(words(s.get("description")))
    df = collections.Counter(w for d in docs.values() for w in set(d))
    n = len(docs)

    def top(name):
        tf = collections.Counter(docs[name])
        return set(sorted(tf, key=lambda w: (-tf[w] * math.log(n / df[w]), w))[:TOP])

    def phrases(name):
        out = set()
        for d in descs[name]:
            out |= bigrams(d)
        return out

    strict_path = args[2] if len(args) > 2 else STRICT_DEFAULT
    strict = set()
    if os.path.exists(strict_path):
        strict = {t for c in load_cases(strict_path) for t in c["expect"]}

    cases = load_cases(args[1])
    bad = 0
    seen = collections.Counter(t for c in cases for t in c["expect"])
    for name, k in sorted(seen.items()):
        if k > 1:
            bad += 1
            print(f"duplicate target {name} ({k} times)")
        if name in strict:
            bad += 1
            print(f"target {name} is also a target of the strict set")
    for c in cases:
        msg = words(c["message"])
        for name in c["expect"]:
            if name not in docs:
                print(f"unknown skill {name}")
                bad += 1
                continue
            in_name = sorted(set(msg) & names[name])
            in_top = sorted(set(msg) & (top(name) - names[name]))
            copied = sorted(" ".join(p) for p in bigrams(msg) & phrases(name))
            if in_name or in_top or copied:
                bad += 1
                parts = []
                if in_name:
                    parts.append(f"name words {in_name}")
                if in_top:
                    parts.append(f"top-{TOP} words {in_top}")
                if copied:
                    parts.append(f"copied phrases {copied}")
                print(f"{name}: {'; '.join(parts)} <- {c['message']}")
    routed = sum(1 for c in cases if c["expect"])
    print(
        f"{routed} routed messages ({len(seen)} targets), {len(cases) - routed} small talk; "
        f"{bad} offences"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
