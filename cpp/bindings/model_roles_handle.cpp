// ModelHandle::roles*: the head roles of a model measured on held-out text by the native tool's
// own code (train::HeadRolesMeasure, head_roles.hpp), in steps so that the page's worker can show
// progress between them and stop. What a GPT-2 checkpoint needs, which has no sidecar: the page
// hands it a held-out sample in the model's own tokens and the tokens' texts.
#include <string>
#include <vector>

#include "model_handle.hpp"

namespace attention::bindings {

using emscripten::val;

int ModelHandle::rolesStart(const val& ids, const val& symbols, const val& options) {
  trace_.Clear();
  roles_.reset();
  train::Model<float>* m = model();
  if (m == nullptr) {
    Fail(ErrorCode::kInvalidArgument, "model",
         "no model: load() or loadCheckpoint() did not succeed");
    return -1;
  }
  const std::vector<int> sample = emscripten::convertJSArrayToNumberVector<int>(ids);
  const std::vector<std::string> texts = emscripten::vecFromJSArray<std::string>(symbols);
  train::RolesOptions o;
  o.window = options["window"].as<int>();
  o.repeats = options["repeats"].as<int>();
  o.seed = options["seed"].as<unsigned>();
  o.batch = options["batch"].as<int>();
  o.poem = options["poem"].as<bool>();
  o.max_windows = options["maxWindows"].as<int>();
  auto measure = std::make_unique<train::HeadRolesMeasure>();
  status_ = measure->Start(m, sample, texts, {}, o);
  if (!status_.ok()) return -1;
  roles_ = std::move(measure);
  return roles_->steps();
}

val ModelHandle::rolesStep() {
  trace_.Clear();
  if (!roles_) {
    Fail(ErrorCode::kInvalidArgument, "roles", "no measurement: rolesStart() did not succeed");
    return val::null();
  }
  status_ = roles_->Step();
  if (!status_.ok()) return val::null();
  val out = val::object();
  out.set("done", roles_->done());
  out.set("steps", roles_->steps());
  return out;
}

val ModelHandle::rolesResult() {
  if (!roles_ || !roles_->finished()) {
    Fail(ErrorCode::kInvalidArgument, "roles",
         "the measurement has not finished: call rolesStep()");
    return val::null();
  }
  train::HeadRoles roles;
  roles_->Finish(&roles);
  // The sidecar's shape (cpp/tools/head_roles.cpp): what roles.js reads of a shipped model.
  val out = val::object();
  out.set("windows", roles.windows);
  val positional = val::array();
  for (const train::RoleInfo& info : train::kRoles) {
    if (info.positional) positional.call<void>("push", std::string(info.name));
  }
  out.set("positional", positional);
  val heads = val::array();
  for (size_t l = 0; l < roles.scores.size(); ++l) {
    for (size_t h = 0; h < roles.scores[l].size(); ++h) {
      val scores = val::object();
      for (size_t r = 0; r < train::kRoles.size(); ++r) {
        const train::RoleScore& s = roles.scores[l][h][r];
        if (s.queries == 0) continue;
        val one = val::object();
        one.set("score", s.score);
        one.set("chance", s.chance);
        one.set("ratio", s.ratio);
        one.set("matched", s.matched);
        one.set("matchedRatio", s.matched_ratio);
        one.set("queries", static_cast<double>(s.queries));
        one.set("holds", train::Holds(train::kRoles[r], s));
        scores.set(train::kRoles[r].name, one);
      }
      val names = val::array();
      for (const std::string& n : roles.roles[l][h]) names.call<void>("push", n);
      val head = val::object();
      head.set("layer", static_cast<int>(l));
      head.set("head", static_cast<int>(h));
      head.set("roles", names);
      head.set("scores", scores);
      heads.call<void>("push", head);
    }
  }
  out.set("heads", heads);
  return out;
}

void ModelHandle::rolesStop() { roles_.reset(); }

}  // namespace attention::bindings
