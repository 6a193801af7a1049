// Head roles of a trained language model, measured on held-out text rather than
// on one typed sentence: for every layer × head, the mean attention weight it puts on the keys
// each role predicts, against that role's chance baseline.
//
// A role names, for each query position i of a window, a set K_i of keys (j ≤ i); a query with
// no key is not counted. Over the counted queries of every window:
//   score    = mean of Σ_{j∈K_i} w[i][j]
//   chance   = mean of |K_i| / (i + 1): a uniform causal row (the "uniform" baseline); rules out
//              a head that merely spreads its weight over what it can see
//   matched  = mean of Σ_{j∈K_i} o[i − j] (the "position-matched" baseline): o[d] is the head's
//              own mean weight at distance d back over every query of the held-out text (every
//              i ≥ d of every window), so a head that attends by distance alone puts exactly
//              `matched` on the keys: it rules out a head that looks a fixed number of tokens
//              back and lands on the role's keys because the text is regular (a 5-character
//              poem puts the parallel slot 6 back)
//   ratio    = score / chance ("× chance"), matched_ratio = score / matched.
// A head holds a weight role when ratio ≥ kRoleRatio and matched_ratio ≥ kMatchedRatio; a
// positional role (previous: its keys are a distance, so matched_ratio is 1 by definition) needs
// only the first. Among the roles a head holds, every one within kRoleMargin of the best ratio is
// shown (two roles within 10% of each other are both named, never one picked by a hair).
// The text roles (symbols only; "marks" are the line-ending tokens of kLineMarks, \n ，。！？；
// . ! ? ;; a "closing" line is one whose run of marks has a closing one, 。！？； . ! ? ; (a poem's
// even line), an "opening" line one whose run of marks is ， alone; \n ends a poem):
//   previous   K = {i − 1} (positional)
//   lineStart  K = {the last mark before i}: the punctuation that opened the current line; not
//              counted when that mark is i − 1 (the line's first token: a previous-token key) nor
//              when it is the window's first token (a sink many heads park on: first's key; the
//              page's text starts with the ↵ the model reads first)
//   couplet    对仗: for each non-mark query of a closing line right after an opening line of the
//              same length, K = {the token at its offset in the opening line}; both lines whole
//              in the window (the opening line not the window's first, which may have begun
//              before it)
//   rhyme      at the query before a closing line's last non-mark token (the query that predicts
//              the rhyme), K = {the last non-mark token of the closing line before it in the same
//              poem} (the previous rhyme), when no \n lies between
//   duplicate  K = {every earlier j with the same symbol}, for queries that are not a mark or
//              <unk>, without j = i − 1
//   first      K = {0}, for i ≥ 2 (at i = 1 the first token is the previous one)
//   induction  on repeated random sequences (Olsson et al. 2022), not on text: r = T/2 random
//              ids (uniform over the non-special vocabulary) then the same r again; K = {i − r + 1}
//              (the token after the earlier occurrence) for the second copy's queries i ≥ r; its
//              matched baseline takes o[d] from the text (a head that looks r − 1 back on any
//              text scores 1×)
//   broad      not a weight: the row's entropy over the most it could be, −Σ w ln w / ln(i + 1),
//              for i ≥ 1; chance is the uniform row's 1
// Part-of-speech roles (Brown tags; tags.empty() skips them):
//   nounModifier  a noun (nn*, np*) to its determiners and adjectives: the tokens tagged at, dt*,
//                 abn, abx, ap, jj*, pp$, cd, od in the run of such tokens and nouns right before
//                 it
//   verbNoun      a verb (vb*) to the nearest preceding noun or subject pronoun (nn*, np*, pps,
//                 ppss)
//   closeQuote    a closing quote ('') to its opening one (``), the last one before it
// A token's base tag is its Brown tag without a fw- prefix, a -tl/-hl/-nc suffix or a +… part
// (nn-tl → nn, pps+bez → pps); a word the engine splits (area's → area ' s) tags its first piece.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/status.hpp"
#include "attention/train/model.hpp"
#include "attention/train/model_io.hpp"

