// Sparse attention patterns (docs/computation.md, "Sparse and local attention"): which keys each
// query may see, as a list per query, so that attention computes only those scores.
//
//   window(w)       |i − j| ≤ w
//   dilated(w, d)   |i − j| ≤ w·d and d divides i − j: w keys on each side, d apart
//   longformer      window(w), and every pair with a global token on either side
//   bigbird         longformer, and per block of b queries r key blocks drawn by splitmix64
//
// each optionally causal (j ≤ i as well). Cross-attention uses the raw indices, as causal does.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/config.hpp"

namespace attention {

// The allowed keys of each query, in compressed rows: query i sees keys[row_start[i] …
// row_start[i + 1] − 1], ascending and distinct.
struct SparsePattern {
  int n_query = 0;
  int n_key = 0;
  std::vector<int64_t> row_start;  // [n_query + 1]
  std::vector<int> keys;           // [Count()]

  int64_t Count() const { return row_start.empty() ? 0 : row_start.back(); }
  int RowSize(int i) const { return static_cast<int>(row_start[i + 1] - row_start[i]); }
  const int* Row(int i) const { return keys.data() + row_start[i]; }
};

// window, dilated, longformer, bigbird: the types computed sparsely.
bool IsSparsePattern(MaskType type);

// `spec` must be a sparse pattern that passed ValidateInput for these sizes. Time and memory
// O(n_query + allowed pairs (+ their sorting)), never n_query × n_key.
SparsePattern BuildSparsePattern(const MaskSpec& spec, int n_query, int n_key);

// splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): state += 0x9E3779B97F4A7C15,
// then two xor-shift-multiply rounds. The NumPy reference implements the same lines, so that
// both draw the same random blocks.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next();

 private:
  uint64_t state_;
};

// BigBird's random key blocks: for query block 0, 1, …, query_blocks − 1 in turn, min(random,
// key_blocks) distinct key blocks by a partial Fisher–Yates shuffle of 0 … key_blocks − 1 (fresh
// for each query block): for t = 0, 1, …: swap entry t with entry t + Next() % (key_blocks − t).
// One SplitMix64(seed) stream for all blocks. Result [query_blocks][min(random, key_blocks)].
std::vector<std::vector<int>> BigBirdRandomBlocks(uint32_t seed, int query_blocks, int key_blocks,
                                                  int random);

}  // namespace attention
