#!/usr/bin/python3
"""Independent reference for the Kneser–Ney baselines: interpolated modified
Kneser–Ney n-grams of orders 3 and 5, written from Chen & Goodman (1998), "An empirical study of
smoothing techniques for language modeling" (TR-10-98), §3.5 (interpolated Kneser–Ney with the
continuation counts N1+(• w) for the lower orders) and §4.1.6 (modified Kneser–Ney: three
discounts D1, D2, D3+ per order from the count-of-counts), interpolated down to the uniform
distribution 1/V. Pure Python, dictionaries of n-gram tuples, a recursive p(w | h): its own
code, not a transcription of cpp/src/train/ngram.cpp.

The edge rules the paper leaves open, shared with the C++ (cpp/include/attention/train/ngram.hpp):
Y = 0 when n1 + 2 n2 = 0; D_r = Y when n_r = 0 or when the formula gives D_r <= 0; every D_r at
most r; a context never
seen at an order hands its whole mass to the order below; the held-out target at position t of
a window (windows of T inputs, consecutive, as HeldOutWindows cuts them) is predicted from the
last min(n − 1, t + 1) ids of that window only, the context the transformer has, by the KN model
of order min(n, t + 2): with fewer than n − 1 ids of history (a window's first positions) the
model is the one of that lower order, raw counts at its own highest order, as a KN k-gram model
counted on the same text is, not the order-n model's continuation-count level.

Writes tests/fixtures/ngram/kneser_ney.json: for two small committed texts (the first
characters of models/heldout/tang.txt, the first words of models/heldout/brown.txt), the train
and held-out ids, the vocabulary size, the discounts of every order (as the order-n model counts
it, and of its raw counts), the KN-3 and KN-5 held-out
losses and the KN-5 loss by position bucket (1, 2–4, 5–8, 9–16, 17+).
tests/cpp/train_ngram_test.cpp compares the C++ with it at 1e-9 relative.

    /usr/bin/python3 tests/reference/kneser_ney_reference.py
"""

import json
import math
import os
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
FIXTURES = os.path.join(
    os.environ.get("FIXTURES_OUT") or os.path.join(ROOT, "tests", "fixtures"), "ngram")

BUCKETS = [(1, 1), (2, 4), (5, 8), (9, 16), (17, None)]


class ModifiedKneserNey:
    def __init__(self, train, order, vocab_size):
        self.n = order
        self.V = vocab_size
        # raw[k]: {k-gram tuple: its count in the training ids}, every order 1 … n.
        # continuation[k]: {k-gram tuple: N1+(• g), its distinct left neighbours}, orders below n.
        self.raw = {k: Counter(tuple(train[i:i + k]) for i in range(len(train) - k + 1))
                    for k in range(1, order + 1)}
        self.continuation = {}
        for k in range(1, order):
            bigger = set(tuple(train[i:i + k + 1]) for i in range(len(train) - k))
            self.continuation[k] = Counter(g[1:] for g in bigger)
        self.tables = {("raw", k): c for k, c in self.raw.items()}
        self.tables.update({("continuation", k): c for k, c in self.continuation.items()})
        self.discount_table = {key: self.estimate_discounts(c) for key, c in self.tables.items()}
        # The order-n model's discounts per order: continuation below n, raw at n.
        self.discounts = {k: self.discount_table[self.kind(k, order)] for k in range(1, order + 1)}
        self.raw_discounts = {k: self.discount_table[("raw", k)] for k in range(1, order + 1)}
        # contexts[key]: {h: (c(h •), N1(h •), N2(h •), N3+(h •))} of each table
        self.contexts = {}
        for key, counts in self.tables.items():
            stats = defaultdict(lambda: [0, 0, 0, 0])
            for g, c in counts.items():
                s = stats[g[:-1]]
                s[0] += c
                s[min(c, 3)] += 1
            self.contexts[key] = dict(stats)

    @staticmethod
    def kind(k, top):
        """The counts order k uses inside a model whose highest order is `top`."""
        return ("raw", k) if k == top else ("continuation", k)

    @staticmethod
    def estimate_discounts(counts):
        n = Counter(counts.values())  # n[r]: how many grams have count r
        y = n[1] / (n[1] + 2 * n[2]) if n[1] + 2 * n[2] > 0 else 0.0
        out = []
        for r in (1, 2, 3):
            d = r - (r + 1) * y * n[r + 1] / n[r] if n[r] > 0 else y
            out.append(min(float(r), d if d > 0 else y))
        return out

    def p(self, history, w):
        """p(w | history) of the KN model of order k = len(history) + 1 ≤ n: raw counts at its
        highest order k, continuation counts below (the order-n model itself when k = n)."""
        return self.interpolated(tuple(history), w, len(history) + 1)

    def interpolated(self, h, w, top):
        k = len(h) + 1
        lower = 1.0 / self.V if k == 1 else self.interpolated(h[1:], w, top)
        key = self.kind(k, top)
        stats = self.contexts[key].get(h)
        if stats is None or stats[0] == 0:
            return lower
        total, n1, n2, n3 = stats
        c = self.tables[key].get(h + (w,), 0)
        d1, d2, d3 = self.discount_table[key]
        own = 0.0 if c == 0 else self.discount_table[key][min(c, 3) - 1]
        gamma = d1 * n1 + d2 * n2 + d3 * n3
        return (max(c - own, 0.0) + gamma * lower) / total

    def target_losses(self, ids, length):
        """−ln p of each target of the held-out windows, in order, with its position (1-based)."""
        out = []
        for start in range(0, len(ids) - 1, length):
            end = min(len(ids) - 1, start + length)
            for target in range(start + 1, end + 1):
                t = target - start  # ids seen in the window, 1 … T
                seen = min(self.n - 1, t)
                out.append((t, -math.log(self.p(ids[target - seen:target], ids[target]))))
        return out


