// libFuzzer harness 3: ReadModelFile on arbitrary bytes, twice: as given (magic, version, size
// and checksum checks) and "resealed", with the size and checksum fields rewritten to match, so
// that mutations reach the parser of the contents behind the checksum. Invariants:
//   failure: the field names a part of the model ("model…") and the message is not empty;
//   success: writing the result back gives exactly the bytes read (the format has one
//   encoding per content: float16 values survive the round trip bit for bit).
// And a semantic stage for a file that loads as a model (LoadModel): a forward pass of the last
// position's logits over up to 8 tokens, and one over the whole context, either succeeds with
// finite logits or is refused naming the model (its weights overflow float: NON_FINITE "model")
// or, for the whole context, its size ("tokens"); what a pass over the whole context may take
// never passes kMaxActivationBytes, whatever the vocabulary × context.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "attention/random.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/model_io.hpp"

namespace {

void Fail(const std::string& why) {
  std::fprintf(stderr, "model_file invariant violated: %s\n", why.c_str());
  std::abort();
}

// One forward pass of `length` tokens of the last position's logits, against the invariants.
void CheckForward(attention::train::Model<float>* model, int length) {
  using attention::train::Outputs;
  const attention::train::ModelConfig& config = model->config();
  attention::train::Batch batch;
  batch.size = 1;
  batch.length = length;
  for (int i = 0; i < length; ++i) batch.tokens.push_back(i % config.vocab_size);
  const attention::train::MemoryUse use =
      attention::train::EstimateMemory(config, 1, length, 4, Outputs::kLastPosition);
  const attention::Status status = model->Forward(batch, Outputs::kLastPosition);
  if (status.ok()) {
    if (use.activations + use.scratch > attention::train::kMaxActivationBytes) {
      Fail("a pass past the activation limit ran");
    }
    int width = 0;
    const float* logits = model->Activation("logits", -1, &width);
    for (int v = 0; v < width; ++v) {
      if (!std::isfinite(logits[v])) Fail("a pass that succeeded has a non-finite logit");
    }
    return;
  }
  if (status.code() == attention::ErrorCode::kNonFinite && status.field() == "model") return;
  if (status.code() == attention::ErrorCode::kLimitExceeded && status.field() == "tokens") return;
  Fail("forward pass refused with field " + status.field() + ": " + status.message());
}

void CheckModel(const std::vector<uint8_t>& bytes) {
  attention::train::LoadedModel loaded;
  if (!attention::train::LoadModel(bytes.data(), bytes.size(), &loaded).ok()) return;
  const int context = loaded.model->config().context_length;
  CheckForward(loaded.model.get(), std::min(context, 8));
  // The whole context only for models small enough to run it in a fuzzing moment; what a
  // larger one would take is checked by ValidateBatch's limit (the estimate above). The bound is
  // on the pass's work, layers × context² × dModel for the scores alone: a 61 KB mutation of the
  // 4,096-symbol seed with context 2,048 (context × dModel far under the old bound of 2¹⁶) took
  // 3 s under ASan, the whole of the fuzzer's per-input budget on a loaded machine.
  const attention::train::ModelConfig& config = loaded.model->config();
  const int64_t score_work = int64_t{config.layers} * context * context * config.d_model;
  if (int64_t{context} * config.d_model <= (int64_t{1} << 16) && score_work <= (int64_t{1} << 22)) {
    CheckForward(loaded.model.get(), context);
  }
}

void Check(const std::vector<uint8_t>& bytes) {
  attention::train::ModelFile file;
  const attention::Status status = attention::train::ReadModelFile(bytes, &file);
  if (!status.ok()) {
    if (status.field().rfind("model", 0) != 0) Fail("field " + status.field());
    if (status.message().empty()) Fail("empty message for " + status.field());
    return;
  }
  std::vector<uint8_t> again;
  const attention::Status written = attention::train::WriteModelFile(file, &again);
  if (!written.ok()) Fail("a file that was read cannot be written: " + written.message());
  if (again != bytes) Fail("writing back gives other bytes");
  CheckModel(bytes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  Check(bytes);
  if (bytes.size() >= 28) {
    for (int i = 0; i < 8; ++i) bytes[12 + i] = static_cast<uint8_t>(uint64_t{size} >> (8 * i));
    const uint64_t checksum =
        attention::Fnv1a64(std::string_view(reinterpret_cast<const char*>(bytes.data()), size - 8));
    for (int i = 0; i < 8; ++i) bytes[size - 8 + i] = static_cast<uint8_t>(checksum >> (8 * i));
    Check(bytes);
  }
  return 0;
}
