// attention_train_corpus: trains a corpus language model natively and writes
// the model file (float16) and a JSON report. build-scripts/train-models.sh runs it; usage:
//
//   attention_train_corpus --train T.txt --heldout H.txt [--sample S.txt] --level character
//     --out models/tang.model --report R.json [--vocab 8192] [--context-length 64] [--steps 3000]
//     [--seconds 0] [--layers 2] [--d-model 64] [--learning-rate 0.001] [--batch-size 32] …
//
// Its flags (corpus_flags.hpp) are its own, the text's options (corpus_fields.hpp, as
// createCorpusTrainer's, with their defaults) and every trainer field of the engine's table
// (trainer_fields.hpp) but the task's and totalSteps (set from --steps), spelled as the JS
// command spells them (learningRate → --learning-rate); --help lists them with their defaults,
// and an unknown flag is refused. Every output path is checked before anything is read or trained
// (output_files.hpp): an existing --out or --report is replaced only with --force, and each
// file is written whole beside its place, then renamed into it. A run is --steps updates (the
// cosine schedule's length) and may take several sittings: --seconds ends a sitting, --checkpoint
// keeps the run's state between them (checkpoint.hpp), and the same command run again (with
// --force, as the first sitting's model and report exist) goes on where it stopped. The batch is
// split into --threads shards (default: every core), run at once. The losses of the model file and
// the report are computed from the saved float16 file.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attention/parallel.hpp"
#include "attention/train/checkpoint.hpp"
#include "attention/train/corpus.hpp"
#include "attention/train/corpus_trainer.hpp"
#include "attention/train/model_io.hpp"
#include "attention/train/ngram.hpp"
#include "attention/train/trainer_fields.hpp"
#include "corpus_flags.hpp"
#include "init_model.hpp"
#include "output_files.hpp"

