#!/usr/bin/python3
"""Independent NumPy reference for training: the loss and EVERY parameter gradient
of small transformer language models; writes tests/fixtures/train/*.json (a folder of their
own, so that the attention suites, which read every tests/fixtures/*.json, never see them).

Its own forward and backward pass in float64, written from the model's definition
(cpp/include/attention/train/model_config.hpp), not from the C++: tensors are [B, T, ...],
attention is batched over heads, and LayerNorm and softmax are differentiated through their
full Jacobian matrices rather than the closed forms the C++ uses. Weights come from NumPy's
seeded RandomState and are stored in the fixture with the tokens, targets and loss weights,
so the C++ test (tests/cpp/train_reference_test.cpp) loads them and compares.

Run with Debian's Python and NumPy, from the repository root:
    /usr/bin/python3 tests/reference/train_reference.py
"""

import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# FIXTURES_OUT: the fixtures folder to write into (test.sh regenerates into a scratch one).
FIXTURES = os.path.join(
    os.environ.get("FIXTURES_OUT") or os.path.normpath(os.path.join(HERE, "..", "fixtures")), "train")

LN_EPS = 1e-5
GELU_C = math.sqrt(2.0 / math.pi)

# ----------------------------------------------------------------------------------------------
# Parameters: names, shapes and order (the C++ ParameterLayout must agree: the test checks it)


def layout(cfg):
    """[(name, rows, cols)] in buffer order."""
    V, d, P, F = cfg["vocabSize"], cfg["dModel"], cfg["heads"] * cfg["dK"], 4 * cfg["dModel"]
    norm = not cfg["attentionOnly"]
    out = [("tokenEmbedding", V, d)]
    if cfg["positionalEncoding"] == "learned":
        out.append(("positionEmbedding", cfg["contextLength"], d))
    for l in range(cfg["layers"]):
        p = "layers.%d." % l
        if norm:
            out += [(p + "ln1Gain", 1, d), (p + "ln1Bias", 1, d)]
        out += [(p + "wQ", d, P), (p + "bQ", 1, P), (p + "wK", d, P), (p + "bK", 1, P),
                (p + "wV", d, P), (p + "bV", 1, P), (p + "wO", P, d), (p + "bO", 1, d)]
        if norm:
            out += [(p + "ln2Gain", 1, d), (p + "ln2Bias", 1, d), (p + "w1", d, F),
                    (p + "b1", 1, F), (p + "w2", F, d), (p + "b2", 1, d)]
    if norm:
        out += [("lnFinalGain", 1, d), ("lnFinalBias", 1, d)]
    if not cfg["tiedEmbeddings"]:
        out.append(("unembedding", V, d))
    return out


def draw_parameters(cfg, rs, std):
    """Every tensor from one stream, in layout order. Gains near 1 and biases not 0, so that
    their gradients are generic."""
    params = {}
    for name, rows, cols in layout(cfg):
        x = rs.randn(rows, cols)
        if name.endswith("Gain"):
            params[name] = 1.0 + 0.1 * x
        elif name.split(".")[-1] in ("bQ", "bK", "bV", "bO", "b1", "b2") or name.endswith("Bias"):
            params[name] = 0.1 * x
        else:
            params[name] = std * x
    return params


# ----------------------------------------------------------------------------------------------
# Operations: forward returns (out, cache), backward takes the cache


