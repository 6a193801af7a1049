// The training benchmark in the WebAssembly module (linked into bench-engine with
// wasm_bench.cpp): a TrainCase behind Embind, so that JS times step() exactly as the native
// program times TrainCase::Step.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "train_case.hpp"

namespace attention::bench {
namespace {

using emscripten::val;

class TrainHandle {
 public:
  explicit TrainHandle(const std::string& spec_text) {
    TrainSpec spec;
    status_ = ParseTrainSpec(spec_text, &spec);
    if (status_.ok()) {
      case_ = std::make_unique<TrainCase>(spec);
      status_ = case_->status();
    }
  }
  // "" when the spec made a model, else the reason.
  std::string error() const {
    return status_.ok() ? "" : status_.field() + ": " + status_.message();
  }
  // `count` training steps; "" or the error.
  std::string step(int count) {
    for (int i = 0; i < count; ++i) {
      const Status status = case_->Step();
      if (!status.ok()) return status.message();
    }
    return "";
  }
  double firstLoss() {
    double loss = 0.0;
    return case_->Evaluate(&loss).ok() ? loss : -1.0;
  }
  double loss() const { return case_->loss(); }
  int tokensPerStep() const { return case_->tokens_per_step(); }
  std::string layout() const { return case_->LayoutJson(); }
  std::string memory() const { return case_->MemoryJson(); }
  std::string log() const { return StepLogJson(case_->Log()); }
  // The current weights, layout order, as a Float32Array copy.
  val parameters() {
    Model& m = case_->model();
    return val(emscripten::typed_memory_view(m.parameter_count(), m.parameters()))
        .call<val>("slice");
  }
  // Batch i's tokens or targets [B × T] as an Int32Array copy.
  val batch(int i, bool targets) const {
    const train::Batch& b = case_->batch(i);
    const std::vector<int>& ids = targets ? b.targets : b.tokens;
    return val(emscripten::typed_memory_view(ids.size(), ids.data())).call<val>("slice");
  }

 private:
  using Model = train::Model<float>;
  Status status_;
  std::unique_ptr<TrainCase> case_;
};

}  // namespace
}  // namespace attention::bench

EMSCRIPTEN_BINDINGS(attention_train_bench) {
  using attention::bench::TrainHandle;
  emscripten::class_<TrainHandle>("Train")
      .constructor<std::string>()
      .function("error", &TrainHandle::error)
      .function("step", &TrainHandle::step)
      .function("firstLoss", &TrainHandle::firstLoss)
      .function("loss", &TrainHandle::loss)
      .function("tokensPerStep", &TrainHandle::tokensPerStep)
      .function("layout", &TrainHandle::layout)
      .function("memory", &TrainHandle::memory)
      .function("log", &TrainHandle::log)
      .function("parameters", &TrainHandle::parameters)
      .function("batch", &TrainHandle::batch);
}
