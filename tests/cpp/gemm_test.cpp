// Gemm (cpp/src/gemm.hpp) against a plain double-precision product, on odd shapes, strided
// head slices, a transposed A or B, and accumulation into C. Natively this exercises the Eigen
// path; the WebAssembly kernel is checked end to end by tests/node/gemm.test.mjs (a·b, a·bᵀ) and,
// for aᵀ and accumulation (the training's backward products), by the training tests in node.
#include "gemm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "attention/random.hpp"

namespace attention {
namespace {

// Largest |c − a·b| over the largest |a·b| (b transposed when asked), products in double.
double RelativeError(const ConstMatrixRef& a, const ConstMatrixRef& b, TransposeB transpose,
                     const Matrix& c) {
  double worst = 0.0, largest = 1e-30;
  for (Eigen::Index i = 0; i < c.rows(); ++i) {
    for (Eigen::Index j = 0; j < c.cols(); ++j) {
      double sum = 0.0;
      for (Eigen::Index k = 0; k < a.cols(); ++k) {
        const float bkj = transpose == TransposeB::kYes ? b(j, k) : b(k, j);
        sum += static_cast<double>(a(i, k)) * bkj;
      }
      largest = std::max(largest, std::abs(sum));
      worst = std::max(worst, std::abs(sum - c(i, j)));
    }
  }
  return worst / largest;
}

class GemmShapes : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(GemmShapes, MatchesDoublePrecisionProduct) {
  const auto [m, k, n] = GetParam();
  RandomState random(7);
  const Matrix a = random.RandnMatrix(m, k);
  const Matrix b = random.RandnMatrix(k, n);
  Matrix c(m, n);
  Gemm(a, b, TransposeB::kNo, c);
  EXPECT_LT(RelativeError(a, b, TransposeB::kNo, c), 1e-5);

  const Matrix bt = b.transpose();  // [n × k]
  Matrix ct(m, n);
  Gemm(a, bt, TransposeB::kYes, ct);
  EXPECT_LT(RelativeError(a, bt, TransposeB::kYes, ct), 1e-5);

  // Aᵀ read in place ([k × m] holds A), both ways of B; then c += the same product onto a
  // random c0: c − c0 must be the product.
  const Matrix at = a.transpose();
  const Matrix c0 = random.RandnMatrix(m, n);
  for (const TransposeB tb : {TransposeB::kNo, TransposeB::kYes}) {
    const Matrix& bb = tb == TransposeB::kYes ? bt : b;
    Matrix c_at(m, n);
    Gemm(at, TransposeA::kYes, bb, tb, GemmWrite::kAssign, c_at);
    EXPECT_LT(RelativeError(a, bb, tb, c_at), 1e-5);
    for (const TransposeA ta : {TransposeA::kNo, TransposeA::kYes}) {
      Matrix sum = c0;
      Gemm(ta == TransposeA::kYes ? at : a, ta, bb, tb, GemmWrite::kAccumulate, sum);
      const Matrix added = sum - c0;
      // The sum's rounding is relative to |c0| (≈ 1), the product's to its own size.
      EXPECT_LT(RelativeError(a, bb, tb, added), 1e-5 * std::max(1.0, 4.0 / std::sqrt(k)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OddAndBlockSizes, GemmShapes,
                         ::testing::Values(std::make_tuple(1, 1, 1), std::make_tuple(1, 2, 3),
                                           std::make_tuple(3, 5, 7), std::make_tuple(5, 2, 13),
                                           std::make_tuple(7, 65, 9), std::make_tuple(13, 64, 8),
                                           std::make_tuple(16, 257, 33),
                                           std::make_tuple(65, 300, 17),
                                           std::make_tuple(130, 512, 64)));

TEST(Gemm, HeadSlicesInAndOut) {
  // The engine's per-head products: columns h·dK … of Q, K, V and of the concatenation.
  RandomState random(11);
  const int n = 7, d_k = 3, heads = 3;
  const Matrix q = random.RandnMatrix(n, heads * d_k);
  const Matrix v = random.RandnMatrix(n, heads * d_k);
  Matrix concat = Matrix::Constant(n, heads * d_k, 42.0f);
  for (int h = 0; h < heads; ++h) {
    Matrix scores(n, n);
    Gemm(q.middleCols(h * d_k, d_k), q.middleCols(h * d_k, d_k), TransposeB::kYes, scores);
    EXPECT_LT(RelativeError(q.middleCols(h * d_k, d_k), q.middleCols(h * d_k, d_k),
                            TransposeB::kYes, scores),
              1e-5);
    Gemm(scores, v.middleCols(h * d_k, d_k), TransposeB::kNo, concat.middleCols(h * d_k, d_k));
    const Matrix head_output = concat.middleCols(h * d_k, d_k);
    EXPECT_LT(RelativeError(scores, v.middleCols(h * d_k, d_k), TransposeB::kNo, head_output),
              1e-5);
  }
  EXPECT_FALSE((concat.array() == 42.0f).any()) << "every column of the concatenation written";
}

TEST(Gemm, EmptyInnerDimensionGivesZeros) {
  const Matrix a(3, 0), b(0, 5);
  Matrix c = Matrix::Constant(3, 5, 1.0f);
  Gemm(a, b, TransposeB::kNo, c);
  EXPECT_TRUE((c.array() == 0.0f).all());
  Matrix sum = Matrix::Constant(3, 5, 2.0f);
  Gemm(a, TransposeA::kNo, b, TransposeB::kNo, GemmWrite::kAccumulate, sum);
  EXPECT_TRUE((sum.array() == 2.0f).all()) << "adding an empty product changes nothing";
}

}  // namespace
}  // namespace attention