namespace attention::train {

enum class RoleKind {
  kPrevious,
  kLineStart,
  kCouplet,
  kRhyme,
  kDuplicate,
  kFirst,
  kInduction,
  kBroad,
  kNounModifier,
  kVerbNoun,
  kCloseQuote,
};

struct RoleInfo {
  RoleKind kind;
  const char* name;  // the key in models/<name>.roles.json and the page
  bool positional;   // its keys are a distance: the position-matched bar does not apply
  bool needs_tags;
};
// Whether the role is a weight on its keys; false: broad, the row's entropy.
inline bool IsWeightRole(const RoleInfo& role) { return role.kind != RoleKind::kBroad; }
// Every role, in the order that breaks a tie between two heads' best roles. The engine's catalog
// exports it (cpp/bindings/catalog.cpp): JS reads the names from there.
extern const std::vector<RoleInfo> kRoles;

// What a line's run of marks says when it has this mark (see above): \n ends a poem, ， alone
// only opens a couplet, the others close a sentence or a poem's even line.
enum class MarkKind { kPoemEnd, kOpening, kClosing };
struct LineMark {
  const char* text;
  MarkKind kind;
  // A poem's line end: the lines head_labels.js's previousLine aligns (an English sentence's
  // . ! ? ; end a line for the roles only).
  bool verse;
};
// The marks, exported with kRoles: head_roles.js and head_labels.js read them from the catalog.
extern const std::vector<LineMark> kLineMarks;

// For each query i of a window [T], the keys the role predicts ([T] lists, ascending; empty: the
// query is not counted). `symbols` [T] are the vocabulary's symbols of the window's ids; `tags`
// [T] the Brown base tags of the window's tokens ("" for none), or empty. Not for kInduction
// (see RepeatedSequenceKeys) nor kBroad (not a weight).
using RoleKeys = std::vector<std::vector<int>>;
RoleKeys TextRoleKeys(RoleKind role, const std::vector<std::string>& symbols,
                      const std::vector<std::string>& tags);

// kInduction's keys on a sequence of length T whose second half repeats its first r = T/2.
RoleKeys RepeatedSequenceKeys(int length);

// One head's pooled measure of one role.
struct RoleScore {
  double score = 0.0, chance = 0.0, ratio = 0.0;
  double matched = 0.0, matched_ratio = 0.0;  // 0 without an offset profile
  int64_t queries = 0;
};

// Sums for RoleScore over windows, for one head and role; Add takes the head's weights
// [T × T] row-major (row i: keys 0 … i).
class RoleTally {
 public:
  void Add(const float* weights, int length, const RoleKeys& keys);
  void AddEntropy(const float* weights, int length);  // kBroad
  // `offset_weight` [T]: the head's o[d]; empty leaves matched and matched_ratio 0.
  RoleScore Result(const std::vector<double>& offset_weight) const;

