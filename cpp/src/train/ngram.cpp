#include "attention/train/ngram.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attention::train {

namespace {

// Lexicographic order of the `length` ids at ids[at …] against `query[0 … length)`.
int Compare(const int* ids, uint32_t at, const int* query, int length) {
  for (int i = 0; i < length; ++i) {
    if (ids[at + i] != query[i]) return ids[at + i] < query[i] ? -1 : 1;
  }
  return 0;
}

// Sorts positions by the `length` ids that start there, then merges equal grams into one
// position and how many positions had it: [distinct grams] as (position, count).
template <typename Gram>
std::vector<Gram> Distinct(const std::vector<int>& ids, std::vector<uint32_t> positions,
                           int length) {
  const int* data = ids.data();
  std::sort(positions.begin(), positions.end(),
            [&](uint32_t a, uint32_t b) { return Compare(data, a, data + b, length) < 0; });
  std::vector<Gram> grams;
  for (size_t i = 0; i < positions.size();) {
    size_t j = i + 1;
    while (j < positions.size() && Compare(data, positions[i], data + positions[j], length) == 0) {
      ++j;
    }
    grams.push_back({positions[i], static_cast<uint32_t>(j - i)});
    i = j;
  }
  return grams;
}

// Chen & Goodman's D1, D2, D3+ from the count-of-counts n_1 … n_4 (ngram.hpp: edge cases).
std::array<double, 3> EstimateDiscounts(const std::array<int64_t, 5>& n) {
  const double y = n[1] + 2 * n[2] > 0 ? static_cast<double>(n[1]) / (n[1] + 2.0 * n[2]) : 0.0;
  std::array<double, 3> d{};
  for (int r = 1; r <= 3; ++r) {
    const double formula = n[r] > 0 ? r - (r + 1) * y * n[r + 1] / static_cast<double>(n[r]) : y;
    // At or below 0 (repeated text: many more grams seen r + 1 times than r times), a context
    // whose grams all have count r would keep no mass for the rest: Ney's single discount.
    d[static_cast<size_t>(r - 1)] = std::min<double>(r, formula > 0 ? formula : y);
  }
  return d;
}

double DiscountOf(const std::array<double, 3>& d, int64_t count) {
  return count <= 0 ? 0.0 : d[static_cast<size_t>(std::min<int64_t>(count, 3) - 1)];
}

}  // namespace

KneserNey::KneserNey(const std::vector<int>& train_ids, int order, int vocab_size)
    : train_ids_(train_ids),
      order_(std::max(1, std::min(order, kMaxOrder))),
      vocab_size_(vocab_size),
      levels_(static_cast<size_t>(order_)),
      raw_levels_(static_cast<size_t>(order_ - 1)) {
  const size_t n = train_ids_.size();
  // Every position of a gram of `length` ids, in text order.
  const auto starts = [&](int length) {
    std::vector<uint32_t> at(n >= static_cast<size_t>(length) ? n - length + 1 : 0);
    std::iota(at.begin(), at.end(), 0u);
    return at;
  };
  // The highest order counts raw n-grams; order k < n counts, for each k-gram, the distinct
  // (k + 1)-grams that end with it (its distinct left neighbours): their suffixes, merged.
  // Each order k < n also keeps its raw counts: the highest order of the order-k model that
  // scores a window's first positions.
  std::vector<Gram> above = Distinct<Gram>(train_ids_, starts(order_), order_);
  levels_[static_cast<size_t>(order_ - 1)].grams = above;
  for (int k = order_ - 1; k >= 1; --k) {
    std::vector<uint32_t> suffixes;
    suffixes.reserve(above.size());
    for (const Gram& g : above) suffixes.push_back(g.at + 1);
    levels_[static_cast<size_t>(k - 1)].grams = Distinct<Gram>(train_ids_, suffixes, k);
    above = Distinct<Gram>(train_ids_, starts(k), k);
    raw_levels_[static_cast<size_t>(k - 1)].grams = above;
  }
  for (int k = 1; k <= order_; ++k) {
    Finish(k, &levels_[static_cast<size_t>(k - 1)]);
    if (k < order_) Finish(k, &raw_levels_[static_cast<size_t>(k - 1)]);
  }
}

