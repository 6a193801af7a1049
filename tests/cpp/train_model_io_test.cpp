// The flat JSON of a model file's configuration, and models saved and loaded.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attention/random.hpp"
#include "attention/train/flat_json.hpp"
#include "attention/train/model_io.hpp"
#include "attention/train/trainer.hpp"
#include "attention/train/trainer_fields.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

FlatJson ParseOk(const std::string& text) {
  FlatJson json;
  const Status status = FlatJson::Parse(text, "config", &json);
  EXPECT_TRUE(status.ok()) << text << ": " << status.message();
  return json;
}

TEST(TrainFlatJson, WritesWhatAJsonLibraryReadsBack) {
  FlatJson json;
  json.SetNumber("int", 42);
  json.SetNumber("negative", -7);
  json.SetNumber("fraction", 0.1);
  json.SetNumber("tiny", 3e-300);
  json.SetBool("yes", true);
  json.SetString("text", "quote \" backslash \\ newline \n tab \t bell \x07 火 👩‍💻");
  const std::string text = json.Write();
  EXPECT_NE(text.find("\"int\":42"), std::string::npos) << text;
  const nlohmann::json parsed = nlohmann::json::parse(text);
  EXPECT_EQ(parsed["int"], 42);
  EXPECT_EQ(parsed["negative"], -7);
  EXPECT_EQ(parsed["fraction"].get<double>(), 0.1);
  EXPECT_EQ(parsed["tiny"].get<double>(), 3e-300);
  EXPECT_EQ(parsed["yes"], true);
  EXPECT_EQ(parsed["text"], "quote \" backslash \\ newline \n tab \t bell \x07 火 👩‍💻");
}

TEST(TrainFlatJson, ReadsWhatAJsonLibraryWrites) {
  RandomState random(8);
  for (int i = 0; i < 200; ++i) {
    nlohmann::json object;
    const double x =
        random.Randn() * std::pow(10.0, static_cast<int>(random.NextUint32() % 40) - 20);
    object["x"] = x;
    object["n"] = static_cast<int>(random.NextUint32() % 100000) - 50000;
    object["b"] = i % 2 == 0;
    object["s"] = std::string("é\u2028\\\"/\x01") + std::to_string(i) + "😀";
    for (const int indent : {-1, 2}) {
      const FlatJson json = ParseOk(object.dump(indent));
      double number = 0;
      int integer = 0;
      bool boolean = false;
      std::string text;
      ASSERT_TRUE(json.GetNumber("x", &number).ok());
      EXPECT_EQ(number, x) << "doubles are exact";
      ASSERT_TRUE(json.GetInt("n", &integer).ok());
      EXPECT_EQ(integer, object["n"].get<int>());
      ASSERT_TRUE(json.GetBool("b", &boolean).ok());
      EXPECT_EQ(boolean, i % 2 == 0);
      ASSERT_TRUE(json.GetString("s", &text).ok());
      EXPECT_EQ(text, object["s"].get<std::string>());
    }
    // And its own output reads back the same.
    double again = 0;
    ASSERT_TRUE(ParseOk(ParseOk(object.dump()).Write()).GetNumber("x", &again).ok());
    EXPECT_EQ(again, x);
  }
  std::string escaped;
  ASSERT_TRUE(ParseOk(R"({"e":"\u00e9\ud83d\ude00\n\/"})").GetString("e", &escaped).ok());
  EXPECT_EQ(escaped, "é😀\n/");
  EXPECT_TRUE(ParseOk(" { } ").values().empty());
}

