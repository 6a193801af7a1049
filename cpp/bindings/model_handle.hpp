// The object JS holds for a trainable or loaded model (training.js wraps it as a Trainer or a
// Model). Errors are recorded, never thrown: after a false or null result JS reads
// errorCode/errorField/errorMessage and throws an AttentionError.
//
//   create(config)   a new model with seeded weights and its task's trainer
//   load(bytes)      a model file's model: a task model with a trainer for its task (to
//                    evaluate it), or a corpus language model (attention/train/language_model.hpp)
//                    to read text with
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/corpus_trainer.hpp"
#include "attention/train/head_roles.hpp"
#include "attention/train/language_model.hpp"
#include "attention/train/trainer.hpp"
#include "corpus_text.hpp"
#include "model_trace.hpp"

namespace attention::bindings {

// corpus_text.hpp's limits and the corpus trainer's context for JS: { maxTextBytes,
// maxVocabulary, minTokens, maxHeldOutTokens, maxControlShare, minContextLength,
// maxContextLength }.
emscripten::val CorpusLimitsVal();

class ModelHandle {
 public:
  // A trainer for `config` (train_request.hpp). False on error.
  bool create(const emscripten::val& config);

  // A model file (Uint8Array, docs/model-format.md): a task model with its task's trainer, or a
  // corpus language model ("vocabulary": "character" | "word"). False on error, the Status
  // naming the part of the file at fault.
  bool load(const emscripten::val& bytes);

  // A GPT-2 checkpoint (model_checkpoint_handle.cpp): config.json's text and model.safetensors'
  // bytes (Uint8Array), read by train::LoadGpt2Checkpoint, as a model of token ids with no
  // text reader; its vocabulary is the ids in decimal. False on error, the Status naming the
  // key or tensor at fault.
  bool loadCheckpoint(const std::string& config, const emscripten::val& safetensors);

  // { parameterCount, vocabulary: string[], vocabSize, contextLength, vocabularyLevel ("task",
  //   "character" or "word"), configJson (loaded models: the file's flat JSON), and for task
  //   models sequenceLength, answerLength, steps }, or null.
  emscripten::val info() const;

  // `count` training updates: { step, loss, accuracy, gradientNorm, learningRate,
  // tokensPerSecond, attentionEntropy, scoreGradientNorm, softmaxGradientNorm } or null. Task
  // models only.
  emscripten::val step(int count);
  // The first `count` held-out examples: { examples, exactMatch, tokenAccuracy, loss } or null.
  emscripten::val evaluate(int count);

  // One sequence of token ids (Int32Array) through the model; then traceSummary/traceStep
  // (model_trace.hpp) read it until the next call that runs the model. `every_position`: with
  // the steps logits and probabilities [T × V] (ModelTrace::Run's limit), else the last
  // position's logits only (traceNextLogits).
  bool trace(const emscripten::val& tokens, bool every_position);
  emscripten::val traceSummary() const { return trace_.Summary(); }
  // The last trace's last-position logits [V]: a Float32Array VIEW valid until the next call.
  emscripten::val traceNextLogits() const { return trace_.NextLogits(); }
  emscripten::val traceStep(const std::string& name, int layer, int head);
  // What layer `layer`'s attention reads for token ids (Int32Array), as trace()'s x of that
  // layer, with the model run only through that layer (Model::ForwardThrough): no logits over
  // the vocabulary, no Trace of any layer. { rows, cols, data } with data a Float32Array VIEW
  // valid until the next call; null on error. Clears the last trace.
  emscripten::val layerInput(const emscripten::val& tokens, int layer);
  // engine.open() options of layer `layer`'s attention for token ids (Int32Array), labelled by
  // the vocabulary: train::LayerTraceInputs as request.hpp's WriteRequest, the model run only
  // through that layer. Its matrices are VIEWS valid until the next call; null on error. Clears
  // the last trace.
  emscripten::val layerOptions(const emscripten::val& tokens, int layer);

  // What the training playground reads (model_handle_inspect.cpp); each runs the model, so the
  // last trace is cleared. Task models only; null on error.
  // { induction: number[layers][heads] | null (modular addition), previousToken: […][…] } on
  // the first `count` held-out examples (Trainer::ScoreHeldOutHeads).
  emscripten::val headScores(int count);
  // One sequence of token ids (Int32Array): { layers, heads, length, weights } with weights a
  // Float32Array VIEW [layers × heads × T × T] (AttentionSnapshot) valid until the next call.
  emscripten::val attention(const emscripten::val& tokens);
  // A task input of symbol ids (Int32Array, Trainer::Predict): { input: Int32Array (what the
  // model read), answer: Int32Array (what it generated) }, copies.
  emscripten::val predict(const emscripten::val& input);
  // What a prompt typed by a person asks of the task (train::PromptOf): { prompt: Int32Array,
  // answerLength, expected: Int32Array }, copies; null on error. Runs no model: the last trace
  // stays.
  emscripten::val taskPrompt(const emscripten::val& input);

  // The model file (Trainer::Save), a Uint8Array VIEW into WASM memory valid until the next
  // call: JS copies it.
  emscripten::val save(bool float16);

