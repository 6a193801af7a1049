// What a run computes: sizes, mask, scaling, weight initialisation. See docs/computation.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/option_names.hpp"
#include "attention/status.hpp"

namespace attention {

// The engine's limits (JS: engine.limits, docs/engine-api.md); beyond them Tokenize or a run
// returns kLimitExceeded.
struct Limits {
  // A trace's tokens (Trace::Run): what a page can show, and what one head's steps scores …
  // weights (4 n×n floats when read) keep within a page's memory.
  static constexpr int kMaxTokens = 2048;
  // Attend's tokens (attend.hpp): the output alone, one head's buffers at a time, so twice a
  // trace's length (the cost panel's and the long-sequence benchmark's n = 4,096).
  static constexpr int kMaxAttendTokens = 4096;
  // Tokenize's input: 100,000 bytes of UTF-8 (a long article) tokenizes in a few ms, and
  // bounds what one call may allocate. A page offers to truncate beyond it.
  static constexpr int kMaxTextBytes = 100000;
  // One token: far above any word, URL or emoji sequence (the longest ZWJ family is 25
  // bytes), but it keeps 2048 given tokens within 2 MB, so a run never exhausts memory
  // because of its labels. A run refuses longer tokens (field "tokens[i]").
  static constexpr int kMaxTokenBytes = 1024;
  static constexpr int kMaxDModel = 1024;
  static constexpr int kMaxDK = 1024;
  // P = heads · dK, the width of Q, K, V and of the concatenated heads.
  static constexpr int kMaxProjectionWidth = 4096;
  static constexpr double kMinTemperature = 0.01;
  static constexpr double kMaxTemperature = 100.0;
  // A seed is a uint32 (RandomState), NumPy's np.random.seed range: the trace's, a pattern's,
  // the trainer's and sampling's seeds alike.
  static constexpr uint32_t kMaxSeed = 4294967295u;
};

// kWindow, kLongformer, kBigBird and kDilated are patterns (sparse_pattern.hpp): the engine
// computes only the scores they allow. The others are computed densely, then masked.
enum class MaskType { kNone, kCausal, kWindow, kPadding, kCustom, kLongformer, kBigBird, kDilated };

// The names of the JS option mask.type, in the order error messages list them.
inline constexpr OptionName<MaskType> kMaskTypes[] = {
    {MaskType::kNone, "none"},       {MaskType::kCausal, "causal"},
    {MaskType::kWindow, "window"},   {MaskType::kPadding, "padding"},
    {MaskType::kCustom, "custom"},   {MaskType::kLongformer, "longformer"},
    {MaskType::kBigBird, "bigbird"}, {MaskType::kDilated, "dilated"},
};
inline const char* MaskTypeName(MaskType type) { return NameOf(kMaskTypes, type); }

struct MaskSpec {
  MaskType type = MaskType::kNone;
  int width = 1;               // the patterns: query i sees keys j with |i - j| <= width
  bool causal = false;         // the patterns: additionally j <= i
  std::vector<int> positions;  // kPadding: key positions nobody may attend to
  MaskMatrix matrix;           // kCustom: [n_query × n_key], 1 = may attend
  // kLongformer, kBigBird: tokens that attend to every key and that every query attends to.
  std::vector<int> global_tokens = {0};
  int dilation = 2;   // kDilated: keys j = i ± k·dilation, k = 0 … width
  int block = 4;      // kBigBird: queries and keys in blocks of this many tokens
  int random = 1;     // kBigBird: key blocks drawn at random for each query block
  uint32_t seed = 0;  // kBigBird: the draws' splitmix64 seed (sparse_pattern.hpp)
};

enum class Init {
  kRandn,   // raw N(0, 1) draws, as the tutorials' np.random.randn
  kScaled,  // N(0, 1) / sqrt(fan_in): softmax stays unsaturated at large dModel
};
// The names of the JS option `init`.
inline constexpr OptionName<Init> kInits[] = {{Init::kRandn, "randn"}, {Init::kScaled, "scaled"}};

// How a query mixes the values (docs/computation.md).
enum class AttentionKind {
  kSoftmax,  // softmax(α·QKᵀ, masked)·V: an n×m matrix of weights per head
  kLinear,  // Katharopoulos et al. 2020: φ(Q)(φ(K)ᵀV) / φ(Q)Σφ(K), φ = elu + 1; no n×m matrix
};
// The names of the JS option `attention`.
inline constexpr OptionName<AttentionKind> kAttentionKinds[] = {
    {AttentionKind::kSoftmax, "softmax"},
    {AttentionKind::kLinear, "linear"},
};
inline const char* AttentionKindName(AttentionKind kind) { return NameOf(kAttentionKinds, kind); }

enum class EmbeddingSource {
  kHash,    // row i from a stable hash of token i's text and the seed
  kStream,  // X drawn first from the seed's stream (np.random.seed(s); randn(n, dModel))
  kGiven,   // supplied by the caller
};
// The names of the JS option `embedding`.
inline constexpr OptionName<EmbeddingSource> kEmbeddings[] = {
    {EmbeddingSource::kHash, "hash"},
    {EmbeddingSource::kStream, "stream"},
    {EmbeddingSource::kGiven, "given"},
};

struct Config {
  int d_model = 8;
  int heads = 2;
  int d_k = 0;  // 0: dModel / heads (heads must divide dModel)
  uint32_t seed = 42;
  MaskSpec mask;
  bool scale = true;         // divide scores by sqrt(dK)
  double temperature = 1.0;  // scores are divided by it
  bool bias = false;
  bool output_projection = true;
  Init init = Init::kScaled;
  bool positional_encoding = true;
  EmbeddingSource embedding = EmbeddingSource::kHash;
  // Linear takes mask none or causal only, scale on and temperature 1 (ValidateConfig says why).
  AttentionKind attention = AttentionKind::kSoftmax;