void KneserNey::Finish(int k, Level* level) const {
  std::array<int64_t, 5> count_of_counts{};
  for (const Gram& g : level->grams) {
    if (g.count <= 4) ++count_of_counts[static_cast<size_t>(g.count)];
  }
  level->d = EstimateDiscounts(count_of_counts);
  // Contexts: runs of grams with the same first k − 1 ids (one empty context at order 1).
  for (const Gram& g : level->grams) {
    if (level->contexts.empty() ||
        Compare(train_ids_.data(), level->contexts.back().at, train_ids_.data() + g.at, k - 1)) {
      level->contexts.push_back({g.at, 0, {0, 0, 0}});
    }
    Context& c = level->contexts.back();
    c.total += g.count;
    ++c.n[std::min<uint32_t>(g.count, 3) - 1];
  }
}

double KneserNey::ProbabilityAt(int k, const int* gram) const {
  const int* data = train_ids_.data();
  double p = 1.0 / vocab_size_;
  // From order 1 up: order j predicts gram[k − 1] from the j − 1 ids before it; orders below k
  // with continuation counts, order k (the model's highest) with raw counts.
  for (int j = 1; j <= k; ++j) {
    const Level& level = j < k ? levels_[static_cast<size_t>(j - 1)] : Highest(k);
    const int* g = gram + (k - j);
    const auto context = std::lower_bound(
        level.contexts.begin(), level.contexts.end(), g,
        [&](const Context& c, const int* q) { return Compare(data, c.at, q, j - 1) < 0; });
    if (context == level.contexts.end() || Compare(data, context->at, g, j - 1) != 0) continue;
    const auto found = std::lower_bound(
        level.grams.begin(), level.grams.end(), g,
        [&](const Gram& a, const int* q) { return Compare(data, a.at, q, j) < 0; });
    const int64_t count =
        found != level.grams.end() && Compare(data, found->at, g, j) == 0 ? found->count : 0;
    const double gamma =
        level.d[0] * context->n[0] + level.d[1] * context->n[1] + level.d[2] * context->n[2];
    p = (std::max(0.0, count - DiscountOf(level.d, count)) + gamma * p) / context->total;
  }
  return p;
}

std::array<double, 3> KneserNey::RawDiscounts(int k) const { return Highest(k).d; }

const KneserNey::Level& KneserNey::Highest(int k) const {
  return k == order_ ? levels_[static_cast<size_t>(k - 1)]
                     : raw_levels_[static_cast<size_t>(k - 1)];
}

double KneserNey::Probability(const int* history, int history_length, int next) const {
  const int k = std::min(order_, history_length + 1);
  std::array<int, kMaxOrder> gram{};
  std::copy(history + history_length - (k - 1), history + history_length, gram.begin());
  gram[static_cast<size_t>(k - 1)] = next;
  return ProbabilityAt(k, gram.data());
}

std::vector<double> KneserNey::TargetLosses(const std::vector<int>& ids, int length) const {
  std::vector<double> nats;
  // HeldOutWindows' windows: inputs ids[s … e − 1], targets ids[s + 1 … e], s = 0, T, 2T, ….
  for (size_t start = 0; start + 1 < ids.size(); start += static_cast<size_t>(length)) {
    const size_t end = std::min(ids.size() - 1, start + static_cast<size_t>(length));
    for (size_t target = start + 1; target <= end; ++target) {
      const int seen = static_cast<int>(std::min<size_t>(target - start, order_ - 1));
      nats.push_back(-std::log(Probability(ids.data() + target - seen, seen, ids[target])));
    }
  }
  return nats;
}

double KneserNeyLoss(const std::vector<int>& train_ids, const std::vector<int>& heldout_ids,
                     int vocab_size, int order, int length) {
  const std::vector<double> nats =
      KneserNey(train_ids, order, vocab_size).TargetLosses(heldout_ids, length);
  return nats.empty() ? 0.0 : std::accumulate(nats.begin(), nats.end(), 0.0) / nats.size();
}

}  // namespace attention::train
