#!/usr/bin/env python3
"""What the overlap rule's comparison by meaning adds to its clusters of shared terms, from a
`check --format json` report: the skills it warns, how many of them no cluster warns, the pairs
it names (each named from both sides), their similarities, and a few of them.

    skillscope check --embed --select overlap --format json LIBRARY... > report.json
    scripts/overlap-meaning.py report.json
"""
import json
import re
import sys
from collections import Counter


def name_of(skill_md):
    """The skill's name, as its frontmatter gives it (unquoted)."""
    for line in open(skill_md, encoding="utf-8", errors="replace"):
        if line.startswith("name:"):
            return line[5:].strip().strip("'\"")
    return skill_md


def main(path):
    report = json.load(open(path))
    print("overlap by meaning:", report["overlap_by_meaning"])
    overlap = [d for d in report["diagnostics"] if d["rule"] == "overlap"]
    by_words = {d["path"] for d in overlap if "competes with" in d["message"]}
    by_meaning = [d for d in overlap if "competes with" not in d["message"]]
    named = 0
    sims = Counter()
    pairs = set()
    for d in by_meaning:
        m = d["message"]
        listed = re.findall(r"`([^`]*)` \((?:similarity )?([0-9.]+)\)", m)
        listed += [(name, "1.00") for name in re.findall(r"`([^`]*)` \(the same text\)", m)]
        listed += [(name, "1.00") for name in re.findall(r"^another copy of `([^`]*)`", m)]
        more = re.search(r" and (\d+) more", m)
        named += len(listed) + (int(more.group(1)) if more else 0)
        me = name_of(d["path"])
        for name, sim in listed:
            sims[sim[:3]] += 1
            pairs.add((tuple(sorted((me, name))), sim))
    print(f"skills checked: {report['skills']}")
    print(f"skills in a cluster of shared terms: {len(by_words)}")
    print(f"skills warned by meaning: {len(by_meaning)}, "
          f"of which in no cluster: {sum(d['path'] not in by_words for d in by_meaning)}")
    print(f"descriptions named by meaning: {named} (each pair from both sides: "
          f"about {named // 2} pairs)")
    print("similarities named (first digits):", dict(sorted(sims.items())))
    for (a, b), sim in sorted(pairs, key=lambda p: -float(p[1]))[: int(sys.argv[2]) if len(sys.argv) > 2 else 0]:
        print(f"  {sim}  {a}  ~  {b}")


if __name__ == "__main__":
    main(sys.argv[1])
