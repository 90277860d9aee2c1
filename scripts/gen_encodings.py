#!/usr/bin/env python3
"""Writes assets/encodings/{o200k_base,cl100k_base}.bin from tiktoken's .tiktoken files.

A .tiktoken file has one `base64(token) rank` line per token. The .bin file holds the tokens in
rank order, each as one length byte followed by the token's bytes; the rank is the position. The
script refuses input whose ranks are not 0..n in order, whose tokens repeat, or that has a token
longer than 255 bytes, so that the position is always the rank.

The source is the copy of the files shipped in the tiktoken-rs crate (MIT), found in the cargo
registry; pass another folder holding `<name>.tiktoken` files to use it instead.

Usage: scripts/gen_encodings.py [TIKTOKEN_DIR]
"""

import base64
import glob
import os
import sys

NAMES = ["o200k_base", "cl100k_base"]


def find_source():
    cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    found = sorted(glob.glob(os.path.join(cargo_home, "registry/src/*/tiktoken-rs-*/assets")))
    if not found:
        sys.exit("gen_encodings: no tiktoken-rs crate in the cargo registry (run `cargo fetch`)")
    return found[-1]


def convert(path):
    out = bytearray()
    seen = set()
    expected = 0
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            raw, rank = line.split()
            token = base64.b64decode(raw, validate=True)
            if int(rank) != expected:
                sys.exit(f"gen_encodings: {path}:{number}: rank {int(rank)}, expected {expected}")
            if not 0 < len(token) < 256:
                sys.exit(f"gen_encodings: {path}:{number}: a token of {len(token)} bytes")
            if token in seen:
                sys.exit(f"gen_encodings: {path}:{number}: a repeated token")
            seen.add(token)
            out.append(len(token))
            out += token
            expected += 1
    return bytes(out), expected


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else find_source()
    dest = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "encodings")
    os.makedirs(dest, exist_ok=True)
    for name in NAMES:
        data, tokens = convert(os.path.join(source, f"{name}.tiktoken"))
        with open(os.path.join(dest, f"{name}.bin"), "wb") as f:
            f.write(data)
        print(f"{name}: {tokens} tokens, {len(data)} bytes (from {source})")


if __name__ == "__main__":
    main()
