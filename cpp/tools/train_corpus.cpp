// attention_train_corpus: trains a corpus language model natively (issue 12 §1, §2) and writes
// the model file (float16) and a JSON report. build-scripts/train-models.sh runs it; usage:
//
//   attention_train_corpus --train T.txt --heldout H.txt [--sample S.txt] --level character
//     --out models/tang.model --report R.json [--vocab 5000] [--min-count 1] [--layers 2]
//     [--heads 4] [--d-model 128] [--context 64] [--batch 32] [--steps 3000] [--seconds 0]
//     [--lr 3e-3] [--warmup 100] [--seed 1] [--eval-every 100] [--save-every 400]
//     [--init earlier.model] [--lowercase true] [--corpus ..] [--title ..]
//     [--title-zh ..]
//
// --seconds > 0 caps the run by wall time: 5 timed steps set the step count (the cosine
// schedule needs it up front), and the loop stops at the cap in any case.
// The losses of the model file and the report are computed from the saved float16 file.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "attention/train/corpus.hpp"
#include "attention/train/corpus_trainer.hpp"
#include "attention/train/model_io.hpp"

namespace {

using namespace attention::train;
using Clock = std::chrono::steady_clock;

struct Options {
  std::map<std::string, std::string> values;
  std::string Get(const std::string& key, const std::string& fallback = "") const {
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  double Number(const std::string& key, double fallback) const {
    const std::string text = Get(key);
    return text.empty() ? fallback : std::strtod(text.c_str(), nullptr);
  }
  int Int(const std::string& key, int fallback) const {
    return static_cast<int>(Number(key, fallback));
  }
};

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "attention_train_corpus: %s\n", what.c_str());
  std::exit(1);
}

void Check(const attention::Status& status, const std::string& context) {
  if (!status.ok()) Fail(context + ": " + status.message());
}

std::string ReadText(const std::string& path) {
  std::vector<uint8_t> bytes;
  Check(ReadFileBytes(path, &bytes), path);
  return std::string(bytes.begin(), bytes.end());
}

std::vector<int> Encode(const Vocabulary& vocabulary, const std::string& text,
                        const std::string& name) {
  std::vector<int> ids;
  Check(vocabulary.Encode(text, &ids), name);
  return ids;
}

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

double UnknownShare(const std::vector<int>& ids) {
  size_t unknown = 0;
  for (int id : ids) unknown += id == Vocabulary::kUnknown ? 1 : 0;
  return ids.empty() ? 0.0 : static_cast<double>(unknown) / ids.size();
}

