// The interpolated modified Kneser–Ney baselines (ngram.hpp) against values worked
// out by hand and against the independent Python reference
// (tests/reference/kneser_ney_reference.py → tests/fixtures/ngram/kneser_ney.json), and the loss
// by position in the context window (corpus.hpp) of a hand-made list and of a model.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "attention/train/corpus.hpp"
#include "attention/train/ngram.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

// "a b a b a c b c" as ids a = 0, b = 1, c = 2; V = 4 (id 3 never occurs).
const std::vector<int> kTrain = {0, 1, 0, 1, 0, 2, 1, 2};

double RelativeDifference(double a, double b) { return std::abs(a - b) / std::abs(b); }

TEST(KneserNey, DiscountsFromTheCountOfCounts) {
  const KneserNey kn(kTrain, 2, 4);
  // Order 2, raw counts: ab 2, ba 2, ac 1, cb 1, bc 1 → n1 = 3, n2 = 2, n3 = n4 = 0.
  // Y = 3 / (3 + 4) = 3/7; D1 = 1 − 2·Y·n2/n1 = 1 − 4/7 = 3/7; D2 = 2 − 3·Y·n3/n2 = 2;
  // n3 = 0: D3+ = Y = 3/7.
  const auto d2 = kn.Discounts(2);
  EXPECT_NEAR(d2[0], 3.0 / 7, 1e-15);
  EXPECT_NEAR(d2[1], 2.0, 1e-15);
  EXPECT_NEAR(d2[2], 3.0 / 7, 1e-15);
  // Order 1, continuation counts N1+(• w): a 1 (ba), b 2 (ab, cb), c 2 (ac, bc) → n1 = 1,
  // n2 = 2: Y = 1/5, D1 = 1 − 2·(1/5)·2 = 0.2, D2 = 2 − 0 = 2, D3+ = Y = 0.2.
  const auto d1 = kn.Discounts(1);
  EXPECT_NEAR(d1[0], 0.2, 1e-15);
  EXPECT_NEAR(d1[1], 2.0, 1e-15);
  EXPECT_NEAR(d1[2], 0.2, 1e-15);
}

