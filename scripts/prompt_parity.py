#!/usr/bin/env python3
"""Compare `skillscope prompt --format xml` with the reference `skills-ref to-prompt`, skill by skill.

For every skill folder under the given roots, the reference block is `skills_ref.prompt.to_prompt([dir])`
(the function behind `agentskills to-prompt`), computed in process; skillscope renders the folders in
a few runs (`skillscope prompt --format xml --tier full --all DIR...`), and its output is cut into
`<skill>` blocks matched by location. Prints a summary and the first differences.

Usage: prompt_parity.py [--skillscope BIN] [--show N] [--max N] ROOT...
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

try:
    from skills_ref.parser import read_properties
    from skills_ref.prompt import to_prompt
    from skills_ref.errors import SkillError
except ImportError:
    sys.exit("prompt_parity: the skills-ref package is not importable; run with the venv that has it")


def skill_dirs(roots):
    """Folders holding a SKILL.md (or skill.md), as skillscope's scan finds them: no dot-folders, no
    node_modules."""
    out = []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "node_modules")
            if "SKILL.md" in filenames or "skill.md" in filenames:
                out.append(Path(dirpath))
    return out


def name_lines(d):
    """Values of `name:` lines, which skillscope still reads from a frontmatter YAML rejects."""
    f = d / "SKILL.md" if (d / "SKILL.md").exists() else d / "skill.md"
    try:
        text = f.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return {
        line[5:].strip().strip("\"'")
        for line in text.split("\n", 200)[:200]
        if line.startswith("name:")
    }


def blocks(text):
    """`<skill>` blocks of an `<available_skills>` listing, keyed by location."""
    out = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i] == "<skill>":
            j = lines.index("</skill>", i)
            block = "\n".join(lines[i : j + 1])
            loc = lines[lines.index("<location>", i) + 1]
            out[loc] = block
            i = j + 1
        else:
            i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--skillscope", default="target/release/skillscope")
    ap.add_argument("--show", type=int, default=5, help="differences to print")
    ap.add_argument("--max", type=int, default=0, help="check at most N folders (0: all)")
    args = ap.parse_args()

    dirs = skill_dirs(args.roots)
    if args.max:
        dirs = dirs[: args.max]
    # Folders given together are roots of the same kind, so same-named skills would shadow each
    # other (skills-ref lists each one): render in batches where no name repeats, by folder name
    # and by frontmatter name (a skill without a parsed name goes by its folder's).
    names = {}
    for d in dirs:
        keys = {d.name}
        try:
            keys.add(read_properties(d).name)
        except Exception:
            pass
        keys.update(name_lines(d))
        names[d] = keys
    batches = []
    for d in dirs:
        for b in batches:
            if not (b[0] & names[d]):
                b[0].update(names[d])
                b[1].append(d)
                break
        else:
            batches.append((set(names[d]), [d]))
    our_blocks = {}
    for _, batch in batches:
        out = subprocess.run(
            [args.skillscope, "prompt", "--format", "xml", "--tier", "full", "--all", *map(str, batch)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        our_blocks.update(blocks(out))

    same = differ = rejected_by_ref = both_skip = ours_missing = shadowed = 0
    shown = 0
    reasons = {}
    for d in dirs:
        try:
            ref = to_prompt([d])
        except SkillError as e:
            loc = str(d.resolve() / ("SKILL.md" if (d / "SKILL.md").exists() else "skill.md"))
            kind = type(e).__name__ + ": " + str(e).split(":")[0][:60]
            if loc in our_blocks:
                rejected_by_ref += 1
                reasons[kind] = reasons.get(kind, 0) + 1
            else:
                both_skip += 1
            continue
        except Exception as e:  # the reference itself crashing (e.g. a decode error)
            rejected_by_ref += 1
            kind = type(e).__name__
            reasons[kind] = reasons.get(kind, 0) + 1
            continue
        ref_blocks = blocks(ref)
        (loc, block), = ref_blocks.items()
        mine = our_blocks.get(loc)
        if mine is None:
            ours_missing += 1
            if shown < args.show:
                shown += 1
                print(f"--- not listed by skillscope: {d}")
        elif mine == block:
            same += 1
        else:
            differ += 1
            if shown < args.show:
                shown += 1
                print(f"--- differs: {d}\n  reference: {block[:400]!r}\n  skillscope: {mine[:400]!r}")

    compared = same + differ + ours_missing
    print(f"\nfolders: {len(dirs)} (rendered in {len(batches)} runs without repeated names)")
    print(f"accepted by the reference: {compared}; byte-identical: {same}; different: {differ}; "
          f"not listed by skillscope: {ours_missing}")
    print(f"rejected by the reference but listed by skillscope: {rejected_by_ref}; "
          f"rejected by both: {both_skip}")
    for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {v:5}  {k}")
    return 0 if differ == 0 and ours_missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
