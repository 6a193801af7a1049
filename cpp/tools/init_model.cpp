#include "init_model.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>

#include "attention/train/trainer_fields.hpp"

namespace attention::train {
namespace {

Status Refused(const std::string& what) {
  return Status(ErrorCode::kInvalidArgument, "init", "--init: " + what);
}

std::string Text(const FlatJson::Value& value) {
  switch (value.kind) {
    case FlatJson::Value::Kind::kNumber: {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", value.number);
      return text;
    }
    case FlatJson::Value::Kind::kBool:
      return value.boolean ? "true" : "false";
    case FlatJson::Value::Kind::kString:
      return "\"" + value.text + "\"";
  }
  return "";
}

bool Same(const FlatJson::Value& a, const FlatJson::Value& b) {
  return a.kind == b.kind && Text(a) == Text(b);
}

Status GetCount(const FlatJson& config, const char* key, double* value) {
  if (Status status = config.GetNumber(key, value); !status.ok()) {
    return Refused(status.message());
  }
  if (*value != std::floor(*value) || *value < 0 || *value > kMaxRecordedCount) {
    char text[160];
    std::snprintf(text, sizeof text, "the model's %s (%.17g) must be an integer from 0 to %.0f",
                  key, *value, kMaxRecordedCount);
    return Refused(text);
  }
  return Status::Ok();
}

}  // namespace

Status CheckInitModel(const LoadedModel& init, const ModelConfig& run,
                      const std::vector<std::string>& vocabulary, EarlierTraining* earlier) {
  const FlatJson theirs = ModelConfigJson(init.model->config());
  const FlatJson ours = ModelConfigJson(run);
  // The keys ModelConfigJson writes (model_io.cpp), in its tables' order rather than the file's
  // (alphabetical): the two sizes, then every model row a file records but initStd, which only
  // draws the starting weights the file replaces.
  std::vector<std::string> keys;
  for (const ModelSize& size : kModelSizes) keys.push_back(size.key);
  for (const TrainerField& row : TrainerFields()) {
    if (row.in_model_file && std::string_view(row.name) != "initStd") keys.push_back(row.name);
  }
  for (const std::string& key : keys) {
    const FlatJson::Value& a = theirs.values().at(key);
    const FlatJson::Value& b = ours.values().at(key);
    if (!Same(a, b)) {
      return Refused(std::string("the model's ") + key + " is " + Text(a) + "; this run's is " +
                     Text(b) + " (a warm restart continues a model of the same configuration)");
    }
  }
  for (size_t i = 0; i < vocabulary.size() && i < init.vocabulary.size(); ++i) {
    if (init.vocabulary[i] != vocabulary[i]) {
      return Refused("the model's vocabulary differs from this run's at symbol " +
                     std::to_string(i) + " (\"" + init.vocabulary[i] + "\" in the file, \"" +
                     vocabulary[i] + "\" in this run's)");
    }
  }
  double steps = 0.0, tokens = 0.0;
  if (Status status = GetCount(init.config, "trainedSteps", &steps); !status.ok()) return status;
  if (init.config.Has("tokensSeen")) {
    if (Status status = GetCount(init.config, "tokensSeen", &tokens); !status.ok()) return status;
  }
  earlier->steps = static_cast<int64_t>(steps);
  earlier->tokens = tokens;
  return Status::Ok();
}

}  // namespace attention::train