TEST(TrainFlatJson, MalformedTextIsRefusedNamingTheOffset) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "expected '{' at byte 0"},
      {"{\"a\" 1}", "expected ':' at byte 5"},
      {"{\"a\":1,}", "expected '\"' at byte 7"},
      {"{\"a\":1 \"b\":2}", "expected ',' or '}' at byte 7"},
      {"{\"a\":{\"b\":1}}", "nested objects and arrays are not supported at byte 5"},
      {"{\"a\":[1]}", "nested objects and arrays"},
      {"{\"a\":null}", "expected a number, true, false or a string at byte 5"},
      {"{\"a\":01}", "expected ',' or '}' at byte 6"},
      {"{\"a\":1.}", "expected a digit after '.'"},
      {"{\"a\":1e999}", "beyond the range of a double at byte 5"},
      {"{\"a\":\"x}", "an unterminated string"},
      {"{\"a\":\"\\q\"}", "an unknown escape '\\q'"},
      {"{\"a\":\"\\ud800\"}", "an unpaired surrogate escape"},
      {"{\"a\":\"\t\"}", "a control character inside a string"},
      {"{\"a\":1,\"a\":2}", "the key \"a\" appears twice at byte 7"},
      {"{\"a\":1} x", "unexpected text after the object at byte 8"},
  };
  for (const auto& [text, says] : cases) {
    FlatJson json;
    json.SetNumber("kept", 1);
    const Status status = FlatJson::Parse(text, "model.config", &json);
    EXPECT_TRUE(status.field() == "model.config" || status.field() == "model.config.a") << text;
    EXPECT_NE(status.message().find(says), std::string::npos) << text << ": " << status.message();
    EXPECT_TRUE(json.Has("kept")) << "untouched on failure";
  }
  // A bad value is named by its key: a forged model file's "heldOutLoss": null names it.
  for (const char* text : {R"({"ok":1,"heldOutLoss":null})", R"({"heldOutLoss":{"x":1}})",
                           R"({"heldOutLoss":1e999})", "{\"heldOutLoss\":\"\t\"}"}) {
    FlatJson json;
    const Status status = FlatJson::Parse(text, "model.config", &json);
    EXPECT_EQ(status.field(), "model.config.heldOutLoss") << text;
    EXPECT_EQ(status.message().rfind("model.config.heldOutLoss: ", 0), 0u) << status.message();
  }
  // The object's own syntax is the object's.
  FlatJson untouched;
  EXPECT_EQ(FlatJson::Parse(R"({"a":1,})", "model.config", &untouched).field(), "model.config");
  FlatJson json = ParseOk(R"({"n":1.5,"s":"x","big":3e9})");
  int n = 0;
  EXPECT_EQ(json.GetInt("n", &n).message(), "config.n (1.5) must be an integer");
  EXPECT_EQ(json.GetInt("big", &n).field(), "config.big");
  EXPECT_EQ(json.GetInt("s", &n).message(), "config.s must be an integer");
  EXPECT_EQ(json.GetInt("missing", &n).message(), "config.missing is missing");
}

std::unique_ptr<Trainer> TrainedSort(int steps) {
  TrainerConfig config;
  config.task.length = 4;
  config.task.alphabet = 5;
  config.model.d_model = 16;
  config.model.heads = 2;
  config.model.layers = 2;
  config.model.positional = PositionalKind::kLearned;
  config.model.tied_embeddings = false;
  config.batch_size = 8;
  std::unique_ptr<Trainer> trainer = testing::MakeTrainer(config);
  StepMetrics metrics;
  EXPECT_TRUE(trainer->Step(steps, &metrics).ok());
  return trainer;
}

std::vector<float> Logits(Model<float>* model) {
  Batch batch;
  batch.size = 1;
  batch.length = 8;
  batch.tokens = {3, 1, 4, 1, 5, 1, 3, 4};
  EXPECT_TRUE(model->Forward(batch).ok());
  int width = 0;
  const float* logits = model->Activation("logits", -1, &width);
  return std::vector<float>(logits, logits + 8 * width);
}

