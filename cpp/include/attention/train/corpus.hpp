// Language modelling on a corpus: the training text as one stream of token ids
// (vocabulary.hpp), cut into seeded random windows of T + 1 ids whose first T are the input and
// last T the next-token targets; the held-out loss over non-overlapping windows; and the
// unigram and bigram baselines the trained model must beat, on the same held-out targets.
//
//   CorpusStream stream(&train_ids, /*length=*/64, /*seed=*/1);
//   Batch batch = stream.Take(32);                     // [32 × 64] tokens and targets
//   double nats = HeldOutLoss(&model, heldout_ids);    // mean −ln p per target token
//   NgramBaselines base = ComputeBaselines(train_ids, heldout_ids, vocab_size, 64);
#pragma once

#include <cstdint>
#include <vector>

#include "attention/random.hpp"
#include "attention/status.hpp"
#include "attention/train/model.hpp"

namespace attention::train {

// A seeded stream of training windows over `ids` (kept by pointer: it must outlive the
// stream). Each window starts at a uniform random offset s ∈ [0, ids.size() − length − 1]:
// tokens ids[s … s+T−1], targets ids[s+1 … s+T], every position weighs 1. The same ids, length
// and seed give the same windows. `ids` must hold at least length + 1 ids.
//
// With `repeat_spans` = f > 0 (docs/models.md, "Induction"), a share f of the windows repeats a
// span of its own text: in the window's T + 1 ids, L = T/8 … T/4 ids from a random place a are
// copied over those at a random later place b ≥ a + L (T ≥ 16), and tokens and targets are read
// from the result. The offset b − a varies, so only a head that finds the earlier copy by its
// content (an induction head: attend to the token after the earlier occurrence of this one)
// predicts the copy. Every window draws 5 numbers then (1 without repeats), so Skip still
// mirrors Take.
class CorpusStream {
 public:
  CorpusStream(const std::vector<int>* ids, int length, uint32_t seed, double repeat_spans = 0.0);
  Batch Take(int count);
  // Passes over the next `count` windows, as Take(count) would (a resumed run's stream).
  void Skip(int64_t count);
  int length() const { return length_; }

 private:
  const std::vector<int>* ids_;
  int length_;
  RandomState random_;
  double repeat_spans_;
};

// The held-out text's consecutive, non-overlapping windows of at most length + 1 ids: window k
// covers ids[k·T … k·T + T] (the last may be shorter; one of a single id predicts nothing).
// Every id but the first is a target exactly once, so a loss over them is a loss per token of
// the whole text. [windows], each an (input, target) pair of equal length ≥ 1.
struct Window {
  std::vector<int> tokens, targets;
};
std::vector<Window> HeldOutWindows(const std::vector<int>& ids, int length);

// Mean −ln p(target) in nats over every target of HeldOutWindows(ids, contextLength), run in
// batches of `batch` windows. Errors: too few ids (field "heldOut"), or Forward's.
Status HeldOutLoss(Model<float>* model, const std::vector<int>& ids, double* loss, int batch = 32);

// −ln p(target) in nats of every target of HeldOutWindows(ids, contextLength), in order: target
// i sits at position i mod T + 1 of its window (the model has seen that many ids). From the
// logits, in double. Errors: HeldOutLoss's.
Status HeldOutTargetLosses(Model<float>* model, const std::vector<int>& ids,
                           std::vector<double>* nats, int batch = 32);

// The mean of per-target losses (in HeldOutWindows order, as HeldOutTargetLosses and
// KneserNey::TargetLosses give them) by position in the window: 1, 2–4, 5–8, 9–16, 17 … T
// (positions first … last, 1-based); buckets that start past T are left out, and an empty one
// has loss 0.
struct PositionLoss {
  int first = 0, last = 0;
  int64_t targets = 0;
  double loss = 0.0;
};
std::vector<PositionLoss> LossByPosition(const std::vector<double>& nats, int length);

// Baselines in nats per target token, on the same targets as HeldOutLoss:
//   unigram: add-one, p(b) = (c(b) + 1) / (N + V), counts c over the training ids;
//   bigram: interpolated with that unigram, p(b | a) = λ·c(a b)/c(a) + (1 − λ)·p(b), with
//     c(a b)/c(a) = 0 when c(a) = 0; λ is the best of 0.05, 0.10, … 0.95 on the held-out
//     targets themselves, which favours the baseline (a model must beat its best case).
// The first target of each window is scored like any other (its previous id is the window's
// first input), as the model scores it with one id of context.
struct NgramBaselines {
  double unigram = 0.0;
  double bigram = 0.0;
  double bigram_lambda = 0.0;
  int64_t targets = 0;  // held-out targets scored
};
NgramBaselines ComputeBaselines(const std::vector<int>& train_ids,
                                const std::vector<int>& heldout_ids, int vocab_size, int length);
// The interpolated bigram's loss for one λ (what ComputeBaselines minimises; tests check it by
// hand).
double BigramLoss(const std::vector<int>& train_ids, const std::vector<int>& heldout_ids,
                  int vocab_size, int length, double lambda);

}  // namespace attention::train
