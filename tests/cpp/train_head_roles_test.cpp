// The keys each head role predicts, on a hand-written quatrain and tagged sentence,
// the pooled score and chance of hand-made attention patterns, and MeasureHeadRoles on a tiny
// model whose weights make one head a previous-token head and the other uniform.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attention/train/head_roles.hpp"

namespace attention::train {
namespace {

// UTF-8 text → one symbol per code point (what a character-level vocabulary reads).
std::vector<std::string> CodePoints(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    out.push_back(text.substr(i, n));
    i += n;
  }
  return out;
}

// 0床 1前 2明 3月 4光 5， 6疑 7是 8地 9上 10霜 11。 12举 13头 14望 15明 16月 17， 18低 19头 20思
// 21故 22乡 23。
const std::vector<std::string> kPoem =
    CodePoints("床前明月光，疑是地上霜。举头望明月，低头思故乡。");

RoleKeys Keys(RoleKind role) { return TextRoleKeys(role, kPoem, {}); }

TEST(HeadRoleKeys, PreviousAndFirst) {
  const RoleKeys previous = Keys(RoleKind::kPrevious), first = Keys(RoleKind::kFirst);
  EXPECT_TRUE(previous[0].empty());
  EXPECT_EQ(previous[7], std::vector<int>{6});
  EXPECT_TRUE(first[1].empty());  // the first token is also the previous one there
  EXPECT_EQ(first[2], std::vector<int>{0});
  EXPECT_EQ(first[23], std::vector<int>{0});
}

TEST(HeadRoleKeys, LineStartIsThePunctuationThatOpenedTheLine) {
  const RoleKeys k = Keys(RoleKind::kLineStart);
  for (int i = 0; i <= 6; ++i) EXPECT_TRUE(k[i].empty()) << i;  // no mark yet, or it is i − 1
  EXPECT_EQ(k[7], std::vector<int>{5});
  EXPECT_EQ(k[11], std::vector<int>{5});  // the 。 closing a line still looks at its opener
  EXPECT_TRUE(k[12].empty());
  EXPECT_EQ(k[16], std::vector<int>{11});
  EXPECT_EQ(k[23], std::vector<int>{17});
}

TEST(HeadRoleKeys, CoupletPairsTheSameSlotOfTheLineBefore) {
  const RoleKeys k = Keys(RoleKind::kCouplet);
  // Line 1 follows the window's first line, which may have begun before the window.
  for (int i = 0; i < 12; ++i) EXPECT_TRUE(k[i].empty()) << i;
  EXPECT_EQ(k[12], std::vector<int>{6});   // 举 ↔ 疑
  EXPECT_EQ(k[16], std::vector<int>{10});  // 月 ↔ 霜
  EXPECT_TRUE(k[17].empty());              // a mark
  EXPECT_EQ(k[18], std::vector<int>{12});  // 低 ↔ 举
  EXPECT_EQ(k[22], std::vector<int>{16});  // 乡 ↔ 月
}

TEST(HeadRoleKeys, RhymeIsTheLastCharacterOfTheLineBefore) {
  const RoleKeys k = Keys(RoleKind::kRhyme);
  EXPECT_TRUE(k[6].empty());             // a line's first query would look 2 back
  EXPECT_EQ(k[7], std::vector<int>{4});  // 光
  EXPECT_EQ(k[10], std::vector<int>{4});
  EXPECT_TRUE(k[11].empty());
  EXPECT_EQ(k[19], std::vector<int>{16});  // 月
}

TEST(HeadRoleKeys, DuplicateIsEveryEarlierOccurrenceButThePreviousToken) {
  const RoleKeys k = Keys(RoleKind::kDuplicate);
  EXPECT_EQ(k[15], std::vector<int>{2});   // 明
  EXPECT_EQ(k[16], std::vector<int>{3});   // 月
  EXPECT_EQ(k[19], std::vector<int>{13});  // 头
  EXPECT_TRUE(k[17].empty());              // ， is a mark
  EXPECT_TRUE(k[14].empty());
  const RoleKeys twice = TextRoleKeys(RoleKind::kDuplicate, CodePoints("春春风春"), {});
  EXPECT_TRUE(twice[1].empty());  // only the previous token
  EXPECT_EQ(twice[3], (std::vector<int>{0, 1}));
}

TEST(HeadRoleKeys, PartOfSpeechRolesFollowTheTags) {
  std::vector<std::string> pieces, tags;
  const std::string tagged =
      "the/at old/jj city's/nn$ council/nn-tl said/vbd \"/`` we/ppss won/vbd \"/'' ./.";
  ASSERT_TRUE(ReadTaggedText(tagged, &pieces, &tags).ok());
  // city's → city ' s: the tag on the first piece. Quotes are written " as in the prepared
  // sample, their tags `` and '' tell them apart.
  const std::vector<std::string> want_pieces = {"the",  "old", "city", "'",   "s",  "council",
                                                "said", "\"",  "we",   "won", "\"", "."};
  EXPECT_EQ(pieces, want_pieces);
  const std::vector<std::string> want_tags = {"at",  "jj", "nn$",  "",    "",   "nn",
                                              "vbd", "``", "ppss", "vbd", "''", "."};
  EXPECT_EQ(tags, want_tags);
  const RoleKeys modifier = TextRoleKeys(RoleKind::kNounModifier, pieces, tags);
  EXPECT_EQ(modifier[2], (std::vector<int>{0, 1}));
  EXPECT_TRUE(modifier[5].empty());  // "s" (untagged) breaks the run before council
  const RoleKeys verb = TextRoleKeys(RoleKind::kVerbNoun, pieces, tags);
  EXPECT_EQ(verb[6], std::vector<int>{5});  // said → council
  EXPECT_EQ(verb[9], std::vector<int>{8});  // won → we
  const RoleKeys quote = TextRoleKeys(RoleKind::kCloseQuote, pieces, tags);
  EXPECT_EQ(quote[10], std::vector<int>{7});
  EXPECT_TRUE(quote[7].empty());
  EXPECT_FALSE(ReadTaggedText("the/at dog", &pieces, &tags).ok());
}

// A [T × T] causal pattern: all of row i on keys[i][0], or on i itself when it has none.
std::vector<float> OnKeys(const RoleKeys& keys) {
  const int t = static_cast<int>(keys.size());
  std::vector<float> w(static_cast<size_t>(t) * t, 0.0f);
  for (int i = 0; i < t; ++i)
    w[static_cast<size_t>(i) * t + (keys[i].empty() ? i : keys[i][0])] = 1;
  return w;
}

TEST(HeadRoleTally, AHeadOnItsKeysScoresOneAgainstTheUniformRowsChance) {
  const RoleKeys keys = Keys(RoleKind::kLineStart);
  const std::vector<float> w = OnKeys(keys);
  const int t = static_cast<int>(kPoem.size());
  std::vector<RoleScore> scores;
  double chance = 0.0;
  int queries = 0;
  for (int i = 0; i < t; ++i) {
    if (!keys[i].empty()) chance += 1.0 / (i + 1), ++queries;
  }
  for (const RoleInfo& role : kRoles) {
    RoleTally tally;
    if (role.kind == RoleKind::kBroad) {
      tally.AddEntropy(w.data(), t);
    } else if (role.kind != RoleKind::kInduction && !role.needs_tags) {
      tally.Add(w.data(), t, Keys(role.kind));
    }
    scores.push_back(tally.Result({}));
  }
  const RoleScore& line_start = scores[1];
  ASSERT_STREQ(kRoles[1].name, "lineStart");
  EXPECT_EQ(line_start.queries, queries);
  EXPECT_DOUBLE_EQ(line_start.score, 1.0);
  EXPECT_NEAR(line_start.chance, chance / queries, 1e-12);
  EXPECT_NEAR(line_start.ratio, queries / chance, 1e-9);
  EXPECT_DOUBLE_EQ(scores[0].score, 0.0);  // previous: never on i − 1
  EXPECT_DOUBLE_EQ(scores[7].score, 0.0);  // broad: one-hot rows have no entropy
  EXPECT_EQ(RoleOf(scores), "lineStart");
}

TEST(HeadRoleTally, AnOffsetHeadScoresOneTimesThePositionMatchedChance) {
  // A head that always looks one back scores 1 on a determiner right before its noun, and so
  // does its offset profile (o[1] = 1): 1× chance, no role.
  const RoleKeys keys = {{}, {0}, {}, {}, {3}};
  const std::vector<float> w = OnKeys(TextRoleKeys(RoleKind::kPrevious, CodePoints("abcde"), {}));
  RoleTally tally;
  tally.Add(w.data(), 5, keys);
  const RoleScore s = tally.Result({0.2, 1.0, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(s.score, 1.0);
  EXPECT_DOUBLE_EQ(s.chance, 1.0);
  EXPECT_DOUBLE_EQ(s.ratio, 1.0);
}

TEST(HeadRoleKeys, InductionLooksAtTheTokenAfterTheEarlierCopy) {
  const RoleKeys k = RepeatedSequenceKeys(8);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(k[i].empty());
  EXPECT_EQ(k[4], std::vector<int>{1});
  EXPECT_EQ(k[7], std::vector<int>{4});
}

// One attention-only layer, learned positions one-hot in the first T dimensions and no token
// embedding: head 0's q of position t is c·e_{t−1} and its k of position j is e_j, so it looks
// one back; head 1's W_Q is zero, so its rows are uniform.
TEST(MeasureHeadRoles, FindsAPreviousTokenHeadAndABroadOneInATinyModel) {
  ModelConfig config;
  config.vocab_size = 8;
  config.context_length = 8;
  config.d_model = 16;
  config.heads = 2;
  config.layers = 1;
  config.attention_only = true;
  config.positional = PositionalKind::kLearned;
  ASSERT_TRUE(ValidateModelConfig(config).ok());
  Model<float> model(config);
  auto tensor = [&](TensorKind kind, int layer) {
    for (size_t i = 0; i < model.layout().size(); ++i) {
      if (model.layout()[i].kind == kind && model.layout()[i].layer == layer) {
        return model.parameter(i);
      }
    }
    return static_cast<float*>(nullptr);
  };
  float* positions = tensor(TensorKind::kPositionEmbedding, -1);  // [8 × 16]
  float* wq = tensor(TensorKind::kWQ, 0);                         // [16 × 16], head 0: cols 0–7
  float* wk = tensor(TensorKind::kWK, 0);
  ASSERT_TRUE(positions && wq && wk);
  for (int t = 0; t < 8; ++t) {
    positions[t * 16 + t] = 1.0f;
    wk[t * 16 + t] = 1.0f;
    if (t >= 1) wq[t * 16 + (t - 1)] = 40.0f;
  }
  const std::vector<std::string> symbols = {"<pad>", "<unk>", "<bos>", "<eos>",
                                            "a",     "b",     "c",     "。"};
  std::vector<int> ids;
  for (int i = 0; i < 40; ++i) ids.push_back(4 + (i * 5 + i / 3) % 4);
  HeadRoles roles;
  ASSERT_TRUE(MeasureHeadRoles(&model, ids, symbols, {}, &roles, 8, 3).ok());
  EXPECT_EQ(roles.windows, 5);
  const std::vector<RoleScore>& previous_head = roles.scores[0][0];
  const std::vector<RoleScore>& uniform_head = roles.scores[0][1];
  EXPECT_GT(previous_head[0].score, 0.99);
  EXPECT_EQ(roles.role[0][0], "previous");
  // Uniform rows put 1/(i + 1) on any one key: every weight role is exactly at chance.
  for (size_t r = 0; r < kRoles.size(); ++r) {
    if (uniform_head[r].queries == 0) continue;
    if (kRoles[r].kind == RoleKind::kBroad) {
      EXPECT_NEAR(uniform_head[r].score, 1.0, 1e-6);
    } else {
      EXPECT_NEAR(uniform_head[r].ratio, 1.0, 1e-5) << kRoles[r].name;
    }
  }
  EXPECT_EQ(uniform_head[6].queries, 8 * 4);  // induction: 8 sequences, 4 queries each
  EXPECT_EQ(roles.role[0][1], "broad");
  EXPECT_FALSE(MeasureHeadRoles(&model, {4, 5}, symbols, {}, &roles).ok());
}

}  // namespace
}  // namespace attention::train