TEST(TrainModelIo, ASavedModelLoadsBitForBitAndRecordsItsTask) {
  auto trainer = TrainedSort(20);
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(trainer->Save(TensorType::kFloat32, &bytes).ok());
  LoadedModel loaded;
  const Status status = LoadModel(bytes.data(), bytes.size(), &loaded);
  ASSERT_TRUE(status.ok()) << status.message();
  const Model<float>& original = trainer->model();
  ASSERT_EQ(loaded.model->parameter_count(), original.parameter_count());
  EXPECT_EQ(std::memcmp(loaded.model->parameters(), original.parameters(),
                        original.parameter_count() * sizeof(float)),
            0);
  EXPECT_EQ(loaded.model->config().tied_embeddings, false);
  EXPECT_EQ(loaded.model->config().positional, PositionalKind::kLearned);
  EXPECT_EQ(loaded.model->config().d_model, 16);
  EXPECT_EQ(loaded.vocabulary, trainer->layout().symbols);
  EXPECT_TRUE(trainer->model().has_gradients());
  EXPECT_FALSE(loaded.model->has_gradients()) << "a loaded model is read: no gradients";
  EXPECT_EQ(Logits(loaded.model.get()), Logits(&trainer->model()));
  EXPECT_FALSE(loaded.model->has_gradients());
  std::string task;
  int length = 0;
  ASSERT_TRUE(loaded.config.GetString("task", &task).ok());
  ASSERT_TRUE(loaded.config.GetInt("taskLength", &length).ok());
  EXPECT_EQ(task, "sort");
  EXPECT_EQ(length, 4);
}

TEST(TrainModelIo, Float16HalvesTheFileAndKeepsTheWeightsToItsPrecision) {
  auto trainer = TrainedSort(5);
  std::vector<uint8_t> full, half;
  ASSERT_TRUE(trainer->Save(TensorType::kFloat32, &full).ok());
  ASSERT_TRUE(trainer->Save(TensorType::kFloat16, &half).ok());
  const size_t values = trainer->model().parameter_count();
  EXPECT_EQ(full.size() - half.size(), 2 * values);
  LoadedModel loaded;
  ASSERT_TRUE(LoadModel(half.data(), half.size(), &loaded).ok());
  for (size_t i = 0; i < values; ++i) {
    const float w = trainer->model().parameters()[i];
    EXPECT_NEAR(loaded.model->parameters()[i], w, std::fabs(w) * 1e-3 + 1e-7) << i;
  }
}

NamedTensor* Named(ModelFile* file, const std::string& name) {
  for (NamedTensor& tensor : file->tensors) {
    if (tensor.name == name) return &tensor;
  }
  ADD_FAILURE() << name;
  return &file->tensors[0];
}

// A trained model's file, edited through its ModelFile, then written again.
std::vector<uint8_t> Edited(void (*edit)(ModelFile*)) {
  auto trainer = TrainedSort(1);
  std::vector<uint8_t> bytes;
  EXPECT_TRUE(trainer->Save(TensorType::kFloat32, &bytes).ok());
  ModelFile file;
  EXPECT_TRUE(ReadModelFile(bytes, &file).ok());
  edit(&file);
  const Status written = WriteModelFile(file, &bytes);
  EXPECT_TRUE(written.ok()) << written.message();
  return bytes;
}

TEST(TrainModelIo, FilesThatDoNotDescribeAModelAreRefusedNamingWhy) {
  struct Case {
    void (*edit)(ModelFile*);
    const char* field;
    const char* says;
  } cases[] = {
      {[](ModelFile* f) { f->config_json = "{\"dModel\": 16"; }, "model.config",
       "expected ',' or '}'"},
      {[](ModelFile* f) { f->config_json = "{}"; }, "model.config.format", "missing"},
      {[](ModelFile* f) {
         FlatJson json;
         FlatJson::Parse(f->config_json, "c", &json);
         json.SetNumber("dModel", 0);
         f->config_json = json.Write();
       },
       "model.config.dModel", "must be an integer from 1"},
      {[](ModelFile* f) {
         FlatJson json;
         FlatJson::Parse(f->config_json, "c", &json);
         json.SetString("layers", "two");
         f->config_json = json.Write();
       },
       "model.config.layers", "must be an integer"},
      {[](ModelFile* f) { f->vocabulary.pop_back(); }, "model.vocabulary", "5 symbols"},
      {[](ModelFile* f) {
         f->tensors.erase(f->tensors.begin() + (Named(f, "layers.0.wQ") - &f->tensors[0]));
       },
       "model.tensors", "no tensor \"layers.0.wQ\""},
      {[](ModelFile* f) {
         Named(f, "layers.0.wQ")->shape = {8, 32};
       },
       "model.tensors.layers.0.wQ", "[8 × 32]; the configuration needs [16 × 16]"},
      {[](ModelFile* f) {
         f->tensors.push_back({"extra", {1}, {0.0f}, TensorType::kFloat32});
       },
       "model.tensors[", "\"extra\") is not a tensor"},
  };
  for (const Case& c : cases) {
    const std::vector<uint8_t> bytes = Edited(c.edit);
    LoadedModel loaded;
    const Status status = LoadModel(bytes.data(), bytes.size(), &loaded);
    EXPECT_EQ(status.field().rfind(c.field, 0), 0u) << c.field << ": " << status.message();
    EXPECT_NE(status.message().find(c.says), std::string::npos) << status.message();
    EXPECT_EQ(loaded.model, nullptr);
  }
  std::vector<uint8_t> truncated = Edited([](ModelFile*) {});
  truncated.resize(truncated.size() - 1);
  LoadedModel loaded;
  EXPECT_EQ(LoadModel(truncated.data(), truncated.size(), &loaded).field(), "model.size");
}

