#!/usr/bin/python3
"""Independent NumPy reference for the attention engine; writes tests/fixtures/*.json.

Written straight from docs/computation.md, in float64, plain NumPy, one function per step.
The random generator IS NumPy's legacy RandomState (MT19937 + polar Gaussian): that is the
definition the C++ engine must reproduce bit for bit.

Run with Debian's Python and NumPy (not a pyenv one):
    /usr/bin/python3 tests/reference/make_fixtures.py
"""

import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# FIXTURES_OUT lets the test command regenerate into a scratch folder and compare.
FIXTURES = os.environ.get("FIXTURES_OUT") or os.path.normpath(os.path.join(HERE, "..", "fixtures"))

# Default configuration (docs/computation.md): hash embedding, PE on, scale on, T = 1,
# no biases, W_O on. init "scaled" is the engine default for everything but the tutorials.
DEFAULT_CONFIG = {
    "dModel": 16,
    "heads": 1,
    "dK": 0,  # 0 = auto: dModel / heads
    "seed": 42,
    "mask": {"type": "none"},
    "scale": True,
    "temperature": 1.0,
    "bias": False,
    "outputProjection": True,
    "init": "scaled",
    "positionalEncoding": True,
    "embedding": "hash",
}

# ----------------------------------------------------------------------------------------------
# Step 1: embeddings


def fnv1a64(text):
    """64-bit FNV-1a of the UTF-8 bytes of text."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def hash_key(text, seed):
    """[lo, hi, seed]: the init_by_array key of the token's embedding row."""
    h = fnv1a64(text)
    return [h & 0xFFFFFFFF, h >> 32, seed]


def hash_embedding(tokens, d_model, seed):
    """X [n x dModel]: row i = RandomState([lo, hi, seed]).randn(dModel)."""
    rows = []
    for tok in tokens:
        rs = np.random.RandomState(np.array(hash_key(tok, seed), dtype=np.uint32))
        rows.append(rs.randn(d_model))  # [dModel]
    return np.array(rows, dtype=np.float64).reshape(len(tokens), d_model)


