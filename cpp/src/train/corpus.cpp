#include "attention/train/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "format.hpp"

namespace attention::train {

CorpusStream::CorpusStream(const std::vector<int>* ids, int length, uint32_t seed,
                           double repeat_spans)
    : ids_(ids), length_(length), random_(seed), repeat_spans_(length >= 16 ? repeat_spans : 0.0) {}

namespace {

// An integer uniform in lo … hi from one draw.
int Uniform(RandomState* random, int lo, int hi) {
  return lo + std::min(hi - lo, static_cast<int>(random->NextDouble() * (hi - lo + 1)));
}

}  // namespace

Batch CorpusStream::Take(int count) {
  Batch batch;
  batch.size = count;
  batch.length = length_;
  batch.tokens.resize(static_cast<size_t>(count) * length_);
  batch.targets.resize(batch.tokens.size());
  // Starts 0 … n − T − 1: the window's last target is ids[s + T] ≤ ids[n − 1].
  const uint64_t starts = ids_->size() - static_cast<size_t>(length_);
  std::vector<int> window(static_cast<size_t>(length_) + 1);
  for (int b = 0; b < count; ++b) {
    // A 53-bit uniform double scaled to the range: no modulo bias worth naming at n < 2³².
    const size_t s = static_cast<size_t>(random_.NextDouble() * static_cast<double>(starts));
    std::copy(ids_->data() + s, ids_->data() + s + length_ + 1, window.begin());
    if (repeat_spans_ > 0.0) {
      // Always 4 draws, so that Skip knows how many a window takes.
      const bool repeat = random_.NextDouble() < repeat_spans_;
      const int span = Uniform(&random_, length_ / 8, length_ / 4);
      const int from = Uniform(&random_, 0, length_ + 1 - 2 * span);
      const int to = Uniform(&random_, from + span, length_ + 1 - span);
      if (repeat)
        std::copy(window.begin() + from, window.begin() + from + span, window.begin() + to);
    }
    std::copy(window.begin(), window.end() - 1,
              batch.tokens.begin() + static_cast<size_t>(b) * length_);
    std::copy(window.begin() + 1, window.end(),
              batch.targets.begin() + static_cast<size_t>(b) * length_);
  }
  return batch;
}

void CorpusStream::Skip(int64_t count) {
  // Take's draws per window: the start, and the repeat's four when there are repeats.
  const int draws = repeat_spans_ > 0.0 ? 5 : 1;
  for (int64_t i = 0; i < count * draws; ++i) random_.NextDouble();
}

std::vector<Window> HeldOutWindows(const std::vector<int>& ids, int length) {
  std::vector<Window> windows;
  for (size_t start = 0; start + 1 < ids.size(); start += static_cast<size_t>(length)) {
    const size_t end = std::min(ids.size() - 1, start + static_cast<size_t>(length));
    Window w;
    w.tokens.assign(ids.begin() + static_cast<std::ptrdiff_t>(start),
                    ids.begin() + static_cast<std::ptrdiff_t>(end));
    w.targets.assign(ids.begin() + static_cast<std::ptrdiff_t>(start + 1),
                     ids.begin() + static_cast<std::ptrdiff_t>(end + 1));
    windows.push_back(std::move(w));
  }
  return windows;
}

namespace {

// Runs `ids`' held-out windows through the model in batches of up to `batch` equal-length
// windows (every full window, then the shorter last one alone) and hands each batch, after its
// Forward, to `read`. Errors: too few ids (field "heldOut"), or Forward's.
template <typename Read>
Status ForEachHeldOutBatch(Model<float>* model, const std::vector<int>& ids, int batch, Read read) {
  const std::vector<Window> windows = HeldOutWindows(ids, model->config().context_length);
  if (windows.empty()) {
    return Status(ErrorCode::kInvalidArgument, "heldOut",
                  Format("heldOut has %zu ids; at least 2 are needed", ids.size()));
  }
  for (size_t first = 0; first < windows.size();) {
    const size_t width = windows[first].tokens.size();
    size_t last = first;
    while (last < windows.size() && last - first < static_cast<size_t>(batch) &&
           windows[last].tokens.size() == width) {
      ++last;
    }
    Batch b;
    b.size = static_cast<int>(last - first);
    b.length = static_cast<int>(width);
    for (size_t w = first; w < last; ++w) {
      b.tokens.insert(b.tokens.end(), windows[w].tokens.begin(), windows[w].tokens.end());
      b.targets.insert(b.targets.end(), windows[w].targets.begin(), windows[w].targets.end());
    }
    const Status status = model->Forward(b);
    if (!status.ok()) return status;
    read(b);
    first = last;
  }
  return Status::Ok();
}

}  // namespace

Status HeldOutLoss(Model<float>* model, const std::vector<int>& ids, double* loss, int batch) {
  double sum = 0.0;
  int64_t targets = 0;
  const Status status = ForEachHeldOutBatch(model, ids, batch, [&](const Batch& b) {
    sum += static_cast<double>(model->loss()) * static_cast<double>(b.tokens.size());
    targets += static_cast<int64_t>(b.tokens.size());
  });
  if (!status.ok()) return status;
  *loss = sum / static_cast<double>(targets);
  return Status::Ok();
}

Status HeldOutTargetLosses(Model<float>* model, const std::vector<int>& ids,
                           std::vector<double>* nats, int batch) {
  nats->clear();
  return ForEachHeldOutBatch(model, ids, batch, [&](const Batch& b) {
    // logits [B·T × V], row b·T + t: −ln p = logsumexp(row) − row[target], summed in double.
    int width = 0;
    const float* logits = model->Activation("logits", -1, &width);
    for (size_t row = 0; row < b.targets.size(); ++row) {
      const float* z = logits + row * static_cast<size_t>(width);
      const double top = *std::max_element(z, z + width);
      double sum = 0.0;
      for (int v = 0; v < width; ++v) sum += std::exp(static_cast<double>(z[v]) - top);
      nats->push_back(top + std::log(sum) - static_cast<double>(z[b.targets[row]]));
    }
  });
}

std::vector<PositionLoss> LossByPosition(const std::vector<double>& nats, int length) {
  std::vector<PositionLoss> buckets;
  // Positions 1, 2–4, 5–8, 9–16, 17+: the first ids of a window, where a model has the least
  // context, apart from the bulk; a bucket past the context length is left out.
  constexpr int kBuckets[][2] = {{1, 1}, {2, 4}, {5, 8}, {9, 16}, {17, 1 << 30}};
  for (const auto& bucket : kBuckets) {
    if (bucket[0] > length) break;
    buckets.push_back({bucket[0], std::min(bucket[1], length), 0, 0.0});
  }
  double sums[5] = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < nats.size(); ++i) {
    const int position = static_cast<int>(i % static_cast<size_t>(length)) + 1;
    for (size_t k = 0; k < buckets.size(); ++k) {
      if (position >= buckets[k].first && position <= buckets[k].last) {
        sums[k] += nats[i];
        ++buckets[k].targets;
      }
    }
  }
  for (size_t k = 0; k < buckets.size(); ++k) {
    if (buckets[k].targets > 0) buckets[k].loss = sums[k] / static_cast<double>(buckets[k].targets);
  }
  return buckets;
}