  // dK after resolving 0 to dModel / heads.
  int ResolvedDK() const { return d_k > 0 ? d_k : (heads > 0 ? d_model / heads : 0); }
  // P = heads · dK: the width of Q, K, V and of the concatenated heads.
  int ProjectionWidth() const { return heads * ResolvedDK(); }
};

// What the rows or columns of a matrix are: tokens, feature dimensions, or a single row or
// column. Shared by the step catalogue (trace.hpp) and the given matrices (given.hpp).
enum class Axis { kQuery, kKey, kModel, kProjection, kHeadDim, kOne };

// The length of `axis` under a valid `config` with n_query queries and n_key keys.
int AxisSize(Axis axis, const Config& config, int n_query, int n_key);
// What the JS API calls it: "query", "key", "model", "projection", "headDim", "one".
const char* AxisKey(Axis axis);
// What an error message calls it: "tokens", "kvTokens", "dModel", "heads·dK", "dK", "1".
const char* AxisMeaning(Axis axis);

// Matrices a caller may supply instead of generated ones. Biases are [1 × width]. Every member
// has one row in kGivenSlots (given.hpp), which is what code iterating over them reads.
struct GivenMatrices {
  std::optional<Matrix> x, x_kv;
  std::optional<Matrix> w_q, w_k, w_v, w_o;
  std::optional<Matrix> b_q, b_k, b_v, b_o;
};

struct Input {
  std::vector<std::string> tokens;     // queries (and keys/values in self-attention)
  bool cross = false;                  // cross-attention: keys/values from kv_tokens
  std::vector<std::string> kv_tokens;  // only read when cross
  GivenMatrices given;
};

// Checks every field of `config` alone (sizes, temperature, mask parameters).
Status ValidateConfig(const Config& config);
// Checks `input` against a valid `config`: token counts (at most `max_tokens` a side) and text,
// mask shapes and positions, the shape and finiteness of every given matrix.
Status ValidateInput(const Config& config, const Input& input, int max_tokens = Limits::kMaxTokens);

}  // namespace attention
