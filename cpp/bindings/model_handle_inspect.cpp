// What the training playground reads from a ModelHandle while it trains: head
// scores, one example's attention and the model's answer to a typed input. Each runs the model,
// which invalidates the last trace (ModelTrace reads the model's activations); taskPrompt, what
// the task asks of a typed input, runs none.
#include <cstdint>
#include <string>
#include <vector>

#include "attention/train/head_scores.hpp"
#include "model_handle.hpp"

namespace attention::bindings {
namespace {

using emscripten::val;

// The most one attention snapshot may take: what a page draws is far smaller (4 layers × 4
// heads × 32² floats is 64 kB), and JS copies it once more.
constexpr int64_t kMaxSnapshotBytes = int64_t{64} << 20;

val Grid(const std::vector<std::vector<double>>& rows) {
  val out = val::array();
  for (size_t l = 0; l < rows.size(); ++l) {
    val row = val::array();
    for (size_t h = 0; h < rows[l].size(); ++h) row.set(h, rows[l][h]);
    out.set(l, row);
  }
  return out;
}

// A copy of `ids` as an Int32Array.
val Ids(const std::vector<int>& ids) {
  return val(emscripten::typed_memory_view(ids.size(), ids.data())).call<val>("slice");
}

}  // namespace

val ModelHandle::headScores(int count) {
  trace_.Clear();
  train::Trainer* t = trainer("headScores");
  if (t == nullptr) return val::null();
  if (count < 1) {
    Fail(ErrorCode::kInvalidArgument, "count",
         "count (" + std::to_string(count) + ") must be at least 1");
    return val::null();
  }
  const train::HeadScores scores = t->ScoreHeldOutHeads(count);
  val out = val::object();
  out.set("induction", scores.induction_positions > 0 ? Grid(scores.induction) : val::null());
  out.set("previousToken", Grid(scores.previous_token));
  return out;
}

val ModelHandle::attention(const val& tokens) {
  trace_.Clear();
  // A task trainer's or a corpus trainer's model (a loaded model's too).
  train::Model<float>* m = model();
  if (m == nullptr) {
    Fail(ErrorCode::kInvalidArgument, "model", "no model: create() or load() did not succeed");
    return val::null();
  }
  const std::vector<int> ids = emscripten::convertJSArrayToNumberVector<int>(tokens);
  train::Batch batch;
  batch.size = 1;
  batch.length = static_cast<int>(ids.size());
  batch.tokens = ids;
  // The model's own check first, so that a refusal names the token or the length at fault.
  const train::ModelConfig& config = m->config();
  status_ = train::ValidateBatch(config, batch);
  if (!status_.ok()) return val::null();
  const int64_t bytes = int64_t{4} * config.layers * config.heads * batch.length * batch.length;
  if (bytes > kMaxSnapshotBytes) {
    Fail(ErrorCode::kLimitExceeded, "tokens",
         "the attention of " + std::to_string(batch.length) + " tokens in " +
             std::to_string(config.layers) + " layers of " + std::to_string(config.heads) +
             " heads takes " + std::to_string(bytes >> 20) + " MiB; at most " +
             std::to_string(kMaxSnapshotBytes >> 20) + " MiB: give fewer tokens");
    return val::null();
  }
  snapshot_ = train::AttentionSnapshot(m, ids);
  val out = val::object();
  out.set("layers", config.layers);
  out.set("heads", config.heads);
  out.set("length", batch.length);
  out.set("weights", val(emscripten::typed_memory_view(snapshot_.size(), snapshot_.data())));
  return out;
}

val ModelHandle::predict(const val& input) {
  trace_.Clear();
  train::Trainer* t = trainer("predict");
  if (t == nullptr) return val::null();
  std::vector<int> prompt, answer;
  status_ = t->Predict(emscripten::convertJSArrayToNumberVector<int>(input), &prompt, &answer);
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("input", Ids(prompt));
  out.set("answer", Ids(answer));
  return out;
}

val ModelHandle::taskPrompt(const val& input) {
  train::Trainer* t = trainer("taskPrompt");
  if (t == nullptr) return val::null();
  train::TaskPrompt asked;
  status_ = train::PromptOf(t->config().task, emscripten::convertJSArrayToNumberVector<int>(input),
                            &asked);
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("prompt", Ids(asked.prompt));
  out.set("answerLength", asked.answer_length);
  out.set("expected", Ids(asked.expected));
  return out;
}

}  // namespace attention::bindings