// Saves the model float16, reloads it, and returns the reloaded model's losses: what a user of
// the file gets, not the float32 weights in memory.
struct Evaluated {
  std::vector<uint8_t> bytes;
  double held_out = 0.0, sample = 0.0;
};
Evaluated SaveAndEvaluate(const Model<float>& model, const Vocabulary& vocabulary,
                          CorpusModelInfo info, const std::vector<int>& heldout,
                          const std::vector<int>& sample) {
  Evaluated result;
  Check(SaveCorpusModel(model, vocabulary, info, TensorType::kFloat16, &result.bytes), "save");
  LoadedModel loaded;
  Check(LoadModel(result.bytes.data(), result.bytes.size(), &loaded), "reload");
  Check(HeldOutLoss(loaded.model.get(), heldout, &result.held_out), "held-out loss");
  if (!sample.empty()) Check(HeldOutLoss(loaded.model.get(), sample, &result.sample), "sample");
  info.held_out_loss = result.held_out;
  Check(SaveCorpusModel(model, vocabulary, info, TensorType::kFloat16, &result.bytes), "save");
  return result;
}

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::string command = "attention_train_corpus";
  for (int i = 1; i < argc; ++i) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || i + 1 >= argc) Fail("expected --name value, got " + key);
    options.values[key.substr(2)] = argv[++i];
    const std::string value = argv[i];
    command += " " + key + " " + (value.find(' ') == std::string::npos ? value : "'" + value + "'");
  }
  for (const char* required : {"train", "heldout", "level", "out", "report"}) {
    if (options.Get(required).empty()) Fail(std::string("--") + required + " is required");
  }
  const Clock::time_point start = Clock::now();

  VocabularyOptions vocabulary_options;
  Check(ParseVocabularyLevel(options.Get("level"), &vocabulary_options.level), "--level");
  vocabulary_options.max_size = options.Int("vocab", 5000);
  vocabulary_options.min_count = options.Int("min-count", 1);
  const std::string train_text = ReadText(options.Get("train"));
  Vocabulary vocabulary;
  Check(Vocabulary::Build(train_text, vocabulary_options, &vocabulary), "vocabulary");
  const std::vector<int> train = Encode(vocabulary, train_text, "train");
  const std::vector<int> heldout = Encode(vocabulary, ReadText(options.Get("heldout")), "heldout");
  std::vector<int> sample;
  if (!options.Get("sample").empty()) {
    sample = Encode(vocabulary, ReadText(options.Get("sample")), "sample");
  }

  CorpusTrainerConfig config;
  config.model.vocab_size = vocabulary.size();
  config.model.context_length = options.Int("context", 64);
  config.model.d_model = options.Int("d-model", 128);
  config.model.heads = options.Int("heads", 4);
  config.model.layers = options.Int("layers", 2);
  config.model.positional = PositionalKind::kLearned;
  config.batch_size = options.Int("batch", 32);
  config.seed = static_cast<uint32_t>(options.Int("seed", 1));
  config.optimizer.learning_rate = options.Number("lr", 3e-3);
  config.optimizer.min_learning_rate = config.optimizer.learning_rate / 10;
  config.optimizer.warmup_steps = options.Int("warmup", 100);
  int steps = options.Int("steps", 3000);
  const int length = config.model.context_length;

  std::printf(
      "vocabulary %d symbols (%s); train %zu ids, held-out %zu, sample %zu; "
      "unknown: held-out %.4f, sample %.4f\n",
      vocabulary.size(), options.Get("level").c_str(), train.size(), heldout.size(), sample.size(),
      UnknownShare(heldout), UnknownShare(sample));
  const NgramBaselines base = ComputeBaselines(train, heldout, vocabulary.size(), length);
  NgramBaselines sample_base;
  if (!sample.empty()) sample_base = ComputeBaselines(train, sample, vocabulary.size(), length);
  std::printf("baselines (held-out): unigram %.4f, bigram %.4f (lambda %.2f) nats/token\n",
              base.unigram, base.bigram, base.bigram_lambda);
  std::fflush(stdout);

  // The step budget from the wall-time cap: 5 timed steps of a throwaway trainer.
  const double budget = options.Number("seconds", 0);
  std::unique_ptr<CorpusTrainer> trainer;
  StepMetrics metrics;
  if (budget > 0) {
    config.optimizer.total_steps = steps;
    Check(CorpusTrainer::Create(config, &train, &trainer), "trainer");
    Check(trainer->Step(1, &metrics), "step");  // the first step allocates
    const Clock::time_point timed = Clock::now();
    Check(trainer->Step(5, &metrics), "step");
    const double per_step = Seconds(timed) / 5;
    const int eval_count = steps / std::max(1, options.Int("eval-every", 100));
    const double left = budget - Seconds(start) - 0.02 * eval_count * per_step;
    steps = std::max(10, std::min(steps, static_cast<int>(left / per_step)));
    std::printf("%.3f s per step: %d steps fit in %.0f s\n", per_step, steps, budget);
  }
  config.optimizer.total_steps = steps;
  Check(CorpusTrainer::Create(config, &train, &trainer), "trainer");
  // --init: continue from a saved model of the same shape and vocabulary (a warm restart:
  // fresh AdamW moments, a new warmup and cosine; trainedSteps counts both runs).
  int earlier_steps = 0;
  if (!options.Get("init").empty()) {
    std::vector<uint8_t> bytes;
    Check(ReadFileBytes(options.Get("init"), &bytes, MaxModelFileBytes()), "--init");
    LoadedModel init;
    Check(LoadModel(bytes.data(), bytes.size(), &init), "--init");
    if (init.vocabulary != vocabulary.symbols() ||
        init.model->parameter_count() != trainer->model().parameter_count()) {
      Fail("--init: the model's vocabulary or shape differs from this run's");
    }
    std::copy(init.model->parameters(), init.model->parameters() + init.model->parameter_count(),
              trainer->model().parameters());
    Check(init.config.GetInt("trainedSteps", &earlier_steps), "--init");
    std::printf("continuing from %s (%d steps)\n", options.Get("init").c_str(), earlier_steps);
  }
  std::printf("model: %d layers, %d heads, dModel %d, context %d, %zu parameters; batch %d\n",
              config.model.layers, config.model.heads, config.model.d_model, length,
              trainer->model().parameter_count(), config.batch_size);

  // Progress on the first ~16k held-out ids; every --save-every steps and at the end the model
  // and report are written whole (scored on the full held-out split), so a run stopped early
  // still leaves a complete, honest pair of files.
  const std::vector<int> probe(heldout.begin(),
                               heldout.begin() + std::min<size_t>(heldout.size(), 16384));
  const int every = std::max(1, options.Int("eval-every", 100));
  const int save_every = std::max(every, options.Int("save-every", 400));
  const Clock::time_point training = Clock::now();
  const auto save = [&]() {
    CorpusModelInfo info;
    info.level = vocabulary_options.level;
    info.corpus = options.Get("corpus");
    info.title = options.Get("title");
    info.title_zh = options.Get("title-zh");
    info.lowercase = options.Get("lowercase") == "true";
    info.trained_steps = earlier_steps + trainer->steps();
    info.baselines = base;
    const Evaluated saved = SaveAndEvaluate(trainer->model(), vocabulary, info, heldout, sample);
    Check(WriteFileBytes(options.Get("out"), saved.bytes), "--out");
    std::printf(
        "saved at step %d: held-out %.4f nats/token (unigram %.4f, bigram %.4f); sample "
        "%.4f (unigram %.4f, bigram %.4f); %zu bytes; %.0f s\n",
        trainer->steps(), saved.held_out, base.unigram, base.bigram, saved.sample,
        sample_base.unigram, sample_base.bigram, saved.bytes.size(), Seconds(start));
    std::fflush(stdout);
    // Numbers in %g, so the file is as Prettier writes it (no trailing zeros).
    char report[4096];
    std::snprintf(
        report, sizeof report,
        "{\n  \"command\": %s,\n  \"level\": %s,\n  \"vocabSize\": %d,\n"
        "  \"trainTokens\": %zu,\n  \"heldOutTokens\": %zu,\n  \"sampleTokens\": %zu,\n"
        "  \"layers\": %d,\n  \"heads\": %d,\n  \"dModel\": %d,\n  \"contextLength\": %d,\n"
        "  \"parameters\": %zu,\n  \"batch\": %d,\n  \"earlierSteps\": %d,\n"
        "  \"plannedSteps\": %d,\n  \"steps\": %d,\n"
        "  \"learningRate\": %g,\n  \"trainSeconds\": %.5g,\n  \"totalSeconds\": %.5g,\n"
        "  \"lastTrainLoss\": %.7g,\n  \"heldOutLoss\": %.7g,\n  \"unigramLoss\": %.7g,\n"
        "  \"bigramLoss\": %.7g,\n  \"bigramLambda\": %.2g,\n  \"sampleLoss\": %.7g,\n"
        "  \"sampleUnigramLoss\": %.7g,\n  \"sampleBigramLoss\": %.7g,\n"
        "  \"sampleBigramLambda\": %.2g,\n  \"modelBytes\": %zu\n}\n",
        JsonString(command).c_str(), JsonString(options.Get("level")).c_str(), vocabulary.size(),
        train.size(), heldout.size(), sample.size(), config.model.layers, config.model.heads,
        config.model.d_model, length, trainer->model().parameter_count(), config.batch_size,
        earlier_steps, steps, trainer->steps(), config.optimizer.learning_rate, Seconds(training),
        Seconds(start), metrics.loss, saved.held_out, base.unigram, base.bigram, base.bigram_lambda,
        saved.sample, sample_base.unigram, sample_base.bigram, sample_base.bigram_lambda,
        saved.bytes.size());
    const std::string text = report;
    Check(WriteFileBytes(options.Get("report"), std::vector<uint8_t>(text.begin(), text.end())),
          "--report");
  };
  // A hard stop at the wall-time cap (less a minute for the final scoring): under a heavier
  // load than the timed steps saw, the run ends early, mid-schedule, rather than overrunning.
  for (int done = 0; done < steps && (budget <= 0 || Seconds(start) < budget - 60);) {
    const int count = std::min(every, steps - done);
    Check(trainer->Step(count, &metrics), "step");
    done += count;
    double probe_loss = 0.0;
    Check(HeldOutLoss(&trainer->model(), probe, &probe_loss), "probe");
    std::printf("step %5d/%d  train %.4f  held-out %.4f  lr %.2e  |g| %.2f  %.0f tok/s  %.0f s\n",
                done, steps, metrics.loss, probe_loss, metrics.learning_rate, metrics.gradient_norm,
                metrics.tokens_per_second, Seconds(start));
    std::fflush(stdout);
    if (done % save_every == 0 && done < steps) save();
  }
  save();
  return 0;
}
