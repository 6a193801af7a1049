// What a corpus language model (a model file whose configuration says "vocabulary":
// "character" or "word") adds to a task model: text read by the model's own vocabulary, the
// next token's logits, and generation, with the one sampler (PickNext) on the engine's
// generator. ModelHandle's corpus methods (cpp/bindings/model_lm_handle.cpp) wrap these for JS;
// tests/cpp/train_language_model_test.cpp tests them natively.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/random.hpp"
#include "attention/status.hpp"
#include "attention/train/flat_json.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_file.hpp"
#include "attention/train/vocabulary.hpp"

namespace attention::train {

// How a corpus model reads text: its vocabulary, and whether its training text was lower-cased
// (the file's "lowercase": true, e.g. the Brown corpus), so that typed text is too; and the
// symbol every document of its training text follows (the file's "documentStart", e.g. "\n"
// before each poem), read before typed text that starts a document (EncodeText).
struct TextReader {
  Vocabulary vocabulary;
  bool lowercase = false;
  std::string document_start;  // "" when the file has none
};

// The reader of a model file whose configuration `json` has "vocabulary": "character" or
// "word"; errors name "model.config.vocabulary", "model.config.lowercase",
// "model.config.documentStart" (a symbol of the vocabulary, not a special one) or
// "model.vocabulary[i]" (the four specials <pad> <unk> <bos> <eos> first, unique symbols, one
// code point each at character level).
Status LoadTextReader(const FlatJson& json, const std::vector<std::string>& symbols,
                      TextReader* reader);

// The model file of a loaded corpus model: its weights and vocabulary, and every key of its
// file's configuration `config_json` (the corpus, title, losses, …) kept as it was.
Status SaveCorpusModel(const Model<float>& model, const std::vector<std::string>& vocabulary,
                       const std::string& config_json, TensorType stored_as,
                       std::vector<uint8_t>* bytes);

// Text as the model reads it: [total] symbols (character level: code points; word level: the
// engine's Tokenize), each mapped to its id (looked up in ASCII lower case when the reader says
// so; a word not found as typed is also looked up in lower case) or <unk>. At most `context`
// symbols are kept: the first ones, or the last ones when `keep_end`.
// A reader with a document start (a poem model's "\n") reads it first, as its training text
// has one before every poem, when the text is not empty, does not begin with it, and its start
// is read: always when keeping the start (then context − 1 of the text's symbols at most), and
// when keeping the end only if the whole text fits after it. `started` says so; the start is then
// symbols[0], not one of the text's `total` symbols.
struct EncodedText {
  std::vector<std::string> symbols;  // [n ≤ context] the start, if read, then the text's symbols
  std::vector<int> ids;              // [n]
  std::vector<bool> unknown;         // [n] read as <unk>
  int total = 0;                     // symbols in the whole text (the start not counted)
  int cut = 0;                       // of those, dropped from the end, or the start if keep_end
  bool started = false;              // symbols[0] is the reader's document start, not typed
};
// Errors: kInvalidUtf8 / kLimitExceeded for field "text" (at most Limits::kMaxTextBytes).
Status EncodeText(const TextReader& reader, const std::string& text, bool keep_end, int context,
                  EncodedText* out);

// How generation picks each next token from the logits z [V] of the last position.
struct Sampling {
  double temperature = 1.0;  // p ∝ exp(z / temperature), Limits' 0.01 … 100
  int top_k = 0;             // only the k most likely tokens (0: all)
  bool greedy = true;        // the most likely token (lowest id on a tie); no randomness
  uint32_t seed = 1;         // RandomState(seed) draws one NextDouble per sampled token
};

// What generation may pick and what ends it. kCorpus (a corpus language model): every id but
// the markers <pad>, <unk> and <bos>; an <eos> ends it; past contextLength the window slides
// (positions restart at 0 when it moves). kTask (a toy-task model, whose positions are its
// task's layout): every symbol; a full context ends it.
enum class GenerationRules { kCorpus, kTask };

// Whether generation under `rules` may pick `id`.
bool Generable(int id, GenerationRules rules = GenerationRules::kCorpus);

// The next id from logits z [V] (see Sampling), the one sampler of the engine: among the
// Generable ids, most likely first (equal logits in id order); greedy takes the first, else one
// NextDouble of `random` picks from softmax(z / temperature) over the top_k. Every z must be
// finite (Forward refuses a pass whose logits are not).
int PickNext(const float* z, int v, const Sampling& sampling, RandomState* random,
             GenerationRules rules = GenerationRules::kCorpus);

// Up to `count` (1 … kMaxGenerate) new tokens after `ids` (1 … contextLength ids), each picked
// by PickNext from the logits of the model's last position, under `rules`: an <eos> ends a
// corpus model's (it is the last id of `out`), a full context a task model's (`out` may then be
// shorter, or empty). Errors name "count", "temperature", "topK" or "tokens", or the model's
// overflow ("model"); `out` is unchanged on error.
inline constexpr int kMaxGenerate = 1024;
Status Generate(Model<float>* model, const std::vector<int>& ids, int count,
                const Sampling& sampling, std::vector<int>* out,
                GenerationRules rules = GenerationRules::kCorpus);

// The logits of the last position of `ids` after one forward pass: [V] into `logits`.
Status NextLogits(Model<float>* model, const std::vector<int>& ids, std::vector<float>* logits);

}  // namespace attention::train
