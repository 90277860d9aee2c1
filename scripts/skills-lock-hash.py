#!/usr/bin/env python3
"""Recompute the hashes the installers record, to check a model of them against the real files.

    python3 scripts/skills-lock-hash.py skills  DIR...   # skills-lock.json computedHash
    python3 scripts/skills-lock-hash.py clawhub DIR...   # .clawhub/origin.json fingerprint

`skills` (npm `skills`, computeSkillFolderHash in dist/cli.mjs): every regular file below DIR
(symbolic links are not followed or hashed; folders named .git and node_modules are skipped at
any depth), its path relative to DIR with `/` separators, sorted with JavaScript's
String.prototype.localeCompare (ICU root collation), then one SHA-256 over, for each file in
that order, the path's UTF-8 bytes followed by the file's bytes, with no separator. Hex, lower
case.

`clawhub` (npm `clawhub`, listSkillFiles + hashSkillFiles in dist/skills.js): every regular file
below DIR whose relative path has no segment starting with `.` (so `.clawhub/` is out) and no
`node_modules` (patterns in DIR/.gitignore and DIR/.clawhubignore also exclude; not applied here),
each as the line `PATH:SHA256HEX`, lines sorted by localeCompare and joined by `\n`, then SHA-256
of that text. Hex, lower case.

The sort key below reproduces ICU's root collation for printable ASCII paths (checked against
Node on thousands of random strings); a path with other characters is refused rather than
guessed.
"""

import hashlib
import os
import sys

# ICU root collation, printable ASCII: primary order (letters case-insensitive), then on a tie
# lowercase before uppercase. Punctuation and symbols sort before digits, digits before letters.
PRIMARY = [" ", "_", "-", ",", ";", ":", "!", "?", ".", "'", '"', "(", ")", "[", "]", "{", "}",
           "@", "*", "/", "\\", "&", "#", "%", "`", "^", "+", "<", "=", ">", "|", "~", "$"]
PRIMARY += list("0123456789") + list("abcdefghijklmnopqrstuvwxyz")
RANK = {c: i for i, c in enumerate(PRIMARY)}


def locale_key(s):
    if any(c.lower() not in RANK for c in s):
        raise ValueError("path outside printable ASCII, not covered: %r" % s)
    return (tuple(RANK[c.lower()] for c in s), tuple(c.isupper() for c in s))


def walk(root, skip):
    out = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not skip(d) and not os.path.islink(os.path.join(dirpath, d))]
        for n in names:
            p = os.path.join(dirpath, n)
            if skip(n) or os.path.islink(p) or not os.path.isfile(p):
                continue
            out.append(os.path.relpath(p, root).replace(os.sep, "/"))
    return out


def skills_hash(root):
    files = walk(root, lambda n: n in (".git", "node_modules"))
    h = hashlib.sha256()
    for rel in sorted(files, key=locale_key):
        h.update(rel.encode("utf-8"))
        with open(os.path.join(root, rel), "rb") as f:
            h.update(f.read())
    return h.hexdigest(), sorted(files, key=locale_key)


def clawhub_fingerprint(root):
    files = walk(root, lambda n: n.startswith(".") or n == "node_modules")
    rows = []
    for rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            rows.append((rel, hashlib.sha256(f.read()).hexdigest()))
    rows.sort(key=lambda r: locale_key(r[0]))
    payload = "\n".join("%s:%s" % r for r in rows)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest(), [r[0] for r in rows]


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("skills", "clawhub"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    fn = skills_hash if sys.argv[1] == "skills" else clawhub_fingerprint
    for d in sys.argv[2:]:
        digest, order = fn(d)
        print("%s  %s" % (digest, d))
        for rel in order:
            print("    %s" % rel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
