// The one table of trainer fields (trainer_fields.hpp) and the one task table (tasks.hpp): the
// engine's validation, the JS API and the native command all read these rows.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "attention/train/model_config.hpp"
#include "attention/train/optimizer.hpp"
#include "attention/train/tasks.hpp"
#include "attention/train/trainer_fields.hpp"

namespace attention::train {
namespace {

TEST(TrainerFields, EveryDefaultIsAllowedAndRoundTripsThroughItsMember) {
  ASSERT_GE(TrainerFields().size(), 27u);
  for (const TrainerField& f : TrainerFields()) {
    ASSERT_NE(f.get, nullptr) << f.name;
    ASSERT_NE(f.set, nullptr) << f.name;
    EXPECT_TRUE(CheckField(f, f.fallback).ok())
        << f.name << ": " << CheckField(f, f.fallback).message();
    TrainerConfig config;
    f.set(&config, f.fallback);
    EXPECT_EQ(f.get(config), f.fallback) << f.name;
    EXPECT_EQ(FindTrainerField(f.name), &f);
  }
  EXPECT_EQ(FindTrainerField("toString"), nullptr);
}

TEST(TrainerFields, TheStructsDefaultsAreTheRows) {
  // The structs have no default of their own: each constructor reads its section's rows.
  const TrainerConfig config;
  for (const TrainerField& f : TrainerFields()) EXPECT_EQ(f.get(config), f.fallback) << f.name;
  EXPECT_EQ(config.batch_size, 32) << "as docs/training-api.md says";
  EXPECT_EQ(ModelConfig().d_model, config.model.d_model);
  EXPECT_EQ(AdamWConfig().beta2, config.optimizer.beta2);
  EXPECT_EQ(TaskConfig().modulus, config.task.modulus);
  EXPECT_EQ(CorpusConfig().repeat_spans, config.corpus.repeat_spans);
}

TEST(TrainerFields, EachBoundIsRefusedNamingTheFieldAndWhatIsAllowed) {
  for (const TrainerField& f : TrainerFields()) {
    if (f.kind == FieldKind::kBool) {
      EXPECT_FALSE(CheckField(f, 2).ok()) << f.name;
      continue;
    }
    if (f.kind == FieldKind::kEnum) {
      const Status status = CheckField(f, static_cast<double>(f.values.size()));
      EXPECT_EQ(status.field(), f.name);
      EXPECT_NE(status.message().find("must be one of " + f.values[0]), std::string::npos)
          << status.message();
      continue;
    }
    const double below = f.min_open ? f.min : f.min - 1;
    for (double bad : {below, f.max * 2 + 1, std::nan("")}) {
      const Status status = CheckField(f, bad);
      EXPECT_FALSE(status.ok()) << f.name << " " << bad;
      EXPECT_EQ(status.field(), f.name);
      EXPECT_EQ(status.message().rfind(std::string(f.name) + " (", 0), 0u) << status.message();
      EXPECT_NE(status.message().find(AllowedValues(f)), std::string::npos) << status.message();
    }
    if (f.kind == FieldKind::kInt) EXPECT_FALSE(CheckField(f, f.min + 0.5).ok()) << f.name;
    EXPECT_TRUE(CheckField(f, f.max).ok()) << f.name;
  }
}

TEST(TrainerFields, TheEnginesValidationIsTheTables) {
  // The bounds that had drifted between C++ and JS: one of each now.
  AdamWConfig adam;
  adam.clip_norm = 2e6;
  Status status = ValidateAdamWConfig(adam);
  EXPECT_EQ(status.field(), "clipNorm");
  EXPECT_EQ(status.message(),
            "clipNorm (2000000) must be a number from 0 to 1000000 (0: no clipping)");
  adam = AdamWConfig();
  adam.epsilon = 1;
  EXPECT_TRUE(ValidateAdamWConfig(adam).ok()) << "as JS allows it";
  ModelConfig model;
  model.layers = 13;
  status = ValidateModelConfig(model);
  EXPECT_EQ(status.field(), "layers");
  EXPECT_EQ(status.message(), "layers (13) must be an integer from 1 to 12");
  EXPECT_EQ(AllowedValues(*FindTrainerField("learningRate")),
            "a number greater than 0 and at most 10");
  EXPECT_EQ(AllowedValues(*FindTrainerField("seed")), "an integer from 0 to 4294967295");
  EXPECT_EQ(AllowedValues(*FindTrainerField("positionalEncoding")), "one of sinusoidal, learned");
}

// What the WASM binding refuses before a member's cast, the bounds being Create's.
TEST(TrainerFields, HoldsSaysWhetherTheMembersTypeHoldsAValue) {
  const TrainerField& layers = *FindTrainerField("layers");
  EXPECT_TRUE(layers.holds(3));
  EXPECT_TRUE(layers.holds(99)) << "beyond the row's bounds, within an int: Create refuses it";
  EXPECT_FALSE(layers.holds(2.5));
  EXPECT_FALSE(layers.holds(1e300));
  EXPECT_FALSE(layers.holds(std::nan("")));
  EXPECT_TRUE(FindTrainerField("seed")->holds(4294967295.0));
  EXPECT_FALSE(FindTrainerField("seed")->holds(-1));
  EXPECT_TRUE(FindTrainerField("learningRate")->holds(0.5));
  EXPECT_FALSE(FindTrainerField("learningRate")->holds(INFINITY));
  for (const TrainerField& f : TrainerFields()) {
    EXPECT_TRUE(f.holds(f.fallback)) << f.name;
    EXPECT_TRUE(f.holds(f.min) && f.holds(f.max)) << f.name;
  }
}

TEST(TrainerFields, EachRowSaysWhatItIsAsAPhrase) {
  // The generated TrainerConfig's comments and the docs' table read it; the generator adds the
  // bounds and the default after it, so it does not end a sentence itself.
  for (const TrainerField& f : TrainerFields()) {
    const std::string about = f.about;
    ASSERT_FALSE(about.empty()) << f.name;
    EXPECT_NE(about.back(), '.') << f.name << ": " << about;
  }
}

TEST(TrainerFields, FlagsAreTheJsCommandsSpelling) {
  EXPECT_EQ(FlagOf("learningRate"), "learning-rate");
  EXPECT_EQ(FlagOf("dFF"), "d-ff");
  EXPECT_EQ(FlagOf("dK"), "d-k");
  EXPECT_EQ(FlagOf("beta1"), "beta1");
  EXPECT_EQ(FlagOf("tiedEmbeddings"), "tied-embeddings");
}

TEST(TaskTable, EachTaskKindHasOneRowThatTheTaskFieldNames) {
  const TrainerField& task = *FindTrainerField("task");
  ASSERT_EQ(task.values.size(), Tasks().size());
  std::set<int> kinds;
  for (const TaskSpec& spec : Tasks()) {
    const size_t kind = static_cast<size_t>(spec.kind);
    ASSERT_LT(kind, Tasks().size()) << spec.name;
    EXPECT_TRUE(kinds.insert(static_cast<int>(kind)).second) << spec.name;
    EXPECT_EQ(&SpecOf(spec.kind), &spec);
    EXPECT_EQ(task.values[kind], spec.name);
    TaskKind parsed;
    ASSERT_TRUE(ParseTaskKind(spec.name, &parsed).ok());
    EXPECT_EQ(parsed, spec.kind);
  }
  EXPECT_EQ(task.values[static_cast<size_t>(task.fallback)], "sort");
  TaskKind parsed;
  EXPECT_EQ(ParseTaskKind("sorting", &parsed).message(),
            "task (\"sorting\") must be one of copy, reverse, sort, induction, modular");
}

TEST(TaskTable, EachRowsLayoutAgreesWithTheExamplesItMakes) {
  for (const TaskSpec& spec : Tasks()) {
    TaskConfig config;
    config.kind = spec.kind;
    config.length = 6;
    config.alphabet = 9;
    config.modulus = 11;
    ASSERT_TRUE(ValidateTaskConfig(config).ok()) << spec.name;
    const TaskLayout layout = LayoutOf(config);
    TaskStream stream(config, 3, Split::kTrain);
    for (const Example& e : stream.Take(20)) {
      ASSERT_EQ(static_cast<int>(e.tokens.size()), layout.sequence_length) << spec.name;
      int answers = 0;
      for (unsigned char m : e.mask) answers += m;
      EXPECT_LE(answers, layout.answer_length) << spec.name;
      EXPECT_GE(answers, 1) << spec.name;
      for (int t : e.tokens) EXPECT_LT(t, layout.vocab_size) << spec.name;
    }
    config.length = spec.min_length - 1;
    EXPECT_EQ(spec.modular, ValidateTaskConfig(config).ok()) << spec.name;
  }
}

}  // namespace
}  // namespace attention::train