def sinusoid(T, d):
    """PE [T, d]: PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same angle)."""
    pe = np.zeros((T, d))
    for p in range(T):
        for c in range(d):
            angle = p / 10000.0 ** ((c - c % 2) / d)
            pe[p, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return pe


def layernorm(x, g, b):
    """x [B, T, d] -> [B, T, d]."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    norm = (x - mean) / np.sqrt(var + LN_EPS)
    return norm * g[0] + b[0], (x, g)


def layernorm_backward(dout, cache):
    """dout [B, T, d] -> dx, dgain [1, d], dbias [1, d]; dx through each row's Jacobian
    J[j, k] = ∂norm_j/∂x_k = (δjk − 1/d)·s − (x_j − μ)(x_k − μ)·s³/d, s = 1/√(var + eps)."""
    x, g = cache
    d = x.shape[-1]
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    s = 1.0 / np.sqrt(var + LN_EPS)
    norm = (x - mean) * s
    dgain = (dout * norm).sum(axis=(0, 1)).reshape(1, d)
    dbias = dout.sum(axis=(0, 1)).reshape(1, d)
    dnorm = dout * g[0]
    dx = np.zeros_like(x)
    eye = np.eye(d)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            c = x[b, t] - mean[b, t]
            st = s[b, t, 0]
            jac = (eye - 1.0 / d) * st - np.outer(c, c) * st ** 3 / d
            dx[b, t] = jac.T @ dnorm[b, t]
    return dx, dgain, dbias


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(GELU_C * (x + 0.044715 * x ** 3)))


def gelu_backward(dout, x):
    u = GELU_C * (x + 0.044715 * x ** 3)
    sech2 = 1.0 / np.cosh(u) ** 2
    return dout * (0.5 * (1.0 + np.tanh(u)) + 0.5 * x * sech2 * GELU_C * (1.0 + 3 * 0.044715 * x ** 2))


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(x, p, pre, cfg):
    """Multi-head attention of x [B, T, d] -> [B, T, d]; heads as a batch axis [B, H, T, dK]."""
    B, T, _ = x.shape
    H, dk = cfg["heads"], cfg["dK"]
    split = lambda m: m.reshape(B, T, H, dk).transpose(0, 2, 1, 3)
    q = split(x @ p[pre + "wQ"] + p[pre + "bQ"][0])
    k = split(x @ p[pre + "wK"] + p[pre + "bK"][0])
    v = split(x @ p[pre + "wV"] + p[pre + "bV"][0])
    alpha = 1.0 / math.sqrt(dk) if cfg["scale"] else 1.0
    visible = np.tril(np.ones((T, T))) if cfg["causal"] else np.ones((T, T))
    scaled = np.where(visible > 0, alpha * (q @ k.transpose(0, 1, 3, 2)), -np.inf)
    a = softmax(scaled)  # [B, H, T, T]
    concat = (a @ v).transpose(0, 2, 1, 3).reshape(B, T, H * dk)
    out = concat @ p[pre + "wO"] + p[pre + "bO"][0]
    return out, (x, q, k, v, a, concat, alpha)


def attention_backward(dout, cache, p, pre, g):
    x, q, k, v, a, concat, alpha = cache
    B, T, _ = x.shape
    H, dk = q.shape[1], q.shape[3]
    g[pre + "wO"] += np.einsum("btp,btd->pd", concat, dout)
    g[pre + "bO"] += dout.sum(axis=(0, 1))[None, :]
    dconcat = dout @ p[pre + "wO"].T
    dy = dconcat.reshape(B, T, H, dk).transpose(0, 2, 1, 3)  # [B, H, T, dK]
    da = dy @ v.transpose(0, 1, 3, 2)
    dv = a.transpose(0, 1, 3, 2) @ dy
    # softmax through its Jacobian diag(a) − a·aᵀ, one row at a time
    dscaled = np.zeros_like(a)
    for b in range(B):
        for h in range(H):
            for i in range(T):
                row = a[b, h, i]
                dscaled[b, h, i] = (np.diag(row) - np.outer(row, row)) @ da[b, h, i]
    dscores = alpha * dscaled
    g["<dscores_sq>"] = g.get("<dscores_sq>", 0.0) + float((dscores**2).sum())
    dq = dscores @ k
    dk_ = dscores.transpose(0, 1, 3, 2) @ q
    merge = lambda m: m.transpose(0, 2, 1, 3).reshape(B, T, H * dk)
    dx = np.zeros_like(x)
    for name, dm in (("Q", merge(dq)), ("K", merge(dk_)), ("V", merge(dv))):
        g[pre + "w" + name] += np.einsum("btd,btp->dp", x, dm)
        g[pre + "b" + name] += dm.sum(axis=(0, 1))[None, :]
        dx += dm @ p[pre + "w" + name].T
    return dx


def loss_and_gradients(cfg, p, tokens, targets, weights):
    """tokens, targets [B, T] ints, weights [B, T] -> loss, logits [B, T, V], {name: grad}."""
    B, T = tokens.shape
    d = cfg["dModel"]
    norm = not cfg["attentionOnly"]
    res = cfg["residual"]
    g = {name: np.zeros((r, c)) for name, r, c in layout(cfg)}
    pos = p["positionEmbedding"] if cfg["positionalEncoding"] == "learned" else sinusoid(cfg["contextLength"], d)

    # forward
    x = p["tokenEmbedding"][tokens] + pos[:T][None, :, :]
    caches = []
    for l in range(cfg["layers"]):
        pre = "layers.%d." % l
        c = {"in": x}
        h = x
        if norm:
            h, c["ln1"] = layernorm(x, p[pre + "ln1Gain"], p[pre + "ln1Bias"])
        att, c["att"] = attention(h, p, pre, cfg)
        x = x + att if res else att
        if norm:
            h2, c["ln2"] = layernorm(x, p[pre + "ln2Gain"], p[pre + "ln2Bias"])
            hidden = h2 @ p[pre + "w1"] + p[pre + "b1"][0]
            act = gelu(hidden)
            f = act @ p[pre + "w2"] + p[pre + "b2"][0]
            c["ffn"] = (h2, hidden, act)
            x = x + f if res else f
        caches.append(c)
    final = x
    if norm:
        final, lnf = layernorm(x, p["lnFinalGain"], p["lnFinalBias"])
    u = p["tokenEmbedding"] if cfg["tiedEmbeddings"] else p["unembedding"]
    logits = final @ u.T
    probs = softmax(logits)
    onehot = np.eye(cfg["vocabSize"])[targets]
    wsum = weights.sum()
    loss = float((weights * -np.log((probs * onehot).sum(axis=-1))).sum() / wsum)

    # backward
    dlogits = (probs - onehot) * (weights / wsum)[:, :, None]
    g["tokenEmbedding" if cfg["tiedEmbeddings"] else "unembedding"] += np.einsum("btv,btd->vd", dlogits, final)
    dx = dlogits @ u
    if norm:
        dx, g["lnFinalGain"], g["lnFinalBias"] = layernorm_backward(dx, lnf)
    # The softmax rows' mean entropy in nats over every layer, head and sequence (0·ln 0 = 0).
    rows = [c["att"][4] for c in caches]  # a [B, H, T, T] per layer
    plogp = [np.where(a > 0, a * np.log(np.where(a > 0, a, 1.0)), 0.0) for a in rows]
    entropy = float(sum(-x.sum() for x in plogp) / sum(a.shape[0] * a.shape[1] * a.shape[2] for a in rows))
    for l in reversed(range(cfg["layers"])):
        pre = "layers.%d." % l
        c = caches[l]
        if norm:
            h2, hidden, act = c["ffn"]
            df = dx
            g[pre + "w2"] += np.einsum("btf,btd->fd", act, df)
            g[pre + "b2"] += df.sum(axis=(0, 1))[None, :]
            dhidden = gelu_backward(df @ p[pre + "w2"].T, hidden)
            g[pre + "w1"] += np.einsum("btd,btf->df", h2, dhidden)
            g[pre + "b1"] += dhidden.sum(axis=(0, 1))[None, :]
            dln2, g[pre + "ln2Gain"], g[pre + "ln2Bias"] = layernorm_backward(dhidden @ p[pre + "w1"].T, c["ln2"])
            dx = (dx if res else 0.0) + dln2
        dh = attention_backward(dx, c["att"], p, pre, g)
        if norm:
            dh, g[pre + "ln1Gain"], g[pre + "ln1Bias"] = layernorm_backward(dh, c["ln1"])
        dx = (dx if res else 0.0) + dh
    np.add.at(g["tokenEmbedding"], tokens, dx)
    if cfg["positionalEncoding"] == "learned":
        g["positionEmbedding"][:T] += dx.sum(axis=0)
    # ‖∂L/∂(q·kᵀ)‖₂ over every layer, head and sequence: the scores before ÷√dK.
    stats = {"attentionEntropy": entropy, "scoreGradientNorm": math.sqrt(g.pop("<dscores_sq>"))}
    return loss, logits, g, stats


# ----------------------------------------------------------------------------------------------
# Cases

BASE = {
    "vocabSize": 7, "contextLength": 5, "dModel": 8, "heads": 2, "dK": 4, "layers": 2,
    "causal": True, "scale": True, "residual": True, "attentionOnly": False,
    "tiedEmbeddings": True, "positionalEncoding": "sinusoidal",
}

CASES = [
    # name, overrides, loss weights (None: all 1), seed
    ("full_tied_causal", {}, None, 1),
    ("attention_only", {"attentionOnly": True}, None, 2),
    ("untied_learned_noscale_masked",
     {"tiedEmbeddings": False, "positionalEncoding": "learned", "scale": False, "causal": False,
      "heads": 3, "dK": 3},
     [0.0, 0.0, 1.0, 1.0, 2.5], 3),
]

B = 2
STD = 0.3


def encode(a):
    a = np.asarray(a, dtype=np.float64)
    assert np.all(np.isfinite(a))
    return {"shape": [int(a.shape[0]), int(a.shape[1])], "data": [float(v) for v in a.reshape(-1)]}


def make_case(name, overrides, weights_row, seed):
    cfg = dict(BASE, **overrides)
    rs = np.random.RandomState(seed)
    T = cfg["contextLength"]
    tokens = rs.randint(0, cfg["vocabSize"], size=(B, T))
    targets = rs.randint(0, cfg["vocabSize"], size=(B, T))
    weights = np.ones((B, T)) if weights_row is None else np.tile(np.array(weights_row), (B, 1))
    params = draw_parameters(cfg, rs, STD)
    loss, logits, grads, stats = loss_and_gradients(cfg, params, tokens, targets, weights)
    names = [n for n, _, _ in layout(cfg)]
    return {
        "config": cfg,
        "batch": {"size": B, "length": T, "tokens": tokens.reshape(-1).tolist(),
                  "targets": targets.reshape(-1).tolist(),
                  "lossWeights": [] if weights_row is None else weights.reshape(-1).tolist()},
        "parameters": [dict(name=n, **encode(params[n])) for n in names],
        "loss": loss,
        "logits": encode(logits.reshape(B * T, -1)),
        "gradients": [dict(name=n, **encode(grads[n])) for n in names],
        **stats,
    }


def finite_difference_check(case):
    """Sanity of this script itself: a few central differences against its own gradients."""
    cfg = case["config"]
    p = {t["name"]: np.array(t["data"]).reshape(t["shape"]) for t in case["parameters"]}
    b = case["batch"]
    tok = np.array(b["tokens"]).reshape(b["size"], b["length"])
    tgt = np.array(b["targets"]).reshape(b["size"], b["length"])
    w = np.array(b["lossWeights"]).reshape(tok.shape) if b["lossWeights"] else np.ones(tok.shape)
    worst = 0.0
    for t in case["gradients"]:
        grad = np.array(t["data"]).reshape(t["shape"])
        idx = np.unravel_index(np.argmax(np.abs(grad)), grad.shape)
        saved = p[t["name"]][idx]
        p[t["name"]][idx] = saved + 1e-5
        up = loss_and_gradients(cfg, p, tok, tgt, w)[0]
        p[t["name"]][idx] = saved - 1e-5
        down = loss_and_gradients(cfg, p, tok, tgt, w)[0]
        p[t["name"]][idx] = saved
        worst = max(worst, abs((up - down) / 2e-5 - grad[idx]) / max(abs(grad[idx]), 1e-3))
    assert worst < 1e-6, "the reference's own gradients disagree with finite differences: %g" % worst
    return worst


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    for name, overrides, weights_row, seed in CASES:
        case = make_case(name, overrides, weights_row, seed)
        worst = finite_difference_check(case)
        path = os.path.join(FIXTURES, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(case, f, indent=None, allow_nan=False)
            f.write("\n")
        print("%-40s loss %.6f, %d tensors, %d bytes, self-check %.1e" % (
            name, case["loss"], len(case["gradients"]), os.path.getsize(path), worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