 private:
  double weight_ = 0.0, uniform_ = 0.0;
  int64_t queries_ = 0;
  std::vector<int64_t> offsets_;  // [T] how many keys at offset d
};

// Every head's score for every role: [layers][heads][kRoles.size()], and the head's roles
// (RolesOf): the weight roles it holds (≥ kRoleRatio× chance and ≥ kMatchedRatio× matched, see
// above) within kRoleMargin of the best ratio, best first; else {"broad"} if its broad score is
// ≥ kBroadScore; else none.
inline constexpr double kRoleRatio = 3.0;
inline constexpr double kMatchedRatio = 2.0;
inline constexpr double kRoleMargin = 1.1;  // a role within 10% of the best is named too
inline constexpr double kBroadScore = 0.85;
struct HeadRoles {
  std::vector<std::vector<std::vector<RoleScore>>> scores;
  std::vector<std::vector<std::vector<std::string>>> roles;
  int windows = 0;  // text windows measured
};

// Runs `model` (causal) on the full windows of contextLength ids of `ids` (a trailing shorter
// one is left out) and on `repeats` repeated random sequences drawn from RandomState(seed), and
// measures every role. `symbols` is the vocabulary ([V]); `tags` [ids.size()] or empty.
// Errors: fewer ids than one window ("ids"), tags of another length ("tags"), or Forward's.
Status MeasureHeadRoles(Model<float>* model, const std::vector<int>& ids,
                        const std::vector<std::string>& symbols,
                        const std::vector<std::string>& tags, HeadRoles* out, int repeats = 64,
                        uint32_t seed = 1);

// MeasureHeadRoles in steps, for a caller that shows progress and can stop between them (the
// page measures a GPT-2 checkpoint, which has no sidecar, in its worker): Start checks the
// input, each Step forwards one batch of windows (text first, then the repeated sequences), and
// Finish pools them. MeasureHeadRoles is Start, Step until done, Finish: the same numbers.
struct RolesOptions {
  int window = 0;  // the window's length; 0: the model's contextLength (1 ≤ window ≤ it)
  int repeats = 64;
  uint32_t seed = 1;
  int batch = 16;       // windows per Step
  bool poem = true;     // false skips couplet and rhyme (no poem lines in the text: a BPE model)
  int max_windows = 0;  // 0: every full window of `ids`; else at most this many
};
class HeadRolesMeasure {
 public:
  // Errors: "ids" (fewer than one window), "tags" (another length), "window", "repeats",
  // "batch" (out of range), "model" (null).
  Status Start(Model<float>* model, const std::vector<int>& ids,
               const std::vector<std::string>& symbols, const std::vector<std::string>& tags,
               const RolesOptions& options);
  Status Step();
  int steps() const { return text_steps_ + repeat_steps_; }
  int done() const { return done_; }
  bool finished() const { return done_ >= steps(); }
  void Finish(HeadRoles* out) const;

 private:
  Model<float>* model_ = nullptr;
  RolesOptions options_;
  int t_ = 0, windows_ = 0, heads_ = 0, text_steps_ = 0, repeat_steps_ = 0, done_ = 0;
  std::vector<int> text_, repeated_;
  std::vector<std::string> symbols_, tags_;      // [windows × t] the window's symbols and tags
  std::vector<std::vector<RoleTally>> tally_;    // [L·H][roles]
  std::vector<std::vector<double>> offset_sum_;  // [L·H][t]
  std::vector<int64_t> offset_count_;            // [t], the same for every head
};

// A tagged text of whitespace-separated word/tag tokens (the tag after the last '/', e.g.
// "the/at dog/nn"), as the engine's word tokenizer reads its words: `pieces` [n] the tokens,
// `tags` [n] the base tag of each word's first piece and "" for its other pieces. Errors:
// a token without a tag ("tags[i]", the word's index), or Tokenize's.
Status ReadTaggedText(const std::string& tagged, std::vector<std::string>* pieces,
                      std::vector<std::string>* tags);

// What MeasureHeadRoles reads for a shipped model: the model file, its held-out sample encoded
// by the model's vocabulary, and the sample's tags from a tagged copy (ReadTaggedText), whose
// pieces must be the sample's tokens one for one. `tags_path` "" reads no tags. Errors name
// the file ("model", "sample", "tags") or the first token that differs ("tags[i]").
struct RolesInput {
  LoadedModel loaded;
  std::vector<int> ids;
  std::vector<std::string> tags;
};
Status LoadRolesInput(const std::string& model_path, const std::string& sample_path,
                      const std::string& tags_path, RolesInput* input);

// Whether a head whose score for `role` is `score` holds that weight role: ≥ kRoleRatio× chance
// and, unless the role is positional, ≥ kMatchedRatio× its position-matched baseline.
bool Holds(const RoleInfo& role, const RoleScore& score);

// The head's roles (see HeadRoles) from its scores [kRoles.size()].
std::vector<std::string> RolesOf(const std::vector<RoleScore>& scores);

}  // namespace attention::train
