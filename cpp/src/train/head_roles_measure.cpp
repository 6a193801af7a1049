// MeasureHeadRoles: runs a model on held-out windows and repeated random sequences and pools
// every head's weights on each role's keys (head_roles.hpp).
#include <algorithm>
#include <string>

#include "attention/random.hpp"
#include "attention/tokenizer.hpp"
#include "attention/train/head_roles.hpp"
#include "attention/train/head_scores.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {
namespace {

constexpr int kBatch = 16;

// Sums per head: [layers × heads] tallies of every role, and the offset profile o[d].
struct Sums {
  std::vector<std::vector<RoleTally>> tally;    // [L·H][roles]
  std::vector<std::vector<double>> offset_sum;  // [L·H][T]
  std::vector<int64_t> offset_count;            // [T], the same for every head
};

// Forwards `sequences` ([count × T] ids) in batches and hands every head's weights [T × T] of
// every sequence to `visit(sequence, layer·H + head, weights)`.
template <typename Visit>
Status ForEachHead(Model<float>* model, const std::vector<int>& sequences, int length,
                   Visit visit) {
  const ModelConfig& config = model->config();
  const int count = static_cast<int>(sequences.size() / length);
  for (int begin = 0; begin < count; begin += kBatch) {
    Batch batch;
    batch.size = std::min(kBatch, count - begin);
    batch.length = length;
    batch.tokens.assign(sequences.begin() + static_cast<size_t>(begin) * length,
                        sequences.begin() + static_cast<size_t>(begin + batch.size) * length);
    const Status status = model->Forward(batch, Outputs::kLastPosition);
    if (!status.ok()) return status;
    for (int b = 0; b < batch.size; ++b) {
      for (int l = 0; l < config.layers; ++l) {
        for (int h = 0; h < config.heads; ++h) {
          const Matrix w = HeadWeights(*model, length, l, h, b);
          visit(begin + b, l * config.heads + h, w.data());
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status MeasureHeadRoles(Model<float>* model, const std::vector<int>& ids,
                        const std::vector<std::string>& symbols,
                        const std::vector<std::string>& tags, HeadRoles* out, int repeats,
                        uint32_t seed) {
  const ModelConfig& config = model->config();
  const int t = config.context_length;
  const int windows = static_cast<int>(ids.size() / t);
  if (windows < 1) {
    return Status(ErrorCode::kInvalidArgument, "ids",
                  "ids (" + std::to_string(ids.size()) + ") must hold at least one window of " +
                      "contextLength (" + std::to_string(t) + ") ids");
  }
  if (!tags.empty() && tags.size() != ids.size()) {
    return Status(ErrorCode::kInvalidArgument, "tags",
                  "tags (" + std::to_string(tags.size()) + ") must be empty or one per id (" +
                      std::to_string(ids.size()) + ")");
  }
  const int heads = config.layers * config.heads;
  Sums sums;
  sums.tally.assign(heads, std::vector<RoleTally>(kRoles.size()));
  sums.offset_sum.assign(heads, std::vector<double>(t, 0.0));
  sums.offset_count.assign(t, 0);
  for (int i = 0; i < t; ++i) {
    for (int d = 0; d <= i; ++d) sums.offset_count[d] += windows;
  }

  // Text windows: each window's keys once, then every head's weights on them.
  std::vector<RoleKeys> keys(kRoles.size());
  const std::vector<int> text(ids.begin(), ids.begin() + static_cast<size_t>(windows) * t);
  Status status = ForEachHead(model, text, t, [&](int window, int head, const float* w) {
    if (head == 0) {
      const size_t at = static_cast<size_t>(window) * t;
      std::vector<std::string> window_symbols(t), window_tags;
      for (int i = 0; i < t; ++i) window_symbols[i] = symbols[ids[at + i]];
      if (!tags.empty()) window_tags.assign(tags.begin() + at, tags.begin() + at + t);
      for (size_t r = 0; r < kRoles.size(); ++r) {
        const RoleKind kind = kRoles[r].kind;
        const bool skip = kind == RoleKind::kInduction || kind == RoleKind::kBroad ||
                          (kRoles[r].needs_tags && tags.empty());
        keys[r] = skip ? RoleKeys() : TextRoleKeys(kind, window_symbols, window_tags);
      }
    }
    for (size_t r = 0; r < kRoles.size(); ++r) {
      if (kRoles[r].kind == RoleKind::kBroad) sums.tally[head][r].AddEntropy(w, t);
      if (!keys[r].empty()) sums.tally[head][r].Add(w, t, keys[r]);
    }
    for (int i = 0; i < t; ++i) {
      for (int d = 0; d <= i; ++d)
        sums.offset_sum[head][d] += w[static_cast<size_t>(i) * t + i - d];
    }
  });
  if (!status.ok()) return status;

  // Induction: `repeats` sequences of r random non-special ids, then the same r again.
  const int r = t / 2;
  RandomState random(seed);
  const int choices = config.vocab_size - Vocabulary::kSpecialCount;
  std::vector<int> repeated(static_cast<size_t>(repeats) * t, Vocabulary::kSpecialCount);
  for (int s = 0; s < repeats; ++s) {
    int* row = repeated.data() + static_cast<size_t>(s) * t;
    for (int i = 0; i < r; ++i) {
      row[i] = row[i + r] =
          Vocabulary::kSpecialCount + static_cast<int>(random.NextUint32() % choices);
    }
  }
  const RoleKeys induction_keys = RepeatedSequenceKeys(t);
  size_t induction = 0;
  while (kRoles[induction].kind != RoleKind::kInduction) ++induction;
  status = ForEachHead(model, repeated, t, [&](int, int head, const float* w) {
    sums.tally[head][induction].Add(w, t, induction_keys);
  });
  if (!status.ok()) return status;

  out->windows = windows;
  out->scores.assign(config.layers, {});
  out->roles.assign(config.layers, {});
  for (int head = 0; head < heads; ++head) {
    std::vector<double> offset(t);
    for (int d = 0; d < t; ++d) offset[d] = sums.offset_sum[head][d] / sums.offset_count[d];
    std::vector<RoleScore> scores;
    for (size_t k = 0; k < kRoles.size(); ++k) {
      // Every weight role against the same profile of the text, induction's too (see the header).
      const bool weight = kRoles[k].kind != RoleKind::kBroad;
      scores.push_back(sums.tally[head][k].Result(weight ? offset : std::vector<double>()));
    }
    out->roles[head / config.heads].push_back(RolesOf(scores));
    out->scores[head / config.heads].push_back(std::move(scores));
  }
  return Status::Ok();
}

namespace {

Status ReadText(const std::string& path, const char* field, std::string* text) {
  std::vector<uint8_t> bytes;
  const Status status = ReadFileBytes(path, &bytes);
  if (!status.ok()) return Status(status.code(), field, path + ": " + status.message());
  text->assign(bytes.begin(), bytes.end());
  return Status::Ok();
}

}  // namespace

Status LoadRolesInput(const std::string& model_path, const std::string& sample_path,
                      const std::string& tags_path, RolesInput* input) {
  std::vector<uint8_t> bytes;
  Status status = ReadFileBytes(model_path, &bytes);
  if (status.ok()) status = LoadModel(bytes.data(), bytes.size(), &input->loaded);
  if (!status.ok()) return Status(status.code(), "model", model_path + ": " + status.message());
  std::string level_name, sample;
  VocabularyLevel level;
  Vocabulary vocabulary;
  status = input->loaded.config.GetString("vocabulary", &level_name);
  if (status.ok()) status = ParseVocabularyLevel(level_name, &level);
  if (status.ok()) status = Vocabulary::FromSymbols(input->loaded.vocabulary, level, &vocabulary);
  if (!status.ok()) return Status(status.code(), "model", model_path + ": " + status.message());
  status = ReadText(sample_path, "sample", &sample);
  if (status.ok()) status = vocabulary.Encode(sample, &input->ids);
  if (!status.ok()) return Status(status.code(), "sample", sample_path + ": " + status.message());
  input->tags.clear();
  if (tags_path.empty()) return Status::Ok();
  std::string tagged;
  std::vector<std::string> pieces, tokens;
  status = ReadText(tags_path, "tags", &tagged);
  if (status.ok()) status = ReadTaggedText(tagged, &pieces, &input->tags);
  if (status.ok()) status = Tokenize(sample, &tokens);
  if (!status.ok()) return status;
  for (size_t k = 0; k < std::max(pieces.size(), tokens.size()); ++k) {
    if (k >= pieces.size() || k >= tokens.size() || pieces[k] != tokens[k]) {
      const std::string field = "tags[" + std::to_string(k) + "]";
      return Status(ErrorCode::kInvalidArgument, field,
                    field + " (" + (k < pieces.size() ? pieces[k] : "the end") +
                        ") must be the sample's token (" +
                        (k < tokens.size() ? tokens[k] : "the end") + ")");
    }
  }
  return Status::Ok();
}

}  // namespace attention::train
