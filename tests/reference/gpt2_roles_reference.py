#!/usr/bin/python3
"""Independent NumPy reference for the head roles the page measures for a GPT-2 checkpoint
("measure roles": the engine's MeasureHeadRoles in steps, model.measureRoles). Written from the
definitions in cpp/include/attention/train/head_roles.hpp, not from the engine's code:

    windows   the first `max_windows` full windows of `window` ids of the sample
    a role    names for each query i a set K_i of keys j <= i (a query without keys not counted)
              previous  {i-1}, i >= 1 (positional: no position-matched bar)
              lineStart {the last mark before i}, unless it is i-1 or the window's first token
              duplicate {every j < i-1 with the same symbol}, for queries that are not a mark or <unk>
              first     {0}, i >= 2
              induction on `repeats` sequences of r = window/2 random ids (MT19937 seeded with
                        `seed`, each id 4 + draw % (V - 4)) then the same r again: {i - r + 1}, i >= r
              broad     the row's entropy over ln(i+1), i >= 1 (chance 1)
              couplet, rhyme (poem lines) and the part-of-speech roles (tags) are not measured
    score     mean over counted queries of sum_{j in K_i} w[i, j]; chance: mean of |K_i|/(i+1)
    o[d]      the head's mean weight d back over every query i >= d of every text window
    matched   mean of sum_{j in K_i} o[i-j]; ratio = score/chance, matchedRatio = score/matched
    roles     the roles with ratio >= 3 and (positional or matchedRatio >= 2), best ratio first,
              those within 10% of the best; else broad if its score >= 0.85

on tests/fixtures/gpt2/bare_f32 (2 layers x 2 heads, context 8) with gpt2_reference.py's
forward pass. Writes tests/fixtures/gpt2/roles.json. Run from the repository root after
gpt2_reference.py:
    /usr/bin/python3 tests/reference/gpt2_roles_reference.py
"""

import json
import os

import numpy as np

from gpt2_reference import FIXTURES, forward, read_safetensors

MARKS = ["\n", "\uff0c", "\u3002", "\uff01", "\uff1f", "\uff1b", ".", "!", "?", ";"]
ROLE_ORDER = ["previous", "lineStart", "couplet", "rhyme", "duplicate", "first", "induction", "broad"]
SPECIAL = 4  # the engine's vocabulary reserves 4 ids; the random ids are drawn above them


def text_keys(role, symbols):
    T = len(symbols)
    keys, last_mark = [], -1
    for i in range(T):
        k = []
        mark = symbols[i] in MARKS
        if role == "previous" and i >= 1:
            k = [i - 1]
        elif role == "lineStart" and last_mark >= 1 and last_mark != i - 1:
            k = [last_mark]
        elif role == "duplicate" and not mark and symbols[i] != "<unk>":
            k = [j for j in range(i - 1) if symbols[j] == symbols[i]]
        elif role == "first" and i >= 2:
            k = [0]
        keys.append(k)
        if mark:
            last_mark = i
    return keys


def pool(weights_list, keys_list):
    """[T, T] weights and key lists per sequence → (weight sum, uniform sum, queries, offsets)."""
    total = uniform = 0.0
    queries = 0
    offsets = {}
    for w, keys in zip(weights_list, keys_list):
        for i, k in enumerate(keys):
            if not k:
                continue
            queries += 1
            uniform += len(k) / (i + 1)
            for j in k:
                total += w[i, j]
                offsets[i - j] = offsets.get(i - j, 0) + 1
    return total, uniform, queries, offsets


def main():
    case = os.path.join(FIXTURES, "bare_f32")
    with open(os.path.join(case, "config.json")) as f:
        config = json.load(f)
    tensors = read_safetensors(os.path.join(case, "model.safetensors"))
    V, T = config["vocab_size"], config["n_positions"]
    L, H = config["n_layer"], config["n_head"]
    window, max_windows, repeats, seed, batch = T, 4, 5, 3, 3
    # A sample of 5 windows (the measure reads 4) and symbols with two marks: "." and "\n".
    ids = [int(x) for x in np.random.RandomState(11).randint(0, V, size=5 * T + 3)]
    symbols = ["w%d" % v for v in range(V)]
    symbols[3], symbols[5], symbols[7] = ".", "\n", "<unk>"

    windows = [ids[s * T:(s + 1) * T] for s in range(max_windows)]
    text_weights = [forward(tensors, config, w)[0] for w in windows]  # [window][layer][H, T, T]
    rs = np.random.RandomState(seed)
    r = window // 2
    sequences = []
    for _ in range(repeats):
        half = [SPECIAL + int(rs.randint(0, 2 ** 32, dtype=np.uint64)) % (V - SPECIAL) for _ in range(r)]
        sequences.append(half + half + [SPECIAL] * (window - 2 * r))
    repeat_weights = [forward(tensors, config, s)[0] for s in sequences]

    heads = []
    for l in range(L):
        for h in range(H):
            text_w = [tw[l][h] for tw in text_weights]
            o = np.zeros(T)
            for d in range(T):
                o[d] = np.mean([w[i, i - d] for w in text_w for i in range(d, T)])
            scores = {}
            for role in ["previous", "lineStart", "duplicate", "first", "induction"]:
                if role == "induction":
                    ind = [[[i - r + 1] if r <= i < 2 * r else [] for i in range(window)]] * repeats
                    total, uniform, queries, offsets = pool([rw[l][h] for rw in repeat_weights], ind)
                else:
                    keys = [text_keys(role, [symbols[v] for v in w]) for w in windows]
                    total, uniform, queries, offsets = pool(text_w, keys)
                if queries == 0:
                    continue
                score, chance = total / queries, uniform / queries
                matched = sum(n * o[d] for d, n in offsets.items()) / queries
                scores[role] = {"score": score, "chance": chance, "ratio": score / chance,
                                "matched": matched,
                                "matchedRatio": score / matched if matched > 0 else 0.0,
                                "queries": queries}
            entropy = []
            for w in text_w:
                for i in range(1, T):
                    row = w[i, :i + 1]
                    row = row[row > 0]
                    entropy.append(-(row * np.log(row)).sum() / np.log(i + 1))
            scores["broad"] = {"score": float(np.mean(entropy)), "chance": 1.0,
                               "ratio": float(np.mean(entropy)), "matched": 0.0,
                               "matchedRatio": 0.0, "queries": len(entropy)}
            held = [x for x in ROLE_ORDER if x in scores and x != "broad"
                    and scores[x]["ratio"] >= 3.0
                    and (x == "previous" or scores[x]["matchedRatio"] >= 2.0)]
            held.sort(key=lambda x: -scores[x]["ratio"])  # stable: a tie keeps the role order
            roles = [x for x in held if scores[x]["ratio"] * 1.1 >= scores[held[0]]["ratio"]]
            if not roles and scores["broad"]["score"] >= 0.85:
                roles = ["broad"]
            heads.append({"layer": l, "head": h, "roles": roles,
                          "scores": {k: {f: float(v) for f, v in s.items()} for k, s in scores.items()}})

    out = {"case": "bare_f32", "window": window, "maxWindows": max_windows, "repeats": repeats,
           "seed": seed, "batch": batch, "ids": ids, "symbols": symbols, "windows": max_windows,
           "heads": heads}
    with open(os.path.join(FIXTURES, "roles.json"), "w") as f:
        json.dump(out, f, indent=None, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()