// Repeated text (the Tang canon) makes the count-of-counts unnatural: a b c d e f
// three times, then g h g h. Order 2: ab … ef 3 each (n3 = 5), fa 2, gh 2 (n2 = 2), fg 1, hg 1
// (n1 = 2): Y = 2 / 6 = 1/3 and D2 = 2 − 3·Y·n3/n2 = −0.5. Clamped to 0, context g (only gh,
// count 2) kept no mass for anything else: p(a | g) = 0, an infinite held-out loss (137 Tang
// targets did so). A D_r the formula puts at or below 0 is Y, as when n_r = 0.
TEST(KneserNey, ADiscountTheFormulaPutsAtOrBelowZeroIsY) {
  std::vector<int> text;
  for (int i = 0; i < 3; ++i) text.insert(text.end(), {0, 1, 2, 3, 4, 5});
  text.insert(text.end(), {6, 7, 6, 7});
  const KneserNey kn(text, 2, 9);
  EXPECT_NEAR(kn.Discounts(2)[1], 1.0 / 3, 1e-15);
  const int g = 6;
  double sum = 0.0;
  for (int w = 0; w < 9; ++w) {
    const double p = kn.Probability(&g, 1, w);
    EXPECT_GT(p, 0.0) << "p(" << w << " | g)";
    sum += p;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  // p(a | g) = γ(g) · p_1(a) / c(g •) with γ(g) = D2 · N2(g •) = 1/3; p_1, the continuation
  // unigram, is what a context never seen (id 8) gets.
  const int unseen = 8;
  EXPECT_NEAR(kn.Probability(&g, 1, 0), kn.Probability(&unseen, 1, 0) / 3 / 2, 1e-15);
  const std::vector<double> nats = kn.TargetLosses({6, 0}, 4);
  ASSERT_EQ(nats.size(), 1u);
  EXPECT_TRUE(std::isfinite(nats[0]));
}

TEST(KneserNey, ProbabilitiesMatchHandComputedValues) {
  const KneserNey kn(kTrain, 2, 4);
  // Unigram: total 5, γ = 0.2·N1 + 2·N2 = 0.2 + 4 = 4.2 spread as 4.2 · (1/4) = 1.05:
  // p(a) = (1 − 0.2 + 1.05) / 5 = 0.37, p(b) = p(c) = (2 − 2 + 1.05) / 5 = 0.21, p(d) = 0.21.
  // (The unigram is the continuation-count level the bigram interpolates with; a context never
  // seen gets it whole, as d does below.)
  const double unigram[] = {0.37, 0.21, 0.21, 0.21};
  // Context a: ab 2, ac 1 → total 3, N1 = N2 = 1, γ = 3/7 + 2 = 17/7.
  // p(b | a) = (2 − 2 + 17/7 · 0.21) / 3 = 0.17; p(c | a) = (1 − 3/7 + 17/7 · 0.21) / 3;
  // p(a | a) = 17/7 · 0.37 / 3; p(d | a) = 17/7 · 0.21 / 3 = 0.17.
  const int a = 0, d = 3;
  EXPECT_NEAR(kn.Probability(&a, 1, 1), 0.17, 1e-15);
  EXPECT_NEAR(kn.Probability(&a, 1, 2), (4.0 / 7 + 0.51) / 3, 1e-15);
  EXPECT_NEAR(kn.Probability(&a, 1, 0), 17.0 / 7 * 0.37 / 3, 1e-15);
  EXPECT_NEAR(kn.Probability(&a, 1, 3), 0.17, 1e-15);
  // d never appears as a context: its whole mass goes to the unigram.
  for (int w = 0; w < 4; ++w) EXPECT_NEAR(kn.Probability(&d, 1, w), unigram[w], 1e-15);
}

// At a window's first positions the history is shorter than n − 1: the order-3 model scores
// p(w | a) as the KN bigram counted on the same text does (raw counts ab 2, ac 1 at its highest
// order, the values above), not with its own order-2 continuation counts N1+(• a w), and p(w)
// with no history as the KN unigram of raw counts: a 3, b 3, c 2 (n2 = 1, n3 = 2, n1 = 0: Y = 0,
// D1 = Y = 0, D2 = 2 − 3·0 = 2, D3+ = 3 − 0 = 3), γ = 2·1 + 3·2 = 8 over c(•) = 8:
// p(a) = (3 − 3 + 8/4) / 8 = 0.25 = p(b) = p(d), p(c) = (2 − 2 + 2) / 8 = 0.25.
TEST(KneserNey, AShortHistoryIsScoredByTheModelOfItsOrderWithRawCounts) {
  const KneserNey trigram(kTrain, 3, 4);
  const int a = 0;
  EXPECT_NEAR(trigram.Probability(&a, 1, 1), 0.17, 1e-15);
  EXPECT_NEAR(trigram.Probability(&a, 1, 2), (4.0 / 7 + 0.51) / 3, 1e-15);
  EXPECT_NEAR(trigram.Probability(&a, 1, 0), 17.0 / 7 * 0.37 / 3, 1e-15);
  const KneserNey bigram(kTrain, 2, 4);
  for (int w = 0; w < 4; ++w) {
    EXPECT_DOUBLE_EQ(trigram.Probability(&a, 1, w), bigram.Probability(&a, 1, w));
    EXPECT_NEAR(trigram.Probability(nullptr, 0, w), 0.25, 1e-15);
  }
  // The order-3 model's own order 2 counts continuations, N1+(• g) over the distinct trigrams
  // aba bab bac acb cbc: ba ab ac cb bc once each (n1 = 5, n2 = 0: Y = 1, D1 = 1), not the
  // raw bigram's D1 = 3/7.
  EXPECT_NEAR(trigram.RawDiscounts(2)[0], 3.0 / 7, 1e-15);
  EXPECT_NEAR(trigram.Discounts(2)[0], 1.0, 1e-15);
  EXPECT_EQ(trigram.RawDiscounts(3), trigram.Discounts(3));
}

TEST(KneserNey, EveryDistributionSumsToOne) {
  const std::vector<int> text = {0, 1, 2, 0, 1, 3, 0, 1, 2, 4, 2, 0, 1, 2, 0, 5, 5, 5, 1, 2, 0};
  for (int order : {1, 2, 3, 5}) {
    const KneserNey kn(text, order, 8);
    for (size_t end = 0; end <= 8; ++end) {
      for (int seen = 0; seen <= static_cast<int>(end) && seen < order; ++seen) {
        double sum = 0.0;
        for (int w = 0; w < 8; ++w) sum += kn.Probability(text.data() + end - seen, seen, w);
        EXPECT_NEAR(sum, 1.0, 1e-12) << "order " << order << ", history " << seen;
      }
    }
  }
}

TEST(KneserNey, TargetsSeeOnlyTheirWindowsIds) {
  const KneserNey kn(kTrain, 3, 4);
  // Windows of 2 inputs over a b a b a: targets b (history a) and a (history a b); then a new
  // window: b (history a only, not b a, which training has seen) and a (history a b); a last id
  // alone predicts nothing.
  const std::vector<int> ids = {0, 1, 0, 1, 0};
  const std::vector<double> nats = kn.TargetLosses(ids, 2);
  ASSERT_EQ(nats.size(), 4u);
  EXPECT_DOUBLE_EQ(nats[0], -std::log(kn.Probability(&ids[0], 1, 1)));
  EXPECT_DOUBLE_EQ(nats[1], -std::log(kn.Probability(&ids[0], 2, 0)));
  EXPECT_DOUBLE_EQ(nats[2], -std::log(kn.Probability(&ids[2], 1, 1)));
  EXPECT_GT(std::abs(nats[2] + std::log(kn.Probability(&ids[1], 2, 1))), 0.01);
  EXPECT_DOUBLE_EQ(nats[3], -std::log(kn.Probability(&ids[2], 2, 0)));
}

TEST(KneserNey, MatchesTheIndependentPythonReference) {
  const nlohmann::json fixture = testing::LoadJson("ngram/kneser_ney.json");
  ASSERT_EQ(fixture["cases"].size(), 2u);
  for (const auto& c : fixture["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const auto train = c["train"].get<std::vector<int>>();
    const auto held = c["heldOut"].get<std::vector<int>>();
    const int vocab = c["vocabSize"], length = c["length"];
    for (int order : {3, 5}) {
      const auto& expected = c["kn" + std::to_string(order)];
      const KneserNey kn(train, order, vocab);
      for (int k = 1; k <= order; ++k) {
        for (size_t r = 0; r < 3; ++r) {
          const double want = expected["discounts"][static_cast<size_t>(k - 1)][r];
          EXPECT_NEAR(kn.Discounts(k)[r], want, 1e-12) << "order " << k << " D" << r + 1;
          const double raw = expected["rawDiscounts"][static_cast<size_t>(k - 1)][r];
          EXPECT_NEAR(kn.RawDiscounts(k)[r], raw, 1e-12) << "raw order " << k << " D" << r + 1;
        }
      }
      const std::vector<double> nats = kn.TargetLosses(held, length);
      ASSERT_EQ(static_cast<int64_t>(nats.size()), expected["targets"].get<int64_t>());
      const double loss = std::accumulate(nats.begin(), nats.end(), 0.0) / nats.size();
      EXPECT_LT(RelativeDifference(loss, expected["loss"]), 1e-9) << "KN-" << order;
      EXPECT_LT(
          RelativeDifference(KneserNeyLoss(train, held, vocab, order, length), expected["loss"]),
          1e-9);
      const std::vector<PositionLoss> buckets = LossByPosition(nats, length);
      ASSERT_EQ(buckets.size(), expected["byPosition"].size());
      for (size_t b = 0; b < buckets.size(); ++b) {
        const auto& want = expected["byPosition"][b];
        EXPECT_EQ(buckets[b].first, want["first"].get<int>());
        EXPECT_EQ(buckets[b].last, want["last"].get<int>());
        EXPECT_EQ(buckets[b].targets, want["targets"].get<int64_t>());
        EXPECT_LT(RelativeDifference(buckets[b].loss, want["loss"]), 1e-9);
      }
    }
  }
}

TEST(LossByPosition, AveragesEachBucketOfTheWindow) {
  // Windows of 20: 20 targets at positions 1 … 20, then 3 at positions 1 … 3. Loss = position.
  std::vector<double> nats;
  for (int p = 1; p <= 20; ++p) nats.push_back(p);
  for (int p = 1; p <= 3; ++p) nats.push_back(p);
  const std::vector<PositionLoss> buckets = LossByPosition(nats, 20);
  ASSERT_EQ(buckets.size(), 5u);
  // 1: {1, 1}; 2–4: {2, 3, 4, 2, 3}; 5–8: mean 6.5; 9–16: mean 12.5; 17–20: mean 18.5.
  const int first[] = {1, 2, 5, 9, 17}, last[] = {1, 4, 8, 16, 20};
  const int64_t targets[] = {2, 5, 4, 8, 4};
  const double loss[] = {1.0, 14.0 / 5, 6.5, 12.5, 18.5};
  for (size_t b = 0; b < 5; ++b) {
    EXPECT_EQ(buckets[b].first, first[b]);
    EXPECT_EQ(buckets[b].last, last[b]);
    EXPECT_EQ(buckets[b].targets, targets[b]);
    EXPECT_DOUBLE_EQ(buckets[b].loss, loss[b]);
  }
  // A context of 6: buckets 1, 2–4, 5–6 only.
  const std::vector<PositionLoss> short_window = LossByPosition({1, 2, 3, 4, 5, 6, 7}, 6);
  ASSERT_EQ(short_window.size(), 3u);
  EXPECT_EQ(short_window[2].last, 6);
  EXPECT_DOUBLE_EQ(short_window[0].loss, 4.0);  // positions 1: 1 and 7
  EXPECT_DOUBLE_EQ(short_window[2].loss, 5.5);
}

TEST(HeldOutTargetLosses, AreTheModelsLossPerTarget) {
  Model<float> model(testing::SizedConfig(7, 4, 16, 2, 1));
  model.InitParameters(3);
  const std::vector<int> ids = {1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4};  // windows of 4, 4 and 2
  std::vector<double> nats;
  ASSERT_TRUE(HeldOutTargetLosses(&model, ids, &nats, /*batch=*/2).ok());
  ASSERT_EQ(nats.size(), 10u);
  double loss = 0.0;
  ASSERT_TRUE(HeldOutLoss(&model, ids, &loss).ok());
  EXPECT_NEAR(std::accumulate(nats.begin(), nats.end(), 0.0) / 10, loss, 1e-6);
  // Target 5 (position 2 of the second window: inputs 5 6, target 0) from that window alone.
  Batch b;
  b.size = 1;
  b.length = 2;
  b.tokens = {5, 6};
  b.targets = {6, 0};
  b.loss_weights = {0, 1};
  ASSERT_TRUE(model.Forward(b).ok());
  EXPECT_NEAR(nats[5], model.loss(), 1e-6);
  EXPECT_FALSE(HeldOutTargetLosses(&model, {3}, &nats).ok());
}

}  // namespace
}  // namespace attention::train
