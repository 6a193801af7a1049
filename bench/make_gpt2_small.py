#!/usr/bin/python3
"""A randomly initialised checkpoint of GPT-2 small's exact shape, for bench/gpt2-small.mjs.

Writes config.json and model.safetensors as the hub's "gpt2" folder holds them: 12 layers of 12
heads, width 768, vocabulary 50,257, 1,024 positions (124,439,808 parameters), float32, the names
without a prefix, and each layer's causal-mask buffer h.<l>.attn.bias [1, 1, 1024, 1024], which the
hub's file also carries (so the file is as large as the real one, about 548 MB; the engine skips
the buffers unread). Weights ~ N(0, 0.02²) as GPT-2 initialises them, biases 0, LayerNorm gains 1:
the model's numbers are meaningless, its sizes and costs are GPT-2 small's.

Never committed: it goes to a cache folder (default $TMPDIR/attention-explorer-gpt2-small), and
is written again only when missing or made with another seed. NumPy only (Debian's python3-numpy).

    /usr/bin/python3 bench/make_gpt2_small.py [--out DIR] [--seed N]   # prints DIR
"""

import argparse
import json
import os
import struct
import sys
import tempfile

import numpy as np

VOCAB, CONTEXT, WIDTH, LAYERS, HEADS = 50257, 1024, 768, 12, 12
FFN = 4 * WIDTH
INIT_STD = 0.02

CONFIG = {
    "activation_function": "gelu_new",
    "architectures": ["GPT2LMHeadModel"],
    "initializer_range": INIT_STD,
    "layer_norm_epsilon": 1e-05,
    "model_type": "gpt2",
    "n_ctx": CONTEXT,
    "n_embd": WIDTH,
    "n_head": HEADS,
    "n_inner": None,
    "n_layer": LAYERS,
    "n_positions": CONTEXT,
    "scale_attn_weights": True,
    "vocab_size": VOCAB,
}


def tensors():
    """(name, shape, kind) in the order they are written; kind: normal, zeros, ones or mask."""
    out = [("wte.weight", (VOCAB, WIDTH), "normal"), ("wpe.weight", (CONTEXT, WIDTH), "normal")]
    for layer in range(LAYERS):
        h = f"h.{layer}."
        out += [
            (h + "ln_1.weight", (WIDTH,), "ones"),
            (h + "ln_1.bias", (WIDTH,), "zeros"),
            (h + "attn.bias", (1, 1, CONTEXT, CONTEXT), "mask"),
            (h + "attn.c_attn.weight", (WIDTH, 3 * WIDTH), "normal"),
            (h + "attn.c_attn.bias", (3 * WIDTH,), "zeros"),
            (h + "attn.c_proj.weight", (WIDTH, WIDTH), "normal"),
            (h + "attn.c_proj.bias", (WIDTH,), "zeros"),
            (h + "ln_2.weight", (WIDTH,), "ones"),
            (h + "ln_2.bias", (WIDTH,), "zeros"),
            (h + "mlp.c_fc.weight", (WIDTH, FFN), "normal"),
            (h + "mlp.c_fc.bias", (FFN,), "zeros"),
            (h + "mlp.c_proj.weight", (FFN, WIDTH), "normal"),
            (h + "mlp.c_proj.bias", (WIDTH,), "zeros"),
        ]
    out += [("ln_f.weight", (WIDTH,), "ones"), ("ln_f.bias", (WIDTH,), "zeros")]
    return out


def values(rng, shape, kind):
    if kind == "normal":
        return (rng.standard_normal(shape, dtype=np.float32) * np.float32(INIT_STD)).astype("<f4")
    if kind == "mask":
        return np.tril(np.ones(shape[-2:], dtype="<f4")).reshape(shape)
    return np.full(shape, 1.0 if kind == "ones" else 0.0, dtype="<f4")


def write(folder, seed):
    header, offset = {"__metadata__": {"format": "pt", "made_by": f"make_gpt2_small.py seed {seed}"}}, 0
    for name, shape, _ in tensors():
        size = 4 * int(np.prod(shape))
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the format's writer pads the header to 8 bytes
    rng = np.random.default_rng(seed)
    partial = os.path.join(folder, "model.safetensors.partial")
    with open(partial, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name, shape, kind in tensors():  # one tensor in memory at a time
            f.write(values(rng, shape, kind).tobytes())
    os.replace(partial, os.path.join(folder, "model.safetensors"))
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump({**CONFIG, "made_by_seed": seed}, f, indent=2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "attention-explorer-gpt2-small"))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    config_path = os.path.join(args.out, "config.json")
    try:
        with open(config_path) as f:
            fresh = json.load(f).get("made_by_seed") == args.seed
    except (OSError, ValueError):
        fresh = False
    if not (fresh and os.path.exists(os.path.join(args.out, "model.safetensors"))):
        write(args.out, args.seed)
    print(args.out)


if __name__ == "__main__":
    sys.exit(main())
