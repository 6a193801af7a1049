// libFuzzer harness 2: a configuration, tokens and given matrices decoded from the fuzz bytes,
// then Trace::Run. A success must pass invariants::CheckTrace (no NaN in any step, weights a
// distribution or a flagged all-masked row, shapes right) and be reproducible; a failure must
// name its field in its message; an obviously invalid configuration must fail.
//
// Input layout (bytes past the end read as 0, so every input decodes; sizes stay small so that
// one run takes well under a millisecond):
//   [0] dModel: b % 66 (0 is invalid), 0xFF → 1025 (over the limit)
//   [1] heads: b % (dModel + 2) (0 and dModel + 1 are invalid)
//   [2] dK: b < 160 → 0 (dModel / heads), else (b − 160) % 20 − 1, 0xFF → 1025
//   [3] flags: 1 no scaling, 2 biases, 4 no W_O, 8 no positional encoding, 16 init randn,
//       32 cross-attention, 64 raw tokens (split at 0x1F, not tokenized), 128 causal window
//   [4] embedding: b % 3 (hash, stream, given); mask: (b / 3) % 8 (none, causal, window,
//       padding, custom, longformer, bigbird, dilated)
//   [5] mask width: b % 40 − 2
//   [6] temperature: kTemperatures[b % 16]
//   [7..10] seed, little-endian
//   [11..12] given matrices: bit k (k < 10) supplies kGiven[k]; bit 10 makes the first one
//       (and a custom mask) one row too tall; bits 11–12 pick how values are read: small
//       (int8 / 16), special (kSpecial[b % 16]), raw float32 bits, or large (int8 · 1e17)
//   then the query text up to a 0x00 byte, the key/value text up to the next 0x00 byte (cross
//   only), then data: padding positions, custom mask bits, the sparse patterns' options (a
//   byte each, not for window: dilation b % 5, block b % 6, random b % 4 − 1, then b % 3
//   global positions of b % (max(n, m) + 2) − 1; 0, −1 and past the text are invalid), given
//   matrix values.
// tests/fuzz/make_corpus.py writes seeds in this layout.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/config.hpp"
#include "attention/given.hpp"
#include "attention/tokenizer.hpp"
#include "attention/trace.hpp"
#include "invariants.hpp"

