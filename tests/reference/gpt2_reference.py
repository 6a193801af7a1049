#!/usr/bin/python3
"""Independent NumPy reference for reading GPT-2 checkpoints: writes small random GPT-2
checkpoints as Hugging Face lays them out (config.json + model.safetensors) and the forward
pass of each, and runs the same forward pass on the transformers-written checkpoint in
tests/fixtures/hf-tiny-gpt2/.

The forward pass is GPT-2's published definition (OpenAI's gpt-2 src/model.py, as
transformers' GPT2Model computes it), written here in float64 without looking at the engine:
    h = wte[ids] + wpe[0..T-1]
    per block:  a = attn(norm(h, ln_1)); h = h + a;  m = mlp(norm(h, ln_2)); h = h + m
    attn:       q|k|v = x·c_attn.w + c_attn.b (split along the last axis, then into heads);
                w = softmax(q·kᵀ/√dk with w[i, j>i] = -1e10); merge(w·v)·c_proj.w + c_proj.b
    mlp:        gelu(x·c_fc.w + c_fc.b)·c_proj.w + c_proj.b, gelu the tanh approximation
    norm:       (x − mean)/√(var + 1e-5)·g + b, var the biased variance
    logits = norm(h, ln_f)·wteᵀ
Conv1D weights are stored [in, out]. The safetensors files are written here too (8-byte
little-endian header length, a JSON header padded with spaces to 8 bytes, raw little-endian
data), F32, F16 and BF16 (float32 bits rounded to their top 16, ties to even).

Writes tests/fixtures/gpt2/<case>/{config.json, model.safetensors, expected.json} for three name
layouts × three dtypes, and tests/fixtures/gpt2/hf-tiny-gpt2.json. expected.json holds the
tokens, every layer's attention weights per head ([layers][heads] of T × T) and the logits
[T × V]. Deterministic. Run from the repository root:
    /usr/bin/python3 tests/reference/gpt2_reference.py
"""

import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# FIXTURES_OUT: the fixtures folder to write into (test.sh regenerates into a scratch one).
FIXTURES = os.path.join(
    os.environ.get("FIXTURES_OUT") or os.path.join(ROOT, "tests", "fixtures"), "gpt2")
HF_TINY = os.path.join(ROOT, "tests", "fixtures", "hf-tiny-gpt2")

EPS = 1e-5

# ----------------------------------------------------------------------------------------------
# The forward pass (float64)


