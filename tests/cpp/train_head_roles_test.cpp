// The keys each head role predicts, on a hand-written quatrain and tagged sentence,
// the pooled score and both baselines of hand-made attention patterns (a distance head fails 对仗
// and rhyme, heads on the parallel slot and the previous rhyme pass, near-equal roles are named
// together), and MeasureHeadRoles on a tiny model whose weights make one head a previous-token
// head and the other uniform.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(HeadRoleKeys, TheFirstTokenIsNeverALineStart) {
  // The page's text starts with the ↵ the model reads first, and a text without punctuation has
  // no other mark: many heads park on that first token whatever it is (first's key), so it is
  // not counted as the punctuation that opened the line.
  const RoleKeys k = TextRoleKeys(RoleKind::kLineStart, CodePoints("\n猫追着球跑"), {});
  for (const std::vector<int>& keys : k) EXPECT_TRUE(keys.empty());
  const RoleKeys poem = TextRoleKeys(RoleKind::kLineStart, CodePoints("\n床前明月光，疑是"), {});
  EXPECT_TRUE(poem[3].empty());
  EXPECT_EQ(poem[8], std::vector<int>{6});  // 是 → ，
}

// Each row of kLineMarks (which the JS reads from the engine's catalog) acts as its kind says,
// as head_roles.test.mjs checks the JS keys do: every mark opens the next line; a closing one
// closes a couplet, ， alone opens one, \n ends a poem (no rhyme across it).
TEST(HeadRoleKeys, EachLineMarkActsAsItsKindSays) {
  for (const LineMark& mark : kLineMarks) {
    const std::string m = mark.text;
    const RoleKeys start = TextRoleKeys(RoleKind::kLineStart, {"a", "b", m, "c", "d"}, {});
    EXPECT_EQ(start[4], std::vector<int>{2}) << m;
    const RoleKeys closed =
        TextRoleKeys(RoleKind::kCouplet, {"x", "。", "甲", "乙", "，", "丙", "丁", m}, {});
    EXPECT_EQ(closed[5], mark.kind == MarkKind::kClosing ? std::vector<int>{2} : std::vector<int>{})
        << m;
    const RoleKeys opened =
        TextRoleKeys(RoleKind::kCouplet, {"x", "。", "甲", "乙", m, "丙", "丁", "。"}, {});
    EXPECT_EQ(opened[5], mark.kind == MarkKind::kOpening ? std::vector<int>{2} : std::vector<int>{})
        << m;
    const RoleKeys rhyme =
        TextRoleKeys(RoleKind::kRhyme, {"x", "。", "甲", "乙", "。", m, "丙", "丁", "。"}, {});
    EXPECT_EQ(rhyme[6], mark.kind == MarkKind::kPoemEnd ? std::vector<int>{} : std::vector<int>{3})
        << m;
  }
}

TEST(HeadRoleKeys, CoupletPairsAClosingLineWithItsOpeningLine) {
  const RoleKeys k = Keys(RoleKind::kCouplet);
  // Lines 0–1 are a couplet whose opening line is the window's first (it may have begun before
  // the window); line 2 opens a couplet, it pairs with nothing.
  for (int i = 0; i < 18; ++i) EXPECT_TRUE(k[i].empty()) << i;
  EXPECT_EQ(k[18], std::vector<int>{12});  // 低 ↔ 举
  EXPECT_EQ(k[22], std::vector<int>{16});  // 乡 ↔ 月
  EXPECT_TRUE(k[23].empty());              // a mark
  // After the ↵ the page's text starts with, the first line is whole: 疑 ↔ 床.
  const RoleKeys typed =
      TextRoleKeys(RoleKind::kCouplet, CodePoints("\n床前明月光，疑是地上霜。"), {});
  EXPECT_EQ(typed[7], std::vector<int>{1});
  EXPECT_EQ(typed[11], std::vector<int>{5});
  // Lines of different lengths are not parallel; a line cut by the window's end is not known to
  // close; two closing lines are two couplets' second lines, not a couplet.
  for (const char* text :
       {"\n床前明月光，疑是地上霜之。", "\n床前明月光，疑是地上", "\n床前明月光。疑是地上霜。"}) {
    for (const std::vector<int>& keys : TextRoleKeys(RoleKind::kCouplet, CodePoints(text), {})) {
      EXPECT_TRUE(keys.empty()) << text;
    }
  }
}

