// MeasureHeadRoles: runs a model on held-out windows and repeated random sequences and pools
// every head's weights on each role's keys (head_roles.hpp).
#include <algorithm>
#include <string>
#include <tuple>

#include "attention/random.hpp"
#include "attention/tokenizer.hpp"
#include "attention/train/head_roles.hpp"
#include "attention/train/head_scores.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {
namespace {

// Forwards sequences [begin, begin + count) of `sequences` ([n × T] ids) as one batch and hands
// every head's weights [T × T] of every sequence to `visit(sequence, layer·H + head, weights)`.
template <typename Visit>
Status ForEachHead(Model<float>* model, const std::vector<int>& sequences, int length, int begin,
                   int count, Visit visit) {
  const ModelConfig& config = model->config();
  Batch batch;
  batch.size = count;
  batch.length = length;
  batch.tokens.assign(sequences.begin() + static_cast<size_t>(begin) * length,
                      sequences.begin() + static_cast<size_t>(begin + count) * length);
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
  return Status::Ok();
}

size_t RoleIndex(RoleKind kind) {
  size_t r = 0;
  while (kRoles[r].kind != kind) ++r;
  return r;
}

}  // namespace

Status HeadRolesMeasure::Start(Model<float>* model, const std::vector<int>& ids,
                               const std::vector<std::string>& symbols,
                               const std::vector<std::string>& tags, const RolesOptions& options) {
  *this = HeadRolesMeasure();
  if (model == nullptr) return Status(ErrorCode::kInvalidArgument, "model", "no model is loaded");
  const ModelConfig& config = model->config();
  const int context = config.context_length;
  const int t = options.window == 0 ? context : options.window;
  if (t < 2 || t > context) {
    return Status(ErrorCode::kInvalidArgument, "window",
                  "window (" + std::to_string(options.window) + ") must be 0 or from 2 to " +
                      "contextLength (" + std::to_string(context) + ")");
  }
  const std::tuple<const char*, int, int> counts[] = {{"repeats", options.repeats, 1},
                                                      {"batch", options.batch, 1},
                                                      {"maxWindows", options.max_windows, 0}};
  for (const auto& [field, value, low] : counts) {
    if (value < low) {
      return Status(ErrorCode::kInvalidArgument, field,
                    std::string(field) + " (" + std::to_string(value) + ") must be at least " +
                        std::to_string(low));
    }
  }
  int windows = static_cast<int>(ids.size() / t);
  if (windows < 1) {
    return Status(ErrorCode::kInvalidArgument, "ids",
                  "ids (" + std::to_string(ids.size()) + ") must hold at least one window of " +
                      (options.window == 0 ? "contextLength (" + std::to_string(t) + ")"
                                           : "window (" + std::to_string(t) + ")") +
                      " ids");
  }
  if (!tags.empty() && tags.size() != ids.size()) {
    return Status(ErrorCode::kInvalidArgument, "tags",
                  "tags (" + std::to_string(tags.size()) + ") must be empty or one per id (" +
                      std::to_string(ids.size()) + ")");
  }
  for (size_t k = 0; k < ids.size(); ++k) {
    if (ids[k] < 0 || ids[k] >= static_cast<int>(symbols.size())) {
      return Status(ErrorCode::kInvalidArgument, "ids",
                    "ids[" + std::to_string(k) + "] (" + std::to_string(ids[k]) +
                        ") must be a symbol's index, from 0 to " +
                        std::to_string(symbols.size() - 1));
    }
  }
  if (options.max_windows > 0) windows = std::min(windows, options.max_windows);
  model_ = model;
  options_ = options;
  t_ = t;
  windows_ = windows;
  heads_ = config.layers * config.heads;
  const size_t n = static_cast<size_t>(windows) * t;
  text_.assign(ids.begin(), ids.begin() + n);
  symbols_.resize(n);
  for (size_t k = 0; k < n; ++k) symbols_[k] = symbols[ids[k]];
  if (!tags.empty()) tags_.assign(tags.begin(), tags.begin() + n);
  tally_.assign(heads_, std::vector<RoleTally>(kRoles.size()));
  offset_sum_.assign(heads_, std::vector<double>(t, 0.0));
  offset_count_.assign(t, 0);
  for (int i = 0; i < t; ++i) {
    for (int d = 0; d <= i; ++d) offset_count_[d] += windows;
  }
  // Induction: `repeats` sequences of r random non-special ids, then the same r again.
  const int r = t / 2;
  RandomState random(options.seed);
  const int choices = std::max(1, config.vocab_size - Vocabulary::kSpecialCount);
  const int first = config.vocab_size > Vocabulary::kSpecialCount ? Vocabulary::kSpecialCount : 0;
  repeated_.assign(static_cast<size_t>(options.repeats) * t, first);
  for (int s = 0; s < options.repeats; ++s) {
    int* row = repeated_.data() + static_cast<size_t>(s) * t;
    for (int i = 0; i < r; ++i) {
      row[i] = row[i + r] = first + static_cast<int>(random.NextUint32() % choices);
    }
  }
  text_steps_ = (windows + options.batch - 1) / options.batch;
  repeat_steps_ = (options.repeats + options.batch - 1) / options.batch;
  return Status::Ok();
}