def layer_norm(x, g, b):
    """x [T, C] → [T, C]."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * g + b


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(x, w, n_head):
    """x [T, C] → (output [T, C], weights [heads, T, T])."""
    T, C = x.shape
    qkv = x @ w["attn.c_attn.weight"] + w["attn.c_attn.bias"]  # [T, 3C]
    q, k, v = np.split(qkv, 3, axis=-1)  # each [T, C]
    heads = lambda m: m.reshape(T, n_head, C // n_head).transpose(1, 0, 2)  # [heads, T, dk]
    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(C // n_head)  # [heads, T, T]
    causal = np.tril(np.ones((T, T)))
    scores = scores * causal - 1e10 * (1 - causal)
    weights = softmax(scores)
    merged = (weights @ v).transpose(1, 0, 2).reshape(T, C)
    return merged @ w["attn.c_proj.weight"] + w["attn.c_proj.bias"], weights


def forward(tensors, config, ids):
    """tensors: bare names → float64 arrays. → (attention [layers][heads, T, T], logits [T, V])."""
    T = len(ids)
    h = tensors["wte.weight"][ids] + tensors["wpe.weight"][:T]
    weights = []
    for l in range(config["n_layer"]):
        w = {k[len("h.%d." % l):]: v for k, v in tensors.items() if k.startswith("h.%d." % l)}
        a, attn = attention(layer_norm(h, w["ln_1.weight"], w["ln_1.bias"]), w, config["n_head"])
        weights.append(attn)
        h = h + a
        m = layer_norm(h, w["ln_2.weight"], w["ln_2.bias"])
        h = h + gelu(m @ w["mlp.c_fc.weight"] + w["mlp.c_fc.bias"]) @ w["mlp.c_proj.weight"] \
            + w["mlp.c_proj.bias"]
    logits = layer_norm(h, tensors["ln_f.weight"], tensors["ln_f.bias"]) @ tensors["wte.weight"].T
    return weights, logits


# ----------------------------------------------------------------------------------------------
# safetensors, both ways


def bf16_bits(a):
    """float32 → bfloat16 bits, round to nearest, ties to even."""
    a = np.asarray(a, dtype=np.float32)
    bits = np.atleast_1d(a).view(np.uint32).astype(np.uint64)
    one, sixteen = np.uint64(1), np.uint64(16)
    rounded = (bits + np.uint64(0x7FFF) + ((bits >> sixteen) & one)) >> sixteen
    return rounded.astype(np.uint16).reshape(a.shape)


def stored(a, dtype):
    """(raw little-endian bytes, the float64 values the file then holds)."""
    a = np.asarray(a, dtype=np.float64)
    if dtype == "F32":
        s = a.astype("<f4")
        return s.tobytes(), s.astype(np.float64)
    if dtype == "F16":
        s = a.astype("<f2")
        return s.tobytes(), s.astype(np.float64)
    bits = np.atleast_1d(bf16_bits(a.astype(np.float32)).astype("<u2"))
    widened = (bits.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    return bits.tobytes(), widened.reshape(a.shape)


def write_safetensors(path, tensors):
    """tensors: [(name, dtype, shape, bytes)] in file order."""
    header, data = {"__metadata__": {"format": "pt"}}, b""
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


def read_safetensors(path):
    """name → float64 array (F32, F16, BF16)."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    data, out = raw[8 + n:], {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        chunk = data[begin:end]
        if entry["dtype"] == "BF16":
            values = (np.frombuffer(chunk, "<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            values = np.frombuffer(chunk, {"F32": "<f4", "F16": "<f2"}[entry["dtype"]])
        out[name] = values.astype(np.float64).reshape(entry["shape"])
    return out


# ----------------------------------------------------------------------------------------------
# Random checkpoints


def random_tensors(config, rs):
    """Bare name → float64 array, in the order transformers' state_dict lists them. Biases and
    LayerNorm parameters are not 0 and 1, so that a tensor read into the wrong place shows."""
    V, T, C = config["vocab_size"], config["n_positions"], config["n_embd"]
    F = config["n_inner"] or 4 * C
    out = {"wte.weight": rs.randn(V, C) * 0.5, "wpe.weight": rs.randn(T, C) * 0.3}
    for l in range(config["n_layer"]):
        p = "h.%d." % l
        out[p + "ln_1.weight"] = 1 + 0.2 * rs.randn(C)
        out[p + "ln_1.bias"] = 0.1 * rs.randn(C)
        out[p + "attn.c_attn.weight"] = rs.randn(C, 3 * C) * 0.5
        out[p + "attn.c_attn.bias"] = 0.2 * rs.randn(3 * C)
        out[p + "attn.c_proj.weight"] = rs.randn(C, C) * 0.3
        out[p + "attn.c_proj.bias"] = 0.1 * rs.randn(C)
        out[p + "ln_2.weight"] = 1 + 0.2 * rs.randn(C)
        out[p + "ln_2.bias"] = 0.1 * rs.randn(C)
        out[p + "mlp.c_fc.weight"] = rs.randn(C, F) * 0.3
        out[p + "mlp.c_fc.bias"] = 0.1 * rs.randn(F)
        out[p + "mlp.c_proj.weight"] = rs.randn(F, C) * 0.3
        out[p + "mlp.c_proj.bias"] = 0.1 * rs.randn(C)
    out["ln_f.weight"] = 1 + 0.2 * rs.randn(C)
    out["ln_f.bias"] = 0.1 * rs.randn(C)
    return out


def gpt2_config(vocab, positions, embd, layers, heads, inner):
    """config.json as transformers writes it (the keys the engine reads, and a few it ignores)."""
    return {
        "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
        "attn_pdrop": 0.1, "bos_token_id": vocab - 1, "embd_pdrop": 0.1,
        "eos_token_id": vocab - 1, "initializer_range": 0.02, "layer_norm_epsilon": 1e-05,
        "model_type": "gpt2", "n_embd": embd, "n_head": heads, "n_inner": inner,
        "n_layer": layers, "n_positions": positions, "reorder_and_upcast_attn": False,
        "resid_pdrop": 0.1, "scale_attn_by_inverse_layer_idx": False,
        "scale_attn_weights": True,
        "task_specific_params": {"text-generation": {"do_sample": True, "max_length": 50}},
        "torch_dtype": "float32", "transformers_version": "4.36.2", "use_cache": True,
        "vocab_size": vocab,
    }


# The three name layouts: the hub's bare names with its causal-mask buffers (h.N.attn.bias
# [1, 1, T, T] and the scalar h.N.attn.masked_bias, which a reader skips); GPT2LMHeadModel's
# "transformer." names with lm_head.weight (= wte.weight); and "transformer." names without it.
LAYOUTS = ("bare", "prefixed", "prefixed_lm_head")
# One shape per dtype, so that each layout also meets n_inner and a head count other than 2.
SHAPES = {
    "F32": dict(vocab=19, positions=8, embd=8, layers=2, heads=2, inner=None),
    "F16": dict(vocab=17, positions=9, embd=8, layers=2, heads=4, inner=20),
    "BF16": dict(vocab=23, positions=8, embd=12, layers=3, heads=3, inner=None),
}


def checkpoint_tensors(config, tensors, layout, dtype):
    """[(name, dtype, shape, bytes)] in file order, and the bare name → stored values."""
    prefix = "" if layout == "bare" else "transformer."
    files, values = [], {}
    for name, a in tensors.items():
        raw, v = stored(a, dtype)
        files.append((prefix + name, dtype, a.shape, raw))
        values[name] = v.reshape(a.shape)
        if layout == "bare" and name.endswith("attn.c_proj.bias"):
            l = name.split(".")[1]
            T = config["n_positions"]
            mask = np.tril(np.ones((T, T))).reshape(1, 1, T, T)
            files.append(("h.%s.attn.bias" % l, dtype, mask.shape, stored(mask, dtype)[0]))
            files.append(("h.%s.attn.masked_bias" % l, dtype, (), stored(-1e4, dtype)[0]))
    if layout == "prefixed_lm_head":
        raw, _ = stored(tensors["wte.weight"], dtype)
        files.append(("lm_head.weight", dtype, tensors["wte.weight"].shape, raw))
    return files, values


def matrix(a):
    """{"shape": [rows, cols], "data": row-major floats} as the other fixtures write them."""
    a = np.asarray(a, dtype=np.float64)
    return {"shape": [int(a.shape[0]), int(a.shape[1])], "data": [float(x) for x in a.reshape(-1)]}


def expected(config, values, ids):
    weights, logits = forward(values, config, np.asarray(ids))
    return {"tokens": [int(i) for i in ids],
            "attention": [[matrix(w[h]) for h in range(w.shape[0])] for w in weights],
            "logits": matrix(logits)}


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=None, allow_nan=False)
        f.write("\n")


def check_against_literal(values, config, ids):
    """The batched attention above against a loop over heads and rows, written out."""
    weights, _ = forward(values, config, ids)
    C, H = config["n_embd"], config["n_head"]
    d = C // H
    x = values["wte.weight"][ids] + values["wpe.weight"][:len(ids)]
    x = layer_norm(x, values["h.0.ln_1.weight"], values["h.0.ln_1.bias"])
    qkv = x @ values["h.0.attn.c_attn.weight"] + values["h.0.attn.c_attn.bias"]
    for h in range(H):
        for i in range(len(ids)):
            q = qkv[i, h * d:(h + 1) * d]
            s = [q @ qkv[j, C + h * d:C + (h + 1) * d] / np.sqrt(d) for j in range(i + 1)]
            e = np.exp(np.asarray(s) - max(s))
            row = np.zeros(len(ids))
            row[:i + 1] = e / e.sum()
            assert np.allclose(row, weights[0][h, i], atol=1e-12), "attention disagrees"


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    for d, dtype in enumerate(("F32", "F16", "BF16")):
        s = SHAPES[dtype]
        config = gpt2_config(s["vocab"], s["positions"], s["embd"], s["layers"], s["heads"],
                             s["inner"])
        for k, layout in enumerate(LAYOUTS):
            rs = np.random.RandomState(1000 + 10 * d + k)
            tensors = random_tensors(config, rs)
            ids = rs.randint(0, config["vocab_size"], size=config["n_positions"] - 1)
            files, values = checkpoint_tensors(config, tensors, layout, dtype)
            check_against_literal(values, config, ids)
            case = os.path.join(FIXTURES, "%s_%s" % (layout, dtype.lower()))
            os.makedirs(case, exist_ok=True)
            write_json(os.path.join(case, "config.json"), config)
            write_safetensors(os.path.join(case, "model.safetensors"), files)
            # The file read back by the reader below must hold what was meant to be written.
            back = read_safetensors(os.path.join(case, "model.safetensors"))
            prefix = "" if layout == "bare" else "transformer."
            for name, v in values.items():
                assert np.array_equal(back[prefix + name], v), name
            write_json(os.path.join(case, "expected.json"), expected(config, values, ids))
            print("%-22s %d layers, %d heads, %s, %d tokens" % (
                os.path.basename(case), config["n_layer"], config["n_head"], dtype, len(ids)))
    # The transformers-written checkpoint, read by this script's own reader.
    with open(os.path.join(HF_TINY, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    values = read_safetensors(os.path.join(HF_TINY, "model.safetensors"))
    ids = [14, 3, 4, 20, 0, 9, 16]
    write_json(os.path.join(FIXTURES, "hf-tiny-gpt2.json"), expected(config, values, ids))
    print("hf-tiny-gpt2.json      %d tensors, tokens %s" % (len(values), ids))


if __name__ == "__main__":
    main()
