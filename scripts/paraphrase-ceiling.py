#!/usr/bin/env python3
"""How far the semantic and hybrid matchers could go on the paraphrase sets with no cut at all.

For each set in tests/eval/paraphrase*.jsonl, over the skills of its library (paraphrase-library.txt,
or paraphrase-library-2.txt for the second set):
recall at 1/3/5 and the small talk left quiet for the matchers as shipped (the best skill at
0.25 or more, the others at 0.2 or more and within 0.2 of it; hybrid's bm25 lift), for the
gate-only variant (the best skill at 0.25 or more, then the first five), and the ceiling (the
first five of the whole ranking).
The vectors come from scripts/model-reference.py's numpy forward pass (with a vectorised erf,
good to 1.5e-7), not from the binary; bm25's scores come from the binary
(`match --matcher bm25 --json`). It reproduces `skillscope eval --top k` to within a request.

    /work/venv/bin/pip install numpy safetensors tokenizers
    SKILLSCOPE=target/release/skillscope python3 scripts/paraphrase-ceiling.py [CORPUS]
"""

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

REPO = Path(__file__).resolve().parent.parent
SETS = [("paraphrase", "paraphrase-library"), ("paraphrase-everyday", "paraphrase-library"),
        ("paraphrase-holdout", "paraphrase-library"), ("paraphrase-second", "paraphrase-library-2")]
MIN_BEST_SIMILARITY, MIN_SIMILARITY, MAX_BEHIND_BEST = 0.25, 0.2, 0.2  # src/core/matching/semantic.rs
BM25_WEIGHT, MIN_LIFTED = 0.15, 0.2  # src/core/matching/hybrid.rs

spec = importlib.util.spec_from_file_location("mr", REPO / "scripts" / "model-reference.py")
mr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mr)


def erf(x):
    # Abramowitz and Stegun 7.1.26.
    s, x = np.sign(x), np.abs(x)
    t = 1 / (1 + 0.3275911 * x)
    p = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return s * (1 - p * np.exp(-x * x))


mr.gelu = lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2)))


def main() -> int:
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SKILLSCOPE_CORPUS", REPO.parent / "shared" / "corpus"))
    binary = os.environ.get("SKILLSCOPE", str(REPO / "target" / "release" / "skillscope"))
    tok = Tokenizer.from_file(str(REPO / "assets/model/tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(mr.MAX_TOKENS)
    weights = {k: v.astype(np.float32) for k, v in load_file(str(REPO / "assets/model/model.safetensors")).items()}
    embed = lambda texts: np.array([mr.encode(weights, tok.encode(t).ids) for t in texts])

    def field(s):
        name = s["name"].replace("-", " ").replace("_", " ")
        d = (s.get("description") or "").strip()
        return f"{name}: {d}" if d else name

    for name, library in SETS:
        folders = [str(corpus / l.strip()) for l in open(REPO / f"tests/eval/{library}.txt") if l.strip()]
        lib = json.loads(subprocess.run([binary, "list", "--json", *folders], capture_output=True, text=True, check=True).stdout)
        index = {}
        for i, s in enumerate(lib):
            index.setdefault(s["id"], i)
            index.setdefault(s["name"], i)
        skills = embed([field(s) for s in lib])
        cases = [json.loads(l) for l in open(REPO / f"tests/eval/{name}.jsonl") if l.strip() and not l.startswith("#")]
        sem = embed([c["message"] for c in cases]) @ skills.T
        share = np.zeros_like(sem)
        for i, c in enumerate(cases):
            out = subprocess.run([binary, "match", c["message"], "--matcher", "bm25", "--top", "50", "--json", *folders],
                                 capture_output=True, text=True, check=True).stdout
            found = json.loads(out)["results"]["bm25"]
            for f in found:
                share[i, index[f["id"]]] = f["score"] / found[0]["score"]
        hyb = sem + np.where((share > 0) & (sem >= MIN_LIFTED), BM25_WEIGHT * share, 0)
        print(f"{name}: {sum(1 for c in cases if c['expect'])} requests, {sum(1 for c in cases if not c['expect'])} small talk")
        for label, scores, gate, behind, floor in [
            ("semantic as shipped", sem, MIN_BEST_SIMILARITY, MAX_BEHIND_BEST, MIN_SIMILARITY),
            ("hybrid as shipped", hyb, MIN_BEST_SIMILARITY, MAX_BEHIND_BEST, MIN_SIMILARITY),
            ("semantic, gate only", sem, MIN_BEST_SIMILARITY, math.inf, -math.inf),
            ("hybrid, gate only", hyb, MIN_BEST_SIMILARITY, math.inf, -math.inf),
            ("semantic ceiling", sem, -math.inf, math.inf, -math.inf),
            ("hybrid ceiling", hyb, -math.inf, math.inf, -math.inf),
        ]:
            hits, n, quiet, talk = {1: 0, 3: 0, 5: 0}, 0, 0, 0
            for i, c in enumerate(cases):
                order = np.argsort(-scores[i])
                best = scores[i][order[0]]
                taken = [] if best < gate else [o for o in order[:5] if scores[i][o] >= max(best - behind, floor)]
                if not c["expect"]:
                    talk += 1
                    quiet += not taken
                    continue
                n += 1
                for k in hits:
                    hits[k] += index[c["expect"][0]] in taken[:k]
            r = " ".join(f"r@{k} {100 * hits[k] / n:3.0f}%" for k in hits)
            print(f"  {label:22} {r}   quiet {quiet}/{talk}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
