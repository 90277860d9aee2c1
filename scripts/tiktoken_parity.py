#!/usr/bin/env python3
"""Compare skillscope's token counts with Python tiktoken's, file by file.

Runs `skillscope budget --format json --no-cache --encoding E ROOT...` (fresh counts, no cache) and
counts every SKILL.md (L2) and every text resource (L3) again with `tiktoken`'s `encode_ordinary`,
the file decoded as UTF-8 with replacement characters, as skillscope reads it. Prints a summary and
the first differences; exits 1 on any difference.

Usage: tiktoken_parity.py [--skillscope BIN] [--encoding E]... [--show N] ROOT...
Offline, tiktoken needs its BPE files in TIKTOKEN_CACHE_DIR (tiktoken_parity.sh sets that up).
"""

import argparse
import json
import os
import subprocess
import sys

try:
    import tiktoken
except ImportError:
    sys.exit("tiktoken_parity: the tiktoken package is not importable")


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def compare(args, encoding):
    report = json.loads(
        subprocess.run(
            [args.skillscope, "budget", "--format", "json", "--no-cache", "--encoding", encoding, *args.roots],
            capture_output=True,
            check=True,
        ).stdout
    )
    assert report["encoding"] == encoding
    enc = tiktoken.get_encoding(encoding)

    # (path, skillscope's count) for every file skillscope counted.
    files = []
    unread = 0
    for s in report["skills"]:
        if s["l2"] is None:
            unread += 1
        else:
            files.append((s["skill_md"], s["l2"]))
        for r in s["resources"]:
            if r["text"] and r["tokens"] is None:
                unread += 1
            elif r["tokens"] is not None:
                files.append((os.path.join(s["dir"], r["rel"]), r["tokens"]))

    same = 0
    differ = []
    ref_failed = []
    ours_total = ref_total = 0
    size = 0
    batch = 256
    for i in range(0, len(files), batch):
        chunk = files[i : i + batch]
        texts = [read_text(p) for p, _ in chunk]
        size += sum(len(t.encode("utf-8")) for t in texts)
        try:
            counts = [len(t) for t in enc.encode_ordinary_batch(texts, num_threads=2)]
        except BaseException:  # one text the reference cannot encode: go one by one
            counts = []
            for t in texts:
                try:
                    counts.append(len(enc.encode_ordinary(t)))
                except BaseException:
                    counts.append(None)
        for (path, ours), ref in zip(chunk, counts):
            if ref is None:
                ref_failed.append(path)
                continue
            ours_total += ours
            ref_total += ref
            if ours == ref:
                same += 1
            else:
                differ.append((path, ours, ref))

    print(f"{encoding}: {len(files)} files ({size / 1e6:.1f} MB) compared: {same} equal, "
          f"{len(differ)} different; skillscope {ours_total} tokens, tiktoken {ref_total}")
    if unread:
        print(f"  {unread} text files skillscope could not read")
    if ref_failed:
        print(f"  {len(ref_failed)} files tiktoken itself cannot encode, e.g. {ref_failed[0]}")
    for path, ours, ref in differ[: args.show]:
        print(f"  differs: {path}: skillscope {ours}, tiktoken {ref}")
    return not differ


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("roots", nargs="+")
    ap.add_argument("--skillscope", default="target/release/skillscope")
    ap.add_argument("--encoding", action="append", choices=["o200k_base", "cl100k_base"])
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args()
    results = [compare(args, e) for e in (args.encoding or ["o200k_base", "cl100k_base"])]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