def positional_encoding(n, d_model):
    """PE [n x dModel]: PE[p, 2i] = sin(p / 10000^(2i/dModel)), PE[p, 2i+1] = cos(same)."""
    pe = np.zeros((n, d_model))
    for p in range(n):
        for c in range(d_model):
            two_i = c - (c % 2)
            angle = p / (10000.0 ** (two_i / d_model))
            pe[p, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return pe


# ----------------------------------------------------------------------------------------------
# Weights: one stream RandomState(seed), always in the same order


def draw_weights(rs, d_model, P, init):
    """W_Q, W_K, W_V [dModel x P], W_O [P x dModel], b_Q, b_K, b_V [1 x P], b_O [1 x dModel]."""
    w = {}
    w["wQ"] = rs.randn(d_model, P)
    w["wK"] = rs.randn(d_model, P)
    w["wV"] = rs.randn(d_model, P)
    w["wO"] = rs.randn(P, d_model)
    w["bQ"] = rs.randn(P).reshape(1, P)
    w["bK"] = rs.randn(P).reshape(1, P)
    w["bV"] = rs.randn(P).reshape(1, P)
    w["bO"] = rs.randn(d_model).reshape(1, d_model)
    if init == "scaled":
        fan_in = {"wQ": d_model, "wK": d_model, "wV": d_model, "bQ": d_model, "bK": d_model,
                  "bV": d_model, "wO": P, "bO": P}
        for name in w:
            w[name] = w[name] * (1.0 / math.sqrt(fan_in[name]))
    elif init != "randn":
        raise ValueError("init must be randn or scaled")
    return w


# ----------------------------------------------------------------------------------------------
# Steps 2-10


# The sparse patterns (docs/computation.md, "Sparse and local attention"): the engine computes
# only their scores; here they are plain dense masks, built pair by pair from the definitions.
SPARSE_PATTERNS = ("window", "longformer", "bigbird", "dilated")
MASK64 = 0xFFFFFFFFFFFFFFFF


def splitmix64(seed):
    """splitmix64 (Vigna's reference code) as a generator of 64-bit integers."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def bigbird_random_blocks(seed, query_blocks, key_blocks, r):
    """For each query block in order, min(r, key_blocks) distinct key blocks: a partial
    Fisher-Yates shuffle of 0..key_blocks-1 (fresh per query block), swapping entry t with
    entry t + next % (key_blocks - t); one splitmix64(seed) stream for all blocks."""
    rng = splitmix64(seed)
    chosen = []
    for _ in range(query_blocks):
        order = list(range(key_blocks))
        for t in range(min(r, key_blocks)):
            pick = t + next(rng) % (key_blocks - t)
            order[t], order[pick] = order[pick], order[t]
        chosen.append(set(order[:min(r, key_blocks)]))
    return chosen


def pattern_allows(spec, i, j, random_blocks):
    """Whether a sparse pattern lets query i see key j (raw indices, as causal)."""
    kind, w = spec["type"], spec["width"]
    if spec.get("causal", False) and j > i:
        return False
    if kind == "dilated":
        d = spec["dilation"]
        return abs(i - j) <= w * d and (i - j) % d == 0
    if abs(i - j) <= w:
        return True
    if kind in ("longformer", "bigbird") and (i in spec["global"] or j in spec["global"]):
        return True
    if kind == "bigbird":
        return j // spec["block"] in random_blocks[i // spec["block"]]
    return False


def build_mask(spec, n, m):
    """mask [n x m]: 1.0 where query i may attend to key j."""
    mask = np.zeros((n, m))
    kind = spec["type"]
    random_blocks = None
    if kind == "bigbird":
        b = spec["block"]
        random_blocks = bigbird_random_blocks(spec["seed"], -(-n // b), -(-m // b), spec["random"])
    for i in range(n):
        for j in range(m):
            if kind == "none":
                ok = True
            elif kind == "causal":
                ok = j <= i
            elif kind in SPARSE_PATTERNS:
                ok = pattern_allows(spec, i, j, random_blocks)
            elif kind == "padding":
                ok = j not in spec["positions"]
            elif kind == "custom":
                ok = spec["matrix"][i][j] == 1
            else:
                raise ValueError("unknown mask type " + kind)
            mask[i, j] = 1.0 if ok else 0.0
    return mask


def project(x_pe, w, b, use_bias):
    """[rows x dModel] @ [dModel x P] (+ [1 x P]) -> [rows x P]."""
    out = x_pe @ w
    if use_bias:
        out = out + b
    return out


def head_columns(mat, h, d_k):
    """Columns h*dK .. h*dK+dK-1 of [rows x P] -> [rows x dK]."""
    return mat[:, h * d_k:(h + 1) * d_k]


def masked_softmax(masked):
    """Row softmax exp(x - rowmax) / sum; masked entries exactly 0; all-masked rows all 0."""
    n, m = masked.shape
    weights = np.zeros((n, m))
    for i in range(n):
        row = masked[i]
        live = row != -np.inf
        if not live.any():
            continue  # every key masked: the row stays all zeros
        e = np.zeros(m)
        e[live] = np.exp(row[live] - row[live].max())
        weights[i] = e / e.sum()
    return weights


def row_entropy(weights):
    """[n x 1]: -sum_j A log A, natural log, 0 log 0 = 0."""
    ent = np.zeros((weights.shape[0], 1))
    for i in range(weights.shape[0]):
        a = weights[i][weights[i] > 0]
        ent[i, 0] = -np.sum(a * np.log(a)) if a.size else 0.0
    return ent


def attention_head(q_h, k_h, v_h, mask, alpha, sparse=False):
    """One head: q_h [n x dK], k_h, v_h [m x dK], mask [n x m] -> dict of per-head steps.
    A sparse pattern's steps are the dense mask's: its trace shows every score of a head it
    is asked for, though its output uses only the pattern's."""
    scores = q_h @ k_h.T                                   # [n x m]
    scaled = scores * alpha                                # [n x m]
    masked = np.where(mask == 1.0, scaled, -np.inf)        # [n x m]
    weights = masked_softmax(masked)                       # [n x m]
    row_max = weights.max(axis=1, keepdims=True)           # [n x 1]
    entropy = row_entropy(weights)                         # [n x 1]
    head_out = weights @ v_h                               # [n x dK]
    return {"qHead": q_h, "kHead": k_h, "vHead": v_h, "scores": scores, "scaled": scaled,
            "masked": masked, "weights": weights, "rowMax": row_max, "rowEntropy": entropy,
            "headOutput": head_out}


def feature_map(x):
    """phi(x) = elu(x) + 1: x + 1 where x > 0, exp(x) elsewhere; always > 0."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def linear_attention_head(q_h, k_h, v_h, mask, causal):
    """Linear attention (Katharopoulos et al. 2020) straight from its formula, one head:
    out_i = phi(q_i)^T S_i / z_i, S_i = sum_{j visible} phi(k_j) v_j^T, z_i = phi(q_i)^T sum phi(k_j);
    causal: j <= i, as prefix sums (np.cumsum). q_h [n x dK], k_h, v_h [m x dK]."""
    n, m = q_h.shape[0], k_h.shape[0]
    phi_q = feature_map(q_h)                                   # [n x dK]
    phi_k = feature_map(k_h)                                   # [m x dK]
    outer = phi_k[:, :, None] * v_h[:, None, :]                # [m x dK x dK], phi(k_j) v_j^T
    kv_summary = outer.sum(axis=0)                             # [dK x dK], every key
    key_sum = phi_k.sum(axis=0, keepdims=True)                 # [1 x dK]
    if causal:
        prefix_kv = np.cumsum(outer, axis=0)                   # [m x dK x dK]: S over j <= i
        prefix_k = np.cumsum(phi_k, axis=0)                    # [m x dK]
        last = [min(i, m - 1) for i in range(n)]               # query i sees keys 0 .. min(i, m-1)
        numerator = np.stack([phi_q[i] @ prefix_kv[last[i]] for i in range(n)])   # [n x dK]
        z = np.array([phi_q[i] @ prefix_k[last[i]] for i in range(n)])            # [n]
    else:
        numerator = phi_q @ kv_summary                         # [n x dK]
        z = phi_q @ key_sum[0]                                 # [n]
    head_out = numerator / z[:, None]                          # [n x dK]
    # The implied weights, formed here only to display and to check the output path.
    linear_weights = (phi_q @ phi_k.T) * mask / z[:, None]     # [n x m]
    return {"phiQ": phi_q, "phiK": phi_k, "kvSummary": kv_summary, "keySum": key_sum,
            "normaliser": z.reshape(n, 1), "linearWeights": linear_weights,
            "headOutput": head_out}


# ----------------------------------------------------------------------------------------------
# Costs


def count_params(d_model, P, bias, output_projection):
    params = 3 * d_model * P + (3 * P if bias else 0)
    if output_projection:
        params += P * d_model + (d_model if bias else 0)
    return params


def count_flops(n, m, d_model, heads, d_k, bias, output_projection, attention="softmax",
                computed=None):
    """computed: the (query, key) pairs a sparse pattern computes (None: dense, all n*m)."""
    P = heads * d_k
    c = n * m if computed is None else computed
    if attention == "linear":
        return {
            "qProjection": 2 * n * d_model * P + (n * P if bias else 0),
            "kProjection": 2 * m * d_model * P + (m * P if bias else 0),
            "vProjection": 2 * m * d_model * P + (m * P if bias else 0),
            "scores": 0, "scaling": 0, "mask": 0, "softmax": 0,
            "featureMap": (n + m) * P,                                 # one elu + 1 per entry
            "summary": 2 * m * d_k * d_k * heads + m * d_k * heads,    # sum phi(k) v^T, sum phi(k)
            "normaliser": 2 * n * d_k * heads,                         # phi(q)^T sum phi(k)
            "weightedSum": 2 * n * d_k * d_k * heads + n * d_k * heads,  # phi(q)^T S, / z
            "outputProjection": (2 * n * P * d_model + (n * d_model if bias else 0))
            if output_projection else 0,
        }
    return {
        "qProjection": 2 * n * d_model * P + (n * P if bias else 0),
        "kProjection": 2 * m * d_model * P + (m * P if bias else 0),
        "vProjection": 2 * m * d_model * P + (m * P if bias else 0),
        "scores": 2 * c * d_k * heads,
        "scaling": c * heads,
        "mask": n * m * heads if computed is None else 0,  # a pattern masks nothing
        "softmax": 5 * c * heads,
        "weightedSum": 2 * c * d_k * heads,
        "outputProjection": (2 * n * P * d_model + (n * d_model if bias else 0))
        if output_projection else 0,
    }


# ----------------------------------------------------------------------------------------------
# The whole pipeline


def run(config, tokens, kv_tokens=None, given=None, store=lambda a: a):
    """Returns (steps, params, flops). `store` is applied to every drawn or given input
    (identity for the fixtures; float32 rounding for the sensitivity report)."""
    given = given or {}
    d_model, heads, seed = config["dModel"], config["heads"], config["seed"]
    d_k = config["dK"] or d_model // heads
    if not config["dK"]:
        assert d_model % heads == 0, "auto dK needs heads | dModel"
    P = heads * d_k
    cross = kv_tokens is not None
    n = len(tokens)
    m = len(kv_tokens) if cross else n

    # Step 1: X (and X_kv) [n x dModel], [m x dModel]; the weight stream
    rs = np.random.RandomState(seed)
    emb = config["embedding"]
    if emb == "hash":
        x = hash_embedding(tokens, d_model, seed)
        x_kv = hash_embedding(kv_tokens, d_model, seed) if cross else None
    elif emb == "stream":
        x = rs.randn(n, d_model)
        x_kv = rs.randn(m, d_model) if cross else None
    elif emb == "given":
        x = np.array(given["x"], dtype=np.float64)
        x_kv = np.array(given["xKv"], dtype=np.float64) if cross else None
    else:
        raise ValueError("unknown embedding " + emb)
    x = store(x)
    x_kv = store(x_kv) if cross else None
    assert x.shape == (n, d_model)

    w = draw_weights(rs, d_model, P, config["init"])
    for name in w:
        if name in given:
            w[name] = np.array(given[name], dtype=np.float64).reshape(w[name].shape)
        w[name] = store(w[name])

    # Positional encoding; projections read X + PE
    if config["positionalEncoding"]:
        pe = positional_encoding(n, d_model)
        pe_kv = positional_encoding(m, d_model) if cross else None
    else:
        pe = np.zeros((n, d_model))
        pe_kv = np.zeros((m, d_model)) if cross else None
    x_pe = x + pe                                           # [n x dModel]
    x_pe_kv = x_kv + pe_kv if cross else x_pe               # [m x dModel]

    # Steps 2-4: projections [n x P], [m x P], [m x P]
    bias = config["bias"]
    q = project(x_pe, w["wQ"], w["bQ"], bias)
    k = project(x_pe_kv, w["wK"], w["bK"], bias)
    v = project(x_pe_kv, w["wV"], w["bV"], bias)

    # Mask [n x m], rowMasked [n x 1]
    mask = build_mask(config["mask"], n, m)
    row_masked = (mask.sum(axis=1, keepdims=True) == 0).astype(np.float64)

    # Steps 5-9 per head
    alpha = (1.0 / math.sqrt(d_k) if config["scale"] else 1.0) / config["temperature"]
    attention = config.get("attention", "softmax")
    sparse = config["mask"]["type"] in SPARSE_PATTERNS and attention == "softmax"
    per_head = [attention_head(head_columns(q, h, d_k), head_columns(k, h, d_k),
                               head_columns(v, h, d_k), mask, alpha, sparse)
                for h in range(heads)]
    if attention == "linear":
        # The softmax steps scores .. weights stay for comparison; the head output is linear's.
        assert config["mask"]["type"] in ("none", "causal"), "linear: mask none or causal"
        assert config["scale"] and config["temperature"] == 1.0, "linear: no score scaling"
        causal = config["mask"]["type"] == "causal"
        for h, ph in enumerate(per_head):
            del ph["rowMax"], ph["rowEntropy"]
            ph.update(linear_attention_head(head_columns(q, h, d_k), head_columns(k, h, d_k),
                                            head_columns(v, h, d_k), mask, causal))
    elif attention != "softmax":
        raise ValueError("attention must be softmax or linear")

    # Step 10: concat [n x P], output [n x dModel]
    concat = np.concatenate([ph["headOutput"] for ph in per_head], axis=1)
    if config["outputProjection"]:
        output = concat @ w["wO"] + (w["bO"] if bias else 0.0)
    else:
        output = concat

    steps = {"x": x, "pe": pe, "xPe": x_pe}
    if cross:
        steps.update({"xKv": x_kv, "peKv": pe_kv, "xPeKv": x_pe_kv})
    steps.update(w)
    steps.update({"q": q, "k": k, "v": v, "mask": mask, "rowMasked": row_masked,
                  "concat": concat, "output": output})
    for name in per_head[0]:
        steps[name] = [ph[name] for ph in per_head]

    params = count_params(d_model, P, bias, config["outputProjection"])
    flops = count_flops(n, m, d_model, heads, d_k, bias, config["outputProjection"], attention,
                        int(mask.sum()) if sparse else None)
    return steps, params, flops


# ----------------------------------------------------------------------------------------------
# JSON encoding


def encode_matrix(a, allow_neg_inf=False, allow_nan=False):
    """{"shape": [rows, cols], "data": row-major floats}; -inf as the string "-inf", NaN
    as "nan" (allowed in scores and scaled; no committed fixture holds one)."""
    a = np.asarray(a, dtype=np.float64)
    assert a.ndim == 2
    data = []
    for value in a.reshape(-1):
        if value == -np.inf and allow_neg_inf:
            data.append("-inf")
        elif np.isnan(value) and allow_nan:
            data.append("nan")
        else:
            assert np.isfinite(value), "non-finite value outside masked"
            data.append(float(value))
    return {"shape": [int(a.shape[0]), int(a.shape[1])], "data": data}


def encode_steps(steps):
    out = {}
    for name, value in steps.items():
        if isinstance(value, list):
            out[name] = [encode_matrix(v, allow_neg_inf=(name == "masked"),
                                       allow_nan=(name in ("scores", "scaled")))
                         for v in value]
        else:
            out[name] = encode_matrix(value)
    return out


def write_json(name, obj):
    path = os.path.join(FIXTURES, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=None, ensure_ascii=False, allow_nan=False)
        f.write("\n")
    return path


# ----------------------------------------------------------------------------------------------
# Cases

ZH_SENTENCE = ["小明", "在", "北京", "的", "清华大学", "读书"]
HOTPOT = ["我", "爱", "吃", "火锅"]
TWENTY = ("the quick brown fox jumps over the lazy dog while a small bird sings "
          "softly in the old oak tree").split()
assert len(TWENTY) == 20


def given_inputs_default_rng():
    """X and every weight/bias from a DIFFERENT generator (default_rng(123)), dModel 12, P 12."""
    rng = np.random.default_rng(123)
    n, d, P = 5, 12, 12
    return {
        "x": rng.normal(0.0, 1.0, size=(n, d)),
        "wQ": rng.normal(0.0, 0.3, size=(d, P)),
        "wK": rng.normal(0.0, 0.3, size=(d, P)),
        "wV": rng.normal(0.0, 0.3, size=(d, P)),
        "wO": rng.normal(0.0, 0.3, size=(P, d)),
        "bQ": rng.normal(0.0, 0.1, size=(1, P)),
        "bK": rng.normal(0.0, 0.1, size=(1, P)),
        "bV": rng.normal(0.0, 0.1, size=(1, P)),
        "bO": rng.normal(0.0, 0.1, size=(1, d)),
    }


def partial_given_wk():
    """Only W_K supplied (16 x 16, from default_rng(7)); every other matrix is drawn."""
    rng = np.random.default_rng(7)
    return {"wK": rng.uniform(-0.5, 0.5, size=(16, 16))}


CASES = [
    dict(name="tutorial_seed42",
         description="The seed tutorial verbatim: np.random.seed(42), X, W_q, W_k, W_v drawn "
                     "with randn, weights = softmax(QK^T/2), no PE, no W_O.",
         config=dict(dModel=8, heads=1, dK=4, seed=42, embedding="stream", init="randn",
                     positionalEncoding=False, bias=False, outputProjection=False),
         tokens=HOTPOT),
    dict(name="hash_single_head",
         description="Hash embeddings (repeated 'the' has identical rows), one head, PE and W_O.",
         config=dict(dModel=16, heads=1, seed=7),
         tokens="the cat sat on the mat".split()),
    dict(name="multi_head_causal",
         description="Four heads, causal mask, biases and W_O on a Chinese sentence.",
         config=dict(dModel=32, heads=4, seed=3, mask={"type": "causal"}, bias=True),
         tokens=["猫", "追", "着", "球", "跑"]),
    dict(name="window",
         description="Two heads with a symmetric sliding window of width 1.",
         config=dict(dModel=16, heads=2, seed=11,
                     mask={"type": "window", "width": 1, "causal": False}),
         tokens=ZH_SENTENCE),
    dict(name="window_causal",
         description="Two heads with a causal sliding window of width 2.",
         config=dict(dModel=16, heads=2, seed=12,
                     mask={"type": "window", "width": 2, "causal": True}),
         tokens=ZH_SENTENCE),
    dict(name="custom_mask_all_masked_row",
         description="Custom 0/1 mask whose row 2 is all zeros: that row's weights and output "
                     "are all zero and flagged in rowMasked.",
         config=dict(dModel=16, heads=2, seed=21,
                     mask={"type": "custom", "matrix": [[1, 1, 0, 0], [1, 1, 1, 0],
                                                        [0, 0, 0, 0], [1, 0, 1, 1]]}),
         tokens=["a", "b", "c", "d"]),
    dict(name="padding",
         description="Padding mask hiding key positions 3 and 4 from every query.",
         config=dict(dModel=16, heads=2, seed=13, mask={"type": "padding", "positions": [3, 4]}),
         tokens=["hello", "world", "!", "<pad>", "<pad>"]),
    dict(name="no_scaling_randn",
         description="No 1/sqrt(dK) scaling and raw randn weights at dModel 64 (explicit dK 16, "
                     "so P 32 < dModel): saturated softmax.",
         config=dict(dModel=64, heads=2, dK=16, seed=17, scale=False, init="randn"),
         tokens=["attention", "is", "all", "you", "need", "."]),
    dict(name="temperature_half",
         description="Temperature 0.5 sharpens the softmax (alpha = 2/sqrt(dK)).",
         config=dict(dModel=16, heads=2, seed=9, temperature=0.5),
         tokens=["sharp", "and", "soft", "attention"]),
    dict(name="temperature_two",
         description="Temperature 2.0 flattens the softmax (alpha = 1/(2 sqrt(dK))).",
         config=dict(dModel=16, heads=2, seed=9, temperature=2.0),
         tokens=["sharp", "and", "soft", "attention"]),
    dict(name="cross_attention",
         description="Cross-attention: English queries over Chinese keys/values, hash "
                     "embeddings, PE positions from 0 on both sides.",
         config=dict(dModel=16, heads=2, seed=42),
         tokens=["I", "love", "hotpot"], kvTokens=HOTPOT),
    dict(name="cross_attention_stream",
         description="Cross-attention with stream embeddings: X then X_kv are drawn before "
                     "the weights.",
         config=dict(dModel=16, heads=2, seed=42, embedding="stream"),
         tokens=["I", "love", "hotpot"], kvTokens=HOTPOT),
    dict(name="given_matrices_bias",
         description="X and every weight and bias supplied by the caller (from "
                     "np.random.default_rng(123)), three heads, biases, causal, PE added.",
         config=dict(dModel=12, heads=3, seed=0, embedding="given", bias=True,
                     mask={"type": "causal"}),
         tokens=["one", "two", "three", "four", "five"],
         given=given_inputs_default_rng()),
    dict(name="partial_given_weight",
         description="Only W_K is supplied (used as is, not rescaled by init); the others are "
                     "still drawn from the stream in the usual order.",
         config=dict(dModel=16, heads=2, seed=7, bias=True),
         tokens="the cat sat on the mat".split(),
         given=partial_given_wk()),
    dict(name="odd_sizes_stream",
         description="Odd dModel 7 with explicit dK 2 and 3 heads (P 6); X has 21 values, so "
                     "the polar method's spare Gaussian carries into W_Q.",
         config=dict(dModel=7, heads=3, dK=2, seed=2024, embedding="stream", bias=True),
         tokens=["x", "y", "z"]),
    dict(name="many_heads",
         description="Twenty English tokens, dModel 64, eight heads, scaled init, PE on.",
         config=dict(dModel=64, heads=8, seed=5),
         tokens=TWENTY),
    dict(name="linear",
         description="Linear attention, phi = elu + 1, every query over every key, two heads; "
                     "the softmax steps of the same Q, K stay for comparison.",
         config=dict(dModel=8, heads=2, seed=42, attention="linear"),
         tokens=HOTPOT),
    dict(name="linear_causal",
         description="Causal linear attention (prefix sums), two heads, biases and W_O.",
         config=dict(dModel=8, heads=2, seed=3, mask={"type": "causal"}, bias=True,
                     attention="linear"),
         tokens=["猫", "追", "着", "球", "跑"]),
    dict(name="linear_cross_causal",
         description="Causal linear cross-attention with more keys (4) than queries (3): the "
                     "last key reaches no query but is in the shown sums kvSummary and keySum.",
         config=dict(dModel=8, heads=2, seed=42, mask={"type": "causal"}, attention="linear",
                     init="randn"),
         tokens=["I", "love", "hotpot"], kvTokens=HOTPOT),
    dict(name="longformer",
         description="Longformer: a window of half-width 1 plus global tokens 0 and 7, which "
                     "attend to every key and are attended by every query; two heads. Scores "
                     "outside the pattern are never computed (NaN in scores and scaled).",
         config=dict(dModel=8, heads=2, seed=31,
                     mask={"type": "longformer", "width": 1, "causal": False, "global": [0, 7]}),
         tokens=TWENTY[:12]),
    dict(name="bigbird",
         description="BigBird: window 1, global token 0, and per block of 4 queries one key "
                     "block drawn by splitmix64(seed 7) (a partial Fisher-Yates shuffle).",
         config=dict(dModel=8, heads=2, seed=32,
                     mask={"type": "bigbird", "width": 1, "causal": False, "global": [0],
                           "block": 4, "random": 1, "seed": 7}),
         tokens=TWENTY[:16]),
    dict(name="dilated_causal",
         description="A causal dilated window: keys i, i-2, i-4 (half-width 2, dilation 2, "
                     "j <= i).",
         config=dict(dModel=8, heads=2, seed=33,
                     mask={"type": "dilated", "width": 2, "causal": True, "dilation": 2}),
         tokens=TWENTY[4:16]),
]


def full_config(overrides):
    cfg = dict(DEFAULT_CONFIG)
    cfg.update(overrides)
    return cfg


def make_fixture(case, store=lambda a: a):
    cfg = full_config(case["config"])
    given = case.get("given", {})
    steps, params, flops = run(cfg, case["tokens"], case.get("kvTokens"), given, store)
    return cfg, given, steps, params, flops


def fixture_json(case, cfg, given, steps, params, flops):
    return {
        "name": case["name"],
        "description": case["description"],
        "config": cfg,
        "tokens": case["tokens"],
        "kvTokens": case.get("kvTokens"),
        "given": {name: encode_matrix(value) for name, value in given.items()},
        "steps": encode_steps(steps),
        "params": params,
        "flops": flops,
    }


# ----------------------------------------------------------------------------------------------
# Checks against the tutorial's literal code and other invariants


def tutorial_literal():
    """The seed tutorial's own code, verbatim in spirit (global np.random)."""
    np.random.seed(42)
    X = np.random.randn(4, 8)
    W_q = np.random.randn(8, 4)
    W_k = np.random.randn(8, 4)
    W_v = np.random.randn(8, 4)
    Q = X @ W_q
    K = X @ W_k
    V = X @ W_v
    scores = Q @ K.T / np.sqrt(4)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights = weights / weights.sum(axis=1, keepdims=True)
    output = weights @ V
    return weights, output


def check_case(case, steps):
    name = case["name"]
    if name == "tutorial_seed42":
        weights, output = tutorial_literal()
        assert np.max(np.abs(steps["weights"][0] - weights)) < 1e-12, "tutorial weights"
        assert np.max(np.abs(steps["output"] - output)) < 1e-12, "tutorial output"
    if name in ("hash_single_head", "partial_given_weight"):
        assert np.array_equal(steps["x"][0], steps["x"][4]), "repeated 'the' must match"
    if name == "custom_mask_all_masked_row":
        assert steps["rowMasked"][:, 0].tolist() == [0.0, 0.0, 1.0, 0.0]
        for h in range(len(steps["weights"])):
            assert not steps["weights"][h][2].any() and not steps["headOutput"][h][2].any()
    if name == "partial_given_weight":
        assert np.array_equal(steps["wK"], case["given"]["wK"])
    if not full_config(case["config"])["outputProjection"]:
        assert np.array_equal(steps["output"], steps["concat"])
    if name == "bigbird":
        # splitmix64's published first output for seed 0 (Vigna's splitmix64.c).
        assert next(splitmix64(0)) == 0xE220A8397B1DCDAF
        assert bigbird_random_blocks(7, 4, 4, 1) == [{3}, {0}, {2}, {3}]
    if full_config(case["config"])["mask"]["type"] in SPARSE_PATTERNS:
        mask = steps["mask"]
        for h in range(len(steps["scores"])):
            assert not np.isnan(steps["scores"][h]).any(), "every score shown, none NaN"
            assert (steps["weights"][h][mask == 0] == 0).all()
    if "linearWeights" in steps:
        # The implied weights: rows sum to 1, 0 where masked, and they give the output path's
        # head output (out = W V), which never formed them.
        for h, w in enumerate(steps["linearWeights"]):
            assert np.allclose(w.sum(axis=1), 1.0, atol=1e-12), "linear weights rows sum to 1"
            assert not w[steps["mask"] == 0].any()
            v_h = head_columns(steps["v"], h, steps["headOutput"][h].shape[1])
            assert np.allclose(w @ v_h, steps["headOutput"][h], atol=1e-12), "out = W V"
    for h, w in enumerate(steps["weights"]):
        live = steps["rowMasked"][:, 0] == 0
        assert np.allclose(w[live].sum(axis=1), 1.0, atol=1e-12)
        assert not w[steps["mask"] == 0].any(), "masked weights must be exactly 0"


def generator_fixture():
    seeds = []
    for s in (0, 1, 42, 4294967295):
        seeds.append({"seed": s,
                      "randn": [float(v) for v in np.random.RandomState(s).randn(1001)]})
    # The upper half of the seed range (uint32 seeds of 2^31 and more), fewer draws each.
    high_seeds = [{"seed": s, "randn": [float(v) for v in np.random.RandomState(s).randn(33)]}
                  for s in (2147483647, 2147483648, 3000000000)]
    assert abs(high_seeds[2]["randn"][0] + 2.20997438) < 1e-8  # np.random.seed(3000000000)
    keys = [hash_key("the", 7), hash_key("我", 0), [0xFFFFFFFF, 0xFFFFFFFF, 4294967295]]
    array_seeds = []
    for key in keys:
        rs = np.random.RandomState(np.array(key, dtype=np.uint32))
        array_seeds.append({"key": [int(k) for k in key],
                            "randn": [float(v) for v in rs.randn(33)]})
    texts = ["", "a", "the", "我", "火锅", "👨\u200d👩\u200d👧", "é"]
    fnv = [{"text": t, "hex": "%016x" % fnv1a64(t)} for t in texts]
    # Known FNV-1a 64 values
    assert fnv[0]["hex"] == "cbf29ce484222325" and fnv[1]["hex"] == "af63dc4c8601ec8c"
    params512 = count_params(512, 512, True, True)
    assert params512 == 1050624
    return {"seeds": seeds, "highSeeds": high_seeds, "arraySeeds": array_seeds, "fnv1a64": fnv,
            "params512": params512}


# ----------------------------------------------------------------------------------------------


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    f32 = lambda a: np.asarray(a, dtype=np.float32).astype(np.float64)  # noqa: E731
    rows = []
    for case in CASES:
        cfg, given, steps, params, flops = make_fixture(case)
        check_case(case, steps)
        path = write_json(case["name"], fixture_json(case, cfg, given, steps, params, flops))
        # Sensitivity: how far output moves if every input is rounded to float32 first.
        out32 = make_fixture(case, store=f32)[2]["output"]
        d_out = float(np.max(np.abs(out32 - steps["output"])))
        if case["name"] == "tutorial_seed42":
            print("tutorial_seed42 weights (rounded to 3 decimals):")
            print(np.round(steps["weights"][0], 3))
        d_k = cfg["dK"] or cfg["dModel"] // cfg["heads"]
        rows.append((case["name"], len(case["tokens"]),
                     len(case["kvTokens"]) if case.get("kvTokens") else len(case["tokens"]),
                     cfg["dModel"], cfg["heads"], d_k, cfg["mask"]["type"], cfg["embedding"],
                     params, os.path.getsize(path), d_out))
    gpath = write_json("generator", generator_fixture())

    print()
    header = ("name", "n", "m", "dModel", "heads", "dK", "mask", "embedding", "params", "bytes",
              "max|dOut| f32 inputs")
    fmt = "{:<28} {:>3} {:>3} {:>6} {:>5} {:>3} {:<8} {:<9} {:>7} {:>8} {:>20}"
    print(fmt.format(*header))
    for r in rows:
        print(fmt.format(*r[:-1], "%.3g" % r[-1]))
    total = sum(os.path.getsize(os.path.join(FIXTURES, f)) for f in os.listdir(FIXTURES)
                if f.endswith(".json"))
    print("generator.json: %d bytes" % os.path.getsize(gpath))
    print("%d case fixtures + generator.json, %d bytes in %s" % (len(rows), total, FIXTURES))
    # 2.3 MB: the softmax cases filled 1.98 MB; linear attention's three small cases add 67 KB,
    # the sparse patterns' three (12-16 tokens, dModel 8) about 0.15 MB.
    assert total < 2300000, "fixtures folder must stay under 2.3 MB"
    return 0


if __name__ == "__main__":
    sys.exit(main())