namespace attention {
namespace {

// Above this, tokens are dropped: n × m × heads must stay small for the fuzzer to be fast.
constexpr std::size_t kMaxFuzzTokens = 24;

constexpr double kTemperatures[16] = {1.0,
                                      0.01,
                                      100.0,
                                      0.5,
                                      2.0,
                                      0.0099,
                                      100.5,
                                      0.0,
                                      -1.0,
                                      std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::infinity(),
                                      1e-3,
                                      7.3,
                                      0.25,
                                      10.0,
                                      50.0};

constexpr float kSpecial[16] = {0.0f,
                                1.0f,
                                -1.0f,
                                0.5f,
                                1e30f,
                                -1e30f,
                                1e19f,
                                -1e19f,
                                1.5e19f,
                                3e38f,
                                -3e38f,
                                1e-45f,
                                1e-38f,
                                65504.0f,
                                std::numeric_limits<float>::quiet_NaN(),
                                std::numeric_limits<float>::infinity()};

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string_view UntilNul() {
    const std::size_t start = pos_;
    while (pos_ < size_ && data_[pos_] != 0) ++pos_;
    const std::string_view out(reinterpret_cast<const char*>(data_) + start, pos_ - start);
    if (pos_ < size_) ++pos_;  // the 0x00 itself
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// Splits at 0x1F: tokens may be empty or invalid UTF-8, which validation must refuse.
std::vector<std::string> RawTokens(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\x1F') {
      out.emplace_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (text.empty()) out.clear();
  return out;
}

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "run invariant violated (%s): %s\n", what, detail.c_str());
  std::abort();
}

// Tokens from `text`: raw, or through Tokenize (whose own invariants are checked on the way).
// False when the text does not tokenize, which ends this input.
bool TokensOf(std::string_view text, bool raw, std::vector<std::string>* tokens) {
  if (raw) {
    *tokens = RawTokens(text);
  } else {
    const Status status = Tokenize(text, tokens);
    const std::string violation = invariants::CheckTokenization(text, status, *tokens);
    if (!violation.empty()) Fail("tokenize", violation);
    if (!status.ok()) return false;
  }
  if (tokens->size() > kMaxFuzzTokens) tokens->resize(kMaxFuzzTokens);
  return true;
}

float Value(Reader* data, int mode) {
  switch (mode) {
    case 0:
      return static_cast<std::int8_t>(data->Byte()) / 16.0f;
    case 1:
      return kSpecial[data->Byte() % 16];
    case 2: {
      const std::uint32_t bits = data->Byte() | data->Byte() << 8 | data->Byte() << 16 |
                                 static_cast<std::uint32_t>(data->Byte()) << 24;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    default:
      return static_cast<std::int8_t>(data->Byte()) * 1e17f;
  }
}

int Size(long v) { return static_cast<int>(std::clamp(v, 0L, 4096L)); }

void Check(const std::uint8_t* bytes, std::size_t size) {
  Reader in(bytes, size);
  Config config;
  const std::uint8_t b0 = in.Byte();
  config.d_model = b0 == 0xFF ? 1025 : b0 % 66;
  config.heads = in.Byte() % (config.d_model + 2);
  const std::uint8_t b2 = in.Byte();
  config.d_k = b2 == 0xFF ? 1025 : (b2 < 160 ? 0 : (b2 - 160) % 20 - 1);
  const std::uint8_t flags = in.Byte();
  config.scale = !(flags & 1);
  config.bias = flags & 2;
  config.output_projection = !(flags & 4);
  config.positional_encoding = !(flags & 8);
  config.init = flags & 16 ? Init::kRandn : Init::kScaled;
  const bool cross = flags & 32;
  const bool raw = flags & 64;
  config.mask.causal = flags & 128;
  const std::uint8_t b4 = in.Byte();
  config.embedding = static_cast<EmbeddingSource>(b4 % 3);
  config.mask.type = static_cast<MaskType>((b4 / 3) % 8);
  config.mask.width = in.Byte() % 40 - 2;
  config.temperature = kTemperatures[in.Byte() % 16];
  config.seed =
      in.Byte() | in.Byte() << 8 | in.Byte() << 16 | static_cast<std::uint32_t>(in.Byte()) << 24;
  const unsigned given_bits = in.Byte() | in.Byte() << 8;
  const bool taller = given_bits & (1u << 10);
  const int value_mode = (given_bits >> 11) & 3;

  Input input;
  input.cross = cross;
  if (!TokensOf(in.UntilNul(), raw, &input.tokens)) return;
  if (cross && !TokensOf(in.UntilNul(), raw, &input.kv_tokens)) return;
  const int n = static_cast<int>(input.tokens.size());
  const int m = cross ? static_cast<int>(input.kv_tokens.size()) : n;

  if (config.mask.type == MaskType::kPadding) {
    for (int count = in.Byte() % 4; count > 0; --count) {
      config.mask.positions.push_back(in.Byte() % (m + 2) - 1);
    }
  } else if (config.mask.type == MaskType::kCustom) {
    config.mask.matrix.resize(n + (taller ? 1 : 0), m);
    for (Eigen::Index i = 0; i < config.mask.matrix.size(); ++i) {
      const std::uint8_t b = in.Byte();
      config.mask.matrix.data()[i] = b == 0xFF ? 2 : b & 1;
    }
  } else if (IsSparsePattern(config.mask.type) && config.mask.type != MaskType::kWindow) {
    config.mask.dilation = in.Byte() % 5;
    config.mask.block = in.Byte() % 6;
    config.mask.random = in.Byte() % 4 - 1;
    config.mask.seed = config.seed;
    config.mask.global_tokens.clear();
    for (int count = in.Byte() % 3; count > 0; --count) {
      config.mask.global_tokens.push_back(in.Byte() % (std::max(n, m) + 2) - 1);
    }
  }

  // The shapes validation expects, in kGivenSlots order (bit k supplies slot k).
  const auto length = [&](Axis axis) {
    return axis == Axis::kProjection
               ? static_cast<long>(config.heads) * std::max(0, config.ResolvedDK())
               : static_cast<long>(AxisSize(axis, config, n, m));
  };
  bool perturbed = taller && config.mask.type == MaskType::kCustom;
  bool first = true;
  for (int k = 0; k < static_cast<int>(std::size(kGivenSlots)); ++k) {
    if (!(given_bits & (1u << k))) continue;
    const GivenSlot& slot = kGivenSlots[k];
    const int rows = Size(length(slot.rows) + (first && taller ? 1 : 0)),
              cols = Size(length(slot.cols));
    if (static_cast<long>(rows) * cols > 1 << 16) continue;
    perturbed = perturbed || (first && taller);
    first = false;
    Matrix matrix(rows, cols);
    for (Eigen::Index i = 0; i < matrix.size(); ++i) matrix.data()[i] = Value(&in, value_mode);
    input.given.*slot.given = std::move(matrix);
  }

  Trace trace;
  WeightCache cache;  // the second run below reads the layer this one draws
  const Status status = Trace::Run(config, input, &trace, &cache);
  const bool must_fail = config.d_model < 1 || config.d_model > Limits::kMaxDModel ||
                         config.heads < 1 || config.heads > config.d_model || config.d_k < 0 ||
                         config.d_k > Limits::kMaxDK ||
                         (config.d_k == 0 && config.heads > 0 && config.d_model % config.heads) ||
                         !(config.temperature >= Limits::kMinTemperature &&
                           config.temperature <= Limits::kMaxTemperature) ||
                         n == 0 || (cross && m == 0) || perturbed;
  if (!status.ok()) {
    const std::string violation = invariants::CheckError(status);
    if (!violation.empty()) Fail("error", violation);
    return;
  }
  if (must_fail) Fail("accepted", "an invalid configuration or input was accepted");
  if (trace.n_query() != n || trace.n_key() != m) Fail("sizes", "n or m differs from the input");
  const std::string violation = invariants::CheckTrace(trace);
  if (!violation.empty()) Fail("trace", violation);

  // Reproducible: a second run, its layer from the cache, gives the same bits (no uninitialised
  // memory, no hidden state).
  Trace again;
  Matrix a, b;
  if (!Trace::Run(config, input, &again, &cache).ok()) Fail("repeat", "the second run failed");
  trace.Copy("output", 0, &a);
  again.Copy("output", 0, &b);
  if (std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) != 0) {
    Fail("repeat", "the second run gave a different output");
  }
}

}  // namespace
}  // namespace attention

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  attention::Check(data, size);
  return 0;
}
