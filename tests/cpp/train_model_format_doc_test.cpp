// docs/model-format.md once named a tensor `blocks.0.attention.wQ` that no file
// holds. Every tensor name a saved model file contains (models of every variant, and the shipped
// models/*.model) must be in the doc's table of names, so that the doc cannot drift again.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "attention/train/model_file.hpp"
#include "attention/train/model_io.hpp"
#include "fixtures.hpp"

namespace attention::train {
namespace {

const std::string kRoot = std::string(ATTENTION_FIXTURE_DIR) + "/../../";

std::string ReadDoc() {
  std::ifstream in(kRoot + "docs/model-format.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names of a file's tensors, block numbers written as the doc writes them (`layers.<l>.wQ`).
std::set<std::string> DocumentedForms(const std::vector<uint8_t>& bytes) {
  ModelFile file;
  EXPECT_TRUE(ReadModelFile(bytes, &file).ok());
  std::set<std::string> names;
  for (const NamedTensor& t : file.tensors) {
    names.insert(std::regex_replace(t.name, std::regex("^layers\\.[0-9]+\\."), "layers.<l>."));
  }
  return names;
}

void ExpectEveryNameInTheDoc(const std::set<std::string>& names, const std::string& what) {
  const std::string doc = ReadDoc();
  ASSERT_FALSE(doc.empty());
  for (const std::string& name : names) {
    // A row of the table: "| `name` |".
    EXPECT_NE(doc.find("| `" + name + "` "), std::string::npos)
        << what << " holds tensor " << name << ", which docs/model-format.md does not list";
  }
}

TEST(ModelFormatDoc, ListsEveryTensorNameOfEveryVariant) {
  std::set<std::string> seen;
  for (int variant = 0; variant < 4; ++variant) {
    ModelConfig config = testing::SizedConfig(5, 4, 8, 2, 2);
    config.attention_only = variant == 1;
    config.tied_embeddings = variant != 2;
    config.positional = variant == 3 ? PositionalKind::kLearned : PositionalKind::kSinusoidal;
    Model<float> model(config);
    model.InitParameters(1);
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(
        SaveModel(model, {"a", "b", "c", "d", "e"}, FlatJson(), TensorType::kFloat16, &bytes).ok());
    const std::set<std::string> names = DocumentedForms(bytes);
    ExpectEveryNameInTheDoc(names, "variant " + std::to_string(variant));
    seen.insert(names.begin(), names.end());
  }
  // Together the variants hold all 21 rows of the table: the test covers every name.
  EXPECT_EQ(seen.size(), 21u);
  EXPECT_EQ(ReadDoc().find("blocks."), std::string::npos);
}

TEST(ModelFormatDoc, ListsEveryTensorNameOfTheShippedModels) {
  for (const char* name : {"tang.model", "brown.model"}) {
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(ReadFileBytes(kRoot + "models/" + name, &bytes, MaxModelFileBytes()).ok()) << name;
    ExpectEveryNameInTheDoc(DocumentedForms(bytes), name);
  }
}

}  // namespace
}  // namespace attention::train
