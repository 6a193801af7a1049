// The two JSON readers share one lexer (cpp/src/train/json_lexer.hpp): a string or a number reads
// the same in the model file's flat configuration (FlatJson) and in any document (ParseJson: a
// safetensors header, a config.json), as nlohmann/json reads it, and a malformed one is refused
// by both with the same words at the same byte.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "attention/random.hpp"
#include "attention/train/flat_json.hpp"
#include "train/json_value.hpp"

namespace attention::train {
namespace {

TEST(TrainJsonLexer, BothReadersReadStringsAndNumbersAsAJsonLibraryDoes) {
  RandomState random(11);
  for (int i = 0; i < 100; ++i) {
    nlohmann::json object;
    object["x"] = random.Randn() * std::pow(10.0, static_cast<int>(random.NextUint32() % 60) - 30);
    object["s"] = std::string("é\u2028\\\"/\x01\x1f") + std::to_string(i) + "😀 火";
    const std::string text = object.dump();  // \u escapes for the control characters
    FlatJson flat;
    JsonValue tree;
    ASSERT_TRUE(FlatJson::Parse(text, "c", &flat).ok()) << text;
    ASSERT_TRUE(ParseJson(text, "c", &tree).ok()) << text;
    double number = 0;
    std::string string;
    ASSERT_TRUE(flat.GetNumber("x", &number).ok());
    ASSERT_TRUE(flat.GetString("s", &string).ok());
    EXPECT_EQ(number, object["x"].get<double>());
    EXPECT_EQ(tree.Get("x")->number, number);
    EXPECT_EQ(string, object["s"].get<std::string>());
    EXPECT_EQ(tree.Get("s")->text, string);
  }
  const std::string surrogates = R"({"e":"\u00e9\ud83d\ude00\n\/\b\f\r\t"})";
  FlatJson flat;
  JsonValue tree;
  ASSERT_TRUE(FlatJson::Parse(surrogates, "c", &flat).ok());
  ASSERT_TRUE(ParseJson(surrogates, "c", &tree).ok());
  std::string string;
  ASSERT_TRUE(flat.GetString("e", &string).ok());
  EXPECT_EQ(string, nlohmann::json::parse(surrogates)["e"].get<std::string>());
  EXPECT_EQ(tree.Get("e")->text, string);
}

TEST(TrainJsonLexer, BothReadersRefuseAMalformedValueWithTheSameWordsAtTheSameByte) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"a":"\ud800"})", "an unpaired surrogate escape at byte"},
      {R"({"a":"\ud800\u0041"})", "an unpaired surrogate escape"},
      {R"({"a":"\udc00"})", "an unpaired surrogate escape"},
      {R"({"a":"\u12"})", "a bad hex digit in a \\u escape at byte 10"},
      {R"({"a":"\u12)", "a short \\u escape at byte 10"},
      {R"({"a":"\q"})", "an unknown escape '\\q'"},
      {"{\"a\":\"\t\"}", "a control character inside a string at byte 6"},
      {R"({"a":"x)", "an unterminated string"},
      {R"({"a":-})", "expected a digit at byte 6"},
      {R"({"a":1.})", "expected a digit after '.' at byte 7"},
      {R"({"a":1e})", "expected an exponent at byte 7"},
      {R"({"a":-1e999})", "a number beyond the range of a double at byte 5"},
  };
  for (const auto& [text, says] : cases) {
    FlatJson flat;
    JsonValue tree;
    const Status a = FlatJson::Parse(text, "c", &flat);
    const Status b = ParseJson(text, "c", &tree);
    ASSERT_FALSE(a.ok()) << text;
    ASSERT_FALSE(b.ok()) << text;
    EXPECT_NE(a.message().find(says), std::string::npos) << text << ": " << a.message();
    // FlatJson names the key whose value is bad ("c.a: …"), ParseJson the document ("c: …").
    EXPECT_EQ(a.message().substr(a.message().find(": ")),
              b.message().substr(b.message().find(": ")))
        << text;
  }
}

}  // namespace
}  // namespace attention::train