TEST(HeadRoleKeys, RhymeIsPredictedAtTheQueryBeforeAClosingLinesLastCharacter) {
  const RoleKeys k = Keys(RoleKind::kRhyme);
  // 故 (21) predicts 乡, which rhymes with 霜 (10), the last character of the closing line before.
  for (int i = 0; i < 24; ++i) {
    if (i != 21) EXPECT_TRUE(k[i].empty()) << i;
  }
  EXPECT_EQ(k[21], std::vector<int>{10});
  // Not across a poem's end (↵), and not before the first closing line.
  const RoleKeys two = TextRoleKeys(RoleKind::kRhyme, CodePoints("地上霜。\n低头思故乡。"), {});
  for (const std::vector<int>& keys : two) EXPECT_TRUE(keys.empty());
  // A sentence is a closing line too: "b" before "c ." looks at "a", the last word before ".".
  const RoleKeys prose = TextRoleKeys(RoleKind::kRhyme, {"x", "a", ".", "y", "b", "c", "."}, {});
  EXPECT_EQ(prose[4], std::vector<int>{1});
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

// o[d]: the pattern's mean weight d back over every query i ≥ d (what MeasureHeadRoles pools).
std::vector<double> OffsetProfile(const std::vector<float>& w, int t) {
  std::vector<double> o(t, 0.0);
  for (int d = 0; d < t; ++d) {
    for (int i = d; i < t; ++i) o[d] += w[static_cast<size_t>(i) * t + i - d];
    o[d] /= t - d;
  }
  return o;
}

// Every role's score of pattern `w` on `symbols`, against its own offset profile.
std::vector<RoleScore> ScoresOf(const std::vector<float>& w,
                                const std::vector<std::string>& symbols) {
  const int t = static_cast<int>(symbols.size());
  const std::vector<double> offset = OffsetProfile(w, t);
  std::vector<RoleScore> scores;
  for (const RoleInfo& role : kRoles) {
    RoleTally tally;
    if (role.kind == RoleKind::kBroad) {
      tally.AddEntropy(w.data(), t);
    } else if (role.kind != RoleKind::kInduction && !role.needs_tags) {
      tally.Add(w.data(), t, TextRoleKeys(role.kind, symbols, {}));
    }
    scores.push_back(tally.Result(role.kind == RoleKind::kBroad ? std::vector<double>() : offset));
  }
  return scores;
}

size_t IndexOf(RoleKind kind) {
  size_t r = 0;
  while (kRoles[r].kind != kind) ++r;
  return r;
}

TEST(HeadRoleTally, AHeadOnItsKeysScoresOneAgainstTheUniformRowsChance) {
  const RoleKeys keys = Keys(RoleKind::kLineStart);
  const std::vector<float> w = OnKeys(keys);
  const int t = static_cast<int>(kPoem.size());
  double chance = 0.0;
  int queries = 0;
  for (int i = 0; i < t; ++i) {
    if (!keys[i].empty()) chance += 1.0 / (i + 1), ++queries;
  }
  const std::vector<RoleScore> scores = ScoresOf(w, kPoem);
  const RoleScore& line_start = scores[IndexOf(RoleKind::kLineStart)];
  EXPECT_EQ(line_start.queries, queries);
  EXPECT_DOUBLE_EQ(line_start.score, 1.0);
  EXPECT_NEAR(line_start.chance, chance / queries, 1e-12);
  EXPECT_NEAR(line_start.ratio, queries / chance, 1e-9);
  EXPECT_GT(line_start.matched_ratio, kMatchedRatio);  // its keys sit 2 to 6 back, not always
  EXPECT_DOUBLE_EQ(scores[IndexOf(RoleKind::kPrevious)].score, 0.0);
  EXPECT_DOUBLE_EQ(scores[IndexOf(RoleKind::kBroad)].score, 0.0);  // one-hot rows: no entropy
  EXPECT_EQ(RolesOf(scores), std::vector<std::string>{"lineStart"});
}

TEST(HeadRoleTally, AnOffsetHeadScoresOneTimesThePositionMatchedChance) {
  // A head that always looks one back scores 1 on a determiner right before its noun, and so
  // does its offset profile (o[1] = 1): 1× position-matched, though far above uniform.
  const RoleKeys keys = {{}, {0}, {}, {}, {3}};
  const std::vector<float> w = OnKeys(TextRoleKeys(RoleKind::kPrevious, CodePoints("abcde"), {}));
  RoleTally tally;
  tally.Add(w.data(), 5, keys);
  const RoleScore s = tally.Result({0.2, 1.0, 0.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(s.score, 1.0);
  EXPECT_DOUBLE_EQ(s.matched, 1.0);
  EXPECT_DOUBLE_EQ(s.matched_ratio, 1.0);
  EXPECT_NEAR(s.ratio, 1.0 / ((1.0 / 2 + 1.0 / 5) / 2), 1e-12);
  EXPECT_FALSE(Holds(kRoles[IndexOf(RoleKind::kNounModifier)], s));
}

// Two five-character couplets, a poem's end, and two seven-character ones: the parallel slot is
// 6 back in the first poem and 8 back in the second.
const std::vector<std::string> kTwoPoems = CodePoints(
    "\n床前明月光，疑是地上霜。举头望明月，低头思故乡。\n"
    "故人西辞黄鹤楼，烟花三月下扬州。孤帆远影碧空尽，唯见长江天际流。");

TEST(HeadRoleTally, ADistanceHeadFailsCoupletAndRhymeWhereTheKeysWereItsOwn) {
  const int t = static_cast<int>(kTwoPoems.size());
  // All of every row 6 back (itself before that): the parallel slot of every 5-character couplet.
  std::vector<float> w(static_cast<size_t>(t) * t, 0.0f);
  for (int i = 0; i < t; ++i) w[static_cast<size_t>(i) * t + (i >= 6 ? i - 6 : i)] = 1;
  std::vector<RoleScore> scores = ScoresOf(w, kTwoPoems);
  const RoleInfo& couplet = kRoles[IndexOf(RoleKind::kCouplet)];
  const RoleScore& c = scores[IndexOf(RoleKind::kCouplet)];
  EXPECT_GT(c.ratio, kRoleRatio);  // the uniform baseline alone would call it 对仗
  EXPECT_NEAR(c.matched_ratio, 1.0, 1e-9);
  EXPECT_FALSE(Holds(couplet, c));
  // The same for a head 11 back, where a 5-character poem's rhymes sit.
  for (int i = 0; i < t; ++i) {
    for (int j = 0; j <= i; ++j) w[static_cast<size_t>(i) * t + j] = (j == (i >= 11 ? i - 11 : i));
  }
  scores = ScoresOf(w, kTwoPoems);
  const RoleScore& r = scores[IndexOf(RoleKind::kRhyme)];
  EXPECT_GT(r.ratio, kRoleRatio);
  EXPECT_NEAR(r.matched_ratio, 1.0, 1e-9);
  EXPECT_FALSE(Holds(kRoles[IndexOf(RoleKind::kRhyme)], r));
  const std::vector<std::string> held = RolesOf(scores);
  EXPECT_EQ(std::find(held.begin(), held.end(), "rhyme"), held.end());
}

TEST(HeadRoleTally, HeadsOnTheParallelSlotAndOnThePreviousRhymePassBothBars) {
  const int t = static_cast<int>(kTwoPoems.size());
  for (RoleKind kind : {RoleKind::kCouplet, RoleKind::kRhyme}) {
    // All of a query's weight on the role's key where it has one, else on itself.
    const RoleKeys keys = TextRoleKeys(kind, kTwoPoems, {});
    const std::vector<float> w = OnKeys(keys);
    const std::vector<RoleScore> scores = ScoresOf(w, kTwoPoems);
    const RoleScore& s = scores[IndexOf(kind)];
    const char* name = kRoles[IndexOf(kind)].name;
    EXPECT_DOUBLE_EQ(s.score, 1.0) << name;
    EXPECT_GE(s.matched_ratio, kMatchedRatio) << name;
    EXPECT_EQ(RolesOf(scores), std::vector<std::string>{name});
  }
  // Rhyme: 故 → 霜 and 际 → 州, 11 and 15 back.
  const RoleKeys rhyme = TextRoleKeys(RoleKind::kRhyme, kTwoPoems, {});
  int counted = 0;
  for (int i = 0; i < t; ++i) counted += !rhyme[i].empty();
  EXPECT_EQ(counted, 2);
  EXPECT_EQ(rhyme[22], std::vector<int>{11});
  EXPECT_EQ(rhyme[t - 3], std::vector<int>{t - 18});
}

TEST(HeadRoleTally, TwoRolesWithinTenPercentAreBothNamedAndAFarRunnerUpIsNot) {
  std::vector<RoleScore> scores(kRoles.size());
  auto set = [&](RoleKind kind, double ratio, double matched_ratio) {
    RoleScore& s = scores[IndexOf(kind)];
    s.queries = 100;
    s.ratio = ratio;
    s.matched_ratio = matched_ratio;
  };
  set(RoleKind::kPrevious, 4.0, 1.0);  // positional: the matched bar does not apply
  set(RoleKind::kLineStart, 3.9, 2.5);
  EXPECT_EQ(RolesOf(scores), (std::vector<std::string>{"previous", "lineStart"}));
  set(RoleKind::kLineStart, 4.2, 2.5);
  EXPECT_EQ(RolesOf(scores), (std::vector<std::string>{"lineStart", "previous"}));
  set(RoleKind::kLineStart, 3.5, 2.5);  // 3.5 × 1.1 < 4
  EXPECT_EQ(RolesOf(scores), std::vector<std::string>{"previous"});
  set(RoleKind::kLineStart, 3.9, 1.9);  // close in × chance, but not ≥ 2× position-matched
  EXPECT_EQ(RolesOf(scores), std::vector<std::string>{"previous"});
  set(RoleKind::kPrevious, 2.9, 1.0);  // under 3× chance
  EXPECT_TRUE(RolesOf(scores).empty());
  scores[IndexOf(RoleKind::kBroad)] = {0.9, 1.0, 0.9, 0.0, 0.0, 100};
  EXPECT_EQ(RolesOf(scores), std::vector<std::string>{"broad"});
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
ModelConfig PreviousTokenConfig() {
  ModelConfig config;
  config.vocab_size = 8;
  config.context_length = 8;
  config.d_model = 16;
  config.heads = 2;
  config.layers = 1;
  config.attention_only = true;
  config.positional = PositionalKind::kLearned;
  return config;
}
bool SetPreviousTokenWeights(Model<float>* model) {
  auto tensor = [&](TensorKind kind, int layer) {
    for (size_t i = 0; i < model->layout().size(); ++i) {
      if (model->layout()[i].kind == kind && model->layout()[i].layer == layer) {
        return model->parameter(i);
      }
    }
    return static_cast<float*>(nullptr);
  };
  float* positions = tensor(TensorKind::kPositionEmbedding, -1);  // [8 × 16]
  float* wq = tensor(TensorKind::kWQ, 0);                         // [16 × 16], head 0: cols 0–7
  float* wk = tensor(TensorKind::kWK, 0);
  if (!(positions && wq && wk)) return false;
  for (int t = 0; t < 8; ++t) {
    positions[t * 16 + t] = 1.0f;
    wk[t * 16 + t] = 1.0f;
    if (t >= 1) wq[t * 16 + (t - 1)] = 40.0f;
  }
  return true;
}

TEST(MeasureHeadRoles, FindsAPreviousTokenHeadAndABroadOneInATinyModel) {
  const ModelConfig config = PreviousTokenConfig();
  ASSERT_TRUE(ValidateModelConfig(config).ok());
  Model<float> model(config);
  ASSERT_TRUE(SetPreviousTokenWeights(&model));
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
  EXPECT_EQ(roles.roles[0][0], std::vector<std::string>{"previous"});
  EXPECT_NEAR(previous_head[0].matched_ratio, 1.0, 1e-6);  // a distance, by definition
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
  EXPECT_EQ(roles.roles[0][1], std::vector<std::string>{"broad"});
  EXPECT_FALSE(MeasureHeadRoles(&model, {4, 5}, symbols, {}, &roles).ok());
}

// The page measures in steps (HeadRolesMeasure): batches of 2 give exactly the numbers of
// MeasureHeadRoles' batches of 16, and a shorter window, fewer windows and no poem roles are what
// they say.
TEST(HeadRolesMeasure, StepsOfAnyBatchGiveTheWholeMeasureAndOptionsAreChecked) {
  Model<float> model(PreviousTokenConfig());
  ASSERT_TRUE(SetPreviousTokenWeights(&model));
  const std::vector<std::string> symbols = {"<pad>", "<unk>", "<bos>", "<eos>",
                                            "a",     "b",     "c",     "。"};
  std::vector<int> ids;
  for (int i = 0; i < 40; ++i) ids.push_back(4 + (i * 5 + i / 3) % 4);
  HeadRoles whole, stepped;
  ASSERT_TRUE(MeasureHeadRoles(&model, ids, symbols, {}, &whole, 8, 3).ok());
  RolesOptions options;
  options.repeats = 8;
  options.seed = 3;
  options.batch = 2;
  HeadRolesMeasure measure;
  ASSERT_TRUE(measure.Start(&model, ids, symbols, {}, options).ok());
  EXPECT_EQ(measure.steps(), 3 + 4);  // 5 windows, then 8 sequences, 2 at a time
  while (!measure.finished()) ASSERT_TRUE(measure.Step().ok());
  measure.Finish(&stepped);
  EXPECT_EQ(stepped.windows, whole.windows);
  EXPECT_EQ(stepped.roles, whole.roles);
  for (int h = 0; h < 2; ++h) {
    for (size_t r = 0; r < kRoles.size(); ++r) {
      const RoleScore& a = whole.scores[0][h][r];
      const RoleScore& b = stepped.scores[0][h][r];
      EXPECT_EQ(a.queries, b.queries) << kRoles[r].name;
      EXPECT_DOUBLE_EQ(a.score, b.score) << kRoles[r].name;
      EXPECT_DOUBLE_EQ(a.chance, b.chance) << kRoles[r].name;
      EXPECT_DOUBLE_EQ(a.matched, b.matched) << kRoles[r].name;
    }
  }

  // Windows of 4, at most 3 of them, no couplet or rhyme: the head still looks one back.
  options.window = 4;
  options.max_windows = 3;
  options.poem = false;
  HeadRoles short_windows;
  ASSERT_TRUE(measure.Start(&model, ids, symbols, {}, options).ok());
  while (!measure.finished()) ASSERT_TRUE(measure.Step().ok());
  measure.Finish(&short_windows);
  EXPECT_EQ(short_windows.windows, 3);
  EXPECT_GT(short_windows.scores[0][0][0].score, 0.99);
  EXPECT_EQ(short_windows.scores[0][0][0].queries, 3 * 3);  // i = 1 … 3 of each window
  EXPECT_EQ(short_windows.scores[0][0][2].queries, 0);      // couplet
  EXPECT_EQ(short_windows.scores[0][0][3].queries, 0);      // rhyme
  EXPECT_EQ(short_windows.scores[0][0][6].queries, 8 * 2);  // induction: r = 2 queries each

  const auto field = [&](RolesOptions o, std::vector<int> sample) {
    return measure.Start(&model, sample, symbols, {}, o).field();
  };
  RolesOptions bad;
  bad.window = 9;  // more than the context
  EXPECT_EQ(field(bad, ids), "window");
  bad.window = 1;
  EXPECT_EQ(field(bad, ids), "window");
  bad = RolesOptions();
  bad.batch = 0;
  EXPECT_EQ(field(bad, ids), "batch");
  bad = RolesOptions();
  bad.max_windows = -1;
  EXPECT_EQ(field(bad, ids), "maxWindows");
  std::vector<int> outside = ids;
  outside[3] = 8;  // no symbol
  EXPECT_EQ(field(RolesOptions(), outside), "ids");
  EXPECT_EQ(field(RolesOptions(), {4, 5}), "ids");
}

}  // namespace
}  // namespace attention::train
