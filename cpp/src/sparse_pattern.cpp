#include "attention/sparse_pattern.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace attention {

bool IsSparsePattern(MaskType type) {
  return type == MaskType::kWindow || type == MaskType::kLongformer || type == MaskType::kBigBird ||
         type == MaskType::kDilated;
}

uint64_t SplitMix64::Next() {
  state_ += 0x9E3779B97F4A7C15ull;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<std::vector<int>> BigBirdRandomBlocks(uint32_t seed, int query_blocks, int key_blocks,
                                                  int random) {
  SplitMix64 rng(seed);
  const int draws = std::min(random, key_blocks);
  std::vector<std::vector<int>> chosen(static_cast<size_t>(query_blocks));
  // The shuffled list 0 … key_blocks − 1 is kept as its swapped entries only (entry x is
  // moved[x] if present, else x): O(random) per query block, never query_blocks × key_blocks.
  std::unordered_map<int, int> moved;
  const auto entry = [&](int x) {
    const auto found = moved.find(x);
    return found == moved.end() ? x : found->second;
  };
  for (auto& blocks : chosen) {
    moved.clear();
    for (int t = 0; t < draws; ++t) {
      const int pick = t + static_cast<int>(rng.Next() % static_cast<uint64_t>(key_blocks - t));
      const int at_t = entry(t), at_pick = entry(pick);
      moved[t] = at_pick;
      moved[pick] = at_t;
    }
    blocks.resize(static_cast<size_t>(draws));
    for (int t = 0; t < draws; ++t) blocks[static_cast<size_t>(t)] = entry(t);
  }
  return chosen;
}

SparsePattern BuildSparsePattern(const MaskSpec& spec, int n_query, int n_key) {
  SparsePattern p;
  p.n_query = n_query;
  p.n_key = n_key;
  p.row_start.assign(static_cast<size_t>(n_query) + 1, 0);
  const bool with_globals = spec.type == MaskType::kLongformer || spec.type == MaskType::kBigBird;
  std::vector<char> global_query(static_cast<size_t>(n_query), 0);
  std::vector<int> global_keys;  // ascending, distinct, < n_key
  if (with_globals) {
    for (int g : spec.global_tokens) {
      if (g < n_query) global_query[static_cast<size_t>(g)] = 1;
      if (g < n_key) global_keys.push_back(g);
    }
    std::sort(global_keys.begin(), global_keys.end());
    global_keys.erase(std::unique(global_keys.begin(), global_keys.end()), global_keys.end());
  }
  std::vector<std::vector<int>> random_blocks;
  if (spec.type == MaskType::kBigBird) {
    const int b = spec.block;
    random_blocks =
        BigBirdRandomBlocks(spec.seed, (n_query + b - 1) / b, (n_key + b - 1) / b, spec.random);
  }
  const int step = spec.type == MaskType::kDilated ? spec.dilation : 1;
  const int64_t reach = static_cast<int64_t>(spec.width) * step;  // the farthest band key
  std::vector<int> row;
  for (int i = 0; i < n_query; ++i) {
    // Keys up to `last` only: the causal cut, or the last key.
    const int last = spec.causal ? std::min(i, n_key - 1) : n_key - 1;
    row.clear();
    if (global_query[static_cast<size_t>(i)]) {
      for (int j = 0; j <= last; ++j) row.push_back(j);
    } else {
      // The band: i − reach … i + reach, every `step`-th key (i's own residue class).
      const int64_t low = i - reach;
      const int64_t first = low >= 0 ? low : i % step;  // i − k·step ≥ 0 for the largest such k
      for (int64_t j = first; j <= std::min<int64_t>(i + reach, last); j += step) {
        row.push_back(static_cast<int>(j));
      }
      bool sorted = true;
      for (int g : global_keys) {
        if (g > last) break;
        row.push_back(g);
        sorted = false;
      }
      if (!random_blocks.empty()) {
        for (int kb : random_blocks[static_cast<size_t>(i / spec.block)]) {
          const int begin = kb * spec.block;
          const int end = std::min(begin + spec.block - 1, last);
          for (int j = begin; j <= end; ++j) row.push_back(j);
          sorted = false;
        }
      }
      if (!sorted) {
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
      }
    }
    p.keys.insert(p.keys.end(), row.begin(), row.end());
    p.row_start[static_cast<size_t>(i) + 1] = static_cast<int64_t>(p.keys.size());
  }
  return p;
}

}  // namespace attention
