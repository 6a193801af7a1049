// Interpolated modified Kneser–Ney n-grams (Chen & Goodman 1998, "An empirical study of
// smoothing techniques for language modeling", §3.5 and §4.1.6): the honest baseline a trained
// corpus model must beat, counted on the same training ids and scored on the same
// held-out targets as HeldOutLoss (corpus.hpp), with the same vocabulary (`<unk>` is a token
// like any other, as the models count it).
//
//   KneserNey kn(train_ids, /*order=*/5, vocab_size);
//   std::vector<double> nats = kn.TargetLosses(heldout_ids, /*length=*/64);  // −ln p per target
//
// The model, for orders k = 1 … n over a context h of k − 1 ids and a next id w:
//   p_k(w | h) = [max(c_k(h w) − D_k(c_k(h w)), 0) + γ_k(h) · p_{k−1}(w | h′)] / c_k(h •)
//   γ_k(h) = D_k,1 · N1(h •) + D_k,2 · N2(h •) + D_k,3+ · N3+(h •),   p_0(w) = 1 / V,
// where h′ is h without its first id, c_k(h •) = Σ_w c_k(h w), and N_r(h •) counts the ids w with
// c_k(h w) = r (r ≥ 3 for N3+). When c_k(h •) = 0 (h never seen as a context at order k),
// p_k(w | h) = p_{k−1}(w | h′).
// Counts: c_n is the raw count of the n-gram in the training ids; for k < n, c_k(g) is the
// continuation count N1+(• g), the number of distinct ids that precede g in the training ids.
// Discounts per order from the count-of-counts n_r of that order's counts c_k (r = 1 … 4):
//   Y = n1 / (n1 + 2 n2),  D_r = r − (r + 1) · Y · n_{r+1} / n_r  (r = 1, 2, 3; D_3 is D3+);
// Y = 0 when n1 + 2 n2 = 0; D_r = Y when n_r = 0 (the formula is undefined: Ney's single
// discount) and when the formula gives D_r ≤ 0 (text repeated in training, as the Tang canon is,
// can make n_{r+1} ≫ n_r; a zero discount would leave a context whose grams all have count r no
// mass for any other id, and an infinite held-out loss); every D_r is at most r, so that no count
// goes negative and each distribution sums to 1 (tests check both).
//
// The model of order k < n, for a history of k − 1 ids (a window's first positions): the same
// formula with c_k the RAW count of the k-gram at its own highest order (discounts from the raw
// count-of-counts), interpolated with the continuation-count orders below k, as the KN model of
// order k counted on the same text would be. The n-gram model's own order k uses continuation
// counts, which estimate how likely a gram is after a longer context the model has not seen, not
// after the k − 1 ids that are all there is: scoring a window's first positions with them made
// the baseline weaker there than a k-gram model, and the transformer look better against it.
//
// Held-out scoring: target t of a window (corpus.hpp, HeldOutWindows) is predicted from the ids
// the transformer sees at that position, the window's inputs 0 … t; the n-gram uses the last
// min(n − 1, t + 1) of them, so at the first positions of a window it is the model of order
// t + 2 (raw counts at its highest order, above): it knows no more history than the transformer
// it is compared with, and uses that history as a KN model of that order would.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention::train {

class KneserNey {
 public:
  static constexpr int kMaxOrder = 8;
  // `train_ids`: ids 0 … vocab_size − 1; order 1 … kMaxOrder.
  KneserNey(const std::vector<int>& train_ids, int order, int vocab_size);

  int order() const { return order_; }
  // D_k,1, D_k,2, D_k,3+ of order k (1 … order()) as the order-n model counts it (continuation
  // counts below n).
  std::array<double, 3> Discounts(int k) const { return levels_[static_cast<size_t>(k - 1)].d; }
  // The discounts of order k's raw counts: the highest order of the order-k model (k = order()
  // gives Discounts(order())).
  std::array<double, 3> RawDiscounts(int k) const;
  // p(next | history) of the model of order k = min(order, history_length + 1) (raw counts at
  // order k): the last order − 1 ids of the `history_length` ids before `next` (history points
  // to the first of them).
  double Probability(const int* history, int history_length, int next) const;
  // −ln p of every target of HeldOutWindows(ids, length), in order.
  std::vector<double> TargetLosses(const std::vector<int>& ids, int length) const;

 private:
  // One order's distinct grams, sorted lexicographically, each named by a position of its first
  // id in train_ids_ (the ids themselves stay in train_ids_), with its count c_k; and the
  // distinct contexts (the grams' first k − 1 ids) with c_k(h •), N1, N2, N3+.
  // 32-bit positions and counts (the training ids are fewer than 2³²): 8 and 20 bytes, since
  // a 5-gram over millions of ids holds tens of millions of them.
  struct Gram {
    uint32_t at;
    uint32_t count;
  };
  struct Context {
    uint32_t at;
    uint32_t total;
    std::array<uint32_t, 3> n;  // N1, N2, N3+
  };
  struct Level {
    std::vector<Gram> grams;
    std::vector<Context> contexts;
    std::array<double, 3> d{};
  };
  // p(gram[k−1] | gram[0 … k−2]) of the model of order k.
  double ProbabilityAt(int k, const int* gram) const;
  const Level& Highest(int k) const;       // order k's raw counts
  void Finish(int k, Level* level) const;  // discounts and contexts of an order's grams

  std::vector<int> train_ids_;
  int order_;
  int vocab_size_;
  std::vector<Level> levels_;  // [order], levels_[k − 1] is order k (raw at n, else continuation)
  std::vector<Level> raw_levels_;  // [order − 1], raw_levels_[k − 1] is order k with raw counts
};

// Mean −ln p over the targets of HeldOutWindows(heldout_ids, length) (0 when there is none).
double KneserNeyLoss(const std::vector<int>& train_ids, const std::vector<int>& heldout_ids,
                     int vocab_size, int order, int length);

}  // namespace attention::train