TEST(TrainModelIo, LargestModelFileBytesIsWhatTheWriterWritesAtTheLimits) {
  ModelFile file;
  file.config_json = std::string(ModelFileLimits::kMaxConfigBytes, 'x');
  for (char c : std::string("abc")) {
    file.vocabulary.push_back(std::string(ModelFileLimits::kMaxSymbolBytes - 1, 'a') + c);
  }
  file.tensors.push_back({"w", {3, 2}, std::vector<float>(6, 0.5f), TensorType::kFloat32});
  file.tensors.push_back(
      {"layers.0.rank4", {1, 2, 1, 3}, std::vector<float>(6, -1.0f), TensorType::kFloat32});
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(WriteModelFile(file, &bytes).ok());
  const std::vector<TensorExtent> extents = {{1, 2, 6}, {14, 4, 6}};
  EXPECT_EQ(bytes.size(), LargestModelFileBytes(3, extents));
  // float16 tensors and shorter strings only make a file smaller.
  file.tensors[0].stored_as = TensorType::kFloat16;
  file.vocabulary[0] = "a";
  ASSERT_TRUE(WriteModelFile(file, &bytes).ok());
  EXPECT_LT(bytes.size(), LargestModelFileBytes(3, extents));
}

// The largest model file the limits allow, counted by hand from docs/model-format.md and
// parameters.hpp: 2²⁷ float32 parameters, however split, in the most tensors a model has (12
// layers, learned positions, untied logits), and 65,536 symbols of 1,024 bytes.
TEST(TrainModelIo, MaxModelFileBytesIsTheFileOfTheLargestModel) {
  const uint64_t V = ModelLimits::kMaxVocab, L = ModelLimits::kMaxLayers;
  ASSERT_EQ(L, 12u);
  const uint64_t parameters = 134217728;
  // 2 + 16 · L + 3 = 197 tensors of 2 + 1 + 1 + 4 · 2 + 8 bytes besides their names: tokenEmbedding
  // (14), positionEmbedding (17), lnFinalGain, lnFinalBias, unembedding (11 each), and per layer 16
  // names "layers.k." (9; 10 for layers 10 and 11) + ln1Gain ln1Bias ln2Gain ln2Bias (7 each) + 12
  // of 2 letters.
  const uint64_t names = 14 + 17 + 3 * 11 + L * (16 * 9 + 4 * 7 + 12 * 2) + 2 * 16;
  const uint64_t tensors = (2 + 16 * L + 3) * 20 + names;
  const uint64_t fixed = 20 + 4 + ModelFileLimits::kMaxConfigBytes + 4 +
                         V * (4 + ModelFileLimits::kMaxSymbolBytes) + 4 + 8;
  EXPECT_EQ(MaxModelFileBytes(), fixed + tensors + 4 * parameters);
  // A model one past any limit is refused, so none is larger.
  ModelConfig past;
  past.vocab_size = ModelLimits::kMaxVocab + 1;
  EXPECT_FALSE(ValidateModelConfig(past).ok());
  past = ModelConfig();
  past.d_ff = 4 * ModelLimits::kMaxWidth + 1;
  EXPECT_FALSE(ValidateModelConfig(past).ok());
  // The saved models of these tests are far below it.
  EXPECT_LT(Edited([](ModelFile*) {}).size(), MaxModelFileBytes());
}

