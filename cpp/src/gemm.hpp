// Every matrix product of the engine goes through Gemm: Eigen everywhere, except in a
// WebAssembly build with SIMD128, where Eigen 3.4 has no packet math and a small
// register-blocked kernel (gemm.cpp) is about twice as fast.
#pragma once

#include "attention/matrix.hpp"

namespace attention {

// Row-major views with any row stride, so head slices (middleCols) bind without a copy.
using ConstMatrixRef = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;
using MatrixRef = Eigen::Ref<Matrix, 0, Eigen::OuterStride<>>;

enum class TransposeA { kNo, kYes };
enum class TransposeB { kNo, kYes };
enum class GemmWrite { kAssign, kAccumulate };

// c = a · b, or a · bᵀ with TransposeB::kYes.
// a [M × K]; b [K × N] (kNo) or [N × K] (kYes); c [M × N], already sized, must not alias a or b.
void Gemm(const ConstMatrixRef& a, const ConstMatrixRef& b, TransposeB transpose_b, MatrixRef c);

// c = op(a) · op(b), or c += op(a) · op(b) with GemmWrite::kAccumulate; op(a) = aᵀ with
// TransposeA::kYes, a then [K × M], read in place (the training's backward products, without a
// copy of aᵀ or a temporary for the sum).
void Gemm(const ConstMatrixRef& a, TransposeA transpose_a, const ConstMatrixRef& b,
          TransposeB transpose_b, GemmWrite write, MatrixRef c);

}  // namespace attention
