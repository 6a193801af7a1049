#include "attention/train/checkpoint.hpp"

#include <cstring>

#include "attention/train/flat_json.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

constexpr char kMagic[] = "AECKPT01";
constexpr size_t kMagicBytes = 8;

Status Bad(const std::string& why) {
  return Status(ErrorCode::kInvalidArgument, "checkpoint", "checkpoint: " + why);
}

void PutUint32(uint32_t value, std::vector<uint8_t>* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<uint8_t>(value >> (8 * i)));
}

uint32_t GetUint32(const uint8_t* at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(at[i]) << (8 * i);
  return value;
}

void PutFloats(const float* values, size_t count, std::vector<uint8_t>* out) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, &values[i], sizeof bits);
    PutUint32(bits, out);
  }
}

std::vector<float> GetFloats(const uint8_t* at, size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t bits = GetUint32(at + 4 * i);
    std::memcpy(&values[i], &bits, sizeof bits);
  }
  return values;
}

}  // namespace

Status SaveCheckpoint(const TrainingLoop& loop, const CheckpointState& state,
                      std::vector<uint8_t>* bytes) {
  const size_t count = loop.model().parameter_count();
  FlatJson header;
  header.SetString("run", state.run);
  header.SetNumber("steps", loop.steps());
  header.SetNumber("parameters", static_cast<double>(count));
  header.SetNumber("seconds", state.seconds);
  header.SetNumber("sittings", state.sittings);
  const std::string text = header.Write();
  bytes->clear();
  bytes->reserve(kMagicBytes + 4 + text.size() + 12 * count);
  bytes->insert(bytes->end(), kMagic, kMagic + kMagicBytes);
  PutUint32(static_cast<uint32_t>(text.size()), bytes);
  bytes->insert(bytes->end(), text.begin(), text.end());
  PutFloats(loop.model().parameters(), count, bytes);
  PutFloats(loop.optimizer().first_moment().data(), count, bytes);
  PutFloats(loop.optimizer().second_moment().data(), count, bytes);
  return Status::Ok();
}

Status LoadCheckpoint(const std::vector<uint8_t>& bytes, const std::string& run, TrainingLoop* loop,
                      CheckpointState* state) {
  if (bytes.size() < kMagicBytes + 4 || std::memcmp(bytes.data(), kMagic, kMagicBytes) != 0) {
    return Bad("not a checkpoint (it must start with AECKPT01)");
  }
  const size_t header_bytes = GetUint32(bytes.data() + kMagicBytes);
  const size_t data = kMagicBytes + 4 + header_bytes;
  if (data > bytes.size()) return Bad(Format("the header (%zu bytes) is cut off", header_bytes));
  FlatJson header;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + kMagicBytes + 4,
                              header_bytes);
  if (Status status = FlatJson::Parse(text, "checkpoint", &header); !status.ok()) return status;
  int steps = 0, sittings = 0;
  double parameters = 0.0, seconds = 0.0;
  std::string saved_run;
  for (Status status :
       {header.GetString("run", &saved_run), header.GetInt("steps", &steps),
        header.GetNumber("parameters", &parameters), header.GetNumber("seconds", &seconds),
        header.GetInt("sittings", &sittings)}) {
    if (!status.ok()) return status;
  }
  if (saved_run != run) {
    return Bad("it was written by another run (other settings or data); its run: " + saved_run);
  }
  const size_t count = loop->model().parameter_count();
  if (parameters != static_cast<double>(count)) {
    return Bad(Format("it has %.0f parameters; this model has %zu", parameters, count));
  }
  if (steps < 0) return Bad(Format("steps (%d) must be at least 0", steps));
  if (bytes.size() != data + 12 * count) {
    return Bad(Format("%zu bytes; its header and %zu parameters make %zu", bytes.size(), count,
                      data + 12 * count));
  }
  const std::vector<float> weights = GetFloats(bytes.data() + data, count);
  std::copy(weights.begin(), weights.end(), loop->model().parameters());
  loop->optimizer().Restore(GetFloats(bytes.data() + data + 4 * count, count),
                            GetFloats(bytes.data() + data + 8 * count, count), steps);
  state->run = saved_run;
  state->seconds = seconds;
  state->sittings = sittings;
  return Status::Ok();
}

}  // namespace attention::train
