#!/usr/bin/env python3
"""Checks that the paraphrase routing set (tests/eval/paraphrase.jsonl) keeps to its rule: no
message uses a distinctive word of its target skill. A skill's distinctive words are every word of
its name and the 8 words of its name and description that weigh most by tf-idf over the library
(as the overlap rule picks a skill's terms); words are lower-cased, lightly stemmed, and English
stop-words are left out. With --strict, any word of the name or description that at most 2% of
the library's skills have counts as distinctive too (a stricter rule the set does not keep to:
it also forbids plain words such as "booking" that happen to be rare in a library of tools).

    C=../shared/corpus
    cargo run -q -- list --json $(sed "s|^|$C/|" tests/eval/paraphrase-library.txt) > /tmp/lib.json
    python3 scripts/paraphrase-check.py /tmp/lib.json tests/eval/paraphrase.jsonl

Prints each offending message with the words it shares; exits 1 if there is any.
"""

import collections
import json
import math
import re
import sys

STOP = set(
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself "
    "she her hers herself it its itself they them their theirs themselves what which who whom "
    "this that these those am is are was were be been being have has had having do does did "
    "doing a an the and but if or because as until while of at by for with about against between "
    "into through during before after above below to from up down in out on off over under again "
    "further then once here there when where why how all any both each few more most other some "
    "such no nor not only own same so than too very s t can will just don should now use".split()
)


def stem(w):
    for suf in ("ings", "ing", "ies", "ied", "es", "ed", "ly", "s"):
        if len(w) > len(suf) + 2 and w.endswith(suf):
            return w[: -len(suf)]
    return w


def words(text):
    return [stem(w) for w in re.findall(r"[a-z0-9]+", (text or "").lower()) if w not in STOP and len(w) > 1]


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--strict"]
    strict = "--strict" in sys.argv
    lib = json.load(open(args[0]))
    docs, names = {}, {}
    for s in lib:
        name_words = words(s["name"].replace("-", " "))
        docs.setdefault(s["name"], []).extend(name_words + words(s.get("description")))
        names.setdefault(s["name"], set()).update(name_words)
    df = collections.Counter(w for d in docs.values() for w in set(d))
    n = len(docs)
    rare = max(3, len(lib) // 50)

    def distinctive(name):
        tf = collections.Counter(docs[name])
        top = sorted(tf, key=lambda w: (-tf[w] * math.log(n / df[w]), w))[:8]
        out = set(top) | names[name]
        if strict:
            out |= {w for w in tf if df[w] <= rare}
        return out

    cases = [json.loads(l) for l in open(args[1]) if l.strip() and not l.startswith("#")]
    bad = 0
    for c in cases:
        for name in c["expect"]:
            if name not in docs:
                print(f"unknown skill {name}")
                bad += 1
                continue
            shared = sorted(set(words(c["message"])) & distinctive(name))
            if shared:
                bad += 1
                print(f"{name}: {shared} <- {c['message']}")
    routed = sum(1 for c in cases if c["expect"])
    print(f"{routed} routed messages, {len(cases) - routed} small talk; {bad} use a distinctive word of their skill")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