  // Corpus language models only (model_lm_handle.cpp); each null (or false) on error.
  // { tokens: string[], ids: number[], unknown: boolean[], total, cut } of `text`, at most
  // contextLength tokens: the first ones, or the last ones when `keep_end`
  // (attention/train/language_model.hpp).
  emscripten::val encode(const std::string& text, bool keep_end);
  // encode(text, keep_end), then trace() of its ids, the text's own symbols as the labels.
  emscripten::val traceText(const std::string& text, bool keep_end, bool every_position);
  // The logits [V] of the last position of token ids (Int32Array): a Float32Array VIEW, valid
  // until the next call.
  emscripten::val nextLogits(const emscripten::val& tokens);
  // Up to `count` new token ids after `tokens` (train::Generate, language_model.hpp), as a
  // number[]: a corpus model's rules, or a task model's (also for task models).
  emscripten::val generate(const emscripten::val& tokens, int count, double temperature, int top_k,
                           bool greedy, double seed);

  // A corpus trainer on a user's text (model_corpus_handle.cpp), wrapped by
  // corpus_training.js: the text in pieces, its vocabulary, then a CorpusTrainer whose model the
  // corpus calls above (encode, trace, generate) and step, attention and save read. Each false
  // or null on error.
  //   corpusStart(level, bytes) → corpusAdd(Uint8Array)… → corpusFinish(size, minCount, share)
  //   → corpusEncode()… ({ done, bytes }) → corpusSummary() → corpusTrain(config, T)
  bool corpusStart(const std::string& level, double total_bytes);
  bool corpusAdd(const emscripten::val& bytes);
  bool corpusFinish(int vocabulary_size, int min_count, double held_out);
  emscripten::val corpusEncode();
  // { level, bytes, tokens, distinct, unknown, trainTokens, heldOutTokens, vocabSize }.
  emscripten::val corpusSummary() const;
  // A new model and optimizer for the encoded text: `config` is training.js's flat trainer
  // configuration (its task fields unused), `context_length` the model's T.
  bool corpusTrain(const emscripten::val& config, int context_length);
  // The held-out tail's unigram and bigram losses: { unigram, bigram, bigramLambda, targets }.
  emscripten::val corpusBaselines() const;
  // The model's mean loss (nats per token) on the held-out tail, or null.
  emscripten::val corpusHeldOutLoss();
  // What the saved model file says of the text: where it came from and its titles.
  void corpusDescribe(const std::string& corpus, const std::string& title,
                      const std::string& title_zh);

  // Head roles measured on held-out text in steps (model_roles_handle.cpp, head_roles.hpp's
  // HeadRolesMeasure): rolesStart(ids Int32Array, symbols string[] (each id's text), { window,
  // repeats, seed, batch, poem, maxWindows }) → the number of steps, or -1 on error; rolesStep() →
  // { done, steps } or null; rolesResult() once done → the sidecar's { windows, positional, heads:
  // [{ layer, head, roles, scores }] }; rolesStop() drops the measurement. Loading a model drops it
  // too.
  int rolesStart(const emscripten::val& ids, const emscripten::val& symbols,
                 const emscripten::val& options);
  emscripten::val rolesStep();
  emscripten::val rolesResult();
  void rolesStop();

  std::string errorCode() const { return ErrorCodeName(status_.code()); }
  std::string errorField() const { return status_.field(); }
  std::string errorMessage() const { return status_.message(); }

 private:
  train::Model<float>* model();
  // The trainer, or null after recording FailNoTrainer(call)'s error (a corpus model says so).
  train::Trainer* trainer(const std::string& call);
  Status Fail(ErrorCode code, const std::string& field, const std::string& message);
  // The error of a task-model call (step, evaluate) on no model or on a corpus model.
  void FailNoTrainer(const std::string& call);
  // Drops the model and everything made from it (its trace, roles measure, trainers and corpus
  // reader) before another is loaded in its place.
  void DropModel();
  // The error of a corpus-model call on a task model; true when the model is a corpus model.
  bool RequireCorpus(const std::string& call);
  // The model and `tokens` as ids (Int32Array), each checked against the vocabulary; null after
  // recording the error (no model, or the first id out of range).
  train::Model<float>* ModelFor(const emscripten::val& tokens, std::vector<int>* ids);
  // ModelFor, then Model::ForwardThrough(layer) (layer checked); null after recording the error.
  train::Model<float>* ThroughLayer(const emscripten::val& tokens, int layer,
                                    std::vector<int>* ids);

  std::unique_ptr<train::Trainer> trainer_;  // the weights, the optimizer, the task's examples
  // A corpus language model instead: its weights and the vocabulary that reads its text.
  std::unique_ptr<train::Model<float>> corpus_model_;
  std::unique_ptr<train::TextReader> corpus_reader_;
  // A corpus trainer instead: the text (its ids outlive the trainer, which reads them), the
  // trainer, and what its model file records.
  std::unique_ptr<CorpusText> corpus_text_;
  std::unique_ptr<train::CorpusTrainer> corpus_trainer_;
  train::CorpusModelInfo corpus_info_;
  std::vector<float> logits_;            // [V] of nextLogits
  std::vector<std::string> vocabulary_;  // [V]
  std::string config_json_;              // a loaded model's configuration
  ModelTrace trace_;
  std::vector<uint8_t> saved_;
  std::vector<float> snapshot_;  // attention()'s weights, read by JS before the next call
  Input layer_options_;          // layerOptions()'s matrices, read by JS before the next call
  std::unique_ptr<train::HeadRolesMeasure> roles_;  // holds the model's pointer: reset on load
  Status status_;
};

}  // namespace attention::bindings
