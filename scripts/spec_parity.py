#!/usr/bin/env python3
"""Compare skillscope's `spec` verdicts with the reference validator (skills-ref) on a folder.

usage: scripts/spec_parity.py SKILLSCOPE_BIN FOLDER   (needs `pip install skills-ref`)

A skill is invalid for skillscope when `check --profile spec` reports an error on it. Skills the
reference rejects only because its strict YAML parser refuses flow style (`[a, b]`, `{a: b}`) are
counted apart: skillscope reports them with the warning `strict-yaml-flow`.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

from skills_ref.validator import validate

binary, folder = sys.argv[1], Path(sys.argv[2]).resolve()
report = json.loads(
    subprocess.run([binary, "check", "--profile", "spec", "--format", "json", str(folder)],
                   capture_output=True, text=True).stdout)
ours = {}
for d in report["diagnostics"]:
    p = Path(d["path"])
    skill_dir = str(p.parent if p.name.lower() == "skill.md" else p)
    ours.setdefault(skill_dir, set())
    if d["severity"] == "error":
        ours[skill_dir].add(d["rule"])

agree = disagree = flow = 0
mismatches = []
for dirpath, dirnames, filenames in os.walk(folder):
    dirnames[:] = sorted(d for d in dirnames if d not in (".git", ".hg", ".svn", "node_modules"))
    if not any(f.lower() == "skill.md" for f in filenames):
        continue
    if not ("SKILL.md" in filenames or "skill.md" in filenames):
        ref = ["Missing required file: SKILL.md"]
    else:
        try:
            ref = validate(Path(dirpath))
        except Exception as e:  # the reference itself crashes on some files (bad UTF-8)
            ref = [f"reference crashed: {type(e).__name__}"]
    mine = ours.get(str(Path(dirpath)), set())
    if any("flow" in e.lower() or "JSONesque" in e for e in ref):
        flow += 1
        continue
    if bool(ref) == bool(mine):
        agree += 1
    else:
        disagree += 1
        mismatches.append((dirpath, ref, sorted(mine)))

for d, ref, mine in mismatches[:40]:
    print(f"MISMATCH {d}\n  reference: {ref}\n  skillscope: {mine}")
total = agree + disagree
print(f"{total} skills compared: {agree} same verdict, {disagree} different; "
      f"{flow} more rejected by the reference only for flow-style YAML (strict-yaml-flow)")
sys.exit(1 if disagree else 0)