def by_position(losses, length):
    rows = []
    for first, last in BUCKETS:
        if first > length:
            break
        last = length if last is None else min(last, length)
        chosen = [nats for t, nats in losses if first <= t <= last]
        rows.append({"first": first, "last": last, "targets": len(chosen),
                     "loss": sum(chosen) / len(chosen) if chosen else 0.0})
    return rows


def encode(symbols, train_count, heldout_count, vocab_limit):
    """ids by frequency in the train part (ties by symbol), 0 = <unk> for the rest; two unused
    ids at the end, so that 1/V reaches symbols the training text never has."""
    train, held = symbols[:train_count], symbols[train_count:train_count + heldout_count]
    ranked = sorted(Counter(train).items(), key=lambda kv: (-kv[1], kv[0]))[:vocab_limit]
    index = {s: i + 1 for i, (s, _) in enumerate(ranked)}
    return ([index.get(s, 0) for s in train], [index.get(s, 0) for s in held], len(index) + 3)


def self_check(model, ids):
    """Each distribution sums to 1 over the vocabulary, at every order, on a few contexts."""
    for i in range(model.n - 1, min(len(ids), model.n + 20)):
        for k in range(1, model.n + 1):
            h = ids[i - k + 1:i]
            total = sum(model.p(h, w) for w in range(model.V))
            assert abs(total - 1.0) < 1e-12, "p(· | %s) sums to %r" % (h, total)


def make_case(name, symbols, train_count, heldout_count, vocab_limit, length):
    train, held, vocab_size = encode(symbols, train_count, heldout_count, vocab_limit)
    case = {"name": name, "vocabSize": vocab_size, "length": length, "train": train,
            "heldOut": held}
    for order in (3, 5):
        model = ModifiedKneserNey(train, order, vocab_size)
        self_check(model, held)
        losses = model.target_losses(held, length)
        case["kn%d" % order] = {
            "loss": sum(nats for _, nats in losses) / len(losses),
            "targets": len(losses),
            "discounts": [model.discounts[k] for k in range(1, order + 1)],
            "rawDiscounts": [model.raw_discounts[k] for k in range(1, order + 1)],
            "byPosition": by_position(losses, length),
        }
    return case


def main():
    with open(os.path.join(ROOT, "models", "heldout", "tang.txt"), encoding="utf-8") as f:
        tang = list(f.read())
    with open(os.path.join(ROOT, "models", "heldout", "brown.txt"), encoding="utf-8") as f:
        brown = f.read().split()
    cases = [make_case("tang_characters", tang, 3000, 700, 400, 24),
             make_case("brown_words", brown, 2500, 500, 600, 20)]
    os.makedirs(FIXTURES, exist_ok=True)
    path = os.path.join(FIXTURES, "kneser_ney.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"cases": cases}, f, indent=None, allow_nan=False)
        f.write("\n")
    for c in cases:
        print("%-16s V %4d, %5d train ids, %4d held-out: KN-3 %.6f, KN-5 %.6f nats" % (
            c["name"], c["vocabSize"], len(c["train"]), len(c["heldOut"]), c["kn3"]["loss"],
            c["kn5"]["loss"]))
    print("%s: %d bytes" % (path, os.path.getsize(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