Status HeadRolesMeasure::Step() {
  if (model_ == nullptr || finished()) return Status::Ok();
  const int t = t_;
  const int batch = options_.batch;
  if (done_ < text_steps_) {
    // Text windows: each window's keys once, then every head's weights on them.
    const int begin = done_ * batch;
    std::vector<RoleKeys> keys(kRoles.size());
    const Status status = ForEachHead(
        model_, text_, t, begin, std::min(batch, windows_ - begin),
        [&](int window, int head, const float* w) {
          if (head == 0) {
            const size_t at = static_cast<size_t>(window) * t;
            const std::vector<std::string> window_symbols(symbols_.begin() + at,
                                                          symbols_.begin() + at + t);
            std::vector<std::string> window_tags;
            if (!tags_.empty()) window_tags.assign(tags_.begin() + at, tags_.begin() + at + t);
            for (size_t r = 0; r < kRoles.size(); ++r) {
              const RoleKind kind = kRoles[r].kind;
              const bool skip =
                  kind == RoleKind::kInduction || !IsWeightRole(kRoles[r]) ||
                  (kRoles[r].needs_tags && tags_.empty()) ||
                  (!options_.poem && (kind == RoleKind::kCouplet || kind == RoleKind::kRhyme));
              keys[r] = skip ? RoleKeys() : TextRoleKeys(kind, window_symbols, window_tags);
            }
          }
          for (size_t r = 0; r < kRoles.size(); ++r) {
            if (!IsWeightRole(kRoles[r])) tally_[head][r].AddEntropy(w, t);
            if (!keys[r].empty()) tally_[head][r].Add(w, t, keys[r]);
          }
          for (int i = 0; i < t; ++i) {
            for (int d = 0; d <= i; ++d)
              offset_sum_[head][d] += w[static_cast<size_t>(i) * t + i - d];
          }
        });
    if (!status.ok()) return status;
  } else {
    const int begin = (done_ - text_steps_) * batch;
    const RoleKeys induction_keys = RepeatedSequenceKeys(t);
    const size_t induction = RoleIndex(RoleKind::kInduction);
    const Status status = ForEachHead(
        model_, repeated_, t, begin, std::min(batch, options_.repeats - begin),
        [&](int, int head, const float* w) { tally_[head][induction].Add(w, t, induction_keys); });
    if (!status.ok()) return status;
  }
  ++done_;
  return Status::Ok();
}

void HeadRolesMeasure::Finish(HeadRoles* out) const {
  const int heads_per_layer = model_ == nullptr ? 1 : model_->config().heads;
  out->windows = windows_;
  out->scores.assign(model_ == nullptr ? 0 : model_->config().layers, {});
  out->roles.assign(out->scores.size(), {});
  for (int head = 0; head < heads_; ++head) {
    std::vector<double> offset(t_);
    for (int d = 0; d < t_; ++d) offset[d] = offset_sum_[head][d] / offset_count_[d];
    std::vector<RoleScore> scores;
    for (size_t k = 0; k < kRoles.size(); ++k) {
      // Every weight role against the same profile of the text, induction's too (see the header).
      scores.push_back(
          tally_[head][k].Result(IsWeightRole(kRoles[k]) ? offset : std::vector<double>()));
    }
    out->roles[head / heads_per_layer].push_back(RolesOf(scores));
    out->scores[head / heads_per_layer].push_back(std::move(scores));
  }
}

Status MeasureHeadRoles(Model<float>* model, const std::vector<int>& ids,
                        const std::vector<std::string>& symbols,
                        const std::vector<std::string>& tags, HeadRoles* out, int repeats,
                        uint32_t seed) {
  RolesOptions options;
  options.repeats = repeats;
  options.seed = seed;
  HeadRolesMeasure measure;
  Status status = measure.Start(model, ids, symbols, tags, options);
  while (status.ok() && !measure.finished()) status = measure.Step();
  if (!status.ok()) return status;
  measure.Finish(out);
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
