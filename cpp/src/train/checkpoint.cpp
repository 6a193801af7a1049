#include "attention/train/checkpoint.hpp"

#include <cmath>
#include <cstring>

#include "attention/random.hpp"
#include "attention/train/flat_json.hpp"
#include "format.hpp"

namespace attention::train {
namespace {

constexpr char kMagic[] = "AECKPT02";
constexpr char kOldMagic[] = "AECKPT01";  // the format without a checksum
constexpr size_t kMagicBytes = 8;
constexpr size_t kChecksumBytes = 8;

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

uint64_t Checksum(const uint8_t* data, size_t size) {
  return Fnv1a64(std::string_view(reinterpret_cast<const char*>(data), size));
}

// An integer header field from 0 to `high`: read as a number, so that a huge or fractional one
// is named as such rather than wrapped or truncated.
Status GetCount(const FlatJson& header, const char* key, double high, const char* limit,
                double* value) {
  if (Status status = header.GetNumber(key, value); !status.ok()) return status;
  if (*value != std::floor(*value) || *value < 0 || *value > high) {
    return Bad(Format("%s (%.17g) must be an integer from 0 to %s", key, *value, limit));
  }
  return Status::Ok();
}

// The first value of `values` that no run could have written, named: NaN or ±∞ anywhere, and a
// negative second moment (a mean of squares).
Status CheckFloats(const std::vector<float>& values, const char* what, bool non_negative) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || (non_negative && values[i] < 0)) {
      return Bad(Format("it is damaged: %s [%zu] is %g; delete it to start the run again", what, i,
                        static_cast<double>(values[i])));
    }
  }
  return Status::Ok();
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
  bytes->reserve(kMagicBytes + 4 + text.size() + 12 * count + kChecksumBytes);
  bytes->insert(bytes->end(), kMagic, kMagic + kMagicBytes);
  PutUint32(static_cast<uint32_t>(text.size()), bytes);
  bytes->insert(bytes->end(), text.begin(), text.end());
  PutFloats(loop.model().parameters(), count, bytes);
  PutFloats(loop.optimizer().first_moment().data(), count, bytes);
  PutFloats(loop.optimizer().second_moment().data(), count, bytes);
  const uint64_t checksum = Checksum(bytes->data(), bytes->size());
  PutUint32(static_cast<uint32_t>(checksum), bytes);
  PutUint32(static_cast<uint32_t>(checksum >> 32), bytes);
  return Status::Ok();
}

Status LoadCheckpoint(const std::vector<uint8_t>& bytes, const std::string& run, TrainingLoop* loop,
                      CheckpointState* state) {
  if (bytes.size() >= kMagicBytes && std::memcmp(bytes.data(), kOldMagic, kMagicBytes) == 0) {
    return Bad(
        "it is of an older format (AECKPT01, without a checksum); delete it to start the "
        "run again");
  }
  if (bytes.size() < kMagicBytes + 4 + kChecksumBytes ||
      std::memcmp(bytes.data(), kMagic, kMagicBytes) != 0) {
    return Bad("not a checkpoint (it must start with AECKPT02)");
  }
  // Before anything is read from it: a file cut short or with a flipped bit is damaged, whatever
  // its header would say.
  const size_t body = bytes.size() - kChecksumBytes;
  const uint64_t stored = static_cast<uint64_t>(GetUint32(bytes.data() + body)) |
                          static_cast<uint64_t>(GetUint32(bytes.data() + body + 4)) << 32;
  if (Checksum(bytes.data(), body) != stored) {
    return Bad(
        Format("it is damaged (%zu bytes whose checksum does not match: cut short or "
               "changed); delete it to start the run again",
               bytes.size()));
  }
  const size_t header_bytes = GetUint32(bytes.data() + kMagicBytes);
  const size_t data = kMagicBytes + 4 + header_bytes;
  if (header_bytes > body || data > body) {
    return Bad(Format("the header (%zu bytes) is cut off", header_bytes));
  }
  FlatJson header;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + kMagicBytes + 4,
                              header_bytes);
  if (Status status = FlatJson::Parse(text, "checkpoint", &header); !status.ok()) return status;
  double steps = 0, sittings = 0, parameters = 0.0, seconds = 0.0;
  std::string saved_run;
  for (Status status :
       {header.GetString("run", &saved_run), header.GetNumber("parameters", &parameters),
        header.GetNumber("seconds", &seconds)}) {
    if (!status.ok()) return status;
  }
  if (saved_run != run) {
    return Bad("it was written by another run (other settings or data); its run: " + saved_run);
  }
  const size_t count = loop->model().parameter_count();
  if (parameters != static_cast<double>(count)) {
    return Bad(Format("it has %.0f parameters; this model has %zu", parameters, count));
  }
  // A run never goes past its schedule: a larger count would replay billions of windows.
  const int total = loop->optimizer().config().total_steps;
  const std::string total_text = Format("the run's totalSteps (%d)", total);
  for (Status status :
       {GetCount(header, "steps", total, total_text.c_str(), &steps),
        GetCount(header, "sittings", CheckpointState::kMaxSittings, "1000000000", &sittings)}) {
    if (!status.ok()) return status;
  }
  if (!(seconds >= 0 && seconds <= CheckpointState::kMaxSeconds)) {
    return Bad(Format("seconds (%.17g) must be a number from 0 to 1e12", seconds));
  }
  if (bytes.size() != data + 12 * count + kChecksumBytes) {
    return Bad(Format("%zu bytes; its header and %zu parameters make %zu", bytes.size(), count,
                      data + 12 * count + kChecksumBytes));
  }
  std::vector<float> weights = GetFloats(bytes.data() + data, count);
  std::vector<float> first = GetFloats(bytes.data() + data + 4 * count, count);
  std::vector<float> second = GetFloats(bytes.data() + data + 8 * count, count);
  for (Status status :
       {CheckFloats(weights, "weight", false), CheckFloats(first, "AdamW's first moment", false),
        CheckFloats(second, "AdamW's second moment", true)}) {
    if (!status.ok()) return status;
  }
  std::copy(weights.begin(), weights.end(), loop->model().parameters());
  loop->optimizer().Restore(std::move(first), std::move(second), static_cast<int>(steps));
  state->run = saved_run;
  state->seconds = seconds;
  state->sittings = static_cast<int>(sittings);
  return Status::Ok();
}

}  // namespace attention::train
