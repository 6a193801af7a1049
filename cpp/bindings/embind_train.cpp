// The raw Embind surface of training. The public API is training.js, which validates, copies
// results out of WASM memory and deletes every handle; nothing else should call these names.
#include <emscripten/bind.h>

#include "attention/parallel.hpp"
#include "model_handle.hpp"
#include "train_request.hpp"

EMSCRIPTEN_BINDINGS(attention_training) {
  // The trainer's fields (trainer_fields.hpp): training_config.js builds its checks from them.
  emscripten::function("trainerFields", &attention::bindings::TrainerFieldsVal);
  // The limits of a user's text for a corpus trainer (corpus_text.hpp), corpus_training.js's.
  emscripten::function("corpusLimits", &attention::bindings::CorpusLimitsVal);
  // The threads this build can run at once: 1 without -pthread, else the hardware's.
  emscripten::function("availableThreads", &attention::AvailableThreads);
  using attention::bindings::ModelHandle;
  emscripten::class_<ModelHandle>("ModelHandle")
      .constructor<>()
      .function("create", &ModelHandle::create)
      .function("load", &ModelHandle::load)
      // A GPT-2 checkpoint (model_checkpoint_handle.cpp), wrapped by checkpoint.js.
      .function("loadCheckpoint", &ModelHandle::loadCheckpoint)
      // Corpus language models (attention/train/language_model.hpp), wrapped by language_model.js.
      .function("encode", &ModelHandle::encode)
      .function("traceText", &ModelHandle::traceText)
      .function("nextLogits", &ModelHandle::nextLogits)
      .function("generate", &ModelHandle::generate)
      .function("info", &ModelHandle::info)
      .function("step", &ModelHandle::step)
      .function("evaluate", &ModelHandle::evaluate)
      .function("trace", &ModelHandle::trace)
      .function("traceSummary", &ModelHandle::traceSummary)
      .function("traceStep", &ModelHandle::traceStep)
      .function("traceNextLogits", &ModelHandle::traceNextLogits)
      .function("layerInput", &ModelHandle::layerInput)
      .function("layerOptions", &ModelHandle::layerOptions)
      .function("save", &ModelHandle::save)
      .function("headScores", &ModelHandle::headScores)
      .function("attention", &ModelHandle::attention)
      .function("predict", &ModelHandle::predict)
      .function("taskPrompt", &ModelHandle::taskPrompt)
      // A corpus trainer on a user's text (model_corpus_handle.cpp), wrapped by corpus_training.js.
      .function("corpusStart", &ModelHandle::corpusStart)
      .function("corpusAdd", &ModelHandle::corpusAdd)
      .function("corpusFinish", &ModelHandle::corpusFinish)
      .function("corpusEncode", &ModelHandle::corpusEncode)
      .function("corpusSummary", &ModelHandle::corpusSummary)
      .function("corpusTrain", &ModelHandle::corpusTrain)
      .function("corpusBaselines", &ModelHandle::corpusBaselines)
      .function("corpusHeldOutLoss", &ModelHandle::corpusHeldOutLoss)
      .function("corpusDescribe", &ModelHandle::corpusDescribe)
      // Head roles on held-out text, in steps (model_roles_handle.cpp), wrapped by head_roles.js.
      .function("rolesStart", &ModelHandle::rolesStart)
      .function("rolesStep", &ModelHandle::rolesStep)
      .function("rolesResult", &ModelHandle::rolesResult)
      .function("rolesStop", &ModelHandle::rolesStop)
      .function("errorCode", &ModelHandle::errorCode)
      .function("errorField", &ModelHandle::errorField)
      .function("errorMessage", &ModelHandle::errorMessage);
}
