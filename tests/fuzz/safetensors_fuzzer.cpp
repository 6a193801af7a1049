// libFuzzer harness 4: arbitrary bytes as a model.safetensors (docs/gpt2.md), read by the
// safetensors reader and then as a GPT-2 checkpoint with one fixed, valid config.json (the shape
// of tests/fixtures/gpt2/*_f32: vocabulary 19, context 8, width 8, 2 layers, 2 heads). Invariants:
//   reader failure: a field under "safetensors" and a message;
//   reader success: the tensors tile the data after the header, each span is its shape × its
//   element size, and reading one gives its element count of finite floats or is refused for
//   that tensor (a dtype other than F32, F16, BF16; NaN or an infinity);
//   checkpoint failure: a field under "safetensors" (the config is valid) and a message;
//   checkpoint success: a forward pass over 7 tokens has finite logits or is refused as
//   NON_FINITE for "model" (weights that overflow float).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "attention/train/gpt2_checkpoint.hpp"
#include "attention/train/model.hpp"
#include "attention/train/safetensors.hpp"

namespace {

constexpr const char* kConfig =
    R"({"model_type": "gpt2", "vocab_size": 19, "n_positions": 8, "n_embd": 8, "n_layer": 2,)"
    R"( "n_head": 2, "n_inner": null, "activation_function": "gelu_new",)"
    R"( "layer_norm_epsilon": 1e-05})";

void Fail(const std::string& why) {
  std::fprintf(stderr, "safetensors invariant violated: %s\n", why.c_str());
  std::abort();
}

void CheckRefusal(const attention::Status& status, const char* what) {
  if (status.field().rfind("safetensors", 0) != 0) {
    Fail(std::string(what) + " refused with field " + status.field());
  }
  if (status.message().empty()) Fail(std::string(what) + ": empty message for " + status.field());
}

uint64_t ElementBytes(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
  return 1;
}

void CheckFile(const uint8_t* data, size_t size) {
  attention::train::SafetensorsFile file;
  const attention::Status status = attention::train::SafetensorsFile::Open(data, size, &file);
  if (!status.ok()) return CheckRefusal(status, "Open");
  uint64_t header = 0;
  for (int i = 7; i >= 0; --i) header = (header << 8) | data[i];
  const uint64_t data_bytes = size - 8 - header;
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const attention::train::SafetensorsEntry& e : file.tensors()) {
    if (e.begin > e.end || e.end > data_bytes) Fail(e.name + ": a span outside the data");
    if (e.end - e.begin != e.elements * ElementBytes(e.dtype)) Fail(e.name + ": span ≠ shape");
    spans.emplace_back(e.begin, e.end);
    std::vector<float> values;
    const attention::Status read = file.Read(e, &values);
    if (!read.ok()) {
      if (read.field().rfind("safetensors.tensors." + e.name, 0) != 0) {
        Fail("Read refused with field " + read.field());
      }
      continue;
    }
    if (values.size() != e.elements) Fail(e.name + ": another number of values than elements");
    for (float v : values) {
      if (!std::isfinite(v)) Fail(e.name + ": a non-finite value read");
    }
  }
  std::sort(spans.begin(), spans.end());
  uint64_t at = 0;
  for (const auto& [begin, end] : spans) {
    if (begin != at) Fail("tensors that do not tile the data");
    at = end;
  }
  if (at != data_bytes) Fail("data after the last tensor");
}

void CheckCheckpoint(const uint8_t* data, size_t size) {
  std::unique_ptr<attention::train::Model<float>> model;
  const attention::Status status =
      attention::train::LoadGpt2Checkpoint(kConfig, data, size, &model);
  if (!status.ok()) return CheckRefusal(status, "LoadGpt2Checkpoint");
  attention::train::Batch batch;
  batch.size = 1;
  batch.length = 7;
  for (int i = 0; i < batch.length; ++i) batch.tokens.push_back((i * 5) % 19);
  const attention::Status pass = model->Forward(batch, attention::train::Outputs::kLastPosition);
  if (!pass.ok()) {
    if (pass.code() == attention::ErrorCode::kNonFinite && pass.field() == "model") return;
    Fail("forward pass refused with field " + pass.field() + ": " + pass.message());
  }
  int width = 0;
  const float* logits = model->Activation("logits", -1, &width);
  for (int v = 0; v < width; ++v) {
    if (!std::isfinite(logits[v])) Fail("a pass that succeeded has a non-finite logit");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  CheckFile(data, size);
  CheckCheckpoint(data, size);
  return 0;
}