namespace {

// What the baselines need per held-out target: p_unigram(b) and c(a b)/c(a).
struct TargetStats {
  std::vector<double> unigram, conditional;
};

TargetStats CollectTargetStats(const std::vector<int>& train_ids,
                               const std::vector<int>& heldout_ids, int vocab_size, int length) {
  std::vector<int64_t> counts(static_cast<size_t>(vocab_size), 0);
  std::unordered_map<uint64_t, int64_t> pairs;
  pairs.reserve(train_ids.size() / 4 + 16);
  for (size_t i = 0; i < train_ids.size(); ++i) {
    ++counts[static_cast<size_t>(train_ids[i])];
    if (i > 0) {
      ++pairs[static_cast<uint64_t>(train_ids[i - 1]) * static_cast<uint64_t>(vocab_size) +
              static_cast<uint64_t>(train_ids[i])];
    }
  }
  // c(a) as a bigram context: every occurrence but a last one that nothing follows.
  std::vector<int64_t> contexts = counts;
  if (!train_ids.empty()) --contexts[static_cast<size_t>(train_ids.back())];
  const double denominator = static_cast<double>(train_ids.size()) + vocab_size;
  TargetStats stats;
  for (const Window& w : HeldOutWindows(heldout_ids, length)) {
    for (size_t t = 0; t < w.targets.size(); ++t) {
      const int a = w.tokens[t], b = w.targets[t];
      stats.unigram.push_back(static_cast<double>(counts[static_cast<size_t>(b)] + 1) /
                              denominator);
      const int64_t ca = contexts[static_cast<size_t>(a)];
      double conditional = 0.0;
      if (ca > 0) {
        const auto found = pairs.find(static_cast<uint64_t>(a) * static_cast<uint64_t>(vocab_size) +
                                      static_cast<uint64_t>(b));
        if (found != pairs.end()) conditional = static_cast<double>(found->second) / ca;
      }
      stats.conditional.push_back(conditional);
    }
  }
  return stats;
}

double InterpolatedLoss(const TargetStats& stats, double lambda) {
  double sum = 0.0;
  for (size_t i = 0; i < stats.unigram.size(); ++i) {
    sum -= std::log(lambda * stats.conditional[i] + (1.0 - lambda) * stats.unigram[i]);
  }
  return stats.unigram.empty() ? 0.0 : sum / static_cast<double>(stats.unigram.size());
}

}  // namespace

double BigramLoss(const std::vector<int>& train_ids, const std::vector<int>& heldout_ids,
                  int vocab_size, int length, double lambda) {
  return InterpolatedLoss(CollectTargetStats(train_ids, heldout_ids, vocab_size, length), lambda);
}

NgramBaselines ComputeBaselines(const std::vector<int>& train_ids,
                                const std::vector<int>& heldout_ids, int vocab_size, int length) {
  const TargetStats stats = CollectTargetStats(train_ids, heldout_ids, vocab_size, length);
  NgramBaselines base;
  base.targets = static_cast<int64_t>(stats.unigram.size());
  base.unigram = InterpolatedLoss(stats, 0.0);
  base.bigram = std::numeric_limits<double>::infinity();
  for (int k = 1; k <= 19; ++k) {
    const double lambda = 0.05 * k;
    const double loss = InterpolatedLoss(stats, lambda);
    if (loss < base.bigram) {
      base.bigram = loss;
      base.bigram_lambda = lambda;
    }
  }
  return base;
}

}  // namespace attention::train
