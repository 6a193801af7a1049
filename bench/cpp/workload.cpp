#include "workload.hpp"

#include <algorithm>

#include "gemm.hpp"

namespace attention::bench {

Forward::Forward(int n, int d_model, int heads) : n_(n), d_(d_model) {
  config_.d_model = d_model;
  config_.heads = heads;
  config_.embedding = EmbeddingSource::kGiven;
  config_.positional_encoding = false;
  config_.bias = false;
  config_.output_projection = true;
  for (int i = 0; i < n; ++i) input_.tokens.push_back("t" + std::to_string(i));
  // Unused (bias off) but given, like the weights: nothing is drawn from the generator.
  for (std::optional<Matrix>* b :
       {&input_.given.b_q, &input_.given.b_k, &input_.given.b_v, &input_.given.b_o}) {
    *b = Matrix::Zero(1, d_model);
  }
}

bool Forward::SetMatrix(const std::string& name, const float* data) {
  std::optional<Matrix>* slot = nullptr;
  GivenMatrices& g = input_.given;
  if (name == "x") slot = &g.x;
  if (name == "wQ") slot = &g.w_q;
  if (name == "wK") slot = &g.w_k;
  if (name == "wV") slot = &g.w_v;
  if (name == "wO") slot = &g.w_o;
  if (slot == nullptr) return false;
  const int rows = name == "x" ? n_ : d_;
  *slot = Matrix(rows, d_);
  std::copy(data, data + static_cast<size_t>(rows) * d_, (*slot)->data());
  return true;
}

Status Forward::Run() { return Trace::Run(config_, input_, &trace_); }

GemmCase::GemmCase(int m, int k, int n) : a_(m, k), b_(k, n), c_(m, n) {}

void GemmCase::Run() { Gemm(a_, b_, TransposeB::kNo, c_); }

}  // namespace attention::bench