// A value of `row` other than its default, allowed by it and by ValidateModelConfig.
double OtherValue(const TrainerField& row) {
  if (row.kind == FieldKind::kBool || row.kind == FieldKind::kEnum) return row.fallback == 0;
  if (std::string(row.name) == "heads") return 2;   // still divides dModel 64
  if (std::string(row.name) == "dK") return 8;      // heads · dK within the width
  if (std::string(row.name) == "layers") return 3;  // 1 … 12
  return row.fallback == 0 ? 16 : row.fallback / 2;
}

TEST(TrainModelIo, EveryModelRowOfTheFieldTableIsAKeyThatRoundTrips) {
  ModelConfig config;
  TrainerConfig fields;
  size_t rows = 0;
  for (const TrainerField& row : TrainerFields()) {
    if (!row.in_model_file) continue;
    ASSERT_EQ(row.section, FieldSection::kModel) << row.name;
    row.set(&fields, OtherValue(row));
    ++rows;
  }
  config = fields.model;
  ASSERT_TRUE(ValidateModelConfig(config).ok()) << ValidateModelConfig(config).message();
  const FlatJson json = ModelConfigJson(config);
  // "format", the two sizes, and one key per row.
  EXPECT_EQ(json.values().size(), 1 + std::size(kModelSizes) + rows);
  ModelConfig back;
  ASSERT_TRUE(ModelConfigFromJson(json, &back).ok());
  TrainerConfig read;
  read.model = back;
  for (const TrainerField& row : TrainerFields()) {
    if (!row.in_model_file) continue;
    EXPECT_TRUE(json.Has(row.name)) << row.name;
    EXPECT_EQ(row.get(read), OtherValue(row)) << row.name;
  }
  // queryKeyInit is drawn with, not stored.
  EXPECT_FALSE(json.Has("queryKeyInit"));
}

TEST(TrainModelIo, TheShippedModelsKeysAreWrittenBackAsTheyWereSaved) {
  // Files written by the key list model_io.cpp kept before the field table: the table writes the
  // same keys with the same values, and reads them.
  const std::string root = std::string(ATTENTION_FIXTURE_DIR) + "/../../models/";
  for (const char* name : {"tang.model", "brown.model"}) {
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(ReadFileBytes(root + name, &bytes, MaxModelFileBytes()).ok()) << name;
    ModelFile file;
    ASSERT_TRUE(ReadModelFile(bytes, &file).ok()) << name;
    const FlatJson saved = ParseOk(file.config_json);
    ModelConfig config;
    ASSERT_TRUE(ModelConfigFromJson(saved, &config).ok()) << name;
    const FlatJson written = ModelConfigJson(config);
    for (const auto& [key, value] : written.values()) {
      ASSERT_TRUE(saved.Has(key)) << name << " " << key;
      const FlatJson::Value& old = saved.values().at(key);
      EXPECT_EQ(static_cast<int>(value.kind), static_cast<int>(old.kind)) << name << " " << key;
      EXPECT_EQ(value.number, old.number) << name << " " << key;
      EXPECT_EQ(value.boolean, old.boolean) << name << " " << key;
      EXPECT_EQ(value.text, old.text) << name << " " << key;
    }
    // The keys the old list wrote: format, 7 integers, 5 switches, positionalEncoding, initStd.
    // A model row added later fails here: these files lack its key, and LoadModel refuses them
    // until model_io.cpp reads its default when it is missing (model_io.hpp).
    EXPECT_EQ(written.values().size(), 15u) << name;
  }
}

}  // namespace
}  // namespace attention::train