namespace {

using namespace attention::train;
using Clock = std::chrono::steady_clock;

void Check(const attention::Status& status, const std::string& context) {
  if (!status.ok()) Fail(context.empty() ? status.message() : context + ": " + status.message());
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

double Mean(const std::vector<double>& values) {
  double sum = 0.0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

// The held-out loss by position in the window (1, 2–4, 5–8, 9–16, 17+) of the transformer and
// of the Kneser–Ney 5-gram, side by side: [{positions, first, last, targets, transformer, kn5}].
nlohmann::ordered_json PositionReport(const std::vector<double>& model_nats,
                                      const std::vector<double>& kn5_nats, int length) {
  const std::vector<PositionLoss> model = LossByPosition(model_nats, length);
  const std::vector<PositionLoss> kn5 = LossByPosition(kn5_nats, length);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t b = 0; b < model.size(); ++b) {
    const std::string last = model[b].first == 17 ? "+" : "–" + std::to_string(model[b].last);
    rows.push_back({{"positions", std::to_string(model[b].first) +
                                      (model[b].last == model[b].first ? "" : last)},
                    {"first", model[b].first},
                    {"last", model[b].last},
                    {"targets", model[b].targets},
                    {"transformer", model[b].loss},
                    {"kn5", kn5[b].loss}});
  }
  return rows;
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
  std::vector<double> held_out_nats;  // −ln p per held-out target (HeldOutTargetLosses)
};
Evaluated SaveAndEvaluate(const Model<float>& model, const Vocabulary& vocabulary,
                          CorpusModelInfo info, const std::vector<int>& heldout,
                          const std::vector<int>& sample) {
  Evaluated result;
  Check(SaveCorpusModel(model, vocabulary, info, TensorType::kFloat16, &result.bytes), "save");
  LoadedModel loaded;
  Check(LoadModel(result.bytes.data(), result.bytes.size(), &loaded), "reload");
  Check(HeldOutLoss(loaded.model.get(), heldout, &result.held_out), "held-out loss");
  Check(HeldOutTargetLosses(loaded.model.get(), heldout, &result.held_out_nats),
        "held-out loss by position");
  if (!sample.empty()) Check(HeldOutLoss(loaded.model.get(), sample, &result.sample), "sample");
  info.held_out_loss = result.held_out;
  Check(SaveCorpusModel(model, vocabulary, info, TensorType::kFloat16, &result.bytes), "save");
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  // The trainer fields' defaults (trainer_fields.cpp), as createCorpusTrainer's.
  TrainerConfig fields = CorpusDefaults();
  const Flags options = ReadFlags(argc, argv, fields);
  std::string command = "attention_train_corpus";
  for (int i = 1; i < argc; ++i) {
    const std::string value = argv[i];
    command += " " + (value.find(' ') == std::string::npos ? value : "'" + value + "'");
  }
  ApplyTrainerFlags(options, &fields);
  if (!options.Has("min-learning-rate")) {
    fields.optimizer.min_learning_rate = fields.optimizer.learning_rate / 10;
  }
  // Every number checked before anything is read or trained.
  // The text's options by their rows (corpus_fields.hpp), as the page's.
  const int vocab_size = static_cast<int>(CorpusTextFlag(options, "vocabularySize"));
  const int min_count = static_cast<int>(CorpusTextFlag(options, "minCount"));
  const int context_length = static_cast<int>(CorpusTextFlag(options, "contextLength"));
  const int steps = IntFlag(options, "steps", 1, 1000000000);
  const int sitting_steps = IntFlag(options, "sitting-steps", 0, 1000000000);
  const int every = IntFlag(options, "eval-every", 1, 1000000000);
  const int save_every = std::max(every, IntFlag(options, "save-every", 1, 1000000000));
  const bool lowercase = BoolFlag(options, "lowercase");
  const bool canon_weighted = BoolFlag(options, "canon-weighted");
  const double budget = NumberFlag(options, "seconds", 0, 1e9);
  for (const char* required : {"train", "heldout", "level", "out", "report"}) {
    if (options.Get(required).empty()) Fail(std::string("--") + required + " is required");
  }
  // Every output path before the first byte is read: a run takes hours, and a path that cannot
  // take its files, or one that names another output or an input, would be found at its end.
  // The checkpoint is the run's own state, resumed and rewritten in place (it may exist).
  const bool force = options.Has("force");
  std::vector<OutputFile> outputs;
  Check(CheckOutputs({{"out", options.Get("out")},
                      {"report", options.Get("report")},
                      {"checkpoint", options.Get("checkpoint")}},
                     {{"train", options.Get("train")},
                      {"heldout", options.Get("heldout")},
                      {"sample", options.Get("sample")},
                      {"vocabulary-text", options.Get("vocabulary-text")},
                      {"init", options.Get("init")}},
                     force, "checkpoint", &outputs),
        "");
  // A write past `ulimit -f` fails with EFBIG (reported, the old file kept) instead of the
  // signal killing the tool.
  std::signal(SIGXFSZ, SIG_IGN);
  std::map<std::string, OutputFile> output;
  for (const OutputFile& file : outputs) output[file.flag] = file;
  // Writes an output whole; a file this run wrote already is replaced without --force.
  const auto write = [&](const std::string& flag, const std::vector<uint8_t>& bytes) {
    OutputFile& file = output.at(flag);
    Check(WriteFileWhole(flag, file.target, bytes, force || file.exists), "--" + flag);
    file.exists = true;
  };
  const Clock::time_point start = Clock::now();

  VocabularyOptions vocabulary_options;
  Check(ParseVocabularyLevel(options.Get("level"), &vocabulary_options.level), "--level");
  vocabulary_options.max_size = vocab_size;
  vocabulary_options.min_count = min_count;
  const std::string train_text = ReadText(options.Get("train"));
  Vocabulary vocabulary;
  const std::string& vocabulary_text = options.Get("vocabulary-text");
  Check(Vocabulary::Build(vocabulary_text.empty() ? train_text : ReadText(vocabulary_text),
                          vocabulary_options, &vocabulary),
        "vocabulary");
  const std::vector<int> train = Encode(vocabulary, train_text, "train");
  const std::vector<int> heldout = Encode(vocabulary, ReadText(options.Get("heldout")), "heldout");
  std::vector<int> sample;
  if (!options.Get("sample").empty()) {
    sample = Encode(vocabulary, ReadText(options.Get("sample")), "sample");
  }
  const std::string document_start =
      options.Get("document-start") == "newline" ? "\n" : options.Get("document-start");
  if (!document_start.empty() && vocabulary.Id(document_start) < Vocabulary::kSpecialCount) {
    Fail("--document-start (" + options.Get("document-start") +
         ") must be newline or a symbol of the vocabulary");
  }

  // The trainer fields as the flags set them; the text sets the two sizes, --steps the schedule.
  TrainerConfig config = fields;
  config.model.vocab_size = vocabulary.size();
  config.model.context_length = context_length;
  config.optimizer.total_steps = steps;
  const int length = config.model.context_length;

  std::printf(
      "vocabulary %d symbols (%s); train %zu ids, held-out %zu, sample %zu; "
      "unknown: held-out %.4f, sample %.4f\n",
      vocabulary.size(), options.Get("level").c_str(), train.size(), heldout.size(), sample.size(),
      UnknownShare(heldout), UnknownShare(sample));
  const NgramBaselines base = ComputeBaselines(train, heldout, vocabulary.size(), length);
  NgramBaselines sample_base;
  if (!sample.empty()) sample_base = ComputeBaselines(train, sample, vocabulary.size(), length);
  // Interpolated modified Kneser–Ney 3- and 5-grams (ngram.hpp) on the same targets, each in a
  // scope of its own: their sorted counts take hundreds of MB on millions of training ids, and
  // are freed before training starts.
  double kn3_loss = 0.0, kn5_loss = 0.0, sample_kn5_loss = 0.0;
  std::vector<double> kn5_nats;
  {
    const KneserNey kn3(train, 3, vocabulary.size());
    kn3_loss = Mean(kn3.TargetLosses(heldout, length));
  }
  {
    const KneserNey kn5(train, 5, vocabulary.size());
    kn5_nats = kn5.TargetLosses(heldout, length);
    kn5_loss = Mean(kn5_nats);
    if (!sample.empty()) sample_kn5_loss = Mean(kn5.TargetLosses(sample, length));
  }
  std::printf(
      "baselines (held-out): unigram %.4f, bigram %.4f (lambda %.2f), Kneser-Ney 3-gram %.4f, "
      "5-gram %.4f nats/token\n",
      base.unigram, base.bigram, base.bigram_lambda, kn3_loss, kn5_loss);
  std::fflush(stdout);

  std::unique_ptr<CorpusTrainer> trainer;
  StepMetrics metrics;
  Check(CorpusTrainer::Create(config, &train, &trainer), "trainer");
  // --init: continue from a saved model of the same configuration and vocabulary (a warm
  // restart: fresh AdamW moments, a new warmup and cosine; trainedSteps and tokensSeen count
  // both runs).
  EarlierTraining earlier;
  if (!options.Get("init").empty()) {
    std::vector<uint8_t> bytes;
    Check(ReadFileBytes(options.Get("init"), &bytes, MaxModelFileBytes()), "--init");
    LoadedModel init;
    Check(LoadModel(bytes.data(), bytes.size(), &init), "--init");
    Check(CheckInitModel(init, trainer->model().config(), vocabulary.symbols(), &earlier), "");
    std::copy(init.model->parameters(), init.model->parameters() + init.model->parameter_count(),
              trainer->model().parameters());
    std::printf("continuing from %s (%lld steps)\n", options.Get("init").c_str(),
                static_cast<long long>(earlier.steps));
  }
  const double planned_tokens = static_cast<double>(steps) * config.batch_size * length;
  if (static_cast<double>(earlier.steps + steps) > kMaxRecordedCount ||
      earlier.tokens + planned_tokens > kMaxRecordedCount) {
    Fail("--init: the model's trainedSteps or tokensSeen and this run's would pass 2^53 (" +
         std::to_string(static_cast<int64_t>(kMaxRecordedCount)) +
         "), the largest count a model file records exactly");
  }
  // --checkpoint: go on with the run it holds, if it is this run (the same settings, data and
  // starting point; where it ends and how often it saves are not part of the run).
  std::string run;
  {
    FlatJson about;
    for (const TrainerField& f : TrainerFields()) about.SetNumber(f.name, f.get(fields));
    for (const char* flag :
         {"vocab", "min-count", "vocabulary-text", "context-length", "steps", "level", "init"}) {
      about.SetString(flag, options.Get(flag));
    }
    about.SetNumber("trainIds", static_cast<double>(train.size()));
    about.SetString("trainHash", std::to_string(attention::Fnv1a64(train_text)));
    run = about.Write();
  }
  CheckpointState sittings{run, 0.0, 0};
  const std::string checkpoint = options.Get("checkpoint");
  std::vector<uint8_t> saved_state;
  if (!checkpoint.empty() && output.at("checkpoint").exists) {
    Check(ReadFileBytes(checkpoint, &saved_state), "--checkpoint");
    Check(trainer->Resume(saved_state, run, &sittings), "--checkpoint " + checkpoint);
    std::printf("resuming %s at step %d (%d sittings, %.0f s so far)\n", checkpoint.c_str(),
                trainer->steps(), sittings.sittings, sittings.seconds);
  }
  ++sittings.sittings;
  std::printf(
      "model: %d layers, %d heads, dModel %d, context %d, %zu parameters; batch %d in %d shards "
      "on %d threads\n",
      config.model.layers, config.model.heads, config.model.d_model, length,
      trainer->model().parameter_count(), config.batch_size, config.threads, trainer->cores());

  // Progress on the first ~16k held-out ids; every --save-every steps and at the end the model
  // and report are written whole (scored on the full held-out split), so a run stopped early
  // still leaves a complete, honest pair of files.
  const std::vector<int> probe(heldout.begin(),
                               heldout.begin() + std::min<size_t>(heldout.size(), 16384));
  const Clock::time_point training = Clock::now();
  const double earlier_seconds = sittings.seconds;
  const auto save = [&]() {
    if (!checkpoint.empty()) {
      // Replaced in place, always: it is this run's own state (a run killed mid-write keeps the
      // last one whole).
      std::vector<uint8_t> bytes;
      sittings.seconds = earlier_seconds + Seconds(training);
      Check(trainer->SaveCheckpoint(sittings, &bytes), "checkpoint");
      Check(WriteFileWhole("checkpoint", output.at("checkpoint").target, bytes, true),
            "--checkpoint");
    }
    CorpusModelInfo info;
    info.level = vocabulary_options.level;
    info.corpus = options.Get("corpus");
    info.title = options.Get("title");
    info.title_zh = options.Get("title-zh");
    info.lowercase = lowercase;
    info.trained_steps = earlier.steps + trainer->steps();
    info.baselines = base;
    info.kn5_loss = kn5_loss;
    info.tokens_seen =
        earlier.tokens + static_cast<double>(trainer->steps()) * config.batch_size * length;
    info.canon_weighted = canon_weighted;
    info.document_start = document_start;
    info.repeat_spans = config.corpus.repeat_spans;
    const Evaluated saved = SaveAndEvaluate(trainer->model(), vocabulary, info, heldout, sample);
    write("out", saved.bytes);
    std::printf(
        "saved at step %d: held-out %.4f nats/token (bigram %.4f, KN 5-gram %.4f); sample "
        "%.4f (unigram %.4f, bigram %.4f); %zu bytes; %.0f s\n",
        trainer->steps(), saved.held_out, base.bigram, kn5_loss, saved.sample, sample_base.unigram,
        sample_base.bigram, saved.bytes.size(), Seconds(start));
    std::fflush(stdout);
    const double train_seconds = earlier_seconds + Seconds(training);
    const double tokens_seen = static_cast<double>(trainer->steps()) * config.batch_size * length;
    nlohmann::ordered_json report = {
        {"command", command},
        {"level", options.Get("level")},
        {"vocabSize", vocabulary.size()},
        {"trainTokens", train.size()},
        {"heldOutTokens", heldout.size()},
        {"sampleTokens", sample.size()},
        {"layers", config.model.layers},
        {"heads", config.model.heads},
        {"dModel", config.model.d_model},
        {"repeatSpans", config.corpus.repeat_spans},
        {"contextLength", length},
        {"parameters", trainer->model().parameter_count()},
        {"batchSize", config.batch_size},
        {"threads", config.threads},
        {"cores", trainer->cores()},
        {"sittings", sittings.sittings},
        {"earlierSteps", earlier.steps},
        {"earlierTokensSeen", earlier.tokens},
        {"plannedSteps", steps},
        {"steps", trainer->steps()},
        {"tokensSeen", tokens_seen},
        {"tokensPerSecond", train_seconds > 0 ? tokens_seen / train_seconds : 0.0},
        {"learningRate", config.optimizer.learning_rate},
        {"trainSeconds", train_seconds},
        {"totalSeconds", Seconds(start)},
        {"lastTrainLoss", metrics.loss},
        {"heldOutLoss", saved.held_out},
        {"unigramLoss", base.unigram},
        {"bigramLoss", base.bigram},
        {"bigramLambda", base.bigram_lambda},
        {"kn3Loss", kn3_loss},
        {"kn5Loss", kn5_loss},
        {"lossByPosition", PositionReport(saved.held_out_nats, kn5_nats, length)},
        {"sampleLoss", saved.sample},
        {"sampleUnigramLoss", sample_base.unigram},
        {"sampleBigramLoss", sample_base.bigram},
        {"sampleBigramLambda", sample_base.bigram_lambda},
        {"sampleKn5Loss", sample_kn5_loss},
        {"modelBytes", saved.bytes.size()},
    };
    const std::string text = report.dump(2) + "\n";
    write("report", std::vector<uint8_t>(text.begin(), text.end()));
  };
  // The sitting ends at --steps or at the wall-time cap (the final scoring and saving follow).
  const int last = sitting_steps > 0 ? std::min(steps, trainer->steps() + sitting_steps) : steps;
  for (int done = trainer->steps(); done < last && (budget <= 0 || Seconds(start) < budget);) {
    const int count = std::min(every, last - done);
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
